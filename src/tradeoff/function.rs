//! The tradeoff-function interface: [`Tradeoff`] (T(P, Q) as a function α ↦ β), the
//! laws every tradeoff function satisfies ([`check_tradeoff_laws`]) and the identity
//! (perfect privacy).
use crate::error::Result;

/// A tradeoff function on [0, 1].
pub trait Tradeoff {
    /// `f(α)` as an estimate (for plots and searches).
    fn eval(&self, alpha: f64) -> f64;
    /// Bounds `(lo, hi)` with `lo ≤ f(α) ≤ hi`; `lo` is the value safe to report.
    fn eval_bounds(&self, alpha: f64) -> (f64, f64);
    /// A lower bound on `f(α)` (the safe side for a privacy guarantee).
    fn eval_down(&self, alpha: f64) -> f64 {
        self.eval_bounds(alpha).0
    }
    /// Whether `f = f⁻¹`.
    fn is_symmetric(&self) -> bool;
    /// An upper bound on `δ(ε) = 1 + f*(−e^ε)`.
    ///
    /// # Errors
    /// If ε is not finite or the value cannot be certified.
    fn delta_up(&self, eps: f64) -> Result<f64>;
    /// Display name, e.g. `G(1)`.
    fn name(&self) -> String;
}

/// Tolerance of the numerical law check (values are f64 estimates).
pub const LAW_TOL: f64 = 1e-9;

/// Checks on a grid of `k + 1` points that `f` is a tradeoff function: values in
/// [0, 1], `f(α) ≤ 1 − α`, non-increasing and convex (second differences ≥ −tol).
///
/// # Errors
/// A description of the first law that fails, with the grid point.
pub fn check_tradeoff_laws(f: &dyn Tradeoff, k: usize) -> std::result::Result<(), String> {
    let k = k.max(4);
    let xs: Vec<f64> = (0..=k).map(|i| i as f64 / k as f64).collect();
    let ys: Vec<f64> = xs.iter().map(|&a| f.eval(a)).collect();
    for (i, (&a, &y)) in xs.iter().zip(&ys).enumerate() {
        if !y.is_finite() || !(-LAW_TOL..=1.0 + LAW_TOL).contains(&y) {
            return Err(format!(
                "{}: value {y} at α = {a} is outside [0, 1]",
                f.name()
            ));
        }
        if y > 1.0 - a + LAW_TOL {
            return Err(format!("{}: f({a}) = {y} > 1 − α", f.name()));
        }
        let (lo, hi) = f.eval_bounds(a);
        if !(lo <= y + LAW_TOL && y <= hi + LAW_TOL) {
            return Err(format!(
                "{}: bounds ({lo}, {hi}) miss f({a}) = {y}",
                f.name()
            ));
        }
        if i > 0 && y > ys[i - 1] + LAW_TOL {
            return Err(format!("{}: increases at α = {a}", f.name()));
        }
        if i > 1 && ys[i - 2] - 2.0 * ys[i - 1] + y < -LAW_TOL {
            return Err(format!("{}: not convex near α = {}", f.name(), xs[i - 1]));
        }
    }
    Ok(())
}

/// The identity tradeoff function `Id(α) = 1 − α` (perfect privacy).
#[derive(Debug, Clone, Copy)]
pub struct Identity;

impl Tradeoff for Identity {
    fn eval(&self, alpha: f64) -> f64 {
        (1.0 - alpha).clamp(0.0, 1.0)
    }
    fn eval_bounds(&self, alpha: f64) -> (f64, f64) {
        let v = self.eval(alpha);
        (v, v)
    }
    fn is_symmetric(&self) -> bool {
        true
    }
    fn delta_up(&self, _eps: f64) -> Result<f64> {
        Ok(0.0)
    }
    fn name(&self) -> String {
        "Id".into()
    }
}
