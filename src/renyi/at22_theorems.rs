//! AT22 results beyond the recipes of [`super::at22`]: the strongly convex recipe (5.3),
//! the non-uniform step-size recipe (5.7), Thms 3.1, 5.1, 5.8 with the explicit
//! constants their proofs give, the Thm 4.1 lower bound and its clamped-walk
//! construction, and the reading of Q in both orders (see ERRATA.md AT1).
//!
//! # Parameter model
//! The recipes take a noise split as [`SplitInputs`], the theorems a run as [`At22Run`]
//! (each field documented with its AT22 symbol and rounding direction); the order α,
//! the contraction c, the reading of Q and the precision are separate arguments.
//! Functions take the toolkit's gradient sensitivity `L` (docs/conventions.md §2) and say
//! where AT22's Lipschitz constant enters: for the upper bounds AT22 write `2L_AT` for the
//! replace-adjacent gradient difference, so `L_AT = L/2` (as in [`super::at22`]). The
//! Thm 4.1 construction has gradient difference exactly `L_AT` (one loss is zero), so
//! [`thm_4_1_lower_bound`] and [`thm_4_1_walk`] read the run's `l` as `L_AT` itself.
//!
//! # Rounding
//! Upper bounds: enclosures, the upper end is the bound. The lower bound of Thm 4.1 is
//! returned as an enclosure whose *lower* end is the (conservative) lower bound.
//!
//! # References
//! J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent: more
//! iterations without more privacy loss*, NeurIPS 2022 (Thms 3.1, 4.1, 5.1, 5.8,
//! eqs. (3.6), (5.3), (5.7), Lemma 2.12, App. A.4); I. Mironov, K. Talwar, L. Zhang,
//! *Rényi differential privacy of the sampled Gaussian mechanism* (2019).
use super::at22_lemma_2_12::{alpha_star, alpha_star_conditions};
pub use super::at22_params::{At22Run, SplitInputs};
use super::sampled_gaussian::{SampledGaussian, SgmOrder};
use crate::error::{Error, Result, positive_finite};
use crate::exact::clamped::ClampedWalk;
use crate::precision::Enclosure;

/// AT22 eq. (5.3).
pub const EQ_5_3: &str = crate::provenance::ResultId::At22Eq5_3.as_str();
/// AT22 eq. (5.7).
pub const EQ_5_7: &str = crate::provenance::ResultId::At22Eq5_7.as_str();
/// AT22 Thm 3.1.
pub const THM_3_1: &str = crate::provenance::ResultId::At22Thm3_1.as_str();
/// AT22 Thm 5.1.
pub const THM_5_1: &str = crate::provenance::ResultId::At22Thm5_1.as_str();
/// AT22 Thm 5.8.
pub const THM_5_8: &str = crate::provenance::ResultId::At22Thm5_8.as_str();
/// AT22 Thm 4.1.
pub const THM_4_1: &str = crate::provenance::ResultId::At22Thm4_1.as_str();

use crate::error::hyp;
use crate::provenance::ResultId;
use crate::renyi::curve::check_order;

/// Which order(s) of the sampled Gaussian pair Q stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum QReading {
    /// As printed: `Q = S_α(q, σ) = D_α(N(0,σ²) ‖ (1−q)N(0,σ²) + qN(1,σ²))` (AT22 Def 2.10).
    AsPrinted,
    /// `Q = max{D_α(μ₀ ‖ μ), D_α(μ ‖ μ₀)}`: both orders (ERRATA.md AT1: the printed
    /// order is exceeded by the reverse order of the Thm 4.1 instance).
    BothOrders,
}

/// Q at order α: `S_α(q, σ)` as printed, or the larger of the two orders.
///
/// # Formula
/// AT22 Def 2.10 (and its reverse order, MTZ19 "A_α"); certified quadrature of
/// [`SampledGaussian::divergence`].
///
/// # Errors
/// Parameter errors of [`SampledGaussian`].
///
/// # Rounding
/// The max of two enclosures (upper end is the bound).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22_theorems::{sgm_q, QReading};
/// let p = sgm_q(10.0, 0.1, 1.0, QReading::AsPrinted, 64).unwrap();
/// let b = sgm_q(10.0, 0.1, 1.0, QReading::BothOrders, 64).unwrap();
/// // the reverse order is much larger here (≈ 2.44 against ≈ 0.034)
/// assert!(b.lower_f64() > 10.0 * p.upper_f64());
/// ```
///
/// # References
/// AT22 Def 2.10; MTZ19 §3.
pub fn sgm_q(alpha: f64, q: f64, sigma: f64, reading: QReading, bits: u32) -> Result<Enclosure> {
    let m = SampledGaussian::new(q, sigma)?;
    let fwd = m.divergence(SgmOrder::BaseMixture, alpha, bits)?;
    match reading {
        QReading::AsPrinted => Ok(fwd),
        QReading::BothOrders => Ok(fwd.max(&m.divergence(SgmOrder::MixtureBase, alpha, bits)?)),
    }
}

