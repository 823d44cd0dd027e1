//! One answer for a training pipeline: the run's batch sampler with every iterate
//! released ([`samplers::account`]) and, when the user declares what the losses are, the
//! last-iterate (hidden-state) results whose algorithm is the one the sampler runs
//! ([`analyze`] on the matching [`Setting`]).
//!
//! # The last-iterate setting of a sampled run
//! The samplers' convention clips each gradient to norm 1 and adds `N(0, σ²)` per
//! coordinate to each batch's sum (σ the noise multiplier). Declared losses are convex
//! with every gradient of norm at most 1, so clipping does nothing, and the update is
//! `x ← Π(x − η(∇ℓ_B(x) + Z))` with `ℓ_B` the batch mean and `Z ~ N(0, (σ/b)²I)`: the
//! BSA24 model with noise `σ/b` and gradient sensitivity `L = 2` (replace-one: two
//! gradients of norm ≤ 1 differ by at most 2), so `L/(bσ_BSA24) = 2/σ`.
//!
//! * shuffle-once is NoisyCGD with its order drawn once at random
//!   ([`Setting::with_order_shuffled_once`]): the fixed-order results (BSA24 Thms
//!   4.4–4.6, YS22 Thm 3.3, AT22) hold for every order, hence for a random one, and
//!   the shuffle-and-partition results (YS22 Thms 4.2, 2.1) apply;
//! * fixed-size batches drawn at every step are NoisySGD (BSA24 Thms 4.8–4.10);
//! * no result of the toolkit bounds the last iterate under Poisson sampling, a fresh
//!   permutation every epoch, or balls-in-bins: the answer says so.
//!
//! The BSA24 results are stated for replace-one neighbours; for another relation the
//! last-iterate part names that hypothesis instead of a number.
//!
//! # Rounding
//! The noise `σ/b` is rounded down (less noise: every bound is monotone in σ, so the
//! bounds stay upper bounds); δ is the exact binary value of the f64 asked, the same for
//! both parts.
use super::{Analysis, Query, analyze};
use crate::error::{Error, Result, Subject, hyp};
use crate::precision::Precision;
use crate::samplers::{self, Relation, Run, Sampler};
use crate::settings::{Algorithm, RawSetting, Setting, exact_f64_decimal};
use rug::float::Round;

/// The last-iterate part of a [`Pipeline`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum LastIterate {
    /// The run's last-iterate setting and every result for it.
    Analyzed {
        /// The BSA24 setting the sampler runs.
        setting: Box<Setting>,
        /// Every result for it at the same δ.
        analysis: Box<Analysis>,
    },
    /// No loss assumptions were declared.
    NotDeclared,
    /// No result of the toolkit covers the sampler or relation: the hypothesis that
    /// fails.
    NotCovered {
        /// The failing hypothesis ([`Error::Hypothesis`]).
        reason: Error,
    },
}

/// Every valid bound for one training pipeline at one δ.
#[derive(Debug, Clone)]
pub struct Pipeline {
    /// Every iterate released: the sampler's certified interval, its bounds and the
    /// Poisson number.
    pub every_iterate: samplers::Report,
    /// Only the last iterate released, under the declared losses.
    pub last_iterate: LastIterate,
}

