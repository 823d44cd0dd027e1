//! Accounting for the batches actually drawn: a DP-SGD run as (sampler, n, batch size,
//! epochs, noise multiplier, neighbouring relation), with every iterate released, and
//! for it a certified **upper** bound valid for that sampler, certified **lower** bounds
//! from explicit pairs of neighbouring datasets and tests, and the ε a Poisson
//! accountant reports for the same run, flagged when it lies below a certified lower
//! bound (the Poisson number is then provably wrong for the sampler used).
//!
//! # Formula
//! Gradients are clipped to norm 1 and the noise is `N(0, σ²)` per coordinate on each
//! batch's sum (σ the noise multiplier); `T` batches per epoch (`⌈n/b⌉`, or `⌊n/b⌋` when
//! the last partial batch is dropped), `E` epochs, `S = T·E` steps.
//!
//! **Upper bounds** (`proofs/samplers/sampler-bounds.md`, `proofs/samplers/allocation.md`):
//! * shuffling (every epoch or once) and balls-in-bins put each record in at most one
//!   batch per epoch: conditioned on the public batch assignment, the run is an
//!   adaptive composition of `E` Gaussian steps of sensitivity 1 (zero-out) or 2
//!   (replace-one), so `G(√E/σ)` or `G(2√E/σ)` — no amplification (`G(√(kE)/σ)` with
//!   each record in `k` of the `T = ⌈n·k/b⌉` balls-in-bins batches);
//! * fresh balls-in-bins under zero-out or add-or-remove: also the random-allocation
//!   bound ([`allocation`]; `k` of `T` through `k·E` epochs of 1 of `⌊T/k⌋`), the
//!   smaller of the two;
//! * fixed-size batches drawn without replacement at every step (`p = b/n`):
//!   `C_p(G(μ))^{⊗S}` with `μ = 1/σ` (zero-out) or `2/σ` (replace-one), the subsampling
//!   theorem of Dong, Roth, Su (DRS22 Thm 9) composed;
//! * Poisson sampling with rate `q`: the pair `(N(0), (1 − q)N(0) + qN(1/σ))` in both
//!   orders, `S` steps (Zhu, Dong, Wang 2022); under replace-one, group privacy over
//!   a removal and an addition: `(2ε, (1 + e^ε)δ)` from the add-or-remove `(ε, δ)`.
//!
//! **Lower bounds** (`proofs/samplers/max-statistic.md`, `proofs/samplers/sampler-bounds.md`):
//! constant clipped gradients in one dimension, the records other than the differing
//! one all `−1` (or all `0`), the differing record `+1` against `⊥` (zero gradient) or
//! `−1`. With the public batch constants removed, a shuffled epoch is
//! `MoG_T(m) = (1/T) Σₜ N(m·eₜ, σ²I)` with `m` the differing record's contribution; the
//! largest batch sum, sliced ([`MaxStatistic`]), is a post-processing whose pair is a
//! lower bound, composed over fresh epochs (independent permutations) or read at
//! `σ/√E` when the order is reused (the sums of a position over the epochs are
//! sufficient). For fixed-size and Poisson batches, every step is an independent
//! subsampled Gaussian pair, an exact instance.
//!
//! The Poisson ε beside them is what Opacus (`sample_rate = 1/len(loader)`) and
//! dp_accounting report for the run: the Poisson-subsampled Gaussian at `q = 1/T`
//! (`q = b/n` for the fixed-size and Poisson samplers), `S` steps, both orders under
//! add-or-remove and zero-out (dp_accounting reads zero-out as add-or-remove), and
//! dp_accounting's replace-one pair `(qN(−1/σ) + (1 − q)N(0), qN(1/σ) + (1 − q)N(0))`
//! under replace-one.
//!
//! # Rounding
//! Every number is a certified interval of the composition engine; a pair's
//! parameters are rounded so that the pair is less private for an upper bound (μ and `q`
//! up) and more private for a lower bound (μ and `q` down, σ up).
pub mod allocation;
pub mod max_statistic;

pub use max_statistic::MaxStatistic;

use crate::composition::mechanism::{GaussianFamily, MixtureOfGaussians};
use crate::composition::pld::U;
use crate::composition::{Component, Composition, Interval, Target};
use crate::decimal::{f64_down, f64_up};
use crate::error::{Error, Result, Subject, hyp, positive_finite};
use std::fmt;
use std::sync::Arc;

