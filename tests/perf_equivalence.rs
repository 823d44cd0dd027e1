//! Equivalence and soundness tests of the performance work (branch `perf`): the fast
//! paths must agree with independent slow computations within their stated errors.
#![allow(clippy::type_complexity)]
use rug::Float;
use shiftdp::exact::{Instance, MixtureInstance, Order, PairKind, ShiftLaw};

/// Upper tail `P(N(0, 1) > z)` through MPFR's erfc at 80 bits (independent of the
/// crate's f64 erfc).
fn tail(z: f64) -> f64 {
    let x = Float::with_val(80, z) / Float::with_val(80, 2).sqrt();
    (x.erfc() / 2u32).to_f64()
}

/// The NoisySGD increments `a_k` and variance `v` (SPEC §2, as in `MixtureInstance::sgd`).
fn sgd_law_inputs(t: usize, eta: f64, sigma: f64, l: f64, b: f64, h: f64) -> (Vec<f64>, f64) {
    let mut a = vec![0.0; t];
    let mut var = 0.0;
    let mut w = 1.0;
    for k in (0..t).rev() {
        a[k] = eta * l / b * w;
        var += (eta * sigma * w).powi(2);
        w *= 1.0 - eta * h;
    }
    (a, var)
}

/// δ(ε) of the pair built from `law` by plain bisection on the public `log_lr` (200
/// halvings) and tails summed directly from the atoms: the pre-Newton algorithm,
/// re-implemented on the public API.
fn delta_by_bisection(
    inst: &MixtureInstance,
    law: &ShiftLaw,
    kind: PairKind,
    eps: f64,
    order: Order,
) -> f64 {
    let v = inst.variance();
    let sd = v.sqrt();
    let ee = eps.exp();
    // components (mean, weight) of P and Q
    let (p, q): (Vec<(f64, f64)>, Vec<(f64, f64)>) = match kind {
        PairKind::OneSided => (vec![(0.0, 1.0)], law.atoms().to_vec()),
        PairKind::Opposite => (
            law.atoms().iter().map(|&(m, w)| (-0.5 * m, w)).collect(),
            law.atoms().iter().map(|&(m, w)| (0.5 * m, w)).collect(),
        ),
    };
    let upper =
        |c: &[(f64, f64)], x: f64| -> f64 { c.iter().map(|&(m, w)| w * tail((x - m) / sd)).sum() };
    let lower =
        |c: &[(f64, f64)], x: f64| -> f64 { c.iter().map(|&(m, w)| w * tail((m - x) / sd)).sum() };
    let target = match order {
        Order::Reverse => eps,
        Order::Forward => -eps,
    };
    let (mut lo, mut hi) = (-1e5 * (1.0 + sd), 1e5 * (1.0 + sd));
    if inst.log_lr(lo) > target || inst.log_lr(hi) < target {
        return (1.0 - ee).max(0.0);
    }
    for _ in 0..200 {
        let m = 0.5 * (lo + hi);
        if inst.log_lr(m) < target {
            lo = m;
        } else {
            hi = m;
        }
    }
    let tau = 0.5 * (lo + hi);
    let d = match order {
        Order::Reverse => upper(&q, tau) - ee * upper(&p, tau),
        Order::Forward => lower(&p, tau) - ee * lower(&q, tau),
    };
    d.clamp(0.0, 1.0)
}

fn eps_grid() -> impl Iterator<Item = f64> {
    (0..=12).map(|i| i as f64 * 0.25)
}

/// The Newton threshold gives the same δ(ε) as independent bisection (to 1e-12), on
/// exact (t ≤ 16) and grid laws, linear and quadratic losses, both pair kinds.
#[test]
fn newton_threshold_matches_bisection() {
    let cases = [
        (12usize, 0.3, 0.0, PairKind::OneSided),
        (12, 0.3, 0.2, PairKind::Opposite),
        (200, 0.05, 0.01, PairKind::OneSided),
        (200, 0.05, 0.01, PairKind::Opposite),
        (60, 0.5, 0.05, PairKind::OneSided),
    ];
    for (t, p, h, kind) in cases {
        let (a, var) = sgd_law_inputs(t, 1.0, 0.8, 1.0, 2.0, h);
        let law = ShiftLaw::from_increments(&a, p, var, 1e-11).unwrap();
        let inst = MixtureInstance::new(&law, var, kind).unwrap();
        for eps in [0.0, 0.3, 1.0, 2.5] {
            for o in Order::BOTH {
                let d = inst.delta(eps, o).unwrap();
                let want = delta_by_bisection(&inst, &law, kind, eps, o);
                assert!(
                    (d.value - want).abs() <= 1e-12,
                    "t={t} p={p} h={h} {kind:?} {o:?} ε={eps}: {} vs bisection {want}",
                    d.value
                );
                assert!(d.error >= 0.0 && d.error < 1e-7, "stated error {}", d.error);
            }
        }
    }
}

