//! Ye–Shokri 2022 (YS22): hidden-state Rényi DP of noisy mini-batch gradient descent.
//!
//! All results are stated in the paper's convention (YS22 Alg 1):
//! `θ ← θ − η (1/b) Σ_{i∈B} ∇ℓ(θ; x_i) + √(2ησ′²) N(0, I)`, n records, batches of size
//! b, l = n/b iterations per epoch, K epochs, λ-strongly convex, β-smooth loss with
//! gradient sensitivity S_g. [`Ys22Params::to_toolkit`] translates to the toolkit's
//! model (docs/conventions.md §2): σ = σ′√(2/η), L = S_g, c = max{|1 − ηλ|, |1 − ηβ|}
//! (= 1 − ηλ under η < 2/(λ+β)).
//!
//! # Rounding
//! Every bound is an enclosure reported by its upper end. The recursion of Thm 4.3 is
//! evaluated in log space with the map applied to each end of the enclosure separately
//! (it is increasing), so the enclosure does not grow by dependency.
//!
//! # References
//! J. Ye, R. Shokri, *Differentially private learning needs hidden state (or much
//! faster convergence)*, NeurIPS 2022.
use super::cys21::{Cys21Params, ToolkitTranslation};
use super::sampled_gaussian::{SampledGaussian, SgmOrder};
use crate::error::{Error, Result, positive_finite};
use crate::precision::Enclosure;
use rug::Float;

/// Parameters of YS22 in the paper's own convention.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ys22Params {
    /// σ′ (YS22's σ): noise √(2η)σ′ per coordinate.
    pub sigma: f64,
    /// S_g: gradient ℓ₂-sensitivity.
    pub s_g: f64,
    /// λ > 0: strong convexity.
    pub lambda: f64,
    /// β ≥ λ: smoothness.
    pub beta: f64,
    /// η: step size, 0 < η < 2/(λ + β).
    pub eta: f64,
    /// n: dataset size.
    pub n: u64,
    /// b: batch size (b | n, n/b ≥ 2).
    pub b: u64,
}

const R21: ResultId = ResultId::Ys22Thm2_1;
const R33: ResultId = ResultId::Ys22Thm3_3;
const R42: ResultId = ResultId::Ys22Thm4_2;
const R43: ResultId = ResultId::Ys22Thm4_3;
const R53: ResultId = ResultId::Ys22Cor5_3;
const RBASE: ResultId = ResultId::Ys22Baseline;

use crate::error::hyp;
use crate::provenance::ResultId;

/// Result of the Thm 4.3 recursion.
#[derive(Debug, Clone)]
pub struct Thm43 {
    /// The bound `log(S_K^0)/(α − 1)` (enclosure; upper end is the bound).
    pub epsilon: Enclosure,
    /// Whether the recursion converges as K → ∞: `(b/n) e^{(α−1)αηS²/(4σ′²b²)} < 1`.
    pub converges: bool,
    /// The K → ∞ limit (upper bound for every K, f64 rounded up) when it converges.
    pub limit: Option<f64>,
}

impl Ys22Params {
    /// Validates the domain: σ′, S_g, η, λ finite > 0; β ≥ λ finite; n ≥ 2; 1 ≤ b ≤ n.
    ///
    /// # Errors
    /// [`Error::Parameter`] naming the field.
    pub fn new(
        sigma: f64,
        s_g: f64,
        lambda: f64,
        beta: f64,
        eta: f64,
        n: u64,
        b: u64,
    ) -> Result<Self> {
        positive_finite(&[
            ("sigma", sigma),
            ("s_g", s_g),
            ("eta", eta),
            ("lambda", lambda),
            ("beta", beta),
        ])?;
        if b == 0 || b > n {
            return Err(Error::param("b", b, "batch size must satisfy 1 ≤ b ≤ n"));
        }
        Ok(Ys22Params {
            sigma,
            s_g,
            lambda,
            beta,
            eta,
            n,
            b,
        })
    }

    /// The figure setting of YS22 (Figs 1–2; docs/conventions.md §6): λ = 1, β = 4,
    /// S_g = 4, n = 50, b = 2, η = 0.02, σ′² = 4.
    pub fn figure() -> Self {
        Ys22Params {
            sigma: 2.0,
            s_g: 4.0,
            lambda: 1.0,
            beta: 4.0,
            eta: 0.02,
            n: 50,
            b: 2,
        }
    }

