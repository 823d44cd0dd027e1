//! The samplers' bounds: each lower-bound construction against a Monte Carlo simulation
//! of the sampler itself (shuffling, a dropped or kept partial batch, balls-in-bins),
//! with Clopper–Pearson intervals; lower ≤ upper over a grid of runs; the fixed-size and
//! persistent cases where the bounds meet; bad input.
use shiftdp::Error;
use shiftdp::samplers::max_statistic::max_cdf;
use shiftdp::samplers::{Relation, Run, Sampler, account};
use statrs::distribution::{Beta, ContinuousCDF};

/// SplitMix64 with Box–Muller normals: a generator written here, independent of the
/// library.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn uniform(&mut self) -> f64 {
        ((self.next() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    fn below(&mut self, k: usize) -> usize {
        (self.uniform() * k as f64) as usize % k
    }
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// Clopper–Pearson interval of a binomial proportion at two-sided level `1 − a`.
fn clopper_pearson(k: u64, n: u64, a: f64) -> (f64, f64) {
    let lo = if k == 0 {
        0.0
    } else {
        Beta::new(k as f64, (n - k + 1) as f64)
            .unwrap()
            .inverse_cdf(a / 2.0)
    };
    let hi = if k == n {
        1.0
    } else {
        Beta::new((k + 1) as f64, (n - k) as f64)
            .unwrap()
            .inverse_cdf(1.0 - a / 2.0)
    };
    (lo, hi)
}

/// One simulated epoch of the sampler on the instance: `n` records with gradient `other`,
/// the last one `g` (`None`: ⊥, gradient 0); batches of `b` (a last partial batch kept
/// or dropped); returns the largest batch sum with each batch's public constant (its
/// count of other records times `other`... the sum of the others) removed.
fn epoch_max(
    rng: &mut Rng,
    n: usize,
    b: usize,
    other: f64,
    g: f64,
    drop_last: bool,
    sigma: f64,
) -> f64 {
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i + 1);
        perm.swap(i, j);
    }
    let full = n / b;
    let batches = if drop_last { full } else { n.div_ceil(b) };
    let mut best = f64::NEG_INFINITY;
    for t in 0..batches {
        let members = &perm[t * b..((t + 1) * b).min(n)];
        // the sum minus the public constant (every member an "other")
        let mut y = 0.0;
        for &r in members {
            if r == n - 1 {
                y += g - other;
            }
        }
        best = best.max(y + sigma * rng.normal());
    }
    best
}

/// The certified `F_m(C)` lies in the Clopper–Pearson interval (level 1 − 1e-6) of the
/// simulated `Pr[max ≤ C]`, for the record's two datasets of each instance.
#[test]
fn max_statistic_law_matches_a_simulated_shuffle() {
    let mut rng = Rng(20261127);
    let trials = 20_000u64;
    // (n, b, drop_last, σ, other, g, the record's mean m)
    let cases: [(usize, usize, bool, f64, f64, f64, f64); 5] = [
        (40, 4, false, 1.0, -1.0, 1.0, 2.0), // +1 against others −1: mean 2
        (40, 4, false, 1.0, -1.0, 0.0, 1.0), // ⊥ against others −1: mean 1
        (43, 4, false, 0.7, 0.0, 1.0, 1.0),  // a kept partial batch of 3
        (43, 4, true, 0.7, -1.0, 1.0, 2.0),  // the partial batch dropped: ρ = 3/43
        (30, 3, false, 1.5, -1.0, -1.0, 0.0), // the record −1 like the others: mean 0
    ];
    for (n, b, drop_last, sigma, other, g, m) in cases {
        let t = if drop_last { n / b } else { n.div_ceil(b) } as u64;
        let rho = if drop_last {
            (n - b * (n / b)) as f64 / n as f64
        } else {
            0.0
        };
        for c in [0.5, 1.5, 2.5, 3.5] {
            let k = (0..trials)
                .filter(|_| epoch_max(&mut rng, n, b, other, g, drop_last, sigma) <= c)
                .count() as u64;
            let (lo, hi) = clopper_pearson(k, trials, 1e-6);
            let f = max_cdf(c, m, t, sigma, rho).unwrap();
            assert!(
                f.lower_f64() <= hi && lo <= f.upper_f64(),
                "n {n} b {b} drop {drop_last} m {m} C {c}: F = [{}, {}], simulated [{lo}, {hi}]",
                f.lower_f64(),
                f.upper_f64()
            );
        }
    }
}

