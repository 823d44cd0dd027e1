//! `shiftdp._core`: the compiled half of the Python package `shiftdp`.
//!
//! A thin layer over the library's public API (never over the `shiftdp` command): each
//! function validates nothing itself beyond what crossing the boundary needs (a float
//! that is not finite, a negative count), calls the library with the interpreter
//! detached (`Python::detach`, so other Python threads run during long computations),
//! and returns the frozen classes of [`types`] (`Interval`, `Grid`, `Composed`) or plain
//! Python values (tuples, dicts, lists, strings) that the pure-Python layer
//! (`python/shiftdp/`) turns into typed, picklable objects.
//!
//! Every library [`Error`] becomes a Python exception of the matching class, one class
//! per variant (see [`to_py_err`]); no input reaches a panic.
//!
//! # Ctrl-C
//! The long calls (`compose`, `analyze`, `check_claim`, `schedule`) run on a worker
//! thread while the calling thread waits with the interpreter detached and checks for
//! signals every [`SIGNAL_POLL`] ([`interruptible`]): Ctrl-C raises `KeyboardInterrupt`
//! at once. The library cannot be cancelled mid-computation, so the worker finishes in
//! the background and its result is dropped.
//!
//! # Rounding
//! A certified value crosses the boundary as an [`Interval`]: its two ends, each both as a decimal string
//! rounded outward (`fmt_down` for the lower end, `fmt_up` for the upper end, so the
//! string itself is on the safe side of the MPFR number) and as the f64 at or beyond it
//! in the same direction. No midpoint is ever returned for a bound.
// No `unwrap`/`expect`/`panic!` reachable from input in non-test code: every
// failure is an `Error` naming what is wrong. Tests may unwrap.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use pyo3::BoundObject;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rug::Float;
use shiftdp::composition::answer::Method;
use shiftdp::composition::{Component, Composition, DELTA_FLOOR, Reuse, Target};
use shiftdp::decimal::{fmt_down, fmt_up};
use shiftdp::precision::certified::Certified;
use shiftdp::renyi::sampled_gaussian::{SampledGaussian, SgmOrder};
use shiftdp::settings::RawSetting;
use shiftdp::tradeoff::Gaussian;
use shiftdp::{Algorithm, Enclosure, Error, Precision};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

mod analysis;
mod calibration;
mod claims;
mod components;
mod events;
mod results;
mod types;
use types::{Composed, Grid, Interval};

/// mimalloc keeps freed pages for reuse: the composition engine's buffers (tens of MB
/// per query) are then not page-faulted in afresh by every query, which was a fifth of
/// a 10⁵-step composition's time under glibc malloc (README, "Design decisions").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    shiftdp,
    ShiftdpError,
    PyValueError,
    "Base class of every refusal of shiftdp (a `ValueError`): one subclass per variant of the library's `Error`."
);
create_exception!(
    shiftdp,
    ParameterError,
    ShiftdpError,
    "A parameter is outside its domain (negative μ, δ ∉ (0, 1), p ∉ [0, 1], NaN, …). Attributes: name, value, reason."
);
create_exception!(
    shiftdp,
    ParseError,
    ShiftdpError,
    "A number could not be parsed. Attributes: input, reason."
);
create_exception!(
    shiftdp,
    PrecisionError,
    ShiftdpError,
    "The requested MPFR precision is out of range. Attributes: bits, min, max."
);
create_exception!(
    shiftdp,
    DomainError,
    ShiftdpError,
    "A function was evaluated outside its domain. Attributes: what, reason."
);
create_exception!(
    shiftdp,
    NotCertifiedError,
    ShiftdpError,
    "A result could not be certified (e.g. δ below the composition floor). Attributes: what, reason."
);
create_exception!(
    shiftdp,
    MemoryLimitError,
    ShiftdpError,
    "A computation would need more memory than the limit (shiftdp.set_memory_limit, SHIFTDP_MEMORY_LIMIT). Attributes: what, needed, limit."
);
create_exception!(
    shiftdp,
    HypothesisError,
    ShiftdpError,
    "A hypothesis of a published result fails. Attributes: result, hypothesis, detail."
);

/// The Python exception for a library error: one class per [`Error`] variant, the
/// message is the library's, and the variant's fields are attributes of the exception.
/// A variant the bindings do not know yet ([`Error`] is `#[non_exhaustive]`) is the base
/// class `ShiftdpError` with the library's message.
pub(crate) fn to_py_err(e: Error) -> PyErr {
    let msg = e.to_string();
    Python::attach(|py| {
        let (err, attrs): (PyErr, Vec<(&str, Py<PyAny>)>) = match e {
            Error::Parameter {
                name,
                value,
                reason,
            } => (
                ParameterError::new_err(msg),
                vec![
                    ("name", obj(py, name)),
                    ("value", obj(py, value)),
                    ("reason", obj(py, reason)),
                ],
            ),
            Error::Parse { input, reason } => (
                ParseError::new_err(msg),
                vec![("input", obj(py, input)), ("reason", obj(py, reason))],
            ),
            Error::Precision { bits, min, max } => (
                PrecisionError::new_err(msg),
                vec![
                    ("bits", obj(py, bits)),
                    ("min", obj(py, min)),
                    ("max", obj(py, max)),
                ],
            ),
            Error::Domain { what, reason } => (
                DomainError::new_err(msg),
                vec![("what", obj(py, what)), ("reason", obj(py, reason))],
            ),
            Error::NotCertified { what, reason } => (
                NotCertifiedError::new_err(msg),
                vec![("what", obj(py, what)), ("reason", obj(py, reason))],
            ),
            Error::MemoryLimit {
                what,
                needed,
                limit,
            } => (
                MemoryLimitError::new_err(msg),
                vec![
                    ("what", obj(py, what)),
                    ("needed", obj(py, needed)),
                    ("limit", obj(py, limit)),
                ],
            ),
            Error::Hypothesis {
                result,
                hypothesis,
                detail,
            } => (
                HypothesisError::new_err(msg),
                vec![
                    ("result", obj(py, result.to_string())),
                    ("hypothesis", obj(py, hypothesis)),
                    ("detail", obj(py, detail)),
                ],
            ),
            _ => (ShiftdpError::new_err(msg), vec![]),
        };
        let value = err.value(py);
        for (k, v) in attrs {
            // setting an attribute on a fresh exception instance cannot fail
            let _ = value.setattr(k, v);
        }
        err
    })
}