    /// Translation to the toolkit's model (docs/conventions.md §2): σ = σ′√(2/η), L = S_g,
    /// batch b.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::ys22::Ys22Params;
    /// let t = Ys22Params::figure().to_toolkit();
    /// assert!((t.sigma - 20.0).abs() < 1e-12); // 2·√(2/0.02)
    /// assert!((t.contraction - 0.98).abs() < 1e-15);
    /// ```
    pub fn to_toolkit(&self) -> ToolkitTranslation {
        Cys21Params {
            sigma: self.sigma,
            s_g: self.s_g,
            lambda: self.lambda,
            beta: self.beta,
            eta: self.eta,
            n: self.n,
        }
        .translation_in_batches(self.b)
    }

    /// Common hypotheses: α > 1, β ≥ λ, η < 2/(λ+β), K ≥ 1.
    fn check(&self, result: ResultId, alpha: f64, k: u64) -> Result<()> {
        if !alpha.is_finite() || alpha <= 1.0 {
            return Err(hyp(result, "H0: Rényi order α > 1", format!("α = {alpha}")));
        }
        if self.beta < self.lambda {
            return Err(hyp(
                result,
                "H1: λ-strongly convex and β-smooth with β ≥ λ",
                format!("λ = {}, β = {}", self.lambda, self.beta),
            ));
        }
        if self.eta * (self.lambda + self.beta) >= 2.0 {
            return Err(hyp(
                result,
                "H2: η < 2/(λ + β)",
                format!("η = {}, λ = {}, β = {}", self.eta, self.lambda, self.beta),
            ));
        }
        if k == 0 {
            return Err(hyp(result, "H3: K ≥ 1 epochs", "K = 0"));
        }
        Ok(())
    }

    /// Hypotheses of the partitioned results: b | n and n/b ≥ 2.
    fn check_partition(&self, result: ResultId) -> Result<u64> {
        if !self.n.is_multiple_of(self.b) {
            return Err(hyp(
                result,
                "H4: b divides n",
                format!("n = {}, b = {}", self.n, self.b),
            ));
        }
        let l = self.n / self.b;
        if l < 2 {
            return Err(hyp(result, "H5: n/b ≥ 2", format!("n/b = {l}")));
        }
        Ok(l)
    }

    fn wp(bits: u32) -> u32 {
        bits + 40
    }

    /// `αηS_g²/(4σ′²b²)`: the RDP of one noisy step on a dataset of size b.
    fn step_rdp(&self, alpha: f64, bits: u32) -> Enclosure {
        let wp = Self::wp(bits);
        let e = |x: f64| Enclosure::from_f64(wp, x);
        let b = Enclosure::from_u64(wp, self.b);
        e(alpha) * e(self.eta) * e(self.s_g).square()
            / (Enclosure::from_u64(wp, 4) * e(self.sigma).square() * b.square())
    }

    /// ρ = (1 − ηλ)².
    fn rho(&self, bits: u32) -> Enclosure {
        let wp = Self::wp(bits);
        (Enclosure::from_u64(wp, 1)
            - Enclosure::from_f64(wp, self.eta) * Enclosure::from_f64(wp, self.lambda))
        .square()
    }

    /// YS22 Thm 2.1 (naive extension of CYS21 to SGD).
    ///
    /// # Formula
    /// `ε ≤ α S_g²/(λ σ′² b²) · (1 − e^{−ληK/2})` (YS22 Thm 2.1, K as printed).
    ///
    /// # Errors
    /// [`Error::Hypothesis`] H0–H3 (α > 1, β ≥ λ, η < 2/(λ+β), K ≥ 1).
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::ys22::Ys22Params;
    /// let p = Ys22Params::figure();
    /// // K → ∞: α S²/(λσ′²b²) = 10·16/(4·4) = 10
    /// let e = p.thm2_1(10.0, 100_000, 128).unwrap();
    /// assert!((e.mid_f64() - 10.0).abs() < 1e-9);
    /// ```
    pub fn thm2_1(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        self.check(R21, alpha, k)?;
        let wp = Self::wp(bits);
        let e = |x: f64| Enclosure::from_f64(wp, x);
        let b = Enclosure::from_u64(wp, self.b);
        let x = e(self.lambda) * e(self.eta) * Enclosure::from_u64(wp, k);
        let one_minus = -((-(x.half())).exp_m1());
        let v = e(alpha) * e(self.s_g).square()
            / (e(self.lambda) * e(self.sigma).square() * b.square())
            * one_minus;
        Ok(v.with_prec(bits))
    }

