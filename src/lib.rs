//! # shiftdp
//!
//! Compute and *verify* privacy bounds for noisy gradient methods — NoisyGD, cyclic
//! NoisyCGD, NoisySGD and Langevin — in f-DP, Gaussian DP, (ε, δ)-DP and Rényi DP, at
//! any precision.
//!
//! The modules follow the data flow of the specification:
//!
//! 1. [`precision`]: the numeric abstraction (f64 estimates, MPFR enclosures with
//!    directed rounding) and the normal-law special functions;
//! 2. [`tradeoff`]: tradeoff functions T(P, Q) — Gaussian G(μ), f_{ε,δ}, piecewise-linear
//!    curves, subsampling C_p — and their conversion to (ε, δ)-DP;
//! 3. composition, settings and bounds, shift schedules, exact instances and
//!    verification build on these (see README.md for the road map).
//!
//! Soundness convention: every number *reported* as a privacy bound is an upper bound
//! on privacy loss after rounding (μ, ε, δ, Rényi values rounded up; tradeoff values
//! rounded down).
#![deny(clippy::float_cmp)]
#![warn(missing_docs)]

pub mod bounds;
pub mod check;
pub mod cli;
pub mod composition;
pub mod error;
pub mod exact;
pub mod plot;
pub mod precision;
pub mod renyi;
pub mod schedules;
pub mod settings;
pub mod tradeoff;
pub mod verify;

pub use error::{Error, Result};
