//! Noise calibration: the smallest noise multiplier σ whose **certified** ε at δ is at
//! most a target — for the composition accountant (DP-SGD with Poisson sampling) and for
//! the hidden-state bounds of a run (every result of the five papers, or one of them).
//!
//! The problem is a trait ([`NoiseProblem`]: σ ↦ a certified upper end of ε(δ) and the
//! result that gives it), the solver a function ([`smallest_noise`]), as in argmin.
//!
//! # Method: search without rigor, certify with rigor
//!
//! Every probe is a certified computation: the composition engine's interval (its upper
//! end) or the analysis's best certified bound. A geometric bracket-and-bisect search
//! over σ keeps two values: `sigma`, the smallest σ seen whose certified ε is ≤ the
//! target, and `sigma_below`, the largest σ below it seen to fail (its certified upper
//! end exceeds the target, or nothing could be certified there). It stops when
//! `sigma / sigma_below ≤ 1 + rel_step`.
//!
//! **What is guaranteed.** The returned `sigma` was itself evaluated: a mechanism run
//! with noise multiplier `sigma` (or any larger one, by the monotonicity of every bound
//! here in σ — more noise is a post-processing-free improvement of each Gaussian step)
//! satisfies (ε, δ)-DP with ε = `epsilon` ≤ target. Nothing is claimed of `sigma_below`
//! beyond "this accountant could not certify the target there": the true ε there may be
//! below the target (the certified interval has a width), so the calibrated σ is the
//! smallest this accountant can *certify*, which is what a user may report.
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
use crate::composition::{Component, Composition, Target};
use crate::error::{Error, Result};
use crate::precision::Precision;
use crate::precision::rounding::next_up_f64;
use crate::provenance::ResultId;
use crate::settings::{Algorithm, RawSetting, Setting};

/// A family of mechanisms indexed by the noise multiplier σ, with a certified ε(δ).
pub trait NoiseProblem {
    /// What is calibrated (for reports), e.g. `Poisson-sampled Gaussian, q = 0.01, T = 10⁴`.
    fn describe(&self) -> String;
    /// A certified upper end of ε(δ) at noise σ and the result or accountant that gives
    /// it. An error means "cannot certify at this σ" (the search treats it as a failure
    /// to meet the target, never as a pass).
    fn epsilon_upper(&self, sigma: f64) -> Result<(f64, String)>;
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
    /// The largest σ below `sigma` at which the target could not be certified
    /// (`sigma / sigma_below ≤ 1 + rel_step`).
    pub sigma_below: f64,
    /// The certified upper end of ε at `sigma_below` (> target), or `None` where
    /// nothing could be certified.
    pub epsilon_below: Option<f64>,
    /// Number of certified evaluations made.
    pub evaluations: usize,
}

/// Smallest σ considered (below it every accountant here refuses or is vacuous).
pub const SIGMA_MIN: f64 = 1e-4;
/// Largest σ considered.
pub const SIGMA_MAX: f64 = 1e6;

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
    // Pass(ε, source) if the target is certified at σ, Fail(ε if any) otherwise
    enum Probe {
        Pass(f64, String),
        Fail(Option<f64>),
    }
    let mut probe = |sigma: f64| -> Probe {
        evaluations += 1;
        match problem.epsilon_upper(sigma) {
            Ok((e, src)) if e.is_finite() && e <= target_epsilon => Probe::Pass(e, src),
            Ok((e, _)) => Probe::Fail(e.is_finite().then_some(e)),
            Err(err) => {
                last_err = Some(err);
                Probe::Fail(None)
            }
        }
    };
    // bracket: (s_ok, e_ok, src) certified; (s_fail, e_fail) not
    let mut sigma = 1.0_f64;
    let (mut s_ok, mut e_ok, mut src, mut s_fail, mut e_fail);
    match probe(sigma) {
        Probe::Pass(e, s) => {
            (s_ok, e_ok, src) = (sigma, e, s);
            loop {
                sigma /= 2.0;
                if sigma < SIGMA_MIN {
                    // certified at every σ down to the floor: report the floor
                    return Ok(Calibration {
                        sigma: s_ok,
                        epsilon: e_ok,
                        source: src,
                        sigma_below: s_ok,
                        epsilon_below: None,
                        evaluations,
                    });
                }
                match probe(sigma) {
                    Probe::Pass(e, s) => (s_ok, e_ok, src) = (sigma, e, s),
                    Probe::Fail(v) => {
                        (s_fail, e_fail) = (sigma, v);
                        break;
                    }
                }
            }
        }
        Probe::Fail(v) => {
            (s_fail, e_fail) = (sigma, v);
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
                match probe(sigma) {
                    Probe::Pass(e, s) => {
                        (s_ok, e_ok, src) = (sigma, e, s);
                        break;
                    }
                    Probe::Fail(v) => (s_fail, e_fail) = (sigma, v),
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
        match probe(mid) {
            Probe::Pass(e, s) => (s_ok, e_ok, src) = (mid, e, s),
            Probe::Fail(v) => (s_fail, e_fail) = (mid, v),
        }
    }
    Ok(Calibration {
        sigma: s_ok,
        epsilon: e_ok,
        source: src,
        sigma_below: s_fail,
        epsilon_below: e_fail,
        evaluations,
    })
}

/// DP-SGD's accountant: T steps of the Poisson-sampled Gaussian mechanism with sampling
/// rate q and noise multiplier σ (sensitivity 1, add-or-remove adjacency, both
/// directions composed: [`Component::poisson`] with μ = 1/σ rounded up), ε(δ) by the
/// certified composition engine (the upper end of its interval, default grid).
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
}

impl NoiseProblem for PoissonGaussian {
    fn describe(&self) -> String {
        format!(
            "Poisson-sampled Gaussian, q = {}, T = {}, δ = {:e}",
            self.q, self.steps, self.delta
        )
    }

    fn epsilon_upper(&self, sigma: f64) -> Result<(f64, String)> {
        // μ = 1/σ: the correctly rounded quotient is within half an ulp, one ulp up is ≥
        let mu = next_up_f64(1.0 / sigma);
        let c = Composition::new().with(Component::poisson(self.q, mu)?, self.steps)?;
        // one composition at the engine's grid (no refinement), or the exact closed form
        // at q = 1 (Composition::answer)
        let e = c
            .answer(Target::Delta(self.delta), f64::MAX, None)?
            .interval;
        Ok((
            e.upper,
            "certified PLD composition (Poisson, add/remove)".into(),
        ))
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

    fn epsilon_upper(&self, sigma: f64) -> Result<(f64, String)> {
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
            Some(e) => Ok((e, entry.id.as_str().to_string())),
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
        fn epsilon_upper(&self, sigma: f64) -> Result<(f64, String)> {
            let mu = Enclosure::from_f64(128, self.k) / Enclosure::from_f64(128, sigma);
            let d = Enclosure::from_f64(128, self.delta);
            let e = Gaussian::epsilon(&mu, &d, Precision::Bits(128))?;
            Ok((e.enclosure.upper_f64(), "GDP".into()))
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
            let mu_star = |s: f64| p.epsilon_upper(s).unwrap().0;
            assert!(mu_star(c.sigma) <= target && mu_star(c.sigma_below) > target);
        }
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
        assert!(p.epsilon_upper(c.sigma).unwrap().0 <= 2.0);
        assert!(p.epsilon_upper(c.sigma_below).unwrap().0 > 2.0);
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
