//! δ(ε) and ε(δ) of G(μ) across MPFR's and f64's exponent limits.
//!
//! The truth is known from the mathematics: `δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) > 0`
//! for every finite ε when μ > 0 (DRS22 Cor 1), so a certified upper end must be > 0
//! (in MPFR and after conversion to f64), never NaN, and at least the lower end.
//!
//! An independent log-domain bracket checks the reported exponent. With
//! `x = ε/μ − μ/2 > 0` and `φ` the standard normal density, Mills' inequalities
//! `φ(x)·x/(1 + x²) ≤ Φ(−x) ≤ φ(x)/x` and the identity `e^ε φ(x + μ) = φ(x)` give
//!
//! * `ln δ ≤ −x²/2 − ln x − ln√(2π)`,
//! * `ln δ ≥ −x²/2 − ln√(2π) + ln(xμ − 1) − ln(1 + x²) − ln(x + μ)` when `xμ > 1`.
//!
//! Both are evaluated here in MPFR at 256 bits with round-to-nearest, far from the
//! engine's code, and compared with slack that is tiny relative to the exponents.
use rug::Float;
use rug::float::Constant;
use shiftdp::precision::rounding::min_positive;
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::tradeoff::Gaussian;

const P: u32 = 256;

fn f(x: f64) -> Float {
    Float::with_val(P, x)
}

/// `(lower, upper)` bounds on `ln δ(ε)` of G(μ) (lower = −∞ where Mills' lower bound is
/// void), or None when `x ≤ 0` (δ is then not small: no asymptotic needed).
fn ln_delta_bracket(mu: &Float, eps: &Float) -> Option<(Float, Float)> {
    let x = Float::with_val(P, eps / mu) - Float::with_val(P, mu / 2u32);
    if x <= 0 {
        return None;
    }
    let ln_sqrt_2pi = Float::with_val(P, Float::with_val(P, Constant::Pi) * 2u32).ln() / 2u32;
    let half_sq = Float::with_val(P, x.square_ref()) / 2u32;
    let upper = -half_sq.clone() - Float::with_val(P, x.ln_ref()) - &ln_sqrt_2pi;
    let xmu = Float::with_val(P, &x * mu);
    let lower = if xmu > 1.001 {
        let one_x2 = Float::with_val(P, x.square_ref()) + 1u32;
        -half_sq - &ln_sqrt_2pi + Float::with_val(P, xmu - 1u32).ln()
            - one_x2.ln()
            - Float::with_val(P, &x + mu).ln()
    } else {
        Float::with_val(P, rug::float::Special::NegInfinity)
    };
    Some((lower, upper))
}

/// ε at which Mills' upper bound on ln δ equals `l` (`x²/2 + ln(x√(2π)) = −l`, solved
/// by fixed-point iteration), for a given μ.
fn eps_where_ln_delta_is(mu: f64, l: f64) -> f64 {
    let mut x = (-2.0 * l).sqrt();
    for _ in 0..50 {
        x = (2.0 * (-l - (x * (2.0 * std::f64::consts::PI).sqrt()).ln())).sqrt();
    }
    mu * (x + mu / 2.0)
}

fn ln_min_positive() -> Float {
    Float::with_val(P, min_positive(P).ln_ref())
}

