//! Mixture instances: stochastic batches in one dimension.
//!
//! # Formula
//! One-dimensional quadratic (curvature `h`, contraction `c_k = 1 − η_k h ∈ [0, ∞)`) or
//! linear (`h = 0`) losses, all records but `i*` with zero gradient offset. The record
//! is in the batch of step `k` with probability `p = b/n`, independently across steps
//! (docs/conventions.md §2). Given the inclusion pattern `S`, the final iterates are
//! Gaussian with the common variance `v = Σ_k η_k² σ_k² Π_{j>k} c_j²` and a mean that
//! differs by `M_S = Σ_{k∈S} a_k`, `a_k = (η_k L / b) Π_{j>k} c_j`. So with `π` the law of
//! `M = Σ_k a_k B_k`, `B_k ~ Bernoulli(p)`:
//!
//! * [`PairKind::OneSided`] (record `g = 0` in `D`, `|g′| = L` in `D′`):
//!   `P = N(0, v)`, `Q = ∫ N(m, v) π(dm)`;
//! * [`PairKind::Opposite`] (`g = −L/2`, `g′ = +L/2`):
//!   `P = ∫ N(−m/2, v) π(dm)`, `Q = ∫ N(m/2, v) π(dm)`.
//!
//! In both cases the likelihood ratio `q/p` is non-decreasing in `x` (the mixing measure
//! of `Q` dominates that of `P` in likelihood-ratio order, all `m ≥ 0`), so by
//! Neyman–Pearson the optimal tests are thresholds and
//! `T(P, Q)(α) = Q(X ≤ τ)` with `P(X > τ) = α`; `δ_{Q‖P}(ε) = Q(X > τ) − e^ε P(X > τ)`
//! at `q(τ)/p(τ) = e^ε` (and the mirrored formulas for the other order). Rényi
//! divergences `D_λ(P‖Q) = (λ−1)⁻¹ ln ∫ p^λ q^{1−λ}` are computed by the trapezoid rule
//! in log space.
//!
//! # Error
//! The law π is exact (binomial when all `a_k` are equal, enumeration for `t ≤ 16`) or
//! computed on a grid of step `g` by *mean-preserving splitting* of each `a_k` between
//! its two neighbouring grid points. Splitting perturbs `M_S` by a zero-mean `U` with
//! `E U² = p Σ_k g² λ_k(1 − λ_k)`, and for a Gaussian component
//! `TV(E N(m + U, v), N(m, v)) ≤ E U² · ‖φ_v″‖₁ / 4 = E U² · φ(1) / v` (Taylor with
//! integral remainder; `∫|φ_v″| = E|Z² − 1| / v = 4φ(1)/v`). Atoms of mass below 1e−18
//! are dropped (their total mass is added). If more than 2¹⁴ atoms remain, one more
//! mean-preserving split onto a coarser grid adds its `Σ π g_c² λ(1 − λ)` to `E U²`. A TV perturbation of `P` by `t_P` and `Q`
//! by `t_Q` moves `δ_{Q‖P}(ε)` by at most `t_Q + e^ε t_P` — the stated error.
//!
//! The threshold is located by safeguarded Newton to a bracket `[lo, hi] ∋ τ*`; using
//! `τ = (lo + hi)/2` instead of `τ*` lowers `δ` by `|∫_τ^{τ*} (q − e^ε p)|
//! ≤ (hi − lo)(1 + e^ε) sup_{[lo, hi]} φ_v(· − m)`, with the supremum over the component
//! means `m` bounded by the distance from `[lo, hi]` to their hull; this term, and
//! `n·2⁻⁵²(1 + e^ε)` for the floating-point sums of `n` tail terms, are added to the
//! stated error of `δ`.
//!
//! # References
//! BSA24 §4.3 (NoisySGD, Def 4.7); AT22 §4 (the one-sided construction);
//! Neyman–Pearson lemma (DRS22 §2).
use super::{Estimate, Instance, Order};
use crate::error::{Error, Result, batch_within, positive_finite};
use crate::precision::special::{npdf, phi, phi_c};

/// `φ(1) = E|Z² − 1| / 4`, rounded up.
const PHI1: f64 = 0.241_970_724_519_143_37;
/// Atoms lighter than this are dropped (their mass is counted in the error).
const PRUNE: f64 = 1e-18;
/// Largest grid the discretized law may use.
const MAX_GRID: usize = 1 << 22;
/// Largest number of atoms kept for evaluation (a final coarsening split beyond).
const MAX_ATOMS: usize = 1 << 14;

/// A mixture component: (slope m/v, intercept ln π − m²/(2v), mean m, weight π).
type Comp = (f64, f64, f64, f64);

/// Which replace-one pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairKind {
    /// `D` has the record's gradient offset 0, `D′` has `L`: one side unbiased.
    OneSided,
    /// `D` has `−L/2`, `D′` has `+L/2`: the sides biased in opposite directions.
    Opposite,
}

