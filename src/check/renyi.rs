//! Rényi-DP entries of the validator: CYS21, YS22 and AT22 bounds checked against exact
//! instances at the orders [`RENYI_ORDERS`](super::RENYI_ORDERS).
//!
//! Each entry samples settings in the toolkit's model (SPEC §2) and translates them to the
//! paper's convention where needed: CYS21 and YS22 use σ′ with per-step noise √(2η)σ′ =
//! ησ, i.e. σ′ = σ√(η/2) (`Cys21Params::to_toolkit`, `Ys22Params::to_toolkit`), gradient
//! sensitivity S_g = L, λ = m, β = M; AT22 rows come from
//! [`crate::renyi::at22::compare_bounds`] (which already takes the toolkit's L = 2L_AT).
//!
//! # Formula
//! An upper bound ε(λ) must satisfy `ε(λ) ≥ D_λ(P‖Q)` and `ε(λ) ≥ D_λ(Q‖P)` for every
//! instance of its setting; the lower bound of CYS21 Thm 3 must satisfy
//! `ε_lower(λ) ≤ D_λ` on its own instance (the squared loss, curvature 1). Instances:
//! * full batches (CYS21, AT22 Props 2.17/5.6): 1-D Gaussian instances on linear and
//!   quadratic losses (curvatures named in each case), the anisotropic `diag(m, M)`;
//! * fixed-order (cyclic) batches (YS22 Thm 3.3, AT22 cyclic): Gaussian instances for
//!   the record at *every* position `j₀`, each checked against the bound for `j₀`;
//! * shuffle and partition (YS22 Thms 2.1, 4.2, Cor 5.3): the record's position is
//!   uniform over the `l = n/b` batches, fixed over the epochs, so the output is the
//!   Gaussian location mixture `(1/l) Σ_j N(M_j, v)` with `M_j` the summed contracted
//!   updates of position j ([`MixtureInstance`] with exact atoms), both [`PairKind`]s;
//! * sampling without replacement (YS22 Thm 4.3, baseline): [`MixtureInstance::sgd`]
//!   (the record is in each step's batch with probability b/n independently);
//! * constrained (AT22 Prop 3.2, (B.1)–(B.3)): clamped walks on `[−D/2, D/2]`.
//!
//! # Rounding
//! Curves are the upper ends (lower ends for Thm 3) of the library's enclosures. The
//! CYS21/YS22 functions take f64 parameters: σ′ is the lower end of the enclosure of
//! `σ√(η/2)`, and the curve is then widened by the relative factor `1 ± 1e−12`
//! ([`INPUT_SLACK`]), which covers the f64 conversions of the typed decimals (≤ a few
//! ulps), so an exactly tight bound is never reported as violated by rounding alone.
//!
//! # References
//! R. Chourasia, J. Ye, R. Shokri, NeurIPS 2021 (CYS21) Thms 1–3, Cors 1–2, Fig 1;
//! J. Ye, R. Shokri, NeurIPS 2022 (YS22) Thms 2.1, 3.3, 4.2, 4.3, Cor 5.3, Fig 2;
//! J. Altschuler, K. Talwar, NeurIPS 2022 (AT22) Props 2.17, 3.2, 5.6, (B.1)–(B.3).
use super::catalogue::{
    BoundHook, Entry, Params, aniso, constrained, curvatures, cyclic_sched, enc, full_sched, num,
    scalar, sgd_shape,
};
use super::common::{LabelledInstance, RENYI_ORDERS, RenyiCase, SplitMix64};
use crate::error::{Error, Result};
use crate::exact::clamped::{ClampStep, ClampedInstance, ClampedWalk};
use crate::exact::{Instance, MixtureInstance, PairKind, ShiftLaw};
use crate::precision::Enclosure;
use crate::renyi::at22;
use crate::renyi::at22_theorems::QReading;
use crate::renyi::cys21::Cys21Params;
use crate::renyi::ys22::{Cor53Params, Ys22Params};
use crate::settings::{Algorithm, Setting};

/// Relative widening of curves computed from f64 inputs (see the module's `# Rounding`).
pub const INPUT_SLACK: f64 = 1e-12;

