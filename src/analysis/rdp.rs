//! The Rényi-DP results of CYS21, YS22 and BSA24 Table 1, and the RDP composition
//! baselines, for one run in the toolkit's parameter model.
//!
//! Papers written in the θ ← θ − ηg + √(2η)σ′N(0, I) convention (CYS21, YS22) are
//! translated explicitly by [`Translated`]: σ′ = σ√(η/2), S_g = L, λ = m, β = M; each
//! such bound says so in its notes. (AT22's Rényi results for a run are in
//! [`crate::renyi::at22::compare_bounds`].)
//!
//! # Rounding
//! Rényi curves that are not linear in α are tabulated at a fixed grid of orders, each
//! value the upper end of a certified enclosure; between grid orders the next larger
//! order is used (D_α is non-decreasing in α). Translations to the f64 parameter
//! structs of CYS21 / YS22 round S_g (= L) up and σ′ down (every bound increases in
//! S_g/σ′).
use crate::bounds::{RdpBound, hyp};
use crate::error::Result;
use crate::precision::{Enclosure, Precision};
use crate::renyi::RenyiCurve;
use crate::renyi::curve::tabulate;
use crate::renyi::cys21::Cys21Params;
use crate::renyi::sampled_gaussian::SampledGaussian;
use crate::renyi::table1::cyclic_rdp_rho;
use crate::renyi::ys22::Ys22Params;
use crate::settings::{Algorithm, Setting};

/// One Rényi row for a run: (id, title, the bound or the hypothesis that fails,
/// whether it may be marked best).
pub type RdpRow = (String, &'static str, String, Result<RdpBound>, bool);

/// Orders at which non-linear curves are tabulated: α = 1 + 2^{k/4}.
fn grid(kmin: i32, kmax: i32, step: i32) -> Vec<f64> {
    (kmin..=kmax)
        .step_by(step as usize)
        .map(|k| 1.0 + 2f64.powf(f64::from(k) / 4.0))
        .collect()
}

/// Largest composed divergence the sampled-Gaussian baseline is tabulated to: its
/// orders stop at the first whose t-fold divergence exceeds this. An order with
/// `t·D_α ≥ 32` converts to `ε ≥ t·D_α − log(α)/(α−1) + log((α−1)/α) > 30`
/// (Balle et al. 2020, Thm 21), which no smaller order is beaten by in practice, while
/// the quadrature of the mixture–base order costs seconds to minutes at large α and
/// small noise multiplier (α = 65 and 129 at bσ/L = 0.43: 33 s and over 40 s). Any
/// subset of orders gives a valid curve (each value an upper bound at its order).
pub const BASELINE_DIVERGENCE_CAP: f64 = 32.0;

/// As [`tabulate`], over `orders` in increasing order, stopping after the first order
/// whose certified value exceeds `cap` (the curve is non-decreasing in α).
fn tabulate_until(
    orders: &[f64],
    cap: f64,
    f: &dyn Fn(f64) -> Result<Enclosure>,
) -> Result<RenyiCurve> {
    let values: std::cell::RefCell<Vec<(f64, Result<Enclosure>)>> = Default::default();
    for &a in orders {
        let v = f(a);
        let stop = v.as_ref().is_ok_and(|e| e.lower_f64() > cap);
        values.borrow_mut().push((a, v));
        if stop {
            break;
        }
    }
    let used: Vec<f64> = values.borrow().iter().map(|x| x.0).collect();
    tabulate(&used, &|a| {
        let mut vs = values.borrow_mut();
        let i = vs
            .iter()
            .position(|x| x.0.to_bits() == a.to_bits())
            .unwrap_or(0);
        vs.swap_remove(i).1
    })
}

/// A curve exactly linear in α, from its value at α = 2: ρ = ε(2)/2.
fn linear_from(f: &dyn Fn(f64) -> Result<Enclosure>) -> Result<RenyiCurve> {
    RenyiCurve::linear_enclosure(f(2.0)?.half())
}

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
    /// Translates `s` (docs/conventions.md §2: σ = σ′√(2/η) ⇔ σ′ = σ√(η/2); S_g = L).
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
                "λ-strongly convex, β-smooth: needs the strong convexity m and the smoothness M",
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
pub(crate) fn rdp_bits(prec: Precision) -> u32 {
    prec.mpfr_bits().max(128)
}

/// The RDP bounds for `s`, each as (id, paper, title, curve or reason, eligible).
pub fn rdp_bounds(s: &Setting) -> Vec<RdpRow> {
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
                        "needs the contraction c, or the strong convexity m, the smoothness M and the step size η",
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
                        "curve ρα of docs/conventions.md §7, ρ = (μ₀²/2)(1 + c^(l−2)(1 − c²)/(1 − c^l)²·(1 − c^(l(E−1)))), \
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
            if s.shuffled_once {
                // Thm 4.2's log-average is not linear in α: tabulated; Thm 2.1 is
                out.push(ys22_shuffled(s, &tr, "YS22 Thm 4.2", &|p, k| {
                    tabulate(&grid(-24, 40, 2), &|a| p.thm4_2(a, k, bits))
                }));
                out.push(ys22_shuffled(s, &tr, "YS22 Thm 2.1", &|p, k| {
                    linear_from(&|a| p.thm2_1(a, k, bits))
                }));
            } else {
                out.push(shuffle_only("YS22 Thm 4.2"));
                out.push(shuffle_only("YS22 Thm 2.1"));
            }
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
            let id = crate::provenance::ResultId::Ys22Baseline.as_str();
            let r = (|| {
                let q = s.p().upper_f64();
                let sig = (Enclosure::from_u64(128, 1) / unit.clone()).lower_f64();
                let m = SampledGaussian::new(q, sig)?;
                let curve = tabulate_until(&grid(-16, 32, 4), BASELINE_DIVERGENCE_CAP, &|a| {
                    let c = m.composed_curve(t, a, a)?;
                    c.eval(a, 64)
                })?;
                Ok(RdpBound {
                    curve,
                    hypotheses: vec![format!("q = b/n = {q}, noise multiplier bσ/L = {sig}")],
                    // (the orders stop at the first whose composed divergence exceeds
                    // BASELINE_DIVERGENCE_CAP: see `tabulate_until`)
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

/// A YS22 shuffle-and-partition result (Thm 4.2, or Thm 2.1, its naive baseline) for a
/// cyclic run whose order is one random permutation
/// ([`Setting::with_order_shuffled_once`]): `curve` of the paper's parameters and `K`.
fn ys22_shuffled(
    s: &Setting,
    tr: &Translated,
    id: &str,
    curve: &dyn Fn(&Ys22Params, u64) -> Result<RenyiCurve>,
) -> RdpRow {
    let r = ys22_params(s, tr, id).and_then(|(p, k)| {
        let curve = curve(&p, k)?;
        Ok(RdpBound {
            curve,
            hypotheses: vec![
                "λ-strongly convex, β-smooth, η < 2/(λ+β) (checked)".into(),
                format!("K = {k} epochs, one random permutation for the whole run"),
            ],
            notes: vec![tr.note()],
        })
    });
    (
        id.into(),
        "YS22",
        "noisy mini-batch GD under shuffle-and-partition".into(),
        r,
        true,
    )
}

fn shuffle_only(id: &str) -> RdpRow {
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