/// The law of the accumulated shift `M = Σ_k a_k B_k`, `B_k ~ Bernoulli(p)` i.i.d.
#[derive(Debug, Clone)]
pub struct ShiftLaw {
    atoms: Vec<(f64, f64)>,
    /// `E U²` of the splitting perturbation (0 if exact).
    pert: f64,
    /// Dropped mass plus floating-point slack of the weights.
    mass_err: f64,
    exact: bool,
}

fn check_p(p: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::param(
            "p",
            p,
            "inclusion probability must be in [0, 1]",
        ));
    }
    Ok(())
}

impl ShiftLaw {
    /// `a · Binomial(t, p)`: all increments equal (linear loss, constant step).
    ///
    /// # Errors
    /// [`Error::Parameter`] for `p ∉ [0, 1]`, `a < 0` or non-finite, `t = 0`.
    ///
    /// # Example
    /// ```
    /// use shiftdp::exact::ShiftLaw;
    /// let law = ShiftLaw::binomial(4, 0.5, 2.0).unwrap();
    /// // P(M = 4) = C(4,2)/16
    /// let w = law.atoms().iter().find(|a| (a.0 - 4.0).abs() < 1e-12).unwrap().1;
    /// assert!((w - 6.0 / 16.0).abs() < 1e-15);
    /// ```
    pub fn binomial(t: usize, p: f64, a: f64) -> Result<Self> {
        check_p(p)?;
        if !(a.is_finite() && a >= 0.0) || t == 0 {
            return Err(Error::param("shift", a, "must be finite and ≥ 0, t ≥ 1"));
        }
        if p <= 0.0 || p >= 1.0 {
            let m = if p >= 1.0 { a * t as f64 } else { 0.0 };
            return Ok(ShiftLaw {
                atoms: vec![(m, 1.0)],
                pert: 0.0,
                mass_err: 0.0,
                exact: true,
            });
        }
        let (lp, lq) = (p.ln(), (-p).ln_1p());
        let mut lc = 0.0f64; // ln C(t, j)
        let mut w = Vec::with_capacity(t + 1);
        for j in 0..=t {
            if j > 0 {
                lc += ((t - j + 1) as f64 / j as f64).ln();
            }
            w.push((
                a * j as f64,
                (lc + j as f64 * lp + (t - j) as f64 * lq).exp(),
            ));
        }
        Ok(Self::finish(w, 0.0, 1e-13 * (t as f64).sqrt(), true))
    }

