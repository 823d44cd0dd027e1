//! Numerically represented tradeoff functions: convex piecewise-linear curves.
//!
//! A [`PiecewiseLinear`] is the lower convex hull of its vertices `(αᵢ, βᵢ)` on [0, 1],
//! made non-increasing. It is itself a tradeoff function. Whether it lies *below* some
//! other tradeoff function (the safe side) depends on how the vertices were made:
//! tangent lines of a convex f give a curve below f ([`PiecewiseLinear::from_tangents`]),
//! while chords through points of f lie above it.
//!
//! # Formulas
//! * inverse: `f⁻¹(β) = inf{α : f(α) ≤ β}`: the hull of the swapped vertices `(βᵢ, αᵢ)`;
//! * convex conjugate `f*(y) = sup_α (αy − f(α)) = maxᵢ (αᵢ y − βᵢ)`;
//! * `δ(ε) = 1 + f*(−e^ε) = max{0, maxᵢ (1 − βᵢ − e^ε αᵢ)}`;
//! * `ε(δ) = max{0, maxᵢ ln((1 − βᵢ − δ)/αᵢ)}` over vertices with `1 − βᵢ > δ`
//!   (∞ if such a vertex has αᵢ = 0);
//! * symmetrization `min{f, f⁻¹}**`: hull of the vertices of f and of f⁻¹;
//! * subsampling (BSA24 Def 4.7) `C_p(f) = min{f_p, f_p⁻¹}**` with
//!   `f_p = p f + (1 − p) Id`: the hull of the vertices of `f_p` and their swaps.
use super::function::Tradeoff;
use crate::error::{Error, Result};
use crate::precision::rounding::{next_down_f64, next_up_f64};

/// A convex, non-increasing, piecewise-linear tradeoff function.
///
/// # Example
/// ```
/// use shiftdp::tradeoff::{PiecewiseLinear, Tradeoff};
/// // f_{ε,δ} with ε = ln 3, δ = 0: vertices (0,1), (1/4,1/4), (1,0)
/// let f = PiecewiseLinear::from_vertices(vec![(0.0, 1.0), (0.25, 0.25), (1.0, 0.0)]).unwrap();
/// assert!((f.eval(0.125) - 0.625).abs() < 1e-15);
/// let eps = f.epsilon_up(1e-9).unwrap();
/// assert!((eps - 3f64.ln()).abs() < 1e-6 && eps >= 3f64.ln() - 1e-8);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PiecewiseLinear {
    v: Vec<(f64, f64)>,
}

fn cross(o: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// Lower convex hull (Andrew's monotone chain) of points sorted by α.
fn lower_hull(mut pts: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    pts.dedup_by(|b, a| a.0.total_cmp(&b.0).is_eq()); // keep the lowest β per α (sorted ascending)
    let mut h: Vec<(f64, f64)> = Vec::with_capacity(pts.len());
    for p in pts {
        while h.len() >= 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
            h.pop();
        }
        h.push(p);
    }
    h
}

/// `points` values of ε in \[−emax, emax\], decreasing, for the tangent lines
/// `1 − δ(ε) − e^ε α` of a tradeoff curve ([`PiecewiseLinear::from_lines`]): half spaced
/// evenly in the angle `θ = arctan e^ε` of the line (so that consecutive tangents turn
/// by equal angles where the curve bends in the unit square), half evenly in ε (so that
/// the tails near α = 0 and α = 1 are resolved on a logarithmic α scale); duplicates
/// removed.
pub fn tangent_epsilons(emax: f64, points: usize) -> Vec<f64> {
    let emax = if emax.is_finite() && emax > 0.0 {
        emax
    } else {
        1.0
    };
    let n_even = points / 2;
    let n_angle = points - n_even;
    let span = |n: usize, i: usize| {
        if n > 1 {
            i as f64 / (n - 1) as f64
        } else {
            0.5
        }
    };
    let (t0, t1) = ((-emax).exp().atan(), emax.exp().atan());
    let mut eps: Vec<f64> = (0..n_angle)
        .map(|i| {
            (t0 + (t1 - t0) * span(n_angle, i))
                .tan()
                .ln()
                .clamp(-emax, emax)
        })
        .chain((0..n_even).map(|i| -emax + 2.0 * emax * span(n_even, i)))
        .filter(|e| e.is_finite())
        .collect();
    eps.sort_by(|a, b| b.total_cmp(a));
    eps.dedup();
    eps
}

