//! The optimal shift schedule of a run: the schedule problems of a run description
//! (one per position of the differing record), the τ search, the certificate, an
//! independent solver beside it, and every closed form of BSA24 §4.1–4.2 that applies,
//! each through its one checked entry point.
//!
//! A [`ScheduleSpec`] is the run as the schedule problem needs it: the run's
//! [`Setting`] ([`ScheduleSpec::from_setting`]), or, beyond what a `Setting` states,
//! per-step step sizes η_k and noise σ_k and non-integer epochs of a cyclic run.
//! [`optimal_schedule`] solves it: the optimal τ is searched with the exact KKT solver
//! in `f64`, the schedule at that τ is certified with directed rounding
//! ([`ScheduleProblem::certify`](super::ScheduleProblem::certify)), argmin's L-BFGS solves the same τ independently, and
//! the closed forms are evaluated on the run's `Setting` (upper ends).
//!
//! Reported μ: the certificate's upper end (search without rigor, certify with rigor);
//! the KKT and argmin values beside it are estimates.
//!
//! # Scale
//! The problem is kept as runs of identical steps ([`super::runs`]): constant η, σ is one
//! run (two values for cyclic batches), a schedule file as many runs as it has changes.
//! The KKT solve ([`super::kkt`]), the τ search and the certificate stream over the
//! steps, so `t` is limited only by the work limit
//! ([`super::runs::WORK_LIMIT`] step evaluations; steps whose weight is negligible, and
//! runs of them at a fixed point of the gap, cost nothing) — NoisyGD with c = 0.9 takes
//! milliseconds at t = 10⁸. What still needs memory proportional to t − τ runs only up
//! to a size: argmin beside the KKT solver (t − τ ≤ 10⁵, as before), the KKT value at
//! `--bits` (t − τ ≤ 2·10⁵, else the f64 value), and the schedule itself is never kept:
//! [`ScheduleReport::for_each_row`] regenerates it (the CLI streams it to `--csv`), and
//! [`ScheduleReport::rows`] collects it under the memory limit ([`crate::memory`]).
//!
//! # Example
//! ```
//! use shiftdp::schedules::run::{ScheduleSpec, optimal_schedule};
//! use shiftdp::{Algorithm, Precision, Setting};
//! let run = Setting::from_pairs(Algorithm::Gd, &[("n", "1"), ("steps", "50"),
//!     ("eta", "1"), ("noise", "1"), ("sensitivity", "1"), ("contraction", "0.9")])?;
//! let r = optimal_schedule(&ScheduleSpec::from_setting(&run), Precision::F64)?;
//! // Thm 4.2 is the optimum of this problem (attained)
//! let (name, thm) = &r.closed_forms[1];
//! assert_eq!(name, "BSA24 Thm 4.2");
//! assert!((thm.as_ref().unwrap() - r.mu_kkt).abs() < 1e-9 * r.mu_kkt);
//! assert!(r.mu_upper_f64 >= r.mu_kkt * (1.0 - 1e-12)); // certified ≥ optimum
//! # Ok::<(), shiftdp::Error>(())
//! ```
//!
//! # References
//! BSA24 Thm 3.3, Thms 4.1–4.6, 4.10; docs/conventions.md §4.
use super::builders::{
    Curvature, SensitiveSteps, batches_per_epoch, contraction, per_step_runs, runs_of,
};
use super::kkt::{RunKkt, solve_kkt};
use super::numeric::{NumericOptions, solve_numeric};
use super::runs::{RunCertificate, RunProblem, WorkBudget, search_tau_runs};
use super::tau::TauSearch;
use crate::bounds::{Bound, bsa24};
use crate::decimal::fmt_up;
use crate::error::{Error, Result, batch_within, hyp};
use crate::memory;
use crate::precision::{Enclosure, Precision, Real};
use crate::provenance::ResultId;
use crate::settings::{Algorithm, Setting};
use std::sync::Arc;

