//! Exact (KKT) solver of the shift-schedule problem at a fixed start time τ, with
//! active nonnegativity constraints: one implementation, whose input is the problem kept
//! as runs of identical steps ([`RunProblem`]), generic over the precision.
//!
//! # Formula (derivation, see also ERRATA.md BSA1, BSA7, BSA8, BSA10, BSA11, SD5)
//! Write P_{k} = Π_{j=k+1}^{t} c_j (so P_t = 1), and with the start gap z_τ put
//!
//! ```text
//! X_k = Σ_{j=τ+1}^{k} ς_j² P_j²,        G_k = P_τ z_τ + Σ_{j=τ+1}^{k} s_j P_j .
//! ```
//!
//! The KKT conditions of min Σ a_k²/ς_k² s.t. z_k ≥ 0 (k < t), z_t = 0 say that
//! φ_k = a_k / (ς_k² P_k) is nondecreasing in k, constant between two consecutive
//! steps where z vanishes, and that the cumulative mass M_k = Σ_{j≤k} φ_j ς_j² P_j²
//! stays ≤ G_k with equality where φ changes and at k = t (P_k z_k = G_k − M_k).
//! Hence the curve (X_k, M_k) is the **greatest convex minorant** of the points
//! (0, 0), (X_{τ+1}, G_{τ+1}), …, (X_t, G_t): a lower convex hull, computed in O(t).
//! On a hull segment from vertex u to vertex v the shifts are
//! a_k = ς_k² P_k (G_v − G_u)/(X_v − X_u), the gaps vanish at the vertices, and
//!
//! ```text
//! μ² = Σ_segments (G_v − G_u)² / (X_v − X_u).
//! ```
//!
//! With no active constraint (one segment) this is μ² = G_t² / X_t; for NoisyGD with
//! τ = 0, z_0 = 0, constant c, s, ς it gives BSA24 Thm 4.2 with the square root over
//! *both* factors. Nonnegativity a_k ≥ 0 never binds (the hull slopes are ≥ 0
//! because every G_k ≥ 0).
//!
//! Steps whose weight P_k is below 2^{−(bits+64)} (bits = working precision) get the
//! shift a_k = 0 and are not part of the hull: this keeps f64 from underflowing at
//! t = 10⁶ and changes μ² by a relative amount below 2^{−2(bits+64)} · t.
//!
//! # Input and precision
//! The solver ([`solve_kkt_runs`]) reads the problem as runs (`len` consecutive steps
//! with the same (c_k, s_k, ς_k) over a table of values, [`super::runs`]), the form in
//! which a run of training states it: a constant setting is one run, NoisyCGD about
//! 2t/l runs, a schedule file as many runs as it has changes. A problem kept per step
//! ([`ScheduleProblem`]) is the case of runs of length one: [`solve_kkt`] converts it
//! ([`RunProblem::from_problem`], merging equal neighbours), solves, and collects the
//! regenerated rows into the vectors of a [`KktSolution`]. The precision is the type
//! `R` ([`ScheduleReal`]): `f64` for the τ search and the schedule of a run,
//! [`Enclosure`](crate::precision::Enclosure) (MPFR) where the optimum or its shifts are
//! wanted at more bits (the closed-form cross-checks, `schedule --bits`). Every step's
//! numbers depend only on its parameters and on the previous step's numbers, so how
//! the steps are grouped into runs never changes a result.
//!
//! # Passes
//! The solve is a sequence of passes over the steps, keeping O(runs + hull + t/4096)
//! numbers whatever t is:
//!
//! 1. the negligible prefix (weights P_k < 2^{−(bits+64)}) by a backward scan of a
//!    scaled `f64` product (mantissa and binary exponent apart, so no underflow);
//! 2. the gap through that prefix (z_k = c_k z_{k−1} + s_k, no shift), skipping the rest
//!    of a run at an exact fixed point ([`super::runs`]);
//! 3. the weights P_k = P_{k+1} c_{k+1} by one backward pass that keeps every 4096th
//!    value (a checkpoint), so that any block of weights is recomputed from its
//!    checkpoint with the same products;
//! 4. the points (X_k, G_k) and their lower convex hull (monotone chain) in one forward
//!    pass, keeping only the hull, and μ² from the hull's segments;
//! 5. the shifts, gaps and λ_k regenerated on demand ([`RunKkt::for_each_row`]) from
//!    the hull and the checkpoints, with the operations of pass 4.
//!
//! Certification ([`RunProblem::certify_kkt`]) streams the shifts of pass 5 through the
//! certification recursion of [`ScheduleProblem::certify`]. Every step evaluated is
//! charged to a [`WorkBudget`]; [`solve_kkt`] gives its solve an unlimited one.
//!
//! # References
//! * BSA24 Thm 3.3 (the problem), Thm 4.2 (its interior solution).
//! * Barlow, Bartholomew, Bremner, Brunk, *Statistical inference under order
//!   restrictions* (1972): greatest convex minorants and isotonic problems.
//! * Griewank & Walther, *Evaluating Derivatives* (2008), ch. 12 (checkpointing a
//!   reversed sweep).
use super::problem::{ScheduleProblem, ScheduleReal};
use super::runs::{RunProblem, WorkBudget, check_growth};
use crate::error::{Error, Result};
use std::cmp::Ordering;

