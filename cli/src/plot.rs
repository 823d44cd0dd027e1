//! `shiftdp plot …`: Figure-1-style plots (SVG + PNG).
use super::setting::{AlgorithmArg, SettingArgs};
use super::{Output, parse_number};
use serde_json::json;
use shiftdp::error::{Error, Result};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::results::fdp_bounds;
use shiftdp::tradeoff::Gaussian;
use shiftdp_verify::plot::{Chart, Role, Series, gaussian_tradeoff, label_number, render};
use std::path::PathBuf;

/// Plot kinds.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum PlotCommand {
    /// Tradeoff curves of every applicable GDP bound at several t (BSA24 Fig. 1 left).
    Tradeoff(TradeoffPlotArgs),
    /// ε against the number of steps at several δ (BSA24 Fig. 1 right).
    EpsilonVsSteps(EpsPlotArgs),
    /// The optimal shift schedule: λ_k and z_k against k (`shiftdp schedule` flags).
    Schedule(SchedulePlotArgs),
    /// ε(δ) against steps (or epochs) for every applicable bound of `shiftdp compare`.
    Compare(PlotCompareArgs),
    /// Certified ε(δ) against epochs for several batch samplers (`shiftdp sampler`):
    /// each sampler's lower and upper bounds, and the Poisson ε.
    Sampler(PlotSamplerArgs),
}

/// Arguments of `shiftdp plot sampler`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlotSamplerArgs {
    /// The run (as `shiftdp sampler`).
    #[command(flatten)]
    pub run: super::sampler::SamplerRunArgs,
    /// Epochs on the x axis: 1..=E.
    #[arg(long, default_value_t = 10)]
    pub max_epochs: u64,
    /// Comma-separated samplers.
    #[arg(long, default_value = "shuffle,balls-in-bins,fixed-size")]
    pub samplers: String,
    /// Output stem (STEM.svg, STEM.png).
    #[arg(long, default_value = "out/samplers")]
    pub out: PathBuf,
    /// Logarithmic ε axis.
    #[arg(long)]
    pub log_y: bool,
}

/// Runs `shiftdp plot sampler`: for each sampler and E = 1..max, the certified lower
/// and upper ends of ε(δ) (one colour per sampler: the band between them shaded, upper
/// solid, lower dashed) and the Poisson ε of the same run (the reference line).
///
/// # Errors
/// Invalid run parameters (as `shiftdp sampler`), files not writable.
pub fn run_plot_sampler(a: &PlotSamplerArgs) -> Result<Output> {
    use shiftdp::samplers::{Sampler, account};
    if !(1..=100).contains(&a.max_epochs) {
        return Err(Error::param(
            "max-epochs",
            a.max_epochs,
            "must be in 1..=100",
        ));
    }
    let samplers = a
        .samplers
        .split(',')
        .map(|s| Sampler::parse(s.trim()))
        .collect::<Result<Vec<_>>>()?;
    let mut series = vec![];
    let mut poisson: Vec<(f64, f64)> = vec![];
    for (g, sampler) in samplers.iter().enumerate() {
        // the band: the upper ends left to right, then the lower ends where an upper
        // end is finite, right to left
        let (mut lo, mut hi, mut band_lo) = (vec![], vec![], vec![]);
        for e in 1..=a.max_epochs {
            let run = a.run.run(*sampler, e)?;
            let r = account(&run, a.run.delta, 1e-3)?;
            let iv = r.interval();
            lo.push((e as f64, iv.lower));
            if iv.upper.is_finite() {
                hi.push((e as f64, iv.upper));
                band_lo.push((e as f64, iv.lower));
            }
            if g == 0 {
                poisson.push((e as f64, r.poisson.epsilon.upper));
            }
        }
        let band: Vec<(f64, f64)> = hi.iter().chain(band_lo.iter().rev()).copied().collect();
        series.push(
            Series::new(format!("{sampler}: the true ε lies in the band"), band)
                .in_group(g)
                .with_role(Role::Band),
        );
        series.push(Series::new(format!("{sampler}: certified upper"), hi).in_group(g));
        series.push(Series::new(format!("{sampler}: certified lower"), lo).in_group(g));
    }
    series.push(
        Series::new("Poisson ε (what Opacus / dp_accounting report)", poisson)
            .with_role(Role::Reference),
    );
    let chart = Chart {
        title: format!(
            "Certified ε by batch sampler, δ = {}",
            label_number(a.run.delta, false)
        ),
        caption: Some(format!(
            "n = {}, b = {}, σ = {}, {} neighbours; the true ε lies between each sampler's lower and upper curves",
            a.run.n,
            a.run.batch,
            label_number(a.run.noise_multiplier, false),
            a.run.relation
        )),
        x_label: "epochs".into(),
        y_label: "ε".into(),
        series,
        unit_square: false,
        log_y: a.log_y,
    };
    let files = render(&chart, &a.out)?;
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    Ok(Output::new(
        "plot",
        json!({
            "files": names,
            "series": chart.series.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
        }),
        format!("wrote {}\n", names.join(", ")),
    ))
}

