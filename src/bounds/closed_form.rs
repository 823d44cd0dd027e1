//! Closed-form GDP bounds of BSA24 Thms 4.1–4.6 (NoisyGD and cyclic NoisyCGD), generic
//! over [`Real`] so that they run as `f64` estimates and as certified [`Enclosure`]s
//! (the upper end of an enclosure is the reported μ).
//!
//! Every formula below is documented as printed in the transcription and with the
//! reading adopted; the readings are established against the schedule problem of
//! SPEC §4 (see `crate::schedules::crosscheck` and ERRATA.md E1, S1–S6).
//!
//! # Rounding
//! With [`Enclosure`] arguments every operation is interval arithmetic with outward
//! rounding, so the exact μ lies in the result; report its upper end.
//!
//! # References
//! BSA24: Bok, Su, Altschuler, *Shifted interpolation for differential privacy*, 2024,
//! §4.1–4.2.
//!
//! [`Enclosure`]: crate::precision::Enclosure
use crate::error::{Error, Result};
use crate::precision::Real;

use super::bsa24;

fn finite_pos<R: Real>(result: &str, name: &str, x: &R) -> Result<()> {
    if x.lower_f64() > 0.0 && x.upper_f64().is_finite() {
        Ok(())
    } else {
        Err(Error::Hypothesis {
            result: result.into(),
            hypothesis: format!("{name} finite and > 0"),
            detail: format!("{name} = {x:?}"),
        })
    }
}

fn finite_nonneg<R: Real>(result: &str, name: &str, x: &R) -> Result<()> {
    if x.lower_f64() >= 0.0 && x.upper_f64().is_finite() {
        Ok(())
    } else {
        Err(Error::Hypothesis {
            result: result.into(),
            hypothesis: format!("{name} finite and ≥ 0"),
            detail: format!("{name} = {x:?}"),
        })
    }
}

fn count(result: &str, name: &str, v: u64) -> Result<()> {
    if v >= 1 {
        Ok(())
    } else {
        Err(Error::Hypothesis {
            result: result.into(),
            hypothesis: format!("{name} ≥ 1"),
            detail: format!("{name} = {v}"),
        })
    }
}

fn strongly_contractive<R: Real>(result: &str, c: &R) -> Result<()> {
    if c.lower_f64() >= 0.0 && c.upper_f64() < 1.0 {
        Ok(())
    } else {
        Err(Error::Hypothesis {
            result: result.into(),
            hypothesis: "H2: m > 0 and 0 < η < 2/M, i.e. c = max{|1−ηm|,|1−ηM|} ∈ [0, 1)".into(),
            detail: format!("c = {c:?}"),
        })
    }
}

fn step_size<R: Real>(result: &str, eta: &R, smoothness: &R) -> Result<()> {
    finite_pos(result, "η", eta)?;
    finite_pos(result, "M", smoothness)?;
    // η ≤ 2/M  ⇔  ηM ≤ 2, checked on the upper end (certainly satisfied)
    let prod = eta.clone() * smoothness.clone();
    if prod.upper_f64() <= 2.0 {
        Ok(())
    } else {
        Err(Error::Hypothesis {
            result: result.into(),
            hypothesis: "H2: 0 < η ≤ 2/M".into(),
            detail: format!("ηM = {}", prod.upper_f64()),
        })
    }
}

/// BSA24 Thm 4.1: NoisyGD by composition.
///
/// # Formula
/// μ = (L/(nσ)) √t (as printed; no ambiguity).
///
/// # Errors
/// [`Error::Hypothesis`] if L < 0, σ ≤ 0, n = 0 or t = 0.
///
/// # Example
/// ```
/// use shiftdp::bounds::closed_form::thm_4_1;
/// assert!((thm_4_1(2.0_f64, 4, 0.5, 9).unwrap() - 3.0).abs() < 1e-15);
/// ```
///
/// # References
/// BSA24 Thm 4.1; DRS22 Cor. 2.
pub fn thm_4_1<R: Real>(sensitivity: R, n: u64, sigma: R, t: u64) -> Result<R> {
    let id = "BSA24 Thm 4.1";
    finite_nonneg(id, "L", &sensitivity)?;
    finite_pos(id, "σ", &sigma)?;
    count(id, "n", n)?;
    count(id, "t", t)?;
    let unit = sensitivity / (sigma.int(n) * sigma.clone());
    Ok(bsa24::mu_thm_4_1(&unit, t))
}

