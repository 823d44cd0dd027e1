//! Executors of the generic obligation kinds, and the parallel runner over proofs files.
//!
//! Each obligation of [`super::proofs::Obligation`] becomes one [`Outcome`]:
//!
//! * `dominates-instances` / `exact-on-instance` run the validator entry
//!   ([`crate::check::check_bound`]) and fail on any certain violation or evaluation
//!   error; `exact-on-instance` also requires every tightness ratio within the tolerance
//!   of 1;
//! * `schedule` samples the entry's region, solves the schedule problem (KKT, τ search,
//!   worst record position, certified in MPFR: [`shiftdp::schedules::crosscheck`]) and
//!   compares the closed form with the optimum;
//! * `improves-on` compares two results of [`shiftdp::results::REGISTRY`] point by point
//!   (μ for GDP bounds, certified ε at δ otherwise);
//! * `builtin` calls a registered [`super::Builtin`].
//!
//! Obligations run in parallel (rayon); every sampler is seeded from the run's seed and
//! the obligation's own id, so the report is the same whatever the thread schedule.
use super::outcome::{Ctx, ObligationRun, Outcome, Plot, ResultRun, Run, Series, ratio_summary};
use super::proofs::{Obligation, ProofFile, RegionOverride, ScheduleRelation};
use crate::check::{self, CheckOptions};
use rayon::prelude::*;
use shiftdp::analysis::bound_named;
use shiftdp::bounds::{Bound, BoundKind};
use shiftdp::error::{Error, Result};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::schedules::crosscheck::{self, Verdict};
use shiftdp::schedules::tau::TauSearch;
use shiftdp::settings::{Algorithm, Setting};

use super::sampling::{Params, fmt_params, sample_settings};
use crate::check::salted;

/// `dominates-instances` and `exact-on-instance`.
fn run_check(
    check_id: &str,
    samples: Option<usize>,
    region: &[RegionOverride],
    exact_tol: Option<f64>,
    ctx: &Ctx,
) -> Outcome {
    let entry = match check::find(check_id) {
        Ok(e) => e,
        Err(e) => return Outcome::error(format!("validator entry: {e}")),
    };
    let opts = CheckOptions {
        samples: Some(ctx.samples_or(samples.unwrap_or(entry.default_samples))),
        seed: ctx.seed,
        region: region.to_vec(),
        ..Default::default()
    };
    let mut rep = match check::check_bound(&entry, &opts) {
        Ok(r) => r,
        Err(e) => return Outcome::error(format!("validator: {e}")),
    };
    // a small sample can fall entirely outside the hypotheses: draw 5× more once
    if rep.samples_run == 0 && rep.skipped > 0 {
        let more = CheckOptions {
            samples: opts.samples.map(|n| 5 * n),
            ..opts.clone()
        };
        if let Ok(r) = check::check_bound(&entry, &more) {
            rep = r;
        }
    }
    let tight = rep.tightness_summary();
    let base = format!(
        "{} points validated ({} skipped by hypotheses), {} instances, {} inconclusive",
        rep.samples_run, rep.skipped, rep.instances, rep.inconclusive
    );
    let plot = Plot {
        title: format!("{}: tightness per sampled point", entry.id),
        caption: None,
        x_label: "sample".into(),
        y_label: "bound / worst instance".into(),
        // one ratio per sampled point: points, not a line (samples have no order)
        series: vec![
            Series::new(
                "tightness ratio",
                rep.tightness
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (i as f64, *r))
                    .collect(),
            )
            .with_role(crate::plot::Role::Points),
        ],
    };
    if let Some(v) = rep.violations.first() {
        return Outcome::fail(
            format!("{base}; {} violations", rep.violations.len()),
            rep.samples_run,
            fmt_params(&v.params),
            format!(
                "{} at {} = {} ({:?}): bound {:.6e} vs instance {:.6e} ± {:.1e} (margin {:.3e}) on {}",
                v.kind, v.kind, v.at, v.order, v.bound, v.instance_value, v.instance_error, v.margin, v.instance
            ),
        )
        .with_tightness(tight)
        .with_plot(plot);
    }
    if let Some(e) = rep.errors.first() {
        return Outcome {
            summary: format!("{base}; {} evaluation errors, first: {e}", rep.errors.len()),
            ..Outcome::error("")
        }
        .with_tightness(tight);
    }
    if rep.samples_run == 0 {
        return Outcome::error(format!(
            "{base}: no admissible point (hypotheses: {})",
            rep.skip_reasons.join("; ")
        ));
    }
    if let Some(tol) = exact_tol {
        if let Some((lo, _, hi)) = tight
            && ((lo - 1.0).abs() > tol || (hi - 1.0).abs() > tol)
        {
            // the sampled point farthest from exactness
            let worst = rep
                .tightness
                .iter()
                .zip(&rep.tightness_at)
                .filter(|(r, _)| r.is_finite())
                .max_by(|a, b| (a.0 - 1.0).abs().total_cmp(&(b.0 - 1.0).abs()));
            let (at, ratio) = worst.map_or((vec![], f64::NAN), |(r, p)| (fmt_params(p), *r));
            return Outcome::fail(
                format!("{base}; tightness not within {tol:.0e} of 1"),
                rep.samples_run,
                at,
                format!(
                    "tightness ratios range over [{lo:.12}, {hi:.12}]; farthest from 1: {ratio:.12} at the point shown"
                ),
            )
            .with_tightness(tight)
            .with_plot(plot);
        }
        if tight.is_none() {
            return Outcome::error(format!("{base}: no tightness ratio to compare"));
        }
    }
    Outcome::pass(base, rep.samples_run)
        .with_tightness(tight)
        .with_plot(plot)
}

