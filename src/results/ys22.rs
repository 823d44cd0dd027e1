//! YS22's Rényi-DP results for mini-batch noisy GD and SGD (Ye, Shokri, NeurIPS 2022),
//! in the paper's convention through [`Translated`], and the sampled-Gaussian
//! baseline they compare with.
use super::translation::{
    BASELINE_DIVERGENCE_CAP, BITS, Translated, grid, linear_from, tabulate_until, ys22_params,
};
use crate::error::{Result, hyp};
use crate::precision::Enclosure;
use crate::provenance::ResultId;
use crate::renyi::RenyiCurve;
use crate::renyi::curve::tabulate;
use crate::renyi::sampled_gaussian::SampledGaussian;
use crate::renyi::ys22::Ys22Params;
use crate::settings::{Algorithm, Setting};
use crate::tradeoff::RdpBound;

/// Title of Thm 4.3.
pub(super) const THM_4_3_TITLE: &str = "noisy SGD, fixed-size batches sampled without replacement";
/// Title of the sampled-Gaussian baseline.
pub(super) const BASELINE_TITLE: &str = "RDP composition of the sampled Gaussian mechanism";
/// Title of the shuffle-and-partition results (Thms 4.2 and 2.1).
pub(super) const SHUFFLED_TITLE: &str = "noisy mini-batch GD under shuffle-and-partition";

/// YS22 Thm 3.3: fixed-order mini-batches, the worst position j₀ = n/b − 1.
pub(super) fn thm_3_3(s: &Setting) -> Result<RdpBound> {
    let tr = Translated::of(s);
    let (p, k) = ys22_params(s, &tr, ResultId::Ys22Thm3_3)?;
    let j0 = s.n / s.b - 1;
    Ok(RdpBound {
        curve: linear_from(&|a| p.thm3_3(a, k, j0, BITS))?,
        hypotheses: vec![
            "λ-strongly convex, β-smooth, η < 2/(λ+β) (checked)".into(),
            format!("K = {k} epochs, worst position j₀ = n/b − 1 = {j0}"),
        ],
        notes: vec![
            tr.note(),
            "the last batch is the worst position: ε₀^j decreases in j".into(),
        ],
    })
}

/// YS22 Thm 4.3: noisy SGD with batches sampled without replacement each step; the
/// recursion (eq. 6) in log space, tabulated (it is not linear in α).
pub(super) fn thm_4_3(s: &Setting) -> Result<RdpBound> {
    let tr = Translated::of(s);
    let (p, k) = ys22_params(s, &tr, ResultId::Ys22Thm4_3)?;
    let conv = p.thm4_3(2.0, k, 64).map(|x| x.converges).unwrap_or(false);
    let curve = tabulate(&grid(-24, 40, 2), &|a| {
        p.thm4_3(a, k, BITS).map(|x| x.epsilon)
    })?;
    Ok(RdpBound {
        curve,
        hypotheses: vec![
            "λ-strongly convex, β-smooth, η < 2/(λ+β) (checked)".into(),
            format!("sampling without replacement each step, K = {k} epochs"),
        ],
        notes: vec![
            tr.note(),
            format!("recursion (eq. 6) in log space; converges as K → ∞ at α = 2: {conv}"),
        ],
    })
}

/// The t-fold RDP composition of the sampled Gaussian mechanism (MTZ19), both orders,
/// at q = b/n and noise multiplier bσ/L; tabulated up to the first order whose
/// composed divergence exceeds [`BASELINE_DIVERGENCE_CAP`].
pub(super) fn baseline(s: &Setting) -> Result<RdpBound> {
    let unit = s.unit();
    let q = s.p().upper_f64();
    let sig = (Enclosure::from_u64(128, 1) / unit).lower_f64();
    let m = SampledGaussian::new(q, sig)?;
    let curve = tabulate_until(&grid(-16, 32, 4), BASELINE_DIVERGENCE_CAP, &|a| {
        let c = m.composed_curve(s.t, a, a)?;
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
}

/// YS22 Thm 4.2 (shuffle-and-partition, a log-average not linear in α: tabulated).
pub(super) fn thm_4_2(s: &Setting) -> Result<RdpBound> {
    shuffled(s, ResultId::Ys22Thm4_2, &|p, k| {
        tabulate(&grid(-24, 40, 2), &|a| p.thm4_2(a, k, BITS))
    })
}

/// YS22 Thm 2.1, the naive extension of CYS21 to shuffled mini-batches.
pub(super) fn thm_2_1(s: &Setting) -> Result<RdpBound> {
    shuffled(s, ResultId::Ys22Thm2_1, &|p, k| {
        linear_from(&|a| p.thm2_1(a, k, BITS))
    })
}

/// A shuffle-and-partition result for a cyclic run whose order is one random
/// permutation ([`Setting::with_order_shuffled_once`]): `curve` of the paper's
/// parameters and `K`; other runs fail its batching hypothesis.
fn shuffled(
    s: &Setting,
    id: ResultId,
    curve: &dyn Fn(&Ys22Params, u64) -> Result<RenyiCurve>,
) -> Result<RdpBound> {
    if s.algorithm != Algorithm::Cgd || !s.shuffled_once {
        return Err(hyp(
            id,
            "shuffle-and-partition batches (one random permutation per run)",
            "`compare` models fixed-order (cgd) and per-step sampled (sgd) batches only",
        ));
    }
    let tr = Translated::of(s);
    let (p, k) = ys22_params(s, &tr, id)?;
    Ok(RdpBound {
        curve: curve(&p, k)?,
        hypotheses: vec![
            "λ-strongly convex, β-smooth, η < 2/(λ+β) (checked)".into(),
            format!("K = {k} epochs, one random permutation for the whole run"),
        ],
        notes: vec![tr.note()],
    })
}
