//! The mechanisms of `composition::mechanism` composed by the certified engine, each
//! against an independent computation written from the mathematics: closed forms for
//! one step, exact convolutions of atoms for a few steps, the Gaussian closed form for
//! mixtures that are Gaussians, the specialized Poisson-Gaussian discretization for the
//! generic subsampling combinator, and dp_accounting's published test values.
use shiftdp::composition::mechanism::{
    DiscreteLaplace, Laplace, Mechanism, MixtureOfGaussians, PoissonSampled, RandomizedResponse,
};
use shiftdp::composition::{Component, Composition, Interval, Target};
use std::sync::Arc;

mod common;
use common::{assert_encloses, assert_overlap, composed};

fn comp(parts: &[(Component, u64)]) -> Composition {
    parts.iter().fold(Composition::new(), |c, (m, k)| {
        c.with(m.clone(), *k).unwrap()
    })
}

fn delta_at(c: &Composition, eps: f64) -> Interval {
    c.answer(Target::Epsilon(eps), 1e-3, None).unwrap().interval
}

fn eps_at(c: &Composition, delta: f64) -> Interval {
    c.answer(Target::Delta(delta), 1e-3, None).unwrap().interval
}

/// `δ(ε) = Σ q (1 − e^{ε − ℓ})₊` of a list of atoms `(ℓ, q)` (exact in f64 up to rounding).
fn delta_of_atoms(atoms: &[(f64, f64)], inf: f64, eps: f64) -> f64 {
    inf + atoms
        .iter()
        .map(|(l, q)| q * (1.0 - (eps - l).exp()).max(0.0))
        .sum::<f64>()
}

/// The atoms `(ℓ, Q-mass)` of the k-fold convolution of an atom list (merging equal
/// losses by integer keys `ℓ/unit`).
fn convolve(atoms: &[(i64, f64, f64)], k: usize, unit: f64) -> Vec<(f64, f64)> {
    use std::collections::BTreeMap;
    let mut cur: BTreeMap<i64, f64> = BTreeMap::from([(0, 1.0)]);
    for _ in 0..k {
        let mut next = BTreeMap::new();
        for (l, q) in &cur {
            for (a, qa, _) in atoms {
                *next.entry(l + a).or_insert(0.0) += q * qa;
            }
        }
        cur = next;
    }
    cur.into_iter().map(|(l, q)| (l as f64 * unit, q)).collect()
}

#[test]
fn laplace_one_step_is_the_closed_form() {
    for (b, d, eps) in [
        (1.0, 1.3, 0.4),
        (0.5, 1.0, 1.0),
        (2.0, 0.3, 0.05),
        (1.0, 1.0, 0.0),
    ] {
        let r: f64 = d / b;
        let truth = 1.0 - ((eps - r) / 2.0).exp();
        let c = composed(Component::mechanism(Laplace::new(b, d).unwrap()), 1);
        let iv = delta_at(&c, eps);
        assert_encloses(iv, truth, 1e-15, "Laplace δ(ε)");
        assert!(iv.upper - iv.lower < 1e-3 * truth.max(1e-3), "{iv:?}");
    }
}

#[test]
fn laplace_composition_is_pure_dp_at_its_total() {
    // dp_accounting's test_laplace_basic: b = 1 × 3 then b = 2 × 2 is (4, 0)-DP
    let c = comp(&[
        (Component::mechanism(Laplace::new(1.0, 1.0).unwrap()), 3),
        (Component::mechanism(Laplace::new(2.0, 1.0).unwrap()), 2),
    ]);
    let iv = delta_at(&c, 4.0);
    assert!(iv.lower == 0.0 && iv.upper < 1e-12, "{iv:?}");
    for d in [1e-3, 1e-8, 1e-14, 1e-30] {
        let e = eps_at(&c, d);
        assert!(e.upper <= 4.0 + 1e-9 && e.lower <= e.upper, "δ {d}: {e:?}");
    }
}

#[test]
fn randomized_response_matches_its_atoms() {
    for (p, k, eps) in [
        (0.5, 2u64, 0.3),
        (0.2, 5, 1.0),
        (4.0 / (3.0 + 1f64.exp()), 4, 0.5),
    ] {
        let u = p / k as f64;
        let s = 1.0 - p + u;
        let l = (s / u).ln();
        let atoms = [(l, s), (-l, u), (0.0, (k as f64 - 2.0) * u)];
        let truth = delta_of_atoms(&atoms, 0.0, eps);
        let c = composed(
            Component::mechanism(RandomizedResponse::new(p, k).unwrap()),
            1,
        );
        assert_encloses(delta_at(&c, eps), truth, 1e-15, "RR δ(ε)");
        // ε(δ) of one step: at δ = 0 the pure ε = ln(s/u)
        let e = eps_at(&c, 1e-30);
        assert!(e.upper >= l - 1e-12, "{e:?} below {l}");
    }
}

