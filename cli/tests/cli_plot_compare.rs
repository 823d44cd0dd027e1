//! `shiftdp plot compare`: runs the binary, checks that the SVG and PNG exist and that
//! the SVG has a legend entry for every bound `shiftdp compare` reports as applicable.
mod common;
use common::{json, plot, run, words};

#[test]
fn plot_compare_writes_svg_and_png_with_every_applicable_bound() {
    let dir = std::env::temp_dir().join(format!("shiftdp-plot-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stem = dir.join("cmp");
    let flags = "--n 50 --eta 0.1 --noise 1 --sensitivity 1 --contraction 0.98 --diameter 2";
    let (code, err) = plot(
        &words(&format!(
            "plot compare gd {flags} --delta 1e-5 --max 40 --points 5"
        )),
        &stem,
    );
    assert_eq!(code, 0, "{err}");
    let svg_path = stem.with_extension("svg");
    let png_path = stem.with_extension("png");
    assert!(svg_path.exists() && png_path.exists());
    assert!(std::fs::metadata(&png_path).unwrap().len() > 1000);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    // every applicable row of `compare` at the largest x is a legend label
    let j = json(&words(&format!(
        "compare gd {flags} --steps 40 --delta 1e-5 --json"
    )));
    let rows = j["bounds"].as_array().unwrap();
    let mut n = 0;
    for r in rows
        .iter()
        .filter(|r| r["applicable"].as_bool() == Some(true))
    {
        let label = format!(
            "{} [{} {}]",
            r["id"].as_str().unwrap(),
            r["paper"].as_str().unwrap(),
            r["kind"].as_str().unwrap()
        );
        let esc = label
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(svg.contains(&esc), "legend label {label:?} missing");
        n += 1;
    }
    assert!(n >= 3, "only {n} applicable bounds");
    // the best bound at the largest x is marked, and the envelope is drawn
    let best = j["best"].as_str().unwrap();
    assert!(svg.contains("★ best at steps t = 40"));
    assert!(svg.contains(best));
    assert!(svg.contains("best valid bound (lower envelope)"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn plot_compare_rejects_bad_grid() {
    let (code, _, _) = run(&words(
        "plot compare gd --n 50 --eta 0.1 --noise 1 --sensitivity 1 --contraction 0.98 --max 0",
    ));
    assert_ne!(code, 0);
}
