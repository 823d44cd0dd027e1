//! Analysis: one run in, every bound of the five papers out, the best valid one marked.
//!
//! This is the question a user asks — *here is my training run; what is the tightest
//! honest ε, from which result, and why do the others not apply?* — answered once, for
//! the command line, the Python package and downstream property tests alike.
//!
//! A validated run ([`Setting`]) and a [`Query`] (ε at δ, δ at ε, or the Rényi
//! divergence at order α) go in; out comes an [`Analysis`]: one [`Entry`] per result
//! of BSA24 (f-DP / GDP, Thms 4.1–4.10, Prop 5.1, Cors 5.2 and 5.4), the Table 1 RDP
//! curve, CYS21, YS22, AT22 and the composition baselines that concerns the run's
//! algorithm. Each entry is one of
//!
//! * [`Outcome::Certified`]: the [`Bound`] (what it certifies, with its hypotheses and
//!   provenance) and the certified answer to the query ([`Answer`]: an enclosure whose
//!   upper end is the reported value, and the conversion used);
//! * [`Outcome::Unevaluated`]: the bound holds, but the query could not be certified
//!   for it (e.g. a conversion this bound kind does not have), with the reason;
//! * [`Outcome::Inapplicable`]: the hypothesis that fails ([`Error::Hypothesis`] names
//!   the result and the hypothesis label of its proof file).
//!
//! The best entry is the one with the smallest certified value among the entries that
//! are statements about the t-step run itself in the toolkit's replace-one adjacency
//! ([`Entry::eligible`]): results about stationary laws, the exponential mechanism or
//! add/remove adjacency are listed but never marked best.
//!
//! # Rounding
//! Every reported value is the upper end of a certified enclosure (ε, δ and Rényi
//! values are upper bounds on privacy loss). f-DP bounds convert to (ε, δ) exactly
//! (Gaussian: `Gaussian::epsilon`; composed families: the certified PLD engine with τ
//! optimized); Rényi curves convert with the best of the four RDP → (ε, δ) conversions
//! of docs/conventions.md §3 (`renyi::best_conversion`), evaluated with directed rounding.
//!
//! # Example
//! Every bound for the BSA24 Table 1 run (n = 60000, b = 1500, E = 50, c = 0.9999,
//! L/(bσ) = 2/3) at δ = 1e-5:
//! ```
//! use shiftdp::{Algorithm, Precision, Query, ResultId, Setting, analyze};
//! let run = Setting::from_pairs(Algorithm::Cgd, &[
//!     ("n", "60000"), ("batch", "1500"), ("epochs", "50"), ("eta", "1"),
//!     ("noise", "1"), ("sensitivity", "1000"), ("contraction", "0.9999"),
//! ])?;
//! let a = analyze(&run, &Query::epsilon_at("1e-5")?, Precision::F64)?;
//! let best = a.best().unwrap();
//! assert_eq!(best.id, ResultId::Bsa24Thm4_5);
//! assert!(best.upper_f64().unwrap() <= 4.3392);
//! let rdp = a.entry(ResultId::Bsa24Table1Rdp).unwrap();
//! assert!((rdp.upper_f64().unwrap() - 5.8223).abs() < 1e-4);
//! # Ok::<(), shiftdp::Error>(())
//! ```
pub mod sampled;
pub mod table1;

use crate::bounds::{Bound, BoundKind};
use crate::error::{Error, Result};
use crate::precision::{Enclosure, Precision};
use crate::provenance::{Paper, ResultId};
use crate::renyi::best_conversion;
use crate::settings::Setting;
use crate::tradeoff::Gaussian;
use std::cmp::Ordering;

/// Working precision (bits) of a query's number.
const QUERY_BITS: u32 = 128;

/// What to compute for every bound of a run.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Query {
    /// A certified upper bound on ε at δ: the run is (ε, δ)-DP.
    Epsilon {
        /// δ ∈ (0, 1).
        delta: Enclosure,
    },
    /// A certified upper bound on δ at ε: the run is (ε, δ)-DP.
    Delta {
        /// ε ≥ 0.
        epsilon: Enclosure,
    },
    /// A certified upper bound on the Rényi divergence D_α of the run at order α.
    Renyi {
        /// α > 1.
        alpha: f64,
    },
}

