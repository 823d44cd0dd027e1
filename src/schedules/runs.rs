//! Schedule problems kept as runs of identical steps, and what streams over them: the
//! gap recursions with no shift, the certificate of a KKT schedule and the τ search —
//! O(t) time and O(runs + hull + t/4096) memory instead of several MPFR values per step,
//! for the 10⁷–10⁸-step runs of real training.
//!
//! # Representation
//! A [`RunProblem`] is a list of *runs* — `len` consecutive steps with the same
//! (c_k, s_k, ς_k) — over a table of distinct values. A constant setting is one run;
//! NoisyCGD is two values (the differing record's batch or not) in about 2t/l runs; a
//! per-step schedule file is as many runs as it has changes. [`RunProblem::expand`] gives
//! the same problem kept per step ([`ScheduleProblem`]), [`RunProblem::from_problem`]
//! the runs of a problem kept per step. It is the input of the KKT solver
//! ([`solve_kkt_runs`], [`super::kkt`]).
//!
//! Certification ([`RunProblem::certify_kkt`]) streams the shifts the solver regenerates
//! through the certification recursion of [`ScheduleProblem::certify`] (the same code,
//! in place at `bits` bits): the certified μ is the same number as certifying the
//! per-step vector of shifts.
//!
//! # Fixed points
//! Before τ and on the negligible prefix no shift is applied, and the gap follows a
//! deterministic map of the previous gap and the step's parameters. Once one step of a
//! run leaves the gap unchanged (the same `f64` or MPFR number), every later step of
//! that run does too, and the rest of the run is skipped — exactly, not approximately.
//! For a contraction c < 1 this happens after about (bits·ln 2)/(1 − c) steps, so a
//! NoisyGD run with c = 0.9 costs a few thousand steps of work whatever t is.
//!
//! # Memory and work
//! Memory: the runs, the hull (one vertex per active constraint, at most one per run
//! when c ≤ 1 on every run) and t/4096 checkpoints; the hull and the run table are
//! checked against [`crate::memory`] as they grow. Work: every step evaluated is charged
//! to a [`WorkBudget`] of [`WORK_LIMIT`] step evaluations per request, and the
//! computation refuses with a message naming the limit beyond it (e.g. t = 10¹⁰ with
//! c = 1: every step matters and none can be skipped) — never an allocation abort or a
//! computation running for hours.
//!
//! # References
//! BSA24 Thm 3.3 (the problem); docs/conventions.md §4.
use super::kkt::{RunKkt, solve_kkt_runs};
use super::problem::{Certifier, ScheduleProblem, ScheduleReal, check_nonneg, same_float};
use crate::error::{Error, Result};
use crate::memory;
use crate::precision::Enclosure;
use crate::precision::rounding as rd;
use rug::Float;

/// Step evaluations allowed per request (all solves, the τ search and the certificate
/// together): 10⁹, a few tens of seconds at most.
pub const WORK_LIMIT: u64 = 1_000_000_000;

/// Step evaluations left for one request; [`WorkBudget::charge`] refuses beyond.
#[derive(Debug, Clone)]
pub struct WorkBudget {
    left: u64,
    limit: u64,
    steps: usize,
}

impl WorkBudget {
    /// [`WORK_LIMIT`] step evaluations for a problem of `steps` steps (named in the
    /// refusal).
    pub fn new(steps: usize) -> WorkBudget {
        WorkBudget::with_limit(steps, WORK_LIMIT)
    }

    /// A budget of `limit` step evaluations.
    pub fn with_limit(steps: usize, limit: u64) -> WorkBudget {
        WorkBudget {
            left: limit,
            limit,
            steps,
        }
    }