/// Points per checkpoint block of the weights P_k.
const BLOCK: usize = 4096;

/// The KKT optimum of the schedule problem at a fixed τ.
#[derive(Debug, Clone)]
pub struct KktSolution<R> {
    /// Start time τ.
    pub tau: usize,
    /// The gap z_τ the schedule starts from.
    pub initial_gap: R,
    /// Shifts a_{τ+1}, …, a_t.
    pub shifts: Vec<R>,
    /// Gaps z_{τ+1}, …, z_t (z_t = 0).
    pub gaps: Vec<R>,
    /// Interpolation weights λ_{τ+1}, …, λ_t (λ_t = 1).
    pub lambda: Vec<R>,
    /// The optimal value μ² (at the working precision, not a certificate).
    pub mu2: R,
    /// Steps k < t where the constraint z_k ≥ 0 is active (hull vertices).
    pub active: Vec<usize>,
    /// Steps given a zero shift because their weight is negligible.
    pub negligible: usize,
}

impl<R: ScheduleReal> KktSolution<R> {
    /// μ = √(μ²).
    pub fn mu(&self) -> R {
        self.mu2.sqrt()
    }
    /// The shifts as `f64` (for certification).
    pub fn shifts_f64(&self) -> Vec<f64> {
        self.shifts.iter().map(|x| x.mid_f64()).collect()
    }
}

/// Binary exponent of `x` (floor(log2 |x|)) for a normal f64; very negative for 0.
fn exponent(x: f64) -> i64 {
    if x == 0.0 || !x.is_finite() {
        return if x == 0.0 { i64::MIN / 4 } else { i64::MAX / 4 };
    }
    let e = ((x.to_bits() >> 52) & 0x7ff) as i64;
    if e == 0 { -1075 } else { e - 1023 }
}

/// One vertex of the lower convex hull: point index i and (X_i, G_i).
#[derive(Debug, Clone)]
struct Vertex<R> {
    i: usize,
    x: R,
    g: R,
}

/// The KKT optimum of a [`RunProblem`] at a fixed τ ([`solve_kkt_runs`]): μ², the
/// active constraints, and what regenerates the schedule ([`RunKkt::for_each_row`]).
#[derive(Debug, Clone)]
pub struct RunKkt<R = f64> {
    /// Start time τ.
    pub tau: usize,
    /// The gap z_τ the schedule starts from.
    pub initial_gap: R,
    /// The optimal value μ² (at the working precision, not a certificate).
    pub mu2: R,
    /// Steps k < t where the constraint z_k ≥ 0 is active (hull vertices).
    pub active: Vec<usize>,
    /// Steps given a zero shift because their weight is negligible.
    pub negligible: usize,
    /// First step index of the hull part (start = τ + negligible).
    pub(super) start: usize,
    /// The gap after the negligible steps.
    z_start: R,
    hull: Vec<Vertex<R>>,
    /// P at points 0, BLOCK, 2·BLOCK, … ≤ m = t − start.
    checkpoints: Vec<R>,
}

