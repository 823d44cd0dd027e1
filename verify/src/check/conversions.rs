//! Conversion checks: the certified conversions and the composition engine against an
//! independent evaluation of the exact value, at random and extreme parameters.
//!
//! Three comparisons per sampled point (μ, δ, ε), reported as a [`BoundReport`] under the
//! id [`CONVERSIONS_ID`] so that `shiftdp check all` and the long validation run count
//! them with the bound-against-instance checks:
//!
//! 1. **ε(δ) of G(μ)** ([`Gaussian::epsilon`], the f64 path with its MPFR fallback)
//!    against δ(ε) evaluated at its two ends in 256-bit MPFR interval arithmetic
//!    (`δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)`, DRS22 Cor 2.13): the upper end ε⁺
//!    must have `δ(ε⁺) ≤ δ` and the lower end ε⁻ (when positive) `δ(ε⁻) ≥ δ`;
//! 2. **δ(ε) of G(μ)** ([`Gaussian::delta`], f64 path) against the same 256-bit
//!    enclosure: the two intervals must intersect (both contain the true value);
//! 3. every 16th point, **the PLD engine** on `G(μ/√k)^{⊗k}` (k ≤ 1000, δ ≥ 1e-60)
//!    against the exact `G(μ)` (DRS22 Cor 3.3): the engine's ε interval must meet the
//!    closed form's.
//!
//! A comparison is a violation when the two certified statements contradict each other
//! by more than the reference's own width (so one of them is wrong), inconclusive when
//! the reference's width decides nothing. A conversion the toolkit refuses
//! ([`Error::NotCertified`], e.g. ε beyond 7e8) is counted as skipped with its reason,
//! never as an answer.
//!
//! # Region
//! μ log-uniform in [1e-3, 1e3] and δ log-uniform in [1e-300, 0.5], with probability
//! 1/8 each replaced by a corner: μ ∈ {1e-3, 1e-2, 20, 100, 1000, 3e4},
//! δ ∈ {1e-300, 1e-100 (the engine's floor), 1e-16, 0.3, 0.5}; ε log-uniform in
//! [1e-3, 50].
use super::common::{SplitMix64, salted};
use super::validator::{BoundReport, Violation};
use shiftdp::composition::{Component, Composition};
use shiftdp::error::{Error, Result};
use shiftdp::exact::Order;
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::tradeoff::Gaussian;
use shiftdp::tradeoff::gaussian::delta_enclosure;

/// Id of the conversion checks in reports.
pub const CONVERSIONS_ID: &str = "GDP conversions and PLD engine";
/// The sampled region, as reported.
pub const CONVERSIONS_REGION: &str = "μ ∈ [1e-3, 1e3] ∪ {3e4}, δ ∈ [1e-300, 0.5], ε ∈ [1e-3, 50]";
/// Default number of sampled points.
pub const DEFAULT_SAMPLES: usize = 200;
/// Precision of the reference evaluation.
const REF_BITS: u32 = 256;

fn log_uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    (lo.ln() + rng.unit() * (hi.ln() - lo.ln())).exp()
}

fn pick(rng: &mut SplitMix64, corners: &[f64], lo: f64, hi: f64) -> f64 {
    if rng.unit() < 0.125 {
        corners[(rng.next_u64() % corners.len() as u64) as usize]
    } else {
        log_uniform(rng, lo, hi)
    }
}

/// The reference: δ(ε) of G(μ) enclosed at 256 bits.
fn delta_ref(mu: f64, eps: f64) -> Enclosure {
    delta_enclosure(
        &Enclosure::from_f64(REF_BITS, mu),
        &Enclosure::from_f64(REF_BITS, eps),
        REF_BITS,
    )
}

struct Tally<'a> {
    rep: &'a mut BoundReport,
    params: Vec<(&'static str, String)>,
}

/// Outcome of one comparison.
#[derive(Clone, Copy, PartialEq)]
enum Outcome {
    Consistent,
    Inconclusive,
    Violated,
}

