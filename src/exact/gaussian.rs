//! Gaussian instances: quadratic or linear losses, unconstrained, full or cyclic batches.
//!
//! # Formula
//! Model (docs/conventions.md §2, BSA24 eq. 2.1) with per-step `η_k`, `σ_k`:
//! `X_{k+1} = X_k − η_k((1/b) Σ_{i∈B_k} ∇f_i(X_k) + Z_{k+1})`, `Z ~ N(0, σ_k² I)`.
//! With `f_i(x) = ½ xᵀHx − g_iᵀx` (quadratic; `H = 0` is the linear loss) the update is
//! affine, `X_{k+1} = (I − η_k H) X_k + η_k ḡ_{B_k} − η_k Z_{k+1}`. Two datasets differ
//! in record `i*` with `g_{i*} − g′_{i*} = v`, `‖v‖ = L` (gradient sensitivity). From a
//! common deterministic start,
//!
//! * mean gap `Δ_{k+1} = (I − η_k H) Δ_k + (η_k / b) 1[i* ∈ B_k] v`, i.e. `Δ_t = A_t v`;
//! * covariance `Σ_{k+1} = (I − η_k H) Σ_k (I − η_k H)ᵀ + η_k² σ_k² I`;
//!
//! so `X_t ~ N(m, Σ_t)`, `X′_t ~ N(m − Δ_t, Σ_t)` and `T(X_t, X′_t) = G(μ)` with
//! `μ² = Δᵀ Σ⁻¹ Δ` (Mahalanobis distance; DRS22 Prop 4 reduces it to 1-D). The worst
//! gradient difference maximizes `vᵀ A_tᵀ Σ_t⁻¹ A_t v` over `‖v‖ = L`: `μ = L √λ_max`.
//! For a symmetric `H` everything is diagonal in the eigenbasis of `H`, so the worst
//! direction is the eigenvector whose eigenvalue `h` maximizes the scalar μ(h):
//! `Δ_{k+1} = (1 − η_k h) Δ_k + η_k/b · 1[k]`, `S_{k+1} = (1 − η_k h)² S_k + η_k² σ_k²`,
//! `μ(h) = L |Δ_t| / √S_t` ([`scalar_mu`], generic over [`Real`]).
//! Rényi divergence of every order α: `α μ² / 2`.
//!
//! For full batches, `H = m I`, constant η with `c = 1 − ηm ∈ [0, 1)`, this is
//! `μ = √((1 − c^t)/(1 + c^t) · (1 + c)/(1 − c)) · L/(nσ)`, the value of BSA24 Thm 4.2
//! (checked in cli/tests/exact.rs).
//!
//! # Rounding
//! The scalar path evaluated in [`crate::precision::Enclosure`] arithmetic
//! encloses the exact μ; the matrix path runs in f64 and states an estimated error.
//!
//! # References
//! BSA24 eq. 2.1, Thm 4.2; J. Dong, A. Roth, W. Su, *Gaussian differential privacy*
//! (2022), Prop 4.
use super::{Estimate, Instance, Order};
use crate::error::{Error, Result};
use crate::precision::{Enclosure, Precision, Real};
use crate::tradeoff::Gaussian;
use nalgebra::{DMatrix, DVector, SymmetricEigen};

/// One step of a run: step size, noise multiplier, batch size, and whether the batch
/// contains the differing record.
#[derive(Debug, Clone, PartialEq)]
pub struct Step<R> {
    /// Step size `η_k > 0`.
    pub eta: R,
    /// Noise multiplier `σ_k > 0` (per-step noise standard deviation `η_k σ_k`).
    pub sigma: R,
    /// Batch size `b ≥ 1`.
    pub batch: u64,
    /// Whether the differing record is in this step's batch.
    pub included: bool,
}

/// A validated sequence of steps (deterministic batches: full or cyclic, any order).
///
/// # Example
/// ```
/// use shiftdp::exact::Schedule;
/// // 2 epochs of cyclic batches, n = 6, b = 2 (l = 3), record in batch 1 of each epoch
/// let s = Schedule::cyclic(6, 2, 2, 1, 0.5, 1.0).unwrap();
/// let inc: Vec<bool> = s.steps().iter().map(|x| x.included).collect();
/// assert_eq!(inc, vec![false, true, false, false, true, false]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule<R> {
    steps: Vec<Step<R>>,
}

