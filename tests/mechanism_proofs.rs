//! Evidence for proofs/mechanisms/: each mechanism's atoms and certified tails against
//! the closed forms of its proof file evaluated in MPFR (rug) from the exact parameters,
//! the inverse order against the mirrored truth, one-step δ(ε) of the subsampled
//! Laplace mechanism against its closed form on several grids, and the pure-DP bound.
use proptest::prelude::*;
use rug::Float;
use shiftdp::composition::mechanism::{
    Atom, DiscreteLaplace, Inverse, Laplace, Mechanism, MixtureOfGaussians, PoissonSampled,
    RandomizedResponse, Tails,
};
use shiftdp::composition::pld::Mass;
use shiftdp::composition::{Component, Composition, Target};
use std::sync::Arc;

mod common;
use common::{assert_encloses, composed};

/// MPFR working precision of the reference values.
const P: u32 = 256;

fn f(x: f64) -> Float {
    Float::with_val(P, x)
}

fn fu(x: u64) -> Float {
    Float::with_val(P, x)
}

/// The four continuous tails `[Q{L ≤ ℓ}, Q{L > ℓ}, P{L ≤ ℓ}, P{L > ℓ}]`, each as a
/// bracket `(lower, upper)` of the truth (equal ends when computed directly).
type Truth = [(Float, Float); 4];

fn exact(v: [Float; 4]) -> Truth {
    v.map(|x| (x.clone(), x))
}

fn masses(t: &Tails) -> [Mass; 4] {
    [t.q_le, t.q_gt, t.p_le, t.p_gt]
}

const NAMES: [&str; 4] = ["Q{L ≤ ℓ}", "Q{L > ℓ}", "P{L ≤ ℓ}", "P{L > ℓ}"];

/// Each enclosure contains its truth bracket; returns the largest relative width over
/// the values above `floor`.
fn check_tails(what: &str, l: f64, t: &Tails, truth: &Truth, floor: f64) -> f64 {
    let mut worst = 0.0f64;
    for ((m, (lo, hi)), name) in masses(t).iter().zip(truth).zip(NAMES) {
        assert!(
            *lo >= m.lo && *hi <= m.hi,
            "{what} at ℓ = {l:e}: {name} = [{}, {}] misses the truth [{}, {}]",
            m.lo,
            m.hi,
            lo.to_f64(),
            hi.to_f64()
        );
        let v = lo.to_f64();
        if v > floor {
            worst = worst.max((m.hi - m.lo) / v);
        }
    }
    worst
}

/// The atom's enclosures contain the Q-mass `q`, the P-mass `p` and the loss `l`
/// (`ln(q/p)`, given exactly when it is an exact f64 such as `a(2x − Δ)`).
fn atom_encloses(what: &str, a: &Atom, q: &Float, p: &Float, l: &Float) {
    assert!(
        *q >= a.q.lo && *q <= a.q.hi,
        "{what}: Q-mass [{}, {}] misses {}",
        a.q.lo,
        a.q.hi,
        q.to_f64()
    );
    assert!(
        *p >= a.p.lo && *p <= a.p.hi,
        "{what}: P-mass [{}, {}] misses {}",
        a.p.lo,
        a.p.hi,
        p.to_f64()
    );
    assert!(
        *l >= a.loss.0 && *l <= a.loss.1,
        "{what}: loss [{}, {}] misses {}",
        a.loss.0,
        a.loss.1,
        l.to_f64()
    );
}

// ---------------------------------------------------------------- Laplace

/// The continuous tails of `Lap(0, b)` against `Lap(Δ, b)` at a loss `ℓ`, from the exact
/// `r = Δ/b` (proofs/mechanisms/laplace.md).
fn laplace_truth(b: f64, d: f64, l: &Float) -> [Float; 4] {
    let r = f(d) / f(b);
    let a = Float::with_val(P, l + &r) / 2u32;
    let a = a.clamp(&fu(0), &r);
    let er = Float::with_val(P, -&r).exp();
    let ea_m1 = a.clone().exp_m1();
    let e_am_r = Float::with_val(P, &a - &r).exp();
    let one_m = Float::with_val(P, 1u32 - &e_am_r);
    let e_ma = Float::with_val(P, -&a).exp();
    [
        Float::with_val(P, &er * &ea_m1) / 2u32,
        Float::with_val(P, &one_m) / 2u32,
        Float::with_val(P, 1u32 - &e_ma) / 2u32,
        Float::with_val(P, &e_ma * &one_m) / 2u32,
    ]
}

/// The Laplace pairs of the tests: exact and inexact `r = Δ/b`.
const LAPLACE: [(f64, f64); 6] = [
    (1.0, 1.0),
    (0.5, 1.0),
    (1.0, 1.3),
    (0.3, 1.0),
    (7.0, 0.01),
    (0.02, 3.0),
];

/// Losses across `(−r, r)`: a uniform sweep and points near both ends.
fn laplace_losses(r: f64) -> Vec<f64> {
    let mut v: Vec<f64> = (0..=200).map(|i| -r + 2.0 * r * i as f64 / 200.0).collect();
    for t in [1e-300, 1e-200, 1e-100, 1e-30, 1e-12, 1e-6, 1e-3] {
        v.push(-r + t * r);
        v.push(r - t * r);
    }
    v.push(0.0);
    v
}

