//! The exact instance that `benches/exact.rs` times and `tests/perf_equivalence.rs`
//! checks (both include this file by `#[path]`).
use shiftdp::exact::{MixtureInstance, PairKind};

/// NoisySGD on a 1-D quadratic with curvature `h` (`h = 0`: linear loss): n = 1000
/// records, batch b = 10 (p = 0.01), t = 1000 steps, η = σ = L = 1, the one-sided pair,
/// per-side TV budget 1e-10.
pub fn sgd_t1000(h: f64) -> MixtureInstance {
    MixtureInstance::sgd(1000, 10, 1000, 1.0, 1.0, 1.0, h, PairKind::OneSided, 1e-10)
        .expect("instance")
}