fn check_delta(mu: f64, eps: f64, prec: Precision) {
    let m = Enclosure::from_f64(P, mu);
    let e = Enclosure::from_f64(P, eps);
    let c = Gaussian::delta(&m, &e, prec)
        .unwrap_or_else(|err| panic!("δ(ε) of G({mu:e}) at ε = {eps:e}, {prec:?}: {err}"));
    let (lo, hi) = (c.lower().clone(), c.upper().clone());
    let at = format!("μ = {mu:e}, ε = {eps:e}, {prec:?}: [{lo}, {hi}]");
    assert!(!lo.is_nan() && !hi.is_nan(), "NaN at {at}");
    assert!(hi > 0, "upper end not > 0 at {at}");
    assert!(lo >= 0 && lo <= hi, "ends out of order at {at}");
    let (lf, hf) = (c.enclosure.lower_f64(), c.enclosure.upper_f64());
    assert!(
        hf > 0.0 && hf.is_finite() && lf <= hf,
        "f64 ends [{lf}, {hf}] at {at}"
    );
    if hi < 5e-324 {
        assert_eq!(hf, 5e-324, "f64 upper end at {at}");
    }
    let Some((l_lo, l_hi)) = ln_delta_bracket(&f(mu), &f(eps)) else {
        return;
    };
    let ln_hi = Float::with_val(P, hi.ln_ref());
    let slack = |v: &Float| Float::with_val(P, v.abs_ref()) * 1e-9 + 1e-6;
    let floor = ln_min_positive();
    if l_hi < floor {
        // truth below MPFR's range: the smallest positive number, exactly
        assert_eq!(
            hi,
            min_positive(P),
            "not the smallest positive number at {at}"
        );
    } else {
        // the reported upper end is at most Mills' upper bound (up to the enclosure width)
        assert!(
            ln_hi <= Float::with_val(P, &l_hi + slack(&l_hi)),
            "ln upper {ln_hi} above Mills' bound {l_hi} at {at}"
        );
    }
    if l_lo.is_finite() && l_lo > floor {
        assert!(
            ln_hi >= Float::with_val(P, &l_lo - slack(&l_lo)),
            "ln upper {ln_hi} below Mills' lower bound {l_lo}: not an upper bound at {at}"
        );
    }
}

#[test]
fn delta_upper_end_is_positive_and_bracketed_across_the_exponent_range() {
    let mus = [
        5e-324, 1e-300, 1e-10, 1e-3, 0.5, 1.0, 3.0, 1e3, 1e100, 1e300,
    ];
    let epss = [0.0, 1.0, 100.0, 38_600.0, 1e6, 1e9, 1e100, 1e300];
    for &mu in &mus {
        for &eps in &epss {
            for prec in [Precision::F64, Precision::Bits(53), Precision::Bits(256)] {
                check_delta(mu, eps, prec);
            }
        }
    }
    check_delta(1.0, 38_600.0, Precision::Bits(1024));
    check_delta(0.001, 100.0, Precision::Bits(1024));
}

#[test]
fn delta_around_f64_and_mpfr_underflow_thresholds() {
    let ln_emin = ln_min_positive().to_f64();
    let targets = [(1e-308f64).ln(), (5e-324f64).ln(), -2000.0, -1e6, ln_emin];
    for &mu in &[0.3, 1.0, 7.0] {
        for &l in &targets {
            let e0 = eps_where_ln_delta_is(mu, l);
            for scale in [0.999, 0.99999, 1.0, 1.00001, 1.001] {
                for prec in [Precision::F64, Precision::Bits(64), Precision::Bits(200)] {
                    check_delta(mu, e0 * scale, prec);
                }
            }
        }
    }
}

#[test]
fn epsilon_of_tiny_delta_is_finite_and_an_upper_bound() {
    for &mu in &[5e-324, 1e-10, 0.5, 1.0, 20.0] {
        for d in [
            "5e-324",
            "1e-308",
            "1e-1000",
            "1e-300000000",
            "3e-323228496",
        ] {
            for prec in [Precision::F64, Precision::Bits(128)] {
                let m = Enclosure::from_f64(P, mu);
                let delta = Enclosure::parse(P, d).unwrap();
                let c = Gaussian::epsilon(&m, &delta, prec)
                    .unwrap_or_else(|e| panic!("ε(δ) of G({mu:e}) at δ = {d}, {prec:?}: {e}"));
                let (lo, hi) = (c.lower().clone(), c.upper().clone());
                let at = format!("μ = {mu:e}, δ = {d}, {prec:?}: [{lo}, {hi}]");
                assert!(hi.is_finite() && lo >= 0 && lo <= hi, "{at}");
                assert!(c.enclosure.upper_f64().is_finite(), "{at}");
                // δ(ε_upper) ≤ δ: Mills' lower bound on ln δ(ε_upper) is at most ln δ
                if let Some((l_lo, _)) = ln_delta_bracket(&f(mu), &hi) {
                    let ln_d = Float::with_val(P, delta.hi().ln_ref());
                    assert!(
                        l_lo <= Float::with_val(P, ln_d.clone().abs() * 1e-9) + &ln_d + 1e-6,
                        "δ(ε_upper) > δ by Mills at {at}: {l_lo} > {ln_d}"
                    );
                }
            }
        }
    }
}