    /// The law of `Σ_k a_k B_k` for arbitrary increments `a_k ≥ 0`: exact for equal
    /// increments or `t ≤ 16`, otherwise on a grid whose step is chosen so that the
    /// splitting error term `E U² · φ(1)` is at most `tv_target · var` (pass the
    /// component variance `var` the law will be used with).
    ///
    /// # Errors
    /// [`Error::Parameter`] for bad `a_k`, `p`, `var` or `tv_target`.
    pub fn from_increments(a: &[f64], p: f64, var: f64, tv_target: f64) -> Result<Self> {
        check_p(p)?;
        if a.is_empty() || a.iter().any(|x| !(x.is_finite() && *x >= 0.0)) {
            return Err(Error::param(
                "increments",
                a.len(),
                "need ≥ 1 increment, all finite and ≥ 0",
            ));
        }
        if !(var.is_finite() && var > 0.0 && tv_target.is_finite() && tv_target > 0.0) {
            return Err(Error::param(
                "var",
                var,
                "variance and target must be finite and > 0",
            ));
        }
        let a0 = a[0];
        if a.iter().all(|x| x.to_bits() == a0.to_bits()) {
            return Self::binomial(a.len(), p, a0);
        }
        if p <= 0.0 || p >= 1.0 {
            let m = if p >= 1.0 { a.iter().sum() } else { 0.0 };
            return Ok(ShiftLaw {
                atoms: vec![(m, 1.0)],
                pert: 0.0,
                mass_err: 1e-16 * a.len() as f64 * m,
                exact: true,
            });
        }
        if a.len() <= 16 {
            let mut atoms = vec![(0.0f64, 1.0f64)];
            for &ak in a {
                let mut next = Vec::with_capacity(2 * atoms.len());
                for &(m, w) in &atoms {
                    next.push((m, w * (1.0 - p)));
                    next.push((m + ak, w * p));
                }
                next.sort_by(|x, y| x.0.total_cmp(&y.0));
                let mut merged: Vec<(f64, f64)> = Vec::with_capacity(next.len());
                for (m, w) in next {
                    match merged.last_mut() {
                        Some(last) if last.0.to_bits() == m.to_bits() => last.1 += w,
                        _ => merged.push((m, w)),
                    }
                }
                atoms = merged;
            }
            return Ok(Self::finish(atoms, 0.0, 1e-15 * a.len() as f64, true));
        }
        let t = a.len() as f64;
        let total: f64 = a.iter().sum();
        // E U² ≤ p t g²/4; want φ(1) E U² ≤ tv_target · var
        let mut g = (4.0 * tv_target * var / (PHI1 * p * t)).sqrt();
        if total / g > MAX_GRID as f64 {
            g = total / MAX_GRID as f64;
        }
        let size = (total / g).ceil() as usize + 3;
        let mut d = vec![0.0f64; size];
        d[0] = 1.0;
        let mut sorted = a.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mut len = 1usize; // support is d[0..len]
        let mut pert = 0.0;
        for &ak in &sorted {
            let x = ak / g;
            let f = x.floor() as usize;
            let lam = x - f as f64;
            pert += p * g * g * lam * (1.0 - lam);
            let new_len = (len + f + 1).min(size);
            for j in (0..new_len).rev() {
                let own = if j < len { d[j] } else { 0.0 };
                let lo = if j >= f && j - f < len { d[j - f] } else { 0.0 };
                let hi = if j > f && j - f - 1 < len {
                    d[j - f - 1]
                } else {
                    0.0
                };
                d[j] = (1.0 - p) * own + p * ((1.0 - lam) * lo + lam * hi);
            }
            len = new_len;
        }
        // coarsen to at most MAX_ATOMS atoms by one more mean-preserving split
        let first = d[..len].iter().position(|&w| w >= PRUNE).unwrap_or(0);
        let last = d[..len].iter().rposition(|&w| w >= PRUNE).unwrap_or(0);
        let r = ((last - first + 1) / MAX_ATOMS + 1) as f64;
        let atoms: Vec<(f64, f64)> = if r > 1.0 {
            let gc = r * g;
            let base = first as f64 * g;
            let mut c = vec![0.0f64; MAX_ATOMS + 3];
            for (j, &w) in d[..len].iter().enumerate() {
                let x = ((j as f64 * g - base) / gc).max(0.0);
                let f = (x.floor() as usize).min(MAX_ATOMS + 1);
                let lam = (x - f as f64).clamp(0.0, 1.0);
                c[f] += w * (1.0 - lam);
                c[f + 1] += w * lam;
                pert += w * gc * gc * lam * (1.0 - lam);
            }
            c.iter()
                .enumerate()
                .map(|(k, &w)| (base + k as f64 * gc, w))
                .collect()
        } else {
            d[..len]
                .iter()
                .enumerate()
                .map(|(j, &w)| (j as f64 * g, w))
                .collect()
        };
        Ok(Self::finish(atoms, pert, 1e-15 * t, false))
    }

    /// An exact law from explicit atoms `(m, π)` with `m ≥ 0`, `π ≥ 0`, `Σ π = 1`
    /// (up to 1e−9; the weights are renormalized and the slack counted in the error).
    ///
    /// # Errors
    /// [`Error::Parameter`] for negative or non-finite atoms or weights not summing to 1.
    pub fn from_atoms(mut atoms: Vec<(f64, f64)>) -> Result<Self> {
        let s: f64 = atoms.iter().map(|a| a.1).sum();
        if atoms.is_empty()
            || atoms
                .iter()
                .any(|&(m, w)| !(m.is_finite() && m >= 0.0 && w.is_finite() && w >= 0.0))
            || (s - 1.0).abs() > 1e-9
        {
            return Err(Error::param(
                "atoms",
                atoms.len(),
                "need finite shifts ≥ 0 and weights ≥ 0 summing to 1",
            ));
        }
        atoms.sort_by(|x, y| x.0.total_cmp(&y.0));
        let n = atoms.len() as f64;
        Ok(Self::finish(atoms, 0.0, 1e-16 * n, true))
    }

    fn finish(atoms: Vec<(f64, f64)>, pert: f64, slack: f64, exact: bool) -> Self {
        let mut dropped = 0.0;
        let kept: Vec<(f64, f64)> = atoms
            .into_iter()
            .filter(|&(_, w)| {
                if w < PRUNE {
                    dropped += w.max(0.0);
                    false
                } else {
                    true
                }
            })
            .collect();
        let s: f64 = kept.iter().map(|x| x.1).sum();
        let atoms = kept.into_iter().map(|(m, w)| (m, w / s)).collect();
        ShiftLaw {
            atoms,
            pert,
            mass_err: dropped + slack + (1.0 - s).abs(),
            exact,
        }
    }

    /// The atoms `(m, π(m))` (sorted by `m`, weights summing to 1).
    pub fn atoms(&self) -> &[(f64, f64)] {
        &self.atoms
    }

