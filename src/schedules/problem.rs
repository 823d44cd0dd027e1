//! The shift-schedule problem of SPEC §4 as a validated type, and the evaluation and
//! certification of any schedule.
//!
//! Steps k = τ+1, …, t have contraction c_k, sensitivity s_k and noise standard
//! deviation ς_k. A schedule is a vector of shifts a_k ≥ 0 with
//!
//! ```text
//! z_k = c_k z_{k−1} + s_k − a_k ≥ 0   (k < t),      z_t = 0,
//! ```
//!
//! and it certifies T(X_t, X′_t) ≥ G(μ) with μ² = Σ_k (a_k/ς_k)² (BSA24 Thm 3.3,
//! with per-step parameters). The interpolation weights of BSA24 (3.5) are
//! λ_k = a_k / (c_k z_{k−1} + s_k) ∈ [0, 1], λ_t = 1.
//!
//! # References
//! * BSA24: Bok, Su, Altschuler, *Shifted interpolation for differential privacy*,
//!   2024, Lemma 3.2, Thm 3.3.
//! * SPEC §4 (the one optimization problem behind the shifted-interpolation theorems).
use crate::error::{Error, Result};
use crate::precision::rounding as rd;
use crate::precision::{Enclosure, Real};
use rug::Float;
use std::cmp::Ordering;

/// The numbers the schedule solvers run on: [`Real`] plus an ordering of estimates, the
/// working precision and a conversion to an enclosure.
///
/// Implemented for `f64` (estimate) and [`Enclosure`] (certified MPFR interval). The
/// comparisons are *decisions of a solver* (on midpoints), never part of a
/// certificate: any schedule the solver returns is re-certified by
/// [`ScheduleProblem::certify`].
pub trait ScheduleReal: Real {
    /// Bits of mantissa of this value (53 for `f64`).
    fn precision_bits(&self) -> u32;
    /// Ordering of the midpoints (estimates) of `self` and `o`.
    fn cmp_mid(&self, o: &Self) -> Ordering;
    /// The midpoint as an `f64`.
    fn mid_f64(&self) -> f64;
    /// An enclosure of this value at `bits` bits (exact for `f64` when `bits ≥ 53`).
    fn to_enclosure(&self, bits: u32) -> Enclosure;
}

impl ScheduleReal for f64 {
    fn precision_bits(&self) -> u32 {
        53
    }
    fn cmp_mid(&self, o: &Self) -> Ordering {
        self.partial_cmp(o).unwrap_or(Ordering::Equal)
    }
    fn mid_f64(&self) -> f64 {
        *self
    }
    fn to_enclosure(&self, bits: u32) -> Enclosure {
        Enclosure::from_f64(bits, *self)
    }
}

impl ScheduleReal for Enclosure {
    fn precision_bits(&self) -> u32 {
        self.prec()
    }
    fn cmp_mid(&self, o: &Self) -> Ordering {
        self.mid().partial_cmp(&o.mid()).unwrap_or(Ordering::Equal)
    }
    fn mid_f64(&self) -> f64 {
        Enclosure::mid_f64(self)
    }
    fn to_enclosure(&self, bits: u32) -> Enclosure {
        match Enclosure::new(
            Float::with_val_round(bits, self.lo(), rug::float::Round::Down).0,
            Float::with_val_round(bits, self.hi(), rug::float::Round::Up).0,
        ) {
            Some(e) => e,
            None => Enclosure::everything(bits),
        }
    }
}

/// A shift-schedule problem over the horizon k = 1, …, t (SPEC §4).
///
/// Holds per-step contraction c_k ≥ 0, sensitivity s_k ≥ 0, noise standard deviation
/// ς_k > 0 and an optional diameter D of the constraint set. The start time τ is
/// chosen per solve; the gap at τ is [`ScheduleProblem::initial_gap`].
///
/// # Formula
/// μ² = Σ_{k=τ+1}^{t} (a_k/ς_k)² subject to z_k = c_k z_{k−1} + s_k − a_k ≥ 0 (k < t),
/// z_t = 0, a_k ≥ 0 (BSA24 Thm 3.3 with per-step parameters).
///
/// # Errors
/// [`ScheduleProblem::new`] rejects empty or mismatched vectors and values outside
/// c_k ∈ [0, ∞), s_k ∈ [0, ∞), ς_k ∈ (0, ∞), D ∈ (0, ∞) (all finite).
///
/// # Example
/// ```
/// use shiftdp::schedules::ScheduleProblem;
/// let p = ScheduleProblem::constant(10, 0.5_f64, 1.0, 1.0, None).unwrap();
/// assert_eq!(p.horizon(), 10);
/// // composition schedule a_k = s_k (z stays 0) has μ² = t s²/ς² = 10
/// let e = p.evaluate(0, &vec![1.0; 10]).unwrap();
/// assert!(e.feasible && (e.mu2 - 10.0).abs() < 1e-12);
/// ```
///
/// # References
/// BSA24 Thm 3.3; SPEC §4.
#[derive(Debug, Clone)]
pub struct ScheduleProblem<R> {
    c: Vec<R>,
    s: Vec<R>,
    noise: Vec<R>,
    diameter: Option<R>,
    fixed_gap: Option<R>,
}

