//! The mapping of a privacy event to what the accountants compose: a dp_accounting
//! `DpEvent` (read in Python into its class name and attributes, nested events read the
//! same way) or a step of an Opacus history, under a neighbouring relation, becomes a
//! component of `shiftdp.compose` (a PLD part), a certified Rényi curve item (an RDP
//! part), "non-private" (ε = ∞) or nothing (no record touched). Every rounding of the
//! accountants is here: `μ = s/σ` rounded up ([`mu_up`]), with `s = 2` for a Gaussian
//! under replace-one (replacing a record moves the sum by up to twice the clipping norm)
//! and `s = 1` otherwise, and `p = m/n` of a sample without replacement rounded up
//! ([`p_up`]). An invalid value is a `ParameterError` naming the attribute; an event or
//! relation without a certified analysis here is a `NotCertifiedError` saying which are
//! supported.

use pyo3::BoundObject;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt};
use shiftdp::Error;

use crate::components::{
    ApproxDp, DiscreteLaplace, Gaussian, Laplace, MixtureOfGaussians, PoissonGaussian,
    PoissonLaplace, PoissonMixtureOfGaussians, RandomizedResponse, Reals, SubsampledGaussian,
    TruncatedSubsampledGaussian, mu_up, p_up,
};
use crate::to_py_err;

/// The note of every answer of a composition holding a sampled-without-replacement
/// event.
pub(crate) const SWOR_CONVENTION: &str = "SampledWithoutReplacementDpEvent(n, m, GaussianDpEvent(σ)) is read as C_p(G(2/σ)): σ \
     relative to the clipping norm, two clipped gradients differ by 2 norms under \
     REPLACE_ONE (GaussianDpEvent's own definition); dp_accounting's RdpAccountant reads \
     the same event with μ = 1/σ (σ relative to the replace-one sensitivity), so its ε is \
     that of a noise twice as large";

/// dp_accounting's neighbouring relations.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Relation {
    AddOrRemove,
    ReplaceOne,
    ReplaceSpecial,
}

