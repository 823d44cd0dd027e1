//! Builders of schedule problems from typed parameters, for the settings of BSA24 §4
//! and for settings no paper states (per-step step sizes and noise, any cyclic order,
//! non-integer epochs, constrained strongly convex). The user-facing run description
//! is [`Setting`]; [`super::run::ScheduleSpec`] turns a run into these
//! problems.
//!
//! One parameter model (docs/conventions.md §2): per-step noise standard deviation
//! ς_k = η_k σ_k, update sensitivity s_k = η_k L / b on steps whose batch holds the
//! differing record (0 otherwise), contraction c_k = max{|1 − η_k m|, |1 − η_k M|}.
//!
//! # References
//! * BSA24 §2 (model, Lemma 2.8 for c), §4.1–4.2 (full and cyclic batches).
//! * docs/conventions.md §2, §4.
use super::problem::{ScheduleProblem, ScheduleReal};
use super::runs::{RunBuilder, RunProblem};
use crate::error::{Error, Result, Subject, batch_within, hyp};
use crate::memory;
use crate::precision::Enclosure;
use crate::settings::Setting;

fn positive<R: ScheduleReal>(name: &str, x: &R) -> Result<()> {
    if x.lower_f64() > 0.0 && x.upper_f64().is_finite() {
        Ok(())
    } else {
        Err(Error::param(
            name,
            format!("{x:?}"),
            "must be finite and > 0",
        ))
    }
}

fn nonneg<R: ScheduleReal>(name: &str, x: &R) -> Result<()> {
    if x.lower_f64() >= 0.0 && x.upper_f64().is_finite() {
        Ok(())
    } else {
        Err(Error::param(
            name,
            format!("{x:?}"),
            "must be finite and ≥ 0",
        ))
    }
}

/// Contraction of one gradient step on m-strongly convex, M-smooth losses.
///
/// # Formula
/// c = max{|1 − ηm|, |1 − ηM|} (BSA24 Lemma 2.8).
///
/// # Errors
/// [`Error::Parameter`] unless 0 ≤ m ≤ M and η > 0 (finite);
/// [`Error::Hypothesis`] (`H: 0 < η ≤ 2/M`) if c > 1, i.e. the step is expansive.
///
/// # Example
/// ```
/// use shiftdp::schedules::builders::contraction;
/// assert!((contraction(0.1_f64, 1.0, 10.0).unwrap() - 0.9).abs() < 1e-15);
/// assert!(contraction(0.3_f64, 1.0, 10.0).is_err()); // η > 2/M
/// ```
///
/// # References
/// BSA24 Lemma 2.8.
pub fn contraction<R: ScheduleReal>(eta: R, m: R, big_m: R) -> Result<R> {
    positive("eta", &eta)?;
    nonneg("strong-convexity", &m)?;
    positive("smoothness", &big_m)?;
    if m.lower_f64() > big_m.upper_f64() {
        return Err(Error::param(
            "strong-convexity",
            format!("{m:?}"),
            "must be ≤ the smoothness M",
        ));
    }
    let one = eta.lit(1.0);
    let a = one.clone() - eta.clone() * m;
    let b = one.clone() - eta.clone() * big_m;
    let c = a.clone().max_r(&(-a)).max_r(&b.clone().max_r(&(-b)));
    if c.lower_f64() > 1.0 {
        return Err(hyp(
            Subject::Other("BSA24 Lemma 2.8"),
            "H: 0 < η ≤ 2/M",
            format!("contraction c = {} > 1", c.mid_f64()),
        ));
    }
    Ok(c)
}

/// The schedule problem of NoisyGD (full batch) for `t` steps.
///
/// # Formula
/// c_k = c, s_k = ηL/n, ς_k = ησ, diameter D if constrained (BSA24 §4.1).
///
/// # Errors
/// [`Error::Parameter`] for n = 0, t = 0, η ≤ 0, σ ≤ 0, L < 0, c < 0, D ≤ 0.
///
/// # Example
/// ```
/// use shiftdp::schedules::builders::noisy_gd;
/// let p = noisy_gd(10, 2.0_f64, 0.5, 3.0, 7, 0.9, None).unwrap();
/// assert!((p.sensitivity()[0] - 0.1).abs() < 1e-15 && (p.noise()[6] - 1.5).abs() < 1e-15);
/// ```
///
/// # References
/// BSA24 eq. (2.1), §4.1.
pub fn noisy_gd<R: ScheduleReal>(
    n: u64,
    sensitivity: R,
    eta: R,
    sigma: R,
    t: usize,
    c: R,
    diameter: Option<R>,
) -> Result<ScheduleProblem<R>> {
    if n == 0 {
        return Err(Error::param("n", n, "must be ≥ 1"));
    }
    positive("eta", &eta)?;
    positive("noise", &sigma)?;
    nonneg("sensitivity", &sensitivity)?;
    let s = eta.clone() * sensitivity / eta.int(n);
    let g = eta * sigma;
    ScheduleProblem::constant(t, c, s, g, diameter)
}

