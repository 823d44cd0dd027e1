//! Clamped-walk instances with the boundary masses split correctly (the validator's own
//! propagation; see the report on `crate::exact::clamped`).
//!
//! # Formula
//! Same model and grid as [`crate::exact::clamped`]: on `[lo, hi]` each step maps
//! `x ↦ Π[x* + c (x − x*) + β B + Z]`, `Z ~ N(0, s²)`, and the image `y = u + Z` of a
//! node is split among the nodes `x_j = lo + j h` by the hat functions, the boundary
//! nodes also receiving the projected mass. With `F(a) = E(a + Z)_+ = aΦ(a/s) + sφ(a/s)`:
//! * interior node: `(F(u − x_{j−1}) − 2F(u − x_j) + F(u − x_{j+1}))/h`;
//! * node `lo`: `P(y < lo) + E[(1 − (y − lo)/h) 1{lo ≤ y < lo + h}]
//!   = (F(lo + h − u) − F(lo − u))/h` — the projected mass `Φ((lo − u)/s)` is already
//!   contained in this difference (since `E[(lo + h − y) 1{y < lo}] = F(lo − u) +
//!   hΦ((lo − u)/s)`), and must not be added again; mirrored at `hi`.
//!
//! The weights of one source sum to 1 (up to the ±12s truncation of the interior
//! window, renormalized). Values are computed at `N` and `2N` intervals; the reported
//! value is the Richardson extrapolation `(4v_{2N} − v_N)/3`, the stated error
//! `|v_{2N} − v_N|` (an estimate, `certified = false`).
//!
//! # References
//! AT22 Thm 4.1 and §A.4 (construction); BSA24 Thms 4.3, 4.6, 4.10 (settings).
use crate::error::{Error, Result};
use crate::exact::clamped::ClampedWalk;
use crate::exact::{Estimate, Instance, Order, PairKind};
use crate::precision::special::{npdf, phi};

/// `F(a) = E(a + Z)_+ = aΦ(a/s) + sφ(a/s)`, `Z ~ N(0, s²)`. For `z = a/s < −3` the two
/// terms cancel; there `F = sφ(z)/(x·t + 1)` with `x = −z` and the continued fraction
/// `t = x + 2/(x + 3/(x + 4/(x + …)))` (from the Mills-ratio fraction
/// `Φ(−x)/φ(x) = 1/(x + 1/t)`, so `1 − xΦ(−x)/φ(x) = 1/(xt + 1)`), accurate in relative
/// terms deep into the tail.
pub fn f2(a: f64, s: f64) -> f64 {
    let z = a / s;
    if z > -3.0 {
        return a * phi(z) + s * npdf(z);
    }
    let x = -z;
    let mut t = x;
    for k in (2..=80).rev() {
        t = x + k as f64 / t;
    }
    s * npdf(z) / (x * t + 1.0)
}

/// The law of one run on `n + 1` nodes, with the record's drift scaled by `scale`.
pub fn propagate(walk: &ClampedWalk, n: usize, scale: f64) -> Vec<f64> {
    let h = (walk.hi - walk.lo) / n as f64;
    let mut mass = vec![0.0f64; n + 1];
    let x = ((walk.start - walk.lo) / h).clamp(0.0, n as f64);
    let i0 = (x.floor() as usize).min(n);
    let lam = x - i0 as f64;
    mass[i0] += 1.0 - lam;
    if lam > 0.0 {
        mass[(i0 + 1).min(n)] += lam;
    }
    let mut next = vec![0.0f64; n + 1];
    let mut fbuf: Vec<f64> = Vec::new();
    for st in &walk.steps {
        next.iter_mut().for_each(|v| *v = 0.0);
        let s = st.noise_sd;
        let opts = [(0.0, 1.0 - st.p), (scale * st.drift, st.p)];
        for (i, &w) in mass.iter().enumerate() {
            if w < 1e-300 {
                continue;
            }
            let xi = walk.lo + i as f64 * h;
            for &(b, pr) in &opts {
                if pr <= 0.0 {
                    continue;
                }
                let u = walk.center + st.contraction * (xi - walk.center) + b;
                let ww = w * pr;
                let w0 = (f2(walk.lo + h - u, s) - f2(walk.lo - u, s)) / h;
                let wn = (f2(u - walk.hi + h, s) - f2(u - walk.hi, s)) / h;
                next[0] += ww * w0.max(0.0);
                next[n] += ww * wn.max(0.0);
                let rad = 12.0 * s;
                let jl = (((u - rad - walk.lo) / h).floor() as i64).max(1);
                let jr = (((u + rad - walk.lo) / h).ceil() as i64).min(n as i64 - 1);
                if jl > jr {
                    continue;
                }
                fbuf.clear();
                for j in (jl - 1)..=(jr + 1) {
                    fbuf.push(f2(u - (walk.lo + j as f64 * h), s));
                }
                for j in jl..=jr {
                    let k = (j - jl + 1) as usize;
                    let wj = (fbuf[k - 1] - 2.0 * fbuf[k] + fbuf[k + 1]) / h;
                    next[j as usize] += ww * wj.max(0.0);
                }
            }
        }
        let tot: f64 = next.iter().sum();
        next.iter_mut().for_each(|v| *v /= tot);
        std::mem::swap(&mut mass, &mut next);
    }
    mass
}

#[derive(Debug, Clone)]
struct Laws {
    p: Vec<f64>,
    q: Vec<f64>,
}

impl Laws {
    fn new(walk: &ClampedWalk, kind: PairKind, n: usize) -> Self {
        let (sp, sq) = match kind {
            PairKind::OneSided => (0.0, 1.0),
            PairKind::Opposite => (-0.5, 0.5),
        };
        Laws {
            p: propagate(walk, n, sp),
            q: propagate(walk, n, sq),
        }
    }