/// Balls-in-bins: each record in a uniformly random batch (sizes random), records 0,
/// the record +1 or ⊥: the same law with `m = 1` or `m = 0`.
#[test]
fn max_statistic_law_matches_simulated_balls_in_bins() {
    let mut rng = Rng(7);
    let (t, sigma, trials) = (12usize, 0.8, 20_000u64);
    for (g, m) in [(1.0, 1.0), (0.0, 0.0)] {
        for c in [0.5, 1.5, 2.5] {
            let k = (0..trials)
                .filter(|_| {
                    let bin = rng.below(t);
                    let mut best = f64::NEG_INFINITY;
                    for s in 0..t {
                        let mean = if s == bin { g } else { 0.0 };
                        best = best.max(mean + sigma * rng.normal());
                    }
                    best <= c
                })
                .count() as u64;
            let (lo, hi) = clopper_pearson(k, trials, 1e-6);
            let f = max_cdf(c, m, t as u64, sigma, 0.0).unwrap();
            assert!(f.lower_f64() <= hi && lo <= f.upper_f64(), "m {m} C {c}");
        }
    }
}

/// Every certified lower bound is at most the certified upper bound, and the report's
/// interval is ordered, over a grid of runs (σ, epochs, batches per epoch, δ) for every
/// sampler and relation that applies.
#[test]
fn lower_bounds_never_exceed_upper_bounds() {
    let mut runs = 0;
    for sampler in Sampler::ALL {
        for relation in [Relation::ZeroOut, Relation::ReplaceOne, Relation::AddRemove] {
            for (sigma, epochs, t, delta) in [(0.5, 1, 10, 1e-5), (2.0, 3, 100, 1e-10)] {
                let run = match Run::new(sampler, 50 * t, 50, epochs, sigma, relation, false) {
                    Ok(r) => r,
                    Err(Error::Hypothesis { .. }) => continue,
                    Err(e) => panic!("{e}"),
                };
                let r = account(&run, delta, 1e-3).unwrap();
                let iv = r.interval();
                assert!(
                    iv.lower <= iv.upper,
                    "{sampler} {relation} σ {sigma}: {iv:?}"
                );
                for l in &r.lower {
                    assert!(l.epsilon.lower <= l.epsilon.upper);
                }
                runs += 1;
            }
        }
    }
    assert!(runs >= 20, "{runs}");
    // a dropped last partial batch (5 of 1005 records dropped each epoch)
    for sampler in [Sampler::Shuffle, Sampler::ShuffleOnce] {
        let run = Run::new(sampler, 1005, 10, 2, 1.0, Relation::ZeroOut, true).unwrap();
        assert_eq!(run.steps_per_epoch(), 100);
        let iv = account(&run, 1e-5, 1e-3).unwrap().interval();
        assert!(0.0 < iv.lower && iv.lower <= iv.upper, "{sampler}: {iv:?}");
    }
}

/// Where the bounds meet: fixed-size batches (DRS22's `C_p` against the exact instance)
/// and a reused order over many batches (the instance attains no amplification).
#[test]
fn fixed_size_and_persistent_shuffle_are_tight() {
    let run = Run::new(
        Sampler::FixedSize,
        10_000,
        100,
        2,
        1.0,
        Relation::ReplaceOne,
        false,
    )
    .unwrap();
    let iv = account(&run, 1e-5, 1e-3).unwrap().interval();
    assert!(iv.upper - iv.lower < 0.05 * iv.upper, "{iv:?}");
    let run = Run::new(
        Sampler::ShuffleOnce,
        100_000,
        100,
        5,
        1.0,
        Relation::ZeroOut,
        false,
    )
    .unwrap();
    let r = account(&run, 1e-5, 1e-3).unwrap();
    let iv = r.interval();
    assert!(iv.upper - iv.lower < 1e-3, "{iv:?}");
    // and the Poisson number is far below it
    assert!(r.poisson_below_lower());
}

