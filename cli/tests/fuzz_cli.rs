//! Bounded fuzzing of the command line: argument vectors for every numeric
//! command, each flag drawn mostly from plausible values and sometimes from the extremes
//! (0, negative, subnormal, 1e±400, NaN/inf spellings, huge integers, empty, garbage).
//! Property: the command exits 0 with no NaN in its output, or exits 2 with one error line
//! — never a panic, an abort or another status. The longer run is
//! `scripts/fuzz-cli.py SEED N` (same grammar).
use proptest::prelude::*;
use std::process::Command;

const EXTREME: &[&str] = &[
    "0",
    "-1",
    "1e-300",
    "1e400",
    "nan",
    "inf",
    "-inf",
    "",
    "abc",
    "5e-324",
    "18446744073709551616",
    "-0",
    "0x10",
    "1e-20",
    "1e6",
];

/// Plausible values of a flag (the extremes are drawn for any flag).
fn plausible(flag: &str) -> &'static [&'static str] {
    match flag {
        "--mu" => &["0.1", "1", "3", "50", "1e-8", "3e4"],
        "--delta" => &["1e-5", "1e-20", "1e-100", "0.5", "1e-300"],
        "--epsilon" => &["0.1", "1", "5", "50"],
        "--n" => &["1", "4", "60"],
        "--steps" => &["1", "10", "100"],
        "--eta" => &["0.1", "1", "0.01"],
        "--noise" => &["1", "0.1", "10", "1e-3"],
        "--sensitivity" => &["1", "0.1", "1000"],
        "--contraction" => &["0.5", "0.9999", "1", "0"],
        "--batch" => &["1", "2", "15"],
        "--epochs" => &["1", "2", "5"],
        "--smoothness" => &["1", "0.5"],
        "--strong-convexity" => &["0.1", "0.5"],
        "--diameter" => &["0.1", "1", "10"],
        "--points" => &["3", "11"],
        "--q" => &["0.01", "0.5", "1"],
        "--bits" => &["64", "256"],
        _ => &["0.5", "0.01", "1", "3"],
    }
}

/// Command templates, one a line, words separated by spaces; `?` is a value slot, filled
/// according to the flag before it.
const TEMPLATES: &[&str] = &[
    "epsilon --mu ? --delta ?",
    "epsilon --mu ? --delta ? --bits ?",
    "delta --mu ? --epsilon ?",
    "bound gd --n ? --steps ? --eta ? --noise ? --sensitivity ? --contraction ?",
    "bound cgd --n ? --batch ? --epochs ? --eta ? --noise ? --sensitivity ? --contraction ?",
    "bound gd --n ? --steps ? --eta ? --noise ? --sensitivity ? --smoothness ? --diameter ? --delta ?",
    "compare gd --n ? --steps ? --eta ? --noise ? --sensitivity ? --strong-convexity ? --smoothness ?",
    "compose --gaussian ? --delta ?",
    "compose --poisson-gaussian ? ? x3 --delta ?",
    "exact gd --n ? --steps ? --eta ? --noise ? --sensitivity ? --contraction ?",
    "schedule gd --n ? --steps ? --eta ? --noise ? --sensitivity ? --contraction ?",
    "curve gdp --mu ? --points ?",
];

fn argv() -> impl Strategy<Value = Vec<String>> {
    (
        0..TEMPLATES.len(),
        prop::collection::vec((0u8..10, any::<prop::sample::Index>()), 10),
    )
        .prop_map(|(t, picks)| {
            let mut out = vec![];
            let mut prev = "";
            let mut k = 0;
            for a in TEMPLATES[t].split(' ') {
                if a == "?" {
                    let (coin, ix) = &picks[k % picks.len()];
                    k += 1;
                    let pool = if *coin < 8 { plausible(prev) } else { EXTREME };
                    out.push(ix.get(pool).to_string());
                } else {
                    out.push(a.to_string());
                }
                prev = a;
            }
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_command_answers_or_refuses_in_one_line(args in argv()) {
        let out = Command::new(env!("CARGO_BIN_EXE_shiftdp")).args(&args).output().expect("runs");
        let (code, stdout, stderr) = (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        prop_assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        prop_assert!(code == Some(0) || code == Some(2), "{args:?}: exit {code:?}: {stderr}");
        if code == Some(0) {
            prop_assert!(!stdout.contains("NaN") && !stdout.contains(" nan"), "{args:?}: {stdout}");
        } else {
            prop_assert!(stderr.trim_end().lines().count() >= 1, "{args:?}: silent refusal");
        }
    }
}
