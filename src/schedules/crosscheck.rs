//! Closed forms of BSA24 §4.1–4.2 against the optimum of their own schedule problem
//! and against the theorem's own schedule.
//!
//! For each theorem: build the schedule problem of its setting ([`super::settings`]),
//! solve it (KKT at the working precision, τ searched, worst position of the
//! differing record for cyclic batches), certify the optimum with directed rounding,
//! and compare with the closed form (an enclosure, upper end):
//!
//! * **attained**: |closed − optimum| ≤ tol · optimum;
//! * **beaten**: closed > optimum (the closed form is valid but not optimal);
//! * **invalid**: closed < optimum (the analysis cannot give the closed form).
//!
//! # References
//! BSA24 Thms 4.2, 4.3, 4.5, 4.6; SPEC §4, §6.
use super::kkt::solve_kkt;
use super::numeric::{NumericOptions, solve_numeric};
use super::problem::{ScheduleProblem, ScheduleReal};
use super::settings::{CyclicOrder, batches_per_epoch, noisy_cgd, noisy_gd};
use super::tau::{TauSearch, search_tau};
use crate::bounds::closed_form;
use crate::error::Result;
use crate::precision::Enclosure;
use crate::precision::rounding as rd;

/// Outcome of comparing a closed form with the optimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The closed form equals the optimum (to the tolerance).
    Attained,
    /// The optimum is strictly smaller: the closed form is valid but loose.
    Beaten,
    /// The closed form is below the optimum: not what the analysis gives.
    Invalid,
}

impl Verdict {
    /// Classifies `closed` against `optimum` with relative tolerance `tol`.
    pub fn classify(closed: f64, optimum: f64, tol: f64) -> Verdict {
        let scale = optimum.abs().max(f64::MIN_POSITIVE);
        let rel = (closed - optimum) / scale;
        if rel.abs() <= tol {
            Verdict::Attained
        } else if rel > 0.0 {
            Verdict::Beaten
        } else {
            Verdict::Invalid
        }
    }
    /// Lower-case name.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Attained => "attained",
            Verdict::Beaten => "beaten",
            Verdict::Invalid => "invalid",
        }
    }
}

/// One closed form against the optimum of its schedule problem.
#[derive(Debug, Clone)]
pub struct CrossCheck {
    /// Result id, e.g. `BSA24 Thm 4.2`.
    pub theorem: String,
    /// Closed-form μ (upper end of its enclosure).
    pub closed_form: f64,
    /// Certified μ of the KKT optimum (upper bound; max over record positions).
    pub optimum: f64,
    /// The τ of the optimum.
    pub optimum_tau: usize,
    /// Position (0-based batch) of the differing record attaining the max (cyclic).
    pub worst_position: Option<usize>,
    /// argmin's μ at the same τ (f64 estimate), when computed.
    pub numeric: Option<f64>,
    /// Certified μ of the theorem's own schedule, when the paper gives it.
    pub theorem_schedule: Option<f64>,
    /// (closed − optimum)/optimum.
    pub relative_difference: f64,
    /// Attained, beaten or invalid.
    pub verdict: Verdict,
}

/// A NoisyGD case (inputs are exact binary `f64`s).
#[derive(Debug, Clone, Copy)]
pub struct GdCase {
    /// Dataset size n.
    pub n: u64,
    /// Gradient sensitivity L.
    pub sensitivity: f64,
    /// Step size η.
    pub eta: f64,
    /// Noise multiplier σ.
    pub sigma: f64,
    /// Steps t.
    pub steps: usize,
    /// Contraction c.
    pub contraction: f64,
    /// Smoothness M (for the hypothesis η ≤ 2/M).
    pub smoothness: f64,
    /// Diameter D (constrained settings).
    pub diameter: Option<f64>,
}

/// A cyclic NoisyCGD case.
#[derive(Debug, Clone, Copy)]
pub struct CgdCase {
    /// Dataset size n.
    pub n: u64,
    /// Batch size b (divides n).
    pub batch: u64,
    /// Gradient sensitivity L.
    pub sensitivity: f64,
    /// Step size η.
    pub eta: f64,
    /// Noise multiplier σ.
    pub sigma: f64,
    /// Epochs E (integer, as the theorems assume).
    pub epochs: u64,
    /// Contraction c.
    pub contraction: f64,
    /// Smoothness M.
    pub smoothness: f64,
    /// Diameter D (constrained settings).
    pub diameter: Option<f64>,
}

fn enc(bits: u32, x: f64) -> Enclosure {
    Enclosure::from_f64(bits, x)
}

fn gd_problem(case: &GdCase, bits: u32) -> Result<ScheduleProblem<Enclosure>> {
    noisy_gd(
        case.n,
        enc(bits, case.sensitivity),
        enc(bits, case.eta),
        enc(bits, case.sigma),
        case.steps,
        enc(bits, case.contraction),
        case.diameter.map(|d| enc(bits, d)),
    )
}

