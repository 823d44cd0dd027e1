//! The RDP column of BSA24 Table 1 (docs/conventions.md §7): NoisyCGD with l batches per
//! epoch.
//!
//! # Formula
//! The Rényi curve is ε(α) = ρα with (docs/conventions.md §7, from BSA24 Table 1's
//! RDP column)
//!
//! `ρ = (μ₀²/2) · (1 + c^{l−2}(1 − c²)/(1 − c^l)² · (1 − c^{l(E−1)}))`, μ₀ = L/(bσ),
//!
//! converted to (ε, δ) with the best of the conversions of docs/conventions.md §3
//! ([`best_conversion`]). Table 1's setting: μ₀ = 2/3, l = 40, c = 0.9999, δ = 10⁻⁵,
//! E ∈ {50, 100, 200}, printed RDP values 5.82, 7.61, 9.88.
//!
//! # Rounding
//! ρ is computed as an enclosure (c and δ parsed from their decimal strings, so
//! 0.9999 and 10⁻⁵ are enclosed exactly); the ε reported is the upper end of the
//! certified conversion.
//!
//! # References
//! J. Bok, W. Su, J. Altschuler, *Shifted interpolation for differential privacy*
//! (2024), Table 1.
use super::conversion::{BestConversion, best_conversion};
use super::curve::RenyiCurve;
use crate::error::{Result, hyp as hypothesis};
use crate::precision::Enclosure;
use crate::provenance::ResultId;

/// μ₀ = L/(bσ) of Table 1 (as a decimal fraction: 2/3).
pub const TABLE1_MU0: (u64, u64) = (2, 3);
/// Batches per epoch l = n/b = 60000/1500.
pub const TABLE1_L: u64 = 40;
/// Contraction factor c of Table 1.
pub const TABLE1_C: &str = "0.9999";
/// δ of Table 1.
pub const TABLE1_DELTA: &str = "1e-5";
/// The epochs of Table 1 and the printed RDP column (BSA24 Table 1,
/// docs/conventions.md §7).
pub const TABLE1_PRINTED: [(u64, f64); 3] = [(50, 5.82), (100, 7.61), (200, 9.88)];

/// ρ of the Table-1 RDP curve for general parameters, as an enclosure.
///
/// # Formula
/// `ρ = (μ₀²/2)(1 + c^{l−2}(1 − c²)/(1 − c^l)² · (1 − c^{l(E−1)}))`
/// (docs/conventions.md §7).
///
/// # Errors
/// [`Error::Hypothesis`](crate::Error::Hypothesis) (result "BSA24 Table 1 RDP") unless μ₀ ≥ 0 finite,
/// 0 < c < 1, l ≥ 2, E ≥ 1.
///
/// # Rounding
/// Interval arithmetic at `bits` bits; report the upper end.
///
/// # Example
/// ```
/// use shiftdp::precision::Enclosure;
/// use shiftdp::renyi::table1::cyclic_rdp_rho;
/// // E = 1: no earlier epoch contributes, ρ = μ₀²/2
/// let mu0 = Enclosure::from_f64(128, 0.5);
/// let c = Enclosure::parse(128, "0.99").unwrap();
/// let rho = cyclic_rdp_rho(&mu0, &c, 10, 1, 128).unwrap();
/// assert!((rho.upper_f64() - 0.125).abs() < 1e-15);
/// ```
///
/// # References
/// BSA24 Table 1; docs/conventions.md §7.
pub fn cyclic_rdp_rho(
    mu0: &Enclosure,
    c: &Enclosure,
    l: u64,
    epochs: u64,
    bits: u32,
) -> Result<Enclosure> {
    Enclosure::check_bits(bits)?;
    let hyp = |h: &str, d: String| hypothesis(ResultId::Bsa24Table1Rdp, h, d);
    if !mu0.is_finite() || mu0.lower_f64() < 0.0 {
        return Err(hyp(
            "H1: μ₀ = L/(bσ) ≥ 0 finite",
            format!("μ₀ = {}", mu0.mid_f64()),
        ));
    }
    if !c.is_finite() || !c.is_positive() || c.upper_f64() >= 1.0 {
        return Err(hyp("H2: 0 < c < 1", format!("c = {}", c.mid_f64())));
    }
    if l < 2 {
        return Err(hyp("H3: l ≥ 2 batches per epoch", format!("l = {l}")));
    }
    if epochs < 1 {
        return Err(hyp("H4: E ≥ 1 epochs", format!("E = {epochs}")));
    }
    let wp = bits + 32;
    let c = c.with_prec(wp);
    let one = Enclosure::from_u64(wp, 1);
    let cl = c.powu(l);
    let num = c.powu(l - 2) * (one.clone() - c.square());
    let den = (one.clone() - cl.clone()).square();
    let lm = l
        .checked_mul(epochs - 1)
        .ok_or_else(|| hyp("H4: l(E − 1) < 2⁶⁴", format!("l = {l}, E = {epochs}")))?;
    let tail = one.clone() - c.powu(lm);
    let factor = one + num / den * tail;
    Ok((mu0.with_prec(wp).square().half() * factor).with_prec(bits))
}

