//! The stochastic-batch bounds of BSA24 (§4.3): Thms 4.8, 4.9, 4.10, evaluated through
//! the certified composition engine, with the free start time τ optimized.
//!
//! With `u = L/(bσ)` and `p = b/n`:
//!
//! * Thm 4.8: `C_p(G(u))^{⊗t}`.
//! * Thm 4.9: `G(2√2 u (c^{t−τ+1} − cᵗ)/(1 − c)) ⊗ C_p(G(2√2 u)) ⊗ C_p(G(2u))^{⊗(t−τ)}`.
//!   Reading adopted (ERRATA BSA2): as printed, but with τ ∈ {1, …, t}. At τ = 0 the
//!   printed Gaussian parameter is `−2√2 u cᵗ < 0`, which is no tradeoff function; the
//!   formula accounts for steps 1…τ−1 in the Gaussian term, step τ in the single
//!   `C_p(G(2√2u))` and steps τ+1…t in the `t − τ` factors — t steps in all — so the
//!   printed range 0…t−1 is the same family shifted by one.
//! * Thm 4.10: `G(√2 D/(ησ√(t−τ))) ⊗ C_p(G(2√2 u))^{⊗(t−τ)}` for τ ∈ {0, …, t−1}.
//!
//! Every τ gives a valid bound, so the τ search runs on certified values and reports the
//! smallest certified ε (search without rigor over τ, every candidate certified).
use super::{Bound, BoundKind, require_algorithm};
use crate::composition::{Component, Composition, Interval, Target};
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use crate::precision::search::{golden_section_min, steps_below_one};
use crate::provenance::ResultId;
use crate::settings::{Algorithm, SETTING_BITS, Setting};
use crate::tradeoff::{Certified, Path};

/// Thm 4.8 id.
pub const THM_4_8: &str = ResultId::Bsa24Thm4_8.as_str();
/// Thm 4.9 id.
pub const THM_4_9: &str = ResultId::Bsa24Thm4_9.as_str();
/// Thm 4.10 id.
pub const THM_4_10: &str = ResultId::Bsa24Thm4_10.as_str();

/// Width goal of [`SgdFamily::composition_epsilon`]: that of `shiftdp compose`, so
/// that a bound and the composition command certify the same interval.
pub const COMPOSITION_TOLERANCE: f64 = crate::composition::DEFAULT_TOLERANCE;

/// Binary steps by which the τ search's grid is coarser than the default grid.
const SEARCH_COARSENING: i32 = 2;

/// The τ search's grid is never coarser than `h = 2^{−7}`.
const MIN_SEARCH_GRID_EXP: i32 = 7;

/// A family of compositions indexed by τ.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SgdFamily {
    /// Thm 4.8 (no τ).
    Composition {
        /// p = b/n (rounded up).
        p: f64,
        /// u = L/(bσ) (rounded up).
        u: f64,
        /// steps.
        t: u64,
    },
    /// Thm 4.9, τ ∈ 1..=t.
    StronglyConvex {
        /// p.
        p: f64,
        /// u.
        u: f64,
        /// contraction c < 1 (rounded up).
        c: f64,
        /// steps.
        t: u64,
    },
    /// Thm 4.10, τ ∈ 0..t.
    ConstrainedConvex {
        /// p.
        p: f64,
        /// u.
        u: f64,
        /// D/(ησ) (rounded up).
        d_eta_sigma: f64,
        /// steps.
        t: u64,
    },
}

/// `(c^{t−τ+1} − cᵗ)/(1 − c) = Σ_{j=t−τ+1}^{t−1} c^j` as an upper bound (τ ≥ 1).
fn geometric_tail_up(c: f64, t: u64, tau: u64) -> f64 {
    if tau <= 1 {
        return 0.0;
    }
    let ce = Enclosure::from_f64(SETTING_BITS, c);
    let one = Enclosure::from_u64(SETTING_BITS, 1);
    let v = (ce.powu(t - tau + 1) - ce.powu(t)) / (one - ce);
    v.upper_f64().max(0.0)
}