/// Q = S_α(b/n, bσ₂/L) of a noise split: [`sgm_q`] at the noise multiplier
/// (b/L)·σ₂ rounded down (S_α decreases in the noise multiplier).
///
/// # Errors
/// As [`sgm_q`].
pub fn q_at_split(
    alpha: f64,
    q: f64,
    b_over_l: f64,
    sigma2: f64,
    reading: QReading,
    bits: u32,
) -> Result<Enclosure> {
    sgm_q(
        alpha,
        q,
        crate::precision::rounding::mul_down_f64(b_over_l, sigma2),
        reading,
        bits,
    )
}

/// f64 search value of [`sgm_q`] (not a bound; see
/// [`SampledGaussian::divergence_search_f64`]).
pub fn sgm_q_search(alpha: f64, q: f64, sigma: f64, reading: QReading) -> Option<f64> {
    let m = SampledGaussian::new(q, sigma).ok()?;
    let fwd = m.divergence_search_f64(SgmOrder::BaseMixture, alpha)?;
    match reading {
        QReading::AsPrinted => Some(fwd),
        QReading::BothOrders => {
            Some(fwd.max(m.divergence_search_f64(SgmOrder::MixtureBase, alpha)?))
        }
    }
}

/// AT22 (5.3) at a fixed noise split: `min_{T̃∈{1..T}} T̃·Q + c^{2T̃} αD²/(2η²σ₁²)`, and
/// the minimizing T̃ = T − τ.
///
/// # Formula
/// AT22 eq. (5.3) with Q = S_α(b/n, bσ₂/L) (toolkit L = 2L_AT) read as `reading`.
/// The PABI term is Prop 5.6 with s_k = 0, a_k = 0 for k < T, a_T = c^{T̃}D (AT22 (5.2)).
/// T̃ is searched around the stationary point `log(2A log(1/c)/Q)/(2 log(1/c))`,
/// A = αD²/(2η²σ₁²), and at the ends (the objective is convex in T̃).
///
/// The split (q = b/n, b/L, σ₁, σ₂, D) is `x` ([`SplitInputs`] states the rounding of
/// each field); `eta` is η (rounded down), `t` the horizon T, `c` the contraction
/// (rounded up: c^{2T̃} increases with c).
///
/// # Errors
/// [`Error::Parameter`] for α ≤ 1 or non-positive inputs; [`Error::Hypothesis`] for
/// T = 0 or c ∉ (0, 1).
///
/// # Rounding
/// Q certified; the value at the chosen T̃ is an enclosure (upper end is the bound).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22_theorems::{recipe_5_3, QReading, SplitInputs};
/// let x = SplitInputs { q: 0.05, b_over_l: 2.0, sigma1: 1.0, sigma2: 1.0, d: 1.0 };
/// let (e, k) = recipe_5_3(4.0, &x, 0.5, 500, 0.9, QReading::AsPrinted, 64).unwrap();
/// assert!(k >= 1 && k <= 500 && e.upper_f64() > 0.0);
/// ```
///
/// # References
/// AT22 §5.1, eqs. (5.2)–(5.3).
pub fn recipe_5_3(
    alpha: f64,
    x: &SplitInputs,
    eta: f64,
    t: u64,
    c: f64,
    reading: QReading,
    bits: u32,
) -> Result<(Enclosure, u64)> {
    let SplitInputs {
        q,
        b_over_l,
        sigma1,
        sigma2,
        d,
    } = *x;
    check_order(alpha)?;
    positive_finite(&[
        ("b/L", b_over_l),
        ("η", eta),
        ("σ₁", sigma1),
        ("σ₂", sigma2),
        ("D", d),
    ])?;
    if t == 0 {
        return Err(hyp(ResultId::At22Eq5_3, "H0: T ≥ 1", "T = 0"));
    }
    if !(c > 0.0 && c < 1.0) {
        return Err(hyp(
            ResultId::At22Eq5_3,
            "H1: strongly convex, 0 < c < 1",
            format!("c = {c}"),
        ));
    }
    let qv = q_at_split(alpha, q, b_over_l, sigma2, reading, bits)?;
    let qf = qv.upper_f64();
    let a = alpha * d * d / (2.0 * eta * eta * sigma1 * sigma1);
    let lc = -c.ln();
    let f = |k: u64| k as f64 * qf + a * (-2.0 * k as f64 * lc).exp();
    let k0 = (2.0 * a * lc / qf).ln() / (2.0 * lc);
    // a non-finite stationary point (Q = 0 or A = 0) starts the scan at T̃ = 1
    let best = scan_t_tilde(f, if k0.is_finite() { k0 } else { 1.0 }, t);
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let kk = Enclosure::from_u64(wp, best.1);
    let v = kk * qv.with_prec(wp)
        + e(c).powu(2 * best.1) * e(alpha) * e(d).square()
            / (Enclosure::from_u64(wp, 2) * (e(eta) * e(sigma1)).square());
    Ok((v.with_prec(bits), best.1))
}