/// The benchmark instance (t = 1000, quadratic, c = 0.99) states an error ≤ 1e-6 and
/// agrees with bisection.
#[test]
fn bench_instance_error_and_values() {
    let (a, var) = sgd_law_inputs(1000, 1.0, 1.0, 1.0, 10.0, 0.01);
    let law = ShiftLaw::from_increments(&a, 0.01, var, 1e-10).unwrap();
    let inst = MixtureInstance::new(&law, var, PairKind::OneSided).unwrap();
    let via_sgd = MixtureInstance::sgd(
        1000,
        10,
        1000,
        1.0,
        1.0,
        1.0,
        0.01,
        PairKind::OneSided,
        1e-10,
    )
    .unwrap();
    for eps in [0.0, 0.05, 0.5, 4.9] {
        for o in Order::BOTH {
            let d = via_sgd.delta(eps, o).unwrap();
            assert!(d.error <= 1e-6, "ε={eps} {o:?}: stated error {}", d.error);
            let want = delta_by_bisection(&inst, &law, PairKind::OneSided, eps, o);
            assert!((d.value - want).abs() <= 1e-12, "ε={eps} {o:?}");
        }
    }
}

/// A grid law with a loose TV budget stays within its stated error of the exact law:
/// increments taking two incommensurable values `a₁` (t₁ times) and `a₂` (t₂ times)
/// have the exact law `a₁·Bin(t₁, p) + a₂·Bin(t₂, p)`, enumerated here.
#[test]
fn grid_law_within_stated_error_of_exact_law() {
    let (t1, t2, p, var) = (30usize, 30usize, 0.2f64, 1.0f64);
    let (a1, a2) = (0.3, 0.3 * std::f64::consts::SQRT_2);
    let binom = |t: usize| -> Vec<f64> {
        let mut w = vec![0.0; t + 1];
        let mut c = 1.0f64;
        for (j, wj) in w.iter_mut().enumerate() {
            *wj = c * p.powi(j as i32) * (1.0 - p).powi((t - j) as i32);
            c = c * (t - j) as f64 / (j + 1) as f64;
        }
        w
    };
    let (b1, b2) = (binom(t1), binom(t2));
    let mut atoms = Vec::new();
    for (i, w1) in b1.iter().enumerate() {
        for (j, w2) in b2.iter().enumerate() {
            atoms.push((a1 * i as f64 + a2 * j as f64, w1 * w2));
        }
    }
    let exact = ShiftLaw::from_atoms(atoms).unwrap();
    let mut inc = vec![a1; t1];
    inc.extend(std::iter::repeat_n(a2, t2));
    for tv_target in [1e-4, 1e-3] {
        let grid = ShiftLaw::from_increments(&inc, p, var, tv_target).unwrap();
        assert!(!grid.is_exact());
        for kind in [PairKind::OneSided, PairKind::Opposite] {
            let ie = MixtureInstance::new(&exact, var, kind).unwrap();
            let ig = MixtureInstance::new(&grid, var, kind).unwrap();
            for eps in eps_grid() {
                for o in Order::BOTH {
                    let de = ie.delta(eps, o).unwrap();
                    let dg = ig.delta(eps, o).unwrap();
                    assert!(
                        (de.value - dg.value).abs() <= de.error + dg.error,
                        "{kind:?} {o:?} ε={eps}: exact {} ± {:e}, grid {} ± {:e}",
                        de.value,
                        de.error,
                        dg.value,
                        dg.error
                    );
                    // the stated error is informative, not vacuous
                    assert!(dg.error < 0.2, "stated error {}", dg.error);
                }
            }
        }
    }
}
