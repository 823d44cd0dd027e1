//! Property and cross-check tests of the Rényi-DP module (docs/conventions.md §3, §6, §7).
use proptest::prelude::*;
use rug::Float;
use rug::float::Constant;
use rug::ops::Pow;
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::renyi::cys21::{Cys21Params, squared_loss_exact};
use shiftdp::renyi::sampled_gaussian::{SampledGaussian, SgmOrder};
use shiftdp::renyi::ys22::Ys22Params;
use shiftdp::renyi::{Conversion, RenyiCurve, best_conversion, convert, table1_rdp_epsilon};
use shiftdp::tradeoff::Gaussian;

/// Exact ε(δ) of G(μ), certified lower end (the conversions must be ≥ it).
fn exact_gdp_eps_lower(mu: f64, delta: &Enclosure) -> f64 {
    let m = Enclosure::from_f64(128, mu);
    Gaussian::epsilon(&m, delta, Precision::Bits(128))
        .unwrap()
        .lower()
        .to_f64()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// docs/conventions.md §3: every conversion applied to the curve αμ²/2 gives ε ≥ exact
    /// ε(δ) of G(μ).
    #[test]
    fn every_conversion_at_least_exact_gdp(mu in 0.01f64..20.0, mant in 1u32..10, exp10 in 2i32..60) {
        let delta = Enclosure::parse(128, &format!("{mant}e-{exp10}")).unwrap();
        let exact = exact_gdp_eps_lower(mu, &delta);
        let curve = RenyiCurve::gaussian(mu).unwrap();
        for conv in Conversion::ALL {
            let r = convert(&curve, conv, &delta, 128).unwrap();
            prop_assert!(r.epsilon_upper() >= exact, "{:?}: {} < {}", conv, r.epsilon_upper(), exact);
        }
        let b = best_conversion(&curve, &delta, 128).unwrap();
        prop_assert!(b.best.epsilon_upper() >= exact);
        prop_assert!(b.candidates.iter().all(|c| c.epsilon_hi() >= b.best.epsilon_hi()));
    }

    /// Every conversion at every fixed order α (not only the optimized one) is ≥ exact.
    #[test]
    fn conversions_at_any_order_at_least_exact(mu in 0.05f64..8.0, alpha in 1.01f64..200.0, log10_delta in -30.0f64..-2.0) {
        let delta = 10f64.powf(log10_delta);
        let exact = exact_gdp_eps_lower(mu, &Enclosure::from_f64(128, delta));
        let ea = alpha * mu * mu / 2.0;
        for conv in [Conversion::Mironov, Conversion::Balle2020, Conversion::Asoodeh2021] {
            let a = Enclosure::from_f64(256, alpha);
            let e = Enclosure::from_f64(256, ea);
            let li = Enclosure::from_f64(256, delta).ln().neg();
            let v = conv.formula(a, e, li).upper_f64().max(0.0);
            prop_assert!(v >= exact * (1.0 - 1e-12), "{:?} α={} {} < {}", conv, alpha, v, exact);
        }
    }
}

