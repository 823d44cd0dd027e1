//! Statements made in passing by AT22: the burn-in threshold T̄, numbers
//! quoted in the proof of Thm 4.1 (App. A.4), remarks of §5 and App. B on how the
//! numerical bounds behave and are computed, footnotes 5, 12 and 15, and the differences
//! between the full and the NeurIPS versions — each implemented **as printed** and checked
//! against the toolkit's certified computation. ERRATA.md records the verdicts in its
//! AT22 entries (the functions keep the old ids `fa*`; each entry's `Aliases:` line maps
//! them).
//!
//! Every check is a function parametrized by the statement's value or reading, so that
//! the unit tests show that a perturbed statement is rejected by the same code. A
//! statement that is wrong as printed has a `…-printed` builtin (which fails; ERRATA
//! records `expect = "fail"`) and an `…-adopted` builtin (which passes).
//!
//! # Conventions
//! AT22 state results with the Lipschitz constant L_AT; the toolkit's gradient
//! sensitivity is L = 2L_AT (ERRATA SD6), so `Q = S_α(b/n, bσ₂/(2L_AT)) = S_α(b/n, bσ₂/L)`.
//! Noise is N(0, η²σ²) per step.
//!
//! Identities are checked by overlap of enclosures. A strict inequality passes only when certain; a non-strict one (≤) fails only when
//! certainly violated, so an exact tie (e.g. a supremum that equals the stated constant)
//! holds — the enclosures are ≥ 128 bits wide, far below any printed precision.
//!
//! # References
//! J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent: more
//! iterations without more privacy loss* (full version, arXiv, and NeurIPS 2022).
use super::outcome::{Builtin, Ctx, Outcome};
use crate::check::SplitMix64;
use crate::numbers::guarded::{dec, e, u};
use crate::numbers::{both_ok, err, overlap, p};
use shiftdp::precision::Enclosure;
use shiftdp::renyi::at22::{PabiGap, alpha_star, b_term};
use shiftdp::renyi::at22_theorems::{
    At22Run, QReading, SplitInputs, THM_4_1_CONSTANTS, recipe_5_7, sgm_q, sgm_q_search,
    thm_4_1_lower_bound,
};
use shiftdp::settings::{Algorithm, RawSetting, Setting};

/// The AT22 statement checks.
pub fn builtins() -> Vec<Builtin> {
    vec![
        Builtin {
            name: "at22/quoted-footnote-5-update-difference-printed",
            about: "AT22 footnote 5 (NeurIPS fn 3): updates on adjacent datasets differ by at most ηL/b, as printed: FAILS (FA1)",
            run: |c| update_difference(1.0, c),
        },
        Builtin {
            name: "at22/quoted-footnote-5-update-difference-adopted",
            about: "AT22 footnote 5: updates on adjacent datasets differ by at most 2ηL/b (attained) (FA1)",
            run: |c| update_difference(2.0, c),
        },
        Builtin {
            name: "at22/quoted-a4-gaussian-tail-printed",
            about: "AT22 App. A.4: P[N(0,1) ≥ −0.1/√0.001] ≈ 0.999993 as printed: FAILS (it is 0.999217…) (FA2)",
            run: |c| gaussian_tail("0.999993", 6, c),
        },
        Builtin {
            name: "at22/quoted-a4-gaussian-tail-adopted",
            about: "AT22 App. A.4: P[N(0,1) ≥ −0.1/√0.001] = 0.999217 (6 decimals), and the conclusion (A.2) still holds (FA2)",
            run: |c| gaussian_tail("0.999217", 6, c),
        },
        Builtin {
            name: "at22/quoted-thm-4-1-proof-constants",
            about: "AT22 §4 and App. A.4: the numbers of the Thm 4.1 proof (> 0.005, < 0.1, ≤ 0.01, ≤ 0.9, e⁻⁵, ≥ 0.9, ≥ 0.6D, 3D/4, D/4, D²/1000) (FA3)",
            run: |c| thm_4_1_constants(&A4Values::PRINTED, c),
        },
        Builtin {
            name: "at22/versions-neurips-4-1-printed",
            about: "AT22 NeurIPS (4.1) with η²σ² in the denominator exceeds a certified upper bound of its own instance: FAILS (FA4)",
            run: |c| thm_4_1_versions(Denominator::EtaSquared, c),
        },
        Builtin {
            name: "at22/versions-4-1-full-adopted",
            about: "AT22 full-version (4.1) with n²σ² (= the toolkit's Thm 4.1 lower bound) stays below that upper bound (FA4)",
            run: |c| thm_4_1_versions(Denominator::NSquared, c),
        },
        Builtin {
            name: "at22/remark-5-2-contraction",
            about: "AT22 Remark 5.2: c = 1 − ηm ≤ e^{−ηm} for η ≤ 1/M; c = (κ−1)/(κ+1) ≤ e^{−1/κ} at η = 2/(M+m), the c-minimizing step (FA6)",
            run: |c| remark_5_2(1.0, c),
        },
        Builtin {
            name: "at22/remark-b3-stepsize-optimal",
            about: "AT22 App. B.3: (B.3) is smallest at η = 2/(M+m): its PABI term decreases before and increases after that step (FA7)",
            run: |c| b3_stepsize(1.0, c),
        },
        Builtin {
            name: "at22/remark-b2-monotone-in-sigma-printed",
            about: "AT22 App. B.2/B.3: 'the RDP is increasing in σ' as printed: FAILS (FA8)",
            run: |c| monotone_in_sigma(true, c),
        },
        Builtin {
            name: "at22/remark-b2-monotone-in-sigma-adopted",
            about: "AT22 App. B.2/B.3: every term of (B.2)/(B.3) decreases in σ (binary search applies) (FA8)",
            run: |c| monotone_in_sigma(false, c),
        },
        Builtin {
            name: "at22/remark-b2-ternary-search-printed",
            about: "AT22 App. B.2/B.3: ternary search over σ₁ computes the minimum (to 10⁻⁴), as printed: FAILS (the objective is not unimodal) (FA9)",
            run: |c| ternary_search(SearchReading::NearGridMinimum(1e-4), QReading::AsPrinted, c),
        },
        Builtin {
            name: "at22/remark-b2-ternary-search-adopted",
            about: "AT22 App. B.2/B.3: ternary search over σ₁ gives a valid bound within 5% of the minimum over a 1999-point grid (FA9)",
            run: |c| ternary_search(SearchReading::NearGridMinimum(0.05), QReading::AsPrinted, c),
        },
        Builtin {
            name: "at22/remark-b2-ternary-search-both-orders",
            about: "AT22 App. B.2/B.3 with Q over both orders of the sampled Gaussian pair: ternary search over σ₁ ends within 10⁻³ of the minimum over a 1999-point grid (FA9)",
            run: |c| {
                ternary_search(
                    SearchReading::NearGridMinimum(1e-3),
                    QReading::BothOrders,
                    c,
                )
            },
        },
        Builtin {
            name: "at22/remark-b1-first-order-t-tilde",
            about: "AT22 App. B.1: the inner minimum of (B.1) is at T̃ = D̃n/(2ηL) up to floor/ceiling (FA10)",
            run: |c| b1_t_tilde(1.0, c),
        },
        Builtin {
            name: "at22/threshold-burn-in-printed",
            about: "AT22 §1.2/Thm 3.1: the bound stops increasing once T ≥ T̄ = ⌈Dn/(Lη)⌉, as printed for (B.2): FAILS (FA11)",
            run: |c| burn_in(1.0, c),
        },
        Builtin {
            name: "at22/threshold-burn-in-adopted",
            about: "AT22 §1.2: (B.2) stops increasing by T = 2.1·⌈Dn/(Lη)⌉ (≈ 2T̄) (FA11)",
            run: |c| burn_in(2.1, c),
        },
        Builtin {
            name: "at22/remark-footnote-12-tightness-printed",
            about: "AT22 footnote 12: 2αL²/(b²σ₂²) is tight up to a constant for b ≥ n/5, with Q as printed (one order): FAILS (ratio grows with α) (FA12)",
            run: |c| footnote_12(QReading::AsPrinted, c),
        },
        Builtin {
            name: "at22/remark-footnote-12-tightness-adopted",
            about: "AT22 footnote 12: the formula is exact, and within (n/b)² ≤ 25 of Q over both orders (T1) (FA12)",
            run: |c| footnote_12(QReading::BothOrders, c),
        },
        Builtin {
            name: "at22/remark-example-5-9-rate",
            about: "AT22 §1.2/Example 5.9: with η_t = t^{−c}, (5.7) grows as T^c after the threshold (FA13)",
            run: |c| rate_exponent(&|x| x, c),
        },
        Builtin {
            name: "at22/remark-footnote-15-closed-form",
            about: "AT22 footnote 15: a_t = c^{−t}βD, β = c^{τ+2}(1−c^{−2})/(1−c^{−2(T−τ)}) is feasible and optimal with value c^{−τ}βD² (FA14)",
            run: |c| footnote_15(2, c),
        },
    ]
}