/// The crosscheck of `result` at a setting.
pub fn crosscheck_for(result: &str, s: &Setting, bits: u32) -> Result<crosscheck::CrossCheck> {
    use shiftdp::bounds::bsa24::{THM_4_2, THM_4_3, THM_4_5, THM_4_6};
    match result {
        r if r == THM_4_2 => crosscheck::thm_4_2(s, bits),
        r if r == THM_4_3 => crosscheck::thm_4_3(s, bits, TauSearch::Exhaustive),
        r if r == THM_4_5 => crosscheck::thm_4_5(s, bits),
        r if r == THM_4_6 => crosscheck::thm_4_6(s, bits, TauSearch::Exhaustive),
        _ => Err(Error::param(
            "result",
            result,
            "schedule obligations exist for BSA24 Thm 4.2, 4.3, 4.5, 4.6",
        )),
    }
}

/// `n` points sampled from the region of the validator entry `id`, from the stream
/// `stream` of the context's seed, or the error message when there is no such entry.
fn region_points(
    id: &str,
    n: usize,
    ctx: &Ctx,
    stream: &str,
) -> std::result::Result<Vec<(Params, Result<Setting>)>, String> {
    let entry = check::find(id).map_err(|e| format!("validator entry for the region: {e}"))?;
    Ok(sample_settings(&entry, &[], n, salted(ctx.seed, stream)))
}

fn run_schedule(
    result: &str,
    relation: ScheduleRelation,
    tol: f64,
    samples: Option<usize>,
    ctx: &Ctx,
) -> Outcome {
    let n = ctx.samples_or(samples.unwrap_or(8));
    let points = match region_points(result, n, ctx, "schedule") {
        Ok(v) => v,
        Err(m) => return Outcome::error(m),
    };
    let mut ratios = vec![];
    let mut run = 0;
    let mut first: Option<(Params, Setting)> = None;
    for (params, setting) in points {
        let Ok(s) = setting else { continue };
        let cc = match crosscheck_for(result, &s, ctx.bits) {
            Ok(c) => c,
            Err(Error::Hypothesis { .. }) => continue,
            Err(e) => return Outcome::error(format!("crosscheck at {params:?}: {e}")),
        };
        run += 1;
        ratios.push(cc.closed_form / cc.optimum);
        let ok = match relation {
            ScheduleRelation::Equals => {
                Verdict::classify(cc.closed_form, cc.optimum, tol) == Verdict::Attained
            }
            ScheduleRelation::Dominates => cc.closed_form >= cc.optimum * (1.0 - tol),
        };
        if !ok {
            return Outcome::fail(
                format!("closed form vs optimum over {run} points"),
                run,
                params,
                format!(
                    "closed form μ = {:.12e}, optimum μ = {:.12e} (τ = {}), relative difference {:.3e}: {}",
                    cc.closed_form,
                    cc.optimum,
                    cc.optimum_tau,
                    cc.relative_difference,
                    cc.verdict.as_str()
                ),
            )
            .with_tightness(ratio_summary(&ratios));
        }
        if first.is_none() {
            first = Some((params, s));
        }
    }
    if run == 0 {
        return Outcome::error("no admissible point in the region");
    }
    let mut out = Outcome::pass(
        format!("closed form vs certified optimum at {run} points (ratio closed/optimum)"),
        run,
    )
    .with_tightness(ratio_summary(&ratios));
    if let Some((params, s)) = first
        && let Some(p) = mu_vs_steps_plot(result, &params, &s, ctx.bits)
    {
        out = out.with_plot(p);
    }
    out
}

