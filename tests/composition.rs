//! Property tests of the certified composition engine.
use proptest::prelude::*;
use shiftdp::composition::{Component, Composition, Interval, Target};
use shiftdp::tradeoff::{Gaussian, SubsampledGaussian, Tradeoff};

mod common;
use common::{assert_meets, assert_overlap, composed, gdp_delta, gdp_eps};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// G(μ₁)^{⊗k₁} ⊗ G(μ₂)^{⊗k₂} = G(√(k₁μ₁² + k₂μ₂²)) (DRS22 Cor 2): the certified δ(ε)
    /// and ε(δ) intervals contain the closed form, and are ordered.
    #[test]
    fn gaussian_compositions_enclose_gdp(
        m1 in 0.05f64..1.5, k1 in 1u64..40, m2 in 0.05f64..1.5, k2 in 1u64..5,
        eps in 0.0f64..4.0,
    ) {
        let c = Composition::new()
            .with(Component::gaussian(m1).unwrap(), k1).unwrap()
            .with(Component::gaussian(m2).unwrap(), k2).unwrap();
        let mu = ((k1 as f64) * m1 * m1 + (k2 as f64) * m2 * m2).sqrt();
        let r = c.compose(Target::Epsilon(eps), Some(10)).unwrap();
        let iv = r.delta(eps).unwrap();
        let (tl, tu) = gdp_delta(mu, eps);
        prop_assert!(iv.lower <= iv.upper);
        prop_assert!(iv.lower <= tu && tl <= iv.upper, "mu={} eps={}: {:?} vs [{}, {}]", mu, eps, iv, tl, tu);
        let r = c.compose_for_delta(1e-6, Some(10)).unwrap();
        let e = r.epsilon(1e-6).unwrap();
        let (el, eu) = gdp_eps(mu, 1e-6);
        prop_assert!(e.lower <= eu && el <= e.upper, "mu={}: {:?} vs [{}, {}]", mu, e, el, eu);
        prop_assert!(e.width() < 5e-3, "{:?}", e);
    }

    /// One step of C_p(G(μ)) agrees with the closed form of the foundation issue
    /// (`SubsampledGaussian::delta`), and so does one Poisson step (the two coincide at
    /// k = 1: the maximum over both orders), while the remove order alone matches
    /// `p δ_G(ln(1 + (e^ε − 1)/p))`.
    #[test]
    fn one_subsampled_step_matches_closed_form(
        p in 0.01f64..0.9, mu in 0.2f64..3.0, eps in 0.0f64..2.0,
    ) {
        let sg = SubsampledGaussian::new(p, mu).unwrap();
        let d = sg.delta(eps, 128).unwrap().enclosure;
        for comp in [Component::subsampled(p, mu).unwrap(), Component::poisson(p, mu).unwrap()] {
            let c = composed(comp.clone(), 1);
            let r = c.compose(Target::Epsilon(eps), Some(12)).unwrap();
            let iv = r.delta(eps).unwrap();
            prop_assert!(iv.lower <= d.upper_f64() && d.lower_f64() <= iv.upper,
                "{}: eps={} {:?} vs {:?}", comp.name(), eps, iv, d);
            prop_assert!(iv.width() <= 1e-3 * d.upper_f64() + 1e-9, "{:?}", iv);
        }
        let c = composed(Component::poisson(p, mu).unwrap(), 1);
        let r = c.compose(Target::Epsilon(eps), Some(12)).unwrap();
        prop_assert_eq!(r.orders(), 2);
        let e1 = (eps.exp_m1() / p).ln_1p();
        let (gl, gu) = gdp_delta(mu, e1);
        let o = r.delta_order(0, eps).unwrap();
        prop_assert!(o.lower <= p * gu * (1.0 + 1e-12) && p * gl * (1.0 - 1e-12) <= o.upper, "{:?} vs {}", o, p * gu);
    }
}

