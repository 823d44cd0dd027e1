//! Reading proofs/ files: Markdown with one fenced `toml` block of obligations.
//!
//! # Format
//! ```text
//! # <ID> — <title>
//! ## Statement … ## Hypotheses … ## Code … ## Rounding … ## Derivation …
//! ## References … ## Obligations
//! (then a block fenced as toml containing:)
//! [[obligation]]
//! kind = "dominates-instances"
//! check = "BSA24 Thm 4.2"
//! ```
//!
//! The id is the heading before ` — `. Each obligation is a TOML table with a `kind`
//! (see [`Obligation`]) and an optional `test` naming a cargo test that covers the same
//! statement (checked to exist by `tests/proofs.rs`).
//!
//! # Errors
//! A file without a heading, without the obligations block, with invalid TOML or an
//! unknown kind is an [`Error::Parse`] naming the file: `verify` reports it as an error
//! of that result, so a broken proofs file can never pass silently.
//!
//! # Example
//! ```
//! use shiftdp_verify::proofs::{parse_proof, Obligation};
//! let text = "# X Thm 1 — demo\n## Statement\nμ ≤ 1\n## Obligations\n```toml\n\
//!     [[obligation]]\nkind = \"builtin\"\nname = \"demo/x\"\n```\n";
//! let p = parse_proof(text, "proofs/x-thm-1.md").unwrap();
//! assert_eq!(p.id, "X Thm 1");
//! assert!(matches!(&p.obligations[0], Obligation::Builtin { name } if name == "demo/x"));
//! ```
use shiftdp::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Sections every proofs file has, in order.
pub const SECTIONS: [&str; 7] = [
    "## Statement",
    "## Hypotheses",
    "## Code",
    "## Rounding",
    "## Derivation",
    "## References",
    "## Obligations",
];

pub use crate::check::region::RegionOverride;

/// One obligation of a proofs file.
#[derive(Debug, Clone, PartialEq)]
pub enum Obligation {
    /// The validator entry `check` finds no violation (and no error) on its region.
    DominatesInstances {
        /// Validator entry id.
        check: String,
        /// Default sample count.
        samples: Option<usize>,
        /// Region overrides.
        region: Vec<RegionOverride>,
    },
    /// As [`Obligation::DominatesInstances`], and every tightness ratio is within
    /// `tolerance` of 1.
    ExactOnInstance {
        /// Validator entry id.
        check: String,
        /// Default sample count.
        samples: Option<usize>,
        /// Region overrides.
        region: Vec<RegionOverride>,
        /// Relative tolerance.
        tolerance: f64,
    },
    /// The closed form against the certified optimum of its schedule problem.
    Schedule {
        /// Result id (BSA24 Thm 4.2, 4.3, 4.5 or 4.6).
        result: String,
        /// `equals` or `dominates`.
        relation: ScheduleRelation,
        /// Relative tolerance.
        tolerance: f64,
        /// Default sample count.
        samples: Option<usize>,
    },
    /// `result ≤ other` at every point sampled from the region of entry `check`.
    ImprovesOn {
        /// The better result.
        result: String,
        /// The result it improves on.
        other: String,
        /// Validator entry whose region is sampled.
        check: String,
        /// δ for (ε, δ) comparisons of composed bounds.
        delta: f64,
        /// Default sample count.
        samples: Option<usize>,
    },
    /// A named check ([`super::Builtin`]).
    Builtin {
        /// Registered name.
        name: String,
    },
    /// Documentation only: covered by the named cargo test, not run by `verify`.
    Test {
        /// The kind as written.
        kind: String,
        /// The test name.
        test: String,
    },
}

/// Relation of a [`Obligation::Schedule`] check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleRelation {
    /// |closed − optimum| ≤ tol · optimum.
    Equals,
    /// closed ≥ optimum · (1 − tol).
    Dominates,
}

impl Obligation {
    /// A short label for reports.
    pub fn label(&self) -> String {
        match self {
            Obligation::DominatesInstances { check, .. } => {
                format!("dominates-instances ({check})")
            }
            Obligation::ExactOnInstance { check, .. } => format!("exact-on-instance ({check})"),
            Obligation::Schedule {
                result, relation, ..
            } => format!(
                "schedule: {result} {} the optimum",
                match relation {
                    ScheduleRelation::Equals => "equals",
                    ScheduleRelation::Dominates => "dominates",
                }
            ),
            Obligation::ImprovesOn { result, other, .. } => {
                format!("improves-on: {result} ≤ {other}")
            }
            Obligation::Builtin { name } => format!("builtin {name}"),
            Obligation::Test { kind, test } => format!("{kind} (cargo test {test})"),
        }
    }