/// **AT4.** AT22 §1.2, footnote 5 (NeurIPS footnote 3): *"Details: Noisy-SGD updates on
/// adjacent datasets differ by at most ηL/b if the different datapoint is in the current
/// batch (i.e., with probability b/n), and otherwise are identical."*
///
/// Under replace adjacency with L-Lipschitz losses the gradients of the differing record
/// differ by up to 2L (AT22's own (3.4): ‖m_t‖ ≤ 2ηL/b; Thm 5.8's s_t ≤ 2ηL/b; Remark
/// B.2). Checked at random (η, L, b, batch): for the L-Lipschitz pair f(ω) = Lω,
/// f′(ω) = −Lω (the rest of the batch shared), the two updates of a point ω differ by
/// exactly 2ηL/b (certified), against the printed bound `factor·ηL/b` (printed factor 1).
pub fn update_difference(factor: f64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(20);
    let b = ctx.bits;
    for i in 0..n {
        let (eta, l, bb, w) = (
            0.001 + r.unit(),
            0.1 + 5.0 * r.unit(),
            r.int(1, 100),
            10.0 * r.unit() - 5.0,
        );
        // shared part of the batch: b − 1 records with loss ½ω² (any gradient would do)
        let shared = u(b, bb - 1) * e(b, w);
        let step = |g: Enclosure| e(b, w) - e(b, eta) / u(b, bb) * (shared.clone() + g);
        let diff = step(e(b, l)) - step(-e(b, l));
        let diff = diff.max(&-diff.clone());
        let bound = e(b, factor) * e(b, eta) * e(b, l) / u(b, bb);
        let exact = e(b, 2.0) * e(b, eta) * e(b, l) / u(b, bb);
        if diff.lo() > bound.hi() || !overlap(&diff, &exact) {
            return Outcome::fail(
                "AT22 footnote 5: adjacent Noisy-SGD updates differ by at most ηL/b",
                i + 1,
                vec![p("eta", eta), p("L", l), p("b", bb)],
                format!(
                    "|update − update′| = {:.15e} (2ηL/b = {:.15e}) > {factor}·ηL/b = {:.15e}",
                    diff.mid_f64(),
                    exact.mid_f64(),
                    bound.mid_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{n} random (η, L, b): the L-Lipschitz pair f = Lω, f′ = −Lω moves the update by exactly 2ηL/b ≤ {factor}·ηL/b"
        ),
        n,
    )
}

/// **AT5.** AT22 App. A.4, proof of Thm 4.1: *"P[Z + D/10 ≥ 0] ≥ P[N(0.1D, 0.001D²) ≥ 0]
/// = P[N(0,1) ≥ −0.1/√0.001] ≈ 0.999993"*, and then *"P[w″_T ≥ 0] ≥ 0.99993 − 0.1 ≥
/// ½e^{0.1} + 0.01"*.
///
/// Checked: Φ(0.1/√0.001) (certified, [`Enclosure::phi`]) rounds to `printed` at
/// `decimals` decimals (printed "0.999993", 6 decimals); and the conclusion
/// Φ(0.1/√0.001) − 0.1 ≥ ½e^{0.1} + 0.01 holds with the certified value.
pub fn gaussian_tail(printed: &str, decimals: i32, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let x = e(b, 0.1) / dec(b, "0.001").sqrt();
    let phi = x.phi();
    let v = dec(b, printed);
    let half_ulp = e(b, 0.5) * e(b, 10f64.powi(-decimals));
    let dist = (phi.clone() - v.clone()).max(&(v - phi.clone()));
    let target = e(b, 0.5) * e(b, 0.1).exp() + dec(b, "0.01");
    let concl = phi.clone() - dec(b, "0.1");
    if dist.lo() > half_ulp.hi() {
        return Outcome::fail(
            "AT22 App. A.4: P[N(0,1) ≥ −0.1/√0.001]",
            1,
            vec![p("printed", printed)],
            format!(
                "Φ(0.1/√0.001) = {:.10} (certified), printed {printed}: off by {:.3e} > half a unit of the {decimals}th decimal",
                phi.mid_f64(),
                dist.mid_f64()
            ),
        );
    }
    if concl.hi() < target.lo() {
        return Outcome::fail(
            "AT22 App. A.4: conclusion (A.2)",
            1,
            vec![],
            format!(
                "Φ − 0.1 = {:.6} < ½e^0.1 + 0.01 = {:.6}",
                concl.mid_f64(),
                target.mid_f64()
            ),
        );
    }
    Outcome::pass(
        format!(
            "Φ(0.1/√0.001) = {:.9} rounds to {printed}; the conclusion holds: Φ − 0.1 = {:.6} ≥ ½e^0.1 + 0.01 = {:.6}",
            phi.mid_f64(),
            concl.mid_f64(),
            target.mid_f64()
        ),
        2,
    )
}

/// The numbers quoted in AT22's proof of Thm 4.1 (§4 sketch, App. A.4, footnote 13).
/// Decimal strings, evaluated exactly ([`Enclosure::parse`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct A4Values {
    /// c_α (footnote 13): 10⁻⁷.
    pub c_alpha: &'static str,
    /// ᾱ: 100.
    pub alpha_bar: &'static str,
    /// c_σ: 10⁻³.
    pub c_sigma: &'static str,
    /// c_D: 10³.
    pub c_d: &'static str,
    /// T̄ = frac·Dn/(Lη): frac = 0.75.
    pub tbar_frac: &'static str,
    /// "the quantity in (4.1) is greater than 0.005".
    pub rdp_floor: &'static str,
    /// the (ε, δ) = (0.1, 0.01) of the DP argument.
    pub dp_eps: &'static str,
    /// δ = 0.01.
    pub dp_delta: &'static str,
    /// Δ = 0.15 (Chernoff deviation).
    pub delta: &'static str,
    /// "≤ 0.01" (Chernoff and hitting-time failure probabilities).
    pub fail_prob: &'static str,
    /// "(1 + Δ)0.75D ≤ 0.9D".
    pub upper_frac: &'static str,
    /// "≥ 0.6D".
    pub lower_frac: &'static str,
    /// "exp(−5)".
    pub hitting_exponent: &'static str,
    /// "(1 − 0.01)² ≥ 0.9".
    pub event_prob: &'static str,
    /// "0.99993" in the last display.
    pub last_display: &'static str,
}

impl A4Values {
    /// The values as printed.
    pub const PRINTED: A4Values = A4Values {
        c_alpha: "1e-7",
        alpha_bar: "100",
        c_sigma: "1e-3",
        c_d: "1e3",
        tbar_frac: "0.75",
        rdp_floor: "0.005",
        dp_eps: "0.1",
        dp_delta: "0.01",
        delta: "0.15",
        fail_prob: "0.01",
        upper_frac: "0.9",
        lower_frac: "0.6",
        hitting_exponent: "5",
        event_prob: "0.9",
        last_display: "0.99993",
    };
}

/// **AT7.** AT22 §4 (proof sketch of Thm 4.1) and App. A.4, every number quoted in the
/// argument (with footnote 13's constants c_σ = 10⁻³, c_D = 10³, c_α = 10⁻⁷, ᾱ = 10²,
/// T̄ = 0.75Dn/(Lη)):
/// 1. *"for T ≥ T̄, the quantity in (4.1) is greater than 0.005"*: at the largest
///    admissible σ² = c_σD²/(η²T̄) it is c_α ᾱ·0.75²/c_σ = 0.005625;
/// 2. *"0.005 + (log 100)/99 < 0.1"* (Lemma 2.5 with δ = 0.01);
/// 3. *"2exp(−0.15²·0.75·1000/3) ≤ 0.01"* (E B = 0.75bD/(Lη) ≥ 0.75c_D);
/// 4. *"(1 + Δ)0.75D ≤ 0.9D"*; 5. *"exp(−(0.1D)²/(2T̄η²σ²)) ≤ exp(−5) ≤ 0.01"*
///    (T̄η²σ² ≤ c_σD²); 6. *"(1 − 0.01)² ≥ 0.9"*; 7. *"(1 − 0.15)0.75D ≥ 0.6D"*, so
///    W″_T ≥ Z − D/2 + 0.6D = Z + D/10 (printed "Z + 10/D": a typo, D/10 is used next);
/// 8. *"0.99993 − 0.1 ≥ ½e^{0.1} + 0.01"*;
/// 9. §4: *"Σ Y_t ≈ T̄ηL/n = 3D/4"*, *"mean roughly −D/2 + 3D/4 = D/4"*, *"variance
///    T̄η²σ² ≤ D²/1000"*.
///
/// Each is evaluated with enclosures from the values `v` (printed: [`A4Values::PRINTED`]).
pub fn thm_4_1_constants(v: &A4Values, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let one_e = u(b, 1);
    let x = |f: &str| dec(b, f);
    let xf = |f: f64| e(b, f);
    // a ≤ c: certainly, or a tie (the quoted relations are between decimal rationals)
    let le = |a: &Enclosure, c: &Enclosure| a.hi() <= c.lo() || overlap(a, c);
    let lt = |a: &Enclosure, c: &Enclosure| a.hi() < c.lo();
    let mut items: Vec<(&str, bool, String)> = vec![];
    // 1
    let q41 = x(v.c_alpha) * x(v.alpha_bar) * x(v.tbar_frac).square() / x(v.c_sigma);
    items.push((
        "(4.1) > 0.005 for T ≥ T̄",
        lt(&x(v.rdp_floor), &q41),
        format!("c_α ᾱ 0.75²/c_σ = {:.6}", q41.mid_f64()),
    ));
    // 2
    let conv =
        x(v.rdp_floor) + (one_e.clone() / x(v.dp_delta)).ln() / (x(v.alpha_bar) - one_e.clone());
    items.push((
        "0.005 + log(1/δ)/(ᾱ − 1) < 0.1",
        lt(&conv, &x(v.dp_eps)),
        format!("{:.6}", conv.mid_f64()),
    ));
    // 3
    let chern = xf(2.0) * (-(x(v.delta).square() * x(v.tbar_frac) * x(v.c_d) / xf(3.0))).exp();
    items.push((
        "2exp(−Δ²·0.75·c_D/3) ≤ 0.01",
        le(&chern, &x(v.fail_prob)),
        format!("{:.6}", chern.mid_f64()),
    ));
    // 4
    let up = (one_e.clone() + x(v.delta)) * x(v.tbar_frac);
    items.push((
        "(1 + Δ)·0.75 ≤ 0.9",
        le(&up, &x(v.upper_frac)),
        format!("{:.6}", up.mid_f64()),
    ));
    // 5: (0.1D)²/(2 T̄η²σ²) ≥ 0.01/(2c_σ) = 5 and e^{−5} ≤ 0.01
    let expo = (xf(1.0) - x(v.upper_frac)).square() / (xf(2.0) * x(v.c_sigma));
    let hit = (-x(v.hitting_exponent)).exp();
    items.push((
        "(0.1)²/(2c_σ) ≥ 5 and e⁻⁵ ≤ 0.01",
        le(&x(v.hitting_exponent), &expo) && le(&hit, &x(v.fail_prob)),
        format!(
            "exponent {:.6}, e^-5 = {:.6}",
            expo.mid_f64(),
            hit.mid_f64()
        ),
    ));
    // 6
    let ev = (one_e.clone() - x(v.fail_prob)).square();
    items.push((
        "(1 − 0.01)² ≥ 0.9",
        le(&x(v.event_prob), &ev),
        format!("{:.6}", ev.mid_f64()),
    ));
    // 7
    let low = (one_e.clone() - x(v.delta)) * x(v.tbar_frac);
    let shift = x(v.lower_frac) - xf(0.5);
    items.push((
        "(1 − Δ)·0.75 ≥ 0.6, so W″ ≥ Z + D/10",
        le(&x(v.lower_frac), &low) && overlap(&shift, &dec(b, "0.1")),
        format!(
            "(1 − Δ)0.75 = {:.6}, −1/2 + 0.6 = {:.6}",
            low.mid_f64(),
            shift.mid_f64()
        ),
    ));
    // 8
    let target = xf(0.5) * xf(0.1).exp() + xf(0.01);
    let last = x(v.last_display) - xf(0.1);
    items.push((
        "0.99993 − 0.1 ≥ ½e^0.1 + 0.01",
        le(&target, &last),
        format!("{:.6} ≥ {:.6}", last.mid_f64(), target.mid_f64()),
    ));
    // 9 (in units of D): T̄ηL/n = 0.75; −1/2 + 3/4 = 1/4; T̄η²σ² ≤ c_σD² = D²/1000
    let bias = x(v.tbar_frac);
    let mean = bias.clone() - xf(0.5);
    items.push((
        "T̄ηL/n = 3D/4, mean D/4, variance ≤ D²/1000",
        overlap(&bias, &dec(b, "0.75"))
            && overlap(&mean, &dec(b, "0.25"))
            && overlap(&x(v.c_sigma), &(one_e.clone() / xf(1000.0))),
        format!(
            "{:.6}, {:.6}, {}",
            bias.mid_f64(),
            mean.mid_f64(),
            v.c_sigma
        ),
    ));
    let n = items.len();
    if let Some((label, _, detail)) = items.iter().find(|x| !x.1) {
        return Outcome::fail(
            "AT22 Thm 4.1 proof: quoted numbers",
            n,
            vec![p("item", label)],
            detail.clone(),
        );
    }
    Outcome::pass(
        format!(
            "{n} quoted numbers of the Thm 4.1 proof hold (certified): {}",
            items
                .iter()
                .map(|(l, _, d)| format!("{l} [{d}]"))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        n,
    )
}

/// The denominator of Thm 4.1's (4.1) in the two versions of AT22.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denominator {
    /// NeurIPS version: `c_α ᾱ L²/(η²σ²)·min{T, T̄}`.
    EtaSquared,
    /// Full version: `c_α ᾱ L²/(n²σ²)·min{T, T̄}`.
    NSquared,
}

/// **AT2.** AT22 Thm 4.1, (4.1): the NeurIPS version prints *"Then NOISY-SGD is not
/// (ᾱ, ε)-RDP for ε ≤ c_α ᾱL²/(η²σ²)·min{T, T̄}"*; the full version has n²σ² in the
/// denominator.
///
/// A lower bound must stay below every valid upper bound for its own construction. The
/// construction (one loss f′_n = L(D − ω), all others 0, on [−D/2, D/2]) has increments
/// N(0, η²σ²) against (1 − b/n)N(0, η²σ²) + (b/n)N(ηL/b, η²σ²); by quasi-convexity each
/// step costs at most αL²/(2b²σ²) in either order, and the clamp is post-processing, so
/// `D_α ≤ T·αL²/(2b²σ²)` (certified closed form). Checked at points satisfying Thm 4.1's
/// hypotheses (D ≥ c_Dη L, σ² ≤ c_σD²/(η²T̄), T = ⌈T̄⌉): the printed (4.1) at α = ᾱ against
/// that bound. The full version (also [`thm_4_1_lower_bound`], overlap) stays below it;
/// the NeurIPS version exceeds it by n²/η².
pub fn thm_4_1_versions(den: Denominator, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let k = THM_4_1_CONSTANTS;
    let mut r = SplitMix64::new(ctx.seed);
    let mut points: Vec<(u64, u64, f64, f64, f64)> = vec![(10, 1, 1.0, 1e-4, 1.0)];
    for _ in 0..ctx.samples_or(8) {
        let n = r.int(2, 1000);
        points.push((
            n,
            r.int(1, n.min(20)),
            0.1 + 2.0 * r.unit(),
            10f64.powf(-4.0 - 2.0 * r.unit()),
            0.5 + 10.0 * r.unit(),
        ));
    }
    let mut worst: f64 = 0.0;
    for (i, &(n, bb, l, eta, d)) in points.iter().enumerate() {
        let d = d.max(k.c_d * eta * l);
        let tbar = 0.75 * d * n as f64 / (l * eta);
        let t = tbar.ceil() as u64;
        // largest admissible σ, rounded down (H2 must hold)
        let sigma = (k.c_sigma * d * d / (eta * eta * tbar)).sqrt() * (1.0 - 1e-12);
        let run = At22Run {
            n,
            b: bb,
            l,
            eta,
            sigma,
            t,
            d,
        };
        let lib = match thm_4_1_lower_bound(&run, b) {
            Ok(x) => x,
            Err(x) => return err("Thm 4.1", x),
        };
        let tb = e(b, 0.75) * e(b, d) * u(b, n) / (e(b, l) * e(b, eta));
        let m = u(b, t).min(&tb);
        let scale = match den {
            Denominator::EtaSquared => e(b, eta).square(),
            Denominator::NSquared => u(b, n).square(),
        };
        let lower = e(b, k.c_alpha) * e(b, k.alpha_bar) * e(b, l).square() * m
            / (scale * e(b, sigma).square());
        let upper = u(b, t) * e(b, k.alpha_bar) * e(b, l).square()
            / (e(b, 2.0) * u(b, bb).square() * e(b, sigma).square());
        worst = worst.max(lower.upper_f64() / upper.lower_f64());
        let params = vec![
            p("n", n),
            p("b", bb),
            p("L", l),
            p("eta", eta),
            p("sigma", sigma),
            p("T", t),
            p("D", d),
        ];
        if den == Denominator::NSquared && !overlap(&lower, &lib) {
            return Outcome::fail(
                "AT22 (4.1), full version, against the toolkit's Thm 4.1",
                i + 1,
                params,
                format!("{:.15e} ≠ {:.15e}", lower.mid_f64(), lib.mid_f64()),
            );
        }
        if lower.lo() > upper.hi() {
            return Outcome::fail(
                format!("AT22 (4.1) ({den:?}) below an upper bound of its construction"),
                i + 1,
                params,
                format!(
                    "lower bound {:.6e} > T·ᾱL²/(2b²σ²) = {:.6e} (ratio {:.3e})",
                    lower.lower_f64(),
                    upper.upper_f64(),
                    lower.lower_f64() / upper.upper_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{} points satisfying Thm 4.1's hypotheses: (4.1) ({den:?}) ≤ T·ᾱL²/(2b²σ²) (largest ratio {worst:.3e})",
            points.len()
        ),
        points.len(),
    )
}

/// The toolkit's contraction of a GD setting with m, M, η given (Lemma 2.8:
/// c = max{|1 − ηm|, |1 − ηM|}), as the settings layer computes it.
fn toolkit_contraction(m: f64, big_m: f64, eta: f64) -> Option<Enclosure> {
    let raw = RawSetting::default()
        .with("n", 1u64)
        .and_then(|r| r.with("steps", 1u64))
        .and_then(|r| r.with("eta", eta))
        .and_then(|r| r.with("noise", 1.0))
        .and_then(|r| r.with("sensitivity", 1.0))
        .and_then(|r| r.with("strong-convexity", m))
        .and_then(|r| r.with("smoothness", big_m))
        .ok()?;
    Setting::new(Algorithm::Gd, &raw)
        .ok()?
        .contraction()
        .cloned()
}

/// **AT12.** AT22 Remark 5.2: *"In the common setting of η ≤ 1/M, then c = 1 − ηm ≤
/// exp(−ηm) … Another important example is η = 2/(M + m), i.e., when the stepsize is
/// optimized to minimize the contraction coefficient c. In this case, c = (κ−1)/(κ+1)
/// ≤ e^{−1/κ} where κ := M/m ≥ 1"*.
///
/// Checked at random (m, κ) with the toolkit's contraction (the settings layer, Lemma
/// 2.8): for η ≤ 1/M, c = 1 − ηm (overlap) ≤ e^{−ηm}; at η = 2/(M + m), c =
/// (κ−1)/(κ+1) (overlap) ≤ e^{−k/κ} (printed k = 1; the sharp constant is k = 2, since
/// log((κ−1)/(κ+1)) ≤ −2/κ); and c at η = 2/(M + m) is ≤ c at 30 other steps in (0, 2/M).
pub fn remark_5_2(k: f64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(20);
    let b = ctx.bits;
    for i in 0..n {
        let m = 0.01 + 2.0 * r.unit();
        let kappa = 1.0 + 10f64.powf(4.0 * r.unit() - 1.0);
        let big_m = m * kappa;
        let params = vec![p("m", m), p("M", big_m)];
        // η ≤ 1/M
        let eta = r.unit() / big_m;
        let Some(c) = toolkit_contraction(m, big_m, eta) else {
            return Outcome::error(format!("settings rejected m = {m}, M = {big_m}, η = {eta}"));
        };
        let c1 = e(b, 1.0) - e(b, eta) * e(b, m);
        let ex = (-(e(b, eta) * e(b, m))).exp();
        if !overlap(&c, &c1) || c.lo() > ex.hi() {
            return Outcome::fail(
                "AT22 Remark 5.2: η ≤ 1/M ⇒ c = 1 − ηm ≤ e^{−ηm}",
                i + 1,
                params,
                format!(
                    "η = {eta}: c = {:.15e}, 1 − ηm = {:.15e}",
                    c.mid_f64(),
                    c1.mid_f64()
                ),
            );
        }
        // η = 2/(M + m)
        let eta_s = 2.0 / (big_m + m);
        let Some(cs) = toolkit_contraction(m, big_m, eta_s) else {
            return Outcome::error("settings rejected η = 2/(M+m)".to_string());
        };
        // the f64 η_s is within an ulp of 2/(M+m): compare with (κ−1)/(κ+1) computed from
        // the same f64 step, |1 − η_s M| and |1 − η_s m| (both ≈ (κ−1)/(κ+1))
        let kap = e(b, big_m) / e(b, m);
        let closed = (kap.clone() - e(b, 1.0)) / (kap.clone() + e(b, 1.0));
        let close = (cs.mid_f64() / closed.mid_f64() - 1.0).abs() <= 1e-12;
        let bound = (-(e(b, k) / kap)).exp();
        if !close || cs.lo() > bound.hi() {
            return Outcome::fail(
                "AT22 Remark 5.2: η = 2/(M+m) ⇒ c = (κ−1)/(κ+1) ≤ e^{−1/κ}",
                i + 1,
                params,
                format!(
                    "c = {:.15e}, (κ−1)/(κ+1) = {:.15e}, e^(−{k}/κ) = {:.15e}",
                    cs.mid_f64(),
                    closed.mid_f64(),
                    bound.mid_f64()
                ),
            );
        }
        for j in 1..=30 {
            let eta_j = 2.0 / big_m * (j as f64 / 31.0);
            if (eta_j / eta_s - 1.0).abs() < 1e-9 {
                continue;
            }
            let Some(cj) = toolkit_contraction(m, big_m, eta_j) else {
                continue;
            };
            if cj.hi() < cs.lo() {
                return Outcome::fail(
                    "AT22 Remark 5.2: η = 2/(M+m) minimizes c",
                    i + 1,
                    params,
                    format!(
                        "c({eta_j}) = {:.15e} < c(2/(M+m)) = {:.15e}",
                        cj.mid_f64(),
                        cs.mid_f64()
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{n} random (m, κ ∈ [1.1, 10⁴]): c = 1 − ηm ≤ e^(−ηm) for η ≤ 1/M; c = (κ−1)/(κ+1) ≤ e^(−{k}/κ) at η = 2/(M+m), which minimizes c"
        ),
        n,
    )
}

/// The η-dependent factor of (B.3)'s PABI term, `c^{2T̃}(1 − c²)/((1 − c^{2T̃})η²)`,
/// c = max{|1 − ηm|, |1 − ηM|} (enclosure); the term is αD²/(2σ₁²) times it.
fn b3_eta_factor(m: f64, big_m: f64, eta: f64, k: u64, b: u32) -> Enclosure {
    let c1 = e(b, 1.0) - e(b, eta) * e(b, m);
    let c2 = e(b, 1.0) - e(b, eta) * e(b, big_m);
    let c = c1.max(&-c1.clone()).max(&c2.max(&-c2.clone()));
    let c2k = c.square().powu(k);
    c2k.clone() * (e(b, 1.0) - c.square()) / ((e(b, 1.0) - c2k) * e(b, eta).square())
}

/// **AT19.** AT22 App. B.3, last paragraph: *"We remark that this bound exploits strong
/// convexity via the contraction factor c < 1, which exponentially decays the last term
/// in (B.3). This contraction is best when c is minimal, i.e., when the stepsize is
/// η = 2/(M + m), and it appears that one pays a price in privacy for any deviation from
/// this choice of stepsize."*
///
/// At fixed σ, α, D, b, n the only η-dependence of (B.3) is its PABI term
/// `αD²/(2σ₁²)·c^{2T̃}(1−c²)/((1−c^{2T̃})η²)` (Q and the T·S_α branch do not involve η).
/// If this term decreases in η up to 2/(M+m) and increases after, for every T̃, then
/// (B.3) — a minimum over T̃ and σ₁ of such terms plus η-free ones — is smallest at
/// η = 2/(M+m). Checked with enclosures at random κ, T̃ ∈ {1, …, 10⁴} on 40 steps each
/// side of `factor·2/(M+m)` (printed factor 1); the library's (B.3) term
/// ([`b_term`] with Q = 0) is cross-checked against the formula.
pub fn b3_stepsize(factor: f64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(12);
    let b = ctx.bits;
    let mut points = 0;
    for i in 0..n {
        let m = 0.1 + r.unit();
        let kappa = 1.05 + 10f64.powf(3.0 * r.unit());
        let big_m = m * kappa;
        let k = [1u64, 2, 5, 20, 100, 1000, 10_000][i % 7];
        let eta_c = factor * 2.0 / (big_m + m);
        let eta_max = 2.0 / big_m;
        // left side (0, η_c] and right side [η_c, 2/M) (clipped to the domain)
        let left: Vec<f64> = (1..=40)
            .map(|j| eta_c * j as f64 / 40.0)
            .filter(|&x| x < eta_max)
            .collect();
        let right: Vec<f64> = (0..40)
            .map(|j| eta_c + (eta_max - eta_c) * j as f64 / 40.0)
            .filter(|&x| x < eta_max)
            .collect();
        let params = vec![p("m", m), p("M", big_m), p("T̃", k)];
        // cross-check of the formula with the library's (B.3) term at η_c
        let cf = (1.0 - eta_c * m).abs().max((1.0 - eta_c * big_m).abs());
        if cf > 0.0 && cf < 1.0 {
            let zero = u(b, 0);
            let lib = b_term(
                2.0,
                &zero,
                &PabiGap {
                    eta: eta_c,
                    sigma1: 1.0,
                    d: 1.0,
                    c: Some(cf),
                },
                k,
                b + 32,
            );
            let mine = b3_eta_factor(m, big_m, eta_c, k, b); // αD²/(2σ₁²) = 1
            if (lib.mid_f64() / mine.mid_f64() - 1.0).abs() > 1e-9 {
                return Outcome::error(format!(
                    "(B.3) term formula disagrees with the library: {} vs {}",
                    mine.mid_f64(),
                    lib.mid_f64()
                ));
            }
        }
        for (side, grid, decreasing) in [("left", &left, true), ("right", &right, false)] {
            let vals: Vec<Enclosure> = grid
                .iter()
                .map(|&x| b3_eta_factor(m, big_m, x, k, b))
                .collect();
            for w in 0..vals.len().saturating_sub(1) {
                points += 1;
                let bad = if decreasing {
                    vals[w + 1].lo() > vals[w].hi()
                } else {
                    vals[w + 1].hi() < vals[w].lo()
                };
                if bad {
                    let mut pp = params.clone();
                    pp.extend([p("eta", grid[w]), p("eta'", grid[w + 1])]);
                    return Outcome::fail(
                        format!("AT22 App. B.3: (B.3) smallest at η = {factor}·2/(M+m)"),
                        points,
                        pp,
                        format!(
                            "{side} side: PABI term {:.6e} at η, {:.6e} at η′ > η",
                            vals[w].mid_f64(),
                            vals[w + 1].mid_f64()
                        ),
                    );
                }
            }
        }
    }
    Outcome::pass(
        format!(
            "{n} random (κ ∈ [1.05, 10³], T̃ ∈ {{1 … 10⁴}}), {points} step pairs: the (B.3) PABI term decreases up to η = {factor}·2/(M+m) and increases after, so (B.3) is smallest there"
        ),
        points,
    )
}

/// A random NoisySGD point of the (B.2) regime, toolkit units: (q, b/L, η, σ, D, α, T).
fn b2_point(r: &mut SplitMix64) -> (f64, f64, f64, f64, f64, f64, u64) {
    (
        0.001 + 0.3 * r.unit(),
        0.5 + 10.0 * r.unit(),
        0.01 + r.unit(),
        0.3 + 3.0 * r.unit(),
        0.05 + 2.0 * r.unit(),
        [2.0, 4.0, 8.0, 16.0][r.int(0, 3) as usize],
        r.int(10, 100_000),
    )
}

/// **AT8.** AT22 App. B.2 (and B.3), "Numerical computation of privacy bound": *"In order
/// to solve for the smallest noise σ² given an RDP budget, one can use the aforementioned
/// computation of the RDP budget given σ² in order to binary search for σ² (since the RDP
/// is increasing in σ)."*
///
/// Checked at random points of (B.2)/(B.3) (toolkit units): at fixed split ratio
/// u = σ₁/σ and T̃, the objective `T̃·S_α(q, (b/L)σ√(1−u²)) + αD²/(2η²u²σ²T̃)·[c-factor]`
/// and the branch `T·S_α(q, (b/L)σ)` at σ and 1.5σ (certified S_α): printed reading
/// (`increasing` = true) requires the value at 1.5σ to be larger; the adopted reading
/// (false) smaller. Since every term decreases in σ, (B.2)/(B.3) — minima of them — do.
pub fn monotone_in_sigma(increasing: bool, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(4);
    let b = ctx.bits;
    let mut points = 0;
    for i in 0..n {
        let (q, bl, eta, sigma, d, alpha, t) = b2_point(&mut r);
        let c = if i % 2 == 0 {
            None
        } else {
            Some(0.5 + 0.49 * r.unit())
        };
        let value = |s: f64, uu: f64, k: u64| -> Option<(Enclosure, Enclosure)> {
            let s2 = s * (1.0 - uu * uu).sqrt();
            let qv = sgm_q(alpha, q, bl * s2, QReading::AsPrinted, b).ok()?;
            let full = sgm_q(alpha, q, bl * s, QReading::AsPrinted, b).ok()?;
            let gap = PabiGap {
                eta,
                sigma1: uu * s,
                d,
                c,
            };
            Some((b_term(alpha, &qv, &gap, k, b + 32), full * u(b, t)))
        };
        for uu in [0.3, 0.7] {
            for k in [1u64, (t / 2).max(1), t - 1] {
                let (Some((o1, f1)), Some((o2, f2))) =
                    (value(sigma, uu, k), value(1.5 * sigma, uu, k))
                else {
                    return Outcome::error("sampled Gaussian quadrature failed");
                };
                points += 1;
                let up = o2.lo() > o1.hi() && f2.lo() > f1.hi();
                let down = o2.hi() < o1.lo() && f2.hi() < f1.lo();
                let ok = if increasing { up } else { down };
                if !ok {
                    return Outcome::fail(
                        format!(
                            "AT22 App. B.2: the RDP is {} in σ",
                            if increasing {
                                "increasing"
                            } else {
                                "decreasing"
                            }
                        ),
                        points,
                        vec![
                            p("q", q),
                            p("b/L", bl),
                            p("eta", eta),
                            p("sigma", sigma),
                            p("D", d),
                            p("alpha", alpha),
                            p("c", format!("{c:?}")),
                            p("u", uu),
                            p("T̃", k),
                        ],
                        format!(
                            "objective {:.6e} at σ, {:.6e} at 1.5σ; T·S_α {:.6e} at σ, {:.6e} at 1.5σ",
                            o1.mid_f64(),
                            o2.mid_f64(),
                            f1.mid_f64(),
                            f2.mid_f64()
                        ),
                    );
                }
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (point, split, T̃) triples of (B.2)/(B.3): every term is smaller at 1.5σ than at σ (certified)"
        ),
        points,
    )
}

/// A point of (B.2) (c = None) or (B.3): (q, b/L, η, σ, D, α, T, c), toolkit units.
pub type SplitPoint = (f64, f64, f64, f64, f64, f64, u64, Option<f64>);

/// A point of (B.3) where the objective in σ₁ has a secondary local minimum (found by
/// the grid scan of [`ternary_search`]).
pub const NON_UNIMODAL_POINT: SplitPoint = (
    0.157_920_153_955_294_4,
    3.355_086_843_969_666_6,
    0.803_996_605_662_305_6,
    1.512_426_507_150_677_3,
    1.260_840_737_950_658_3,
    2.0,
    59_936,
    Some(0.713_623_045_914_115_3),
);

/// A point of (B.3) where 100 ternary-search steps over σ₁ end 1.9% above the minimum
/// over a 1999-point grid (found by the random scan of [`ternary_search`], seed 1).
pub const MISSED_MINIMUM_POINT: SplitPoint = (
    0.149_763_985_476_761_3,
    1.731_088_869_380_521,
    0.296_911_354_823_739_1,
    0.443_703_548_532_723_8,
    1.081_039_792_822_941,
    16.0,
    16_528,
    Some(0.988_896_467_342_954_6),
);

/// The objective of (B.2)/(B.3) as AT22 App. B evaluate it, as a function of
/// u = σ₁/σ: Q = S_α(q, (b/L)σ√(1−u²)) read as `reading` (f64 search value), T̃ at the
/// floor and ceiling of the first-order point (clamped to [1, T−1]) and at the ends 1, T−1.
fn split_objective(pt: SplitPoint, reading: QReading) -> impl Fn(f64) -> f64 {
    let (q, bl, eta, sigma, d, alpha, t, c) = pt;
    move |uu: f64| -> f64 {
        let s1 = uu * sigma;
        let s2 = sigma * (1.0 - uu * uu).sqrt();
        let Some(qf) = sgm_q_search(alpha, q, bl * s2, reading) else {
            return f64::NAN;
        };
        let a = alpha * d * d / (2.0 * eta * eta * s1 * s1);
        let tail = |k: u64| match c {
            None => a / k as f64,
            Some(c) => {
                let pp = (2.0 * k as f64 * c.ln()).exp();
                a * pp * (1.0 - c * c) / (1.0 - pp)
            }
        };
        let k0 = match c {
            None => (a / qf).sqrt(),
            Some(c) => shiftdp::renyi::at22::first_order_b3(a, qf, c).unwrap_or(1.0),
        };
        let k0 = if k0.is_finite() {
            k0.clamp(1.0, (t - 1) as f64)
        } else {
            1.0
        };
        [1u64, k0.floor() as u64, k0.ceil() as u64, t - 1]
            .iter()
            .map(|&k| k.max(1) as f64 * qf + tail(k.max(1)))
            .fold(f64::INFINITY, f64::min)
    }
}

/// Whether the values are unimodal (non-increasing, then non-decreasing), up to a
/// relative tolerance `tol` for ties. Non-finite values are not allowed.
pub fn is_unimodal(vals: &[f64], tol: f64) -> bool {
    if vals.iter().any(|v| !v.is_finite()) {
        return false;
    }
    let mut rising = false;
    for w in vals.windows(2) {
        let (a, c) = (w[0], w[1]);
        let scale = a.abs().max(c.abs());
        if c > a + tol * scale {
            rising = true;
        } else if c < a - tol * scale && rising {
            return false;
        }
    }
    true
}

/// Which reading of App. B's "ternary search over σ₁".
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SearchReading {
    /// As printed (implied): the objective is unimodal in σ₁, so ternary search is exact.
    Unimodal,
    /// Ternary search (100 steps) reaches the minimum over a 1999-point grid of σ₁/σ to
    /// within the given relative tolerance.
    NearGridMinimum(f64),
}

/// **AT10.** AT22 App. B.2 (and B.3): *"This bound (B.2) can be efficiently computed via
/// ternary search over σ₁ ∈ [0, σ], where for each candidate σ₁ we compute Q to high
/// precision … and then evaluate the resulting minimization over T̃ by setting it to
/// min(T − 1, D/(ησ₁)√(α/(2Q))), modulo a possible floor or ceiling."*
///
/// A ternary search is exact for a unimodal function. With integer T̃ the objective
/// g(u) = min_T̃ T̃Q(σ√(1−u²)) + R(T̃, uσ) is the lower envelope of one unimodal curve per
/// T̃, which has a local minimum wherever a curve's own minimum is on the envelope: it is
/// not unimodal in general. Checked (f64 search values of Q — a statement about a search,
/// not a bound; any σ₁ gives a valid bound) at [`NON_UNIMODAL_POINT`] and random points of
/// (B.2)/(B.3): `Unimodal` — g on 1999 points of u ∈ (0, 1) is unimodal
/// ([`is_unimodal`], ties 10⁻⁹); `NearGridMinimum(tol)` — 100 ternary-search steps end
/// within `tol` (relative) of the grid minimum. `q_reading` is the reading of Q: as
/// printed (one order of the sampled Gaussian pair), g has a second local minimum near
/// u → 1 at [`MISSED_MINIMUM_POINT`], where the one-order Q stays below log(1/(1−q)) as
/// σ₂ → 0; over both orders Q grows without bound there and that minimum disappears.
pub fn ternary_search(reading: SearchReading, q_reading: QReading, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let mut pts = vec![NON_UNIMODAL_POINT, MISSED_MINIMUM_POINT];
    for i in 0..ctx.samples_or(4) {
        let (q, bl, eta, sigma, d, alpha, t) = b2_point(&mut r);
        let c = if i % 2 == 0 {
            None
        } else {
            Some(0.5 + 0.49 * r.unit())
        };
        pts.push((q, bl, eta, sigma, d, alpha, t, c));
    }
    let mut worst: f64 = 1.0;
    for (i, &pt) in pts.iter().enumerate() {
        let g = split_objective(pt, q_reading);
        let vals: Vec<f64> = (1..2000).map(|j| g(j as f64 / 2000.0)).collect();
        let gmin = vals.iter().copied().fold(f64::INFINITY, f64::min);
        let (q, bl, eta, sigma, d, alpha, t, c) = pt;
        let params = vec![
            p("q", q),
            p("b/L", bl),
            p("eta", eta),
            p("sigma", sigma),
            p("D", d),
            p("alpha", alpha),
            p("T", t),
            p("c", format!("{c:?}")),
        ];
        match reading {
            SearchReading::Unimodal => {
                if !is_unimodal(&vals, 1e-9) {
                    return Outcome::fail(
                        "AT22 App. B.2: objective unimodal in σ₁ (ternary search exact)",
                        i + 1,
                        params,
                        "g(σ₁/σ) on 1999 points rises and falls again (integer T̃ makes it a lower envelope with several local minima)".to_string(),
                    );
                }
            }
            SearchReading::NearGridMinimum(tol) => {
                let (mut lo, mut hi) = (1e-9, 1.0 - 1e-9);
                for _ in 0..100 {
                    let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
                    if g(m1) <= g(m2) {
                        hi = m2;
                    } else {
                        lo = m1;
                    }
                }
                let found = g(0.5 * (lo + hi));
                if !gmin.is_finite() || !found.is_finite() {
                    return Outcome::error(format!("objective not finite at {params:?}"));
                }
                worst = worst.max(found / gmin);
                if found > gmin * (1.0 + tol) {
                    return Outcome::fail(
                        "AT22 App. B.2: ternary search over σ₁ reaches the minimum",
                        i + 1,
                        params,
                        format!("ternary search {found:.10e}, grid minimum {gmin:.10e}"),
                    );
                }
            }
        }
    }
    Outcome::pass(
        format!(
            "{} points of (B.2)/(B.3) ({reading:?}, Q {q_reading:?}): largest ternary-search value / grid minimum {worst:.9}",
            pts.len()
        ),
        pts.len(),
    )
}

/// **AT20.** AT22 App. B.1, "Numerical computation of privacy bound": *"This bound (B.1)
/// can be efficiently computed by taking T̃ to be (D̃n)/(2ηL), modulo a possible floor or
/// ceiling, if this is at most T."*
///
/// Checked at random (n, L, η, D, T) (AT22's L): the integer minimizer of
/// `T̃(D̃/T̃ + 2ηL/n)²` over T̃ ∈ {1, …, T} (found by brute force and certified against its
/// neighbours with enclosures; the objective is convex) is ⌊k₀⌋ or ⌈k₀⌉ for
/// `k₀ = factor·D̃n/(2ηL)` (printed factor 1) whenever k₀ ≤ T.
pub fn b1_t_tilde(factor: f64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(20);
    let b = ctx.bits;
    let mut checked = 0;
    for i in 0..n {
        let nn = r.int(10, 10_000);
        let (l, eta, d) = (0.1 + 2.0 * r.unit(), 0.01 + r.unit(), 0.05 + 5.0 * r.unit());
        let s = 2.0 * eta * l / nn as f64;
        let dt = d + s;
        let k0_true = dt / s;
        if !(10.0..=200_000.0).contains(&k0_true) {
            continue;
        }
        let t = (k0_true * (1.5 + r.unit())) as u64;
        let f = |k: u64| k as f64 * (dt / k as f64 + s).powi(2);
        let best = (1..=t).min_by(|&a, &c| f(a).total_cmp(&f(c))).unwrap_or(1);
        // certify: f(best) ≤ f(best ± 1) with enclosures (convexity ⇒ global)
        let fe = |k: u64| {
            let se = e(b, 2.0) * e(b, eta) * e(b, l) / u(b, nn);
            let de = e(b, d) + se.clone();
            u(b, k) * (de / u(b, k) + se).square()
        };
        let fb = fe(best);
        let certified = [best.saturating_sub(1), best + 1]
            .iter()
            .filter(|&&k| k >= 1 && k <= t)
            .all(|&k| fb.lo() <= fe(k).hi());
        if !certified {
            return Outcome::error(format!("brute-force minimizer {best} not certified"));
        }
        let k0 = factor * dt * nn as f64 / (2.0 * eta * l);
        checked += 1;
        if k0 <= t as f64 && !(best == k0.floor() as u64 || best == k0.ceil() as u64) {
            return Outcome::fail(
                "AT22 App. B.1: T̃ = D̃n/(2ηL) up to floor/ceiling",
                i + 1,
                vec![p("n", nn), p("L", l), p("eta", eta), p("D", d), p("T", t)],
                format!("minimizer T̃ = {best}, printed point {k0:.3}"),
            );
        }
    }
    if checked == 0 {
        return Outcome::error("no admissible point");
    }
    Outcome::pass(
        format!(
            "{checked} random points: the minimizer of T̃(D̃/T̃ + 2ηL/n)² is ⌊D̃n/(2ηL)⌋ or ⌈D̃n/(2ηL)⌉"
        ),
        checked,
    )
}

/// A point of Thm 3.1's regime for the burn-in check (toolkit L = 2L_AT, L_AT = 1):
/// (n, b, η, D, σ, α).
fn burn_in_points(ctx: &Ctx) -> Vec<(u64, u64, f64, f64, f64, f64)> {
    let mut v = vec![
        (
            1000,
            10,
            0.1,
            1.0,
            1.5 * 8.0 * std::f64::consts::SQRT_2 / 10.0,
            4.0,
        ),
        (200, 1, 0.5, 0.2, 1.2 * 8.0 * std::f64::consts::SQRT_2, 2.0),
    ];
    let mut r = SplitMix64::new(ctx.seed);
    for _ in 0..ctx.samples_or(4) {
        let n = r.int(100, 10_000);
        let bb = r.int(1, (n / 6).max(1));
        let sigma = (1.05 + 2.0 * r.unit()) * 8.0 * std::f64::consts::SQRT_2 / bb as f64;
        v.push((n, bb, 0.01 + r.unit(), 0.05 + 5.0 * r.unit(), sigma, 0.0));
    }
    v
}

/// **AT11.** AT22 §1.2: *"after a small burn-in period of T̄ ≍ nD/(Lη) iterations,
/// Noisy-SGD leaks no further privacy"*; *"Observe that the privacy bound in Theorem 1.3
/// … stops increasing when T ≥ T̄"*; Thm 3.1 defines T̄ := ⌈Dn/(Lη)⌉ (the NeurIPS §1.3:
/// "only pay for the privacy loss from the final T̄ = (Dn)/(Lη) iterations").
///
/// Checked on the paper's numerical bound (B.2) (Q as printed, the optimal split) at
/// points of Thm 3.1's regime (b/n < 1/5, bσ/(2√2L) > 4, α ≤ α*), with
/// `T_k = ⌈k·⌈Dn/(Lη)⌉⌉`:
/// * **no increase after T_k** (pass): an upper bound P(T_k) on the PABI branch at T_k
///   (a split found by golden section, T̃ at the stationary point, certified) is ≤ the
///   composition branch T_k·S_α(b/n, bσ/(2L)); then (B.2)(T) ≤ P(T) ≤ P(T_k) = (B.2)(T_k)
///   for every T ≥ T_k;
/// * **increase after T_k** (fail, certified): T_k·S_α(…) (≥ (B.2)(T_k)) is below a
///   certified lower bound of the PABI branch for every T — min over 64 intervals of
///   σ₁/σ of 2√(A·Q(σ√(1−u_i²)))/(u_{i+1}σ), A = αD²/(2η²) (AM–GM in T̃, Q decreasing in
///   σ₂) — so (B.2) still grows after T_k.
///
/// Printed k = 1 fails; the bound stops at ≈ 2T̄ (k = 2.1 passes).
pub fn burn_in(k: f64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let mut ratios = vec![];
    let pts = burn_in_points(ctx);
    for (i, &(n, bb, eta, d, sigma, alpha0)) in pts.iter().enumerate() {
        let l_at = 1.0;
        let l = 2.0 * l_at;
        let q = bb as f64 / n as f64;
        let sp = bb as f64 * sigma / (2.0 * std::f64::consts::SQRT_2 * l_at);
        let Some(astar) = alpha_star(q, sp) else {
            return Outcome::error(format!("α* undefined at q = {q}, σ' = {sp}"));
        };
        let alpha = if alpha0 > 0.0 {
            alpha0.min(astar)
        } else {
            (0.9 * astar).clamp(1.5, 16.0)
        };
        let bl = bb as f64 / l;
        let tbar = (d * n as f64 / (l_at * eta)).ceil();
        let tk = (k * tbar).ceil() as u64;
        let params = vec![
            p("n", n),
            p("b", bb),
            p("eta", eta),
            p("D", d),
            p("sigma", sigma),
            p("alpha", alpha),
            p("T̄", tbar),
            p("T_k", tk),
        ];
        let full = match sgm_q(alpha, q, bl * sigma, QReading::AsPrinted, b) {
            Ok(x) => x,
            Err(x) => return err("S_α", x),
        };
        let comp = full.clone() * u(b, tk);
        let a = alpha * d * d / (2.0 * eta * eta);
        // golden section on the continuous-T̃ value 2√(A Q)/σ₁
        let g = |uu: f64| {
            sgm_q_search(
                alpha,
                q,
                bl * sigma * (1.0 - uu * uu).sqrt(),
                QReading::AsPrinted,
            )
            .map_or(f64::INFINITY, |qf| 2.0 * (a * qf).sqrt() / (uu * sigma))
        };
        let us = shiftdp::precision::search::golden_section_min(g, 1e-3, 1.0 - 1e-6, 60).x;
        let s2 = sigma * (1.0 - us * us).sqrt();
        let s1 = (e(b, sigma).square() - e(b, s2).square())
            .sqrt()
            .lower_f64();
        let qv = match sgm_q(alpha, q, bl * s2, QReading::AsPrinted, b) {
            Ok(x) => x,
            Err(x) => return err("S_α", x),
        };
        let kt = (a / (s1 * s1) / qv.mid_f64()).sqrt();
        let mut pu: Option<Enclosure> = None;
        for kk in [kt.floor(), kt.ceil()] {
            let kk = (kk as u64).clamp(1, tk.saturating_sub(1).max(1));
            let v = u(b, kk) * qv.clone() + e(b, a) / (e(b, s1).square() * u(b, kk));
            pu = Some(match pu {
                Some(x) if x.hi() <= v.hi() => x,
                _ => v,
            });
        }
        let pu = pu.unwrap_or_else(|| Enclosure::everything(b));
        ratios.push(pu.mid_f64() / (full.mid_f64() * tbar));
        if tk >= 2 && pu.hi() <= comp.lo() {
            continue;
        }
        // certified increase: T_k·S_α < a lower bound of the PABI branch at every T
        let mut lb = f64::INFINITY;
        for j in 0..64 {
            let (u0, u1) = (j as f64 / 64.0, (j + 1) as f64 / 64.0);
            let s2j = sigma * (1.0 - u0 * u0).sqrt();
            let qj = match sgm_q(alpha, q, bl * s2j, QReading::AsPrinted, b) {
                Ok(x) => x,
                Err(x) => return err("S_α", x),
            };
            let v = e(b, 2.0) * (e(b, a) * qj).sqrt() / (e(b, u1) * e(b, sigma));
            lb = lb.min(v.lower_f64());
        }
        if comp.upper_f64() < lb {
            return Outcome::fail(
                format!("AT22 §1.2: (B.2) stops increasing once T ≥ {k}·T̄"),
                i + 1,
                params,
                format!(
                    "at T_k: (B.2) ≤ T_k·S_α = {:.6e} < {lb:.6e} ≤ (B.2) for all large T (the PABI optimum ≈ {:.3}·T̄·S_α)",
                    comp.upper_f64(),
                    pu.mid_f64() / (full.mid_f64() * tbar)
                ),
            );
        }
        return Outcome::error(format!(
            "inconclusive at {params:?}: PABI upper {:.6e}, composition {:.6e}, PABI lower {lb:.6e}",
            pu.upper_f64(),
            comp.lower_f64()
        ));
    }
    let (rmin, rmax) = ratios
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, c), &x| (a.min(x), c.max(x)));
    Outcome::pass(
        format!(
            "{} points of Thm 3.1's regime: (B.2) no longer increases after T = ⌈{k}·T̄⌉, T̄ = ⌈Dn/(L_AT η)⌉ (the plateau onset, PABI optimum/(T̄·S_α), is at {rmin:.3}–{rmax:.3}·T̄)",
            pts.len()
        ),
        pts.len(),
    )
}

/// **AT21.** AT22 footnote 12 (to (3.6)): *"While Lemma 2.12 requires b < n/5, the case
/// b ≥ n/5 has an alternate proof … replace (3.4) with the upper bound
/// D_α(N(0, η²σ₂²I) ‖ N(m_t, η²σ₂²I)) = α‖m_t‖²/(2η²σ₂²) = 2αL²/b²σ₂² by using the
/// well-known formula for the Rényi divergence between Gaussians. This is tight up to a
/// constant factor, and the rest of the proof proceeds identically."*
///
/// Checked: (a) the formula, α(2ηL/b)²/(2η²σ₂²) = 2αL²/(b²σ₂²), at random points
/// (overlap); (b) "tight up to a constant": on q = b/n ∈ {0.2, 0.5, 0.9}, σ′ = bσ₂/(2L) ∈
/// {4, 8} (Thm 3.1's σ′ > 4), α ∈ {1.5, 2, 10, 100}, and (q, σ′, α) = (0.2, 4, 1000): the
/// Gaussian value α/(2σ′²) is ≤ (n/b)²·Q with Q read as `reading` (certified lower end).
/// As printed (one order) Q ≤ log(1/(1−q)) for every α, so the ratio grows without bound
/// in α; over both orders (ERRATA AT1) it stays ≤ (n/b)² ≤ 25.
pub fn footnote_12(reading: QReading, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let mut r = SplitMix64::new(ctx.seed);
    for i in 0..ctx.samples_or(10) {
        let (eta, l, bb, s2) = (
            0.01 + r.unit(),
            0.1 + 3.0 * r.unit(),
            r.int(1, 50),
            0.1 + 5.0 * r.unit(),
        );
        let m = e(b, 2.0) * e(b, eta) * e(b, l) / u(b, bb);
        let gauss = e(b, 3.0) * m.square() / (e(b, 2.0) * (e(b, eta) * e(b, s2)).square());
        let printed =
            e(b, 2.0) * e(b, 3.0) * e(b, l).square() / (u(b, bb).square() * e(b, s2).square());
        if !overlap(&gauss, &printed) {
            return Outcome::fail(
                "AT22 footnote 12: α‖m‖²/(2η²σ₂²) = 2αL²/(b²σ₂²)",
                i + 1,
                vec![p("eta", eta), p("L", l), p("b", bb), p("sigma2", s2)],
                format!("{:.15e} ≠ {:.15e}", gauss.mid_f64(), printed.mid_f64()),
            );
        }
    }
    // the large-α point first: there the one-order Q is far from the Gaussian value
    let mut pts = vec![(0.2, 4.0, 1000.0)];
    for q in [0.2, 0.5, 0.9] {
        for sp in [4.0, 8.0] {
            for alpha in [1.5, 2.0, 10.0, 100.0] {
                pts.push((q, sp, alpha));
            }
        }
    }
    let mut worst: f64 = 0.0;
    for (i, &(q, sp, alpha)) in pts.iter().enumerate() {
        let qv = match sgm_q(alpha, q, sp, reading, b) {
            Ok(x) => x,
            Err(x) => return err("S_α", x),
        };
        let gauss = e(b, alpha) / (e(b, 2.0) * e(b, sp).square());
        let cap = qv.clone() / e(b, q).square();
        worst = worst.max(gauss.upper_f64() / cap.lower_f64());
        if gauss.lo() > cap.hi() {
            return Outcome::fail(
                format!("AT22 footnote 12: Gaussian bound within (n/b)² of Q ({reading:?})"),
                i + 1,
                vec![p("q", q), p("sigma'", sp), p("alpha", alpha)],
                format!(
                    "α/(2σ′²) = {:.6e} > (n/b)²·Q = {:.6e} (ratio Gaussian/Q = {:.2}, (n/b)² = {:.2})",
                    gauss.mid_f64(),
                    cap.mid_f64(),
                    gauss.mid_f64() / qv.mid_f64(),
                    1.0 / (q * q)
                ),
            );
        }
        if gauss.hi() > cap.lo() {
            return Outcome::error(format!(
                "inconclusive at q = {q}, σ′ = {sp}, α = {alpha}: α/(2σ′²) {:.15e} vs (n/b)²·Q {:.15e}",
                gauss.mid_f64(),
                cap.mid_f64()
            ));
        }
    }
    Outcome::pass(
        format!(
            "formula exact; {} points with b ≥ n/5, σ′ ≥ 4, α ≤ 1000: α/(2σ′²) ≤ (n/b)²·Q ({reading:?}) (largest ratio/(n/b)² = {worst:.4})",
            pts.len()
        ),
        pts.len(),
    )
}

/// **ERRATA AT22.** AT22 §1.2 (non-uniform stepsizes) and Example 5.9: *"Noisy-SGD is sometimes
/// run with decaying stepsizes η_t = t^{−c} for c ∈ (0, 1). The bound in Theorem 1.3
/// extends identically, with η replaced by η_T. This means that the privacy increases
/// after the threshold, but at the slower rate of T^c ≪ T for RDP"*; Example 5.9:
/// ε ≲ αDLT^c/(nσ²).
///
/// Checked with the toolkit's (5.7) (τ ≤ T − 2, ERRATA AT3; Q as printed) at a fixed split
/// (q = 0.1, b/L = 1, σ₁ = σ₂ = 2, D = 1, α = 4), η_t = t^{−c} for c ∈ {0.25, 0.5}: the
/// growth exponent log(ε(4T₀)/ε(T₀))/log 4 at T₀ = 64 000 is within 0.04 of
/// `claimed(c)` (printed: c), in the regime after the threshold (T − τ ≤ 0.05·T; checked).
pub fn rate_exponent(claimed: &dyn Fn(f64) -> f64, ctx: &Ctx) -> Outcome {
    let b = ctx.bits;
    let x = SplitInputs {
        q: 0.1,
        b_over_l: 1.0,
        sigma1: 2.0,
        sigma2: 2.0,
        d: 1.0,
    };
    let t0 = 64_000usize;
    let mut report = vec![];
    for c in [0.25, 0.5] {
        let eval = |t: usize| {
            let etas: Vec<f64> = (1..=t).map(|s| (s as f64).powf(-c)).collect();
            recipe_5_7(4.0, &x, &etas, QReading::AsPrinted, b)
        };
        let ((e1, tau1), (e2, tau2)) = match both_ok("(5.7)", (eval(t0), eval(4 * t0))) {
            Ok(v) => v,
            Err(o) => return *o,
        };
        let r1 = (t0 as u64 - tau1) as f64 / t0 as f64;
        let r2 = (4 * t0 as u64 - tau2) as f64 / (4 * t0) as f64;
        if r1 > 0.05 || r2 > 0.05 {
            return Outcome::error(format!(
                "c = {c}: not after the threshold (T − τ)/T = {r1:.3}, {r2:.3}"
            ));
        }
        let lo = (e2.lower_f64() / e1.upper_f64()).ln() / 4f64.ln();
        let hi = (e2.upper_f64() / e1.lower_f64()).ln() / 4f64.ln();
        let want = claimed(c);
        report.push(format!("c = {c}: exponent {lo:.4} ((T−τ)/T = {r1:.3})"));
        if lo < want - 0.04 || hi > want + 0.04 {
            return Outcome::fail(
                "AT22 Example 5.9: (5.7) grows as T^c after the threshold",
                report.len(),
                vec![p("c", c), p("T0", t0)],
                format!("growth exponent in [{lo:.4}, {hi:.4}], claimed {want:.4} ± 0.04"),
            );
        }
    }
    Outcome::pass(
        format!(
            "(5.7) with η_t = t^(−c), T = 64 000 → 256 000: {}",
            report.join("; ")
        ),
        2,
    )
}

/// **AT14.** AT22 footnote 15 (App. B.3): *"improve the bound on ② in (5.2) to
/// α/(2η²σ₁²) times the minimal value of Σ_{t=τ+1}^T a_t² when optimizing over
/// a_{τ+1}, …, a_T subject to Σ_{t=τ+1}^T c^{τ−t}a_t = D. This has a closed-form solution:
/// a_t = c^{−t}βD, where β = c^{τ+2}(1 − c^{−2})/(1 − c^{−2(T−τ)}), yielding value
/// c^{−τ}βD²."*
///
/// Checked at random (c, τ, T̃ = T − τ, D) with enclosures, for β with exponent
/// τ + `offset` (printed offset 2): the constraint Σ c^{τ−t}a_t = D holds (overlap); the
/// Prop 5.6 gaps z_t = c·z_{t−1} − a_t from z_τ = D stay ≥ 0 and end at z_T = 0 (to the
/// working precision); Σ a_t² equals the printed value c^{−τ}βD² and the Cauchy–Schwarz
/// optimum D²(1−c²)/(c^{−2T̃} − 1), which is the toolkit's (B.3) PABI term ([`b_term`],
/// Q = 0) times 2η²σ₁²/α. (ERRATA AT14 checks that value against the KKT solver.)
pub fn footnote_15(offset: u64, ctx: &Ctx) -> Outcome {
    let mut r = SplitMix64::new(ctx.seed);
    let n = ctx.samples_or(20);
    let b = ctx.bits;
    for i in 0..n {
        let c = 0.3 + 0.69 * r.unit();
        let tau = r.int(0, 20);
        let kk = r.int(1, 60);
        let d = 0.1 + 5.0 * r.unit();
        let ce = e(b, c);
        let one_e = u(b, 1);
        let cinv2 = one_e.clone() / ce.square();
        let beta = ce.powu(tau + offset) * (one_e.clone() - cinv2.clone())
            / (one_e.clone() - cinv2.powu(kk));
        let a: Vec<Enclosure> = (tau + 1..=tau + kk)
            .map(|t| beta.clone() * e(b, d) / ce.powu(t))
            .collect();
        let mut constraint = u(b, 0);
        let mut sq = u(b, 0);
        let mut z = e(b, d);
        let mut zmin = f64::INFINITY;
        for (j, at) in a.iter().enumerate() {
            let t = tau + 1 + j as u64;
            constraint = constraint + at.clone() * ce.powu(tau) / ce.powu(t);
            sq = sq + at.square();
            z = ce.clone() * z - at.clone();
            zmin = zmin.min(z.upper_f64());
        }
        let printed_value = beta.clone() / ce.powu(tau) * e(b, d).square();
        let optimum = e(b, d).square() * (one_e.clone() - ce.square()) / (cinv2.powu(kk) - one_e);
        let lib = b_term(
            2.0,
            &u(b, 0),
            &PabiGap {
                eta: 1.0,
                sigma1: 1.0,
                d,
                c: Some(c),
            },
            kk,
            b + 32,
        ); // = α/(2η²σ₁²)·optimum with α = 2, η = σ₁ = 1
        let tol = e(b, d) * e(b, 1e-20);
        let z_end_ok = z.lo() <= tol.hi() && (-z.clone()).lo() <= tol.hi();
        let ok = overlap(&constraint, &e(b, d))
            && zmin >= -1e-20 * d
            && z_end_ok
            && overlap(&sq, &printed_value)
            && overlap(&sq, &optimum)
            && (lib.mid_f64() / optimum.mid_f64() - 1.0).abs() <= 1e-12;
        if !ok {
            return Outcome::fail(
                "AT22 footnote 15: closed-form optimal shifts",
                i + 1,
                vec![p("c", c), p("tau", tau), p("T̃", kk), p("D", d)],
                format!(
                    "Σc^(τ−t)a_t = {:.15e} (D = {d}), z_T = {:.3e}, min z = {zmin:.3e}, Σa² = {:.15e}, c^(−τ)βD² = {:.15e}, optimum = {:.15e}, (B.3) term = {:.15e}",
                    constraint.mid_f64(),
                    z.mid_f64(),
                    sq.mid_f64(),
                    printed_value.mid_f64(),
                    optimum.mid_f64(),
                    lib.mid_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{n} random (c, τ, T̃, D): a_t = c^(−t)βD is feasible (Σc^(τ−t)a_t = D, z ≥ 0, z_T = 0) with Σa² = c^(−τ)βD² = D²(1−c²)/(c^(−2T̃)−1) = the (B.3) term"
        ),
        n,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status::{Fail, Pass};
    use crate::outcome::testkit::{
        assert_cases, assert_statuses, assert_unique_prefixed, ctx_with,
    };

    fn ctx() -> Ctx {
        ctx_with(4)
    }

    #[test]
    fn every_builtin_has_a_unique_prefixed_name() {
        assert_unique_prefixed(&builtins(), &["at22/"]);
    }

    #[test]
    fn fa1_update_difference() {
        assert_cases(
            update_difference,
            &ctx(),
            [(Fail, 1.0), (Pass, 2.0), (Fail, 1.6)],
        );
    }

    #[test]
    fn fa2_gaussian_tail_digits() {
        assert_cases(
            |printed, c| gaussian_tail(printed, 6, c),
            &ctx(),
            [
                (Fail, "0.999993"),
                (Pass, "0.999217"),
                // the last printed digit changed
                (Fail, "0.999218"),
                (Fail, "0.999216"),
            ],
        );
    }

    #[test]
    fn fa3_perturbed_quoted_numbers_are_rejected() {
        let c = ctx();
        assert_statuses([(Pass, thm_4_1_constants(&A4Values::PRINTED, &c))]);
        let p = A4Values::PRINTED;
        assert_statuses(
            [
                A4Values {
                    rdp_floor: "0.00625",
                    ..p
                },
                A4Values {
                    upper_frac: "0.8",
                    ..p
                },
                A4Values {
                    fail_prob: "0.005",
                    ..p
                },
                A4Values {
                    lower_frac: "0.75",
                    ..p
                },
                A4Values {
                    c_sigma: "1.25e-3",
                    ..p
                },
                A4Values {
                    last_display: "0.6",
                    ..p
                },
            ]
            .map(|v| (Fail, thm_4_1_constants(&v, &c))),
        );
    }

    #[test]
    fn fa4_neurips_denominator_fails() {
        assert_cases(
            thm_4_1_versions,
            &ctx(),
            [
                (Fail, Denominator::EtaSquared),
                (Pass, Denominator::NSquared),
            ],
        );
    }

    #[test]
    fn fa6_sharp_exponent() {
        assert_cases(remark_5_2, &ctx(), [(Pass, 1.0), (Pass, 2.0), (Fail, 2.5)]);
    }

    #[test]
    fn fa7_other_stepsize_is_rejected() {
        assert_cases(
            b3_stepsize,
            &ctx(),
            [(Pass, 1.0), (Fail, 1.25), (Fail, 0.8)],
        );
    }

    #[test]
    fn fa8_direction() {
        assert_cases(
            monotone_in_sigma,
            &ctx_with(2),
            [(Fail, true), (Pass, false)],
        );
    }

    #[test]
    fn fa9_unimodality_checker() {
        let c = ctx();
        let near = SearchReading::NearGridMinimum;
        assert_statuses([
            (
                Fail,
                ternary_search(SearchReading::Unimodal, QReading::AsPrinted, &c),
            ),
            (Fail, ternary_search(near(1e-4), QReading::AsPrinted, &c)),
            (Fail, ternary_search(near(0.01), QReading::AsPrinted, &c)),
            (Pass, ternary_search(near(0.05), QReading::AsPrinted, &c)),
            // over both orders of the sampled Gaussian pair, ternary search is near exact
            (Pass, ternary_search(near(1e-3), QReading::BothOrders, &c)),
        ]);
        let one_min: Vec<f64> = (0..50).map(|i| ((i as f64) - 20.0).powi(2)).collect();
        assert!(is_unimodal(&one_min, 1e-9));
        let two_min: Vec<f64> = (0..50)
            .map(|i| ((i as f64 - 10.0).powi(2)).min((i as f64 - 40.0).powi(2) + 1.0))
            .collect();
        assert!(!is_unimodal(&two_min, 1e-9));
    }

    #[test]
    fn fa10_other_point_is_rejected() {
        assert_cases(b1_t_tilde, &ctx(), [(Pass, 1.0), (Fail, 1.25), (Fail, 2.0)]);
    }

    #[test]
    fn fa11_burn_in_threshold() {
        assert_cases(burn_in, &ctx(), [(Fail, 1.0), (Pass, 2.1), (Fail, 1.6)]);
    }

    #[test]
    fn fa12_tightness_by_reading() {
        assert_cases(
            footnote_12,
            &ctx(),
            [(Fail, QReading::AsPrinted), (Pass, QReading::BothOrders)],
        );
    }

    #[test]
    fn fa13_other_rate_is_rejected() {
        let c = ctx();
        assert_statuses([
            (Pass, rate_exponent(&|x| x, &c)),
            (Fail, rate_exponent(&|x| 1.25 * x, &c)),
            (Fail, rate_exponent(&|_| 1.0, &c)),
        ]);
    }

    #[test]
    fn fa14_other_beta_is_rejected() {
        assert_cases(footnote_15, &ctx(), [(Pass, 2), (Fail, 1), (Fail, 3)]);
    }
}