impl Query {
    /// ε at δ, with δ given as a decimal (`"1e-5"`), kept as an enclosure of the
    /// decimal as typed.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless δ is a decimal in (0, 1).
    pub fn epsilon_at(delta: &str) -> Result<Query> {
        Self::epsilon_at_bits(delta, QUERY_BITS)
    }

    /// As [`Query::epsilon_at`], the decimal enclosed at `bits` bits.
    ///
    /// # Errors
    /// As [`Query::epsilon_at`]; [`Error::Precision`] for `bits` outside MPFR's range.
    pub fn epsilon_at_bits(delta: &str, bits: u32) -> Result<Query> {
        Enclosure::check_bits(bits)?;
        let d = Enclosure::parse(bits, delta)
            .map_err(|_| Error::param("delta", delta, "expects a finite decimal number"))?;
        crate::precision::delta::Delta::check(&d)?;
        Ok(Query::Epsilon { delta: d })
    }

    /// δ at ε, with ε given as a decimal.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless ε is a finite decimal ≥ 0.
    pub fn delta_at(epsilon: &str) -> Result<Query> {
        let e = Enclosure::parse(QUERY_BITS, epsilon)
            .map_err(|_| Error::param("epsilon", epsilon, "expects a finite decimal number"))?;
        if e.lower_f64() < 0.0 {
            return Err(Error::param("epsilon", epsilon, "must be ≥ 0"));
        }
        Ok(Query::Delta { epsilon: e })
    }

    /// The Rényi divergence at order α.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless α is finite and > 1.
    pub fn renyi_at(alpha: f64) -> Result<Query> {
        if !(alpha.is_finite() && alpha > 1.0) {
            return Err(Error::param("alpha", alpha, "must be finite and > 1"));
        }
        Ok(Query::Renyi { alpha })
    }

    /// What the reported values are, e.g. `ε at δ`.
    pub fn quantity(&self) -> &'static str {
        match self {
            Query::Epsilon { .. } => "ε at δ",
            Query::Delta { .. } => "δ at ε",
            Query::Renyi { .. } => "D_α at α",
        }
    }
}

pub use crate::results::Family;

/// The certified answer to a [`Query`] for one bound.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Enclosure of the bound's value; the upper end is the reported (safe) value.
    pub value: Enclosure,
    /// The conversion used (e.g. `exact f-DP → (ε, δ) of G(μ), μ ≤ …`, or the RDP
    /// conversion and its order).
    pub conversion: String,
    /// The Rényi order the conversion chose, if any.
    pub alpha: Option<f64>,
    /// τ chosen (BSA24 composition families, optimized per query).
    pub tau: Option<u64>,
    /// For a bound that is a composition the engine certifies (BSA24 Thms 4.8–4.10, the
    /// MTZ19 composition baseline):
    /// the theorem's own evaluation and the refined certified composition of the same
    /// object, the tighter of which is [`Answer::value`].
    pub composition: Option<CompositionCheck>,
}

/// One bound's ε computed two ways for the same composition (both certified upper
/// bounds on the ε of one mechanism, so the smaller is reported):
///
/// * `theorem`: the result's own evaluation — for BSA24 Thms 4.8–4.10 the composition
///   at the engine's default grid for the τ search
///   ([`SgdFamily::best_epsilon`](crate::bounds::bsa24_sgd::SgdFamily::best_epsilon)),
///   for the MTZ19 composition baseline its RDP conversion;
/// * `composition`: the composition at the chosen τ certified by
///   [`Composition::answer`](crate::composition::Composition::answer), refined to the
///   width goal [`COMPOSITION_TOLERANCE`](crate::bounds::bsa24_sgd::COMPOSITION_TOLERANCE)
///   (what `shiftdp compose` reports for the same composition).
#[derive(Debug, Clone)]
pub struct CompositionCheck {
    /// The composition, e.g. `C_0.1(G(0.5))^⊗20`.
    pub object: String,
    /// Certified ε of the theorem's evaluation.
    pub theorem: Enclosure,
    /// Certified ε of the refined composition, if it could be certified.
    pub composition: Option<Enclosure>,
    /// Final grid exponent of the refined composition (`h = 2^{−e}`).
    pub grid_exp: Option<i32>,
    /// Whether the refined composition is the tighter (strictly smaller upper end);
    /// otherwise the theorem's evaluation is reported.
    pub composition_tighter: bool,
}

