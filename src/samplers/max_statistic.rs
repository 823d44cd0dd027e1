//! The largest batch sum of one epoch: a one-dimensional post-processing of a shuffled
//! (or balls-in-bins) epoch whose two laws are closed forms, sliced into a finite pair.
//!
//! # Formula
//! In one epoch of `T` batches, let each of the `k` batches that hold the differing
//! record carry the mean `m` and every other batch the mean 0 (public constants
//! removed), each batch sum with noise `N(0, σ²)`, the record's batches chosen at random
//! with any weights (`k = 1` for shuffling; `k` of `T` for random allocation). The
//! largest sum `M = maxₜ yₜ` has the law
//!
//! `F_m(C) = Pr[M ≤ C] = Φ((C − m)/σ)^k · Φ(C/σ)^{T−k}`
//!
//! whatever the weights (each term of the mixture over the record's batches is the same
//! product), and with probability `ρ` the record is in no batch (a dropped last partial
//! batch): `F = (1 − ρ)F_m + ρ Φ(C/σ)^T`. The survival function is written without
//! cancellation, `1 − F_m = (1 − Φ((C − m)/σ)^k) + Φ((C − m)/σ)^k(1 − Φ(C/σ)^{T−k})` with
//! `1 − Φ(x)^j = −expm1(j ln(1 − Φ̄(x)))`.
//!
//! Slicing `M` into cells `(−∞, c₀], (c₀, c₁], …, (c_N, ∞)` is a post-processing, so the
//! pair of cell masses `(q_i, p_i)` (with the record's means `m_Q` and `m_P`) has a
//! privacy profile below that of the epoch: every `(ε, δ)` it does not satisfy, the
//! epoch does not satisfy either. This is the shuffle lower bound of Chua, Ghazi,
//! Kamath, Kumar, Manurangsi, Sinha, Zhang (*How private are DP-SGD implementations?*,
//! ICML 2024: the pair `MoG_T(2)` against `MoG_T(1)` and the test `max > C`; the
//! sliced statistic is their multi-epoch construction in *Scalable DP-SGD: Shuffling vs.
//! Poisson subsampling*, NeurIPS 2024), derived in `proofs/samplers/max-statistic.md`.
//!
//! # Rounding
//! `F` and `1 − F` at every cell edge are MPFR enclosures ([`Enclosure::phi`],
//! [`Enclosure::exp_m1`], [`Enclosure::ln_1p`]); a cell's masses are differences of
//! `F` below the median and of `1 − F` above it, so that small masses are never
//! differences of numbers near 1; each atom is [`Atom::of`] its two enclosures. The cell
//! edges are chosen in f64 (a search: any edges give a valid pair).
use crate::composition::Interval;
use crate::composition::mechanism::{Atom, Inverse, Lattice, Mechanism};
use crate::composition::pld::{Mass, U};
use crate::error::{Error, Result, positive_finite};
use crate::precision::Enclosure;
use crate::precision::special::ln_phi;
use rayon::prelude::*;
use std::sync::Arc;

/// MPFR precision of the cell masses.
const BITS: u32 = 128;

/// Number of cells between the two tail cells.
pub const CELLS: usize = 3000;

/// The sliced largest batch sum of one epoch (see the module doc): the engine's `Q` is
/// the law with the record's mean `m_q`, `P` the law with `m_p`.
#[derive(Debug, Clone)]
pub struct MaxStatistic {
    label: String,
    atoms: Vec<Atom>,
    sup: f64,
}

/// `(Φ(y), Φ̄(y))` from one erfc: the smaller of the two directly, the other as its
/// complement (at most 1/2 subtracted from 1, no cancellation).
fn phi_pair(y: &Enclosure) -> (Enclosure, Enclosure) {
    let one = Enclosure::from_u64(BITS, 1);
    if y.mid_f64() > 0.0 {
        let c = y.phi_c();
        (one.sub(&c), c)
    } else {
        let p = y.phi();
        let c = one.sub(&p);
        (p, c)
    }
}