impl SgdFamily {
    /// The admissible τ range.
    pub fn taus(&self) -> std::ops::RangeInclusive<u64> {
        match self {
            SgdFamily::Composition { .. } => 0..=0,
            SgdFamily::StronglyConvex { t, .. } => 1..=*t,
            SgdFamily::ConstrainedConvex { t, .. } => 0..=(*t - 1),
        }
    }

    /// The composition for start time τ (parameters rounded up: every component is
    /// monotone in them, so this is the safe side).
    ///
    /// # Errors
    /// τ outside the admissible range.
    pub fn composition(&self, tau: u64) -> Result<Composition> {
        if !self.taus().contains(&tau) {
            return Err(Error::param("tau", tau, "outside the theorem's range"));
        }
        let s2 = std::f64::consts::SQRT_2.next_up();
        match *self {
            SgdFamily::Composition { p, u, t } => {
                Composition::new().with(Component::subsampled(p, u)?, t)
            }
            SgdFamily::StronglyConvex { p, u, c, t } => {
                let g = (2.0 * s2 * u).next_up() * geometric_tail_up(c, t, tau);
                let mut comp = Composition::new()
                    .with(Component::subsampled(p, (2.0 * s2 * u).next_up())?, 1)?;
                if g > 0.0 {
                    comp = comp.with(Component::gaussian(g.next_up())?, 1)?;
                }
                if t > tau {
                    comp = comp.with(Component::subsampled(p, 2.0 * u)?, t - tau)?;
                }
                Ok(comp)
            }
            SgdFamily::ConstrainedConvex {
                p,
                u,
                d_eta_sigma,
                t,
            } => {
                let k = t - tau;
                let g = (s2 * d_eta_sigma / (k as f64).sqrt()).next_up().next_up();
                Composition::new()
                    .with(Component::gaussian(g)?, 1)?
                    .with(Component::subsampled(p, (2.0 * s2 * u).next_up())?, k)
            }
        }
    }

    /// A lower bound on ε(δ) of the composition at τ from its Gaussian component
    /// `G(g)` alone (0 when it has none): the composition's tradeoff function is at most
    /// that component's, so its ε(δ) is at least `ε_{G(g)}(δ)` (DRS22 Cor 2.13, in f64:
    /// a search aid, never a reported bound).
    fn gaussian_part_epsilon_lower(&self, tau: u64, delta: f64) -> f64 {
        let g = match *self {
            SgdFamily::Composition { .. } => return 0.0,
            SgdFamily::StronglyConvex { u, c, t, .. } => {
                2.0 * std::f64::consts::SQRT_2 * u * geometric_tail_up(c, t, tau)
            }
            SgdFamily::ConstrainedConvex { d_eta_sigma, t, .. } => {
                std::f64::consts::SQRT_2 * d_eta_sigma / ((t - tau) as f64).sqrt()
            }
        };
        if !(g > 0.0 && g.is_finite()) {
            return 0.0;
        }
        let (mu, d) = (Enclosure::from_f64(64, g), Enclosure::from_f64(64, delta));
        crate::tradeoff::Gaussian::epsilon(&mu, &d, crate::precision::Precision::F64)
            .map_or(0.0, |e| e.lower().to_f64())
    }

    /// Certified ε at δ for one τ, at the composition's default grid.
    ///
    /// # Errors
    /// Composition errors (e.g. δ below the engine's floor).
    pub fn epsilon_at(&self, tau: u64, delta: f64) -> Result<(f64, f64)> {
        self.epsilon_at_grid(tau, delta, 0)
    }

    /// Certified ε at δ for one τ on the default grid made `coarser` binary steps
    /// coarser (`h = 2^{−(e − coarser)}`, never coarser than `2^{−MIN_SEARCH_GRID_EXP}`):
    /// a wider interval, still certified, at a fraction of the points.
    fn epsilon_at_grid(&self, tau: u64, delta: f64, coarser: i32) -> Result<(f64, f64)> {
        let comp = self.composition(tau)?;
        let e = comp.compose_grid_exp();
        let grid = (e - coarser).max(MIN_SEARCH_GRID_EXP.min(e));
        let r = comp.compose_for_delta(delta, Some(grid))?;
        let e = r.epsilon(delta)?;
        Ok((e.lower, e.upper))
    }

