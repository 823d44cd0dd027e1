//! Precision layer: one numeric abstraction, two implementations.
//!
//! * [`Real`] is the abstraction that closed-form bounds are written against, once.
//! * `f64` implements it as a fast **estimate** (round-to-nearest, no guarantee).
//! * [`Enclosure`] implements it as a **certified** MPFR interval at any precision:
//!   the exact value of the formula lies inside. Reported privacy bounds come from
//!   enclosures: μ, ε, δ, Rényi values by their upper end, tradeoff values by their
//!   lower end (docs/conventions.md §8).
//! * [`rounding`] holds the directed primitives (`*_up` / `*_down`) everything
//!   certified is built from; [`special`] the normal-law functions Φ, 1 − Φ, ln Φ, Φ⁻¹.
//!
//! # Ends of the exponent range
//!
//! MPFR numbers have exponents in `[emin, emax] = [1 − 2³⁰, 2³⁰ − 1]` (about
//! `10^±323228496`); f64 has `[5e-324, 1.8e308]`. A certified quantity whose exact value
//! leaves either range is reported by the same rule on every surface:
//!
//! * an **upper end that underflows** is the smallest positive number of the format —
//!   [`rounding::min_positive`] (`2^(emin−1)` ≈ `2.4e-323228497`) in MPFR,
//!   `5e-324` in f64 ([`rounding::to_f64_up`]) — never 0 when the quantity is positive
//!   (a lower end that underflows is 0);
//! * an **upper end that overflows** is +∞, which every consumer refuses as "not finite"
//!   (a lower end that overflows is the largest finite number, never +∞);
//! * a positive quantity known only through a bound on its logarithm (Mills' inequality
//!   [`Enclosure::ln_phi_mills_up`], `ln(e^ε Φ(b)) = ε + ln Φ(b)`) is reported as
//!   `exp_up` of that bound, which is the smallest positive number when it underflows.
//!
//! MPFR's directed roundings ([`rounding`]) follow this rule by themselves (rounding a
//! positive underflow toward +∞ gives `2^(emin−1)`, an overflow toward −∞ the largest
//! finite number); so does an [`Enclosure`] built only from them. Decimal output
//! ([`rounding::to_decimal_up`], which the crate's `decimal` module wraps) prints the
//! MPFR end itself, e.g. `2.38…e-323228497`, never a rounded-to-zero f64.
//!
//! Design rule (OpenDP's "search without rigor, certify with rigor"): solvers and
//! searches run in f64; every number that is *reported* as a bound is recomputed as
//! an enclosure.
pub mod certified;
pub mod delta;
pub mod enclosure;
pub mod rounding;
pub mod search;
pub mod special;

pub use enclosure::Enclosure;

use crate::error::Error;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// Precision requested by the user: the f64 fast path or MPFR with `bits` bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// Hardware doubles with a stated error model; falls back to MPFR when it cannot
    /// meet it.
    F64,
    /// MPFR with this many bits of mantissa.
    Bits(u32),
}

impl Precision {
    /// Validates an optional `--bits` value (None ⇒ f64).
    ///
    /// # Errors
    /// [`Error::Precision`] outside the supported range.
    pub fn from_bits(bits: Option<u64>) -> Result<Self, Error> {
        match bits {
            None => Ok(Precision::F64),
            Some(b) => {
                let b32 = u32::try_from(b).map_err(|_| Error::Precision {
                    bits: b,
                    min: Enclosure::MIN_BITS,
                    max: Enclosure::MAX_BITS,
                })?;
                Enclosure::check_bits(b32).map(Precision::Bits)
            }
        }
    }

    /// The MPFR precision to use when this precision falls back to MPFR.
    pub fn mpfr_bits(self) -> u32 {
        match self {
            Precision::F64 => 64,
            Precision::Bits(b) => b,
        }
    }
}

