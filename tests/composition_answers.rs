//! The certified composition answers ordinary inputs: few Poisson steps with large ε
//! (the window holds the true ε), tiny μ, δ at the floor, mixed lists at tiny δ (the
//! no-amplification bound caps the upper end), huge step counts (the planner's
//! arithmetic). References are written from the mathematics, not from the engine:
//! the one-step privacy profile of the Poisson subsampled Gaussian in closed form, and
//! the Gaussian closed form `G(√Σkᵢμᵢ²)`, below every such composition.
use proptest::prelude::*;
use shiftdp::composition::{Component, Composition, Engine, Target};
use shiftdp::precision::special::{phi, phi_c};

mod common;
use common::{assert_meets, assert_overlap, composed, gdp_eps};

/// δ(ε) of one step of the Poisson subsampled Gaussian, the larger of the two
/// directions, with `P = N(0, 1)` and `Q = (1 − p)N(0, 1) + pN(μ, 1)`. The likelihood
/// ratio `q/p = 1 − p + p e^{μx − μ²/2}` increases in `x`, so
/// `δ_{Q‖P}(ε) = Q(x > x₀) − e^ε P(x > x₀)` with `q/p(x₀) = e^ε`, and
/// `δ_{P‖Q}(ε) = P(x < x₁) − e^ε Q(x < x₁)` with `q/p(x₁) = e^{−ε}` (0 when
/// `e^{−ε} ≤ 1 − p`). In f64: a reference to compare at a relative 1e-6 only.
/// ε(δ) of `c` by the repeated-squaring engine at `h = 2^{−grid}`: an independent
/// implementation of the composition to compare the one-shot answers with.
fn squaring_epsilon(c: &Composition, delta: f64, grid: i32) -> shiftdp::composition::Interval {
    c.clone()
        .with_engine(Engine::RepeatedSquaring)
        .compose(Target::Delta(delta), Some(grid))
        .unwrap()
        .epsilon(delta)
        .unwrap()
}

fn poisson_one_step_delta(p: f64, mu: f64, eps: f64) -> f64 {
    let x_of = |r: f64| ((r - 1.0 + p) / p).ln() / mu + 0.5 * mu;
    let x0 = x_of(eps.exp());
    let remove = (1.0 - p) * phi_c(x0) + p * phi_c(x0 - mu) - eps.exp() * phi_c(x0);
    let add = if (-eps).exp() > 1.0 - p {
        let x1 = x_of((-eps).exp());
        phi(x1) - eps.exp() * ((1.0 - p) * phi(x1) + p * phi(x1 - mu))
    } else {
        0.0
    };
    remove.max(add).max(0.0)
}

/// One Poisson step's certified ε(δ) at the default tolerance, checked to bracket the
/// closed-form profile: `δ(upper) ≤ δ ≤ δ(lower)`. Returns the answer's interval and width.
fn one_step_bracketed(p: f64, mu: f64, delta: f64) -> (shiftdp::composition::Interval, f64) {
    let c = composed(Component::poisson(p, mu).unwrap(), 1);
    let a = c.answer(Target::Delta(delta), 5e-4, None).unwrap();
    let iv = a.interval;
    assert!(
        poisson_one_step_delta(p, mu, iv.upper) <= delta * (1.0 + 1e-6),
        "p={p} μ={mu}: upper {iv:?} too small"
    );
    assert!(
        poisson_one_step_delta(p, mu, iv.lower) >= delta * (1.0 - 1e-6),
        "p={p} μ={mu}: lower {iv:?} too large"
    );
    (iv, a.width)
}

/// One Poisson step at ε above 3 (few steps, large ε): answered, and the interval
/// brackets the closed-form profile — `δ(upper) ≤ δ ≤ δ(lower)`.
#[test]
fn one_poisson_step_with_large_epsilon_is_bracketed() {
    for (p, mu, delta) in [(0.2, 1.5, 1e-10), (0.1, 1.0, 1e-8), (0.5, 2.0, 1e-12)] {
        let (iv, width) = one_step_bracketed(p, mu, delta);
        assert!(iv.lower > 2.5, "p={p} μ={mu}: {iv:?}");
        assert!(width <= 5e-4, "{iv:?}");
    }
}

