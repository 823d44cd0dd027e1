//! The convolution engine: exponentially tilted PLD vectors, FFT convolution with a
//! certified error term, and self-composition by repeated squaring.
//!
//! # Formula
//! A side (pessimistic or optimistic) stores `c_j` with Q-mass `c_j · e^{s − λ t_j}` at
//! `t_j`: the tilt `e^{λ t}` commutes with convolution (`e^{λ(t+t′)} = e^{λt}e^{λt′}`), so
//! the FFT's absolute error, relative to the largest tilted entry, becomes a *relative*
//! error in the upper tail near the target ε (Chernoff tilting). λ ≥ 0 is chosen by the
//! caller (any λ is valid; it only affects tightness).
//!
//! `δ(ε) = m_∞ + Σ_{t_j > ε} c_j e^{s − λ t_j}(1 − e^{ε − t_j})`.
//!
//! # Errors accounted for
//! * FFT round-off: for FFT length `M = 2^ν`, the computed cyclic convolution `ẑ` of
//!   `x, y` satisfies `‖ẑ − z‖₂ ≤ ‖x‖₂‖y‖₂ · E_ν` with
//!   `E_ν = (1+u)^{3ν+2}(1+u√5)^{3ν+1}(1+β)^{3ν} − 1` (C. Percival, *Rapid multiplication
//!   modulo the sum and difference of highly composite numbers*, Math. Comp. 72 (2003),
//!   Thm 5.1, with two extra additions for the real/imaginary unpacking), `u = 2⁻⁵³`
//!   and the stated twiddle-factor accuracy `β = 2⁻⁵⁰`; we use `4·E_ν` and
//!   `‖·‖₁ ≤ √M ‖·‖₂`. The bound is carried as an ℓ¹ error `e` per side and
//!   propagated exactly: `e_{a∗b} ≤ e_a(‖b̂‖₁ + e_b) + ‖â‖₁ e_b + FFT`.
//! * truncation: pessimistic mass above the window goes to `+∞`, below it to the lowest
//!   grid point; optimistic mass above goes to the top grid point, below is dropped.
//! * summation/`exp` round-off: a relative margin on the final sums.
use super::pld::{Grid, SingleStep, U};
use rustfft::num_complex::Complex;

/// Scales the masses `c` to sum 1 when their sum `s` is finite and > 0, moving the scale
/// into the log scale: returns `(ln_scale + ln s, err · (1/s))` (the ℓ¹ error bound
/// scales with the masses; each operation rounds to nearest, and the callers add the
/// round-off of the rescaling and of `ln_scale` to the error), or the inputs unchanged.
pub(super) fn renormalize(c: &mut [f64], ln_scale: f64, err: f64) -> (f64, f64) {
    let s: f64 = c.iter().sum();
    if s > 0.0 && s.is_finite() {
        let inv = 1.0 / s;
        for v in c.iter_mut() {
            *v *= inv;
        }
        (ln_scale + s.ln(), err * inv)
    } else {
        (ln_scale, err)
    }
}

/// Percival's round-off factor for an FFT convolution of length `2^ν`, times the safety
/// factor 4: `E_ν = 4((1+u)^{3ν+2}(1+u√5)^{3ν+1}(1+β)^{3ν} − 1)` with `u` a little over
/// 2⁻⁵³ and twiddle accuracy `β = 2⁻⁵⁰` (see the module doc). It bounds the ℓ² error of
/// a whole convolution (two forward transforms and one inverse), so it also bounds the
/// relative ℓ² error of any one of those transforms, which is how
/// [`oneshot`](super::oneshot) uses it.
pub(crate) fn percival(nu: f64) -> f64 {
    4.0 * ((1.0 + U).powf(3.0 * nu + 2.0)
        * (1.0 + U * 5f64.sqrt()).powf(3.0 * nu + 1.0)
        * (1.0 + 2f64.powi(-50)).powf(3.0 * nu)
        - 1.0)
}

/// One side of a discretized PLD (tilted, scaled).
#[derive(Debug, Clone)]
pub struct Side {
    /// Tilted, scaled masses.
    pub c: Vec<f64>,
    /// Log scale `s`.
    pub ln_scale: f64,
    /// ℓ¹ bound on the error of `c` (in the same units).
    pub err: f64,
    /// Q-mass at `+∞` (untilted).
    pub inf: f64,
}

