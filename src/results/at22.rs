//! AT22's Rényi-DP results for a run (Altschuler, Talwar, NeurIPS 2022): the PABI
//! schedule bounds (Props 2.17, 3.2, 5.6 and their cyclic form), recipe (B.1) under a
//! diameter, and recipes (B.2) / (B.3) for NoisySGD.
//!
//! AT22 state results with the Lipschitz constant L_AT; replace-adjacent gradients
//! differ by 2L_AT = L, the toolkit's sensitivity (see [`crate::renyi::at22`]).
use crate::error::{Result, hyp};
use crate::precision::Enclosure;
use crate::provenance::ResultId;
use crate::renyi::RenyiCurve;
use crate::renyi::at22::{pabi_rho, recipe_b_for_setting, recipe_b_id, recipe_b1_rho};
use crate::renyi::at22_params::{At22Run, contraction, orders};
use crate::renyi::at22_theorems::{QReading, thm_3_1};
use crate::renyi::curve::tabulate;
use crate::schedules::ScheduleProblem;
use crate::schedules::builders::{CyclicOrder, noisy_cgd_of, noisy_gd_of};
use crate::settings::Setting;

use super::translation::grid;
use crate::tradeoff::RdpBound;

/// Title of the full-batch PABI results.
pub(super) const PABI_TITLE: &str = "noisy GD, PABI with optimal shifts";
/// Title of recipes (B.2) / (B.3).
pub(super) const RECIPE_B_TITLE: &str = "noisy SGD recipe";

/// The note on AT22's Lipschitz convention every AT22 result carries.
fn note_l() -> String {
    "AT22 state results with the Lipschitz constant L_AT; replace-adjacent \
     gradients differ by 2L_AT = L (toolkit sensitivity)"
        .to_string()
}

/// A known contraction c < 1 selects Prop 5.6.
pub(super) fn selects_5_6(s: &Setting) -> bool {
    s.c.as_ref().is_some_and(|c| c.upper_f64() < 1.0)
}

/// Otherwise a diameter selects Prop 3.2.
pub(super) fn selects_3_2(s: &Setting) -> bool {
    !selects_5_6(s) && s.d.is_some()
}

/// Otherwise Prop 2.17.
pub(super) fn selects_2_17(s: &Setting) -> bool {
    !selects_5_6(s) && s.d.is_none()
}

/// A known contraction c < 1 selects recipe (B.3), otherwise (B.2).
pub(super) fn selects_b3(s: &Setting) -> bool {
    recipe_b_id(s) == ResultId::At22EqB3
}

/// Recipe (B.2) where (B.3) is not selected.
pub(super) fn selects_b2(s: &Setting) -> bool {
    !selects_b3(s)
}

/// AT22 Prop 5.6 (c < 1).
pub(super) fn pabi_5_6(s: &Setting) -> Result<RdpBound> {
    pabi_full_batch(s, ResultId::At22Prop5_6)
}

/// AT22 Prop 3.2 (c = 1, a diameter D).
pub(super) fn pabi_3_2(s: &Setting) -> Result<RdpBound> {
    pabi_full_batch(s, ResultId::At22Prop3_2)
}

/// AT22 Prop 2.17 (c = 1, no diameter).
pub(super) fn pabi_2_17(s: &Setting) -> Result<RdpBound> {
    pabi_full_batch(s, ResultId::At22Prop2_17)
}

/// The PABI schedule bound of a full-batch run (Prop 2.17, 3.2 with a diameter, 5.6
/// when c < 1): optimal shifts of the schedule problem (KKT), D_α ≤ (α/2)μ*².
fn pabi_full_batch(s: &Setting, id: ResultId) -> Result<RdpBound> {
    let c = contraction(s, id)?;
    let d = s.d.clone();
    let p = noisy_gd_of(
        s,
        s.t as usize,
        c.clone(),
        // the diameter makes the solver search τ; the gap at τ is D (Prop 3.2)
        d.clone(),
    )?;
    let (rho, tau) = pabi_at_gap(p, &d)?;
    Ok(RdpBound {
        curve: RenyiCurve::linear_enclosure(rho.clone())?,
        hypotheses: vec![
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
        notes: vec![
            note_l(),
            format!(
                "optimal shifts of the schedule problem (docs/conventions.md §4; KKT), Rényi value (α/2)μ*², τ = {tau}; ρ = μ*²/2 = {:.6}",
                rho.upper_f64()
            ),
        ],
    })
}

/// ρ = μ*²/2 of the schedule problem `p` and the start τ of its optimal shifts, the gap
/// at τ fixed to the diameter D when there is one (Prop 3.2).
fn pabi_at_gap(p: ScheduleProblem<Enclosure>, d: &Option<Enclosure>) -> Result<(Enclosure, usize)> {
    let p = match d {
        Some(dd) => p.with_fixed_gap(Some(dd.clone()))?,
        None => p,
    };
    pabi_rho(&p, 128)
}

/// AT22 recipe (B.1), full batch under a diameter, as printed with s = 2ηL_AT/n = ηL/n.
pub(super) fn recipe_b1(s: &Setting) -> Result<RdpBound> {
    let id = ResultId::At22EqB1;
    let dd =
        s.d.as_ref()
            .ok_or_else(|| hyp(id, "constraint set of diameter D", "needs the diameter D"))?;
    contraction(s, id)?;
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
        notes: vec![note_l(), "recipe as printed, s = 2ηL_AT/n = ηL/n".into()],
    })
}

