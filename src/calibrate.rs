//! Noise calibration: the smallest noise multiplier σ whose **certified** ε at δ is at
//! most a target — for the composition accountant (DP-SGD with Poisson sampling) and for
//! the hidden-state bounds of a run (every result of the five papers, or one of them).
//!
//! The problem is a trait ([`NoiseProblem`]: σ ↦ a certified upper end of ε(δ) and the
//! result that gives it), the solver a function ([`smallest_noise`]), as in argmin.
//!
//! # Method: search without rigor, certify with rigor
//!
//! Every probe is a certified computation ([`NoiseProblem::epsilon`]): the composition
//! engine's interval, exactly as `shiftdp compose` computes it, or the analysis's best
//! certified bound. A probe at σ has one of three outcomes:
//!
//! - **certified**: the upper end of the certified ε(δ) is ≤ the target;
//! - **not certified**: the upper end is > the target at every accuracy tried (the
//!   problem's [`NoiseProblem::refinements`]: a probe whose interval straddles the target,
//!   lower end ≤ target < upper end, is repeated at the next finer accuracy — for the
//!   composition accountant a tolerance ten times smaller; a refused probe is retried
//!   once, at the next accuracy);
//! - **unknown**: every accuracy tried returned an error (a refusal of the engine). An
//!   unknown is not a failure: the bracketing below goes on past it.
//!
//! A geometric bracket-and-bisect search over σ keeps `sigma`, the smallest σ seen
//! certified, and `sigma_below`, the largest σ below it seen not certified (or unknown).
//! Bracketing starts at σ = 1 and doubles (while nothing is certified) or halves (while
//! σ is certified, and past unknowns: a certified σ below an unknown one is taken; it
//! stops at the first σ not certified, by the monotonicity of ε in σ). Bisection at the
//! geometric midpoint stops when `sigma / sigma_below ≤ 1 + rel_step`; an unknown
//! midpoint counts as not certified there.
//!
//! **What is guaranteed.** The returned `sigma` was itself evaluated: a mechanism run
//! with noise multiplier `sigma` (or any larger one, by the monotonicity of every bound
//! here in σ — more noise is a post-processing-free improvement of each Gaussian step)
//! satisfies (ε, δ)-DP with ε = `epsilon` ≤ target. Nothing is claimed of `sigma_below`
//! beyond "this accountant could not certify the target there at any accuracy tried":
//! the true ε there may be below the target (the certified interval has a width), so
//! the calibrated σ is the smallest this accountant can *certify*, which is what a user
//! may report.
//!
//! **The rule for the composition accountant** ([`PoissonGaussian`]). A probe is
//! `Composition::answer(Target::Delta(δ), tolerance, None)` — `shiftdp compose`'s
//! computation — at μ = 1/σ rounded up, first at compose's default tolerance
//! [`COMPOSE_TOLERANCE`], then, while its interval straddles the target, at
//! [`COMPOSE_TOLERANCE`]/10 and [`COMPOSE_TOLERANCE`]/100 (a refusal at
//! [`COMPOSE_TOLERANCE`]/10 only). So the returned σ
//! is certified by `compose --tolerance T` at the tolerance T reported
//! ([`Calibration::tolerance`]), and `sigma_below` is certified neither by `compose` at
//! its default tolerance nor at the finest one tried: the calibrated σ is within
//! `rel_step` of the smallest σ `compose` certifies at its default tolerance (or finer,
//! when a finer tolerance certifies a σ that the default leaves straddling).
//!
//! **Rounding.** σ is an f64 at which the certified computation ran; printed, it must be
//! rounded up (a larger σ is safe). The noise enters the composition as μ = 1/σ rounded
//! up, and a run setting at σ's exact binary value.
//!
//! # Example
//! ```
//! use shiftdp::calibrate::{PoissonGaussian, smallest_noise};
//! // DP-SGD: sampling rate q = 0.01, 1000 steps, target (ε, δ) = (1, 1e-5)
//! let problem = PoissonGaussian::new(0.01, 1000, 1e-5)?;
//! let c = smallest_noise(&problem, 1.0, 1e-2)?;
//! assert!(c.epsilon <= 1.0);                    // certified at the returned σ
//! assert!(c.epsilon_below.is_none_or(|e| e > 1.0)); // not certified just below it
//! assert!(c.sigma <= c.sigma_below * 1.01 + 1e-12);
//! # Ok::<(), shiftdp::Error>(())
//! ```
use crate::analysis::{Query, analyze};
use crate::composition::{Component, Composition, Interval, Target};
use crate::error::{Error, Result};
use crate::precision::Precision;
use crate::precision::rounding::div_up_f64;
use crate::provenance::ResultId;
use crate::settings::{Algorithm, RawSetting, Setting};

