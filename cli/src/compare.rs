//! `shiftdp compare gd|cgd|sgd|lmc`: every applicable bound of the four papers (BSA24,
//! CYS21, AT22, YS22) and the composition baselines for one run, in one parameter model.
//!
//! The rows are the entries of the library's [`shiftdp::analyze`]: each either an f-DP
//! bound of BSA24 converted exactly to (ε, δ), or a Rényi-DP curve converted with the
//! best of the four RDP → (ε, δ) conversions of docs/conventions.md §3. Papers written in
//! the θ ← θ − ηg + √(2η)σ′N(0, I) convention (CYS21, YS22) are translated explicitly:
//! σ′ = σ√(η/2), S_g = L, λ = m, β = M; each such row says so in its notes. The best
//! valid bound (smallest certified ε among the rows about the t-step run in the
//! toolkit's replace-one adjacency) is marked.
//!
//! # Rounding
//! Every ε is a certified upper bound (upper end of an enclosure). Rényi curves that
//! are not linear in α are tabulated at a fixed grid of orders, each value the upper
//! end of a certified enclosure; between grid orders the next larger order is used
//! (D_α is non-decreasing in α). Translations to the f64 parameter structs of CYS21 /
//! YS22 / AT22 round S_g (= L) up and σ′ down (every bound increases in S_g/σ′).
//!
//! # References
//! * J. Bok, W. Su, J. Altschuler, *Shifted interpolation for differential privacy* (2024).
//! * R. Chourasia, J. Ye, R. Shokri, *Differential privacy dynamics of Langevin diffusion
//!   and noisy gradient descent*, NeurIPS 2021.
//! * J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent: more
//!   iterations without more privacy loss*, NeurIPS 2022.
//! * J. Ye, R. Shokri, *Differentially private learning needs hidden state (or much
//!   faster convergence)*, NeurIPS 2022.
use super::Output;
use super::setting::{RunArgs, setting_json};
use serde_json::{Value, json};
use shiftdp::Setting;
use shiftdp::analysis::{Analysis, CompositionCheck, Entry, Query, analyze};
use shiftdp::error::Result;
use shiftdp::precision::Precision;

/// Arguments of `shiftdp compare` (the shared [`RunArgs`]).
pub type CompareArgs = RunArgs;

/// The JSON of a [`CompositionCheck`]: the theorem's evaluation and the refined
/// certified composition of the same object, the tighter marked.
pub fn composition_json(c: &CompositionCheck) -> Value {
    json!({
        "object": c.object,
        "theorem_epsilon": super::interval_upper(&c.theorem, 53),
        "composition_epsilon": c.composition.as_ref().map(|e| super::interval_upper(e, 53)),
        "grid_exp": c.grid_exp,
        "tighter": if c.composition_tighter { "composition" } else { "theorem" },
    })
}

/// The human lines of a [`CompositionCheck`] (indented under the entry).
pub fn composition_lines(c: &CompositionCheck) -> String {
    let mark = |t: bool| if t { "   ← tighter, reported" } else { "" };
    let mut out = format!(
        "    the result's own evaluation: ε ≤ {}{}\n",
        super::readable_up(c.theorem.hi()),
        mark(!c.composition_tighter)
    );
    match &c.composition {
        Some(e) => out.push_str(&format!(
            "    certified composition {} (as `compose`, grid 2^-{}): ε ∈ [{}, {}]{}\n",
            c.object,
            c.grid_exp.unwrap_or_default(),
            super::readable_down(e.lo()),
            super::readable_up(e.hi()),
            mark(c.composition_tighter)
        )),
        None => out.push_str(&format!(
            "    certified composition {}: not certified at a finer grid\n",
            c.object
        )),
    }
    out
}

