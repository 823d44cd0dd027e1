//! Privacy bounds as values with provenance.
//!
//! A [`Bound`] carries its tradeoff function (μ for Gaussian bounds), the result it comes
//! from (paper and number, e.g. `BSA24 Thm 4.2`), the hypotheses that were checked
//! against the setting, and converts to (ε, δ)-DP with certified rounding. Only this
//! module constructs bounds; a result whose hypotheses fail for a setting returns
//! [`Error::Hypothesis`] naming the hypothesis, and the other results are still reported.
pub mod bsa24;
pub mod bsa24_sgd;
pub mod closed_form;

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
    /// A composition family indexed by τ (stochastic batches), evaluated numerically
    /// with a certified interval; τ is optimized per δ.
    Composed {
        /// The family.
        family: bsa24_sgd::SgdFamily,
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
            _ => None,
        }
    }

    /// Certified upper bound on ε at `delta`, and the τ chosen (composition families).
    ///
    /// # Errors
    /// As [`Bound::epsilon`].
    pub fn epsilon_with_tau(
        &self,
        delta: &Enclosure,
        prec: Precision,
    ) -> Result<(Certified, Option<u64>)> {
        match &self.kind {
            BoundKind::Composed { family } => {
                // the engine works in f64: use the δ at or below the given one (safe)
                family.certified(delta.lower_f64())
            }
            _ => self.epsilon(delta, prec).map(|c| (c, None)),
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
            BoundKind::Composed { family } => family.certified(delta.lower_f64()).map(|x| x.0),
        }
    }

    /// Short description of the tradeoff function.
    pub fn tradeoff_summary(&self) -> String {
        match &self.kind {
            BoundKind::Gdp { mu } => format!("G(μ), μ ≤ {}", crate::cli::fmt_up(mu.hi(), 40)),
            BoundKind::Pure { eps } => {
                format!("(ε, 0)-DP, ε ≤ {}", crate::cli::fmt_up(eps.hi(), 40))
            }
            BoundKind::Composed { family } => match family {
                bsa24_sgd::SgdFamily::Composition { p, u, t } => format!("C_{p}(G({u}))^⊗{t}"),
                bsa24_sgd::SgdFamily::StronglyConvex { p, u, .. } => {
                    format!("G(2√2·{u}·Σc^j) ⊗ C_{p}(G(2√2·{u})) ⊗ C_{p}(G(2·{u}))^⊗(t−τ)")
                }
                bsa24_sgd::SgdFamily::ConstrainedConvex { p, u, .. } => {
                    format!("G(√2 D/(ησ√(t−τ))) ⊗ C_{p}(G(2√2·{u}))^⊗(t−τ)")
                }
            },
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
        Algorithm::Sgd => vec![
            (bsa24_sgd::THM_4_8, bsa24_sgd::thm_4_8),
            (bsa24_sgd::THM_4_9, bsa24_sgd::thm_4_9),
            (bsa24_sgd::THM_4_10, bsa24_sgd::thm_4_10),
        ],
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
