//! Statements BSA24 makes *in passing*: remarks, thresholds, numbers quoted in
//! the text and approximations used in place of bounds, each implemented as printed and
//! checked against the toolkit's own certified computation over the setting it speaks
//! about. ERRATA.md records every outcome in its BSA24 entries (the functions keep the
//! old ids `fb1`…; each entry's `Aliases:` line and the old-id table map them).
//!
//! Source: `bok-su-altschuler-2024-shifted-interpolation-fdp.txt` (an OCR transcription;
//! its appendices and footnote texts are not in it). Each check function takes the
//! statement's value or formula as a parameter, so that the unit tests of this module
//! show a perturbed statement (a threshold × 1.25, a last printed digit changed, the
//! printed reading of a formula) is rejected by the same code that accepts the printed one.
//!
//! Conventions: every μ, ε and δ below is a certified enclosure (MPFR, 128 bits unless the
//! context's `bits` says otherwise); "A < B certified" means `upper(A) < lower(B)`. Where
//! two closed forms are equal by an algebraic identity (a tie the enclosures cannot
//! decide) the tie is resolved in exact rational arithmetic, or named in the doc of the
//! check as the only place where it may occur.
//!
//! # References
//! BSA24 §1.1, §3.1, §4.1–§4.4, §5.1, §5.2; DRS22 Thm 6 (CLT); CYS21 Cor 1.
use super::outcome::{Builtin, Ctx, Outcome};
use crate::numbers::{dec, e, p};
use rug::Rational;
use shiftdp::bounds::BoundKind;
use shiftdp::bounds::bsa24::{
    mu_thm_4_1_unchecked, mu_thm_4_2_as_printed, mu_thm_4_2_unchecked, mu_thm_4_4_unchecked,
    mu_thm_4_5_unchecked, mu_thm_4_6_k_unchecked,
};
use shiftdp::precision::{Enclosure, Precision};
use shiftdp::settings::{Algorithm, Setting};

/// The BSA24 statements-in-passing builtins.
pub fn builtins() -> Vec<Builtin> {
    vec![
        Builtin {
            name: "bsa24/remark-4-1-thm-4-2-beats-thm-4-1-for-t-gt-1",
            about: "FB1 (§4.1): Thm 4.2 < Thm 4.1 exactly for t > 1 (equal at t = 1), adopted reading of Thm 4.2 (ERRATA BSA1)",
            run: |c| check_thm_4_2_beats_thm_4_1(mu_thm_4_2_unchecked, 1, c.bits),
        },
        Builtin {
            name: "bsa24/remark-4-1-thm-4-2-beats-thm-4-1-printed-e1",
            about: "FB1 (§4.1) with Thm 4.2 as transcribed (ERRATA BSA1): the remark fails (expected fail)",
            run: |c| check_thm_4_2_beats_thm_4_1(mu_thm_4_2_as_printed, 1, c.bits),
        },
        Builtin {
            name: "bsa24/threshold-4-1-thm-4-3-dominates-thm-4-1-printed",
            about: "FB2 (§4.1) as printed: Thm 4.3 ≤ Thm 4.1 for every t > 4Dn/(ηL) (expected fail: non-integer Dn/(ηL))",
            run: |_| check_thm_4_3_vs_thm_4_1(fb2_printed_threshold, false, false),
        },
        Builtin {
            name: "bsa24/threshold-4-1-thm-4-3-dominates-thm-4-1-adopted",
            about: "FB2 (§4.1) adopted: Thm 4.3 ≤ Thm 4.1 iff t ≥ 3Dn/(ηL) + ⌈Dn/(ηL)⌉ (exact rationals)",
            run: |_| check_thm_4_3_vs_thm_4_1(fb2_adopted_threshold, true, true),
        },
        Builtin {
            name: "bsa24/threshold-4-2-thm-4-5-vs-thm-4-4-printed",
            about: "FB3 (§4.2) as printed: Thm 4.5 starts to dominate Thm 4.4 at roughly E ≈ c^{2l−2}(1−c²)/(1−c^l)² (expected fail)",
            run: |c| check_thm_4_5_vs_thm_4_4(fb3_printed_threshold, Closeness::Roughly, c.bits),
        },
        Builtin {
            name: "bsa24/threshold-4-2-thm-4-5-vs-thm-4-4-adopted",
            about: "FB3 (§4.2) adopted: Thm 4.5 ≤ Thm 4.4 at every E ≥ 1 (certified: every E up to 1 + K)",
            run: |c| check_thm_4_5_vs_thm_4_4(fb3_adopted_threshold, Closeness::Exact, c.bits),
        },
        Builtin {
            name: "bsa24/threshold-4-2-thm-4-6-vs-thm-4-4",
            about: "FB4 (§4.2): Thm 4.6 dominates Thm 4.4 from E = ⌈1 + (3r + ⌈r⌉)/l⌉, r = Db/(ηL), within 3 epochs of the printed ≈ 4Db/(ηlL)",
            run: |c| check_thm_4_6_vs_thm_4_4(fb4_printed_threshold, c.bits),
        },
        Builtin {
            name: "bsa24/threshold-5-2-exp-mech-ld-0-677",
            about: "FB5 (§5.2): G(2√(LD)) improves on (2LD, 0)-DP for every LD > 0.677 and not at LD = 0.676 (crossing 0.67639…)",
            run: |c| check_exp_mech_threshold("0.677", "0.001", c.bits),
        },
        Builtin {
            name: "bsa24/remark-5-3-stationary-laws",
            about: "FB6 (Remark 5.3): π(η) = N(0, 2/((2−ηm)m)), π′(η) = N(L/m·v, same); T = G(√((2−ηm)/2)·L/√m) = Cor 5.2",
            run: |c| check_remark_5_3(fb6_printed_variance, c.bits),
        },
        Builtin {
            name: "bsa24/quoted-1-1-factor-2-in-rdp",
            about: "FB7 (§1.1): CYS21 Cor 1 / Thm 4.2 in RDP rounds to 2 for ηm ≤ 0.3 and tends to 4/(2 − ηm) as t → ∞",
            run: |c| check_rdp_factor(2.0, c.bits),
        },
        Builtin {
            name: "bsa24/quoted-1-1-even-more-in-eps-delta-printed",
            about: "FB8 (§1.1) as printed: the (ε, δ) improvement exceeds the RDP factor 2 (expected fail: 1.6–1.8)",
            run: |c| check_eps_improvement(EpsClaim::AtLeastRdpFactor, c.bits),
        },
        Builtin {
            name: "bsa24/quoted-1-1-even-more-in-eps-delta-adopted",
            about: "FB8 (§1.1) adopted: the (ε, δ) improvement is below 2 but above the RDP route's (conversion loss)",
            run: |c| check_eps_improvement(EpsClaim::BetweenRdpRouteAnd(2.0), c.bits),
        },
        Builtin {
            name: "bsa24/remark-1-1-factor-two-half-the-noise-rate",
            about: "FB9 (§1.1) read with the noise rate σ: a factor 2 in RDP allows σ/2 (expected fail: it allows σ/√2)",
            run: |c| check_factor_two_tradeoffs(&Enclosure::from_u64(c.bits, 2), c.bits),
        },
        Builtin {
            name: "bsa24/remark-1-1-factor-two-twice-as-long-or-half-the-variance",
            about: "FB9 (§1.1) adopted: under composition a factor 2 in RDP allows 2t steps or noise variance σ²/2",
            run: |c| check_factor_two_tradeoffs(&Enclosure::sqrt2(c.bits), c.bits),
        },
        Builtin {
            name: "bsa24/quoted-4-4-table-1-better-and-longer-training",
            about: "FB10 (§4.4, Table 1): ours < RDP < GDP composition at every E, and ours at 2E < RDP at E (certified)",
            run: |_| check_table_1_claims(2),
        },
        Builtin {
            name: "bsa24/remark-3-1-gdp-composition-identity",
            about: "FB11 (§3.1, (3.3)): G(c)^{⊗t} = G(c√t), checked by the certified PLD engine",
            run: |c| check_gdp_identity(fb11_printed, c.bits),
        },
        Builtin {
            name: "bsa24/approx-4-3-clt-lemma-a-5",
            about: "FB12 (§4.3, Lemma A.5/A.11 CLT): CLT ε vs the certified composition of C_p(G(μ))^{⊗k}: optimistic, gap shrinks with p",
            run: fb12,
        },
    ]
}

/// `a < b` certified (`upper(a) < lower(b)` through the exact difference).
fn lt(a: &Enclosure, b: &Enclosure) -> bool {
    (b.clone() - a.clone()).is_positive()
}

fn setting(alg: Algorithm, pairs: &[(&str, String)]) -> shiftdp::error::Result<Setting> {
    let v: Vec<(&str, &str)> = pairs.iter().map(|(k, x)| (*k, x.as_str())).collect();
    Setting::from_pairs(alg, &v)
}

// ---------------------------------------------------------------------------------------
// BSA9
// ---------------------------------------------------------------------------------------

/// A formula for Thm 4.2's μ: `(c, t, L/(nσ)) ↦ μ`.
pub(crate) type MuThm42 = fn(&Enclosure, u64, &Enclosure) -> Enclosure;

