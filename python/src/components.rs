//! The component classes of `shiftdp.compose` (`Gaussian`, `PoissonGaussian`, `Laplace`,
//! …): frozen Python classes holding their parameters as given and a `count`.
//!
//! A parameter's type is checked when the object is built (a `TypeError` for a
//! non-number, a `ParameterError` naming it for text that is no number or an integer
//! out of range); its domain (p ∈ [0, 1], μ ≥ 0, count ≥ 1, …) when the component is
//! composed, by the library's constructors through [`crate::component`], with the
//! parameter named. The noise multiplier of the Gaussian family is the exception: it
//! becomes `μ = s/σ` when the object is built ([`mu_up`]), so σ must then be finite and
//! > 0.

use pyo3::BoundObject;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple};
use shiftdp::Error;
use shiftdp::precision::rounding::div_up_f64;

use crate::types::fields_repr;
use crate::{ParameterError, to_py_err};

/// A real parameter: an `int`, `float`, `decimal.Decimal`, numpy scalar (anything with
/// `__float__`) or numeric text; `TypeError` for a `bool` or a non-number,
/// `ParameterError` naming `name` for text that is no number or an `int` beyond the
/// doubles.
pub(crate) fn real_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<f64> {
    let not_a_float =
        |why: String| to_py_err(Error::param(name, x, &format!("not a float ({why})")));
    if x.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected a number, got a bool"
        )));
    }
    if x.is_instance_of::<PyString>() {
        return x
            .py()
            .get_type::<PyFloat>()
            .call1((x,))
            .and_then(|v| v.extract::<f64>())
            .map_err(|e| not_a_float(e.to_string()));
    }
    x.extract::<f64>().map_err(|e| {
        if e.is_instance_of::<PyOverflowError>(x.py()) {
            not_a_float(e.to_string())
        } else {
            PyTypeError::new_err(format!("{name}: expected a number, got {}", type_name(x)))
        }
    })
}

/// An integer parameter in the range of `i64`: an `int` (or anything with `__index__`), an
/// integral `float` or integer text; `TypeError` for a `bool` or a non-number,
/// `ParameterError` naming `name` otherwise.
pub(crate) fn int_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<i64> {
    let refuse = || to_py_err(Error::param(name, x, "must be an integer in [-2^63, 2^63)"));
    if x.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected an int, got a bool"
        )));
    }
    let as_int = if x.is_instance_of::<PyString>() {
        x.py()
            .get_type::<PyInt>()
            .call1((x,))
            .map_err(|_| refuse())?
    } else if x.is_instance_of::<PyFloat>() {
        let v: f64 = x.extract()?;
        if v.fract() != 0.0 || !v.is_finite() {
            return Err(refuse());
        }
        x.py().get_type::<PyInt>().call1((x,))?
    } else {
        x.clone()
    };
    as_int.extract::<i64>().map_err(|e| {
        if e.is_instance_of::<PyOverflowError>(x.py()) {
            refuse()
        } else {
            PyTypeError::new_err(format!("{name}: expected an int, got {}", type_name(x)))
        }
    })
}

fn type_name(x: &Bound<'_, PyAny>) -> String {
    x.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// An argument as converted when the object is built: its value, or the error that
/// composing (or reading) it raises — a `TypeError` or a `ParameterError` naming it.
#[derive(Clone, Debug)]
pub(crate) enum Arg<T> {
    Value(T),
    Type(String),
    Param(Error),
}

impl<T: Clone> Arg<T> {
    /// The result of a conversion, its error kept for later.
    fn lazy(py: Python<'_>, r: PyResult<T>) -> Arg<T> {
        match r {
            Ok(v) => Arg::Value(v),
            Err(e) if e.is_instance_of::<ParameterError>(py) => {
                let attr = |k: &str| {
                    e.value(py)
                        .getattr(k)
                        .map(|v| v.to_string())
                        .unwrap_or_default()
                };
                Arg::Param(Error::Parameter {
                    name: attr("name"),
                    value: attr("value"),
                    reason: attr("reason"),
                })
            }
            Err(e) => Arg::Type(e.value(py).to_string()),
        }
    }

    /// The value, or the error of its conversion.
    pub(crate) fn get(&self) -> PyResult<T> {
        match self {
            Arg::Value(v) => Ok(v.clone()),
            Arg::Type(m) => Err(PyTypeError::new_err(m.clone())),
            Arg::Param(e) => Err(to_py_err(e.clone())),
        }
    }
}

impl<'py, T> IntoPyObject<'py> for &Arg<T>
where
    T: Clone + IntoPyObject<'py>,
    PyErr: From<T::Error>,
{
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.get()?.into_pyobject(py)?.into_any().into_bound())
    }
}