/// A run as the schedule problem needs it (parameter model of docs/conventions.md §2).
///
/// Build it from a [`Setting`] with [`ScheduleSpec::from_setting`], or fill the fields
/// for what a `Setting` does not state (per-step η_k, σ_k; a fractional number of
/// epochs of a cyclic run). [`optimal_schedule`] validates every field.
#[derive(Debug, Clone)]
pub struct ScheduleSpec {
    /// Gd, Cgd or Sgd (Sgd: the Gaussian shift part of BSA24 Thm 4.10 only).
    pub algorithm: Algorithm,
    /// Dataset size n ≥ 1.
    pub n: u64,
    /// Batch size 1 ≤ b ≤ n (required for Cgd and Sgd; Gd uses b = n).
    pub batch: Option<u64>,
    /// Steps t (or give `epochs`; both may be absent when a per-step schedule gives t).
    pub steps: Option<u64>,
    /// Epochs E: t = E·(steps per epoch) must be an integer (E may be fractional).
    pub epochs: Option<Enclosure>,
    /// Constant step size η > 0 (unless `eta_schedule` is given).
    pub eta: Option<Enclosure>,
    /// Constant noise σ > 0 (unless `noise_schedule` is given).
    pub noise: Option<Enclosure>,
    /// Per-step step sizes η_k (overrides `eta`; at least t values).
    pub eta_schedule: Option<Vec<Enclosure>>,
    /// Per-step noise σ_k (overrides `noise`; at least t values).
    pub noise_schedule: Option<Vec<Enclosure>>,
    /// Gradient sensitivity L > 0.
    pub sensitivity: Enclosure,
    /// Strong convexity m (with `smoothness`: c_k = max{|1−η_k m|, |1−η_k M|}).
    pub strong_convexity: Option<Enclosure>,
    /// Smoothness M (alone: convex, m = 0).
    pub smoothness: Option<Enclosure>,
    /// Contraction c for every step (overrides m, M).
    pub contraction: Option<Enclosure>,
    /// Diameter D of the constraint set (projected iterates).
    pub diameter: Option<Enclosure>,
    /// Cgd: batch index (0-based) holding the differing record; `None`: the worst case
    /// over all positions.
    pub position: Option<usize>,
    /// A fixed start time τ instead of the search (required for Sgd).
    pub tau: Option<usize>,
    /// Run argmin's L-BFGS beside the KKT solver.
    pub numeric: bool,
    /// The run as a validated [`Setting`] for the closed forms (BSA24 Thms 4.1–4.6), or
    /// why it is not one (the closed forms then say so).
    pub setting: Result<Setting>,
}

impl ScheduleSpec {
    /// The schedule problem of a run: constant η, σ, the run's curvature, diameter and
    /// horizon; worst record position; τ searched; argmin beside the KKT solver.
    pub fn from_setting(s: &Setting) -> ScheduleSpec {
        ScheduleSpec {
            algorithm: s.algorithm,
            n: s.n,
            batch: Some(s.b),
            steps: Some(s.t),
            epochs: None,
            eta: Some(s.eta.clone()),
            noise: Some(s.sigma.clone()),
            eta_schedule: None,
            noise_schedule: None,
            sensitivity: s.l.clone(),
            strong_convexity: s.m.clone(),
            smoothness: s.big_m.clone(),
            contraction: s.c.clone(),
            diameter: s.d.clone(),
            position: None,
            tau: None,
            numeric: true,
            setting: Ok(s.clone()),
        }
    }
}

/// Everything [`optimal_schedule`] computed.
#[derive(Debug, Clone)]
pub struct ScheduleReport {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Horizon t.
    pub steps: usize,
    /// Precision of the certificate.
    pub bits: u32,
    /// Optimal (or given) τ.
    pub tau: usize,
    /// Batch position of the differing record used (cgd).
    pub position: Option<usize>,
    /// Certified μ (upper end, decimal rounded up).
    pub mu: String,
    /// Certified μ as f64 (rounded up).
    pub mu_upper_f64: f64,
    /// KKT optimum μ at the working precision (estimate).
    pub mu_kkt: f64,
    /// argmin's μ at the same τ, with its iteration count.
    pub mu_numeric: Option<(f64, u64)>,
    /// Active constraints z_k = 0 (k < t) of the KKT optimum.
    pub active: Vec<usize>,
    /// Closed forms: (theorem, Ok(μ upper) or Err(reason)).
    pub closed_forms: Vec<(String, std::result::Result<f64, String>)>,
    /// The KKT schedule at τ and its problem (the midpoints), to regenerate the rows.
    schedule: Arc<(RunProblem<f64>, RunKkt)>,
}

