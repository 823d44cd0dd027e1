//! Altschuler–Talwar 2022 (AT22): Rényi-DP of noisy (stochastic) gradient descent by
//! privacy amplification by iteration (PABI) with shifted Rényi divergences.
//!
//! * Props 2.17 / 3.2 / 5.6 through the shift-schedule problem of SPEC §4 with the
//!   Rényi objective (α/2)Σ(a_k/ς_k)²: the optimal shifts are those of the GDP problem
//!   (same objective up to the factor α/2), so D_α ≤ (α/2)μ*² = ρα with ρ = μ*²/2
//!   ([`pabi_rho`]);
//! * the numerical recipes (3.6), (B.1), (B.2), (B.3) as stated ([`recipe_3_6`],
//!   [`recipe_b1_rho`], [`recipe_b2`], [`recipe_b3`]);
//! * Lemma 2.12 with α*(q, σ) ([`alpha_star`], [`lemma_2_12`]).
//!
//! # Parameter model
//! AT22 use the toolkit's template (SPEC §2): noise N(0, η²σ²) per step, but state
//! results with the **Lipschitz constant** L_AT, so that gradients of replace-adjacent
//! datasets differ by at most 2L_AT. The toolkit's gradient sensitivity is L = 2L_AT:
//! every `2L` of AT22 is the toolkit's `L` (the functions here take the toolkit's L
//! and say so), e.g. Q = S_α(b/n, bσ₂/(2L_AT)) = S_α(b/n, bσ₂/L).
//!
//! # Rounding
//! Searches (τ, T̃, the noise split σ₁) run in f64; the value at the chosen point is
//! recomputed as an enclosure, reported by its upper end. Any choice of these
//! parameters yields a valid bound, so search error costs only tightness.
//!
//! # References
//! J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent: more
//! iterations without more privacy loss*, NeurIPS 2022 (Props 2.17, 3.2, 5.6,
//! Lemma 2.12, eqs. (3.6), (B.1)–(B.3)); I. Mironov, K. Talwar, L. Zhang, *Rényi
//! differential privacy of the sampled Gaussian mechanism* (2019), Thm 11.
pub use super::at22_lemma_2_12::{LEMMA_2_12, alpha_star, alpha_star_conditions, lemma_2_12};
use super::at22_theorems::{QReading, scan_t_tilde, sgm_q, sgm_q_search};
use super::cys21::ToolkitTranslation;
use super::sampled_gaussian::s_alpha;
use crate::bounds::RdpBound;
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use crate::precision::rounding::mul_down_f64;
use crate::renyi::RenyiCurve;
use crate::renyi::curve::tabulate;
use crate::schedules::ScheduleProblem;
use crate::schedules::settings::{CyclicOrder, noisy_cgd, noisy_gd};
use crate::schedules::tau::{TauSearch, search_tau};
use crate::settings::{Algorithm, Setting};

/// AT22 Prop 2.17 (original PABI bound).
pub const PROP_2_17: &str = crate::provenance::ResultId::At22Prop2_17.as_str();
/// AT22 Prop 3.2 (PABI from a bounded gap at time τ).
pub const PROP_3_2: &str = crate::provenance::ResultId::At22Prop3_2.as_str();
/// AT22 Prop 5.6 (PABI with c-contractions).
pub const PROP_5_6: &str = crate::provenance::ResultId::At22Prop5_6.as_str();
/// AT22 eq. (3.6).
pub const EQ_3_6: &str = crate::provenance::ResultId::At22Eq3_6.as_str();
/// AT22 eq. (B.1).
pub const EQ_B1: &str = crate::provenance::ResultId::At22EqB1.as_str();
/// AT22 eq. (B.2).
pub const EQ_B2: &str = crate::provenance::ResultId::At22EqB2.as_str();
/// AT22 eq. (B.3).
pub const EQ_B3: &str = crate::provenance::ResultId::At22EqB3.as_str();
/// AT22 Lemma 2.12.
use crate::bounds::hyp;