/// Which batch of each epoch holds the differing record in cyclic NoisyCGD.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CyclicOrder {
    /// The same batch index (0-based, < l) in every epoch.
    Fixed(usize),
    /// Batch index per epoch (reshuffled orders); the last entry repeats if the run
    /// has more epochs.
    PerEpoch(Vec<usize>),
}

impl CyclicOrder {
    fn position(&self, epoch: usize) -> usize {
        match self {
            CyclicOrder::Fixed(p) => *p,
            CyclicOrder::PerEpoch(v) => v[epoch.min(v.len() - 1)],
        }
    }
}

/// The schedule problem of cyclic NoisyCGD for `t` steps (t need not be a multiple of
/// l: non-integer epochs).
///
/// # Formula
/// l = n/b batches per epoch; step k (1-based) is in epoch ⌊(k−1)/l⌋ at batch
/// (k−1) mod l; s_k = ηL/b if that batch holds the differing record, else 0;
/// c_k = c, ς_k = ησ (BSA24 §4.2).
///
/// # Errors
/// [`Error::Hypothesis`] (`H: b divides n`) if l = n/b is not an integer;
/// [`Error::Parameter`] for a position ≥ l, an empty order, or as [`noisy_gd`].
///
/// # Example
/// ```
/// use shiftdp::schedules::builders::{noisy_cgd, CyclicOrder};
/// let p = noisy_cgd(6, 2, 1.0_f64, 1.0, 1.0, 7, 0.9, CyclicOrder::Fixed(1), None).unwrap();
/// let sens: Vec<bool> = p.sensitivity().iter().map(|s| *s > 0.0).collect();
/// assert_eq!(sens, [false, true, false, false, true, false, false]);
/// ```
///
/// # References
/// BSA24 §4.2.
#[allow(clippy::too_many_arguments)]
pub fn noisy_cgd<R: ScheduleReal>(
    n: u64,
    b: u64,
    sensitivity: R,
    eta: R,
    sigma: R,
    t: usize,
    c: R,
    order: CyclicOrder,
    diameter: Option<R>,
) -> Result<ScheduleProblem<R>> {
    let l = batches_per_epoch(n, b)?;
    if let CyclicOrder::PerEpoch(v) = &order
        && v.is_empty()
    {
        return Err(Error::param("order", "[]", "needs one position per epoch"));
    }
    let max_pos = match &order {
        CyclicOrder::Fixed(p) => *p,
        CyclicOrder::PerEpoch(v) => v.iter().copied().max().unwrap_or(0),
    };
    if max_pos as u64 >= l {
        return Err(Error::param(
            "position",
            max_pos,
            &format!("must be < l = n/b = {l}"),
        ));
    }
    positive("eta", &eta)?;
    positive("noise", &sigma)?;
    nonneg("sensitivity", &sensitivity)?;
    ScheduleProblem::<R>::check_memory(t, &c)?;
    let l = l as usize;
    let s_on = eta.clone() * sensitivity / eta.int(b);
    let zero = eta.lit(0.0);
    let g = eta * sigma;
    let s: Vec<R> = (0..t)
        .map(|i| {
            if i % l == order.position(i / l) {
                s_on.clone()
            } else {
                zero.clone()
            }
        })
        .collect();
    ScheduleProblem::new(vec![c; t], s, vec![g; t], diameter)
}

/// [`noisy_gd`] with n, L, η and σ of the setting `s`, for `t` steps of contraction `c`.
///
/// # Errors
/// As [`noisy_gd`].
pub(crate) fn noisy_gd_of(
    s: &Setting,
    t: usize,
    c: Enclosure,
    diameter: Option<Enclosure>,
) -> Result<ScheduleProblem<Enclosure>> {
    noisy_gd(
        s.n,
        s.l.clone(),
        s.eta.clone(),
        s.sigma.clone(),
        t,
        c,
        diameter,
    )
}

