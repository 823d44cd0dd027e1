//! Single-step privacy-loss distributions (PLDs) and their certified discretization.
//!
//! # Formula
//! For a pair `(P, Q)` with tradeoff function `f = T(P, Q)` the privacy loss is
//! `L = ln(dQ/dP)` under `Q`; a segment of `f` of slope `−e^ℓ` is an atom of loss `ℓ`
//! (Q-mass = drop of `f`, P-mass = length in α), `1 − f(0)` is Q-mass at `+∞`, and
//! `δ(ε) = 1 + f*(−e^ε) = E_Q[(1 − e^{ε−L})₊]` for every real ε (DRS22 Prop 2.12 /
//! BSA24 §2). Per component (docs/conventions.md §3):
//!
//! * `G(μ)`: `L ~ N(μ²/2, μ²)` under Q and `N(−μ²/2, μ²)` under P.
//! * `f_p = T(P, M)` with `P = N(0,1)`, `M = (1−p)N(0,1) + pN(μ,1)` (Poisson *remove*):
//!   `ℓ(x) = ln(1 − p + p e^{μx − μ²/2})`, increasing in x, with inverse
//!   `x(ℓ) = (ln((e^ℓ − 1 + p)/p) + μ²/2)/μ` for `ℓ > ln(1 − p)`.
//! * `f_p⁻¹ = T(M, P)` (Poisson *add*): the mirror image, an atom `(ℓ, q, p)` of `f_p`
//!   becomes `(−ℓ, p, q)`.
//! * `C_p(G(μ)) = min{f_p, f_p⁻¹}**` (BSA24 Def 4.7): by the piecewise form of
//!   docs/conventions.md §3 (`f_p` on `[0, x*]`, the line of slope −1 on `[x*, f_p(x*)]`,
//!   `f_p⁻¹` beyond, with `x* = Φ(−μ/2)` and `f_p′(x*) = −1`) its PLD is the `ℓ > 0` part
//!   of `f_p`, an atom at `ℓ = 0` of Q-mass `(1−p)(Φ(μ/2) − Φ(−μ/2))`, and the `ℓ < 0` part
//!   of `f_p⁻¹`.
//! * numerically represented curves (and `f_{ε,δ}`): one atom per linear piece.
//!
//! # Discretization (both certified)
//! Grid `t_j = j h` with `h = 2^{−e}` (so every `t_j` is exact).
//! * **Pessimistic** ("connect the dots", Doroshenko et al. 2022): the Q- and P-mass of
//!   the losses in `[t_j, t_{j+1}]` form one atom of loss `ℓ̄` in the bin; it is split
//!   into `t_j`, `t_{j+1}` preserving both masses, weight `w = (1 − (p/q)e^{t_j})/(1 − e^{−h})`
//!   on `t_{j+1}`. The original pair is a post-processing of the split pair, so the
//!   split pair dominates. Masses are replaced by upper bounds and `w` by an upper bound
//!   (moving mass up): `E[(1 − e^{ε − ΣL})₊]` is multilinear with non-negative,
//!   loss-increasing coefficients, so this only increases δ. Mass above the window goes
//!   to `+∞`, mass below it to the lowest grid point (rounding up).
//! * **Optimistic**: merging (fractions of) atoms is a post-processing of the true pair,
//!   so it is dominated by it. Atoms are taken in decreasing loss and merged into groups
//!   whose certified likelihood ratio is `≥ e^{t}` for a grid point `t`; each group is
//!   placed at `t` (rounding its loss down) with a lower bound on its Q-mass. Mass below
//!   the window is dropped; mass above it goes to the top grid point.
//!
//! Both schemes err by `O(h²)` per step in the mean privacy loss (Jensen), not `O(h)` as
//! plain rounding does, which is what makes `k = 8000` steps affordable.
//!
//! # Rounding
//! f64 with a stated error model: every `erfc` value is within relative error
//! [`ERFC_REL_ERR`] of the truth (validated in `tradeoff::gaussian`), an argument error
//! `Δz` perturbs `Φ(z)` relatively by at most `(|z| + 1)Δz` (Mills ratio), values below
//! `1e−290` get the absolute error `1e−290`.
//!
//! # References
//! DRS22 (J. Dong, A. Roth, W. Su, *Gaussian differential privacy*, JRSS-B 2022);
//! BSA24 Def 4.7; V. Doroshenko, B. Ghazi, P. Kamath, R. Kumar, P. Manurangsi,
//! *Connect the dots: tighter discrete approximations of privacy loss distributions*,
//! PETS 2022.
use crate::precision::special;
use crate::tradeoff::PiecewiseLinear;
use crate::tradeoff::gaussian::ERFC_REL_ERR;
use rayon::prelude::*;

/// A little over the unit roundoff 2⁻⁵³.
pub(crate) const U: f64 = 1.2e-16;
/// Values below this carry an absolute (not relative) error of this size.
pub(crate) const TINY: f64 = 1e-290;
/// Relative safety margin of ratio tests in the optimistic grouping.
const GROUP_MARGIN: f64 = 1e-12;

/// The discretization window: grid `t_j = j h`, indices `lo ≤ j < lo + n`.
///
/// The step is `h = k·2^{−s}` with an integer `k < 2^b` of `b ≤ 23` significant bits (a
/// power of two, a value of [`Grid::step_at_least`]'s ladder, `b ≤ 7`, or a lattice step
/// of [`Grid::lattice_step`]), so that every `t_j = j·h` with
/// `|j| < `[`Grid::exact_index`]` = min(2^{52−b}, 2⁴⁵)` is exact in f64 and index
/// computations can be checked by exact products ([`Grid::floor_index`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// Grid step `k·2^{−s}`, `k < 2²³`.
    pub h: f64,
    /// Index of the lowest grid point.
    pub lo: i64,
    /// Number of grid points.
    pub n: usize,
}

/// Significant bits of a lattice step ([`Grid::lattice_step`]): its grid points `j·h` are
/// exact for `|j| < 2²⁹` (with a bit to spare for sums of two indices).
pub const LATTICE_BITS: i32 = 23;