/// Both orders of the Poisson pair differ for many steps, and the symmetrized C_p
/// composition dominates both (it is the larger quantity, as the issue states); the
/// intervals of two different grids overlap (each contains the truth).
#[test]
fn poisson_orders_and_symmetrized_dominance() {
    let (p, mu, k) = (0.1, 1.0, 50);
    let cp = composed(Component::subsampled(p, mu).unwrap(), k);
    let po = composed(Component::poisson(p, mu).unwrap(), k);
    let rc = cp.compose(Target::Epsilon(1.0), Some(11)).unwrap();
    let rp = po.compose(Target::Epsilon(1.0), Some(11)).unwrap();
    let rc2 = cp.compose(Target::Epsilon(1.0), Some(12)).unwrap();
    for eps in [0.25, 0.5, 1.0, 1.5] {
        let c = rc.delta(eps).unwrap();
        let c2 = rc2.delta(eps).unwrap();
        let a = rp.delta_order(0, eps).unwrap();
        let b = rp.delta_order(1, eps).unwrap();
        assert!(
            c.lower <= c2.upper && c2.lower <= c.upper,
            "grids disagree: {c:?} {c2:?}"
        );
        assert!(
            c.upper >= a.lower && c.upper >= b.lower,
            "eps={eps}: {c:?} {a:?} {b:?}"
        );
        // the two Poisson directions are genuinely different here
        assert!(
            a.upper < b.lower || b.upper < a.lower,
            "eps={eps}: {a:?} {b:?}"
        );
    }
}

/// The composed tradeoff curve lies below the exact G(μ√k) and is a tradeoff function.
#[test]
fn composed_curve_is_safe() {
    let c = composed(Component::gaussian(0.25).unwrap(), 16);
    let r = c.compose(Target::Epsilon(1.0), Some(11)).unwrap();
    let f = r.curve(300).unwrap();
    shiftdp::tradeoff::check_tradeoff_laws(&f, 300).unwrap();
    let g = Gaussian::new(1.0).unwrap();
    for i in 1..200 {
        let a = i as f64 / 200.0;
        assert!(f.eval(a) <= g.eval_bounds(a).1, "a={a}");
    }
}

