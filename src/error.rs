//! The crate's error type: one variant per kind of refusal.
//!
//! Every public function that can be handed bad input returns `Result<_, Error>`; none
//! panics and none returns NaN as a result. The type is `Send + Sync + 'static` so it
//! can travel through `anyhow` (argmin's cost functions) and threads (rayon).
//!
//! # Which variant: one rule for every module
//! A value outside the domain of the mathematical object — σ ≤ 0, a Rényi order α ≤ 1
//! ([`crate::renyi::curve::check_order`]), q ∉ \[0, 1\], δ ∉ (0, 1), a count of 0, NaN or ±∞
//! — is [`Error::Parameter`], whichever module sees it. [`Error::Hypothesis`] is only for
//! a well-defined setting that one result's hypotheses exclude (c < 1 for BSA24 Thm 4.2,
//! η ≤ 2/M, an integer number of epochs, …), with the hypothesis label of the result's
//! proofs/ file. The distinction matters beyond messages: the validator (`check`)
//! skips a sampled setting a result does not cover (Hypothesis) but reports a refusal of
//! an in-domain input (Parameter) as an error.
//!
//! The result a failed hypothesis belongs to is a [`Subject`]: a published result by its
//! [`ResultId`], so that a caller can match on which result refused, or a construction
//! of the toolkit that is not one published result (a sampler, a conversion, a family).
use std::fmt;

use crate::provenance::ResultId;
use thiserror::Error;

/// Why shiftdp refused to produce a number.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// A parameter is outside its domain (negative μ, δ ∉ (0,1), p ∉ \[0,1\], …).
    #[error("invalid {name} = {value}: {reason}")]
    Parameter {
        /// Parameter name as the user wrote it (e.g. `mu`, `delta`).
        name: String,
        /// The offending value, as given.
        value: String,
        /// What the domain is.
        reason: String,
    },
    /// A number could not be parsed.
    #[error("cannot parse {input:?}: {reason}")]
    Parse {
        /// The text given.
        input: String,
        /// What was wrong.
        reason: String,
    },
    /// The requested MPFR precision is out of range.
    #[error("precision {bits} bits is out of range: choose {min}..={max}")]
    Precision {
        /// Requested bits.
        bits: u64,
        /// Smallest accepted.
        min: u32,
        /// Largest accepted.
        max: u32,
    },
    /// A function was evaluated outside its domain.
    #[error("{what}: {reason}")]
    Domain {
        /// The function.
        what: String,
        /// Its domain.
        reason: String,
    },
    /// A result could not be certified at the requested precision.
    #[error("could not certify {what}: {reason}")]
    NotCertified {
        /// The quantity.
        what: String,
        /// Why.
        reason: String,
    },
    /// A hypothesis of a published result does not hold for the given setting.
    #[error("{result} does not apply: hypothesis {hypothesis} fails ({detail})")]
    Hypothesis {
        /// What the hypothesis belongs to, e.g. [`ResultId::Bsa24Thm4_2`] (printed
        /// `BSA24 Thm 4.2`).
        result: Subject,
        /// Hypothesis label as in the proof file, e.g. `H2: 0 < η < 2/M`.
        hypothesis: String,
        /// The values that violate it.
        detail: String,
    },
    /// A computation would need more memory than the limit allows ([`crate::memory`]).
    #[error(
        "{what} needs about {needed} of memory, above the memory limit of {limit} (raise the memory limit, or SHIFTDP_MEMORY_LIMIT, or make the job smaller)"
    )]
    MemoryLimit {
        /// The computation refused.
        what: String,
        /// Its estimated peak memory, e.g. `7.3 GiB`.
        needed: String,
        /// The limit in force, e.g. `8.0 GiB`.
        limit: String,
    },
}

/// What a hypothesis of [`Error::Hypothesis`] belongs to.
///
/// Its `Display` text is the name printed in the refusal message: the result id
/// ([`ResultId::as_str`]), `the {id} sampler`, or the name of the construction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Subject {
    /// A published result (or classical baseline) of [`ResultId`].
    Result(ResultId),
    /// A batch sampler, by its id (`shuffle`, `fixed-size`, …): a sampler whose
    /// neighbouring relation no analysis covers.
    Sampler(&'static str),
    /// A construction that is not one published result, by its printed name: a family
    /// of results (`BSA24 (last iterate)`), a lemma or setting of a paper outside
    /// [`ResultId`] (`BSA24 Lemma 2.8`), a conversion (`Mironov 2017, Prop 3`), an
    /// accountant of another paper.
    Other(&'static str),
}

impl Subject {
    /// The published result, if the subject is one.
    pub const fn result_id(self) -> Option<ResultId> {
        match self {
            Subject::Result(id) => Some(id),
            _ => None,
        }
    }
}

impl From<ResultId> for Subject {
    fn from(id: ResultId) -> Self {
        Subject::Result(id)
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Result(id) => f.write_str(id.as_str()),
            Subject::Sampler(id) => write!(f, "the {id} sampler"),
            Subject::Other(name) => f.write_str(name),
        }
    }
}

