//! The translation of a run to the parameters of CYS21 / YS22 and the tabulation of
//! Rényi curves shared by the registry's Rényi results.
//!
//! Papers written in the θ ← θ − ηg + √(2η)σ′N(0, I) convention (CYS21, YS22) are
//! translated explicitly by [`Translated`]: σ′ = σ√(η/2), S_g = L, λ = m, β = M; each
//! such bound says so in its notes.
//!
//! # Rounding
//! Rényi curves that are not linear in α are tabulated at a fixed grid of orders, each
//! value the upper end of a certified enclosure; between grid orders the next larger
//! order is used (D_α is non-decreasing in α). Translations to the f64 parameter
//! structs of CYS21 / YS22 round S_g (= L) up and σ′ down (every bound increases in
//! S_g/σ′).
use crate::error::{Result, hyp};
use crate::precision::Enclosure;
use crate::provenance::ResultId;
use crate::renyi::RenyiCurve;
use crate::renyi::curve::tabulate;
use crate::renyi::cys21::Cys21Params;
use crate::renyi::ys22::Ys22Params;
use crate::settings::Setting;

/// Bits of the Rényi results' enclosures.
pub(super) const BITS: u32 = 128;

/// Orders at which non-linear curves are tabulated: α = 1 + 2^{k/4}.
pub(super) fn grid(kmin: i32, kmax: i32, step: i32) -> Vec<f64> {
    (kmin..=kmax)
        .step_by(step as usize)
        .map(|k| 1.0 + 2f64.powf(f64::from(k) / 4.0))
        .collect()
}

/// Largest composed divergence the sampled-Gaussian baseline is tabulated to: its
/// orders stop at the first whose t-fold divergence exceeds this. An order with
/// `t·D_α ≥ 32` converts to `ε ≥ t·D_α − log(α)/(α−1) + log((α−1)/α) > 30`
/// (Balle et al. 2020, Thm 21), which no smaller order is beaten by in practice, while
/// the quadrature of the mixture–base order costs seconds to minutes at large α and
/// small noise multiplier (α = 65 and 129 at bσ/L = 0.43: 33 s and over 40 s). Any
/// subset of orders gives a valid curve (each value an upper bound at its order).
pub const BASELINE_DIVERGENCE_CAP: f64 = 32.0;

/// As [`tabulate`], over `orders` in increasing order, stopping after the first order
/// whose certified value exceeds `cap` (the curve is non-decreasing in α).
pub(super) fn tabulate_until(
    orders: &[f64],
    cap: f64,
    f: &dyn Fn(f64) -> Result<Enclosure>,
) -> Result<RenyiCurve> {
    let values: std::cell::RefCell<Vec<(f64, Result<Enclosure>)>> = Default::default();
    for &a in orders {
        let v = f(a);
        let stop = v.as_ref().is_ok_and(|e| e.lower_f64() > cap);
        values.borrow_mut().push((a, v));
        if stop {
            break;
        }
    }
    let used: Vec<f64> = values.borrow().iter().map(|x| x.0).collect();
    tabulate(&used, &|a| {
        let mut vs = values.borrow_mut();
        let i = vs
            .iter()
            .position(|x| x.0.to_bits() == a.to_bits())
            .unwrap_or(0);
        vs.swap_remove(i).1
    })
}

/// A curve exactly linear in α, from its value at α = 2: ρ = ε(2)/2.
pub(super) fn linear_from(f: &dyn Fn(f64) -> Result<Enclosure>) -> Result<RenyiCurve> {
    RenyiCurve::linear_enclosure(f(2.0)?.half())
}

/// The CYS21/YS22 parameters translated from the toolkit's setting.
#[derive(Debug, Clone, Copy)]
pub struct Translated {
    /// σ′ = σ√(η/2), rounded down.
    pub sigma_p: f64,
    /// S_g = L, rounded up.
    pub s_g: f64,
    /// η (nearest).
    pub eta: f64,
    /// λ = m (nearest), if given.
    pub lambda: Option<f64>,
    /// β = M (nearest), if given.
    pub beta: Option<f64>,
}

impl Translated {
    /// Translates `s` (docs/conventions.md §2: σ = σ′√(2/η) ⇔ σ′ = σ√(η/2); S_g = L).
    pub fn of(s: &Setting) -> Self {
        let sp = s.sigma.clone() * s.eta.half().sqrt();
        Translated {
            sigma_p: sp.lower_f64(),
            s_g: s.l.upper_f64(),
            eta: s.eta.mid_f64(),
            lambda: s.m.as_ref().map(|m| m.mid_f64()),
            beta: s.big_m.as_ref().map(|m| m.mid_f64()),
        }
    }

    /// The translation, as a note.
    pub fn note(&self) -> String {
        let mut n = format!(
            "translated to the paper's convention θ ← θ − ηg + √(2η)σ′N(0, I): \
             σ′ = σ√(η/2) = {} (rounded down), S_g = L = {} (rounded up), η = {}",
            self.sigma_p, self.s_g, self.eta
        );
        if let (Some(l), Some(b)) = (self.lambda, self.beta) {
            n.push_str(&format!(", λ = m = {l}, β = M = {b}"));
        }
        n
    }

    pub(super) fn strongly_convex(&self, result: ResultId) -> Result<(f64, f64)> {
        match (self.lambda, self.beta) {
            (Some(l), Some(b)) if l > 0.0 => Ok((l, b)),
            (Some(l), Some(_)) => Err(hyp(
                result,
                "λ-strongly convex with λ > 0",
                format!("m = {l}"),
            )),
            _ => Err(hyp(
                result,
                "λ-strongly convex, β-smooth: needs the strong convexity m and the smoothness M",
                "a contraction given directly does not determine λ and β",
            )),
        }
    }
}

pub(super) fn cys21_params(s: &Setting, tr: &Translated, result: ResultId) -> Result<Cys21Params> {
    if s.b != s.n {
        return Err(hyp(
            result,
            "full batch (b = n)",
            format!("b = {}, n = {}", s.b, s.n),
        ));
    }
    Cys21Params::new(
        tr.sigma_p,
        tr.s_g,
        tr.lambda.unwrap_or(0.0).max(0.0),
        tr.beta.unwrap_or(0.0).max(0.0),
        tr.eta,
        s.n,
    )
}

pub(super) fn ys22_params(
    s: &Setting,
    tr: &Translated,
    result: ResultId,
) -> Result<(Ys22Params, u64)> {
    let (lam, beta) = tr.strongly_convex(result)?;
    let epochs = s.integer_epochs().ok_or_else(|| {
        hyp(
            result,
            "b divides n and t = K·n/b for an integer number of epochs K",
            format!("n = {}, b = {}, t = {}", s.n, s.b, s.t),
        )
    })?;
    Ok((
        Ys22Params::new(tr.sigma_p, tr.s_g, lam, beta, tr.eta, s.n, s.b)?,
        epochs,
    ))
}
