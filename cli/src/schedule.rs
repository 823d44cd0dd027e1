//! `shiftdp schedule gd|cgd|sgd`: the optimal shift schedule of a setting, its
//! certified μ, both solvers' values and the closed forms that apply.
//!
//! The optimal τ is searched with the exact KKT solver in `f64`, the schedule at that
//! τ is certified with directed rounding at `--bits` (≥ 64) bits, argmin's L-BFGS
//! solves the same τ independently, and the closed forms of BSA24 §4.1–4.2 are
//! evaluated as enclosures (upper end) when their hypotheses hold.
//!
//! # Large t
//! The schedule is kept as runs of identical steps and streamed
//! ([`shiftdp::schedules::runs`]), so `--steps 10⁸` with a constant setting takes as
//! little memory as `--steps 50`. The per-step schedule (k, a_k, λ_k, z_k) is never
//! printed: `--csv FILE` streams it to a file, one row per step (about 80 bytes each;
//! refused above [`MAX_CSV_ROWS`] rows); the JSON and text outputs summarize it (τ, μ,
//! the number of active constraints). argmin runs only for t − τ ≤ 10⁵ ("not run"
//! beyond). Beyond the work limit (10⁹ step evaluations, e.g. t = 10¹⁰ with c = 1) or
//! the memory limit (`--memory-limit`) the command refuses with a message (exit 2).
//!
//! # References
//! BSA24 Thm 3.3, Thms 4.1–4.6, 4.10; docs/conventions.md §4.
use super::setting::{AlgorithmArg, SettingArgs, parse_count, required, setting_json};
use super::{
    EstimateKind, Output, SafeEnd, dec, estimate, input_bits, interval, interval_f64, parse_number,
    short,
};
use serde_json::{Value, json};
use shiftdp::decimal::f64_up;
use shiftdp::error::{Error, Result};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::schedules::builders::parse_schedule;
use shiftdp::schedules::crosscheck::Verdict;
use shiftdp::schedules::run::{ScheduleReport, ScheduleSpec, optimal_schedule};
use shiftdp::settings::Algorithm as RunAlgorithm;
use std::path::PathBuf;

/// Which algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// NoisyGD, full batch (b = n).
    Gd,
    /// Cyclic NoisyCGD (batches of size b in a fixed order).
    Cgd,
    /// NoisySGD: the Gaussian (shift) part of BSA24 Thm 4.10 only.
    Sgd,
}

/// Arguments of `shiftdp schedule`.
#[derive(Debug, Clone, clap::Args)]
pub struct ScheduleArgs {
    /// gd, cgd or sgd.
    #[arg(value_enum)]
    pub algorithm: Algorithm,
    /// The run's flags, defined once for every command ([`SettingArgs`]): `--n` and
    /// `--sensitivity` are required, `--batch` for cgd/sgd (gd uses b = n); `--steps` or
    /// `--epochs` (which may be fractional for cgd: t = E·n/b must be an integer; both
    /// may be left out when a schedule file gives the horizon); `--eta` and `--noise`
    /// constant unless a schedule file overrides them; with `--strong-convexity m` and
    /// `--smoothness M`, c_k = max{|1−η_k m|, |1−η_k M|}, or `--contraction c` for every
    /// step (overrides m, M); `--diameter D` for projected iterates.
    #[command(flatten)]
    pub setting: SettingArgs,
    /// File with one step size η_k per line (overrides --eta).
    #[arg(long)]
    pub eta_schedule: Option<PathBuf>,
    /// File with one noise multiplier σ_k per line (overrides --noise).
    #[arg(long)]
    pub noise_schedule: Option<PathBuf>,
    /// cgd: batch index (0-based) holding the differing record; default: worst case
    /// over all positions.
    #[arg(long)]
    pub position: Option<usize>,
    /// Use this start time τ instead of searching.
    #[arg(long)]
    pub tau: Option<usize>,
    /// MPFR precision of the certificate (default 64).
    #[arg(long)]
    pub bits: Option<u64>,
    /// Skip the argmin solver.
    #[arg(long)]
    pub no_numeric: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the schedule (k, a_k, λ_k, z_k), one row per step k = τ+1..t, to this CSV
    /// file (streamed, about 80 bytes per row; at most 10⁸ rows). The schedule is never
    /// printed: the text and JSON outputs summarize it.
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

/// Most rows `--csv` writes (about 8 GB of text).
pub const MAX_CSV_ROWS: usize = 100_000_000;

fn read_file(path: &PathBuf, bits: u32) -> Result<Vec<Enclosure>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Parse {
        input: path.display().to_string(),
        reason: format!("cannot read schedule file: {e}"),
    })?;
    parse_schedule(&text, bits)
}

