//! Optimal shift schedules: the one optimization problem behind BSA24 Thm 3.3 and the
//! shifted-divergence propositions of AT22 (docs/conventions.md §4), solved two independent
//! ways and compared with every closed form.
//!
//! * [`problem`]: the problem type ([`ScheduleProblem`]), evaluation of any schedule
//!   (a_k or λ_k) and its certification with directed rounding;
//! * [`kkt`]: the exact solver at fixed τ (greatest convex minorant of the KKT
//!   conditions, active constraints included): one implementation over the problem kept
//!   as runs, streaming over the steps, generic over the precision; a problem kept per
//!   step is solved as its runs;
//! * [`numeric`]: an independent L-BFGS solver (argmin) over BSA24's weights λ_k;
//! * [`tau`]: the integer search over the start time τ;
//! * [`builders`]: problems for NoisyGD, cyclic NoisyCGD (any order, non-integer
//!   epochs), per-step η_k/σ_k, constrained (strongly) convex, from typed parameters;
//! * [`run`]: the optimal schedule of a run ([`run::ScheduleSpec`], built from the
//!   run's [`Setting`](crate::Setting)): every record position, the τ search, the
//!   certificate, argmin beside it and the closed forms that apply;
//! * [`runs`]: the problem kept as runs of identical steps (constant and
//!   piecewise-constant settings), the input of the KKT solver, and its certificate and
//!   τ search streaming over the steps in O(t) time and O(runs) memory; what [`run`]
//!   uses, at any t;
//! * [`crosscheck`]: closed form vs optimum vs the theorem's own schedule.
//!
//! Design rule (docs/conventions.md §4, OpenDP's "search without rigor, certify with
//! rigor"): the solvers may work in `f64`; the reported μ is [`ScheduleProblem::certify`]
//! of the returned shifts, so solver error costs only tightness.
//!
//! # Example
//! ```
//! use shiftdp::schedules::{ScheduleProblem, kkt::solve_kkt};
//! let p = ScheduleProblem::constant(50, 0.9_f64, 1.0, 1.0, None).unwrap();
//! let sol = solve_kkt(&p, 0).unwrap();
//! let cert = p.certify(0, &sol.shifts_f64(), 128).unwrap();
//! assert!(cert.mu_upper_f64() >= sol.mu2.sqrt() * (1.0 - 1e-12)); // certified ≥ optimum
//! ```
//!
//! # References
//! BSA24 Lemma 3.2, Thm 3.3, §4; AT22 Props 2.17, 3.2, 5.6; docs/conventions.md §4.
pub mod builders;
pub mod crosscheck;
pub mod kkt;
pub mod numeric;
pub mod problem;
pub mod run;
pub mod runs;
pub mod tau;

pub use problem::{Certificate, Evaluation, ScheduleProblem, ScheduleReal};