/// A discretized PLD: pessimistic and optimistic sides on one grid with one tilt.
#[derive(Debug, Clone)]
pub struct Dist {
    /// The grid.
    pub grid: Grid,
    /// The tilt λ ≥ 0.
    pub lambda: f64,
    /// Upper side.
    pub pess: Side,
    /// Lower side.
    pub opt: Side,
}

/// Tilted, scaled masses and the log scale; the third value is the pessimistic mass
/// whose tilt underflows even at the top point (moved to `+∞`, never dropped). The
/// masses `m` are tilted in place, and only their support `[first, last]` (the
/// positive values) is read or written: the zeros outside it stay zeros.
fn tilt(mut m: Vec<f64>, g: &Grid, lambda: f64, upper: bool) -> (Vec<f64>, f64, f64) {
    let (Some(first), Some(last)) = (
        m.iter().position(|&v| v > 0.0),
        m.iter().rposition(|&v| v > 0.0),
    ) else {
        m.fill(0.0);
        return (m, 0.0, 0.0);
    };
    let mut ls = f64::NEG_INFINITY;
    for (i, &v) in m[first..=last].iter().enumerate() {
        if v > 0.0 {
            ls = ls.max(v.ln() + lambda * g.t(first + i));
        }
    }
    let mut carry = 0.0; // pessimistic mass whose tilt underflows: moved up
    for (i, c) in m[first..].iter_mut().enumerate() {
        if first + i > last && carry == 0.0 {
            // (above the support only a carried mass has anything to place)
            break;
        }
        let v = *c;
        let x = lambda * g.t(first + i) - ls;
        *c = 0.0;
        if upper {
            let tot = v + carry;
            if tot <= 0.0 {
                continue;
            }
            if tot.ln() + x < -700.0 {
                // (the sum is rounded up, so the carried mass never loses any)
                carry = tot * (1.0 + 2.0 * U);
                continue;
            }
            carry = 0.0;
            *c = tot * x.exp() * (1.0 + 4.0 * U + 2.0 * U * x.abs());
        } else if v > 0.0 {
            *c = v * x.exp() * (1.0 - 4.0 * U - 2.0 * U * x.abs());
        }
    }
    (m, ls, carry)
}

impl Dist {
    /// Tilts a single-step discretization.
    pub fn from_single(s: &SingleStep, g: Grid, lambda: f64) -> Dist {
        Dist::from_single_owned(s.clone(), g, lambda)
    }

    /// Tilts a single-step discretization in place ([`Dist::from_single`] without a
    /// copy of its masses).
    pub fn from_single_owned(s: SingleStep, g: Grid, lambda: f64) -> Dist {
        let SingleStep {
            pess,
            pess_inf,
            opt,
            opt_inf,
        } = s;
        let ((cp, lp, spill), (co, lo, _)) = rayon::join(
            || tilt(pess, &g, lambda, true),
            || tilt(opt, &g, lambda, false),
        );
        Dist {
            grid: g,
            lambda,
            pess: Side {
                c: cp,
                ln_scale: lp,
                err: 0.0,
                inf: (pess_inf + spill) * (1.0 + U),
            },
            opt: Side {
                c: co,
                ln_scale: lo,
                err: 0.0,
                inf: opt_inf,
            },
        }
    }