/// δ far below the stated floor is refused, never answered.
#[test]
fn below_floor_is_refused() {
    let c = composed(Component::subsampled(0.1, 1.0).unwrap(), 10);
    assert!(matches!(
        c.compose_for_delta(1e-200, None),
        Err(shiftdp::Error::NotCertified { .. })
    ));
    let r = c.compose_for_delta(1e-30, None).unwrap();
    let e = r.epsilon(1e-30).unwrap();
    assert!(e.lower <= e.upper && e.upper.is_finite() && e.lower > 0.0);
    assert!(r.epsilon(1e-150).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// `Composition::answer` on an all-Gaussian list uses the closed form: its interval
    /// overlaps the PLD engine's certified interval on the same list (two independent
    /// computations of one true value), is at least 10⁶ times narrower than the
    /// tolerance, and still answers below the engine's δ floor (where the engine refuses).
    #[test]
    fn all_gaussian_answers_agree_with_the_engine_and_are_exact(
        m1 in 0.01f64..1.5, k1 in 1u64..40, m2 in 0.01f64..1.5, k2 in 1u64..5,
        ld in -60.0f64..-2.0,
    ) {
        use shiftdp::composition::answer::Method;
        let delta = 10f64.powf(ld);
        let c = Composition::new()
            .with(Component::gaussian(m1).unwrap(), k1).unwrap()
            .with(Component::gaussian(m2).unwrap(), k2).unwrap();
        let a = c.answer(Target::Delta(delta), 5e-4, None).unwrap();
        let closed = matches!(a.method, Method::GaussianClosedForm { .. });
        prop_assert!(closed, "method {:?}", a.method);
        prop_assert!(a.width <= 5e-10 * a.interval.upper.max(1.0), "{:?}", a.interval);
        if !a.at_zero() {
            // below δ = 1e-50 the engine at h = 2⁻¹⁰ may refuse honestly: its certified
            // δ at the window top (truncation and f64 FFT error) can exceed δ there
            // (G(0.01)^⊗2 ⊗ G(1.0023) at δ = 1.6e-54: 3.2e-54 at ε = 20.43); above it, it
            // must certify
            match c.compose_for_delta(delta, Some(10)).and_then(|r| r.epsilon(delta)) {
                Ok(e) => prop_assert!(e.lower <= a.interval.upper && a.interval.lower <= e.upper,
                    "closed form {:?} vs engine {:?}", a.interval, e),
                Err(shiftdp::Error::NotCertified { .. }) if delta < 1e-50 => {}
                Err(err) => prop_assert!(false, "engine at δ = {delta:e}: {err}"),
            }
        }
        let b = c.answer(Target::Delta(1e-200), 5e-4, None).unwrap();
        prop_assert!(b.interval.upper > a.interval.upper);
        prop_assert!(c.compose_for_delta(1e-200, None).is_err());
    }
}

/// A fuzzer row: `--gaussian 0.0293 --gaussian '0.01404 x31' --delta 1.096e-32` gave
/// a certified interval of width 6.7 through the engine. The answer is now the closed
/// form G(√(0.0293² + 31·0.01404²)), equal to `Gaussian::epsilon` at that μ.
#[test]
fn gaussian_list_at_tiny_delta_meets_the_tolerance() {
    let c = Composition::new()
        .with(Component::gaussian(0.0293).unwrap(), 1)
        .unwrap()
        .with(Component::gaussian(0.01404).unwrap(), 31)
        .unwrap();
    let a = c.answer(Target::Delta(1.096e-32), 5e-4, None).unwrap();
    assert!(a.width <= 5e-4, "{:?}", a.interval);
    let mu = (0.0293f64 * 0.0293 + 31.0 * 0.01404 * 0.01404).sqrt();
    let (lo, hi) = gdp_eps(mu, 1.096e-32);
    assert_meets(&a.interval, lo, hi);
}

/// A fuzzer row: `--subsampled-gaussian 0.00208 0.54 x5 --delta 4.466e-02`: δ is above
/// δ(0), so the true ε(δ) is negative. The answer says so (`at_zero`), and the engine's
/// certified δ(0) is indeed ≤ δ; a δ below δ(0) is not `at_zero`.
#[test]
fn delta_above_delta_at_zero_is_flagged() {
    let c = composed(Component::subsampled(0.00208, 0.54).unwrap(), 5);
    let a = c.answer(Target::Delta(4.466e-2), 5e-4, None).unwrap();
    assert!(a.at_zero());
    let d0 = c
        .compose(Target::Epsilon(0.0), None)
        .unwrap()
        .delta(0.0)
        .unwrap();
    assert!(d0.upper <= 4.466e-2, "{d0:?}");
    let b = c.answer(Target::Delta(d0.lower * 0.5), 5e-4, None).unwrap();
    assert!(!b.at_zero() && b.interval.upper > 0.0, "{:?}", b.interval);
}

/// Subsampling with p = 1 is no subsampling: `C_1(G(μ))^{⊗k}` and the Poisson pair at
/// p = 1 are answered by the closed form `G(√k μ)`, whose interval meets the engine's
/// (found by the CLI fuzzer: `calibrate poisson --q 1` ran each probe through the engine,
/// over 20 s per calibration).
#[test]
fn full_sampling_uses_the_gaussian_closed_form() {
    use shiftdp::composition::answer::Method;
    for comp in [
        Component::subsampled(1.0, 0.3).unwrap(),
        Component::poisson(1.0, 0.3).unwrap(),
    ] {
        let c = composed(comp, 50);
        let a = c.answer(Target::Delta(1e-6), 5e-4, None).unwrap();
        assert!(matches!(a.method, Method::GaussianClosedForm { .. }));
        let (lo, hi) = gdp_eps(0.3 * 50f64.sqrt(), 1e-6);
        assert_meets(&a.interval, lo, hi);
        let e = c
            .compose_for_delta(1e-6, None)
            .unwrap()
            .epsilon(1e-6)
            .unwrap();
        assert_overlap(&e, &a.interval);
    }
}

/// Certified δ(ε) intervals of both engines at ε values around the ε(δ) of `b`, and
/// the ε(δ) intervals; every pair must overlap (each contains the truth).
fn engines_overlap(c: &Composition, delta: f64, grid: Option<i32>, gdp_mu: Option<f64>) {
    use shiftdp::composition::Engine;
    let one = c
        .clone()
        .with_engine(Engine::OneShot)
        .compose(Target::Delta(delta), grid);
    let sq = c
        .clone()
        .with_engine(Engine::RepeatedSquaring)
        .compose(Target::Delta(delta), grid);
    let (Ok(one), Ok(sq)) = (one, sq) else {
        // a window too large for the squaring engine's limit: nothing to compare
        return;
    };
    // the engines' intervals `a`, `b` of `what` overlap, and each meets G(μ)'s closed
    // form `truth` (given for a Gaussian composition G(μ))
    let agree = |what: &str, a: Interval, b: Interval, truth: Option<(f64, f64)>| {
        assert!(
            a.lower <= b.upper && b.lower <= a.upper,
            "{what}: one-shot {a:?} vs squaring {b:?} ({c:?})"
        );
        if let (Some(mu), Some((tl, tu))) = (gdp_mu, truth) {
            for (name, x) in [("one-shot", a), ("squaring", b)] {
                assert!(
                    x.lower <= tu && tl <= x.upper,
                    "{name} {what} {x:?} misses G({mu}) [{tl}, {tu}]"
                );
            }
        }
    };
    let mut eps_points = vec![0.0, 0.25, 1.0];
    if let (Ok(e1), Ok(e2)) = (one.epsilon(delta), sq.epsilon(delta)) {
        agree("ε(δ)", e1, e2, gdp_mu.map(|mu| gdp_eps(mu, delta)));
        eps_points.extend([0.5 * e2.upper, e2.upper, 1.5 * e2.upper]);
    }
    for eps in eps_points {
        let (a, b) = (one.delta(eps).unwrap(), sq.delta(eps).unwrap());
        agree(
            &format!("δ({eps})"),
            a,
            b,
            gdp_mu.map(|mu| gdp_delta(mu, eps)),
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Issue 15: the one-shot power (one forward FFT, pointwise power, one inverse FFT)
    /// and repeated squaring give overlapping certified intervals — each contains the
    /// truth — over random q, μ and k, for C_p(G(μ)), both Poisson directions and G(μ)
    /// (where both must also contain the closed form G(μ√k)).
    #[test]
    fn one_shot_power_agrees_with_repeated_squaring(
        q in 0.001f64..0.5, mu in 0.2f64..3.0, k in 1u64..2000, kind in 0usize..4,
        dexp in 3i32..9,
    ) {
        let (comp, gdp) = match kind {
            0 => (Component::subsampled(q, mu).unwrap(), None),
            1 => (Component::poisson(q, mu).unwrap(), None),
            2 => (Component::poisson(q, mu).unwrap().inverse(), None),
            _ => {
                let m = mu * q.sqrt();
                (Component::gaussian(m).unwrap(), Some(m * (k as f64).sqrt()))
            }
        };
        let c = composed(comp, k);
        engines_overlap(&c, 10f64.powi(-dexp), Some(10), gdp);
    }

    /// Heterogeneous runs (batch size and noise changing over training) composed in one
    /// pass agree with repeated squaring; an all-Gaussian list against its closed form.
    #[test]
    fn heterogeneous_one_pass_agrees_with_repeated_squaring(
        q1 in 0.001f64..0.2, m1 in 0.3f64..2.0, k1 in 1u64..2000,
        q2 in 0.001f64..0.2, m2 in 0.3f64..2.0, k2 in 1u64..2000,
        m3 in 0.01f64..0.5, k3 in 1u64..50, gauss_only in proptest::bool::ANY,
    ) {
        if gauss_only {
            let (a, b) = (m1 * q1.sqrt(), m2 * q2.sqrt());
            let c = Composition::new()
                .with(Component::gaussian(a).unwrap(), k1).unwrap()
                .with(Component::gaussian(b).unwrap(), k2).unwrap()
                .with(Component::gaussian(m3).unwrap(), k3).unwrap();
            let mu = (k1 as f64 * a * a + k2 as f64 * b * b + k3 as f64 * m3 * m3).sqrt();
            engines_overlap(&c, 1e-5, Some(10), Some(mu));
        } else {
            let c = Composition::new()
                .with(Component::poisson(q1, m1).unwrap(), k1).unwrap()
                .with(Component::poisson(q2, m2).unwrap(), k2).unwrap()
                .with(Component::gaussian(m3).unwrap(), k3).unwrap();
            engines_overlap(&c, 1e-5, Some(10), None);
        }
    }
}

/// A regression input of the all-Gaussian proptest (the one-shot engine's own regression):
/// tiny μ at a tiny δ, where the window top must reach the ε the query asks for. The
/// default (one-shot) engine certifies it; the squaring engine refuses it honestly
/// (`NotCertified`: its pessimistic mass at the window top exceeds δ).
#[test]
fn tiny_gaussian_list_at_tiny_delta_is_certified_by_the_engine() {
    use shiftdp::composition::Engine;
    use shiftdp::error::Error;
    let delta = 10f64.powf(-49.376);
    let c = Composition::new()
        .with(Component::gaussian(0.01).unwrap(), 8)
        .unwrap()
        .with(Component::gaussian(0.01).unwrap(), 1)
        .unwrap();
    let (el, eu) = gdp_eps(0.03, delta);
    let e = c
        .compose_for_delta(delta, Some(10))
        .unwrap()
        .epsilon(delta)
        .unwrap();
    assert_meets(&e, el, eu);
    let sq = c
        .with_engine(Engine::RepeatedSquaring)
        .compose_for_delta(delta, Some(10))
        .and_then(|r| r.epsilon(delta));
    match sq {
        Ok(e) => assert_meets(&e, el, eu),
        Err(err) => assert!(matches!(err, Error::NotCertified { .. }), "{err}"),
    }
}

/// The one-shot engine's window holds the tilted mass of the tilt it applies: for the
/// Poisson-subsampled Gaussian with `q = 0.01`, `σ = 1.5`, 100 steps, the tilt that
/// minimizes the Chernoff bound at δ = 1e-5 puts tilted mass near loss 4 per included
/// step (a rare large-noise step), so a window sized for a smaller tilt let it alias onto
/// the optimistic side (ε(δ) was 6e-3 wide at any grid). The answer meets the tolerance
/// and overlaps the repeated-squaring engine's (which moves mass outside its window
/// exactly).
#[test]
fn one_shot_window_holds_the_applied_tilt() {
    use shiftdp::composition::Engine;
    let c = |e: Engine| {
        Composition::new()
            .with_engine(e)
            .with(Component::poisson(0.01, 1.0 / 1.5).unwrap(), 100)
            .unwrap()
    };
    let a = c(Engine::OneShot)
        .answer(Target::Delta(1e-5), 1e-4, None)
        .unwrap();
    assert!(a.width <= 1e-4, "{:?} width {}", a.interval, a.width);
    let b = c(Engine::RepeatedSquaring)
        .answer(Target::Delta(1e-5), 1e-4, None)
        .unwrap()
        .interval;
    assert_overlap(&a.interval, &b);
}