    /// Takes `n` step evaluations from the budget.
    ///
    /// # Errors
    /// [`Error::Parameter`] (`steps`) once the budget is spent.
    #[inline]
    pub fn charge(&mut self, n: usize) -> Result<()> {
        let n = n as u64;
        if n > self.left {
            self.left = 0;
            return Err(Error::param(
                "steps",
                self.steps,
                &format!(
                    "the optimal schedule needs more than {:.0e} step evaluations (work limit of \
                     shiftdp::schedules::runs::WORK_LIMIT): every step has a non-negligible weight \
                     (contraction close to or above 1) or the τ search is long; give fewer steps, \
                     the split τ, or use the closed-form bounds of the run",
                    self.limit as f64
                ),
            ));
        }
        self.left -= n;
        Ok(())
    }
}

/// The parameters of one step: contraction c, sensitivity s, noise standard deviation ς.
#[derive(Debug, Clone)]
pub struct StepValues<R> {
    /// Contraction c_k ≥ 0.
    pub c: R,
    /// Sensitivity s_k ≥ 0.
    pub s: R,
    /// Noise standard deviation ς_k > 0.
    pub noise: R,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    len: usize,
    value: u32,
}

/// A schedule problem (docs/conventions.md §4, [`ScheduleProblem`]) kept as runs of
/// identical steps.
///
/// # Example
/// ```
/// use shiftdp::schedules::ScheduleProblem;
/// use shiftdp::schedules::runs::RunProblem;
/// let p = ScheduleProblem::new(vec![0.5, 0.9, 0.9], vec![1.0, 2.0, 2.0], vec![1.0; 3], None)?;
/// let r = RunProblem::from_problem(&p)?;
/// // (c, s, ς) = (0.5, 1, 1) once, then (0.9, 2, 1) twice
/// assert_eq!(r.runs().map(|(len, v)| (len, v.c)).collect::<Vec<_>>(), [(1, 0.5), (2, 0.9)]);
/// assert_eq!(r.expand()?.contraction(), p.contraction());
/// # Ok::<(), shiftdp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct RunProblem<R> {
    values: Vec<StepValues<R>>,
    runs: Vec<Run>,
    /// First step index (0-based) of each run.
    starts: Vec<usize>,
    t: usize,
    diameter: Option<R>,
    fixed_gap: Option<R>,
}

/// Builds a [`RunProblem`] run by run: [`RunBuilder::value`] validates and stores a
/// distinct (c, s, ς), [`RunBuilder::push`] appends `len` steps of a stored value
/// (merged with the previous run when it is the same value).
#[derive(Debug)]
pub struct RunBuilder<R> {
    values: Vec<StepValues<R>>,
    runs: Vec<Run>,
    t: usize,
}

impl<R: ScheduleReal> Default for RunBuilder<R> {
    fn default() -> Self {
        RunBuilder {
            values: Vec::new(),
            runs: Vec::new(),
            t: 0,
        }
    }
}

/// Refuses the growth of a table past the memory limit (checked when a vector of
/// `len` ≥ 2¹⁶ entries of `each` bytes is about to double).
pub(super) fn check_growth(what: &str, len: usize, cap: usize, each: u64) -> Result<()> {
    if len == cap && len >= 1 << 16 {
        memory::check(what, memory::bytes_of(2 * len as u64, each))?;
    }
    Ok(())
}

impl<R: ScheduleReal> RunBuilder<R> {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores the step parameters (c, s, ς) and returns their index.
    ///
    /// # Errors
    /// [`Error::Parameter`] for a value outside c ∈ [0, ∞), s ∈ [0, ∞), ς ∈ (0, ∞)
    /// (named with the next step, the first to use it); [`Error::MemoryLimit`].
    pub fn value(&mut self, c: R, s: R, noise: R) -> Result<u32> {
        let k = self.t + 1;
        check_nonneg("contraction", k, &c, false)?;
        check_nonneg("sensitivity", k, &s, false)?;
        check_nonneg("noise", k, &noise, true)?;
        let each = c.bytes() + s.bytes() + noise.bytes();
        check_growth(
            "the table of step values",
            self.values.len(),
            self.values.capacity(),
            each,
        )?;
        let idx = u32::try_from(self.values.len())
            .map_err(|_| Error::param("schedule", k, "more than 2³² distinct step values"))?;
        self.values.push(StepValues { c, s, noise });
        Ok(idx)
    }

