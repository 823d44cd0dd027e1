//! proofs/ is part of the product: every BSA24 result the accountant reports has a proof
//! file with the fixed sections, and every test an obligation names exists.
use shiftdp::verify::proofs::SECTIONS;
use std::fs;
use std::path::Path;

fn file_for(id: &str) -> String {
    let base = id.split(" (").next().unwrap_or(id);
    format!("{}.md", base.to_lowercase().replace([' ', '.'], "-"))
}

fn all_sources() -> String {
    let mut acc = String::new();
    for dir in ["src", "tests", "cli/src", "cli/tests"] {
        let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)];
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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs");
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs");
    let mut checked = 0;
    for e in fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().is_some_and(|n| n == "README.md") {
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
    // ERRATA.md evidence records name tests too
    let errata =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ERRATA.md")).unwrap();
    for line in errata.lines() {
        if let Some(rest) = line.trim().strip_prefix("test = \"") {
            check_test_record(&sources, rest, "ERRATA.md");
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} obligations found");
}
