//! The mixture-of-Gaussians mechanism: `N(0, σ²)` against `Σᵢ pᵢ N(cᵢ, σ²)`.
//!
//! # Formula
//! With `μᵢ = cᵢ/σ` and `z = x/σ`, the pair `P = N(0, 1)`, `Q = Σᵢ pᵢ N(μᵢ, 1)` has the
//! loss `L(z) = ln Σᵢ pᵢ e^{μᵢ z − μᵢ²/2}`: a log-sum-exp of lines with slopes `μᵢ ≥ 0`,
//! so convex and increasing (strictly when some `μᵢ > 0`), from `ln p₀` (`p₀` the weight
//! of the `μᵢ = 0` terms; `−∞` without any) at `z → −∞` to `+∞`. With `z(ℓ)` its inverse,
//! `Q{L ≤ ℓ} = Σᵢ pᵢ Φ(z(ℓ) − μᵢ)` and `P{L ≤ ℓ} = Φ(z(ℓ))`; there are no atoms.
//!
//! This is the remove order of dp_accounting's `MixtureOfGaussiansDpEvent(σ, [cᵢ], [pᵢ])`
//! (its `mu_upper = Σ pᵢ N(−cᵢ, σ²)` is `Q` reflected by `x ↦ −x`); the add order is the
//! [`super::Inverse`]. It is the dominating pair of the MMCC analysis of banded matrix
//! mechanisms (Choquette-Choo, Ganesh, Steinke, Thakurta, *Privacy amplification for
//! matrix mechanisms*, ICLR 2024, Thm 4.6) and of Poisson sampling with `k` draws
//! (`cᵢ = i` with binomial weights). `G(μ)` is `c = [μσ]`, `p = [1]`; the Poisson-
//! subsampled Gaussian is `c = [0, 1]`, `p = [1 − q, q]`. Since
//! `δ_{(P, Σ pᵢQᵢ)}(ε) ≤ Σ pᵢ δ_{(P, Qᵢ)}(ε)` (and alike in the other order), both
//! orders lie above `G(max μᵢ)`.
//!
//! # Rounding
//! The weights are normalized by their sum, enclosed in MPFR. `z(ℓ)` is found by Newton's
//! method in f64 (a search) and then **certified**: `z_lo`, `z_hi` with
//! `L(z_lo) ≤ ℓ ≤ L(z_hi)` checked with an error bound on the f64 log-sum-exp (from
//! [`super::FN_REL_ERR`] and the rounding of `μᵢ` and `ln pᵢ`); the tails are read at
//! `z_lo` for lower ends and `z_hi` for upper ends, with the error model of `Φ`
//! ([`crate::tradeoff::gaussian::ERFC_REL_ERR`]).
use super::{ATOM_BITS, Atom, FN_REL_ERR, Inverse, Lattice, Mass, Mechanism, Tails, num};
use crate::composition::pld::{U, cdf};
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use std::sync::Arc;

/// `N(0, σ²)` against `Σᵢ pᵢ N(cᵢ, σ²)` (the remove order; see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct MixtureOfGaussians {
    sigma: f64,
    sensitivities: Vec<f64>,
    probabilities: Vec<f64>,
    /// `(μᵢ, ln pᵢ)` of the terms with `pᵢ > 0`.
    terms: Vec<(f64, f64)>,
    /// Enclosure of `1/Σ pᵢ`.
    scale: (f64, f64),
    /// `ln p₀` (weight of the `μᵢ = 0` terms), `−∞` without any.
    ln_p0: f64,
    mu_max: f64,
}

