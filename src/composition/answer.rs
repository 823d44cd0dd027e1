//! Answering one query about a [`Composition`] to a requested width: the closed form
//! when every component is Gaussian, otherwise the PLD engine with grid refinement.
//!
//! # Formula
//! - **All Gaussian**: `⊗ᵢ G(μᵢ)^{⊗kᵢ} = G(√(Σ kᵢ μᵢ²))` exactly (DRS22 Cor 3.3), so
//!   ε(δ) and δ(ε) are those of one Gaussian tradeoff, enclosed by
//!   [`Gaussian::epsilon`] / [`Gaussian::delta`] (MPFR). No grid, no truncation: the
//!   width is that of the conversion (≈ 1e-15), and δ below [`DELTA_FLOOR`] is answered.
//! - **Otherwise**: a planner. The certified width of the PLD engine is a discretization
//!   error `w ≈ α·k·h²` for `k` steps in all at grid step `h` (the mean-loss bias of the
//!   two discretizations), and in the jobs measured (Poisson and subsampled Gaussians,
//!   `k` from 10³ to 10⁶, see the README's benchmarks) `α` lies in `[0.13, 1.1]`, with
//!   `α ≈ 0.5` typical. The one-shot engine's cost is its transform length `M`, a power
//!   of two per order, so the planner chooses `M` and then the **finest** step whose
//!   window fits `M` points: `h` from a ladder of six significant bits
//!   (`k·2^{−s}`, `k ∈ [32, 64]`, [`super::pld::Grid::step_at_least`]; every `t_j = j·h` stays
//!   exact), not a power of two that would leave up to half the transform as padding.
//!   First `M₁`, the length the window needs at the step that model predicts with
//!   `α = ½` ([`Composition::predicted_step`]: `h = √(2·tolerance/k)`, never more than
//!   two binary steps coarser than [`Composition::default_grid_exp`], so that a loose
//!   tolerance still gets an informative grid). Before any transform, the single steps
//!   discretized at `M₁` predict the width the composition will certify
//!   (`Σᵢ kᵢ(K⁺ᵢ(λ) − K⁻ᵢ(λ))/λ` from the two sides' cumulant generating functions at
//!   the tilt, which follows the pre-asymptotic fall of the width that `α` misses:
//!   5–11× per binary step at coarse grids), and the length moves to the one whose
//!   single steps predict `0.9·tolerance` (two to four times the points per move, and
//!   half the points of a move whose prediction lands below a sixteenth of that), so
//!   that a heterogeneous schedule is composed once instead of twice; only single steps
//!   are discarded on the way. If the width
//!   of the composition is within `tolerance`
//!   (absolute for ε, relative to the upper end for δ) that is the answer, else the
//!   measured width predicts the step `h·√(0.9·tolerance/width)` and its length (at
//!   least double, at most eight times: a width that far above the predicted one is
//!   seldom the discretization's), composed once, plus at most one doubling if the
//!   prediction fell short (never finer than 2⁻¹⁸); a finer grid that does not halve
//!   the width ends the refinement. Every length is capped at [`PLANNER_POINTS`] per
//!   order and at the memory guard's limit: the planner goes coarser and reports the
//!   width instead of refusing. A first run that cannot certify (window top, δ floor)
//!   is followed by one at the engine's default grid. With a grid given, `h = 2^{−e}`
//!   exactly and that grid only. An answer wider than the tolerance carries a
//!   [`CompositionAnswer::note`] saying why and what would narrow it.
//! - **Fallback**: the no-amplification bound
//!   ([`Composition::no_amplification_mu`]): every subsampled Gaussian replaced by
//!   `G(μᵢ)`, the composition `G(√Σkᵢμᵢ²)` is below the true one, so its closed-form
//!   ε(δ), δ(ε) are upper bounds. It is the upper end when it is smaller than the
//!   engine's (tiny δ, degenerate μ), and when the engine refuses (window, floor,
//!   memory) the answer is `[lower, closed-form upper]` with the lower end that of the
//!   Gaussian components alone (or 0), with a note.
//!
//!   Why no coarse probe composition: a probe two steps coarser than the final grid
//!   costs a quarter of it while its width, taken in the pre-asymptotic regime where a
//!   binary step divides `w` by 5–11 rather than 4, predicts a grid one step too fine
//!   (twice the cost) as often as not; the single steps' prediction is made at the
//!   length itself, and costs a fraction of its composition.
//!
//! # Rounding
//! `Σ kᵢ μᵢ²` and its square root are enclosed in 128-bit interval arithmetic from the
//! f64 inputs and the upper end is used; both conversions return certified enclosures.
//! The PLD path reports the engine's certified interval unchanged.
//!
//! # ε(δ) at δ ≥ δ(0)
//! [`Composed::epsilon`] and [`Gaussian::epsilon`] return the smallest ε **≥ 0** with
//! δ(ε) ≤ δ. When the certified δ(0) is already ≤ δ the privacy profile reaches δ at a
//! non-positive ε, and `[0, 0]` is not a bracket of that ε: [`CompositionAnswer::at_zero`] says
//! so, and front ends state "(0, δ)-DP holds; ε(δ) ≤ 0" instead of an interval.
use super::mechanism::Mechanism;
use super::{Composed, Composition, DELTA_FLOOR, Interval, Staged, Step, Target};
use crate::error::{Error, Result, positive_finite};
use crate::precision::Precision;
use crate::precision::enclosure::Enclosure;
use crate::tradeoff::Gaussian;
use std::sync::Arc;

