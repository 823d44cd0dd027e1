//! Directed rounding primitives on MPFR numbers (`rug::Float`).
//!
//! Every privacy-critical operation in shiftdp is built from the paired functions of
//! this module. The suffix names the rounding direction and is the contract:
//!
//! * `*_up`: the result is **≥** the exact mathematical value (rounded toward +∞);
//! * `*_down`: the result is **≤** the exact mathematical value (rounded toward −∞).
//!
//! MPFR rounds each of these functions correctly in the requested direction, so each
//! contract holds with no further error term. The functions take the working
//! precision `prec` (bits) explicitly; inputs are used exactly as given.
//!
//! # Example
//! ```
//! use shiftdp::precision::rounding::{div_down, div_up};
//! use rug::Float;
//! let one = Float::with_val(64, 1);
//! let three = Float::with_val(64, 3);
//! let lo = div_down(64, &one, &three);
//! let hi = div_up(64, &one, &three);
//! assert!(lo < hi); // 1/3 is not representable: the two directions differ by one ulp
//! ```
use rug::Float;
use rug::float::Round;
use rug::ops::Pow;

macro_rules! binary {
    ($up:ident, $down:ident, $op:tt, $what:literal) => {
        #[doc = concat!("`", $what, "` rounded toward +∞ (result ≥ exact).")]
        pub fn $up(prec: u32, a: &Float, b: &Float) -> Float {
            Float::with_val_round(prec, a $op b, Round::Up).0
        }
        #[doc = concat!("`", $what, "` rounded toward −∞ (result ≤ exact).")]
        pub fn $down(prec: u32, a: &Float, b: &Float) -> Float {
            Float::with_val_round(prec, a $op b, Round::Down).0
        }
    };
}

binary!(add_up, add_down, +, "a + b");
binary!(sub_up, sub_down, -, "a − b");
binary!(mul_up, mul_down, *, "a · b");
binary!(div_up, div_down, /, "a / b");

macro_rules! unary {
    ($up:ident, $down:ident, $method:ident, $what:literal) => {
        #[doc = concat!("`", $what, "` rounded toward +∞ (result ≥ exact).")]
        pub fn $up(prec: u32, a: &Float) -> Float {
            // exact copy, function rounded up, then (if narrower) rounded up again
            let mut x = Float::with_val(prec.max(a.prec()), a);
            x.$method(Round::Up);
            Float::with_val_round(prec, &x, Round::Up).0
        }
        #[doc = concat!("`", $what, "` rounded toward −∞ (result ≤ exact).")]
        pub fn $down(prec: u32, a: &Float) -> Float {
            let mut x = Float::with_val(prec.max(a.prec()), a);
            x.$method(Round::Down);
            Float::with_val_round(prec, &x, Round::Down).0
        }
    };
}

// The argument is copied exactly (at the larger of the two precisions), so the only
// roundings are the function's own and the final narrowing, both in the named direction.
unary!(exp_up, exp_down, exp_round, "exp(a)");
unary!(ln_up, ln_down, ln_round, "ln(a)");
unary!(sqrt_up, sqrt_down, sqrt_round, "√a");
unary!(ln_1p_up, ln_1p_down, ln_1p_round, "ln(1 + a)");
unary!(exp_m1_up, exp_m1_down, exp_m1_round, "exp(a) − 1");

/// `erfc(a)` rounded toward +∞ (result ≥ exact).
pub fn erfc_up(prec: u32, a: &Float) -> Float {
    let mut x = Float::with_val(prec.max(a.prec()), a);
    x.erfc_round(Round::Up);
    Float::with_val_round(prec, &x, Round::Up).0
}

/// `erfc(a)` rounded toward −∞ (result ≤ exact).
pub fn erfc_down(prec: u32, a: &Float) -> Float {
    let mut x = Float::with_val(prec.max(a.prec()), a);
    x.erfc_round(Round::Down);
    Float::with_val_round(prec, &x, Round::Down).0
}

/// `a^n` for `a ≥ 0` rounded toward +∞ (result ≥ exact).
pub fn powu_up(prec: u32, a: &Float, n: u64) -> Float {
    let e = Float::with_val(64, n);
    Float::with_val_round(prec, a.pow(&e), Round::Up).0
}

/// `a^n` for `a ≥ 0` rounded toward −∞ (result ≤ exact).
pub fn powu_down(prec: u32, a: &Float, n: u64) -> Float {
    let e = Float::with_val(64, n);
    Float::with_val_round(prec, a.pow(&e), Round::Down).0
}

