//! One-shot composition: one forward FFT per distinct component, the product of powers
//! `∏ᵢ X̂ᵢ^{kᵢ}` in the Fourier domain, and one inverse FFT — with certified bounds on
//! the round-off of every step and on the aliasing of the cyclic convolution.
//!
//! Repeated squaring ([`Dist::power`]) needs `2⌈log₂ k⌉` zero-padded convolutions of
//! length `2n` for `k` steps; this needs two transforms of length `M = n` (the window
//! itself, a power of two) per order, whatever `k`. It is what makes 10⁶-step runs
//! affordable. The proof is `proofs/composition-one-shot.md`; the symbols
//! below are the ones used there.
//!
//! # Formula
//! Every factor is a side of a [`Dist`] on the same grid `t_r = (lo + r)h`,
//! `r = 0, …, M−1`, with the same tilt λ: tilted values `cᵢ` (rescaled here to
//! `Σ cᵢ = 1`, log scale `sᵢ`). The composition of `kᵢ` copies of every factor is the
//! linear convolution `c = ∗ᵢ cᵢ^{∗kᵢ}` with log scale `s = Σ kᵢ sᵢ`, supported on the
//! losses `N lo h + I h`, `N = Σ kᵢ`. Its DFT is `∏ᵢ Cᵢ^{kᵢ}`; the inverse DFT of length
//! `M` returns the *cyclic* sum `z_r = Σ_{I ≡ r − (N−1)lo (mod M)} c(I)`, i.e. the
//! window value plus the mass of `c` that lies above the window top `T = (lo + M)h` or
//! below its bottom `B = lo·h`, wrapped around.
//!
//! # Errors accounted for (all in ℓ¹, tilted units)
//! 1. **Forward FFT** (Percival's bound, `engine::percival`): `‖X̂ − X‖₂ ≤ √M ‖x‖₂ E`, plus
//!    `√M (errₐ + err_b)` for the factor's own ℓ¹ error; unpacking the two real
//!    sides from one complex transform adds `2u‖Â‖₂`. Call the total `eₐ`.
//! 2. **Powers**: `|Â^k − A^k| ≤ k R^{k−1} |Â − A|` with `R ≥ max(|Â_j|, |A_j|)`,
//!    `R = Σ cᵢ + errᵢ + eₐ` (`|A_j| ≤ ‖a‖₁`); over factors
//!    `‖∏Âᵢ^{kᵢ} − ∏Aᵢ^{kᵢ}‖₂ ≤ (∏ max(Rᵢ, 1)^{kᵢ}) Σ kᵢ eₐᵢ`.
//! 3. **Multiplication round-off**: each complex product has relative error
//!    `≤ γ = √5 u` (Brent, Percival, Zimmermann 2007; no FMA); a monomial of degree `N`
//!    computed by any sequence of products carries `≤ (1+γ)^{N−1} − 1` (induction on
//!    the degree), plus `N·2⁻¹⁰⁶⁰` absolute for the subnormal range. Frequencies whose
//!    certified magnitude bound `∏(|Âᵢ| + eₐᵢ)^{kᵢ}` is below `e^{−60}` are set to 0
//!    (error `≤ e^{−60}∏max(Rᵢ,1)^{kᵢ}` each).
//! 4. **Inverse FFT**: `‖ẑ − z‖₁ ≤ √M‖ẑ − z‖₂ ≤ ‖Ẑ‖₂ E + ‖Ẑ − Z‖₂` (the `1/M` scaling is
//!    exact).
//! 5. **Aliasing** (Chernoff): with `Wᵢ(θ) = ln Σ_r cᵢ,r e^{θ t_r}` (+ its ℓ¹ error at
//!    the extreme loss), the tilted mass of `c` at losses `≥ T` is at most
//!    `exp(Σ kᵢ Wᵢ(θ) − θT)` and below `B` at most `exp(Σ kᵢ Wᵢ(−θ) + θB)`, for every
//!    `θ > 0`. The *optimistic* side subtracts both (its wrapped copies are extra mass,
//!    each worth at most its own tilted mass at any window position above it, and at
//!    most `e^{λ(t_r − t)} ≤ …` — see the proof: the bound `‖alias‖₁` enters exactly as
//!    an ℓ¹ error). The *pessimistic* side keeps the wrapped copies (extra non-negative
//!    mass only raises δ), moves the true mass above `T` to `+∞`
//!    (`e^{s − λT}·exp(Σ kᵢWᵢ(θ) − θT)` untilted) and puts a bound on the true mass
//!    below `B` at the bottom point (`exp(Σ kᵢ Wᵢ(−θ′) + θ′B)` in tilted units,
//!    `θ′ ≥ λ`), so that δ(ε) stays an upper bound below the window too.
//! 6. **Masses at +∞**: pessimistic `Σ kᵢ mᵢ,∞` (union bound), optimistic
//!    `1 − ∏(1 − mᵢ,∞)^{kᵢ}` rounded down.
//!
//! # References
//! C. Percival, *Rapid multiplication modulo the sum and difference of highly
//! composite numbers*, Math. Comp. 72 (2003); R. Brent, C. Percival, P. Zimmermann,
//! *Error bounds on complex floating-point multiplication*, Math. Comp. 76 (2007);
//! A. Koskela, J. Jälkö, A. Honkela, *Computing tight differential privacy guarantees
//! using FFT*, AISTATS 2020 (one-shot exponentiation with aliasing bounds).
use super::engine::{Dist, Side, percival, renormalize};
use super::pld::{Grid, U};
use rayon::prelude::*;
use rustfft::num_complex::Complex;

type C64 = Complex<f64>;

/// Relative error of one complex multiplication (textbook formula, no FMA): `√5·u`
/// (Brent–Percival–Zimmermann), with `U` a little over 2⁻⁵³.
const GAMMA: f64 = 2.236_068 * U;
/// Frequencies certainly below `e^{LN_ZERO}` are set to 0. Over all `M` frequencies
/// that adds at most `√M·e^{−60}·∏max(Rᵢ,1)^{kᵢ}` to the ℓ¹ error of the read-out in
/// tilted units, whose total mass is 1: below 1.5e−22 up to `M = 2²⁸` when the factor
/// `∏max(Rᵢ,1)^{kᵢ}` is near 1, far below the transforms' round-off. A higher
/// threshold keeps fewer survivors, which the direct sums and the powers visit.
const LN_ZERO: f64 = -60.0;
/// Absolute round-off of one multiplication in the subnormal range (2⁻¹⁰⁶⁰ > 8·2⁻¹⁰⁷⁴).
const UNDERFLOW: f64 = 1e-319;

/// A side rescaled to unit sum, with its support `[first, last]`.
struct Unit {
    c: Vec<f64>,
    ln_scale: f64,
    /// ℓ¹ error in the rescaled units (both kinds below).
    err: f64,
    /// The part of `err` that is an arbitrary ℓ¹ vector (the side's own error).
    err_abs: f64,
    /// The part that is relative to each value (the rescaling's round-off).
    rel: f64,
    inf: f64,
    /// Upper bound on `Σ c`.
    sum_up: f64,
    first: usize,
    last: usize,
}