pub(crate) fn obj<'py, T: IntoPyObject<'py>>(py: Python<'py>, x: T) -> Py<PyAny> {
    match x.into_pyobject(py) {
        Ok(b) => b.into_any().unbind(),
        Err(_) => py.None(),
    }
}

/// A number from Python: an exact decimal string, or a float read by its shortest
/// round-trip decimal. (The Python layer turns `int` and `Decimal` into text.)
#[derive(FromPyObject)]
pub(crate) enum Num {
    Text(String),
    Float(f64),
}

impl Num {
    /// The decimal text: as given, or the shortest round-trip decimal of a float (the
    /// value as the user typed it, e.g. `1e-5`), the reading of the command line.
    pub(crate) fn text(&self, name: &str) -> Result<String, Error> {
        match self {
            Num::Text(s) => Ok(s.clone()),
            Num::Float(x) if x.is_finite() => Ok(format!("{x:e}")),
            Num::Float(x) => Err(Error::param(name, x, "must be a finite number")),
        }
    }

    fn enclosure(&self, name: &str, bits: u32) -> Result<Enclosure, Error> {
        let s = self.text(name)?;
        Enclosure::parse(bits, &s).map_err(|_| Error::Parse {
            input: s.clone(),
            reason: format!("{name} expects a finite decimal number"),
        })
    }
}

pub(crate) fn precision(bits: Option<i64>) -> Result<Precision, Error> {
    match bits {
        None => Ok(Precision::F64),
        Some(b) if b < 0 => Err(Error::param("bits", b, "must be a positive integer")),
        Some(b) => Precision::from_bits(Some(b as u64)),
    }
}

/// MPFR bits of a computation that always runs in MPFR: `bits` validated as
/// [`precision`] does, 128 where it names the f64 path.
pub(crate) fn mpfr_bits(bits: i64) -> Result<u32, Error> {
    Ok(match precision(Some(bits))? {
        Precision::Bits(b) => b,
        Precision::F64 => 128,
    })
}

/// A run's setting from (command-line flag, value) pairs, as the command line reads it;
/// a flag `RawSetting` does not know is a `ParameterError` naming it.
pub(crate) fn raw_setting(setting: &[(String, Num)]) -> Result<RawSetting, Error> {
    let mut raw = RawSetting::default();
    for (k, v) in setting {
        if !raw.set(k, &v.text(k)?) {
            return Err(Error::param("setting", k, "unknown setting flag"));
        }
    }
    Ok(raw)
}

/// Decimal digits of the output: those of f64 on the f64 path, else of the bits asked.
pub(crate) fn out_bits(p: Precision) -> u32 {
    match p {
        Precision::F64 => 53,
        Precision::Bits(b) => b,
    }
}

/// The [`Interval`] of an enclosure: each end as a decimal rounded outward (`fmt_down`
/// for the lower end, `fmt_up` for the upper end, at the digits of `bits`) and as the
/// f64 at or beyond it in the same direction.
pub(crate) fn ends(e: &Enclosure, bits: u32, path: String) -> Interval {
    Interval {
        lower: e.lower_f64(),
        upper: e.upper_f64(),
        lower_decimal: fmt_down(e.lo(), bits),
        upper_decimal: fmt_up(e.hi(), bits),
        path,
    }
}

fn certified(c: &Certified, bits: u32) -> Interval {
    ends(&c.enclosure, bits, c.path.describe())
}

/// The [`Interval`] of an f64 interval of the composition engine; the decimal strings
/// are of the f64 values exactly, rounded outward.
fn interval_ends(iv: &shiftdp::composition::Interval, path: &str) -> Interval {
    let lo = Float::with_val(53, iv.lower);
    let hi = Float::with_val(53, iv.upper);
    Interval {
        lower: iv.lower,
        upper: iv.upper,
        lower_decimal: fmt_down(&lo, 53),
        upper_decimal: fmt_up(&hi, 53),
        path: path.to_string(),
    }
}

/// Sets the process-wide memory limit (`shiftdp::memory`): `size` is a byte count or a
/// string such as `"8G"`; returns the limit now in force, in bytes.
#[pyfunction]
fn set_memory_limit(size: Bound<'_, PyAny>) -> PyResult<u64> {
    let bytes = if let Ok(n) = size.extract::<u64>() {
        n
    } else if let Ok(s) = size.extract::<String>() {
        shiftdp::memory::parse_size(&s).map_err(to_py_err)?
    } else {
        return Err(to_py_err(Error::param(
            "size",
            size.repr().map(|r| r.to_string()).unwrap_or_default(),
            "a byte count (int) or a size such as \"8G\"",
        )));
    };
    shiftdp::memory::set_limit_bytes(bytes).map_err(to_py_err)?;
    Ok(shiftdp::memory::limit_bytes())
}

/// The memory limit in force, in bytes.
#[pyfunction]
fn memory_limit() -> u64 {
    shiftdp::memory::limit_bytes()
}

/// `μ = sensitivity/σ` of a noise multiplier σ rounded up to a double
/// ([`components::mu_up`]: `div_up_f64`, a larger μ is less private); `ParameterError`
/// naming `noise_multiplier` unless σ is finite and > 0.
#[pyfunction]
#[pyo3(signature = (noise_multiplier, sensitivity=1.0))]
fn mu_up(noise_multiplier: &Bound<'_, PyAny>, sensitivity: f64) -> PyResult<f64> {
    let sigma = components::real_arg("noise_multiplier", noise_multiplier)?;
    components::mu_up(
        sigma,
        finite("sensitivity", sensitivity).map_err(to_py_err)?,
    )
    .map_err(to_py_err)
}

/// `p = m/n` rounded up to a double, never above 1 ([`components::p_up`]);
/// `ParameterError` unless `0 ≤ m ≤ n` and `0 < n < 2⁵³`.
#[pyfunction]
fn p_up(m: u64, n: u64) -> PyResult<f64> {
    components::p_up(m, n).map_err(to_py_err)
}

/// `text` (a decimal) rounded to `digits` significant digits, up (toward +∞) when `up`
/// and down otherwise, written for a person ([`types::readable`]).
#[pyfunction]
#[pyo3(signature = (text, up, digits=6))]
fn readable(text: &str, up: bool, digits: usize) -> String {
    types::readable(text, up, digits)
}

/// Validates a δ (`precision::delta::Delta::check`: `0 < δ < 1`), raising
/// `ParameterError` otherwise.
#[pyfunction]
fn check_delta(delta: Num) -> PyResult<()> {
    let run = || -> Result<(), Error> {
        shiftdp::precision::delta::Delta::check(&delta.enclosure("delta", 64)?)
    };
    run().map_err(to_py_err)
}

