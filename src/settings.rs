//! Settings: a validated description of one training run in the toolkit's single
//! parameter model (docs/conventions.md §2).
//!
//! Template (BSA24 eq. 2.1):
//! `X_{k+1} = Π_K[X_k − η((1/b) Σ_{i∈B_k} ∇f_i(X_k) + Z_{k+1})]`, `Z ~ N(0, σ² I_d)`.
//! Per-step noise standard deviation ησ, update sensitivity `s = ηL/b`, contraction
//! `c = max{|1 − ηm|, |1 − ηM|}` (BSA24 Lemma 2.8). Langevin (LMC, BSA24 Prop 5.1) is the
//! special case `n = b = 1`, `σ = √(2/η)`.
//!
//! Real parameters are kept as [`Enclosure`]s of the decimal numbers the user typed, so
//! bounds computed from them can be rounded in the safe direction.
use crate::error::{Error, Result, batch_within};
use crate::precision::Enclosure;
use rug::ops::Pow;
use rug::{Integer, Rational};

/// Working precision for settings' parameters (bits).
pub const SETTING_BITS: u32 = 128;

/// The batch scheme of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Algorithm {
    /// Full-batch noisy gradient descent (b = n).
    Gd,
    /// Cyclic batches: l = n/b batches per epoch in a fixed order.
    Cgd,
    /// Stochastic batches: a uniform size-b subset each step.
    Sgd,
    /// Langevin Monte Carlo: NoisyGD with n = 1 and σ = √(2/η) (BSA24 Prop 5.1).
    Lmc,
}

impl Algorithm {
    /// Name as used on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Gd => "gd",
            Algorithm::Cgd => "cgd",
            Algorithm::Sgd => "sgd",
            Algorithm::Lmc => "lmc",
        }
    }
}

/// Raw, unvalidated setting as typed by a user (decimal strings).
#[derive(Debug, Clone, Default)]
pub struct RawSetting {
    /// Dataset size n.
    pub n: Option<String>,
    /// Batch size b.
    pub batch: Option<String>,
    /// Number of steps t.
    pub steps: Option<String>,
    /// Number of epochs E (cyclic / stochastic).
    pub epochs: Option<String>,
    /// Step size η.
    pub eta: Option<String>,
    /// Noise σ (per-step noise std is ησ). Derived as √(2/η) for LMC if absent.
    pub noise: Option<String>,
    /// Gradient sensitivity L.
    pub sensitivity: Option<String>,
    /// Strong convexity m.
    pub strong_convexity: Option<String>,
    /// Smoothness M.
    pub smoothness: Option<String>,
    /// Contraction c given directly.
    pub contraction: Option<String>,
    /// Diameter D of the constraint set.
    pub diameter: Option<String>,
}

/// A setting parameter given from Rust: an integer, an f64 (taken at its exact binary
/// value) or a decimal string (taken exactly as typed).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SettingValue {
    /// An integer (n, b, t, E, or an integer-valued real).
    Int(u64),
    /// An f64: its exact binary value is the parameter (no decimal rounding).
    Real(f64),
    /// A decimal as a user typed it.
    Decimal(String),
}

impl From<u64> for SettingValue {
    fn from(v: u64) -> Self {
        SettingValue::Int(v)
    }
}

impl From<u32> for SettingValue {
    fn from(v: u32) -> Self {
        SettingValue::Int(u64::from(v))
    }
}

impl From<f64> for SettingValue {
    fn from(v: f64) -> Self {
        SettingValue::Real(v)
    }
}

impl From<&str> for SettingValue {
    fn from(v: &str) -> Self {
        SettingValue::Decimal(v.to_string())
    }
}

/// The exact decimal expansion of a finite f64 (every f64 is a dyadic rational, so the
/// expansion terminates): `0.1` gives `0.1000000000000000055511151231257827021181583404541015625`.
///
/// # Errors
/// [`Error::Parameter`] for NaN or ±∞.
pub fn exact_f64_decimal(name: &str, x: f64) -> Result<String> {
    let q = Rational::from_f64(x).ok_or_else(|| Error::param(name, x, "must be finite"))?;
    let (num, den) = q.into_numer_denom();
    // den = 2^k: num/2^k = num·5^k / 10^k
    let k = den.significant_bits() - 1;
    let scaled = num * Integer::from(5).pow(k);
    let neg = scaled < 0;
    let digits = scaled.abs().to_string();
    let k = k as usize;
    let digits = format!("{digits:0>width$}", width = k + 1);
    let (int, frac) = digits.split_at(digits.len() - k);
    let sign = if neg { "-" } else { "" };
    Ok(if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    })
}

