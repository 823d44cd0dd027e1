//! Region overrides of the validator: `--region KEY=LO..HI[,KEY=V…]`.
//!
//! An override narrows (or moves) one parameter of an entry's sampled region. After the
//! entry draws its point, each override, in order, redraws its parameter from its range
//! with the same deterministic generator ([`SplitMix64`]) and replaces it in the point
//! (or adds it). A fixed value `KEY=V` is used as typed. Setting `steps` removes a drawn
//! `epochs` and vice versa (a setting takes one of the two). Points the overrides make
//! inadmissible (rejected by [`shiftdp::settings::Setting::new`]) are skipped and counted
//! by the validator; points that fail a hypothesis of the bound are skipped as always.
//!
//! # Formula
//! Integer keys (`steps`, `n`, `batch`, `epochs`) draw uniformly in `LO..=HI`; real keys
//! draw uniformly in `[LO, HI]` and print the value with enough decimals to resolve the
//! range (≥ 3 significant digits of `HI − LO`), never below `LO` or above `HI`.
//!
//! # Errors
//! [`parse_region`] returns [`Error::Parse`] for an unknown key, a missing `=`, a value
//! that is not a finite decimal (or not a non-negative integer for integer keys), or
//! `LO > HI`.
//!
//! # Example
//! ```
//! use shiftdp_verify::check::{parse_region, RegionRange};
//! let r = parse_region("steps=1..50,eta=0.1..0.2,n=4").unwrap();
//! assert_eq!(r.len(), 3);
//! assert_eq!(r[0].range, RegionRange::Int(1, 50));
//! assert_eq!(r[2].to_string(), "n=4");
//! assert!(parse_region("speed=1..2").is_err());
//! assert!(parse_region("eta=0.5..0.1").is_err());
//! ```
//!
//! # References
//! docs/conventions.md §5 (validator); proofs/README.md and [`crate::proofs`] (the
//! obligations block of a proofs file, where `region = { steps = [1, 50] }` narrows an
//! obligation's region the same way).
use super::catalogue::Params;
use super::common::SplitMix64;
use shiftdp::error::{Error, Result};

/// Setting flags an override may name, with whether they are integers.
pub const KEYS: [(&str, bool); 11] = [
    ("steps", true),
    ("n", true),
    ("batch", true),
    ("epochs", true),
    ("eta", false),
    ("noise", false),
    ("sensitivity", false),
    ("smoothness", false),
    ("strong-convexity", false),
    ("diameter", false),
    ("contraction", false),
];

/// The range of one override.
#[derive(Debug, Clone, PartialEq)]
pub enum RegionRange {
    /// Integers `lo..=hi`.
    Int(u64, u64),
    /// Reals `[lo, hi]`.
    Real(f64, f64),
    /// One value, used as typed (a decimal string).
    Fixed(String),
}

/// One override: a setting flag and its range.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionOverride {
    /// The setting flag (one of [`KEYS`]).
    pub key: &'static str,
    /// Its range.
    pub range: RegionRange,
}

fn key_of(k: &str) -> Result<(&'static str, bool)> {
    KEYS.iter()
        .find(|(name, _)| *name == k)
        .copied()
        .ok_or_else(|| Error::Parse {
            input: k.to_string(),
            reason: format!(
                "unknown region key; known: {}",
                KEYS.iter().map(|k| k.0).collect::<Vec<_>>().join(", ")
            ),
        })
}

fn bad(input: &str, reason: &str) -> Error {
    Error::Parse {
        input: input.to_string(),
        reason: reason.to_string(),
    }
}

impl RegionOverride {
    /// An integer range `lo..=hi` for `key`.
    ///
    /// # Errors
    /// [`Error::Parse`] for an unknown or non-integer key, or `lo > hi`.
    pub fn int(key: &str, lo: u64, hi: u64) -> Result<Self> {
        let (k, is_int) = key_of(key)?;
        if !is_int {
            return Err(bad(key, "is a real parameter: use RegionOverride::real"));
        }
        if lo > hi {
            return Err(bad(&format!("{lo}..{hi}"), "need LO ≤ HI"));
        }
        Ok(RegionOverride {
            key: k,
            range: RegionRange::Int(lo, hi),
        })
    }

    /// A real range `[lo, hi]` for `key` (an integer key gets `⌈lo⌉..=⌊hi⌋`).
    ///
    /// # Errors
    /// [`Error::Parse`] for an unknown key, non-finite or negative bounds, `lo > hi`.
    pub fn real(key: &str, lo: f64, hi: f64) -> Result<Self> {
        let (k, is_int) = key_of(key)?;
        if !(lo.is_finite() && hi.is_finite() && lo >= 0.0 && lo <= hi) {
            return Err(bad(&format!("{lo}..{hi}"), "need finite 0 ≤ LO ≤ HI"));
        }
        if is_int {
            let (a, b) = (lo.ceil(), hi.floor());
            if a > b || b > 9.0e15 {
                return Err(bad(&format!("{lo}..{hi}"), "no integer in the range"));
            }
            return Self::int(key, a as u64, b as u64);
        }
        Ok(RegionOverride {
            key: k,
            range: RegionRange::Real(lo, hi),
        })
    }

