//! `shiftdp compose`: certified numerical composition of tradeoff functions.
//!
//! Components are given as repeated options, each with an optional repetition count
//! `xK` (as a separate token or a suffix):
//! `--gaussian MU[xK]`, `--subsampled-gaussian P MU [xK]` (BSA24's symmetrized
//! `C_p(G(μ))`), `--poisson-gaussian P MU [xK]` (the Poisson add-or-remove subsampled
//! Gaussian, each direction composed separately — a different quantity), where `MU` may
//! also be written `mu=M` or, as a noise multiplier σ, `sigma=S` (μ = 1/σ; 2/σ for the
//! replace-one `C_p`), and the
//! mechanisms `--laplace B SENS`, `--poisson-laplace P B SENS`, `--discrete-laplace A
//! SENS`, `--randomized-response P K`, `--mixture-gaussian SIGMA C1,… P1,…`,
//! `--truncated-gaussian N Q B SIGMA`, `--approx-dp EPS DELTA`.
//!
//! Decimals are read in the safe direction: μ and p to the double at or above the
//! decimal typed, the target δ or ε to the double at or below it (see `Read`).
use super::{
    EstimateKind, Output, SafeEnd, dec, estimate, interval_f64, readable_down_f64, readable_up_f64,
};
use serde_json::json;
use shiftdp::composition::answer::Method;
use shiftdp::composition::pld::Grid;
use shiftdp::composition::{Component, Composed, Composition, DELTA_FLOOR, Interval, Target};
use shiftdp::decimal::f64_up;
use shiftdp::error::{Error, Result};
use shiftdp::precision::rounding::{div_up_f64, parse_f64_down, parse_f64_up};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::tradeoff::Gaussian;