/// How a run draws its batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sampler {
    /// Each record independently with probability `b/n` at every step.
    Poisson,
    /// `b` records drawn uniformly without replacement at every step, independently.
    FixedSize,
    /// A fresh random permutation every epoch, cut into consecutive batches of `b`.
    Shuffle,
    /// One random permutation, cut into consecutive batches and reused every epoch.
    ShuffleOnce,
    /// Each record in one uniformly random batch of the `T` of an epoch, fresh every
    /// epoch (balls-in-bins).
    BallsInBins,
    /// Balls-in-bins with each record's batch kept for every epoch.
    BallsInBinsPersistent,
}

impl Sampler {
    /// The name used by the CLI and Python.
    pub fn id(&self) -> &'static str {
        match self {
            Sampler::Poisson => "poisson",
            Sampler::FixedSize => "fixed-size",
            Sampler::Shuffle => "shuffle",
            Sampler::ShuffleOnce => "shuffle-once",
            Sampler::BallsInBins => "balls-in-bins",
            Sampler::BallsInBinsPersistent => "balls-in-bins-persistent",
        }
    }

    /// The sampler named `s` (its [`Sampler::id`]).
    ///
    /// # Errors
    /// [`Error::Parameter`] naming the known samplers.
    pub fn parse(s: &str) -> Result<Sampler> {
        Sampler::ALL
            .into_iter()
            .find(|x| x.id() == s)
            .ok_or_else(|| {
                Error::param(
                    "sampler",
                    s,
                    "unknown sampler: poisson, fixed-size, shuffle, shuffle-once, balls-in-bins, balls-in-bins-persistent",
                )
            })
    }

    /// Every sampler.
    pub const ALL: [Sampler; 6] = [
        Sampler::Poisson,
        Sampler::FixedSize,
        Sampler::Shuffle,
        Sampler::ShuffleOnce,
        Sampler::BallsInBins,
        Sampler::BallsInBinsPersistent,
    ];
}

impl fmt::Display for Sampler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Which datasets are neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Relation {
    /// One record added or removed (`n` changes).
    AddRemove,
    /// One record replaced by `⊥`, whose clipped gradient is 0 (`n` fixed).
    ZeroOut,
    /// One record replaced by another (`n` fixed).
    ReplaceOne,
}

impl Relation {
    /// The name used by the CLI and Python.
    pub fn id(&self) -> &'static str {
        match self {
            Relation::AddRemove => "add-remove",
            Relation::ZeroOut => "zero-out",
            Relation::ReplaceOne => "replace-one",
        }
    }

    /// The relation named `s` (its [`Relation::id`]).
    ///
    /// # Errors
    /// [`Error::Parameter`] naming the known relations.
    pub fn parse(s: &str) -> Result<Relation> {
        [Relation::AddRemove, Relation::ZeroOut, Relation::ReplaceOne]
            .into_iter()
            .find(|x| x.id() == s)
            .ok_or_else(|| {
                Error::param(
                    "relation",
                    s,
                    "unknown relation: add-remove, zero-out, replace-one",
                )
            })
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A DP-SGD run, validated: every iterate released.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    sampler: Sampler,
    n: u64,
    batch: u64,
    epochs: u64,
    sigma: f64,
    relation: Relation,
    drop_last: bool,
    participations: u64,
}