/// AT22 (5.7) (non-uniform step sizes η_0, …, η_{T−1}) at a fixed noise split:
/// `min_τ (T−τ)Q + (T−τ−1)·αD²/(2σ₁²(Σ_{t=τ+1}^{T−1} η_t)²)`, and the minimizing τ.
///
/// # Formula
/// AT22 eq. (5.7), shifts a_t = Dη_t/Σ η_t over t = τ+1..T−1. At τ = T − 1 the printed
/// PABI term is 0/0 (empty sum; no shift can close the gap D): τ ranges over
/// {0, …, T−2} (ERRATA.md AT3). Q = S_α(b/n, bσ₂/L) read as `reading` (the ratio
/// m_t/(η_tσ₂) does not depend on η_t).
///
/// The split (q = b/n, b/L, σ₁, σ₂, D) is `x` ([`SplitInputs`] states the rounding of
/// each field); `etas` are η_0, …, η_{T−1} (T = their number), each rounded down (the
/// PABI term decreases with every η_t).
///
/// # Errors
/// [`Error::Parameter`] for α ≤ 1 or a non-positive step size or input;
/// [`Error::Hypothesis`] for T < 2.
///
/// # Rounding
/// Q certified; value at the chosen τ as an enclosure (upper end is the bound).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22_theorems::{recipe_5_7, QReading, SplitInputs};
/// let etas: Vec<f64> = (1..=200).map(|t| 0.5 / (t as f64).sqrt()).collect();
/// let x = SplitInputs { q: 0.05, b_over_l: 2.0, sigma1: 1.0, sigma2: 1.0, d: 1.0 };
/// let (e, tau) = recipe_5_7(3.0, &x, &etas, QReading::AsPrinted, 64).unwrap();
/// assert!(tau <= 198 && e.upper_f64() > 0.0);
/// ```
///
/// # References
/// AT22 §5.3, eq. (5.7).
pub fn recipe_5_7(
    alpha: f64,
    x: &SplitInputs,
    etas: &[f64],
    reading: QReading,
    bits: u32,
) -> Result<(Enclosure, u64)> {
    let SplitInputs {
        q,
        b_over_l,
        sigma1,
        sigma2,
        d,
    } = *x;
    check_order(alpha)?;
    positive_finite(&[("b/L", b_over_l), ("σ₁", sigma1), ("σ₂", sigma2), ("D", d)])?;
    let t = etas.len();
    if t < 2 {
        return Err(hyp(
            ResultId::At22Eq5_7,
            "H0: T ≥ 2 (τ ≤ T − 2)",
            format!("T = {t}"),
        ));
    }
    if let Some((i, &x)) = etas
        .iter()
        .enumerate()
        .find(|(_, x)| !(x.is_finite() && **x > 0.0))
    {
        return Err(hyp(
            ResultId::At22Eq5_7,
            "H2: η_t > 0 (and η_t ≤ 2/M)",
            format!("η_{i} = {x}"),
        ));
    }
    let qv = q_at_split(alpha, q, b_over_l, sigma2, reading, bits)?;
    let qf = qv.upper_f64();
    let a = alpha * d * d / (2.0 * sigma1 * sigma1);
    // suffix sums S(τ) = Σ_{t=τ+1}^{T−1} η_t
    let mut best: Option<(f64, usize)> = None;
    let mut suffix = 0.0;
    for tau in (0..t - 1).rev() {
        suffix += etas[tau + 1];
        let k = (t - tau) as f64;
        let v = k * qf + (k - 1.0) * a / (suffix * suffix);
        if best.is_none_or(|b| v < b.0) {
            best = Some((v, tau));
        }
    }
    let (_, tau) = best.ok_or_else(|| hyp(ResultId::At22Eq5_7, "H0: T ≥ 2", "empty range"))?;
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let mut sum = Enclosure::from_u64(wp, 0);
    for &x in &etas[tau + 1..] {
        sum = sum + e(x);
    }
    let k = Enclosure::from_u64(wp, (t - tau) as u64);
    let km1 = Enclosure::from_u64(wp, (t - tau - 1) as u64);
    let v = k * qv.with_prec(wp)
        + km1 * e(alpha) * e(d).square()
            / (Enclosure::from_u64(wp, 2) * e(sigma1).square() * sum.square());
    Ok((v.with_prec(bits), tau as u64))
}

/// The explicit constant of Lemma 2.12 applied to `S_α(b/n, bσ/L)`: 8 if both α*
/// conditions hold at α (Lemma 2.12 with σ), else 16 (Lemma 2.12 at σ/√2, assumed to hold
/// by the caller, and monotonicity of S_α in σ by data processing).
fn t_branch_constant(alpha: f64, q: f64, sg: f64) -> u64 {
    if sg >= 4.0
        && alpha_star_conditions(alpha, q, sg)
        && alpha_star(q, sg).is_some_and(|s| alpha <= s)
    {
        8
    } else {
        16
    }
}