/// Arguments of `shiftdp compose`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ComposeArgs {
    /// G(μ) component: `MU` or `MU xK` / `MUxK`; `MU` may be `mu=M` or `sigma=S`
    /// (the Gaussian mechanism at noise multiplier S, μ = 1/S rounded up).
    #[arg(long, num_args = 1..=2, action = clap::ArgAction::Append, value_name = "MU [xK]")]
    pub gaussian: Vec<String>,
    /// C_p(G(μ)) (BSA24 Def 4.7, symmetrized): `P MU [xK]`; `MU` may be `mu=M` or
    /// `sigma=S` (fixed-size batches, replace-one: μ = 2/S rounded up).
    #[arg(long = "subsampled-gaussian", num_args = 2..=3, action = clap::ArgAction::Append, value_name = "P MU [xK]")]
    pub subsampled_gaussian: Vec<String>,
    /// Poisson add-or-remove subsampled Gaussian (not C_p): `P MU [xK]`; `MU` may be
    /// `mu=M` or `sigma=S` (DP-SGD's noise multiplier: μ = 1/S rounded up).
    #[arg(long = "poisson-gaussian", num_args = 2..=3, action = clap::ArgAction::Append, value_name = "P MU [xK]")]
    pub poisson_gaussian: Vec<String>,
    /// Laplace mechanism x + Lap(B) at sensitivity SENS: `B SENS [xK]`.
    #[arg(long, allow_negative_numbers = true, num_args = 2..=3, action = clap::ArgAction::Append, value_name = "B SENS [xK]")]
    pub laplace: Vec<String>,
    /// Poisson-subsampled Laplace mechanism (add-or-remove, both orders): `P B SENS [xK]`.
    #[arg(long = "poisson-laplace", allow_negative_numbers = true, num_args = 3..=4, action = clap::ArgAction::Append, value_name = "P B SENS [xK]")]
    pub poisson_laplace: Vec<String>,
    /// Discrete Laplace mechanism, Pr[Z = z] ∝ e^{−A|z|}, at integer sensitivity: `A SENS [xK]`.
    #[arg(long = "discrete-laplace", allow_negative_numbers = true, num_args = 2..=3, action = clap::ArgAction::Append, value_name = "A SENS [xK]")]
    pub discrete_laplace: Vec<String>,
    /// Randomized response on K buckets with noise parameter P (the true value w.p.
    /// 1 − P, a uniform bucket otherwise): `P K [xN]`.
    #[arg(long = "randomized-response", allow_negative_numbers = true, num_args = 2..=3, action = clap::ArgAction::Append, value_name = "P K [xN]")]
    pub randomized_response: Vec<String>,
    /// Mixture of Gaussians N(0, σ²) against Σ pᵢ N(cᵢ, σ²) (add-or-remove, both orders):
    /// `SIGMA C1,C2,… P1,P2,… [xK]`.
    #[arg(long = "mixture-gaussian", allow_negative_numbers = true, num_args = 3..=4, action = clap::ArgAction::Append, value_name = "SIGMA C1,… P1,… [xK]")]
    pub mixture_gaussian: Vec<String>,
    /// dp_accounting's truncated Poisson-subsampled Gaussian (N records, sampling
    /// probability Q, batches cut to B, noise multiplier SIGMA; add-or-remove):
    /// `N Q B SIGMA [xK]`.
    #[arg(long = "truncated-gaussian", allow_negative_numbers = true, num_args = 4..=5, action = clap::ArgAction::Append, value_name = "N Q B SIGMA [xK]")]
    pub truncated_gaussian: Vec<String>,
    /// An (ε, δ)-DP mechanism as its tradeoff function f_{ε,δ}: `EPS DELTA [xK]`.
    #[arg(long = "approx-dp", allow_negative_numbers = true, num_args = 2..=3, action = clap::ArgAction::Append, value_name = "EPS DELTA [xK]")]
    pub approx_dp: Vec<String>,
    /// Target δ: report the certified interval for ε(δ).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "epsilon")]
    pub delta: Option<String>,
    /// Target ε: report the certified interval for δ(ε).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon: Option<String>,
    /// Grid step h = 2^-GRID (default: chosen from the number of steps, refined
    /// until the interval is narrower than --tolerance).
    #[arg(long)]
    pub grid: Option<i32>,
    /// Width goal: absolute for the ε interval, relative for the δ interval
    /// (default 5e-4, the library's `composition::DEFAULT_TOLERANCE`).
    #[arg(long, default_value_t = shiftdp::composition::DEFAULT_TOLERANCE)]
    pub tolerance: f64,
    /// Write the composed PLD (pessimistic, untilted: `loss mass` per line, then
    /// `inf mass`) of order 1 to this file.
    #[arg(long = "export-pld", value_name = "FILE")]
    pub export_pld: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Groups raw option values: clap flattens `Append` values, so each component is
/// re-split by counting its fixed arguments and an optional `x…` count.
fn split_groups(vals: &[String], fixed: usize) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![];
    let mut i = 0;
    while i < vals.len() {
        let mut g: Vec<String> = vals[i..(i + fixed).min(vals.len())].to_vec();
        i += fixed;
        if i < vals.len() && vals[i].starts_with('x') {
            g.push(vals[i].clone());
            i += 1;
        }
        out.push(g);
    }
    out
}

/// Which end of a decimal's f64 bracket is safe for an input: the mechanism's μ and
/// sampling rate p are read upward (a larger value is less private), the target δ or ε
/// downward (a smaller δ gives a larger ε, a smaller ε a larger δ). A decimal that is a
/// double (0.5, 2, 0.25) is read exactly either way.
#[derive(Clone, Copy)]
enum Read {
    Up,
    Down,
}

fn num(flag: &str, s: &str, read: Read) -> Result<f64> {
    let v = match read {
        Read::Up => parse_f64_up(s),
        Read::Down => parse_f64_down(s),
    };
    v.ok_or_else(|| Error::Parse {
        input: s.to_string(),
        reason: format!("--{flag} expects finite decimal numbers"),
    })
}

