//! YS22 (Ye, Shokri, NeurIPS 2022) in the validator: Thms 2.1, 3.3, 4.2, 4.3, Cor 5.3 and
//! the baseline, translated to the toolkit's model ([`Ys22Params`], [`Cor53Params`]) and
//! checked against cyclic Gaussian instances, shuffle/partition mixtures and sampling
//! without replacement (see [`super::renyi`] for the shared parts).
use super::catalogue::{Entry, curvatures};
use super::common::{LabelledInstance, RenyiCase};
use super::renyi::*;
use shiftdp::error::Result;
use shiftdp::provenance::ResultId;
use shiftdp::renyi::ys22::{Cor53Params, Ys22Params};
use shiftdp::settings::{Algorithm, Setting};

/// YS22 Thm 2.1.
pub const YS22_THM21: &str = shiftdp::provenance::ResultId::Ys22Thm2_1.as_str();
/// YS22 Thm 3.3.
pub const YS22_THM33: &str = shiftdp::provenance::ResultId::Ys22Thm3_3.as_str();
/// YS22 Thm 4.2.
pub const YS22_THM42: &str = shiftdp::provenance::ResultId::Ys22Thm4_2.as_str();
/// YS22 Thm 4.3.
pub const YS22_THM43: &str = shiftdp::provenance::ResultId::Ys22Thm4_3.as_str();
/// YS22 Cor 5.3.
pub const YS22_COR53: &str = shiftdp::provenance::ResultId::Ys22Cor5_3.as_str();
/// YS22 composition baseline.
pub const YS22_BASE: &str = shiftdp::provenance::ResultId::Ys22Baseline.as_str();

fn ys22_of(s: &Setting) -> Result<Ys22Params> {
    Ys22Params::new(
        sigma_prime(s),
        s.sensitivity().upper_f64(),
        m_or(s, 1.0),
        big_m_or(s, 1.0),
        s.eta().mid_f64(),
        s.n(),
        s.b(),
    )
}

// ------------------------------------------------------------------- YS22 hooks

fn ys22_thm21(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, ResultId::Ys22Thm2_1)?;
    let curve = curve_up(&|a| p.thm2_1(a, k, bits))?;
    Ok(cases(shuffle_cases(s)?, &curve, false))
}

fn ys22_thm33(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, ResultId::Ys22Thm3_3)?;
    // hypotheses first (position 0), then one curve per position
    p.thm3_3(2.0, k, 0, bits)?;
    let (m, mm) = curvatures(s)?;
    let insts = cyclic_positions(
        s,
        &[
            ("quadratic h = m", m.mid_f64()),
            ("quadratic h = M", mm.mid_f64()),
        ],
    )?;
    let mut out = vec![];
    for (pos, (label, instance)) in insts {
        let curve = curve_up(&|a| p.thm3_3(a, k, pos, bits))?;
        out.push(RenyiCase {
            label,
            instance,
            curve,
            lower: false,
        });
    }
    Ok(out)
}

fn ys22_thm42(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, ResultId::Ys22Thm4_2)?;
    let curve = curve_up(&|a| p.thm4_2(a, k, bits))?;
    Ok(cases(shuffle_cases(s)?, &curve, false))
}

fn ys22_thm43(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, ResultId::Ys22Thm4_3)?;
    let curve = curve_up(&|a| Ok(p.thm4_3(a, k, bits)?.epsilon))?;
    let (m, mm) = curvatures(s)?;
    let eta = s.eta().mid_f64();
    let insts = sgd_mixtures(
        s,
        &[
            ("quadratic h = m", m.mid_f64()),
            ("quadratic h = min(M, 1/η)", mm.mid_f64().min(1.0 / eta)),
        ],
    )?;
    Ok(cases(insts, &curve, false))
}

