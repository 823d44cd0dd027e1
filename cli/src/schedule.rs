//! `shiftdp schedule gd|cgd|sgd`: the optimal shift schedule of a setting, its
//! certified μ, both solvers' values and the closed forms that apply.
//!
//! The optimal τ is searched with the exact KKT solver in `f64`, the schedule at that
//! τ is certified with directed rounding at `--bits` (≥ 64) bits, argmin's L-BFGS
//! solves the same τ independently, and the closed forms of BSA24 §4.1–4.2 are
//! evaluated as enclosures (upper end) when their hypotheses hold.
//!
//! # References
//! BSA24 Thm 3.3, Thms 4.1–4.6, 4.10; SPEC §4.
use super::setting::{AlgorithmArg, SettingArgs, parse_count, required};
use super::{Output, fmt_up, input_bits, parse_number, short};
use serde_json::{Value, json};
use shiftdp::bounds::{Bound, bsa24};
use shiftdp::decimal::f64_up;
use shiftdp::error::{Error, Result};
use shiftdp::precision::{Enclosure, Precision, Real};
use shiftdp::schedules::ScheduleProblem;
use shiftdp::schedules::crosscheck::Verdict;
use shiftdp::schedules::kkt::{KktSolution, solve_kkt};
use shiftdp::schedules::numeric::{NumericOptions, solve_numeric};
use shiftdp::schedules::settings::{Curvature, parse_schedule, per_step};
use shiftdp::schedules::tau::{TauSearch, search_tau};
use shiftdp::settings::Setting;
use std::path::PathBuf;

/// Which algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// NoisyGD, full batch (b = n).
    Gd,
    /// Cyclic NoisyCGD (batches of size b in a fixed order).
    Cgd,
    /// NoisySGD: the Gaussian (shift) part of BSA24 Thm 4.10 only.
    Sgd,
}

/// Arguments of `shiftdp schedule`.
#[derive(Debug, Clone, clap::Args)]
pub struct ScheduleArgs {
    /// gd, cgd or sgd.
    #[arg(value_enum)]
    pub algorithm: Algorithm,
    /// The run's flags, defined once for every command ([`SettingArgs`]): `--n` and
    /// `--sensitivity` are required, `--batch` for cgd/sgd (gd uses b = n); `--steps` or
    /// `--epochs` (which may be fractional for cgd: t = E·n/b must be an integer; both
    /// may be left out when a schedule file gives the horizon); `--eta` and `--noise`
    /// constant unless a schedule file overrides them; with `--strong-convexity m` and
    /// `--smoothness M`, c_k = max{|1−η_k m|, |1−η_k M|}, or `--contraction c` for every
    /// step (overrides m, M); `--diameter D` for projected iterates.
    #[command(flatten)]
    pub setting: SettingArgs,
    /// File with one step size η_k per line (overrides --eta).
    #[arg(long)]
    pub eta_schedule: Option<PathBuf>,
    /// File with one noise multiplier σ_k per line (overrides --noise).
    #[arg(long)]
    pub noise_schedule: Option<PathBuf>,
    /// cgd: batch index (0-based) holding the differing record; default: worst case
    /// over all positions.
    #[arg(long)]
    pub position: Option<usize>,
    /// Use this start time τ instead of searching.
    #[arg(long)]
    pub tau: Option<usize>,
    /// MPFR precision of the certificate (default 64).
    #[arg(long)]
    pub bits: Option<u64>,
    /// Skip the argmin solver.
    #[arg(long)]
    pub no_numeric: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the schedule (k, a_k, λ_k, z_k) to this CSV file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

/// Everything `shiftdp schedule` computed (library form of the command).
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
    /// Certified μ (upper end, decimal).
    pub mu: String,
    /// Certified μ as f64 (rounded up).
    pub mu_f64: f64,
    /// KKT optimum μ at the working precision (estimate).
    pub mu_kkt: f64,
    /// argmin's μ at the same τ, with its iteration count.
    pub mu_numeric: Option<(f64, u64)>,
    /// Active constraints z_k = 0 (k < t) of the KKT optimum.
    pub active: Vec<usize>,
    /// Closed forms: (theorem, Ok(μ upper) or Err(reason)).
    pub closed_forms: Vec<(String, std::result::Result<f64, String>)>,
    /// The schedule: (k, a_k, λ_k, z_k) for k = τ+1..t.
    pub rows: Vec<(usize, f64, f64, f64)>,
}

