//! Helpers shared by the end-to-end tests of the `shiftdp` binary.
#![allow(dead_code)]
use serde_json::Value;
use shiftdp_verify::check::{BoundReport, CheckOptions, Entry, Violation, check_bound};
use std::path::Path;
use std::process::Command;

/// The words of a command line, split at white space (no word of it holds a space).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Runs the `shiftdp` binary with `args`: (exit code, −1 when a signal ended it; stdout;
/// stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shiftdp"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The one JSON object `shiftdp args` prints, the command exiting 0.
pub fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).expect("one JSON object")
}

/// Runs `shiftdp args… --out stem` (a plot command): (exit code, stderr).
pub fn plot(args: &[&str], stem: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shiftdp"))
        .args(args)
        .arg("--out")
        .arg(stem)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `shiftdp LINE --out stem` (a plot command, words as [`words`]), asserting exit 0:
/// the SVG it wrote.
pub fn plot_svg(line: &str, stem: &Path) -> String {
    let (code, err) = plot(&words(line), stem);
    assert_eq!(code, 0, "{line}: {err}");
    std::fs::read_to_string(stem.with_extension("svg")).unwrap()
}

/// The element of the JSON array `list` whose `id` is `id`.
pub fn by_id<'a>(list: &'a Value, id: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {list}"))
}

/// The row of result `id` in a `bound` / `compare` JSON output.
pub fn row<'a>(j: &'a Value, id: &str) -> &'a Value {
    by_id(&j["bounds"], id)
}

/// Options of `check_bound`: `samples` points drawn with `seed`, the bound scaled by
/// `scale`.
pub fn opts(samples: usize, seed: u64, scale: f64) -> CheckOptions {
    CheckOptions {
        samples: Some(samples),
        seed,
        scale,
        ..Default::default()
    }
}

/// Checks entry `e` at `samples` points drawn with `seed`: no error, every point run or
/// skipped, an instance for each point run, no violation, and every tightness ratio at
/// least `min_ratio`. The report.
pub fn assert_dominates(e: &Entry, samples: usize, seed: u64, min_ratio: f64) -> BoundReport {
    let rep = check_bound(e, &opts(samples, seed, 1.0)).unwrap();
    assert!(rep.errors.is_empty(), "{}: {:?}", e.id, rep.errors);
    assert_eq!(rep.samples_run + rep.skipped, samples, "{}", e.id);
    assert!(rep.instances >= rep.samples_run, "{}", e.id);
    assert!(
        rep.violations.is_empty(),
        "{}: {:?}",
        e.id,
        rep.violations.first()
    );
    for &t in &rep.tightness {
        assert!(t >= min_ratio, "{}: tightness {t}", e.id);
    }
    rep
}

/// The value of parameter `k` at violation `v`.
pub fn param(v: &Violation, k: &str) -> f64 {
    v.params
        .iter()
        .find(|p| p.0 == k)
        .unwrap_or_else(|| panic!("no parameter {k}"))
        .1
        .parse()
        .unwrap()
}