/// [`noisy_cgd`] with n, b, L, η and σ of the setting `s`, for `t` steps of contraction
/// `c` with the differing record's batch at `order`.
///
/// # Errors
/// As [`noisy_cgd`].
pub(crate) fn noisy_cgd_of(
    s: &Setting,
    t: usize,
    c: Enclosure,
    order: CyclicOrder,
    diameter: Option<Enclosure>,
) -> Result<ScheduleProblem<Enclosure>> {
    noisy_cgd(
        s.n,
        s.b,
        s.l.clone(),
        s.eta.clone(),
        s.sigma.clone(),
        t,
        c,
        order,
        diameter,
    )
}

/// l = n/b, checking that b divides n.
///
/// # Errors
/// [`Error::Parameter`] for b = 0 or b > n; [`Error::Hypothesis`] if b ∤ n.
pub fn batches_per_epoch(n: u64, b: u64) -> Result<u64> {
    batch_within(n, b)?;
    if !n.is_multiple_of(b) {
        return Err(hyp(
            Subject::Other("BSA24 §4.2 (cyclic batches)"),
            "H: l = n/b is an integer",
            format!("n = {n}, b = {b}"),
        ));
    }
    Ok(n / b)
}

/// How the contraction of each step is given.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Curvature<R> {
    /// The same contraction c at every step.
    Contraction(R),
    /// m-strongly convex, M-smooth: c_k = max{|1 − η_k m|, |1 − η_k M|}.
    StronglyConvex {
        /// Strong convexity m ≥ 0.
        m: R,
        /// Smoothness M > 0.
        big_m: R,
    },
}

/// A problem with per-step step sizes η_k and noise multipliers σ_k.
///
/// # Formula
/// s_k = η_k L/b on sensitive steps (else 0), ς_k = η_k σ_k, c_k from
/// [`Curvature`]; `sensitive[k]` says whether step k+1 uses the differing record
/// (all steps for full batch).
///
/// # Errors
/// [`Error::Parameter`] for mismatched lengths or values out of domain;
/// [`Error::Hypothesis`] from [`contraction`].
///
/// # Example
/// ```
/// use shiftdp::schedules::builders::{per_step, Curvature};
/// let eta = vec![0.1_f64, 0.05];
/// let sigma = vec![2.0, 4.0];
/// let p = per_step(&eta, &sigma, 1.0, 1, &[true, true],
///                  Curvature::StronglyConvex { m: 1.0, big_m: 10.0 }, None).unwrap();
/// assert!((p.contraction()[1] - 0.95).abs() < 1e-15 && (p.noise()[1] - 0.2).abs() < 1e-15);
/// ```
///
/// # References
/// BSA24 Lemma 3.2 (per-step parameters), docs/conventions.md §4.
pub fn per_step<R: ScheduleReal>(
    eta: &[R],
    sigma: &[R],
    sensitivity: R,
    batch: u64,
    sensitive: &[bool],
    curvature: Curvature<R>,
    diameter: Option<R>,
) -> Result<ScheduleProblem<R>> {
    let t = eta.len();
    if sigma.len() != t || sensitive.len() != t {
        return Err(Error::param(
            "schedule lengths",
            format!("eta:{} noise:{} steps:{}", t, sigma.len(), sensitive.len()),
            "the η and σ schedules must have one value per step",
        ));
    }
    if batch == 0 {
        return Err(Error::param("batch", 0, "must be ≥ 1"));
    }
    nonneg("sensitivity", &sensitivity)?;
    if let Some(x) = eta.first() {
        ScheduleProblem::<R>::check_memory(t, x)?;
    }
    let mut c = Vec::with_capacity(t);
    let mut s = Vec::with_capacity(t);
    let mut g = Vec::with_capacity(t);
    for k in 0..t {
        let (ck, sk, gk) = step_values(
            &eta[k],
            &sigma[k],
            &sensitivity,
            batch,
            sensitive[k],
            &curvature,
            k + 1,
        )?;
        c.push(ck);
        s.push(sk);
        g.push(gk);
    }
    ScheduleProblem::new(c, s, g, diameter)
}