/// `min(2^{52−b}, 2⁴⁵)` for a step of `b` significant bits: an index magnitude below
/// which every `j·h`, and every `(j₁ + j₂)·h` of two such indices (the squaring
/// engine's), is exact in f64 (beyond it [`Grid::floor_index`] does not correct the
/// quotient; such losses are far outside any window).
pub fn exact_index_of(h: f64) -> f64 {
    let m = (h.to_bits() & ((1u64 << 52) - 1)) | (1u64 << 52);
    let bits = 53 - m.trailing_zeros() as i32;
    2f64.powi((52 - bits).min(45))
}

impl Grid {
    /// The smallest step `k·2^{−s}` with an integer `k ∈ [32, 64]` (six significant bits)
    /// that is `≥ x`, for `x ∈ [2⁻¹⁰⁰⁰, 2¹⁰⁰⁰]` (outside, the nearest end): the grid steps
    /// the planner chooses between powers of two.
    ///
    /// # Example
    /// ```
    /// use shiftdp::composition::pld::Grid;
    /// assert_eq!(Grid::step_at_least(0.75), 0.75);
    /// assert_eq!(Grid::step_at_least(2f64.powi(-14)), 2f64.powi(-14));
    /// let h = Grid::step_at_least(4.27e-5);
    /// assert!(h >= 4.27e-5 && h <= 4.27e-5 * (1.0 + 1.0 / 32.0));
    /// ```
    pub fn step_at_least(x: f64) -> f64 {
        // (outside [2⁻¹⁰⁰⁰, 2¹⁰⁰⁰] the nearest end; NaN stays NaN)
        let x = x.clamp(2f64.powi(-1000), 2f64.powi(1000));
        // 2^{e−5} ≤ x/32 … : x = m·2^{e−5} with m ∈ [32, 64)
        let e = x.log2().floor() as i32;
        let unit = 2f64.powi(e - 5);
        let mut k = (x / unit).ceil();
        // (the quotient is exact: unit is a power of two; guard the log's rounding)
        while k * unit < x {
            k += 1.0;
        }
        k * unit
    }

    /// The step `h ≥ x` of at most [`LATTICE_BITS`] significant bits with `n·h ≥ u` for
    /// an integer `n` and the smallest relative gap `(n·h − u)/u` among the `n` from
    /// `⌊u/x⌋` down by an eighth (at most 64 of them): a grid on which losses
    /// `ℓ₀ − c·ũ` (integers `c ≥ 0`, any `ũ ≤ u`) lie just above the grid points
    /// `t_J − c·n·h` once `ℓ₀` lies just above `t_J`, within `c·(n·h − ũ)`; the gap is at
    /// least `2⁻⁴⁰u` (room for the losses' enclosures) and at most `2⁻²¹u`. `None` when
    /// `u < x` or `u` is not finite and positive.
    pub fn lattice_step(u: f64, x: f64) -> Option<f64> {
        if !(u.is_finite() && u > 0.0 && x.is_finite() && x > 0.0) || u < x {
            return None;
        }
        let n0 = (u / x).floor();
        if n0 > 2f64.powi(40) {
            return None;
        }
        let lo = (n0 - (n0 / 8.0).floor()).max(n0 - 63.0).max(1.0);
        let mut best: Option<(f64, f64)> = None;
        let mut n = n0;
        while n >= lo {
            // u/n grown by 2⁻⁴⁰ (covers the division's rounding), then its significand
            // rounded up to LATTICE_BITS bits (exact scaling by powers of two)
            let v = u / n * (1.0 + 2f64.powi(-40));
            let e = v.log2().floor() as i32 - (LATTICE_BITS - 1);
            let unit = 2f64.powi(e);
            let mut k = (v / unit).ceil();
            while k * unit < v {
                k += 1.0;
            }
            let h = k * unit;
            let gap = (n * h - u) / u;
            if best.is_none_or(|(g, _)| gap < g) {
                best = Some((gap, h));
            }
            n -= 1.0;
        }
        best.map(|(_, h)| h)
    }

    /// `min(2^{52−b}, 2⁴⁵)` for this grid's step of `b` significant bits
    /// ([`exact_index_of`]).
    pub fn exact_index(&self) -> f64 {
        exact_index_of(self.h)
    }

    /// The largest integer `j` (as f64) with `j·h ≤ x`: the quotient `⌊x/h⌋`, corrected
    /// by exact products (`x/h` is rounded when `h` is not a power of two). Unchanged
    /// for `|x/h| ≥ `[`Grid::exact_index`] and non-finite `x`.
    pub fn floor_index(&self, x: f64) -> f64 {
        let mut j = (x / self.h).floor();
        if j.is_nan() || j.abs() >= self.exact_index() {
            return j;
        }
        while j * self.h > x {
            j -= 1.0;
        }
        while (j + 1.0) * self.h <= x {
            j += 1.0;
        }
        j
    }

    /// The smallest integer `j` (as f64) with `j·h ≥ x`: `−⌊−x/h⌋` by
    /// [`Grid::floor_index`] (negation is exact).
    pub fn ceil_index(&self, x: f64) -> f64 {
        -self.floor_index(-x)
    }

    /// Loss value `t_j` of window position `i` (exact: see the type's doc).
    pub fn t(&self, i: usize) -> f64 {
        (self.lo + i as i64) as f64 * self.h
    }
    /// Lowest loss of the window.
    pub fn bottom(&self) -> f64 {
        self.t(0)
    }
    /// Highest loss of the window.
    pub fn top(&self) -> f64 {
        self.t(self.n - 1)
    }
}

