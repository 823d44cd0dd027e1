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

/// A setting of NoisySGD with σ = 1, L = 1 and no convexity.
fn plain(n: u64, b: u64, t: u64, noise: &str) -> Setting {
    Setting::from_pairs(
        Algorithm::Sgd,
        &[
            ("n", &n.to_string()),
            ("batch", &b.to_string()),
            ("steps", &t.to_string()),
            ("eta", "1"),
            ("noise", noise),
            ("sensitivity", "1"),
        ],
    )
    .unwrap()
}

#[test]
fn thm_4_8_reports_the_tighter_of_its_evaluation_and_the_certified_composition() {
    use shiftdp::analysis::{Query, Scope, analyze_scope};
    use shiftdp::composition::{Component, Composition, Target};
    use shiftdp::precision::Precision;
    use shiftdp::provenance::ResultId;
    // C_0.01(G(0.2))^⊗10 and C_0.01(G(0.01))^⊗100: the engine's default grid is 1.7×
    // and 4× looser than the refined composition `shiftdp compose` certifies
    for (n, t, noise, u) in [(100u64, 10u64, "5", 0.2), (1000, 100, "100", 0.01)] {
        let s = plain(n, 1, t, noise);
        let q = Query::epsilon_at("1e-5").unwrap();
        let a = analyze_scope(&s, &q, Precision::F64, Scope::Bsa24).unwrap();
        let e = a.entry(ResultId::Bsa24Thm4_8).unwrap();
        let ans = e.answer().unwrap();
        let c = ans
            .composition
            .as_ref()
            .expect("a composed bound carries the check");
        // the independent computation: the same composition answered by the engine
        let p = 1.0 / n as f64;
        let direct = Composition::new()
            .with(Component::subsampled(p, u).unwrap(), t)
            .unwrap()
            .answer(Target::Delta(1e-5), 5e-4, None)
            .unwrap()
            .interval;
        let comp = c.composition.as_ref().unwrap();
        assert!((comp.upper_f64() - direct.upper).abs() <= 1e-12 * direct.upper);
        let theorem = c.theorem.upper_f64();
        let reported = e.upper_f64().unwrap();
        assert_eq!(c.composition_tighter, direct.upper < theorem);
        assert_eq!(
            reported,
            theorem.min(comp.upper_f64()),
            "the tighter is reported"
        );
        assert!(
            c.composition_tighter,
            "n = {n}: {theorem} vs {}",
            direct.upper
        );
        assert!(reported >= direct.lower, "a certified upper bound");
    }
}

#[test]
fn thm_4_8_at_full_batches_is_the_gaussian_closed_form() {
    // p = 1: C_1(G(u))^⊗t = G(√t·u) exactly (DRS22 Cor 3.3); ε(δ) of G(1) at δ = 1e-5
    // is 4.377178095681… (DRS22 Cor 2.13), here with u = 1/(10·1), t = 100
    use shiftdp::analysis::{Query, Scope, analyze_scope};
    use shiftdp::precision::Precision;
    use shiftdp::provenance::ResultId;
    let s = plain(10, 10, 100, "1");
    let q = Query::epsilon_at("1e-5").unwrap();
    let a = analyze_scope(&s, &q, Precision::F64, Scope::Bsa24).unwrap();
    let e = a.entry(ResultId::Bsa24Thm4_8).unwrap();
    let reported = e.upper_f64().unwrap();
    assert!(
        (4.377_178_095_68..4.377_178_1).contains(&reported),
        "{reported}"
    );
}
