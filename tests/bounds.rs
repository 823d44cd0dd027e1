//! The BSA24 accountant: hypotheses refused per theorem while the other bounds are still
//! reported, and closed forms against independent computations.
mod common;

use proptest::prelude::*;
use shiftdp::Error;
use shiftdp::bounds::bsa24::*;
use shiftdp::results::fdp_bounds;
use shiftdp::settings::{Algorithm, RawSetting, Setting};

/// The gd setting of `key=value` words (`n=100 steps=50 …`).
fn gd(pairs: &str) -> Setting {
    setting(Algorithm::Gd, pairs)
}

/// The cgd setting of `key=value` words.
fn cgd(pairs: &str) -> Setting {
    setting(Algorithm::Cgd, pairs)
}

/// The setting of `alg` given as `key=value` words.
fn setting(alg: Algorithm, pairs: &str) -> Setting {
    let pairs: Vec<(&str, &str)> = pairs
        .split(' ')
        .map(|w| w.split_once('=').expect("key=value"))
        .collect();
    Setting::new(alg, &RawSetting::from_pairs(&pairs).unwrap()).unwrap()
}

fn hypothesis_of(r: &Result<shiftdp::bounds::Bound, Error>) -> String {
    match r {
        Err(Error::Hypothesis { hypothesis, .. }) => hypothesis.clone(),
        other => panic!("expected a hypothesis error, got {other:?}"),
    }
}

#[test]
fn eta_at_least_two_over_m_refuses_thm_4_2_only() {
    // η = 0.5, M = 4: η ≥ 2/M = 0.5
    let s = gd("n=100 steps=50 eta=0.5 noise=1 sensitivity=1 m=0.1 M=4");
    let all = fdp_bounds(&s);
    let t42 = &all.iter().find(|(id, _)| *id == THM_4_2).unwrap().1;
    assert!(hypothesis_of(t42).contains("η < 2/M"));
    assert!(
        all.iter().find(|(id, _)| *id == THM_4_1).unwrap().1.is_ok(),
        "Thm 4.1 still reported"
    );
}

#[test]
fn contraction_at_least_one_refuses_strongly_convex_bounds() {
    let s = gd("n=100 steps=50 eta=0.5 noise=1 sensitivity=1 c=1");
    assert!(hypothesis_of(&thm_4_2(&s)).contains("c < 1"));
    assert!(thm_4_1(&s).is_ok());
}

#[test]
fn steps_below_threshold_refuse_thm_4_3() {
    // Dn/(ηL) = 1·100/(0.1·1) = 1000 > t = 500
    let s = gd("n=100 steps=500 eta=0.1 noise=1 sensitivity=1 M=1 D=1");
    assert!(hypothesis_of(&thm_4_3(&s)).contains("t ≥ Dn/(ηL)"));
    let s = gd("n=100 steps=1000 eta=0.1 noise=1 sensitivity=1 M=1 D=1");
    assert!(thm_4_3(&s).is_ok(), "t = Dn/(ηL) exactly is admissible");
}

#[test]
fn non_integer_batches_per_epoch_refuse_cyclic_theorems() {
    // n = 10, b = 3: l = 10/3
    let s = cgd("n=10 batch=3 steps=12 eta=0.1 noise=1 sensitivity=1 c=0.9");
    for (id, r) in fdp_bounds(&s) {
        assert!(hypothesis_of(&r).contains("l = n/b"), "{id}");
    }
}

/// Exact instance for Thm 4.2, computed here independently: 1-D quadratic f(x) = h x²/2
/// with a gradient shift L/n in the differing record, c = 1 − ηh ∈ (0, 1). The output
/// gap is Σ_k c^{t−k} ηL/n and the variance Σ_k c^{2(t−k)} η²σ², so μ = gap/std.
fn quadratic_instance_mu(c: f64, t: u64, unit: f64) -> f64 {
    let (mut gap, mut var) = (0.0f64, 0.0f64);
    for _ in 0..t {
        gap = c * gap + unit;
        var = c * c * var + 1.0;
    }
    gap / var.sqrt()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn thm_4_2_equals_quadratic_instance(c in 0.01f64..0.995, t in 1u64..3000, unit in 0.01f64..3.0) {
        let closed = mu_thm_4_2_unchecked(&c, t, &unit);
        let inst = quadratic_instance_mu(c, t, unit);
        prop_assert!((closed - inst).abs() <= 1e-9 * inst, "{} vs {}", closed, inst);
        // the transcribed reading is valid but loose
        prop_assert!(mu_thm_4_2_as_printed(&c, t, &unit) >= closed * (1.0 - 1e-12));
    }

    #[test]
    fn thm_4_1_and_4_4_equal_linear_instance(t in 1u64..5000, unit in 0.01f64..3.0) {
        // linear losses: c = 1, gap t·s, variance t·ς² ⇒ μ = unit·√t (composition is tight)
        let inst = quadratic_instance_mu(1.0, t, unit);
        prop_assert!((mu_thm_4_1_unchecked(&unit, t) - inst).abs() <= 1e-9 * inst);
        prop_assert!((mu_thm_4_4_unchecked(&unit, t) - inst).abs() <= 1e-9 * inst);
    }

    #[test]
    fn thm_4_5_dominates_worst_position_cyclic_instance(c in 0.5f64..0.999, l in 2u64..12, e in 1u64..40) {
        // 1-D quadratic, cyclic batches; the differing record sits in batch j of each
        // epoch; gap and variance propagated step by step. Thm 4.5 must dominate every j.
        let mut worst = 0.0f64;
        for j in 0..l {
            let (mut gap, mut var) = (0.0f64, 0.0f64);
            for k in 0..l * e {
                gap = c * gap + if k % l == j { 1.0 } else { 0.0 };
                var = c * c * var + 1.0;
            }
            worst = worst.max(gap / var.sqrt());
        }
        let closed = mu_thm_4_5_unchecked(&c, l, e, &1.0);
        prop_assert!(closed >= worst * (1.0 - 1e-12), "Thm 4.5 {} < instance {}", closed, worst);
    }

    #[test]
    fn thm_4_6_dominates_uniform_schedule_and_improves_composition_eventually(
        d in 0.1f64..5.0, eta in 0.05f64..1.0, b in 1u64..50, l in 1u64..20, lg in 0.1f64..3.0
    ) {
        // shifts spread uniformly over the last T = ⌈Db/(ηL)⌉ epochs' sensitive steps give a
        // valid schedule; the closed form must not be below the first step's unavoidable
        // cost L/(bσ) (σ = 1 here)
        let mu = mu_thm_4_6_unchecked(&lg, &d, &eta, b, l, &1.0);
        prop_assert!(mu >= lg / b as f64);
        prop_assert!(mu.is_finite());
    }
}
