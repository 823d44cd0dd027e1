//! AT22's numerical recipes (B.2) and (B.3) for NoisySGD (sampled Gaussian Q via
//! Lemma 2.12 or the certified quadrature, noise split σ₁/σ₂ searched in f64, value
//! certified), their first-order and printed forms (ERRATA), and their inputs from a
//! run's setting at the safe ends ([`RecipeBInputs`]). Parameter model: [`super::at22`].
use super::at22_params::*;
pub use super::at22_params::{PabiGap, RecipeBInputs};
use super::at22_theorems::{QReading, q_at_split, scan_t_tilde, sgm_q_search};
use crate::error::hyp;
use crate::error::{Result, positive_finite};
use crate::precision::Enclosure;
use crate::provenance::ResultId;
use crate::settings::Setting;

/// The objective of (B.2) (c = None) or (B.3) (c = Some(c)) at one noise split and T̃,
/// as an enclosure: `T̃·Q + R(T̃)` with R = αD²/(2η²σ₁²T̃) for (B.2) and
/// αD²(1−c²)/(2η²σ₁²(c^{−2T̃}−1)) for (B.3). With Q = 0 it is the PABI term alone
/// ((α/2)× the Prop 3.2 / 5.6 schedule optimum with s ≡ 0 from z_τ = D over T̃ steps of
/// noise ησ₁; checked against the KKT solver in tests/renyi_at22.rs).
///
/// `gap` holds η, σ₁, D and c (see [`PabiGap`] for the direction of each rounding);
/// `k` is T̃; `wp` is the working precision of the enclosure arithmetic. The recipes certify their
/// value at the chosen (σ₁, T̃) with this function.
///
/// # Example
/// ```
/// use shiftdp::precision::Enclosure;
/// // (B.2), Q = 0, T̃ = 2: αD²/(2η²σ₁²·2) = 2·1/(2·1·1·2) = 0.5
/// use shiftdp::renyi::at22::{PabiGap, b_term};
/// let zero = Enclosure::from_u64(96, 0);
/// let gap = PabiGap { eta: 1.0, sigma1: 1.0, d: 1.0, c: None };
/// let v = b_term(2.0, &zero, &gap, 2, 96);
/// assert!((v.mid_f64() - 0.5).abs() < 1e-15);
/// ```
pub fn b_term(alpha: f64, qv: &Enclosure, gap: &PabiGap, k: u64, wp: u32) -> Enclosure {
    let PabiGap { eta, sigma1, d, c } = *gap;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let kk = Enclosure::from_u64(wp, k);
    let base =
        e(alpha) * e(d).square() / (Enclosure::from_u64(wp, 2) * (e(eta) * e(sigma1)).square());
    let tail = match c {
        None => base / kk.clone(),
        Some(c) => {
            // (1 − c²)/(c^{−2T̃} − 1) = c^{2T̃}(1 − c²)/(1 − c^{2T̃})
            let c2 = e(c).square();
            let one = Enclosure::from_u64(wp, 1);
            let p = c2.powu(k);
            base * p.clone() * (one.clone() - c2) / (one - p)
        }
    };
    kk * qv.with_prec(wp) + tail
}