impl PiecewiseLinear {
    /// The lower convex hull of `vertices`, made non-increasing and clamped to [0, 1].
    /// The vertices must include `α = 0` and `α = 1` and be finite.
    ///
    /// # Errors
    /// [`Error::Parameter`] if a vertex is not finite or outside \[0,1\]², if α = 0 or
    /// α = 1 is missing, or if the hull violates `f(α) ≤ 1 − α` by more than 1e−12.
    pub fn from_vertices(vertices: Vec<(f64, f64)>) -> Result<Self> {
        if vertices
            .iter()
            .any(|&(a, b)| !a.is_finite() || !b.is_finite())
        {
            return Err(Error::param("vertices", "non-finite", "must be finite"));
        }
        if vertices
            .iter()
            .any(|&(a, b)| !(0.0..=1.0).contains(&a) || !(-1e-12..=1.0 + 1e-12).contains(&b))
        {
            return Err(Error::param(
                "vertices",
                "out of range",
                "must lie in [0,1]²",
            ));
        }
        if !vertices.iter().any(|&(a, _)| a <= 0.0) || !vertices.iter().any(|&(a, _)| a >= 1.0) {
            return Err(Error::param(
                "vertices",
                "domain",
                "must include α = 0 and α = 1",
            ));
        }
        let h = Self::hull(vertices).v;
        for &(a, b) in &h {
            if b > 1.0 - a + 1e-12 {
                return Err(Error::param(
                    "vertices",
                    format!("f({a}) = {b}"),
                    "violate f(α) ≤ 1 − α: not a tradeoff function",
                ));
            }
        }
        Ok(PiecewiseLinear { v: h })
    }

    /// The lower convex hull of `vertices` (values clamped to [0, 1]), flattened after
    /// its minimum so that it is non-increasing, **without** the checks of
    /// [`PiecewiseLinear::from_vertices`]. Only for vertex sets that are valid by
    /// construction (finite, in [0, 1]², containing α = 0 and α = 1, below 1 − α): the
    /// inverse and symmetrization of a valid curve, the exact vertices of `f_{ε,δ}`.
    pub(crate) fn hull(vertices: Vec<(f64, f64)>) -> Self {
        let mut h = lower_hull(
            vertices
                .into_iter()
                .map(|(a, b)| (a, b.clamp(0.0, 1.0)))
                .collect(),
        );
        // make non-increasing: after the minimum the convex hull can only rise; flatten it
        if let Some(imin) = (0..h.len()).min_by(|&i, &j| h[i].1.total_cmp(&h[j].1).then(j.cmp(&i)))
        {
            let m = h[imin].1;
            h.truncate(imin + 1);
            if h[imin].0 < 1.0 {
                h.push((1.0, m));
            }
        }
        PiecewiseLinear { v: h }
    }

    /// The tradeoff curve below the truth from points `(εᵢ, δ_up(εᵢ))` of a privacy
    /// profile, `δ_up ≥ δ(ε)`: the envelope ([`PiecewiseLinear::from_lines`]) of the lines
    /// `1 − δ_up(εᵢ) − e^εᵢ α`, intercepts rounded down and slopes rounded up, each below
    /// `f(α) = sup_ε 1 − δ(ε) − e^ε α` (DRS22 Prop 2.12). Non-finite `δ_up` are skipped.
    ///
    /// # Errors
    /// As [`PiecewiseLinear::from_vertices`].
    pub fn from_privacy_profile(points: impl IntoIterator<Item = (f64, f64)>) -> Result<Self> {
        let lines = points
            .into_iter()
            .filter(|(_, du)| du.is_finite())
            .map(|(eps, du)| {
                let b = next_down_f64(next_down_f64(1.0 - du));
                let s = next_up_f64(next_up_f64(eps.exp()));
                (b, s)
            })
            .collect();
        Self::from_lines(lines)
    }