impl RawSetting {
    /// Sets the flag `name` (as in [`RawSetting::from_pairs`]) from a Rust value.
    ///
    /// # Example
    /// ```
    /// use shiftdp::{Algorithm, RawSetting, Setting};
    /// let raw = RawSetting::default()
    ///     .with("n", 60000u64)?.with("batch", 1500u64)?.with("epochs", 50u64)?
    ///     .with("eta", 1.0)?.with("noise", 1.0)?.with("sensitivity", 1000u64)?
    ///     .with("contraction", "0.9999")?;
    /// let s = Setting::new(Algorithm::Cgd, &raw)?;
    /// assert_eq!((s.n(), s.b(), s.t()), (60000, 1500, 2000));
    /// assert!(RawSetting::default().with("eta", f64::NAN).is_err());
    /// assert!(RawSetting::default().with("speed", 1.0).is_err());
    /// # Ok::<(), shiftdp::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Parameter`] for an unknown flag name or a non-finite f64.
    pub fn with(mut self, name: &str, value: impl Into<SettingValue>) -> Result<RawSetting> {
        let text = match value.into() {
            SettingValue::Int(v) => v.to_string(),
            SettingValue::Real(x) => exact_f64_decimal(name, x)?,
            SettingValue::Decimal(d) => d,
        };
        if !self.set(name, &text) {
            return Err(Error::param("flag", name, "unknown setting flag"));
        }
        Ok(self)
    }

    /// A raw setting from `(flag, value)` pairs, flags named as on the command line
    /// (`n`, `batch`, `steps`, `epochs`, `eta`, `noise`, `sensitivity`,
    /// `strong-convexity` or `m`, `smoothness` or `M`, `contraction` or `c`, `diameter`
    /// or `D`).
    ///
    /// # Errors
    /// [`Error::Parameter`] for an unknown flag name.
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Result<RawSetting> {
        let mut r = RawSetting::default();
        for (k, v) in pairs {
            if !r.set(k, v) {
                return Err(Error::param("flag", k, "unknown setting flag"));
            }
        }
        Ok(r)
    }

    /// Sets the flag `name` (as in [`RawSetting::from_pairs`]) to `value`; false if the
    /// name is not a setting flag (the setting is then unchanged).
    pub fn set(&mut self, name: &str, value: &str) -> bool {
        let v = Some(value.to_string());
        match name {
            "n" => self.n = v,
            "batch" => self.batch = v,
            "steps" => self.steps = v,
            "epochs" => self.epochs = v,
            "eta" => self.eta = v,
            "noise" => self.noise = v,
            "sensitivity" => self.sensitivity = v,
            "strong-convexity" | "m" => self.strong_convexity = v,
            "smoothness" | "M" => self.smoothness = v,
            "contraction" | "c" => self.contraction = v,
            "diameter" | "D" => self.diameter = v,
            _ => return false,
        }
        true
    }
}

