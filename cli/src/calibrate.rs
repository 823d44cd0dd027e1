//! `shiftdp calibrate`: the smallest noise multiplier σ whose certified ε(δ) meets a
//! target, over the library's [`shiftdp::calibrate`].
//!
//! * `calibrate poisson --q Q --steps T --epsilon E --delta D`: DP-SGD's composition
//!   accountant (Poisson sampling, add/remove, certified PLD).
//! * `calibrate run ALG <setting flags without --noise> --epsilon E --delta D`: the best
//!   hidden-state bound of the run (every result of the five papers), or one result
//!   (`--result "BSA24 Thm 4.5"`), or each applicable result (`--each`).
//!
//! σ is printed rounded **up** (a larger σ is private at least as much: every
//! accountant here is monotone in σ), with the certified ε at the σ evaluated and the
//! value just below it that did not certify. For DP-SGD the certified ε is `compose`'s
//! at the tolerance printed (its default, or finer where the default interval straddles
//! the target), and the `compose` command that recomputes it is printed too.
use super::setting::{AlgorithmArg, SettingArgs, setting_json};
use super::{Output, SafeEnd, interval_f64};
use serde_json::{Value, json};
use shiftdp::calibrate::{Calibration, NoiseProblem, PoissonGaussian, RunBounds, smallest_noise};
use shiftdp::decimal::{f64_down, f64_up};
use shiftdp::error::{Error, Result};
use shiftdp::precision::rounding::{parse_f64_down, parse_f64_up};
use shiftdp::settings::RawSetting;
use shiftdp::{Precision, Query, ResultId, analyze};

/// `shiftdp calibrate poisson|run`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum CalibrateCommand {
    /// DP-SGD (Poisson-sampled Gaussian, add/remove): the certified composition accountant.
    Poisson(PoissonArgs),
    /// A run's hidden-state bounds (the best, one result, or each).
    Run(Box<RunArgs>),
}

/// The target and the search resolution, shared by both forms.
#[derive(Debug, Clone, clap::Args)]
pub struct TargetArgs {
    /// Target ε: the certified ε at the returned σ is at most this.
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon: String,
    /// δ.
    #[arg(long, default_value = "1e-5", allow_hyphen_values = true)]
    pub delta: String,
    /// Relative resolution of σ: the σ just below the returned one (by this factor)
    /// did not certify the target.
    #[arg(long, default_value = "1e-3")]
    pub resolution: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `shiftdp calibrate poisson`.
#[derive(Debug, Clone, clap::Args)]
pub struct PoissonArgs {
    /// Sampling rate q ∈ (0, 1].
    #[arg(long, allow_hyphen_values = true)]
    pub q: String,
    /// Number of steps T.
    #[arg(long)]
    pub steps: u64,
    /// Target, δ, resolution.
    #[command(flatten)]
    pub target: TargetArgs,
}

/// `shiftdp calibrate run`.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// The algorithm.
    #[arg(value_enum)]
    pub algorithm: AlgorithmArg,
    /// The run (every flag but --noise).
    #[command(flatten)]
    pub setting: SettingArgs,
    /// Calibrate for this result only (e.g. "BSA24 Thm 4.5").
    #[arg(long, conflicts_with = "each")]
    pub result: Option<String>,
    /// Calibrate for each result that applies at σ = 1, one line each.
    #[arg(long)]
    pub each: bool,
    /// Target, δ, resolution.
    #[command(flatten)]
    pub target: TargetArgs,
}

impl CalibrateCommand {
    /// Whether `--json` was given.
    pub fn json(&self) -> bool {
        match self {
            CalibrateCommand::Poisson(a) => a.target.json,
            CalibrateCommand::Run(a) => a.target.json,
        }
    }
}

struct Target {
    epsilon: f64,
    resolution: f64,
}

fn target(t: &TargetArgs) -> Result<Target> {
    // a target ε read downward: the σ found certifies at most the ε typed
    let epsilon = parse_f64_down(&t.epsilon).ok_or_else(|| Error::Parse {
        input: t.epsilon.clone(),
        reason: "--epsilon expects a finite decimal number".into(),
    })?;
    let resolution = t
        .resolution
        .trim()
        .parse::<f64>()
        .map_err(|_| Error::Parse {
            input: t.resolution.clone(),
            reason: "--resolution expects a number".into(),
        })?;
    Ok(Target {
        epsilon,
        resolution,
    })
}

