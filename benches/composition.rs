//! Criterion benchmark of issue 8: C_0.025(G(2/3))^{⊗8000} at δ = 1e-5 with a certified
//! ε interval of width ≤ 1e-3 (grid h = 2^-11 chosen by default).
use criterion::{Criterion, criterion_group, criterion_main};
use shiftdp::composition::{Component, Composition};
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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
