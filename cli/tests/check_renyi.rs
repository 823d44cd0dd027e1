//! The validator's Rényi entries (CYS21, YS22, AT22): every entry dominates its exact
//! instances at a small sample count, a scaled-down Rényi bound (and a scaled-up lower
//! bound) is caught, region overrides change the sampled values and bad syntax is
//! rejected, and the builtins pass.
use shiftdp_cli::check::{CheckArgs, run};
use shiftdp_verify::check::{
    BoundHook, CheckOptions, RegionOverride, catalogue, check_bound, find, parse_region,
};

mod common;
use common::{assert_dominates, opts, param};

fn renyi_entries() -> Vec<shiftdp_verify::check::Entry> {
    catalogue()
        .into_iter()
        .filter(|e| matches!(e.bound, BoundHook::Renyi(_)))
        .collect()
}

#[test]
fn every_renyi_entry_dominates_its_instances() {
    let all = renyi_entries();
    assert_eq!(
        all.len(),
        19,
        "6 CYS21 + 6 YS22 + 7 AT22 entries in `check all`"
    );
    for e in all {
        // a valid upper bound is ≥ its instances, a valid lower bound ≤: ratio ≥ 1 up to
        // the instances' stated error
        assert_dominates(&e, 3, 7, 1.0 - 1e-6);
    }
}

#[test]
fn renyi_ids_are_found_by_their_ids_and_short_forms() {
    assert_eq!(find("CYS21 Thm 2").unwrap().id, "CYS21 Thm 2 (eq. 16)");
    assert_eq!(find("cys21-thm-2").unwrap().id, "CYS21 Thm 2 (eq. 16)");
    assert_eq!(find("ys22 thm 4.3").unwrap().id, "YS22 Thm 4.3");
    assert_eq!(find("AT22 Prop 3.2").unwrap().id, "AT22 Prop 3.2");
    assert_eq!(find("at22 (b.2)").unwrap().id, "AT22 (B.2)");
    // the BSA24 short forms still find BSA24, a Rényi prefix never falls back to them
    assert_eq!(find("4.3").unwrap().id, "BSA24 Thm 4.3");
    assert!(find("ys22 thm 9.9").is_err());
    assert!(find("cys21 4.2").is_err());
}

#[test]
fn scaled_down_renyi_bounds_are_caught() {
    // CYS21 Thm 1 equals the linear instance: any scale < 1 is a certain violation
    let rep = check_bound(&find("CYS21 Thm 1").unwrap(), &opts(2, 1, 0.9)).unwrap();
    assert!(!rep.violations.is_empty());
    assert!(rep.violations.iter().all(|v| v.kind == "renyi"));
    assert!(rep.tightness.iter().all(|&t| t < 1.0));
    // YS22 Thm 3.3 is exact for the last batch at K = 1 but loose elsewhere; scaling by
    // 0.3 (below its loosest ratio seen, ≈ 1.6) must be caught
    let rep = check_bound(&find("YS22 Thm 3.3").unwrap(), &opts(4, 1, 0.3)).unwrap();
    assert!(!rep.violations.is_empty());
    let v = &rep.violations[0];
    assert!(v.bound < v.instance_value - v.instance_error);
    for k in ["n", "batch", "steps", "eta", "noise", "sensitivity"] {
        assert!(v.params.iter().any(|p| p.0 == k), "{k} missing");
    }
    // the lower bound of CYS21 Thm 3: scale < 1 divides it, pushing it above the exact
    // value (its loosest ratio here is < 2)
    let rep = check_bound(&find("CYS21 Thm 3").unwrap(), &opts(4, 1, 0.2)).unwrap();
    assert!(!rep.violations.is_empty());
    assert!(
        rep.violations
            .iter()
            .all(|v| v.kind == "renyi-lower" && v.margin < 0.0)
    );
}

