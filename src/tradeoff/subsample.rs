//! The subsampled Gaussian tradeoff function `C_p(G(μ))` of BSA24 Def 4.7.
//!
//! # Formula
//! With `f = G(μ)`, `f_p = p f + (1 − p) Id` and the fixed point `x* = Φ(−μ/2)` of the
//! symmetric f (docs/conventions.md §3):
//!
//! ```text
//! C_p(f)(α) = f_p(α)                    for α ∈ [0, x*]
//!           = x* + f_p(x*) − α          for α ∈ [x*, f_p(x*)]
//!           = f_p⁻¹(α)                  for α ≥ f_p(x*)
//! ```
//!
//! In the parameterization `α′ = 1 − Φ(z)`, `f_p(α′) = pΦ(z − μ) + (1 − p)Φ(z)`, so
//! `f_p⁻¹(α) = 1 − Φ(z)` where z solves `pΦ(z − μ) + (1 − p)Φ(z) = α`.
//!
//! Conversion to (ε, δ): `(min{g, h}**)* = max{g*, h*}`, so
//! `δ(ε) = max{δ_{f_p}(ε), δ_{f_p⁻¹}(ε)}` with
//! `δ_{f_p}(ε) = p · δ_{G(μ)}(ln(1 + (e^ε − 1)/p))` and
//! `δ_{f_p⁻¹}(ε) = sup_α (1 − α − e^ε f_p(α))`, attained where `f′(α) = (e^{−ε} − 1 + p)/p`,
//! i.e. at `Φ⁻¹(α) = −(ln k + μ²/2)/μ` with `k = (e^{−ε} − 1 + p)/p` (0 if `k ≤ 0`).
//!
//! # References
//! BSA24 Def 4.7; DRS22 §4 (Definition 6, Theorem 9).
use super::function::Tradeoff;
use super::gaussian::Certified;
use super::gaussian::{Gaussian, Path};
use crate::error::{Error, Result};
use crate::precision::{Enclosure, Precision, special};

/// `C_p(G(μ))`.
///
/// # Example
/// ```
/// use shiftdp::tradeoff::{SubsampledGaussian, Gaussian, Tradeoff};
/// let c = SubsampledGaussian::new(0.25, 1.0).unwrap();
/// let g = Gaussian::new(1.0).unwrap();
/// // between G(1) and Id everywhere
/// for a in [0.01, 0.1, 0.3, 0.6] {
///     assert!(g.eval(a) <= c.eval(a) && c.eval(a) <= 1.0 - a);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SubsampledGaussian {
    p: f64,
    mu: f64,
}

