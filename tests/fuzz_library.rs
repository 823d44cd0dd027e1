//! Fuzzing the public library functions: each entry point, fed values at and
//! beyond every boundary — 0, negative, subnormal, huge, ±inf, NaN, malformed decimals —
//! returns `Ok` with no NaN in the reported ends, or an `Err`; never a panic (proptest
//! turns a panic into a failure with the minimal input). The command line and the Python
//! API have their own fuzzers (`cli/tests/fuzz_cli.rs`, `python/tests/test_fuzz.py`).
use proptest::prelude::*;
use shiftdp::composition::{Component, Composition, Target};
use shiftdp::tradeoff::{ApproxDp, Gaussian, PiecewiseLinear, SubsampledGaussian};
use shiftdp::{Algorithm, Enclosure, Precision, Query, Setting, analyze};

/// Plausible values most of the time, extreme ones otherwise.
fn real(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => lo..hi,
        1 => prop::sample::select(vec![
            0.0, -0.0, -1.0, 5e-324, 1e-310, 1e-300, 1e300, f64::MAX, f64::INFINITY,
            f64::NEG_INFINITY, f64::NAN, 1.0, 0.5, 2.0,
        ]),
    ]
}

/// Decimal text as a user would type it, or a malformed one.
fn text(lo: f64, hi: f64) -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (lo..hi).prop_map(|x| format!("{x}")),
        1 => prop::sample::select(vec![
            "0", "-1", "1e400", "-1e400", "1e-400", "nan", "inf", "", "abc", "1.2.3", "5e-324",
            "18446744073709551616", "0x10", " 1", "1e", "∞",
        ])
        .prop_map(String::from),
    ]
}

fn no_nan(lo: f64, hi: f64) -> bool {
    !lo.is_nan() && !hi.is_nan()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn gdp_conversions(mu in real(1e-3, 50.0), d in real(1e-20, 0.5), e in real(0.0, 30.0),
                       bits in prop::sample::select(vec![None, Some(64u32), Some(300), Some(10), Some(40000)])) {
        let prec = match bits {
            None => Precision::F64,
            Some(b) => match Precision::from_bits(Some(u64::from(b))) {
                Ok(p) => p,
                Err(_) => return Ok(()),
            },
        };
        let (m, dd, ee) = (Enclosure::from_f64(64, mu), Enclosure::from_f64(64, d), Enclosure::from_f64(64, e));
        if let Ok(c) = Gaussian::epsilon(&m, &dd, prec) {
            prop_assert!(no_nan(c.enclosure.lower_f64(), c.enclosure.upper_f64()));
            prop_assert!(c.enclosure.upper_f64() >= 0.0);
        }
        if let Ok(c) = Gaussian::delta(&m, &ee, prec) {
            prop_assert!(no_nan(c.enclosure.lower_f64(), c.enclosure.upper_f64()));
        }
        let _ = Gaussian::new(mu);
    }

    #[test]
    fn tradeoff_constructors(p in real(0.0, 1.0), mu in real(0.0, 5.0), e in real(0.0, 5.0), d in real(0.0, 1.0),
                             verts in prop::collection::vec((real(0.0, 1.0), real(0.0, 1.0)), 0..6)) {
        if let Ok(s) = SubsampledGaussian::new(p, mu)
            && let Ok(c) = s.delta(e, 64)
        {
            prop_assert!(no_nan(c.enclosure.lower_f64(), c.enclosure.upper_f64()));
        }
        if let Ok(a) = ApproxDp::new(e, d) {
            let _ = a.to_piecewise();
        }
        if let Ok(f) = PiecewiseLinear::from_vertices(verts) {
            let _ = f.inverse();
            let _ = f.symmetrize();
        }
    }

    #[test]
    fn settings_and_analysis(alg in prop::sample::select(vec![Algorithm::Gd, Algorithm::Cgd, Algorithm::Lmc]),
                             n in text(1.0, 40.0), steps in text(1.0, 60.0), eta in text(1e-3, 1.0),
                             noise in text(0.2, 5.0), l in text(0.01, 2.0), c in text(0.0, 1.0),
                             dia in text(0.01, 5.0), delta in text(1e-12, 1e-2),
                             use_c in any::<bool>(), use_d in any::<bool>()) {
        let n = if alg == Algorithm::Cgd { n } else { n.split('.').next().unwrap_or("").to_string() };
        let mut pairs: Vec<(&str, &str)> = vec![
            ("n", &n), ("steps", &steps), ("eta", &eta), ("sensitivity", &l),
        ];
        if alg != Algorithm::Lmc {
            pairs.push(("noise", &noise));
        }
        if alg == Algorithm::Cgd {
            pairs.push(("batch", "1"));
        }
        if use_c {
            pairs.push(("contraction", &c));
        }
        if use_d {
            pairs.push(("diameter", &dia));
        }
        let Ok(s) = Setting::from_pairs(alg, &pairs) else { return Ok(()) };
        let Ok(q) = Query::epsilon_at(&delta) else { return Ok(()) };
        if let Ok(a) = analyze(&s, &q, Precision::F64)
            && let Some(best) = a.best()
        {
            let _ = format!("{best:?}");
        }
    }
}

proptest! {
    // compositions are the expensive entry point: fewer cases, short runs (the engine's
    // own property tests and the long validation run cover it at length)
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn compositions(parts in prop::collection::vec((0u8..3, real(1e-3, 0.3), real(0.05, 2.0), 0u64..40), 0..3),
                    d in real(1e-30, 0.5), e in real(0.0, 8.0), tol in real(1e-4, 1e-2),
                    by_delta in any::<bool>()) {
        let mut c = Composition::new();
        for (kind, p, mu, k) in parts {
            let comp = match kind {
                0 => Component::gaussian(mu),
                1 => Component::subsampled(p, mu),
                _ => Component::poisson(p, mu),
            };
            match comp.and_then(|x| c.clone().with(x, k)) {
                Ok(next) => c = next,
                Err(_) => return Ok(()),
            }
        }
        let target = if by_delta { Target::Delta(d) } else { Target::Epsilon(e) };
        if let Ok(a) = c.answer(target, tol, None) {
            prop_assert!(no_nan(a.interval.lower, a.interval.upper));
            prop_assert!(a.interval.lower <= a.interval.upper);
        }
    }
}
