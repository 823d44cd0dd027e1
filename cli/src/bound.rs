//! `shiftdp bound gd|cgd|sgd|lmc`: every applicable bound for one run, side by side.
use super::Output;
use super::setting::RunArgs;
use serde_json::{Value, json};
use shiftdp::analysis::{Query, Scope, analyze_scope};
use shiftdp::error::Result;
use shiftdp::precision::Precision;

/// Arguments of `shiftdp bound` (the shared [`RunArgs`]).
pub type BoundArgs = RunArgs;

/// Runs `shiftdp bound`: the BSA24 entries of [`shiftdp::analysis::analyze_scope`].
///
/// # Errors
/// Invalid setting or δ (each inapplicable theorem is reported, not an error).
pub fn run(a: &BoundArgs) -> Result<Output> {
    let s = a.setting.setting(a.algorithm)?;
    let prec = Precision::from_bits(a.bits)?;
    let query = Query::epsilon_at_bits(&a.delta, prec.mpfr_bits().max(64))?;
    // long for NoisySGD at large t (the composition over the τ grid): a spinner on a terminal
    let analysis = super::with_spinner("computing every BSA24 bound of the run", || {
        analyze_scope(&s, &query, prec, Scope::Bsa24)
    })?;
    let rows = analysis.entries();
    // tightest: smallest certified ε among bounds about the run itself
    let best = analysis.best_index();
    let mut human = format!("{}\nδ = {}\n\n", s.describe(), a.delta);
    let mut list = vec![];
    for (i, r) in rows.iter().enumerate() {
        let tight = Some(i) == best;
        let mut j = json!({
            "id": r.id.as_str(),
            "paper": r.paper().as_str(),
            "applicable": r.bound().is_some(),
            "best": tight,
            "mu": Value::Null,
            "epsilon": Value::Null,
        });
        let tau = r.answer().and_then(|a| a.tau);
        let reason = r.reason().map(|e| super::with_flags(&e.to_string()));
        match r.bound() {
            Some(b) => {
                let mu = b.mu().map(|m| super::readable_up(m.hi()));
                let eps = r.upper().map(super::readable_up);
                j["title"] = json!(b.title());
                j["tradeoff"] = json!(b.tradeoff_summary());
                j["mu"] = b
                    .mu()
                    .map(|m| super::interval_upper(m, 53))
                    .unwrap_or(Value::Null);
                j["epsilon"] = r
                    .upper()
                    .map(|e| super::interval_upper_only(e, 53))
                    .unwrap_or(Value::Null);
                j["exact"] = json!(b.is_exact());
                j["tau"] = json!(tau);
                j["composition"] = r
                    .answer()
                    .and_then(|a| a.composition.as_ref())
                    .map(super::compare::composition_json)
                    .unwrap_or(Value::Null);
                j["hypotheses"] = json!(b.hypotheses());
                j["notes"] = json!(b.notes());
                human.push_str(&format!(
                    "{} {:<28} {}\n    {}   ε ≤ {}{}{}\n",
                    if tight { "*" } else { " " },
                    r.id.as_str(),
                    b.title(),
                    mu.map(|m| format!("μ ≤ {m}"))
                        .unwrap_or_else(|| b.tradeoff_summary()),
                    eps.unwrap_or_else(|| format!("— ({})", reason.as_deref().unwrap_or(""))),
                    tau.map(|t| format!("   (τ = {t})")).unwrap_or_default(),
                    if b.is_exact() { "   (exact)" } else { "" }
                ));
                if let Some(c) = r.answer().and_then(|a| a.composition.as_ref()) {
                    human.push_str(&super::compare::composition_lines(c));
                }
                for n in b.notes() {
                    human.push_str(&format!("    note: {n}\n"));
                }
            }
            None => {
                j["reason"] = json!(reason);
                human.push_str(&format!(
                    "  {:<28} not applicable: {}\n",
                    r.id.as_str(),
                    r.reason().map(super::why_not).unwrap_or_default()
                ));
            }
        }
        list.push(j);
    }
    if let Some(i) = best {
        human.push_str(&format!("\n* tightest: {}\n", rows[i].id.as_str()));
    }
    let json = super::compare::bounds_json(&s, &a.delta, list, &analysis);
    Ok(Output::new("bound", json, human))
}
