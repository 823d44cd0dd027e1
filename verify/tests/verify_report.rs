//! Tests of the `shiftdp verify` report writer: files, content, escaping, plots and
//! determinism on a synthetic run (pass, fail with a counterexample, error, plots).
use shiftdp_verify::report::{plot_svg, render_html, render_markdown, write_report};
use shiftdp_verify::{ObligationRun, Outcome, Plot, ResultRun, Run, Series, Status};
use std::path::PathBuf;

fn plot(title: &str) -> Plot {
    Plot {
        title: title.into(),
        caption: None,
        x_label: "steps t".into(),
        y_label: "μ".into(),
        series: vec![
            Series::new(
                "bound",
                (1..=20).map(|t| (t as f64, (t as f64).sqrt())).collect(),
            ),
            Series::new(
                "exact instance",
                (1..=20)
                    .map(|t| (t as f64, 0.9 * (t as f64).sqrt()))
                    .chain([(21.0, f64::NAN)])
                    .collect(),
            ),
        ],
    }
}

fn synthetic_run() -> Run {
    let pass = ResultRun {
        id: "BSA24 Thm 4.2".into(),
        title: "NoisyGD on strongly convex losses".into(),
        path: "proofs/bsa24-thm-4-2.md".into(),
        statement: "For 0 < η < 2/M,\n\nμ = √((1 − cᵗ)/(1 + cᵗ)·(1 + c)/(1 − c)) · L/(nσ)".into(),
        runs: vec![
            ObligationRun {
                label: "dominates-instances (BSA24 Thm 4.2)".into(),
                kind: "dominates-instances".into(),
                outcome: Outcome::pass("400 points, margin ≥ 0 & ratio < 1.3", 400)
                    .with_margin(0.0123)
                    .with_tightness(Some((1.0, 1.05, 1.29)))
                    .with_plot(plot("μ bound vs exact")),
            },
            ObligationRun {
                label: "schedule".into(),
                kind: "schedule".into(),
                outcome: Outcome::pass("64 schedules", 64)
                    .with_margin(3.5e-7)
                    .with_tightness(Some((1.0, 1.0, 1.01)))
                    .with_plot(plot("schedule optimum")),
            },
        ],
    };
    let fail = ResultRun {
        id: "claim".into(),
        title: "mu = sqrt(t)*L/(n*sigma)".into(),
        path: "<command line>".into(),
        statement: String::new(),
        runs: vec![ObligationRun {
            label: "claim <= exact".into(),
            kind: "claim".into(),
            outcome: Outcome::fail(
                "claimed μ < exact μ at 1 of 200 points | see counterexample",
                200,
                vec![
                    ("steps".into(), "12".into()),
                    ("c_param".into(), "0.987654321".into()),
                ],
                "μ_claim 0.51 < μ_instance 1.02",
            )
            .with_margin(-0.51),
        }],
    };
    let error = ResultRun {
        id: "ERRATA BSA1".into(),
        title: "BSA1. Thm 4.2 (§4.1) — root covers one factor (aliases E1, S1, X1)".into(),
        path: "ERRATA.md#bsa1".into(),
        statement: "Aliases: E1, S1, X1\n\n**Class:** wrong statement. **Where:** Thm 4.2.\n"
            .into(),
        runs: vec![ObligationRun {
            label: "builtin".into(),
            kind: "builtin".into(),
            outcome: Outcome::error("no builtin named \"bsa24/thm-4-2-printed\""),
        }],
    };
    // a second result with the same id (slugs must stay unique)
    let fail2 = ResultRun {
        id: "claim".into(),
        title: "second claim".into(),
        path: "<command line>".into(),
        statement: String::new(),
        runs: vec![ObligationRun {
            label: "claim".into(),
            kind: "claim".into(),
            outcome: Outcome::pass("ok", 3).with_plot(plot("second")),
        }],
    };
    Run {
        seed: 7,
        samples: Some(200),
        bits: 128,
        results: vec![pass, fail, error, fail2],
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "shiftdp-verify-report-{tag}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn writes_html_markdown_and_plot_files() {
    let dir = temp_dir("files");
    let run = synthetic_run();
    let files = write_report(&run, &dir).unwrap();
    assert_eq!(files.html, dir.join("index.html"));
    assert_eq!(files.markdown, dir.join("report.md"));
    assert!(files.html.is_file() && files.markdown.is_file());
    // 2 plots for the first result, 1 for the second "claim" (slug deduplicated)
    let names: Vec<String> = files
        .plots
        .iter()
        .map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "plots/bsa24-thm-4-2-0.svg",
            "plots/bsa24-thm-4-2-1.svg",
            "plots/claim-2-0.svg"
        ]
    );
    for p in &files.plots {
        let svg = std::fs::read_to_string(p).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{p:?}");
    }
    let md = std::fs::read_to_string(&files.markdown).unwrap();
    for n in &names {
        assert!(md.contains(&format!("]({n})")), "markdown links {n}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn html_contains_every_id_status_and_counterexample() {
    let run = synthetic_run();
    let html = render_html(&run);
    for id in ["BSA24 Thm 4.2", "claim", "ERRATA BSA1"] {
        assert!(html.contains(id), "{id}");
    }
    // overall and per-result badges
    assert_eq!(run.status(), Status::Error);
    assert!(html.contains("<title>shiftdp verify: ERROR</title>"));
    for s in ["PASS", "FAIL", "ERROR"] {
        assert!(
            html.contains(&format!("\">{s}</span>")),
            "badge {s} missing"
        );
    }
    // counterexample parameters and detail
    for p in [
        "steps",
        "12",
        "c_param",
        "0.987654321",
        "μ_claim 0.51 &lt; μ_instance 1.02",
    ] {
        assert!(html.contains(p), "{p}");
    }
    // the ERRATA findings table links the finding to its evidence section, with its class
    let idx = html
        .find("id=\"errata-index\"")
        .expect("ERRATA findings table");
    let table = &html[idx..idx + html[idx..].find("</table>").unwrap()];
    assert!(
        table.contains("<a href=\"#errata-bsa1\">BSA1</a>"),
        "{table}"
    );
    assert!(table.contains("<td>wrong statement</td>"), "{table}");
    assert!(
        table.contains("Thm 4.2 (§4.1) — root covers one factor"),
        "{table}"
    );
    assert!(html.contains("<section id=\"errata-bsa1\""));
    // summary row of the failing claim: 0/1 passed, worst margin −0.51
    assert!(html.contains("<a href=\"#claim\">claim</a>"));
    assert!(html.contains("0/1") && html.contains("-0.5100"));
    // aggregated tightness of the first result: min 1, median of (1.05, 1.0), max 1.29
    assert!(html.contains("1.0000 / 1.0250 / 1.2900"));
    // both claims have sections with distinct anchors
    assert!(html.contains("id=\"claim\"") && html.contains("id=\"claim-2\""));
    // self-contained: no external resources
    for bad in [
        "<script",
        "<link",
        "src=\"http",
        "href=\"http",
        "@import",
        "url(",
    ] {
        assert!(!html.contains(bad), "{bad}");
    }
}

#[test]
fn text_is_escaped() {
    let html = render_html(&synthetic_run());
    // '<' in a summary, a path and a label; '&' and '"' in summaries
    assert!(html.contains("claimed μ &lt; exact μ"));
    assert!(!html.contains("claimed μ < exact μ"));
    assert!(html.contains("&lt;command line&gt;"));
    assert!(!html.contains("<command line>"));
    assert!(html.contains("claim &lt;= exact"));
    assert!(html.contains("margin ≥ 0 &amp; ratio &lt; 1.3"));
    assert!(html.contains("no builtin named &quot;bsa24/thm-4-2-printed&quot;"));
    let md = render_markdown(&synthetic_run());
    // '|' must not split a Markdown table cell, '<' must not open a tag
    assert!(md.contains("200 points \\| see counterexample"));
    assert!(md.contains("&lt;command line&gt;") || md.contains("`<command line>`"));
    assert!(md.contains("c\\_param"));
}

#[test]
fn plots_are_inline_svg() {
    let run = synthetic_run();
    let html = render_html(&run);
    assert_eq!(html.matches("<svg").count(), 3);
    assert_eq!(html.matches("</svg>").count(), 3);
    // legend entries and axis labels are drawn
    for s in ["bound", "exact instance", "steps t", "μ bound vs exact"] {
        assert!(html.contains(s), "{s}");
    }
    // a plot without any finite point still renders
    let empty = Plot {
        title: "empty".into(),
        caption: None,
        x_label: "x".into(),
        y_label: "y".into(),
        series: vec![Series::new("nothing", vec![(f64::NAN, 1.0)])],
    };
    assert!(plot_svg(&empty).unwrap().contains("</svg>"));
}

#[test]
fn writing_twice_gives_identical_bytes() {
    let (a, b) = (temp_dir("det-a"), temp_dir("det-b"));
    let run = synthetic_run();
    let fa = write_report(&run, &a).unwrap();
    let fb = write_report(&run.clone(), &b).unwrap();
    let read = |p: &PathBuf| std::fs::read(p).unwrap();
    assert_eq!(read(&fa.html), read(&fb.html));
    assert_eq!(read(&fa.markdown), read(&fb.markdown));
    assert_eq!(fa.plots.len(), fb.plots.len());
    for (x, y) in fa.plots.iter().zip(&fb.plots) {
        assert_eq!(read(x), read(y));
    }
    // rewriting into the same directory is also stable
    let again = write_report(&run, &a).unwrap();
    assert_eq!(read(&again.html), read(&fb.html));
    std::fs::remove_dir_all(&a).unwrap();
    std::fs::remove_dir_all(&b).unwrap();
}

#[test]
fn markdown_has_summary_sections_and_counterexample() {
    let md = render_markdown(&synthetic_run());
    assert!(md.starts_with("# shiftdp verify\n"));
    assert!(md.contains("**Status: ERROR**"));
    assert!(md.contains(
        "4 results, 5 obligations (3 pass, 1 fail, 1 error) · seed 7 · samples 200 · 128 bits"
    ));
    assert!(md.contains("| [BSA24 Thm 4.2](#bsa24-thm-4-2) | ✅ pass | 2/2 |"));
    assert!(md.contains("### Counterexample: claim &lt;= exact"));
    assert!(md.contains("| steps | 12 |"));
    assert!(md.contains("> μ = √((1 − cᵗ)"));
}