impl Run {
    /// A run of `epochs` passes over `n` records in batches of `batch` (the expected
    /// size for Poisson and balls-in-bins), noise multiplier σ, under `relation`;
    /// `drop_last`: a last partial batch of an epoch is dropped (shuffling only).
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `1 ≤ batch ≤ n`, `epochs ≥ 1`, σ finite and > 0,
    /// `T·E ≤ 10¹²`; [`Error::Hypothesis`] for add-or-remove with a sampler whose
    /// batches depend on `n` (shuffling, fixed-size batches: hypothesis `n fixed`).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        sampler: Sampler,
        n: u64,
        batch: u64,
        epochs: u64,
        sigma: f64,
        relation: Relation,
        drop_last: bool,
    ) -> Result<Run> {
        if n == 0 {
            return Err(Error::param("n", n, "must be ≥ 1"));
        }
        if batch == 0 || batch > n {
            return Err(Error::param(
                "batch",
                batch,
                &format!("batch size must be in 1..={n} (the data set size)"),
            ));
        }
        if epochs == 0 {
            return Err(Error::param("epochs", epochs, "must be ≥ 1"));
        }
        positive_finite(&[("noise_multiplier", sigma)])?;
        let run = Run {
            sampler,
            n,
            batch,
            epochs,
            sigma,
            relation,
            drop_last,
            participations: 1,
        };
        if run.steps_per_epoch() == 0 {
            return Err(Error::param(
                "batch",
                batch,
                "with drop_last every record is dropped: batch size above n",
            ));
        }
        run.check_steps()?;
        if relation == Relation::AddRemove
            && matches!(
                sampler,
                Sampler::Shuffle | Sampler::ShuffleOnce | Sampler::FixedSize
            )
        {
            return Err(hyp(
                Subject::Sampler(sampler.id()),
                "n fixed (zero-out or replace-one neighbours)",
                format!(
                    "relation is add-remove: the {sampler} sampler's batches depend on n, \
                     so no analysis applies; use zero-out or replace-one"
                ),
            ));
        }
        Ok(run)
    }
    /// The same balls-in-bins run with each record in `k` of the `T = ⌈n·k/b⌉` batches
    /// of an epoch (random allocation, k of T; `b` stays the expected batch size).
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `k ≥ 1`, the sampler is balls-in-bins (fresh or
    /// persistent) when `k > 1`, and `T·E ≤ 10¹²`.
    pub fn with_participations(mut self, k: u64) -> Result<Run> {
        if k == 0 {
            return Err(Error::param("participations", k, "must be ≥ 1"));
        }
        if k > 1
            && !matches!(
                self.sampler,
                Sampler::BallsInBins | Sampler::BallsInBinsPersistent
            )
        {
            return Err(Error::param(
                "participations",
                k,
                &format!(
                    "k > 1 participations per epoch apply to balls-in-bins only, not to {}",
                    self.sampler
                ),
            ));
        }
        // T = ⌈n·k/b⌉ ≥ k since b ≤ n: every k fits in an epoch
        self.participations = k;
        self.check_steps()?;
        Ok(self)
    }
    /// `T·E ≤ 10¹²`.
    fn check_steps(&self) -> Result<()> {
        if (self.steps_per_epoch() as f64) * (self.epochs as f64) > 1e12 {
            return Err(Error::param(
                "epochs",
                self.epochs,
                "steps × epochs must be at most 10¹²",
            ));
        }
        Ok(())
    }
    /// Participations `k` of each record per epoch (1 unless balls-in-bins with
    /// [`Run::with_participations`]).
    pub fn participations(&self) -> u64 {
        self.participations
    }
    /// The sampler.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }
    /// The neighbouring relation.
    pub fn relation(&self) -> Relation {
        self.relation
    }
    /// Records `n`.
    pub fn n(&self) -> u64 {
        self.n
    }
    /// Batch size `b` (the expected size for Poisson and balls-in-bins).
    pub fn batch(&self) -> u64 {
        self.batch
    }
    /// Whether shuffling drops the last partial batch of an epoch.
    pub fn drop_last(&self) -> bool {
        self.drop_last
    }
    /// The noise multiplier σ.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }
    /// Epochs `E`.
    pub fn epochs(&self) -> u64 {
        self.epochs
    }
    /// Batches per epoch `T`: `⌈n/b⌉` (`⌈n·k/b⌉` for balls-in-bins with `k`
    /// participations), or `⌊n/b⌋` with `drop_last` for shuffling.
    pub fn steps_per_epoch(&self) -> u64 {
        if self.drop_last && matches!(self.sampler, Sampler::Shuffle | Sampler::ShuffleOnce) {
            self.n / self.batch
        } else {
            (self.n.saturating_mul(self.participations)).div_ceil(self.batch)
        }
    }
    /// Steps `S = T·E`.
    pub fn steps(&self) -> u64 {
        self.steps_per_epoch() * self.epochs
    }
    /// The probability that a shuffled epoch drops the record (`(n − bT)/n` with
    /// `drop_last`, else 0), rounded up: a larger drop probability mixes both laws
    /// more with the same law without the record (a post-processing), so the lower
    /// bounds stay lower bounds.
    fn drop_probability(&self) -> f64 {
        if self.drop_last && matches!(self.sampler, Sampler::Shuffle | Sampler::ShuffleOnce) {
            let r = self.n - self.batch * self.steps_per_epoch();
            if r == 0 {
                0.0
            } else {
                (up(r as f64 / self.n as f64)).min(1.0 - f64::EPSILON)
            }
        } else {
            0.0
        }
    }
    /// The sampling probability a Poisson accountant is given: `b/n` for the Poisson
    /// and fixed-size samplers, `k/T` (Opacus's `1/len(loader)` for `k = 1`) otherwise.
    pub fn poisson_rate(&self) -> f64 {
        match self.sampler {
            Sampler::Poisson | Sampler::FixedSize => self.batch as f64 / self.n as f64,
            _ => self.participations as f64 / self.steps_per_epoch() as f64,
        }
    }
}

