//! ERRATA.md checked by `verify`: every entry names evidence that must still reproduce.
//!
//! # Format
//! An entry is a heading `## KEY. title`, KEY being one to four capital letters
//! followed by digits (`BSA1`, `AT3`, `E1`); it runs to the next heading. A line `Aliases: E1, S1, X1` inside an entry lists the ids the finding
//! had before (or in other documents): a record or a lookup by an alias resolves to the
//! entry. Keys and aliases are unique across the file. Lines inside fenced code blocks
//! are text (a `# comment` does not end an entry), and an HTML anchor line
//! (`<a id="bsa1"></a>`) belongs to no entry.
//!
//! The evidence records live in a TOML file of `[[evidence]]` tables (the project's is
//! `errata/evidence.toml`; fenced `toml` blocks of the Markdown file are read too):
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
use shiftdp::error::{Error, Result};

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
pub struct Erratum {
    /// `BSA1`, `AT3`, …
    pub key: String,
    /// Earlier ids of the same finding (`E1`, `S1`, …), from its `Aliases:` line.
    pub aliases: Vec<String>,
    /// The heading / first line.
    pub title: String,
    /// Its text.
    pub text: String,
    /// Evidence records.
    pub evidence: Vec<Evidence>,
}

impl Erratum {
    /// Whether `id` is the entry's key or one of its aliases (ASCII case-insensitive).
    pub fn answers_to(&self, id: &str) -> bool {
        let id = id.trim();
        self.key.eq_ignore_ascii_case(id) || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(id))
    }
}

/// The entry whose key or alias is `id` (ASCII case-insensitive).
///
/// # Example
/// ```
/// use shiftdp_verify::errata::{parse_errata, resolve};
/// let e = parse_errata("## BSA1. Thm 4.2\nAliases: E1, S1\n").unwrap();
/// assert_eq!(resolve(&e, "s1").unwrap().key, "BSA1");
/// assert!(resolve(&e, "S2").is_none());
/// ```
pub fn resolve<'a>(entries: &'a [Erratum], id: &str) -> Option<&'a Erratum> {
    entries.iter().find(|e| e.answers_to(id))
}

