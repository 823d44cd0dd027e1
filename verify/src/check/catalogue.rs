//! The validator's catalogue: for each bound id of [`shiftdp::bounds`], the parameter
//! region sampled and the exact instances that bound must dominate.
//!
//! # Formula
//! Instance families (docs/conventions.md §5; BSA24 eq. 2.1 with the records' gradients
//! differing by `L` in one coordinate):
//! * full / cyclic batches, unconstrained: Gaussian instances on 1-D quadratics of
//!   curvature `h ∈ {m, M}` (strongly convex results), `h = 0` (linear loss, the worst
//!   case of the composition results), every record position of a cyclic epoch, and the
//!   anisotropic Hessian `diag(m, M)` with the worst direction from the spectrum;
//! * stochastic batches: mixture instances (both [`PairKind`]s) on linear or quadratic
//!   losses;
//! * constrained results (Thms 4.3, 4.6, 4.10): clamped walks on `[−D/2, D/2]` — the
//!   AT22 Thm 4.1 construction (linear loss, start at the centre), a start on the
//!   boundary, and a quadratic with `1 − ηh ∈ [0, 1]` — in both pair kinds.
//!
//! The stationary-law and exponential-mechanism entries (BSA24 Cors 5.2, 5.4, MT07)
//! are not sampled: they are statements about limits, not about finite runs.
//!
//! # References
//! BSA24 Thms 4.1–4.6, 4.8–4.10, Prop 5.1; AT22 Thm 4.1.
use super::common::{LabelledInstance, RenyiCase, SplitMix64};
use nalgebra::{DMatrix, DVector};
use shiftdp::error::{Error, Result};
use shiftdp::exact::clamped::ClampedInstance;
use shiftdp::exact::clamped::{ClampStep, ClampedWalk};
use shiftdp::exact::{GaussianInstance, MixtureInstance, PairKind, Schedule};
use shiftdp::precision::Enclosure;
use shiftdp::provenance::ResultId;
use shiftdp::settings::{Algorithm, RawSetting, SETTING_BITS, Setting};

/// Sampled parameters: (setting flag name, decimal value).
pub type Params = Vec<(&'static str, String)>;

/// One bound of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The result whose bound the entry checks.
    pub id: ResultId,
    /// The algorithm its settings use.
    pub algorithm: Algorithm,
    /// Human description of the sampled region.
    pub region: &'static str,
    /// Default number of samples (keeps a release run under ~10 s).
    pub default_samples: usize,
    /// Draws one parameter point.
    pub sample: fn(&mut SplitMix64) -> Params,
    /// Builds the instances for a validated setting.
    pub instances: fn(&Setting) -> Result<Vec<LabelledInstance>>,
    /// Where the bound comes from: [`BoundHook::Library`] (BSA24, through
    /// [`shiftdp::results::fdp_bounds`]) or a Rényi hook ([`BoundHook::Renyi`]).
    pub bound: BoundHook,
}

/// The source of an entry's bound.
#[derive(Debug, Clone, Copy)]
pub enum BoundHook {
    /// The bound with the entry's id among [`shiftdp::results::fdp_bounds`] of the setting;
    /// checked against [`Entry::instances`].
    Library,
    /// A Rényi bound: the hook returns, for a validated setting at `bits` bits, the cases
    /// to check — each an exact instance with the bound's Rényi curve for it (an upper
    /// bound to dominate, or a lower bound the instance must reach). A hypothesis
    /// failure of the result is returned as [`Error::Hypothesis`] (the point is skipped).
    Renyi(fn(&Setting, u32) -> Result<Vec<RenyiCase>>),
}