/// `shiftdp compose`'s default width goal for the ε interval: the composition
/// accountant's first tolerance.
pub const COMPOSE_TOLERANCE: f64 = crate::composition::DEFAULT_TOLERANCE;

/// One certified evaluation of ε(δ) at a noise σ.
#[derive(Debug, Clone, PartialEq)]
pub struct Certified {
    /// Certified enclosure of ε(δ): the true ε(δ) is at least `lower` (0 when no lower
    /// bound is computed) and at most `upper` (the value safe to report).
    pub interval: Interval,
    /// The result or accountant that certifies it.
    pub source: String,
    /// The width goal of the composition engine, when it was used
    /// (`shiftdp compose --tolerance`).
    pub tolerance: Option<f64>,
}

/// A family of mechanisms indexed by the noise multiplier σ, with a certified ε(δ).
pub trait NoiseProblem {
    /// What is calibrated (for reports), e.g. `Poisson-sampled Gaussian, q = 0.01, T = 10⁴`.
    fn describe(&self) -> String;
    /// A certified enclosure of ε(δ) at noise σ at accuracy `refinement` (0 the
    /// default; `1..=`[`refinements`](NoiseProblem::refinements) finer, for σ at which
    /// the enclosure straddles the target or the computation is refused). An error
    /// means "cannot certify at this σ and accuracy" (the search treats it as unknown,
    /// never as a pass).
    fn epsilon(&self, sigma: f64, refinement: u32) -> Result<Certified>;
    /// Number of finer accuracies [`epsilon`](NoiseProblem::epsilon) offers (0: none).
    fn refinements(&self) -> u32 {
        0
    }
}

/// The answer of [`smallest_noise`].
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// The calibrated noise multiplier: the smallest σ found whose certified ε ≤ target.
    pub sigma: f64,
    /// The certified upper end of ε(δ) at `sigma` (≤ the target).
    pub epsilon: f64,
    /// The result or accountant that certifies it.
    pub source: String,
    /// The composition engine's width goal at which `sigma` is certified, when the
    /// engine was used (`shiftdp compose --tolerance` reproduces it).
    pub tolerance: Option<f64>,
    /// The largest σ below `sigma` at which the target could not be certified
    /// (`sigma / sigma_below ≤ 1 + rel_step`).
    pub sigma_below: f64,
    /// The certified upper end of ε at `sigma_below` (> target) at the finest accuracy
    /// tried, or `None` where nothing could be certified.
    pub epsilon_below: Option<f64>,
    /// Number of certified evaluations made (refinements included).
    pub evaluations: usize,
}

/// Smallest σ considered (below it every accountant here refuses or is vacuous).
pub const SIGMA_MIN: f64 = 1e-4;
/// Largest σ considered.
pub const SIGMA_MAX: f64 = 1e6;

/// The outcome of one probe (see the module docs).
enum Probe {
    /// Certified: upper end ≤ target.
    Pass(Certified),
    /// Not certified at any accuracy tried; the upper end at the finest that answered.
    Fail(f64),
    /// Every accuracy tried was refused.
    Unknown,
}