/// The optimal PABI bound of a schedule problem: ρ with D_α ≤ ρα for every α, and the τ.
///
/// # Formula
/// AT22 Props 2.17 (τ = 0, z₀ = 0), 3.2 (z_τ = D, c_k = 1), 5.6 (c_k-contractions):
/// D_α(X_T ‖ X′_T) ≤ (α/2) Σ_k a_k²/ς_k² for any feasible shifts; minimizing gives
/// (α/2)μ*² with μ* the optimum of SPEC §4 ([`search_tau`] + KKT). So ρ = μ*²/2.
///
/// # Errors
/// Errors of the solver and of the certificate.
///
/// # Rounding
/// μ is [`ScheduleProblem::certify`] of the KKT shifts (rounded up); ρ is an enclosure
/// of (μ_up)²/2, reported by its upper end.
///
/// # Example
/// ```
/// use shiftdp::precision::Enclosure;
/// use shiftdp::renyi::at22::pabi_rho;
/// use shiftdp::schedules::ScheduleProblem;
/// // c = 1, s = ς = 1, t = 5, no constraint: the composition optimum μ² = t s²/ς² = 5
/// let one = Enclosure::from_u64(128, 1);
/// let p = ScheduleProblem::constant(5, one.clone(), one.clone(), one, None).unwrap();
/// let (rho, tau) = pabi_rho(&p, 128).unwrap();
/// assert_eq!(tau, 0);
/// assert!(rho.upper_f64() >= 2.5 && rho.upper_f64() < 2.5 + 1e-12);
/// ```
///
/// # References
/// AT22 Props 2.17, 3.2, 5.6; SPEC §4.
pub fn pabi_rho(p: &ScheduleProblem<Enclosure>, bits: u32) -> Result<(Enclosure, usize)> {
    let r = search_tau(p, TauSearch::Auto { limit: 4000 })?;
    let cert = p.certify(r.best.tau, &r.best.shifts_f64(), bits)?;
    let mu = Enclosure::new(cert.mu_upper.clone(), cert.mu_upper.clone()).ok_or_else(|| {
        Error::NotCertified {
            what: "AT22 PABI ρ".into(),
            reason: "certified μ is not finite".into(),
        }
    })?;
    Ok((mu.square().half(), r.best.tau))
}

/// AT22 (B.1) (full batch) as ρ with ε(α) = ρα, in the toolkit's model.
///
/// # Formula
/// `ε ≤ α/(2η²σ²) · min{ T s², min_{T̃∈{1..T}} T̃ (D̃/T̃ + s)² }` with s = 2ηL_AT/n = ηL/n
/// (toolkit L) and D̃ = D + s (AT22 (B.1)). The inner minimum is taken over all T̃.
///
/// # Errors
/// [`Error::Parameter`] for non-positive η, σ, D, L or n = 0, T = 0.
///
/// # Rounding
/// Enclosure arithmetic; upper end is the bound.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::recipe_b1_rho;
/// // T = 1: min{s², (D + 2s)²} = s² with s = ηL/n = 1 ⇒ ρ = 1/(2η²σ²) = 0.5
/// let r = recipe_b1_rho(1, 1.0, 1.0, 1.0, 1, 10.0, 128).unwrap();
/// assert!((r.mid_f64() - 0.5).abs() < 1e-15);
/// ```
///
/// # References
/// AT22 Appendix B.1.
pub fn recipe_b1_rho(
    n: u64,
    l: f64,
    eta: f64,
    sigma: f64,
    t: u64,
    d: f64,
    bits: u32,
) -> Result<Enclosure> {
    positive_finite(&[
        ("sensitivity", l),
        ("eta", eta),
        ("noise", sigma),
        ("diameter", d),
    ])?;
    if n == 0 || t == 0 {
        return Err(Error::param("n, t", format!("{n}, {t}"), "must be ≥ 1"));
    }
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let s = e(eta) * e(l) / Enclosure::from_u64(wp, n);
    let dt = e(d) + s.clone();
    // f64 search for T̃ over the whole range (convex in T̃: check around D̃/s and ends)
    let (sf, dtf) = (s.mid_f64(), dt.mid_f64());
    let g = |k: u64| k as f64 * (dtf / k as f64 + sf).powi(2);
    let k0 = (dtf / sf).clamp(1.0, t as f64);
    let mut best = (g(1), 1u64);
    for k in [k0.floor() as u64, k0.ceil() as u64, t] {
        let k = k.clamp(1, t);
        if g(k) < best.0 {
            best = (g(k), k);
        }
    }
    let kk = Enclosure::from_u64(wp, best.1);
    let second = kk.clone() * (dt / kk + s.clone()).square();
    let first = Enclosure::from_u64(wp, t) * s.square();
    let m = first.min(&second);
    let den = Enclosure::from_u64(wp, 2) * (e(eta) * e(sigma)).square();
    Ok((m / den).with_prec(bits))
}

