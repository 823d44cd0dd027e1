//! Checking a researcher's bound for a batch sampler: `shiftdp verify --claim EXPR
//! --sampler SAMPLER`.
//!
//! A claim is `epsilon <= EXPR` (or `epsilon = EXPR`, read the same way): *every run of
//! the sampler is (EXPR, δ)-DP*, EXPR a formula in the run's parameters
//! ([`SAMPLER_VARIABLES`]), evaluated at MPFR precision ([`super::expr`]). It is
//! checked at every point of a grid of runs ([`SamplerRegion`]) against the sampler's
//! certified interval ([`samplers::account`]):
//!
//! * **refuted** where the claim's upper end is below a certified lower bound: an
//!   explicit pair of neighbouring datasets and a test violate it, so the claimed bound
//!   is false (the first such point, in grid order, is the counterexample);
//! * **implied** where it is at least the certified upper bound;
//! * **open** in between: neither proved nor refuted by what the toolkit certifies.
//!
//! A new shuffling analysis can so be tested before it is published.
//!
//! # Rounding
//! The claim's enclosure is compared by its upper end against the lower bound's lower
//! end (a refutation is reported only if even the largest value consistent with the
//! evaluation loses), and by its lower end against the upper bound's upper end.
use super::expr::{Claim, parse_claim};
use super::outcome::{ObligationRun, Outcome, ResultRun};
use rayon::prelude::*;
use shiftdp::error::{Error, Result};
use shiftdp::precision::Enclosure;
use shiftdp::samplers::{self, Relation, Run, Sampler};
use std::collections::BTreeMap;

/// Variables a sampler claim may use, with their meaning.
pub const SAMPLER_VARIABLES: [(&str, &str); 8] = [
    ("sigma", "noise multiplier σ"),
    ("E", "epochs"),
    ("T", "batches per epoch"),
    ("S", "steps T·E"),
    ("b", "batch size"),
    ("n", "records T·b"),
    ("q", "sampling rate b/n = 1/T"),
    ("delta", "δ"),
];

/// Width goal of the certified intervals a claim is checked against.
pub const SAMPLER_CLAIM_TOLERANCE: f64 = 1e-3;

/// The grid of runs a sampler claim is checked on: every combination, `n = T·b`.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerRegion {
    /// Noise multipliers σ.
    pub sigma: Vec<f64>,
    /// Epochs E.
    pub epochs: Vec<u64>,
    /// Batches per epoch T.
    pub steps_per_epoch: Vec<u64>,
    /// Batch size b.
    pub batch: u64,
    /// δ values.
    pub delta: Vec<f64>,
}

impl Default for SamplerRegion {
    /// σ ∈ {0.5, 0.8, 1, 2}, E ∈ {1, 2, 5, 10}, T ∈ {10, 100, 1000}, b = 100,
    /// δ ∈ {1e-5, 1e-10}.
    fn default() -> Self {
        SamplerRegion {
            sigma: vec![0.5, 0.8, 1.0, 2.0],
            epochs: vec![1, 2, 5, 10],
            steps_per_epoch: vec![10, 100, 1000],
            batch: 100,
            delta: vec![1e-5, 1e-10],
        }
    }
}