/// `(F(C), 1 − F(C))` enclosed at one edge `C` for each of the record's means `ms`
/// (`T` batches, `k` of them the record's, drop probability `ρ`): the factor
/// `Φ(C/σ)^{T−k}` is shared.
fn laws(
    c: f64,
    ms: [f64; 2],
    (t, k): (u64, u64),
    sigma: f64,
    rho: &Enclosure,
) -> [(Enclosure, Enclosure); 2] {
    let one = Enclosure::from_u64(BITS, 1);
    let s = Enclosure::from_f64(BITS, sigma);
    let ce = Enclosure::from_f64(BITS, c);
    // Φ(x)^j and 1 − Φ(x)^j from ln Φ(x) = ln(1 − Φ̄(x))
    let pow = |ln_phi: &Enclosure, j: u64| -> (Enclosure, Enclosure) {
        let e = ln_phi.mul(&Enclosure::from_u64(BITS, j));
        (e.exp(), e.exp_m1().neg())
    };
    let ln_phi_x = phi_pair(&ce.div(&s)).1.neg().ln_1p();
    let (all, all_c) = pow(&ln_phi_x, t);
    let (rest, rest_c) = pow(&ln_phi_x, t - k);
    let keep = one.sub(rho);
    ms.map(|m| {
        // k = 1: Φ and Φ̄ from one erfc directly (no ln/exp round trip)
        let (py, py_c) = if k == 1 {
            phi_pair(&ce.sub(&Enclosure::from_f64(BITS, m)).div(&s))
        } else {
            let ln_phi_y = phi_pair(&ce.sub(&Enclosure::from_f64(BITS, m)).div(&s))
                .1
                .neg()
                .ln_1p();
            pow(&ln_phi_y, k)
        };
        let f = py.mul(&rest);
        let f_c = py_c.add(&py.mul(&rest_c));
        (
            keep.mul(&f).add(&rho.mul(&all)),
            keep.mul(&f_c).add(&rho.mul(&all_c)),
        )
    })
}

/// `F(C) = Pr[max ≤ C]` of an epoch of `t` batches with noise σ, the record's mean `m`
/// and drop probability `ρ` (see the module doc), enclosed in MPFR.
///
/// # Errors
/// [`Error::Parameter`] unless `t ≥ 1`, σ finite and > 0, `m` finite, `0 ≤ ρ < 1`.
pub fn max_cdf(c: f64, m: f64, t: u64, sigma: f64, rho: f64) -> Result<Enclosure> {
    if !(t != 0 && sigma.is_finite() && sigma > 0.0 && m.is_finite() && (0.0..1.0).contains(&rho)) {
        return Err(Error::param(
            "max_cdf",
            format!("t={t}, σ={sigma}, m={m}, ρ={rho}"),
            "t ≥ 1, σ finite and > 0, m finite, 0 ≤ ρ < 1",
        ));
    }
    let [(f, _), _] = laws(c, [m, m], (t, 1), sigma, &Enclosure::from_f64(BITS, rho));
    Ok(f)
}

/// `F(C) = Pr[max ≤ C]` of an epoch of `t` batches, `k` of them holding the record (mean
/// `m`), noise σ (see the module doc), enclosed in MPFR.
///
/// # Errors
/// [`Error::Parameter`] unless `1 ≤ k ≤ t`, σ finite and > 0, `m` finite.
pub fn max_cdf_of_k(c: f64, m: f64, t: u64, k: u64, sigma: f64) -> Result<Enclosure> {
    if !(k >= 1 && k <= t && sigma.is_finite() && sigma > 0.0 && m.is_finite()) {
        return Err(Error::param(
            "max_cdf",
            format!("t={t}, k={k}, σ={sigma}, m={m}"),
            "1 ≤ k ≤ t, σ finite and > 0, m finite",
        ));
    }
    let [(f, _), _] = laws(c, [m, m], (t, k), sigma, &Enclosure::from_u64(BITS, 0));
    Ok(f)
}

/// f64 estimate of `ln F(C)` (the lower tail, `C` below the bulk).
fn ln_cdf_estimate(c: f64, m: f64, (t, k): (u64, u64), sigma: f64) -> f64 {
    k as f64 * ln_phi((c - m) / sigma) + (t - k) as f64 * ln_phi(c / sigma)
}

/// f64 estimate of `ln(1 − F(C))` (the upper tail): `≈ ln(kΦ̄((C − m)/σ) + (T − k)Φ̄(C/σ))`.
fn ln_sf_estimate(c: f64, m: f64, (t, k): (u64, u64), sigma: f64) -> f64 {
    let a = (k as f64).ln() + ln_phi(-(c - m) / sigma);
    let b = ((t - k) as f64).ln() + ln_phi(-c / sigma);
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        hi
    } else {
        hi + (lo - hi).exp().ln_1p()
    }
}

