//! Every `--json` command's output validates against `schema/shiftdp-output.schema.json`
//! (schema v1): `schema_version` is 1 everywhere, every Interval has
//! lower ≤ upper, and no JSON float appears (reals are decimal strings).
use serde_json::Value;
use std::process::Command;

mod common;
use common::words;

fn schema() -> jsonschema::Validator {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../schema/shiftdp-output.schema.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let s: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft202012::new(&s).unwrap()
}

/// Runs `shiftdp ARGS --json` and returns the parsed output (exit status 0, or 1 for a
/// `check`/`verify` that found something: the JSON is printed either way).
fn run(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_shiftdp"))
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "{args:?}: exit {code}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// Walks the value: every object with `safe_end` has lower ≤ upper when both are present;
/// no JSON float anywhere.
fn check_tree(v: &Value, path: &str) {
    match v {
        Value::Object(m) => {
            if m.contains_key("safe_end")
                && let (Some(lo), Some(hi)) = (m["lower"].as_str(), m["upper"].as_str())
            {
                let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
                assert!(lo <= hi, "{path}: lower {lo} > upper {hi}");
            }
            for (k, x) in m {
                check_tree(x, &format!("{path}.{k}"));
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                check_tree(x, &format!("{path}[{i}]"));
            }
        }
        Value::Number(n) => assert!(n.is_u64() || n.is_i64(), "{path}: JSON float {n}"),
        _ => {}
    }
}

fn validate(v: &jsonschema::Validator, args: &[&str], command: &str) -> Value {
    let j = run(args);
    let errors: Vec<String> = v
        .iter_errors(&j)
        .map(|e| format!("{}: {e}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{args:?}:\n{}\n{j:#}", errors.join("\n"));
    assert_eq!(j["schema_version"], 1, "{args:?}");
    assert_eq!(j["command"], command, "{args:?}");
    check_tree(&j, "$");
    j
}

/// A gd run with m and M.
const GD: &str =
    "--n 100 --steps 10 --eta 0.1 --noise 1 --sensitivity 1 --strong-convexity 0.5 --smoothness 1";

#[test]
fn bound_and_compare_outputs_match_the_schema() {
    let v = schema();
    let j = validate(&v, &words(&format!("bound gd {GD}")), "bound");
    // the best entry is the top-level best, and the setting is structured
    let best = j["best"].as_str().unwrap();
    let marked: Vec<&Value> = j["bounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["best"] == true)
        .collect();
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0]["id"], best);
    assert!(marked[0]["mu"]["upper"].is_string());
    assert_eq!(j["setting"]["algorithm"], "gd");
    assert_eq!(j["setting"]["n"], 100);
    validate(
        &v,
        &words(
            "bound cgd --n 100 --batch 10 --epochs 2 --eta 0.1 --noise 1 --sensitivity 1 --contraction 0.9",
        ),
        "bound",
    );
    validate(
        &v,
        &words(
            "bound sgd --n 100 --batch 10 --steps 20 --eta 0.1 --noise 2 --sensitivity 1 --strong-convexity 0.5 --smoothness 1 --diameter 1",
        ),
        "bound",
    );
    validate(
        &v,
        &words(
            "bound lmc --steps 10 --eta 0.1 --sensitivity 1 --strong-convexity 0.5 --smoothness 1",
        ),
        "bound",
    );
    let j = validate(&v, &words(&format!("compare gd {GD}")), "compare");
    // compare reports μ as a field for GDP bounds (not only inside a string)
    let thm42 = j["bounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == "BSA24 Thm 4.2")
        .unwrap();
    assert!(thm42["mu"]["upper"].is_string());
}

#[test]
fn conversion_and_compose_outputs_match_the_schema() {
    let v = schema();
    validate(&v, &["epsilon", "--mu", "1", "--delta", "1e-5"], "epsilon");
    validate(&v, &["delta", "--mu", "1", "--epsilon", "1"], "delta");
    let j = validate(
        &v,
        &["compose", "--gaussian", "0.5 x4", "--delta", "1e-5"],
        "compose",
    );
    assert!(j["mu"]["upper"].is_string(), "Gaussian composition is GDP");
    validate(
        &v,
        &words("compose --poisson-gaussian 0.05 1 x10 --epsilon 1"),
        "compose",
    );
}

#[test]
fn calibrate_outputs_match_the_schema() {
    let v = schema();
    validate(
        &v,
        &words("calibrate poisson --q 0.05 --steps 10 --epsilon 1 --resolution 1e-1"),
        "calibrate poisson",
    );
    let j = validate(
        &v,
        &words(
            "calibrate run gd --n 1000 --steps 100 --eta 0.1 --sensitivity 2 --strong-convexity 0.5 --smoothness 1 --epsilon 1 --resolution 1e-1",
        ),
        "calibrate run",
    );
    let c = &j["results"][0]["calibration"];
    assert_eq!(c["id"], "BSA24 Thm 4.2");
    assert!(c["mu"]["upper"].is_string());
    assert!(c["setting"]["sigma"].as_str().is_some());
}

#[test]
fn schedule_exact_curve_outputs_match_the_schema() {
    let v = schema();
    validate(
        &v,
        &words(
            "schedule gd --n 10 --steps 20 --eta 0.1 --noise 1 --sensitivity 1 --contraction 0.9",
        ),
        "schedule",
    );
    validate(
        &v,
        &words(
            "exact gd --loss quadratic --contraction 0.99 --steps 100 --n 1 --sensitivity 0.1 --noise 1 --eta 1",
        ),
        "exact",
    );
    validate(
        &v,
        &words(
            "exact sgd --n 10 --batch 2 --steps 5 --loss linear --eta 1 --noise 1 --sensitivity 1",
        ),
        "exact",
    );
    validate(
        &v,
        &["curve", "gdp", "--mu", "1", "--points", "5"],
        "curve gdp",
    );
}

#[test]
fn reproduce_check_verify_outputs_match_the_schema() {
    let v = schema();
    validate(&v, &["reproduce", "table1"], "reproduce table1");
    validate(
        &v,
        &["reproduce", "renyi", "--cys21-k", "1", "--ys22-k", "1"],
        "reproduce renyi",
    );
    validate(&v, &["check", "thm-4.2", "--samples", "2"], "check");
    validate(&v, &["verify", "--list"], "verify");
    validate(
        &v,
        &words("verify --only at22/lemma-2-12-both-orders --samples 2"),
        "verify",
    );
}

#[test]
fn sampler_outputs_match_the_schema() {
    let v = schema();
    let j = validate(
        &v,
        &words(
            "sampler shuffle --n 1000 --batch 10 --epochs 2 --noise-multiplier 1 --relation replace-one",
        ),
        "sampler",
    );
    assert!(j["upper"]["epsilon"]["upper"].is_string());
    assert_eq!(j["lower"].as_array().map(Vec::len), Some(3));
    let j = validate(
        &v,
        &words(
            "sampler poisson --n 1000 --batch 10 --epochs 1 --noise-multiplier 1 --relation add-remove --delta 1e-10",
        ),
        "sampler",
    );
    assert_eq!(j["poisson_below_lower"], false);
    assert!(j["last_iterate"].is_null());
    let j = validate(
        &v,
        &words(
            "sampler shuffle-once --n 1000 --batch 100 --epochs 3 --noise-multiplier 1 --relation replace-one --eta 0.1 --strong-convexity 0.5 --smoothness 1 --tolerance 1e-2",
        ),
        "sampler",
    );
    assert_eq!(j["last_iterate"]["setting"]["algorithm"], "cgd");
    assert!(j["last_iterate"]["best"].is_string());
    let j = validate(
        &v,
        &words(
            "sampler shuffle --n 1000 --batch 100 --epochs 1 --noise-multiplier 1 --relation replace-one --eta 0.1",
        ),
        "sampler",
    );
    assert!(j["last_iterate"]["reason"].is_string());
}

#[test]
fn results_outputs_match_the_schema() {
    let v = schema();
    let all = validate(&v, &["results"], "results");
    let rows = all["results"].as_array().unwrap();
    assert_eq!(rows.len(), shiftdp::results::REGISTRY.len());
    for (row, r) in rows.iter().zip(shiftdp::results::REGISTRY) {
        assert_eq!(row["id"], r.id().as_str());
        assert_eq!(row["proof_file"].as_str(), r.id().proof_file());
    }
    let sgd = validate(&v, &["results", "sgd"], "results");
    let rows = sgd["results"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["id"] == "AT22 Thm 3.1"));
    assert!(
        rows.iter()
            .all(|r| r["algorithms"].as_array().unwrap().contains(&"sgd".into())),
        "{sgd:#}"
    );
}