/// Common hypotheses of Thms 3.1 and 5.1 (AT22 statement, toolkit L = 2L_AT).
fn sgd_hypotheses(id: ResultId, alpha: f64, run: &At22Run) -> Result<f64> {
    let At22Run {
        n,
        b,
        l,
        eta,
        sigma,
        t,
        d,
    } = *run;
    check_order(alpha)?;
    positive_finite(&[("L", l), ("η", eta), ("σ", sigma)])?;
    if !(d.is_finite() && d > 0.0) {
        return Err(hyp(
            id,
            "H2: constraint set of diameter D < ∞",
            format!("D = {d}"),
        ));
    }
    if t == 0 {
        return Err(hyp(id, "H0: T ≥ 1", "T = 0"));
    }
    if !(b >= 1 && b <= n) {
        return Err(hyp(id, "H3: 1 ≤ b ≤ n", format!("b = {b}, n = {n}")));
    }
    let q = b as f64 / n as f64;
    if q >= 0.2 {
        return Err(hyp(
            id,
            "H4: b/n < 1/5 (Lemma 2.12; footnote 12's alternative is not implemented)",
            format!("b/n = {q}"),
        ));
    }
    let l_at = l / 2.0;
    let s2 = b as f64 * sigma / (2.0 * std::f64::consts::SQRT_2 * l_at);
    if s2.is_nan() || s2 <= 4.0 {
        return Err(hyp(
            id,
            "H5: σ > 8√2 L_AT/b (toolkit: σ > 4√2 L/b)",
            format!("bσ/(2√2 L_AT) = {s2}"),
        ));
    }
    let star = alpha_star(q, s2);
    if !(star.is_some_and(|s| alpha <= s) && alpha_star_conditions(alpha, q, s2)) {
        return Err(hyp(
            id,
            "H6: 1 < α ≤ α*(b/n, bσ/(2√2 L_AT)) (both conditions hold at α)",
            format!("α = {alpha}, α* = {star:?}"),
        ));
    }
    Ok(q)
}

/// AT22 Thm 3.1 with the constants of its proof: for T̄ = ⌈Dn/(L_AT η)⌉,
/// `ε ≤ (α L_AT²/(n²σ²)) · min{ k_T·T, 17·T̄ (if T̄ ≤ T) }`, k_T = 8 (or 16).
///
/// # Formula
/// Proof of AT22 Thm 3.1 (§3.2, Step 4) with every "≲" made explicit (toolkit L = 2L_AT):
/// * the T-branch is the composition bound (1.1) `T·S_α(b/n, bσ/(2L_AT))` with Lemma 2.12
///   `S_α(q, σ̃) ≤ 2αq²/σ̃²`: `8αTL_AT²/(n²σ²)` — constant 8 = 2 (Lemma 2.12) × 2² (the
///   2L_AT in σ̃). If Lemma 2.12's α* conditions fail at σ̃ = bσ/(2L_AT) the constant is
///   16 (Lemma 2.12 at σ̃/√2, where H6 holds, and S_α decreasing in σ);
/// * the PABI branch is (3.6) with σ₁ = σ₂ = σ/√2 and T − τ = T̄:
///   `T̄·16αL_AT²/(n²σ²)` (Lemma 2.12 at σ₂: 2 × 2² × 2) plus `αD²/(η²σ²T̄)`
///   `≤ αL_AT²T̄/(n²σ²)` (since D ≤ L_AT ηT̄/n): constant 16 + 1 = 17.
///
/// # Errors
/// [`Error::Parameter`] for α ≤ 1 or non-positive inputs; [`Error::Hypothesis`] naming
/// the failed hypothesis:
/// H1 (convex, η ≤ 2/M: c ≤ 1), H2 (diameter D), H3 (1 ≤ b ≤ n), H4 (b/n < 1/5),
/// H5 (σ > 8√2 L_AT/b), H6 (α ≤ α*(b/n, bσ/(2√2L_AT))).
///
/// # Rounding
/// Enclosure arithmetic; the upper end is the bound (T̄ computed with D, n rounded up,
/// L_AT, η rounded down: a larger T̄ only enlarges the PABI branch). The caller supplies
/// `run` as [`At22Run`] states per field, and `c` rounded up (it only enters H1, c ≤ 1:
/// a c-contractive step is c′-contractive for every c′ ≥ c).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22_theorems::{At22Run, thm_3_1};
/// // toolkit L = 2 (L_AT = 1), σ = 20, b = 10, n = 1000, η = 0.1, D = 1
/// let run = At22Run { n: 1000, b: 10, l: 2.0, eta: 0.1, sigma: 20.0, t: 100_000, d: 1.0 };
/// let e = thm_3_1(2.0, &run, 1.0, 128).unwrap();
/// // T̄ = ⌈1·1000/(1·0.1)⌉ = 10⁴ ≤ T: ε ≤ 17·αT̄L_AT²/(n²σ²) = 17·2·10⁴/(10⁶·400)
/// assert!((e.upper_f64() - 8.5e-4).abs() < 1e-12);
/// ```
///
/// # References
/// AT22 Thm 3.1, eq. (3.6), Lemma 2.12, footnote 12.
pub fn thm_3_1(alpha: f64, run: &At22Run, c: f64, bits: u32) -> Result<Enclosure> {
    let At22Run {
        n,
        b,
        l,
        eta,
        sigma,
        t,
        d,
    } = *run;
    if !(c.is_finite() && c > 0.0 && c <= 1.0) {
        return Err(hyp(
            ResultId::At22Thm3_1,
            "H1: convex losses, η ≤ 2/M (c ≤ 1)",
            format!("c = {c}"),
        ));
    }
    let q = sgd_hypotheses(ResultId::At22Thm3_1, alpha, run)?;
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let l_at = e(l).half();
    let unit = e(alpha) * l_at.square() / (Enclosure::from_u64(wp, n).square() * e(sigma).square());
    let kt = t_branch_constant(alpha, q, b as f64 * sigma / l);
    let mut v = unit.clone() * Enclosure::from_u64(wp, kt * t);
    let tbar = t_bar(d, n, l / 2.0, eta, wp)?;
    if tbar <= t {
        v = v.min(&(unit * Enclosure::from_u64(wp, 17 * tbar)));
    }
    Ok(v.with_prec(bits))
}