/// Working precision of the all-Gaussian closed form.
const GAUSSIAN_BITS: u32 = 128;

/// How an [`CompositionAnswer`] was computed.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Method {
    /// Every component Gaussian: `G(μ)` with `μ = √(Σ kᵢ μᵢ²) ≤ mu_upper`.
    GaussianClosedForm {
        /// Upper end of the enclosure of μ (rounded up to f64).
        mu_upper: f64,
    },
    /// Every component a mechanism of bounded loss: the composition is
    /// `(ε_pure, 0)`-DP with `ε_pure = Σ kᵢ ℓ̄ᵢ` ([`Composition::pure_epsilon`]), and the
    /// query lies at or beyond it (δ(ε) = 0 for `ε ≥ ε_pure`).
    PureDp {
        /// The upper bound `ε_pure` (rounded up).
        epsilon: f64,
    },
    /// The certified PLD engine.
    Pld {
        /// The composed PLD at the final grid (shared with a [`Reuse`] that keeps it).
        composed: Arc<Composed>,
        /// The binary exponent nearest the final grid step: `h ≈ 2^{−e}` (`h = 2^{−e}`
        /// exactly for a grid given; the planner's steps lie on a finer ladder, and
        /// each order's `h` is in [`Composed::info`]).
        grid_exp: i32,
    },
}

/// The default width goal of a composition query: absolute for an ε interval, relative
/// for a δ interval. Every surface that composes (the `compose` command, calibration,
/// the composition of a bound's family, the Python accountants) defaults to it, so that
/// they certify the same interval for the same query.
pub const DEFAULT_TOLERANCE: f64 = 5e-4;

/// A certified answer to one query: ε(δ) for [`Target::Delta`], δ(ε) for
/// [`Target::Epsilon`].
#[derive(Debug, Clone)]
pub struct CompositionAnswer {
    /// The certified interval (ε for a δ target, δ for an ε target).
    pub interval: Interval,
    /// Width used for the tolerance test (absolute for ε, relative for δ).
    pub width: f64,
    /// How it was computed.
    pub method: Method,
    /// The query.
    pub target: Target,
    /// Why the interval is what it is when that is not the named method's answer
    /// within the tolerance: the certified fallback that set an end, or the grid limit
    /// that kept the interval wider than the tolerance, and what would narrow it.
    /// `None` when the interval meets the tolerance by the method named.
    pub note: Option<String>,
}

impl CompositionAnswer {
    /// Whether this is an ε(δ) answer with certified δ(0) ≤ δ: the mechanism is
    /// (0, δ)-DP and the true ε(δ) of the privacy profile is ≤ 0 (the interval is then
    /// `[0, 0]`, which is **not** a bracket of that ε).
    pub fn at_zero(&self) -> bool {
        matches!(self.target, Target::Delta(_)) && self.interval.upper == 0.0
    }
    /// The composed PLD, if the engine was used.
    pub fn composed(&self) -> Option<&Composed> {
        match &self.method {
            Method::Pld { composed, .. } => Some(composed),
            Method::GaussianClosedForm { .. } | Method::PureDp { .. } => None,
        }
    }
}

impl Composition {
    /// `Some(enclosure of √(Σ kᵢ μᵢ²))` if every component is Gaussian — `G(μ)`, or a
    /// subsampled one at p = 1 — (the composition is then exactly `G(μ)`, DRS22 Cor 3.3),
    /// else `None`.
    ///
    /// # Example
    /// ```
    /// use shiftdp::composition::{Component, Composition};
    /// let c = Composition::new()
    ///     .with(Component::gaussian(0.3).unwrap(), 1).unwrap()
    ///     .with(Component::gaussian(0.4).unwrap(), 1).unwrap();
    /// let mu = c.gaussian_mu().unwrap();
    /// assert!(mu.lower_f64() <= 0.5 && 0.5 <= mu.upper_f64());
    /// ```
    pub fn gaussian_mu(&self) -> Option<Enclosure> {
        // p = 1 subsampling is no subsampling: C_1(G(μ)) = G(μ) and both Poisson
        // directions p G(μ) + (1 − p) Id are G(μ) at p = 1
        self.root_sum_squares(|m| m.exact_gaussian_mu())
    }

    /// `Some(enclosure of √(Σ kᵢ μᵢ²))` over the components, `μᵢ = mu_of(mechanism i)`,
    /// at [`GAUSSIAN_BITS`]; `None` when `mu_of` is `None` for one of them. The μ of
    /// `⊗ᵢ G(μᵢ)^{⊗kᵢ} = G(√Σkᵢμᵢ²)` (DRS22 Cor 3.3).
    fn root_sum_squares(&self, mu_of: impl Fn(&dyn Mechanism) -> Option<f64>) -> Option<Enclosure> {
        let mut s = Enclosure::from_u64(GAUSSIAN_BITS, 0);
        for (c, k) in self.parts() {
            let m = Enclosure::from_f64(GAUSSIAN_BITS, mu_of(c.as_mechanism().as_ref())?);
            s = s + m.square().mul(&Enclosure::from_u64(GAUSSIAN_BITS, *k));
        }
        Some(s.sqrt())
    }

