//! Certified values: an [`Enclosure`] of the exact value together with the path that
//! computed it (the f64 path with its error model, the MPFR fallback, or MPFR at the
//! requested precision). Every conversion of a bound (ε(δ), δ(ε), composition) returns
//! one; the reported number is the enclosure's safe end ([`Certified::upper`] for ε, δ
//! and μ).
use super::enclosure::Enclosure;
use rug::Float;

/// How a certified value was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Path {
    /// The f64 path met its accuracy target.
    F64,
    /// The f64 path could not certify; MPFR at 64 bits answered instead.
    MpfrFallback,
    /// MPFR at the requested precision.
    Mpfr(u32),
}

impl Path {
    /// Short description for reports.
    pub fn describe(&self) -> String {
        match self {
            Path::F64 => "f64".into(),
            Path::MpfrFallback => "mpfr-64 (f64 fallback)".into(),
            Path::Mpfr(b) => format!("mpfr-{b}"),
        }
    }
}

/// A certified real value: the exact value lies in `enclosure`; a bound is reported by
/// the side that is safe for it (its upper end for ε and δ).
#[derive(Debug, Clone)]
pub struct Certified {
    /// Enclosure of the exact value.
    pub enclosure: Enclosure,
    /// How it was computed.
    pub path: Path,
}

impl Certified {
    /// The upper end (the reported bound for ε, δ, μ).
    pub fn upper(&self) -> &Float {
        self.enclosure.hi()
    }
    /// The lower end.
    pub fn lower(&self) -> &Float {
        self.enclosure.lo()
    }
    /// Relative width of the enclosure.
    pub fn rel_width(&self) -> f64 {
        self.enclosure.rel_width()
    }
}
