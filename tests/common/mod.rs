//! Shared proptest strategies and law checks for the property tests (nalgebra's
//! `tests/proptest` pattern): every property test draws parameters from here.
#![allow(dead_code)]
use proptest::prelude::*;

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
