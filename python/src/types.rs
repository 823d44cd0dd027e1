//! The result classes of `shiftdp`: [`Interval`] (a certified enclosure), [`Grid`] (one
//! grid of the composition engine) and [`Composed`] (a certified composition), frozen
//! Python classes with the attributes, equality, hashing, pickling and text forms of
//! the package's public API.

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyTuple};

use crate::to_py_err;
use shiftdp::Error;
use shiftdp_verify::report::esc;

/// `text` (a decimal number) rounded to `digits` (≥ 1) significant digits in the safe
/// direction, toward +∞ when `up` (the rounded value is ≥ the exact one) and toward −∞
/// otherwise, computed on the digits exactly, and written by `shiftdp::decimal::readable`
/// (plain notation when the leading digit is at 10⁻⁵ … 10⁵, scientific otherwise,
/// trailing zeros dropped). Zero and text that is not a finite decimal (`inf`, `nan`)
/// are returned as given.
pub(crate) fn readable(text: &str, up: bool, digits: usize) -> String {
    let digits = digits.max(1);
    let Some((neg, sig, mut point)) = shiftdp::decimal::significand(text) else {
        return text.to_string();
    };
    if sig.is_empty() {
        return text.to_string();
    }
    let mut kept: Vec<u8> = sig.bytes().take(digits).map(|b| b - b'0').collect();
    // the significant digits end in a non-zero one: any beyond `digits` are dropped
    let dropped = sig.len() > digits;
    // away from zero exactly when that is the asked direction
    if dropped && up != neg {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, 1);
                kept.pop();
                point += 1;
                break;
            }
            i -= 1;
            if kept[i] == 9 {
                kept[i] = 0;
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    let ds: String = kept.iter().map(|d| char::from(b'0' + d)).collect();
    let sign = if neg { "-" } else { "" };
    shiftdp::decimal::readable(&format!("{sign}0.{ds}e{point}"))
}

/// `format(x, spec)` of Python (e.g. `".2g"`), so that numbers read as Python prints
/// them.
pub(crate) fn pyformat(py: Python<'_>, x: f64, spec: &str) -> PyResult<String> {
    py.import("builtins")?
        .getattr("format")?
        .call1((x, spec))?
        .extract()
}

/// `repr(x)` of Python: the shortest decimal that reads back to `x`.
pub(crate) fn pyrepr(py: Python<'_>, x: f64) -> PyResult<String> {
    Ok(PyFloat::new(py, x).repr()?.to_string())
}

/// `Name(field=value, …)` with each value's Python `repr` (a dataclass's `repr`).
pub(crate) fn fields_repr(
    name: &str,
    fields: &[&str],
    values: &Bound<'_, PyTuple>,
) -> PyResult<String> {
    let parts = fields
        .iter()
        .zip(values.iter())
        .map(|(f, v)| Ok(format!("{f}={}", v.repr()?)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(format!("{name}({})", parts.join(", ")))
}

/// A certified enclosure `[lower, upper]` of an exact value.
///
/// `upper` is the safe end for ε, δ and μ (it is what shiftdp reports as the bound);
/// `lower` is a certified lower bound on the truth. `float(interval)` is `upper` — never
/// a midpoint. The decimal strings are rounded outward from the exact (MPFR or f64)
/// ends: `upper_decimal ≥ upper` as real numbers, `lower_decimal ≤ lower`. `path` says
/// how the value was computed (`f64`, `mpfr-64 (f64 fallback)`, `mpfr-N`, `pld` for a
/// composition, `analysis`). Raises `ParameterError` for a NaN end or `lower > upper`.
#[pyclass(frozen, eq, from_py_object, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct Interval {
    /// Certified lower bound on the exact value.
    #[pyo3(get)]
    pub lower: f64,
    /// Certified upper bound on the exact value (the bound reported).
    #[pyo3(get)]
    pub upper: f64,
    /// `lower` as a decimal rounded down.
    #[pyo3(get)]
    pub lower_decimal: String,
    /// `upper` as a decimal rounded up.
    #[pyo3(get)]
    pub upper_decimal: String,
    /// How the value was computed.
    #[pyo3(get)]
    pub path: String,
}

impl Interval {
    fn width_text(&self, py: Python<'_>) -> PyResult<String> {
        let w = self.upper - self.lower;
        if w.is_finite() {
            pyformat(py, w, ".2g")
        } else {
            pyformat(py, w, "")
        }
    }
}

#[pymethods]
impl Interval {
    #[new]
    #[pyo3(signature = (lower, upper, lower_decimal, upper_decimal, path=String::new()))]
    fn new(
        lower: f64,
        upper: f64,
        lower_decimal: String,
        upper_decimal: String,
        path: String,
    ) -> PyResult<Interval> {
        if lower.is_nan() || upper.is_nan() || lower > upper {
            return Err(to_py_err(Error::param(
                "interval",
                format!("[{lower}, {upper}]"),
                "needs lower ≤ upper, neither NaN",
            )));
        }
        Ok(Interval {
            lower,
            upper,
            lower_decimal,
            upper_decimal,
            path,
        })
    }

    /// `upper - lower` (an f64 estimate of the width).
    #[getter]
    fn width(&self) -> f64 {
        self.upper - self.lower
    }

    /// `upper` to 6 significant digits, rounded up (never below the bound).
    #[getter]
    fn upper_readable(&self) -> String {
        readable(&self.upper_decimal, true, 6)
    }

    /// `lower` to 6 significant digits, rounded down.
    #[getter]
    fn lower_readable(&self) -> String {
        readable(&self.lower_decimal, false, 6)
    }

    fn __contains__(&self, x: f64) -> bool {
        self.lower <= x && x <= self.upper
    }

    fn __float__(&self) -> f64 {
        self.upper
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.__getnewargs__(py)?.hash()
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.lower,
            self.upper,
            &self.lower_decimal,
            &self.upper_decimal,
            &self.path,
        )
            .into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Interval(≤ {}, ≥ {}, width {}; full decimals in .upper_decimal/.lower_decimal)",
            self.upper_readable(),
            self.lower_readable(),
            self.width_text(py)?
        ))
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "≤ {}  (certified; true value ≥ {}, width {})",
            self.upper_readable(),
            self.lower_readable(),
            self.width_text(py)?
        ))
    }

    pub(crate) fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let up = self.upper_readable();
        Ok(format!(
            "<b>≤ {up}</b> <small>(certified upper bound; true value in [{}, {up}], width {}, {})</small>",
            self.lower_readable(),
            self.width_text(py)?,
            esc(&self.path)
        ))
    }
}

