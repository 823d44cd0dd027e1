//! AT22 (src/renyi/at22.rs, src/renyi/at22_theorems.rs): recipes (5.3), (5.7), the
//! explicit-constant Thms 3.1, 5.1, 5.8, and the Thm 4.1 lower-bound instance, each
//! cross-checked against the schedule problem, the other recipes, or exact instances.
use shiftdp::exact::{ClampedInstance, Instance, MixtureInstance, Order, PairKind};
use shiftdp::precision::Enclosure;
use shiftdp::renyi::at22::{
    PabiGap, RecipeBInputs, pabi_rho, recipe_3_6, recipe_b_with, recipe_b2, recipe_b3,
};
use shiftdp::renyi::at22_theorems::*;
use shiftdp::renyi::sampled_gaussian::s_alpha;
use shiftdp::schedules::ScheduleProblem;
use shiftdp::schedules::builders::{CyclicOrder, noisy_cgd};
use shiftdp::schedules::kkt::solve_kkt;

/// The run (n, b, L, η, σ, T, D).
fn at22_run(n: u64, b: u64, l: f64, eta: f64, sigma: f64, t: u64, d: f64) -> At22Run {
    At22Run {
        n,
        b,
        l,
        eta,
        sigma,
        t,
        d,
    }
}

/// The inputs (q, b/L, η, σ, T, D, c) of recipe (B.2) (`c` None) or (B.3).
fn recipe_inputs(
    q: f64,
    b_over_l: f64,
    eta: f64,
    sigma: f64,
    t: u64,
    d: f64,
    c: Option<f64>,
) -> RecipeBInputs {
    RecipeBInputs {
        q,
        b_over_l,
        eta,
        sigma,
        t,
        d,
        c,
    }
}

/// The inputs (q, b/L, σ₁, σ₂, D) of a recipe at a fixed noise split.
fn split_inputs(q: f64, b_over_l: f64, sigma1: f64, sigma2: f64, d: f64) -> SplitInputs {
    SplitInputs {
        q,
        b_over_l,
        sigma1,
        sigma2,
        d,
    }
}

/// The upper end of recipe (B.2)/(B.3) at order `alpha`, Q over both orders, 64 bits.
fn recipe_b_upper(alpha: f64, inputs: &RecipeBInputs) -> f64 {
    recipe_b_with(alpha, inputs, QReading::BothOrders, 64)
        .unwrap()
        .upper_f64()
}

/// (α/2)·optimum of the schedule problem with s_k = 0, per-step contraction c and noise
/// `noise[k]`, started at z_τ = D at τ = 1 of a horizon of len + 1 steps (the first step
/// is a dummy before τ).
fn pabi_from_gap(alpha: f64, c: f64, noise: &[f64], d: f64) -> f64 {
    let k = noise.len();
    let mut cs = vec![c; k + 1];
    cs[0] = 1.0;
    let mut nz = vec![1.0; k + 1];
    nz[1..].copy_from_slice(noise);
    let p = ScheduleProblem::new(cs, vec![0.0; k + 1], nz, None)
        .unwrap()
        .with_fixed_gap(Some(d))
        .unwrap();
    let sol = solve_kkt(&p, 1).unwrap();
    alpha / 2.0 * sol.mu2
}

