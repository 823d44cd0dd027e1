//! Property tests of the foundation: validity of every produced tradeoff function,
//! ε(δ) ↔ δ(ε), GDP composition, f64 vs MPFR, conversions never below 512-bit values.
mod common;

use proptest::prelude::*;
use rug::Float;
use shiftdp::precision::{Enclosure, Precision, special};
use shiftdp::tradeoff::{
    ApproxDp, Gaussian, PiecewiseLinear, SubsampledGaussian, Tradeoff, check_tradeoff_laws,
};

fn eps_at(mu: f64, delta: &str, prec: Precision) -> shiftdp::tradeoff::Certified {
    let b = prec.mpfr_bits().max(64);
    Gaussian::epsilon(
        &Enclosure::from_f64(b, mu),
        &Enclosure::parse(b, delta).unwrap(),
        prec,
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn produced_tradeoff_functions_are_valid(mu in common::mu(), p in common::prob(), e in 0.0f64..5.0, d in 0.0f64..0.5) {
        let g = Gaussian::new(mu).unwrap();
        prop_assert!(check_tradeoff_laws(&g, 200).is_ok());
        let c = SubsampledGaussian::new(p, mu.min(8.0)).unwrap();
        prop_assert!(check_tradeoff_laws(&c, 200).is_ok(), "{:?}", check_tradeoff_laws(&c, 200));
        let f = ApproxDp::new(e, d).unwrap();
        prop_assert!(check_tradeoff_laws(&f, 200).is_ok());
        let pw = f.to_piecewise();
        prop_assert!(check_tradeoff_laws(&pw.subsample(p).unwrap(), 200).is_ok());
        prop_assert!(check_tradeoff_laws(&pw.symmetrize(), 200).is_ok());
        prop_assert!(check_tradeoff_laws(&pw.inverse(), 200).is_ok());
    }

    #[test]
    fn subsampled_gaussian_is_symmetric_and_between_g_and_id(mu in 0.05f64..6.0, p in common::prob()) {
        let c = SubsampledGaussian::new(p, mu).unwrap();
        let g = Gaussian::new(mu).unwrap();
        for i in 1..40 {
            let a = i as f64 / 40.0;
            let v = c.eval(a);
            prop_assert!(g.eval(a) <= v + 1e-12 && v <= 1.0 - a + 1e-12);
            // symmetry: C(C(α)) = α
            prop_assert!((c.eval(v) - a).abs() < 1e-7, "a={} v={} back={}", a, v, c.eval(v));
        }
    }

    #[test]
    fn epsilon_delta_inverse_and_monotone(mu in 0.05f64..20.0, de in common::delta_exp()) {
        let ds = common::delta_string(de);
        let c = eps_at(mu, &ds, Precision::Bits(128));
        // δ at the reported ε is ≤ δ, at the lower end ≥ δ (inverse, certified both ways)
        let up = Gaussian::delta(&Enclosure::from_f64(128, mu), &Enclosure::from_float(c.upper()), Precision::Bits(128)).unwrap();
        let target = Enclosure::parse(128, &ds).unwrap();
        prop_assert!(up.upper() <= target.hi());
        if !c.lower().is_zero() {
            let lo = Gaussian::delta(&Enclosure::from_f64(128, mu), &Enclosure::from_float(c.lower()), Precision::Bits(128)).unwrap();
            prop_assert!(lo.lower() >= target.lo());
        }
        // monotone: larger μ ⇒ larger ε; smaller δ ⇒ larger ε
        let c2 = eps_at(mu * 1.1, &ds, Precision::Bits(128));
        prop_assert!(c2.upper() >= c.upper());
        let c3 = eps_at(mu, &common::delta_string((de.0, de.1 + 1)), Precision::Bits(128));
        prop_assert!(c3.upper() >= c.upper());
    }

    #[test]
    fn gdp_composition_matches_privacy_loss_quadrature(m1 in 0.1f64..3.0, m2 in 0.1f64..3.0, e in 0.0f64..4.0) {
        // Independent: the privacy loss of G(μ1)⊗G(μ2) is the sum of independent
        // N(μᵢ²/2, μᵢ²); δ(ε) = E[(1 − e^{ε−L})₊], integrated numerically here.
        let s2 = m1 * m1 + m2 * m2;
        let (m, s) = (s2 / 2.0, s2.sqrt());
        let n = 20000;
        let (lo, hi) = (e, m + 12.0 * s);
        let h = (hi - lo) / n as f64;
        let mut acc = 0.0;
        for i in 0..=n {
            let l = lo + i as f64 * h;
            let w = if i == 0 || i == n { 1.0 } else if i % 2 == 1 { 4.0 } else { 2.0 };
            let dens = (-(l - m) * (l - m) / (2.0 * s2)).exp() / (s * (2.0 * std::f64::consts::PI).sqrt());
            acc += w * dens * (1.0 - (e - l).exp());
        }
        let quad = acc * h / 3.0;
        let g = Gaussian::new(m1).unwrap().compose(&Gaussian::new(m2).unwrap());
        let d = g.delta_up(e).unwrap();
        prop_assert!((d - quad).abs() < 1e-8 + 1e-6 * quad, "{} vs {}", d, quad);
        // the composed μ is rounded up: at least the exact √(μ₁² + μ₂²) (computed
        // at 256 bits: the squares and their sum are exact, the root within 2⁻²⁵⁶
        // relative, far below the f64 rounding up; the f64 `s` above may lie an ulp or
        // two above the exact value, so it is not the reference)
        let exact = (Float::with_val(256, m1).square() + Float::with_val(256, m2).square()).sqrt();
        prop_assert!(Float::with_val(256, g.mu()) >= exact, "{} < {}", g.mu(), exact);
    }

    #[test]
    fn f64_path_agrees_with_mpfr_and_is_never_below(mu in 0.05f64..30.0, de in (1.0f64..9.99, 1i32..250)) {
        let ds = common::delta_string(de);
        let f = eps_at(mu, &ds, Precision::F64);
        let hp = eps_at(mu, &ds, Precision::Bits(512));
        prop_assert!(f.upper() >= hp.lower(), "f64 {} below 512-bit {}", f.upper(), hp.lower());
        let truth = Float::with_val(512, hp.upper());
        if !truth.is_zero() {
            let rel = (Float::with_val(512, f.upper() - &truth) / &truth).abs().to_f64();
            let stated = if f.path == shiftdp::tradeoff::Path::F64 { 1e-11 } else { 1e-17 };
            prop_assert!(rel <= stated, "rel {} on path {:?}", rel, f.path);
        }
    }

    #[test]
    fn any_precision_is_never_below_512_bits(mu in 0.05f64..20.0, de in common::delta_exp(), bits in common::bits()) {
        let ds = common::delta_string(de);
        let c = eps_at(mu, &ds, Precision::Bits(bits));
        let hp = eps_at(mu, &ds, Precision::Bits(512));
        prop_assert!(c.upper() >= hp.lower());
        prop_assert!(c.lower() <= hp.upper());
    }

    #[test]
    fn piecewise_epsilon_is_upper_bound_of_delta(mu in 0.1f64..5.0, d in 1e-8f64..0.2) {
        // tangent lines of G(μ) give a curve below G(μ): its ε(δ) must be ≥ the exact one
        let g = Gaussian::new(mu).unwrap();
        let alphas: Vec<f64> = (1..400).map(|i| special::phi(-9.0 + 18.0 * i as f64 / 400.0)).collect();
        let vals: Vec<f64> = alphas.iter().map(|&a| g.eval_down(a)).collect();
        let slopes: Vec<f64> = alphas.iter().map(|&a| g.slope(a)).collect();
        let pw = PiecewiseLinear::from_tangents(&alphas, &vals, &slopes).unwrap();
        let e_pw = pw.epsilon_up(d).unwrap();
        let exact = eps_at(mu, &format!("{d:e}"), Precision::Bits(128));
        prop_assert!(e_pw >= exact.lower().to_f64() - 1e-12, "{} < {}", e_pw, exact.lower());
        for i in 1..50 {
            let a = i as f64 / 50.0;
            prop_assert!(pw.eval(a) <= g.eval(a) + 1e-9);
        }
    }
}
