//! What the Rényi-DP entries of the validator share: parameter regions (samplers),
//! exact-instance builders, curve helpers and the entry constructor. The entries
//! themselves — each paper's bounds, its translation to the toolkit's model and its
//! hooks — are in [`super::cys21`], [`super::ys22`] and [`super::at22`]; all are checked
//! against exact instances at the orders [`super::RENYI_ORDERS`].
//!
//! Each entry samples settings in the toolkit's model (docs/conventions.md §2) and
//! translates them to the paper's convention where needed: CYS21 and YS22 use σ′ with
//! per-step noise √(2η)σ′ = ησ, i.e. σ′ = σ√(η/2) (`Cys21Params::to_toolkit`,
//! `Ys22Params::to_toolkit`), gradient sensitivity S_g = L, λ = m, β = M; AT22 rows come
//! from [`shiftdp::results::REGISTRY`] (which already takes the toolkit's
//! L = 2L_AT).
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
    BoundHook, Entry, Params, aniso, constrained, curvatures, cyclic_run, cyclic_sched, enc,
    full_sched, full_sched_f64, num, scalar, sgd_shape,
};
use super::common::{LabelledInstance, RENYI_ORDERS, RenyiCase, SplitMix64};
use shiftdp::error::{Error, Result};
use shiftdp::exact::{Instance, MixtureInstance, PairKind, ShiftLaw};
use shiftdp::precision::Enclosure;
use shiftdp::provenance::ResultId;
use shiftdp::settings::{Algorithm, Setting};

/// Relative widening of curves computed from f64 inputs (see the module's `# Rounding`).
pub const INPUT_SLACK: f64 = 1e-12;

pub(super) fn hyp(result: ResultId, h: &str, detail: String) -> Error {
    Error::Hypothesis {
        result: result.into(),
        hypothesis: h.into(),
        detail,
    }
}

pub(super) fn widen_up(v: f64) -> f64 {
    v * (1.0 + INPUT_SLACK)
}

pub(super) fn widen_down(v: f64) -> f64 {
    v / (1.0 + INPUT_SLACK)
}

/// σ′ = σ√(η/2) (lower end), η, L, n of a setting.
pub(super) fn sigma_prime(s: &Setting) -> f64 {
    (s.sigma().clone() * s.eta().half().sqrt()).lower_f64()
}

pub(super) fn m_or(s: &Setting, d: f64) -> f64 {
    s.strong_convexity().as_ref().map_or(d, |m| m.mid_f64())
}

pub(super) fn big_m_or(s: &Setting, d: f64) -> f64 {
    s.smoothness().as_ref().map_or(d, |m| m.mid_f64())
}

/// Whole epochs K = t/l of a batched setting, l = n/b.
pub(super) fn epochs(s: &Setting, id: ResultId) -> Result<(u64, u64)> {
    if s.b() == 0 || !s.n().is_multiple_of(s.b()) {
        return Err(hyp(
            id,
            "H4: b divides n",
            format!("n = {}, b = {}", s.n(), s.b()),
        ));
    }
    let l = s.n() / s.b();
    if !s.t().is_multiple_of(l) {
        return Err(hyp(
            id,
            "whole epochs: t = K·n/b",
            format!("t = {}, n/b = {l}", s.t()),
        ));
    }
    Ok((s.t() / l, l))
}

/// The curve `(λ, upper end of f(λ))` on [`RENYI_ORDERS`].
pub(super) fn curve_up(f: &dyn Fn(f64) -> Result<Enclosure>) -> Result<Vec<(f64, f64)>> {
    RENYI_ORDERS
        .iter()
        .map(|&l| Ok((l, widen_up(f(l)?.upper_f64()))))
        .collect()
}