fn count(flag: &str, s: &str) -> Result<u64> {
    let t = s.trim_start_matches('x');
    t.parse::<u64>()
        .ok()
        .filter(|&k| k >= 1)
        .ok_or(Error::Parse {
            input: s.to_string(),
            reason: format!("--{flag}: repetition count must be xK with K ≥ 1"),
        })
}

/// The μ of a Gaussian component from its token: `MU` or `mu=MU` (read upward), or
/// `sigma=S` / `noise-multiplier=S`, the noise standard deviation over the clipping
/// norm, for which `μ = sensitivity/S` with `S` read downward and the quotient rounded
/// up (a larger μ is less private). `sensitivity` is 1 for add-or-remove
/// (Gaussian, Poisson) and 2 for replace-one (`C_p`: two clipped gradients differ by up
/// to twice the clipping norm).
fn gaussian_mu(flag: &str, token: &str, sensitivity: f64) -> Result<f64> {
    let sigma = token
        .strip_prefix("sigma=")
        .or_else(|| token.strip_prefix("noise-multiplier="));
    match sigma {
        Some(s) => {
            let sigma = num(flag, s, Read::Down)?;
            if sigma.is_nan() || sigma <= 0.0 {
                return Err(Error::param(
                    "noise multiplier",
                    s,
                    "must be > 0 (σ = 0 adds no noise: not private)",
                ));
            }
            Ok(div_up_f64(sensitivity, sigma))
        }
        None => num(flag, token.strip_prefix("mu=").unwrap_or(token), Read::Up),
    }
}

/// A reminder, for a Poisson component whose `MU` is a bare number, that it is the
/// GDP parameter μ = 1/σ and not the noise multiplier σ (the two are easily swapped:
/// `--poisson-gaussian 0.01 1.1` is σ ≈ 0.909, not σ = 1.1).
fn bare_mu_hint(a: &ComposeArgs) -> Option<String> {
    let groups = split_groups(&a.poisson_gaussian, 2);
    let token = groups
        .iter()
        .filter_map(|g| g.get(1))
        .map(|t| split_suffix(t).0)
        .find(|t| {
            !["mu=", "sigma=", "noise-multiplier="]
                .iter()
                .any(|p| t.starts_with(p))
        })?;
    let mu = parse_f64_up(&token)?;
    Some(format!(
        "reading: --poisson-gaussian P {token} is μ = {token}, i.e. noise multiplier σ = 1/μ ≈ {:.6}; write sigma=S to give σ, mu=M to silence this",
        1.0 / mu
    ))
}

/// Splits `MUxK` into (`MU`, Some(`xK`)).
fn split_suffix(s: &str) -> (String, Option<String>) {
    match s.find('x') {
        Some(i) if i > 0 => (s[..i].to_string(), Some(s[i..].to_string())),
        _ => (s.to_string(), None),
    }
}

/// Builds the composition from the arguments.
///
/// # Errors
/// Parse errors and invalid parameters.
pub fn build(a: &ComposeArgs) -> Result<Composition> {
    let mut c = Composition::new();
    for g in split_groups(&a.gaussian, 1) {
        let (mu, suf) = split_suffix(&g[0]);
        let k = match g.get(1).cloned().or(suf) {
            Some(x) => count("gaussian", &x)?,
            None => 1,
        };
        c = c.with(Component::gaussian(gaussian_mu("gaussian", &mu, 1.0)?)?, k)?;
    }
    for (flag, vals, poisson) in [
        ("subsampled-gaussian", &a.subsampled_gaussian, false),
        ("poisson-gaussian", &a.poisson_gaussian, true),
    ] {
        for g in split_groups(vals, 2) {
            if g.len() < 2 {
                return Err(Error::Parse {
                    input: g.join(" "),
                    reason: format!(
                        "--{flag} expects P MU [xK] (MU may be written mu=M or sigma=S){}",
                        count_hint(&g[0])
                    ),
                });
            }
            let (mu, suf) = split_suffix(&g[1]);
            let k = match g.get(2).cloned().or(suf) {
                Some(x) => count(flag, &x)?,
                None => 1,
            };
            let sensitivity = if poisson { 1.0 } else { 2.0 };
            let (p, mu) = (
                num(flag, &g[0], Read::Up)?,
                gaussian_mu(flag, &mu, sensitivity)?,
            );
            let comp = if poisson {
                Component::poisson(p, mu)?
            } else {
                Component::subsampled(p, mu)?
            };
            c = c.with(comp, k)?;
        }
    }
    c = build_mechanisms(a, c)?;
    if c.parts().is_empty() {
        return Err(Error::param(
            "components",
            "none",
            "give --gaussian, --subsampled-gaussian, --poisson-gaussian, --laplace, --poisson-laplace, --discrete-laplace, --randomized-response, --mixture-gaussian, --truncated-gaussian or --approx-dp",
        ));
    }
    Ok(c)
}