/// One grid of the certified PLD engine: spacing `h` of the privacy-loss lattice, its
/// `window` (bottom, top), `points` per order, the bounds on the FFT's L1 round-off on
/// the pessimistic and optimistic sides, and an upper bound on the mass the
/// discretization moved to +∞.
#[pyclass(frozen, eq, module = "shiftdp")]
#[derive(Clone, PartialEq, Debug)]
pub struct Grid {
    /// Spacing of the privacy-loss lattice.
    #[pyo3(get)]
    pub h: f64,
    /// The window (bottom, top) of the lattice.
    #[pyo3(get)]
    pub window: (f64, f64),
    /// Points per order.
    #[pyo3(get)]
    pub points: usize,
    /// Bound on the FFT's L1 round-off, pessimistic side.
    #[pyo3(get)]
    pub fft_l1_error_pess: f64,
    /// Bound on the FFT's L1 round-off, optimistic side.
    #[pyo3(get)]
    pub fft_l1_error_opt: f64,
    /// Upper bound on the mass moved to +∞.
    #[pyo3(get)]
    pub infinity_mass_upper: f64,
}

const GRID_FIELDS: [&str; 6] = [
    "h",
    "window",
    "points",
    "fft_l1_error_pess",
    "fft_l1_error_opt",
    "infinity_mass_upper",
];

#[pymethods]
impl Grid {
    #[new]
    fn new(
        h: f64,
        window: (f64, f64),
        points: usize,
        fft_l1_error_pess: f64,
        fft_l1_error_opt: f64,
        infinity_mass_upper: f64,
    ) -> Grid {
        Grid {
            h,
            window,
            points,
            fft_l1_error_pess,
            fft_l1_error_opt,
            infinity_mass_upper,
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.__getnewargs__(py)?.hash()
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.h,
            self.window,
            self.points,
            self.fft_l1_error_pess,
            self.fft_l1_error_opt,
            self.infinity_mass_upper,
        )
            .into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        fields_repr("Grid", &GRID_FIELDS, &self.__getnewargs__(py)?)
    }
}

/// A certified composition: `interval` encloses ε(δ) (`quantity == "epsilon"`) or δ(ε)
/// (`quantity == "delta"`) at `at`. `clt_mu` is the central-limit *approximation* μ
/// (BSA24 Lemma A.5), not a bound.
///
/// `method` is `"pld"` (the certified FFT engine; `grid` lists its grids), `"pure dp"`
/// (the bound `Σkᵢℓ̄ᵢ` of bounded losses, where it decides) or `"gaussian closed form"`
/// when every component is Gaussian: `⊗ G(μᵢ)^{⊗kᵢ} = G(√Σkᵢμᵢ²)` exactly, with
/// `gaussian_mu_upper` the upper end of that μ and no grid. `at_zero` is true for an
/// ε(δ) query whose certified δ(0) is already ≤ δ: the mechanism is (0, δ)-DP, the true
/// ε(δ) of the privacy profile is ≤ 0, and the interval `[0, 0]` is the clamp, not a
/// bracket. `note` says why the interval is what it is when that is not the named
/// method's answer within the tolerance: a certified fallback that set an end (the
/// no-amplification bound `G(√Σkᵢμᵢ²)`, with `method` then `"gaussian closed form"`),
/// or the grid limit that kept the width above the tolerance and what would narrow it;
/// `None` otherwise.
#[pyclass(frozen, module = "shiftdp")]
pub struct Composed {
    /// The components composed, as `name^⊗count ⊗ …`.
    #[pyo3(get)]
    composition: String,
    /// `"epsilon"` (the interval encloses ε(δ)) or `"delta"` (δ(ε)).
    #[pyo3(get)]
    quantity: String,
    /// The δ (for ε) or ε (for δ) asked.
    #[pyo3(get)]
    at: f64,
    /// The certified enclosure.
    #[pyo3(get)]
    interval: Py<Interval>,
    /// Orders of the pair composed (2 when a component is asymmetric).
    #[pyo3(get)]
    orders: usize,
    /// The grids of the engine (empty without one).
    #[pyo3(get)]
    grid: Vec<Py<Grid>>,
    /// The central-limit approximation μ (not a bound).
    #[pyo3(get)]
    clt_mu: Option<f64>,
    /// How the interval was computed.
    #[pyo3(get)]
    method: String,
    /// Upper end of the closed-form μ (`method == "gaussian closed form"`).
    #[pyo3(get)]
    gaussian_mu_upper: Option<f64>,
    /// Whether the answer is the (0, δ)-DP clamp `[0, 0]`.
    #[pyo3(get)]
    at_zero: bool,
    /// Why the interval is what it is, when not the method's answer within the
    /// tolerance.
    #[pyo3(get)]
    note: Option<String>,
}

