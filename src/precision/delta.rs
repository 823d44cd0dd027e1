//! δ of (ε, δ)-DP as one validated type: every surface that takes a δ (the GDP
//! conversions, the Rényi conversions, the analysis query, the CLI) checks it here.

use super::Enclosure;
use crate::error::{Error, Result};
use rug::Float;

/// A δ with `0 < δ < 1` at every point of its enclosure.
///
/// # Example
/// ```
/// use shiftdp::precision::{Enclosure, delta::Delta};
/// assert!(Delta::new(Enclosure::parse(64, "1e-5")?).is_ok());
/// assert!(Delta::new(Enclosure::parse(64, "1")?).is_err());
/// # Ok::<(), shiftdp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Delta(Enclosure);

impl Delta {
    /// The δ of `delta`.
    ///
    /// # Errors
    /// [`Error::Parameter`] named `delta` unless `0 < δ < 1` holds for the whole
    /// enclosure; a positive decimal below MPFR's exponent range (read as
    /// `[0, 2^(emin−1)]`) is refused with that reason rather than read as 0.
    pub fn new(delta: Enclosure) -> Result<Delta> {
        Self::check(&delta)?;
        Ok(Delta(delta))
    }

    /// The check of [`Delta::new`] on a borrowed enclosure.
    ///
    /// # Errors
    /// As [`Delta::new`].
    pub fn check(delta: &Enclosure) -> Result<()> {
        let prec = delta.prec();
        if delta.lo().is_zero() && delta.hi().is_sign_positive() && !delta.hi().is_zero() {
            return Err(Error::param(
                "delta",
                format!("< {}", super::rounding::to_decimal_up(delta.hi(), 10)),
                "must be at least MPFR's smallest positive number 2^(emin−1) (a δ below it \
                 reads as 0)",
            ));
        }
        if !delta.is_finite()
            || delta.lo() <= &Float::with_val(prec, 0)
            || delta.hi() >= &Float::with_val(prec, 1)
        {
            return Err(Error::param(
                "delta",
                delta.mid_f64(),
                "must satisfy 0 < δ < 1",
            ));
        }
        Ok(())
    }

    /// The enclosure of δ.
    pub fn enclosure(&self) -> &Enclosure {
        &self.0
    }
}