impl Unit {
    /// The side rescaled in place (its values are not needed afterwards).
    fn new(s: Side) -> Unit {
        let n = s.c.len();
        let sum: f64 = s.c.iter().sum();
        let first = s.c.iter().position(|&v| v > 0.0).unwrap_or(0);
        let last = s.c.iter().rposition(|&v| v > 0.0).unwrap_or(0);
        let mut c = s.c;
        if !(sum > 0.0 && sum.is_finite()) {
            c.fill(0.0);
            return Unit {
                c,
                ln_scale: s.ln_scale,
                err: s.err,
                err_abs: s.err,
                rel: 0.0,
                inf: s.inf,
                sum_up: 0.0,
                first,
                last,
            };
        }
        let inv = 1.0 / sum;
        // (the values outside [first, last] are 0 and stay 0: their pages, never
        // written, are not touched)
        c[first..=last].iter_mut().for_each(|v| *v *= inv);
        let ln_sum = sum.ln();
        // c′e^{s′} = c e^{s} up to the rounding of 1/Σ, of each product and of s + ln Σ
        // (|Δs′| ≤ 2U(|s| + |ln Σ|) + U|ln Σ|): relative ≤ 8U(1 + |s| + |ln Σ|)
        let rel = 8.0 * U * (1.0 + s.ln_scale.abs() + ln_sum.abs());
        // recursive summation: Σ c′ ≤ (1 + (n + 4)U)
        let sum_up = 1.0 + (n as f64 + 4.0) * U;
        Unit {
            c,
            ln_scale: s.ln_scale + ln_sum,
            err: s.err * inv * (1.0 + 4.0 * U) + rel * sum_up,
            err_abs: s.err * inv * (1.0 + 4.0 * U),
            rel,
            inf: s.inf,
            sum_up,
            first,
            last,
        }
    }

    /// The support `[first, last]` with `ln c` precomputed, for the aliasing bounds.
    fn support(&self) -> Support {
        let values = if self.sum_up > 0.0 && self.last >= self.first {
            &self.c[self.first..=self.last]
        } else {
            &[]
        };
        let lnc = values
            .iter()
            .map(|&v| if v > 0.0 { v.ln() } else { f64::NEG_INFINITY })
            .collect();
        let blocks = Support::blocks_of(values);
        Support {
            first: self.first,
            lnc,
            blocks,
            err: self.err_abs,
            rel: self.rel,
        }
    }
}

/// Points a block of [`Support::blocks`] summarizes.
const BLOCK_LEN: usize = 16;
/// How far (in the exponent) an aliasing bound certified at the block estimate's
/// minimizer may lie above the estimate's minimum before the certified search runs:
/// the bound kept is then at most `e^{0.1} ≈ 1.105` times the best any θ gives.
const ESTIMATE_SLACK: f64 = 0.1;

/// Relative size below which a term of [`Support::log_mgf_up`]'s sum is bounded instead
/// of computed: `e^{−60} ≈ 8.76e−27`, so that even 2²⁸ such terms change the sum (whose
/// largest term is 1) by less than 3e−18 relative.
const DROP: f64 = -60.0;
/// An upper bound on `e^{DROP + 0.005}` (= 8.80e−27), the most a dropped term can be:
/// its computed exponent is within `8U(750 + |θt| + |mx| + 1) < 0.005` of the true one.
const E_DROP: f64 = 8.81e-27;

/// The support of a [`Unit`] with `ln c` (what the aliasing bounds need).
struct Support {
    first: usize,
    lnc: Vec<f64>,
    /// Per block of [`BLOCK_LEN`] points: `(ln S_b, ī_b)`, the block's mass
    /// `S_b = Σ_{i∈b} c_i` and its mass-weighted mean index `ī_b = Σ c_i i / S_b`
    /// (relative to `first`); empty blocks are left out. f64 estimates, for the search
    /// of [`Support::log_mgf_estimate`] only.
    blocks: Vec<(f64, f64)>,
    /// Arbitrary ℓ¹ error (placed at the window end in the direction of θ).
    err: f64,
    /// Relative error of every value.
    rel: f64,
}

impl Support {
    /// The block summaries ([`Support::blocks`]) of the values `c` of the support.
    fn blocks_of(c: &[f64]) -> Vec<(f64, f64)> {
        c.chunks(BLOCK_LEN)
            .enumerate()
            .filter_map(|(b, ch)| {
                let (mut s, mut s1) = (0.0, 0.0);
                for (j, &v) in ch.iter().enumerate() {
                    s += v;
                    s1 += v * j as f64;
                }
                (s > 0.0).then(|| (s.ln(), (b * BLOCK_LEN) as f64 + s1 / s))
            })
            .collect()
    }

    /// An f64 estimate `W̃(θ)` of `W(θ)` ([`Support::log_mgf_up`]) from the block
    /// summaries: `ln(Σ_b S_b e^{θ t(ī_b)} + err·e^{θ t_ext})`. By Jensen's inequality
    /// (`Σ_{i∈b} c_i e^{θ t_i} ≥ S_b e^{θ t(ī_b)}`, exp convex) it lies below `W(θ)` up to
    /// its own rounding; by Hoeffding's lemma (a block's losses span at most
    /// `(BLOCK_LEN − 1)h`) it lies above `W(θ) − θ²((BLOCK_LEN − 1)h)²/8`. It costs one
    /// exponential a block instead of one a point.
    fn log_mgf_estimate(&self, g: &Grid, theta: f64) -> f64 {
        let t_ext = if theta >= 0.0 { g.top() } else { g.bottom() };
        let t0 = g.t(self.first);
        let term = |&(l, i): &(f64, f64)| l + theta * (t0 + i * g.h);
        let le = if self.err > 0.0 {
            self.err.ln() + theta * t_ext
        } else {
            f64::NEG_INFINITY
        };
        let mx = self.blocks.iter().map(term).fold(le, f64::max);
        if mx == f64::NEG_INFINITY {
            return f64::NEG_INFINITY;
        }
        let s: f64 = self
            .blocks
            .iter()
            .map(|b| (term(b) - mx).exp())
            .sum::<f64>()
            + (le - mx).exp();
        mx + s.ln()
    }