/// Direct quadrature of ∫ p^α q^{1−α} dz at 256 bits, independent of the library's
/// method: densities (not the likelihood ratio, no cancellation-free rewriting), the
/// midpoint rule in z on a wide window (the integrand is analytic in a strip, so the
/// rule converges geometrically), step halved until two results agree to 1e-70.
fn direct_quadrature(q: f64, sigma: f64, alpha: f64, order: SgmOrder) -> Float {
    let prec = 256;
    let f = |x: f64| Float::with_val(prec, x);
    let pi = Float::with_val(prec, Constant::Pi);
    let norm = Float::with_val(prec, 2 * pi).sqrt() * f(sigma);
    let two_s2 = Float::with_val(prec, f(sigma).square() * 2u32);
    let one_m_q = Float::with_val(prec, 1 - f(q));
    let dens = |z: &Float, m: f64| -> Float {
        let d = Float::with_val(prec, z - m);
        let e = Float::with_val(prec, -(d.square()) / &two_s2);
        e.exp() / norm.clone()
    };
    let integrand = |z: &Float| -> Float {
        let p0 = dens(z, 0.0);
        let mix = Float::with_val(prec, &p0 * &one_m_q) + dens(z, 1.0) * q;
        let (p, qq) = match order {
            SgmOrder::BaseMixture => (p0, mix),
            SgmOrder::MixtureBase => (mix, p0),
        };
        if p.is_zero() || qq.is_zero() {
            return f(0.0);
        }
        let lp = p.ln();
        let lq = qq.ln();
        (lp * alpha - lq * (alpha - 1.0)).exp()
    };
    let center = match order {
        SgmOrder::BaseMixture => 0.5,
        SgmOrder::MixtureBase => 0.5 + alpha / 2.0,
    };
    let half_width = 40.0 * sigma + alpha + 2.0;
    let run = |h: f64| -> Float {
        let mut acc = f(0.0);
        let n = (half_width / h).ceil() as i64;
        for k in -n..n {
            // node computed exactly in MPFR (an f64 node would perturb the rule)
            let z = Float::with_val(prec, f(k as f64 + 0.5) * h) + center;
            acc += integrand(&z);
        }
        acc * h
    };
    let mut h = sigma * sigma / 12.0;
    let mut prev = run(h);
    loop {
        h /= 2.0;
        let cur = run(h);
        let diff = Float::with_val(prec, &cur - &prev).abs();
        let tol = Float::with_val(prec, &cur * 1e-70).abs();
        if diff <= tol || h < 1e-5 {
            return cur;
        }
        prev = cur;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    /// Issue 6: the sampled Gaussian divergence agrees with direct quadrature at 256 bits
    /// (both orders, real α).
    #[test]
    fn sampled_gaussian_agrees_with_direct_quadrature(q in 0.02f64..0.98, sigma in 0.8f64..2.5, alpha in 1.05f64..6.0) {
        let m = SampledGaussian::new(q, sigma).unwrap();
        for order in SgmOrder::BOTH {
            let d = m.divergence(order, alpha, 256).unwrap();
            let e = direct_quadrature(q, sigma, alpha, order);
            let dref = Float::with_val(256, e.ln()) / (alpha - 1.0);
            let diff = Float::with_val(256, &dref - &d.mid()).abs().to_f64();
            prop_assert!(diff <= 1e-60 * dref.to_f64().abs().max(1e-30), "{:?}: diff {:e}", order, diff);
            prop_assert!(d.rel_width() < 1e-70, "{:?}", d);
        }
    }
}

/// docs/conventions.md §7: the RDP column of BSA24 Table 1 (5.82, 7.61, 9.88), best
/// conversion.
#[test]
fn table1_rdp_column_reproduced() {
    for (e, printed) in [(50u64, 5.82), (100, 7.61), (200, 9.88)] {
        let r = table1_rdp_epsilon(e).unwrap();
        let v = r.best.epsilon_upper();
        assert!((v - printed).abs() < 0.005, "E = {e}: {v}");
        // the reported ε is the smallest of all conversions
        for c in &r.candidates {
            assert!(c.epsilon_upper() >= v);
        }
    }
}

/// Direct (non-log) evaluation of the YS22 Thm 4.3 recursion at 256 bits.
fn thm43_direct(p: &Ys22Params, alpha: f64, k: u64) -> Float {
    let prec = 256;
    let l = p.n / p.b;
    let q = Float::with_val(prec, p.b) / Float::with_val(prec, p.n);
    let f = |x: f64| Float::with_val(prec, x);
    let c = f(alpha - 1.0) * f(alpha) * f(p.eta) * f(p.s_g).square()
        / (f(p.sigma).square() * 4u32)
        / Float::with_val(prec, p.b * p.b);
    let ec = c.exp();
    let rho = Float::with_val(prec, 1 - f(p.eta) * f(p.lambda)).square();
    let one_m = Float::with_val(prec, 1 - q.clone());
    let mut s = Float::with_val(prec, 1);
    for _ in 0..(k * l) {
        let a = Float::with_val(prec, &q * &ec) * &s;
        let b = Float::with_val(prec, (&s).pow(&rho)) * &one_m;
        s = a + b;
    }
    s.ln() / (alpha - 1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Issue 6: the log-space recursion of YS22 Thm 4.3 agrees with a direct
    /// high-precision evaluation.
    #[test]
    fn ys22_log_recursion_matches_direct(alpha in 1.5f64..30.0, k in 1u64..40, sigma in 0.5f64..4.0, lb in 0usize..3) {
        let (n, b) = [(50u64, 2u64), (20, 5), (12, 4)][lb];
        let p = Ys22Params::new(sigma, 4.0, 1.0, 4.0, 0.02, n, b).unwrap();
        let r = p.thm4_3(alpha, k, 256).unwrap();
        let d = thm43_direct(&p, alpha, k);
        let diff = Float::with_val(256, &d - &r.epsilon.mid()).abs().to_f64();
        prop_assert!(diff <= 1e-60 * d.to_f64().max(1e-300), "diff {:e}", diff);
        if let Some(lim) = r.limit {
            prop_assert!(r.epsilon.upper_f64() <= lim);
        }
    }
}

/// CYS21: the bounds against the exact squared-loss instance over a grid.
#[test]
fn cys21_bounds_bracket_squared_loss_instance() {
    for &eta in &[0.02, 0.3, 0.99] {
        for &sigma in &[0.02, 1.0] {
            let p = Cys21Params::new(sigma, 4.0, 1.0, 1.0, eta, 5000).unwrap();
            for k in [1u64, 7, 50, 1000, 100_000] {
                for alpha in [1.5, 10.0, 30.0] {
                    let ex = squared_loss_exact(&p, alpha, k, 128).unwrap();
                    assert!(p.thm3_lower(alpha, k, 128).unwrap().hi() <= ex.lo());
                    assert!(ex.hi() <= p.cor2(alpha, k, 128).unwrap().lo());
                    assert!(ex.hi() <= p.cor1(alpha, k, 128).unwrap().lo());
                    // Thm 2 with the exact LSI constant (2−η)/(2σ′²) of the instance
                    let c = (2.0 - eta) / (2.0 * sigma * sigma);
                    let t2 = p.thm2(alpha, k, c, 128).unwrap();
                    assert!(
                        ex.hi() <= t2.lo(),
                        "eta={eta} sigma={sigma} k={k} alpha={alpha}: {ex:?} vs {t2:?}"
                    );
                    // the baseline is composition, valid for every K and exact at K = 1
                    let base = p.baseline(alpha, k, 128).unwrap();
                    if k == 1 {
                        assert!(ex.lo() <= base.hi() && base.lo() <= ex.hi());
                    } else {
                        assert!(ex.hi() <= base.lo());
                    }
                }
            }
        }
    }
}

/// YS22: the sampled-Gaussian baseline (q = b/n) is below the composition without
/// amplification, K·(n/b)·αηS²/(4σ′²b²) (joint convexity: S_α(q,σ) ≤ α/(2σ²)).
#[test]
fn ys22_baseline_below_unamplified_composition() {
    let p = Ys22Params::figure();
    for alpha in [10.0, 15.0, 20.0] {
        for k in [1u64, 10, 100] {
            let base = p.baseline(alpha, k, 64).unwrap().upper_f64();
            let unamp = k as f64 * 25.0 * alpha * 0.02 * 16.0 / (4.0 * 4.0 * 4.0);
            assert!(base < unamp);
            assert!(base > 0.0);
        }
    }
}