/// T̄ = ⌈Dn/(L_AT η)⌉ computed from the upper end of the enclosure.
fn t_bar(d: f64, n: u64, l_at: f64, eta: f64, wp: u32) -> Result<u64> {
    let x = Enclosure::from_f64(wp, d) * Enclosure::from_u64(wp, n)
        / (Enclosure::from_f64(wp, l_at) * Enclosure::from_f64(wp, eta));
    let up = x.upper_f64().ceil();
    if !(up.is_finite() && up < 1e18) {
        return Err(Error::param(
            "T̄",
            up,
            "Dn/(L_AT η) must be finite and < 10¹⁸",
        ));
    }
    Ok((up as u64).max(1))
}

/// AT22 Thm 5.1 (strongly convex Noisy-SGD) with the constants of its proof:
/// `ε ≤ (αL_AT²/(n²σ²)) · min{ k_T·T, 16·(1 + (1 + max{0, ln Λ})/(2 ln(1/c))) }`,
/// `Λ = D²n² ln(1/c)/(8η²L_AT²)`.
///
/// # Formula
/// (5.3) with σ₁ = σ₂ = σ/√2 and Lemma 2.12 (Q ≤ Q̄ = 16αL_AT²/(n²σ²), as in Thm 3.1):
/// f(R) = RQ̄ + c^{2R}A, A = αD²/(η²σ²), is minimized over real R at
/// R* = ln(2A ln(1/c)/Q̄)/(2 ln(1/c)) with f(R*) = Q̄(R* + 1/(2 ln(1/c))) — the paper's
/// `(Q/log(1/c))·log(αD² log(1/c)/(η²σ₁²Q))` up to the constant; the integer
/// R = ⌈R*⌉ costs at most one more Q̄. 2A ln(1/c)/Q̄ = Λ does not depend on α or σ. If
/// R* ≤ 0, R = 1 gives Q̄ + c²A ≤ Q̄(1 + 1/(2 ln(1/c))). The branch needs ⌈R*⌉ ≤ T
/// (τ ≥ 0); otherwise the T-branch (k_T as in [`thm_3_1`]) is the smaller one anyway.
///
/// # Errors
/// As [`thm_3_1`], with H1: "strongly convex: 0 < c < 1, η < 2/M".
///
/// # Rounding
/// Enclosure arithmetic (ln, max); the upper end is the bound. The caller supplies `run`
/// as [`At22Run`] states per field, and `c` rounded up (the factor
/// 1 + (1 + max{0, ln Λ})/(2 ln(1/c)) grows with c on (0, 1), and a c-contractive step
/// is c′-contractive for every c′ ≥ c).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22_theorems::{At22Run, thm_5_1, thm_3_1};
/// let run = At22Run { n: 1000, b: 10, l: 2.0, eta: 0.1, sigma: 20.0, t: 100_000, d: 1.0 };
/// let a = thm_5_1(2.0, &run, 0.99, 128).unwrap();
/// let b = thm_3_1(2.0, &run, 1.0, 128).unwrap();
/// assert!(a.upper_f64() < b.upper_f64());
/// ```
///
/// # References
/// AT22 Thm 5.1, eqs. (5.2)–(5.3), Lemma 2.12.
pub fn thm_5_1(alpha: f64, run: &At22Run, c: f64, bits: u32) -> Result<Enclosure> {
    let At22Run {
        n,
        b,
        l,
        eta,
        sigma,
        t,
        d,
    } = *run;
    if !(c.is_finite() && c > 0.0 && c < 1.0) {
        return Err(hyp(
            ResultId::At22Thm5_1,
            "H1: strongly convex: 0 < c < 1 (η < 2/M)",
            format!("c = {c}"),
        ));
    }
    let q = sgd_hypotheses(ResultId::At22Thm5_1, alpha, run)?;
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let l_at = e(l).half();
    let nn = Enclosure::from_u64(wp, n);
    let unit = e(alpha) * l_at.square() / (nn.clone().square() * e(sigma).square());
    let kt = t_branch_constant(alpha, q, b as f64 * sigma / l);
    let mut v = unit.clone() * Enclosure::from_u64(wp, kt * t);
    let lc = e(c).ln().neg(); // ln(1/c) > 0
    let lambda = e(d).square() * nn.square() * lc.clone()
        / (Enclosure::from_u64(wp, 8) * e(eta).square() * l_at.square());
    let zero = Enclosure::from_u64(wp, 0);
    let lnl = lambda.ln().max(&zero);
    let two = Enclosure::from_u64(wp, 2);
    let r_star = lnl.clone() / (two.clone() * lc.clone());
    // the branch needs the integer ⌈R*⌉ ≤ T (at least 1)
    let r_int = r_star.upper_f64().ceil().max(1.0);
    if r_int.is_finite() && r_int <= t as f64 {
        let one = Enclosure::from_u64(wp, 1);
        let factor = one.clone() + (one + lnl) / (two * lc);
        v = v.min(&(unit * Enclosure::from_u64(wp, 16) * factor));
    }
    Ok(v.with_prec(bits))
}

