//! Certified Rényi curves of the `dp_accounting` events without a useful privacy loss
//! distribution, and composition of Rényi curves.
//!
//! * [`zcdp`]: (ξ, ρ)-zCDP, `ε(α) = ξ + ρα` (Bun–Steinke 2016, Def 1.1);
//! * [`tree_aggregation`]: one epoch of Gaussian tree aggregation with restarts,
//!   `ε(α) = α⌈log₂(max steps + 1)⌉/(2σ²)` (Kairouz et al. 2021, App. D);
//! * [`repeat_and_select`]: running a mechanism a random number of times and
//!   releasing the best run (Papernot–Steinke 2022, Thms 2 and 6);
//! * [`laplace`]: the Laplace mechanism (Mironov 2017, Prop 6);
//! * [`compose`]: the sum of curves with multiplicities (Mironov 2017, Prop 1);
//! * [`sampled_without_replacement`]: the refusal of fixed-size sampling, for which
//!   shiftdp has no certified Rényi analysis.
//!
//! Each follows `dp_accounting`'s `RdpAccountant` (python/dp_accounting/rdp/
//! rdp_privacy_accountant.py) and evaluates it as an [`Enclosure`] whose upper end is
//! the bound.
//!
//! # Orders
//! Curves that are not linear are defined for α in [`ORDER_MIN`, `ORDER_MAX`] (the
//! range the conversions search for linear curves), intersected with the domains of
//! the curves they are built from. Where an optimization over an auxiliary order is
//! part of a result (λ̂ in Papernot–Steinke Thm 2, the order of the δ̂ conversion in
//! Thm 6, the monotone fix-up), it runs over [`default_orders`] (dp_accounting's
//! `DEFAULT_RDP_ORDERS`) plus the tabulated orders of the base curve, chosen in f64 and
//! certified at the chosen order: any order gives a valid bound.
//!
//! # References
//! * M. Bun, T. Steinke, *Concentrated differential privacy: simplifications,
//!   extensions, and lower bounds*, TCC 2016.
//! * I. Mironov, *Rényi differential privacy*, CSF 2017.
//! * P. Kairouz, B. McMahan, S. Song, O. Thakkar, A. Thakurta, Z. Xu, *Practical and
//!   private (deep) learning without sampling or shuffling*, ICML 2021
//!   (arXiv:2103.00039).
//! * N. Papernot, T. Steinke, *Hyperparameter tuning with Rényi differential
//!   privacy*, ICLR 2022 (arXiv:2110.03620).
//! * C. Canonne, G. Kamath, T. Steinke, *The discrete Gaussian for differential
//!   privacy*, NeurIPS 2020 (Prop 12: RDP → (ε, δ)).
//! * J. Bretagnolle, C. Huber, *Estimation des densités: risque minimax*, 1979
//!   (TV ≤ √(1 − e^{−KL})).
//! * Y.-X. Wang, B. Balle, S. Kasiviswanathan, *Subsampled Rényi differential
//!   privacy and analytical moments accountant*, AISTATS 2019.
use super::curve::{CurveFn, RenyiCurve, check_order};
use crate::error::{Error, Result, Subject, hyp, positive_finite};
use crate::precision::Enclosure;
use std::sync::Arc;

/// Smallest order of the curves built here that are not linear.
pub const ORDER_MIN: f64 = 1.0 + 1e-6;
/// Largest order of the curves built here that are not linear.
pub const ORDER_MAX: f64 = 1e6;

/// Working precision of the constants computed once per curve.
const CONST_BITS: u32 = 256;

/// The neighboring relation of a dataset pair (dp_accounting's `NeighborRel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NeighboringRelation {
    /// One record added or removed.
    AddOrRemoveOne,
    /// One record replaced by another.
    ReplaceOne,
    /// One record replaced by a special (e.g. zero) record.
    ReplaceSpecial,
}

impl NeighboringRelation {
    /// dp_accounting's name of the relation.
    pub fn id(&self) -> &'static str {
        match self {
            NeighboringRelation::AddOrRemoveOne => "ADD_OR_REMOVE_ONE",
            NeighboringRelation::ReplaceOne => "REPLACE_ONE",
            NeighboringRelation::ReplaceSpecial => "REPLACE_SPECIAL",
        }
    }
}

