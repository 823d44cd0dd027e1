//! CYS21's Rényi-DP results for a noisy GD run (Chourasia, Ye, Shokri, NeurIPS 2021),
//! in the paper's convention through [`Translated`].
use super::translation::{BITS, Translated, cys21_params, linear_from};
use crate::error::{Result, hyp};
use crate::provenance::ResultId;
use crate::settings::Setting;
use crate::tradeoff::RdpBound;

/// CYS21 Thm 1: ε(α) of the coupled tracing diffusion, any losses, K = t.
pub(super) fn thm_1(s: &Setting) -> Result<RdpBound> {
    let tr = Translated::of(s);
    let p = cys21_params(s, &tr, ResultId::Cys21Thm1)?;
    Ok(RdpBound {
        curve: linear_from(&|a| p.thm1(a, s.t, BITS))?,
        hypotheses: vec!["full batch".into(), "K = t iterations".into()],
        notes: vec![tr.note()],
    })
}

/// CYS21 Cor 1: λ-strongly convex, β-smooth losses (the LSI case of Thm 2), K = t.
pub(super) fn cor_1(s: &Setting) -> Result<RdpBound> {
    let id = ResultId::Cys21Cor1;
    let tr = Translated::of(s);
    tr.strongly_convex(id)?;
    let p = cys21_params(s, &tr, id)?;
    Ok(RdpBound {
        curve: linear_from(&|a| p.cor1(a, s.t, BITS))?,
        hypotheses: vec![
            "λ > 0, β ≥ λ, η < 1/β (checked)".into(),
            "K = t iterations".into(),
        ],
        notes: vec![tr.note()],
    })
}

/// CYS21 Thm 2 (eq. 16) holds under a c-LSI of the tracing diffusions, which a run's
/// parameters do not state (Cor 1 is its strongly convex case).
pub(super) fn thm_2(_: &Setting) -> Result<RdpBound> {
    Err(hyp(
        ResultId::Cys21Thm2,
        "the tracing diffusions satisfy a c-LSI",
        "an LSI constant is not a setting flag (Cor 1 is its strongly convex case)",
    ))
}

/// CYS21 Cor 2 (eq. 18) is a statement about the squared loss ½‖θ − x‖², not about a
/// class of runs.
pub(super) fn cor_2(_: &Setting) -> Result<RdpBound> {
    Err(hyp(
        ResultId::Cys21Cor2,
        "loss ½‖θ − x‖²",
        "a statement about one loss, not a setting class",
    ))
}
