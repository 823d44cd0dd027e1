//! `shiftdp.check_claim` and `shiftdp.check_sampler_claim`: a claimed bound checked over a
//! family of settings (`shiftdp_verify::claim`, `shiftdp_verify::sampler_claim`), as a
//! frozen [`ClaimCheck`] of [`Obligation`]s.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::types::fields_repr;
use crate::{finite, interruptible, mpfr_bits};
use shiftdp::Error;
use shiftdp_verify::report::esc;

/// A parameter point where a check failed, and what failed there. `params` is a dict
/// from parameter name to its decimal value, in the order the check names them.
#[pyclass(frozen, eq, from_py_object, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct Counterexample {
    params: Vec<(String, String)>,
    /// What failed at the point.
    #[pyo3(get)]
    detail: String,
}

impl Counterexample {
    fn params_text(&self) -> String {
        let ps: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        ps.join(" ")
    }
}

#[pymethods]
impl Counterexample {
    #[new]
    fn new(params: &Bound<'_, PyDict>, detail: String) -> PyResult<Counterexample> {
        let params = params
            .iter()
            .map(|(k, v)| Ok((k.extract::<String>()?, v.extract::<String>()?)))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Counterexample { params, detail })
    }

    /// The point: parameter name → decimal value.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.params {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (self.params(py)?, &self.detail).into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        fields_repr(
            "Counterexample",
            &["params", "detail"],
            &self.__getnewargs__(py)?,
        )
    }
}

/// One obligation of a claim check (soundness against exact instances, or the
/// comparison with the certified optimum of the shift analysis): its status (`"pass"`,
/// `"fail"` or `"error"`), a summary, the points checked, the smallest margin and the
/// first failing point.
#[pyclass(frozen, eq, get_all, from_py_object, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct Obligation {
    /// The obligation's label.
    pub label: String,
    /// What it checks.
    pub kind: String,
    /// `"pass"`, `"fail"` or `"error"`.
    pub status: String,
    /// One line of what was found.
    pub summary: String,
    /// Points checked.
    pub points: usize,
    /// The smallest margin over the points, if any was computed.
    pub min_margin: Option<f64>,
    /// The first failing point.
    pub counterexample: Option<Counterexample>,
}

#[pymethods]
impl Obligation {
    #[new]
    fn new(
        label: String,
        kind: String,
        status: String,
        summary: String,
        points: usize,
        min_margin: Option<f64>,
        counterexample: Option<Counterexample>,
    ) -> Obligation {
        Obligation {
            label,
            kind,
            status,
            summary,
            points,
            min_margin,
            counterexample,
        }
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            &self.label,
            &self.kind,
            &self.status,
            &self.summary,
            self.points,
            self.min_margin,
            self.counterexample.clone(),
        )
            .into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        fields_repr(
            "Obligation",
            &[
                "label",
                "kind",
                "status",
                "summary",
                "points",
                "min_margin",
                "counterexample",
            ],
            &self.__getnewargs__(py)?,
        )
    }
}

/// The verdict of `check_claim`: `status` is the worst obligation's (`"pass"`, `"fail"`
/// or `"error"`); `counterexample` the first failing point. `bool(check)` is `passed`.
#[pyclass(frozen, eq, get_all, from_py_object, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct ClaimCheck {
    /// The claim as given.
    pub claim: String,
    /// The family of settings (or sampler and relation) it was checked over.
    pub family: String,
    /// The worst obligation's status.
    pub status: String,
    /// The obligations, in the order they were checked.
    pub obligations: Vec<Obligation>,
}

#[pymethods]
impl ClaimCheck {
    #[new]
    fn new(
        claim: String,
        family: String,
        status: String,
        obligations: Vec<Obligation>,
    ) -> ClaimCheck {
        ClaimCheck {
            claim,
            family,
            status,
            obligations,
        }
    }

    /// Whether every obligation passed.
    #[getter]
    fn passed(&self) -> bool {
        self.status == "pass"
    }

    /// The first failing point, if any.
    #[getter]
    fn counterexample(&self) -> Option<Counterexample> {
        self.obligations
            .iter()
            .find_map(|o| o.counterexample.clone())
    }

