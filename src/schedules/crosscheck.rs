//! Closed forms of BSA24 §4.1–4.2 against the optimum of their own schedule problem
//! and against the theorem's own schedule.
//!
//! For each theorem: build the schedule problem of its setting ([`super::builders`]),
//! solve it (KKT at the working precision, τ searched, worst position of the
//! differing record for cyclic batches), certify the optimum with directed rounding,
//! and compare with the closed form (an enclosure, upper end):
//!
//! * **attained**: |closed − optimum| ≤ tol · optimum;
//! * **beaten**: closed > optimum (the closed form is valid but not optimal);
//! * **invalid**: closed < optimum (the analysis cannot give the closed form).
//!
//! # References
//! BSA24 Thms 4.2, 4.3, 4.5, 4.6; docs/conventions.md §4, §6.
use super::builders::{CyclicOrder, batches_per_epoch, noisy_cgd_of, noisy_gd_of};
use super::kkt::solve_kkt;
use super::numeric::{NumericOptions, solve_numeric};
use super::problem::{ScheduleProblem, ScheduleReal};
use super::tau::{TauSearch, search_tau};
use crate::bounds::{Bound, bsa24};
use crate::error::{Error, Result};
use crate::precision::Enclosure;
use crate::precision::rounding as rd;
use crate::settings::{SETTING_BITS, Setting};

/// Outcome of comparing a closed form with the optimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
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

/// The schedule problem of a full-batch setting (NoisyGD, docs/conventions.md §2):
/// s = ηL/n, ς = ησ, the setting's values as enclosures, with the contraction and diameter
/// given here (each theorem fixes its own: c = 1 for the convex Thm 4.3, D = ∞ for
/// Thm 4.2).
fn gd_problem(
    s: &Setting,
    contraction: &Enclosure,
    diameter: Option<&Enclosure>,
) -> Result<ScheduleProblem<Enclosure>> {
    noisy_gd_of(s, steps(s)?, contraction.clone(), diameter.cloned())
}

fn steps(s: &Setting) -> Result<usize> {
    usize::try_from(s.t).map_err(|_| Error::param("steps", s.t, "too large for this machine"))
}

/// μ of a checked bound: the upper end of its enclosure, rounded up to f64.
fn closed_mu(b: Result<Bound>) -> Result<f64> {
    let b = b?;
    b.mu()
        .map(Enclosure::upper_f64)
        .ok_or_else(|| Error::NotCertified {
            what: b.id().as_str().to_string(),
            reason: "the bound has no GDP parameter".into(),
        })
}

/// The contraction of a setting: as given or derived (Lemma 2.8), else 1 (convex).
fn contraction_of(s: &Setting) -> Enclosure {
    s.c.clone()
        .unwrap_or_else(|| Enclosure::from_u64(SETTING_BITS, 1))
}

fn numeric_mu<R: ScheduleReal>(p: &ScheduleProblem<R>, tau: usize) -> Option<f64> {
    if p.horizon() - tau > 20_000 {
        return None;
    }
    solve_numeric(p, tau, NumericOptions::default())
        .ok()
        .map(|s| s.mu())
}

/// Relative tolerance of [`Verdict::classify`] for every cross-check here.
const TOLERANCE: f64 = 1e-9;

fn finish(
    theorem: &str,
    closed: f64,
    optimum: f64,
    tau: usize,
    worst_position: Option<usize>,
    numeric: Option<f64>,
    own: Option<f64>,
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
        verdict: Verdict::classify(closed, optimum, TOLERANCE),
    }
}

/// [`finish`] for the worst-position optimum `(μ, τ, position, problem)` of a cyclic
/// run ([`worst_cyclic`], [`worst_cyclic_gap`]), with no schedule of the theorem's own.
fn finish_cyclic(
    theorem: &str,
    closed: f64,
    (mu, tau, pos, p): (f64, usize, usize, ScheduleProblem<Enclosure>),
) -> CrossCheck {
    finish(
        theorem,
        closed,
        mu,
        tau,
        Some(pos),
        numeric_mu(&p, tau),
        None,
    )
}

