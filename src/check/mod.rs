//! The validator: every bound of the library checked against exact instances over a
//! sampled parameter region (SPEC §5, issue 5 item 4).
//!
//! [`catalogue`] maps each bound id of [`crate::bounds`] to a parameter region and to the
//! instance families that must be dominated. [`check_bound`] samples admissible settings
//! from the region with a deterministic seed ([`SplitMix64`]), computes the bound
//! through [`crate::bounds`] (points whose hypotheses fail are skipped and counted),
//! builds the instances, runs [`validate`] on each, and collects violations (with the
//! exact parameters and margin) and tightness ratios.
//!
//! # Formula
//! A bound `f` is valid for a setting iff `f ≤ T(X_t, X′_t)` for every admissible pair of
//! neighbouring runs; an exact instance is one such pair, so `f ≤ T(instance)` must hold
//! (BSA24 §2, definition of f-DP). The *tightness ratio* of a sample is the bound's
//! parameter over the largest instance value (the smallest per-instance ratio of
//! [`validate`]): 1 means exact, a violation shows as a ratio below 1.
//!
//! # Errors
//! Only bad options (unknown id, zero samples) are errors; instance failures at a sample
//! are recorded in the report ([`BoundReport::errors`]), never silently dropped.
//!
//! # Example
//! ```
//! use shiftdp::check::{check_bound, CheckOptions, find};
//! let e = find("4.2").unwrap();
//! let opts = CheckOptions { samples: Some(2), ..Default::default() };
//! let rep = check_bound(&e, &opts).unwrap();
//! assert_eq!(rep.violations.len(), 0);
//! assert!(rep.tightness.iter().all(|&r| r >= 1.0 - 1e-9));
//! ```
//!
//! # References
//! J. Bok, W. Su, J. Altschuler, *Shifted interpolation for differential privacy*
//! (BSA24), §4 and Prop 5.1; J. Altschuler, K. Talwar, *Privacy of noisy stochastic
//! gradient descent* (AT22), Thm 4.1 (clamped construction).
pub mod builtins;
pub mod catalogue;
pub mod region;
pub mod renyi;

pub use catalogue::{BoundHook, Entry, catalogue, find};
pub use region::{RegionOverride, RegionRange, parse_region};

use crate::bounds::{Bound, BoundKind, bounds_for};
use crate::error::{Error, Result};
use crate::exact::validate::{self as vmod, Status};
use crate::exact::{BoundSpec, Instance, Order, validate};
use crate::precision::{Enclosure, Precision};
use crate::settings::Setting;
use catalogue::Params;

/// A tiny deterministic PRNG (splitmix64, S. Vigna): reproducible samples without a
/// dependency.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` (53 random bits).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform integer in `lo..=hi` (`lo ≤ hi`).
    pub fn int(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// A decimal string with three decimals, uniform in `[lo, hi]` (at least `lo`
    /// after rounding, so positive ranges stay positive).
    pub fn dec(&mut self, lo: f64, hi: f64) -> String {
        let x = lo + (hi - lo) * self.unit();
        let s = format!("{x:.3}");
        if s.parse::<f64>().map_or(true, |v| v < lo) {
            format!("{lo}")
        } else {
            s
        }
    }
}

/// The seed of one labelled stream: `seed` mixed with the label's FNV-1a hash, so each
/// bound (or check) draws the same points whether it runs alone or with others.
pub fn salted(seed: u64, label: &str) -> u64 {
    seed ^ label.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Options of a validator run (construct with `..Default::default()`).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOptions {
    /// Number of sampled points (None: the entry's default).
    pub samples: Option<usize>,
    /// Seed of the sampler.
    pub seed: u64,
    /// Factor applied to the bound's parameter (μ or ε) before checking; 1 for a real
    /// check, < 1 to make sure the validator catches a deliberately wrong bound. Rényi
    /// upper bounds are multiplied by `scale`, Rényi *lower* bounds divided by it, so
    /// `scale < 1` always moves a bound to the unsafe side.
    pub scale: f64,
    /// Region overrides: after the entry's own draw, each override replaces (or adds)
    /// its parameter by a value drawn from its range with the same generator, in order
    /// ([`region`]). Points the overrides make inadmissible are skipped and counted
    /// ([`BoundReport::inadmissible`]).
    pub region: Vec<RegionOverride>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            samples: None,
            seed: 1,
            scale: 1.0,
            region: vec![],
        }
    }
}