fn check_nonneg<R: ScheduleReal>(name: &str, k: usize, x: &R, positive: bool) -> Result<()> {
    let lo = x.lower_f64();
    let hi = x.upper_f64();
    let ok = lo.is_finite() && hi.is_finite() && if positive { lo > 0.0 } else { lo >= 0.0 };
    if ok {
        Ok(())
    } else {
        Err(Error::param(
            &format!("{name}[{k}]"),
            format!("{x:?}"),
            if positive {
                "must be finite and > 0"
            } else {
                "must be finite and ≥ 0"
            },
        ))
    }
}

impl<R: ScheduleReal> ScheduleProblem<R> {
    /// A problem from per-step vectors (index 0 is step k = 1).
    ///
    /// # Errors
    /// [`Error::Parameter`] for an empty horizon, vectors of different lengths, or a
    /// value outside its domain (see the type's documentation).
    pub fn new(c: Vec<R>, s: Vec<R>, noise: Vec<R>, diameter: Option<R>) -> Result<Self> {
        let t = c.len();
        if t == 0 {
            return Err(Error::param("steps", 0, "need at least one step"));
        }
        if s.len() != t || noise.len() != t {
            return Err(Error::param(
                "schedule lengths",
                format!("c:{} s:{} noise:{}", t, s.len(), noise.len()),
                "per-step vectors must have the same length",
            ));
        }
        for k in 0..t {
            check_nonneg("contraction", k + 1, &c[k], false)?;
            check_nonneg("sensitivity", k + 1, &s[k], false)?;
            check_nonneg("noise", k + 1, &noise[k], true)?;
        }
        if let Some(d) = &diameter {
            check_nonneg("diameter", 0, d, true)?;
        }
        Ok(ScheduleProblem {
            c,
            s,
            noise,
            diameter,
            fixed_gap: None,
        })
    }

    /// A problem with the same c, s, ς at every one of `t` steps.
    ///
    /// # Errors
    /// As [`ScheduleProblem::new`].
    pub fn constant(t: usize, c: R, s: R, noise: R, diameter: Option<R>) -> Result<Self> {
        Self::new(vec![c; t], vec![s; t], vec![noise; t], diameter)
    }

    /// The horizon t.
    pub fn horizon(&self) -> usize {
        self.c.len()
    }
    /// Contractions c_1, …, c_t.
    pub fn contraction(&self) -> &[R] {
        &self.c
    }
    /// Sensitivities s_1, …, s_t.
    pub fn sensitivity(&self) -> &[R] {
        &self.s
    }
    /// Noise standard deviations ς_1, …, ς_t.
    pub fn noise(&self) -> &[R] {
        &self.noise
    }
    /// The diameter D, if the iterates are constrained.
    pub fn diameter(&self) -> Option<&R> {
        self.diameter.as_ref()
    }

    /// The same problem with another diameter.
    pub fn with_diameter(mut self, d: Option<R>) -> Result<Self> {
        if let Some(x) = &d {
            check_nonneg("diameter", 0, x, true)?;
        }
        self.diameter = d;
        Ok(self)
    }

    /// The same problem with the gap z_τ = `gap` for every τ ≥ 1 (instead of the
    /// unshifted recursion), as in BSA24's proofs under a constraint (z_τ = D).
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `gap` is finite and ≥ 0.
    pub fn with_fixed_gap(mut self, gap: Option<R>) -> Result<Self> {
        if let Some(x) = &gap {
            check_nonneg("gap", 0, x, false)?;
        }
        self.fixed_gap = gap;
        Ok(self)
    }

    /// The gap z_τ the shifted process starts from at time τ.
    ///
    /// # Formula
    /// z_0 = 0 (identical starts) and z_k = min(D, c_k z_{k−1} + s_k) for k ≤ τ
    /// (no shift before τ: the two runs are coupled with the same noise, so their
    /// distance obeys the unshifted recursion, and both stay in a set of diameter D),
    /// unless a fixed gap was set ([`ScheduleProblem::with_fixed_gap`]).
    /// Without a constraint the min is dropped. Under a constraint this is never more
    /// than the z_τ = D of BSA24's proofs, so it is at least as tight.
    ///
    /// # Errors
    /// [`Error::Parameter`] if τ ≥ t.
    pub fn initial_gap(&self, tau: usize) -> Result<R> {
        self.check_tau(tau)?;
        let mut z = self.c[0].lit(0.0);
        if let (Some(g), true) = (&self.fixed_gap, tau >= 1) {
            return Ok(g.clone());
        }
        for k in 0..tau {
            z = self.c[k].clone() * z + self.s[k].clone();
            if let Some(d) = &self.diameter {
                z = z.min_r(d);
            }
        }
        Ok(z)
    }

