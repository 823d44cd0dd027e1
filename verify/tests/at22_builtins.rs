//! Every AT22 builtin of `shiftdp verify` runs and passes at a small sample count
//! (each compares two independent computations, so a wrong bound makes it fail).
use shiftdp_verify::at22_obligations::builtins;
use shiftdp_verify::{Ctx, Status};

#[test]
fn every_at22_builtin_passes_at_two_samples() {
    let ctx = Ctx {
        samples: Some(2),
        seed: 7,
        bits: 64,
    };
    let all = builtins();
    assert!(all.len() >= 9);
    let mut names = std::collections::HashSet::new();
    for b in &all {
        assert!(names.insert(b.name), "duplicate builtin {}", b.name);
        let o = (b.run)(&ctx);
        assert_eq!(
            o.status,
            Status::Pass,
            "{}: {} {:?}",
            b.name,
            o.summary,
            o.counterexample
        );
        assert!(o.points >= 1, "{}", b.name);
    }
}