/// The recipes (B.2) (convex, c = None) and (B.3) (c-contractive, c = Some(c)) at one
/// order α, in the toolkit's model (L = 2L_AT); Q as printed. (B.2) holds for every
/// c ≤ 1, so `x.c` is not read here (see [`recipe_b_with`] for the recipe `x.c` selects).
///
/// # Formula
/// `ε ≤ min{ T·S_α(b/n, bσ/L), min_{σ₁²+σ₂²=σ²} min_{T̃∈{1..T−1}} T̃Q + R(T̃) }`,
/// Q = S_α(b/n, bσ₂/L), R = αD²/(2η²σ₁²T̃) for (B.2) and
/// αD²(1−c²)/(2η²σ₁²(c^{−2T̃}−1)) for (B.3). The split σ₁ is found by a golden-section
/// search (AT22 suggest a ternary search), T̃ by scanning around the first-order point
/// and the ends; the value at the chosen (σ₁, T̃) is certified. The inputs (q = b/n, b/L,
/// η, σ, T, D, c) are the fields of `x`; [`RecipeBInputs`] states the direction in which
/// each is rounded.
///
/// # Errors
/// [`Error::Hypothesis`](crate::Error::Hypothesis) for α ≤ 1, T < 1, c ∉ (0, 1); [`Error::Parameter`](crate::Error::Parameter) for bad
/// numbers; quadrature errors.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::{RecipeBInputs, recipe_b2};
/// // T = 1: no PABI branch (T̃ ∈ {1, …, T−1} is empty), the bound is T·S_α(q, bσ/L)
/// let x = RecipeBInputs { q: 0.1, b_over_l: 1.0, eta: 1.0, sigma: 1.0, t: 1, d: 1.0, c: None };
/// let e = recipe_b2(2.0, &x, 64).unwrap();
/// let ts = shiftdp::renyi::sampled_gaussian::s_alpha(2.0, 0.1, 1.0, 64).unwrap().upper_f64();
/// assert!((e.upper_f64() / ts - 1.0).abs() < 1e-9);
/// ```
///
/// # References
/// AT22 App. B.2, B.3.
pub fn recipe_b2(alpha: f64, x: &RecipeBInputs, bits: u32) -> Result<Enclosure> {
    recipe_b_with(
        alpha,
        &RecipeBInputs { c: None, ..*x },
        QReading::AsPrinted,
        bits,
    )
}

/// [`recipe_b2`] (`x.c` = None) or [`recipe_b3`] (`x.c` = Some(c)) with Q read as
/// `reading` ([`QReading::BothOrders`]: the larger of the two orders of the sampled
/// Gaussian pair, which the toolkit's `compare` uses; ERRATA.md AT1).
///
/// # Errors
/// As [`recipe_b2`] / [`recipe_b3`].
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::{RecipeBInputs, recipe_b2, recipe_b_with};
/// use shiftdp::renyi::at22_theorems::QReading;
/// let x = RecipeBInputs { q: 0.1, b_over_l: 1.0, eta: 1.0, sigma: 1.0, t: 1, d: 1.0, c: None };
/// let p = recipe_b2(10.0, &x, 64).unwrap();
/// let b = recipe_b_with(10.0, &x, QReading::BothOrders, 64).unwrap();
/// assert!(b.upper_f64() > p.upper_f64());
/// ```
pub fn recipe_b_with(
    alpha: f64,
    x: &RecipeBInputs,
    reading: QReading,
    bits: u32,
) -> Result<Enclosure> {
    match x.c {
        None => recipe_b(ResultId::At22EqB2, alpha, x, reading, bits),
        Some(c) => {
            if !(c > 0.0 && c < 1.0) {
                return Err(hyp(ResultId::At22EqB3, "H: 0 < c < 1", format!("c = {c}")));
            }
            recipe_b(ResultId::At22EqB3, alpha, x, reading, bits)
        }
    }
}

/// AT22 (B.3): see [`recipe_b2`]; the contraction is `x.c`.
///
/// # Errors
/// As [`recipe_b2`], and "H: 0 < c < 1" (also when `x.c` is `None`).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::{RecipeBInputs, recipe_b2, recipe_b3};
/// // contraction only helps: (B.3) ≤ (B.2)
/// let x = RecipeBInputs { q: 0.05, b_over_l: 2.0, eta: 0.5, sigma: 1.0, t: 200, d: 1.0, c: Some(0.9) };
/// let b2 = recipe_b2(3.0, &x, 64).unwrap();
/// let b3 = recipe_b3(3.0, &x, 64).unwrap();
/// assert!(b3.upper_f64() <= b2.upper_f64() * (1.0 + 1e-9));
/// ```
///
/// # References
/// AT22 App. B.3.
pub fn recipe_b3(alpha: f64, x: &RecipeBInputs, bits: u32) -> Result<Enclosure> {
    if x.c.is_none() {
        return Err(hyp(ResultId::At22EqB3, "H: 0 < c < 1", "c not given"));
    }
    recipe_b_with(alpha, x, QReading::AsPrinted, bits)
}