    pub(crate) fn check_tau(&self, tau: usize) -> Result<()> {
        if tau >= self.horizon() {
            Err(Error::param(
                "tau",
                tau,
                &format!("must be < t = {}", self.horizon()),
            ))
        } else {
            Ok(())
        }
    }

    /// An `f64` copy (midpoints) for the numerical solvers.
    pub fn to_mid_f64(&self) -> ScheduleProblem<f64> {
        let m = |v: &[R]| v.iter().map(|x| x.mid_f64()).collect::<Vec<_>>();
        ScheduleProblem {
            c: m(&self.c),
            s: m(&self.s),
            noise: m(&self.noise),
            diameter: self.diameter.as_ref().map(|d| d.mid_f64()),
            fixed_gap: self.fixed_gap.as_ref().map(|d| d.upper_f64()),
        }
    }

    /// Evaluates the shifts `a` (a_k for k = τ+1..t, length t − τ) in `f64`.
    ///
    /// # Formula
    /// z_k = c_k z_{k−1} + s_k − a_k from z_τ = [`ScheduleProblem::initial_gap`];
    /// λ_k = a_k/(c_k z_{k−1} + s_k); μ² = Σ (a_k/ς_k)². Feasible iff a_k ≥ 0,
    /// z_k ≥ 0 for k < t and z_t = 0, each up to `1e-9` relative to the scale
    /// max(z_τ, Σ s_k).
    ///
    /// # Errors
    /// [`Error::Parameter`] for τ ≥ t, a wrong length, or a non-finite shift.
    pub fn evaluate(&self, tau: usize, a: &[f64]) -> Result<Evaluation> {
        self.check_tau(tau)?;
        let p = self.to_mid_f64();
        let n = p.horizon() - tau;
        if a.len() != n {
            return Err(Error::param(
                "shifts",
                a.len(),
                &format!("need t − τ = {n} shifts"),
            ));
        }
        if let Some(x) = a.iter().find(|x| !x.is_finite()) {
            return Err(Error::param("shifts", x, "must be finite"));
        }
        let z0 = p.initial_gap(tau)?;
        let scale = z0
            .max(p.s[tau..].iter().sum::<f64>())
            .max(f64::MIN_POSITIVE);
        let tol = 1e-9 * scale;
        let mut z = z0;
        let mut zs = Vec::with_capacity(n);
        let mut lambda = Vec::with_capacity(n);
        let mut mu2 = 0.0;
        let mut violation: f64 = 0.0;
        for (i, &ak) in a.iter().enumerate() {
            let k = tau + i;
            let pre = p.c[k] * z + p.s[k];
            lambda.push(if pre > 0.0 { ak / pre } else { 1.0 });
            z = pre - ak;
            violation = violation.max(-ak);
            if i + 1 < n {
                violation = violation.max(-z);
            } else {
                violation = violation.max(z.abs());
            }
            zs.push(z);
            mu2 += (ak / p.noise[k]).powi(2);
        }
        Ok(Evaluation {
            tau,
            mu2,
            z: zs,
            lambda,
            max_violation: violation,
            feasible: violation <= tol,
        })
    }