fn numeric_mu<R: ScheduleReal>(p: &ScheduleProblem<R>, tau: usize) -> Option<f64> {
    if p.horizon() - tau > 20_000 {
        return None;
    }
    solve_numeric(p, tau, NumericOptions::default())
        .ok()
        .map(|s| s.mu())
}

#[allow(clippy::too_many_arguments)]
fn finish(
    theorem: &str,
    closed: f64,
    optimum: f64,
    tau: usize,
    worst_position: Option<usize>,
    numeric: Option<f64>,
    own: Option<f64>,
    tol: f64,
) -> CrossCheck {
    CrossCheck {
        theorem: theorem.into(),
        closed_form: closed,
        optimum,
        optimum_tau: tau,
        worst_position,
        numeric,
        theorem_schedule: own,
        relative_difference: (closed - optimum) / optimum.max(f64::MIN_POSITIVE),
        verdict: Verdict::classify(closed, optimum, tol),
    }
}

/// BSA24 Thm 4.2 (NoisyGD, strongly convex, unconstrained) against the optimum.
///
/// # Formula
/// Optimum: KKT at τ = 0, z_0 = 0. Theorem's schedule: a_k = s c^{t−k}(1+c)/(1+cᵗ).
///
/// # Errors
/// Hypotheses of [`closed_form::thm_4_2`]; parameters of [`noisy_gd`].
///
/// # Example
/// ```
/// use shiftdp::schedules::crosscheck::{thm_4_2, GdCase, Verdict};
/// let case = GdCase { n: 1, sensitivity: 1.0, eta: 1.0, sigma: 1.0, steps: 50,
///     contraction: 0.9, smoothness: 1.0, diameter: None };
/// assert_eq!(thm_4_2(&case, 128).unwrap().verdict, Verdict::Attained);
/// ```
pub fn thm_4_2(case: &GdCase, bits: u32) -> Result<CrossCheck> {
    let cf = closed_form::thm_4_2(
        enc(bits, case.contraction),
        case.steps as u64,
        enc(bits, case.sensitivity),
        case.n,
        enc(bits, case.sigma),
    )?;
    let p = gd_problem(
        &GdCase {
            diameter: None,
            ..*case
        },
        bits,
    )?;
    let sol = solve_kkt(&p, 0)?;
    let cert = p.certify(0, &sol.shifts_f64(), bits)?;
    let (c, t) = (case.contraction, case.steps);
    let s = case.eta * case.sensitivity / case.n as f64;
    let ct = c.powi(t as i32);
    let own: Vec<f64> = (1..=t)
        .map(|k| s * c.powi((t - k) as i32) * (1.0 + c) / (1.0 + ct))
        .collect();
    let own_mu = p.certify(0, &own, bits)?.mu_upper_f64();
    Ok(finish(
        "BSA24 Thm 4.2",
        cf.upper_f64(),
        cert.mu_upper_f64(),
        0,
        None,
        numeric_mu(&p, 0),
        Some(own_mu),
        1e-9,
    ))
}

/// BSA24 Thm 4.3 (projected NoisyGD, convex, diameter D) against the optimum over τ.
///
/// # Formula
/// Optimum: KKT over τ ∈ {0, …, t−1} with c = 1 and z_τ ≤ D. Theorem's schedule:
/// τ = t − ⌈Dn/(ηL)⌉, equal shifts a_k = (D + (t−τ)s)/(t−τ).
///
/// # Errors
/// Hypotheses of [`closed_form::thm_4_3`]; parameters of [`noisy_gd`].
pub fn thm_4_3(case: &GdCase, bits: u32, search: TauSearch) -> Result<CrossCheck> {
    let d = case.diameter.unwrap_or(f64::NAN);
    let cf = closed_form::thm_4_3(
        enc(bits, case.sensitivity),
        enc(bits, d),
        enc(bits, case.eta),
        case.n,
        enc(bits, case.sigma),
        enc(bits, case.smoothness),
        case.steps as u64,
    )?;
    let case1 = GdCase {
        contraction: 1.0,
        ..*case
    };
    let p = gd_problem(&case1, bits)?;
    let r = search_tau(&p, search)?;
    let tau = r.best.tau;
    let cert = p.certify(tau, &r.best.shifts_f64(), bits)?;
    let s = case.eta * case.sensitivity / case.n as f64;
    let big_t = (d / s).ceil() as usize;
    let own_mu = if big_t >= 1 && big_t <= case.steps {
        let tt = case.steps - big_t;
        let a = (d + big_t as f64 * s) / big_t as f64;
        Some(p.certify(tt, &vec![a; big_t], bits)?.mu_upper_f64())
    } else {
        None
    };
    Ok(finish(
        "BSA24 Thm 4.3",
        cf.upper_f64(),
        cert.mu_upper_f64(),
        tau,
        None,
        numeric_mu(&p, tau),
        own_mu,
        1e-9,
    ))
}

