//! The FFT floor of a composition: the CPU time of one in-place forward transform of
//! each length given (plan and scratch made beforehand, as the engine's cache has them),
//! the median of several runs. The composition engine's floor for a job is two
//! transforms of its grid per order (the factors' forward transform and the inverse).
//!
//! Usage: `cargo run --release --example fft_floor -- 524288 8388608`
//! Prints one JSON object per length: `{"points": M, "cpu_s": …, "wall_s": …}`.
use rustfft::num_complex::Complex;
use shiftdp::composition::fft_plans;
use std::time::Instant;

/// CPU time of the process (user + system), seconds.
fn cpu_seconds() -> f64 {
    let mut ru = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a rusage struct into the pointer it is given
    let ru = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, ru.as_mut_ptr());
        ru.assume_init()
    };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    for arg in std::env::args().skip(1) {
        let Ok(m) = arg.parse::<usize>() else {
            eprintln!("not a length: {arg}");
            std::process::exit(2);
        };
        let plan = fft_plans::forward(m);
        let mut scratch = fft_plans::scratch(&plan);
        let mut x: Vec<Complex<f64>> = (0..m)
            .map(|i| Complex::new((i as f64 * 1e-3).sin(), 0.0))
            .collect();
        plan.process_with_scratch(&mut x, &mut scratch); // touch every page once
        let reps = (((1usize << 24) / m.max(1)).clamp(3, 25)) | 1;
        let (mut cpu, mut wall) = (vec![], vec![]);
        for _ in 0..reps {
            let (c0, w0) = (cpu_seconds(), Instant::now());
            plan.process_with_scratch(&mut x, &mut scratch);
            cpu.push(cpu_seconds() - c0);
            wall.push(w0.elapsed().as_secs_f64());
        }
        println!(
            "{{\"points\": {m}, \"cpu_s\": {:.6}, \"wall_s\": {:.6}}}",
            median(cpu),
            median(wall)
        );
    }
}
