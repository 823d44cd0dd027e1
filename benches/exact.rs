//! Benchmarks of the exact-instance engines (the target: a t = 1000 mixture instance's
//! δ(ε) curve with stated error ≤ 1e-6, under 1 s).
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use nalgebra::DMatrix;
use shiftdp::exact::{GaussianInstance, Instance, MixtureInstance, Order, Schedule};

#[path = "../tests/common/exact_bench.rs"]
mod exact_bench;

/// δ(ε) on 50 points of ε ∈ [0, 5], both orders; panics if the stated error exceeds 1e-6.
fn delta_curve(inst: &MixtureInstance) -> f64 {
    let mut worst: f64 = 0.0;
    for i in 0..50 {
        let eps = i as f64 * 0.1;
        for o in Order::BOTH {
            let d = inst.delta(eps, o).expect("delta");
            assert!(d.error <= 1e-6, "stated error {} at ε = {eps}", d.error);
            worst = worst.max(d.value);
        }
    }
    worst
}

fn bench(c: &mut Criterion) {
    for (name, h) in [
        (
            "mixture linear t=1000 p=0.01: build + δ curve (50 ε × 2 orders)",
            0.0,
        ),
        (
            "mixture quadratic c=0.99 t=1000 p=0.01: build + δ curve",
            0.01,
        ),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| black_box(delta_curve(&exact_bench::sgd_t1000(h))))
        });
    }
    c.bench_function("gaussian scalar path t=1000 (f64)", |b| {
        let s = Schedule::full(1, 1000, 1.0, 1.0).expect("schedule");
        b.iter(|| black_box(shiftdp::exact::gaussian::scalar_mu(&s, &0.01, &0.1)))
    });
    c.bench_function("gaussian matrix path d=10 t=1000", |b| {
        let s = Schedule::full(1, 1000, 0.5, 1.0).expect("schedule");
        let h = DMatrix::from_fn(
            10,
            10,
            |i, j| if i == j { 0.1 + 0.1 * i as f64 } else { 0.01 },
        );
        b.iter(|| black_box(GaussianInstance::worst(&s, &h, 1.0).expect("instance").mu()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