/// One Poisson step at a sampling rate near 1 and a large μ: the add direction's losses
/// pile up just below `ln(1/(1 − p))`, which the single steps' window must hold (else
/// that mass goes to +∞ and nothing is answered). Answered within the tolerance and
/// bracketing the closed-form profile.
#[test]
fn one_poisson_step_near_full_sampling_is_bracketed() {
    for (p, mu, delta) in [
        (0.999, 2.998918649216121, 0.00141),
        (0.95, 3.0, 1e-3),
        (0.99, 10.0, 1e-10),
        (0.9566806773726722, 1.711332308987156, 4.6e-12),
    ] {
        let (iv, width) = one_step_bracketed(p, mu, delta);
        assert!(width <= 5e-4, "p={p} μ={mu}: {iv:?}");
    }
}

/// Small losses (pμ ≈ 2e-3) at δ ≈ 1e-12: the planner's coarse grid resolves the
/// losses, so the tilt it derives reaches the target (with a step wider than the losses'
/// spread its cumulants described the rounding, and the interval was [0, 0.05]).
/// One step brackets the closed-form profile within a few tolerances; four steps are
/// within the tolerance and overlap the repeated-squaring engine's interval.
#[test]
fn small_losses_at_tiny_delta_are_answered_within_the_tolerance() {
    for (p, mu, delta) in [
        (0.027939649148293565, 0.07986291363163833, 1.36e-12),
        (0.017107899459852038, 0.0825891209534985, 2.04e-12),
    ] {
        let (iv, width) = one_step_bracketed(p, mu, delta);
        // within a few tolerances (FFT round-off at δ ≈ 1e-12; it was 0.05 wide)
        assert!(width <= 2e-3, "p={p} μ={mu}: {iv:?}");
    }
    let c = Composition::new()
        .with(
            Component::poisson(0.05320741142853158, 0.0903649602618916).unwrap(),
            4,
        )
        .unwrap();
    let a = c.answer(Target::Delta(3.28e-13), 5e-4, None).unwrap();
    assert!(a.width <= 5e-4, "{:?}", a.interval);
    let sq = squaring_epsilon(&c, 3.28e-13, 12);
    assert_overlap(&a.interval, &sq);
}

/// A δ(ε) target whose tilt is the smallest the planner tries (λ* ≈ 1e-5): the tilted
/// variance comes from a second difference, which at a step of 1e-3·λ* was all round-off,
/// so the window's bottom sat at −1, above the remove order's losses (down to
/// ln(1 − p) ≈ −1.07), and the optimistic side carried that mass as a 1e-3 aliasing error.
#[test]
fn a_tiny_tilt_keeps_the_window_below_the_losses() {
    let (p, mu, eps) = (0.6574419848661828, 2.347440406377757, 0.7119549874938365);
    let c = composed(Component::poisson(p, mu).unwrap(), 1);
    let r = c.compose(Target::Epsilon(eps), Some(12)).unwrap();
    let iv = r.delta(eps).unwrap();
    let d = poisson_one_step_delta(p, mu, eps);
    assert_meets(&iv, d * (1.0 - 1e-6), d * (1.0 + 1e-6));
    assert!(iv.width() <= 1e-3 * d, "{iv:?}");
    assert!(
        r.info.iter().all(|g| g.bottom < (-p).ln_1p()),
        "{:?}",
        r.info
    );
}

/// Ten Poisson steps, ε(1e-6) ≈ 34.7: answered within the tolerance, below the
/// no-amplification bound and overlapping the repeated-squaring engine's interval
/// (an independent implementation of the composition).
#[test]
fn ten_poisson_steps_with_large_epsilon_are_answered() {
    let c = composed(Component::poisson(0.5, 2.0).unwrap(), 10);
    let a = c.answer(Target::Delta(1e-6), 5e-4, None).unwrap();
    let iv = a.interval;
    assert!(
        iv.width() <= 5e-4 && a.note.is_none(),
        "{iv:?} {:?}",
        a.note
    );
    let (_, g_up) = gdp_eps(40f64.sqrt(), 1e-6);
    assert!(iv.upper <= g_up, "{iv:?} vs G(√40): {g_up}");
    let r = squaring_epsilon(&c, 1e-6, 10);
    assert_overlap(&iv, &r);
    // the one-step profile at the same p, μ is a lower bound (f ⊗ g ≤ f)
    assert!(poisson_one_step_delta(0.5, 2.0, iv.upper) <= 1e-6);
}