#[test]
fn laplace_tails_enclose_the_mpfr_closed_forms() {
    for (b, d) in LAPLACE {
        let m = Laplace::new(b, d).unwrap();
        let r = d / b;
        let r_exact = f(d) / f(b) == r;
        for l in laplace_losses(r) {
            let t = m.tails(l);
            let truth = exact(laplace_truth(b, d, &f(l)));
            let w = check_tails(&format!("Laplace(b={b}, Δ={d})"), l, &t, &truth, 1e-300);
            // tight wherever the tails' arguments are relatively accurate: always when
            // r is exact in f64, away from the support's ends otherwise (the rounding of
            // r is an absolute error of a = (ℓ + r)/2 and of a − r)
            let inner = (l.abs() - r).abs() >= 1e-3 * r;
            if r_exact || inner {
                assert!(
                    w < 1e-12,
                    "Laplace(b={b}, Δ={d}) at ℓ = {l:e}: relative width {w:e}"
                );
            }
        }
        // outside the support: everything on one side
        for l in [-2.0 * r - 1.0, 2.0 * r + 1.0] {
            let truth = exact(laplace_truth(b, d, &f(l)));
            check_tails("Laplace outside", l, &m.tails(l), &truth, 1e-300);
        }
    }
}

#[test]
fn laplace_atoms_and_masses_sum_to_one() {
    for (b, d) in LAPLACE {
        let m = Laplace::new(b, d).unwrap();
        let r = f(d) / f(b);
        let half = f(0.5);
        let small = Float::with_val(P, -&r).exp() / 2u32;
        let atoms = m.atoms();
        assert_eq!(atoms.len(), 2);
        let (down, up) = if atoms[0].loss.1 < 0.0 {
            (atoms[0], atoms[1])
        } else {
            (atoms[1], atoms[0])
        };
        atom_encloses("Laplace atom r", &up, &half, &small, &r);
        atom_encloses(
            "Laplace atom −r",
            &down,
            &small,
            &half,
            &Float::with_val(P, -&r),
        );
        // the continuous part's total plus the atoms is 1, for both measures
        let t = m.tails(f64::NEG_INFINITY);
        for (cont, a1, a2) in [(t.q_gt, up.q, down.q), (t.p_gt, up.p, down.p)] {
            assert!(cont.lo + a1.lo + a2.lo <= 1.0 && cont.hi + a1.hi + a2.hi >= 1.0);
        }
    }
}

/// The pair is symmetric: `Q{L ≤ ℓ} = P{L ≥ −ℓ}`, so the tails at `ℓ` and `−ℓ` mirror.
#[test]
fn laplace_tails_are_symmetric() {
    for (b, d) in LAPLACE {
        let m = Laplace::new(b, d).unwrap();
        let r = d / b;
        for l in laplace_losses(r) {
            let (t, s) = (m.tails(l), m.tails(-l));
            for (x, y) in [(t.q_le, s.p_gt), (t.q_gt, s.p_le), (t.p_le, s.q_gt)] {
                assert!(
                    x.lo <= y.hi && y.lo <= x.hi,
                    "Laplace(b={b}, Δ={d}) at ±{l:e}: {x:?} and {y:?} are disjoint"
                );
            }
        }
    }
}

// ---------------------------------------------------------------- discrete

#[test]
fn discrete_laplace_atoms_enclose_the_mpfr_masses() {
    for (a, d) in [(0.8, 3u64), (0.01, 5), (2.5, 1), (1.0, 40), (30.0, 2)] {
        let m = DiscreteLaplace::new(a, d).unwrap();
        let fa = f(a);
        let ea = Float::with_val(P, -&fa).exp();
        let c = Float::with_val(P, 1u32 - &ea) / Float::with_val(P, 1u32 + &ea);
        // Pr[x] of DLap(centre, a) on the integers
        let mass = |x: i64, centre: i64| -> Float {
            let k = (x - centre).unsigned_abs();
            Float::with_val(P, &c * Float::with_val(P, -(fa.clone() * fu(k))).exp())
        };
        // the end atoms: the geometric sums over x ≤ 0 and x ≥ Δ
        let geo = Float::with_val(P, 1u32 - &ea);
        let end_q = Float::with_val(P, mass(0, d as i64) / &geo);
        let end_p = Float::with_val(P, mass(0, 0) / &geo);
        let atoms = m.atoms();
        assert_eq!(atoms.len() as u64, d + 1);
        let mut by_loss = atoms.clone();
        by_loss.sort_by(|x, y| x.loss.0.total_cmp(&y.loss.0));
        // losses a·(2x − Δ), exact in MPFR
        let loss = |x: i64| Float::with_val(P, &fa * Float::with_val(P, 2 * x - d as i64));
        atom_encloses("DLap x ≤ 0", &by_loss[0], &end_q, &end_p, &loss(0));
        atom_encloses(
            "DLap x ≥ Δ",
            &by_loss[d as usize],
            &end_p,
            &end_q,
            &loss(d as i64),
        );
        for x in 1..d as i64 {
            let (q, pm) = (mass(x, d as i64), mass(x, 0));
            // the loss is ln(q/p) of the masses
            let lq = Float::with_val(P, &q / &pm).ln();
            assert!((lq - loss(x)).abs() < 1e-60);
            atom_encloses(
                &format!("DLap(a={a}, Δ={d}) x = {x}"),
                &by_loss[x as usize],
                &q,
                &pm,
                &loss(x),
            );
        }
        sums_enclose_one(&format!("DLap(a={a}, Δ={d})"), &atoms);
        assert!(m.loss_sup().unwrap() >= a * d as f64);
    }
}

