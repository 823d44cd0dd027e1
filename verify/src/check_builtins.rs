//! Named checks (`verify` builtins) for CYS21 / YS22 statements that are not domination
//! checks of the validator: each computes both sides independently and compares.
//!
//! # Formula
//! * `ys22/thm4-3-recursion-matches-direct`: YS22 eq. 6, `S ← (b/n)e^{c}S + (1 − b/n)S^ρ`
//!   from `S = 1`, K·n/b steps, evaluated directly (not in log space) with MPFR at 256
//!   bits; `ln S/(α − 1)` must lie in the enclosure of [`Ys22Params::thm4_3`] (log-space
//!   log-sum-exp), up to 1e−12 relative.
//! * `cys21/thm3-lower-below-exact-squared-loss`: CYS21 eq. 17 ≤ the exact Rényi
//!   divergence of the squared-loss run, itself recomputed from the Gaussian recursion
//!   `Δ_{k+1} = (1 − η)Δ_k + ηS_g/n`, `v_{k+1} = (1 − η)²v_k + 2ησ′²`, `R = αΔ²/(2v)`
//!   and compared with [`squared_loss_exact`].
//! * `ys22/cor5-3-eps0-matches-eq13`: ε₀^j of [`Cor53Params::as_ys22`] equals YS22
//!   eq. 13, `(2α/σ_mul²) ρ^{j−1}/Σ_{s<j} ρ^s`, summed term by term.
//! * `ys22/thm4-2-between-thm3-3-positions`: the shuffle bound (a log-mean-exp over the
//!   positions) lies between Thm 3.3 for the first and for the last batch.
//!
//! # Example
//! ```
//! use shiftdp_verify::check_builtins::builtins;
//! use shiftdp_verify::{Ctx, Status};
//! let ctx = Ctx { samples: Some(2), ..Ctx::default() };
//! for b in builtins() {
//!     assert_eq!((b.run)(&ctx).status, Status::Pass, "{}", b.name);
//! }
//! ```
//!
//! # References
//! CYS21 Thm 3 (eq. 17); YS22 Thm 3.3, Thm 4.2, Thm 4.3 (eq. 6), Cor 5.3 (eqs. 12–13).
use super::{Builtin, Ctx, Outcome};
use crate::check::SplitMix64;
use rug::Float;
use rug::ops::Pow;
use shiftdp::renyi::cys21::{Cys21Params, squared_loss_exact};
use shiftdp::renyi::ys22::{Cor53Params, Ys22Params};

/// The builtins of this module (register them with `verify`).
pub fn builtins() -> Vec<Builtin> {
    vec![
        Builtin {
            name: "ys22/thm4-3-recursion-matches-direct",
            about: "YS22 Thm 4.3 log-space recursion agrees with a direct 256-bit evaluation of eq. 6",
            run: thm4_3_direct,
        },
        Builtin {
            name: "cys21/thm3-lower-below-exact-squared-loss",
            about: "CYS21 Thm 3 lower bound ≤ exact Rényi divergence of the squared-loss run (recomputed from the Gaussian recursion)",
            run: thm3_below_exact,
        },
        Builtin {
            name: "ys22/cor5-3-eps0-matches-eq13",
            about: "YS22 Cor 5.3: ε₀^j after the σ′ substitution equals eq. 13 summed term by term",
            run: cor53_eq13,
        },
        Builtin {
            name: "ys22/thm4-2-between-thm3-3-positions",
            about: "YS22 Thm 4.2 (shuffle) lies between Thm 3.3 for the first and the last batch",
            run: thm42_between,
        },
    ]
}

const ORDERS: [f64; 4] = [2.0, 4.0, 8.0, 16.0];

fn rng(ctx: &Ctx, salt: u64) -> SplitMix64 {
    SplitMix64::new(ctx.seed ^ salt)
}

fn f(r: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    r.dec(lo, hi).parse().unwrap_or(lo)
}

fn ys22_point(r: &mut SplitMix64) -> (Ys22Params, u64, Vec<(String, String)>) {
    let b = r.int(1, 4);
    let l = r.int(2, 6);
    let k = r.int(1, 30);
    let lambda = f(r, 0.01, 1.0);
    let beta = lambda + f(r, 0.0, 2.0);
    let eta = f(r, 0.01, 1.9 / (lambda + beta));
    let p = Ys22Params {
        sigma: f(r, 0.3, 3.0),
        s_g: f(r, 0.1, 2.0),
        lambda,
        beta,
        eta,
        n: b * l,
        b,
    };
    let params = vec![
        ("sigma'".into(), p.sigma.to_string()),
        ("S_g".into(), p.s_g.to_string()),
        ("lambda".into(), lambda.to_string()),
        ("beta".into(), beta.to_string()),
        ("eta".into(), eta.to_string()),
        ("n".into(), p.n.to_string()),
        ("b".into(), b.to_string()),
        ("K".into(), k.to_string()),
    ];
    (p, k, params)
}