/// A certified function of μ-GDP at one argument `x` named `name` (δ for
/// `Gaussian::epsilon`, ε for `Gaussian::delta`): μ and `x` read at ≥ 64 bits, the ends
/// of the enclosure at the digits of `bits`.
fn gdp_at(
    py: Python<'_>,
    mu: Num,
    x: Num,
    name: &str,
    bits: Option<i64>,
    f: fn(&Enclosure, &Enclosure, Precision) -> Result<Certified, Error>,
) -> PyResult<Interval> {
    let run = || -> Result<Interval, Error> {
        let prec = precision(bits)?;
        let ib = prec.mpfr_bits().max(64);
        let c = f(&mu.enclosure("mu", ib)?, &x.enclosure(name, ib)?, prec)?;
        Ok(certified(&c, out_bits(prec)))
    };
    py.detach(run).map_err(to_py_err)
}

/// Certified ε(δ) of μ-GDP (`Gaussian::epsilon`): the ends of the enclosure.
#[pyfunction]
#[pyo3(signature = (mu, delta, bits=None))]
fn gdp_epsilon(py: Python<'_>, mu: Num, delta: Num, bits: Option<i64>) -> PyResult<Interval> {
    gdp_at(py, mu, delta, "delta", bits, Gaussian::epsilon)
}

/// Certified δ(ε) of μ-GDP (`Gaussian::delta`): the ends of the enclosure.
#[pyfunction]
#[pyo3(signature = (mu, epsilon, bits=None))]
fn gdp_delta(py: Python<'_>, mu: Num, epsilon: Num, bits: Option<i64>) -> PyResult<Interval> {
    gdp_at(py, mu, epsilon, "epsilon", bits, Gaussian::delta)
}

/// How often a waiting call checks for signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Stack of the worker thread: the main thread's usual 8 MiB and more (deep MPFR or
/// recursive evaluations must not overflow a smaller thread stack).
const WORKER_STACK: usize = 32 << 20;

/// Runs `f` on a worker thread and waits for its result with the interpreter detached,
/// calling `Python::check_signals` every [`SIGNAL_POLL`]: a pending `KeyboardInterrupt`
/// (or any exception a signal handler raises) is returned at once and the worker's
/// result, when it comes, is dropped. A panic of the worker becomes a `RuntimeError`
/// (never an abort of the interpreter).
pub(crate) fn interruptible<T, F>(py: Python<'_>, f: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, Error> + Send + 'static,
{
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("shiftdp-worker".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            // the receiver may be gone (interrupted): nothing to report then
            let _ = tx.send(f());
        })
        .map_err(|e| {
            PyRuntimeError::new_err(format!("shiftdp: cannot start a worker thread: {e}"))
        })?;
    let mut rx = rx;
    loop {
        // the receiver is `Send` but not `Sync`: move it into the detached closure and back
        let (got, back) = py.detach(move || (rx.recv_timeout(SIGNAL_POLL), rx));
        rx = back;
        match got {
            Ok(r) => return r.map_err(to_py_err),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "shiftdp: the computation stopped without a result (a panic in the library; please report it)",
                ));
            }
        }
    }
}

pub(crate) fn finite(name: &str, x: f64) -> Result<f64, Error> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(Error::param(name, x, "must be a finite number"))
    }
}

/// `Ok` when the component `kind` got `n` parameters, else an error listing `names`.
fn arity(kind: &str, v: &[f64], n: usize, names: &str) -> Result<(), Error> {
    if v.len() == n {
        Ok(())
    } else {
        Err(Error::param(
            kind,
            format!("{} parameters", v.len()),
            &format!("expects ({names})"),
        ))
    }
}

/// An integer parameter given as a float (`k` buckets, an integer sensitivity).
fn integer(name: &str, x: f64, min: f64) -> Result<u64, Error> {
    if x.is_finite() && x.fract() == 0.0 && x >= min && x <= 9.0e15 {
        Ok(x as u64)
    } else {
        Err(Error::param(
            name,
            x,
            &format!("must be an integer ≥ {min}"),
        ))
    }
}

