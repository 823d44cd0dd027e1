//! Independent numerical solver of the schedule problem at fixed τ, with argmin.
//!
//! It does not use the KKT structure. Its variables are the shifts x_k (k < t) of
//! BSA24 Thm 3.3, applied through the feasibility map of the recursion: the shift used
//! is a_k = clamp(x_k, 0, p_k) with p_k = c_k z_{k−1} + s_k (so λ_k = a_k/p_k ∈ [0, 1]
//! and z_k = p_k − a_k ≥ 0), and the last shift closes the gap, a_t = p_t (λ_t = 1).
//! Every x gives a feasible schedule; in the interior the cost is a quadratic with
//! Hessian diagonal plus rank one, which L-BFGS (More–Thuente line search) solves in a
//! few iterations. A shift pushed past its range lies in a flat region, so the solver
//! is restarted from the projected point x := a until the cost stops decreasing. The
//! gradient is a backward (adjoint) pass, O(t).
//!
//! # Formula
//! J(x) = Σ_{k<t} (a_k/ς_k)² + (p_t/ς_t)², a_k = clamp(x_k, 0, p_k),
//! z_k = p_k − a_k (BSA24 Thm 3.3 with a_k = λ_k(c z_{k−1} + s)).
//!
//! # References
//! * BSA24 Thm 3.3 and (3.5).
//! * Nocedal & Wright, *Numerical Optimization* (2006), §7.2 (L-BFGS).
//! * argmin: <https://argmin-rs.org>.
use super::problem::{ScheduleProblem, ScheduleReal};
use crate::error::{Error, Result};
use argmin::core::{CostFunction, Executor, Gradient, State, TerminationStatus};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;

/// Options of the numerical solver.
#[derive(Debug, Clone, Copy)]
pub struct NumericOptions {
    /// Maximum number of L-BFGS iterations.
    pub max_iters: u64,
    /// L-BFGS memory.
    pub memory: usize,
    /// Gradient-norm tolerance (on the cost normalized by its starting value).
    pub tol_grad: f64,
}

impl Default for NumericOptions {
    fn default() -> Self {
        NumericOptions {
            max_iters: 5000,
            memory: 20,
            tol_grad: 1e-13,
        }
    }
}

/// The numerical optimum at a fixed τ.
#[derive(Debug, Clone)]
pub struct NumericSolution {
    /// Start time τ.
    pub tau: usize,
    /// Shifts a_{τ+1}, …, a_t.
    pub shifts: Vec<f64>,
    /// Weights λ_{τ+1}, …, λ_t.
    pub lambda: Vec<f64>,
    /// μ² of the returned schedule.
    pub mu2: f64,
    /// L-BFGS iterations used.
    pub iterations: u64,
    /// Why the solver stopped.
    pub termination: String,
}

impl NumericSolution {
    /// μ = √(μ²).
    pub fn mu(&self) -> f64 {
        self.mu2.sqrt()
    }
}

#[derive(Clone)]
struct ShiftProblem {
    c: Vec<f64>,
    s: Vec<f64>,
    w: Vec<f64>,
    z0: f64,
    scale: f64,
}

/// Where the shift x_k lies relative to its feasible range [0, p_k].
#[derive(Clone, Copy)]
enum Side {
    Inside,
    Lower,
    Upper,
}

impl ShiftProblem {
    /// Forward pass: (cost, p_k, a_k, side_k).
    #[allow(clippy::needless_range_loop)]
    fn forward(&self, x: &[f64]) -> (f64, Vec<f64>, Vec<f64>, Vec<Side>) {
        let n = self.c.len();
        let mut z = self.z0;
        let mut pre = Vec::with_capacity(n);
        let mut sh = Vec::with_capacity(n);
        let mut side = Vec::with_capacity(n);
        let mut cost = 0.0;
        for k in 0..n {
            let p = self.c[k] * z + self.s[k];
            let (a, sd) = if k + 1 == n {
                (p, Side::Upper)
            } else if x[k] < 0.0 {
                (0.0, Side::Lower)
            } else if x[k] > p {
                (p, Side::Upper)
            } else {
                (x[k], Side::Inside)
            };
            cost += self.w[k] * a * a;
            z = p - a;
            pre.push(p);
            sh.push(a);
            side.push(sd);
        }
        (cost / self.scale, pre, sh, side)
    }
}

impl CostFunction for ShiftProblem {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, x: &Self::Param) -> std::result::Result<f64, argmin::core::Error> {
        Ok(self.forward(x).0)
    }
}

impl Gradient for ShiftProblem {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, x: &Self::Param) -> std::result::Result<Vec<f64>, argmin::core::Error> {
        let (_, _, sh, side) = self.forward(x);
        let n = self.c.len();
        let mut grad = vec![0.0; n.saturating_sub(1)];
        // dJ/dz_k carried backward
        let mut dz = 0.0;
        for k in (0..n).rev() {
            let dp = match side[k] {
                Side::Inside => {
                    grad[k] = (2.0 * self.w[k] * sh[k] - dz) / self.scale;
                    dz
                }
                Side::Lower => dz,
                Side::Upper => 2.0 * self.w[k] * sh[k],
            };
            dz = self.c[k] * dp;
        }
        Ok(grad)
    }
}