impl<R: Real> Schedule<R> {
    /// Validates explicit steps.
    ///
    /// # Errors
    /// [`Error::Parameter`] if there are no steps, or some `η_k`, `σ_k` is not finite and
    /// positive, or a batch size is 0.
    pub fn from_steps(steps: Vec<Step<R>>) -> Result<Self> {
        if steps.is_empty() {
            return Err(Error::param("steps", 0, "need at least one step"));
        }
        for (k, s) in steps.iter().enumerate() {
            for (name, x) in [("eta", &s.eta), ("noise", &s.sigma)] {
                let (lo, hi) = (x.lower_f64(), x.upper_f64());
                if !(lo > 0.0 && hi.is_finite()) {
                    return Err(Error::param(
                        name,
                        format!("{lo} (step {k})"),
                        "must be finite and > 0",
                    ));
                }
            }
            if s.batch == 0 {
                return Err(Error::param("batch", 0, "must be ≥ 1"));
            }
        }
        Ok(Schedule { steps })
    }

    /// Full-batch NoisyGD: `t` steps with `b = n`, the record in every batch.
    ///
    /// # Errors
    /// As [`Schedule::from_steps`]; `n ≥ 1`, `t ≥ 1`.
    pub fn full(n: u64, t: usize, eta: R, sigma: R) -> Result<Self> {
        if n == 0 {
            return Err(Error::param("n", 0, "must be ≥ 1"));
        }
        check_steps_memory(t as u64, &eta)?;
        let steps = (0..t)
            .map(|_| Step {
                eta: eta.clone(),
                sigma: sigma.clone(),
                batch: n,
                included: true,
            })
            .collect();
        Self::from_steps(steps)
    }

    /// Cyclic NoisyCGD: `l = n/b` batches per epoch in a fixed order, `epochs` epochs;
    /// the record is in batch `position` (0-based) of every epoch.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `b` divides `n`, `position < n/b`, `epochs ≥ 1`.
    pub fn cyclic(n: u64, b: u64, epochs: u64, position: u64, eta: R, sigma: R) -> Result<Self> {
        if b == 0 || n == 0 || b > n || !n.is_multiple_of(b) {
            return Err(Error::param(
                "batch",
                b,
                "must satisfy 1 ≤ b ≤ n with b dividing n (l = n/b batches)",
            ));
        }
        let l = n / b;
        if position >= l {
            return Err(Error::param(
                "position",
                position,
                &format!("must be < l = n/b = {l}"),
            ));
        }
        if epochs == 0 {
            return Err(Error::param("epochs", 0, "must be ≥ 1"));
        }
        let t = l.saturating_mul(epochs);
        check_steps_memory(t, &eta)?;
        let steps = (0..t)
            .map(|k| Step {
                eta: eta.clone(),
                sigma: sigma.clone(),
                batch: b,
                included: k % l == position,
            })
            .collect();
        Self::from_steps(steps)
    }

    /// The steps.
    pub fn steps(&self) -> &[Step<R>] {
        &self.steps
    }