/// The x axis of `shiftdp plot compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum XAxis {
    /// Number of steps t.
    Steps,
    /// Number of epochs E (t = E·n/b).
    Epochs,
}

/// Arguments of `shiftdp plot compare`: the flags of `shiftdp compare` (the run's
/// `--steps`/`--epochs` set the right end of the x grid), plus the plot's.
#[derive(Debug, Clone, clap::Args)]
pub struct PlotCompareArgs {
    /// The algorithm.
    #[arg(value_enum)]
    pub algorithm: AlgorithmArg,
    /// Setting flags (`--steps` or `--epochs`: the largest x, in that unit).
    #[command(flatten)]
    pub setting: SettingArgs,
    /// δ of the (ε, δ) conversions.
    #[arg(long, default_value = "1e-5", allow_hyphen_values = true)]
    pub delta: String,
    /// MPFR precision of the conversions (as for `shiftdp compare`).
    #[arg(long)]
    pub bits: Option<u64>,
    /// x axis: steps or epochs (default: the unit of --steps/--epochs, else steps).
    #[arg(long, value_enum)]
    pub x: Option<XAxis>,
    /// Largest x, in the unit of --x (default: the run's --steps or --epochs, else 200).
    #[arg(long)]
    pub max: Option<u64>,
    /// Number of x values (log-spaced from 1 to --max, duplicates removed; default 16,
    /// sgd 8: its bounds are compositions computed numerically at every point).
    #[arg(long)]
    pub points: Option<usize>,
    /// Output path without extension (writes .svg and .png).
    #[arg(long, default_value = "out/compare")]
    pub out: PathBuf,
    /// Logarithmic ε axis.
    #[arg(long)]
    pub log_y: bool,
}

/// Label of the lower envelope series of `shiftdp plot compare`.
pub const BEST_ENVELOPE: &str = "best valid bound (lower envelope)";

/// Runs `shiftdp plot compare`: ε(δ) of every applicable row of `shiftdp compare`
/// against steps or epochs, one series per row (legend: the row id, `[paper kind]`,
/// and `★ best at x = max` on the best valid row at the largest x), plus the lower
/// envelope of the rows eligible for "best".
///
/// # Errors
/// Invalid setting, δ, precision or grid; no applicable bound; files not writable.
///
/// # Rounding
/// Every plotted ε is the certified upper bound `shiftdp compare` reports.
///
/// # References
/// See [`super::compare`].
pub fn run_plot_compare(a: &PlotCompareArgs) -> Result<Output> {
    let (chart, last_best) = compare_chart(a)?;
    let files = render(&chart, &a.out)?;
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    Ok(Output::new(
        "plot compare",
        json!({
            "files": names,
            "series": chart.series.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
            "best_at_max": last_best,
        }),
        format!("wrote {}\n", names.join(", ")),
    ))
}

/// Why an entry is not eligible for "best": its bound's `about …` note, or the rule.
fn not_eligible_reason(r: &shiftdp::analysis::Entry) -> String {
    r.bound()
        .and_then(|b| {
            b.notes()
                .iter()
                .find(|n| n.starts_with("about") || n.contains("not marked best"))
                .map(|n| n.split(';').next().unwrap_or(n).trim().to_string())
        })
        .unwrap_or_else(|| "not a bound on the t-step run under replace-one adjacency".into())
}

/// The chart of `shiftdp plot compare` and the legend name of the best row at the largest x.
pub type CompareChart = (Chart, Option<String>);

