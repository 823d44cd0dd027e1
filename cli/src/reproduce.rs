//! `shiftdp reproduce …`: the papers' tables recomputed from the toolkit's own bounds.
use super::Output;
use super::setting::setting_json;
use serde_json::{Value, json};
use shiftdp::analysis::table1::table1;
use shiftdp::decimal::fixed_up;
use shiftdp::error::Result;

/// Tables that can be reproduced.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum ReproduceCommand {
    /// BSA24 Table 1: ε of NoisyCGD at δ = 1e-5 (GDP composition, RDP, shifted interpolation).
    Table1(Table1Args),
    /// The Rényi-DP papers' figure settings (CYS21 Figure 1, YS22 figures) and Table 1's RDP column.
    Renyi(super::renyi::ReproduceRenyiArgs),
}

/// Arguments of `shiftdp reproduce table1`.
#[derive(Debug, Clone, clap::Args)]
pub struct Table1Args {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub use shiftdp::analysis::table1::{TABLE1_PRINTED, table1_setting};

/// Runs `shiftdp reproduce table1`: the rows of [`shiftdp::analysis::table1::table1`].
///
/// Every ε printed (text and JSON) is the certified upper end rounded up to a decimal
/// ([`fmt_up`](shiftdp::decimal::fmt_up)); the comparison with the printed two decimals uses the same upper end.
///
/// # Errors
/// Propagates bound and conversion errors (none expected for the fixed setting).
pub fn run_table1(_a: &Table1Args) -> Result<Output> {
    let mut rows = vec![];
    let mut human = String::from(
        "BSA24 Table 1 — ε of NoisyCGD at δ = 1e-5 (n = 60000, b = 1500, L/(bσ) = 2/3, c = 0.9999)\n\
         epochs | GDP composition (Thm 4.4) | RDP (curve of docs/conventions.md §7, best conversion) | shifted interpolation (Thm 4.5)\n",
    );
    let mut all_match = true;
    let mark = |m: bool| if m { "✓" } else { "✗" };
    for r in table1()? {
        let (p_gdp, p_rdp, p_ours) = r.printed;
        let (gdp, rdp_eps, ours) = (r.gdp.upper_f64(), r.rdp.epsilon_upper(), r.ours.upper_f64());
        let matches = r.matches;
        all_match &= matches.iter().all(|&m| m);
        let e = r.epochs;
        human.push_str(&format!(
            "{e:>6} | {:>10} (paper {p_gdp:.2}) {} | {:>8} (paper {p_rdp:.2}, {}) {} | {:>8} (paper {p_ours:.2}) {}\n",
            fixed_up(gdp, 4),
            mark(matches[0]),
            fixed_up(rdp_eps, 4),
            r.rdp.conversion.id(),
            mark(matches[1]),
            fixed_up(ours, 4),
            mark(matches[2]),
        ));
        // μ of the two GDP bounds at this row's setting
        let setting = table1_setting(e)?;
        let mu_of = |id: &str| {
            shiftdp::analysis::bound_named(&setting, id)
                .and_then(|b| b.ok())
                .and_then(|b| b.mu().map(|m| super::interval_upper(m, 53)))
                .unwrap_or(Value::Null)
        };
        let cell = |id: &str, paper: &str, eps: Value, mu: Value, printed: f64, m: bool| {
            json!({
                "id": id, "paper": paper, "epsilon": eps, "mu": mu,
                "printed": format!("{printed:.2}"), "matches": m,
            })
        };
        let mut rdp = cell(
            "BSA24 Table 1 RDP",
            "BSA24",
            super::interval_upper_only(r.rdp.epsilon_hi(), 53),
            Value::Null,
            p_rdp,
            matches[1],
        );
        rdp["conversion"] = json!(r.rdp.conversion.id());
        rdp["alpha"] = r.rdp.alpha.map(super::dec).unwrap_or(Value::Null);
        rows.push(json!({
            "epochs": e,
            "setting": setting_json(&setting),
            "gdp_composition": cell("BSA24 Thm 4.4", "BSA24", super::interval_upper(&r.gdp, 53), mu_of("BSA24 Thm 4.4"), p_gdp, matches[0]),
            "rdp": rdp,
            "shifted_interpolation": cell("BSA24 Thm 4.5", "BSA24", super::interval_upper(&r.ours, 53), mu_of("BSA24 Thm 4.5"), p_ours, matches[2]),
        }));
    }
    human.push_str(if all_match {
        "all nine cells match the paper to the printed two decimals (values are certified upper bounds, rounded up)\n"
    } else {
        "MISMATCH with the printed table (✗ above)\n"
    });
    Ok(Output::new(
        "reproduce table1",
        json!({ "delta": "1e-5", "rows": rows, "all_match": all_match,
                "side": "each ε and μ is a certified interval (safe end: upper, rounded up); printed is the paper's two-decimal value" }),
        human,
    ))
}