impl Composed {
    fn symbols(&self) -> (&'static str, &'static str) {
        if self.quantity == "epsilon" {
            ("ε", "δ")
        } else {
            ("δ", "ε")
        }
    }
}

#[pymethods]
impl Composed {
    #[new]
    #[pyo3(signature = (composition, quantity, at, interval, orders, grid, clt_mu, method="pld".to_string(), gaussian_mu_upper=None, at_zero=false, note=None))]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        composition: String,
        quantity: String,
        at: f64,
        interval: Py<Interval>,
        orders: usize,
        grid: Vec<Py<Grid>>,
        clt_mu: Option<f64>,
        method: String,
        gaussian_mu_upper: Option<f64>,
        at_zero: bool,
        note: Option<String>,
    ) -> Composed {
        Composed {
            composition,
            quantity,
            at,
            interval,
            orders,
            grid,
            clt_mu,
            method,
            gaussian_mu_upper,
            at_zero,
            note,
        }
    }

    /// The certified bound (upper end).
    #[getter]
    fn upper(&self) -> f64 {
        self.interval.get().upper
    }

    /// Certified lower bound on the true value.
    #[getter]
    fn lower(&self) -> f64 {
        self.interval.get().lower
    }

    fn __float__(&self) -> f64 {
        self.upper()
    }

    fn __eq__(&self, other: PyRef<'_, Composed>) -> bool {
        let grids = |c: &Composed| c.grid.iter().map(|g| g.get().clone()).collect::<Vec<_>>();
        (
            &self.composition,
            &self.quantity,
            self.at,
            self.interval.get(),
            self.orders,
            self.clt_mu,
            &self.method,
            self.gaussian_mu_upper,
            self.at_zero,
            &self.note,
        ) == (
            &other.composition,
            &other.quantity,
            other.at,
            other.interval.get(),
            other.orders,
            other.clt_mu,
            &other.method,
            other.gaussian_mu_upper,
            other.at_zero,
            &other.note,
        ) && grids(self) == grids(&other)
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let head = (
            &self.composition,
            &self.quantity,
            self.at,
            self.interval.clone_ref(py),
            self.orders,
            self.grid
                .iter()
                .map(|g| g.clone_ref(py))
                .collect::<Vec<_>>(),
        )
            .into_pyobject(py)?;
        let tail = (
            self.clt_mu,
            &self.method,
            self.gaussian_mu_upper,
            self.at_zero,
            &self.note,
        )
            .into_pyobject(py)?;
        PyTuple::new(py, head.iter().chain(tail.iter()).collect::<Vec<_>>())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let at = pyrepr(py, self.at)?;
        if self.at_zero {
            return Ok(format!(
                "Composed({}: (0, δ={at})-DP; ε(δ) ≤ 0)",
                self.composition
            ));
        }
        let (sym, other) = self.symbols();
        Ok(format!(
            "Composed({}: {sym}({other}={at}) {})",
            self.composition,
            self.interval.get().__str__(py)?
        ))
    }

    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let (sym, other) = self.symbols();
        let clt = match self.clt_mu {
            Some(mu) => format!(
                "; CLT approximation μ ≈ {} (not a bound)",
                pyformat(py, mu, ".6g")?
            ),
            None => String::new(),
        };
        let grid = match self.grid.first() {
            Some(g) => format!("grid h = {}", pyformat(py, g.get().h, ".4g")?),
            None => "no grid".to_string(),
        };
        Ok(format!(
            "<p>{}</p><p>{sym}({other} = {}) {}</p><small>{} order(s) composed, {grid}{clt}</small>",
            esc(&self.composition),
            pyrepr(py, self.at)?,
            self.interval.get()._repr_html_(py)?,
            self.orders
        ))
    }
}