fn sums_enclose_one(what: &str, atoms: &[Atom]) {
    let (ql, qh, pl, ph) = atoms.iter().fold((0.0, 0.0, 0.0, 0.0), |s, a| {
        (s.0 + a.q.lo, s.1 + a.q.hi, s.2 + a.p.lo, s.3 + a.p.hi)
    });
    // the f64 sums of ≤ 2²⁰ terms: a relative margin far above their rounding
    let e = 1e-12;
    assert!(
        ql <= 1.0 + e && qh >= 1.0 - e,
        "{what}: Q-masses sum to [{ql}, {qh}]"
    );
    assert!(
        pl <= 1.0 + e && ph >= 1.0 - e,
        "{what}: P-masses sum to [{pl}, {ph}]"
    );
    for a in atoms {
        assert!(
            a.q.hi - a.q.lo <= 1e-15 * a.q.hi.max(1e-300),
            "{what}: {a:?}"
        );
        assert!(
            a.p.hi - a.p.lo <= 1e-15 * a.p.hi.max(1e-300),
            "{what}: {a:?}"
        );
    }
}

#[test]
fn randomized_response_atoms_enclose_the_mpfr_masses() {
    for (p, k) in [(0.5, 2u64), (0.2, 5), (1.0, 3), (1e-9, 2), (0.999, 1000)] {
        let m = RandomizedResponse::new(p, k).unwrap();
        // REPLACE_ONE: Pr[R(x) = x] = 1 − p + p/k, Pr[R(x) = y] = p/k for y ≠ x
        let u = f(p) / fu(k);
        let s = Float::with_val(P, 1u32 - f(p)) + &u;
        let atoms = m.atoms();
        let find = |sign: f64| {
            *atoms
                .iter()
                .find(|a| {
                    if sign == 0.0 {
                        a.loss == (0.0, 0.0)
                    } else {
                        a.loss.0 * sign > 0.0
                    }
                })
                .unwrap()
        };
        if p < 1.0 {
            let l = Float::with_val(P, &s / &u).ln();
            atom_encloses("RR output 1", &find(1.0), &s, &u, &l);
            atom_encloses("RR output 0", &find(-1.0), &u, &s, &Float::with_val(P, -&l));
        }
        if k > 2 {
            let o = Float::with_val(P, &u * fu(k - 2));
            atom_encloses("RR other outputs", &find(0.0), &o, &o, &fu(0));
        }
        sums_enclose_one(&format!("RR(p={p}, k={k})"), &atoms);
        assert_eq!(m.q_at_plus_infinity(), Mass::ZERO);
    }
    // p = 0: no noise, every Q-mass at +∞ and every P-mass at −∞
    let m = RandomizedResponse::new(0.0, 4).unwrap();
    assert!(m.atoms().is_empty());
    assert_eq!(m.q_at_plus_infinity(), Mass { lo: 1.0, hi: 1.0 });
    assert_eq!(m.p_at_minus_infinity(), Mass { lo: 1.0, hi: 1.0 });
    assert_eq!(m.loss_sup(), None);
}

// ---------------------------------------------------------------- mixtures

/// `(μᵢ, wᵢ)` of a mixture in MPFR: `μᵢ = cᵢ/σ`, `wᵢ = pᵢ/Σpⱼ`.
fn mog_terms(sigma: f64, c: &[f64], p: &[f64]) -> Vec<(Float, Float)> {
    let sum = p.iter().fold(fu(0), |s, x| s + f(*x));
    c.iter()
        .zip(p)
        .filter(|(_, p)| **p > 0.0)
        .map(|(c, p)| (f(*c) / f(sigma), f(*p) / &sum))
        .collect()
}

fn mog_loss(terms: &[(Float, Float)], z: &Float) -> Float {
    let mut s = fu(0);
    for (mu, w) in terms {
        let e = Float::with_val(P, mu * z) - Float::with_val(P, mu * mu) / 2u32;
        s += Float::with_val(P, w * e.exp());
    }
    s.ln()
}

/// `Φ(x)` in MPFR.
fn phi(x: &Float) -> Float {
    let s = Float::with_val(P, -x) / Float::with_val(P, 2u32).sqrt();
    s.erfc() / 2u32
}

/// A bracket `[z_lo, z_hi]` of `z(ℓ)` by bisection in MPFR (`None`: `ℓ ≤ ln p₀`, so
/// `z(ℓ) = −∞`).
fn mog_z(terms: &[(Float, Float)], l: f64) -> Option<(Float, Float)> {
    let p0 = terms
        .iter()
        .filter(|(mu, _)| mu.is_zero())
        .fold(fu(0), |s, (_, w)| s + w);
    if !p0.is_zero() && p0.ln() >= l {
        return None;
    }
    let (mut lo, mut hi) = (f(-1.0), f(1.0));
    while mog_loss(terms, &lo) >= l {
        lo *= 2u32;
    }
    while mog_loss(terms, &hi) < l {
        hi *= 2u32;
    }
    for _ in 0..300 {
        let mid = Float::with_val(P, &lo + &hi) / 2u32;
        if mog_loss(terms, &mid) < l {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo, hi))
}