    /// Whether the law is exact (no grid splitting).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Bound on the total-variation distance between the true mixture
    /// `∫ N(s·m, v) π(dm)` and the one built from these atoms.
    pub fn tv_error(&self, var: f64, scale: f64) -> f64 {
        PHI1 * scale * scale * self.pert / var + self.mass_err
    }
}

/// A Gaussian location-mixture pair `(P, Q)` with a monotone likelihood ratio.
///
/// # Example
/// ```
/// use shiftdp::exact::{Instance, MixtureInstance, Order, PairKind};
/// // p = 1: Q = N(L/(bσ)·√t…) — every step includes the record, so it is G(μ)
/// let inst = MixtureInstance::sgd(10, 10, 4, 1.0, 1.0, 1.0, 0.0, PairKind::OneSided, 1e-12).unwrap();
/// let mu = 2.0 * 1.0 / (10.0 * 1.0); // √t · L/(bσ)
/// let g = shiftdp::tradeoff::Gaussian::new(mu).unwrap();
/// use shiftdp::tradeoff::Tradeoff;
/// let d = inst.delta(0.1, Order::Reverse).unwrap();
/// assert!((d.value - g.delta_up(0.1).unwrap()).abs() < 1e-12);
/// ```
#[derive(Debug, Clone)]
pub struct MixtureInstance {
    kind: PairKind,
    var: f64,
    sd: f64,
    // (slope m/v, intercept ln π − m²/(2v), mean m) per component
    p_comp: Vec<Comp>,
    q_comp: Vec<Comp>,
    tv_p: f64,
    tv_q: f64,
    exact: bool,
}

fn components(atoms: &[(f64, f64)], sign: f64, var: f64) -> Vec<Comp> {
    atoms
        .iter()
        .map(|&(m, w)| {
            let mm = sign * m;
            (mm / var, w.ln() - mm * mm / (2.0 * var), mm, w)
        })
        .collect()
}

fn lse(comp: &[Comp], x: f64) -> f64 {
    let mut mx = f64::NEG_INFINITY;
    for &(s, c, _, _) in comp {
        mx = mx.max(s * x + c);
    }
    let sum: f64 = comp
        .iter()
        .map(|&(s, c, _, _)| (s * x + c - mx).exp())
        .sum();
    mx + sum.ln()
}

/// `(lse(x), d lse/dx)`: the log-sum-exp and its derivative, the softmax mean of the
/// slopes (one pass of exponentials).
fn lse_d(comp: &[Comp], x: f64) -> (f64, f64) {
    let mut mx = f64::NEG_INFINITY;
    for &(s, c, _, _) in comp {
        mx = mx.max(s * x + c);
    }
    let (mut sum, mut sl) = (0.0f64, 0.0f64);
    for &(s, c, _, _) in comp {
        let e = (s * x + c - mx).exp();
        sum += e;
        sl += s * e;
    }
    (mx + sum.ln(), sl / sum)
}

impl MixtureInstance {
    /// The pair built from a shift law and the common component variance `var`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `var` is finite and > 0.
    pub fn new(law: &ShiftLaw, var: f64, kind: PairKind) -> Result<Self> {
        positive_finite(&[("variance", var)])?;
        let (p_comp, q_comp, tv_p, tv_q) = match kind {
            PairKind::OneSided => (
                vec![(0.0, 0.0, 0.0, 1.0)],
                components(law.atoms(), 1.0, var),
                0.0,
                law.tv_error(var, 1.0),
            ),
            PairKind::Opposite => {
                let half: Vec<(f64, f64)> =
                    law.atoms().iter().map(|&(m, w)| (0.5 * m, w)).collect();
                let e = law.tv_error(var, 0.5);
                (
                    components(&half, -1.0, var),
                    components(&half, 1.0, var),
                    e,
                    e,
                )
            }
        };
        Ok(MixtureInstance {
            kind,
            var,
            sd: var.sqrt(),
            p_comp,
            q_comp,
            tv_p,
            tv_q,
            exact: law.is_exact(),
        })
    }

    /// NoisySGD on a 1-D quadratic with curvature `h` (`h = 0`: linear loss): `n`
    /// records, batch `b` (`p = b/n`), `t` steps of size `η`, noise `σ`, sensitivity `L`.
    /// `tv_target` is the per-side TV budget of the grid (ignored when the law is exact).
    ///
    /// # Errors
    /// [`Error::Parameter`] for invalid inputs or `ηh > 1` (the contraction must be
    /// non-negative for the monotone likelihood ratio used here).
    #[allow(clippy::too_many_arguments)]
    pub fn sgd(
        n: u64,
        b: u64,
        t: usize,
        eta: f64,
        sigma: f64,
        l: f64,
        h: f64,
        kind: PairKind,
        tv_target: f64,
    ) -> Result<Self> {
        batch_within(n, b)?;
        // η, σ and the shifts per step
        crate::memory::check_values::<[f64; 3]>("a mixture instance's steps", t as u64)?;
        let etas = vec![eta; t];
        let sigmas = vec![sigma; t];
        Self::sgd_steps(
            b as f64 / n as f64,
            b,
            &etas,
            &sigmas,
            l,
            h,
            kind,
            tv_target,
        )
    }