/// The BSA24 entries (f-DP / GDP / composition bounds of [`shiftdp::bounds`]).
pub fn bsa24_entries() -> Vec<Entry> {
    vec![
        Entry {
            id: ResultId::Bsa24Thm4_1,
            algorithm: Algorithm::Gd,
            region: "n ∈ 1..5, t ∈ 1..200, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            default_samples: 20,
            sample: sample_gd_any,
            bound: BoundHook::Library,
            instances: inst_gd_any,
        },
        Entry {
            id: ResultId::Bsa24Thm4_2,
            algorithm: Algorithm::Gd,
            region: "n ∈ 1..5, t ∈ 1..300, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            default_samples: 20,
            sample: sample_gd_strong,
            bound: BoundHook::Library,
            instances: inst_gd_strong,
        },
        Entry {
            id: ResultId::Bsa24Thm4_3,
            algorithm: Algorithm::Gd,
            region: "n ∈ 1..3, η ∈ [0.1, 1], σ ∈ [0.5, 2], L ∈ [0.5, 2], D ∈ [0.2, 2], M ∈ [0.1, 2.1/η], t ∈ ⌈Dn/(ηL)⌉ + 0..10 (≤ 50)",
            default_samples: 20,
            sample: sample_gd_constrained,
            bound: BoundHook::Library,
            instances: inst_gd_constrained,
        },
        Entry {
            id: ResultId::Bsa24Thm4_4,
            algorithm: Algorithm::Cgd,
            region: "b ∈ 1..3, l ∈ 1..4, n = bl, E ∈ 1..30, η ∈ [0.05, 1], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            default_samples: 20,
            sample: sample_cgd_any,
            bound: BoundHook::Library,
            instances: inst_cgd_any,
        },
        Entry {
            id: ResultId::Bsa24Thm4_5,
            algorithm: Algorithm::Cgd,
            region: "b ∈ 1..3, l ∈ 1..4, n = bl, E ∈ 1..30, η ∈ [0.05, 1], M ∈ [0.05, 2.1/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 3], L ∈ [0.1, 2]",
            default_samples: 20,
            sample: sample_cgd_strong,
            bound: BoundHook::Library,
            instances: inst_cgd_strong,
        },
        Entry {
            id: ResultId::Bsa24Thm4_6,
            algorithm: Algorithm::Cgd,
            region: "b ∈ 1..2, l ∈ 1..3, n = bl, η ∈ [0.1, 1], σ ∈ [0.5, 2], L ∈ [0.5, 2], D ∈ [0.2, 2], M ∈ [0.1, 2.1/η], E ∈ ⌈Db/(ηL)⌉ + 0..4 (t = lE ≤ 50)",
            default_samples: 12,
            sample: sample_cgd_constrained,
            bound: BoundHook::Library,
            instances: inst_cgd_constrained,
        },
        Entry {
            id: ResultId::Bsa24Thm4_8,
            algorithm: Algorithm::Sgd,
            region: "n ∈ 4..20, b ∈ 1..n/2, t ∈ 1..30, η ∈ [0.05, 1], σ ∈ [0.5, 2], L ∈ [0.1, 2]",
            default_samples: 8,
            sample: sample_sgd_any,
            bound: BoundHook::Library,
            instances: inst_sgd_any,
        },
        Entry {
            id: ResultId::Bsa24Thm4_9,
            algorithm: Algorithm::Sgd,
            region: "n ∈ 4..20, b ∈ 1..n/2, t ∈ 1..10, η ∈ [0.05, 1], M ∈ [0.05, 1.9/η], m ∈ [0.01, 0.9M], σ ∈ [0.5, 2], L ∈ [0.1, 2]",
            default_samples: 4,
            sample: sample_sgd_strong,
            bound: BoundHook::Library,
            instances: inst_sgd_strong,
        },
        Entry {
            id: ResultId::Bsa24Thm4_10,
            algorithm: Algorithm::Sgd,
            region: "n ∈ 4..20, b ∈ 1..n/2, t ∈ 1..30, η ∈ [0.1, 1], σ ∈ [0.5, 2], L ∈ [0.5, 2], D ∈ [0.2, 2], M ∈ [0.1, 1.9/η]",
            default_samples: 3,
            sample: sample_sgd_constrained,
            bound: BoundHook::Library,
            instances: inst_sgd_constrained,
        },
        Entry {
            id: ResultId::Bsa24Prop5_1,
            algorithm: Algorithm::Lmc,
            region: "LMC (n = 1, σ = √(2/η)), t ∈ 1..500, η ∈ [0.01, 1], M ∈ [0.05, 2/η], m ∈ [0.01, M], L ∈ [0.1, 2]",
            default_samples: 20,
            sample: sample_lmc,
            bound: BoundHook::Library,
            instances: inst_lmc,
        },
    ]
}