/// A validated setting: the one description of a run that every bound, analysis,
/// schedule and check takes. Integers are exact; reals are enclosures of the typed
/// decimals.
///
/// The fields are private: a `Setting` exists only through the validating
/// constructors ([`Setting::new`], [`Setting::from_pairs`], and [`RawSetting::with`]
/// for Rust values), so every `Setting` a bound sees has passed the checks of
/// [`Setting::new`]. Read it through the accessors below.
#[derive(Debug, Clone)]
pub struct Setting {
    /// Batch scheme.
    pub(crate) algorithm: Algorithm,
    /// Dataset size n ≥ 1.
    pub(crate) n: u64,
    /// Batch size 1 ≤ b ≤ n (= n for full batch).
    pub(crate) b: u64,
    /// Steps t ≥ 1.
    pub(crate) t: u64,
    /// Epochs E = t/l as given or derived (cyclic/stochastic), as a decimal string.
    pub(crate) epochs: Option<Enclosure>,
    /// Step size η > 0.
    pub(crate) eta: Enclosure,
    /// Noise σ > 0.
    pub(crate) sigma: Enclosure,
    /// Gradient sensitivity L > 0.
    pub(crate) l: Enclosure,
    /// Strong convexity m ≥ 0, if given.
    pub(crate) m: Option<Enclosure>,
    /// Smoothness M > 0, if given.
    pub(crate) big_m: Option<Enclosure>,
    /// Contraction c: given directly, or derived from (η, m, M).
    pub(crate) c: Option<Enclosure>,
    /// Whether c was given directly (then Lemma 2.8 is the user's assertion).
    pub(crate) c_given: bool,
    /// Diameter D > 0 of the constraint set, if constrained.
    pub(crate) d: Option<Enclosure>,
    /// Cyclic batches in the order of one uniformly random permutation drawn once
    /// (shuffle-and-partition) rather than a fixed order.
    pub(crate) shuffled_once: bool,
    /// Exact rational values of η, L and D as typed (for integer thresholds such as
    /// `t ≥ Dn/(ηL)` and `⌈Dn/(ηL)⌉`, which enclosures could only bracket).
    pub(crate) exact: ExactParams,
}

/// Exact rational values of the parameters that enter integer thresholds.
#[derive(Debug, Clone)]
pub struct ExactParams {
    /// η.
    pub(crate) eta: Rational,
    /// L.
    pub(crate) l: Rational,
    /// D.
    pub(crate) d: Option<Rational>,
}

impl ExactParams {
    /// η as typed, exactly.
    pub fn eta(&self) -> &Rational {
        &self.eta
    }

    /// L as typed, exactly.
    pub fn sensitivity(&self) -> &Rational {
        &self.l
    }

    /// D as typed, exactly, if given.
    pub fn diameter(&self) -> Option<&Rational> {
        self.d.as_ref()
    }
}

/// Parses a finite decimal (`123`, `-0.5`, `1.25e-3`) into an exact rational.
pub fn exact_decimal(s: &str) -> Option<Rational> {
    let t = s.trim();
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (neg, mant) = match mant.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mant.strip_prefix('+').unwrap_or(mant)),
    };
    let (ip, fp) = match mant.split_once('.') {
        Some((a, b)) => (a, b),
        None => (mant, ""),
    };
    if ip.is_empty() && fp.is_empty() || !ip.chars().chain(fp.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    if exp.unsigned_abs() > 100_000 {
        return None;
    }
    let digits = Integer::from_str_radix(&format!("{ip}{fp}"), 10).ok()?;
    let scale = exp - fp.len() as i64;
    let ten = Integer::from(10);
    let mut q = if scale >= 0 {
        Rational::from(digits * ten.pow(scale as u32))
    } else {
        Rational::from((digits, ten.pow((-scale) as u32)))
    };
    if neg {
        q = -q;
    }
    Some(q)
}

/// `⌈x⌉` of a non-negative rational as u64 (None if too large).
pub fn ceil_u64(x: &Rational) -> Option<u64> {
    let c = Integer::from(x.ceil_ref());
    c.to_u64()
}

fn real(name: &str, v: &Option<String>) -> Result<Option<Enclosure>> {
    match v {
        None => Ok(None),
        Some(s) => {
            let e = Enclosure::parse(SETTING_BITS, s).map_err(|_| Error::Parse {
                input: s.clone(),
                reason: format!("{name} expects a finite decimal number"),
            })?;
            Ok(Some(e))
        }
    }
}

fn positive(name: &str, v: Option<Enclosure>, what: &str) -> Result<Option<Enclosure>> {
    if let Some(e) = &v
        && !e.is_positive()
    {
        return Err(Error::param(name, e.mid_f64(), what));
    }
    Ok(v)
}

fn integer(name: &str, v: &Option<String>) -> Result<Option<u64>> {
    match v {
        None => Ok(None),
        Some(s) => {
            let t = s.trim();
            if let Ok(k) = t.parse::<u64>() {
                return Ok(Some(k));
            }
            // accept integral decimals like 1e6 or 1000.0
            let e = Enclosure::parse(64, t).map_err(|_| Error::Parse {
                input: s.clone(),
                reason: format!("{name} expects a positive integer"),
            })?;
            let x = e.mid_f64();
            if (1.0..=9.0e15).contains(&x)
                && x.fract().abs() < f64::EPSILON
                && e.rel_width() < 1e-18
            {
                Ok(Some(x as u64))
            } else {
                Err(Error::param(name, s, "must be a positive integer"))
            }
        }
    }
}