#[test]
fn thm3_lower_bound_is_checked_against_an_independent_exact_value() {
    // the violation reports the instance value: recompute it from the Gaussian recursion
    let rep = check_bound(&find("CYS21 Thm 3").unwrap(), &opts(1, 4, 0.01)).unwrap();
    let v = rep
        .violations
        .first()
        .expect("scaled lower bound is caught");
    let get = |k: &str| param(v, k);
    let (n, t, eta, sigma, l) = (
        get("n"),
        get("steps") as usize,
        get("eta"),
        get("noise"),
        get("sensitivity"),
    );
    let (mut d, mut var) = (0.0f64, 0.0f64);
    for _ in 0..t {
        d = (1.0 - eta) * d + eta * l / n;
        var = (1.0 - eta).powi(2) * var + (eta * sigma).powi(2);
    }
    let exact = v.at * d * d / (2.0 * var);
    assert!(
        (exact - v.instance_value).abs() <= 1e-9 * exact,
        "{exact} vs {}",
        v.instance_value
    );
}

#[test]
fn region_overrides_change_the_sampled_values_and_are_reported() {
    let e = find("CYS21 Thm 1").unwrap();
    let region = parse_region("steps=7,eta=0.2..0.3").unwrap();
    let o = CheckOptions {
        samples: Some(4),
        region: region.clone(),
        ..Default::default()
    };
    let rep = check_bound(&e, &o).unwrap();
    assert_eq!(rep.overrides, vec!["steps=7", "eta=0.2..0.3"]);
    assert_eq!(rep.samples_run, 4);
    // a scaled bound exposes the parameters of the points actually run
    let bad = check_bound(
        &e,
        &CheckOptions {
            scale: 0.5,
            ..o.clone()
        },
    )
    .unwrap();
    assert!(!bad.violations.is_empty());
    for v in &bad.violations {
        let get = |k: &str| v.params.iter().find(|p| p.0 == k).unwrap().1.clone();
        assert_eq!(get("steps"), "7");
        let eta: f64 = get("eta").parse().unwrap();
        assert!((0.2..=0.3).contains(&eta), "{eta}");
    }
    // without the override the entry's own region draws other step counts
    let free = check_bound(
        &e,
        &CheckOptions {
            scale: 0.5,
            ..opts(4, 1, 0.5)
        },
    )
    .unwrap();
    assert!(
        free.violations
            .iter()
            .any(|v| v.params.iter().any(|p| p.0 == "steps" && p.1 != "7"))
    );
    // inadmissible points are skipped and counted: batch 3 does not divide n = 4
    let o2 = CheckOptions {
        samples: Some(3),
        region: vec![
            RegionOverride::int("n", 4, 4).unwrap(),
            RegionOverride::int("batch", 3, 3).unwrap(),
        ],
        ..Default::default()
    };
    let rep = check_bound(&find("YS22 Thm 4.2").unwrap(), &o2).unwrap();
    assert_eq!(rep.samples_run, 0);
    assert_eq!(rep.skipped + rep.inadmissible, 3);
}

#[test]
fn cli_region_is_reported_and_bad_syntax_rejected() {
    let out = run(&CheckArgs {
        bound: "cys21-thm-1".into(),
        samples: Some(2),
        seed: 1,
        region: Some("n=3..3".into()),
        json: true,
    })
    .unwrap();
    assert_eq!(out.json["region"][0], "n=3..3");
    assert_eq!(out.json["bounds"][0]["region_overrides"][0], "n=3..3");
    assert_eq!(out.json["violations"], 0);
    for bad in ["n", "speed=1..2", "eta=0.5..0.1", "steps=1.5..3"] {
        let r = run(&CheckArgs {
            bound: "cys21-thm-1".into(),
            samples: Some(1),
            seed: 1,
            region: Some(bad.into()),
            json: false,
        });
        assert!(matches!(r, Err(shiftdp::Error::Parse { .. })), "{bad}");
    }
}

#[test]
fn builtins_pass_and_have_unique_names() {
    let ctx = shiftdp_verify::Ctx {
        samples: Some(2),
        ..Default::default()
    };
    let all = shiftdp_verify::check_builtins::builtins();
    assert_eq!(all.len(), 4);
    let mut names: Vec<&str> = all.iter().map(|b| b.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len());
    for b in all {
        let o = (b.run)(&ctx);
        assert_eq!(
            o.status,
            shiftdp_verify::Status::Pass,
            "{}: {}",
            b.name,
            o.summary
        );
        assert!(o.points >= 1);
    }
}