    /// `ε₀^j(α) = αηS_g²/(4σ′²b²) · ρ^{j−1} / Σ_{s=0}^{j−1} ρ^s`, ρ = (1−ηλ)² (YS22 Thm 3.3).
    ///
    /// # Formula
    /// YS22 Thm 3.3 / Thm 4.2, for j = 1, …, n/b; the geometric sum is
    /// `(1 − ρ^j)/(1 − ρ)`.
    ///
    /// # Errors
    /// [`Error::Parameter`] for j = 0.
    pub fn eps0(&self, j: u64, alpha: f64, bits: u32) -> Result<Enclosure> {
        if j == 0 {
            return Err(Error::param("j", j, "ε₀^j is defined for j ≥ 1"));
        }
        let wp = Self::wp(bits);
        let rho = self.rho(bits);
        let one = Enclosure::from_u64(wp, 1);
        let geo = (one.clone() - rho.powu(j)) / (one - rho.clone());
        Ok(self.step_rdp(alpha, bits) * rho.powu(j - 1) / geo)
    }

    /// The epoch-recursion term shared by Thms 3.3 and 4.2:
    /// `ε₀^{⌊n/2b⌋}(α) · (1 − ρ^{(K−1)(l−⌊l/2⌋)})/(1 − ρ^{l−⌊l/2⌋})`.
    fn first_term(&self, alpha: f64, k: u64, l: u64, bits: u32) -> Result<Enclosure> {
        let wp = Self::wp(bits);
        let h = l / 2; // ⌊n/(2b)⌋ = ⌊l/2⌋ when b | n
        let m = l - h;
        let rho = self.rho(bits);
        let one = Enclosure::from_u64(wp, 1);
        let ratio = (one.clone() - rho.powu((k - 1) * m)) / (one - rho.powu(m));
        Ok(self.eps0(h, alpha, bits)? * ratio)
    }

    /// YS22 Thm 3.3: RDP of fixed-order (cyclic) noisy mini-batch GD for records in
    /// batch B^{j₀}.
    ///
    /// # Formula
    /// `ε ≤ ε₀^{⌊n/2b⌋}(α) · (1 − ρ^{(K−1)(n/b−⌊n/2b⌋)})/(1 − ρ^{n/b−⌊n/2b⌋}) + ε₀^{n/b−j₀}(α)`
    /// (YS22 eq. 3), ρ = (1 − ηλ)².
    ///
    /// # Errors
    /// [`Error::Hypothesis`] H0–H5 and "H6: 0 ≤ j₀ < n/b".
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::ys22::Ys22Params;
    /// let p = Ys22Params::figure();
    /// // K = 1, last batch (j₀ = n/b − 1): ε₀¹ = αηS²/(4σ′²b²) = 10·0.02·16/64 = 0.05
    /// let e = p.thm3_3(10.0, 1, 24, 128).unwrap();
    /// assert!((e.mid_f64() - 0.05).abs() < 1e-15);
    /// ```
    pub fn thm3_3(&self, alpha: f64, k: u64, j0: u64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        self.check(R33, alpha, k)?;
        let l = self.check_partition(R33)?;
        if j0 >= l {
            return Err(hyp(
                R33,
                "H6: 0 ≤ j₀ < n/b",
                format!("j₀ = {j0}, n/b = {l}"),
            ));
        }
        let v = self.first_term(alpha, k, l, bits)? + self.eps0(l - j0, alpha, bits)?;
        Ok(v.with_prec(bits))
    }

    /// YS22 Thm 4.2: shuffle and partition.
    ///
    /// # Formula
    /// `ε ≤ [first term of eq. 3] + (1/(α−1)) log( Avg_{0≤j₀<n/b} e^{(α−1)ε₀^{n/b−j₀}(α)} )`
    /// (YS22 eq. 5); the log-average is computed stably as
    /// `m + log Avg e^{(α−1)ε₀^j − m}`, m = max (footnote 4 of YS22, exact here).
    ///
    /// # Errors
    /// [`Error::Hypothesis`] H0–H5.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::ys22::Ys22Params;
    /// let p = Ys22Params::figure();
    /// let shuffle = p.thm4_2(10.0, 50, 128).unwrap();
    /// let last = p.thm3_3(10.0, 50, 24, 128).unwrap();
    /// assert!(shuffle.upper_f64() <= last.upper_f64());
    /// ```
    pub fn thm4_2(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        self.check(R42, alpha, k)?;
        let l = self.check_partition(R42)?;
        let wp = Self::wp(bits);
        let am1 = Enclosure::from_f64(wp, alpha - 1.0);
        // exponents (α−1)ε₀^j, j = 1..l; ε₀^j is decreasing in j so the max is j = 1
        let m = am1.clone() * self.eps0(1, alpha, bits)?;
        let mut acc = Enclosure::from_u64(wp, 0);
        for j in 1..=l {
            let x = am1.clone() * self.eps0(j, alpha, bits)? - m.clone();
            acc = acc + x.exp();
        }
        let avg = acc / Enclosure::from_u64(wp, l);
        let second = (m + avg.ln()) / am1;
        let v = self.first_term(alpha, k, l, bits)? + second;
        Ok(v.with_prec(bits))
    }

