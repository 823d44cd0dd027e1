//! The validator: every bound of the library checked against exact instances over a
//! sampled parameter region (docs/conventions.md §5).
//!
//! [`catalogue`](mod@catalogue) maps each bound id of [`shiftdp::bounds`] to a parameter region and to the
//! instance families that must be dominated. [`check_bound`] samples admissible settings
//! from the region with a deterministic seed ([`SplitMix64`]), computes the bound
//! through [`shiftdp::bounds`] (points whose hypotheses fail are skipped and counted),
//! builds the instances, runs [`validate`](fn@shiftdp::exact::validate) on each, and collects violations (with the
//! exact parameters and margin) and tightness ratios.
//!
//! # Formula
//! A bound `f` is valid for a setting iff `f ≤ T(X_t, X′_t)` for every admissible pair of
//! neighbouring runs; an exact instance is one such pair, so `f ≤ T(instance)` must hold
//! (BSA24 §2, definition of f-DP). The *tightness ratio* of a sample is the bound's
//! parameter over the largest instance value (the smallest per-instance ratio of
//! [`validate`](fn@shiftdp::exact::validate)): 1 means exact, a violation shows as a ratio below 1.
//!
//! # Errors
//! Only bad options (unknown id, zero samples) are errors; instance failures at a sample
//! are recorded in the report ([`BoundReport::errors`]), never silently dropped.
//!
//! # Example
//! ```
//! use shiftdp_verify::check::{check_bound, CheckOptions, find};
//! let e = find("4.2").unwrap();
//! let opts = CheckOptions { samples: Some(2), ..Default::default() };
//! let rep = check_bound(&e, &opts).unwrap();
//! assert_eq!(rep.violations.len(), 0);
//! assert!(rep.tightness.iter().all(|&r| r >= 1.0 - 1e-9));
//! ```
//!
//! # References
//! J. Bok, W. Su, J. Altschuler, *Shifted interpolation for differential privacy*
//! (BSA24), §4 and Prop 5.1; J. Altschuler, K. Talwar, *Privacy of noisy stochastic
//! gradient descent* (AT22), Thm 4.1 (clamped construction).
pub mod at22;
pub mod catalogue;
pub mod common;
pub mod conversions;
pub mod cys21;
pub mod region;
pub mod registry;
pub mod renyi;
pub mod validator;
pub mod ys22;

pub use catalogue::{BoundHook, Entry};
pub use common::{EPS_GRID, LabelledInstance, ORDERS, RENYI_ORDERS, RenyiCase, SplitMix64, salted};
pub use region::{RegionOverride, RegionRange, parse_region};
pub use registry::{NOT_SAMPLED, Tested, catalogue, find, how_tested};
pub use validator::{BoundReport, CheckOptions, DELTAS, Violation, check_bound};
