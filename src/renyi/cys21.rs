//! Chourasia–Ye–Shokri 2021 (CYS21): Rényi-DP dynamics of noisy gradient descent.
//!
//! All results are stated in the paper's convention
//! `θ_{k+1} = Π_C(θ_k − (η/n) Σ_i ∇ℓ(θ_k; x_i) + √(2η) N(0, σ′² I))` (CYS21 Alg 1),
//! with total gradient sensitivity S_g (the sum of gradients changes by at most S_g
//! between neighbouring datasets), K iterations, λ-strong convexity and β-smoothness.
//! [`Cys21Params::to_toolkit`] gives the explicit translation to the toolkit's model
//! (docs/conventions.md §2): σ = σ′√(2/η), gradient sensitivity L = S_g, batch b = n,
//! m = λ, M = β, c = max{|1 − ηλ|, |1 − ηβ|}.
//!
//! # Rounding
//! Upper bounds (Thm 1, Thm 2, Cor 1, Cor 2, baseline) are enclosures reported by
//! their upper end; the lower bound of Thm 3 by its lower end.
//!
//! # References
//! R. Chourasia, J. Ye, R. Shokri, *Differential privacy dynamics of Langevin
//! diffusion and noisy gradient descent*, NeurIPS 2021.
use crate::error::{Error, Result, positive_finite};
use crate::precision::Enclosure;

/// Parameters of CYS21 in the paper's own convention.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cys21Params {
    /// σ′: the noise parameter of CYS21 Alg 1 (noise √(2η)σ′ per coordinate).
    pub sigma: f64,
    /// S_g: total gradient sensitivity.
    pub s_g: f64,
    /// λ ≥ 0: strong convexity (0 if unused).
    pub lambda: f64,
    /// β ≥ 0: smoothness (0 if unused).
    pub beta: f64,
    /// η > 0: step size.
    pub eta: f64,
    /// n ≥ 1: dataset size.
    pub n: u64,
}

/// The same run in the toolkit's parameter model (docs/conventions.md §2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolkitTranslation {
    /// σ = σ′√(2/η): per-step noise standard deviation is ησ.
    pub sigma: f64,
    /// Gradient sensitivity L (= S_g).
    pub sensitivity: f64,
    /// Batch size b.
    pub batch: u64,
    /// Dataset size n.
    pub n: u64,
    /// Step size η.
    pub eta: f64,
    /// Strong convexity m (= λ), when the paper's setting states one (AT22 states only a
    /// Lipschitz constant: `None`).
    pub m: Option<f64>,
    /// Smoothness M (= β), when stated.
    pub big_m: Option<f64>,
    /// Contraction c = max{|1 − ηm|, |1 − ηM|}.
    pub contraction: f64,
    /// Per-step GDP unit L/(bσ).
    pub gdp_unit: f64,
}

const R_THM2: ResultId = ResultId::Cys21Thm2;
const R_COR1: ResultId = ResultId::Cys21Cor1;
const R_THM3: ResultId = ResultId::Cys21Thm3;
const R_COR2: ResultId = ResultId::Cys21Cor2;

use crate::error::{Subject, hyp};
use crate::provenance::ResultId;
use crate::renyi::curve::check_order;

impl Cys21Params {
    /// Validates the common domain: σ′, S_g, η finite > 0; λ, β finite ≥ 0; n ≥ 1.
    ///
    /// # Errors
    /// [`Error::Parameter`] naming the field.
    pub fn new(sigma: f64, s_g: f64, lambda: f64, beta: f64, eta: f64, n: u64) -> Result<Self> {
        positive_finite(&[("sigma", sigma), ("s_g", s_g), ("eta", eta)])?;
        for (name, v) in [("lambda", lambda), ("beta", beta)] {
            if !v.is_finite() || v < 0.0 {
                return Err(Error::param(name, v, "must be finite and ≥ 0"));
            }
        }
        if n == 0 {
            return Err(Error::param("n", n, "must be ≥ 1"));
        }
        Ok(Cys21Params {
            sigma,
            s_g,
            lambda,
            beta,
            eta,
            n,
        })
    }

    /// The Figure-1 setting of CYS21 for a given λ: β = 4, S_g = 4, n = 5000, η = 0.02,
    /// σ′ = 0.02 (CYS21 Fig 1 caption; docs/conventions.md §6).
    ///
    /// # Errors
    /// [`Error::Parameter`] for a bad λ.
    pub fn figure1(lambda: f64) -> Result<Self> {
        Self::new(0.02, 4.0, lambda, 4.0, 0.02, 5000)
    }

