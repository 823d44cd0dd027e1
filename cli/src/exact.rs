//! `shiftdp exact gd|cgd|sgd|lmc`: the true privacy loss of a concrete instance.
//!
//! * `gd`, `lmc` (full batch; Langevin is NoisyGD with `b = n`) and `cgd` (cyclic
//!   batches) on quadratic or linear losses without constraint: the Gaussian instance,
//!   exact μ (certified enclosure on the scalar path; f64 matrix path for `--dim > 1`
//!   with Hessian eigenvalues spread from `--strong-convexity` to `--smoothness`).
//! * `sgd` (stochastic batches, `p = b/n`): the 1-D mixture instance, both replace-one
//!   pair kinds and both orders, with a stated error.
//! * `--diameter D` (any method): the clamped walk on `[−D/2, D/2]` (grid, estimated
//!   error), e.g. the AT22 Thm 4.1 construction with `sgd --loss linear`.
//!
//! Curvature of the quadratic: `--contraction c` gives `h = (1 − c)/η` (so that
//! `c = |1 − ηh|`); otherwise `--strong-convexity m` gives `h = m`.
use super::setting::{SettingArgs, parse_count, required, setting_json};
use super::{Output, fmt_down, fmt_up, input_bits, parse_number};
use nalgebra::{DMatrix, DVector};
use serde_json::{Value, json};
use shiftdp::error::{Error, Result, batch_within};
use shiftdp::exact::clamped::{ClampStep, ClampedWalk};
use shiftdp::exact::{
    ClampedInstance, Estimate, GaussianInstance, Instance, MixtureInstance, Order, PairKind,
    Schedule,
};
use shiftdp::precision::{Enclosure, Precision, Real};
use shiftdp::settings::{Algorithm as RunAlgorithm, Setting as RunSetting};
use shiftdp::tradeoff::Gaussian;

/// Which algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// Full-batch NoisyGD.
    Gd,
    /// Cyclic-batch NoisyCGD.
    Cgd,
    /// Stochastic-batch NoisySGD (inclusion probability b/n).
    Sgd,
    /// Langevin Monte Carlo (= full-batch NoisyGD in the BSA24 parametrization).
    Lmc,
}

/// Loss family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Loss {
    /// `f_i(x) = ½ xᵀHx − g_iᵀx`.
    Quadratic,
    /// `f_i(x) = −g_iᵀx` (H = 0).
    Linear,
}