/// The chart of `shiftdp plot compare` and the best row at the largest x: one series
/// per row (eligible rows: one colour each; rows not eligible for "best": grey, dotted,
/// named `… — not eligible for best: <reason>`), and the envelope (the least eligible
/// value at each x, so never above an eligible curve).
///
/// # Errors
/// As [`run_plot_compare`].
pub fn compare_chart(a: &PlotCompareArgs) -> Result<CompareChart> {
    use shiftdp::analysis::{Query, analyze};
    let (x_axis, max) = x_extent(&a.setting, a.algorithm, a.x, a.max)?;
    if max == 0 || max > 10_000_000 {
        return Err(Error::param("max", max, "must be between 1 and 10⁷"));
    }
    let points = a.points.unwrap_or(if a.algorithm == AlgorithmArg::Sgd {
        8
    } else {
        16
    });
    if !(2..=200).contains(&points) {
        return Err(Error::param("points", points, "must be between 2 and 200"));
    }
    let prec = Precision::from_bits(a.bits)?;
    let query = Query::epsilon_at(&a.delta)?;
    let mut xs: Vec<u64> = (0..points)
        .map(|i| ((max as f64).powf(i as f64 / (points - 1) as f64)).round() as u64)
        .map(|x| x.max(1))
        .collect();
    xs.dedup();
    // (name, eligible, points)
    type Row = (String, bool, Vec<(f64, f64)>);
    let mut by_id: Vec<Row> = vec![];
    let mut caption: Option<String> = None;
    let mut envelope: Vec<(f64, f64)> = vec![];
    let mut last_best: Option<String> = None;
    let mut last_err: Option<Error> = None;
    let pb = super::progress_bar(xs.len() as u64, "points");
    for &x in &xs {
        if let Some(pb) = &pb {
            pb.inc(1);
        }
        let mut sa = a.setting.clone();
        match x_axis {
            XAxis::Steps => {
                sa.steps = Some(x.to_string());
                sa.epochs = None;
            }
            XAxis::Epochs => {
                sa.epochs = Some(x.to_string());
                sa.steps = None;
            }
        }
        let s = match sa.setting(a.algorithm) {
            Ok(s) => s,
            Err(e) => {
                last_err = Some(e);
                continue;
            }
        };
        if caption.is_none() {
            caption = Some(setting_caption(&s));
        }
        let analysis = analyze(&s, &query, prec)?;
        let rows = analysis.entries();
        let best = analysis.best_index();
        let mut least: Option<f64> = None;
        for (i, r) in rows.iter().enumerate() {
            let Some(e) = r.upper() else { continue };
            let v = e.to_f64_round(rug::float::Round::Up);
            if !v.is_finite() {
                continue;
            }
            let mut name = format!("{} [{} {}]", r.id, r.paper(), r.family.as_str());
            if !r.eligible {
                name = format!("{name} — not eligible for best: {}", not_eligible_reason(r));
            } else {
                least = Some(least.map_or(v, |m: f64| m.min(v)));
            }
            match by_id.iter_mut().find(|(n, _, _)| *n == name) {
                Some((_, _, pts)) => pts.push((x as f64, v)),
                None => by_id.push((name.clone(), r.eligible, vec![(x as f64, v)])),
            }
            if Some(i) == best && x == *xs.last().unwrap_or(&0) {
                last_best = Some(name);
            }
        }
        if let Some(m) = least {
            envelope.push((x as f64, m));
        }
    }
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    if by_id.is_empty() {
        return Err(last_err.unwrap_or(Error::NotCertified {
            what: "plot compare".into(),
            reason: "no applicable bound for this setting".into(),
        }));
    }
    let mut series: Vec<Series> = by_id
        .into_iter()
        .enumerate()
        .map(|(g, (name, eligible, points))| {
            let name = if Some(&name) == last_best.as_ref() {
                format!("{name} ★ best at {} = {max}", x_name(x_axis))
            } else {
                name
            };
            if eligible {
                Series::new(name, points).in_group(g)
            } else {
                Series::new(name, points).with_role(Role::Excluded)
            }
        })
        .collect();
    series.push(Series::new(BEST_ENVELOPE, envelope).with_role(Role::Envelope));
    let chart = Chart {
        caption,
        title: format!(
            "Certified ε of every applicable bound, {}, δ = {}",
            shiftdp::settings::Algorithm::from(a.algorithm).name(),
            a.delta
        ),
        x_label: x_name(x_axis).into(),
        y_label: "ε (certified upper bound)".into(),
        series,
        unit_square: false,
        log_y: a.log_y,
    };
    Ok((chart, last_best))
}

