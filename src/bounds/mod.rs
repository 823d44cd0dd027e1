//! Privacy bounds as values with provenance.
//!
//! A [`Bound`] carries what it certifies ([`BoundKind`]: a Gaussian tradeoff G(μ), a
//! composed f-DP family, pure ε-DP, or a Rényi-DP curve), the result it comes from
//! ([`ResultId`]: paper, number, proof file), the hypotheses that were checked against
//! the setting, and converts to (ε, δ)-DP with certified rounding. The f-DP bounds of
//! BSA24 are built here ([`bsa24`], [`bsa24_sgd`]); Rényi bounds of the other papers are
//! built from an [`RdpBound`] by [`Bound::renyi`]. A result whose hypotheses fail for a
//! setting returns [`Error::Hypothesis`] naming the hypothesis, and the other results
//! are still reported.
pub mod bsa24;
pub mod bsa24_sgd;

pub(crate) use crate::error::hyp;
use crate::error::{Error, Result};
use crate::precision::{Enclosure, Precision};
pub use crate::provenance::ResultId;
use crate::settings::{Algorithm, Setting};
pub use crate::tradeoff::RdpBound;
use crate::tradeoff::RenyiCurve;
use crate::tradeoff::{Certified, Gaussian, Path};

/// Hypothesis H0 of result `id`: the setting's algorithm is one of `allowed`.
///
/// # Errors
/// [`Error::Hypothesis`] with hypothesis `label` and the name of the algorithm given.
pub(crate) fn require_algorithm(
    id: ResultId,
    s: &Setting,
    allowed: &[Algorithm],
    label: &str,
) -> Result<()> {
    if allowed.contains(&s.algorithm) {
        Ok(())
    } else {
        Err(hyp(id, label, s.algorithm.name()))
    }
}

/// The tradeoff function a bound certifies: `T(A(S), A(S′)) ≥ f` for adjacent S, S′.
#[derive(Debug, Clone)]
#[non_exhaustive]
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
    /// Rényi DP: `D_α(A(S) ‖ A(S′)) ≤ ε(α)` for every order α of the curve; each value
    /// of the curve is the upper end of a certified enclosure.
    Renyi {
        /// The certified curve α ↦ ε(α).
        curve: RenyiCurve,
    },
}

/// A privacy bound with its provenance. Only the library builds one (the BSA24
/// results in [`bsa24`] and [`bsa24_sgd`], the Rényi results through [`Bound::renyi`]);
/// its fields are read through accessors.
#[derive(Debug, Clone)]
pub struct Bound {
    /// The result, e.g. [`ResultId::Bsa24Thm4_2`] (`BSA24 Thm 4.2`).
    pub(crate) id: ResultId,
    /// What the result covers.
    pub(crate) title: String,
    /// The certified tradeoff function.
    pub(crate) kind: BoundKind,
    /// Hypotheses of the result, each as checked for this setting.
    pub(crate) hypotheses: Vec<String>,
    /// The source claims the bound is exact (tight) under the checked hypotheses.
    pub(crate) exact: bool,
    /// Remarks (e.g. whether it is a statement about stationary distributions).
    pub(crate) notes: Vec<String>,
}

impl Bound {
    /// The result, e.g. [`ResultId::Bsa24Thm4_2`].
    pub fn id(&self) -> ResultId {
        self.id
    }

    /// What the result covers.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// What the bound certifies (G(μ), a composed family, pure ε-DP or a Rényi curve).
    pub fn kind(&self) -> &BoundKind {
        &self.kind
    }

    /// The hypotheses of the result, each as checked for the setting.
    pub fn hypotheses(&self) -> &[String] {
        &self.hypotheses
    }

    /// Whether the source claims the bound is exact (tight) under the checked
    /// hypotheses.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Remarks (parameter translations, readings, "about the stationary law").
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// A Rényi-DP bound of result `id` from its curve, hypotheses and notes.
    pub fn renyi(id: ResultId, title: impl Into<String>, r: RdpBound) -> Bound {
        Bound {
            id,
            title: title.into(),
            kind: BoundKind::Renyi { curve: r.curve },
            hypotheses: r.hypotheses,
            exact: false,
            notes: r.notes,
        }
    }

    /// The Rényi curve, if the bound is a Rényi-DP bound.
    pub fn renyi_curve(&self) -> Option<&RenyiCurve> {
        match &self.kind {
            BoundKind::Renyi { curve } => Some(curve),
            _ => None,
        }
    }

    /// Whether the bound is a statement about the t-step run itself (not about a
    /// stationary law or the exponential mechanism, whose notes start with "about").
    pub fn is_about_the_run(&self) -> bool {
        self.notes.iter().all(|n| !n.starts_with("about"))
    }

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
            BoundKind::Renyi { .. } => Err(Error::NotCertified {
                what: format!("ε of {}", self.id),
                reason: "a Rényi curve converts to (ε, δ) through an RDP conversion \
                         (see `analysis`), not exactly"
                    .into(),
            }),
        }
    }

    /// Short description of the tradeoff function.
    pub fn tradeoff_summary(&self) -> String {
        match &self.kind {
            BoundKind::Gdp { mu } => format!("G(μ), μ ≤ {}", crate::decimal::fmt_up(mu.hi(), 40)),
            BoundKind::Pure { eps } => {
                format!("(ε, 0)-DP, ε ≤ {}", crate::decimal::fmt_up(eps.hi(), 40))
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
            BoundKind::Renyi { curve } => format!("Rényi curve {}", curve.name()),
        }
    }
}
