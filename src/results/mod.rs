//! The registry of published results: every result of the five papers (and the
//! classical baselines) that gives a bound for a run, written once, and read by
//! [`crate::analysis`], the validator and verifier, the command line and Python.
//!
//! A [`PaperResult`] is a value (as a solver is a value in argmin): its [`ResultId`]
//! (paper, printed number, proof file), the [`Family`] its guarantee is stated in, the
//! runs it concerns (its algorithms, and for results that a run's parameters select
//! among, e.g. AT22 Prop 2.17 / 3.2 / 5.6, the selecting condition), and its bound for
//! a run: the bound with the hypotheses it checked, or [`crate::Error::Hypothesis`]
//! naming the one that fails. [`REGISTRY`] lists them in the order every output uses.
//! The exact instances that test a result are keyed by the same [`ResultId`] in the
//! validator's catalogue.
//!
//! Adding a result: its bound in its paper's module here, its proof file in `proofs/`,
//! one line in [`REGISTRY`], its tests. BSA24's f-DP results are the exception: their
//! functions live in [`crate::bounds`], below [`crate::schedules`], whose cross-checks
//! compare the optimal schedules with them (the AT22 results here build schedule
//! problems, so `results` sits above `schedules`).
//!
//! # Example
//! ```
//! use shiftdp::results::{Family, REGISTRY, concerning};
//! use shiftdp::{Algorithm, ResultId, Setting};
//! let run = Setting::from_pairs(Algorithm::Cgd, &[
//!     ("n", "100"), ("batch", "10"), ("epochs", "5"), ("eta", "0.1"),
//!     ("noise", "1"), ("sensitivity", "1"), ("contraction", "0.99"),
//! ])?;
//! let ids: Vec<ResultId> = concerning(&run).map(|r| r.id()).collect();
//! assert_eq!(ids[..3], [ResultId::Bsa24Thm4_4, ResultId::Bsa24Thm4_5, ResultId::Bsa24Thm4_6]);
//! let table1 = concerning(&run).find(|r| r.id() == ResultId::Bsa24Table1Rdp).unwrap();
//! assert_eq!(table1.family(), Family::Rdp);
//! assert!(table1.bound(&run).is_ok());
//! assert!(shiftdp::results::find(&run, ResultId::Bsa24Thm4_1).is_none()); // a NoisyGD result
//! assert!(REGISTRY.iter().any(|r| r.id() == ResultId::Bsa24Thm4_1));
//! # Ok::<(), shiftdp::Error>(())
//! ```
mod at22;
mod baseline;
mod bsa24;
mod cys21;
mod translation;
mod ys22;

pub use translation::{BASELINE_DIVERGENCE_CAP, Translated};

use crate::bounds::Bound;
use crate::error::Result;
use crate::provenance::ResultId;
use crate::settings::{Algorithm, Setting};
use crate::tradeoff::RdpBound;

/// How a result's guarantee is stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Family {
    /// f-DP: a tradeoff function (GDP, a composed family, pure ε-DP).
    FDp,
    /// Rényi DP: a curve α ↦ ε(α).
    Rdp,
}

impl Family {
    /// `f-DP` or `RDP`.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::FDp => "f-DP",
            Family::Rdp => "RDP",
        }
    }
}

/// A result's bound for a run.
#[derive(Clone, Copy)]
enum Statement {
    /// An f-DP bound, built with its title by the result's function.
    FDp(fn(&Setting) -> Result<Bound>),
    /// A Rényi-DP curve, with the title of the result.
    Rdp {
        title: &'static str,
        curve: fn(&Setting) -> Result<RdpBound>,
    },
}

/// One published result as the toolkit implements it (see the [module](self) docs).
#[derive(Clone, Copy)]
pub struct PaperResult {
    id: ResultId,
    algorithms: &'static [Algorithm],
    selects: Option<fn(&Setting) -> bool>,
    eligible: bool,
    statement: Statement,
}

impl std::fmt::Debug for PaperResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaperResult")
            .field("id", &self.id)
            .field("family", &self.family())
            .field("algorithms", &self.algorithms)
            .finish_non_exhaustive()
    }
}

impl PaperResult {
    /// The result's id (paper, printed number, proof file).
    pub fn id(&self) -> ResultId {
        self.id
    }

    /// How its guarantee is stated.
    pub fn family(&self) -> Family {
        match self.statement {
            Statement::FDp(_) => Family::FDp,
            Statement::Rdp { .. } => Family::Rdp,
        }
    }

