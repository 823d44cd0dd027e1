//! Answering one query about a [`Composition`] to a requested width: the closed form
//! when every component is Gaussian, otherwise the PLD engine with grid refinement.
//!
//! # Formula
//! - **All Gaussian**: `⊗ᵢ G(μᵢ)^{⊗kᵢ} = G(√(Σ kᵢ μᵢ²))` exactly (DRS22 Cor 3.3), so
//!   ε(δ) and δ(ε) are those of one Gaussian tradeoff, enclosed by
//!   [`Gaussian::epsilon`] / [`Gaussian::delta`] (MPFR). No grid, no truncation: the
//!   width is that of the conversion (≈ 1e-15), and δ below [`DELTA_FLOOR`](super::DELTA_FLOOR) is answered.
//! - **Otherwise**: a planner. The certified width of the PLD engine is a discretization
//!   error `w ≈ α·k·h²` for `k` steps in all at grid step `h` (the mean-loss bias of the
//!   two discretizations, a quarter per binary step once `h` is fine), and in the jobs
//!   measured (Poisson and subsampled Gaussians, `k` from 10³ to 10⁶, see the README's
//!   benchmarks) `α` lies in `[0.13, 1.1]`, with `α ≈ 0.5` typical. The planner first
//!   composes at the grid that model predicts with `α = ½`:
//!   `e₁ = ⌈log₂ √(k / (2·tolerance))⌉` (at most 18, and never more than two binary
//!   steps coarser than [`Composition::default_grid_exp`], so that a loose tolerance
//!   still gets an informative grid);
//!   if its width is within `tolerance` (absolute for ε, relative to the upper end for
//!   δ) that is the answer, else the measured width predicts the grid
//!   `e = e₁ + ⌈log₄(width / 0.9·tolerance)⌉`, composed once, plus at most one finer
//!   step if the prediction fell short (never finer than 2⁻¹⁸; the memory guard may
//!   refuse first). A first run that cannot certify (window top, δ floor) is followed
//!   by one at the engine's default grid. With a grid given, that grid only.
//!
//!   Why no coarse probe: the prediction is right (or one step fine) in 7 of the 8 jobs
//!   measured, and a probe two steps coarser than the final grid costs a quarter of it
//!   while its width, taken in the pre-asymptotic regime where a binary step divides
//!   `w` by 5–10 rather than 4, predicts a grid one step too fine (twice the cost) as
//!   often as not.
//!
//! # Rounding
//! `Σ kᵢ μᵢ²` and its square root are enclosed in 128-bit interval arithmetic from the
//! f64 inputs and the upper end is used; both conversions return certified enclosures.
//! The PLD path reports the engine's certified interval unchanged.
//!
//! # ε(δ) at δ ≥ δ(0)
//! [`Composed::epsilon`] and [`Gaussian::epsilon`] return the smallest ε **≥ 0** with
//! δ(ε) ≤ δ. When the certified δ(0) is already ≤ δ the privacy profile reaches δ at a
//! non-positive ε, and `[0, 0]` is not a bracket of that ε: [`Answer::at_zero`] says
//! so, and front ends state "(0, δ)-DP holds; ε(δ) ≤ 0" instead of an interval.
use super::{Composed, Composition, Interval, Target};
use crate::error::{Error, Result};
use crate::precision::Precision;
use crate::precision::enclosure::Enclosure;
use crate::tradeoff::Gaussian;

/// Working precision of the all-Gaussian closed form.
const GAUSSIAN_BITS: u32 = 128;

/// How an [`Answer`] was computed.
#[derive(Debug, Clone)]
pub enum Method {
    /// Every component Gaussian: `G(μ)` with `μ = √(Σ kᵢ μᵢ²) ≤ mu_upper`.
    GaussianClosedForm {
        /// Upper end of the enclosure of μ (rounded up to f64).
        mu_upper: f64,
    },
    /// The certified PLD engine.
    Pld {
        /// The composed PLD at the final grid.
        composed: Box<Composed>,
        /// Final grid exponent e (step `h = 2^{−e}`).
        grid_exp: i32,
    },
}

/// A certified answer to one query: ε(δ) for [`Target::Delta`], δ(ε) for
/// [`Target::Epsilon`].
#[derive(Debug, Clone)]
pub struct Answer {
    /// The certified interval (ε for a δ target, δ for an ε target).
    pub interval: Interval,
    /// Width used for the tolerance test (absolute for ε, relative for δ).
    pub width: f64,
    /// How it was computed.
    pub method: Method,
    /// The query.
    pub target: Target,
}