/// The smallest positive MPFR number, `2^(emin−1)` (about `2.4e-323228497` with the
/// default exponent range), at `prec` bits: the upper end of a positive quantity whose
/// value lies below MPFR's exponent range (the value MPFR itself returns when a positive
/// result underflows under rounding toward +∞).
pub fn min_positive(prec: u32) -> Float {
    let mut m = Float::with_val(prec, 0);
    m.next_up();
    m
}

/// The f64 at or above `a` (result ≥ exact).
pub fn to_f64_up(a: &Float) -> f64 {
    a.to_f64_round(Round::Up)
}

/// The f64 at or below `a` (result ≤ exact).
pub fn to_f64_down(a: &Float) -> f64 {
    a.to_f64_round(Round::Down)
}

/// The f64 at or above the exact value of the decimal `s` (`"1e-5"`, `"0.3"`, `"2"`),
/// or `None` if `s` is not a finite decimal. MPFR reads the decimal exactly and rounds
/// once, toward +∞ (result ≥ the decimal typed): use it for inputs whose larger value is
/// the safe one (μ, a sampling rate p).
///
/// # Example
/// ```
/// use shiftdp::precision::rounding::{parse_f64_down, parse_f64_up};
/// // 0.1 is not a double: the two reads bracket it, one ulp apart
/// let (lo, hi) = (parse_f64_down("0.1").unwrap(), parse_f64_up("0.1").unwrap());
/// assert!(lo < hi && hi == lo.next_up() && (lo == 0.1 || hi == 0.1));
/// assert_eq!(parse_f64_up("0.5"), Some(0.5)); // exact decimals stay exact
/// assert_eq!(parse_f64_up("nan"), None);
/// ```
pub fn parse_f64_up(s: &str) -> Option<f64> {
    parse_f64_round(s, Round::Up)
}

/// The f64 at or below the exact value of the decimal `s` (result ≤ the decimal typed),
/// or `None`: for inputs whose smaller value is the safe one (a target δ or ε).
pub fn parse_f64_down(s: &str) -> Option<f64> {
    parse_f64_round(s, Round::Down)
}

fn parse_f64_round(s: &str, round: Round) -> Option<f64> {
    let t = s.trim();
    // MPFR's parser accepts "inf"/"nan" and "@"-exponents: only plain decimals here
    if t.is_empty()
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return None;
    }
    let parsed = Float::parse(t).ok()?;
    // Two roundings in the same direction (to 2^16 bits, then to f64 by to_f64_round,
    // which also handles the subnormal range) give exactly the one directed rounding to
    // f64: the f64 neighbour on the safe side is representable at 2^16 bits.
    let x = Float::with_val_round(1 << 16, parsed, round).0;
    let v = x.to_f64_round(round);
    v.is_finite().then_some(v)
}

/// Decimal string with `digits` significant digits, rounded toward +∞ (value ≥ `a`).
pub fn to_decimal_up(a: &Float, digits: usize) -> String {
    a.to_string_radix_round(10, Some(digits), Round::Up)
}

/// Decimal string with `digits` significant digits, rounded toward −∞ (value ≤ `a`).
pub fn to_decimal_down(a: &Float, digits: usize) -> String {
    a.to_string_radix_round(10, Some(digits), Round::Down)
}

/// `a·b` rounded toward −∞ to an f64 (result ≤ exact product): the exact product of two
/// f64 has at most 106 bits, so it is formed exactly and rounded once.
///
/// # Example
/// ```
/// use shiftdp::precision::rounding::{mul_down_f64, mul_up_f64};
/// let (lo, hi) = (mul_down_f64(0.1, 3.0), mul_up_f64(0.1, 3.0));
/// assert!(lo <= hi && hi - lo <= f64::EPSILON);
/// ```
pub fn mul_down_f64(a: f64, b: f64) -> f64 {
    to_f64_down(&(Float::with_val(106, a) * Float::with_val(106, b)))
}

/// `a·b` rounded toward +∞ to an f64 (result ≥ exact product).
pub fn mul_up_f64(a: f64, b: f64) -> f64 {
    to_f64_up(&(Float::with_val(106, a) * Float::with_val(106, b)))
}