/// The x axis and its largest value for `plot compare`: `--x` (default: epochs if the
/// run is given by `--epochs`, else steps) and `--max`, or else the run's length
/// (`--steps T` or `--epochs E`, converted to the unit of the axis), or else 200.
///
/// # Errors
/// `--max` given together with `--steps`/`--epochs`; a run length that is not a whole
/// number of the axis' unit; an invalid setting.
pub fn x_extent(
    setting: &SettingArgs,
    alg: AlgorithmArg,
    x: Option<XAxis>,
    max: Option<u64>,
) -> Result<(XAxis, u64)> {
    use super::setting::parse_count;
    let given = setting.steps.is_some() || setting.epochs.is_some();
    if let (Some(m), true) = (max, given) {
        return Err(Error::param(
            "max",
            m,
            "give either --max or the run's --steps/--epochs (the largest x), not both",
        ));
    }
    let axis = x.unwrap_or(if setting.epochs.is_some() {
        XAxis::Epochs
    } else {
        XAxis::Steps
    });
    if !given {
        return Ok((axis, max.unwrap_or(200)));
    }
    if axis == XAxis::Steps
        && let Some(t) = parse_count("steps", &setting.steps)?
    {
        return Ok((axis, t));
    }
    if axis == XAxis::Epochs
        && setting.steps.is_none()
        && let Some(e) = parse_count("epochs", &setting.epochs)?
    {
        return Ok((axis, e));
    }
    // the other unit: through the setting
    let s = setting.setting(alg)?;
    match axis {
        XAxis::Steps => Ok((axis, s.t())),
        XAxis::Epochs => s.integer_epochs().map(|e| (axis, e)).ok_or_else(|| {
            Error::param(
                "steps",
                s.t(),
                "is not a whole number of epochs: give --epochs or --x steps",
            )
        }),
    }
}

fn x_name(x: XAxis) -> &'static str {
    match x {
        XAxis::Steps => "steps t",
        XAxis::Epochs => "epochs E",
    }
}

/// Arguments of `shiftdp plot schedule`.
#[derive(Debug, Clone, clap::Args)]
pub struct SchedulePlotArgs {
    /// The schedule problem, as for `shiftdp schedule`.
    #[command(flatten)]
    pub schedule: super::schedule::ScheduleArgs,
    /// Output path without extension (writes .svg and .png).
    #[arg(long, default_value = "out/schedule")]
    pub out: PathBuf,
}

/// The algorithms of `shiftdp plot tradeoff`: those with μ-GDP bounds (sgd's bounds are
/// numerically composed families, drawn by `plot epsilon-vs-steps` and `plot compare`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GdpAlgorithmArg {
    /// Full-batch NoisyGD.
    Gd,
    /// Cyclic NoisyCGD.
    Cgd,
    /// Langevin Monte Carlo.
    Lmc,
}

impl From<GdpAlgorithmArg> for AlgorithmArg {
    fn from(a: GdpAlgorithmArg) -> Self {
        match a {
            GdpAlgorithmArg::Gd => AlgorithmArg::Gd,
            GdpAlgorithmArg::Cgd => AlgorithmArg::Cgd,
            GdpAlgorithmArg::Lmc => AlgorithmArg::Lmc,
        }
    }
}

/// Arguments of `shiftdp plot tradeoff`.
#[derive(Debug, Clone, clap::Args)]
pub struct TradeoffPlotArgs {
    /// The algorithm (one with μ-GDP bounds).
    #[arg(value_enum)]
    pub algorithm: GdpAlgorithmArg,
    /// Setting flags (`--steps T` or `--epochs E` alone: one curve, at that run length).
    #[command(flatten)]
    pub setting: SettingArgs,
    /// Comma-separated step counts (default: 1,5,20,100; cgd: --epochs-list's default).
    #[arg(long, conflicts_with = "epochs_list")]
    pub steps_list: Option<String>,
    /// Comma-separated whole epoch counts, t = E·n/b (default for cgd: 1,5,20,100).
    #[arg(long)]
    pub epochs_list: Option<String>,
    /// Output path without extension (writes .svg and .png).
    #[arg(long, default_value = "out/tradeoff")]
    pub out: PathBuf,
    /// Overlay the exact quadratic instance of each t (gd and cgd: the Gaussian iterates
    /// with curvature h = (1 − c)/η, worst record position for cgd).
    #[arg(long)]
    pub instance: bool,
}

/// Default step counts of `plot tradeoff` (gd, sgd, lmc) and epoch counts (cgd).
pub const TRADEOFF_RUNS: &str = "1,5,20,100";

/// The run lengths of `plot tradeoff`: `(steps, label)` per curve, from `--steps-list`,
/// `--epochs-list`, the run's `--steps`/`--epochs`, or the default ([`TRADEOFF_RUNS`]
/// steps; epochs for cgd, whose bounds are stated for whole epochs).
///
/// # Errors
/// Bad lists; a list given together with `--steps`/`--epochs`; an invalid setting.
fn tradeoff_runs(a: &TradeoffPlotArgs) -> Result<Vec<(SettingArgs, String)>> {
    let given = a.setting.steps.is_some() || a.setting.epochs.is_some();
    if given && (a.steps_list.is_some() || a.epochs_list.is_some()) {
        return Err(Error::param(
            if a.steps_list.is_some() {
                "steps-list"
            } else {
                "epochs-list"
            },
            "given with --steps/--epochs",
            "give either a list or one run length",
        ));
    }
    if given {
        let s = a.setting.setting(a.algorithm.into())?;
        let label = match &a.setting.epochs {
            Some(e) => format!("E = {}", e.trim()),
            None => format!("t = {}", s.t()),
        };
        return Ok(vec![(a.setting.clone(), label)]);
    }
    let epochs = match (&a.steps_list, &a.epochs_list) {
        (Some(l), _) => return steps_runs(&a.setting, &parse_list_u64("steps-list", l)?),
        (None, Some(l)) => parse_list_u64("epochs-list", l)?,
        (None, None) if a.algorithm == GdpAlgorithmArg::Cgd => {
            parse_list_u64("epochs-list", TRADEOFF_RUNS)?
        }
        (None, None) => {
            return steps_runs(&a.setting, &parse_list_u64("steps-list", TRADEOFF_RUNS)?);
        }
    };
    Ok(epochs
        .into_iter()
        .map(|e| {
            let mut s = a.setting.clone();
            s.epochs = Some(e.to_string());
            s.steps = None;
            (s, format!("E = {e}"))
        })
        .collect())
}