/// μ so small that the discretized PLD is degenerate: the answer is the closed form's
/// (the truth is about μ/√(2π) for δ(0), and ε(δ) ≤ 0 at any ordinary δ).
#[test]
fn degenerate_mu_is_answered_by_the_closed_form() {
    let c = composed(Component::poisson(0.1, 5e-324).unwrap(), 5);
    let a = c.answer(Target::Delta(1e-5), 5e-4, None).unwrap();
    assert!(a.at_zero() && a.note.is_some(), "{:?}", a.interval);
    let c = composed(Component::poisson(0.1, 1e-20).unwrap(), 1);
    let a = c.answer(Target::Epsilon(0.0), 5e-4, None).unwrap();
    // δ(0) of G(μ) = 2Φ(μ/2) − 1 ≤ μ/√(2π) (Φ′ ≤ 1/√(2π))
    assert!(a.interval.upper <= 1e-20 / (2.0 * std::f64::consts::PI).sqrt() * 1.01);
    assert!(a.interval.lower >= 0.0 && a.note.is_some());
}

/// The documented floor itself, read downwards from the decimal, is accepted.
#[test]
fn delta_at_the_floor_is_accepted() {
    let c = composed(Component::poisson(0.1, 1.0).unwrap(), 100);
    let d = 9.999999999999999e-101; // the double just below 1e-100
    assert!(d < shiftdp::composition::DELTA_FLOOR);
    let a = c.answer(Target::Delta(d), 5e-4, None).unwrap();
    let (_, g_up) = gdp_eps(10.0, d);
    assert!(a.interval.upper <= g_up && a.interval.lower > 0.0);
    // and far below it the closed form still answers
    let a = c.answer(Target::Delta(1e-200), 5e-4, None).unwrap();
    let (_, g_up) = gdp_eps(10.0, 1e-200);
    assert!(a.interval.upper <= g_up && a.note.is_some());
}

/// A mixed list at a tiny δ: the upper end is never above the no-amplification bound
/// `G(√Σkᵢμᵢ²)`, and a wide answer says why.
#[test]
fn tiny_delta_upper_end_is_capped_by_the_no_amplification_bound() {
    let c = composed(Component::subsampled(0.155, 0.304).unwrap(), 2);
    let d = 1.916e-53;
    let a = c.answer(Target::Delta(d), 5e-4, None).unwrap();
    let mu = (2.0f64 * 0.304 * 0.304).sqrt() * (1.0 + 1e-12);
    let (_, g_up) = gdp_eps(mu, d);
    assert!(a.interval.upper <= g_up, "{:?} vs {g_up}", a.interval);
    assert!(a.width <= 5e-4 || a.note.is_some(), "{:?}", a.interval);
}