/// `a/b` rounded toward +∞ to an f64 (result ≥ the exact quotient; `b > 0`): the
/// quotient is formed by MPFR at 53 bits with upward rounding, then converted upward
/// (which matters only below the normal range). A noise multiplier σ becomes the GDP
/// parameter `μ = Δ/σ` this way, and a sampling rate `p = m/n` likewise: a larger μ or
/// p is the less private side.
///
/// # Example
/// ```
/// use shiftdp::precision::rounding::div_up_f64;
/// assert_eq!(div_up_f64(1.0, 2.0), 0.5); // exact quotients stay
/// assert!(div_up_f64(1.0, 3.0) > 1.0 / 3.0); // 1/3 rounds to nearest below 1/3
/// ```
pub fn div_up_f64(a: f64, b: f64) -> f64 {
    let (fa, fb) = (Float::with_val(53, a), Float::with_val(53, b));
    let (q, _) = Float::with_val_round(53, &fa / &fb, Round::Up);
    to_f64_up(&q)
}

/// Next f64 above `x` (for finite `x`): used to push an f64 bound one ulp in the safe
/// direction.
pub fn next_up_f64(x: f64) -> f64 {
    x.next_up()
}

/// Next f64 below `x`.
pub fn next_down_f64(x: f64) -> f64 {
    x.next_down()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::{Integer, Rational};

    /// The exact rational value of `m · 10^e`, built from integers (independent of MPFR's
    /// decimal parser).
    fn decimal(m: i64, e: i32) -> Rational {
        let ten = Integer::from(10).pow(e.unsigned_abs());
        if e >= 0 {
            Rational::from(m) * Rational::from(ten)
        } else {
            Rational::from((Integer::from(m), ten))
        }
    }

    proptest::proptest! {
        /// Against exact rational arithmetic: the result is ≥ a/b and its predecessor is
        /// below it (the smallest such double).
        #[test]
        fn div_up_is_the_smallest_double_at_or_above_the_quotient(
            a in 1e-300f64..1e300, b in 1e-300f64..1e300,
        ) {
            let q = div_up_f64(a, b);
            let exact = Rational::from_f64(a).unwrap() / Rational::from_f64(b).unwrap();
            if q.is_finite() && q > f64::MIN_POSITIVE {
                proptest::prop_assert!(Rational::from_f64(q).unwrap() >= exact);
                proptest::prop_assert!(Rational::from_f64(q.next_down()).unwrap() < exact);
            }
        }
    }

    #[test]
    fn decimal_reads_are_the_neighbouring_doubles() {
        // a deterministic spread of mantissas and exponents, subnormals included
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = (x % 2_000_000_000) as i64 - 1_000_000_000;
            let e = ((x >> 40) % 640) as i32 - 330;
            let s = format!("{m}e{e}");
            let exact = decimal(m, e);
            let (Some(lo), Some(hi)) = (parse_f64_down(&s), parse_f64_up(&s)) else {
                // out of f64 range (overflow to ±∞): refused, never a wrong double
                assert!(exact.clone().abs() > Rational::from_f64(f64::MAX).unwrap());
                continue;
            };
            let (rlo, rhi) = (
                Rational::from_f64(lo).unwrap(),
                Rational::from_f64(hi).unwrap(),
            );
            assert!(rlo <= exact && exact <= rhi, "{s}: {lo} {hi}");
            // tight: equal when the decimal is a double, else adjacent doubles
            let above_lo = Rational::from_f64(lo.next_up()).unwrap();
            assert!(rlo == rhi || above_lo == rhi, "{s}: {lo} {hi}");
        }
        assert_eq!(parse_f64_up("inf"), None);
        assert_eq!(parse_f64_down(""), None);
        assert_eq!(parse_f64_up("1e400"), None);
    }

    #[test]
    fn directions_bracket_exact_value() {
        let p = 53;
        let one = Float::with_val(p, 1);
        let ten = Float::with_val(p, 10);
        let lo = div_down(p, &one, &ten);
        let hi = div_up(p, &one, &ten);
        // 0.1 at 1000 bits lies between the two f64-precision roundings
        let exact = Float::with_val(1000, Float::parse("0.1").unwrap());
        assert!(lo < exact && exact < hi);
        let e_lo = exp_down(p, &one);
        let e_hi = exp_up(p, &one);
        let e = Float::with_val(1000, 1).exp();
        assert!(e_lo < e && e < e_hi);
        let c_lo = erfc_down(p, &ten);
        let c_hi = erfc_up(p, &ten);
        let c = Float::with_val(1000, 10).erfc();
        assert!(c_lo < c && c < c_hi);
    }

    #[test]
    fn pow_brackets() {
        let c = Float::with_val(53, 0.9);
        let lo = powu_down(53, &c, 1000);
        let hi = powu_up(53, &c, 1000);
        let exact = Float::with_val(2000, &c).pow(1000u32);
        assert!(lo <= exact && exact <= hi && lo < hi);
    }
}