impl ScheduleReport {
    /// Number of rows of the schedule, t − τ.
    pub fn row_count(&self) -> usize {
        self.steps - self.tau
    }

    /// Calls `f(k, a_k, λ_k, z_k)` for k = τ+1..t in order (the KKT schedule whose
    /// shifts were certified), regenerated without keeping it (O(t − τ) time).
    ///
    /// # Errors
    /// [`Error::NotCertified`] if a shift overflows; the work limit; any error of `f`.
    pub fn for_each_row(&self, f: impl FnMut(usize, f64, f64, f64) -> Result<()>) -> Result<()> {
        let (q, sol) = &*self.schedule;
        sol.for_each_row(q, &mut WorkBudget::new(self.steps), f)
    }

    /// The schedule (k, a_k, λ_k, z_k), k = τ+1..t, collected.
    ///
    /// # Errors
    /// [`Error::MemoryLimit`] if 32 bytes per row exceed the limit; as
    /// [`ScheduleReport::for_each_row`].
    pub fn rows(&self) -> Result<Vec<(usize, f64, f64, f64)>> {
        let n = self.row_count();
        memory::check(
            "the schedule's rows (k, a_k, λ_k, z_k)",
            memory::bytes_of(n as u64, 32),
        )?;
        let mut out = Vec::with_capacity(n);
        self.for_each_row(|k, a, l, z| {
            out.push((k, a, l, z));
            Ok(())
        })?;
        Ok(out)
    }
}

/// How the problem of one record position is built (kept as runs).
struct Built {
    t: usize,
    constant: bool,
    c_const: Option<Enclosure>,
    b: u64,
    epochs_int: Option<u64>,
    /// Record positions to try (cgd), or `[None]`.
    positions: Vec<Option<usize>>,
    /// Batches per epoch (cgd).
    l: usize,
    etas: Vec<(usize, Enclosure)>,
    sigmas: Vec<(usize, Enclosure)>,
    sens: Enclosure,
    curvature: Curvature<Enclosure>,
    d: Option<Enclosure>,
    algorithm: Algorithm,
    n: u64,
    /// Precision of the certificate (√2 of the Sgd noise is taken at it).
    bits: u32,
}

impl Built {
    /// The schedule problem with the differing record at `pos` (cgd), as runs.
    fn problem(&self, pos: Option<usize>) -> Result<RunProblem<Enclosure>> {
        let cur = self.curvature.clone();
        match self.algorithm {
            Algorithm::Cgd => per_step_runs(
                &self.etas,
                &self.sigmas,
                self.sens.clone(),
                self.b,
                SensitiveSteps::Cyclic {
                    period: self.l,
                    position: pos.unwrap_or(0),
                },
                cur,
                self.d.clone(),
            ),
            Algorithm::Sgd => {
                // Gaussian part of BSA24 Thm 4.10: the shifts only absorb the initial gap
                // (s_k = 0) with half of the noise variance, ς_k = η_k σ_k/√2.
                let Some(d) = &self.d else {
                    return Err(hyp(
                        ResultId::Bsa24Thm4_10,
                        "H: constraint set of diameter D",
                        "the diameter D is not given",
                    ));
                };
                let half = Enclosure::sqrt2(self.bits);
                let sigmas: Vec<(usize, Enclosure)> = self
                    .sigmas
                    .iter()
                    .map(|(n, x)| (*n, x.clone() / half.clone()))
                    .collect();
                let zero = self.sens.lit(0.0);
                let p = per_step_runs(
                    &self.etas,
                    &sigmas,
                    zero,
                    self.b,
                    SensitiveSteps::Never,
                    cur,
                    None,
                )?;
                // z_τ = D for every τ ≥ 1 (the paper's gap); z_0 = 0 (identical starts)
                p.with_fixed_gap(Some(d.clone()))
            }
            _ => per_step_runs(
                &self.etas,
                &self.sigmas,
                self.sens.clone(),
                self.n,
                SensitiveSteps::All,
                cur,
                self.d.clone(),
            ),
        }
    }
}