/// Builds one component from its kind and parameters (the layouts of the component
/// classes' [`components::Part::spec`]), checking each parameter's domain by name:
/// `gaussian [μ]`, `subsampled [p, μ]`, `poisson [p, μ]`, `laplace [b, Δ]`,
/// `poisson_laplace [p, b, Δ]`, `discrete_laplace [a, Δ]`, `randomized_response [p, k]`,
/// `mixture_of_gaussians [σ, c₁…cₙ, p₁…pₙ]`, `poisson_mixture_of_gaussians [q, σ, c…, p…]`,
/// `approx_dp [ε, δ]`, `truncated_subsampled_gaussian [n, q, B, σ]`.
fn component(kind: &str, v: &[f64]) -> Result<Component, Error> {
    use shiftdp::composition::mechanism::{
        DiscreteLaplace, Laplace, MixtureOfGaussians, PoissonSampled, RandomizedResponse,
    };
    let want = |n: usize, names: &str| arity(kind, v, n, names);
    let names: &[&str] = match kind {
        "gaussian" => &["mu"],
        "subsampled" | "poisson" => &["p", "mu"],
        "laplace" => &["b", "sensitivity"],
        "poisson_laplace" => &["p", "b", "sensitivity"],
        "discrete_laplace" => &["a", "sensitivity"],
        "randomized_response" => &["noise_parameter", "buckets"],
        "approx_dp" => &["epsilon", "delta"],
        "truncated_subsampled_gaussian" => &[
            "dataset_size",
            "sampling_probability",
            "truncated_batch_size",
            "noise_multiplier",
        ],
        _ => &[],
    };
    for (x, n) in v
        .iter()
        .zip(names.iter().copied().chain(std::iter::repeat("parameter")))
    {
        finite(n, *x)?;
    }
    let mixture = |w: &[f64]| -> Result<MixtureOfGaussians, Error> {
        if w.len() < 3 || w.len().is_multiple_of(2) {
            return Err(Error::param(
                "mixture_of_gaussians",
                format!("{} parameters", w.len()),
                "expects (sigma, sensitivities…, probabilities…) with as many probabilities as sensitivities",
            ));
        }
        let n = (w.len() - 1) / 2;
        MixtureOfGaussians::new(w[0], w[1..=n].to_vec(), w[n + 1..].to_vec())
    };
    Ok(match kind {
        "gaussian" => {
            want(1, "mu")?;
            Component::gaussian(v[0])?
        }
        "subsampled" => {
            want(2, "p, mu")?;
            Component::subsampled(v[0], v[1])?
        }
        "poisson" => {
            want(2, "p, mu")?;
            Component::poisson(v[0], v[1])?
        }
        "laplace" => {
            want(2, "b, sensitivity")?;
            Component::mechanism(Laplace::new(v[0], v[1])?)
        }
        "poisson_laplace" => {
            want(3, "p, b, sensitivity")?;
            let base = std::sync::Arc::new(Laplace::new(v[1], v[2])?);
            Component::mechanism(PoissonSampled::new(v[0], base)?)
        }
        "discrete_laplace" => {
            want(2, "a, sensitivity")?;
            Component::mechanism(DiscreteLaplace::new(
                v[0],
                integer("sensitivity", v[1], 1.0)?,
            )?)
        }
        "randomized_response" => {
            want(2, "noise_parameter, buckets")?;
            Component::mechanism(RandomizedResponse::new(
                v[0],
                integer("buckets", v[1], 2.0)?,
            )?)
        }
        "mixture_of_gaussians" => Component::mechanism(mixture(v)?),
        "poisson_mixture_of_gaussians" => {
            let Some((q, rest)) = v.split_first() else {
                return Err(Error::param(
                    kind,
                    "0 parameters",
                    "expects (q, sigma, sensitivities…, probabilities…)",
                ));
            };
            Component::mechanism(PoissonSampled::new(
                *q,
                std::sync::Arc::new(mixture(rest)?),
            )?)
        }
        "approx_dp" => {
            want(2, "epsilon, delta")?;
            Component::approx_dp(v[0], v[1])?
        }
        "truncated_subsampled_gaussian" => {
            want(
                4,
                "dataset_size, sampling_probability, truncated_batch_size, noise_multiplier",
            )?;
            let n = integer("dataset_size", v[0], 0.0)?;
            let b = integer("truncated_batch_size", v[2], 0.0)?;
            match shiftdp::composition::mechanism::truncated_subsampled_gaussian(n, v[1], b, v[3])?
            {
                Some(m) => Component::shared(m),
                // no record can be sampled: the identity G(0)
                None => Component::gaussian(0.0)?,
            }
        }
        other => {
            return Err(Error::param(
                "component",
                other,
                "one of gaussian, subsampled, poisson, laplace, poisson_laplace, discrete_laplace, randomized_response, mixture_of_gaussians, poisson_mixture_of_gaussians, approx_dp, truncated_subsampled_gaussian",
            ));
        }
    })
}

/// Builds a [`Composition`] from `(kind, parameters, count)` tuples ([`component`]).
fn composition(parts: &[(String, Vec<f64>, i64)]) -> Result<Composition, Error> {
    let mut c = Composition::new();
    for (kind, v, k) in parts {
        let comp = component(kind, v)?;
        if *k < 1 {
            return Err(Error::param("count", k, "must be an integer ≥ 1"));
        }
        c = c.with(comp, *k as u64)?;
    }
    Ok(c)
}

/// The PLD of the last composition answered without a grid given, for the next query of
/// the same composition at the same tolerance (`Composition::answer_reusing`): an
/// accountant asked ε at several δ, or a loop over targets, composes once.
static KEPT: std::sync::Mutex<Option<Reuse>> = std::sync::Mutex::new(None);

/// Forgets the kept PLD (its memory is freed).
#[pyfunction]
fn clear_kept_composition() {
    if let Ok(mut k) = KEPT.lock() {
        *k = None;
    }
}

/// Whether a composed PLD is kept for the next query.
#[pyfunction]
fn has_kept_composition() -> bool {
    KEPT.lock()
        .map(|k| k.as_ref().is_some_and(|r| !r.is_empty()))
        .unwrap_or(false)
}