/// CYS21 Thm 1.
pub const CYS21_THM1: &str = crate::provenance::ResultId::Cys21Thm1.as_str();
/// CYS21 Thm 2 (eq. 16).
pub const CYS21_THM2: &str = crate::provenance::ResultId::Cys21Thm2.as_str();
/// CYS21 Cor 1.
pub const CYS21_COR1: &str = crate::provenance::ResultId::Cys21Cor1.as_str();
/// CYS21 Thm 3 (eq. 17), a lower bound.
pub const CYS21_THM3: &str = crate::provenance::ResultId::Cys21Thm3.as_str();
/// CYS21 Cor 2 (eq. 18).
pub const CYS21_COR2: &str = crate::provenance::ResultId::Cys21Cor2.as_str();
/// CYS21 composition baseline.
pub const CYS21_BASE: &str = crate::provenance::ResultId::Cys21Baseline.as_str();
/// YS22 Thm 2.1.
pub const YS22_THM21: &str = crate::provenance::ResultId::Ys22Thm2_1.as_str();
/// YS22 Thm 3.3.
pub const YS22_THM33: &str = crate::provenance::ResultId::Ys22Thm3_3.as_str();
/// YS22 Thm 4.2.
pub const YS22_THM42: &str = crate::provenance::ResultId::Ys22Thm4_2.as_str();
/// YS22 Thm 4.3.
pub const YS22_THM43: &str = crate::provenance::ResultId::Ys22Thm4_3.as_str();
/// YS22 Cor 5.3.
pub const YS22_COR53: &str = crate::provenance::ResultId::Ys22Cor5_3.as_str();
/// YS22 composition baseline.
pub const YS22_BASE: &str = crate::provenance::ResultId::Ys22Baseline.as_str();
/// AT22 PABI on cyclic batches (the id of [`at22::compare_bounds`]).
pub const AT22_CYCLIC: &str = crate::provenance::ResultId::At22Cyclic.as_str();

fn hyp(result: &str, h: &str, detail: String) -> Error {
    Error::Hypothesis {
        result: result.into(),
        hypothesis: h.into(),
        detail,
    }
}

fn widen_up(v: f64) -> f64 {
    v * (1.0 + INPUT_SLACK)
}

fn widen_down(v: f64) -> f64 {
    v / (1.0 + INPUT_SLACK)
}

/// σ′ = σ√(η/2) (lower end), η, L, n of a setting.
fn sigma_prime(s: &Setting) -> f64 {
    (s.sigma.clone() * s.eta.half().sqrt()).lower_f64()
}

fn m_or(s: &Setting, d: f64) -> f64 {
    s.m.as_ref().map_or(d, |m| m.mid_f64())
}

fn big_m_or(s: &Setting, d: f64) -> f64 {
    s.big_m.as_ref().map_or(d, |m| m.mid_f64())
}

fn cys21_of(s: &Setting) -> Result<Cys21Params> {
    Cys21Params::new(
        sigma_prime(s),
        s.l.upper_f64(),
        m_or(s, 0.0),
        big_m_or(s, 0.0),
        s.eta.mid_f64(),
        s.n,
    )
}

/// Whole epochs K = t/l of a batched setting, l = n/b.
fn epochs(s: &Setting, id: &str) -> Result<(u64, u64)> {
    if s.b == 0 || !s.n.is_multiple_of(s.b) {
        return Err(hyp(
            id,
            "H4: b divides n",
            format!("n = {}, b = {}", s.n, s.b),
        ));
    }
    let l = s.n / s.b;
    if !s.t.is_multiple_of(l) {
        return Err(hyp(
            id,
            "whole epochs: t = K·n/b",
            format!("t = {}, n/b = {l}", s.t),
        ));
    }
    Ok((s.t / l, l))
}

fn ys22_of(s: &Setting) -> Result<Ys22Params> {
    Ys22Params::new(
        sigma_prime(s),
        s.l.upper_f64(),
        m_or(s, 1.0),
        big_m_or(s, 1.0),
        s.eta.mid_f64(),
        s.n,
        s.b,
    )
}

/// The curve `(λ, upper end of f(λ))` on [`RENYI_ORDERS`].
fn curve_up(f: &dyn Fn(f64) -> Result<Enclosure>) -> Result<Vec<(f64, f64)>> {
    RENYI_ORDERS
        .iter()
        .map(|&l| Ok((l, widen_up(f(l)?.upper_f64()))))
        .collect()
}

fn cases(insts: Vec<LabelledInstance>, curve: &[(f64, f64)], lower: bool) -> Vec<RenyiCase> {
    insts
        .into_iter()
        .map(|(label, instance)| RenyiCase {
            label,
            instance,
            curve: curve.to_vec(),
            lower,
        })
        .collect()
}

fn gauss(s: &Setting, name: &str, h: f64) -> Result<LabelledInstance> {
    let sched = full_sched(s)?;
    Ok((format!("{name} (h = {h:.4})"), scalar(&sched, &enc(h), s)?))
}

// ------------------------------------------------------------------- samplers

fn sample_any(r: &mut SplitMix64) -> Params {
    super::catalogue::sample_gd_any(r)
}

/// Full batch, strongly convex with η < 1/M (CYS21 Cor 1, Lemma 5): M ≤ 1.2/η so some
/// points fail H3 and are counted.
fn sample_gd_cor1(r: &mut SplitMix64) -> Params {
    let eta = r.dec(0.05, 1.0);
    let big_m = r.dec(0.05, 1.2 / num(&eta));
    let m = r.dec(0.01, num(&big_m));
    vec![
        ("n", r.int(1, 5).to_string()),
        ("steps", r.int(1, 300).to_string()),
        ("noise", r.dec(0.5, 3.0)),
        ("sensitivity", r.dec(0.1, 2.0)),
        ("eta", eta),
        ("smoothness", big_m),
        ("strong-convexity", m),
    ]
}