/// The BSA24 setting of a sampled run under the declared losses (see the module doc),
/// or the hypothesis that no result covers.
///
/// # Errors
/// [`Error::Hypothesis`] for a sampler or relation no last-iterate result covers;
/// [`Error::Parameter`] for a loss flag the run fixes (`n`, `batch`, `steps`, `epochs`,
/// `noise`, `sensitivity`), and the checks of [`Setting::new`].
pub fn last_iterate_setting(run: &Run, loss: &RawSetting) -> Result<Setting> {
    let fixed = [
        ("n", &loss.n),
        ("batch", &loss.batch),
        ("steps", &loss.steps),
        ("epochs", &loss.epochs),
        ("noise", &loss.noise),
        ("sensitivity", &loss.sensitivity),
    ];
    if let Some((name, _)) = fixed.iter().find(|(_, v)| v.is_some()) {
        return Err(Error::param(
            name,
            "given",
            "set by the run (n, batch size, epochs, noise multiplier); declare only the losses: eta, strong-convexity, smoothness, contraction, diameter",
        ));
    }
    if run.relation() != Relation::ReplaceOne {
        return Err(hyp(
            Subject::Other("BSA24 (last iterate)"),
            "replace-one neighbours",
            format!(
                "relation is {}: the hidden-state results are stated for replace-one; run with replace-one to see them",
                run.relation()
            ),
        ));
    }
    let algorithm = match run.sampler() {
        Sampler::ShuffleOnce => Algorithm::Cgd,
        Sampler::FixedSize => Algorithm::Sgd,
        s => {
            return Err(hyp(
                Subject::Other("BSA24 (last iterate)"),
                "one fixed batch order (NoisyCGD) or a uniform size-b batch each step (NoisySGD)",
                format!("no last-iterate result of the toolkit covers the {s} sampler"),
            ));
        }
    };
    let (noise, _) = rug::Float::with_val_round(
        53,
        rug::Float::with_val(53, run.sigma()) / run.batch(),
        Round::Down,
    );
    let noise = noise.to_f64();
    let mut raw = loss.clone();
    // a record dropped from every epoch leaves the run as it is without the record (a
    // mixture with an identical pair), so NoisyCGD over the b·T records used covers it
    let used = if algorithm == Algorithm::Cgd && run.drop_last() {
        run.batch() * run.steps_per_epoch()
    } else {
        run.n()
    };
    raw.n = Some(used.to_string());
    raw.batch = Some(run.batch().to_string());
    match algorithm {
        Algorithm::Cgd => raw.epochs = Some(run.epochs().to_string()),
        _ => raw.steps = Some(run.steps().to_string()),
    }
    raw.noise = Some(exact_f64_decimal("noise", noise)?);
    raw.sensitivity = Some("2".into());
    let setting = Setting::new(algorithm, &raw)?;
    if algorithm == Algorithm::Cgd {
        setting.with_order_shuffled_once()
    } else {
        Ok(setting)
    }
}

/// Every valid bound for a training pipeline: the sampler's certified interval with
/// every iterate released, and, with `loss` declared, every last-iterate result for the
/// algorithm the sampler runs, both ε at the same δ.
///
/// # Example
/// Shuffle-once batches, 10 epochs, σ = 1, with strongly convex smooth losses:
/// ```
/// use shiftdp::{Precision, RawSetting};
/// use shiftdp::analysis::sampled::{LastIterate, analyze_sampled};
/// use shiftdp::samplers::{Relation, Run, Sampler};
/// let run = Run::new(Sampler::ShuffleOnce, 1000, 100, 10, 1.0, Relation::ReplaceOne, false)?;
/// let loss = RawSetting::from_pairs(&[("eta", "0.1"), ("strong-convexity", "0.5"), ("smoothness", "1")])?;
/// let p = analyze_sampled(&run, Some(&loss), 1e-5, 1e-2, Precision::F64)?;
/// let upper = p.every_iterate.interval().upper;
/// let LastIterate::Analyzed { analysis, .. } = &p.last_iterate else { panic!() };
/// let best = analysis.best().unwrap().upper_f64().unwrap();
/// assert!(best < upper); // hiding the iterates pays
/// # Ok::<(), shiftdp::Error>(())
/// ```
///
/// # Errors
/// Those of [`samplers::account`]; a loss flag the run fixes ([`last_iterate_setting`]).
/// A sampler or relation without a last-iterate result is not an error but
/// [`LastIterate::NotCovered`].
pub fn analyze_sampled(
    run: &Run,
    loss: Option<&RawSetting>,
    delta: f64,
    tolerance: f64,
    prec: Precision,
) -> Result<Pipeline> {
    let every_iterate = samplers::account(run, delta, tolerance)?;
    let last_iterate = match loss {
        None => LastIterate::NotDeclared,
        Some(loss) => match last_iterate_setting(run, loss) {
            Ok(setting) => {
                let query = Query::epsilon_at(&exact_f64_decimal("delta", delta)?)?;
                let analysis = analyze(&setting, &query, prec)?;
                LastIterate::Analyzed {
                    setting: Box::new(setting),
                    analysis: Box::new(analysis),
                }
            }
            Err(reason @ Error::Hypothesis { .. }) => LastIterate::NotCovered { reason },
            Err(e) => return Err(e),
        },
    };
    Ok(Pipeline {
        every_iterate,
        last_iterate,
    })
}
