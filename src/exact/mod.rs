//! Exact instances: the true privacy loss of concrete noisy-gradient runs
//! (docs/conventions.md §5).
//!
//! A bound is only as trustworthy as the evidence against it. This module computes,
//! for concrete runs of NoisyGD / NoisyCGD / NoisySGD on explicit losses, the *true*
//! tradeoff function `T(X_t, X′_t)` of the two final iterates, their `δ(ε)` and their
//! Rényi divergences. A valid privacy bound must dominate every instance
//! ([`validate`](fn@validate)).
//!
//! * [`gaussian`]: quadratic or linear losses, unconstrained, full or cyclic batches:
//!   `X_t, X′_t` are Gaussians with one covariance Σ and mean gap Δ, so
//!   `T = G(√(Δᵀ Σ⁻¹ Δ))` exactly (any dimension and Hessian, worst direction from the
//!   spectrum; a scalar path generic over [`Real`](crate::precision::Real) for MPFR).
//! * [`mixture`]: stochastic batches in one dimension; the output is a Gaussian
//!   location mixture over the inclusion pattern of the differing record; exact
//!   Neyman–Pearson tradeoff (monotone likelihood ratio), `δ(ε)`, `ε(δ)`, Rényi, with a
//!   stated error.
//! * [`clamped`]: one-dimensional walks on an interval with projection (boundary point
//!   masses kept), propagated on a grid (AT22 Thm 4.1 construction; BSA24 Thms 4.3,
//!   4.6, 4.10 settings).
//! * [`validate`](mod@validate): domination checks of a bound against an instance, with margins and
//!   tightness ratios.
//!
//! # Conventions
//! `P` is the law of the final iterate on dataset `D`, `Q` on the neighbouring `D′`.
//! [`Order::Forward`] is the pair `(P, Q)` (`T(P, Q)`, `δ_{P‖Q}`, `D_α(P‖Q)`),
//! [`Order::Reverse`] the pair `(Q, P)`. A symmetric bound must dominate both.
//!
//! An instance value is *ground truth*: it is reported with a stated absolute error
//! ([`Estimate`]); a violation is certain only when the bound lies beyond the
//! instance's value by more than that error.
//!
//! # References
//! * J. Bok, W. Su, J. Altschuler, *Shifted interpolation for differential privacy*
//!   (BSA24), eq. 2.1 and §4.
//! * J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent* (AT22),
//!   Thm 4.1.
pub mod clamped;
pub mod gaussian;
pub mod mixture;
pub mod validate;

pub use clamped::ClampedInstance;
pub use gaussian::{GaussianInstance, Schedule, Step};
pub use mixture::{MixtureInstance, PairKind, ShiftLaw};
pub use validate::{BoundSpec, Domination, validate};

use crate::error::Result;

/// Which ordered pair of output laws is meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// `(P, Q)`: law on `D` first.
    Forward,
    /// `(Q, P)`: law on `D′` first.
    Reverse,
}

impl Order {
    /// Both orders.
    pub const BOTH: [Order; 2] = [Order::Forward, Order::Reverse];
}

/// A computed instance value with a stated absolute error: `|true − value| ≤ error`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The computed value.
    pub value: f64,
    /// Stated bound on the absolute error.
    pub error: f64,
    /// Whether `error` is proved (`true`) or an estimate from grid refinement (`false`).
    pub certified: bool,
}

impl Estimate {
    /// A value with a proved error bound.
    pub fn proved(value: f64, error: f64) -> Self {
        Estimate {
            value,
            error,
            certified: true,
        }
    }
    /// Largest value consistent with the error.
    pub fn hi(&self) -> f64 {
        self.value + self.error
    }
    /// Smallest value consistent with the error.
    pub fn lo(&self) -> f64 {
        self.value - self.error
    }
}

/// The privacy profile of an exact instance: what the validator needs.
///
/// Implemented by [`GaussianInstance`], [`MixtureInstance`] and [`ClampedInstance`].
pub trait Instance {
    /// `δ(ε)` of the ordered pair (hockey-stick divergence `E_{e^ε}`).
    ///
    /// # Errors
    /// If ε is not finite.
    fn delta(&self, eps: f64, order: Order) -> Result<Estimate>;
    /// The tradeoff function `T(order)(α)` for `α ∈ [0, 1]`.
    ///
    /// # Errors
    /// If α ∉ [0, 1].
    fn tradeoff(&self, alpha: f64, order: Order) -> Result<Estimate>;
    /// Rényi divergence of order `λ > 1` of the ordered pair.
    ///
    /// # Errors
    /// If λ ≤ 1 or not finite.
    fn renyi(&self, lambda: f64, order: Order) -> Result<Estimate>;
    /// Short description.
    fn describe(&self) -> String;

    /// The lower end of the instance's exact Gaussian-DP parameter, when its tradeoff function is
    /// exactly `G(μ)` ([`GaussianInstance`]); `None` otherwise. The validator uses it
    /// for tightness ratios (recovering μ from δ(ε) saturates once δ rounds to 1 in
    /// f64, around μ ≈ 16).
    fn gdp_mu(&self) -> Option<f64> {
        None
    }

    /// `max` over both orders of `δ(ε)` (what a symmetric bound must dominate).
    ///
    /// # Errors
    /// As [`Instance::delta`].
    fn delta_sym(&self, eps: f64) -> Result<Estimate> {
        let a = self.delta(eps, Order::Forward)?;
        let b = self.delta(eps, Order::Reverse)?;
        Ok(if a.value >= b.value { a } else { b })
    }
    /// `max` over both orders of the Rényi divergence.
    ///
    /// # Errors
    /// As [`Instance::renyi`].
    fn renyi_sym(&self, lambda: f64) -> Result<Estimate> {
        let a = self.renyi(lambda, Order::Forward)?;
        let b = self.renyi(lambda, Order::Reverse)?;
        Ok(if a.value >= b.value { a } else { b })
    }
    /// The smallest ε ≥ 0 with `max_order δ(ε) ≤ δ` (by bisection on the estimates;
    /// the stated error is the bisection width plus the δ error translated through the
    /// local slope).
    ///
    /// # Errors
    /// Unless `0 < δ < 1`.
    fn epsilon_sym(&self, delta: f64) -> Result<Estimate> {
        if !(delta > 0.0 && delta < 1.0) {
            return Err(crate::Error::param(
                "delta",
                delta,
                "must satisfy 0 < δ < 1",
            ));
        }
        if self.delta_sym(0.0)?.value <= delta {
            return Ok(Estimate::proved(0.0, 0.0));
        }
        let mut hi = 1.0;
        while self.delta_sym(hi)?.value > delta {
            hi *= 2.0;
            if hi > 1e6 {
                return Ok(Estimate::proved(f64::INFINITY, 0.0));
            }
        }
        let mut lo = 0.0;
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if self.delta_sym(mid)?.value > delta {
                lo = mid;
            } else {
                hi = mid;
            }
            if hi - lo <= 1e-13 * hi.max(1e-300) {
                break;
            }
        }
        // translate the δ error into an ε error: δ′(ε) ≈ finite difference
        let d_hi = self.delta_sym(hi)?;
        let h = (1e-6 * hi).max(1e-9);
        let slope = ((self.delta_sym((hi - h).max(0.0))?.value - d_hi.value) / h).max(1e-300);
        let err = (hi - lo) + d_hi.error / slope;
        Ok(Estimate {
            value: hi,
            error: err,
            certified: d_hi.certified,
        })
    }
}
