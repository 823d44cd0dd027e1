//! A process-wide cache of forward FFT plans, and the inverse transform by
//! conjugation: the twiddle tables of a length-`M` transform are computed once per
//! process (as FFTW's "wisdom"), not once per composition, and only for one direction.
//!
//! Planning a 2²⁰-point transform costs about as much as running it, and a query is
//! composed several times (the planner's probe, both orders of a Poisson pair, and
//! every call of a long-running Python session). The cache holds the last
//! [`CAPACITY`] lengths (the oldest is dropped), so its memory stays bounded by a few
//! tables of the largest length in use.
//!
//! # Formula
//! The unnormalized inverse DFT is the conjugate of the forward DFT of the conjugate:
//! `Σ_j Z_j ω^{−jr} = conj(Σ_j conj(Z_j) ω^{jr})` (`ω = e^{−2πi/M}`). Conjugation is
//! exact in floating point, so the inverse computed this way carries exactly the
//! round-off of one forward transform (the same algorithm with conjugate twiddles, and
//! the twiddles of a rustfft plan are `sin`/`cos` of the same angles in both
//! directions), and Percival's bound applies unchanged.
//!
//! # Soundness
//! A plan is a pure function of the length and direction, so a cached plan computes
//! exactly what a fresh one computes: the round-off bounds of the engines (Percival's
//! bound on the transform) do not depend on where the plan came from.
use rustfft::num_complex::Complex;
use rustfft::{Fft, FftPlanner};
use std::sync::{Arc, Mutex, OnceLock};

/// Lengths kept.
pub const CAPACITY: usize = 6;

/// A forward plan.
pub type Plan = Arc<dyn Fft<f64>>;

/// One slot a length: planned once, by the first thread that asks for it; a thread
/// asking for the same length meanwhile waits for that plan instead of planning it a
/// second time (both orders of a Poisson pair ask at once).
type Slot = Arc<OnceLock<Plan>>;

/// Plans by length, the last [`CAPACITY`] lengths asked for.
struct Plans(Mutex<Vec<(usize, Slot)>>);

impl Plans {
    /// The forward plan of length `m`, from the cache or planned now. Planning runs
    /// outside the lock, so two threads planning different lengths do not wait for each
    /// other.
    fn forward(&self, m: usize) -> Plan {
        let plan_now = || FftPlanner::new().plan_fft_forward(m);
        // a poisoned lock (a panic elsewhere while holding it) only loses the caching
        let Ok(mut cache) = self.0.lock() else {
            return plan_now();
        };
        let slot = match cache.iter().find(|(n, _)| *n == m) {
            Some((_, s)) => s.clone(),
            None => {
                if cache.len() >= CAPACITY {
                    cache.remove(0);
                }
                let s = Slot::default();
                cache.push((m, s.clone()));
                s
            }
        };
        drop(cache);
        slot.get_or_init(plan_now).clone()
    }
}

static CACHE: Plans = Plans(Mutex::new(Vec::new()));

/// The forward plan of length `m`, from the process's cache or planned now.
///
/// # Example
/// ```
/// let fwd = shiftdp::composition::fft_plans::forward(8);
/// assert_eq!(fwd.len(), 8);
/// let again = shiftdp::composition::fft_plans::forward(8);
/// assert!(std::sync::Arc::ptr_eq(&fwd, &again));
/// ```
pub fn forward(m: usize) -> Plan {
    CACHE.forward(m)
}

/// A scratch buffer for in-place transforms by `plan` (its content is irrelevant: the
/// transform overwrites it).
pub fn scratch(plan: &Plan) -> Vec<Complex<f64>> {
    vec![Complex::new(0.0, 0.0); plan.get_inplace_scratch_len()]
}

/// The unnormalized inverse DFT of `x` in place, `x_r ← Σ_j x_j e^{2πijr/M}`, as
/// `conj(FFT(conj(x)))` with the forward `plan` of length `x.len()` (see the module
/// doc: the round-off is that of one forward transform).
pub fn inverse_in_place(plan: &Plan, x: &mut [Complex<f64>], scratch: &mut [Complex<f64>]) {
    for v in x.iter_mut() {
        v.im = -v.im;
    }
    plan.process_with_scratch(x, scratch);
    for v in x.iter_mut() {
        v.im = -v.im;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signal(m: usize) -> Vec<Complex<f64>> {
        (0..m)
            .map(|i| Complex::new((i as f64 * 0.37).sin(), (i as f64 * 0.11).cos()))
            .collect()
    }

    /// A cached plan transforms like a fresh one (bit for bit: same algorithm, same
    /// twiddles), and the cache keeps at most CAPACITY lengths.
    #[test]
    fn cached_plan_equals_fresh_plan_and_capacity_holds() {
        let m = 1 << 10;
        let x = signal(m);
        let mut a = x.clone();
        forward(m).process(&mut a);
        let mut b = x.clone();
        let p = forward(m);
        p.process_with_scratch(&mut b, &mut scratch(&p));
        let mut c = x;
        FftPlanner::new().plan_fft_forward(m).process(&mut c);
        assert_eq!(a, b);
        assert_eq!(a, c);
        for e in 2..(3 + CAPACITY) {
            forward(1 << e);
        }
        assert!(CACHE.0.lock().unwrap().len() <= CAPACITY);
    }

    /// Threads asking for one length at once share one plan (it is planned once).
    #[test]
    fn concurrent_requests_share_one_plan() {
        let (m, cache) = (3 << 9, Plans(Mutex::new(Vec::new())));
        let plans: Vec<Plan> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4).map(|_| s.spawn(|| cache.forward(m))).collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(plans.iter().all(|p| Arc::ptr_eq(p, &plans[0])));
    }

    /// The inverse by conjugation is rustfft's inverse transform, bit for bit, at the
    /// power-of-two lengths the engines use (rustfft's inverse plans use the conjugate
    /// twiddles of the forward ones), and within round-off of the definition at a small
    /// length.
    #[test]
    fn inverse_by_conjugation_is_the_inverse_transform() {
        for e in [3u32, 10, 16] {
            let m = 1usize << e;
            let x = signal(m);
            let mut a = x.clone();
            let p = forward(m);
            inverse_in_place(&p, &mut a, &mut scratch(&p));
            let mut b = x.clone();
            FftPlanner::new().plan_fft_inverse(m).process(&mut b);
            assert_eq!(a, b, "length {m}");
            if m == 8 {
                for (r, ar) in a.iter().enumerate() {
                    let mut s = Complex::new(0.0, 0.0);
                    for (j, xj) in x.iter().enumerate() {
                        let ang = std::f64::consts::TAU * (j * r) as f64 / m as f64;
                        s += xj * Complex::new(ang.cos(), ang.sin());
                    }
                    assert!((s - ar).norm() < 1e-12, "r = {r}: {s} vs {ar}");
                }
            }
        }
    }
}
