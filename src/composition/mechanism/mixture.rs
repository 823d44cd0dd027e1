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

/// A mixture of unit-variance Gaussians `Σᵢ wᵢ N(μᵢ, 1)/S`, `S = Σ wᵢ` (the weights are
/// normalized): its terms `(μᵢ, ln(wᵢ/s̃))` (those with `wᵢ > 0`; `s̃` the f64 sum) and an
/// enclosure of `s̃/S`.
#[derive(Debug, Clone, PartialEq)]
struct Side {
    terms: Vec<(f64, f64)>,
    /// `e^{ln(wᵢ/s̃)}` of each term in f64 (within [`FN_REL_ERR`]).
    weights: Vec<f64>,
    scale: (f64, f64),
}

impl Side {
    /// The smallest and the largest mean of the terms (`(∞, −∞)` for no term).
    fn mean_range(&self) -> (f64, f64) {
        self.terms
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
                (lo.min(t.0), hi.max(t.0))
            })
    }

    /// The side of weights `w` (each in `[0, 1]`, summing to 1 within 1e-9) and means `mu`.
    fn new(mu: &[f64], w: &[f64]) -> Result<Side> {
        let s = w.iter().fold(Enclosure::from_u64(ATOM_BITS, 0), |a, p| {
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
        // the log-weights are normalized by the f64 sum s̃ (ln(wᵢ/s̃)), the tails by the
        // enclosure of s̃/S (S the exact sum), so both read the weights wᵢ/S
        let ls = sum.ln();
        let ratio = Enclosure::from_f64(ATOM_BITS, sum).div(&s);
        let terms: Vec<(f64, f64)> = mu
            .iter()
            .zip(w)
            .filter(|(_, w)| **w > 0.0)
            .map(|(m, w)| (*m, w.ln() - ls))
            .collect();
        Ok(Side {
            weights: terms.iter().map(|t| t.1.exp()).collect(),
            terms,
            scale: (ratio.lower_f64(), ratio.upper_f64()),
        })
    }

    /// `(ln Σ wᵢ e^{μᵢ z − μᵢ²/2}, its derivative, an error bound of the value)` in f64:
    /// the terms' rounding (`ln wᵢ` within [`FN_REL_ERR`], `μᵢ` within 2U relative), the
    /// exponentials and the sum, the logarithm.
    fn lse(&self, z: f64) -> (f64, f64, f64) {
        let mut m = f64::NEG_INFINITY;
        let mut err_a = 0.0f64;
        for &(mu, lw) in &self.terms {
            m = m.max(lw + mu * z - 0.5 * mu * mu);
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
        // plus the normalization: ln(s̃/S) (within the scale's enclosure) and the
        // rounding of ln s̃ in each log-weight
        let norm = (-self.scale.0.ln()).max(self.scale.1.ln()).max(0.0) + 2.0 * U;
        let err =
            err_a + norm + 1.01 * (FN_REL_ERR + k * U) + FN_REL_ERR * ls.abs() + 2.0 * U * v.abs();
        (v, d / s, err)
    }

    /// Enclosures `(lower tail, upper tail)` of `Σ wᵢ Φ(z − μᵢ)/Σ wᵢ` and
    /// `Σ wᵢ (1 − Φ(z − μᵢ))/Σ wᵢ` for every `z ∈ [z_lo, z_hi]` (ends ±∞ allowed): each
    /// term once, at the midpoint with the half-width as argument error.
    fn cdf(&self, z_lo: f64, z_hi: f64) -> (Mass, Mass) {
        if z_lo.is_infinite() || z_hi.is_infinite() {
            // Φ is monotone, 0 at −∞ and 1 at +∞
            let at = |z: f64| -> (Mass, Mass) {
                if z == f64::NEG_INFINITY {
                    (Mass::ZERO, Mass { lo: 1.0, hi: 1.0 })
                } else if z == f64::INFINITY {
                    (Mass { lo: 1.0, hi: 1.0 }, Mass::ZERO)
                } else {
                    self.cdf(z, z)
                }
            };
            let (a, b) = (at(z_lo), at(z_hi));
            return (
                Mass {
                    lo: a.0.lo,
                    hi: b.0.hi,
                },
                Mass {
                    lo: b.1.lo,
                    hi: a.1.hi,
                },
            );
        }
        let z = 0.5 * (z_lo + z_hi);
        let half = 0.5 * (z_hi - z_lo) + U * z.abs();
        let (mut le, mut gt) = ((0.0, 0.0), (0.0, 0.0));
        for (&(mu, _), &w) in self.terms.iter().zip(&self.weights) {
            let (wl, wh) = (w * (1.0 - 2.0 * FN_REL_ERR), w * (1.0 + 2.0 * FN_REL_ERR));
            let c = cdf(
                z - mu,
                half + 2.0 * U * (z.abs() + mu.abs()) + 2.0 * U * mu.abs(),
            );
            le.0 += wl * (c.lower - c.lower_err).max(0.0);
            le.1 += wh * (c.lower + c.lower_err);
            gt.0 += wl * (c.upper - c.upper_err).max(0.0);
            gt.1 += wh * (c.upper + c.upper_err);
        }
        let k = self.terms.len() as f64;
        let m = |(lo, hi): (f64, f64)| Mass {
            lo: (lo * (1.0 - k * U) * self.scale.0).max(0.0),
            hi: (hi * (1.0 + k * U) * self.scale.1).clamp(0.0, 1.0),
        };
        (m(le), m(gt))
    }

    /// The least mean and `ln` of the total weight of the terms with it.
    fn lowest(&self) -> (f64, f64) {
        let m = self.terms.iter().map(|t| t.0).fold(f64::INFINITY, f64::min);
        let w: f64 = self
            .terms
            .iter()
            .filter(|t| t.0 <= m)
            .map(|t| t.1.exp())
            .sum();
        (m, w.ln())
    }
}

/// A pair of Gaussian mixtures `P = Σⱼ aⱼ N(νⱼ, σ²)`, `Q = Σᵢ pᵢ N(μᵢ, σ²)` with every
/// mean of `Q` at or above every mean of `P`, so that the loss
/// `L(z) = ln Σᵢ pᵢ e^{μᵢ z − μᵢ²/2} − ln Σⱼ aⱼ e^{νⱼ z − νⱼ²/2}` (standardized, `z = x/σ`)
/// increases (its derivative is a softmax mean of the `μᵢ` minus one of the `νⱼ`).
/// [`MixtureOfGaussians`] is `P = N(0, σ²)`; [`MixtureOfGaussians::replace_subsampled`]
/// the replace-one pair of the Poisson-subsampled Gaussian.
#[derive(Debug, Clone, PartialEq)]
pub struct MixtureOfGaussians {
    label: String,
    q: Side,
    p: Side,
    /// `inf L` (the limit at `z → −∞`).
    loss_inf: f64,
    /// `max μᵢ − min νⱼ`: both orders lie above `G` of it.
    spread_max: f64,
}

impl MixtureOfGaussians {
    /// The mixture with noise σ, sensitivities `cᵢ` and probabilities `pᵢ` against
    /// `N(0, σ²)` (the remove order).
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
        let mus: Vec<f64> = sensitivities.iter().map(|c| c / sigma).collect();
        if mus.iter().any(|m| !m.is_finite()) {
            return Err(Error::param("sigma", sigma, "sensitivity/σ overflows"));
        }
        let list = |v: &[f64]| v.iter().map(|x| num(*x)).collect::<Vec<_>>().join(", ");
        let label = format!(
            "MixtureOfGaussians(σ={}, c=[{}], p=[{}])",
            num(sigma),
            list(&sensitivities),
            list(&probabilities)
        );
        MixtureOfGaussians::pair(
            label,
            Side::new(&mus, &probabilities)?,
            Side::new(&[0.0], &[1.0])?,
        )
    }

    /// dp_accounting's replace-one pair of the Poisson-subsampled Gaussian at sampling
    /// probability `q` and `μ = Δ/σ`: `Q = qN(μ, 1) + (1 − q)N(0, 1)` against
    /// `P = qN(−μ, 1) + (1 − q)N(0, 1)` (its `mu_upper`, `mu_lower` reflected by
    /// `x ↦ −x`), whose loss is the sum of the remove and add losses. Symmetric; a
    /// post-processing of `(N(−μ, 1), N(μ, 1))` (redraw from `N(0, 1)` with probability
    /// `1 − q`), so above `G(2μ)`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ q ≤ 1` and μ finite and ≥ 0.
    pub fn replace_subsampled(q: f64, mu: f64) -> Result<MixtureOfGaussians> {
        if !(0.0..=1.0).contains(&q) {
            return Err(Error::param(
                "q",
                q,
                "sampling probability must be in [0, 1]",
            ));
        }
        if !(mu.is_finite() && mu >= 0.0) {
            return Err(Error::param("mu", mu, "must be finite and ≥ 0"));
        }
        let label = format!("ReplaceSubsampledGaussian(q={}, μ={})", num(q), num(mu));
        let w = [q, 1.0 - q];
        MixtureOfGaussians::pair(
            label,
            Side::new(&[mu, 0.0], &w)?,
            Side::new(&[-mu, 0.0], &w)?,
        )
    }

    fn pair(label: String, q: Side, p: Side) -> Result<MixtureOfGaussians> {
        let (q_min, q_max) = q.mean_range();
        let (p_min, p_max) = p.mean_range();
        if q_min < p_max {
            return Err(Error::param(
                "sensitivities",
                format!("{q_min} < {p_max}"),
                "every mean of Q must be at or above every mean of P (a monotone loss)",
            ));
        }
        let (lq, wq) = q.lowest();
        let (lp, wp) = p.lowest();
        let loss_inf = if lq > lp { f64::NEG_INFINITY } else { wq - wp };
        Ok(MixtureOfGaussians {
            label,
            q,
            p,
            loss_inf,
            spread_max: (q_max - p_min).max(0.0),
        })
    }

    /// `(L(z), L′(z), error bound of L(z))` in f64.
    fn loss(&self, z: f64) -> (f64, f64, f64) {
        let (a, da, ea) = self.q.lse(z);
        let (b, db, eb) = self.p.lse(z);
        let v = a - b;
        (v, da - db, ea + eb + 2.0 * U * v.abs())
    }

    /// An enclosure `[z_lo, z_hi]` of `z(ℓ)`, the point where the increasing loss
    /// reaches `ℓ` (ends may be ∓∞): Newton from `ℓ/(max μ − min ν)` (a search; a
    /// bracketed fallback), then the certified check `L(z_lo) ≤ ℓ ≤ L(z_hi)` with the
    /// error bound of [`MixtureOfGaussians::loss`].
    fn z_of(&self, l: f64) -> (f64, f64) {
        self.z_from(l, None)
    }

    /// [`MixtureOfGaussians::z_of`] with Newton started at `start` (a prediction from
    /// the previous roots of a run) when given; the enclosure is certified either way.
    fn z_from(&self, l: f64, start: Option<f64>) -> (f64, f64) {
        if l == f64::INFINITY {
            return (f64::INFINITY, f64::INFINITY);
        }
        let margin = 1e-12 * (self.loss_inf.abs() + 1.0);
        if l == f64::NEG_INFINITY || l <= self.loss_inf - margin {
            return (f64::NEG_INFINITY, f64::NEG_INFINITY);
        }
        let slope = self.spread_max.max(1e-300);
        let (z, dv, err) = start
            .filter(|z| z.is_finite())
            .and_then(|z0| self.newton(l, z0))
            .or_else(|| self.newton(l, l / slope))
            .unwrap_or_else(|| {
                let z = self.bracketed(l, l / slope);
                let (_, dv, err) = self.loss(z);
                (z, dv, err)
            });
        // the certified check: L(z_lo) ≤ ℓ ≤ L(z_hi) with the error bound at each end,
        // from a first distance that the error at z predicts, growing fourfold
        let start = 2.0 * err / dv.max(1e-300) + 4.0 * U * (z.abs() + 1.0);
        let mut lo = f64::NEG_INFINITY;
        let mut dz = start;
        for _ in 0..60 {
            let c = z - dz;
            let (v, _, e) = self.loss(c);
            if v + e <= l {
                lo = c;
                break;
            }
            dz *= 4.0;
        }
        let mut hi = f64::INFINITY;
        let mut dz = start;
        for _ in 0..60 {
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

    /// Newton's iteration for `L(z) = ℓ` from `z`, its steps kept within `max(1, |z|)`:
    /// once a step is below `1e-7·(|z| + 1)` (the next one is then below the f64
    /// resolution, Newton converging quadratically) the point after it, with `L′` and
    /// the error bound of `L` at the last point evaluated; `None` unless it settles
    /// within 12 steps. A search: the caller certifies the root.
    fn newton(&self, l: f64, mut z: f64) -> Option<(f64, f64, f64)> {
        for _ in 0..12 {
            let (v, dv, e) = self.loss(z);
            if !(v.is_finite() && dv > 0.0) {
                return None;
            }
            let step = ((v - l) / dv).clamp(-(z.abs().max(1.0)), z.abs().max(1.0));
            z -= step;
            if step.abs() <= 1e-7 * (z.abs() + 1.0) {
                return Some((z, dv, e));
            }
        }
        None
    }

    /// A root of `L(z) = ℓ` by a doubling bracket around `z0` and safeguarded Newton
    /// inside it (the fallback of [`MixtureOfGaussians::newton`]).
    fn bracketed(&self, l: f64, z0: f64) -> f64 {
        let (mut a, mut b) = (z0 - 1.0, z0 + 1.0);
        let mut step = 1.0;
        for _ in 0..200 {
            if self.loss(a).0 <= l {
                break;
            }
            step *= 2.0;
            a -= step;
        }
        step = 1.0;
        for _ in 0..200 {
            if self.loss(b).0 >= l {
                break;
            }
            step *= 2.0;
            b += step;
        }
        let mut z = 0.5 * (a + b);
        for _ in 0..200 {
            let (v, dv, _) = self.loss(z);
            if !v.is_finite() {
                break;
            }
            if v < l {
                a = z;
            } else {
                b = z;
            }
            let newton = z - (v - l) / dv;
            let next = if dv > 0.0 && newton > a && newton < b {
                newton
            } else {
                0.5 * (a + b)
            };
            if (next - z).abs() <= 1e-15 * (z.abs() + 1.0) || b - a <= 1e-15 * (z.abs() + 1.0) {
                return next;
            }
            z = next;
        }
        z
    }

    fn tails_at(&self, zl: f64, zh: f64) -> Tails {
        let (q_le, q_gt) = self.q.cdf(zl, zh);
        let (p_le, p_gt) = self.p.cdf(zl, zh);
        Tails {
            q_le,
            q_gt,
            p_le,
            p_gt,
        }
    }

    fn degenerate(&self) -> bool {
        self.spread_max <= 0.0
    }
}

impl Mechanism for MixtureOfGaussians {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        if self.is_symmetric() {
            Arc::new(self.clone())
        } else {
            Arc::new(Inverse(Arc::new(self.clone())))
        }
    }
    fn is_symmetric(&self) -> bool {
        // Q(x) = P(−x): the means and weights mirror each other
        let mirror = |s: &Side| {
            let mut t: Vec<(u64, u64)> = s
                .terms
                .iter()
                .map(|(m, w)| ((-m + 0.0).to_bits(), w.to_bits()))
                .collect();
            t.sort_unstable();
            t
        };
        let plain = |s: &Side| {
            let mut t: Vec<(u64, u64)> = s
                .terms
                .iter()
                .map(|(m, w)| ((m + 0.0).to_bits(), w.to_bits()))
                .collect();
            t.sort_unstable();
            t
        };
        self.degenerate() || mirror(&self.q) == plain(&self.p)
    }
    fn atoms(&self) -> Vec<Atom> {
        if self.degenerate() {
            let one = Enclosure::from_u64(ATOM_BITS, 1);
            vec![Atom::of(&one, &one)]
        } else {
            vec![]
        }
    }
    fn continuous_support(&self) -> Option<(f64, f64)> {
        (!self.degenerate()).then_some((
            self.loss_inf - 1e-9 * (self.loss_inf.abs() + 1.0),
            f64::INFINITY,
        ))
    }
    fn tails(&self, l: f64) -> Tails {
        if self.degenerate() {
            return Tails::ZERO;
        }
        let (zl, zh) = self.z_of(l);
        self.tails_at(zl, zh)
    }
    fn tails_run(&self, losses: &[f64]) -> Vec<Tails> {
        if self.degenerate() {
            return vec![Tails::ZERO; losses.len()];
        }
        // Newton from the secant prediction of the run's last two roots (nearby
        // losses, nearby roots)
        let mut last: Vec<(f64, f64)> = Vec::with_capacity(2);
        losses
            .iter()
            .map(|&l| {
                let guess = match last[..] {
                    [(l0, z0), (l1, z1)] if l1 > l0 => Some(z1 + (z1 - z0) * (l - l1) / (l1 - l0)),
                    [.., (_, z1)] => Some(z1),
                    [] => None,
                };
                let (zl, zh) = self.z_from(l, guess);
                let z = 0.5 * (zl + zh);
                if z.is_finite() {
                    if last.len() == 2 {
                        last.remove(0);
                    }
                    last.push((l, z));
                } else {
                    last.clear();
                }
                self.tails_at(zl, zh)
            })
            .collect()
    }
    fn loss_reach(&self) -> f64 {
        let m = self.spread_max;
        (0.5 * m * m + 40.0 * m).max(1e-12)
    }
    fn loss_spread(&self) -> f64 {
        let mean = |s: &Side| s.terms.iter().map(|(mu, lw)| mu * lw.exp()).sum::<f64>();
        (mean(&self.q) - mean(&self.p)).max(1e-12)
    }
    fn loss_sup(&self) -> Option<f64> {
        None
    }
    fn atom_lattice(&self) -> Lattice {
        Lattice::NoAtoms
    }
    fn gaussian_dominating_mu(&self) -> Option<f64> {
        Some(self.spread_max * (1.0 + 4.0 * U))
    }
}