    /// Upper bound on `W(θ) = ln((1 + rel)Σ_r c_r e^{θ t_r} + err·e^{θ t_ext})`, `t_ext`
    /// the window end in the direction of θ (the arbitrary ℓ¹ error may sit anywhere).
    fn log_mgf_up(&self, g: &Grid, theta: f64) -> f64 {
        let t_ext = if theta >= 0.0 { g.top() } else { g.bottom() };
        let term = |i: usize, l: f64| l + theta * g.t(self.first + i);
        let mut mx = f64::NEG_INFINITY;
        for (i, &l) in self.lnc.iter().enumerate() {
            if l > f64::NEG_INFINITY {
                mx = mx.max(term(i, l));
            }
        }
        let le = if self.err > 0.0 {
            self.err.ln() + theta * t_ext
        } else {
            f64::NEG_INFINITY
        };
        mx = mx.max(le);
        if mx == f64::NEG_INFINITY {
            return f64::NEG_INFINITY;
        }
        // terms below e^{DROP} of the largest are not exponentiated: each is counted as
        // E_DROP ≥ e^{DROP}·(1 + 5e−3), room for the rounding of its exponent (below)
        let tmax = g.top().abs().max(g.bottom().abs());
        let drop_below = if 8.0 * U * (750.0 + (theta * tmax).abs() + mx.abs() + 1.0) < 5e-3 {
            DROP
        } else {
            f64::NEG_INFINITY
        };
        let mut s = 0.0;
        let mut dropped = 0usize;
        for (i, &l) in self.lnc.iter().enumerate() {
            if l > f64::NEG_INFINITY {
                let x = term(i, l) - mx;
                if x < drop_below {
                    dropped += 1;
                } else {
                    s += x.exp();
                }
            }
        }
        s += dropped as f64 * E_DROP;
        s *= 1.0 + self.rel;
        if le > f64::NEG_INFINITY {
            s += (le - mx).exp();
        }
        let terms = (self.lnc.len() + 1) as f64;
        // each term: ln c (|ln c| ≤ 750), θt, two subtractions and exp: relative
        // ≤ 8U(|ln c| + |θt| + |mx| + 1); the sum (terms)·U; the final ln and addition
        let margin = 8.0 * U * (750.0 + (theta * tmax).abs() + mx.abs() + 1.0)
            + 2.0 * terms * U
            + 4.0 * U * (mx.abs() + 1.0);
        mx + s.ln() + margin
    }
}

/// `z^k` by binary powering (`k ≥ 1`): every product is of two computed monomials.
fn cpow(z: C64, mut k: u64) -> C64 {
    let mut acc = C64::new(1.0, 0.0);
    let mut base = z;
    loop {
        if k & 1 == 1 {
            acc *= base;
        }
        k >>= 1;
        if k == 0 {
            return acc;
        }
        base = base * base;
    }
}

/// Full-spectrum ℓ² norm of a sparse half spectrum (values `z` at the frequencies
/// `idx`, every other value 0; `j = 0` and `j = M/2` once, others twice), rounded up.
fn sparse_half_norm(idx: &[usize], z: &[C64], m: usize) -> f64 {
    let s: f64 = idx
        .iter()
        .zip(z)
        .map(|(&j, v)| {
            let w = if j == 0 || j == m / 2 { 1.0 } else { 2.0 };
            w * v.norm_sqr()
        })
        .sum();
    (s * (1.0 + (2.0 * idx.len() as f64 + 8.0) * U)).sqrt() * (1.0 + 2.0 * U)
}

/// One of the two sides' running product in the Fourier domain, kept on its
/// surviving frequencies only: every other value has been set to 0 (its certified
/// magnitude bound fell below `e^{LN_ZERO}`), and a value set to 0 stays 0. At 10⁵
/// steps a few hundred of the `M/2 + 1` frequencies survive.
struct Acc {
    /// Half-spectrum length `M/2 + 1`.
    half: usize,
    /// No factor yet: every frequency alive, with value 1 and bound 0.
    fresh: bool,
    /// The surviving frequencies, increasing.
    idx: Vec<usize>,
    /// `∏ Âᵢ^{kᵢ}` at `idx`.
    z: Vec<C64>,
    /// Upper bound on `ln ∏(|Âᵢ| + eₐᵢ)^{kᵢ}` at `idx`.
    ln_bound: Vec<f64>,
    /// `Σ kᵢ eₐᵢ`.
    sens: f64,
    /// `Σ kᵢ ln max(Rᵢ, 1)`, rounded up.
    ln_rfac: f64,
    /// `Σ kᵢ sᵢ`.
    ln_scale: f64,
    /// Bound on `|Σ kᵢ sᵢ|` round-off.
    ln_scale_err: f64,
    /// Pessimistic `Σ kᵢ mᵢ,∞`.
    inf_union: f64,
    /// `Σ kᵢ ln(1 − mᵢ,∞)` (for the optimistic `1 − ∏(1 − mᵢ,∞)^{kᵢ}`).
    ln_keep: f64,
}

impl Acc {
    fn new(half: usize) -> Acc {
        Acc {
            half,
            fresh: true,
            idx: vec![],
            z: vec![],
            ln_bound: vec![],
            sens: 0.0,
            ln_rfac: 0.0,
            ln_scale: 0.0,
            ln_scale_err: 0.0,
            inf_union: 0.0,
            ln_keep: 0.0,
        }
    }

    /// Updates the magnitude bounds with one factor (`|Â_j| + e` per frequency, `k`
    /// copies, `Â_j = value(j)`), sets the frequencies certainly below `e^{LN_ZERO}` to
    /// 0 (drops them), and leaves the others (the survivors) in `idx`.
    fn prune(&mut self, value: impl Fn(usize) -> C64, e: f64, k: u64) {
        let kf = k as f64;
        // a frequency with no bound yet (ln_bound = 0) is zeroed when |Â| + e is below
        // e^{LN_ZERO/k}; testing |Â|² against a slightly smaller threshold first saves a
        // logarithm per frequency (the test below decides, the fast path only skips)
        let fast = (LN_ZERO / kf).exp() * (1.0 - 1e-6) - e;
        let fast2 = if fast > 0.0 { fast * fast } else { -1.0 };
        let step = |aj: C64, bound: f64| -> Option<f64> {
            if bound == 0.0 && aj.norm_sqr() * (1.0 + 16.0 * U) < fast2 {
                // |Â| + e < e^{LN_ZERO/k}(1 − 1e−6): ln bound < LN_ZERO with room for
                // the margins of the exact test
                return None;
            }
            let m = aj.norm() * (1.0 + 4.0 * U) + e;
            let lm = m.ln();
            let lm = lm + 4.0 * U * (lm.abs() + 1.0);
            let b = bound + kf * lm * (1.0 + 4.0 * U) + 4.0 * U;
            (b >= LN_ZERO).then_some(b)
        };
        if self.fresh {
            self.fresh = false;
            for j in 0..self.half {
                if let Some(b) = step(value(j), 0.0) {
                    self.idx.push(j);
                    self.z.push(C64::new(1.0, 0.0));
                    self.ln_bound.push(b);
                }
            }
        } else {
            let mut w = 0;
            for i in 0..self.idx.len() {
                let j = self.idx[i];
                if let Some(b) = step(value(j), self.ln_bound[i]) {
                    self.idx[w] = j;
                    self.z[w] = self.z[i];
                    self.ln_bound[w] = b;
                    w += 1;
                }
            }
            self.idx.truncate(w);
            self.z.truncate(w);
            self.ln_bound.truncate(w);
        }
    }

