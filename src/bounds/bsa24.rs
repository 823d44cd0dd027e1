//! The bounds of Bok, Su & Altschuler (2024), *Shifted interpolation for differential
//! privacy* (BSA24), §4 and §5, as functions of a validated [`Setting`].
//!
//! Closed forms are written once, generic over [`Real`], and evaluated as certified
//! [`Enclosure`]s (μ reported by its upper end). Each function checks the result's
//! hypotheses and returns [`Error::Hypothesis`](crate::Error::Hypothesis) naming the
//! one that fails.
//!
//! Reading adopted for Thm 4.2 (see ERRATA.md): the transcription prints
//! `μ = √((1 − cᵗ)/(1 + cᵗ)) · (1 + c)/(1 − c) · L/(nσ)`; the shifted-interpolation
//! schedule problem (docs/conventions.md §4) gives, and the quadratic exact instance
//! attains, `μ = √((1 − cᵗ)/(1 + cᵗ) · (1 + c)/(1 − c)) · L/(nσ)` — the square root covers
//! both factors. This is also the only reading consistent with Prop 5.1 (t → ∞ with n = 1,
//! σ = √(2/η), c = 1 − ηm gives `√((2 − ηm)/2) L/√m`).
use super::{Bound, BoundKind, hyp, require_algorithm};
use crate::error::{Result, Subject};
use crate::precision::{Enclosure, Real};
use crate::provenance::ResultId;
use crate::settings::{Algorithm, SETTING_BITS, Setting, ceil_u64};
use rug::Rational;

/// The algorithms of the full-batch theorems 4.2 and 4.3: NoisyGD, and LMC (NoisyGD
/// with the Langevin noise).
const GD_OR_LMC: &[Algorithm] = &[Algorithm::Gd, Algorithm::Lmc];

/// Result ids (the key of each proof file).
pub const THM_4_1: &str = ResultId::Bsa24Thm4_1.as_str();
/// NoisyGD, strongly convex.
pub const THM_4_2: &str = ResultId::Bsa24Thm4_2.as_str();
/// NoisyGD, constrained convex.
pub const THM_4_3: &str = ResultId::Bsa24Thm4_3.as_str();
/// NoisyCGD, composition.
pub const THM_4_4: &str = ResultId::Bsa24Thm4_4.as_str();
/// NoisyCGD, strongly convex.
pub const THM_4_5: &str = ResultId::Bsa24Thm4_5.as_str();
/// NoisyCGD, constrained convex.
pub const THM_4_6: &str = ResultId::Bsa24Thm4_6.as_str();
/// LMC, strongly log-concave.
pub const PROP_5_1: &str = ResultId::Bsa24Prop5_1.as_str();
/// Stationary distribution of LMC.
pub const COR_5_2_ETA: &str = ResultId::Bsa24Cor5_2Eta.as_str();
/// Exponential mechanism, strongly convex.
pub const COR_5_2_EXP: &str = ResultId::Bsa24Cor5_2Exp.as_str();
/// Stationary distribution of projected LMC.
pub const COR_5_4_ETA: &str = ResultId::Bsa24Cor5_4Eta.as_str();
/// Exponential mechanism, convex on a set of diameter D.
pub const COR_5_4_EXP: &str = ResultId::Bsa24Cor5_4Exp.as_str();
/// The standard pure-DP analysis of the exponential mechanism that BSA24 §5.2 compares to.
pub const MT07_EXP: &str = ResultId::Mt07Exp.as_str();

/// Thm 4.1: `μ = (L/(nσ)) √t` (composition, DRS22).
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`thm_4_1`].
pub fn mu_thm_4_1_unchecked<R: Real>(unit: &R, t: u64) -> R {
    unit.clone() * unit.int(t).sqrt()
}

/// Thm 4.2 (reading adopted): `μ = √((1 − cᵗ)/(1 + cᵗ) · (1 + c)/(1 − c)) · L/(nσ)`.
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`thm_4_2`].
pub fn mu_thm_4_2_unchecked<R: Real>(c: &R, t: u64, unit: &R) -> R {
    let one = c.int(1);
    let ct = c.powu(t);
    ((one.clone() - ct.clone()) / (one.clone() + ct) * (one.clone() + c.clone())
        / (one - c.clone()))
    .sqrt()
        * unit.clone()
}

