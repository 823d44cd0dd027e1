//! AT22's bounds by privacy amplification by iteration through the shift-schedule
//! problem: Props 2.17 / 3.2 / 5.6 ([`pabi_rho`]), recipe (B.1) ([`recipe_b1_rho`]) and
//! eq. (3.6) ([`recipe_3_6`]). Parameter model and rounding: [`super::at22`].
use super::at22_params::*;
use super::at22_theorems::scan_t_tilde;
use super::sampled_gaussian::s_alpha;
use crate::error::{Error, Result, positive_finite};
use crate::precision::Enclosure;
use crate::precision::rounding::mul_down_f64;
use crate::schedules::ScheduleProblem;
use crate::schedules::tau::{TauSearch, search_tau};

/// The optimal PABI bound of a schedule problem: ρ with D_α ≤ ρα for every α, and the τ.
///
/// # Formula
/// AT22 Props 2.17 (τ = 0, z₀ = 0), 3.2 (z_τ = D, c_k = 1), 5.6 (c_k-contractions):
/// D_α(X_T ‖ X′_T) ≤ (α/2) Σ_k a_k²/ς_k² for any feasible shifts; minimizing gives
/// (α/2)μ*² with μ* the optimum of docs/conventions.md §4 ([`search_tau`] + KKT). So
/// ρ = μ*²/2.
///
/// # Errors
/// Errors of the solver and of the certificate.
///
/// # Rounding
/// μ is [`ScheduleProblem::certify`] of the KKT shifts (rounded up); ρ is an enclosure
/// of (μ_up)²/2, reported by its upper end.
///
/// # Example
/// ```
/// use shiftdp::precision::Enclosure;
/// use shiftdp::renyi::at22::pabi_rho;
/// use shiftdp::schedules::ScheduleProblem;
/// // c = 1, s = ς = 1, t = 5, no constraint: the composition optimum μ² = t s²/ς² = 5
/// let one = Enclosure::from_u64(128, 1);
/// let p = ScheduleProblem::constant(5, one.clone(), one.clone(), one, None).unwrap();
/// let (rho, tau) = pabi_rho(&p, 128).unwrap();
/// assert_eq!(tau, 0);
/// assert!(rho.upper_f64() >= 2.5 && rho.upper_f64() < 2.5 + 1e-12);
/// ```
///
/// # References
/// AT22 Props 2.17, 3.2, 5.6; docs/conventions.md §4.
pub fn pabi_rho(p: &ScheduleProblem<Enclosure>, bits: u32) -> Result<(Enclosure, usize)> {
    let r = search_tau(p, TauSearch::Auto { limit: 4000 })?;
    let cert = p.certify(r.best.tau, &r.best.shifts_f64(), bits)?;
    let mu = Enclosure::new(cert.mu_upper.clone(), cert.mu_upper.clone()).ok_or_else(|| {
        Error::NotCertified {
            what: "AT22 PABI ρ".into(),
            reason: "certified μ is not finite".into(),
        }
    })?;
    Ok((mu.square().half(), r.best.tau))
}