impl SubsampledGaussian {
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ p ≤ 1` and μ is finite and ≥ 0.
    pub fn new(p: f64, mu: f64) -> Result<Self> {
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::param(
                "p",
                p,
                "sampling probability must be in [0, 1]",
            ));
        }
        Gaussian::new(mu)?;
        Ok(SubsampledGaussian { p, mu })
    }
    /// Sampling probability p.
    pub fn p(&self) -> f64 {
        self.p
    }
    /// Gaussian parameter μ.
    pub fn mu(&self) -> f64 {
        self.mu
    }
    /// `f_p(α) = p G(μ)(α) + (1 − p)(1 − α)` (estimate).
    pub fn f_p(&self, alpha: f64) -> f64 {
        let g = super::gaussian::eval_f64(self.mu, alpha); // μ validated in `new`
        self.p * g + (1.0 - self.p) * (1.0 - alpha)
    }
    fn h(&self, z: f64) -> f64 {
        self.p * special::phi(z - self.mu) + (1.0 - self.p) * special::phi(z)
    }
    /// z with `h(z) = α` (bisection on the increasing h).
    fn solve_z(&self, alpha: f64) -> f64 {
        let (mut lo, mut hi) = (-40.0 + self.mu.min(0.0), 40.0 + self.mu);
        for _ in 0..200 {
            let m = 0.5 * (lo + hi);
            if self.h(m) < alpha {
                lo = m;
            } else {
                hi = m;
            }
            if hi - lo < 1e-15 * (1.0 + m.abs()) {
                break;
            }
        }
        0.5 * (lo + hi)
    }
    /// The fixed point `x* = Φ(−μ/2)`.
    pub fn fixed_point(&self) -> f64 {
        special::phi(-0.5 * self.mu)
    }

    /// Certified enclosure of `f_p(α)` at `prec` bits, α ∈ (0,1).
    fn f_p_enclosure(&self, alpha: &Enclosure) -> Result<Enclosure> {
        let prec = alpha.prec();
        let g = Gaussian::eval_enclosure(&Enclosure::from_f64(prec, self.mu), alpha)?;
        let p = Enclosure::from_f64(prec, self.p);
        let one = Enclosure::from_u64(prec, 1);
        Ok(p.clone() * g + (one.clone() - p) * (one - alpha.clone()))
    }

    /// Certified `δ(ε)` of `C_p(G(μ))` (upper end is the bound).
    ///
    /// # Errors
    /// [`Error::Parameter`] if ε is not finite; [`Error::NotCertified`] on failure.
    pub fn delta(&self, eps: f64, bits: u32) -> Result<Certified> {
        if !eps.is_finite() {
            return Err(Error::param("epsilon", eps, "must be finite"));
        }
        let prec = bits.max(64);
        let e = Enclosure::from_f64(prec, eps.max(0.0));
        let p = Enclosure::from_f64(prec, self.p);
        let mu = Enclosure::from_f64(prec, self.mu);
        let one = Enclosure::from_u64(prec, 1);
        if self.p == 0.0 || self.mu == 0.0 {
            return Ok(Certified {
                enclosure: Enclosure::from_u64(prec, 0),
                path: Path::Mpfr(prec),
            });
        }
        // term 1: p δ_G(ε′), ε′ = ln(1 + (e^ε − 1)/p)
        let mut eps1 = (e.exp_m1() / p.clone()).ln_1p();
        if !eps1.is_finite() {
            // e^ε beyond MPFR's range: ε′ = ε − ln p + ln(1 − e^{−ε}(1 − p)), the same value
            let tail = (-e.clone()).exp() * (one.clone() - p.clone());
            eps1 = e.clone() - p.ln() + (-tail).ln_1p();
        }
        let d1 = Gaussian::delta(&mu, &eps1, Precision::Bits(prec))?.enclosure;
        let t1 = p.clone() * d1;
        // term 2: sup_α (1 − α − e^ε f_p(α)) at the stationary point (0 if k ≤ 0)
        let k = ((-e.clone()).exp() - one.clone() + p.clone()) / p.clone();
        let t2 = if k.hi().is_sign_negative() || k.hi().is_zero() {
            Enclosure::from_u64(prec, 0)
        } else {
            let kk = if k.lo().is_sign_positive() && !k.lo().is_zero() {
                k
            } else {
                // k straddles 0: the supremum is at α = 0 or at tiny α; bound crudely by
                // 1 − e^ε(1 − p) ≥ the value at any α (since f_p ≥ (1−p)(1−α) ≥ …) — safe
                let c = one.clone() - e.exp() * (one.clone() - p.clone());
                return Ok(Certified {
                    enclosure: t1.max(&c.max(&Enclosure::from_u64(prec, 0))),
                    path: Path::Mpfr(prec),
                });
            };
            let z0 = -(kk.ln() + mu.square().half()) / mu.clone();
            // value = (1 − Φ(z0))(1 − e^ε(1−p)) − e^ε p (1 − Φ(z0 + μ))
            let a = z0.phi_c();
            let fa = (z0 + mu.clone()).phi_c();
            let ee = e.exp();
            a * (one.clone() - ee.clone() * (one.clone() - p.clone())) - ee * p * fa
        };
        let zero = Enclosure::from_u64(prec, 0);
        let d = t1.max(&t2).max(&zero);
        Ok(Certified {
            enclosure: d,
            path: Path::Mpfr(prec),
        })
    }

    /// Certified upper bound on `ε(δ)` by bisection on the certified `δ(ε)`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 < δ < 1`; [`Error::NotCertified`] if no finite ε
    /// is found below 1e4.
    pub fn epsilon_up(&self, delta: f64, bits: u32) -> Result<f64> {
        if !(delta > 0.0 && delta < 1.0) {
            return Err(Error::param("delta", delta, "must satisfy 0 < δ < 1"));
        }
        let ok =
            |e: f64| -> Result<bool> { Ok(self.delta(e, bits)?.enclosure.upper_f64() <= delta) };
        if ok(0.0)? {
            return Ok(0.0);
        }
        let mut hi = 1.0;
        while !ok(hi)? {
            hi *= 2.0;
            if hi > 1e4 {
                return Err(Error::NotCertified {
                    what: "ε(δ) of C_p(G(μ))".into(),
                    reason: "ε > 1e4".into(),
                });
            }
        }
        let mut lo = 0.0;
        for _ in 0..60 {
            let m = 0.5 * (lo + hi);
            if ok(m)? {
                hi = m;
            } else {
                lo = m;
            }
            if hi - lo < 1e-13 * hi {
                break;
            }
        }
        Ok(hi)
    }
}

