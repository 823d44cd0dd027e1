//! `shiftdp compose` at the limits of the engine: an address-space limit (`ulimit -v`)
//! ends in an answer or a one-line refusal (exit 2), never an allocator abort; a δ(ε)
//! below the floor is answered promptly with a note; a degenerate μ and the documented
//! floor are answered; the JSON carries the `reason`.
use serde_json::Value;
use std::process::Command;

mod common;
use common::{run, words};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_shiftdp")
}

/// Runs the binary under `ulimit -v KB` (bash), returning (exit code or −signal,
/// stdout, stderr).
fn run_limited(kb: u64, args: &[&str]) -> (i32, String, String) {
    let mut cmd = format!("ulimit -v {kb}; exec '{}'", bin());
    for a in args {
        cmd += &format!(" '{a}'");
    }
    let out = Command::new("bash").arg("-c").arg(cmd).output().unwrap();
    let code = out.status.code().unwrap_or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        -out.status.signal().unwrap_or(0)
    });
    (
        code,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ABORT_ROW: [&str; 9] = [
    "compose",
    "--gaussian",
    "0.02028x3",
    "--subsampled-gaussian",
    "0.999999",
    "0.0136",
    "x5283",
    "--delta",
    "1.497e-41",
];

/// The one-shot engine's transforms are under the memory guard: under an 8 GB
/// address space (with a 1 GiB limit, to stay fast) and under a 2 GB one (the guard
/// derives its limit from `ulimit -v`), an answer or a clean refusal.
#[test]
fn address_space_limit_gives_an_answer_or_a_clean_refusal() {
    let mut with_flag = ABORT_ROW.to_vec();
    with_flag.extend(["--memory-limit", "1G"]);
    for (kb, args) in [(8_000_000, with_flag), (2_000_000, ABORT_ROW.to_vec())] {
        let (code, out, err) = run_limited(kb, &args);
        assert!(
            code == 0 || (code == 2 && err.trim().lines().count() == 1),
            "ulimit -v {kb}: exit {code}\n{out}\n{err}"
        );
        if code == 0 {
            assert!(out.contains("is (ε, δ)-DP"), "{out}");
        }
    }
}

/// δ(ε) far below the floor: answered (the upper end is the truncation bound) with a
/// note, not refined for minutes.
#[test]
fn delta_below_the_floor_is_answered_with_a_note() {
    let (code, out, err) = run(&words(
        "compose --gaussian 1.51 --poisson-gaussian 0.0149395276156 0.357 x4514 --epsilon 92.455 --json",
    ));
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let up: f64 = v["delta"]["upper"].as_str().unwrap().parse().unwrap();
    assert!(up < 1e-100, "{v}");
    assert!(v["reason"].as_str().unwrap().contains("floor"), "{v}");
}

/// Degenerate μ, the floor typed as 1e-100, and few steps with a large ε: answered.
#[test]
fn ordinary_inputs_are_answered() {
    let (code, out, err) = run(&words(
        "compose --poisson-gaussian 0.1 5e-324 x5 --delta 1e-5",
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(0, δ)-DP") && out.contains("note:"), "{out}");
    for args in [
        words("--poisson-gaussian 0.1 1 x100 --delta 1e-100"),
        words("--poisson-gaussian 0.5 2 x10 --delta 1e-6"),
    ] {
        let mut a = vec!["compose"];
        a.extend(&args);
        let (code, out, err) = run(&a);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains("certified; true ε ∈"), "{out}");
    }
    // the JSON of an answer within the tolerance has a null reason
    let (code, out, _) = run(&words(
        "compose --poisson-gaussian 0.1 1 x10 --delta 1e-5 --json",
    ));
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["reason"].is_null(), "{v}");
}
