//! A downstream property test: another project checks its own GDP bound for NoisyGD
//! against shiftdp's exact instances, with shiftdp's proptest strategies.
//!
//! `cargo run --example downstream_property_test --features testing`
//!
//! The "accountant" under test has a deliberate bug: it divides the composition bound
//! √t·L/(bσ) (BSA24 Thm 4.1, exact for linear losses) by 2 — the kind of slip a wrong
//! sensitivity convention (L vs 2L) causes. The property test finds a run where the
//! exact linear-loss instance of NoisyGD loses more privacy than the claimed μ allows,
//! shrinks it, and prints it. The correct bound passes the same test.
use proptest::prelude::*;
use proptest::test_runner::{Config, TestError, TestRunner};
use shiftdp::Setting;
use shiftdp_verify::testing::{gdp_dominates, settings};

/// The accountant under test, with its bug.
fn buggy_mu(run: &Setting) -> f64 {
    (run.t() as f64).sqrt() * run.unit().upper_f64() / 2.0
}

/// The correct composition bound, for contrast: tight on the linear-loss instance, so
/// the f64 product is rounded up (rounded to nearest it can fall an ulp below).
fn correct_mu(run: &Setting) -> f64 {
    (run.t() as f64).sqrt() * run.unit().upper_f64() * (1.0 + 1e-12)
}

fn property(mu: fn(&Setting) -> f64) -> Result<(), Box<TestError<Setting>>> {
    let mut runner = TestRunner::new(Config {
        cases: 16,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&settings("gd").expect("family"), |run| {
            gdp_dominates("gd", &run, mu(&run)).map_err(|c| TestCaseError::fail(c.to_string()))
        })
        .map_err(Box::new)
}

fn main() {
    match property(correct_mu) {
        Ok(()) => println!("correct bound √t·L/(bσ): 16 runs, no counterexample"),
        Err(e) => {
            eprintln!("unexpected: the correct bound failed: {e}");
            std::process::exit(1);
        }
    }
    match property(buggy_mu).map_err(|e| *e) {
        Ok(()) => {
            eprintln!("the buggy bound was not caught");
            std::process::exit(1);
        }
        Err(TestError::Fail(why, run)) => {
            println!("buggy bound √t·L/(2bσ) caught; minimal failing run:");
            println!("  {}", run.describe());
            println!("  {why}");
        }
        Err(e) => {
            eprintln!("unexpected: {e}");
            std::process::exit(1);
        }
    }
}