fn read_file(path: &PathBuf, bits: u32) -> Result<Vec<Enclosure>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Parse {
        input: path.display().to_string(),
        reason: format!("cannot read schedule file: {e}"),
    })?;
    parse_schedule(&text, bits)
}

struct Built {
    problems: Vec<(Option<usize>, ScheduleProblem<Enclosure>)>,
    t: usize,
    constant: bool,
    c_const: Option<Enclosure>,
    eta: Option<Enclosure>,
    sigma: Option<Enclosure>,
    b: u64,
    epochs_int: Option<u64>,
}

fn opt_num(flag: &str, v: &Option<String>, bits: u32) -> Result<Option<Enclosure>> {
    v.as_ref().map(|s| parse_number(flag, s, bits)).transpose()
}

/// Largest horizon: each step holds several MPFR values and a schedule entry (about a
/// kilobyte at the default precision), so 10⁷ steps already need gigabytes.
const MAX_STEPS: usize = 10_000_000;

fn build(a: &ScheduleArgs, bits: u32) -> Result<Built> {
    let f = &a.setting;
    let n = parse_count("n", &f.n)?.ok_or_else(|| Error::param("n", "missing", "give --n"))?;
    if n == 0 {
        return Err(Error::param("n", 0, "must be ≥ 1"));
    }
    let b = match a.algorithm {
        Algorithm::Gd => n,
        _ => parse_count("batch", &f.batch)?
            .ok_or_else(|| Error::param("batch", "none", "--batch is required for cgd/sgd"))?,
    };
    if b == 0 || b > n {
        return Err(Error::param("batch", b, "must satisfy 1 ≤ b ≤ n"));
    }
    let l = match a.algorithm {
        Algorithm::Cgd => shiftdp::schedules::settings::batches_per_epoch(n, b)?,
        _ => 1,
    };
    let sens = parse_number(
        "sensitivity",
        &required("sensitivity", &f.sensitivity)?,
        bits,
    )?;
    let eta_c = opt_num("eta", &f.eta, bits)?;
    let sigma_c = opt_num("noise", &f.noise, bits)?;
    let m = opt_num("strong-convexity", &f.strong_convexity, bits)?;
    let big_m = opt_num("smoothness", &f.smoothness, bits)?;
    let c = opt_num("contraction", &f.contraction, bits)?;
    let d = opt_num("diameter", &f.diameter, bits)?;
    let eta_file = a
        .eta_schedule
        .as_ref()
        .map(|p| read_file(p, bits))
        .transpose()?;
    let sigma_file = a
        .noise_schedule
        .as_ref()
        .map(|p| read_file(p, bits))
        .transpose()?;
    // horizon
    let steps_per_epoch = match a.algorithm {
        Algorithm::Gd => 1,
        Algorithm::Cgd => l,
        Algorithm::Sgd => (n / b).max(1),
    };
    let steps = parse_count("steps", &f.steps)?.map(|t| usize::try_from(t).unwrap_or(usize::MAX));
    let (t, epochs_int) = match (&steps, &f.epochs) {
        (Some(_), Some(_)) => {
            return Err(Error::param(
                "steps",
                "both",
                "give --steps or --epochs, not both",
            ));
        }
        (Some(t), None) => (
            *t,
            (*t as u64)
                .is_multiple_of(steps_per_epoch)
                .then_some(*t as u64 / steps_per_epoch),
        ),
        (None, Some(e)) => {
            let ee = parse_number("epochs", e, bits)?;
            let x = ee.mid_f64() * steps_per_epoch as f64;
            let r = x.round();
            if !(x.is_finite() && r >= 1.0 && (x - r).abs() <= 1e-9 * r.max(1.0)) {
                return Err(Error::param(
                    "epochs",
                    e,
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
                return Err(Error::param("steps", "none", "give --steps or --epochs"));
            }
        }
    };
    if t == 0 {
        return Err(Error::param("steps", 0, "must be ≥ 1"));
    }
    if t > MAX_STEPS {
        return Err(Error::param(
            "steps",
            t,
            "must be ≤ 10⁷: the certified schedule keeps MPFR values per step (gigabytes \
             beyond); a constant setting has closed forms (`shiftdp bound`)",
        ));
    }
    let per = |file: &Option<Vec<Enclosure>>,
               cst: &Option<Enclosure>,
               flag: &str|
     -> Result<Vec<Enclosure>> {
        match (file, cst) {
            (Some(v), _) => {
                if v.len() < t {
                    Err(Error::param(
                        flag,
                        v.len(),
                        &format!("schedule file has fewer than t = {t} values"),
                    ))
                } else {
                    Ok(v[..t].to_vec())
                }
            }
            (None, Some(x)) => Ok(vec![x.clone(); t]),
            (None, None) => Err(Error::param(
                flag,
                "none",
                "give a constant or a schedule file",
            )),
        }
    };
    let etas = per(&eta_file, &eta_c, "eta")?;
    let mut sigmas = per(&sigma_file, &sigma_c, "noise")?;
    let curvature = match (&c, &m, &big_m) {
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
                "give --contraction, or --smoothness (convex) with optional --strong-convexity",
            ));
        }
    };
    let constant = eta_file.is_none() && sigma_file.is_none();
    let c_const = match (&curvature, &eta_c) {
        (Curvature::Contraction(c), _) => Some(c.clone()),
        (Curvature::StronglyConvex { m, big_m }, Some(e)) if constant => Some(
            shiftdp::schedules::settings::contraction(e.clone(), m.clone(), big_m.clone())?,
        ),
        _ => None,
    };
    let mut problems = Vec::new();
    match a.algorithm {
        Algorithm::Gd => {
            let p = per_step(&etas, &sigmas, sens, n, &vec![true; t], curvature, d)?;
            problems.push((None, p));
        }
        Algorithm::Cgd => {
            let positions: Vec<usize> = match a.position {
                Some(p) if (p as u64) < l => vec![p],
                Some(p) => {
                    return Err(Error::param(
                        "position",
                        p,
                        &format!("must be < l = n/b = {l}"),
                    ));
                }
                None => (0..l as usize).collect(),
            };
            for pos in positions {
                let sensitive: Vec<bool> = (0..t).map(|i| i % l as usize == pos).collect();
                let p = per_step(
                    &etas,
                    &sigmas,
                    sens.clone(),
                    b,
                    &sensitive,
                    curvature.clone(),
                    d.clone(),
                )?;
                problems.push((Some(pos), p));
            }
        }
        Algorithm::Sgd => {
            // Gaussian part of BSA24 Thm 4.10: the shifts only absorb the initial gap
            // (s_k = 0) with half of the noise variance, ς_k = η_k σ_k/√2.
            if d.is_none() {
                return Err(Error::Hypothesis {
                    result: "BSA24 Thm 4.10".into(),
                    hypothesis: "H: constraint set of diameter D (--diameter)".into(),
                    detail: "no --diameter given".into(),
                });
            }
            let half = Enclosure::sqrt2(bits);
            sigmas = sigmas.iter().map(|x| x.clone() / half.clone()).collect();
            let zero = sens.lit(0.0);
            let p = per_step(&etas, &sigmas, zero, b, &vec![false; t], curvature, None)?;
            // z_τ = D for every τ ≥ 1 (the paper's gap); z_0 = 0 (identical starts)
            let p = p.with_fixed_gap(d.clone())?;
            problems.push((None, p));
        }
    }
    Ok(Built {
        problems,
        t,
        constant,
        c_const,
        eta: eta_c,
        sigma: sigma_c,
        b,
        epochs_int,
    })
}