/// `|x|` of an enclosure.
fn abs(x: &Enclosure) -> Enclosure {
    x.max(&x.neg())
}

impl Setting {
    /// A validated setting from `(flag, value)` pairs named as on the command line
    /// (see [`RawSetting::from_pairs`]).
    ///
    /// # Example
    /// ```
    /// use shiftdp::{Algorithm, Setting};
    /// let s = Setting::from_pairs(Algorithm::Gd, &[
    ///     ("n", "1000"), ("steps", "100"), ("eta", "0.1"), ("noise", "1"),
    ///     ("sensitivity", "2"), ("strong-convexity", "0.5"), ("smoothness", "1"),
    /// ])?;
    /// assert_eq!((s.n(), s.b(), s.t()), (1000, 1000, 100));
    /// assert!(Setting::from_pairs(Algorithm::Gd, &[("n", "-3")]).is_err());
    /// # Ok::<(), shiftdp::Error>(())
    /// ```
    ///
    /// # Errors
    /// An unknown flag name, or any error of [`Setting::new`].
    pub fn from_pairs(algorithm: Algorithm, pairs: &[(&str, &str)]) -> Result<Setting> {
        Setting::new(algorithm, &RawSetting::from_pairs(pairs)?)
    }

    /// Validates a raw setting for `algorithm`.
    ///
    /// # Errors
    /// [`Error::Parameter`] / [`Error::Parse`] naming the flag: missing required values
    /// (n, steps or epochs, η, σ, L), non-positive values, b > n, epochs not giving an
    /// integer number of steps, a given contraction smaller than the one implied by
    /// (η, m, M) (that would understate privacy loss).
    pub fn new(algorithm: Algorithm, raw: &RawSetting) -> Result<Setting> {
        // every missing required flag at once (then each value is checked in turn)
        let lmc = algorithm == Algorithm::Lmc;
        let cyclic_or_sgd = matches!(algorithm, Algorithm::Cgd | Algorithm::Sgd);
        let missing: Vec<&str> = [
            ("n", raw.n.is_none() && !lmc),
            ("batch", raw.batch.is_none() && cyclic_or_sgd),
            (
                "steps or epochs",
                raw.steps.is_none() && raw.epochs.is_none(),
            ),
            ("eta", raw.eta.is_none()),
            ("noise", raw.noise.is_none() && !lmc),
            ("sensitivity", raw.sensitivity.is_none()),
        ]
        .into_iter()
        .filter_map(|(name, gone)| gone.then_some(name))
        .collect();
        if missing.len() > 1 {
            let flags: Vec<String> = missing
                .iter()
                .map(|m| {
                    m.split(" or ")
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                        .join(" or ")
                })
                .collect();
            return Err(Error::param(
                &missing.join(", "),
                "missing",
                &format!("are required for this setting: give {}", flags.join(", ")),
            ));
        }
        let missing = |name: &str| Error::param(name, "missing", "is required for this setting");
        let need = |name: &str, v: &Option<String>| -> Result<()> {
            if v.is_none() {
                return Err(Error::param(
                    name,
                    "missing",
                    "is required for this setting",
                ));
            }
            Ok(())
        };
        let n = if algorithm == Algorithm::Lmc {
            integer("n", &raw.n)?.unwrap_or(1)
        } else {
            need("n", &raw.n)?;
            integer("n", &raw.n)?.ok_or_else(|| missing("n"))?
        };
        if n == 0 {
            return Err(Error::param("n", n, "must be ≥ 1"));
        }
        let b = match algorithm {
            Algorithm::Gd | Algorithm::Lmc => {
                let b = integer("batch", &raw.batch)?.unwrap_or(n);
                if b != n {
                    return Err(Error::param("batch", b, "full-batch GD uses b = n"));
                }
                b
            }
            _ => {
                need("batch", &raw.batch)?;
                integer("batch", &raw.batch)?.ok_or_else(|| missing("batch"))?
            }
        };
        batch_within(n, b)?;
        need("eta", &raw.eta)?;
        let eta = positive("eta", real("eta", &raw.eta)?, "step size must be > 0")?
            .ok_or_else(|| missing("eta"))?;
        let sigma = match (&raw.noise, algorithm) {
            (None, Algorithm::Lmc) => {
                // LMC: Z ~ N(0, 2η I) = η · N(0, σ²) with σ = √(2/η)
                (Enclosure::from_u64(SETTING_BITS, 2) / eta.clone()).sqrt()
            }
            _ => {
                need("noise", &raw.noise)?;
                positive("noise", real("noise", &raw.noise)?, "noise σ must be > 0")?
                    .ok_or_else(|| missing("noise"))?
            }
        };
        need("sensitivity", &raw.sensitivity)?;
        let l = positive(
            "sensitivity",
            real("sensitivity", &raw.sensitivity)?,
            "gradient sensitivity must be > 0",
        )?
        .ok_or_else(|| missing("sensitivity"))?;
        let m = real("strong-convexity", &raw.strong_convexity)?;
        if let Some(m) = &m
            && m.lo().is_sign_negative()
            && !m.lo().is_zero()
        {
            return Err(Error::param("strong-convexity", m.mid_f64(), "must be ≥ 0"));
        }
        let big_m = positive(
            "smoothness",
            real("smoothness", &raw.smoothness)?,
            "smoothness M must be > 0",
        )?;
        // m ≤ M: an m-strongly convex, M-smooth function has m·I ⪯ ∇²f ⪯ M·I (BSA24 §2),
        // compared on the exact decimals as typed
        if let (Some(ms), Some(bs)) = (&raw.strong_convexity, &raw.smoothness)
            && let (Some(mq), Some(bq)) = (exact_decimal(ms), exact_decimal(bs))
            && mq > bq
        {
            return Err(Error::param(
                "strong-convexity",
                ms.trim(),
                &format!(
                    "must be ≤ the smoothness M = {} (hypothesis m ≤ M: an m-strongly convex, \
                     M-smooth loss has m·I ⪯ ∇²f ⪯ M·I)",
                    bs.trim()
                ),
            ));
        }
        let d = positive(
            "diameter",
            real("diameter", &raw.diameter)?,
            "diameter must be > 0",
        )?;
        let c_raw = real("contraction", &raw.contraction)?;
        if let Some(c) = &c_raw
            && (c.lo().is_sign_negative() || !c.is_finite())
        {
            return Err(Error::param("contraction", c.mid_f64(), "must be ≥ 0"));
        }
        // derived contraction (Lemma 2.8) when m and M are given
        let derived = match (&m, &big_m) {
            (Some(m), Some(mm)) => {
                let one = Enclosure::from_u64(SETTING_BITS, 1);
                let a = abs(&(one.clone() - eta.clone() * m.clone()));
                let bb = abs(&(one - eta.clone() * mm.clone()));
                Some(a.max(&bb))
            }
            (None, Some(mm)) => {
                // convex (m = 0): c = max{1, |1 − ηM|}
                let one = Enclosure::from_u64(SETTING_BITS, 1);
                Some(one.clone().max(&abs(&(one - eta.clone() * mm.clone()))))
            }
            _ => None,
        };
        let (c, c_given) = match (c_raw, derived) {
            (Some(c), Some(dv)) => {
                if c.hi() < dv.lo() {
                    return Err(Error::param(
                        "contraction",
                        c.mid_f64(),
                        &format!(
                            "is smaller than max(|1−ηm|, |1−ηM|) = {} implied by the other flags",
                            dv.mid_f64()
                        ),
                    ));
                }
                (Some(c), true)
            }
            (Some(c), None) => (Some(c), true),
            (None, dv) => (dv, false),
        };
        // steps / epochs
        let t_raw = integer("steps", &raw.steps)?;
        let e_raw = real("epochs", &raw.epochs)?;
        let l_batches_exact = n % b == 0;
        let (t, epochs) = match (t_raw, e_raw) {
            (Some(_), Some(_)) => {
                return Err(Error::param(
                    "epochs",
                    "given with the steps t",
                    "give either steps or epochs",
                ));
            }
            (Some(t), None) => {
                let e = if algorithm == Algorithm::Cgd || algorithm == Algorithm::Sgd {
                    Some(
                        Enclosure::from_u64(SETTING_BITS, t) * Enclosure::from_u64(SETTING_BITS, b)
                            / Enclosure::from_u64(SETTING_BITS, n),
                    )
                } else {
                    None
                };
                (t, e)
            }
            (None, Some(e)) => {
                if algorithm == Algorithm::Gd || algorithm == Algorithm::Lmc {
                    // one epoch = one full-batch step
                    let x = e.mid_f64();
                    if x.fract().abs() > 1e-12 || x < 1.0 {
                        return Err(Error::param(
                            "epochs",
                            x,
                            "must be a positive integer for full batches",
                        ));
                    }
                    (x.round() as u64, None)
                } else {
                    // t = E · n / b must be an integer
                    let tt = e.clone() * Enclosure::from_u64(SETTING_BITS, n)
                        / Enclosure::from_u64(SETTING_BITS, b);
                    let x = tt.mid_f64();
                    if x.is_nan() || x < 1.0 || (x - x.round()).abs() > 1e-9 || x > 9e15 {
                        return Err(Error::param(
                            "epochs",
                            e.mid_f64(),
                            "must make t = E·n/b a positive integer",
                        ));
                    }
                    (x.round() as u64, Some(e))
                }
            }
            (None, None) => {
                return Err(Error::param("steps", "missing", "give steps or epochs"));
            }
        };
        if t == 0 {
            return Err(Error::param("steps", 0, "must be ≥ 1"));
        }
        let _ = l_batches_exact;
        let q = |name: &str, v: &Option<String>| -> Result<Option<Rational>> {
            match v {
                None => Ok(None),
                Some(s) => exact_decimal(s).map(Some).ok_or_else(|| {
                    Error::param(name, s, "must be a plain decimal number (e.g. 0.1, 2.5e-3)")
                }),
            }
        };
        let exact = ExactParams {
            eta: q("eta", &raw.eta)?.ok_or_else(|| missing("eta"))?,
            l: q("sensitivity", &raw.sensitivity)?.ok_or_else(|| missing("sensitivity"))?,
            d: q("diameter", &raw.diameter)?,
        };
        Ok(Setting {
            exact,
            algorithm,
            n,
            b,
            t,
            epochs,
            eta,
            sigma,
            l,
            m,
            big_m,
            c,
            c_given,
            d,
            shuffled_once: false,
        })
    }

