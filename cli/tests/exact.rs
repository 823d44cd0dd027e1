//! Property tests of the exact-instance engines: they agree with closed forms and with
//! each other where they overlap, and their outputs obey the laws of privacy profiles.
use clap::Parser;
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use shiftdp::exact::clamped::{ClampStep, ClampedWalk};
use shiftdp::exact::gaussian::scalar_mu;
use shiftdp::exact::validate::Status;
use shiftdp::exact::{
    BoundSpec, ClampedInstance, GaussianInstance, Instance, MixtureInstance, Order, PairKind,
    Schedule, ShiftLaw, validate,
};
use shiftdp::precision::{Enclosure, Real};
use shiftdp::tradeoff::{Gaussian, Tradeoff};
use shiftdp_cli::exact::{ExactArgs, run};

/// BSA24 Thm 4.2 read as `√((1 − c^t)/(1 + c^t) · (1 + c)/(1 − c)) · L/(nσ)`
/// (the reading adopted in ERRATA.md BSA1), generic over the precision.
fn thm42<R: Real>(c: &R, t: u64, l: &R, n: u64, sigma: &R) -> R {
    let one = c.lit(1.0);
    let ct = c.powu(t);
    ((one.clone() - ct.clone()) / (one.clone() + ct) * (one.clone() + c.clone())
        / (one - c.clone()))
    .sqrt()
        * l.clone()
        / (c.int(n) * sigma.clone())
}

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}
#[derive(clap::Subcommand)]
enum Cmd {
    Exact(ExactArgs),
}

fn cli(args: &str) -> serde_json::Value {
    let argv = std::iter::once("shiftdp").chain(args.split_whitespace());
    let Cmd::Exact(a) = Cli::try_parse_from(argv).expect("parse").cmd;
    run(&a).expect("run").json
}

#[test]
fn cli_acceptance_gd_quadratic_equals_thm42() {
    let j = cli(
        "exact gd --loss quadratic --contraction 0.99 --steps 1000 --n 1 --sensitivity 0.1 --noise 1 --eta 1 --json",
    );
    let mu: f64 = j["mu"]["upper"].as_str().unwrap().parse().unwrap();
    let lo: f64 = j["mu"]["lower"].as_str().unwrap().parse().unwrap();
    // independent 256-bit evaluation of the closed form
    let c = Enclosure::parse(256, "0.99").unwrap();
    let want = thm42(
        &c,
        1000,
        &Enclosure::parse(256, "0.1").unwrap(),
        1,
        &c.lit(1.0),
    );
    assert!(
        lo <= want.upper_f64() && want.lower_f64() <= mu,
        "{lo} {mu} {want:?}"
    );
    assert!((mu - want.mid_f64()).abs() < 1e-14 * mu);
    // and with --bits the enclosure is correspondingly narrow
    let j = cli(
        "exact gd --loss quadratic --contraction 0.99 --steps 1000 --n 1 --sensitivity 0.1 --noise 1 --eta 1 --bits 200 --json",
    );
    let s = j["mu"]["upper"].as_str().unwrap();
    let hi = Enclosure::parse(256, s).unwrap();
    assert!(hi.lower_f64() >= want.lower_f64());
    assert!(s.len() > 60, "{s}");
}