fn sample_squared(r: &mut SplitMix64, eta_hi: f64) -> Params {
    vec![
        ("n", r.int(1, 5).to_string()),
        ("steps", r.int(1, 300).to_string()),
        ("eta", r.dec(0.01, eta_hi)),
        ("noise", r.dec(0.3, 3.0)),
        ("sensitivity", r.dec(0.1, 2.0)),
        ("strong-convexity", "1".into()),
        ("smoothness", "1".into()),
    ]
}

fn sample_thm3(r: &mut SplitMix64) -> Params {
    sample_squared(r, 0.99)
}

fn sample_cor2(r: &mut SplitMix64) -> Params {
    sample_squared(r, 1.99)
}

/// Batches: b ∈ 1..3, l ∈ 2..5, n = bl, K ∈ 1..kmax, t = Kl; η ∈ [0.05, 1],
/// M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M] (η ≥ 2/(m+M) is skipped: H2).
fn sample_batches(r: &mut SplitMix64, kmax: u64) -> Params {
    sample_batches_l(r, 5, kmax)
}

fn sample_batches_l(r: &mut SplitMix64, lmax: u64, kmax: u64) -> Params {
    let b = r.int(1, 3);
    let l = r.int(2, lmax);
    let k = r.int(1, kmax);
    let eta = r.dec(0.05, 1.0);
    let big_m = r.dec(0.05, 2.1 / num(&eta));
    let m = r.dec(0.01, 0.9 * num(&big_m));
    vec![
        ("n", (b * l).to_string()),
        ("batch", b.to_string()),
        ("steps", (k * l).to_string()),
        ("eta", eta),
        ("noise", r.dec(0.5, 3.0)),
        ("sensitivity", r.dec(0.1, 2.0)),
        ("smoothness", big_m),
        ("strong-convexity", m),
    ]
}

fn sample_batches_long(r: &mut SplitMix64) -> Params {
    sample_batches(r, 20)
}

/// As [`sample_batches`] with l ∈ 2..4 and t = Kl ≤ 8 (the mixture law of a quadratic
/// loss has up to 2ᵗ atoms).
fn sample_batches_short(r: &mut SplitMix64) -> Params {
    let mut p = sample_batches_l(r, 4, 1);
    let l: u64 = num(&p[0].1) as u64 / num(&p[1].1) as u64;
    let k = r.int(1, 8 / l);
    p[2].1 = (k * l).to_string();
    p
}

/// Cor 5.3: λ ∈ [0.01, 0.5], feature clip F ∈ [0.1, 2], β = (F²+1)/2 + λ, S_g ∈ [0.1, 2],
/// σ_mul ∈ [0.5, 4] (noise σ = σ_mul S_g/(2b)), η ∈ [0.05, 2.1/(β + λ)].
fn sample_cor53(r: &mut SplitMix64) -> Params {
    let b = r.int(1, 3);
    let l = r.int(2, 5);
    let k = r.int(1, 20);
    let lam = num(&r.dec(0.01, 0.5));
    let f = num(&r.dec(0.1, 2.0));
    let beta = (f * f + 1.0) / 2.0 + lam;
    let sg = num(&r.dec(0.1, 2.0));
    let smul = num(&r.dec(0.5, 4.0));
    vec![
        ("n", (b * l).to_string()),
        ("batch", b.to_string()),
        ("steps", (k * l).to_string()),
        ("eta", r.dec(0.05, 2.1 / (beta + lam))),
        ("noise", format!("{}", smul * sg / (2.0 * b as f64))),
        ("sensitivity", format!("{sg}")),
        ("smoothness", format!("{beta}")),
        ("strong-convexity", format!("{lam}")),
    ]
}

/// Sampling without replacement, linear loss: n ∈ 4..12, b | n with n/b ≥ 2, K ∈ 1..4.
fn sample_sgd_baseline(r: &mut SplitMix64) -> Params {
    let b = r.int(1, 3);
    let l = r.int(2, 4);
    let k = r.int(1, 4);
    vec![
        ("n", (b * l).to_string()),
        ("batch", b.to_string()),
        ("steps", (k * l).to_string()),
        ("eta", r.dec(0.05, 1.0)),
        ("noise", r.dec(0.5, 3.0)),
        ("sensitivity", r.dec(0.1, 2.0)),
    ]
}

fn sample_gd_c1(r: &mut SplitMix64) -> Params {
    let mut p = sample_any(r);
    p.push(("contraction", "1".into()));
    p
}

fn sample_gd_strong(r: &mut SplitMix64) -> Params {
    super::catalogue::sample_gd_strong(r)
}

fn sample_gd_constrained(r: &mut SplitMix64) -> Params {
    super::catalogue::sample_gd_constrained(r)
}

/// Cyclic: half the points convex (c = 1, linear loss), half strongly convex.
fn sample_cgd_mixed(r: &mut SplitMix64) -> Params {
    if r.unit() < 0.5 {
        let mut p = super::catalogue::sample_cgd_any(r);
        p.push(("contraction", "1".into()));
        p
    } else {
        super::catalogue::sample_cgd_strong(r)
    }
}

