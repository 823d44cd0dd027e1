//! `shiftdp compare gd|cgd|sgd|lmc`: every applicable bound of the four papers (BSA24,
//! CYS21, AT22, YS22) and the composition baselines for one run, in one parameter model.
//!
//! Each row is either an f-DP bound of BSA24 (reused from [`bounds_for`]) converted
//! exactly to (ε, δ), or a Rényi-DP curve converted with the best of the four RDP →
//! (ε, δ) conversions of SPEC §3 ([`best_conversion`]). Papers written in the
//! θ ← θ − ηg + √(2η)σ′N(0, I) convention (CYS21, YS22) are translated explicitly:
//! σ′ = σ√(η/2), S_g = L, λ = m, β = M; each such row says so in its notes. The best
//! valid bound (smallest certified ε among the rows about the t-step run in the
//! toolkit's replace-one adjacency) is marked.
//!
//! # Rounding
//! Every ε is a certified upper bound (upper end of an enclosure). Rényi curves that
//! are not linear in α are tabulated at a fixed grid of orders, each value the upper
//! end of a certified enclosure; between grid orders the next larger order is used
//! (D_α is non-decreasing in α). Translations to the f64 parameter structs of CYS21 /
//! YS22 / AT22 round S_g (= L) up and σ′ down (every bound increases in S_g/σ′).
//!
//! # References
//! * J. Bok, W. Su, J. Altschuler, *Shifted interpolation for differential privacy* (2024).
//! * R. Chourasia, J. Ye, R. Shokri, *Differential privacy dynamics of Langevin diffusion
//!   and noisy gradient descent*, NeurIPS 2021.
//! * J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent: more
//!   iterations without more privacy loss*, NeurIPS 2022.
//! * J. Ye, R. Shokri, *Differentially private learning needs hidden state (or much
//!   faster convergence)*, NeurIPS 2022.
use super::setting::RunArgs;
use super::{Output, fmt_up, parse_number};
use crate::bounds::bounds_for;
use crate::error::{Error, Result};
use crate::precision::{Enclosure, Precision};
use crate::renyi::cys21::Cys21Params;
use crate::renyi::sampled_gaussian::SampledGaussian;
use crate::renyi::table1::cyclic_rdp_rho;
use crate::renyi::ys22::Ys22Params;
use crate::renyi::{RenyiCurve, best_conversion};
use crate::settings::{Algorithm, Setting};
use serde_json::{Value, json};

/// Arguments of `shiftdp compare` (the shared [`RunArgs`]).
pub type CompareArgs = RunArgs;

/// One row of the comparison.
#[derive(Debug, Clone)]
pub struct CompareRow {
    /// Result id, e.g. `BSA24 Thm 4.5` or `YS22 Thm 3.3`.
    pub id: String,
    /// The paper (`BSA24`, `CYS21`, `AT22`, `YS22`) or `baseline`.
    pub paper: &'static str,
    /// `f-DP` or `RDP`.
    pub kind: &'static str,
    /// What the result covers.
    pub title: String,
    /// Certified upper bound on ε at δ, if the result applies.
    pub epsilon: Option<rug::Float>,
    /// The RDP → (ε, δ) conversion used (RDP rows).
    pub conversion: Option<String>,
    /// The Rényi order the conversion chose (if any).
    pub alpha: Option<f64>,
    /// τ chosen (BSA24 composition families).
    pub tau: Option<u64>,
    /// The Rényi curve (RDP rows).
    pub curve: Option<String>,
    /// Hypotheses checked.
    pub hypotheses: Vec<String>,
    /// Remarks, including parameter translations.
    pub notes: Vec<String>,
    /// Why the result does not apply (or could not be evaluated).
    pub reason: Option<String>,
    /// Whether the row may be marked best: a bound on the t-step run itself, under the
    /// toolkit's replace-one adjacency.
    pub eligible: bool,
}