fn steps_runs(s: &SettingArgs, ts: &[u64]) -> Result<Vec<(SettingArgs, String)>> {
    Ok(ts
        .iter()
        .map(|&t| (with_steps(s, t), format!("t = {t}")))
        .collect())
}

/// μ of the exact 1-D quadratic instance of a gd/cgd setting (worst position for cgd).
fn instance_mu(s: &shiftdp::settings::Setting) -> Option<f64> {
    use shiftdp::exact::gaussian::{Schedule, scalar_mu};
    use shiftdp::settings::Algorithm;
    let c = s.contraction()?.mid_f64();
    let eta = s.eta().mid_f64();
    let (sigma, l) = (s.sigma().mid_f64(), s.sensitivity().mid_f64());
    let h = (1.0 - c) / eta;
    match s.algorithm() {
        Algorithm::Gd | Algorithm::Lmc => {
            let sched = Schedule::full(s.n(), s.t() as usize, eta, sigma).ok()?;
            Some(scalar_mu(&sched, &h, &l))
        }
        Algorithm::Cgd => {
            let (lb, e) = (s.batches_per_epoch()?, s.integer_epochs()?);
            (0..lb)
                .filter_map(|pos| Schedule::cyclic(s.n(), s.b(), e, pos, eta, sigma).ok())
                .map(|sched| scalar_mu(&sched, &h, &l))
                .reduce(f64::max)
        }
        _ => None,
    }
}

/// Arguments of `shiftdp plot epsilon-vs-steps`.
#[derive(Debug, Clone, clap::Args)]
pub struct EpsPlotArgs {
    /// The algorithm.
    #[arg(value_enum)]
    pub algorithm: AlgorithmArg,
    /// Setting flags (`--steps T` or `--epochs E`: the largest number of steps).
    #[command(flatten)]
    pub setting: SettingArgs,
    /// Comma-separated δ values.
    #[arg(long, default_value = "1e-3,1e-5,1e-7")]
    pub deltas: String,
    /// Largest number of steps (default: the run's --steps/--epochs, else 200; cgd: at
    /// least 10 epochs).
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Output path without extension (writes .svg and .png).
    #[arg(long, default_value = "out/epsilon_vs_steps")]
    pub out: PathBuf,
    /// Logarithmic ε axis.
    #[arg(long)]
    pub log_y: bool,
}

fn with_steps(s: &SettingArgs, t: u64) -> SettingArgs {
    let mut s = s.clone();
    s.steps = Some(t.to_string());
    s.epochs = None;
    s
}

/// The colour group of bound `id` (its index in `ids`, appended if new).
fn group_of(ids: &mut Vec<String>, id: &str) -> usize {
    match ids.iter().position(|x| x == id) {
        Some(g) => g,
        None => {
            ids.push(id.to_string());
            ids.len() - 1
        }
    }
}

/// The setting for a caption: [`Setting::describe`](shiftdp::settings::Setting::describe)
/// without t and E (they vary along the figure).
pub fn setting_caption(s: &shiftdp::settings::Setting) -> String {
    s.describe()
        .split(", ")
        .filter(|p| !p.starts_with("t = ") && !p.starts_with("E = "))
        .collect::<Vec<_>>()
        .join(", ")
}

fn short_id(id: &str) -> String {
    id.trim_start_matches("BSA24 ").to_string()
}