/// One bound of a report: the pair it composes and the certified interval of that
/// pair's ε(δ); an upper bound reports the interval's upper end, a lower bound its lower
/// end.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// What the bound is (the analysis, or the instance and its test).
    pub name: String,
    /// Where it comes from and what it assumes.
    pub source: String,
    /// The certified interval of the pair's ε(δ).
    pub epsilon: Interval,
}

/// Every bound for a run at one δ (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The run.
    pub run: Run,
    /// The δ asked.
    pub delta: f64,
    /// The certified upper bound valid for the sampler, if any.
    pub upper: Option<Bound>,
    /// Why there is no upper bound, or what it leaves out.
    pub upper_note: Option<String>,
    /// Certified lower bounds, one per instance (each a true statement about the run).
    pub lower: Vec<Bound>,
    /// The ε a Poisson accountant reports for the run.
    pub poisson: Bound,
}

impl Report {
    /// The largest certified lower bound.
    pub fn best_lower(&self) -> Option<&Bound> {
        self.lower
            .iter()
            .max_by(|a, b| a.epsilon.lower.total_cmp(&b.epsilon.lower))
    }
    /// `[best lower, upper]`: the true ε(δ) of the run lies in it (`+∞` above without an
    /// upper bound).
    pub fn interval(&self) -> Interval {
        Interval {
            lower: self.best_lower().map_or(0.0, |b| b.epsilon.lower.max(0.0)),
            upper: self
                .upper
                .as_ref()
                .map_or(f64::INFINITY, |b| b.epsilon.upper),
        }
    }
    /// Whether the Poisson ε (its certified upper end) lies below the certified lower
    /// bound: the Poisson number is then wrong for the sampler used.
    pub fn poisson_below_lower(&self) -> bool {
        self.poisson.epsilon.upper < self.interval().lower
    }
}

/// ε(δ) of `k` steps of a component (both orders unless symmetric).
fn epsilon_of(parts: &[(Component, u64)], delta: f64, tolerance: f64) -> Result<Interval> {
    let mut c = Composition::new();
    for (m, k) in parts {
        c = c.with(m.clone(), *k)?;
    }
    Ok(c.answer(Target::Delta(delta), tolerance, None)?.interval)
}

/// `x(1 + 4u)` and `x(1 − 4u)`: a computed positive f64 rounded up and down past its
/// few roundings.
fn up(x: f64) -> f64 {
    x * (1.0 + 4.0 * U)
}
fn down(x: f64) -> f64 {
    x * (1.0 - 4.0 * U)
}

/// The Poisson-subsampled Gaussian at rate `q` and `μ`, both orders (the remove order
/// and its inverse compose separately).
fn poisson_pair(q: f64, mu: f64) -> Result<Component> {
    Ok(Component::mechanism(GaussianFamily::poisson_remove(
        q.min(1.0),
        mu,
    )?))
}

