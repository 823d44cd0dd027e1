//! `shiftdp epsilon` and `shiftdp delta`: the exact (ε, δ) conversion of μ-GDP.
use super::{Output, SafeEnd, fmt_down, fmt_up, input_bits, interval, parse_number};
use serde_json::json;
use shiftdp::decimal::rel_width;
use shiftdp::error::Result;
use shiftdp::precision::Precision;
use shiftdp::tradeoff::Gaussian;

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
    let bits = match prec {
        Precision::F64 => 53,
        Precision::Bits(b) => b,
    };
    let eps = fmt_up(c.upper(), bits);
    let lo = fmt_down(c.lower(), bits);
    let json = json!({
        "tradeoff": format!("G({})", a.mu),
        "mu": a.mu,
        "delta": a.delta,
        "epsilon": interval(Some(lo.clone()), Some(eps.clone()), SafeEnd::Upper),
        "relative_width": rel_width(&c.enclosure),
        "side": "epsilon.upper is an upper bound on ε(δ): δ(ε) ≤ δ is certified at it; the true ε(δ) ≥ epsilon.lower",
        "path": c.path.describe(),
    });
    let human = format!(
        "G({}) is (ε, δ)-DP with δ = {} for\n  ε ≤ {}   (certified upper bound; true ε ≥ {})\n  computed by {}, relative width {}\n",
        a.mu,
        a.delta,
        eps,
        lo,
        c.path.describe(),
        rel_width(&c.enclosure)
    );
    Ok(Output::new("epsilon", json, human))
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
    let bits = match prec {
        Precision::F64 => 53,
        Precision::Bits(b) => b,
    };
    let d = fmt_up(c.upper(), bits);
    let lo = fmt_down(c.lower(), bits);
    let json = json!({
        "tradeoff": format!("G({})", a.mu),
        "mu": a.mu,
        "epsilon": a.epsilon,
        "delta": interval(Some(lo.clone()), Some(d.clone()), SafeEnd::Upper),
        "relative_width": rel_width(&c.enclosure),
        "side": "delta.upper is an upper bound on δ(ε); the true δ(ε) ≥ delta.lower",
        "path": c.path.describe(),
    });
    let human = format!(
        "G({}) is (ε, δ)-DP with ε = {} for\n  δ ≤ {}   (certified upper bound; true δ ≥ {})\n  computed by {}\n",
        a.mu,
        a.epsilon,
        d,
        lo,
        c.path.describe()
    );
    Ok(Output::new("delta", json, human))
}
