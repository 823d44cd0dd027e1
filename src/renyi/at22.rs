//! Altschuler–Talwar 2022 (AT22): Rényi-DP of noisy (stochastic) gradient descent by
//! privacy amplification by iteration (PABI) with shifted Rényi divergences.
//!
//! * Props 2.17 / 3.2 / 5.6 through the shift-schedule problem of docs/conventions.md §4
//!   with the Rényi objective (α/2)Σ(a_k/ς_k)²: the optimal shifts are those of the GDP
//!   problem (same objective up to the factor α/2), so D_α ≤ (α/2)μ*² = ρα with ρ = μ*²/2
//!   ([`pabi_rho`]);
//! * the numerical recipes (3.6), (B.1), (B.2), (B.3) as stated ([`recipe_3_6`],
//!   [`recipe_b1_rho`], [`recipe_b2`], [`recipe_b3`]);
//! * Lemma 2.12 with α*(q, σ) ([`alpha_star`], [`lemma_2_12`]).
//!
//! # Parameter model
//! The recipes and theorems take their inputs as parameter structs in AT22's
//! vocabulary, each field documented with its symbol and the direction a caller rounds
//! it in: [`RecipeBInputs`] ((B.2), (B.3)), [`SplitInputs`] ((3.6), (5.3), (5.7) at a
//! fixed noise split), [`PabiGap`] (the PABI term of (B.2)/(B.3)) and [`At22Run`]
//! (Thms 3.1, 5.1, 5.8, 4.1).
//!
//! AT22 use the toolkit's template (docs/conventions.md §2): noise N(0, η²σ²) per step, but
//! state results with the **Lipschitz constant** L_AT, so that gradients of
//! replace-adjacent datasets differ by at most 2L_AT. The toolkit's gradient sensitivity is
//! L = 2L_AT: every `2L` of AT22 is the toolkit's `L` (the functions here take the
//! toolkit's L and say so), e.g. Q = S_α(b/n, bσ₂/(2L_AT)) = S_α(b/n, bσ₂/L).
//!
//! # Rounding
//! Searches (τ, T̃, the noise split σ₁) run in f64; the value at the chosen point is
//! recomputed as an enclosure, reported by its upper end. Any choice of these
//! parameters yields a valid bound, so search error costs only tightness.
//!
//! # References
//! J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent: more
//! iterations without more privacy loss*, NeurIPS 2022 (Props 2.17, 3.2, 5.6,
//! Lemma 2.12, eqs. (3.6), (B.1)–(B.3)); I. Mironov, K. Talwar, L. Zhang, *Rényi
//! differential privacy of the sampled Gaussian mechanism* (2019), Thm 11.
use super::RdpBound;
pub use super::at22_lemma_2_12::{LEMMA_2_12, alpha_star, alpha_star_conditions, lemma_2_12};
pub use super::at22_pabi::{pabi_rho, recipe_3_6, recipe_b1_rho};
pub use super::at22_params::{
    At22Run, EQ_3_6, EQ_B1, EQ_B2, EQ_B3, PROP_2_17, PROP_3_2, PROP_5_6, PabiGap, RecipeBInputs,
    SplitInputs,
};
use super::at22_params::{contraction, orders};
pub use super::at22_recipes::{
    b_term, first_order_b3, first_order_b3_beta, printed_beta_b3, recipe_b_for_setting,
    recipe_b_id, recipe_b_inputs, recipe_b_with, recipe_b2, recipe_b3,
};
use super::at22_theorems::QReading;
use super::cys21::ToolkitTranslation;
use crate::error::Result;
use crate::precision::Enclosure;
use crate::renyi::RenyiCurve;
use crate::renyi::curve::tabulate;
use crate::schedules::ScheduleProblem;
use crate::schedules::builders::{CyclicOrder, noisy_cgd, noisy_gd};
use crate::settings::{Algorithm, Setting};