    /// Certified answer to `target` within `tolerance` (see the module doc for the
    /// closed form, the refinement and the `at_zero` case). `grid = Some(e)` fixes the
    /// PLD grid at `h = 2^{−e}` (no refinement; ignored by the closed form).
    ///
    /// # Errors
    /// [`Error::Parameter`] for an empty composition, a bad target or tolerance;
    /// [`Error::NotCertified`] as [`Composition::compose`] and the conversions.
    ///
    /// # Example
    /// ```
    /// use shiftdp::composition::{Component, Composition, Target};
    /// let c = Composition::new().with(Component::gaussian(0.5).unwrap(), 4).unwrap();
    /// let a = c.answer(Target::Delta(1e-5), 5e-4, None).unwrap();
    /// // G(0.5)^{⊗4} = G(1): ε(1e-5) = 4.37717809568122… (DRS22 Cor 2.13)
    /// assert!(a.interval.contains(4.3771780956812) && a.width < 1e-12);
    /// ```
    pub fn answer(
        &self,
        target: Target,
        tolerance: f64,
        grid: Option<i32>,
    ) -> Result<CompositionAnswer> {
        self.answer_with(target, tolerance, grid, None)
    }

    /// [`Composition::answer`] that first asks the PLD `reuse` kept from an earlier
    /// answer of **this** composition at the same tolerance (several δ or ε of one
    /// training run: one composition, many queries), and keeps the PLD it composes in
    /// `reuse` for the next query. The kept PLD is used when its certified interval at
    /// the new target is within [`REUSE_SLACK`] × `tolerance`, with a note when it is
    /// above `tolerance` (it was planned for another target, so its window and tilt may
    /// not fit this one: then the query is composed afresh); a
    /// `grid` given always composes. The answer is the one `answer` would certify
    /// from that PLD, with the same closed-form bounds applied.
    ///
    /// # Errors
    /// As [`Composition::answer`].
    ///
    /// # Example
    /// ```
    /// use shiftdp::composition::{Component, Composition, Reuse, Target};
    /// let c = Composition::new().with(Component::poisson(0.01, 1.0).unwrap(), 1000).unwrap();
    /// let mut reuse = Reuse::default();
    /// let a = c.answer_reusing(Target::Delta(1e-5), 1e-3, &mut reuse).unwrap();
    /// let b = c.answer_reusing(Target::Delta(2e-5), 1e-3, &mut reuse).unwrap();
    /// assert!(b.interval.upper <= a.interval.upper && b.width <= 1e-3);
    /// ```
    pub fn answer_reusing(
        &self,
        target: Target,
        tolerance: f64,
        reuse: &mut Reuse,
    ) -> Result<CompositionAnswer> {
        // taken out: a PLD of another composition or tolerance, or one too wide for this
        // target, is freed before anything is composed (the memory guard does not
        // count it)
        let kept = reuse
            .kept
            .take()
            .filter(|(c, t, _)| c == self && t.to_bits() == tolerance.to_bits())
            .map(|(_, _, r)| r);
        let a = self.answer_with(target, tolerance, None, kept)?;
        if let Method::Pld { composed, .. } = &a.method {
            reuse.kept = Some((self.clone(), tolerance, composed.clone()));
        }
        Ok(a)
    }

    fn answer_with(
        &self,
        target: Target,
        tolerance: f64,
        grid: Option<i32>,
        kept: Option<Arc<Composed>>,
    ) -> Result<CompositionAnswer> {
        positive_finite(&[("tolerance", tolerance)])?;
        if self.parts().is_empty() {
            return Err(Error::param("components", "none", "give at least one"));
        }
        match target {
            Target::Delta(d) if !(d > 0.0 && d < 1.0) => {
                return Err(Error::param("delta", d, "must satisfy 0 < δ < 1"));
            }
            Target::Epsilon(e) if !e.is_finite() => {
                return Err(Error::param("epsilon", e, "must be finite"));
            }
            _ => {}
        }
        if let Some(mu) = self.gaussian_mu() {
            return gaussian_answer(&mu, target);
        }
        let pure = self.pure_epsilon();
        if let (Some(ep), Target::Epsilon(e)) = (pure, target)
            && e >= ep
        {
            return Ok(CompositionAnswer {
                interval: Interval {
                    lower: 0.0,
                    upper: 0.0,
                },
                width: 0.0,
                method: Method::PureDp { epsilon: ep },
                target,
                note: Some(format!(
                    "every loss is bounded: the composition is (ε, 0)-DP with ε = Σkᵢℓ̄ᵢ ≤ {ep:e} ≤ the ε asked, so δ = 0 exactly"
                )),
            });
        }
        let answer = self.answer_bounded(target, tolerance, grid, kept);
        match (pure, target) {
            (Some(ep), Target::Delta(_)) => match answer {
                Ok(mut a) if a.interval.upper > ep => {
                    let engine = a.interval;
                    a.interval.upper = ep;
                    a.interval.lower = a.interval.lower.min(ep);
                    a.width = width_of(target, a.interval);
                    a.note = Some(format!(
                        "upper end from pure DP: every loss is bounded and Σkᵢℓ̄ᵢ ≤ {ep:e} is below the PLD engine's [{:e}, {:e}]",
                        engine.lower, engine.upper
                    ));
                    Ok(a)
                }
                Err(e @ (Error::NotCertified { .. } | Error::MemoryLimit { .. })) => {
                    let interval = Interval {
                        lower: 0.0,
                        upper: ep,
                    };
                    Ok(CompositionAnswer {
                        interval,
                        width: width_of(target, interval),
                        method: Method::PureDp { epsilon: ep },
                        target,
                        note: Some(format!(
                            "the PLD engine cannot answer ({e}); upper end from pure DP: every loss is bounded and Σkᵢℓ̄ᵢ ≤ {ep:e}; lower end 0"
                        )),
                    })
                }
                a => a,
            },
            _ => answer,
        }
    }