/// Thm 4.2 *as transcribed*: `√((1 − cᵗ)/(1 + cᵗ)) · (1 + c)/(1 − c) · L/(nσ)` — kept only as
/// evidence for ERRATA.md (it exceeds the exact value, so it is valid but not tight).
pub fn mu_thm_4_2_as_printed<R: Real>(c: &R, t: u64, unit: &R) -> R {
    let one = c.int(1);
    let ct = c.powu(t);
    ((one.clone() - ct.clone()) / (one.clone() + ct)).sqrt() * (one.clone() + c.clone())
        / (one - c.clone())
        * unit.clone()
}

/// Thm 4.3: `μ = (1/σ) √(3LD/(ηn) + (L²/n²)⌈Dn/(ηL)⌉)`.
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`thm_4_3`].
pub fn mu_thm_4_3_unchecked<R: Real>(l: &R, d: &R, eta: &R, n: u64, sigma: &R) -> R {
    let nn = l.int(n);
    let k = (d.clone() * nn.clone() / (eta.clone() * l.clone())).ceil();
    (l.lit(3.0) * l.clone() * d.clone() / (eta.clone() * nn.clone()) + l.square() / nn.square() * k)
        .sqrt()
        / sigma.clone()
}

/// Thm 4.3 with the integer `k = ⌈Dn/(ηL)⌉` supplied exactly.
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`thm_4_3`].
pub fn mu_thm_4_3_k_unchecked<R: Real>(l: &R, d: &R, eta: &R, n: u64, sigma: &R, k: &R) -> R {
    let nn = l.int(n);
    (l.lit(3.0) * l.clone() * d.clone() / (eta.clone() * nn.clone())
        + l.square() / nn.square() * k.clone())
    .sqrt()
        / sigma.clone()
}

/// Thm 4.6 with the integer `k = ⌈Db/(ηL)⌉` supplied exactly.
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`thm_4_6`].
pub fn mu_thm_4_6_k_unchecked<R: Real>(
    lg: &R,
    d: &R,
    eta: &R,
    b: u64,
    l: u64,
    sigma: &R,
    k: &R,
) -> R {
    let bb = lg.int(b);
    let ll = lg.int(l);
    ((lg.clone() / bb.clone()).square()
        + lg.lit(3.0) * lg.clone() * d.clone() / (eta.clone() * bb.clone() * ll.clone())
        + lg.square() / (bb.square() * ll) * k.clone())
    .sqrt()
        / sigma.clone()
}

/// The exact rational `D·size/(ηL)` of a constrained setting.
fn threshold(s: &Setting, size: u64) -> Result<Rational> {
    let d = s.exact.d.clone().ok_or_else(|| {
        hyp(
            Subject::Other("BSA24"),
            "H1: diameter D",
            "give the diameter D",
        )
    })?;
    Ok(d * Rational::from(size) / (s.exact.eta.clone() * s.exact.l.clone()))
}

fn ceil_of(id: ResultId, x: &Rational) -> Result<Enclosure> {
    let k = ceil_u64(x).ok_or_else(|| {
        hyp(
            id,
            "H3: threshold fits in 64 bits",
            format!("{}", x.to_f64()),
        )
    })?;
    Ok(Enclosure::from_u64(SETTING_BITS, k))
}

/// Thm 4.4: `μ = (L/(bσ)) √E`.
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`thm_4_4`].
pub fn mu_thm_4_4_unchecked<R: Real>(unit: &R, epochs: u64) -> R {
    unit.clone() * unit.int(epochs).sqrt()
}