/// AT22 (B.1) (full batch) as ρ with ε(α) = ρα, in the toolkit's model.
///
/// # Formula
/// `ε ≤ α/(2η²σ²) · min{ T s², min_{T̃∈{1..T}} T̃ (D̃/T̃ + s)² }` with s = 2ηL_AT/n = ηL/n
/// (toolkit L) and D̃ = D + s (AT22 (B.1)). The inner minimum is taken over all T̃.
///
/// # Errors
/// [`Error::Parameter`] for non-positive η, σ, D, L or n = 0, T = 0.
///
/// # Rounding
/// Enclosure arithmetic; upper end is the bound.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::recipe_b1_rho;
/// // T = 1: min{s², (D + 2s)²} = s² with s = ηL/n = 1 ⇒ ρ = 1/(2η²σ²) = 0.5
/// let r = recipe_b1_rho(1, 1.0, 1.0, 1.0, 1, 10.0, 128).unwrap();
/// assert!((r.mid_f64() - 0.5).abs() < 1e-15);
/// ```
///
/// # References
/// AT22 Appendix B.1.
pub fn recipe_b1_rho(
    n: u64,
    l: f64,
    eta: f64,
    sigma: f64,
    t: u64,
    d: f64,
    bits: u32,
) -> Result<Enclosure> {
    positive_finite(&[
        ("sensitivity", l),
        ("eta", eta),
        ("noise", sigma),
        ("diameter", d),
    ])?;
    if n == 0 || t == 0 {
        return Err(Error::param("n, t", format!("{n}, {t}"), "must be ≥ 1"));
    }
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let s = e(eta) * e(l) / Enclosure::from_u64(wp, n);
    let dt = e(d) + s.clone();
    // f64 search for T̃ over the whole range (convex in T̃: check around D̃/s and ends)
    let (sf, dtf) = (s.mid_f64(), dt.mid_f64());
    let g = |k: u64| k as f64 * (dtf / k as f64 + sf).powi(2);
    let k0 = (dtf / sf).clamp(1.0, t as f64);
    let mut best = (g(1), 1u64);
    for k in [k0.floor() as u64, k0.ceil() as u64, t] {
        let k = k.clamp(1, t);
        if g(k) < best.0 {
            best = (g(k), k);
        }
    }
    let kk = Enclosure::from_u64(wp, best.1);
    let second = kk.clone() * (dt / kk + s.clone()).square();
    let first = Enclosure::from_u64(wp, t) * s.square();
    let m = first.min(&second);
    let den = Enclosure::from_u64(wp, 2) * (e(eta) * e(sigma)).square();
    Ok((m / den).with_prec(bits))
}

/// AT22 (3.6): `min_τ (T−τ) Q + α D²/(2η²σ₁²(T−τ))` at a fixed noise split, with
/// Q = S_α(b/n, bσ₂/L) (toolkit L = 2L_AT), and the minimizing T̃ = T − τ.
///
/// # Formula
/// AT22 eq. (3.6); T̃ ∈ {1, …, T}, searched around the stationary point
/// D/(ησ₁)·√(α/(2Q)) (AT22 App. B.2) and at the ends.
///
/// The split (q = b/n, b/L, σ₁, σ₂, D) is `x` (σ₁² + σ₂² ≤ σ²; [`SplitInputs`] states
/// the rounding of each field), `eta` the step size η (rounded down), `t` the horizon T.
///
/// # Errors
/// [`Error::Parameter`] for a bad domain; quadrature errors.
///
/// # Rounding
/// Q is a certified enclosure; the result's upper end is the bound.
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::{SplitInputs, recipe_3_6};
/// let x = SplitInputs { q: 0.1, b_over_l: 1.0, sigma1: 1.0, sigma2: 1.0, d: 1.0 };
/// let (e, k) = recipe_3_6(4.0, &x, 1.0, 100, 64).unwrap();
/// assert!(k >= 1 && k <= 100 && e.upper_f64() > 0.0);
/// ```
///
/// # References
/// AT22 eq. (3.6).
pub fn recipe_3_6(
    alpha: f64,
    x: &SplitInputs,
    eta: f64,
    t: u64,
    bits: u32,
) -> Result<(Enclosure, u64)> {
    let SplitInputs {
        q,
        b_over_l,
        sigma1,
        sigma2,
        d,
    } = *x;
    super::curve::check_order(alpha)?;
    positive_finite(&[
        ("b/L", b_over_l),
        ("eta", eta),
        ("sigma1", sigma1),
        ("sigma2", sigma2),
        ("diameter", d),
    ])?;
    if t == 0 {
        return Err(Error::param("t", t, "must be ≥ 1"));
    }
    let qv = s_alpha(alpha, q, mul_down_f64(b_over_l, sigma2), bits)?;
    let a = alpha * d * d / (2.0 * eta * eta * sigma1 * sigma1);
    let qf = qv.mid_f64();
    let f = |k: u64| k as f64 * qf + a / k as f64;
    let k0 = if qf > 0.0 { (a / qf).sqrt() } else { t as f64 };
    let best = scan_t_tilde(f, k0, t);
    let wp = bits + 32;
    let e = |x: f64| Enclosure::from_f64(wp, x);
    let kk = Enclosure::from_u64(wp, best.1);
    let v = kk.clone() * qv.with_prec(wp)
        + e(alpha) * e(d).square()
            / (Enclosure::from_u64(wp, 2) * (e(eta) * e(sigma1)).square() * kk);
    Ok((v.with_prec(bits), best.1))
}