/// Runs `shiftdp plot …`.
///
/// # Errors
/// Invalid setting or list, or files that cannot be written.
pub fn run(cmd: &PlotCommand) -> Result<Output> {
    let (chart, out) = match cmd {
        PlotCommand::Compare(a) => return run_plot_compare(a),
        PlotCommand::Sampler(a) => return run_plot_sampler(a),
        PlotCommand::Tradeoff(a) => {
            let runs = tradeoff_runs(a)?;
            let mut series = vec![
                Series::new("perfect privacy (Id)", vec![(0.0, 1.0), (1.0, 0.0)])
                    .with_role(Role::Reference),
            ];
            // one colour per bound across every t (the exact instance: a colour of its own)
            let mut ids: Vec<String> = vec![];
            let mut caption: Option<String> = None;
            let lengths: Vec<&str> = runs.iter().map(|(_, l)| l.as_str()).collect();
            // why no curve was drawn: (hypothesis or reason, results, details), grouped
            let mut refusals: Vec<(String, Vec<String>, Vec<String>)> = vec![];
            for (sa, len) in &runs {
                let s = sa.setting(a.algorithm.into())?;
                if caption.is_none() {
                    caption = Some(format!(
                        "{}; certified lower bounds on the tradeoff at {}",
                        setting_caption(&s),
                        run_lengths(&lengths)
                    ));
                }
                let t = s.t();
                for (id, b) in fdp_bounds(&s) {
                    if let Err(e) = &b {
                        let (key, detail) = match e {
                            Error::Hypothesis {
                                hypothesis, detail, ..
                            } => (format!("hypothesis {hypothesis} fails"), detail.clone()),
                            other => (other.to_string(), format!("t = {t}")),
                        };
                        let id = short_id(id.as_str());
                        match refusals.iter_mut().find(|r| r.0 == key) {
                            Some((_, ids, details)) => {
                                if !ids.contains(&id) {
                                    ids.push(id);
                                }
                                if !details.contains(&detail) {
                                    details.push(detail);
                                }
                            }
                            None => refusals.push((key, vec![id], vec![detail])),
                        }
                    }
                    if let Ok(b) = b
                        && let Some(mu) = b.mu()
                        && b.notes().is_empty()
                    {
                        let mu = mu.upper_f64();
                        let g = group_of(&mut ids, id.as_str());
                        series.push(
                            Series::new(
                                format!(
                                    "{}, {len} (μ ≤ {})",
                                    short_id(id.as_str()),
                                    label_number(mu, true)
                                ),
                                gaussian_tradeoff(mu)?,
                            )
                            .in_group(g),
                        );
                    }
                }
                if a.instance
                    && let Some(m) = instance_mu(&s)
                {
                    let g = group_of(&mut ids, "exact quadratic instance");
                    series.push(
                        Series::new(
                            format!(
                                "exact quadratic instance, {len} (μ = {})",
                                label_number(m, false)
                            ),
                            gaussian_tradeoff(m)?,
                        )
                        .in_group(g),
                    );
                }
            }
            if series.len() <= 1 {
                return Err(Error::NotCertified {
                    what: "plot".into(),
                    reason: format!(
                        "no GDP bound applies at any of {}: {}",
                        run_lengths(&lengths),
                        refusals
                            .iter()
                            .map(|(key, ids, details)| format!(
                                "{key} for {} ({})",
                                ids.join(", "),
                                details.join("; ")
                            ))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                });
            }
            let chart = Chart {
                title: format!(
                    "Tradeoff curves, {} (lower is less private)",
                    a.algorithm_name()
                ),
                caption,
                x_label: "Type I error α".into(),
                y_label: "Type II error β".into(),
                series,
                unit_square: true,
                log_y: false,
            };
            (chart, a.out.clone())
        }
        PlotCommand::Schedule(a) => {
            let rows = super::schedule::schedule_series(&a.schedule)?;
            let sa = &a.schedule;
            let caption = sa
                .setting
                .setting(match sa.algorithm {
                    super::schedule::Algorithm::Gd => AlgorithmArg::Gd,
                    super::schedule::Algorithm::Cgd => AlgorithmArg::Cgd,
                    super::schedule::Algorithm::Sgd => AlgorithmArg::Sgd,
                })
                .ok()
                .filter(|_| sa.eta_schedule.is_none() && sa.noise_schedule.is_none())
                .map(|s| s.describe());
            let zmax = rows
                .iter()
                .map(|r| r.2)
                .fold(0.0f64, f64::max)
                .max(f64::MIN_POSITIVE);
            let chart = Chart {
                title: "Optimal shift schedule (KKT): interpolation weights and gaps".into(),
                caption,
                x_label: "step k".into(),
                y_label: "λ_k, and z_k / max z".into(),
                series: vec![
                    Series::new(
                        "λ_k (interpolation weight)",
                        rows.iter().map(|r| (r.0 as f64, r.1)).collect(),
                    ),
                    Series::new(
                        format!(
                            "z_k / max z (max z = {})",
                            shiftdp_verify::plot::tick_label(zmax)
                        ),
                        rows.iter().map(|r| (r.0 as f64, r.2 / zmax)).collect(),
                    ),
                ],
                unit_square: false,
                log_y: false,
            };
            (chart, a.out.clone())
        }
        PlotCommand::EpsilonVsSteps(a) => {
            let deltas: Vec<String> = a.deltas.split(',').map(|x| x.trim().to_string()).collect();
            let max_steps = eps_max_steps(a)?;
            if max_steps == 0 || max_steps > 10_000_000 {
                return Err(Error::param(
                    "max-steps",
                    max_steps,
                    "must be between 1 and 10⁷",
                ));
            }
            // cgd: the bounds are stated for whole epochs, so t runs over multiples of
            // l = n/b (a log grid of epochs), and the caption says so
            let s1 = with_steps(&a.setting, max_steps).setting(a.algorithm)?;
            let l = cgd_epoch_steps(&s1);
            if max_steps < l {
                return Err(Error::param(
                    "max-steps",
                    max_steps,
                    &format!("must be at least one epoch, l = n/b = {l} steps"),
                ));
            }
            let units = max_steps / l;
            // sgd's bounds are compositions computed numerically at every point
            let grid = if a.algorithm == AlgorithmArg::Sgd {
                12
            } else {
                60
            };
            let mut ts: Vec<u64> = (0..=grid)
                .map(|i| ((units as f64).powf(i as f64 / grid as f64)).round() as u64 * l)
                .collect();
            ts.dedup();
            let grid_note = if l > 1 {
                format!(
                    "; t = whole epochs (multiples of l = n/b = {l}), from {}",
                    ts.first().copied().unwrap_or(l)
                )
            } else {
                String::new()
            };
            let mut ids: Vec<String> = vec![];
            let mut series: Vec<Series> = vec![];
            let des = deltas
                .iter()
                .map(|d| {
                    let de = parse_number("deltas", d, 64)?;
                    Gaussian::epsilon(&Enclosure::from_u64(64, 1), &de, Precision::F64)?;
                    Ok(de)
                })
                .collect::<Result<Vec<_>>>()?;
            // per δ: (name, points) of each bound, the bounds built once per t
            type Curves = Vec<(String, Vec<(f64, f64)>)>;
            let mut per_delta: Vec<Curves> = vec![vec![]; deltas.len()];
            for &t in &ts {
                let s = with_steps(&a.setting, t).setting(a.algorithm)?;
                for (id, b) in fdp_bounds(&s) {
                    let Ok(b) = b else { continue };
                    if !b.notes().is_empty() {
                        continue;
                    }
                    for (k, (d, de)) in deltas.iter().zip(&des).enumerate() {
                        let Ok(e) = b.epsilon(de, Precision::F64) else {
                            continue;
                        };
                        let name = format!("{}, δ = {d}", short_id(id.as_str()));
                        let p = (t as f64, e.enclosure.upper_f64());
                        match per_delta[k].iter_mut().find(|(n, _)| *n == name) {
                            Some((_, v)) => v.push(p),
                            None => per_delta[k].push((name, vec![p])),
                        }
                    }
                }
            }
            for by_id in per_delta {
                series.extend(by_id.into_iter().map(|(name, points)| {
                    let id = name.split(", δ = ").next().unwrap_or("").to_string();
                    let g = group_of(&mut ids, &id);
                    Series::new(name, points).in_group(g)
                }));
            }
            let chart = Chart {
                title: format!("Certified ε against steps, {}", a.algorithm_name()),
                caption: Some(format!(
                    "{}; δ ∈ {{{}}}{grid_note}",
                    setting_caption(&s1),
                    deltas.join(", ")
                )),
                x_label: "steps t".into(),
                y_label: "ε (certified upper bound)".into(),
                series,
                unit_square: false,
                log_y: a.log_y,
            };
            (chart, a.out.clone())
        }
    };
    if !matches!(cmd, PlotCommand::Schedule(_)) && chart.series.is_empty() {
        return Err(Error::NotCertified {
            what: "plot".into(),
            reason: "no applicable GDP bound for this setting".into(),
        });
    }
    let files = render(&chart, &out)?;
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    Ok(Output::new(
        "plot",
        json!({ "files": names, "series": chart.series.iter().map(|s| s.name.clone()).collect::<Vec<_>>() }),
        format!("wrote {}\n", names.join(", ")),
    ))
}

/// Steps per epoch l = n/b of a cgd setting (whose bounds need whole epochs), else 1.
fn cgd_epoch_steps(s: &shiftdp::settings::Setting) -> u64 {
    match s.algorithm() {
        shiftdp::settings::Algorithm::Cgd => s.batches_per_epoch().unwrap_or(1),
        _ => 1,
    }
}

/// The largest number of steps of `plot epsilon-vs-steps`: `--max-steps`, else the run's
/// `--steps`/`--epochs`, else 200 (cgd: at least 10 epochs, a whole number of them).
///
/// # Errors
/// `--max-steps` given with `--steps`/`--epochs`; an invalid setting.
fn eps_max_steps(a: &EpsPlotArgs) -> Result<u64> {
    let given = a.setting.steps.is_some() || a.setting.epochs.is_some();
    match a.max_steps {
        Some(m) if given => Err(Error::param(
            "max-steps",
            m,
            "give either --max-steps or the run's --steps/--epochs, not both",
        )),
        Some(m) => Ok(m),
        None if given => Ok(a.setting.setting(a.algorithm)?.t()),
        None => {
            let l = cgd_epoch_steps(&with_steps(&a.setting, 1).setting(a.algorithm)?);
            Ok(200u64.max(10 * l) / l * l)
        }
    }
}

/// "t ∈ {1, 5, 20}" / "E ∈ {1, 5}" / "t = 40": the run lengths of a figure.
fn run_lengths(labels: &[&str]) -> String {
    let (name, values): (Vec<&str>, Vec<&str>) = labels
        .iter()
        .map(|l| l.split_once(" = ").unwrap_or(("t", l)))
        .unzip();
    match (values.len(), name.first()) {
        (1, Some(n)) => format!("{n} = {}", values[0]),
        (_, Some(n)) if name.iter().all(|x| x == n) => format!("{n} ∈ {{{}}}", values.join(", ")),
        _ => labels.join(", "),
    }
}

fn parse_list_u64(flag: &str, s: &str) -> Result<Vec<u64>> {
    s.split(',')
        .map(|x| {
            x.trim()
                .parse::<u64>()
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| {
                    Error::param(
                        flag,
                        x,
                        "must be a comma-separated list of positive integers",
                    )
                })
        })
        .collect()
}

