//! BSA24 Table 1's Rényi-DP column for NoisyCGD (the f-DP results of BSA24 are in
//! [`crate::bounds`]).
use super::translation::BITS;
use crate::error::{Result, hyp};
use crate::provenance::ResultId;
use crate::renyi::RenyiCurve;
use crate::renyi::table1::cyclic_rdp_rho;
use crate::settings::Setting;
use crate::tradeoff::RdpBound;

/// Title of the Table 1 RDP result.
pub(super) const TABLE_1_TITLE: &str = "NoisyCGD, strongly convex (RDP column of Table 1)";

/// The curve ρα of docs/conventions.md §7,
/// ρ = (μ₀²/2)(1 + c^(l−2)(1 − c²)/(1 − c^l)²·(1 − c^(l(E−1)))), μ₀ = L/(bσ).
pub(super) fn table_1_rdp(s: &Setting) -> Result<RdpBound> {
    let id = ResultId::Bsa24Table1Rdp;
    let t = s.t;
    let unit = s.unit();
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
    let rho = cyclic_rdp_rho(&unit, c, l, e, BITS)?;
    Ok(RdpBound {
        curve: RenyiCurve::linear_enclosure(rho)?,
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
}