/// AT22 Thm 5.8 (Noisy-CGD, convex) with the constants of its proof:
/// `ε ≤ (αL_AT²/σ²) · min{ 2(1/b² + T/n²), 12/b² + 6T̄′/n² (if T̄′ ≤ T) }`,
/// T̄′ = T̄ rounded up to a multiple of l = n/b, T̄ = ⌈Dn/(L_AT η)⌉.
///
/// # Formula
/// T > T̄ (AT22 §5.2): Prop 3.2 from z_τ = D̃ = D + 2ηL_AT/b with the printed shifts
/// (τ = T − T̄′); `(x + y)² ≤ 2(x² + y²)` gives `Σa² ≤ 2D̃²/T̄′ + 8η²L_AT²T̄′/n² +
/// 8η²L_AT²/b²`, then `D̃² ≤ 2D² + 8η²L_AT²/b²` and `D ≤ L_AT ηT̄′/n` give
/// `Σa² ≤ 12η²L_AT²T̄′/n² + 24η²L_AT²/b²`, and `ε ≤ αΣa²/(2η²σ²)`.
/// T ≤ T̄ ((5.4), "a straightforward extension of [19, Thm 35]"): the same shifts with
/// D̃ = 0, τ = 0: `Σa² ≤ 4η²L_AT²(T/n² + 1/b²)`, `ε ≤ 2αL_AT²(1/b² + T/n²)/σ²` — valid
/// for every T that is a multiple of l, so it is always one branch of the min. The
/// shifts are bounded uniformly in the position of the differing record.
///
/// # Errors
/// [`Error::Parameter`] for α ≤ 1 or non-positive inputs; [`Error::Hypothesis`]:
/// H1 (convex, η ≤ 2/M: c ≤ 1),
/// H2 (diameter D), H3 (b divides n and n/b divides T — the proof's simplification).
///
/// # Rounding
/// Enclosure arithmetic; upper end is the bound. The caller supplies `run` as
/// [`At22Run`] states per field, and `c` rounded up (it only enters H1, c ≤ 1).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22_theorems::{At22Run, thm_5_8};
/// // short run: 2αL_AT²(1/b² + T/n²)/σ² with L_AT = 1, b = 10, n = 100, T = 10, σ = 1
/// let run = At22Run { n: 100, b: 10, l: 2.0, eta: 0.1, sigma: 1.0, t: 10, d: 100.0 };
/// let e = thm_5_8(2.0, &run, 1.0, 128).unwrap();
/// assert!((e.upper_f64() - 4.0 * (0.01 + 0.001)).abs() < 1e-12);
/// ```
///
/// # References
/// AT22 Thm 5.8, eqs. (5.4)–(5.6).
pub fn thm_5_8(alpha: f64, run: &At22Run, c: f64, bits: u32) -> Result<Enclosure> {
    let At22Run {
        n,
        b,
        l,
        eta,
        sigma,
        t,
        d,
    } = *run;
    check_order(alpha)?;
    positive_finite(&[("L", l), ("η", eta), ("σ", sigma)])?;
    if !(c.is_finite() && c > 0.0 && c <= 1.0) {
        return Err(hyp(
            ResultId::At22Thm5_8,
            "H1: convex losses, η ≤ 2/M (c ≤ 1)",
            format!("c = {c}"),
        ));
    }
    if !(d.is_finite() && d > 0.0) {
        return Err(hyp(
            ResultId::At22Thm5_8,
            "H2: constraint set of diameter D < ∞",
            format!("D = {d}"),
        ));
    }
    if b == 0 || b > n || !n.is_multiple_of(b) || t == 0 || !t.is_multiple_of(n / b) {
        return Err(hyp(
            ResultId::At22Thm5_8,
            "H3: b divides n and n/b divides T (T ≥ 1)",
            format!("n = {n}, b = {b}, T = {t}"),
        ));
    }
    let lb = n / b;
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let u = e(alpha) * e(l).half().square() / e(sigma).square();
    let ib2 = Enclosure::from_u64(wp, 1) / Enclosure::from_u64(wp, b).square();
    let n2 = Enclosure::from_u64(wp, n).square();
    let short =
        Enclosure::from_u64(wp, 2) * (ib2.clone() + Enclosure::from_u64(wp, t) / n2.clone());
    let mut v = short;
    let tbar = t_bar(d, n, l / 2.0, eta, wp)?;
    let tbar = tbar.div_ceil(lb) * lb;
    if tbar <= t {
        let long = Enclosure::from_u64(wp, 12) * ib2
            + Enclosure::from_u64(wp, 6) * Enclosure::from_u64(wp, tbar) / n2;
        v = v.min(&long);
    }
    Ok((u * v).with_prec(bits))
}

/// The constants AT22 prove Thm 4.1 with (footnote 13).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thm41Constants {
    /// c_σ = 10⁻³.
    pub c_sigma: f64,
    /// c_D = 10³.
    pub c_d: f64,
    /// c_α = 10⁻⁷.
    pub c_alpha: f64,
    /// ᾱ = 10².
    pub alpha_bar: f64,
}

