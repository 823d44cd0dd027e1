//! Independent numerical solver of the schedule problem at fixed τ, with argmin.
//!
//! It does not use the KKT structure: it optimizes BSA24's own parameters, the
//! interpolation weights λ_k ∈ [0, 1] (k < t, λ_t = 1), through the smooth
//! parameterization λ_k = 1/(1 + e^{−v_k}) with L-BFGS (More–Thuente line search). Every
//! v gives a feasible schedule (z_k = (1 − λ_k)(c_k z_{k−1} + s_k) ≥ 0, z_t = 0), so
//! the solver only has to minimize, and its gradient is computed by a backward
//! (adjoint) pass in O(t).
//!
//! # Formula
//! J(v) = Σ_{k<t} (λ_k p_k/ς_k)² + (p_t/ς_t)², p_k = c_k z_{k−1} + s_k,
//! z_k = (1 − λ_k) p_k (BSA24 Thm 3.3, a_k = λ_k (c z_{k−1} + s)).
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

struct LambdaProblem {
    c: Vec<f64>,
    s: Vec<f64>,
    w: Vec<f64>,
    z0: f64,
    scale: f64,
}

fn sigmoid(v: f64) -> f64 {
    if v >= 0.0 {
        1.0 / (1.0 + (-v).exp())
    } else {
        let e = v.exp();
        e / (1.0 + e)
    }
}

impl LambdaProblem {
    /// Forward pass: (cost, p_k, λ_k).
    fn forward(&self, v: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
        let n = self.c.len();
        let mut z = self.z0;
        let mut pre = Vec::with_capacity(n);
        let mut lam = Vec::with_capacity(n);
        let mut cost = 0.0;
        for k in 0..n {
            let p = self.c[k] * z + self.s[k];
            let l = if k + 1 < n { sigmoid(v[k]) } else { 1.0 };
            let a = l * p;
            cost += self.w[k] * a * a;
            z = p - a;
            pre.push(p);
            lam.push(l);
        }
        (cost / self.scale, pre, lam)
    }
}

impl CostFunction for LambdaProblem {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, v: &Self::Param) -> std::result::Result<f64, argmin::core::Error> {
        Ok(self.forward(v).0)
    }
}

impl Gradient for LambdaProblem {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, v: &Self::Param) -> std::result::Result<Vec<f64>, argmin::core::Error> {
        let (_, pre, lam) = self.forward(v);
        let n = self.c.len();
        let mut grad = vec![0.0; n.saturating_sub(1)];
        // dJ/dz_k carried backward
        let mut dz = 0.0;
        for k in (0..n).rev() {
            let (p, l) = (pre[k], lam[k]);
            let dp = 2.0 * self.w[k] * l * l * p + (1.0 - l) * dz;
            if k + 1 < n {
                let dl = 2.0 * self.w[k] * l * p * p - p * dz;
                grad[k] = dl * l * (1.0 - l) / self.scale;
            }
            dz = self.c[k] * dp;
        }
        Ok(grad)
    }
}

/// Solves the schedule problem at τ numerically (L-BFGS over λ), in `f64`.
///
/// # Formula
/// See the module documentation; start λ_k = 1/(t − k + 1) (equal shifts when c = 1).
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
    let q = p.to_f64();
    let t = q.horizon();
    let z0 = q.initial_gap(tau)?;
    let c = q.contraction()[tau..].to_vec();
    let s = q.sensitivity()[tau..].to_vec();
    let w: Vec<f64> = q.noise()[tau..].iter().map(|g| 1.0 / (g * g)).collect();
    let n = t - tau;
    let mut prob = LambdaProblem {
        c,
        s,
        w,
        z0,
        scale: 1.0,
    };
    let v0: Vec<f64> = (0..n.saturating_sub(1))
        .map(|i| {
            let lam = 1.0 / (n - i) as f64;
            (lam / (1.0 - lam)).ln()
        })
        .collect();
    let start_cost = prob.forward(&v0).0;
    if !start_cost.is_finite() {
        return Err(Error::NotCertified {
            what: "numeric schedule".into(),
            reason: "cost not finite in f64".into(),
        });
    }
    prob.scale = if start_cost > 0.0 { start_cost } else { 1.0 };
    let (v, iterations, termination) = if n <= 1 {
        (v0, 0, "no free parameter".to_string())
    } else {
        let ls = MoreThuenteLineSearch::new();
        let solver = LBFGS::new(ls, opts.memory)
            .with_tolerance_grad(opts.tol_grad)
            .and_then(|s| s.with_tolerance_cost(1e-15))
            .map_err(|e| Error::NotCertified {
                what: "numeric schedule".into(),
                reason: e.to_string(),
            })?;
        let res = Executor::new(prob, solver)
            .configure(|st| st.param(v0).max_iters(opts.max_iters))
            .run()
            .map_err(|e| Error::NotCertified {
                what: "numeric schedule".into(),
                reason: e.to_string(),
            })?;
        let st = res.state();
        let term = match st.get_termination_status() {
            TerminationStatus::Terminated(r) => format!("{r:?}"),
            TerminationStatus::NotTerminated => "not terminated".into(),
        };
        let best = st
            .get_best_param()
            .cloned()
            .ok_or_else(|| Error::NotCertified {
                what: "numeric schedule".into(),
                reason: "argmin returned no parameter".into(),
            })?;
        // the problem moved into the executor; rebuild the evaluator
        (best, st.get_iter(), term)
    };
    let eval = LambdaProblem {
        c: q.contraction()[tau..].to_vec(),
        s: q.sensitivity()[tau..].to_vec(),
        w: q.noise()[tau..].iter().map(|g| 1.0 / (g * g)).collect(),
        z0,
        scale: 1.0,
    };
    let (mu2, pre, lambda) = eval.forward(&v);
    let shifts: Vec<f64> = pre.iter().zip(&lambda).map(|(p, l)| p * l).collect();
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