/// BSA24 Thm 4.2: NoisyGD, m-strongly convex, M-smooth, unconstrained.
///
/// # Formula
/// As printed (transcription): μ = √((1−cᵗ)/(1+cᵗ)) · (1+c)/(1−c) · L/(nσ), the square
/// root over the first factor only.
///
/// Reading adopted: **μ = √( (1−cᵗ)/(1+cᵗ) · (1+c)/(1−c) ) · L/(nσ)**, the square root
/// over both factors. This is exactly the KKT optimum of the schedule problem
/// (τ = 0, z_0 = 0, s = ηL/n, ς = ησ): μ² = G_t²/X_t with
/// G_t = s(1−cᵗ)/(1−c), X_t = ς²(1−c^{2t})/(1−c²); the printed reading is larger by
/// the factor √((1+c)/(1−c)) and is not tight at t = 1 (where μ must be L/(nσ)).
///
/// # Errors
/// [`Error::Hypothesis`] `H2` unless c ∈ [0, 1) (m > 0, 0 < η < 2/M); L < 0, σ ≤ 0,
/// n = 0, t = 0.
///
/// # Example
/// ```
/// use shiftdp::bounds::closed_form::thm_4_2;
/// // t = 1: one step of the Gaussian mechanism, μ = L/(nσ)
/// assert!((thm_4_2(0.7_f64, 1, 1.0, 1, 2.0).unwrap() - 0.5).abs() < 1e-15);
/// ```
///
/// # References
/// BSA24 Thm 4.2; ERRATA.md E1, S1.
pub fn thm_4_2<R: Real>(c: R, t: u64, sensitivity: R, n: u64, sigma: R) -> Result<R> {
    let id = "BSA24 Thm 4.2";
    strongly_contractive(id, &c)?;
    finite_nonneg(id, "L", &sensitivity)?;
    finite_pos(id, "σ", &sigma)?;
    count(id, "n", n)?;
    count(id, "t", t)?;
    let unit = sensitivity / (sigma.int(n) * sigma.clone());
    Ok(bsa24::mu_thm_4_2(&c, t, &unit))
}

/// BSA24 Thm 4.3: projected NoisyGD, convex, M-smooth, constraint set of diameter D.
///
/// # Formula
/// μ = (1/σ) √( 3LD/(ηn) + (L²/n²) ⌈Dn/(ηL)⌉ ) (as printed; reading confirmed: it is
/// the schedule with τ = t − ⌈Dn/(ηL)⌉, z_τ = D and equal shifts, whose μ² is
/// (D + Ts)²/(Tς²) ≤ 3Ds/ς² + Ts²/ς² for T = ⌈D/s⌉, s = ηL/n, ς = ησ).
///
/// # Errors
/// [`Error::Hypothesis`] `H2: 0 < η ≤ 2/M`, `H3: t ≥ Dn/(ηL)`, or L, D, σ not > 0,
/// n = 0.
///
/// # Example
/// ```
/// use shiftdp::bounds::closed_form::thm_4_3;
/// // L = n = η = σ = M = 1, D = 4: μ² = 12 + 4 = 16
/// assert!((thm_4_3(1.0_f64, 4.0, 1.0, 1, 1.0, 1.0, 10).unwrap() - 4.0).abs() < 1e-14);
/// ```
///
/// # References
/// BSA24 Thm 4.3.
pub fn thm_4_3<R: Real>(
    sensitivity: R,
    diameter: R,
    eta: R,
    n: u64,
    sigma: R,
    smoothness: R,
    t: u64,
) -> Result<R> {
    let id = "BSA24 Thm 4.3";
    step_size(id, &eta, &smoothness)?;
    finite_pos(id, "L", &sensitivity)?;
    finite_pos(id, "D", &diameter)?;
    finite_pos(id, "σ", &sigma)?;
    count(id, "n", n)?;
    let nn = eta.int(n);
    let ratio = diameter.clone() * nn.clone() / (eta.clone() * sensitivity.clone());
    if ratio.upper_f64() > t as f64 {
        return Err(Error::Hypothesis {
            result: id.into(),
            hypothesis: "H3: t ≥ Dn/(ηL)".into(),
            detail: format!("t = {t}, Dn/(ηL) = {}", ratio.upper_f64()),
        });
    }
    Ok(bsa24::mu_thm_4_3_k(
        &sensitivity,
        &diameter,
        &eta,
        n,
        &sigma,
        &ratio.ceil(),
    ))
}

