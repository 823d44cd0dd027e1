//! Decimal output in the safe direction.
//!
//! Every number shiftdp reports as a bound is printed from a certified end with the
//! rounding direction in the function's name: [`fmt_up`] for upper bounds (μ, ε, δ,
//! Rényi values), [`fmt_down`] for lower bounds (tradeoff values, lower ends). The
//! decimal string itself is ≥ (resp. ≤) the MPFR number, not only the f64 it would
//! round to (the shortest round-trip form of an f64 can lie on the wrong side).
//!
//! # Example
//! ```
//! use rug::Float;
//! use shiftdp::decimal::{fmt_down, fmt_up};
//! let third = Float::with_val(53, 1) / 3u32;
//! assert_eq!(fmt_up(&third, 20), "3.33333334e-1");
//! assert_eq!(fmt_down(&third, 20), "3.33333333e-1");
//! ```
use crate::precision::rounding::{to_decimal_down, to_decimal_up};
use rug::ops::Pow;

/// Number of significant decimal digits that `bits` bits carry, plus two guard digits:
/// `⌈bits·log₁₀2⌉ + 2`.
pub fn digits_for(bits: u32) -> usize {
    ((bits as f64) * std::f64::consts::LOG10_2).ceil() as usize + 2
}

/// Decimal string of an upper bound, rounded up (toward +∞), with digits matching
/// `bits`.
pub fn fmt_up(x: &rug::Float, bits: u32) -> String {
    to_decimal_up(x, digits_for(bits))
}

/// Decimal string of a lower bound, rounded down (toward −∞), with digits matching
/// `bits`.
pub fn fmt_down(x: &rug::Float, bits: u32) -> String {
    to_decimal_down(x, digits_for(bits))
}

/// Decimal string of an f64 lower bound with `digits` significant digits, rounded down
/// (the decimal is ≤ `x`; `{:e}` rounds to nearest and can land above it).
///
/// # Example
/// ```
/// use shiftdp::decimal::{f64_down, f64_up};
/// let x = 0.158_655_253_931_457_05_f64;
/// assert!(f64_down(x, 17).parse::<f64>().unwrap() <= x);
/// assert!(f64_up(x, 17).parse::<f64>().unwrap() >= x);
/// assert_eq!(f64_down(f64::NAN, 5), "NaN");
/// ```
pub fn f64_down(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    to_decimal_down(&rug::Float::with_val(53, x), digits)
}

/// Decimal string of an f64 upper bound with `digits` significant digits, rounded up
/// (the decimal is ≥ `x`).
pub fn f64_up(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    to_decimal_up(&rug::Float::with_val(53, x), digits)
}

/// `x` with `decimals` digits after the point, rounded up exactly (⌈x·10^d⌉/10^d in
/// rational arithmetic): for upper bounds in fixed-point tables.
///
/// # Example
/// ```
/// use shiftdp::decimal::{fixed_down, fixed_up};
/// assert_eq!(fixed_up(1.23456, 3), "1.235");
/// assert_eq!(fixed_down(1.23456, 3), "1.234");
/// assert_eq!(fixed_up(-0.0004, 3), "-0.000");
/// assert_eq!(fixed_up(2.0, 2), "2.00");
/// ```
pub fn fixed_up(x: f64, decimals: usize) -> String {
    fixed(x, decimals, true)
}

/// `x` with `decimals` digits after the point, rounded down exactly: for lower bounds.
pub fn fixed_down(x: f64, decimals: usize) -> String {
    fixed(x, decimals, false)
}