/// The certified bounds of a run at δ (see the module doc), each interval within
/// `tolerance` where the engine reaches it.
///
/// # Errors
/// [`Error::Parameter`] unless `0 < δ < 1` and the tolerance is finite and > 0; the
/// engine's errors.
pub fn account(run: &Run, delta: f64, tolerance: f64) -> Result<Report> {
    if !(delta > 0.0 && delta < 1.0) {
        return Err(Error::param("delta", delta, "must be in (0, 1)"));
    }
    positive_finite(&[("tolerance", tolerance)])?;
    let (t, e, s) = (run.steps_per_epoch(), run.epochs, run.steps());
    let sigma = run.sigma;
    let mu_up = up(1.0 / sigma);
    let mu_down = down(1.0 / sigma);
    let q = run.poisson_rate();
    let (q_up, q_down) = (up(q).min(1.0), down(q));
    let eps = |parts: &[(Component, u64)]| epsilon_of(parts, delta, tolerance);
    let replace = run.relation == Relation::ReplaceOne;
    let sens = if replace { 2.0 } else { 1.0 };

    // the Poisson accountant's number
    let poisson = if replace {
        Bound {
            name: format!("Poisson ε (dp_accounting's replace-one pair, q = {q:.6e}, {s} steps)"),
            source: "(qN(−1/σ) + (1 − q)N(0), qN(1/σ) + (1 − q)N(0)) composed: the number a Poisson accountant reports".into(),
            epsilon: eps(&[(
                Component::mechanism(MixtureOfGaussians::replace_subsampled(q_up, mu_up)?),
                s,
            )])?,
        }
    } else {
        Bound {
            name: format!("Poisson ε (q = {q:.6e}, {s} steps, both orders)"),
            source: "the Poisson-subsampled Gaussian (Zhu, Dong, Wang 2022): what Opacus and dp_accounting report".into(),
            epsilon: eps(&[(poisson_pair(q_up, mu_up)?, s)])?,
        }
    };

    let mut lower = vec![];
    let mut upper_note = None;
    let upper = match run.sampler {
        Sampler::Poisson => {
            if replace {
                lower.push(Bound {
                    name: "records 0, the record +1 against −1 (an exact instance)".into(),
                    source: "each step the pair (qN(1/σ) + (1 − q)N(0), qN(−1/σ) + (1 − q)N(0)), independent".into(),
                    epsilon: eps(&[(
                        Component::mechanism(MixtureOfGaussians::replace_subsampled(
                            q_down, mu_down,
                        )?),
                        s,
                    )])?,
                });
                upper_note = Some(
                    "replace-one: group privacy over a removal and an addition of the add-or-remove bound; \
                     dp_accounting's replace-one pair is not proved to dominate here"
                        .into(),
                );
                Some(group_of_two(q_up, mu_up, s, delta, tolerance)?)
            } else {
                lower.push(Bound {
                    name: "records 0, the record +1 against ⊥ (an exact instance)".into(),
                    source: "each step (N(0), (1 − q)N(0) + qN(1/σ)), independent: the dominating pair is attained".into(),
                    epsilon: eps(&[(poisson_pair(q_down, mu_down)?, s)])?,
                });
                Some(Bound {
                    name: "the Poisson-subsampled Gaussian, both orders".into(),
                    source:
                        "Zhu, Dong, Wang 2022 (dominating pair of Poisson subsampling), composed"
                            .into(),
                    epsilon: poisson.epsilon,
                })
            }
        }
        Sampler::FixedSize => {
            let p = run.batch as f64 / run.n as f64;
            let (p_up, p_down) = (up(p).min(1.0), down(p));
            // others −1 and the record +1 against −1 (replace-one) or others 0 and +1
            // against ⊥ (zero-out): each step the Poisson pair at sensitivity `sens`
            lower.push(Bound {
                name: if replace {
                    "records −1, the record +1 against −1 (an exact instance)".into()
                } else {
                    "records 0, the record +1 against ⊥ (an exact instance)".into()
                },
                source: format!(
                    "each step (N(0), (1 − p)N(0) + pN({sens}/σ)) with p = b/n, independent"
                ),
                epsilon: eps(&[(poisson_pair(p_down, down(sens / sigma))?, s)])?,
            });
            Some(Bound {
                name: format!("C_p(G({sens}/σ)) composed {s} times, p = b/n"),
                source: "Dong, Roth, Su 2022 Thm 9 (sampling without replacement), composed".into(),
                epsilon: eps(&[(Component::subsampled(p_up, up(sens / sigma))?, s)])?,
            })
        }
        Sampler::Shuffle
        | Sampler::ShuffleOnce
        | Sampler::BallsInBins
        | Sampler::BallsInBinsPersistent => {
            let persistent = matches!(
                run.sampler,
                Sampler::ShuffleOnce | Sampler::BallsInBinsPersistent
            );
            let shuffle = matches!(run.sampler, Sampler::Shuffle | Sampler::ShuffleOnce);
            let rho = run.drop_probability();
            // the instances: (record's mean with it, without it, what they are)
            let mut instances: Vec<(f64, f64, &str)> =
                vec![(1.0, 0.0, "records 0, the record +1 against ⊥")];
            if shuffle {
                instances.push((2.0, 1.0, "records −1, the record +1 against ⊥"));
                if replace {
                    instances.push((2.0, 0.0, "records −1, the record +1 against −1"));
                }
            }
            // persistent: the sums of each position over the epochs, σ/√E (rounded up)
            let (sig, reps) = if persistent {
                (up(sigma / (e as f64).sqrt()), 1)
            } else {
                (sigma, e)
            };
            let k = run.participations;
            for (mq, mp, what) in instances {
                let m = MaxStatistic::of_k(t, k, sig, mq, mp, rho)?;
                // one epoch: the sliced pair's own bracket; more: the engine's E-fold
                // product, or one epoch's bound (dropping epochs is a post-processing)
                // where the engine cannot certify the product at this δ
                let (epsilon, fallback) = if reps == 1 {
                    (m.epsilon(delta), false)
                } else {
                    let one = m.epsilon(delta);
                    match eps(&[(Component::shared(Arc::new(m)), reps)]) {
                        Ok(iv) if iv.lower >= one.lower => (iv, false),
                        Ok(_) | Err(Error::NotCertified { .. }) => (one, true),
                        Err(e) => return Err(e),
                    }
                };
                lower.push(Bound {
                    name: if k > 1 {
                        format!("{what} in {k} of the {t} batches; the largest batch sum, sliced")
                    } else {
                        format!("{what}; the largest batch sum, sliced")
                    },
                    source: format!(
                        "one epoch is (MoG_T({mq}), MoG_T({mp})); the largest batch sum a post-processing{}{}",
                        if persistent { ", epochs summed per position (σ/√E)" } else { ", epochs independent" },
                        if replace && what.contains('⊥') {
                            "; under replace-one, ⊥ is a record whose clipped gradient is 0"
                        } else {
                            ""
                        }
                    ) + if fallback { "; one epoch's bound (the engine did not certify the product at this δ)" } else { "" },
                    epsilon,
                });
            }
            let no_amp = Bound {
                name: format!(
                    "G({}√{}/σ): {} Gaussian steps of sensitivity {sens}",
                    if replace { "2" } else { "" },
                    if k > 1 { format!("({k}E)") } else { "E".into() },
                    k * e
                ),
                source: format!(
                    "each record in at most {} batch{} per epoch; conditioned on the batches, adaptive Gaussian composition",
                    if k > 1 { format!("{k}") } else { "one".into() },
                    if k > 1 { "es" } else { "" }
                ),
                epsilon: eps(&[(Component::gaussian(up(sens / sigma))?, k * e)])?,
            };
            // one epoch of persistent bins is one epoch of fresh bins
            let fresh = run.sampler == Sampler::BallsInBins
                || (run.sampler == Sampler::BallsInBinsPersistent && e == 1);
            if fresh && !replace {
                // k of T is at least as private as k·E epochs of 1 of ⌊T/k⌋
                let mut ra = allocation_bound(t / k, sigma, k * e, delta, tolerance)?;
                if k > 1 {
                    ra.source += &format!(
                        "; {k} of {t} bounded by {} epochs of 1 of ⌊{t}/{k}⌋ = {} \
                         (Feldman–Shenfeld 2025 Lemma 3.2, extended to k ∤ T by post-processing)",
                        k * e,
                        t / k
                    );
                }
                if ra.epsilon.upper < no_amp.epsilon.upper {
                    upper_note = Some(format!(
                        "the random-allocation bound is below no amplification ({})",
                        f64_up(no_amp.epsilon.upper, 7)
                    ));
                    Some(ra)
                } else {
                    upper_note = Some(format!(
                        "no amplification is below the random-allocation bound ({})",
                        f64_up(ra.epsilon.upper, 7)
                    ));
                    Some(no_amp)
                }
            } else {
                upper_note = Some(format!(
                    "no amplification: each record is in at most {} per epoch; {}",
                    if k > 1 {
                        format!("{k} batches")
                    } else {
                        "one batch".into()
                    },
                    match run.sampler {
                        Sampler::Shuffle | Sampler::ShuffleOnce =>
                            "no certified amplification bound for shuffling is implemented",
                        Sampler::BallsInBinsPersistent =>
                            "the random-allocation analysis is for fresh bins every epoch",
                        _ => "under replace-one the record's replacement shares its batch",
                    }
                ));
                Some(no_amp)
            }
        }
    };
    Ok(Report {
        run: *run,
        delta,
        upper,
        upper_note,
        lower,
        poisson,
    })
}

