//! The shift-schedule problem of docs/conventions.md §4 as a validated type, and the
//! evaluation and certification of any schedule.
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
//! * docs/conventions.md §4 (the one optimization problem behind the shifted-interpolation
//!   theorems).
use crate::error::{Error, Result};
use crate::memory;
use crate::precision::rounding as rd;
use crate::precision::{Enclosure, Real};
use rug::Assign;
use rug::Float;
use rug::float::Round;
use rug::ops::{AddAssignRound, AssignRound, DivAssignRound};
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
    /// Whether `self` and `o` are the same representation (`f64`: the same bits;
    /// [`Enclosure`]: the same ends, signs of zero and precision), so that every
    /// deterministic computation gives the same result on both. Used to detect an exact
    /// fixed point of a recursion (then every later step is known without computing
    /// it), never as a mathematical comparison.
    fn identical(&self, o: &Self) -> bool;
    /// Bytes one value occupies, heap included (for [`crate::memory`] estimates; an
    /// upper bound: MPFR limbs plus the allocator's header).
    fn bytes(&self) -> u64;
}

/// Whether two MPFR numbers are the same representation: precision, value and sign.
pub(crate) fn same_float(a: &Float, b: &Float) -> bool {
    a.prec() == b.prec()
        && (a == b || a.is_nan() && b.is_nan())
        && a.is_sign_negative() == b.is_sign_negative()
}

