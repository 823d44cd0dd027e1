//! Checking a researcher's own bound: `shiftdp verify --claim EXPR --setting FAMILY`.
//!
//! A claim is `mu = EXPR` or `mu <= EXPR`, EXPR a formula in the setting's parameters
//! (see [`VARIABLES`]), evaluated at MPFR precision ([`super::expr`]). It is checked
//! over points sampled from a *setting family* (the region of a validator entry, with
//! `--region` overrides and `key=value` pins; points where a hypothesis of the
//! family's result fails — e.g. η < 2/M for `gd-strong` — are skipped and counted):
//!
//! 1. **soundness** — `G(μ_claim)` must dominate every exact instance of the family
//!    (docs/conventions.md §5) at every point; a certain violation is a counterexample: the
//!    claimed bound is false;
//! 2. **the shift analysis** (full and cyclic batches) — the certified optimum μ* of
//!    the schedule problem (docs/conventions.md §4; τ searched, worst record position) is
//!    what the shifted-interpolation analysis proves. `mu = EXPR` claims the closed form of
//!    that analysis: it fails where |μ_claim − μ*| > tol · μ*, reporting whether the claim
//!    is above (valid but not the analysis' value: loose or mis-transcribed) or below
//!    (not implied by the analysis). `mu <= EXPR` claims only an upper bound: it fails
//!    where μ_claim < μ*(1 − tol) (nothing proves it there).
//!
//! # Rounding
//! Soundness uses the claim's upper end (a violation is reported only if even the
//! largest value consistent with the evaluation loses); the optimum comparison uses the
//! midpoint with the tolerance (the enclosures are far narrower than any tolerance).
//!
//! # References
//! BSA24 Thm 3.3, §4; docs/conventions.md §4, §5.
use super::expr::{Claim, Relation, parse_claim};
use super::outcome::{Ctx, ObligationRun, Outcome, Plot, ResultRun, Series, ratio_summary};
use super::proofs::RegionOverride;
use super::sampling::sample_settings;
use crate::check::region::parse_region;
use crate::check::{self, EPS_GRID, ORDERS};
use shiftdp::bounds::bsa24::{PROP_5_1, THM_4_1, THM_4_2, THM_4_3, THM_4_4, THM_4_5, THM_4_6};
use shiftdp::bounds::bsa24_sgd::{THM_4_8, THM_4_9, THM_4_10};
use shiftdp::error::{Error, Result};
use shiftdp::exact::validate::Status as VStatus;
use shiftdp::exact::{BoundSpec, validate};
use shiftdp::precision::Enclosure;
use shiftdp::schedules::crosscheck;
use shiftdp::schedules::tau::TauSearch;
use shiftdp::settings::{Algorithm, Setting};
use std::collections::BTreeMap;

/// Setting families a claim can be checked on: (name, validator entry whose region and
/// instances are used, description).
pub const FAMILIES: [(&str, &str, &str); 10] = [
    ("gd", THM_4_1, "NoisyGD, full batches, any convex loss"),
    ("gd-strong", THM_4_2, "NoisyGD, m-strongly convex, M-smooth"),
    (
        "gd-constrained",
        THM_4_3,
        "projected NoisyGD, convex, diameter D",
    ),
    ("cgd", THM_4_4, "cyclic NoisyCGD, any convex loss"),
    ("cgd-strong", THM_4_5, "cyclic NoisyCGD, strongly convex"),
    (
        "cgd-constrained",
        THM_4_6,
        "projected cyclic NoisyCGD, diameter D",
    ),
    ("sgd", THM_4_8, "NoisySGD, stochastic batches"),
    ("sgd-strong", THM_4_9, "NoisySGD, strongly convex"),
    (
        "sgd-constrained",
        THM_4_10,
        "projected NoisySGD, diameter D",
    ),
    ("lmc", PROP_5_1, "Langevin Monte Carlo (n = 1, σ = √(2/η))"),
];