fn build(a: &ScheduleSpec, bits: u32) -> Result<Built> {
    let n = a.n;
    if n == 0 {
        return Err(Error::param("n", 0, "must be ≥ 1"));
    }
    let b = match a.algorithm {
        Algorithm::Gd => n,
        Algorithm::Cgd | Algorithm::Sgd => a.batch.ok_or_else(|| {
            Error::param("batch", "none", "the batch size b is required for cgd/sgd")
        })?,
        Algorithm::Lmc => {
            return Err(Error::param(
                "algorithm",
                "lmc",
                "schedules are for gd, cgd and sgd (LMC is NoisyGD with n = 1: use gd)",
            ));
        }
    };
    batch_within(n, b)?;
    let l = match a.algorithm {
        Algorithm::Cgd => batches_per_epoch(n, b)?,
        _ => 1,
    };
    let sens = a.sensitivity.clone();
    let (eta_file, sigma_file) = (&a.eta_schedule, &a.noise_schedule);
    // horizon
    let steps_per_epoch = match a.algorithm {
        Algorithm::Cgd => l,
        Algorithm::Sgd => (n / b).max(1),
        _ => 1,
    };
    let steps = a.steps.map(|t| usize::try_from(t).unwrap_or(usize::MAX));
    let (t, epochs_int) = match (&steps, &a.epochs) {
        (Some(_), Some(_)) => {
            return Err(Error::param(
                "steps",
                "both",
                "give the steps t or the epochs E, not both",
            ));
        }
        (Some(t), None) => (
            *t,
            (*t as u64)
                .is_multiple_of(steps_per_epoch)
                .then_some(*t as u64 / steps_per_epoch),
        ),
        (None, Some(ee)) => {
            let x = ee.mid_f64() * steps_per_epoch as f64;
            let r = x.round();
            if !(x.is_finite() && r >= 1.0 && (x - r).abs() <= 1e-9 * r.max(1.0)) {
                return Err(Error::param(
                    "epochs",
                    ee.mid_f64(),
                    "E·(steps per epoch) must be a positive integer number of steps",
                ));
            }
            let t = r as usize;
            (
                t,
                (t as u64)
                    .is_multiple_of(steps_per_epoch)
                    .then_some(t as u64 / steps_per_epoch),
            )
        }
        (None, None) => {
            if let Some(v) = eta_file.as_ref().or(sigma_file.as_ref()) {
                (v.len(), None)
            } else {
                return Err(Error::param(
                    "steps",
                    "none",
                    "give the steps t or the epochs E",
                ));
            }
        }
    };
    if t == 0 {
        return Err(Error::param("steps", 0, "must be ≥ 1"));
    }
    // η_k, σ_k as runs: a constant is one run, a file its consecutive equal values
    let per = |file: &Option<Vec<Enclosure>>,
               cst: &Option<Enclosure>,
               flag: &str|
     -> Result<Vec<(usize, Enclosure)>> {
        match (file, cst) {
            (Some(v), _) => {
                if v.len() < t {
                    Err(Error::param(
                        flag,
                        v.len(),
                        &format!("schedule file has fewer than t = {t} values"),
                    ))
                } else {
                    Ok(runs_of(&v[..t]))
                }
            }
            (None, Some(x)) => Ok(vec![(t, x.clone())]),
            (None, None) => Err(Error::param(
                flag,
                "none",
                "give a constant or a schedule file",
            )),
        }
    };
    let etas = per(eta_file, &a.eta, "eta")?;
    let sigmas = per(sigma_file, &a.noise, "noise")?;
    let curvature = match (&a.contraction, &a.strong_convexity, &a.smoothness) {
        (Some(c), _, _) => Curvature::Contraction(c.clone()),
        (None, Some(m), Some(mm)) => Curvature::StronglyConvex {
            m: m.clone(),
            big_m: mm.clone(),
        },
        (None, None, Some(mm)) => Curvature::StronglyConvex {
            m: mm.lit(0.0),
            big_m: mm.clone(),
        },
        _ => {
            return Err(Error::param(
                "contraction",
                "none",
                "give the contraction c, or the smoothness M (convex) with the strong convexity m optional",
            ));
        }
    };
    let constant = eta_file.is_none() && sigma_file.is_none();
    let c_const = match (&curvature, &a.eta) {
        (Curvature::Contraction(c), _) => Some(c.clone()),
        (Curvature::StronglyConvex { m, big_m }, Some(e)) if constant => {
            Some(contraction(e.clone(), m.clone(), big_m.clone())?)
        }
        _ => None,
    };
    let d = a.diameter.clone();
    let positions: Vec<Option<usize>> = match a.algorithm {
        Algorithm::Cgd => match a.position {
            Some(p) if (p as u64) < l => vec![Some(p)],
            Some(p) => {
                return Err(Error::param(
                    "position",
                    p,
                    &format!("must be < l = n/b = {l}"),
                ));
            }
            None => (0..l as usize).map(Some).collect(),
        },
        _ => vec![None],
    };
    if a.algorithm == Algorithm::Sgd && d.is_none() {
        return Err(hyp(
            ResultId::Bsa24Thm4_10,
            "H: constraint set of diameter D",
            "the diameter D is not given",
        ));
    }
    let built = Built {
        t,
        constant,
        c_const,
        b,
        epochs_int,
        positions,
        l: l as usize,
        etas,
        sigmas,
        sens,
        curvature,
        d,
        algorithm: a.algorithm,
        n,
        bits,
    };
    // the problems are built one position at a time; the first one now, so that its
    // errors come before the search's
    built.problem(built.positions[0])?;
    Ok(built)
}

