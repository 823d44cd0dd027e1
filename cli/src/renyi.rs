//! `shiftdp reproduce renyi`: the Rényi-DP tables — BSA24 Table 1's RDP column, the
//! CYS21 Figure-1 setting and the YS22 figure setting (docs/conventions.md §6, §7).
use super::Output;
use super::setting::setting_json;
use serde_json::{Value, json};
use shiftdp::decimal::{f64_up, fixed_up};
use shiftdp::error::Result;
use shiftdp::precision::Enclosure;
use shiftdp::renyi::cys21::{self, Cys21Params};
use shiftdp::renyi::table1::{self, TABLE1_PRINTED};
use shiftdp::renyi::ys22::{self, Ys22Params};

/// Arguments of `shiftdp reproduce renyi`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReproduceRenyiArgs {
    /// Iteration counts K for the CYS21 Figure-1 table (default 100,500,1000,2000,5000,10000).
    #[arg(long, value_delimiter = ',')]
    pub cys21_k: Option<Vec<u64>>,
    /// Epoch counts K for the YS22 figure table (default 1,10,50,100,200).
    #[arg(long, value_delimiter = ',')]
    pub ys22_k: Option<Vec<u64>>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// An upper end (f64) as the schema's Interval (lower end unknown).
fn iu(x: f64) -> Value {
    super::interval_f64(None, Some(x), super::SafeEnd::Upper)
}

fn up(x: f64) -> String {
    // f64 values here are already upper ends: print a decimal ≥ x (the shortest
    // round-trip form of an f64 can lie below it)
    f64_up(x, 17)
}

/// Appends one table of the human output: its heading lines (title, the toolkit's model,
/// the column header), then `line` of each row.
fn push_table<T>(human: &mut String, heading: &[&str], rows: &[T], line: impl Fn(&T) -> String) {
    for h in heading {
        human.push_str(h);
    }
    for r in rows {
        human.push_str(&line(r));
    }
}