/// A single-step PLD discretized on a [`Grid`]: untilted Q-masses (upper bounds for
/// `pess`, lower bounds for `opt`) and the mass at `+∞`.
#[derive(Debug, Clone)]
pub struct SingleStep {
    /// Pessimistic Q-masses on the window (upper bounds of a dominating pair).
    pub pess: Vec<f64>,
    /// Pessimistic mass at `+∞`.
    pub pess_inf: f64,
    /// Optimistic Q-masses (lower bounds of a dominated pair).
    pub opt: Vec<f64>,
    /// Optimistic mass at `+∞`.
    pub opt_inf: f64,
}

/// Enclosure `[lo, hi]` of a probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mass {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Mass {
    /// The empty mass.
    pub const ZERO: Mass = Mass { lo: 0.0, hi: 0.0 };
    /// An MPFR enclosure rounded outward to f64 and clamped to `[0, 1]` (a NaN end
    /// becomes the safe end of `[0, 1]`).
    pub fn of(e: &crate::precision::Enclosure) -> Mass {
        Mass::from_ends(e.lower_f64(), e.upper_f64())
    }
    /// `[v − err, v + err]` clamped to `[0, 1]` (a NaN end becomes the safe end).
    pub(crate) fn new(v: f64, err: f64) -> Mass {
        Mass::from_ends(v - err, v + err)
    }
    /// `[lo, hi]` clamped to `[0, 1]`; a NaN lower end is 0 and a NaN upper end is 1, so
    /// that a failed evaluation can only widen the enclosure.
    fn from_ends(lo: f64, hi: f64) -> Mass {
        Mass {
            lo: if lo.is_nan() { 0.0 } else { lo.clamp(0.0, 1.0) },
            hi: if hi.is_nan() { 1.0 } else { hi.clamp(0.0, 1.0) },
        }
    }
}

/// `Φ(z)` and `1 − Φ(z)` with absolute error bounds, given an absolute bound `dz` on
/// the error of the argument. `z = ±∞` are allowed. The tail below ½ is evaluated
/// ([`cdf`]) and the other is its complement.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cdf {
    pub z: f64,
    pub lower: f64,
    pub lower_err: f64,
    pub upper: f64,
    pub upper_err: f64,
}

fn err_of(v: f64, rel: f64) -> f64 {
    if v < TINY { TINY.max(v * rel) } else { v * rel }
}

pub(crate) fn cdf(z: f64, dz: f64) -> Cdf {
    if z == f64::INFINITY {
        return Cdf {
            z,
            lower: 1.0,
            lower_err: 0.0,
            upper: 0.0,
            upper_err: 0.0,
        };
    }
    if z == f64::NEG_INFINITY {
        return Cdf {
            z,
            lower: 0.0,
            lower_err: 0.0,
            upper: 1.0,
            upper_err: 0.0,
        };
    }
    let rel = ERFC_REL_ERR + 4.0 * U + (z.abs() + 1.0) * dz;
    // the small tail (≤ ½) from erfc, the other as its complement: |fl(1 − t̂) − (1 − t)|
    // ≤ |t̂ − t| + u/2, so its error is the small tail's plus U (one erfc per edge)
    if z >= 0.0 {
        let upper = special::phi_c(z);
        let upper_err = err_of(upper, rel);
        Cdf {
            z,
            lower: 1.0 - upper,
            lower_err: upper_err + U,
            upper,
            upper_err,
        }
    } else {
        let lower = special::phi(z);
        let lower_err = err_of(lower, rel);
        Cdf {
            z,
            lower,
            lower_err,
            upper: 1.0 - lower,
            upper_err: lower_err + U,
        }
    }
}

/// `Φ(b) − Φ(a)` for `a ≤ b` as an enclosure, using the accurate tail.
fn diff(a: &Cdf, b: &Cdf) -> Mass {
    if a.z >= 0.0 {
        let v = a.upper - b.upper;
        Mass::new(v, a.upper_err + b.upper_err + U * v.abs())
    } else {
        let v = b.lower - a.lower;
        Mass::new(v, a.lower_err + b.lower_err + U * v.abs())
    }
}

/// A piece of a single-step PLD: Q- and P-mass enclosures, and the grid bin
/// `[t_j, t_{j+1}]` that certainly contains its (merged) loss, if known.
#[derive(Debug, Clone, Copy)]
pub struct Piece {
    /// Q-mass.
    pub q: Mass,
    /// P-mass.
    pub p: Mass,
    /// The bin `j` of `[t_j, t_{j+1}]` that certainly holds the loss (`None`: the loss
    /// is read from the masses, `ln(q/p)`).
    pub bin: Option<i64>,
}

/// What a component contributes before discretization.
#[derive(Debug, Clone, Default)]
pub struct Pieces {
    /// The pieces on the window.
    pub pieces: Vec<Piece>,
    /// Q-mass at `+∞`.
    pub inf: Option<Mass>,
    /// Q-mass of losses above the window top (finite losses).
    pub above: Option<Mass>,
    /// Q-mass of losses below the window bottom.
    pub below: Option<Mass>,
}

/// The four single-step kinds the engine knows in closed form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    /// `G(μ)`.
    Gaussian(f64),
    /// `C_p(G(μ))`, symmetrized.
    Symmetrized(f64, f64),
    /// `f_p` (remove).
    Remove(f64, f64),
    /// `f_p⁻¹` (add).
    Add(f64, f64),
}

/// `z` with `Φ(−z) ≤ cut` (Chernoff: `Φ(−z) ≤ e^{−z²/2}`), the tail the discretization
/// may treat in bulk; `∞` for `cut = 0`.
pub(crate) fn cut_z(cut: f64) -> f64 {
    if cut > 0.0 && cut < 1.0 {
        (-2.0 * cut.ln()).sqrt()
    } else {
        f64::INFINITY
    }
}

/// A piece whose whole Q-mass `hi` the pessimistic scheme puts at grid index `j` (its
/// losses lie at or below `t_j`) and the optimistic scheme drops: a bulk tail.
fn tail_at(j: i64, hi: f64) -> Piece {
    Piece {
        q: Mass { lo: 0.0, hi },
        p: Mass { lo: 0.0, hi: 1.0 },
        bin: Some(j - 1),
    }
}