impl Relation {
    fn parse(name: &str) -> PyResult<Relation> {
        match name {
            "ADD_OR_REMOVE_ONE" => Ok(Relation::AddOrRemove),
            "REPLACE_ONE" => Ok(Relation::ReplaceOne),
            "REPLACE_SPECIAL" => Ok(Relation::ReplaceSpecial),
            other => Err(to_py_err(Error::param(
                "neighboring_relation",
                other,
                "one of ADD_OR_REMOVE_ONE, REPLACE_ONE, REPLACE_SPECIAL",
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Relation::AddOrRemove => "ADD_OR_REMOVE_ONE",
            Relation::ReplaceOne => "REPLACE_ONE",
            Relation::ReplaceSpecial => "REPLACE_SPECIAL",
        }
    }

    /// The ℓ2 distance of a Gaussian event's two means in units of its noise
    /// multiplier's norm: replace-one is a removal and an addition.
    fn gaussian_sensitivity(self) -> f64 {
        if self == Relation::ReplaceOne {
            2.0
        } else {
            1.0
        }
    }
}

/// A `NotCertifiedError`: no certified analysis of the event here.
fn refused(reason: String) -> PyErr {
    to_py_err(Error::NotCertified {
        what: "this event".to_string(),
        reason,
    })
}

/// A `ParameterError` naming the attribute.
fn invalid(name: &str, value: impl ToString, reason: &str) -> PyErr {
    to_py_err(Error::param(name, value, reason))
}

/// An event as read in Python: its class name and attributes.
struct Event<'py> {
    name: String,
    fields: Bound<'py, PyDict>,
}

impl<'py> Event<'py> {
    fn of(event: &Bound<'py, PyAny>) -> PyResult<Event<'py>> {
        let (name, fields): (String, Bound<'py, PyDict>) = event.extract()?;
        Ok(Event { name, fields })
    }

    fn get(&self, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.fields.get_item(key)?.ok_or_else(|| {
            invalid(
                key,
                "missing",
                &format!("{} has no attribute {key}", self.name),
            )
        })
    }

    /// A real attribute ([`real_value`]).
    fn real(&self, key: &str) -> PyResult<f64> {
        real_value(key, &self.get(key)?)
    }

    /// A finite real attribute ≥ 0 ([`nonneg_value`]).
    fn nonneg(&self, key: &str) -> PyResult<f64> {
        nonneg_value(key, &self.get(key)?)
    }

    /// A probability attribute in [0, 1].
    fn probability(&self, key: &str) -> PyResult<f64> {
        let v = self.real(key)?;
        if (0.0..=1.0).contains(&v) {
            Ok(v)
        } else {
            Err(invalid(key, v, "must be in [0, 1]"))
        }
    }

    /// An integer attribute ≥ `min` (an `int`, not a `bool`).
    fn integer(&self, key: &str, min: i64) -> PyResult<i64> {
        let x = self.get(key)?;
        integer_value(key, &x, min)
    }

    fn inner(&self, key: &str) -> PyResult<Event<'py>> {
        Event::of(&self.get(key)?)
    }

    /// `Name(attr=value, …)` for a message.
    fn describe(&self) -> String {
        let attrs = self
            .fields
            .iter()
            .map(|(k, v)| {
                let v = Event::of(&v)
                    .map(|e| e.describe())
                    .unwrap_or_else(|_| v.repr().map(|r| r.to_string()).unwrap_or_default());
                format!("{k}={v}")
            })
            .collect::<Vec<_>>();
        format!("{}({})", self.name, attrs.join(", "))
    }

    /// Refused unless the relation is ADD_OR_REMOVE_ONE or REPLACE_SPECIAL (the events
    /// whose noise is relative to the add/remove sensitivity: under REPLACE_ONE the
    /// event does not say the replace-one sensitivity, and dp_accounting refuses them
    /// too).
    fn add_or_remove(&self, relation: Relation) -> PyResult<()> {
        if relation == Relation::ReplaceOne {
            return Err(refused(format!(
                "{} is certified under ADD_OR_REMOVE_ONE and REPLACE_SPECIAL (its noise is \
                 relative to the add/remove sensitivity; the event does not give the \
                 replace-one sensitivity, so REPLACE_ONE is refused, as dp_accounting's PLD \
                 accountant does).",
                self.name
            )));
        }
        Ok(())
    }
}

/// A real value (an `int` or `float`, not a `bool`).
fn real_value(key: &str, x: &Bound<'_, PyAny>) -> PyResult<f64> {
    if x.is_instance_of::<PyBool>()
        || !(x.is_instance_of::<PyInt>() || x.is_instance_of::<PyFloat>())
    {
        return Err(invalid(key, x, "must be a number"));
    }
    x.extract::<f64>()
        .map_err(|_| invalid(key, x, "must be a finite number"))
}

/// A finite real value ≥ 0.
fn nonneg_value(key: &str, x: &Bound<'_, PyAny>) -> PyResult<f64> {
    let v = real_value(key, x)?;
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(invalid(key, v, "must be finite and ≥ 0"))
    }
}

fn integer_value(key: &str, x: &Bound<'_, PyAny>, min: i64) -> PyResult<i64> {
    let refuse = || invalid(key, x, &format!("must be an integer ≥ {min}"));
    if x.is_instance_of::<PyBool>() || !x.is_instance_of::<PyInt>() {
        return Err(refuse());
    }
    match x.extract::<i64>() {
        Ok(v) if v >= min => Ok(v),
        _ => Err(refuse()),
    }
}

/// What an event adds to an accountant's composition.
#[pyclass(frozen, module = "shiftdp")]
pub struct EventPart {
    /// A component of `shiftdp.compose`, `count` times (a PLD part), or `None`.
    #[pyo3(get)]
    component: Option<Py<PyAny>>,
    /// A certified Rényi curve item `(kind, parameters)` (answered through RDP), or
    /// `None`.
    #[pyo3(get)]
    rdp: Option<(String, Vec<f64>)>,
    /// Whether the event is non-private (ε = ∞).
    #[pyo3(get)]
    non_private: bool,
    /// A convention a reader comparing with another accountant needs, or `None`.
    #[pyo3(get)]
    convention: Option<String>,
}

impl EventPart {
    fn nothing() -> EventPart {
        EventPart {
            component: None,
            rdp: None,
            non_private: false,
            convention: None,
        }
    }

    fn non_private() -> EventPart {
        EventPart {
            non_private: true,
            ..EventPart::nothing()
        }
    }

    fn pld<'py, T>(py: Python<'py>, c: T) -> PyResult<EventPart>
    where
        T: IntoPyObject<'py>,
        PyErr: From<T::Error>,
    {
        Ok(EventPart {
            component: Some(c.into_pyobject(py)?.into_any().unbind()),
            ..EventPart::nothing()
        })
    }

    fn rdp(kind: &str, params: Vec<f64>) -> EventPart {
        EventPart {
            rdp: Some((kind.to_string(), params)),
            ..EventPart::nothing()
        }
    }
}

#[pymethods]
impl EventPart {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let c = match &self.component {
            Some(c) => c.bind(py).repr()?.to_string(),
            None => "None".to_string(),
        };
        Ok(format!(
            "EventPart(component={c}, rdp={:?}, non_private={})",
            self.rdp,
            if self.non_private { "True" } else { "False" }
        ))
    }
}