/// A one-sided claim `x` about a true value enclosed in `[rl, ru]`: an upper claim
/// (`x ≥ truth`) is violated when `rl > x` and consistent when `ru ≤ x`; a lower claim
/// (`x ≤ truth`) is violated when `ru < x` and consistent when `rl ≥ x`; otherwise the
/// reference's width decides nothing.
fn side(x: f64, rl: f64, ru: f64, upper: bool) -> Outcome {
    let (ok, bad) = if upper {
        (ru <= x, rl > x)
    } else {
        (rl >= x, ru < x)
    };
    if bad {
        Outcome::Violated
    } else if ok {
        Outcome::Consistent
    } else {
        Outcome::Inconclusive
    }
}

/// Two certified intervals of one true value must intersect.
fn meets(a: (f64, f64), b: (f64, f64)) -> Outcome {
    if a.0 > b.1 || b.0 > a.1 {
        Outcome::Violated
    } else {
        Outcome::Consistent
    }
}

impl Tally<'_> {
    /// Counts one comparison of `bound` (at grid point `at`) with the reference `r`.
    fn record(&mut self, what: &str, at: f64, bound: f64, r: (f64, f64), o: Outcome) {
        self.rep.comparisons += 1;
        match o {
            Outcome::Consistent => {}
            Outcome::Inconclusive => self.rep.inconclusive += 1,
            Outcome::Violated => self.rep.violations.push(Violation {
                params: self.params.clone(),
                instance: what.to_string(),
                kind: "conversion",
                at,
                order: Order::Forward,
                bound,
                instance_value: 0.5 * (r.0 + r.1),
                instance_error: 0.5 * (r.1 - r.0),
                margin: if bound > r.1 {
                    bound - r.1
                } else {
                    bound - r.0
                },
            }),
        }
    }
    fn refused(&mut self, e: &Error) {
        self.rep.skip(match e {
            Error::NotCertified { what, .. } => format!("not certified: {what}"),
            other => format!(
                "refused: {}",
                other.to_string().chars().take(60).collect::<String>()
            ),
        });
    }
}

/// Runs the conversion checks on `samples` points drawn with `seed`.
///
/// # Errors
/// [`Error::Parameter`] if `samples` is 0.
///
/// # Example
/// ```
/// use shiftdp_verify::check::conversions::check_conversions;
/// let r = check_conversions(20, 1).unwrap();
/// assert!(r.violations.is_empty() && r.comparisons >= 20);
/// ```
pub fn check_conversions(samples: usize, seed: u64) -> Result<BoundReport> {
    check_conversions_scaled(samples, seed, 1.0)
}

