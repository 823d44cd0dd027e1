//! Mechanisms as values of one trait: what the composition engine needs from a
//! dominating pair `(P, Q)` of one step.
//!
//! # Formula
//! The privacy loss of the pair is `L = ln(dQ/dP)` under `Q` (DRS22 Prop 2.12 /
//! BSA24 §2): `δ(ε) = E_Q[(1 − e^{ε−L})₊]`. A [`Mechanism`] describes the law of `L`
//! under `Q` and `P` in three parts, which is all the engine's discretization
//! ([`super::pld`]) reads:
//!
//! * **atoms** ([`Atom`]): finitely many outcomes (or merged outcomes of one loss) with
//!   enclosures of their Q- and P-masses and of their loss;
//! * a **continuous part** without atoms, given by certified tails
//!   `Q{L ≤ ℓ}, Q{L > ℓ}, P{L ≤ ℓ}, P{L > ℓ}` ([`Tails`]) on an interval of losses;
//! * the Q-mass at `L = +∞` (outcomes with `P = 0`) and the P-mass at `L = −∞`.
//!
//! The other neighbouring order is the pair `(Q, P)` ([`Mechanism::inverse`]): an atom
//! `(ℓ, q, p)` becomes `(−ℓ, p, q)`, tails swap roles ([`Inverse`]). Poisson subsampling
//! is a combinator over any mechanism ([`PoissonSampled`]).
//!
//! Every component of a composition is a mechanism: the Gaussian family in closed form
//! ([`GaussianFamily`]), piecewise-linear tradeoff functions such as `f_{ε,δ}`
//! ([`TradeoffCurve`]), Laplace, discrete Laplace, randomized response, mixtures of
//! Gaussians and the combinators. The engine reads each through
//! [`Mechanism::pieces`]: the generic discretization of atoms and tails
//! ([`generic_pieces`]) unless the mechanism has a closed form of its own.
//!
//! # Rounding
//! Every mass is an enclosure `[lo, hi]` of the true probability, every loss an
//! enclosure of the true loss; the pessimistic discretization reads the upper ends, the
//! optimistic one the lower ends. Elementary functions in f64 (`exp`, `expm1`, `ln`,
//! `ln_1p`) are taken within relative error [`FN_REL_ERR`] of the truth (validated
//! against MPFR in this module's tests); atoms are computed in MPFR and rounded outward.
//!
//! # References
//! DRS22; Zhu, Dong, Wang, *Optimal accounting of differential privacy via
//! characteristic function*, AISTATS 2022 (dominating pairs of Poisson subsampling);
//! Doroshenko et al., *Connect the dots*, PETS 2022.
pub mod curve;
pub mod discrete;
pub mod gaussian;
pub mod laplace;
pub mod mixture;
pub mod sampled;
pub mod truncated;

pub use curve::TradeoffCurve;
pub use discrete::{DiscreteLaplace, RandomizedResponse};
pub use gaussian::GaussianFamily;
pub use laplace::Laplace;
pub use mixture::MixtureOfGaussians;
pub use sampled::{Inverse, PoissonSampled, PublicMixture, Shifted};
pub use truncated::truncated_subsampled_gaussian;

use super::pld::{Grid, Mass, Piece, Pieces, U};
use crate::precision::Enclosure;
use std::fmt;
use std::sync::Arc;

/// Relative error bound of the f64 `exp`, `exp_m1`, `ln` and `ln_1p` of this platform's
/// libm (two units in the last place; glibc documents at most one).
pub const FN_REL_ERR: f64 = 4.0 * U;

/// MPFR precision of atoms.
pub(crate) const ATOM_BITS: u32 = 128;

/// An atom of a privacy-loss distribution: outcomes of one loss `ℓ = ln(q/p)`, with
/// enclosures of `ℓ`, of their Q-mass and of their P-mass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Atom {
    /// Enclosure `(lo, hi)` of the loss.
    pub loss: (f64, f64),
    /// Q-mass.
    pub q: Mass,
    /// P-mass.
    pub p: Mass,
}

impl Atom {
    /// The atom of Q-mass `q` and P-mass `p` (both positive), its loss `ln(q/p)`, all
    /// rounded outward from MPFR enclosures.
    pub fn of(q: &Enclosure, p: &Enclosure) -> Atom {
        let l = q.div(p).ln();
        Atom {
            loss: (l.lower_f64(), l.upper_f64()),
            q: Mass::of(q),
            p: Mass::of(p),
        }
    }
}

