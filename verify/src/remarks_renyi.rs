//! Statements made in passing by CYS21 and YS22: remarks around the
//! theorems, numbers quoted in the discussion of the figures, footnotes that say how a
//! quantity was computed, thresholds and approximations — each implemented **as printed**
//! and checked against the toolkit's certified computation over the setting it speaks
//! about. ERRATA.md records the verdicts in its CYS21 and YS22 entries (the unit tests
//! keep the old ids `fc*`, `fy*` in their names; each entry's `Aliases:` line maps them).
//!
//! Every check is a function parametrized by the statement's value or formula (a
//! constant, a threshold, a reading), so that the unit tests can show that a perturbed
//! statement is rejected by the same code. A statement that is wrong as printed has two
//! builtins: `…-printed` (which fails; ERRATA records `expect = "fail"`) and
//! `…-adopted` (which passes).
//!
//! # Conventions
//! CYS21 and YS22 write `θ ← θ − ηg + √(2η)σ N(0, I)`: σ here is their σ (the toolkit's
//! σ′, [`Cys21Params::sigma`], [`Ys22Params::sigma`]). Identities are checked by
//! *overlap* of two independently computed enclosures (sound: two enclosures of the same
//! real number always overlap); inequalities by comparing the safe ends.
//! A strict inequality passes only when certain; a non-strict one (≤) fails only when
//! certainly violated, so an exact tie (e.g. a supremum that equals the stated constant)
//! holds — the enclosures are ≥ 128 bits wide, far below any printed precision.
//!
//! # References
//! R. Chourasia, J. Ye, R. Shokri, *Differential privacy dynamics of Langevin diffusion
//! and noisy gradient descent*, NeurIPS 2021 (CYS21); J. Ye, R. Shokri, *Differentially
//! private learning needs hidden state (or much faster convergence)*, NeurIPS 2022
//! (YS22).
use super::outcome::{Builtin, Ctx, Outcome};
use crate::check::SplitMix64;
use crate::numbers::guarded::{e, u};
use crate::numbers::{both_ok, err, overlap, p};
use shiftdp::error::Result;
use shiftdp::precision::Enclosure;
use shiftdp::renyi::cys21::{Cys21Params, squared_loss_exact};
use shiftdp::renyi::ys22::Ys22Params;
use shiftdp::renyi::{Conversion, RenyiCurve, best_conversion};

/// The CYS21 and YS22 statement checks.
pub fn builtins() -> Vec<Builtin> {
    vec![
        Builtin {
            name: "cys21/remark-intro-simplified-theorem",
            about: "CYS21 §1: the simplified theorem ε = O(α/(σ²n²)(1 − e^{−ηK/2})) is Cor 1 at λ = S_g = 1 with constant 1 (FC1)",
            run: |c| intro_simplified(1.0, 0.5, c),
        },
        Builtin {
            name: "cys21/remark-fig1-alpha-lambda-roles",
            about: "CYS21 §3.3 (Fig 1 discussion): α scales the asymptote linearly and not the rate; larger λ lowers the asymptote and speeds convergence (FC2)",
            run: |c| fig1_roles(&cor1_curve, c),
        },
        Builtin {
            name: "cys21/quoted-fig1-caption-expressions",
            about: "CYS21 Fig 1 caption: ε = αS_g²/(λσ²n²)(1 − e^{−ληK/2}) is Cor 1, and αS_g²ηK/(4n²σ²) is K-fold Gaussian composition in the toolkit's model (FC3)",
            run: |c| fig1_caption(4.0, c),
        },
        Builtin {
            name: "cys21/remark-composition-same-rate-small-k",
            about: "CYS21 §4: for small K the composition bound grows at the rate of the lower bound (17) (equal to the exact squared-loss divergence at K = 1) (FC4)",
            run: |c| same_rate_small_k(4.0, c),
        },
        Builtin {
            name: "cys21/remark-cor1-within-4-of-lower-bound",
            about: "CYS21 §4 after Thm 3: Cor 1 (λ = 1) matches the lower bound (17) at every K up to the constant 4 (sharp as K → ∞) (FC5)",
            run: |c| cor1_within(4.0, c),
        },
        Builtin {
            name: "cys21/remark-cor2-within-4-over-2-minus-eta-printed",
            about: "CYS21 §4 after Cor 2: eq. (18) as printed (η², ERRATA CYS1) within 4/(2−η) of (17): FAILS (FC6)",
            run: |c| cor2_within(1.0, &cor2_printed, c),
        },
        Builtin {
            name: "cys21/remark-cor2-within-4-over-2-minus-eta",
            about: "CYS21 §4 after Cor 2: Cor 2 (R1 reading) matches (17) at every K up to 4/(2−η) ≈ 2 (sharp as K → ∞) (FC6)",
            run: |c| cor2_within(1.0, &cor2_adopted, c),
        },
        Builtin {
            name: "cys21/remark-lsi-constant-squared-loss",
            about: "CYS21 §4: every intermediate Gaussian of noisy GD on ½‖θ − x‖² is c-LSI with c = (2−η)/(2σ²) (FC7)",
            run: |c| lsi_constant(1.0, c),
        },
        Builtin {
            name: "cys21/remark-thm2-tighter-than-cor1-printed",
            about: "CYS21 §4: eq. (18) as printed (η², ERRATA CYS1) below Cor 1: FAILS (FC8)",
            run: |c| thm2_tighter(&cor2_printed, c),
        },
        Builtin {
            name: "cys21/remark-thm2-tighter-than-cor1",
            about: "CYS21 §4: on the squared loss Thm 2 (Cor 2, R1 reading) is strictly below Cor 1 (FC8)",
            run: |c| thm2_tighter(&cor2_adopted, c),
        },
        Builtin {
            name: "cys21/quoted-thm4-noise-calibration",
            about: "CYS21 Thm 4: σ² = 4αL²/(λε′n²) gives Cor 1 ≤ ε′ at every K; σ² = 8L²(ε+2log(1/δ))/(λε²n²) gives (ε, δ)-DP (FC9)",
            run: |c| thm4_calibration(4.0, 8.0, c),
        },
        Builtin {
            name: "ys22/footnote-4-shifted-lse-printed",
            about: "YS22 footnote 4 as printed, ε₀¹ + log Avg e^{(α−1)(ε₀^j − ε₀¹)}, against the second term of eq. (5): FAILS (FY1)",
            run: |c| footnote_4(Fn4Reading::Printed, c),
        },
        Builtin {
            name: "ys22/footnote-4-shifted-lse-adopted",
            about: "YS22 footnote 4 with the factor 1/(α−1) on the log: equals the second term of eq. (5) (FY1)",
            run: |c| footnote_4(Fn4Reading::Adopted, c),
        },
        Builtin {
            name: "ys22/approximation-fig2-composition",
            about: "YS22 Fig 2 caption: composition ≈ (b/n)·αηS_g²/(4σ²b²)·K, against the certified sampled-Gaussian composition (gap reported) (FY2)",
            run: |c| fig2_composition_approx(1.0, 0.02, c),
        },
        Builtin {
            name: "ys22/threshold-thm4-3-after-50-epochs-printed",
            about: "YS22 §4.2: Thm 4.3 below composition after 50 epochs for α = 10, 15, 20 as printed: FAILS at α = 20 (FY3)",
            run: |c| thm4_3_after(&[(10.0, 50), (15.0, 50), (20.0, 50)], c),
        },
        Builtin {
            name: "ys22/threshold-thm4-3-after-epochs-adopted",
            about: "YS22 §4.2: Thm 4.3 below composition from 50 epochs on for α = 10, 15 and from 89 epochs on for α = 20 (FY3)",
            run: |c| thm4_3_after(&[(10.0, 34), (15.0, 48), (20.0, 89)], c),
        },
        Builtin {
            name: "ys22/threshold-thm4-2-beats-composition",
            about: "YS22 §4.1: Thm 4.2 < composition for K ≥ 1/(λη) + n/b epochs (figure setting and a grid; sufficient, crossing reported) (FY4)",
            run: |c| thm4_2_threshold(1.0, c),
        },
        Builtin {
            name: "ys22/remark-thm4-2-below-worst-position",
            about: "YS22 §4.1: Thm 4.2 is always below Thm 3.3 for the worst position, which is the last batch (FY5)",
            run: |c| thm4_2_below_worst(&|l| l - 1, c),
        },
        Builtin {
            name: "ys22/quoted-first-batch-factor-printed",
            about: "YS22 §3.2: Thm 3.3 (first batch) is smaller than Thm 2.1 by ≈ n/b (within a factor 2) as printed: FAILS (FY6)",
            run: |c| first_batch_factor(0.5, 2.0, c),
        },
        Builtin {
            name: "ys22/quoted-first-batch-factor-adopted",
            about: "YS22 §3.2: Thm 3.3 (first batch) is smaller than Thm 2.1 by at least n/b at every K ≤ 500 (FY6)",
            run: |c| first_batch_factor(1.0, f64::INFINITY, c),
        },
        Builtin {
            name: "ys22/remark-first-term-growth-printed",
            about: "YS22 §4.1: the first term of eq. (5) grows per epoch by less than ε₀^{n/b} < (b/n)αηS_g²/(4σ²b²) as printed: FAILS at the first epoch (FY7)",
            run: |c| first_term_growth(GrowthReading::Printed, c),
        },
        Builtin {
            name: "ys22/remark-first-term-growth-adopted",
            about: "YS22 §4.1: the per-epoch growth of the first term is ≤ ε₀^{⌊n/2b⌋} ≤ αηS_g²/(4σ²b²)/⌊n/2b⌋; ε₀^{n/b} < (b/n)αηS_g²/(4σ²b²) (FY7)",
            run: |c| first_term_growth(GrowthReading::Adopted, c),
        },
        Builtin {
            name: "ys22/remark-thm4-3-step-below-full-batch",
            about: "YS22 §4.2: each step of the Thm 4.3 recursion is strictly below the full-batch step e^{(α−1)αηS_g²/(4σ²b²)}S (FY8)",
            run: |c| thm4_3_step_below(1.0, c),
        },
        Builtin {
            name: "ys22/remark-fig2-without-replacement-above-shuffle",
            about: "YS22 §4.2: the sampling-without-replacement bound (Thm 4.3) is above the shuffle bound (Thm 4.2) in the Fig 2 setting (FY9)",
            run: |c| fig2_order(true, c),
        },
        Builtin {
            name: "ys22/remark-naive-baseline-above-composition",
            about: "YS22 §2: the naive baseline (Thm 2.1) is significantly worse (≥ 10×) than composition over the figure horizon K ≤ 200 (FY10)",
            run: |c| naive_above_composition(10.0, c),
        },
    ]
}