/// Nothing when `nothing` (no step, or no record touched), non-private when `free` (no
/// noise), else the component `make()`.
fn outcome<'py, T>(
    py: Python<'py>,
    nothing: bool,
    free: bool,
    make: impl FnOnce() -> PyResult<T>,
) -> PyResult<EventPart>
where
    T: IntoPyObject<'py>,
    PyErr: From<T::Error>,
{
    if nothing {
        Ok(EventPart::nothing())
    } else if free {
        Ok(EventPart::non_private())
    } else {
        EventPart::pld(py, make()?)
    }
}

/// The Poisson-subsampled Gaussian step (q, σ) under add-or-remove, `count` times: G
/// subsampled with probability q, `μ = 1/σ` rounded up; σ = 0 is non-private, q = 0
/// touches no record. `q_name` and `sigma_name` are the attributes named in errors.
fn poisson_gaussian(
    py: Python<'_>,
    (q_name, q): (&str, f64),
    (sigma_name, sigma): (&str, f64),
    count: i64,
) -> PyResult<EventPart> {
    if !(0.0..=1.0).contains(&q) {
        return Err(invalid(
            q_name,
            q,
            "must be in [0, 1] (a sampling probability)",
        ));
    }
    if !(sigma.is_finite() && sigma >= 0.0) {
        return Err(invalid(
            sigma_name,
            sigma,
            "noise multiplier σ must be finite and ≥ 0",
        ));
    }
    outcome(py, count == 0 || q == 0.0, sigma == 0.0, || {
        let mu = mu_up(sigma, 1.0).map_err(to_py_err)?;
        Ok(PoissonGaussian::of(q, mu, Some(sigma), count))
    })
}

/// The sampling probability of an enclosing `PoissonSampledDpEvent` (1 without one):
/// certified under ADD_OR_REMOVE_ONE only.
fn poisson_q(sampled: Option<&Event<'_>>, relation: Relation) -> PyResult<f64> {
    let Some(s) = sampled else { return Ok(1.0) };
    if relation != Relation::AddOrRemove {
        return Err(refused(format!(
            "shiftdp certifies Poisson subsampling under ADD_OR_REMOVE_ONE only (both \
             orders of the add/remove pair); found NeighboringRelation.{}. Use \
             CertifiedPLDAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE).",
            relation.name()
        )));
    }
    s.probability("sampling_probability")
}