/// One result's verdict for the run.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Outcome {
    /// The result applies and the query was certified.
    Certified {
        /// The bound.
        bound: Bound,
        /// The certified answer.
        answer: Answer,
    },
    /// The result applies, but the query could not be certified for it.
    Unevaluated {
        /// The bound.
        bound: Bound,
        /// The conversion that was tried, if any.
        conversion: Option<String>,
        /// Why it could not be certified.
        reason: Error,
    },
    /// A hypothesis of the result fails for the run (or its parameters are outside
    /// the result's domain).
    Inapplicable {
        /// The hypothesis that fails.
        reason: Error,
    },
}

/// One result of the analysis.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The result.
    pub id: ResultId,
    /// f-DP or Rényi DP.
    pub family: Family,
    /// What the result covers (empty for an inapplicable BSA24 result).
    pub title: String,
    /// The verdict.
    pub outcome: Outcome,
    /// Whether the entry may be marked best: a statement about the t-step run itself,
    /// under the toolkit's replace-one adjacency.
    pub eligible: bool,
}

impl Entry {
    /// The paper the result comes from.
    pub fn paper(&self) -> Paper {
        self.id.paper()
    }

    /// The bound, if the result applies.
    pub fn bound(&self) -> Option<&Bound> {
        match &self.outcome {
            Outcome::Certified { bound, .. } | Outcome::Unevaluated { bound, .. } => Some(bound),
            Outcome::Inapplicable { .. } => None,
        }
    }

    /// The certified answer, if any.
    pub fn answer(&self) -> Option<&Answer> {
        match &self.outcome {
            Outcome::Certified { answer, .. } => Some(answer),
            _ => None,
        }
    }

    /// The reported value: the upper end of the certified answer.
    pub fn upper(&self) -> Option<&rug::Float> {
        self.answer().map(|a| a.value.hi())
    }

    /// The reported value rounded up to f64.
    pub fn upper_f64(&self) -> Option<f64> {
        self.answer().map(|a| a.value.upper_f64())
    }

    /// Why the entry has no certified value (hypothesis failure or evaluation error).
    pub fn reason(&self) -> Option<&Error> {
        match &self.outcome {
            Outcome::Certified { .. } => None,
            Outcome::Unevaluated { reason, .. } | Outcome::Inapplicable { reason } => Some(reason),
        }
    }

    /// The conversion used or tried, if any.
    pub fn conversion(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Certified { answer, .. } => Some(&answer.conversion),
            Outcome::Unevaluated { conversion, .. } => conversion.as_deref(),
            Outcome::Inapplicable { .. } => None,
        }
    }
}

/// Every result that concerns a run, answered for one query, the best marked.
#[derive(Debug, Clone)]
pub struct Analysis {
    query: Query,
    entries: Vec<Entry>,
    best: Option<usize>,
}

impl Analysis {
    /// The query answered.
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// Every entry, BSA24 first (in the order of the paper), then the Rényi results.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The best valid entry: the smallest certified value among eligible entries.
    pub fn best(&self) -> Option<&Entry> {
        self.best.map(|i| &self.entries[i])
    }

    /// Index of the best valid entry in [`Analysis::entries`].
    pub fn best_index(&self) -> Option<usize> {
        self.best
    }

    /// The entry of result `id`, if it concerns the run.
    pub fn entry(&self, id: ResultId) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }
}

/// Which results to include.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scope {
    /// Every result of the five papers and the baselines.
    All,
    /// The f-DP results of BSA24 only (what `shiftdp bound` reports).
    Bsa24,
}

/// Every result of the five papers that concerns `run`, each answered for `query`,
/// the best valid one marked.
///
/// # Errors
/// Only an invalid precision; an inapplicable result is an [`Outcome::Inapplicable`]
/// entry, not an error.
pub fn analyze(run: &Setting, query: &Query, prec: Precision) -> Result<Analysis> {
    analyze_scope(run, query, prec, Scope::All)
}