    /// As [`MixtureInstance::sgd`] with per-step `η_k`, `σ_k` and inclusion probability `p`.
    ///
    /// # Errors
    /// As [`MixtureInstance::sgd`].
    #[allow(clippy::too_many_arguments)]
    pub fn sgd_steps(
        p: f64,
        b: u64,
        etas: &[f64],
        sigmas: &[f64],
        l: f64,
        h: f64,
        kind: PairKind,
        tv_target: f64,
    ) -> Result<Self> {
        check_p(p)?;
        if etas.is_empty() || etas.len() != sigmas.len() {
            return Err(Error::param(
                "steps",
                etas.len(),
                "need ≥ 1 step and one σ per η",
            ));
        }
        if !(l.is_finite() && l >= 0.0 && h.is_finite()) || b == 0 {
            return Err(Error::param(
                "sensitivity",
                l,
                "must be finite and ≥ 0 (h finite, b ≥ 1)",
            ));
        }
        for (&e, &s) in etas.iter().zip(sigmas) {
            if !(e.is_finite() && e > 0.0 && s.is_finite() && s > 0.0) {
                return Err(Error::param("eta/noise", e, "must be finite and > 0"));
            }
            if e * h > 1.0 {
                return Err(Error::param(
                    "strong-convexity",
                    h,
                    "mixture instances need 1 − ηh ≥ 0 (monotone likelihood ratio)",
                ));
            }
        }
        let t = etas.len();
        let mut a = vec![0.0; t];
        let mut var = 0.0;
        let mut w = 1.0; // Π_{j>k} c_j
        for k in (0..t).rev() {
            a[k] = etas[k] * l / b as f64 * w;
            var += (etas[k] * sigmas[k] * w).powi(2);
            w *= 1.0 - etas[k] * h;
        }
        let law = ShiftLaw::from_increments(&a, p, var, tv_target)?;
        Self::new(&law, var, kind)
    }

    /// The pair kind.
    pub fn kind(&self) -> PairKind {
        self.kind
    }

    /// The common component variance `v`.
    pub fn variance(&self) -> f64 {
        self.var
    }

    /// `(TV error of P, TV error of Q)` of the discretized laws.
    pub fn tv_errors(&self) -> (f64, f64) {
        (self.tv_p, self.tv_q)
    }

    /// `ln q(x) − ln p(x)`, non-decreasing in `x`.
    pub fn log_lr(&self, x: f64) -> f64 {
        lse(&self.q_comp, x) - lse(&self.p_comp, x)
    }

    fn upper_tail(comp: &[Comp], sd: f64, tau: f64) -> f64 {
        comp.iter()
            .map(|&(_, _, m, w)| w * phi_c((tau - m) / sd))
            .sum()
    }

    fn lower_tail(comp: &[Comp], sd: f64, tau: f64) -> f64 {
        comp.iter()
            .map(|&(_, _, m, w)| w * phi((tau - m) / sd))
            .sum()
    }

    fn span(&self) -> (f64, f64) {
        let all = self.p_comp.iter().chain(&self.q_comp).map(|x| x.2);
        let lo = all.clone().fold(f64::INFINITY, f64::min);
        let hi = all.fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    }