/// dp_accounting's `DEFAULT_RDP_ORDERS`: `1.1, 1.2, …, 10.9, 11, 12, …, 63, 128, 256,
/// 512, 1024`.
pub fn default_orders() -> Vec<f64> {
    let mut v: Vec<f64> = (1..100).map(|x| 1.0 + x as f64 / 10.0).collect();
    v.extend((11..64).map(|x| x as f64));
    v.extend([128.0, 256.0, 512.0, 1024.0]);
    v
}

fn finite_nonneg(name: &str, x: f64) -> Result<()> {
    if !x.is_finite() || x < 0.0 {
        return Err(Error::param(name, x, "must be finite and ≥ 0"));
    }
    Ok(())
}

/// The orders at which a curve can be evaluated, as a closed interval.
fn domain(c: &RenyiCurve) -> (f64, f64) {
    let (lo, hi) = c.order_range();
    if c.rho().is_some() {
        (ORDER_MIN, ORDER_MAX)
    } else if let Some(orders) = c.tabulated_orders() {
        // a tabulated curve is valid below its first order (monotonicity)
        (ORDER_MIN.min(orders[0]), hi)
    } else {
        (lo, hi)
    }
}

/// [`default_orders`] inside the domain of `c`, plus its tabulated orders.
fn candidate_orders(c: &RenyiCurve) -> Vec<f64> {
    let (lo, hi) = domain(c);
    let mut v: Vec<f64> = default_orders()
        .into_iter()
        .filter(|&a| a >= lo && a <= hi)
        .collect();
    if let Some(t) = c.tabulated_orders() {
        v.extend_from_slice(t);
    }
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// The curve of (ξ, ρ)-zCDP: `ε(α) = ξ + ρα` for every α > 1 (linear when ξ = 0).
///
/// # Formula
/// Bun–Steinke 2016, Def 1.1; dp_accounting's `ZCDpEvent`.
///
/// # Errors
/// [`Error::Parameter`] (`rho`, `xi`) unless ρ and ξ are finite and ≥ 0.
///
/// # Example
/// ```
/// use shiftdp::renyi::events::zcdp;
/// let c = zcdp(0.5, 0.1).unwrap();
/// assert!((c.eval(3.0, 128).unwrap().upper_f64() - 1.6).abs() < 1e-15);
/// ```
pub fn zcdp(rho: f64, xi: f64) -> Result<RenyiCurve> {
    finite_nonneg("rho", rho)?;
    finite_nonneg("xi", xi)?;
    if xi == 0.0 {
        return RenyiCurve::linear(rho);
    }
    let f: CurveFn = Arc::new(move |alpha: f64, bits: u32| {
        let r = Enclosure::from_f64(bits, rho);
        Ok(Enclosure::from_f64(bits, xi) + r * Enclosure::from_f64(bits, alpha))
    });
    RenyiCurve::computed(
        &format!("({xi}, {rho})-zCDP: ε(α) = ξ + ρα"),
        ORDER_MIN,
        ORDER_MAX,
        f,
    )
}

/// The curve of one epoch of the tree aggregation protocol with Gaussian noise (tree
/// restarted after each of `step_counts`, no record used twice across the trees):
/// `ε(α) = α·d/(2σ²)` with depth `d = ⌈log₂(max step_counts + 1)⌉`, σ the noise
/// multiplier.
///
/// # Formula
/// Kairouz et al. 2021, Appendix D; dp_accounting's
/// `SingleEpochTreeAggregationDpEvent` (`_compute_rdp_single_epoch_tree_aggregation`),
/// which takes the largest step count for a list.
///
/// # Hypotheses
/// H1: the neighboring relation is REPLACE_SPECIAL (a record replaced by a special
/// record), the only one dp_accounting accepts for this event.
///
/// # Errors
/// [`Error::Parameter`] (`noise_multiplier`) unless σ is finite and > 0,
/// (`step_counts`) for an empty list; [`Error::Hypothesis`] for another relation.
///
/// # Example
/// ```
/// use shiftdp::renyi::events::{NeighboringRelation, tree_aggregation};
/// // depth ⌈log₂ 101⌉ = 7: ρ = 7/(2·4)
/// let c = tree_aggregation(2.0, &[100, 3], NeighboringRelation::ReplaceSpecial).unwrap();
/// assert_eq!(c.rho_upper_f64(), Some(7.0 / 8.0));
/// ```
pub fn tree_aggregation(
    noise_multiplier: f64,
    step_counts: &[u64],
    relation: NeighboringRelation,
) -> Result<RenyiCurve> {
    positive_finite(&[("noise_multiplier", noise_multiplier)])?;
    let max = *step_counts
        .iter()
        .max()
        .ok_or_else(|| Error::param("step_counts", "[]", "needs at least one count"))?;
    if relation != NeighboringRelation::ReplaceSpecial {
        return Err(hyp(
            Subject::Other("Kairouz et al. 2021, App. D (tree aggregation)"),
            "H1: REPLACE_SPECIAL neighboring relation",
            format!("relation is {}", relation.id()),
        ));
    }
    // ⌈log₂(n + 1)⌉ is the bit length of n
    let depth = u64::from(64 - max.leading_zeros());
    let s = Enclosure::from_f64(CONST_BITS, noise_multiplier);
    let rho =
        Enclosure::from_u64(CONST_BITS, depth) / s.square() / Enclosure::from_u64(CONST_BITS, 2);
    RenyiCurve::linear_enclosure(rho)
}

/// Certified `D_α(Lap(0, b) ‖ Lap(1, b))` at `bits` bits (upper end is the bound).
///
/// # Formula
/// Mironov 2017, Prop 6, with ε = 1/b:
/// `(1/(α−1)) ln(α/(2α−1)·e^{(α−1)ε} + (α−1)/(2α−1)·e^{−αε})`, evaluated as
/// `ε + ln(1 + (α−1)(e^{(1−2α)ε} − 1)/(2α−1))/(α−1)` (no cancellation near α = 1).
///
/// # Errors
/// [`Error::Parameter`] for a bad order or scale; [`Error::Precision`] for bad `bits`.
pub fn laplace_divergence(b: f64, alpha: f64, bits: u32) -> Result<Enclosure> {
    positive_finite(&[("b", b)])?;
    check_order(alpha)?;
    Enclosure::check_bits(bits)?;
    let wp = bits + 32;
    let one = Enclosure::from_u64(wp, 1);
    let eps = one.clone() / Enclosure::from_f64(wp, b);
    let a = Enclosure::from_f64(wp, alpha);
    let am1 = a.clone() - one;
    let tam1 = a + am1.clone(); // 2α − 1
    let t = tam1.neg() * eps.clone(); // (1 − 2α)ε
    let x = am1.clone() * t.exp_m1() / tam1;
    Ok((eps + x.ln_1p() / am1).with_prec(bits))
}

/// The curve of the Laplace mechanism with scale `b` on a sensitivity-1 query,
/// symmetric in the order of the pair.
///
/// # Formula
/// Mironov 2017, Prop 6 (see [`laplace_divergence`]); dp_accounting's
/// `LaplaceDpEvent` with `noise_multiplier = b`.
///
/// # Errors
/// [`Error::Parameter`] (`b`) unless b is finite and > 0.
///
/// # Example
/// ```
/// use shiftdp::renyi::events::laplace;
/// // bounded by the pure-DP ε = 1/b at every order
/// let c = laplace(2.0).unwrap();
/// assert!(c.eval(1000.0, 128).unwrap().upper_f64() <= 0.5);
/// ```
pub fn laplace(b: f64) -> Result<RenyiCurve> {
    positive_finite(&[("b", b)])?;
    let f: CurveFn = Arc::new(move |alpha: f64, bits: u32| laplace_divergence(b, alpha, bits));
    RenyiCurve::computed(&format!("Laplace(b = {b})"), ORDER_MIN, ORDER_MAX, f)
}

/// The composition of `count` runs of each curve: `ε(α) = Σ count_i · ε_i(α)`.
///
/// # Formula
/// Mironov 2017, Prop 1. Linear curves give a linear curve; linear and tabulated
/// curves give a tabulated curve at the union of the tabulated orders (each sum
/// rounded up); otherwise a computed curve on the intersection of the domains.
///
/// # Errors
/// [`Error::Parameter`] (`parts`) for an empty list, (`count`) for a count of 0;
/// [`Error::Domain`] if the domains do not intersect.
///
/// # Example
/// ```
/// use shiftdp::renyi::events::{compose, laplace, zcdp};
/// let c = compose(&[(zcdp(0.1, 0.0).unwrap(), 3), (laplace(1.0).unwrap(), 2)]).unwrap();
/// let l = laplace(1.0).unwrap().eval(4.0, 128).unwrap().upper_f64();
/// assert!((c.eval(4.0, 128).unwrap().upper_f64() - (1.2 + 2.0 * l)).abs() < 1e-12);
/// ```
pub fn compose(parts: &[(RenyiCurve, u64)]) -> Result<RenyiCurve> {
    if parts.is_empty() {
        return Err(Error::param("parts", "[]", "needs at least one curve"));
    }
    if let Some((_, n)) = parts.iter().find(|p| p.1 == 0) {
        return Err(Error::param("count", n, "must be ≥ 1"));
    }
    let name = parts
        .iter()
        .map(|(c, n)| format!("{n} × {}", c.name()))
        .collect::<Vec<_>>()
        .join(" + ");
    let rhos: Vec<(&Enclosure, u64)> = parts
        .iter()
        .filter_map(|(c, n)| c.rho().map(|r| (r, *n)))
        .collect();
    if rhos.len() == parts.len() {
        let mut rho = Enclosure::from_u64(CONST_BITS, 0);
        for (r, n) in rhos {
            rho = rho + r.with_prec(CONST_BITS.max(r.prec())) * Enclosure::from_u64(CONST_BITS, n);
        }
        return RenyiCurve::linear_enclosure(rho);
    }
    let (mut lo, mut hi) = (ORDER_MIN, ORDER_MAX);
    for (c, _) in parts {
        let (a, b) = domain(c);
        lo = lo.max(a);
        hi = hi.min(b);
    }
    if lo > hi {
        return Err(Error::Domain {
            what: format!("composition {name}"),
            reason: "the curves have no common order".into(),
        });
    }
    let sum = |parts: &[(RenyiCurve, u64)], alpha: f64, bits: u32| -> Result<Enclosure> {
        let mut s = Enclosure::from_u64(bits, 0);
        for (c, n) in parts {
            s = s + c.eval(alpha, bits)? * Enclosure::from_u64(bits, *n);
        }
        Ok(s)
    };
    if parts
        .iter()
        .all(|p| p.0.rho().is_some() || p.0.tabulated_orders().is_some())
    {
        let mut orders: Vec<f64> = parts
            .iter()
            .filter_map(|p| p.0.tabulated_orders())
            .flatten()
            .copied()
            .filter(|&a| a <= hi)
            .collect();
        orders.sort_by(f64::total_cmp);
        orders.dedup();
        let mut pts = Vec::with_capacity(orders.len());
        for a in orders {
            pts.push((a, sum(parts, a, CONST_BITS)?.upper_f64().max(0.0)));
        }
        return RenyiCurve::tabulated(&pts);
    }
    let owned: Vec<(RenyiCurve, u64)> = parts.to_vec();
    let f: CurveFn = Arc::new(move |alpha: f64, bits: u32| sum(&owned, alpha, bits));
    RenyiCurve::computed(&name, lo, hi, f)
}

/// f64 estimate of `ln δ̂` at `ε̂` from the value `r` at order `a` (dp_accounting's
/// `compute_delta`).
fn ln_delta_f64(a: f64, r: f64, eps: f64) -> f64 {
    let mut l = if r <= 0.0 {
        f64::NEG_INFINITY
    } else {
        0.5 * (-(-r).exp()).ln_1p()
    };
    if a > 1.01 {
        l = l.min((a - 1.0) * (r - eps + (-1.0 / a).ln_1p()) - a.ln());
    }
    l
}

/// Certified δ such that a mechanism with curve `c` is (ε, δ)-DP, minimized over the
/// candidate orders: `δ = min(1, min_a min(√(1 − e^{−ε_a}), e^{(a−1)(ε_a − ε + ln(1−1/a))}/a))`.
///
/// # Formula
/// Bretagnolle–Huber (TV ≤ √(1 − e^{−KL}) and KL ≤ D_a) and Canonne–Kamath–Steinke
/// 2020, Prop 12, as in dp_accounting's `compute_delta` (second form for a > 1.01).
fn delta_up(c: &RenyiCurve, orders: &[f64], eps: &Enclosure, bits: u32) -> Result<Enclosure> {
    let e = eps.mid_f64();
    let mut best: Option<(f64, f64)> = None;
    for &a in orders {
        if let Some(r) = c.eval_mid_f64(a) {
            let l = ln_delta_f64(a, r, e);
            if !l.is_nan() && best.is_none_or(|b| l < b.1) {
                best = Some((a, l));
            }
        }
    }
    let one = Enclosure::from_u64(bits, 1);
    let Some((a, _)) = best else {
        return Ok(one);
    };
    let r = c.eval(a, bits)?.max(&Enclosure::from_u64(bits, 0));
    let bh = (r.neg().exp_m1().neg()).sqrt();
    let mut d = bh.min(&one);
    if a > 1.01 {
        let ae = Enclosure::from_f64(bits, a);
        let am1 = ae.clone() - one.clone();
        let l = am1 * (r - eps.clone() + (one.clone() / ae.clone()).neg().ln_1p()) - ae.ln();
        d = d.min(&l.exp());
    }
    Ok(d)
}

/// f64 mean of the truncated negative binomial with parameters (γ, η) (Papernot–Steinke
/// 2022, Def 1): `η(1/γ − 1)/(1 − γ^η)`, and `(1/γ − 1)/ln(1/γ)` for η = 0.
fn tnb_mean_f64(gamma: f64, shape: f64) -> f64 {
    let l = -gamma.ln();
    let num = (1.0 / gamma) - 1.0;
    if shape == 0.0 {
        num / l
    } else {
        shape * num / -(-shape * l).exp_m1()
    }
}

/// Certified enclosure of the same mean.
fn tnb_mean(gamma: f64, shape: f64, bits: u32) -> Enclosure {
    let one = Enclosure::from_u64(bits, 1);
    let g = Enclosure::from_f64(bits, gamma);
    let l = g.ln().neg();
    let num = one / g - Enclosure::from_u64(bits, 1);
    if shape == 0.0 {
        num / l
    } else {
        let s = Enclosure::from_f64(bits, shape);
        s.clone() * num / (s * l).neg().exp_m1().neg()
    }
}

/// An upper bound on `ln(1/γ)` for the γ of the truncated negative binomial of shape
/// η and the given mean: a γ₀ with certified mean(γ₀) ≥ mean, so γ₀ ≤ γ (the mean
/// decreases in γ), found by bisection as in dp_accounting's
/// `_gamma_truncated_negative_binomial`.
fn ln_inv_gamma_up(shape: f64, mean: f64) -> Result<Enclosure> {
    let bits = CONST_BITS;
    if mean <= 1.0 {
        // K = 1: the repeated mechanism is the base mechanism; any γ ≤ 1 bounds it
        return Ok(Enclosure::from_u64(bits, 0));
    }
    if (shape - 1.0).abs() <= 0.0 {
        // geometric: γ = 1/mean exactly
        return Ok(Enclosure::from_f64(bits, mean).ln());
    }
    let (mut lo, mut hi) = (0.0f64, (2.0 * (shape + 1.0) / mean).min(1.0));
    while hi > lo * (1.0 + 1e-14) && hi - lo > f64::MIN_POSITIVE {
        let g = 0.5 * (lo + hi);
        if g <= lo || g >= hi {
            break;
        }
        if tnb_mean_f64(g, shape) < mean {
            hi = g;
        } else {
            lo = g;
        }
    }
    let target = rug::Float::with_val(bits, mean);
    let mut g = lo;
    for _ in 0..200 {
        if g > 0.0 && tnb_mean(g, shape, bits).certainly_ge(&target) {
            return Ok(Enclosure::from_f64(bits, g).ln().neg());
        }
        g *= 1.0 - 1e-12;
    }
    Err(Error::NotCertified {
        what: format!("γ of the truncated negative binomial (shape {shape}, mean {mean})"),
        reason: "no certified lower bound found".into(),
    })
}

/// The curve of running a mechanism with curve `base` a random number K of times
/// (E\[K\] = `mean`) and releasing only the best run.
///
/// # Formula
/// Papernot–Steinke 2022, as in dp_accounting's `_compute_rdp_repeat_and_select`:
///
/// * `shape = ∞`, K Poisson (Thm 6): `ε'(λ) = ε(λ) + mean·δ̂ + ln(mean)/(λ−1)`, where
///   the base is (ε̂, δ̂)-DP at `ε̂ = ln(1 + 1/(λ−1))` (δ̂ from the base curve, see the
///   module documentation);
/// * `0 ≤ shape < ∞`, K truncated negative binomial with parameters (γ, η = shape)
///   (Thm 2; shape 1 is geometric, shape 0 logarithmic):
///   `ε'(λ) = ε(λ) + ln(mean)/(λ−1) + (1+η)·min_λ̂ [(1 − 1/λ̂)ε(λ̂) + ln(1/γ)/λ̂]`,
///   then `ε'(λ) ← min_{λ' ≥ λ} ε'(λ')` over the candidate orders (D_λ is
///   non-decreasing in λ).
///
/// # Errors
/// [`Error::Parameter`] (`mean`) unless 1 ≤ mean < ∞, (`shape`) unless shape ≥ 0 (∞
/// allowed); [`Error::NotCertified`] if the base curve gives no finite value.
///
/// # Example
/// ```
/// use shiftdp::renyi::events::repeat_and_select;
/// use shiftdp::tradeoff::RenyiCurve;
/// let base = RenyiCurve::gaussian(0.5).unwrap();
/// let c = repeat_and_select(&base, 10.0, 1.0).unwrap();
/// let e = c.eval(8.0, 128).unwrap().upper_f64();
/// assert!(e > base.eval(8.0, 128).unwrap().upper_f64());
/// ```
pub fn repeat_and_select(base: &RenyiCurve, mean: f64, shape: f64) -> Result<RenyiCurve> {
    if !mean.is_finite() || mean < 1.0 {
        return Err(Error::param("mean", mean, "must be finite and ≥ 1"));
    }
    if shape.is_nan() || shape < 0.0 {
        return Err(Error::param("shape", shape, "must be ≥ 0 (∞ for Poisson)"));
    }
    let (lo, hi) = domain(base);
    let lo = lo.max(ORDER_MIN);
    let hi = hi.min(ORDER_MAX);
    let orders = candidate_orders(base);
    let base = base.clone();
    let ln_mean = Enclosure::from_f64(CONST_BITS, mean).ln();
    if shape == f64::INFINITY {
        let f: CurveFn = Arc::new(move |alpha: f64, bits: u32| {
            let wp = bits + 16;
            let one = Enclosure::from_u64(wp, 1);
            let am1 = Enclosure::from_f64(wp, alpha) - one.clone();
            let eps_hat = (one / am1.clone()).ln_1p();
            let d = delta_up(&base, &orders, &eps_hat, wp)?;
            let e = base.eval(alpha, wp)?
                + Enclosure::from_f64(wp, mean) * d
                + ln_mean.with_prec(wp) / am1;
            Ok(e.with_prec(bits))
        });
        return RenyiCurve::computed(
            &format!("repeat and select (Poisson, mean {mean})"),
            lo,
            hi,
            f,
        );
    }
    let l_inv_gamma = ln_inv_gamma_up(shape, mean)?;
    let lig = l_inv_gamma.mid_f64();
    let mut best: Option<(f64, f64)> = None;
    for &a in &orders {
        if let Some(r) = base.eval_mid_f64(a) {
            let v = (1.0 - 1.0 / a) * r + lig / a;
            if v.is_finite() && best.is_none_or(|b| v < b.1) {
                best = Some((a, v));
            }
        }
    }
    let (ahat, _) = best.ok_or_else(|| Error::NotCertified {
        what: format!("repeat and select on {}", base.name()),
        reason: "the base curve gives no finite value".into(),
    })?;
    let bits = CONST_BITS;
    let one = Enclosure::from_u64(bits, 1);
    let ah = Enclosure::from_f64(bits, ahat);
    let c = Enclosure::from_f64(bits, 1.0 + shape)
        * ((one.clone() - one / ah.clone()) * base.eval(ahat, bits)? + l_inv_gamma / ah);
    let raw = move |b: &RenyiCurve, alpha: f64, bits: u32| -> Result<Enclosure> {
        let am1 = Enclosure::from_f64(bits, alpha) - Enclosure::from_u64(bits, 1);
        Ok(b.eval(alpha, bits)? + ln_mean.with_prec(bits) / am1 + c.with_prec(bits))
    };
    let raw_f64 = {
        let ln_mean = mean.ln();
        move |b: &RenyiCurve, alpha: f64| -> f64 {
            b.eval_mid_f64(alpha)
                .map(|r| r + ln_mean / (alpha - 1.0))
                .unwrap_or(f64::INFINITY)
        }
    };
    let f: CurveFn = Arc::new(move |alpha: f64, bits: u32| {
        let wp = bits + 16;
        // monotone fix-up: the smallest value at an order ≥ α (c is common to all)
        let mut at = (alpha, raw_f64(&base, alpha));
        for &a in orders.iter().filter(|&&a| a > alpha) {
            let v = raw_f64(&base, a);
            if v < at.1 {
                at = (a, v);
            }
        }
        Ok(raw(&base, at.0, wp)?.with_prec(bits))
    });
    RenyiCurve::computed(
        &format!("repeat and select (truncated negative binomial, shape {shape}, mean {mean})"),
        lo,
        hi,
        f,
    )
}

/// Rényi curve of a mechanism run on a fixed-size sample drawn without replacement
/// (dp_accounting's `SampledWithoutReplacementDpEvent`): always refused.
///
/// Under ADD_OR_REMOVE_ONE the sampling probability `sample_size/dataset_size` itself
/// depends on the neighbor, and no certified Rényi bound for fixed-size sampling under
/// that relation is supported (dp_accounting refuses it too). Under REPLACE_ONE the
/// bound of Wang–Balle–Kasiviswanathan 2019 (Thm 27, used by dp_accounting for a
/// Gaussian inner mechanism) applies, but shiftdp does not implement it; Poisson
/// subsampling ([`crate::renyi::sampled_gaussian`]) is the supported alternative.
///
/// # Errors
/// [`Error::Parameter`] unless `1 ≤ sample_size ≤ dataset_size`;
/// [`Error::Hypothesis`] under ADD_OR_REMOVE_ONE (hypothesis `H1: REPLACE_ONE
/// neighboring relation`); [`Error::NotCertified`] otherwise.
pub fn sampled_without_replacement(
    sample_size: u64,
    dataset_size: u64,
    relation: NeighboringRelation,
) -> Result<RenyiCurve> {
    if sample_size == 0 {
        return Err(Error::param("sample_size", sample_size, "must be ≥ 1"));
    }
    if dataset_size < sample_size {
        return Err(Error::param(
            "dataset_size",
            dataset_size,
            "must be ≥ sample_size",
        ));
    }
    match relation {
        NeighboringRelation::AddOrRemoveOne => Err(hyp(
            Subject::Other("sampling without replacement (fixed sample size)"),
            "H1: REPLACE_ONE neighboring relation",
            format!(
                "relation is {}: sampling without replacement under add/remove has no \
                 supported certified Rényi analysis; use REPLACE_ONE or Poisson sampling",
                relation.id()
            ),
        )),
        _ => Err(Error::NotCertified {
            what: "sampling without replacement (fixed sample size)".into(),
            reason: format!(
                "the REPLACE_ONE bound (Wang–Balle–Kasiviswanathan 2019, Thm 27) is not \
                 implemented; relation {}",
                relation.id()
            ),
        }),
    }
}
