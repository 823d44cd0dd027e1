//! The Gaussian family in closed form: `G(μ)`, the Poisson-subsampled Gaussian in its
//! remove and add orders, and the symmetrized `C_p(G(μ))`.
//!
//! # Formula
//! * `G(μ) = T(N(0, 1), N(μ, 1))` (DRS22 Def 2.7): loss `L = μx − μ²/2`, so
//!   `Q{L ≤ ℓ} = Φ((ℓ − μ²/2)/μ)` and `P{L ≤ ℓ} = Φ((ℓ + μ²/2)/μ)`.
//! * Remove order of Poisson subsampling with probability `p` (DRS22 Thm 9 / Zhu, Dong,
//!   Wang 2022): `P = N(0, 1)`, `Q = (1 − p)N(0, 1) + pN(μ, 1)`, tradeoff function
//!   `f_p = pG(μ) + (1 − p)Id`; loss `L(x) = ln(1 − p + p e^{μx − μ²/2})`, increasing
//!   from `ln(1 − p)`, with inverse `x(ℓ) = (ln((e^ℓ − 1 + p)/p) + μ²/2)/μ`:
//!   `Q{L ≤ ℓ} = (1 − p)Φ(x(ℓ)) + pΦ(x(ℓ) − μ)`, `P{L ≤ ℓ} = Φ(x(ℓ))`.
//! * Add order: the pair `(Q, P)`, tradeoff function `f_p⁻¹`.
//! * `C_p(G(μ)) = min{f_p, f_p⁻¹}**` (BSA24 Def 4.7): the remove order's losses above 0,
//!   the add order's below 0, and an atom at loss 0 of Q- and P-mass
//!   `(1 − p)(Φ(μ/2) − Φ(−μ/2))` (the segment of slope −1 of the convex hull). It is
//!   symmetric, so `Q{L ≤ ℓ} = P{L ≥ −ℓ}`; for `ℓ ≥ 0`,
//!   `Q{L < 0} = P_remove{L > 0}`, `P{L < 0} = Q_remove{L > 0}`, and
//!   `Q{0 < L ≤ ℓ} = Q_remove{0 < L ≤ ℓ}` (alike for `P`).
//!
//! The engine discretizes these pairs by `pld::kind_pieces` (every cell from closed-form
//! `Φ` differences, verified in `proofs/engine/composition-fft.md`); the tails below are
//! the same closed forms at one loss, for the combinators ([`super::PoissonSampled`],
//! [`super::Shifted`], …) that read a mechanism through its tails.
//!
//! # Rounding
//! `Φ` within [`crate::tradeoff::gaussian::ERFC_REL_ERR`] with the argument's error bound
//! (`pld::cdf`); mixtures and differences of enclosures rounded outward by `4U`.
use super::{Atom, Lattice, Mass, Mechanism, Tails, num, sampled::invert_tails};
use crate::composition::pld::{self, Grid, Kind, Pieces, U};
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use crate::precision::special;
use std::sync::Arc;

/// One order of a Gaussian-family pair (`G(μ)`, `C_p(G(μ))`, the Poisson remove or add
/// order): see the module doc.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GaussianFamily(Kind);

fn check_mu(mu: f64) -> Result<()> {
    if mu.is_finite() && mu >= 0.0 {
        Ok(())
    } else {
        Err(Error::param("mu", mu, "must be finite and ≥ 0"))
    }
}

fn check_p_mu(p: f64, mu: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::param(
            "p",
            p,
            "sampling probability must be in [0, 1]",
        ));
    }
    check_mu(mu)
}

/// `[a.lo + b.lo − c.hi, a.hi + b.hi − c.lo]` rounded outward by `4U`, within `[0, 1]`.
fn plus_minus(a: Mass, b: Mass, c: Mass) -> Mass {
    Mass {
        lo: ((a.lo + b.lo - c.hi) * (1.0 - 4.0 * U) - 4.0 * U * c.hi).max(0.0),
        hi: ((a.hi + b.hi - c.lo) * (1.0 + 4.0 * U) + 4.0 * U * c.hi).clamp(0.0, 1.0),
    }
}

/// Tails of `G(μ)`, `μ > 0`, at `ℓ`.
fn gaussian_tails(mu: f64, l: f64) -> Tails {
    let m = 0.5 * mu * mu;
    let (q, p) = if l.is_finite() {
        (pld::gaussian_cdf(l, -m, mu), pld::gaussian_cdf(l, m, mu))
    } else {
        (pld::cdf(l, 0.0), pld::cdf(l, 0.0))
    };
    Tails {
        q_le: Mass::new(q.lower, q.lower_err),
        q_gt: Mass::new(q.upper, q.upper_err),
        p_le: Mass::new(p.lower, p.lower_err),
        p_gt: Mass::new(p.upper, p.upper_err),
    }
}

/// Tails of the remove order `f_p`, `0 < p`, `μ > 0`, at `ℓ`.
fn remove_tails(p: f64, mu: f64, l: f64) -> Tails {
    let e = pld::fp_edge(l, p, mu);
    let (q_le, p_le) = pld::fp_head(&e, p);
    let (q_gt, p_gt) = pld::fp_tail(&e, p);
    Tails {
        q_le,
        q_gt,
        p_le,
        p_gt,
    }
}