/// Real numbers as the formulas of the papers need them.
///
/// Implemented by `f64` (estimate) and [`Enclosure`] (certified). Constants are made
/// with [`Real::lit`] / [`Real::int`] *from an existing value*, so they inherit its
/// precision.
///
/// # Example
/// ```
/// use shiftdp::precision::{Enclosure, Real};
/// fn gdp_compose<R: Real>(a: R, b: R) -> R { (a.square() + b.square()).sqrt() }
/// assert!((gdp_compose(0.3, 0.4) - 0.5).abs() < 1e-15);
/// let e = gdp_compose(Enclosure::from_f64(128, 0.3), Enclosure::from_f64(128, 0.4));
/// assert!(e.lower_f64() <= 0.5 && 0.5 <= e.upper_f64());
/// ```
pub trait Real:
    Clone
    + Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The f64 `x` at this value's precision.
    fn lit(&self, x: f64) -> Self;
    /// The integer `n` at this value's precision.
    fn int(&self, n: u64) -> Self;
    /// `√x`.
    fn sqrt(&self) -> Self;
    /// `x²`.
    fn square(&self) -> Self;
    /// `eˣ`.
    fn exp(&self) -> Self;
    /// `ln x`.
    fn ln(&self) -> Self;
    /// `ln(1+x)`.
    fn ln_1p(&self) -> Self;
    /// `eˣ − 1`.
    fn exp_m1(&self) -> Self;
    /// `xⁿ`.
    fn powu(&self, n: u64) -> Self;
    /// `xʸ` for `x > 0`.
    fn powf(&self, y: &Self) -> Self;
    /// Φ(x).
    fn phi(&self) -> Self;
    /// 1 − Φ(x).
    fn phi_c(&self) -> Self;
    /// ln Φ(x).
    fn ln_phi(&self) -> Self;
    /// ⌈x⌉.
    fn ceil(&self) -> Self;
    /// min(x, y).
    fn min_r(&self, o: &Self) -> Self;
    /// max(x, y).
    fn max_r(&self, o: &Self) -> Self;
    /// A lower bound as f64 (for `f64`: the value itself).
    fn lower_f64(&self) -> f64;
    /// An upper bound as f64 (for `f64`: the value itself).
    fn upper_f64(&self) -> f64;
    /// Heap bytes this value owns, for memory estimates ([`crate::memory`]): 0 for
    /// `f64`; an [`Enclosure`]'s two MPFR mantissas with their allocator headers.
    fn heap_bytes(&self) -> u64 {
        0
    }
}

impl Real for f64 {
    fn lit(&self, x: f64) -> Self {
        x
    }
    fn int(&self, n: u64) -> Self {
        n as f64
    }
    fn sqrt(&self) -> Self {
        f64::sqrt(*self)
    }
    fn square(&self) -> Self {
        self * self
    }
    fn exp(&self) -> Self {
        f64::exp(*self)
    }
    fn ln(&self) -> Self {
        f64::ln(*self)
    }
    fn ln_1p(&self) -> Self {
        f64::ln_1p(*self)
    }
    fn exp_m1(&self) -> Self {
        f64::exp_m1(*self)
    }
    fn powu(&self, n: u64) -> Self {
        if n <= i32::MAX as u64 {
            self.powi(n as i32)
        } else {
            f64::powf(*self, n as f64)
        }
    }
    fn powf(&self, y: &Self) -> Self {
        f64::powf(*self, *y)
    }
    fn phi(&self) -> Self {
        special::phi(*self)
    }
    fn phi_c(&self) -> Self {
        special::phi_c(*self)
    }
    fn ln_phi(&self) -> Self {
        special::ln_phi(*self)
    }
    fn ceil(&self) -> Self {
        f64::ceil(*self)
    }
    fn min_r(&self, o: &Self) -> Self {
        self.min(*o)
    }
    fn max_r(&self, o: &Self) -> Self {
        self.max(*o)
    }
    fn lower_f64(&self) -> f64 {
        *self
    }
    fn upper_f64(&self) -> f64 {
        *self
    }
}

impl Real for Enclosure {
    fn lit(&self, x: f64) -> Self {
        Enclosure::from_f64(self.prec(), x)
    }
    fn int(&self, n: u64) -> Self {
        Enclosure::from_u64(self.prec(), n)
    }
    fn sqrt(&self) -> Self {
        Enclosure::sqrt(self)
    }
    fn square(&self) -> Self {
        Enclosure::square(self)
    }
    fn exp(&self) -> Self {
        Enclosure::exp(self)
    }
    fn ln(&self) -> Self {
        Enclosure::ln(self)
    }
    fn ln_1p(&self) -> Self {
        Enclosure::ln_1p(self)
    }
    fn exp_m1(&self) -> Self {
        Enclosure::exp_m1(self)
    }
    fn powu(&self, n: u64) -> Self {
        Enclosure::powu(self, n)
    }
    fn powf(&self, y: &Self) -> Self {
        Enclosure::powf(self, y)
    }
    fn phi(&self) -> Self {
        Enclosure::phi(self)
    }
    fn phi_c(&self) -> Self {
        Enclosure::phi_c(self)
    }
    fn ln_phi(&self) -> Self {
        Enclosure::ln_phi(self)
    }
    fn ceil(&self) -> Self {
        Enclosure::ceil(self)
    }
    fn min_r(&self, o: &Self) -> Self {
        Enclosure::min(self, o)
    }
    fn max_r(&self, o: &Self) -> Self {
        Enclosure::max(self, o)
    }
    fn lower_f64(&self) -> f64 {
        Enclosure::lower_f64(self)
    }
    fn upper_f64(&self) -> f64 {
        Enclosure::upper_f64(self)
    }
    fn heap_bytes(&self) -> u64 {
        2 * (u64::from(self.prec()).div_ceil(64) * 8 + 16)
    }
}