impl MixtureOfGaussians {
    /// The mixture with noise σ, sensitivities `cᵢ` and probabilities `pᵢ`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless σ is finite and positive, the lists have the same
    /// positive length, every `cᵢ` is finite and ≥ 0, every `pᵢ` in `[0, 1]`, and
    /// `|Σ pᵢ − 1| ≤ 1e-9`.
    pub fn new(
        sigma: f64,
        sensitivities: Vec<f64>,
        probabilities: Vec<f64>,
    ) -> Result<MixtureOfGaussians> {
        if !(sigma.is_finite() && sigma > 0.0) {
            return Err(Error::param(
                "sigma",
                sigma,
                "standard deviation must be finite and > 0",
            ));
        }
        if sensitivities.is_empty() || sensitivities.len() != probabilities.len() {
            return Err(Error::param(
                "sensitivities",
                format!(
                    "{} against {} probabilities",
                    sensitivities.len(),
                    probabilities.len()
                ),
                "give one probability per sensitivity (at least one)",
            ));
        }
        if let Some(c) = sensitivities
            .iter()
            .find(|c| !(c.is_finite() && **c >= 0.0))
        {
            return Err(Error::param(
                "sensitivities",
                c,
                "each must be finite and ≥ 0",
            ));
        }
        if let Some(p) = probabilities.iter().find(|p| !(0.0..=1.0).contains(*p)) {
            return Err(Error::param("probabilities", p, "each must be in [0, 1]"));
        }
        let s = probabilities
            .iter()
            .fold(Enclosure::from_u64(ATOM_BITS, 0), |a, p| {
                a.add(&Enclosure::from_f64(ATOM_BITS, *p))
            });
        let sum = s.mid_f64();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(Error::param(
                "probabilities",
                sum,
                "must sum to 1 (within 1e-9)",
            ));
        }
        let inv = Enclosure::from_u64(ATOM_BITS, 1).div(&s);
        let mut terms = vec![];
        let mut p0 = 0.0;
        for (c, p) in sensitivities.iter().zip(&probabilities) {
            if *p == 0.0 {
                continue;
            }
            let mu = c / sigma;
            if !mu.is_finite() {
                return Err(Error::param("sigma", sigma, "sensitivity/σ overflows"));
            }
            if mu == 0.0 {
                p0 += p;
            }
            terms.push((mu, p.ln()));
        }
        let mu_max = terms.iter().map(|t| t.0).fold(0.0, f64::max);
        Ok(MixtureOfGaussians {
            sigma,
            sensitivities,
            probabilities,
            terms,
            scale: (inv.lower_f64(), inv.upper_f64()),
            ln_p0: if p0 > 0.0 { p0.ln() } else { f64::NEG_INFINITY },
            mu_max,
        })
    }

    /// `(L(z), L′(z), error bound of L(z))` in f64.
    fn loss(&self, z: f64) -> (f64, f64, f64) {
        let mut m = f64::NEG_INFINITY;
        let mut err_a = 0.0f64;
        for &(mu, lw) in &self.terms {
            let a = lw + mu * z - 0.5 * mu * mu;
            m = m.max(a);
            // the sum's rounding, ln pᵢ within FN_REL_ERR, μᵢ = cᵢ/σ within U relative
            let e = 4.0 * U * (lw.abs() + (mu * z).abs() + mu * mu)
                + FN_REL_ERR * lw.abs()
                + 2.0 * U * (mu * z.abs() + mu * mu);
            err_a = err_a.max(e);
        }
        let (mut s, mut d) = (0.0, 0.0);
        for &(mu, lw) in &self.terms {
            let w = (lw + mu * z - 0.5 * mu * mu - m).exp();
            s += w;
            d += mu * w;
        }
        let ls = s.ln();
        let v = m + ls;
        let k = self.terms.len() as f64;
        // exp within FN_REL_ERR each, the sum within k·U, ln within FN_REL_ERR
        let err = err_a + 1.01 * (FN_REL_ERR + k * U) + FN_REL_ERR * ls.abs() + 2.0 * U * v.abs();
        (v, d / s, err)
    }

    /// An enclosure `[z_lo, z_hi]` of `z(ℓ)` (ends may be ∓∞).
    fn z_of(&self, l: f64) -> (f64, f64) {
        if l == f64::INFINITY {
            return (f64::INFINITY, f64::INFINITY);
        }
        if l == f64::NEG_INFINITY || l <= self.ln_p0 * (1.0 + 1e-15) - 1e-300 {
            // L > ln p₀ everywhere (ln p₀ ≤ 0: the margin moves it down)
            return (f64::NEG_INFINITY, f64::NEG_INFINITY);
        }
        // Newton from the right of the root: the line of the largest slope lies below L
        let (mu, lw) = self
            .terms
            .iter()
            .copied()
            .fold((0.0, 0.0), |a, t| if t.0 > a.0 { t } else { a });
        let mut z = (l - lw + 0.5 * mu * mu) / mu;
        for _ in 0..200 {
            let (v, dv, _) = self.loss(z);
            if dv.is_nan() || dv <= 0.0 || !v.is_finite() {
                break;
            }
            let step = (v - l) / dv;
            z -= step;
            if step.abs() <= 1e-15 * (z.abs() + 1.0) {
                break;
            }
        }
        let (_, dv, err) = self.loss(z);
        let mut dz = 2.0 * err / dv.max(1e-300) + 4.0 * U * (z.abs() + 1.0);
        let mut lo = f64::NEG_INFINITY;
        for _ in 0..40 {
            let c = z - dz;
            let (v, _, e) = self.loss(c);
            if v + e <= l {
                lo = c;
                break;
            }
            dz *= 4.0;
        }
        let mut dz = 2.0 * err / dv.max(1e-300) + 4.0 * U * (z.abs() + 1.0);
        let mut hi = f64::INFINITY;
        for _ in 0..40 {
            let c = z + dz;
            let (v, _, e) = self.loss(c);
            if v - e >= l {
                hi = c;
                break;
            }
            dz *= 4.0;
        }
        (lo, hi)
    }

    /// Enclosure of `Σ pᵢ Φ(z − μᵢ)` (`upper = false`) or of `Σ pᵢ (1 − Φ(z − μᵢ))`, read
    /// at `z`: `(lower, upper)` of the normalized sum.
    fn q_at(&self, z: f64, upper: bool) -> (f64, f64) {
        if z.is_infinite() {
            let v = if (z > 0.0) != upper { 1.0 } else { 0.0 };
            return (v, v);
        }
        let (mut lo, mut hi) = (0.0, 0.0);
        for &(mu, lw) in &self.terms {
            let w = lw.exp();
            let (wl, wh) = (w * (1.0 - 2.0 * FN_REL_ERR), w * (1.0 + 2.0 * FN_REL_ERR));
            let v = z - mu;
            let c = cdf(v, 2.0 * U * (z.abs() + mu) + 2.0 * U * mu);
            let (m, e) = if upper {
                (c.upper, c.upper_err)
            } else {
                (c.lower, c.lower_err)
            };
            lo += wl * (m - e).max(0.0);
            hi += wh * (m + e);
        }
        let k = self.terms.len() as f64;
        (
            lo * (1.0 - k * U) * self.scale.0,
            (hi * (1.0 + k * U) * self.scale.1).min(1.0),
        )
    }
}