    /// The upper envelope `α ↦ max{0, maxᵢ (bᵢ − sᵢ α)}` of the lines `(bᵢ, sᵢ)` (slopes
    /// `sᵢ ≥ 0`) on \[0, 1\], with every vertex value rounded down. If each line lies
    /// below a convex function f on \[0, 1\] (e.g. `bᵢ = 1 − δ_up(εᵢ)` rounded down and
    /// `sᵢ = e^εᵢ` rounded up, since `f(α) = sup_ε 1 − δ(ε) − e^ε α`, DRS22 Prop 2.12),
    /// so does the result: each segment joins two points on or below one line.
    ///
    /// # Errors
    /// As [`PiecewiseLinear::from_vertices`].
    pub fn from_lines(mut lines: Vec<(f64, f64)>) -> Result<Self> {
        lines.push((0.0, 0.0)); // f ≥ 0
        let val = |l: (f64, f64), a: f64| next_down_f64(next_down_f64(l.0 - next_up_f64(l.1 * a)));
        let mut verts = vec![(0.0, lines.iter().map(|l| l.0).fold(0.0, f64::max).min(1.0))];
        // the line on the envelope at α = 0: the highest, of those the least steep
        let mut cur = (0..lines.len())
            .max_by(|&a, &b| {
                lines[a]
                    .0
                    .total_cmp(&lines[b].0)
                    .then(lines[b].1.total_cmp(&lines[a].1))
            })
            .unwrap_or(0); // `lines` holds at least the line f ≥ 0
        let mut x = 0.0;
        while lines[cur].1 > 0.0 {
            // next line on the envelope: first intersection to the right
            let mut best: Option<(f64, usize)> = None;
            for (j, l) in lines.iter().enumerate() {
                if l.1 < lines[cur].1 {
                    let xi = (lines[cur].0 - l.0) / (lines[cur].1 - l.1);
                    if xi >= x && best.is_none_or(|(bx, _)| xi < bx) {
                        best = Some((xi, j));
                    }
                }
            }
            match best {
                Some((xi, j)) if xi < 1.0 => {
                    let v = val(lines[cur], xi).min(val(lines[j], xi)).max(0.0);
                    verts.push((xi, v));
                    x = xi;
                    cur = j;
                }
                _ => break,
            }
        }
        verts.push((1.0, val(lines[cur], 1.0).max(0.0)));
        Self::from_vertices(verts)
    }

    /// The curve `max_i` of tangent lines of a convex, non-increasing function at the
    /// points `alphas`, given values and slopes there: it lies *below* the function
    /// (safe side). `values[i]` must be lower bounds of `f(alphas[i])`.
    ///
    /// # Errors
    /// As [`PiecewiseLinear::from_vertices`].
    pub fn from_tangents(alphas: &[f64], values: &[f64], slopes: &[f64]) -> Result<Self> {
        // intersect consecutive tangents
        let mut pts = vec![];
        let line = |i: usize, x: f64| values[i] + slopes[i] * (x - alphas[i]);
        pts.push((0.0, line(0, 0.0).min(1.0)));
        for i in 0..alphas.len().saturating_sub(1) {
            let (s0, s1) = (slopes[i], slopes[i + 1]);
            let x = if (s1 - s0).abs() > 1e-300 {
                (values[i + 1] - s1 * alphas[i + 1] - values[i] + s0 * alphas[i]) / (s0 - s1)
            } else {
                0.5 * (alphas[i] + alphas[i + 1])
            };
            let x = x.clamp(alphas[i], alphas[i + 1]);
            pts.push((x, next_down_f64(line(i, x).min(line(i + 1, x))).max(0.0)));
        }
        let last = alphas.len() - 1;
        pts.push((1.0, line(last, 1.0).max(0.0)));
        Self::from_vertices(pts)
    }

    /// The vertices of the hull.
    pub fn vertices(&self) -> &[(f64, f64)] {
        &self.v
    }

    /// Linear interpolation of the hull at α.
    fn interp(&self, alpha: f64) -> f64 {
        let a = alpha.clamp(0.0, 1.0);
        let i = self.v.partition_point(|&(x, _)| x < a);
        if i == 0 {
            return self.v[0].1;
        }
        if i >= self.v.len() {
            return self.v[self.v.len() - 1].1;
        }
        let (x0, y0) = self.v[i - 1];
        let (x1, y1) = self.v[i];
        if x1 <= x0 {
            return y0.min(y1);
        }
        y0 + (y1 - y0) * (a - x0) / (x1 - x0)
    }

    /// Left-continuous inverse `f⁻¹(β) = inf{α : f(α) ≤ β}`.
    pub fn inverse(&self) -> PiecewiseLinear {
        let mut pts: Vec<(f64, f64)> = self.v.iter().map(|&(a, b)| (b, a)).collect();
        // f⁻¹ is defined on [0,1]: f⁻¹(β) = 0 for β ≥ f(0)
        let f0 = self.v[0].1;
        pts.push((1.0, 0.0));
        if f0 < 1.0 {
            pts.push((f0, 0.0));
        }
        if !pts.iter().any(|&(a, _)| a == 0.0) {
            pts.push((0.0, 1.0));
        }
        // valid by construction: (β, α) for the vertices (α, β) of a valid f, which lie in
        // [0, 1]² below 1 − α (a condition symmetric in α and β), plus (1, 0), (0, 1)
        Self::hull(pts)
    }

    /// `min{f, f⁻¹}**`: the symmetrization of f.
    pub fn symmetrize(&self) -> PiecewiseLinear {
        let mut pts = self.v.clone();
        pts.extend(self.inverse().v);
        // valid by construction: the union of the vertices of f and of f⁻¹ (both valid)
        Self::hull(pts)
    }