    /// Number of steps `t`.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Always false (a schedule has at least one step).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// Refuses a schedule of `t` steps like `x` above the memory limit: one [`Step`] and the
/// heap of its two values per step.
fn check_steps_memory<R: Real>(t: u64, x: &R) -> Result<()> {
    crate::memory::check(
        &format!("an exact-instance schedule of {t} steps"),
        crate::memory::bytes_of(
            t,
            std::mem::size_of::<Step<R>>() as u64 + 2 * x.heap_bytes(),
        ),
    )
}

/// Refuses the matrix path for a `d × d` Hessian above the memory limit: about ten
/// `d × d` f64 matrices alive at once (Hessian, identity, A_t, Σ_t, the step matrix and
/// its products, the Cholesky factor and the eigen-decomposition).
///
/// # Errors
/// [`Error::MemoryLimit`].
pub fn check_matrix_memory(d: usize) -> Result<()> {
    let d = d as u64;
    crate::memory::check(
        &format!("the {d} × {d} matrix path"),
        crate::memory::bytes_of(d.saturating_mul(d), 80),
    )
}

/// Scalar recursion for curvature `h`: returns `(Δ_t / L, S_t)` with
/// `Δ_{k+1} = (1 − η_k h) Δ_k + η_k/b · 1[k]` and `S_{k+1} = (1 − η_k h)² S_k + η_k² σ_k²`.
pub fn scalar_gap<R: Real>(sched: &Schedule<R>, h: &R) -> (R, R) {
    let zero = h.lit(0.0);
    let mut d = zero.clone();
    let mut s = zero;
    for st in sched.steps() {
        let c = h.lit(1.0) - st.eta.clone() * h.clone();
        d = c.clone() * d;
        if st.included {
            d = d + st.eta.clone() / h.int(st.batch);
        }
        s = c.square() * s + (st.eta.clone() * st.sigma.clone()).square();
    }
    (d, s)
}

/// Exact μ of the 1-D (or isotropic `H = hI`) quadratic instance with gradient
/// sensitivity `l`: `μ = l |Δ_t| / √S_t` (see the module formula). `h = 0` is the linear
/// loss.
///
/// # Rounding
/// Evaluated in `R`: as an [`Enclosure`] the exact μ lies inside the result.
///
/// # Example
/// ```
/// use shiftdp::exact::{Schedule, gaussian::scalar_mu};
/// // linear loss, full batch: μ = √t · L/(nσ)
/// let s = Schedule::full(10, 100, 0.1, 2.0).unwrap();
/// let mu = scalar_mu(&s, &0.0, &1.0);
/// assert!((mu - 10.0 * 1.0 / (10.0 * 2.0)).abs() < 1e-12);
/// ```
pub fn scalar_mu<R: Real>(sched: &Schedule<R>, h: &R, l: &R) -> R {
    let (d, s) = scalar_gap(sched, h);
    (l.square() * d.square() / s).sqrt()
}

/// `(A_t, Σ_t)` of the matrix recursion for Hessian `H` (gap `Δ_t = A_t v`).
fn propagate(sched: &Schedule<f64>, hess: &DMatrix<f64>) -> (DMatrix<f64>, DMatrix<f64>) {
    let d = hess.nrows();
    let id = DMatrix::<f64>::identity(d, d);
    let mut a = DMatrix::<f64>::zeros(d, d);
    let mut s = DMatrix::<f64>::zeros(d, d);
    for st in sched.steps() {
        let c = &id - hess * st.eta;
        a = &c * a;
        if st.included {
            a += &id * (st.eta / st.batch as f64);
        }
        s = &c * s * c.transpose() + &id * (st.eta * st.sigma).powi(2);
    }
    (a, s)
}

fn check_hessian(hess: &DMatrix<f64>) -> Result<()> {
    check_matrix_memory(hess.nrows())?;
    let d = hess.nrows();
    if d == 0 || hess.ncols() != d {
        return Err(Error::param(
            "hessian",
            format!("{}×{}", hess.nrows(), hess.ncols()),
            "must be square and non-empty",
        ));
    }
    let scale = hess.amax().max(1.0);
    for i in 0..d {
        for j in 0..d {
            let x = hess[(i, j)];
            if !x.is_finite() || (x - hess[(j, i)]).abs() > 1e-12 * scale {
                return Err(Error::param(
                    "hessian",
                    format!("entry ({i},{j}) = {x}"),
                    "must be finite and symmetric",
                ));
            }
        }
    }
    Ok(())
}

/// The Gaussian instance `T(X_t, X′_t) = G(μ)`: μ with an enclosure and, for matrix
/// instances, the gradient-difference direction that attains it.
///
/// # Example
/// ```
/// use nalgebra::DMatrix;
/// use shiftdp::exact::{GaussianInstance, Schedule};
/// let s = Schedule::full(1, 50, 0.5, 1.0).unwrap();
/// // anisotropic Hessian diag(0.1, 1): the flat direction leaks most
/// let h = DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![0.1, 1.0]));
/// let inst = GaussianInstance::worst(&s, &h, 1.0).unwrap();
/// let dir = inst.direction().unwrap();
/// assert!(dir[0].abs() > 0.999);
/// ```
#[derive(Debug, Clone)]
pub struct GaussianInstance {
    mu_lo: f64,
    mu_hi: f64,
    certified: bool,
    direction: Option<DVector<f64>>,
    label: String,
}

impl GaussianInstance {
    /// The pair `N(0, 1), N(μ, 1)` with μ known in an enclosure (certified).
    ///
    /// # Errors
    /// [`Error::Parameter`] if the enclosure is not finite and ≥ 0.
    pub fn from_mu_enclosure(mu: &Enclosure, label: &str) -> Result<Self> {
        let (lo, hi) = (mu.lower_f64().max(0.0), mu.upper_f64());
        if !(hi.is_finite() && mu.lower_f64() > -1e-300) {
            return Err(Error::param("mu", hi, "must be finite and ≥ 0"));
        }
        Ok(GaussianInstance {
            mu_lo: lo,
            mu_hi: hi,
            certified: true,
            direction: None,
            label: label.to_string(),
        })
    }

