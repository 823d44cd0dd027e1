//! BSA24 Table 1 (NoisyCGD on MNIST's setting), recomputed from the toolkit's own
//! bounds: the GDP composition column (Thm 4.4), the RDP column (curve of
//! docs/conventions.md §7, best conversion) and the shifted-interpolation column (Thm 4.5),
//! each a certified ε at δ = 1e-5, beside the values the paper prints to two decimals.
//!
//! # Example
//! ```
//! let rows = shiftdp::analysis::table1::table1()?;
//! assert_eq!(rows.len(), 3);
//! assert!(rows.iter().all(|r| r.matches.iter().all(|&m| m)));
//! // the certified ε of Thm 4.5 at E = 50 is 4.3391…, printed 4.34
//! assert!((rows[0].ours.upper_f64() - 4.3392).abs() < 1e-4);
//! # Ok::<(), shiftdp::Error>(())
//! ```
use crate::bounds::bsa24::{thm_4_4, thm_4_5};
use crate::error::Result;
use crate::precision::{Enclosure, Precision};
use crate::renyi::{DpFromRdp, table1_rdp_epsilon};
use crate::settings::{Algorithm, RawSetting, Setting};

/// BSA24 Table 1 as printed: (epochs, GDP composition, RDP, shifted interpolation).
pub const TABLE1_PRINTED: [(u64, f64, f64, f64); 3] = [
    (50, 30.51, 5.82, 4.34),
    (100, 49.88, 7.61, 5.60),
    (200, 83.83, 9.88, 7.58),
];

/// The Table 1 setting of docs/conventions.md §7: n = 60000, b = 1500 (l = 40),
/// L/(bσ) = 2/3, c = 0.9999, E epochs.
///
/// # Errors
/// As [`Setting::new`] (none for `epochs ≥ 1`).
pub fn table1_setting(epochs: u64) -> Result<Setting> {
    let raw = RawSetting {
        n: Some("60000".into()),
        batch: Some("1500".into()),
        epochs: Some(epochs.to_string()),
        eta: Some("1".into()),
        noise: Some("1".into()),
        sensitivity: Some("1000".into()),
        contraction: Some("0.9999".into()),
        ..RawSetting::default()
    };
    Setting::new(Algorithm::Cgd, &raw)
}

/// One row of Table 1: three certified ε at δ = 1e-5 and the printed values.
#[derive(Debug, Clone)]
pub struct Table1Row {
    /// Epochs E.
    pub epochs: u64,
    /// GDP composition (BSA24 Thm 4.4): enclosure of ε; the upper end is the bound.
    pub gdp: Enclosure,
    /// RDP column (curve of docs/conventions.md §7) with the conversion chosen.
    pub rdp: DpFromRdp,
    /// Shifted interpolation (BSA24 Thm 4.5): enclosure of ε.
    pub ours: Enclosure,
    /// The paper's printed (GDP, RDP, ours).
    pub printed: (f64, f64, f64),
    /// Whether each certified upper end rounds to the printed two decimals.
    pub matches: [bool; 3],
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The three rows of BSA24 Table 1, recomputed at 128 bits.
///
/// # Errors
/// Propagates bound and conversion errors (none expected for the fixed setting).
pub fn table1() -> Result<Vec<Table1Row>> {
    let delta = Enclosure::parse(128, "1e-5")?;
    let mut rows = vec![];
    for (e, p_gdp, p_rdp, p_ours) in TABLE1_PRINTED {
        let s = table1_setting(e)?;
        let gdp = thm_4_4(&s)?
            .epsilon(&delta, Precision::Bits(128))?
            .enclosure;
        let ours = thm_4_5(&s)?
            .epsilon(&delta, Precision::Bits(128))?
            .enclosure;
        let rdp = table1_rdp_epsilon(e)?.best;
        let matches = [
            (round2(gdp.upper_f64()) - p_gdp).abs() < 1e-9,
            (round2(rdp.epsilon_upper()) - p_rdp).abs() < 1e-9,
            (round2(ours.upper_f64()) - p_ours).abs() < 1e-9,
        ];
        rows.push(Table1Row {
            epochs: e,
            gdp,
            rdp,
            ours,
            printed: (p_gdp, p_rdp, p_ours),
            matches,
        });
    }
    Ok(rows)
}
