//! `shiftdp epsilon` and `shiftdp delta`: the exact (ε, δ) conversion of μ-GDP.
use super::{Output, SafeEnd, fmt_down, fmt_up, input_bits, interval, parse_number};
use serde_json::json;
use shiftdp::decimal::rel_width;
use shiftdp::error::Result;
use shiftdp::precision::Precision;
use shiftdp::tradeoff::{Certified, Gaussian};

/// Arguments of `shiftdp epsilon`.
#[derive(Debug, Clone, clap::Args)]
pub struct EpsilonArgs {
    /// GDP parameter μ ≥ 0 (decimal; parsed exactly and used by its upper end).
    #[arg(long, allow_hyphen_values = true)]
    pub mu: String,
    /// Target δ ∈ (0, 1), e.g. 1e-5 or 1e-1000 (no lower limit with --bits).
    #[arg(long, allow_hyphen_values = true)]
    pub delta: String,
    /// MPFR precision in bits (default: the f64 path, with MPFR fallback).
    #[arg(long)]
    pub bits: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `shiftdp delta`.
#[derive(Debug, Clone, clap::Args)]
pub struct DeltaArgs {
    /// GDP parameter μ ≥ 0.
    #[arg(long, allow_hyphen_values = true)]
    pub mu: String,
    /// ε (finite).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon: String,
    /// MPFR precision in bits (default: f64 path with MPFR fallback).
    #[arg(long)]
    pub bits: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// What `shiftdp epsilon` and `shiftdp delta` answer.
#[derive(Debug, Clone, Copy)]
enum Answer {
    /// ε(δ), given δ.
    Epsilon,
    /// δ(ε), given ε.
    Delta,
}

/// The output of the certified conversion `c` of G(`mu`) at `given` (δ for ε(δ), ε for
/// δ(ε)): the interval's ends at the bits of `prec` (53 for the f64 path), the lower
/// rounded down and the upper rounded up; the text gives the relative width for ε(δ).
fn output(answer: Answer, c: &Certified, prec: Precision, mu: &str, given: &str) -> Output {
    let (name, symbol, given_name, given_symbol, side) = match answer {
        Answer::Epsilon => (
            "epsilon",
            "ε",
            "delta",
            "δ",
            "epsilon.upper is an upper bound on ε(δ): δ(ε) ≤ δ is certified at it; the true ε(δ) ≥ epsilon.lower",
        ),
        Answer::Delta => (
            "delta",
            "δ",
            "epsilon",
            "ε",
            "delta.upper is an upper bound on δ(ε); the true δ(ε) ≥ delta.lower",
        ),
    };
    let bits = match prec {
        Precision::F64 => 53,
        Precision::Bits(b) => b,
    };
    let hi = fmt_up(c.upper(), bits);
    let lo = fmt_down(c.lower(), bits);
    let mut json = json!({
        "tradeoff": format!("G({mu})"),
        "mu": mu,
        "relative_width": rel_width(&c.enclosure),
        "side": side,
        "path": c.path.describe(),
    });
    json[given_name] = json!(given);
    json[name] = interval(Some(lo.clone()), Some(hi.clone()), SafeEnd::Upper);
    let width = match answer {
        Answer::Epsilon => format!(", relative width {}", rel_width(&c.enclosure)),
        Answer::Delta => String::new(),
    };
    let human = format!(
        "G({mu}) is (ε, δ)-DP with {given_symbol} = {given} for\n  {symbol} ≤ {hi}   (certified upper bound; true {symbol} ≥ {lo})\n  computed by {}{width}\n",
        c.path.describe()
    );
    Output::new(name, json, human)
}

/// Runs `shiftdp epsilon`: certified upper bound on ε(δ) of G(μ).
///
/// # Errors
/// Bad μ, δ, precision, or a value that cannot be certified.
pub fn run_epsilon(a: &EpsilonArgs) -> Result<Output> {
    let prec = Precision::from_bits(a.bits)?;
    let ib = input_bits(prec);
    let mu = parse_number("mu", &a.mu, ib)?;
    let delta = parse_number("delta", &a.delta, ib)?;
    let c = Gaussian::epsilon(&mu, &delta, prec)?;
    Ok(output(Answer::Epsilon, &c, prec, &a.mu, &a.delta))
}

/// Runs `shiftdp delta`: certified upper bound on δ(ε) of G(μ).
///
/// # Errors
/// Bad μ, ε, precision, or a value that cannot be certified.
pub fn run_delta(a: &DeltaArgs) -> Result<Output> {
    let prec = Precision::from_bits(a.bits)?;
    let ib = input_bits(prec);
    let mu = parse_number("mu", &a.mu, ib)?;
    let eps = parse_number("epsilon", &a.epsilon, ib)?;
    // (ε, δ)-DP is defined for ε ≥ 0; the formula would answer for ε < 0 too (the
    // conjugate of the tradeoff), but no privacy statement reads it
    if eps.lo().is_sign_negative() && !eps.lo().is_zero() {
        return Err(shiftdp::Error::param(
            "epsilon",
            &a.epsilon,
            "(ε, δ)-DP needs ε ≥ 0",
        ));
    }
    let c = Gaussian::delta(&mu, &eps, prec)?;
    Ok(output(Answer::Delta, &c, prec, &a.mu, &a.epsilon))
}