/// Thm 4.5: `μ = (L/(bσ)) √(1 + c^{2l−2} (1 − c²)/(1 − cˡ)² · (1 − c^{l(E−1)})/(1 + c^{l(E−1)}))`.
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`thm_4_5`].
pub fn mu_thm_4_5_unchecked<R: Real>(c: &R, l: u64, epochs: u64, unit: &R) -> R {
    let one = c.int(1);
    let cl = c.powu(l);
    let ce = c.powu(l * (epochs - 1));
    let inner = c.powu(2 * l - 2) * (one.clone() - c.square()) / (one.clone() - cl).square()
        * (one.clone() - ce.clone())
        / (one.clone() + ce);
    (one + inner).sqrt() * unit.clone()
}

/// Thm 4.6: `μ = (1/σ) √((L/b)² + 3LD/(ηbl) + (L²/(b²l))⌈Db/(ηL)⌉)`.
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`thm_4_6`].
pub fn mu_thm_4_6_unchecked<R: Real>(lg: &R, d: &R, eta: &R, b: u64, l: u64, sigma: &R) -> R {
    let bb = lg.int(b);
    let ll = lg.int(l);
    let k = (d.clone() * bb.clone() / (eta.clone() * lg.clone())).ceil();
    ((lg.clone() / bb.clone()).square()
        + lg.lit(3.0) * lg.clone() * d.clone() / (eta.clone() * bb.clone() * ll.clone())
        + lg.square() / (bb.square() * ll) * k)
        .sqrt()
        / sigma.clone()
}

/// Prop 5.1: `μ = √((2 − ηm)/2) · L/√m`.
///
/// *Unchecked formula*: no hypothesis is checked and no input validated; the one
/// checked entry point of the result is [`prop_5_1`].
pub fn mu_prop_5_1_unchecked<R: Real>(eta: &R, m: &R, l: &R) -> R {
    ((m.lit(2.0) - eta.clone() * m.clone()) / m.lit(2.0)).sqrt() * l.clone() / m.sqrt()
}

fn one() -> Enclosure {
    Enclosure::from_u64(SETTING_BITS, 1)
}

fn two() -> Enclosure {
    Enclosure::from_u64(SETTING_BITS, 2)
}

fn gdp(
    id: ResultId,
    title: &'static str,
    mu: Enclosure,
    hypotheses: Vec<String>,
    exact: bool,
) -> Result<Bound> {
    if !mu.is_finite() {
        return Err(crate::Error::NotCertified {
            what: format!("μ of {id}"),
            reason: "the closed form did not evaluate to a finite enclosure".into(),
        });
    }
    Ok(Bound {
        id,
        title: title.to_string(),
        kind: BoundKind::Gdp { mu },
        hypotheses,
        exact,
        notes: vec![],
    })
}

fn fmt(e: &Enclosure) -> String {
    format!("{}", e.mid_f64())
}

/// Checks `0 < η < 2/M` (or `≤` when `closed`) when M is given.
fn check_eta_smooth(id: ResultId, s: &Setting, closed: bool, hyps: &mut Vec<String>) -> Result<()> {
    if let Some(mm) = &s.big_m {
        let em = s.eta.clone() * mm.clone();
        let ok = if closed {
            em.hi() <= two().lo()
        } else {
            em.hi() < two().lo()
        };
        let label = if closed {
            "H2: 0 < η ≤ 2/M"
        } else {
            "H2: 0 < η < 2/M"
        };
        if !ok {
            return Err(hyp(
                id,
                label,
                format!("η·M = {} (certified bound {})", fmt(&em), em.upper_f64()),
            ));
        }
        hyps.push(format!("{label} holds (η·M = {})", fmt(&em)));
    }
    Ok(())
}

