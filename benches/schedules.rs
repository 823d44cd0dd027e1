//! Criterion benchmarks of the schedule solvers: KKT at t = 10⁶ (f64, target < 100 ms)
//! and argmin's L-BFGS at t = 10⁴.
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use shiftdp::schedules::ScheduleProblem;
use shiftdp::schedules::builders::{CyclicOrder, noisy_cgd};
use shiftdp::schedules::kkt::solve_kkt;
use shiftdp::schedules::numeric::{NumericOptions, solve_numeric};

fn kkt_million(c: &mut Criterion) {
    let mut g = c.benchmark_group("kkt");
    g.sample_size(10);
    for &contr in &[0.9, 0.999_999] {
        let p = ScheduleProblem::constant(1_000_000, contr, 1.0, 1.0, None).unwrap();
        g.bench_function(format!("gd t=1e6 c={contr}"), |b| {
            b.iter(|| solve_kkt(black_box(&p), 0).unwrap().mu2)
        });
    }
    let p = noisy_cgd(
        400,
        10,
        1.0,
        1.0,
        1.0,
        1_000_000,
        0.9999,
        CyclicOrder::Fixed(39),
        None,
    )
    .unwrap();
    g.bench_function("cgd t=1e6 l=40 c=0.9999", |b| {
        b.iter(|| solve_kkt(black_box(&p), 0).unwrap().mu2)
    });
    g.finish();
}

fn argmin_ten_thousand(c: &mut Criterion) {
    let mut g = c.benchmark_group("argmin");
    g.sample_size(10);
    let p = ScheduleProblem::constant(10_000, 0.999, 1.0, 1.0, None).unwrap();
    g.bench_function("gd t=1e4 c=0.999", |b| {
        b.iter(|| {
            solve_numeric(black_box(&p), 0, NumericOptions::default())
                .unwrap()
                .mu2
        })
    });
    g.finish();
}

criterion_group!(benches, kkt_million, argmin_ten_thousand);
criterion_main!(benches);