/// Hands `f(0), …, f(count − 1)` to `visit` in that order, computing them in parallel
/// in chunks of 2¹⁴ (`f` is a pure function of its index: the values, hence every
/// piece built from them, are those of the sequential loop).
pub(crate) fn in_order<T: Send>(
    count: usize,
    f: impl Fn(usize) -> T + Sync + Send,
    mut visit: impl FnMut(T),
) {
    const CHUNK: usize = 1 << 14;
    let mut start = 0;
    while start < count {
        let end = (start + CHUNK).min(count);
        let vals: Vec<T> = (start..end).into_par_iter().map(&f).collect();
        vals.into_iter().for_each(&mut visit);
        start = end;
    }
}

/// Gaussian PLD pieces on the window. Grid cells whose Q-mass is certainly below `cut`
/// in bulk (beyond `μ²/2 ± μ·cut_z(cut)`) are not resolved: the mass below goes
/// (pessimistically) to the first resolved point, the mass above to `+∞`.
pub(crate) fn gaussian_pieces(mu: f64, g: &Grid, cut: f64) -> Pieces {
    let mut out = Pieces::default();
    if mu == 0.0 {
        out.pieces.push(Piece {
            q: Mass { lo: 1.0, hi: 1.0 },
            p: Mass { lo: 1.0, hi: 1.0 },
            bin: Some(0),
        });
        return out;
    }
    let m = 0.5 * mu * mu;
    let z = |t: f64, shift: f64| gaussian_cdf(t, shift, mu);
    let zc = cut_z(cut);
    let (i0, i1) = if zc.is_finite() {
        // in f64 first: a huge μ must not overflow the integer grid (found by the fuzzer)
        let last = (g.n - 1) as f64;
        // one cell of room either side, so that a nearly atomic G(μ) (μ → 0) still has
        // its mass in a resolved bin and not in the bulk tails
        let a = (((m - mu * zc) / g.h).floor() - 1.0 - g.lo as f64).clamp(0.0, last);
        let b = (((m + mu * zc) / g.h).ceil() + 1.0 - g.lo as f64).clamp(0.0, last);
        (a as usize, b as usize)
    } else {
        (0, g.n - 1)
    };
    let mut qa = z(g.t(i0), -m);
    let mut pa = z(g.t(i0), m);
    let below = (qa.lower + qa.lower_err).min(1.0);
    if i0 == 0 {
        out.below = Some(Mass { lo: 0.0, hi: below });
    } else {
        out.pieces.push(tail_at(g.lo + i0 as i64, below));
    }
    let mut i = i0;
    in_order(
        i1 - i0,
        |r| {
            let t1 = g.t(i0 + r + 1);
            (z(t1, -m), z(t1, m))
        },
        |(qb, pb)| {
            out.pieces.push(Piece {
                q: diff(&qa, &qb),
                p: diff(&pa, &pb),
                bin: Some(g.lo + i as i64),
            });
            qa = qb;
            pa = pb;
            i += 1;
        },
    );
    let above = Mass::new(qa.upper, qa.upper_err);
    out.above = Some(if i1 == g.n - 1 {
        above
    } else {
        // not above the window top: only the pessimistic +∞ is sound
        Mass {
            lo: 0.0,
            hi: above.hi,
        }
    });
    out
}

/// `Φ((t + shift)/μ)` of `G(μ)`'s loss `t` as a [`Cdf`] (`shift = ∓μ²/2`: the Q- and
/// P-side), with the argument's error bound.
pub(crate) fn gaussian_cdf(t: f64, shift: f64, mu: f64) -> Cdf {
    let v = (t + shift) / mu;
    let dz = 8.0 * U * (t.abs() + 0.5 * mu * mu + 1.0) / mu + 4.0 * U * v.abs();
    cdf(v, dz)
}

/// The Q- and P-mass `(1 − p)(Φ(μ/2) − Φ(−μ/2))` of `C_p(G(μ))`'s atom at loss 0 (the
/// hull's segment of slope −1).
pub(crate) fn symmetrized_atom(p: f64, mu: f64) -> Mass {
    let a = cdf(-0.5 * mu, 2.0 * U * mu);
    let b = cdf(0.5 * mu, 2.0 * U * mu);
    let d = diff(&a, &b);
    Mass {
        lo: (1.0 - p) * d.lo * (1.0 - 4.0 * U),
        hi: ((1.0 - p) * d.hi * (1.0 + 4.0 * U)).min(1.0),
    }
}

/// `ln((e^ℓ − 1 + p)/p)` where `e^ℓ/p` overflows f64 (ℓ near or above 709.78), with an
/// absolute error bound: `ℓ − ln p + ln(1 − (1 − p)e^{−ℓ})`, the last term below e^{−700}
/// in size; the bound covers the errors of ln p (≤ FN_REL_ERR = 4U relative), of that
/// term and of the two sums, generously.
pub(crate) fn ln_mix_ratio_beyond_exp(l: f64, p: f64) -> (f64, f64) {
    let lp = p.ln();
    let v = l - lp + (-(1.0 - p) * (-l).exp()).ln_1p();
    (v, 8.0 * U * (l.abs() + lp.abs() + 2.0))
}

/// `x(ℓ)` of the `f_p` branch with an argument-error bound (−∞ for `ℓ ≤ ln(1−p)`).
fn x_of_loss(l: f64, p: f64, mu: f64) -> (f64, f64) {
    let e = l.exp_m1() + p; // e^ℓ − 1 + p
    if e / p == f64::INFINITY && l.is_finite() {
        let (lr, dlr) = ln_mix_ratio_beyond_exp(l, p);
        let x = (lr + 0.5 * mu * mu) / mu;
        let dx = dlr / mu + 6.0 * U * (x.abs() + mu + 1.0);
        return (x, dx);
    }
    if e <= 0.0 || !e.is_finite() {
        if e.is_finite() {
            return (f64::NEG_INFINITY, 0.0);
        }
        return (f64::INFINITY, 0.0);
    }
    let r = e / p;
    let lr = r.ln();
    // relative error of e: expm1 (≤ 2U relative of |expm1|) plus the addition
    let rel_e = (4.0 * U * (l.exp_m1().abs() + p) / e + 2.0 * U).min(0.5);
    let dlr = 2.0 * rel_e + 2.0 * U * (lr.abs() + 1.0);
    let x = (lr + 0.5 * mu * mu) / mu;
    let dx = dlr / mu + 6.0 * U * (x.abs() + mu + 1.0);
    (x, dx)
}