fn with_alpha(mut p: Vec<(String, String)>, a: f64) -> Vec<(String, String)> {
    p.push(("alpha".into(), a.to_string()));
    p
}

fn thm4_3_direct(ctx: &Ctx) -> Outcome {
    let mut r = rng(ctx, 0x5943_3433);
    let n = ctx.samples_or(8);
    let mut worst: f64 = 0.0;
    for _ in 0..n {
        let (p, k, params) = ys22_point(&mut r);
        for a in ORDERS {
            let got = match p.thm4_3(a, k, ctx.bits) {
                Ok(g) => g,
                Err(e) => return Outcome::error(format!("thm4_3: {e}")),
            };
            let wp = 256;
            let q = Float::with_val(wp, p.b) / Float::with_val(wp, p.n);
            let c = Float::with_val(wp, a - 1.0) * a * p.eta * p.s_g * p.s_g
                / (Float::with_val(wp, 4) * p.sigma * p.sigma * (p.b * p.b) as f64);
            let rho = (Float::with_val(wp, 1) - Float::with_val(wp, p.eta) * p.lambda).square();
            let first = q.clone() * c.exp();
            let second = Float::with_val(wp, 1) - q;
            let mut s = Float::with_val(wp, 1);
            for _ in 0..k * (p.n / p.b) {
                let pw = s.clone().pow(&rho);
                s = first.clone() * &s + second.clone() * pw;
            }
            let direct = (s.ln() / (a - 1.0)).to_f64();
            let (lo, hi) = (got.epsilon.lower_f64(), got.epsilon.upper_f64());
            let tol = 1e-12 * direct.abs().max(1e-300);
            let gap = if direct < lo {
                lo - direct
            } else if direct > hi {
                direct - hi
            } else {
                0.0
            };
            worst = worst.max(gap / direct.abs().max(1e-300));
            if gap > tol {
                return Outcome::fail(
                    "YS22 Thm 4.3 recursion vs direct evaluation",
                    n,
                    with_alpha(params, a),
                    format!("direct {direct:e} outside the enclosure [{lo:e}, {hi:e}]"),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{n} points × 4 orders: direct eq. 6 inside the log-space enclosure (worst rel. gap {worst:e})"
        ),
        n,
    )
}

fn thm3_below_exact(ctx: &Ctx) -> Outcome {
    let mut r = rng(ctx, 0x4359_5333);
    let n = ctx.samples_or(20);
    let mut ratios = vec![];
    for _ in 0..n {
        let (sp, sg, eta, nn, k) = (
            f(&mut r, 0.1, 3.0),
            f(&mut r, 0.1, 3.0),
            f(&mut r, 0.01, 0.99),
            r.int(1, 50),
            r.int(1, 2000),
        );
        let params = vec![
            ("sigma'".to_string(), sp.to_string()),
            ("S_g".into(), sg.to_string()),
            ("eta".into(), eta.to_string()),
            ("n".into(), nn.to_string()),
            ("K".into(), k.to_string()),
        ];
        let p = match Cys21Params::new(sp, sg, 1.0, 1.0, eta, nn) {
            Ok(p) => p,
            Err(e) => return Outcome::error(format!("params: {e}")),
        };
        // independent recursion in f64
        let (mut d, mut v) = (0.0f64, 0.0f64);
        for _ in 0..k {
            d = (1.0 - eta) * d + eta * sg / nn as f64;
            v = (1.0 - eta).powi(2) * v + 2.0 * eta * sp * sp;
        }
        for a in ORDERS {
            let rec = a * d * d / (2.0 * v);
            let (lb, ex) = match (
                p.thm3_lower(a, k, ctx.bits),
                squared_loss_exact(&p, a, k, ctx.bits),
            ) {
                (Ok(x), Ok(y)) => (x, y),
                (Err(e), _) | (_, Err(e)) => return Outcome::error(format!("{e}")),
            };
            let agree = (rec - ex.mid_f64()).abs() <= 1e-9 * rec;
            let below = lb.upper_f64() <= ex.lower_f64();
            if !(agree && below) {
                return Outcome::fail(
                    "CYS21 Thm 3 lower bound vs the exact squared-loss instance",
                    n,
                    with_alpha(params, a),
                    format!(
                        "lower bound {:e}, exact {:e}, recursion {rec:e}",
                        lb.upper_f64(),
                        ex.mid_f64()
                    ),
                );
            }
            ratios.push(ex.lower_f64() / lb.upper_f64());
        }
    }
    let Some(t) = super::outcome::ratio_summary(&ratios) else {
        return Outcome::error(
            "no point where both the lower bound and the exact value are finite",
        );
    };
    Outcome::pass(
        format!(
            "{n} points × 4 orders: eq. 17 ≤ exact (exact/lower: min {:.4})",
            t.0
        ),
        n,
    )
    .with_tightness(Some(t))
}

fn cor53_eq13(ctx: &Ctx) -> Outcome {
    let mut r = rng(ctx, 0x4335_3313);
    let n = ctx.samples_or(20);
    for _ in 0..n {
        let b = r.int(1, 50);
        let c = Cor53Params {
            lambda: f(&mut r, 0.001, 0.5),
            feature_clip: f(&mut r, 0.1, 3.0),
            s_g: f(&mut r, 0.1, 4.0),
            sigma_mul: f(&mut r, 0.5, 8.0),
            eta: f(&mut r, 0.01, 0.3),
            n: b * r.int(2, 20),
            b,
        };
        let params = vec![
            ("lambda".to_string(), c.lambda.to_string()),
            ("feature_clip".into(), c.feature_clip.to_string()),
            ("S_g".into(), c.s_g.to_string()),
            ("sigma_mul".into(), c.sigma_mul.to_string()),
            ("eta".into(), c.eta.to_string()),
            ("n".into(), c.n.to_string()),
            ("b".into(), b.to_string()),
        ];
        let p = match c.as_ys22() {
            Ok(p) => p,
            Err(e) => return Outcome::error(format!("as_ys22: {e}")),
        };
        let rho = (1.0 - c.eta * c.lambda).powi(2);
        for a in ORDERS {
            for j in [1u64, 2, 5, 17] {
                let geo: f64 = (0..j).map(|s| rho.powi(s as i32)).sum();
                let eq13 = 2.0 * a / (c.sigma_mul * c.sigma_mul) * rho.powi(j as i32 - 1) / geo;
                let v = match p.eps0(j, a, ctx.bits) {
                    Ok(v) => v.mid_f64(),
                    Err(e) => return Outcome::error(format!("eps0: {e}")),
                };
                if (v / eq13 - 1.0).abs() > 1e-10 {
                    let mut q = with_alpha(params, a);
                    q.push(("j".into(), j.to_string()));
                    return Outcome::fail(
                        "YS22 Cor 5.3 substitution vs eq. 13",
                        n,
                        q,
                        format!("ε₀^j = {v:e} vs eq. 13 = {eq13:e}"),
                    );
                }
            }
        }
    }
    Outcome::pass(
        format!("{n} points × 4 orders × 4 j: ε₀^j = eq. 13 to 1e−10"),
        n,
    )
}

fn thm42_between(ctx: &Ctx) -> Outcome {
    let mut r = rng(ctx, 0x3432_3333);
    let n = ctx.samples_or(12);
    for _ in 0..n {
        let (p, k, params) = ys22_point(&mut r);
        let l = p.n / p.b;
        for a in ORDERS {
            let (sh, first, last) = match (
                p.thm4_2(a, k, ctx.bits),
                p.thm3_3(a, k, 0, ctx.bits),
                p.thm3_3(a, k, l - 1, ctx.bits),
            ) {
                (Ok(x), Ok(y), Ok(z)) => (x.mid_f64(), y.mid_f64(), z.mid_f64()),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                    return Outcome::error(format!("{e}"));
                }
            };
            let tol = 1e-12 * last;
            if !(first - tol <= sh && sh <= last + tol) {
                return Outcome::fail(
                    "YS22 Thm 4.2 between Thm 3.3 first/last batch",
                    n,
                    with_alpha(params, a),
                    format!(
                        "Thm 3.3 j₀ = 0: {first:e}, Thm 4.2: {sh:e}, Thm 3.3 j₀ = l−1: {last:e}"
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!("{n} points × 4 orders: Thm 3.3(first) ≤ Thm 4.2 ≤ Thm 3.3(last)"),
        n,
    )
}
