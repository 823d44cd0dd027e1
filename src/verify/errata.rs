//! ERRATA.md checked by `verify`: every entry names evidence that must still reproduce.
//!
//! # Format
//! An entry is a heading `## KEY. title` or a bold paragraph start `**KEY. …**` /
//! `**KEY (…)…**`, KEY being capital letters followed by digits (`E1`, `R7`, `A3`).
//! Each entry has the statement as printed, the reading adopted and the evidence in
//! prose, and at least one record in a fenced `toml` block of the file:
//!
//! ```toml
//! [[evidence]]
//! entry = "E1"
//! claim = "mu = sqrt((1-c^t)/(1+c^t))*(1+c)/(1-c)*L/(n*sigma)"   # the printed reading
//! setting = "gd-strong"
//! expect = "fail"                     # the printed reading must still fail
//!
//! [[evidence]]
//! entry = "E2"
//! builtin = "bsa24/errata-e2-thm-4-9-negative-at-tau-0"        # must pass
//!
//! [[evidence]]
//! entry = "R3"
//! test = "renyi::cys21::tests::cor1_text_reading"              # run by cargo test
//!
//! [[evidence]]
//! entry = "R5"
//! note = "a typo in prose; nothing to compute"                 # textual entries only
//! ```
//!
//! `verify` runs every claim and builtin record: a record whose outcome differs from
//! `expect` (default `pass`) means the evidence no longer reproduces, and `verify`
//! fails. An entry without any record fails too. `test` records are run by `cargo test`
//! (whose presence `tests/proofs.rs` checks), and reported as such.
use super::outcome::{Ctx, ObligationRun, Outcome, ResultRun, Status};
use super::proofs::fenced_blocks;
use crate::error::{Error, Result};

/// One evidence record.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// A claim checked with [`super::claim::check_claim`] and the expected status.
    Claim {
        /// Claim text.
        claim: String,
        /// Setting family (and pins).
        setting: String,
        /// Expected: `pass` or `fail`.
        expect: Status,
    },
    /// A builtin and the expected status.
    Builtin {
        /// Registered name.
        name: String,
        /// Expected status.
        expect: Status,
    },
    /// A cargo test (not run by `verify`).
    Test {
        /// Test name.
        test: String,
    },
    /// A purely textual entry (typo, convention): why there is nothing to compute.
    Note {
        /// The reason.
        note: String,
    },
}

/// An ERRATA entry with its evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// `E1`, `R7`, …
    pub key: String,
    /// The heading / first line.
    pub title: String,
    /// Its text.
    pub text: String,
    /// Evidence records.
    pub evidence: Vec<Evidence>,
}

fn key_of(line: &str) -> Option<(String, String)> {
    let (body, heading) = if let Some(r) = line.strip_prefix("## ") {
        (r, true)
    } else if let Some(r) = line
        .strip_prefix("**")
        .or_else(|| line.strip_prefix("- **"))
    {
        (r, false)
    } else {
        return None;
    };
    let letters: String = body
        .chars()
        .take_while(|c| c.is_ascii_uppercase())
        .collect();
    let rest = &body[letters.len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if letters.is_empty() || letters.len() > 3 || digits.is_empty() {
        return None;
    }
    let after = &rest[digits.len()..];
    if !(after.starts_with('.') || (!heading && after.starts_with(" ("))) {
        return None;
    }
    Some((
        format!("{letters}{digits}"),
        body.trim_end_matches("**").trim().to_string(),
    ))
}

fn status_of(s: Option<&str>) -> Result<Status> {
    match s.unwrap_or("pass") {
        "pass" => Ok(Status::Pass),
        "fail" => Ok(Status::Fail),
        x => Err(Error::Parse {
            input: x.to_string(),
            reason: "expect must be \"pass\" or \"fail\"".into(),
        }),
    }
}

/// Parses ERRATA.md.
///
/// # Errors
/// [`Error::Parse`] on invalid TOML or a record without `entry` or evidence kind.
///
/// # Example
/// ```
/// use shiftdp::verify::errata::{parse_errata, Evidence};
/// let text = "## E1. A thing\nprinted…\n```toml\n[[evidence]]\nentry = \"E1\"\nbuiltin = \"x/y\"\n```\n";
/// let e = parse_errata(text).unwrap();
/// assert_eq!(e[0].key, "E1");
/// assert!(matches!(&e[0].evidence[0], Evidence::Builtin { name, .. } if name == "x/y"));
/// ```
pub fn parse_errata(text: &str) -> Result<Vec<Entry>> {
    let mut entries: Vec<Entry> = vec![];
    for line in text.lines() {
        if let Some((key, title)) = key_of(line) {
            if entries.iter().any(|e| e.key == key) {
                return Err(Error::Parse {
                    input: key,
                    reason: "duplicate ERRATA key".into(),
                });
            }
            entries.push(Entry {
                key,
                title,
                text: String::new(),
                evidence: vec![],
            });
        } else if line.starts_with("# ") || line.starts_with("## ") {
            // a section heading without a key ends the previous entry's text
            if let Some(e) = entries.last_mut() {
                e.text.push('\u{0}');
            }
        } else if let Some(e) = entries.last_mut()
            && !e.text.contains('\u{0}')
        {
            e.text.push_str(line);
            e.text.push('\n');
        }
    }
    for e in &mut entries {
        e.text = e.text.replace('\u{0}', "");
    }
    for block in fenced_blocks(text, "toml") {
        if !block.contains("[[evidence]]") {
            continue;
        }
        let table: toml::Table = block.parse().map_err(|e: toml::de::Error| Error::Parse {
            input: "ERRATA.md evidence block".into(),
            reason: e.to_string(),
        })?;
        for rec in table
            .get("evidence")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let t = rec.as_table().ok_or_else(|| Error::Parse {
                input: "ERRATA.md".into(),
                reason: "[[evidence]] must be a table".into(),
            })?;
            let s = |k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_string);
            let key = s("entry").ok_or_else(|| Error::Parse {
                input: format!("{t}"),
                reason: "evidence needs `entry`".into(),
            })?;
            let ev = if let Some(claim) = s("claim") {
                Evidence::Claim {
                    claim,
                    setting: s("setting").ok_or_else(|| Error::Parse {
                        input: key.clone(),
                        reason: "a claim needs `setting`".into(),
                    })?,
                    expect: status_of(s("expect").as_deref())?,
                }
            } else if let Some(name) = s("builtin") {
                Evidence::Builtin {
                    name,
                    expect: status_of(s("expect").as_deref())?,
                }
            } else if let Some(test) = s("test") {
                Evidence::Test { test }
            } else if let Some(note) = s("note") {
                Evidence::Note { note }
            } else {
                return Err(Error::Parse {
                    input: key,
                    reason: "evidence needs `claim`, `builtin`, `test` or `note`".into(),
                });
            };
            match entries.iter_mut().find(|e| e.key == key) {
                Some(e) => e.evidence.push(ev),
                None => {
                    return Err(Error::Parse {
                        input: key,
                        reason: "evidence for an ERRATA key that has no entry".into(),
                    });
                }
            }
        }
    }
    Ok(entries)
}