/// One certain violation: the bound lies beyond the instance value by more than the
/// instance's stated error.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The sampled parameters (flag name, decimal value).
    pub params: Vec<(&'static str, String)>,
    /// Which instance.
    pub instance: String,
    /// `"delta"`, `"renyi"`, `"renyi-lower"` (a lower bound above the instance) or
    /// `"tradeoff"`.
    pub kind: &'static str,
    /// Grid point (ε, λ or α).
    pub at: f64,
    /// Order of the pair.
    pub order: Order,
    /// The bound's value.
    pub bound: f64,
    /// The instance's value.
    pub instance_value: f64,
    /// The instance's stated error.
    pub instance_error: f64,
    /// Signed margin (negative: violated).
    pub margin: f64,
}

/// The validator's report for one bound.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundReport {
    /// Bound id.
    pub id: &'static str,
    /// The parameter region sampled.
    pub region: &'static str,
    /// Sampled points whose hypotheses held and were validated.
    pub samples_run: usize,
    /// Points skipped because a hypothesis of the bound failed.
    pub skipped: usize,
    /// Points skipped because the region overrides made the setting inadmissible
    /// (`Setting::new` rejected it).
    pub inadmissible: usize,
    /// The region overrides used (`key=lo..hi`), empty for the entry's own region.
    pub overrides: Vec<String>,
    /// Distinct hypotheses that caused skips.
    pub skip_reasons: Vec<String>,
    /// Number of instances validated in total.
    pub instances: usize,
    /// Certain violations.
    pub violations: Vec<Violation>,
    /// Comparisons within the instances' errors.
    pub inconclusive: usize,
    /// Tightness ratio per validated sample (bound over the largest instance value; for
    /// a lower bound, the smallest instance value over the bound).
    pub tightness: Vec<f64>,
    /// The parameters of each entry of [`tightness`](Self::tightness) (same order).
    pub tightness_at: Vec<Params>,
    /// Failures to build or evaluate an instance / the bound (parameters and message).
    pub errors: Vec<String>,
}

impl BoundReport {
    /// `(min, median, max)` of the tightness ratios, if any.
    pub fn tightness_summary(&self) -> Option<(f64, f64, f64)> {
        let mut v: Vec<f64> = self
            .tightness
            .iter()
            .copied()
            .filter(|x| x.is_finite())
            .collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let med = if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            0.5 * (v[v.len() / 2 - 1] + v[v.len() / 2])
        };
        Some((v[0], med, v[v.len() - 1]))
    }
}

/// The ε grid of the δ-form checks.
pub const EPS_GRID: [f64; 7] = [0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0];
/// Rényi orders of the GDP checks.
pub const ORDERS: [f64; 2] = [2.0, 8.0];
/// Rényi orders of the Rényi-DP entries (CYS21, YS22, AT22).
pub const RENYI_ORDERS: [f64; 4] = [2.0, 4.0, 8.0, 16.0];

/// One case of a Rényi entry: an exact instance and the bound's Rényi curve for it.
pub struct RenyiCase {
    /// Description of the instance.
    pub label: String,
    /// The instance.
    pub instance: Box<dyn Instance>,
    /// Points `(λ, ε(λ))` of the bound: upper ends for an upper bound, lower ends for a
    /// lower bound.
    pub curve: Vec<(f64, f64)>,
    /// Whether the curve is a *lower* bound (the instance must reach it) rather than an
    /// upper bound (it must dominate the instance).
    pub lower: bool,
}

impl std::fmt::Debug for RenyiCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenyiCase")
            .field("label", &self.label)
            .field("curve", &self.curve)
            .field("lower", &self.lower)
            .finish()
    }
}
/// δ values at which composition-family bounds are turned into (ε, δ) points.
pub const DELTAS: [f64; 2] = [1e-2, 1e-4];