/// A `count` argument (1 when not given), converted lazily.
fn count_arg(count: Option<&Bound<'_, PyAny>>) -> Arg<i64> {
    count.map_or(Arg::Value(1), |c| Arg::lazy(c.py(), int_arg("count", c)))
}

/// `μ = s/σ` of a noise multiplier σ at sensitivity s, rounded up to a double
/// (`precision::rounding::div_up_f64`: the result is ≥ the exact quotient; a larger μ is
/// less private). σ must be finite and > 0 (σ = 0 adds no noise).
pub(crate) fn mu_up(sigma: f64, sensitivity: f64) -> Result<f64, Error> {
    if !sigma.is_finite() {
        return Err(Error::param(
            "noise_multiplier",
            sigma,
            "must be a finite number",
        ));
    }
    if sigma <= 0.0 {
        return Err(Error::param(
            "noise_multiplier",
            sigma,
            "must be > 0 (σ = 0 adds no noise: not private)",
        ));
    }
    Ok(div_up_f64(sensitivity, sigma))
}

/// `p = m/n` rounded up to a double, never above 1 (`div_up_f64`; the privacy of a
/// subsampled mechanism decreases in p, so a larger p is the safe side). `0 ≤ m ≤ n` and
/// `0 < n < 2⁵³` (both exact as doubles).
pub(crate) fn p_up(m: u64, n: u64) -> Result<f64, Error> {
    if n == 0 || n >= 1 << 53 {
        return Err(Error::param(
            "n",
            n,
            "must be a positive integer below 2^53",
        ));
    }
    if m > n {
        return Err(Error::param("m", m, &format!("must be ≤ n = {n}")));
    }
    Ok(div_up_f64(m as f64, n as f64).min(1.0))
}

/// What every component class gives [`crate::compose`] and its Python methods.
pub(crate) trait Part: Clone {
    /// The Python class name.
    const NAME: &'static str;
    /// The names of the fields `==` compares, `count` last.
    const FIELDS: &'static [&'static str];
    /// The kind and parameters of [`crate::component`] (the error of a parameter that
    /// did not convert).
    fn spec(&self) -> PyResult<(&'static str, Vec<f64>)>;
    /// How many times it is composed.
    fn count(&self) -> PyResult<i64>;
    /// The same component `count` times.
    fn with_count(&self, count: i64) -> Self;
    /// The values of [`Part::FIELDS`], as a tuple.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>>;
    /// The arguments that rebuild it (pickling): the fields, positionally.
    fn newargs<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        Ok((self.values(py)?, PyDict::new(py)))
    }
    /// `Name(field=value, …)`.
    fn repr(&self, py: Python<'_>) -> PyResult<String> {
        fields_repr(Self::NAME, Self::FIELDS, &self.values(py)?)
    }
}

/// [`Part::count`] and [`Part::with_count`] of a class with a field `count: Arg<i64>`.
macro_rules! count_methods {
    () => {
        fn count(&self) -> PyResult<i64> {
            self.count.get()
        }
        fn with_count(&self, count: i64) -> Self {
            Self {
                count: Arg::Value(count),
                ..self.clone()
            }
        }
    };
}

/// The Python methods every component class shares, around its own `#[new]`.
macro_rules! component_methods {
    ($cls:ident, { $($new:tt)* }) => {
        #[pymethods]
        impl $cls {
            $($new)*

            fn __eq__(&self, other: PyRef<'_, $cls>) -> PyResult<bool> {
                let py = other.py();
                self.values(py)?.eq(other.values(py)?)
            }

            fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
                self.values(py)?.hash()
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                Part::repr(self, py)
            }

            fn __getnewargs_ex__<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
                self.newargs(py)
            }

            /// The same component composed `count` times, every other parameter kept.
            fn with_count(&self, count: &Bound<'_, PyAny>) -> PyResult<$cls> {
                Ok(Part::with_count(self, int_arg("count", count)?))
            }
        }
    };
}

