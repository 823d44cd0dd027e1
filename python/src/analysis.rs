//! `shiftdp.analyze`: every bound of the five papers for one run (`shiftdp::analyze`), as
//! frozen [`Analysis`], [`Entry`] and [`CompositionCheck`] records — the rows of
//! `shiftdp compare --json`.

use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyTuple};

use crate::types::{Interval, readable};
use crate::{
    Num, algorithm, ends, error_kind, interruptible, obj, out_bits, precision, raw_setting,
};
use shiftdp::{Error, Query, Setting, analyze as lib_analyze};
use shiftdp_verify::report::esc;

/// A bound that is a composition, certified two ways (both upper bounds on the ε of one
/// mechanism; the smaller is the entry's `epsilon`): `theorem_epsilon` is the result's
/// own evaluation, `composition_epsilon` the composition of `object` refined to the
/// engine's default tolerance (what `shiftdp.compose` reports for it, at grid
/// `2^-grid_exp`), `None` if it could not be certified.
#[pyclass(frozen, eq, get_all, from_py_object, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct CompositionCheck {
    /// The composed object, as `shiftdp compose` spells it.
    pub object: String,
    /// The result's own certified ε.
    pub theorem_epsilon: f64,
    /// The certified ε of the composition, if it could be certified.
    pub composition_epsilon: Option<f64>,
    /// The grid exponent of the composition (spacing 2^-grid_exp).
    pub grid_exp: Option<i32>,
    /// Whether the composition is the tighter of the two.
    pub composition_tighter: bool,
}

#[pymethods]
impl CompositionCheck {
    #[new]
    #[pyo3(signature = (object, theorem_epsilon, composition_epsilon, grid_exp, composition_tighter))]
    fn new(
        object: String,
        theorem_epsilon: f64,
        composition_epsilon: Option<f64>,
        grid_exp: Option<i32>,
        composition_tighter: bool,
    ) -> CompositionCheck {
        CompositionCheck {
            object,
            theorem_epsilon,
            composition_epsilon,
            grid_exp,
            composition_tighter,
        }
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            &self.object,
            self.theorem_epsilon,
            self.composition_epsilon,
            self.grid_exp,
            self.composition_tighter,
        )
            .into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        crate::types::fields_repr(
            "CompositionCheck",
            &[
                "object",
                "theorem_epsilon",
                "composition_epsilon",
                "grid_exp",
                "composition_tighter",
            ],
            &self.__getnewargs__(py)?,
        )
    }
}

/// One result of the five papers for a run (a row of `shiftdp compare --json`).
///
/// `epsilon` is the certified ε at the analysis's δ (`None` when the result does not
/// apply or could not be certified; then `reason` says why and `reason_kind` names the
/// exception class it would raise, e.g. `HypothesisError`, with the failing
/// `hypothesis` label).
#[pyclass(frozen, eq, get_all, from_py_object, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct Entry {
    /// The result, e.g. `"BSA24 Thm 4.5"`.
    pub id: String,
    /// Its paper.
    pub paper: String,
    /// `"f-DP"` or `"RDP"`.
    pub kind: String,
    /// What the result covers.
    pub title: String,
    /// The certified ε at the analysis's δ, if the result applies.
    pub epsilon: Option<Interval>,
    /// How ε was obtained from the result's statement (f-DP or RDP conversion).
    pub conversion: Option<String>,
    /// Why there is no ε.
    pub reason: Option<String>,
    /// Whether it is the best valid entry.
    pub best: bool,
    /// Whether it may be marked best.
    pub eligible_for_best: bool,
    /// The Rényi order of the conversion, for an RDP result.
    pub alpha: Option<f64>,
    /// The start time τ of the shift schedule, for a shifted-interpolation result.
    pub tau: Option<u64>,
    /// The Rényi curve's name, for an RDP result.
    pub curve: Option<String>,
    /// The hypotheses the result checked on the setting.
    pub hypotheses: Vec<String>,
    /// What the bound assumes or leaves out.
    pub notes: Vec<String>,
    /// The exception class the reason maps to.
    pub reason_kind: Option<String>,
    /// The failing hypothesis's label, when a hypothesis fails.
    pub hypothesis: Option<String>,
    /// The two certifications of a composition bound.
    pub composition: Option<CompositionCheck>,
}

impl Entry {
    fn head_html(&self) -> String {
        let star = if self.best { "★ " } else { "" };
        format!(
            "{star}<b>{}</b> [{} {}]",
            esc(&self.id),
            esc(&self.paper),
            esc(&self.kind)
        )
    }
}