    /// Convergence condition of the Thm 4.3 recursion and the per-step constants
    /// (f64): returns (ln(b/n), c = (α−1)αηS²/(4σ′²b²), ρ).
    fn thm4_3_constants(&self, alpha: f64) -> (f64, f64, f64) {
        let p = self.b as f64 / self.n as f64;
        let c = (alpha - 1.0) * alpha * self.eta * self.s_g * self.s_g
            / (4.0 * self.sigma * self.sigma * (self.b * self.b) as f64);
        let rho = (1.0 - self.eta * self.lambda).powi(2);
        (p.ln(), c, rho)
    }

    /// YS22 Thm 4.3: sampling without replacement, by the recursion in log space.
    ///
    /// # Formula
    /// `ε ≤ log(S_K^0(α))/(α − 1)` with `S_0^0 = 1`,
    /// `S_k^{j+1} = (b/n) e^{(α−1)αηS_g²/(4σ′²b²)} S_k^j + (1 − b/n)(S_k^j)^{(1−ηλ)²}`,
    /// `S_{k+1}^0 = S_k^{n/b}` (YS22 eq. 6), i.e. K·n/b steps. In log space,
    /// `L ← log( (b/n)e^{c} e^{L} + (1 − b/n) e^{ρL} )`, evaluated as a log-sum-exp.
    ///
    /// Convergence: the map has a finite fixed point iff `(b/n) e^{c} < 1` (for large L
    /// the first term dominates and L grows by c + log(b/n) per step); then every
    /// iterate is below the smallest fixed point L*, reported as `limit = L*/(α−1)`.
    ///
    /// # Errors
    /// [`Error::Hypothesis`] H0–H5 (n/b must be an integer for the epoch structure).
    ///
    /// # Rounding
    /// The map is increasing in L: the lower end is propagated with a lower enclosure
    /// and the upper end with an upper enclosure at every step.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::ys22::Ys22Params;
    /// let p = Ys22Params::figure();
    /// let r = p.thm4_3(10.0, 50, 128).unwrap();
    /// assert!(r.converges);
    /// assert!(r.epsilon.upper_f64() <= r.limit.unwrap());
    /// ```
    pub fn thm4_3(&self, alpha: f64, k: u64, bits: u32) -> Result<Thm43> {
        Enclosure::check_bits(bits)?;
        self.check(R43, alpha, k)?;
        let l = self.check_partition(R43)?;
        let steps = k
            .checked_mul(l)
            .filter(|&s| s <= 100_000_000)
            .ok_or_else(|| {
                hyp(
                    R43,
                    "H7: K·n/b ≤ 10⁸ steps (evaluation budget)",
                    format!("K = {k}, n/b = {l}"),
                )
            })?;
        let wp = Self::wp(bits);
        let e = |x: f64| Enclosure::from_f64(wp, x);
        let p = Enclosure::from_u64(wp, self.b) / Enclosure::from_u64(wp, self.n);
        let lnp = p.ln();
        let ln1mp = (-p).ln_1p();
        let b2 = Enclosure::from_u64(wp, self.b).square();
        let c = e(alpha - 1.0) * e(alpha) * e(self.eta) * e(self.s_g).square()
            / (Enclosure::from_u64(wp, 4) * e(self.sigma).square() * b2);
        let rho = self.rho(bits);
        let a0 = lnp + c;
        // one step of the increasing map on a point (as an enclosure)
        let step = |lv: &Float| -> Enclosure {
            let lp = Enclosure::from_float(lv);
            let x = a0.clone() + lp.clone();
            let y = ln1mp.clone() + rho.clone() * lp;
            let (big, small) = if x.mid() >= y.mid() { (x, y) } else { (y, x) };
            big.clone() + (small - big).exp().ln_1p()
        };
        let mut lo = Float::with_val(wp, 0);
        let mut hi = Float::with_val(wp, 0);
        // the increment g(L) = f(L) − L is non-increasing when ρ ≤ 1 (see below)
        let increments_fall = rho.hi() <= &Float::with_val(wp, 1);
        let rel_tol = (-(f64::from(bits))).exp2();
        for i in 0..steps {
            let nl = step(&lo);
            let nh = step(&hi);
            lo = nl.lo().clone();
            if increments_fall && i % 32 == 31 {
                // Linear tail (sound; the divergent case, where no fixed point stops the
                // recursion). g(L) = f(L) − L has derivative f′(L) − 1 ≤ 0: f′ is a
                // weighted mean of 1 and ρ ≤ 1. The exact iterates are non-decreasing
                // (below), so for j ≥ k = i + 1, L_j ≥ L_k ≥ lo and
                // L_{j+1} − L_j = g(L_j) ≤ g(lo); and g(L) ≥ a0 everywhere (f(L) ≥ a0 + L).
                // Hence, with r = K − k steps left,
                //   lo + r·a0 ≤ L_K ≤ hi′ + r·g(lo),
                // hi′ = the upper end of L_k. Taken once that bracket is as narrow as the
                // working precision (a choice of when to stop, made in f64: it affects
                // tightness only).
                let inc = step(&lo) - Enclosure::from_float(&lo);
                let r = steps - (i + 1);
                let slack = (inc.clone() - a0.clone()).upper_f64();
                let scale = lo.to_f64() + r as f64 * a0.lower_f64();
                if r > 0 && slack.is_finite() && r as f64 * slack <= rel_tol * scale.abs() {
                    let rr = Enclosure::from_u64(wp, r);
                    let top = Enclosure::from_float(nh.hi())
                        + rr.clone() * Enclosure::from_float(inc.hi());
                    let bottom = Enclosure::from_float(&lo) + rr * a0.clone();
                    hi = top.hi().clone();
                    lo = bottom.lo().clone();
                    break;
                }
            }
            if nh.hi() <= &hi {
                // Early stop (sound). Let L_k be the exact iterates (L_0 = 0) and hi an
                // upper bound on L_k. The map f is increasing (ρ ≥ 0), and the computed
                // upper end of f(hi) is ≤ hi, so f(hi) ≤ hi: by induction L_j ≤ hi ⇒
                // L_{j+1} = f(L_j) ≤ f(hi) ≤ hi, i.e. hi bounds every later iterate, L_K
                // included. The iterates are non-decreasing (L_1 = f(0) =
                // log(1 + (b/n)(e^c − 1)) ≥ 0 = L_0 since c ≥ 0 for α > 1, and f is
                // increasing), so lo, a lower bound on L_{k+1} with k + 1 ≤ K, is also
                // one on L_K. [lo, hi] therefore encloses L_K; the remaining steps could
                // only tighten the lower end, which no reported bound uses.
                break;
            }
            hi = nh.hi().clone();
        }
        let lenc = Enclosure::new(lo, hi).ok_or_else(|| Error::NotCertified {
            what: R43.as_str().into(),
            reason: "empty enclosure in recursion".into(),
        })?;
        let eps = (lenc / e(alpha - 1.0)).max(&Enclosure::from_u64(wp, 0));
        let (lnp_f, c_f, rho_f) = self.thm4_3_constants(alpha);
        let converges = lnp_f + c_f < 0.0;
        let limit = if converges {
            // smallest fixed point of the increasing map, by bisection in f64 on
            // g(L) = f(L) − L, then certified: g(L_hi) ≤ 0 checked with enclosures
            let f = |l: f64| {
                let x = lnp_f + c_f + l;
                let y = (-(self.b as f64 / self.n as f64)).ln_1p() + rho_f * l;
                x.max(y) + (-(x - y).abs()).exp().ln_1p()
            };
            let mut a = 0.0f64;
            let mut bnd = 1.0f64;
            while f(bnd) > bnd && bnd < 1e300 {
                bnd *= 2.0;
            }
            for _ in 0..200 {
                let mid = 0.5 * (a + bnd);
                if f(mid) > mid { a = mid } else { bnd = mid }
            }
            // certify: the map at L̂ (rounded up) is ≤ L̂, so L* ≤ L̂ (the iterates from
            // 0 stay below any L̂ with f(L̂) ≤ L̂ since f is increasing)
            let mut lhat = bnd * (1.0 + 1e-12) + 1e-300;
            let mut cert = None;
            for _ in 0..40 {
                let v = step(&Float::with_val(wp, lhat));
                if v.hi() <= &Float::with_val(wp, lhat) {
                    cert = Some(lhat);
                    break;
                }
                lhat = lhat * (1.0 + 1e-9) + 1e-300;
            }
            cert.map(|l| (Enclosure::from_f64(wp, l) / e(alpha - 1.0)).upper_f64())
        } else {
            None
        };
        Ok(Thm43 {
            epsilon: eps.with_prec(bits),
            converges,
            limit,
        })
    }