/// (certified μ, record position, KKT solution, certificate, problem index).
type Candidate = (
    f64,
    Option<usize>,
    KktSolution<f64>,
    shiftdp::schedules::Certificate,
    usize,
);

fn rows_of(sol: &KktSolution<f64>) -> Vec<(usize, f64, f64, f64)> {
    (0..sol.shifts.len())
        .map(|i| (sol.tau + 1 + i, sol.shifts[i], sol.lambda[i], sol.gaps[i]))
        .collect()
}

/// Computes the optimal schedule of the setting described by `a` (the work behind
/// [`run`]).
///
/// # Errors
/// Bad flags ([`Error::Parameter`], [`Error::Parse`]), violated hypotheses
/// ([`Error::Hypothesis`]), or a failed certification ([`Error::NotCertified`]).
pub fn compute(a: &ScheduleArgs) -> Result<ScheduleReport> {
    let prec = Precision::from_bits(a.bits)?;
    let bits = input_bits(prec);
    let built = build(a, bits)?;
    let t = built.t;
    let search = match (a.tau, a.algorithm) {
        (Some(tau), _) => TauSearch::Fixed(tau),
        (None, Algorithm::Sgd) => {
            return Err(Error::param(
                "tau",
                "none",
                "schedule sgd needs --tau: τ trades the Gaussian part against the subsampled composition, which this command does not compute",
            ));
        }
        (None, _) => TauSearch::Auto { limit: 2048 },
    };
    // worst case over the positions of the differing record
    let mut best: Option<Candidate> = None;
    for (idx, (pos, p)) in built.problems.iter().enumerate() {
        let q = p.to_mid_f64();
        let r = search_tau(&q, search)?;
        let cert = p.certify(r.best.tau, &r.best.shifts_f64(), bits)?;
        let mu = cert.mu_upper_f64();
        if best.as_ref().is_none_or(|b| mu > b.0) {
            best = Some((mu, *pos, r.best, cert, idx));
        }
    }
    let (mu_f64, position, sol, cert, idx) =
        best.ok_or_else(|| Error::param("batch", built.b, "no batch position"))?;
    let p = &built.problems[idx].1;
    let tau = sol.tau;
    // KKT value at the requested precision
    let mu_kkt = if a.bits.is_some() && t - tau <= 200_000 {
        solve_kkt(p, tau)?.mu().mid_f64()
    } else {
        sol.mu2.sqrt()
    };
    let mu_numeric = if !a.no_numeric && t - tau <= 100_000 {
        solve_numeric(p, tau, NumericOptions::default())
            .ok()
            .map(|s| (s.mu(), s.iterations))
    } else {
        None
    };
    let closed_forms = closed_forms(a, &built, bits);
    let rows = rows_of(&sol);
    if let Some(path) = &a.csv {
        let mut text = String::from("k,a,lambda,z\n");
        for (k, ak, lk, zk) in &rows {
            text.push_str(&format!("{k},{ak:.17e},{lk:.17e},{zk:.17e}\n"));
        }
        std::fs::write(path, text).map_err(|e| Error::Parse {
            input: path.display().to_string(),
            reason: format!("cannot write CSV: {e}"),
        })?;
    }
    Ok(ScheduleReport {
        algorithm: a.algorithm,
        steps: t,
        bits,
        tau,
        position,
        mu: fmt_up(&cert.mu_upper, bits),
        mu_f64,
        mu_kkt,
        mu_numeric,
        active: sol.active.clone(),
        closed_forms,
        rows,
    })
}

