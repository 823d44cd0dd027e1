//! A process-wide cache of FFT plans: the twiddle tables of a length-`M` transform
//! are computed once per process (as FFTW's "wisdom"), not once per composition.
//!
//! Planning a 2²⁰-point transform costs about as much as running it, and a query is
//! composed several times (the planner's probe, both orders of a Poisson pair, and
//! every call of a long-running Python session). The cache holds the last
//! [`CAPACITY`] lengths (the oldest is dropped), so its memory stays bounded by a few
//! tables of the largest length in use.
//!
//! # Soundness
//! A plan is a pure function of the length and direction, so a cached plan computes
//! exactly what a fresh one computes: the round-off bounds of the engines (Percival's
//! bound on the transform) do not depend on where the plan came from.
use rustfft::{Fft, FftPlanner};
use std::sync::{Arc, Mutex};

/// Lengths kept.
pub const CAPACITY: usize = 6;

/// A forward and an inverse plan of one length.
pub type Pair = (Arc<dyn Fft<f64>>, Arc<dyn Fft<f64>>);

static CACHE: Mutex<Vec<(usize, Pair)>> = Mutex::new(Vec::new());

/// The forward and inverse plans of length `m`, from the cache or planned now (outside
/// the lock, so two threads planning different lengths do not wait for each other).
///
/// # Example
/// ```
/// let (fwd, inv) = shiftdp::composition::fft_plans::plans(8);
/// assert_eq!((fwd.len(), inv.len()), (8, 8));
/// let again = shiftdp::composition::fft_plans::plans(8);
/// assert!(std::sync::Arc::ptr_eq(&fwd, &again.0));
/// ```
pub fn plans(m: usize) -> Pair {
    if let Ok(cache) = CACHE.lock()
        && let Some((_, p)) = cache.iter().find(|(n, _)| *n == m)
    {
        return p.clone();
    }
    let mut planner = FftPlanner::new();
    let pair: Pair = (planner.plan_fft_forward(m), planner.plan_fft_inverse(m));
    // a poisoned lock (a panic elsewhere while holding it) only loses the caching
    if let Ok(mut cache) = CACHE.lock()
        && !cache.iter().any(|(n, _)| *n == m)
    {
        if cache.len() >= CAPACITY {
            cache.remove(0);
        }
        cache.push((m, pair.clone()));
    }
    pair
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustfft::num_complex::Complex;

    /// A cached plan transforms like a fresh one (bit for bit: same algorithm, same
    /// twiddles), and the cache keeps at most CAPACITY lengths.
    #[test]
    fn cached_plan_equals_fresh_plan_and_capacity_holds() {
        let m = 1 << 10;
        let x: Vec<Complex<f64>> = (0..m)
            .map(|i| Complex::new((i as f64 * 0.37).sin(), (i as f64 * 0.11).cos()))
            .collect();
        let mut a = x.clone();
        plans(m).0.process(&mut a);
        let mut b = x.clone();
        plans(m).0.process(&mut b);
        let mut c = x;
        FftPlanner::new().plan_fft_forward(m).process(&mut c);
        assert_eq!(a, b);
        assert_eq!(a, c);
        for e in 2..(3 + CAPACITY) {
            plans(1 << e);
        }
        assert!(CACHE.lock().unwrap().len() <= CAPACITY);
    }
}