/// The parameters of a component of the Gaussian family: `mu=μ`, or
/// `noise_multiplier=σ` with `μ = sensitivity/σ` rounded up ([`mu_up`]); a positional
/// noise value is refused (`PoissonGaussian(0.01, 1.1)` could mean either).
fn gaussian_mu(
    cls: &str,
    args: &Bound<'_, PyTuple>,
    mu: Option<&Bound<'_, PyAny>>,
    noise_multiplier: Option<&Bound<'_, PyAny>>,
    sensitivity: f64,
) -> PyResult<(Arg<f64>, Option<f64>)> {
    let spelling = format!(
        "give the noise as noise_multiplier=σ (the noise standard deviation over the \
         clipping norm, μ = {sensitivity}/σ) or as mu=μ (the Gaussian-DP parameter)"
    );
    if !args.is_empty() {
        return Err(PyTypeError::new_err(format!(
            "{cls}: a positional noise parameter is ambiguous; {spelling}"
        )));
    }
    match (mu, noise_multiplier) {
        (Some(mu), None) => Ok((Arg::lazy(mu.py(), real_arg("mu", mu)), None)),
        (None, Some(s)) => {
            let sigma = real_arg("noise_multiplier", s)?;
            let mu = mu_up(sigma, sensitivity).map_err(to_py_err)?;
            Ok((Arg::Value(mu), Some(sigma)))
        }
        _ => Err(PyTypeError::new_err(format!(
            "{cls}: {spelling}, exactly one of them"
        ))),
    }
}

/// `Name(p=…, noise_multiplier=σ, count=k)` (or `mu=μ` when built from μ).
fn gaussian_repr(
    py: Python<'_>,
    cls: &str,
    p: Option<&Arg<f64>>,
    mu: &Arg<f64>,
    sigma: Option<f64>,
    count: &Arg<i64>,
) -> PyResult<String> {
    let head = match p {
        Some(p) => format!("p={}, ", p.into_pyobject(py)?.repr()?),
        None => String::new(),
    };
    let noise = match sigma {
        Some(s) => format!("noise_multiplier={}", crate::types::pyrepr(py, s)?),
        None => format!("mu={}", mu.into_pyobject(py)?.repr()?),
    };
    let count = count.into_pyobject(py)?.repr()?;
    Ok(format!("{cls}({head}{noise}, count={count})"))
}

/// The keyword arguments that rebuild a Gaussian-family component: its noise as given
/// and its count.
fn gaussian_kwargs<'py>(
    py: Python<'py>,
    mu: &Arg<f64>,
    sigma: Option<f64>,
    count: &Arg<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let kw = PyDict::new(py);
    match sigma {
        Some(s) => kw.set_item("noise_multiplier", s)?,
        None => kw.set_item("mu", mu)?,
    }
    kw.set_item("count", count)?;
    Ok(kw)
}

/// The classes of the Gaussian family: a sampling probability `p` when the class has
/// one, the noise as `mu=μ` or `noise_multiplier=σ` (`μ = SENSITIVITY/σ` rounded up),
/// `count` times.
macro_rules! gaussian_class {
    ($(#[$doc:meta])* $cls:ident, $kind:literal, $sensitivity:literal, [$($p:ident)?]) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "shiftdp")]
        #[derive(Clone)]
        pub struct $cls {
            $(
                /// The sampling probability p.
                #[pyo3(get)]
                $p: Arg<f64>,
            )?
            /// The Gaussian-DP parameter μ (of one step, before any subsampling).
            #[pyo3(get)]
            mu: Arg<f64>,
            /// How many times it is composed.
            #[pyo3(get)]
            count: Arg<i64>,
            /// The noise multiplier σ as given, or `None`.
            #[pyo3(get)]
            noise_multiplier: Option<f64>,
        }

        impl $cls {
            pub(crate) fn of(
                $($p: f64,)?
                mu: f64,
                noise_multiplier: Option<f64>,
                count: i64,
            ) -> $cls {
                $cls {
                    $($p: Arg::Value($p),)?
                    mu: Arg::Value(mu),
                    count: Arg::Value(count),
                    noise_multiplier,
                }
            }
        }

        impl Part for $cls {
            const NAME: &'static str = stringify!($cls);
            const FIELDS: &'static [&'static str] = &[$(stringify!($p),)? "mu", "count"];
            fn spec(&self) -> PyResult<(&'static str, Vec<f64>)> {
                Ok(($kind, vec![$(self.$p.get()?,)? self.mu.get()?]))
            }
            count_methods!();
            fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                ($(&self.$p,)? &self.mu, &self.count).into_pyobject(py)
            }
            fn newargs<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
                let kw = gaussian_kwargs(py, &self.mu, self.noise_multiplier, &self.count)?;
                let args: Vec<&Arg<f64>> = vec![$(&self.$p)?];
                Ok((PyTuple::new(py, args)?, kw))
            }
            fn repr(&self, py: Python<'_>) -> PyResult<String> {
                let p: Option<&Arg<f64>> = None $(.or(Some(&self.$p)))?;
                gaussian_repr(py, Self::NAME, p, &self.mu, self.noise_multiplier, &self.count)
            }
        }

        component_methods!($cls, {
            #[new]
            #[pyo3(signature = ($($p,)? *args, mu=None, noise_multiplier=None, count=None))]
            fn new(
                $($p: &Bound<'_, PyAny>,)?
                args: &Bound<'_, PyTuple>,
                mu: Option<&Bound<'_, PyAny>>,
                noise_multiplier: Option<&Bound<'_, PyAny>>,
                count: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<$cls> {
                let (mu, noise_multiplier) =
                    gaussian_mu(Self::NAME, args, mu, noise_multiplier, $sensitivity)?;
                Ok($cls {
                    $($p: Arg::lazy($p.py(), real_arg("p", $p)),)?
                    mu,
                    count: count_arg(count),
                    noise_multiplier,
                })
            }
        });
    };
}