/// As [`analyze`], restricted to `scope`.
///
/// # Errors
/// As [`analyze`].
pub fn analyze_scope(
    run: &Setting,
    query: &Query,
    prec: Precision,
    scope: Scope,
) -> Result<Analysis> {
    let mut entries = vec![];
    for result in crate::results::concerning(run) {
        let id = result.id();
        let family = result.family();
        if scope == Scope::Bsa24 && family != Family::FDp {
            continue;
        }
        let outcome = match result.bound(run) {
            Ok(b) => evaluate(b, query, prec),
            Err(e) => Outcome::Inapplicable { reason: e },
        };
        let outcome = match (outcome, query) {
            (Outcome::Certified { bound, mut answer }, Query::Epsilon { delta })
                if id == ResultId::Ys22Baseline =>
            {
                answer.composition = poisson_composition_check(run, &answer.value, delta);
                if let Some(CompositionCheck {
                    composition: Some(e),
                    composition_tighter: true,
                    ..
                }) = &answer.composition
                {
                    answer.value = e.clone();
                    answer.conversion = format!(
                        "the certified PLD composition (tighter than {})",
                        answer.conversion
                    );
                }
                Outcome::Certified { bound, answer }
            }
            (o, _) => o,
        };
        // an f-DP bound is eligible when it is a statement about the run itself; a
        // Rényi result by the registry's mark (its adjacency)
        let eligible = match (&outcome, family) {
            (
                Outcome::Certified { bound, .. } | Outcome::Unevaluated { bound, .. },
                Family::FDp,
            ) => bound.is_about_the_run(),
            _ => result.eligible(),
        };
        let title = match (&outcome, result.title()) {
            (_, Some(t)) => t.to_string(),
            (Outcome::Certified { bound, .. } | Outcome::Unevaluated { bound, .. }, None) => {
                bound.title.clone()
            }
            (Outcome::Inapplicable { .. }, None) => String::new(),
        };
        entries.push(Entry {
            id,
            family,
            title,
            outcome,
            eligible,
        });
    }
    let best = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.eligible)
        .filter_map(|(i, e)| e.upper().map(|u| (i, u, tie_break_mu(e))))
        .min_by(|x, y| {
            x.1.partial_cmp(y.1)
                .unwrap_or(Ordering::Equal)
                .then(x.2.total_cmp(&y.2))
        })
        .map(|(i, _, _)| i);
    Ok(Analysis {
        query: query.clone(),
        entries,
        best,
    })
}

/// Among entries whose answers tie (e.g. ε = 0 at a large δ), the one with the
/// smaller μ is the stronger statement: the key is the entry's μ-GDP upper end, +∞
/// for entries that are not μ-GDP.
fn tie_break_mu(e: &Entry) -> f64 {
    e.bound()
        .and_then(|b| b.mu())
        .map_or(f64::INFINITY, |m| m.upper_f64())
}

/// The bound of one result for `run`: `None` if the result does not concern the run's
/// algorithm, else the bound or the hypothesis that fails. This is the entry point the
/// validator (`check`), the verifier and claims use, so they test exactly the bounds
/// [`analyze`] reports.
///
/// # Example
/// ```
/// use shiftdp::{Algorithm, ResultId, Setting, analysis::bound};
/// let run = Setting::from_pairs(Algorithm::Gd, &[
///     ("n", "10"), ("steps", "100"), ("eta", "0.1"), ("noise", "1"), ("sensitivity", "1"),
/// ])?;
/// let b = bound(&run, ResultId::Bsa24Thm4_1).unwrap()?;
/// assert!((b.mu().unwrap().upper_f64() - 1.0).abs() < 1e-12); // √100 · 1/(10·1)
/// assert!(bound(&run, ResultId::Bsa24Thm4_2).unwrap().is_err()); // not strongly convex
/// assert!(bound(&run, ResultId::Bsa24Thm4_5).is_none()); // a NoisyCGD result
/// # Ok::<(), shiftdp::Error>(())
/// ```
pub fn bound(run: &Setting, id: ResultId) -> Option<Result<Bound>> {
    crate::results::find(run, id).map(|r| r.bound(run))
}