/// One f_p-branch edge: `(Φ(x), Φ(x − μ))` as [`Cdf`]s.
pub(crate) fn fp_edge(l: f64, p: f64, mu: f64) -> (Cdf, Cdf) {
    let (x, dx) = x_of_loss(l, p, mu);
    let a = cdf(x, dx);
    let b = if x.is_finite() {
        cdf(x - mu, dx + 2.0 * U * (x.abs() + mu))
    } else {
        cdf(x, 0.0)
    };
    (a, b)
}

/// `(M-mass, P-mass)` of `X ∈ (x(ℓ_a), x(ℓ_b)]` on the f_p branch.
fn fp_bin(ea: &(Cdf, Cdf), eb: &(Cdf, Cdf), p: f64) -> (Mass, Mass) {
    let d0 = diff(&ea.0, &eb.0);
    let d1 = diff(&ea.1, &eb.1);
    let m = Mass {
        lo: ((1.0 - p) * d0.lo + p * d1.lo) * (1.0 - 4.0 * U),
        hi: (((1.0 - p) * d0.hi + p * d1.hi) * (1.0 + 4.0 * U)).min(1.0),
    };
    (m, d0)
}

/// Upper tails `(M(X > x), P(X > x))` at an edge.
pub(crate) fn fp_tail(e: &(Cdf, Cdf), p: f64) -> (Mass, Mass) {
    fp_mix(
        Mass::new(e.0.upper, e.0.upper_err),
        Mass::new(e.1.upper, e.1.upper_err),
        p,
    )
}

/// Lower tails `(M(X ≤ x), P(X ≤ x))` at an edge.
pub(crate) fn fp_head(e: &(Cdf, Cdf), p: f64) -> (Mass, Mass) {
    fp_mix(
        Mass::new(e.0.lower, e.0.lower_err),
        Mass::new(e.1.lower, e.1.lower_err),
        p,
    )
}

/// `((1 − p)m₀ + p m₁, m₀)`: the mixture `M`'s mass and `P`'s, rounded outward.
fn fp_mix(m0: Mass, m1: Mass, p: f64) -> (Mass, Mass) {
    (
        Mass {
            lo: ((1.0 - p) * m0.lo + p * m1.lo) * (1.0 - 4.0 * U),
            hi: (((1.0 - p) * m0.hi + p * m1.hi) * (1.0 + 4.0 * U)).min(1.0),
        },
        m0,
    )
}

/// Pieces of `f_p` (remove), `f_p⁻¹` (add) or `C_p(G(μ))` (symmetrized). Losses whose
/// tail Q-mass is certainly below `cut` in bulk (the f_p branch beyond
/// `x(ℓ) > μ + cut_z(cut)`, the mirror beyond `x > cut_z(cut)`) are not resolved: the
/// pessimistic scheme moves them up (the upper tail to `+∞`), the optimistic drops them.
pub(crate) fn subsampled_pieces(kind: Kind, g: &Grid, cut: f64) -> Pieces {
    let (p, mu, remove_side, add_side, atom) = match kind {
        Kind::Remove(p, mu) => (p, mu, true, false, false),
        Kind::Add(p, mu) => (p, mu, false, true, false),
        Kind::Symmetrized(p, mu) => (p, mu, true, true, true),
        Kind::Gaussian(mu) => return gaussian_pieces(mu, g, cut),
    };
    if p == 0.0 || mu == 0.0 {
        return gaussian_pieces(0.0, g, cut);
    }
    let zc = cut_z(cut);
    // ℓ(x) = ln(1 − p + p e^{μx − μ²/2}) at x = μ + z_c (remove) and x = z_c (mirror)
    let loss_at = |x: f64| (p * (mu * x - 0.5 * mu * mu).exp() - p).ln_1p();
    let (j_cut_hi, j_cut_lo) = if zc.is_finite() {
        let a = loss_at(mu + zc);
        let b = loss_at(zc);
        (
            if a.is_finite() {
                g.ceil_index(a) as i64
            } else {
                i64::MAX / 4
            },
            if b.is_finite() {
                (g.ceil_index(b) as i64).saturating_neg()
            } else {
                i64::MIN / 4
            },
        )
    } else {
        (i64::MAX / 4, i64::MIN / 4)
    };
    let mut out = Pieces::default();
    let ln1p = (-p).ln_1p(); // ln(1 − p) (≤ 0)
    let sym = atom;
    // Remove side: losses ℓ in (max(ln(1−p), bottom), top]; for C_p only ℓ > 0.
    if remove_side {
        let j0 = if sym {
            0
        } else {
            (g.floor_index(ln1p) as i64).max(g.lo)
        };
        let jwin = g.lo + g.n as i64 - 1;
        let jtop = jwin.min(j_cut_hi.max(j0 + 1));
        if j0 < jtop {
            let mut ea = fp_edge(j0 as f64 * g.h, p, mu);
            if !sym && g.lo as f64 * g.h > ln1p {
                // mass below the window: M(X ≤ x(bottom))
                let (x, dx) = x_of_loss(g.bottom(), p, mu);
                let a = cdf(x, dx);
                let b = cdf(x - mu, dx + 2.0 * U * (x.abs() + mu));
                out.below = Some(Mass {
                    lo: 0.0,
                    hi: ((1.0 - p) * (a.lower + a.lower_err) + p * (b.lower + b.lower_err))
                        * (1.0 + 4.0 * U),
                });
            }
            let mut j = j0;
            in_order(
                (jtop - j0) as usize,
                |i| fp_edge((j0 + 1 + i as i64) as f64 * g.h, p, mu),
                |eb| {
                    let (m, pp) = fp_bin(&ea, &eb, p);
                    out.pieces.push(Piece {
                        q: m,
                        p: pp,
                        bin: Some(j),
                    });
                    ea = eb;
                    j += 1;
                },
            );
            let (m, _) = fp_tail(&ea, p);
            out.above = Some(if jtop == jwin {
                m
            } else {
                // cut before the window top: only the pessimistic +∞ is sound
                Mass { lo: 0.0, hi: m.hi }
            });
        }
    }
    // Add side: mirror image; an f_p bin of losses [a, b] gives losses [−b, −a].
    if add_side {
        // losses of the mirror lie in [bottom, min(0 or −ln(1−p), top)]
        let jmax = if sym {
            0
        } else {
            (g.ceil_index(-ln1p) as i64).max(0)
        };
        let jtop = (g.lo + g.n as i64 - 1).min(jmax);
        // mirrored bin [t_{j}, t_{j+1}] ↔ f_p bin [−t_{j+1}, −t_j]
        let mut eb = fp_edge(-(jtop as f64) * g.h, p, mu);
        let mut j = jtop;
        let jlow = g.lo.max(j_cut_lo.min(jtop - 1));
        let count = if jtop > jlow {
            (jtop - jlow) as usize
        } else {
            0
        };
        in_order(
            count,
            |i| fp_edge(-((jtop - 1 - i as i64) as f64) * g.h, p, mu),
            |ea| {
                // f_p bin of losses [−t_j, −t_{j−1}]: edges eb (at −t_j) and ea (at −t_{j−1})
                let (m, pp) = fp_bin(&eb, &ea, p);
                out.pieces.push(Piece {
                    q: pp,
                    p: m,
                    bin: Some(j - 1),
                });
                eb = ea;
                j -= 1;
            },
        );
        // below the window (or the cut): f_p losses > −t_j: Q-mass = P(X > x(−t_j))
        let (_, pt) = fp_tail(&eb, p);
        if j == g.lo {
            out.below = Some(Mass {
                lo: 0.0,
                hi: out.below.map_or(0.0, |b| b.hi) + pt.hi,
            });
        } else {
            out.pieces.push(tail_at(j, pt.hi));
        }
        if !sym && jmax > g.lo + g.n as i64 - 1 {
            // mirror losses above the top: f_p losses in (ln(1−p), −top): P-mass there
            let et = fp_edge(-g.top(), p, mu);
            let pm = Mass::new(et.0.lower, et.0.lower_err);
            out.above = Some(pm);
        }
    }
    if atom {
        let m = symmetrized_atom(p, mu);
        out.pieces.push(Piece {
            q: m,
            p: m,
            bin: Some(0),
        });
    }
    out
}