/// The series (k, λ_k, z_k), k = τ+1..t, of the optimal schedule (for plotting).
///
/// # Errors
/// As [`compute`].
pub fn schedule_series(a: &ScheduleArgs) -> Result<Vec<(usize, f64, f64)>> {
    Ok(compute(a)?
        .rows
        .into_iter()
        .map(|(k, _, l, z)| (k, l, z))
        .collect())
}

fn closed_forms(
    a: &ScheduleArgs,
    built: &Built,
    bits: u32,
) -> Vec<(String, std::result::Result<f64, String>)> {
    let mut out = Vec::new();
    if !built.constant {
        return out;
    }
    let (Some(eta), Some(sigma)) = (&built.eta, &built.sigma) else {
        return out;
    };
    let f = &a.setting;
    let d = opt_num("diameter", &f.diameter, bits).ok().flatten();
    let c = built.c_const.clone();
    let t = built.t as u64;
    let convex = c.as_ref().is_some_and(|c| c.lower_f64() >= 1.0);
    // each closed form through its one checked entry point, on the run's Setting
    let setting = f.setting(match a.algorithm {
        Algorithm::Gd => AlgorithmArg::Gd,
        Algorithm::Cgd => AlgorithmArg::Cgd,
        Algorithm::Sgd => AlgorithmArg::Sgd,
    });
    let checked = |thm: fn(&Setting) -> Result<Bound>| -> std::result::Result<f64, String> {
        let s = setting.as_ref().map_err(|e| e.to_string())?;
        let b = thm(s).map_err(|e| e.to_string())?;
        b.mu()
            .map(Enclosure::upper_f64)
            .ok_or_else(|| "no GDP parameter".to_string())
    };
    match a.algorithm {
        Algorithm::Gd => {
            out.push(("BSA24 Thm 4.1".into(), checked(bsa24::thm_4_1)));
            if d.is_none() && c.is_some() {
                out.push(("BSA24 Thm 4.2".into(), checked(bsa24::thm_4_2)));
            }
            if d.is_some() && convex {
                out.push(("BSA24 Thm 4.3".into(), checked(bsa24::thm_4_3)));
            }
        }
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
            if let Some(d) = &d {
                let tau = a.tau.unwrap_or(0) as u64;
                let gauss = Enclosure::sqrt2(bits) * d.clone()
                    / (eta.clone() * sigma.clone() * sigma.int(t - tau).sqrt());
                out.push((
                    "BSA24 Thm 4.10 (Gaussian part √2 D/(ησ√(t−τ)))".into(),
                    Ok(gauss.upper_f64()),
                ));
            }
        }
    }
    out
}