/// Bad input names what is wrong; add-or-remove with n-dependent batches is refused by
/// the hypothesis it lacks.
#[test]
fn bad_runs_are_refused_by_name() {
    let bad = |r: shiftdp::Result<Run>, what: &str| {
        let e = r.unwrap_err().to_string();
        assert!(e.contains(what), "{e} lacks {what}");
    };
    bad(
        Run::new(Sampler::Shuffle, 10, 11, 1, 1.0, Relation::ZeroOut, false),
        "batch",
    );
    bad(
        Run::new(Sampler::Shuffle, 10, 2, 0, 1.0, Relation::ZeroOut, false),
        "epochs",
    );
    bad(
        Run::new(
            Sampler::Shuffle,
            10,
            2,
            1,
            f64::NAN,
            Relation::ZeroOut,
            false,
        ),
        "noise_multiplier",
    );
    bad(
        Run::new(Sampler::Shuffle, 10, 2, 1, 1.0, Relation::AddRemove, false),
        "n fixed",
    );
    bad(
        Run::new(
            Sampler::FixedSize,
            10,
            2,
            1,
            1.0,
            Relation::AddRemove,
            false,
        ),
        "n fixed",
    );
    bad(
        Sampler::parse("random").map(|_| unreachable!()),
        "unknown sampler",
    );
    let run = Run::new(
        Sampler::BallsInBins,
        10,
        2,
        1,
        1.0,
        Relation::AddRemove,
        false,
    )
    .unwrap();
    assert!(
        account(&run, 1.5, 1e-3)
            .unwrap_err()
            .to_string()
            .contains("delta")
    );
}

/// One epoch's sliced pair: its own bracket (atoms summed directly) and the composition
/// engine's interval overlap, both orders taken.
#[test]
fn one_epoch_bracket_agrees_with_the_engine() {
    use shiftdp::composition::{Component, Composition, Target};
    use shiftdp::samplers::MaxStatistic;
    use std::sync::Arc;
    for (t, sigma, mq, mp) in [(100u64, 0.5, 2.0, 1.0), (10, 1.0, 1.0, 0.0)] {
        let m = MaxStatistic::new(t, sigma, mq, mp, 0.0).unwrap();
        let own = m.epsilon(1e-5);
        let c = Composition::new()
            .with(Component::shared(Arc::new(m)), 1)
            .unwrap();
        let engine = c.answer(Target::Delta(1e-5), 1e-4, None).unwrap().interval;
        assert!(
            own.lower <= own.upper && own.upper - own.lower < 1e-3,
            "{own:?}"
        );
        assert!(
            own.lower <= engine.upper && engine.lower <= own.upper,
            "{own:?} {engine:?}"
        );
    }
}