/// Finds the smallest noise multiplier σ ∈ [[`SIGMA_MIN`], [`SIGMA_MAX`]] whose certified
/// ε(δ) is ≤ `target_epsilon`, to relative resolution `rel_step` (see the module docs
/// for the method and what is guaranteed).
///
/// # Errors
/// [`Error::Parameter`] for a target ε that is not finite and > 0 or `rel_step` outside
/// [1e-9, 1]; [`Error::NotCertified`] if even σ = [`SIGMA_MAX`] does not certify the
/// target (with the last reason).
pub fn smallest_noise<P: NoiseProblem + ?Sized>(
    problem: &P,
    target_epsilon: f64,
    rel_step: f64,
) -> Result<Calibration> {
    if !(target_epsilon.is_finite() && target_epsilon > 0.0) {
        return Err(Error::param(
            "epsilon",
            target_epsilon,
            "target ε must be finite and > 0",
        ));
    }
    if !(1e-9..=1.0).contains(&rel_step) {
        return Err(Error::param("rel_step", rel_step, "must be in [1e-9, 1]"));
    }
    let mut evaluations = 0;
    let mut last_err: Option<Error> = None;
    let mut probe = |sigma: f64| -> Probe {
        let mut upper: Option<f64> = None;
        for level in 0..=problem.refinements() {
            evaluations += 1;
            match problem.epsilon(sigma, level) {
                Ok(c) if c.interval.upper.is_finite() && c.interval.upper <= target_epsilon => {
                    return Probe::Pass(c);
                }
                Ok(c) => {
                    upper = Some(c.interval.upper);
                    // the true ε(δ) exceeds the target: no accuracy certifies it
                    if c.interval.lower > target_epsilon {
                        break;
                    }
                }
                Err(err) => {
                    last_err = Some(err);
                    // a refusal is retried once, at the next accuracy
                    if level >= 1 {
                        break;
                    }
                }
            }
        }
        match upper {
            Some(u) => Probe::Fail(u),
            None => Probe::Unknown,
        }
    };
    let below = |p: &Probe| match p {
        Probe::Fail(u) => Some(*u).filter(|u| u.is_finite()),
        _ => None,
    };
    // bracket: `ok` certified at `s_ok`; nothing certified at `s_fail` < `s_ok`
    let mut sigma = 1.0_f64;
    let (mut s_ok, mut ok, mut s_fail, mut e_fail);
    match probe(sigma) {
        Probe::Pass(c) => {
            (s_ok, ok) = (sigma, c);
            // the largest σ below s_ok not certified, and whether it is a failure
            let mut first_miss: Option<(f64, Option<f64>)> = None;
            loop {
                sigma /= 2.0;
                if sigma < SIGMA_MIN {
                    match first_miss {
                        Some((s, e)) => {
                            (s_fail, e_fail) = (s, e);
                            break;
                        }
                        // certified at every σ down to the floor: report the floor
                        None => {
                            return Ok(Calibration {
                                sigma: s_ok,
                                epsilon: ok.interval.upper,
                                source: ok.source,
                                tolerance: ok.tolerance,
                                sigma_below: s_ok,
                                epsilon_below: None,
                                evaluations,
                            });
                        }
                    }
                }
                let p = probe(sigma);
                match p {
                    Probe::Pass(c) => {
                        (s_ok, ok) = (sigma, c);
                        first_miss = None;
                    }
                    Probe::Fail(_) => {
                        // ε is monotone in σ: nothing below is certified either
                        (s_fail, e_fail) = first_miss.unwrap_or((sigma, below(&p)));
                        break;
                    }
                    // a refusal is not a failure: look further down
                    Probe::Unknown => {
                        first_miss.get_or_insert((sigma, None));
                    }
                }
            }
        }
        p => {
            (s_fail, e_fail) = (sigma, below(&p));
            loop {
                sigma *= 2.0;
                if sigma > SIGMA_MAX {
                    return Err(Error::NotCertified {
                        what: format!("noise calibration of {}", problem.describe()),
                        reason: match last_err {
                            Some(e) => {
                                format!("no σ ≤ {SIGMA_MAX:e} certifies ε ≤ {target_epsilon}: {e}")
                            }
                            None => format!("no σ ≤ {SIGMA_MAX:e} certifies ε ≤ {target_epsilon}"),
                        },
                    });
                }
                let p = probe(sigma);
                match p {
                    Probe::Pass(c) => {
                        (s_ok, ok) = (sigma, c);
                        break;
                    }
                    p => (s_fail, e_fail) = (sigma, below(&p)),
                }
            }
        }
    }
    // geometric bisection: at most ~log2(ln 2 / rel_step) + 1 steps (< 40 for 1e-9)
    while s_ok / s_fail > 1.0 + rel_step {
        let mid = (s_ok * s_fail).sqrt();
        if !(mid > s_fail && mid < s_ok) {
            break; // adjacent doubles
        }
        let p = probe(mid);
        match p {
            Probe::Pass(c) => (s_ok, ok) = (mid, c),
            p => (s_fail, e_fail) = (mid, below(&p)),
        }
    }
    Ok(Calibration {
        sigma: s_ok,
        epsilon: ok.interval.upper,
        source: ok.source,
        tolerance: ok.tolerance,
        sigma_below: s_fail,
        epsilon_below: e_fail,
        evaluations,
    })
}