    /// The kind string.
    pub fn kind(&self) -> &str {
        match self {
            Obligation::DominatesInstances { .. } => "dominates-instances",
            Obligation::ExactOnInstance { .. } => "exact-on-instance",
            Obligation::Schedule { .. } => "schedule",
            Obligation::ImprovesOn { .. } => "improves-on",
            Obligation::Builtin { .. } => "builtin",
            Obligation::Test { kind, .. } => kind,
        }
    }
}

/// A parsed proofs file.
#[derive(Debug, Clone, PartialEq)]
pub struct ProofFile {
    /// Result id (heading before ` — `).
    pub id: String,
    /// Heading after ` — `.
    pub title: String,
    /// Path as given.
    pub path: String,
    /// Text of the Statement section.
    pub statement: String,
    /// Obligations in file order.
    pub obligations: Vec<Obligation>,
    /// Cargo tests named by obligations.
    pub tests: Vec<String>,
}

fn perr(path: &str, msg: impl std::fmt::Display) -> Error {
    Error::Parse {
        input: path.to_string(),
        reason: msg.to_string(),
    }
}

/// The text of section `## name` (up to the next `## `).
pub fn section(text: &str, name: &str) -> Option<String> {
    let start = text.find(name)? + name.len();
    let rest = &text[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

/// The first fenced block of the given language after `from`.
pub fn fenced_blocks<'a>(text: &'a str, lang: &str) -> Vec<&'a str> {
    let open = format!("```{lang}");
    let mut out = vec![];
    let mut rest = text;
    while let Some(i) = rest.find(&open) {
        let after = &rest[i + open.len()..];
        let Some(nl) = after.find('\n') else { break };
        let body = &after[nl + 1..];
        let Some(j) = body.find("```") else { break };
        out.push(&body[..j]);
        rest = &body[j + 3..];
    }
    out
}

fn get_str(t: &toml::Table, k: &str, path: &str) -> Result<String> {
    t.get(k)
        .and_then(|v| v.as_str())
        .map(str::to_string)
        .ok_or_else(|| perr(path, format!("obligation needs a string `{k}`")))
}

fn get_f64(t: &toml::Table, k: &str) -> Option<f64> {
    t.get(k)
        .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
}

fn get_samples(t: &toml::Table) -> Option<usize> {
    t.get("samples")
        .and_then(|v| v.as_integer())
        .and_then(|i| usize::try_from(i).ok())
}

fn get_region(t: &toml::Table, path: &str) -> Result<Vec<RegionOverride>> {
    let Some(v) = t.get("region") else {
        return Ok(vec![]);
    };
    let tab = v
        .as_table()
        .ok_or_else(|| perr(path, "`region` must be a table"))?;
    let mut out = vec![];
    for (k, v) in tab {
        let num = |x: &toml::Value| x.as_float().or_else(|| x.as_integer().map(|i| i as f64));
        let (lo, hi) = match v {
            toml::Value::Array(a) if a.len() == 2 => (num(&a[0]), num(&a[1])),
            x => (num(x), num(x)),
        };
        match (lo, hi) {
            (Some(lo), Some(hi)) if lo <= hi => {
                out.push(RegionOverride::real(k, lo, hi).map_err(|e| perr(path, e))?)
            }
            _ => {
                return Err(perr(
                    path,
                    format!("region `{k}` must be a number or [lo, hi] with lo ≤ hi"),
                ));
            }
        }
    }
    Ok(out)
}