    /// The pair `N(0, 1), N(μ, 1)` with an f64 μ (exact as given).
    ///
    /// # Errors
    /// [`Error::Parameter`] if μ is not finite and ≥ 0.
    pub fn from_mu(mu: f64) -> Result<Self> {
        if !(mu.is_finite() && mu >= 0.0) {
            return Err(Error::param("mu", mu, "must be finite and ≥ 0"));
        }
        Ok(GaussianInstance {
            mu_lo: mu,
            mu_hi: mu,
            certified: true,
            direction: None,
            label: format!("N(0,1) vs N({mu},1)"),
        })
    }

    /// The isotropic / 1-D quadratic instance with curvature `h` and sensitivity `l`,
    /// computed as a certified enclosure at `bits` bits (scalar path).
    ///
    /// # Errors
    /// [`Error::Parameter`] for a non-finite `h` or `l < 0`; [`Error::NotCertified`] if
    /// the enclosure is not finite (e.g. exponent overflow for huge `|1 − ηh|^t`).
    pub fn scalar(sched: &Schedule<Enclosure>, h: &Enclosure, l: &Enclosure) -> Result<Self> {
        if !h.is_finite() || !l.is_finite() || l.lower_f64() < 0.0 {
            return Err(Error::param(
                "sensitivity",
                l.upper_f64(),
                "sensitivity must be finite and ≥ 0, curvature finite",
            ));
        }
        let mu = scalar_mu(sched, h, l);
        if !mu.is_finite() {
            return Err(Error::NotCertified {
                what: "μ of the Gaussian instance".into(),
                reason: "enclosure is not finite (raise the precision bits)".into(),
            });
        }
        Self::from_mu_enclosure(&mu, "quadratic (scalar path)")
    }

    /// Worst-case gradient difference `‖v‖ = l` for Hessian `hess` (matrix path in f64;
    /// the direction is the top eigenvector of `A_tᵀ Σ_t⁻¹ A_t`).
    ///
    /// # Errors
    /// [`Error::Parameter`] for a non-square, non-symmetric or non-finite Hessian or a bad
    /// `l`; [`Error::NotCertified`] if `Σ_t` is not numerically positive definite.
    pub fn worst(sched: &Schedule<f64>, hess: &DMatrix<f64>, l: f64) -> Result<Self> {
        check_hessian(hess)?;
        check_l(l)?;
        let (a, s) = propagate(sched, hess);
        let chol = s.clone().cholesky().ok_or_else(|| Error::NotCertified {
            what: "covariance Σ_t".into(),
            reason: "not positive definite in f64".into(),
        })?;
        let b = chol
            .l()
            .solve_lower_triangular(&a)
            .ok_or_else(|| Error::NotCertified {
                what: "Σ_t^{-1/2} A_t".into(),
                reason: "singular triangular solve".into(),
            })?;
        let m = b.transpose() * &b;
        let m = (&m + m.transpose()) * 0.5;
        let eig = SymmetricEigen::new(m);
        let (imax, lmax) =
            eig.eigenvalues
                .iter()
                .enumerate()
                .fold(
                    (0, f64::NEG_INFINITY),
                    |acc, (i, &x)| {
                        if x > acc.1 { (i, x) } else { acc }
                    },
                );
        let mu = l * lmax.max(0.0).sqrt();
        let dir = eig.eigenvectors.column(imax).into_owned();
        Self::from_f64_path(
            mu,
            sched.len() + hess.nrows(),
            Some(dir),
            "quadratic (matrix path)",
        )
    }