    /// [`Composition::answer_with`] after the pure-DP bound: the closed forms and the
    /// engine.
    fn answer_bounded(
        &self,
        target: Target,
        tolerance: f64,
        grid: Option<i32>,
        kept: Option<Arc<Composed>>,
    ) -> Result<CompositionAnswer> {
        let bound = self
            .no_amplification_mu()
            .map(|mu| gaussian_answer(&mu, target));
        let (fallback, fallback_error) = match bound {
            Some(Ok(a)) => (Some(a), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, None),
        };
        // the closed forms alone may already bracket the answer within the tolerance
        // (a composition dominated by its Gaussian components): no PLD then
        if grid.is_none()
            && let Some(fb) = &fallback
            && let Some(lower) = self.gaussian_part_lower(target)
        {
            let interval = Interval {
                lower: lower.min(fb.interval.upper),
                upper: fb.interval.upper,
            };
            let width = width_of(target, interval);
            if width <= tolerance {
                return Ok(CompositionAnswer {
                    interval,
                    width,
                    note: Some(format!(
                        "bracketed by closed forms within the tolerance: lower end the Gaussian components alone (the others are ≤ Id), upper end the no-amplification bound G(μ), μ = √Σkᵢμᵢ² ≤ {:e}",
                        fb.mu_upper()
                    )),
                    ..fb.clone()
                });
            }
        }
        let reused = kept.and_then(|r| reused_answer(r, target, tolerance));
        let engine = match reused {
            Some(a) => Ok(a),
            None => self.answer_pld(target, tolerance, grid),
        };
        match engine {
            Ok(mut a) => {
                if let Some(fb) = fallback
                    && fb.interval.upper < a.interval.upper
                {
                    let (engine, h) = (a.interval, last_step(&a));
                    a.interval.upper = fb.interval.upper;
                    a.interval.lower = a.interval.lower.min(fb.interval.upper);
                    a.width = width_of(target, a.interval);
                    a.note = Some(format!(
                        "upper end from the no-amplification bound G(μ), μ = √Σkᵢμᵢ² ≤ {:e} (every subsampled Gaussian replaced by G(μᵢ)): below the PLD engine's [{:e}, {:e}] at h = {h:.4e}; the lower end is the engine's",
                        fb.mu_upper(),
                        engine.lower,
                        engine.upper,
                    ));
                }
                Ok(a)
            }
            Err(e @ (Error::NotCertified { .. } | Error::MemoryLimit { .. })) => {
                let Some(fb) = fallback else {
                    return Err(match (e, fallback_error) {
                        (Error::NotCertified { what, reason }, Some(f)) => Error::NotCertified {
                            what,
                            reason: format!(
                                "{reason}; the no-amplification bound G(√Σkᵢμᵢ²) cannot answer either ({f})"
                            ),
                        },
                        (e, _) => e,
                    });
                };
                let (lower, lower_note) = match self.gaussian_part_lower(target) {
                    Some(l) => (
                        l.min(fb.interval.upper),
                        "the Gaussian components alone (the others are ≤ Id)",
                    ),
                    None => (0.0, "0"),
                };
                let interval = Interval {
                    lower,
                    upper: fb.interval.upper,
                };
                Ok(CompositionAnswer {
                    interval,
                    width: width_of(target, interval),
                    note: Some(format!(
                        "the PLD engine cannot answer ({e}); upper end: the no-amplification bound G(μ), μ = √Σkᵢμᵢ² ≤ {:e} (subsampling only improves the tradeoff); lower end: {lower_note}",
                        fb.mu_upper()
                    )),
                    ..fb
                })
            }
            Err(e) => Err(e),
        }
    }

