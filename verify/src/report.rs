//! The report of a `shiftdp verify` run: one self-contained HTML page and the same
//! content in Markdown.
//!
//! [`write_report`] writes, into a directory,
//!
//! * `index.html` — a single file with inline CSS and the plots as inline SVG (no
//!   scripts, style sheets, fonts or network access), starting with a summary table
//!   (result id, status badge, obligations passed/total, worst margin, tightness
//!   min/median/max) followed by one section per result: id, title, source path,
//!   statement, the table of obligations, the counterexample of every failure and the
//!   plots;
//! * `report.md` — the same content in Markdown, the plots saved as
//!   `plots/<slug>-<i>.svg` and linked.
//!
//! The output is deterministic: the same [`Run`] gives byte-identical files (no
//! timestamps, run order kept, floats printed with a fixed format). All text of the run
//! is escaped (HTML entities; Markdown table cells additionally escape `|`).
//!
//! # Example
//! ```
//! use shiftdp_verify::{ObligationRun, Outcome, ResultRun, Run};
//! use shiftdp_verify::report::render_html;
//! let run = Run {
//!     seed: 1,
//!     samples: None,
//!     bits: 128,
//!     results: vec![ResultRun {
//!         id: "BSA24 Thm 4.2".into(),
//!         title: "NoisyGD, strongly convex".into(),
//!         path: "proofs/bsa24-thm-4-2.md".into(),
//!         statement: "μ = …".into(),
//!         runs: vec![ObligationRun {
//!             label: "dominates-instances".into(),
//!             kind: "dominates-instances".into(),
//!             outcome: Outcome::pass("200 points, margin > 0 <ok>", 200).with_margin(0.25),
//!         }],
//!     }],
//! };
//! let html = render_html(&run);
//! assert!(html.contains("BSA24 Thm 4.2") && html.contains("&lt;ok&gt;"));
//! assert_eq!(html, render_html(&run)); // deterministic
//! ```
use super::outcome::{ObligationRun, Outcome, Plot, ResultRun, Run, Status};
use crate::plot::{Chart, Layout, svg_string};
use shiftdp::error::{Error, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Paths of the files written by [`write_report`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportFiles {
    /// `DIR/index.html` (self-contained).
    pub html: PathBuf,
    /// `DIR/report.md`.
    pub markdown: PathBuf,
    /// `DIR/plots/<slug>-<i>.svg`, in report order.
    pub plots: Vec<PathBuf>,
}

/// Renders a plot as a standalone SVG document (a `String` starting with `<svg`), in the
/// report's layout ([`Layout::REPORT`], drawn by the crate's one backend, [`crate::plot`]).
///
/// # Errors
/// [`Error::Domain`] if plotters cannot lay the chart out.
///
/// # Example
/// ```
/// use shiftdp_verify::{Plot, Series};
/// use shiftdp_verify::report::plot_svg;
/// let p = Plot {
///     title: "μ vs steps".into(),
///     caption: None,
///     x_label: "steps".into(),
///     y_label: "μ".into(),
///     series: vec![Series::new("bound", vec![(1.0, 0.5), (2.0, 0.7)])],
/// };
/// let svg = plot_svg(&p).unwrap();
/// assert!(svg.starts_with("<svg") && svg.contains("bound"));
/// ```
pub fn plot_svg(plot: &Plot) -> Result<String> {
    let chart = Chart {
        title: plot.title.clone(),
        caption: plot.caption.clone(),
        x_label: plot.x_label.clone(),
        y_label: plot.y_label.clone(),
        series: plot.series.clone(),
        unit_square: false,
        log_y: false,
    };
    svg_string(&chart, &Layout::REPORT)
}

/// A statement of a proofs/ file as HTML maths: the text is escaped, `^{…}` and `_{…}`
/// (nested) and a single character after `^` or `_` become superscripts and subscripts,
/// and `` `…` `` spans become `<code>` (left as typed). The page sets statements in a
/// maths font; this is the whole of the notation the proofs/ files use.
fn math_html(s: &str) -> String {
    fn script(chars: &[char], mut i: usize, out: &mut String) -> usize {
        // chars[i] is '^' or '_'; returns the index after the script
        let tag = if chars[i] == '^' { "sup" } else { "sub" };
        i += 1;
        if i >= chars.len() || chars[i].is_whitespace() {
            out.push_str(&esc(&chars[i - 1].to_string()));
            return i;
        }
        out.push_str(&format!("<{tag}>"));
        if chars[i] == '{' {
            let mut depth = 1;
            let start = i + 1;
            let mut j = start;
            while j < chars.len() {
                match chars[j] {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            let inner: String = chars[start..j.min(chars.len())].iter().collect();
            out.push_str(&math_html(&inner));
            i = (j + 1).min(chars.len());
        } else {
            out.push_str(&esc(&chars[i].to_string()));
            i += 1;
        }
        out.push_str(&format!("</{tag}>"));
        i
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '`' => match chars[i + 1..].iter().position(|&c| c == '`') {
                Some(k) => {
                    let code: String = chars[i + 1..i + 1 + k].iter().collect();
                    out.push_str(&format!("<code>{}</code>", esc(&code)));
                    i += k + 2;
                }
                None => {
                    out.push('`');
                    i += 1;
                }
            },
            '^' | '_' if i > 0 && !chars[i - 1].is_whitespace() => i = script(&chars, i, &mut out),
            c => {
                out.push_str(&esc(&c.to_string()));
                i += 1;
            }
        }
    }
    out
}

/// `s` with `& < >` as HTML entities and every other character written by `other`.
fn escape_with(s: &str, other: impl Fn(char, &mut String)) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => other(c, &mut out),
        }
    }
    out
}

