//! Combinators over any mechanism: the other neighbouring order ([`Inverse`]) and
//! Poisson subsampling ([`PoissonSampled`]).
//!
//! # Formula
//! * Inverse: the pair `(Q, P)` has loss `−L`; an atom `(ℓ, q, p)` becomes `(−ℓ, p, q)`
//!   and, the continuous part having no atoms, `Q'{L' ≤ ℓ} = P{L ≥ −ℓ} = P{L > −ℓ}`,
//!   `P'{L' ≤ ℓ} = Q{L > −ℓ}` (and the upper tails alike).
//! * Poisson subsampling with probability `p` (Zhu, Dong, Wang 2022, Prop. 30): if
//!   `(P, Q)` dominates a mechanism under add-or-remove, the subsampled mechanism is
//!   dominated by `(P, (1 − p)P + pQ)` in the remove order and by its inverse in the
//!   add order. Its loss is `φ(L) = ln(1 − p + p e^{L})`, increasing, with inverse
//!   `φ⁻¹(ℓ) = ln(1 + (e^{ℓ} − 1)/p)` for `ℓ > ln(1 − p)`; so
//!   `Q'{L' ≤ ℓ} = (1 − p)P{L ≤ φ⁻¹(ℓ)} + pQ{L ≤ φ⁻¹(ℓ)}`, `P'{L' ≤ ℓ} = P{L ≤ φ⁻¹(ℓ)}`,
//!   an atom `(ℓ, q, p₀)` becomes `(φ(ℓ), (1 − p)p₀ + pq, p₀)`, `P{L = −∞}` becomes an atom
//!   at `ln(1 − p)`, and `Q'{+∞} = pQ{+∞}`. The subsampled pair is a post-processing of
//!   `(P, Q)` (keep the sample with probability p, else redraw it from P), so its
//!   tradeoff function lies above the base's.
//!
//! # Rounding
//! `φ` and `φ⁻¹` are evaluated in f64 with error bounds from [`super::FN_REL_ERR`]; the
//! tails at `φ⁻¹(ℓ)` are read at both ends of its enclosure (tails are monotone), the
//! lower end of each mass from the end that makes it smallest.
use super::{Atom, FN_REL_ERR, Lattice, Mass, Mechanism, Tails, num};
use crate::composition::pld::U;
use crate::composition::pld::{Grid, Piece, Pieces};
use crate::error::{Error, Result};
use std::sync::Arc;

/// The other neighbouring order `(Q, P)` of a mechanism.
#[derive(Debug, Clone)]
pub struct Inverse(pub Arc<dyn Mechanism>);

fn invert_atoms(atoms: Vec<Atom>) -> Vec<Atom> {
    atoms
        .into_iter()
        .map(|a| Atom {
            loss: (-a.loss.1, -a.loss.0),
            q: a.p,
            p: a.q,
        })
        .collect()
}

/// The tails of the other order at `−ℓ`, given those of this order at `ℓ`.
pub(crate) fn invert_tails(t: Tails) -> Tails {
    Tails {
        q_le: t.p_gt,
        q_gt: t.p_le,
        p_le: t.q_gt,
        p_gt: t.q_le,
    }
}

