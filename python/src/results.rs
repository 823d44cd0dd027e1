//! `shiftdp.results()`: the registry of published results the toolkit implements
//! (`shiftdp::results::REGISTRY`), as frozen [`PaperResult`] records.

use pyo3::prelude::*;
use shiftdp_verify::check::{Tested, how_tested};

/// One published result of the registry: its id, paper, how its guarantee is stated,
/// the algorithms whose runs it concerns, its proof file and how the validator tests it.
#[pyclass(frozen, eq, get_all, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct PaperResult {
    /// The id every output prints, e.g. ``"BSA24 Thm 4.5"``.
    pub id: String,
    /// The paper (``"BSA24"``, ``"CYS21"``, ``"YS22"``, ``"AT22"`` or ``"baseline"``).
    pub paper: String,
    /// ``"f-DP"`` or ``"RDP"``.
    pub family: String,
    /// The algorithms (``"gd"``, ``"cgd"``, ``"sgd"``, ``"lmc"``) whose runs it concerns.
    pub algorithms: Vec<String>,
    /// The ``proofs/`` file that states it, its hypotheses and obligations.
    pub proof_file: Option<String>,
    /// Whether `analyze` may mark it best (a statement about the run in replace-one
    /// adjacency).
    pub eligible_for_best: bool,
    /// Whether the validator samples it against exact instances.
    pub sampled: bool,
    /// Why the validator does not sample it (what tests it instead), when it does not.
    pub not_sampled_because: Option<String>,
}

#[pymethods]
impl PaperResult {
    fn __repr__(&self) -> String {
        format!(
            "PaperResult(id={:?}, family={:?}, algorithms={:?})",
            self.id, self.family, self.algorithms
        )
    }
}

/// The registry's results in the order `analyze` lists them, or those that concern
/// runs of `algorithm`.
#[pyfunction]
#[pyo3(signature = (algorithm=None))]
pub fn results(algorithm: Option<&str>) -> PyResult<Vec<PaperResult>> {
    let only = algorithm
        .map(crate::algorithm)
        .transpose()
        .map_err(crate::to_py_err)?;
    Ok(shiftdp::results::REGISTRY
        .iter()
        .filter(|r| only.is_none_or(|a| r.algorithms().contains(&a)))
        .map(|r| {
            let tested = how_tested(r.id());
            PaperResult {
                id: r.id().as_str().to_string(),
                paper: r.id().paper().as_str().to_string(),
                family: r.family().as_str().to_string(),
                algorithms: r
                    .algorithms()
                    .iter()
                    .map(|a| a.name().to_string())
                    .collect(),
                proof_file: r.id().proof_file().map(str::to_string),
                eligible_for_best: r.eligible(),
                sampled: tested == Some(Tested::Sampled),
                not_sampled_because: match tested {
                    Some(Tested::NotSampled(why)) => Some(why.to_string()),
                    _ => None,
                },
            }
        })
        .collect())
}

/// Adds `results` and `PaperResult` to the module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(results, m)?)?;
    m.add_class::<PaperResult>()
}
