//! dp_accounting's truncated Poisson-subsampled Gaussian: each record sampled with
//! probability `q`, the batch truncated to at most `B` records, Gaussian noise of
//! multiplier σ.
//!
//! # Formula
//! dp_accounting (`from_truncated_subsampled_gaussian_mechanism`, its supplementary
//! "Privacy loss distributions" §5.3) bounds the mechanism by a public mixture
//! ([`super::PublicMixture`]) of two pairs: with probability
//! `w = Pr[Bin(n − 1, q) ≥ B]` (truncation happens, given that the target record is
//! sampled) the replace-one Poisson-subsampled Gaussian at sensitivity 2 — noise σ/2 at
//! sensitivity 1 — with sampling probability `q′ = Pr[Bin(n, q) ≥ B + 1]·B/(w·n)`
//! ([`super::MixtureOfGaussians::replace_subsampled`] with `μ = 2/σ`), and otherwise the
//! Poisson-subsampled Gaussian `(q, 1/σ)` of the accountant's relation (add-or-remove:
//! Poisson-subsampled `G(1/σ)`, [`super::GaussianFamily::poisson_remove`], both orders). shiftdp
//! evaluates this dominating pair with certified arithmetic; the pair itself is
//! dp_accounting's analysis.
//!
//! # Rounding
//! `w` and `q′` are binomial tails summed in MPFR (each term from the previous by an
//! exact ratio) and enclosed; `q′` enters rounded up (a larger sampling probability is
//! less private), `w` as an enclosure of the mixture weight.
use super::{ATOM_BITS, GaussianFamily, Mechanism, MixtureOfGaussians, PublicMixture, num};
use crate::composition::pld::U;
use crate::error::{Error, Result, positive_finite};
use crate::precision::Enclosure;
use std::sync::Arc;

/// Largest data set size of [`truncated_subsampled_gaussian`] (one MPFR term per record).
pub const MAX_TRUNCATED_DATASET: u64 = 100_000_000;

/// `Pr[Bin(n, q) ≥ k]` enclosed in MPFR (`k ≤ n`).
fn binomial_tail(n: u64, q: f64, k: u64) -> Enclosure {
    let b = ATOM_BITS;
    let zero = Enclosure::from_u64(b, 0);
    if k == 0 {
        return Enclosure::from_u64(b, 1);
    }
    if k > n || q == 0.0 {
        return zero;
    }
    let one = Enclosure::from_u64(b, 1);
    let qe = Enclosure::from_f64(b, q);
    let r = one.sub(&qe);
    if q >= 1.0 {
        return one;
    }
    // pmf(i) from pmf(i − 1) · (n − i + 1)/i · q/(1 − q), pmf(0) = (1 − q)^n
    let ratio = qe.div(&r);
    let mut pmf = r.powu(n);
    let mut tail = zero;
    for i in 1..=n {
        pmf = pmf
            .mul(&Enclosure::from_u64(b, n - i + 1))
            .div(&Enclosure::from_u64(b, i))
            .mul(&ratio);
        if i >= k {
            tail = tail.add(&pmf);
        }
    }
    tail
}

/// dp_accounting's `TruncatedSubsampledGaussianDpEvent(n, q, B, σ)` under add-or-remove
/// adjacency as a mechanism (the remove order; see the module doc), or `None` when it
/// is a no-op (`q = 0`, `B = 0` or `n = 0`).
///
/// # Errors
/// [`Error::Parameter`] unless `0 ≤ q ≤ 1`, σ finite and > 0, and
/// `n ≤` [`MAX_TRUNCATED_DATASET`].
pub fn truncated_subsampled_gaussian(
    n: u64,
    q: f64,
    batch: u64,
    sigma: f64,
) -> Result<Option<Arc<dyn Mechanism>>> {
    if !(0.0..=1.0).contains(&q) {
        return Err(Error::param("sampling_probability", q, "must be in [0, 1]"));
    }
    positive_finite(&[("noise_multiplier", sigma)])?;
    if n > MAX_TRUNCATED_DATASET {
        return Err(Error::param("dataset_size", n, "at most 100000000"));
    }
    if q == 0.0 || batch == 0 || n == 0 {
        return Ok(None);
    }
    let mu = (1.0 / sigma) * (1.0 + 2.0 * U);
    // the remove order of the Poisson-subsampled G(μ), in closed form
    let plain: Arc<dyn Mechanism> = Arc::new(GaussianFamily::poisson_remove(q, mu)?);
    let w = binomial_tail(n - 1, q, batch);
    let label = format!(
        "TruncatedSubsampledGaussian(n={n}, q={}, B={batch}, σ={})",
        num(q),
        num(sigma)
    );
    if w.upper_f64() <= 0.0 {
        return Ok(Some(plain));
    }
    let b = ATOM_BITS;
    let qp = binomial_tail(n, q, batch + 1)
        .mul(&Enclosure::from_u64(b, batch))
        .div(&w.mul(&Enclosure::from_u64(b, n)));
    let q2 = qp.upper_f64().min(1.0);
    let mu2 = (2.0 / sigma) * (1.0 + 2.0 * U);
    let replace: Arc<dyn Mechanism> = Arc::new(MixtureOfGaussians::replace_subsampled(q2, mu2)?);
    let (w_lo, w_hi) = (w.lower_f64().max(0.0), w.upper_f64().min(1.0));
    let parts = vec![((w_lo, w_hi), replace), ((1.0 - w_hi, 1.0 - w_lo), plain)];
    Ok(Some(Arc::new(PublicMixture::new(label, parts)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_tails_match_dp_accountings_worked_values() {
        // n = 4, q = 0.5, B = 2: w = Pr[Bin(3, .5) ≥ 2] = 0.5, q′ = Pr[Bin(4, .5) ≥ 3]·2/(0.5·4) = 0.3125
        let w = binomial_tail(3, 0.5, 2);
        assert!(w.lower_f64() <= 0.5 && 0.5 <= w.upper_f64());
        let t = binomial_tail(4, 0.5, 3);
        assert!(t.lower_f64() <= 0.3125 && 0.3125 <= t.upper_f64());
        // the whole distribution sums to one
        let all = binomial_tail(1000, 0.013, 0);
        assert!(all.lower_f64() <= 1.0 && 1.0 <= all.upper_f64());
        let s = binomial_tail(1000, 0.013, 1);
        let exact = 1.0 - (1.0f64 - 0.013).powi(1000);
        assert!((s.mid_f64() - exact).abs() < 1e-12);
    }
}