/// The random-allocation bound of fresh balls-in-bins epochs ([`allocation`]): the remove
/// order's Rényi curve converted at δ, the add order's shifted Gaussian, the larger ε.
fn allocation_bound(t: u64, sigma: f64, e: u64, delta: f64, tolerance: f64) -> Result<Bound> {
    let curve = allocation::remove_curve(t, sigma, e)?;
    let d = crate::precision::Enclosure::from_f64(128, delta);
    let remove = crate::renyi::best_conversion(&curve, &d, 128)?;
    let eps_remove = remove.best.epsilon_upper();
    // add: ε_{G(√E μ₁)}(δ) + E (1 − 1/T)/(2σ²), μ₁ = 1/(σ√T)
    let mu1 = up(1.0 / (sigma * (t as f64).sqrt()));
    let g = epsilon_of(&[(Component::gaussian(mu1)?, e)], delta, tolerance)?;
    // numerator rounded up, denominator down, the quotient up
    let c = up(up(up(e as f64 * (1.0 - 1.0 / t as f64))) / down(2.0 * sigma * sigma));
    let eps_add = up(g.upper + c);
    Ok(Bound {
        name: format!(
            "random allocation: remove order by Rényi ({}), add order by a shifted Gaussian",
            remove.best.conversion.id()
        ),
        source: format!(
            "the balls-in-bins dominating pair (Chua et al. 2025; Feldman–Shenfeld 2025), fresh bins: \
             remove ε {} (integer orders ≤ {}), add ε {}",
            f64_up(eps_remove, 7),
            allocation::MAX_ORDER,
            f64_up(eps_add, 7)
        ),
        epsilon: Interval {
            lower: 0.0,
            upper: eps_remove.max(eps_add),
        },
    })
}