/// Huge step counts: the planner's arithmetic holds (no clamp with min > max) and a
/// grid too fine for the window is refused with the real point count.
#[test]
fn huge_step_counts_keep_the_planner_arithmetic() {
    for k in [1u64, 1_000, 100_000_000, 2_000_000_000, u64::MAX / 4] {
        let c = composed(Component::poisson(0.1, 1.0).unwrap(), k);
        let e = c.predicted_grid_exp(5e-4);
        assert!((4..=18).contains(&e), "k={k}: {e}");
    }
    let c = composed(Component::poisson(0.1, 1.0).unwrap(), 100_000_000);
    let err = c.compose(Target::Delta(1e-5), Some(24)).unwrap_err();
    let m = err.to_string();
    assert!(!m.contains("18446744073709551615"), "{m}");
    assert!(m.contains("points"), "{m}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]

    /// Random Poisson / subsampled / Gaussian lists: every answer is ordered, its upper
    /// end is at most the no-amplification bound `G(√Σkᵢμᵢ²)` and its lower end at most
    /// that bound too (both are bounds of one true value); a one-component Poisson list
    /// brackets the closed-form profile.
    #[test]
    fn answers_lie_below_the_no_amplification_bound(
        p in 1e-3f64..1.0, mu in 1e-3f64..4.0, k in 1u64..200,
        mu_g in 0.0f64..1.0, sub in any::<bool>(), log_delta in -60.0f64..-2.0,
    ) {
        let delta = 10f64.powf(log_delta);
        let comp = if sub {
            Component::subsampled(p, mu).unwrap()
        } else {
            Component::poisson(p, mu).unwrap()
        };
        let mut c = composed(comp, k);
        let mut s2 = k as f64 * mu * mu;
        if mu_g > 0.05 {
            c = c.with(Component::gaussian(mu_g).unwrap(), 1).unwrap();
            s2 += mu_g * mu_g;
        }
        let a = c.answer(Target::Delta(delta), 1e-2, None).unwrap();
        let iv = a.interval;
        prop_assert!(0.0 <= iv.lower && iv.lower <= iv.upper, "{iv:?}");
        let (_, g_up) = gdp_eps(s2.sqrt() * (1.0 + 1e-12), delta);
        prop_assert!(iv.upper <= g_up, "{iv:?} vs {g_up}");
        prop_assert!(iv.width() <= 1e-2 || a.note.is_some(), "{iv:?}");
        if k == 1 && !sub && mu_g <= 0.05 {
            prop_assert!(poisson_one_step_delta(p, mu, iv.upper) <= delta * (1.0 + 1e-6));
            prop_assert!(poisson_one_step_delta(p, mu, iv.lower) >= delta * (1.0 - 1e-6)
                || iv.lower == 0.0);
        }
    }
}

/// A sampled Gaussian with almost no noise is not private: under Poisson sampling (or
/// C_p) with p = 1/2 and μ beyond 1.35·10¹⁵⁴ (μ²/2 overflows f64) the record is in the
/// batch with probability 1/2 and then identified, so δ(ε) ≥ 1/4 for every finite ε
/// (C_p's crossing included) and ε(10⁻⁵) is astronomically large. The answer must say
/// so (an upper end ≥ 10³⁰⁰ or +∞), never a small ε from masses lost beyond f64's range.
#[test]
fn sampled_gaussians_beyond_f64_range_are_not_reported_private() {
    for mu in [1.4e154, 1e155, 1e200, 1e300] {
        for c in [Component::poisson(0.5, mu), Component::subsampled(0.5, mu)] {
            let comp = composed(c.unwrap(), 1);
            match comp.answer(Target::Delta(1e-5), 5e-4, None) {
                Ok(a) => assert!(
                    a.interval.upper >= 1e300,
                    "μ = {mu:e}: ε ≤ {}",
                    a.interval.upper
                ),
                Err(e) => panic!("μ = {mu:e}: refused ({e}); the no-amplification bound answers"),
            }
        }
    }
}

/// A Poisson-sampled Laplace mechanism with little noise: the remove order's loss
/// `φ(ℓ) = ln(1 − p + p e^ℓ)` reaches `1/b + ln(p + (1 − p)e^{−1/b})`, and its P-mass
/// within 10⁻⁶ of that supremum is ≥ p/2 · (1 − e^{−10⁻⁶ b}) … so for δ = 10⁻⁵ the true
/// ε(δ) exceeds `1/b + ln p − 1` for these b. Past `1/b ≈ 709` (e^ℓ overflows f64) the
/// answer once lost the remove order and reported ln 2.
#[test]
fn poisson_laplace_with_little_noise_keeps_its_large_loss() {
    use shiftdp::composition::mechanism::{Laplace, PoissonSampled};
    use std::sync::Arc;
    let p = 0.5;
    for b in [2e-3, 1.4e-3, 1e-3, 1e-5, 1e-100] {
        let m = PoissonSampled::new(p, Arc::new(Laplace::new(b, 1.0).unwrap())).unwrap();
        let comp = composed(Component::mechanism(m), 1);
        let floor = 1.0 / b + f64::ln(p) - 1.0;
        match comp.answer(Target::Delta(1e-5), 5e-4, None) {
            Ok(a) => assert!(
                a.interval.upper >= floor,
                "b = {b:e}: ε ≤ {} < {floor}",
                a.interval.upper
            ),
            Err(e) => panic!("b = {b:e}: refused ({e}); every loss is bounded (pure DP answers)"),
        }
    }
}

/// f_{ε,0} answers ε(δ) = ε + ln(1 − δ·(1 + e^{−ε})) ≈ ε − δ up to ε = 700 (e^ε finite);
/// above it the component is refused by name (the engine computes in f64).
#[test]
fn approx_dp_up_to_the_f64_range_and_refused_beyond() {
    for eps in [5.0, 300.0, 600.0, 700.0] {
        let comp = composed(Component::approx_dp(eps, 0.0).unwrap(), 1);
        let a = comp.answer(Target::Delta(1e-5), 5e-4, None).unwrap();
        assert!(
            a.interval.upper <= eps * (1.0 + 1e-12) && a.interval.upper >= eps - 1e-3,
            "ε = {eps}: {:?}",
            a.interval
        );
    }
    assert!(matches!(
        Component::approx_dp(800.0, 0.0),
        Err(shiftdp::Error::Parameter { ref name, .. }) if name == "epsilon"
    ));
}

/// ε(δ) of a sampled mechanism from below, from the mathematics: for the remove order
/// `P = (1 − q)Q_b + qP_b` against `Q = Q_b` and the event `S` = {x above the midpoint},
/// `δ(ε) ≥ q P_b(S) − e^ε Q_b(S)` with `P_b(S) ≥ 1/2`, so `ε(δ) ≥ ln(q/2 − δ) − ln Q_b(S)`.
/// Gaussian base G(μ): `ln Q_b(S) = ln Φ(−μ/2) ≤ −μ²/8 − ln(μ√(2π)/2)` (Mills); Laplace
/// base (scale b, sensitivity 1): `ln Q_b(S) = ln(1/2) − 1/(2b)`. Composition only adds
/// loss, and C_p ≤ f_p, so the bound holds for both samplers and every count.
fn sampled_epsilon_floor(q: f64, delta: f64, ln_q_b: f64) -> f64 {
    (q / 2.0 - delta).ln() - ln_q_b
}

/// `ln Φ(−μ/2) ≤ −μ²/8 − ln(μ√(2π)/2)` (Mills' ratio), the Gaussian base's `ln Q_b(S)`
/// bound above; −∞ where μ²/8 overflows.
fn gaussian_ln_q_b(mu: f64) -> f64 {
    -(mu * mu / 8.0) - (mu * (2.0 * std::f64::consts::PI).sqrt() / 2.0).ln()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Near-deterministic sampled mechanisms (μ up to 1e300, b down to 1e-300) are never
    /// reported more private than the floor above.
    #[test]
    fn sampled_mechanisms_with_little_noise_stay_above_the_analytic_floor(
        q in 0.01f64..1.0,
        lmu in 0.0f64..300.0,
        lb in -300.0f64..0.0,
        k in 1u64..4,
        which in 0usize..3,
    ) {
        use shiftdp::composition::mechanism::{Laplace, PoissonSampled};
        use std::sync::Arc;
        let delta = 1e-5;
        let (mu, b) = (10f64.powf(lmu), 10f64.powf(lb));
        let (c, ln_q_b) = match which {
            0 => (Component::poisson(q, mu).unwrap(),
                  gaussian_ln_q_b(mu)),
            1 => (Component::subsampled(q, mu).unwrap(),
                  gaussian_ln_q_b(mu)),
            _ => (Component::mechanism(PoissonSampled::new(q, Arc::new(Laplace::new(b, 1.0).unwrap())).unwrap()),
                  0.5f64.ln() - 1.0 / (2.0 * b)),
        };
        let floor = sampled_epsilon_floor(q, delta, ln_q_b);
        prop_assume!(floor > 0.0);
        let comp = composed(c, k);
        // a refusal is not a wrong number; the other tests hold the engine to answering
        if let Ok(a) = comp.answer(Target::Delta(delta), 5e-4, None) {
            prop_assert!(
                a.interval.upper >= floor * (1.0 - 1e-9),
                "q = {q}, μ = {mu:e}, b = {b:e}, k = {k}, kind {which}: ε ≤ {} < floor {floor}",
                a.interval.upper
            );
        }
    }
}

/// The case the floor's property test found: Poisson q = 0.01, μ = 1000, three steps was
/// certified at ε ≤ 1410.3 (each step's loss above ≈ 705 was read as having no mass
/// beyond, since e^ℓ overflowed in the edge x(ℓ)); the floor is ≈ 1.25e5.
#[test]
fn poisson_gaussian_steps_with_losses_beyond_exp_range_keep_their_mass() {
    let (q, mu, delta) = (0.01, 1000.0, 1e-5);
    let ln_q_b = gaussian_ln_q_b(mu);
    let floor = sampled_epsilon_floor(q, delta, ln_q_b);
    let comp = composed(Component::poisson(q, mu).unwrap(), 3);
    let a = comp.answer(Target::Delta(delta), 5e-4, None).unwrap();
    assert!(
        a.interval.upper >= floor,
        "ε ≤ {} < {floor}",
        a.interval.upper
    );
}

/// A width the two discretizations carry whatever the grid step (here the relative
/// width of a large δ(ε) after four strongly sampled steps, within the tolerance at the
/// first grid) does not send the planner to its largest grid: the answer stays on the
/// small grid that meets the tolerance (2²⁴ points per order and 4 GB when the width
/// predicted from the single steps was followed without checking that it falls).
#[test]
fn a_width_that_is_not_the_discretization_keeps_the_small_grid() {
    let c = Composition::new()
        .with(
            Component::poisson(0.3641627520108104, 3.2404418689602847).unwrap(),
            4,
        )
        .unwrap();
    for eps in [0.0164, 0.386] {
        let a = c.answer(Target::Epsilon(eps), 5e-4, None).unwrap();
        let points = a
            .composed()
            .map_or(0, |r| r.info.iter().map(|g| g.points).max().unwrap_or(0));
        assert!(points <= 1 << 16, "ε = {eps}: {points} points per order");
        assert!(a.width <= 5e-4, "ε = {eps}: width {}", a.width);
    }
}