/// The contraction c < 1 of a strongly convex setting, with hypotheses recorded (shared
/// with the stochastic-batch theorems of [`super::bsa24_sgd`]).
pub(crate) fn strong_contraction(
    id: ResultId,
    s: &Setting,
    hyps: &mut Vec<String>,
) -> Result<Enclosure> {
    let c = match (&s.c, &s.m) {
        (None, _) => {
            return Err(hyp(
                id,
                "H1: m-strongly convex, M-smooth losses (c = max{|1−ηm|, |1−ηM|} < 1)",
                "give the strong convexity m and the smoothness M, or the contraction c",
            ));
        }
        (Some(c), _) => c.clone(),
    };
    if !s.c_given {
        match &s.m {
            Some(m) if m.is_positive() => hyps.push(format!(
                "H1: m = {} > 0, M = {} (Lemma 2.8: c = {})",
                fmt(m),
                s.big_m.as_ref().map(fmt).unwrap_or_default(),
                fmt(&c)
            )),
            _ => {
                return Err(hyp(
                    id,
                    "H1: m-strongly convex (m > 0)",
                    "m = 0 or missing: losses are only convex",
                ));
            }
        }
    } else {
        hyps.push(format!(
            "H1: contraction c = {} given directly (the gradient step is assumed c-Lipschitz, Lemma 2.8)",
            fmt(&c)
        ));
    }
    check_eta_smooth(id, s, false, hyps)?;
    if c.hi().partial_cmp(one().lo()) != Some(std::cmp::Ordering::Less) {
        return Err(hyp(
            id,
            "H3: c < 1 (strict contraction)",
            format!("c = {}", fmt(&c)),
        ));
    }
    hyps.push(format!("H3: c = {} < 1", fmt(&c)));
    Ok(c)
}

/// Constrained convex hypotheses shared by Thms 4.3, 4.6 and 4.10: returns D.
pub(crate) fn constrained_convex(
    id: ResultId,
    s: &Setting,
    hyps: &mut Vec<String>,
) -> Result<Enclosure> {
    let d = s.d.clone().ok_or_else(|| {
        hyp(
            id,
            "H1: constraint set of diameter D",
            "give the diameter D",
        )
    })?;
    match (&s.big_m, &s.c) {
        (Some(_), _) => check_eta_smooth(id, s, true, hyps)?,
        (None, Some(c)) if s.c_given => {
            if c.hi()
                .partial_cmp(one().lo())
                .is_none_or(|o| o == std::cmp::Ordering::Greater)
            {
                return Err(hyp(
                    id,
                    "H2: contractive gradient step (c ≤ 1)",
                    format!("c = {}", fmt(c)),
                ));
            }
            hyps.push(format!("H2: contraction c = {} ≤ 1 given directly", fmt(c)));
        }
        _ => {
            return Err(hyp(
                id,
                "H2: convex, M-smooth losses with 0 < η ≤ 2/M",
                "give the smoothness M (or the contraction c ≤ 1)",
            ));
        }
    }
    hyps.push(format!("H1: diameter D = {}", fmt(&d)));
    Ok(d)
}

/// BSA24 Thm 4.1 (composition, NoisyGD): `μ = (L/(nσ))√t`.
///
/// # Errors
/// Hypothesis error unless the setting is full-batch GD.
pub fn thm_4_1(s: &Setting) -> Result<Bound> {
    require_algorithm(
        ResultId::Bsa24Thm4_1,
        s,
        &[Algorithm::Gd],
        "H0: NoisyGD (full batches)",
    )?;
    let mu = mu_thm_4_1_unchecked(&s.unit(), s.t);
    gdp(
        ResultId::Bsa24Thm4_1,
        "NoisyGD, any losses (composition)",
        mu,
        vec!["H1: gradient sensitivity L".into()],
        false,
    )
}

/// BSA24 Thm 4.2 (NoisyGD, strongly convex): see the module doc for the reading.
///
/// # Errors
/// Hypothesis errors: not strongly convex / no contraction, η ≥ 2/M, c ≥ 1.
pub fn thm_4_2(s: &Setting) -> Result<Bound> {
    require_algorithm(
        ResultId::Bsa24Thm4_2,
        s,
        GD_OR_LMC,
        "H0: NoisyGD (full batches)",
    )?;
    let mut hyps = vec![];
    let c = strong_contraction(ResultId::Bsa24Thm4_2, s, &mut hyps)?;
    let mu = mu_thm_4_2_unchecked(&c, s.t, &s.unit());
    // optimality claimed for η ≤ 2/(M + m)
    let exact = match (&s.m, &s.big_m) {
        (Some(m), Some(mm)) if !s.c_given => {
            (s.eta.clone() * (m.clone() + mm.clone())).hi() <= two().lo()
        }
        _ => false,
    };
    gdp(
        ResultId::Bsa24Thm4_2,
        "NoisyGD, strongly convex (shifted interpolation)",
        mu,
        hyps,
        exact,
    )
}

