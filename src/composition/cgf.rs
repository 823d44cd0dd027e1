//! The cumulant generating function of a discretized single step, as the planner's
//! window search evaluates it at a hundred tilts: `K(λ) = ln Σ_j m_j e^{λ t_j}` over the
//! positive masses, summed over the terms within `e^{−40}` of the largest (the others
//! change the f64 sum by less than its rounding).
//!
//! # Formula
//! The largest term `max_j (ln m_j + λ t_j)` is attained at a vertex of the upper concave
//! hull `H` of the points `(t_j, ln m_j)`, and `H(t) + λt` is concave in `t`, so every
//! term within 40 of the largest lies between the two hull vertices on either side of
//! the maximizing one where `H + λt` has fallen more than 41 below it (one unit of
//! margin for the rounding of the hull's orientation tests). Only those terms are
//! visited, in their order, with the same operations as a scan of all terms: the value
//! is the scan's, bit for bit (test `hull_range_gives_the_full_scan`), at a fraction of
//! its cost when the masses spread over a window much wider than their bulk.
//!
//! A search quantity, not a bound: the planner chooses windows and tilts with it.

/// A single step's terms `(ln m_j, t_j)` (increasing `t`) and their upper hull.
pub(crate) struct Cgf {
    terms: Vec<(f64, f64)>,
    /// Indices into `terms` of the upper concave hull's vertices, increasing.
    hull: Vec<usize>,
}

impl Cgf {
    /// From the terms `(ln m_j, t_j)` with `t` increasing.
    pub(crate) fn new(terms: Vec<(f64, f64)>) -> Cgf {
        // Andrew's monotone chain, upper half: drop the middle of any non-right turn
        let mut hull: Vec<usize> = Vec::new();
        for (i, &(l, t)) in terms.iter().enumerate() {
            while let [.., a, b] = hull[..] {
                let (la, ta) = terms[a];
                let (lb, tb) = terms[b];
                // b lies on or below the chord a → i
                if (lb - la) * (t - ta) <= (l - la) * (tb - ta) {
                    hull.pop();
                } else {
                    break;
                }
            }
            hull.push(i);
        }
        Cgf { terms, hull }
    }

    /// `K(λ) = mx + ln Σ_{x_j > −40} e^{x_j}`, `x_j = ln m_j + λ t_j − mx`, `mx` the largest
    /// term; `−∞` without terms.
    pub(crate) fn at(&self, lam: f64) -> f64 {
        match self.range(lam) {
            Some(range) => log_sum(&self.terms[range], lam),
            None => f64::NEG_INFINITY,
        }
    }

    /// The terms that can lie within 40 of the largest at tilt `lam` (see the module
    /// doc); `None` without terms.
    fn range(&self, lam: f64) -> Option<std::ops::RangeInclusive<usize>> {
        let value = |v: usize| {
            let (l, t) = self.terms[self.hull[v]];
            l + lam * t
        };
        let last = self.hull.len().checked_sub(1)?;
        // the first index in [a, b) where `rising` turns false (`b` if never), for a
        // predicate that is true then false along the hull (H + λt is concave)
        let first_false = |mut a: usize, mut b: usize, rising: &dyn Fn(usize) -> bool| {
            while a < b {
                let mid = a + (b - a) / 2;
                if rising(mid) {
                    a = mid + 1;
                } else {
                    b = mid;
                }
            }
            a
        };
        // the maximizing vertex: the first whose next edge does not rise
        let top = first_false(0, last, &|v| value(v + 1) > value(v));
        let thr = value(top) - 41.0;
        // the last vertex below the threshold on the left (or the first vertex), the
        // first on the right (or the last vertex)
        let lo = first_false(0, top, &|v| value(v) < thr).saturating_sub(1);
        let hi = first_false(top, last + 1, &|v| value(v) >= thr).min(last);
        Some(self.hull[lo]..=self.hull[hi])
    }
}

/// `mx + ln Σ_{x_j > −40} e^{x_j}` over `terms` `(l_j, t_j)`, `x_j = l_j + λt_j − mx`, `mx`
/// the largest `l_j + λt_j`; `−∞` without terms.
fn log_sum(terms: &[(f64, f64)], lam: f64) -> f64 {
    let mx = terms
        .iter()
        .map(|&(l, t)| l + lam * t)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut s = 0.0;
    for &(l, t) in terms {
        let x = l + lam * t - mx;
        if x > -40.0 {
            s += x.exp();
        }
    }
    mx + s.ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The hull's range gives the full scan's value bit for bit, for log-masses of
        /// any shape (two bumps, a flat part, spikes) and tilts from 1e-5 to 1e4.
        #[test]
        fn hull_range_gives_the_full_scan(
            n in 1usize..400,
            h in 1e-3f64..1.0,
            lo in -200i64..0,
            bumps in prop::collection::vec((-50.0f64..50.0, 0.05f64..20.0, -30.0f64..0.0), 1..4),
            spikes in prop::collection::vec((0usize..400, -5.0f64..5.0), 0..5),
            lam_exp in -5.0f64..4.0,
        ) {
            let mut terms: Vec<(f64, f64)> = (0..n)
                .map(|j| {
                    let t = (lo + j as i64) as f64 * h;
                    let l = bumps
                        .iter()
                        .map(|&(c, w, a)| a - (t - c) * (t - c) / (2.0 * w * w))
                        .fold(f64::NEG_INFINITY, f64::max);
                    (l, t)
                })
                .collect();
            for &(j, d) in &spikes {
                if j < n {
                    terms[j].0 += d;
                }
            }
            let lam = 10f64.powf(lam_exp);
            let c = Cgf::new(terms.clone());
            prop_assert_eq!(c.at(lam).to_bits(), log_sum(&terms, lam).to_bits());
        }
    }

    #[test]
    fn no_terms_give_minus_infinity() {
        assert_eq!(
            Cgf::new(vec![]).at(1.0).to_bits(),
            f64::NEG_INFINITY.to_bits()
        );
        let one = Cgf::new(vec![(-3.0, 2.0)]);
        assert_eq!(one.at(0.5).to_bits(), (-3.0f64 + 1.0).to_bits());
    }
}
