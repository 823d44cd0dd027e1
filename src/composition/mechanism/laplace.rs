//! The Laplace mechanism `x ↦ x + Lap(b)` at sensitivity `Δ`.
//!
//! # Formula
//! The dominating pair is `P = Lap(0, b)`, `Q = Lap(Δ, b)` (densities
//! `e^{−|x−c|/b}/(2b)`); with `r = Δ/b` the loss `ℓ(x) = (|x| − |x − Δ|)/b` is `−r` on
//! `x ≤ 0`, `(2x − Δ)/b` on `0 < x < Δ` and `r` on `x ≥ Δ`. Its distribution is two atoms
//! and a continuous part on `(−r, r)`:
//!
//! * `ℓ = r`: Q-mass `1/2`, P-mass `e^{−r}/2`; `ℓ = −r`: Q-mass `e^{−r}/2`, P-mass `1/2`;
//! * for `ℓ ∈ (−r, r)`, with `a = (ℓ + r)/2` (so `x = b·a`):
//!   `Q{L ≤ ℓ} = e^{−r}(e^{a} − 1)/2`, `Q{L > ℓ} = (1 − e^{a−r})/2`,
//!   `P{L ≤ ℓ} = (1 − e^{−a})/2`, `P{L > ℓ} = e^{−a}(1 − e^{a−r})/2`
//!   (integrals of the densities over `0 < x ≤ ba` and `ba < x < Δ`).
//!
//! The map `x ↦ Δ − x` exchanges P and Q and negates ℓ, so the pair is symmetric. This
//! is dp_accounting's `LaplacePrivacyLoss(parameter = b, sensitivity = Δ)` (its
//! `mu_upper = Lap(0, b)`, `mu_lower = Lap(Δ, b)` in the remove order); δ(ε) of one
//! step is `max(0, 1 − e^{(ε−r)/2})` for `|ε| < r` (Koskela–Honkela closed form).
//!
//! # Rounding
//! The atoms are computed in MPFR. The tails are f64 expressions with `expm1`; their
//! absolute errors are bounded from [`super::FN_REL_ERR`], the rounding of `r = Δ/b`
//! and of `a`, and the derivatives of the tails in `a` and `r` (each at most `1/2`).
use super::{ATOM_BITS, Atom, FN_REL_ERR, Lattice, Mass, Mechanism, Tails, num};
use crate::composition::pld::U;
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use std::sync::Arc;

/// The Laplace mechanism with scale `b` at sensitivity `Δ` (both orders are the same).
#[derive(Debug, Clone, PartialEq)]
pub struct Laplace {
    b: f64,
    sensitivity: f64,
    r: f64,
    /// Whether `r = Δ/b` is exact in f64.
    r_exact: bool,
    /// An f64 at or above the exact `Δ/b`.
    r_hi: f64,
}

impl Laplace {
    /// `Lap(b)` at sensitivity `Δ`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `b` is finite and positive and `Δ` finite and ≥ 0.
    pub fn new(b: f64, sensitivity: f64) -> Result<Laplace> {
        if !(b.is_finite() && b > 0.0) {
            return Err(Error::param("b", b, "Laplace scale must be finite and > 0"));
        }
        if !(sensitivity.is_finite() && sensitivity >= 0.0) {
            return Err(Error::param(
                "sensitivity",
                sensitivity,
                "must be finite and ≥ 0",
            ));
        }
        let r = sensitivity / b;
        if !r.is_finite() {
            return Err(Error::param(
                "sensitivity",
                sensitivity,
                "sensitivity/b overflows",
            ));
        }
        let e = Enclosure::from_f64(ATOM_BITS, sensitivity).div(&Enclosure::from_f64(ATOM_BITS, b));
        let r_exact = e.lower_f64().to_bits() == e.upper_f64().to_bits();
        Ok(Laplace {
            b,
            sensitivity,
            r,
            r_exact,
            r_hi: e.upper_f64(),
        })
    }
    /// The scale `b`.
    pub fn b(&self) -> f64 {
        self.b
    }
    /// The sensitivity `Δ`.
    pub fn sensitivity(&self) -> f64 {
        self.sensitivity
    }
    fn r_enclosure(&self) -> Enclosure {
        Enclosure::from_f64(ATOM_BITS, self.sensitivity)
            .div(&Enclosure::from_f64(ATOM_BITS, self.b))
    }
}