/// `[Q{L ≤ ℓ}, Q{L > ℓ}, P{L ≤ ℓ}, P{L > ℓ}]` at `z`, with `z = −∞` for `None`.
fn mog_tails_at(terms: &[(Float, Float)], z: Option<&Float>) -> [Float; 4] {
    let Some(z) = z else {
        return [fu(0), fu(1), fu(0), fu(1)];
    };
    let (mut le, mut gt) = (fu(0), fu(0));
    for (mu, w) in terms {
        let v = Float::with_val(P, z - mu);
        le += Float::with_val(P, w * phi(&v));
        gt += Float::with_val(P, w * phi(&Float::with_val(P, -&v)));
    }
    [le, gt, phi(z), phi(&Float::with_val(P, -z))]
}

/// The truth bracket: `≤`-tails increase with z, `>`-tails decrease.
fn mog_truth(terms: &[(Float, Float)], l: f64) -> Truth {
    match mog_z(terms, l) {
        None => exact(mog_tails_at(terms, None)),
        Some((zl, zh)) => {
            let a = mog_tails_at(terms, Some(&zl));
            let b = mog_tails_at(terms, Some(&zh));
            [
                (a[0].clone(), b[0].clone()),
                (b[1].clone(), a[1].clone()),
                (a[2].clone(), b[2].clone()),
                (b[3].clone(), a[3].clone()),
            ]
        }
    }
}

type MogCase = (f64, &'static [f64], &'static [f64]);

const MOG: [MogCase; 9] = [
    // weights summing to 1 only within the accepted 1e-9: the loss and the tails both
    // read the normalized weights
    (1.0, &[0.0, 1.0], &[0.3, 0.7 + 9e-10]),
    (1.0, &[0.0, 1.0], &[0.3, 0.7 - 9e-10]),
    (1.0, &[0.5, 2.0], &[0.3, 0.7 + 9e-10]),
    (1.0, &[0.0, 1.0, 2.0], &[0.2, 0.6, 0.2]),
    (2.0, &[0.0, 2.0, 3.0], &[0.33, 0.34, 0.33]),
    (0.5, &[1.0], &[1.0]),
    (1.0, &[0.0, 1.0], &[0.99, 0.01]),
    (3.0, &[0.5, 4.0, 10.0], &[0.1, 0.3, 0.6]),
    (0.7, &[0.0, 0.3], &[0.5, 0.5]),
];

/// Losses across the support, and near its lower end `ln p₀` (the second list).
fn mog_losses(terms: &[(Float, Float)]) -> Vec<f64> {
    let (mut v, near) = mog_loss_lists(terms);
    v.extend(near);
    v
}

fn mog_loss_lists(terms: &[(Float, Float)]) -> (Vec<f64>, Vec<f64>) {
    let mut near = vec![];
    let v = vec![
        -40.0, -20.0, -5.0, -2.0, -1.0, -0.5, -0.1, -1e-3, 0.0, 1e-3, 0.1, 0.5, 1.0, 2.0, 5.0,
        10.0, 20.0, 50.0, 200.0,
    ];
    let p0 = terms
        .iter()
        .filter(|(mu, _)| mu.is_zero())
        .fold(fu(0), |s, (_, w)| s + w);
    if !p0.is_zero() {
        let lp0 = p0.ln().to_f64();
        for t in [-1e-3, 0.0, 1e-12, 1e-9, 1e-6, 1e-3] {
            near.push(lp0 + t);
        }
    }
    (v, near)
}

#[test]
fn mixture_tails_enclose_an_mpfr_inversion() {
    for (sigma, c, p) in MOG {
        let m = MixtureOfGaussians::new(sigma, c.to_vec(), p.to_vec()).unwrap();
        let terms = mog_terms(sigma, c, p);
        let (inner, near) = mog_loss_lists(&terms);
        let what = format!("MoG(σ={sigma}, {c:?}, {p:?})");
        for l in inner {
            let truth = mog_truth(&terms, l);
            let w = check_tails(&what, l, &m.tails(l), &truth, 1e-250);
            // the z-enclosure and Φ's error model keep the tails relatively tight away
            // from ln p₀, where L is flat and z(ℓ) ill-conditioned
            assert!(w < 1e-6, "{what} at ℓ = {l}: relative width {w:e}");
        }
        for l in near {
            check_tails(&what, l, &m.tails(l), &mog_truth(&terms, l), 1e-250);
        }
        assert!(m.atoms().is_empty());
        // G(μ_max) dominates: μ_max = max cᵢ/σ, rounded up
        let mu_max = c.iter().fold(0.0f64, |a, x| a.max(*x)) / sigma;
        assert!(m.gaussian_dominating_mu().unwrap() >= mu_max);
    }
}

// ---------------------------------------------------------------- inverse