fn opt_num(flag: &str, v: &Option<String>, bits: u32) -> Result<Option<Enclosure>> {
    v.as_ref().map(|s| parse_number(flag, s, bits)).transpose()
}

impl Algorithm {
    fn run_algorithm(self) -> RunAlgorithm {
        match self {
            Algorithm::Gd => RunAlgorithm::Gd,
            Algorithm::Cgd => RunAlgorithm::Cgd,
            Algorithm::Sgd => RunAlgorithm::Sgd,
        }
    }
}

/// The flags as the library's [`ScheduleSpec`]: numbers parsed at `bits`, schedule files
/// read; every check of the values is the library's ([`optimal_schedule`]).
fn spec(a: &ScheduleArgs, bits: u32) -> Result<ScheduleSpec> {
    let f = &a.setting;
    let n = parse_count("n", &f.n)?.ok_or_else(|| Error::param("n", "missing", "give --n"))?;
    let batch = match a.algorithm {
        Algorithm::Gd => None,
        _ => Some(
            parse_count("batch", &f.batch)?
                .ok_or_else(|| Error::param("batch", "none", "--batch is required for cgd/sgd"))?,
        ),
    };
    let sensitivity = parse_number(
        "sensitivity",
        &required("sensitivity", &f.sensitivity)?,
        bits,
    )?;
    Ok(ScheduleSpec {
        algorithm: a.algorithm.run_algorithm(),
        n,
        batch,
        steps: parse_count("steps", &f.steps)?,
        epochs: opt_num("epochs", &f.epochs, bits)?,
        eta: opt_num("eta", &f.eta, bits)?,
        noise: opt_num("noise", &f.noise, bits)?,
        eta_schedule: a
            .eta_schedule
            .as_ref()
            .map(|p| read_file(p, bits))
            .transpose()?,
        noise_schedule: a
            .noise_schedule
            .as_ref()
            .map(|p| read_file(p, bits))
            .transpose()?,
        sensitivity,
        strong_convexity: opt_num("strong-convexity", &f.strong_convexity, bits)?,
        smoothness: opt_num("smoothness", &f.smoothness, bits)?,
        contraction: opt_num("contraction", &f.contraction, bits)?,
        diameter: opt_num("diameter", &f.diameter, bits)?,
        position: a.position,
        tau: a.tau,
        numeric: !a.no_numeric,
        // the closed forms are evaluated on the run's Setting (or say why it is none)
        setting: f.setting(match a.algorithm {
            Algorithm::Gd => AlgorithmArg::Gd,
            Algorithm::Cgd => AlgorithmArg::Cgd,
            Algorithm::Sgd => AlgorithmArg::Sgd,
        }),
    })
}

/// Computes the optimal schedule of the setting described by `a` (the library's
/// [`optimal_schedule`]) and writes the CSV if asked.
///
/// # Errors
/// Bad flags ([`Error::Parameter`], [`Error::Parse`]), violated hypotheses
/// ([`Error::Hypothesis`]), or a failed certification ([`Error::NotCertified`]).
pub fn compute(a: &ScheduleArgs) -> Result<ScheduleReport> {
    let prec = Precision::from_bits(a.bits)?;
    let bits = input_bits(prec);
    let r = optimal_schedule(&spec(a, bits)?, prec)?;
    if let Some(path) = &a.csv {
        write_csv(&r, path)?;
    }
    Ok(r)
}

/// Streams the schedule's rows to a CSV file (no row is kept in memory).
fn write_csv(r: &ScheduleReport, path: &PathBuf) -> Result<()> {
    use std::io::Write;
    let fail = |e: std::io::Error| Error::Parse {
        input: path.display().to_string(),
        reason: format!("cannot write CSV: {e}"),
    };
    if r.row_count() > MAX_CSV_ROWS {
        return Err(Error::param(
            "csv",
            path.display(),
            &format!(
                "the schedule has {} rows (about {} of text), more than the {MAX_CSV_ROWS} \
                 rows --csv writes",
                r.row_count(),
                shiftdp::memory::human(r.row_count() as u64 * 80)
            ),
        ));
    }
    let file = std::fs::File::create(path).map_err(fail)?;
    let mut w = std::io::BufWriter::new(file);
    w.write_all(b"k,a,lambda,z\n").map_err(fail)?;
    r.for_each_row(|k, ak, lk, zk| writeln!(w, "{k},{ak:.17e},{lk:.17e},{zk:.17e}").map_err(fail))?;
    w.flush().map_err(fail)
}