    /// Certified ε at δ of the composition at τ by [`Composition::answer`]: the PLD
    /// engine refined until the interval is narrower than [`COMPOSITION_TOLERANCE`]
    /// (the certified composition of the same object that `shiftdp compose` reports),
    /// with the final grid exponent.
    ///
    /// # Errors
    /// τ outside the range; as [`Composition::answer`].
    pub fn composition_epsilon(&self, tau: u64, delta: f64) -> Result<(Interval, i32)> {
        let a = self
            .composition(tau)?
            .answer(Target::Delta(delta), COMPOSITION_TOLERANCE, None)?;
        let grid = match &a.method {
            crate::composition::answer::Method::Pld { grid_exp, .. } => *grid_exp,
            crate::composition::answer::Method::GaussianClosedForm { .. }
            | crate::composition::answer::Method::PureDp { .. } => 0,
        };
        Ok((a.interval, grid))
    }

    /// The composition at τ, as text (e.g. `C_0.1(G(0.5))^⊗20`).
    ///
    /// # Errors
    /// τ outside the range.
    pub fn describe(&self, tau: u64) -> Result<String> {
        Ok(self
            .composition(tau)?
            .parts()
            .iter()
            .map(|(c, k)| format!("{}^⊗{k}", c.name()))
            .collect::<Vec<_>>()
            .join(" ⊗ "))
    }

    /// The smallest certified ε over τ. A geometric grid of `t − τ` is evaluated on a grid
    /// two binary steps coarser than the default (each value an upper bound on its τ's ε,
    /// at about a quarter of the points); between the best grid
    /// point's neighbours a golden-section search on the integers runs at the default
    /// grid, and the best grid point and the neighbours of the search's best are evaluated
    /// there too. Returns `(lower, upper, τ)` of the smallest upper end at the default grid
    /// (of the coarse ones if none could be certified there).
    ///
    /// # Errors
    /// If no τ could be certified.
    pub fn best_epsilon(&self, delta: f64) -> Result<(f64, f64, u64)> {
        let r = self.taus();
        let (lo_tau, hi_tau) = (*r.start(), *r.end());
        if lo_tau == hi_tau {
            let (l, u) = self.epsilon_at(lo_tau, delta)?;
            return Ok((l, u, lo_tau));
        }
        type Cache = Vec<(u64, Result<(f64, f64)>)>;
        let caches: [std::cell::RefCell<Cache>; 2] = Default::default();
        let best_upper = std::cell::Cell::new(f64::INFINITY);
        // caches[0]: the default grid; caches[1]: the coarse one
        let eval = |tau: u64, coarse: bool| -> f64 {
            let cache = &caches[usize::from(coarse)];
            if let Some((_, v)) = cache.borrow().iter().find(|(k, _)| *k == tau) {
                return v.as_ref().map_or(f64::INFINITY, |x| x.1);
            }
            // a τ whose Gaussian part alone is already less private than the best
            // candidate cannot win (a composition's ε(δ) is at least each component's):
            // it is not composed — its PLD window, for a Gaussian μ in the hundreds, is
            // the costliest of the search
            if self.gaussian_part_epsilon_lower(tau, delta) >= best_upper.get() {
                return f64::INFINITY;
            }
            let coarsening = if coarse { SEARCH_COARSENING } else { 0 };
            let v = self.epsilon_at_grid(tau, delta, coarsening);
            let up = v.as_ref().map_or(f64::INFINITY, |x| x.1);
            best_upper.set(best_upper.get().min(up));
            cache.borrow_mut().push((tau, v));
            up
        };
        // grid over the number of steps after τ: hi_tau − τ ∈ {0, 1, 2, 4, …}
        let mut cands: Vec<u64> = vec![lo_tau, hi_tau];
        let mut k = 1u64;
        while k < hi_tau - lo_tau {
            cands.push(hi_tau - k);
            k *= 2;
        }
        cands.sort_unstable();
        cands.dedup();
        let mut best = (f64::INFINITY, lo_tau);
        for &c in &cands {
            let v = eval(c, true);
            if v < best.0 {
                best = (v, c);
            }
        }
        // refine between the neighbours of the best grid point, at the default grid
        let i = cands.iter().position(|&c| c == best.1).unwrap_or(0);
        let (a, b) = (
            cands[i.saturating_sub(1)],
            cands[(i + 1).min(cands.len() - 1)],
        );
        eval(best.1, false);
        if b - a > 1 {
            let steps = steps_below_one((b - a) as f64) + 1;
            let m =
                golden_section_min(|x| eval(x.round() as u64, false), a as f64, b as f64, steps);
            let t = m.x.round() as u64;
            for c in [t.saturating_sub(1).max(a), (t + 1).min(b)] {
                eval(c, false);
            }
        }
        let [fine, coarse] = caches.map(std::cell::RefCell::into_inner);
        let smallest = |cache: &Cache| {
            cache
                .iter()
                .filter_map(|(k, v)| v.as_ref().ok().map(|x| (x.0, x.1, *k)))
                .min_by(|x, y| x.1.total_cmp(&y.1))
        };
        smallest(&fine)
            .or_else(|| smallest(&coarse))
            .ok_or_else(|| {
                fine.iter()
                    .chain(&coarse)
                    .find_map(|(_, v)| v.as_ref().err().cloned())
                    .unwrap_or(Error::NotCertified {
                        what: "ε over τ".into(),
                        reason: "no τ evaluated".into(),
                    })
            })
    }