    /// Root of `log_lr(τ) = target` as a bracket `(lo, hi)` with
    /// `log_lr(lo) < target ≤ log_lr(hi)` (as evaluated), or `Err(sign)` if
    /// `log_lr − target` has one sign within `10⁷` spans of the means
    /// (`Err(true)` = above everywhere).
    ///
    /// Safeguarded Newton: every evaluation moves one end of the bracket by its sign;
    /// while one side is still open the step toward the root is `max(1.5 × Newton
    /// step, w)` with `w` doubling; inside the bracket, steps that leave it or do not
    /// halve `|f|` fall back to bisection, and a step shorter than half the tolerance
    /// is stretched so that the bracket itself closes. Stops when
    /// `hi − lo ≤ 1e−14 (|hi| + sd)` or when the bracket term of
    /// [`Self::bracket_error`] is below `1e−17` (far tails, where the densities are
    /// negligible and `log_lr` cannot resolve the root further).
    fn threshold(&self, target: f64) -> std::result::Result<(f64, f64), bool> {
        let (mlo, mhi) = self.span();
        let mid = 0.5 * (mlo + mhi);
        let w0 = self.sd + (mhi - mlo);
        let limit =
            1e7 * (self.sd + (mhi - mlo) + target.abs() * self.var / (mhi - mlo).max(self.sd));
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut x = mid;
        let mut w = 0.0;
        let mut close = 0.0f64;
        let mut prev_f = f64::INFINITY;
        let mut at_limit = false;
        for _ in 0..400 {
            let (f, df, mag) = self.log_lr_d(x);
            let f = f - target;
            if f < 0.0 {
                lo = x;
            } else {
                hi = x;
            }
            let newton = x - f / df;
            let nx = if lo == f64::NEG_INFINITY || hi == f64::INFINITY {
                // open side: expand toward the root
                let dir = if f < 0.0 { 1.0 } else { -1.0 };
                let dn = (newton - x) * dir;
                let d = if dn.is_finite() && dn > 0.0 {
                    (1.5 * dn).max(w)
                } else {
                    w.max(w0)
                };
                w = (2.0 * w).max(w0 / 16.0);
                let nx = x + dir * d;
                if (nx - mid).abs() > limit {
                    if at_limit {
                        return Err(f >= 0.0);
                    }
                    at_limit = true;
                    mid + dir * limit
                } else {
                    nx
                }
            } else {
                // the root is resolved only up to the rounding of f (≈ 8u·mag) over f′
                let res = if df > 0.0 {
                    8.0 * f64::EPSILON * (1.0 + mag + target.abs()) / df
                } else {
                    0.0
                };
                let tol = (1e-14 * (hi.abs() + self.sd)).max(2.0 * res);
                if hi - lo <= tol || self.bracket_density(lo, hi) * (hi - lo) <= 1e-17 {
                    return Ok((lo, hi));
                }
                close = close.max(0.5 * tol);
                let mut nx = newton;
                if (nx - x).abs() < close {
                    // close the bracket just past the predicted root; a probe that
                    // lands on the same side doubles the next probe distance
                    nx = if f < 0.0 { x + close } else { x - close };
                    close *= 2.0;
                } else if f.abs() > 0.5 * prev_f {
                    nx = f64::NAN;
                }
                if !(nx > lo && nx < hi) {
                    nx = 0.5 * (lo + hi);
                }
                nx
            };
            prev_f = f.abs();
            x = nx;
        }
        if lo.is_finite() && hi.is_finite() {
            Ok((lo, hi))
        } else {
            Err(hi.is_finite())
        }
    }

    /// An upper bound on every component density of `P` and `Q` on `[lo, hi]`:
    /// `φ(d/sd)/sd` with `d` the distance from `[lo, hi]` to the hull of the means.
    fn bracket_density(&self, lo: f64, hi: f64) -> f64 {
        let (mlo, mhi) = self.span();
        let d = (lo - mhi).max(mlo - hi).max(0.0);
        // npdf is accurate to a few ulps; 1.01 covers it and the division
        1.01 * npdf(d / self.sd) / self.sd
    }

    /// Bound on `δ(τ*) − (Q(X > τ) − e^ε P(X > τ))` for `τ ∈ [lo, hi] ∋ τ*`:
    /// the integrand `q − e^ε p` of the difference is bounded by
    /// `(1 + e^ε)` times [`Self::bracket_density`] on the bracket.
    fn bracket_error(&self, lo: f64, hi: f64, ee: f64) -> f64 {
        (hi - lo) * (1.0 + ee) * self.bracket_density(lo, hi)
    }

    /// `(log_lr(x), log_lr′(x), |ln q̃| + |ln p̃|)` (the last scales the rounding of the first).
    fn log_lr_d(&self, x: f64) -> (f64, f64, f64) {
        let (q, dq) = lse_d(&self.q_comp, x);
        let (p, dp) = lse_d(&self.p_comp, x);
        (q - p, dq - dp, q.abs() + p.abs())
    }

    /// Solves `tail(τ) = α` by bisection (`upper` selects which tail of which side).
    fn quantile(&self, comp: &[Comp], upper: bool, alpha: f64) -> f64 {
        let (mlo, mhi) = self.span();
        let mut lo = mlo - 40.0 * self.sd;
        let mut hi = mhi + 40.0 * self.sd;
        for _ in 0..200 {
            let m = 0.5 * (lo + hi);
            let v = if upper {
                Self::upper_tail(comp, self.sd, m)
            } else {
                Self::lower_tail(comp, self.sd, m)
            };
            // upper tail decreases in τ, lower tail increases
            if (v > alpha) == upper {
                lo = m;
            } else {
                hi = m;
            }
            if hi - lo <= 1e-15 * (hi.abs() + self.sd) {
                break;
            }
        }
        0.5 * (lo + hi)
    }