    fn __bool__(&self) -> bool {
        self.passed()
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            &self.claim,
            &self.family,
            &self.status,
            self.obligations.clone(),
        )
            .into_pyobject(py)
    }

    fn _repr_html_(&self) -> String {
        let rows: String = self
            .obligations
            .iter()
            .map(|o| {
                let cx = match &o.counterexample {
                    Some(c) => format!(
                        "<br><small>counterexample: {}: {}</small>",
                        esc(&c.params_text()),
                        esc(&c.detail)
                    ),
                    None => String::new(),
                };
                format!(
                    "<tr><td>{}</td><td>{}</td><td>{}{cx}</td></tr>",
                    esc(&o.status),
                    esc(&o.label),
                    esc(&o.summary)
                )
            })
            .collect();
        format!(
            "<p>claim <code>{}</code> over {}: <b>{}</b></p><table><tr><th>status</th><th>obligation</th><th>summary</th></tr>{rows}</table>",
            esc(&self.claim),
            esc(&self.family),
            esc(&self.status)
        )
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let claim = self.claim.clone().into_pyobject(py)?.repr()?;
        let mut lines = vec![format!(
            "ClaimCheck({claim} over {}: {})",
            self.family, self.status
        )];
        for o in &self.obligations {
            lines.push(format!("  [{}] {}: {}", o.status, o.label, o.summary));
            if let Some(c) = &o.counterexample {
                lines.push(format!(
                    "    counterexample: {}: {}",
                    c.params_text(),
                    c.detail
                ));
            }
        }
        Ok(lines.join("\n"))
    }
}

/// The check of `claim` over `family`: the worst status and each obligation.
fn verdict(claim: String, family: String, r: &shiftdp_verify::ResultRun) -> ClaimCheck {
    let obligations = r
        .runs
        .iter()
        .map(|o| Obligation {
            label: o.label.clone(),
            kind: o.kind.clone(),
            status: o.outcome.status.as_str().to_string(),
            summary: o.outcome.summary.clone(),
            points: o.outcome.points,
            min_margin: o.outcome.min_margin,
            counterexample: o.outcome.counterexample.as_ref().map(|c| Counterexample {
                params: c.params.clone(),
                detail: c.detail.clone(),
            }),
        })
        .collect();
    ClaimCheck {
        claim,
        family,
        status: r.status().as_str().to_string(),
        obligations,
    }
}

/// Checks a claimed bound `mu <= EXPR` / `mu = EXPR` over a setting family
/// (`shiftdp_verify::claim::check_claim`): soundness against the exact instances and
/// comparison with the certified optimum of the shift analysis.
#[pyfunction]
#[pyo3(signature = (claim, family, region=None, tolerance=1e-6, samples=None, seed=1, bits=128))]
#[allow(clippy::too_many_arguments)]
fn check_claim(
    py: Python<'_>,
    claim: &str,
    family: &str,
    region: Option<&str>,
    tolerance: f64,
    samples: Option<usize>,
    seed: u64,
    bits: i64,
) -> PyResult<ClaimCheck> {
    let (claim, family, region) = (
        claim.to_string(),
        family.to_string(),
        region.map(str::to_string),
    );
    let run = move || -> Result<_, Error> {
        let tolerance = finite("tolerance", tolerance)?;
        let bits = mpfr_bits(bits)?;
        let region = match &region {
            Some(r) => shiftdp_verify::check::region::parse_region(r)?,
            None => vec![],
        };
        let ctx = shiftdp_verify::outcome::Ctx {
            samples,
            seed,
            bits,
        };
        let r = shiftdp_verify::claim::check_claim(&claim, &family, &region, tolerance, &ctx)?;
        Ok(verdict(claim, family, &r))
    };
    interruptible(py, run)
}

/// A claimed `epsilon <= EXPR` for a batch sampler checked over a grid of runs against
/// the sampler's certified lower and upper bounds
/// (`shiftdp_verify::sampler_claim::check_sampler_claim`); the family is
/// `"SAMPLER (RELATION)"`.
#[pyfunction]
#[pyo3(signature = (claim, sampler, relation="zero-out", region=None, bits=128))]
fn check_sampler_claim(
    py: Python<'_>,
    claim: &str,
    sampler: &str,
    relation: &str,
    region: Option<&str>,
    bits: i64,
) -> PyResult<ClaimCheck> {
    use shiftdp::samplers::{Relation, Sampler};
    use shiftdp_verify::sampler_claim::SamplerRegion;
    let (claim, sampler, relation, region) = (
        claim.to_string(),
        sampler.to_string(),
        relation.to_string(),
        region.map(str::to_string),
    );
    let run = move || -> Result<_, Error> {
        let bits = mpfr_bits(bits)?;
        let region = match &region {
            Some(r) => SamplerRegion::parse(r)?,
            None => SamplerRegion::default(),
        };
        let r = shiftdp_verify::sampler_claim::check_sampler_claim(
            &claim,
            Sampler::parse(&sampler)?,
            Relation::parse(&relation)?,
            &region,
            bits,
        )?;
        Ok(verdict(claim, format!("{sampler} ({relation})"), &r))
    };
    interruptible(py, run)
}

/// Adds `check_claim`, `check_sampler_claim` and their classes to the module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_claim, m)?)?;
    m.add_function(wrap_pyfunction!(check_sampler_claim, m)?)?;
    m.add_class::<ClaimCheck>()?;
    m.add_class::<Obligation>()?;
    m.add_class::<Counterexample>()
}