/// HTML-escapes `& < > " '`.
pub fn esc(s: &str) -> String {
    escape_with(s, |c, out| match c {
        '"' => out.push_str("&quot;"),
        '\'' => out.push_str("&#39;"),
        _ => out.push(c),
    })
}

/// Escapes text for a Markdown table cell (or inline text): HTML entities, Markdown
/// punctuation and `|`; newlines become `<br>`.
fn md(s: &str) -> String {
    escape_with(s, |c, out| match c {
        '|' => out.push_str("\\|"),
        '\\' | '*' | '_' | '`' | '[' | ']' => {
            out.push('\\');
            out.push(c);
        }
        '\n' => out.push_str("<br>"),
        '\r' => {}
        _ => out.push(c),
    })
}

/// A fixed, platform-independent number format: 4 decimals in [0.01, 10⁴), else
/// scientific with 3 decimals.
fn num(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        }
    } else if x == 0.0 {
        "0".into()
    } else if (0.01..1e4).contains(&x.abs()) {
        format!("{x:.4}")
    } else {
        format!("{x:.3e}")
    }
}

fn opt_num(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), num)
}

fn tight(t: Option<(f64, f64, f64)>) -> String {
    t.map_or_else(
        || "—".into(),
        |(a, b, c)| format!("{} / {} / {}", num(a), num(b), num(c)),
    )
}

/// Per-result aggregates shown in the summary table.
struct Summary {
    status: Status,
    passed: usize,
    total: usize,
    worst_margin: Option<f64>,
    /// (min of minima, median of medians, max of maxima) over the obligations.
    tightness: Option<(f64, f64, f64)>,
}