/// (5.3)'s PABI term c^{2T̃}αD²/(2η²σ₁²) is a feasible schedule of Prop 5.6, so it is at
/// least the schedule optimum, which is (B.3)'s term αD²(1−c²)/(2η²σ₁²(c^{−2T̃}−1)); the
/// whole recipe (5.3) at a split is therefore ≥ (B.3) at the same split and ≥ recipe (B.3).
#[test]
fn recipe_5_3_dominates_schedule_optimum_and_b3() {
    let (alpha, q, bl, eta, s1, s2, d) = (3.0, 0.02, 4.0, 0.3, 1.0, 1.0, 2.0);
    for &c in &[0.5f64, 0.9, 0.99] {
        for &k in &[1usize, 3, 10, 40] {
            let a = alpha * d * d / (2.0 * eta * eta * s1 * s1);
            let printed = c.powi(2 * k as i32) * a;
            let opt = pabi_from_gap(alpha, c, &vec![eta * s1; k], d);
            let zero = Enclosure::from_u64(128, 0);
            let b3 = shiftdp::renyi::at22::b_term(
                alpha,
                &zero,
                &PabiGap {
                    eta,
                    sigma1: s1,
                    d,
                    c: Some(c),
                },
                k as u64,
                128,
            )
            .mid_f64();
            assert!((opt / b3 - 1.0).abs() < 1e-9, "c={c} k={k}: {opt} vs {b3}");
            assert!(
                printed >= opt * (1.0 - 1e-12),
                "c={c} k={k}: {printed} < {opt}"
            );
        }
        let sigma = (s1 * s1 + s2 * s2).sqrt();
        let (v, _) = recipe_5_3(
            alpha,
            &split_inputs(q, bl, s1, s2, d),
            eta,
            300,
            c,
            QReading::AsPrinted,
            64,
        )
        .unwrap();
        let r = recipe_b3(
            alpha,
            &recipe_inputs(q, bl, eta, sigma, 300, d, Some(c)),
            64,
        )
        .unwrap();
        assert!(v.upper_f64() >= r.upper_f64() * (1.0 - 1e-9), "c={c}");
    }
}

/// (5.7) with constant η is (3.6) with one step fewer in the PABI term: at every split
/// (5.7) ≥ (3.6); with decaying η the printed shifts a_t ∝ η_t are feasible, so (5.7)'s
/// PABI term ≥ the schedule optimum αD²/(2σ₁²Σ_{t=τ}^{T−1}η_t²) (ERRATA.md AT3).
#[test]
fn recipe_5_7_dominates_3_6_and_the_schedule_optimum() {
    let (alpha, q, bl, s1, s2, d) = (4.0, 0.05, 2.0, 1.0, 0.8, 1.5);
    let t = 120usize;
    let etas = vec![0.2; t];
    let split = split_inputs(q, bl, s1, s2, d);
    let (v57, tau) = recipe_5_7(alpha, &split, &etas, QReading::AsPrinted, 64).unwrap();
    let (v36, k36) = recipe_3_6(alpha, &split, 0.2, t as u64, 64).unwrap();
    assert!(
        v57.upper_f64() >= v36.upper_f64(),
        "{} < {}",
        v57.upper_f64(),
        v36.upper_f64()
    );
    assert!((t as u64 - tau) >= 2 && k36 >= 1);
    // decaying steps η_t = 0.5/√(t+1)
    let etas: Vec<f64> = (0..t).map(|i| 0.5 / ((i + 1) as f64).sqrt()).collect();
    for &tau in &[0usize, 50, 100, t - 2] {
        let k = (t - tau - 1) as f64;
        let sum: f64 = etas[tau + 1..].iter().sum();
        let printed = k * alpha * d * d / (2.0 * s1 * s1 * sum * sum);
        let noise: Vec<f64> = etas[tau..].iter().map(|e| e * s1).collect();
        let opt = pabi_from_gap(alpha, 1.0, &noise, d);
        let cs: f64 = etas[tau..].iter().map(|e| e * e).sum();
        assert!((opt / (alpha * d * d / (2.0 * s1 * s1 * cs)) - 1.0).abs() < 1e-9);
        assert!(printed >= opt, "τ={tau}: {printed} < {opt}");
    }
}