/// Variables a claim may use, with their meaning.
pub const VARIABLES: [(&str, &str); 14] = [
    ("n", "dataset size"),
    ("b", "batch size (= n for full batches)"),
    ("t", "steps"),
    ("E", "epochs t/l"),
    ("l", "batches per epoch n/b"),
    ("p", "sampling rate b/n"),
    ("eta", "step size η"),
    ("sigma", "noise multiplier σ (per-step noise std ησ)"),
    ("L", "gradient sensitivity"),
    ("m", "strong convexity"),
    ("M", "smoothness"),
    (
        "c",
        "contraction max{|1 − ηm|, |1 − ηM|} (1 without strong convexity)",
    ),
    ("D", "diameter of the constraint set"),
    ("s", "update sensitivity ηL/b"),
];

/// A family by name.
///
/// # Errors
/// [`Error::Parameter`] listing the families.
pub fn family(name: &str) -> Result<(&'static str, &'static str, &'static str)> {
    FAMILIES
        .iter()
        .find(|f| f.0 == name)
        .copied()
        .ok_or_else(|| {
            Error::param(
                "setting",
                name,
                &format!(
                    "unknown setting family; known: {}",
                    FAMILIES.iter().map(|f| f.0).collect::<Vec<_>>().join(", ")
                ),
            )
        })
}

/// Parses `--setting`: a family name optionally followed by `key=value` pins.
///
/// # Errors
/// Unknown family, or a pin that is not `key=number`.
pub fn parse_setting(text: &str) -> Result<(&'static str, Vec<RegionOverride>)> {
    let mut words = text.split_whitespace();
    let fam = words
        .next()
        .ok_or_else(|| Error::param("setting", text, "empty"))?;
    let (name, _, _) = family(fam)?;
    let mut pins = vec![];
    for w in words {
        pins.extend(parse_region(w)?);
    }
    Ok((name, pins))
}

/// The variables of a setting, as enclosures.
pub fn variables(s: &Setting, bits: u32) -> BTreeMap<String, Enclosure> {
    let i = |x: u64| Enclosure::from_u64(bits, x);
    let l = (s.n() / s.b().max(1)).max(1);
    let mut v = BTreeMap::new();
    v.insert("n".into(), i(s.n()));
    v.insert("b".into(), i(s.b()));
    v.insert("t".into(), i(s.t()));
    v.insert("l".into(), i(l));
    v.insert(
        "E".into(),
        s.epochs().cloned().unwrap_or_else(|| i(s.t()) / i(l)),
    );
    v.insert("p".into(), i(s.b()) / i(s.n()));
    v.insert("eta".into(), s.eta().clone());
    v.insert("sigma".into(), s.sigma().clone());
    v.insert("L".into(), s.sensitivity().clone());
    v.insert(
        "s".into(),
        s.eta().clone() * s.sensitivity().clone() / i(s.b()),
    );
    v.insert("c".into(), s.contraction().cloned().unwrap_or_else(|| i(1)));
    if let Some(m) = s.strong_convexity() {
        v.insert("m".into(), m.clone());
    }
    if let Some(mm) = s.smoothness() {
        v.insert("M".into(), mm.clone());
    }
    if let Some(d) = s.diameter() {
        v.insert("D".into(), d.clone());
    }
    v
}

/// The certified optimum μ* of the schedule problem at a setting (full and cyclic
/// batches, LMC); `None` for stochastic batches (no schedule problem of that form).
///
/// # Errors
/// As the schedule builders.
pub fn optimum(s: &Setting, bits: u32) -> Result<Option<f64>> {
    let search = if s.t() <= 400 {
        TauSearch::Exhaustive
    } else {
        TauSearch::default()
    };
    match s.algorithm() {
        Algorithm::Gd | Algorithm::Lmc => {
            crosscheck::constrained_strongly_convex(s, bits, search).map(|x| Some(x.0))
        }
        Algorithm::Cgd => crosscheck::cgd_optimum(s, bits, search).map(|x| Some(x.0)),
        _ => Ok(None),
    }
}