/// Arguments of `shiftdp exact`.
#[derive(Debug, Clone, clap::Args)]
pub struct ExactArgs {
    /// Algorithm: gd, cgd, sgd or lmc.
    #[arg(value_enum)]
    pub method: Method,
    /// The run's flags, defined once for every command ([`SettingArgs`]): here `--n`
    /// defaults to 1, `--batch` to n; `--eta`, `--noise`, `--sensitivity` and `--steps` or
    /// `--epochs` are required; `--contraction c` sets the curvature `h = (1 − c)/η`,
    /// else `--strong-convexity m` sets `h = m`; `--smoothness M` is the largest Hessian
    /// eigenvalue for `--dim > 1` (default h); `--diameter D` clamps to `[−D/2, D/2]`.
    #[command(flatten)]
    pub setting: SettingArgs,
    /// Loss family.
    #[arg(long, value_enum, default_value_t = Loss::Quadratic)]
    pub loss: Loss,
    /// cgd: 0-based index K < n/b of the batch holding the differing record in every
    /// epoch (default: all positions, the worst reported).
    #[arg(long)]
    pub position: Option<u64>,
    /// ε at which to report δ(ε) (default 1).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon: Option<String>,
    /// δ at which to report ε(δ) (default 1e-5).
    #[arg(long, allow_hyphen_values = true)]
    pub delta: Option<String>,
    /// Rényi order λ > 1 (default 2).
    #[arg(long, allow_hyphen_values = true)]
    pub order: Option<String>,
    /// Dimension d (Gaussian instances only).
    #[arg(long, default_value_t = 1)]
    pub dim: usize,
    /// MPFR precision in bits for the Gaussian scalar path.
    #[arg(long)]
    pub bits: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

struct Setting {
    /// `--eta`, `--noise`, `--sensitivity` as typed (echoed in the JSON).
    typed: [String; 3],
    n: u64,
    b: u64,
    t: usize,
    eta: Enclosure,
    sigma: Enclosure,
    l: Enclosure,
    h: Enclosure,
    h_max: Enclosure,
}

fn positive(name: &str, e: &Enclosure, allow_zero: bool) -> Result<()> {
    let lo = e.lower_f64();
    if !(lo > 0.0 || allow_zero && lo >= 0.0) {
        return Err(Error::param(
            name,
            e.mid_f64(),
            if allow_zero {
                "must be ≥ 0"
            } else {
                "must be > 0"
            },
        ));
    }
    Ok(())
}

fn setting(a: &ExactArgs, ib: u32) -> Result<Setting> {
    let f = &a.setting;
    let n = parse_count("n", &f.n)?.unwrap_or(1);
    if n == 0 {
        return Err(Error::param("n", 0, "must be ≥ 1"));
    }
    let b = parse_count("batch", &f.batch)?.unwrap_or(n);
    batch_within(n, b)?;
    if matches!(a.method, Method::Gd | Method::Lmc) && b != n {
        return Err(Error::param("batch", b, "gd/lmc use full batches (b = n)"));
    }
    let per_epoch = match a.method {
        Method::Cgd => {
            if !n.is_multiple_of(b) {
                return Err(Error::param("batch", b, "cgd needs b dividing n"));
            }
            (n / b) as usize
        }
        Method::Sgd => (n / b).max(1) as usize,
        _ => 1,
    };
    let steps = parse_count("steps", &f.steps)?;
    let epochs = parse_count("epochs", &f.epochs)?;
    let t = match (steps, epochs) {
        (Some(_), Some(_)) => {
            return Err(Error::param(
                "steps",
                "both",
                "give --steps or --epochs, not both",
            ));
        }
        (Some(t), None) => usize::try_from(t).unwrap_or(usize::MAX),
        (None, Some(e)) => usize::try_from(e)
            .ok()
            .and_then(|e| per_epoch.checked_mul(e))
            .unwrap_or(usize::MAX),
        (None, None) => return Err(Error::param("steps", "none", "give --steps or --epochs")),
    };
    if t == 0 || t > 10_000_000 {
        return Err(Error::param("steps", t, "must be in 1..=10⁷"));
    }
    if a.method == Method::Cgd && t % per_epoch != 0 {
        return Err(Error::param(
            "steps",
            t,
            "cgd needs a whole number of epochs (t = E·n/b)",
        ));
    }
    let typed = [
        required("eta", &f.eta)?,
        required("noise", &f.noise)?,
        required("sensitivity", &f.sensitivity)?,
    ];
    let eta = parse_number("eta", &typed[0], ib)?;
    let sigma = parse_number("noise", &typed[1], ib)?;
    let l = parse_number("sensitivity", &typed[2], ib)?;
    positive("eta", &eta, false)?;
    positive("noise", &sigma, false)?;
    positive("sensitivity", &l, true)?;
    let zero = Enclosure::from_u64(ib, 0);
    let (h, h_max) = match a.loss {
        Loss::Linear => (zero.clone(), zero),
        Loss::Quadratic => {
            let h = if let Some(c) = &f.contraction {
                let c = parse_number("contraction", c, ib)?;
                if !(c.lower_f64() >= 0.0 && c.upper_f64() <= 1.0) {
                    return Err(Error::param(
                        "contraction",
                        c.mid_f64(),
                        "must be in [0, 1]",
                    ));
                }
                (Enclosure::from_u64(ib, 1) - c) / eta.clone()
            } else if let Some(m) = &f.strong_convexity {
                let m = parse_number("strong-convexity", m, ib)?;
                positive("strong-convexity", &m, true)?;
                m
            } else {
                return Err(Error::param(
                    "loss",
                    "quadratic",
                    "needs --contraction or --strong-convexity (or use --loss linear)",
                ));
            };
            let hm = match &f.smoothness {
                Some(s) => {
                    let s = parse_number("smoothness", s, ib)?;
                    if s.upper_f64() < h.lower_f64() {
                        return Err(Error::param(
                            "smoothness",
                            s.mid_f64(),
                            "must be ≥ the curvature m",
                        ));
                    }
                    s
                }
                None => h.clone(),
            };
            (h, hm)
        }
    };
    Ok(Setting {
        typed,
        n,
        b,
        t,
        eta,
        sigma,
        l,
        h,
        h_max,
    })
}

/// An exact instance's value with its stated error: the schema's Estimate (kind
/// `proved_error` when the error is a proved bound, else `estimate`).
fn est_json(e: &Estimate) -> Value {
    super::estimate(
        e.value,
        Some(e.error),
        if e.certified {
            super::EstimateKind::ProvedError
        } else {
            super::EstimateKind::Estimate
        },
    )
}

/// The query values as typed (ε for δ(ε), δ for ε(δ), the Rényi order).
fn query_json(q: &Queries) -> Value {
    json!({ "epsilon": q.eps_txt, "delta": q.delta_txt, "order": q.order_txt })
}

/// The run's setting as the library reads it (null when the library's [`RunSetting`]
/// does not accept these flags; `--n` defaults to 1 as here).
fn run_setting(a: &ExactArgs) -> Value {
    let mut raw = a.setting.raw();
    if raw.n.is_none() {
        raw.n = Some("1".into());
    }
    let alg = match a.method {
        Method::Gd => RunAlgorithm::Gd,
        Method::Cgd => RunAlgorithm::Cgd,
        Method::Sgd => RunAlgorithm::Sgd,
        Method::Lmc => RunAlgorithm::Lmc,
    };
    RunSetting::new(alg, &raw)
        .ok()
        .map(|s| setting_json(&s))
        .unwrap_or(Value::Null)
}

struct Queries {
    eps: f64,
    eps_txt: String,
    delta: f64,
    delta_txt: String,
    order: f64,
    order_txt: String,
}

fn queries(a: &ExactArgs) -> Result<Queries> {
    let eps_txt = a.epsilon.clone().unwrap_or_else(|| "1".into());
    let delta_txt = a.delta.clone().unwrap_or_else(|| "1e-5".into());
    let order_txt = a.order.clone().unwrap_or_else(|| "2".into());
    let eps = parse_number("epsilon", &eps_txt, 64)?.mid_f64();
    let delta = parse_number("delta", &delta_txt, 64)?.mid_f64();
    let order = parse_number("order", &order_txt, 64)?.mid_f64();
    if !(delta > 0.0 && delta < 1.0) {
        return Err(Error::param("delta", delta, "must satisfy 0 < δ < 1"));
    }
    if order <= 1.0 {
        return Err(Error::param("order", order, "Rényi order must be > 1"));
    }
    Ok(Queries {
        eps,
        eps_txt,
        delta,
        delta_txt,
        order,
        order_txt,
    })
}

/// Runs `shiftdp exact`.
///
/// # Errors
/// Invalid or inconsistent flags ([`Error::Parameter`], [`Error::Parse`]), or a value
/// that cannot be certified.
pub fn run(a: &ExactArgs) -> Result<Output> {
    let prec = Precision::from_bits(a.bits)?;
    let ib = input_bits(prec).max(64);
    let s = setting(a, ib)?;
    let q = queries(a)?;
    if a.dim == 0 {
        return Err(Error::param("dim", 0, "must be ≥ 1"));
    }
    super::with_spinner("computing the exact instance", || {
        if a.setting.diameter.is_some() {
            run_clamped(a, &s, &q, ib)
        } else {
            match a.method {
                Method::Sgd => run_mixture(a, &s, &q),
                _ => run_gaussian(a, &s, &q, prec, ib),
            }
        }
    })
}

fn method_name(m: Method) -> &'static str {
    match m {
        Method::Gd => "gd",
        Method::Cgd => "cgd",
        Method::Sgd => "sgd",
        Method::Lmc => "lmc",
    }
}