/// BSA24 Thm 4.3 (NoisyGD, constrained convex).
///
/// # Errors
/// Hypothesis errors: no diameter, η > 2/M, `t < Dn/(ηL)`.
pub fn thm_4_3(s: &Setting) -> Result<Bound> {
    require_algorithm(
        ResultId::Bsa24Thm4_3,
        s,
        GD_OR_LMC,
        "H0: NoisyGD (full batches)",
    )?;
    let mut hyps = vec![];
    let d = constrained_convex(ResultId::Bsa24Thm4_3, s, &mut hyps)?;
    // exact rational threshold Dn/(ηL) and its ceiling
    let thr = threshold(s, s.n)?;
    if s.t < thr {
        return Err(hyp(
            ResultId::Bsa24Thm4_3,
            "H3: t ≥ Dn/(ηL)",
            format!("t = {}, Dn/(ηL) = {}", s.t, thr.to_f64()),
        ));
    }
    hyps.push(format!("H3: t = {} ≥ Dn/(ηL) = {}", s.t, thr.to_f64()));
    let k = ceil_of(ResultId::Bsa24Thm4_3, &thr)?;
    let mu = mu_thm_4_3_k_unchecked(&s.l, &d, &s.eta, s.n, &s.sigma, &k);
    gdp(
        ResultId::Bsa24Thm4_3,
        "NoisyGD, constrained convex (shifted interpolation)",
        mu,
        hyps,
        false,
    )
}

fn cyclic_shape(id: ResultId, s: &Setting, hyps: &mut Vec<String>) -> Result<(u64, u64)> {
    require_algorithm(id, s, &[Algorithm::Cgd], "H0: NoisyCGD (cyclic batches)")?;
    let l = s.batches_per_epoch().ok_or_else(|| {
        hyp(
            id,
            "H4: l = n/b is an integer",
            format!("n = {}, b = {}", s.n, s.b),
        )
    })?;
    let e = s.integer_epochs().ok_or_else(|| {
        hyp(
            id,
            "H5: E = t/l is an integer",
            format!("t = {}, l = {l}", s.t),
        )
    })?;
    hyps.push(format!("H4/H5: l = {l}, E = {e} integers"));
    Ok((l, e))
}

/// BSA24 Thm 4.4 (composition, NoisyCGD): `μ = (L/(bσ))√E`.
///
/// # Errors
/// Hypothesis errors unless cyclic with integer l and E.
pub fn thm_4_4(s: &Setting) -> Result<Bound> {
    let mut hyps = vec!["H1: gradient sensitivity L".to_string()];
    let (_, e) = cyclic_shape(ResultId::Bsa24Thm4_4, s, &mut hyps)?;
    gdp(
        ResultId::Bsa24Thm4_4,
        "NoisyCGD, any losses (composition)",
        mu_thm_4_4_unchecked(&s.unit(), e),
        hyps,
        false,
    )
}

/// BSA24 Thm 4.5 (NoisyCGD, strongly convex).
///
/// # Errors
/// Hypothesis errors: cyclic shape, strong convexity, η ≥ 2/M, c ≥ 1.
pub fn thm_4_5(s: &Setting) -> Result<Bound> {
    let mut hyps = vec![];
    let (l, e) = cyclic_shape(ResultId::Bsa24Thm4_5, s, &mut hyps)?;
    let c = strong_contraction(ResultId::Bsa24Thm4_5, s, &mut hyps)?;
    gdp(
        ResultId::Bsa24Thm4_5,
        "NoisyCGD, strongly convex (shifted interpolation)",
        mu_thm_4_5_unchecked(&c, l, e, &s.unit()),
        hyps,
        false,
    )
}

