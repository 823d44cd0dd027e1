//! `shiftdp.calibrate_dpsgd` and `shiftdp.calibrate_run`: the smallest noise whose
//! certified ε(δ) meets a target (`shiftdp::calibrate`), as a frozen [`Calibration`].

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::types::{fields_repr, pyformat};
use crate::{Num, algorithm, finite, interruptible, raw_setting};
use shiftdp::Error;
use shiftdp_verify::report::esc;

/// The smallest noise multiplier σ whose **certified** ε(δ) meets a target
/// (`shiftdp calibrate`): `sigma` was evaluated and certifies `epsilon` ≤ target (a larger
/// σ is at least as private); at `sigma_below` (within the search resolution) the target
/// could not be certified (`epsilon_below` is its certified ε, or None). `source` names
/// the accountant or result that certifies it; `tolerance` is the composition engine's
/// width goal at which `sigma` is certified, when the engine was used
/// (`compose(..., tolerance=...)` at `sigma` reproduces `epsilon`). `float(c)` is `sigma`.
#[pyclass(frozen, eq, get_all, from_py_object, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct Calibration {
    /// The calibrated noise multiplier σ (certifies the target).
    pub sigma: f64,
    /// The certified ε at `sigma`.
    pub epsilon: f64,
    /// The accountant or result that certifies it.
    pub source: String,
    /// The σ below `sigma` by the search resolution, at which the target is not certified.
    pub sigma_below: f64,
    /// The certified ε at `sigma_below`, if any.
    pub epsilon_below: Option<f64>,
    /// Certified evaluations the search made.
    pub evaluations: usize,
    /// The composition engine's width goal at `sigma`, when the engine was used.
    pub tolerance: Option<f64>,
}

const FIELDS: [&str; 7] = [
    "sigma",
    "epsilon",
    "source",
    "sigma_below",
    "epsilon_below",
    "evaluations",
    "tolerance",
];

#[pymethods]
impl Calibration {
    #[new]
    #[pyo3(signature = (sigma, epsilon, source, sigma_below, epsilon_below, evaluations, tolerance=None))]
    fn new(
        sigma: f64,
        epsilon: f64,
        source: String,
        sigma_below: f64,
        epsilon_below: Option<f64>,
        evaluations: usize,
        tolerance: Option<f64>,
    ) -> Calibration {
        Calibration {
            sigma,
            epsilon,
            source,
            sigma_below,
            epsilon_below,
            evaluations,
            tolerance,
        }
    }

    fn __float__(&self) -> f64 {
        self.sigma
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.sigma,
            self.epsilon,
            &self.source,
            self.sigma_below,
            self.epsilon_below,
            self.evaluations,
            self.tolerance,
        )
            .into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        fields_repr("Calibration", &FIELDS, &self.__getnewargs__(py)?)
    }

    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let below = match self.epsilon_below {
            None => "not certified".to_string(),
            Some(e) => format!("ε ≤ {}", pyformat(py, e, ".6g")?),
        };
        Ok(format!(
            "<b>σ ≥ {}</b> certifies ε ≤ {} ({}); σ = {} gives {below}",
            pyformat(py, self.sigma, ".6g")?,
            pyformat(py, self.epsilon, ".6g")?,
            esc(&self.source),
            pyformat(py, self.sigma_below, ".6g")?
        ))
    }
}

impl From<shiftdp::calibrate::Calibration> for Calibration {
    fn from(c: shiftdp::calibrate::Calibration) -> Calibration {
        Calibration {
            sigma: c.sigma,
            epsilon: c.epsilon,
            source: c.source,
            sigma_below: c.sigma_below,
            epsilon_below: c.epsilon_below,
            evaluations: c.evaluations,
            tolerance: c.tolerance,
        }
    }
}

/// The smallest noise multiplier σ whose certified ε(δ) of DP-SGD (Poisson sampling
/// rate q, `steps` steps, add/remove) is ≤ `epsilon` (`shiftdp::calibrate`).
#[pyfunction]
#[pyo3(signature = (q, steps, delta, epsilon, resolution=1e-3))]
fn calibrate_poisson(
    py: Python<'_>,
    q: f64,
    steps: u64,
    delta: f64,
    epsilon: f64,
    resolution: f64,
) -> PyResult<Calibration> {
    interruptible(py, move || {
        let p = shiftdp::calibrate::PoissonGaussian::new(
            finite("q", q)?,
            steps,
            finite("delta", delta)?,
        )?;
        shiftdp::calibrate::smallest_noise(&p, finite("epsilon", epsilon)?, resolution)
            .map(Calibration::from)
    })
}

/// The smallest σ whose best certified bound of a run (or of the result `only`) at δ is
/// ≤ `epsilon`; `setting` is the run without its noise.
#[pyfunction]
#[pyo3(signature = (algorithm_name, setting, delta, epsilon, only=None, resolution=1e-3))]
fn calibrate_run(
    py: Python<'_>,
    algorithm_name: &str,
    setting: Vec<(String, Num)>,
    delta: Num,
    epsilon: f64,
    only: Option<String>,
    resolution: f64,
) -> PyResult<Calibration> {
    let alg = algorithm_name.to_string();
    interruptible(py, move || {
        let alg = algorithm(&alg)?;
        let raw = raw_setting(&setting)?;
        let only = match only {
            Some(name) => Some(shiftdp::ResultId::parse(&name).ok_or_else(|| {
                Error::param(
                    "only",
                    &name,
                    "unknown result id (see analyze(...).entries)",
                )
            })?),
            None => None,
        };
        let p = shiftdp::calibrate::RunBounds::new(alg, raw, &delta.text("delta")?, only)?;
        shiftdp::calibrate::smallest_noise(&p, finite("epsilon", epsilon)?, resolution)
            .map(Calibration::from)
    })
}

/// Adds `calibrate_poisson`, `calibrate_run` and `Calibration` to the module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(calibrate_poisson, m)?)?;
    m.add_function(wrap_pyfunction!(calibrate_run, m)?)?;
    m.add_class::<Calibration>()
}