/// [`check_conversions`] with every certified upper end (ε⁺ of ε(δ), δ⁺ of δ(ε), the
/// engine's ε⁺) multiplied by `scale` before it is checked: `scale < 1` plants a bug
/// on the unsafe side, which the checks must catch.
///
/// # Errors
/// [`Error::Parameter`] if `samples` is 0 or `scale` is not finite and > 0.
pub fn check_conversions_scaled(samples: usize, seed: u64, scale: f64) -> Result<BoundReport> {
    if samples == 0 {
        return Err(Error::param("samples", 0, "must be ≥ 1"));
    }
    if !(scale.is_finite() && scale > 0.0) {
        return Err(Error::param("scale", scale, "must be finite and > 0"));
    }
    let mut rng = SplitMix64::new(salted(seed, CONVERSIONS_ID));
    let mut rep = BoundReport::new(CONVERSIONS_ID, CONVERSIONS_REGION);
    for i in 0..samples {
        let mu = pick(&mut rng, &[1e-3, 1e-2, 20.0, 100.0, 1000.0, 3e4], 1e-3, 1e3);
        let delta = pick(&mut rng, &[1e-300, 1e-100, 1e-16, 0.3, 0.5], 1e-300, 0.5);
        let eps = log_uniform(&mut rng, 1e-3, 50.0);
        let mut t = Tally {
            params: vec![
                ("mu", format!("{mu:e}")),
                ("delta", format!("{delta:e}")),
                ("epsilon", format!("{eps:e}")),
            ],
            rep: &mut rep,
        };
        t.rep.samples_run += 1;
        t.rep.instances += 1;
        // 1. ε(δ): δ(ε⁺) ≤ δ and δ(ε⁻) ≥ δ at 256 bits
        let (m, d) = (Enclosure::from_f64(64, mu), Enclosure::from_f64(64, delta));
        match Gaussian::epsilon(&m, &d, Precision::F64) {
            Ok(c) => {
                let (lo, hi) = (c.enclosure.lower_f64(), c.enclosure.upper_f64() * scale);
                let lo = lo.min(hi);
                // δ is a claim on δ(end) at 256 bits: an upper one at the upper end, a
                // lower one at the lower end
                let mut end = |what: &str, end: f64, upper: bool| {
                    let r = delta_ref(mu, end);
                    let r = (r.lower_f64(), r.upper_f64());
                    t.record(what, end, delta, r, side(delta, r.0, r.1, upper));
                };
                // upper end: δ(ε⁺) ≤ δ (when δ(0) ≤ δ the conversion returns ε⁺ = 0 and
                // the claim is δ(0) ≤ δ)
                end("ε(δ) upper end: δ(ε⁺) at 256 bits", hi, true);
                if lo > 0.0 {
                    // lower end: δ(ε⁻) ≥ δ
                    end("ε(δ) lower end: δ(ε⁻) at 256 bits", lo, false);
                }
            }
            Err(e) => t.refused(&e),
        }
        // 2. δ(ε): f64 interval meets the 256-bit enclosure
        match Gaussian::delta(&m, &Enclosure::from_f64(64, eps), Precision::F64) {
            Ok(c) => {
                let r = delta_ref(mu, eps);
                let r = (r.lower_f64(), r.upper_f64());
                let ci = (c.enclosure.lower_f64(), c.enclosure.upper_f64() * scale);
                let ci = (ci.0.min(ci.1), ci.1);
                t.record(
                    "δ(ε) interval meets δ(ε) at 256 bits",
                    eps,
                    ci.1,
                    r,
                    meets(ci, r),
                );
            }
            Err(e) => t.refused(&e),
        }
        // 3. the engine on G(μ/√k)^{⊗k} against G(μ)
        if i % 16 == 0 && mu <= 20.0 && (1e-60..0.5).contains(&delta) {
            let k = 1 + rng.next_u64() % 1000;
            let part = mu / (k as f64).sqrt();
            let res = Component::gaussian(part)
                .and_then(|c| Composition::new().with(c, k))
                .and_then(|c| c.compose_for_delta(delta, None))
                .and_then(|r| r.epsilon(delta));
            match res {
                Ok(iv) => {
                    // the exact μ of the list: √k · part (≈ μ), enclosed at 256 bits
                    let pe = Enclosure::from_f64(REF_BITS, part);
                    let me = pe.square().mul(&Enclosure::from_u64(REF_BITS, k)).sqrt();
                    match Gaussian::epsilon(
                        &me,
                        &Enclosure::from_f64(REF_BITS, delta),
                        Precision::Bits(128),
                    ) {
                        Ok(g) => {
                            let r = (g.enclosure.lower_f64(), g.enclosure.upper_f64());
                            let up = iv.upper * scale;
                            let o = meets((iv.lower.min(up), up), r);
                            t.record("PLD engine ε(δ) meets the exact G(√k·μ)", delta, up, r, o);
                        }
                        Err(e) => t.refused(&e),
                    }
                }
                Err(e) => t.refused(&e),
            }
        }
    }
    Ok(rep)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks pass on the real conversions, and catch each conversion made 5 %
    /// too small: every one of the three kinds reports violations.
    #[test]
    fn conversion_checks_pass_and_catch_a_planted_bug() {
        let ok = check_conversions(64, 7).unwrap();
        assert!(ok.violations.is_empty(), "{:?}", ok.violations.first());
        assert!(ok.comparisons >= 128, "{}", ok.comparisons);
        let bad = check_conversions_scaled(64, 7, 0.95).unwrap();
        for what in ["ε(δ) upper end", "δ(ε) interval", "PLD engine"] {
            assert!(
                bad.violations.iter().any(|v| v.instance.starts_with(what)),
                "{what} not caught"
            );
        }
        assert!(check_conversions(0, 1).is_err());
        assert!(check_conversions_scaled(1, 1, f64::NAN).is_err());
    }
}