    /// Gradient difference `v` (its norm is the sensitivity) for Hessian `hess`:
    /// `μ = √(vᵀ A_tᵀ Σ_t⁻¹ A_t v)` (matrix path in f64).
    ///
    /// # Errors
    /// As [`GaussianInstance::worst`]; `v` must have the Hessian's dimension.
    pub fn with_direction(
        sched: &Schedule<f64>,
        hess: &DMatrix<f64>,
        v: &DVector<f64>,
    ) -> Result<Self> {
        check_hessian(hess)?;
        if v.len() != hess.nrows() || v.iter().any(|x| !x.is_finite()) {
            return Err(Error::param(
                "direction",
                v.len(),
                "must be finite with the Hessian's dimension",
            ));
        }
        let (a, s) = propagate(sched, hess);
        let delta = &a * v;
        let chol = s.cholesky().ok_or_else(|| Error::NotCertified {
            what: "covariance Σ_t".into(),
            reason: "not positive definite in f64".into(),
        })?;
        let y = chol.solve(&delta);
        let mu = delta.dot(&y).max(0.0).sqrt();
        Self::from_f64_path(
            mu,
            sched.len() + hess.nrows(),
            Some(v.clone()),
            "quadratic (given direction)",
        )
    }

    /// Worst direction found from the spectrum of a symmetric `hess`: the scalar μ(h) at
    /// each eigenvalue `h`, maximized; the direction is that eigenvector.
    ///
    /// # Errors
    /// As [`GaussianInstance::worst`].
    pub fn spectral(sched: &Schedule<f64>, hess: &DMatrix<f64>, l: f64) -> Result<Self> {
        check_hessian(hess)?;
        check_l(l)?;
        let eig = SymmetricEigen::new(hess.clone());
        let mut best = (0usize, f64::NEG_INFINITY);
        for (i, h) in eig.eigenvalues.iter().enumerate() {
            let mu = scalar_mu(sched, h, &l);
            if mu > best.1 {
                best = (i, mu);
            }
        }
        if !best.1.is_finite() {
            return Err(Error::NotCertified {
                what: "μ of the Gaussian instance".into(),
                reason: "not finite in f64".into(),
            });
        }
        let dir = eig.eigenvectors.column(best.0).into_owned();
        Self::from_f64_path(
            best.1,
            sched.len() + hess.nrows(),
            Some(dir),
            "quadratic (spectral path)",
        )
    }

    fn from_f64_path(mu: f64, work: usize, dir: Option<DVector<f64>>, label: &str) -> Result<Self> {
        if !mu.is_finite() {
            return Err(Error::NotCertified {
                what: "μ of the Gaussian instance".into(),
                reason: "not finite in f64".into(),
            });
        }
        // stated (estimated) f64 error: a few ulps per step and per dimension
        let rel = 16.0 * (work as f64 + 1.0) * f64::EPSILON;
        Ok(GaussianInstance {
            mu_lo: mu * (1.0 - rel),
            mu_hi: mu * (1.0 + rel),
            certified: false,
            direction: dir,
            label: label.to_string(),
        })
    }

