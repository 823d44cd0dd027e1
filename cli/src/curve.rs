//! `shiftdp curve gdp`: values of G(μ) or C_p(G(μ)) on a grid of α.
use super::{Output, parse_number};
use serde_json::json;
use shiftdp::decimal::{f64_down, f64_up};
use shiftdp::error::{Error, Result};
use shiftdp::tradeoff::{Gaussian, SubsampledGaussian, Tradeoff, check_tradeoff_laws};

/// Which curve family.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum CurveCommand {
    /// The Gaussian tradeoff function G(μ), optionally subsampled: C_p(G(μ)).
    Gdp(GdpCurveArgs),
}

/// Arguments of `shiftdp curve gdp`.
#[derive(Debug, Clone, clap::Args)]
pub struct GdpCurveArgs {
    /// GDP parameter μ ≥ 0.
    #[arg(long, allow_hyphen_values = true)]
    pub mu: String,
    /// Sampling probability p ∈ [0, 1]: print C_p(G(μ)) (BSA24 Def 4.7).
    #[arg(long, allow_hyphen_values = true)]
    pub subsample: Option<String>,
    /// Number of grid points α = 0, 1/(K−1), …, 1 (2 ≤ K ≤ 100000: each point is
    /// certified by an MPFR evaluation, ≈ 0.2 ms).
    #[arg(long, default_value_t = 101)]
    pub points: usize,
    /// CSV output: `alpha,value,lower_safe,upper` (the lower end is the safe end of a
    /// tradeoff value; the value lies in [lower, upper] as printed).
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Largest grid `shiftdp curve gdp` evaluates: every point's bracket is an MPFR
/// enclosure (≈ 0.2 ms each), so 10⁵ points take ≈ 20 s; larger grids are refused
/// with this limit named rather than run for minutes.
pub const MAX_CURVE_POINTS: usize = 100_000;

/// Grid of the tradeoff-law checks (monotone, convex, below 1 − α): the laws are
/// properties of the function, checked on at most this many points whatever the
/// printed grid.
const LAW_CHECK_POINTS: usize = 10_000;

/// Output format chosen by the flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human table.
    Human,
    /// CSV.
    Csv,
    /// JSON.
    Json,
}

/// Runs `shiftdp curve gdp`.
///
/// # Errors
/// Bad μ or p, or a grid size outside 2..=[`MAX_CURVE_POINTS`].
pub fn run(cmd: &CurveCommand) -> Result<(Output, Format)> {
    let CurveCommand::Gdp(a) = cmd;
    let mu = parse_number("mu", &a.mu, 64)?.upper_f64();
    if !(2..=MAX_CURVE_POINTS).contains(&a.points) {
        return Err(Error::param(
            "points",
            a.points,
            &format!(
                "must be between 2 and {MAX_CURVE_POINTS} (each point is certified by an \
                 MPFR evaluation, ≈ 0.2 ms: larger grids would run for minutes)"
            ),
        ));
    }
    let f: Box<dyn Tradeoff> = match &a.subsample {
        None => Box::new(Gaussian::new(mu)?),
        Some(p) => {
            let pe = parse_number("subsample", p, 64)?;
            // a non-binary decimal p is taken at its upper end: C_p(G(μ)) decreases
            // in p, so the larger p is the safe side
            Box::new(SubsampledGaussian::new(pe.upper_f64(), mu)?)
        }
    };
    let k = a.points - 1;
    let (laws, rows) = super::with_spinner(
        &format!("evaluating {} on {} points", f.name(), a.points),
        || {
            let laws = check_tradeoff_laws(f.as_ref(), k.clamp(200, LAW_CHECK_POINTS));
            let mut rows = Vec::with_capacity(a.points);
            for i in 0..=k {
                let alpha = i as f64 / k as f64;
                let (lo, hi) = f.eval_bounds(alpha);
                // the estimate is reported inside its certified bracket; printed below with
                // lower and value rounded down and upper rounded up, so that the printed
                // decimals keep lower ≤ value ≤ upper
                rows.push((alpha, f.eval(alpha).clamp(lo, hi), lo, hi));
            }
            (laws, rows)
        },
    );
    let format = if a.json {
        Format::Json
    } else if a.csv {
        Format::Csv
    } else {
        Format::Human
    };
    let mut human = String::new();
    if format == Format::Csv {
        human.push_str("alpha,value,lower_safe,upper\n");
        for (al, v, lo, hi) in &rows {
            human.push_str(&format!(
                "{al},{},{},{}\n",
                f64_down(*v, 18),
                f64_down(*lo, 18),
                f64_up(*hi, 18)
            ));
        }
    } else {
        human.push_str(&format!(
            "{} on {} points ({})\n",
            f.name(),
            a.points,
            if laws.is_ok() {
                "valid tradeoff function"
            } else {
                "LAW CHECK FAILED"
            }
        ));
        human.push_str("      alpha          f(alpha)   certified lower (safe end)\n");
        for (al, v, lo, _) in &rows {
            human.push_str(&format!(
                "{al:>11.6} {:>20} {:>20}\n",
                f64_down(*v, 13),
                f64_down(*lo, 13)
            ));
        }
    }
    let json = json!({
        "tradeoff": f.name(),
        "symmetric": f.is_symmetric(),
        "valid_tradeoff_function": laws.is_ok(),
        "points": rows.iter().map(|r| json!({
            "alpha": super::dec(r.0),
            // the certified bracket of f(alpha): the lower end is the safe one
            "beta": super::interval(Some(f64_down(r.2, 18)), Some(f64_up(r.3, 18)), super::SafeEnd::Lower),
            // the f64 evaluation, not a bound: clamped into the bracket and printed
            // rounded down like the lower end, so lower ≤ value ≤ upper holds for the
            // printed decimals
            "value": {
                "estimate": f64_down(r.1, 18),
                "error": null,
                "kind": super::EstimateKind::Estimate.as_str(),
            },
        })).collect::<Vec<_>>(),
    });
    if let Err(e) = laws {
        return Err(Error::NotCertified {
            what: f.name(),
            reason: e,
        });
    }
    Ok((Output::new("curve gdp", json, human), format))
}