/// AT22 (3.6): `min_τ (T−τ) Q + α D²/(2η²σ₁²(T−τ))` at a fixed noise split, with
/// Q = S_α(b/n, bσ₂/L) (toolkit L = 2L_AT), and the minimizing T̃ = T − τ.
///
/// # Formula
/// AT22 eq. (3.6); T̃ ∈ {1, …, T}, searched around the stationary point
/// D/(ησ₁)·√(α/(2Q)) (AT22 App. B.2) and at the ends.
///
/// # Errors
/// [`Error::Parameter`] for a bad domain; quadrature errors.
///
/// # Rounding
/// Q is a certified enclosure; the result's upper end is the bound.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::recipe_3_6;
/// let (e, k) = recipe_3_6(4.0, 0.1, 1.0, 1.0, 1.0, 1.0, 100, 1.0, 64).unwrap();
/// assert!(k >= 1 && k <= 100 && e.upper_f64() > 0.0);
/// ```
///
/// # References
/// AT22 eq. (3.6).
#[allow(clippy::too_many_arguments)]
pub fn recipe_3_6(
    alpha: f64,
    q: f64,
    b_over_l: f64,
    eta: f64,
    sigma1: f64,
    sigma2: f64,
    t: u64,
    d: f64,
    bits: u32,
) -> Result<(Enclosure, u64)> {
    super::curve::check_order(alpha)?;
    positive_finite(&[
        ("b/L", b_over_l),
        ("eta", eta),
        ("sigma1", sigma1),
        ("sigma2", sigma2),
        ("diameter", d),
    ])?;
    if t == 0 {
        return Err(Error::param("t", t, "must be ≥ 1"));
    }
    let qv = s_alpha(alpha, q, mul_down_f64(b_over_l, sigma2), bits)?;
    let a = alpha * d * d / (2.0 * eta * eta * sigma1 * sigma1);
    let qf = qv.mid_f64();
    let f = |k: u64| k as f64 * qf + a / k as f64;
    let k0 = if qf > 0.0 { (a / qf).sqrt() } else { t as f64 };
    let best = scan_t_tilde(f, k0, t);
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let kk = Enclosure::from_u64(wp, best.1);
    let v = kk.clone() * qv.with_prec(wp)
        + e(alpha) * e(d).square()
            / (Enclosure::from_u64(wp, 2) * (e(eta) * e(sigma1)).square() * kk);
    Ok((v.with_prec(bits), best.1))
}