#[test]
fn cli_cgd_reports_worst_position_and_sgd_both_pairs() {
    let j = cli(
        "exact cgd --n 8 --batch 2 --epochs 3 --strong-convexity 0.2 --eta 0.5 --noise 1 --sensitivity 1 --json",
    );
    // the last batch of the epoch is contracted least: it is the worst position
    assert_eq!(j["instance_parameters"]["position"], 3);
    let j = cli(
        "exact sgd --n 10 --batch 2 --steps 50 --loss linear --eta 1 --noise 1 --sensitivity 1 --epsilon 0.5 --json",
    );
    for k in ["one_sided", "opposite"] {
        let d: f64 = j["pairs"][k]["delta"]["max_over_orders"]["estimate"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(d > 0.0 && d < 1.0, "{k}: {d}");
    }
}

#[test]
fn cli_rejects_bad_settings() {
    let bad = [
        "exact gd --steps 10 --eta 1 --noise 1 --sensitivity 1",
        "exact gd --steps 10 --eta 1 --noise 0 --sensitivity 1 --loss linear",
        "exact gd --steps 10 --eta -1 --noise 1 --sensitivity 1 --loss linear",
        "exact cgd --n 10 --batch 3 --epochs 1 --eta 1 --noise 1 --sensitivity 1 --loss linear",
        "exact gd --steps 10 --eta 1 --noise 1 --sensitivity 1 --contraction 1.5",
        "exact sgd --n 10 --batch 2 --steps 5 --eta 1 --noise 1 --sensitivity 1 --loss linear --dim 3",
        "exact gd --steps 10 --eta 1 --noise 1 --sensitivity 1 --loss linear --delta 2",
    ];
    for b in bad {
        let argv = std::iter::once("shiftdp").chain(b.split_whitespace());
        let Cmd::Exact(a) = Cli::try_parse_from(argv).expect("parse").cmd;
        assert!(run(&a).is_err(), "{b}");
    }
}

/// Issue 15: a Hessian dimension whose matrices cannot fit (2·10⁵ × 2·10⁵: about
/// 2.9 TiB) is refused with the memory limit's message (it aborted in the allocator),
/// and so is an exact-instance schedule of 10⁷ steps at 4096 bits (about 22 GB; the
/// default limit is 8 GiB).
#[test]
fn cli_refuses_what_does_not_fit_in_memory() {
    for (b, what) in [
        (
            "exact gd --n 1 --steps 10 --eta 0.1 --noise 1 --sensitivity 1 --loss quadratic \
             --strong-convexity 1 --smoothness 2 --dim 200000 --delta 1e-5",
            "matrix path",
        ),
        (
            "exact gd --n 1 --steps 10000000 --eta 0.1 --noise 1 --sensitivity 1 --loss linear \
             --delta 1e-5 --bits 4096",
            "schedule of 10000000 steps",
        ),
    ] {
        let argv = std::iter::once("shiftdp").chain(b.split_whitespace());
        let Cmd::Exact(a) = Cli::try_parse_from(argv).expect("parse").cmd;
        let e = run(&a).map(|_| ()).unwrap_err();
        assert!(
            matches!(e, shiftdp::Error::MemoryLimit { .. }) && e.to_string().contains(what),
            "{b}: {e}"
        );
    }
}

#[test]
fn thm42_validates_as_exact_and_smaller_mu_is_caught() {
    let (c, t, l, n, sigma) = (0.95f64, 200u64, 1.0, 5u64, 0.8);
    let eta = 0.5;
    let h = (1.0 - c) / eta;
    let s = Schedule::full(n, t as usize, eta, sigma).unwrap();
    let inst = GaussianInstance::spectral(&s, &DMatrix::from_element(1, 1, h), l).unwrap();
    let mu = thm42(&c, t, &l, n, &sigma);
    let grid = [0.0, 0.5, 1.0, 2.0, 4.0];
    let rep = validate(
        &BoundSpec::Gdp {
            mu: mu * (1.0 + 1e-9),
        },
        &inst,
        &grid,
        &[2.0, 10.0],
    )
    .unwrap();
    assert!(rep.holds());
    assert!((rep.tightness.unwrap() - 1.0).abs() < 1e-6);
    let rep = validate(&BoundSpec::Gdp { mu: 0.97 * mu }, &inst, &grid, &[2.0]).unwrap();
    assert!(rep.violations > 0);
    assert!(
        rep.checks
            .iter()
            .any(|c| c.status == Status::Violated && c.kind == "renyi")
    );
}

#[test]
fn mixture_delta_matches_independent_quadrature() {
    // OneSided: P = N(0, v), Q = Σ π_j N(m_j, v); δ_{Q‖P}(ε) = ∫ (q − e^ε p)_+
    let inst =
        MixtureInstance::sgd(10, 3, 12, 1.0, 1.5, 1.0, 0.0, PairKind::OneSided, 1e-12).unwrap();
    let law = ShiftLaw::binomial(12, 0.3, 1.0 / 3.0).unwrap();
    let v = 12.0 * 1.5f64.powi(2);
    for eps in [0.0, 0.1, 0.5, 1.0] {
        let (mut fwd, mut rev) = (0.0, 0.0);
        let dx = 1e-3;
        let mut x = -40.0;
        while x < 45.0 {
            let p = shiftdp::exact::mixture::normal_density(x, 0.0, v);
            let q: f64 = law
                .atoms()
                .iter()
                .map(|&(m, w)| w * shiftdp::exact::mixture::normal_density(x, m, v))
                .sum();
            rev += (q - eps.exp() * p).max(0.0) * dx;
            fwd += (p - eps.exp() * q).max(0.0) * dx;
            x += dx;
        }
        let r = inst.delta(eps, Order::Reverse).unwrap();
        let f = inst.delta(eps, Order::Forward).unwrap();
        assert!(
            (r.value - rev).abs() < 1e-6,
            "eps {eps}: {} vs {rev}",
            r.value
        );
        assert!(
            (f.value - fwd).abs() < 1e-6,
            "eps {eps}: {} vs {fwd}",
            f.value
        );
    }
}

#[test]
fn mixture_renyi_order_two_matches_closed_form() {
    // D_2(Q‖P) = ln E_P[(q/p)²] = ln Σ_{i,j} π_i π_j exp(m_i m_j / v) for P = N(0, v)
    let inst =
        MixtureInstance::sgd(8, 2, 10, 0.5, 1.0, 2.0, 0.0, PairKind::OneSided, 1e-12).unwrap();
    let law = ShiftLaw::binomial(10, 0.25, 0.5 * 2.0 / 2.0).unwrap();
    let v = 10.0 * 0.25;
    let mut s = 0.0;
    for &(mi, wi) in law.atoms() {
        for &(mj, wj) in law.atoms() {
            s += wi * wj * (mi * mj / v).exp();
        }
    }
    let r = inst.renyi(2.0, Order::Reverse).unwrap();
    assert!(
        (r.value - s.ln()).abs() < 1e-9 + r.error,
        "{} vs {}",
        r.value,
        s.ln()
    );
}

#[test]
fn grid_law_agrees_with_brute_force_enumeration() {
    // 18 distinct increments: the law goes to the grid; enumerate 2^18 patterns directly
    let a: Vec<f64> = (0..18).map(|k| 0.3 * 0.93f64.powi(17 - k)).collect();
    let p = 0.2;
    let v = 1.7;
    let grid = ShiftLaw::from_increments(&a, p, v, 1e-10).unwrap();
    assert!(!grid.is_exact());
    let mut atoms = Vec::with_capacity(1 << 18);
    for mask in 0u32..(1 << 18) {
        let mut m = 0.0;
        let mut w = 1.0;
        for (k, &ak) in a.iter().enumerate() {
            if mask >> k & 1 == 1 {
                m += ak;
                w *= p;
            } else {
                w *= 1.0 - p;
            }
        }
        atoms.push((m, w));
    }
    // the same pair built from the exact 2^18 atoms
    let exact_law = ShiftLaw::from_atoms(atoms).unwrap();
    assert!(exact_law.is_exact());
    let exact_inst = MixtureInstance::new(&exact_law, v, PairKind::OneSided).unwrap();
    let inst = MixtureInstance::new(&grid, v, PairKind::OneSided).unwrap();
    let eps = 0.2;
    let exact = exact_inst.delta(eps, Order::Reverse).unwrap().value;
    let d = inst.delta(eps, Order::Reverse).unwrap();
    assert!(d.error < 1e-8);
    assert!(
        (d.value - exact).abs() < d.error + 1e-7,
        "{} vs {exact}",
        d.value
    );
}

#[test]
fn clamped_walk_with_huge_interval_equals_unconstrained_gaussian() {
    // full batch (p = 1), linear loss: unconstrained μ = √t · L/(bσ) = √8 · 0.5
    let t = 8;
    let walk = ClampedWalk {
        lo: -28.0,
        hi: 32.0,
        start: 0.0,
        center: 0.0,
        steps: vec![
            ClampStep {
                contraction: 1.0,
                noise_sd: 1.0,
                drift: 0.5,
                p: 1.0,
            };
            t
        ],
    };
    let inst = ClampedInstance::new(&walk, PairKind::OneSided, 600).unwrap();
    let g = Gaussian::new((t as f64).sqrt() * 0.5).unwrap();
    for eps in [0.0, 0.5, 1.0] {
        let d = inst.delta(eps, Order::Reverse).unwrap();
        let want = g.delta_up(eps).unwrap();
        assert!(
            (d.value - want).abs() <= d.error.max(1e-6),
            "{eps}: {d:?} vs {want}"
        );
        assert!(d.error < 1e-3);
    }
    let r = inst.renyi(2.0, Order::Forward).unwrap();
    let mu2 = t as f64 * 0.25;
    assert!((r.value - mu2).abs() <= r.error.max(1e-4), "{r:?} vs {mu2}");
}

#[test]
fn clamping_reduces_privacy_loss_in_the_at22_construction() {
    // the projection is 1-Lipschitz: with a tight interval the walk forgets; with a
    // wide one it matches the unconstrained mixture instance
    let (n, b, t, eta, sigma, l) = (4u64, 1u64, 60usize, 0.2, 1.0, 1.0);
    let narrow = ClampedWalk::altschuler_talwar(1.0, n, b, t, eta, sigma, l).unwrap();
    let wide = ClampedWalk::altschuler_talwar(30.0, n, b, t, eta, sigma, l).unwrap();
    let dn = ClampedInstance::new(&narrow, PairKind::OneSided, 100).unwrap();
    let dw = ClampedInstance::new(&wide, PairKind::OneSided, 300).unwrap();
    let mix = MixtureInstance::sgd(n, b, t, eta, sigma, l, 0.0, PairKind::OneSided, 1e-12).unwrap();
    let e = 0.3;
    let a = dn.delta(e, Order::Reverse).unwrap().value;
    let w = dw.delta(e, Order::Reverse).unwrap();
    let m = mix.delta(e, Order::Reverse).unwrap().value;
    assert!(a < m, "{a} vs {m}");
    assert!((w.value - m).abs() < w.error.max(1e-3), "{w:?} vs {m}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn scalar_path_equals_thm42_and_mpfr_encloses_f64(
        c in 0.0f64..0.999, t in 1u64..1500, n in 1u64..50, l in 0.01f64..5.0, sigma in 0.1f64..5.0
    ) {
        let eta = 0.7;
        let h = (1.0 - c) / eta;
        let s = Schedule::full(n, t as usize, eta, sigma).unwrap();
        let mu = scalar_mu(&s, &h, &l);
        let want = thm42(&c, t, &l, n, &sigma);
        prop_assert!((mu - want).abs() <= 1e-10 * want, "{mu} vs {want}");
        // MPFR scalar path encloses the f64 value up to f64 rounding
        let e = |x: f64| Enclosure::from_f64(128, x);
        let se = Schedule::full(n, t as usize, e(eta), e(sigma)).unwrap();
        let me = scalar_mu(&se, &e(h), &e(l));
        prop_assert!(me.rel_width() < 1e-25);
        prop_assert!((me.mid_f64() - mu).abs() <= 1e-12 * mu);
    }

    #[test]
    fn isotropic_matrix_path_equals_scalar_path(
        h in 0.0f64..1.5, d in 1usize..5, n in 1u64..6, epochs in 1u64..6, eta in 0.1f64..1.0
    ) {
        let s = Schedule::cyclic(3 * n, n, epochs, 1, eta, 1.1).unwrap();
        let hess = DMatrix::<f64>::identity(d, d) * h;
        let m = GaussianInstance::worst(&s, &hess, 0.9).unwrap();
        let want = scalar_mu(&s, &h, &0.9);
        prop_assert!((m.mu() - want).abs() <= 1e-10 * want.max(1e-300));
        // any unit direction gives the same μ in the isotropic case
        let v = DVector::from_fn(d, |i, _| i as f64 + 1.0).normalize() * 0.9;
        let g = GaussianInstance::with_direction(&s, &hess, &v).unwrap();
        prop_assert!((g.mu() - want).abs() <= 1e-10 * want.max(1e-300));
    }

    #[test]
    fn mixture_with_inclusion_probability_one_is_the_gaussian_instance(
        h in 0.0f64..0.8, t in 1usize..200, b in 1u64..5, eps in 0.0f64..3.0
    ) {
        let (eta, sigma, l) = (0.5, 1.3, 0.8);
        let inst = MixtureInstance::sgd(b, b, t, eta, sigma, l, h, PairKind::OneSided, 1e-12).unwrap();
        let s = Schedule::full(b, t, eta, sigma).unwrap();
        let g = GaussianInstance::from_mu(scalar_mu(&s, &h, &l)).unwrap();
        for o in Order::BOTH {
            let dm = inst.delta(eps, o).unwrap();
            let dg = g.delta(eps, o).unwrap();
            prop_assert!((dm.value - dg.value).abs() <= dm.error + dg.error + 1e-12,
                "{o:?}: {dm:?} vs {dg:?}");
            let tm = inst.tradeoff(0.1, o).unwrap();
            let tg = g.tradeoff(0.1, o).unwrap();
            prop_assert!((tm.value - tg.value).abs() <= 1e-9);
        }
        let r = inst.renyi(3.0, Order::Forward).unwrap();
        let rg = g.renyi(3.0, Order::Forward).unwrap();
        prop_assert!((r.value - rg.value).abs() <= 1e-8 * (1.0 + rg.value) + r.error);
    }

    #[test]
    fn mixture_delta_is_a_privacy_profile(
        n in 5u64..100, b in 1u64..5, t in 1usize..120, h in 0.0f64..0.05, opposite in any::<bool>()
    ) {
        let kind = if opposite { PairKind::Opposite } else { PairKind::OneSided };
        let inst = MixtureInstance::sgd(n, b, t, 1.0, 1.0, 1.0, h, kind, 1e-8).unwrap();
        for o in Order::BOTH {
            let mut prev = 1.0f64;
            for i in 0..30 {
                let eps = i as f64 * 0.2;
                let d = inst.delta(eps, o).unwrap();
                prop_assert!((0.0..=1.0).contains(&d.value));
                prop_assert!(d.value <= prev + 1e-12, "not monotone at {eps}");
                prev = d.value;
            }
            // tradeoff laws: ≤ 1 − α, non-increasing, convex
            let pts: Vec<f64> = (0..=20).map(|i| inst.tradeoff(i as f64 / 20.0, o).unwrap().value).collect();
            for i in 0..pts.len() {
                prop_assert!(pts[i] <= 1.0 - i as f64 / 20.0 + 1e-12);
                if i > 0 { prop_assert!(pts[i] <= pts[i - 1] + 1e-12); }
                if i > 1 { prop_assert!(pts[i - 2] - 2.0 * pts[i - 1] + pts[i] >= -1e-9); }
            }
        }
        if opposite {
            // the opposite pair is symmetric under x ↦ −x: both orders agree
            let a = inst.delta(0.7, Order::Forward).unwrap().value;
            let c = inst.delta(0.7, Order::Reverse).unwrap().value;
            prop_assert!((a - c).abs() < 1e-10);
        }
    }

    #[test]
    fn cyclic_worst_position_is_the_last_batch(h in 0.01f64..1.0, epochs in 1u64..5) {
        let mus: Vec<f64> = (0..4)
            .map(|k| scalar_mu(&Schedule::cyclic(8, 2, epochs, k, 0.5, 1.0).unwrap(), &h, &1.0))
            .collect();
        for w in mus.windows(2) {
            prop_assert!(w[1] > w[0]);
        }
    }
}

#[test]
fn mixture_epsilon_inverts_delta() {
    let inst =
        MixtureInstance::sgd(100, 10, 500, 1.0, 1.0, 1.0, 0.0, PairKind::OneSided, 1e-10).unwrap();
    let e = inst.epsilon_sym(1e-5).unwrap();
    let d = inst.delta_sym(e.value).unwrap();
    assert!((d.value - 1e-5).abs() < 1e-9, "{e:?} {d:?}");
    let d2 = inst.delta_sym(e.value * 0.99).unwrap();
    assert!(d2.value > 1e-5);
}

#[test]
fn subsampled_gaussian_composition_dominates_one_step_instance() {
    // one SGD step is exactly the pair (N(0,1), (1−p)N(0,1) + pN(μ,1)); C_p(G(μ)) is
    // the symmetrized tradeoff of that pair (BSA24 Def 4.7): it must dominate, tightly
    let (p, mu) = (0.3, 1.5);
    let inst =
        MixtureInstance::sgd(10, 3, 1, 1.0, 1.0 / mu, 3.0, 0.0, PairKind::OneSided, 1e-12).unwrap();
    let f = shiftdp::tradeoff::SubsampledGaussian::new(p, mu).unwrap();
    let rep = validate(
        &BoundSpec::Tradeoff {
            f: Box::new(f),
            symmetric: true,
        },
        &inst,
        &[0.0, 0.5, 1.0, 2.0],
        &[],
    )
    .unwrap();
    assert!(
        rep.holds(),
        "{:?}",
        rep.checks
            .iter()
            .filter(|c| c.status == Status::Violated)
            .collect::<Vec<_>>()
    );
    // and the one-sided instance attains C_p(G(μ)) at its fixed point order-wise
    let at = inst.tradeoff(0.2, Order::Forward).unwrap().value;
    assert!((at - f.f_p(0.2)).abs() < 1e-9, "{at} vs {}", f.f_p(0.2));
}

/// The tightness ratio of a GDP bound against a Gaussian instance is μ_bound/μ_instance
/// even when δ(ε) rounds to 1 in f64 (μ ≳ 16), where recovering μ from δ saturates.
#[test]
fn gdp_tightness_is_exact_for_large_mu() {
    let grid = [0.0, 0.5, 1.0, 4.0];
    for mu in [0.5, 3.0, 20.0, 60.0] {
        let inst = GaussianInstance::from_mu(mu).unwrap();
        let rep = validate(&BoundSpec::Gdp { mu: 1.25 * mu }, &inst, &grid, &[2.0]).unwrap();
        let t = rep.tightness.unwrap();
        assert!((t - 1.25).abs() < 1e-9, "μ = {mu}: tightness {t}");
    }
}