fn schedule(a: &ExactArgs, s: &Setting, position: u64) -> Result<Schedule<Enclosure>> {
    match a.method {
        Method::Cgd => {
            let l = s.n / s.b;
            Schedule::cyclic(
                s.n,
                s.b,
                s.t as u64 / l,
                position,
                s.eta.clone(),
                s.sigma.clone(),
            )
        }
        _ => Schedule::full(s.n, s.t, s.eta.clone(), s.sigma.clone()),
    }
}

fn run_gaussian(
    a: &ExactArgs,
    s: &Setting,
    q: &Queries,
    prec: Precision,
    ib: u32,
) -> Result<Output> {
    let out_bits = match prec {
        Precision::F64 => 53,
        Precision::Bits(b) => b,
    };
    let positions: Vec<u64> = match (a.method, a.position) {
        (Method::Cgd, Some(p)) => vec![p],
        (Method::Cgd, None) => (0..s.n / s.b).collect(),
        (_, Some(_)) => {
            return Err(Error::param(
                "position",
                "given",
                "--position applies to cgd only",
            ));
        }
        _ => vec![0],
    };
    // scalar path (certified) for d = 1 or isotropic; matrix path otherwise
    let isotropic = a.dim == 1 || (s.h.lo() == s.h_max.lo() && s.h.hi() == s.h_max.hi());
    let mut best: Option<(u64, Enclosure, Option<DVector<f64>>)> = None;
    for &pos in &positions {
        let sched = schedule(a, s, pos)?;
        let (mu, dir) = if isotropic {
            (
                shiftdp::exact::gaussian::scalar_mu(&sched, &s.h, &s.l),
                None,
            )
        } else {
            let steps: Vec<_> = sched
                .steps()
                .iter()
                .map(|st| shiftdp::exact::Step {
                    eta: st.eta.mid_f64(),
                    sigma: st.sigma.mid_f64(),
                    batch: st.batch,
                    included: st.included,
                })
                .collect();
            let sf = Schedule::from_steps(steps)?;
            let d = a.dim;
            shiftdp::exact::gaussian::check_matrix_memory(d)?;
            let (h0, h1) = (s.h.mid_f64(), s.h_max.mid_f64());
            let diag: Vec<f64> = (0..d)
                .map(|i| h0 + (h1 - h0) * i as f64 / (d - 1).max(1) as f64)
                .collect();
            let hess = DMatrix::from_diagonal(&DVector::from_vec(diag));
            let inst = GaussianInstance::worst(&sf, &hess, s.l.mid_f64())?;
            let (lo, hi) = inst.mu_bounds();
            let e = Enclosure::from_f64(ib, lo).hull(&Enclosure::from_f64(ib, hi));
            (e, inst.direction().cloned())
        };
        if !mu.is_finite() {
            return Err(Error::NotCertified {
                what: "μ of the Gaussian instance".into(),
                reason: "enclosure is not finite (raise --bits)".into(),
            });
        }
        let better = match &best {
            None => true,
            Some((_, m, _)) => mu.upper_f64() > m.upper_f64(),
        };
        if better {
            best = Some((pos, mu, dir));
        }
    }
    let (pos, mu, dir) =
        best.ok_or_else(|| Error::param("position", "none", "no position to evaluate"))?;
    let eps_e = parse_number("epsilon", &q.eps_txt, ib)?;
    let del_e = parse_number("delta", &q.delta_txt, ib)?;
    let ord_e = parse_number("order", &q.order_txt, ib)?;
    let d = Gaussian::delta(&mu, &eps_e, prec)?;
    let e = Gaussian::epsilon(&mu, &del_e, prec)?;
    let renyi = ord_e * mu.square() / mu.int(2);
    let mu_up = fmt_up(mu.hi(), out_bits);
    let mu_lo = fmt_down(mu.lo(), out_bits);
    let json = json!({
        "method": method_name(a.method),
        "instance": if isotropic { "Gaussian (scalar path, certified enclosure)" } else { "Gaussian (matrix path, f64)" },
        "tradeoff": format!("G({mu_up})"),
        "setting": run_setting(a),
        "query": query_json(q),
        "instance_parameters": {
            "n": s.n, "batch": s.b, "steps": s.t, "eta": s.typed[0], "noise": s.typed[1],
            "sensitivity": s.typed[2], "curvature": fmt_up(s.h.hi(), 53),
            "curvature_max": fmt_up(s.h_max.hi(), 53),
            "dim": a.dim, "position": if a.method == Method::Cgd { Some(pos) } else { None },
        },
        "mu": super::interval(Some(mu_lo.clone()), Some(mu_up.clone()), super::SafeEnd::Upper),
        "worst_direction": dir.as_ref().map(|v| v.iter().map(|x| format!("{x:e}")).collect::<Vec<_>>()),
        "delta": super::interval(Some(fmt_down(d.lower(), out_bits)), Some(fmt_up(d.upper(), out_bits)), super::SafeEnd::Upper),
        "epsilon": super::interval(Some(fmt_down(e.lower(), out_bits)), Some(fmt_up(e.upper(), out_bits)), super::SafeEnd::Upper),
        "renyi": super::interval_upper(&renyi, out_bits),
        "note": "exact instance (ground truth): δ at query.epsilon, ε at query.delta, Rényi at query.order; both ends certified; any valid bound must be ≥ these values",
    });
    let human = format!(
        "exact {} instance ({}): T(X_t, X'_t) = G(μ)\n  μ ∈ [{}, {}]{}\n  δ({}) ∈ [{}, {}]\n  ε({}) ∈ [{}, {}]\n  Rényi D_{} ∈ [{}, {}]\n",
        method_name(a.method),
        if isotropic {
            "scalar path"
        } else {
            "matrix path"
        },
        mu_lo,
        mu_up,
        if a.method == Method::Cgd {
            format!("  (record in batch {pos})")
        } else {
            String::new()
        },
        q.eps_txt,
        fmt_down(d.lower(), out_bits),
        fmt_up(d.upper(), out_bits),
        q.delta_txt,
        fmt_down(e.lower(), out_bits),
        fmt_up(e.upper(), out_bits),
        q.order_txt,
        fmt_down(renyi.lo(), out_bits),
        fmt_up(renyi.hi(), out_bits),
    );
    Ok(Output::new("exact", json, human))
}