/// (certified μ, record position, KKT solution, certificate, problem, its midpoints).
type Candidate = (
    f64,
    Option<usize>,
    RunKkt,
    RunCertificate,
    RunProblem<Enclosure>,
    RunProblem<f64>,
);

/// The optimal shift schedule of a run and its certified μ, with the closed forms that
/// apply (BSA24 Thm 3.3 over the run's steps).
///
/// `precision`: the certificate's MPFR precision (at least 64 bits); with
/// [`Precision::Bits`] the KKT value beside it is also recomputed at that precision
/// (when t − τ ≤ 2·10⁵).
///
/// Soundness: the reported μ (`mu`, `mu_upper_f64`) is the certificate
/// ([`ScheduleProblem::certify`](super::ScheduleProblem::certify)'s recursion, streamed:
/// [`RunProblem::certify_kkt`]) of the KKT shifts at the worst record position — an
/// upper end under directed rounding, valid for any shifts; solver error costs only
/// tightness.
///
/// # Errors
/// Invalid spec fields ([`Error::Parameter`], including the work limit of
/// [`super::runs`]), violated hypotheses ([`Error::Hypothesis`]: Sgd without a
/// diameter), a failed certification ([`Error::NotCertified`]), or
/// [`Error::MemoryLimit`].
pub fn optimal_schedule(a: &ScheduleSpec, precision: Precision) -> Result<ScheduleReport> {
    let bits = precision.mpfr_bits().max(64);
    let built = build(a, bits)?;
    let t = built.t;
    let search = match (a.tau, a.algorithm) {
        (Some(tau), _) => TauSearch::Fixed(tau),
        (None, Algorithm::Sgd) => {
            return Err(Error::param(
                "tau",
                "none",
                "schedule sgd needs the split τ: τ trades the Gaussian part against the subsampled composition, which this command does not compute",
            ));
        }
        (None, _) => TauSearch::Auto { limit: 2048 },
    };
    let mut budget = WorkBudget::new(t);
    // worst case over the positions of the differing record
    let mut best: Option<Candidate> = None;
    for &pos in &built.positions {
        let p = built.problem(pos)?;
        let q = p.to_mid_f64();
        let (sol, _) = search_tau_runs(&q, search, &mut budget)?;
        let cert = p.certify_kkt(&q, &sol, bits, &mut budget)?;
        let mu = cert.mu_upper_f64();
        if best.as_ref().is_none_or(|b| mu > b.0) {
            best = Some((mu, pos, sol, cert, p, q));
        }
    }
    let (mu_upper_f64, position, sol, cert, p, q) =
        best.ok_or_else(|| Error::param("batch", built.b, "no batch position"))?;
    let tau = sol.tau;
    // KKT value at the requested precision (the steps after τ kept per step)
    let mu_kkt = if matches!(precision, Precision::Bits(_)) && t - tau <= 200_000 {
        let (sp, stau) = p.suffix(tau, &mut budget)?;
        solve_kkt(&sp, stau)?.mu().mid_f64()
    } else {
        sol.mu()
    };
    let mu_numeric = if a.numeric && t - tau <= 100_000 {
        let (sq, stau) = q.suffix(tau, &mut budget)?;
        solve_numeric(&sq, stau, NumericOptions::default())
            .ok()
            .map(|s| (s.mu(), s.iterations))
    } else {
        None
    };
    let closed_forms = closed_forms(a, &built, bits);
    Ok(ScheduleReport {
        algorithm: a.algorithm,
        steps: t,
        bits,
        tau,
        position,
        mu: fmt_up(&cert.mu_upper, bits),
        mu_upper_f64,
        mu_kkt,
        mu_numeric,
        active: sol.active.clone(),
        closed_forms,
        schedule: Arc::new((q, sol)),
    })
}

