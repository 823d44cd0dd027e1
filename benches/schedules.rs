//! Criterion benchmarks of the schedule solvers: KKT at t = 10⁶ (f64, target < 100 ms),
//! argmin's L-BFGS at t = 10⁴, and (issue 15) the streaming path of `schedule` — the
//! problem kept as runs, KKT solve and 64-bit certificate — at t = 10⁵, 10⁶, 10⁷, with
//! c = 0.999999 (every step has a non-negligible weight: the full O(t) work) and c = 0.9
//! (all but the last ~800 steps are negligible and end at an exact fixed point).
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

fn streaming(c: &mut Criterion) {
    use shiftdp::precision::Enclosure;
    use shiftdp::schedules::kkt::solve_kkt_runs;
    use shiftdp::schedules::runs::{RunProblem, WorkBudget};
    let mut g = c.benchmark_group("runs");
    g.sample_size(10);
    for &contr in &["0.999999", "0.9"] {
        for &t in &[100_000usize, 1_000_000, 10_000_000] {
            let e = |x: &str| Enclosure::parse(64, x).unwrap();
            let p = RunProblem::constant(t, e(contr), e("1"), e("1"), None).unwrap();
            g.bench_function(
                format!("gd solve+certify t=1e{} c={contr}", t.ilog10()),
                |b| {
                    b.iter(|| {
                        let q = p.to_mid_f64();
                        let mut budget = WorkBudget::new(t);
                        let sol = solve_kkt_runs(black_box(&q), 0, &mut budget).unwrap();
                        p.certify_kkt(&q, &sol, 64, &mut budget).unwrap().mu_upper
                    })
                },
            );
        }
    }
    g.finish();
}

criterion_group!(benches, kkt_million, argmin_ten_thousand, streaming);
criterion_main!(benches);