/// `LaplaceDpEvent` or `MixtureOfGaussiansDpEvent` (noise relative to the add/remove
/// sensitivity), Poisson-subsampled when `sampled` is the enclosing event.
fn add_or_remove_event(
    py: Python<'_>,
    e: &Event<'_>,
    sampled: Option<&Event<'_>>,
    relation: Relation,
    count: i64,
) -> PyResult<EventPart> {
    e.add_or_remove(relation)?;
    let q = poisson_q(sampled, relation)?;
    let q = sampled.map(|_| q);
    if e.name == "LaplaceDpEvent" {
        laplace(py, e, q, count)
    } else {
        mixture(py, e, q, count)
    }
}

/// `LaplaceDpEvent(b)`: Laplace(b) at sensitivity 1, Poisson-subsampled with
/// probability `q` when given.
fn laplace(py: Python<'_>, e: &Event<'_>, q: Option<f64>, count: i64) -> PyResult<EventPart> {
    let b = e.nonneg("noise_multiplier")?;
    let nothing = count == 0 || q == Some(0.0);
    match q {
        None => outcome(py, nothing, b == 0.0, || Ok(Laplace::of(b, 1.0, count))),
        Some(q) => outcome(py, nothing, b == 0.0, || {
            Ok(PoissonLaplace::of(q, b, 1.0, count))
        }),
    }
}

/// `MixtureOfGaussiansDpEvent(σ, sensitivities, sampling_probs)` (both orders of the
/// add/remove pair), Poisson-subsampled with probability `q` when given.
fn mixture(py: Python<'_>, e: &Event<'_>, q: Option<f64>, count: i64) -> PyResult<EventPart> {
    let sigma = e.nonneg("standard_deviation")?;
    let list = |key: &str| -> PyResult<Vec<f64>> {
        e.get(key)?
            .try_iter()?
            .enumerate()
            .map(|(i, x)| nonneg_value(&format!("{key}[{i}]"), &x?))
            .collect()
    };
    let (cs, ps) = (list("sensitivities")?, list("sampling_probs")?);
    if cs.len() != ps.len() || cs.is_empty() {
        return Err(invalid(
            "sampling_probs",
            format!("{} probabilities for {} sensitivities", ps.len(), cs.len()),
            "sensitivities and sampling_probs must have the same positive length",
        ));
    }
    if let Some(p) = ps.iter().find(|p| **p > 1.0) {
        return Err(invalid("sampling_probs", p, "must be in [0, 1]"));
    }
    let sum = neumaier_sum(&ps);
    if (sum - 1.0).abs() > 1e-9 {
        return Err(invalid("sampling_probs", sum, "must sum to 1"));
    }
    let private = cs.iter().zip(&ps).any(|(c, p)| *c > 0.0 && *p > 0.0);
    let (cs, ps) = (Reals(cs), Reals(ps));
    let nothing = count == 0 || q == Some(0.0) || !private;
    match q {
        None => outcome(py, nothing, sigma == 0.0, || {
            Ok(MixtureOfGaussians::of(sigma, cs, ps, count))
        }),
        Some(q) => outcome(py, nothing, sigma == 0.0, || {
            Ok(PoissonMixtureOfGaussians::of(q, sigma, cs, ps, count))
        }),
    }
}

/// Σ xᵢ with Neumaier's compensation (the probabilities of a mixture are checked to
/// sum to 1 within 1e-9).
fn neumaier_sum(xs: &[f64]) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for &x in xs {
        let t = s + x;
        c += if s.abs() >= x.abs() {
            (s - t) + x
        } else {
            (x - t) + s
        };
        s = t;
    }
    s + c
}