/// Bisection of a predicate that holds at `a` and fails at `b` (a search: the caller
/// certifies what it reads): the last `(a, b)` with `pred(a)` and not `pred(b)`.
fn bisect(pred: impl Fn(f64) -> bool, mut a: f64, mut b: f64, steps: usize) -> (f64, f64) {
    for _ in 0..steps {
        let mid = 0.5 * (a + b);
        if pred(mid) {
            a = mid;
        } else {
            b = mid;
        }
    }
    (a, b)
}

/// The point where an increasing `f` crosses `target` on `[a, b]`.
fn crossing(f: impl Fn(f64) -> f64, target: f64, a: f64, b: f64) -> f64 {
    let (a, b) = bisect(|c| f(c) < target, a, b, 200);
    0.5 * (a + b)
}

impl MaxStatistic {
    /// The sliced largest batch sum of an epoch of `t` batches with noise `σ`, the
    /// record's mean `m_q` under `Q` and `m_p` under `P` (`m_q > m_p ≥ 0`), and the
    /// probability `rho` that the record is in no batch.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `t ≥ 1`, σ finite and > 0, `m_q > m_p ≥ 0` finite, and
    /// `0 ≤ ρ < 1`.
    pub fn new(t: u64, sigma: f64, m_q: f64, m_p: f64, rho: f64) -> Result<MaxStatistic> {
        MaxStatistic::of_k(t, 1, sigma, m_q, m_p, rho)
    }

    /// As [`MaxStatistic::new`] with the record in `k` of the `t` batches.
    ///
    /// # Errors
    /// As [`MaxStatistic::new`], and [`Error::Parameter`] unless `1 ≤ k ≤ t`.
    pub fn of_k(t: u64, k: u64, sigma: f64, m_q: f64, m_p: f64, rho: f64) -> Result<MaxStatistic> {
        if t == 0 {
            return Err(Error::param("batches", t, "must be ≥ 1"));
        }
        if k == 0 || k > t {
            return Err(Error::param(
                "participations",
                k,
                &format!("must be in 1..={t} (the batches of an epoch)"),
            ));
        }
        positive_finite(&[("sigma", sigma)])?;
        if !(m_p.is_finite() && m_q.is_finite() && m_p >= 0.0 && m_q > m_p) {
            return Err(Error::param(
                "means",
                format!("{m_q} against {m_p}"),
                "the record's means must be finite with m_q > m_p ≥ 0",
            ));
        }
        if !(0.0..1.0).contains(&rho) {
            return Err(Error::param("rho", rho, "must be in [0, 1)"));
        }
        let rho_e = Enclosure::from_f64(BITS, rho);
        // cell edges: from where the lower law's lower tail is e^{−100} to where the
        // upper law's upper tail is, in CELLS equal steps
        let lo = crossing(
            |c| ln_cdf_estimate(c, m_p, (t, k), sigma),
            -100.0,
            -60.0 * sigma,
            m_q + 60.0 * sigma,
        );
        let hi = crossing(
            |c| -ln_sf_estimate(c, m_q, (t, k), sigma),
            100.0,
            lo,
            m_q + 60.0 * sigma,
        );
        let edges: Vec<f64> = (0..=CELLS)
            .map(|i| lo + (hi - lo) * i as f64 / CELLS as f64)
            .collect();
        let laws: Vec<[(Enclosure, Enclosure); 2]> = edges
            .par_iter()
            .map(|c| laws(*c, [m_q, m_p], (t, k), sigma, &rho_e))
            .collect();
        let zero = Enclosure::from_u64(BITS, 0);
        let half = Enclosure::from_f64(BITS, 0.5);
        // a cell's mass from the tail that is small at its ends
        let cell = |a: &(Enclosure, Enclosure), b: Option<&(Enclosure, Enclosure)>| {
            match b {
                None => a.1.clone(),
                Some(b) if b.0.upper_f64() <= half.lower_f64() => b.0.sub(&a.0),
                Some(b) => a.1.sub(&b.1),
            }
            .max(&zero)
        };
        let mut atoms = Vec::with_capacity(CELLS + 2);
        let mut push = |q: Enclosure, p: Enclosure| {
            if q.upper_f64() > 0.0 && p.lower_f64() > 0.0 {
                atoms.push(Atom::of(&q, &p));
            }
        };
        push(laws[0][0].0.clone(), laws[0][1].0.clone());
        for w in laws.windows(2) {
            push(
                cell(&w[0][0], Some(&w[1][0])),
                cell(&w[0][1], Some(&w[1][1])),
            );
        }
        let last = &laws[CELLS];
        push(cell(&last[0], None), cell(&last[1], None));
        let sup = atoms
            .iter()
            .map(|a| a.loss.1)
            .fold(f64::NEG_INFINITY, f64::max);
        Ok(MaxStatistic {
            label: format!("MaxStatistic(T={t}, k={k}, σ={sigma}, m_Q={m_q}, m_P={m_p}, ρ={rho})"),
            atoms,
            sup,
        })
    }
}