/// The inverse order's tails from the remove order's truth at `−ℓ`:
/// `Q'{L' ≤ ℓ} = P{L > −ℓ}`, `Q'{L' > ℓ} = P{L ≤ −ℓ}`, and alike for P'.
fn mirrored(t: Truth) -> Truth {
    let [q_le, q_gt, p_le, p_gt] = t;
    [p_gt, p_le, q_gt, q_le]
}

#[test]
fn inverse_tails_are_the_mirrored_truth() {
    for (sigma, c, p) in MOG {
        let base = MixtureOfGaussians::new(sigma, c.to_vec(), p.to_vec()).unwrap();
        let inv = Inverse(Arc::new(base.clone()));
        let via = base.inverse();
        let terms = mog_terms(sigma, c, p);
        for l in mog_losses(&terms) {
            let truth = mirrored(mog_truth(&terms, l));
            check_tails("Inverse(MoG)", -l, &inv.tails(-l), &truth, 1e-250);
            check_tails("MoG.inverse()", -l, &via.tails(-l), &truth, 1e-250);
            // the identities of the combinator, on the enclosures themselves
            let (t, s) = (inv.tails(-l), base.tails(l));
            assert_eq!(
                [t.q_le, t.q_gt, t.p_le, t.p_gt],
                [s.p_gt, s.p_le, s.q_gt, s.q_le]
            );
        }
        assert_eq!(inv.q_at_plus_infinity(), base.p_at_minus_infinity());
    }
    // atoms: (ℓ, q, p) becomes (−ℓ, p, q)
    let rr = RandomizedResponse::new(0.3, 4).unwrap();
    let inv = Inverse(Arc::new(rr.clone()));
    for (a, b) in rr.atoms().iter().zip(inv.atoms()) {
        assert_eq!((b.loss, b.q, b.p), ((-a.loss.1, -a.loss.0), a.p, a.q));
    }
    let rr0 = Inverse(Arc::new(RandomizedResponse::new(0.0, 2).unwrap()));
    assert_eq!(rr0.q_at_plus_infinity(), Mass { lo: 1.0, hi: 1.0 });
}

// ---------------------------------------------------------------- subsampling

/// `φ⁻¹(ℓ) = ln(1 + (e^ℓ − 1)/p)` in MPFR, `None` (−∞) for `ℓ ≤ ln(1 − p)`.
fn phi_inv(p: f64, l: f64) -> Option<Float> {
    let y = Float::with_val(P, f(l).exp_m1() / f(p));
    (y > -1).then(|| y.ln_1p())
}

/// `φ(ℓ) = ln(1 − p + p e^ℓ)` in MPFR.
fn phi_of(p: f64, l: &Float) -> Float {
    let v = Float::with_val(P, f(p) * Float::with_val(P, l.exp_m1_ref()));
    v.ln_1p()
}

/// Continuous tails of `PoissonSampled(p, Laplace(b, Δ))` (remove order) at `ℓ`:
/// `Q'{L' ≤ ℓ} = (1 − p)P{L ≤ u} + pQ{L ≤ u}`, `P'{L' ≤ ℓ} = P{L ≤ u}`, `u = φ⁻¹(ℓ)`.
fn sampled_laplace_truth(p: f64, b: f64, d: f64, l: f64) -> [Float; 4] {
    let u = phi_inv(p, l).unwrap_or_else(|| f(-1e300));
    let [q_le, q_gt, p_le, p_gt] = laplace_truth(b, d, &u);
    let mix = |pm: &Float, q: &Float| {
        Float::with_val(P, Float::with_val(P, 1u32 - f(p)) * pm) + Float::with_val(P, f(p) * q)
    };
    [mix(&p_le, &q_le), mix(&p_gt, &q_gt), p_le, p_gt]
}

const SAMPLED: [(f64, f64, f64); 5] = [
    (0.2, 0.5, 1.0),
    (0.05, 1.0, 1.0),
    (0.5, 1.0, 1.3),
    (1e-4, 0.3, 1.0),
    (0.999, 2.0, 1.0),
];

fn sampled_losses(p: f64, b: f64, d: f64) -> Vec<f64> {
    let r = f(d) / f(b);
    let lo = phi_of(p, &Float::with_val(P, -&r)).to_f64();
    let hi = phi_of(p, &r).to_f64();
    let mut v: Vec<f64> = (0..=100)
        .map(|i| lo + (hi - lo) * i as f64 / 100.0)
        .collect();
    v.extend([lo - 1.0, hi + 1.0, (-p).ln_1p(), (-p).ln_1p() - 1e-3]);
    v
}