/// Thms 3.1 and 5.1 in explicit-constant form are at least the numerical recipes
/// ((B.2)/(B.3) in both Q readings, and (3.6)/(5.3) at σ₁ = σ₂ = σ/√2), which they bound.
#[test]
fn explicit_theorems_at_least_the_recipes() {
    // (α, n, b, toolkit L, η, σ, T, D)
    let cases = [
        (2.0, 1000u64, 10u64, 2.0, 0.1, 20.0, 20_000u64, 1.0),
        (5.0, 2000, 20, 1.0, 0.05, 30.0, 500, 0.5),
        (3.0, 500, 5, 2.0, 0.5, 40.0, 3000, 2.0),
    ];
    for &(alpha, n, b, l, eta, sigma, t, d) in &cases {
        let run = at22_run(n, b, l, eta, sigma, t, d);
        let q = b as f64 / n as f64;
        let bl = b as f64 / l;
        let b2 = recipe_inputs(q, bl, eta, sigma, t, d, None);
        let t31 = thm_3_1(alpha, &run, 1.0, 128).unwrap().upper_f64();
        for reading in [QReading::AsPrinted, QReading::BothOrders] {
            let r = recipe_b_with(alpha, &b2, reading, 64).unwrap();
            assert!(
                t31 >= r.upper_f64(),
                "{alpha} {n}: Thm 3.1 {t31} < (B.2) {}",
                r.upper_f64()
            );
        }
        let h = sigma / 2f64.sqrt();
        let halves = split_inputs(q, bl, h, h, d);
        let (r36, _) = recipe_3_6(alpha, &halves, eta, t, 64).unwrap();
        assert!(
            t31 >= r36
                .upper_f64()
                .min(t as f64 * s_alpha(alpha, q, bl * sigma, 64).unwrap().upper_f64())
        );
        for &c in &[0.9, 0.999] {
            let t51 = thm_5_1(alpha, &run, c, 128).unwrap().upper_f64();
            let (r53, _) = recipe_5_3(alpha, &halves, eta, t, c, QReading::BothOrders, 64).unwrap();
            let tq = t as f64 * s_alpha(alpha, q, bl * sigma, 64).unwrap().upper_f64();
            assert!(
                t51 >= r53.upper_f64().min(tq),
                "c={c}: Thm 5.1 {t51} < (5.3) {}",
                r53.upper_f64()
            );
            let b3 = RecipeBInputs { c: Some(c), ..b2 };
            let r = recipe_b_with(alpha, &b3, QReading::BothOrders, 64).unwrap();
            assert!(
                t51 >= r.upper_f64(),
                "c={c}: Thm 5.1 {t51} < (B.3) {}",
                r.upper_f64()
            );
        }
    }
}

/// Thm 5.8 in explicit-constant form is at least the optimal PABI bound (schedule problem
/// with z_τ = D, worst position of the record), at every order (both are linear in α).
#[test]
fn thm_5_8_at_least_worst_position_pabi_optimum() {
    // (n, b, toolkit L, η, σ, epochs, D)
    for &(n, b, l, eta, sigma, e, d) in &[
        (40u64, 10u64, 2.0, 0.1, 1.0, 5u64, 0.05),
        (60, 20, 1.0, 0.2, 0.5, 30, 0.3),
        (20, 5, 2.0, 0.05, 2.0, 50, 0.02),
    ] {
        let lb = n / b;
        let t = lb * e;
        let mut worst = 0.0f64;
        for pos in 0..lb as usize {
            let en = |x: f64| Enclosure::from_f64(128, x);
            let p = noisy_cgd(
                n,
                b,
                en(l),
                en(eta),
                en(sigma),
                t as usize,
                en(1.0),
                CyclicOrder::Fixed(pos),
                Some(en(d)),
            )
            .unwrap()
            .with_fixed_gap(Some(en(d)))
            .unwrap();
            let (rho, _) = pabi_rho(&p, 128).unwrap();
            worst = worst.max(rho.upper_f64());
        }
        // ε(α) = ρα for the optimum; the theorem at α = 2 is 2·(its ρ)
        let run = at22_run(n, b, l, eta, sigma, t, d);
        let thm = thm_5_8(2.0, &run, 1.0, 128).unwrap().upper_f64();
        assert!(
            thm >= 2.0 * worst,
            "n={n} b={b}: Thm 5.8 {thm} < optimum {}",
            2.0 * worst
        );
    }
}