    /// Multiplies `value(j)^k` into the survivors; `e_l2` bounds the ℓ² norm (full
    /// spectrum) of the values' error over the survivors, `e_max` each value's error.
    fn multiply(
        &mut self,
        value: impl Fn(usize) -> C64,
        k: u64,
        e_l2: f64,
        e_max: f64,
        unit: &Unit,
    ) {
        let kf = k as f64;
        for (z, &j) in self.z.iter_mut().zip(&self.idx) {
            *z *= cpow(value(j), k);
        }
        let r = unit.sum_up + unit.err + e_max;
        self.sens += kf * e_l2 * (1.0 + 4.0 * U);
        if r > 1.0 {
            self.ln_rfac += kf * (r - 1.0).ln_1p() * (1.0 + 8.0 * U) + 4.0 * U;
        }
        self.ln_scale += kf * unit.ln_scale;
        self.ln_scale_err += 4.0 * U * (kf * unit.ln_scale.abs() + self.ln_scale.abs());
        self.inf_union += kf * unit.inf * (1.0 + 4.0 * U);
        if unit.inf > 0.0 {
            self.ln_keep += kf * (-unit.inf).ln_1p();
        }
    }

    /// Full-spectrum ℓ² norm of the accumulated product, rounded up.
    fn norm(&self, m: usize) -> f64 {
        sparse_half_norm(&self.idx, &self.z, m)
    }

    /// `‖computed − exact‖₂` of the accumulated product over the full spectrum, given
    /// the total degree `n` and the transform length `m`.
    fn error(&self, n: f64, m: usize) -> f64 {
        let rfac = self.ln_rfac.exp() * (1.0 + 4.0 * U);
        let g = ((1.0 + GAMMA).powf(n) - 1.0) * (1.0 + 1e-10);
        let rel = if g < 0.5 {
            g / (1.0 - g)
        } else {
            f64::INFINITY
        };
        let zero_each = (LN_ZERO + self.ln_rfac).exp() * (1.0 + 1e-10);
        let sqm = (m as f64).sqrt() * (1.0 + U);
        (rel * self.norm(m) + sqm * (n * UNDERFLOW + zero_each) + rfac * self.sens)
            * (1.0 + 8.0 * U)
    }
}

/// Twiddle `e^{−2πi k/M}` (`M` a power of two, so `k/M` is exact): the angle carries
/// two roundings (`fl(2π)`, the product; `≤ 12.6u`) and `sin`/`cos` one ulp each, so
/// `|t̂ − t| ≤ TWIDDLE_ERR`.
fn twiddle(k: u64, m: u64) -> C64 {
    let x = -std::f64::consts::TAU * ((k % m) as f64 / m as f64);
    let (s, c) = x.sin_cos();
    C64::new(c, s)
}

/// Error bound of [`twiddle`] (16u).
const TWIDDLE_ERR: f64 = 16.0 * U;
/// Block length of the direct transform.
const BLOCK: usize = 64;

/// Pairwise sum; error `≤ ⌈log₂ n⌉·u·Σ|xᵢ|` per component.
fn pairwise(v: &[C64]) -> C64 {
    match v.len() {
        0 => C64::new(0.0, 0.0),
        1 => v[0],
        n => pairwise(&v[..n / 2]) + pairwise(&v[n / 2..]),
    }
}

/// The DFT values `A_j = Σ_r a_r ω^{jr}`, `B_j = Σ_r b_r ω^{jr}` (`ω = e^{−2πi/M}`) at
/// one frequency, summed directly over the support `[first, last]` in blocks of
/// [`BLOCK`] (table `ω^{jb}`, block base `ω^{j r₀}`, both accurate twiddles) and
/// pairwise over blocks. Error per value `≤ DIRECT_ERR · ‖a‖₁` (see [`DIRECT_ERR`]).
#[cfg(test)]
fn direct_pair(
    a: &[f64],
    b: &[f64],
    first: usize,
    last: usize,
    j: usize,
    tw: &Twiddles,
) -> (C64, C64) {
    direct_pairs(a, b, first, last, &[j], tw)[0]
}

/// Frequencies summed together by [`direct_pairs`].
const LANES: usize = 4;

/// [`direct_pair`] at every frequency of `js`, [`LANES`] frequencies at a time: the
/// lanes are independent sums, each computed with exactly the operations and order of
/// the one-frequency sum (`sa += table[t]·a_r` per block, then `·base`, then pairwise
/// over blocks; no fused multiply-add), so each value carries the same error bound
/// [`DIRECT_ERR`]`·‖a‖₁`; the lanes only let the compiler use vector registers.
fn direct_pairs(
    a: &[f64],
    b: &[f64],
    first: usize,
    last: usize,
    js: &[usize],
    tw: &Twiddles,
) -> Vec<(C64, C64)> {
    let nb = (last - first) / BLOCK + 1;
    // the chunks are independent sums: computed in parallel, concatenated in order
    let per_chunk = |chunk: &[usize]| -> Vec<(C64, C64)> {
        let jm: Vec<u64> = chunk.iter().map(|&j| j as u64).collect();
        let mut tre = [[0.0f64; LANES]; BLOCK];
        let mut tim = [[0.0f64; LANES]; BLOCK];
        for (l, &j) in jm.iter().enumerate() {
            for t in 0..BLOCK {
                let w = tw.get(j * t as u64);
                tre[t][l] = w.re;
                tim[t][l] = w.im;
            }
        }
        let mut ba: Vec<Vec<C64>> = (0..chunk.len()).map(|_| Vec::with_capacity(nb)).collect();
        let mut bb: Vec<Vec<C64>> = (0..chunk.len()).map(|_| Vec::with_capacity(nb)).collect();
        let mut r0 = first;
        while r0 <= last {
            let end = (r0 + BLOCK).min(last + 1);
            let (mut sar, mut sai) = ([0.0f64; LANES], [0.0f64; LANES]);
            let (mut sbr, mut sbi) = ([0.0f64; LANES], [0.0f64; LANES]);
            for (t, r) in (r0..end).enumerate() {
                let (av, bv) = (a[r], b[r]);
                let (wr, wi) = (&tre[t], &tim[t]);
                for l in 0..LANES {
                    sar[l] += wr[l] * av;
                    sai[l] += wi[l] * av;
                    sbr[l] += wr[l] * bv;
                    sbi[l] += wi[l] * bv;
                }
            }
            for (l, &j) in jm.iter().enumerate() {
                let base = tw.get(j * (r0 as u64));
                ba[l].push(C64::new(sar[l], sai[l]) * base);
                bb[l].push(C64::new(sbr[l], sbi[l]) * base);
            }
            r0 = end;
        }
        (0..chunk.len())
            .map(|l| (pairwise(&ba[l]), pairwise(&bb[l])))
            .collect()
    };
    js.par_chunks(LANES).flat_map_iter(per_chunk).collect()
}