impl CompareRow {
    fn new(id: &str, paper: &'static str, kind: &'static str, title: &str) -> Self {
        CompareRow {
            id: id.to_string(),
            paper,
            kind,
            title: title.to_string(),
            epsilon: None,
            conversion: None,
            alpha: None,
            tau: None,
            curve: None,
            hypotheses: vec![],
            notes: vec![],
            reason: None,
            eligible: true,
        }
    }
}

/// A Rényi curve with the hypotheses checked and the notes (translations) behind it.
pub struct RdpBound {
    /// The curve.
    pub curve: RenyiCurve,
    /// Hypotheses checked.
    pub hypotheses: Vec<String>,
    /// Notes (translations, readings).
    pub notes: Vec<String>,
}

/// Orders at which non-linear curves are tabulated: α = 1 + 2^{k/4}.
fn grid(kmin: i32, kmax: i32, step: i32) -> Vec<f64> {
    (kmin..=kmax)
        .step_by(step as usize)
        .map(|k| 1.0 + 2f64.powf(f64::from(k) / 4.0))
        .collect()
}

/// Tabulates a certified per-order bound at `orders` (upper ends).
///
/// # Errors
/// The first error of `f` if no order gives a finite value.
///
/// # Example
/// ```
/// use shiftdp::cli::compare::tabulate;
/// use shiftdp::precision::Enclosure;
/// // G(1): ε(α) = α/2; between grid orders the next larger order's value is used
/// let c = tabulate(&[2.0, 4.0], &|a| Ok(Enclosure::from_f64(64, a / 2.0))).unwrap();
/// assert!((c.eval(3.0, 64).unwrap().upper_f64() - 2.0).abs() < 1e-15);
/// ```
pub fn tabulate(orders: &[f64], f: &dyn Fn(f64) -> Result<Enclosure>) -> Result<RenyiCurve> {
    let mut pts = vec![];
    let mut first = None;
    for &a in orders {
        match f(a) {
            Ok(e) if e.is_finite() && e.upper_f64().is_finite() => {
                pts.push((a, e.upper_f64().max(0.0)))
            }
            Ok(_) => {}
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    if pts.is_empty() {
        return Err(first.unwrap_or_else(|| Error::NotCertified {
            what: "Rényi curve".into(),
            reason: "no order gives a finite value".into(),
        }));
    }
    RenyiCurve::tabulated(&pts)
}

/// A curve exactly linear in α, from its value at α = 2: ρ = ε(2)/2.
fn linear_from(f: &dyn Fn(f64) -> Result<Enclosure>) -> Result<RenyiCurve> {
    RenyiCurve::linear_enclosure(f(2.0)?.half())
}

use crate::bounds::hyp;

/// The CYS21/YS22 parameters translated from the toolkit's setting.
#[derive(Debug, Clone, Copy)]
pub struct Translated {
    /// σ′ = σ√(η/2), rounded down.
    pub sigma_p: f64,
    /// S_g = L, rounded up.
    pub s_g: f64,
    /// η (nearest).
    pub eta: f64,
    /// λ = m (nearest), if given.
    pub lambda: Option<f64>,
    /// β = M (nearest), if given.
    pub beta: Option<f64>,
}

impl Translated {
    /// Translates `s` (SPEC §2: σ = σ′√(2/η) ⇔ σ′ = σ√(η/2); S_g = L).
    pub fn of(s: &Setting) -> Self {
        let sp = s.sigma.clone() * s.eta.half().sqrt();
        Translated {
            sigma_p: sp.lower_f64(),
            s_g: s.l.upper_f64(),
            eta: s.eta.mid_f64(),
            lambda: s.m.as_ref().map(|m| m.mid_f64()),
            beta: s.big_m.as_ref().map(|m| m.mid_f64()),
        }
    }

    /// The translation, as a note.
    pub fn note(&self) -> String {
        let mut n = format!(
            "translated to the paper's convention θ ← θ − ηg + √(2η)σ′N(0, I): \
             σ′ = σ√(η/2) = {} (rounded down), S_g = L = {} (rounded up), η = {}",
            self.sigma_p, self.s_g, self.eta
        );
        if let (Some(l), Some(b)) = (self.lambda, self.beta) {
            n.push_str(&format!(", λ = m = {l}, β = M = {b}"));
        }
        n
    }

    fn strongly_convex(&self, result: &str) -> Result<(f64, f64)> {
        match (self.lambda, self.beta) {
            (Some(l), Some(b)) if l > 0.0 => Ok((l, b)),
            (Some(l), Some(_)) => Err(hyp(
                result,
                "λ-strongly convex with λ > 0",
                format!("m = {l}"),
            )),
            _ => Err(hyp(
                result,
                "λ-strongly convex, β-smooth: needs --strong-convexity and --smoothness",
                "a contraction given directly does not determine λ and β",
            )),
        }
    }
}

fn cys21_params(s: &Setting, tr: &Translated, result: &str) -> Result<Cys21Params> {
    if s.b != s.n {
        return Err(hyp(
            result,
            "full batch (b = n)",
            format!("b = {}, n = {}", s.b, s.n),
        ));
    }
    Cys21Params::new(
        tr.sigma_p,
        tr.s_g,
        tr.lambda.unwrap_or(0.0).max(0.0),
        tr.beta.unwrap_or(0.0).max(0.0),
        tr.eta,
        s.n,
    )
}

fn ys22_params(s: &Setting, tr: &Translated, result: &str) -> Result<(Ys22Params, u64)> {
    let (lam, beta) = tr.strongly_convex(result)?;
    let epochs = s.integer_epochs().ok_or_else(|| {
        hyp(
            result,
            "b divides n and t = K·n/b for an integer number of epochs K",
            format!("n = {}, b = {}, t = {}", s.n, s.b, s.t),
        )
    })?;
    Ok((
        Ys22Params::new(tr.sigma_p, tr.s_g, lam, beta, tr.eta, s.n, s.b)?,
        epochs,
    ))
}

/// Bits for the Rényi-curve conversions.
fn rdp_bits(prec: Precision) -> u32 {
    prec.mpfr_bits().max(128)
}

/// The RDP bounds for `s`, each as (id, paper, title, curve or reason, eligible).
pub fn rdp_bounds(s: &Setting) -> Vec<(String, &'static str, String, Result<RdpBound>, bool)> {
    let mut out = vec![];
    let bits = 128;
    let tr = Translated::of(s);
    let unit = s.unit();
    let t = s.t;
    let lin = |rho: Enclosure| RenyiCurve::linear_enclosure(rho);
    match s.algorithm {
        Algorithm::Gd | Algorithm::Lmc => {
            let r =
                lin(unit.square().half() * Enclosure::from_u64(unit.prec(), t)).map(|c| RdpBound {
                    curve: c,
                    hypotheses: vec!["gradient sensitivity L".into()],
                    notes: vec![format!(
                        "t = {t} Gaussian mechanisms of RDP αμ₀²/2, μ₀ = L/(bσ) (Mironov 2017, \
                         Prop 7 and composition); equals CYS21 Thm 1 and their Fig 1 baseline"
                    )],
                });
            out.push((
                "RDP composition".into(),
                "baseline",
                "RDP composition of t Gaussian steps".into(),
                r,
                true,
            ));
            let id = "CYS21 Thm 1";
            let r = cys21_params(s, &tr, id).and_then(|p| {
                let curve = linear_from(&|a| p.thm1(a, t, bits))?;
                Ok(RdpBound {
                    curve,
                    hypotheses: vec!["full batch".into(), "K = t iterations".into()],
                    notes: vec![tr.note()],
                })
            });
            out.push((id.into(), "CYS21", "noisy GD, any losses".into(), r, true));
            let id = "CYS21 Cor 1";
            let r = tr
                .strongly_convex(id)
                .and_then(|_| cys21_params(s, &tr, id))
                .and_then(|p| {
                    let curve = linear_from(&|a| p.cor1(a, t, bits))?;
                    Ok(RdpBound {
                        curve,
                        hypotheses: vec![
                            "λ > 0, β ≥ λ, η < 1/β (checked)".into(),
                            "K = t iterations".into(),
                        ],
                        notes: vec![tr.note()],
                    })
                });
            out.push((
                id.into(),
                "CYS21",
                "noisy GD, strongly convex smooth (LSI)".into(),
                r,
                true,
            ));
            out.push((
                "CYS21 Thm 2 (eq. 16)".into(),
                "CYS21",
                "noisy GD under a c-LSI".into(),
                Err(hyp(
                    "CYS21 Thm 2 (eq. 16)",
                    "the tracing diffusions satisfy a c-LSI",
                    "an LSI constant is not a setting flag (Cor 1 is its strongly convex case)",
                )),
                true,
            ));
            out.push((
                "CYS21 Cor 2 (eq. 18)".into(),
                "CYS21",
                "noisy GD on the squared loss".into(),
                Err(hyp(
                    "CYS21 Cor 2 (eq. 18)",
                    "loss ½‖θ − x‖²",
                    "a statement about one loss, not a setting class",
                )),
                true,
            ));
        }
        Algorithm::Cgd => {
            let id = "BSA24 Table 1 RDP";
            let r = (|| {
                let l = s
                    .batches_per_epoch()
                    .ok_or_else(|| hyp(id, "b divides n", format!("n = {}, b = {}", s.n, s.b)))?;
                let e = s
                    .integer_epochs()
                    .ok_or_else(|| hyp(id, "t = E·l, E integer", format!("t = {t}, l = {l}")))?;
                let c = s.c.as_ref().ok_or_else(|| {
                    hyp(
                        id,
                        "strongly convex: contraction c < 1",
                        "needs --contraction or --strong-convexity/--smoothness/--eta",
                    )
                })?;
                let rho = cyclic_rdp_rho(&unit, c, l, e, bits)?;
                Ok(RdpBound {
                    curve: lin(rho)?,
                    hypotheses: vec![
                        format!("l = n/b = {l} ≥ 2 batches per epoch, E = {e}"),
                        format!("0 < c = {} < 1", c.mid_f64()),
                    ],
                    notes: vec![format!(
                        "SPEC §7 curve ρα, ρ = (μ₀²/2)(1 + c^(l−2)(1 − c²)/(1 − c^l)²·(1 − c^(l(E−1)))), \
                         μ₀ = L/(bσ) = {:.6}",
                        unit.mid_f64()
                    )],
                })
            })();
            out.push((
                id.into(),
                "BSA24",
                "NoisyCGD, strongly convex (RDP column of Table 1)".into(),
                r,
                true,
            ));
            let r = (|| {
                let l = s
                    .batches_per_epoch()
                    .ok_or_else(|| hyp("RDP composition", "b divides n", ""))?;
                let touches = t.div_ceil(l);
                Ok(RdpBound {
                    curve: lin(unit.square().half() * Enclosure::from_u64(unit.prec(), touches))?,
                    hypotheses: vec![format!("each record is used ⌈t/l⌉ = {touches} times")],
                    notes: vec!["RDP composition of the steps that use the record".into()],
                })
            })();
            out.push((
                "RDP composition".into(),
                "baseline",
                "RDP composition over the steps using the record".into(),
                r,
                true,
            ));
            let id = "YS22 Thm 3.3";
            let r = ys22_params(s, &tr, id).and_then(|(p, k)| {
                let j0 = s.n / s.b - 1;
                let curve = linear_from(&|a| p.thm3_3(a, k, j0, bits))?;
                Ok(RdpBound {
                    curve,
                    hypotheses: vec![
                        "λ-strongly convex, β-smooth, η < 2/(λ+β) (checked)".into(),
                        format!("K = {k} epochs, worst position j₀ = n/b − 1 = {j0}"),
                    ],
                    notes: vec![
                        tr.note(),
                        "the last batch is the worst position: ε₀^j decreases in j".into(),
                    ],
                })
            });
            out.push((
                id.into(),
                "YS22",
                "fixed-order mini-batch noisy GD, strongly convex".into(),
                r,
                true,
            ));
            out.push(shuffle_only("YS22 Thm 4.2"));
            out.push(shuffle_only("YS22 Thm 2.1"));
        }
        Algorithm::Sgd => {
            let id = "YS22 Thm 4.3";
            let r = ys22_params(s, &tr, id).and_then(|(p, k)| {
                let conv = p.thm4_3(2.0, k, 64).map(|x| x.converges).unwrap_or(false);
                let curve = tabulate(&grid(-24, 40, 2), &|a| {
                    p.thm4_3(a, k, bits).map(|x| x.epsilon)
                })?;
                Ok(RdpBound {
                    curve,
                    hypotheses: vec![
                        "λ-strongly convex, β-smooth, η < 2/(λ+β) (checked)".into(),
                        format!("sampling without replacement each step, K = {k} epochs"),
                    ],
                    notes: vec![
                        tr.note(),
                        format!(
                            "recursion (eq. 6) in log space; converges as K → ∞ at α = 2: {conv}"
                        ),
                    ],
                })
            });
            out.push((
                id.into(),
                "YS22",
                "noisy SGD, fixed-size batches sampled without replacement".into(),
                r,
                true,
            ));
            let id = "YS22 composition baseline";
            let r = (|| {
                let q = s.p().upper_f64();
                let sig = (Enclosure::from_u64(128, 1) / unit.clone()).lower_f64();
                let m = SampledGaussian::new(q, sig)?;
                let curve = tabulate(&grid(-16, 32, 4), &|a| {
                    let c = m.composed_curve(t, a, a)?;
                    c.eval(a, 64)
                })?;
                Ok(RdpBound {
                    curve,
                    hypotheses: vec![format!("q = b/n = {q}, noise multiplier bσ/L = {sig}")],
                    notes: vec![
                        "t-fold RDP composition of the sampled Gaussian mechanism (MTZ19), \
                         both orders"
                            .into(),
                        "MTZ19's bound is for add/remove adjacency with Poisson sampling; \
                         not marked best under the toolkit's replace-one adjacency"
                            .into(),
                    ],
                })
            })();
            out.push((
                id.into(),
                "baseline",
                "RDP composition of the sampled Gaussian mechanism".into(),
                r,
                false,
            ));
            out.push(shuffle_only("YS22 Thm 2.1"));
        }
    }
    out
}

fn shuffle_only(id: &str) -> (String, &'static str, String, Result<RdpBound>, bool) {
    (
        id.into(),
        "YS22",
        "noisy mini-batch GD under shuffle-and-partition".into(),
        Err(hyp(
            id,
            "shuffle-and-partition batches (one random permutation per run)",
            "`compare` models fixed-order (cgd) and per-step sampled (sgd) batches only",
        )),
        true,
    )
}

/// Every row of the comparison for `s` at `delta`.
///
/// # Errors
/// Invalid δ or precision (inapplicable results are rows with a reason, not errors).
pub fn compare_rows(s: &Setting, delta: &Enclosure, prec: Precision) -> Result<Vec<CompareRow>> {
    let mut rows = vec![];
    for (id, r) in bounds_for(s) {
        let mut row = CompareRow::new(id, "BSA24", "f-DP", "");
        match r {
            Ok(b) => {
                row.title = b.title.to_string();
                row.hypotheses = b.hypotheses.clone();
                row.notes = b.notes.clone();
                row.eligible = b.notes.iter().all(|n| !n.starts_with("about"));
                row.curve = None;
                row.conversion = Some(format!("exact f-DP → (ε, δ) of {}", b.tradeoff_summary()));
                match b.epsilon_with_tau(delta, prec) {
                    Ok((c, tau)) => {
                        row.epsilon = Some(c.upper().clone());
                        row.tau = tau;
                    }
                    Err(e) => row.reason = Some(e.to_string()),
                }
            }
            Err(e) => row.reason = Some(e.to_string()),
        }
        rows.push(row);
    }
    let bits = rdp_bits(prec);
    let mut rdp = rdp_bounds(s);
    rdp.extend(crate::renyi::at22::compare_bounds(s));
    for (id, paper, title, r, eligible) in rdp {
        let mut row = CompareRow::new(&id, paper, "RDP", &title);
        row.eligible = eligible;
        match r {
            Ok(b) => {
                row.curve = Some(b.curve.name().to_string());
                row.hypotheses = b.hypotheses;
                row.notes = b.notes;
                match best_conversion(&b.curve, delta, bits) {
                    Ok(bc) => {
                        row.epsilon = Some(bc.best.epsilon_hi().clone());
                        row.alpha = bc.best.alpha;
                        row.conversion = Some(format!(
                            "{}{}",
                            bc.best.conversion.source(),
                            bc.best
                                .alpha
                                .map(|a| format!(" at α = {a:.4}"))
                                .unwrap_or_default()
                        ));
                    }
                    Err(e) => row.reason = Some(e.to_string()),
                }
            }
            Err(e) => row.reason = Some(e.to_string()),
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Index of the best valid row: smallest certified ε among eligible rows.
pub fn best_row(rows: &[CompareRow]) -> Option<usize> {
    rows.iter()
        .enumerate()
        .filter(|(_, r)| r.eligible && r.epsilon.is_some())
        .min_by(|x, y| {
            let (a, b) = (x.1.epsilon.as_ref().unwrap(), y.1.epsilon.as_ref().unwrap());
            a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|(i, _)| i)
}

/// Runs `shiftdp compare`.
///
/// # Errors
/// Invalid setting, δ or precision (each inapplicable result is reported, not an error).
pub fn run(a: &CompareArgs) -> Result<Output> {
    let s = a.setting.setting(a.algorithm)?;
    let prec = Precision::from_bits(a.bits)?;
    let delta = parse_number("delta", &a.delta, prec.mpfr_bits().max(128))?;
    if !delta.is_positive() || delta.upper_f64() >= 1.0 {
        return Err(Error::param("delta", &a.delta, "must be in (0, 1)"));
    }
    let rows = compare_rows(&s, &delta, prec)?;
    let best = best_row(&rows);
    let mut human = format!(
        "{}\nδ = {}\nall ε are certified upper bounds; * marks the best valid bound\n\n",
        s.describe(),
        a.delta
    );
    let mut list = vec![];
    for (i, r) in rows.iter().enumerate() {
        let is_best = Some(i) == best;
        let eps = r.epsilon.as_ref().map(|e| fmt_up(e, 53));
        list.push(json!({
            "id": r.id,
            "paper": r.paper,
            "kind": r.kind,
            "title": r.title,
            "applicable": r.epsilon.is_some(),
            "epsilon": eps.clone().map(Value::from).unwrap_or(Value::Null),
            "conversion": r.conversion,
            "alpha": r.alpha,
            "tau": r.tau,
            "curve": r.curve,
            "hypotheses": r.hypotheses,
            "notes": r.notes,
            "reason": r.reason,
            "eligible_for_best": r.eligible,
            "best": is_best,
        }));
        match eps {
            Some(e) => {
                human.push_str(&format!(
                    "{} {:<28} [{} {}] {}\n    ε ≤ {}{}\n",
                    if is_best { "*" } else { " " },
                    r.id,
                    r.paper,
                    r.kind,
                    r.title,
                    e,
                    r.tau.map(|t| format!("   (τ = {t})")).unwrap_or_default()
                ));
                if let Some(c) = &r.conversion {
                    human.push_str(&format!("    via {c}\n"));
                }
                for n in &r.notes {
                    human.push_str(&format!("    note: {n}\n"));
                }
            }
            None => human.push_str(&format!(
                "  {:<28} [{} {}] not applicable: {}\n",
                r.id,
                r.paper,
                r.kind,
                r.reason.as_deref().unwrap_or("")
            )),
        }
    }
    if let Some(i) = best {
        human.push_str(&format!("\n* best valid bound: {}\n", rows[i].id));
    }
    let json = json!({
        "command": "compare",
        "setting": s.describe(),
        "delta": a.delta,
        "bounds": list,
        "best": best.map(|i| rows[i].id.clone()),
        "side": "ε are certified upper bounds (rounded up)",
    });
    Ok(Output { json, human })
}