/// The explicit theorems dominate exact instances: the unconstrained mixture instance
/// of NoisySGD on a linear loss (both pair kinds, both orders) at several orders.
#[test]
fn explicit_theorems_dominate_mixture_instances() {
    let (n, b, l, eta, sigma, t, d) = (1000u64, 10u64, 2.0, 0.1, 20.0, 200usize, 1.0);
    let run = at22_run(n, b, l, eta, sigma, t as u64, d);
    let t31 = |a: f64| thm_3_1(a, &run, 1.0, 128).unwrap().upper_f64();
    let t51 = |a: f64| thm_5_1(a, &run, 0.99, 128).unwrap().upper_f64();
    for kind in [PairKind::OneSided, PairKind::Opposite] {
        // linear loss (h = 0) for Thm 3.1; h = (1 − c)/η for Thm 5.1
        let lin = MixtureInstance::sgd(n, b, t, eta, sigma, l, 0.0, kind, 1e-12).unwrap();
        let quad = MixtureInstance::sgd(n, b, t, eta, sigma, l, 0.01 / eta, kind, 1e-12).unwrap();
        for a in [1.5, 2.0, 4.0, 8.0] {
            for (thm, inst, bound) in [("Thm 3.1", &lin, t31(a)), ("Thm 5.1", &quad, t51(a))] {
                for o in Order::BOTH {
                    let v = inst.renyi(a, o).unwrap();
                    assert!(
                        v.hi() <= bound,
                        "{thm} α={a} {kind:?} {o:?}: {} > {bound}",
                        v.hi()
                    );
                }
            }
        }
    }
}

/// The Thm 4.1 construction as a clamped walk, in the theorem's regime (D ≥ c_D ηL,
/// σ² ≤ c_σD²/(η²T̄)): its Rényi divergence at ᾱ = 100 (larger order) is at least the
/// paper's lower bound, and at most the AT22 upper bound (B.2) for the same setting
/// (Q in both orders, toolkit L = the construction's gradient difference L_AT).
#[test]
fn thm_4_1_instance_between_lower_and_upper_bound() {
    // σ² = 7.84 ≤ c_σ D L/(0.75 η n) = 8; D = 1.2·10⁴ ≥ 10³ηL
    let (n, b, l, eta, sigma, d, t) = (2u64, 1u64, 1.0, 1.0, 2.8, 12_000.0, 20u64);
    let run = at22_run(n, b, l, eta, sigma, t, d);
    let lb = thm_4_1_lower_bound(&run, 128).unwrap().lower_f64();
    let w = thm_4_1_walk(&run).unwrap();
    let inst = ClampedInstance::new(
        &w,
        PairKind::OneSided,
        walk_nodes(d, eta * sigma, 2.0, 100_000),
    )
    .unwrap();
    let a = THM_4_1_CONSTANTS.alpha_bar;
    let fwd = inst.renyi(a, Order::Forward).unwrap();
    let rev = inst.renyi(a, Order::Reverse).unwrap();
    // the reverse order is infinite on the grid (its far tail is not resolved): the
    // forward order alone must already exceed the lower bound
    let v = fwd.lo();
    assert!(v >= lb, "instance {v} < lower bound {lb}");
    let ub = recipe_b_upper(
        a,
        &recipe_inputs(b as f64 / n as f64, b as f64 / l, eta, sigma, t, d, None),
    );
    assert!(fwd.hi() <= ub, "instance {} > upper bound {ub}", fwd.hi());
    assert!(
        !rev.hi().is_finite() || rev.hi() <= ub,
        "reverse {} > {ub}",
        rev.hi()
    );
}

