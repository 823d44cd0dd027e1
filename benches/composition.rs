//! Criterion benchmarks of the certified composition: issue 8's C_0.025(G(2/3))^{⊗8000} at
//! δ = 1e-5 (width ≤ 1e-3; at the default grid, and through `Composition::answer`
//! with tolerance 1e-3), and issue 15's Poisson-subsampled Gaussian at the scale of
//! training runs (q = 0.01, σ = 1.1, δ = 1e-5): T = 10⁵ to width 1e-3 and T = 10⁶ to
//! width 1e-2 through `Composition::answer` (the grid planner included), and the
//! one-shot engine against repeated squaring on the same grid; the mechanisms of
//! `composition::mechanism` at 10⁴ steps beside the Poisson Gaussian at the same
//! tolerance (the mixture-of-Gaussians form of the same pair, a 3-segment mixture
//! schedule, the Poisson-subsampled Laplace mechanism). The bench binary uses
//! the system allocator (the `shiftdp` binary and the Python extension use mimalloc).
use criterion::{Criterion, criterion_group, criterion_main};
use shiftdp::composition::{Component, Composition, Engine, Target};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let comp = Composition::new()
        .with(Component::subsampled(0.025, 2.0 / 3.0).unwrap(), 8000)
        .unwrap();
    // sanity: the benchmarked configuration meets the width goal
    let r = comp.compose_for_delta(1e-5, None).unwrap();
    let e = r.epsilon(1e-5).unwrap();
    assert!(e.width() <= 1e-3, "width {}", e.width());
    eprintln!(
        "C_0.025(G(2/3))^8000, δ=1e-5: ε ∈ [{}, {}]",
        e.lower, e.upper
    );
    let mut g = c.benchmark_group("composition");
    g.sample_size(10);
    g.bench_function("cp_8000_delta_1e-5", |b| {
        b.iter(|| {
            let r = black_box(&comp).compose_for_delta(1e-5, None).unwrap();
            black_box(r.epsilon(1e-5).unwrap())
        })
    });
    g.bench_function("cp_8000_answer_width1e-3", |b| {
        b.iter(|| {
            black_box(&comp)
                .answer(Target::Delta(1e-5), 1e-3, None)
                .unwrap()
        })
    });
    let poisson = |t: u64| {
        Composition::new()
            .with(Component::poisson(0.01, 1.0 / 1.1).unwrap(), t)
            .unwrap()
    };
    for (t, tol) in [(100_000u64, 1e-3), (1_000_000, 1e-2)] {
        let c = poisson(t);
        let a = c.answer(Target::Delta(1e-5), tol, None).unwrap();
        assert!(a.width <= tol, "width {}", a.width);
        eprintln!(
            "Poisson T={t}: ε ∈ [{}, {}]",
            a.interval.lower, a.interval.upper
        );
        g.bench_function(format!("poisson_q0.01_sigma1.1_T{t}_width{tol:e}"), |b| {
            b.iter(|| {
                black_box(&c)
                    .answer(Target::Delta(1e-5), tol, None)
                    .unwrap()
            })
        });
    }
    for engine in [Engine::OneShot, Engine::RepeatedSquaring] {
        let c = poisson(10_000).with_engine(engine);
        g.bench_function(format!("poisson_T10000_grid13_{engine:?}"), |b| {
            b.iter(|| {
                let r = black_box(&c)
                    .compose(Target::Delta(1e-5), Some(13))
                    .unwrap();
                black_box(r.epsilon(1e-5).unwrap())
            })
        });
    }
    // the mechanisms at 10⁴ steps, tolerance 1e-3 (the Poisson Gaussian beside them)
    use shiftdp::composition::mechanism::{Laplace, MixtureOfGaussians, PoissonSampled};
    use std::sync::Arc;
    let mog = |s: f64, c: Vec<f64>, p: Vec<f64>| {
        Component::mechanism(MixtureOfGaussians::new(s, c, p).unwrap())
    };
    let jobs: Vec<(&str, Composition)> = vec![
        ("mech_poisson_gaussian_T10000", poisson(10_000)),
        (
            "mech_mixture_form_T10000",
            Composition::new()
                .with(mog(1.1, vec![0.0, 1.0], vec![0.99, 0.01]), 10_000)
                .unwrap(),
        ),
        (
            "mech_mixture_3_segments_T10000",
            Composition::new()
                .with(mog(2.0, vec![0.0, 1.0, 2.0], vec![0.9, 0.08, 0.02]), 4000)
                .unwrap()
                .with(mog(2.5, vec![0.0, 1.0, 2.0], vec![0.9, 0.08, 0.02]), 3000)
                .unwrap()
                .with(
                    mog(3.0, vec![0.0, 1.0, 2.0, 3.0], vec![0.85, 0.1, 0.04, 0.01]),
                    3000,
                )
                .unwrap(),
        ),
        (
            "mech_poisson_laplace_T10000",
            Composition::new()
                .with(
                    Component::mechanism(
                        PoissonSampled::new(0.01, Arc::new(Laplace::new(1.1, 1.0).unwrap()))
                            .unwrap(),
                    ),
                    10_000,
                )
                .unwrap(),
        ),
    ];
    for (name, c) in jobs {
        let a = c.answer(Target::Delta(1e-5), 1e-3, None).unwrap();
        eprintln!(
            "{name}: ε ∈ [{}, {}], width {:e}",
            a.interval.lower, a.interval.upper, a.width
        );
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(&c)
                    .answer(Target::Delta(1e-5), 1e-3, None)
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
