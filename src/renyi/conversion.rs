//! RDP → (ε, δ)-DP conversions (docs/conventions.md §3), optimized over the order α.
//!
//! # Formulas
//! For a mechanism with Rényi curve ε_α (an upper bound on D_α at order α > 1) and
//! target δ ∈ (0, 1), each of the following ε makes it (ε, δ)-DP:
//!
//! * **Mironov** (Mironov 2017, Prop 3): `ε = ε_α + log(1/δ)/(α − 1)`;
//! * **Balle et al. 2020** (Balle–Barthe–Gaboardi–Hsu–Sato 2020, Thm 21):
//!   `ε = ε_α + log((α − 1)/α) − (log δ + log α)/(α − 1)`;
//! * **Bun–Steinke** (Bun–Steinke 2016, Prop 1.3), for ε_α = ρα only:
//!   `ε = ρ + 2√(ρ log(1/δ))` (already optimal over α);
//! * **Asoodeh et al. 2021** (as stated in docs/conventions.md §3):
//!   `ε = (1/(α − 1)) log((e^{(α−1)ε_α} − 1)/(αδ) + 1)`.
//!
//! A negative value is replaced by 0 (any ε ≥ the formula's value is also valid).
//!
//! # Search and certification
//! "Search without rigor, certify with rigor": α is chosen by a log-spaced grid plus
//! golden-section refinement in f64 (tabulated curves: each tabulated order); the
//! reported ε is then recomputed at that α as an [`Enclosure`] at the requested
//! precision and reported by its upper end. Any α > 1 gives a valid bound, so search
//! error costs only tightness.
//!
//! # Rounding
//! Every conversion is increasing in ε_α and decreasing in δ; interval arithmetic on
//! the enclosures of ε_α and δ encloses the exact value, whose upper end is reported.
//!
//! # Validation
//! Each conversion applied to the curve αμ²/2 of G(μ) must give at least the exact
//! ε(δ) of G(μ) ([`Gaussian::epsilon`](crate::tradeoff::Gaussian::epsilon)); see the
//! tests of this module and `tests/renyi.rs`.
//!
//! # References
//! * I. Mironov, *Rényi differential privacy*, CSF 2017.
//! * B. Balle et al., *Hypothesis testing interpretations and Rényi differential
//!   privacy*, AISTATS 2020.
//! * M. Bun, T. Steinke, *Concentrated differential privacy*, TCC 2016.
//! * S. Asoodeh et al., *Three variants of differential privacy: lossless conversion
//!   and applications*, IEEE JSAIT 2021.
use super::curve::RenyiCurve;
use crate::error::{Error, Result, Subject, hyp};
use crate::precision::delta::Delta;
use crate::precision::search::golden_section_min;
use crate::precision::{Enclosure, Real};
use rug::Float;

/// One of the four RDP → (ε, δ) conversions of docs/conventions.md §3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Conversion {
    /// `ε_α + log(1/δ)/(α − 1)` (Mironov 2017, Prop 3).
    Mironov,
    /// `ε_α + log((α−1)/α) − (log δ + log α)/(α − 1)` (Balle et al. 2020, Thm 21).
    Balle2020,
    /// `ρ + 2√(ρ log(1/δ))` for ε_α = ρα (Bun–Steinke 2016, Prop 1.3).
    BunSteinke,
    /// `(1/(α−1)) log((e^{(α−1)ε_α} − 1)/(αδ) + 1)` (Asoodeh et al. 2021).
    Asoodeh2021,
}

impl Conversion {
    /// All four, in the order of docs/conventions.md §3.
    pub const ALL: [Conversion; 4] = [
        Conversion::Mironov,
        Conversion::Balle2020,
        Conversion::BunSteinke,
        Conversion::Asoodeh2021,
    ];