fn sample_sgd_b2(r: &mut SplitMix64) -> Params {
    let mut p = sgd_shape(r, 20);
    let (q, _) = constrained(r, 1, 1.9);
    p.extend(q);
    p
}

fn sample_sgd_b3(r: &mut SplitMix64) -> Params {
    let mut p = sample_sgd_b2(r);
    let big_m = p
        .iter()
        .find(|x| x.0 == "smoothness")
        .map_or(1.0, |x| num(&x.1));
    p.push(("strong-convexity", r.dec(0.01, 0.9 * big_m)));
    p
}

// ------------------------------------------------------------------- instances

fn full_any(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let eta = s.eta.mid_f64();
    Ok(vec![
        gauss(s, "linear", 0.0)?,
        gauss(s, "quadratic h = 0.5/η", 0.5 / eta)?,
        gauss(s, "non-convex quadratic h = −0.25/η", -0.25 / eta)?,
    ])
}

fn full_strong(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let (m, mm) = curvatures(s)?;
    let f = crate::exact::Schedule::full(s.n, s.t as usize, s.eta.mid_f64(), s.sigma.mid_f64())?;
    Ok(vec![
        gauss(s, "quadratic h = m", m.mid_f64())?,
        gauss(s, "quadratic h = M", mm.mid_f64())?,
        aniso(&f, s)?,
    ])
}

/// Cyclic Gaussian instances at every position `j₀`, curvatures `hs`.
fn cyclic_positions(s: &Setting, hs: &[(&str, f64)]) -> Result<Vec<(u64, LabelledInstance)>> {
    let l = s.n / s.b;
    let mut v = vec![];
    for pos in 0..l {
        let sched = cyclic_sched(s, pos)?;
        for &(name, h) in hs {
            v.push((
                pos,
                (
                    format!("fixed order, {name}, position j₀ = {pos}"),
                    scalar(&sched, &enc(h), s)? as Box<dyn Instance>,
                ),
            ));
        }
    }
    Ok(v)
}

/// Shuffle and partition: the record's batch position is uniform over the l batches and
/// fixed over the K epochs; output law `(1/l) Σ_j N(M_j, v)`.
pub fn shuffle_partition(s: &Setting, h: f64, kind: PairKind) -> Result<MixtureInstance> {
    let (eta, sigma, l_sens) = (s.eta.mid_f64(), s.sigma.mid_f64(), s.l.mid_f64());
    if eta * h > 1.0 || h < 0.0 {
        return Err(Error::param(
            "strong-convexity",
            h,
            "shuffle instances need 0 ≤ ηh ≤ 1",
        ));
    }
    let l = s.n / s.b;
    let t = s.t as usize;
    let c = 1.0 - eta * h;
    let mut shifts = vec![0.0; l as usize];
    let mut var = 0.0;
    let mut w = 1.0; // c^{t−1−k}
    for k in (0..t).rev() {
        shifts[k % l as usize] += eta * l_sens / s.b as f64 * w;
        var += (eta * sigma * w).powi(2);
        w *= c;
    }
    let atoms = shifts.iter().map(|&m| (m, 1.0 / l as f64)).collect();
    let law = ShiftLaw::from_atoms(atoms)?;
    MixtureInstance::new(&law, var, kind)
}

fn shuffle_cases(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let (m, mm) = curvatures(s)?;
    let eta = s.eta.mid_f64();
    let mut v: Vec<LabelledInstance> = vec![];
    for (name, h) in [
        ("quadratic h = m", m.mid_f64()),
        ("quadratic h = min(M, 1/η)", mm.mid_f64().min(1.0 / eta)),
    ] {
        for kind in [PairKind::OneSided, PairKind::Opposite] {
            v.push((
                format!("shuffle and partition, {name}, {kind:?}"),
                Box::new(shuffle_partition(s, h, kind)?),
            ));
        }
    }
    Ok(v)
}

fn sgd_mixtures(s: &Setting, hs: &[(&str, f64)]) -> Result<Vec<LabelledInstance>> {
    super::catalogue::mixtures(s, hs, "sampling w/o replacement,")
}

/// Clamped walks on `[−D/2, D/2]` with inclusion probability `p` per step and the
/// given (name, curvature, start) list, both pair kinds.
fn clamped_walks(
    s: &Setting,
    p: f64,
    shapes: &[(&str, f64, f64)],
) -> Result<Vec<LabelledInstance>> {
    let d =
        s.d.as_ref()
            .ok_or_else(|| Error::param("diameter", "missing", "the region samples D"))?
            .mid_f64();
    let (eta, sigma, l) = (s.eta.mid_f64(), s.sigma.mid_f64(), s.l.mid_f64());
    let nodes = ((8.0 * d / (eta * sigma)).ceil() as usize).clamp(64, 240);
    let mut v: Vec<LabelledInstance> = vec![];
    for &(name, h, start) in shapes {
        let walk = ClampedWalk {
            lo: -0.5 * d,
            hi: 0.5 * d,
            start,
            center: 0.0,
            steps: (0..s.t as usize)
                .map(|_| ClampStep {
                    contraction: (1.0 - eta * h).clamp(0.0, 1.0),
                    noise_sd: eta * sigma,
                    drift: eta * l / s.b as f64,
                    p,
                })
                .collect(),
        };
        for kind in [PairKind::OneSided, PairKind::Opposite] {
            v.push((
                format!("clamped, {name}, {kind:?}"),
                Box::new(ClampedInstance::new(&walk, kind, nodes)?),
            ));
        }
    }
    Ok(v)
}