/// The `shiftdp compose` command that recomputes the certified ε at the calibrated σ of
/// DP-SGD: μ = 1/σ rounded up, printed as a decimal that compose (reading μ upward)
/// reads back as the same double, at the tolerance the calibration used.
fn compose_command(c: &Calibration, q: &str, steps: u64, delta: &str) -> Option<String> {
    let tolerance = c.tolerance?;
    let mu = PoissonGaussian::mu(c.sigma);
    // the shortest decimal that rounds to μ, or the 17-digit one at or below it (both
    // within one ulp below μ, so the upward reading is μ itself)
    let text = [format!("{mu:e}"), f64_down(mu, 17)]
        .into_iter()
        .find(|t| parse_f64_up(t) == Some(mu))?;
    Some(format!(
        "shiftdp compose --poisson-gaussian {q} {text} x{steps} --delta {delta} --tolerance {tolerance:e}"
    ))
}

/// One calibration: σ (rounded up), the certified ε there (Interval, upper end), the
/// composition engine's tolerance and the `compose` command that recomputes it (DP-SGD),
/// the run's setting and μ at that σ when `run` is given and the certifying result is a
/// GDP bound.
fn row(
    c: &Calibration,
    run: Option<(shiftdp::settings::Algorithm, &RawSetting)>,
    compose: Option<String>,
) -> Value {
    let id = ResultId::parse(&c.source);
    let at_sigma = run.and_then(|(alg, raw)| {
        let raw = raw
            .clone()
            .with("noise", f64_up(c.sigma, 17).as_str())
            .ok()?;
        shiftdp::Setting::new(alg, &raw).ok()
    });
    let mu = match (&at_sigma, id) {
        (Some(s), Some(id)) => shiftdp::analysis::bound(s, id)
            .and_then(|b| b.ok())
            .and_then(|b| b.mu().map(|m| super::interval_upper(m, 53))),
        _ => None,
    };
    json!({
        "id": id.map(|i| i.as_str()),
        "paper": id.map(|i| i.paper().as_str()),
        "sigma": f64_up(c.sigma, 17),
        "epsilon": interval_f64(None, Some(c.epsilon), SafeEnd::Upper),
        "mu": mu.unwrap_or(Value::Null),
        "source": c.source,
        "tolerance": c.tolerance.map(|t| format!("{t:e}")),
        "compose": compose,
        "sigma_below": f64_down(c.sigma_below, 17),
        "epsilon_below": c.epsilon_below.map(|e| interval_f64(None, Some(e), SafeEnd::Upper)),
        "evaluations": c.evaluations,
        "setting": at_sigma.as_ref().map(setting_json),
    })
}

fn line(c: &Calibration, target: &str) -> String {
    let below = match c.epsilon_below {
        Some(e) => format!("ε ≤ {} > {target}", f64_up(e, 6)),
        None => "not certified".into(),
    };
    let source = match c.tolerance {
        Some(t) => format!("{}, tolerance {t:e}", c.source),
        None => c.source.clone(),
    };
    format!(
        "σ ≥ {}  certifies ε ≤ {} ≤ {target}  ({source}; σ = {} gives {below}; {} evaluations)\n",
        f64_up(c.sigma, 6),
        f64_up(c.epsilon, 6),
        f64_down(c.sigma_below, 6),
        c.evaluations
    )
}

fn solve(p: &dyn NoiseProblem, t: &Target) -> Result<Calibration> {
    super::with_spinner(
        "calibrating σ (each probe a certified computation)",
        || smallest_noise(p, t.epsilon, t.resolution),
    )
}