impl Mechanism for MixtureOfGaussians {
    fn name(&self) -> String {
        let list = |v: &[f64]| v.iter().map(|x| num(*x)).collect::<Vec<_>>().join(", ");
        format!(
            "MixtureOfGaussians(σ={}, c=[{}], p=[{}])",
            num(self.sigma),
            list(&self.sensitivities),
            list(&self.probabilities)
        )
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(Inverse(Arc::new(self.clone())))
    }
    fn is_symmetric(&self) -> bool {
        self.mu_max == 0.0
    }
    fn atoms(&self) -> Vec<Atom> {
        if self.mu_max == 0.0 {
            let one = Enclosure::from_u64(ATOM_BITS, 1);
            vec![Atom::of(&one, &one)]
        } else {
            vec![]
        }
    }
    fn continuous_support(&self) -> Option<(f64, f64)> {
        (self.mu_max > 0.0).then_some((self.ln_p0 - 1e-9, f64::INFINITY))
    }
    fn tails(&self, l: f64) -> Tails {
        if self.mu_max == 0.0 {
            return Tails::ZERO;
        }
        let (zl, zh) = self.z_of(l);
        let p_at = |z: f64, upper: bool| -> (f64, f64) {
            if z.is_infinite() {
                let v = if (z > 0.0) != upper { 1.0 } else { 0.0 };
                return (v, v);
            }
            let c = cdf(z, 2.0 * U * z.abs());
            if upper {
                (c.upper - c.upper_err, c.upper + c.upper_err)
            } else {
                (c.lower - c.lower_err, c.lower + c.lower_err)
            }
        };
        let m = |lo: f64, hi: f64| Mass {
            lo: lo.max(0.0),
            hi: hi.clamp(0.0, 1.0),
        };
        Tails {
            q_le: m(self.q_at(zl, false).0, self.q_at(zh, false).1),
            q_gt: m(self.q_at(zh, true).0, self.q_at(zl, true).1),
            p_le: m(p_at(zl, false).0, p_at(zh, false).1),
            p_gt: m(p_at(zh, true).0, p_at(zl, true).1),
        }
    }
    fn loss_reach(&self) -> f64 {
        let m = self.mu_max;
        (0.5 * m * m + 40.0 * m).max(1e-12)
    }
    fn loss_spread(&self) -> f64 {
        let s: f64 = self.terms.iter().map(|(mu, lw)| mu * lw.exp()).sum();
        s.max(1e-12)
    }
    fn loss_sup(&self) -> Option<f64> {
        None
    }
    fn atom_lattice(&self) -> Lattice {
        Lattice::NoAtoms
    }
    fn gaussian_dominating_mu(&self) -> Option<f64> {
        Some(self.mu_max * (1.0 + 4.0 * U))
    }
}