    /// The PLD engine's answer: the planner of the module doc, its grids capped so that
    /// every order's window holds at most [`PLANNER_POINTS`] points and the memory
    /// guard's estimate stays within its limit (a grid given is used as it is).
    fn answer_pld(
        &self,
        target: Target,
        tolerance: f64,
        grid: Option<i32>,
    ) -> Result<CompositionAnswer> {
        self.check_f64_reach()?;
        // the windows (grid-independent) once for every grid tried
        let windows = self.windows(target);
        let finish = |staged: Staged| -> Result<CompositionAnswer> {
            let r = staged.compose();
            let exp = (-coarsest_step(&r).log2()).round() as i32;
            let interval = match target {
                Target::Delta(d) => r.epsilon(d)?,
                Target::Epsilon(eps) => r.delta(eps)?,
            };
            Ok(CompositionAnswer {
                interval,
                width: width_of(target, interval),
                method: Method::Pld {
                    composed: Arc::new(r),
                    grid_exp: exp,
                },
                target,
                note: None,
            })
        };
        let stage = |step: Step| self.stage(target, step, Some(&windows));
        let run = |step: Step| finish(stage(step)?);
        if let Some(e) = grid {
            let mut a = run(Step::Exp(e))?;
            if a.width > tolerance {
                a.note = Some(format!(
                    "width {:.3e} > tolerance {tolerance:e} at the grid given, h = 2^-{e}; a finer grid exponent narrows it",
                    a.width
                ));
            }
            return Ok(a);
        }
        // the planner's budget: transform lengths (a power of two per order) up to
        // PLANNER_POINTS whose memory estimate is within the guard's limit, and steps no
        // finer than 2^-MAX_GRID_EXP
        let limit = crate::memory::limit_bytes();
        let orders = windows.len() as u64;
        let fits = |m: u64| m <= PLANNER_POINTS && self.planned_bytes(m * orders) <= limit;
        let points_at = |h: f64| {
            self.planned_points(&windows, Step::At(self.step_at_least(h)))
                .map(|(_, most)| most)
        };
        let coarsest = self
            .planned_points(&windows, Step::Exp(MIN_GRID_EXP))
            .map(|(_, most)| most)
            .filter(|&m| fits(m));
        let Some(m_min) = coarsest else {
            let (a, b) = windows
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), w| {
                    (a.min(w.a), b.max(w.b))
                });
            return Err(Error::NotCertified {
                what: "composition".into(),
                reason: format!(
                    "the privacy-loss window [{a:.3e}, {b:.3e}] needs more than {PLANNER_POINTS} points per order or the memory limit {} even at the coarsest grid h = 2^-{MIN_GRID_EXP}",
                    crate::memory::human(limit)
                ),
            });
        };
        let mut m_cap = m_min;
        while fits(m_cap * 2) {
            m_cap *= 2;
        }
        if let Some(m) = points_at(2f64.powi(-MAX_GRID_EXP)) {
            m_cap = m_cap.min(m.max(m_min));
        }
        let points = |a: &CompositionAnswer| -> u64 {
            a.composed().map_or(0, |r| {
                r.info.iter().map(|g| g.points as u64).max().unwrap_or(0)
            })
        };
        // the planner: the transform length whose finest step the width model
        // w ≈ k·h²/2 predicts, then the length the measured width predicts (the
        // discretization error is O(h²)), then one more doubling if that fell short
        let m1 = points_at(self.predicted_step(tolerance))
            .unwrap_or(m_cap)
            .clamp(m_min, m_cap);
        // the first length corrected by the width its single steps predict
        // (`Staged::predicted_width`), before any transform is paid for
        let staged = self.plan_by_prediction(
            &|m| stage(Step::Points(m as usize)),
            &points_at,
            target,
            tolerance,
            (m1, m_min, m_cap),
        );
        let m1 = staged.as_ref().map_or(m1, |s| s.points());
        let first = match staged {
            Some(s) => finish(s),
            None => run(Step::Points(m1 as usize)),
        };
        let mut last = match first {
            Ok(a) => a,
            // a run that cannot certify (window top, δ floor) says nothing about the
            // width: go on at the engine's default grid if that is finer
            Err(e) => {
                let m = points_at(2f64.powi(-self.default_grid_exp()))
                    .unwrap_or(m_cap)
                    .min(m_cap);
                if m > m1 {
                    run(Step::Points(m as usize))?
                } else {
                    return Err(e);
                }
            }
        };
        // why the last refinement stopped short of the tolerance, for the note
        enum Stop {
            /// A finer grid did not halve the width (the FFT round-off and truncation at
            /// this target, which more points do not narrow and may widen): the other
            /// grid's step and its width; the narrower certified answer is kept.
            Stalled(f64, f64),
            /// A finer grid could not certify: its points per order; the coarser
            /// answer stands.
            Failed(u64),
        }
        let mut stop: Option<Stop> = None;
        // δ(ε) certified below the floor: its relative width is that of the truncation
        // bound, which no grid narrows
        let below_floor = |a: &CompositionAnswer| {
            matches!(target, Target::Epsilon(_)) && a.interval.upper < DELTA_FLOOR
        };
        if last.width > tolerance && !below_floor(&last) {
            let ratio = (last.width / (0.9 * tolerance)).max(1.0);
            // (a subnormal tolerance makes the ratio +∞: the step is the finest, not 0)
            let h_pred = (last_step(&last) / ratio.sqrt()).max(2f64.powi(-MAX_GRID_EXP));
            // at most eight times the points: a width that far above the one the grid
            // was chosen for is seldom the discretization's, and a finer grid that does
            // not halve it ends the refinement before the largest grid is paid for
            let mut m = points_at(h_pred)
                .unwrap_or(m_cap)
                .min(m_cap)
                .min(8 * points(&last).max(1));
            if m <= points(&last) {
                m = (2 * points(&last)).min(m_cap);
            }
            for _ in 0..2 {
                if m <= points(&last) {
                    break;
                }
                let Ok(next) = run(Step::Points(m as usize)) else {
                    stop = Some(Stop::Failed(m));
                    break;
                };
                if next.width > 0.5 * last.width {
                    // both are certified intervals of the same query: keep the narrower
                    if next.width < last.width {
                        stop = Some(Stop::Stalled(last_step(&last), last.width));
                        last = next;
                    } else {
                        stop = Some(Stop::Stalled(last_step(&next), next.width));
                    }
                    break;
                }
                last = next;
                if last.width <= tolerance {
                    break;
                }
                m = (2 * m).min(m_cap);
            }
        }
        if last.width > tolerance {
            let h = last_step(&last);
            let finer = (-h.log2()).floor() as i32 + 1;
            let why = if below_floor(&last) {
                format!(
                    "where δ(ε) is certified below the engine's floor {DELTA_FLOOR:e}: the upper end is the truncation bound, which no grid narrows"
                )
            } else if let Some(Stop::Stalled(h2, w2)) = stop {
                format!(
                    "where the grid h = {h2:.4e} gave width {w2:.3e}: a finer grid did not halve it, so the width is the FFT round-off and truncation at this target, not the discretization; a larger δ or ε target narrows it"
                )
            } else if let Some(Stop::Failed(m2)) = stop {
                format!(
                    "where the finer grid of {m2} points per order could not certify the query (window or δ floor); a larger δ or ε target narrows it"
                )
            } else if h <= 2f64.powi(-MAX_GRID_EXP) {
                format!(
                    "the planner's finest grid; the grid exponent {finer} (up to 24) narrows it"
                )
            } else if points(&last) >= m_cap {
                let next = 2 * points(&last);
                format!(
                    "the finest grid within the planner's budget ({PLANNER_POINTS} points per order, memory limit {}); the grid exponent {finer} narrows it: {next} points per order, about {} of memory (raise the memory limit)",
                    crate::memory::human(limit),
                    crate::memory::human(self.planned_bytes(next.saturating_mul(orders))),
                )
            } else {
                format!("a finer grid exponent ({finer}) narrows it")
            };
            last.note = Some(format!(
                "width {:.3e} > tolerance {tolerance:e} at h = {h:.4e}, {why}",
                last.width
            ));
        }
        Ok(last)
    }

    /// The planner's first composition, staged ([`Composition::stage`]) at the length
    /// whose single steps predict a width within `0.9·tolerance`
    /// ([`Staged::predicted_width`]): from `m1`, finer lengths as the prediction asks
    /// (the width falls like `h²`; two to four times the points each time, up to
    /// `m_cap`, and back to the last length if the prediction did not halve; a move whose
    /// prediction lands below [`OVERSHOOT`] × the aim tries half its points, since the
    /// width can fall faster than `h²` before its asymptote), or one
    /// length coarser when that one predicts under a quarter of the tolerance (the
    /// prediction can fall short of the certified width by up to 4× at a few hundred
    /// steps, see the test `staged_single_steps_predict_the_certified_width`). `None` when
    /// staging fails or the engine predicts nothing (the caller composes at `m1`). Only
    /// the staged single steps are discarded on the way, never a transform.
    fn plan_by_prediction(
        &self,
        stage: &dyn Fn(u64) -> Result<Staged>,
        points_at: &dyn Fn(f64) -> Option<u64>,
        target: Target,
        tolerance: f64,
        (m1, m_min, m_cap): (u64, u64, u64),
    ) -> Option<Staged> {
        let aim = 0.9 * tolerance;
        let mut s = stage(m1).ok()?;
        let mut w = s.predicted_width(target)?;
        if w < 0.0625 * tolerance && m1 / 2 >= m_min {
            let m = s.points();
            drop(s);
            if let Ok(c) = stage(m / 2)
                && c.predicted_width(target)
                    .is_some_and(|wc| wc <= 0.25 * tolerance)
            {
                return Some(c);
            }
            return stage(m).ok();
        }
        for _ in 0..6 {
            let m = s.points();
            if w <= aim || m >= m_cap {
                break;
            }
            // (a subnormal tolerance makes the ratio +∞: the step is the finest, not 0)
            let h = (s.step() / (w / aim).sqrt()).max(2f64.powi(-MAX_GRID_EXP));
            let next = points_at(h).unwrap_or(m_cap).clamp(2 * m, 4 * m).min(m_cap);
            drop(s);
            s = stage(next).ok()?;
            let w_next = s.predicted_width(target)?;
            if w_next > 0.5 * w {
                // a predicted width that does not shrink with the grid is not the
                // discretization's (masses the two sides treat differently whatever
                // the step): no finer grid is worth paying for
                drop(s);
                return stage(m).ok();
            }
            w = w_next;
            // a width far below the aim fell faster than h² (the pre-asymptotic fall):
            // half the points may already meet it, at half the transforms' cost
            if w < OVERSHOOT * aim && next / 2 > m {
                if let Ok(half) = stage(next / 2)
                    && let Some(wh) = half.predicted_width(target)
                    && wh <= aim
                {
                    return Some(half);
                }
                break;
            }
        }
        Some(s)
    }

    /// `Some(enclosure of √(Σ kᵢ μᵢ²))` over every component's μ when none is a curve:
    /// the composition with every subsampled Gaussian replaced by `G(μᵢ)`, `G(μ)` with
    /// this μ, is **below** the composition, so its ε(δ) and δ(ε) are upper bounds.
    ///
    /// Proof: `Id ≥ G(μ)`, so the remove direction `f_p = p G(μ) + (1 − p) Id ≥ G(μ)`;
    /// inversion keeps the order and `G(μ)⁻¹ = G(μ)`, so `f_p⁻¹ ≥ G(μ)`;
    /// `C_p(G(μ)) = min{f_p, f_p⁻¹}**` is the greatest convex minorant of a function
    /// ≥ the convex `G(μ)`, so `C_p(G(μ)) ≥ G(μ)` (BSA24 Def 4.7); `⊗` is monotone in
    /// each argument (DRS22 Prop 3.2 / Lemma C.1), and `⊗ᵢ G(μᵢ)^{⊗kᵢ} = G(√Σkᵢμᵢ²)`
    /// (DRS22 Cor 3.3). A larger tradeoff function has a smaller δ(ε) and ε(δ).
    pub fn no_amplification_mu(&self) -> Option<Enclosure> {
        self.root_sum_squares(|m| m.gaussian_dominating_mu())
    }

    /// `ε_pure = Σᵢ kᵢ ℓ̄ᵢ`, rounded up, when every component is a mechanism whose losses
    /// are bounded above in both orders by `ℓ̄ᵢ` ([`super::mechanism::Mechanism::loss_sup`])
    /// with no mass at `+∞`: then every composed loss is `≤ ε_pure` in both orders, so
    /// `δ(ε) = E_Q[(1 − e^{ε − L})₊] = 0` for `ε ≥ ε_pure` — the composition is
    /// `(ε_pure, 0)`-DP (basic composition of pure DP, DMNS06 / DRS22 §3).
    pub fn pure_epsilon(&self) -> Option<f64> {
        let mut s = Enclosure::from_u64(GAUSSIAN_BITS, 0);
        for (c, k) in self.parts() {
            let m = c.as_mechanism();
            let inv = m.inverse();
            if m.q_at_plus_infinity().hi > 0.0 || inv.q_at_plus_infinity().hi > 0.0 {
                return None;
            }
            let (a, b) = (m.loss_sup()?, inv.loss_sup()?);
            // f64::max would drop a NaN: a bound that is not a number bounds nothing
            if a.is_nan() || b.is_nan() {
                return None;
            }
            let sup = a.max(b).max(0.0);
            s = s + Enclosure::from_f64(GAUSSIAN_BITS, sup)
                .mul(&Enclosure::from_u64(GAUSSIAN_BITS, *k));
        }
        let e = s.upper_f64();
        e.is_finite().then_some(e)
    }

    /// The certified lower end of ε(δ) or δ(ε) of the Gaussian components alone, `None`
    /// without any: every other component is `≤ Id`, so the composition is `≤` that of
    /// its Gaussian components (`f ⊗ g ≤ f ⊗ Id = f`) and its ε(δ), δ(ε) are at least
    /// theirs.
    fn gaussian_part_lower(&self, target: Target) -> Option<f64> {
        let mut s = Enclosure::from_u64(GAUSSIAN_BITS, 0);
        let mut any = false;
        for (c, k) in self.parts() {
            if let Some(mu) = c.as_mechanism().exact_gaussian_mu() {
                let m = Enclosure::from_f64(GAUSSIAN_BITS, mu);
                s = s + m.square().mul(&Enclosure::from_u64(GAUSSIAN_BITS, *k));
                any = true;
            }
        }
        if !any {
            return None;
        }
        gaussian_answer(&s.sqrt(), target)
            .ok()
            .map(|a| a.interval.lower)
    }
}

