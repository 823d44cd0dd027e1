//! The validator's registry: every entry (the BSA24 entries of [`catalogue`](mod@super::catalogue),
//! then the Rényi entries of [`super::renyi`]) and the lookup by id.
use super::catalogue::{Entry, bsa24_entries};
use shiftdp::error::{Error, Result};
use shiftdp::provenance::{Paper, ResultId};

/// Every bound the validator knows: the BSA24 entries in the order of the paper,
/// then the Rényi entries of [`super::cys21::entries`], [`super::ys22::entries`] and
/// [`super::at22::entries`].
pub fn catalogue() -> Vec<Entry> {
    let mut v = bsa24_entries();
    v.extend(super::cys21::entries());
    v.extend(super::ys22::entries());
    v.extend(super::at22::entries());
    v
}

/// Normal form of an id for matching: lower case, without `bsa24`, `thm`, `prop`,
/// keeping digits and dots.
fn normal(s: &str) -> String {
    let l = s.to_lowercase().replace("bsa24", "");
    let kind = if l.contains("prop") { "p" } else { "" };
    let digits: String = l
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    format!("{kind}{}", digits.trim_matches('.'))
}

/// Lower case, `-` and `_` read as spaces, runs of spaces collapsed.
fn loose(s: &str) -> String {
    s.to_lowercase()
        .replace(['-', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Looks up an entry by id, case-insensitively.
///
/// Any id matches itself as every output prints it (`"CYS21 Thm 2 (eq. 16)"`), its part
/// before ` (`, and either with `-` or `_` for spaces and in any case (`"cys21 thm 2"`,
/// `"ys22-thm-4.3"`, `"AT22 Prop 3.2"`). BSA24 ids also match with or
/// without the `BSA24 ` prefix and the `Thm`/`Prop` word (`"BSA24 Thm 4.2"`,
/// `"thm-4.2"`, `"4.2"`, `"prop-5.1"`; a bare `"5.1"` also finds Prop 5.1).
///
/// # Errors
/// [`Error::Parameter`] listing the known ids if nothing matches.
pub fn find(id: &str) -> Result<Entry> {
    let all = catalogue();
    let ql = loose(id);
    if !ql.is_empty() {
        let hit = all.iter().find(|e| {
            let text = e.id.as_str();
            let base = text.split(" (").next().unwrap_or(text);
            ql == loose(text) || ql == loose(base)
        });
        if let Some(e) = hit {
            return Ok(*e);
        }
    }
    let q = normal(id);
    let bsa: Vec<&Entry> = all
        .iter()
        .filter(|e| e.id.paper() == Paper::Bsa24)
        .collect();
    let hit = bsa.iter().find(|e| normal(e.id.as_str()) == q).or_else(|| {
        bsa.iter()
            .find(|e| normal(e.id.as_str()).trim_start_matches('p') == q)
    });
    let other_prefix = ["cys21", "ys22", "at22"]
        .iter()
        .any(|p| id.to_lowercase().contains(p));
    match hit {
        Some(e) if !q.is_empty() && q != "p" && !other_prefix => Ok(**e),
        _ => Err(Error::param(
            "bound",
            id,
            &format!(
                "unknown bound id; known: {}",
                all.iter()
                    .map(|e| e.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// The results of [`shiftdp::results::REGISTRY`] that the validator does not sample, each
/// with what tests it instead. Every other registered result has an entry in
/// [`catalogue`].
pub const NOT_SAMPLED: &[(ResultId, &str)] = &[
    (
        ResultId::Bsa24Cor5_2Eta,
        "a statement about the stationary law π(η), not a finite run",
    ),
    (
        ResultId::Bsa24Cor5_2Exp,
        "a statement about the exponential mechanism (η → 0), not a finite run",
    ),
    (
        ResultId::Bsa24Cor5_4Eta,
        "a statement about the stationary law π(η) on a convex body, not a finite run",
    ),
    (
        ResultId::Bsa24Cor5_4Exp,
        "a statement about the exponential mechanism on a convex body, not a finite run",
    ),
    (
        ResultId::Mt07Exp,
        "the exponential mechanism's pure DP, a limit statement",
    ),
    (
        ResultId::Bsa24Table1Rdp,
        "checked against the paper's Table 1 values (`reproduce table1`) and its proof obligations",
    ),
    (
        ResultId::RdpComposition,
        "the Gaussian mechanism's exact Rényi divergence αμ²/2, summed (Mironov 2017)",
    ),
    (
        ResultId::At22Thm3_1,
        "at least (B.2) at every order (obligation at22/thm-3-1-5-1-dominate-recipes), which the validator samples",
    ),
];

/// How the validator tests a registered result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tested {
    /// Sampled against exact instances by the catalogue entry of the same id
    /// (`shiftdp check ID`).
    Sampled,
    /// Not sampled, for the reason given ([`NOT_SAMPLED`]).
    NotSampled(&'static str),
}

/// How the validator tests the result `id`; `None` for an id the catalogue neither
/// samples nor lists in [`NOT_SAMPLED`] (a unit test holds every registered result to
/// one of the two).
pub fn how_tested(id: ResultId) -> Option<Tested> {
    if catalogue().iter().any(|e| e.id == id) {
        return Some(Tested::Sampled);
    }
    NOT_SAMPLED
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, why)| Tested::NotSampled(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every registered result is sampled by an entry of the catalogue or listed in
    /// [`NOT_SAMPLED`], and no result is both.
    #[test]
    fn every_registered_result_is_sampled_or_says_why_not() {
        let sampled: Vec<ResultId> = catalogue().iter().map(|e| e.id).collect();
        for r in shiftdp::results::REGISTRY {
            assert!(how_tested(r.id()).is_some(), "{}", r.id());
            let listed = NOT_SAMPLED.iter().any(|(id, _)| *id == r.id());
            assert!(
                sampled.contains(&r.id()) != listed,
                "{}: sampled {}, listed as not sampled {listed}",
                r.id(),
                sampled.contains(&r.id())
            );
        }
    }
}
