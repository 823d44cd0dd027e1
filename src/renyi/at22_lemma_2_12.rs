//! AT22 Lemma 2.12: the Rényi divergence S_α of the sampled Gaussian mechanism is at
//! most 2αq²/σ² for orders up to α*(q, σ) (MTZ19 Thm 11 as recalled in AT22 §2.3).
//!
//! # References
//! J. Altschuler, K. Talwar, NeurIPS 2022, Lemma 2.12; I. Mironov, K. Talwar, L. Zhang,
//! arXiv:1908.10530 (2019), Thm 11.
use crate::error::Result;
use crate::error::hyp;
use crate::precision::Enclosure;
use crate::provenance::ResultId;

/// Result id of Lemma 2.12.
pub const LEMMA_2_12: &str = crate::provenance::ResultId::At22Lemma2_12.as_str();

/// The two conditions defining α*(q, σ) at α (MTZ19 Thm 11 as recalled in AT22 §2.3):
/// α ≤ Mσ²/2 − log σ² and α ≤ (M²σ²/2 − log(5σ²))/(M + log(qα) + 1/(2σ²)),
/// M = log(1 + 1/(q(α−1))).
pub fn alpha_star_conditions(alpha: f64, q: f64, sigma: f64) -> bool {
    if alpha.is_nan() || alpha <= 1.0 {
        return false;
    }
    let s2 = sigma * sigma;
    let m = (1.0 / (q * (alpha - 1.0))).ln_1p();
    let c1 = alpha <= m * s2 / 2.0 - s2.ln();
    let den = m + (q * alpha).ln() + 1.0 / (2.0 * s2);
    let c2 = den > 0.0 && alpha <= (m * m * s2 / 2.0 - (5.0 * s2).ln()) / den;
    c1 && c2
}

/// α*(q, σ): the largest α > 1 satisfying both conditions of
/// [`alpha_star_conditions`] (found on a geometric grid in α − 1 and refined by
/// bisection at the last sign change), or `None` if no α > 1 qualifies.
///
/// # Formula
/// AT22 §2.3 (before Lemma 2.12), from MTZ19 Thm 11.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::{alpha_star, alpha_star_conditions};
/// let a = alpha_star(0.01, 8.0).unwrap();
/// assert!(a > 2.0 && alpha_star_conditions(a, 0.01, 8.0));
/// assert!(!alpha_star_conditions(a * 1.01, 0.01, 8.0));
/// ```
pub fn alpha_star(q: f64, sigma: f64) -> Option<f64> {
    if !(q > 0.0 && q < 1.0 && sigma > 0.0 && sigma.is_finite()) {
        return None;
    }
    let at = |i: i32| 1.0 + 10f64.powf(f64::from(i) / 50.0);
    let mut last = None;
    for i in -450..=450 {
        if alpha_star_conditions(at(i), q, sigma) {
            last = Some(i);
        }
    }
    let i = last?;
    if i == 450 {
        return Some(at(i));
    }
    let (mut lo, mut hi) = (at(i), at(i + 1));
    for _ in 0..100 {
        let m = 0.5 * (lo + hi);
        if alpha_star_conditions(m, q, sigma) {
            lo = m;
        } else {
            hi = m;
        }
    }
    Some(lo)
}

/// AT22 Lemma 2.12: S_α(q, σ) ≤ 2αq²/σ² for q ∈ (0, 1/5), σ ≥ 4, 1 < α ≤ α*(q, σ).
///
/// # Errors
/// [`Error::Hypothesis`](crate::Error::Hypothesis) naming the failed hypothesis.
///
/// # Rounding
/// Enclosure of 2αq²/σ²; upper end is the bound.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::lemma_2_12;
/// use shiftdp::renyi::sampled_gaussian::s_alpha;
/// let b = lemma_2_12(3.0, 0.01, 5.0, 128).unwrap();
/// assert!(s_alpha(3.0, 0.01, 5.0, 128).unwrap().upper_f64() <= b.upper_f64());
/// ```
pub fn lemma_2_12(alpha: f64, q: f64, sigma: f64, bits: u32) -> Result<Enclosure> {
    if !(q > 0.0 && q < 0.2) {
        return Err(hyp(
            ResultId::At22Lemma2_12,
            "H1: q ∈ (0, 1/5)",
            format!("q = {q}"),
        ));
    }
    if !(sigma >= 4.0 && sigma.is_finite()) {
        return Err(hyp(
            ResultId::At22Lemma2_12,
            "H2: σ ≥ 4",
            format!("σ = {sigma}"),
        ));
    }
    let star = alpha_star(q, sigma);
    let ok =
        alpha > 1.0 && star.is_some_and(|s| alpha <= s) && alpha_star_conditions(alpha, q, sigma);
    if !ok {
        return Err(hyp(
            ResultId::At22Lemma2_12,
            "H3: 1 < α ≤ α*(q, σ) (both conditions hold at α)",
            format!("α = {alpha}, α* = {star:?}"),
        ));
    }
    let wp = bits + 16;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    Ok((Enclosure::from_u64(wp, 2) * e(alpha) * e(q).square() / e(sigma).square()).with_prec(bits))
}
