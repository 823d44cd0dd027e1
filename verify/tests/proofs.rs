//! proofs/ is part of the product: every BSA24 result the accountant reports has a proof
//! file with the fixed sections, and every test an obligation names exists.
use shiftdp_verify::proofs::SECTIONS;
use std::fs;
use std::path::Path;

/// The repository root (this crate lives in `verify/`).
fn repo_root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn file_for(id: &str) -> String {
    let base = id.split(" (").next().unwrap_or(id);
    format!("{}.md", base.to_lowercase().replace([' ', '.'], "-"))
}

fn all_sources() -> String {
    let mut acc = String::new();
    for dir in [
        "src",
        "tests",
        "verify/src",
        "verify/tests",
        "cli/src",
        "cli/tests",
    ] {
        let mut stack = vec![repo_root().join(dir)];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    acc.push_str(&fs::read_to_string(&p).unwrap());
                }
            }
        }
    }
    acc
}

#[test]
fn every_reported_result_has_a_complete_proof_file() {
    use shiftdp::bounds::{bsa24, bsa24_sgd};
    let ids = [
        bsa24::THM_4_1,
        bsa24::THM_4_2,
        bsa24::THM_4_3,
        bsa24::THM_4_4,
        bsa24::THM_4_5,
        bsa24::THM_4_6,
        bsa24_sgd::THM_4_8,
        bsa24_sgd::THM_4_9,
        bsa24_sgd::THM_4_10,
        bsa24::PROP_5_1,
        bsa24::COR_5_2_ETA,
        bsa24::COR_5_2_EXP,
        bsa24::COR_5_4_ETA,
        bsa24::COR_5_4_EXP,
    ];
    let dir = repo_root().join("proofs");
    for id in ids {
        let path = dir.join(file_for(id));
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{id}: missing {}", path.display()));
        for s in SECTIONS {
            assert!(text.contains(s), "{}: section {s} missing", path.display());
        }
        assert!(
            text.contains("```toml"),
            "{}: no obligations block",
            path.display()
        );
    }
    // the MT07 comparison is documented with Cor 5.4
    let cor54 = fs::read_to_string(dir.join("bsa24-cor-5-4.md")).unwrap();
    assert!(cor54.contains("MT07"));
}

/// A `test = "path::name"` record: the file at `path` (relative to the repository root)
/// must exist and define `fn name(`; a bare `name` must be defined somewhere.
fn check_test_record(sources: &str, record: &str, origin: &str) {
    let root = repo_root();
    let record = record.trim_end_matches('"');
    let name = record.rsplit("::").next().unwrap();
    match record.rsplit_once("::") {
        Some((path, _)) if path.ends_with(".rs") => {
            let text = fs::read_to_string(root.join(path)).unwrap_or_else(|_| {
                panic!("{origin}: names test file {path}, which does not exist")
            });
            assert!(
                text.contains(&format!("fn {name}(")),
                "{origin}: {path} does not define test {name}"
            );
        }
        _ => assert!(
            sources.contains(&format!("fn {name}(")),
            "{origin}: names test {name}, which does not exist"
        ),
    }
}