/// (c_k, s_k, ς_k) of step `k` (1-based, for messages) from η_k, σ_k: the formulas of
/// [`per_step`].
fn step_values<R: ScheduleReal>(
    eta: &R,
    sigma: &R,
    sensitivity: &R,
    batch: u64,
    sensitive: bool,
    curvature: &Curvature<R>,
    k: usize,
) -> Result<(R, R, R)> {
    if !(eta.lower_f64() > 0.0 && eta.upper_f64().is_finite()) {
        positive(&format!("eta[{k}]"), eta)?;
    }
    if !(sigma.lower_f64() > 0.0 && sigma.upper_f64().is_finite()) {
        positive(&format!("noise[{k}]"), sigma)?;
    }
    let c = match curvature {
        Curvature::Contraction(c) => c.clone(),
        Curvature::StronglyConvex { m, big_m } => {
            contraction(eta.clone(), m.clone(), big_m.clone())?
        }
    };
    let s = if sensitive {
        eta.clone() * sensitivity.clone() / eta.int(batch)
    } else {
        eta.lit(0.0)
    };
    Ok((c, s, eta.clone() * sigma.clone()))
}

/// Which steps use the differing record (s_k > 0), as a pattern rather than a vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SensitiveSteps {
    /// Every step (full batch).
    All,
    /// No step (the Gaussian part of NoisySGD, BSA24 Thm 4.10).
    Never,
    /// Step index i (0-based) iff i mod `period` = `position` (cyclic batches).
    Cyclic {
        /// Batches per epoch l ≥ 1.
        period: usize,
        /// Batch holding the record, < l.
        position: usize,
    },
}

impl SensitiveSteps {
    /// Whether step index `i` (0-based) uses the record.
    pub fn at(&self, i: usize) -> bool {
        match *self {
            SensitiveSteps::All => true,
            SensitiveSteps::Never => false,
            SensitiveSteps::Cyclic { period, position } => i % period == position,
        }
    }

    /// The first index after `i` whose answer differs from `at(i)` (`usize::MAX`: none).
    fn next_change(&self, i: usize) -> usize {
        match *self {
            SensitiveSteps::Cyclic { period, position } if period > 1 => {
                let r = i % period;
                if r == position {
                    i + 1
                } else {
                    i + (position + period - r) % period
                }
            }
            _ => usize::MAX,
        }
    }
}

/// [`per_step`] kept as runs: η_k and σ_k given as runs `(length, value)` (a constant is
/// one run), the sensitive steps as a pattern. The values are the same numbers as
/// [`per_step`]'s (the same formulas, evaluated once per distinct combination); O(runs)
/// memory — about 2t/l runs for a cyclic pattern of period l, so a very long run with
/// few batches per epoch (t = 10⁹, l = 2) is refused by the memory limit.
///
/// # Formula
/// s_k = η_k L/b on sensitive steps (else 0), ς_k = η_k σ_k, c_k from [`Curvature`].
///
/// # Errors
/// As [`per_step`]; [`Error::Parameter`] if the η and σ runs cover different horizons
/// or a cyclic pattern has period 0 or position ≥ period.
///
/// # Example
/// ```
/// use shiftdp::schedules::builders::{per_step_runs, Curvature, SensitiveSteps};
/// // 10⁹ steps of cyclic batches, l = 10⁴, record in batch 1: two values, 2·10⁵ + 1 runs
/// let p = per_step_runs(&[(1_000_000_000, 0.5_f64)], &[(1_000_000_000, 2.0)], 1.0, 10,
///     SensitiveSteps::Cyclic { period: 10_000, position: 1 }, Curvature::Contraction(0.9),
///     None)?;
/// assert_eq!((p.horizon(), p.run_count()), (1_000_000_000, 200_001));
/// # Ok::<(), shiftdp::Error>(())
/// ```
pub fn per_step_runs<R: ScheduleReal>(
    eta: &[(usize, R)],
    sigma: &[(usize, R)],
    sensitivity: R,
    batch: u64,
    sensitive: SensitiveSteps,
    curvature: Curvature<R>,
    diameter: Option<R>,
) -> Result<RunProblem<R>> {
    let total = |v: &[(usize, R)]| v.iter().try_fold(0usize, |a, x| a.checked_add(x.0));
    let t = total(eta).unwrap_or(usize::MAX);
    if total(sigma) != Some(t) {
        return Err(Error::param(
            "schedule lengths",
            format!("eta:{t} noise:{:?}", total(sigma)),
            "the η and σ schedules must have one value per step",
        ));
    }
    if batch == 0 {
        return Err(Error::param("batch", 0, "must be ≥ 1"));
    }
    if let SensitiveSteps::Cyclic { period, position } = sensitive
        && position >= period
    {
        return Err(Error::param(
            "position",
            position,
            &format!("must be < l = {period}"),
        ));
    }
    nonneg("sensitivity", &sensitivity)?;
    let mut b = RunBuilder::new();
    let (mut ei, mut si) = (0, 0);
    let (mut eleft, mut sleft) = (0, 0);
    // the values of the current (η run, σ run) pair, per sensitivity
    let mut cache: [Option<u32>; 2] = [None, None];
    let mut i = 0;
    while i < t {
        while eleft == 0 {
            eleft = eta[ei].0;
            ei += 1;
            cache = [None, None];
        }
        while sleft == 0 {
            sleft = sigma[si].0;
            si += 1;
            cache = [None, None];
        }
        let on = sensitive.at(i);
        let n = eleft.min(sleft).min(sensitive.next_change(i) - i);
        let v = match cache[on as usize] {
            Some(v) => v,
            None => {
                let (c, s, g) = step_values(
                    &eta[ei - 1].1,
                    &sigma[si - 1].1,
                    &sensitivity,
                    batch,
                    on,
                    &curvature,
                    i + 1,
                )?;
                let v = b.value(c, s, g)?;
                cache[on as usize] = Some(v);
                v
            }
        };
        b.push(n, v)?;
        i += n;
        eleft -= n;
        sleft -= n;
    }
    b.finish(diameter)
}