    /// Translation to the toolkit's model: σ = σ′√(2/η), L = S_g, b = n (full batch).
    ///
    /// # Formula
    /// docs/conventions.md §2: per-step noise std ησ = √(2η)σ′ ⇔ σ = σ′√(2/η);
    /// c = max{|1 − ηλ|, |1 − ηβ|}; GDP unit L/(bσ).
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::cys21::Cys21Params;
    /// let p = Cys21Params::figure1(1.0).unwrap();
    /// let t = p.to_toolkit();
    /// assert!((t.sigma - 0.02 * (2.0f64 / 0.02).sqrt()).abs() < 1e-15);
    /// assert_eq!(t.batch, 5000);
    /// ```
    pub fn to_toolkit(&self) -> ToolkitTranslation {
        self.translation_in_batches(self.n)
    }

    /// [`Cys21Params::to_toolkit`] with batches of `b` out of the n records (YS22's
    /// mini-batch model on the same σ′, S_g, λ, β, η): σ = σ′√(2/η), L = S_g, m = λ,
    /// M = β, c = max{|1 − ηλ|, |1 − ηβ|}, GDP unit L/(bσ).
    pub(super) fn translation_in_batches(&self, b: u64) -> ToolkitTranslation {
        let sigma = self.sigma * (2.0 / self.eta).sqrt();
        let c = (1.0 - self.eta * self.lambda)
            .abs()
            .max((1.0 - self.eta * self.beta).abs());
        ToolkitTranslation {
            sigma,
            sensitivity: self.s_g,
            batch: b,
            n: self.n,
            eta: self.eta,
            m: Some(self.lambda),
            big_m: Some(self.beta),
            contraction: c,
            gdp_unit: self.s_g / (b as f64 * sigma),
        }
    }

    fn e(&self, bits: u32, x: f64) -> Enclosure {
        Enclosure::from_f64(bits + 32, x)
    }

    /// `α S_g² / (σ′² n²)` as an enclosure (a common factor).
    fn base(&self, alpha: f64, bits: u32) -> Enclosure {
        let n = Enclosure::from_u64(bits + 32, self.n);
        self.e(bits, alpha) * self.e(bits, self.s_g).square()
            / (self.e(bits, self.sigma).square() * n.square())
    }

    /// CYS21 Thm 1 for noisy GD: `ε = α S_v² T/(4σ′²)` with S_v = S_g/n (Lemma 4)
    /// and T = ηK.
    ///
    /// # Formula
    /// CYS21 Thm 1: coupled diffusions with ‖V_t − V′_t‖ ≤ S_v for time T have
    /// α-Rényi divergence at most `α S_v² T/(4σ²)`; with S_v = S_g/n (eq. 14) and
    /// T = ηK this is `α S_g² η K/(4σ′² n²)`.
    ///
    /// # Errors
    /// [`Error::Parameter`] for α ≤ 1; [`Error::Precision`] for bad `bits`.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::cys21::Cys21Params;
    /// let p = Cys21Params::new(1.0, 2.0, 0.0, 0.0, 0.5, 1).unwrap();
    /// // α S² η K /(4 σ² n²) = 3·4·0.5·10/4 = 15
    /// let e = p.thm1(3.0, 10, 128).unwrap();
    /// assert!(e.lower_f64() <= 15.0 && 15.0 <= e.upper_f64());
    /// ```
    pub fn thm1(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        check_order(alpha)?;
        let t = self.e(bits, self.eta) * Enclosure::from_u64(bits + 32, k);
        Ok((self.base(alpha, bits) * t / Enclosure::from_u64(bits + 32, 4)).with_prec(bits))
    }

    /// The composition baseline of CYS21 Fig 1: `ε = α S_g² η K/(4 n² σ′²)`.
    ///
    /// # Formula
    /// CYS21 Fig 1 caption ("Baseline composition-based analysis"), which equals K-fold
    /// RDP composition of the Gaussian mechanism with sensitivity ηS_g/n and noise
    /// √(2η)σ′ (Mironov 2017, Prop 7) — in the toolkit's model: K · α μ₀²/2 with
    /// μ₀ = L/(bσ).
    ///
    /// # Errors
    /// As [`thm1`](Self::thm1).
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::cys21::Cys21Params;
    /// let p = Cys21Params::figure1(1.0).unwrap();
    /// let a = p.baseline(10.0, 100, 128).unwrap();
    /// let b = p.thm1(10.0, 100, 128).unwrap();
    /// assert!((a.mid_f64() - b.mid_f64()).abs() < 1e-15);
    /// ```
    pub fn baseline(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        check_order(alpha)?;
        self.thm1(alpha, k, bits)
    }