    /// The same run with `t` steps; for the minibatch algorithms the epoch count follows,
    /// E = t·b/n (exact enclosure), as when the run is given by its steps.
    ///
    /// # Errors
    /// [`Error::Parameter`] for `t = 0`.
    pub fn with_steps(mut self, t: u64) -> Result<Setting> {
        if t == 0 {
            return Err(Error::param("steps", 0, "must be ≥ 1"));
        }
        self.t = t;
        if self.epochs.is_some() {
            self.epochs = Some(
                Enclosure::from_u64(SETTING_BITS, t) * Enclosure::from_u64(SETTING_BITS, self.b)
                    / Enclosure::from_u64(SETTING_BITS, self.n),
            );
        }
        Ok(self)
    }

    /// The same cyclic run with its order drawn once as a uniformly random permutation
    /// (shuffle-and-partition, YS22 §4). Every fixed-order result stays valid (each holds
    /// for every order, and a mixture of pairs that each satisfy an f-DP or Rényi bound
    /// satisfies it, by convexity of the tradeoff function and joint quasi-convexity of
    /// Rényi divergence); the shuffle-and-partition results become applicable.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless the algorithm is NoisyCGD.
    pub fn with_order_shuffled_once(mut self) -> Result<Setting> {
        if self.algorithm != Algorithm::Cgd {
            return Err(Error::param(
                "algorithm",
                self.algorithm.name(),
                "only cyclic batches (cgd) have an order to shuffle",
            ));
        }
        self.shuffled_once = true;
        Ok(self)
    }