    /// The sampled-Gaussian composition baseline of YS22 Fig 2: K·n/b steps of the
    /// sampled Gaussian mechanism with q = b/n and noise multiplier σ_SGM = σ′b√(2/η)/S_g,
    /// taking the larger of both orders at each step.
    ///
    /// # Formula
    /// `ε = K (n/b) · max{S_α(q, σ_SGM), D_α(μ ‖ μ₀)}` (Mironov–Talwar–Zhang 2019 with
    /// RDP composition; YS22 §5.2 and Fig 2, "approximately (b/n)·αηS_g²/(4σ′²b²)·K").
    ///
    /// # Errors
    /// [`Error::Hypothesis`] H0, H3–H5; quadrature errors.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::ys22::Ys22Params;
    /// let p = Ys22Params::figure();
    /// let e = p.baseline(10.0, 10, 64).unwrap().mid_f64();
    /// let approx = (2.0 / 50.0) * 10.0 * 0.02 * 16.0 / (4.0 * 4.0 * 4.0) * 10.0;
    /// assert!((e / approx - 1.0).abs() < 0.05);
    /// ```
    pub fn baseline(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        if !alpha.is_finite() || alpha <= 1.0 {
            return Err(hyp(RBASE, "H0: Rényi order α > 1", format!("α = {alpha}")));
        }
        if k == 0 {
            return Err(hyp(RBASE, "H3: K ≥ 1 epochs", "K = 0"));
        }
        let l = self.check_partition(RBASE)?;
        let q = self.b as f64 / self.n as f64;
        let sgm_sigma = self.sigma * self.b as f64 * (2.0 / self.eta).sqrt() / self.s_g;
        // q and σ_SGM enter as f64 values; enclose their rounding by evaluating at the
        // neighbours that make the divergence larger (it increases in q, decreases in σ)
        let q_up = crate::precision::rounding::next_up_f64(q).min(1.0);
        let s_dn = crate::precision::rounding::next_down_f64(sgm_sigma);
        let m = SampledGaussian::new(q_up, s_dn)?;
        let a = m.divergence(SgmOrder::BaseMixture, alpha, bits)?;
        let b = m.divergence(SgmOrder::MixtureBase, alpha, bits)?;
        let steps = Enclosure::from_u64(bits, k) * Enclosure::from_u64(bits, l);
        Ok(a.max(&b) * steps)
    }
}

