//! `shiftdp bound gd|cgd|sgd|lmc`: every applicable bound for one run, side by side.
use super::setting::RunArgs;
use super::{Output, fmt_up, parse_number};
use crate::bounds::{Bound, bounds_for};
use crate::error::Result;
use crate::precision::Precision;
use serde_json::{Value, json};

/// Arguments of `shiftdp bound` (the shared [`RunArgs`]).
pub type BoundArgs = RunArgs;

/// One row of the report.
struct Row {
    tau: Option<u64>,
    id: &'static str,
    bound: Option<Bound>,
    eps: Option<rug::Float>,
    reason: Option<String>,
}

/// Runs `shiftdp bound`.
///
/// # Errors
/// Invalid setting or δ (each inapplicable theorem is reported, not an error).
pub fn run(a: &BoundArgs) -> Result<Output> {
    let s = a.setting.setting(a.algorithm)?;
    let prec = Precision::from_bits(a.bits)?;
    let delta = parse_number("delta", &a.delta, prec.mpfr_bits().max(64))?;
    crate::tradeoff::Gaussian::epsilon(
        &crate::precision::Enclosure::from_u64(64, 1),
        &delta,
        prec,
    )?; // validates δ
    let mut rows = vec![];
    for (id, r) in bounds_for(&s) {
        let row = match r {
            Ok(b) => match b.epsilon_with_tau(&delta, prec) {
                Ok((c, tau)) => Row {
                    id,
                    tau,
                    eps: Some(c.upper().clone()),
                    bound: Some(b),
                    reason: None,
                },
                Err(e) => Row {
                    id,
                    tau: None,
                    eps: None,
                    bound: Some(b),
                    reason: Some(e.to_string()),
                },
            },
            Err(e) => Row {
                id,
                tau: None,
                bound: None,
                eps: None,
                reason: Some(e.to_string()),
            },
        };
        rows.push(row);
    }
    // tightest: smallest certified ε among bounds about the run itself
    let about_run = |r: &Row| {
        r.bound
            .as_ref()
            .is_some_and(|b| b.notes.iter().all(|n| !n.starts_with("about")))
    };
    let best = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.eps.is_some() && about_run(r))
        .min_by(|x, y| {
            x.1.eps
                .as_ref()
                .unwrap()
                .partial_cmp(y.1.eps.as_ref().unwrap())
                .expect("finite")
        })
        .map(|(i, _)| i);
    let mut human = format!("{}\nδ = {}\n\n", s.describe(), a.delta);
    let mut list = vec![];
    for (i, r) in rows.iter().enumerate() {
        let tight = Some(i) == best;
        let mut j = json!({ "id": r.id, "applicable": r.bound.is_some(), "tightest": tight });
        match &r.bound {
            Some(b) => {
                let mu = b.mu().map(|m| fmt_up(m.hi(), 53));
                let eps = r.eps.as_ref().map(|e| fmt_up(e, 53));
                j["title"] = json!(b.title);
                j["tradeoff"] = json!(b.tradeoff_summary());
                j["mu"] = mu.clone().map(Value::from).unwrap_or(Value::Null);
                j["epsilon"] = eps.clone().map(Value::from).unwrap_or(Value::Null);
                j["exact"] = json!(b.exact);
                j["tau"] = json!(r.tau);
                j["hypotheses"] = json!(b.hypotheses);
                j["notes"] = json!(b.notes);
                human.push_str(&format!(
                    "{} {:<28} {}\n    {}   ε ≤ {}{}{}\n",
                    if tight { "*" } else { " " },
                    r.id,
                    b.title,
                    mu.map(|m| format!("μ ≤ {m}"))
                        .unwrap_or_else(|| b.tradeoff_summary()),
                    eps.unwrap_or_else(|| format!("— ({})", r.reason.as_deref().unwrap_or(""))),
                    r.tau.map(|t| format!("   (τ = {t})")).unwrap_or_default(),
                    if b.exact { "   (exact)" } else { "" }
                ));
                for n in &b.notes {
                    human.push_str(&format!("    note: {n}\n"));
                }
            }
            None => {
                j["reason"] = json!(r.reason);
                human.push_str(&format!(
                    "  {:<28} not applicable: {}\n",
                    r.id,
                    r.reason.as_deref().unwrap_or("")
                ));
            }
        }
        list.push(j);
    }
    if let Some(i) = best {
        human.push_str(&format!("\n* tightest: {}\n", rows[i].id));
    }
    let json = json!({
        "command": "bound",
        "setting": s.describe(),
        "delta": a.delta,
        "bounds": list,
        "tightest": best.map(|i| rows[i].id),
        "side": "μ and ε are certified upper bounds (rounded up)",
    });
    Ok(Output { json, human })
}
