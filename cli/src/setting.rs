//! Setting flags shared by `bound`, `schedule`, `exact` and `compare`.
use shiftdp::error::{Error, Result};
use shiftdp::settings::{Algorithm, RawSetting, Setting};

/// The algorithm positional argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AlgorithmArg {
    /// Full-batch NoisyGD.
    Gd,
    /// Cyclic NoisyCGD.
    Cgd,
    /// Stochastic NoisySGD.
    Sgd,
    /// Langevin Monte Carlo (NoisyGD with n = 1, σ = √(2/η)).
    Lmc,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(a: AlgorithmArg) -> Self {
        match a {
            AlgorithmArg::Gd => Algorithm::Gd,
            AlgorithmArg::Cgd => Algorithm::Cgd,
            AlgorithmArg::Sgd => Algorithm::Sgd,
            AlgorithmArg::Lmc => Algorithm::Lmc,
        }
    }
}

/// Flags describing a run (parameter model of docs/conventions.md §2). Numbers are
/// decimals, parsed exactly.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SettingArgs {
    /// Dataset size n.
    #[arg(long, allow_hyphen_values = true)]
    pub n: Option<String>,
    /// Batch size b (cyclic/stochastic; full batch uses b = n).
    #[arg(long, allow_hyphen_values = true)]
    pub batch: Option<String>,
    /// Number of steps t.
    #[arg(long, allow_hyphen_values = true)]
    pub steps: Option<String>,
    /// Number of epochs E (t = E·n/b).
    #[arg(long, allow_hyphen_values = true)]
    pub epochs: Option<String>,
    /// Step size η.
    #[arg(long, allow_hyphen_values = true)]
    pub eta: Option<String>,
    /// Noise σ (per-step noise standard deviation ησ); LMC default √(2/η).
    #[arg(long, allow_hyphen_values = true)]
    pub noise: Option<String>,
    /// Gradient sensitivity L = sup‖∇f − ∇f′‖ (2× the Lipschitz constant).
    #[arg(long, allow_hyphen_values = true)]
    pub sensitivity: Option<String>,
    /// Strong convexity m.
    #[arg(long, allow_hyphen_values = true)]
    pub strong_convexity: Option<String>,
    /// Smoothness M.
    #[arg(long, allow_hyphen_values = true)]
    pub smoothness: Option<String>,
    /// Contraction c of one gradient step, given directly.
    #[arg(long, allow_hyphen_values = true)]
    pub contraction: Option<String>,
    /// Diameter D of the constraint set.
    #[arg(long, allow_hyphen_values = true)]
    pub diameter: Option<String>,
}

impl SettingArgs {
    /// The raw (unvalidated) setting.
    pub fn raw(&self) -> RawSetting {
        RawSetting {
            n: self.n.clone(),
            batch: self.batch.clone(),
            steps: self.steps.clone(),
            epochs: self.epochs.clone(),
            eta: self.eta.clone(),
            noise: self.noise.clone(),
            sensitivity: self.sensitivity.clone(),
            strong_convexity: self.strong_convexity.clone(),
            smoothness: self.smoothness.clone(),
            contraction: self.contraction.clone(),
            diameter: self.diameter.clone(),
        }
    }

    /// Validates into a [`Setting`].
    ///
    /// # Errors
    /// As [`Setting::new`].
    pub fn setting(&self, alg: AlgorithmArg) -> Result<Setting> {
        Setting::new(alg.into(), &self.raw())
    }
}

/// A count flag (`--n`, `--batch`, `--steps`, `--epochs` where they must be whole):
/// `None` when absent, else a plain non-negative integer (range checks are the
/// command's).
///
/// # Errors
/// [`Error::Parse`] for anything but decimal digits (and a value above `u64::MAX`).
pub fn parse_count(flag: &str, v: &Option<String>) -> Result<Option<u64>> {
    let Some(s) = v else { return Ok(None) };
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::Parse {
            input: s.clone(),
            reason: format!("--{flag} expects a whole number"),
        });
    }
    t.parse().map(Some).map_err(|_| Error::Parse {
        input: s.clone(),
        reason: format!("--{flag} is too large"),
    })
}

/// The text of a flag the command cannot do without.
///
/// # Errors
/// [`Error::Parameter`] naming the flag when it is absent.
pub fn required(flag: &str, v: &Option<String>) -> Result<String> {
    v.clone()
        .ok_or_else(|| Error::param(flag, "missing", &format!("give --{flag}")))
}

/// Arguments shared by `shiftdp bound` and `shiftdp compare`: one run and a δ.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// The algorithm.
    #[arg(value_enum)]
    pub algorithm: AlgorithmArg,
    /// Setting flags.
    #[command(flatten)]
    pub setting: SettingArgs,
    /// δ for the (ε, δ) conversions.
    #[arg(long, default_value = "1e-5", allow_hyphen_values = true)]
    pub delta: String,
    /// MPFR precision of the conversions (default: the f64 path with MPFR fallback for
    /// GDP bounds, 128 bits for Rényi curves).
    #[arg(long)]
    pub bits: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A setting value echoed in JSON: the midpoint of its enclosure as a decimal string.
/// These are inputs (what was typed, parsed exactly), not bounds, so the midpoint is
/// acceptable here and nowhere else.
fn echo(e: &shiftdp::precision::Enclosure) -> serde_json::Value {
    super::dec(e.mid_f64())
}

/// The schema's Setting object of a run (`"setting"` in every command that involves
/// one): algorithm, counts as integers, reals as decimal strings (inputs echoed at their
/// midpoint), absent values null, and the one-line summary.
pub fn setting_json(s: &Setting) -> serde_json::Value {
    let opt =
        |e: Option<&shiftdp::precision::Enclosure>| e.map(echo).unwrap_or(serde_json::Value::Null);
    serde_json::json!({
        "algorithm": s.algorithm().name(),
        "n": s.n(),
        "b": s.b(),
        "t": s.t(),
        "epochs": opt(s.epochs()),
        "eta": echo(s.eta()),
        "sigma": echo(s.sigma()),
        "sensitivity": echo(s.sensitivity()),
        "strong_convexity": opt(s.strong_convexity()),
        "smoothness": opt(s.smoothness()),
        "contraction": opt(s.contraction()),
        "contraction_given": s.contraction_given(),
        "diameter": opt(s.diameter()),
        "summary": s.describe(),
    })
}