impl Mechanism for Laplace {
    fn name(&self) -> String {
        format!("Laplace(b={}, Δ={})", num(self.b), num(self.sensitivity))
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(self.clone())
    }
    fn is_symmetric(&self) -> bool {
        true
    }
    fn atoms(&self) -> Vec<Atom> {
        let half = Enclosure::from_f64(ATOM_BITS, 0.5);
        if self.r == 0.0 {
            let one = Enclosure::from_u64(ATOM_BITS, 1);
            return vec![Atom::of(&one, &one)];
        }
        let r = self.r_enclosure();
        let small = half.mul(&r.neg().exp());
        let up = Atom {
            loss: (r.lower_f64(), r.upper_f64()),
            q: super::Mass::of(&half),
            p: super::Mass::of(&small),
        };
        let down = Atom {
            loss: (-r.upper_f64(), -r.lower_f64()),
            q: super::Mass::of(&small),
            p: super::Mass::of(&half),
        };
        vec![down, up]
    }
    fn continuous_support(&self) -> Option<(f64, f64)> {
        if self.r == 0.0 {
            None
        } else {
            Some((-self.r * (1.0 + 2.0 * U), self.r * (1.0 + 2.0 * U)))
        }
    }
    fn tails(&self, l: f64) -> Tails {
        let r = self.r;
        if r == 0.0 {
            return Tails::ZERO;
        }
        // a = (ℓ + r)/2 ∈ [0, r] and b = (ℓ − r)/2 ∈ [−r, 0], each within 2U of itself
        // plus half the error of r = Δ/b (none when the quotient is exact): the errors
        // are relative, so tails near either end of the support stay accurate
        let dr = if self.r_exact { 0.0 } else { 2.0 * U * r };
        let lc = l.clamp(-r, r);
        let a = (0.5 * (lc + r)).clamp(0.0, r);
        let b = (0.5 * (lc - r)).clamp(-r, 0.0);
        let da = 2.0 * U * a + 0.5 * dr;
        let db = 2.0 * U * b.abs() + 0.5 * dr;
        let fe = 3.0 * FN_REL_ERR;
        let er = (-r).exp();
        // Q{L ≤ ℓ} = e^{−r}(e^a − 1)/2: d/da = e^{a−r}/2, d/dr of e^{−r} is the value
        let v = 0.5 * er * a.exp_m1();
        let q_le = Mass::new(v, v * (fe + dr) + 0.5 * (a - r).exp() * da * 1.01);
        // Q{L > ℓ} = −expm1(b)/2: d/db = e^b/2
        let v = -0.5 * b.exp_m1();
        let q_gt = Mass::new(v, v * fe + 0.5 * b.exp() * db * 1.01);
        // P{L ≤ ℓ} = −expm1(−a)/2: d/da = e^{−a}/2
        let v = -0.5 * (-a).exp_m1();
        let p_le = Mass::new(v, v * fe + 0.5 * (-a).exp() * da * 1.01);
        // P{L > ℓ} = −e^{−a} expm1(b)/2: d/da ≤ the value, d/db = e^{b−a}/2
        let v = -0.5 * (-a).exp() * b.exp_m1();
        let p_gt = Mass::new(v, v * (2.0 * fe + da) + 0.5 * (b - a).exp() * db * 1.01);
        // outside (−Δ/b, Δ/b) the continuous part has no mass on that side, exactly
        let above = l >= self.r_hi;
        let below = l <= -self.r_hi;
        let zero = |m: super::Mass, z: bool| if z { super::Mass::ZERO } else { m };
        Tails {
            q_le: zero(q_le, below),
            q_gt: zero(q_gt, above),
            p_le: zero(p_le, below),
            p_gt: zero(p_gt, above),
        }
    }
    fn loss_reach(&self) -> f64 {
        self.r
    }
    fn atom_lattice(&self) -> Lattice {
        if self.r == 0.0 {
            Lattice::NoAtoms
        } else if self.r_exact {
            // r = Δ/b exactly: the atoms ±r
            Lattice::Unit(self.r)
        } else {
            Lattice::Irregular
        }
    }
    fn loss_spread(&self) -> f64 {
        self.r
    }
    fn loss_sup(&self) -> Option<f64> {
        Some(self.r_enclosure().upper_f64())
    }
}
