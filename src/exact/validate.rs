//! Domination checks of a privacy bound against an exact instance (docs/conventions.md §5).
//!
//! # Formula
//! A valid bound dominates every instance, in both orders of the pair:
//! * tradeoff form: `f_bound(α) ≤ T(instance)(α)` for all α;
//! * (ε, δ) form: `δ_bound(ε) ≥ δ_instance(ε)` for all ε (equivalent to the tradeoff
//!   form by the conjugate duality `δ(ε) = 1 + f*(−e^ε)`, DRS22 Prop 5);
//! * Rényi form: `ε_bound(λ) ≥ D_λ(instance)` at every order λ.
//!
//! `μ`-GDP bounds are checked in all three forms (μ-GDP implies the Rényi curve
//! `λμ²/2` by post-processing of the Gaussian pair). Each comparison is classified
//! with the instance's stated error: [`Status::Dominates`] when the bound clears the
//! largest value consistent with the error, [`Status::Violated`] when it falls below the
//! smallest, [`Status::Inconclusive`] otherwise.
//!
//! The *tightness ratio* is the bound's parameter over the instance's: for a GDP bound
//! `μ_bound / μ_instance`, where `μ_instance` is the largest μ whose `δ_{G(μ)}` the
//! instance reaches on the ε grid (the instance's own μ for Gaussian instances); for an
//! (ε, δ) bound the smallest `ε_bound / ε_instance(δ)` over its points; for a Rényi bound
//! the smallest `ε_bound(λ) / D_λ`. A ratio of 1 means the bound is exact; < 1 together
//! with a violation means the bound is wrong.
//!
//! # References
//! BSA24 §2; J. Dong, A. Roth, W. Su, *Gaussian differential privacy* (2022), Prop 5.
use super::{Estimate, Instance, Order};
use crate::error::{Error, Result};
use crate::tradeoff::{Gaussian, Tradeoff};

/// A bound to validate.
#[non_exhaustive]
pub enum BoundSpec {
    /// `μ`-GDP: `f_bound = G(μ)`.
    Gdp {
        /// The bound's μ.
        mu: f64,
    },
    /// An (ε, δ) curve: points `(ε, δ_bound(ε))`.
    DeltaCurve(Vec<(f64, f64)>),
    /// A Rényi curve: points `(λ, ε_bound(λ))`.
    Renyi(Vec<(f64, f64)>),
    /// A general tradeoff function (e.g. `C_p(G(μ))^{⊗k}` from the composition module);
    /// `symmetric` says whether it must dominate both orders or only `T(P, Q)`.
    Tradeoff {
        /// The bound's tradeoff function.
        f: Box<dyn Tradeoff>,
        /// Whether to check both orders of the pair.
        symmetric: bool,
    },
}

/// Outcome of one comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// The bound dominates, even allowing for the instance's stated error.
    Dominates,
    /// The bound is violated beyond the instance's stated error.
    Violated,
    /// Within the instance's error: cannot tell.
    Inconclusive,
}

/// One comparison at one grid point.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// `"delta"` (at ε), `"renyi"` (at λ) or `"tradeoff"` (at α).
    pub kind: &'static str,
    /// The grid point (ε, λ or α).
    pub at: f64,
    /// Which order of the pair.
    pub order: Order,
    /// The bound's value there.
    pub bound: f64,
    /// The instance's value.
    pub instance: Estimate,
    /// Signed margin: positive when the bound is on the safe side of the instance value.
    pub margin: f64,
    /// Classification.
    pub status: Status,
}

/// Report of [`validate`].
#[derive(Debug, Clone, PartialEq)]
pub struct Domination {
    /// Every comparison made.
    pub checks: Vec<Check>,
    /// Number of certain violations.
    pub violations: usize,
    /// Number of inconclusive comparisons.
    pub inconclusive: usize,
    /// The smallest margin (the closest call).
    pub worst_margin: f64,
    /// Tightness ratio (bound parameter / instance parameter), if defined.
    pub tightness: Option<f64>,
}

impl Domination {
    /// No certain violation.
    pub fn holds(&self) -> bool {
        self.violations == 0
    }
}

fn classify(margin: f64, err: f64) -> Status {
    if margin >= err {
        Status::Dominates
    } else if margin < -err {
        Status::Violated
    } else {
        Status::Inconclusive
    }
}

