//! `shiftdp verify` end to end: the reduced run over proofs/ and ERRATA.md passes, claims
//! are judged correctly, and a broken obligation or evidence that no
//! longer reproduces fails the command.
use std::path::Path;
use std::process::Command;

mod common;
use common::by_id;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shiftdp"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    c
}

fn run_json(args: &[&str]) -> (i32, serde_json::Value) {
    let out = bin().args(args).output().expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

/// `shiftdp verify --claim CLAIM --setting SETTING [extra…] --json`.
fn claim(text: &str, setting: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec!["verify", "--claim", text, "--setting", setting];
    args.extend_from_slice(extra);
    args.push("--json");
    run_json(&args)
}

/// `shiftdp verify proofs/bsa24-cor-5-2.md --errata ERRATA [extra…] --samples 2 --json`.
fn verify_cor_5_2_with_errata(errata: &Path, extra: &[&str]) -> (i32, serde_json::Value) {
    let proofs =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("proofs/bsa24-cor-5-2.md");
    let mut args = vec![
        "verify",
        proofs.to_str().unwrap(),
        "--errata",
        errata.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.extend(["--samples", "2", "--json"]);
    run_json(&args)
}

/// Writes `text` to `dir/name` and runs `shiftdp verify DIR --no-errata --json`.
fn verify_file(dir: &Path, name: &str, text: &str) -> (i32, serde_json::Value) {
    std::fs::write(dir.join(name), text).unwrap();
    run_json(&["verify", dir.to_str().unwrap(), "--no-errata", "--json"])
}

/// The ids of a `verify --json` run's results, in order.
fn result_ids(v: &serde_json::Value) -> Vec<&str> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect()
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("shiftdp-verify-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn reduced_verify_of_all_proofs_and_errata_passes_and_writes_a_report() {
    let dir = tmpdir("report");
    let rep = dir.join("r");
    // the default run: every file of proofs/ and every ERRATA.md entry
    let mut args: Vec<String> = ["verify", "--samples", "2", "--json", "--report"]
        .map(String::from)
        .to_vec();
    args.push(rep.display().to_string());
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, v) = run_json(&argv);
    let failing: Vec<String> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] != "pass")
        .map(|r| format!("{}: {}", r["id"], r["obligations"]))
        .collect();
    assert!(failing.is_empty(), "failing results: {failing:#?}");
    assert_eq!(code, 0);
    assert_eq!(v["status"], "pass");
    // every proofs file and every ERRATA entry is in the run
    let ids = result_ids(&v);
    let nproofs =
        std::fs::read_dir(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("proofs"))
            .unwrap()
            .filter(|e| {
                let p = e.as_ref().unwrap().path();
                p.extension().is_some_and(|x| x == "md") && !p.ends_with("README.md")
            })
            .count();
    assert!(ids.iter().filter(|i| !i.starts_with("ERRATA")).count() >= nproofs);
    for key in [
        "ERRATA BSA1",
        "ERRATA CYS1",
        "ERRATA YS1",
        "ERRATA AT1",
        "ERRATA SD1",
    ] {
        assert!(ids.contains(&key), "{key} missing from the run");
    }
    // an entry's title lists its earlier ids
    let title = by_id(&v["results"], "ERRATA BSA1")["title"]
        .as_str()
        .unwrap();
    assert!(title.contains("aliases E1, S1, X1"));
    let html = std::fs::read_to_string(rep.join("index.html")).unwrap();
    assert!(html.contains("BSA24 Thm 4.2") && html.contains("<svg"));
    assert!(rep.join("report.md").is_file());
}