/// The JSON object and the human lines of one analysis entry (shared by `compare`
/// and `plot compare`).
fn entry_json(e: &Entry, is_best: bool) -> Value {
    let b = e.bound();
    json!({
        "id": e.id.as_str(),
        "paper": e.paper().as_str(),
        "kind": e.family.as_str(),
        "title": e.title,
        "applicable": e.answer().is_some(),
        "mu": b.and_then(|b| b.mu()).map(|m| super::interval_upper(m, 53)).unwrap_or(Value::Null),
        "epsilon": e.upper().map(|u| super::interval_upper_only(u, 53)).unwrap_or(Value::Null),
        "conversion": e.conversion(),
        "alpha": e.answer().and_then(|a| a.alpha).map(super::dec),
        "tau": e.answer().and_then(|a| a.tau),
        "composition": e.answer().and_then(|a| a.composition.as_ref()).map(composition_json),
        "curve": b.and_then(|b| b.renyi_curve()).map(|c| c.name().to_string()),
        "hypotheses": b.map(|b| b.hypotheses().to_vec()).unwrap_or_default(),
        "notes": b.map(|b| b.notes().to_vec()).unwrap_or_default(),
        "reason": e.reason().map(|r| super::with_flags(&r.to_string())),
        "eligible_for_best": e.eligible,
        "best": is_best,
    })
}

/// The human lines and the JSON entries of an analysis, the best one marked (shared by
/// `compare` and `sampler`).
pub fn analysis_lines(analysis: &Analysis) -> (String, Vec<Value>) {
    let rows = analysis.entries();
    let best = analysis.best_index();
    let mut human = String::new();
    let mut list = vec![];
    for (i, r) in rows.iter().enumerate() {
        let is_best = Some(i) == best;
        let eps = r.upper().map(super::readable_up);
        let tau = r.answer().and_then(|a| a.tau);
        list.push(entry_json(r, is_best));
        match eps {
            Some(e) => {
                human.push_str(&format!(
                    "{} {:<28} [{} {}] {}\n    ε ≤ {}{}\n",
                    if is_best { "*" } else { " " },
                    r.id.as_str(),
                    r.paper().as_str(),
                    r.family.as_str(),
                    r.title,
                    e,
                    tau.map(|t| format!("   (τ = {t})")).unwrap_or_default()
                ));
                if let Some(c) = r.conversion() {
                    human.push_str(&format!("    via {c}\n"));
                }
                if let Some(c) = r.answer().and_then(|a| a.composition.as_ref()) {
                    human.push_str(&composition_lines(c));
                }
                for n in r.bound().map(|b| b.notes()).unwrap_or_default() {
                    human.push_str(&format!("    note: {n}\n"));
                }
            }
            None => human.push_str(&format!(
                "  {:<28} [{} {}] not applicable: {}\n",
                r.id.as_str(),
                r.paper().as_str(),
                r.family.as_str(),
                r.reason().map(super::why_not).unwrap_or_default()
            )),
        }
    }
    if let Some(i) = best {
        human.push_str(&format!("\n* best valid bound: {}\n", rows[i].id.as_str()));
    }
    (human, list)
}

/// The JSON of `bound` and `compare`: the setting, δ, the entries `list` of `analysis`
/// and the id of its best entry.
pub fn bounds_json(s: &Setting, delta: &str, list: Vec<Value>, analysis: &Analysis) -> Value {
    json!({
        "setting": setting_json(s),
        "delta": delta,
        "bounds": list,
        "best": analysis.best_index().map(|i| analysis.entries()[i].id.as_str()),
        "side": "μ and ε are certified upper bounds (rounded up)",
    })
}

/// Runs `shiftdp compare`.
///
/// # Errors
/// Invalid setting, δ or precision (each inapplicable result is reported, not an error).
pub fn run(a: &CompareArgs) -> Result<Output> {
    let s = a.setting.setting(a.algorithm)?;
    let prec = Precision::from_bits(a.bits)?;
    let query = Query::epsilon_at(&a.delta)?;
    let analysis = super::with_spinner("computing every bound of the run", || {
        analyze(&s, &query, prec)
    })?;
    let mut human = format!(
        "{}\nδ = {}\nall ε are certified upper bounds; * marks the best valid bound\n\n",
        s.describe(),
        a.delta
    );
    let (lines, list) = analysis_lines(&analysis);
    human += &lines;
    let json = bounds_json(&s, &a.delta, list, &analysis);
    Ok(Output::new("compare", json, human))
}
