//! `shiftdp delta` beyond MPFR's exponent range: the true δ(ε) of G(μ) is positive for
//! every finite ε (DRS22 Cor 1), so the certified upper end printed in text and JSON is
//! a positive decimal (the smallest positive MPFR number, 2^(emin−1)), never "0".
use rug::Float;
use serde_json::Value;

mod common;
use common::run;

/// `ln δ ≤ −x²/2 − ln x − ln√(2π)` with `x = ε/μ − μ/2` (Mills' inequality), in nats.
fn mills_ln_upper(mu: f64, eps: f64) -> f64 {
    let x = eps / mu - mu / 2.0;
    -x * x / 2.0 - x.ln() - (2.0 * std::f64::consts::PI).sqrt().ln()
}

#[test]
fn delta_below_mpfr_range_is_a_positive_upper_bound_in_text_and_json() {
    // 2^(emin−1) with MPFR's default emin = 1 − 2³⁰, as a decimal exponent
    let emin_log10 = -((1u64 << 30) as f64) * std::f64::consts::LOG10_2;
    for (mu, eps, bits) in [
        ("1", "38600", None),
        ("1", "38600", Some("256")),
        ("0.001", "100", None),
        ("5e-324", "1", None),
    ] {
        let mut args = vec!["delta", "--mu", mu, "--epsilon", eps];
        if let Some(b) = bits {
            args.extend(["--bits", b]);
        }
        // the truth is below 2^(emin−1): the rule's answer is that number
        assert!(
            mills_ln_upper(mu.parse().unwrap(), eps.parse().unwrap()) / std::f64::consts::LN_10
                < emin_log10
        );
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!out.contains("δ ≤ 0 "), "{args:?}: {out}");
        args.push("--json");
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let v: Value = serde_json::from_str(&out).expect("one JSON object");
        let upper = v["delta"]["upper"].as_str().unwrap();
        let lower = v["delta"]["lower"].as_str().unwrap();
        let up = Float::with_val(64, Float::parse(upper).unwrap());
        let lo = Float::with_val(64, Float::parse(lower).unwrap());
        assert!(up > 0 && lo <= up, "{args:?}: [{lower}, {upper}]");
        // the decimal is the smallest positive MPFR number rounded up: 10^(emin_log10) order
        let e10 = up.clone().log10().to_f64();
        assert!((e10 - emin_log10).abs() < 1.5, "{args:?}: {upper}");
        assert!(out.contains(&format!("\"upper\": \"{upper}\"")), "{out}");
    }
}

/// ε(δ) of G(μ) for μ so large that e^ε leaves MPFR's range (ε ≈ μ²/2 ≈ 5e9).
/// With `x = ε/μ − μ/2`, `δ(ε) = Φ(−x) − φ(x)R(x + μ)` lies in
/// `[Φ(−x) − φ(x)/(x + μ), Φ(−x)]`; `Φ(−4.3) ≈ 8.5e-6 < 1e-5` and
/// `Φ(−4.2) − φ(4.2)/1e5 ≈ 1.33e-5 > 1e-5`, so the true ε lies in
/// `[μ²/2 + 4.2μ, μ²/2 + 4.3μ]`.
#[test]
fn epsilon_beyond_e_to_the_epsilon_range_is_bracketed() {
    let (code, out, err) = run(&["epsilon", "--mu", "1e5", "--delta", "1e-5", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    let eps = &v["epsilon"];
    let up: f64 = eps["upper"].as_str().unwrap().parse().unwrap();
    let lo: f64 = eps["lower"].as_str().unwrap().parse().unwrap();
    let (mu, half) = (1e5, 5e9);
    assert!(up >= half + 4.2 * mu && up <= half + 4.3 * mu, "{out}");
    assert!(lo <= up && lo >= half + 4.2 * mu, "{out}");
}