/// `1 − e^{−x}` as an enclosure.
fn one_minus_exp(x: Enclosure) -> Enclosure {
    -((-x).exp_m1())
}

// ---------------------------------------------------------------- CYS21

/// A random point of the strongly convex, β-smooth setting of CYS21 Cor 1 (λ given).
fn cys21_point(r: &mut SplitMix64, lambda: f64, s_g: f64) -> Option<Cys21Params> {
    let beta = lambda * (1.0 + 9.0 * r.unit());
    let eta = (0.01 + 0.98 * r.unit()) / beta;
    let sigma = 0.01 + 2.0 * r.unit();
    let n = r.int(1, 10_000);
    Cys21Params::new(sigma, s_g, lambda, beta, eta, n).ok()
}

/// **CYS5.** CYS21 §1 (Introduction), the "simplified theorem": *"Under 1-strongly convex
/// and β-smooth loss function ℓ(θ; x) with total gradient sensitivity 1, the noisy GD
/// Algorithm 1, with initial parameter vector θ₀ ∼ Π_C(N(0, 2σ²I_d)) and step size
/// η < 1/β, satisfies (α, ε)-Rényi DP with ε = O(α/(σ²n²)(1 − e^{−ηK/2}))"*.
///
/// Checked: `constant · α/(σ²n²) · (1 − e^{−rate·ηK})` (printed: constant 1, rate ½) is
/// exactly Cor 1 at λ = S_g = 1 ([`Cys21Params::cor1`]) at random (σ, n, β, η < 1/β, K,
/// α): the two enclosures overlap. So the O(·) holds with constant 1 and the exponent is
/// Cor 1's.
pub fn intro_simplified(constant: f64, rate: f64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(40);
    let b = ctx.bits;
    for i in 0..n {
        let Some(q) = cys21_point(&mut r, 1.0, 1.0) else {
            continue;
        };
        // K spread over 1 … 10⁵ so that ηK is moderate at some points
        let k = 1 + (10f64.powf(5.0 * r.unit())) as u64;
        let alpha = 1.1 + 60.0 * r.unit();
        let cor1 = match q.cor1(alpha, k, b) {
            Ok(x) => x,
            Err(x) => return err("Cor 1", x),
        };
        let x = e(b, rate) * e(b, q.eta) * u(b, k);
        let printed = e(b, constant) * e(b, alpha) / (e(b, q.sigma).square() * u(b, q.n).square())
            * one_minus_exp(x);
        if !overlap(&printed, &cor1) {
            return Outcome::fail(
                "CYS21 §1 simplified theorem = Cor 1 (λ = S_g = 1)",
                i + 1,
                vec![
                    p("sigma", q.sigma),
                    p("n", q.n),
                    p("eta", q.eta),
                    p("K", k),
                    p("alpha", alpha),
                ],
                format!(
                    "printed {:.15e} ≠ Cor 1 {:.15e}",
                    printed.mid_f64(),
                    cor1.mid_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{n} random points: {constant}·α/(σ²n²)(1 − e^{{−{rate}ηK}}) equals Cor 1 at λ = S_g = 1 (enclosures overlap)"
        ),
        n,
    )
}

/// A Rényi bound of CYS21 as a function of (λ, α, K) in the Figure-1 setting.
pub type Fig1Curve = dyn Fn(f64, f64, u64, u32) -> Result<Enclosure>;

/// Cor 1 in the Figure-1 setting (β = 4, S_g = 4, n = 5000, η = σ = 0.02).
pub fn cor1_curve(lambda: f64, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
    Cys21Params::figure1(lambda)?.cor1(alpha, k, bits)
}

/// The Figure-1 epochs K at which the roles of α and λ are checked, and a K large
/// enough that e^{−ληK/2} < 10⁻¹⁰⁰ (the asymptote).
const FIG1_KS: [u64; 9] = [1, 10, 100, 500, 1000, 2000, 5000, 10_000, 50_000];
const FIG1_K_INF: u64 = 100_000_000;

/// **CYS6.** CYS21 §3.3, discussion of Figure 1: *"The RDP order α linearly scales the
/// asymptotic guarantee, but does not affect the convergence rate of RDP guarantee.
/// However, the strong convexity parameter λ positively affects the asymptotic guarantee
/// as well as the convergence rate; the larger the strong convexity parameter λ is, the
/// stronger the asymptotic RDP guarantee and the faster the convergence."*
///
/// Checked on the Figure-1 grid (α ∈ {10, 20, 30}, λ ∈ {1, 2, 4}, K ∈ `FIG1_KS`) for
/// `curve` (Cor 1): (i) ε∞(α)/α is the same for every α (overlap), ε∞ = ε at K = 10⁸;
/// (ii) the convergence profile ε(K)/ε∞ does not depend on α (overlap); (iii) ε∞ strictly
/// decreases and ε(K)/ε∞ strictly increases with λ at every K < ∞ (certified ends).
pub fn fig1_roles(curve: &Fig1Curve, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let mut points = 0;
    let alphas = [10.0, 20.0, 30.0];
    let lambdas = [1.0, 2.0, 4.0];
    let fail = |what: &str, params: Vec<(String, String)>, detail: String| {
        Outcome::fail(format!("CYS21 Fig 1 discussion: {what}"), 0, params, detail)
    };
    // profile[λ][K] for α = 10, asymptote[λ] for α = 10
    let mut prof: Vec<Vec<Enclosure>> = vec![];
    let mut asym: Vec<Enclosure> = vec![];
    for &lam in &lambdas {
        let mut row = vec![];
        let inf10 = match curve(lam, 10.0, FIG1_K_INF, b) {
            Ok(x) => x,
            Err(x) => return err("curve", x),
        };
        for (ia, &alpha) in alphas.iter().enumerate() {
            let inf = match curve(lam, alpha, FIG1_K_INF, b) {
                Ok(x) => x,
                Err(x) => return err("curve", x),
            };
            let per = inf.clone() / e(b, alpha);
            if !overlap(&per, &(inf10.clone() / e(b, 10.0))) {
                return fail(
                    "the asymptote is not linear in α",
                    vec![p("lambda", lam), p("alpha", alpha)],
                    format!(
                        "ε∞/α = {:.15e} at α = {alpha}, {:.15e} at α = 10",
                        per.mid_f64(),
                        inf10.mid_f64() / 10.0
                    ),
                );
            }
            for (ik, &k) in FIG1_KS.iter().enumerate() {
                let v = match curve(lam, alpha, k, b) {
                    Ok(x) => x,
                    Err(x) => return err("curve", x),
                };
                let pr = v / inf.clone();
                points += 1;
                if ia == 0 {
                    // α = 10: the reference profile
                    row.push(pr);
                } else if !overlap(&pr, &row[ik]) {
                    return fail(
                        "the convergence profile depends on α",
                        vec![p("lambda", lam), p("alpha", alpha), p("K", k)],
                        format!(
                            "ε(K)/ε∞ = {:.15e} at α = {alpha}, {:.15e} at α = 10",
                            pr.mid_f64(),
                            row[ik].mid_f64()
                        ),
                    );
                }
            }
        }
        prof.push(row);
        asym.push(inf10);
    }
    for i in 1..lambdas.len() {
        if asym[i].hi() >= asym[i - 1].lo() {
            return fail(
                "the asymptote does not decrease with λ",
                vec![p("lambda", lambdas[i])],
                format!(
                    "ε∞(λ = {}) = {:.6e} ≥ ε∞(λ = {}) = {:.6e}",
                    lambdas[i],
                    asym[i].mid_f64(),
                    lambdas[i - 1],
                    asym[i - 1].mid_f64()
                ),
            );
        }
        for (ik, &k) in FIG1_KS.iter().enumerate() {
            // at the largest K both profiles may be 1 to the working precision
            if prof[i - 1][ik].hi() >= &rug::Float::with_val(64, 1) {
                continue;
            }
            if prof[i][ik].hi() <= prof[i - 1][ik].lo() {
                return fail(
                    "convergence is not faster for larger λ",
                    vec![p("lambda", lambdas[i]), p("K", k)],
                    format!(
                        "ε(K)/ε∞ = {:.6e} at λ = {}, {:.6e} at λ = {}",
                        prof[i][ik].mid_f64(),
                        lambdas[i],
                        prof[i - 1][ik].mid_f64(),
                        lambdas[i - 1]
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "Fig-1 grid ({points} points): ε∞ ∝ α (ε∞/α = {:.4e}, {:.4e}, {:.4e} for λ = 1, 2, 4), profile ε(K)/ε∞ independent of α, asymptote falls and profile rises with λ",
            asym[0].mid_f64() / 10.0,
            asym[1].mid_f64() / 10.0,
            asym[2].mid_f64() / 10.0
        ),
        points,
    )
}

/// **CYS7.** CYS21 Figure 1 caption: *"The expressions for computing the privacy loss
/// are: our analysis: ε = αS_g²/(λσ²n²)·(1 − e^{−ληK/2}); and Baseline composition-based
/// analysis (derived by moment accountant \[1\] with details in Appendix E):
/// ε = αS_g²/(4n²σ²)·ηK"*, setting α ∈ {10, 20, 30}, λ ∈ {1, 2, 4}, β = 4, S_g = 4,
/// n = 5000, η = 0.02, σ = 0.02.
///
/// Checked on that grid: the first expression (typed here) equals [`Cys21Params::cor1`];
/// the second, with denominator `four` (printed 4), equals K-fold RDP composition of the
/// Gaussian mechanism in the toolkit's model, `K·αμ₀²/2` with `μ₀ = L/(bσ_tk)` from
/// [`Cys21Params::to_toolkit`]'s σ_tk = σ√(2/η), L = S_g, b = n (an independent path).
pub fn fig1_caption(four: f64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let mut points = 0;
    for lam in [1.0, 2.0, 4.0] {
        let q = match Cys21Params::figure1(lam) {
            Ok(x) => x,
            Err(x) => return err("figure setting", x),
        };
        let t = q.to_toolkit();
        let sig_tk = e(b, q.sigma) * (e(b, 2.0) / e(b, q.eta)).sqrt();
        let mu0 = e(b, t.sensitivity) / (u(b, t.batch) * sig_tk);
        for alpha in [10.0, 20.0, 30.0] {
            for k in FIG1_KS {
                points += 1;
                let base = e(b, alpha) * e(b, q.s_g).square() * e(b, q.eta) * u(b, k)
                    / (e(b, four) * u(b, q.n).square() * e(b, q.sigma).square());
                let comp = u(b, k) * e(b, alpha) * mu0.square().half();
                let ours = e(b, alpha) * e(b, q.s_g).square()
                    / (e(b, lam) * e(b, q.sigma).square() * u(b, q.n).square())
                    * one_minus_exp(e(b, lam) * e(b, q.eta) * u(b, k) / e(b, 2.0));
                let cor1 = match q.cor1(alpha, k, b) {
                    Ok(x) => x,
                    Err(x) => return err("Cor 1", x),
                };
                let params = vec![p("lambda", lam), p("alpha", alpha), p("K", k)];
                if !overlap(&ours, &cor1) {
                    return Outcome::fail(
                        "CYS21 Fig 1 caption: ours = Cor 1",
                        points,
                        params,
                        format!("{:.15e} ≠ {:.15e}", ours.mid_f64(), cor1.mid_f64()),
                    );
                }
                if !overlap(&base, &comp) {
                    return Outcome::fail(
                        "CYS21 Fig 1 caption: baseline = K-fold Gaussian composition",
                        points,
                        params,
                        format!(
                            "caption {:.15e} ≠ K·αμ₀²/2 = {:.15e}",
                            base.mid_f64(),
                            comp.mid_f64()
                        ),
                    );
                }
            }
        }
    }
    Outcome::pass(
        format!(
            "Fig-1 grid ({points} points): the caption's two expressions are Cor 1 and K·αμ₀²/2 (μ₀ = S_g/(nσ√(2/η)))"
        ),
        points,
    )
}

/// **CYS8.** CYS21 §4, after Cor 2: *"When the number of iterations K is small, however,
/// composition-based bound grows at the same rate with the lower bound, as discussed in
/// Appendix E."*
///
/// Checked at random (σ, n, η < 1, α): the composition bound `αS_g²ηK/(four·σ²n²)`
/// (printed four = 4) equals the exact Rényi divergence of the squared-loss run
/// ([`squared_loss_exact`], the instance of Thm 3) at K = 1 (overlap), and the lower
/// bound (17) over it at K = 1 is `(1 − e^{−η})/η ∈ [1 − η/2, 1]` (both grow at rate
/// `αS_g²η/(4σ²n²)` as K → 0).
pub fn same_rate_small_k(four: f64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(40);
    let b = ctx.bits;
    let mut worst: f64 = 1.0;
    for i in 0..n {
        let eta = 0.001 + 0.99 * r.unit();
        let Ok(q) = Cys21Params::new(
            0.01 + 2.0 * r.unit(),
            0.1 + 4.0 * r.unit(),
            1.0,
            1.0,
            eta,
            r.int(1, 10_000),
        ) else {
            continue;
        };
        let alpha = 1.1 + 60.0 * r.unit();
        let base = e(b, alpha) * e(b, q.s_g).square() * e(b, q.eta)
            / (e(b, four) * e(b, q.sigma).square() * u(b, q.n).square());
        let (exact, lower) = match both_ok(
            "CYS21 instance",
            (
                squared_loss_exact(&q, alpha, 1, b),
                q.thm3_lower(alpha, 1, b),
            ),
        ) {
            Ok(v) => v,
            Err(o) => return *o,
        };
        let ratio = lower.clone() / base.clone();
        worst = worst.min(ratio.lower_f64());
        let in_range = ratio.hi() <= &rug::Float::with_val(64, 1)
            && ratio.lo() >= (e(b, 1.0) - e(b, eta).half()).lo();
        if !overlap(&base, &exact) || !in_range {
            return Outcome::fail(
                "CYS21 §4: composition grows at the rate of the lower bound for small K",
                i + 1,
                vec![p("eta", eta), p("alpha", alpha), p("n", q.n)],
                format!(
                    "K = 1: composition {:.15e}, exact {:.15e}, (17)/composition {:.15e}",
                    base.mid_f64(),
                    exact.mid_f64(),
                    ratio.mid_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{n} random points: composition = exact squared-loss divergence at K = 1; (17)/composition ∈ [1 − η/2, 1] at K = 1 (smallest {worst:.6})"
        ),
        n,
    )
}

/// K grid for the ratio checks: 1 … 10⁷, log-spaced.
fn k_grid() -> Vec<u64> {
    let mut v: Vec<u64> = (0..=70)
        .map(|i| 10f64.powf(i as f64 / 10.0) as u64)
        .collect();
    v.dedup();
    v
}

/// The ratio checks of CYS9/CYS1: `upper/lower ≤ bound` at every K of [`k_grid`] and
/// `upper/lower ≥ bound·(1 − 10⁻⁶)` at K = 10⁷ (the constant is the supremum).
fn ratio_within(
    what: &str,
    bound: &dyn Fn(f64, u32) -> Enclosure,
    upper: &dyn Fn(&Cys21Params, f64, u64, u32) -> Result<Enclosure>,
    ctx: &Ctx,
) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(12);
    let b = ctx.bits;
    let mut points = 0;
    let mut top: f64 = 0.0;
    for _ in 0..n {
        let eta = 0.001 + 0.99 * r.unit();
        let Ok(q) = Cys21Params::new(
            0.01 + 2.0 * r.unit(),
            0.1 + 4.0 * r.unit(),
            1.0,
            1.0,
            eta,
            r.int(1, 10_000),
        ) else {
            continue;
        };
        let alpha = 1.1 + 60.0 * r.unit();
        let ce = bound(eta, b);
        let c = ce.mid_f64();
        let ks = k_grid();
        for &k in &ks {
            let (up, lo) = match both_ok(
                "CYS21 bound",
                (upper(&q, alpha, k, b), q.thm3_lower(alpha, k, b)),
            ) {
                Ok(v) => v,
                Err(o) => return *o,
            };
            let ratio = up / lo;
            points += 1;
            let params = vec![p("eta", eta), p("alpha", alpha), p("K", k)];
            if ratio.lo() > ce.hi() {
                return Outcome::fail(
                    format!("CYS21 §4: {what} within {c:.6} of (17)"),
                    points,
                    params,
                    format!("ratio {:.15e} > {c:.15e}", ratio.mid_f64()),
                );
            }
            top = top.max(ratio.upper_f64() / c);
            if k == *ks.last().unwrap_or(&1) && ratio.hi() < (ce.clone() * e(b, 1.0 - 1e-6)).lo() {
                return Outcome::fail(
                    format!("CYS21 §4: {what}: the constant {c:.6} is not attained"),
                    points,
                    params,
                    format!(
                        "ratio at K = {k} is {:.15e} < (1 − 10⁻⁶)·{c:.15e}",
                        ratio.mid_f64()
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (point, K) pairs: {what}/(17) ≤ the stated constant, reached as K → ∞ (largest ratio/constant {top:.9})"
        ),
        points,
    )
}

/// **CYS9.** CYS21 §4, after Thm 3: *"Meanwhile, Corollary 1 gives our RDP upper bound
/// ε = αS_g²/(σ²n²)(1 − e^{−ηK}) for this same ERM objective. This upper bound matches
/// the lower bound at every step K, up to a small constant of 4."*
///
/// Checked with Cor 1 as stated (λ = 1 for ½‖θ − x‖², β = 1; ERRATA CYS3 for the printed
/// exponent): `Cor 1/(17) ≤ constant` at every K (printed 4) and the ratio tends to the
/// constant as K → ∞ (4/(1 + e^{−ηK/2})). (CYS3's printed expression over (17) is exactly 4.)
pub fn cor1_within(constant: f64, ctx: &Ctx) -> Outcome {
    ratio_within(
        "Cor 1 (λ = 1)",
        &|_, b| e(b, constant),
        &|q, a, k, b| q.cor1(a, k, b),
        ctx,
    )
}

/// Cor 2 of CYS21 in the adopted reading (ERRATA CYS1): n² in place of the printed η².
pub fn cor2_adopted(q: &Cys21Params, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
    q.cor2(alpha, k, bits)
}

/// Cor 2 of CYS21 exactly as printed (eq. 18, ERRATA CYS1):
/// `αS_g²/((2−η)σ²η²)·(1 − e^{−(2−η)ηK/2})`.
pub fn cor2_printed(q: &Cys21Params, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
    let two_m = e(bits, 2.0) - e(bits, q.eta);
    let x = two_m.clone() * e(bits, q.eta) * u(bits, k) / e(bits, 2.0);
    Ok(e(bits, alpha) * e(bits, q.s_g).square()
        / (two_m * e(bits, q.sigma).square() * e(bits, q.eta).square())
        * one_minus_exp(x))
}

/// **CYS1.** CYS21 §4, after Cor 2: *"This RDP guarantee converges fast to
/// O(αS_g²/(σ²η²)), which matches the lower bound at every step K, up to a constant of
/// 4/(2−η) ≈ 2."*
///
/// Checked: `cor2/(17) ≤ scale·4/(2−η)` at every K (printed scale 1), reached as K → ∞.
/// With Cor 2 in the ERRATA CYS1 reading ([`cor2_adopted`]: n² for the printed η², limit
/// αS_g²/((2−η)σ²n²)) it holds; with eq. (18) as printed ([`cor2_printed`]) the ratio
/// carries an extra n²/η² and it fails.
pub fn cor2_within(scale: f64, cor2: &Cys21Bound, ctx: &Ctx) -> Outcome {
    ratio_within(
        "Cor 2",
        &|eta, b| e(b, scale) * e(b, 4.0) / (e(b, 2.0) - e(b, eta)),
        cor2,
        ctx,
    )
}

/// **CYS10.** CYS21 §4, before Cor 2: *"For squared-norm loss function, Theorem 2 gives the
/// following tighter RDP upper-bound for Noisy GD, because all intermediate Gaussian
/// distributions satisfy c-LSI with c = (2−η)/(2σ²)"*.
///
/// Checked: on ½‖θ − x‖² from a point start, θ_k is Gaussian with per-coordinate
/// variance `v_k = 2ησ² Σ_{i<k}(1−η)^{2i}` (recursion `v_{k+1} = (1−η)²v_k + 2ησ²`, run
/// here with enclosures), and inside a step the tracing diffusion's variance lies between
/// `(1−η)²v_k` and `v_{k+1}`; a Gaussian of variance v is (1/v)-LSI. So the statement
/// holds iff `1/v_k ≥ c` for all k, with `c = scale·(2−η)/(2σ²)` (printed scale 1):
/// checked for k ≤ 4000 and at the supremum 2σ²/(2−η) (which it also reaches: c is the
/// best constant).
pub fn lsi_constant(scale: f64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(20);
    let b = ctx.bits;
    for i in 0..n {
        let eta = 0.01 + 1.89 * r.unit();
        let sigma = 0.01 + 2.0 * r.unit();
        let c = e(b, scale) * (e(b, 2.0) - e(b, eta)) / (e(b, 2.0) * e(b, sigma).square());
        let rr = (e(b, 1.0) - e(b, eta)).square();
        let add = e(b, 2.0) * e(b, eta) * e(b, sigma).square();
        let mut v = u(b, 0);
        let sup = e(b, 2.0) * e(b, sigma).square() / (e(b, 2.0) - e(b, eta));
        for k in 1..=4000u64 {
            v = rr.clone() * v + add.clone();
            // 1/v_k ≥ c ⇔ c·v_k ≤ 1
            if (c.clone() * v.clone()).lo() > &rug::Float::with_val(64, 1) {
                return Outcome::fail(
                    "CYS21 §4: intermediate Gaussians are c-LSI",
                    i + 1,
                    vec![p("eta", eta), p("sigma", sigma), p("k", k)],
                    format!(
                        "1/v_k = {:.15e} < c = {:.15e}",
                        1.0 / v.mid_f64(),
                        c.mid_f64()
                    ),
                );
            }
        }
        if (c.clone() * sup).lo() > &rug::Float::with_val(64, 1) {
            return Outcome::fail(
                "CYS21 §4: intermediate Gaussians are c-LSI",
                i + 1,
                vec![p("eta", eta), p("sigma", sigma), p("k", "∞")],
                format!(
                    "sup_k v_k = 2σ²/(2−η) and c·sup > 1 (c = {:.15e})",
                    c.mid_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{n} random (η ∈ (0, 1.9), σ): 1/v_k ≥ {scale}·(2−η)/(2σ²) for k ≤ 4000 and at the supremum v∞ = 2σ²/(2−η) (so c is also the best constant)"
        ),
        n,
    )
}

/// A CYS21 bound on the squared loss as a function of (params, α, K, bits).
pub type Cys21Bound = dyn Fn(&Cys21Params, f64, u64, u32) -> Result<Enclosure>;

/// **CYS11.** CYS21 §4, before Cor 2: *"Moreover, Theorem 2 facilitates a smaller RDP upper
/// bound than Corollary 1 by bounding the LSI constant throughout Noisy GD exactly."*
///
/// Checked at random points of the squared loss (λ = β = 1, η ∈ (0, 1)) and K ∈
/// `k_grid` (1 … 10⁷): `tighter` (Cor 2 in the CYS1 reading) is strictly below Cor 1 (certified
/// ends). With eq. (18) as printed ([`cor2_printed`]) it is not (unit test).
pub fn thm2_tighter(tighter: &Cys21Bound, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(12);
    let b = ctx.bits;
    let mut points = 0;
    let mut top: f64 = 0.0;
    for _ in 0..n {
        let eta = 0.001 + 0.99 * r.unit();
        let Ok(q) = Cys21Params::new(
            0.01 + 2.0 * r.unit(),
            0.1 + 4.0 * r.unit(),
            1.0,
            1.0,
            eta,
            r.int(2, 10_000),
        ) else {
            continue;
        };
        let alpha = 1.1 + 60.0 * r.unit();
        for k in k_grid() {
            let (t, c1) = match both_ok(
                "CYS21 bound",
                (tighter(&q, alpha, k, b), q.cor1(alpha, k, b)),
            ) {
                Ok(v) => v,
                Err(o) => return *o,
            };
            points += 1;
            top = top.max(t.upper_f64() / c1.lower_f64());
            if t.hi() >= c1.lo() {
                return Outcome::fail(
                    "CYS21 §4: Thm 2 (Cor 2) below Cor 1 on the squared loss",
                    points,
                    vec![p("eta", eta), p("alpha", alpha), p("K", k), p("n", q.n)],
                    format!("Cor 2 {:.15e} ≥ Cor 1 {:.15e}", t.mid_f64(), c1.mid_f64()),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (point, K) pairs with η ∈ (0, 1): Cor 2 < Cor 1 (largest ratio {top:.6})"
        ),
        points,
    )
}

/// **CYS12.** CYS21 Thm 4: *"… then the noisy GD Algorithm 1 is (α, ε′)-Rényi
/// differentially private … by setting noise variance σ² = 4αL²/(λε′n²) …
/// Equivalently, for ε ≤ 2log(1/δ) and δ > 0, Algorithm 1 is (ε, δ)-differentially
/// private … by setting noise variance σ² = 8L²(ε + 2log(1/δ))/(λε²n²)"*.
///
/// Checked with S_g = 2L (§3.3: "S_g ≤ 2L for L-Lipschitz losses") at random (α, ε′, L,
/// λ, n, ε ≤ 2log(1/δ), δ), with the two constants as parameters (printed 4 and 8):
/// (i) Cor 1 at the first σ² is ≤ ε′ at every K (its supremum αS_g²/(λσ²n²) equals ε′,
/// overlap); (ii) at the second σ² the Rényi curve ρα, ρ = sup_K Cor 1/α = 4L²/(λσ²n²),
/// converts to (ε, δ)-DP: the toolkit's certified best conversion gives ≤ ε, and Mironov's
/// conversion at α = 1 + 2log(1/δ)/ε gives ε exactly (overlap).
pub fn thm4_calibration(c_rdp: f64, c_dp: f64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(20);
    let b = ctx.bits;
    let mut slack: f64 = 0.0;
    for i in 0..n {
        let (alpha, eps_r, l, lam, nn) = (
            1.5 + 60.0 * r.unit(),
            0.01 + 5.0 * r.unit(),
            0.1 + 3.0 * r.unit(),
            0.01 + 2.0 * r.unit(),
            r.int(10, 100_000),
        );
        let params = vec![
            p("alpha", alpha),
            p("eps_rdp", eps_r),
            p("L", l),
            p("lambda", lam),
            p("n", nn),
        ];
        // (i) σ² = c_rdp αL²/(λε′n²): sup_K Cor 1 = αS_g²/(λσ²n²) with S_g = 2L
        let s2 = e(b, c_rdp) * e(b, alpha) * e(b, l).square()
            / (e(b, lam) * e(b, eps_r) * u(b, nn).square());
        let sup = e(b, alpha) * (e(b, 2.0) * e(b, l)).square()
            / (e(b, lam) * s2.clone() * u(b, nn).square());
        if sup.lo() > e(b, eps_r).hi() {
            return Outcome::fail(
                "CYS21 Thm 4: σ² = 4αL²/(λε′n²) gives Cor 1 ≤ ε′",
                i + 1,
                params,
                format!("sup_K Cor 1 = {:.15e} > ε′", sup.mid_f64()),
            );
        }
        // the library's Cor 1 at a large K is below ε′ too (σ′ = √σ², rounded up: more noise
        // is only used to cross-check, the closed form above is the check)
        let sigma = s2.sqrt().upper_f64();
        let beta = lam * 2.0;
        let eta = 0.5 / beta;
        if let Ok(q) = Cys21Params::new(sigma, 2.0 * l, lam, beta, eta, nn)
            && let Ok(c1) = q.cor1(alpha, 1_000_000_000, b)
            && c1.lo() > e(b, eps_r).hi()
        {
            return Outcome::fail(
                "CYS21 Thm 4: Cor 1 ≤ ε′",
                i + 1,
                params,
                format!("Cor 1 at K = 10⁹: {:.15e} > ε′", c1.mid_f64()),
            );
        }
        // (ii) σ² = c_dp L²(ε + 2 log(1/δ))/(λε²n²), ε ≤ 2 log(1/δ)
        let ln_inv_delta = 1.0 + 40.0 * r.unit();
        let eps = (0.05 + 0.95 * r.unit()) * 2.0 * ln_inv_delta;
        let delta = Enclosure::from_f64(b + 32, -ln_inv_delta).exp();
        let s2 = e(b, c_dp) * e(b, l).square() * (e(b, eps) + e(b, 2.0) * e(b, ln_inv_delta))
            / (e(b, lam) * e(b, eps).square() * u(b, nn).square());
        let rho = e(b, 4.0) * e(b, l).square() / (e(b, lam) * s2 * u(b, nn).square());
        let curve = match RenyiCurve::linear_enclosure(rho.clone()) {
            Ok(x) => x,
            Err(x) => return err("curve", x),
        };
        let best = match best_conversion(&curve, &delta, b) {
            Ok(x) => x,
            Err(x) => return err("conversion", x),
        };
        let a_star = e(b, 1.0) + e(b, 2.0) * e(b, ln_inv_delta) / e(b, eps);
        let mir = Conversion::Mironov.formula(a_star.clone(), rho * a_star, e(b, ln_inv_delta));
        let mut params = params;
        params.extend([p("eps", eps), p("ln(1/delta)", ln_inv_delta)]);
        if best.best.epsilon.lo() > e(b, eps).hi() || !overlap(&mir, &e(b, eps)) {
            return Outcome::fail(
                "CYS21 Thm 4: σ² = 8L²(ε+2log(1/δ))/(λε²n²) gives (ε, δ)-DP",
                i + 1,
                params,
                format!(
                    "best conversion ({}) {:.15e}, Mironov at α = 1 + 2log(1/δ)/ε {:.15e}, ε = {eps:.15e}",
                    best.best.conversion.id(),
                    best.best.epsilon.mid_f64(),
                    mir.mid_f64()
                ),
            );
        }
        slack = slack.max(best.best.epsilon.upper_f64() / eps);
    }
    Outcome::pass(
        format!(
            "{n} random points: Cor 1 ≤ ε′ at σ² = {c_rdp}αL²/(λε′n²) (supremum = ε′); at σ² = {c_dp}L²(ε+2log(1/δ))/(λε²n²) Mironov at α = 1 + 2log(1/δ)/ε gives exactly ε and the best certified conversion ≤ ε (largest best/ε {slack:.4})"
        ),
        n,
    )
}

// ---------------------------------------------------------------- YS22

/// Rényi orders of the YS22 figures (α = 20 is named in §4.2's text).
const YS22_ALPHAS: [f64; 3] = [10.0, 15.0, 20.0];

/// Which reading of YS22 footnote 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fn4Reading {
    /// As printed: `ε₀¹ + log Avg_{j₀} e^{(α−1)(ε₀^{n/b−j₀} − ε₀¹)}`.
    Printed,
    /// With the factor of eq. (5): `ε₀¹ + (1/(α−1)) log Avg_{j₀} e^{(α−1)(ε₀^{n/b−j₀} − ε₀¹)}`.
    Adopted,
}

fn ys22_random(r: &mut SplitMix64) -> Option<(Ys22Params, f64)> {
    let b = r.int(1, 8);
    let l = r.int(2, 40);
    let lambda = 0.01 + r.unit();
    let beta = lambda + 4.0 * r.unit();
    let eta = (0.005 + 0.99 * r.unit()) * 2.0 / (lambda + beta);
    let p = Ys22Params::new(
        0.5 + 5.0 * r.unit(),
        0.5 + 4.0 * r.unit(),
        lambda,
        beta,
        eta,
        b * l,
        b,
    )
    .ok()?;
    let alpha = [2.0, 5.0, 10.0, 20.0, 50.0][r.int(0, 4) as usize];
    Some((p, alpha))
}

/// The YS22 cases of a check: the Fig 2 setting at each α of [`YS22_ALPHAS`], then
/// `ctx.samples_or(default)` random settings drawn from `ctx.seed`.
fn ys22_cases(ctx: &Ctx, default: usize) -> Vec<(Ys22Params, f64)> {
    let mut r = SplitMix64::new(ctx.seed);
    let mut cases: Vec<(Ys22Params, f64)> = YS22_ALPHAS
        .iter()
        .map(|&a| (Ys22Params::figure(), a))
        .collect();
    for _ in 0..ctx.samples_or(default) {
        if let Some(x) = ys22_random(&mut r) {
            cases.push(x);
        }
    }
    cases
}

fn ys22_params(q: &Ys22Params) -> Vec<(String, String)> {
    vec![
        p("sigma", q.sigma),
        p("S_g", q.s_g),
        p("lambda", q.lambda),
        p("beta", q.beta),
        p("eta", q.eta),
        p("n", q.n),
        p("b", q.b),
    ]
}

/// **YS1.** YS22 footnote 4 (to Fig 2 and eq. 5): *"When α − 1 and ε₀^{n/b−j₀}(α) are
/// large, the second term in Equation (5) might overflow. In the experiments, we compute
/// this log-sum-exp term with the shifted approximation
/// ε₀¹ + log Avg_{0≤j₀<n/b} e^{(α−1)(ε₀^{n/b−j₀}(α) − ε₀¹(α))}."*
///
/// The second term of eq. (5) is `(1/(α−1)) log Avg e^{(α−1)ε₀^{n/b−j₀}}`
/// = `ε₀¹ + (1/(α−1)) log Avg e^{(α−1)(ε₀^{n/b−j₀} − ε₀¹)}` exactly (ε₀¹ is the largest
/// ε₀^j). The printed shift lacks the `1/(α−1)` on the log: since every exponent is ≤ 0
/// it makes the term smaller — below the bound, negative in the Fig 2 setting.
///
/// Checked: the footnote's value in `reading` equals (overlap) the second term computed
/// directly (no shift), and also the library's [`Ys22Params::thm4_2`] at K = 1 (whose first
/// term vanishes), in the Fig 2 setting for α ∈ {10, 15, 20} and at random points.
pub fn footnote_4(reading: Fn4Reading, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let cases = ys22_cases(ctx, 12);
    let mut gaps = vec![];
    for (i, (q, alpha)) in cases.iter().enumerate() {
        let l = q.n / q.b;
        let am1 = e(b, alpha - 1.0);
        let mut eps0 = vec![];
        for j in 1..=l {
            match q.eps0(j, *alpha, b) {
                Ok(x) => eps0.push(x),
                Err(x) => return err("ε₀^j", x),
            }
        }
        let e1 = eps0[0].clone();
        let (mut shifted, mut direct) = (u(b, 0), u(b, 0));
        for x in &eps0 {
            shifted = shifted + (am1.clone() * (x.clone() - e1.clone())).exp();
            direct = direct + (am1.clone() * x.clone()).exp();
        }
        let ln_avg_shift = (shifted / u(b, l)).ln();
        let value = match reading {
            Fn4Reading::Printed => e1.clone() + ln_avg_shift,
            Fn4Reading::Adopted => e1.clone() + ln_avg_shift / am1.clone(),
        };
        let term = (direct / u(b, l)).ln() / am1;
        let lib = match q.thm4_2(*alpha, 1, b) {
            Ok(x) => x,
            Err(x) => return err("Thm 4.2", x),
        };
        gaps.push(value.mid_f64() - term.mid_f64());
        if !overlap(&value, &term) || !overlap(&value, &lib) {
            let mut params = ys22_params(q);
            params.push(p("alpha", alpha));
            return Outcome::fail(
                "YS22 footnote 4 against the second term of eq. (5)",
                i + 1,
                params,
                format!(
                    "footnote ({reading:?}) {:.15e}; second term {:.15e}; Thm 4.2 at K = 1 {:.15e}",
                    value.mid_f64(),
                    term.mid_f64(),
                    lib.mid_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{} points (the Fig 2 setting at α = 10, 15, 20 and random settings): the footnote's shifted log-sum-exp ({reading:?}) equals the second term of eq. (5) and Thm 4.2 at K = 1",
            cases.len()
        ),
        cases.len(),
    )
}

/// **YS7.** YS22 Figure 2 caption: *"Composition: derived from Section 3.3. of Mironov
/// et al. \[29\] that approximately equals (b/n)·αηS_g²/(4σ²b²)·K."* An approximation, not
/// a bound.
///
/// Checked in the Fig 2 setting (λ = 1, β = 4, S_g = 4, n = 50, b = 2, η = 0.02, σ² = 4)
/// for α ∈ {10, 15} (the caption) and 20 (the text): the certified composition of the
/// sampled Gaussian mechanism over K·n/b steps ([`Ys22Params::baseline`], both orders;
/// linear in K, so K = 1 suffices) against `scale·(b/n)αηS_g²/(4σ²b²)·K` (printed scale
/// 1). Passes iff the approximation is below the certified value (optimistic) by at most
/// `tol` relative; the gaps are reported.
pub fn fig2_composition_approx(scale: f64, tol: f64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let q = Ys22Params::figure();
    let mut report = vec![];
    for alpha in YS22_ALPHAS {
        let cert = match q.baseline(alpha, 1, b) {
            Ok(x) => x,
            Err(x) => return err("baseline", x),
        };
        let approx =
            e(b, scale) * u(b, q.b) / u(b, q.n) * e(b, alpha) * e(b, q.eta) * e(b, q.s_g).square()
                / (e(b, 4.0) * e(b, q.sigma).square() * u(b, q.b).square());
        // relative gap (certified − approx)/certified, bracketed
        let gap_lo = (cert.lower_f64() - approx.upper_f64()) / cert.upper_f64();
        let gap_hi = (cert.upper_f64() - approx.lower_f64()) / cert.lower_f64();
        report.push(format!(
            "α = {alpha}: certified {:.6e}/epoch, printed {:.6e}/epoch, approximation {:.2}% below",
            cert.upper_f64(),
            approx.mid_f64(),
            100.0 * gap_hi
        ));
        if gap_lo < 0.0 || gap_hi > tol {
            return Outcome::fail(
                "YS22 Fig 2: composition ≈ (b/n)αηS_g²/(4σ²b²)K",
                report.len(),
                vec![p("alpha", alpha)],
                format!(
                    "certified {:.15e}, approximation {:.15e}: relative gap in [{gap_lo:.3e}, {gap_hi:.3e}], required [0, {tol}]",
                    cert.mid_f64(),
                    approx.mid_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!("Fig 2 setting, per epoch: {}", report.join("; ")),
        YS22_ALPHAS.len(),
    )
}

/// **YS2.** YS22 §4.2: *"In Figure 2 (b), we compare our Rényi DP bound Theorem 4.3 with
/// the baseline composition-based privacy bound for DP-SGD [1, 28]. We observe that for a
/// range of RDP orders α = 10, 15, 20, our privacy dynamics bound significantly improves
/// over the baseline composition-based bound (after 50 epochs)."*
///
/// Checked in the Fig 2 setting, for each (α, K₀) of `claims`: Thm 4.3 < composition at
/// every K ≥ K₀. Sufficient and certified: the K → ∞ limit of the Thm 4.3 recursion
/// (an upper bound for every K, [`Ys22Params::thm4_3`]) is below the certified composition
/// at K₀ (linear in K). A counterexample is certified by Thm 4.3's lower end at K₀ above
/// the composition's upper end. Printed: K₀ = 50 for α = 10, 15, 20; the crossing epochs
/// are 34, 48, 89.
pub fn thm4_3_after(claims: &[(f64, u64)], ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let q = Ys22Params::figure();
    let mut report = vec![];
    for (i, &(alpha, k0)) in claims.iter().enumerate() {
        let (res, base) = match both_ok(
            "YS22 Thm 4.3 / baseline",
            (q.thm4_3(alpha, k0, b), q.baseline(alpha, k0, b)),
        ) {
            Ok(v) => v,
            Err(o) => return *o,
        };
        let Some(limit) = res.limit else {
            return Outcome::error(format!("Thm 4.3 does not converge at α = {alpha}"));
        };
        if res.epsilon.lo() >= base.hi() {
            return Outcome::fail(
                "YS22 §4.2: Thm 4.3 below composition after the stated epochs",
                i + 1,
                vec![p("alpha", alpha), p("K", k0)],
                format!(
                    "Thm 4.3 ≥ {:.6e} ≥ composition ≤ {:.6e} at K = {k0} (ratio {:.3})",
                    res.epsilon.lower_f64(),
                    base.upper_f64(),
                    res.epsilon.lower_f64() / base.upper_f64()
                ),
            );
        }
        if limit >= base.lower_f64() {
            return Outcome::error(format!(
                "inconclusive at α = {alpha}, K = {k0}: Thm 4.3 limit {limit:.6e} ≥ composition {:.6e} but Thm 4.3(K₀) below it",
                base.lower_f64()
            ));
        }
        report.push(format!(
            "α = {alpha}: from K = {k0} (Thm 4.3 ≤ {limit:.4e} < composition {:.4e}, ratio at K₀ {:.3})",
            base.lower_f64(),
            res.epsilon.upper_f64() / base.lower_f64()
        ));
    }
    Outcome::pass(
        format!("Fig 2 setting: {}", report.join("; ")),
        claims.len(),
    )
}

/// **YS8.** YS22 §4.1: *"Hence, our Rényi DP bound in Theorem 4.2 is strictly smaller than
/// composition-based privacy bound for DP-SGD [1, 29] after 1/(λη) + n/b epochs. This is
/// because the first term in Equation (5) is strictly smaller than the composition-based
/// privacy bound after 1/(λη) epochs, and the second term in Equation (5) is strictly
/// smaller than the composition-based privacy bound after 1/(λη) epochs (as we explain
/// with more details in Appendix E.1)."* (The second "1/(λη)" is presumably n/b; App. E.1
/// is not in the transcription.)
///
/// Checked at the Fig 2 setting (α ∈ {10, 15, 20}) and random settings: with
/// `K₀ = ⌈scale·(1/(λη) + n/b)⌉` (printed scale 1), the K → ∞ limit of Thm 4.2 (its upper
/// bound for every K) is below the certified composition at K₀ — so Thm 4.2 < composition
/// for every K ≥ K₀. The crossing epoch (f64, for information) is reported.
pub fn thm4_2_threshold(scale: f64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let cases = ys22_cases(ctx, 16);
    let mut worst: f64 = 0.0;
    let mut crossings = vec![];
    for (i, (q, alpha)) in cases.iter().enumerate() {
        let l = q.n / q.b;
        let k0 = (scale * (1.0 / (q.lambda * q.eta) + l as f64))
            .ceil()
            .max(1.0) as u64;
        // the K → ∞ limit of Thm 4.2: ε₀^m/(1 − r) + the second term (= Thm 4.2 at K = 1),
        // m = ⌊n/2b⌋, r = (1 − ηλ)^{2(n/b − m)}; Thm 4.2 increases in K towards it
        let m = (l / 2).max(1);
        let (second, em, per) = match (
            q.thm4_2(*alpha, 1, b),
            q.eps0(m, *alpha, b),
            q.baseline(*alpha, 1, b),
        ) {
            (Ok(x), Ok(y), Ok(z)) => (x, y, z),
            (Err(x), _, _) | (_, Err(x), _) | (_, _, Err(x)) => {
                return err("Thm 4.2 / baseline", x);
            }
        };
        let r = (e(b, 1.0) - e(b, q.eta) * e(b, q.lambda))
            .square()
            .powu(l - m);
        let lim = em / (e(b, 1.0) - r) + second;
        let base = per.clone() * u(b, k0);
        worst = worst.max(lim.upper_f64() / base.lower_f64());
        let mut params = ys22_params(q);
        params.push(p("alpha", alpha));
        if lim.hi() >= base.lo() {
            // a certified counterexample needs Thm 4.2(K) ≥ composition(K) at some K ≥ K₀
            let t = q.thm4_2(*alpha, k0, b).ok();
            let certain = t.as_ref().is_some_and(|t| t.lo() >= base.hi());
            return if certain {
                Outcome::fail(
                    "YS22 §4.1: Thm 4.2 < composition after 1/(λη) + n/b epochs",
                    i + 1,
                    params,
                    format!(
                        "at K₀ = {k0}: Thm 4.2 ≥ {:.6e} ≥ composition {:.6e}",
                        t.map_or(f64::NAN, |t| t.lower_f64()),
                        base.upper_f64()
                    ),
                )
            } else {
                Outcome::error(format!(
                    "inconclusive at {params:?}: limit {:.6e} vs composition {:.6e} at K₀ = {k0}",
                    lim.upper_f64(),
                    base.lower_f64()
                ))
            };
        }
        // crossing epoch (information only, f64): Thm 4.2(K) = F(1 − r^{K−1})/(1 − r) + S
        let (em, s2) = (
            q.eps0(m, *alpha, 64).map_or(f64::NAN, |x| x.mid_f64()),
            q.thm4_2(*alpha, 1, 64).map_or(f64::NAN, |x| x.mid_f64()),
        );
        let rr = (1.0 - q.eta * q.lambda).powi(2).powi((l - m) as i32);
        let per_f = per.mid_f64();
        let t42 = |k: u64| em * (1.0 - rr.powf((k - 1) as f64)) / (1.0 - rr) + s2;
        // the last epoch ≤ K₀ at which Thm 4.2 is not yet below composition, plus one
        let kx = (1..=k0)
            .rev()
            .find(|&k| t42(k) >= per_f * k as f64)
            .map_or(1, |k| k + 1);
        crossings.push(kx as f64 / k0 as f64);
    }
    let (cmin, cmax) = crossings
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, c), &x| (a.min(x), c.max(x)));
    Outcome::pass(
        format!(
            "{} points: Thm 4.2 (its K → ∞ limit) < composition at K₀ = ⌈{scale}·(1/(λη) + n/b)⌉ (largest limit/composition {worst:.3}); the actual crossing is at {cmin:.3}–{cmax:.3} × K₀ (sufficient, not exact)",
            cases.len()
        ),
        cases.len(),
    )
    .with_margin(1.0 - worst)
}

/// **YS9.** YS22 §4.1, after Thm 4.2: *"The above Rényi DP bound Theorem 4.2 is always
/// smaller than the Rényi DP bound in Theorem 3.3 for the worst-case fixed mini-batch
/// sequence (i.e., when the differing data point is in the last mini-batch of each
/// pass)."*
///
/// Checked at the Fig 2 setting and random settings, K ∈ {1, 2, 5, 20, 100}: the position
/// j₀ maximizing Thm 3.3 is `worst(n/b)` (printed: the last batch, n/b − 1; certified:
/// every other position is strictly below it) and Thm 4.2 is strictly below it.
pub fn thm4_2_below_worst(worst: &dyn Fn(u64) -> u64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let cases = ys22_cases(ctx, 12);
    let mut points = 0;
    for (q, alpha) in &cases {
        let l = q.n / q.b;
        let jw = worst(l);
        for k in [1u64, 2, 5, 20, 100] {
            points += 1;
            let mut params = ys22_params(q);
            params.extend([p("alpha", alpha), p("K", k)]);
            let (w, t42) = match both_ok(
                "Thm 3.3 / 4.2",
                (q.thm3_3(*alpha, k, jw, b), q.thm4_2(*alpha, k, b)),
            ) {
                Ok(v) => v,
                Err(o) => return *o,
            };
            if t42.hi() >= w.lo() {
                return Outcome::fail(
                    "YS22 §4.1: Thm 4.2 below the worst position of Thm 3.3",
                    points,
                    params,
                    format!(
                        "Thm 4.2 {:.15e} ≥ Thm 3.3(j₀ = {jw}) {:.15e}",
                        t42.mid_f64(),
                        w.mid_f64()
                    ),
                );
            }
            for j0 in (0..l).filter(|&j| j != jw) {
                let v = match q.thm3_3(*alpha, k, j0, b) {
                    Ok(x) => x,
                    Err(x) => return err("Thm 3.3", x),
                };
                if v.hi() >= w.lo() {
                    return Outcome::fail(
                        "YS22 §4.1: the worst position of Thm 3.3",
                        points,
                        params,
                        format!(
                            "Thm 3.3(j₀ = {j0}) = {:.15e} ≥ Thm 3.3(j₀ = {jw}) = {:.15e}",
                            v.mid_f64(),
                            w.mid_f64()
                        ),
                    );
                }
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (setting, K) pairs: Thm 3.3 is largest at j₀ = n/b − 1 (every other position strictly below) and Thm 4.2 is strictly below it"
        ),
        points,
    )
}

/// **YS4.** YS22 §3.2, after Thm 3.3: *"In Figure 1 we observe that for data points in
/// the first batch B⁰, our new privacy dynamics bound is smaller by a multiplicative
/// factor of approximately n/b (where b/n is the batch sampling ratio)"* (than the naive
/// baseline Thm 2.1).
///
/// Checked in the Fig 1 setting (n/b = 25; the ratio does not depend on α) for
/// K = 1, …, 500 epochs (Thm 2.1's K as printed, ERRATA YS5): the ratio
/// Thm 2.1 / Thm 3.3(j₀ = 0) lies in `[lo·n/b, hi·n/b]`, certified. Printed reading
/// ("approximately", taken as within a factor 2): `[0.5, 2]`; adopted: `[1, ∞)`.
pub fn first_batch_factor(lo: f64, hi: f64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let q = Ys22Params::figure();
    let nb = (q.n / q.b) as f64;
    let (mut rmin, mut rmax) = (f64::INFINITY, 0.0f64);
    for k in 1..=500u64 {
        let (naive, first) = match both_ok(
            "Thm 2.1 / 3.3",
            (q.thm2_1(10.0, k, b), q.thm3_3(10.0, k, 0, b)),
        ) {
            Ok(v) => v,
            Err(o) => return *o,
        };
        let ratio = naive / first;
        rmin = rmin.min(ratio.lower_f64());
        rmax = rmax.max(ratio.upper_f64());
        if ratio.hi() < &rug::Float::with_val(64, lo * nb)
            || ratio.lo() > &rug::Float::with_val(64, hi * nb)
        {
            return Outcome::fail(
                "YS22 §3.2: first batch smaller than the naive baseline by ≈ n/b",
                k as usize,
                vec![p("K", k), p("n/b", nb)],
                format!(
                    "Thm 2.1 / Thm 3.3(j₀ = 0) = {:.4} = {:.2}·n/b, outside [{lo}, {hi}]·n/b",
                    ratio.mid_f64(),
                    ratio.mid_f64() / nb
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "Fig 1 setting, K = 1…500: Thm 2.1 / Thm 3.3(j₀ = 0) ∈ [{rmin:.2}, {rmax:.2}] = [{:.2}, {:.2}]·n/b",
            rmin / nb,
            rmax / nb
        ),
        500,
    )
}

/// Which reading of YS22 §4.1's growth-rate remark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrowthReading {
    /// As printed: the per-epoch growth of the first term of eq. (5) is `< ε₀^{⌊n/b⌋}`,
    /// and `ε₀^{⌊n/b⌋} < (b/n)·αηS_g²/(4σ²b²)`.
    Printed,
    /// The growth is `≤ ε₀^{⌊n/2b⌋} ≤ αηS_g²/(4σ²b²)/⌊n/2b⌋`, and
    /// `ε₀^{n/b} < (b/n)·αηS_g²/(4σ²b²)`.
    Adopted,
}

/// **YS3.** YS22 §4.1 ("Comparison with prior amplification by sub-sampling bounds"):
/// *"Observe that only the first term of the Rényi DP bound Equation (5) increases with
/// the number of epochs K, and its growth rate is strictly smaller than
/// ε₀^{⌊n/b⌋} < (b/n)·αηS_g²/(4σ²b²)."*
///
/// The first term is `ε₀^m (1 − r^{K−1})/(1 − r)`, m = ⌊n/2b⌋, r = (1−ηλ)^{2(n/b−m)}: its
/// growth from epoch K to K+1 is `ε₀^m r^{K−1}`, i.e. ε₀^m from epoch 1 to 2, and ε₀^j is
/// decreasing in j with ε₀^j ≤ A/j (A = αηS_g²/(4σ²b²)). So the growth exceeds ε₀^{n/b}
/// and, in the Fig 2 setting, (b/n)A (ε₀^{12} = 3.30·10⁻³ > 2.00·10⁻³ at α = 10).
///
/// Checked (certified) at the Fig 2 setting and random settings, K = 1…50: the
/// `reading`'s inequalities.
pub fn first_term_growth(reading: GrowthReading, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let cases = ys22_cases(ctx, 12);
    let mut points = 0;
    for (q, alpha) in &cases {
        let l = q.n / q.b;
        let m = l / 2;
        let a = e(b, *alpha) * e(b, q.eta) * e(b, q.s_g).square()
            / (e(b, 4.0) * e(b, q.sigma).square() * u(b, q.b).square());
        let (em, el) = match both_ok("ε₀", (q.eps0(m.max(1), *alpha, b), q.eps0(l, *alpha, b))) {
            Ok(v) => v,
            Err(o) => return *o,
        };
        let bn_a = a.clone() / u(b, l);
        let mut params = ys22_params(q);
        params.push(p("alpha", alpha));
        // ε₀^{n/b} < (b/n)A (both readings)
        if el.hi() >= bn_a.lo() {
            return Outcome::fail(
                "YS22 §4.1: ε₀^{n/b} < (b/n)αηS_g²/(4σ²b²)",
                points + 1,
                params,
                format!(
                    "ε₀^{{n/b}} {:.6e} ≥ (b/n)A {:.6e}",
                    el.mid_f64(),
                    bn_a.mid_f64()
                ),
            );
        }
        let mut prev = u(b, 0);
        for k in 1..=50u64 {
            let ft = match both_ok(
                "Thm 4.2",
                (q.thm4_2(*alpha, k + 1, b), q.thm4_2(*alpha, 1, b)),
            ) {
                Ok((x, y)) => x - y,
                Err(o) => return *o,
            };
            let growth = ft.clone() - prev.clone();
            prev = ft;
            points += 1;
            let bad = match reading {
                GrowthReading::Printed => growth.hi() >= el.lo() || growth.hi() >= bn_a.lo(),
                GrowthReading::Adopted => {
                    growth.lo() > em.hi() || em.lo() > (a.clone() / u(b, m.max(1))).hi()
                }
            };
            if bad {
                let mut pk = params.clone();
                pk.push(p("epoch", k));
                return Outcome::fail(
                    "YS22 §4.1: per-epoch growth of the first term of eq. (5)",
                    points,
                    pk,
                    format!(
                        "growth from epoch {k} to {}: {:.6e}; ε₀^{{n/b}} = {:.6e}, (b/n)A = {:.6e}, ε₀^{{⌊n/2b⌋}} = {:.6e}, A/⌊n/2b⌋ = {:.6e}",
                        k + 1,
                        growth.mid_f64(),
                        el.mid_f64(),
                        bn_a.mid_f64(),
                        em.mid_f64(),
                        a.mid_f64() / m.max(1) as f64
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{} settings × 50 epochs: {reading:?} reading holds (ε₀^{{n/b}} < (b/n)A everywhere)",
            cases.len()
        ),
        points,
    )
}

/// **YS10.** YS22 §4.2, after Thm 4.3: *"Observe that in the above recursion, the term
/// S_k^{j+1}(α) is strictly smaller than e^{(α−1)αηS_g²/(4σ²b²)}·S_k^j(α) (i.e., the Rényi
/// DP bound for one step of noisy gradient descent on dataset with size b)"*.
///
/// Checked along the recursion of eq. (6) in the Fig 2 setting (α ∈ {10, 15, 20}, 50
/// epochs) and at random settings, run here with enclosures:
/// `S^{j+1} < e^{θ·(α−1)αηS_g²/(4σ²b²)}·S^j` at every step (printed θ = 1).
pub fn thm4_3_step_below(theta: f64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let cases = ys22_cases(ctx, 8);
    let mut points = 0;
    for (q, alpha) in &cases {
        let l = q.n / q.b;
        let (qq, c, rho) = eq6_coefficients(q, *alpha, b);
        let full = c.clone().exp();
        let lim = (e(b, theta) * c).exp();
        // S^{j+1}/S^j = (b/n)e^c + (1 − b/n)(S^j)^{ρ−1}: decreasing in S^j (ρ ≤ 1), so its
        // largest value over the enclosure of S^j is at the lower end
        let mut prev = vec![u(b, 0)];
        prev.extend(thm4_3_trajectory(q, *alpha, 50 * l, b));
        for (step, ls) in prev.iter().enumerate().take(50 * l as usize) {
            let lo = Enclosure::from_float(ls.lo());
            let ratio = qq.clone() * full.clone()
                + (e(b, 1.0) - qq.clone()) * ((rho.clone() - e(b, 1.0)) * lo).exp();
            points += 1;
            if ratio.hi() >= lim.lo() {
                let mut params = ys22_params(q);
                params.extend([p("alpha", alpha), p("step", step)]);
                return Outcome::fail(
                    "YS22 §4.2: Thm 4.3 step below the full-batch step",
                    points,
                    params,
                    format!(
                        "S^{{j+1}}/S^j = {:.6e} ≥ e^{{{theta}c}} = {:.6e}",
                        ratio.mid_f64(),
                        lim.mid_f64()
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{} settings, {points} steps of eq. (6): S^{{j+1}} < e^{{{theta}·(α−1)αηS_g²/(4σ²b²)}}·S^j at every step",
            cases.len()
        ),
        points,
    )
}

/// The coefficients of YS22 eq. (6) as enclosures: b/n, c = (α−1)αηS_g²/(4σ²b²) and
/// ρ = (1−ηλ)².
fn eq6_coefficients(q: &Ys22Params, alpha: f64, b: u32) -> (Enclosure, Enclosure, Enclosure) {
    let qq = u(b, q.b) / u(b, q.n);
    let c = e(b, alpha - 1.0) * e(b, alpha) * e(b, q.eta) * e(b, q.s_g).square()
        / (e(b, 4.0) * e(b, q.sigma).square() * u(b, q.b).square());
    let rho = (e(b, 1.0) - e(b, q.eta) * e(b, q.lambda)).square();
    (qq, c, rho)
}

/// The log-space iterates `L_s = log S^s` of YS22 eq. (6), s = 1…`steps`, as enclosures:
/// `L ← log((b/n)e^{c}e^{L} + (1 − b/n)e^{ρL})` from L = 0, c = (α−1)αηS_g²/(4σ²b²),
/// ρ = (1−ηλ)². The map is increasing, so the two ends are propagated as points (interval
/// arithmetic on the whole enclosure would widen at every step). Independent of
/// [`Ys22Params::thm4_3`]'s early stops.
fn thm4_3_trajectory(q: &Ys22Params, alpha: f64, steps: u64, bits: u32) -> Vec<Enclosure> {
    let b = bits;
    let (qq, c, rho) = eq6_coefficients(q, alpha, b);
    let a0 = qq.clone().ln() + c;
    let a1 = (-qq).ln_1p();
    let step = |lv: &rug::Float| -> Enclosure {
        let lp = Enclosure::from_float(lv);
        let x = a0.clone() + lp.clone();
        let y = a1.clone() + rho.clone() * lp;
        // log(e^x + e^y) = max + log1p(e^{min − max}) for either order of the terms
        let (big, small) = if x.mid() >= y.mid() { (x, y) } else { (y, x) };
        big.clone() + (small - big).exp().ln_1p()
    };
    let zero = rug::Float::with_val(b + 32, 0);
    let (mut lo, mut hi) = (zero.clone(), zero);
    let mut out = vec![];
    for _ in 0..steps {
        lo = step(&lo).lo().clone();
        hi = step(&hi).hi().clone();
        out.push(
            Enclosure::new(lo.clone(), hi.clone()).unwrap_or_else(|| Enclosure::everything(b + 32)),
        );
    }
    out
}

/// Thm 4.3 of YS22 at every epoch K = 1…`kmax` from [`thm4_3_trajectory`].
fn thm4_3_epochs(q: &Ys22Params, alpha: f64, kmax: u64, bits: u32) -> Vec<Enclosure> {
    let l = (q.n / q.b) as usize;
    thm4_3_trajectory(q, alpha, kmax * l as u64, bits)
        .into_iter()
        .skip(l - 1)
        .step_by(l)
        .map(|x| x / e(bits, alpha - 1.0))
        .collect()
}

/// **YS11.** YS22 §4.2: *"However, our privacy bound under 'sample without replacement' in
/// Figure 2 (b) is larger than our privacy bound under 'shuffle and partition' in Figure
/// 2 (a)"*.
///
/// Checked in the Fig 2 setting, α ∈ {10, 15, 20}, K = 1…200 epochs: Thm 4.3 (lower end,
/// eq. (6) run with enclosures) > Thm 4.2 (upper end) when `above` (printed), the reverse
/// when not.
pub fn fig2_order(above: bool, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let q = Ys22Params::figure();
    let mut points = 0;
    let mut smallest = f64::INFINITY;
    for alpha in YS22_ALPHAS {
        let t43s = thm4_3_epochs(&q, alpha, 200, b);
        for (i, t43) in t43s.iter().enumerate() {
            let k = i as u64 + 1;
            let t42 = match q.thm4_2(alpha, k, b) {
                Ok(x) => x,
                Err(x) => return err("Thm 4.2", x),
            };
            points += 1;
            smallest = smallest.min(t43.lower_f64() / t42.upper_f64());
            let ok = if above {
                t43.lo() > t42.hi()
            } else {
                t43.hi() < t42.lo()
            };
            if !ok {
                return Outcome::fail(
                    "YS22 §4.2: without-replacement bound vs shuffle bound (Fig 2)",
                    points,
                    vec![p("alpha", alpha), p("K", k)],
                    format!(
                        "Thm 4.3 {:.6e}, Thm 4.2 {:.6e} (claimed Thm 4.3 {} Thm 4.2)",
                        t43.mid_f64(),
                        t42.mid_f64(),
                        if above { ">" } else { "<" }
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "Fig 2 setting, α ∈ {{10, 15, 20}}, K = 1…200: Thm 4.3 > Thm 4.2 everywhere (smallest ratio {smallest:.3})"
        ),
        points,
    )
}

/// **YS12.** YS22 §2, after Thm 2.1: *"However, as we also show in Figure 1, this naive
/// privacy dynamics baseline slowly converges to a huge constant, which is significantly
/// worse than the bounds derived by composition [29, 1]."*
///
/// Checked in the figure setting, α ∈ {10, 15, 20}, over the figures' horizon K = 1…200
/// epochs: Thm 2.1 ≥ `factor` × the certified composition baseline (printed
/// "significantly", taken as factor 10). The epoch where composition overtakes the naive
/// baseline is reported (f64).
pub fn naive_above_composition(factor: f64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let q = Ys22Params::figure();
    let mut smallest = f64::INFINITY;
    let mut overtakes = vec![];
    for alpha in YS22_ALPHAS {
        let per = match q.baseline(alpha, 1, b) {
            Ok(x) => x,
            Err(x) => return err("baseline", x),
        };
        for k in 1..=200u64 {
            let naive = match q.thm2_1(alpha, k, b) {
                Ok(x) => x,
                Err(x) => return err("Thm 2.1", x),
            };
            let comp = per.clone() * u(b, k);
            let ratio = naive.lower_f64() / comp.upper_f64();
            smallest = smallest.min(ratio);
            if naive.hi() < (comp.clone() * e(b, factor)).lo() {
                return Outcome::fail(
                    "YS22 §2: naive baseline significantly worse than composition",
                    k as usize,
                    vec![p("alpha", alpha), p("K", k)],
                    format!(
                        "Thm 2.1 {:.6e} < {factor} × composition {:.6e}",
                        naive.mid_f64(),
                        comp.mid_f64()
                    ),
                );
            }
        }
        // limit of Thm 2.1 over the per-epoch composition: the epoch it is overtaken
        let lim = alpha * q.s_g * q.s_g / (q.lambda * q.sigma * q.sigma * (q.b * q.b) as f64);
        overtakes.push(format!("{:.0}", lim / per.mid_f64()));
    }
    Outcome::pass(
        format!(
            "figure setting, K = 1…200: Thm 2.1 ≥ {factor} × composition (smallest ratio {smallest:.1}); composition passes the naive limit only after ≈ {} epochs (α = 10, 15, 20)",
            overtakes.join(", ")
        ),
        600,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status::{self, Fail, Pass};
    use crate::outcome::testkit::{
        assert_cases, assert_statuses, assert_unique_prefixed, ctx_with, status,
    };

    fn ctx() -> Ctx {
        ctx_with(6)
    }

    #[test]
    fn every_builtin_has_a_unique_prefixed_name() {
        assert_unique_prefixed(&builtins(), &["cys21/", "ys22/"]);
    }

    #[test]
    fn fc1_perturbed_constant_or_rate_is_rejected() {
        let c = ctx();
        assert_statuses([
            (Pass, intro_simplified(1.0, 0.5, &c)),
            (Fail, intro_simplified(1.25, 0.5, &c)),
            (Fail, intro_simplified(1.0, 0.625, &c)),
        ]);
    }

    #[test]
    fn fc2_curves_with_other_roles_are_rejected() {
        // a rate that depends on α
        let alpha_rate = |lam: f64, alpha: f64, k: u64, bits: u32| {
            let q = Cys21Params::figure1(lam)?;
            let mut q2 = q;
            q2.eta = q.eta * alpha / 10.0;
            q2.cor1(alpha, k, bits)
        };
        // an asymptote that grows with λ
        let grows = |lam: f64, alpha: f64, k: u64, bits: u32| {
            Ok(cor1_curve(lam, alpha, k, bits)? * e(bits, lam * lam))
        };
        let c = ctx();
        assert_statuses([
            (Pass, fig1_roles(&cor1_curve, &c)),
            (Fail, fig1_roles(&alpha_rate, &c)),
            (Fail, fig1_roles(&grows, &c)),
        ]);
    }

    #[test]
    fn fc3_perturbed_baseline_constant_is_rejected() {
        assert_cases(fig1_caption, &ctx(), [(Pass, 4.0), (Fail, 3.2)]);
    }

    #[test]
    fn fc4_perturbed_rate_is_rejected() {
        assert_cases(same_rate_small_k, &ctx(), [(Pass, 4.0), (Fail, 3.2)]);
    }

    #[test]
    fn fc5_fc6_perturbed_constants_are_rejected() {
        let c = ctx();
        assert_statuses([
            (Pass, cor1_within(4.0, &c)),
            (Fail, cor1_within(3.2, &c)),
            // a constant that is valid but not attained is rejected too
            (Fail, cor1_within(5.0, &c)),
            (Pass, cor2_within(1.0, &cor2_adopted, &c)),
            (Fail, cor2_within(0.8, &cor2_adopted, &c)),
            (Fail, cor2_within(1.25, &cor2_adopted, &c)),
            (Fail, cor2_within(1.0, &cor2_printed, &c)),
        ]);
    }

    #[test]
    fn fc7_larger_lsi_constant_is_rejected() {
        assert_cases(lsi_constant, &ctx(), [(Pass, 1.0), (Fail, 1.25)]);
    }

    #[test]
    fn fc8_printed_cor2_is_not_below_cor1() {
        let c = ctx();
        assert_statuses([
            (Pass, thm2_tighter(&cor2_adopted, &c)),
            (Fail, thm2_tighter(&cor2_printed, &c)),
        ]);
    }

    #[test]
    fn fc9_smaller_noise_is_rejected() {
        assert_cases(
            |(c_rdp, c_dp), c| thm4_calibration(c_rdp, c_dp, c),
            &ctx(),
            [
                (Pass, (4.0, 8.0)),
                // σ² × 0.8 in the RDP calibration: sup Cor 1 = 1.25 ε′
                (Fail, (3.2, 8.0)),
                // σ² × 0.8 in the DP calibration: Mironov at the printed α gives 1.125 ε
                (Fail, (4.0, 6.4)),
            ],
        );
    }

    #[test]
    fn fy1_printed_footnote_fails_and_adopted_passes() {
        assert_cases(
            footnote_4,
            &ctx(),
            [(Fail, Fn4Reading::Printed), (Pass, Fn4Reading::Adopted)],
        );
    }

    #[test]
    fn fy2_perturbed_approximation_is_rejected() {
        assert_cases(
            |scale, c| fig2_composition_approx(scale, 0.02, c),
            &ctx(),
            [(Pass, 1.0), (Fail, 1.25), (Fail, 0.8)],
        );
    }

    #[test]
    fn fy3_printed_threshold_fails_at_alpha_20() {
        let printed = thm4_3_after(&[(10.0, 50), (15.0, 50), (20.0, 50)], &ctx());
        assert_eq!(printed.status, Status::Fail);
        assert!(printed.counterexample.unwrap().params[0].1 == "20");
        assert_statuses([(
            Pass,
            thm4_3_after(&[(10.0, 34), (15.0, 48), (20.0, 89)], &ctx()),
        )]);
        // one epoch earlier than the crossing is rejected at every order
        for (a, k) in [(10.0, 33), (15.0, 47), (20.0, 88)] {
            assert_ne!(
                status(&thm4_3_after(&[(a, k)], &ctx())),
                Status::Pass,
                "α = {a}"
            );
        }
    }

    #[test]
    fn fy4_threshold_holds_and_a_short_one_is_rejected() {
        assert_statuses([(Pass, thm4_2_threshold(1.0, &ctx()))]);
        // a threshold of a few percent of 1/(λη) + n/b is too early in the figure setting
        assert_ne!(status(&thm4_2_threshold(0.01, &ctx())), Status::Pass);
    }

    #[test]
    fn fy5_first_batch_as_worst_case_is_rejected() {
        let c = ctx();
        assert_statuses([
            (Pass, thm4_2_below_worst(&|l| l - 1, &c)),
            (Fail, thm4_2_below_worst(&|_| 0, &c)),
        ]);
    }

    #[test]
    fn fy6_printed_factor_fails_adopted_passes() {
        assert_cases(
            |(lo, hi), c| first_batch_factor(lo, hi, c),
            &ctx(),
            [
                (Fail, (0.5, 2.0)),
                (Pass, (1.0, f64::INFINITY)),
                // a factor (n/b)² is not a lower bound at every K either
                (Fail, (25.0, f64::INFINITY)),
            ],
        );
    }

    #[test]
    fn fy7_printed_growth_fails_adopted_passes() {
        assert_cases(
            first_term_growth,
            &ctx(),
            [
                (Fail, GrowthReading::Printed),
                (Pass, GrowthReading::Adopted),
            ],
        );
    }

    #[test]
    fn fy8_fy9_fy10_perturbations_are_rejected() {
        let c = ctx();
        assert_statuses([
            (Pass, thm4_3_step_below(1.0, &c)),
            (Fail, thm4_3_step_below(0.01, &c)),
            (Pass, fig2_order(true, &c)),
            (Fail, fig2_order(false, &c)),
            (Pass, naive_above_composition(10.0, &c)),
            (Fail, naive_above_composition(100.0, &c)),
        ]);
    }
}