/// ERRATA.md AT1: with Q = S_α as printed (D_α(N₀ ‖ mixture)), (B.2) is exceeded by the
/// reverse order of the Thm 4.1 instance — even in AT22's own convention (L-Lipschitz
/// losses, Q = S_α(b/n, bσ/(2L))); with Q in both orders it is not.
#[test]
fn printed_q_is_exceeded_by_the_reverse_order_of_the_thm_4_1_instance() {
    // D = 12σ: every node is within 6σ of the start, so both orders are resolved
    let (n, b, l, eta, sigma, d) = (10u64, 1u64, 1.0, 1.0, 1.0, 12.0);
    // T = 1: (B.2) is its composition branch (T̃ ∈ {1..T−1} is empty), no split search
    for t in [1u64] {
        let run = at22_run(n, b, l, eta, sigma, t, d);
        let w = thm_4_1_walk(&run).unwrap();
        let inst = ClampedInstance::new(&w, PairKind::OneSided, 400).unwrap();
        for a in [10.0, 20.0] {
            let rev = inst.renyi(a, Order::Reverse).unwrap();
            // the paper's convention: σ̃ = bσ/(2L) (2L for replace adjacency)
            let printed = recipe_b2(
                a,
                &recipe_inputs(0.1, b as f64 / (2.0 * l), eta, sigma, t, d, None),
                64,
            )
            .unwrap();
            assert!(
                rev.lo() > printed.upper_f64(),
                "t={t} α={a}: {} ≤ {}",
                rev.lo(),
                printed.upper_f64()
            );
            let sound =
                recipe_b_upper(a, &recipe_inputs(0.1, b as f64 / l, eta, sigma, t, d, None));
            assert!(rev.hi() <= sound, "t={t} α={a}: {} > {}", rev.hi(), sound);
        }
    }
}

/// Both readings of Q on a clamped walk in the PABI regime (D small, T long): the
/// corrected (B.2) dominates the walk in both orders.
#[test]
fn corrected_b2_dominates_clamped_walk_in_pabi_regime() {
    let (n, b, l, eta, sigma, d, t) = (4u64, 1u64, 1.0, 1.0, 1.0, 3.0, 150u64);
    let run = at22_run(n, b, l, eta, sigma, t, d);
    let w = thm_4_1_walk(&run).unwrap();
    let inst = ClampedInstance::new(&w, PairKind::OneSided, 120).unwrap();
    for a in [2.0, 4.0, 8.0] {
        let ub = recipe_b_upper(
            a,
            &recipe_inputs(0.25, b as f64 / l, eta, sigma, t, d, None),
        );
        for o in Order::BOTH {
            let v = inst.renyi(a, o).unwrap();
            assert!(v.hi() <= ub, "α={a} {o:?}: {} > {}", v.hi(), ub);
        }
    }
}

/// The library's (B.2)/(B.3) objective `at22::b_term` (which the recipes certify their
/// value with) against an independent computation: its PABI part is (α/2)× the KKT
/// optimum of the schedule problem with s ≡ 0, contraction c (1 for (B.2)), noise ησ₁
/// and fixed gap z_τ = D over T̃ steps (AT22 footnote 15, ERRATA.md AT14), and the rest is
/// T̃·Q for a certified Q.
#[test]
fn b3_term_is_the_schedule_optimum() {
    use shiftdp::renyi::at22::b_term;
    let wp = 128;
    let zero = Enclosure::from_u64(wp, 0);
    for &(alpha, c, k, d, eta, s1) in &[
        (2.0f64, Some(0.9f64), 7u64, 2.0f64, 0.5f64, 1.0f64),
        (3.5, Some(0.99), 40, 1.0, 0.3, 4.3),
        (8.0, Some(0.5), 3, 4.0, 1.0, 2.0),
        (1.5, Some(0.999), 250, 0.7, 0.05, 1.1),
        (2.0, None, 7, 2.0, 0.5, 1.0),
        (5.0, None, 60, 0.3, 0.2, 0.8),
    ] {
        let opt = pabi_from_gap(alpha, c.unwrap_or(1.0), &vec![eta * s1; k as usize], d);
        let gap = PabiGap {
            eta,
            sigma1: s1,
            d,
            c,
        };
        let pabi = b_term(alpha, &zero, &gap, k, wp);
        assert!(
            (pabi.mid_f64() / opt - 1.0).abs() < 1e-9,
            "c={c:?} k={k}: b_term {} vs (α/2)·optimum {opt}",
            pabi.mid_f64()
        );
        // with a certified Q: T̃·Q on top
        let q = s_alpha(alpha, 0.05, 3.0, 64).unwrap();
        let full = b_term(alpha, &q, &gap, k, wp);
        let want = k as f64 * q.mid_f64() + opt;
        assert!(
            (full.mid_f64() / want - 1.0).abs() < 1e-9,
            "c={c:?} k={k}: b_term {} vs T̃Q + optimum {want}",
            full.mid_f64()
        );
    }
}