    /// Certified ε at δ with the chosen τ, as a [`Certified`] value.
    ///
    /// # Errors
    /// As [`SgdFamily::best_epsilon`].
    pub fn certified(&self, delta: f64) -> Result<(Certified, Option<u64>)> {
        let (lo, hi, tau) = self.best_epsilon(delta)?;
        let e = Enclosure::new(rug::Float::with_val(53, lo), rug::Float::with_val(53, hi))
            .ok_or_else(|| Error::NotCertified {
                what: "ε".into(),
                reason: "empty interval".into(),
            })?;
        let tau = match self {
            SgdFamily::Composition { .. } => None,
            _ => Some(tau),
        };
        Ok((
            Certified {
                enclosure: e,
                path: Path::F64,
            },
            tau,
        ))
    }
}

fn sgd_common(id: ResultId, s: &Setting) -> Result<(f64, f64)> {
    require_algorithm(
        id,
        s,
        &[Algorithm::Sgd],
        "H0: NoisySGD (stochastic batches)",
    )?;
    Ok((s.p().upper_f64(), s.unit().upper_f64()))
}

fn composed(
    id: ResultId,
    title: &'static str,
    family: SgdFamily,
    hypotheses: Vec<String>,
) -> Bound {
    Bound {
        id,
        title: title.to_string(),
        kind: BoundKind::Composed { family },
        hypotheses,
        exact: false,
        notes: vec![],
    }
}

/// BSA24 Thm 4.8: `C_{b/n}(G(L/(bσ)))^{⊗t}` (composition, DRS22 Thm 9).
///
/// # Errors
/// Hypothesis error unless stochastic batches.
pub fn thm_4_8(s: &Setting) -> Result<Bound> {
    let (p, u) = sgd_common(ResultId::Bsa24Thm4_8, s)?;
    Ok(composed(
        ResultId::Bsa24Thm4_8,
        "NoisySGD, any losses (composition of subsampled Gaussians)",
        SgdFamily::Composition { p, u, t: s.t },
        vec![format!("H1: gradient sensitivity L; p = b/n = {p}")],
    ))
}

/// BSA24 Thm 4.9 (strongly convex), τ optimized over 1..=t.
///
/// # Errors
/// Hypothesis errors: not SGD, not strongly convex, η ≥ 2/M, c ≥ 1.
pub fn thm_4_9(s: &Setting) -> Result<Bound> {
    let (p, u) = sgd_common(ResultId::Bsa24Thm4_9, s)?;
    let mut hyps = vec![];
    let c = super::bsa24::strong_contraction(ResultId::Bsa24Thm4_9, s, &mut hyps)?;
    hyps.push(format!(
        "p = b/n = {p}; τ optimized over 1..={} (ERRATA BSA2)",
        s.t
    ));
    Ok(composed(
        ResultId::Bsa24Thm4_9,
        "NoisySGD, strongly convex (shifted interpolation)",
        SgdFamily::StronglyConvex {
            p,
            u,
            c: c.upper_f64(),
            t: s.t,
        },
        hyps,
    ))
}