/// The largest μ with `δ_{G(μ)}(ε) ≤ δ` (bisection; δ_G increases in μ).
pub fn gdp_mu_for_delta(eps: f64, delta: f64) -> f64 {
    if delta <= 0.0 {
        return 0.0;
    }
    let d = |mu: f64| {
        Gaussian::new(mu)
            .map(|g| g.delta_up(eps).unwrap_or(1.0))
            .unwrap_or(1.0)
    };
    let mut hi = 1.0;
    while d(hi) < delta && hi < 1e3 {
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..100 {
        let m = 0.5 * (lo + hi);
        if d(m) < delta {
            lo = m;
        } else {
            hi = m;
        }
    }
    lo
}

/// Checks `bound` against `inst` on an ε grid (δ form, both orders), at the Rényi
/// orders `orders`, and (tradeoff bounds) on an α grid of 101 points.
///
/// # Errors
/// [`Error::Parameter`] for an empty grid or non-finite grid points; instance errors.
///
/// # Example
/// ```
/// use shiftdp::exact::{BoundSpec, GaussianInstance, validate};
/// let inst = GaussianInstance::from_mu(1.0).unwrap();
/// let grid = [0.0, 0.5, 1.0, 2.0];
/// let ok = validate(&BoundSpec::Gdp { mu: 1.1 }, &inst, &grid, &[2.0]).unwrap();
/// assert!(ok.holds() && (ok.tightness.unwrap() - 1.1).abs() < 1e-6);
/// let bad = validate(&BoundSpec::Gdp { mu: 0.9 }, &inst, &grid, &[2.0]).unwrap();
/// assert!(!bad.holds());
/// ```
pub fn validate(
    bound: &BoundSpec,
    inst: &dyn Instance,
    eps_grid: &[f64],
    orders: &[f64],
) -> Result<Domination> {
    if eps_grid.is_empty() || eps_grid.iter().any(|e| !e.is_finite()) {
        return Err(Error::param(
            "epsilon grid",
            eps_grid.len(),
            "need ≥ 1 finite point",
        ));
    }
    let mut checks = Vec::new();
    let mut push = |kind, at, order, b: f64, e: Estimate, margin: f64| {
        checks.push(Check {
            kind,
            at,
            order,
            bound: b,
            instance: e,
            margin,
            status: classify(margin, e.error),
        });
    };
    let mut tightness = None;
    match bound {
        BoundSpec::Gdp { mu } => {
            let g = Gaussian::new(*mu)?;
            let mut mu_inst: f64 = 0.0;
            for &eps in eps_grid {
                let db = g.delta_up(eps)?;
                for o in Order::BOTH {
                    let e = inst.delta(eps, o)?;
                    mu_inst = mu_inst.max(gdp_mu_for_delta(eps, e.value));
                    push("delta", eps, o, db, e, db - e.value);
                }
            }
            for &l in orders {
                let rb = 0.5 * l * mu * mu;
                for o in Order::BOTH {
                    let e = inst.renyi(l, o)?;
                    push("renyi", l, o, rb, e, rb - e.value);
                }
            }
            if let Some(m) = inst.gdp_mu() {
                mu_inst = m;
            }
            if mu_inst > 0.0 {
                tightness = Some(mu / mu_inst);
            }
        }
        BoundSpec::DeltaCurve(pts) => {
            let mut ratio = f64::INFINITY;
            for &(eps, db) in pts {
                for o in Order::BOTH {
                    let e = inst.delta(eps, o)?;
                    push("delta", eps, o, db, e, db - e.value);
                }
                if db > 0.0 && db < 1.0 {
                    let ei = inst.epsilon_sym(db)?;
                    if ei.value > 0.0 {
                        ratio = ratio.min(eps / ei.value);
                    }
                }
            }
            if ratio.is_finite() {
                tightness = Some(ratio);
            }
        }
        BoundSpec::Renyi(pts) => {
            let mut ratio = f64::INFINITY;
            for &(l, rb) in pts {
                for o in Order::BOTH {
                    let e = inst.renyi(l, o)?;
                    if e.value > 0.0 {
                        ratio = ratio.min(rb / e.value);
                    }
                    push("renyi", l, o, rb, e, rb - e.value);
                }
            }
            if ratio.is_finite() {
                tightness = Some(ratio);
            }
        }
        BoundSpec::Tradeoff { f, symmetric } => {
            let ords: &[Order] = if *symmetric {
                &Order::BOTH
            } else {
                &[Order::Forward]
            };
            for i in 0..=100 {
                let a = i as f64 / 100.0;
                let fb = f.eval_bounds(a).1; // the bound's largest possible value
                for &o in ords {
                    let e = inst.tradeoff(a, o)?;
                    push("tradeoff", a, o, fb, e, e.value - fb);
                }
            }
            for &eps in eps_grid {
                let db = f.delta_up(eps)?;
                for &o in ords {
                    let e = inst.delta(eps, o)?;
                    push("delta", eps, o, db, e, db - e.value);
                }
            }
        }
    }
    let violations = checks
        .iter()
        .filter(|c| c.status == Status::Violated)
        .count();
    let inconclusive = checks
        .iter()
        .filter(|c| c.status == Status::Inconclusive)
        .count();
    let worst_margin = checks
        .iter()
        .map(|c| c.margin)
        .fold(f64::INFINITY, f64::min);
    Ok(Domination {
        checks,
        violations,
        inconclusive,
        worst_margin,
        tightness,
    })
}