gaussian_class!(
    /// `G(μ)`, `count` times: `Gaussian(mu=μ)`, or `Gaussian(noise_multiplier=σ)` for the
    /// Gaussian mechanism with noise `N(0, σ²)` at sensitivity 1 (dp_accounting's
    /// `GaussianDpEvent(σ)` under add-or-remove), `μ = 1/σ` rounded up to a double.
    /// `noise_multiplier` keeps σ as given (`None` when built from μ); `==` and `hash`
    /// compare `(mu, count)`.
    Gaussian,
    "gaussian",
    1.0,
    []
);

gaussian_class!(
    /// BSA24's symmetrized subsampled Gaussian `C_p(G(μ)) = min{f_p, f_p⁻¹}**` (Def 4.7),
    /// `count` times: `SubsampledGaussian(p, mu=μ)`, or `SubsampledGaussian(p,
    /// noise_multiplier=σ)` for DP-SGD with batches of a fixed size drawn without
    /// replacement (p = b/n) under replace-one adjacency: two clipped gradients differ by
    /// up to twice the clipping norm, so `μ = 2/σ` rounded up to a double. `==` and
    /// `hash` compare `(p, mu, count)`.
    SubsampledGaussian,
    "subsampled",
    2.0,
    [p]
);

gaussian_class!(
    /// The Poisson-subsampled Gaussian under add-or-remove adjacency (both directions of
    /// the pair composed, the larger δ reported; *not* `C_p`), `count` times:
    /// `PoissonGaussian(p, noise_multiplier=σ)` (DP-SGD as Opacus and dp_accounting state
    /// it: each record in a batch with probability p, noise `N(0, σ²C²)` at clipping norm
    /// C, so `μ = 1/σ` rounded up to a double), or `PoissonGaussian(p, mu=μ)`. `==` and
    /// `hash` compare `(p, mu, count)`.
    PoissonGaussian,
    "poisson",
    1.0,
    [p]
);

/// A real or integer parameter, or a sequence of reals, as the parameters of
/// [`crate::component`] (flattened, in order).
pub(crate) trait Param {
    fn push_to(&self, v: &mut Vec<f64>);
}

impl Param for f64 {
    fn push_to(&self, v: &mut Vec<f64>) {
        v.push(*self);
    }
}

impl Param for i64 {
    fn push_to(&self, v: &mut Vec<f64>) {
        v.push(*self as f64);
    }
}

/// A sequence of reals (a tuple in Python).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reals(pub(crate) Vec<f64>);

impl Param for Reals {
    fn push_to(&self, v: &mut Vec<f64>) {
        v.extend_from_slice(&self.0);
    }
}

impl<'py> IntoPyObject<'py> for Reals {
    type Target = PyTuple;
    type Output = Bound<'py, PyTuple>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.0)
    }
}