    /// Short identifier (used in JSON).
    pub fn id(&self) -> &'static str {
        match self {
            Conversion::Mironov => "mironov",
            Conversion::Balle2020 => "balle2020",
            Conversion::BunSteinke => "bun-steinke",
            Conversion::Asoodeh2021 => "asoodeh2021",
        }
    }

    /// Citation of the result.
    pub fn source(&self) -> &'static str {
        match self {
            Conversion::Mironov => "Mironov 2017, Prop 3",
            Conversion::Balle2020 => "Balle et al. 2020, Thm 21",
            Conversion::BunSteinke => "Bun–Steinke 2016, Prop 1.3",
            Conversion::Asoodeh2021 => "Asoodeh et al. 2021",
        }
    }

    /// The conversion at one order α, generic over the numeric type: `eps_alpha` is
    /// ε_α, `ln_inv_delta` is `log(1/δ)`. Bun–Steinke ignores α and reads
    /// `eps_alpha` as ρ. The result is not clamped at 0.
    ///
    /// # Formula
    /// See the module documentation (docs/conventions.md §3).
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::Conversion;
    /// // Mironov at α = 2, ε_α = 1, δ = e⁻¹⁰: 1 + 10/1 = 11
    /// let e = Conversion::Mironov.formula(2.0, 1.0, 10.0);
    /// assert!((e - 11.0).abs() < 1e-12);
    /// ```
    pub fn formula<R: Real>(&self, alpha: R, eps_alpha: R, ln_inv_delta: R) -> R {
        let one = alpha.int(1);
        let am1 = alpha.clone() - one.clone();
        match self {
            Conversion::Mironov => eps_alpha + ln_inv_delta / am1,
            Conversion::Balle2020 => {
                // log((α−1)/α) = ln_1p(−1/α)
                let l = (-(one / alpha.clone())).ln_1p();
                eps_alpha + l + (ln_inv_delta - alpha.ln()) / am1
            }
            Conversion::BunSteinke => {
                let rho = eps_alpha;
                rho.clone() + alpha.int(2) * (rho * ln_inv_delta).sqrt()
            }
            Conversion::Asoodeh2021 => {
                // log((e^{x} − 1)/(αδ) + 1)/(α−1), x = (α−1)ε_α, αδ = α·e^{−log(1/δ)}
                let x = am1.clone() * eps_alpha;
                // s = ln t = x + ln(1 − e^{−x}) + log(1/δ) − ln α; for t > 1,
                // ln(1 + t) = s + ln(1 + e^{−s}) stays finite where e^x leaves the
                // exponent range (an identity: either branch encloses the same value)
                let s =
                    x.clone() + (-(-x.clone()).exp_m1()).ln() + ln_inv_delta.clone() - alpha.ln();
                if s.lower_f64() > 0.0 && s.upper_f64().is_finite() {
                    return (s.clone() + (-s).exp().ln_1p()) / am1;
                }
                let t = x.exp_m1() * (ln_inv_delta - alpha.ln()).exp();
                t.ln_1p() / am1
            }
        }
    }
}

/// f64 evaluation of a conversion, stable for large exponents (used by the search).
fn formula_f64(conv: Conversion, alpha: f64, eps_alpha: f64, ln_inv_delta: f64) -> f64 {
    match conv {
        Conversion::Asoodeh2021 => {
            let x = (alpha - 1.0) * eps_alpha;
            // log(e^x − 1) computed without overflow
            let lexm1 = if x > 30.0 {
                x + (-(-x).exp()).ln_1p()
            } else {
                x.exp_m1().ln()
            };
            let l = lexm1 + ln_inv_delta - alpha.ln();
            let lse = if l > 0.0 {
                l + (-l).exp().ln_1p()
            } else {
                l.exp().ln_1p()
            };
            lse / (alpha - 1.0)
        }
        _ => conv.formula(alpha, eps_alpha, ln_inv_delta),
    }
}

/// An (ε, δ) guarantee obtained from a Rényi curve.
#[derive(Debug, Clone)]
pub struct DpFromRdp {
    /// The conversion used.
    pub conversion: Conversion,
    /// The order α it was evaluated at (`None` for Bun–Steinke, which is closed-form
    /// optimal over α).
    pub alpha: Option<f64>,
    /// Enclosure of the conversion's value (clamped at 0); the bound is its upper end.
    pub epsilon: Enclosure,
}

