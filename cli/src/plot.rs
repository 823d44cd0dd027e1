//! `shiftdp plot …`: Figure-1-style plots (SVG + PNG).
use super::setting::{AlgorithmArg, SettingArgs};
use super::{Output, parse_number};
use serde_json::json;
use shiftdp::bounds::bounds_for;
use shiftdp::error::{Error, Result};
use shiftdp::plot::{Chart, Role, Series, render};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::tradeoff::{Gaussian, Tradeoff};
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
        title: format!("certified ε({:e}) by batch sampler", a.run.delta),
        caption: Some(format!(
            "n = {}, batch {}, σ = {}, {} neighbours; the true ε lies between each sampler's lower and upper curves",
            a.run.n, a.run.batch, a.run.noise_multiplier, a.run.relation
        )),
        x_label: "epochs".into(),
        y_label: "ε".into(),
        series,
        unit_square: false,
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
/// `--steps`/`--epochs` are replaced by the x grid), plus the plot's.
#[derive(Debug, Clone, clap::Args)]
pub struct PlotCompareArgs {
    /// The algorithm.
    #[arg(value_enum)]
    pub algorithm: AlgorithmArg,
    /// Setting flags (`--steps`/`--epochs` are replaced by the x grid).
    #[command(flatten)]
    pub setting: SettingArgs,
    /// δ of the (ε, δ) conversions.
    #[arg(long, default_value = "1e-5", allow_hyphen_values = true)]
    pub delta: String,
    /// MPFR precision of the conversions (as for `shiftdp compare`).
    #[arg(long)]
    pub bits: Option<u64>,
    /// x axis: steps or epochs.
    #[arg(long, value_enum, default_value = "steps")]
    pub x: XAxis,
    /// Largest x (steps or epochs).
    #[arg(long, default_value_t = 200)]
    pub max: u64,
    /// Number of x values (log-spaced from 1 to --max, duplicates removed).
    #[arg(long, default_value_t = 16)]
    pub points: usize,
    /// Output path without extension (writes .svg and .png).
    #[arg(long, default_value = "out/compare")]
    pub out: PathBuf,
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
    if a.max == 0 || a.max > 10_000_000 {
        return Err(Error::param("max", a.max, "must be between 1 and 10⁷"));
    }
    if !(2..=200).contains(&a.points) {
        return Err(Error::param(
            "points",
            a.points,
            "must be between 2 and 200",
        ));
    }
    let prec = Precision::from_bits(a.bits)?;
    let query = Query::epsilon_at(&a.delta)?;
    let mut xs: Vec<u64> = (0..a.points)
        .map(|i| ((a.max as f64).powf(i as f64 / (a.points - 1) as f64)).round() as u64)
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
        match a.x {
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
            caption = Some(format!("{}; δ = {}", setting_caption(&s), a.delta));
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
                format!("{name} ★ best at {} = {}", x_name(a.x), a.max)
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
            "ε(δ = {}) of every applicable bound, {}",
            a.delta,
            shiftdp::settings::Algorithm::from(a.algorithm).name()
        ),
        x_label: x_name(a.x).into(),
        y_label: "ε (certified upper bound)".into(),
        series,
        unit_square: false,
    };
    Ok((chart, last_best))
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

/// Arguments of `shiftdp plot tradeoff`.
#[derive(Debug, Clone, clap::Args)]
pub struct TradeoffPlotArgs {
    /// The algorithm.
    #[arg(value_enum)]
    pub algorithm: AlgorithmArg,
    /// Setting flags (`--steps`/`--epochs` are replaced by each value of --steps-list).
    #[command(flatten)]
    pub setting: SettingArgs,
    /// Comma-separated step counts.
    #[arg(long, default_value = "1,5,20,100")]
    pub steps_list: String,
    /// Output path without extension (writes .svg and .png).
    #[arg(long, default_value = "out/tradeoff")]
    pub out: PathBuf,
    /// Overlay the exact quadratic instance of each t (gd and cgd: the Gaussian iterates
    /// with curvature h = (1 − c)/η, worst record position for cgd).
    #[arg(long)]
    pub instance: bool,
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
        Algorithm::Sgd => None,
    }
}