    /// `δ(ε)` and the bound of [`Self::bracket_error`] for the threshold used.
    fn delta_value(&self, eps: f64, order: Order) -> (f64, f64) {
        let ee = eps.exp();
        let (v, err) = match order {
            // sup_S Q(S) − e^ε P(S), S = {x > τ}, log_lr(τ) = ε
            Order::Reverse => match self.threshold(eps) {
                Ok((lo, hi)) => {
                    let tau = 0.5 * (lo + hi);
                    (
                        Self::upper_tail(&self.q_comp, self.sd, tau)
                            - ee * Self::upper_tail(&self.p_comp, self.sd, tau),
                        self.bracket_error(lo, hi, ee),
                    )
                }
                Err(_) => (1.0 - ee, 0.0),
            },
            // sup_S P(S) − e^ε Q(S), S = {x < τ}, log_lr(τ) = −ε
            Order::Forward => match self.threshold(-eps) {
                Ok((lo, hi)) => {
                    let tau = 0.5 * (lo + hi);
                    (
                        Self::lower_tail(&self.p_comp, self.sd, tau)
                            - ee * Self::lower_tail(&self.q_comp, self.sd, tau),
                        self.bracket_error(lo, hi, ee),
                    )
                }
                Err(_) => (1.0 - ee, 0.0),
            },
        };
        (v.clamp(0.0, 1.0), err)
    }

    fn tradeoff_value(&self, alpha: f64, order: Order) -> f64 {
        if alpha <= 0.0 {
            return 1.0;
        }
        if alpha >= 1.0 {
            return 0.0;
        }
        let v = match order {
            // T(P, Q): reject P on {x > τ}: α = P(X > τ), β = Q(X ≤ τ)
            Order::Forward => {
                let tau = self.quantile(&self.p_comp, true, alpha);
                Self::lower_tail(&self.q_comp, self.sd, tau)
            }
            // T(Q, P): reject Q on {x < τ}: α = Q(X < τ), β = P(X ≥ τ)
            Order::Reverse => {
                let tau = self.quantile(&self.q_comp, false, alpha);
                Self::upper_tail(&self.p_comp, self.sd, tau)
            }
        };
        v.clamp(0.0, 1.0 - alpha)
    }

    fn log_renyi_integral(&self, lambda: f64, order: Order, step_div: f64) -> f64 {
        let (num, den) = match order {
            Order::Forward => (&self.p_comp, &self.q_comp),
            Order::Reverse => (&self.q_comp, &self.p_comp),
        };
        let f = |x: f64| {
            -0.5 * x * x / self.var - 0.5 * (2.0 * std::f64::consts::PI * self.var).ln()
                + lambda * lse(num, x)
                + (1.0 - lambda) * lse(den, x)
        };
        let (mlo, mhi) = self.span();
        let r = mlo.abs().max(mhi.abs());
        let lo = -(lambda + 1.0) * r - 40.0 * self.sd;
        let hi = (lambda + 1.0) * r + 40.0 * self.sd;
        // locate the bulk on a coarse grid
        let k = 4096;
        let dx = (hi - lo) / k as f64;
        let vals: Vec<f64> = (0..=k).map(|i| f(lo + i as f64 * dx)).collect();
        let mx = vals.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let first = vals.iter().position(|&v| v > mx - 80.0).unwrap_or(0);
        let last = vals.iter().rposition(|&v| v > mx - 80.0).unwrap_or(k);
        let a = lo + first.saturating_sub(1) as f64 * dx;
        let b = lo + (last + 1).min(k) as f64 * dx;
        let h = (self.sd / step_div).min((b - a) / 64.0);
        let n = ((b - a) / h).ceil().max(64.0) as usize;
        let h = (b - a) / n as f64;
        let mut s = 0.0;
        for i in 0..=n {
            let wgt = if i == 0 || i == n { 0.5 } else { 1.0 };
            s += wgt * (f(a + i as f64 * h) - mx).exp();
        }
        mx + (s * h).ln()
    }

    /// The discrete points `(α, T(α))` of the tradeoff curve at thresholds spread over
    /// the bulk (for plots).
    pub fn tradeoff_points(&self, k: usize, order: Order) -> Vec<(f64, f64)> {
        let k = k.max(2);
        (0..=k)
            .map(|i| {
                let a = i as f64 / k as f64;
                (a, self.tradeoff_value(a, order))
            })
            .collect()
    }
}

impl Instance for MixtureInstance {
    fn delta(&self, eps: f64, order: Order) -> Result<Estimate> {
        if !eps.is_finite() {
            return Err(Error::param("epsilon", eps, "must be finite"));
        }
        let (v, tau_err) = self.delta_value(eps, order);
        let ee = eps.exp();
        // floating-point sums of n terms ≤ 1: n·2⁻⁵³ each side, plus the slack
        let n = (self.p_comp.len() + self.q_comp.len()) as f64;
        let err = match order {
            Order::Forward => self.tv_p + ee * self.tv_q,
            Order::Reverse => self.tv_q + ee * self.tv_p,
        } + tau_err
            + (1e-13 + n * f64::EPSILON) * (1.0 + ee.min(1e3));
        Ok(Estimate::proved(v, err))
    }