/// A composed PLD kept between queries of one composition
/// ([`Composition::answer_reusing`]): the composition and tolerance it answered, and the
/// PLD. Empty by default.
#[derive(Debug, Clone, Default)]
pub struct Reuse {
    kept: Option<(Composition, f64, Arc<Composed>)>,
}

impl Reuse {
    /// Whether a PLD is kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_none()
    }
}

/// How far above the tolerance a kept PLD's interval may be and still answer a later
/// query: a grid planned for one δ gives a width that grows slowly as δ falls (about
/// 20 % from δ = 1e-3 to 1e-9 for a DP-SGD run), and composing afresh for that costs a
/// finer grid — several times the first query.
pub const REUSE_SLACK: f64 = 2.0;

/// The kept PLD's certified answer to `target`, if its width is within
/// [`REUSE_SLACK`] × `tolerance` (a note then says the width is above the tolerance).
fn reused_answer(r: Arc<Composed>, target: Target, tolerance: f64) -> Option<CompositionAnswer> {
    let interval = match target {
        Target::Delta(d) => r.epsilon(d).ok()?,
        Target::Epsilon(eps) => r.delta(eps).ok()?,
    };
    let width = width_of(target, interval);
    if width > REUSE_SLACK * tolerance
        || (matches!(target, Target::Epsilon(_)) && interval.upper < DELTA_FLOOR)
    {
        return None;
    }
    let h = coarsest_step(&r);
    let exp = (-h.log2()).round() as i32;
    let note = (width > tolerance).then(|| {
        format!(
            "width {width:.3e} > tolerance {tolerance:e}: answered from the composition kept for an earlier query (h = {h:.4e}), whose width here is within {REUSE_SLACK} × the tolerance; a fresh composition narrows it"
        )
    });
    Some(CompositionAnswer {
        interval,
        width,
        method: Method::Pld {
            composed: r,
            grid_exp: exp,
        },
        target,
        note,
    })
}