/// Twiddles `e^{−2πik/M}` from two tables of accurate values ([`twiddle`]):
/// `ω^k = ω^{k_hi·S}·ω^{k_lo}` with `S = 2^⌈ν/2⌉`, so `√M`-sized tables serve every `k`;
/// each value carries two table errors and one complex product:
/// `≤ TABLE_TWIDDLE_ERR = 2·TWIDDLE_ERR + 3u` (√5u rounded up).
struct Twiddles {
    m: u64,
    shift: u32,
    lo: Vec<C64>,
    hi: Vec<C64>,
}

const TABLE_TWIDDLE_ERR: f64 = 2.0 * TWIDDLE_ERR + 3.0 * U;

impl Twiddles {
    fn new(m: usize) -> Twiddles {
        let m = m as u64;
        let nu = m.trailing_zeros();
        let shift = nu.div_ceil(2);
        let s = 1u64 << shift;
        Twiddles {
            m,
            shift,
            lo: (0..s).map(|k| twiddle(k, m)).collect(),
            hi: (0..m.div_ceil(s)).map(|k| twiddle(k * s, m)).collect(),
        }
    }

    fn get(&self, k: u64) -> C64 {
        let k = k % self.m;
        let mask = (1u64 << self.shift) - 1;
        self.hi[(k >> self.shift) as usize] * self.lo[(k & mask) as usize]
    }
}

/// Relative error (per unit of `‖a‖₁`) of [`direct_pair`]: table twiddle
/// ([`TABLE_TWIDDLE_ERR`] = 35u), the real×complex product (u), the block sum of ≤ 64
/// terms (64·√2·u), the base twiddle (35u) and its complex product (√5u), the pairwise
/// sum over ≤ 2²⁸ blocks (29·√2·u): ≈ 207u; `2·TABLE_TWIDDLE_ERR + 170u` = 240u.
const DIRECT_ERR: f64 = 2.0 * TABLE_TWIDDLE_ERR + 170.0 * U;