/// An id: one to four capital letters followed by digits.
fn is_id(s: &str) -> bool {
    let letters = s.chars().take_while(|c| c.is_ascii_uppercase()).count();
    let digits = &s[letters..];
    (1..=4).contains(&letters) && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

fn key_of(line: &str) -> Option<(String, String)> {
    let body = line.strip_prefix("## ")?;
    let letters: String = body
        .chars()
        .take_while(|c| c.is_ascii_uppercase())
        .collect();
    let rest = &body[letters.len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if letters.is_empty() || letters.len() > 4 || digits.is_empty() {
        return None;
    }
    if !rest[digits.len()..].starts_with('.') {
        return None;
    }
    Some((format!("{letters}{digits}"), body.trim().to_string()))
}

/// The ids of an `Aliases:` line (`Aliases: E1, S1, X1`, optionally bulleted or
/// emphasized), or `None` for any other line.
fn aliases_of(line: &str) -> Option<Vec<String>> {
    let t = line
        .trim()
        .trim_start_matches("- ")
        .trim_start_matches(['*', '_']);
    let rest = t.strip_prefix("Aliases:")?;
    Some(
        rest.split([',', ';'])
            .map(|a| a.trim().trim_matches(['*', '_', '`', '.', ' ']).to_string())
            .filter(|a| !a.is_empty())
            .collect(),
    )
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

/// Parses ERRATA.md: its entries, their aliases, and the evidence records of any fenced
/// `toml` block in it.
///
/// # Errors
/// [`Error::Parse`] on a key or alias used twice, an alias that is not an id, invalid
/// TOML, or a record without `entry` or evidence kind, or for an unknown entry.
///
/// # Example
/// ```
/// use shiftdp_verify::errata::{parse_errata, Evidence};
/// let text = "## E1. A thing\nprinted…\n```toml\n[[evidence]]\nentry = \"E1\"\nbuiltin = \"x/y\"\n```\n";
/// let e = parse_errata(text).unwrap();
/// assert_eq!(e[0].key, "E1");
/// assert!(matches!(&e[0].evidence[0], Evidence::Builtin { name, .. } if name == "x/y"));
/// ```
pub fn parse_errata(text: &str) -> Result<Vec<Erratum>> {
    let mut entries: Vec<Erratum> = vec![];
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if !in_fence && let Some((key, title)) = key_of(line) {
            if resolve(&entries, &key).is_some() {
                return Err(Error::Parse {
                    input: key,
                    reason: "duplicate ERRATA key".into(),
                });
            }
            entries.push(Erratum {
                key,
                aliases: vec![],
                title,
                text: String::new(),
                evidence: vec![],
            });
        } else if !in_fence && (line.starts_with("# ") || line.starts_with("## ")) {
            // a section heading without a key ends the previous entry's text
            if let Some(e) = entries.last_mut() {
                e.text.push('\u{0}');
            }
        } else if !in_fence && line.trim_start().starts_with("<a id=") {
            // an HTML anchor before the next heading belongs to no entry's text
        } else if let Some(e) = entries.last_mut()
            && !e.text.contains('\u{0}')
        {
            if !in_fence && let Some(aliases) = aliases_of(line) {
                e.aliases.extend(aliases);
            }
            e.text.push_str(line);
            e.text.push('\n');
        }
    }
    for e in &mut entries {
        e.text = e.text.replace('\u{0}', "");
    }
    let mut seen: Vec<String> = vec![];
    for e in &entries {
        for id in std::iter::once(&e.key).chain(&e.aliases) {
            if !is_id(id) {
                return Err(Error::Parse {
                    input: id.clone(),
                    reason: format!(
                        "alias of ERRATA {} is not an id (letters then digits)",
                        e.key
                    ),
                });
            }
            if seen.iter().any(|s| s.eq_ignore_ascii_case(id)) {
                return Err(Error::Parse {
                    input: id.clone(),
                    reason: "ERRATA key or alias used twice".into(),
                });
            }
            seen.push(id.clone());
        }
    }
    for block in fenced_blocks(text, "toml") {
        if block.contains("[[evidence]]") {
            attach_evidence(&mut entries, block, "ERRATA.md evidence block")?;
        }
    }
    Ok(entries)
}

/// [`parse_errata`], then the records of an evidence file (`errata/evidence.toml`).
///
/// # Errors
/// As [`parse_errata`] and [`attach_evidence`].
///
/// # Example
/// ```
/// use shiftdp_verify::errata::parse_errata_with_evidence;
/// let md = "## AT1. Q is one order\nAliases: T1\n";
/// let toml = "[[evidence]]\nentry = \"T1\"\nnote = \"n\"\n";
/// let e = parse_errata_with_evidence(md, toml).unwrap();
/// assert_eq!(e[0].evidence.len(), 1);
/// ```
pub fn parse_errata_with_evidence(markdown: &str, evidence: &str) -> Result<Vec<Erratum>> {
    let mut entries = parse_errata(markdown)?;
    attach_evidence(&mut entries, evidence, "errata evidence file")?;
    Ok(entries)
}

/// Adds the `[[evidence]]` records of a TOML text to the entries they name (by key or
/// alias); `source` names the text in errors.
///
/// # Errors
/// [`Error::Parse`] on invalid TOML, a record without `entry` or evidence kind, or a
/// record whose `entry` is neither a key nor an alias.
pub fn attach_evidence(entries: &mut [Erratum], toml_text: &str, source: &str) -> Result<()> {
    let table: toml::Table = toml_text
        .parse()
        .map_err(|e: toml::de::Error| Error::Parse {
            input: source.into(),
            reason: e.to_string(),
        })?;
    for rec in table
        .get("evidence")
        .and_then(|v| v.as_array())
        .into_iter()
        .flatten()
    {
        let t = rec.as_table().ok_or_else(|| Error::Parse {
            input: source.into(),
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
        match entries.iter_mut().find(|e| e.answers_to(&key)) {
            Some(e) => e.evidence.push(ev),
            None => {
                return Err(Error::Parse {
                    input: key,
                    reason: "evidence for an ERRATA key that has no entry".into(),
                });
            }
        }
    }
    Ok(())
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
pub fn run_errata(entries: &[Erratum], ctx: &Ctx) -> Vec<ResultRun> {
    run_errata_with(entries, ctx, &|_, _| {})
}

/// [`run_errata`], calling `tick` with the entry's key after each entry (it counts
/// [`Erratum::evidence`] items (at least 1), the obligations of the verification summary).
pub fn run_errata_with(
    entries: &[Erratum],
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
                title: if e.aliases.is_empty() {
                    e.title.clone()
                } else {
                    format!("{} (aliases {})", e.title, e.aliases.join(", "))
                },
                path: format!("ERRATA.md#{}", e.key.to_lowercase()),
                statement: e.text.trim().to_string(),
                runs,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MD: &str = "# Index\n## BSA1. Thm 4.2 — root\nAliases: E1, S1, X1\nAs printed …\n```python\n# a comment, not a heading\nprint(1)\n```\nmore\n## AT1. Q\n- *Aliases:* T1\n";

    #[test]
    fn aliases_resolve_to_their_entry_and_records_attach_by_alias() {
        let toml = "[[evidence]]\nentry = \"S1\"\nnote = \"a\"\n\n[[evidence]]\nentry = \"AT1\"\nbuiltin = \"x/y\"\nexpect = \"fail\"\n";
        let e = parse_errata_with_evidence(MD, toml).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].aliases, ["E1", "S1", "X1"]);
        assert_eq!(e[1].aliases, ["T1"]);
        for (id, key) in [
            ("E1", "BSA1"),
            ("x1", "BSA1"),
            ("bsa1", "BSA1"),
            ("T1", "AT1"),
        ] {
            assert_eq!(resolve(&e, id).unwrap().key, key, "{id}");
        }
        assert!(resolve(&e, "T2").is_none());
        assert_eq!(e[0].evidence.len(), 1);
        assert!(matches!(
            &e[1].evidence[0],
            Evidence::Builtin {
                expect: Status::Fail,
                ..
            }
        ));
        // a fenced code block's `# comment` does not end the entry's text
        assert!(e[0].text.contains("more"));
    }

    #[test]
    fn duplicate_ids_unknown_entries_and_bad_records_are_errors() {
        let dup = "## BSA1. a\nAliases: E1\n## BSA2. b\nAliases: E1\n";
        assert!(
            matches!(parse_errata(dup), Err(Error::Parse { reason, .. }) if reason.contains("used twice"))
        );
        let dup_key = "## BSA1. a\n## BSA1. b\n";
        assert!(
            matches!(parse_errata(dup_key), Err(Error::Parse { reason, .. }) if reason.contains("duplicate"))
        );
        let bad_alias = "## BSA1. a\nAliases: E 1\n";
        assert!(
            matches!(parse_errata(bad_alias), Err(Error::Parse { reason, .. }) if reason.contains("not an id"))
        );
        let unknown = "[[evidence]]\nentry = \"Q9\"\nnote = \"n\"\n";
        assert!(
            matches!(parse_errata_with_evidence(MD, unknown), Err(Error::Parse { reason, .. }) if reason.contains("no entry"))
        );
        let kindless = "[[evidence]]\nentry = \"E1\"\n";
        assert!(parse_errata_with_evidence(MD, kindless).is_err());
        let bad_expect = "[[evidence]]\nentry = \"E1\"\nbuiltin = \"x\"\nexpect = \"maybe\"\n";
        assert!(parse_errata_with_evidence(MD, bad_expect).is_err());
    }

    #[test]
    fn an_entry_without_evidence_is_an_error_run() {
        let e = parse_errata(MD).unwrap();
        let runs = run_errata(&e, &Ctx::default());
        assert_eq!(runs[0].id, "ERRATA BSA1");
        assert!(runs[0].title.contains("aliases E1, S1, X1"));
        assert_eq!(runs[0].path, "ERRATA.md#bsa1");
        assert_eq!(runs[0].runs[0].outcome.status, Status::Error);
    }
}