/// `SampledWithoutReplacementDpEvent(n, m, GaussianDpEvent(σ))` under REPLACE_ONE:
/// `C_p(G(2/σ))` with `p = m/n` rounded up (DRS22 Thm 9, BSA24 Thm 4.8 with gradient
/// sensitivity L = 2C).
fn sampled_without_replacement(
    py: Python<'_>,
    e: &Event<'_>,
    relation: Relation,
    count: i64,
) -> PyResult<EventPart> {
    if relation != Relation::ReplaceOne {
        return Err(refused(format!(
            "SampledWithoutReplacementDpEvent is certified under REPLACE_ONE only (a \
             fixed-size sample of a data set of public size n; the subsampling theorem C_p is \
             for replace-one neighbours); found NeighboringRelation.{}. Use \
             CertifiedPLDAccountant(NeighboringRelation.REPLACE_ONE).",
            relation.name()
        )));
    }
    let inner = e.inner("event")?;
    if inner.name != "GaussianDpEvent" {
        return Err(refused(format!(
            "shiftdp supports SampledWithoutReplacementDpEvent of a GaussianDpEvent only; found {}",
            inner.describe()
        )));
    }
    let n = e.integer("source_dataset_size", 0)?;
    let m = e.integer("sample_size", 0)?;
    if n < 1 || m > n {
        return Err(invalid(
            "sample_size / source_dataset_size",
            format!("{m}/{n}"),
            "the sampling probability must be in [0, 1] (0 ≤ sample_size ≤ \
             source_dataset_size, source_dataset_size ≥ 1)",
        ));
    }
    let sigma = inner.nonneg("noise_multiplier")?;
    let mut part = outcome(py, count == 0 || m == 0, sigma == 0.0, || {
        let p = p_up(m as u64, n as u64).map_err(to_py_err)?;
        let mu = mu_up(sigma, 2.0).map_err(to_py_err)?;
        Ok(SubsampledGaussian::of(p, mu, Some(sigma), count))
    })?;
    if part.component.is_some() {
        part.convention = Some(SWOR_CONVENTION.to_string());
    }
    Ok(part)
}

/// zCDP, single-epoch tree aggregation and repeat-and-select: certified Rényi curves
/// (`shiftdp::renyi::events`), composed in RDP and converted.
fn renyi(e: &Event<'_>, relation: Relation, count: i64) -> PyResult<EventPart> {
    match e.name.as_str() {
        "ZCDpEvent" => {
            let (rho, xi) = (e.nonneg("rho")?, e.nonneg("xi")?);
            if count == 0 || (rho == 0.0 && xi == 0.0) {
                return Ok(EventPart::nothing());
            }
            Ok(EventPart::rdp("zcdp", vec![rho, xi]))
        }
        "SingleEpochTreeAggregationDpEvent" => {
            if relation != Relation::ReplaceSpecial {
                return Err(refused(format!(
                    "SingleEpochTreeAggregationDpEvent is certified under REPLACE_SPECIAL only \
                     (Kairouz et al. 2021, as dp_accounting); found NeighboringRelation.{}.",
                    relation.name()
                )));
            }
            let sigma = e.nonneg("noise_multiplier")?;
            let raw = e.get("step_counts")?;
            let steps: Vec<i64> = if raw.is_instance_of::<PyInt>() {
                vec![integer_value("step_counts", &raw, 0)?]
            } else {
                raw.try_iter()?
                    .map(|k| integer_value("step_counts", &k?, 0))
                    .collect::<PyResult<_>>()?
            };
            let Some(&most) = steps.iter().max() else {
                return Err(invalid("step_counts", "[]", "give at least one step count"));
            };
            if count == 0 || most == 0 {
                return Ok(EventPart::nothing());
            }
            if sigma == 0.0 {
                return Ok(EventPart::non_private());
            }
            let mut v = vec![sigma];
            v.extend(steps.iter().map(|k| *k as f64));
            Ok(EventPart::rdp("tree_aggregation", v))
        }
        _ => {
            let mean = e.real("mean")?;
            let shape = e.real("shape")?;
            let valid = mean.is_finite() && mean >= 1.0 && shape >= 0.0;
            if !valid {
                return Err(invalid(
                    "mean, shape",
                    format!("({mean}, {shape})"),
                    "need mean ≥ 1 (finite) and shape ≥ 0",
                ));
            }
            let inner = e.inner("event")?;
            let noise = inner.nonneg("noise_multiplier").ok().filter(|s| *s > 0.0);
            let (kind, last) = match (inner.name.as_str(), noise) {
                ("GaussianDpEvent", Some(s)) => (
                    "repeat_and_select_gaussian",
                    mu_up(s, relation.gaussian_sensitivity()).map_err(to_py_err)?,
                ),
                ("LaplaceDpEvent", Some(b)) => {
                    inner.add_or_remove(relation)?;
                    ("repeat_and_select_laplace", b)
                }
                _ => {
                    return Err(refused(format!(
                        "shiftdp certifies RepeatAndSelectDpEvent of a Gaussian or Laplace event \
                         (noise > 0) only; found {}",
                        inner.describe()
                    )));
                }
            };
            if count == 0 {
                return Ok(EventPart::nothing());
            }
            Ok(EventPart::rdp(kind, vec![mean, shape, last]))
        }
    }
}