    /// Whether the cyclic order is one uniformly random permutation drawn once.
    pub fn order_shuffled_once(&self) -> bool {
        self.shuffled_once
    }

    /// The batch scheme (full, cyclic, stochastic, Langevin).
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Dataset size n ≥ 1.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// Batch size 1 ≤ b ≤ n (b = n for full batch).
    pub fn b(&self) -> u64 {
        self.b
    }

    /// Number of steps t ≥ 1.
    pub fn t(&self) -> u64 {
        self.t
    }

    /// Epochs E = t/l, as given or derived (cyclic and stochastic batches).
    pub fn epochs(&self) -> Option<&Enclosure> {
        self.epochs.as_ref()
    }

    /// Step size η > 0 (enclosure of the typed decimal).
    pub fn eta(&self) -> &Enclosure {
        &self.eta
    }

    /// Noise σ > 0: the per-step noise is `N(0, σ²I)` scaled by η (BSA24 eq. 2.1).
    pub fn sigma(&self) -> &Enclosure {
        &self.sigma
    }

    /// Gradient sensitivity `L = sup ‖∇f − ∇f′‖ > 0` (L′-Lipschitz losses give 2L′).
    pub fn sensitivity(&self) -> &Enclosure {
        &self.l
    }

    /// Strong convexity m ≥ 0, if given.
    pub fn strong_convexity(&self) -> Option<&Enclosure> {
        self.m.as_ref()
    }