pub(super) fn cases(
    insts: Vec<LabelledInstance>,
    curve: &[(f64, f64)],
    lower: bool,
) -> Vec<RenyiCase> {
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

pub(super) fn gauss(s: &Setting, name: &str, h: f64) -> Result<LabelledInstance> {
    let sched = full_sched(s)?;
    Ok((format!("{name} (h = {h:.4})"), scalar(&sched, &enc(h), s)?))
}

// ------------------------------------------------------------------- samplers

pub(super) fn sample_any(r: &mut SplitMix64) -> Params {
    super::catalogue::sample_gd_any(r)
}

/// Full batch, strongly convex with η < 1/M (CYS21 Cor 1, Lemma 5): M ≤ 1.2/η so some
/// points fail H3 and are counted.
pub(super) fn sample_gd_cor1(r: &mut SplitMix64) -> Params {
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

pub(super) fn sample_squared(r: &mut SplitMix64, eta_hi: f64) -> Params {
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

pub(super) fn sample_thm3(r: &mut SplitMix64) -> Params {
    sample_squared(r, 0.99)
}

pub(super) fn sample_cor2(r: &mut SplitMix64) -> Params {
    sample_squared(r, 1.99)
}

/// Batches: b ∈ 1..3, l ∈ 2..5, n = bl, K ∈ 1..kmax, t = Kl; η ∈ [0.05, 1],
/// M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M] (η ≥ 2/(m+M) is skipped: H2).
pub(super) fn sample_batches(r: &mut SplitMix64, kmax: u64) -> Params {
    sample_batches_l(r, 5, kmax)
}

pub(super) fn sample_batches_l(r: &mut SplitMix64, lmax: u64, kmax: u64) -> Params {
    let b = r.int(1, 3);
    let l = r.int(2, lmax);
    let k = r.int(1, kmax);
    let eta = r.dec(0.05, 1.0);
    let big_m = r.dec(0.05, 2.1 / num(&eta));
    let m = r.dec(0.01, 0.9 * num(&big_m));
    let mut p = cyclic_run(b, l, k);
    p.extend([
        ("eta", eta),
        ("noise", r.dec(0.5, 3.0)),
        ("sensitivity", r.dec(0.1, 2.0)),
        ("smoothness", big_m),
        ("strong-convexity", m),
    ]);
    p
}

pub(super) fn sample_batches_long(r: &mut SplitMix64) -> Params {
    sample_batches(r, 20)
}

/// As [`sample_batches`] with l ∈ 2..4 and t = Kl ≤ 8 (the mixture law of a quadratic
/// loss has up to 2ᵗ atoms).
pub(super) fn sample_batches_short(r: &mut SplitMix64) -> Params {
    let mut p = sample_batches_l(r, 4, 1);
    let l: u64 = num(&p[0].1) as u64 / num(&p[1].1) as u64;
    let k = r.int(1, 8 / l);
    p[2].1 = (k * l).to_string();
    p
}

/// Cor 5.3: λ ∈ [0.01, 0.5], feature clip F ∈ [0.1, 2], β = (F²+1)/2 + λ, S_g ∈ [0.1, 2],
/// σ_mul ∈ [0.5, 4] (noise σ = σ_mul S_g/(2b)), η ∈ [0.05, 2.1/(β + λ)].
pub(super) fn sample_cor53(r: &mut SplitMix64) -> Params {
    let b = r.int(1, 3);
    let l = r.int(2, 5);
    let k = r.int(1, 20);
    let lam = num(&r.dec(0.01, 0.5));
    let f = num(&r.dec(0.1, 2.0));
    let beta = (f * f + 1.0) / 2.0 + lam;
    let sg = num(&r.dec(0.1, 2.0));
    let smul = num(&r.dec(0.5, 4.0));
    let mut p = cyclic_run(b, l, k);
    p.extend([
        ("eta", r.dec(0.05, 2.1 / (beta + lam))),
        ("noise", format!("{}", smul * sg / (2.0 * b as f64))),
        ("sensitivity", format!("{sg}")),
        ("smoothness", format!("{beta}")),
        ("strong-convexity", format!("{lam}")),
    ]);
    p
}

/// Sampling without replacement, linear loss: n ∈ 4..12, b | n with n/b ≥ 2, K ∈ 1..4.
pub(super) fn sample_sgd_baseline(r: &mut SplitMix64) -> Params {
    let b = r.int(1, 3);
    let l = r.int(2, 4);
    let k = r.int(1, 4);
    let mut p = cyclic_run(b, l, k);
    p.push(("eta", r.dec(0.05, 1.0)));
    p.push(("noise", r.dec(0.5, 3.0)));
    p.push(("sensitivity", r.dec(0.1, 2.0)));
    p
}

pub(super) fn sample_gd_c1(r: &mut SplitMix64) -> Params {
    let mut p = sample_any(r);
    p.push(("contraction", "1".into()));
    p
}

pub(super) fn sample_gd_strong(r: &mut SplitMix64) -> Params {
    super::catalogue::sample_gd_strong(r)
}

pub(super) fn sample_gd_constrained(r: &mut SplitMix64) -> Params {
    super::catalogue::sample_gd_constrained(r)
}

/// Cyclic: half the points convex (c = 1, linear loss), half strongly convex.
pub(super) fn sample_cgd_mixed(r: &mut SplitMix64) -> Params {
    if r.unit() < 0.5 {
        let mut p = super::catalogue::sample_cgd_any(r);
        p.push(("contraction", "1".into()));
        p
    } else {
        super::catalogue::sample_cgd_strong(r)
    }
}

pub(super) fn sample_sgd_b2(r: &mut SplitMix64) -> Params {
    let mut p = sgd_shape(r, 20);
    let (q, _) = constrained(r, 1, 1.9);
    p.extend(q);
    p
}

pub(super) fn sample_sgd_b3(r: &mut SplitMix64) -> Params {
    let mut p = sample_sgd_b2(r);
    let big_m = p
        .iter()
        .find(|x| x.0 == "smoothness")
        .map_or(1.0, |x| num(&x.1));
    p.push(("strong-convexity", r.dec(0.01, 0.9 * big_m)));
    p
}

// ------------------------------------------------------------------- instances

pub(super) fn full_any(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let eta = s.eta().mid_f64();
    Ok(vec![
        gauss(s, "linear", 0.0)?,
        gauss(s, "quadratic h = 0.5/η", 0.5 / eta)?,
        gauss(s, "non-convex quadratic h = −0.25/η", -0.25 / eta)?,
    ])
}

pub(super) fn full_strong(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let (m, mm) = curvatures(s)?;
    let f = full_sched_f64(s)?;
    Ok(vec![
        gauss(s, "quadratic h = m", m.mid_f64())?,
        gauss(s, "quadratic h = M", mm.mid_f64())?,
        aniso(&f, s)?,
    ])
}

/// Cyclic Gaussian instances at every position `j₀`, curvatures `hs`.
pub(super) fn cyclic_positions(
    s: &Setting,
    hs: &[(&str, f64)],
) -> Result<Vec<(u64, LabelledInstance)>> {
    let l = s.n() / s.b();
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
    let (eta, sigma, l_sens) = (
        s.eta().mid_f64(),
        s.sigma().mid_f64(),
        s.sensitivity().mid_f64(),
    );
    if eta * h > 1.0 || h < 0.0 {
        return Err(Error::param(
            "strong-convexity",
            h,
            "shuffle instances need 0 ≤ ηh ≤ 1",
        ));
    }
    let l = s.n() / s.b();
    shiftdp::memory::check_values::<f64>("the shuffle instance's batch shifts", l)?;
    let t = s.t() as usize;
    let c = 1.0 - eta * h;
    let mut shifts = vec![0.0; l as usize];
    let mut var = 0.0;
    let mut w = 1.0; // c^{t−1−k}
    for k in (0..t).rev() {
        shifts[k % l as usize] += eta * l_sens / s.b() as f64 * w;
        var += (eta * sigma * w).powi(2);
        w *= c;
    }
    let atoms = shifts.iter().map(|&m| (m, 1.0 / l as f64)).collect();
    let law = ShiftLaw::from_atoms(atoms)?;
    MixtureInstance::new(&law, var, kind)
}

pub(super) fn shuffle_cases(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let (m, mm) = curvatures(s)?;
    let eta = s.eta().mid_f64();
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

pub(super) fn sgd_mixtures(s: &Setting, hs: &[(&str, f64)]) -> Result<Vec<LabelledInstance>> {
    super::catalogue::mixtures(s, hs, "sampling w/o replacement,")
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
pub(super) use instances_of;

pub(super) fn entry(
    id: ResultId,
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