fn summary(inst: &dyn Instance, q: &Queries) -> Result<Value> {
    let mut by_order = serde_json::Map::new();
    for (name, o) in [("forward", Order::Forward), ("reverse", Order::Reverse)] {
        let d = inst.delta(q.eps, o)?;
        let r = inst.renyi(q.order, o)?;
        let tr: Vec<Value> = [0.01, 0.05, 0.1, 0.25, 0.5]
            .iter()
            .map(|&al| {
                inst.tradeoff(al, o)
                    .map(|e| json!({"alpha": super::dec(al), "beta": est_json(&e)}))
            })
            .collect::<Result<_>>()?;
        by_order.insert(
            name.into(),
            json!({ "delta": est_json(&d), "renyi": est_json(&r), "tradeoff": tr }),
        );
    }
    let e = inst.epsilon_sym(q.delta)?;
    let d = inst.delta_sym(q.eps)?;
    let r = inst.renyi_sym(q.order)?;
    Ok(json!({
        "instance": inst.describe(),
        "delta": { "max_over_orders": est_json(&d) },
        "epsilon": { "max_over_orders": est_json(&e) },
        "renyi": { "max_over_orders": est_json(&r) },
        "orders": Value::Object(by_order),
    }))
}

fn human_summary(kind: &str, v: &Value, q: &Queries) -> String {
    let g = |path: &[&str]| {
        let mut x = v;
        for p in path {
            x = &x[*p];
        }
        x.as_str().unwrap_or("?").to_string()
    };
    format!(
        "  {kind}: {}\n    δ({}) = {} ± {}\n    ε({}) = {} ± {}\n    Rényi D_{} = {} ± {}\n",
        g(&["instance"]),
        q.eps_txt,
        g(&["delta", "max_over_orders", "estimate"]),
        g(&["delta", "max_over_orders", "error"]),
        q.delta_txt,
        g(&["epsilon", "max_over_orders", "estimate"]),
        g(&["epsilon", "max_over_orders", "error"]),
        q.order_txt,
        g(&["renyi", "max_over_orders", "estimate"]),
        g(&["renyi", "max_over_orders", "error"]),
    )
}

