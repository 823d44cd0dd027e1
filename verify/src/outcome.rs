//! The result of running one obligation: status, margins, tightness, the parameter
//! point of a failure, and plot data for the report.
//!
//! Every check that `shiftdp verify` runs — generic obligation kinds of proofs/ files,
//! named [`Builtin`] checks registered by the modules, claims and ERRATA evidence —
//! returns an [`Outcome`]. A check must be *able to fail*: `Pass` means the property was
//! evaluated at every point of the region and held; `Fail` carries a counterexample.
//!
//! # Example
//! ```
//! use shiftdp_verify::{Outcome, Status};
//! let o = Outcome::pass("3 points", 3).with_margin(0.25);
//! assert_eq!(o.status, Status::Pass);
//! let f = Outcome::fail("below instance", 3, vec![("steps".into(), "7".into())], "μ 0.5 < 0.6");
//! assert_eq!(f.status, Status::Fail);
//! assert!(f.counterexample.is_some());
//! ```

/// Status of an obligation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Evaluated at every point; the property held.
    Pass,
    /// The property failed at a point (see the counterexample).
    Fail,
    /// The check could not be run (bad obligation, instance failure, …): counts as a
    /// failure of `verify`.
    Error,
}

impl Status {
    /// Lower-case name (`pass`, `fail`, `error`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

/// A parameter point where a check failed, with what failed there.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterexample {
    /// Parameters (name, decimal value), e.g. `("steps", "12")`.
    pub params: Vec<(String, String)>,
    /// What failed, with both values, e.g. `"μ_claim 0.51 < μ_instance 1.02"`.
    pub detail: String,
}

pub use crate::plot::Series;

/// A plot for the report (rendered as inline SVG).
#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    /// Title.
    pub title: String,
    /// A line under the title (e.g. the setting the plot is drawn at).
    pub caption: Option<String>,
    /// x-axis label.
    pub x_label: String,
    /// y-axis label.
    pub y_label: String,
    /// Curves.
    pub series: Vec<Series>,
}

/// The result of one check.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Status.
    pub status: Status,
    /// One-line human summary (what was checked, how many points, the worst margin).
    pub summary: String,
    /// Number of parameter points (or cases) evaluated.
    pub points: usize,
    /// Smallest signed margin seen (positive: on the safe side), if meaningful.
    pub min_margin: Option<f64>,
    /// `(min, median, max)` of tightness ratios (bound over the exact value), if any.
    pub tightness: Option<(f64, f64, f64)>,
    /// The first failing point.
    pub counterexample: Option<Counterexample>,
    /// Plots for the report.
    pub plots: Vec<Plot>,
}

impl Outcome {
    /// A passing outcome.
    pub fn pass(summary: impl Into<String>, points: usize) -> Self {
        Outcome {
            status: Status::Pass,
            summary: summary.into(),
            points,
            min_margin: None,
            tightness: None,
            counterexample: None,
            plots: vec![],
        }
    }

    /// A failing outcome with its counterexample.
    pub fn fail(
        summary: impl Into<String>,
        points: usize,
        params: Vec<(String, String)>,
        detail: impl Into<String>,
    ) -> Self {
        Outcome {
            status: Status::Fail,
            counterexample: Some(Counterexample {
                params,
                detail: detail.into(),
            }),
            ..Outcome::pass(summary, points)
        }
    }

    /// An outcome for a check that could not run.
    pub fn error(message: impl Into<String>) -> Self {
        Outcome {
            status: Status::Error,
            ..Outcome::pass(message, 0)
        }
    }

    /// `Pass` if `ok`, else `Fail` with the given counterexample.
    pub fn check(
        ok: bool,
        summary: impl Into<String>,
        points: usize,
        params: Vec<(String, String)>,
        detail: impl Into<String>,
    ) -> Self {
        if ok {
            Outcome::pass(summary, points)
        } else {
            Outcome::fail(summary, points, params, detail)
        }
    }

    /// Sets the smallest margin.
    pub fn with_margin(mut self, m: f64) -> Self {
        self.min_margin = Some(m);
        self
    }

    /// Sets the tightness summary.
    pub fn with_tightness(mut self, t: Option<(f64, f64, f64)>) -> Self {
        self.tightness = t;
        self
    }

    /// Sets the tightness summary from raw ratios ([`ratio_summary`]).
    pub fn with_ratios(self, ratios: &[f64]) -> Self {
        self.with_tightness(ratio_summary(ratios))
    }

    /// Adds a plot.
    pub fn with_plot(mut self, p: Plot) -> Self {
        self.plots.push(p);
        self
    }
}

/// `(min, median, max)` of the finite ratios (the upper median for an even count), or
/// `None` if there is none.
///
/// # Example
/// ```
/// use shiftdp_verify::outcome::ratio_summary;
/// assert_eq!(ratio_summary(&[3.0, f64::NAN, 1.0, 2.0]), Some((1.0, 2.0, 3.0)));
/// assert_eq!(ratio_summary(&[f64::INFINITY]), None);
/// ```
pub fn ratio_summary(ratios: &[f64]) -> Option<(f64, f64, f64)> {
    let mut v: Vec<f64> = ratios.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    Some((*v.first()?, v[v.len() / 2], v[v.len() - 1]))
}