/// BSA24 Thm 4.6 (NoisyCGD, constrained convex).
///
/// # Errors
/// Hypothesis errors: cyclic shape, diameter, η > 2/M, `E < Db/(ηL)`.
pub fn thm_4_6(s: &Setting) -> Result<Bound> {
    let mut hyps = vec![];
    let (l, e) = cyclic_shape(ResultId::Bsa24Thm4_6, s, &mut hyps)?;
    let d = constrained_convex(ResultId::Bsa24Thm4_6, s, &mut hyps)?;
    let thr = threshold(s, s.b)?;
    if e < thr {
        return Err(hyp(
            ResultId::Bsa24Thm4_6,
            "H3: E ≥ Db/(ηL)",
            format!("E = {e}, Db/(ηL) = {}", thr.to_f64()),
        ));
    }
    hyps.push(format!("H3: E = {e} ≥ Db/(ηL) = {}", thr.to_f64()));
    let k = ceil_of(ResultId::Bsa24Thm4_6, &thr)?;
    gdp(
        ResultId::Bsa24Thm4_6,
        "NoisyCGD, constrained convex (shifted interpolation)",
        mu_thm_4_6_k_unchecked(&s.l, &d, &s.eta, s.b, l, &s.sigma, &k),
        hyps,
        false,
    )
}

/// H0 of the LMC results: the run is Langevin Monte Carlo, whose noise is `N(0, 2ηI)`,
/// i.e. σ = √(2/η) in NoisyGD's parametrization (`X_{k+1} = X_k − η(∇F + Z)`,
/// `Z ~ N(0, σ²I)`): σ²η = 2. The μ of Props 5.1, Cor 5.2 and Cor 5.4 do not depend on
/// σ because of this; a `--noise` that breaks it would make them unsound (found by the
/// long validation run: with σ = 0.153, η = 0.734 Prop 5.1 gave μ = 0.084 where the
/// exact μ of the run is 0.908). Checked as `σ²η ∋ 2` in interval arithmetic: σ derived
/// from η (no `--noise`) passes; a decimal σ passes only if σ²η = 2 exactly.
fn langevin(id: ResultId, s: &Setting) -> Result<()> {
    require_algorithm(id, s, &[Algorithm::Lmc], "H0: Langevin Monte Carlo")?;
    let s2eta = s.sigma.square() * s.eta.clone();
    let two = two();
    if s2eta.lo() > two.hi() || s2eta.hi() < two.lo() {
        return Err(hyp(
            id,
            "H0: Langevin noise N(0, 2ηI), i.e. σ = √(2/η)",
            format!(
                "σ²η = {} ≠ 2; omit the noise σ for LMC, where σ = √(2/η) is implied",
                fmt(&s2eta)
            ),
        ));
    }
    Ok(())
}

fn lmc_strong(id: ResultId, s: &Setting, hyps: &mut Vec<String>) -> Result<Enclosure> {
    langevin(id, s)?;
    let m = match &s.m {
        Some(m) if m.is_positive() => m.clone(),
        _ => {
            return Err(hyp(
                id,
                "H1: F, F′ m-strongly convex (m > 0)",
                "give the strong convexity m",
            ));
        }
    };
    let mm = s
        .big_m
        .clone()
        .ok_or_else(|| hyp(id, "H2: F, F′ M-smooth", "give the smoothness M"))?;
    let em = s.eta.clone() * (m.clone() + mm);
    if em
        .hi()
        .partial_cmp(two().lo())
        .is_none_or(|o| o == std::cmp::Ordering::Greater)
    {
        return Err(hyp(
            id,
            "H3: 0 < η ≤ 2/(M + m)",
            format!("η(M + m) = {}", fmt(&em)),
        ));
    }
    hyps.push(format!(
        "H1–H3: m = {}, η(M + m) = {} ≤ 2; F − F′ is L-Lipschitz with L = {}",
        fmt(&m),
        fmt(&em),
        fmt(&s.l)
    ));
    Ok(m)
}

