//! The stochastic-batch bounds (BSA24 Thms 4.8–4.10, through the certified composition
//! engine) against exact mixture instances of NoisySGD on 1-D quadratics.
use shiftdp::bounds::bsa24_sgd::{SgdFamily, thm_4_8, thm_4_9};
use shiftdp::exact::{Instance, MixtureInstance, PairKind};
use shiftdp::settings::{Algorithm, RawSetting, Setting};

fn setting(n: u64, b: u64, t: u64, eta: &str, c: &str) -> Setting {
    let raw = RawSetting {
        n: Some(n.to_string()),
        batch: Some(b.to_string()),
        steps: Some(t.to_string()),
        eta: Some(eta.into()),
        noise: Some("1".into()),
        sensitivity: Some("1".into()),
        contraction: Some(c.into()),
        ..RawSetting::default()
    };
    Setting::new(Algorithm::Sgd, &raw).unwrap()
}

/// Largest ε(δ) over both pair kinds and both orders of the exact instance, plus its
/// stated error in ε (from the δ error).
fn instance_epsilon(n: u64, b: u64, t: u64, eta: f64, h: f64, delta: f64) -> f64 {
    [PairKind::OneSided, PairKind::Opposite]
        .into_iter()
        .map(|kind| {
            let inst =
                MixtureInstance::sgd(n, b, t as usize, eta, 1.0, 1.0, h, kind, 1e-9).unwrap();
            inst.epsilon_sym(delta).unwrap().value
        })
        .fold(0.0, f64::max)
}

#[test]
fn sgd_bounds_dominate_mixture_instances() {
    // c = 1 − ηh; the instance's differing gradient has norm L = 1 (sensitivity)
    for &(n, b, t, eta, h) in &[
        (20u64, 4u64, 12u64, 0.5f64, 0.2f64),
        (50, 5, 30, 0.5, 0.1),
        (10, 5, 20, 1.0, 0.5),
    ] {
        let c = format!("{}", 1.0 - eta * h);
        let s = setting(n, b, t, &eta.to_string(), &c);
        for delta in [1e-3, 1e-6] {
            let inst = instance_epsilon(n, b, t, eta, h, delta);
            let d = shiftdp::precision::Enclosure::parse(64, &format!("{delta:e}")).unwrap();
            for bound in [thm_4_8(&s).unwrap(), thm_4_9(&s).unwrap()] {
                let (e, tau) = bound
                    .epsilon_with_tau(&d, shiftdp::precision::Precision::F64)
                    .unwrap();
                let eb = e.enclosure.upper_f64();
                assert!(
                    eb >= inst - 1e-9,
                    "{} (τ = {tau:?}) ε = {eb} below the exact instance's {inst} at n={n} b={b} t={t} η={eta} h={h} δ={delta}",
                    bound.id()
                );
            }
        }
    }
}

#[test]
fn thm_4_9_every_admissible_tau_dominates_the_instance() {
    // a valid bound for *every* τ, not only the optimized one
    let (n, b, t, eta, h) = (20u64, 5u64, 10u64, 0.5f64, 0.4f64);
    let fam = SgdFamily::StronglyConvex {
        p: b as f64 / n as f64,
        u: 1.0 / b as f64,
        c: 1.0 - eta * h,
        t,
    };
    let inst = instance_epsilon(n, b, t, eta, h, 1e-4);
    for tau in fam.taus() {
        let (_, up) = fam.epsilon_at(tau, 1e-4).unwrap();
        assert!(up >= inst - 1e-9, "τ = {tau}: {up} < {inst}");
    }
}