trait AlgName {
    fn algorithm_name(&self) -> &'static str;
}
impl AlgName for TradeoffPlotArgs {
    fn algorithm_name(&self) -> &'static str {
        shiftdp::settings::Algorithm::from(AlgorithmArg::from(self.algorithm)).name()
    }
}
impl AlgName for EpsPlotArgs {
    fn algorithm_name(&self) -> &'static str {
        shiftdp::settings::Algorithm::from(self.algorithm).name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct P {
        #[command(subcommand)]
        c: PlotCommand,
    }

    fn compare_args(args: &[&str]) -> PlotCompareArgs {
        let v = ["p", "compare"].iter().chain(args.iter());
        match P::parse_from(v).c {
            PlotCommand::Compare(a) => a,
            _ => unreachable!(),
        }
    }

    #[test]
    fn compare_envelope_is_never_above_an_eligible_curve() {
        // lmc with D: stationary-law and exponential-mechanism rows are not eligible
        let a = compare_args(&[
            "lmc",
            "--n",
            "50",
            "--eta",
            "0.1",
            "--sensitivity",
            "1",
            "--strong-convexity",
            "0.5",
            "--smoothness",
            "1",
            "--diameter",
            "2",
            "--max",
            "40",
            "--points",
            "4",
        ]);
        let (chart, best) = compare_chart(&a).unwrap();
        assert!(best.is_some());
        let env = chart
            .series
            .iter()
            .find(|s| s.role == Role::Envelope)
            .unwrap();
        let mut checked = 0;
        for s in chart.series.iter().filter(|s| s.role == Role::Curve) {
            for &(x, y) in &s.points {
                let e = env.points.iter().find(|p| p.0 == x).unwrap().1;
                assert!(e <= y, "envelope {e} above {} = {y} at {x}", s.name);
                checked += 1;
            }
        }
        assert!(checked > 8);
        // the excluded rows are drawn as such and say why
        let excluded: Vec<&Series> = chart
            .series
            .iter()
            .filter(|s| s.role == Role::Excluded)
            .collect();
        assert!(!excluded.is_empty());
        assert!(
            excluded
                .iter()
                .all(|s| s.name.contains("— not eligible for best: about"))
        );
        assert!(
            chart
                .series
                .iter()
                .all(|s| s.name.contains("not eligible") == (s.role == Role::Excluded))
        );
        assert!(chart.title.contains("δ = 1e-5"), "{}", chart.title);
        let cap = chart.caption.unwrap();
        for p in ["n = 50", "b = 50", "σ = ", "L = 1"] {
            assert!(cap.contains(p), "{p} missing in {cap}");
        }
        assert!(!cap.contains("t = "));
    }
}
