//! The `shiftdp` command-line interface, a thin shell over the `shiftdp` library: one module per command, each a clap `Args` struct and a
//! `run` function returning an [`Output`]. `main.rs` only dispatches and prints.
//!
//! Conventions shared by every command:
//! * `--json` prints exactly one JSON object on stdout; numbers are decimal strings
//!   (at the requested precision), bounds already rounded in the safe direction;
//! * otherwise a human-readable report;
//! * any error is one line on stderr, `error: …`, and exit status 2; never a panic,
//!   never NaN printed as a result.
// No `unwrap`/`expect`/`panic!` reachable from input in non-test code (issue 19): every
// failure is an `Error` naming what is wrong. Tests may unwrap.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
pub mod bound;
pub mod calibrate;
pub mod check;
pub mod compare;
pub mod compose;
pub mod conversion;
pub mod curve;
pub mod exact;
pub mod plot;
pub mod renyi;
pub mod reproduce;
pub mod schedule;
pub mod setting;
pub mod verify;

use serde_json::Value;
pub use shiftdp::decimal::{digits_for, fmt_down, fmt_up, short};
use shiftdp::error::{Error, Result};
use shiftdp::precision::{Enclosure, Precision};

/// What a command produced: a JSON object and a human-readable rendering.
#[derive(Debug, Clone)]
pub struct Output {
    /// The machine-readable result (printed with `--json`).
    pub json: Value,
    /// The human-readable report (printed otherwise).
    pub human: String,
}

/// A progress bar on standard error counting `total` `unit`s, or None when standard
/// error is not a terminal (pipes, CI logs and `--json` consumers see nothing).
pub fn progress_bar(total: u64, unit: &str) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() || total == 0 {
        return None;
    }
    let pb = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
        "{{bar:40}} {{pos}}/{{len}} {unit}  {{msg}}"
    )) {
        pb.set_style(style);
    }
    Some(pb)
}

/// Runs `work` with a spinner and the elapsed time on standard error (only when standard
/// error is a terminal), cleared when `work` returns.
pub fn with_spinner<T>(msg: &str, work: impl FnOnce() -> T) -> T {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return work();
    }
    let pb = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        pb.set_style(style);
    }
    pb.set_message(msg.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    let out = work();
    pb.finish_and_clear();
    out
}

/// Parses a user-supplied decimal number into an enclosure at `prec` bits.
///
/// # Errors
/// [`Error::Parse`] naming the flag if the text is not a finite number.
pub fn parse_number(flag: &str, text: &str, prec: u32) -> Result<Enclosure> {
    Enclosure::parse(prec, text).map_err(|_| Error::Parse {
        input: text.to_string(),
        reason: format!("--{flag} expects a finite decimal number"),
    })
}

/// Working precision for parsing inputs: at least 64 bits, more when asked.
pub fn input_bits(prec: Precision) -> u32 {
    prec.mpfr_bits().max(64)
}

/// Why a result does not apply, for a line that already names the result: the failing
/// hypothesis and its values (`hypothesis H1: … fails (…)`) without repeating the id;
/// other refusals as the error reads.
pub fn why_not(e: &Error) -> String {
    match e {
        Error::Hypothesis {
            hypothesis, detail, ..
        } => format!("hypothesis {hypothesis} fails ({detail})"),
        other => other.to_string(),
    }
}