/// Tails of `C_p(G(μ))`'s continuous part at `ℓ ≥ 0` (module doc).
fn symmetrized_tails_above_zero(p: f64, mu: f64, l: f64) -> Tails {
    let at0 = remove_tails(p, mu, 0.0);
    let at = remove_tails(p, mu, l);
    Tails {
        q_le: plus_minus(at0.p_gt, at.q_le, at0.q_le),
        q_gt: at.q_gt,
        p_le: plus_minus(at0.q_gt, at.p_le, at0.p_le),
        p_gt: at.p_gt,
    }
}

impl GaussianFamily {
    /// `G(μ)`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless μ is finite and ≥ 0.
    pub fn gaussian(mu: f64) -> Result<GaussianFamily> {
        check_mu(mu)?;
        Ok(GaussianFamily(Kind::Gaussian(mu)))
    }
    /// `C_p(G(μ))`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ p ≤ 1` and μ is finite and ≥ 0.
    pub fn symmetrized(p: f64, mu: f64) -> Result<GaussianFamily> {
        check_p_mu(p, mu)?;
        Ok(GaussianFamily(Kind::Symmetrized(p, mu)))
    }
    /// The remove order `f_p = pG(μ) + (1 − p)Id` of the Poisson-subsampled Gaussian.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ p ≤ 1` and μ is finite and ≥ 0.
    pub fn poisson_remove(p: f64, mu: f64) -> Result<GaussianFamily> {
        check_p_mu(p, mu)?;
        Ok(GaussianFamily(Kind::Remove(p, mu)))
    }
    /// `(p, μ)`, with `p = 1` for `G(μ)`.
    fn p_mu(&self) -> (f64, f64) {
        match self.0 {
            Kind::Gaussian(mu) => (1.0, mu),
            Kind::Symmetrized(p, mu) | Kind::Remove(p, mu) | Kind::Add(p, mu) => (p, mu),
        }
    }
    /// Whether the pair is `(N(0,1), N(0,1))` (`p = 0` or `μ = 0`): one atom at loss 0.
    fn degenerate(&self) -> bool {
        let (p, mu) = self.p_mu();
        p == 0.0 || mu == 0.0
    }
}