fn run_mixture(a: &ExactArgs, s: &Setting, q: &Queries) -> Result<Output> {
    if a.dim != 1 {
        return Err(Error::param(
            "dim",
            a.dim,
            "mixture (sgd) instances are one-dimensional",
        ));
    }
    let mut kinds = serde_json::Map::new();
    let mut human = format!(
        "exact sgd mixture instance: n = {}, b = {}, t = {} (p = b/n)\n",
        s.n, s.b, s.t
    );
    for (name, kind) in [
        ("one_sided", PairKind::OneSided),
        ("opposite", PairKind::Opposite),
    ] {
        let inst = MixtureInstance::sgd(
            s.n,
            s.b,
            s.t,
            s.eta.mid_f64(),
            s.sigma.mid_f64(),
            s.l.mid_f64(),
            s.h.mid_f64(),
            kind,
            1e-10,
        )?;
        let v = summary(&inst, q)?;
        human.push_str(&human_summary(name, &v, q));
        kinds.insert(name.into(), v);
    }
    let json = json!({
        "method": "sgd",
        "setting": run_setting(a),
        "query": query_json(q),
        "instance_parameters": { "n": s.n, "batch": s.b, "steps": s.t, "eta": s.typed[0], "noise": s.typed[1],
            "sensitivity": s.typed[2], "curvature": format!("{:e}", s.h.mid_f64()) },
        "pairs": Value::Object(kinds),
        "note": "exact instance (ground truth) with stated error: any valid bound must be ≥ δ, ε, Rényi here",
    });
    Ok(Output::new("exact", json, human))
}