/// The objective of (B.2) (c = None) or (B.3) (c = Some(c)) at one noise split and T̃,
/// as an enclosure: `T̃·Q + R(T̃)` with R = αD²/(2η²σ₁²T̃) for (B.2) and
/// αD²(1−c²)/(2η²σ₁²(c^{−2T̃}−1)) for (B.3). With Q = 0 it is the PABI term alone
/// ((α/2)× the Prop 3.2 / 5.6 schedule optimum with s ≡ 0 from z_τ = D over T̃ steps of
/// noise ησ₁; checked against the KKT solver in tests/renyi_at22.rs).
///
/// `wp` is the working precision of the enclosure arithmetic. The recipes certify their
/// value at the chosen (σ₁, T̃) with this function.
///
/// # Example
/// ```
/// use shiftdp::precision::Enclosure;
/// use shiftdp::renyi::at22::b_term;
/// // (B.2), Q = 0, T̃ = 2: αD²/(2η²σ₁²·2) = 2·1/(2·1·1·2) = 0.5
/// let zero = Enclosure::from_u64(96, 0);
/// let v = b_term(2.0, &zero, 1.0, 1.0, 1.0, None, 2, 96);
/// assert!((v.mid_f64() - 0.5).abs() < 1e-15);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn b_term(
    alpha: f64,
    qv: &Enclosure,
    eta: f64,
    sigma1: f64,
    d: f64,
    c: Option<f64>,
    k: u64,
    wp: u32,
) -> Enclosure {
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
/// order α, in the toolkit's model (L = 2L_AT).
///
/// # Formula
/// `ε ≤ min{ T·S_α(b/n, bσ/L), min_{σ₁²+σ₂²=σ²} min_{T̃∈{1..T−1}} T̃Q + R(T̃) }`,
/// Q = S_α(b/n, bσ₂/L), R = αD²/(2η²σ₁²T̃) for (B.2) and
/// αD²(1−c²)/(2η²σ₁²(c^{−2T̃}−1)) for (B.3). The split σ₁ is found by a golden-section
/// search (AT22 suggest a ternary search), T̃ by scanning around the first-order point
/// and the ends; the value at the chosen (σ₁, T̃) is certified.
///
/// # Errors
/// [`Error::Hypothesis`] for α ≤ 1, T < 1, c ∉ (0, 1); [`Error::Parameter`] for bad
/// numbers; quadrature errors.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::recipe_b2;
/// // T = 1: no PABI branch (T̃ ∈ {1, …, T−1} is empty), the bound is T·S_α(q, bσ/L)
/// let e = recipe_b2(2.0, 0.1, 1.0, 1.0, 1.0, 1, 1.0, 64).unwrap();
/// let ts = shiftdp::renyi::sampled_gaussian::s_alpha(2.0, 0.1, 1.0, 64).unwrap().upper_f64();
/// assert!((e.upper_f64() / ts - 1.0).abs() < 1e-9);
/// ```
///
/// # References
/// AT22 App. B.2, B.3.
#[allow(clippy::too_many_arguments)]
pub fn recipe_b2(
    alpha: f64,
    q: f64,
    b_over_l: f64,
    eta: f64,
    sigma: f64,
    t: u64,
    d: f64,
    bits: u32,
) -> Result<Enclosure> {
    recipe_b_with(
        alpha,
        q,
        b_over_l,
        eta,
        sigma,
        t,
        d,
        None,
        QReading::AsPrinted,
        bits,
    )
}

/// [`recipe_b2`] (c = None) or [`recipe_b3`] (c = Some(c)) with Q read as `reading`
/// ([`QReading::BothOrders`]: the larger of the two orders of the sampled Gaussian pair,
/// which the toolkit's `compare` uses; ERRATA.md T1).
///
/// # Errors
/// As [`recipe_b2`] / [`recipe_b3`].
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::{recipe_b2, recipe_b_with};
/// use shiftdp::renyi::at22_theorems::QReading;
/// let p = recipe_b2(10.0, 0.1, 1.0, 1.0, 1.0, 1, 1.0, 64).unwrap();
/// let b = recipe_b_with(10.0, 0.1, 1.0, 1.0, 1.0, 1, 1.0, None, QReading::BothOrders, 64).unwrap();
/// assert!(b.upper_f64() > p.upper_f64());
/// ```
#[allow(clippy::too_many_arguments)]
pub fn recipe_b_with(
    alpha: f64,
    q: f64,
    b_over_l: f64,
    eta: f64,
    sigma: f64,
    t: u64,
    d: f64,
    c: Option<f64>,
    reading: QReading,
    bits: u32,
) -> Result<Enclosure> {
    match c {
        None => recipe_b(
            EQ_B2, alpha, q, b_over_l, eta, sigma, t, d, None, reading, bits,
        ),
        Some(c) => {
            if !(c > 0.0 && c < 1.0) {
                return Err(hyp(EQ_B3, "H: 0 < c < 1", format!("c = {c}")));
            }
            recipe_b(
                EQ_B3,
                alpha,
                q,
                b_over_l,
                eta,
                sigma,
                t,
                d,
                Some(c),
                reading,
                bits,
            )
        }
    }
}

/// AT22 (B.3): see [`recipe_b2`].
///
/// # Errors
/// As [`recipe_b2`], and "H: 0 < c < 1".
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::{recipe_b2, recipe_b3};
/// // contraction only helps: (B.3) ≤ (B.2)
/// let b2 = recipe_b2(3.0, 0.05, 2.0, 0.5, 1.0, 200, 1.0, 64).unwrap();
/// let b3 = recipe_b3(3.0, 0.05, 2.0, 0.5, 1.0, 200, 1.0, 0.9, 64).unwrap();
/// assert!(b3.upper_f64() <= b2.upper_f64() * (1.0 + 1e-9));
/// ```
///
/// # References
/// AT22 App. B.3.
#[allow(clippy::too_many_arguments)]
pub fn recipe_b3(
    alpha: f64,
    q: f64,
    b_over_l: f64,
    eta: f64,
    sigma: f64,
    t: u64,
    d: f64,
    c: f64,
    bits: u32,
) -> Result<Enclosure> {
    recipe_b_with(
        alpha,
        q,
        b_over_l,
        eta,
        sigma,
        t,
        d,
        Some(c),
        QReading::AsPrinted,
        bits,
    )
}

#[allow(clippy::too_many_arguments)]
fn recipe_b(
    id: &str,
    alpha: f64,
    q: f64,
    b_over_l: f64,
    eta: f64,
    sigma: f64,
    t: u64,
    d: f64,
    c: Option<f64>,
    reading: QReading,
    bits: u32,
) -> Result<Enclosure> {
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
    let first = sgm_q(alpha, q, mul_down_f64(b_over_l, sigma), reading, bits)?.with_prec(wp)
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
    let (mut lo, mut hi) = (1e-6, 1.0 - 1e-9);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut f1, mut f2) = (g(x1), g(x2));
    for _ in 0..40 {
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - r * (hi - lo);
            f1 = g(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + r * (hi - lo);
            f2 = g(x2);
        }
    }
    let u = if f1 <= f2 { x1 } else { x2 };
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
            let Ok(qv) = sgm_q(alpha, q, mul_down_f64(b_over_l, s2), reading, bits) else {
                return Ok(first.with_prec(bits));
            };
            let v = b_term(alpha, &qv, eta, s1_safe, d, c, k, wp);
            Ok(first.min(&v).with_prec(bits))
        }
        None => Ok(first.with_prec(bits)),
    }
}