#[test]
fn half_of_the_smallest_positive_number_keeps_a_positive_upper_end() {
    let m = Enclosure::from_float(&min_positive(64));
    let h = m.half();
    assert!(h.lo().is_zero() && h.hi() == &min_positive(64));
    // Φ below MPFR's range: upper end 2^(emin−1), lower end 0
    let p = Enclosure::from_f64(64, -1e5).phi();
    assert!(p.lo().is_zero() && p.hi() == &min_positive(64), "{p:?}");
    assert_eq!(p.upper_f64(), 5e-324);
    assert_eq!(p.lower_f64(), 0.0);
}

#[test]
fn renyi_conversions_stay_finite_where_e_to_the_x_overflows() {
    use shiftdp::renyi::{Conversion, RenyiCurve, convert};
    // G(1e9): (α − 1)ε_α ≈ μ√(2 ln(1/δ))/2 ≈ 2.4e9 at the optimal order, beyond e^x's range
    let mu = 1e9;
    let curve = RenyiCurve::gaussian(mu).unwrap();
    let delta = Enclosure::parse(128, "1e-5").unwrap();
    let exact = Gaussian::epsilon(&Enclosure::from_f64(128, mu), &delta, Precision::Bits(128))
        .expect("ε(δ) of G(1e9) from Mills' bracket");
    for conv in Conversion::ALL {
        let c = convert(&curve, conv, &delta, 128)
            .unwrap_or_else(|e| panic!("{conv:?} on G(1e9): {e}"));
        let up = c.epsilon_upper();
        // each conversion is an upper bound on the exact ε(δ) of G(μ)
        // (docs/conventions.md §3)
        assert!(
            up.is_finite() && up >= exact.enclosure.lower_f64(),
            "{conv:?}: {up}"
        );
        // and ε ≤ μ²/2 + μ√(2 ln(1/δ)) + 1 (Bun–Steinke's value, with slack)
        let bs = mu * mu / 2.0 + mu * (2.0 * 1e5f64.ln()).sqrt() * 1.01;
        assert!(up <= bs * 1.01, "{conv:?}: {up} > {bs}");
    }
}

#[test]
fn subsampled_gaussian_delta_beyond_e_to_the_epsilon_range_is_positive() {
    use shiftdp::tradeoff::SubsampledGaussian;
    let g = SubsampledGaussian::new(0.01, 1.0).unwrap();
    for eps in [800.0, 1e9, 1e300] {
        let c = g
            .delta(eps, 64)
            .unwrap_or_else(|e| panic!("ε = {eps:e}: {e}"));
        assert!(
            c.upper() > &0 && c.lower() <= c.upper(),
            "ε = {eps:e}: {c:?}"
        );
        assert!(c.enclosure.upper_f64() > 0.0, "ε = {eps:e}");
    }
}

#[test]
fn approx_dp_at_alpha_zero_is_one_minus_delta_for_every_epsilon() {
    use shiftdp::tradeoff::{ApproxDp, Tradeoff};
    for eps in [0.0, 1.0, 709.0, 710.0, 1e300] {
        let f = ApproxDp::new(eps, 0.25).unwrap();
        // f_{ε,δ}(0) = max{0, 1 − δ, e^{−ε}(1 − δ)} = 1 − δ
        assert_eq!(f.eval(0.0), 0.75, "ε = {eps:e}");
        let (lo, hi) = f.eval_bounds(0.0);
        assert!(lo <= 0.75 && 0.75 <= hi, "ε = {eps:e}");
        assert!(!f.eval(1e-300).is_nan(), "ε = {eps:e}");
    }
}

#[test]
fn to_f64_conversions_follow_the_rule_at_both_ends() {
    use rug::float::Special;
    let tiny = Enclosure::new(Float::with_val(64, 0), min_positive(64)).unwrap();
    assert_eq!((tiny.lower_f64(), tiny.upper_f64()), (0.0, 5e-324));
    // a number above f64::MAX: lower end the largest finite f64, upper end +∞
    let huge = Enclosure::parse(64, "1e400").unwrap();
    assert_eq!(huge.lower_f64(), f64::MAX);
    assert_eq!(huge.upper_f64(), f64::INFINITY);
    // MPFR's own overflow: the lower end stays finite (largest MPFR number)
    let big = Enclosure::from_f64(64, 1e300).exp();
    assert!(big.lo().is_finite() && big.hi().is_infinite(), "{big:?}");
    assert_eq!(big.hi(), &Float::with_val(64, Special::Infinity));
}