    /// Appends `len` steps with the parameters stored at `value`.
    ///
    /// # Errors
    /// [`Error::Parameter`] for an unknown value or a horizon beyond `usize`;
    /// [`Error::MemoryLimit`].
    pub fn push(&mut self, len: usize, value: u32) -> Result<()> {
        if value as usize >= self.values.len() {
            return Err(Error::param("schedule value", value, "not stored"));
        }
        if len == 0 {
            return Ok(());
        }
        self.t = self
            .t
            .checked_add(len)
            .ok_or_else(|| Error::param("steps", "overflow", "too many steps for this machine"))?;
        match self.runs.last_mut() {
            Some(r) if r.value == value => r.len += len,
            _ => {
                check_growth(
                    "the runs of the schedule",
                    self.runs.len(),
                    self.runs.capacity(),
                    2 * std::mem::size_of::<Run>() as u64,
                )?;
                self.runs.push(Run { len, value });
            }
        }
        Ok(())
    }

    /// Steps appended so far.
    pub fn steps(&self) -> usize {
        self.t
    }

    /// The problem, with an optional diameter D.
    ///
    /// # Errors
    /// [`Error::Parameter`] for no steps or a diameter that is not finite and > 0.
    pub fn finish(self, diameter: Option<R>) -> Result<RunProblem<R>> {
        if self.t == 0 {
            return Err(Error::param("steps", 0, "need at least one step"));
        }
        if let Some(d) = &diameter {
            check_nonneg("diameter", 0, d, true)?;
        }
        let mut starts = Vec::with_capacity(self.runs.len());
        let mut k = 0;
        for r in &self.runs {
            starts.push(k);
            k += r.len;
        }
        Ok(RunProblem {
            values: self.values,
            runs: self.runs,
            starts,
            t: self.t,
            diameter,
            fixed_gap: None,
        })
    }
}

/// Forward iterator over step indices k0, k0+1, … yielding each step's value index.
pub(super) struct Forward<'a> {
    runs: &'a [Run],
    run: usize,
    left: usize,
}

impl Forward<'_> {
    #[inline]
    pub(super) fn next_value(&mut self) -> u32 {
        while self.left == 0 {
            self.run += 1;
            self.left = self.runs[self.run].len;
        }
        self.left -= 1;
        self.runs[self.run].value
    }
}

/// Backward iterator over step indices k0 − 1, k0 − 2, … yielding value indices.
pub(super) struct Backward<'a> {
    runs: &'a [Run],
    run: usize,
    left: usize,
}

impl Backward<'_> {
    #[inline]
    pub(super) fn next_value(&mut self) -> u32 {
        while self.left == 0 {
            self.run -= 1;
            self.left = self.runs[self.run].len;
        }
        self.left -= 1;
        self.runs[self.run].value
    }
}

impl<R: ScheduleReal> RunProblem<R> {
    /// The same (c, s, ς) at each of `t` steps (one run).
    ///
    /// # Errors
    /// As [`RunBuilder`].
    pub fn constant(t: usize, c: R, s: R, noise: R, diameter: Option<R>) -> Result<Self> {
        let mut b = RunBuilder::new();
        let v = b.value(c, s, noise)?;
        b.push(t, v)?;
        b.finish(diameter)
    }

    /// The runs of a problem kept per step (consecutive [identical](ScheduleReal::identical)
    /// steps merged), with its diameter and fixed gap.
    ///
    /// # Errors
    /// As [`RunBuilder`].
    pub fn from_problem(p: &ScheduleProblem<R>) -> Result<Self> {
        let (c, s, g) = (p.contraction(), p.sensitivity(), p.noise());
        let mut b = RunBuilder::new();
        let mut k = 0;
        while k < p.horizon() {
            let mut e = k + 1;
            while e < p.horizon()
                && c[e].identical(&c[k])
                && s[e].identical(&s[k])
                && g[e].identical(&g[k])
            {
                e += 1;
            }
            let v = b.value(c[k].clone(), s[k].clone(), g[k].clone())?;
            b.push(e - k, v)?;
            k = e;
        }
        b.finish(p.diameter().cloned())?
            .with_fixed_gap(p.fixed_gap().cloned())
    }

