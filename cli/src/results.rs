//! `shiftdp results [ALGORITHM] [--json]`: the registry of published results the toolkit
//! implements ([`shiftdp::results::REGISTRY`]), in the order `compare` lists them.
//!
//! Per result: its id, paper, how its guarantee is stated (f-DP or RDP), the algorithms
//! whose runs it concerns, its proof file, whether it may be marked best, and how the
//! validator tests it: sampled against exact instances by `shiftdp check ID`, or the
//! reason it is not sampled ([`shiftdp_verify::check::how_tested`]).
//!
//! # Example
//! ```
//! use clap::Parser;
//! use shiftdp_cli::results::{ResultsArgs, run};
//! #[derive(Parser)]
//! struct Cli { #[command(flatten)] a: ResultsArgs }
//! let out = run(&Cli::parse_from(["x", "cgd", "--json"]).a);
//! let ids: Vec<&str> = out.json["results"].as_array().unwrap().iter()
//!     .map(|r| r["id"].as_str().unwrap()).collect();
//! assert_eq!(ids[..3], ["BSA24 Thm 4.4", "BSA24 Thm 4.5", "BSA24 Thm 4.6"]);
//! assert_eq!(out.json["results"][0]["tested_by"], "shiftdp check \"BSA24 Thm 4.4\"");
//! ```
use super::Output;
use super::setting::AlgorithmArg;
use serde_json::{Value, json};
use shiftdp::results::{PaperResult, REGISTRY};
use shiftdp::settings::Algorithm;
use shiftdp_verify::check::{Tested, how_tested};

/// Arguments of `shiftdp results`.
#[derive(Debug, Clone, clap::Args)]
pub struct ResultsArgs {
    /// Only the results that concern runs of this algorithm.
    pub algorithm: Option<AlgorithmArg>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// How the validator tests `r`: the `check` command that samples it, or why it is not
/// sampled.
fn tested_by(r: &PaperResult) -> String {
    match how_tested(r.id()) {
        Some(Tested::Sampled) => format!("shiftdp check \"{}\"", r.id()),
        Some(Tested::NotSampled(why)) => format!("not sampled: {why}"),
        None => "not sampled".to_string(),
    }
}

/// The registry, or the part of it that concerns `a.algorithm`.
pub fn run(a: &ResultsArgs) -> Output {
    let only = a.algorithm.map(Algorithm::from);
    let chosen: Vec<&PaperResult> = REGISTRY
        .iter()
        .filter(|r| only.is_none_or(|alg| r.algorithms().contains(&alg)))
        .collect();
    let rows: Vec<Value> = chosen
        .iter()
        .map(|r| {
            json!({
                "id": r.id().as_str(),
                "paper": r.id().paper().as_str(),
                "family": r.family().as_str(),
                "algorithms": r.algorithms().iter().map(Algorithm::name).collect::<Vec<_>>(),
                "proof_file": r.id().proof_file(),
                "eligible_for_best": r.eligible(),
                "tested_by": tested_by(r),
            })
        })
        .collect();
    let mut human = format!(
        "{} registry entries{}, in the order `shiftdp compare` lists them (one result may have an entry per kind of run)\n",
        chosen.len(),
        only.map_or(String::new(), |alg| format!(" for {} runs", alg.name()))
    );
    for r in &chosen {
        let algs: Vec<&str> = r.algorithms().iter().map(Algorithm::name).collect();
        human.push_str(&format!(
            "  {:<40} {:<5} {:<8} {}\n      {}\n",
            r.id().as_str(),
            r.family().as_str(),
            algs.join(","),
            r.id().proof_file().unwrap_or("(no proof file of its own)"),
            tested_by(r)
        ));
    }
    Output::new(
        "results",
        json!({ "algorithm": only.map(|alg| alg.name()), "results": rows }),
        human,
    )
}