fn expectation(o: Outcome, expect: Status, what: &str) -> Outcome {
    match (o.status, expect) {
        (Status::Error, _) => o,
        (a, b) if a == b => Outcome {
            status: Status::Pass,
            summary: format!(
                "reproduces ({what} {} as recorded): {}",
                a.as_str(),
                o.summary
            ),
            ..o
        },
        (a, b) => Outcome {
            status: Status::Fail,
            summary: format!(
                "evidence no longer reproduces: {what} now {}, ERRATA records {}",
                a.as_str(),
                b.as_str()
            ),
            ..o
        },
    }
}

/// Calls the tick with an entry's evidence count when the entry's run ends.
struct TickOnDrop<'a>(&'a (dyn Fn(&str, usize) + Sync), &'a str, usize);

impl Drop for TickOnDrop<'_> {
    fn drop(&mut self) {
        (self.0)(self.1, self.2);
    }
}

/// Runs the evidence of every entry.
pub fn run_errata(entries: &[Entry], ctx: &Ctx) -> Vec<ResultRun> {
    run_errata_with(entries, ctx, &|_, _| {})
}

/// [`run_errata`], calling `tick` with the entry's key after each entry (it counts
/// [`Entry::evidence`] items (at least 1), the obligations of the verification summary).
pub fn run_errata_with(
    entries: &[Entry],
    ctx: &Ctx,
    tick: &(dyn Fn(&str, usize) + Sync),
) -> Vec<ResultRun> {
    use rayon::prelude::*;
    entries
        .par_iter()
        .map(|e| {
            let _ticked = TickOnDrop(tick, &e.key, e.evidence.len().max(1));
            let mut runs: Vec<ObligationRun> = e
                .evidence
                .iter()
                .map(|ev| match ev {
                    Evidence::Claim {
                        claim,
                        setting,
                        expect,
                    } => {
                        let o = match super::claim::check_claim(claim, setting, &[], 1e-9, ctx) {
                            Ok(r) => {
                                let st = r.status();
                                let first_fail = r
                                    .runs
                                    .iter()
                                    .find(|x| x.outcome.status == st)
                                    .map(|x| x.outcome.clone())
                                    .unwrap_or_else(|| Outcome::pass("", 0));
                                Outcome { status: st, ..first_fail }
                            }
                            Err(err) => Outcome::error(err.to_string()),
                        };
                        ObligationRun {
                            label: format!("claim `{claim}` on {setting}"),
                            kind: "errata-claim".into(),
                            outcome: expectation(o, *expect, "the claim"),
                        }
                    }
                    Evidence::Builtin { name, expect } => {
                        let o = match super::builtins::find(name) {
                            Some(b) => (b.run)(&Ctx {
                                seed: crate::check::salted(ctx.seed, b.name),
                                ..*ctx
                            }),
                            None => Outcome::error(format!("no builtin named `{name}`")),
                        };
                        ObligationRun {
                            label: format!("builtin {name}"),
                            kind: "errata-builtin".into(),
                            outcome: expectation(o, *expect, "the check"),
                        }
                    }
                    Evidence::Note { note } => ObligationRun {
                        label: "textual entry".into(),
                        kind: "errata-note".into(),
                        outcome: Outcome::pass(format!("nothing to compute: {note}"), 0),
                    },
                    Evidence::Test { test } => ObligationRun {
                        label: format!("cargo test {test}"),
                        kind: "errata-test".into(),
                        outcome: Outcome::pass(
                            format!("not run by verify: covered by the cargo test `{test}`"),
                            0,
                        ),
                    },
                })
                .collect();
            if runs.is_empty() {
                runs.push(ObligationRun {
                    label: "evidence".into(),
                    kind: "errata".into(),
                    outcome: Outcome::error(
                        "no [[evidence]] record: every ERRATA entry must name evidence verify can find",
                    ),
                });
            }
            ResultRun {
                id: format!("ERRATA {}", e.key),
                title: e.title.clone(),
                path: "ERRATA.md".into(),
                statement: e.text.trim().to_string(),
                runs,
            }
        })
        .collect()
}