/// The Table-1 RDP ε at δ = 10⁻⁵ for E epochs (μ₀ = 2/3, l = 40, c = 0.9999), best
/// conversion reported with which it was.
///
/// # Formula
/// [`cyclic_rdp_rho`] with the Table-1 constants, then [`best_conversion`].
///
/// # Errors
/// [`Error::Hypothesis`](crate::Error::Hypothesis) for `epochs = 0`; errors of the conversion.
///
/// # Rounding
/// Upper end of the certified enclosure (128 bits).
///
/// # Example
/// ```
/// use shiftdp::renyi::table1_rdp_epsilon;
/// let r = table1_rdp_epsilon(50).unwrap();
/// // BSA24 Table 1, RDP column: 5.82 at E = 50
/// assert!((r.best.epsilon_upper() - 5.82).abs() < 0.005);
/// ```
///
/// # References
/// BSA24 Table 1; docs/conventions.md §7.
pub fn table1_rdp_epsilon(epochs: u64) -> Result<BestConversion> {
    let bits = 128;
    let mu0 = Enclosure::from_u64(bits, TABLE1_MU0.0) / Enclosure::from_u64(bits, TABLE1_MU0.1);
    let c = Enclosure::parse(bits, TABLE1_C)?;
    let rho = cyclic_rdp_rho(&mu0, &c, TABLE1_L, epochs, bits)?;
    let curve = RenyiCurve::linear_enclosure(rho)?;
    let delta = Enclosure::parse(bits, TABLE1_DELTA)?;
    best_conversion(&curve, &delta, bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::renyi::Conversion;

    #[test]
    fn reproduces_printed_rdp_column() {
        for (e, printed) in TABLE1_PRINTED {
            let r = table1_rdp_epsilon(e).unwrap();
            let v = r.best.epsilon_upper();
            assert!(
                (v - printed).abs() < 0.005,
                "E = {e}: {v} vs printed {printed}"
            );
            assert_eq!(r.best.conversion, Conversion::Balle2020);
        }
    }

    #[test]
    fn rho_limits() {
        // E → ∞: factor → 1 + c^{l−2}(1−c²)/(1−c^l)²; independent f64 evaluation
        let (c, l) = (0.9999f64, 40u64);
        let mu0 = Enclosure::from_f64(128, 2.0 / 3.0);
        let ce = Enclosure::parse(128, "0.9999").unwrap();
        let rho = cyclic_rdp_rho(&mu0, &ce, l, 100, 128).unwrap();
        let f =
            1.0 + c.powi(38) * (1.0 - c * c) / (1.0 - c.powi(40)).powi(2) * (1.0 - c.powi(40 * 99));
        let expect = (2.0f64 / 3.0).powi(2) / 2.0 * f;
        assert!((rho.mid_f64() - expect).abs() < 1e-9 * expect);
    }

    #[test]
    fn rejects_bad_setting() {
        let mu0 = Enclosure::from_f64(64, 0.5);
        let c1 = Enclosure::from_f64(64, 1.0);
        let c = Enclosure::from_f64(64, 0.9);
        for (cc, l, e, h) in [(&c1, 40, 5, "H2"), (&c, 1, 5, "H3"), (&c, 40, 0, "H4")] {
            match cyclic_rdp_rho(&mu0, cc, l, e, 64) {
                Err(Error::Hypothesis { hypothesis, .. }) => assert!(hypothesis.starts_with(h)),
                other => panic!("{other:?}"),
            }
        }
        assert!(table1_rdp_epsilon(0).is_err());
    }
}