impl Mechanism for Inverse {
    fn name(&self) -> String {
        format!("Inverse({})", self.0.name())
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        self.0.clone()
    }
    fn is_symmetric(&self) -> bool {
        self.0.is_symmetric()
    }
    fn atoms(&self) -> Vec<Atom> {
        invert_atoms(self.0.atoms())
    }
    fn q_at_plus_infinity(&self) -> Mass {
        self.0.p_at_minus_infinity()
    }
    fn p_at_minus_infinity(&self) -> Mass {
        self.0.q_at_plus_infinity()
    }
    fn continuous_support(&self) -> Option<(f64, f64)> {
        self.0.continuous_support().map(|(a, b)| (-b, -a))
    }
    fn tails(&self, loss: f64) -> Tails {
        invert_tails(self.0.tails(-loss))
    }
    fn tails_run(&self, losses: &[f64]) -> Vec<Tails> {
        // the base's run at the negated losses, in its own increasing order
        let neg: Vec<f64> = losses.iter().rev().map(|l| -l).collect();
        let mut out: Vec<Tails> = self
            .0
            .tails_run(&neg)
            .into_iter()
            .map(invert_tails)
            .collect();
        out.reverse();
        out
    }
    fn loss_reach(&self) -> f64 {
        self.0.loss_reach()
    }
    fn loss_spread(&self) -> f64 {
        self.0.loss_spread()
    }
    fn loss_sup(&self) -> Option<f64> {
        None
    }
    fn atom_lattice(&self) -> Lattice {
        // the atoms negated: the same lattice
        self.0.atom_lattice()
    }
    fn gaussian_dominating_mu(&self) -> Option<f64> {
        // G(μ)⁻¹ = G(μ) and inversion keeps the order of tradeoff functions
        self.0.gaussian_dominating_mu()
    }
}

/// Poisson subsampling with probability `p` of a mechanism given in its remove order,
/// in the remove order (`add = false`) or the add order.
#[derive(Debug, Clone)]
pub struct PoissonSampled {
    p: f64,
    base: Arc<dyn Mechanism>,
    add: bool,
}

