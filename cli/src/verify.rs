//! `shiftdp verify [PATH...] [--samples N] [--bits B] [--seed S] [--json] [--report DIR]
//! [--only TEXT] [--errata FILE] [--claim EXPR --setting FAMILY [--region R]]`.
//!
//! Runs every obligation of the proofs/ files (default: `proofs/`), the evidence of
//! every ERRATA.md entry (default: `ERRATA.md` beside the proofs directory, if present;
//! its records are read from `errata/evidence.toml` beside it when that file exists),
//! or — with `--claim` — a researcher's own bound, in parallel with a progress bar on a
//! terminal. The command exits 1 when any obligation fails or cannot be run
//! (`status` in the JSON is then `fail` or `error`).
//!
//! # Errors
//! Bad flags, a missing path, an unparsable claim: exit 2 with one `error:` line.
//!
//! # References
//! Issue 7; docs/conventions.md §5, §6.
use super::Output;
use serde_json::{Value, json};
use shiftdp::error::{Error, Result};
use shiftdp::samplers::{Relation, Sampler};
use shiftdp_verify::builtins;
use shiftdp_verify::check::region::parse_region;
use shiftdp_verify::claim::check_claim;
use shiftdp_verify::errata::{parse_errata, parse_errata_with_evidence, run_errata_with};
use shiftdp_verify::proofs::{proof_paths, read_proof};
use shiftdp_verify::run::run_files;
use shiftdp_verify::sampler_claim::{SamplerRegion, check_sampler_claim};
use shiftdp_verify::{Ctx, ObligationRun, Outcome, ResultRun, Run, Status};
use std::path::PathBuf;

/// Arguments of `shiftdp verify`.
#[derive(Debug, Clone, clap::Args)]
pub struct VerifyArgs {
    /// proofs files or directories (default: `proofs`).
    pub paths: Vec<PathBuf>,
    /// Sample count of every obligation (default: each obligation's own).
    #[arg(long)]
    pub samples: Option<usize>,
    /// MPFR precision of certified evaluations.
    #[arg(long, default_value_t = 128)]
    pub bits: u32,
    /// Seed of every sampler.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write index.html and report.md (with plots) to this directory.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Only results whose id contains this text (case-insensitive), or a builtin name;
    /// `errata ID` selects the ERRATA entry whose id or alias is ID (`errata S6`).
    #[arg(long)]
    pub only: Option<String>,
    /// ERRATA file whose evidence is checked (default: ERRATA.md beside proofs/).
    #[arg(long)]
    pub errata: Option<PathBuf>,
    /// Do not check ERRATA.md.
    #[arg(long)]
    pub no_errata: bool,
    /// A claim to check instead: `mu = EXPR` or `mu <= EXPR`.
    #[arg(long)]
    pub claim: Option<String>,
    /// Setting family of the claim (e.g. `gd-strong`, optionally with pins `steps=1000`).
    #[arg(long)]
    pub setting: Option<String>,
    /// A batch sampler the claim `epsilon <= EXPR` is about (instead of `--setting`):
    /// poisson, fixed-size, shuffle, shuffle-once, balls-in-bins,
    /// balls-in-bins-persistent; checked against its certified lower and upper bounds.
    #[arg(long)]
    pub sampler: Option<String>,
    /// Neighbouring relation of a `--sampler` claim.
    #[arg(long, default_value = "zero-out")]
    pub relation: String,
    /// Region overrides `key=lo..hi,key=value`; for `--sampler`, grid lists
    /// `sigma=0.5,1 E=1,10 T=10,100 b=100 delta=1e-5,1e-10`.
    #[arg(long)]
    pub region: Option<String>,
    /// Relative tolerance of `mu = EXPR` against the schedule optimum.
    #[arg(long, default_value_t = 1e-9)]
    pub tolerance: f64,
    /// List the builtin checks and exit.
    #[arg(long)]
    pub list: bool,
}

fn outcome_json(o: &Outcome) -> Value {
    json!({
        "status": o.status.as_str(),
        "summary": o.summary,
        "points": o.points,
        "min_margin": o.min_margin.map(super::dec),
        "tightness": o.tightness.map(|(a, b, c)| json!({"min": super::dec(a), "median": super::dec(b), "max": super::dec(c)})),
        "counterexample": o.counterexample.as_ref().map(|c| json!({
            "params": c.params.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
            "detail": c.detail,
        })),
    })
}