impl SamplerRegion {
    /// The default grid with `key=v1,v2,…` overrides separated by spaces or `;` (keys
    /// `sigma`, `E`, `T`, `b`, `delta`), e.g. `"sigma=0.5,1 T=10 delta=1e-5"`.
    ///
    /// # Errors
    /// [`Error::Parameter`] for an unknown key, a value that is not a number, an empty
    /// list, or a value outside its domain (σ > 0 finite, E, T, b ≥ 1, δ ∈ (0, 1)).
    pub fn parse(text: &str) -> Result<SamplerRegion> {
        let mut r = SamplerRegion::default();
        for item in text.split([' ', ';']).filter(|w| !w.is_empty()) {
            let (key, values) = item.split_once('=').ok_or_else(|| {
                Error::param(
                    "region",
                    item,
                    "expects key=v1,v2,… (sigma, E, T, b, delta)",
                )
            })?;
            let reals = || -> Result<Vec<f64>> {
                values
                    .split(',')
                    .map(|v| {
                        v.trim()
                            .parse::<f64>()
                            .map_err(|_| Error::param(key, v, "expects a number"))
                    })
                    .collect()
            };
            let ints = || -> Result<Vec<u64>> {
                values
                    .split(',')
                    .map(|v| match v.trim().parse::<u64>() {
                        Ok(k) if k >= 1 => Ok(k),
                        _ => Err(Error::param(key, v, "expects an integer ≥ 1")),
                    })
                    .collect()
            };
            match key {
                "sigma" => r.sigma = reals()?,
                "E" | "epochs" => r.epochs = ints()?,
                "T" => r.steps_per_epoch = ints()?,
                "b" | "batch" => {
                    let b = ints()?;
                    if b.len() != 1 {
                        return Err(Error::param("b", values, "expects one batch size"));
                    }
                    r.batch = b[0];
                }
                "delta" => r.delta = reals()?,
                _ => {
                    return Err(Error::param(
                        "region",
                        key,
                        "unknown key; use sigma, E, T, b, delta",
                    ));
                }
            }
        }
        if let Some(s) = r.sigma.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
            return Err(Error::param("sigma", s, "must be finite and > 0"));
        }
        if let Some(d) = r.delta.iter().find(|d| !(**d > 0.0 && **d < 1.0)) {
            return Err(Error::param("delta", d, "must be in (0, 1)"));
        }
        if r.sigma.is_empty() || r.delta.is_empty() {
            return Err(Error::param("region", text, "an empty list"));
        }
        Ok(r)
    }

    /// The points `(σ, E, T, δ)` in grid order.
    fn points(&self) -> Vec<(f64, u64, u64, f64)> {
        let mut v = vec![];
        for &s in &self.sigma {
            for &e in &self.epochs {
                for &t in &self.steps_per_epoch {
                    for &d in &self.delta {
                        v.push((s, e, t, d));
                    }
                }
            }
        }
        v
    }
}

/// The claim's variables at a run.
fn variables(run: &Run, delta: f64, bits: u32) -> BTreeMap<String, Enclosure> {
    let i = |x: u64| Enclosure::from_u64(bits, x);
    let mut v = BTreeMap::new();
    v.insert("sigma".into(), Enclosure::from_f64(bits, run.sigma()));
    v.insert("E".into(), i(run.epochs()));
    v.insert("T".into(), i(run.steps_per_epoch()));
    v.insert("S".into(), i(run.steps()));
    v.insert("b".into(), i(run.batch()));
    v.insert("n".into(), i(run.n()));
    v.insert("q".into(), i(run.batch()) / i(run.n()));
    v.insert("delta".into(), Enclosure::from_f64(bits, delta));
    v
}

/// What one grid point found.
enum Verdict {
    Refuted {
        claim: f64,
        lower: f64,
        instance: String,
    },
    Implied,
    Open,
    NotEvaluated(String),
}