/// The constants of AT22 footnote 13.
pub const THM_4_1_CONSTANTS: Thm41Constants = Thm41Constants {
    c_sigma: 1e-3,
    c_d: 1e3,
    c_alpha: 1e-7,
    alpha_bar: 100.0,
};

/// AT22 Thm 4.1: the Noisy-SGD instance of [`thm_4_1_walk`] has
/// `D_ᾱ > c_α ᾱ L_AT²/(n²σ²) · min{T, T̄}` (in one of the two orders), T̄ = 0.75 Dn/(L_AT η).
///
/// # Formula
/// AT22 Thm 4.1, eq. (4.1), with footnote 13's constants c_σ = 10⁻³, c_D = 10³,
/// c_α = 10⁻⁷, ᾱ = 100. Here L_AT (the run's `l`) is the Lipschitz constant of the
/// construction, which is also its gradient difference. The run's values define the
/// construction ([`thm_4_1_walk`] of the same run): they are taken as they are.
///
/// # Errors
/// [`Error::Hypothesis`]: H0 (positive inputs, 1 ≤ b ≤ n, T ≥ 1), H1 (D ≥ c_D ηL_AT),
/// H2 (σ² ≤ c_σ D²/(η²T̄)).
///
/// # Rounding
/// Enclosure; its **lower** end is the lower bound (rounded down: conservative for a
/// claim that the privacy loss is at least this).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22_theorems::{At22Run, thm_4_1_lower_bound};
/// // n = 2, b = 1, L = η = 1, D = 12000 (T̄ = 18000), σ = 2.8 (σ² ≤ c_σD²/(η²T̄) = 8), T = 5
/// let run = At22Run { n: 2, b: 1, l: 1.0, eta: 1.0, sigma: 2.8, t: 5, d: 12_000.0 };
/// let lb = thm_4_1_lower_bound(&run, 128).unwrap();
/// assert!((lb.lower_f64() - 1e-7 * 100.0 * 5.0 / (4.0 * 2.8 * 2.8)).abs() < 1e-18);
/// // σ = 10 violates H2 at this D
/// assert!(thm_4_1_lower_bound(&At22Run { sigma: 10.0, ..run }, 128).is_err());
/// ```
///
/// # References
/// AT22 Thm 4.1, footnote 13, App. A.4.
pub fn thm_4_1_lower_bound(run: &At22Run, bits: u32) -> Result<Enclosure> {
    let At22Run {
        n,
        b,
        l: l_at,
        eta,
        sigma,
        t,
        d,
    } = *run;
    positive_finite(&[("L", l_at), ("η", eta), ("σ", sigma), ("D", d)])?;
    if b == 0 || b > n || t == 0 {
        return Err(hyp(
            ResultId::At22Thm4_1,
            "H0: 1 ≤ b ≤ n, T ≥ 1",
            format!("b = {b}, n = {n}, T = {t}"),
        ));
    }
    let k = THM_4_1_CONSTANTS;
    if d < k.c_d * eta * l_at {
        return Err(hyp(
            ResultId::At22Thm4_1,
            "H1: D ≥ c_D η L (c_D = 10³)",
            format!("D = {d}, ηL = {}", eta * l_at),
        ));
    }
    let tbar = 0.75 * d * n as f64 / (l_at * eta);
    if sigma * sigma > k.c_sigma * d * d / (eta * eta * tbar) {
        return Err(hyp(
            ResultId::At22Thm4_1,
            "H2: σ² ≤ c_σ D²/(η² T̄) (c_σ = 10⁻³, T̄ = 0.75 Dn/(Lη))",
            format!(
                "σ² = {}, bound = {}",
                sigma * sigma,
                k.c_sigma * d * d / (eta * eta * tbar)
            ),
        ));
    }
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let tb = Enclosure::from_f64(wp, 0.75) * e(d) * Enclosure::from_u64(wp, n) / (e(l_at) * e(eta));
    let m = Enclosure::from_u64(wp, t).min(&tb);
    let v = e(k.c_alpha) * e(k.alpha_bar) * e(l_at).square() * m
        / (Enclosure::from_u64(wp, n).square() * e(sigma).square());
    Ok(v.with_prec(bits))
}

/// The Thm 4.1 construction as a clamped walk: K = [−D/2, D/2], start 0, all losses zero
/// except f′_n(ω) = L_AT(D − ω), T steps of Noisy-SGD with noise ησ and step η (the
/// run's `l` is L_AT).
///
/// # Formula
/// AT22 §4: W_{t+1} = Π_K[W_t + Z_t] on 𝒳, W′_{t+1} = Π_K[W′_t + Y_t + Z_t] on 𝒳′ with
/// Y_t = ηL_AT/b with probability b/n ([`ClampedWalk::altschuler_talwar`], pair kind
/// `OneSided`).
///
/// # Errors
/// Parameter errors of the walk.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22_theorems::{At22Run, thm_4_1_walk};
/// let run = At22Run { n: 10, b: 1, l: 1.0, eta: 1.0, sigma: 10.0, t: 5, d: 1e4 };
/// let w = thm_4_1_walk(&run).unwrap();
/// assert_eq!(w.steps.len(), 5);
/// assert!((w.steps[0].drift - 1.0).abs() < 1e-15 && (w.steps[0].p - 0.1).abs() < 1e-15);
/// ```
///
/// # References
/// AT22 Thm 4.1 (construction), App. A.4.
pub fn thm_4_1_walk(run: &At22Run) -> Result<ClampedWalk> {
    let At22Run {
        n,
        b,
        l: l_at,
        eta,
        sigma,
        t,
        d,
    } = *run;
    ClampedWalk::altschuler_talwar(d, n, b, t as usize, eta, sigma, l_at)
}