// ------------------------------------------------------------------- CYS21 hooks

fn cys21_thm1(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = cys21_of(s)?;
    let curve = curve_up(&|a| p.thm1(a, s.t, bits))?;
    Ok(cases(full_any(s)?, &curve, false))
}

fn cys21_base(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = cys21_of(s)?;
    let curve = curve_up(&|a| p.baseline(a, s.t, bits))?;
    Ok(cases(full_any(s)?, &curve, false))
}

/// Thm 2 at the LSI constant of the quadratic instances with curvature h ∈ [m, 1/η]:
/// their laws (and those of the tracing diffusions) are Gaussian with variance at most
/// `2σ′²/(h(2 − ηh))`, so c = m(2 − ηm)/(2σ′²) (Ent ≤ (2/c)E‖∇f‖²: N(·, v) has c = 1/v).
fn cys21_thm2(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = cys21_of(s)?;
    let (m, mm) = curvatures(s)?;
    let (m, eta) = (m.mid_f64(), s.eta.mid_f64());
    if !(m > 0.0 && eta * m <= 1.0) {
        return Err(hyp(
            CYS21_THM2,
            "H1: the tracing diffusions satisfy c-LSI with c > 0",
            format!("validator's c = m(2 − ηm)/(2σ′²) needs 0 < ηm ≤ 1: η = {eta}, m = {m}"),
        ));
    }
    // lower end of c: smaller c gives a larger bound
    let c = widen_down(m * (2.0 - eta * m) / (2.0 * p.sigma * p.sigma));
    let curve = curve_up(&|a| p.thm2(a, s.t, c, bits))?;
    let insts = vec![
        gauss(s, "quadratic h = m", m)?,
        gauss(s, "quadratic h = min(M, 1/η)", mm.mid_f64().min(1.0 / eta))?,
    ];
    Ok(cases(insts, &curve, false))
}

fn cys21_cor1(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = cys21_of(s)?;
    let curve = curve_up(&|a| p.cor1(a, s.t, bits))?;
    Ok(cases(full_strong(s)?, &curve, false))
}

fn squared_loss(s: &Setting, id: &str) -> Result<()> {
    let is_one = |x: &Option<Enclosure>| {
        x.as_ref()
            .is_some_and(|e| e.lower_f64() >= 1.0 && e.upper_f64() <= 1.0)
    };
    if !(is_one(&s.m) && is_one(&s.big_m)) {
        return Err(hyp(
            id,
            "squared loss ½‖θ − x‖²: m = M = 1",
            "set --strong-convexity 1 --smoothness 1".into(),
        ));
    }
    Ok(())
}

fn cys21_thm3(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    squared_loss(s, CYS21_THM3)?;
    // a lower bound: σ′ rounded up, S_g and η at their lower ends, curve lowered
    let sp = (s.sigma.clone() * s.eta.half().sqrt()).upper_f64();
    let p = Cys21Params::new(sp, s.l.lower_f64(), 1.0, 1.0, s.eta.lower_f64(), s.n)?;
    let curve = RENYI_ORDERS
        .iter()
        .map(|&a| Ok((a, widen_down(p.thm3_lower(a, s.t, bits)?.lower_f64()))))
        .collect::<Result<Vec<_>>>()?;
    Ok(cases(
        vec![gauss(s, "squared loss ½(θ − x)²", 1.0)?],
        &curve,
        true,
    ))
}

fn cys21_cor2(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    squared_loss(s, CYS21_COR2)?;
    let p = cys21_of(s)?;
    let curve = curve_up(&|a| p.cor2(a, s.t, bits))?;
    Ok(cases(
        vec![gauss(s, "squared loss ½(θ − x)²", 1.0)?],
        &curve,
        false,
    ))
}

// ------------------------------------------------------------------- YS22 hooks

fn ys22_thm21(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, YS22_THM21)?;
    let curve = curve_up(&|a| p.thm2_1(a, k, bits))?;
    Ok(cases(shuffle_cases(s)?, &curve, false))
}

fn ys22_thm33(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, YS22_THM33)?;
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
    let (k, _) = epochs(s, YS22_THM42)?;
    let curve = curve_up(&|a| p.thm4_2(a, k, bits))?;
    Ok(cases(shuffle_cases(s)?, &curve, false))
}