fn summarize(r: &ResultRun) -> Summary {
    let outs: Vec<&Outcome> = r.runs.iter().map(|o| &o.outcome).collect();
    let worst_margin = outs
        .iter()
        .filter_map(|o| o.min_margin)
        .reduce(|a, b| if b < a || b.is_nan() { b } else { a });
    let ts: Vec<(f64, f64, f64)> = outs.iter().filter_map(|o| o.tightness).collect();
    let tightness = (!ts.is_empty()).then(|| {
        let lo = ts.iter().map(|t| t.0).fold(f64::INFINITY, f64::min);
        let hi = ts.iter().map(|t| t.2).fold(f64::NEG_INFINITY, f64::max);
        let mut med: Vec<f64> = ts.iter().map(|t| t.1).collect();
        med.sort_by(f64::total_cmp);
        let m = if med.len() % 2 == 1 {
            med[med.len() / 2]
        } else {
            (med[med.len() / 2 - 1] + med[med.len() / 2]) / 2.0
        };
        (lo, m, hi)
    });
    Summary {
        status: r.status(),
        passed: outs.iter().filter(|o| o.status == Status::Pass).count(),
        total: outs.len(),
        worst_margin,
        tightness,
    }
}

/// Unique anchors/file stems from the result ids (`BSA24 Thm 4.2` → `bsa24-thm-4-2`;
/// repeated ids get `-2`, `-3`, …).
fn slugs(run: &Run) -> Vec<String> {
    let mut seen = BTreeSet::new();
    run.results
        .iter()
        .map(|r| {
            let mut s = String::new();
            for c in r.id.chars() {
                if c.is_ascii_alphanumeric() {
                    s.push(c.to_ascii_lowercase());
                } else if !s.ends_with('-') {
                    s.push('-');
                }
            }
            let base = s.trim_matches('-').to_string();
            let base = if base.is_empty() {
                "result".to_string()
            } else {
                base
            };
            let mut slug = base.clone();
            let mut k = 2;
            while !seen.insert(slug.clone()) {
                slug = format!("{base}-{k}");
                k += 1;
            }
            slug
        })
        .collect()
}

fn counts(run: &Run) -> (usize, usize, usize, usize) {
    let all: Vec<Status> = run
        .results
        .iter()
        .flat_map(|r| r.runs.iter().map(|o| o.outcome.status))
        .collect();
    let c = |s: Status| all.iter().filter(|&&x| x == s).count();
    (
        all.len(),
        c(Status::Pass),
        c(Status::Fail),
        c(Status::Error),
    )
}

fn badge(s: Status) -> String {
    format!(
        "<span class=\"badge {0}\">{1}</span>",
        s.as_str(),
        s.as_str().to_uppercase()
    )
}

fn md_badge(s: Status) -> String {
    match s {
        Status::Pass => "✅ pass".into(),
        Status::Fail => "❌ FAIL".into(),
        Status::Error => "⚠️ ERROR".into(),
    }
}

fn run_line(run: &Run) -> String {
    let (total, pass, fail, error) = counts(run);
    let samples = run
        .samples
        .map_or_else(|| "default".to_string(), |n| n.to_string());
    format!(
        "{} results, {total} obligations ({pass} pass, {fail} fail, {error} error) · seed {} · samples {samples} · {} bits",
        run.results.len(),
        run.seed,
        run.bits
    )
}

