//! CYS21 (Chourasia, Ye, Shokri, NeurIPS 2021) in the validator: Thms 1–3, Cors 1–2 and
//! the composition baseline of Fig. 1, translated to the toolkit's model (σ′ = σ√(η/2),
//! S_g = L, λ = m, β = M; [`Cys21Params`]) and checked against exact full-batch Gaussian
//! instances (see [`super::renyi`] for the shared regions, instances and rounding).
use super::catalogue::{Entry, curvatures};
use super::common::{LabelledInstance, RENYI_ORDERS, RenyiCase};
use super::renyi::*;
use shiftdp::error::Result;
use shiftdp::precision::Enclosure;
use shiftdp::provenance::ResultId;
use shiftdp::renyi::cys21::Cys21Params;
use shiftdp::settings::{Algorithm, Setting};

/// CYS21 Thm 1.
pub const CYS21_THM1: &str = shiftdp::provenance::ResultId::Cys21Thm1.as_str();
/// CYS21 Thm 2 (eq. 16).
pub const CYS21_THM2: &str = shiftdp::provenance::ResultId::Cys21Thm2.as_str();
/// CYS21 Cor 1.
pub const CYS21_COR1: &str = shiftdp::provenance::ResultId::Cys21Cor1.as_str();
/// CYS21 Thm 3 (eq. 17), a lower bound.
pub const CYS21_THM3: &str = shiftdp::provenance::ResultId::Cys21Thm3.as_str();
/// CYS21 Cor 2 (eq. 18).
pub const CYS21_COR2: &str = shiftdp::provenance::ResultId::Cys21Cor2.as_str();
/// CYS21 composition baseline.
pub const CYS21_BASE: &str = shiftdp::provenance::ResultId::Cys21Baseline.as_str();

fn cys21_of(s: &Setting) -> Result<Cys21Params> {
    Cys21Params::new(
        sigma_prime(s),
        s.sensitivity().upper_f64(),
        m_or(s, 0.0),
        big_m_or(s, 0.0),
        s.eta().mid_f64(),
        s.n(),
    )
}

// ------------------------------------------------------------------- CYS21 hooks

fn cys21_thm1(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = cys21_of(s)?;
    let curve = curve_up(&|a| p.thm1(a, s.t(), bits))?;
    Ok(cases(full_any(s)?, &curve, false))
}

fn cys21_base(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = cys21_of(s)?;
    let curve = curve_up(&|a| p.baseline(a, s.t(), bits))?;
    Ok(cases(full_any(s)?, &curve, false))
}

/// Thm 2 at the LSI constant of the quadratic instances with curvature h ∈ [m, 1/η]:
/// their laws (and those of the tracing diffusions) are Gaussian with variance at most
/// `2σ′²/(h(2 − ηh))`, so c = m(2 − ηm)/(2σ′²) (Ent ≤ (2/c)E‖∇f‖²: N(·, v) has c = 1/v).
fn cys21_thm2(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = cys21_of(s)?;
    let (m, mm) = curvatures(s)?;
    let (m, eta) = (m.mid_f64(), s.eta().mid_f64());
    if !(m > 0.0 && eta * m <= 1.0) {
        return Err(hyp(
            ResultId::Cys21Thm2,
            "H1: the tracing diffusions satisfy c-LSI with c > 0",
            format!("validator's c = m(2 − ηm)/(2σ′²) needs 0 < ηm ≤ 1: η = {eta}, m = {m}"),
        ));
    }
    // lower end of c: smaller c gives a larger bound
    let c = widen_down(m * (2.0 - eta * m) / (2.0 * p.sigma * p.sigma));
    let curve = curve_up(&|a| p.thm2(a, s.t(), c, bits))?;
    let insts = vec![
        gauss(s, "quadratic h = m", m)?,
        gauss(s, "quadratic h = min(M, 1/η)", mm.mid_f64().min(1.0 / eta))?,
    ];
    Ok(cases(insts, &curve, false))
}

fn cys21_cor1(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = cys21_of(s)?;
    let curve = curve_up(&|a| p.cor1(a, s.t(), bits))?;
    Ok(cases(full_strong(s)?, &curve, false))
}