impl Error {
    /// Shorthand for [`Error::Parameter`].
    /// A double's `Display` text (every digit: `1e-300` prints as 300 zeros and a 1) is
    /// shown in scientific form; any other value as given.
    pub fn param(name: &str, value: impl ToString, reason: &str) -> Self {
        Error::Parameter {
            name: name.to_string(),
            value: readable_value(value.to_string()),
            reason: reason.to_string(),
        }
    }
}

/// `text` in scientific form (`1e-300`) when it is the long `Display` of a double, else
/// unchanged: a value the user typed keeps its spelling unless it is that same text.
fn readable_value(text: String) -> String {
    if text.len() > 24
        && let Ok(x) = text.parse::<f64>()
        && x.to_string() == text
    {
        return format!("{x:e}");
    }
    text
}

/// Result alias.
pub type Result<T> = std::result::Result<T, Error>;

/// Checks that every named value is finite and > 0, in the order given: a value outside
/// that domain is [`Error::Parameter`] (the rule of this module), whichever module sees it.
///
/// # Errors
/// [`Error::Parameter`] `must be finite and > 0` naming the first value that is not.
pub(crate) fn positive_finite(values: &[(&str, f64)]) -> Result<()> {
    for &(name, v) in values {
        if !v.is_finite() || v <= 0.0 {
            return Err(Error::param(name, v, "must be finite and > 0"));
        }
    }
    Ok(())
}

/// Checks that a batch size `b` is a batch of `n` records: `1 ≤ b ≤ n` (so `n ≥ 1`).
///
/// # Errors
/// [`Error::Parameter`] `batch` `must satisfy 1 ≤ b ≤ n` otherwise.
pub fn batch_within(n: u64, b: u64) -> Result<()> {
    if b == 0 || b > n {
        return Err(Error::param("batch", b, "must satisfy 1 ≤ b ≤ n"));
    }
    Ok(())
}

/// Builds a hypothesis error.
pub(crate) fn hyp(
    result: impl Into<Subject>,
    hypothesis: &str,
    detail: impl Into<String>,
) -> Error {
    Error::Hypothesis {
        result: result.into(),
        hypothesis: hypothesis.to_string(),
        detail: detail.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extreme_doubles_read_in_scientific_form_and_typed_text_is_kept() {
        let e = Error::param("sigma", 1e-300, "must be > 0");
        assert!(e.to_string().contains("1e-300"), "{e}");
        let e = Error::param("sigma", 1e300, "too large");
        assert!(e.to_string().contains("1e300"), "{e}");
        // a typed decimal that is not a double's Display keeps its spelling
        let e = Error::param("delta", "0.1000000000000000000000000001", "typed");
        assert!(
            e.to_string().contains("0.1000000000000000000000000001"),
            "{e}"
        );
        assert!(Error::param("p", 0.5, "x").to_string().contains("0.5"));
    }

    #[test]
    fn hypothesis_names_its_subject_as_printed() {
        let e = hyp(ResultId::Bsa24Thm4_2, "H3: c < 1", "c = 1.5");
        assert_eq!(
            e.to_string(),
            "BSA24 Thm 4.2 does not apply: hypothesis H3: c < 1 fails (c = 1.5)"
        );
        assert!(matches!(
            e,
            Error::Hypothesis {
                result: Subject::Result(ResultId::Bsa24Thm4_2),
                ..
            }
        ));
        let s = Subject::Sampler("shuffle");
        assert_eq!(s.to_string(), "the shuffle sampler");
        assert_eq!(s.result_id(), None);
        let o = Subject::Other("BSA24 (last iterate)");
        assert_eq!(o.to_string(), "BSA24 (last iterate)");
        assert_eq!(
            Subject::from(ResultId::RdpComposition).result_id(),
            Some(ResultId::RdpComposition)
        );
    }
}
