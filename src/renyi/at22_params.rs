//! AT22's result ids and the translation of a run into AT22's parameters: the
//! contraction of a setting (c ≤ 1, from Lemma 2.8 or given), the domain check of the
//! recipes' inputs, the orders at which (B.2)/(B.3) are tabulated, and the parameter
//! structs of the recipes and theorems ([`RecipeBInputs`], [`SplitInputs`],
//! [`PabiGap`], [`At22Run`]), each field with its AT22 symbol and the direction in which
//! a caller rounds it. Shared by [`super::at22_pabi`], [`super::at22_recipes`],
//! [`super::at22_theorems`] and [`super::at22`].
use crate::error::Result;
use crate::error::hyp;
use crate::precision::Enclosure;
use crate::provenance::ResultId;
use crate::settings::Setting;

/// AT22 Prop 2.17 (original PABI bound).
pub const PROP_2_17: &str = crate::provenance::ResultId::At22Prop2_17.as_str();

/// AT22 Prop 3.2 (PABI from a bounded gap at time τ).
pub const PROP_3_2: &str = crate::provenance::ResultId::At22Prop3_2.as_str();

/// AT22 Prop 5.6 (PABI with c-contractions).
pub const PROP_5_6: &str = crate::provenance::ResultId::At22Prop5_6.as_str();

/// AT22 eq. (3.6).
pub const EQ_3_6: &str = crate::provenance::ResultId::At22Eq3_6.as_str();

/// AT22 eq. (B.1).
pub const EQ_B1: &str = crate::provenance::ResultId::At22EqB1.as_str();

/// AT22 eq. (B.2).
pub const EQ_B2: &str = crate::provenance::ResultId::At22EqB2.as_str();

/// AT22 eq. (B.3).
pub const EQ_B3: &str = crate::provenance::ResultId::At22EqB3.as_str();

pub(crate) fn contraction(s: &Setting, id: ResultId) -> Result<Enclosure> {
    let c = s.c.clone().ok_or_else(|| {
        hyp(
            id,
            "convex (c ≤ 1) or strongly convex: contraction c known",
            "needs the contraction c, or the strong convexity m, the smoothness M and the step size η",
        )
    })?;
    if c.upper_f64() > 1.0 {
        return Err(hyp(
            id,
            "contractive gradient steps: c ≤ 1",
            format!("c = {}", c.mid_f64()),
        ));
    }
    Ok(c)
}

/// Orders at which (B.2)/(B.3) are tabulated (each needs a noise-split search).
pub(crate) fn orders() -> Vec<f64> {
    (-16..=32)
        .step_by(4)
        .map(|k| 1.0 + 2f64.powf(f64::from(k) / 4.0))
        .collect()
}

/// A Noisy-SGD / Noisy-CGD run in the vocabulary of AT22's theorems (Thms 3.1, 5.1, 5.8
/// and the Thm 4.1 construction): n records, batches of b, T steps of size η with noise
/// N(0, η²σ²) per step, on a constraint set of diameter D.
///
/// # Rounding
/// Each f64 field of an upper bound (Thms 3.1, 5.1, 5.8) is supplied at the end that
/// makes the bound larger, as stated per field; the hypotheses the theorems check
/// (H5, H6) only get stricter at these ends. The Thm 4.1 lower bound and its walk
/// ([`super::at22_theorems::thm_4_1_lower_bound`], [`super::at22_theorems::thm_4_1_walk`])
/// describe the construction with exactly these values: no rounding applies there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct At22Run {
    /// n: dataset size (exact).
    pub n: u64,
    /// b: batch size, 1 ≤ b ≤ n (exact).
    pub b: u64,
    /// The toolkit's gradient sensitivity L (docs/conventions.md §2): AT22 write 2L_AT for
    /// it in the upper bounds, so L_AT = L/2 there; in the Thm 4.1 construction the
    /// gradient difference is exactly its Lipschitz constant, so L = L_AT. Rounded **up**:
    /// an L-Lipschitz loss is L′-Lipschitz for every L′ ≥ L, so the theorem at L′ bounds
    /// the same run (the bounds are not monotone in L through the ceiling in T̄).
    pub l: f64,
    /// η: step size, rounded **down** (T̄ = ⌈Dn/(L_AT η)⌉ and Λ = D²n² ln(1/c)/(8η²L_AT²)
    /// decrease with η; the bounds grow with them).
    pub eta: f64,
    /// σ: noise multiplier (per-step noise ησ), rounded **down** (less noise: every
    /// bound has the factor 1/σ²).
    pub sigma: f64,
    /// T: number of steps (exact).
    pub t: u64,
    /// D: diameter of the constraint set, rounded **up** (a set of diameter D has
    /// diameter ≤ D′ for every D′ ≥ D, so the theorem at D′ applies; T̄ and Λ grow with D).
    pub d: f64,
}