fn squared_loss(s: &Setting, id: ResultId) -> Result<()> {
    let is_one = |x: Option<&Enclosure>| {
        x.as_ref()
            .is_some_and(|e| e.lower_f64() >= 1.0 && e.upper_f64() <= 1.0)
    };
    if !(is_one(s.strong_convexity()) && is_one(s.smoothness())) {
        return Err(hyp(
            id,
            "squared loss ½‖θ − x‖²: m = M = 1",
            "set --strong-convexity 1 --smoothness 1".into(),
        ));
    }
    Ok(())
}

fn cys21_thm3(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    squared_loss(s, ResultId::Cys21Thm3)?;
    // a lower bound: σ′ rounded up, S_g and η at their lower ends, curve lowered
    let sp = (s.sigma().clone() * s.eta().half().sqrt()).upper_f64();
    let p = Cys21Params::new(
        sp,
        s.sensitivity().lower_f64(),
        1.0,
        1.0,
        s.eta().lower_f64(),
        s.n(),
    )?;
    let curve = RENYI_ORDERS
        .iter()
        .map(|&a| Ok((a, widen_down(p.thm3_lower(a, s.t(), bits)?.lower_f64()))))
        .collect::<Result<Vec<_>>>()?;
    Ok(cases(
        vec![gauss(s, "squared loss ½(θ − x)²", 1.0)?],
        &curve,
        true,
    ))
}

fn cys21_cor2(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    squared_loss(s, ResultId::Cys21Cor2)?;
    let p = cys21_of(s)?;
    let curve = curve_up(&|a| p.cor2(a, s.t(), bits))?;
    Ok(cases(
        vec![gauss(s, "squared loss ½(θ − x)²", 1.0)?],
        &curve,
        false,
    ))
}

instances_of!(i_cys21_thm1, cys21_thm1);
instances_of!(i_cys21_base, cys21_base);
instances_of!(i_cys21_thm2, cys21_thm2);
instances_of!(i_cys21_cor1, cys21_cor1);
instances_of!(i_cys21_thm3, cys21_thm3);
instances_of!(i_cys21_cor2, cys21_cor2);

/// The CYS21 entries of the validator.
pub fn entries() -> Vec<Entry> {
    use Algorithm::Gd;
    vec![
        entry(
            ResultId::Cys21Thm1,
            Gd,
            "n ∈ 1..5, t ∈ 1..200, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]; instances linear, h = 0.5/η, h = −0.25/η",
            12,
            sample_any,
            i_cys21_thm1,
            cys21_thm1,
        ),
        entry(
            ResultId::Cys21Thm2,
            Gd,
            "n ∈ 1..5, t ∈ 1..300, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]; c = m(2 − ηm)/(2σ′²)",
            12,
            sample_gd_strong,
            i_cys21_thm2,
            cys21_thm2,
        ),
        entry(
            ResultId::Cys21Cor1,
            Gd,
            "n ∈ 1..5, t ∈ 1..300, η ∈ [0.05, 1], M ∈ [0.05, 1.2/η], m ∈ [0.01, M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            12,
            sample_gd_cor1,
            i_cys21_cor1,
            cys21_cor1,
        ),
        entry(
            ResultId::Cys21Thm3,
            Gd,
            "squared loss (m = M = 1), n ∈ 1..5, t ∈ 1..300, η ∈ [0.01, 0.99], σ ∈ [0.3, 3], L ∈ [0.1, 2]; lower bound ≤ exact",
            12,
            sample_thm3,
            i_cys21_thm3,
            cys21_thm3,
        ),
        entry(
            ResultId::Cys21Cor2,
            Gd,
            "squared loss (m = M = 1), n ∈ 1..5, t ∈ 1..300, η ∈ [0.01, 1.99], σ ∈ [0.3, 3], L ∈ [0.1, 2]",
            12,
            sample_cor2,
            i_cys21_cor2,
            cys21_cor2,
        ),
        entry(
            ResultId::Cys21Baseline,
            Gd,
            "n ∈ 1..5, t ∈ 1..200, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]; instances linear, h = 0.5/η, h = −0.25/η",
            12,
            sample_any,
            i_cys21_base,
            cys21_base,
        ),
    ]
}