/// Worst position of the differing record for a cyclic problem: for each batch index
/// the optimum over τ, certified; returns (μ upper, τ, position, problem).
fn worst_cyclic(
    case: &CgdCase,
    bits: u32,
    contraction: f64,
    search: TauSearch,
) -> Result<(f64, usize, usize, ScheduleProblem<Enclosure>)> {
    let l = batches_per_epoch(case.n, case.batch)?;
    let t = (l * case.epochs) as usize;
    let mut worst: Option<(f64, usize, usize, ScheduleProblem<Enclosure>)> = None;
    for pos in 0..l as usize {
        let p = noisy_cgd(
            case.n,
            case.batch,
            enc(bits, case.sensitivity),
            enc(bits, case.eta),
            enc(bits, case.sigma),
            t,
            enc(bits, contraction),
            CyclicOrder::Fixed(pos),
            case.diameter.map(|d| enc(bits, d)),
        )?;
        let r = search_tau(&p.to_mid_f64(), search)?;
        let cert = p.certify(r.best.tau, &r.best.shifts_f64(), bits)?;
        let mu = cert.mu_upper_f64();
        if worst.as_ref().is_none_or(|w| mu > w.0) {
            worst = Some((mu, r.best.tau, pos, p));
        }
    }
    worst.ok_or_else(|| crate::Error::param("batch", case.batch, "no batch position"))
}

/// Certified optimum of a NoisyCGD case (contraction and diameter as given): the worst
/// record position's optimum over τ. Returns (μ upper bound, τ, position).
///
/// # Errors
/// Parameters of [`noisy_cgd`] and [`batches_per_epoch`].
pub fn cgd_optimum(case: &CgdCase, bits: u32, search: TauSearch) -> Result<(f64, usize, usize)> {
    let (mu, tau, pos, _) = worst_cyclic(case, bits, case.contraction, search)?;
    Ok((mu, tau, pos))
}

/// BSA24 Thm 4.5 (NoisyCGD, strongly convex, unconstrained) against the worst-position
/// optimum.
///
/// # Errors
/// Hypotheses of [`closed_form::thm_4_5`] and [`batches_per_epoch`].
pub fn thm_4_5(case: &CgdCase, bits: u32) -> Result<CrossCheck> {
    let l = batches_per_epoch(case.n, case.batch)?;
    let cf = closed_form::thm_4_5(
        enc(bits, case.contraction),
        l,
        case.epochs,
        enc(bits, case.sensitivity),
        case.batch,
        enc(bits, case.sigma),
    )?;
    let unconstrained = CgdCase {
        diameter: None,
        ..*case
    };
    let (mu, tau, pos, p) =
        worst_cyclic(&unconstrained, bits, case.contraction, TauSearch::Fixed(0))?;
    Ok(finish(
        "BSA24 Thm 4.5",
        cf.upper_f64(),
        mu,
        tau,
        Some(pos),
        numeric_mu(&p, tau),
        None,
        1e-9,
    ))
}

/// BSA24 Thm 4.6 (projected NoisyCGD, convex, diameter D) against the worst-position
/// optimum over τ.
///
/// # Errors
/// Hypotheses of [`closed_form::thm_4_6`] and [`batches_per_epoch`].
pub fn thm_4_6(case: &CgdCase, bits: u32, search: TauSearch) -> Result<CrossCheck> {
    let l = batches_per_epoch(case.n, case.batch)?;
    let d = case.diameter.unwrap_or(f64::NAN);
    let cf = closed_form::thm_4_6(
        enc(bits, case.sensitivity),
        enc(bits, d),
        enc(bits, case.eta),
        case.batch,
        l,
        enc(bits, case.sigma),
        enc(bits, case.smoothness),
        case.epochs,
    )?;
    let (mu, tau, pos, p) = worst_cyclic(case, bits, 1.0, search)?;
    Ok(finish(
        "BSA24 Thm 4.6",
        cf.upper_f64(),
        mu,
        tau,
        Some(pos),
        numeric_mu(&p, tau),
        None,
        1e-9,
    ))
}

/// Certified μ of the constrained strongly convex setting (no paper states it): the
/// optimum over τ of the problem with contraction c < 1 and diameter D.
///
/// # Formula
/// min_τ μ*(τ) with z_τ = min(D, unshifted gap); never worse than the unconstrained
/// strongly convex optimum (τ = 0 is a candidate) nor than the constrained convex one
/// (with c ≤ 1 every c = 1 schedule, capped to keep z ≥ 0, stays feasible with
/// shifts no larger).
///
/// # Errors
/// Parameters of [`noisy_gd`].
pub fn constrained_strongly_convex(
    case: &GdCase,
    bits: u32,
    search: TauSearch,
) -> Result<(f64, usize)> {
    let p = gd_problem(case, bits)?;
    let r = search_tau(&p.to_mid_f64(), search)?;
    let cert = p.certify(r.best.tau, &r.best.shifts_f64(), bits)?;
    Ok((rd::to_f64_up(&cert.mu_upper), r.best.tau))
}