    /// The composition `self ⊗ other` (same grid and tilt).
    pub fn compose(&self, other: &Dist) -> Dist {
        let same = std::ptr::eq(self, other);
        let g = self.grid;
        let n = g.n;
        let m = (2 * n - 1).next_power_of_two();
        let nu = m.trailing_zeros() as f64;
        let fwd = super::fft_plans::forward(m);
        let mut scratch = super::fft_plans::scratch(&fwd);
        // the two sides packed as one complex vector, zero-padded to m
        let pack = |d: &Dist| -> Vec<Complex<f64>> {
            let mut v = Vec::with_capacity(m);
            v.extend(
                d.pess
                    .c
                    .iter()
                    .zip(&d.opt.c)
                    .map(|(a, b)| Complex::new(*a, *b)),
            );
            v.resize(m, Complex::new(0.0, 0.0));
            v
        };
        let mut x = pack(self);
        fwd.process_with_scratch(&mut x, &mut scratch);
        let y = if same {
            None
        } else {
            let mut y = pack(other);
            fwd.process_with_scratch(&mut y, &mut scratch);
            Some(y)
        };
        let yref = y.as_ref().unwrap_or(&x);
        let mut z = Vec::with_capacity(m);
        for k in 0..m {
            let km = (m - k) % m;
            let (xa, xb) = (x[k], x[km].conj());
            let a1 = (xa + xb) * 0.5;
            let b1 = (xa - xb) * Complex::new(0.0, -0.5);
            let (ya, yb) = (yref[k], yref[km].conj());
            let a2 = (ya + yb) * 0.5;
            let b2 = (ya - yb) * Complex::new(0.0, -0.5);
            z.push(a1 * a2 + Complex::new(0.0, 1.0) * (b1 * b2));
        }
        super::fft_plans::inverse_in_place(&fwd, &mut z, &mut scratch);
        let scale = 1.0 / m as f64; // exact: m is a power of two
        // FFT error bound (ℓ¹) for the packed transform
        let e_nu = percival(nu);
        let l2 = |d: &Dist| -> f64 {
            (d.pess.c.iter().map(|v| v * v).sum::<f64>()
                + d.opt.c.iter().map(|v| v * v).sum::<f64>())
            .sqrt()
                * (1.0 + 1e-12)
        };
        let fft_err = (m as f64).sqrt() * l2(self) * l2(other) * e_nu * (1.0 + 1e-10);
        let l1 = |s: &Side| s.c.iter().sum::<f64>() * (1.0 + 1e-12);
        let prop = |a: &Side, b: &Side| a.err * (l1(b) + b.err) + l1(a) * b.err;
        let lambda = self.lambda;
        let mk = |re: bool, a: &Side, b: &Side| -> Side {
            let ls = a.ln_scale + b.ln_scale;
            let err0 = prop(a, b) + fft_err;
            let mut c = vec![0.0; n];
            let mut inf_extra = 0.0;
            let mut below = 0.0;
            let upper = re;
            for (r, zr) in z.iter().enumerate().take(2 * n - 1) {
                let v = (if re { zr.re } else { zr.im } * scale).max(0.0);
                let j = r as i64 + g.lo; // window position
                if j < 0 {
                    if upper {
                        // round the loss up to the bottom: tilted weight × e^{λ(t_0 − t_r)}
                        let dt = -(j as f64) * g.h;
                        below += v * (-lambda * dt).exp() * (1.0 + 4.0 * U);
                    }
                } else if (j as usize) >= n {
                    let t = (2 * g.lo + r as i64) as f64 * g.h;
                    if upper {
                        let lnm = ls - lambda * t;
                        inf_extra += v * lnm.exp() * (1.0 + 4.0 * U + 2.0 * U * lnm.abs());
                    } else {
                        let dt = t - g.top();
                        c[n - 1] += v * (-lambda * dt).exp() * (1.0 - 4.0 * U);
                    }
                } else {
                    c[j as usize] += v;
                }
            }
            c[0] += below;
            let mut inf = if upper {
                // m_∞ ≤ a_∞ + b_∞ (union bound) + spill + error of the spilled entries
                let e_top = (ls - lambda * (g.top() + g.h)).exp();
                a.inf + b.inf + inf_extra + err0 * e_top
            } else {
                a.inf + b.inf - a.inf * b.inf
            };
            let (ln_scale, mut err) = renormalize(&mut c, ls, err0);
            // round-off of the unpacking, spill, rescaling and of ln_scale
            let rel =
                16.0 * U * (1.0 + ln_scale.abs() + lambda * g.top().abs().max(g.bottom().abs()));
            if upper {
                err += rel * c.iter().sum::<f64>();
                inf *= 1.0 + 8.0 * U;
            } else {
                err += rel * c.iter().sum::<f64>();
                inf *= 1.0 - 8.0 * U;
            }
            Side {
                c,
                ln_scale,
                err,
                inf,
            }
        };
        let pess = mk(true, &self.pess, &other.pess);
        let opt = mk(false, &self.opt, &other.opt);
        Dist {
            grid: g,
            lambda,
            pess,
            opt,
        }
    }

    /// `self^{⊗k}` by repeated squaring (`k ≥ 1`; `k = 0`, which
    /// [`Composition::with`](super::Composition::with) refuses, is computed as `k = 1`:
    /// one more step, a larger and so still valid privacy loss).
    pub fn power(&self, k: u64) -> Dist {
        let mut k = k.max(1);
        let mut base = self.clone();
        while k & 1 == 0 {
            base = base.compose(&base);
            k >>= 1;
        }
        let mut acc = base.clone();
        k >>= 1;
        while k > 0 {
            base = base.compose(&base);
            if k & 1 == 1 {
                acc = acc.compose(&base);
            }
            k >>= 1;
        }
        acc
    }