/// Heap bytes of one MPFR number of `prec` bits: its limbs and a 16-byte allocator
/// header, rounded up.
pub(crate) fn float_heap_bytes(prec: u32) -> u64 {
    (u64::from(prec).div_ceil(64)) * 8 + 16
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
    fn identical(&self, o: &Self) -> bool {
        self.to_bits() == o.to_bits()
    }
    fn bytes(&self) -> u64 {
        8
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
    fn identical(&self, o: &Self) -> bool {
        same_float(self.lo(), o.lo()) && same_float(self.hi(), o.hi())
    }
    fn bytes(&self) -> u64 {
        std::mem::size_of::<Enclosure>() as u64 + self.heap_bytes()
    }
}

/// A shift-schedule problem over the horizon k = 1, …, t (docs/conventions.md §4).
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
/// BSA24 Thm 3.3; docs/conventions.md §4.
#[derive(Debug, Clone)]
pub struct ScheduleProblem<R> {
    c: Vec<R>,
    s: Vec<R>,
    noise: Vec<R>,
    diameter: Option<R>,
    fixed_gap: Option<R>,
}

pub(crate) fn check_nonneg<R: ScheduleReal>(
    name: &str,
    k: usize,
    x: &R,
    positive: bool,
) -> Result<()> {
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
        Self::check_memory(t, &c)?;
        Self::new(vec![c; t], vec![s; t], vec![noise; t], diameter)
    }

    /// Refuses ([`Error::MemoryLimit`]) a materialized problem of `t` steps whose values
    /// are like `x`: three values per step (c_k, s_k, ς_k) and as many again for what
    /// a solver keeps per step ([`crate::schedules::kkt::solve_kkt`] keeps six: the
    /// problem as runs and the shifts, gaps and λ).
    ///
    /// # Formula
    /// needed = 9 · t · bytes(x) (see [`ScheduleReal::bytes`]).
    ///
    /// # Errors
    /// [`Error::MemoryLimit`] above the limit of [`crate::memory`].
    pub fn check_memory(t: usize, x: &R) -> Result<()> {
        memory::check(
            &format!(
                "a schedule problem of {t} steps kept per step (use the run-length \
                 schedules::runs for constant or piecewise-constant settings)"
            ),
            memory::bytes_of(t as u64, 9 * x.bytes()),
        )
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

    /// The fixed gap z_τ (τ ≥ 1), if set ([`ScheduleProblem::with_fixed_gap`]).
    pub fn fixed_gap(&self) -> Option<&R> {
        self.fixed_gap.as_ref()
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
        memory::check(
            "the certified shifts and gaps of every step",
            memory::bytes_of((t - tau) as u64, 2 * (64 + float_heap_bytes(bits))),
        )?;
        let mut cert = Certifier::new(bits);
        // z_τ rounded up
        match (&self.fixed_gap, tau >= 1) {
            (Some(g), true) => cert.set_gap(g),
            _ => {
                let d = self
                    .diameter
                    .as_ref()
                    .map(|d| d.to_enclosure(bits).hi().clone());
                for k in 0..tau {
                    cert.load(k, &self.c[k], &self.s[k], &self.noise[k]);
                    cert.unshifted(d.as_ref());
                }
            }
        }
        let mut shifts = Vec::with_capacity(t - tau);
        let mut gaps = Vec::with_capacity(t - tau);
        for (i, &ak) in a.iter().enumerate() {
            let k = tau + i;
            cert.load(k, &self.c[k], &self.s[k], &self.noise[k]);
            cert.step(ak, k + 1 == t);
            gaps.push(cert.gap().clone());
            shifts.push(cert.shift().clone());
        }
        let (mu, mu2) = cert.finish()?;
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

/// The certification recursion of [`ScheduleProblem::certify`], one step at a time, so
/// that a problem kept per step and one kept as runs
/// ([`crate::schedules::runs::RunProblem`]) are certified by the same code with the
/// same roundings (their certificates are identical).
///
/// # Formula and rounding
/// As [`ScheduleProblem::certify`]: gap bounds z_k, the last shift and μ² rounded up,
/// shifts k < t capped at the lower end of c_k z_{k−1} + s_k. Every operation is one
/// MPFR operation rounded in the stated direction into a number of `bits` bits (in
/// place: no allocation per step).
///
/// # Fixed points
/// A step with no shift (before τ, or a negligible step with a_k = 0) maps the gap bound
/// z ↦ min(D, ↑(↑(c_hi z) + s_hi)) — a deterministic function of z and of the step's
/// parameters. If one such step leaves z unchanged (the same MPFR number), so does every
/// later step with the same parameters: [`Certifier::unshifted`] and
/// [`Certifier::zero_step`] report it, and the caller may skip the rest of a run of
/// identical steps with no change to the certificate.
#[derive(Debug)]
pub(crate) struct Certifier {
    prec: u32,
    z: Float,
    mu2: Float,
    pre_hi: Float,
    pre_lo: Float,
    x: Float,
    term: Float,
    key: Option<usize>,
    c_lo: Float,
    c_hi: Float,
    s_lo: Float,
    s_hi: Float,
    g2_lo: Float,
}

impl Certifier {
    /// A recursion at `prec` bits starting from z = 0, μ² = 0.
    pub(crate) fn new(prec: u32) -> Certifier {
        let f = || Float::new(prec);
        Certifier {
            prec,
            z: f(),
            mu2: f(),
            pre_hi: f(),
            pre_lo: f(),
            x: f(),
            term: f(),
            key: None,
            c_lo: f(),
            c_hi: f(),
            s_lo: f(),
            s_hi: f(),
            g2_lo: f(),
        }
    }

    /// Starts from the gap z_τ = upper end of `g` at the working precision.
    pub(crate) fn set_gap<R: ScheduleReal>(&mut self, g: &R) {
        self.z = g.to_enclosure(self.prec).hi().clone();
    }

    /// Sets the gap bound to `z` (a gap this recursion had before).
    pub(crate) fn set_gap_float(&mut self, z: &Float) {
        self.z.assign(z);
    }

    /// The parameters of the next step(s); `key` identifies them (a step index or a run
    /// value index): loading the same key again costs nothing.
    pub(crate) fn load<R: ScheduleReal>(&mut self, key: usize, c: &R, s: &R, g: &R) {
        if self.key == Some(key) {
            return;
        }
        let prec = self.prec;
        let c = c.to_enclosure(prec);
        let s = s.to_enclosure(prec);
        let g = g.to_enclosure(prec);
        self.c_lo = c.lo().clone();
        self.c_hi = c.hi().clone();
        self.s_lo = s.lo().clone();
        self.s_hi = s.hi().clone();
        self.g2_lo = rd::mul_down(prec, g.lo(), g.lo());
        self.key = Some(key);
    }

    /// ↑(↑(c_hi z) + s_hi) into `pre_hi`.
    fn pre_hi(&mut self) {
        self.pre_hi.assign_round(&self.c_hi * &self.z, Round::Up);
        self.pre_hi.add_assign_round(&self.s_hi, Round::Up);
    }

    /// One step before τ (no shift): z = min(D_hi, ↑(↑(c_hi z) + s_hi)). Returns whether
    /// z changed (see the type's documentation).
    pub(crate) fn unshifted(&mut self, d_hi: Option<&Float>) -> bool {
        self.pre_hi();
        if let Some(d) = d_hi
            && d < &self.pre_hi
        {
            self.pre_hi.assign(d);
        }
        let changed = !same_float(&self.pre_hi, &self.z);
        std::mem::swap(&mut self.z, &mut self.pre_hi);
        changed
    }

    /// One step k < t with the shift a_k = 0 (a negligible step): the same as
    /// [`Certifier::step`] with `a = 0.0`, which leaves μ² and the cap unchanged, so
    /// z = ↑(↑(c_hi z) + s_hi). Returns whether z changed.
    pub(crate) fn zero_step(&mut self) -> bool {
        self.pre_hi();
        let changed = !same_float(&self.pre_hi, &self.z);
        std::mem::swap(&mut self.z, &mut self.pre_hi);
        self.x.assign(0u32);
        changed
    }

    /// One step with the proposed shift `a` (`last`: k = t).
    pub(crate) fn step(&mut self, a: f64, last: bool) {
        let prec = self.prec;
        self.pre_hi();
        if !last {
            self.pre_lo.assign_round(&self.c_lo * &self.z, Round::Down);
            self.pre_lo.add_assign_round(&self.s_lo, Round::Down);
            self.x.assign(if a.is_finite() { a.max(0.0) } else { 0.0 });
            if self.x > self.pre_lo {
                self.x.assign(&self.pre_lo);
            }
            if self.x.is_sign_negative() {
                self.x = Float::new(prec);
            }
            self.z.assign_round(&self.pre_hi - &self.x, Round::Up);
            if self.z.is_sign_negative() {
                self.z = Float::new(prec);
            }
        } else {
            self.z = Float::new(prec);
            self.x.assign(&self.pre_hi);
        }
        self.term.assign_round(&self.x * &self.x, Round::Up);
        self.term.div_assign_round(&self.g2_lo, Round::Up);
        self.mu2.add_assign_round(&self.term, Round::Up);
    }

    /// The gap bound after the last step.
    pub(crate) fn gap(&self) -> &Float {
        &self.z
    }

    /// The shift used at the last step.
    pub(crate) fn shift(&self) -> &Float {
        &self.x
    }

    /// (μ upper, μ² upper).
    ///
    /// # Errors
    /// [`Error::NotCertified`] if μ is not finite.
    pub(crate) fn finish(self) -> Result<(Float, Float)> {
        let mu = rd::sqrt_up(self.prec, &self.mu2);
        if !mu.is_finite() {
            return Err(Error::NotCertified {
                what: "schedule μ".into(),
                reason: "non-finite enclosure (inputs too large for the precision)".into(),
            });
        }
        Ok((mu, self.mu2))
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `certify` as written before the certification recursion moved into
    /// [`Certifier`] (a fresh MPFR number for every operation): the reference the
    /// in-place recursion must reproduce bit for bit.
    fn certify_reference<R: ScheduleReal>(
        p: &ScheduleProblem<R>,
        tau: usize,
        a: &[f64],
        prec: u32,
    ) -> (Float, Vec<Float>, Vec<Float>) {
        let t = p.horizon();
        let mut z = Float::new(prec);
        let fixed = match (&p.fixed_gap, tau >= 1) {
            (Some(g), true) => {
                z = g.to_enclosure(prec).hi().clone();
                0
            }
            _ => tau,
        };
        for k in 0..fixed {
            let c = p.c[k].to_enclosure(prec);
            let s = p.s[k].to_enclosure(prec);
            let zk = rd::add_up(prec, &rd::mul_up(prec, c.hi(), &z), s.hi());
            z = match p.diameter.as_ref().map(|d| d.to_enclosure(prec)) {
                Some(d) if d.hi() < &zk => d.hi().clone(),
                _ => zk,
            };
        }
        let mut mu2 = Float::new(prec);
        let (mut shifts, mut gaps) = (Vec::new(), Vec::new());
        for (i, &ak) in a.iter().enumerate() {
            let k = tau + i;
            let c = p.c[k].to_enclosure(prec);
            let s = p.s[k].to_enclosure(prec);
            let g = p.noise[k].to_enclosure(prec);
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
        (mu2, shifts, gaps)
    }

    /// A random problem with decimal (non-binary) enclosures, a random τ and random
    /// proposed shifts (negative, too large, NaN included).
    #[allow(clippy::type_complexity)]
    fn case() -> impl Strategy<Value = (ScheduleProblem<Enclosure>, usize, Vec<f64>, u32)> {
        (1usize..30)
            .prop_flat_map(|t| {
                let dec = |lo: u32, hi: u32| (lo..hi).prop_map(|n| format!("{}e-3", n));
                (
                    proptest::collection::vec(dec(0, 1100), t),
                    proptest::collection::vec(prop_oneof![Just("0".to_string()), dec(0, 3000)], t),
                    proptest::collection::vec(dec(50, 3000), t),
                    proptest::option::of(dec(10, 5000)),
                    proptest::option::of(dec(0, 5000)),
                    0..t,
                    proptest::collection::vec(
                        prop_oneof![-1.0f64..3.0, Just(f64::NAN), Just(1e300), Just(-0.0)],
                        t,
                    ),
                    64u32..200,
                )
            })
            .prop_map(|(c, s, g, d, gap, tau, a, bits)| {
                let e = |x: &String| Enclosure::parse(96, x).unwrap();
                let v = |x: &[String]| x.iter().map(e).collect::<Vec<_>>();
                let p = ScheduleProblem::new(v(&c), v(&s), v(&g), d.as_ref().map(e))
                    .unwrap()
                    .with_fixed_gap(gap.as_ref().map(e))
                    .unwrap();
                let n = p.horizon() - tau;
                (p, tau, a[..n].to_vec(), bits)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// The certification recursion (in place, shared with the run-length path) gives
        /// the same MPFR numbers as the reference: μ², every shift used and every gap.
        #[test]
        fn certifier_matches_the_reference((p, tau, a, bits) in case()) {
            let (mu2, shifts, gaps) = certify_reference(&p, tau, &a, bits);
            let cert = p.certify(tau, &a, bits).unwrap();
            prop_assert!(same_float(&cert.mu2_upper, &mu2), "{:?} vs {:?}", cert.mu2_upper, mu2);
            prop_assert_eq!(cert.shifts.len(), shifts.len());
            for (x, y) in cert.shifts.iter().zip(&shifts).chain(cert.gaps.iter().zip(&gaps)) {
                prop_assert!(same_float(x, y), "{:?} vs {:?}", x, y);
            }
        }
    }
}