#[test]
fn claim_acceptance_printed_halved_and_correct_thm_4_2() {
    let strong = |text: &str| claim(text, "gd-strong", &[]);
    let detail =
        |o: &serde_json::Value| o["counterexample"]["detail"].as_str().unwrap().to_string();
    // as printed: √ over the first factor only → above the schedule optimum
    let (code, v) = strong("mu = sqrt((1-c^t)/(1+c^t))*(1+c)/(1-c)*L/(n*sigma)");
    assert_eq!(code, 1);
    let obs = &v["results"][0]["obligations"];
    assert_eq!(
        obs[0]["status"], "pass",
        "the printed reading is sound: {obs}"
    );
    assert_eq!(obs[1]["status"], "fail");
    assert!(detail(&obs[1]).contains("ABOVE"));
    assert!(
        !obs[1]["counterexample"]["params"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    // halved: unsound, caught by an exact instance
    let (code, v) = strong("mu = sqrt((1-c^t)/(1+c^t)*(1+c)/(1-c))*L/(n*sigma)/2");
    assert_eq!(code, 1);
    let obs = &v["results"][0]["obligations"];
    assert_eq!(obs[0]["status"], "fail");
    assert!(detail(&obs[0]).contains("violated by the exact instance"));

    // the adopted reading passes both checks
    let (code, v) = strong("mu = sqrt((1-c^t)/(1+c^t)*(1+c)/(1-c))*L/(n*sigma)");
    assert_eq!(code, 0, "{v}");
    // and `<=` accepts a valid loose bound (composition) but not a too small one
    let (code, _) = strong("mu <= sqrt(t)*L/(n*sigma)");
    assert_eq!(code, 0);
    let (code, _) = strong("mu <= 0.9*L/(n*sigma)");
    assert_eq!(code, 1);
}

#[test]
fn claim_on_cyclic_and_stochastic_families_and_bad_input() {
    // Thm 4.5's closed form: a valid bound everywhere on cgd-strong (`<=` passes), but
    // equal to the worst-position optimum only for l ≥ 2 (ERRATA BSA8): the `=` claim's
    // counterexample has b = n
    let thm45 = "sqrt(1 + c^(2*l-2)*(1-c^2)/(1-c^l)^2*(1-c^(l*(E-1)))/(1+c^(l*(E-1))))*L/(b*sigma)";
    let (code, v) = claim(&format!("mu <= {thm45}"), "cgd-strong", &["--samples", "6"]);
    assert_eq!(code, 0, "{v}");
    let (code, v) = claim(&format!("mu = {thm45}"), "cgd-strong", &["--samples", "6"]);
    assert_eq!(code, 1, "{v}");
    let cex = &v["results"][0]["obligations"][1]["counterexample"]["params"];
    let get = |k: &str| {
        cex.as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == k)
            .unwrap()["value"]
            .clone()
    };
    assert_eq!(get("n"), get("batch"));
    // a stochastic family has instances only; a claim of 0 is unsound there
    let (code, v) = claim("mu = 0*L", "sgd", &["--samples", "2"]);
    assert_eq!(code, 1, "{v}");
    for bad in [
        vec!["verify", "--claim", "mu = sqrt(", "--setting", "gd"],
        vec!["verify", "--claim", "mu = q*L", "--setting", "gd"],
        vec!["verify", "--claim", "eps = L", "--setting", "gd"],
        vec!["verify", "--claim", "mu = L", "--setting", "nope"],
        vec!["verify", "--claim", "mu = L"],
        vec![
            "verify",
            "--claim",
            "mu = L",
            "--setting",
            "gd",
            "--region",
            "steps=5..1",
        ],
        vec!["verify", "--samples", "0"],
        vec!["verify", "no/such/dir"],
    ] {
        let out = bin().args(&bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{bad:?}: {err}"
        );
    }
}

#[test]
fn broken_obligations_and_stale_evidence_fail_the_command() {
    let dir = tmpdir("broken");
    // an obligation naming a builtin that does not exist, and an unknown kind
    let (code, v) = verify_file(
        &dir,
        "x-thm-1.md",
        "# X Thm 1 — demo\n## Statement\n## Hypotheses\n## Code\n## Rounding\n## Derivation\n## References\n## Obligations\n```toml\n[[obligation]]\nkind = \"builtin\"\nname = \"no/such\"\n```\n",
    );
    assert_eq!(code, 1);
    assert_eq!(v["results"][0]["status"], "error");
    let (code, v) = verify_file(
        &dir,
        "x-thm-1.md",
        "# X Thm 1 — demo\n## Statement\n## Obligations\n```toml\n[[obligation]]\nkind = \"wishful\"\n```\n",
    );
    assert_eq!(code, 1);
    assert_eq!(v["status"], "error");

    // ERRATA evidence that no longer reproduces: the adopted Thm 4.2 reading recorded
    // as failing
    let errata = dir.join("ERRATA.md");
    std::fs::write(
        &errata,
        "## E9. a stale entry\ntext\n```toml\n[[evidence]]\nentry = \"E9\"\nclaim = \"mu = sqrt((1-c^t)/(1+c^t)*(1+c)/(1-c))*L/(n*sigma)\"\nsetting = \"gd-strong\"\nexpect = \"fail\"\n```\n## E10. no evidence\ntext\n",
    )
    .unwrap();
    let (code, v) = verify_cor_5_2_with_errata(&errata, &[]);
    assert_eq!(code, 1);
    assert_eq!(by_id(&v["results"], "ERRATA E9")["status"], "fail");
    assert_eq!(by_id(&v["results"], "ERRATA E10")["status"], "error");
    assert_eq!(by_id(&v["results"], "BSA24 Cor 5.2")["status"], "pass");
}

#[test]
fn verify_is_deterministic_for_a_seed() {
    let args = [
        "verify",
        "--only",
        "thm 4.5",
        "--samples",
        "2",
        "--json",
        "--seed",
        "7",
    ];
    let [a, b] = [(); 2].map(|()| run_json(&args).1);
    assert_eq!(a, b);
    assert_eq!(a["results"].as_array().unwrap().len(), 1);
}

/// An exactness obligation stated outside the result's exact region fails and names the
/// sampled point farthest from ratio 1; on the stated region it passes. Prop 5.1 is the
/// t → ∞ limit, so at finite t it is strictly above the quadratic instance.
#[test]
fn exactness_obligation_fails_off_its_region_with_the_point() {
    let dir = tmpdir("exact");
    let file = |region: &str| {
        format!(
            "# X Prop 1 — probe\n## Statement\n## Hypotheses\n## Code\n## Rounding\n## Derivation\n## References\n## Obligations\n```toml\n[[obligation]]\nkind = \"exact-on-instance\"\ncheck = \"BSA24 Prop 5.1\"\ntolerance = 1e-6\nsamples = 4\n{region}\n```\n"
        )
    };
    let (code, v) = verify_file(&dir, "x-prop-1.md", &file("region = { steps = [5, 40] }"));
    assert_eq!(code, 1, "{v}");
    let ob = &v["results"][0]["obligations"][0];
    assert_eq!(ob["status"], "fail", "{ob}");
    let at = ob["counterexample"]["params"].to_string();
    assert!(
        at.contains("\"steps\""),
        "no parameter point reported: {ob}"
    );
    let (code, v) = verify_file(
        &dir,
        "x-prop-1.md",
        &file(
            "region = { eta = [0.5, 1.0], smoothness = [0.5, 1.0], strong-convexity = [0.3, 0.5], steps = [500, 2000] }",
        ),
    );
    assert_eq!(code, 0, "{v}");
}

#[test]
fn claims_are_compared_at_the_certified_precision_with_their_margin() {
    let certified = |v: &serde_json::Value| -> serde_json::Value {
        v["results"][0]["obligations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["kind"] == "claim-certified")
            .cloned()
            .unwrap_or_else(|| panic!("no certified obligation: {v}"))
    };
    let exact = "sqrt(t)*L/(n*sigma)";
    let claim_gd = |text: String| claim(&text, "gd", &["--samples", "4"]);
    let (code, v) = claim_gd(format!("mu = {exact}"));
    assert_eq!(code, 0, "{v}");
    let o = certified(&v);
    assert_eq!(o["status"], "pass");
    let m: f64 = o["min_margin"].as_str().unwrap().parse().unwrap();
    assert!(m.abs() < 1e-30, "{m}");
    // 1e-18 and 1e-30 below the exact value: certainly below, with the margin
    for k in [18, 30] {
        let (code, v) = claim_gd(format!("mu = {exact}*(1-1e-{k})"));
        assert_eq!(code, 1, "1e-{k}: {v}");
        let o = certified(&v);
        assert_eq!(o["status"], "fail");
        let m: f64 = o["min_margin"].as_str().unwrap().parse().unwrap();
        let want = -(10f64.powi(-k));
        assert!((m / want - 1.0).abs() < 1e-6, "{m}");
        assert!(
            o["counterexample"]["detail"]
                .as_str()
                .unwrap()
                .contains("BELOW"),
            "{o}"
        );
        // `<=` a hair above the exact value passes, a hair below fails
        assert_eq!(claim_gd(format!("mu <= {exact}*(1+1e-{k})")).0, 0);
        assert_eq!(claim_gd(format!("mu <= {exact}*(1-1e-{k})")).0, 1);
    }
    // the text names the margin
    let out = bin()
        .args([
            "verify",
            "--claim",
            &format!("mu = {exact}*(1-1e-18)"),
            "--setting",
            "gd",
            "--samples",
            "4",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("relative -1.000e-18"), "{text}");
}

#[test]
fn errata_evidence_file_beside_the_errata_is_read_and_aliases_resolve() {
    // the project's ERRATA: an old id selects its merged entry
    let (code, v) = run_json(&["verify", "--only", "errata S1", "--samples", "2", "--json"]);
    assert_eq!(code, 0, "{v}");
    let ids = result_ids(&v);
    assert_eq!(ids, ["ERRATA BSA1"]);
    // a file of one's own: the records in errata/evidence.toml beside it, keyed by alias
    let dir = tmpdir("errata-evidence");
    std::fs::create_dir_all(dir.join("errata")).unwrap();
    let errata = dir.join("ERRATA.md");
    std::fs::write(
        &errata,
        "# Index\n<a id=\"x1\"></a>\n## X1. printed Thm 4.2\nAliases: E9\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("errata/evidence.toml"),
        "[[evidence]]\nentry = \"E9\"\nclaim = \"mu = sqrt((1-c^t)/(1+c^t))*(1+c)/(1-c)*L/(n*sigma)\"\nsetting = \"gd-strong\"\nexpect = \"fail\"\n",
    )
    .unwrap();
    let (code, v) = verify_cor_5_2_with_errata(&errata, &["--only", "errata e9"]);
    assert_eq!(code, 0, "{v}");
    let r = &v["results"][0];
    assert_eq!(r["id"], "ERRATA X1");
    assert_eq!(r["status"], "pass");
    assert_eq!(r["obligations"][0]["kind"], "errata-claim");
    // a record naming an id that no entry has is an error
    std::fs::write(
        dir.join("errata/evidence.toml"),
        "[[evidence]]\nentry = \"E10\"\nnote = \"n\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shiftdp"))
        .args(["verify", "--errata", errata.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("E10"));
}

/// A claim about a batch sampler: the moments-accountant rule of thumb
/// `2q√(S ln(1/δ))/σ` (a Poisson asymptotic) is refuted for shuffled batches with the
/// first counterexample, the no-amplification Gaussian bound passes, and misuse is a
/// clear error (exit 2).
#[test]
fn sampler_claims_are_refuted_or_pass() {
    let region = "sigma=0.5,2 E=1,2 T=10 delta=1e-5";
    let claim = |text: &str, sampler: &str| {
        run_json(&[
            "verify",
            "--claim",
            text,
            "--sampler",
            sampler,
            "--region",
            region,
            "--json",
        ])
    };
    let (code, v) = claim("epsilon <= 2*q*sqrt(S*ln(1/delta))/sigma", "shuffle");
    assert_eq!(code, 1, "{v}");
    let o = &v["results"][0]["obligations"][0];
    assert_eq!(o["status"], "fail");
    let cx = &o["counterexample"];
    let params: Vec<_> = cx["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["value"].clone())
        .collect();
    // the first point of the grid: σ = 0.5, E = 1, T = 10
    assert_eq!(
        params[..3],
        [
            serde_json::json!("0.5"),
            serde_json::json!("1"),
            serde_json::json!("10")
        ]
    );
    // the claim there, written out: 2·(1/10)·√(10·ln 1e5)/0.5
    let at = 2.0 * 0.1 * (10.0 * 1e5f64.ln()).sqrt() / 0.5;
    assert!(
        cx["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("{:.4}", at)[..5]),
        "{cx}"
    );

    let (code, v) = claim(
        "epsilon <= E/(2*sigma^2) + sqrt(2*E*ln(1/delta))/sigma",
        "shuffle",
    );
    assert_eq!(code, 0, "{v}");
    let summary = v["results"][0]["obligations"][0]["summary"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        summary.contains("implied by the certified upper bound at 4"),
        "{summary}"
    );

    for (args, what) in [
        (
            vec!["--claim", "mu <= 1", "--sampler", "shuffle"],
            "epsilon",
        ),
        (
            vec!["--claim", "epsilon <= L", "--sampler", "shuffle"],
            "unknown variable",
        ),
        (
            vec![
                "--claim",
                "epsilon <= 1",
                "--sampler",
                "shuffle",
                "--relation",
                "add-remove",
            ],
            "n fixed",
        ),
        (
            vec![
                "--claim",
                "epsilon <= 1",
                "--sampler",
                "shuffle",
                "--region",
                "T=0",
            ],
            "integer ≥ 1",
        ),
        (
            vec!["--claim", "epsilon <= 1", "--sampler", "dealt"],
            "unknown sampler",
        ),
        (vec!["--sampler", "shuffle"], "--claim"),
    ] {
        let mut a = vec!["verify"];
        a.extend(args);
        let out = bin().args(&a).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{a:?}: {err}");
        assert!(err.contains(what), "{a:?}: {err}");
    }
}
