//! `shiftdp verify`: every result of proofs/ as a checked obligation.
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
//! * [`report`] — the HTML and Markdown report.
pub mod at22_obligations;
pub mod bsa24;
pub mod builtins;
pub mod check_builtins;
pub mod claim;
pub mod errata;
pub mod expr;
pub mod outcome;
pub mod proofs;
pub mod remarks_at22;
pub mod remarks_bsa24;
pub mod remarks_renyi;
pub mod report;
pub mod run;
pub mod sampler_claim;
pub mod sampling;

pub use outcome::{
    Builtin, Counterexample, Ctx, ObligationRun, Outcome, Plot, ResultRun, Run, Series, Status,
};