    /// CYS21 Thm 2 (eq. 16): RDP of noisy GD when the tracing diffusions satisfy c-LSI.
    ///
    /// # Formula
    /// `ε = α S_g²/(2 c σ′⁴ n²) · (1 − e^{−σ′² c η K})` (CYS21 eq. 16).
    ///
    /// # Errors
    /// [`Error::Hypothesis`] "H1: c-LSI with c > 0" for c ≤ 0 or not finite (the LSI
    /// itself is the caller's assertion), or α ≤ 1.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::cys21::Cys21Params;
    /// let p = Cys21Params::figure1(2.0).unwrap();
    /// // Cor 1 is Thm 2 with c = λ/(2σ′²)
    /// let c = 2.0 / (2.0 * 0.02 * 0.02);
    /// let t2 = p.thm2(10.0, 500, c, 128).unwrap();
    /// let c1 = p.cor1(10.0, 500, 128).unwrap();
    /// assert!((t2.mid_f64() / c1.mid_f64() - 1.0).abs() < 1e-12);
    /// ```
    pub fn thm2(&self, alpha: f64, k: u64, c_lsi: f64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        check_order(alpha)?;
        if !c_lsi.is_finite() || c_lsi <= 0.0 {
            return Err(hyp(
                R_THM2,
                "H1: the tracing diffusions satisfy c-LSI with c > 0",
                format!("c = {c_lsi}"),
            ));
        }
        let c = self.e(bits, c_lsi);
        let s2 = self.e(bits, self.sigma).square();
        let x = s2.clone() * c.clone() * self.e(bits, self.eta) * Enclosure::from_u64(bits + 32, k);
        let one_minus = -((-x).exp_m1());
        let v = self.base(alpha, bits) / (Enclosure::from_u64(bits + 32, 2) * c * s2) * one_minus;
        Ok(v.with_prec(bits))
    }

    /// CYS21 Cor 1: RDP of noisy GD on λ-strongly convex, β-smooth losses.
    ///
    /// # Formula
    /// `ε = α S_g²/(λ σ′² n²) · (1 − e^{−λ η K/2})` (CYS21 Cor 1 = eq. 16 with the LSI
    /// constant c = λ/(2σ′²) of Lemma 5).
    ///
    /// # Errors
    /// [`Error::Hypothesis`]: "H1: λ > 0", "H2: β ≥ λ", "H3: η < 1/β" (Lemma 5);
    /// [`Error::Parameter`] for α ≤ 1.
    /// The start distribution θ₀ ∼ Π_C(N(0, 2σ′²/λ I)) is the caller's assertion.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::cys21::Cys21Params;
    /// let p = Cys21Params::figure1(1.0).unwrap();
    /// // K → ∞: α S²/(λ σ′² n²) = 10·16/(4e-4·2.5e7) = 0.016
    /// let e = p.cor1(10.0, 10_000_000, 128).unwrap();
    /// assert!((e.mid_f64() - 0.016).abs() < 1e-12);
    /// ```
    pub fn cor1(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        check_order(alpha)?;
        if self.lambda <= 0.0 {
            return Err(hyp(
                R_COR1,
                "H1: λ > 0 (strong convexity)",
                format!("λ = {}", self.lambda),
            ));
        }
        if self.beta < self.lambda {
            return Err(hyp(
                R_COR1,
                "H2: β ≥ λ",
                format!("β = {}, λ = {}", self.beta, self.lambda),
            ));
        }
        if self.eta * self.beta >= 1.0 {
            return Err(hyp(
                R_COR1,
                "H3: η < 1/β",
                format!("η = {}, β = {}", self.eta, self.beta),
            ));
        }
        let lam = self.e(bits, self.lambda);
        let x = lam.clone() * self.e(bits, self.eta) * Enclosure::from_u64(bits + 32, k);
        let one_minus = -((-(x.half())).exp_m1());
        Ok((self.base(alpha, bits) / lam * one_minus).with_prec(bits))
    }

