//! `shiftdp check BOUND-ID|all [--samples N] [--seed S] [--region KEY=LO..HI,…] [--json]`:
//! the validator.
//!
//! Runs [`shiftdp_verify::check::check_bound`] for one bound (id matched case-insensitively, with
//! or without the `BSA24 ` prefix: `thm-4.2`, `4.2`, `prop-5.1`; the Rényi entries by
//! their ids, e.g. `"CYS21 Thm 2"`, `ys22-thm-4.3`, `"AT22 Prop 3.2"`) or for every entry
//! of the catalogue, and reports per bound: samples run, samples skipped because a
//! hypothesis failed or because `--region` made the point inadmissible, violations
//! (parameters, instance, grid point, margin), and the min / median / max tightness
//! ratio. `conversions` runs the conversion checks alone
//! ([`shiftdp_verify::check::conversions`]); `all` includes them unless `--region` is given.
//! `--region` overrides parameters of every entry's region
//! ([`shiftdp_verify::check::region`]); the JSON reports it as `region` (top level and per bound).
//!
//! The JSON field `violations` is the total number of certain violations (a JSON
//! integer); the binary must exit with status 1 when it is positive.
//!
//! # Errors
//! Unknown bound id, `--samples 0`, bad `--region` syntax ([`shiftdp::Error::Parse`]: the
//! binary prints one line and exits with status 2).
//!
//! # Example
//! ```
//! use clap::Parser;
//! use shiftdp_cli::check::{CheckArgs, run};
//! #[derive(Parser)]
//! struct Cli { #[command(flatten)] a: CheckArgs }
//! let cli = Cli::parse_from(["x", "thm-4.4", "--samples", "2", "--json"]);
//! let out = run(&cli.a).unwrap();
//! assert_eq!(out.json["violations"], 0);
//! assert_eq!(out.json["bounds"][0]["id"], "BSA24 Thm 4.4");
//! ```
//!
//! # References
//! BSA24 §4, Prop 5.1; docs/conventions.md §5.
use super::{Output, short};
use serde_json::{Value, json};
use shiftdp::error::Result;
use shiftdp::exact::Order;
use shiftdp_verify::check::{
    BoundReport, CheckOptions, catalogue, check_bound, conversions, find, parse_region,
};

/// Arguments of `shiftdp check`.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    /// Bound id (`thm-4.2`, `4.2`, `"BSA24 Thm 4.2"`, `prop-5.1`) or `all`.
    pub bound: String,
    /// Number of sampled parameter points per bound (default: per bound, ≤ ~10 s each).
    #[arg(long)]
    pub samples: Option<usize>,
    /// Seed of the deterministic sampler.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Region overrides `KEY=LO..HI[,KEY=LO..HI…]` or `KEY=V` (keys: steps, n, batch,
    /// epochs, eta, noise, sensitivity, smoothness, strong-convexity, diameter,
    /// contraction); redrawn after each entry's own draw.
    #[arg(long)]
    pub region: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

fn report_json(r: &BoundReport) -> Value {
    let t = r.tightness_summary();
    json!({
        "id": r.id,
        "region": r.region,
        "samples_run": r.samples_run,
        "skipped_hypothesis": r.skipped,
        "skipped_inadmissible": r.inadmissible,
        "region_overrides": r.overrides,
        "skip_reasons": r.skip_reasons,
        "instances": r.instances,
        "comparisons": r.comparisons,
        "inconclusive": r.inconclusive,
        "violations": r.violations.iter().map(|v| json!({
            "parameters": v.params.iter().map(|(k, x)| (k.to_string(), Value::String(x.clone()))).collect::<serde_json::Map<_, _>>(),
            "instance": v.instance,
            "kind": v.kind,
            "at": format!("{:e}", v.at),
            "order": if v.order == Order::Forward { "forward" } else { "reverse" },
            "bound": format!("{:e}", v.bound),
            "instance_value": format!("{:e}", v.instance_value),
            "instance_error": format!("{:e}", v.instance_error),
            "margin": format!("{:e}", v.margin),
        })).collect::<Vec<_>>(),
        "tightness": t.map(|(a, b, c)| json!({
            "min": format!("{a:e}"), "median": format!("{b:e}"), "max": format!("{c:e}"),
        })),
        "errors": r.errors,
    })
}