/// Closed form and optimum against t (or epochs) at the first sampled point.
fn mu_vs_steps_plot(result: &str, params: &Params, s: &Setting, bits: u32) -> Option<Plot> {
    let cyclic = s.algorithm() == Algorithm::Cgd;
    let l = if cyclic { s.n() / s.b().max(1) } else { 1 };
    let t0 = s.t() / l;
    let mut closed = vec![];
    let mut opt = vec![];
    let top = (2 * t0).clamp(4, 40);
    for k in 1..=top {
        let Ok(s2) = s.clone().with_steps(k * l) else {
            break;
        };
        if let Ok(cc) = crosscheck_for(result, &s2, bits) {
            closed.push((k as f64, cc.closed_form));
            opt.push((k as f64, cc.optimum));
        }
    }
    if closed.len() < 2 {
        return None;
    }
    let at: Vec<String> = params
        .iter()
        .filter(|(k, _)| k != "steps")
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    Some(Plot {
        title: format!(
            "{result}: μ against {}",
            if cyclic { "epochs" } else { "steps" }
        ),
        caption: Some(at.join(" ")),
        x_label: if cyclic { "epochs E" } else { "steps t" }.into(),
        y_label: "μ".into(),
        series: vec![
            Series::new("closed form", closed),
            Series::new("schedule optimum (certified)", opt),
        ],
    })
}

/// The comparable size of a bound: μ for GDP bounds, ε at δ otherwise (certified upper).
fn size_of(b: &Bound, delta: f64) -> Result<f64> {
    match &b.kind() {
        BoundKind::Gdp { mu } => Ok(mu.upper_f64()),
        _ => {
            let d = Enclosure::from_f64(64, delta);
            let (c, _) = b.epsilon_with_tau(&d, Precision::F64)?;
            Ok(c.enclosure.upper_f64())
        }
    }
}

fn run_improves(
    result: &str,
    other: &str,
    check_id: &str,
    delta: f64,
    samples: Option<usize>,
    ctx: &Ctx,
) -> Outcome {
    let n = ctx.samples_or(samples.unwrap_or(10));
    let points = match region_points(check_id, n, ctx, "improves-on") {
        Ok(v) => v,
        Err(m) => return Outcome::error(m),
    };
    let mut run = 0;
    let mut ratios = vec![];
    for (params, setting) in points {
        let Ok(s) = setting else { continue };
        let (Some(Ok(a)), Some(Ok(b))) = (bound_named(&s, result), bound_named(&s, other)) else {
            continue;
        };
        let (mixed_a, mixed_b) = (a.mu().is_some(), b.mu().is_some());
        let (x, y) = if mixed_a && mixed_b {
            (size_of(&a, delta), size_of(&b, delta))
        } else {
            let force = |bd: &Bound| -> Result<f64> {
                let d = Enclosure::from_f64(64, delta);
                let (c, _) = bd.epsilon_with_tau(&d, Precision::F64)?;
                Ok(c.enclosure.upper_f64())
            };
            (force(&a), force(&b))
        };
        let (x, y) = match (x, y) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) | (_, Err(e)) => {
                return Outcome::error(format!("evaluating at {params:?}: {e}"));
            }
        };
        run += 1;
        ratios.push(x / y);
        if x > y * (1.0 + 1e-12) {
            return Outcome::fail(
                format!("{result} ≤ {other} at {run} points"),
                run,
                params,
                format!("{result}: {x:.12e} > {other}: {y:.12e}"),
            );
        }
    }
    if run == 0 {
        return Outcome::error(format!(
            "no point of the region where both {result} and {other} apply"
        ));
    }
    // the ratio is not a tightness ratio (bound over exact value): keep it in the text
    let r = ratio_summary(&ratios).map_or(String::new(), |(a, b, c)| {
        format!("; ratio {result}/{other} min {a:.4} median {b:.4} max {c:.4}")
    });
    Outcome::pass(format!("{result} ≤ {other} at {run} points{r}"), run)
}