fn sgd_setting(pairs: &[(&str, &str)]) -> shiftdp::settings::Setting {
    use shiftdp::settings::{Algorithm, RawSetting, Setting};
    Setting::new(Algorithm::Sgd, &RawSetting::from_pairs(pairs).unwrap()).unwrap()
}

/// (B.3) for a NoisySGD setting (`compare`, the validator): every value fed to the recipe
/// is at the end of the typed decimal that makes the bound larger, compared with the
/// exact rationals of the decimals. 0.95, 0.1 and 0.3 are not binary numbers and their
/// nearest doubles lie on the unsafe side (0.95, 0.3 below; 0.1 above), so feeding
/// midpoints fails here; in particular the (B.3) term grows with c, and c must be
/// rounded up.
#[test]
fn b3_setting_feeds_each_value_at_its_safe_end() {
    use rug::Rational;
    use rug::float::Round;
    use shiftdp::renyi::at22::{EQ_B3, recipe_b_for_setting, recipe_b_id, recipe_b_inputs};
    let s = sgd_setting(&[
        ("n", "30"),
        ("batch", "7"),
        ("steps", "400"),
        ("eta", "0.1"),
        ("noise", "0.7"),
        ("sensitivity", "0.3"),
        ("contraction", "0.95"),
        ("diameter", "0.3"),
    ]);
    let r = |a: u32, b: u32| Rational::from((a, b));
    let ex = |x: f64| Rational::from_f64(x).unwrap();
    let up = |q: &Rational| rug::Float::with_val_round(53, q, Round::Up).0.to_f64();
    let down = |q: &Rational| rug::Float::with_val_round(53, q, Round::Down).0.to_f64();
    // the test discriminates: nearest doubles on the unsafe side
    assert!(ex(0.95) < r(19, 20) && ex(0.3) < r(3, 10) && ex(0.1) > r(1, 10));

    assert_eq!(recipe_b_id(&s), EQ_B3);
    let x = recipe_b_inputs(&s).unwrap();
    let c = x.c.expect("(B.3) selected");
    let checks = [
        ("c (up)", ex(c) >= r(19, 20), c, up(&r(19, 20))),
        ("q = b/n (up)", ex(x.q) >= r(7, 30), x.q, up(&r(7, 30))),
        ("D (up)", ex(x.d) >= r(3, 10), x.d, up(&r(3, 10))),
        ("η (down)", ex(x.eta) <= r(1, 10), x.eta, down(&r(1, 10))),
        (
            "σ (down)",
            ex(x.sigma) <= r(7, 10),
            x.sigma,
            down(&r(7, 10)),
        ),
        (
            "b/L (down)",
            ex(x.b_over_l) <= r(70, 3),
            x.b_over_l,
            down(&r(70, 3)),
        ),
    ];
    for (name, safe, fed, want) in checks {
        assert!(safe, "{name}: fed {fed:e} is on the unsafe side");
        // and not looser than one rounding
        assert!(
            (fed - want).abs() <= f64::EPSILON * want.abs(),
            "{name}: fed {fed:e}, safe end {want:e}"
        );
    }
    assert_eq!(x.t, 400);

    // the ε the setting gets is the recipe at the independently rounded inputs, and the
    // contraction matters here (the PABI branch is active): c rounded to nearest gives less
    for alpha in [2.0, 4.0] {
        let got = recipe_b_for_setting(&s, alpha, QReading::BothOrders, 64)
            .unwrap()
            .upper_f64();
        let safe_inputs = RecipeBInputs {
            q: up(&r(7, 30)),
            b_over_l: down(&r(70, 3)),
            eta: down(&r(1, 10)),
            sigma: down(&r(7, 10)),
            t: 400,
            d: up(&r(3, 10)),
            c: Some(up(&r(19, 20))),
        };
        let safe = recipe_b_upper(alpha, &safe_inputs);
        assert!(got >= safe, "α = {alpha}: {got} < {safe}");
        let nearest = RecipeBInputs {
            c: Some(0.95),
            ..safe_inputs
        };
        let nearest_c = recipe_b_upper(alpha, &nearest);
        assert!(
            nearest_c < safe,
            "α = {alpha}: c's rounding should show ({nearest_c} vs {safe})"
        );
    }
}