#[test]
fn discrete_laplace_three_fold_is_the_exact_convolution() {
    let (a, d) = (0.8f64, 3u64);
    // atoms in units of a: losses a·(2x − Δ) for 0 < x < Δ, ±aΔ at the ends
    let t = (a / 2.0).tanh();
    let side = 1.0 / (1.0 + (-a).exp());
    let far = side * (-a * d as f64).exp();
    let mut atoms = vec![(-(d as i64), far, side), (d as i64, side, far)];
    for x in 1..d {
        atoms.push((
            2 * x as i64 - d as i64,
            t * (-a * (d - x) as f64).exp(),
            t * (-a * x as f64).exp(),
        ));
    }
    let total: f64 = atoms.iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-14);
    let k = 3;
    let conv = convolve(&atoms, k, a);
    let c = composed(
        Component::mechanism(DiscreteLaplace::new(a, d).unwrap()),
        k as u64,
    );
    for eps in [0.5, 2.0, 4.0, 7.0] {
        let truth = delta_of_atoms(&conv, 0.0, eps);
        let iv = delta_at(&c, eps);
        assert_encloses(iv, truth, 1e-14, "discrete Laplace δ(ε)");
    }
}

/// δ(ε) of `G(μ)`: `Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)` (DRS22 Cor 2.13), in MPFR.
fn gdp_delta(mu: f64, eps: f64) -> f64 {
    use rug::Float;
    let p = 200;
    let phi = |x: Float| -> Float {
        let s = Float::with_val(p, -x) / Float::with_val(p, 2.0).sqrt();
        s.erfc() / 2
    };
    let m = Float::with_val(p, mu);
    let e = Float::with_val(p, eps);
    let r = Float::with_val(p, &e / &m);
    let h = Float::with_val(p, &m / 2);
    let a = phi(Float::with_val(p, &h - &r));
    let b = phi(Float::with_val(p, -Float::with_val(p, &r + &h)));
    (a - Float::with_val(p, e.exp()) * b).to_f64()
}

#[test]
fn a_one_term_mixture_is_the_gaussian() {
    // MoG(σ, [c], [1]) = G(c/σ); 16 steps compose to G(4c/σ)
    let m = MixtureOfGaussians::new(2.0, vec![1.0], vec![1.0]).unwrap();
    let c = composed(Component::mechanism(m), 16);
    for eps in [0.5, 1.0, 3.0] {
        let truth = gdp_delta(2.0, eps);
        let iv = delta_at(&c, eps);
        assert_encloses(iv, truth, 0.0, "MoG G(μ) δ(ε)");
        assert!(iv.upper - iv.lower <= 2e-3 * truth, "{iv:?}");
    }
}

#[test]
fn generic_subsampling_agrees_with_the_specialized_poisson_gaussian() {
    // PoissonSampled(MoG([1], [1])) and MoG([0, 1], [1 − q, q]) against the engine's
    // own Poisson-subsampled Gaussian discretization: three independent routes
    let (q, mu, k) = (0.05, 1.0, 200u64);
    let g = MixtureOfGaussians::new(1.0, vec![mu], vec![1.0]).unwrap();
    let sampled = PoissonSampled::new(q, Arc::new(g)).unwrap();
    let mix = MixtureOfGaussians::new(1.0, vec![0.0, mu], vec![1.0 - q, q]).unwrap();
    let routes = [
        composed(Component::poisson(q, mu).unwrap(), k),
        composed(Component::mechanism(sampled), k),
        composed(Component::mechanism(mix), k),
    ];
    for d in [1e-5, 1e-10] {
        let ivs: Vec<Interval> = routes.iter().map(|c| eps_at(c, d)).collect();
        let lo = ivs.iter().map(|i| i.lower).fold(f64::MIN, f64::max);
        let hi = ivs.iter().map(|i| i.upper).fold(f64::MAX, f64::min);
        assert!(lo <= hi, "δ {d}: disjoint {ivs:?}");
    }
}

