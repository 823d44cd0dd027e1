//! Integer search over the start time τ of the shifted interpolation.
//!
//! For fixed τ the schedule problem is a convex QP ([`super::kkt`]); the best τ is
//! found by evaluating the exact KKT optimum (in `f64`) at each candidate and keeping
//! the smallest μ, then re-solving at that τ in the caller's precision.
//!
//! * Without a constraint τ = 0 is optimal: starting later is the τ = 0 problem with
//!   a_k = 0 forced for k ≤ τ (the gap z_τ is the unshifted recursion), so no search
//!   is needed.
//! * With a diameter D every τ = 0, …, t − 1 is admissible (z_0 = 0, z_τ ≤ D).
//!
//! Any τ gives a valid bound, so an incomplete search costs only tightness.
//!
//! # References
//! BSA24 Thm 3.3 (τ is a free analysis parameter), §4 (τ optimized per setting).
use super::kkt::{KktSolution, solve_kkt, solve_kkt_runs};
use super::problem::{ScheduleProblem, ScheduleReal};
use super::runs::{RunProblem, WorkBudget};
use crate::error::Result;

/// How to search τ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TauSearch {
    /// Use exactly this τ.
    Fixed(usize),
    /// Every τ = 0, …, t − 1 (O(t²) work).
    Exhaustive,
    /// Exhaustive up to `limit` candidates; beyond, the lengths t − τ on a geometric
    /// grid (ratio 1.05) refined exhaustively around the best (a heuristic: sound, and
    /// exact when μ is unimodal in τ).
    Auto {
        /// Largest horizon searched exhaustively.
        limit: usize,
    },
}

impl Default for TauSearch {
    fn default() -> Self {
        TauSearch::Auto { limit: 4096 }
    }
}

/// Result of the τ search.
#[derive(Debug, Clone)]
pub struct TauResult<R> {
    /// The KKT optimum at the best τ, in the caller's precision.
    pub best: KktSolution<R>,
    /// (τ, μ) for every τ evaluated (f64 estimates), sorted by τ.
    pub profile: Vec<(usize, f64)>,
}

/// Finds the τ with the smallest KKT optimum μ.
///
/// # Formula
/// τ* = argmin_τ μ*(τ), μ*(τ) from [`solve_kkt_runs`] in `f64` (the midpoints, converted
/// to runs once); the optimum at τ* again by [`solve_kkt`] in the caller's precision.
///
/// # Errors
/// As [`solve_kkt`]; [`crate::Error::Parameter`] for a fixed τ ≥ t.
///
/// # Example
/// ```
/// use shiftdp::schedules::{ScheduleProblem, tau::{search_tau, TauSearch}};
/// // constrained convex: c = 1, s = ς = 1, D = 4, t = 20: best length T = D/s = 4,
/// // μ² = (D + T s)²/T = 16
/// let p = ScheduleProblem::constant(20, 1.0_f64, 1.0, 1.0, Some(4.0)).unwrap();
/// let r = search_tau(&p, TauSearch::Exhaustive).unwrap();
/// assert_eq!(r.best.tau, 16);
/// assert!((r.best.mu2 - 16.0).abs() < 1e-12);
/// ```
///
/// # References
/// BSA24 Thm 3.3, §4.
pub fn search_tau<R: ScheduleReal>(
    p: &ScheduleProblem<R>,
    search: TauSearch,
) -> Result<TauResult<R>> {
    let q = RunProblem::from_problem(&p.to_mid_f64())?;
    let mut budget = WorkBudget::with_limit(p.horizon(), u64::MAX);
    let (bt, profile) = search_with(p.horizon(), p.diameter().is_some(), search, |tau| {
        Ok(solve_kkt_runs(&q, tau, &mut budget)?.mu2.sqrt())
    })?;
    let best = solve_kkt(p, bt)?;
    Ok(TauResult { best, profile })
}

/// The τ search itself, for a problem of horizon `t` (`constrained`: it has a
/// diameter) whose optimum at τ is `eval(τ)`: the candidates of [`TauSearch`], then
/// (Auto beyond its limit) the exhaustive refinement around the best grid point.
/// Returns the best τ and the profile sorted by τ. Shared by [`search_tau`] and
/// [`super::runs::search_tau_runs`].
///
/// # Errors
/// [`crate::Error::Parameter`] for a fixed τ ≥ t; any error of `eval`.
pub(crate) fn search_with(
    t: usize,
    constrained: bool,
    search: TauSearch,
    mut eval: impl FnMut(usize) -> Result<f64>,
) -> Result<(usize, Vec<(usize, f64)>)> {
    let candidates: Vec<usize> = match search {
        TauSearch::Fixed(tau) => {
            if tau >= t {
                return Err(crate::Error::param(
                    "tau",
                    tau,
                    &format!("must be < t = {t}"),
                ));
            }
            vec![tau]
        }
        _ if !constrained => vec![0],
        TauSearch::Exhaustive => (0..t).collect(),
        TauSearch::Auto { limit } if t <= limit => (0..t).collect(),
        TauSearch::Auto { .. } => {
            let mut v = vec![0];
            let mut len = 1.0_f64;
            while (len as usize) < t {
                v.push(t - len as usize);
                len = (len * 1.05).max(len + 1.0);
            }
            v
        }
    };
    let mut profile = Vec::with_capacity(candidates.len());
    for &tau in &candidates {
        profile.push((tau, eval(tau)?));
    }
    if let TauSearch::Auto { limit } = search
        && t > limit
        && constrained
    {
        // refine around the best grid point
        let (bt, _) = best_of(&profile);
        let i = candidates.iter().position(|&x| x == bt).unwrap_or(0);
        let lo = candidates.get(i + 1).copied().unwrap_or(0);
        let hi = if i == 0 { bt } else { candidates[i - 1] };
        let (lo, hi) = (lo.min(hi), lo.max(hi));
        for tau in lo..=hi.min(t - 1) {
            if !candidates.contains(&tau) {
                profile.push((tau, eval(tau)?));
            }
        }
    }
    profile.sort_by_key(|x| x.0);
    let (bt, _) = best_of(&profile);
    Ok((bt, profile))
}

fn best_of(profile: &[(usize, f64)]) -> (usize, f64) {
    profile
        .iter()
        .copied()
        .fold((0, f64::INFINITY), |b, x| if x.1 < b.1 { x } else { b })
}
