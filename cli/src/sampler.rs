//! `shiftdp sampler SAMPLER`: the certified ε(δ) of a DP-SGD run for the batch sampler
//! actually used — an upper bound valid for it, lower bounds from explicit instances,
//! and the Poisson ε a peer accountant reports, flagged when it is below the lower bound
//! (the library's `samplers` module).
use super::compare::analysis_lines;
use super::setting::setting_json;
use super::{Output, SafeEnd, f64_down, f64_up, interval_f64};
use serde_json::{Value, json};
use shiftdp::RawSetting;
use shiftdp::analysis::sampled::{LastIterate, analyze_sampled};
use shiftdp::error::Result;
use shiftdp::precision::Precision;
use shiftdp::samplers::{Bound, Relation, Run, Sampler};

/// The run flags shared by `shiftdp sampler` and `shiftdp plot sampler`.
#[derive(Debug, Clone, clap::Args)]
pub struct SamplerRunArgs {
    /// Records n.
    #[arg(long)]
    pub n: u64,
    /// Batch size b (the expected size for poisson and balls-in-bins).
    #[arg(long)]
    pub batch: u64,
    /// Noise multiplier σ (noise standard deviation over the clipping norm).
    #[arg(long)]
    pub noise_multiplier: f64,
    /// add-remove, zero-out or replace-one.
    #[arg(long, default_value = "zero-out")]
    pub relation: String,
    /// Target δ.
    #[arg(long, default_value_t = 1e-5)]
    pub delta: f64,
    /// Shuffling drops the last partial batch of each epoch (T = ⌊n/b⌋).
    #[arg(long)]
    pub drop_last: bool,
    /// Balls-in-bins: each record in K of the T = ⌈n·K/b⌉ batches of an epoch (random
    /// allocation, K of T).
    #[arg(long, default_value_t = 1)]
    pub participations: u64,
}

impl SamplerRunArgs {
    /// The run of `sampler` over `epochs` epochs.
    ///
    /// # Errors
    /// As [`Run::new`], and an unknown relation.
    pub fn run(&self, sampler: Sampler, epochs: u64) -> Result<Run> {
        Run::new(
            sampler,
            self.n,
            self.batch,
            epochs,
            self.noise_multiplier,
            Relation::parse(&self.relation)?,
            self.drop_last,
        )?
        .with_participations(self.participations)
    }
}