/// The raw setting of sampled parameters.
pub fn raw_of(p: &Params) -> RawSetting {
    let mut r = RawSetting::default();
    for (k, v) in p {
        // parameters that are not setting flags (e.g. instance shapes) are skipped
        r.set(k, v);
    }
    r
}

pub(crate) fn num(s: &str) -> f64 {
    s.parse().unwrap_or(f64::NAN)
}

/// η, σ, L and (m, M) samples shared by the strongly convex regions.
fn strong(r: &mut SplitMix64, p: &mut Params, eta_lo: f64, mmax: f64) {
    let eta = r.dec(eta_lo, 1.0);
    let big_m = r.dec(0.05, mmax / num(&eta));
    let m = r.dec(0.01, 0.9 * num(&big_m));
    p.push(("eta", eta));
    p.push(("smoothness", big_m));
    p.push(("strong-convexity", m));
}

pub(crate) fn sample_gd_any(r: &mut SplitMix64) -> Params {
    vec![
        ("n", r.int(1, 5).to_string()),
        ("steps", r.int(1, 200).to_string()),
        ("eta", r.dec(0.05, 1.0)),
        ("noise", r.dec(0.5, 3.0)),
        ("sensitivity", r.dec(0.1, 2.0)),
    ]
}

pub(crate) fn sample_gd_strong(r: &mut SplitMix64) -> Params {
    let mut p = vec![
        ("n", r.int(1, 5).to_string()),
        ("steps", r.int(1, 300).to_string()),
        ("noise", r.dec(0.5, 3.0)),
        ("sensitivity", r.dec(0.1, 2.0)),
    ];
    strong(r, &mut p, 0.05, 2.1);
    p
}

/// (η, σ, L, D, M) of a constrained region with `D·size/(ηL) ≤ 40`.
pub(crate) fn constrained(r: &mut SplitMix64, size: u64, mmax: f64) -> (Params, f64) {
    loop {
        let eta = r.dec(0.1, 1.0);
        let l = r.dec(0.5, 2.0);
        let d = r.dec(0.2, 2.0);
        let thr = num(&d) * size as f64 / (num(&eta) * num(&l));
        if thr <= 40.0 {
            let big_m = r.dec(0.1, mmax / num(&eta));
            let p = vec![
                ("eta", eta),
                ("noise", r.dec(0.5, 2.0)),
                ("sensitivity", l),
                ("diameter", d),
                ("smoothness", big_m),
            ];
            return (p, thr);
        }
    }
}

pub(crate) fn sample_gd_constrained(r: &mut SplitMix64) -> Params {
    let n = r.int(1, 3);
    let (mut p, thr) = constrained(r, n, 2.1);
    let t = (thr.ceil() as u64).max(1) + r.int(0, 10);
    p.push(("n", n.to_string()));
    p.push(("steps", t.min(50).to_string()));
    p
}

pub(crate) fn cyclic_shape(r: &mut SplitMix64, bmax: u64, lmax: u64) -> (u64, u64) {
    (r.int(1, bmax), r.int(1, lmax))
}

/// A cyclic run of `epochs` epochs of `l` batches of size `b`: n = b·l, t = l·epochs.
pub(crate) fn cyclic_run(b: u64, l: u64, epochs: u64) -> Params {
    vec![
        ("n", (b * l).to_string()),
        ("batch", b.to_string()),
        ("steps", (l * epochs).to_string()),
    ]
}

/// Draws σ ∈ [0.5, 3] and L ∈ [0.1, 2], in that order.
fn push_noise_and_sensitivity(r: &mut SplitMix64, p: &mut Params) {
    p.push(("noise", r.dec(0.5, 3.0)));
    p.push(("sensitivity", r.dec(0.1, 2.0)));
}

pub(crate) fn sample_cgd_any(r: &mut SplitMix64) -> Params {
    let (b, l) = cyclic_shape(r, 3, 4);
    let e = r.int(1, 30);
    let mut p = cyclic_run(b, l, e);
    p.push(("eta", r.dec(0.05, 1.0)));
    push_noise_and_sensitivity(r, &mut p);
    p
}

