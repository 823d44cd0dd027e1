//! The vocabulary of the statement checks: enclosures of the numbers a check uses, a
//! counterexample's parameter pair, certified overlap and an error outcome.
//!
//! [`e`] and [`dec`] build enclosures at the precision given; the functions of
//! [`guarded`] add [`GUARD_BITS`] to it, for checks that compose several operations
//! before comparing with a toolkit value computed at the context's precision.
use crate::outcome::Outcome;
use shiftdp::precision::Enclosure;

/// The extra bits of the [`guarded`] enclosures.
pub const GUARD_BITS: u32 = 32;

/// `x` as an enclosure at `bits` bits.
pub fn e(bits: u32, x: f64) -> Enclosure {
    Enclosure::from_f64(bits, x)
}

/// The decimal `s` as an enclosure at `bits` bits; an unparsable `s` encloses
/// everything (no comparison with it is certain).
pub fn dec(bits: u32, s: &str) -> Enclosure {
    Enclosure::parse(bits, s).unwrap_or_else(|_| Enclosure::everything(bits))
}

/// Enclosures at `bits + GUARD_BITS` bits.
pub mod guarded {
    use super::GUARD_BITS;
    use shiftdp::precision::Enclosure;

    /// `x` as an enclosure at `bits + GUARD_BITS` bits.
    pub fn e(bits: u32, x: f64) -> Enclosure {
        super::e(bits + GUARD_BITS, x)
    }

    /// `n` as an enclosure at `bits + GUARD_BITS` bits.
    pub fn u(bits: u32, n: u64) -> Enclosure {
        Enclosure::from_u64(bits + GUARD_BITS, n)
    }

    /// The decimal `s` as an enclosure at `bits + GUARD_BITS` bits ([`super::dec`]).
    pub fn dec(bits: u32, s: &str) -> Enclosure {
        super::dec(bits + GUARD_BITS, s)
    }
}

/// A counterexample's parameter: `(name, v)` with `v` displayed.
pub fn p(name: &str, v: impl std::fmt::Display) -> (String, String) {
    (name.to_string(), v.to_string())
}

/// Two enclosures of the same real number overlap; disjoint ones prove a difference.
pub fn overlap(a: &Enclosure, b: &Enclosure) -> bool {
    a.lo() <= b.hi() && b.lo() <= a.hi()
}

/// The error outcome `what: e`.
pub fn err(what: &str, e: impl std::fmt::Display) -> Outcome {
    Outcome::error(format!("{what}: {e}"))
}

/// Both values of `pair`, or the error outcome `what: e` of its first error ([`err`]).
pub fn both_ok<A, B, E: std::fmt::Display>(
    what: &str,
    pair: (Result<A, E>, Result<B, E>),
) -> Result<(A, B), Box<Outcome>> {
    match pair {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(e), _) | (_, Err(e)) => Err(Box::new(err(what, e))),
    }
}