/// Visits points i = 1..=m of the hull part (step index start + i − 1) with the weight
/// P_i and the step's value index; the weights are recomputed block by block from the
/// checkpoints with the products of the backward pass (P_m = `one`).
fn walk_points<R: ScheduleReal>(
    p: &RunProblem<R>,
    start: usize,
    m: usize,
    checkpoints: &[R],
    one: &R,
    mut f: impl FnMut(usize, &R, u32) -> Result<()>,
) -> Result<()> {
    if m == 0 {
        return Ok(());
    }
    let mut fwd = p.forward(start);
    let mut vals: Vec<u32> = Vec::with_capacity(BLOCK + 1);
    // the weights of a block, last point first
    let mut pws: Vec<R> = Vec::with_capacity(BLOCK);
    let mut carry = u32::MAX; // value of the first point of the block (read ahead)
    for j in 0..checkpoints.len() {
        let b0 = j * BLOCK;
        let e = (b0 + BLOCK).min(m + 1); // points [b0, e)
        vals.clear();
        vals.push(carry);
        for _ in b0 + 1..=e.min(m) {
            vals.push(fwd.next_value());
        }
        // P_{e−1} from P_e (a checkpoint) or P_m = 1, then backward
        let n = e - b0;
        let mut pw = if e - 1 == m {
            one.clone()
        } else {
            checkpoints[j + 1].clone() * p.value(vals[n]).c.clone()
        };
        pws.clear();
        for r in (0..n - 1).rev() {
            let next = pw.clone() * p.value(vals[r + 1]).c.clone();
            pws.push(std::mem::replace(&mut pw, next));
        }
        pws.push(pw);
        debug_assert!(pws[n - 1].identical(&checkpoints[j]));
        if e <= m {
            carry = vals[n];
        }
        for (r, pw) in pws.iter().rev().enumerate() {
            let i = b0 + r;
            if i > 0 {
                f(i, pw, vals[r])?;
            }
        }
    }
    Ok(())
}

