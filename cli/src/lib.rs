//! The `shiftdp` command-line interface, a thin shell over the `shiftdp` library: one module per command, each a clap `Args` struct and a
//! `run` function returning an [`Output`]. `main.rs` only dispatches and prints.
//!
//! Conventions shared by every command:
//! * `--json` prints exactly one JSON object on stdout, following the schema
//!   `schema/shiftdp-output.schema.json` (v1: `schema_version` and `command` stamped by
//!   [`Output::new`]; certified values as [`interval`]s, uncertified ones as
//!   [`estimate`]s; the run as `setting::setting_json`); numbers are decimal strings
//!   (at the requested precision), bounds already rounded in the safe direction;
//! * otherwise a human-readable report;
//! * any error is one line on stderr, `error: …`, and exit status 2; never a panic,
//!   never NaN printed as a result.
// No `unwrap`/`expect`/`panic!` reachable from input in non-test code: every
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
pub mod results;
pub mod sampler;
pub mod schedule;
pub mod setting;
pub mod verify;

use serde_json::Value;
use shiftdp::decimal::readable;
pub use shiftdp::decimal::{digits_for, f64_down, f64_up, fmt_down, fmt_up, short};
use shiftdp::error::{Error, Result};
use shiftdp::precision::{Enclosure, Precision};

/// What a command produced: a JSON object and a human-readable rendering.
///
/// Build it with [`Output::new`], which stamps the JSON object with
/// `"schema_version"` ([`SCHEMA_VERSION`]) and `"command"` (see
/// `schema/shiftdp-output.schema.json`).
#[derive(Debug, Clone)]
pub struct Output {
    /// The machine-readable result (printed with `--json`).
    pub json: Value,
    /// The human-readable report (printed otherwise).
    pub human: String,
}

/// Version of the JSON output schema (`schema/shiftdp-output.schema.json`), printed as
/// `"schema_version"` in every JSON object.
pub const SCHEMA_VERSION: u64 = 1;

impl Output {
    /// The output of `command` (the subcommand words without the algorithm, e.g.
    /// `"bound"`, `"calibrate run"`, `"reproduce table1"`): `json` stamped with
    /// `"schema_version": 1` and `"command"` (see [`stamp`]).
    pub fn new(command: &str, json: Value, human: String) -> Output {
        Output {
            json: stamp(command, json),
            human,
        }
    }
}

/// Stamps a JSON output object with `"schema_version"` and `"command"` (a value that is
/// not an object is wrapped as `{"result": value}` first, so the output is always an
/// object).
pub fn stamp(command: &str, json: Value) -> Value {
    let mut map = match json {
        Value::Object(m) => m,
        other => {
            let mut m = serde_json::Map::new();
            m.insert("result".into(), other);
            m
        }
    };
    map.insert("schema_version".into(), Value::from(SCHEMA_VERSION));
    map.insert("command".into(), Value::from(command));
    Value::Object(map)
}

/// Which end of an [`interval`] is the certified bound a consumer should use: `"upper"`
/// for μ, ε, δ and Rényi values, `"lower"` for tradeoff-curve values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SafeEnd {
    /// The upper end is the bound (μ, ε, δ, Rényi divergences).
    Upper,
    /// The lower end is the bound (tradeoff-curve values).
    Lower,
}

impl SafeEnd {
    fn as_str(self) -> &'static str {
        match self {
            SafeEnd::Upper => "upper",
            SafeEnd::Lower => "lower",
        }
    }
}

/// The schema's Interval: `{"lower", "upper", "safe_end"}`, each end a decimal string
/// already rounded outward (lower down, upper up) or null when that end is not known.
pub fn interval(lower: Option<String>, upper: Option<String>, safe_end: SafeEnd) -> Value {
    serde_json::json!({
        "lower": lower.map(Value::from).unwrap_or(Value::Null),
        "upper": upper.map(Value::from).unwrap_or(Value::Null),
        "safe_end": safe_end.as_str(),
    })
}

/// Significant digits of the human-readable numbers (JSON keeps every digit).
pub const READABLE_DIGITS: usize = 6;

/// An upper end for a person to read: [`READABLE_DIGITS`] significant digits, rounded
/// toward +∞ (never below the bound).
pub fn readable_up(x: &rug::Float) -> String {
    readable(&shiftdp::precision::rounding::to_decimal_up(
        x,
        READABLE_DIGITS,
    ))
}

/// A lower end for a person to read: [`READABLE_DIGITS`] significant digits, rounded
/// toward −∞.
pub fn readable_down(x: &rug::Float) -> String {
    readable(&shiftdp::precision::rounding::to_decimal_down(
        x,
        READABLE_DIGITS,
    ))
}

/// [`readable_up`] of a certified f64 upper end.
pub fn readable_up_f64(x: f64) -> String {
    readable(&f64_up(x, READABLE_DIGITS))
}

/// [`readable_down`] of a certified f64 lower end.
pub fn readable_down_f64(x: f64) -> String {
    readable(&f64_down(x, READABLE_DIGITS))
}

/// Interval of a certified enclosure (a μ, ε, δ or Rényi value: safe end upper), its ends
/// printed outward with digits matching `bits`.
pub fn interval_upper(e: &Enclosure, bits: u32) -> Value {
    interval(
        Some(fmt_down(e.lo(), bits)),
        Some(fmt_up(e.hi(), bits)),
        SafeEnd::Upper,
    )
}