/// What `event` — `(class name, attributes)` of a dp_accounting `DpEvent` other than the
/// composite ones (`NoOp`, `NonPrivate`, `SelfComposed`, `Composed`, which the
/// accountant walks), or `("OpacusStep", {"noise_multiplier": σ, "sample_rate": q})`
/// for a step of an Opacus history — adds, `count` times, under `relation` (the name of
/// a `NeighboringRelation`): see the module's documentation for the formulas and
/// roundings. An invalid value raises `ParameterError` naming the attribute; an event
/// or relation without a certified analysis raises `NotCertifiedError`.
#[pyfunction]
pub(crate) fn map_event(
    py: Python<'_>,
    event: &Bound<'_, PyAny>,
    relation: &str,
    count: i64,
) -> PyResult<EventPart> {
    if count < 0 {
        return Err(invalid("count", count, "must be an integer ≥ 0"));
    }
    let e = Event::of(event)
        .map_err(|_| PyTypeError::new_err("event: expected (class name, attributes dict)"))?;
    let relation = Relation::parse(relation)?;
    match e.name.as_str() {
        "OpacusStep" => poisson_gaussian(
            py,
            ("sample_rate", e.real("sample_rate")?),
            ("noise_multiplier", e.real("noise_multiplier")?),
            count,
        ),
        "GaussianDpEvent" => {
            let sigma = e.nonneg("noise_multiplier")?;
            outcome(py, count == 0, sigma == 0.0, || {
                let mu = mu_up(sigma, relation.gaussian_sensitivity()).map_err(to_py_err)?;
                Ok(Gaussian::of(mu, None, count))
            })
        }
        "LaplaceDpEvent" | "MixtureOfGaussiansDpEvent" => {
            add_or_remove_event(py, &e, None, relation, count)
        }
        "DiscreteLaplaceDpEvent" => {
            e.add_or_remove(relation)?;
            let a = e.nonneg("noise_parameter")?;
            let sensitivity = e.integer("sensitivity", 1)?;
            outcome(py, count == 0, a == 0.0, || {
                Ok(DiscreteLaplace::of(a, sensitivity, count))
            })
        }
        "RandomizedResponseDpEvent" => {
            if relation != Relation::ReplaceOne {
                return Err(refused(format!(
                    "RandomizedResponseDpEvent is certified under REPLACE_ONE (neighbours differ \
                     in one respondent's value, dp_accounting's symmetric pair); found \
                     NeighboringRelation.{}. Use CertifiedPLDAccountant(NeighboringRelation.REPLACE_ONE).",
                    relation.name()
                )));
            }
            let p = e.probability("noise_parameter")?;
            let k = e.integer("num_buckets", 1)?;
            outcome(py, count == 0 || k == 1, p == 0.0, || {
                Ok(RandomizedResponse::of(p, k, count))
            })
        }
        "EpsilonDeltaDpEvent" => {
            let (eps, delta) = (e.nonneg("epsilon")?, e.probability("delta")?);
            if count == 0 {
                return Ok(EventPart::nothing());
            }
            EventPart::pld(py, ApproxDp::of(eps, delta, count))
        }
        "TruncatedSubsampledGaussianDpEvent" => {
            if relation != Relation::AddOrRemove {
                return Err(refused(format!(
                    "TruncatedSubsampledGaussianDpEvent is certified under ADD_OR_REMOVE_ONE \
                     (dp_accounting's add/remove pair); found NeighboringRelation.{}.",
                    relation.name()
                )));
            }
            let n = e.integer("dataset_size", 0)?;
            let b = e.integer("truncated_batch_size", 0)?;
            let q = e.probability("sampling_probability")?;
            let sigma = e.nonneg("noise_multiplier")?;
            let nothing = count == 0 || q == 0.0 || b == 0 || n == 0;
            outcome(py, nothing, sigma == 0.0, || {
                Ok(TruncatedSubsampledGaussian::of(n, q, b, sigma, count))
            })
        }
        "PoissonSampledDpEvent" => {
            let inner = e.inner("event")?;
            match inner.name.as_str() {
                "LaplaceDpEvent" | "MixtureOfGaussiansDpEvent" => {
                    add_or_remove_event(py, &inner, Some(&e), relation, count)
                }
                "GaussianDpEvent" => {
                    if relation != Relation::AddOrRemove {
                        return Err(refused(format!(
                            "shiftdp certifies the Poisson-subsampled Gaussian under \
                             ADD_OR_REMOVE_ONE only (its add/remove component); found \
                             NeighboringRelation.{}. Use \
                             CertifiedPLDAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE).",
                            relation.name()
                        )));
                    }
                    poisson_gaussian(
                        py,
                        ("sampling_probability", e.real("sampling_probability")?),
                        ("noise_multiplier", inner.real("noise_multiplier")?),
                        count,
                    )
                }
                _ => Err(refused(format!(
                    "shiftdp supports PoissonSampledDpEvent of a Gaussian, Laplace or \
                     MixtureOfGaussians event only; found {}",
                    inner.describe()
                ))),
            }
        }
        "SampledWithoutReplacementDpEvent" => sampled_without_replacement(py, &e, relation, count),
        "ZCDpEvent" | "SingleEpochTreeAggregationDpEvent" | "RepeatAndSelectDpEvent" => {
            renyi(&e, relation, count)
        }
        other => Err(refused(format!(
            "shiftdp's certified accountant does not support {other} (supported: Gaussian, \
             Laplace, DiscreteLaplace, MixtureOfGaussians, TruncatedSubsampledGaussian, ZCDp, \
             SingleEpochTreeAggregation (REPLACE_SPECIAL), RepeatAndSelect of a Gaussian or \
             Laplace (via RDP), PoissonSampled(Gaussian, Laplace or MixtureOfGaussians) under \
             ADD_OR_REMOVE_ONE, RandomizedResponse and SampledWithoutReplacement(Gaussian) \
             under REPLACE_ONE, SelfComposed, Composed, NoOp, NonPrivate)"
        ))),
    }
}

/// Whether `name` is an event answered through Rényi DP only.
#[pyfunction]
pub(crate) fn is_rdp_event(name: &str) -> bool {
    matches!(
        name,
        "ZCDpEvent" | "SingleEpochTreeAggregationDpEvent" | "RepeatAndSelectDpEvent"
    )
}

/// Adds the functions and classes of the mapping to the module.
pub(crate) fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(map_event, m)?)?;
    m.add_function(wrap_pyfunction!(is_rdp_event, m)?)?;
    m.add_class::<EventPart>()?;
    m.add("SWOR_CONVENTION", SWOR_CONVENTION)?;
    Ok(())
}