/// Solves the schedule problem kept as runs at start time τ exactly from its KKT
/// conditions, at the precision of `R`, streaming over the steps.
///
/// # Formula
/// Greatest convex minorant of (0, 0), (X_k, G_k) and μ² = Σ (G_v − G_u)²/(X_v − X_u)
/// over its segments (module documentation, passes 1–4); O(t) time, O(runs + hull +
/// t/4096) memory. The schedule itself is regenerated by [`RunKkt::for_each_row`].
///
/// # Errors
/// [`Error::Parameter`] if τ ≥ t or the work budget is spent; [`Error::NotCertified`]
/// if μ² overflows; [`Error::MemoryLimit`] if the hull outgrows the memory limit.
///
/// # Example
/// ```
/// use shiftdp::schedules::kkt::solve_kkt_runs;
/// use shiftdp::schedules::runs::{RunProblem, WorkBudget};
/// // NoisyGD over 10⁸ steps, c = 0.9: μ² = (1−c^t)/(1+c^t)·(1+c)/(1−c) = 19 (BSA24 Thm 4.2)
/// let p = RunProblem::constant(100_000_000, 0.9_f64, 1.0, 1.0, None)?;
/// let sol = solve_kkt_runs(&p, 0, &mut WorkBudget::new(p.horizon()))?;
/// assert!((sol.mu2 - 19.0).abs() < 1e-12);
/// assert_eq!(sol.negligible, 100_000_000 - 770); // weights 0.9^{t−k} < 2⁻¹¹⁷: no shift
/// # Ok::<(), shiftdp::Error>(())
/// ```
///
/// # References
/// BSA24 Thm 3.3, Thm 4.2; Barlow et al. (1972).
pub fn solve_kkt_runs<R: ScheduleReal>(
    p: &RunProblem<R>,
    tau: usize,
    budget: &mut WorkBudget,
) -> Result<RunKkt<R>> {
    let t = p.horizon();
    let z0 = p.initial_gap(tau, budget)?;
    let thr = -(i64::from(z0.precision_bits()) + 64);
    let zero = z0.lit(0.0);
    let one = z0.lit(1.0);
    // 1. the first step that matters: P_k ≥ 2^thr for all k > start (scaled f64
    //    product, mantissa in [1,2) · 2^e)
    let mut start = tau;
    {
        let mut m = 1.0_f64;
        let mut e: i64 = 0;
        let mut back = p.backward(t);
        let mut work = 0;
        // (value index, c_k's mantissa factor, its exponent) of the last step: the same
        // numbers as recomputing them (a run repeats its c_k)
        let mut last: Option<(u32, f64, i64)> = None;
        for k in (tau + 1..=t).rev() {
            // here m·2^e = P_k
            if exponent(m) + e < thr {
                start = k;
                break;
            }
            let vi = back.next_value();
            let (f, ek) = match last {
                Some((v, f, ek)) if v == vi => (f, ek),
                _ => {
                    let ck = p.value(vi).c.mid_f64();
                    if ck == 0.0 {
                        // P_{k−1} = 0: all steps up to k − 1 are negligible
                        start = k - 1;
                        break;
                    }
                    // c_k's own exponent is taken out first (in two halves, so that even
                    // a subnormal c_k scales without overflow), so neither m nor e can
                    // leave its range
                    let ek = exponent(ck);
                    let half = -ek / 2;
                    let f = ck * pow2(half) * pow2(-ek - half);
                    last = Some((vi, f, ek));
                    (f, ek)
                }
            };
            m *= f;
            e += ek;
            let em = exponent(m);
            m *= pow2(-em);
            e += em;
            work += 1;
            if work == BLOCK {
                // the scan commits to three more passes over these steps: charge four
                budget.charge(4 * work)?;
                work = 0;
            }
        }
        budget.charge(4 * work)?;
    }
    // 2. the gap through the negligible steps (no shift)
    let z_start = p.gap_through(tau, start, z0.clone(), None, budget)?;
    // 3. checkpoints of the weights P_i = P_{i+1} c, i = 0..=m (P_m = 1), last first
    let m = t - start;
    let mut checkpoints = Vec::with_capacity(m / BLOCK + 1);
    {
        let mut pw = one.clone();
        if m.is_multiple_of(BLOCK) {
            checkpoints.push(one.clone());
        }
        let mut back = p.backward(t);
        for i in (0..m).rev() {
            pw = pw * p.value(back.next_value()).c.clone();
            if i.is_multiple_of(BLOCK) {
                checkpoints.push(pw.clone());
            }
        }
        checkpoints.reverse();
    }
    // 4–5. points (X_i, G_i) and their lower convex hull (monotone chain)
    let vertex_bytes = std::mem::size_of::<usize>() as u64 + 2 * z0.bytes();
    let mut hull: Vec<Vertex<R>> = Vec::with_capacity(64);
    hull.push(Vertex {
        i: 0,
        x: zero.clone(),
        g: zero.clone(),
    });
    let mut xacc = zero.clone();
    let mut gacc = checkpoints[0].clone() * z_start.clone();
    walk_points(p, start, m, &checkpoints, &one, |i, pw, vi| {
        let v = p.value(vi);
        xacc = xacc.clone() + v.noise.square() * pw.square();
        gacc = gacc.clone() + v.s.clone() * pw.clone();
        while hull.len() >= 2 {
            let (a, b) = (&hull[hull.len() - 2], &hull[hull.len() - 1]);
            let cross = (b.x.clone() - a.x.clone()) * (gacc.clone() - a.g.clone())
                - (b.g.clone() - a.g.clone()) * (xacc.clone() - a.x.clone());
            if cross.cmp_mid(&zero) == Ordering::Greater {
                break;
            }
            hull.pop();
        }
        check_growth(
            "the convex hull of the schedule",
            hull.len(),
            hull.capacity(),
            vertex_bytes,
        )?;
        hull.push(Vertex {
            i,
            x: xacc.clone(),
            g: gacc.clone(),
        });
        Ok(())
    })?;
    // 6. μ² = Σ (G_v − G_u)²/(X_v − X_u) over the segments, and the active constraints
    let mut mu2 = zero;
    let mut active = Vec::new();
    for w in hull.windows(2) {
        let (u, v) = (&w[0], &w[1]);
        let dg = v.g.clone() - u.g.clone();
        let dx = v.x.clone() - u.x.clone();
        mu2 = mu2 + dg.square() / dx;
        if v.i < m {
            active.push(start + v.i);
        }
    }
    if !mu2.upper_f64().is_finite() {
        return Err(kkt_overflow());
    }
    Ok(RunKkt {
        tau,
        initial_gap: z0,
        mu2,
        active,
        negligible: start - tau,
        start,
        z_start,
        hull,
        checkpoints,
    })
}