    /// Number of grid points.
    pub fn len(&self) -> usize {
        self.grid.n
    }

    /// Whether the grid is empty (never, for a constructed `Dist`).
    pub fn is_empty(&self) -> bool {
        self.grid.n == 0
    }

    /// Prepares O(1) evaluation of certified δ(ε) bounds.
    pub fn prepare(&self) -> Prepared {
        self.clone().into_prepared()
    }

    /// [`Dist::prepare`], consuming the distribution: each side's values become its
    /// suffix sums `A_j` in place (no second copy of the window is held).
    pub fn into_prepared(self) -> Prepared {
        let Dist {
            grid,
            lambda,
            pess,
            opt,
        } = self;
        let (pess_err, opt_err, pess_inf, opt_inf) = (pess.err, opt.err, pess.inf, opt.inf);
        let (pess_ln_scale, opt_ln_scale) = (pess.ln_scale, opt.ln_scale);
        let (pess, opt) = rayon::join(
            || SidePrep::new(pess.c, pess.ln_scale, &grid, lambda),
            || SidePrep::new(opt.c, opt.ln_scale, &grid, lambda),
        );
        Prepared {
            pess,
            opt,
            grid,
            lambda,
            pess_err,
            opt_err,
            pess_inf,
            opt_inf,
            pess_ln_scale,
            opt_ln_scale,
        }
    }
}

/// Suffix sums of one side in a scale-free form:
/// `A_j = Σ_{i≥j} c_i e^{−λ(t_i − t_j)}` and `B_j = Σ_{i≥j} c_i e^{−(λ+1)(t_i − t_j)}`, so
/// that `L1_j = ln Σ_{i≥j} m_i = ln A_j + s − λ t_j` and
/// `L2_j = ln Σ_{i≥j} m_i e^{−t_i} = ln B_j + s − (λ+1) t_j`.
///
/// # Rounding
/// Computed top-down by `A_j = c_j + ρ A_{j+1}`, `ρ = fl(e^{−λh})` (`|ρ̂/ρ − 1| ≤ 2u`):
/// the term of `c_i` at distance `d = i − j` carries `≤ 3d + 1` roundings, so
/// `Â_j ∈ A_j·[(1 − 3u)^{n+1}, (1 + 3u)^{n+1}]` up to subnormal round-off
/// (`≤ (n + 1)·1e−320` absolute), whatever the decay; `log_err` is the resulting bound
/// on `|ln Â_j − ln A_j|` (for `A_j` above the subnormal range).
#[derive(Debug, Clone)]
pub struct SidePrep {
    a: Vec<f64>,
    b: Vec<f64>,
    /// Relative error bound of every `A_j`, `B_j`: `(1 + 3u)^{n+1} − 1`, rounded up.
    rel: f64,
    /// Absolute (subnormal) error bound of every `A_j`, `B_j`.
    abs: f64,
    ln_scale: f64,
    lambda: f64,
}

impl SidePrep {
    /// The suffix sums of a side's values `c` (`n` of them; `A` is computed in `c`'s
    /// buffer, `c_j` read before `A_j` overwrites it).
    fn new(c: Vec<f64>, ln_scale: f64, g: &Grid, lambda: f64) -> SidePrep {
        let n = g.n;
        debug_assert_eq!(c.len(), n);
        let mut a = c;
        a.resize(n + 1, 0.0);
        let mut b = vec![0.0; n + 1];
        let ra = (-lambda * g.h).exp();
        let rb = (-(lambda + 1.0) * g.h).exp();
        for j in (0..n).rev() {
            let c = a[j];
            a[j] = c + ra * a[j + 1];
            b[j] = c + rb * b[j + 1];
        }
        let rel = ((3.0 * U * (n as f64 + 1.0)).exp_m1() * (1.0 + 1e-6)).max(3.0 * U);
        SidePrep {
            a,
            b,
            rel,
            abs: (n as f64 + 1.0) * 1e-320,
            ln_scale,
            lambda,
        }
    }

