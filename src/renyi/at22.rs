//! Altschuler–Talwar 2022 (AT22): Rényi-DP of noisy (stochastic) gradient descent by
//! privacy amplification by iteration (PABI) with shifted Rényi divergences.
//!
//! * Props 2.17 / 3.2 / 5.6 through the shift-schedule problem of docs/conventions.md §4
//!   with the Rényi objective (α/2)Σ(a_k/ς_k)²: the optimal shifts are those of the GDP
//!   problem (same objective up to the factor α/2), so D_α ≤ (α/2)μ*² = ρα with ρ = μ*²/2
//!   ([`pabi_rho`]);
//! * the numerical recipes (3.6), (B.1), (B.2), (B.3) as stated ([`recipe_3_6`],
//!   [`recipe_b1_rho`], [`recipe_b2`], [`recipe_b3`]);
//! * Lemma 2.12 with α*(q, σ) ([`alpha_star`], [`lemma_2_12`]).
//!
//! # Parameter model
//! The recipes and theorems take their inputs as parameter structs in AT22's
//! vocabulary, each field documented with its symbol and the direction a caller rounds
//! it in: [`RecipeBInputs`] ((B.2), (B.3)), [`SplitInputs`] ((3.6), (5.3), (5.7) at a
//! fixed noise split), [`PabiGap`] (the PABI term of (B.2)/(B.3)) and [`At22Run`]
//! (Thms 3.1, 5.1, 5.8, 4.1).
//!
//! AT22 use the toolkit's template (docs/conventions.md §2): noise N(0, η²σ²) per step, but
//! state results with the **Lipschitz constant** L_AT, so that gradients of
//! replace-adjacent datasets differ by at most 2L_AT. The toolkit's gradient sensitivity is
//! L = 2L_AT: every `2L` of AT22 is the toolkit's `L` (the functions here take the
//! toolkit's L and say so), e.g. Q = S_α(b/n, bσ₂/(2L_AT)) = S_α(b/n, bσ₂/L).
//!
//! # Rounding
//! Searches (τ, T̃, the noise split σ₁) run in f64; the value at the chosen point is
//! recomputed as an enclosure, reported by its upper end. Any choice of these
//! parameters yields a valid bound, so search error costs only tightness.
//!
//! # References
//! J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent: more
//! iterations without more privacy loss*, NeurIPS 2022 (Props 2.17, 3.2, 5.6,
//! Lemma 2.12, eqs. (3.6), (B.1)–(B.3)); I. Mironov, K. Talwar, L. Zhang, *Rényi
//! differential privacy of the sampled Gaussian mechanism* (2019), Thm 11.
pub use super::at22_lemma_2_12::{LEMMA_2_12, alpha_star, alpha_star_conditions, lemma_2_12};
pub use super::at22_pabi::{pabi_rho, recipe_3_6, recipe_b1_rho};
pub use super::at22_params::{
    At22Run, EQ_3_6, EQ_B1, EQ_B2, EQ_B3, PROP_2_17, PROP_3_2, PROP_5_6, PabiGap, RecipeBInputs,
    SplitInputs,
};
pub use super::at22_recipes::{
    b_term, first_order_b3, first_order_b3_beta, printed_beta_b3, recipe_b_for_setting,
    recipe_b_id, recipe_b_inputs, recipe_b_with, recipe_b2, recipe_b3,
};
use super::cys21::ToolkitTranslation;

/// The same run in CYS21/YS22's σ′ convention is not used by AT22; this returns the
/// toolkit translation of an AT22 run given its Lipschitz constant (L = 2L_AT).
///
/// # Example
/// ```
/// use shiftdp::renyi::at22::translate;
/// let t = translate(0.5, 10, 100, 0.1, 2.0, 1.0);
/// assert!((t.sensitivity - 1.0).abs() < 1e-15 && (t.gdp_unit - 0.05).abs() < 1e-15);
/// ```
pub fn translate(
    lipschitz: f64,
    b: u64,
    n: u64,
    eta: f64,
    sigma: f64,
    contraction: f64,
) -> ToolkitTranslation {
    ToolkitTranslation {
        sigma,
        sensitivity: 2.0 * lipschitz,
        batch: b,
        n,
        eta,
        m: None,
        big_m: None,
        contraction,
        gdp_unit: 2.0 * lipschitz / (b as f64 * sigma),
    }
}
