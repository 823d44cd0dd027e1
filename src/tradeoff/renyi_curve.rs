//! Rényi curves α ↦ ε(α): the RDP guarantee of a mechanism at every order α > 1.
//!
//! A curve is an *upper bound* on the Rényi divergence D_α(P‖Q) at each order. Three
//! kinds exist:
//!
//! * **linear** `ε(α) = ρα` (ρ-zCDP-style curves: G(μ) has ρ = μ²/2,
//!   docs/conventions.md §3);
//! * **tabulated** values at finitely many orders (as printed in a paper or computed
//!   elsewhere); between two tabulated orders the value of the next larger order is
//!   used, which is valid because D_α is non-decreasing in α (van Erven–Harremoës
//!   2014, Thm 3);
//! * **computed** by a closure returning a certified enclosure at any order in a range.
//!
//! # Rounding
//! [`RenyiCurve::eval`] returns an enclosure whose upper end is the bound; the
//! conversions to (ε, δ)-DP take that upper end (they increase with ε_α).
//!
//! # References
//! * I. Mironov, *Rényi differential privacy*, CSF 2017.
//! * T. van Erven, P. Harremoës, *Rényi divergence and Kullback–Leibler divergence*,
//!   IEEE Trans. Inf. Theory 60 (2014).
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use std::fmt;
use std::sync::Arc;

/// A closure computing a certified enclosure of ε(α) at `bits` bits.
pub type CurveFn = Arc<dyn Fn(f64, u32) -> Result<Enclosure> + Send + Sync>;

#[derive(Clone)]
enum Kind {
    Linear { rho: Enclosure },
    Tabulated { orders: Vec<f64>, values: Vec<f64> },
    Computed { f: CurveFn, lo: f64, hi: f64 },
}

/// A Rényi-DP curve α ↦ ε(α) (an upper bound at each order).
///
/// # Example
/// ```
/// use shiftdp::tradeoff::RenyiCurve;
/// // G(1) has ε(α) = α/2 at every order
/// let c = RenyiCurve::linear(0.5).unwrap();
/// let e = c.eval(4.0, 128).unwrap();
/// assert!(e.lower_f64() <= 2.0 && 2.0 <= e.upper_f64());
/// assert_eq!(c.rho_upper_f64(), Some(0.5));
/// ```
#[derive(Clone)]
pub struct RenyiCurve {
    kind: Kind,
    name: String,
}

impl fmt::Debug for RenyiCurve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RenyiCurve({})", self.name)
    }
}

/// The one domain check of a Rényi order, used by every Rényi module: α must be finite
/// and > 1, else [`Error::Parameter`] (a value outside the domain of the object, not a
/// failed hypothesis of a result — see the rule in [`crate::error`]).
pub fn check_order(alpha: f64) -> Result<()> {
    if !alpha.is_finite() || alpha <= 1.0 {
        return Err(Error::param(
            "alpha",
            alpha,
            "a Rényi order must be finite and > 1",
        ));
    }
    Ok(())
}

impl RenyiCurve {
    /// The linear curve `ε(α) = ρα` for finite `ρ ≥ 0`.
    ///
    /// # Errors
    /// [`Error::Parameter`] if ρ is negative, NaN or infinite.
    pub fn linear(rho: f64) -> Result<Self> {
        if !rho.is_finite() || rho < 0.0 {
            return Err(Error::param("rho", rho, "must be finite and ≥ 0"));
        }
        Ok(RenyiCurve {
            kind: Kind::Linear {
                rho: Enclosure::from_f64(64, rho),
            },
            name: format!("ε(α) = {rho}·α"),
        })
    }

    /// The linear curve `ε(α) = ρα` with ρ given as an enclosure (its upper end is used
    /// by all bounds).
    ///
    /// # Errors
    /// [`Error::Parameter`] if the enclosure is not finite or reaches below 0.
    pub fn linear_enclosure(rho: Enclosure) -> Result<Self> {
        if !rho.is_finite() || rho.lo().is_sign_negative() && !rho.lo().is_zero() {
            return Err(Error::param("rho", rho.mid_f64(), "must be finite and ≥ 0"));
        }
        let name = format!("ε(α) = {:.6}·α", rho.upper_f64());
        Ok(RenyiCurve {
            kind: Kind::Linear { rho },
            name,
        })
    }

    /// The curve of `G(μ)`: `ε(α) = αμ²/2` (docs/conventions.md §3).
    ///
    /// # Errors
    /// [`Error::Parameter`] if μ is negative or not finite.
    pub fn gaussian(mu: f64) -> Result<Self> {
        if !mu.is_finite() || mu < 0.0 {
            return Err(Error::param("mu", mu, "must be finite and ≥ 0"));
        }
        let m = Enclosure::from_f64(128, mu);
        let mut c = Self::linear_enclosure(m.square().half())?;
        c.name = format!("G({mu}): ε(α) = αμ²/2");
        Ok(c)
    }