    /// The horizon t.
    pub fn horizon(&self) -> usize {
        self.t
    }
    /// Number of runs.
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }
    /// The runs in order: (length, parameters).
    pub fn runs(&self) -> impl Iterator<Item = (usize, &StepValues<R>)> {
        self.runs
            .iter()
            .map(|r| (r.len, &self.values[r.value as usize]))
    }
    /// The parameters stored at value index `index`.
    #[inline]
    pub(super) fn value(&self, index: u32) -> &StepValues<R> {
        &self.values[index as usize]
    }
    /// The diameter D, if the iterates are constrained.
    pub fn diameter(&self) -> Option<&R> {
        self.diameter.as_ref()
    }
    /// The fixed gap z_τ (τ ≥ 1), if set.
    pub fn fixed_gap(&self) -> Option<&R> {
        self.fixed_gap.as_ref()
    }

    /// The same problem with the gap z_τ = `gap` for every τ ≥ 1
    /// ([`ScheduleProblem::with_fixed_gap`]).
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

    fn check_tau(&self, tau: usize) -> Result<()> {
        if tau >= self.t {
            Err(Error::param(
                "tau",
                tau,
                &format!("must be < t = {}", self.t),
            ))
        } else {
            Ok(())
        }
    }

    /// Index of the run holding step index `k` (0-based, k < t).
    fn run_of(&self, k: usize) -> usize {
        self.starts.partition_point(|&s| s <= k) - 1
    }

    /// Value indices of steps k0, k0+1, … (k0 < t).
    pub(super) fn forward(&self, k0: usize) -> Forward<'_> {
        let run = self.run_of(k0);
        Forward {
            runs: &self.runs,
            run,
            left: self.starts[run] + self.runs[run].len - k0,
        }
    }

    /// Value indices of steps k0 − 1, k0 − 2, … (1 ≤ k0 ≤ t).
    pub(super) fn backward(&self, k0: usize) -> Backward<'_> {
        let run = self.run_of(k0 - 1);
        Backward {
            runs: &self.runs,
            run,
            left: k0 - self.starts[run],
        }
    }

    /// Runs clipped to the step indices [from, to): (value index, length).
    pub(super) fn runs_between(
        &self,
        from: usize,
        to: usize,
    ) -> impl Iterator<Item = (u32, usize)> + '_ {
        let first = if from < to {
            self.run_of(from)
        } else {
            self.runs.len()
        };
        self.runs[first..]
            .iter()
            .zip(&self.starts[first..])
            .take_while(move |(_, s)| **s < to)
            .map(move |(r, &s)| (r.value, (s + r.len).min(to) - s.max(from)))
    }

    /// Midpoints as `f64` (the same runs and value indices; the fixed gap by its upper
    /// end), as [`ScheduleProblem::to_mid_f64`].
    pub fn to_mid_f64(&self) -> RunProblem<f64> {
        RunProblem {
            values: self
                .values
                .iter()
                .map(|v| StepValues {
                    c: v.c.mid_f64(),
                    s: v.s.mid_f64(),
                    noise: v.noise.mid_f64(),
                })
                .collect(),
            runs: self.runs.clone(),
            starts: self.starts.clone(),
            t: self.t,
            diameter: self.diameter.as_ref().map(|d| d.mid_f64()),
            fixed_gap: self.fixed_gap.as_ref().map(|d| d.upper_f64()),
        }
    }

    /// The problem kept per step.
    ///
    /// # Errors
    /// [`Error::MemoryLimit`] ([`ScheduleProblem::check_memory`]).
    pub fn expand(&self) -> Result<ScheduleProblem<R>> {
        ScheduleProblem::<R>::check_memory(self.t, &self.values[0].c)?;
        let (mut c, mut s, mut g) = (
            Vec::with_capacity(self.t),
            Vec::with_capacity(self.t),
            Vec::with_capacity(self.t),
        );
        for (len, v) in self.runs() {
            for _ in 0..len {
                c.push(v.c.clone());
                s.push(v.s.clone());
                g.push(v.noise.clone());
            }
        }
        ScheduleProblem::new(c, s, g, self.diameter.clone())?.with_fixed_gap(self.fixed_gap.clone())
    }

    /// The steps after τ kept per step, as a problem whose start time τ′ gives the same
    /// schedule problem: τ′ = 0 and the whole problem when τ = 0, else τ′ = 1, one
    /// placeholder step (c = s = 0, ς = 1) and the fixed gap z_τ =
    /// [`RunProblem::initial_gap`] (the same number the whole problem starts from).
    ///
    /// # Errors
    /// As [`RunProblem::initial_gap`] and [`RunProblem::expand`].
    pub fn suffix(
        &self,
        tau: usize,
        budget: &mut WorkBudget,
    ) -> Result<(ScheduleProblem<R>, usize)> {
        if tau == 0 {
            return Ok((self.expand()?, 0));
        }
        let z = self.initial_gap(tau, budget)?;
        let n = self.t - tau + 1;
        ScheduleProblem::<R>::check_memory(n, &z)?;
        let (mut c, mut s, mut g) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        c.push(z.lit(0.0));
        s.push(z.lit(0.0));
        g.push(z.lit(1.0));
        for (vi, len) in self.runs_between(tau, self.t) {
            let v = &self.values[vi as usize];
            for _ in 0..len {
                c.push(v.c.clone());
                s.push(v.s.clone());
                g.push(v.noise.clone());
            }
        }
        let p = ScheduleProblem::new(c, s, g, self.diameter.clone())?.with_fixed_gap(Some(z))?;
        Ok((p, 1))
    }

    /// The gap z_τ the shifted process starts from: [`ScheduleProblem::initial_gap`]
    /// (z_k = min(D, c_k z_{k−1} + s_k) from z_0 = 0, or the fixed gap), the same
    /// operations, skipping the rest of a run at an exact fixed point.
    ///
    /// # Errors
    /// [`Error::Parameter`] if τ ≥ t or the work budget is spent.
    pub fn initial_gap(&self, tau: usize, budget: &mut WorkBudget) -> Result<R> {
        self.check_tau(tau)?;
        let z = self.values[self.runs[0].value as usize].c.lit(0.0);
        if let (Some(g), true) = (&self.fixed_gap, tau >= 1) {
            return Ok(g.clone());
        }
        self.gap_through(0, tau, z, self.diameter.as_ref(), budget)
    }

    /// The gap z_k = c_k z_{k−1} + s_k (capped at `diameter`: min(D, ·)) over the step
    /// indices [from, to) from `z`, with no shift, skipping what an exact fixed point
    /// determines ([`RunProblem::drive`]).
    pub(super) fn gap_through(
        &self,
        from: usize,
        to: usize,
        z: R,
        diameter: Option<&R>,
        budget: &mut WorkBudget,
    ) -> Result<R> {
        let mut x = Gap {
            values: &self.values,
            diameter,
            z,
        };
        self.drive(from, to, &mut x, budget)?;
        Ok(x.z)
    }

    /// Runs a shift-free recursion `x` over the step indices [from, to), skipping what
    /// an exact fixed point determines: the rest of a run once a step leaves the gap
    /// unchanged, and every further pair of runs once the runs repeat with period two
    /// (NoisyCGD's record batch and the others) and the gap before a run equals the gap
    /// two runs earlier. Both are exact: the gap after a step is a deterministic
    /// function of the gap before it and the step's parameters, so a repeated state
    /// with repeated parameters repeats its whole future.
    fn drive<X: ShiftFree>(
        &self,
        from: usize,
        to: usize,
        x: &mut X,
        budget: &mut WorkBudget,
    ) -> Result<()> {
        if from >= to {
            return Ok(());
        }
        let (r0, r1) = (self.run_of(from), self.run_of(to - 1));
        let seg = |r: usize| {
            let run = self.runs[r];
            let s = self.starts[r];
            (run.value, (s + run.len).min(to) - s.max(from))
        };
        // gaps before the last two runs, at index r % 2
        let mut before: [Option<X::Gap>; 2] = [None, None];
        let mut r = r0;
        while r <= r1 {
            let (v, len) = seg(r);
            if r >= r0 + 2
                && seg(r - 2) == (v, len)
                && before[r % 2].as_ref().is_some_and(|g| X::same(g, x.gap()))
            {
                let mut j = r + 1;
                while j <= r1 && seg(j) == seg(j - 2) {
                    j += 1;
                }
                // the gap before run j is the gap before run r or r − 1 (same parity)
                if (j - r) % 2 == 1
                    && let Some(g) = &before[(r - 1) % 2]
                {
                    x.set_gap(g);
                }
                budget.charge(j - r)?;
                r = j;
                continue;
            }
            match &mut before[r % 2] {
                Some(g) => g.clone_from(x.gap()),
                slot => *slot = Some(x.gap().clone()),
            }
            let mut done = 0;
            while done < len {
                done += 1;
                if !x.step(v) {
                    break;
                }
            }
            budget.charge(done)?;
            r += 1;
        }
        Ok(())
    }
}