/// Grid intervals for a clamped walk of diameter `d` and per-step noise `s`: about
/// `per_sd` intervals per noise standard deviation, within [64, max].
pub fn walk_nodes(d: f64, s: f64, per_sd: f64, max: usize) -> usize {
    let n = (d / s * per_sd).ceil();
    if n.is_finite() {
        (n as usize).clamp(64, max)
    } else {
        max
    }
}

/// The best integer T̃ ∈ {1, …, k_max} of a convex objective `f` near its continuous
/// stationary point `k0`: `f` at 1, ⌊k0⌋, ⌈k0⌉ and k_max (search only; the caller
/// certifies the value at the returned T̃).
pub(crate) fn scan_t_tilde(f: impl Fn(u64) -> f64, k0: f64, k_max: u64) -> (f64, u64) {
    let k0 = if k0.is_finite() {
        k0.clamp(1.0, k_max as f64)
    } else {
        k_max as f64
    };
    let mut best = (f(1), 1u64);
    for k in [k0.floor() as u64, k0.ceil() as u64, k_max] {
        let k = k.clamp(1, k_max);
        let v = f(k);
        if v < best.0 {
            best = (v, k);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypotheses_are_named() {
        let h = |r: Result<Enclosure>| match r {
            Err(Error::Hypothesis { hypothesis, .. }) => hypothesis,
            other => panic!("{other:?}"),
        };
        let run = At22Run {
            n: 1000,
            b: 10,
            l: 2.0,
            eta: 0.1,
            sigma: 20.0,
            t: 100,
            d: 1.0,
        };
        // σ too small
        assert!(h(thm_3_1(2.0, &At22Run { sigma: 1.0, ..run }, 1.0, 64)).starts_with("H5"));
        // b/n ≥ 1/5
        let large_batch = At22Run {
            n: 10,
            b: 5,
            sigma: 50.0,
            ..run
        };
        assert!(h(thm_3_1(2.0, &large_batch, 1.0, 64)).starts_with("H4"));
        // non-contractive
        assert!(h(thm_3_1(2.0, &run, 1.1, 64)).starts_with("H1"));
        assert!(h(thm_5_1(2.0, &run, 1.0, 64)).starts_with("H1"));
        // α beyond α*
        assert!(h(thm_3_1(1e6, &run, 1.0, 64)).starts_with("H6"));
        let cyclic = At22Run {
            n: 100,
            b: 7,
            sigma: 1.0,
            t: 10,
            ..run
        };
        assert!(h(thm_5_8(2.0, &cyclic, 1.0, 64)).starts_with("H3"));
        let walk = At22Run {
            n: 10,
            b: 1,
            l: 1.0,
            eta: 1.0,
            sigma: 10.0,
            t: 5,
            d: 10.0,
        };
        assert!(h(thm_4_1_lower_bound(&walk, 64)).starts_with("H1"));
        let noisy_walk = At22Run {
            sigma: 1e3,
            d: 1e4,
            ..walk
        };
        assert!(h(thm_4_1_lower_bound(&noisy_walk, 64)).starts_with("H2"));
        let ones = SplitInputs {
            q: 0.1,
            b_over_l: 1.0,
            sigma1: 1.0,
            sigma2: 1.0,
            d: 1.0,
        };
        assert!(matches!(
            recipe_5_3(2.0, &ones, 1.0, 10, 1.0, QReading::AsPrinted, 64),
            Err(Error::Hypothesis { .. })
        ));
        assert!(matches!(
            recipe_5_7(2.0, &ones, &[1.0], QReading::AsPrinted, 64),
            Err(Error::Hypothesis { .. })
        ));
    }

    #[test]
    fn recipe_5_3_scan_matches_brute_force() {
        // the convex scan finds the same T̃ as a full scan over 1..=T
        let (alpha, q, bl, eta, s1, s2, t, d, c) = (3.0, 0.02, 4.0, 0.3, 1.2, 0.8, 300, 2.0, 0.97);
        let (v, k) = recipe_5_3(
            alpha,
            &SplitInputs {
                q,
                b_over_l: bl,
                sigma1: s1,
                sigma2: s2,
                d,
            },
            eta,
            t,
            c,
            QReading::AsPrinted,
            64,
        )
        .unwrap();
        let qf = crate::renyi::sampled_gaussian::s_alpha(alpha, q, bl * s2, 64)
            .unwrap()
            .mid_f64();
        let a = alpha * d * d / (2.0 * eta * eta * s1 * s1);
        let brute = (1..=t)
            .map(|k| k as f64 * qf + c.powi(2 * k as i32) * a)
            .fold(f64::INFINITY, f64::min);
        assert!(
            (v.upper_f64() / brute - 1.0).abs() < 1e-9,
            "{} vs {brute} at {k}",
            v.upper_f64()
        );
    }
}