    /// A tabulated curve: `points` are `(α, ε(α))` pairs with α > 1 finite and
    /// ε(α) ≥ 0 finite, each ε(α) an upper bound at its order.
    ///
    /// # Errors
    /// [`Error::Parameter`] for an empty table, a bad order or value, or a repeated
    /// order.
    pub fn tabulated(points: &[(f64, f64)]) -> Result<Self> {
        if points.is_empty() {
            return Err(Error::param("table", "[]", "needs at least one order"));
        }
        let mut pts = points.to_vec();
        for &(a, e) in &pts {
            check_order(a)?;
            if !e.is_finite() || e < 0.0 {
                return Err(Error::param("epsilon", e, "must be finite and ≥ 0"));
            }
        }
        pts.sort_by(|x, y| x.0.total_cmp(&y.0));
        if pts.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err(Error::param("table", "orders", "orders must be distinct"));
        }
        Ok(RenyiCurve {
            name: format!("tabulated at {} orders", pts.len()),
            kind: Kind::Tabulated {
                orders: pts.iter().map(|p| p.0).collect(),
                values: pts.iter().map(|p| p.1).collect(),
            },
        })
    }

    /// A curve computed by `f(α, bits)` for α in `[alpha_min, alpha_max]`, `f` returning
    /// a certified enclosure of an upper bound on D_α.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `1 < alpha_min ≤ alpha_max < ∞`.
    pub fn computed(name: &str, alpha_min: f64, alpha_max: f64, f: CurveFn) -> Result<Self> {
        check_order(alpha_min)?;
        check_order(alpha_max)?;
        if alpha_min > alpha_max {
            return Err(Error::param("alpha_max", alpha_max, "must be ≥ alpha_min"));
        }
        Ok(RenyiCurve {
            kind: Kind::Computed {
                f,
                lo: alpha_min,
                hi: alpha_max,
            },
            name: name.to_string(),
        })
    }

    /// Human-readable description.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// ρ of a linear curve (upper end, as f64), `None` otherwise.
    pub fn rho_upper_f64(&self) -> Option<f64> {
        match &self.kind {
            Kind::Linear { rho } => Some(rho.upper_f64()),
            _ => None,
        }
    }

    /// ρ of a linear curve as an enclosure, `None` otherwise.
    pub fn rho(&self) -> Option<&Enclosure> {
        match &self.kind {
            Kind::Linear { rho } => Some(rho),
            _ => None,
        }
    }

    /// The range of orders on which the curve is defined (`(1, ∞)` for linear curves,
    /// reported as `(1, f64::INFINITY)`).
    pub fn order_range(&self) -> (f64, f64) {
        match &self.kind {
            Kind::Linear { .. } => (1.0, f64::INFINITY),
            Kind::Tabulated { orders, .. } => (orders[0], orders[orders.len() - 1]),
            Kind::Computed { lo, hi, .. } => (*lo, *hi),
        }
    }

    /// The tabulated orders (for tabulated curves), else `None`.
    pub fn tabulated_orders(&self) -> Option<&[f64]> {
        match &self.kind {
            Kind::Tabulated { orders, .. } => Some(orders),
            _ => None,
        }
    }

    /// Certified enclosure of ε(α) at `bits` bits; its upper end is the bound.
    ///
    /// # Formula
    /// Linear: `ρα`. Tabulated: the value at the smallest tabulated order ≥ α
    /// (D_α is non-decreasing in α). Computed: the closure.
    ///
    /// # Errors
    /// [`Error::Parameter`] for α ≤ 1 or not finite; [`Error::Domain`] if α is outside
    /// the curve's range (above the largest tabulated order, or outside the computed
    /// range); errors of the closure.
    pub fn eval(&self, alpha: f64, bits: u32) -> Result<Enclosure> {
        check_order(alpha)?;
        Enclosure::check_bits(bits)?;
        match &self.kind {
            Kind::Linear { rho } => {
                Ok(rho.with_prec(bits.max(rho.prec())) * Enclosure::from_f64(bits, alpha))
            }
            Kind::Tabulated { orders, values } => {
                let i = orders.partition_point(|&o| o < alpha);
                if i == orders.len() {
                    return Err(Error::Domain {
                        what: format!("Rényi curve ({})", self.name),
                        reason: format!(
                            "order {alpha} above the largest tabulated order {}",
                            orders[orders.len() - 1]
                        ),
                    });
                }
                Ok(Enclosure::from_f64(bits, values[i]))
            }
            Kind::Computed { f, lo, hi } => {
                if alpha < *lo || alpha > *hi {
                    return Err(Error::Domain {
                        what: format!("Rényi curve ({})", self.name),
                        reason: format!("order {alpha} outside [{lo}, {hi}]"),
                    });
                }
                f(alpha, bits)
            }
        }
    }

    /// f64 estimate of ε(α) for searches (`None` where undefined or not finite).
    pub fn eval_mid_f64(&self, alpha: f64) -> Option<f64> {
        match &self.kind {
            Kind::Linear { rho } => Some(rho.mid_f64() * alpha),
            _ => self
                .eval(alpha, 64)
                .ok()
                .map(|e| e.mid_f64())
                .filter(|v| v.is_finite()),
        }
    }
}