impl Mechanism for GaussianFamily {
    fn name(&self) -> String {
        match self.0 {
            Kind::Gaussian(mu) => format!("G({})", num(mu)),
            Kind::Symmetrized(p, mu) => format!("C_{}(G({}))", num(p), num(mu)),
            Kind::Remove(p, mu) => format!("PoissonRemove_{}(G({}))", num(p), num(mu)),
            Kind::Add(p, mu) => format!("PoissonAdd_{}(G({}))", num(p), num(mu)),
        }
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(GaussianFamily(match self.0 {
            Kind::Remove(p, mu) => Kind::Add(p, mu),
            Kind::Add(p, mu) => Kind::Remove(p, mu),
            k => k,
        }))
    }
    fn is_symmetric(&self) -> bool {
        matches!(self.0, Kind::Gaussian(_) | Kind::Symmetrized(..)) || self.degenerate()
    }
    fn atoms(&self) -> Vec<Atom> {
        let one = Enclosure::from_u64(super::ATOM_BITS, 1);
        if self.degenerate() {
            return vec![Atom::of(&one, &one)];
        }
        match self.0 {
            Kind::Symmetrized(p, mu) => {
                let m = pld::symmetrized_atom(p, mu);
                vec![Atom {
                    loss: (0.0, 0.0),
                    q: m,
                    p: m,
                }]
            }
            _ => vec![],
        }
    }
    fn continuous_support(&self) -> Option<(f64, f64)> {
        if self.degenerate() {
            return None;
        }
        // ln(1 − p) within FN_REL_ERR, widened outward
        let ln1p = |p: f64| {
            let v = (-p).ln_1p();
            v - super::FN_REL_ERR * v.abs() - f64::MIN_POSITIVE
        };
        Some(match self.0 {
            Kind::Remove(p, _) => (ln1p(p), f64::INFINITY),
            Kind::Add(p, _) => (f64::NEG_INFINITY, -ln1p(p)),
            _ => (f64::NEG_INFINITY, f64::INFINITY),
        })
    }
    fn tails(&self, l: f64) -> Tails {
        if self.degenerate() {
            return Tails::ZERO;
        }
        match self.0 {
            Kind::Gaussian(mu) => gaussian_tails(mu, l),
            Kind::Remove(p, mu) => remove_tails(p, mu, l),
            Kind::Add(p, mu) => invert_tails(remove_tails(p, mu, -l)),
            Kind::Symmetrized(p, mu) if l >= 0.0 => symmetrized_tails_above_zero(p, mu, l),
            Kind::Symmetrized(p, mu) => invert_tails(symmetrized_tails_above_zero(p, mu, -l)),
        }
    }
    fn pieces(&self, g: &Grid, cut: f64) -> Pieces {
        pld::kind_pieces(self.0, g, cut)
    }
    fn loss_reach(&self) -> f64 {
        // the losses lie between those of G(μ) and of Id: N(μ²/2, μ²) under Q
        let mu = self.p_mu().1;
        0.5 * mu * mu + 40.0 * mu
    }
    fn loss_spread(&self) -> f64 {
        let (p, mu) = self.p_mu();
        p * mu
    }
    fn loss_sup(&self) -> Option<f64> {
        // f_p⁻¹'s loss −ln(1 − p + p e^{μx − μ²/2}) increases to −ln(1 − p) as x → −∞
        match self.0 {
            Kind::Add(p, mu) if p < 1.0 && mu > 0.0 => {
                let v = -(-p).ln_1p();
                Some(v + super::FN_REL_ERR * v + f64::MIN_POSITIVE)
            }
            _ => None,
        }
    }
    fn atom_lattice(&self) -> Lattice {
        Lattice::NoAtoms
    }
    fn gaussian_dominating_mu(&self) -> Option<f64> {
        // Id ≥ G(μ), so f_p = pG(μ) + (1 − p)Id ≥ G(μ), f_p⁻¹ ≥ G(μ)⁻¹ = G(μ), and the
        // convex minorant C_p(G(μ)) of min{f_p, f_p⁻¹} ≥ the convex G(μ)
        Some(self.p_mu().1)
    }
    fn exact_gaussian_mu(&self) -> Option<f64> {
        // p = 1 subsampling is no subsampling: C_1(G(μ)) = f_1 = f_1⁻¹ = G(μ)
        let (p, mu) = self.p_mu();
        (p >= 1.0).then_some(mu)
    }
    fn clt_mu_squared(&self) -> Option<f64> {
        match self.0 {
            Kind::Gaussian(mu) => Some(mu * mu),
            Kind::Symmetrized(p, mu) => {
                let v =
                    (mu * mu).exp() * special::phi(1.5 * mu) + 3.0 * special::phi(-0.5 * mu) - 2.0;
                Some(p * p * 2.0 * v)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::composition::mechanism::generic_pieces;
    use proptest::prelude::*;

    fn grid() -> Grid {
        Grid {
            h: 1.0 / 64.0,
            lo: -640,
            n: 1281,
        }
    }

    /// `δ(ε) = Σ (q − e^ε p)₊` over pieces at their certified bins' upper end
    /// (pessimistic): both discretizations bound the same pair.
    fn delta_pess(pcs: &Pieces, g: &Grid, eps: f64) -> f64 {
        let s = pld::discretize(pcs, g);
        let mut d = s.pess_inf;
        for (i, q) in s.pess.iter().enumerate() {
            let t = g.t(i);
            if t > eps {
                d += q * (1.0 - (eps - t).exp());
            }
        }
        d
    }

    proptest! {
        /// The tails read by the generic discretization give the closed-form pieces'
        /// single-step δ(ε) within the grid's own error (both are pessimistic
        /// discretizations of the same pair on the same grid), in every kind and order.
        #[test]
        fn tails_agree_with_the_closed_form_pieces(
            p in 0.01f64..1.0,
            mu in 0.1f64..3.0,
            eps in 0.0f64..2.0,
            which in 0usize..4,
        ) {
            let m = match which {
                0 => GaussianFamily::gaussian(mu).unwrap(),
                1 => GaussianFamily::symmetrized(p, mu).unwrap(),
                2 => GaussianFamily::poisson_remove(p, mu).unwrap(),
                _ => GaussianFamily(Kind::Add(p, mu)),
            };
            let g = grid();
            let a = delta_pess(&m.pieces(&g, 0.0), &g, eps);
            let b = delta_pess(&generic_pieces(&m, &g, 0.0), &g, eps);
            prop_assert!((a - b).abs() <= 1e-13 + 1e-9 * a.max(b), "{a} {b}");
        }

        /// Both orders of the remove pair: tails are enclosures of the same
        /// probabilities, `Q{L ≤ ℓ} + Q{L > ℓ} = 1` (no atoms), and the symmetrized
        /// pair's continuous masses and atom add to 1.
        #[test]
        fn tails_are_consistent(p in 0.01f64..1.0, mu in 0.1f64..3.0, l in -3.0f64..3.0) {
            for m in [
                GaussianFamily::poisson_remove(p, mu).unwrap(),
                GaussianFamily(Kind::Add(p, mu)),
                GaussianFamily::gaussian(mu).unwrap(),
                GaussianFamily::symmetrized(p, mu).unwrap(),
            ] {
                let t = m.tails(l);
                let atom = m.atoms().first().map_or(Mass::ZERO, |a| a.q);
                prop_assert!(t.q_le.lo + t.q_gt.lo + atom.lo <= 1.0 + 1e-15);
                prop_assert!(t.q_le.hi + t.q_gt.hi + atom.hi >= 1.0 - 1e-15);
                prop_assert!(t.p_le.lo + t.p_gt.lo + atom.lo <= 1.0 + 1e-15);
                prop_assert!(t.p_le.hi + t.p_gt.hi + atom.hi >= 1.0 - 1e-15);
            }
        }
    }
}