pub(crate) fn sample_cgd_strong(r: &mut SplitMix64) -> Params {
    let (b, l) = cyclic_shape(r, 3, 4);
    let e = r.int(1, 30);
    let mut p = cyclic_run(b, l, e);
    push_noise_and_sensitivity(r, &mut p);
    strong(r, &mut p, 0.05, 2.1);
    p
}

pub(crate) fn sample_cgd_constrained(r: &mut SplitMix64) -> Params {
    loop {
        let (b, l) = cyclic_shape(r, 2, 3);
        let (mut p, thr) = constrained(r, b, 2.1);
        let e = (thr.ceil() as u64).max(1) + r.int(0, 4);
        if l * e <= 50 {
            p.extend(cyclic_run(b, l, e));
            return p;
        }
    }
}

pub(crate) fn sgd_shape(r: &mut SplitMix64, tmax: u64) -> Params {
    let n = r.int(4, 20);
    let b = r.int(1, n / 2);
    vec![
        ("n", n.to_string()),
        ("batch", b.to_string()),
        ("steps", r.int(1, tmax).to_string()),
    ]
}

fn sample_sgd_any(r: &mut SplitMix64) -> Params {
    let mut p = sgd_shape(r, 30);
    p.push(("eta", r.dec(0.05, 1.0)));
    p.push(("noise", r.dec(0.5, 2.0)));
    p.push(("sensitivity", r.dec(0.1, 2.0)));
    p
}

fn sample_sgd_strong(r: &mut SplitMix64) -> Params {
    let mut p = sgd_shape(r, 10);
    p.push(("noise", r.dec(0.5, 2.0)));
    p.push(("sensitivity", r.dec(0.1, 2.0)));
    strong(r, &mut p, 0.05, 1.9);
    p
}

pub(crate) fn sample_sgd_constrained(r: &mut SplitMix64) -> Params {
    let mut p = sgd_shape(r, 30);
    let (q, _) = constrained(r, 1, 1.9);
    p.extend(q);
    p
}

fn sample_lmc(r: &mut SplitMix64) -> Params {
    let eta = r.dec(0.01, 1.0);
    let big_m = r.dec(0.05, 2.0 / num(&eta));
    let m = r.dec(0.01, num(&big_m));
    vec![
        ("steps", r.int(1, 500).to_string()),
        ("eta", eta),
        ("smoothness", big_m),
        ("strong-convexity", m),
        ("sensitivity", r.dec(0.1, 2.0)),
    ]
}

// ---------------------------------------------------------------- instances

pub(crate) fn enc(x: f64) -> Enclosure {
    Enclosure::from_f64(SETTING_BITS, x)
}

pub(crate) fn scalar(
    sched: &Schedule<Enclosure>,
    h: &Enclosure,
    s: &Setting,
) -> Result<Box<GaussianInstance>> {
    Ok(Box::new(GaussianInstance::scalar(
        sched,
        h,
        s.sensitivity(),
    )?))
}

pub(crate) fn full_sched(s: &Setting) -> Result<Schedule<Enclosure>> {
    Schedule::full(s.n(), s.t() as usize, s.eta().clone(), s.sigma().clone())
}

/// The full-batch schedule of `s` at the midpoints of η and σ.
pub(crate) fn full_sched_f64(s: &Setting) -> Result<Schedule<f64>> {
    Schedule::full(
        s.n(),
        s.t() as usize,
        s.eta().mid_f64(),
        s.sigma().mid_f64(),
    )
}

pub(crate) fn curvatures(s: &Setting) -> Result<(Enclosure, Enclosure)> {
    match (s.strong_convexity(), s.smoothness()) {
        (Some(m), Some(mm)) => Ok((m.clone(), mm.clone())),
        _ => Err(Error::param(
            "strong-convexity",
            "missing",
            "the region samples m and M",
        )),
    }
}