    /// CYS21 Thm 3 (eq. 17): a *lower* bound on the Rényi divergence of noisy GD on the
    /// squared loss ½‖θ − x‖² (reported by its lower end).
    ///
    /// # Formula
    /// `R_α ≥ α S_g²/(4σ′² n²) · (1 − e^{−ηK})` (CYS21 eq. 17), for η < 1.
    ///
    /// # Errors
    /// [`Error::Hypothesis`] "H1: η < 1"; [`Error::Parameter`] for α ≤ 1.
    ///
    /// # Rounding
    /// A lower bound: use the enclosure's lower end.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::cys21::{Cys21Params, squared_loss_exact};
    /// let p = Cys21Params::new(1.0, 1.0, 1.0, 1.0, 0.1, 10).unwrap();
    /// let lb = p.thm3_lower(5.0, 30, 128).unwrap();
    /// let ex = squared_loss_exact(&p, 5.0, 30, 128).unwrap();
    /// assert!(lb.upper_f64() <= ex.lower_f64());
    /// ```
    pub fn thm3_lower(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        check_order(alpha)?;
        if self.eta >= 1.0 {
            return Err(hyp(R_THM3, "H1: η < 1", format!("η = {}", self.eta)));
        }
        let x = self.e(bits, self.eta) * Enclosure::from_u64(bits + 32, k);
        let one_minus = -((-x).exp_m1());
        Ok(
            (self.base(alpha, bits) / Enclosure::from_u64(bits + 32, 4) * one_minus)
                .with_prec(bits),
        )
    }

    /// CYS21 Cor 2 (eq. 18): RDP upper bound on the squared loss ½‖θ − x‖².
    ///
    /// # Formula
    /// As printed: `α S_g²/((2−η)σ²η²) · (1 − e^{−(2−η)ηK/2})`. The η² is an OCR/typo
    /// for n² (ERRATA.md CYS1): eq. 16 with the LSI constant c = (2−η)/(2σ′²) stated
    /// just above Cor 2 gives `α S_g²/((2−η)σ′² n²) · (1 − e^{−(2−η)ηK/2})`, which is
    /// what is computed.
    ///
    /// # Errors
    /// [`Error::Hypothesis`] "H1: 0 < η < 2" (the LSI constant (2−η)/(2σ′²) must be
    /// positive), α ≤ 1.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::cys21::{Cys21Params, squared_loss_exact};
    /// let p = Cys21Params::new(1.0, 1.0, 1.0, 1.0, 0.1, 10).unwrap();
    /// let ub = p.cor2(5.0, 30, 128).unwrap();
    /// let ex = squared_loss_exact(&p, 5.0, 30, 128).unwrap();
    /// assert!(ex.upper_f64() <= ub.lower_f64());
    /// ```
    pub fn cor2(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        check_order(alpha)?;
        if self.eta >= 2.0 {
            return Err(hyp(R_COR2, "H1: 0 < η < 2", format!("η = {}", self.eta)));
        }
        let two_m = Enclosure::from_u64(bits + 32, 2) - self.e(bits, self.eta);
        let x = two_m.clone() * self.e(bits, self.eta) * Enclosure::from_u64(bits + 32, k);
        let one_minus = -((-(x.half())).exp_m1());
        Ok((self.base(alpha, bits) / two_m * one_minus).with_prec(bits))
    }
}