/// Parameters of YS22 Cor 5.3 (DP-SGD on regularized logistic regression).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cor53Params {
    /// λ: regularization coefficient.
    pub lambda: f64,
    /// L: feature clipping norm.
    pub feature_clip: f64,
    /// S_g: sensitivity (unregularized gradients clipped at S_g/2).
    pub s_g: f64,
    /// σ_mul: DP-SGD noise multiplier.
    pub sigma_mul: f64,
    /// η: step size.
    pub eta: f64,
    /// n: dataset size.
    pub n: u64,
    /// b: batch size.
    pub b: u64,
}

impl Cor53Params {
    /// YS22 Cor 5.3 as Thm 4.2 with smoothness (L²+1)/2 + λ and
    /// σ′ = √(η/2)·(1/b)·σ_mul·S_g/2 (YS22 Cor 5.3 proof sketch).
    ///
    /// # Formula
    /// YS22 eq. 12 with eq. 13: `ε₀^j(α) = (2α/σ_mul²) ρ^{j−1}/Σ_{s<j} ρ^s`, which is
    /// Thm 4.2's ε₀^j after the substitution (checked in the tests). The returned ε
    /// excludes the paper's ε_norm term, whose definition is in an appendix missing
    /// from the transcription: the guarantee is (α, ε_norm + ε)-RDP.
    ///
    /// # Errors
    /// [`Error::Parameter`] for bad values; [`Error::Hypothesis`]
    /// "H1: η < 2/((L²+1)/2 + 2λ)", "H2: K ≥ 1", "H3: n/b ≥ 2", and those of Thm 4.2.
    ///
    /// # Example
    /// ```
    /// use shiftdp::renyi::ys22::Cor53Params;
    /// let c = Cor53Params { lambda: 0.1, feature_clip: 1.0, s_g: 2.0, sigma_mul: 4.0,
    ///                       eta: 0.1, n: 1000, b: 100 };
    /// let e = c.epsilon(8.0, 20, 128).unwrap();
    /// assert!(e.upper_f64() > 0.0 && e.upper_f64() < 20.0 * 8.0 * 2.0 / 16.0);
    /// ```
    pub fn epsilon(&self, alpha: f64, k: u64, bits: u32) -> Result<Enclosure> {
        let beta0 = (self.feature_clip * self.feature_clip + 1.0) / 2.0;
        positive_finite(&[
            ("lambda", self.lambda),
            ("feature_clip", self.feature_clip),
            ("s_g", self.s_g),
            ("sigma_mul", self.sigma_mul),
            ("eta", self.eta),
        ])?;
        if self.eta * (beta0 + 2.0 * self.lambda) >= 2.0 {
            return Err(hyp(
                R53,
                "H1: η < 2/((L²+1)/2 + 2λ)",
                format!(
                    "η = {}, L = {}, λ = {}",
                    self.eta, self.feature_clip, self.lambda
                ),
            ));
        }
        if k == 0 {
            return Err(hyp(R53, "H2: K ≥ 1", "K = 0"));
        }
        if self.b == 0 || self.b > self.n || self.n / self.b < 2 {
            return Err(hyp(
                R53,
                "H3: n/b ≥ 2",
                format!("n = {}, b = {}", self.n, self.b),
            ));
        }
        let p = self.as_ys22()?;
        p.thm4_2(alpha, k, bits)
    }