/// Replace-one from add-or-remove by group privacy: a replacement is a removal then an
/// addition, so `(ε, δ₀)` under add-or-remove gives `(2ε, (1 + e^ε)δ₀)`; `δ₀` is taken
/// with `(1 + e^{ε(δ₀)})δ₀ ≤ δ` checked on the certified upper end.
fn group_of_two(q: f64, mu: f64, s: u64, delta: f64, tolerance: f64) -> Result<Bound> {
    let pair = [(poisson_pair(q, mu)?, s)];
    let mut d0 = delta / 2.0;
    let mut e0 = epsilon_of(&pair, d0, tolerance)?.upper;
    for _ in 0..20 {
        if e0.is_finite() && up((1.0 + up(e0.exp())) * d0) <= delta {
            return Ok(Bound {
                name: "group privacy over a removal and an addition".into(),
                source: format!(
                    "the add-or-remove Poisson bound at δ₀ = {} is ε₀ = {}; (2ε₀, (1 + e^ε₀)δ₀)",
                    f64_down(d0, 7),
                    f64_up(e0, 7)
                ),
                epsilon: Interval {
                    lower: 0.0,
                    upper: up(2.0 * e0),
                },
            });
        }
        d0 = down(delta / (1.0 + (e0 + 0.05).exp()));
        e0 = epsilon_of(&pair, d0, tolerance)?.upper;
    }
    Err(Error::NotCertified {
        what: "the replace-one Poisson bound by group privacy".into(),
        reason: format!("no δ₀ with (1 + e^ε(δ₀))δ₀ ≤ δ = {delta} found"),
    })
}
