//! Special functions of the standard normal law: Φ, its upper tail, ln Φ and Φ⁻¹.
//!
//! Two implementations of each:
//!
//! * **f64 estimates** (`phi`, `phi_c`, `ln_phi`, `phi_inv`, `phi_inv_ln`): fast, accurate
//!   to a few ulps where the result is a normal f64 (tested against 512-bit MPFR in this
//!   module). They are *estimates*, used by solvers, plots and as starting points.
//! * **Certified enclosures** (`phi_inv_enclosure`, `phi_inv_ln_enclosure`, and
//!   [`Enclosure::phi`](super::Enclosure::phi) etc.): MPFR at any precision, with the
//!   true value guaranteed inside the returned interval.
//!
//! # Formulas
//! * `Φ(x) = erfc(−x/√2)/2`, `1 − Φ(x) = Φ(−x) = erfc(x/√2)/2` (no cancellation).
//! * `ln Φ(x) = ln_1p(−Φ(−x))` for `x > 0`, `ln(erfc(−x/√2)/2)` otherwise.
//! * `Φ⁻¹(p)`: Wichura's AS 241 (PPND16) as the f64 estimate; beyond its range
//!   (`ln p < −700`) the asymptotic solution of `x²/2 + ln(−x√(2π)) = −ln p`;
//!   then Newton's method on `ln Φ(x) = ln p` in MPFR and a certified bracket.
//!
//! # References
//! M. J. Wichura, *Algorithm AS 241: The percentage points of the normal
//! distribution*, Applied Statistics 37 (1988) 477–484.
use super::enclosure::Enclosure;
use crate::error::Error;
use libm::erfc;
use rug::Float;
use std::f64::consts::{FRAC_1_SQRT_2, PI};

/// `Φ(x)` as an f64 estimate.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x * FRAC_1_SQRT_2)
}

/// `1 − Φ(x) = Φ(−x)` as an f64 estimate, accurate in the upper tail.
pub fn phi_c(x: f64) -> f64 {
    0.5 * erfc(x * FRAC_1_SQRT_2)
}

/// Standard normal density.
pub fn npdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * PI).sqrt()
}

/// `ln Φ(x)` as an f64 estimate (accurate in both tails while Φ(x) is a normal f64;
/// for `x < −37` an asymptotic series is used).
pub fn ln_phi(x: f64) -> f64 {
    if x > 0.0 {
        (-phi_c(x)).ln_1p()
    } else if x > -37.0 {
        phi(x).ln()
    } else {
        // ln Φ(x) = −x²/2 − ln(−x) − ln√(2π) + ln(1 − 1/x² + 3/x⁴ − 15/x⁶ …)
        let y = 1.0 / (x * x);
        -0.5 * x * x - (-x).ln() - 0.5 * (2.0 * PI).ln()
            + (-y + 3.0 * y * y - 15.0 * y * y * y).ln_1p()
    }
}

fn poly(c: &[f64], r: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * r + k)
}

const A: [f64; 8] = [
    3.387_132_872_796_366_6,
    1.331_416_678_917_843_8e2,
    1.971_590_950_306_551_3e3,
    1.373_169_376_550_946e4,
    4.592_195_393_154_987e4,
    6.726_577_092_700_87e4,
    3.343_057_558_358_813e4,
    2.509_080_928_730_122_7e3,
];
const B: [f64; 8] = [
    1.0,
    4.231_333_070_160_091e1,
    6.871_870_074_920_579e2,
    5.394_196_021_424_751e3,
    2.121_379_430_158_659_7e4,
    3.930_789_580_009_271e4,
    2.872_908_573_572_194_3e4,
    5.226_495_278_852_545e3,
];
const C: [f64; 8] = [
    1.423_437_110_749_683_5,
    4.630_337_846_156_545,
    5.769_497_221_460_691,
    3.647_848_324_763_204_5,
    1.270_458_252_452_368_4,
    2.417_807_251_774_506e-1,
    2.272_384_498_926_918_4e-2,
    7.745_450_142_783_414e-4,
];
const D: [f64; 8] = [
    1.0,
    2.053_191_626_637_759,
    1.676_384_830_183_803_8,
    6.897_673_349_851e-1,
    1.481_039_764_274_800_8e-1,
    1.519_866_656_361_645_7e-2,
    5.475_938_084_995_345e-4,
    1.050_750_071_644_416_8e-9,
];
const E: [f64; 8] = [
    6.657_904_643_501_103,
    5.463_784_911_164_114,
    1.784_826_539_917_291_3,
    2.965_605_718_285_048_7e-1,
    2.653_218_952_657_612_4e-2,
    1.242_660_947_388_078_4e-3,
    2.711_555_568_743_487_6e-5,
    2.010_334_399_292_288e-7,
];
const F: [f64; 8] = [
    1.0,
    5.998_322_065_558_879e-1,
    1.369_298_809_227_358e-1,
    1.487_536_129_085_061_5e-2,
    7.868_691_311_456_133e-4,
    1.846_318_317_510_054_8e-5,
    1.421_511_758_316_446e-7,
    2.044_263_103_389_939_7e-15,
];