/// The composition `∗ᵢ dᵢ^{∗kᵢ}` of `factors` (every `kᵢ ≥ 1`, at least one factor),
/// all on one grid whose length `M` is a power of two ≥ 2 and with one tilt, by one
/// forward FFT per factor, the product of powers and one inverse FFT (see the module
/// doc for the error terms). The result lives on the window of `M` points starting at
/// grid index `out_lo` (the factors' window may start elsewhere: the single steps need
/// their own support, the result the losses the queries ask about).
///
/// # Panics
/// Never for the inputs [`Composition`](super::Composition) builds; a grid length that
/// is not a power of two or an empty list is a caller's bug and is caught by a debug
/// assertion, returning a vacuous result (`δ ≤ 1`) in release builds.
pub(crate) fn power_product(factors: Vec<(Dist, u64)>, out_lo: i64) -> Dist {
    let Some((d0, _)) = factors.first() else {
        debug_assert!(false, "power_product needs a factor");
        return vacuous(
            &Grid {
                h: 1.0,
                lo: 0,
                n: 2,
            },
            0.0,
        );
    };
    let gs = d0.grid;
    let g = Grid {
        h: gs.h,
        lo: out_lo,
        n: gs.n,
    };
    let lambda = d0.lambda;
    let m = g.n;
    if !(m >= 2 && m.is_power_of_two())
        || factors
            .iter()
            .any(|(d, k)| d.grid != gs || d.lambda.to_bits() != lambda.to_bits() || *k == 0)
    {
        debug_assert!(false, "power_product: inconsistent factors");
        return vacuous(&g, lambda);
    }
    let half = m / 2 + 1;
    let nu = m.trailing_zeros() as f64;
    let e1 = percival(nu);
    let sqm = (m as f64).sqrt() * (1.0 + U);
    let fwd = super::fft_plans::forward(m);
    let mut scratch = super::fft_plans::scratch(&fwd);
    let n_total: u64 = factors
        .iter()
        .map(|(_, k)| *k)
        .fold(0u64, u64::saturating_add);
    let nf = n_total as f64;

    let mut pa = Acc::new(half);
    let mut qa = Acc::new(half);
    // every entry is written before it is read (no zero fill of m values)
    let mut x: Vec<C64> = Vec::with_capacity(m);
    // the two real sides' transforms, unpacked from the complex one on the fly
    // (`(m − j) mod m` as a mask: m is a power of two)
    let unpack_a = |x: &[C64], j: usize| (x[j] + x[(m - j) & (m - 1)].conj()) * 0.5;
    let unpack_b = |x: &[C64], j: usize| (x[j] - x[(m - j) & (m - 1)].conj()) * C64::new(0.0, -0.5);
    // supports kept for the aliasing bounds
    let mut units: Vec<(Support, Support, u64)> = Vec::with_capacity(factors.len());
    // each factor is consumed: its sides become the rescaled units (no copy)
    for (d, k) in factors {
        let Dist { pess, opt, .. } = d;
        let (mut a, mut b) = rayon::join(|| Unit::new(pess), || Unit::new(opt));
        // a single step's sides may end at their supports (zeros beyond, never read
        // past the longer one): both at one length, at most the window's
        let len = a.c.len().max(b.c.len()).clamp(1, m);
        a.c.resize(len, 0.0);
        b.c.resize(len, 0.0);
        // the sides are 0 outside their supports (pages never written are not read)
        let (lo_s, hi_s) = (a.first.min(b.first), a.last.max(b.last));
        x.clear();
        x.resize(lo_s, C64::new(0.0, 0.0));
        x.extend(
            a.c[lo_s..=hi_s]
                .iter()
                .zip(&b.c[lo_s..=hi_s])
                .map(|(av, bv)| C64::new(*av, *bv)),
        );
        x.resize(m, C64::new(0.0, 0.0));
        let xn2: f64 = x.iter().map(|z| z.norm_sqr()).sum();
        let xn = (xn2 * (1.0 + (m as f64 + 4.0) * U)).sqrt() * (1.0 + 2.0 * U);
        fwd.process_with_scratch(&mut x, &mut scratch);
        let ex = sqm * xn * e1 * (1.0 + 4.0 * U) + sqm * (a.err + b.err);
        // full-spectrum norms of the two unpacked half spectra (as `half_norm`)
        let (mut na, mut nb) = (0.0, 0.0);
        for j in 0..half {
            let w = if j == 0 || j == half - 1 { 1.0 } else { 2.0 };
            na += w * unpack_a(&x, j).norm_sqr();
            nb += w * unpack_b(&x, j).norm_sqr();
        }
        let round_norm =
            |s: f64| (s * (1.0 + (2.0 * half as f64 + 8.0) * U)).sqrt() * (1.0 + 2.0 * U);
        let e_a = (ex + 2.0 * U * round_norm(na)) * (1.0 + 4.0 * U);
        let e_b = (ex + 2.0 * U * round_norm(nb)) * (1.0 + 4.0 * U);
        pa.prune(|j| unpack_a(&x, j), e_a, k);
        qa.prune(|j| unpack_b(&x, j), e_b, k);
        // survivors recomputed by a direct sum when that is affordable: its error does
        // not grow with √M‖x‖₂, which the power would multiply by k
        let mut keep: Vec<usize> = pa.idx.iter().chain(&qa.idx).copied().collect();
        keep.sort_unstable();
        keep.dedup();
        let support = a.last.max(b.last) + 1 - a.first.min(b.first);
        let affordable = (keep.len() as f64) * (support as f64) <= 8.0 * m as f64 * nu;
        if affordable && k > 1 && !keep.is_empty() {
            let first = a.first.min(b.first);
            let last = a.last.max(b.last);
            let direct = direct_pairs(&a.c, &b.c, first, last, &keep, &Twiddles::new(m));
            let at = |j: usize| keep.binary_search(&j).map_or(0, |i| i);
            let full = |ks: &[usize]| -> f64 {
                ks.iter()
                    .map(|&j| if j == 0 || j == m / 2 { 1.0 } else { 2.0 })
                    .sum::<f64>()
                    .sqrt()
            };
            let ea_d = (DIRECT_ERR * a.sum_up + a.err) * (1.0 + 4.0 * U);
            let eb_d = (DIRECT_ERR * b.sum_up + b.err) * (1.0 + 4.0 * U);
            let (fa, fb) = (full(&pa.idx), full(&qa.idx));
            pa.multiply(|j| direct[at(j)].0, k, ea_d * fa, ea_d, &a);
            qa.multiply(|j| direct[at(j)].1, k, eb_d * fb, eb_d, &b);
        } else {
            pa.multiply(|j| unpack_a(&x, j), k, e_a, e_a, &a);
            qa.multiply(|j| unpack_b(&x, j), k, e_b, e_b, &b);
        }
        let (sa, sb) = rayon::join(|| a.support(), || b.support());
        units.push((sa, sb, k));
    }
    let err_p = pa.error(nf, m);
    let err_q = qa.error(nf, m);
    // Z = P + iQ on the full spectrum (P and Q are zero off their survivors):
    // Z_j = P_j + iQ_j and Z_{M−j} = conj(P_j) + i·conj(Q_j), each one rounding as the
    // dense formula (adding to an exact 0 is exact). The inverse transform is the
    // conjugate of the forward transform of conj(Z) (`fft_plans`), so x holds conj(Z):
    // conj(Z_j) = conj(P_j) + conj(iQ_j), conj(Z_{M−j}) = P_j + conj(i·conj(Q_j)), the
    // same operations as Z's with the signs of the imaginary parts flipped (exact)
    x.fill(C64::new(0.0, 0.0));
    for (&j, p) in pa.idx.iter().zip(&pa.z) {
        x[j] += p.conj();
        if j != 0 && j != m - j {
            x[m - j] += *p;
        }
    }
    for (&j, q) in qa.idx.iter().zip(&qa.z) {
        x[j] += C64::new(-q.im, -q.re);
        if j != 0 && j != m - j {
            x[m - j] += C64::new(q.im, -q.re);
        }
    }
    let zn = {
        let s: f64 = x.iter().map(|z| z.norm_sqr()).sum();
        (s * (1.0 + (m as f64 + 4.0) * U)).sqrt() * (1.0 + 2.0 * U)
    };
    let z_err = err_p + err_q + 2.0 * U * (pa.norm(m) + qa.norm(m));
    // x ← conj(inverse DFT of Z): the forward transform of conj(Z)
    fwd.process_with_scratch(&mut x, &mut scratch);
    drop(scratch);
    // ℓ¹ error of each side of z = ẑ/M
    let fft_l1 = (zn * e1 + z_err) * (1.0 + 8.0 * U);

    // cyclic read-out: the sum of N single-step indices I is the loss (N·lo_s + I)h, so
    // window position r (loss (lo + r)h) holds I = r + lo − N·lo_s (mod M)
    let shift = (g.lo as i128 - n_total as i128 * gs.lo as i128).rem_euclid(m as i128) as usize;
    let scale = 1.0 / m as f64;
    // (one more place for the sentinel of the suffix sums, `Dist::into_prepared`)
    let mut cp = Vec::with_capacity(m + 1);
    let mut co = Vec::with_capacity(m + 1);
    for r in 0..m {
        // z = conj(x): its real part is x's, its imaginary part −x's
        let v = x[(r + shift) & (m - 1)];
        cp.push((v.re * scale).max(0.0));
        co.push((-v.im * scale).max(0.0));
    }
    drop(x);

    // aliasing (Chernoff), tilted units
    let t_above = (g.lo + m as i64) as f64 * g.h;
    let b_below = g.bottom();
    // Σ kᵢ Wᵢ(θ) − θ·at over one side's factors, with `w` the certified log-MGF
    // (`Support::log_mgf_up`) or its block estimate (`Support::log_mgf_estimate`)
    let exponent = |side: usize, theta: f64, at: f64, w: fn(&Support, &Grid, f64) -> f64| {
        let mut e = -theta * at;
        for (a, b, k) in &units {
            let u = if side == 0 { a } else { b };
            e += *k as f64 * w(u, &gs, theta);
        }
        e
    };
    let bound = |side: usize, theta: f64, at: f64| -> f64 {
        // exp(Σ kᵢ Wᵢ(θ) − θ·at), rounded up; θ may be negative
        let e = exponent(side, theta, at, Support::log_mgf_up);
        if e == f64::NEG_INFINITY {
            // an empty factor: nothing to alias
            return 0.0;
        }
        if e.is_nan() {
            return f64::INFINITY;
        }
        (e + 4.0 * U * (e.abs() + 1.0)).exp() * (1.0 + 4.0 * U)
    };
    // θ ↦ Σ kᵢWᵢ(±θ) ∓ θ·at is convex in θ, hence unimodal in ln θ: golden-section
    // search over θ ∈ [lo, 10³] (any θ gives a valid bound; the search only tightens)
    // returns a certified bound and its θ.
    //
    // The search runs first on the block estimates (`Support::log_mgf_estimate`, one
    // exponential a block of 16 points), and its minimizer θ̃ is certified once. The
    // estimated exponent F̃(θ) = Σ kᵢW̃ᵢ(θ) − θ·at lies below the exact one at every θ
    // (Jensen), so when the certified exponent at θ̃ is within ESTIMATE_SLACK of F̃'s
    // smallest value seen, no θ gives a bound below e^{−ESTIMATE_SLACK} of it (up to
    // the search's final bracket) and the certified search is skipped; otherwise
    // (atoms between the block means, a large θ) it runs as well and the smaller bound
    // is kept.
    let min_over = |side: usize, sign: f64, at: f64, lo: f64| -> (f64, f64) {
        let f = |lt: f64| bound(side, sign * lt.exp(), at);
        let (a, b) = (lo.max(1e-4).ln(), 1e3f64.ln());
        if a >= b {
            return (f(a), a.exp());
        }
        let est = crate::precision::search::golden_section_min(
            |lt| exponent(side, sign * lt.exp(), at, Support::log_mgf_estimate),
            a,
            b,
            12,
        );
        let theta = est.x.exp();
        let at_est = f(est.x);
        if est.value.is_finite() && at_est.ln() <= est.value + ESTIMATE_SLACK {
            return (at_est, theta);
        }
        let m = crate::precision::search::golden_section_min(f, a, b, 12);
        if m.value <= at_est {
            (m.value, m.x.exp())
        } else {
            (at_est, theta)
        }
    };
    // The two sides of one direction have nearly the same exponent (their masses
    // differ by the discretization only), so the optimistic side's bound above the
    // window is first tried at the θ found for the pessimistic side, and the pessimistic
    // bound below it (θ′ ≥ λ) at the optimistic side's θ raised to λ — the exact
    // constrained minimizer when the two exponents coincide (convexity). If the value
    // found that way is not within a factor 4 of the sibling's (one side's exponent may
    // be degenerate: an empty tail gives 0 at every θ), the side gets its own search.
    // Any θ gives a valid bound: this only saves searches, it does not change what is
    // certified.
    let reuse = |side: usize, sign: f64, at: f64, lo: f64, theta: f64, sibling: f64| -> f64 {
        let v = bound(side, sign * theta.max(lo), at);
        if v <= 4.0 * sibling {
            v
        } else {
            v.min(min_over(side, sign, at, lo).0)
        }
    };
    // (the searches above and below the window are independent: one core each)
    let ((alias_up_p, alias_up_q), (alias_lo_q, below_p)) = rayon::join(
        || {
            let (alias_up_p, theta_up) = min_over(0, 1.0, t_above, 0.0);
            let alias_up_q = reuse(1, 1.0, t_above, 0.0, theta_up, alias_up_p);
            (alias_up_p, alias_up_q)
        },
        || {
            let (alias_lo_q, theta_lo) = min_over(1, -1.0, b_below, 0.0);
            // pessimistic mass below the window, θ′ ≥ λ, at the bottom point
            let below_p = reuse(0, -1.0, b_below, lambda, theta_lo, alias_lo_q);
            (alias_lo_q, below_p)
        },
    );
    if cfg!(debug_assertions) && std::env::var("SHIFTDP_ONESHOT_DEBUG").is_ok() {
        eprintln!(
            "T {t_above} B {b_below} up_p {alias_up_p} up_q {alias_up_q} lo_q {alias_lo_q} below_p {below_p} fft {fft_l1} lnscale {} {}",
            pa.ln_scale, qa.ln_scale
        );
    }

    let mut pess = finish(
        cp,
        pa.ln_scale,
        pa.ln_scale_err,
        fft_l1,
        lambda,
        &g,
        true,
        below_p,
    );
    // true mass above the window top: to +∞ (untilted: tilted × e^{s − λT})
    let ls_up = pa.ln_scale + pa.ln_scale_err - lambda * t_above;
    let spill = (ls_up + 4.0 * U * (ls_up.abs() + 1.0)).exp() * alias_up_p * (1.0 + 4.0 * U);
    pess.side.inf = (pa.inf_union + spill) * (1.0 + 8.0 * U);
    let mut opt = finish(
        co,
        qa.ln_scale,
        qa.ln_scale_err,
        fft_l1 + alias_up_q + alias_lo_q,
        lambda,
        &g,
        false,
        0.0,
    );
    opt.side.inf = if qa.ln_keep < 0.0 {
        (-(qa.ln_keep * (1.0 - 1e-12)).exp_m1() * (1.0 - 1e-12)).max(0.0)
    } else {
        0.0
    };
    Dist {
        grid: g,
        lambda,
        pess: pess.side,
        opt: opt.side,
    }
}