/// AT22 Lemma 2.12.
use crate::error::hyp;

/// The same run in CYS21/YS22's σ′ convention is not used by AT22; this returns the
/// toolkit translation of an AT22 run given its Lipschitz constant (L = 2L_AT).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::translate;
/// let t = translate(0.5, 10, 100, 0.1, 2.0, 1.0);
/// assert!((t.sensitivity - 1.0).abs() < 1e-15 && (t.gdp_unit - 0.05).abs() < 1e-15);
/// ```
pub fn translate(
    lipschitz: f64,
    b: u64,
    n: u64,
    eta: f64,
    sigma: f64,
    contraction: f64,
) -> ToolkitTranslation {
    ToolkitTranslation {
        sigma,
        sensitivity: 2.0 * lipschitz,
        batch: b,
        n,
        eta,
        m: None,
        big_m: None,
        contraction,
        gdp_unit: 2.0 * lipschitz / (b as f64 * sigma),
    }
}

type Row = (String, &'static str, String, Result<RdpBound>, bool);

fn pabi_bound(
    id: &str,
    p: Result<ScheduleProblem<Enclosure>>,
    notes: Vec<String>,
    hyps: Vec<String>,
) -> Result<RdpBound> {
    let (rho, tau) = pabi_rho(&p?, 128)?;
    let mut notes = notes;
    notes.push(format!(
        "optimal shifts of the schedule problem (docs/conventions.md §4; KKT), Rényi value (α/2)μ*², τ = {tau}; ρ = μ*²/2 = {:.6}",
        rho.upper_f64()
    ));
    let _ = id;
    Ok(RdpBound {
        curve: RenyiCurve::linear_enclosure(rho)?,
        hypotheses: hyps,
        notes,
    })
}

/// The AT22 rows of `shiftdp compare` for a setting.
///
/// GD/LMC: the PABI schedule bound (Prop 2.17, or 3.2 with a diameter, or 5.6 when
/// c < 1) and recipe (B.1) under a diameter; CGD: the PABI schedule bound maximized
/// over the position of the differing record; SGD: (B.2) / (B.3) under a diameter.
pub fn compare_bounds(s: &Setting) -> Vec<Row> {
    let mut out: Vec<Row> = vec![];
    let note_l = "AT22 state results with the Lipschitz constant L_AT; replace-adjacent \
                  gradients differ by 2L_AT = L (toolkit sensitivity)"
        .to_string();
    let t = s.t as usize;
    let d = s.d.clone();
    match s.algorithm {
        Algorithm::Gd | Algorithm::Lmc => {
            let id = match (&s.c, &d) {
                (Some(c), _) if c.upper_f64() < 1.0 => PROP_5_6,
                (_, Some(_)) => PROP_3_2,
                _ => PROP_2_17,
            };
            let r = contraction(s, id).and_then(|c| {
                let p = noisy_gd(
                    s.n,
                    s.l.clone(),
                    s.eta.clone(),
                    s.sigma.clone(),
                    t,
                    c.clone(),
                    // the diameter makes the solver search τ; the gap at τ is D (Prop 3.2)
                    d.clone(),
                )
                .and_then(|p| match &d {
                    Some(dd) => p.with_fixed_gap(Some(dd.clone())),
                    None => Ok(p),
                });
                pabi_bound(
                    id,
                    p,
                    vec![note_l.clone()],
                    vec![
                        format!("c_k = c = {} ≤ 1", c.mid_f64()),
                        format!(
                            "s_k = ηL/n, ς_k = ησ{}",
                            if d.is_some() {
                                ", z_τ = D"
                            } else {
                                ", z₀ = 0"
                            }
                        ),
                    ],
                )
            });
            out.push((
                id.into(),
                "AT22",
                "noisy GD, PABI with optimal shifts".into(),
                r,
                true,
            ));
            let r = match &d {
                None => Err(hyp(
                    EQ_B1,
                    "constraint set of diameter D",
                    "needs the diameter D",
                )),
                Some(dd) => contraction(s, EQ_B1).and_then(|_| {
                    let rho = recipe_b1_rho(
                        s.n,
                        s.l.upper_f64(),
                        s.eta.lower_f64(),
                        s.sigma.lower_f64(),
                        s.t,
                        dd.upper_f64(),
                        128,
                    )?;
                    Ok(RdpBound {
                        curve: RenyiCurve::linear_enclosure(rho)?,
                        hypotheses: vec!["convex, η ≤ 2/M (c ≤ 1), diameter D".into()],
                        notes: vec![
                            note_l.clone(),
                            "recipe as printed, s = 2ηL_AT/n = ηL/n".into(),
                        ],
                    })
                }),
            };
            out.push((EQ_B1.into(), "AT22", "full-batch recipe".into(), r, true));
        }
        Algorithm::Cgd => {
            let id = "AT22 Prop 2.17/5.6 (cyclic)";
            let r = contraction(s, id).and_then(|c| {
                let l = crate::schedules::builders::batches_per_epoch(s.n, s.b)?;
                if l > 512 {
                    return Err(hyp(id, "l = n/b ≤ 512 positions searched", format!("l = {l}")));
                }
                let mut worst: Option<(Enclosure, u64, usize)> = None;
                for pos in 0..l as usize {
                    let p = noisy_cgd(
                        s.n,
                        s.b,
                        s.l.clone(),
                        s.eta.clone(),
                        s.sigma.clone(),
                        t,
                        c.clone(),
                        CyclicOrder::Fixed(pos),
                        d.clone(),
                    )?;
                    let p = match &d {
                        Some(dd) => p.with_fixed_gap(Some(dd.clone()))?,
                        None => p,
                    };
                    let (rho, tau) = pabi_rho(&p, 128)?;
                    if worst.as_ref().is_none_or(|w| rho.hi() > w.0.hi()) {
                        worst = Some((rho, pos as u64, tau));
                    }
                }
                let (rho, pos, tau) = worst.ok_or_else(|| hyp(id, "l ≥ 1", "l = 0"))?;
                Ok(RdpBound {
                    curve: RenyiCurve::linear_enclosure(rho.clone())?,
                    hypotheses: vec![
                        format!("c_k = c = {} ≤ 1", c.mid_f64()),
                        "worst position of the differing record over all l batches".into(),
                    ],
                    notes: vec![
                        note_l.clone(),
                        format!(
                            "optimal shifts (KKT), (α/2)μ*²; worst position {pos}, τ = {tau}, ρ = {:.6}",
                            rho.upper_f64()
                        ),
                    ],
                })
            });
            out.push((
                id.into(),
                "AT22",
                "cyclic noisy GD, PABI with optimal shifts".into(),
                r,
                true,
            ));
        }
        Algorithm::Sgd => {
            let q = s.p().upper_f64();
            let id = recipe_b_id(s);
            let r = tabulate(&orders(), &|a| {
                recipe_b_for_setting(s, a, QReading::BothOrders, 64)
            })
            .map(|curve| RdpBound {
                curve,
                hypotheses: vec![
                    "convex (c ≤ 1), η ≤ 2/M, diameter D, replace adjacency".into(),
                    format!("Q = max of both orders of S_α(b/n, bσ₂/L), q = {q}"),
                ],
                notes: vec![
                    note_l.clone(),
                    "noise split σ₁ by golden-section search, T̃ by first-order point".into(),
                    "Q read in both orders of the sampled Gaussian pair: the printed \
                     order D_α(N₀ ‖ mixture) is exceeded by the reverse order of the \
                     Thm 4.1 instance (ERRATA.md AT1)"
                        .into(),
                ],
            });
            out.push((id.into(), "AT22", "noisy SGD recipe".into(), r, true));
        }
    }
    out
}