    /// `C_p(f) = min{f_p, f_p⁻¹}**` with `f_p = p f + (1 − p) Id` (BSA24 Def 4.7).
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ p ≤ 1`.
    pub fn subsample(&self, p: f64) -> Result<PiecewiseLinear> {
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::param(
                "p",
                p,
                "sampling probability must be in [0, 1]",
            ));
        }
        let fp: Vec<(f64, f64)> = self
            .v
            .iter()
            .map(|&(a, b)| (a, p * b + (1.0 - p) * (1.0 - a)))
            .collect();
        Ok(Self::from_vertices(fp)?.symmetrize())
    }

    /// Convex conjugate `f*(y) = maxᵢ (αᵢ y − βᵢ)`.
    pub fn conjugate(&self, y: f64) -> f64 {
        self.v
            .iter()
            .map(|&(a, b)| a * y - b)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// An upper bound on `δ(ε) = max{0, maxᵢ (1 − βᵢ − e^ε αᵢ)}` (rounded up).
    ///
    /// # Errors
    /// [`Error::Parameter`] if ε is not finite.
    pub fn delta_up(&self, eps: f64) -> Result<f64> {
        if !eps.is_finite() {
            return Err(Error::param("epsilon", eps, "must be finite"));
        }
        // e^ε rounded down makes every term larger: safe
        let e = next_down_f64(eps.exp());
        let d = self
            .v
            .iter()
            .map(|&(a, b)| next_up_f64(next_up_f64(1.0 - b) - next_down_f64(e * a)))
            .fold(0.0, f64::max);
        Ok(d.min(1.0))
    }

    /// An upper bound on `ε(δ)`, the smallest ε ≥ 0 with `δ(ε) ≤ δ` (∞ if none).
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 < δ < 1`.
    pub fn epsilon_up(&self, delta: f64) -> Result<f64> {
        if !(delta > 0.0 && delta < 1.0) {
            return Err(Error::param("delta", delta, "must satisfy 0 < δ < 1"));
        }
        let mut eps: f64 = 0.0;
        for &(a, b) in &self.v {
            let num = next_up_f64(next_up_f64(1.0 - b) - delta);
            if num <= 0.0 {
                continue;
            }
            if a == 0.0 {
                return Ok(f64::INFINITY);
            }
            eps = eps.max(next_up_f64(next_up_f64(num / a).ln()));
        }
        Ok(next_up_f64(eps).max(0.0))
    }
}

impl Tradeoff for PiecewiseLinear {
    fn eval(&self, alpha: f64) -> f64 {
        self.interp(alpha)
    }
    fn eval_bounds(&self, alpha: f64) -> (f64, f64) {
        let v = self.interp(alpha);
        ((v - 4.0 * f64::EPSILON).max(0.0), v + 4.0 * f64::EPSILON)
    }
    fn is_symmetric(&self) -> bool {
        let inv = self.inverse();
        (0..=64).all(|i| {
            let a = i as f64 / 64.0;
            (self.eval(a) - inv.eval(a)).abs() < 1e-9
        })
    }
    fn delta_up(&self, eps: f64) -> Result<f64> {
        PiecewiseLinear::delta_up(self, eps)
    }
    fn name(&self) -> String {
        format!("piecewise({} vertices)", self.v.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tradeoff::check_tradeoff_laws;

    #[test]
    fn rejects_non_tradeoff_input() {
        assert!(PiecewiseLinear::from_vertices(vec![(0.0, 1.0), (1.0, 0.5)]).is_err());
        assert!(PiecewiseLinear::from_vertices(vec![(0.2, 0.5), (1.0, 0.0)]).is_err());
        assert!(PiecewiseLinear::from_vertices(vec![(0.0, f64::NAN), (1.0, 0.0)]).is_err());
    }

    #[test]
    fn hull_removes_non_convex_vertex_and_inverse_round_trips() {
        let f =
            PiecewiseLinear::from_vertices(vec![(0.0, 0.9), (0.3, 0.5), (0.5, 0.1), (1.0, 0.0)])
                .unwrap();
        check_tradeoff_laws(&f, 200).unwrap();
        let g = f.inverse().inverse();
        for i in 0..=20 {
            let a = i as f64 / 20.0;
            assert!((f.eval(a) - g.eval(a)).abs() < 1e-12);
        }
    }

    #[test]
    fn subsample_one_and_zero() {
        let f = crate::tradeoff::ApproxDp::new(1.0, 0.0)
            .unwrap()
            .to_piecewise();
        let s1 = f.subsample(1.0).unwrap();
        let s0 = f.subsample(0.0).unwrap();
        for i in 0..=20 {
            let a = i as f64 / 20.0;
            assert!((s1.eval(a) - f.eval(a)).abs() < 1e-12);
            assert!((s0.eval(a) - (1.0 - a)).abs() < 1e-12);
        }
    }
}
