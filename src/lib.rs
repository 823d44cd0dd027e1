//! # shiftdp
//!
//! Compute and *verify* privacy bounds for noisy gradient methods — NoisyGD, cyclic
//! NoisyCGD, NoisySGD and Langevin — in f-DP, Gaussian DP, (ε, δ)-DP and Rényi DP, at
//! any precision, with every reported number rounded in the safe direction (μ, ε, δ and
//! Rényi values rounded up; tradeoff values rounded down).
//!
//! ## The five main tasks
//!
//! **1. ε of a GDP bound at δ** ([`tradeoff::Gaussian::epsilon`]): a certified
//! enclosure whose upper end is the reported ε.
//! ```
//! use shiftdp::{Enclosure, Precision, tradeoff::Gaussian};
//! let mu = Enclosure::parse(128, "1")?;
//! let delta = Enclosure::parse(128, "1e-5")?;
//! let eps = Gaussian::epsilon(&mu, &delta, Precision::Bits(128))?;
//! // 1-GDP is (4.3771…, 1e-5)-DP; the upper end is the bound
//! assert!(eps.enclosure.upper_f64() >= 4.3771 && eps.enclosure.upper_f64() < 4.3772);
//! # Ok::<(), shiftdp::Error>(())
//! ```
//!
//! **2. Every bound for a run, the best marked** ([`analyze`]): each result of the five
//! papers that concerns the run, as a certified value or the hypothesis that fails.
//! ```
//! use shiftdp::{Algorithm, Precision, Query, ResultId, Setting, analyze};
//! let run = Setting::from_pairs(Algorithm::Gd, &[
//!     ("n", "1000"), ("steps", "100"), ("eta", "0.1"), ("noise", "0.02"),
//!     ("sensitivity", "2"), ("strong-convexity", "0.5"), ("smoothness", "1"),
//! ])?;
//! let a = analyze(&run, &Query::epsilon_at("1e-5")?, Precision::F64)?;
//! let best = a.best().expect("some bound applies");
//! assert_eq!(best.id, ResultId::Bsa24Thm4_2); // strongly convex: shifted interpolation
//! for e in a.entries() {
//!     match e.upper_f64() {
//!         Some(eps) => assert!(eps >= best.upper_f64().unwrap() || !e.eligible),
//!         None => assert!(e.reason().is_some()), // the hypothesis that fails, named
//!     }
//! }
//! # Ok::<(), shiftdp::Error>(())
//! ```
//!
//! **3. A certified composition** ([`composition::Composition`]): privacy-loss
//! distributions with pessimistic/optimistic discretizations and an FFT round-off
//! bound, giving an interval around the true ε(δ).
//! ```
//! use shiftdp::composition::{Component, Composition};
//! // BSA24's symmetrized subsampled Gaussian C_p(G(μ)), 100-fold
//! let c = Composition::new().with(Component::subsampled(0.01, 1.0)?, 100)?;
//! let e = c.compose_for_delta(1e-5, None)?.epsilon(1e-5)?;
//! assert!(e.lower <= e.upper && e.upper - e.lower < 1e-2);
//! # Ok::<(), shiftdp::Error>(())
//! ```
//!
//! **4. The optimal shift schedule** ([`optimal_schedule`]): the run's schedule
//! problem (every position of the differing record), the exact KKT solver in f64 with
//! the τ search, then a certificate of the returned shifts with directed rounding
//! (search without rigor, certify with rigor), and the closed forms beside it.
//! ```
//! use shiftdp::{Algorithm, Precision, ScheduleSpec, Setting, optimal_schedule};
//! // NoisyGD, t = 50 steps, contraction c = 0.9, unit sensitivity and noise
//! let run = Setting::from_pairs(Algorithm::Gd, &[("n", "1"), ("steps", "50"),
//!     ("eta", "1"), ("noise", "1"), ("sensitivity", "1"), ("contraction", "0.9")])?;
//! let r = optimal_schedule(&ScheduleSpec::from_setting(&run), Precision::F64)?;
//! // the certified μ of the returned shifts is ≥ the optimum (rounded up) …
//! assert!(r.mu_upper_f64 >= r.mu_kkt * (1.0 - 1e-12));
//! // … and BSA24 Thm 4.2 attains it: (k, a_k, λ_k, z_k) for k = τ+1..t
//! assert_eq!(r.closed_forms[1].0, "BSA24 Thm 4.2");
//! assert_eq!(r.rows()?.len(), 50 - r.tau);
//! # Ok::<(), shiftdp::Error>(())
//! ```
//!
//! **5. Checking a claimed bound against exact instances** is the verification
//! crate's job (`shiftdp-verify`, `shiftdp_verify::claim::check_claim`): it depends on
//! this library and never the reverse, so a user's build carries none of its TOML,
//! report or plotting code.
//!
//! ## What is public
//!
//! The crate root re-exports what the five tasks need: the run description
//! ([`Setting`], [`RawSetting`], [`Algorithm`]), the analysis ([`analyze`], [`Query`],
//! [`Analysis`], [`Entry`]), provenance ([`ResultId`], [`Paper`]) and the registry of
//! results ([`results::REGISTRY`]), precision
//! ([`Enclosure`], [`Precision`]), GDP conversions ([`Gaussian`]), certified
//! composition ([`Composition`], [`Component`]), schedules ([`ScheduleSpec`],
//! [`optimal_schedule`]), exact instances ([`GaussianInstance`], [`MixtureInstance`],
//! [`ClampedInstance`]) and noise calibration
//! ([`calibrate::smallest_noise`]). The modules are public as well, for researchers
//! who build on the internals (a bound's formula, a schedule problem, a validator
//! entry): that is the advanced API, documented module by module, and it may change
//! between minor versions; the root re-exports are the stable surface.
//!
//! ## Layout
//!
//! The modules follow the data flow of the specification: [`precision`] (f64
//! estimates, MPFR enclosures with directed rounding, [`decimal`] output) →
//! [`tradeoff`] functions → [`composition`] → [`settings`] and [`bounds`] (with their
//! [`provenance`]) and [`renyi`] → [`results`] (the registry of published results, one
//! entry each) → [`analysis`] (every result that concerns a run, answered) and
//! [`calibrate`] (the smallest certified noise for a target ε) → [`schedules`]
//! → [`exact`] instances. Validation and verification (proofs/ obligations, ERRATA
//! evidence, claims, the report) build on it in the crate `shiftdp-verify`; the
//! `shiftdp` command (crate `shiftdp-cli`) is a thin shell over both.
//!
//! Soundness convention: every number *reported* as a privacy bound is an upper bound
//! on privacy loss after rounding (μ, ε, δ, Rényi values rounded up; tradeoff values
//! rounded down).
#![deny(clippy::float_cmp)]
// No `unwrap`/`expect`/`panic!` reachable from input in non-test code: every
// failure is an `Error` naming what is wrong. Tests may unwrap.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
#![warn(missing_docs)]

pub mod analysis;
pub mod bounds;
pub mod calibrate;
pub mod composition;
pub mod decimal;
pub mod error;
pub mod exact;
pub mod memory;
pub mod precision;
pub mod provenance;
pub mod renyi;
pub mod results;
pub mod samplers;
pub mod schedules;
pub mod settings;
pub mod tradeoff;

pub use analysis::sampled::{Pipeline, analyze_sampled};
pub use analysis::{Analysis, Entry, Outcome, Query, analyze};
pub use composition::{Component, Composition};
pub use error::{Error, Result, Subject};
pub use exact::{ClampedInstance, GaussianInstance, MixtureInstance};
pub use precision::{Enclosure, Precision};
pub use provenance::{Paper, ResultId};
pub use schedules::run::{ScheduleReport, ScheduleSpec, optimal_schedule};
pub use settings::{Algorithm, RawSetting, Setting, SettingValue};
pub use tradeoff::Gaussian;