impl DpFromRdp {
    /// The reported ε (upper end of the enclosure) as the f64 at or above it.
    pub fn epsilon_upper(&self) -> f64 {
        self.epsilon.upper_f64()
    }
    /// The reported ε as an MPFR number (upper end).
    pub fn epsilon_hi(&self) -> &Float {
        self.epsilon.hi()
    }
}

/// Result of trying all conversions: the best valid one and all candidates.
#[derive(Debug, Clone)]
pub struct BestConversion {
    /// The smallest certified ε among the applicable conversions.
    pub best: DpFromRdp,
    /// Every applicable conversion's result, in the order of [`Conversion::ALL`].
    pub candidates: Vec<DpFromRdp>,
    /// Conversions that did not apply, with the reason.
    pub skipped: Vec<(Conversion, Error)>,
}

/// Chooses the order α for `conv` on `curve` by an f64 search.
fn search_alpha(curve: &RenyiCurve, conv: Conversion, ln_inv_delta: f64) -> Option<f64> {
    let obj = |a: f64| -> f64 {
        match curve.eval_mid_f64(a) {
            Some(e) => {
                let v = formula_f64(conv, a, e, ln_inv_delta);
                if v.is_finite() { v } else { f64::INFINITY }
            }
            None => f64::INFINITY,
        }
    };
    if let Some(orders) = curve.tabulated_orders() {
        return orders
            .iter()
            .copied()
            .map(|a| (a, obj(a)))
            .filter(|p| p.1.is_finite())
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .map(|p| p.0);
    }
    let (lo, hi) = curve.order_range();
    // search in u = ln(α − 1)
    let ulo = if lo > 1.0 {
        (lo - 1.0).ln()
    } else {
        (1e-6f64).ln()
    };
    let uhi = if hi.is_finite() {
        (hi - 1.0).ln()
    } else {
        (1e6f64).ln()
    };
    let to_a = |u: f64| (1.0 + u.exp()).clamp(lo.max(1.0 + 1e-12), hi);
    let n = 240;
    let mut best = (f64::INFINITY, ulo);
    for i in 0..=n {
        let u = ulo + (uhi - ulo) * i as f64 / n as f64;
        let v = obj(to_a(u));
        if v < best.0 {
            best = (v, u);
        }
    }
    if !best.0.is_finite() {
        return None;
    }
    let step = (uhi - ulo) / n as f64;
    let g = |u: f64| obj(to_a(u));
    let u = golden_section_min(g, (best.1 - step).max(ulo), (best.1 + step).min(uhi), 80).x;
    let a = to_a(u);
    Some(if obj(a) <= best.0 { a } else { to_a(best.1) })
}