#[pymethods]
impl Entry {
    #[new]
    #[pyo3(signature = (id, paper, kind, title, epsilon, conversion, reason, best, eligible_for_best,
        alpha=None, tau=None, curve=None, hypotheses=Vec::new(), notes=Vec::new(), reason_kind=None,
        hypothesis=None, composition=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        id: String,
        paper: String,
        kind: String,
        title: String,
        epsilon: Option<Interval>,
        conversion: Option<String>,
        reason: Option<String>,
        best: bool,
        eligible_for_best: bool,
        alpha: Option<f64>,
        tau: Option<u64>,
        curve: Option<String>,
        hypotheses: Vec<String>,
        notes: Vec<String>,
        reason_kind: Option<String>,
        hypothesis: Option<String>,
        composition: Option<CompositionCheck>,
    ) -> Entry {
        Entry {
            id,
            paper,
            kind,
            title,
            epsilon,
            conversion,
            reason,
            best,
            eligible_for_best,
            alpha,
            tau,
            curve,
            hypotheses,
            notes,
            reason_kind,
            hypothesis,
            composition,
        }
    }

    /// Whether the entry has a certified ε.
    #[getter]
    fn applicable(&self) -> bool {
        self.epsilon.is_some()
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let args = [
            obj(py, &self.id),
            obj(py, &self.paper),
            obj(py, &self.kind),
            obj(py, &self.title),
            obj(py, self.epsilon.clone()),
            obj(py, &self.conversion),
            obj(py, &self.reason),
            obj(py, self.best),
            obj(py, self.eligible_for_best),
            obj(py, self.alpha),
            obj(py, self.tau),
            obj(py, &self.curve),
            obj(py, &self.hypotheses),
            obj(py, &self.notes),
            obj(py, &self.reason_kind),
            obj(py, &self.hypothesis),
            obj(py, self.composition.clone()),
        ];
        PyTuple::new(py, args)
    }

    fn __repr__(&self) -> String {
        let star = if self.best { "*" } else { " " };
        match &self.epsilon {
            Some(iv) => format!(
                "{star} {} [{} {}] ε ≤ {}",
                self.id,
                self.paper,
                self.kind,
                readable(&iv.upper_decimal, true, 6)
            ),
            None => format!(
                "  {} [{} {}] not applicable: {}",
                self.id,
                self.paper,
                self.kind,
                self.reason.as_deref().unwrap_or("None")
            ),
        }
    }

    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        Ok(match &self.epsilon {
            Some(iv) => format!("{}: ε {}", self.head_html(), iv._repr_html_(py)?),
            None => format!(
                "{}: not applicable — {}",
                self.head_html(),
                esc(self.reason.as_deref().unwrap_or(""))
            ),
        })
    }
}

/// Every bound of the five papers for one run at one δ, the best valid one marked.
/// Iterating over an analysis yields its entries.
#[pyclass(frozen, eq, get_all, from_py_object, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct Analysis {
    /// The run, as `Setting::describe` writes it.
    pub setting: String,
    /// The δ asked, as given.
    pub delta: String,
    /// One entry a result that concerns the run, in the registry's order.
    pub entries: Vec<Entry>,
    /// The best entry's id, if any entry is valid.
    pub best_id: Option<String>,
    /// What the entries assume and how they compare (e.g. the relation and sampler of a
    /// hidden-state analysis, and its every-iterate baseline).
    pub notes: Vec<String>,
}

#[pymethods]
impl Analysis {
    #[new]
    #[pyo3(signature = (setting, delta, entries, best_id, notes=Vec::new()))]
    fn new(
        setting: String,
        delta: String,
        entries: Vec<Entry>,
        best_id: Option<String>,
        notes: Vec<String>,
    ) -> Analysis {
        Analysis {
            setting,
            delta,
            entries,
            best_id,
            notes,
        }
    }

    /// The best valid entry (smallest certified ε among the eligible ones).
    #[getter]
    fn best(&self) -> Option<Entry> {
        self.entries.iter().find(|e| e.best).cloned()
    }

    /// The entry of result `id` (e.g. `"BSA24 Thm 4.5"`), if it concerns the run.
    fn entry(&self, id: &str) -> Option<Entry> {
        self.entries.iter().find(|e| e.id == id).cloned()
    }

    /// The same analysis with `notes` in place of its notes.
    fn with_notes(&self, notes: Vec<String>) -> Analysis {
        Analysis {
            notes,
            ..self.clone()
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.entries.clone())?.try_iter()
    }

