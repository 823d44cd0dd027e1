//! Benchmarks of the precision layer: ε(δ) of G(μ) (f64 path and 256-bit MPFR) and
//! the certified Φ⁻¹ at several precisions. Targets (issue 2): ε(δ) < 5 µs at f64,
//! < 300 µs at 256 bits; issue 15: a decimal μ (an enclosure one ulp wide)
//! as fast as a binary one.
use criterion::{Criterion, criterion_group, criterion_main};
use shiftdp::precision::{Enclosure, Precision, special};
use shiftdp::tradeoff::Gaussian;
use std::hint::black_box;

fn epsilon(c: &mut Criterion) {
    let mu = Enclosure::from_f64(64, 1.0);
    let d = Enclosure::parse(64, "1e-5").unwrap();
    c.bench_function("epsilon_gdp_f64_mu1_delta1e-5", |b| {
        b.iter(|| Gaussian::epsilon(black_box(&mu), black_box(&d), Precision::F64).unwrap())
    });
    let mu256 = Enclosure::from_f64(256, 1.0);
    let d256 = Enclosure::parse(256, "1e-5").unwrap();
    c.bench_function("epsilon_gdp_256bit_mu1_delta1e-5", |b| {
        b.iter(|| {
            Gaussian::epsilon(black_box(&mu256), black_box(&d256), Precision::Bits(256)).unwrap()
        })
    });
    // issue 15: a decimal μ is an enclosure [lo, hi] one ulp wide (0.9925 is not a binary
    // number); the binary μ = 0.9921875 = 127/128 beside it is a point
    let mu_dec = Enclosure::parse(256, "0.9925").unwrap();
    let mu_bin = Enclosure::parse(256, "0.9921875").unwrap();
    c.bench_function("epsilon_gdp_256bit_mu0.9925_decimal_delta1e-5", |b| {
        b.iter(|| {
            Gaussian::epsilon(black_box(&mu_dec), black_box(&d256), Precision::Bits(256)).unwrap()
        })
    });
    c.bench_function("epsilon_gdp_256bit_mu0.9921875_binary_delta1e-5", |b| {
        b.iter(|| {
            Gaussian::epsilon(black_box(&mu_bin), black_box(&d256), Precision::Bits(256)).unwrap()
        })
    });
    let d100 = Enclosure::parse(256, "1e-100").unwrap();
    c.bench_function("epsilon_gdp_256bit_mu1_delta1e-100", |b| {
        b.iter(|| {
            Gaussian::epsilon(black_box(&mu256), black_box(&d100), Precision::Bits(256)).unwrap()
        })
    });
}

fn quantile(c: &mut Criterion) {
    c.bench_function("phi_inv_f64", |b| {
        b.iter(|| special::phi_inv(black_box(1e-7)))
    });
    for bits in [64u32, 256, 1024] {
        let p = Enclosure::parse(bits, "1e-7").unwrap();
        c.bench_function(&format!("phi_inv_certified_{bits}bit"), |b| {
            b.iter(|| special::phi_inv_enclosure(black_box(&p)).unwrap())
        });
    }
}

criterion_group!(benches, epsilon, quantile);
criterion_main!(benches);