/// BSA24 Thm 4.2 (NoisyGD, strongly convex, unconstrained) against the optimum.
///
/// # Formula
/// Closed form: the checked entry point [`bsa24::thm_4_2`] (μ, upper end). Optimum: KKT
/// at τ = 0, z_0 = 0. Theorem's schedule: a_k = s c^{t−k}(1+c)/(1+cᵗ).
///
/// # Errors
/// The hypotheses of [`bsa24::thm_4_2`]; parameters of [`noisy_gd`](super::builders::noisy_gd).
///
/// # Example
/// ```
/// use shiftdp::schedules::crosscheck::{thm_4_2, Verdict};
/// use shiftdp::{Algorithm, Setting};
/// let s = Setting::from_pairs(Algorithm::Gd, &[("n", "1"), ("steps", "50"), ("eta", "1"),
///     ("noise", "1"), ("sensitivity", "1"), ("contraction", "0.9")])?;
/// assert_eq!(thm_4_2(&s, 128)?.verdict, Verdict::Attained);
/// # Ok::<(), shiftdp::Error>(())
/// ```
pub fn thm_4_2(s: &Setting, bits: u32) -> Result<CrossCheck> {
    let cf = closed_mu(bsa24::thm_4_2(s))?;
    let c_enc = contraction_of(s);
    let p = gd_problem(s, &c_enc, None)?;
    let sol = solve_kkt(&p, 0)?;
    let cert = p.certify(0, &sol.shifts_f64(), bits)?;
    // the theorem's own schedule, a candidate (certified below like any schedule)
    let (c, t) = (c_enc.mid_f64(), steps(s)?);
    let sh = s.eta.mid_f64() * s.l.mid_f64() / s.n as f64;
    let ct = c.powi(t as i32);
    let own: Vec<f64> = (1..=t)
        .map(|k| sh * c.powi((t - k) as i32) * (1.0 + c) / (1.0 + ct))
        .collect();
    let own_mu = p.certify(0, &own, bits)?.mu_upper_f64();
    Ok(finish(
        "BSA24 Thm 4.2",
        cf,
        cert.mu_upper_f64(),
        0,
        None,
        numeric_mu(&p, 0),
        Some(own_mu),
    ))
}

/// BSA24 Thm 4.3 (projected NoisyGD, convex, diameter D) against the optimum over τ.
///
/// # Formula
/// Closed form: [`bsa24::thm_4_3`]. Optimum: KKT over τ ∈ {0, …, t−1} with c = 1 and
/// z_τ ≤ D. Theorem's schedule: τ = t − ⌈Dn/(ηL)⌉, equal shifts a_k = (D + (t−τ)s)/(t−τ).
///
/// # Errors
/// The hypotheses of [`bsa24::thm_4_3`]; parameters of [`noisy_gd`](super::builders::noisy_gd).
pub fn thm_4_3(s: &Setting, bits: u32, search: TauSearch) -> Result<CrossCheck> {
    let cf = closed_mu(bsa24::thm_4_3(s))?;
    let d_enc =
        s.d.clone()
            .ok_or_else(|| Error::param("diameter", "missing", "Thm 4.3 needs D"))?;
    let one = Enclosure::from_u64(SETTING_BITS, 1);
    let p = gd_problem(s, &one, Some(&d_enc))?;
    let r = search_tau(&p, search)?;
    let tau = r.best.tau;
    let cert = p.certify(tau, &r.best.shifts_f64(), bits)?;
    let (d, t) = (d_enc.mid_f64(), steps(s)?);
    let sh = s.eta.mid_f64() * s.l.mid_f64() / s.n as f64;
    let big_t = (d / sh).ceil() as usize;
    let own_mu = if big_t >= 1 && big_t <= t {
        let tt = t - big_t;
        let a = (d + big_t as f64 * sh) / big_t as f64;
        Some(p.certify(tt, &vec![a; big_t], bits)?.mu_upper_f64())
    } else {
        None
    };
    Ok(finish(
        "BSA24 Thm 4.3",
        cf,
        cert.mu_upper_f64(),
        tau,
        None,
        numeric_mu(&p, tau),
        own_mu,
    ))
}

/// Worst position of the differing record for a cyclic problem: for each batch index
/// the optimum over τ, certified; returns (μ upper, τ, position, problem).
fn worst_cyclic(
    s: &Setting,
    bits: u32,
    contraction: &Enclosure,
    diameter: Option<&Enclosure>,
    search: TauSearch,
) -> Result<(f64, usize, usize, ScheduleProblem<Enclosure>)> {
    worst_cyclic_gap(s, bits, contraction, diameter, search, false)
}