fn ys22_thm43(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, YS22_THM43)?;
    let curve = curve_up(&|a| Ok(p.thm4_3(a, k, bits)?.epsilon))?;
    let (m, mm) = curvatures(s)?;
    let eta = s.eta.mid_f64();
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
            YS22_COR53,
            "regularized logistic regression: β = (F² + 1)/2 + λ with F > 0",
            format!("M − m = {} ≤ 1/2", beta - lam),
        ));
    }
    let sg = s.l.upper_f64();
    Ok(Cor53Params {
        lambda: lam,
        feature_clip: f2.sqrt(),
        s_g: sg,
        sigma_mul: widen_down(2.0 * s.b as f64 * s.sigma.lower_f64() / sg),
        eta: s.eta.mid_f64(),
        n: s.n,
        b: s.b,
    })
}

fn ys22_cor53(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let c = cor53_of(s)?;
    let (k, _) = epochs(s, YS22_COR53)?;
    let curve = curve_up(&|a| c.epsilon(a, k, bits))?;
    Ok(cases(shuffle_cases(s)?, &curve, false))
}

fn ys22_base(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let p = ys22_of(s)?;
    let (k, _) = epochs(s, YS22_BASE)?;
    let curve = curve_up(&|a| p.baseline(a, k, bits))?;
    Ok(cases(sgd_mixtures(s, &[("linear", 0.0)])?, &curve, false))
}

// ------------------------------------------------------------------- AT22 hooks

/// The Rényi curve of the AT22 row `id` of [`at22::compare_bounds`] on [`RENYI_ORDERS`].
fn at22_curve(s: &Setting, id: &str, bits: u32) -> Result<Vec<(f64, f64)>> {
    let rows = at22::compare_bounds(s);
    let offered: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let row = rows.into_iter().find(|r| r.0 == id).ok_or_else(|| {
        hyp(
            id,
            "the setting selects this AT22 result",
            format!("offered: {}", offered.join(", ")),
        )
    })?;
    let b = row.3?;
    RENYI_ORDERS
        .iter()
        .map(|&a| Ok((a, b.curve.eval(a, bits)?.upper_f64())))
        .collect()
}

fn at22_217(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let curve = at22_curve(s, at22::PROP_2_17, bits)?;
    Ok(cases(
        vec![
            gauss(s, "linear", 0.0)?,
            gauss(s, "quadratic h = 0.5/η", 0.5 / s.eta.mid_f64())?,
        ],
        &curve,
        false,
    ))
}

fn at22_56(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let curve = at22_curve(s, at22::PROP_5_6, bits)?;
    Ok(cases(full_strong(s)?, &curve, false))
}

fn constrained_full(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let d = s.d.as_ref().map_or(0.0, |d| d.mid_f64());
    let eta = s.eta.mid_f64();
    let h = big_m_or(s, 0.0).min(1.0 / eta);
    clamped_walks(
        s,
        1.0,
        &[
            ("linear, start 0 (AT22)", 0.0, 0.0),
            ("linear, start −D/2", 0.0, -0.5 * d),
            ("quadratic h = min(M, 1/η), start 0", h, 0.0),
        ],
    )
}

fn at22_32(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let curve = at22_curve(s, at22::PROP_3_2, bits)?;
    Ok(cases(constrained_full(s)?, &curve, false))
}

fn at22_b1(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let curve = at22_curve(s, at22::EQ_B1, bits)?;
    Ok(cases(constrained_full(s)?, &curve, false))
}

fn at22_cyclic(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let curve = at22_curve(s, AT22_CYCLIC, bits)?;
    let hs: Vec<(&str, f64)> = match (&s.m, &s.big_m) {
        (Some(m), Some(mm)) => vec![
            ("quadratic h = m", m.mid_f64()),
            ("quadratic h = M", mm.mid_f64()),
        ],
        _ => vec![("linear", 0.0)],
    };
    let insts = cyclic_positions(s, &hs)?.into_iter().map(|x| x.1).collect();
    Ok(cases(insts, &curve, false))
}

/// Orders of the (B.2)/(B.3) checks (each order costs one noise-split search, about
/// 0.1 s in release).
pub const B_ORDERS: [f64; 3] = [2.0, 4.0, 8.0];

/// (B.2) / (B.3) in the adopted reading (Q over both orders of the sampled Gaussian
/// pair, ERRATA T1; the printed one-order Q is violated by clamped walks, see the builtin
/// `at22/errata-t1-printed-b2-violated-by-linear-walk`) at [`B_ORDERS`], through
/// [`at22::recipe_b_for_setting`] (the translation `compare` uses; its row tabulates 13
/// orders, more than the validator's sample counts need).
fn at22_recipe_b(s: &Setting, id: &str, bits: u32) -> Result<Vec<(f64, f64)>> {
    let selected = at22::recipe_b_id(s);
    if selected != id {
        return Err(hyp(
            id,
            "the setting selects this AT22 result",
            format!("the contraction selects {selected}"),
        ));
    }
    B_ORDERS
        .iter()
        .map(|&a| {
            // the adopted reading (ERRATA T1): Q over both orders, as `compare` reports
            let v = at22::recipe_b_for_setting(s, a, QReading::BothOrders, bits.min(64))?;
            Ok((a, v.upper_f64()))
        })
        .collect()
}