fn recipe_b(
    id: ResultId,
    alpha: f64,
    x: &RecipeBInputs,
    reading: QReading,
    bits: u32,
) -> Result<Enclosure> {
    let RecipeBInputs {
        q,
        b_over_l,
        eta,
        sigma,
        t,
        d,
        c,
    } = *x;
    super::curve::check_order(alpha)?;
    positive_finite(&[
        ("b/L", b_over_l),
        ("eta", eta),
        ("noise", sigma),
        ("diameter", d),
    ])?;
    if t == 0 {
        return Err(hyp(id, "H: T ≥ 1", "T = 0"));
    }
    let wp = bits + 32;
    let first = q_at_split(alpha, q, b_over_l, sigma, reading, bits)?.with_prec(wp)
        * Enclosure::from_u64(wp, t);
    if t < 2 {
        return Ok(first.with_prec(bits));
    }
    // inner: best T̃ at a given σ₁ (f64), value f64
    let inner = |s1: f64| -> Option<(f64, u64)> {
        let s2 = (sigma * sigma - s1 * s1).max(0.0).sqrt();
        if s2 <= 0.0 || s1 <= 0.0 {
            return None;
        }
        let qf = sgm_q_search(alpha, q, b_over_l * s2, reading)?;
        let a = alpha * d * d / (2.0 * eta * eta * s1 * s1);
        let f = |k: u64| -> f64 {
            let tail = match c {
                None => a / k as f64,
                Some(c) => {
                    let p = (2.0 * k as f64 * c.ln()).exp();
                    a * p * (1.0 - c * c) / (1.0 - p)
                }
            };
            k as f64 * qf + tail
        };
        let k0 = match c {
            None => (a / qf).sqrt(),
            Some(c) => first_order_b3(a, qf, c).unwrap_or(1.0),
        };
        Some(scan_t_tilde(f, k0, t - 1))
    };
    // golden-section over u = σ₁/σ ∈ (0, 1)
    let g = |u: f64| inner(u * sigma).map(|x| x.0).unwrap_or(f64::INFINITY);
    let u = crate::precision::search::golden_section_min(g, 1e-6, 1.0 - 1e-9, 40).x;
    let s1 = u * sigma;
    match inner(s1) {
        Some((_, k)) => {
            let s2 = (sigma * sigma - s1 * s1).sqrt();
            // recompute Q certified at `bits`; σ₂ is the f64 value used, σ₁ rounded
            // down from √(σ² − σ₂²) so that σ₁² + σ₂² ≤ σ² (less noise is safe)
            let s1_safe = (Enclosure::from_f64(wp, sigma).square()
                - Enclosure::from_f64(wp, s2).square())
            .sqrt()
            .lower_f64();
            if s1_safe.is_nan() || s1_safe <= 0.0 {
                return Ok(first.with_prec(bits));
            }
            // a split whose Q cannot be certified is dropped (the T·S_α branch stands)
            let Ok(qv) = q_at_split(alpha, q, b_over_l, s2, reading, bits) else {
                return Ok(first.with_prec(bits));
            };
            let gap = PabiGap {
                eta,
                sigma1: s1_safe,
                d,
                c,
            };
            let v = b_term(alpha, &qv, &gap, k, wp);
            Ok(first.min(&v).with_prec(bits))
        }
        None => Ok(first.with_prec(bits)),
    }
}