/// The pipeline's last-iterate part for shuffle-once batches: NoisyCGD with its order
/// drawn once, where BSA24 Thm 4.4 (composition, nothing hidden) is the same bound as
/// the sampler's no-amplification upper bound — `G(2√E/σ)` computed once by the
/// Gaussian's closed form and once by the PLD engine — and YS22's shuffle-and-partition
/// average is at most its worst-position Thm 3.3.
#[test]
fn pipeline_reports_the_last_iterate_results_of_the_sampler_run() {
    use shiftdp::analysis::sampled::{LastIterate, analyze_sampled};
    use shiftdp::{Algorithm, Precision, RawSetting, ResultId};
    let loss = RawSetting::from_pairs(&[
        ("eta", "0.1"),
        ("strong-convexity", "0.5"),
        ("smoothness", "1"),
    ])
    .unwrap();
    let run = Run::new(
        Sampler::ShuffleOnce,
        1000,
        100,
        10,
        1.0,
        Relation::ReplaceOne,
        false,
    )
    .unwrap();
    let p = analyze_sampled(&run, Some(&loss), 1e-5, 1e-3, Precision::F64).unwrap();
    let LastIterate::Analyzed { setting, analysis } = &p.last_iterate else {
        panic!("{:?}", p.last_iterate)
    };
    assert_eq!(setting.algorithm(), Algorithm::Cgd);
    assert!(setting.order_shuffled_once());
    let upper = p.every_iterate.upper.as_ref().unwrap().epsilon;
    let thm_4_4 = analysis
        .entry(ResultId::Bsa24Thm4_4)
        .unwrap()
        .upper_f64()
        .unwrap();
    assert!(
        thm_4_4 >= upper.lower - 1e-9 && thm_4_4 <= upper.upper + 1e-9,
        "Thm 4.4 {thm_4_4} against the engine's {upper:?}"
    );
    let v = |id: &str| {
        analysis
            .entries()
            .iter()
            .find(|e| e.id.as_str() == id)
            .and_then(|e| e.upper_f64())
            .unwrap_or_else(|| panic!("{id} not certified"))
    };
    assert!(v("YS22 Thm 4.2") <= v("YS22 Thm 3.3"));
    let best = analysis.best().unwrap().upper_f64().unwrap();
    assert!(
        best < p.every_iterate.interval().lower,
        "hiding the iterates pays here"
    );

    // fixed-size batches: NoisySGD over the T·E steps
    let run = Run::new(
        Sampler::FixedSize,
        1000,
        100,
        2,
        1.0,
        Relation::ReplaceOne,
        false,
    )
    .unwrap();
    let p = analyze_sampled(&run, Some(&loss), 1e-5, 1e-2, Precision::F64).unwrap();
    let LastIterate::Analyzed { setting, .. } = &p.last_iterate else {
        panic!("{:?}", p.last_iterate)
    };
    assert_eq!((setting.algorithm(), setting.t()), (Algorithm::Sgd, 20));

    // no result covers these: the hypothesis is named, the every-iterate part stays
    for (sampler, relation, hypothesis) in [
        (
            Sampler::Shuffle,
            Relation::ReplaceOne,
            "one fixed batch order",
        ),
        (
            Sampler::Poisson,
            Relation::ReplaceOne,
            "one fixed batch order",
        ),
        (
            Sampler::BallsInBins,
            Relation::ReplaceOne,
            "one fixed batch order",
        ),
        (
            Sampler::ShuffleOnce,
            Relation::ZeroOut,
            "replace-one neighbours",
        ),
    ] {
        let run = Run::new(sampler, 1000, 100, 1, 1.0, relation, false).unwrap();
        let p = analyze_sampled(&run, Some(&loss), 1e-5, 1e-2, Precision::F64).unwrap();
        match &p.last_iterate {
            LastIterate::NotCovered {
                reason: Error::Hypothesis { hypothesis: h, .. },
            } => assert!(h.contains(hypothesis), "{sampler}: {h}"),
            other => panic!("{sampler}: {other:?}"),
        }
        assert!(p.every_iterate.upper.is_some());
    }
    let none = analyze_sampled(&run, None, 1e-5, 1e-2, Precision::F64).unwrap();
    assert!(matches!(none.last_iterate, LastIterate::NotDeclared));

    // what the run fixes cannot be declared
    let noisy = RawSetting::from_pairs(&[("eta", "0.1"), ("noise", "3")]).unwrap();
    assert!(matches!(
        analyze_sampled(&run, Some(&noisy), 1e-5, 1e-2, Precision::F64),
        Err(Error::Parameter { name, .. }) if name == "noise"
    ));
}

/// One epoch of persistent bins is one epoch of fresh bins: the same upper bound (the
/// random-allocation one where it is below no amplification).
#[test]
fn one_persistent_epoch_is_one_fresh_epoch() {
    for sigma in [0.8, 2.0] {
        let r = |s| {
            account(
                &Run::new(s, 10_000, 100, 1, sigma, Relation::ZeroOut, false).unwrap(),
                1e-5,
                1e-3,
            )
            .unwrap()
        };
        let (fresh, kept) = (r(Sampler::BallsInBins), r(Sampler::BallsInBinsPersistent));
        assert_eq!(fresh.upper, kept.upper, "σ = {sigma}");
        assert!(kept.interval().lower <= kept.interval().upper);
    }
}