struct Finished {
    side: Side,
}

/// Normalizes a read-out side to unit sum and adds the round-off of the read-out,
/// rescaling and log scale to its ℓ¹ error (the same terms as [`Dist::compose`]).
#[allow(clippy::too_many_arguments)]
fn finish(
    mut c: Vec<f64>,
    ln_scale: f64,
    ln_scale_err: f64,
    err: f64,
    lambda: f64,
    g: &Grid,
    upper: bool,
    bottom_extra: f64,
) -> Finished {
    if upper && bottom_extra > 0.0 {
        c[0] += bottom_extra;
    }
    let (ln_s, mut err) = renormalize(&mut c, ln_scale, err);
    let rel = 16.0 * U * (1.0 + ln_s.abs() + lambda * g.top().abs().max(g.bottom().abs()))
        + 2.0 * ln_scale_err;
    let tot: f64 = c.iter().sum();
    err += rel * tot * (1.0 + (c.len() as f64) * U);
    Finished {
        side: Side {
            c,
            ln_scale: ln_s,
            err,
            inf: 0.0,
        },
    }
}

/// A result that certifies nothing (`δ ≤ 1`, `δ ≥ 0`).
fn vacuous(g: &Grid, lambda: f64) -> Dist {
    let side = |inf: f64| Side {
        c: vec![0.0; g.n],
        ln_scale: 0.0,
        err: 0.0,
        inf,
    };
    Dist {
        grid: *g,
        lambda,
        pess: side(1.0),
        opt: side(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::super::engine::Dist;
    use super::super::pld::{self, Grid, Kind};
    use super::super::tests::gdp_delta;
    use super::*;

    /// The block estimate of the aliasing search lies between the exact `ln Σ c e^{θt}`
    /// less Hoeffding's `θ²((BLOCK_LEN − 1)h)²/8` and the exact value (Jensen), on a
    /// smooth support with atoms and zeros, at tilts of both signs; the certified
    /// `log_mgf_up` lies above the exact value.
    #[test]
    fn block_estimate_lies_between_hoeffding_and_jensen() {
        let g = Grid {
            h: 1.0 / 128.0,
            lo: -300,
            n: 1000,
        };
        let first = 40;
        let c: Vec<f64> = (0..700)
            .map(|i| {
                let x = (i as f64 - 350.0) / 90.0;
                let atom = if i % 97 == 5 { 0.3 } else { 0.0 };
                if i % 13 == 7 {
                    0.0
                } else {
                    (-x * x / 2.0).exp() + atom
                }
            })
            .collect();
        let lnc: Vec<f64> = c
            .iter()
            .map(|&v| if v > 0.0 { v.ln() } else { f64::NEG_INFINITY })
            .collect();
        let sup = Support {
            first,
            blocks: Support::blocks_of(&c),
            lnc,
            err: 0.0,
            rel: 0.0,
        };
        let spread = (BLOCK_LEN - 1) as f64 * g.h;
        for theta in [-40.0, -3.0, -0.5, 0.0, 0.25, 1.0, 7.0, 60.0] {
            let terms: Vec<f64> = c
                .iter()
                .enumerate()
                .filter(|(_, v)| **v > 0.0)
                .map(|(i, v)| v.ln() + theta * g.t(first + i))
                .collect();
            let mx = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let exact = mx + terms.iter().map(|t| (t - mx).exp()).sum::<f64>().ln();
            let est = sup.log_mgf_estimate(&g, theta);
            let tol = 1e-12 * (1.0 + exact.abs());
            assert!(est <= exact + tol, "θ = {theta}: {est} > {exact}");
            let hoeffding = theta * theta * spread * spread / 8.0;
            assert!(
                est >= exact - hoeffding - tol,
                "θ = {theta}: {est} < {exact} − {hoeffding}"
            );
            assert!(sup.log_mgf_up(&g, theta) >= exact, "θ = {theta}");
        }
    }

    /// A window far too small for G(0.5)^{⊗16} = G(2) (losses ~ N(2, 4)): most of the
    /// mass wraps around, and the certified bounds must still hold.
    #[test]
    fn aliasing_is_accounted_for_on_a_tight_window() {
        for (lo_loss, len) in [(-2.0, 8.0), (0.0, 8.0), (-1.0, 16.0), (-8.0, 32.0)] {
            let h = 1.0 / 64.0;
            let g = Grid {
                h,
                lo: (lo_loss / h) as i64,
                n: (len / h) as usize,
            };
            let s = pld::discretize(&pld::kind_pieces(Kind::Gaussian(0.5), &g, 0.0), &g);
            let d1 = Dist::from_single(&s, g, 1.0);
            let d = power_product(vec![(d1, 16)], g.lo);
            let p = d.prepare();
            for eps in [-1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 5.0] {
                let (lo, up) = p.delta_bounds(eps);
                let (tl, tu) = gdp_delta(2.0, eps);
                assert!(
                    lo <= tu && tl <= up,
                    "window [{lo_loss}, {}], eps={eps}: [{lo}, {up}] vs [{tl}, {tu}]",
                    lo_loss + len
                );
            }
        }
    }

    /// The one-shot product of two different Gaussian factors is `G(√(k₁μ₁² + k₂μ₂²))`.
    #[test]
    fn heterogeneous_gaussians_match_closed_form() {
        let h = 1.0 / 256.0;
        let g = Grid {
            h,
            lo: -(16.0 / h) as i64,
            n: 1 << 13,
        };
        let single = |mu: f64| {
            let s = pld::discretize(&pld::kind_pieces(Kind::Gaussian(mu), &g, 0.0), &g);
            Dist::from_single(&s, g, 0.5)
        };
        let (a, b) = (single(0.3), single(0.1));
        let d = power_product(vec![(a, 20), (b, 300)], g.lo + 512);
        let mu = (20.0 * 0.09 + 300.0 * 0.01f64).sqrt();
        let p = d.prepare();
        for eps in [0.5, 1.0, 2.0, 4.0] {
            let (lo, up) = p.delta_bounds(eps);
            let (tl, tu) = gdp_delta(mu, eps);
            assert!(
                lo <= tu && tl <= up,
                "eps={eps}: [{lo}, {up}] vs [{tl}, {tu}]"
            );
            assert!(up - lo < 3e-3 * tu, "eps={eps}: [{lo}, {up}]");
        }
    }

    /// The lanes of `direct_pairs` compute exactly the one-frequency sum analysed in
    /// the proof (written out here, scalar): bit for bit, for any number of frequencies
    /// (not a multiple of the lane count), a support not aligned to the blocks, and the
    /// frequencies 0 and M/2.
    #[test]
    fn direct_pairs_equal_the_one_frequency_sum() {
        fn scalar(
            a: &[f64],
            b: &[f64],
            first: usize,
            last: usize,
            j: usize,
            tw: &Twiddles,
        ) -> (C64, C64) {
            let jm = j as u64;
            let table: Vec<C64> = (0..BLOCK as u64).map(|t| tw.get(jm * t)).collect();
            let (mut ba, mut bb) = (vec![], vec![]);
            let mut r0 = first;
            while r0 <= last {
                let end = (r0 + BLOCK).min(last + 1);
                let (mut sa, mut sb) = (C64::new(0.0, 0.0), C64::new(0.0, 0.0));
                for (t, r) in (r0..end).enumerate() {
                    sa += table[t] * a[r];
                    sb += table[t] * b[r];
                }
                let base = tw.get(jm * (r0 as u64));
                ba.push(sa * base);
                bb.push(sb * base);
                r0 = end;
            }
            (pairwise(&ba), pairwise(&bb))
        }
        let m = 1 << 11;
        let a: Vec<f64> = (0..m).map(|i| ((i * 7919) % 1013) as f64 / 1e5).collect();
        let b: Vec<f64> = (0..m).map(|i| ((i * 104729) % 997) as f64 / 3e5).collect();
        let tw = Twiddles::new(m);
        let js = [0, 1, 2, 3, 7, 100, 513, m / 2 - 1, m / 2];
        for (first, last) in [(0, m - 1), (37, 1500), (100, 100), (5, 68)] {
            for n in 1..=js.len() {
                let got = direct_pairs(&a, &b, first, last, &js[..n], &tw);
                for (i, &j) in js[..n].iter().enumerate() {
                    let (sa, sb) = scalar(&a, &b, first, last, j, &tw);
                    assert_eq!(got[i], (sa, sb), "j={j} support [{first}, {last}] n={n}");
                }
            }
        }
    }

    #[test]
    fn direct_dft_matches_fft_within_bounds() {
        let m = 1 << 12;
        let a: Vec<f64> = (0..m).map(|i| ((i * 7919) % 1000) as f64 / 1e6).collect();
        let b: Vec<f64> = (0..m).map(|i| ((i * 104729) % 997) as f64 / 1e6).collect();
        let mut x: Vec<C64> = a.iter().zip(&b).map(|(p, q)| C64::new(*p, *q)).collect();
        rustfft::FftPlanner::new()
            .plan_fft_forward(m)
            .process(&mut x);
        let l1a: f64 = a.iter().sum();
        for j in [0, 1, 5, 100, m / 2] {
            let (va, vb) = direct_pair(&a, &b, 0, m - 1, j, &Twiddles::new(m));
            let xa = x[j];
            let xb = x[(m - j) % m].conj();
            let fa = (xa + xb) * 0.5;
            let fb = (xa - xb) * C64::new(0.0, -0.5);
            // the FFT's own error is far below this; the direct bound must not be exceeded
            assert!((va - fa).norm() <= DIRECT_ERR * l1a + 1e-12 * l1a, "j={j}");
            assert!((vb - fb).norm() <= 1e-10 * l1a, "j={j}");
        }
    }
}
