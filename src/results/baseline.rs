//! The RDP composition baselines: the Gaussian mechanism's Rényi divergence αμ₀²/2,
//! μ₀ = L/(bσ) (Mironov 2017, Prop 7), summed over the steps that touch the record.
use crate::error::{Result, hyp};
use crate::precision::Enclosure;
use crate::provenance::ResultId;
use crate::renyi::RenyiCurve;
use crate::settings::Setting;
use crate::tradeoff::RdpBound;

/// Title of the full-batch baseline.
pub(super) const STEPS_TITLE: &str = "RDP composition of t Gaussian steps";
/// Title of the cyclic baseline.
pub(super) const RECORD_TITLE: &str = "RDP composition over the steps using the record";

/// The curve ρα of `k` Gaussian steps of unit μ₀: ρ = k·μ₀²/2.
fn composed(s: &Setting, k: u64) -> Result<RenyiCurve> {
    let unit = s.unit();
    RenyiCurve::linear_enclosure(unit.square().half() * Enclosure::from_u64(unit.prec(), k))
}

/// Full batch (GD, LMC): every one of the t steps touches the record.
pub(super) fn all_steps(s: &Setting) -> Result<RdpBound> {
    let t = s.t;
    Ok(RdpBound {
        curve: composed(s, t)?,
        hypotheses: vec!["gradient sensitivity L".into()],
        notes: vec![format!(
            "t = {t} Gaussian mechanisms of RDP αμ₀²/2, μ₀ = L/(bσ) (Mironov 2017, \
             Prop 7 and composition); equals CYS21 Thm 1 and their Fig 1 baseline"
        )],
    })
}

/// Cyclic batches (CGD): the record is used ⌈t/l⌉ times, l = n/b.
pub(super) fn record_steps(s: &Setting) -> Result<RdpBound> {
    let l = s
        .batches_per_epoch()
        .ok_or_else(|| hyp(ResultId::RdpComposition, "b divides n", ""))?;
    let touches = s.t.div_ceil(l);
    Ok(RdpBound {
        curve: composed(s, touches)?,
        hypotheses: vec![format!("each record is used ⌈t/l⌉ = {touches} times")],
        notes: vec!["RDP composition of the steps that use the record".into()],
    })
}