/// Runs one obligation.
pub fn run_obligation(ob: &Obligation, ctx: &Ctx) -> Outcome {
    match ob {
        Obligation::DominatesInstances {
            check,
            samples,
            region,
        } => run_check(check, *samples, region, None, ctx),
        Obligation::ExactOnInstance {
            check,
            samples,
            region,
            tolerance,
        } => run_check(check, *samples, region, Some(*tolerance), ctx),
        Obligation::Schedule {
            result,
            relation,
            tolerance,
            samples,
        } => run_schedule(result, *relation, *tolerance, *samples, ctx),
        Obligation::ImprovesOn {
            result,
            other,
            check,
            delta,
            samples,
        } => run_improves(result, other, check, *delta, *samples, ctx),
        Obligation::Builtin { name } => match super::builtins::find(name) {
            Some(b) => {
                let c = Ctx {
                    seed: salted(ctx.seed, b.name),
                    ..*ctx
                };
                (b.run)(&c)
            }
            None => Outcome::error(format!("no builtin check named `{name}`")),
        },
        Obligation::Test { test, .. } => Outcome::pass(
            format!("not run by verify: covered by the cargo test `{test}`"),
            0,
        ),
    }
}

/// A proofs file that failed to parse, as a result with one error.
pub fn broken_file(path: &str, e: &Error) -> ResultRun {
    ResultRun {
        id: path.to_string(),
        title: "unreadable proofs file".into(),
        path: path.to_string(),
        statement: String::new(),
        runs: vec![ObligationRun {
            label: "parse".into(),
            kind: "parse".into(),
            outcome: Outcome::error(e.to_string()),
        }],
    }
}

/// Runs every obligation of the files in parallel; `tick` is called after each one.
pub fn run_files(
    files: &[std::result::Result<ProofFile, (String, Error)>],
    ctx: &Ctx,
    tick: &(dyn Fn(&str) + Sync),
) -> Vec<ResultRun> {
    // (file, obligation) pairs in file order; rayon's collect keeps that order
    let jobs: Vec<(&ProofFile, &Obligation)> = files
        .iter()
        .filter_map(|f| f.as_ref().ok())
        .flat_map(|p| p.obligations.iter().map(move |ob| (p, ob)))
        .collect();
    let outcomes: Vec<Outcome> = jobs
        .par_iter()
        .map(|&(p, ob)| {
            let o = run_obligation(ob, ctx);
            tick(&p.id);
            o
        })
        .collect();
    let mut outcomes = outcomes.into_iter();
    files
        .iter()
        .map(|f| match f {
            Err((path, e)) => broken_file(path, e),
            Ok(p) => ResultRun {
                id: p.id.clone(),
                title: p.title.clone(),
                path: p.path.clone(),
                statement: p.statement.clone(),
                runs: p
                    .obligations
                    .iter()
                    .map(|ob| ObligationRun {
                        label: ob.label(),
                        kind: ob.kind().to_string(),
                        outcome: outcomes.next().unwrap_or_else(|| Outcome::error("not run")),
                    })
                    .collect(),
            },
        })
        .collect()
}

/// The whole run over parsed files.
pub fn run_all(
    files: &[std::result::Result<ProofFile, (String, Error)>],
    ctx: &Ctx,
    tick: &(dyn Fn(&str) + Sync),
) -> Run {
    Run {
        seed: ctx.seed,
        samples: ctx.samples,
        bits: ctx.bits,
        results: run_files(files, ctx, tick),
    }
}