    /// The equivalent [`Ys22Params`]: σ′ = √(η/2)·σ_mul·S_g/(2b), β = (L²+1)/2 + λ.
    ///
    /// # Errors
    /// [`Error::Parameter`] from [`Ys22Params::new`].
    pub fn as_ys22(&self) -> Result<Ys22Params> {
        let sigma = (self.eta / 2.0).sqrt() * self.sigma_mul * self.s_g / (2.0 * self.b as f64);
        let beta = (self.feature_clip * self.feature_clip + 1.0) / 2.0 + self.lambda;
        Ys22Params::new(sigma, self.s_g, self.lambda, beta, self.eta, self.n, self.b)
    }
}

/// One row of the YS22 figure table.
#[derive(Debug, Clone)]
pub struct FigureRow {
    /// Rényi order α.
    pub alpha: f64,
    /// Epochs K.
    pub k: u64,
    /// Thm 2.1 (naive baseline).
    pub thm2_1: f64,
    /// Thm 3.3 for the last batch (j₀ = n/b − 1).
    pub thm3_3_last: f64,
    /// Thm 3.3 for the first batch (j₀ = 0).
    pub thm3_3_first: f64,
    /// Thm 4.2 (shuffle and partition).
    pub thm4_2: f64,
    /// Thm 4.3 (sampling without replacement).
    pub thm4_3: f64,
    /// Sampled-Gaussian composition baseline.
    pub baseline: f64,
}

/// Default epoch grid of [`figure_rows`].
pub const FIGURE_K: [u64; 5] = [1, 10, 50, 100, 200];