/// Interval with only a certified upper end (an MPFR number; lower end unknown).
pub fn interval_upper_only(hi: &rug::Float, bits: u32) -> Value {
    interval(None, Some(fmt_up(hi, bits)), SafeEnd::Upper)
}

/// Interval from certified `f64` ends (either may be absent), printed outward with 17
/// significant digits; a NaN end is printed as null (never as a number).
pub fn interval_f64(lower: Option<f64>, upper: Option<f64>, safe_end: SafeEnd) -> Value {
    let lo = lower.filter(|x| !x.is_nan()).map(|x| f64_down(x, 17));
    let hi = upper.filter(|x| !x.is_nan()).map(|x| f64_up(x, 17));
    interval(lo, hi, safe_end)
}

/// What an [`estimate`] is: not a certified bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EstimateKind {
    /// An approximation with no error bound (the central limit approximation).
    Approximation,
    /// A numerical solver's value (KKT, argmin L-BFGS).
    Solver,
    /// An exact instance's value whose error is an estimate (grid refinement).
    Estimate,
    /// An exact instance's value whose error is a proved bound.
    ProvedError,
}

impl EstimateKind {
    fn as_str(self) -> &'static str {
        match self {
            EstimateKind::Approximation => "approximation",
            EstimateKind::Solver => "solver",
            EstimateKind::Estimate => "estimate",
            EstimateKind::ProvedError => "proved_error",
        }
    }
}

/// The schema's Estimate: `{"estimate", "error", "kind"}` for a value that is not
/// certified (never an Interval), `error` null when none is stated.
pub fn estimate(value: f64, error: Option<f64>, kind: EstimateKind) -> Value {
    serde_json::json!({
        "estimate": dec(value),
        "error": error.map(dec).unwrap_or(Value::Null),
        "kind": kind.as_str(),
    })
}

/// A number the user gave, as text a person reads: its shortest round-trip decimal, in
/// scientific form outside [1e-4, 1e6) (`1e-300`, not 300 zeros).
pub fn given(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-4..1e6).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// A real number that is neither a bound nor an interval end (inputs, diagnostics) as a
/// decimal string (`{:e}`, the shortest round-trip form), `"inf"`/`"-inf"` for
/// infinities and null for NaN.
pub fn dec(x: f64) -> Value {
    if x.is_nan() {
        Value::Null
    } else if x.is_infinite() {
        Value::from(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        Value::from(format!("{x:e}"))
    }
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

/// The library names a setting in words ("the diameter D"); on the command line each
/// such phrase is followed by the flag that sets it.
const FLAGS: &[(&str, &str)] = &[
    ("the diameter D", "--diameter"),
    ("the strong convexity m", "--strong-convexity"),
    ("the smoothness M", "--smoothness"),
    ("the contraction c", "--contraction"),
    ("the step size η", "--eta"),
    ("the noise σ", "--noise"),
    ("the steps t", "--steps"),
    ("the epochs E", "--epochs"),
    ("the batch size b", "--batch"),
    ("the split τ", "--tau"),
    ("grid exponent", "--grid"),
    ("raise the memory limit", "--memory-limit SIZE"),
    ("the precision bits", "--bits"),
];

/// A library message as the command line says it: every setting phrase (the table `FLAGS`)
/// followed by its flag, e.g. "give the diameter D (--diameter)".
pub fn with_flags(text: &str) -> String {
    FLAGS.iter().fold(text.to_string(), |acc, (phrase, flag)| {
        acc.replace(phrase, &format!("{phrase} ({flag})"))
    })
}

/// Why a result does not apply, for a line that already names the result: the failing
/// hypothesis and its values (`hypothesis H1: … fails (…)`) without repeating the id;
/// other refusals as the error reads (settings named with their flags).
pub fn why_not(e: &Error) -> String {
    with_flags(&match e {
        Error::Hypothesis {
            hypothesis, detail, ..
        } => format!("hypothesis {hypothesis} fails ({detail})"),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod flag_tests {
    use super::*;

    /// The messages of the library that name a setting get its flag on the command line,
    /// and no library message names a flag itself.
    #[test]
    fn library_phrases_gain_their_flags() {
        let e = shiftdp::Setting::from_pairs(
            shiftdp::Algorithm::Gd,
            &[
                ("n", "1"),
                ("steps", "5"),
                ("eta", "1"),
                ("noise", "1"),
                ("sensitivity", "1"),
            ],
        )
        .map(|s| shiftdp::analysis::bound(&s, shiftdp::ResultId::Bsa24Thm4_3));
        let Ok(Some(Err(err))) = e else {
            panic!("Thm 4.3 without a diameter should fail its hypothesis")
        };
        let lib = err.to_string();
        assert!(
            lib.contains("the diameter D") && !lib.contains("--"),
            "{lib}"
        );
        assert!(
            why_not(&err).contains("the diameter D (--diameter)"),
            "{}",
            why_not(&err)
        );
        assert_eq!(
            with_flags("give the strong convexity m and the smoothness M"),
            "give the strong convexity m (--strong-convexity) and the smoothness M (--smoothness)"
        );
    }
}