#[test]
fn dp_accounting_published_values() {
    // pld_privacy_accountant_test.py test_poisson_subsampled_laplace: PoissonSampled(0.2,
    // Laplace(0.5)) × 3, ε(1e-14) ≈ 2.46964 (dp_accounting, discretization 1e-4)
    let m = PoissonSampled::new(0.2, Arc::new(Laplace::new(0.5, 1.0).unwrap())).unwrap();
    let c = composed(Component::mechanism(m), 3);
    let iv = eps_at(&c, 1e-14);
    assert_encloses(iv, 2.46964, 2e-3, "subsampled Laplace");
    // test_mixture_of_gaussians_basic: ε(1e-6) ≈ 17.193115
    let a = MixtureOfGaussians::new(1.0, vec![0.0, 1.0, 2.0], vec![0.2, 0.6, 0.2]).unwrap();
    let b = MixtureOfGaussians::new(2.0, vec![0.0, 2.0, 3.0], vec![0.33, 0.34, 0.33]).unwrap();
    let c = comp(&[(Component::mechanism(a), 3), (Component::mechanism(b), 2)]);
    let iv = eps_at(&c, 1e-6);
    assert_encloses(iv, 17.193115, 2e-3, "mixture of Gaussians");
}

#[test]
fn tiny_delta_is_answered() {
    let parts: Vec<Component> = vec![
        Component::mechanism(Laplace::new(2.0, 1.0).unwrap()),
        Component::mechanism(RandomizedResponse::new(0.6, 3).unwrap()),
        Component::mechanism(DiscreteLaplace::new(0.5, 2).unwrap()),
        Component::mechanism(MixtureOfGaussians::new(1.0, vec![0.0, 1.0], vec![0.9, 0.1]).unwrap()),
        Component::mechanism(
            PoissonSampled::new(0.1, Arc::new(Laplace::new(1.0, 1.0).unwrap())).unwrap(),
        ),
    ];
    for m in parts {
        let c = composed(m.clone(), 50);
        let iv = eps_at(&c, 1e-20);
        assert!(
            iv.upper.is_finite() && iv.lower <= iv.upper,
            "{}: {iv:?}",
            m.name()
        );
    }
}

#[test]
fn bad_parameters_name_the_parameter() {
    let name = |e: shiftdp::Error| format!("{e}");
    assert!(name(Laplace::new(0.0, 1.0).unwrap_err()).contains('b'));
    assert!(name(Laplace::new(f64::NAN, 1.0).unwrap_err()).contains('b'));
    assert!(name(Laplace::new(1.0, -1.0).unwrap_err()).contains("sensitivity"));
    assert!(name(RandomizedResponse::new(0.5, 1).unwrap_err()).contains("buckets"));
    assert!(name(RandomizedResponse::new(f64::NAN, 3).unwrap_err()).contains("noise_parameter"));
    assert!(name(DiscreteLaplace::new(-1.0, 1).unwrap_err()).contains('a'));
    assert!(name(DiscreteLaplace::new(1.0, 0).unwrap_err()).contains("sensitivity"));
    let e = MixtureOfGaussians::new(1.0, vec![0.0, 1.0], vec![0.5, 0.6]).unwrap_err();
    assert!(name(e).contains("probabilities"));
    let e = MixtureOfGaussians::new(1.0, vec![0.0, 1.0], vec![0.5]).unwrap_err();
    assert!(name(e).contains("sensitivities"));
    let e = MixtureOfGaussians::new(0.0, vec![1.0], vec![1.0]).unwrap_err();
    assert!(name(e).contains("sigma"));
    let base: Arc<dyn Mechanism> = Arc::new(Laplace::new(1.0, 1.0).unwrap());
    assert!(name(PoissonSampled::new(1.5, base).unwrap_err()).contains('p'));
}

#[test]
fn dp_accounting_truncated_subsampled_gaussian() {
    use shiftdp::composition::mechanism::truncated_subsampled_gaussian;
    // pld_privacy_accountant_test.py test_truncated_subsampled_gaussian_basic:
    // TSG(n = 4, q = 0.5, B = 2, σ = 1) × 3 then TSG(n = 3, …) × 2, ε(1e-6) ≈ 17.904330
    let a = truncated_subsampled_gaussian(4, 0.5, 2, 1.0)
        .unwrap()
        .unwrap();
    let b = truncated_subsampled_gaussian(3, 0.5, 2, 1.0)
        .unwrap()
        .unwrap();
    let c = Composition::new()
        .with(Component::shared(a), 3)
        .unwrap()
        .with(Component::shared(b), 2)
        .unwrap();
    let iv = eps_at(&c, 1e-6);
    assert_encloses(iv, 17.904330, 2e-3, "truncated subsampled Gaussian");
    // no truncation possible (B ≥ n): the Poisson-subsampled Gaussian itself
    let t = truncated_subsampled_gaussian(10, 0.1, 10, 1.0)
        .unwrap()
        .unwrap();
    let x = eps_at(&composed(Component::shared(t), 20), 1e-6);
    let y = eps_at(&composed(Component::poisson(0.1, 1.0).unwrap(), 20), 1e-6);
    assert!(x.lower <= y.upper && y.lower <= x.upper, "{x:?} {y:?}");
    assert!(
        truncated_subsampled_gaussian(10, 0.0, 3, 1.0)
            .unwrap()
            .is_none()
    );
}