/// How a check is run: sample count, seed, precision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ctx {
    /// Number of parameter points; `None`: the check's own default.
    pub samples: Option<usize>,
    /// Seed of the deterministic sampler.
    pub seed: u64,
    /// MPFR precision of certified evaluations.
    pub bits: u32,
}

impl Default for Ctx {
    fn default() -> Self {
        Ctx {
            samples: None,
            seed: 1,
            bits: 128,
        }
    }
}

impl Ctx {
    /// The sample count: `samples` if set, else `default`, never 0.
    pub fn samples_or(&self, default: usize) -> usize {
        self.samples.unwrap_or(default).max(1)
    }
}

/// A named check that a proofs/ obligation can call with
/// `kind = "builtin"`, `name = "<name>"`.
#[derive(Debug, Clone, Copy)]
pub struct Builtin {
    /// Unique name, `module/what`, e.g. `"renyi/conversions-dominate-exact-gdp"`.
    pub name: &'static str,
    /// One line: the property checked.
    pub about: &'static str,
    /// Runs the check.
    pub run: fn(&Ctx) -> Outcome,
}

/// One obligation as run by `verify`.
#[derive(Debug, Clone, PartialEq)]
pub struct ObligationRun {
    /// Short label, e.g. `"dominates-instances (BSA24 Thm 4.2)"`.
    pub label: String,
    /// The obligation kind (`dominates-instances`, `schedule`, `builtin`, …).
    pub kind: String,
    /// What happened.
    pub outcome: Outcome,
}

/// One result (a proofs/ file, a claim, or an ERRATA entry) with its obligations.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRun {
    /// Result id, e.g. `"BSA24 Thm 4.2"`, `"claim"` or `"ERRATA BSA1"`.
    pub id: String,
    /// Title (the proofs file's heading after the id).
    pub title: String,
    /// Source file relative to the crate root (e.g. `proofs/bsa24-thm-4-2.md`).
    pub path: String,
    /// The statement section (Markdown), shown in the report.
    pub statement: String,
    /// Obligations in file order.
    pub runs: Vec<ObligationRun>,
}

impl ResultRun {
    /// The worst status of the obligations (`Pass` if there are none).
    pub fn status(&self) -> Status {
        self.runs
            .iter()
            .map(|r| r.outcome.status)
            .max()
            .unwrap_or(Status::Pass)
    }
}

/// A whole verification run (deterministic for a given seed: no timings inside).
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Seed of every sampler.
    pub seed: u64,
    /// Sample-count override (`None`: each obligation's default).
    pub samples: Option<usize>,
    /// MPFR precision.
    pub bits: u32,
    /// Results (proofs files, then claims, then ERRATA entries).
    pub results: Vec<ResultRun>,
}

impl Run {
    /// The worst status over all results.
    pub fn status(&self) -> Status {
        self.results
            .iter()
            .map(ResultRun::status)
            .max()
            .unwrap_or(Status::Pass)
    }
}

/// What the unit tests of the named checks share.
#[cfg(test)]
pub(crate) mod testkit {
    use super::{Builtin, Ctx, Outcome, Status};

    /// The default context with `samples` random points per check.
    pub(crate) fn ctx_with(samples: usize) -> Ctx {
        Ctx {
            samples: Some(samples),
            ..Ctx::default()
        }
    }

    /// The status of `o`, its summary and counterexample printed (shown on failure).
    pub(crate) fn status(o: &Outcome) -> Status {
        eprintln!("{:?}: {} {:?}", o.status, o.summary, o.counterexample);
        o.status
    }

    /// Each row `(expected, outcome)` of a table: the outcome has the expected status
    /// (the failing row's index and summary are printed).
    #[track_caller]
    pub(crate) fn assert_statuses<const N: usize>(rows: [(Status, Outcome); N]) {
        for (i, (want, o)) in rows.iter().enumerate() {
            assert_eq!(status(o), *want, "row {i}: {}", o.summary);
        }
    }

    /// Each row `(expected, input)` of a table: `check(input, ctx)` has the expected
    /// status (the failing row's index and summary are printed).
    #[track_caller]
    pub(crate) fn assert_cases<T, const N: usize>(
        check: impl Fn(T, &Ctx) -> Outcome,
        ctx: &Ctx,
        rows: [(Status, T); N],
    ) {
        assert_statuses(rows.map(|(want, x)| (want, check(x, ctx))));
    }

    /// Every check of `b` has its own name, and each name starts with one of `prefixes`.
    pub(crate) fn assert_unique_prefixed(b: &[Builtin], prefixes: &[&str]) {
        let mut names: Vec<&str> = b.iter().map(|x| x.name).collect();
        assert!(
            names
                .iter()
                .all(|n| prefixes.iter().any(|p| n.starts_with(p))),
            "a name without one of {prefixes:?}"
        );
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), b.len(), "two checks share a name");
    }
}