/// 2ⁿ as `f64`: `2f64.powi(n)` (the same number), built from its bits when it is a
/// normal number.
#[inline]
fn pow2(n: i64) -> f64 {
    if (-1022..=1023).contains(&n) {
        f64::from_bits(((n + 1023) as u64) << 52)
    } else {
        2f64.powi(n as i32)
    }
}

fn kkt_overflow() -> Error {
    Error::NotCertified {
        what: "KKT schedule".into(),
        reason: "overflow at this precision (contraction products too large); use more bits".into(),
    }
}

impl<R: ScheduleReal> RunKkt<R> {
    /// The rows (k, a_k, λ_k, z_k), k = τ+1..t, of the schedule in order, regenerated
    /// (module documentation, pass 5) without keeping them: a_k = λ_k = 0 on the
    /// negligible steps, a_k = ς_k² P_k (G_v − G_u)/(X_v − X_u) on the hull segment
    /// u → v, z_k = (G_k − M_k)/P_k, λ_k = a_k/(c_k z_{k−1} + s_k) (λ_t = 1). O(t − τ)
    /// time, O(4096) memory. `p` must be the problem solved.
    ///
    /// # Errors
    /// [`Error::Parameter`] for another problem or a spent budget;
    /// [`Error::NotCertified`] for a non-finite shift; any error of `f`.
    pub fn for_each_row(
        &self,
        p: &RunProblem<R>,
        budget: &mut WorkBudget,
        mut f: impl FnMut(usize, R, R, R) -> Result<()>,
    ) -> Result<()> {
        // the negligible steps: a_k = λ_k = 0, z_k = c_k z_{k−1} + s_k (no skipping)
        let zero = self.initial_gap.lit(0.0);
        let mut z = self.initial_gap.clone();
        let mut k = self.tau;
        for (vi, len) in p.runs_between(self.tau, self.start) {
            let v = p.value(vi);
            for _ in 0..len {
                z = v.c.clone() * z + v.s.clone();
                k += 1;
                f(k, zero.clone(), zero.clone(), z.clone())?;
            }
            budget.charge(len)?;
        }
        self.for_each_shift(p, budget, |k, a, lam, z, _| f(k, a, lam, z))
    }

