//! Privacy bounds as values with provenance.
//!
//! A [`Bound`] carries its tradeoff function (μ for Gaussian bounds), the result it comes
//! from (paper and number, e.g. `BSA24 Thm 4.2`), the hypotheses that were checked
//! against the setting, and converts to (ε, δ)-DP with certified rounding. Only this
//! module constructs bounds; a result whose hypotheses fail for a setting returns
//! [`Error::Hypothesis`] naming the hypothesis, and the other results are still reported.
pub mod bsa24;

use crate::error::{Error, Result};
use crate::precision::{Enclosure, Precision};
use crate::settings::{Algorithm, Setting};
use crate::tradeoff::{Certified, Gaussian, Path};

/// The tradeoff function a bound certifies: `T(A(S), A(S′)) ≥ f` for adjacent S, S′.
#[derive(Debug, Clone)]
pub enum BoundKind {
    /// μ-GDP: `f = G(μ)`; μ is an enclosure, reported by its upper end.
    Gdp {
        /// Enclosure of μ.
        mu: Enclosure,
    },
    /// Pure ε-DP: `f = f_{ε,0}`.
    Pure {
        /// Enclosure of ε.
        eps: Enclosure,
    },
}

/// A privacy bound with its provenance.
#[derive(Debug, Clone)]
pub struct Bound {
    /// Result id, e.g. `BSA24 Thm 4.2`.
    pub id: &'static str,
    /// What the result covers.
    pub title: &'static str,
    /// The certified tradeoff function.
    pub kind: BoundKind,
    /// Hypotheses of the result, each as checked for this setting.
    pub hypotheses: Vec<String>,
    /// The source claims the bound is exact (tight) under the checked hypotheses.
    pub exact: bool,
    /// Remarks (e.g. whether it is a statement about stationary distributions).
    pub notes: Vec<String>,
}

impl Bound {
    /// The GDP parameter, if the bound is Gaussian.
    pub fn mu(&self) -> Option<&Enclosure> {
        match &self.kind {
            BoundKind::Gdp { mu } => Some(mu),
            BoundKind::Pure { .. } => None,
        }
    }

    /// Certified upper bound on ε at `delta`.
    ///
    /// # Errors
    /// As [`Gaussian::epsilon`].
    pub fn epsilon(&self, delta: &Enclosure, prec: Precision) -> Result<Certified> {
        match &self.kind {
            BoundKind::Gdp { mu } => {
                Gaussian::epsilon(&mu.with_prec(delta.prec().max(64)), delta, prec)
            }
            BoundKind::Pure { eps } => Ok(Certified {
                enclosure: eps.clone(),
                path: Path::Mpfr(eps.prec()),
            }),
        }
    }

    /// Short description of the tradeoff function.
    pub fn tradeoff_summary(&self) -> String {
        match &self.kind {
            BoundKind::Gdp { mu } => format!("G(μ), μ ≤ {}", crate::cli::fmt_up(mu.hi(), 40)),
            BoundKind::Pure { eps } => {
                format!("(ε, 0)-DP, ε ≤ {}", crate::cli::fmt_up(eps.hi(), 40))
            }
        }
    }
}

/// A result as a function of a setting.
pub type BoundFn = fn(&Setting) -> Result<Bound>;

/// Every result of the library that concerns `setting`'s algorithm, each either a bound
/// or the reason it does not apply.
pub fn bounds_for(setting: &Setting) -> Vec<(&'static str, Result<Bound>)> {
    use bsa24::*;
    let list: Vec<(&'static str, BoundFn)> = match setting.algorithm {
        Algorithm::Gd => vec![(THM_4_1, thm_4_1), (THM_4_2, thm_4_2), (THM_4_3, thm_4_3)],
        Algorithm::Cgd => vec![(THM_4_4, thm_4_4), (THM_4_5, thm_4_5), (THM_4_6, thm_4_6)],
        Algorithm::Sgd => vec![],
        Algorithm::Lmc => vec![
            (THM_4_2, thm_4_2),
            (PROP_5_1, prop_5_1),
            (COR_5_2_ETA, cor_5_2_stationary),
            (COR_5_2_EXP, cor_5_2_exponential),
            (THM_4_3, thm_4_3),
            (COR_5_4_ETA, cor_5_4_stationary),
            (COR_5_4_EXP, cor_5_4_exponential),
            (MT07_EXP, exponential_mechanism_pure),
        ],
    };
    list.into_iter().map(|(id, f)| (id, f(setting))).collect()
}

/// Builds a hypothesis error.
pub(crate) fn hyp(result: &str, hypothesis: &str, detail: impl Into<String>) -> Error {
    Error::Hypothesis {
        result: result.to_string(),
        hypothesis: hypothesis.to_string(),
        detail: detail.into(),
    }
}
