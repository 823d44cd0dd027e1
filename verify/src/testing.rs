//! Property testing against shiftdp, for other projects' CI (feature `testing`).
//!
//! A project that ships its own accountant or bound can property-test it here: draw
//! runs from a *setting family* ([`settings`]: the validator's parameter region of the
//! family's result, the same families as `shiftdp verify --claim --setting`), compute
//! its claimed GDP parameter μ for each run, and assert that `G(μ)` dominates every
//! exact instance of the family at that run ([`gdp_dominates`]; a certain violation is
//! a [`Counterexample`]: the claimed bound is false there).
//!
//! ```
//! use proptest::prelude::*;
//! use shiftdp_verify::testing::{gdp_dominates, settings};
//! proptest!(ProptestConfig::with_cases(4), |(run in settings("gd").unwrap())| {
//!     // BSA24 Thm 4.1 by hand: √t · L/(bσ) is a valid μ for NoisyGD, and tight on the
//!     // linear-loss instance, so the f64 product must be rounded up (a relative 1e-12
//!     // covers the two roundings with room): rounded to nearest it can fall an ulp
//!     // below the exact instance, which the check rightly reports
//!     let mu = (run.t() as f64).sqrt() * run.unit().upper_f64() * (1.0 + 1e-12);
//!     gdp_dominates("gd", &run, mu).map_err(|c| TestCaseError::fail(c.to_string()))?;
//! });
//! ```
//!
//! The example `examples/downstream_property_test.rs` runs the same test on a
//! deliberately wrong bound and prints the failing case.
//!
//! # Rounding
//! A violation is reported only when the instance's value is beyond the bound even
//! after the instance's own stated numerical error ([`validate`](fn@shiftdp::exact::validate)); within
//! that error the comparison is inconclusive and not a counterexample.
use crate::check::{self, EPS_GRID, ORDERS, SplitMix64, catalogue};
use proptest::prelude::*;
use shiftdp::error::{Error, Result};
use shiftdp::exact::validate::Status;
use shiftdp::exact::{BoundSpec, validate};
use shiftdp::settings::Setting;
use std::fmt;

/// The validator entry of a setting family (`gd`, `gd-strong`, `gd-constrained`,
/// `cgd`, `cgd-strong`, `cgd-constrained`, `sgd`, `sgd-strong`, `sgd-constrained`,
/// `lmc`).
///
/// # Errors
/// [`Error::Parameter`] listing the families, for an unknown name.
pub fn family_entry(family: &str) -> Result<catalogue::Entry> {
    let (_, entry_id, _) = crate::claim::family(family)?;
    check::find(entry_id)
}

/// Runs of a setting family, drawn from the region its result is validated on; runs
/// where a hypothesis of the family's result fails are filtered out.
///
/// # Errors
/// An unknown family.
pub fn settings(family: &str) -> Result<BoxedStrategy<Setting>> {
    let entry = family_entry(family)?;
    Ok(any::<u64>()
        .prop_filter_map("a hypothesis of the family's result fails", move |seed| {
            let params = (entry.sample)(&mut SplitMix64::new(seed));
            let s = Setting::new(entry.algorithm, &catalogue::raw_of(&params)).ok()?;
            let applies = shiftdp::analysis::bound(&s, entry.id).is_none_or(|r| r.is_ok());
            applies.then_some(s)
        })
        .boxed())
}

/// A run where a claimed bound loses to an exact instance.
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// The run.
    pub setting: String,
    /// The exact instance (loss, record position, pair order).
    pub instance: String,
    /// What was compared: `delta` at ε, `renyi` at λ or `tradeoff` at α.
    pub kind: &'static str,
    /// Where (ε, λ or α).
    pub at: f64,
    /// The claimed bound's value there.
    pub bound: f64,
    /// The instance's value there, and its stated error.
    pub instance_value: (f64, f64),
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "claimed bound violated: {} at {} = {}: bound {} vs exact instance {} ± {} ({}) in {}",
            self.kind,
            match self.kind {
                "delta" => "ε",
                "renyi" => "λ",
                _ => "α",
            },
            self.at,
            self.bound,
            self.instance_value.0,
            self.instance_value.1,
            self.instance,
            self.setting
        )
    }
}

/// Whether `G(mu)` dominates every exact instance of `family` at `run`: `Ok(())`, or
/// the first certain violation.
///
/// # Errors
/// A counterexample; an unknown family, a non-finite or negative μ, or an instance
/// that cannot be built is returned as a counterexample-free `Err` through
/// [`Counterexample::instance`] naming the problem (never a silent pass).
pub fn gdp_dominates(
    family: &str,
    run: &Setting,
    mu: f64,
) -> std::result::Result<(), Counterexample> {
    let fail = |what: String| Counterexample {
        setting: run.describe(),
        instance: what,
        kind: "error",
        at: f64::NAN,
        bound: mu,
        instance_value: (f64::NAN, f64::NAN),
    };
    let entry = family_entry(family).map_err(|e| fail(e.to_string()))?;
    if !(mu.is_finite() && mu >= 0.0) {
        return Err(fail(
            Error::param("mu", mu, "must be finite and ≥ 0").to_string(),
        ));
    }
    let insts = (entry.instances)(run).map_err(|e| fail(format!("instances: {e}")))?;
    let spec = BoundSpec::Gdp { mu };
    for (label, inst) in &insts {
        let dom = validate(&spec, inst.as_ref(), &EPS_GRID, &ORDERS)
            .map_err(|e| fail(format!("{label}: {e}")))?;
        if let Some(c) = dom.checks.iter().find(|c| c.status == Status::Violated) {
            return Err(Counterexample {
                setting: run.describe(),
                instance: label.to_string(),
                kind: c.kind,
                at: c.at,
                bound: c.bound,
                instance_value: (c.instance.value, c.instance.error),
            });
        }
    }
    Ok(())
}