/// The PABI schedule bound of a cyclic run, maximized over the position of the
/// differing record among the l = n/b batches (at most 512 positions).
pub(super) fn cyclic(s: &Setting) -> Result<RdpBound> {
    let id = ResultId::At22Cyclic;
    let c = contraction(s, id)?;
    let d = s.d.clone();
    let l = crate::schedules::builders::batches_per_epoch(s.n, s.b)?;
    if l > 512 {
        return Err(hyp(
            id,
            "l = n/b ≤ 512 positions searched",
            format!("l = {l}"),
        ));
    }
    let mut worst: Option<(Enclosure, u64, usize)> = None;
    for pos in 0..l as usize {
        let p = noisy_cgd_of(
            s,
            s.t as usize,
            c.clone(),
            CyclicOrder::Fixed(pos),
            d.clone(),
        )?;
        let (rho, tau) = pabi_at_gap(p, &d)?;
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
            note_l(),
            format!(
                "optimal shifts (KKT), (α/2)μ*²; worst position {pos}, τ = {tau}, ρ = {:.6}",
                rho.upper_f64()
            ),
        ],
    })
}

/// Recipes (B.2) / (B.3) for NoisySGD, tabulated over orders (each a noise-split
/// search), Q read in both orders of the sampled Gaussian pair (ERRATA.md AT1).
pub(super) fn recipe_b(s: &Setting) -> Result<RdpBound> {
    let q = s.p().upper_f64();
    let curve = tabulate(&orders(), &|a| {
        recipe_b_for_setting(s, a, QReading::BothOrders, 64)
    })?;
    Ok(RdpBound {
        curve,
        hypotheses: vec![
            "convex (c ≤ 1), η ≤ 2/M, diameter D, replace adjacency".into(),
            format!("Q = max of both orders of S_α(b/n, bσ₂/L), q = {q}"),
        ],
        notes: vec![
            note_l(),
            "noise split σ₁ by golden-section search, T̃ by first-order point".into(),
            "Q read in both orders of the sampled Gaussian pair: the printed \
             order D_α(N₀ ‖ mixture) is exceeded by the reverse order of the \
             Thm 4.1 instance (ERRATA.md AT1)"
                .into(),
        ],
    })
}

/// AT22 Thm 3.1 for a NoisySGD run, convex with a diameter D: the explicit bound
/// ε(α) ≤ (αL_AT²/(n²σ²))·min{k_T·T, 17·T̄}, T̄ = ⌈Dn/(L_AT η)⌉, L_AT = L/2, k_T ∈ {8, 16}
/// by Lemma 2.12. Tabulated at the orders where its hypotheses hold (α ≤ α* of Lemma
/// 2.12); the run's inputs are rounded as [`At22Run`] states per field.
pub(super) fn thm_3_1_explicit(s: &Setting) -> Result<RdpBound> {
    let id = ResultId::At22Thm3_1;
    let d = s.d.as_ref().ok_or_else(|| {
        hyp(
            id,
            "H2: constraint set of diameter D < ∞",
            "needs the diameter D",
        )
    })?;
    let c = contraction(s, id)?.upper_f64();
    let run = At22Run {
        n: s.n,
        b: s.b,
        l: s.l.upper_f64(),
        eta: s.eta.lower_f64(),
        sigma: s.sigma.lower_f64(),
        t: s.t,
        d: d.upper_f64(),
    };
    let curve = tabulate(&grid(-24, 40, 2), &|a| thm_3_1(a, &run, c, 128))?;
    let (_, alpha_max) = curve.order_range();
    Ok(RdpBound {
        curve,
        hypotheses: vec![
            "convex (c ≤ 1), η ≤ 2/M, diameter D".into(),
            "b/n < 1/5 and σ > 4√2·L/b (Lemma 2.12)".into(),
            format!("orders 1 < α ≤ α*(b/n, bσ/(√2·L)): tabulated up to α = {alpha_max:.4}"),
        ],
        notes: vec![
            note_l(),
            "explicit constants of the proof: min{k_T·T, 17·T̄}·αL_AT²/(n²σ²), \
             T̄ = ⌈Dn/(L_AT η)⌉ (the recipe (B.2) evaluates the same argument numerically)"
                .into(),
        ],
    })
}