/// A recursion over steps with no shift: the gap after a step is a deterministic
/// function of the gap before it and of the step's parameters (its value index).
trait ShiftFree {
    type Gap: Clone;
    /// One step with the parameters stored at `value`; false if the gap is unchanged.
    fn step(&mut self, value: u32) -> bool;
    /// The current gap.
    fn gap(&self) -> &Self::Gap;
    /// Sets the gap.
    fn set_gap(&mut self, g: &Self::Gap);
    /// Whether two gaps are the same representation.
    fn same(a: &Self::Gap, b: &Self::Gap) -> bool;
}

/// The gap recursion z ↦ c z + s with no shift, capped at the diameter when one is
/// given (before τ: [`ScheduleProblem::initial_gap`]; on the negligible steps: none).
struct Gap<'a, R> {
    values: &'a [StepValues<R>],
    diameter: Option<&'a R>,
    z: R,
}

impl<R: ScheduleReal> ShiftFree for Gap<'_, R> {
    type Gap = R;
    #[inline]
    fn step(&mut self, value: u32) -> bool {
        let v = &self.values[value as usize];
        let mut nz = v.c.clone() * self.z.clone() + v.s.clone();
        if let Some(d) = self.diameter {
            nz = nz.min_r(d);
        }
        let changed = !nz.identical(&self.z);
        self.z = nz;
        changed
    }
    fn gap(&self) -> &R {
        &self.z
    }
    fn set_gap(&mut self, g: &R) {
        self.z = g.clone();
    }
    fn same(a: &R, b: &R) -> bool {
        a.identical(b)
    }
}