fn report_human(r: &BoundReport) -> String {
    let mut s = format!(
        "{}: {} samples run, {} skipped (hypothesis), {} instances, {} comparisons, {} violations, {} inconclusive\n",
        r.id,
        r.samples_run,
        r.skipped,
        r.instances,
        r.comparisons,
        r.violations.len(),
        r.inconclusive
    );
    if !r.overrides.is_empty() {
        s.push_str(&format!(
            "  region overrides: {}; {} point(s) inadmissible (skipped)\n",
            r.overrides.join(", "),
            r.inadmissible
        ));
    }
    if !r.skip_reasons.is_empty() {
        s.push_str(&format!("  skipped for: {}\n", r.skip_reasons.join("; ")));
    }
    if let Some((a, b, c)) = r.tightness_summary() {
        s.push_str(&format!(
            "  tightness (bound / largest instance): min {}, median {}, max {}\n",
            short(a),
            short(b),
            short(c)
        ));
    }
    for v in r.violations.iter().take(20) {
        let p: Vec<String> = v.params.iter().map(|(k, x)| format!("--{k} {x}")).collect();
        s.push_str(&format!(
            "  VIOLATION {} at {} ({:?}): bound {} vs instance {} ± {} (margin {}); {}; {}\n",
            v.kind,
            short(v.at),
            v.order,
            short(v.bound),
            short(v.instance_value),
            short(v.instance_error),
            short(v.margin),
            v.instance,
            p.join(" ")
        ));
    }
    if r.violations.len() > 20 {
        s.push_str(&format!(
            "  … {} more violations\n",
            r.violations.len() - 20
        ));
    }
    for e in &r.errors {
        s.push_str(&format!("  error: {e}\n"));
    }
    s
}

/// Runs `shiftdp check`. Returns `Ok` even when violations are found: the total is in
/// `json["violations"]` (an integer) and the caller turns a positive count into exit
/// status 1.
///
/// # Errors
/// Unknown bound id or `--samples 0` ([`shiftdp::Error::Parameter`]).
pub fn run(a: &CheckArgs) -> Result<Output> {
    let region = match &a.region {
        Some(r) => parse_region(r)?,
        None => vec![],
    };
    let id = a.bound.trim();
    let all = id.eq_ignore_ascii_case("all");
    let conversions_only = id.eq_ignore_ascii_case("conversions");
    let entries = if all {
        catalogue()
    } else if conversions_only {
        vec![]
    } else {
        vec![find(&a.bound)?]
    };
    let opts = CheckOptions {
        samples: a.samples,
        seed: a.seed,
        scale: 1.0,
        region,
    };
    let mut reports = vec![];
    let with_conversions = (all && opts.region.is_empty()) || conversions_only;
    let pb = super::progress_bar(
        (entries.len() + usize::from(with_conversions)) as u64,
        "bounds",
    );
    for e in &entries {
        if let Some(pb) = &pb {
            pb.set_message(e.id.as_str());
        }
        reports.push(check_bound(e, &opts)?);
        if let Some(pb) = &pb {
            pb.inc(1);
        }
    }
    // the conversion checks have no parameter region of a run: `--region` does not apply
    if with_conversions {
        if let Some(pb) = &pb {
            pb.set_message(conversions::CONVERSIONS_ID);
        }
        let n = a.samples.unwrap_or(conversions::DEFAULT_SAMPLES);
        reports.push(conversions::check_conversions(n, a.seed)?);
    }
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let total: usize = reports.iter().map(|r| r.violations.len()).sum();
    let errors: usize = reports.iter().map(|r| r.errors.len()).sum();
    let comparisons: usize = reports.iter().map(|r| r.comparisons).sum();
    let inconclusive: usize = reports.iter().map(|r| r.inconclusive).sum();
    let mut human: String = reports.iter().map(report_human).collect();
    human.push_str(&format!(
        "total: {} bound(s), {comparisons} comparisons, {total} violation(s), {inconclusive} inconclusive, {errors} error(s); seed {}\n",
        reports.len(),
        a.seed
    ));
    if inconclusive > 0 {
        human.push_str(
            "  (inconclusive: the bound and the instance's exact value agree to within the instance's stated numerical error, \
             e.g. a bound that is tight on that instance; neither a confirmation nor a violation)\n",
        );
    }
    let json = json!({
        "seed": a.seed,
        "region": opts.region.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
        "bounds": reports.iter().map(report_json).collect::<Vec<_>>(),
        "violations": total,
        "comparisons": comparisons,
        "inconclusive": inconclusive,
        "errors": errors,
    });
    Ok(Output::new("check", json, human))
}