/// Enclosures of the continuous part's tails at a loss `ℓ`: `Q{L ≤ ℓ}`, `Q{L > ℓ}`,
/// `P{L ≤ ℓ}`, `P{L > ℓ}` (the atoms excluded).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tails {
    /// `Q{L ≤ ℓ}`.
    pub q_le: Mass,
    /// `Q{L > ℓ}`.
    pub q_gt: Mass,
    /// `P{L ≤ ℓ}`.
    pub p_le: Mass,
    /// `P{L > ℓ}`.
    pub p_gt: Mass,
}

impl Tails {
    /// No continuous mass.
    pub const ZERO: Tails = Tails {
        q_le: Mass::ZERO,
        q_gt: Mass::ZERO,
        p_le: Mass::ZERO,
        p_gt: Mass::ZERO,
    };
}

/// Where a mechanism's atoms lie on the loss axis (the planner prefers grids that hold
/// them exactly: an atom on a grid point is discretized without error on either side).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Lattice {
    /// No atoms with a loss other than 0.
    NoAtoms,
    /// Every atom's loss is an exact integer multiple of this positive f64.
    Unit(f64),
    /// Otherwise (or unknown).
    Irregular,
}

/// One neighbouring order of a mechanism's dominating pair `(P, Q)`, as the composition
/// engine reads it (see the module doc). Implementations state the pair and the
/// derivation of its privacy-loss distribution in their docs.
pub trait Mechanism: fmt::Debug + Send + Sync {
    /// Display name with every parameter by its shortest round-trip decimal: two
    /// mechanisms with the same name are the same pair (compositions compare by it).
    fn name(&self) -> String;
    /// The pair of the other neighbouring order, `(Q, P)`.
    fn inverse(&self) -> Arc<dyn Mechanism>;
    /// Whether `(Q, P)` has the same privacy-loss distribution as `(P, Q)`.
    fn is_symmetric(&self) -> bool;
    /// The atoms with finite loss.
    fn atoms(&self) -> Vec<Atom>;
    /// `Q{L = +∞}` (outcomes with `P = 0`).
    fn q_at_plus_infinity(&self) -> Mass {
        Mass::ZERO
    }
    /// `P{L = −∞}` (outcomes with `Q = 0`).
    fn p_at_minus_infinity(&self) -> Mass {
        Mass::ZERO
    }
    /// The interval of losses `[a, b]` outside which the continuous part has no mass;
    /// `None` without a continuous part.
    fn continuous_support(&self) -> Option<(f64, f64)> {
        None
    }
    /// The continuous part's tails at a loss `ℓ` (`±∞` allowed; [`Tails::ZERO`] without
    /// a continuous part).
    fn tails(&self, _loss: f64) -> Tails {
        Tails::ZERO
    }
    /// [`Mechanism::tails`] at each loss of an increasing run (what the discretization
    /// asks for a block of consecutive grid points; an implementation may carry a search
    /// from one loss to the next). The result depends on the run only.
    fn tails_run(&self, losses: &[f64]) -> Vec<Tails> {
        losses.iter().map(|l| self.tails(*l)).collect()
    }
    /// A search hint, not a bound: losses within `±` this hold all but a negligible
    /// part of both masses (the planner's coarse window).
    fn loss_reach(&self) -> f64;
    /// A search hint: the typical size of the loss (the planner's coarse step resolves
    /// it).
    fn loss_spread(&self) -> f64;
    /// An upper bound, rounded up, on every finite loss when the losses are bounded
    /// above (`None` otherwise): a certified bound, which the pure-DP answer
    /// ([`super::Composition::pure_epsilon`]) and the one-shot engine's single-step
    /// window rely on.
    fn loss_sup(&self) -> Option<f64>;
    /// Where the atoms lie ([`Lattice::Irregular`] unless the mechanism says otherwise).
    fn atom_lattice(&self) -> Lattice {
        Lattice::Irregular
    }
    /// `μ` with `G(μ)` below this pair's tradeoff function in this order (a closed-form
    /// upper bound for the fallback of [`super::Composition::answer`]), if known.
    fn gaussian_dominating_mu(&self) -> Option<f64> {
        None
    }
    /// `Some(μ)` when this pair's privacy-loss distribution is exactly that of `G(μ)`
    /// (the closed form [`super::Composition::gaussian_mu`] composes).
    fn exact_gaussian_mu(&self) -> Option<f64> {
        None
    }
    /// The per-step `μ²` of the central-limit approximation of a composition of this
    /// pair ([`super::Composition::clt_mu`]), where one is known.
    fn clt_mu_squared(&self) -> Option<f64> {
        None
    }
    /// The pieces of this order on a grid, with tails of Q-mass below `cut` treated in
    /// bulk: by default the generic discretization of the atoms and tails
    /// ([`generic_pieces`]); closed forms override it.
    fn pieces(&self, g: &Grid, cut: f64) -> Pieces {
        generic_pieces(self, g, cut)
    }
}