/// Runs `shiftdp reproduce renyi`.
///
/// # Errors
/// Hypothesis or certification failures of the underlying bounds (none in the
/// paper settings); an empty or zero K list.
pub fn run(a: &ReproduceRenyiArgs) -> Result<Output> {
    let ck = a
        .cys21_k
        .clone()
        .unwrap_or_else(|| cys21::FIGURE1_K.to_vec());
    let yk = a.ys22_k.clone().unwrap_or_else(|| ys22::FIGURE_K.to_vec());
    for (flag, ks) in [("cys21-k", &ck), ("ys22-k", &yk)] {
        if ks.is_empty() || ks.contains(&0) || ks.len() > 1000 {
            return Err(shiftdp::error::Error::param(
                flag,
                format!("{ks:?}"),
                "needs 1..=1000 counts, each ≥ 1",
            ));
        }
    }
    let mut human = String::new();
    // --- BSA24 Table 1, RDP column
    human.push_str(
        "BSA24 Table 1, RDP column (NoisyCGD, μ₀ = L/(bσ) = 2/3, l = 40, c = 0.9999, δ = 1e-5)\n",
    );
    human.push_str("  ε(α) = ρα, ρ = (μ₀²/2)(1 + c^{l−2}(1−c²)/(1−c^l)²·(1−c^{l(E−1)})), best conversion of docs/conventions.md §3\n");
    human
        .push_str("  epochs          ρ (upper)      ε (upper)   conversion     α        printed\n");
    let mut t1 = Vec::new();
    for (e, printed) in TABLE1_PRINTED {
        let r = table1::table1_rdp_epsilon(e)?;
        let mu0 = Enclosure::from_u64(128, 2) / Enclosure::from_u64(128, 3);
        let c = Enclosure::parse(128, table1::TABLE1_C)?;
        let rho = table1::cyclic_rdp_rho(&mu0, &c, table1::TABLE1_L, e, 128)?;
        human.push_str(&format!(
            "  {:>6} {:>18} {:>14}   {:<12} {:>8} {:>10}\n",
            e,
            fixed_up(rho.upper_f64(), 12),
            fixed_up(r.best.epsilon_upper(), 8),
            r.best.conversion.id(),
            r.best
                .alpha
                .map(|a| format!("{a:.3}"))
                .unwrap_or_else(|| "-".into()),
            printed
        ));
        t1.push(json!({
            "epochs": e,
            "setting": setting_json(&shiftdp::analysis::table1::table1_setting(e)?),
            "rho": super::interval_upper(&rho, 64),
            "epsilon": super::interval_upper_only(r.best.epsilon_hi(), 64),
            "conversion": r.best.conversion.id(),
            "conversion_source": r.best.conversion.source(),
            "alpha": r.best.alpha.map(up),
            "printed": format!("{printed}"),
            "candidates": r.candidates.iter().map(|c| json!({
                "conversion": c.conversion.id(),
                "alpha": c.alpha.map(up),
                "epsilon": super::interval_upper_only(c.epsilon_hi(), 64),
            })).collect::<Vec<_>>(),
        }));
    }
    // --- CYS21 Figure 1
    let rows = cys21::figure1_rows(&ck)?;
    let tr = Cys21Params::figure1(1.0)?.to_toolkit();
    push_table(
        &mut human,
        &[
            "\nCYS21 Figure 1 (Cor 1 vs composition baseline; β = 4, S_g = 4, n = 5000, η = 0.02, σ′ = 0.02)\n",
            &format!(
                "  toolkit model: σ = σ′√(2/η) = {:.6}, L = S_g = 4, b = n = 5000, GDP unit L/(bσ) = {:.6e}\n",
                tr.sigma, tr.gdp_unit
            ),
            "     α    λ        K        Cor 1 (ε)     baseline (ε)\n",
        ],
        &rows,
        |r| {
            format!(
                "  {:>4} {:>4} {:>8} {:>16} {:>16}\n",
                r.alpha,
                r.lambda,
                r.k,
                f64_up(r.cor1, 9),
                f64_up(r.baseline, 9)
            )
        },
    );
    let cys_json: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({"alpha": up(r.alpha), "lambda": up(r.lambda), "K": r.k,
                   "cor1": iu(r.cor1), "baseline": iu(r.baseline)})
        })
        .collect();
    // --- YS22 figures
    let yrows = ys22::figure_rows(&yk, 64)?;
    let yp = Ys22Params::figure();
    let ytr = yp.to_toolkit();
    push_table(
        &mut human,
        &[
            "\nYS22 figures (λ = 1, β = 4, S_g = 4, n = 50, b = 2, η = 0.02, σ′² = 4; K in epochs)\n",
            &format!(
                "  toolkit model: σ = σ′√(2/η) = {:.6}, L = 4, b = 2, c = {:.4}\n",
                ytr.sigma, ytr.contraction
            ),
            "     α      K     Thm 2.1   Thm 3.3 last  Thm 3.3 first     Thm 4.2     Thm 4.3    SGM comp.\n",
        ],
        &yrows,
        |r| {
            format!(
                "  {:>4} {:>6} {:>11} {:>13} {:>14} {:>11} {:>11} {:>11}\n",
                r.alpha,
                r.k,
                f64_up(r.thm2_1, 6),
                f64_up(r.thm3_3_last, 6),
                f64_up(r.thm3_3_first, 6),
                f64_up(r.thm4_2, 6),
                f64_up(r.thm4_3, 6),
                f64_up(r.baseline, 6)
            )
        },
    );
    let mut conv = Vec::new();
    for alpha in [10.0, 15.0, 20.0] {
        let t = yp.thm4_3(alpha, 1, 64)?;
        human.push_str(&format!(
            "  Thm 4.3 at α = {alpha}: recursion {}{}\n",
            if t.converges {
                "converges"
            } else {
                "does NOT converge (grows without limit)"
            },
            t.limit
                .map(|l| format!(", limit ε ≤ {}", f64_up(l, 7)))
                .unwrap_or_default()
        ));
        conv.push(json!({"alpha": up(alpha), "converges": t.converges, "limit": t.limit.map(iu)}));
    }
    let ys_json: Vec<_> = yrows
        .iter()
        .map(|r| {
            json!({"alpha": up(r.alpha), "K": r.k, "thm2_1": iu(r.thm2_1),
                   "thm3_3_last": iu(r.thm3_3_last), "thm3_3_first": iu(r.thm3_3_first),
                   "thm4_2": iu(r.thm4_2), "thm4_3": iu(r.thm4_3), "sgm_composition": iu(r.baseline)})
        })
        .collect();
    let json = json!({
        "side": "upper bounds on Rényi divergence / ε (Intervals, safe end upper, rounded up)",
        "bsa24_table1_rdp": t1,
        "cys21_figure1": {
            "paper_setting": {"beta": "4", "s_g": "4", "n": 5000, "eta": "0.02", "sigma_prime": "0.02"},
            "toolkit": {"sigma": up(tr.sigma), "gdp_unit": up(tr.gdp_unit)},
            "rows": cys_json,
        },
        "ys22_figure": {
            "paper_setting": {"lambda": "1", "beta": "4", "s_g": "4", "n": 50, "b": 2, "eta": "0.02", "sigma_prime_squared": "4"},
            "toolkit": {"sigma": up(ytr.sigma), "contraction": up(ytr.contraction)},
            "rows": ys_json,
            "thm4_3_convergence": conv,
        },
    });
    Ok(Output::new("reproduce renyi", json, human))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_contains_table1_values() {
        let a = ReproduceRenyiArgs {
            cys21_k: Some(vec![1000]),
            ys22_k: Some(vec![10]),
            json: true,
        };
        let o = run(&a).unwrap();
        let t = o.json["bsa24_table1_rdp"].as_array().unwrap();
        let vals: Vec<f64> = t
            .iter()
            .map(|r| r["epsilon"]["upper"].as_str().unwrap().parse().unwrap())
            .collect();
        for (v, (_, p)) in vals.iter().zip(TABLE1_PRINTED) {
            assert!((v - p).abs() < 0.005);
        }
        assert_eq!(o.json["cys21_figure1"]["rows"].as_array().unwrap().len(), 9);
        assert_eq!(o.json["ys22_figure"]["rows"].as_array().unwrap().len(), 3);
        assert!(o.human.contains("balle2020"));
    }

    #[test]
    fn rejects_empty_or_zero_k() {
        let a = ReproduceRenyiArgs {
            cys21_k: Some(vec![0]),
            ys22_k: None,
            json: false,
        };
        assert!(run(&a).is_err());
        let b = ReproduceRenyiArgs {
            cys21_k: None,
            ys22_k: Some(vec![]),
            json: false,
        };
        assert!(run(&b).is_err());
    }
}