/// The groups of one mechanism option: `fixed` values each, then an optional `xK`.
fn groups_of(
    flag: &str,
    vals: &[String],
    fixed: usize,
    shape: &str,
) -> Result<Vec<(Vec<String>, u64)>> {
    split_groups(vals, fixed)
        .into_iter()
        .map(|g| {
            if g.len() < fixed {
                return Err(Error::Parse {
                    input: g.join(" "),
                    reason: format!("--{flag} expects {shape}{}", count_hint(&g[0])),
                });
            }
            let k = match g.get(fixed) {
                Some(x) => count(flag, x)?,
                None => 1,
            };
            Ok((g[..fixed].to_vec(), k))
        })
        .collect()
}

/// A hint for a value that reads as a repetition count written without its `x`.
fn count_hint(token: &str) -> String {
    match token.parse::<u64>() {
        Ok(k) if k >= 1 => format!("; a repetition count is written x{k}"),
        _ => String::new(),
    }
}

/// A positive integer argument (buckets, an integer sensitivity).
fn whole(flag: &str, s: &str) -> Result<u64> {
    s.parse::<u64>().map_err(|_| Error::Parse {
        input: s.to_string(),
        reason: format!("--{flag} expects an integer here"),
    })
}

/// A comma-separated list of decimals, each read in the direction given.
fn list(flag: &str, s: &str, read: Read) -> Result<Vec<f64>> {
    s.split(',').map(|x| num(flag, x.trim(), read)).collect()
}