/// Arguments of `shiftdp plot epsilon-vs-steps`.
#[derive(Debug, Clone, clap::Args)]
pub struct EpsPlotArgs {
    /// The algorithm.
    #[arg(value_enum)]
    pub algorithm: AlgorithmArg,
    /// Setting flags (`--steps` is replaced by 1..=--max-steps).
    #[command(flatten)]
    pub setting: SettingArgs,
    /// Comma-separated δ values.
    #[arg(long, default_value = "1e-3,1e-5,1e-7")]
    pub deltas: String,
    /// Largest number of steps.
    #[arg(long, default_value_t = 200)]
    pub max_steps: u64,
    /// Output path without extension (writes .svg and .png).
    #[arg(long, default_value = "out/epsilon_vs_steps")]
    pub out: PathBuf,
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
            let ts = parse_list_u64("steps-list", &a.steps_list)?;
            let mut series = vec![
                Series::new("Id (perfect privacy)", vec![(0.0, 1.0), (1.0, 0.0)])
                    .with_role(Role::Reference),
            ];
            // one colour per bound across every t (the exact instance: a colour of its own)
            let mut ids: Vec<String> = vec![];
            let mut caption: Option<String> = None;
            // why no curve was drawn: (hypothesis or reason, results, details), grouped
            let mut refusals: Vec<(String, Vec<String>, Vec<String>)> = vec![];
            for &t in &ts {
                let s = with_steps(&a.setting, t).setting(a.algorithm)?;
                if caption.is_none() {
                    caption = Some(format!("{}; t ∈ {{{}}}", setting_caption(&s), a.steps_list));
                }
                for (id, b) in bounds_for(&s) {
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
                        let g = Gaussian::new(mu.upper_f64())?;
                        let pts = (0..=200).map(|i| {
                            let x = i as f64 / 200.0;
                            (x, g.eval_down(x))
                        });
                        let g = group_of(&mut ids, id.as_str());
                        series.push(
                            Series::new(
                                format!(
                                    "{}, t = {t} (μ = {:.3})",
                                    short_id(id.as_str()),
                                    mu.upper_f64()
                                ),
                                pts.collect(),
                            )
                            .in_group(g),
                        );
                    }
                }
                if a.instance
                    && let Some(m) = instance_mu(&s)
                {
                    let g = Gaussian::new(m)?;
                    let pts = (0..=200).map(|i| {
                        let x = i as f64 / 200.0;
                        (x, g.eval(x))
                    });
                    let g = group_of(&mut ids, "exact quadratic instance");
                    series.push(
                        Series::new(
                            format!("exact quadratic instance, t = {t} (μ = {m:.3})"),
                            pts.collect(),
                        )
                        .in_group(g),
                    );
                }
            }
            if series.len() <= 1 {
                return Err(Error::NotCertified {
                    what: "plot".into(),
                    reason: format!(
                        "no GDP bound applies at any t of --steps-list: {}",
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
                y_label: "Type II error f(α)".into(),
                series,
                unit_square: true,
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
                        format!("z_k / max z (max z = {})", shiftdp::plot::tick_label(zmax)),
                        rows.iter().map(|r| (r.0 as f64, r.2 / zmax)).collect(),
                    ),
                ],
                unit_square: false,
            };
            (chart, a.out.clone())
        }
        PlotCommand::EpsilonVsSteps(a) => {
            let deltas: Vec<String> = a.deltas.split(',').map(|x| x.trim().to_string()).collect();
            if a.max_steps == 0 || a.max_steps > 10_000_000 {
                return Err(Error::param(
                    "max-steps",
                    a.max_steps,
                    "must be between 1 and 10⁷",
                ));
            }
            // cgd: the bounds are stated for whole epochs, so t runs over multiples of
            // l = n/b (a log grid of epochs), and the caption says so
            let s1 = with_steps(&a.setting, a.max_steps).setting(a.algorithm)?;
            let l = match s1.algorithm() {
                shiftdp::settings::Algorithm::Cgd => s1.batches_per_epoch().unwrap_or(1),
                _ => 1,
            };
            if a.max_steps < l {
                return Err(Error::param(
                    "max-steps",
                    a.max_steps,
                    &format!("must be at least one epoch, l = n/b = {l} steps"),
                ));
            }
            let units = a.max_steps / l;
            let mut ts: Vec<u64> = (0..=60)
                .map(|i| ((units as f64).powf(i as f64 / 60.0)).round() as u64 * l)
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
            for d in &deltas {
                let de = parse_number("deltas", d, 64)?;
                Gaussian::epsilon(&Enclosure::from_u64(64, 1), &de, Precision::F64)?;
                let mut by_id: Vec<(String, Vec<(f64, f64)>)> = vec![];
                for &t in &ts {
                    let s = with_steps(&a.setting, t).setting(a.algorithm)?;
                    for (id, b) in bounds_for(&s) {
                        if let Ok(b) = b
                            && b.notes().is_empty()
                            && let Ok(e) = b.epsilon(&de, Precision::F64)
                        {
                            let name = format!("{}, δ = {d}", short_id(id.as_str()));
                            match by_id.iter_mut().find(|(n, _)| *n == name) {
                                Some((_, v)) => v.push((t as f64, e.enclosure.upper_f64())),
                                None => {
                                    by_id.push((name, vec![(t as f64, e.enclosure.upper_f64())]))
                                }
                            }
                        }
                    }
                }
                series.extend(by_id.into_iter().map(|(name, points)| {
                    let id = name.split(", δ = ").next().unwrap_or("").to_string();
                    let g = group_of(&mut ids, &id);
                    Series::new(name, points).in_group(g)
                }));
            }
            let chart = Chart {
                title: format!("ε(δ) against steps, {}", a.algorithm_name()),
                caption: Some(format!(
                    "{}; δ ∈ {{{}}}{grid_note}",
                    setting_caption(&s1),
                    deltas.join(", ")
                )),
                x_label: "steps t".into(),
                y_label: "ε (certified upper bound)".into(),
                series,
                unit_square: false,
            };
            (chart, a.out.clone())
        }
    };
    if !matches!(cmd, PlotCommand::Schedule(_)) && chart.series.len() <= 1 {
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
        shiftdp::settings::Algorithm::from(self.algorithm).name()
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
        let cap = chart.caption.unwrap();
        for p in ["n = 50", "b = 50", "σ = ", "L = 1", "δ = 1e-5"] {
            assert!(cap.contains(p), "{p} missing in {cap}");
        }
        assert!(!cap.contains("t = "));
    }
}