fn at22_b2(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let curve = at22_recipe_b(s, at22::EQ_B2, bits)?;
    let d = s.d.as_ref().map_or(0.0, |d| d.mid_f64());
    let p = s.b as f64 / s.n as f64;
    let insts = clamped_walks(
        s,
        p,
        &[
            ("linear, start 0 (AT22)", 0.0, 0.0),
            ("linear, start −D/2", 0.0, -0.5 * d),
        ],
    )?;
    Ok(cases(insts, &curve, false))
}

fn at22_b3(s: &Setting, bits: u32) -> Result<Vec<RenyiCase>> {
    let curve = at22_recipe_b(s, at22::EQ_B3, bits)?;
    let (m, mm) = curvatures(s)?;
    let eta = s.eta.mid_f64();
    let p = s.b as f64 / s.n as f64;
    let insts = clamped_walks(
        s,
        p,
        &[
            ("quadratic h = m, start 0", m.mid_f64(), 0.0),
            (
                "quadratic h = min(M, 1/η), start 0",
                mm.mid_f64().min(1.0 / eta),
                0.0,
            ),
        ],
    )?;
    Ok(cases(insts, &curve, false))
}

// ------------------------------------------------------------------- entries

macro_rules! instances_of {
    ($name:ident, $cases:path) => {
        fn $name(s: &Setting) -> Result<Vec<LabelledInstance>> {
            Ok($cases(s, 128)?
                .into_iter()
                .map(|c| (c.label, c.instance))
                .collect())
        }
    };
}

instances_of!(i_cys21_thm1, cys21_thm1);
instances_of!(i_cys21_base, cys21_base);
instances_of!(i_cys21_thm2, cys21_thm2);
instances_of!(i_cys21_cor1, cys21_cor1);
instances_of!(i_cys21_thm3, cys21_thm3);
instances_of!(i_cys21_cor2, cys21_cor2);
instances_of!(i_ys22_thm21, ys22_thm21);
instances_of!(i_ys22_thm33, ys22_thm33);
instances_of!(i_ys22_thm42, ys22_thm42);
instances_of!(i_ys22_thm43, ys22_thm43);
instances_of!(i_ys22_cor53, ys22_cor53);
instances_of!(i_ys22_base, ys22_base);
instances_of!(i_at22_217, at22_217);
instances_of!(i_at22_56, at22_56);
instances_of!(i_at22_32, at22_32);
instances_of!(i_at22_b1, at22_b1);
instances_of!(i_at22_cyclic, at22_cyclic);
instances_of!(i_at22_b2, at22_b2);
instances_of!(i_at22_b3, at22_b3);

#[allow(clippy::too_many_arguments)]
fn entry(
    id: &'static str,
    algorithm: Algorithm,
    region: &'static str,
    default_samples: usize,
    sample: fn(&mut SplitMix64) -> Params,
    instances: fn(&Setting) -> Result<Vec<LabelledInstance>>,
    hook: fn(&Setting, u32) -> Result<Vec<RenyiCase>>,
) -> Entry {
    Entry {
        id,
        algorithm,
        region,
        default_samples,
        sample,
        instances,
        bound: BoundHook::Renyi(hook),
    }
}