/// Checks `claim_text` for `sampler` under `relation` over `region` (see the module
/// doc), in parallel over the points.
///
/// # Example
/// The no-amplification Gaussian bound `μ²/2 + μ√(2 ln(1/δ))`, `μ = √E/σ`, holds for
/// shuffling (it is implied everywhere), while a claim of amplification by `1/√T` is
/// refuted:
/// ```
/// use shiftdp::samplers::{Relation, Sampler};
/// use shiftdp_verify::sampler_claim::{SamplerRegion, check_sampler_claim};
/// use shiftdp_verify::Status;
/// let region = SamplerRegion::parse("sigma=1 E=1 T=10 delta=1e-5")?;
/// let ok = check_sampler_claim("epsilon <= E/(2*sigma^2) + sqrt(2*E*ln(1/delta))/sigma",
///     Sampler::Shuffle, Relation::ZeroOut, &region, 128)?;
/// assert_eq!(ok.status(), Status::Pass);
/// let bad = check_sampler_claim("epsilon <= sqrt(E)/(sigma*sqrt(T))",
///     Sampler::Shuffle, Relation::ZeroOut, &region, 128)?;
/// assert_eq!(bad.status(), Status::Fail);
/// # Ok::<(), shiftdp::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] for a claim that does not parse; [`Error::Parameter`] for a left
/// side other than `epsilon`, an unknown variable, or a sampler/relation pair that
/// [`Run::new`] refuses.
pub fn check_sampler_claim(
    claim_text: &str,
    sampler: Sampler,
    relation: Relation,
    region: &SamplerRegion,
    bits: u32,
) -> Result<ResultRun> {
    let claim: Claim = parse_claim(claim_text)?;
    if claim.lhs != "epsilon" {
        return Err(Error::param(
            "claim",
            &claim.lhs,
            "the left side must be epsilon (a claimed ε at δ)",
        ));
    }
    let known: Vec<&str> = SAMPLER_VARIABLES.iter().map(|v| v.0).collect();
    if let Some(v) = claim
        .expr
        .variables()
        .into_iter()
        .find(|v| !known.contains(&v.as_str()))
    {
        return Err(Error::param(
            "claim",
            &v,
            &format!("unknown variable; use {}", known.join(", ")),
        ));
    }
    let points = region.points();
    // a pair no analysis covers is refused before any work
    Run::new(sampler, region.batch, region.batch, 1, 1.0, relation, false)?;
    let verdicts: Vec<Result<Verdict>> = points
        .par_iter()
        .map(|&(sigma, e, t, delta)| {
            let run = Run::new(
                sampler,
                t * region.batch,
                region.batch,
                e,
                sigma,
                relation,
                false,
            )?;
            let c = match claim.expr.eval(&variables(&run, delta, bits), bits) {
                Ok(c) => c,
                Err(e) => return Ok(Verdict::NotEvaluated(e.to_string())),
            };
            let r = samplers::account(&run, delta, SAMPLER_CLAIM_TOLERANCE)?;
            let (hi, lo) = (c.upper_f64(), c.lower_f64());
            if let Some(l) = r.best_lower()
                && hi < l.epsilon.lower
            {
                return Ok(Verdict::Refuted {
                    claim: hi,
                    lower: l.epsilon.lower,
                    instance: l.name.clone(),
                });
            }
            Ok(if lo >= r.interval().upper {
                Verdict::Implied
            } else {
                Verdict::Open
            })
        })
        .collect();
    let (mut implied, mut open, mut refuted, mut skipped) = (0usize, 0usize, 0usize, vec![]);
    let mut first: Option<Outcome> = None;
    for (&(sigma, e, t, delta), v) in points.iter().zip(verdicts) {
        match v? {
            Verdict::Refuted {
                claim: c,
                lower,
                instance,
            } => {
                refuted += 1;
                if first.is_none() {
                    first = Some(Outcome::fail(
                        "",
                        0,
                        vec![
                            ("sigma".into(), format!("{sigma}")),
                            ("E".into(), e.to_string()),
                            ("T".into(), t.to_string()),
                            ("b".into(), region.batch.to_string()),
                            ("delta".into(), format!("{delta:e}")),
                        ],
                        format!(
                            "claimed ε ≤ {} < certified lower bound {} ({instance})",
                            shiftdp::decimal::f64_up(c, 7),
                            shiftdp::decimal::f64_down(lower, 7)
                        ),
                    ));
                }
            }
            Verdict::Implied => implied += 1,
            Verdict::Open => open += 1,
            Verdict::NotEvaluated(why) => skipped.push(why),
        }
    }
    let n = points.len() - skipped.len();
    let summary = format!(
        "{sampler} batches, {relation}: {n} runs — refuted at {refuted}, implied by the certified upper bound at {implied}, open (between the bounds) at {open}{}",
        if skipped.is_empty() {
            String::new()
        } else {
            format!(
                "; {} runs where the claim is undefined ({})",
                skipped.len(),
                skipped[0]
            )
        }
    );
    let outcome = match first {
        Some(mut o) => {
            o.summary = summary;
            o.points = n;
            o
        }
        None if n == 0 => Outcome::error(summary),
        None => Outcome::pass(summary, n),
    };
    Ok(ResultRun {
        id: "claim".into(),
        title: format!("{claim} for {sampler} batches ({relation})"),
        path: String::new(),
        statement: format!(
            "every run of the {sampler} sampler under {relation} neighbours is (ε, δ)-DP with {claim}"
        ),
        runs: vec![ObligationRun {
            label: "against the sampler's certified lower and upper bounds".into(),
            kind: "claim-sampler".into(),
            outcome,
        }],
    })
}