#[test]
fn every_obligation_names_an_existing_test() {
    let sources = all_sources();
    let dir = repo_root().join("proofs");
    let mut checked = 0;
    // the papers' results, the engine proofs (proofs/engine/) and the mechanisms'
    // (proofs/mechanisms/): not results of a paper, verify does not run them, their
    // tests must exist all the same
    let files = fs::read_dir(&dir)
        .unwrap()
        .chain(fs::read_dir(dir.join("engine")).unwrap())
        .chain(fs::read_dir(dir.join("mechanisms")).unwrap())
        .chain(fs::read_dir(dir.join("samplers")).unwrap());
    for e in files {
        let p = e.unwrap().path();
        if p.is_dir() || p.file_name().is_some_and(|n| n == "README.md") {
            continue;
        }
        let text = fs::read_to_string(&p).unwrap();
        for line in text.lines() {
            if let Some(rest) = line.trim().strip_prefix("test = \"") {
                check_test_record(&sources, rest, &p.display().to_string());
                checked += 1;
            }
        }
    }
    // the ERRATA evidence records name tests too
    let errata = fs::read_to_string(repo_root().join("errata/evidence.toml")).unwrap();
    for line in errata.lines() {
        if let Some(rest) = line.trim().strip_prefix("test = \"") {
            check_test_record(&sources, rest, "errata/evidence.toml");
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} obligations found");
}

/// Every proof file of proofs/mechanisms/ parses as `verify` reads proof files (heading,
/// the fixed sections, a toml block of obligations), and every obligation names a test.
#[test]
fn mechanism_proof_files_parse_and_name_tests() {
    use shiftdp_verify::proofs::{Obligation, proof_paths, read_proof};
    let dirs = [
        repo_root().join("proofs/mechanisms"),
        repo_root().join("proofs/samplers"),
    ];
    let files = proof_paths(&dirs).unwrap();
    assert!(files.len() >= 9, "only {} files", files.len());
    for f in files {
        let p = read_proof(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(!p.statement.is_empty(), "{}: empty statement", f.display());
        for o in &p.obligations {
            assert!(
                matches!(o, Obligation::Test { .. }),
                "{}: {} is not a test obligation",
                f.display(),
                o.label()
            );
        }
    }
}

/// The `Hk: text` labels of a proof file's Hypotheses section (a bullet may hold several,
/// separated by `; `).
fn proof_labels(path: &str) -> Vec<(String, String)> {
    let text = fs::read_to_string(repo_root().join(path)).unwrap();
    let section = text
        .split("## Hypotheses")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or_else(|| panic!("{path}: no Hypotheses section"));
    let mut out = vec![];
    for line in section.lines().filter_map(|l| l.strip_prefix("- ")) {
        for part in line.split("; ") {
            if let Some((key, body)) = part.split_once(':')
                && key.starts_with('H')
            {
                out.push((key.trim().to_string(), body.trim().to_string()));
            }
        }
    }
    out
}

/// Lower case, backticks dropped, cut at the first parenthesis: the label's statement.
fn statement(s: &str) -> String {
    let s = s.replace('`', "").to_lowercase();
    s.split(" (").next().unwrap_or("").trim().to_string()
}

/// Every hypothesis failure the BSA24 entry points raise names a label of the result's
/// proof file, with the same statement (one contains the other): the code and the proof
/// files cannot drift apart (so that "c < 1" is never H2 in one place and H3 in another).
#[test]
fn hypothesis_labels_agree_with_proof_files() {
    use shiftdp::bounds::{Bound, bsa24};
    use shiftdp::{Algorithm, Error, ResultId, Setting};
    type Entry = fn(&Setting) -> shiftdp::Result<Bound>;
    let gd = [
        ("n", "10"),
        ("steps", "50"),
        ("eta", "0.5"),
        ("noise", "1"),
        ("sensitivity", "1"),
    ];
    let cgd = [
        ("n", "40"),
        ("batch", "10"),
        ("eta", "0.5"),
        ("noise", "1"),
        ("sensitivity", "1"),
    ];
    // `result | setting | the hypothesis that must fail`; a setting is the algorithm
    // (gd and cgd start from the runs above, lmc from no flag) and `key=value` flags after
    // it, in order
    let cases = [
        "BSA24 Thm 4.1 | cgd epochs=2 | H0",
        "BSA24 Thm 4.2 | gd | H1",
        "BSA24 Thm 4.2 | gd strong-convexity=0 smoothness=1 | H1",
        "BSA24 Thm 4.2 | gd strong-convexity=0.1 smoothness=4 | H2",
        "BSA24 Thm 4.2 | gd contraction=1 | H3",
        "BSA24 Thm 4.3 | gd smoothness=1 | H1",
        "BSA24 Thm 4.3 | gd diameter=1 | H2",
        "BSA24 Thm 4.3 | gd diameter=1 contraction=1.5 | H2",
        "BSA24 Thm 4.3 | gd diameter=1 smoothness=8 | H2",
        "BSA24 Thm 4.3 | gd diameter=100 smoothness=1 | H3",
        "BSA24 Thm 4.4 | gd | H0",
        "BSA24 Thm 4.4 | cgd steps=6 | H5",
        "BSA24 Thm 4.5 | cgd epochs=2 | H1",
        "BSA24 Thm 4.5 | cgd epochs=2 contraction=1 | H3",
        "BSA24 Thm 4.5 | cgd steps=6 contraction=0.9 | H5",
        "BSA24 Thm 4.6 | cgd epochs=2 smoothness=1 | H1",
        "BSA24 Thm 4.6 | cgd epochs=2 diameter=1 | H2",
        "BSA24 Thm 4.6 | cgd epochs=2 diameter=1000 smoothness=1 | H3",
        "BSA24 Thm 4.6 | cgd steps=6 diameter=1 smoothness=1 | H5",
        "BSA24 Prop 5.1 | lmc steps=5 eta=0.1 sensitivity=1 smoothness=1 | H1",
        "BSA24 Prop 5.1 | lmc steps=5 eta=0.1 sensitivity=1 strong-convexity=1 | H2",
        "BSA24 Prop 5.1 | lmc steps=5 eta=1.5 sensitivity=1 strong-convexity=1 smoothness=1 | H3",
        // a --noise other than √(2/η): LMC's μ would ignore it (found by the long
        // validation run's tiny-σ corner: μ 0.084 reported where the run's exact μ is 0.908)
        "BSA24 Prop 5.1 | lmc steps=350 eta=0.734 noise=0.153 sensitivity=0.116 strong-convexity=1.119 smoothness=1.155 | H0",
        "BSA24 Cor 5.4 (π(η)) | lmc steps=350 eta=0.5 noise=1 sensitivity=0.1 diameter=1 smoothness=1 | H0",
    ];
    for case in cases {
        let [id, setting, want] = [0, 1, 2].map(|i| case.split(" | ").nth(i).unwrap());
        let id = ResultId::parse(id).unwrap_or_else(|| panic!("{case}: no result {id}"));
        let entry: Entry = match id {
            ResultId::Bsa24Thm4_1 => bsa24::thm_4_1,
            ResultId::Bsa24Thm4_2 => bsa24::thm_4_2,
            ResultId::Bsa24Thm4_3 => bsa24::thm_4_3,
            ResultId::Bsa24Thm4_4 => bsa24::thm_4_4,
            ResultId::Bsa24Thm4_5 => bsa24::thm_4_5,
            ResultId::Bsa24Thm4_6 => bsa24::thm_4_6,
            ResultId::Bsa24Prop5_1 => bsa24::prop_5_1,
            ResultId::Bsa24Cor5_4Eta => bsa24::cor_5_4_stationary,
            other => panic!("{case}: no entry point of {other} in this test"),
        };
        let mut words = setting.split(' ');
        let (alg, mut pairs) = match words.next() {
            Some("gd") => (Algorithm::Gd, gd.to_vec()),
            Some("cgd") => (Algorithm::Cgd, cgd.to_vec()),
            Some("lmc") => (Algorithm::Lmc, vec![]),
            _ => panic!("{case}: no algorithm"),
        };
        pairs.extend(words.map(|w| w.split_once('=').expect("key=value")));
        let s = Setting::from_pairs(alg, &pairs).unwrap_or_else(|e| panic!("{id}: {pairs:?}: {e}"));
        let hypothesis = match entry(&s) {
            Err(Error::Hypothesis { hypothesis, .. }) => hypothesis,
            other => panic!("{id} on {pairs:?}: expected {want} to fail, got {other:?}"),
        };
        let (key, body) = hypothesis
            .split_once(':')
            .unwrap_or_else(|| panic!("{hypothesis}: no label"));
        assert_eq!(key.trim(), want, "{id} on {pairs:?}: {hypothesis}");
        let path = id
            .proof_file()
            .unwrap_or_else(|| panic!("{id}: no proof file"));
        let labels = proof_labels(path);
        let proof = labels
            .iter()
            .find(|(k, _)| k == key.trim())
            .unwrap_or_else(|| panic!("{id}: label {key} is not in {path} ({labels:?})"));
        let (a, b) = (statement(body), statement(&proof.1));
        assert!(
            !a.is_empty() && (a.contains(&b) || b.contains(&a)),
            "{id}: code says {key}: {body:?}, {path} says {:?}",
            proof.1
        );
    }
}