#[test]
fn replace_one_subsampled_pair_is_symmetric_and_below_its_gaussian() {
    // q = 1: the pair (N(−μ), N(μ)) is G(2μ) exactly
    let m = MixtureOfGaussians::replace_subsampled(1.0, 0.5).unwrap();
    assert!(m.is_symmetric());
    let c = composed(Component::mechanism(m), 4);
    for eps in [0.5, 2.0] {
        assert_encloses(
            delta_at(&c, eps),
            gdp_delta(2.0, eps),
            0.0,
            "replace pair q = 1",
        );
    }
    // q < 1: more private than G(2μ)
    let m = MixtureOfGaussians::replace_subsampled(0.3, 0.5).unwrap();
    let c = composed(Component::mechanism(m), 4);
    assert!(delta_at(&c, 1.0).lower <= gdp_delta(2.0, 1.0));
}

/// Atoms between grid points are moved onto them by a per-component loss shift (the
/// composition read at `ε + Σ kᵢ sᵢ`): 50 randomized responses, whose PLD is the exact
/// trinomial convolution, are enclosed within the tolerance, and the Poisson-subsampled
/// Laplace mechanism at 10⁴ steps meets it too.
#[test]
fn shifted_atoms_are_exact_and_tight() {
    let (p, k_buckets, k) = (0.6f64, 3u64, 50usize);
    let u = p / k_buckets as f64;
    let s = 1.0 - p + u;
    let l = (s / u).ln();
    let atoms = [
        (1i64, s, u),
        (-1, u, s),
        (
            0,
            (k_buckets as f64 - 2.0) * u,
            (k_buckets as f64 - 2.0) * u,
        ),
    ];
    let conv = convolve(&atoms, k, l);
    let c = composed(
        Component::mechanism(RandomizedResponse::new(p, k_buckets).unwrap()),
        k as u64,
    );
    for eps in [10.0, 30.0, 44.0] {
        let truth = delta_of_atoms(&conv, 0.0, eps);
        let iv = c.answer(Target::Epsilon(eps), 1e-3, None).unwrap().interval;
        assert_encloses(iv, truth, 1e-15, "RR × 50 δ(ε)");
        assert!(
            iv.upper - iv.lower <= 2e-3 * truth,
            "ε = {eps}: {iv:?} (truth {truth})"
        );
    }
    let m = PoissonSampled::new(0.01, Arc::new(Laplace::new(1.1, 1.0).unwrap())).unwrap();
    let a = composed(Component::mechanism(m), 10_000)
        .answer(Target::Delta(1e-5), 1e-3, None)
        .unwrap();
    assert!(a.width <= 1e-3, "{:?} width {}", a.interval, a.width);
}

/// Atoms off every dyadic grid (randomized response with `ε₀ = ln((1 − p + p/2)/(p/2))`
/// irrational) on the planner's lattice step: 10⁴ steps against the exact binomial law
/// of the composed loss (`(2i − k)ε₀` with Q-mass `C(k, i) sⁱ u^{k−i}`, in log-gamma
/// form), enclosed and narrow at the default tolerance (a ladder step rounds the second
/// atom down by up to `h` per step on the optimistic side: about 1e-2 wide here).
#[test]
fn lattice_steps_hold_irregular_atoms_exactly() {
    use statrs::function::gamma::ln_gamma;
    let (p, k) = (0.9f64, 10_000u64);
    let u = p / 2.0;
    let s = 1.0 - p + u;
    let l = (s / u).ln();
    let kf = k as f64;
    let binomial: Vec<(f64, f64)> = (0..=k)
        .map(|i| {
            let i = i as f64;
            let lq = ln_gamma(kf + 1.0) - ln_gamma(i + 1.0) - ln_gamma(kf - i + 1.0)
                + i * s.ln()
                + (kf - i) * u.ln();
            ((2.0 * i - kf) * l, lq.exp())
        })
        .collect();
    let c = composed(
        Component::mechanism(RandomizedResponse::new(p, 2).unwrap()),
        k,
    );
    for eps in [150.0, 250.0, 300.0] {
        let truth = delta_of_atoms(&binomial, 0.0, eps);
        let iv = delta_at(&c, eps);
        assert_encloses(iv, truth, 1e-9 * truth, "RR × 10⁴ δ(ε)");
        assert!(
            iv.upper - iv.lower <= 1e-3 * truth,
            "ε = {eps}: {iv:?} (truth {truth})"
        );
    }
}