/// Arguments of `shiftdp sampler`.
#[derive(Debug, Clone, clap::Args)]
pub struct SamplerArgs {
    /// poisson, fixed-size, shuffle (a fresh permutation every epoch), shuffle-once,
    /// balls-in-bins or balls-in-bins-persistent.
    pub sampler: String,
    /// Epochs E (passes over the data; T = ⌈n/b⌉ steps each).
    #[arg(long)]
    pub epochs: u64,
    /// The run.
    #[command(flatten)]
    pub run: SamplerRunArgs,
    /// Width goal of each certified interval.
    #[arg(long, default_value_t = 1e-3)]
    pub tolerance: f64,
    /// The losses, for the last-iterate (hidden-state) results: step size η.
    #[arg(long, help_heading = "Declared losses (last iterate only)")]
    pub eta: Option<String>,
    /// Strong convexity m of every record's loss.
    #[arg(long, help_heading = "Declared losses (last iterate only)")]
    pub strong_convexity: Option<String>,
    /// Smoothness M of every record's loss.
    #[arg(long, help_heading = "Declared losses (last iterate only)")]
    pub smoothness: Option<String>,
    /// Contraction c of the gradient step, given directly.
    #[arg(long, help_heading = "Declared losses (last iterate only)")]
    pub contraction: Option<String>,
    /// Diameter D of the constraint set.
    #[arg(long, help_heading = "Declared losses (last iterate only)")]
    pub diameter: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

impl SamplerArgs {
    /// The declared losses, if any flag of them is given.
    fn loss(&self) -> Option<RawSetting> {
        let flags = [
            &self.eta,
            &self.strong_convexity,
            &self.smoothness,
            &self.contraction,
            &self.diameter,
        ];
        flags.iter().any(|f| f.is_some()).then(|| RawSetting {
            eta: self.eta.clone(),
            strong_convexity: self.strong_convexity.clone(),
            smoothness: self.smoothness.clone(),
            contraction: self.contraction.clone(),
            diameter: self.diameter.clone(),
            ..RawSetting::default()
        })
    }
}

fn bound_json(b: &Bound, safe: SafeEnd) -> Value {
    json!({
        "name": b.name,
        "source": b.source,
        "epsilon": interval_f64(Some(b.epsilon.lower), Some(b.epsilon.upper), safe),
    })
}

/// Runs `shiftdp sampler`.
///
/// # Errors
/// Bad parameters and refusals of the library, each naming what is wrong.
pub fn run(a: &SamplerArgs) -> Result<Output> {
    let run = a.run.run(Sampler::parse(&a.sampler)?, a.epochs)?;
    let delta = a.run.delta;
    let loss = a.loss();
    let p = analyze_sampled(&run, loss.as_ref(), delta, a.tolerance, Precision::F64)?;
    let r = &p.every_iterate;
    let iv = r.interval();
    let flag = r.poisson_below_lower();
    let mut h = format!(
        "{} batches{}, {} neighbours: n = {}, batch {} ({} steps per epoch), {} epoch(s), σ = {}, δ = {:e}\n",
        run.sampler(),
        if run.participations() > 1 {
            format!(" (each record in {} per epoch)", run.participations())
        } else {
            String::new()
        },
        run.relation(),
        a.run.n,
        a.run.batch,
        run.steps_per_epoch(),
        run.epochs(),
        super::given(run.sigma()),
        delta
    );
    h += &format!(
        "  certified: the true ε(δ) lies in [{}, {}]\n",
        f64_down(iv.lower, 7),
        if iv.upper.is_finite() {
            f64_up(iv.upper, 7)
        } else {
            "∞".into()
        }
    );
    if let Some(u) = &r.upper {
        h += &format!(
            "  upper {:>10}  {}\n                     {}\n",
            f64_up(u.epsilon.upper, 7),
            u.name,
            u.source
        );
    }
    if let Some(n) = &r.upper_note {
        h += &format!("                     ({n})\n");
    }
    for l in &r.lower {
        h += &format!(
            "  lower {:>10}  {}\n                     {}\n",
            f64_down(l.epsilon.lower, 7),
            l.name,
            l.source
        );
    }
    h += &format!(
        "  Poisson ε {} ({}){}\n",
        f64_up(r.poisson.epsilon.upper, 7),
        r.poisson.name,
        if flag {
            "\n  ** the Poisson ε is BELOW the certified lower bound: it is wrong for this sampler **"
        } else {
            ""
        }
    );
    let last_json = match &p.last_iterate {
        LastIterate::Analyzed { setting, analysis } => {
            let (lines, list) = analysis_lines(analysis);
            h += &format!(
                "\nlast iterate only, declared losses (replace-one, the BSA24 model with noise σ/b and L = 2):\n{}\n{}",
                setting.describe(),
                lines
            );
            json!({
                "setting": setting_json(setting),
                "bounds": list,
                "best": analysis.best().map(|e| e.id.as_str()),
            })
        }
        LastIterate::NotCovered { reason } => {
            h += &format!(
                "\nlast iterate only: no result applies: {}\n",
                super::why_not(reason)
            );
            json!({ "reason": super::with_flags(&reason.to_string()) })
        }
        _ => Value::Null,
    };
    let json = json!({
        "sampler": run.sampler().id(),
        "relation": run.relation().id(),
        "n": a.run.n,
        "batch": a.run.batch,
        "steps_per_epoch": run.steps_per_epoch(),
        "participations": run.participations(),
        "epochs": run.epochs(),
        "noise_multiplier": format!("{:e}", run.sigma()),
        "delta": format!("{:e}", delta),
        "epsilon": interval_f64(Some(iv.lower), iv.upper.is_finite().then_some(iv.upper), SafeEnd::Upper),
        "upper": r.upper.as_ref().map(|b| bound_json(b, SafeEnd::Upper)),
        "upper_note": r.upper_note,
        "lower": r.lower.iter().map(|b| bound_json(b, SafeEnd::Lower)).collect::<Vec<_>>(),
        "poisson": bound_json(&r.poisson, SafeEnd::Upper),
        "poisson_below_lower": flag,
        "last_iterate": last_json,
    });
    Ok(Output::new("sampler", json, h))
}