/// The pieces of a mechanism on a grid: each atom with its loss enclosure (placed in
/// the grid bin that holds it when one does), and the continuous part cut at every grid
/// point of its support, each cell `(t_j, t_{j+1}]` with the tails' differences as its
/// masses (from the lower tails where `Q{L ≤ t_j} ≤ 1/2`, from the upper tails beyond,
/// so that small masses are differences of small numbers). With `cut > 0` the
/// continuous cells whose whole tail beyond them has Q-mass `≤ cut` are not resolved
/// (the tail moves up to the first resolved cell, or to `+∞` above the last).
pub fn generic_pieces<M: Mechanism + ?Sized>(m: &M, g: &Grid, cut: f64) -> Pieces {
    let mut out = Pieces::default();
    let inf = m.q_at_plus_infinity();
    if inf.hi > 0.0 {
        out.inf = Some(inf);
    }
    for a in m.atoms() {
        if a.q.hi <= 0.0 {
            continue;
        }
        let j = g.floor_index(a.loss.0);
        let bin = if j.is_finite() && j.abs() < g.exact_index() && a.loss.1 <= (j + 1.0) * g.h {
            Some(j as i64)
        } else {
            None
        };
        out.pieces.push(Piece {
            q: a.q,
            p: a.p,
            bin,
        });
    }
    let Some((s_lo, s_hi)) = m.continuous_support() else {
        return out;
    };
    let top = g.lo + g.n as i64 - 1;
    let mut j0 = (g.floor_index(s_lo).max(g.lo as f64) as i64).min(top);
    let mut j1 = (g.ceil_index(s_hi).min(top as f64) as i64).max(j0);
    if cut > 0.0 {
        // tails certainly below `cut` are treated in bulk: the cells start at the last
        // edge whose lower Q-tail is ≤ cut and end at the first whose upper Q-tail is
        // (binary searches: the tails are monotone; the mass beyond goes up to the
        // first cell or to +∞ below, as for the support's own ends)
        let at = |j: i64| m.tails(j as f64 * g.h);
        let (mut a, mut b) = (j0, j1);
        while b - a > 1 {
            let c = a + (b - a) / 2;
            if at(c).q_le.hi <= cut { a = c } else { b = c }
        }
        j0 = a;
        let (mut a, mut b) = (j0, j1);
        while b - a > 1 {
            let c = a + (b - a) / 2;
            if at(c).q_gt.hi <= cut { b = c } else { a = c }
        }
        j1 = b.max(j0);
    }
    let mut ta = m.tails(j0 as f64 * g.h);
    // mass below the first cell: moved up to it (pessimistic), dropped (optimistic)
    if ta.q_le.hi > 0.0 {
        if j0 == g.lo {
            out.below = Some(Mass {
                lo: 0.0,
                hi: ta.q_le.hi,
            });
        } else {
            out.pieces.push(Piece {
                q: Mass {
                    lo: 0.0,
                    hi: ta.q_le.hi,
                },
                p: Mass { lo: 0.0, hi: 1.0 },
                bin: Some(j0 - 1),
            });
        }
    }
    // the tails at every edge, in parallel over fixed blocks of 256 consecutive edges
    // (each block a pure function of its edges, `tails_run`: the pieces do not depend
    // on the schedule)
    const BLOCK: usize = 256;
    let count = (j1 - j0) as usize;
    let mut j = j0;
    super::pld::in_order(
        count.div_ceil(BLOCK),
        |b| {
            let from = b * BLOCK;
            let to = (from + BLOCK).min(count);
            let losses: Vec<f64> = (from..to)
                .map(|i| (j0 + 1 + i as i64) as f64 * g.h)
                .collect();
            m.tails_run(&losses)
        },
        |block| {
            for tb in block {
                let q = cell(ta.q_le, ta.q_gt, tb.q_le, tb.q_gt);
                let p = cell(ta.p_le, ta.p_gt, tb.p_le, tb.p_gt);
                if q.hi > 0.0 {
                    out.pieces.push(Piece { q, p, bin: Some(j) });
                }
                ta = tb;
                j += 1;
            }
        },
    );
    if ta.q_gt.hi > 0.0 {
        out.above = Some(if j1 == top {
            ta.q_gt
        } else {
            // the support ends below the window top: only the pessimistic +∞ is sound
            Mass {
                lo: 0.0,
                hi: ta.q_gt.hi,
            }
        });
    }
    out
}