/// The mechanism options (Laplace, discrete Laplace, randomized response, mixtures of
/// Gaussians, f_{ε,δ}). Decimals are read in the safe direction: noise scales (b, a,
/// σ) and the randomized-response noise parameter downward, sensitivities, sampling
/// probabilities, ε and δ upward; mixture probabilities to the nearest double (they
/// must sum to 1; the mixture is normalized by the sum of the doubles).
fn build_mechanisms(a: &ComposeArgs, mut c: Composition) -> Result<Composition> {
    use shiftdp::composition::mechanism::{
        DiscreteLaplace, Laplace, MixtureOfGaussians, PoissonSampled, RandomizedResponse,
    };
    use std::sync::Arc;
    for (g, k) in groups_of("laplace", &a.laplace, 2, "B SENS [xK]")? {
        let m = Laplace::new(
            num("laplace", &g[0], Read::Down)?,
            num("laplace", &g[1], Read::Up)?,
        )?;
        c = c.with(Component::mechanism(m), k)?;
    }
    for (g, k) in groups_of("poisson-laplace", &a.poisson_laplace, 3, "P B SENS [xK]")? {
        let f = "poisson-laplace";
        let base = Laplace::new(num(f, &g[1], Read::Down)?, num(f, &g[2], Read::Up)?)?;
        let m = PoissonSampled::new(num(f, &g[0], Read::Up)?, Arc::new(base))?;
        c = c.with(Component::mechanism(m), k)?;
    }
    for (g, k) in groups_of("discrete-laplace", &a.discrete_laplace, 2, "A SENS [xK]")? {
        let f = "discrete-laplace";
        let m = DiscreteLaplace::new(num(f, &g[0], Read::Down)?, whole(f, &g[1])?)?;
        c = c.with(Component::mechanism(m), k)?;
    }
    for (g, k) in groups_of("randomized-response", &a.randomized_response, 2, "P K [xN]")? {
        let f = "randomized-response";
        let m = RandomizedResponse::new(num(f, &g[0], Read::Down)?, whole(f, &g[1])?)?;
        c = c.with(Component::mechanism(m), k)?;
    }
    for (g, k) in groups_of(
        "mixture-gaussian",
        &a.mixture_gaussian,
        3,
        "SIGMA C1,… P1,… [xK]",
    )? {
        let f = "mixture-gaussian";
        let probabilities: Vec<f64> = g[2]
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or(Error::Parse {
                        input: x.to_string(),
                        reason: format!("--{f} expects finite decimal probabilities"),
                    })
            })
            .collect::<Result<_>>()?;
        let m = MixtureOfGaussians::new(
            num(f, &g[0], Read::Down)?,
            list(f, &g[1], Read::Up)?,
            probabilities,
        )?;
        c = c.with(Component::mechanism(m), k)?;
    }
    for (g, k) in groups_of(
        "truncated-gaussian",
        &a.truncated_gaussian,
        4,
        "N Q B SIGMA [xK]",
    )? {
        let f = "truncated-gaussian";
        let m = shiftdp::composition::mechanism::truncated_subsampled_gaussian(
            whole(f, &g[0])?,
            num(f, &g[1], Read::Up)?,
            whole(f, &g[2])?,
            num(f, &g[3], Read::Down)?,
        )?;
        if let Some(m) = m {
            c = c.with(Component::shared(m), k)?;
        }
    }
    for (g, k) in groups_of("approx-dp", &a.approx_dp, 2, "EPS DELTA [xK]")? {
        let f = "approx-dp";
        let comp = Component::approx_dp(num(f, &g[0], Read::Up)?, num(f, &g[1], Read::Up)?)?;
        c = c.with(comp, k)?;
    }
    Ok(c)
}

fn sci(x: f64) -> String {
    format!("{x:e}")
}