/// The coarsest grid step of a composition's orders (each order has its own window and
/// may have its own step).
fn coarsest_step(r: &Composed) -> f64 {
    r.info.iter().map(|g| g.h).fold(0.0, f64::max)
}

/// The coarsest grid step of a PLD answer (`2^{−MAX_GRID_EXP}` for a closed form).
fn last_step(a: &CompositionAnswer) -> f64 {
    a.composed().map_or(2f64.powi(-MAX_GRID_EXP), coarsest_step)
}

impl CompositionAnswer {
    /// μ of a closed-form answer (0 otherwise).
    fn mu_upper(&self) -> f64 {
        match self.method {
            Method::GaussianClosedForm { mu_upper } => mu_upper,
            Method::Pld { .. } | Method::PureDp { .. } => 0.0,
        }
    }
}

/// The width of the tolerance test: absolute for ε, relative to the upper end for δ.
fn width_of(target: Target, iv: Interval) -> f64 {
    match target {
        Target::Delta(_) => iv.width(),
        Target::Epsilon(_) => iv.width() / iv.upper.max(1e-300),
    }
}

impl Composition {
    /// The planner's first grid exponent for `tolerance` (see the module doc): the `e`
    /// with `k·h²/2 ≤ tolerance` at `h = 2^{−e}`, `k` the number of steps in all, at
    /// most 18 and at least two binary steps below [`Composition::default_grid_exp`]
    /// (and 4).
    ///
    /// # Example
    /// ```
    /// use shiftdp::composition::{Component, Composition};
    /// let c = Composition::new()
    ///     .with(Component::poisson(0.01, 1.0 / 1.1).unwrap(), 100_000)
    ///     .unwrap();
    /// // 10⁵ · 2⁻²⁶ / 2 = 7.5e−4 ≤ 1e−3 < 10⁵ · 2⁻²⁴ / 2
    /// assert_eq!(c.predicted_grid_exp(1e-3), 13);
    /// ```
    pub fn predicted_grid_exp(&self, tolerance: f64) -> i32 {
        // h is clamped to [2^{−MAX_GRID_EXP}, 2^{−coarse}]: the exponent to [coarse, MAX]
        (-self.predicted_step(tolerance).log2()).ceil() as i32
    }