#[test]
fn poisson_sampled_laplace_tails_enclose_the_mpfr_closed_forms() {
    for (p, b, d) in SAMPLED {
        let base: Arc<dyn Mechanism> = Arc::new(Laplace::new(b, d).unwrap());
        let m = PoissonSampled::new(p, base).unwrap();
        let inv = m.inverse();
        let what = format!("PoissonSampled({p}, Laplace(b={b}, Δ={d}))");
        let (lo, hi) = (
            phi_of(p, &Float::with_val(P, -f(d) / f(b))).to_f64(),
            phi_of(p, &(f(d) / f(b))).to_f64(),
        );
        for l in sampled_losses(p, b, d) {
            let truth = exact(sampled_laplace_truth(p, b, d, l));
            let w = check_tails(&what, l, &m.tails(l), &truth, 1e-250);
            // add order: the mirror at −ℓ
            let inv_what = format!("{what}.inverse()");
            check_tails(&inv_what, -l, &inv.tails(-l), &mirrored(truth), 1e-250);
            // tight away from the support's ends (there the absolute error of φ⁻¹ is
            // large against the distance to the end)
            if (l - lo).min(hi - l) >= 1e-2 * (hi - lo) {
                assert!(w < 1e-9, "{what} at ℓ = {l}: relative width {w:e}");
            }
        }
        // atoms: (ℓ, q, p₀) ↦ (φ(ℓ), (1 − p)p₀ + pq, p₀), for ℓ = ±r
        let r = f(d) / f(b);
        let half = f(0.5);
        let small = Float::with_val(P, -&r).exp() / 2u32;
        let mix = |pm: &Float, q: &Float| {
            Float::with_val(P, Float::with_val(P, 1u32 - f(p)) * pm) + Float::with_val(P, f(p) * q)
        };
        let atoms = m.atoms();
        assert_eq!(atoms.len(), 2);
        for a in &atoms {
            let (q, pm, l) = if a.loss.1 > 0.0 {
                (mix(&small, &half), small.clone(), phi_of(p, &r))
            } else {
                (
                    mix(&half, &small),
                    half.clone(),
                    phi_of(p, &Float::with_val(P, -&r)),
                )
            };
            atom_encloses(&what, a, &q, &pm, &l);
        }
        // the sampled losses are φ(±r)
        let up = atoms.iter().find(|a| a.loss.1 > 0.0).unwrap();
        let phr = phi_of(p, &r);
        assert!(phr >= up.loss.0 && phr <= up.loss.1);
        assert!(m.loss_sup().unwrap() >= phr.to_f64());
        // add order: its losses are −φ(L) < −ln(1 − p)
        assert!(inv.loss_sup().unwrap() >= -(-p).ln_1p());
    }
}

/// Masses at ±∞: the base's `Q{+∞}` scales by p; its `P{−∞}` becomes an atom at
/// `ln(1 − p)` of Q-mass `(1 − p)P{−∞}`.
#[test]
fn poisson_sampling_maps_the_infinite_masses() {
    let p = 0.3;
    let base: Arc<dyn Mechanism> = Arc::new(RandomizedResponse::new(0.0, 2).unwrap());
    let m = PoissonSampled::new(p, base).unwrap();
    let inf = m.q_at_plus_infinity();
    assert!(inf.lo <= p && p <= inf.hi && inf.hi - inf.lo < 1e-15);
    let atoms = m.atoms();
    assert_eq!(atoms.len(), 1);
    let q = Float::with_val(P, 1u32 - f(p));
    let l = Float::with_val(P, q.ln_ref());
    atom_encloses("ln(1 − p) atom", &atoms[0], &q, &fu(1), &l);
    assert_eq!(m.p_at_minus_infinity(), Mass::ZERO);
    let inv = m.inverse();
    assert_eq!(inv.q_at_plus_infinity(), Mass::ZERO);
    assert_eq!(inv.p_at_minus_infinity(), inf);
    // the remove order has mass at +∞: no pure-DP bound
    let c = composed(Component::mechanism(m), 2);
    assert_eq!(c.pure_epsilon(), None);
}

/// `δ(ε)` of one step of the subsampled Laplace mechanism, the larger of both orders,
/// in MPFR. Remove order: the loss increases in x, so `δ = Q'(x > x*) − e^ε P(x > x*)`
/// with `x* = b·a`, `a = (φ⁻¹(ε) + r)/2`; add order: `δ = P(x < x*) − e^ε Q'(x < x*)` with
/// `a = (φ⁻¹(−ε) + r)/2`.
fn sampled_laplace_delta(p: f64, b: f64, d: f64, eps: f64) -> f64 {
    let r = f(d) / f(b);
    let fp = f(p);
    let p1 = Float::with_val(P, 1u32 - &fp);
    let ee = f(eps).exp();
    // P(x > ba) and Q(x > ba) for a ∈ [0, r]
    let p_gt = |a: &Float| Float::with_val(P, -a).exp() / 2u32;
    let q_gt = |a: &Float| Float::with_val(P, 1u32 - Float::with_val(P, a - &r).exp() / 2u32);
    let a_of = |u: Option<Float>| -> Float {
        match u {
            None => fu(0),
            Some(u) => (Float::with_val(P, u + &r) / 2u32).clamp(&fu(0), &r),
        }
    };
    let one_m_ee = Float::with_val(P, 1u32 - &ee);
    let remove = match phi_inv(p, eps) {
        // every loss φ(ℓ) > ε
        Some(u) if u >= -r.clone() => {
            let a = a_of(Some(u));
            if a >= r {
                fu(0)
            } else {
                let q = Float::with_val(P, &p1 * p_gt(&a)) + Float::with_val(P, &fp * q_gt(&a));
                q - Float::with_val(P, &ee * p_gt(&a))
            }
        }
        _ => one_m_ee.clone(),
    };
    let add = match phi_inv(p, -eps) {
        None => fu(0),
        // every loss −φ(ℓ) > ε
        Some(u) if u > r => one_m_ee,
        Some(u) => {
            let a = a_of(Some(u));
            // P(x < ba) = 1 − P(x > ba), Q'(x < ba) = 1 − Q'(x > ba)
            let pl = Float::with_val(P, 1u32 - p_gt(&a));
            let ql = Float::with_val(
                P,
                1u32 - (Float::with_val(P, &p1 * p_gt(&a)) + Float::with_val(P, &fp * q_gt(&a))),
            );
            if a.is_zero() {
                fu(0)
            } else {
                pl - Float::with_val(P, &ee * ql)
            }
        }
    };
    remove.max(&add).to_f64().max(0.0)
}