    /// The steps of the hull part, k = start+1..t: (k, a_k, λ_k, z_k, value index).
    pub(super) fn for_each_shift(
        &self,
        p: &RunProblem<R>,
        budget: &mut WorkBudget,
        mut f: impl FnMut(usize, R, R, R, u32) -> Result<()>,
    ) -> Result<()> {
        let t = p.horizon();
        if self.start > t || self.checkpoints.len() != (t - self.start) / BLOCK + 1 {
            return Err(Error::param(
                "schedule",
                t,
                "not the problem this KKT solution was solved for",
            ));
        }
        let m = t - self.start;
        let zero = self.initial_gap.lit(0.0);
        let one = self.initial_gap.lit(1.0);
        let hull = &self.hull;
        let mut h = 0; // current segment: hull[h] → hull[h + 1]
        let mut slope = zero.clone();
        let mut fresh = true;
        let mut z = self.z_start.clone();
        let mut xacc = zero.clone();
        let mut gacc = self.checkpoints[0].clone() * self.z_start.clone();
        walk_points(p, self.start, m, &self.checkpoints, &one, |i, pw, vi| {
            let v = p.value(vi);
            xacc = xacc.clone() + v.noise.square() * pw.square();
            gacc = gacc.clone() + v.s.clone() * pw.clone();
            while i > hull[h + 1].i {
                h += 1;
                fresh = true;
            }
            let (u, w) = (&hull[h], &hull[h + 1]);
            if fresh {
                slope = (w.g.clone() - u.g.clone()) / (w.x.clone() - u.x.clone());
                fresh = false;
            }
            let ak = slope.clone() * v.noise.square() * pw.clone();
            if !ak.upper_f64().is_finite() {
                return Err(kkt_overflow());
            }
            let pre = v.c.clone() * z.clone() + v.s.clone();
            let zk = if i == w.i {
                zero.clone()
            } else {
                let mk = u.g.clone() + slope.clone() * (xacc.clone() - u.x.clone());
                (gacc.clone() - mk) / pw.clone()
            };
            // λ = 1 at k = t and where c_k z_{k−1} + s_k ≤ 0 (or NaN)
            let lam = if i == m || pre.cmp_mid(&zero) != Ordering::Greater {
                one.clone()
            } else {
                ak.clone() / pre
            };
            z = zk.clone();
            f(self.start + i, ak, lam, zk, vi)
        })?;
        budget.charge(m)
    }

    /// μ = √(μ²).
    pub fn mu(&self) -> R {
        self.mu2.sqrt()
    }
}

/// Solves the schedule problem kept per step at start time τ exactly from its KKT
/// conditions: [`solve_kkt_runs`] of the problem as runs, its rows collected.
///
/// # Formula
/// Greatest convex minorant of (0,0), (X_k, G_k) — see the module documentation.
/// O(t) time and memory (six values per step: the problem as runs and the shifts, gaps
/// and λ; [`solve_kkt_runs`] keeps O(runs + hull + t/4096)).
///
/// # Errors
/// [`Error::Parameter`] if τ ≥ t; [`Error::NotCertified`] if the computation
/// overflows (e.g. contractions c_k > 1 over a long horizon in `f64`);
/// [`Error::MemoryLimit`].
///
/// # Example
/// ```
/// use shiftdp::schedules::{ScheduleProblem, kkt::solve_kkt};
/// // NoisyGD, c = 0.5, t = 3, s = ς = 1: μ² = (1−c³)/(1+c³)·(1+c)/(1−c) = 7/3
/// let p = ScheduleProblem::constant(3, 0.5_f64, 1.0, 1.0, None).unwrap();
/// let sol = solve_kkt(&p, 0).unwrap();
/// assert!((sol.mu2 - 7.0 / 3.0).abs() < 1e-14);
/// ```
///
/// # References
/// BSA24 Thm 3.3, Thm 4.2.
pub fn solve_kkt<R: ScheduleReal>(p: &ScheduleProblem<R>, tau: usize) -> Result<KktSolution<R>> {
    let t = p.horizon();
    let z0 = p.initial_gap(tau)?;
    crate::memory::check(
        "the KKT schedule kept per step",
        crate::memory::bytes_of(t as u64, 6 * z0.bytes() + 24),
    )?;
    let q = RunProblem::from_problem(p)?;
    let mut budget = WorkBudget::with_limit(t, u64::MAX);
    let sol = solve_kkt_runs(&q, tau, &mut budget)?;
    let n = t - tau;
    let (mut shifts, mut lambda, mut gaps) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    sol.for_each_row(&q, &mut budget, |_, a, l, z| {
        shifts.push(a);
        lambda.push(l);
        gaps.push(z);
        Ok(())
    })?;
    Ok(KktSolution {
        tau,
        initial_gap: sol.initial_gap,
        shifts,
        gaps,
        lambda,
        mu2: sol.mu2,
        active: sol.active,
        negligible: sol.negligible,
    })
}
