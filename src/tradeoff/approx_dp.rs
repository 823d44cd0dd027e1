//! The (ε, δ)-DP tradeoff function `f_{ε,δ}`.
//!
//! # Formula
//! `f_{ε,δ}(α) = max{0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)}` (DRS22 eq. (5);
//! docs/conventions.md §3). It is piecewise linear with vertices `(0, 1−δ)`, `(α*, α*)`
//! where `α* = (1 − δ)/(1 + e^ε)`, `(1 − δ, 0)` and `(1, 0)`.
use super::function::Tradeoff;
use super::piecewise::PiecewiseLinear;
use crate::error::{Error, Result};

/// `f_{ε,δ}` for `ε ≥ 0`, `0 ≤ δ ≤ 1`.
///
/// # Example
/// ```
/// use shiftdp::tradeoff::{ApproxDp, Tradeoff};
/// let f = ApproxDp::new(1.0, 0.01).unwrap();
/// assert!((f.eval(0.0) - 0.99).abs() < 1e-15);
/// assert_eq!(f.eval(0.995), 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ApproxDp {
    eps: f64,
    delta: f64,
}

impl ApproxDp {
    /// # Errors
    /// [`Error::Parameter`] unless ε is finite and ≥ 0 and δ ∈ [0, 1].
    pub fn new(eps: f64, delta: f64) -> Result<Self> {
        if !eps.is_finite() || eps < 0.0 {
            return Err(Error::param("epsilon", eps, "must be finite and ≥ 0"));
        }
        if !(0.0..=1.0).contains(&delta) {
            return Err(Error::param("delta", delta, "must satisfy 0 ≤ δ ≤ 1"));
        }
        Ok(ApproxDp { eps, delta })
    }
    /// As a piecewise-linear tradeoff function (exact: same vertices).
    pub fn to_piecewise(&self) -> PiecewiseLinear {
        let a = (1.0 - self.delta) / (1.0 + self.eps.exp());
        // valid by construction (ε ≥ 0 finite, δ ∈ [0, 1] checked in `new`): the vertices
        // lie in [0, 1]², include α = 0 and α = 1, and a = (1 − δ)/(1 + e^ε) ≤ 1/2 gives
        // f(a) = a ≤ 1 − a
        PiecewiseLinear::hull(vec![
            (0.0, 1.0 - self.delta),
            (a, a),
            (1.0 - self.delta, 0.0),
            (1.0, 0.0),
        ])
    }
}

impl Tradeoff for ApproxDp {
    fn eval(&self, alpha: f64) -> f64 {
        let e = self.eps.exp();
        // e^ε = +∞ beyond ε ≈ 709.78: the product is taken only for α > 0 (∞·0 is NaN)
        let e_alpha = if alpha > 0.0 { e * alpha } else { 0.0 };
        0f64.max(1.0 - self.delta - e_alpha)
            .max((1.0 - self.delta - alpha) / e)
    }
    fn eval_bounds(&self, alpha: f64) -> (f64, f64) {
        let v = self.eval(alpha);
        ((v - 4.0 * f64::EPSILON).max(0.0), v + 4.0 * f64::EPSILON)
    }
    fn is_symmetric(&self) -> bool {
        true
    }
    fn delta_up(&self, eps: f64) -> Result<f64> {
        self.to_piecewise().delta_up(eps)
    }
    fn name(&self) -> String {
        format!("f(ε={}, δ={})", self.eps, self.delta)
    }
}