/// The YS22 figure setting (λ = 1, β = 4, S_g = 4, n = 50, b = 2, η = 0.02, σ′² = 4,
/// α ∈ {10, 15, 20}) as rows, at the epoch counts `ks`. Values are upper ends.
///
/// # Errors
/// Hypothesis or quadrature failures (none in this setting).
///
/// # Example
/// ```
/// use shiftdp::renyi::ys22::figure_rows;
/// let rows = figure_rows(&[50], 64).unwrap();
/// assert_eq!(rows.len(), 3);
/// assert!(rows.iter().all(|r| r.thm4_2 <= r.thm3_3_last));
/// ```
pub fn figure_rows(ks: &[u64], bits: u32) -> Result<Vec<FigureRow>> {
    let p = Ys22Params::figure();
    let mut rows = Vec::new();
    for alpha in [10.0, 15.0, 20.0] {
        for &k in ks {
            rows.push(FigureRow {
                alpha,
                k,
                thm2_1: p.thm2_1(alpha, k, bits)?.upper_f64(),
                thm3_3_last: p.thm3_3(alpha, k, 24, bits)?.upper_f64(),
                thm3_3_first: p.thm3_3(alpha, k, 0, bits)?.upper_f64(),
                thm4_2: p.thm4_2(alpha, k, bits)?.upper_f64(),
                thm4_3: p.thm4_3(alpha, k, bits)?.epsilon.upper_f64(),
                baseline: p.baseline(alpha, k, bits)?.upper_f64(),
            });
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h<T: std::fmt::Debug>(r: Result<T>) -> String {
        match r {
            Err(Error::Hypothesis { hypothesis, .. }) => hypothesis,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_hypothesis_is_checked() {
        let p = Ys22Params::figure();
        assert!(h(p.thm2_1(1.0, 1, 64)).starts_with("H0"));
        let bad_beta = Ys22Params { beta: 0.5, ..p };
        assert!(h(bad_beta.thm3_3(2.0, 1, 0, 64)).starts_with("H1"));
        let bad_eta = Ys22Params { eta: 0.5, ..p };
        assert!(h(bad_eta.thm4_2(2.0, 1, 64)).starts_with("H2"));
        assert!(h(p.thm4_3(2.0, 0, 64)).starts_with("H3"));
        let bad_div = Ys22Params { b: 3, ..p };
        assert!(h(bad_div.thm4_3(2.0, 1, 64)).starts_with("H4"));
        let one_batch = Ys22Params { b: 50, ..p };
        assert!(h(one_batch.thm4_2(2.0, 1, 64)).starts_with("H5"));
        assert!(h(p.thm3_3(2.0, 1, 25, 64)).starts_with("H6"));
        assert!(Ys22Params::new(2.0, 4.0, 1.0, 4.0, 0.02, 50, 0).is_err());
        assert!(Ys22Params::new(2.0, 4.0, 0.0, 4.0, 0.02, 50, 2).is_err());
        let c = Cor53Params {
            lambda: 0.1,
            feature_clip: 1.0,
            s_g: 2.0,
            sigma_mul: 4.0,
            eta: 1.7,
            n: 1000,
            b: 100,
        };
        assert!(h(c.epsilon(2.0, 1, 64)).starts_with("H1"));
    }

    #[test]
    fn eps0_one_is_single_step_and_decreasing() {
        let p = Ys22Params::figure();
        let e1 = p.eps0(1, 10.0, 128).unwrap().mid_f64();
        assert!((e1 - 10.0 * 0.02 * 16.0 / (4.0 * 4.0 * 4.0)).abs() < 1e-15);
        let mut prev = e1;
        for j in 2..=25 {
            let v = p.eps0(j, 10.0, 128).unwrap().mid_f64();
            assert!(v < prev);
            prev = v;
        }
    }

    /// The early stop of the Thm 4.3 recursion against the plain recursion in f64 over
    /// every step (an independent computation): the certified enclosure contains it, at
    /// horizons far past convergence and at one before it.
    #[test]
    fn thm4_3_early_stop_encloses_the_full_recursion() {
        let p = Ys22Params::figure();
        for (alpha, k) in [
            (2.0, 3u64),
            (10.0, 50),
            (10.0, 20_000),
            (40.0, 5_000),
            (40.0, 80_000),
            (25.0, 40_000),
        ] {
            let r = p.thm4_3(alpha, k, 128).unwrap();
            let (lnp, c, rho) = p.thm4_3_constants(alpha);
            let ln1mp = (-(p.b as f64 / p.n as f64)).ln_1p();
            let steps = k * (p.n / p.b);
            let mut l = 0.0f64;
            for _ in 0..steps {
                let (x, y) = (lnp + c + l, ln1mp + rho * l);
                l = x.max(y) + (-(x - y).abs()).exp().ln_1p();
            }
            let direct = l / (alpha - 1.0);
            let (lo, hi) = (r.epsilon.lower_f64(), r.epsilon.upper_f64());
            let tol = 1e-9 * direct.abs().max(1e-300);
            assert!(
                lo - tol <= direct && direct <= hi + tol,
                "α={alpha} K={k}: {direct} ∉ [{lo}, {hi}]"
            );
            assert!(
                hi - lo <= 1e-6 * hi.max(1e-300),
                "α={alpha} K={k}: width {}",
                hi - lo
            );
        }
    }

    #[test]
    fn cor53_eps0_matches_eq13() {
        let c = Cor53Params {
            lambda: 0.1,
            feature_clip: 1.0,
            s_g: 2.0,
            sigma_mul: 4.0,
            eta: 0.1,
            n: 1000,
            b: 100,
        };
        let p = c.as_ys22().unwrap();
        let rho = (1.0f64 - 0.1 * 0.1).powi(2);
        for j in [1u64, 3, 10] {
            let geo: f64 = (0..j).map(|s| rho.powi(s as i32)).sum();
            let eq13 = 2.0 * 8.0 / 16.0 * rho.powi(j as i32 - 1) / geo;
            let v = p.eps0(j, 8.0, 128).unwrap().mid_f64();
            assert!((v / eq13 - 1.0).abs() < 1e-12, "j={j}: {v} vs {eq13}");
        }
    }

    #[test]
    fn thm4_3_divergence_detected() {
        // (b/n)e^{c} ≥ 1 ⇒ no finite limit; with little noise the recursion grows
        let p = Ys22Params {
            sigma: 0.1,
            ..Ys22Params::figure()
        };
        let r = p.thm4_3(10.0, 5, 64).unwrap();
        assert!(!r.converges && r.limit.is_none());
        let r2 = p.thm4_3(10.0, 10, 64).unwrap();
        assert!(r2.epsilon.lower_f64() > r.epsilon.upper_f64());
    }

    #[test]
    fn thm4_3_one_step_closed_form() {
        // n/b = 2, K = 1: two steps; check against a direct evaluation of eq. 6
        let p = Ys22Params::new(1.0, 1.0, 1.0, 1.0, 0.1, 4, 2).unwrap();
        let a: f64 = 3.0;
        let c: f64 = (a - 1.0) * a * 0.1 / (4.0 * 4.0);
        let rho = 0.81f64;
        let f = |s: f64| 0.5 * c.exp() * s + 0.5 * s.powf(rho);
        let s2 = f(f(1.0));
        let want = s2.ln() / (a - 1.0);
        let r = p.thm4_3(a, 1, 128).unwrap();
        assert!((r.epsilon.mid_f64() - want).abs() < 1e-14);
    }
}