    /// Smoothness M > 0, if given.
    pub fn smoothness(&self) -> Option<&Enclosure> {
        self.big_m.as_ref()
    }

    /// Contraction `c = max{|1 − ηm|, |1 − ηM|}` (BSA24 Lemma 2.8), given directly or
    /// derived from (η, m, M).
    pub fn contraction(&self) -> Option<&Enclosure> {
        self.c.as_ref()
    }

    /// Whether the contraction was given directly (Lemma 2.8 is then the user's
    /// assertion) rather than derived from (η, m, M).
    pub fn contraction_given(&self) -> bool {
        self.c_given
    }

    /// Diameter D > 0 of the constraint set, if the run is constrained.
    pub fn diameter(&self) -> Option<&Enclosure> {
        self.d.as_ref()
    }

    /// Exact rational values of η, L and D as typed (for integer thresholds).
    pub fn exact_params(&self) -> &ExactParams {
        &self.exact
    }

    /// Batches per epoch `l = n/b` if it is an integer.
    pub fn batches_per_epoch(&self) -> Option<u64> {
        self.n.is_multiple_of(self.b).then_some(self.n / self.b)
    }

    /// Epochs `E = t/l` if l and E are integers.
    pub fn integer_epochs(&self) -> Option<u64> {
        let l = self.batches_per_epoch()?;
        self.t.is_multiple_of(l).then_some(self.t / l)
    }

    /// Sampling probability `p = b/n` as an enclosure.
    pub fn p(&self) -> Enclosure {
        Enclosure::from_u64(SETTING_BITS, self.b) / Enclosure::from_u64(SETTING_BITS, self.n)
    }

    /// The per-step GDP unit `L/(bσ)` (BSA24: sensitivity ηL/b over noise std ησ).
    pub fn unit(&self) -> Enclosure {
        self.l.clone() / (Enclosure::from_u64(SETTING_BITS, self.b) * self.sigma.clone())
    }

    /// One-line summary.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{}: n = {}, b = {}, t = {}, η = {}, σ = {}, L = {}",
            self.algorithm.name(),
            self.n,
            self.b,
            self.t,
            short(&self.eta),
            short(&self.sigma),
            short(&self.l)
        );
        if let Some(e) = &self.epochs {
            s.push_str(&format!(", E = {}", short(e)));
        }
        if self.shuffled_once {
            s.push_str(", order shuffled once");
        }
        if let Some(c) = &self.c {
            s.push_str(&format!(
                ", c = {}{}",
                short(c),
                if self.c_given { " (given)" } else { "" }
            ));
        }
        if let Some(m) = &self.m {
            s.push_str(&format!(", m = {}", short(m)));
        }
        if let Some(mm) = &self.big_m {
            s.push_str(&format!(", M = {}", short(mm)));
        }
        if let Some(d) = &self.d {
            s.push_str(&format!(", D = {}", short(d)));
        }
        s
    }
}

fn short(e: &Enclosure) -> String {
    let x = e.mid_f64();
    format!("{}", (x * 1e12).round() / 1e12)
}

