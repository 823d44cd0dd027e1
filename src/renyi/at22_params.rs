//! AT22's result ids and the translation of a run into AT22's parameters: the
//! contraction of a setting (c ≤ 1, from Lemma 2.8 or given), the domain check of the
//! recipes' inputs, and the orders at which (B.2)/(B.3) are tabulated. Shared by
//! [`super::at22_pabi`], [`super::at22_recipes`] and [`super::at22`].
use crate::bounds::hyp;
use crate::error::{Error, Result};
use crate::precision::Enclosure;
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

pub(super) fn contraction(s: &Setting, id: &str) -> Result<Enclosure> {
    let c = s.c.clone().ok_or_else(|| {
        hyp(
            id,
            "convex (c ≤ 1) or strongly convex: contraction c known",
            "needs --contraction or --strong-convexity/--smoothness/--eta",
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
pub(super) fn orders() -> Vec<f64> {
    (-16..=32)
        .step_by(4)
        .map(|k| 1.0 + 2f64.powf(f64::from(k) / 4.0))
        .collect()
}

/// Checks that every named value is finite and > 0.
pub(super) fn positive_finite(values: &[(&str, f64)]) -> Result<()> {
    for &(name, v) in values {
        if !v.is_finite() || v <= 0.0 {
            return Err(Error::param(name, v, "must be finite and > 0"));
        }
    }
    Ok(())
}