    /// `Σ_{t_j > ε} m_j (1 − e^{ε − t_j})` bounded up (`upper`) or down.
    fn eval(&self, g: &Grid, eps: f64, upper: bool) -> f64 {
        let n = g.n;
        // the first window position with t_j > ε
        let j0f = (g.floor_index(eps) + 1.0 - g.lo as f64).max(0.0);
        let j0 = if j0f >= n as f64 { n } else { j0f as usize };
        if j0 >= n {
            return 0.0;
        }
        let (av, bv) = (self.a[j0], self.b[j0]);
        let t = g.t(j0);
        let (av, bv) = if upper {
            (
                (av + self.abs) * (1.0 + self.rel),
                (bv - self.abs) / (1.0 + self.rel),
            )
        } else {
            (
                (av - self.abs) / (1.0 + self.rel),
                (bv + self.abs) * (1.0 + self.rel),
            )
        };
        if av <= 0.0 {
            return 0.0;
        }
        // L1 = ln A + s − λt, L2 = ln B + s − (λ+1)t;
        // δ = e^{L1}(1 − e^{x}), x = ε + L2 − L1 = ε − t + ln(B/A) ≤ 0
        let l1 = av.ln() + self.ln_scale - self.lambda * t;
        let tmax = g.top().abs().max(g.bottom().abs());
        // round-off of ln, of the sums of logs and of λt (the suffix sums' own error is
        // in the bracketing of A and B above)
        let e1 = 4.0 * U * (av.ln().abs() + self.ln_scale.abs() + (self.lambda + 1.0) * tmax + 1.0);
        let x = if bv > 0.0 {
            (eps - t) + (bv / av).ln()
        } else {
            f64::NEG_INFINITY
        };
        let ex = 4.0 * U * (eps.abs() + t.abs() + x.abs().min(1e300) + 1.0);
        if upper {
            let x = (x - ex).min(0.0);
            (l1 + e1).exp() * (-x.exp_m1()) * (1.0 + 8.0 * U)
        } else {
            let x = x + ex;
            if x >= 0.0 {
                return 0.0;
            }
            (l1 - e1).exp() * (-x.exp_m1()) * (1.0 - 8.0 * U)
        }
    }
}

/// A composed, discretized PLD ready for O(1) certified δ(ε) queries.
#[derive(Debug, Clone)]
pub struct Prepared {
    pess: SidePrep,
    opt: SidePrep,
    /// The grid.
    pub grid: Grid,
    /// The tilt.
    pub lambda: f64,
    /// ℓ¹ FFT/round-off error bound of the pessimistic side (tilted units).
    pub pess_err: f64,
    /// Same for the optimistic side.
    pub opt_err: f64,
    /// Pessimistic mass at +∞ (truncation + components).
    pub pess_inf: f64,
    /// Optimistic mass at +∞.
    pub opt_inf: f64,
    pess_ln_scale: f64,
    opt_ln_scale: f64,
}

/// `e^{λε} sup_{t > ε} e^{−λt}(1 − e^{ε−t}) = (1/(1+λ)) (λ/(1+λ))^λ`, rounded up.
fn wfac(lambda: f64) -> f64 {
    let r = lambda / (1.0 + lambda);
    r.powf(lambda) / (1.0 + lambda) * (1.0 + 1e-12)
}

impl Prepared {
    /// Certified bounds `(lower, upper)` on `δ(ε)`.
    pub fn delta_bounds(&self, eps: f64) -> (f64, f64) {
        let g = &self.grid;
        let up_main = self.pess.eval(g, eps, true);
        // error term: ‖e‖₁ · sup_{t>ε} e^{s−λt}(1 − e^{ε−t}) (overflow ⇒ ∞ ⇒ δ ≤ 1)
        let w = wfac(self.lambda);
        let up_err = self.pess_err * (self.pess_ln_scale - self.lambda * eps).exp() * w;
        let up = (up_main + up_err + self.pess_inf * (1.0 + 8.0 * U)) * (1.0 + 1e-12);
        let lo_main = self.opt.eval(g, eps, false);
        let lo_err = self.opt_err * (self.opt_ln_scale - self.lambda * eps).exp() * w;
        let lo = ((lo_main - lo_err).max(0.0) + self.opt_inf * (1.0 - 8.0 * U)) * (1.0 - 1e-12);
        let up = if up.is_nan() { 1.0 } else { up.min(1.0) };
        let lo = if lo.is_nan() { 0.0 } else { lo.max(0.0) };
        (lo.min(up), up)
    }
}