/// The first-order T̃ of (B.3), with (1 − c²) (AT22 App. B.3 prints (1 − c)²; see
/// ERRATA.md A1): T̃ = −log((2−β+√((2−β)²−4))/2)/(2 log c),
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

/// The same run in CYS21/YS22's σ′ convention is not used by AT22; this returns the
/// toolkit translation of an AT22 run given its Lipschitz constant (L = 2L_AT).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::translate;
/// let t = translate(0.5, 10, 100, 0.1, 2.0, 1.0);
/// assert!((t.sensitivity - 1.0).abs() < 1e-15 && (t.gdp_unit - 0.05).abs() < 1e-15);
/// ```
pub fn translate(
    lipschitz: f64,
    b: u64,
    n: u64,
    eta: f64,
    sigma: f64,
    contraction: f64,
) -> ToolkitTranslation {
    ToolkitTranslation {
        sigma,
        sensitivity: 2.0 * lipschitz,
        batch: b,
        n,
        eta,
        m: None,
        big_m: None,
        contraction,
        gdp_unit: 2.0 * lipschitz / (b as f64 * sigma),
    }
}

type Row = (String, &'static str, String, Result<RdpBound>, bool);

fn contraction(s: &Setting, id: &str) -> Result<Enclosure> {
    let c = s.c.clone().ok_or_else(|| {
        hyp(
            id,
            "convex (c ≤ 1) or strongly convex: contraction c known",
            "needs --contraction or --strong-convexity/--smoothness/--eta",
        )
    })?;
    if c.upper_f64() > 1.0 {
        return Err(hyp(
            id,
            "contractive gradient steps: c ≤ 1",
            format!("c = {}", c.mid_f64()),
        ));
    }
    Ok(c)
}

fn pabi_bound(
    id: &str,
    p: Result<ScheduleProblem<Enclosure>>,
    notes: Vec<String>,
    hyps: Vec<String>,
) -> Result<RdpBound> {
    let (rho, tau) = pabi_rho(&p?, 128)?;
    let mut notes = notes;
    notes.push(format!(
        "optimal shifts of SPEC §4 (KKT), Rényi value (α/2)μ*², τ = {tau}; ρ = μ*²/2 = {:.6}",
        rho.upper_f64()
    ));
    let _ = id;
    Ok(RdpBound {
        curve: RenyiCurve::linear_enclosure(rho)?,
        hypotheses: hyps,
        notes,
    })
}

/// The AT22 rows of `shiftdp compare` for a setting.
///
/// GD/LMC: the PABI schedule bound (Prop 2.17, or 3.2 with a diameter, or 5.6 when
/// c < 1) and recipe (B.1) under a diameter; CGD: the PABI schedule bound maximized
/// over the position of the differing record; SGD: (B.2) / (B.3) under a diameter.
pub fn compare_bounds(s: &Setting) -> Vec<Row> {
    let mut out: Vec<Row> = vec![];
    let note_l = "AT22 state results with the Lipschitz constant L_AT; replace-adjacent \
                  gradients differ by 2L_AT = L (toolkit sensitivity)"
        .to_string();
    let t = s.t as usize;
    let d = s.d.clone();
    match s.algorithm {
        Algorithm::Gd | Algorithm::Lmc => {
            let id = match (&s.c, &d) {
                (Some(c), _) if c.upper_f64() < 1.0 => PROP_5_6,
                (_, Some(_)) => PROP_3_2,
                _ => PROP_2_17,
            };
            let r = contraction(s, id).and_then(|c| {
                let p = noisy_gd(
                    s.n,
                    s.l.clone(),
                    s.eta.clone(),
                    s.sigma.clone(),
                    t,
                    c.clone(),
                    // the diameter makes the solver search τ; the gap at τ is D (Prop 3.2)
                    d.clone(),
                )
                .and_then(|p| match &d {
                    Some(dd) => p.with_fixed_gap(Some(dd.clone())),
                    None => Ok(p),
                });
                pabi_bound(
                    id,
                    p,
                    vec![note_l.clone()],
                    vec![
                        format!("c_k = c = {} ≤ 1", c.mid_f64()),
                        format!(
                            "s_k = ηL/n, ς_k = ησ{}",
                            if d.is_some() {
                                ", z_τ = D"
                            } else {
                                ", z₀ = 0"
                            }
                        ),
                    ],
                )
            });
            out.push((
                id.into(),
                "AT22",
                "noisy GD, PABI with optimal shifts".into(),
                r,
                true,
            ));
            let r = match &d {
                None => Err(hyp(
                    EQ_B1,
                    "constraint set of diameter D",
                    "needs --diameter",
                )),
                Some(dd) => contraction(s, EQ_B1).and_then(|_| {
                    let rho = recipe_b1_rho(
                        s.n,
                        s.l.upper_f64(),
                        s.eta.lower_f64(),
                        s.sigma.lower_f64(),
                        s.t,
                        dd.upper_f64(),
                        128,
                    )?;
                    Ok(RdpBound {
                        curve: RenyiCurve::linear_enclosure(rho)?,
                        hypotheses: vec!["convex, η ≤ 2/M (c ≤ 1), diameter D".into()],
                        notes: vec![
                            note_l.clone(),
                            "recipe as printed, s = 2ηL_AT/n = ηL/n".into(),
                        ],
                    })
                }),
            };
            out.push((EQ_B1.into(), "AT22", "full-batch recipe".into(), r, true));
        }
        Algorithm::Cgd => {
            let id = "AT22 Prop 2.17/5.6 (cyclic)";
            let r = contraction(s, id).and_then(|c| {
                let l = crate::schedules::settings::batches_per_epoch(s.n, s.b)?;
                if l > 512 {
                    return Err(hyp(id, "l = n/b ≤ 512 positions searched", format!("l = {l}")));
                }
                let mut worst: Option<(Enclosure, u64, usize)> = None;
                for pos in 0..l as usize {
                    let p = noisy_cgd(
                        s.n,
                        s.b,
                        s.l.clone(),
                        s.eta.clone(),
                        s.sigma.clone(),
                        t,
                        c.clone(),
                        CyclicOrder::Fixed(pos),
                        d.clone(),
                    )?;
                    let p = match &d {
                        Some(dd) => p.with_fixed_gap(Some(dd.clone()))?,
                        None => p,
                    };
                    let (rho, tau) = pabi_rho(&p, 128)?;
                    if worst.as_ref().is_none_or(|w| rho.hi() > w.0.hi()) {
                        worst = Some((rho, pos as u64, tau));
                    }
                }
                let (rho, pos, tau) = worst.ok_or_else(|| hyp(id, "l ≥ 1", "l = 0"))?;
                Ok(RdpBound {
                    curve: RenyiCurve::linear_enclosure(rho.clone())?,
                    hypotheses: vec![
                        format!("c_k = c = {} ≤ 1", c.mid_f64()),
                        "worst position of the differing record over all l batches".into(),
                    ],
                    notes: vec![
                        note_l.clone(),
                        format!(
                            "optimal shifts (KKT), (α/2)μ*²; worst position {pos}, τ = {tau}, ρ = {:.6}",
                            rho.upper_f64()
                        ),
                    ],
                })
            });
            out.push((
                id.into(),
                "AT22",
                "cyclic noisy GD, PABI with optimal shifts".into(),
                r,
                true,
            ));
        }
        Algorithm::Sgd => {
            let q = s.p().upper_f64();
            let id = recipe_b_id(s);
            let r = tabulate(&orders(), &|a| {
                recipe_b_for_setting(s, a, QReading::BothOrders, 64)
            })
            .map(|curve| RdpBound {
                curve,
                hypotheses: vec![
                    "convex (c ≤ 1), η ≤ 2/M, diameter D, replace adjacency".into(),
                    format!("Q = max of both orders of S_α(b/n, bσ₂/L), q = {q}"),
                ],
                notes: vec![
                    note_l.clone(),
                    "noise split σ₁ by golden-section search, T̃ by first-order point".into(),
                    "Q read in both orders of the sampled Gaussian pair: the printed \
                     order D_α(N₀ ‖ mixture) is exceeded by the reverse order of the \
                     Thm 4.1 instance (ERRATA.md T1)"
                        .into(),
                ],
            });
            out.push((id.into(), "AT22", "noisy SGD recipe".into(), r, true));
        }
    }
    out
}

/// The AT22 recipe a NoisySGD setting selects: (B.3) when the upper end of its
/// contraction enclosure (rounded up to f64) is < 1, else (B.2) (valid for every c ≤ 1).
pub fn recipe_b_id(s: &Setting) -> &'static str {
    match s.c.as_ref().map(Enclosure::upper_f64) {
        Some(c) if c < 1.0 => EQ_B3,
        _ => EQ_B2,
    }
}

