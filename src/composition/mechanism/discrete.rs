//! Mechanisms with finitely many losses: the discrete Laplace mechanism and randomized
//! response. Their privacy-loss distributions are atoms only, each computed in MPFR.
use super::{ATOM_BITS, Atom, Lattice, Mass, Mechanism, num};
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use std::sync::Arc;

/// Largest integer sensitivity of [`DiscreteLaplace`] (one atom per loss value).
pub const MAX_DISCRETE_SENSITIVITY: u64 = 1 << 20;

/// The discrete Laplace mechanism `x ↦ x + Z`, `Pr[Z = z] ∝ e^{−a|z|}` on the integers,
/// at integer sensitivity `Δ`.
///
/// # Formula
/// The pair is `P = DLap(0, a)`, `Q = DLap(Δ, a)`, with `Pr[Z = z] = c e^{−a|z|}`,
/// `c = (1 − e^{−a})/(1 + e^{−a})`. The loss `ℓ(x) = a(|x| − |x − Δ|)` takes the values
/// `−aΔ` (`x ≤ 0`: Q-mass `e^{−aΔ}/(1 + e^{−a})`, P-mass `1/(1 + e^{−a})`), `aΔ` (`x ≥ Δ`:
/// the mirror) and `a(2x − Δ)` for `0 < x < Δ` (Q-mass `c e^{−a(Δ−x)}`, P-mass
/// `c e^{−ax}`). The map `x ↦ Δ − x` exchanges P and Q, so the pair is symmetric. This is
/// dp_accounting's `DiscreteLaplacePrivacyLoss(parameter = a, sensitivity = Δ)`; one
/// step is `(aΔ, 0)`-DP.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscreteLaplace {
    a: f64,
    sensitivity: u64,
}

impl DiscreteLaplace {
    /// `DLap(a)` at integer sensitivity `Δ`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `a` is finite and positive and
    /// `1 ≤ Δ ≤` [`MAX_DISCRETE_SENSITIVITY`].
    pub fn new(a: f64, sensitivity: u64) -> Result<DiscreteLaplace> {
        if !(a.is_finite() && a > 0.0) {
            return Err(Error::param(
                "a",
                a,
                "discrete Laplace parameter must be finite and > 0",
            ));
        }
        if sensitivity == 0 || sensitivity > MAX_DISCRETE_SENSITIVITY {
            return Err(Error::param(
                "sensitivity",
                sensitivity,
                "integer sensitivity must be in 1..=1048576",
            ));
        }
        Ok(DiscreteLaplace { a, sensitivity })
    }
}

impl Mechanism for DiscreteLaplace {
    fn name(&self) -> String {
        format!("DiscreteLaplace(a={}, Δ={})", num(self.a), self.sensitivity)
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(self.clone())
    }
    fn is_symmetric(&self) -> bool {
        true
    }
    fn atoms(&self) -> Vec<Atom> {
        let p = ATOM_BITS;
        let a = Enclosure::from_f64(p, self.a);
        let one = Enclosure::from_u64(p, 1);
        let ea = a.neg().exp(); // e^{−a}
        let c = one.sub(&ea).div(&one.add(&ea));
        let d = self.sensitivity;
        let ad = a.mul(&Enclosure::from_u64(p, d));
        let side = one.div(&one.add(&ea)); // 1/(1 + e^{−a})
        let far = side.mul(&ad.neg().exp());
        let mut out = Vec::with_capacity(d as usize + 1);
        out.push(Atom {
            loss: (-ad.upper_f64(), -ad.lower_f64()),
            q: Mass::of(&far),
            p: Mass::of(&side),
        });
        for x in 1..d {
            let qx = c.mul(&a.mul(&Enclosure::from_u64(p, d - x)).neg().exp());
            let px = c.mul(&a.mul(&Enclosure::from_u64(p, x)).neg().exp());
            // ℓ = a(2x − Δ), exact in MPFR from the integers
            let l = if 2 * x >= d {
                a.mul(&Enclosure::from_u64(p, 2 * x - d))
            } else {
                a.mul(&Enclosure::from_u64(p, d - 2 * x)).neg()
            };
            out.push(Atom {
                loss: (l.lower_f64(), l.upper_f64()),
                q: Mass::of(&qx),
                p: Mass::of(&px),
            });
        }
        out.push(Atom {
            loss: (ad.lower_f64(), ad.upper_f64()),
            q: Mass::of(&side),
            p: Mass::of(&far),
        });
        out
    }
    fn loss_reach(&self) -> f64 {
        self.a * self.sensitivity as f64
    }
    fn loss_spread(&self) -> f64 {
        self.a
    }
    fn atom_lattice(&self) -> Lattice {
        // every loss is a(2x − Δ) or ±aΔ: an integer multiple of a
        Lattice::Unit(self.a)
    }
    fn loss_sup(&self) -> Option<f64> {
        let ad = Enclosure::from_f64(ATOM_BITS, self.a)
            .mul(&Enclosure::from_u64(ATOM_BITS, self.sensitivity));
        Some(ad.upper_f64())
    }
}