/// BSA24 Prop 5.1 (LMC, any t): `μ = √((2 − ηm)/2) L/√m` for `η ∈ (0, 2/(M+m)]`.
///
/// # Errors
/// Hypothesis errors unless LMC with m > 0, M and `η(M+m) ≤ 2`.
pub fn prop_5_1(s: &Setting) -> Result<Bound> {
    let mut hyps = vec![];
    let m = lmc_strong(ResultId::Bsa24Prop5_1, s, &mut hyps)?;
    gdp(
        ResultId::Bsa24Prop5_1,
        "LMC iterates, strongly log-concave (every t)",
        mu_prop_5_1_unchecked(&s.eta, &m, &s.l),
        hyps,
        true,
    )
}

/// BSA24 Cor 5.2, first part: the stationary law π(η) of LMC, same μ as Prop 5.1.
///
/// # Errors
/// As [`prop_5_1`].
pub fn cor_5_2_stationary(s: &Setting) -> Result<Bound> {
    let mut hyps = vec![];
    let m = lmc_strong(ResultId::Bsa24Cor5_2Eta, s, &mut hyps)?;
    let mut b = gdp(
        ResultId::Bsa24Cor5_2Eta,
        "stationary law π(η) of LMC",
        mu_prop_5_1_unchecked(&s.eta, &m, &s.l),
        hyps,
        true,
    )?;
    b.notes
        .push("about the stationary distribution, not the t-step run".into());
    Ok(b)
}

/// BSA24 Cor 5.2, second part: the exponential mechanism `π ∝ e^{−F}`: `μ = L/√m`.
///
/// # Errors
/// As [`prop_5_1`].
pub fn cor_5_2_exponential(s: &Setting) -> Result<Bound> {
    let mut hyps = vec![];
    let m = lmc_strong(ResultId::Bsa24Cor5_2Exp, s, &mut hyps)?;
    let mut b = gdp(
        ResultId::Bsa24Cor5_2Exp,
        "exponential mechanism π ∝ e^{−F}",
        s.l.clone() / m.sqrt(),
        hyps,
        true,
    )?;
    b.notes
        .push("about the exponential mechanism (η → 0 limit), not the t-step run".into());
    Ok(b)
}

fn lmc_convex(id: ResultId, s: &Setting, hyps: &mut Vec<String>) -> Result<Enclosure> {
    langevin(id, s)?;
    let d =
        s.d.clone()
            .ok_or_else(|| hyp(id, "H1: convex body K of diameter D", "give the diameter D"))?;
    if s.big_m.is_none() {
        return Err(hyp(
            id,
            "H2: F, F′ convex and M-smooth",
            "give the smoothness M",
        ));
    }
    check_eta_smooth(id, s, true, hyps)?;
    hyps.push(format!(
        "H1: D = {}; sensitivity L = {} of F − F′ (for L′-Lipschitz F, F′ the paper's 2L′)",
        fmt(&d),
        fmt(&s.l)
    ));
    Ok(d)
}

/// BSA24 Cor 5.4, stationary law of projected LMC: `μ = √(2LD + ηL²/2)` in terms of the
/// gradient sensitivity L of F − F′ (the paper's `√(4L′D + 2ηL′²)` for L′-Lipschitz F, F′,
/// whose sensitivity is 2L′).
///
/// # Errors
/// Hypothesis errors unless LMC with a diameter, M and η ≤ 2/M.
pub fn cor_5_4_stationary(s: &Setting) -> Result<Bound> {
    let mut hyps = vec![];
    let d = lmc_convex(ResultId::Bsa24Cor5_4Eta, s, &mut hyps)?;
    let mu = (two() * s.l.clone() * d + s.eta.clone() * s.l.square().half()).sqrt();
    let mut b = gdp(
        ResultId::Bsa24Cor5_4Eta,
        "stationary law π(η) of projected LMC",
        mu,
        hyps,
        false,
    )?;
    b.notes
        .push("about the stationary distribution, not the t-step run".into());
    Ok(b)
}