fn fixed(x: f64, decimals: usize, up: bool) -> String {
    let Some(q) = rug::Rational::from_f64(x) else {
        return format!("{x}");
    };
    let scale = rug::Integer::from(10u32).pow(decimals as u32);
    let scaled = q * &scale;
    let k = if up {
        rug::Integer::from(scaled.ceil_ref())
    } else {
        rug::Integer::from(scaled.floor_ref())
    };
    let neg = k < 0 || (x < 0.0 && k == 0);
    let digits = k.abs().to_string();
    let digits = format!("{digits:0>width$}", width = decimals + 1);
    let (int, frac) = digits.split_at(digits.len() - decimals);
    let sign = if neg { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// Short human form of an f64 estimate (tables of estimates; never for a bound).
pub fn short(x: f64) -> String {
    if x == 0.0 || (1e-4..1e6).contains(&x.abs()) {
        format!("{x:.6}")
    } else {
        format!("{x:.6e}")
    }
}

/// The relative width `(hi − lo)/|mid|` of an enclosure, rounded up, for display: `0`
/// for a point, `1.2e-40` within f64's range, `≤ 2^-32760` below it (where the f64
/// quotient would underflow to a misleading 0).
///
/// # Example
/// ```
/// use shiftdp::decimal::rel_width;
/// use shiftdp::precision::Enclosure;
/// assert_eq!(rel_width(&Enclosure::from_u64(64, 3)), "0");
/// let x = Enclosure::from_u64(8192, 3).exp();
/// assert!(rel_width(&x).starts_with("≤ 2^-81"));
/// ```
pub fn rel_width(e: &crate::precision::Enclosure) -> String {
    let l = e.rel_width_log2();
    if l == f64::NEG_INFINITY {
        "0".into()
    } else if l > -990.0 {
        f64_up(e.rel_width(), 2)
    } else {
        format!("≤ 2^{}", l.ceil())
    }
}

/// The same decimal number written for a person: plain notation when its leading digit
/// is at 10⁻⁵ … 10⁵ (`5.49783e-1` → `0.549783`), scientific otherwise (`1.2e-7`),
/// trailing zeros of the fraction dropped. The value is unchanged (the digits are moved,
/// never rounded), so a rounded end keeps its direction. Text that is not a finite
/// decimal (`inf`, `NaN`) is returned as given.
///
/// # Example
/// ```
/// use shiftdp::decimal::readable;
/// assert_eq!(readable("5.49783e-1"), "0.549783");
/// assert_eq!(readable("3.77695e1"), "37.7695");
/// assert_eq!(readable("1.50000e5"), "150000");
/// assert_eq!(readable("-2.5e-7"), "-2.5e-7");
/// assert_eq!(readable("7.66960e-4"), "0.00076696");
/// assert_eq!(readable("inf"), "inf");
/// ```
pub fn readable(text: &str) -> String {
    let Some((neg, digits, point)) = significand(text) else {
        return text.to_string();
    };
    if digits.is_empty() {
        return "0".to_string();
    }
    let n = digits.len() as i64;
    let out = if (-4..=6).contains(&point) {
        if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point >= n {
            format!("{digits}{}", "0".repeat((point - n) as usize))
        } else {
            let (a, b) = digits.split_at(point as usize);
            format!("{a}.{b}")
        }
    } else {
        let (a, b) = digits.split_at(1);
        let frac = if b.is_empty() {
            String::new()
        } else {
            format!(".{b}")
        };
        format!("{a}{frac}e{}", point - 1)
    };
    format!("{}{out}", if neg { "-" } else { "" })
}

/// A finite decimal `text` (an optional `-`, digits with at most one `.`, an optional
/// exponent) as its sign, its significant digits and `point`: the value is
/// `±0.d₁d₂… × 10^point`, the digits without leading or trailing zeros (none for zero).
/// `None` for text that is not such a decimal (`inf`, `NaN`).
///
/// # Example
/// ```
/// use shiftdp::decimal::significand;
/// assert_eq!(significand("-0.0120e3"), Some((true, "12".to_string(), 2)));
/// assert_eq!(significand("0.000"), Some((false, String::new(), 0)));
/// assert_eq!(significand("inf"), None);
/// ```
pub fn significand(text: &str) -> Option<(bool, String, i64)> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exp) = match body.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().ok()?),
        None => (body, 0),
    };
    let int_len = mantissa.find('.').unwrap_or(mantissa.len());
    let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    if digits.is_empty()
        || mantissa.matches('.').count() > 1
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let lead = digits.bytes().take_while(|&b| b == b'0').count();
    if lead == digits.len() {
        return Some((neg, String::new(), 0));
    }
    let point = int_len as i64 + exp - lead as i64;
    Some((neg, digits[lead..].trim_end_matches('0').to_string(), point))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The number a decimal string denotes, at 4096 bits: two decimals of at most 17
    /// significant digits with exponents in f64's range are equal exactly when these are.
    fn value(s: &str) -> rug::Float {
        rug::Float::with_val(4096, rug::Float::parse(s).expect("a decimal"))
    }

    proptest! {
        /// `readable` moves digits and never rounds: the same number, both directions.
        #[test]
        fn readable_keeps_the_value(bits in any::<u64>(), digits in 1usize..18) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            for s in [f64_up(x, digits), f64_down(x, digits)] {
                let r = readable(&s);
                prop_assert_eq!(value(&r), value(&s), "{} → {}", s, r);
                let lead = s.trim_start_matches('-').as_bytes()[0];
                prop_assert!(x == 0.0 || lead != b'0' || r == "0");
            }
        }
    }

    #[test]
    fn readable_plain_from_1e_minus_5_to_below_1e6() {
        assert_eq!(readable("1.23456e-5"), "0.0000123456");
        assert_eq!(readable("9.99999e-6"), "9.99999e-6");
        assert_eq!(readable("9.99999e5"), "999999");
        assert_eq!(readable("1.00000e6"), "1e6");
        assert_eq!(readable("1.50000e7"), "1.5e7");
        assert_eq!(readable("-0"), "0");
        assert_eq!(readable("NaN"), "NaN");
        assert_eq!(readable("-inf"), "-inf");
    }
}