/// Tabulates a certified per-order bound at `orders` (upper ends).
///
/// # Errors
/// The first error of `f` if no order gives a finite value.
///
/// # Example
/// ```
/// use shiftdp::tradeoff::renyi_curve::tabulate;
/// use shiftdp::precision::Enclosure;
/// // G(1): ε(α) = α/2; between grid orders the next larger order's value is used
/// let c = tabulate(&[2.0, 4.0], &|a| Ok(Enclosure::from_f64(64, a / 2.0))).unwrap();
/// assert!((c.eval(3.0, 64).unwrap().upper_f64() - 2.0).abs() < 1e-15);
/// ```
pub fn tabulate(orders: &[f64], f: &dyn Fn(f64) -> Result<Enclosure>) -> Result<RenyiCurve> {
    let mut pts = vec![];
    let mut first = None;
    for &a in orders {
        match f(a) {
            Ok(e) if e.is_finite() && e.upper_f64().is_finite() => {
                pts.push((a, e.upper_f64().max(0.0)))
            }
            Ok(_) => {}
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    if pts.is_empty() {
        return Err(first.unwrap_or_else(|| Error::NotCertified {
            what: "Rényi curve".into(),
            reason: "no order gives a finite value".into(),
        }));
    }
    RenyiCurve::tabulated(&pts)
}

/// A Rényi-DP result for one run, before it is tagged with its id: the curve, the
/// hypotheses checked and the notes (parameter translations, readings).
pub struct RdpBound {
    /// The curve.
    pub curve: RenyiCurve,
    /// Hypotheses checked.
    pub hypotheses: Vec<String>,
    /// Notes (translations, readings).
    pub notes: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_reject_bad_input() {
        assert!(RenyiCurve::linear(-1.0).is_err());
        assert!(RenyiCurve::linear(f64::NAN).is_err());
        assert!(RenyiCurve::gaussian(f64::INFINITY).is_err());
        assert!(RenyiCurve::tabulated(&[]).is_err());
        assert!(RenyiCurve::tabulated(&[(1.0, 0.1)]).is_err());
        assert!(RenyiCurve::tabulated(&[(2.0, -0.1)]).is_err());
        assert!(RenyiCurve::tabulated(&[(2.0, 0.1), (2.0, 0.2)]).is_err());
        let f: CurveFn = Arc::new(|a, b| Ok(Enclosure::from_f64(b, a)));
        assert!(RenyiCurve::computed("x", 3.0, 2.0, f.clone()).is_err());
        assert!(RenyiCurve::computed("x", 0.5, 2.0, f).is_err());
    }

    #[test]
    fn tabulated_uses_next_larger_order() {
        let c = RenyiCurve::tabulated(&[(4.0, 0.4), (2.0, 0.2)]).unwrap();
        // α = 3 lies between the orders 2 and 4: monotonicity gives ε(3) ≤ ε(4) = 0.4
        assert!((c.eval(3.0, 64).unwrap().upper_f64() - 0.4).abs() < 1e-15);
        assert!((c.eval(2.0, 64).unwrap().upper_f64() - 0.2).abs() < 1e-15);
        assert!(matches!(c.eval(5.0, 64), Err(Error::Domain { .. })));
        assert!(matches!(c.eval(1.0, 64), Err(Error::Parameter { .. })));
    }

    #[test]
    fn gaussian_curve_encloses_alpha_mu_squared_half() {
        let c = RenyiCurve::gaussian(0.3).unwrap();
        let e = c.eval(7.0, 200).unwrap();
        let exact = 7.0 * 0.09 / 2.0;
        assert!(e.lower_f64() <= exact + 1e-15 && exact - 1e-15 <= e.upper_f64());
        assert!(e.rel_width() < 1e-30);
    }
}