/// The bound's checkable form, with its parameter scaled by `scale`.
fn spec_of(bound: &Bound, scale: f64) -> Result<BoundSpec> {
    match &bound.kind {
        BoundKind::Gdp { mu } => Ok(BoundSpec::Gdp {
            mu: mu.upper_f64() * scale,
        }),
        BoundKind::Composed { .. } => {
            let mut pts = vec![];
            for d in DELTAS {
                let de = Enclosure::from_f64(64, d);
                let (c, _) = bound.epsilon_with_tau(&de, Precision::F64)?;
                pts.push((c.enclosure.upper_f64() * scale, d));
            }
            Ok(BoundSpec::DeltaCurve(pts))
        }
        BoundKind::Pure { .. } => Err(Error::param(
            "bound",
            bound.id,
            "pure ε-DP bounds are not in the validator's catalogue",
        )),
    }
}

fn fmt_params(p: &[(&'static str, String)]) -> String {
    p.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the validator for one catalogue entry.
///
/// # Errors
/// [`Error::Parameter`] if `samples` is `Some(0)` or `scale` is not finite and > 0.
pub fn check_bound(entry: &Entry, opts: &CheckOptions) -> Result<BoundReport> {
    let n = opts.samples.unwrap_or(entry.default_samples);
    if n == 0 {
        return Err(Error::param("samples", 0, "must be ≥ 1"));
    }
    if !(opts.scale.is_finite() && opts.scale > 0.0) {
        return Err(Error::param("scale", opts.scale, "must be finite and > 0"));
    }
    // one independent stream per bound id, so `all` and single runs agree
    let mut rng = SplitMix64::new(salted(opts.seed, entry.id));
    let mut rep = BoundReport {
        id: entry.id,
        region: entry.region,
        samples_run: 0,
        skipped: 0,
        inadmissible: 0,
        overrides: opts.region.iter().map(|o| o.to_string()).collect(),
        skip_reasons: vec![],
        instances: 0,
        violations: vec![],
        inconclusive: 0,
        tightness: vec![],
        tightness_at: vec![],
        errors: vec![],
    };
    for _ in 0..n {
        let mut params = (entry.sample)(&mut rng);
        region::apply(&opts.region, &mut rng, &mut params);
        let raw = catalogue::raw_of(&params);
        let setting = match Setting::new(entry.algorithm, &raw) {
            Ok(s) => s,
            Err(_) if !opts.region.is_empty() => {
                rep.inadmissible += 1;
                continue;
            }
            Err(e) => {
                rep.errors
                    .push(format!("[{}] setting: {e}", fmt_params(&params)));
                continue;
            }
        };
        match entry.bound {
            BoundHook::Library => run_library(entry, &setting, &params, opts, &mut rep),
            BoundHook::Renyi(f) => run_renyi(f, &setting, &params, opts, &mut rep),
        }
    }
    Ok(rep)
}

fn skip(rep: &mut BoundReport, hypothesis: String) {
    rep.skipped += 1;
    if !rep.skip_reasons.contains(&hypothesis) {
        rep.skip_reasons.push(hypothesis);
    }
}

/// Records the certain violations of one domination report; false-positive guard for
/// grid instances whose tail underflowed.
fn record(rep: &mut BoundReport, params: &Params, label: &str, checks: &[vmod::Check]) {
    for c in checks.iter().filter(|c| c.status == Status::Violated) {
        if !c.instance.value.is_finite() && !c.instance.certified {
            // a grid instance with an empty tail node: no evidence either way
            // (the true value is finite under Gaussian noise)
            rep.errors.push(format!(
                "[{}] {label}: non-finite grid value of {} at {} (tail underflow), not counted",
                fmt_params(params),
                c.kind,
                c.at
            ));
            continue;
        }
        rep.violations.push(Violation {
            params: params.clone(),
            instance: label.to_string(),
            kind: c.kind,
            at: c.at,
            order: c.order,
            bound: c.bound,
            instance_value: c.instance.value,
            instance_error: c.instance.error,
            margin: c.margin,
        });
    }
}

fn run_library(
    entry: &Entry,
    setting: &Setting,
    params: &Params,
    opts: &CheckOptions,
    rep: &mut BoundReport,
) {
    let bound = match bounds_for(setting)
        .into_iter()
        .find(|(id, _)| *id == entry.id)
    {
        Some((_, Ok(b))) => b,
        Some((_, Err(Error::Hypothesis { hypothesis, .. }))) => return skip(rep, hypothesis),
        Some((_, Err(e))) => {
            rep.errors
                .push(format!("[{}] bound: {e}", fmt_params(params)));
            return;
        }
        None => {
            rep.errors.push(format!(
                "[{}] bound {} not offered for this setting",
                fmt_params(params),
                entry.id
            ));
            return;
        }
    };
    let spec = match spec_of(&bound, opts.scale) {
        Ok(s) => s,
        Err(e) => {
            rep.errors
                .push(format!("[{}] bound: {e}", fmt_params(params)));
            return;
        }
    };
    let insts = match (entry.instances)(setting) {
        Ok(v) => v,
        Err(e) => {
            rep.errors
                .push(format!("[{}] instances: {e}", fmt_params(params)));
            return;
        }
    };
    rep.samples_run += 1;
    let mut ratio = f64::INFINITY;
    for (label, inst) in &insts {
        let dom = match validate(&spec, inst.as_ref(), &EPS_GRID, &ORDERS) {
            Ok(d) => d,
            Err(e) => {
                rep.errors
                    .push(format!("[{}] {label}: {e}", fmt_params(params)));
                continue;
            }
        };
        rep.instances += 1;
        rep.inconclusive += dom.inconclusive;
        if let Some(t) = dom.tightness {
            ratio = ratio.min(t);
        }
        record(rep, params, label, &dom.checks);
    }
    if ratio.is_finite() {
        rep.tightness.push(ratio);
        rep.tightness_at.push(params.clone());
    }
}

/// Checks a Rényi *lower* bound: `ε_lower(λ) ≤ D_λ(instance)` in both orders.
/// The margin is `D_λ − ε_lower` (negative: the lower bound is above the exact value).
fn check_lower(curve: &[(f64, f64)], inst: &dyn Instance) -> Result<(Vec<vmod::Check>, f64)> {
    let mut checks = vec![];
    let mut ratio = f64::INFINITY;
    for &(l, lb) in curve {
        for o in Order::BOTH {
            let e = inst.renyi(l, o)?;
            let margin = e.value - lb;
            let status = if margin >= e.error {
                Status::Dominates
            } else if margin < -e.error {
                Status::Violated
            } else {
                Status::Inconclusive
            };
            if lb > 0.0 {
                ratio = ratio.min(e.value / lb);
            }
            checks.push(vmod::Check {
                kind: "renyi-lower",
                at: l,
                order: o,
                bound: lb,
                instance: e,
                margin,
                status,
            });
        }
    }
    Ok((checks, ratio))
}

fn run_renyi(
    f: fn(&Setting, u32) -> Result<Vec<RenyiCase>>,
    setting: &Setting,
    params: &Params,
    opts: &CheckOptions,
    rep: &mut BoundReport,
) {
    let cases = match f(setting, 128) {
        Ok(c) => c,
        Err(Error::Hypothesis { hypothesis, .. }) => return skip(rep, hypothesis),
        Err(e) => {
            rep.errors
                .push(format!("[{}] bound/instances: {e}", fmt_params(params)));
            return;
        }
    };
    rep.samples_run += 1;
    let mut ratio = f64::INFINITY;
    for case in &cases {
        let label = &case.label;
        let res = if case.lower {
            let curve: Vec<(f64, f64)> = case
                .curve
                .iter()
                .map(|&(l, v)| (l, v / opts.scale))
                .collect();
            check_lower(&curve, case.instance.as_ref())
        } else {
            let curve = case
                .curve
                .iter()
                .map(|&(l, v)| (l, v * opts.scale))
                .collect();
            validate(
                &BoundSpec::Renyi(curve),
                case.instance.as_ref(),
                &EPS_GRID,
                &[],
            )
            .map(|d| (d.checks, d.tightness.unwrap_or(f64::INFINITY)))
        };
        let (checks, t) = match res {
            Ok(x) => x,
            Err(e) => {
                rep.errors
                    .push(format!("[{}] {label}: {e}", fmt_params(params)));
                continue;
            }
        };
        rep.instances += 1;
        rep.inconclusive += checks
            .iter()
            .filter(|c| c.status == Status::Inconclusive)
            .count();
        ratio = ratio.min(t);
        record(rep, params, label, &checks);
    }
    if ratio.is_finite() {
        rep.tightness.push(ratio);
        rep.tightness_at.push(params.clone());
    }
}

/// A boxed instance with its label.
pub type LabelledInstance = (String, Box<dyn Instance>);
