//! Balls-in-bins (random allocation of each record to one of `T` steps) under
//! add-remove and zero-out: the dominating pair `P = (1/T) Σₜ N(eₜ, σ²I)` against
//! `Q = N(0, σ²I)`, its remove order by its Rényi divergences at integer orders and its
//! add order by a shifted Gaussian.
//!
//! # Formula
//! **Remove order** (`D_α(P‖Q)` at integer `α ≥ 2`): with `x ~ Q`,
//! `(dP/dQ)(x) = T^{−1} e^{−1/(2σ²)} Σⱼ e^{xⱼ/σ²}` and `E[e^{k xⱼ/σ²}] = e^{k²/(2σ²)}`, so the
//! multinomial expansion grouped by the partition `π ⊢ α` of the exponents gives
//!
//! `E_Q[(dP/dQ)^α] = T^{−α} e^{−α/(2σ²)} Σ_{π ⊢ α, |π| ≤ T} N_T(π) M(π) e^{Σ_{a∈π} a²/(2σ²)}`,
//!
//! `N_T(π) = T!/((T − |π|)! Πᵥ cᵥ!)` (the ways to put the parts on distinct steps, `cᵥ`
//! the number of parts equal to `v`), `M(π) = α!/Π_{a∈π} a!`; `D_α = ln(·)/(α − 1)`
//! (Feldman, Shenfeld, *Privacy amplification by random allocation*, 2025; re-derived
//! in `proofs/samplers/allocation.md`). `D_α` is non-decreasing in α, so a real order
//! reads the next integer.
//!
//! **Add order** (the pair `(Q, P)`): its loss under `Q` is
//! `1/(2σ²) − ln((1/T) Σⱼ e^{xⱼ/σ²}) ≤ 1/(2σ²) − Σⱼ xⱼ/(Tσ²)` (Jensen), and
//! `−Σⱼ xⱼ/(Tσ²) ~ N(0, μ₁²)`, `μ₁ = 1/(σ√T)`: the loss is at most that of `G(μ₁)` plus
//! `c = (1 − 1/T)/(2σ²)`, coupled pointwise; over `E` fresh epochs
//! `δ_add(ε) ≤ δ_{G(√E μ₁)}(ε − E c)`, so `ε_add(δ) ≤ ε_{G(√E μ₁)}(δ) + E c`.
//!
//! # Rounding
//! The partition sums are MPFR enclosures (exact integer counts, `exp` and `ln` rounded
//! outward); `μ₁` and `E c` are rounded up.
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use crate::tradeoff::RenyiCurve;
use std::sync::Arc;

/// The largest Rényi order evaluated.
pub const MAX_ORDER: u32 = 64;

/// `D_α(P‖Q)` of one epoch of balls-in-bins over `t` steps with noise σ at every integer
/// order `2 ≤ α ≤ max_order` (index `α − 2`), enclosed at `bits` bits.
///
/// # Formula
/// The moments of `S = Σⱼ Yⱼ`, `Yⱼ = e^{xⱼ/σ²}` i.i.d. with `E[Y^k] = e^{k²/(2σ²)}`, come
/// from the exponential generating function: `E[S^α] = α! [z^α] M(z)^T` with
/// `M(z) = Σ_k e^{k²/(2σ²)} z^k/k!` (the multinomial expansion of the module doc, summed
/// by the power of a truncated series: every coefficient positive, so the enclosures
/// stay tight); `D_α = (ln E[S^α] − α(ln T + 1/(2σ²)))/(α − 1)`.
///
/// # Errors
/// [`Error::Parameter`] unless `t ≥ 1`, σ finite and > 0, `2 ≤ max_order ≤` [`MAX_ORDER`].
pub fn remove_divergences(t: u64, sigma: f64, max_order: u32, bits: u32) -> Result<Vec<Enclosure>> {
    if !(2..=MAX_ORDER).contains(&max_order) {
        return Err(Error::param(
            "alpha",
            max_order,
            "integer order in 2..=64 for the random-allocation divergence",
        ));
    }
    if t == 0 || !(sigma.is_finite() && sigma > 0.0) {
        return Err(Error::param(
            "random allocation",
            format!("t={t}, σ={sigma}"),
            "t ≥ 1 steps and σ finite and > 0",
        ));
    }
    let wp = bits + 32;
    let n = max_order as usize;
    let s = Enclosure::from_f64(wp, sigma);
    // 1/(2σ²)
    let half_inv_var = Enclosure::from_u64(wp, 1).div(&s.mul(&s).mul(&Enclosure::from_u64(wp, 2)));
    let mut fact = vec![Enclosure::from_u64(wp, 1)];
    for k in 1..=n {
        let next = fact[k - 1].mul(&Enclosure::from_u64(wp, k as u64));
        fact.push(next);
    }
    let m: Vec<Enclosure> = (0..=n)
        .map(|k| {
            Enclosure::from_u64(wp, (k * k) as u64)
                .mul(&half_inv_var)
                .exp()
                .div(&fact[k])
        })
        .collect();
    // truncated product of two series of degree ≤ n
    let mul = |a: &[Enclosure], b: &[Enclosure]| -> Vec<Enclosure> {
        (0..=n)
            .map(|d| {
                (0..=d).fold(Enclosure::from_u64(wp, 0), |acc, i| {
                    acc.add(&a[i].mul(&b[d - i]))
                })
            })
            .collect()
    };
    // M^t by squaring
    let mut result: Vec<Enclosure> = (0..=n)
        .map(|k| Enclosure::from_u64(wp, u64::from(k == 0)))
        .collect();
    let mut base = m;
    let mut e = t;
    while e > 0 {
        if e & 1 == 1 {
            result = mul(&result, &base);
        }
        e >>= 1;
        if e > 0 {
            base = mul(&base, &base);
        }
    }
    let ln_t = Enclosure::from_u64(wp, t).ln().add(&half_inv_var);
    Ok((2..=n)
        .map(|a| {
            let a_e = Enclosure::from_u64(wp, a as u64);
            result[a]
                .mul(&fact[a])
                .ln()
                .sub(&a_e.mul(&ln_t))
                .div(&Enclosure::from_u64(wp, a as u64 - 1))
                .with_prec(bits)
        })
        .collect())
}