/// The f64 arguments of AT22's recipes (B.2) and (B.3) (App. B.2, B.3); those of
/// [`super::at22_recipes::recipe_b_for_setting`] are each at the end of the setting's
/// enclosure that makes the bound larger ([`super::at22_recipes::recipe_b_inputs`]).
/// Q = S_α(q, bσ₂/L) with the toolkit's L = 2L_AT.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecipeBInputs {
    /// q = b/n, rounded up (S_α(q, ·) increases with q).
    pub q: f64,
    /// b/L, rounded down (Q = S_α(q, bσ₂/L) decreases with the noise scale bσ₂/L).
    pub b_over_l: f64,
    /// η, rounded down (the PABI terms αD²/(2η²σ₁²)·… decrease with η).
    pub eta: f64,
    /// σ, rounded down (less noise: larger Q and larger PABI term); the recipes split it
    /// as σ₁² + σ₂² ≤ σ².
    pub sigma: f64,
    /// T (exact).
    pub t: u64,
    /// D, rounded up (the PABI terms grow with D²).
    pub d: f64,
    /// c for (B.3), rounded **up**: (1−c²)/(c^{−2T̃}−1) = c^{2T̃}(1−c²)/(1−c^{2T̃}) increases
    /// with c on (0, 1) (it tends to 1/T̃, (B.2)'s term, as c → 1). `None`: (B.2).
    pub c: Option<f64>,
}

/// The inputs of an AT22 recipe at a fixed noise split σ₁² + σ₂² ≤ σ² ((3.6), (5.3),
/// (5.7)): σ₂ is the noise the sampled Gaussian term Q = S_α(q, bσ₂/L) uses (toolkit
/// L = 2L_AT), σ₁ the noise the PABI term uses to close the gap D. The step sizes
/// (η and T, or η_0, …, η_{T−1} for (5.7)) are arguments of each recipe.
///
/// # Rounding
/// Each field at the end that makes the recipe larger, as stated per field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SplitInputs {
    /// q = b/n, rounded up (S_α(q, ·) increases with q).
    pub q: f64,
    /// b/L, rounded down (Q decreases with the noise scale bσ₂/L).
    pub b_over_l: f64,
    /// σ₁: the PABI share of the noise, rounded down (the PABI term αD²/(2η²σ₁²)·…
    /// decreases with σ₁).
    pub sigma1: f64,
    /// σ₂: the sampled Gaussian share of the noise, rounded down (Q decreases with σ₂).
    pub sigma2: f64,
    /// D: diameter of the constraint set, rounded up (the PABI term grows with D²).
    pub d: f64,
}

/// The PABI term of AT22's (B.2)/(B.3) objective ([`super::at22_recipes::b_term`]): the
/// gap z_τ = D closed over T̃ steps of noise ησ₁, each c-contractive (AT22 Prop 3.2 /
/// Prop 5.6 with s ≡ 0).
///
/// # Rounding
/// Each field at the end that makes the term larger, as stated per field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PabiGap {
    /// η: step size, rounded down (the term αD²/(2η²σ₁²)·… decreases with η).
    pub eta: f64,
    /// σ₁: the PABI share of the noise, rounded down (the term decreases with σ₁).
    pub sigma1: f64,
    /// D: the gap (diameter of the constraint set), rounded up (the term grows with D²).
    pub d: f64,
    /// c for (B.3), rounded up (c^{2T̃}(1−c²)/(1−c^{2T̃}) increases with c on (0, 1));
    /// `None`: (B.2) (c = 1).
    pub c: Option<f64>,
}