/// Runs `shiftdp schedule`.
///
/// # Errors
/// As [`compute`].
pub fn run(a: &ScheduleArgs) -> Result<Output> {
    let r = compute(a)?;
    let alg = match r.algorithm {
        Algorithm::Gd => "gd",
        Algorithm::Cgd => "cgd",
        Algorithm::Sgd => "sgd",
    };
    let cf_json: Vec<Value> = r
        .closed_forms
        .iter()
        .map(|(name, v)| match v {
            Ok(mu) => json!({
                "theorem": name,
                // an upper end (f64 rounded up), printed rounded up
                "mu": f64_up(*mu, 17),
                "relative_difference": format!("{:e}", (mu - r.mu_kkt) / r.mu_kkt.max(f64::MIN_POSITIVE)),
                "verdict": Verdict::classify(*mu, r.mu_kkt, 1e-9).as_str(),
            }),
            Err(e) => json!({ "theorem": name, "error": e }),
        })
        .collect();
    let json = json!({
        "command": format!("schedule {alg}"),
        "steps": r.steps,
        "bits": r.bits,
        "tau": r.tau,
        "position": r.position,
        "mu": r.mu,
        "mu_kkt": format!("{:e}", r.mu_kkt),
        "mu_numeric": r.mu_numeric.map(|x| format!("{:e}", x.0)),
        "numeric_iterations": r.mu_numeric.map(|x| x.1),
        "active_constraints": r.active.len(),
        "closed_forms": cf_json,
        "note": if r.algorithm == Algorithm::Sgd {
            "Gaussian shift part only: compose with C_{b/n}(G(2√2 L/(bσ)))^{⊗(t−τ)} (BSA24 Thm 4.10)"
        } else {
            "mu is certified (upper bound, directed rounding) from the KKT schedule"
        },
        "csv": a.csv.as_ref().map(|p| p.display().to_string()),
    });
    let mut human = format!(
        "schedule {alg}: t = {}, optimal tau = {}{}\n",
        r.steps,
        r.tau,
        r.position
            .map(|p| format!(", worst record position = {p}"))
            .unwrap_or_default()
    );
    human.push_str(&format!("  mu (certified, {} bits) = {}\n", r.bits, r.mu));
    human.push_str(&format!(
        "  mu (KKT)                = {}\n",
        short(r.mu_kkt)
    ));
    match r.mu_numeric {
        Some((m, it)) => human.push_str(&format!(
            "  mu (argmin L-BFGS)      = {} ({} iterations)\n",
            short(m),
            it
        )),
        None => human.push_str("  mu (argmin L-BFGS)      = not run\n"),
    }
    human.push_str(&format!(
        "  active constraints z_k = 0: {}\n",
        r.active.len()
    ));
    for (name, v) in &r.closed_forms {
        match v {
            Ok(mu) => human.push_str(&format!(
                "  {name}: mu ≤ {} ({})\n",
                f64_up(*mu, 7),
                Verdict::classify(*mu, r.mu_kkt, 1e-9).as_str()
            )),
            Err(e) => human.push_str(&format!("  {name}: {e}\n")),
        }
    }
    if let Some(p) = &a.csv {
        human.push_str(&format!("  schedule written to {}\n", p.display()));
    }
    Ok(Output { json, human })
}