/// A sequence of reals ([`real_arg`] each, named `name[i]`).
fn reals_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<Reals> {
    if x.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected a sequence of numbers, got str"
        )));
    }
    let items = x.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name}: expected a sequence of numbers, got {}",
            type_name(x)
        ))
    })?;
    let mut v = vec![];
    for (i, item) in items.enumerate() {
        v.push(real_arg(&format!("{name}[{i}]"), &item?)?);
    }
    Ok(Reals(v))
}

/// The value of an argument: converted by `conv` when given, else `default`; a
/// required argument given as `None` is a `TypeError`.
fn given<T: Clone>(
    name: &str,
    x: Option<&Bound<'_, PyAny>>,
    default: Option<T>,
    conv: fn(&str, &Bound<'_, PyAny>) -> PyResult<T>,
) -> Arg<T> {
    match (x, default) {
        (Some(x), _) => Arg::lazy(x.py(), conv(name, x)),
        (None, Some(d)) => Arg::Value(d),
        (None, None) => Arg::Type(format!("{name}: expected a number, got None")),
    }
}

/// A component class whose fields are given positionally or by name (each converted by
/// its function, some with a default), then `count`: its struct, [`Part`] and Python
/// methods.
macro_rules! plain_component {
    (
        $(#[$doc:meta])* $cls:ident, $kind:literal,
        ($($(#[$fdoc:meta])* $field:ident : $ty:ty = $conv:ident $([$none:ident => $dv:expr])?),*)
    ) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "shiftdp")]
        #[derive(Clone)]
        pub struct $cls {
            $($(#[$fdoc])* #[pyo3(get)] $field: Arg<$ty>,)*
            /// How many times it is composed.
            #[pyo3(get)]
            count: Arg<i64>,
        }

        impl $cls {
            pub(crate) fn of($($field: $ty,)* count: i64) -> $cls {
                $cls {
                    $($field: Arg::Value($field),)*
                    count: Arg::Value(count),
                }
            }
        }

        impl Part for $cls {
            const NAME: &'static str = stringify!($cls);
            const FIELDS: &'static [&'static str] = &[$(stringify!($field),)* "count"];
            fn spec(&self) -> PyResult<(&'static str, Vec<f64>)> {
                let mut v = vec![];
                $(self.$field.get()?.push_to(&mut v);)*
                Ok(($kind, v))
            }
            count_methods!();
            fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                ($(&self.$field,)* &self.count).into_pyobject(py)
            }
        }

        component_methods!($cls, {
            #[new]
            #[pyo3(signature = ($($field $(= $none)?,)* count=None))]
            fn new(
                $($field: Option<&Bound<'_, PyAny>>,)*
                count: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<$cls> {
                Ok($cls {
                    $($field: given(stringify!($field), $field, None $(.or(Some($dv)))?, $conv),)*
                    count: count_arg(count),
                })
            }
        });
    };
}

plain_component!(
    /// The Laplace mechanism `x + Lap(b)` at sensitivity `sensitivity` (Δ), `count` times:
    /// `(Δ/b, 0)`-DP per step, its privacy-loss distribution two atoms `±Δ/b` and a
    /// continuous part, symmetric. dp_accounting's `LaplaceDpEvent(noise_multiplier=b)` is
    /// `Laplace(b, 1)`.
    Laplace,
    "laplace",
    (b: f64 = real_arg, sensitivity: f64 = real_arg [None => 1.0])
);

plain_component!(
    /// The Poisson-subsampled Laplace mechanism under add-or-remove adjacency (both
    /// directions of the pair composed), `count` times; dp_accounting's
    /// `PoissonSampledDpEvent(p, LaplaceDpEvent(b))` is `PoissonLaplace(p, b, 1)`.
    PoissonLaplace,
    "poisson_laplace",
    (p: f64 = real_arg, b: f64 = real_arg, sensitivity: f64 = real_arg [None => 1.0])
);

plain_component!(
    /// The discrete Laplace mechanism `x + Z`, `Pr[Z = z] ∝ e^{−a|z|}`, at integer
    /// sensitivity Δ, `count` times (dp_accounting's `DiscreteLaplaceDpEvent(a, Δ)`):
    /// `(aΔ, 0)`-DP per step.
    DiscreteLaplace,
    "discrete_laplace",
    (a: f64 = real_arg, sensitivity: i64 = int_arg [None => 1])
);

plain_component!(
    /// Randomized response on `buckets` values: the true value with probability
    /// `1 − noise_parameter`, a uniformly random value otherwise; neighbours differ in one
    /// respondent's value (dp_accounting's `RandomizedResponseDpEvent` under REPLACE_ONE),
    /// `count` times.
    RandomizedResponse,
    "randomized_response",
    (noise_parameter: f64 = real_arg, buckets: i64 = int_arg)
);

plain_component!(
    /// `N(0, σ²)` against `Σᵢ pᵢ N(cᵢ, σ²)` under add-or-remove adjacency (both orders
    /// composed), `count` times: dp_accounting's `MixtureOfGaussiansDpEvent(σ,
    /// sensitivities, sampling_probs)`, the dominating pair of the MMCC analysis of banded
    /// matrix mechanisms. `probabilities` must sum to 1.
    MixtureOfGaussians,
    "mixture_of_gaussians",
    (sigma: f64 = real_arg, sensitivities: Reals = reals_arg, probabilities: Reals = reals_arg)
);

plain_component!(
    /// The Poisson-subsampled mixture of Gaussians under add-or-remove adjacency (both
    /// orders composed), `count` times: dp_accounting's `PoissonSampledDpEvent(p,
    /// MixtureOfGaussiansDpEvent(σ, sensitivities, sampling_probs))`.
    PoissonMixtureOfGaussians,
    "poisson_mixture_of_gaussians",
    (p: f64 = real_arg, sigma: f64 = real_arg, sensitivities: Reals = reals_arg, probabilities: Reals = reals_arg)
);

plain_component!(
    /// An `(ε, δ)`-DP mechanism as its tradeoff function `f_{ε,δ}`, `count` times.
    ApproxDp,
    "approx_dp",
    (epsilon: f64 = real_arg, delta: f64 = real_arg)
);

plain_component!(
    /// dp_accounting's truncated Poisson-subsampled Gaussian (each of `dataset_size`
    /// records sampled with probability `sampling_probability`, the batch cut to at most
    /// `truncated_batch_size`, noise multiplier σ) under add-or-remove adjacency, `count`
    /// times: dp_accounting's dominating pair (a public mixture of the replace-one
    /// subsampled Gaussian at σ/2 and the Poisson-subsampled Gaussian), evaluated with
    /// certified arithmetic.
    TruncatedSubsampledGaussian,
    "truncated_subsampled_gaussian",
    (dataset_size: i64 = int_arg, sampling_probability: f64 = real_arg, truncated_batch_size: i64 = int_arg, noise_multiplier: f64 = real_arg)
);

/// Tries each component class on `obj`: its [`Part::spec`] and count.
macro_rules! spec_of_classes {
    ($obj:expr; $($cls:ty),*) => {
        $(
            if let Ok(c) = $obj.cast::<$cls>() {
                let c = c.get();
                let (kind, params) = c.spec()?;
                return Ok((kind.to_string(), params, c.count()?));
            }
        )*
    };
}

/// The `(kind, parameters, count)` of [`crate::composition`] of a component object;
/// `TypeError` for anything else.
pub(crate) fn spec_of(obj: &Bound<'_, PyAny>) -> PyResult<(String, Vec<f64>, i64)> {
    spec_of_classes!(obj; Gaussian, SubsampledGaussian, PoissonGaussian, Laplace,
        PoissonLaplace, DiscreteLaplace, RandomizedResponse, MixtureOfGaussians,
        PoissonMixtureOfGaussians, ApproxDp, TruncatedSubsampledGaussian);
    Err(PyTypeError::new_err(format!(
        "component: expected a shiftdp component (Gaussian, PoissonGaussian, Laplace, …), got {}",
        type_name(obj)
    )))
}

/// The specs of every component of an iterable.
pub(crate) fn specs_of(components: &Bound<'_, PyAny>) -> PyResult<Vec<(String, Vec<f64>, i64)>> {
    components.try_iter()?.map(|c| spec_of(&c?)).collect()
}

/// Adds the component classes to the module.
pub(crate) fn add_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Gaussian>()?;
    m.add_class::<SubsampledGaussian>()?;
    m.add_class::<PoissonGaussian>()?;
    m.add_class::<Laplace>()?;
    m.add_class::<PoissonLaplace>()?;
    m.add_class::<DiscreteLaplace>()?;
    m.add_class::<RandomizedResponse>()?;
    m.add_class::<MixtureOfGaussians>()?;
    m.add_class::<PoissonMixtureOfGaussians>()?;
    m.add_class::<ApproxDp>()?;
    m.add_class::<TruncatedSubsampledGaussian>()?;
    Ok(())
}