fn obligation(t: &toml::Table, path: &str) -> Result<Obligation> {
    let kind = get_str(t, "kind", path)?;
    let test = t.get("test").and_then(|v| v.as_str()).map(str::to_string);
    let samples = get_samples(t);
    Ok(match kind.as_str() {
        "dominates-instances" => Obligation::DominatesInstances {
            check: get_str(t, "check", path)?,
            samples,
            region: get_region(t, path)?,
        },
        "exact-on-instance" if t.contains_key("check") => Obligation::ExactOnInstance {
            check: get_str(t, "check", path)?,
            samples,
            region: get_region(t, path)?,
            tolerance: get_f64(t, "tolerance").unwrap_or(1e-9),
        },
        "schedule" => Obligation::Schedule {
            result: get_str(t, "result", path)?,
            relation: match get_str(t, "relation", path)?.as_str() {
                "equals" => ScheduleRelation::Equals,
                "dominates" => ScheduleRelation::Dominates,
                r => {
                    return Err(perr(
                        path,
                        format!("schedule relation `{r}`: use equals or dominates"),
                    ));
                }
            },
            tolerance: get_f64(t, "tolerance").unwrap_or(1e-9),
            samples,
        },
        "improves-on" if t.contains_key("check") => Obligation::ImprovesOn {
            result: get_str(t, "result", path)?,
            other: get_str(t, "other", path)?,
            check: get_str(t, "check", path)?,
            delta: get_f64(t, "delta").unwrap_or(1e-5),
            samples,
        },
        "builtin" => Obligation::Builtin {
            name: get_str(t, "name", path)?,
        },
        _ => match test {
            Some(test) => Obligation::Test { kind, test },
            None => {
                return Err(perr(
                    path,
                    format!("obligation kind `{kind}` is not executable and names no test"),
                ));
            }
        },
    })
}

/// Parses the text of a proofs file.
///
/// # Errors
/// [`Error::Parse`] naming `path`: no `# ID — title` heading, a missing section, no
/// `toml` block, invalid TOML, no obligation, or an obligation that is neither
/// executable nor names a test.
pub fn parse_proof(text: &str, path: &str) -> Result<ProofFile> {
    let head = text
        .lines()
        .find(|l| l.starts_with("# "))
        .ok_or_else(|| perr(path, "no `# ID — title` heading"))?;
    let head = head.trim_start_matches("# ").trim();
    let (id, title) = match head.split_once(" — ") {
        Some((a, b)) => (a.trim().to_string(), b.trim().to_string()),
        None => (head.to_string(), String::new()),
    };
    let block = section(text, "## Obligations")
        .and_then(|s| fenced_blocks(&s, "toml").first().map(|b| b.to_string()))
        .ok_or_else(|| perr(path, "no ```toml obligations block under ## Obligations"))?;
    let table: toml::Table = block.parse().map_err(|e| perr(path, e))?;
    let arr = table
        .get("obligation")
        .and_then(|v| v.as_array())
        .ok_or_else(|| perr(path, "no [[obligation]] in the block"))?;
    let mut obligations = vec![];
    let mut tests = vec![];
    for v in arr {
        let t = v
            .as_table()
            .ok_or_else(|| perr(path, "each obligation must be a table"))?;
        if let Some(x) = t.get("test").and_then(|v| v.as_str()) {
            tests.push(x.to_string());
        }
        obligations.push(obligation(t, path)?);
    }
    if obligations.is_empty() {
        return Err(perr(path, "no obligation"));
    }
    Ok(ProofFile {
        id,
        title,
        path: path.to_string(),
        statement: section(text, "## Statement").unwrap_or_default(),
        obligations,
        tests,
    })
}

/// The Markdown files under `paths` (files as given, directories searched one level,
/// sorted), skipping `README.md`.
///
/// # Errors
/// [`Error::Parameter`] if a path does not exist.
pub fn proof_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = vec![];
    for p in paths {
        if p.is_dir() {
            let rd = std::fs::read_dir(p)
                .map_err(|e| Error::param("path", p.display(), &e.to_string()))?;
            let mut v: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|q| {
                    q.extension().is_some_and(|x| x == "md")
                        && q.file_name().is_some_and(|n| n != "README.md")
                })
                .collect();
            v.sort();
            out.extend(v);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(Error::param(
                "path",
                p.display(),
                "no such file or directory",
            ));
        }
    }
    Ok(out)
}

/// Reads and parses one proofs file; the error is kept per file.
pub fn read_proof(path: &Path) -> Result<ProofFile> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| perr(&shown, e))?;
    let mut p = parse_proof(&text, &shown)?;
    for s in SECTIONS {
        if !text.contains(s) {
            return Err(perr(&shown, format!("section `{s}` missing")));
        }
    }
    p.path = shown;
    Ok(p)
}