fn run_clamped(a: &ExactArgs, s: &Setting, q: &Queries, ib: u32) -> Result<Output> {
    let d = parse_number("diameter", a.setting.diameter.as_deref().unwrap_or("0"), ib)?;
    positive("diameter", &d, false)?;
    if a.dim != 1 {
        return Err(Error::param(
            "dim",
            a.dim,
            "clamped instances are one-dimensional",
        ));
    }
    let (eta, sigma, l, h) = (
        s.eta.mid_f64(),
        s.sigma.mid_f64(),
        s.l.mid_f64(),
        s.h.mid_f64(),
    );
    let c = 1.0 - eta * h;
    if !(0.0..=1.0).contains(&c) {
        return Err(Error::param(
            "contraction",
            c,
            "clamped instances need 0 ≤ 1 − ηh ≤ 1",
        ));
    }
    let l_per = (s.n / s.b).max(1);
    let pos = a.position.unwrap_or(l_per - 1);
    if a.method == Method::Cgd && pos >= l_per {
        return Err(Error::param("position", pos, "must be < n/b"));
    }
    let steps: Vec<ClampStep> = (0..s.t)
        .map(|k| ClampStep {
            contraction: c,
            noise_sd: eta * sigma,
            drift: eta * l / s.b as f64,
            p: match a.method {
                Method::Sgd => s.b as f64 / s.n as f64,
                Method::Cgd => {
                    if k as u64 % l_per == pos {
                        1.0
                    } else {
                        0.0
                    }
                }
                _ => 1.0,
            },
        })
        .collect();
    let dm = d.mid_f64();
    let walk = ClampedWalk {
        lo: -0.5 * dm,
        hi: 0.5 * dm,
        start: 0.0,
        center: 0.0,
        steps,
    };
    let nodes = ((8.0 * dm / (eta * sigma)).ceil() as usize).clamp(64, 1000);
    let mut kinds = serde_json::Map::new();
    let mut human = format!(
        "exact clamped instance on [−D/2, D/2], D = {}: {} steps, {} grid intervals\n",
        a.setting.diameter.as_deref().unwrap_or("?"),
        s.t,
        nodes
    );
    for (name, kind) in [
        ("one_sided", PairKind::OneSided),
        ("opposite", PairKind::Opposite),
    ] {
        let inst = ClampedInstance::new(&walk, kind, nodes)?;
        let v = summary(&inst, q)?;
        human.push_str(&human_summary(name, &v, q));
        kinds.insert(name.into(), v);
    }
    let json = json!({
        "method": method_name(a.method),
        "instance": "clamped walk (grid; error is an estimate from grid refinement)",
        "setting": run_setting(a),
        "query": query_json(q),
        "instance_parameters": { "n": s.n, "batch": s.b, "steps": s.t, "eta": s.typed[0], "noise": s.typed[1],
            "sensitivity": s.typed[2], "diameter": a.setting.diameter, "contraction": format!("{c:e}") },
        "pairs": Value::Object(kinds),
    });
    Ok(Output::new("exact", json, human))
}