/// BSA24 Thm 4.10 (constrained convex), τ optimized over 0..t−1.
///
/// # Errors
/// Hypothesis errors: not SGD, no diameter, η > 2/M.
pub fn thm_4_10(s: &Setting) -> Result<Bound> {
    let (p, u) = sgd_common(ResultId::Bsa24Thm4_10, s)?;
    let mut hyps = vec![];
    let d = super::bsa24::constrained_convex(ResultId::Bsa24Thm4_10, s, &mut hyps)?;
    let des = (d / (s.eta.clone() * s.sigma.clone())).upper_f64();
    hyps.push(format!("p = b/n = {p}; τ optimized over 0..={}", s.t - 1));
    Ok(composed(
        ResultId::Bsa24Thm4_10,
        "NoisySGD, constrained convex (shifted interpolation)",
        SgdFamily::ConstrainedConvex {
            p,
            u,
            d_eta_sigma: des,
            t: s.t,
        },
        hyps,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_thm_4_9_gaussian_parameter_is_negative_at_tau_zero() {
        // ERRATA BSA2 evidence: (c^{t+1} − c^t)/(1 − c) = −c^t < 0
        let (c, t) = (0.9f64, 10u64);
        let printed = (c.powi(t as i32 + 1) - c.powi(t as i32)) / (1.0 - c);
        assert!(printed < 0.0);
        assert!((printed + c.powi(t as i32)).abs() < 1e-12);
        // and the adopted range starts at τ = 1 with a zero Gaussian term
        assert!(geometric_tail_up(c, t, 1).abs() < f64::MIN_POSITIVE);
        let direct: f64 = (t - 3 + 1..t).map(|j| c.powi(j as i32)).sum();
        assert!(
            (geometric_tail_up(c, t, 3) - direct).abs() < 1e-12
                && geometric_tail_up(c, t, 3) >= direct
        );
    }

    #[test]
    fn pruned_tau_search_keeps_the_minimum() {
        // strongly convex: the Gaussian part grows with τ, and the τ whose Gaussian part
        // alone exceeds the best candidate are skipped; the search still returns the
        // exhaustive minimum, and the skipped τ are above it
        let f = SgdFamily::StronglyConvex {
            p: 0.05,
            u: 1.0,
            c: 0.9,
            t: 12,
        };
        let (best, all) = search_against_exhaustive(&f);
        for (k, v) in f.taus().zip(&all) {
            assert!(f.gaussian_part_epsilon_lower(k, 1e-5) <= *v, "τ = {k}");
        }
        assert!(
            f.taus()
                .any(|k| f.gaussian_part_epsilon_lower(k, 1e-5) > best)
        );
    }

    #[test]
    fn tau_search_finds_the_grid_minimum() {
        let f = SgdFamily::ConstrainedConvex {
            p: 0.05,
            u: 0.5,
            d_eta_sigma: 2.0,
            t: 40,
        };
        search_against_exhaustive(&f);
    }

    /// The τ search of `f` at δ = 1e-5 against the exhaustive minimum over every τ: the
    /// search is within 1% above it and never below. Returns the search's ε and the ε
    /// at each τ.
    fn search_against_exhaustive(f: &SgdFamily) -> (f64, Vec<f64>) {
        let (_, best, tau) = f.best_epsilon(1e-5).unwrap();
        let all: Vec<f64> = f.taus().map(|k| f.epsilon_at(k, 1e-5).unwrap().1).collect();
        let exhaustive = all.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(
            best <= exhaustive * 1.01 && best >= exhaustive * (1.0 - 1e-9),
            "search {best} (τ = {tau}) vs exhaustive {exhaustive}"
        );
        (best, all)
    }
}
