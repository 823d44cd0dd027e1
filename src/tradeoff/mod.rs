//! Tradeoff functions `T(P, Q)(α) = inf{1 − E_Q φ : E_P φ ≤ α}` and their algebra.
//!
//! A function on [0, 1] is a tradeoff function iff it is convex, non-increasing and
//! `f(α) ≤ 1 − α` (BSA24 Lemma 2.3; DRS22 Prop 1). Types:
//!
//! * [`Gaussian`]: `G(μ)`, with the exact (ε, δ) conversion at any precision;
//! * [`ApproxDp`]: the (ε, δ)-DP tradeoff function;
//! * [`PiecewiseLinear`]: a numerically represented convex curve (lower convex hull of
//!   its vertices), with inverse, conjugate, symmetrization, subsampling and (ε, δ);
//! * [`SubsampledGaussian`]: `C_p(G(μ))` of BSA24 Def 4.7 in closed form.
//!
//! [`check_tradeoff_laws`] is the shared law check every produced tradeoff function
//! must pass (the statrs pattern).
pub mod approx_dp;
pub mod function;
pub mod gaussian;
pub mod piecewise;
pub mod renyi_curve;
pub mod subsample;

pub use approx_dp::ApproxDp;
pub use function::{Identity, LAW_TOL, Tradeoff, check_tradeoff_laws};
pub use gaussian::{Certified, Gaussian, Path};
pub use piecewise::{PiecewiseLinear, tangent_epsilons};
pub use renyi_curve::{RdpBound, RenyiCurve};
pub use subsample::SubsampledGaussian;