/// DP-SGD's accountant: T steps of the Poisson-sampled Gaussian mechanism with sampling
/// rate q and noise multiplier σ (sensitivity 1, add-or-remove adjacency, both
/// directions composed: [`Component::poisson`] with μ = 1/σ rounded up), ε(δ) by the
/// certified composition engine exactly as `shiftdp compose` computes it:
/// `Composition::answer(Target::Delta(δ), tolerance, None)` with tolerance
/// [`COMPOSE_TOLERANCE`]·10^(−refinement), refinement ≤ 2 (the exact Gaussian closed
/// form at q = 1, where the tolerance plays no part).
#[derive(Debug, Clone, PartialEq)]
pub struct PoissonGaussian {
    q: f64,
    steps: u64,
    delta: f64,
}

impl PoissonGaussian {
    /// Validates q ∈ (0, 1], T ≥ 1 and δ ∈ (0, 1).
    ///
    /// # Errors
    /// [`Error::Parameter`] naming the value outside its domain.
    pub fn new(q: f64, steps: u64, delta: f64) -> Result<PoissonGaussian> {
        if !(q > 0.0 && q <= 1.0) {
            return Err(Error::param("q", q, "sampling rate must satisfy 0 < q ≤ 1"));
        }
        if steps == 0 {
            return Err(Error::param("steps", 0, "must be ≥ 1"));
        }
        if !(delta > 0.0 && delta < 1.0) {
            return Err(Error::param("delta", delta, "must satisfy 0 < δ < 1"));
        }
        Ok(PoissonGaussian { q, steps, delta })
    }

    /// μ = 1/σ rounded up (a larger μ is less private).
    pub fn mu(sigma: f64) -> f64 {
        div_up_f64(1.0, sigma)
    }

    /// The composition at noise σ: T copies of [`Component::poisson`]`(q, μ(σ))`.
    ///
    /// # Errors
    /// [`Error::Parameter`] for σ giving a μ the component refuses.
    pub fn composition(&self, sigma: f64) -> Result<Composition> {
        Composition::new().with(Component::poisson(self.q, Self::mu(sigma))?, self.steps)
    }

    /// The width goal of refinement level `refinement`:
    /// [`COMPOSE_TOLERANCE`]·10^(−refinement).
    pub fn tolerance(refinement: u32) -> f64 {
        COMPOSE_TOLERANCE / 10f64.powi(refinement.min(300) as i32)
    }
}

impl NoiseProblem for PoissonGaussian {
    fn describe(&self) -> String {
        format!(
            "Poisson-sampled Gaussian, q = {}, T = {}, δ = {:e}",
            self.q, self.steps, self.delta
        )
    }

    fn epsilon(&self, sigma: f64, refinement: u32) -> Result<Certified> {
        let tolerance = Self::tolerance(refinement);
        let a = self
            .composition(sigma)?
            .answer(Target::Delta(self.delta), tolerance, None)?;
        Ok(Certified {
            interval: a.interval,
            source: "certified PLD composition (Poisson, add/remove)".into(),
            tolerance: Some(tolerance),
        })
    }

    fn refinements(&self) -> u32 {
        2
    }
}

/// The hidden-state bounds of a run: the run's setting with its noise σ left free, and
/// ε(δ) the best certified bound of [`analyze`] (or of one result, `only`), with the
/// result id that gives it.
#[derive(Debug, Clone)]
pub struct RunBounds {
    algorithm: Algorithm,
    raw: RawSetting,
    query: Query,
    only: Option<ResultId>,
}

impl RunBounds {
    /// The run (every flag but `noise`), the δ of the query (a decimal, read exactly),
    /// and optionally the one result to calibrate for. The setting is validated once
    /// at σ = 1 so that errors not about σ surface here.
    ///
    /// # Errors
    /// [`Error::Parameter`] if `raw` sets the noise, or the setting or δ is invalid.
    pub fn new(
        algorithm: Algorithm,
        raw: RawSetting,
        delta: &str,
        only: Option<ResultId>,
    ) -> Result<RunBounds> {
        if raw.noise.is_some() {
            return Err(Error::param(
                "noise",
                raw.noise.clone().unwrap_or_default(),
                "is what calibration finds: leave it out",
            ));
        }
        let query = Query::epsilon_at(delta)?;
        let me = RunBounds {
            algorithm,
            raw,
            query,
            only,
        };
        me.setting(1.0)?;
        Ok(me)
    }