/// Tail branch of AS 241 for `r = √(−ln p) > 0.425`-region, returns the (negative)
/// quantile for a lower-tail probability with `r = √(−ln p)`.
fn as241_tail(r: f64) -> f64 {
    if r <= 5.0 {
        let s = r - 1.6;
        -poly(&C, s) / poly(&D, s)
    } else if r <= 27.0 {
        let s = r - 5.0;
        -poly(&E, s) / poly(&F, s)
    } else {
        // asymptotic: x²/2 + ln(−x) + ln√(2π) = r²
        let l = r * r;
        let mut x = -(2.0 * l).sqrt();
        for _ in 0..4 {
            x = -(2.0 * (l - (-x).ln() - 0.5 * (2.0 * PI).ln()))
                .max(0.0)
                .sqrt();
        }
        x
    }
}

/// `Φ⁻¹(p)` as an f64 estimate, for `0 < p < 1` (NaN outside; ±∞ at 0 and 1).
pub fn phi_inv(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let q = p - 0.5;
    if q.abs() <= 0.425 {
        let r = 0.180625 - q * q;
        return q * poly(&A, r) / poly(&B, r);
    }
    let tail = if q < 0.0 { p } else { 1.0 - p };
    let x = as241_tail((-tail.ln()).sqrt());
    if q < 0.0 { x } else { -x }
}

/// `Φ⁻¹(e^{lnp})` as an f64 estimate for `lnp ≤ 0`, usable far below the f64 range of
/// `p` itself (e.g. `lnp = −10⁶`).
pub fn phi_inv_ln(lnp: f64) -> f64 {
    if lnp.is_nan() || lnp > 0.0 {
        return f64::NAN;
    }
    if lnp > -0.5 {
        // central or upper region: p is representable accurately enough
        return phi_inv(lnp.exp());
    }
    as241_tail((-lnp).sqrt())
}

/// Certified enclosure of `Φ⁻¹(p)` for an enclosure `p ⊂ (0, 1)`.
///
/// # Errors
/// [`Error::Domain`] if `p` is not inside `(0, 1)`; [`Error::NotCertified`] if no
/// bracket could be certified (should not happen for finite inputs).
pub fn phi_inv_enclosure(p: &Enclosure) -> Result<Enclosure, Error> {
    let prec = p.prec();
    let zero = Float::with_val(prec, 0);
    let one = Float::with_val(prec, 1);
    if !(p.lo() > &zero && p.hi() < &one) {
        return Err(Error::Domain {
            what: "Φ⁻¹(p)".into(),
            reason: "requires 0 < p < 1".into(),
        });
    }
    // Work on the lower tail: Φ⁻¹(p) = −Φ⁻¹(1 − p) and 1 − p is exact at doubled range
    let half = Float::with_val(prec, 0.5);
    if p.lo() > &half {
        let one_e = Enclosure::from_u64(prec + 64, 1);
        let q = one_e.sub(&p.with_prec(prec + 64));
        return Ok(phi_inv_enclosure(&q.with_prec(prec))?.neg());
    }
    phi_inv_ln_enclosure(&p.ln())
}