/// As [`bound`], with the result named by its id text (`BSA24 Thm 4.2`); `None` also
/// for a text that is not a result id.
pub fn bound_named(run: &Setting, id: &str) -> Option<Result<Bound>> {
    ResultId::parse(id).and_then(|id| bound(run, id))
}

/// Bits for the Rényi-curve conversions.
fn rdp_bits(prec: Precision) -> u32 {
    prec.mpfr_bits().max(128)
}

/// The certified answer of one bound to the query.
fn evaluate(bound: Bound, query: &Query, prec: Precision) -> Outcome {
    let (conversion, r) = answer(&bound, query, prec);
    match r {
        Ok(answer) => Outcome::Certified { bound, answer },
        Err(reason) => Outcome::Unevaluated {
            bound,
            conversion,
            reason,
        },
    }
}

/// The refined certified composition of a composed bound at the chosen τ, beside the
/// theorem's evaluation `theorem` ([`CompositionCheck`]); `None` for other bound kinds.
fn composition_check(
    bound: &Bound,
    theorem: &Enclosure,
    tau: Option<u64>,
    delta: &Enclosure,
) -> Option<CompositionCheck> {
    let BoundKind::Composed { family } = &bound.kind else {
        return None;
    };
    let tau = tau.unwrap_or(*family.taus().start());
    let object = family.describe(tau).ok()?;
    // the engine works in f64: the δ at or below the given one (safe)
    let refined = family.composition_epsilon(tau, delta.lower_f64()).ok();
    let composition = refined.and_then(|(iv, _)| {
        Enclosure::new(
            rug::Float::with_val(53, iv.lower),
            rug::Float::with_val(53, iv.upper),
        )
    });
    let composition_tighter = composition
        .as_ref()
        .is_some_and(|c| c.upper_f64() < theorem.upper_f64());
    Some(CompositionCheck {
        object,
        theorem: theorem.clone(),
        composition,
        grid_exp: refined.map(|r| r.1),
        composition_tighter,
    })
}

/// The MTZ19 baseline's object — t Poisson-subsampled Gaussians at rate q = b/n and
/// μ = L/(bσ), add/remove adjacency, both orders — certified by the PLD engine
/// ([`Composition::answer`](crate::composition::Composition::answer)) beside the RDP
/// conversion `rdp` of the same object. q and μ are rounded up (the privacy loss
/// increases in both).
fn poisson_composition_check(
    run: &Setting,
    rdp: &Enclosure,
    delta: &Enclosure,
) -> Option<CompositionCheck> {
    use crate::composition::{Component, Composition, Target};
    let (q, mu) = (run.p().upper_f64(), run.unit().upper_f64());
    let c = Composition::new()
        .with(Component::poisson(q, mu).ok()?, run.t)
        .ok()?;
    let object = format!("{}^⊗{}", Component::poisson(q, mu).ok()?.name(), run.t);
    let a = c
        .answer(
            Target::Delta(delta.lower_f64()),
            crate::bounds::bsa24_sgd::COMPOSITION_TOLERANCE,
            None,
        )
        .ok();
    let grid_exp = a.as_ref().and_then(|a| match &a.method {
        crate::composition::answer::Method::Pld { grid_exp, .. } => Some(*grid_exp),
        crate::composition::answer::Method::GaussianClosedForm { .. }
        | crate::composition::answer::Method::PureDp { .. } => None,
    });
    let composition = a.and_then(|a| {
        Enclosure::new(
            rug::Float::with_val(53, a.interval.lower),
            rug::Float::with_val(53, a.interval.upper),
        )
    });
    let composition_tighter = composition
        .as_ref()
        .is_some_and(|e| e.upper_f64() < rdp.upper_f64());
    Some(CompositionCheck {
        object,
        theorem: rdp.clone(),
        composition,
        grid_exp,
        composition_tighter,
    })
}