impl MaxStatistic {
    /// A certified bracket of ε(δ) of the sliced pair itself (one epoch), the larger of
    /// its two orders: `δ(ε) = Σᵢ (qᵢ − e^ε pᵢ)₊` read with `qᵢ` low and `pᵢ` high (its
    /// lower end) or the other way (its upper end), each sum and product rounded the
    /// same way; the lower end is the largest ε found with certified `δ(ε) > δ`, the
    /// upper end the smallest with certified `δ(ε) ≤ δ` (bisection: `δ(ε)` decreases).
    pub fn epsilon(&self, delta: f64) -> Interval {
        let n = self.atoms.len() as f64;
        // Σᵢ (qᵢ − e^ε pᵢ)₊ with each pair `(q, p)` read at the ends and rounded the way
        // that makes the sum small (`low`) or large
        let delta_at = |pairs: &[(Mass, Mass)], e: f64, low: bool| -> f64 {
            let s = if low { -1.0 } else { 1.0 };
            let ee = e.exp() * (1.0 - s * 4.0 * U);
            let sum: f64 = pairs
                .iter()
                .map(|(q, p)| {
                    let (q, p) = if low { (q.lo, p.hi) } else { (q.hi, p.lo) };
                    ((q - ee * p * (1.0 - s * 2.0 * U)) * (1.0 + s * 2.0 * U)).max(0.0)
                })
                .sum();
            sum * (1.0 + s * n * U)
        };
        let top = self.sup.max(0.0) + 1.0;
        let mut out = Interval {
            lower: 0.0,
            upper: 0.0,
        };
        for swap in [false, true] {
            let pairs: Vec<(Mass, Mass)> = self
                .atoms
                .iter()
                .map(|a| if swap { (a.p, a.q) } else { (a.q, a.p) })
                .collect();
            // lower: the largest ε found with δ_lo(ε) > δ
            let lower = if delta_at(&pairs, 0.0, true) > delta {
                bisect(|e| delta_at(&pairs, e, true) > delta, 0.0, top, 100).0
            } else {
                0.0
            };
            // upper: the smallest ε found with δ_hi(ε) ≤ δ
            let upper = if delta_at(&pairs, 0.0, false) <= delta {
                0.0
            } else if delta_at(&pairs, top, false) > delta {
                f64::INFINITY
            } else {
                bisect(|e| delta_at(&pairs, e, false) > delta, 0.0, top, 100).1
            };
            out.lower = out.lower.max(lower);
            out.upper = out.upper.max(upper);
        }
        out
    }
}

impl Mechanism for MaxStatistic {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(Inverse(Arc::new(self.clone())))
    }
    fn is_symmetric(&self) -> bool {
        false
    }
    fn atoms(&self) -> Vec<Atom> {
        self.atoms.clone()
    }
    fn loss_reach(&self) -> f64 {
        self.atoms
            .iter()
            .map(|a| a.loss.0.abs().max(a.loss.1.abs()))
            .fold(1.0, f64::max)
    }
    fn loss_spread(&self) -> f64 {
        // the Q-mean of the loss
        self.atoms
            .iter()
            .map(|a| a.q.hi * a.loss.1.abs())
            .sum::<f64>()
            .max(1e-6)
    }
    fn loss_sup(&self) -> Option<f64> {
        Some(self.sup)
    }
    fn atom_lattice(&self) -> Lattice {
        Lattice::Irregular
    }
}