    fn setting(&self, sigma: f64) -> Result<Setting> {
        Setting::new(self.algorithm, &self.raw.clone().with("noise", sigma)?)
    }
}

impl NoiseProblem for RunBounds {
    fn describe(&self) -> String {
        match self.only {
            Some(id) => format!("{} for the {} run", id.as_str(), self.algorithm.name()),
            None => format!("the best bound for the {} run", self.algorithm.name()),
        }
    }

    fn epsilon(&self, sigma: f64, _refinement: u32) -> Result<Certified> {
        let a = analyze(&self.setting(sigma)?, &self.query, Precision::F64)?;
        let entry = match self.only {
            Some(id) => a.entry(id),
            None => a.best(),
        };
        let not = |why: &str| Error::NotCertified {
            what: self.describe(),
            reason: format!("at σ = {sigma:e}: {why}"),
        };
        let entry = entry.ok_or_else(|| not("no result applies"))?;
        match entry.upper_f64() {
            // an upper bound only: no lower end is computed
            Some(e) => Ok(Certified {
                interval: Interval {
                    lower: 0.0,
                    upper: e,
                },
                source: entry.id.as_str().to_string(),
                tolerance: None,
            }),
            None => Err(entry
                .reason()
                .cloned()
                .unwrap_or_else(|| not("not certified"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precision::Enclosure;
    use crate::tradeoff::Gaussian;

    /// μ-GDP with μ = k/σ: ε(δ) from the certified GDP conversion (an independent path).
    struct Gdp {
        k: f64,
        delta: f64,
    }

    impl NoiseProblem for Gdp {
        fn describe(&self) -> String {
            "GDP".into()
        }
        fn epsilon(&self, sigma: f64, _refinement: u32) -> Result<Certified> {
            let mu = Enclosure::from_f64(128, self.k) / Enclosure::from_f64(128, sigma);
            let d = Enclosure::from_f64(128, self.delta);
            let e = Gaussian::epsilon(&mu, &d, Precision::Bits(128))?;
            Ok(Certified {
                interval: Interval {
                    lower: e.enclosure.lower_f64(),
                    upper: e.enclosure.upper_f64(),
                },
                source: "GDP".into(),
                tolerance: None,
            })
        }
    }

    #[test]
    fn gdp_calibration_inverts_the_conversion() {
        // ε(δ) of G(μ) is increasing in μ = 1/σ: the calibrated σ brackets the root
        for (k, target) in [(1.0, 1.0), (3.0, 0.5), (0.2, 8.0), (50.0, 2.0)] {
            let p = Gdp { k, delta: 1e-5 };
            let c = smallest_noise(&p, target, 1e-6).unwrap();
            assert!(c.epsilon <= target);
            assert!(c.epsilon_below.unwrap() > target);
            assert!(c.sigma / c.sigma_below <= 1.0 + 1e-6);
            // the root μ* with ε(μ*) = target: σ* = k/μ* lies in [sigma_below, sigma]
            let mu_star = |s: f64| p.epsilon(s, 0).unwrap().interval.upper;
            assert!(mu_star(c.sigma) <= target && mu_star(c.sigma_below) > target);
        }
    }

    /// GDP ε(δ) at σ, refused for σ in a band (a stand-in for an engine refusal).
    struct Band {
        gdp: Gdp,
        refused: (f64, f64),
    }

    impl NoiseProblem for Band {
        fn describe(&self) -> String {
            "GDP with a refused band".into()
        }
        fn epsilon(&self, sigma: f64, refinement: u32) -> Result<Certified> {
            if sigma >= self.refused.0 && sigma <= self.refused.1 {
                return Err(Error::NotCertified {
                    what: "band".into(),
                    reason: "refused".into(),
                });
            }
            self.gdp.epsilon(sigma, refinement)
        }
    }

    #[test]
    fn a_refusal_is_not_a_failure() {
        // G(1/σ) at δ = 1e-5: the smallest σ certifying ε ≤ 40 is ≈ 0.18 (ε ≈ μ²/2 + 4.26μ
        // = 40 at μ ≈ 5.6); σ = 0.5 is refused, and the search goes past it to 0.25
        let gdp = Gdp {
            k: 1.0,
            delta: 1e-5,
        };
        let free = smallest_noise(&gdp, 40.0, 1e-4).unwrap();
        let band = Band {
            gdp: Gdp {
                k: 1.0,
                delta: 1e-5,
            },
            refused: (0.3, 0.6),
        };
        let c = smallest_noise(&band, 40.0, 1e-4).unwrap();
        assert!(free.sigma > 0.125 && free.sigma < 0.25, "{free:?}");
        assert_eq!(c.sigma.to_bits(), free.sigma.to_bits());
        assert!(c.epsilon <= 40.0 && c.epsilon_below.unwrap() > 40.0);
    }

    /// GDP ε(δ) at σ with a certified interval [ε, ε + 10^(−r)] at refinement r ≤ 3.
    struct Widening(Gdp);

    impl NoiseProblem for Widening {
        fn describe(&self) -> String {
            "GDP, widened".into()
        }
        fn epsilon(&self, sigma: f64, refinement: u32) -> Result<Certified> {
            let mut c = self.0.epsilon(sigma, 0)?;
            c.interval.upper += 10f64.powi(-(refinement as i32));
            c.tolerance = Some(10f64.powi(-(refinement as i32)));
            Ok(c)
        }
        fn refinements(&self) -> u32 {
            3
        }
    }

    #[test]
    fn a_straddling_interval_is_refined() {
        // at the finest refinement the interval is [ε, ε + 1e-3]: the calibrated σ is the
        // smallest at which ε + 1e-3 ≤ target, and below it even that upper end fails
        let p = Widening(Gdp {
            k: 1.0,
            delta: 1e-5,
        });
        let c = smallest_noise(&p, 2.0, 1e-6).unwrap();
        assert_eq!(c.tolerance, Some(1e-3));
        assert!(c.epsilon <= 2.0 && c.epsilon_below.unwrap() > 2.0);
        let exact = smallest_noise(&p.0, 2.0 - 1e-3, 1e-6).unwrap();
        assert!(
            (c.sigma / exact.sigma - 1.0).abs() <= 2e-6,
            "{c:?} {exact:?}"
        );
    }

    #[test]
    fn refusals() {
        let p = Gdp {
            k: 1.0,
            delta: 1e-5,
        };
        assert!(matches!(
            smallest_noise(&p, 0.0, 1e-3),
            Err(Error::Parameter { .. })
        ));
        assert!(matches!(
            smallest_noise(&p, f64::NAN, 1e-3),
            Err(Error::Parameter { .. })
        ));
        assert!(matches!(
            smallest_noise(&p, 1.0, 0.0),
            Err(Error::Parameter { .. })
        ));
        assert!(PoissonGaussian::new(1.5, 10, 1e-5).is_err());
        assert!(PoissonGaussian::new(0.1, 0, 1e-5).is_err());
        assert!(PoissonGaussian::new(0.1, 10, 0.0).is_err());
        // a target no σ ≤ SIGMA_MAX reaches (μ = 1e9/σ ≥ 1000)
        let far = Gdp {
            k: 1e9,
            delta: 1e-5,
        };
        assert!(matches!(
            smallest_noise(&far, 1e-3, 1e-3),
            Err(Error::NotCertified { .. })
        ));
    }

    #[test]
    fn poisson_calibration_is_certified_at_sigma_and_not_below() {
        let p = PoissonGaussian::new(0.05, 200, 1e-5).unwrap();
        let c = smallest_noise(&p, 2.0, 1e-2).unwrap();
        // re-evaluate independently of the search's bookkeeping
        let t = c.tolerance.unwrap();
        assert!(t <= COMPOSE_TOLERANCE);
        let at = |s: f64, t: f64| {
            p.composition(s)
                .unwrap()
                .answer(Target::Delta(1e-5), t, None)
                .unwrap()
                .interval
                .upper
        };
        assert!(at(c.sigma, t) <= 2.0);
        assert!(at(c.sigma_below, COMPOSE_TOLERANCE) > 2.0);
        // with q = 1 the Poisson mechanism is the Gaussian one: T-fold G(1/σ) = G(√T/σ)
        let full = PoissonGaussian::new(1.0, 4, 1e-5).unwrap();
        let c = smallest_noise(&full, 1.0, 1e-3).unwrap();
        let gdp = Gdp {
            k: 2.0,
            delta: 1e-5,
        }; // √4 = 2
        let g = smallest_noise(&gdp, 1.0, 1e-3).unwrap();
        // the PLD interval is wider than the GDP one, so its σ is at least GDP's (up to
        // the search resolution) and close to it
        assert!(
            c.sigma >= g.sigma_below && c.sigma <= g.sigma * 1.01,
            "{c:?} {g:?}"
        );
    }
}