fn answer(bound: &Bound, query: &Query, prec: Precision) -> (Option<String>, Result<Answer>) {
    let exact = || format!("exact f-DP → (ε, δ) of {}", bound.tradeoff_summary());
    let unsupported = |what: &str| Error::NotCertified {
        what: format!("{what} of {}", bound.id),
        reason: format!(
            "this bound kind ({}) has no certified conversion to {what}",
            bound.tradeoff_summary()
        ),
    };
    match (query, &bound.kind) {
        (Query::Epsilon { delta }, BoundKind::Renyi { curve }) => {
            let bits = rdp_bits(prec);
            match best_conversion(curve, delta, bits) {
                Ok(bc) => {
                    let conversion = format!(
                        "{}{}",
                        bc.best.conversion.source(),
                        bc.best
                            .alpha
                            .map(|a| format!(" at α = {a:.4}"))
                            .unwrap_or_default()
                    );
                    (
                        Some(conversion.clone()),
                        Ok(Answer {
                            value: bc.best.epsilon.clone(),
                            conversion,
                            alpha: bc.best.alpha,
                            tau: None,
                            composition: None,
                        }),
                    )
                }
                Err(e) => (None, Err(e)),
            }
        }
        (Query::Epsilon { delta }, _) => {
            let conversion = exact();
            let r = bound.epsilon_with_tau(delta, prec).map(|(c, tau)| {
                let composition = composition_check(bound, &c.enclosure, tau, delta);
                let value = match &composition {
                    Some(CompositionCheck {
                        composition: Some(e),
                        composition_tighter: true,
                        ..
                    }) => e.clone(),
                    _ => c.enclosure,
                };
                Answer {
                    value,
                    conversion: conversion.clone(),
                    alpha: None,
                    tau,
                    composition,
                }
            });
            (Some(conversion), r)
        }
        (Query::Delta { epsilon }, BoundKind::Gdp { mu }) => {
            let conversion = exact();
            let r =
                Gaussian::delta(&mu.with_prec(epsilon.prec().max(64)), epsilon, prec).map(|c| {
                    Answer {
                        value: c.enclosure,
                        conversion: conversion.clone(),
                        alpha: None,
                        tau: None,
                        composition: None,
                    }
                });
            (Some(conversion), r)
        }
        (Query::Delta { epsilon }, BoundKind::Pure { eps }) => {
            // f_{ε₀,0}: δ(ε) = (1 − e^{ε − ε₀})₊, computed as an enclosure; its upper
            // end is the reported δ (clamped at 0 from below).
            let conversion = exact();
            let one = Enclosure::from_u64(eps.prec().max(epsilon.prec()), 1);
            let d = one.sub(&epsilon.sub(eps).exp());
            let d = if d.upper_f64() <= 0.0 {
                Enclosure::from_u64(d.prec(), 0)
            } else {
                d
            };
            (
                Some(conversion.clone()),
                Ok(Answer {
                    value: d,
                    conversion,
                    alpha: None,
                    tau: None,
                    composition: None,
                }),
            )
        }
        (Query::Delta { .. }, _) => (None, Err(unsupported("δ at ε"))),
        (Query::Renyi { alpha }, kind) => {
            let bits = rdp_bits(prec);
            let a = Enclosure::from_f64(bits, *alpha);
            let r = match kind {
                // G(μ): D_α = αμ²/2 (Mironov 2017, Prop 7)
                BoundKind::Gdp { mu } => Ok((
                    a.mul(&mu.with_prec(bits).square()).half(),
                    "GDP: D_α = αμ²/2 (Mironov 2017, Prop 7)".to_string(),
                )),
                // pure ε-DP: D_α ≤ D_∞ = ε
                BoundKind::Pure { eps } => Ok((eps.clone(), "pure DP: D_α ≤ ε".to_string())),
                BoundKind::Renyi { curve } => curve
                    .eval(*alpha, bits)
                    .map(|v| (v, format!("Rényi curve {} at α", curve.name()))),
                BoundKind::Composed { .. } => Err(unsupported("D_α")),
            };
            match r {
                Ok((value, conversion)) => (
                    Some(conversion.clone()),
                    Ok(Answer {
                        value,
                        conversion,
                        alpha: Some(*alpha),
                        tau: None,
                        composition: None,
                    }),
                ),
                Err(e) => (None, Err(e)),
            }
        }
    }
}