/// An upper bound `u` on the common unit of the distances of a mechanism's finite atom
/// losses (of positive Q-mass) below the highest: every atom lies at `ℓ_top − cᵢ·ũ`
/// with integers `0 ≤ cᵢ ≤ 4096` and one `ũ ≤ u` within relative `1e-9` (the distances
/// read at the ends of the enclosures that make them largest); `∞` with at most one
/// such atom (no constraint), `None` when the distances are not commensurate. The
/// planner's lattice steps ([`Grid::lattice_step`]) put every such atom just above a
/// grid point once the highest is.
pub(crate) fn atom_unit(atoms: &[Atom]) -> Option<f64> {
    let l: Vec<(f64, f64)> = atoms
        .iter()
        .filter(|a| a.q.hi > 0.0 && a.loss.0.is_finite() && a.loss.1.is_finite())
        .map(|a| a.loss)
        .collect();
    let hi_top = l.iter().map(|a| a.1).fold(f64::NEG_INFINITY, f64::max);
    let lo_top = l.iter().map(|a| a.0).fold(f64::NEG_INFINITY, f64::max);
    // upper bounds of the distances below the highest atom (distinct atoms only)
    let d: Vec<f64> = l
        .iter()
        .filter(|a| a.1 < lo_top)
        .map(|a| (hi_top - a.0) * (1.0 + 2.0 * U))
        .collect();
    common_unit(&d)
}

/// An upper bound `u` on a common unit of positive lengths `dᵢ`: each within relative
/// `1e-9` of an integer multiple `cᵢ ≤ 4096` of the smallest, `u = max dᵢ/cᵢ` rounded
/// up, so that `cᵢ·u ≥ dᵢ`; `∞` without lengths, `None` when they are not commensurate.
pub(crate) fn common_unit(d: &[f64]) -> Option<f64> {
    let Some(u0) = d.iter().copied().min_by(|a, b| a.total_cmp(b)) else {
        return Some(f64::INFINITY);
    };
    let mut u: f64 = 0.0;
    for &di in d {
        let c = (di / u0).round();
        if !(1.0..=4096.0).contains(&c) || (di - c * u0).abs() > 1e-9 * di {
            return None;
        }
        u = u.max(di / c * (1.0 + 4.0 * U));
    }
    Some(u)
}

/// The enclosure of the mass between two edges `a < b` from their tails: `F(b) − F(a)`
/// from the lower tails and `S(a) − S(b)` from the upper ones are both enclosures of it,
/// so their intersection is (the lower tails are the accurate ones below the median, the
/// upper ones above it, but a tail's accuracy is its own: the intersection takes the
/// better of the two at each end).
fn cell(le_a: Mass, gt_a: Mass, le_b: Mass, gt_b: Mass) -> Mass {
    let lo = (le_b.lo - le_a.hi).max(gt_a.lo - gt_b.hi);
    let hi = (le_b.hi - le_a.lo).min(gt_a.hi - gt_b.lo);
    Mass {
        lo: (lo * (1.0 - 2.0 * U)).max(0.0),
        hi: (hi * (1.0 + 2.0 * U)).clamp(0.0, 1.0),
    }
}

/// The shortest round-trip decimal of a parameter, in exponent form below 1e-5 and from
/// 1e16 on.
pub(crate) fn num(x: f64) -> String {
    if x != 0.0 && !(1e-5..1e16).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rug::Float;

    fn rel(f: f64, exact: Float) -> f64 {
        let e = exact.to_f64();
        if e == 0.0 { 0.0 } else { ((f - e) / e).abs() }
    }

    proptest! {
        /// The libm functions the mechanisms use stay within [`FN_REL_ERR`] of MPFR.
        #[test]
        fn libm_within_the_error_model(x in -700.0f64..700.0, y in 1e-300f64..1e300) {
            let p = 200;
            let fx = Float::with_val(p, x);
            prop_assert!(rel(x.exp(), fx.clone().exp()) <= FN_REL_ERR);
            prop_assert!(rel(x.exp_m1(), fx.clone().exp_m1()) <= FN_REL_ERR);
            let fy = Float::with_val(p, y);
            prop_assert!(rel(y.ln(), fy.clone().ln()) <= FN_REL_ERR);
            prop_assert!(rel(y.ln_1p(), fy.ln_1p()) <= FN_REL_ERR);
            let s = x / 700.0;
            prop_assert!(rel(s.exp_m1(), Float::with_val(p, s).exp_m1()) <= FN_REL_ERR);
            if s > -1.0 {
                prop_assert!(rel(s.ln_1p(), Float::with_val(p, s).ln_1p()) <= FN_REL_ERR);
            }
        }
    }
}