/// The f64 arguments [`recipe_b_for_setting`] feeds to [`recipe_b_with`], each at the
/// end of the setting's enclosure that makes the bound larger.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecipeBInputs {
    /// q = b/n, rounded up (S_α(q, ·) increases with q).
    pub q: f64,
    /// b/L, rounded down (Q = S_α(q, bσ₂/L) decreases with the noise scale bσ₂/L).
    pub b_over_l: f64,
    /// η, rounded down (the PABI terms αD²/(2η²σ₁²)·… decrease with η).
    pub eta: f64,
    /// σ, rounded down (less noise: larger Q and larger PABI term).
    pub sigma: f64,
    /// T (exact).
    pub t: u64,
    /// D, rounded up (the PABI terms grow with D²).
    pub d: f64,
    /// c for (B.3), rounded **up**: (1−c²)/(c^{−2T̃}−1) = c^{2T̃}(1−c²)/(1−c^{2T̃}) increases
    /// with c on (0, 1) (it tends to 1/T̃, (B.2)'s term, as c → 1). `None`: (B.2).
    pub c: Option<f64>,
}

/// The arguments of (B.2)/(B.3) for a NoisySGD setting (see [`RecipeBInputs`] for the
/// direction of each rounding).
///
/// # Errors
/// [`Error::Hypothesis`] (naming the selected recipe) without a diameter, without a
/// contraction, or for c > 1.
pub fn recipe_b_inputs(s: &Setting) -> Result<RecipeBInputs> {
    let id = recipe_b_id(s);
    let d =
        s.d.as_ref()
            .ok_or_else(|| hyp(id, "constraint set of diameter D", "needs --diameter"))?;
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
/// [`Error::Hypothesis`] (naming the selected recipe) without a diameter, without a
/// contraction, or for c > 1; errors of [`recipe_b_with`].
pub fn recipe_b_for_setting(
    s: &Setting,
    alpha: f64,
    reading: QReading,
    bits: u32,
) -> Result<Enclosure> {
    let x = recipe_b_inputs(s)?;
    recipe_b_with(
        alpha, x.q, x.b_over_l, x.eta, x.sigma, x.t, x.d, x.c, reading, bits,
    )
}

/// Orders at which (B.2)/(B.3) are tabulated (each needs a noise-split search).
fn orders() -> Vec<f64> {
    (-16..=32)
        .step_by(4)
        .map(|k| 1.0 + 2f64.powf(f64::from(k) / 4.0))
        .collect()
}

/// Checks that every named value is finite and > 0.
fn positive_finite(values: &[(&str, f64)]) -> Result<()> {
    for &(name, v) in values {
        if !v.is_finite() || v <= 0.0 {
            return Err(Error::param(name, v, "must be finite and > 0"));
        }
    }
    Ok(())
}