/// BSA24 Cor 5.4, exponential mechanism on K: `μ = √(2LD)` (the paper's `2√(L′D)`).
///
/// # Errors
/// As [`cor_5_4_stationary`].
pub fn cor_5_4_exponential(s: &Setting) -> Result<Bound> {
    let mut hyps = vec![];
    let d = lmc_convex(ResultId::Bsa24Cor5_4Exp, s, &mut hyps)?;
    let mu = (two() * s.l.clone() * d).sqrt();
    let mut b = gdp(
        ResultId::Bsa24Cor5_4Exp,
        "exponential mechanism π ∝ e^{−F} 1_K",
        mu,
        hyps,
        false,
    )?;
    b.notes
        .push("about the exponential mechanism (η → 0 limit), not the t-step run".into());
    Ok(b)
}

/// The standard analysis of the exponential mechanism \[MT07\] quoted in BSA24 §5.2:
/// `(LD, 0)`-DP in terms of the sensitivity L of F − F′ (the paper's `(2L′D, 0)`).
///
/// # Errors
/// Hypothesis error without a diameter.
pub fn exponential_mechanism_pure(s: &Setting) -> Result<Bound> {
    require_algorithm(
        ResultId::Mt07Exp,
        s,
        &[Algorithm::Lmc],
        "H0: Langevin / exponential mechanism",
    )?;
    let d = s.d.clone().ok_or_else(|| {
        hyp(
            ResultId::Mt07Exp,
            "H1: K of diameter D",
            "give the diameter D",
        )
    })?;
    Ok(Bound {
        id: ResultId::Mt07Exp,
        title: "exponential mechanism, pure DP".into(),
        kind: BoundKind::Pure {
            eps: s.l.clone() * d,
        },
        hypotheses: vec!["H1: sup_K |F − F′ − const| ≤ LD/2".into()],
        exact: false,
        notes: vec!["about the exponential mechanism, not the t-step run".into()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thm_4_2_reading_matches_prop_5_1_limit() {
        // n = 1, σ = √(2/η), c = 1 − ηm, t → ∞: the adopted reading gives Prop 5.1,
        // the printed one does not.
        let (eta, m, l) = (0.01, 2.0, 3.0);
        let c = 1.0 - eta * m;
        let unit = l / (2.0f64 / eta).sqrt();
        let adopted = mu_thm_4_2_unchecked(&c, 200_000, &unit);
        let printed = mu_thm_4_2_as_printed(&c, 200_000, &unit);
        let prop = mu_prop_5_1_unchecked(&eta, &m, &l);
        assert!((adopted - prop).abs() < 1e-9 * prop, "{adopted} vs {prop}");
        assert!(printed > 5.0 * prop);
    }

    #[test]
    fn thm_4_2_is_monotone_and_below_composition() {
        for &c in &[0.1, 0.5, 0.9, 0.999] {
            let mut prev = 0.0;
            for t in 1..60u64 {
                let mu = mu_thm_4_2_unchecked(&c, t, &1.0);
                assert!(mu >= prev - 1e-15);
                assert!(mu <= mu_thm_4_1_unchecked(&1.0, t) + 1e-12, "c={c} t={t}");
                prev = mu;
            }
            assert!(
                (mu_thm_4_2_unchecked(&c, 1, &1.0) - 1.0).abs() < 1e-12,
                "t = 1 is one Gaussian step"
            );
        }
    }

    #[test]
    fn thm_4_3_equals_uniform_shift_schedule() {
        // c = 1, z_τ = D, T = ⌈Dn/(ηL)⌉ steps of equal shifts a = (D + Ts)/T, s = ηL/n,
        // ς = ησ: μ² = T a²/ς² ≤ the closed form (which bounds D²/(η²T) by LD/(ηn)).
        let (l, d, eta, n, sigma) = (0.7f64, 3.0f64, 0.2f64, 50u64, 1.3f64);
        let s = eta * l / n as f64;
        let t = (d * n as f64 / (eta * l)).ceil();
        let a = (d + t * s) / t;
        let mu_sched = (t * a * a).sqrt() / (eta * sigma);
        let closed = mu_thm_4_3_unchecked(&l, &d, &eta, n, &sigma);
        assert!(mu_sched <= closed * (1.0 + 1e-12));
        assert!(mu_sched >= 0.8 * closed);
    }
}