/// Atoms of a piecewise-linear tradeoff curve: one per segment of negative slope, and
/// `1 − f(0)` at `+∞`.
pub(crate) fn curve_pieces(f: &PiecewiseLinear) -> Pieces {
    let v = f.vertices();
    let mut out = Pieces::default();
    let inf = 1.0 - v[0].1;
    if inf > 0.0 {
        out.inf = Some(Mass::new(inf, U * 2.0));
    }
    for w in v.windows(2) {
        let (a0, b0) = w[0];
        let (a1, b1) = w[1];
        let q = b0 - b1;
        let p = a1 - a0;
        if q <= 0.0 {
            continue; // flat piece: loss −∞, no Q-mass
        }
        let qe = U * (b0.abs() + b1.abs());
        if p <= 0.0 {
            out.inf = Some(Mass {
                lo: out.inf.map_or(0.0, |m| m.lo) + (q - qe).max(0.0),
                hi: out.inf.map_or(0.0, |m| m.hi) + q + qe,
            });
            continue;
        }
        let pe = U * (a0.abs() + a1.abs());
        out.pieces.push(Piece {
            q: Mass::new(q, qe),
            p: Mass::new(p, pe),
            bin: None,
        });
    }
    out
}

/// `ln(q/p)` bounds of a piece: `(lower, upper)`.
pub(crate) fn loss_bounds(pc: &Piece) -> (f64, f64) {
    let lo = if pc.q.lo > 0.0 && pc.p.hi > 0.0 {
        (pc.q.lo / pc.p.hi).ln()
    } else {
        f64::NEG_INFINITY
    };
    let hi = if pc.p.lo > 0.0 {
        (pc.q.hi / pc.p.lo).ln()
    } else {
        f64::INFINITY
    };
    let m = |x: f64| 4.0 * U * (x.abs() + 1.0);
    (lo - m(lo), hi + m(hi))
}

/// Discretizes pieces on the grid, pessimistically and optimistically.
pub(crate) fn discretize(pcs: &Pieces, g: &Grid) -> SingleStep {
    let mut s = discretize_truncated(pcs, g);
    s.pess.resize(g.n, 0.0);
    s.opt.resize(g.n, 0.0);
    s
}