    /// The algorithms whose runs the result concerns.
    pub fn algorithms(&self) -> &'static [Algorithm] {
        self.algorithms
    }

    /// What a Rényi result covers (an f-DP bound carries its title).
    pub fn title(&self) -> Option<&'static str> {
        match self.statement {
            Statement::FDp(_) => None,
            Statement::Rdp { title, .. } => Some(title),
        }
    }

    /// Whether the result may be marked best: a statement about the run in the
    /// toolkit's replace-one adjacency (a result stated for add/remove adjacency is
    /// listed, not marked).
    pub fn eligible(&self) -> bool {
        self.eligible
    }

    /// Whether the result concerns `run`: its algorithm, and the condition by which
    /// the run's parameters select this result among its alternatives.
    pub fn concerns(&self, run: &Setting) -> bool {
        self.algorithms.contains(&run.algorithm) && self.selects.is_none_or(|f| f(run))
    }

    /// The bound for `run`, each hypothesis checked against it.
    ///
    /// # Errors
    /// [`crate::Error::Hypothesis`] naming the hypothesis that fails; the errors of the
    /// result's evaluation.
    pub fn bound(&self, run: &Setting) -> Result<Bound> {
        match self.statement {
            Statement::FDp(f) => f(run),
            Statement::Rdp { title, curve } => Ok(Bound::renyi(self.id, title, curve(run)?)),
        }
    }

    const fn new(id: ResultId, algorithms: &'static [Algorithm], statement: Statement) -> Self {
        PaperResult {
            id,
            algorithms,
            selects: None,
            eligible: true,
            statement,
        }
    }

    const fn fdp(
        id: ResultId,
        algorithms: &'static [Algorithm],
        f: fn(&Setting) -> Result<Bound>,
    ) -> Self {
        Self::new(id, algorithms, Statement::FDp(f))
    }

    const fn rdp(
        id: ResultId,
        algorithms: &'static [Algorithm],
        title: &'static str,
        curve: fn(&Setting) -> Result<RdpBound>,
    ) -> Self {
        Self::new(id, algorithms, Statement::Rdp { title, curve })
    }

    const fn selected_by(mut self, f: fn(&Setting) -> bool) -> Self {
        self.selects = Some(f);
        self
    }

    const fn not_eligible(mut self) -> Self {
        self.eligible = false;
        self
    }
}

use crate::bounds::{bsa24 as bsa24_fdp, bsa24_sgd};
use Algorithm::{Cgd, Gd, Lmc, Sgd};
use ResultId as R;