const CSS: &str = r#"
:root { --pass:#1a7f37; --fail:#cf222e; --error:#bc4c00; --line:#d0d7de; --muted:#57606a; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color:#1f2328; margin:0; padding:24px 32px 48px; max-width:1200px; }
h1 { font-size:1.7em; margin:0 0 4px; }
h2 { font-size:1.3em; margin:0 0 2px; }
h3 { font-size:1.05em; margin:18px 0 6px; }
a { color:#0969da; text-decoration:none; } a:hover { text-decoration:underline; }
.muted, .src { color:var(--muted); }
.src { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size:.85em; margin:0 0 8px; }
table { border-collapse:collapse; width:100%; margin:6px 0 12px; font-size:.92em; }
th, td { border:1px solid var(--line); padding:5px 8px; text-align:left; vertical-align:top; }
th { background:#f6f8fa; font-weight:600; }
td.num { text-align:right; font-variant-numeric: tabular-nums; white-space:nowrap; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; color:#fff; font-size:.78em;
  font-weight:700; letter-spacing:.04em; }
.badge.pass { background:var(--pass); } .badge.fail { background:var(--fail); }
.badge.error { background:var(--error); }
.overall { margin:0 0 14px; }
section { border:1px solid var(--line); border-left:6px solid var(--pass); border-radius:6px;
  padding:14px 18px; margin:18px 0; }
section.fail { border-left-color:var(--fail); } section.error { border-left-color:var(--error); }
pre.statement { white-space:pre-wrap; background:#f6f8fa; border:1px solid var(--line);
  border-radius:6px; padding:10px 12px; font-size:1em; margin:4px 0 8px;
  font-family:"STIX Two Math","Cambria Math","Latin Modern Math","DejaVu Serif",serif; }
pre.statement sup, pre.statement sub { font-size:.72em; }
pre.statement code { font-size:.85em; }
details > summary { cursor:pointer; color:var(--muted); }
.cex { background:#fff5f5; border:1px solid #f5c2c7; border-radius:6px; padding:8px 12px; margin:8px 0; }
.cex table { width:auto; min-width:40%; background:#fff; }
.cex .detail { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size:.88em; }
.plots { display:grid; grid-template-columns:repeat(auto-fill, minmax(480px, 1fr)); gap:12px; }
figure { margin:10px 0; } figure svg { max-width:100%; height:auto; border:1px solid var(--line); }
figcaption { color:var(--muted); font-size:.85em; }
.summary-text { max-width:520px; }
"#;

/// Renders the self-contained HTML page of a run (what `index.html` contains).
///
/// Plots that plotters cannot draw are replaced by a note; nothing else can fail.
pub fn render_html(run: &Run) -> String {
    let slugs = slugs(run);
    let status = run.status();
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    h.push_str(&format!(
        "<title>shiftdp verify: {}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        status.as_str().to_uppercase()
    ));
    h.push_str("<h1>shiftdp verify</h1>\n");
    h.push_str(&format!(
        "<p class=\"overall\">{} {}</p>\n",
        badge(status),
        esc(&run_line(run))
    ));
    // summary table
    h.push_str(
        "<table class=\"summary\">\n<thead><tr><th>Result</th><th>Status</th><th>Obligations passed</th>\
         <th>Worst margin</th><th>Tightness min / median / max</th></tr></thead>\n<tbody>\n",
    );
    for (r, slug) in run.results.iter().zip(&slugs) {
        let s = summarize(r);
        h.push_str(&format!(
            "<tr><td><a href=\"#{slug}\">{}</a></td><td>{}</td><td class=\"num\">{}/{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
            esc(&r.id),
            badge(s.status),
            s.passed,
            s.total,
            esc(&opt_num(s.worst_margin)),
            esc(&tight(s.tightness)),
        ));
    }
    h.push_str("</tbody>\n</table>\n");
    h.push_str(&errata_index_html(run, &slugs));
    // one section per result
    for (r, slug) in run.results.iter().zip(&slugs) {
        let st = r.status();
        h.push_str(&format!(
            "<section id=\"{slug}\" class=\"{}\">\n<h2>{} {}{}</h2>\n<p class=\"src\">{}</p>\n",
            st.as_str(),
            badge(st),
            esc(&r.id),
            if r.title.is_empty() {
                String::new()
            } else {
                format!(" — {}", esc(&r.title))
            },
            esc(&r.path)
        ));
        if !r.statement.trim().is_empty() {
            h.push_str(&format!(
                "<details open><summary>Statement</summary><pre class=\"statement\">{}</pre></details>\n",
                math_html(r.statement.trim())
            ));
        }
        h.push_str(&obligations_html(&r.runs));
        for o in &r.runs {
            if let Some(cx) = &o.outcome.counterexample {
                h.push_str(&format!(
                    "<div class=\"cex\">\n<h3>Counterexample: {}</h3>\n",
                    esc(&o.label)
                ));
                if !cx.params.is_empty() {
                    h.push_str(
                        "<table><thead><tr><th>Parameter</th><th>Value</th></tr></thead><tbody>\n",
                    );
                    for (k, v) in &cx.params {
                        h.push_str(&format!(
                            "<tr><td>{}</td><td class=\"num\">{}</td></tr>\n",
                            esc(k),
                            esc(v)
                        ));
                    }
                    h.push_str("</tbody></table>\n");
                }
                h.push_str(&format!(
                    "<p class=\"detail\">{}</p>\n</div>\n",
                    esc(&cx.detail)
                ));
            }
        }
        let plots = plots_of(r);
        if !plots.is_empty() {
            h.push_str("<div class=\"plots\">\n");
        }
        for (i, (label, p)) in plots.iter().enumerate() {
            let svg = plot_svg(p).unwrap_or_else(|e| {
                format!(
                    "<p class=\"muted\">plot not drawn: {}</p>",
                    esc(&e.to_string())
                )
            });
            h.push_str(&format!(
                "<figure id=\"{slug}-plot-{i}\">\n{svg}\n<figcaption>from {}</figcaption>\n</figure>\n",
                esc(label)
            ));
        }
        if !plots.is_empty() {
            h.push_str("</div>\n");
        }
        h.push_str("</section>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// The cells of an obligation's row in the obligations table: label, kind, status,
/// points, min margin, tightness and summary, the texts escaped by `text` and the status
/// shown by `badge`.
fn obligation_cells(
    o: &ObligationRun,
    text: fn(&str) -> String,
    badge: fn(Status) -> String,
) -> [String; 7] {
    let out = &o.outcome;
    [
        text(&o.label),
        text(&o.kind),
        badge(out.status),
        out.points.to_string(),
        text(&opt_num(out.min_margin)),
        text(&tight(out.tightness)),
        text(&out.summary),
    ]
}

fn obligations_html(runs: &[ObligationRun]) -> String {
    if runs.is_empty() {
        return "<p class=\"muted\">No obligations.</p>\n".into();
    }
    let mut h = String::from(
        "<table class=\"obligations\">\n<thead><tr><th>Obligation</th><th>Kind</th><th>Status</th>\
         <th>Points</th><th>Min margin</th><th>Tightness min / median / max</th><th>Summary</th></tr></thead>\n<tbody>\n",
    );
    for o in runs {
        let [label, kind, status, points, margin, tightness, summary] =
            obligation_cells(o, esc, badge);
        h.push_str(&format!(
            "<tr><td>{label}</td><td>{kind}</td><td>{status}</td><td class=\"num\">{points}</td><td class=\"num\">{margin}</td>\
             <td class=\"num\">{tightness}</td><td class=\"summary-text\">{summary}</td></tr>\n",
        ));
    }
    h.push_str("</tbody>\n</table>\n");
    h
}

/// The class an ERRATA entry states on its `**Class:** …` line, if any.
fn errata_class(statement: &str) -> &str {
    statement
        .lines()
        .find_map(|l| l.trim().strip_prefix("**Class:**"))
        .and_then(|rest| rest.split('.').next())
        .map_or("", str::trim)
}

/// The ERRATA findings of a run as one table in ERRATA.md's order (by paper, then
/// class): each finding's id links to its evidence section, and each of its plots is
/// linked by number. Empty when the run has no ERRATA result.
fn errata_index_html(run: &Run, slugs: &[String]) -> String {
    let rows: Vec<(&ResultRun, &String)> = run
        .results
        .iter()
        .zip(slugs)
        .filter(|(r, _)| r.id.starts_with("ERRATA "))
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut h = String::from(
        "<h2 id=\"errata-index\">ERRATA findings</h2>\n<table class=\"summary errata\">\n\
         <thead><tr><th>Finding</th><th>Class</th><th>Where — verdict</th><th>Evidence</th>\
         <th>Plots</th></tr></thead>\n<tbody>\n",
    );
    for (r, slug) in rows {
        let s = summarize(r);
        let plots: Vec<String> = (0..plots_of(r).len())
            .map(|i| format!("<a href=\"#{slug}-plot-{i}\">{}</a>", i + 1))
            .collect();
        let title = r
            .title
            .split_once(". ")
            .map_or(r.title.as_str(), |(_, t)| t);
        h.push_str(&format!(
            "<tr><td><a href=\"#{slug}\">{}</a></td><td>{}</td><td>{}</td>\
             <td>{} <span class=\"num\">{}/{}</span></td><td>{}</td></tr>\n",
            esc(r.id.trim_start_matches("ERRATA ")),
            esc(errata_class(&r.statement)),
            esc(title),
            badge(s.status),
            s.passed,
            s.total,
            if plots.is_empty() {
                "—".to_string()
            } else {
                plots.join(" ")
            },
        ));
    }
    h.push_str("</tbody>\n</table>\n");
    h
}

/// The plots of a result in obligation order, with the obligation label.
fn plots_of(r: &ResultRun) -> Vec<(&str, &Plot)> {
    r.runs
        .iter()
        .flat_map(|o| o.outcome.plots.iter().map(move |p| (o.label.as_str(), p)))
        .collect()
}

/// Renders the Markdown report; plot `i` of the result with slug `s` is linked as
/// `plots/s-i.svg`.
pub fn render_markdown(run: &Run) -> String {
    let slugs = slugs(run);
    let mut m = String::from("# shiftdp verify\n\n");
    m.push_str(&format!(
        "**Status: {}** — {}\n\n",
        run.status().as_str().to_uppercase(),
        md(&run_line(run))
    ));
    m.push_str(
        "| Result | Status | Obligations passed | Worst margin | Tightness min / median / max |\n",
    );
    m.push_str("|---|---|---:|---:|---:|\n");
    for (r, slug) in run.results.iter().zip(&slugs) {
        let s = summarize(r);
        m.push_str(&format!(
            "| [{}](#{slug}) | {} | {}/{} | {} | {} |\n",
            md(&r.id),
            md_badge(s.status),
            s.passed,
            s.total,
            md(&opt_num(s.worst_margin)),
            md(&tight(s.tightness))
        ));
    }
    for (r, slug) in run.results.iter().zip(&slugs) {
        m.push_str(&format!(
            "\n<a id=\"{slug}\"></a>\n\n## {}{} — {}\n\nSource: `{}`\n\n",
            md(&r.id),
            if r.title.is_empty() {
                String::new()
            } else {
                format!(": {}", md(&r.title))
            },
            md_badge(r.status()),
            r.path.replace('`', "'")
        ));
        if !r.statement.trim().is_empty() {
            m.push_str("### Statement\n\n");
            for line in r.statement.trim().lines() {
                m.push_str(&format!("> {line}\n").replace("> \n", ">\n"));
            }
            m.push('\n');
        }
        if r.runs.is_empty() {
            m.push_str("No obligations.\n");
        } else {
            m.push_str("### Obligations\n\n| Obligation | Kind | Status | Points | Min margin | Tightness min / median / max | Summary |\n");
            m.push_str("|---|---|---|---:|---:|---:|---|\n");
            for o in &r.runs {
                m.push_str(&format!(
                    "| {} |\n",
                    obligation_cells(o, md, md_badge).join(" | ")
                ));
            }
        }
        for o in &r.runs {
            if let Some(cx) = &o.outcome.counterexample {
                m.push_str(&format!("\n### Counterexample: {}\n\n", md(&o.label)));
                if !cx.params.is_empty() {
                    m.push_str("| Parameter | Value |\n|---|---:|\n");
                    for (k, v) in &cx.params {
                        m.push_str(&format!("| {} | {} |\n", md(k), md(v)));
                    }
                    m.push('\n');
                }
                m.push_str(&format!("{}\n", md(&cx.detail)));
            }
        }
        let plots = plots_of(r);
        if !plots.is_empty() {
            m.push_str("\n### Plots\n\n");
            for (i, (label, p)) in plots.into_iter().enumerate() {
                let caption = p.caption.as_ref().map(|c| format!("; {}", md(c)));
                m.push_str(&format!(
                    "![{}](plots/{slug}-{i}.svg)\n\n*{} ({}{})*\n\n",
                    md(&p.title),
                    md(&p.title),
                    md(label),
                    caption.unwrap_or_default()
                ));
            }
        }
    }
    m
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::Domain {
        what: format!("writing {}", path.display()),
        reason: e.to_string(),
    })
}

/// Writes `index.html`, `report.md` and `plots/*.svg` of a run into `dir` (created if
/// missing) and returns their paths.
///
/// # Errors
/// [`Error::Domain`] if the directory or a file cannot be written. A plot that plotters
/// cannot draw is replaced by a note in the HTML and an SVG containing the message.
///
/// # Example
/// ```
/// use shiftdp_verify::{ObligationRun, Outcome, ResultRun, Run};
/// use shiftdp_verify::report::write_report;
/// let run = Run { seed: 1, samples: Some(10), bits: 64, results: vec![ResultRun {
///     id: "claim".into(), title: String::new(), path: "cli".into(), statement: String::new(),
///     runs: vec![ObligationRun { label: "claim".into(), kind: "claim".into(),
///         outcome: Outcome::error("unknown variable b") }],
/// }]};
/// let dir = std::env::temp_dir().join(format!("shiftdp-report-doctest-{}", std::process::id()));
/// let files = write_report(&run, &dir).unwrap();
/// let html = std::fs::read_to_string(&files.html).unwrap();
/// assert!(html.contains("unknown variable b") && html.contains("ERROR"));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_report(run: &Run, dir: &Path) -> Result<ReportFiles> {
    let mkdir = |d: &Path| {
        std::fs::create_dir_all(d).map_err(|e| Error::Domain {
            what: format!("creating {}", d.display()),
            reason: e.to_string(),
        })
    };
    mkdir(dir)?;
    let html = dir.join("index.html");
    write(&html, render_html(run).as_bytes())?;
    let markdown = dir.join("report.md");
    write(&markdown, render_markdown(run).as_bytes())?;
    let mut plots = Vec::new();
    for (r, slug) in run.results.iter().zip(slugs(run)) {
        for (i, (_, p)) in plots_of(r).into_iter().enumerate() {
            if plots.is_empty() {
                mkdir(&dir.join("plots"))?;
            }
            let path = dir.join("plots").join(format!("{slug}-{i}.svg"));
            let svg = plot_svg(p).unwrap_or_else(|e| {
                format!(
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"40\">\
                     <text x=\"8\" y=\"24\">plot not drawn: {}</text></svg>",
                    esc(&e.to_string())
                )
            });
            write(&path, svg.as_bytes())?;
            plots.push(path);
        }
    }
    Ok(ReportFiles {
        html,
        markdown,
        plots,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn statements_render_scripts_and_code() {
        assert_eq!(
            super::math_html("c^{2l−2} z_k D_α(P‖Q) e^{x_{i}} a < b `q_r` ^ x"),
            "c<sup>2l−2</sup> z<sub>k</sub> D<sub>α</sub>(P‖Q) e<sup>x<sub>i</sub></sup> a &lt; b <code>q_r</code> ^ x"
        );
        // an unbalanced brace or a trailing script character is kept, never lost
        assert_eq!(super::math_html("x^{ab"), "x<sup>ab</sup>");
        assert_eq!(super::math_html("x^"), "x^");
    }
}
