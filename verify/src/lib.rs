//! Verification of shiftdp's bounds, built on the `shiftdp` library (which never
//! depends on this crate):
//!
//! * [`check`] — validation of every bound of the library against the exact instances
//!   over its parameter region (`shiftdp check`);
//!
//! and `shiftdp verify`, every result of proofs/ as a checked obligation:
//!
//! * [`outcome`] — what a check returns ([`Outcome`], [`Status`]), the interface of
//!   named checks ([`Builtin`]) and the report model ([`Run`]);
//! * [`proofs`] — reading proofs/ files (Markdown + a TOML block of obligations);
//! * [`run`] — executors of the generic obligation kinds and the parallel runner;
//! * [`builtins`] — the registry of named checks;
//! * [`bsa24`] — named checks of BSA24 results that are not instance dominations;
//! * [`remarks_bsa24`] — BSA24's statements made in passing (ERRATA FB…);
//! * [`remarks_renyi`] — statements made in passing by CYS21 and YS22;
//! * [`remarks_at22`] — statements made in passing by AT22;
//! * [`expr`] — claim expressions evaluated at MPFR precision;
//! * [`claim`] — checking a researcher's own bound;
//! * [`errata`] — ERRATA.md entries and their evidence;
//! * [`report`] — the HTML and Markdown report, with its figures drawn by [`plot`];
//! * `testing` (feature `testing`) — proptest strategies for settings and domination
//!   assertions, for other projects' property tests.
#![deny(clippy::float_cmp)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
#![warn(missing_docs)]

pub mod at22_obligations;
pub mod bsa24;
pub mod builtins;
pub mod check;
pub mod check_builtins;
pub mod claim;
pub mod errata;
pub mod expr;
pub mod numbers;
pub mod outcome;
pub mod plot;
pub mod proofs;
pub mod remarks_at22;
pub mod remarks_bsa24;
pub mod remarks_renyi;
pub mod report;
pub mod run;
pub mod sampler_claim;
pub mod sampling;
#[cfg(feature = "testing")]
pub mod testing;

pub use outcome::{
    Builtin, Counterexample, Ctx, ObligationRun, Outcome, Plot, ResultRun, Run, Series, Status,
};

pub use claim::check_claim;