#[cfg(test)]
mod tests {
    #[test]
    fn exact_f64_decimal_is_the_binary_value() {
        for x in [
            0.1,
            -2.5,
            1e-300,
            123456789.125,
            5e-324,
            1.7976931348623157e308,
            0.0,
            3.0,
        ] {
            let d = exact_f64_decimal("x", x).unwrap();
            assert_eq!(exact_decimal(&d), Rational::from_f64(x), "{x}: {d}");
        }
        assert_eq!(exact_f64_decimal("x", 0.5).unwrap(), "0.5");
        assert_eq!(exact_f64_decimal("x", 2.0).unwrap(), "2");
        assert!(exact_f64_decimal("x", f64::INFINITY).is_err());
    }

    use super::*;

    fn raw(pairs: &[(&str, &str)]) -> RawSetting {
        RawSetting::from_pairs(pairs).unwrap()
    }

    #[test]
    fn derives_contraction_from_lemma_2_8() {
        let s = Setting::new(
            Algorithm::Gd,
            &raw(&[
                ("n", "10"),
                ("steps", "5"),
                ("eta", "0.1"),
                ("noise", "1"),
                ("sensitivity", "1"),
                ("m", "1"),
                ("M", "4"),
            ]),
        )
        .unwrap();
        // c = max(|1 − 0.1|, |1 − 0.4|) = 0.9
        let c = s.c.unwrap();
        assert!(c.lower_f64() <= 0.9 && 0.9 <= c.upper_f64() && c.rel_width() < 1e-30);
    }

    #[test]
    fn rejects_inconsistent_or_missing_values() {
        let base = [
            ("n", "10"),
            ("steps", "5"),
            ("eta", "0.1"),
            ("noise", "1"),
            ("sensitivity", "1"),
        ];
        let mut with_c = base.to_vec();
        with_c.extend([("m", "1"), ("M", "4"), ("c", "0.5")]);
        assert!(
            matches!(Setting::new(Algorithm::Gd, &raw(&with_c)), Err(Error::Parameter { name, .. }) if name == "contraction")
        );
        assert!(Setting::new(Algorithm::Gd, &raw(&base[1..])).is_err());
        // several missing flags are named together
        let e = Setting::new(Algorithm::Cgd, &raw(&base[2..])).unwrap_err();
        assert!(
            matches!(&e, Error::Parameter { name, .. } if name == "n, batch, steps or epochs"),
            "{e}"
        );
        let mut neg = base.to_vec();
        neg[3] = ("noise", "-1");
        assert!(
            matches!(Setting::new(Algorithm::Gd, &raw(&neg)), Err(Error::Parameter { name, .. }) if name == "noise")
        );
        let cg = [
            ("n", "10"),
            ("batch", "20"),
            ("steps", "5"),
            ("eta", "0.1"),
            ("noise", "1"),
            ("sensitivity", "1"),
        ];
        assert!(Setting::new(Algorithm::Cgd, &raw(&cg)).is_err());
        let ep = [
            ("n", "10"),
            ("batch", "3"),
            ("epochs", "1"),
            ("eta", "0.1"),
            ("noise", "1"),
            ("sensitivity", "1"),
        ];
        assert!(
            Setting::new(Algorithm::Cgd, &raw(&ep)).is_err(),
            "t = 10/3 not an integer"
        );
    }

    #[test]
    fn exact_decimals() {
        assert_eq!(exact_decimal("0.1").unwrap(), Rational::from((1, 10)));
        assert_eq!(exact_decimal("-2.5e-3").unwrap(), Rational::from((-1, 400)));
        assert_eq!(exact_decimal("1e6").unwrap(), Rational::from(1_000_000));
        assert!(
            exact_decimal("1e").is_none()
                && exact_decimal("abc").is_none()
                && exact_decimal(".").is_none()
        );
        assert_eq!(ceil_u64(&Rational::from((1001, 10))), Some(101));
    }

    #[test]
    fn lmc_noise_is_sqrt_two_over_eta() {
        let s = Setting::new(
            Algorithm::Lmc,
            &raw(&[("steps", "5"), ("eta", "0.5"), ("sensitivity", "1")]),
        )
        .unwrap();
        assert!(s.sigma.lower_f64() <= 2.0 && 2.0 <= s.sigma.upper_f64());
        assert_eq!(s.n, 1);
    }
}