/// Exact Rényi divergence of noisy GD on the squared loss ½‖θ − x‖² (the instance of
/// CYS21 Thm 3 / Cor 2), unconstrained, identical starts.
///
/// # Formula
/// θ_K − θ′_K is deterministic, Δ_K = (S_g/n)(1 − (1−η)^K); each output is Gaussian
/// with variance v_K = 2ησ′² Σ_{i<K}(1−η)^{2i} per coordinate, so
/// `R_α = αΔ_K²/(2v_K) = α S_g²(2−η)(1 − (1−η)^K)/(4σ′² n² (1 + (1−η)^K))`.
///
/// # Errors
/// [`Error::Hypothesis`] "H1: 0 < η < 2" (for η ≥ 2 the closed form's geometric sum
/// identity fails to describe a contracting run), α ≤ 1.
///
/// # Rounding
/// An exact value: enclosure.
///
/// # Example
/// ```
/// use shiftdp::renyi::cys21::{Cys21Params, squared_loss_exact};
/// // K = 1: α S² η/(4σ′²n²)
/// let p = Cys21Params::new(1.0, 2.0, 1.0, 1.0, 0.5, 1).unwrap();
/// let e = squared_loss_exact(&p, 3.0, 1, 128).unwrap();
/// assert!((e.mid_f64() - 3.0 * 4.0 * 0.5 / 4.0).abs() < 1e-14);
/// ```
pub fn squared_loss_exact(p: &Cys21Params, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
    Enclosure::check_bits(bits)?;
    check_order(alpha)?;
    if p.eta >= 2.0 {
        return Err(hyp(
            Subject::Other("CYS21 Thm 3 instance"),
            "H1: 0 < η < 2",
            format!("η = {}", p.eta),
        ));
    }
    let wp = bits + 32;
    let one = Enclosure::from_u64(wp, 1);
    let r = one.clone() - Enclosure::from_f64(wp, p.eta);
    // (1−η)^K for η ∈ (1,2) is negative for odd K: powu handles signed bases
    let rk = r.powu(k);
    let two_m = Enclosure::from_u64(wp, 2) - Enclosure::from_f64(wp, p.eta);
    let v = p.base(alpha, bits) * two_m * (one.clone() - rk.clone())
        / (Enclosure::from_u64(wp, 4) * (one + rk));
    Ok(v.with_prec(bits))
}

/// One row of the CYS21 Figure-1 table.
#[derive(Debug, Clone)]
pub struct Figure1Row {
    /// Rényi order α.
    pub alpha: f64,
    /// Strong convexity λ.
    pub lambda: f64,
    /// Iterations K.
    pub k: u64,
    /// CYS21 Cor 1 (upper end).
    pub cor1: f64,
    /// Composition baseline (upper end).
    pub baseline: f64,
}

/// The default iteration grid for [`figure1_rows`].
pub const FIGURE1_K: [u64; 6] = [100, 500, 1000, 2000, 5000, 10000];