/// [`worst_cyclic`]; with `paper_gap` the shifted segment starts at gap z_τ = D
/// (BSA24's proofs: the diameter is the only information on the start) for every
/// τ ∈ {1, …, t − 1}, searched exhaustively (`search` is then unused), instead of
/// min(D, unshifted gap) from identical starts.
fn worst_cyclic_gap(
    s: &Setting,
    bits: u32,
    contraction: &Enclosure,
    diameter: Option<&Enclosure>,
    search: TauSearch,
    paper_gap: bool,
) -> Result<(f64, usize, usize, ScheduleProblem<Enclosure>)> {
    let l = batches_per_epoch(s.n, s.b)?;
    let t = steps(s)?;
    let mut worst: Option<(f64, usize, usize, ScheduleProblem<Enclosure>)> = None;
    for pos in 0..l as usize {
        let p = noisy_cgd_of(
            s,
            t,
            contraction.clone(),
            CyclicOrder::Fixed(pos),
            diameter.cloned(),
        )?;
        let (p, tau, shifts) = if paper_gap {
            // z_τ = D wherever the shifted segment starts: τ ∈ {1, …, t − 1}
            let p = p.with_fixed_gap(diameter.cloned())?;
            let q = p.to_mid_f64();
            let mut best: Option<(f64, usize, Vec<f64>)> = None;
            for tau in 1..t {
                let sol = solve_kkt(&q, tau)?;
                if best.as_ref().is_none_or(|b| sol.mu2 < b.0) {
                    best = Some((sol.mu2, tau, sol.shifts_f64()));
                }
            }
            let (_, tau, shifts) =
                best.ok_or_else(|| Error::param("steps", t, "no τ ≥ 1 (one step)"))?;
            (p, tau, shifts)
        } else {
            let r = search_tau(&p.to_mid_f64(), search)?;
            let (tau, shifts) = (r.best.tau, r.best.shifts_f64());
            (p, tau, shifts)
        };
        let cert = p.certify(tau, &shifts, bits)?;
        let mu = cert.mu_upper_f64();
        if worst.as_ref().is_none_or(|w| mu > w.0) {
            worst = Some((mu, tau, pos, p));
        }
    }
    worst.ok_or_else(|| Error::param("batch", s.b, "no batch position"))
}

/// Certified optimum of a NoisyCGD setting (contraction — 1 if none — and diameter as
/// given): the worst record position's optimum over τ. Returns (μ upper bound, τ,
/// position).
///
/// # Errors
/// Parameters of [`noisy_cgd`](super::builders::noisy_cgd) and [`batches_per_epoch`].
pub fn cgd_optimum(s: &Setting, bits: u32, search: TauSearch) -> Result<(f64, usize, usize)> {
    let (mu, tau, pos, _) = worst_cyclic(s, bits, &contraction_of(s), s.d.as_ref(), search)?;
    Ok((mu, tau, pos))
}

/// BSA24 Thm 4.5 (NoisyCGD, strongly convex, unconstrained) against the worst-position
/// optimum.
///
/// # Errors
/// The hypotheses of [`bsa24::thm_4_5`]; [`batches_per_epoch`].
pub fn thm_4_5(s: &Setting, bits: u32) -> Result<CrossCheck> {
    let cf = closed_mu(bsa24::thm_4_5(s))?;
    let worst = worst_cyclic(s, bits, &contraction_of(s), None, TauSearch::Fixed(0))?;
    Ok(finish_cyclic("BSA24 Thm 4.5", cf, worst))
}

/// BSA24 Thm 4.6 (projected NoisyCGD, convex, diameter D) against the worst-position
/// optimum over τ.
///
/// # Errors
/// The hypotheses of [`bsa24::thm_4_6`]; [`batches_per_epoch`].
pub fn thm_4_6(s: &Setting, bits: u32, search: TauSearch) -> Result<CrossCheck> {
    let cf = closed_mu(bsa24::thm_4_6(s))?;
    let one = Enclosure::from_u64(SETTING_BITS, 1);
    let worst = worst_cyclic(s, bits, &one, s.d.as_ref(), search)?;
    Ok(finish_cyclic("BSA24 Thm 4.6", cf, worst))
}

/// BSA24 Thm 4.6 against the worst-position optimum of the schedule problem in the
/// paper's own model: the shifted segment starts at gap z_τ = D, τ ∈ {1, …, t − 1}
/// (exhaustive), where [`thm_4_6`] uses z_τ = min(D, unshifted gap) from identical
/// starts (which admits τ = 0, z_0 = 0).
///
/// # Errors
/// The hypotheses of [`bsa24::thm_4_6`]; [`batches_per_epoch`].
pub fn thm_4_6_paper_gap(s: &Setting, bits: u32, search: TauSearch) -> Result<CrossCheck> {
    let cf = closed_mu(bsa24::thm_4_6(s))?;
    let one = Enclosure::from_u64(SETTING_BITS, 1);
    let worst = worst_cyclic_gap(s, bits, &one, s.d.as_ref(), search, true)?;
    Ok(finish_cyclic("BSA24 Thm 4.6", cf, worst))
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
/// Parameters of [`noisy_gd`](super::builders::noisy_gd).
pub fn constrained_strongly_convex(
    s: &Setting,
    bits: u32,
    search: TauSearch,
) -> Result<(f64, usize)> {
    let p = gd_problem(s, &contraction_of(s), s.d.as_ref())?;
    let r = search_tau(&p.to_mid_f64(), search)?;
    let cert = p.certify(r.best.tau, &r.best.shifts_f64(), bits)?;
    Ok((rd::to_f64_up(&cert.mu_upper), r.best.tau))
}