/// **BSA9.** §4.1, paragraph after Thm 4.3: "Theorem 4.2 is exactly tight in all
/// parameters, and improves over the composition-based analysis (Theorem 4.1) for all
/// t > 1."
///
/// # Formula
/// With u = L/(nσ): Thm 4.1 `μ = u√t`; Thm 4.2 `μ = √((1 − cᵗ)/(1 + cᵗ)·(1 + c)/(1 − c))·u`
/// (ERRATA BSA1). The statement with threshold `t0` is checked as an *exact* threshold:
/// `μ_4.2 < μ_4.1` certified for every t > t0 and not certified for t ≤ t0, over
/// c ∈ {0, 0.1, 0.5, 0.9, 0.99, 0.999, 0.999999} and t ∈ {1, …, 40, 10², 10³, 10⁴, 10⁶}.
/// At t = 1 both equal u (one Gaussian mechanism), so the printed t0 = 1 is exact.
pub(crate) fn check_thm_4_2_beats_thm_4_1(mu42: MuThm42, t0: u64, bits: u32) -> Outcome {
    let cs = ["0", "0.1", "0.5", "0.9", "0.99", "0.999", "0.999999"];
    let ts: Vec<u64> = (1..=40).chain([100, 1000, 10_000, 1_000_000]).collect();
    let unit = Enclosure::from_u64(bits, 1);
    let mut points = 0;
    for c in cs {
        let ce = dec(bits, c);
        for &t in &ts {
            points += 1;
            let a = mu42(&ce, t, &unit);
            let b = mu_thm_4_1_unchecked(&unit, t);
            let better = lt(&a, &b);
            if better != (t > t0) {
                return Outcome::fail(
                    format!("Thm 4.2 improves on Thm 4.1 exactly for t > {t0}"),
                    points,
                    vec![p("contraction", c), p("steps", t)],
                    format!(
                        "μ_4.2/u = {:.15e}, μ_4.1/u = {:.15e}: {}",
                        a.mid_f64(),
                        b.mid_f64(),
                        if better {
                            format!("certified improvement at t = {t} ≤ {t0}")
                        } else {
                            format!("no certified improvement at t = {t} > {t0}")
                        }
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "μ_4.2 < μ_4.1 certified exactly for t > {t0} at {points} (c, t) points (c up to 1 − 10⁻⁶, t up to 10⁶)"
        ),
        points,
    )
}

// ---------------------------------------------------------------------------------------
// BSA3
// ---------------------------------------------------------------------------------------

/// A threshold T(r) on t as a function of r = Dn/(ηL).
pub(crate) type RationalThreshold = fn(&Rational) -> Rational;

fn ceil_rat(r: &Rational) -> Rational {
    let (_, c) = r.clone().fract_ceil(rug::Integer::new());
    Rational::from(c)
}

/// The printed threshold of BSA3: `4Dn/(ηL)`.
pub(crate) fn fb2_printed_threshold(r: &Rational) -> Rational {
    Rational::from(4) * r.clone()
}

/// The adopted threshold of BSA3: `3Dn/(ηL) + ⌈Dn/(ηL)⌉`.
pub(crate) fn fb2_adopted_threshold(r: &Rational) -> Rational {
    Rational::from(3) * r.clone() + ceil_rat(r)
}

/// Values of r = Dn/(ηL) at which BSA3 is checked (n = η = L = 1, D = r).
const FB2_R: [&str; 11] = [
    "0.1", "0.5", "1", "1.1", "2.5", "3", "7.3", "10", "12.01", "40.7", "100.5",
];

/// **BSA3.** §4.1, after Thm 4.3: "Theorem 4.3 is tight up to a constant factor [AT22],
/// and for t > 4Dn/(ηL) it dominates Theorem 4.1 since its convergent nature outweighs
/// the slightly suboptimal constant."
///
/// # Formula
/// With r = Dn/(ηL) and u = L/(nσ): `μ_4.3² = u²(3r + ⌈r⌉)`, `μ_4.1² = u² t`, so
/// Thm 4.3 ≤ Thm 4.1 **iff t ≥ 3r + ⌈r⌉** (< 4r + 1). "t > 4r" is sufficient only when
/// r is an integer: at r = 1.1, t = 5 > 4.4 Thm 4.3 gives u√5.3 > u√5.
///
/// The statement "Thm 4.3 ≤ Thm 4.1 for every admissible integer t (t ≥ r, Thm 4.3's
/// hypothesis) with t > T(r)" (`inclusive`: t ≥ T(r)) is checked with the toolkit's
/// checked entry points `thm_4_3` and `thm_4_1` (certified μ) on the setting n = η = L =
/// σ = M = 1, D = r, for every t from ⌈r⌉ to ⌈4r⌉ + 3 and r in [`FB2_R`]. Where the two
/// enclosures overlap (an exact tie) the comparison is decided by the exact rationals
/// above, which must agree with every decisive enclosure comparison. With `iff`, also
/// Thm 4.3 > Thm 4.1 must hold for every admissible t below the threshold.
pub(crate) fn check_thm_4_3_vs_thm_4_1(
    threshold: RationalThreshold,
    inclusive: bool,
    iff: bool,
) -> Outcome {
    use shiftdp::bounds::bsa24::{thm_4_1, thm_4_3};
    let mut points = 0;
    for r_s in FB2_R {
        let Some(r) = shiftdp::settings::exact_decimal(r_s) else {
            return Outcome::error(format!("bad decimal {r_s}"));
        };
        let t_lo = ceil_rat(&r).to_f64().max(1.0) as u64;
        let t_hi = (Rational::from(4) * r.clone() + Rational::from(3))
            .to_f64()
            .ceil() as u64;
        let thr = threshold(&r);
        let exact_thr = fb2_adopted_threshold(&r);
        for t in t_lo..=t_hi {
            points += 1;
            let params = vec![
                p("n", 1),
                p("eta", 1),
                p("sensitivity", 1),
                p("noise", 1),
                p("smoothness", 1),
                p("diameter", r_s),
                p("steps", t),
            ];
            let pairs: Vec<(&str, String)> = params
                .iter()
                .map(|(k, v)| (k.as_str(), v.clone()))
                .collect();
            let s = match setting(Algorithm::Gd, &pairs) {
                Ok(s) => s,
                Err(err) => return Outcome::error(format!("{params:?}: {err}")),
            };
            let (m43, m41) = match (thm_4_3(&s), thm_4_1(&s)) {
                (Ok(a), Ok(b)) => match (a.mu().cloned(), b.mu().cloned()) {
                    (Some(a), Some(b)) => (a, b),
                    _ => return Outcome::error("Thm 4.3 / 4.1 without μ"),
                },
                (Err(err), _) | (_, Err(err)) => {
                    return Outcome::error(format!("{params:?}: {err}"));
                }
            };
            let rat_dominates = exact_thr <= t;
            let dominates = if m43.upper_f64() <= m41.lower_f64() {
                true
            } else if m43.lower_f64() > m41.upper_f64() {
                false
            } else {
                rat_dominates
            };
            if dominates != rat_dominates {
                return Outcome::error(format!(
                    "{params:?}: enclosures and exact rationals disagree (μ_4.3 {:?}, μ_4.1 {:?})",
                    m43, m41
                ));
            }
            let tq = Rational::from(t);
            let claimed = if inclusive { tq >= thr } else { tq > thr };
            if (claimed && !dominates) || (iff && !claimed && dominates) {
                return Outcome::fail(
                    format!(
                        "Thm 4.3 ≤ Thm 4.1 {} t {} T(r)",
                        if iff { "iff" } else { "for every" },
                        if inclusive { "≥" } else { ">" }
                    ),
                    points,
                    params,
                    format!(
                        "r = Dn/(ηL) = {r_s}, T(r) = {}, t = {t}: μ_4.3 = {:.12e} {} μ_4.1 = {:.12e} (μ_4.3²/u² = 3r + ⌈r⌉ = {})",
                        thr.to_f64(),
                        m43.mid_f64(),
                        if dominates { "≤" } else { ">" },
                        m41.mid_f64(),
                        exact_thr.to_f64()
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (r, t) points: Thm 4.3 ≤ Thm 4.1 {} t {} T(r) (certified μ of the checked entry points, ties by exact rationals)",
            if iff { "iff" } else { "whenever" },
            if inclusive { "≥" } else { ">" }
        ),
        points,
    )
}

// ---------------------------------------------------------------------------------------
// BSA4 and BSA12: "roughly" thresholds of §4.2
// ---------------------------------------------------------------------------------------

/// How close a threshold must be to the exact crossing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Closeness {
    /// Equal.
    Exact,
    /// "Roughly": within `max(3 epochs, 10 %)` of the printed value (3 epochs cover the
    /// "1 +" and ceiling terms the printed thresholds drop, < 2 + 1/l).
    Roughly,
}

impl Closeness {
    fn accepts(self, exact: f64, printed: f64) -> bool {
        match self {
            Closeness::Exact => (exact - printed).abs() < 1e-9,
            Closeness::Roughly => (exact - printed).abs() <= 3f64.max(0.1 * printed.abs()),
        }
    }
    fn describe(self) -> &'static str {
        match self {
            Closeness::Exact => "equal to",
            Closeness::Roughly => "within max(3, 10 %) of",
        }
    }
}

/// A threshold on E for Thm 4.5 as a function of (c, l).
pub(crate) type CyclicThreshold = fn(&Enclosure, u64) -> f64;

/// `K = c^{2l−2}(1 − c²)/(1 − cˡ)²`, the printed BSA4 threshold (nearest f64).
pub(crate) fn fb3_printed_threshold(c: &Enclosure, l: u64) -> f64 {
    let one = Enclosure::from_u64(c.prec(), 1);
    (c.powu(2 * l - 2) * (one.clone() - c.square()) / (one - c.powu(l)).square()).mid_f64()
}

/// The adopted BSA4 threshold: E = 1 (Thm 4.5 ≤ Thm 4.4 at every E).
pub(crate) fn fb3_adopted_threshold(_c: &Enclosure, _l: u64) -> f64 {
    1.0
}

/// Grid of BSA4: (c, l); the last point is BSA24 Table 1's (c = 0.9999, l = 40).
const FB3_GRID: [(&str, u64); 16] = [
    ("0.5", 1),
    ("0.9", 1),
    ("0.99", 1),
    ("0.999", 1),
    ("0.9", 2),
    ("0.99", 2),
    ("0.999", 2),
    ("0.9999", 2),
    ("0.99", 3),
    ("0.999", 5),
    ("0.9999", 5),
    ("0.999", 10),
    ("0.9999", 10),
    ("0.999", 40),
    ("0.99999", 40),
    ("0.9999", 40),
];

/// **BSA4.** §4.2, after Thm 4.6: "The convergent nature of these bounds ensures that
/// they dominate Theorem 4.4 when NoisyCGD is run long enough. This threshold is roughly
/// E ≈ c^{2l−2}(1 − c²)/(1 − cˡ)² for Theorem 4.5 […]".
///
/// # Formula
/// With u = L/(bσ), K = c^{2l−2}(1 − c²)/(1 − cˡ)² and q(E) = (1 − c^{l(E−1)})/(1 + c^{l(E−1)}):
/// `μ_4.5² = u²(1 + K q(E))`, `μ_4.4² = u² E`. Since q < 1, E ≥ 1 + K is sufficient; but
/// `E − 1 − K q(E)` is convex in E (q = tanh(l ln(1/c)(E − 1)/2) is concave), zero at
/// E = 1, with slope `1 − K l ln(1/c)/2` there, positive for l ≥ 2 (`K l ln(1/c)/2` tends
/// to 1/l as c → 1 and stayed below 1/l on a fine grid of c), so for l ≥ 2 Thm 4.5 < Thm 4.4 at every E ≥ 2; for l = 1 it is also 0 at
/// E = 2 (q(2)K = 1), so Thm 4.5 ≤ Thm 4.4 at every integer E. The crossing is E* = 1.
///
/// The check computes, for each (c, l) of [`FB3_GRID`], the crossing E* = the least E
/// from which Thm 4.5 ≤ Thm 4.4 at every E up to ⌈1 + K⌉ + 1 (beyond which it holds
/// since q < 1), from certified μ (`≤` read as "not certified >"; certified strict `<`
/// is also required at every E except the two algebraic ties E = 1 and (l = 1) E = 2),
/// and compares E* with the threshold `T(c, l)` under `closeness`. Points with K < 5,
/// where "roughly" cannot tell 1 from K, are skipped for the `Roughly` comparison.
pub(crate) fn check_thm_4_5_vs_thm_4_4(
    threshold: CyclicThreshold,
    closeness: Closeness,
    bits: u32,
) -> Outcome {
    let unit = Enclosure::from_u64(bits, 1);
    let mut points = 0;
    let mut compared = 0;
    let mut summary = vec![];
    for (c_s, l) in FB3_GRID {
        let c = dec(bits, c_s);
        let k = fb3_printed_threshold(&c, l);
        let e_max = ((1.0 + k).ceil() as u64 + 1).min(40_000);
        let mut last_worse = 0u64;
        for ep in 1..=e_max {
            points += 1;
            let m45 = mu_thm_4_5_unchecked(&c, l, ep, &unit);
            let m44 = mu_thm_4_4_unchecked(&unit, ep);
            if lt(&m44, &m45) {
                last_worse = ep;
            } else if !(lt(&m45, &m44) || ep == 1 || (l == 1 && ep == 2)) {
                return Outcome::error(format!(
                    "c = {c_s}, l = {l}, E = {ep}: μ_4.5 {m45:?} and μ_4.4 {m44:?} not separated outside the known ties"
                ));
            }
        }
        let e_star = (last_worse + 1) as f64;
        let t = threshold(&c, l);
        if closeness == Closeness::Roughly && k < 5.0 {
            continue;
        }
        compared += 1;
        summary.push(format!("(c {c_s}, l {l}): E* {e_star}, T {t:.4}"));
        if !closeness.accepts(e_star, t) {
            return Outcome::fail(
                format!(
                    "Thm 4.5 vs Thm 4.4: crossing {} the stated threshold",
                    closeness.describe()
                ),
                points,
                vec![p("contraction", c_s), p("batches-per-epoch", l)],
                format!(
                    "Thm 4.5 ≤ Thm 4.4 from E* = {e_star} on (checked for E ≤ {e_max}); stated threshold {t:.6} (K = {k:.6})"
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{compared} (c, l) settings, {points} (c, l, E) points: crossing {} the stated threshold; {}",
            closeness.describe(),
            summary.join("; ")
        ),
        points,
    )
}

/// A threshold on E for Thm 4.6 as a function of (r = Db/(ηL), l).
pub(crate) type ConvexCyclicThreshold = fn(&Rational, u64) -> f64;

/// The printed BSA12 threshold `4Db/(ηlL) = 4r/l`.
pub(crate) fn fb4_printed_threshold(r: &Rational, l: u64) -> f64 {
    (Rational::from(4) * r.clone() / Rational::from(l)).to_f64()
}

/// Grid of BSA12: r = Db/(ηL) (b = η = L = 1, D = r) and l.
const FB4_R: [&str; 7] = ["0.5", "1", "2.5", "10.5", "40", "100.3", "1000.7"];
const FB4_L: [u64; 5] = [1, 2, 4, 10, 40];

/// **BSA12.** §4.2, same sentence as BSA4: "[…] and E ≈ 4Db/(ηℓL) for Theorem 4.6."
///
/// # Formula
/// With u = L/(bσ), r = Db/(ηL): `μ_4.6² = u²(1 + (3r + ⌈r⌉)/l)`, `μ_4.4² = u² E`; so
/// Thm 4.6 ≤ Thm 4.4 iff `E ≥ 1 + (3r + ⌈r⌉)/l`, i.e. from
/// `E* = ⌈1 + (3r + ⌈r⌉)/l⌉`, which exceeds the printed 4r/l by `1 + (⌈r⌉ − r)/l` before
/// rounding: "roughly" right, never a sufficient condition as stated.
///
/// The check finds E* (least integer E with μ_4.6 ≤ μ_4.4: μ_4.6 is constant in E and
/// μ_4.4 increasing) from certified μ of the closed forms (`mu_thm_4_6_k_unchecked` with
/// the exact ⌈r⌉, the formula behind `thm_4_6`; ties by the exact rationals), requires
/// E* = ⌈1 + (3r + ⌈r⌉)/l⌉ and E* within max(3 epochs, 10 %) of `threshold(r, l)`, and
/// confirms the checked entry point `thm_4_6` gives the same μ at the admissible E =
/// max(E*, ⌈r⌉) (hypothesis E ≥ r).
pub(crate) fn check_thm_4_6_vs_thm_4_4(threshold: ConvexCyclicThreshold, bits: u32) -> Outcome {
    use shiftdp::bounds::bsa24::thm_4_6;
    let one = Enclosure::from_u64(bits, 1);
    let mut points = 0;
    let mut worst = 0f64;
    for r_s in FB4_R {
        let Some(r) = shiftdp::settings::exact_decimal(r_s) else {
            return Outcome::error(format!("bad decimal {r_s}"));
        };
        let kq = ceil_rat(&r);
        let k = Enclosure::from_u64(bits, kq.to_f64() as u64);
        let d = dec(bits, r_s);
        for l in FB4_L {
            points += 1;
            let exact = Rational::from(1) + (Rational::from(3) * r.clone() + kq.clone()) / l;
            let expected = ceil_rat(&exact).to_f64() as u64;
            let m46 = mu_thm_4_6_k_unchecked(&one, &d, &one, 1, l, &one, &k);
            let mut e_star = None;
            for ep in 1..=(expected + 3) {
                let m44 = mu_thm_4_4_unchecked(&one, ep);
                let dominates = if lt(&m44, &m46) {
                    false
                } else if lt(&m46, &m44) {
                    true
                } else {
                    exact <= ep
                };
                if dominates {
                    e_star = Some(ep);
                    break;
                }
            }
            let t = threshold(&r, l);
            let params = vec![p("r = Db/(ηL)", r_s), p("batches-per-epoch", l)];
            let Some(e_star) = e_star else {
                return Outcome::error(format!("{params:?}: no crossing found"));
            };
            worst = worst.max((e_star as f64 - t).abs());
            if e_star != expected || !Closeness::Roughly.accepts(e_star as f64, t) {
                return Outcome::fail(
                    "Thm 4.6 vs Thm 4.4: crossing ⌈1 + (3r + ⌈r⌉)/l⌉, within max(3, 10 %) of the stated threshold",
                    points,
                    params,
                    format!(
                        "crossing E* = {e_star}, ⌈1 + (3r + ⌈r⌉)/l⌉ = {expected}, stated threshold {t:.6}"
                    ),
                );
            }
            // the checked entry point at an admissible E
            let ep = e_star.max(kq.to_f64() as u64);
            let pairs: Vec<(&str, String)> = vec![
                ("n", l.to_string()),
                ("batch", "1".into()),
                ("epochs", ep.to_string()),
                ("eta", "1".into()),
                ("noise", "1".into()),
                ("sensitivity", "1".into()),
                ("smoothness", "1".into()),
                ("diameter", r_s.to_string()),
            ];
            let checked = setting(Algorithm::Cgd, &pairs)
                .and_then(|s| thm_4_6(&s))
                .map(|b| b.mu().cloned());
            match checked {
                Ok(Some(mu))
                    if mu.lower_f64() <= m46.upper_f64() && m46.lower_f64() <= mu.upper_f64() => {}
                other => {
                    return Outcome::error(format!(
                        "{params:?}: thm_4_6 at E = {ep} gives {other:?}, closed form {m46:?}"
                    ));
                }
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (r, l) settings: crossing = ⌈1 + (3r + ⌈r⌉)/l⌉ exactly; largest distance to the stated threshold {worst:.4} epochs"
        ),
        points,
    )
    .with_margin(3.0 - worst)
}

// ---------------------------------------------------------------------------------------
// BSA13
// ---------------------------------------------------------------------------------------

/// `Φ(−√x)(1 + e^{2x})` over `x ∈ [a, b]`: a certified lower bound (Φ(−√x) decreases and
/// e^{2x} increases in x).
fn fb5_g_low(a: &Enclosure, b: &Enclosure) -> Enclosure {
    let one = Enclosure::from_u64(a.prec(), 1);
    b.sqrt().neg().phi() * (one + (a.clone() + a.clone()).exp())
}

/// Whether G(2√x) exceeds f_{2x,0} somewhere, decided by the toolkit's bounds for the
/// exponential mechanism on an LMC setting (sensitivity x of F − F′, D = 2: Cor 5.4 gives
/// μ = √(2·x·2) = 2√x, MT07 gives ε = 2x), evaluated at the kink α_k = 1/(1 + e^ε) of
/// f_{ε,0}: `Some(true)` if G(μ)(α_k) > α_k certified, `Some(false)` if ≤ certified.
fn fb5_improves(x: &str, bits: u32) -> shiftdp::error::Result<Option<bool>> {
    use shiftdp::bounds::bsa24::{cor_5_4_exponential, exponential_mechanism_pure};
    let pairs: Vec<(&str, String)> = vec![
        ("steps", "1".into()),
        ("eta", "0.1".into()),
        ("smoothness", "1".into()),
        ("sensitivity", x.into()),
        ("diameter", "2".into()),
    ];
    let s = setting(Algorithm::Lmc, &pairs)?;
    let mu = cor_5_4_exponential(&s)?
        .mu()
        .cloned()
        .ok_or_else(|| shiftdp::Error::param("mu", "none", "Cor 5.4 is a GDP bound"))?;
    let eps = match exponential_mechanism_pure(&s)?.kind() {
        BoundKind::Pure { eps } => eps.clone(),
        _ => return Err(shiftdp::Error::param("eps", "none", "MT07 is pure DP")),
    };
    let one = Enclosure::from_u64(bits, 1);
    let alpha = one.clone() / (one + eps.with_prec(bits).exp());
    let g = shiftdp::tradeoff::Gaussian::eval_enclosure(&mu.with_prec(bits), &alpha)?;
    Ok(if lt(&alpha, &g) {
        Some(true)
    } else if g.upper_f64() <= alpha.lower_f64() {
        Some(false)
    } else {
        None
    })
}

/// **BSA13.** §5.2, after Cor 5.4: "Unlike the strongly convex case […] we are unaware of
/// any results in this setting beyond the standard analysis [MT07] on the exponential
/// mechanism. That yields (2LD, 0)-DP, and our result provides nontrivial improvement in
/// privacy when LD > 0.677; see §D.4." (§D.4 is not in the transcription.)
///
/// # Formula
/// Reading: "improvement" = G(2√(LD)) is not below f_{2LD,0} everywhere (it is never
/// above it everywhere: G has slope −∞ at 0). Both curves are symmetric, f_{ε,0} has its
/// kink on the diagonal at α_k = 1/(1 + e^ε) and G(μ) crosses the diagonal at Φ(−μ/2);
/// the set where G > f is an interval mapped onto itself by the reflection in the diagonal,
/// so it is non-empty iff it contains G's diagonal point, iff Φ(−μ/2) > α_k, iff
/// G(μ)(α_k) > α_k. With μ = 2√x, ε = 2x (x = LD): iff `g(x) = Φ(−√x)(1 + e^{2x}) > 1`.
/// The crossing is x* = 0.676389679…; the printed 0.677 is x* rounded *up* at the printed
/// precision (a valid sufficient threshold).
///
/// The check for the printed threshold `x0` with last digit `ulp`: (i) improvement at x0
/// and none at x0 − ulp, each decided by the toolkit's `cor_5_4_exponential` and
/// `exponential_mechanism_pure` and `Gaussian::eval_enclosure` at α_k (certified); (ii)
/// g > 1 on all of [x0, 2] by adaptive interval boxes (`Φ(−√b)(1 + e^{2a}) > 1` on
/// [a, b]); for x ≥ 2, g(x) ≥ e^{1.5x}·√x/((1 + x)√(2π)) > 1 (Mills ratio), increasing.
pub(crate) fn check_exp_mech_threshold(x0: &str, ulp: &str, bits: u32) -> Outcome {
    let (Some(xq), Some(uq)) = (
        shiftdp::settings::exact_decimal(x0),
        shiftdp::settings::exact_decimal(ulp),
    ) else {
        return Outcome::error("bad decimals");
    };
    let below = xq.clone() - uq;
    let below_s = format!("{:.*}", ulp.len().saturating_sub(2), below.to_f64());
    let params = vec![p("LD", x0)];
    match (fb5_improves(x0, bits), fb5_improves(&below_s, bits)) {
        (Ok(Some(true)), Ok(Some(false))) => {}
        (Ok(a), Ok(b)) => {
            return Outcome::fail(
                "G(2√(LD)) improves on (2LD, 0)-DP exactly from the printed threshold",
                2,
                params,
                format!(
                    "improvement at LD = {x0}: {a:?}; at LD = {below_s}: {b:?} (Some(true) = certified improvement)"
                ),
            );
        }
        (Err(err), _) | (_, Err(err)) => return Outcome::error(err.to_string()),
    }
    // (ii) every x in [x0, 2]
    let one = Enclosure::from_u64(bits, 1);
    let mut stack = vec![(dec(bits, x0), Enclosure::from_u64(bits, 2), 0u32)];
    let mut boxes = 0;
    while let Some((a, b, depth)) = stack.pop() {
        boxes += 1;
        if lt(&one, &fb5_g_low(&a, &b)) {
            continue;
        }
        if depth >= 48 {
            return Outcome::fail(
                "G(2√(LD)) improves on (2LD, 0)-DP for every LD ≥ the printed threshold",
                boxes,
                vec![p("LD from", a.mid_f64()), p("LD to", b.mid_f64())],
                "Φ(−√x)(1 + e^{2x}) > 1 not certified on this interval",
            );
        }
        let m = (a.clone() + b.clone()).half();
        stack.push((a, m.clone(), depth + 1));
        stack.push((m, b, depth + 1));
    }
    // the crossing, for the summary
    let (mut lo, mut hi) = (dec(bits, &below_s), dec(bits, x0));
    for _ in 0..40 {
        let m = (lo.clone() + hi.clone()).half();
        if lt(&one, &fb5_g_low(&m, &m)) {
            hi = m;
        } else {
            lo = m;
        }
    }
    Outcome::pass(
        format!(
            "improvement certified at LD = {x0} and on [{x0}, 2] ({boxes} boxes; x ≥ 2 by the Mills-ratio bound), none at LD = {below_s}; crossing x* ∈ [{:.9}, {:.9}]",
            lo.lower_f64(),
            hi.upper_f64()
        ),
        boxes,
    )
}

// ---------------------------------------------------------------------------------------
// BSA14
// ---------------------------------------------------------------------------------------

/// A formula for the stationary variance of LMC on `F = m‖x‖²/2`: `(η, m) ↦ v`.
pub(crate) type StationaryVariance = fn(&Enclosure, &Enclosure) -> Enclosure;

/// Remark 5.3 as printed: `2/((2 − ηm)m)`.
pub(crate) fn fb6_printed_variance(eta: &Enclosure, m: &Enclosure) -> Enclosure {
    let two = Enclosure::from_u64(eta.prec(), 2);
    two.clone() / ((two - eta.clone() * m.clone()) * m.clone())
}

/// **BSA14.** Remark 5.3: with `F(x) = m‖x‖²/2`, `F′(x) = m‖x − (L/m)v‖²/2`, "for the latter
/// we have π(η) = N(0, 2/((2 − ηm)m) I_d) and π′(η) = N((L/m)v, 2/((2 − ηm)m) I_d) which
/// yields T(π(η), π′(η)) = G(√((2 − ηm)/2) L/√m)."
///
/// # Formula
/// LMC on F′: `X_{k+1} = (1 − ηm)X_k + ηL v + N(0, 2η)`, so from X_0 = 0 the variance
/// follows `v_{k+1} = c²v_k + 2η` and the mean `a_{k+1} = c a_k + ηL` (c = 1 − ηm); both
/// are iterated in interval arithmetic (no closed form) until c^{2k} ≤ 2⁻¹¹⁰. Since
/// `v_k = v_∞(1 − c^{2k})`, `v_∞ ∈ [v_k, v_k/(1 − c^{2k})]` (likewise the mean with cᵏ). The
/// printed variance, the mean L/m and the μ = (L/m)/√v_∞ must lie in these enclosures, and
/// the μ must equal the toolkit's `cor_5_2_stationary` on the same LMC setting.
pub(crate) fn check_remark_5_3(var: StationaryVariance, bits: u32) -> Outcome {
    use shiftdp::bounds::bsa24::cor_5_2_stationary;
    let grid = [
        ("0.5", "1", "1"),
        ("0.1", "1", "2"),
        ("0.01", "1", "0.5"),
        ("0.1", "0.01", "1"),
    ];
    let overlap = |a: &Enclosure, b: &Enclosure| {
        a.lower_f64() <= b.upper_f64() && b.lower_f64() <= a.upper_f64()
    };
    for (eta_s, m_s, l_s) in grid {
        let (eta, m, l) = (dec(bits, eta_s), dec(bits, m_s), dec(bits, l_s));
        let one = Enclosure::from_u64(bits, 1);
        let c = one.clone() - eta.clone() * m.clone();
        let c2 = c.square();
        let steps = (110.0 * std::f64::consts::LN_2 / (-2.0 * c.upper_f64().ln())).ceil() as u64;
        let (mut v, mut a) = (Enclosure::from_u64(bits, 0), Enclosure::from_u64(bits, 0));
        let two_eta = eta.clone() + eta.clone();
        let eta_l = eta.clone() * l.clone();
        for _ in 0..steps {
            v = c2.clone() * v + two_eta.clone();
            a = c.clone() * a + eta_l.clone();
        }
        let v_inf = v.hull(&(v.clone() / (one.clone() - c2.powu(steps))));
        let a_inf = a.hull(&(a.clone() / (one.clone() - c.powu(steps))));
        let printed_v = var(&eta, &m);
        let printed_mean = l.clone() / m.clone();
        // G's parameter: mean gap over standard deviation
        let printed_mu = ((Enclosure::from_u64(bits, 2) - eta.clone() * m.clone())
            / Enclosure::from_u64(bits, 2))
        .sqrt()
            * l.clone()
            / m.sqrt();
        let mu_iter = a_inf.clone() / v_inf.sqrt();
        let pairs: Vec<(&str, String)> = vec![
            ("steps", "1".into()),
            ("eta", eta_s.into()),
            ("strong-convexity", m_s.into()),
            ("smoothness", m_s.into()),
            ("sensitivity", l_s.into()),
        ];
        let tk = setting(Algorithm::Lmc, &pairs)
            .and_then(|s| cor_5_2_stationary(&s))
            .map(|b| b.mu().cloned());
        let Ok(Some(tk)) = tk else {
            return Outcome::error(format!("cor_5_2_stationary at {pairs:?}: {tk:?}"));
        };
        let ok = overlap(&printed_v, &v_inf)
            && overlap(&printed_mean, &a_inf)
            && overlap(&printed_mu, &mu_iter)
            && overlap(&tk, &mu_iter);
        if !ok {
            return Outcome::fail(
                "Remark 5.3: stationary laws of LMC",
                grid.len(),
                vec![p("eta", eta_s), p("m", m_s), p("L", l_s)],
                format!(
                    "iterated variance {:.15e} (formula {:.15e}), mean {:.15e} (L/m {:.15e}), μ {:.15e} (printed {:.15e}, cor_5_2_stationary {:.15e}) after {steps} steps",
                    v_inf.mid_f64(),
                    printed_v.mid_f64(),
                    a_inf.mid_f64(),
                    printed_mean.mid_f64(),
                    mu_iter.mid_f64(),
                    printed_mu.mid_f64(),
                    tk.mid_f64()
                ),
            );
        }
    }
    Outcome::pass(
        format!(
            "{} LMC settings (ηm from 0.5 to 0.001): iterated stationary variance, mean and μ match Remark 5.3 and cor_5_2_stationary (enclosures of width ≤ 2⁻¹⁰⁰ relative)",
            grid.len()
        ),
        grid.len(),
    )
}

// ---------------------------------------------------------------------------------------
// BSA15, BSA5: "a factor of 2 in Rényi DP, and thus by even more in (ε, δ)-DP"
// ---------------------------------------------------------------------------------------

/// Thm 4.2's μ and CYS21 Cor 1's ε(α = 2) on the NoisyGD setting (n, η, σ, L = 1,
/// m = M), through the toolkit's `thm_4_2` and `Cys21Params::cor1` with the explicit
/// translation of `results::Translated` (σ′ = σ√(η/2), S_g = L, λ = m, β = M).
fn thm_4_2_and_cys21(
    n: u64,
    eta: &str,
    sigma: &str,
    m: &str,
    t: u64,
    bits: u32,
) -> shiftdp::error::Result<(Enclosure, Enclosure)> {
    use shiftdp::renyi::cys21::Cys21Params;
    use shiftdp::results::Translated;
    let pairs: Vec<(&str, String)> = vec![
        ("n", n.to_string()),
        ("steps", t.to_string()),
        ("eta", eta.into()),
        ("noise", sigma.into()),
        ("sensitivity", "1".into()),
        ("strong-convexity", m.into()),
        ("smoothness", m.into()),
    ];
    let s = setting(Algorithm::Gd, &pairs)?;
    let mu = shiftdp::bounds::bsa24::thm_4_2(&s)?
        .mu()
        .cloned()
        .ok_or_else(|| shiftdp::Error::param("mu", "none", "Thm 4.2 is a GDP bound"))?;
    let tr = Translated::of(&s);
    let (Some(lam), Some(beta)) = (tr.lambda, tr.beta) else {
        return Err(shiftdp::Error::param(
            "m",
            "none",
            "strongly convex setting",
        ));
    };
    let c = Cys21Params::new(tr.sigma_p, tr.s_g, lam, beta, tr.eta, n)?;
    Ok((mu, c.cor1(2.0, t, bits)?))
}

/// **BSA15.** §1.1: "For example, for the strongly convex setting, our exact bound improves
/// over previous results by a factor of 2 in Rényi DP".
///
/// # Formula
/// Previous result: CYS21 Cor 1 (strongly convex NoisyGD, RDP linear in α),
/// `ε_α = α L²/(λσ′²n²)(1 − e^{−ληt/2})`; ours: Thm 4.2 as RDP, `ε_α = αμ²/2`. Their ratio
/// (α-free) tends as t → ∞ to `4/(2 − ηm)` (≥ 2, → 2 as ηm → 0) and is
/// `4(1 − e^{−ηm/2})/(ηm) < 2` at t = 1. The check: at every (ηm, t) of the grid
/// (ηm ∈ {10⁻⁴, 0.01, 0.1, 0.3}, t ∈ {1, 10, 100, 176, 10⁴, 17600, 10⁷}; ηmt ≈ 1.76 is
/// where the ratio is smallest, 4(√2 − 1) ≈ 1.657 as ηm → 0) the certified ratio rounds
/// to `factor` at one significant digit (lies in [factor − 0.5, factor + 0.5)), and at
/// t = 10⁷ it equals 4/(2 − ηm) to 10⁻⁹ relative. "A factor of 2" holds in this sense for
/// ηm < 0.4 (at ηm ≥ 0.4 and t → ∞ the ratio rounds to 3 or more).
pub(crate) fn check_rdp_factor(factor: f64, bits: u32) -> Outcome {
    let ems = [
        ("0.0001", "0.001"),
        ("0.01", "0.1"),
        ("0.1", "1"),
        ("0.3", "3"),
    ];
    let ts = [1u64, 10, 100, 176, 10_000, 17_600, 10_000_000];
    let (mut lo, mut hi) = (f64::INFINITY, 0f64);
    let mut points = 0;
    for (em, m) in ems {
        for t in ts {
            points += 1;
            let (mu, cys) = match thm_4_2_and_cys21(10, "0.1", "1", m, t, bits) {
                Ok(x) => x,
                Err(err) => return Outcome::error(format!("ηm = {em}, t = {t}: {err}")),
            };
            // ε_α(CYS21)/ε_α(ours) at α = 2: cor1(2)/μ²
            let ratio = cys / mu.square();
            lo = lo.min(ratio.lower_f64());
            hi = hi.max(ratio.upper_f64());
            let in_digit = ratio.lower_f64() >= factor - 0.5 && ratio.upper_f64() < factor + 0.5;
            let emq = dec(bits, em);
            let limit = Enclosure::from_u64(bits, 4) / (Enclosure::from_u64(bits, 2) - emq);
            let limit_ok =
                t < 10_000_000 || (ratio.mid_f64() / limit.mid_f64() - 1.0).abs() <= 1e-9;
            if !(in_digit && limit_ok) {
                return Outcome::fail(
                    format!("CYS21 Cor 1 / Thm 4.2 in RDP is a factor {factor}"),
                    points,
                    vec![p("eta*m", em), p("steps", t)],
                    format!(
                        "ratio {:.12} (t → ∞ limit 4/(2 − ηm) = {:.12})",
                        ratio.mid_f64(),
                        limit.mid_f64()
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (ηm, t) points: RDP ratio CYS21 Cor 1 / Thm 4.2 in [{lo:.4}, {hi:.4}], rounds to {factor}; t → ∞ limit 4/(2 − ηm)"
        ),
        points,
    )
}

/// What BSA5's "by even more in (ε, δ)-DP" is read as.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum EpsClaim {
    /// As printed: the ε improvement factor is at least the RDP factor (≈ 2).
    AtLeastRdpFactor,
    /// Adopted: the ε improvement lies strictly between the RDP route's (our own μ
    /// converted through RDP) and `upper`.
    BetweenRdpRouteAnd(f64),
}

/// **BSA5.** §1.1, same sentence as BSA15: "[…] by a factor of 2 in Rényi DP, and thus by
/// even more in (ε, δ)-DP due to the intrinsic lossiness of Rényi DP that we overcome by
/// directly analyzing in f-DP."
///
/// # Formula
/// At t = 10⁷, ηm = 10⁻³ (n = 1, L = 1; σ chosen so that μ of Thm 4.2 runs over
/// 0.05…8) and δ ∈ {10⁻⁵, 10⁻¹⁰}: ε_prev = the best of the toolkit's RDP → (ε, δ)
/// conversions applied to CYS21 Cor 1's linear curve; ε_ours = the exact ε(δ) of G(μ)
/// (`Gaussian::epsilon`); ε_route = the best conversion of our own RDP curve αμ²/2.
/// Observed: ε_prev/ε_ours ≈ 1.6–1.8, *below* the RDP factor (≈ 2.001): in ε a factor 2
/// in RDP is worth less than 2 (ε scales like √ρ for small ρ). What holds is that the
/// ε improvement exceeds ε_prev/ε_route (the exact f-DP conversion adds to the gain).
/// The printed reading is rejected only where `ε_prev/ε_ours < RDP factor` is certified;
/// the adopted one passes only where both of its inequalities are certified.
pub(crate) fn check_eps_improvement(claim: EpsClaim, bits: u32) -> Outcome {
    use shiftdp::renyi::{RenyiCurve, best_conversion};
    use shiftdp::tradeoff::Gaussian;
    let sigmas = ["900", "220", "90", "45", "22", "11", "5.5"];
    let deltas = ["1e-5", "1e-10"];
    let mut points = 0;
    let (mut lo, mut hi) = (f64::INFINITY, 0f64);
    for sg in sigmas {
        let (mu, cys) = match thm_4_2_and_cys21(1, "0.1", sg, "0.01", 10_000_000, bits) {
            Ok(x) => x,
            Err(err) => return Outcome::error(format!("σ = {sg}: {err}")),
        };
        let rdp_factor = cys.clone() / mu.square();
        for d in deltas {
            points += 1;
            let delta = dec(bits, d);
            let eval = || -> shiftdp::error::Result<(Enclosure, Enclosure, Enclosure)> {
                let prev =
                    best_conversion(&RenyiCurve::linear_enclosure(cys.half())?, &delta, bits)?;
                let route = best_conversion(
                    &RenyiCurve::linear_enclosure(mu.square().half())?,
                    &delta,
                    bits,
                )?;
                let ours = Gaussian::epsilon(&mu, &delta, Precision::Bits(bits))?;
                Ok((prev.best.epsilon, route.best.epsilon, ours.enclosure))
            };
            let (prev, route, ours) = match eval() {
                Ok(x) => x,
                Err(err) => return Outcome::error(format!("σ = {sg}, δ = {d}: {err}")),
            };
            let r_eps = prev.clone() / ours;
            let r_route = prev / route;
            lo = lo.min(r_eps.lower_f64());
            hi = hi.max(r_eps.upper_f64());
            let (ok, what) = match claim {
                EpsClaim::AtLeastRdpFactor => (
                    !lt(&r_eps, &rdp_factor),
                    "ε_prev/ε_ours ≥ the RDP factor".to_string(),
                ),
                EpsClaim::BetweenRdpRouteAnd(upper) => (
                    lt(&r_route, &r_eps) && r_eps.upper_f64() < upper,
                    format!("ε_prev/ε_route < ε_prev/ε_ours < {upper}"),
                ),
            };
            if !ok {
                return Outcome::fail(
                    format!("(ε, δ) improvement of Thm 4.2 over CYS21 Cor 1: {what}"),
                    points,
                    vec![p("noise", sg), p("delta", d), p("mu", mu.mid_f64())],
                    format!(
                        "ε_prev/ε_ours = {:.6}, RDP factor = {:.6}, ε_prev/ε_route = {:.6}",
                        r_eps.mid_f64(),
                        rdp_factor.mid_f64(),
                        r_route.mid_f64()
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!("{points} (μ, δ) points: ε improvement factor in [{lo:.4}, {hi:.4}] ({claim:?})"),
        points,
    )
}

// ---------------------------------------------------------------------------------------
// BSA6
// ---------------------------------------------------------------------------------------

/// **BSA6.** §1.1: "In practice, improving the privacy by a factor of two enables training
/// for twice as long or with half the noise, while satisfying the same privacy budget."
///
/// # Formula
/// Under composition accounting (Thm 4.1, and Thm 4.4 alike) the Rényi divergence is
/// `αμ²/2` with `μ = L√t/(nσ)`: a factor 2 in RDP is `μ² → μ²/2`, recovered by t → 2t or
/// by σ → σ/√2 (half the noise *variance*); σ → σ/2 (half the noise rate σ, the paper's
/// name for σ) multiplies RDP by 4. The check, for noise divisor `s` (an enclosure): at
/// (t, σ) ∈ {1, 10, 1000} × {0.5, 1, 3}, the toolkit's Thm 4.1 μ (formula of `thm_4_1`)
/// satisfies μ(2t, σ)² = 2μ(t, σ)² and μ(t, σ/s)² = 2μ(t, σ)² (enclosures overlap).
/// (For the convergent Thms 4.2/4.5 training longer is almost free, so "twice as long" is
/// about composition-type accounting.)
pub(crate) fn check_factor_two_tradeoffs(s: &Enclosure, bits: u32) -> Outcome {
    let two = Enclosure::from_u64(bits, 2);
    let overlap = |a: &Enclosure, b: &Enclosure| {
        a.lower_f64() <= b.upper_f64() && b.lower_f64() <= a.upper_f64()
    };
    let mut points = 0;
    for t in [1u64, 10, 1000] {
        for sg in ["0.5", "1", "3"] {
            points += 1;
            let sigma = dec(bits, sg);
            let unit = |sig: &Enclosure| {
                Enclosure::from_u64(bits, 1) / (Enclosure::from_u64(bits, 10) * sig.clone())
            };
            let base = mu_thm_4_1_unchecked(&unit(&sigma), t).square();
            let longer = mu_thm_4_1_unchecked(&unit(&sigma), 2 * t).square() / base.clone();
            let less_noise =
                mu_thm_4_1_unchecked(&unit(&(sigma.clone() / s.clone())), t).square() / base;
            if !(overlap(&longer, &two) && overlap(&less_noise, &two)) {
                return Outcome::fail(
                    "a factor 2 in RDP buys 2t steps or the noise divided by s",
                    points,
                    vec![p("steps", t), p("noise", sg), p("s", s.mid_f64())],
                    format!(
                        "RDP ratio for 2t: {:.15}; for σ/s: {:.15} (both must be 2)",
                        longer.mid_f64(),
                        less_noise.mid_f64()
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (t, σ) points: RDP of Thm 4.1 doubles with 2t and with σ/{:.6}",
            s.mid_f64()
        ),
        points,
    )
}

// ---------------------------------------------------------------------------------------
// BSA16
// ---------------------------------------------------------------------------------------

/// **BSA16.** §4.4: Table 1 caption "Our results provide better privacy than both GDP
/// Composition and RDP bounds in all cases", and the text "Table 1 demonstrates that for
/// this problem, our privacy guarantees are tighter, enabling longer training for the same
/// privacy budget".
///
/// # Formula
/// From the toolkit's certified Table 1 (`analysis::table1`, docs/conventions.md §7
/// setting, δ = 10⁻⁵): ours(E) < RDP(E) < GDP(E) certified at E ∈ {50, 100, 200}; and
/// "longer training for the same budget" read as ours(kE) < RDP(E) for every E with kE in
/// the table, which the printed two-decimal values also satisfy (k = 2: 5.60 < 5.82,
/// 7.58 < 7.61).
pub(crate) fn check_table_1_claims(k: u64) -> Outcome {
    use shiftdp::analysis::table1::{TABLE1_PRINTED, table1};
    let rows = match table1() {
        Ok(r) => r,
        Err(err) => return Outcome::error(format!("table1: {err}")),
    };
    for r in &rows {
        if !(lt(&r.ours, &r.rdp.epsilon) && lt(&r.rdp.epsilon, &r.gdp)) {
            return Outcome::fail(
                "Table 1: ours < RDP < GDP composition",
                rows.len(),
                vec![p("epochs", r.epochs)],
                format!(
                    "ours {:?}, RDP {:?}, GDP {:?}",
                    r.ours, r.rdp.epsilon, r.gdp
                ),
            );
        }
    }
    let mut pairs = 0;
    for r in &rows {
        let Some(longer) = rows.iter().find(|x| x.epochs == k * r.epochs) else {
            continue;
        };
        pairs += 1;
        let printed_ours = TABLE1_PRINTED
            .iter()
            .find(|x| x.0 == k * r.epochs)
            .map_or(f64::NAN, |x| x.3);
        let printed_rdp = TABLE1_PRINTED
            .iter()
            .find(|x| x.0 == r.epochs)
            .map_or(f64::NAN, |x| x.2);
        if !(lt(&longer.ours, &r.rdp.epsilon) && printed_ours < printed_rdp) {
            return Outcome::fail(
                format!("Table 1: ours at {k}E < RDP at E"),
                pairs,
                vec![p("E", r.epochs)],
                format!(
                    "ours({}) = {:.4} (printed {printed_ours}), RDP({}) = {:.4} (printed {printed_rdp})",
                    k * r.epochs,
                    longer.ours.upper_f64(),
                    r.epochs,
                    r.rdp.epsilon.lower_f64()
                ),
            );
        }
    }
    if pairs == 0 {
        return Outcome::error(format!("no pair of rows E, {k}E in Table 1"));
    }
    Outcome::pass(
        format!(
            "ours < RDP < GDP at the 3 rows, and ours({k}E) < RDP(E) at {pairs} pairs (certified, and in the printed digits)"
        ),
        3 + pairs,
    )
}

// ---------------------------------------------------------------------------------------
// BSA17
// ---------------------------------------------------------------------------------------

/// A claimed μ of `G(c)^{⊗t}`.
pub(crate) type ComposedMu = fn(&Enclosure, u64) -> Enclosure;

/// (3.3) as printed: `G(c√t)`.
pub(crate) fn fb11_printed(c: &Enclosure, t: u64) -> Enclosure {
    c.clone() * Enclosure::from_u64(c.prec(), t).sqrt()
}

/// **BSA17.** §3.1, (3.3) and the sentence after it: "the composition theorem
/// simultaneously 'unrolls' both processes, at some price G(c) in each iteration. (These
/// prices are collected via a basic GDP identity, Lemma A.2.)", ending in `G(c√t)`.
///
/// # Formula
/// `G(c)^{⊗t} = G(c√t)`. The composition is computed by the certified PLD engine
/// (`Composition::compose_for_delta`, which does not use the closed form), and the exact
/// ε(10⁻⁵) of `G(mu(c, t))` (`Gaussian::epsilon`, MPFR) must lie in its certified
/// interval, for c ∈ {0.1, 0.5, 1}, t ∈ {2, 10, 100}.
pub(crate) fn check_gdp_identity(mu: ComposedMu, bits: u32) -> Outcome {
    use shiftdp::composition::{Component, Composition};
    use shiftdp::tradeoff::Gaussian;
    let delta = 1e-5;
    let mut points = 0;
    let mut width = 0f64;
    for c in ["0.1", "0.5", "1"] {
        for t in [2u64, 10, 100] {
            points += 1;
            let cf: f64 = c.parse().unwrap_or(f64::NAN);
            let ce = dec(bits, c);
            let eval = || -> shiftdp::error::Result<(shiftdp::composition::Interval, Enclosure)> {
                let comp = Composition::new().with(Component::gaussian(cf)?, t)?;
                let iv = comp.compose_for_delta(delta, None)?.epsilon(delta)?;
                let ex = Gaussian::epsilon(&mu(&ce, t), &dec(bits, "1e-5"), Precision::Bits(bits))?;
                Ok((iv, ex.enclosure))
            };
            let (iv, ex) = match eval() {
                Ok(x) => x,
                Err(err) => return Outcome::error(format!("c = {c}, t = {t}: {err}")),
            };
            width = width.max(iv.upper - iv.lower);
            if !(ex.lower_f64() <= iv.upper && iv.lower <= ex.upper_f64()) {
                return Outcome::fail(
                    "G(c)^{⊗t} (PLD engine) = G(claimed μ)",
                    points,
                    vec![p("c", c), p("steps", t)],
                    format!(
                        "PLD ε(1e-5) ∈ [{:.6}, {:.6}], claimed G gives {:.6}",
                        iv.lower,
                        iv.upper,
                        ex.mid_f64()
                    ),
                );
            }
        }
    }
    Outcome::pass(
        format!(
            "{points} (c, t) points: exact ε(1e-5) of the claimed G inside the certified PLD interval (widest {width:.2e})"
        ),
        points,
    )
}

// ---------------------------------------------------------------------------------------
// BSA18
// ---------------------------------------------------------------------------------------

/// The side of the certified value an approximation falls on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Side {
    /// Below the certified lower end: optimistic, not a bound.
    #[cfg_attr(not(test), allow(dead_code))]
    Optimistic,
    /// Above the certified upper end: conservative.
    Conservative,
}

/// Cases of BSA18: (p, μ, k) with p√k = 1, then two at other μ.
const FB12_CASES: [(f64, f64, u64); 6] = [
    (0.1, 1.0, 100),
    (0.05, 1.0, 400),
    (0.02, 1.0, 2500),
    (0.01, 1.0, 10_000),
    (0.01, 0.5, 10_000),
    (0.01, 2.0, 2_500),
];

/// **BSA18.** §4.3, after Thm 4.10: "We remark that for finite but large t, one can set
/// t − τ to be sufficiently large and apply CLT (Lemma A.5) to approximate the composition
/// of C_p(G(·)); see Lemma A.11." (Lemmas A.5 and A.11 are in the appendix, which is not
/// in the transcription: the CLT is taken in the form of DRS22 Thm 6 that
/// docs/conventions.md §3 and `Composition::clt_mu` use,
/// `μ_CLT = p√k·√(2(e^{μ²}Φ(1.5μ) + 3Φ(−μ/2) − 2))`.)
///
/// # Formula
/// For each (p, μ, k) of [`FB12_CASES`]: the certified ε(δ) interval of
/// `C_p(G(μ))^{⊗k}` (PLD engine, `Composition::answer` to width 10⁻³) against the exact
/// ε(δ) of `G(μ_CLT)` (`Gaussian::epsilon`). The approximation must fall on `side` of the certified interval
/// in every case, and at fixed μ = 1, p√k = 1 its relative gap must shrink as p decreases
/// (the CLT regime). The gaps are reported.
pub(crate) fn check_clt(side: Side, delta_s: &str, bits: u32) -> Outcome {
    let mut gaps = vec![];
    let mut lines = vec![];
    let mut first_off: Option<Vec<(String, String)>> = None;
    for (i, &(pp, mu, k)) in FB12_CASES.iter().enumerate() {
        let (iv, clt_mu, clt_eps) = match clt_row(pp, mu, k, delta_s, bits) {
            Ok(x) => x,
            Err(err) => return Outcome::error(format!("p = {pp}, μ = {mu}, k = {k}: {err}")),
        };
        let on_side = match side {
            Side::Optimistic => clt_eps < iv.lower,
            Side::Conservative => clt_eps > iv.upper,
        };
        if !on_side && first_off.is_none() {
            first_off = Some(vec![p("p", pp), p("mu", mu), p("k", k)]);
        }
        // relative distance of the CLT value from the certified interval (0 inside)
        let gap = if clt_eps < iv.lower {
            (iv.lower - clt_eps) / iv.lower
        } else if clt_eps > iv.upper {
            (clt_eps - iv.upper) / iv.upper
        } else {
            0.0
        };
        lines.push(format!(
            "p {pp} μ {mu} k {k}: certified ε ∈ [{:.4}, {:.4}], CLT μ {clt_mu:.4} ε {clt_eps:.4} ({:+.2} %)",
            iv.lower,
            iv.upper,
            100.0 * (clt_eps / (0.5 * (iv.lower + iv.upper)) - 1.0)
        ));
        // the first four cases: μ = 1, p√k = 1
        if i < 4 {
            gaps.push(gap);
        }
    }
    if let Some(params) = first_off {
        return Outcome::fail(
            format!("CLT ε({delta_s}) is {side:?} against the certified composition"),
            FB12_CASES.len(),
            params,
            lines.join("; "),
        );
    }
    if gaps.windows(2).any(|w| w[1] >= w[0]) {
        return Outcome::fail(
            "CLT gap shrinks with p at p√k = 1, μ = 1",
            FB12_CASES.len(),
            vec![],
            lines.join("; "),
        );
    }
    Outcome::pass(
        format!(
            "CLT ε({delta_s}) {side:?} in every case: {}",
            lines.join("; ")
        ),
        FB12_CASES.len(),
    )
}

/// The certified ε(δ) interval of `C_p(G(μ))^{⊗k}` and the CLT's ε(δ) and μ.
fn clt_row(
    pp: f64,
    mu: f64,
    k: u64,
    delta_s: &str,
    bits: u32,
) -> shiftdp::error::Result<(shiftdp::composition::Interval, f64, f64)> {
    use shiftdp::composition::{Component, Composition, Target};
    use shiftdp::tradeoff::Gaussian;
    let delta: f64 = delta_s
        .parse()
        .map_err(|_| shiftdp::Error::param("delta", delta_s, "a decimal"))?;
    let comp = Composition::new().with(Component::subsampled(pp, mu)?, k)?;
    let clt = comp
        .clt_mu()
        .ok_or_else(|| shiftdp::Error::param("clt", "none", "no CLT formula"))?;
    let a = comp.answer(Target::Delta(delta), 1e-3, None)?;
    let ex = Gaussian::epsilon(&e(bits, clt), &dec(bits, delta_s), Precision::Bits(bits))?;
    Ok((a.interval, clt, ex.enclosure.mid_f64()))
}

/// BSA18's builtin: at δ = 10⁻⁵ the CLT is conservative in every case of [`FB12_CASES`]
/// with a gap shrinking in p ([`check_clt`]); at δ = 10⁻⁸ it is *optimistic* (below the
/// certified lower end) at p = 0.1, μ = 1, k = 100: not a bound.
fn fb12(ctx: &Ctx) -> Outcome {
    let o = check_clt(Side::Conservative, "1e-5", ctx.bits);
    if o.status != crate::Status::Pass {
        return o;
    }
    match clt_row(0.1, 1.0, 100, "1e-8", ctx.bits) {
        Ok((iv, clt_mu, clt_eps)) => Outcome::check(
            clt_eps < iv.lower,
            format!(
                "{}; at δ = 1e-8, p 0.1 μ 1 k 100: certified ε ∈ [{:.4}, {:.4}], CLT μ {clt_mu:.4} ε {clt_eps:.4} ({:+.2} %, optimistic)",
                o.summary,
                iv.lower,
                iv.upper,
                100.0 * (clt_eps / iv.lower - 1.0)
            ),
            o.points + 1,
            vec![p("p", 0.1), p("mu", 1), p("k", 100), p("delta", "1e-8")],
            format!(
                "CLT ε {clt_eps:.6} not below the certified lower end {:.6}",
                iv.lower
            ),
        ),
        Err(err) => Outcome::error(format!("δ = 1e-8: {err}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status::{Fail, Pass};

    const BITS: u32 = 128;

    use crate::outcome::testkit::{assert_statuses, assert_unique_prefixed};

    #[test]
    fn builtins_have_unique_prefixed_names() {
        let kinds = ["remark-", "footnote-", "threshold-", "quoted-", "approx-"];
        let prefixes: Vec<String> = kinds.iter().map(|k| format!("bsa24/{k}")).collect();
        let prefixes: Vec<&str> = prefixes.iter().map(String::as_str).collect();
        assert_unique_prefixed(&builtins(), &prefixes);
    }

    #[test]
    fn fb1_threshold_is_exact_and_printed_e1_breaks_it() {
        let unchecked = mu_thm_4_2_unchecked;
        assert_statuses([
            (Pass, check_thm_4_2_beats_thm_4_1(unchecked, 1, BITS)),
            // t > 0 (t = 1 is a tie) and t > 2 (t = 2 already improves) are rejected
            (Fail, check_thm_4_2_beats_thm_4_1(unchecked, 0, BITS)),
            (Fail, check_thm_4_2_beats_thm_4_1(unchecked, 2, BITS)),
            (
                Fail,
                check_thm_4_2_beats_thm_4_1(mu_thm_4_2_as_printed, 1, BITS),
            ),
        ]);
    }

    fn times_5_4(r: &Rational) -> Rational {
        fb2_adopted_threshold(r) * Rational::from((5, 4))
    }

    fn four_r_plus_one(r: &Rational) -> Rational {
        Rational::from(4) * r.clone() + Rational::from(1)
    }

    #[test]
    fn fb2_printed_fails_adopted_is_exact_and_perturbations_are_rejected() {
        assert_statuses([
            (
                Fail,
                check_thm_4_3_vs_thm_4_1(fb2_printed_threshold, false, false),
            ),
            (
                Pass,
                check_thm_4_3_vs_thm_4_1(fb2_adopted_threshold, true, true),
            ),
            // the adopted threshold × 1.25 is sufficient but not exact
            (Fail, check_thm_4_3_vs_thm_4_1(times_5_4, true, true)),
            (Pass, check_thm_4_3_vs_thm_4_1(times_5_4, true, false)),
            // t ≥ 4r + 1 is a valid sufficient condition: the "for every" check can pass
            (Pass, check_thm_4_3_vs_thm_4_1(four_r_plus_one, true, false)),
        ]);
        // independent spot value: r = 1.1, t = 5 > 4.4 but 3r + ⌈r⌉ = 5.3 > 5
        let r = shiftdp::settings::exact_decimal("1.1").unwrap();
        assert!(fb2_adopted_threshold(&r) > 5);
        assert!(fb2_printed_threshold(&r) < 5);
    }

    fn two(_c: &Enclosure, _l: u64) -> f64 {
        2.0
    }

    #[test]
    fn fb3_crossing_is_one_and_the_printed_k_is_rejected() {
        assert_statuses([
            (
                Pass,
                check_thm_4_5_vs_thm_4_4(fb3_adopted_threshold, Closeness::Exact, BITS),
            ),
            (Fail, check_thm_4_5_vs_thm_4_4(two, Closeness::Exact, BITS)),
            (
                Fail,
                check_thm_4_5_vs_thm_4_4(fb3_printed_threshold, Closeness::Roughly, BITS),
            ),
        ]);
        // Table 1's setting: K = c^78 (1 − c²)/(1 − c^40)² ≈ 12.45 at c = 0.9999
        let k = fb3_printed_threshold(&dec(BITS, "0.9999"), 40);
        let c: f64 = 0.9999;
        let direct = c.powi(78) * (1.0 - c * c) / (1.0 - c.powi(40)).powi(2);
        assert!((k - direct).abs() < 1e-9 * direct && (12.0..13.0).contains(&k));
    }

    fn five_r_over_l(r: &Rational, l: u64) -> f64 {
        fb4_printed_threshold(r, l) * 1.25
    }

    fn three_r_over_l(r: &Rational, l: u64) -> f64 {
        fb4_printed_threshold(r, l) * 0.75
    }

    #[test]
    fn fb4_printed_is_roughly_right_and_scaled_thresholds_are_rejected() {
        assert_statuses([
            (Pass, check_thm_4_6_vs_thm_4_4(fb4_printed_threshold, BITS)),
            (Fail, check_thm_4_6_vs_thm_4_4(five_r_over_l, BITS)),
            (Fail, check_thm_4_6_vs_thm_4_4(three_r_over_l, BITS)),
        ]);
    }

    #[test]
    fn fb5_last_digit_changes_are_rejected() {
        assert_statuses([
            (Pass, check_exp_mech_threshold("0.677", "0.001", BITS)),
            (Fail, check_exp_mech_threshold("0.676", "0.001", BITS)),
            (Fail, check_exp_mech_threshold("0.678", "0.001", BITS)),
        ]);
        // independent f64 evaluation: Φ(−√x)(1 + e^{2x}) − 1 changes sign in (0.6763, 0.6765)
        let g =
            |x: f64| shiftdp::precision::special::phi(-x.sqrt()) * (1.0 + (2.0 * x).exp()) - 1.0;
        assert!(g(0.6763) < 0.0 && g(0.6765) > 0.0);
    }

    fn variance_plus(eta: &Enclosure, m: &Enclosure) -> Enclosure {
        let two = Enclosure::from_u64(eta.prec(), 2);
        two.clone() / ((two + eta.clone() * m.clone()) * m.clone())
    }

    fn variance_half(eta: &Enclosure, m: &Enclosure) -> Enclosure {
        fb6_printed_variance(eta, m).half()
    }

    #[test]
    fn fb6_printed_variance_holds_and_perturbed_ones_fail() {
        assert_statuses([
            (Pass, check_remark_5_3(fb6_printed_variance, BITS)),
            (Fail, check_remark_5_3(variance_plus, BITS)),
            (Fail, check_remark_5_3(variance_half, BITS)),
        ]);
    }

    #[test]
    fn fb7_factor_two_and_not_three() {
        assert_statuses([
            (Pass, check_rdp_factor(2.0, BITS)),
            (Fail, check_rdp_factor(3.0, BITS)),
            (Fail, check_rdp_factor(1.0, BITS)),
        ]);
        // independent: the t → ∞ ratio 4/(2 − ηm) and the t = 1 ratio 4(1 − e^{−ηm/2})/(ηm)
        let x: f64 = 0.3;
        assert!((4.0 / (2.0 - x) - 2.3529).abs() < 1e-4);
        assert!((4.0 * (1.0 - (-x / 2.0).exp()) / x - 1.8572).abs() < 1e-4);
    }

    #[test]
    fn fb8_printed_fails_adopted_passes_tighter_upper_fails() {
        assert_statuses([
            (
                Fail,
                check_eps_improvement(EpsClaim::AtLeastRdpFactor, BITS),
            ),
            (
                Pass,
                check_eps_improvement(EpsClaim::BetweenRdpRouteAnd(2.0), BITS),
            ),
            (
                Fail,
                check_eps_improvement(EpsClaim::BetweenRdpRouteAnd(1.5), BITS),
            ),
        ]);
    }

    #[test]
    fn fb9_noise_divisors() {
        assert_statuses(
            [
                (Pass, Enclosure::sqrt2(BITS)),
                (Fail, Enclosure::from_u64(BITS, 2)),
                (Fail, dec(BITS, "1.5")),
            ]
            .map(|(want, s)| (want, check_factor_two_tradeoffs(&s, BITS))),
        );
    }

    #[test]
    fn fb10_twice_as_long_but_not_four_times() {
        assert_statuses([
            (Pass, check_table_1_claims(2)),
            (Fail, check_table_1_claims(4)),
        ]);
    }

    fn mu_times_1_25(c: &Enclosure, t: u64) -> Enclosure {
        fb11_printed(c, t) * dec(c.prec(), "1.25")
    }

    fn mu_linear(c: &Enclosure, t: u64) -> Enclosure {
        c.clone() * Enclosure::from_u64(c.prec(), t)
    }

    #[test]
    fn fb11_identity_holds_and_wrong_scalings_fail() {
        assert_statuses([
            (Pass, check_gdp_identity(fb11_printed, BITS)),
            (Fail, check_gdp_identity(mu_times_1_25, BITS)),
            (Fail, check_gdp_identity(mu_linear, BITS)),
        ]);
    }

    #[test]
    fn fb12_clt_sides() {
        assert_statuses([
            (Pass, check_clt(Side::Conservative, "1e-5", BITS)),
            (Fail, check_clt(Side::Optimistic, "1e-5", BITS)),
            // at δ = 1e-8 the CLT is optimistic somewhere: "conservative" no longer holds
            (Fail, check_clt(Side::Conservative, "1e-8", BITS)),
            (Pass, fb12(&Ctx::default())),
        ]);
    }
}