    fn tradeoff(&self, alpha: f64, order: Order) -> Result<Estimate> {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(Error::param("alpha", alpha, "must be in [0, 1]"));
        }
        let v = self.tradeoff_value(alpha, order);
        let (ta, tb) = match order {
            Order::Forward => (self.tv_p, self.tv_q),
            Order::Reverse => (self.tv_q, self.tv_p),
        };
        // T̃(α) − T(α) ≤ t_β + (T(α − t_α) − T(α)) (T non-increasing)
        let shift = if ta > 0.0 {
            (self.tradeoff_value((alpha - ta).max(0.0), order) - v).max(0.0)
        } else {
            0.0
        };
        Ok(Estimate::proved(v, tb + shift + 1e-13))
    }

    fn renyi(&self, lambda: f64, order: Order) -> Result<Estimate> {
        if !(lambda.is_finite() && lambda > 1.0) {
            return Err(Error::param("order", lambda, "must be finite and > 1"));
        }
        let i1 = self.log_renyi_integral(lambda, order, 16.0);
        let i2 = self.log_renyi_integral(lambda, order, 32.0);
        let d = (i2 / (lambda - 1.0)).max(0.0);
        let err = (i2 - i1).abs() / (lambda - 1.0) + 1e-12 * (1.0 + d);
        Ok(Estimate {
            value: d,
            error: err,
            certified: false,
        })
    }

    fn describe(&self) -> String {
        format!(
            "mixture instance ({:?}, v = {}, {} + {} components, {})",
            self.kind,
            self.var,
            self.p_comp.len(),
            self.q_comp.len(),
            if self.exact { "exact law" } else { "grid law" }
        )
    }
}

/// Density of `N(m, v)` at `x` (helper for tests and plots).
pub fn normal_density(x: f64, m: f64, v: f64) -> f64 {
    npdf((x - m) / v.sqrt()) / v.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_inputs() {
        assert!(ShiftLaw::binomial(3, 1.5, 1.0).is_err());
        assert!(ShiftLaw::binomial(3, 0.5, -1.0).is_err());
        assert!(ShiftLaw::from_increments(&[1.0, f64::NAN], 0.5, 1.0, 1e-9).is_err());
        assert!(
            MixtureInstance::sgd(10, 11, 5, 1.0, 1.0, 1.0, 0.0, PairKind::OneSided, 1e-9).is_err()
        );
        assert!(
            MixtureInstance::sgd(10, 2, 5, 1.0, 1.0, 1.0, 2.0, PairKind::OneSided, 1e-9).is_err()
        );
        let law = ShiftLaw::binomial(3, 0.5, 1.0).unwrap();
        assert!(MixtureInstance::new(&law, 0.0, PairKind::OneSided).is_err());
    }

    #[test]
    fn enumeration_matches_grid_law_moments() {
        let a: Vec<f64> = (0..12).map(|k| 0.9f64.powi(k) * 0.7).collect();
        let exact = ShiftLaw::from_increments(&a, 0.3, 1.0, 1e-12).unwrap();
        assert!(exact.is_exact());
        let mean: f64 = exact.atoms().iter().map(|x| x.0 * x.1).sum();
        let want: f64 = 0.3 * a.iter().sum::<f64>();
        assert!((mean - want).abs() < 1e-12);
        // 20 increments go to the grid: the mean is preserved by splitting
        let a: Vec<f64> = (0..20).map(|k| 0.9f64.powi(k) * 0.7).collect();
        let grid = ShiftLaw::from_increments(&a, 0.3, 1.0, 1e-10).unwrap();
        assert!(!grid.is_exact());
        let mean: f64 = grid.atoms().iter().map(|x| x.0 * x.1).sum();
        let want: f64 = 0.3 * a.iter().sum::<f64>();
        assert!((mean - want).abs() < 1e-9);
        // the grid meets its target; the coarsening to MAX_ATOMS adds its own
        // mean-preserving perturbation, which is included in the stated error
        let tv = grid.tv_error(1.0, 1.0);
        assert!(tv > 0.0 && tv < 1e-8, "stated TV error {tv:e}");
    }

    #[test]
    fn likelihood_ratio_is_monotone() {
        for kind in [PairKind::OneSided, PairKind::Opposite] {
            let inst = MixtureInstance::sgd(20, 3, 30, 0.5, 1.0, 1.0, 0.1, kind, 1e-10).unwrap();
            let mut prev = f64::NEG_INFINITY;
            for i in -200..=200 {
                let x = i as f64 * 0.1;
                let l = inst.log_lr(x);
                assert!(l >= prev - 1e-12, "{kind:?} at {x}");
                prev = l;
            }
        }
    }
}
