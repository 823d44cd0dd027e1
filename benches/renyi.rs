//! Benchmarks of the Rényi-DP engines: the certified sampled Gaussian divergence and
//! the AT22 recipe (B.2) (noise-split search in f64, value certified).
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use shiftdp::renyi::at22::{RecipeBInputs, recipe_b_with};
use shiftdp::renyi::at22_theorems::QReading;
use shiftdp::renyi::sampled_gaussian::{SampledGaussian, SgmOrder};

fn bench(c: &mut Criterion) {
    let m = SampledGaussian::new(0.1, 1.0).expect("sgm");
    for bits in [64, 256] {
        let name = format!("sampled Gaussian D_α, α = 2.5, {bits} bits, both orders");
        c.bench_function(&name, |b| {
            b.iter(|| {
                for o in SgmOrder::BOTH {
                    black_box(m.divergence(o, black_box(2.5), bits).expect("divergence"));
                }
            })
        });
    }
    c.bench_function("AT22 (B.2), both-orders Q, one order α = 2, T = 14", |b| {
        b.iter(|| {
            black_box(
                recipe_b_with(
                    black_box(2.0),
                    &RecipeBInputs {
                        q: 1.0 / 7.0,
                        b_over_l: 1.0 / 0.879,
                        eta: 0.139,
                        sigma: 0.759,
                        t: 14,
                        d: 1.2,
                        c: None,
                    },
                    QReading::BothOrders,
                    64,
                )
                .expect("recipe"),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