    fn __len__(&self) -> usize {
        self.entries.len()
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            &self.setting,
            &self.delta,
            self.entries.clone(),
            self.best_id.clone(),
            self.notes.clone(),
        )
            .into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        let mut lines = vec![format!("Analysis({}; δ = {})", self.setting, self.delta)];
        lines.extend(self.entries.iter().map(Entry::__repr__));
        lines.extend(self.notes.iter().map(|n| format!("  note: {n}")));
        lines.join("\n")
    }

    fn _repr_html_(&self) -> String {
        let rows: String = self
            .entries
            .iter()
            .map(|e| {
                let val = match &e.epsilon {
                    Some(iv) => readable(&iv.upper_decimal, true, 6),
                    None => format!("— {}", e.reason.as_deref().unwrap_or("None")),
                };
                format!(
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    if e.best { "★" } else { "" },
                    esc(&e.id),
                    esc(&e.paper),
                    esc(&e.kind),
                    esc(&val)
                )
            })
            .collect();
        let notes: String = self
            .notes
            .iter()
            .map(|n| format!("<p><small>{}</small></p>", esc(n)))
            .collect();
        format!(
            "<p>{}; δ = {} (ε are certified upper bounds)</p><table><tr><th></th><th>result</th><th>paper</th><th>kind</th><th>ε ≤</th></tr>{rows}</table>{notes}",
            esc(&self.setting),
            esc(&self.delta)
        )
    }
}

/// The entry of one result of an analysis: its ε at the analysis's δ as an [`Interval`]
/// at `bits`, or the reason and the exception class it maps to.
fn entry(e: &shiftdp::analysis::Entry, best: bool, bits: u32) -> Entry {
    let b = e.bound();
    let answer = e.answer();
    Entry {
        id: e.id.as_str().to_string(),
        paper: e.paper().as_str().to_string(),
        kind: e.family.as_str().to_string(),
        title: e.title.clone(),
        epsilon: answer.map(|ans| ends(&ans.value, bits, "analysis".to_string())),
        conversion: e.conversion().map(str::to_string),
        reason: e.reason().map(|r| r.to_string()),
        best,
        eligible_for_best: e.eligible,
        alpha: answer.and_then(|ans| ans.alpha),
        tau: answer.and_then(|ans| ans.tau),
        curve: b
            .and_then(|b| b.renyi_curve())
            .map(|c| c.name().to_string()),
        hypotheses: b.map(|b| b.hypotheses().to_vec()).unwrap_or_default(),
        notes: b.map(|b| b.notes().to_vec()).unwrap_or_default(),
        reason_kind: e.reason().map(|r| error_kind(r).to_string()),
        hypothesis: match e.reason() {
            Some(Error::Hypothesis { hypothesis, .. }) => Some(hypothesis.clone()),
            _ => None,
        },
        composition: answer
            .and_then(|ans| ans.composition.as_ref())
            .map(|c| CompositionCheck {
                object: c.object.clone(),
                theorem_epsilon: c.theorem.upper_f64(),
                composition_epsilon: c.composition.as_ref().map(|x| x.upper_f64()),
                grid_exp: c.grid_exp,
                composition_tighter: c.composition_tighter,
            }),
    }
}

/// Every bound of the five papers for one run, ε at δ (`shiftdp::analyze`), the best
/// valid entry marked: the rows `shiftdp compare --json` prints.
#[pyfunction]
#[pyo3(signature = (algorithm_name, setting, delta, bits=None))]
pub fn analyze(
    py: Python<'_>,
    algorithm_name: &str,
    setting: Vec<(String, Num)>,
    delta: Num,
    bits: Option<i64>,
) -> PyResult<Analysis> {
    let alg = algorithm_name.to_string();
    let run = move || -> Result<_, Error> {
        let alg = algorithm(&alg)?;
        let delta_text = delta.text("delta")?;
        let raw = raw_setting(&setting)?;
        let s = Setting::new(alg, &raw)?;
        let prec = precision(bits)?;
        let a = lib_analyze(&s, &Query::epsilon_at(&delta_text)?, prec)?;
        Ok((s.describe(), a, out_bits(prec), delta_text))
    };
    let (describe, a, bits, delta) = interruptible(py, run)?;
    let best = a.best_index();
    let entries: Vec<Entry> = a
        .entries()
        .iter()
        .enumerate()
        .map(|(i, e)| entry(e, Some(i) == best, bits))
        .collect();
    Ok(Analysis {
        setting: describe,
        delta,
        best_id: best.map(|i| entries[i].id.clone()),
        entries,
        notes: Vec::new(),
    })
}

/// Adds `analyze`, `Analysis`, `Entry` and `CompositionCheck` to the module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_class::<Analysis>()?;
    m.add_class::<Entry>()?;
    m.add_class::<CompositionCheck>()
}