/// The CYS21 Figure-1 setting as rows: α ∈ {10, 20, 30}, λ ∈ {1, 2, 4}, β = 4,
/// S_g = 4, n = 5000, η = 0.02, σ′ = 0.02, at the iteration counts `ks`.
///
/// # Formula
/// Cor 1 and the baseline, see [`Cys21Params::cor1`] and [`Cys21Params::baseline`].
///
/// # Errors
/// Hypothesis failures of Cor 1 (none in this setting).
///
/// # Example
/// ```
/// use shiftdp::renyi::cys21::figure1_rows;
/// let rows = figure1_rows(&[1000]).unwrap();
/// assert_eq!(rows.len(), 9);
/// assert!(rows.iter().all(|r| r.cor1 <= r.baseline));
/// ```
pub fn figure1_rows(ks: &[u64]) -> Result<Vec<Figure1Row>> {
    let mut rows = Vec::new();
    for alpha in [10.0, 20.0, 30.0] {
        for lambda in [1.0, 2.0, 4.0] {
            let p = Cys21Params::figure1(lambda)?;
            for &k in ks {
                rows.push(Figure1Row {
                    alpha,
                    lambda,
                    k,
                    cor1: p.cor1(alpha, k, 64)?.upper_f64(),
                    baseline: p.baseline(alpha, k, 64)?.upper_f64(),
                });
            }
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hypothesis_is_checked() {
        let p = Cys21Params::new(1.0, 1.0, 0.0, 4.0, 0.5, 10).unwrap();
        let h = |r: Result<Enclosure>| match r {
            Err(Error::Hypothesis { hypothesis, .. }) => hypothesis,
            other => panic!("{other:?}"),
        };
        assert!(h(p.cor1(2.0, 1, 64)).starts_with("H1"));
        let p2 = Cys21Params::new(1.0, 1.0, 5.0, 4.0, 0.1, 10).unwrap();
        assert!(h(p2.cor1(2.0, 1, 64)).starts_with("H2"));
        let p3 = Cys21Params::new(1.0, 1.0, 1.0, 4.0, 0.3, 10).unwrap();
        assert!(h(p3.cor1(2.0, 1, 64)).starts_with("H3"));
        assert!(h(p.thm2(2.0, 1, 0.0, 64)).starts_with("H1"));
        let p4 = Cys21Params::new(1.0, 1.0, 1.0, 1.0, 1.5, 10).unwrap();
        assert!(h(p4.thm3_lower(2.0, 1, 64)).starts_with("H1"));
        let p5 = Cys21Params::new(1.0, 1.0, 1.0, 1.0, 2.5, 10).unwrap();
        assert!(h(p5.cor2(2.0, 1, 64)).starts_with("H1"));
        // α ≤ 1 is outside the domain of a Rényi order: a Parameter error, as in every
        // Rényi module (one error kind per invalid input), not a hypothesis
        assert!(
            matches!(p.thm1(1.0, 1, 64), Err(Error::Parameter { ref name, .. }) if name == "alpha")
        );
        assert!(Cys21Params::new(0.0, 1.0, 1.0, 1.0, 0.1, 1).is_err());
        assert!(Cys21Params::new(1.0, 1.0, -1.0, 1.0, 0.1, 1).is_err());
        assert!(Cys21Params::new(1.0, 1.0, 1.0, 1.0, 0.1, 0).is_err());
    }

    #[test]
    fn thm2_small_c_limit_is_twice_thm1() {
        // c → 0 in eq. 16: α S² η K/(2σ′²n²) = 2 × Thm 1 (the factor 1/γ = 2 of the
        // proof's choice γ = 1/2)
        let p = Cys21Params::new(0.7, 3.0, 0.0, 0.0, 0.05, 100).unwrap();
        let t2 = p.thm2(4.0, 200, 1e-9, 128).unwrap().mid_f64();
        let t1 = p.thm1(4.0, 200, 128).unwrap().mid_f64();
        assert!((t2 / (2.0 * t1) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn cor2_is_thm2_with_lsi_constant_of_squared_loss() {
        let p = Cys21Params::new(0.3, 2.0, 1.0, 1.0, 0.4, 50).unwrap();
        let c = (2.0 - 0.4) / (2.0 * 0.09);
        let a = p.cor2(6.0, 77, 128).unwrap().mid_f64();
        let b = p.thm2(6.0, 77, c, 128).unwrap().mid_f64();
        assert!((a / b - 1.0).abs() < 1e-12);
    }

    #[test]
    fn squared_loss_exact_between_thm3_and_upper_bounds() {
        for &eta in &[0.01, 0.1, 0.5, 0.9] {
            let p = Cys21Params::new(0.8, 1.5, 1.0, 1.0, eta, 20).unwrap();
            for k in [1u64, 2, 10, 100, 5000] {
                let ex = squared_loss_exact(&p, 3.0, k, 128).unwrap();
                let lb = p.thm3_lower(3.0, k, 128).unwrap();
                let ub2 = p.cor2(3.0, k, 128).unwrap();
                let ub1 = p.cor1(3.0, k, 128).unwrap();
                assert!(lb.hi() <= ex.lo(), "Thm 3 above exact: eta={eta} k={k}");
                assert!(ex.hi() <= ub2.lo(), "Cor 2 below exact: eta={eta} k={k}");
                assert!(ex.hi() <= ub1.lo(), "Cor 1 below exact: eta={eta} k={k}");
            }
        }
    }

    #[test]
    fn translation_matches_gaussian_composition() {
        // baseline per step = α μ₀²/2 with μ₀ = L/(bσ), σ = σ′√(2/η)
        let p = Cys21Params::figure1(2.0).unwrap();
        let t = p.to_toolkit();
        let per_step = 10.0 * t.gdp_unit * t.gdp_unit / 2.0;
        let b = p.baseline(10.0, 1, 128).unwrap().mid_f64();
        assert!((per_step / b - 1.0).abs() < 1e-12);
        assert!(
            (t.contraction - (1.0 - 0.02 * 2.0f64).abs().max((1.0 - 0.08f64).abs())).abs() < 1e-15
        );
    }

    #[test]
    fn figure1_cor1_saturates() {
        // Cor 1 converges to α S²/(λσ′²n²) while the baseline grows linearly
        let rows = figure1_rows(&FIGURE1_K).unwrap();
        assert_eq!(rows.len(), 9 * FIGURE1_K.len());
        for r in &rows {
            let lim = r.alpha * 16.0 / (r.lambda * 4e-4 * 25e6);
            assert!(r.cor1 <= lim * (1.0 + 1e-12));
            let base = r.alpha * 16.0 * 0.02 * r.k as f64 / (4.0 * 25e6 * 4e-4);
            assert!((r.baseline / base - 1.0).abs() < 1e-12);
        }
    }
}