/// Solves the schedule problem at τ numerically (L-BFGS over the shifts), in `f64`.
///
/// # Formula
/// See the module documentation; two starts (equal shares λ_k = 1/(t−k+1), and
/// x_k = s_k/2), the better result is kept.
///
/// # Errors
/// [`Error::Parameter`] if τ ≥ t; [`Error::NotCertified`] if argmin fails or the cost
/// is not finite.
///
/// # Example
/// ```
/// use shiftdp::schedules::{ScheduleProblem, numeric::{solve_numeric, NumericOptions}};
/// let p = ScheduleProblem::constant(3, 0.5_f64, 1.0, 1.0, None).unwrap();
/// let sol = solve_numeric(&p, 0, NumericOptions::default()).unwrap();
/// assert!((sol.mu2 - 7.0 / 3.0).abs() < 1e-9); // BSA24 Thm 4.2 at c = 1/2, t = 3
/// ```
///
/// # References
/// BSA24 Thm 3.3; Nocedal & Wright §7.2.
pub fn solve_numeric<R: ScheduleReal>(
    p: &ScheduleProblem<R>,
    tau: usize,
    opts: NumericOptions,
) -> Result<NumericSolution> {
    let q = p.to_mid_f64();
    let t = q.horizon();
    let z0 = q.initial_gap(tau)?;
    let c = q.contraction()[tau..].to_vec();
    let s = q.sensitivity()[tau..].to_vec();
    let w: Vec<f64> = q.noise()[tau..].iter().map(|g| 1.0 / (g * g)).collect();
    let n = t - tau;
    let mut prob = ShiftProblem {
        c,
        s,
        w,
        z0,
        scale: 1.0,
    };
    // two starts: (i) equal shares, x_k = p_k/(t − k + 1) along the forward pass
    // (λ_k = 1/(t−k+1), equal shifts when c = 1), (ii) half of each sensitivity
    let m = n.saturating_sub(1);
    let mut share = Vec::with_capacity(m);
    {
        let mut z = z0;
        for k in 0..m {
            let p = prob.c[k] * z + prob.s[k];
            let x = p / (n - k) as f64;
            share.push(x);
            z = p - x;
        }
    }
    let half: Vec<f64> = prob.s[..m].iter().map(|x| 0.5 * x).collect();
    let start_cost = prob.forward(&share).0;
    if !start_cost.is_finite() {
        return Err(Error::NotCertified {
            what: "numeric schedule".into(),
            reason: "cost not finite in f64".into(),
        });
    }
    prob.scale = if start_cost > 0.0 { start_cost } else { 1.0 };
    let fail = |e: argmin::core::Error| Error::NotCertified {
        what: "numeric schedule".into(),
        reason: e.to_string(),
    };
    let mut iterations = 0;
    let mut termination = "no free parameter".to_string();
    let mut overall: Option<(f64, Vec<f64>)> = None;
    for v0 in [share, half] {
        let mut v = v0;
        let mut last = prob.forward(&v).0;
        let mut stalls = 0;
        let mut best_cost = last;
        let mut best_x = v.clone();
        // L-BFGS, restarted from the projected point x := a (a shift pushed past its
        // range [0, p_k] sits in a flat region; projecting puts it back inside)
        for _round in 0..30 {
            if n <= 1 || iterations >= opts.max_iters {
                break;
            }
            let solver = LBFGS::new(MoreThuenteLineSearch::new(), opts.memory)
                .with_tolerance_grad(opts.tol_grad)
                .and_then(|s| s.with_tolerance_cost(1e-15))
                .map_err(fail)?;
            let res = Executor::new(prob.clone(), solver)
                .configure(|st| st.param(v.clone()).max_iters(opts.max_iters - iterations))
                .run()
                .map_err(fail)?;
            let st = res.state();
            termination = match st.get_termination_status() {
                TerminationStatus::Terminated(r) => format!("{r:?}"),
                TerminationStatus::NotTerminated => "not terminated".into(),
            };
            iterations += st.get_iter();
            let best = st.get_best_param().cloned().unwrap_or_else(|| v.clone());
            let (cost, _, shifts, _) = prob.forward(&best);
            if cost < best_cost {
                best_cost = cost;
                best_x = shifts[..n - 1].to_vec();
            }
            // project, slightly inside so that every shift has its interior gradient
            v = shifts[..n - 1].iter().map(|a| a * (1.0 - 1e-6)).collect();
            if cost >= last * (1.0 - 1e-14) {
                stalls += 1;
                if stalls >= 2 {
                    break;
                }
            } else {
                stalls = 0;
            }
            last = last.min(cost);
        }
        if overall.as_ref().is_none_or(|o| best_cost < o.0) {
            overall = Some((best_cost, best_x));
        }
    }
    let v = overall.map(|o| o.1).unwrap_or_default();
    let eval = ShiftProblem {
        c: q.contraction()[tau..].to_vec(),
        s: q.sensitivity()[tau..].to_vec(),
        w: q.noise()[tau..].iter().map(|g| 1.0 / (g * g)).collect(),
        z0,
        scale: 1.0,
    };
    let (mu2, pre, shifts, _) = eval.forward(&v);
    let lambda: Vec<f64> = pre
        .iter()
        .zip(&shifts)
        .map(|(p, a)| if *p > 0.0 { a / p } else { 1.0 })
        .collect();
    if !mu2.is_finite() {
        return Err(Error::NotCertified {
            what: "numeric schedule".into(),
            reason: "cost not finite in f64".into(),
        });
    }
    Ok(NumericSolution {
        tau,
        shifts,
        lambda,
        mu2,
        iterations,
        termination,
    })
}