/// The anisotropic instance `diag(m, M)`, worst direction (matrix path, f64).
pub(crate) fn aniso(sched: &Schedule<f64>, s: &Setting) -> Result<LabelledInstance> {
    let (m, mm) = curvatures(s)?;
    let h = DMatrix::from_diagonal(&DVector::from_vec(vec![m.mid_f64(), mm.mid_f64()]));
    Ok((
        "quadratic diag(m, M), worst direction".into(),
        Box::new(GaussianInstance::worst(
            sched,
            &h,
            s.sensitivity().mid_f64(),
        )?),
    ))
}

pub(crate) fn inst_gd_any(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let sched = full_sched(s)?;
    let h = enc(0.5) / s.eta().clone();
    Ok(vec![
        ("linear".into(), scalar(&sched, &enc(0.0), s)? as _),
        ("quadratic h = 0.5/η".into(), scalar(&sched, &h, s)? as _),
    ])
}

pub(crate) fn inst_gd_strong(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let sched = full_sched(s)?;
    let (m, mm) = curvatures(s)?;
    let f = full_sched_f64(s)?;
    Ok(vec![
        ("quadratic h = m".into(), scalar(&sched, &m, s)? as _),
        ("quadratic h = M".into(), scalar(&sched, &mm, s)? as _),
        aniso(&f, s)?,
    ])
}

pub(crate) fn cyclic_sched(s: &Setting, pos: u64) -> Result<Schedule<Enclosure>> {
    let l = s.n() / s.b();
    Schedule::cyclic(
        s.n(),
        s.b(),
        s.t() / l,
        pos,
        s.eta().clone(),
        s.sigma().clone(),
    )
}

pub(crate) fn inst_cgd_any(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let mut v: Vec<LabelledInstance> = vec![];
    for pos in 0..s.n() / s.b() {
        let sched = cyclic_sched(s, pos)?;
        v.push((
            format!("linear, position {pos}"),
            scalar(&sched, &enc(0.0), s)?,
        ));
    }
    Ok(v)
}

pub(crate) fn inst_cgd_strong(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let (m, mm) = curvatures(s)?;
    let l = s.n() / s.b();
    let mut v: Vec<LabelledInstance> = vec![];
    for pos in 0..l {
        let sched = cyclic_sched(s, pos)?;
        v.push((
            format!("quadratic h = m, position {pos}"),
            scalar(&sched, &m, s)?,
        ));
        v.push((
            format!("quadratic h = M, position {pos}"),
            scalar(&sched, &mm, s)?,
        ));
    }
    let f = Schedule::cyclic(
        s.n(),
        s.b(),
        s.t() / l,
        l - 1,
        s.eta().mid_f64(),
        s.sigma().mid_f64(),
    )?;
    v.push(aniso(&f, s)?);
    Ok(v)
}

/// Clamped walks on `[−D/2, D/2]`: `p_k` is the record's inclusion probability at
/// step k; linear loss from the centre and from the lower end, and a quadratic with
/// `h = min(M, 1/η)` from the centre, each in both pair kinds, labelled
/// `"{prefix}, {shape}, {kind}"`.
pub(crate) fn clamped(
    s: &Setting,
    p: &dyn Fn(usize) -> f64,
    prefix: &str,
) -> Result<Vec<LabelledInstance>> {
    let d = s.diameter().as_ref().map_or(0.0, |d| d.mid_f64());
    let eta = s.eta().mid_f64();
    let h = s
        .smoothness()
        .as_ref()
        .map_or(0.0, |m| m.mid_f64())
        .min(1.0 / eta);
    clamped_walks(
        s,
        p,
        prefix,
        &[
            ("linear, start 0 (AT22)", 0.0, 0.0),
            ("linear, start −D/2", 0.0, -0.5 * d),
            ("quadratic h = min(M, 1/η), start 0", h, 0.0),
        ],
    )
}