/// Every grid exponent of `grids` at which `c` answers δ(`eps`) gives an interval that
/// holds `truth` (relative slack 1e−15; `what` names the case): the number answered.
fn grids_enclose(c: &Composition, eps: f64, grids: &[i32], truth: f64, what: &str) -> usize {
    let mut answered = 0;
    for &e in grids {
        if let Ok(a) = c.answer(Target::Epsilon(eps), 1e-3, Some(e)) {
            let what = format!("{what} h = 2^-{e}");
            assert_encloses(a.interval, truth, 1e-15 * truth, &what);
            answered += 1;
        }
    }
    answered
}

#[test]
fn poisson_sampled_laplace_one_step_is_the_closed_form_on_every_grid() {
    for (p, b, d, eps) in [
        (0.2, 0.5, 1.0, 0.0),
        (0.2, 0.5, 1.0, 0.1),
        (0.2, 0.5, 1.0, 0.3),
        (0.2, 0.5, 1.0, 0.6),
        (0.05, 1.0, 1.0, 0.01),
        (0.05, 1.0, 1.0, 0.05),
        (0.5, 1.0, 1.3, 0.2),
        (0.5, 1.0, 1.3, -0.1),
    ] {
        let truth = sampled_laplace_delta(p, b, d, eps);
        let base: Arc<dyn Mechanism> = Arc::new(Laplace::new(b, d).unwrap());
        let m = PoissonSampled::new(p, base).unwrap();
        let c = composed(Component::mechanism(m), 1);
        let what = format!("PoissonSampled({p}, Laplace(b={b}, Δ={d})) δ({eps})");
        let a = c.answer(Target::Epsilon(eps), 1e-3, None).unwrap();
        assert_encloses(a.interval, truth, 1e-15 * truth, &what);
        assert!(
            a.interval.upper - a.interval.lower <= 2e-3 * truth.max(1e-6),
            "{what}: {:?} against {truth}",
            a.interval
        );
        // coarse and fine grids: wider, still enclosing
        let answered = grids_enclose(&c, eps, &[0, 2, 5, 9], truth, &format!("{what} at"));
        assert!(answered >= 2, "{what}: {answered} grids answered");
    }
}

#[test]
fn laplace_and_gaussian_one_step_enclose_the_truth_on_every_grid() {
    // Laplace: 1 − e^{(ε − r)/2} for |ε| < r; G(μ) as a one-term mixture
    for (b, d, eps) in [(1.0, 1.3, 0.4), (0.3, 1.0, 2.0), (1.0, 1.0, -0.5)] {
        let r: f64 = d / b;
        let truth = -((eps - r) / 2.0).exp_m1();
        let c = composed(Component::mechanism(Laplace::new(b, d).unwrap()), 1);
        grids_enclose(
            &c,
            eps,
            &[0, 1, 3, 6, 10],
            truth,
            &format!("Laplace({b}, {d})"),
        );
    }
    let m = MixtureOfGaussians::new(2.0, vec![3.0], vec![1.0]).unwrap();
    let c = composed(Component::mechanism(m), 1);
    for eps in [0.0, 0.5, 2.0] {
        let truth = gdp_delta(1.5, eps);
        grids_enclose(&c, eps, &[1, 3, 6, 10], truth, "MoG = G(1.5)");
    }
}

/// δ(ε) of `G(μ)`: `Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)` (DRS22 Cor 2.13), in MPFR.
fn gdp_delta(mu: f64, eps: f64) -> f64 {
    let (m, e) = (f(mu), f(eps));
    let r = Float::with_val(P, &e / &m);
    let h = Float::with_val(P, &m / 2u32);
    let a = phi(&Float::with_val(P, &h - &r));
    let b = phi(&Float::with_val(P, -Float::with_val(P, &r + &h)));
    (a - Float::with_val(P, e.exp()) * b).to_f64()
}

// ---------------------------------------------------------------- pure DP

#[test]
fn laplace_composition_is_zero_at_its_pure_epsilon() {
    // b = 1 × 3 and b = 2 × 2 at Δ = 1: Σkᵢrᵢ = 3 + 1 = 4
    let c = Composition::new()
        .with(Component::mechanism(Laplace::new(1.0, 1.0).unwrap()), 3)
        .unwrap()
        .with(Component::mechanism(Laplace::new(2.0, 1.0).unwrap()), 2)
        .unwrap();
    let pure = c.pure_epsilon().unwrap();
    assert!((4.0..=4.0 * (1.0 + 1e-15)).contains(&pure), "{pure}");
    let a = c.answer(Target::Epsilon(4.0), 1e-3, None).unwrap();
    assert_eq!((a.interval.lower, a.interval.upper), (0.0, 0.0));
    // just below, the top atom ℓ = 4 has Q-mass 2⁻⁵ and δ > 0: the bound is attained
    let below = c.answer(Target::Epsilon(3.9), 1e-3, None).unwrap();
    let floor = 0.5f64.powi(5) * -(-0.1f64).exp_m1();
    assert!(below.interval.upper >= floor, "{:?}", below.interval);
}