    fn pair(&self, order: Order) -> (&[f64], &[f64]) {
        match order {
            Order::Forward => (&self.p, &self.q),
            Order::Reverse => (&self.q, &self.p),
        }
    }

    fn delta(&self, eps: f64, order: Order) -> f64 {
        let (a, b) = self.pair(order);
        let e = eps.exp();
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - e * y).max(0.0))
            .sum::<f64>()
            .clamp(0.0, 1.0)
    }

    /// Neyman–Pearson: reject `A` where `b/a` is largest.
    fn tradeoff(&self, alpha: f64, order: Order) -> f64 {
        let (a, b) = self.pair(order);
        let mut idx: Vec<usize> = (0..a.len()).collect();
        idx.sort_by(|&i, &j| (b[j] * a[i]).total_cmp(&(b[i] * a[j])));
        let (mut al, mut pw) = (0.0, 0.0);
        for &i in &idx {
            if al + a[i] >= alpha {
                let frac = if a[i] > 0.0 { (alpha - al) / a[i] } else { 1.0 };
                pw += frac * b[i];
                return (1.0 - pw).clamp(0.0, 1.0 - alpha);
            }
            al += a[i];
            pw += b[i];
        }
        (1.0 - pw).clamp(0.0, (1.0 - alpha).max(0.0))
    }

    fn renyi(&self, lambda: f64, order: Order) -> f64 {
        let (a, b) = self.pair(order);
        let mut s = 0.0;
        for (&x, &y) in a.iter().zip(b) {
            if x <= 0.0 {
                continue;
            }
            if y <= 0.0 {
                return f64::INFINITY;
            }
            s += (lambda * x.ln() + (1.0 - lambda) * y.ln()).exp();
        }
        (s.ln() / (lambda - 1.0)).max(0.0)
    }
}

/// A clamped-walk pair at two grid resolutions (value extrapolated, error estimated).
///
/// # Example
/// ```
/// use shiftdp::check::walk::WalkInstance;
/// use shiftdp::exact::clamped::ClampedWalk;
/// use shiftdp::exact::{Instance, Order, PairKind};
/// // drift far larger than the interval: both runs pile on opposite ends
/// let w = ClampedWalk::altschuler_talwar(1.0, 1, 1, 3, 1.0, 0.2, 3.0).unwrap();
/// let inst = WalkInstance::new(&w, PairKind::Opposite, 64).unwrap();
/// let tv = inst.delta(0.0, Order::Forward).unwrap().value;
/// assert!(tv > 0.99 && tv <= 1.0);
/// ```
#[derive(Debug, Clone)]
pub struct WalkInstance {
    coarse: Laws,
    fine: Laws,
    kind: PairKind,
    nodes: usize,
}

impl WalkInstance {
    /// Propagates the pair of `kind` on `nodes` and `2·nodes` grid intervals.
    ///
    /// # Errors
    /// [`Error::Parameter`] for an invalid walk or `nodes ∉ [8, 10⁶]`.
    pub fn new(walk: &ClampedWalk, kind: PairKind, nodes: usize) -> Result<Self> {
        walk.validate()?;
        if !(8..=1_000_000).contains(&nodes) {
            return Err(Error::param("nodes", nodes, "must be in [8, 10⁶]"));
        }
        Ok(WalkInstance {
            coarse: Laws::new(walk, kind, nodes),
            fine: Laws::new(walk, kind, 2 * nodes),
            kind,
            nodes,
        })
    }

    /// The finer node masses `(P, Q)` on `2·nodes + 1` nodes.
    pub fn masses(&self) -> (&[f64], &[f64]) {
        (&self.fine.p, &self.fine.q)
    }

    fn combine(c: f64, f: f64) -> Estimate {
        if c.is_infinite() || f.is_infinite() {
            return Estimate {
                value: f,
                error: 0.0,
                certified: false,
            };
        }
        Estimate {
            value: (4.0 * f - c) / 3.0,
            error: (f - c).abs() + 1e-12,
            certified: false,
        }
    }
}

impl Instance for WalkInstance {
    fn delta(&self, eps: f64, order: Order) -> Result<Estimate> {
        if !eps.is_finite() {
            return Err(Error::param("epsilon", eps, "must be finite"));
        }
        let mut e = Self::combine(self.coarse.delta(eps, order), self.fine.delta(eps, order));
        e.value = e.value.clamp(0.0, 1.0);
        Ok(e)
    }
    fn tradeoff(&self, alpha: f64, order: Order) -> Result<Estimate> {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(Error::param("alpha", alpha, "must be in [0, 1]"));
        }
        let mut e = Self::combine(
            self.coarse.tradeoff(alpha, order),
            self.fine.tradeoff(alpha, order),
        );
        e.value = e.value.clamp(0.0, 1.0 - alpha);
        Ok(e)
    }
    fn renyi(&self, lambda: f64, order: Order) -> Result<Estimate> {
        if !(lambda.is_finite() && lambda > 1.0) {
            return Err(Error::param("order", lambda, "must be finite and > 1"));
        }
        let mut e = Self::combine(
            self.coarse.renyi(lambda, order),
            self.fine.renyi(lambda, order),
        );
        e.value = e.value.max(0.0);
        Ok(e)
    }
    fn describe(&self) -> String {
        format!(
            "clamped walk, corrected boundary split ({:?}, {} and {} grid intervals)",
            self.kind,
            self.nodes,
            2 * self.nodes
        )
    }
}