/// Certified enclosure of `Φ⁻¹(e^{lnp})` for an enclosure `lnp` of negative numbers
/// (any magnitude: `lnp = −10⁹` works).
///
/// # Errors
/// [`Error::Domain`] unless `lnp < 0`; [`Error::NotCertified`] if no bracket could be
/// certified.
pub fn phi_inv_ln_enclosure(lnp: &Enclosure) -> Result<Enclosure, Error> {
    let prec = lnp.prec();
    if !lnp.is_finite() || !lnp.hi().is_sign_negative() || lnp.hi().is_zero() {
        return Err(Error::Domain {
            what: "Φ⁻¹(exp(lnp))".into(),
            reason: "requires lnp < 0 and finite".into(),
        });
    }
    let wp = prec + 32;
    // Newton on g(x) = ln Φ(x) − ln p from the f64 estimate, at each end of lnp.
    let solve = |target: &Float| -> Float {
        let mut x = Float::with_val(wp, phi_inv_ln(target.to_f64()));
        let sqrt2 = Float::with_val(wp, 2).sqrt();
        let ln_sqrt_2pi = Float::with_val(wp, rug::float::Constant::Pi) * 2u32;
        let ln_sqrt_2pi = ln_sqrt_2pi.ln() / 2u32;
        for _ in 0..200 {
            // Φ(x) and ln φ(x)
            let phi_x = Float::with_val(wp, Float::with_val(wp, -&x) / &sqrt2).erfc() / 2u32;
            let ln_phi_x = if x.is_sign_positive() {
                let tail = Float::with_val(wp, &x / &sqrt2).erfc() / 2u32;
                Float::with_val(wp, -tail).ln_1p()
            } else {
                Float::with_val(wp, phi_x.ln_ref())
            };
            let ln_pdf =
                Float::with_val(wp, -(Float::with_val(wp, x.square_ref()) / 2u32)) - &ln_sqrt_2pi;
            // g'(x) = φ/Φ ;  step = g / g'
            let g = Float::with_val(wp, &ln_phi_x - target);
            let ratio = Float::with_val(wp, &ln_pdf - &ln_phi_x).exp();
            let step = Float::with_val(wp, &g / &ratio);
            x -= &step;
            let tol = Float::with_val(wp, x.clone().abs() + 1u32) >> (wp as i32 - 8);
            if step.abs() <= tol {
                break;
            }
        }
        x
    };
    let x_lo = solve(lnp.lo());
    let x_hi = solve(lnp.hi());
    // Certify: ln Φ(a) ≤ lnp.lo and ln Φ(b) ≥ lnp.hi, widening as needed.
    let mut w = Float::with_val(prec, x_lo.clone().abs() + 1u32) >> (prec as i32 - 4);
    for _ in 0..60 {
        let a = Float::with_val_round(prec, &x_lo - &w, rug::float::Round::Down).0;
        let b = Float::with_val_round(prec, &x_hi + &w, rug::float::Round::Up).0;
        let la = Enclosure::from_float(&a).ln_phi();
        let lb = Enclosure::from_float(&b).ln_phi();
        if la.hi() <= lnp.lo()
            && lb.lo() >= lnp.hi()
            && let Some(e) = Enclosure::new(a, b)
        {
            return Ok(e);
        }
        w *= 4u32;
    }
    Err(Error::NotCertified {
        what: "Φ⁻¹".into(),
        reason: "could not bracket the quantile".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phi_mp(x: &Float) -> Float {
        let p = x.prec();
        let s = Float::with_val(p, 2).sqrt();
        Float::with_val(p, Float::with_val(p, -x) / s).erfc() / 2u32
    }

    #[test]
    fn f64_phi_matches_mpfr() {
        for i in -370..=80 {
            let x = i as f64 * 0.1;
            let exact = phi_mp(&Float::with_val(512, x)).to_f64();
            let got = phi(x);
            // erfc is accurate to ~1e-15; the rounded argument x/√2 adds (|x|+1)²·2⁻⁵³
            let tol = 1e-14 + (x.abs() + 1.0).powi(2) * 2.3e-16;
            assert!(
                ((got - exact) / exact).abs() < tol,
                "x={x}: {got:e} vs {exact:e}"
            );
        }
    }

    #[test]
    fn f64_phi_inv_inverts_phi() {
        for &p in &[
            1e-300,
            1e-100,
            1e-20,
            1e-5,
            0.01,
            0.3,
            0.5,
            0.77,
            0.999,
            1.0 - 1e-12,
        ] {
            let x = phi_inv(p);
            let back = phi_mp(&Float::with_val(512, x)).to_f64();
            assert!(((back - p) / p).abs() < 1e-9, "p={p}: x={x} Φ(x)={back}");
        }
    }

    #[test]
    fn f64_ln_phi_matches_mpfr_in_tails() {
        for &x in &[-200.0, -38.0, -30.0, -5.0, 0.0, 3.0, 12.0] {
            let xm = Float::with_val(512, x);
            let exact = phi_mp(&xm).ln().to_f64();
            let got = ln_phi(x);
            assert!(
                ((got - exact) / exact).abs() < 1e-12,
                "x={x}: {got} vs {exact}"
            );
        }
    }

    #[test]
    fn certified_quantile_in_extreme_tail() {
        // p = 1e-1000 is far below f64; work from ln p.
        let p = Enclosure::parse(256, "1e-1000").unwrap();
        let x = phi_inv_enclosure(&p).unwrap();
        assert!(x.rel_width() < 1e-70, "{x:?}");
        // Φ(x.lo) ≤ p ≤ Φ(x.hi) checked independently at 1024 bits
        let lo = phi_mp(&Float::with_val(1024, x.lo()));
        let hi = phi_mp(&Float::with_val(1024, x.hi()));
        let pe = Float::with_val(1024, Float::parse("1e-1000").unwrap());
        assert!(lo <= pe && pe <= hi);
    }

    #[test]
    fn certified_quantile_upper_half_and_log_input() {
        let p = Enclosure::parse(128, "0.975").unwrap();
        let x = phi_inv_enclosure(&p).unwrap();
        assert!((x.mid_f64() - 1.959_963_984_540_054).abs() < 1e-14);
        let l = Enclosure::from_f64(128, -1e6);
        let y = phi_inv_ln_enclosure(&l).unwrap();
        assert!(y.is_finite() && y.upper_f64() < -1414.0);
        assert!(phi_inv_enclosure(&Enclosure::from_f64(64, 1.5)).is_err());
    }
}
