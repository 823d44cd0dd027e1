//! The registry of named checks ([`Builtin`]) that proofs/ obligations call with
//! `kind = "builtin"`.
//!
//! Modules contribute their own checks; this module only collects them. Names are
//! unique (`tests` checks it).
use super::outcome::Builtin;

/// Every registered builtin, sorted by name.
pub fn registry() -> Vec<Builtin> {
    let mut v: Vec<Builtin> = vec![];
    v.extend(super::bsa24::builtins());
    v.extend(super::remarks_bsa24::builtins());
    v.extend(super::check_builtins::builtins());
    v.extend(super::at22_obligations::builtins());
    v.extend(super::remarks_renyi::builtins());
    v.extend(super::remarks_at22::builtins());
    v.sort_by_key(|b| b.name);
    v
}

/// The builtin called `name`.
pub fn find(name: &str) -> Option<Builtin> {
    registry().into_iter().find(|b| b.name == name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn registry_names_are_unique() {
        let mut names: Vec<&str> = super::registry().iter().map(|b| b.name).collect();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "duplicate builtin names");
        assert!(super::find("ys22/footnote-4-shifted-lse-adopted").is_some());
        assert!(super::find("at22/threshold-burn-in-adopted").is_some());
    }
}
