//! A numerically represented tradeoff function as a mechanism: `f_{ε,δ}` and any other
//! convex piecewise-linear `f`.
//!
//! # Formula
//! A tradeoff function `f` is `T(P, Q)` of a pair on finitely many outcomes, one per
//! segment (DRS22 Prop 2.2 and its converse, Dong, Roth, Su 2022 §2): a segment from
//! `(α₀, β₀)` to `(α₁, β₁)` with `β₀ > β₁` is an outcome of P-mass `α₁ − α₀` and Q-mass
//! `β₀ − β₁`, loss `ln((β₀ − β₁)/(α₁ − α₀))` (the negated slope's logarithm); `1 − f(0)`
//! is Q-mass at loss `+∞`, a vertical segment too, and a flat segment at `β = 0` is
//! P-mass at `−∞`. `f_{ε,δ}` gives atoms at `±ε` and `δ` at `+∞` (the PLD of
//! dp_accounting's `from_privacy_parameters`).
//!
//! # Rounding
//! Differences of f64 vertices with the error `U(|a| + |b|)`; losses rounded outward
//! from the masses' enclosures.
use super::{Atom, Lattice, Mass, Mechanism};
use crate::composition::pld::{self, Grid, Pieces, U};
use crate::tradeoff::{PiecewiseLinear, Tradeoff};
use std::sync::Arc;

/// A piecewise-linear tradeoff function as the pair of its segments (module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct TradeoffCurve(pub PiecewiseLinear);

impl Mechanism for TradeoffCurve {
    fn name(&self) -> String {
        self.0.name()
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(TradeoffCurve(self.0.inverse()))
    }
    fn is_symmetric(&self) -> bool {
        self.0.is_symmetric()
    }
    fn atoms(&self) -> Vec<Atom> {
        pld::curve_pieces(&self.0)
            .pieces
            .iter()
            .map(|pc| Atom {
                loss: pld::loss_bounds(pc),
                q: pc.q,
                p: pc.p,
            })
            .collect()
    }
    fn q_at_plus_infinity(&self) -> Mass {
        pld::curve_pieces(&self.0).inf.unwrap_or(Mass::ZERO)
    }
    fn p_at_minus_infinity(&self) -> Mass {
        let v = self.0.vertices();
        let p: f64 = v
            .windows(2)
            .filter(|w| w[0].1 <= w[1].1 && w[1].0 > w[0].0)
            .map(|w| w[1].0 - w[0].0)
            .sum();
        Mass::new(p, U * 4.0)
    }
    fn pieces(&self, _g: &Grid, _cut: f64) -> Pieces {
        pld::curve_pieces(&self.0)
    }
    fn loss_reach(&self) -> f64 {
        64.0
    }
    fn loss_spread(&self) -> f64 {
        f64::INFINITY
    }
    fn loss_sup(&self) -> Option<f64> {
        // the steepest segment's ln(Δβ/Δα), rounded up through the atoms' enclosures
        self.atoms()
            .iter()
            .map(|a| a.loss.1)
            .fold(None, |m: Option<f64>, l| Some(m.map_or(l, |m| m.max(l))))
    }
    fn atom_lattice(&self) -> Lattice {
        Lattice::Irregular
    }
}
