//! Shared proptest strategies and law checks for the property tests (nalgebra's
//! `tests/proptest` pattern): every property test draws parameters from here.
#![allow(dead_code)]
use proptest::prelude::*;
use shiftdp::composition::{Component, Composition, Interval};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::tradeoff::{Certified, Gaussian};

/// GDP parameters: small, moderate and large μ.
pub fn mu() -> impl Strategy<Value = f64> {
    prop_oneof![0.01f64..0.5, 0.5f64..4.0, 4.0f64..50.0]
}

/// Sampling probabilities in (0, 1].
pub fn prob() -> impl Strategy<Value = f64> {
    prop_oneof![0.001f64..0.05, 0.05f64..1.0]
}

/// ε values.
pub fn eps() -> impl Strategy<Value = f64> {
    0.0f64..20.0
}

/// δ given by its decimal exponent: δ = m·10^(−k) with k ∈ [1, 250].
pub fn delta_exp() -> impl Strategy<Value = (f64, i32)> {
    (1.0f64..9.99, 1i32..250)
}

/// MPFR precisions users ask for.
pub fn bits() -> impl Strategy<Value = u32> {
    prop_oneof![Just(64u32), Just(128), Just(256), 64u32..600]
}

/// Decimal string of m·10^(−k).
pub fn delta_string((m, k): (f64, i32)) -> String {
    format!("{m:.6}e-{k}")
}

/// `iv` holds `truth` up to `slack` on either side.
pub fn assert_encloses(iv: Interval, truth: f64, slack: f64, what: &str) {
    assert!(
        iv.lower <= truth + slack && truth - slack <= iv.upper,
        "{what}: [{}, {}] misses {truth}",
        iv.lower,
        iv.upper
    );
}

/// `iv` meets `[lo, hi]`.
pub fn assert_meets(iv: &Interval, lo: f64, hi: f64) {
    assert!(iv.lower <= hi && lo <= iv.upper, "{iv:?} vs [{lo}, {hi}]");
}

/// Two certified intervals of one quantity overlap.
pub fn assert_overlap(a: &Interval, b: &Interval) {
    assert!(
        a.lower <= b.upper && b.lower <= a.upper,
        "{a:?} and {b:?} are disjoint"
    );
}

/// The (lower, upper) ends of a conversion of G(`mu`) at `x` (ε for `Gaussian::delta`,
/// δ for `Gaussian::epsilon`) by the MPFR closed form at 128 bits.
fn gdp_ends(
    convert: fn(&Enclosure, &Enclosure, Precision) -> shiftdp::Result<Certified>,
    mu: f64,
    x: f64,
) -> (f64, f64) {
    let at = |v: f64| Enclosure::from_f64(128, v);
    let c = convert(&at(mu), &at(x), Precision::Bits(128)).unwrap();
    (c.enclosure.lower_f64(), c.enclosure.upper_f64())
}

/// δ(ε) of `G(μ)` (MPFR closed form, DRS22 Cor 2.13), `(lower, upper)`.
pub fn gdp_delta(mu: f64, eps: f64) -> (f64, f64) {
    gdp_ends(Gaussian::delta, mu, eps)
}

/// ε(δ) of `G(μ)` (MPFR closed form, DRS22 Cor 2.13), `(lower, upper)`.
pub fn gdp_eps(mu: f64, delta: f64) -> (f64, f64) {
    gdp_ends(Gaussian::epsilon, mu, delta)
}

/// `count` copies of `c`, composed.
pub fn composed(c: Component, count: u64) -> Composition {
    Composition::new().with(c, count).unwrap()
}