/// One component of a random bounded composition, with the supremum of its loss over
/// both orders computed in MPFR from the parameters.
fn bounded(kind: u8, x: f64, y: f64) -> (Component, f64) {
    match kind {
        0 => {
            let (b, d) = (0.1 + 3.0 * x, 0.1 + 2.0 * y);
            let m = Laplace::new(b, d).unwrap();
            (Component::mechanism(m), (f(d) / f(b)).to_f64())
        }
        1 => {
            let (a, d) = (0.05 + 2.0 * x, 1 + (y * 5.0) as u64);
            let m = DiscreteLaplace::new(a, d).unwrap();
            (Component::mechanism(m), (f(a) * fu(d)).to_f64())
        }
        2 => {
            let (p, k) = (0.01 + 0.99 * x, 2 + (y * 6.0) as u64);
            let u = f(p) / fu(k);
            let s = Float::with_val(P, 1u32 - f(p)) + &u;
            let m = RandomizedResponse::new(p, k).unwrap();
            (Component::mechanism(m), (s / u).ln().to_f64())
        }
        _ => {
            // subsampled Laplace: remove order φ(r), add order −φ(−r)
            let (p, b) = (0.01 + 0.98 * x, 0.2 + 2.0 * y);
            let r = f(1.0) / f(b);
            let up = phi_of(p, &r);
            let down = -phi_of(p, &Float::with_val(P, -&r));
            let base: Arc<dyn Mechanism> = Arc::new(Laplace::new(b, 1.0).unwrap());
            let m = PoissonSampled::new(p, base).unwrap();
            (Component::mechanism(m), up.max(&down).to_f64())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// For random compositions of bounded-loss mechanisms, `pure_epsilon` is at least
    /// `Σkᵢℓ̄ᵢ` with `ℓ̄ᵢ` the true supremum of the losses over both orders, and every
    /// `ε ≥ pure_epsilon` is answered `δ = 0` while every ε(δ) is at most it.
    #[test]
    fn pure_epsilon_bounds_every_bounded_composition(
        parts in proptest::collection::vec((0u8..4, 0.0f64..1.0, 0.0f64..1.0, 1u64..6), 1..4),
        extra in 0.0f64..2.0,
    ) {
        let mut c = Composition::new();
        let mut total = 0.0;
        for (kind, x, y, k) in parts {
            let (m, sup) = bounded(kind, x, y);
            c = c.with(m, k).unwrap();
            total += k as f64 * sup.max(0.0);
        }
        let pure = c.pure_epsilon().unwrap();
        prop_assert!(pure >= total * (1.0 - 1e-14), "{pure} < {total}");
        let a = c.answer(Target::Epsilon(pure + extra), 1e-3, None).unwrap();
        prop_assert_eq!((a.interval.lower, a.interval.upper), (0.0, 0.0));
    }
}

#[test]
fn epsilon_of_a_bounded_composition_is_at_most_its_pure_epsilon() {
    for (kind, x, y, k) in [
        (0u8, 0.3, 0.6, 4u64),
        (1, 0.2, 0.5, 3),
        (2, 0.5, 0.1, 5),
        (3, 0.2, 0.4, 6),
    ] {
        let (m, sup) = bounded(kind, x, y);
        let c = composed(m, k);
        let pure = c.pure_epsilon().unwrap();
        assert!(pure >= k as f64 * sup * (1.0 - 1e-14));
        for d in [1e-3, 1e-9, 1e-30] {
            let e = c.answer(Target::Delta(d), 1e-3, None).unwrap().interval;
            assert!(
                e.lower <= e.upper && e.upper <= pure,
                "δ {d}: {e:?} > {pure}"
            );
        }
    }
}

/// Poisson sampling at `p = 1` of a pair with P-mass at `−∞` keeps that mass (its add
/// order has it at `+∞`): the inverse of `PoissonRemove_0.5(RR(0, 2))` has Q-mass 1/2 at
/// `+∞`, and sampling it with probability 1 changes nothing.
#[test]
fn poisson_sampling_at_one_keeps_the_infinite_masses() {
    use shiftdp::composition::mechanism::RandomizedResponse;
    use shiftdp::composition::{Component, Target};
    let rr: Arc<dyn Mechanism> = Arc::new(RandomizedResponse::new(0.0, 2).unwrap());
    let base = PoissonSampled::new(0.5, rr).unwrap().inverse();
    let outer = PoissonSampled::new(1.0, base.clone()).unwrap();
    for m in [base, Arc::new(outer) as Arc<dyn Mechanism>] {
        let c = composed(Component::shared(m.clone()), 1);
        let iv = c.answer(Target::Epsilon(5.0), 1e-3, None).unwrap().interval;
        assert!(iv.lower <= 0.5 && 0.5 <= iv.upper, "{}: {iv:?}", m.name());
    }
}