/// Runs `shiftdp compose`.
///
/// # Errors
/// Bad arguments; [`Error::NotCertified`] if the engine cannot certify the answer
/// (δ below [`DELTA_FLOOR`], window too large).
pub fn run(a: &ComposeArgs) -> Result<Output> {
    let c = build(a)?;
    let names: Vec<String> = c
        .parts()
        .iter()
        .map(|(x, k)| format!("{}^⊗{k}", x.name()))
        .collect();
    let desc = names.join(" ⊗ ");
    let target = match (&a.delta, &a.epsilon) {
        (Some(d), None) => Target::Delta(num("delta", d, Read::Down)?),
        (None, Some(e)) => Target::Epsilon(num("epsilon", e, Read::Down)?),
        _ => {
            return Err(Error::param(
                "delta/epsilon",
                "missing",
                "give exactly one of --delta, --epsilon",
            ));
        }
    };
    let ans = super::with_spinner("composing", || c.answer(target, a.tolerance, a.grid))?;
    // the closed form is exact only when every component is Gaussian; otherwise it is
    // the engine's no-amplification fallback (an upper bound, said in the note)
    let exact = c.gaussian_mu().is_some();
    let note = ans.note.as_deref().map(super::with_flags);
    let reason_line = note
        .as_deref()
        .map(|n| format!("  note: {n}\n"))
        .unwrap_or_default();
    let infos = ans.composed().map(|r| r.info.clone()).unwrap_or_default();
    let orders = ans.composed().map_or(1, Composed::orders);
    let clt = c.clt_mu();
    let (method, method_line) = match &ans.method {
        Method::GaussianClosedForm { mu_upper } if exact => (
            json!({"name": "gaussian closed form", "mu": interval_f64(None, Some(*mu_upper), SafeEnd::Upper),
                   "formula": "⊗ G(μᵢ)^⊗kᵢ = G(√Σkᵢμᵢ²) exactly (DRS22 Cor 3.3)"}),
            format!(
                "  exact: every component is Gaussian, so the composition is G(μ) with μ = √Σkᵢμᵢ² ≤ {} (DRS22 Cor 3.3; no grid)\n",
                f64_up(*mu_upper, 17)
            ),
        ),
        Method::GaussianClosedForm { mu_upper } => (
            json!({"name": "no-amplification bound", "mu": interval_f64(None, Some(*mu_upper), SafeEnd::Upper),
                   "formula": "every subsampled G(μᵢ) replaced by G(μᵢ): the composition is ≥ G(√Σkᵢμᵢ²), an upper bound only"}),
            String::new(),
        ),
        Method::Pld { grid_exp, .. } => (
            json!({"name": "pld", "grid_exponent": grid_exp}),
            String::new(),
        ),
        Method::PureDp { epsilon } => (
            json!({"name": "pure dp", "epsilon": f64_up(*epsilon, 17),
                   "formula": "every loss bounded: (Σkᵢℓ̄ᵢ, 0)-DP by basic composition"}),
            String::new(),
        ),
        _ => (json!({"name": "other"}), String::new()),
    };
    let grids: Vec<serde_json::Value> = infos
        .iter()
        .enumerate()
        .map(|(i, g)| {
            json!({
                "order": if i == 0 { "f = ⊗ f_i" } else { "f^{-1} = ⊗ f_i^{-1}" },
                "h": sci(g.h),
                "window": [sci(g.bottom), sci(g.top)],
                "points": g.points,
                "tilt_lambda": sci(g.lambda),
                "fft_l1_error_pess": f64_up(g.fft_error_pess, 17),
                "fft_l1_error_opt": f64_up(g.fft_error_opt, 17),
                "infinity_mass_upper": f64_up(g.infinity_mass, 17),
            })
        })
        .collect();
    // μ of the composition when it is a GDP bound (every component Gaussian)
    let mu_json = match &ans.method {
        Method::GaussianClosedForm { mu_upper } if exact => {
            interval_f64(None, Some(*mu_upper), SafeEnd::Upper)
        }
        _ => serde_json::Value::Null,
    };
    let poisson_note = if a.poisson_gaussian.is_empty() {
        "".to_string()
    } else {
        "Poisson add-or-remove components: both directions composed separately (max over the two orders); this is NOT C_p(G(μ)).".to_string()
    };
    if let Some(path) = &a.export_pld {
        export(&c, path)?;
    }
    let (json, human) = match target {
        Target::Delta(d) => {
            let iv = ans.interval;
            let (clt_eps, dist) = clt_epsilon(clt, d, &iv);
            let json = json!({
                "composition": desc,
                "delta": a.delta,
                "epsilon": interval_f64(Some(iv.lower), Some(iv.upper), SafeEnd::Upper),
                "mu": mu_json,
                "width": f64_up(iv.width(), 17),
                "side": if ans.at_zero() {
                    "δ(0) ≤ δ: (0, δ)-DP holds; the true ε(δ) is ≤ 0 and [epsilon.lower, epsilon.upper] = [0, 0] is the clamp at 0, not a bracket"
                } else {
                    "certified interval: the true ε(δ) lies in [epsilon.lower, epsilon.upper]; epsilon.upper is an upper bound"
                },
                "orders": orders,
                "method": method,
                "at_zero": ans.at_zero(),
                "grid": grids,
                "clt_approximation": clt_eps.map(|e| json!({
                    "mu": estimate(clt.unwrap_or(0.0), None, EstimateKind::Approximation),
                    "epsilon": estimate(e, None, EstimateKind::Approximation),
                    "distance_to_certified_interval": dec(dist),
                    "label": "central limit APPROXIMATION (BSA24 Lemma A.5 / DRS22), not a bound",
                })),
                "note": poisson_note,
                "reason": note,
                "delta_floor": sci(DELTA_FLOOR),
            });
            // the bound holds at the double d ≤ the δ typed, so at the δ typed (an
            // (ε, d)-DP mechanism is (ε, δ)-DP for every δ ≥ d): echo the text typed
            let typed = a.delta.as_deref().unwrap_or_default();
            let mut h = if ans.at_zero() {
                format!(
                    "{desc}\n  is (0, δ)-DP with δ = {typed}: δ(0) ≤ δ, so the privacy profile reaches δ at ε ≤ 0 (certified; ε(δ) is not bracketed below 0)\n"
                )
            } else {
                format!(
                    "{desc}\n  is (ε, δ)-DP with δ = {typed} for ε ≤ {}  (certified; true ε ∈ [{}, {}], width {})\n",
                    readable_up_f64(iv.upper),
                    readable_down_f64(iv.lower),
                    readable_up_f64(iv.upper),
                    f64_up(iv.width(), 3)
                )
            };
            h += &method_line;
            h += &reason_line;
            if let Some(e) = clt_eps {
                h += &format!(
                    "  CLT approximation (not a bound): μ ≈ {:.6}, ε ≈ {e:.6} (distance to the certified interval {dist:+.3e})\n",
                    clt.unwrap_or(0.0)
                );
            }
            (json, h)
        }
        Target::Epsilon(e) => {
            let iv = ans.interval;
            let clt_d = clt.and_then(|m| {
                Gaussian::delta(
                    &Enclosure::from_f64(64, m),
                    &Enclosure::from_f64(64, e),
                    Precision::F64,
                )
                .ok()
                .map(|c| c.enclosure.mid_f64())
            });
            let json = json!({
                "composition": desc,
                "epsilon": a.epsilon,
                "delta": interval_f64(Some(iv.lower), Some(iv.upper), SafeEnd::Upper),
                "mu": mu_json,
                "side": "certified interval: the true δ(ε) lies in [delta.lower, delta.upper]",
                "orders": orders,
                "method": method,
                "at_zero": ans.at_zero(),
                "grid": grids,
                "clt_approximation": clt_d.map(|d| json!({
                    "mu": estimate(clt.unwrap_or(0.0), None, EstimateKind::Approximation),
                    "delta": estimate(d, None, EstimateKind::Approximation),
                    "label": "central limit APPROXIMATION, not a bound",
                })),
                "note": poisson_note,
                "reason": note,
            });
            // computed at the double ≤ the ε typed, so it holds at the ε typed
            let typed = a.epsilon.as_deref().unwrap_or_default();
            let mut h = format!(
                "{desc}\n  is (ε, δ)-DP with ε = {typed} for δ ≤ {}  (certified; true δ ∈ [{}, {}], width {})\n",
                readable_up_f64(iv.upper),
                readable_down_f64(iv.lower),
                readable_up_f64(iv.upper),
                f64_up(iv.width(), 3)
            );
            h += &method_line;
            h += &reason_line;
            if let Some(d) = clt_d {
                h += &format!("  CLT approximation (not a bound): δ ≈ {d:e}\n");
            }
            (json, h)
        }
    };
    let mut human = human;
    for g in &infos {
        human += &format!(
            "  grid h = {:.4e}, window [{:.3}, {:.3}], {} points, tilt λ = {:.3}, FFT ℓ¹ error ≤ {:.1e}, mass at +∞ ≤ {:.1e}\n",
            g.h, g.bottom, g.top, g.points, g.lambda, g.fft_error_pess, g.infinity_mass
        );
    }
    if let Some(hint) = bare_mu_hint(a) {
        human += &format!("  {hint}\n");
    }
    if !poisson_note.is_empty() {
        human += &format!("  {poisson_note}\n");
    }
    Ok(Output::new("compose", json, human))
}

