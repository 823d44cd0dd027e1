//! Equivalence and soundness tests of the performance work (branch `perf`): the fast
//! paths must agree with independent slow computations within their stated errors.
#![allow(clippy::type_complexity)]
use rug::Float;
use rug::float::Round;
use shiftdp::exact::{Instance, MixtureInstance, Order, PairKind, ShiftLaw};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::tradeoff::Gaussian;

#[path = "common/exact_bench.rs"]
mod exact_bench;

/// Upper tail `P(N(0, 1) > z)` through MPFR's erfc at 80 bits (independent of the
/// crate's f64 erfc).
fn tail(z: f64) -> f64 {
    let x = Float::with_val(80, z) / Float::with_val(80, 2).sqrt();
    (x.erfc() / 2u32).to_f64()
}

/// The NoisySGD increments `a_k` and variance `v` (docs/conventions.md §2, as in
/// `MixtureInstance::sgd`).
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

/// Mixture components `(mean, weight)`.
type Atoms = Vec<(f64, f64)>;

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
    let (p, q): (Atoms, Atoms) = match kind {
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
    let via_sgd = exact_bench::sgd_t1000(0.01);
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

/// `δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)` (DRS22 Cor 1) straight from MPFR at
/// `prec` bits (round to nearest; the error is far below the gaps tested).
fn delta_mpfr(mu: &Float, eps: &Float, prec: u32) -> Float {
    let phi = |x: Float| -> Float {
        let y = Float::with_val(prec, -x) / Float::with_val(prec, 2).sqrt();
        y.erfc() / 2u32
    };
    let r = Float::with_val(prec, eps / mu);
    let h = Float::with_val(prec, mu / 2u32);
    let a = phi(Float::with_val(prec, &h - &r));
    let b = phi(Float::with_val(prec, -(Float::with_val(prec, &r + &h))));
    a - Float::with_val(prec, eps.exp_ref()) * b
}

/// The certified ε(δ) of G(μ) (one-evaluation Taylor certificate on the MPFR path):
/// `δ(ε_hi) ≤ δ_lo` and `δ(ε_lo) ≥ δ_hi` checked at 1200 bits, and the bracket is
/// tight (relative width ≤ 2^{−bits+8}).
#[test]
fn mpfr_epsilon_bracket_is_certified_at_1200_bits() {
    for bits in [128u32, 256, 512] {
        for mu in [0.3, 1.0, 3.0, 8.0] {
            for ds in ["1e-3", "1e-5", "1e-10", "1e-50"] {
                let m = Enclosure::from_f64(bits, mu);
                let d = Enclosure::parse(bits, ds).unwrap();
                let c = Gaussian::epsilon(&m, &d, Precision::Bits(bits)).unwrap();
                let muf = Float::with_val(64, mu);
                if !c.upper().is_zero() {
                    let dh = delta_mpfr(&muf, c.upper(), 1200);
                    assert!(
                        dh <= *d.lo(),
                        "bits {bits} μ {mu} δ {ds}: δ(ε_hi) = {dh} > δ"
                    );
                    let dl = delta_mpfr(&muf, c.lower(), 1200);
                    assert!(
                        dl >= *d.hi(),
                        "bits {bits} μ {mu} δ {ds}: δ(ε_lo) = {dl} < δ"
                    );
                    assert!(
                        c.rel_width() <= 2f64.powi(-(bits as i32) + 8),
                        "bits {bits} μ {mu} δ {ds}: width {:e}",
                        c.rel_width()
                    );
                }
            }
        }
    }
}

/// The in-place erfc series and continued fraction enclose MPFR's correctly rounded
/// erfc (directed roundings at prec + 200 bits) for point and interval arguments.
#[test]
fn enclosure_erfc_contains_mpfr() {
    for prec in [53u32, 100, 200, 296, 500] {
        for i in 0..60 {
            let x = 0.05 + i as f64 * 0.37 + (i * i) as f64 * 0.004;
            let check = |e: &Enclosure, lo: &Float, hi: &Float| {
                let hp = prec + 200;
                let down = {
                    let mut y = Float::with_val(hp, hi);
                    y.erfc_round(Round::Down);
                    y
                };
                let up = {
                    let mut y = Float::with_val(hp, lo);
                    y.erfc_round(Round::Up);
                    y
                };
                assert!(
                    *e.lo() <= down && up <= *e.hi(),
                    "prec {prec} x {x}: {e:?} vs [{down}, {up}]"
                );
            };
            let pt = Enclosure::from_f64(prec, x);
            let e = pt.erfc();
            check(&e, pt.lo(), pt.hi());
            assert!(
                e.rel_width() < 2f64.powi(-(prec as i32) + 6),
                "prec {prec} x {x}"
            );
            let lo = Float::with_val(prec, x);
            let hi = Float::with_val_round(prec, x * (1.0 + 1e-9), Round::Up).0;
            let iv = Enclosure::new(lo.clone(), hi.clone()).unwrap();
            check(&iv.erfc(), &lo, &hi);
        }
    }
}