/// Certified ε(δ) (`target = "delta"`, value δ) or δ(ε) (`target = "epsilon"`, value ε) of
/// a composition of component objects ([`components::spec_of`]). Without a grid, the PLD of the
/// previous query is asked first when it was the same composition at the same tolerance
/// (see [`KEPT`]).
#[pyfunction]
#[pyo3(signature = (components, target, value, tolerance=shiftdp::composition::DEFAULT_TOLERANCE, grid=None))]
fn compose(
    py: Python<'_>,
    components: &Bound<'_, PyAny>,
    target: &str,
    value: f64,
    tolerance: f64,
    grid: Option<i32>,
) -> PyResult<Composed> {
    let components = components::specs_of(components)?;
    let target = target.to_string();
    let target_name = target.clone();
    let run = move || -> Result<_, Error> {
        let c = composition(&components)?;
        let t = match target.as_str() {
            "delta" => Target::Delta(finite("delta", value)?),
            "epsilon" => Target::Epsilon(finite("epsilon", value)?),
            other => return Err(Error::param("target", other, "one of delta, epsilon")),
        };
        let a = match grid {
            Some(_) => c.answer(t, tolerance, grid)?,
            None => {
                // taken out for the computation (other threads compose meanwhile) and
                // put back after it
                let mut reuse = KEPT
                    .lock()
                    .ok()
                    .and_then(|mut k| k.take())
                    .unwrap_or_default();
                let a = c.answer_reusing(t, tolerance, &mut reuse);
                if let Ok(mut k) = KEPT.lock() {
                    *k = Some(reuse);
                }
                a?
            }
        };
        let names: Vec<String> = c
            .parts()
            .iter()
            .map(|(x, k)| format!("{}^⊗{k}", x.name()))
            .collect();
        let infos = a.composed().map(|r| r.info.clone()).unwrap_or_default();
        let grids: Vec<(f64, f64, f64, usize, f64, f64, f64)> = infos
            .iter()
            .map(|g| {
                (
                    g.h,
                    g.bottom,
                    g.top,
                    g.points,
                    g.fft_error_pess,
                    g.fft_error_opt,
                    g.infinity_mass,
                )
            })
            .collect();
        let (method, path, mu) = match &a.method {
            Method::GaussianClosedForm { mu_upper } => {
                ("gaussian closed form", "gaussian", Some(*mu_upper))
            }
            Method::Pld { .. } => ("pld", "pld", None),
            Method::PureDp { .. } => ("pure dp", "pure dp", None),
            _ => ("other", "other", None),
        };
        Ok((
            names.join(" ⊗ "),
            interval_ends(&a.interval, path),
            a.composed().map_or(1, |r| r.orders()),
            grids,
            c.clt_mu(),
            (method, mu, a.at_zero(), a.note.clone()),
        ))
    };
    let (desc, iv, orders, grids, clt, (method, mu, at_zero, note)) = interruptible(py, run)?;
    let grid = grids
        .into_iter()
        .map(|(h, bottom, top, points, fp, fo, inf)| {
            Py::new(
                py,
                Grid {
                    h,
                    window: (bottom, top),
                    points,
                    fft_l1_error_pess: fp,
                    fft_l1_error_opt: fo,
                    infinity_mass_upper: inf,
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    let quantity = if target_name == "delta" {
        "epsilon"
    } else {
        "delta"
    };
    Ok(Composed::new(
        desc,
        quantity.to_string(),
        value,
        Py::new(py, iv)?,
        orders,
        grid,
        clt,
        method.to_string(),
        mu,
        at_zero,
        note,
    ))
}

/// The composed tradeoff curve `f = ⊗ f_i` (the first order of the pair) as vertices
/// `(α, β)` of a piecewise-linear function **below** the truth (`Composed::curve`: the
/// upper envelope of the lines `1 − δ_up(ε) − e^ε α`, DRS22 Prop 2.12, vertices rounded
/// down), with the number of orders composed (2 when the components are asymmetric: the
/// curve is then that of the first order, e.g. the remove direction of a Poisson pair).
#[pyfunction]
#[pyo3(signature = (components, delta, points=200, grid=None))]
fn compose_curve(
    py: Python<'_>,
    components: &Bound<'_, PyAny>,
    delta: f64,
    points: usize,
    grid: Option<i32>,
) -> PyResult<(Vec<(f64, f64)>, usize)> {
    let components = components::specs_of(components)?;
    let run = move || -> Result<_, Error> {
        let c = composition(&components)?;
        let r = c.compose(Target::Delta(finite("delta", delta)?), grid)?;
        let curve = r.curve(points)?;
        Ok((curve.vertices().to_vec(), r.orders()))
    };
    interruptible(py, run)
}

/// Certified Rényi divergence of the sampled Gaussian mechanism (sampling probability q,
/// noise σ, sensitivity 1) at order α > 1, in the order of the pair named by `order`:
/// `"mixture-base"` = `D_α((1−q)N(0,σ²) + qN(1,σ²) ‖ N(0,σ²))` (Mironov–Talwar–Zhang 2019
/// A_α, the order dp_accounting's and Opacus's RDP accountants compute) or
/// `"base-mixture"` = `D_α(N(0,σ²) ‖ mixture)` (AT22's S_α(q, σ)).
/// (`SampledGaussian::divergence`; `bits = None` computes at 64 bits.)
#[pyfunction]
#[pyo3(signature = (q, sigma, alpha, order="mixture-base", bits=None))]
fn sgm_rdp(
    py: Python<'_>,
    q: f64,
    sigma: f64,
    alpha: f64,
    order: &str,
    bits: Option<i64>,
) -> PyResult<Interval> {
    let order = order.to_string();
    let run = move || -> Result<Interval, Error> {
        let (q, sigma, alpha) = (
            finite("q", q)?,
            finite("sigma", sigma)?,
            finite("alpha", alpha)?,
        );
        let order = match order.as_str() {
            "mixture-base" => SgmOrder::MixtureBase,
            "base-mixture" => SgmOrder::BaseMixture,
            other => {
                return Err(Error::param(
                    "order",
                    other,
                    "one of mixture-base, base-mixture",
                ));
            }
        };
        let b = precision(bits)?.mpfr_bits();
        let s = SampledGaussian::new(q, sigma)?;
        let d = s.divergence(order, alpha, b)?;
        Ok(ends(&d, b, format!("mpfr-{b}")))
    };
    interruptible(py, run)
}

/// The certified Rényi curve of one `(kind, parameters)` item of [`rdp_epsilon`].
fn rdp_curve(kind: &str, v: &[f64]) -> Result<shiftdp::renyi::RenyiCurve, Error> {
    use shiftdp::renyi::RenyiCurve;
    use shiftdp::renyi::events;
    for x in v {
        finite(kind, *x)?;
    }
    let want = |n: usize, names: &str| arity(kind, v, n, names);
    Ok(match kind {
        "gaussian" => {
            want(1, "mu")?;
            RenyiCurve::gaussian(v[0])?
        }
        "laplace" => {
            want(1, "b")?;
            events::laplace(v[0])?
        }
        "zcdp" => {
            want(2, "rho, xi")?;
            events::zcdp(v[0], v[1])?
        }
        "tree_aggregation" => {
            if v.len() < 2 {
                return Err(Error::param(
                    kind,
                    "too few parameters",
                    "expects (sigma, step counts…)",
                ));
            }
            let steps = v[1..]
                .iter()
                .map(|x| integer("step_counts", *x, 0.0))
                .collect::<Result<Vec<u64>, Error>>()?;
            events::tree_aggregation(v[0], &steps, events::NeighboringRelation::ReplaceSpecial)?
        }
        "repeat_and_select_gaussian" => {
            want(3, "mean, shape, mu")?;
            events::repeat_and_select(&RenyiCurve::gaussian(v[2])?, v[0], v[1])?
        }
        "repeat_and_select_laplace" => {
            want(3, "mean, shape, b")?;
            events::repeat_and_select(&events::laplace(v[2])?, v[0], v[1])?
        }
        other => {
            return Err(Error::param(
                "component",
                other,
                "no certified Rényi curve (one of gaussian, laplace, zcdp, tree_aggregation, repeat_and_select_gaussian, repeat_and_select_laplace)",
            ));
        }
    })
}

/// Certified ε(δ) of a composition through Rényi DP: the curves of `(kind, parameters,
/// count)` items ([`rdp_curve`]) summed with their counts (RDP composition, Mironov
/// 2017 Prop 1) and converted by the best certified RDP → (ε, δ) conversion. Returns
/// `(ε upper end, conversion name, order α or None)`.
#[pyfunction]
fn rdp_epsilon(
    py: Python<'_>,
    components: Vec<(String, Vec<f64>, i64)>,
    delta: f64,
) -> PyResult<(f64, String, Option<f64>)> {
    let run = move || -> Result<_, Error> {
        let mut parts = vec![];
        for (kind, v, k) in &components {
            if *k < 1 {
                return Err(Error::param("count", k, "must be an integer ≥ 1"));
            }
            parts.push((rdp_curve(kind, v)?, *k as u64));
        }
        if parts.is_empty() {
            return Err(Error::param("components", "none", "give at least one"));
        }
        let curve = shiftdp::renyi::events::compose(&parts)?;
        let d = finite("delta", delta)?;
        let b = shiftdp::renyi::best_conversion(&curve, &Enclosure::from_f64(128, d), 128)?;
        Ok((
            b.best.epsilon_upper(),
            format!("{:?}", b.best.conversion),
            b.best.alpha,
        ))
    };
    interruptible(py, run)
}

pub(crate) fn algorithm(name: &str) -> Result<Algorithm, Error> {
    match name {
        "gd" => Ok(Algorithm::Gd),
        "cgd" => Ok(Algorithm::Cgd),
        "sgd" => Ok(Algorithm::Sgd),
        "lmc" => Ok(Algorithm::Lmc),
        other => Err(Error::param("algorithm", other, "one of gd, cgd, sgd, lmc")),
    }
}

/// The class name of the Python exception an [`Error`] maps to (for an entry's reason).
pub(crate) fn error_kind(e: &Error) -> &'static str {
    match e {
        Error::Parameter { .. } => "ParameterError",
        Error::Parse { .. } => "ParseError",
        Error::Precision { .. } => "PrecisionError",
        Error::Domain { .. } => "DomainError",
        Error::NotCertified { .. } => "NotCertifiedError",
        Error::Hypothesis { .. } => "HypothesisError",
        Error::MemoryLimit { .. } => "MemoryLimitError",
        _ => "ShiftdpError",
    }
}

/// Exact μ of the quadratic (or linear, `curvature = 0`) Gaussian instance of NoisyGD
/// (`"gd"`, full batches, `steps`) or cyclic NoisyCGD (`"cgd"`, batch `batch`, `epochs`,
/// the differing record in batch `position`, or the worst position): the iterates are
/// Gaussian with equal covariance, so T(X_t, X'_t) = G(μ) exactly with
/// μ = L|Δ_t|/√S_t (`shiftdp::exact::gaussian::scalar_mu`), enclosed at `bits`.
/// Returns the enclosure's ends and the position used.
#[pyfunction]
#[pyo3(signature = (algorithm_name, n, eta, noise, sensitivity, curvature, steps=None, epochs=None, batch=None, position=None, bits=128))]
#[allow(clippy::too_many_arguments)]
fn exact_mu(
    py: Python<'_>,
    algorithm_name: &str,
    n: u64,
    eta: Num,
    noise: Num,
    sensitivity: Num,
    curvature: Num,
    steps: Option<u64>,
    epochs: Option<u64>,
    batch: Option<u64>,
    position: Option<u64>,
    bits: u32,
) -> PyResult<(Interval, Option<u64>)> {
    let alg = algorithm_name.to_string();
    let (mu, pos) = interruptible(py, move || {
        Enclosure::check_bits(bits)?;
        let eta = eta.enclosure("eta", bits)?;
        let sigma = noise.enclosure("noise", bits)?;
        let l = sensitivity.enclosure("sensitivity", bits)?;
        let h = curvature.enclosure("curvature", bits)?;
        for (name, v, strict) in [
            ("eta", &eta, true),
            ("noise", &sigma, true),
            ("sensitivity", &l, false),
            ("curvature", &h, false),
        ] {
            let lo = v.lower_f64();
            if !(lo > 0.0 || (!strict && lo >= 0.0)) || !v.upper_f64().is_finite() {
                return Err(Error::param(
                    name,
                    v.mid_f64(),
                    if strict {
                        "must be finite and > 0"
                    } else {
                        "must be finite and ≥ 0"
                    },
                ));
            }
        }
        const MAX_STEPS: u64 = 1_000_000;
        match alg.as_str() {
            "gd" => {
                let t = steps.ok_or_else(|| Error::param("steps", "missing", "give steps"))?;
                if t == 0 || t > MAX_STEPS {
                    return Err(Error::param("steps", t, "must be in 1..=10⁶"));
                }
                let sched = shiftdp::exact::Schedule::full(n, t as usize, eta, sigma)?;
                Ok((shiftdp::exact::gaussian::scalar_mu(&sched, &h, &l), None))
            }
            "cgd" => {
                let b = batch.ok_or_else(|| Error::param("batch", "missing", "give batch"))?;
                let e = epochs.ok_or_else(|| Error::param("epochs", "missing", "give epochs"))?;
                if b == 0 || n == 0 || !n.is_multiple_of(b) {
                    return Err(Error::param(
                        "batch",
                        b,
                        "must satisfy 1 ≤ b ≤ n with b dividing n",
                    ));
                }
                if e == 0 || e.saturating_mul(n / b) > MAX_STEPS {
                    return Err(Error::param("epochs", e, "need 1 ≤ E·n/b ≤ 10⁶"));
                }
                let positions: Vec<u64> = match position {
                    Some(p) => vec![p],
                    None => (0..n / b).collect(),
                };
                let mut worst: Option<(Enclosure, u64)> = None;
                for p in positions {
                    let sched =
                        shiftdp::exact::Schedule::cyclic(n, b, e, p, eta.clone(), sigma.clone())?;
                    let mu = shiftdp::exact::gaussian::scalar_mu(&sched, &h, &l);
                    if worst
                        .as_ref()
                        .is_none_or(|w| mu.upper_f64() > w.0.upper_f64())
                    {
                        worst = Some((mu, p));
                    }
                }
                let (mu, p) = worst.ok_or_else(|| Error::param("batch", b, "no position"))?;
                Ok((mu, Some(p)))
            }
            other => Err(Error::param(
                "algorithm",
                other,
                "exact instances: \"gd\" or \"cgd\"",
            )),
        }
    })?;
    Ok((ends(&mu, bits, "exact instance".to_string()), pos))
}

/// `(tau, mu_upper_decimal, mu_upper, mu_estimate, shifts, gap_uppers, profile)`.
type ScheduleTuple = (
    usize,
    String,
    f64,
    f64,
    Vec<f64>,
    Vec<f64>,
    Vec<(usize, f64)>,
);

/// The optimal shift schedule of the problem with per-step contraction `c`, sensitivity
/// `s` and noise `noise` (and optional diameter): exact KKT solver in f64 with the τ
/// search of `schedules::tau` (or a fixed τ), then a certificate of the returned shifts
/// at `bits` (search without rigor, certify with rigor). The reported μ is the
/// certificate's upper bound; the KKT μ is an estimate beside it.
#[pyfunction]
#[pyo3(signature = (c, s, noise, diameter=None, tau=None, bits=128))]
fn schedule(
    py: Python<'_>,
    c: Vec<f64>,
    s: Vec<f64>,
    noise: Vec<f64>,
    diameter: Option<f64>,
    tau: Option<usize>,
    bits: i64,
) -> PyResult<ScheduleTuple> {
    use shiftdp::schedules::tau::{TauSearch, search_tau};
    let run = move || -> Result<ScheduleTuple, Error> {
        for (name, v) in [("contraction", &c), ("sensitivity", &s), ("noise", &noise)] {
            for x in v.iter() {
                finite(name, *x)?;
            }
        }
        let diameter = diameter.map(|d| finite("diameter", d)).transpose()?;
        let bits = mpfr_bits(bits)?;
        let p = shiftdp::schedules::ScheduleProblem::new(c, s, noise, diameter)?;
        let search = tau.map(TauSearch::Fixed).unwrap_or_default();
        let r = search_tau(&p, search)?;
        let cert = p.certify(r.best.tau, &r.best.shifts_f64(), bits)?;
        Ok((
            cert.tau,
            fmt_up(&cert.mu_upper, bits),
            cert.mu_upper_f64(),
            r.best.mu2.max(0.0).sqrt(),
            cert.shifts.iter().map(|x| x.to_f64()).collect(),
            cert.gaps
                .iter()
                .map(shiftdp::precision::rounding::to_f64_up)
                .collect(),
            r.profile,
        ))
    };
    interruptible(py, run)
}

/// One bound of a [`SamplerReport`]: what it is, its source and hypotheses, and the
/// certified interval `[lower, upper]` of its pair's ε(δ) (an upper bound is its
/// `upper`, a lower bound its `lower`).
#[pyclass(frozen, module = "shiftdp")]
#[derive(Clone)]
struct SamplerBound {
    /// What the bound is.
    #[pyo3(get)]
    name: String,
    /// Where it comes from and what it assumes.
    #[pyo3(get)]
    source: String,
    /// Lower end of the pair's certified ε(δ).
    #[pyo3(get)]
    lower: f64,
    /// Upper end of the pair's certified ε(δ).
    #[pyo3(get)]
    upper: f64,
}

#[pymethods]
impl SamplerBound {
    fn __repr__(&self) -> String {
        format!(
            "SamplerBound(name={:?}, lower={}, upper={})",
            self.name, self.lower, self.upper
        )
    }
}

impl SamplerBound {
    fn of(b: &shiftdp::samplers::Bound) -> SamplerBound {
        SamplerBound {
            name: b.name.clone(),
            source: b.source.clone(),
            lower: b.epsilon.lower,
            upper: b.epsilon.upper,
        }
    }
}

/// One last-iterate result of a [`SamplerReport`] (`shiftdp::analysis::sampled`): its
/// id and paper, the certified ε(δ) upper bound or why it does not apply, and whether it
/// is the best.
#[pyclass(frozen, module = "shiftdp")]
#[derive(Clone)]
struct LastIterateResult {
    /// The result, e.g. `BSA24 Thm 4.5`.
    #[pyo3(get)]
    id: String,
    /// Its paper.
    #[pyo3(get)]
    paper: String,
    /// What it covers.
    #[pyo3(get)]
    title: String,
    /// The certified upper bound on ε(δ), if it applies.
    #[pyo3(get)]
    epsilon: Option<f64>,
    /// Why it has no value.
    #[pyo3(get)]
    reason: Option<String>,
    /// Whether it is the best valid result.
    #[pyo3(get)]
    best: bool,
}

#[pymethods]
impl LastIterateResult {
    fn __repr__(&self) -> String {
        format!(
            "LastIterateResult(id={:?}, epsilon={:?}, best={})",
            self.id,
            self.epsilon,
            if self.best { "True" } else { "False" }
        )
    }
}

/// The certified ε(δ) of a DP-SGD run for the sampler used: `[lower, upper]` (the true
/// ε lies in it), the bounds behind each end, and the Poisson ε a peer accountant
/// reports, with `poisson_below_lower` when it is below the certified lower bound.
#[pyclass(frozen, module = "shiftdp")]
struct SamplerReport {
    /// The sampler's name.
    #[pyo3(get)]
    sampler: String,
    /// The neighbouring relation's name.
    #[pyo3(get)]
    relation: String,
    /// Batches per epoch T.
    #[pyo3(get)]
    steps_per_epoch: u64,
    /// Participations of each record per epoch (k of T for balls-in-bins).
    #[pyo3(get)]
    participations: u64,
    /// Epochs E.
    #[pyo3(get)]
    epochs: u64,
    /// Noise multiplier σ.
    #[pyo3(get)]
    noise_multiplier: f64,
    /// The δ asked.
    #[pyo3(get)]
    delta: f64,
    /// Certified lower bound of the true ε(δ).
    #[pyo3(get)]
    lower: f64,
    /// Certified upper bound of the true ε(δ) (`inf` without one).
    #[pyo3(get)]
    upper: f64,
    /// `lower` as a decimal rounded down (17 significant digits).
    #[pyo3(get)]
    lower_decimal: String,
    /// `upper` as a decimal rounded up (17 significant digits; `inf` without one).
    #[pyo3(get)]
    upper_decimal: String,
    /// The upper bound valid for the sampler, if any.
    #[pyo3(get)]
    upper_bound: Option<SamplerBound>,
    /// Why the upper bound is what it is.
    #[pyo3(get)]
    upper_note: Option<String>,
    /// The certified lower bounds, one per instance.
    #[pyo3(get)]
    lower_bounds: Vec<SamplerBound>,
    /// The Poisson ε a peer accountant reports (certified interval of its pair).
    #[pyo3(get)]
    poisson: SamplerBound,
    /// Whether the Poisson ε is below the certified lower bound.
    #[pyo3(get)]
    poisson_below_lower: bool,
    /// With declared losses: the last-iterate setting the sampler runs (its summary).
    #[pyo3(get)]
    last_iterate_setting: Option<String>,
    /// With declared losses: every last-iterate result for it (only the last iterate
    /// released; replace-one).
    #[pyo3(get)]
    last_iterate: Vec<LastIterateResult>,
    /// Why no last-iterate result applies (a sampler or relation none covers).
    #[pyo3(get)]
    last_iterate_reason: Option<String>,
}

#[pymethods]
impl SamplerReport {
    fn __repr__(&self) -> String {
        format!(
            "SamplerReport(sampler={:?}, relation={:?}, delta={}, epsilon=[{}, {}], poisson={}, poisson_below_lower={})",
            self.sampler,
            self.relation,
            self.delta,
            self.lower,
            self.upper,
            self.poisson.upper,
            if self.poisson_below_lower {
                "True"
            } else {
                "False"
            }
        )
    }
}

/// The certified bounds of a DP-SGD run for its batch sampler (`samplers::account`).
#[pyfunction]
#[pyo3(signature = (sampler, n, batch_size, epochs, noise_multiplier, relation="zero-out", delta=1e-5, drop_last=false, tolerance=1e-3, loss=None, participations=1))]
#[allow(clippy::too_many_arguments)]
fn sampler_report(
    py: Python<'_>,
    sampler: &str,
    n: u64,
    batch_size: u64,
    epochs: u64,
    noise_multiplier: f64,
    relation: &str,
    delta: f64,
    drop_last: bool,
    tolerance: f64,
    loss: Option<Vec<(String, Num)>>,
    participations: u64,
) -> PyResult<SamplerReport> {
    use shiftdp::analysis::sampled::{LastIterate, analyze_sampled};
    use shiftdp::samplers::{Relation, Run, Sampler};
    let (sampler, relation) = (sampler.to_string(), relation.to_string());
    let run = move || -> Result<SamplerReport, Error> {
        let run = Run::new(
            Sampler::parse(&sampler)?,
            n,
            batch_size,
            epochs,
            noise_multiplier,
            Relation::parse(&relation)?,
            drop_last,
        )?
        .with_participations(participations)?;
        let loss = match &loss {
            None => None,
            Some(pairs) => {
                let mut raw = RawSetting::default();
                for (k, v) in pairs {
                    // flags the run fixes are refused by `analyze_sampled`, by name
                    if !raw.set(&k.replace('_', "-"), &v.text(k)?) {
                        return Err(Error::param(
                            "loss",
                            k,
                            "declare only eta, strong_convexity, smoothness, contraction, diameter",
                        ));
                    }
                }
                Some(raw)
            }
        };
        let p = analyze_sampled(&run, loss.as_ref(), delta, tolerance, Precision::F64)?;
        let r = &p.every_iterate;
        let iv = r.interval();
        let (last_iterate_setting, last_iterate, last_iterate_reason) = match &p.last_iterate {
            LastIterate::Analyzed { setting, analysis } => {
                let best = analysis.best_index();
                let list = analysis
                    .entries()
                    .iter()
                    .enumerate()
                    .map(|(i, e)| LastIterateResult {
                        id: e.id.as_str().into(),
                        paper: e.paper().as_str().into(),
                        title: e.title.clone(),
                        epsilon: e.upper_f64(),
                        reason: e.reason().map(|r| r.to_string()),
                        best: Some(i) == best,
                    })
                    .collect();
                (Some(setting.describe()), list, None)
            }
            LastIterate::NotCovered { reason } => (None, vec![], Some(reason.to_string())),
            LastIterate::NotDeclared => (None, vec![], None),
            _ => (None, vec![], Some("not analyzed".to_string())),
        };
        Ok(SamplerReport {
            sampler: run.sampler().id().into(),
            relation: run.relation().id().into(),
            steps_per_epoch: run.steps_per_epoch(),
            participations: run.participations(),
            epochs: run.epochs(),
            noise_multiplier: run.sigma(),
            delta,
            lower: iv.lower,
            upper: iv.upper,
            lower_decimal: shiftdp::decimal::f64_down(iv.lower, 17),
            upper_decimal: shiftdp::decimal::f64_up(iv.upper, 17),
            upper_bound: r.upper.as_ref().map(SamplerBound::of),
            upper_note: r.upper_note.clone(),
            lower_bounds: r.lower.iter().map(SamplerBound::of).collect(),
            poisson: SamplerBound::of(&r.poisson),
            poisson_below_lower: r.poisson_below_lower(),
            last_iterate_setting,
            last_iterate,
            last_iterate_reason,
        })
    };
    interruptible(py, run)
}

/// The module `shiftdp._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DEFAULT_TOLERANCE", shiftdp::composition::DEFAULT_TOLERANCE)?;
    m.add("ShiftdpError", py.get_type::<ShiftdpError>())?;
    m.add("ParameterError", py.get_type::<ParameterError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("PrecisionError", py.get_type::<PrecisionError>())?;
    m.add("DomainError", py.get_type::<DomainError>())?;
    m.add("NotCertifiedError", py.get_type::<NotCertifiedError>())?;
    m.add("MemoryLimitError", py.get_type::<MemoryLimitError>())?;
    m.add("HypothesisError", py.get_type::<HypothesisError>())?;
    m.add_function(wrap_pyfunction!(set_memory_limit, m)?)?;
    m.add_function(wrap_pyfunction!(memory_limit, m)?)?;
    m.add_function(wrap_pyfunction!(mu_up, m)?)?;
    m.add_function(wrap_pyfunction!(p_up, m)?)?;
    m.add_function(wrap_pyfunction!(check_delta, m)?)?;
    m.add_function(wrap_pyfunction!(gdp_epsilon, m)?)?;
    m.add_function(wrap_pyfunction!(gdp_delta, m)?)?;
    m.add_function(wrap_pyfunction!(compose, m)?)?;
    m.add_function(wrap_pyfunction!(clear_kept_composition, m)?)?;
    m.add_function(wrap_pyfunction!(has_kept_composition, m)?)?;
    m.add_function(wrap_pyfunction!(compose_curve, m)?)?;
    analysis::add(m)?;
    claims::add(m)?;
    m.add_function(wrap_pyfunction!(schedule, m)?)?;
    calibration::add(m)?;
    m.add_function(wrap_pyfunction!(exact_mu, m)?)?;
    m.add_function(wrap_pyfunction!(sgm_rdp, m)?)?;
    m.add_function(wrap_pyfunction!(rdp_epsilon, m)?)?;
    m.add_function(wrap_pyfunction!(sampler_report, m)?)?;
    m.add_function(wrap_pyfunction!(readable, m)?)?;
    m.add_class::<Interval>()?;
    m.add_class::<Grid>()?;
    m.add_class::<Composed>()?;
    components::add_classes(m)?;
    results::add(m)?;
    events::add_to(m)?;
    m.add_class::<SamplerReport>()?;
    m.add_class::<SamplerBound>()?;
    m.add_class::<LastIterateResult>()?;
    m.add(
        "SAMPLERS",
        shiftdp::samplers::Sampler::ALL
            .iter()
            .map(|s| s.id())
            .collect::<Vec<_>>(),
    )?;
    m.add("DELTA_FLOOR", DELTA_FLOOR)?;
    Ok(())
}