/// Converts a Rényi curve to (ε, δ)-DP with one conversion, optimizing α.
///
/// # Formula
/// See the module documentation (docs/conventions.md §3).
///
/// # Errors
/// [`Error::Parameter`] if δ ∉ (0, 1); [`Error::Hypothesis`] for Bun–Steinke on a
/// curve that is not linear; [`Error::NotCertified`] if no order gives a finite value
/// or the certified value is not finite; [`Error::Precision`] for bad `bits`.
///
/// # Rounding
/// The value at the chosen α is recomputed as an enclosure at `bits` bits; the bound
/// is its upper end.
///
/// # Example
/// ```
/// use shiftdp::precision::Enclosure;
/// use shiftdp::renyi::{Conversion, RenyiCurve, convert};
/// let c = RenyiCurve::gaussian(1.0).unwrap();
/// let d = Enclosure::parse(128, "1e-5").unwrap();
/// let bs = convert(&c, Conversion::BunSteinke, &d, 128).unwrap();
/// // ρ + 2√(ρ log 1e5) with ρ = 1/2
/// let exact = 0.5 + 2.0 * (0.5 * 1e5f64.ln()).sqrt();
/// assert!(bs.epsilon_upper() >= exact && bs.epsilon_upper() - exact < 1e-12);
/// ```
///
/// # References
/// See the module documentation.
pub fn convert(
    curve: &RenyiCurve,
    conv: Conversion,
    delta: &Enclosure,
    bits: u32,
) -> Result<DpFromRdp> {
    Enclosure::check_bits(bits)?;
    Delta::check(delta)?;
    let wp = bits + 16;
    let ln_inv_delta = delta.with_prec(wp).ln().neg();
    let zero = Enclosure::from_u64(bits, 0);
    let finish = |e: Enclosure, alpha: Option<f64>| -> Result<DpFromRdp> {
        if !e.is_finite() {
            return Err(Error::NotCertified {
                what: format!("ε from {} on {}", conv.source(), curve.name()),
                reason: "the enclosure is not finite".into(),
            });
        }
        Ok(DpFromRdp {
            conversion: conv,
            alpha,
            epsilon: e.max(&zero).with_prec(bits),
        })
    };
    if conv == Conversion::BunSteinke {
        let rho = curve.rho().ok_or_else(|| {
            hyp(
                Subject::Other(conv.source()),
                "H1: ε_α = ρα for every α > 1 (a linear curve)",
                format!("curve is {}", curve.name()),
            )
        })?;
        let rho = rho.with_prec(wp.max(rho.prec()));
        let e = conv.formula(rho.clone(), rho, ln_inv_delta);
        return finish(e, None);
    }
    let alpha =
        search_alpha(curve, conv, ln_inv_delta.mid_f64()).ok_or_else(|| Error::NotCertified {
            what: format!("ε from {} on {}", conv.source(), curve.name()),
            reason: "no order α gives a finite value".into(),
        })?;
    let eps_alpha = curve.eval(alpha, wp)?;
    let a = Enclosure::from_f64(wp, alpha);
    let e = conv.formula(a, eps_alpha, ln_inv_delta);
    finish(e, Some(alpha))
}