/// Cor 5.3 from a setting: λ = m, feature clip F = √(2(M − λ) − 1) (β = (F²+1)/2 + λ),
/// S_g = L, σ_mul = 2bσ/L (DP-SGD noise η σ_mul (S_g/2)/b = ησ).
pub fn cor53_of(s: &Setting) -> Result<Cor53Params> {
    let (m, mm) = curvatures(s)?;
    let (lam, beta) = (m.mid_f64(), mm.mid_f64());
    let f2 = 2.0 * (beta - lam) - 1.0;
    if f2.is_nan() || f2 <= 0.0 {
        return Err(hyp(
            ResultId::Ys22Cor5_3,
            "regularized logistic regression: β = (F² + 1)/2 + λ with F > 0",
            format!("M − m = {} ≤ 1/2", beta - lam),
        ));
    }
    let sg = s.sensitivity().upper_f64();
    Ok(Cor53Params {
        lambda: lam,
        feature_clip: f2.sqrt(),
        s_g: sg,
        sigma_mul: widen_down(2.0 * s.b() as f64 * s.sigma().lower_f64() / sg),
        eta: s.eta().mid_f64(),
        n: s.n(),
        b: s.b(),
    })
}

fn ys22_cor53(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let c = cor53_of(s)?;
    let (k, _) = epochs(s, ResultId::Ys22Cor5_3)?;
    let curve = curve_up(&|a| c.epsilon(a, k, bits))?;
    Ok(cases(shuffle_cases(s)?, &curve, false))
}

fn ys22_base(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, ResultId::Ys22Baseline)?;
    let curve = curve_up(&|a| p.baseline(a, k, bits))?;
    Ok(cases(sgd_mixtures(s, &[("linear", 0.0)])?, &curve, false))
}

instances_of!(i_ys22_thm21, ys22_thm21);
instances_of!(i_ys22_thm33, ys22_thm33);
instances_of!(i_ys22_thm42, ys22_thm42);
instances_of!(i_ys22_thm43, ys22_thm43);
instances_of!(i_ys22_cor53, ys22_cor53);
instances_of!(i_ys22_base, ys22_base);

/// The YS22 entries of the validator.
pub fn entries() -> Vec<Entry> {
    use Algorithm::{Cgd, Sgd};
    vec![
        entry(
            ResultId::Ys22Thm2_1,
            Cgd,
            "shuffle and partition: b ∈ 1..3, n/b ∈ 2..5, K ∈ 1..20, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            10,
            sample_batches_long,
            i_ys22_thm21,
            ys22_thm21,
        ),
        entry(
            ResultId::Ys22Thm3_3,
            Cgd,
            "fixed order, every position j₀: b ∈ 1..3, n/b ∈ 2..5, K ∈ 1..20, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            10,
            sample_batches_long,
            i_ys22_thm33,
            ys22_thm33,
        ),
        entry(
            ResultId::Ys22Thm4_2,
            Cgd,
            "shuffle and partition: b ∈ 1..3, n/b ∈ 2..5, K ∈ 1..20, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            10,
            sample_batches_long,
            i_ys22_thm42,
            ys22_thm42,
        ),
        entry(
            ResultId::Ys22Thm4_3,
            Sgd,
            "sampling w/o replacement: b ∈ 1..3, n/b ∈ 2..4, K ∈ 1..⌊8/l⌋ (t ≤ 8), η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            6,
            sample_batches_short,
            i_ys22_thm43,
            ys22_thm43,
        ),
        entry(
            ResultId::Ys22Cor5_3,
            Cgd,
            "logistic-regression constants: b ∈ 1..3, n/b ∈ 2..5, K ∈ 1..20, λ ∈ [0.01, 0.5], F ∈ [0.1, 2], β = (F²+1)/2 + λ, S_g ∈ [0.1, 2], σ_mul ∈ [0.5, 4], η ∈ [0.05, 2.1/(β+λ)]; quadratic instances of Thm 4.2's class",
            10,
            sample_cor53,
            i_ys22_cor53,
            ys22_cor53,
        ),
        entry(
            ResultId::Ys22Baseline,
            Sgd,
            "sampling w/o replacement, linear loss: b ∈ 1..3, n/b ∈ 2..4, K ∈ 1..4, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            4,
            sample_sgd_baseline,
            i_ys22_base,
            ys22_base,
        ),
    ]
}