/// The JSON of a run.
pub fn run_json(run: &Run) -> Value {
    let count = |s: Status| {
        run.results
            .iter()
            .flat_map(|r| &r.runs)
            .filter(|o| o.outcome.status == s)
            .count()
    };
    json!({
        "status": run.status().as_str(),
        "seed": run.seed,
        "samples": run.samples,
        "bits": run.bits,
        "obligations": {"pass": count(Status::Pass), "fail": count(Status::Fail), "error": count(Status::Error)},
        "results": run.results.iter().map(|r| json!({
            "id": r.id,
            "title": r.title,
            "path": r.path,
            "status": r.status().as_str(),
            "obligations": r.runs.iter().map(|o| {
                let mut v = outcome_json(&o.outcome);
                v["label"] = json!(o.label);
                v["kind"] = json!(o.kind);
                v
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The human text of a run.
pub fn run_human(run: &Run) -> String {
    let mut s = String::new();
    for r in &run.results {
        let ok = r
            .runs
            .iter()
            .filter(|o| o.outcome.status == Status::Pass)
            .count();
        s.push_str(&format!(
            "{:<5} {}  ({ok}/{} obligations)\n",
            r.status().as_str().to_uppercase(),
            r.id,
            r.runs.len()
        ));
        // a claim's certified-precision margin, and what a builtin run by name found,
        // are printed whatever their status
        for o in r.runs.iter().filter(|o| {
            o.outcome.status == Status::Pass
                && matches!(o.kind.as_str(), "claim-certified" | "builtin")
        }) {
            s.push_str(&format!("      pass {}: {}\n", o.label, o.outcome.summary));
        }
        for o in r.runs.iter().filter(|o| o.outcome.status != Status::Pass) {
            s.push_str(&format!(
                "      {} {}: {}\n",
                o.outcome.status.as_str(),
                o.label,
                o.outcome.summary
            ));
            if let Some(c) = &o.outcome.counterexample {
                let p: Vec<String> = c.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                s.push_str(&format!(
                    "        at {}\n        {}\n",
                    p.join(" "),
                    c.detail
                ));
            }
        }
    }
    let all: Vec<&ObligationRun> = run.results.iter().flat_map(|r| &r.runs).collect();
    let n = |st: Status| all.iter().filter(|o| o.outcome.status == st).count();
    s.push_str(&format!(
        "verify: {} — {} results, {} obligations: {} pass, {} fail, {} error (seed {}, samples {}, {} bits)\n",
        run.status().as_str(),
        run.results.len(),
        all.len(),
        n(Status::Pass),
        n(Status::Fail),
        n(Status::Error),
        run.seed,
        run.samples.map_or("default".to_string(), |x| x.to_string()),
        run.bits
    ));
    s
}

/// Runs `shiftdp verify`.
///
/// # Errors
/// See the module documentation.
pub fn run(a: &VerifyArgs) -> Result<Output> {
    shiftdp::precision::Enclosure::check_bits(a.bits)?;
    if a.samples == Some(0) {
        return Err(Error::param("samples", 0, "must be ≥ 1"));
    }
    let ctx = Ctx {
        samples: a.samples,
        seed: a.seed,
        bits: a.bits,
    };
    if a.list {
        let list = builtins::registry();
        let human = list
            .iter()
            .map(|b| format!("{:<48} {}\n", b.name, b.about))
            .collect::<String>();
        // a listing is a success: `status` is what the command's exit code reads
        let json = json!({
            "list": true,
            "status": "pass",
            "builtins": list.iter()
                .map(|b| json!({"name": b.name, "about": b.about}))
                .collect::<Vec<_>>(),
        });
        return Ok(Output::new("verify", json, human));
    }
    let mut results: Vec<ResultRun> = vec![];
    if let (Some(claim), Some(sampler)) = (&a.claim, &a.sampler) {
        if a.setting.is_some() {
            return Err(Error::param(
                "setting",
                "given",
                "a claim is about a --setting family or a --sampler, not both",
            ));
        }
        let region = match &a.region {
            Some(r) => SamplerRegion::parse(r)?,
            None => SamplerRegion::default(),
        };
        let r = super::with_spinner("checking the claim over the sampler's grid", || {
            check_sampler_claim(
                claim,
                Sampler::parse(sampler)?,
                Relation::parse(&a.relation)?,
                &region,
                a.bits,
            )
        })?;
        results.push(r);
    } else if a.sampler.is_some() {
        return Err(Error::param(
            "sampler",
            "given",
            "--sampler applies to --claim",
        ));
    } else if let Some(claim) = &a.claim {
        let region = match &a.region {
            Some(r) => parse_region(r)?,
            None => vec![],
        };
        let setting = a
            .setting
            .as_deref()
            .ok_or_else(|| Error::param("setting", "missing", "--claim needs --setting FAMILY"))?;
        if !(a.tolerance.is_finite() && a.tolerance >= 0.0) {
            return Err(Error::param(
                "tolerance",
                a.tolerance,
                "must be finite and ≥ 0",
            ));
        }
        results.push(check_claim(claim, setting, &region, a.tolerance, &ctx)?);
    } else {
        if a.setting.is_some() || a.region.is_some() {
            return Err(Error::param(
                "setting",
                "given",
                "--setting and --region apply to --claim",
            ));
        }
        let paths = if a.paths.is_empty() {
            vec![default_proofs()?]
        } else {
            a.paths.clone()
        };
        let only = a.only.as_ref().map(|s| s.to_lowercase());
        // a builtin named exactly
        if let Some(name) = &a.only
            && let Some(b) = builtins::find(name)
        {
            let o = (b.run)(&Ctx {
                seed: shiftdp_verify::check::salted(ctx.seed, b.name),
                ..ctx
            });
            results.push(ResultRun {
                id: b.name.to_string(),
                title: b.about.to_string(),
                path: String::new(),
                statement: b.about.to_string(),
                runs: vec![ObligationRun {
                    label: format!("builtin {}", b.name),
                    kind: "builtin".into(),
                    outcome: o,
                }],
            });
        } else {
            let files: Vec<_> = proof_paths(&paths)?
                .iter()
                .map(|p| read_proof(p).map_err(|e| (p.display().to_string(), e)))
                .filter(|f| match (&only, f) {
                    (None, _) => true,
                    (Some(o), Ok(p)) => p.id.to_lowercase().contains(o.as_str()),
                    (Some(_), Err(_)) => true,
                })
                .collect();
            // ERRATA evidence
            let errata = if a.no_errata {
                None
            } else if let Some(p) = &a.errata {
                Some(p.clone())
            } else {
                let base = paths[0].canonicalize().ok().and_then(|p| {
                    if p.is_dir() {
                        p.parent().map(|q| q.to_path_buf())
                    } else {
                        p.parent().and_then(|q| q.parent()).map(|q| q.to_path_buf())
                    }
                });
                base.map(|b| b.join("ERRATA.md")).filter(|p| p.is_file())
            };
            let errata_entries = if let Some(path) = errata {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| Error::param("errata", path.display(), &e.to_string()))?;
                // the evidence records: errata/evidence.toml beside the ERRATA file
                let evidence = path
                    .parent()
                    .map(|d| d.join("errata").join("evidence.toml"))
                    .filter(|p| p.is_file());
                let entries = match evidence {
                    Some(ev) => {
                        let records = std::fs::read_to_string(&ev)
                            .map_err(|e| Error::param("errata", ev.display(), &e.to_string()))?;
                        parse_errata_with_evidence(&text, &records)?
                    }
                    None => parse_errata(&text)?,
                };
                // `--only "errata ID"` selects the entry whose key or alias is ID; any
                // other text selects the entries whose `errata KEY` contains it
                let entries: Vec<_> = entries
                    .into_iter()
                    .filter(|e| match only.as_deref() {
                        None => true,
                        Some(o) => match o.strip_prefix("errata ") {
                            Some(id) => e.answers_to(id),
                            None => format!("errata {}", e.key).to_lowercase().contains(o),
                        },
                    })
                    .collect();
                entries
            } else {
                Vec::new()
            };
            let total: usize = files
                .iter()
                .map(|f| f.as_ref().map_or(0, |p| p.obligations.len()))
                .sum();
            let total = total
                + errata_entries
                    .iter()
                    .map(|e| e.evidence.len().max(1))
                    .sum::<usize>();
            let pb = super::progress_bar(total as u64, "obligations");
            let tick = |id: &str| {
                if let Some(pb) = &pb {
                    pb.set_message(id.to_string());
                    pb.inc(1);
                }
            };
            results.extend(run_files(&files, &ctx, &tick));
            // the bar counts what the summary counts: obligations, ERRATA evidence included
            results.extend(run_errata_with(&errata_entries, &ctx, &|key, k| {
                if let Some(pb) = &pb {
                    pb.set_message(format!("ERRATA {key}"));
                    pb.inc(k as u64);
                }
            }));
            if let Some(pb) = pb {
                pb.finish_and_clear();
            }
        }
        if results.is_empty() {
            return Err(Error::param(
                "only",
                a.only.clone().unwrap_or_default(),
                "nothing matches",
            ));
        }
    }
    let run = Run {
        seed: a.seed,
        samples: a.samples,
        bits: a.bits,
        results,
    };
    let mut json = run_json(&run);
    let mut human = run_human(&run);
    if let Some(dir) = &a.report {
        let files = shiftdp_verify::report::write_report(&run, dir)?;
        json["report"] = json!(format!("{}", files.html.display()));
        human.push_str(&format!(
            "report: {} and {}\n",
            files.html.display(),
            files.markdown.display()
        ));
    }
    Ok(Output::new("verify", json, human))
}

/// The proofs directory when none is named: `./proofs`, else `$SHIFTDP_PROOFS`, else the
/// `proofs/` of the checkout this binary was built from (an installed binary run
/// elsewhere); otherwise an error that says how to point at it.
fn default_proofs() -> Result<PathBuf> {
    let here = PathBuf::from("proofs");
    let env = std::env::var_os("SHIFTDP_PROOFS").map(PathBuf::from);
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../proofs");
    [Some(here), env, Some(built)]
        .into_iter()
        .flatten()
        .find(|p| p.is_dir())
        .ok_or_else(|| {
            Error::param(
                "path",
                "proofs",
                "no proofs/ directory here, in $SHIFTDP_PROOFS or in the checkout this binary \
                 was built from: run from the repository root, set SHIFTDP_PROOFS, or name \
                 it (`shiftdp verify PATH/proofs`)",
            )
        })
}