/// Tries every conversion and reports the smallest certified ε and which it was.
///
/// # Errors
/// The errors of [`convert`] for δ and `bits`; [`Error::NotCertified`] if no
/// conversion applies.
///
/// # Example
/// ```
/// use shiftdp::precision::Enclosure;
/// use shiftdp::renyi::{Conversion, RenyiCurve, best_conversion};
/// let c = RenyiCurve::gaussian(1.0).unwrap();
/// let d = Enclosure::parse(128, "1e-5").unwrap();
/// let b = best_conversion(&c, &d, 128).unwrap();
/// assert_eq!(b.best.conversion, Conversion::Balle2020);
/// assert!(b.candidates.iter().all(|c| c.epsilon_upper() >= b.best.epsilon_upper()));
/// ```
pub fn best_conversion(curve: &RenyiCurve, delta: &Enclosure, bits: u32) -> Result<BestConversion> {
    Enclosure::check_bits(bits)?;
    Delta::check(delta)?;
    let mut candidates = Vec::new();
    let mut skipped = Vec::new();
    for conv in Conversion::ALL {
        match convert(curve, conv, delta, bits) {
            Ok(r) => candidates.push(r),
            Err(e) => skipped.push((conv, e)),
        }
    }
    let best = candidates
        .iter()
        .min_by(|x, y| {
            x.epsilon
                .hi()
                .partial_cmp(y.epsilon.hi())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .cloned()
        .ok_or_else(|| Error::NotCertified {
            what: format!("ε(δ) of {}", curve.name()),
            reason: "no conversion applies".into(),
        })?;
    Ok(BestConversion {
        best,
        candidates,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precision::Precision;
    use crate::tradeoff::Gaussian;

    fn exact_gdp_eps(mu: f64, delta: &Enclosure) -> f64 {
        let m = Enclosure::from_f64(128, mu);
        Gaussian::epsilon(&m, delta, Precision::Bits(128))
            .unwrap()
            .lower()
            .to_f64()
    }

    #[test]
    fn every_conversion_dominates_exact_gdp() {
        for &mu in &[0.05, 0.3, 1.0, 2.0, 6.0] {
            for d in ["1e-3", "1e-5", "1e-10", "1e-40"] {
                let delta = Enclosure::parse(128, d).unwrap();
                let curve = RenyiCurve::gaussian(mu).unwrap();
                let exact = exact_gdp_eps(mu, &delta);
                for conv in Conversion::ALL {
                    let r = convert(&curve, conv, &delta, 128).unwrap();
                    assert!(
                        r.epsilon_upper() >= exact,
                        "{conv:?} mu={mu} delta={d}: {} < exact {exact}",
                        r.epsilon_upper()
                    );
                }
            }
        }
    }

    #[test]
    fn mironov_optimum_equals_bun_steinke_on_linear_curves() {
        // min_α ρα + L/(α−1) = ρ + 2√(ρL) at α = 1 + √(L/ρ)
        let curve = RenyiCurve::linear(0.7).unwrap();
        let delta = Enclosure::parse(128, "1e-6").unwrap();
        let m = convert(&curve, Conversion::Mironov, &delta, 128).unwrap();
        let b = convert(&curve, Conversion::BunSteinke, &delta, 128).unwrap();
        assert!((m.epsilon_upper() - b.epsilon_upper()).abs() < 1e-9);
        assert!(m.epsilon_upper() >= b.epsilon_upper() - 1e-15);
        let l = 1e6f64.ln();
        assert!((m.alpha.unwrap() - (1.0 + (l / 0.7).sqrt())).abs() < 1e-3);
    }

    #[test]
    fn bun_steinke_needs_linear_curve() {
        let c = RenyiCurve::tabulated(&[(2.0, 0.1), (8.0, 1.0)]).unwrap();
        let d = Enclosure::parse(64, "1e-5").unwrap();
        match convert(&c, Conversion::BunSteinke, &d, 64) {
            Err(Error::Hypothesis { hypothesis, .. }) => assert!(hypothesis.starts_with("H1")),
            other => panic!("unexpected {other:?}"),
        }
        let b = best_conversion(&c, &d, 64).unwrap();
        assert_eq!(b.skipped.len(), 1);
        // Balle at α = 8: 1 + ln(7/8) + (ln 1e5 − ln 8)/7
        let balle = 1.0 + (7.0f64 / 8.0).ln() + (1e5f64.ln() - 8f64.ln()) / 7.0;
        let at2 = 0.1 + (0.5f64).ln() + (1e5f64.ln() - 2f64.ln());
        assert!(balle < at2);
        assert!((b.best.epsilon_upper() - balle).abs() < 1e-12);
        assert_eq!(b.best.alpha, Some(8.0));
    }

    #[test]
    fn rejects_bad_delta_and_bits() {
        let c = RenyiCurve::linear(1.0).unwrap();
        for d in ["0", "1", "2", "-1e-5"] {
            let delta = Enclosure::parse(64, d).unwrap();
            assert!(matches!(
                convert(&c, Conversion::Mironov, &delta, 64),
                Err(Error::Parameter { .. })
            ));
        }
        let delta = Enclosure::parse(64, "1e-5").unwrap();
        assert!(matches!(
            convert(&c, Conversion::Mironov, &delta, 3),
            Err(Error::Precision { .. })
        ));
    }

    #[test]
    fn zero_curve_gives_zero_epsilon() {
        let c = RenyiCurve::linear(0.0).unwrap();
        let d = Enclosure::parse(64, "1e-5").unwrap();
        let b = best_conversion(&c, &d, 64).unwrap();
        assert!(b.best.epsilon_upper() < 1e-3);
        assert!(b.best.epsilon.lower_f64() >= 0.0);
    }

    #[test]
    fn asoodeh_f64_matches_generic_formula() {
        for &(a, e) in &[(2.0, 0.3), (10.0, 2.0), (40.0, 1.5)] {
            let g = Conversion::Asoodeh2021.formula(a, e, 1e5f64.ln());
            let f = formula_f64(Conversion::Asoodeh2021, a, e, 1e5f64.ln());
            assert!((g - f).abs() < 1e-10 * g.abs().max(1.0));
        }
        // no overflow where the naive formula overflows
        let f = formula_f64(Conversion::Asoodeh2021, 1000.0, 5.0, 1e5f64.ln());
        assert!(f.is_finite() && f > 5.0 - 0.01);
    }
}