/// Runs `shiftdp calibrate`.
///
/// # Errors
/// Invalid flags; [`Error::NotCertified`] if no σ ≤ 10⁶ certifies the target.
pub fn run(c: &CalibrateCommand) -> Result<Output> {
    match c {
        CalibrateCommand::Poisson(a) => {
            let t = target(&a.target)?;
            let q = parse_f64_up(&a.q).ok_or_else(|| Error::Parse {
                input: a.q.clone(),
                reason: "--q expects a finite decimal number".into(),
            })?;
            let delta = parse_f64_down(&a.target.delta).ok_or_else(|| Error::Parse {
                input: a.target.delta.clone(),
                reason: "--delta expects a finite decimal number".into(),
            })?;
            let p = PoissonGaussian::new(q, a.steps, delta)?;
            let r = solve(&p, &t)?;
            let json = json!({
                "q": a.q, "steps": a.steps, "delta": a.target.delta,
                "target_epsilon": a.target.epsilon,
                "calibration": row(&r, None, compose_command(&r, &a.q, a.steps, &a.target.delta)),
                "side": "sigma is rounded up; the certified epsilon at sigma is at most the target; at sigma_below the target could not be certified",
            });
            let check = compose_command(&r, &a.q, a.steps, &a.target.delta)
                .map(|c| format!("  check: {c}\n"))
                .unwrap_or_default();
            let human = format!(
                "calibrate DP-SGD (Poisson q = {}, T = {}, δ = {}), target ε = {}\n  {}{check}",
                a.q,
                a.steps,
                a.target.delta,
                a.target.epsilon,
                line(&r, &a.target.epsilon)
            );
            Ok(Output::new("calibrate poisson", json, human))
        }
        CalibrateCommand::Run(a) => {
            let t = target(&a.target)?;
            let raw = a.setting.raw();
            let alg = a.algorithm.into();
            let ids: Vec<Option<ResultId>> = if a.each {
                // the results that apply at σ = 1 (whether they apply does not depend on σ
                // for any hypothesis of the five papers except through the noise itself)
                let s1 = shiftdp::Setting::new(alg, &raw.clone().with("noise", 1u64)?)?;
                let an = analyze(&s1, &Query::epsilon_at(&a.target.delta)?, Precision::F64)?;
                an.entries()
                    .iter()
                    .filter(|e| e.eligible && e.bound().is_some())
                    .map(|e| Some(e.id))
                    .collect()
            } else {
                let only = match &a.result {
                    Some(name) => Some(ResultId::parse(name).ok_or_else(|| {
                        Error::param("result", name, "unknown result id (see `shiftdp compare`)")
                    })?),
                    None => None,
                };
                vec![only]
            };
            let mut rows = Vec::new();
            let mut human = format!(
                "calibrate {} run, target (ε, δ) = ({}, {})\n",
                alg.name(),
                a.target.epsilon,
                a.target.delta
            );
            let mut best: Option<(f64, usize)> = None;
            for only in ids {
                let p = RunBounds::new(alg, raw.clone(), &a.target.delta, only)?;
                let label = only.map_or("best bound".to_string(), |id| id.as_str().to_string());
                match solve(&p, &t) {
                    Ok(r) => {
                        human += &format!("  {label}: {}", line(&r, &a.target.epsilon));
                        if best.is_none_or(|(s, _)| r.sigma < s) {
                            best = Some((r.sigma, rows.len()));
                        }
                        let cal = row(&r, Some((alg, &raw)), None);
                        rows.push(json!({"for": label, "id": cal["id"].clone(), "best": false, "calibration": cal}));
                    }
                    Err(e) => {
                        human += &format!("  {label}: {e}\n");
                        rows.push(json!({"for": label, "id": only.map(|i| i.as_str()), "best": false, "error": super::with_flags(&e.to_string())}));
                    }
                }
            }
            // the smallest σ is the best (first one on ties)
            let best_id = best.and_then(|(_, i)| {
                rows[i]["best"] = json!(true);
                rows[i]["id"].as_str().map(str::to_string)
            });
            // the run at the best calibrated σ (null when no result calibrates): σ is
            // what is calibrated, so no σ the user gave can stand here
            let setting = best
                .map(|(_, i)| rows[i]["calibration"]["setting"].clone())
                .unwrap_or(Value::Null);
            let json = json!({
                "algorithm": alg.name(),
                "setting": setting,
                "delta": a.target.delta,
                "target_epsilon": a.target.epsilon,
                "results": rows,
                "best": best_id,
                "side": "sigma is rounded up; the certified epsilon at sigma is at most the target; at sigma_below the target could not be certified",
            });
            Ok(Output::new("calibrate run", json, human))
        }
    }
}