/// The certification recursion on steps with no shift: before τ (`unshifted`, with the
/// diameter's upper end) or on negligible steps (`zero_step`).
struct CertGap<'a, R> {
    cert: &'a mut Certifier,
    values: &'a [StepValues<R>],
    diameter: Option<Float>,
    before_tau: bool,
}

impl<R: ScheduleReal> ShiftFree for CertGap<'_, R> {
    type Gap = Float;
    fn step(&mut self, value: u32) -> bool {
        let v = &self.values[value as usize];
        self.cert.load(value as usize, &v.c, &v.s, &v.noise);
        if self.before_tau {
            self.cert.unshifted(self.diameter.as_ref())
        } else {
            self.cert.zero_step()
        }
    }
    fn gap(&self) -> &Float {
        self.cert.gap()
    }
    fn set_gap(&mut self, g: &Float) {
        self.cert.set_gap_float(g);
    }
    fn same(a: &Float, b: &Float) -> bool {
        same_float(a, b)
    }
}

/// A certified schedule of a [`RunProblem`]: the upper bound on μ (the shifts are not
/// kept; [`RunKkt::for_each_row`] regenerates them).
#[derive(Debug, Clone)]
pub struct RunCertificate {
    /// Start time τ.
    pub tau: usize,
    /// MPFR precision used.
    pub bits: u32,
    /// Upper bound on μ (rounded up).
    pub mu_upper: Float,
    /// Upper bound on μ² (rounded up).
    pub mu2_upper: Float,
}