/// The closed forms of BSA24 §4.1–4.2 that concern the run, each through its checked
/// entry point on the run's [`Setting`] (μ upper end), or why it is not evaluated.
fn closed_forms(
    a: &ScheduleSpec,
    built: &Built,
    bits: u32,
) -> Vec<(String, std::result::Result<f64, String>)> {
    let mut out = Vec::new();
    if !built.constant {
        return out;
    }
    let (Some(eta), Some(sigma)) = (&a.eta, &a.noise) else {
        return out;
    };
    let d = &a.diameter;
    let c = &built.c_const;
    let t = built.t as u64;
    let convex = c.as_ref().is_some_and(|c| c.lower_f64() >= 1.0);
    let checked = |thm: fn(&Setting) -> Result<Bound>| -> std::result::Result<f64, String> {
        let s = a.setting.as_ref().map_err(|e| e.to_string())?;
        let b = thm(s).map_err(|e| e.to_string())?;
        b.mu()
            .map(Enclosure::upper_f64)
            .ok_or_else(|| "no GDP parameter".to_string())
    };
    match a.algorithm {
        Algorithm::Cgd => {
            if built.epochs_int.is_none() {
                out.push((
                    "BSA24 Thms 4.4–4.6".into(),
                    Err("need an integer number of epochs".into()),
                ));
                return out;
            }
            out.push(("BSA24 Thm 4.4".into(), checked(bsa24::thm_4_4)));
            if d.is_none() && c.is_some() {
                out.push(("BSA24 Thm 4.5".into(), checked(bsa24::thm_4_5)));
            }
            if d.is_some() && convex {
                out.push(("BSA24 Thm 4.6".into(), checked(bsa24::thm_4_6)));
            }
        }
        Algorithm::Sgd => {
            if let Some(d) = d {
                let tau = a.tau.unwrap_or(0) as u64;
                let gauss = Enclosure::sqrt2(bits) * d.clone()
                    / (eta.clone() * sigma.clone() * sigma.int(t - tau).sqrt());
                out.push((
                    "BSA24 Thm 4.10 (Gaussian part √2 D/(ησ√(t−τ)))".into(),
                    Ok(gauss.upper_f64()),
                ));
            }
        }
        _ => {
            out.push(("BSA24 Thm 4.1".into(), checked(bsa24::thm_4_1)));
            if d.is_none() && c.is_some() {
                out.push(("BSA24 Thm 4.2".into(), checked(bsa24::thm_4_2)));
            }
            if d.is_some() && convex {
                out.push(("BSA24 Thm 4.3".into(), checked(bsa24::thm_4_3)));
            }
        }
    }
    out
}
