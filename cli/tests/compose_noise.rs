//! `shiftdp compose` reads a Gaussian component's noise as μ (`MU`, `mu=M`) or as a
//! noise multiplier (`sigma=S`): the σ spelling is μ = s/σ rounded up, a bare μ is
//! echoed with its σ, and a count written without `x` is pointed out.
use serde_json::Value;

mod common;
use common::{run, words};

fn answer(args: &[&str]) -> Value {
    let mut all = vec!["compose"];
    all.extend_from_slice(args);
    all.extend(["--delta", "1e-5", "--json"]);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str::<Value>(&out).unwrap()
}

fn epsilon(args: &[&str]) -> Value {
    answer(args)["epsilon"].clone()
}

#[test]
fn sigma_is_mu_rounded_up() {
    // 1/1.1 rounded to nearest is below the exact 1/1.1: the sigma spelling composes a
    // μ at or above the exact quotient — the text 1.1 read down to the double below it,
    // then 1/σ rounded up, so at most two doubles above the nearest — never the nearest
    // (the certified ends of two μ one ulp apart need not be ordered: each bounds its
    // own ε, up to the grid's rounding, so the μ composed is what is checked)
    let mu_near = 1.0f64 / 1.1;
    let mu_up = f64::from_bits(mu_near.to_bits() + 1);
    let by_sigma = answer(&["--poisson-gaussian", "0.01", "sigma=1.1", "x300"]);
    let composed = by_sigma["composition"].as_str().unwrap();
    let mu: f64 = composed
        .split("G(")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("no μ in {composed}"));
    assert!(
        mu >= mu_up && mu.to_bits() <= mu_up.to_bits() + 1,
        "{composed}"
    );
    // the decimal text of the double above the nearest, read upward, is that μ too
    let by_mu = answer(&[
        "--poisson-gaussian",
        "0.01",
        &format!("mu={mu_up:?}"),
        "x300",
    ]);
    assert_eq!(by_sigma["epsilon"], by_mu["epsilon"]);
    assert_eq!(by_sigma["composition"], by_mu["composition"]);
    // an exact quotient is not stepped: sigma=2 for the replace-one C_p is μ = 2/2 = 1
    assert_eq!(
        epsilon(&["--subsampled-gaussian", "0.01", "sigma=2", "x100"]),
        epsilon(&["--subsampled-gaussian", "0.01", "1", "x100"])
    );
    assert_eq!(
        epsilon(&["--gaussian", "noise-multiplier=0.5x4"]),
        epsilon(&["--gaussian", "2", "x4"])
    );
}

#[test]
fn a_bare_mu_is_echoed_as_sigma_and_a_bare_count_is_pointed_out() {
    let (code, out, _) = run(&words(
        "compose --poisson-gaussian 0.01 1.25 x100 --delta 1e-5",
    ));
    assert_eq!(code, 0);
    assert!(out.contains("noise multiplier σ = 1/μ ≈ 0.800000"), "{out}");
    let (code, _, err) = run(&words(
        "compose --poisson-gaussian 0.01 1.1 10000 --delta 1e-5",
    ));
    assert_eq!(code, 2);
    assert!(err.contains("written x10000"), "{err}");
    let (code, _, err) = run(&words(
        "compose --poisson-gaussian 0.01 sigma=0 --delta 1e-5",
    ));
    assert_eq!(code, 2);
    assert!(err.contains("noise multiplier"), "{err}");
}
