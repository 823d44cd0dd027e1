//! The f64 searches of the toolkit: a golden-section search for the minimum of a
//! unimodal function, used wherever a parameter (an order α, a θ, a noise split) is
//! chosen before the bound at it is certified.
//!
//! A search, not a bound: what it returns is a *choice*; the caller recomputes the
//! reported number at that choice with enclosures ("search without rigor, certify with
//! rigor"). argmin's `GoldenSectionSearch` stops at a tolerance from an initial guess;
//! the callers here need a fixed budget of evaluations (their cost is part of the
//! engine's time), the best point *seen* rather than the last bracket, and non-finite
//! values read as +∞, so the loop is written once here.
//!
//! # Formula
//! Kiefer's golden-section search on `[a, b]` with ratio `r = (√5 − 1)/2`: interior
//! points `c = b − r(b − a)`, `d = a + r(b − a)`; if `f(c) ≤ f(d)` the bracket becomes
//! `[a, d]` (the new `d` is the old `c`), else `[c, b]` (the new `c` is the old `d`).
//! Each step costs one evaluation and shrinks the bracket by `r`.

/// `r = (√5 − 1)/2`: each step of [`golden_section_min`] shrinks the bracket by this factor.
const RATIO: f64 = 0.618_033_988_749_894_9;

/// The steps of [`golden_section_min`] that shrink a bracket of width `span` below 1:
/// `⌈ln span / ln(1/r)⌉` (0 for `span ≤ 1`) — a search on the integers then ends
/// within one of its best point.
///
/// # Example
/// ```
/// use shiftdp::precision::search::steps_below_one;
/// assert_eq!(steps_below_one(1.0), 0);
/// assert_eq!(steps_below_one(100.0), 10); // 0.618¹⁰ · 100 ≈ 0.81
/// ```
pub fn steps_below_one(span: f64) -> usize {
    if span <= 1.0 {
        0
    } else {
        (span.ln() / -RATIO.ln()).ceil() as usize
    }
}

/// The outcome of [`golden_section_min`]: the best point seen and its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GoldenMin {
    /// The argument with the smallest value seen (the first one on ties).
    pub x: f64,
    /// Its value (+∞ if every value seen was NaN or +∞).
    pub value: f64,
}

/// Golden-section search for the minimum of `f` on `[a, b]` (`a < b`) with `steps`
/// evaluations after the first two; NaN values count as +∞. Exact for a unimodal `f`
/// up to the final bracket `r^steps (b − a)`; for any `f` the returned value is one
/// `f` attains.
///
/// # Example
/// ```
/// use shiftdp::precision::search::golden_section_min;
/// let m = golden_section_min(|x: f64| (x - 2.0).powi(2), 0.0, 5.0, 60);
/// assert!((m.x - 2.0).abs() < 1e-9);
/// ```
pub fn golden_section_min(f: impl Fn(f64) -> f64, a: f64, b: f64, steps: usize) -> GoldenMin {
    let g = |x: f64| {
        let v = f(x);
        if v.is_nan() { f64::INFINITY } else { v }
    };
    let r = RATIO;
    let (mut lo, mut hi) = (a, b);
    let (mut c, mut d) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut fc, mut fd) = (g(c), g(d));
    let mut best = if fc <= fd {
        GoldenMin { x: c, value: fc }
    } else {
        GoldenMin { x: d, value: fd }
    };
    for _ in 0..steps {
        if fc <= fd {
            hi = d;
            d = c;
            fd = fc;
            c = hi - r * (hi - lo);
            fc = g(c);
            if fc < best.value {
                best = GoldenMin { x: c, value: fc };
            }
        } else {
            lo = c;
            c = d;
            fc = fd;
            d = lo + r * (hi - lo);
            fd = g(d);
            if fd < best.value {
                best = GoldenMin { x: d, value: fd };
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Against a dense scan of a convex function: the search is within the final
        /// bracket of the true minimizer, and its value is never above the scan's.
        #[test]
        fn finds_the_minimum_of_a_convex_function(m in -3.0f64..3.0, s in 0.1f64..10.0) {
            let f = |x: f64| s * (x - m).powi(2) + (x - m).abs();
            let got = golden_section_min(f, -4.0, 4.0, 80);
            prop_assert!((got.x - m).abs() < 1e-9, "{got:?} vs {m}");
            let scan = (0..=8000).map(|i| f(-4.0 + i as f64 * 1e-3)).fold(f64::INFINITY, f64::min);
            prop_assert!(got.value <= scan + 1e-12);
        }
    }

    #[test]
    fn nan_counts_as_infinity_and_the_finite_side_is_found() {
        let got = golden_section_min(|x| if x < 0.5 { f64::NAN } else { x }, 0.0, 1.0, 60);
        assert!((got.x - 0.5).abs() < 1e-9 && got.value.is_finite());
    }
}