impl Answer {
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
            Method::GaussianClosedForm { .. } => None,
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
        let mut s = Enclosure::from_u64(GAUSSIAN_BITS, 0);
        for (c, k) in self.parts() {
            // p = 1 subsampling is no subsampling: C_1(G(μ)) = G(μ) and both Poisson
            // directions p G(μ) + (1 − p) Id are G(μ) at p = 1
            let mu = match c {
                super::Component::Gaussian { mu }
                | super::Component::Subsampled { p: 1.0, mu }
                | super::Component::PoissonRemove { p: 1.0, mu }
                | super::Component::PoissonAdd { p: 1.0, mu } => mu,
                _ => return None,
            };
            let m = Enclosure::from_f64(GAUSSIAN_BITS, *mu);
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
    pub fn answer(&self, target: Target, tolerance: f64, grid: Option<i32>) -> Result<Answer> {
        if !(tolerance > 0.0 && tolerance.is_finite()) {
            return Err(Error::param(
                "tolerance",
                tolerance,
                "must be finite and > 0",
            ));
        }
        if self.parts().is_empty() {
            return Err(Error::param("components", "none", "give at least one"));
        }
        if let Some(mu) = self.gaussian_mu() {
            return gaussian_answer(&mu, target);
        }
        // the windows (grid-independent) once for every grid tried (a bad target is
        // refused by `compose_planned` before they are used)
        let windows = self.windows(target);
        let run = |e: Option<i32>| -> Result<Answer> {
            let r = self.compose_planned(target, e, Some(&windows))?;
            let exp = (-r.info[0].h.log2()).round() as i32;
            let (interval, width) = match target {
                Target::Delta(d) => {
                    let iv = r.epsilon(d)?;
                    (iv, iv.width())
                }
                Target::Epsilon(eps) => {
                    let iv = r.delta(eps)?;
                    (iv, iv.width() / iv.upper.max(1e-300))
                }
            };
            Ok(Answer {
                interval,
                width,
                method: Method::Pld {
                    composed: Box::new(r),
                    grid_exp: exp,
                },
                target,
            })
        };
        let exp_of = |a: &Answer| match a.method {
            Method::Pld { grid_exp, .. } => grid_exp,
            Method::GaussianClosedForm { .. } => MAX_GRID_EXP,
        };
        if grid.is_some() {
            return run(grid);
        }
        // the planner: the grid the width model w ≈ k·h²/2 predicts, then the grid the
        // measured width predicts (the discretization error is O(h²): a quarter per
        // binary step), then one more step if that fell short
        let e1 = self.predicted_grid_exp(tolerance);
        let mut last = match run(Some(e1)) {
            Ok(a) => a,
            // a run that cannot certify (window top, δ floor) says nothing about the
            // width: go on at the engine's default grid if that is finer
            Err(_) if self.default_grid_exp() > e1 => run(Some(self.default_grid_exp()))?,
            Err(e) => return Err(e),
        };
        if last.width <= tolerance {
            return Ok(last);
        }
        let ratio = (last.width / (0.9 * tolerance)).max(1.0);
        let mut e = (exp_of(&last) + (ratio.log(4.0)).ceil() as i32).min(MAX_GRID_EXP);
        for _ in 0..2 {
            if e <= exp_of(&last) {
                break;
            }
            last = run(Some(e))?;
            if last.width <= tolerance {
                break;
            }
            e = (e + 1).min(MAX_GRID_EXP);
        }
        Ok(last)
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
        let k = self.total_count().max(1) as f64;
        let e = (0.5 * k / tolerance).sqrt().log2().ceil();
        // never more than two binary steps coarser than the engine's default grid: a
        // loose tolerance (calibration asks with f64::MAX for "one composition") still
        // gets an informative answer
        let floor = (self.default_grid_exp() - 2).max(MIN_GRID_EXP);
        if e.is_nan() {
            return MAX_GRID_EXP;
        }
        (e.max(f64::from(floor)) as i32).clamp(floor, MAX_GRID_EXP)
    }
}

/// Finest grid exponent the planner chooses (`h = 2⁻¹⁸`); the memory guard may refuse
/// before.
const MAX_GRID_EXP: i32 = 18;
/// Coarsest grid exponent of the planner (`h = 2⁻⁴`, the engine's limit).
const MIN_GRID_EXP: i32 = 4;

/// ε(δ) or δ(ε) of `G(μ)` for an enclosure μ, as an [`Answer`].
fn gaussian_answer(mu: &Enclosure, target: Target) -> Result<Answer> {
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
    Ok(Answer {
        interval,
        width,
        method: Method::GaussianClosedForm {
            mu_upper: mu.upper_f64(),
        },
        target,
    })
}