/// Consecutive identical values merged into runs `(length, value)` (a per-step schedule
/// as the input of [`per_step_runs`]).
pub fn runs_of<R: ScheduleReal>(v: &[R]) -> Vec<(usize, R)> {
    let mut out: Vec<(usize, R)> = Vec::new();
    for x in v {
        match out.last_mut() {
            Some((n, y)) if y.identical(x) => *n += 1,
            _ => out.push((1, x.clone())),
        }
    }
    out
}

/// Per-step values from a formula k ↦ f(k), k = 1, …, t.
///
/// # Errors
/// [`Error::Parameter`] if a value is not finite.
///
/// # Example
/// ```
/// use shiftdp::schedules::builders::from_formula;
/// let eta = from_formula(3, |k| 0.1 / k as f64).unwrap();
/// assert!((eta[2] - 0.1 / 3.0).abs() < 1e-15);
/// ```
pub fn from_formula(t: usize, f: impl Fn(usize) -> f64) -> Result<Vec<f64>> {
    memory::check("a per-step formula's values", memory::bytes_of(t as u64, 8))?;
    (1..=t)
        .map(|k| {
            let x = f(k);
            if x.is_finite() {
                Ok(x)
            } else {
                Err(Error::param(&format!("formula({k})"), x, "must be finite"))
            }
        })
        .collect()
}

/// Parses a per-step schedule: one number per line (the last comma/space separated
/// field, so `k,value` works), `#` comments and blank lines ignored.
///
/// # Errors
/// [`Error::Parse`] naming the line if a value is not a finite decimal number.
///
/// # Example
/// ```
/// use shiftdp::schedules::builders::parse_schedule;
/// let v = parse_schedule("# eta\n1,0.5\n2,0.25\n", 64).unwrap();
/// assert_eq!(v.len(), 2);
/// assert!(v[1].lower_f64() <= 0.25 && 0.25 <= v[1].upper_f64());
/// ```
pub fn parse_schedule(text: &str, bits: u32) -> Result<Vec<Enclosure>> {
    // one enclosure per line at most
    let lines = text.lines().count() as u64;
    memory::check(
        "the values of a schedule file",
        memory::bytes_of(lines, Enclosure::from_u64(bits.max(2), 0).bytes()),
    )?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let field = line
            .split(|ch: char| ch == ',' || ch.is_whitespace())
            .rfind(|f| !f.is_empty())
            .unwrap_or(line);
        out.push(Enclosure::parse(bits, field).map_err(|_| Error::Parse {
            input: field.to_string(),
            reason: format!("line {}: expected a finite decimal number", i + 1),
        })?);
    }
    Ok(out)
}
