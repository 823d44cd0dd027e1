//! `shiftdp plot …` with the plot's own defaults: every subcommand, for every algorithm
//! it accepts, exits 0 and writes an SVG and a PNG of reasonable size; `--epochs` and
//! `--log-y` change what is drawn.
use std::path::{Path, PathBuf};

mod common;
use common::{plot, words};

/// BSA24 Table 1's cgd run (n/b = 40 steps per epoch).
const TABLE1_CGD: &str =
    "--n 60000 --batch 1500 --eta 1 --noise 1 --sensitivity 1000 --contraction 0.9999";

/// Largest PNG accepted at the default size.
const PNG_LIMIT: u64 = 300_000;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shiftdp-plot-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The setting flags each algorithm needs (no plot flag). sgd's bounds are numerical
/// compositions at every point (seconds each): its run is kept short with `--steps 8`.
fn setting(alg: &str) -> Vec<&'static str> {
    let extra = match alg {
        "gd" => "--n 100 --noise 1",
        "cgd" => "--n 100 --batch 10 --noise 1",
        "sgd" => "--n 100 --batch 10 --noise 1 --diameter 2 --steps 8",
        _ => "",
    };
    words("--eta 0.1 --sensitivity 1 --contraction 0.9")
        .into_iter()
        .chain(words(extra))
        .collect()
}

fn check_files(stem: &Path, what: &str) -> String {
    let png = std::fs::metadata(stem.with_extension("png"))
        .unwrap_or_else(|e| panic!("{what}: no PNG: {e}"))
        .len();
    assert!(
        (10_000..PNG_LIMIT).contains(&png),
        "{what}: PNG of {png} bytes"
    );
    std::fs::read_to_string(stem.with_extension("svg")).unwrap()
}

/// Runs `shiftdp args… --out stem`, asserting exit 0, and checks its files as
/// [`check_files`]: the SVG.
fn plot_files(args: &[&str], stem: &Path, what: &str) -> String {
    let (code, err) = plot(args, stem);
    assert_eq!(code, 0, "{what}: {err}");
    check_files(stem, what)
}

/// Runs `shiftdp args… --out stem`, asserting exit 2 with `what` in the error.
fn plot_refused(args: &[&str], stem: &Path, what: &str) {
    let (code, err) = plot(args, stem);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(err.contains(what), "{err}");
}

#[test]
fn every_plot_subcommand_works_with_its_defaults() {
    let d = dir("defaults");
    let kinds: &[(&str, &[&str])] = &[
        ("tradeoff", &["gd", "cgd", "lmc"]),
        ("epsilon-vs-steps", &["gd", "cgd", "sgd", "lmc"]),
        ("compare", &["gd", "cgd", "sgd", "lmc"]),
        ("schedule", &["gd", "cgd", "sgd"]),
    ];
    for (kind, algs) in kinds {
        for alg in *algs {
            let stem = d.join(format!("{kind}-{alg}"));
            let mut args = vec!["plot", kind, alg];
            args.extend(setting(alg));
            // the schedule problem needs its run length (and sgd its τ)
            match (*kind, *alg) {
                ("schedule", "sgd") => args.extend(["--tau", "4"]),
                ("schedule", _) => args.extend(["--steps", "30"]),
                _ => {}
            }
            plot_files(&args, &stem, &format!("plot {kind} {alg}"));
        }
    }
    let stem = d.join("sampler");
    let sampler = words("plot sampler --n 200 --batch 20 --noise-multiplier 1");
    plot_files(&sampler, &stem, "plot sampler");
    // the tradeoff plot draws μ-GDP curves: sgd (composed families) is not offered
    plot_refused(
        &["plot", "tradeoff", "sgd"],
        &d.join("x"),
        "possible values: gd, cgd, lmc",
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn cgd_tradeoff_defaults_to_whole_epochs() {
    // l = n/b = 40: none of the step counts 1, 5, 20, 100 is a whole number of epochs
    let d = dir("cgd-epochs");
    let stem = d.join("tradeoff");
    let s: Vec<&str> = ["plot", "tradeoff", "cgd"]
        .into_iter()
        .chain(words(TABLE1_CGD))
        .collect();
    let svg = plot_files(&s, &stem, "tradeoff cgd");
    assert!(svg.contains("Thm 4.5, E = 100 (μ ≤ "), "{svg}");
    assert!(svg.contains("E ∈ {1, 5, 20, 100}"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn compare_epochs_sets_the_x_axis() {
    let d = dir("epochs");
    let base: Vec<&str> = ["plot", "compare", "cgd"]
        .into_iter()
        .chain(words(TABLE1_CGD))
        .chain(["--points", "4"])
        .collect();
    let mut svgs = vec![];
    for e in ["5", "50"] {
        let stem = d.join(format!("e{e}"));
        let mut args = base.to_vec();
        args.extend(["--epochs", e]);
        let svg = plot_files(&args, &stem, "compare --epochs");
        assert!(svg.contains("epochs E"), "x axis in epochs");
        assert!(svg.contains(&format!("★ best at epochs E = {e}")), "{e}");
        svgs.push(svg);
    }
    assert_ne!(svgs[0], svgs[1]);
    // in steps, 50 epochs are 2000 steps
    let stem = d.join("steps");
    let mut args = base.to_vec();
    args.extend(["--epochs", "50", "--x", "steps"]);
    assert!(plot_files(&args, &stem, "compare --x steps").contains("★ best at steps t = 2000"));
    // the run length and --max together are refused
    let mut args = base.to_vec();
    args.extend(["--epochs", "50", "--max", "10"]);
    plot_refused(&args, &d.join("both"), "--max");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn log_y_draws_powers_of_ten() {
    let d = dir("log-y");
    let mut args = vec!["plot", "epsilon-vs-steps", "gd"];
    args.extend(setting("gd"));
    let (lin, log) = (d.join("lin"), d.join("log"));
    assert_eq!(plot(&args, &lin).0, 0);
    args.push("--log-y");
    assert_eq!(plot(&args, &log).0, 0);
    let (lin, log) = (check_files(&lin, "linear"), check_files(&log, "log"));
    // ε runs from about 0.01 to 0.5: the log axis has ticks at 1, 2, 5 × 10^k
    for t in ["0.01", "0.02", "0.05", "0.1", "0.2", "0.5"] {
        assert!(log.contains(&format!("\n{t}\n")), "tick {t} missing");
    }
    assert!(!lin.contains("\n0.02\n") && lin != log);
    let _ = std::fs::remove_dir_all(&d);
}