/// The Rényi curve of `epochs` fresh epochs of balls-in-bins, remove order: `α ↦
/// E·D_{⌈α⌉}(P‖Q)` on `[2, MAX_ORDER]` (`D_α` non-decreasing in α; every integer order
/// computed once, at 160 bits).
///
/// # Errors
/// As [`remove_divergences`].
pub fn remove_curve(t: u64, sigma: f64, epochs: u64) -> Result<RenyiCurve> {
    let d = remove_divergences(t, sigma, MAX_ORDER, 160)?;
    let e = Enclosure::from_u64(160, epochs);
    let table: Vec<Enclosure> = d.iter().map(|x| x.mul(&e)).collect();
    let f = move |alpha: f64, bits: u32| -> Result<Enclosure> {
        let i = (alpha.ceil() as usize)
            .saturating_sub(2)
            .min(table.len() - 1);
        Ok(table[i].with_prec(bits))
    };
    RenyiCurve::computed(
        &format!("balls-in-bins remove order (T = {t}, σ = {sigma}, {epochs} epochs)"),
        2.0,
        f64::from(MAX_ORDER),
        Arc::new(f),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `E[(Σⱼ e^{xⱼ/σ²})^α]` by the sum over every tuple of steps (`T^α` terms), written
    /// from the moment identity without partitions.
    fn by_tuples(alpha: u32, t: u64, sigma: f64) -> f64 {
        let mut total = 0.0;
        let n = t.pow(alpha);
        for code in 0..n {
            let mut counts = vec![0u64; t as usize];
            let mut c = code;
            for _ in 0..alpha {
                counts[(c % t) as usize] += 1;
                c /= t;
            }
            let sq: u64 = counts.iter().map(|k| k * k).sum();
            total += (sq as f64 / (2.0 * sigma * sigma)).exp();
        }
        (total.ln() - alpha as f64 * ((t as f64).ln() + 1.0 / (2.0 * sigma * sigma)))
            / (alpha - 1) as f64
    }

    #[test]
    fn moment_series_matches_the_sum_over_tuples_and_the_order_two_closed_form() {
        for (alpha, t, sigma) in [(2, 3, 1.0), (3, 3, 0.7), (4, 5, 1.3), (5, 2, 2.0)] {
            let d = &remove_divergences(t, sigma, 8, 128).unwrap()[alpha as usize - 2];
            let b = by_tuples(alpha, t, sigma);
            assert!(
                (d.mid_f64() - b).abs() < 1e-12 * b.abs().max(1.0),
                "{alpha} {t} {sigma}"
            );
        }
        // α = 2: ln(1 + (e^{1/σ²} − 1)/T)
        for (t, sigma) in [(10u64, 1.0f64), (1000, 0.5), (7, 3.0)] {
            let d = &remove_divergences(t, sigma, 2, 128).unwrap()[0];
            let exact = ((1.0 / (sigma * sigma)).exp_m1() / t as f64).ln_1p();
            assert!(
                d.lower_f64() <= exact * (1.0 + 1e-14) && exact <= d.upper_f64() * (1.0 + 1e-14)
            );
        }
    }
}