impl RunCertificate {
    /// μ as an `f64` rounded up.
    pub fn mu_upper_f64(&self) -> f64 {
        rd::to_f64_up(&self.mu_upper)
    }
}

impl<R: ScheduleReal> RunProblem<R> {
    /// Certifies the KKT schedule `sol` of `q` = [`RunProblem::to_mid_f64`] of this
    /// problem with directed rounding at `bits` bits, streaming its shifts.
    ///
    /// # Formula
    /// [`ScheduleProblem::certify`] of the shifts (zero on the negligible steps): the
    /// same recursion (the same code), so the same μ upper bound as certifying the
    /// per-step shifts; runs of shift-free steps end at an exact fixed point of the gap
    /// bound (module documentation).
    ///
    /// # Errors
    /// [`Error::Parameter`] if `q` has other runs or τ ≥ t, or the budget is spent;
    /// [`Error::Precision`] for bad `bits`; [`Error::NotCertified`] if μ is not finite
    /// or a shift overflows.
    pub fn certify_kkt(
        &self,
        q: &RunProblem<f64>,
        sol: &RunKkt,
        bits: u32,
        budget: &mut WorkBudget,
    ) -> Result<RunCertificate> {
        Enclosure::check_bits(bits)?;
        let tau = sol.tau;
        self.check_tau(tau)?;
        if q.runs != self.runs || q.values.len() != self.values.len() {
            return Err(Error::param(
                "schedule",
                self.t,
                "the f64 problem is not this problem's midpoints",
            ));
        }
        let t = self.t;
        let mut cert = Certifier::new(bits);
        match (&self.fixed_gap, tau >= 1) {
            (Some(g), true) => cert.set_gap(g),
            _ => {
                let diameter = self
                    .diameter
                    .as_ref()
                    .map(|d| d.to_enclosure(bits).hi().clone());
                let mut x = CertGap {
                    cert: &mut cert,
                    values: &self.values,
                    diameter,
                    before_tau: true,
                };
                self.drive(0, tau, &mut x, budget)?;
            }
        }
        // the negligible steps: a_k = 0 (never the last step: start < t)
        let mut x = CertGap {
            cert: &mut cert,
            values: &self.values,
            diameter: None,
            before_tau: false,
        };
        self.drive(tau, sol.start, &mut x, budget)?;
        sol.for_each_shift(q, budget, |k, a, _, _, vi| {
            let v = &self.values[vi as usize];
            cert.load(vi as usize, &v.c, &v.s, &v.noise);
            cert.step(a, k == t);
            Ok(())
        })?;
        let (mu, mu2) = cert.finish()?;
        Ok(RunCertificate {
            tau,
            bits,
            mu_upper: mu,
            mu2_upper: mu2,
        })
    }
}

/// Finds the τ with the smallest KKT optimum μ over the problem kept as runs: the
/// candidates of [`super::tau::search_tau`] (the same search), each solved by
/// [`solve_kkt_runs`]. Returns the optimum at the best τ and the profile (τ, μ).
///
/// # Errors
/// As [`solve_kkt_runs`].
pub fn search_tau_runs(
    p: &RunProblem<f64>,
    search: super::tau::TauSearch,
    budget: &mut WorkBudget,
) -> Result<(RunKkt, Vec<(usize, f64)>)> {
    let (best, profile) =
        super::tau::search_with(p.horizon(), p.diameter().is_some(), search, |tau| {
            Ok(solve_kkt_runs(p, tau, budget)?.mu2.sqrt())
        })?;
    Ok((solve_kkt_runs(p, best, budget)?, profile))
}