/// [`discretize`] with each side's vector ending at its last non-zero mass (at least
/// one value, at most `g.n`): the values beyond are zero and are never written, so a
/// single step whose support fills a small part of a long window costs that part only.
pub(crate) fn discretize_truncated(pcs: &Pieces, g: &Grid) -> SingleStep {
    let n = g.n;
    let top = g.lo + n as i64 - 1;
    let mut pess = vec![0.0; 1];
    let mut opt = vec![0.0; 1];
    // adds m at index i, lengthening v (with zeros) to hold it
    let add = |v: &mut Vec<f64>, i: usize, m: f64| {
        if i >= v.len() {
            if m == 0.0 {
                return;
            }
            v.resize(i + 1, 0.0);
        }
        v[i] += m;
    };
    let mut pess_inf = pcs.inf.map_or(0.0, |m| m.hi);
    let mut opt_inf = pcs.inf.map_or(0.0, |m| m.lo);
    if let Some(b) = pcs.below {
        pess[0] += b.hi;
    }
    if let Some(a) = pcs.above {
        pess_inf += a.hi;
        add(&mut opt, n - 1, a.lo);
    }
    let put = |v: &mut Vec<f64>, inf: &mut f64, j: i64, m: f64| {
        if j > top {
            *inf += m;
        } else {
            add(v, (j.max(g.lo) - g.lo) as usize, m);
        }
    };
    let one_m_e = -(-g.h).exp_m1() * (1.0 - 4.0 * U); // 1 − e^{−h}, rounded down
    // ---- pessimistic: connect-the-dots split with upward-rounded weights ----
    for pc in &pcs.pieces {
        if pc.q.hi <= 0.0 {
            continue;
        }
        if pc.p.hi <= 0.0 {
            pess_inf += pc.q.hi;
            continue;
        }
        let (llo, lhi) = loss_bounds(pc);
        let bin = pc.bin.or_else(|| {
            let j = g.floor_index(llo);
            if j.is_finite() && lhi <= (j + 1.0) * g.h {
                Some(j as i64)
            } else {
                None
            }
        });
        match bin {
            Some(j) => {
                if pc.p.lo <= 0.0 {
                    put(&mut pess, &mut pess_inf, j + 1, pc.q.hi);
                    continue;
                }
                let tj = j as f64 * g.h;
                // w = (1 − (p/q) e^{t_j})/(1 − e^{−h}); upper bound: p low, q high
                let r = (pc.p.lo / pc.q.hi) * tj.exp() * (1.0 - 8.0 * U);
                let w = ((1.0 - r) / one_m_e * (1.0 + 4.0 * U)).clamp(0.0, 1.0);
                let b = pc.q.hi * w;
                let a = (pc.q.hi - b).max(0.0);
                put(&mut pess, &mut pess_inf, j, a);
                put(&mut pess, &mut pess_inf, j + 1, b);
            }
            None => {
                if lhi == f64::INFINITY {
                    pess_inf += pc.q.hi;
                } else {
                    let j = g.ceil_index(lhi) as i64;
                    put(&mut pess, &mut pess_inf, j, pc.q.hi);
                }
            }
        }
    }
    // ---- optimistic: merge fractions of atoms into groups of ratio ≥ e^{t} ----
    let mut atoms: Vec<(f64, f64, f64)> = Vec::with_capacity(pcs.pieces.len());
    for pc in &pcs.pieces {
        if pc.q.lo <= 0.0 {
            continue;
        }
        if pc.p.hi <= 0.0 {
            opt_inf += pc.q.lo;
            continue;
        }
        let (llo, _) = loss_bounds(pc);
        let llo = match pc.bin {
            Some(j) => llo.max(j as f64 * g.h),
            None => llo,
        };
        atoms.push((pc.q.lo, pc.p.hi, llo));
    }
    atoms.sort_by(|a, b| b.2.total_cmp(&a.2));
    let emit = |opt: &mut Vec<f64>, j: i64, q: f64| {
        if j >= g.lo {
            add(opt, (j.min(top) - g.lo) as usize, q * (1.0 - GROUP_MARGIN));
        }
    };
    // current group: (index, Q, P, count)
    let mut cur: Option<(i64, f64, f64, usize)> = None;
    for &(q, p, l) in &atoms {
        let mut r = 1.0f64;
        let mut guard = 0;
        while r > 0.0 && guard < 4 {
            guard += 1;
            match cur {
                None => {
                    let j = if l == f64::NEG_INFINITY {
                        i64::MIN / 2
                    } else {
                        (g.floor_index(l) as i64).min(top + 1)
                    };
                    cur = Some((j, r * q, r * p, 1));
                    r = 0.0;
                }
                Some((j, qg, pg, cnt)) => {
                    let e = (j as f64 * g.h).exp() * (1.0 + GROUP_MARGIN);
                    if cnt < 500 && qg + r * q >= e * (pg + r * p) {
                        cur = Some((j, qg + r * q, pg + r * p, cnt + 1));
                        r = 0.0;
                    } else {
                        let den = e * p - q;
                        let mut th = if den > 0.0 && cnt < 500 {
                            ((qg - e * pg) / den * (1.0 - 1e-9)).clamp(0.0, r)
                        } else {
                            0.0
                        };
                        // re-check the ratio (den may have cancelled); shrink if needed
                        let mut tries = 0;
                        while th > 0.0 && qg + th * q < e * (pg + th * p) {
                            th = if tries < 60 { th * 0.5 } else { 0.0 };
                            tries += 1;
                        }
                        emit(&mut opt, j, qg + th * q);
                        cur = None;
                        r -= th;
                    }
                }
            }
        }
    }
    if let Some((j, qg, _, _)) = cur {
        emit(&mut opt, j, qg);
    }
    SingleStep {
        pess,
        pess_inf,
        opt,
        opt_inf,
    }
}