/// ε(δ) of the CLT approximation and its signed distance to the certified interval
/// (0 inside, negative below, positive above).
fn clt_epsilon(mu: Option<f64>, delta: f64, iv: &Interval) -> (Option<f64>, f64) {
    let Some(m) = mu else { return (None, 0.0) };
    let e = Gaussian::epsilon(
        &Enclosure::from_f64(64, m),
        &Enclosure::from_f64(64, delta),
        Precision::F64,
    )
    .ok()
    .map(|c| c.enclosure.mid_f64());
    let dist = match e {
        Some(e) if e < iv.lower => e - iv.lower,
        Some(e) if e > iv.upper => e - iv.upper,
        _ => 0.0,
    };
    (e, dist)
}

/// Writes the pessimistic single-step PLD of each component (untilted Q-masses per
/// grid loss, h = 2⁻¹⁴, window [−16, 16]) — the input a custom privacy random variable
/// needs.
fn export(c: &Composition, path: &str) -> Result<()> {
    use std::fmt::Write as _;
    let g = Grid {
        h: 2f64.powi(-14),
        lo: -16 * 16384,
        n: 32 * 16384 + 1,
    };
    let mut s = String::new();
    for (comp, k) in c.parts() {
        let one = comp.single_step(&g);
        let _ = writeln!(s, "# component {} count {k}", comp.name());
        let _ = writeln!(s, "# loss q_mass_upper (pessimistic, h = 2^-14)");
        for (i, m) in one.pess.iter().enumerate() {
            if *m > 0.0 {
                let _ = writeln!(s, "{:e} {:e}", g.t(i), m);
            }
        }
        let _ = writeln!(s, "inf {:e}", one.pess_inf);
    }
    std::fs::write(path, s).map_err(|e| Error::Parameter {
        name: "export-pld".into(),
        value: path.into(),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_components_and_counts() {
        let a = ComposeArgs {
            gaussian: vec!["0.5x4".into(), "0.2".into(), "x3".into()],
            subsampled_gaussian: vec!["0.1".into(), "1".into(), "x2".into()],
            delta: Some("1e-5".into()),
            ..Default::default()
        };
        let c = build(&a).unwrap();
        assert_eq!(c.parts().len(), 3);
        assert_eq!(c.parts()[0].1, 4);
        assert_eq!(c.parts()[1].1, 3);
        assert_eq!(c.parts()[2].1, 2);
        let bad = ComposeArgs {
            gaussian: vec!["0.5".into(), "x0".into()],
            ..Default::default()
        };
        assert!(build(&bad).is_err());
        assert!(build(&ComposeArgs::default()).is_err());
    }

    #[test]
    fn gaussian_compose_matches_gdp() {
        // G(0.6)^⊗4 = G(1.2): ε(1e-5) from the closed form lies in the interval
        let a = ComposeArgs {
            gaussian: vec!["0.6".into(), "x4".into()],
            delta: Some("1e-5".into()),
            tolerance: 1e-3,
            ..Default::default()
        };
        let out = run(&a).unwrap();
        let hi: f64 = out.json["epsilon"]["upper"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let lo: f64 = out.json["epsilon"]["lower"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let exact = Gaussian::epsilon(
            &Enclosure::from_f64(128, 1.2),
            &Enclosure::parse(128, "1e-5").unwrap(),
            Precision::Bits(128),
        )
        .unwrap();
        assert!(lo <= exact.upper().to_f64() && exact.lower().to_f64() <= hi);
        let clt: f64 = out.json["clt_approximation"]["epsilon"]["estimate"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((clt - exact.upper().to_f64()).abs() < 1e-6);
    }
}
