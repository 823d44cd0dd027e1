//! Exact (KKT) solver of the shift-schedule problem at a fixed start time τ, with
//! active nonnegativity constraints, generic over the precision.
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
//! # References
//! * BSA24 Thm 3.3 (the problem), Thm 4.2 (its interior solution).
//! * Barlow, Bartholomew, Bremner, Brunk, *Statistical inference under order
//!   restrictions* (1972): greatest convex minorants and isotonic problems.
use super::problem::{ScheduleProblem, ScheduleReal};
use crate::error::{Error, Result};
use std::cmp::Ordering;

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
pub(crate) fn exponent(x: f64) -> i64 {
    if x == 0.0 || !x.is_finite() {
        return if x == 0.0 { i64::MIN / 4 } else { i64::MAX / 4 };
    }
    let e = ((x.to_bits() >> 52) & 0x7ff) as i64;
    if e == 0 { -1075 } else { e - 1023 }
}

/// Solves the schedule problem at start time τ exactly from its KKT conditions.
///
/// # Formula
/// Greatest convex minorant of (0,0), (X_k, G_k) — see the module documentation.
/// O(t) time and memory (several values per step; a constant or piecewise-constant
/// problem is solved with the same numbers in O(runs) memory by
/// [`super::runs::solve_kkt_runs`]).
///
/// # Errors
/// [`Error::Parameter`] if τ ≥ t; [`Error::NotCertified`] if the computation
/// overflows (e.g. contractions c_k > 1 over a long horizon in `f64`).
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
    // six values per step (weights, X, G, shifts, gaps, λ)
    crate::memory::check(
        "the KKT schedule kept per step",
        crate::memory::bytes_of((t - tau) as u64, 6 * z0.bytes() + 8),
    )?;
    let c = p.contraction();
    let s = p.sensitivity();
    let g = p.noise();
    let bits = z0.precision_bits() as i64;
    let thr = -(bits + 64);
    let zero = z0.lit(0.0);
    let one = z0.lit(1.0);

    // 1. find the first step that matters: P_k ≥ 2^thr for all k > start
    //    (scaled f64 product, mantissa in [1,2) · 2^e)
    let mut start = tau;
    {
        let mut m = 1.0_f64;
        let mut e: i64 = 0;
        for k in (tau + 1..=t).rev() {
            // here m·2^e = P_k
            if exponent(m) + e < thr {
                start = k;
                break;
            }
            let ck = c[k - 1].mid_f64();
            if ck == 0.0 {
                // P_{k−1} = 0: all steps up to k − 1 are negligible
                start = k - 1;
                break;
            }
            // multiply mantissas and add exponents: c_k's own exponent is taken out first
            // (in two halves, so that even a subnormal c_k scales without overflow), so
            // neither m nor e can leave its range (a subnormal c_k once overflowed here)
            let ek = exponent(ck);
            let half = -ek / 2;
            m *= ck * 2f64.powi(half as i32) * 2f64.powi((-ek - half) as i32);
            e += ek;
            let em = exponent(m);
            m *= 2f64.powi(-em as i32);
            e += em;
        }
    }
    // 2. propagate the gap through the negligible steps with no shift
    let n = t - tau;
    let mut shifts = Vec::with_capacity(n);
    let mut gaps = Vec::with_capacity(n);
    let mut lambda = Vec::with_capacity(n);
    let mut z = z0.clone();
    for k in tau + 1..=start {
        z = c[k - 1].clone() * z + s[k - 1].clone();
        shifts.push(zero.clone());
        gaps.push(z.clone());
        lambda.push(zero.clone());
    }
    let z_start = z.clone();
    // 3. weights P_k for k = start..t (index i = k − start)
    let m = t - start;
    let mut pw = vec![one.clone(); m + 1];
    for i in (0..m).rev() {
        pw[i] = pw[i + 1].clone() * c[start + i].clone();
    }
    // 4. points (X_i, G_i), i = 0..m, with the hull starting at the origin
    let mut xs = Vec::with_capacity(m + 1);
    let mut gs = Vec::with_capacity(m + 1);
    xs.push(zero.clone());
    gs.push(zero.clone());
    let mut xacc = zero.clone();
    let mut gacc = pw[0].clone() * z_start.clone();
    for (i, pi) in pw.iter().enumerate().skip(1) {
        let k = start + i;
        xacc = xacc + g[k - 1].square() * pi.square();
        gacc = gacc + s[k - 1].clone() * pi.clone();
        xs.push(xacc.clone());
        gs.push(gacc.clone());
    }
    // 5. lower convex hull (monotone chain)
    let mut hull: Vec<usize> = Vec::with_capacity(64);
    for i in 0..=m {
        while hull.len() >= 2 {
            let a = hull[hull.len() - 2];
            let b = hull[hull.len() - 1];
            let cross = (xs[b].clone() - xs[a].clone()) * (gs[i].clone() - gs[a].clone())
                - (gs[b].clone() - gs[a].clone()) * (xs[i].clone() - xs[a].clone());
            if cross.cmp_mid(&zero) != Ordering::Greater {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(i);
    }
    // 6. shifts, gaps and μ² segment by segment
    let mut mu2 = zero.clone();
    let mut active = Vec::new();
    for w in hull.windows(2) {
        let (u, v) = (w[0], w[1]);
        let dg = gs[v].clone() - gs[u].clone();
        let dx = xs[v].clone() - xs[u].clone();
        let slope = dg.clone() / dx.clone();
        mu2 = mu2 + dg.square() / dx;
        for i in u + 1..=v {
            let k = start + i;
            let ak = slope.clone() * g[k - 1].square() * pw[i].clone();
            let pre = c[k - 1].clone() * z.clone() + s[k - 1].clone();
            let zk = if i == v {
                zero.clone()
            } else {
                let mk = gs[u].clone() + slope.clone() * (xs[i].clone() - xs[u].clone());
                (gs[i].clone() - mk) / pw[i].clone()
            };
            let lam = if i == m || pre.cmp_mid(&zero) != Ordering::Greater {
                one.clone()
            } else {
                ak.clone() / pre
            };
            shifts.push(ak);
            lambda.push(lam);
            gaps.push(zk.clone());
            z = zk;
        }
        if v < m {
            active.push(start + v);
        }
    }
    if !mu2.upper_f64().is_finite() || shifts.iter().any(|x| !x.upper_f64().is_finite()) {
        return Err(Error::NotCertified {
            what: "KKT schedule".into(),
            reason: "overflow at this precision (contraction products too large); use more bits"
                .into(),
        });
    }
    Ok(KktSolution {
        tau,
        initial_gap: z0,
        shifts,
        gaps,
        lambda,
        mu2,
        active,
        negligible: start - tau,
    })
}