/// Every result, in the order outputs list them: BSA24's f-DP results, then the Rényi
/// results (BSA24 Table 1, the baselines, CYS21, YS22), then AT22's. One line a result.
#[rustfmt::skip]
pub static REGISTRY: &[PaperResult] = &[
    PaperResult::fdp(R::Bsa24Thm4_1, &[Gd], bsa24_fdp::thm_4_1),
    PaperResult::fdp(R::Bsa24Thm4_2, &[Gd, Lmc], bsa24_fdp::thm_4_2),
    PaperResult::fdp(R::Bsa24Prop5_1, &[Lmc], bsa24_fdp::prop_5_1),
    PaperResult::fdp(R::Bsa24Cor5_2Eta, &[Lmc], bsa24_fdp::cor_5_2_stationary),
    PaperResult::fdp(R::Bsa24Cor5_2Exp, &[Lmc], bsa24_fdp::cor_5_2_exponential),
    PaperResult::fdp(R::Bsa24Thm4_3, &[Gd, Lmc], bsa24_fdp::thm_4_3),
    PaperResult::fdp(R::Bsa24Cor5_4Eta, &[Lmc], bsa24_fdp::cor_5_4_stationary),
    PaperResult::fdp(R::Bsa24Cor5_4Exp, &[Lmc], bsa24_fdp::cor_5_4_exponential),
    PaperResult::fdp(R::Mt07Exp, &[Lmc], bsa24_fdp::exponential_mechanism_pure),
    PaperResult::fdp(R::Bsa24Thm4_4, &[Cgd], bsa24_fdp::thm_4_4),
    PaperResult::fdp(R::Bsa24Thm4_5, &[Cgd], bsa24_fdp::thm_4_5),
    PaperResult::fdp(R::Bsa24Thm4_6, &[Cgd], bsa24_fdp::thm_4_6),
    PaperResult::fdp(R::Bsa24Thm4_8, &[Sgd], bsa24_sgd::thm_4_8),
    PaperResult::fdp(R::Bsa24Thm4_9, &[Sgd], bsa24_sgd::thm_4_9),
    PaperResult::fdp(R::Bsa24Thm4_10, &[Sgd], bsa24_sgd::thm_4_10),
    PaperResult::rdp(R::Bsa24Table1Rdp, &[Cgd], bsa24::TABLE_1_TITLE, bsa24::table_1_rdp),
    PaperResult::rdp(R::RdpComposition, &[Gd, Lmc], baseline::STEPS_TITLE, baseline::all_steps),
    PaperResult::rdp(R::RdpComposition, &[Cgd], baseline::RECORD_TITLE, baseline::record_steps),
    PaperResult::rdp(R::Cys21Thm1, &[Gd, Lmc], "noisy GD, any losses", cys21::thm_1),
    PaperResult::rdp(R::Cys21Cor1, &[Gd, Lmc], "noisy GD, strongly convex smooth (LSI)", cys21::cor_1),
    PaperResult::rdp(R::Cys21Thm2, &[Gd, Lmc], "noisy GD under a c-LSI", cys21::thm_2),
    PaperResult::rdp(R::Cys21Cor2, &[Gd, Lmc], "noisy GD on the squared loss", cys21::cor_2),
    PaperResult::rdp(R::Ys22Thm3_3, &[Cgd], "fixed-order mini-batch noisy GD, strongly convex", ys22::thm_3_3),
    PaperResult::rdp(R::Ys22Thm4_3, &[Sgd], ys22::THM_4_3_TITLE, ys22::thm_4_3),
    PaperResult::rdp(R::Ys22Baseline, &[Sgd], ys22::BASELINE_TITLE, ys22::baseline).not_eligible(),
    PaperResult::rdp(R::Ys22Thm4_2, &[Cgd], ys22::SHUFFLED_TITLE, ys22::thm_4_2),
    PaperResult::rdp(R::Ys22Thm2_1, &[Cgd, Sgd], ys22::SHUFFLED_TITLE, ys22::thm_2_1),
    PaperResult::rdp(R::At22Prop5_6, &[Gd, Lmc], at22::PABI_TITLE, at22::pabi_5_6).selected_by(at22::selects_5_6),
    PaperResult::rdp(R::At22Prop3_2, &[Gd, Lmc], at22::PABI_TITLE, at22::pabi_3_2).selected_by(at22::selects_3_2),
    PaperResult::rdp(R::At22Prop2_17, &[Gd, Lmc], at22::PABI_TITLE, at22::pabi_2_17).selected_by(at22::selects_2_17),
    PaperResult::rdp(R::At22EqB1, &[Gd, Lmc], "full-batch recipe", at22::recipe_b1),
    PaperResult::rdp(R::At22Cyclic, &[Cgd], "cyclic noisy GD, PABI with optimal shifts", at22::cyclic),
    PaperResult::rdp(R::At22EqB3, &[Sgd], at22::RECIPE_B_TITLE, at22::recipe_b).selected_by(at22::selects_b3),
    PaperResult::rdp(R::At22EqB2, &[Sgd], at22::RECIPE_B_TITLE, at22::recipe_b).selected_by(at22::selects_b2),
    PaperResult::rdp(R::At22Thm3_1, &[Sgd], "noisy SGD, convex, explicit constants", at22::thm_3_1_explicit),
];

/// The results that concern `run`, in the order of [`REGISTRY`].
pub fn concerning(run: &Setting) -> impl Iterator<Item = &'static PaperResult> + '_ {
    REGISTRY.iter().filter(move |r| r.concerns(run))
}

/// The result `id` for `run`: `None` if it does not concern the run.
pub fn find(run: &Setting, id: ResultId) -> Option<&'static PaperResult> {
    concerning(run).find(|r| r.id == id)
}

/// The f-DP results that concern `run`, each with its bound or the hypothesis that
/// fails.
pub fn fdp_bounds(run: &Setting) -> Vec<(ResultId, Result<Bound>)> {
    concerning(run)
        .filter(|r| r.family() == Family::FDp)
        .map(|r| (r.id, r.bound(run)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's parameters select at most one result per id.
    #[test]
    fn ids_do_not_repeat_within_a_run() {
        for alg in [Gd, Cgd, Sgd, Lmc] {
            let regs: Vec<_> = REGISTRY
                .iter()
                .filter(|r| r.algorithms.contains(&alg))
                .collect();
            for (i, a) in regs.iter().enumerate() {
                for b in &regs[i + 1..] {
                    assert!(
                        a.id != b.id || a.selects.is_some() || b.selects.is_some(),
                        "{} listed twice for {alg:?}",
                        a.id
                    );
                }
            }
        }
    }
}