    /// Certifies the shifts `a` (an `f64` proposal for k = τ+1..t) with directed
    /// rounding at `bits` bits and returns an upper bound on μ.
    ///
    /// # Formula
    /// Forward in k with enclosures of c_k, s_k, ς_k: for k < t the shift used is
    /// a′_k = min(max(a_k, 0), lower(c_k z_{k−1} + s_k)) so that λ_k ∈ [0, 1] for every
    /// value in the enclosures, and the gap bound is z_k = upper(c_k z_{k−1} + s_k − a′_k)
    /// ≥ 0; the last shift is a′_t = upper(c_t z_{t−1} + s_t) (λ_t = 1, z_t = 0).
    /// μ² ≤ Σ upper(a′_k² / lower(ς_k)²). The gap z_τ is recomputed rounding up.
    ///
    /// # Rounding
    /// Gap bounds z_k and a′_t are rounded up (a larger distance bound is still a bound
    /// in BSA24 Thm 3.3, and a larger final shift only increases μ); shifts for k < t
    /// are capped using the lower end (so λ_k ≤ 1 really holds); μ² and μ rounded up.
    /// Solver error therefore changes only the tightness of μ, never its validity.
    ///
    /// # Errors
    /// [`Error::Parameter`] for τ ≥ t or a wrong length; [`Error::Precision`] for bad
    /// `bits`; [`Error::NotCertified`] if an enclosure is not finite.
    pub fn certify(&self, tau: usize, a: &[f64], bits: u32) -> Result<Certificate> {
        Enclosure::check_bits(bits)?;
        self.check_tau(tau)?;
        let t = self.horizon();
        if a.len() != t - tau {
            return Err(Error::param(
                "shifts",
                a.len(),
                &format!("need t − τ = {} shifts", t - tau),
            ));
        }
        let prec = bits;
        // z_τ rounded up
        let mut z = Float::new(prec);
        let fixed = match (&self.fixed_gap, tau >= 1) {
            (Some(g), true) => {
                z = g.to_enclosure(prec).hi().clone();
                0
            }
            _ => tau,
        };
        for k in 0..fixed {
            let c = self.c[k].to_enclosure(prec);
            let s = self.s[k].to_enclosure(prec);
            let zk = rd::add_up(prec, &rd::mul_up(prec, c.hi(), &z), s.hi());
            z = match self.diameter.as_ref().map(|d| d.to_enclosure(prec)) {
                Some(d) if d.hi() < &zk => d.hi().clone(),
                _ => zk,
            };
        }
        let mut mu2 = Float::new(prec);
        let mut shifts = Vec::with_capacity(t - tau);
        let mut gaps = Vec::with_capacity(t - tau);
        for (i, &ak) in a.iter().enumerate() {
            let k = tau + i;
            let c = self.c[k].to_enclosure(prec);
            let s = self.s[k].to_enclosure(prec);
            let g = self.noise[k].to_enclosure(prec);
            let pre_hi = rd::add_up(prec, &rd::mul_up(prec, c.hi(), &z), s.hi());
            let a_used = if k + 1 < t {
                let pre_lo = rd::add_down(prec, &rd::mul_down(prec, c.lo(), &z), s.lo());
                let mut x = Float::with_val(prec, if ak.is_finite() { ak.max(0.0) } else { 0.0 });
                if x > pre_lo {
                    x = pre_lo;
                }
                if x.is_sign_negative() {
                    x = Float::new(prec);
                }
                let zk = rd::sub_up(prec, &pre_hi, &x);
                z = if zk.is_sign_negative() {
                    Float::new(prec)
                } else {
                    zk
                };
                x
            } else {
                z = Float::new(prec);
                pre_hi
            };
            let term = rd::div_up(
                prec,
                &rd::mul_up(prec, &a_used, &a_used),
                &rd::mul_down(prec, g.lo(), g.lo()),
            );
            mu2 = rd::add_up(prec, &mu2, &term);
            gaps.push(z.clone());
            shifts.push(a_used);
        }
        let mu = rd::sqrt_up(prec, &mu2);
        if !mu.is_finite() {
            return Err(Error::NotCertified {
                what: "schedule μ".into(),
                reason: "non-finite enclosure (inputs too large for the precision)".into(),
            });
        }
        Ok(Certificate {
            tau,
            bits,
            mu_upper: mu,
            mu2_upper: mu2,
            shifts,
            gaps,
        })
    }
}

/// The `f64` evaluation of a schedule (an estimate; see [`Certificate`] for bounds).
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// Start time τ.
    pub tau: usize,
    /// μ² = Σ (a_k/ς_k)².
    pub mu2: f64,
    /// z_{τ+1}, …, z_t.
    pub z: Vec<f64>,
    /// λ_{τ+1}, …, λ_t.
    pub lambda: Vec<f64>,
    /// The largest violation of a_k ≥ 0, z_k ≥ 0 (k < t), |z_t| = 0.
    pub max_violation: f64,
    /// Whether every constraint holds up to the tolerance.
    pub feasible: bool,
}

impl Evaluation {
    /// μ = √(μ²).
    pub fn mu(&self) -> f64 {
        self.mu2.sqrt()
    }
}

/// A certified schedule: the shifts actually used and the upper bound on μ.
#[derive(Debug, Clone)]
pub struct Certificate {
    /// Start time τ.
    pub tau: usize,
    /// MPFR precision used.
    pub bits: u32,
    /// Upper bound on μ (rounded up).
    pub mu_upper: Float,
    /// Upper bound on μ² (rounded up).
    pub mu2_upper: Float,
    /// The shifts a′_{τ+1}, …, a′_t actually certified.
    pub shifts: Vec<Float>,
    /// Upper bounds z_{τ+1}, …, z_t on the gaps (z_t = 0).
    pub gaps: Vec<Float>,
}

impl Certificate {
    /// μ as an `f64` rounded up.
    pub fn mu_upper_f64(&self) -> f64 {
        rd::to_f64_up(&self.mu_upper)
    }
}
