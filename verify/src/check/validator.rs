//! The validator's run: [`check_bound`] samples admissible settings from an entry's
//! region, computes the bound, builds the instances, runs
//! [`validate`](fn@shiftdp::exact::validate) on each, and collects violations and
//! tightness ratios (see the module [`super`] for the formula).
use super::catalogue::{BoundHook, Entry, Params, raw_of};
use super::common::{EPS_GRID, ORDERS, RenyiCase, SplitMix64, salted};
use super::region::{self, RegionOverride};
use shiftdp::analysis::bound;
use shiftdp::bounds::{Bound, BoundKind};
use shiftdp::error::{Error, Result};
use shiftdp::exact::validate::{self as vmod, Status};
use shiftdp::exact::{BoundSpec, Instance, Order, validate};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::settings::Setting;

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
    /// Every comparison made (bound against instance at one grid point and order):
    /// certain dominations, inconclusive ones and violations.
    pub comparisons: usize,
    /// Tightness ratio per validated sample (bound over the largest instance value; for
    /// a lower bound, the smallest instance value over the bound).
    pub tightness: Vec<f64>,
    /// The parameters of each entry of [`tightness`](Self::tightness) (same order).
    pub tightness_at: Vec<Params>,
    /// Failures to build or evaluate an instance / the bound (parameters and message).
    pub errors: Vec<String>,
}

impl BoundReport {
    /// Counts one skipped point and records its reason (a failed hypothesis or a
    /// refusal) once.
    pub fn skip(&mut self, reason: String) {
        self.skipped += 1;
        if !self.skip_reasons.contains(&reason) {
            self.skip_reasons.push(reason);
        }
    }

    /// Records an error at the point `params`: `[params] what: e`.
    fn error_at(
        &mut self,
        params: &Params,
        what: impl std::fmt::Display,
        e: impl std::fmt::Display,
    ) {
        self.errors
            .push(format!("[{}] {what}: {e}", fmt_params(params)));
    }

    /// Records the tightness `ratio` of the point `params`, if it is finite (some
    /// instance gave a ratio).
    fn tightness_at_point(&mut self, ratio: f64, params: &Params) {
        if ratio.is_finite() {
            self.tightness.push(ratio);
            self.tightness_at.push(params.clone());
        }
    }

    /// An empty report for the bound `id` over `region` (nothing run yet).
    pub fn new(id: &'static str, region: &'static str) -> BoundReport {
        BoundReport {
            id,
            region,
            samples_run: 0,
            skipped: 0,
            inadmissible: 0,
            overrides: vec![],
            skip_reasons: vec![],
            instances: 0,
            violations: vec![],
            inconclusive: 0,
            comparisons: 0,
            tightness: vec![],
            tightness_at: vec![],
            errors: vec![],
        }
    }

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

/// δ values at which composition-family bounds are turned into (ε, δ) points.
pub const DELTAS: [f64; 2] = [1e-2, 1e-4];

/// The bound's checkable form, with its parameter scaled by `scale`.
fn spec_of(bound: &Bound, scale: f64) -> Result<BoundSpec> {
    match &bound.kind() {
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
            bound.id(),
            "pure ε-DP bounds are not in the validator's catalogue",
        )),
        BoundKind::Renyi { .. } => Err(Error::param(
            "bound",
            bound.id(),
            "Rényi bounds are checked through their Rényi hooks (BoundHook::Renyi)",
        )),
        _ => Err(Error::param(
            "bound",
            bound.id(),
            "a bound kind the validator has no check for",
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
    let mut rng = SplitMix64::new(salted(opts.seed, entry.id.as_str()));
    let mut rep = BoundReport::new(entry.id.as_str(), entry.region);
    rep.overrides = opts.region.iter().map(|o| o.to_string()).collect();
    for _ in 0..n {
        let mut params = (entry.sample)(&mut rng);
        region::apply(&opts.region, &mut rng, &mut params);
        let raw = raw_of(&params);
        let setting = match Setting::new(entry.algorithm, &raw) {
            Ok(s) => s,
            Err(_) if !opts.region.is_empty() => {
                rep.inadmissible += 1;
                continue;
            }
            Err(e) => {
                rep.error_at(&params, "setting", e);
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
    let bound = match bound(setting, entry.id) {
        Some(Ok(b)) => b,
        Some(Err(Error::Hypothesis { hypothesis, .. })) => return rep.skip(hypothesis),
        Some(Err(e)) => {
            rep.error_at(params, "bound", e);
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
            rep.error_at(params, "bound", e);
            return;
        }
    };
    let insts = match (entry.instances)(setting) {
        Ok(v) => v,
        Err(e) => {
            rep.error_at(params, "instances", e);
            return;
        }
    };
    rep.samples_run += 1;
    let mut ratio = f64::INFINITY;
    for (label, inst) in &insts {
        let dom = match validate(&spec, inst.as_ref(), &EPS_GRID, &ORDERS) {
            Ok(d) => d,
            Err(e) => {
                rep.error_at(params, label, e);
                continue;
            }
        };
        rep.instances += 1;
        rep.inconclusive += dom.inconclusive;
        rep.comparisons += dom.checks.len();
        if let Some(t) = dom.tightness {
            ratio = ratio.min(t);
        }
        record(rep, params, label, &dom.checks);
    }
    rep.tightness_at_point(ratio, params);
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
        Err(Error::Hypothesis { hypothesis, .. }) => return rep.skip(hypothesis),
        Err(e) => {
            rep.error_at(params, "bound/instances", e);
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
                rep.error_at(params, label, e);
                continue;
            }
        };
        rep.instances += 1;
        rep.comparisons += checks.len();
        rep.inconclusive += checks
            .iter()
            .filter(|c| c.status == Status::Inconclusive)
            .count();
        ratio = ratio.min(t);
        record(rep, params, label, &checks);
    }
    rep.tightness_at_point(ratio, params);
}