    /// The central value of μ.
    pub fn mu(&self) -> f64 {
        0.5 * (self.mu_lo + self.mu_hi)
    }
    /// `(lower, upper)` ends of μ.
    pub fn mu_bounds(&self) -> (f64, f64) {
        (self.mu_lo, self.mu_hi)
    }
    /// μ as an [`Estimate`].
    pub fn mu_estimate(&self) -> Estimate {
        Estimate {
            value: self.mu(),
            error: 0.5 * (self.mu_hi - self.mu_lo),
            certified: self.certified,
        }
    }
    /// The worst (or given) gradient-difference direction, for matrix instances.
    pub fn direction(&self) -> Option<&DVector<f64>> {
        self.direction.as_ref()
    }
}

fn check_l(l: f64) -> Result<()> {
    if !(l.is_finite() && l >= 0.0) {
        return Err(Error::param("sensitivity", l, "must be finite and ≥ 0"));
    }
    Ok(())
}

fn encl(lo: f64, hi: f64) -> Enclosure {
    Enclosure::from_f64(64, lo).hull(&Enclosure::from_f64(64, hi))
}

impl Instance for GaussianInstance {
    /// The lower end of μ: a tightness ratio `μ_bound / μ` is then ≥ 1 for every bound
    /// rounded up from the exact value.
    fn gdp_mu(&self) -> Option<f64> {
        Some(self.mu_lo)
    }
    fn delta(&self, eps: f64, _order: Order) -> Result<Estimate> {
        let e = Enclosure::from_f64(64, eps);
        let c = Gaussian::delta(&encl(self.mu_lo, self.mu_hi), &e, Precision::F64)?;
        let (lo, hi) = (c.lower().to_f64().max(0.0), c.upper().to_f64());
        Ok(Estimate {
            value: 0.5 * (lo + hi),
            error: 0.5 * (hi - lo),
            certified: self.certified,
        })
    }
    fn tradeoff(&self, alpha: f64, _order: Order) -> Result<Estimate> {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(Error::param("alpha", alpha, "must be in [0, 1]"));
        }
        if alpha <= 0.0 || alpha >= 1.0 {
            return Ok(Estimate::proved(1.0 - alpha, 0.0));
        }
        let a = Enclosure::from_f64(64, alpha);
        let v = Gaussian::eval_enclosure(&encl(self.mu_lo, self.mu_hi), &a)?;
        let (lo, hi) = (v.lower_f64().max(0.0), v.upper_f64().min(1.0 - alpha));
        Ok(Estimate {
            value: 0.5 * (lo + hi),
            error: 0.5 * (hi - lo).max(0.0),
            certified: self.certified,
        })
    }
    fn renyi(&self, lambda: f64, _order: Order) -> Result<Estimate> {
        if !(lambda.is_finite() && lambda > 1.0) {
            return Err(Error::param("order", lambda, "must be finite and > 1"));
        }
        let lo = 0.5 * lambda * self.mu_lo * self.mu_lo;
        let hi = 0.5 * lambda * self.mu_hi * self.mu_hi;
        Ok(Estimate {
            value: 0.5 * (lo + hi),
            error: 0.5 * (hi - lo) + 4.0 * f64::EPSILON * hi,
            certified: self.certified,
        })
    }
    fn describe(&self) -> String {
        format!("Gaussian instance G({}) [{}]", self.mu(), self.label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_schedules() {
        assert!(Schedule::full(0, 3, 1.0, 1.0).is_err());
        assert!(Schedule::full(1, 0, 1.0, 1.0).is_err());
        assert!(Schedule::full(1, 3, -1.0, 1.0).is_err());
        assert!(Schedule::full(1, 3, 1.0, f64::NAN).is_err());
        assert!(Schedule::cyclic(10, 3, 1, 0, 1.0, 1.0).is_err());
        assert!(Schedule::cyclic(10, 5, 1, 2, 1.0, 1.0).is_err());
        assert!(Schedule::cyclic(10, 5, 0, 0, 1.0, 1.0).is_err());
    }

    #[test]
    fn rejects_bad_hessian() {
        let s = Schedule::full(1, 3, 0.1, 1.0).unwrap();
        let h = DMatrix::from_row_slice(2, 2, &[1.0, 0.5, 0.0, 1.0]);
        assert!(GaussianInstance::worst(&s, &h, 1.0).is_err());
        let h = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, f64::NAN]);
        assert!(GaussianInstance::worst(&s, &h, 1.0).is_err());
        let h = DMatrix::<f64>::identity(2, 2);
        assert!(GaussianInstance::worst(&s, &h, -1.0).is_err());
    }

    #[test]
    fn single_step_is_one_gaussian_mechanism() {
        // one step: Δ = η L / b, S = η² σ² ⇒ μ = L/(bσ)
        let s = Schedule::full(4, 1, 0.3, 2.0).unwrap();
        let mu = scalar_mu(&s, &0.7, &1.0);
        assert!((mu - 1.0 / 8.0).abs() < 1e-15);
    }

    #[test]
    fn matrix_path_matches_spectral_for_rotated_hessian() {
        // H = R diag(0.05, 0.8, 1.5) Rᵀ with a non-trivial rotation
        let r = nalgebra::Rotation3::from_euler_angles(0.3, -0.7, 1.1);
        let r = DMatrix::from_fn(3, 3, |i, j| r[(i, j)]);
        let d = DMatrix::from_diagonal(&DVector::from_vec(vec![0.05, 0.8, 1.5]));
        let h = &r * d * r.transpose();
        let h = (&h + h.transpose()) * 0.5;
        let s = Schedule::cyclic(12, 3, 5, 2, 0.4, 1.3).unwrap();
        let a = GaussianInstance::worst(&s, &h, 0.7).unwrap();
        let b = GaussianInstance::spectral(&s, &h, 0.7).unwrap();
        assert!((a.mu() - b.mu()).abs() < 1e-10 * b.mu());
        let da = a.direction().unwrap();
        let db = b.direction().unwrap();
        assert!(da.dot(db).abs() > 1.0 - 1e-8);
        // the given-direction path at the worst direction reproduces μ
        let v = db * 0.7;
        let c = GaussianInstance::with_direction(&s, &h, &v).unwrap();
        assert!((c.mu() - b.mu()).abs() < 1e-10 * b.mu());
    }
}