/// A contraction whose enclosure lies below 1 but whose upper end rounds up to 1.0 (the
/// midpoint rounds to 1 − 2⁻⁵³): the recipe is (B.2), valid for c ≤ 1, not (B.3) at a c
/// below the true one.
#[test]
fn recipe_b_selects_b2_when_c_rounds_up_to_one() {
    use shiftdp::renyi::at22::{EQ_B2, recipe_b_id, recipe_b_inputs};
    let s = sgd_setting(&[
        ("n", "30"),
        ("batch", "7"),
        ("steps", "50"),
        ("eta", "0.1"),
        ("noise", "0.7"),
        ("sensitivity", "0.3"),
        ("contraction", "0.99999999999999992"),
        ("diameter", "0.3"),
    ]);
    let c = s.contraction().unwrap();
    assert!(c.mid_f64() < 1.0 && c.upper_f64() == 1.0);
    assert_eq!(recipe_b_id(&s), EQ_B2);
    assert_eq!(recipe_b_inputs(&s).unwrap().c, None);
}

/// The registry's AT22 Thm 3.1 for a NoisySGD run is the explicit bound of the theorem:
/// here T̄ = ⌈Dn/(L_AT η)⌉ = 10⁴ ≤ T = 10⁵ and 17·T̄ < 8·T, so
/// ε(α) = 17·α·T̄·L_AT²/(n²σ²) whatever Lemma 2.12's constant k_T, computed here from the
/// formula (up to T̄'s rounding); its orders stop at α* of Lemma 2.12 (H6), and a run without a diameter
/// fails H2 by name.
#[test]
fn thm_3_1_is_a_registry_result_for_sgd_runs() {
    use shiftdp::{Algorithm, ResultId, Setting, analysis::bound};
    let (n, b, big_l, eta, sigma, t, d) = (1000u64, 10u64, 2.0, 0.1, 20.0, 100_000u64, 1.0);
    let pairs = [
        ("n", "1000"),
        ("batch", "10"),
        ("steps", "100000"),
        ("eta", "0.1"),
        ("noise", "20"),
        ("sensitivity", "2"),
        ("contraction", "1"),
    ];
    let mut with_d = pairs.to_vec();
    with_d.push(("diameter", "1"));
    let run = Setting::from_pairs(Algorithm::Sgd, &with_d).unwrap();
    let b31 = bound(&run, ResultId::At22Thm3_1).unwrap().unwrap();
    let curve = b31.renyi_curve().unwrap();
    let l_at: f64 = big_l / 2.0;
    let t_bar = (d * n as f64 / (l_at * eta)).ceil();
    assert!(t_bar <= t as f64 && 17.0 * t_bar < 8.0 * t as f64);
    for alpha in [2.0, 3.0, 5.0] {
        let formula = 17.0 * alpha * t_bar * l_at * l_at / ((n * n) as f64 * sigma * sigma);
        let v = curve.eval(alpha, 128).unwrap().upper_f64();
        // T̄ is the ceiling of the upper end of an enclosure of Dn/(L_AT η) with η = 0.1
        // rounded down, so the exact integer 10⁴ may count as 10⁴ + 1 (safe: a larger
        // T̄ only enlarges the PABI branch)
        assert!(
            v >= formula && v <= formula * (1.0 + 1.0 / t_bar) * (1.0 + 1e-12),
            "α = {alpha}: {v} vs {formula}"
        );
    }
    let a_star = shiftdp::renyi::at22::alpha_star(
        b as f64 / n as f64,
        b as f64 * sigma / (2f64.sqrt() * big_l),
    )
    .unwrap();
    assert!(curve.order_range().1 <= a_star);
    let no_d = Setting::from_pairs(Algorithm::Sgd, &pairs).unwrap();
    let err = bound(&no_d, ResultId::At22Thm3_1).unwrap().unwrap_err();
    assert!(err.to_string().contains("H2"), "{err}");
}
