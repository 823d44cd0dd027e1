//! `shiftdp verify`: every result of proofs/ as a checked obligation (issue 7).
//!
//! * [`outcome`] — what a check returns ([`Outcome`], [`Status`]) and the interface of
//!   named checks ([`Builtin`]) that modules register.
pub mod expr;
pub mod outcome;
pub mod report;

pub use outcome::{
    Builtin, Counterexample, Ctx, ObligationRun, Outcome, Plot, ResultRun, Run, Series, Status,
};