/// Random allocation, k of T: the record in `k` distinct uniformly random batches of an
/// epoch; the largest batch sum has the law `Φ((C − m)/σ)^k Φ(C/σ)^{T−k}` (simulated
/// here, Clopper–Pearson at level 1 − 1e-6).
#[test]
fn max_statistic_law_matches_simulated_k_of_t_allocation() {
    use shiftdp::samplers::max_statistic::max_cdf_of_k;
    let mut rng = Rng(2026);
    let (t, sigma, trials) = (9usize, 0.9, 20_000u64);
    for k in [2usize, 3] {
        for c in [0.5, 1.5, 2.5] {
            let hits = (0..trials)
                .filter(|_| {
                    // k distinct bins: a partial Fisher–Yates shuffle
                    let mut bins: Vec<usize> = (0..t).collect();
                    for i in 0..k {
                        let j = i + rng.below(t - i);
                        bins.swap(i, j);
                    }
                    let mut best = f64::NEG_INFINITY;
                    for s in 0..t {
                        let mean = if bins[..k].contains(&s) { 1.0 } else { 0.0 };
                        best = best.max(mean + sigma * rng.normal());
                    }
                    best <= c
                })
                .count() as u64;
            let (lo, hi) = clopper_pearson(hits, trials, 1e-6);
            let f = max_cdf_of_k(c, 1.0, t as u64, k as u64, sigma).unwrap();
            assert!(
                f.lower_f64() <= hi && lo <= f.upper_f64(),
                "k {k} C {c}: [{lo}, {hi}]"
            );
        }
    }
    assert!(max_cdf_of_k(0.0, 1.0, 3, 4, 1.0).is_err());
}

/// k of T participations: the interval is ordered for fresh and persistent bins; with
/// `k | T` the random-allocation bound is that of `k·E` epochs of 1 of `T/k` (Feldman–
/// Shenfeld 2025 Lemma 3.2) computed through the k = 1 run; bad `k` is refused by name.
#[test]
fn k_of_t_allocation() {
    for sampler in [Sampler::BallsInBins, Sampler::BallsInBinsPersistent] {
        for (k, sigma, epochs) in [(2, 1.0, 1), (3, 0.8, 2), (5, 2.0, 3)] {
            let run = Run::new(sampler, 1000, 50, epochs, sigma, Relation::ZeroOut, false)
                .unwrap()
                .with_participations(k)
                .unwrap();
            assert_eq!(run.steps_per_epoch(), 20 * k);
            let r = account(&run, 1e-5, 1e-3).unwrap();
            let iv = r.interval();
            assert!(
                iv.lower > 0.0 && iv.lower <= iv.upper,
                "{sampler} k {k}: {iv:?}"
            );
        }
    }
    // k = 2 of T = 40, 2 epochs against 4 epochs of 1 of 20
    let balls = |epochs| {
        Run::new(
            Sampler::BallsInBins,
            1000,
            50,
            epochs,
            1.0,
            Relation::ZeroOut,
            false,
        )
        .unwrap()
    };
    let k2 = balls(2).with_participations(2).unwrap();
    let k1 = balls(4);
    let (a, b) = (
        account(&k2, 1e-5, 1e-3).unwrap(),
        account(&k1, 1e-5, 1e-3).unwrap(),
    );
    assert!(
        a.upper
            .as_ref()
            .unwrap()
            .name
            .starts_with("random allocation")
    );
    assert_eq!(
        a.upper.as_ref().unwrap().epsilon.upper,
        b.upper.as_ref().unwrap().epsilon.upper
    );
    // bad k
    let run = Run::new(
        Sampler::BallsInBins,
        100,
        10,
        1,
        1.0,
        Relation::ZeroOut,
        false,
    )
    .unwrap();
    // T = ⌈n·k/b⌉ ≥ k always; a k that makes T·E exceed 10¹² is refused
    assert!(matches!(
        run.with_participations(1_000_000_000_000),
        Err(Error::Parameter { .. })
    ));
    for (r, k) in [
        (run, 0),
        (
            Run::new(Sampler::Shuffle, 100, 10, 1, 1.0, Relation::ZeroOut, false).unwrap(),
            2,
        ),
    ] {
        assert!(
            matches!(r.with_participations(k), Err(Error::Parameter { ref name, .. }) if name == "participations"),
            "k = {k}"
        );
    }
}