impl PoissonSampled {
    /// The remove order of `base` Poisson-subsampled with probability `p` (pair with
    /// [`Mechanism::inverse`] for the add order).
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ p ≤ 1`.
    pub fn new(p: f64, base: Arc<dyn Mechanism>) -> Result<PoissonSampled> {
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::param(
                "p",
                p,
                "sampling probability must be in [0, 1]",
            ));
        }
        Ok(PoissonSampled {
            p,
            base,
            add: false,
        })
    }

    /// `φ(ℓ) = ln(1 − p + p e^ℓ)` with an absolute error bound.
    fn phi(&self, l: f64) -> (f64, f64) {
        let p = self.p;
        if p >= 1.0 || l == f64::INFINITY {
            return (l, 0.0);
        }
        if l == f64::NEG_INFINITY {
            let v = (-p).ln_1p();
            return (v, FN_REL_ERR * v.abs());
        }
        let y = p * l.exp_m1();
        if !y.is_finite() {
            // e^ℓ overflows: φ(ℓ) = ℓ + ln(p + (1 − p)e^{−ℓ}), w = ln(·) ∈ [ln p, 0]; the
            // bound covers the errors of exp, ln and the two sums (each ≤ FN_REL_ERR or U
            // relative), generously
            let w = (p + (1.0 - p) * (-l).exp()).ln();
            let v = l + w;
            return (v, FN_REL_ERR * (w.abs() + 1.0) + 4.0 * U * (v.abs() + 1.0));
        }
        let v = y.ln_1p();
        let ry = FN_REL_ERR + 2.0 * U;
        // d ln(1 + y) = dy/(1 + y)
        let e = ry * y.abs() / (1.0 + y).max(f64::MIN_POSITIVE) + FN_REL_ERR * v.abs();
        (v, e)
    }

    /// An enclosure of `φ(ℓ)`.
    fn phi_range(&self, lo: f64, hi: f64) -> (f64, f64) {
        let (a, ea) = self.phi(lo);
        let (b, eb) = self.phi(hi);
        (a - ea, b + eb)
    }

    /// An enclosure `[u_lo, u_hi]` of `φ⁻¹(ℓ)` (`−∞` at and below `ln(1 − p)`).
    fn phi_inv(&self, l: f64) -> (f64, f64) {
        let p = self.p;
        if p >= 1.0 || l.is_infinite() {
            return (l, l);
        }
        let y = l.exp_m1() / p; // (e^ℓ − 1)/p
        if y == f64::INFINITY {
            // e^ℓ (or e^ℓ/p) overflows: φ⁻¹(ℓ) = ln((e^ℓ − 1 + p)/p) in log form
            let (v, e) = crate::composition::pld::ln_mix_ratio_beyond_exp(l, p);
            return (v - e, v + e);
        }
        if y.is_nan() || y <= -1.0 {
            return (f64::NEG_INFINITY, f64::NEG_INFINITY);
        }
        let ry = FN_REL_ERR + 2.0 * U;
        // d ln(1 + y) = dy/(1 + y); near y = −1 the enclosure reaches −∞
        let gap = 1.0 + y;
        let dy = ry * y.abs();
        let v = y.ln_1p();
        let e = FN_REL_ERR * v.abs();
        let lo = if gap - dy <= 0.0 {
            f64::NEG_INFINITY
        } else {
            (gap - dy).ln() - e - 2.0 * U * (v.abs() + 1.0)
        };
        let hi = v + dy / (gap - dy).max(f64::MIN_POSITIVE) + e + 2.0 * U * (v.abs() + 1.0);
        (lo.min(v), hi.max(v))
    }

    fn remove_atoms(&self) -> Vec<Atom> {
        let (p, p1) = (self.p, 1.0 - self.p);
        let mix = |pm: Mass, q: Mass| Mass {
            lo: ((p1 * pm.lo + p * q.lo) * (1.0 - 4.0 * U)).max(0.0),
            hi: ((p1 * pm.hi + p * q.hi) * (1.0 + 4.0 * U)).min(1.0),
        };
        let mut out: Vec<Atom> = self
            .base
            .atoms()
            .into_iter()
            .map(|a| Atom {
                loss: self.phi_range(a.loss.0, a.loss.1),
                q: mix(a.p, a.q),
                p: a.p,
            })
            .collect();
        let m = self.base.p_at_minus_infinity();
        if m.hi > 0.0 && p < 1.0 {
            out.push(Atom {
                loss: self.phi_range(f64::NEG_INFINITY, f64::NEG_INFINITY),
                q: mix(m, Mass::ZERO),
                p: m,
            });
        }
        out
    }

    /// `Q′{+∞}` of the remove order: `Q′ = (1 − p)P + pQ` with `P = 0` is `pQ{+∞}`.
    fn remove_q_at_plus_infinity(&self) -> Mass {
        let m = self.base.q_at_plus_infinity();
        Mass {
            lo: m.lo * self.p * (1.0 - 2.0 * U),
            hi: (m.hi * self.p * (1.0 + 2.0 * U)).min(1.0),
        }
    }

    /// `P′{−∞}` of the remove order: `Q′ = (1 − p)P + pQ = 0` with `P > 0` needs `p = 1`
    /// and `Q = 0`, so it is `P{−∞}` at `p = 1` and 0 below (there `P{−∞}` becomes the
    /// atom at `ln(1 − p)`).
    fn remove_p_at_minus_infinity(&self) -> Mass {
        if self.p >= 1.0 {
            self.base.p_at_minus_infinity()
        } else {
            Mass::ZERO
        }
    }

    fn remove_tails(&self, l: f64) -> Tails {
        let (p, p1) = (self.p, 1.0 - self.p);
        let (u_lo, u_hi) = self.phi_inv(l);
        let a = self.base.tails(u_lo);
        let b = if u_hi <= u_lo {
            a
        } else {
            self.base.tails(u_hi)
        };
        let mix = |lo_pm: f64, lo_q: f64, hi_pm: f64, hi_q: f64| Mass {
            lo: ((p1 * lo_pm + p * lo_q) * (1.0 - 4.0 * U)).max(0.0),
            hi: ((p1 * hi_pm + p * hi_q) * (1.0 + 4.0 * U)).min(1.0),
        };
        Tails {
            // ≤-tails increase with u: lower ends at u_lo, upper ends at u_hi
            q_le: mix(a.p_le.lo, a.q_le.lo, b.p_le.hi, b.q_le.hi),
            q_gt: mix(b.p_gt.lo, b.q_gt.lo, a.p_gt.hi, a.q_gt.hi),
            p_le: Mass {
                lo: a.p_le.lo,
                hi: b.p_le.hi,
            },
            p_gt: Mass {
                lo: b.p_gt.lo,
                hi: a.p_gt.hi,
            },
        }
    }
}

impl Mechanism for PoissonSampled {
    fn name(&self) -> String {
        let dir = if self.add {
            "PoissonAdd"
        } else {
            "PoissonRemove"
        };
        format!("{dir}_{}({})", num(self.p), self.base.name())
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(PoissonSampled {
            add: !self.add,
            ..self.clone()
        })
    }
    fn is_symmetric(&self) -> bool {
        self.p == 0.0 || (self.p >= 1.0 && self.base.is_symmetric())
    }
    fn atoms(&self) -> Vec<Atom> {
        let a = self.remove_atoms();
        if self.add { invert_atoms(a) } else { a }
    }
    fn q_at_plus_infinity(&self) -> Mass {
        if self.add {
            self.remove_p_at_minus_infinity()
        } else {
            self.remove_q_at_plus_infinity()
        }
    }
    fn p_at_minus_infinity(&self) -> Mass {
        if self.add {
            self.remove_q_at_plus_infinity()
        } else {
            self.remove_p_at_minus_infinity()
        }
    }
    fn continuous_support(&self) -> Option<(f64, f64)> {
        let (a, b) = self.base.continuous_support()?;
        let (lo, hi) = self.phi_range(a, b);
        Some(if self.add { (-hi, -lo) } else { (lo, hi) })
    }
    fn tails(&self, loss: f64) -> Tails {
        if self.add {
            invert_tails(self.remove_tails(-loss))
        } else {
            self.remove_tails(loss)
        }
    }
    fn loss_reach(&self) -> f64 {
        let r = self.base.loss_reach();
        self.phi(r).0.max(-self.phi(-r).0).max(1e-12)
    }
    fn loss_spread(&self) -> f64 {
        let s = self.base.loss_spread();
        self.phi(s).0.max(-self.phi(-s).0)
    }
    fn loss_sup(&self) -> Option<f64> {
        if self.add {
            // −φ(L) < −ln(1 − p)
            (self.p < 1.0).then(|| {
                let (v, e) = self.phi(f64::NEG_INFINITY);
                -v + e
            })
        } else {
            self.base.loss_sup().map(|s| {
                let (v, e) = self.phi(s);
                v + e
            })
        }
    }
    fn atom_lattice(&self) -> Lattice {
        // φ moves every atom off its lattice; a base without atoms keeps none (the
        // P-mass at −∞ would become an atom at ln(1 − p))
        if self.base.atom_lattice() == Lattice::NoAtoms && self.base.p_at_minus_infinity().hi <= 0.0
        {
            Lattice::NoAtoms
        } else {
            Lattice::Irregular
        }
    }
    fn gaussian_dominating_mu(&self) -> Option<f64> {
        self.base.gaussian_dominating_mu()
    }
}

/// A mixture of pairs with a public coin: with probability `wᵢ` the pair `(Pᵢ, Qᵢ)` is
/// used and the choice is released. Its privacy-loss distribution is the mixture
/// `Σ wᵢ PLDᵢ` of the parts' (each atom and tail weighted by `wᵢ`); releasing the coin
/// only adds information, so it dominates the same mixture with the coin hidden. The
/// weights are enclosures `[lo, hi]` (each mass is read with the end that is safe for
/// it), whose upper ends sum to at least 1.
#[derive(Debug, Clone)]
pub struct PublicMixture {
    label: String,
    parts: Vec<((f64, f64), Arc<dyn Mechanism>)>,
}

impl PublicMixture {
    /// The mixture of `parts` with weight enclosures `(lo, hi)`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless every `0 ≤ lo ≤ hi ≤ 1`, `Σ lo ≤ 1 ≤ Σ hi`, and there
    /// is at least one part.
    pub fn new(
        label: String,
        parts: Vec<((f64, f64), Arc<dyn Mechanism>)>,
    ) -> Result<PublicMixture> {
        let ok = !parts.is_empty()
            && parts
                .iter()
                .all(|((a, b), _)| 0.0 <= *a && a <= b && *b <= 1.0)
            && parts.iter().map(|(w, _)| w.0).sum::<f64>() <= 1.0 + 1e-12
            && parts.iter().map(|(w, _)| w.1).sum::<f64>() >= 1.0 - 1e-12;
        if !ok {
            return Err(Error::param(
                "weights",
                format!("{:?}", parts.iter().map(|p| p.0).collect::<Vec<_>>()),
                "weight enclosures in [0, 1] whose lower ends sum to ≤ 1 and upper ends to ≥ 1",
            ));
        }
        Ok(PublicMixture { label, parts })
    }

    fn weigh(w: (f64, f64), m: Mass) -> Mass {
        Mass {
            lo: m.lo * w.0 * (1.0 - 2.0 * U),
            hi: (m.hi * w.1 * (1.0 + 2.0 * U)).min(1.0),
        }
    }

    /// The mixture's tails from its parts' (in the order of the parts).
    fn mix_tails(&self, ts: &[Tails]) -> Tails {
        let pick = |f: &dyn Fn(&Tails) -> Mass| {
            PublicMixture::sum(
                self.parts
                    .iter()
                    .zip(ts)
                    .map(|((w, _), t)| PublicMixture::weigh(*w, f(t))),
            )
        };
        Tails {
            q_le: pick(&|t| t.q_le),
            q_gt: pick(&|t| t.q_gt),
            p_le: pick(&|t| t.p_le),
            p_gt: pick(&|t| t.p_gt),
        }
    }

    fn sum(ms: impl Iterator<Item = Mass>) -> Mass {
        let (mut lo, mut hi, mut n) = (0.0, 0.0, 0.0);
        for m in ms {
            lo += m.lo;
            hi += m.hi;
            n += 1.0;
        }
        Mass {
            lo: (lo * (1.0 - n * U)).max(0.0),
            hi: (hi * (1.0 + n * U)).min(1.0),
        }
    }
}

impl Mechanism for PublicMixture {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(PublicMixture {
            label: format!("Inverse({})", self.label),
            parts: self.parts.iter().map(|(w, m)| (*w, m.inverse())).collect(),
        })
    }
    fn is_symmetric(&self) -> bool {
        self.parts.iter().all(|(_, m)| m.is_symmetric())
    }
    fn atoms(&self) -> Vec<Atom> {
        self.parts
            .iter()
            .flat_map(|(w, m)| {
                m.atoms().into_iter().map(move |a| Atom {
                    loss: a.loss,
                    q: PublicMixture::weigh(*w, a.q),
                    p: PublicMixture::weigh(*w, a.p),
                })
            })
            .collect()
    }
    fn q_at_plus_infinity(&self) -> Mass {
        PublicMixture::sum(
            self.parts
                .iter()
                .map(|(w, m)| PublicMixture::weigh(*w, m.q_at_plus_infinity())),
        )
    }
    fn p_at_minus_infinity(&self) -> Mass {
        PublicMixture::sum(
            self.parts
                .iter()
                .map(|(w, m)| PublicMixture::weigh(*w, m.p_at_minus_infinity())),
        )
    }
    fn continuous_support(&self) -> Option<(f64, f64)> {
        self.parts
            .iter()
            .filter_map(|(_, m)| m.continuous_support())
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
    }
    fn tails(&self, loss: f64) -> Tails {
        let ts: Vec<Tails> = self.parts.iter().map(|(_, m)| m.tails(loss)).collect();
        self.mix_tails(&ts)
    }
    fn tails_run(&self, losses: &[f64]) -> Vec<Tails> {
        // each part's own run (its search carried from one loss to the next)
        let runs: Vec<Vec<Tails>> = self
            .parts
            .iter()
            .map(|(_, m)| m.tails_run(losses))
            .collect();
        (0..losses.len())
            .map(|i| self.mix_tails(&runs.iter().map(|r| r[i]).collect::<Vec<_>>()))
            .collect()
    }
    /// The parts' pieces, each mass weighted by its part's weight (the coin is public,
    /// so every outcome keeps its part's loss and bin); a part of weight `≤ w` may move
    /// tails of Q-mass `cut/(k·w)` in bulk (`k` parts), `cut` in the mixture.
    fn pieces(&self, g: &Grid, cut: f64) -> Pieces {
        let k = self.parts.len() as f64;
        let mut out = Pieces::default();
        let add = |a: Option<Mass>, b: Option<Mass>| match (a, b) {
            (Some(a), Some(b)) => Some(PublicMixture::sum([a, b].into_iter())),
            (a, b) => a.or(b),
        };
        for (w, m) in &self.parts {
            if w.1 <= 0.0 {
                continue;
            }
            let part_cut = if cut > 0.0 {
                (cut / (k * w.1)).min(0.5)
            } else {
                0.0
            };
            let pc = m.pieces(g, part_cut);
            let weigh = |m: Option<Mass>| m.map(|m| PublicMixture::weigh(*w, m));
            out.inf = add(out.inf, weigh(pc.inf));
            out.above = add(out.above, weigh(pc.above));
            out.below = add(out.below, weigh(pc.below));
            out.pieces.extend(pc.pieces.into_iter().map(|p| Piece {
                q: PublicMixture::weigh(*w, p.q),
                p: PublicMixture::weigh(*w, p.p),
                bin: p.bin,
            }));
        }
        out
    }
    fn loss_reach(&self) -> f64 {
        self.parts
            .iter()
            .map(|(_, m)| m.loss_reach())
            .fold(0.0, f64::max)
    }
    fn loss_spread(&self) -> f64 {
        self.parts
            .iter()
            .map(|(_, m)| m.loss_spread())
            .fold(f64::INFINITY, f64::min)
    }
    fn loss_sup(&self) -> Option<f64> {
        self.parts
            .iter()
            .map(|(_, m)| m.loss_sup())
            .try_fold(f64::NEG_INFINITY, |a, s| s.map(|s| a.max(s)))
    }
    fn atom_lattice(&self) -> Lattice {
        let ls: Vec<Lattice> = self.parts.iter().map(|(_, m)| m.atom_lattice()).collect();
        if ls.iter().all(|l| *l == Lattice::NoAtoms) {
            Lattice::NoAtoms
        } else {
            Lattice::Irregular
        }
    }
    fn gaussian_dominating_mu(&self) -> Option<f64> {
        // δ of a mixture is at most the mixture of the δ's, each ≤ that of G(max μ)
        self.parts
            .iter()
            .map(|(_, m)| m.gaussian_dominating_mu())
            .try_fold(0.0f64, |a, s| s.map(|s| a.max(s)))
    }
}

/// `(fl(a + b), e)` with `a + b = fl(a + b) + e` exactly (Knuth's TwoSum; `e` is 0 for
/// non-finite sums).
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let t = a + b;
    if !t.is_finite() {
        return (t, 0.0);
    }
    let bv = t - a;
    let av = t - bv;
    (t, (a - av) + (b - bv))
}

/// A mechanism's losses moved up by `s ≥ 0` on the engine's axis: atoms `(ℓ + s, q, pe^{−s})`
/// and tails `Q'{L' ≤ ℓ} = Q{L ≤ ℓ − s}`, `P'{L' ≤ ℓ} = e^{−s} P{L ≤ ℓ − s}`. The measure
/// `e^{−s}P` has mass below 1, and `δ'(ε) = E_Q[(1 − e^{ε − L − s})₊] = δ(ε − s)`: the
/// discretization arguments (connect-the-dots splits and merges preserve the pair
/// `(q, qe^{−ℓ})` of every piece; `(q − e^ε p)₊` is convex and subadditive in it) do not
/// use the normalization, so the engine composes shifted components and reads the
/// composition at `ε + Σ kᵢ sᵢ`. The engine chooses `s` to put an atom that lies between
/// grid points exactly on one, where neither discretization errs.
#[derive(Debug, Clone)]
pub struct Shifted {
    base: Arc<dyn Mechanism>,
    s: f64,
    /// Enclosure of `e^{−s}`.
    scale: (f64, f64),
}