/// The Rényi entries: CYS21, YS22, then AT22. For these entries
/// [`Entry::instances`] returns the instances of the cases (bound curves dropped).
pub fn entries() -> Vec<Entry> {
    use Algorithm::{Cgd, Gd, Sgd};
    vec![
        entry(
            CYS21_THM1,
            Gd,
            "n ∈ 1..5, t ∈ 1..200, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]; instances linear, h = 0.5/η, h = −0.25/η",
            12,
            sample_any,
            i_cys21_thm1,
            cys21_thm1,
        ),
        entry(
            CYS21_THM2,
            Gd,
            "n ∈ 1..5, t ∈ 1..300, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]; c = m(2 − ηm)/(2σ′²)",
            12,
            sample_gd_strong,
            i_cys21_thm2,
            cys21_thm2,
        ),
        entry(
            CYS21_COR1,
            Gd,
            "n ∈ 1..5, t ∈ 1..300, η ∈ [0.05, 1], M ∈ [0.05, 1.2/η], m ∈ [0.01, M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            12,
            sample_gd_cor1,
            i_cys21_cor1,
            cys21_cor1,
        ),
        entry(
            CYS21_THM3,
            Gd,
            "squared loss (m = M = 1), n ∈ 1..5, t ∈ 1..300, η ∈ [0.01, 0.99], σ ∈ [0.3, 3], L ∈ [0.1, 2]; lower bound ≤ exact",
            12,
            sample_thm3,
            i_cys21_thm3,
            cys21_thm3,
        ),
        entry(
            CYS21_COR2,
            Gd,
            "squared loss (m = M = 1), n ∈ 1..5, t ∈ 1..300, η ∈ [0.01, 1.99], σ ∈ [0.3, 3], L ∈ [0.1, 2]",
            12,
            sample_cor2,
            i_cys21_cor2,
            cys21_cor2,
        ),
        entry(
            CYS21_BASE,
            Gd,
            "n ∈ 1..5, t ∈ 1..200, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]; instances linear, h = 0.5/η, h = −0.25/η",
            12,
            sample_any,
            i_cys21_base,
            cys21_base,
        ),
        entry(
            YS22_THM21,
            Cgd,
            "shuffle and partition: b ∈ 1..3, n/b ∈ 2..5, K ∈ 1..20, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            10,
            sample_batches_long,
            i_ys22_thm21,
            ys22_thm21,
        ),
        entry(
            YS22_THM33,
            Cgd,
            "fixed order, every position j₀: b ∈ 1..3, n/b ∈ 2..5, K ∈ 1..20, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            10,
            sample_batches_long,
            i_ys22_thm33,
            ys22_thm33,
        ),
        entry(
            YS22_THM42,
            Cgd,
            "shuffle and partition: b ∈ 1..3, n/b ∈ 2..5, K ∈ 1..20, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            10,
            sample_batches_long,
            i_ys22_thm42,
            ys22_thm42,
        ),
        entry(
            YS22_THM43,
            Sgd,
            "sampling w/o replacement: b ∈ 1..3, n/b ∈ 2..4, K ∈ 1..⌊8/l⌋ (t ≤ 8), η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            6,
            sample_batches_short,
            i_ys22_thm43,
            ys22_thm43,
        ),
        entry(
            YS22_COR53,
            Cgd,
            "logistic-regression constants: b ∈ 1..3, n/b ∈ 2..5, K ∈ 1..20, λ ∈ [0.01, 0.5], F ∈ [0.1, 2], β = (F²+1)/2 + λ, S_g ∈ [0.1, 2], σ_mul ∈ [0.5, 4], η ∈ [0.05, 2.1/(β+λ)]; quadratic instances of Thm 4.2's class",
            10,
            sample_cor53,
            i_ys22_cor53,
            ys22_cor53,
        ),
        entry(
            YS22_BASE,
            Sgd,
            "sampling w/o replacement, linear loss: b ∈ 1..3, n/b ∈ 2..4, K ∈ 1..4, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            4,
            sample_sgd_baseline,
            i_ys22_base,
            ys22_base,
        ),
        entry(
            at22::PROP_2_17,
            Gd,
            "c = 1: n ∈ 1..5, t ∈ 1..200, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            8,
            sample_gd_c1,
            i_at22_217,
            at22_217,
        ),
        entry(
            at22::PROP_3_2,
            Gd,
            "n ∈ 1..3, η ∈ [0.1, 1], σ ∈ [0.5, 2], L ∈ [0.5, 2], D ∈ [0.2, 2], M ∈ [0.1, 2.1/η] (c = 1), t ∈ ⌈Dn/(ηL)⌉ + 0..10 (≤ 50)",
            6,
            sample_gd_constrained,
            i_at22_32,
            at22_32,
        ),
        entry(
            at22::PROP_5_6,
            Gd,
            "n ∈ 1..5, t ∈ 1..300, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            8,
            sample_gd_strong,
            i_at22_56,
            at22_56,
        ),
        entry(
            at22::EQ_B1,
            Gd,
            "n ∈ 1..3, η ∈ [0.1, 1], σ ∈ [0.5, 2], L ∈ [0.5, 2], D ∈ [0.2, 2], M ∈ [0.1, 2.1/η] (c = 1), t ∈ ⌈Dn/(ηL)⌉ + 0..10 (≤ 50)",
            6,
            sample_gd_constrained,
            i_at22_b1,
            at22_b1,
        ),
        entry(
            AT22_CYCLIC,
            Cgd,
            "b ∈ 1..3, l ∈ 1..4, E ∈ 1..30, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]; half c = 1 (linear), half M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M]",
            6,
            sample_cgd_mixed,
            i_at22_cyclic,
            at22_cyclic,
        ),
        entry(
            at22::EQ_B2,
            Sgd,
            "n ∈ 4..20, b ∈ 1..n/2, t ∈ 1..20, η ∈ [0.1, 1], σ ∈ [0.5, 2], L ∈ [0.5, 2], D ∈ [0.2, 2], M ∈ [0.1, 1.9/η] (c = 1); Q over both orders (ERRATA T1)",
            6,
            sample_sgd_b2,
            i_at22_b2,
            at22_b2,
        ),
        entry(
            at22::EQ_B3,
            Sgd,
            "as (B.2) with m ∈ [0.01, 0.9M] (c < 1); Q over both orders (ERRATA T1)",
            6,
            sample_sgd_b3,
            i_at22_b3,
            at22_b3,
        ),
    ]
}