/// Randomized response on `k` buckets with noise parameter `p`: the true bucket with
/// probability `1 − p`, a uniformly random bucket (possibly the true one) with
/// probability `p`.
///
/// # Formula
/// Neighbouring inputs differ in their bucket (0 under P, 1 under Q). With
/// `u = p/k` and `s = 1 − p + u`, the output 1 has Q-mass `s` and P-mass `u` (loss
/// `ln(s/u)`), the output 0 the mirror (loss `−ln(s/u)`), and the `k − 2` other outputs
/// Q-mass = P-mass `(k − 2)u` (loss 0). Symmetric; one step is `(ln(s/u), 0)`-DP, and
/// `p = 0` (no noise) puts mass 1 at `+∞`. This is dp_accounting's
/// `RandomizedResponsePrivacyLoss(noise_parameter = p, num_buckets = k)`.
#[derive(Debug, Clone, PartialEq)]
pub struct RandomizedResponse {
    p: f64,
    k: u64,
}

impl RandomizedResponse {
    /// Randomized response with noise parameter `p` on `k` buckets.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ p ≤ 1` and `k ≥ 2`.
    pub fn new(p: f64, k: u64) -> Result<RandomizedResponse> {
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::param(
                "noise_parameter",
                p,
                "randomized response noise parameter must be in [0, 1]",
            ));
        }
        if k < 2 {
            return Err(Error::param("buckets", k, "need at least 2 buckets"));
        }
        Ok(RandomizedResponse { p, k })
    }
    fn u_s(&self) -> (Enclosure, Enclosure) {
        let b = ATOM_BITS;
        let p = Enclosure::from_f64(b, self.p);
        let u = p.div(&Enclosure::from_u64(b, self.k));
        let s = Enclosure::from_u64(b, 1).sub(&p).add(&u);
        (u, s)
    }
}

impl Mechanism for RandomizedResponse {
    fn name(&self) -> String {
        format!("RandomizedResponse(p={}, k={})", num(self.p), self.k)
    }
    fn inverse(&self) -> Arc<dyn Mechanism> {
        Arc::new(self.clone())
    }
    fn is_symmetric(&self) -> bool {
        true
    }
    fn atoms(&self) -> Vec<Atom> {
        if self.p == 0.0 {
            return vec![];
        }
        let (u, s) = self.u_s();
        let mut out = vec![Atom::of(&u, &s), Atom::of(&s, &u)];
        if self.k > 2 {
            let o = u.mul(&Enclosure::from_u64(ATOM_BITS, self.k - 2));
            out.push(Atom {
                loss: (0.0, 0.0),
                q: Mass::of(&o),
                p: Mass::of(&o),
            });
        }
        out
    }
    fn q_at_plus_infinity(&self) -> Mass {
        if self.p == 0.0 {
            Mass { lo: 1.0, hi: 1.0 }
        } else {
            Mass::ZERO
        }
    }
    fn p_at_minus_infinity(&self) -> Mass {
        self.q_at_plus_infinity()
    }
    fn loss_reach(&self) -> f64 {
        if self.p == 0.0 {
            1.0
        } else {
            let (u, s) = self.u_s();
            s.div(&u).ln().upper_f64()
        }
    }
    fn loss_spread(&self) -> f64 {
        self.loss_reach()
    }
    fn loss_sup(&self) -> Option<f64> {
        if self.p == 0.0 {
            None
        } else {
            Some(self.loss_reach())
        }
    }
}