/// The first-order T̃ of (B.3), with (1 − c²) (AT22 App. B.3 prints (1 − c)²; see
/// ERRATA.md AT6): T̃ = −log((2−β+√((2−β)²−4))/2)/(2 log c),
/// β = 2A(1−c²) log c / Q, A = αD²/(2η²σ₁²).
///
/// # Formula
/// Stationary point of T̃Q + A(1−c²)/(c^{−2T̃}−1) in T̃ > 0.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::first_order_b3;
/// let (a, q, c) = (50.0, 0.01, 0.95);
/// let k = first_order_b3(a, q, c).unwrap();
/// let f = |x: f64| x * q + a * (1.0 - c * c) / (c.powf(-2.0 * x) - 1.0);
/// assert!(f(k) <= f(k * 1.01) && f(k) <= f(k * 0.99));
/// ```
pub fn first_order_b3(a: f64, q: f64, c: f64) -> Option<f64> {
    let beta = 2.0 * a * (1.0 - c * c) * c.ln() / q;
    first_order_b3_beta(beta, c)
}

/// The printed first-order T̃ of (B.3) for a given β.
pub fn first_order_b3_beta(beta: f64, c: f64) -> Option<f64> {
    let disc = (2.0 - beta).powi(2) - 4.0;
    if disc.is_nan() || disc < 0.0 || c.is_nan() || c <= 0.0 || c >= 1.0 {
        return None;
    }
    let x = (2.0 - beta + disc.sqrt()) / 2.0;
    let k = -x.ln() / (2.0 * c.ln());
    k.is_finite().then_some(k)
}

/// β of (B.3) exactly as printed: (1 − c)² α D² log c / (Q η² σ₁²).
pub fn printed_beta_b3(alpha: f64, d: f64, c: f64, q: f64, eta: f64, sigma1: f64) -> f64 {
    (1.0 - c).powi(2) * alpha * d * d * c.ln() / (q * eta * eta * sigma1 * sigma1)
}

/// The AT22 recipe a NoisySGD setting selects: (B.3) when the upper end of its
/// contraction enclosure (rounded up to f64) is < 1, else (B.2) (valid for every c ≤ 1).
pub fn recipe_b_id(s: &Setting) -> ResultId {
    match s.c.as_ref().map(Enclosure::upper_f64) {
        Some(c) if c < 1.0 => ResultId::At22EqB3,
        _ => ResultId::At22EqB2,
    }
}

/// The arguments of (B.2)/(B.3) for a NoisySGD setting (see [`RecipeBInputs`] for the
/// direction of each rounding).
///
/// # Errors
/// [`Error::Hypothesis`](crate::Error::Hypothesis) (naming the selected recipe) without a diameter, without a
/// contraction, or for c > 1.
pub fn recipe_b_inputs(s: &Setting) -> Result<RecipeBInputs> {
    let id = recipe_b_id(s);
    let d =
        s.d.as_ref()
            .ok_or_else(|| hyp(id, "constraint set of diameter D", "needs the diameter D"))?;
    let c = contraction(s, id)?;
    // the (B.3) term increases with c: feed the upper end of c's enclosure
    let c_up = c.upper_f64();
    let b_over_l = (Enclosure::from_u64(128, s.b) / s.l.clone()).lower_f64();
    Ok(RecipeBInputs {
        q: s.p().upper_f64(),
        b_over_l,
        eta: s.eta.lower_f64(),
        sigma: s.sigma.lower_f64(),
        t: s.t,
        d: d.upper_f64(),
        c: (c_up < 1.0).then_some(c_up),
    })
}

/// (B.2) or (B.3) (as [`recipe_b_id`] selects) for a NoisySGD setting at order α, as
/// `compare` and the validator evaluate it: the arguments of [`recipe_b_inputs`] (q = b/n
/// up, b/L, η and σ down, D up, c up); Q read as `reading`.
///
/// # Errors
/// [`Error::Hypothesis`](crate::Error::Hypothesis) (naming the selected recipe) without a diameter, without a
/// contraction, or for c > 1; errors of [`recipe_b_with`].
pub fn recipe_b_for_setting(
    s: &Setting,
    alpha: f64,
    reading: QReading,
    bits: u32,
) -> Result<Enclosure> {
    let x = recipe_b_inputs(s)?;
    recipe_b_with(alpha, &x, reading, bits)
}