impl Shifted {
    /// The base's losses moved up by `s` (finite, `0 ≤ s`).
    pub fn new(base: Arc<dyn Mechanism>, s: f64) -> Shifted {
        let s = if s.is_finite() { s.max(0.0) } else { 0.0 };
        let e = (-s).exp();
        Shifted {
            base,
            s,
            scale: (e * (1.0 - FN_REL_ERR), (e * (1.0 + FN_REL_ERR)).min(1.0)),
        }
    }
    fn p(&self, m: Mass) -> Mass {
        Mass {
            lo: m.lo * self.scale.0 * (1.0 - U),
            hi: (m.hi * self.scale.1 * (1.0 + U)).min(1.0),
        }
    }
    /// `x + s` rounded up (exact when the sum is: Knuth's TwoSum error is 0).
    fn up(&self, x: f64) -> f64 {
        let (t, e) = two_sum(x, self.s);
        if e == 0.0 {
            t
        } else {
            crate::precision::rounding::next_up_f64(t)
        }
    }
    /// `x + s` rounded down.
    fn down(&self, x: f64) -> f64 {
        let (t, e) = two_sum(x, self.s);
        if e == 0.0 {
            t
        } else {
            crate::precision::rounding::next_down_f64(t)
        }
    }
}

impl Mechanism for Shifted {
    fn name(&self) -> String {
        format!("Shifted({}, {})", self.base.name(), num(self.s))
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(Inverse(Arc::new(self.clone())))
    }
    fn is_symmetric(&self) -> bool {
        self.s <= 0.0 && self.base.is_symmetric()
    }
    fn atoms(&self) -> Vec<Atom> {
        self.base
            .atoms()
            .into_iter()
            .map(|a| Atom {
                // an exact sum stays exact (the engine picks s so that the atom's lower
                // end lands on a grid point)
                loss: (self.down(a.loss.0), self.up(a.loss.1)),
                q: a.q,
                p: self.p(a.p),
            })
            .collect()
    }
    fn q_at_plus_infinity(&self) -> Mass {
        self.base.q_at_plus_infinity()
    }
    fn p_at_minus_infinity(&self) -> Mass {
        self.p(self.base.p_at_minus_infinity())
    }
    fn continuous_support(&self) -> Option<(f64, f64)> {
        self.base
            .continuous_support()
            .map(|(a, b)| (self.down(a), self.up(b)))
    }
    fn tails(&self, loss: f64) -> Tails {
        // the base's tails at ℓ − s, read at both roundings of the difference
        let (a, b) = {
            let (d, e) = two_sum(loss, -self.s);
            if e == 0.0 || !d.is_finite() {
                (d, d)
            } else {
                (
                    crate::precision::rounding::next_down_f64(d),
                    crate::precision::rounding::next_up_f64(d),
                )
            }
        };
        let ta = self.base.tails(a);
        let tb = if b.to_bits() == a.to_bits() {
            ta
        } else {
            self.base.tails(b)
        };
        Tails {
            q_le: Mass {
                lo: ta.q_le.lo,
                hi: tb.q_le.hi,
            },
            q_gt: Mass {
                lo: tb.q_gt.lo,
                hi: ta.q_gt.hi,
            },
            p_le: self.p(Mass {
                lo: ta.p_le.lo,
                hi: tb.p_le.hi,
            }),
            p_gt: self.p(Mass {
                lo: tb.p_gt.lo,
                hi: ta.p_gt.hi,
            }),
        }
    }
    fn loss_reach(&self) -> f64 {
        self.base.loss_reach() + self.s
    }
    fn loss_spread(&self) -> f64 {
        self.base.loss_spread()
    }
    fn loss_sup(&self) -> Option<f64> {
        self.base.loss_sup().map(|x| self.up(x))
    }
    fn atom_lattice(&self) -> Lattice {
        Lattice::Irregular
    }
    fn gaussian_dominating_mu(&self) -> Option<f64> {
        None
    }
}