/// Clamped walks on `[−D/2, D/2]`, one per `(shape, curvature h, start)` of `shapes`
/// (contraction `1 − ηh` per step, clamped to `[0, 1]`), with inclusion probability
/// `p_k` at step k, both pair kinds, labelled `"{prefix}, {shape}, {kind}"`.
pub(crate) fn clamped_walks(
    s: &Setting,
    p: &dyn Fn(usize) -> f64,
    prefix: &str,
    shapes: &[(&str, f64, f64)],
) -> Result<Vec<LabelledInstance>> {
    let d = s
        .diameter()
        .as_ref()
        .ok_or_else(|| Error::param("diameter", "missing", "the region samples D"))?
        .mid_f64();
    let (eta, sigma, l) = (
        s.eta().mid_f64(),
        s.sigma().mid_f64(),
        s.sensitivity().mid_f64(),
    );
    let nodes = ((8.0 * d / (eta * sigma)).ceil() as usize).clamp(64, 240);
    let mut v: Vec<LabelledInstance> = vec![];
    shiftdp::memory::check_values::<ClampStep>("a clamped walk's steps", s.t())?;
    for &(name, h, start) in shapes {
        let walk = ClampedWalk {
            lo: -0.5 * d,
            hi: 0.5 * d,
            start,
            center: 0.0,
            steps: (0..s.t() as usize)
                .map(|k| ClampStep {
                    contraction: (1.0 - eta * h).clamp(0.0, 1.0),
                    noise_sd: eta * sigma,
                    drift: eta * l / s.b() as f64,
                    p: p(k),
                })
                .collect(),
        };
        for kind in [PairKind::OneSided, PairKind::Opposite] {
            v.push((
                format!("{prefix}, {name}, {kind:?}"),
                Box::new(ClampedInstance::new(&walk, kind, nodes)?),
            ));
        }
    }
    Ok(v)
}

pub(crate) fn inst_gd_constrained(s: &Setting) -> Result<Vec<LabelledInstance>> {
    clamped(s, &|_| 1.0, "clamped full batch")
}

pub(crate) fn inst_cgd_constrained(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let l = (s.n() / s.b()) as usize;
    let mut v = clamped(
        s,
        &|k| if k % l == l - 1 { 1.0 } else { 0.0 },
        "clamped last batch",
    )?;
    if l > 1 {
        v.extend(clamped(
            s,
            &|k| if k % l == 0 { 1.0 } else { 0.0 },
            "clamped first batch",
        )?);
    }
    Ok(v)
}

/// NoisySGD mixture instances (both pair kinds) on 1-D losses of curvature `h`, labelled
/// `"{prefix} {name}, {kind}"`.
pub(crate) fn mixtures(
    s: &Setting,
    hs: &[(&str, f64)],
    prefix: &str,
) -> Result<Vec<LabelledInstance>> {
    let mut v: Vec<LabelledInstance> = vec![];
    for &(name, h) in hs {
        for kind in [PairKind::OneSided, PairKind::Opposite] {
            let inst = MixtureInstance::sgd(
                s.n(),
                s.b(),
                s.t() as usize,
                s.eta().mid_f64(),
                s.sigma().mid_f64(),
                s.sensitivity().mid_f64(),
                h,
                kind,
                1e-7,
            )?;
            v.push((format!("{prefix} {name}, {kind:?}"), Box::new(inst)));
        }
    }
    Ok(v)
}

fn inst_sgd_any(s: &Setting) -> Result<Vec<LabelledInstance>> {
    mixtures(s, &[("linear", 0.0)], "mixture")
}

fn inst_sgd_strong(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let (m, mm) = curvatures(s)?;
    let eta = s.eta().mid_f64();
    mixtures(
        s,
        &[
            ("quadratic h = m", m.mid_f64()),
            ("quadratic h = min(M, 1/η)", mm.mid_f64().min(1.0 / eta)),
        ],
        "mixture",
    )
}

pub(crate) fn inst_sgd_constrained(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let p = s.b() as f64 / s.n() as f64;
    clamped(s, &move |_| p, "clamped stochastic batch")
}

fn inst_lmc(s: &Setting) -> Result<Vec<LabelledInstance>> {
    let sched = full_sched(s)?;
    let (m, mm) = curvatures(s)?;
    Ok(vec![
        ("LMC quadratic h = m".into(), scalar(&sched, &m, s)? as _),
        ("LMC quadratic h = M".into(), scalar(&sched, &mm, s)? as _),
    ])
}