    /// A fixed value for `key`, as a decimal string.
    ///
    /// # Errors
    /// [`Error::Parse`] for an unknown key or a value that is not a finite decimal
    /// (a non-negative integer for integer keys).
    pub fn fixed(key: &str, value: &str) -> Result<Self> {
        let (k, is_int) = key_of(key)?;
        let v = value.trim();
        let ok = if is_int {
            v.parse::<u64>().is_ok()
        } else {
            shiftdp::settings::exact_decimal(v).is_some()
        };
        if !ok {
            return Err(bad(
                value,
                if is_int {
                    "expects a non-negative integer"
                } else {
                    "expects a finite decimal number"
                },
            ));
        }
        Ok(RegionOverride {
            key: k,
            range: RegionRange::Fixed(v.to_string()),
        })
    }

    /// Draws a value (decimal string) from the range.
    pub fn draw(&self, rng: &mut SplitMix64) -> String {
        match &self.range {
            RegionRange::Int(lo, hi) => rng.int(*lo, *hi).to_string(),
            RegionRange::Fixed(v) => v.clone(),
            RegionRange::Real(lo, hi) => draw_real(rng, *lo, *hi),
        }
    }
}

impl std::fmt::Display for RegionOverride {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.range {
            RegionRange::Int(a, b) => write!(f, "{}={a}..{b}", self.key),
            RegionRange::Real(a, b) => write!(f, "{}={a}..{b}", self.key),
            RegionRange::Fixed(v) => write!(f, "{}={v}", self.key),
        }
    }
}

/// Uniform in `[lo, hi]`, printed with enough decimals to resolve the range and kept
/// inside it after rounding.
fn draw_real(rng: &mut SplitMix64, lo: f64, hi: f64) -> String {
    let x = lo + (hi - lo) * rng.unit();
    let w = hi - lo;
    let digits = if w > 0.0 {
        ((-w.log10()).ceil() as i64 + 3).clamp(3, 15) as usize
    } else {
        15
    };
    let s = format!("{x:.digits$}");
    match s.parse::<f64>() {
        Ok(v) if v >= lo && v <= hi => s,
        _ => format!("{lo}"),
    }
}

/// Parses `KEY=LO..HI[,KEY=LO..HI…]` (or `KEY=V` for a fixed value). Whitespace
/// around items is ignored; an empty string gives no overrides.
///
/// # Errors
/// [`Error::Parse`]: unknown key, missing `=`, bad number, `LO > HI`.
pub fn parse_region(s: &str) -> Result<Vec<RegionOverride>> {
    let mut out = vec![];
    for item in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| bad(item, "expected KEY=LO..HI or KEY=V"))?;
        let (k, v) = (k.trim(), v.trim());
        let (_, is_int) = key_of(k)?;
        let o = match v.split_once("..") {
            None => RegionOverride::fixed(k, v)?,
            Some((a, b)) if is_int => {
                let p = |x: &str| {
                    x.trim()
                        .parse::<u64>()
                        .map_err(|_| bad(item, "expects non-negative integers LO..HI"))
                };
                RegionOverride::int(k, p(a)?, p(b)?)?
            }
            Some((a, b)) => {
                let p = |x: &str| -> Result<f64> {
                    let t = x.trim();
                    shiftdp::settings::exact_decimal(t)
                        .and_then(|_| t.parse::<f64>().ok())
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| bad(item, "expects finite decimals LO..HI"))
                };
                RegionOverride::real(k, p(a)?, p(b)?).map_err(|_| bad(item, "need 0 ≤ LO ≤ HI"))?
            }
        };
        out.push(o);
    }
    Ok(out)
}

/// Applies the overrides to a drawn point, in order (see the module doc).
pub fn apply(overrides: &[RegionOverride], rng: &mut SplitMix64, params: &mut Params) {
    for o in overrides {
        let v = o.draw(rng);
        let conflict = match o.key {
            "steps" => Some("epochs"),
            "epochs" => Some("steps"),
            _ => None,
        };
        params.retain(|(k, _)| Some(*k) != conflict);
        match params.iter_mut().find(|(k, _)| *k == o.key) {
            Some(slot) => slot.1 = v,
            None => params.push((o.key, v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_in_range_and_resolve_narrow_ranges() {
        let mut r = SplitMix64::new(3);
        let o = RegionOverride::real("eta", 0.0001, 0.0002).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let v: f64 = o.draw(&mut r).parse().unwrap();
            assert!((0.0001..=0.0002).contains(&v));
            seen.insert(v.to_bits());
        }
        // three significant digits of the width: many distinct values, not just LO
        assert!(seen.len() > 20, "{}", seen.len());
        let i = RegionOverride::int("steps", 5, 7).unwrap();
        for _ in 0..50 {
            let k: u64 = i.draw(&mut r).parse().unwrap();
            assert!((5..=7).contains(&k));
        }
    }

    #[test]
    fn steps_and_epochs_exclude_each_other() {
        let mut p: Params = vec![("epochs", "3".into()), ("eta", "0.5".into())];
        let o = parse_region("steps=10").unwrap();
        apply(&o, &mut SplitMix64::new(1), &mut p);
        assert_eq!(
            p,
            vec![("eta", "0.5".to_string()), ("steps", "10".to_string())]
        );
    }

    #[test]
    fn bad_syntax_is_rejected() {
        for bad in [
            "steps",
            "steps=",
            "steps=a..b",
            "steps=1.5..3",
            "eta=1..x",
            "eta=nan..1",
            "eta=-1..1",
            "eta=2..1",
            "foo=1",
            "n=-3",
        ] {
            assert!(parse_region(bad).is_err(), "{bad}");
        }
        assert!(parse_region("").unwrap().is_empty());
        let r = parse_region(" eta = 0.1..0.2 , n=4..4").unwrap();
        assert_eq!(r[0].range, RegionRange::Real(0.1, 0.2));
        assert_eq!(r[1].range, RegionRange::Int(4, 4));
    }
}