/// Single-step pieces of a closed-form kind; `cut` as in [`subsampled_pieces`] (0: resolve
/// every cell of the window).
pub(crate) fn kind_pieces(kind: Kind, g: &Grid, cut: f64) -> Pieces {
    match kind {
        Kind::Gaussian(mu) => gaussian_pieces(mu, g, cut),
        k => subsampled_pieces(k, g, cut),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Inputs outside the ladder's range give its nearest end (NaN stays NaN), never a
    /// panic or 0.
    #[test]
    fn ladder_step_of_extreme_inputs() {
        let lo = 2f64.powi(-1000);
        for x in [0.0, -1.0, f64::MIN_POSITIVE, 1e-320, f64::NEG_INFINITY] {
            assert_eq!(Grid::step_at_least(x).to_bits(), lo.to_bits(), "{x}");
        }
        assert_eq!(
            Grid::step_at_least(f64::INFINITY).to_bits(),
            2f64.powi(1000).to_bits()
        );
        assert!(Grid::step_at_least(f64::NAN).is_nan());
    }

    proptest! {
        /// The ladder step is the smallest `k·2^{e−5}` (k ≤ 64) at or above x, and the
        /// indices of a ladder grid are exact floors and ceilings: `j·h ≤ x < (j+1)·h`
        /// and `(j−1)·h < x ≤ j·h`, checked in exact rational arithmetic.
        #[test]
        fn ladder_steps_and_indices_are_exact(
            lx in -30.0f64..2.0,
            y in -1e4f64..1e4,
            frac in 0.0f64..1.0,
        ) {
            let x = 2f64.powf(lx);
            let h = Grid::step_at_least(x);
            let q = |v: f64| rug::Rational::from_f64(v).unwrap();
            prop_assert!(q(h) >= q(x));
            prop_assert!(q(h) <= q(x) * rug::Rational::from((33, 32)));
            let g = Grid { h, lo: 0, n: 2 };
            // y itself, and a point exactly on the grid (where rounding matters most)
            let on = (y / h).round() * h;
            for v in [y, on, on + frac * h, on - frac * h] {
                let (f, c) = (g.floor_index(v), g.ceil_index(v));
                prop_assert!(q(f) * q(h) <= q(v) && q(v) < (q(f) + 1) * q(h), "floor at {v}");
                prop_assert!((q(c) - 1) * q(h) < q(v) && q(v) <= q(c) * q(h), "ceil at {v}");
            }
        }
    }

    proptest! {
        /// A lattice step has at most `LATTICE_BITS` significant bits, lies in
        /// `[x, u(1 + 2⁻²⁰)]`, divides `u` up to a gap `0 < n·h − u ≤ 2⁻²¹u` (exact
        /// rational arithmetic), and its grid's indices are exact floors and ceilings
        /// up to its exact index bound, where `(j₁ + j₂)·h` of two indices stays exact.
        #[test]
        fn lattice_steps_divide_the_unit_and_index_exactly(
            u in 1e-6f64..10.0,
            r in 1.0f64..5000.0,
            y in -1.0f64..1.0,
            frac in 0.0f64..1.0,
        ) {
            let x = u / r;
            let h = Grid::lattice_step(u, x).unwrap();
            let q = |v: f64| rug::Rational::from_f64(v).unwrap();
            let m = (h.to_bits() & ((1u64 << 52) - 1)) | (1u64 << 52);
            prop_assert!(53 - m.trailing_zeros() as i32 <= LATTICE_BITS);
            prop_assert!(h >= x && h <= u * (1.0 + 2f64.powi(-20)));
            let n = (u / h).ceil();
            let gap = q(n) * q(h) - q(u);
            prop_assert!(gap > 0 && gap <= q(u) * q(2f64.powi(-21)), "gap {gap}");
            let g = Grid { h, lo: 0, n: 2 };
            let big = (g.exact_index() / 2.0 - 1.0) * y.abs();
            prop_assert!(g.exact_index() >= 2f64.powi(29));
            let j = big.floor();
            prop_assert!(q(2.0 * j) * q(h) == q((2.0 * j) * h));
            let on = (y * big).round() * h;
            for v in [y * 10.0, on, on + frac * h, on - frac * h] {
                let (f, c) = (g.floor_index(v), g.ceil_index(v));
                prop_assert!(q(f) * q(h) <= q(v) && q(v) < (q(f) + 1) * q(h), "floor at {v}");
                prop_assert!((q(c) - 1) * q(h) < q(v) && q(v) <= q(c) * q(h), "ceil at {v}");
            }
        }
    }

    /// `in_order` hands every value to `visit` once, in index order, across chunk
    /// boundaries (2¹⁴) and for an empty range.
    #[test]
    fn in_order_visits_every_value_in_order() {
        for count in [
            0usize,
            1,
            5,
            (1 << 14) - 1,
            1 << 14,
            (1 << 14) + 1,
            3 * (1 << 14) + 7,
        ] {
            let f = |i: usize| (i as f64 * 0.37).sin() + i as f64;
            let mut got = Vec::with_capacity(count);
            in_order(count, f, |v| got.push(v));
            let want: Vec<f64> = (0..count).map(f).collect();
            assert_eq!(got.len(), count);
            assert!(
                got.iter()
                    .zip(&want)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            );
        }
    }

    fn grid() -> Grid {
        let h = 2f64.powi(-8);
        Grid {
            h,
            lo: -(12.0 / h) as i64,
            n: (24.0 / h) as usize + 1,
        }
    }

    #[test]
    fn masses_sum_to_one() {
        let g = grid();
        for kind in [
            Kind::Gaussian(1.0),
            Kind::Symmetrized(0.1, 1.0),
            Kind::Remove(0.1, 1.0),
            Kind::Add(0.1, 1.0),
        ] {
            let s = discretize(&kind_pieces(kind, &g, 0.0), &g);
            let tp: f64 = s.pess.iter().sum::<f64>() + s.pess_inf;
            let to: f64 = s.opt.iter().sum::<f64>() + s.opt_inf;
            assert!((1.0 - 1e-15..1.0 + 1e-9).contains(&tp), "{kind:?}: {tp}");
            assert!(to <= 1.0 && to > 1.0 - 1e-9, "{kind:?}: {to}");
        }
    }

    #[test]
    fn symmetrized_atom_mass() {
        // Q-mass at loss 0 of C_p(G(μ)) is (1−p)(Φ(μ/2) − Φ(−μ/2)); pieces at bin 0 of
        // equal q and p carry it
        let pcs = subsampled_pieces(Kind::Symmetrized(0.2, 1.0), &grid(), 0.0);
        let a = pcs
            .pieces
            .iter()
            .find(|pc| pc.bin == Some(0) && (pc.q.hi - pc.p.hi).abs() < 1e-300)
            .unwrap();
        let want = 0.8 * (special::phi(0.5) - special::phi(-0.5));
        assert!(a.q.lo <= want && want <= a.q.hi && a.q.hi - a.q.lo < 1e-13);
    }
}