/// BSA24 Thm 4.4: NoisyCGD by composition.
///
/// # Formula
/// μ = (L/(bσ)) √E (as printed).
///
/// # Errors
/// [`Error::Hypothesis`] if L < 0, σ ≤ 0, b = 0 or E = 0.
///
/// # Example
/// ```
/// use shiftdp::bounds::closed_form::thm_4_4;
/// assert!((thm_4_4(1.0_f64, 1, 1.0, 4).unwrap() - 2.0).abs() < 1e-15);
/// ```
///
/// # References
/// BSA24 Thm 4.4.
pub fn thm_4_4<R: Real>(sensitivity: R, b: u64, sigma: R, epochs: u64) -> Result<R> {
    let id = "BSA24 Thm 4.4";
    finite_nonneg(id, "L", &sensitivity)?;
    finite_pos(id, "σ", &sigma)?;
    count(id, "b", b)?;
    count(id, "E", epochs)?;
    let unit = sensitivity / (sigma.int(b) * sigma.clone());
    Ok(bsa24::mu_thm_4_4(&unit, epochs))
}

/// BSA24 Thm 4.5: NoisyCGD, m-strongly convex, M-smooth, unconstrained.
///
/// # Formula
/// μ = (L/(bσ)) √( 1 + c^{2l−2} (1−c²)/(1−c^l)² · (1−c^{l(E−1)})/(1+c^{l(E−1)}) )
/// (as printed; read with the square root over the whole sum).
///
/// # Errors
/// [`Error::Hypothesis`] `H2` unless c ∈ [0, 1); L < 0, σ ≤ 0, b, l, E = 0.
///
/// # Example
/// ```
/// use shiftdp::bounds::closed_form::thm_4_5;
/// // E = 1: only the last epoch, μ = L/(bσ)
/// assert!((thm_4_5(0.9_f64, 5, 1, 1.0, 1, 1.0).unwrap() - 1.0).abs() < 1e-15);
/// ```
///
/// # References
/// BSA24 Thm 4.5.
pub fn thm_4_5<R: Real>(c: R, l: u64, epochs: u64, sensitivity: R, b: u64, sigma: R) -> Result<R> {
    let id = "BSA24 Thm 4.5";
    strongly_contractive(id, &c)?;
    finite_nonneg(id, "L", &sensitivity)?;
    finite_pos(id, "σ", &sigma)?;
    count(id, "b", b)?;
    count(id, "l", l)?;
    count(id, "E", epochs)?;
    let unit = sensitivity / (sigma.int(b) * sigma.clone());
    Ok(bsa24::mu_thm_4_5(&c, l, epochs, &unit))
}

/// BSA24 Thm 4.6: projected NoisyCGD, convex, M-smooth, diameter D.
///
/// # Formula
/// μ = (1/σ) √( (L/b)² + 3LD/(ηbl) + (L²/(b²l)) ⌈Db/(ηL)⌉ ) (as printed).
///
/// # Errors
/// [`Error::Hypothesis`] `H2: 0 < η ≤ 2/M`, `H3: E ≥ Db/(ηL)`, or L, D, σ not > 0,
/// b, l = 0.
///
/// # Example
/// ```
/// use shiftdp::bounds::closed_form::thm_4_6;
/// // L = b = η = σ = M = 1, l = 2, D = 2: μ² = 1 + 3 + 1 = 5
/// let mu = thm_4_6(1.0_f64, 2.0, 1.0, 1, 2, 1.0, 1.0, 5).unwrap();
/// assert!((mu - 5f64.sqrt()).abs() < 1e-14);
/// ```
///
/// # References
/// BSA24 Thm 4.6.
#[allow(clippy::too_many_arguments)]
pub fn thm_4_6<R: Real>(
    sensitivity: R,
    diameter: R,
    eta: R,
    b: u64,
    l: u64,
    sigma: R,
    smoothness: R,
    epochs: u64,
) -> Result<R> {
    let id = "BSA24 Thm 4.6";
    step_size(id, &eta, &smoothness)?;
    finite_pos(id, "L", &sensitivity)?;
    finite_pos(id, "D", &diameter)?;
    finite_pos(id, "σ", &sigma)?;
    count(id, "b", b)?;
    count(id, "l", l)?;
    let bb = eta.int(b);
    let ratio = diameter.clone() * bb.clone() / (eta.clone() * sensitivity.clone());
    if ratio.upper_f64() > epochs as f64 {
        return Err(Error::Hypothesis {
            result: id.into(),
            hypothesis: "H3: E ≥ Db/(ηL)".into(),
            detail: format!("E = {epochs}, Db/(ηL) = {}", ratio.upper_f64()),
        });
    }
    Ok(bsa24::mu_thm_4_6_k(
        &sensitivity,
        &diameter,
        &eta,
        b,
        l,
        &sigma,
        &ratio.ceil(),
    ))
}