    /// The planner's first grid step for `tolerance`: `h = √(2·tolerance/k)` (the width
    /// model `k·h²/2 ≤ tolerance`, `k` the number of steps in all), between
    /// `2^{−MAX_GRID_EXP}` and four times the step of [`Composition::default_grid_exp`].
    ///
    /// # Example
    /// ```
    /// use shiftdp::composition::{Component, Composition};
    /// let c = Composition::new()
    ///     .with(Component::poisson(0.01, 1.0 / 1.1).unwrap(), 1_000_000)
    ///     .unwrap();
    /// // √(2 · 1e−3 / 10⁶) = 4.47e−5
    /// assert!((c.predicted_step(1e-3) - 4.4721e-5).abs() < 1e-8);
    /// ```
    pub fn predicted_step(&self, tolerance: f64) -> f64 {
        let k = self.total_count().max(1) as f64;
        let h = (2.0 * tolerance / k).sqrt();
        let coarse = (self.default_grid_exp() - 2).clamp(MIN_GRID_EXP, MAX_GRID_EXP);
        if h.is_nan() {
            return 2f64.powi(-MAX_GRID_EXP);
        }
        h.clamp(2f64.powi(-MAX_GRID_EXP), 2f64.powi(-coarse))
    }
}

/// A predicted width below this fraction of the planner's aim after a move overshot it:
/// the planner then tries half the points.
const OVERSHOOT: f64 = 0.0625;

/// Finest grid exponent the planner chooses (`h = 2⁻¹⁸`); the memory guard may refuse
/// before.
const MAX_GRID_EXP: i32 = 18;
/// Coarsest grid exponent of the planner (`h = 2⁻⁴`, the engine's limit).
const MIN_GRID_EXP: i32 = 4;
/// Most grid points per order the planner chooses (a one-shot composition of 2²⁴
/// points takes seconds); a `grid` given may use more, up to the engine's limit.
pub const PLANNER_POINTS: u64 = 1 << 24;

/// ε(δ) or δ(ε) of `G(μ)` for an enclosure μ, as an [`CompositionAnswer`].
fn gaussian_answer(mu: &Enclosure, target: Target) -> Result<CompositionAnswer> {
    let (interval, width) = match target {
        Target::Delta(d) => {
            let c = Gaussian::epsilon(mu, &Enclosure::from_f64(GAUSSIAN_BITS, d), Precision::F64)?;
            let iv = Interval {
                lower: c.enclosure.lower_f64().max(0.0),
                upper: c.enclosure.upper_f64().max(0.0),
            };
            (iv, iv.width())
        }
        Target::Epsilon(e) => {
            let c = Gaussian::delta(mu, &Enclosure::from_f64(GAUSSIAN_BITS, e), Precision::F64)?;
            let iv = Interval {
                lower: c.enclosure.lower_f64().max(0.0),
                upper: c.enclosure.upper_f64().min(1.0),
            };
            (iv, iv.width() / iv.upper.max(1e-300))
        }
    };
    Ok(CompositionAnswer {
        interval,
        width,
        method: Method::GaussianClosedForm {
            mu_upper: mu.upper_f64(),
        },
        target,
        note: None,
    })
}