/// The series (k, λ_k, z_k), k = τ+1..t, of the optimal schedule (for plotting).
///
/// # Errors
/// As [`compute`].
pub fn schedule_series(a: &ScheduleArgs) -> Result<Vec<(usize, f64, f64)>> {
    let r = compute(a)?;
    shiftdp::memory::check(
        "the schedule series (k, λ_k, z_k) of a plot",
        shiftdp::memory::bytes_of(r.row_count() as u64, 24),
    )?;
    let mut out = Vec::with_capacity(r.row_count());
    r.for_each_row(|k, _, l, z| {
        out.push((k, l, z));
        Ok(())
    })?;
    Ok(out)
}

/// Runs `shiftdp schedule`.
///
/// # Errors
/// As [`compute`].
pub fn run(a: &ScheduleArgs) -> Result<Output> {
    let r = compute(a)?;
    let alg = r.algorithm.name();
    let cf_json: Vec<Value> = r
        .closed_forms
        .iter()
        .map(|(name, v)| {
            let id = shiftdp::ResultId::parse(name);
            match v {
                Ok(mu) => json!({
                    "id": name,
                    "paper": id.map(|i| i.paper().as_str()),
                    // an upper end (f64 rounded up), printed rounded up
                    "mu": interval_f64(None, Some(*mu), SafeEnd::Upper),
                    "relative_difference": dec((mu - r.mu_kkt) / r.mu_kkt.max(f64::MIN_POSITIVE)),
                    "verdict": Verdict::classify(*mu, r.mu_kkt, 1e-9).as_str(),
                }),
                Err(e) => json!({
                    "id": name,
                    "paper": id.map(|i| i.paper().as_str()),
                    "mu": Value::Null,
                    "error": e,
                }),
            }
        })
        .collect();
    // the run's setting (none when schedule files replace the constant η, σ)
    let setting = a
        .setting
        .setting(match a.algorithm {
            Algorithm::Gd => AlgorithmArg::Gd,
            Algorithm::Cgd => AlgorithmArg::Cgd,
            Algorithm::Sgd => AlgorithmArg::Sgd,
        })
        .ok()
        .filter(|_| a.eta_schedule.is_none() && a.noise_schedule.is_none());
    let json = json!({
        "algorithm": alg,
        "setting": setting.as_ref().map(setting_json),
        "steps": r.steps,
        "bits": r.bits,
        "tau": r.tau,
        "position": r.position,
        "mu": interval(None, Some(r.mu.clone()), SafeEnd::Upper),
        "mu_kkt": estimate(r.mu_kkt, None, EstimateKind::Solver),
        "mu_numeric": r.mu_numeric.map(|x| estimate(x.0, None, EstimateKind::Solver)),
        "numeric_iterations": r.mu_numeric.map(|x| x.1),
        "active_constraints": r.active.len(),
        "closed_forms": cf_json,
        "note": if r.algorithm == RunAlgorithm::Sgd {
            "Gaussian shift part only: compose with C_{b/n}(G(2√2 L/(bσ)))^{⊗(t−τ)} (BSA24 Thm 4.10)"
        } else {
            "mu is certified (upper bound, directed rounding) from the KKT schedule"
        },
        "csv": a.csv.as_ref().map(|p| p.display().to_string()),
    });
    let mut human = format!(
        "schedule {alg}: t = {}, optimal tau = {}{}\n",
        r.steps,
        r.tau,
        r.position
            .map(|p| format!(", worst record position = {p}"))
            .unwrap_or_default()
    );
    human.push_str(&format!("  mu (certified, {} bits) = {}\n", r.bits, r.mu));
    human.push_str(&format!(
        "  mu (KKT)                = {}\n",
        short(r.mu_kkt)
    ));
    match r.mu_numeric {
        Some((m, it)) => human.push_str(&format!(
            "  mu (argmin L-BFGS)      = {} ({} iterations)\n",
            short(m),
            it
        )),
        None => human.push_str("  mu (argmin L-BFGS)      = not run\n"),
    }
    human.push_str(&format!(
        "  active constraints z_k = 0: {}\n",
        r.active.len()
    ));
    for (name, v) in &r.closed_forms {
        match v {
            Ok(mu) => human.push_str(&format!(
                "  {name}: mu ≤ {} ({})\n",
                f64_up(*mu, 7),
                Verdict::classify(*mu, r.mu_kkt, 1e-9).as_str()
            )),
            Err(e) => human.push_str(&format!("  {name}: {e}\n")),
        }
    }
    if let Some(p) = &a.csv {
        human.push_str(&format!("  schedule written to {}\n", p.display()));
    }
    Ok(Output::new("schedule", json, human))
}