/// The largest exact-instance μ-equivalent at a setting (the worst instance), for plots.
fn worst_instance(entry: &check::Entry, s: &Setting) -> Option<f64> {
    let insts = (entry.instances)(s).ok()?;
    let mut worst: Option<f64> = None;
    for (_, inst) in &insts {
        // the instance's δ at ε = 0 is TV; map to the μ of G with that TV
        let d = validate(&BoundSpec::Gdp { mu: 1.0 }, inst.as_ref(), &[0.0, 1.0], &[]).ok()?;
        if let Some(t) = d.tightness {
            let mu = 1.0 / t;
            worst = Some(worst.map_or(mu, |w: f64| w.max(mu)));
        }
    }
    worst
}

fn pstr(p: &[(String, String)]) -> String {
    p.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks a claim; returns the result with two obligations (soundness, analysis).
///
/// # Errors
/// A claim that does not parse, whose left side is not `mu`, that uses an unknown
/// variable, or an unknown family / bad region.
pub fn check_claim(
    claim_text: &str,
    setting: &str,
    region: &[RegionOverride],
    tolerance: f64,
    ctx: &Ctx,
) -> Result<ResultRun> {
    let claim: Claim = parse_claim(claim_text)?;
    if claim.lhs != "mu" && claim.lhs != "μ" {
        return Err(Error::param(
            "claim",
            &claim.lhs,
            "the left side must be mu (a Gaussian-DP parameter)",
        ));
    }
    let known: Vec<&str> = VARIABLES.iter().map(|v| v.0).collect();
    for v in claim.expr.variables() {
        if !known.contains(&v.as_str()) {
            return Err(Error::param(
                "claim",
                &v,
                &format!("unknown variable; use {}", known.join(", ")),
            ));
        }
    }
    let (fam, pins) = parse_setting(setting)?;
    let (_, entry_id, desc) = family(fam)?;
    let entry = check::find(entry_id)?;
    let mut overrides = pins;
    overrides.extend_from_slice(region);
    let n = ctx.samples_or(entry.default_samples);
    let points = sample_settings(
        &entry,
        &overrides,
        n,
        crate::check::salted(ctx.seed, "claim"),
    );

    let mut sound: Option<Outcome> = None;
    let mut analysis: Option<Outcome> = None;
    let (mut n_sound, mut n_opt) = (0usize, 0usize);
    let mut ratios_inst = vec![];
    let mut ratios_opt = vec![];
    let mut first_ok: Option<Setting> = None;
    let mut skipped = 0usize;
    // the certified-precision comparison: points compared, the worst margin, the first
    // point where the claim is not supported
    let mut n_cert = 0usize;
    let mut worst: Option<(Certified, Vec<(String, String)>)> = None;
    let mut certified: Option<(Certified, Vec<(String, String)>)> = None;
    for (params, setting) in points {
        let Ok(s) = setting else { continue };
        // the family is defined by the hypotheses of its result (e.g. η < 2/M, c < 1)
        if let Some(Err(Error::Hypothesis { .. })) = shiftdp::analysis::bound_named(&s, entry_id) {
            skipped += 1;
            continue;
        }
        let vars = variables(&s, ctx.bits);
        let mu = match claim.expr.eval(&vars, ctx.bits) {
            Ok(m) => m,
            Err(e) => {
                sound.get_or_insert(Outcome::fail(
                    "claim evaluation",
                    n_sound,
                    params.clone(),
                    format!("the expression is not defined here: {e}"),
                ));
                continue;
            }
        };
        if mu.lower_f64().is_nan() || mu.lower_f64() < 0.0 {
            sound.get_or_insert(Outcome::fail(
                "claim evaluation",
                n_sound,
                params.clone(),
                format!(
                    "μ_claim = {:.6e} is negative: not a tradeoff function",
                    mu.mid_f64()
                ),
            ));
            continue;
        }
        // 1. soundness against the exact instances
        let insts = match (entry.instances)(&s) {
            Ok(v) => v,
            Err(e) => {
                return Ok(error_run(
                    claim_text,
                    fam,
                    &format!("instances at {}: {e}", pstr(&params)),
                ));
            }
        };
        let spec = BoundSpec::Gdp { mu: mu.upper_f64() };
        n_sound += 1;
        for (label, inst) in &insts {
            let dom = match validate(&spec, inst.as_ref(), &EPS_GRID, &ORDERS) {
                Ok(d) => d,
                Err(e) => {
                    return Ok(error_run(
                        claim_text,
                        fam,
                        &format!("{label} at {}: {e}", pstr(&params)),
                    ));
                }
            };
            if let Some(t) = dom.tightness {
                ratios_inst.push(t);
            }
            if let Some(c) = dom.checks.iter().find(|c| c.status == VStatus::Violated) {
                sound.get_or_insert(Outcome::fail(
                    "soundness: G(μ_claim) dominates every exact instance",
                    n_sound,
                    params.clone(),
                    format!(
                        "μ_claim = {:.12e} is violated by the exact instance `{label}`: {} at {} ({:?}) bound {:.6e} vs instance {:.6e} ± {:.1e}",
                        mu.mid_f64(), c.kind, c.at, c.order, c.bound, c.instance.value, c.instance.error
                    ),
                ));
                break;
            }
        }
        // 2. the shift analysis
        match optimum(&s, ctx.bits) {
            Ok(Some(opt)) => {
                n_opt += 1;
                // 3. at the certified precision, where the result's closed form is the
                // analysis' value
                if let Some(Ok(b)) = shiftdp::analysis::bound_named(&s, entry_id)
                    && let Some(reference) = b.mu()
                    && ((reference.mid_f64() - opt) / opt.max(f64::MIN_POSITIVE)).abs()
                        <= tolerance.max(1e-9)
                {
                    n_cert += 1;
                    match compare_certified(&claim, &s, reference, ctx.bits) {
                        Ok(c) => {
                            let worse = match (&worst, claim.relation) {
                                (None, _) => true,
                                (Some(w), Relation::Eq) => c.margin.abs() > w.0.margin.abs(),
                                (Some(w), Relation::Le) => c.margin < w.0.margin,
                            };
                            if c.verdict != Verdict::Supported && certified.is_none() {
                                certified = Some((c.clone(), params.clone()));
                            }
                            if worse {
                                worst = Some((c, params.clone()));
                            }
                        }
                        Err(e) => {
                            return Ok(error_run(
                                claim_text,
                                fam,
                                &format!("claim at {}: {e}", pstr(&params)),
                            ));
                        }
                    }
                }
                let x = mu.mid_f64();
                ratios_opt.push(x / opt);
                let rel = (x - opt) / opt.max(f64::MIN_POSITIVE);
                let bad = match claim.relation {
                    Relation::Eq => rel.abs() > tolerance,
                    Relation::Le => rel < -tolerance,
                };
                if bad {
                    let why = if rel > 0.0 {
                        "the claim is ABOVE what the shift analysis proves (valid if sound, but not the analysis' value: loose or mis-transcribed)"
                    } else {
                        "the claim is BELOW what the shift analysis proves: not implied by it"
                    };
                    analysis.get_or_insert(Outcome::fail(
                        "analysis: claim vs the certified schedule optimum",
                        n_opt,
                        params.clone(),
                        format!("μ_claim = {x:.12e}, optimum μ* = {opt:.12e}, relative difference {rel:.3e}: {why}"),
                    ));
                }
            }
            Ok(None) => {}
            Err(Error::Hypothesis { .. }) => {}
            Err(e) => {
                return Ok(error_run(
                    claim_text,
                    fam,
                    &format!("schedule optimum at {}: {e}", pstr(&params)),
                ));
            }
        }
        if first_ok.is_none() {
            first_ok = Some(s);
        }
    }
    let t_inst = ratio_summary(&ratios_inst);
    let t_opt = ratio_summary(&ratios_opt);
    let mut sound = match sound {
        Some(o) => o,
        None if n_sound == 0 => Outcome::error("no admissible point in the region"),
        None => Outcome::pass(
            format!("G(μ_claim) dominates every exact instance at {n_sound} points, {skipped} outside the family's hypotheses (ratio μ_claim / instance)"),
            n_sound,
        ),
    }
    .with_tightness(t_inst);
    sound.points = n_sound;
    let analysis = match (analysis, n_opt) {
        (Some(o), _) => o.with_tightness(t_opt),
        (None, 0) => Outcome::pass(
            "no schedule problem for this family (stochastic batches): soundness only",
            0,
        ),
        (None, k) => Outcome::pass(
            format!(
                "μ_claim {} the certified optimum at {k} points (ratio μ_claim / μ*)",
                if claim.relation == Relation::Eq {
                    "equals"
                } else {
                    "is ≥"
                }
            ),
            k,
        )
        .with_tightness(t_opt),
    };
    let precision = certified_outcome(&claim, n_cert, worst, certified);
    if let Some(s) = &first_ok
        && let Some(p) = claim_plot(&claim, &entry, s, ctx.bits)
    {
        sound = sound.with_plot(p);
    }
    Ok(ResultRun {
        id: format!("claim on {fam}"),
        title: claim_text.to_string(),
        path: String::new(),
        statement: format!(
            "{claim_text}\n\nsetting family: {fam} ({desc}); region: validator entry {entry_id}{}",
            if overrides.is_empty() {
                String::new()
            } else {
                format!(
                    " with overrides {}",
                    overrides
                        .iter()
                        .map(|r| format!("{}={:?}", r.key, r.range))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ),
        runs: vec![
            ObligationRun {
                label: "soundness against exact instances".into(),
                kind: "claim-soundness".into(),
                outcome: sound,
            },
            ObligationRun {
                label: "against the optimized shift schedule".into(),
                kind: "claim-schedule".into(),
                outcome: analysis,
            },
            ObligationRun {
                label: "against the closed form at the certified precision".into(),
                kind: "claim-certified".into(),
                outcome: precision,
            },
        ],
    })
}

/// Largest working precision (bits) a claim is re-evaluated at when its enclosure is
/// too wide to decide.
pub const MAX_CLAIM_BITS: u32 = 1024;

/// How a claim compares with the certified value at one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The enclosures support the claim (`=`: they overlap and are narrow; `≤`: the
    /// claim is not certainly below).
    Supported,
    /// The claim is certainly below the certified value.
    Below,
    /// The claim is certainly above the certified value (`=` only).
    Above,
    /// The enclosures overlap but are too wide to decide, even at [`MAX_CLAIM_BITS`].
    Undecided,
}

/// A claim against the certified value at one point.
#[derive(Debug, Clone)]
pub struct Certified {
    /// The verdict.
    pub verdict: Verdict,
    /// `(μ_claim − μ)/μ` at the midpoints: the relative margin, negative when the claim
    /// is below.
    pub margin: f64,
    /// `μ_claim − μ` at the midpoints.
    pub difference: f64,
    /// The certified value μ (midpoint).
    pub value: f64,
    /// The precision (bits) the claim was decided at.
    pub bits: u32,
}

/// Compares a claim with the certified closed form `reference` at setting `s`: the
/// claim's enclosure at `bits`, doubled up to [`MAX_CLAIM_BITS`] while the two
/// enclosures overlap but are wider (relative) than `2^{−(bits − 16)}` — the
/// resolution the comparison promises at that precision.
///
/// `mu = EXPR` is supported when the enclosures overlap, `mu <= EXPR` when the claim is
/// not certainly below (`claim.hi ≥ μ.lo`). A claim 10⁻¹⁸ or 10⁻³⁰ below μ in relative
/// terms is certainly below at 128 bits (enclosure widths ≈ 2⁻¹²⁰).
///
/// # Errors
/// The claim cannot be evaluated at `s`.
pub fn compare_certified(
    claim: &Claim,
    s: &Setting,
    reference: &Enclosure,
    bits: u32,
) -> Result<Certified> {
    let mut wp = bits;
    loop {
        let vars = variables(s, wp);
        let mu = claim.expr.eval(&vars, wp)?;
        let r = reference.with_prec(wp.max(reference.prec()));
        let diff = mu.sub(&r);
        let margin = diff.clone() / r.clone();
        let below = mu.hi() < r.lo();
        let above = mu.lo() > r.hi();
        let resolution = -(f64::from(bits) - 16.0);
        let narrow = mu.rel_width_log2() <= resolution && r.rel_width_log2() <= resolution;
        let verdict = match (below, above, claim.relation) {
            (true, _, _) => Verdict::Below,
            (_, true, Relation::Eq) => Verdict::Above,
            (_, true, Relation::Le) => Verdict::Supported,
            _ if narrow => Verdict::Supported,
            _ if wp < MAX_CLAIM_BITS => {
                wp = (wp * 2).min(MAX_CLAIM_BITS);
                continue;
            }
            _ => Verdict::Undecided,
        };
        return Ok(Certified {
            verdict,
            margin: margin.mid_f64(),
            difference: diff.mid_f64(),
            value: r.mid_f64(),
            bits: wp,
        });
    }
}

/// The outcome of the certified-precision obligation.
fn certified_outcome(
    claim: &Claim,
    n: usize,
    worst: Option<(Certified, Vec<(String, String)>)>,
    bad: Option<(Certified, Vec<(String, String)>)>,
) -> Outcome {
    let describe = |c: &Certified| {
        format!(
            "margin μ_claim − μ = {:+.3e} (relative {:+.3e}) against μ = {:.17e}, decided at {} bits",
            c.difference, c.margin, c.value, c.bits
        )
    };
    // the signed relative margin of the point reported (positive: the claim is above)
    let shown = bad.as_ref().or(worst.as_ref()).map(|(c, _)| c.margin);
    let mut o = match (bad, worst) {
        (Some((c, params)), _) => {
            let why = match c.verdict {
                Verdict::Below => "the claim is certainly BELOW the certified value",
                Verdict::Above => "the claim is certainly ABOVE the certified value",
                _ => "undecided",
            };
            if c.verdict == Verdict::Undecided {
                let mut o = Outcome::error(format!(
                    "undecided at {} bits: the enclosures of μ_claim and μ overlap but are wider than the comparison's resolution; {}",
                    c.bits,
                    describe(&c)
                ));
                o.points = n;
                o
            } else {
                Outcome::fail(
                    "certified precision: μ_claim against the closed form",
                    n,
                    params,
                    format!("{why}: {}", describe(&c)),
                )
            }
        }
        (None, Some((c, _))) => Outcome::pass(
            format!(
                "μ_claim {} the certified closed form at {n} points; worst {}",
                if claim.relation == Relation::Eq {
                    "equals"
                } else {
                    "is ≥"
                },
                describe(&c)
            ),
            n,
        ),
        (None, None) => Outcome::pass(
            "no point where the result has a GDP closed form equal to the analysis' value: not compared",
            0,
        ),
    };
    o.min_margin = shown;
    o
}

fn error_run(claim: &str, fam: &str, msg: &str) -> ResultRun {
    ResultRun {
        id: format!("claim on {fam}"),
        title: claim.to_string(),
        path: String::new(),
        statement: claim.to_string(),
        runs: vec![ObligationRun {
            label: "claim".into(),
            kind: "claim".into(),
            outcome: Outcome::error(msg),
        }],
    }
}

/// μ_claim, the optimum and the worst instance against t at one point.
fn claim_plot(claim: &Claim, entry: &check::Entry, s: &Setting, bits: u32) -> Option<Plot> {
    let step = if s.algorithm() == Algorithm::Cgd {
        s.n() / s.b().max(1)
    } else {
        1
    };
    let (mut a, mut o, mut w) = (vec![], vec![], vec![]);
    for k in 1..=30u64 {
        let Ok(s2) = s.clone().with_steps(k * step) else {
            break;
        };
        let x = (k * step) as f64;
        // the plot's abscissa counts whole passes: E = t/l
        let mut vars = variables(&s2, bits);
        let passes = vars["t"].clone() / vars["l"].clone();
        vars.insert("E".into(), passes);
        if let Ok(m) = claim.expr.eval(&vars, bits) {
            a.push((x, m.mid_f64()));
        }
        if let Ok(Some(v)) = optimum(&s2, bits) {
            o.push((x, v));
        }
        if let Some(v) = worst_instance(entry, &s2) {
            w.push((x, v));
        }
    }
    let mut series = vec![Series::new("claim", a)];
    if !o.is_empty() {
        series.push(Series::new("schedule optimum (certified)", o));
    }
    series.push(Series::new("worst exact instance", w));
    Some(Plot {
        title: "claim against steps".into(),
        caption: None,
        x_label: "steps t".into(),
        y_label: "μ".into(),
        series,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gd() -> Setting {
        Setting::from_pairs(
            Algorithm::Gd,
            &[
                ("n", "3"),
                ("steps", "76"),
                ("eta", "0.432"),
                ("noise", "2.932"),
                ("sensitivity", "1.018"),
            ],
        )
        .unwrap()
    }

    /// μ = √t·L/(nσ) (BSA24 Thm 4.1) at 256 bits from the setting's parameters: the
    /// reference is computed here, not by the bound code.
    fn reference(s: &Setting) -> Enclosure {
        let v = variables(s, 256);
        (v["t"].sqrt() * v["L"].clone() / (v["n"].clone() * v["sigma"].clone())).with_prec(256)
    }

    #[test]
    fn claims_below_by_tiny_relative_amounts_are_certainly_below_with_their_margin() {
        let s = gd();
        let r = reference(&s);
        let exact = parse_claim("mu = sqrt(t)*L/(n*sigma)").unwrap();
        let c = compare_certified(&exact, &s, &r, 128).unwrap();
        assert_eq!(c.verdict, Verdict::Supported);
        assert!(c.margin.abs() < 1e-33, "{}", c.margin);
        for k in [18, 30] {
            let below = parse_claim(&format!("mu = sqrt(t)*L/(n*sigma)*(1-1e-{k})")).unwrap();
            let c = compare_certified(&below, &s, &r, 128).unwrap();
            assert_eq!(c.verdict, Verdict::Below, "1e-{k}");
            let want = -(10f64.powi(-k));
            assert!(
                (c.margin / want - 1.0).abs() < 1e-6,
                "{} vs {want}",
                c.margin
            );
            assert!(c.difference < 0.0);
            let above = parse_claim(&format!("mu = sqrt(t)*L/(n*sigma)*(1+1e-{k})")).unwrap();
            assert_eq!(
                compare_certified(&above, &s, &r, 128).unwrap().verdict,
                Verdict::Above
            );
            // `<=`: above supports the claim, below does not
            let le_above = parse_claim(&format!("mu <= sqrt(t)*L/(n*sigma)*(1+1e-{k})")).unwrap();
            assert_eq!(
                compare_certified(&le_above, &s, &r, 128).unwrap().verdict,
                Verdict::Supported
            );
            let le_below = parse_claim(&format!("mu <= sqrt(t)*L/(n*sigma)*(1-1e-{k})")).unwrap();
            assert_eq!(
                compare_certified(&le_below, &s, &r, 128).unwrap().verdict,
                Verdict::Below
            );
        }
    }

    #[test]
    fn a_wide_reference_is_undecided_at_the_largest_precision() {
        // a reference enclosure of relative width 1e-20 cannot decide a claim 1e-30 off
        let s = gd();
        let r = reference(&s);
        let mid = r.mid_f64();
        let wide = Enclosure::new(
            rug::Float::with_val(256, mid * (1.0 - 1e-15)),
            rug::Float::with_val(256, mid * (1.0 + 1e-15)),
        )
        .unwrap();
        let claim = parse_claim("mu = sqrt(t)*L/(n*sigma)*(1-1e-30)").unwrap();
        let c = compare_certified(&claim, &s, &wide, 128).unwrap();
        assert_eq!(c.verdict, Verdict::Undecided);
        assert_eq!(c.bits, MAX_CLAIM_BITS);
    }
}