impl Tradeoff for SubsampledGaussian {
    fn eval(&self, alpha: f64) -> f64 {
        if alpha <= 0.0 {
            return 1.0;
        }
        if alpha >= 1.0 {
            return 0.0;
        }
        let xs = self.fixed_point();
        let fxs = self.f_p(xs);
        if alpha <= xs {
            self.f_p(alpha)
        } else if alpha <= fxs {
            xs + fxs - alpha
        } else {
            special::phi_c(self.solve_z(alpha))
        }
    }
    fn eval_bounds(&self, alpha: f64) -> (f64, f64) {
        if alpha <= 0.0 {
            return (1.0, 1.0);
        }
        if alpha >= 1.0 {
            return (0.0, 0.0);
        }
        let prec = 64;
        let v = self.eval(alpha);
        let certified = || -> Result<(f64, f64)> {
            let a = Enclosure::from_f64(prec, alpha);
            let mu = Enclosure::from_f64(prec, self.mu);
            let xs = (-mu.half()).phi();
            let fxs = self.f_p_enclosure(&xs)?;
            // candidate pieces, each an enclosure of its formula at α
            let mut lo = f64::INFINITY;
            let mut hi = f64::INFINITY;
            let below_xs_possible = a.lo() <= xs.hi();
            let line_possible = a.hi() >= xs.lo() && a.lo() <= fxs.hi();
            let inv_possible = a.hi() >= fxs.lo();
            if below_xs_possible {
                let e = self.f_p_enclosure(&a)?;
                lo = lo.min(e.lower_f64());
                hi = hi.min(e.upper_f64());
            }
            if line_possible {
                let e = xs.clone() + fxs.clone() - a.clone();
                lo = lo.min(e.lower_f64());
                hi = hi.min(e.upper_f64());
            }
            if inv_possible {
                // bracket z: h(z1) ≤ α ≤ h(z2)
                let z = self.solve_z(alpha);
                let p = Enclosure::from_f64(prec, self.p);
                let one = Enclosure::from_u64(prec, 1);
                let h = |zz: f64| {
                    let ze = Enclosure::from_f64(prec, zz);
                    p.clone() * (ze.clone() - mu.clone()).phi()
                        + (one.clone() - p.clone()) * ze.phi()
                };
                let mut w = 1e-14 * (1.0 + z.abs());
                let mut found = None;
                for _ in 0..30 {
                    let (z1, z2) = (z - w, z + w);
                    if h(z1).upper_f64() <= alpha && h(z2).lower_f64() >= alpha {
                        found = Some((z1, z2));
                        break;
                    }
                    w *= 4.0;
                }
                let (z1, z2) = found.ok_or(Error::NotCertified {
                    what: "C_p(G(μ))(α)".into(),
                    reason: "no bracket".into(),
                })?;
                lo = lo.min(Enclosure::from_f64(prec, z2).phi_c().lower_f64());
                hi = hi.min(Enclosure::from_f64(prec, z1).phi_c().upper_f64());
            }
            Ok((lo.max(0.0), hi.min(1.0 - alpha).max(lo)))
        };
        certified().unwrap_or(((v - 1e-9).max(0.0), (v + 1e-9).min(1.0 - alpha)))
    }
    fn is_symmetric(&self) -> bool {
        true
    }
    fn delta_up(&self, eps: f64) -> Result<f64> {
        self.delta(eps, 64).map(|c| c.enclosure.upper_f64())
    }
    fn name(&self) -> String {
        format!("C_{}(G({}))", self.p, self.mu)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tradeoff::{PiecewiseLinear, check_tradeoff_laws};

    /// Independent construction: C_p applied to a fine tangent approximation of G(μ).
    fn numeric_cp(p: f64, mu: f64, k: usize) -> PiecewiseLinear {
        let g = Gaussian::new(mu).unwrap();
        let alphas: Vec<f64> = (1..k)
            .map(|i| special::phi(-8.0 + 16.0 * i as f64 / k as f64))
            .collect();
        let values: Vec<f64> = alphas.iter().map(|&a| g.eval(a)).collect();
        let slopes: Vec<f64> = alphas.iter().map(|&a| g.slope(a)).collect();
        PiecewiseLinear::from_tangents(&alphas, &values, &slopes)
            .unwrap()
            .subsample(p)
            .unwrap()
    }

    #[test]
    fn closed_form_matches_numeric_hull() {
        for &(p, mu) in &[(0.25, 1.0), (0.05, 2.0), (0.9, 0.5)] {
            let c = SubsampledGaussian::new(p, mu).unwrap();
            check_tradeoff_laws(&c, 400).unwrap();
            let n = numeric_cp(p, mu, 4000);
            for i in 1..100 {
                let a = i as f64 / 100.0;
                assert!(
                    (c.eval(a) - n.eval(a)).abs() < 2e-5,
                    "p={p} mu={mu} a={a}: {} vs {}",
                    c.eval(a),
                    n.eval(a)
                );
                let (lo, hi) = c.eval_bounds(a);
                assert!(lo <= c.eval(a) + 1e-15 && c.eval(a) <= hi + 1e-15);
            }
            // δ(ε): closed form vs numeric conjugate
            for &e in &[0.0, 0.3, 1.0, 2.5] {
                let d = c.delta(e, 64).unwrap().enclosure;
                let dn = n.delta_up(e).unwrap();
                assert!(
                    (d.mid_f64() - dn).abs() < 2e-5,
                    "p={p} mu={mu} e={e}: {d:?} vs {dn}"
                );
            }
        }
    }

    #[test]
    fn p_one_is_gaussian() {
        let c = SubsampledGaussian::new(1.0, 1.3).unwrap();
        let g = Gaussian::new(1.3).unwrap();
        for i in 1..50 {
            let a = i as f64 / 50.0;
            assert!((c.eval(a) - g.eval(a)).abs() < 1e-12);
        }
    }

    #[test]
    fn rejects_bad_p() {
        assert!(SubsampledGaussian::new(1.5, 1.0).is_err());
        assert!(SubsampledGaussian::new(-0.1, 1.0).is_err());
        assert!(SubsampledGaussian::new(f64::NAN, 1.0).is_err());
    }
}