/// Laplace with `Δ/b = 0.05` (off every dyadic grid) composed 10⁴ times: the lattice
/// step's interval is narrow and overlaps the interval of a power-of-two grid (an
/// independent discretization, which rounds the second atom), and both lie below the
/// pure-DP bound `10⁴·Δ/b`.
#[test]
fn laplace_off_the_dyadic_grid_is_narrow_and_consistent() {
    let c = composed(
        Component::mechanism(Laplace::new(20.0, 1.0).unwrap()),
        10_000,
    );
    let a = c.answer(Target::Delta(1e-5), 1e-4, None).unwrap();
    assert!(a.width <= 1e-4, "{:?} width {}", a.interval, a.width);
    let b = c
        .answer(Target::Delta(1e-5), 1e-4, Some(13))
        .unwrap()
        .interval;
    assert_overlap(&a.interval, &b);
    assert!(a.interval.upper <= 500.0);
}

/// A public mixture's privacy-loss distribution is the mixture of its parts', so one
/// step has `δ(ε) = Σ wᵢ δᵢ(ε)`: a Laplace part (`δ = 1 − e^{(ε − Δ/b)/2}` below `Δ/b`)
/// and a Gaussian part (`G(1)` in closed form), each discretized its own way.
#[test]
fn public_mixture_is_the_mixture_of_its_parts() {
    use shiftdp::composition::mechanism::{GaussianFamily, PublicMixture};
    for w in [0.25f64, 1e-6] {
        let parts: Vec<((f64, f64), Arc<dyn Mechanism>)> = vec![
            ((w, w), Arc::new(Laplace::new(1.0, 1.0).unwrap())),
            (
                (1.0 - w, 1.0 - w),
                Arc::new(GaussianFamily::gaussian(1.0).unwrap()),
            ),
        ];
        let m = PublicMixture::new("mix".into(), parts).unwrap();
        let c = composed(Component::mechanism(m), 1);
        for eps in [0.3f64, 0.9, 2.0] {
            let lap = (1.0 - ((eps - 1.0) / 2.0).exp()).max(0.0);
            let truth = w * lap + (1.0 - w) * gdp_delta(1.0, eps);
            let iv = delta_at(&c, eps);
            assert_encloses(iv, truth, 0.0, "public mixture δ(ε)");
            assert!(iv.upper - iv.lower <= 2e-3 * truth, "w {w} ε {eps}: {iv:?}");
        }
    }
}

/// A rare part with a heavy tail (the truncated batch's replace-one pair, of weight
/// about 1e-6) must not stretch the one-shot window to where the Chernoff tilt's
/// tilted mass reaches: the planner takes a smaller tilt, and the plan stays within
/// twice the points of the Poisson-subsampled Gaussian it perturbs.
#[test]
fn a_rare_heavy_part_keeps_the_window_short() {
    use shiftdp::composition::answer::Method;
    use shiftdp::composition::mechanism::truncated_subsampled_gaussian;
    let points = |c: &Composition| -> (usize, Interval) {
        let a = c.answer(Target::Delta(1e-5), 1e-3, None).unwrap();
        let Method::Pld { composed, .. } = &a.method else {
            panic!("not the PLD engine");
        };
        (
            composed.info.iter().map(|i| i.points).max().unwrap(),
            a.interval,
        )
    };
    let t = truncated_subsampled_gaussian(10_000, 0.01, 150, 1.1)
        .unwrap()
        .unwrap();
    let (pt, it) = points(&composed(Component::shared(t), 10_000));
    let (pg, ig) = points(&composed(
        Component::poisson(0.01, 1.0 / 1.1).unwrap(),
        10_000,
    ));
    assert!(pt <= 2 * pg, "{pt} points against {pg}");
    // truncation only adds the replace-one part: never more private
    assert!(
        it.upper >= ig.lower,
        "[{}, {}] vs [{}, {}]",
        it.lower,
        it.upper,
        ig.lower,
        ig.upper
    );
}
