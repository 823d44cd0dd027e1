//! Certified numerical composition of tradeoff functions through privacy-loss
//! distributions (PLDs).
//!
//! A [`Composition`] is a list of components with repetition counts — `G(μ)`,
//! `C_p(G(μ))` (BSA24 Def 4.7, symmetrized), the Poisson add-or-remove subsampled
//! Gaussian (each direction composed separately: a *different* quantity from `C_p`),
//! `f_{ε,δ}` and numerically represented curves ([`PiecewiseLinear`]). [`Composition::compose`]
//! discretizes every component pessimistically and optimistically ([`pld`]), composes
//! by FFT with repeated squaring (`O(N log N log k)`, [`engine`]) and returns a
//! [`Composed`] that answers δ(ε) and ε(δ) as certified intervals `[lower, upper]` and
//! gives the composed tradeoff curve (below the truth).
//!
//! # Formula
//! `f₁ ⊗ f₂ = T(P₁×P₂, Q₁×Q₂)`: privacy losses add, PLDs convolve. Both orders of the
//! pair are composed: order 1 gives `δ_{f}(ε) = 1 + f*(−e^ε)` of `f = ⊗ fᵢ`, order 2
//! that of `f⁻¹ = ⊗ fᵢ⁻¹`; the reported `δ(ε)` is the maximum (equal for symmetric
//! components, where one order is computed).
//!
//! # Rounding
//! Every reported upper end is an upper bound on the true value and every lower end a
//! lower bound, with FFT round-off (Percival's bound), truncation mass and summation
//! errors added in the safe direction (see [`engine`]). The floor is
//! [`DELTA_FLOOR`]: smaller δ are refused with [`Error::NotCertified`].
//!
//! # Example
//! ```
//! use shiftdp::composition::{Component, Composition};
//! let c = Composition::new().with(Component::gaussian(0.5).unwrap(), 4).unwrap();
//! let r = c.compose_for_delta(1e-5, None).unwrap();
//! let e = r.epsilon(1e-5).unwrap();
//! // G(0.5)^{⊗4} = G(1): ε(1e-5) ≈ 4.37718 (DRS22 Cor 1)
//! assert!(e.lower <= 4.37718 && 4.37717 <= e.upper && e.upper - e.lower < 1e-2);
//! ```
//!
//! # References
//! DRS22; BSA24 Def 4.7 and Lemma A.5 (CLT); Koskela, Jälkö, Honkela, *Computing tight
//! differential privacy guarantees using FFT*, AISTATS 2020; Doroshenko et al.,
//! *Connect the dots*, PETS 2022; Gopi, Lee, Wutschitz, *Numerical composition of
//! differential privacy*, NeurIPS 2021.
pub mod answer;
mod cgf;
pub mod engine;
pub mod fft_plans;
pub mod mechanism;
pub mod oneshot;
pub mod pld;

use crate::error::{Error, Result};
use crate::precision::Enclosure;
use crate::precision::rounding::{next_down_f64, next_up_f64};
use crate::tradeoff::{ApproxDp, PiecewiseLinear};
pub use answer::{CompositionAnswer, DEFAULT_TOLERANCE, REUSE_SLACK, Reuse};
use engine::{Dist, Prepared};
use mechanism::Mechanism;
use pld::Grid;
use rayon::prelude::*;
use std::sync::Arc;

/// Smallest δ the PLD engine certifies (the double just below the decimal `1e-100`
/// included); below it its queries return [`Error::NotCertified`] and
/// [`Composition::answer`] answers with the no-amplification closed form, which has no
/// floor.
pub const DELTA_FLOOR: f64 = 1e-100;

/// Largest number of grid points per window.
pub const MAX_POINTS: usize = 1 << 21;

/// One component of a composition: one neighbouring order of a [`Mechanism`]'s
/// dominating pair (the Gaussian family, Laplace, randomized response, mixtures of
/// Gaussians, their Poisson-subsampled versions, piecewise-linear tradeoff functions
/// such as `f_{ε,δ}`, …).
#[derive(Debug, Clone)]
pub struct Component(Arc<dyn Mechanism>);

/// Components are equal when their mechanisms have the same [`Mechanism::name`], which
/// prints every parameter exactly.
impl PartialEq for Component {
    fn eq(&self, o: &Component) -> bool {
        self.0.name() == o.0.name()
    }
}

impl Component {
    /// `G(μ)`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless μ is finite and ≥ 0.
    pub fn gaussian(mu: f64) -> Result<Component> {
        Ok(Component::mechanism(mechanism::GaussianFamily::gaussian(
            mu,
        )?))
    }
    /// `C_p(G(μ))`.
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ p ≤ 1` and μ finite ≥ 0.
    pub fn subsampled(p: f64, mu: f64) -> Result<Component> {
        Ok(Component::mechanism(
            mechanism::GaussianFamily::symmetrized(p, mu)?,
        ))
    }
    /// The Poisson add-or-remove subsampled Gaussian, remove direction (pair with
    /// [`Composition::inverse`] for the add direction).
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 ≤ p ≤ 1` and μ finite ≥ 0.
    pub fn poisson(p: f64, mu: f64) -> Result<Component> {
        Ok(Component::mechanism(
            mechanism::GaussianFamily::poisson_remove(p, mu)?,
        ))
    }
    /// `f_{ε,δ}`.
    ///
    /// # Errors
    /// As [`ApproxDp::new`]; [`Error::Parameter`] for ε above 700, where the curve's
    /// slope `e^ε` leaves the f64 range the engine computes in.
    pub fn approx_dp(eps: f64, delta: f64) -> Result<Component> {
        if eps > 700.0 {
            return Err(Error::param(
                "epsilon",
                eps,
                "must be at most 700 for the composition engine (e^ε must be a finite double); \
                 k such mechanisms are (Σkᵢεᵢ, Σkᵢδᵢ)-DP by basic composition",
            ));
        }
        Ok(Component::curve(ApproxDp::new(eps, delta)?.to_piecewise()))
    }
    /// A piecewise-linear tradeoff function as a component.
    pub fn curve(f: PiecewiseLinear) -> Component {
        Component::mechanism(mechanism::TradeoffCurve(f))
    }
    /// A mechanism's order as a component.
    pub fn mechanism(m: impl Mechanism + 'static) -> Component {
        Component(Arc::new(m))
    }
    /// A shared mechanism's order as a component.
    pub fn shared(m: Arc<dyn Mechanism>) -> Component {
        Component(m)
    }
    /// The mechanism of this component.
    pub fn as_mechanism(&self) -> &Arc<dyn Mechanism> {
        &self.0
    }
    /// The component of the other order of the pair (`f⁻¹`).
    pub fn inverse(&self) -> Component {
        Component(self.0.inverse())
    }
    /// Whether `f = f⁻¹`.
    pub fn is_symmetric(&self) -> bool {
        self.0.is_symmetric()
    }
    /// Display name, each parameter by its shortest decimal that reads back to the same
    /// f64 (in exponent form below 1e-5 and from 1e16 on, so that `G(5e-324)` is not
    /// 324 digits long).
    pub fn name(&self) -> String {
        self.0.name()
    }
    /// The largest finite privacy loss of one step, rounded up, for the components
    /// whose losses are bounded above ([`Mechanism::loss_sup`]).
    pub fn loss_sup(&self) -> Option<f64> {
        self.0.loss_sup()
    }
    /// The single-step discretization of this component on a grid (pessimistic and
    /// optimistic, untilted).
    pub fn single_step(&self, g: &Grid) -> pld::SingleStep {
        pld::discretize(&self.pieces(g, 0.0), g)
    }
    /// Pieces on the grid; tails of Q-mass below `cut` are treated in bulk
    /// ([`Mechanism::pieces`]).
    fn pieces(&self, g: &Grid, cut: f64) -> pld::Pieces {
        self.0.pieces(g, cut)
    }
}

/// The shift `s ∈ [0, h)` that moves a loss `ℓ` (an atom's lower end) onto the grid
/// point `t` at or above it: `t − ℓ`, then up until `ℓ + s` rounded down (the shifted
/// atom's lower end) is certainly `≥ t`, so that the atom sits in the bin `[t, t + h]`
/// on both sides of the discretization (`t − ℓ` is exact when `ℓ ≥ t/2`, Sterbenz; then
/// `ℓ + s = t` exactly); 0 when no such shift below `h` is found.
fn shift_onto_grid(g: &Grid, l: f64) -> f64 {
    let j = g.ceil_index(l);
    if !(j.is_finite() && j.abs() < g.exact_index()) {
        return 0.0;
    }
    let t = j * g.h;
    let mut s = (t - l).max(0.0);
    for _ in 0..64 {
        let (x, e) = mechanism::sampled::two_sum(l, s);
        let down = if e == 0.0 { x } else { next_down_f64(x) };
        if down >= t {
            break;
        }
        s += t.abs().max(f64::MIN_POSITIVE) * f64::EPSILON;
    }
    if s < g.h { s } else { 0.0 }
}

/// A certified interval `[lower, upper]` containing the true value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower bound.
    pub lower: f64,
    /// Upper bound (the value safe to report as a privacy bound).
    pub upper: f64,
}

impl Interval {
    /// `upper − lower`.
    pub fn width(&self) -> f64 {
        self.upper - self.lower
    }
    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        self.lower <= x && x <= self.upper
    }
}

/// What the grid and tilt are tuned for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// Queries of ε(δ) near this δ.
    Delta(f64),
    /// Queries of δ(ε) near this ε.
    Epsilon(f64),
}

/// How the discretized PLDs are composed. Both are certified; they differ in cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Engine {
    /// One forward FFT per distinct component, the product of powers in the Fourier
    /// domain, one inverse FFT ([`oneshot`]): two transforms of the window length per
    /// order, whatever the number of steps. The default.
    #[default]
    OneShot,
    /// Repeated squaring of zero-padded linear convolutions ([`Dist::power`]):
    /// `O(log k)` transforms of twice the window length per component. Kept as the
    /// independent reference the one-shot engine is tested against.
    RepeatedSquaring,
}

/// A list of components with repetition counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Composition {
    parts: Vec<(Component, u64)>,
    engine: Engine,
    /// Atoms `(heaviest atom's loss, loss, weight)` of both orders of the mechanism
    /// components off every dyadic grid, the planner's alignment targets
    /// ([`Composition::step_at_least`]).
    align: Vec<(f64, f64, f64)>,
    /// The atom units of the components with atoms: [`mechanism::Lattice::Unit`]'s, or
    /// [`mechanism::atom_unit`] for irregular atoms (0 when they are not commensurate):
    /// the planner's lattice steps ([`Composition::lattice_unit`]).
    units: Vec<f64>,
}

/// Largest window (grid points) of the one-shot engine; below it the memory guard
/// ([`crate::memory`]) decides.
pub const MAX_POINTS_ONE_SHOT: usize = 1 << 28;

/// Bytes per window point of one order of the one-shot engine at its peak, beyond the
/// distinct components: the packed transform (16) and the FFT's scratch (16), both
/// half-spectrum products (16) and their magnitude bounds (8), the two read-out sides
/// (16), the prepared suffix sums (32), the cached forward plans of this and the
/// coarser lengths (≤ 2 × 16 per point); measured 134 bytes per point for one component
/// and 183 for two (2²¹ points, `C_0.999999(G(0.0136))` with and without `G(0.02)`)
/// before the buffers were reused in place (68 bytes per point since, at 2 × 2²³ points
/// of a Poisson pair), so the estimate is an upper bound with room.
const ONE_SHOT_BYTES_PER_POINT: u64 = 128;
/// Bytes per window point and distinct component of the one-shot engine: the
/// single-step vectors (16, freed once tilted) and their tilted copies (16), the
/// rescaled sides of the factor being transformed (16).
const ONE_SHOT_BYTES_PER_COMPONENT_POINT: u64 = 48;
/// Bytes of a composition besides its windows (allocator arenas, the coarse
/// discretizations of the window search, thread stacks), rounded up.
const FIXED_BYTES: u64 = 64 << 20;

/// How far below the Chernoff optimum (in `ln`) the one-shot planner lets the tilted
/// mass around the target fall when a smaller tilt shortens the window
/// ([`Composition::window`]): the FFT's round-off, relative to that mass, grows by at
/// most `e^{TILT_SLACK}`.
const TILT_SLACK: f64 = 5.0;
/// The same for repeated squaring (three transforms of twice the window, sides, pieces).
const SQUARING_BYTES_PER_POINT: u64 = 260;

/// Grid parameters and error budget of one order of a composed PLD.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridInfo {
    /// Grid step h (a power of two).
    pub h: f64,
    /// Lowest loss of the window.
    pub bottom: f64,
    /// Highest loss of the window.
    pub top: f64,
    /// Number of grid points.
    pub points: usize,
    /// Exponential tilt λ.
    pub lambda: f64,
    /// ℓ¹ bound on FFT/round-off error of the pessimistic vector (relative to its mass).
    pub fft_error_pess: f64,
    /// Same for the optimistic vector.
    pub fft_error_opt: f64,
    /// Pessimistic mass at +∞ (components' own + truncation), added to every upper δ.
    pub infinity_mass: f64,
}

/// A composed PLD (one or two orders) with certified queries.
#[derive(Debug, Clone)]
pub struct Composed {
    orders: Vec<Prepared>,
    /// Grid info per order.
    pub info: Vec<GridInfo>,
    /// Per order, an enclosure of the total loss shift `C = Σ kᵢ sᵢ` of its components
    /// ([`Composition::shifts`]): the engine's PLD is that of `L + C`, so `δ(ε)` is its
    /// `δ'(ε + C)`.
    shift: Vec<(f64, f64)>,
}

fn check_delta(delta: f64) -> Result<()> {
    if !(delta > 0.0 && delta < 1.0) {
        return Err(Error::param("delta", delta, "must satisfy 0 < δ < 1"));
    }
    // the double just below the decimal 1e-100 is the floor too: a δ typed as 1e-100
    // and read downwards (the safe direction) is 9.999999999999999e-101
    if delta < next_down_f64(DELTA_FLOOR) {
        return Err(Error::NotCertified {
            what: "composed ε(δ)".into(),
            reason: format!(
                "δ = {delta:e} is below the engine's floor {DELTA_FLOOR:e} (f64 tilted FFT)"
            ),
        });
    }
    Ok(())
}

impl Composition {
    /// The empty composition (perfect privacy, `Id`).
    pub fn new() -> Composition {
        Composition::default()
    }
    /// The same composition computed by `engine`.
    pub fn with_engine(mut self, engine: Engine) -> Composition {
        self.engine = engine;
        self
    }
    /// The engine used by [`Composition::compose`].
    pub fn engine(&self) -> Engine {
        self.engine
    }
    /// Appends `count` copies of a component.
    ///
    /// # Errors
    /// [`Error::Parameter`] if `count` is 0.
    pub fn with(mut self, c: Component, count: u64) -> Result<Composition> {
        if count == 0 {
            return Err(Error::param("count", 0, "repetition count must be ≥ 1"));
        }
        let m = c.as_mechanism();
        let k = count as f64;
        match m.atom_lattice() {
            mechanism::Lattice::NoAtoms => {}
            mechanism::Lattice::Unit(u) => {
                self.align.push((0.0, u, k));
                self.units.push(u);
            }
            mechanism::Lattice::Irregular => {
                let own = m.atoms();
                // (the distances between atoms, hence the unit, are the same in both orders)
                self.units.push(mechanism::atom_unit(&own).unwrap_or(0.0));
                for all in [own, m.inverse().atoms()] {
                    let atoms: Vec<_> = all
                        .into_iter()
                        .filter(|a| a.q.hi > 0.0 && a.loss.0.is_finite())
                        .collect();
                    // the atom the engine's shift puts on the grid (`shifts`): the
                    // others' distances to it decide their rounding
                    let heavy = atoms
                        .iter()
                        .max_by(|a, b| a.q.hi.total_cmp(&b.q.hi))
                        .map_or(0.0, |a| a.loss.0);
                    if atoms.len() <= 64 {
                        self.align
                            .extend(atoms.iter().map(|a| (heavy, a.loss.0, k * a.q.hi)));
                    }
                }
            }
        }
        self.parts.push((c, count));
        Ok(self)
    }
    /// The components and counts.
    pub fn parts(&self) -> &[(Component, u64)] {
        &self.parts
    }
    /// The composition of the inverses (other order of the pair).
    pub fn inverse(&self) -> Composition {
        Composition {
            parts: self.parts.iter().map(|(c, k)| (c.inverse(), *k)).collect(),
            engine: self.engine,
            align: self.align.clone(),
            units: self.units.clone(),
        }
    }
    /// Whether every component is symmetric (then one order suffices).
    pub fn is_symmetric(&self) -> bool {
        self.parts.iter().all(|(c, _)| c.is_symmetric())
    }
    /// Total number of steps.
    pub fn total_count(&self) -> u64 {
        self.parts.iter().map(|(_, k)| *k).sum()
    }

    /// The grid exponent `e` (step `h = 2^{−e}`) used when none is given: `k h² ≤ 10⁻³`
    /// for `k` steps in all (the mean-loss bias of both discretizations is `O(k h²/8)`),
    /// and `h ≤ 2⁻⁷`.
    pub fn default_grid_exp(&self) -> i32 {
        let k = self.total_count().max(1) as f64;
        let h = (1e-3 / k).sqrt().min(2f64.powi(-7));
        (-h.log2()).ceil() as i32
    }

    /// The grid exponent [`Composition::compose`] uses when none is given:
    /// [`Composition::default_grid_exp`] capped at 24 (it exceeds 24 only beyond
    /// 2.8·10¹¹ steps, where the window is refused at any grid).
    pub(crate) fn compose_grid_exp(&self) -> i32 {
        self.default_grid_exp().min(24)
    }

    /// Central limit approximation μ of the composition (BSA24 Lemma A.5 / DRS22 Thm 6):
    /// `C_p(G(μ))^{⊗t} ≈ G(p√t · √(2(e^{μ²}Φ(1.5μ) + 3Φ(−0.5μ) − 2)))`, combined with
    /// Gaussian components by `√(Σ μᵢ²)`. An **approximation, not a bound**; `None` if a
    /// component has no such formula here (Poisson directions, curves).
    ///
    /// # Example
    /// ```
    /// use shiftdp::composition::{Component, Composition};
    /// let c = Composition::new().with(Component::gaussian(0.3).unwrap(), 4).unwrap();
    /// assert!((c.clt_mu().unwrap() - 0.6).abs() < 1e-12);
    /// ```
    pub fn clt_mu(&self) -> Option<f64> {
        let mut s2 = 0.0;
        for (c, k) in &self.parts {
            let k = *k as f64;
            s2 += k * c.as_mechanism().clt_mu_squared()?;
        }
        Some(s2.sqrt())
    }

    /// Composes, tuning grid and tilt for ε(δ) queries near `delta`.
    ///
    /// # Errors
    /// As [`Composition::compose`].
    pub fn compose_for_delta(&self, delta: f64, grid_exp: Option<i32>) -> Result<Composed> {
        check_delta(delta)?;
        self.compose(Target::Delta(delta), grid_exp)
    }

    /// Discretizes and composes both orders (one if symmetric). `grid_exp = e` sets the
    /// grid step `h = 2^{−e}` (default: chosen from the number of steps).
    ///
    /// # Errors
    /// [`Error::Parameter`] for an empty composition or a bad target / grid;
    /// [`Error::NotCertified`] if the window would exceed [`MAX_POINTS`].
    pub fn compose(&self, target: Target, grid_exp: Option<i32>) -> Result<Composed> {
        let step = Step::Exp(grid_exp.unwrap_or_else(|| self.compose_grid_exp()));
        self.check_f64_reach()?;
        self.compose_planned(target, step, None)
    }

    /// The f64 engine holds losses up to each component's reach; a reach beyond f64 (a
    /// Gaussian whose μ²/2 overflows) would leave the masses out there uncounted, so such
    /// a composition is not certified by the engine ([`Composition::answer`] then falls
    /// back to the closed forms).
    ///
    /// # Errors
    /// [`Error::NotCertified`] naming the first such component.
    pub(crate) fn check_f64_reach(&self) -> Result<()> {
        match self
            .parts
            .iter()
            .find(|(c, _)| !c.as_mechanism().loss_reach().is_finite())
        {
            Some((c, _)) => Err(Error::NotCertified {
                what: "composition".into(),
                reason: format!(
                    "the privacy loss of {} reaches beyond f64's range (the f64 engine cannot hold it)",
                    c.as_mechanism().name()
                ),
            }),
            None => Ok(()),
        }
    }

    /// The windows of the orders [`Composition::compose`] computes (one if symmetric):
    /// the grid-independent part of its plan, reused by [`Composition::answer`] over
    /// the grids it tries.
    pub(crate) fn windows(&self, target: Target) -> Vec<Window> {
        windows_of(&self.orders(), target)
    }

    /// The compositions of the orders composed: this one, and the composition of the
    /// inverses unless every component is symmetric.
    fn orders(&self) -> Vec<Composition> {
        if self.is_symmetric() {
            vec![self.clone()]
        } else {
            vec![self.clone(), self.inverse()]
        }
    }

    /// [`Composition::compose`] with the orders' windows given ([`Composition::windows`]
    /// for the same target) or, with `None`, computed here.
    pub(crate) fn compose_planned(
        &self,
        target: Target,
        step: Step,
        windows: Option<&[Window]>,
    ) -> Result<Composed> {
        Ok(self.stage(target, step, windows)?.compose())
    }

    /// The first half of [`Composition::compose_planned`]: each order laid out at `step`,
    /// the memory guard passed, and (one-shot engine) every component's single step
    /// discretized, so that [`Staged::predicted_width`] can say what the composition
    /// would certify before its transforms are paid for.
    pub(crate) fn stage(
        &self,
        target: Target,
        step: Step,
        windows: Option<&[Window]>,
    ) -> Result<Staged> {
        if self.parts.is_empty() {
            return Err(Error::param("components", "none", "give at least one"));
        }
        match target {
            Target::Delta(d) => check_delta(d)?,
            Target::Epsilon(e) => {
                if !e.is_finite() {
                    return Err(Error::param("epsilon", e, "must be finite"));
                }
            }
        }
        if let Step::Exp(e) = step
            && !(4..=24).contains(&e)
        {
            return Err(Error::param("grid", e, "grid exponent must be in 4..=24"));
        }
        let comps = self.orders();
        // plan both orders first: the memory guard sees the whole job before any of it
        let windows = match windows {
            Some(w) if w.len() == comps.len() => w.to_vec(),
            _ => windows_of(&comps, target),
        };
        let mut plans = comps
            .iter()
            .zip(&windows)
            .map(|(c, w)| c.layout(w, step))
            .collect::<Result<Vec<_>>>()?;
        // each order's loss shifts at its step, and its window moved up by their total
        // (the composed losses are larger by Σ kᵢ sᵢ on the engine's axis)
        let mut shift = Vec::with_capacity(comps.len());
        let mut comps = comps;
        for (i, c) in comps.iter_mut().enumerate() {
            let (s, total) = c.shifts(plans[i].0.h);
            if total.1 > 0.0 {
                let w = windows[i];
                let moved = Window {
                    a: w.a + total.0,
                    b: w.b + total.1,
                    a_floor: w.a_floor + total.0,
                    lam_star: w.lam_star,
                };
                *c = c.shifted(&s);
                plans[i] = c.layout(&moved, Step::At(plans[i].0.h))?;
            }
            shift.push(total);
        }
        let points: u64 = plans.iter().map(|(g, _, _)| g.n as u64).sum();
        crate::memory::check(
            &format!(
                "the certified composition ({points} grid points over {} order(s))",
                plans.len()
            ),
            self.planned_bytes(points),
        )?;
        // (the orders' single steps on one core each)
        let orders = comps
            .into_par_iter()
            .zip(plans)
            .map(|(c, plan)| {
                let singles = c.singles(plan, target);
                (c, plan, singles)
            })
            .collect();
        Ok(Staged { orders, shift })
    }

    /// Upper estimate of the peak memory of composing on windows of `points` grid
    /// points in all (both orders): `points × (per point + per point and distinct
    /// component × components) + fixed`, saturating.
    pub(crate) fn planned_bytes(&self, points: u64) -> u64 {
        let per_point = match self.engine {
            Engine::OneShot => ONE_SHOT_BYTES_PER_POINT.saturating_add(
                ONE_SHOT_BYTES_PER_COMPONENT_POINT.saturating_mul(self.parts.len() as u64),
            ),
            Engine::RepeatedSquaring => SQUARING_BYTES_PER_POINT,
        };
        crate::memory::bytes_of(points, per_point).saturating_add(FIXED_BYTES)
    }

    /// Grid points of the windows of every order at `step` (`None` when a window
    /// does not fit the engine's point limit), and the largest of one order.
    pub(crate) fn planned_points(&self, windows: &[Window], step: Step) -> Option<(u64, u64)> {
        let (mut points, mut most) = (0u64, 0u64);
        for (c, w) in self.orders().iter().zip(windows) {
            let (g, _, _) = c.layout(w, step).ok()?;
            points = points.saturating_add(g.n as u64);
            most = most.max(g.n as u64);
        }
        Some((points, most))
    }

    /// The loss shift of each component at grid step `h` and an enclosure of their
    /// total `Σ kᵢ sᵢ`: a mechanism whose atoms lie off every dyadic grid has its heaviest
    /// atom (by Q-mass), or its highest or lowest when the other atoms' rounding is
    /// smaller so,
    /// moved up onto the grid point at or above it ([`mechanism::Shifted`]:
    /// `sᵢ = ⌈ℓ/h⌉h − ℓ` from the atom's lower end, `shift_onto_grid`); everything
    /// else 0. An atom between grid points is rounded down by up to `h` on the optimistic
    /// side, an error that adds up over the steps; on a grid point it is exact.
    pub fn shifts(&self, h: f64) -> (Vec<f64>, (f64, f64)) {
        let none = (vec![0.0; self.parts.len()], (0.0, 0.0));
        if self.atom_grid_exp().is_some() || self.align.is_empty() {
            return none;
        }
        let g = Grid { h, lo: 0, n: 1 };
        let mut total = Enclosure::from_u64(128, 0);
        let mut out = Vec::with_capacity(self.parts.len());
        for (c, k) in &self.parts {
            let m = c.as_mechanism();
            let s = if m.atom_lattice() == mechanism::Lattice::NoAtoms {
                0.0
            } else {
                let atoms: Vec<_> = m
                    .atoms()
                    .into_iter()
                    .filter(|a| a.loss.0.is_finite() && a.q.hi > 0.0)
                    .collect();
                // the anchor: the heaviest atom, or the highest or the lowest when that
                // leaves the others less rounding (on a lattice step, anchored at the
                // highest, every atom then sits just above a grid point)
                let misfit = |anchor: f64| -> f64 {
                    atoms
                        .iter()
                        .map(|a| {
                            let d = a.loss.0 - anchor;
                            a.q.hi * (d - (d / h).floor() * h).clamp(0.0, h)
                        })
                        .sum()
                };
                let by = |f: fn(&mechanism::Atom) -> f64| {
                    atoms.iter().map(f).max_by(|a, b| a.total_cmp(b))
                };
                // the heaviest atom first: it wins ties
                [
                    atoms
                        .iter()
                        .max_by(|a, b| a.q.hi.total_cmp(&b.q.hi))
                        .map(|a| a.loss.0),
                    by(|a| a.loss.0),
                    by(|a| -a.loss.0).map(|l| -l),
                ]
                .into_iter()
                .flatten()
                .map(|l| (misfit(l), l))
                .reduce(|b, c| if c.0 < b.0 { c } else { b })
                .map_or(0.0, |(_, l)| shift_onto_grid(&g, l))
            };
            total = total + Enclosure::from_f64(128, s).mul(&Enclosure::from_u64(128, *k));
            out.push(s);
        }
        let t = (total.lower_f64(), total.upper_f64());
        if t.1 > 0.0 { (out, t) } else { none }
    }

    /// This composition with each mechanism component's losses moved up by its shift
    /// ([`mechanism::Shifted`]; `shifts` from [`Composition::shifts`]): the components
    /// on the engine's axis, whose plan and single-step windows hold the shifted losses.
    fn shifted(&self, shifts: &[f64]) -> Composition {
        let parts = self
            .parts
            .iter()
            .zip(shifts.iter().chain(std::iter::repeat(&0.0)))
            .map(|((c, k), s)| match c {
                Component(m) if *s > 0.0 => (
                    Component(Arc::new(mechanism::Shifted::new(m.clone(), *s))),
                    *k,
                ),
                c => (c.clone(), *k),
            })
            .collect();
        Composition {
            parts,
            engine: self.engine,
            align: vec![],
            units: vec![],
        }
    }

    /// The one-shot engine's single steps of every component at `plan`: each on a
    /// window of the same length that holds its own support (the result's window may
    /// start far above it), tails of Q-mass below `δ·10⁻²⁰` per step in total treated in
    /// bulk. `None` for the squaring engine, which discretizes on the result's window.
    fn singles(
        &self,
        (g, lambda, single_lo): (Grid, f64, i64),
        target: Target,
    ) -> Option<Vec<(Dist, u64)>> {
        if self.engine != Engine::OneShot {
            return None;
        }
        let d_t = match target {
            Target::Delta(d) => d,
            Target::Epsilon(_) => DELTA_FLOOR,
        };
        let n = self.total_count().max(1) as f64;
        let cut = (1e-20 * d_t / n).max(1e-300);
        let gs = Grid {
            h: g.h,
            lo: single_lo,
            n: g.n,
        };
        Some(
            self.parts
                .iter()
                .map(|(c, k)| {
                    // (sides that end at their support: `power_product` reads no further)
                    let s = pld::discretize_truncated(&c.pieces(&gs, cut), &gs);
                    (Dist::from_single_owned(s, gs, lambda), *k)
                })
                .collect(),
        )
    }

    /// One order composed on its plan: the one-shot power of its `singles`
    /// ([`Composition::singles`]) or, without them, repeated squaring.
    fn compose_one(
        &self,
        (g, lambda, _): (Grid, f64, i64),
        singles: Option<Vec<(Dist, u64)>>,
    ) -> (Prepared, GridInfo) {
        let d = match singles {
            Some(singles) => oneshot::power_product(singles, g.lo),
            None => {
                let mut total: Option<Dist> = None;
                for (c, k) in &self.parts {
                    let s = pld::discretize(&c.pieces(&g, 0.0), &g);
                    let d = Dist::from_single_owned(s, g, lambda).power(*k);
                    total = Some(match total {
                        None => d,
                        Some(t) => t.compose(&d),
                    });
                }
                // `compose` refuses an empty composition before planning
                total.unwrap_or_else(|| {
                    Dist::from_single(&pld::discretize(&pld::Pieces::default(), &g), g, lambda)
                })
            }
        };
        let gi = GridInfo {
            h: g.h,
            bottom: g.bottom(),
            top: g.top(),
            points: g.n,
            lambda,
            fft_error_pess: d.pess.err,
            fft_error_opt: d.opt.err,
            infinity_mass: d.pess.inf,
        };
        let prep = d.into_prepared();
        (prep, gi)
    }

    /// The grid-independent half of a plan (the grid half is [`Composition::layout`]):
    /// the privacy-loss window `[a, b]` the query needs, the bottom the squaring engine
    /// would use, and the tilt λ* — all from the cumulant generating functions of a
    /// coarse pessimistic discretization (Chernoff / Rényi estimates; no rigor needed,
    /// any choice is valid), so the planner of [`Composition::answer`] computes it once
    /// for all its grids.
    ///
    /// The CGF `K(λ) = ln Σ m_j e^{λ t_j}` is summed over the terms within `e^{−40}` of
    /// the largest (the others change the f64 sum by less than its rounding); like every
    /// choice here it is a search, not a bound.
    fn window(&self, target: Target) -> Window {
        // the coarse grid holds every component's single-step losses: those of G(μ)
        // (and of its subsampled versions, whose losses lie between those of G(μ) and
        // of Id) are N(μ²/2, μ²) under P, so ±(μ²/2 + 40μ) is beyond any mass the
        // cumulants see; curves have bounded losses within ±64
        let w0 = self
            .parts
            .iter()
            .map(|(c, _)| c.0.loss_reach().ceil().min(1e4))
            .fold(1.0, f64::max)
            .min(1e4);
        // its step resolves the smallest component's loss spread (about pμ for a
        // subsampled G(μ), μ for G(μ)): a step wider than the spread rounds every loss
        // up one cell and the cumulants (hence the tilt) describe the rounding, not the
        // losses; between 2⁻¹⁴ and 2⁻⁶, and at most 2¹⁶ cells either side
        let spread = self
            .parts
            .iter()
            .map(|(c, _)| c.0.loss_spread())
            .filter(|s| *s > 0.0)
            .fold(f64::INFINITY, f64::min);
        let e0 = if spread.is_finite() {
            (-(spread / 4.0).log2()).ceil().clamp(6.0, 14.0) as i32
        } else {
            6
        };
        let e0 = e0.min((16.0 - w0.log2().ceil()) as i32).max(6);
        let h0 = 2f64.powi(-e0);
        let g0 = Grid {
            h: h0,
            lo: -(w0 / h0) as i64,
            n: (2.0 * w0 / h0) as usize + 1,
        };
        // cumulant generating functions K_i(λ) = ln Σ m_j e^{λ t_j}, over the positive
        // masses only, with ln m_j computed once
        let mut singles: Vec<(cgf::Cgf, f64)> = vec![];
        for (c, k) in &self.parts {
            let s = pld::discretize_truncated(&c.pieces(&g0, 0.0), &g0);
            let terms = s
                .pess
                .iter()
                .enumerate()
                .filter(|(_, v)| **v > 0.0)
                .map(|(j, &v)| (v.ln(), g0.t(j)))
                .collect();
            singles.push((cgf::Cgf::new(terms), *k as f64));
        }
        let t_of = |lam: f64| -> f64 {
            singles
                .iter()
                .map(|(cgf, k)| k * cgf.at(lam))
                .fold(0.0, |a, b| a + b)
        };
        // tilts from 1e-5 (millions of steps: the composed losses are in the
        // hundreds of thousands) to 1e4 (δ near the floor with tiny μ), the ratio 1.05
        let lams: Vec<f64> = (-156..270).map(|i| 0.02 * 1.05f64.powi(i)).collect();
        // K(λ) at every fourth tilt, then at the three either side of each criterion's
        // coarse minimum: the criteria below are quasi-convex in λ (K is convex), so
        // their minimum over all the tilts lies strictly between the coarse minimum's
        // neighbours; unevaluated tilts count as +∞
        let mut ts = vec![f64::NAN; lams.len()];
        let fill = |ts: &mut Vec<f64>, idx: Vec<usize>| {
            let vals: Vec<(usize, f64)> = idx
                .into_par_iter()
                .filter(|&i| ts[i].is_nan())
                .map(|i| (i, t_of(lams[i])))
                .collect();
            for (i, v) in vals {
                ts[i] = v;
            }
        };
        fill(&mut ts, (0..lams.len()).step_by(4).collect());
        // the evaluated tilt minimizing `crit`, after evaluating the three tilts either side
        // of the coarse minimum
        let refine = |ts: &mut Vec<f64>, crit: &dyn Fn(&[f64], usize) -> f64| -> usize {
            let argmin = |ts: &[f64]| {
                (0..lams.len())
                    .filter(|&i| !ts[i].is_nan())
                    .min_by(|&a, &b| crit(ts, a).total_cmp(&crit(ts, b)))
                    .unwrap_or(0)
            };
            let c = argmin(ts);
            fill(
                ts,
                (c.saturating_sub(3)..=(c + 3).min(lams.len() - 1)).collect(),
            );
            argmin(ts)
        };
        // Chernoff: δ at ε and ε at δ from the tilt minimizing the bound
        let (lam_star, d_t, e_est) = match target {
            Target::Delta(d) => {
                let ld = -d.ln();
                let crit = |ts: &[f64], i: usize| (ts[i] + ld) / lams[i];
                let i = refine(&mut ts, &crit);
                (lams[i], d, crit(&ts, i))
            }
            Target::Epsilon(e) => {
                let i = refine(&mut ts, &|ts, i| ts[i] - lams[i] * e);
                let d = (ts[i] - lams[i] * e).exp().clamp(1e-300, 1.0);
                (lams[i], d, e)
            }
        };
        let ltail = -(d_t.max(1e-300)).ln() + 23.0; // Chernoff tail ≤ δ · 1e-10
        refine(&mut ts, &|ts, i| (ts[i] + ltail) / lams[i]);
        let b_est = lams
            .iter()
            .zip(&ts)
            .filter(|(_, t)| !t.is_nan())
            .map(|(&l, &t)| (t + ltail) / l)
            .fold(f64::INFINITY, f64::min)
            .max(e_est + 1.0)
            + 0.5;
        // tilted mean and variance at λ*
        // (a step relative to a tiny λ* would make the second difference all round-off)
        let dl = 1e-3 * lam_star.max(0.1);
        let (tm, t0, tp) = (t_of(lam_star - dl), t_of(lam_star), t_of(lam_star + dl));
        let mean = (tp - tm) / (2.0 * dl);
        let var = ((tp - 2.0 * t0 + tm) / (dl * dl)).max(1e-6);
        let a_est = (mean - 9.0 * var.sqrt())
            .min(-12.0 * var / mean.max(0.05))
            .min(-1.0)
            .max(-(b_est.abs() + 64.0));
        let a_floor = a_est;
        // the one-shot engine bounds the tilted mass outside the window by Chernoff
        // instead of moving it exactly, and its cost is the window's length: the window
        // is ten tilted standard deviations either side of the tilted mean (at the tilt
        // actually used), widened to hold the target ε (δ(ε) below the window stays an
        // upper bound, only a looser one)
        let (a_est, b_est, lam_star) = match self.engine {
            Engine::RepeatedSquaring => (a_est, b_est, lam_star),
            Engine::OneShot => {
                // the window at tilt λ: Chernoff on the tilted coarse PLD, tilted mass
                // above T and below B at most e^{−30} of the total; θ ↦ (K(λ ± θ) − K(λ)
                // + 30)/θ is quasi-convex on θ > 0 (K convex: the derivative's sign is
                // that of θg′ − g − 30, nondecreasing), so a golden-section search over
                // ln θ finds its minimum
                let (th_lo, th_hi) = (lams[0], lams[lams.len() - 1]);
                let want_lo = match target {
                    Target::Delta(_) => e_est - 2.0 - 0.05 * e_est.abs(),
                    Target::Epsilon(e) => e - 1.0,
                };
                let win_at = |lam: f64| -> (f64, f64) {
                    let t0 = t_of(lam);
                    let (top, bottom) = rayon::join(
                        || golden_min(th_lo, th_hi, &|th| (t_of(lam + th) - t0 + 30.0) / th),
                        || -golden_min(th_lo, th_hi, &|th| (t_of(lam - th) - t0 + 30.0) / th),
                    );
                    // and the untilted tail above the top at most δ·1e−10 (b_est)
                    let top = if top.is_finite() {
                        (top + 1.0).max(b_est)
                    } else {
                        b_est
                    };
                    (bottom.min(want_lo).max(a_est).min(top - 2.0), top)
                };
                // the tilt used is the largest λ ≤ λ* whose window W(λ) keeps the tilt
                // within the f64 range over it, λ ≤ 600/|W(λ)|: the window must hold
                // the tilted mass of the tilt the engine applies (a window sized for a
                // smaller tilt lets the larger tilt's mass alias onto the optimistic
                // side). |W(λ)| grows with λ (the tilted upper tail moves up), so the
                // condition holds below a threshold, found by bisection
                let fits = |lam: f64, w: (f64, f64)| lam <= 600.0 / (w.1 - w.0);
                let mut hi = lam_star;
                let mut win = win_at(hi);
                let (a, b, lam) = if fits(hi, win) {
                    (win.0, win.1, hi)
                } else {
                    let mut lo = lam_star.min(600.0 / (b_est - a_est));
                    win = win_at(lo);
                    for _ in 0..30 {
                        if fits(lo, win) {
                            break;
                        }
                        hi = lo;
                        lo *= 0.5;
                        win = win_at(lo);
                    }
                    for _ in 0..12 {
                        let mid = 0.5 * (lo + hi);
                        let w = win_at(mid);
                        if fits(mid, w) {
                            (lo, win) = (mid, w);
                        } else {
                            hi = mid;
                        }
                    }
                    (win.0, win.1, lo)
                };
                // a smaller tilt when it shortens the window by a quarter or more at a
                // cost of at most e^{TILT_SLACK} in the tilted mass around the target,
                // `K(λ) − λε + ln(1/δ) ≤ TILT_SLACK` (0 at the Chernoff tilt): a
                // rare component with a heavy tail (a truncated batch's replace-one
                // part) makes the tilted mass at λ* reach far above the target
                let slack = |l: f64| match target {
                    Target::Delta(d) => t_of(l) - l * e_est - d.ln(),
                    Target::Epsilon(e) => t_of(l) - l * e - d_t.ln(),
                };
                let mut best = (a, b, lam);
                let mut l = lam;
                for _ in 0..8 {
                    l *= std::f64::consts::FRAC_1_SQRT_2;
                    if slack(l) > TILT_SLACK {
                        break;
                    }
                    let w = win_at(l);
                    if fits(l, w) && w.1 - w.0 < best.1 - best.0 {
                        best = (w.0, w.1, l);
                    }
                }
                if best.1 - best.0 < 0.75 * (b - a) {
                    best
                } else {
                    (a, b, lam)
                }
            }
        };
        Window {
            a: a_est,
            b: b_est,
            a_floor,
            lam_star,
        }
    }

    /// The grid half of a plan at `step`: for [`Step::Exp`] the window of `w` at
    /// `h = 2^{−e}`; for [`Step::Points`] the finest step `h` of
    /// [`Grid::step_at_least`]'s ladder (six significant bits) whose window fits the
    /// points given, so that the transform's length, a power of two, is spent on
    /// resolution rather than on padding (the discretization width is `O(h²)`).
    fn layout(&self, w: &Window, step: Step) -> Result<(Grid, f64, i64)> {
        match step {
            Step::Exp(e) => self.layout_at(w, 2f64.powi(-e)),
            Step::At(h) => self.layout_exact(w, h),
            Step::Points(m) => {
                // the points the window needs at step h: about L/h, L the longer of the
                // window and the single steps' span (see `layout_at`)
                let need_top = self.single_steps_top(w.b);
                let len = (w.b - w.a).max(need_top - w.a_floor);
                let mut h = self.step_at_least((len / (m as f64 - 4.0)).max(f64::MIN_POSITIVE));
                for _ in 0..16 {
                    let plan = self.layout_exact(w, h)?;
                    if plan.0.n <= m {
                        return Ok(plan);
                    }
                    h = self.step_at_least(h * (1.0 + 1.0 / 32.0));
                }
                self.layout_exact(w, h)
            }
        }
    }

    /// The planner's step at least `x`: the value of [`Grid::step_at_least`]'s ladder, or
    /// the power of two at or above `x` when that grid holds every atom of the
    /// composition exactly ([`Composition::atom_grid_exp`]): an atom between grid points
    /// is rounded down by up to `h` on the optimistic side, an error that grows like
    /// `k·h` over `k` steps instead of the `O(k·h²)` of the continuous parts.
    ///
    /// With atoms off every dyadic grid (Laplace with a non-dyadic `Δ/b`, randomized
    /// response, subsampled Laplace) whose differences are commensurate
    /// ([`Composition::lattice_unit`] `u`), the step is the lattice step
    /// [`Grid::lattice_step`]`(u, x)`: `n·h` just above `u`, so that once the engine has
    /// shifted each component's highest atom onto a grid point ([`Composition::shifts`])
    /// every other atom lies just above one, and both sides of the discretization are
    /// exact on the atoms up to that gap.
    ///
    /// Otherwise the engine shifts each such component so that its heaviest atom `ℓ*`
    /// lies on the grid ([`Composition::shifts`]), and the planner takes the step among
    /// the eight ladder values from `x` up (at most 28 % coarser) that minimizes
    /// `Σ weight·((ℓ − ℓ*) mod h) + K h²/2` — the other atoms' rounding on the optimistic
    /// side plus the continuous parts' width model for `K` steps. A search, not a bound:
    /// every step gives a certified answer.
    pub(crate) fn step_at_least(&self, x: f64) -> f64 {
        let ladder = Grid::step_at_least(x);
        if let Some(e0) = self.atom_grid_exp() {
            let p2 = 2f64.powi(ladder.log2().ceil() as i32);
            if p2 <= 2f64.powi(-e0) {
                return p2;
            }
        }
        if let Some(h) = self.lattice_unit().and_then(|u| Grid::lattice_step(u, x)) {
            return h;
        }
        if self.align.is_empty() {
            return ladder;
        }
        let k = self.total_count() as f64;
        let score = |h: f64| -> f64 {
            self.align
                .iter()
                .map(|&(heavy, l, w)| {
                    let d = l - heavy;
                    w * (d - (d / h).floor() * h).clamp(0.0, h)
                })
                .sum::<f64>()
                + 0.5 * k * h * h
        };
        let (mut best, mut h) = ((score(ladder), ladder), ladder);
        for _ in 0..7 {
            h = Grid::step_at_least(h * (1.0 + 1.0 / 64.0));
            let s = score(h);
            if s < best.0 {
                best = (s, h);
            }
        }
        best.1
    }

    /// A common upper bound `u` of the atom units of the components with atoms
    /// ([`Composition::units`](Self)): each unit within relative `1e-9` of an integer
    /// multiple `c ≤ 4096` of the smallest, `u = max uᵢ/cᵢ` (rounded up); `None`
    /// without such components, or when some component's atoms or the units are not
    /// commensurate.
    pub(crate) fn lattice_unit(&self) -> Option<f64> {
        if self.units.contains(&0.0) {
            return None;
        }
        let finite: Vec<f64> = self
            .units
            .iter()
            .copied()
            .filter(|u| u.is_finite())
            .collect();
        mechanism::common_unit(&finite).filter(|u| u.is_finite())
    }

    /// The least `e₀ ≤ 40` such that every grid `h = 2^{−e}` with `e ≥ e₀` holds every
    /// atom of a mechanism component exactly (each atom's loss an integer multiple of a
    /// dyadic unit, [`mechanism::Lattice::Unit`]); `None` without such atoms or when
    /// some atom lies elsewhere (curves, irregular mechanisms).
    pub fn atom_grid_exp(&self) -> Option<i32> {
        let mut e0: Option<i32> = None;
        for (c, _) in &self.parts {
            match c.0.atom_lattice() {
                mechanism::Lattice::NoAtoms => {}
                mechanism::Lattice::Irregular => return None,
                mechanism::Lattice::Unit(u) => {
                    // u = odd·2^{−s}: the least s with u·2^s an integer
                    let s = (0..=40).find(|&s| {
                        let v = u * 2f64.powi(s);
                        v.fract() == 0.0
                    })?;
                    e0 = Some(e0.map_or(s, |e| e.max(s)));
                }
            }
        }
        e0
    }

    /// The top the one-shot engine's single steps must reach (see
    /// [`Composition::layout_at`]): the largest bounded loss of a component, at most `b`
    /// (−∞ when every component's losses are unbounded).
    fn single_steps_top(&self, b: f64) -> f64 {
        self.parts
            .iter()
            .filter_map(|(c, _)| c.loss_sup())
            .fold(f64::NEG_INFINITY, f64::max)
            .min(b)
    }

    /// [`Composition::layout_at`] at a ladder or lattice step `h`, or at the power of two
    /// above it when the window's indices reach [`pld::exact_index_of`]`(h)`: there the
    /// grid points `j·h` and the exact index corrections of [`Grid::floor_index`] stop
    /// being exact, while a power of two keeps `j·h` exact up to `2⁵³`.
    fn layout_exact(&self, w: &Window, h: f64) -> Result<(Grid, f64, i64)> {
        let plan = self.layout_at(w, h)?;
        let (g, _, single_lo) = plan;
        let reach =
            g.lo.unsigned_abs()
                .max((g.lo + g.n as i64).unsigned_abs())
                .max(single_lo.unsigned_abs())
                .max(single_lo.saturating_add(g.n as i64).unsigned_abs()) as f64;
        if reach < pld::exact_index_of(h) {
            Ok(plan)
        } else {
            self.layout_at(w, 2f64.powi(h.log2().ceil() as i32))
        }
    }

    /// [`Composition::layout`] at the grid step `h` (a value of [`Grid`]'s ladder): the
    /// window of `w`, the tilt kept within the f64 range over it, and the grid index
    /// where the single steps' window starts (the one-shot engine's; the squaring
    /// engine uses the window itself); refused when it needs more points than the
    /// engine's limit.
    fn layout_at(&self, w: &Window, h: f64) -> Result<(Grid, f64, i64)> {
        let (a_est, b_est, a_floor, lam_star) = (w.a, w.b, w.a_floor, w.lam_star);
        let lo = (a_est / h).floor() as i64;
        let hi = (b_est / h).ceil() as i64;
        // the window in f64 first: a huge target (ε = 1e308) or window must be refused,
        // not overflow the integer grid (found by the CLI fuzzer)
        let n_f = (b_est / h).ceil() - (a_est / h).floor() + 1.0;
        let max_points = match self.engine {
            Engine::OneShot => MAX_POINTS_ONE_SHOT,
            Engine::RepeatedSquaring => MAX_POINTS,
        };
        let n = if n_f.is_finite() && n_f <= max_points as f64 {
            (hi - lo + 1) as usize
        } else {
            usize::MAX
        };
        if n > max_points && (n_f.is_nan() || n_f >= 1e12) {
            return Err(Error::NotCertified {
                what: "composition".into(),
                reason: format!(
                    "the privacy-loss window [{a_est:.3e}, {b_est:.3e}] the query needs (about {n_f:.1e} grid points) is far beyond the engine's {max_points} points"
                ),
            });
        }
        if n > max_points {
            return Err(Error::NotCertified {
                what: "composition".into(),
                reason: format!(
                    "window [{a_est:.1}, {b_est:.1}] at h = {h:e} needs {n_f:.0} points > {max_points}; use a coarser grid"
                ),
            });
        }
        // keep the tilt within the f64 range over the window
        let lambda = lam_star.min(600.0 / (b_est - a_est));
        // the one-shot engine's cyclic window is a power of two: the extra points go
        // below the window as far as the squaring engine's bottom would reach (more ε
        // answered tightly), the rest above it (which only shrinks the aliasing bound)
        //
        // The one-shot engine's single steps share the window's length and start at the
        // bottom `a_floor` would give them; a component whose losses are bounded above
        // (the add direction of a Poisson subsampled Gaussian: most of its mass sits just
        // below ln(1/(1−p))) must have its whole support on that window, or its
        // pessimistic mass above the single steps' top goes to +∞: the window is
        // lengthened to hold `[a_floor, min(sup, b)]`.
        let single_lo = (a_floor / h).floor() as i64;
        let (lo, n, single_lo) = match self.engine {
            Engine::OneShot => {
                let need_top = self.single_steps_top(b_est);
                let n_single = if need_top.is_finite() {
                    let span = (need_top / h).ceil() - single_lo as f64 + 2.0;
                    if span.is_finite() && span <= max_points as f64 {
                        span as usize
                    } else {
                        n
                    }
                } else {
                    n
                };
                let m = n.max(n_single).next_power_of_two();
                let room = ((lo as f64 - a_floor / h).max(0.0) as usize).min(m - n);
                // the single steps' window starts at a_floor's point, but no lower than
                // half a window below 0
                (lo - room as i64, m, single_lo.max(-(m as i64) / 2))
            }
            Engine::RepeatedSquaring => (lo, n, single_lo),
        };
        Ok((Grid { h, lo, n }, lambda, single_lo))
    }
}

/// The windows of `orders` (one or two compositions, [`Composition::orders`]), the two
/// orders' searches on one core each.
fn windows_of(orders: &[Composition], target: Target) -> Vec<Window> {
    match orders {
        [a, b] => {
            let (wa, wb) = rayon::join(|| a.window(target), || b.window(target));
            vec![wa, wb]
        }
        _ => orders.iter().map(|c| c.window(target)).collect(),
    }
}

/// How the grid step of a composition is chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Step {
    /// `h = 2^{−e}`.
    Exp(i32),
    /// The finest step of [`Grid::step_at_least`]'s ladder whose window fits this many
    /// points per order (the one-shot engine's transform length, a power of two).
    Points(usize),
    /// This step (a value of [`Grid::step_at_least`]'s ladder).
    At(f64),
}

/// The grid-independent part of a plan (see [`Composition::window`]): the privacy-loss
/// window `[a, b]`, the squaring engine's bottom `a_floor` and the tilt λ*.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    a: f64,
    b: f64,
    a_floor: f64,
    lam_star: f64,
}

/// One order of a [`Staged`] composition: the order, its plan (grid, tilt, single
/// steps' bottom) and its single steps (`None` for the squaring engine).
type StagedOrder = (Composition, (Grid, f64, i64), Option<Vec<(Dist, u64)>>);

/// A composition laid out on its grid, with the one-shot engine's single steps
/// discretized but not yet composed ([`Composition::stage`]).
pub(crate) struct Staged {
    /// Each order, its plan and single steps.
    orders: Vec<StagedOrder>,
    /// Each order's loss shift (see [`Composition::shifts`]).
    shift: Vec<(f64, f64)>,
}

impl Staged {
    /// The finest grid step of the orders.
    pub(crate) fn step(&self) -> f64 {
        self.orders
            .iter()
            .map(|(_, (g, _, _), _)| g.h)
            .fold(f64::INFINITY, f64::min)
    }

    /// The most points of one order.
    pub(crate) fn points(&self) -> u64 {
        self.orders
            .iter()
            .map(|(_, (g, _, _), _)| g.n as u64)
            .max()
            .unwrap_or(0)
    }

    /// The width the composition is expected to certify, from its single steps alone:
    /// the two sides of every single step are the discretizations of one mechanism
    /// from above and below, and `k` steps of a side whose cumulant generating function
    /// at the tilt λ is larger by `ΔK = K⁺(λ) − K⁻(λ)` raise the composed `δ(ε) ≈
    /// e^{K(λ) − λε}` by the factor `e^{kΔK}`, i.e. move `ε(δ)` by `kΔK/λ`. So the
    /// width is about `max over orders Σᵢ kᵢΔKᵢ/λ` for an ε query and `e^{Σᵢ kᵢΔKᵢ} − 1`
    /// (relative) for a δ query (`K(λ) = s + ln Σ_j c_j` of a tilted side). `None`
    /// for the squaring engine. A search, not a bound: the planner uses it to choose
    /// the grid, and the composition certifies whatever width it gets (within a few
    /// per cent of this estimate in the jobs measured, coarse grids included).
    pub(crate) fn predicted_width(&self, target: Target) -> Option<f64> {
        let mut worst: f64 = 0.0;
        for (_, (_, lambda, _), singles) in &self.orders {
            let singles = singles.as_ref()?;
            let k_of = |s: &engine::Side| s.ln_scale + s.c.iter().sum::<f64>().ln();
            let dk: f64 = singles
                .iter()
                .map(|(d, k)| *k as f64 * (k_of(&d.pess) - k_of(&d.opt)))
                .sum();
            let w = match target {
                Target::Delta(_) => dk / lambda,
                Target::Epsilon(_) => dk.exp_m1(),
            };
            if w.is_nan() {
                return None;
            }
            worst = worst.max(w);
        }
        Some(worst)
    }

    /// The orders composed (each on one core) and the pair's answer object.
    pub(crate) fn compose(self) -> Composed {
        let Staged { orders, shift } = self;
        let (orders, mut info): (Vec<Prepared>, Vec<GridInfo>) = orders
            .into_par_iter()
            .map(|(c, plan, singles)| c.compose_one(plan, singles))
            .unzip();
        for (g, s) in info.iter_mut().zip(&shift) {
            // the window on the true loss axis
            g.bottom -= s.1;
            g.top -= s.0;
        }
        Composed {
            orders,
            info,
            shift,
        }
    }
}

/// Minimum of a quasi-convex `f` on `[a, b]` (`0 < a < b`) by a golden-section search
/// over `ln θ` (20 steps: a relative bracket of `(b/a)^{0.618²⁰}`), the smaller of the
/// values seen; non-finite values count as `+∞`. A search, not a bound: the callers
/// only choose a window with it.
fn golden_min(a: f64, b: f64, f: &dyn Fn(f64) -> f64) -> f64 {
    crate::precision::search::golden_section_min(|u| f(u.exp()), a.ln(), b.ln(), 20).value
}

impl Composed {
    /// Certified δ(ε) (maximum over the orders of the pair).
    ///
    /// # Errors
    /// [`Error::Parameter`] if ε is not finite.
    pub fn delta(&self, eps: f64) -> Result<Interval> {
        if !eps.is_finite() {
            return Err(Error::param("epsilon", eps, "must be finite"));
        }
        let mut iv = Interval {
            lower: 0.0,
            upper: 0.0,
        };
        for i in 0..self.orders.len() {
            let (l, u) = self.order_bounds(i, eps);
            iv.lower = iv.lower.max(l);
            iv.upper = iv.upper.max(u);
        }
        Ok(iv)
    }

    /// `(lower, upper)` of δ(ε) of order `i`: the engine's `δ'` at `ε + C` (see
    /// [`Composed::shift`]), read at the end of `C`'s enclosure that is safe for each
    /// bound (`δ'` decreases: the upper bound at `ε + C_lo` rounded down, the lower at
    /// `ε + C_hi` rounded up).
    fn order_bounds(&self, i: usize, eps: f64) -> (f64, f64) {
        let o = &self.orders[i];
        let (c_lo, c_hi) = self.shift.get(i).copied().unwrap_or((0.0, 0.0));
        if c_hi <= 0.0 {
            return o.delta_bounds(eps);
        }
        let (_, u) = o.delta_bounds(next_down_f64(eps + c_lo));
        let (l, _) = o.delta_bounds(next_up_f64(eps + c_hi));
        (l.min(u), u)
    }

    /// Certified δ(ε) of one order (0: `f = ⊗fᵢ`, 1: `f⁻¹`, if computed).
    pub fn delta_order(&self, order: usize, eps: f64) -> Option<Interval> {
        (order < self.orders.len()).then(|| {
            let (l, u) = self.order_bounds(order, eps);
            Interval { lower: l, upper: u }
        })
    }

    /// Number of orders computed (1 for symmetric compositions, else 2).
    pub fn orders(&self) -> usize {
        self.orders.len()
    }

    /// Certified ε(δ) = the smallest ε ≥ 0 with δ(ε) ≤ δ: `upper` has certified
    /// `δ_up(upper) ≤ δ`, `lower` has certified `δ_low(lower) > δ` (or is 0).
    ///
    /// # Errors
    /// [`Error::Parameter`] unless `0 < δ < 1`; [`Error::NotCertified`] below
    /// [`DELTA_FLOOR`] or if the pessimistic mass at +∞ / window top cannot reach δ.
    pub fn epsilon(&self, delta: f64) -> Result<Interval> {
        check_delta(delta)?;
        let up = |e: f64| self.delta(e).map(|i| i.upper).unwrap_or(1.0);
        let lo = |e: f64| self.delta(e).map(|i| i.lower).unwrap_or(0.0);
        // every order's δ bounds hold above its own window top too (the truncated mass
        // above it is in its mass at +∞), so the search runs up to the highest top: an
        // order whose losses are bounded (the add direction of a Poisson subsampled
        // Gaussian, at most k·ln(1/(1−p))) has a low window, and its top says nothing
        // about where the other order's δ reaches the target
        let top = self
            .info
            .iter()
            .map(|g| g.top)
            .fold(f64::NEG_INFINITY, f64::max);
        let upper = if up(0.0) <= delta {
            0.0
        } else {
            if up(top) > delta {
                return Err(Error::NotCertified {
                    what: "composed ε(δ)".into(),
                    reason: format!(
                        "certified δ at the window top ε = {top:.3} is {:.3e} > δ (truncation mass or FFT error too large)",
                        up(top)
                    ),
                });
            }
            let (mut a, mut b) = (0.0, top);
            for _ in 0..200 {
                let m = 0.5 * (a + b);
                if up(m) <= delta {
                    b = m;
                } else {
                    a = m;
                }
                if b - a <= 1e-12 * b.max(1.0) {
                    break;
                }
            }
            b
        };
        // δ_low carries an error term that grows away from the tilt point, so it is not
        // monotone as computed: find a certified point below `upper` by stepping down,
        // then bisect (any ε with δ_low(ε) > δ certifies ε(δ) > ε).
        let mut lower = 0.0;
        let mut step = 1e-6 * upper.max(1.0);
        let mut a = None;
        while step < 2.0 * upper.max(1.0) {
            let x = upper - step;
            if x <= 0.0 {
                break;
            }
            if lo(x) > delta {
                a = Some(x);
                break;
            }
            step *= 2.0;
        }
        if let Some(mut a) = a {
            let mut b = upper;
            for _ in 0..200 {
                let m = 0.5 * (a + b);
                if lo(m) > delta {
                    a = m;
                } else {
                    b = m;
                }
                if b - a <= 1e-12 * b.max(1.0) {
                    break;
                }
            }
            lower = a;
        }
        Ok(Interval {
            lower: lower.min(upper),
            upper,
        })
    }

    /// The composed tradeoff curve `f = ⊗fᵢ` (order 1) as a [`PiecewiseLinear`] that lies
    /// **below** the truth: the upper envelope of the lines `1 − δ_up(ε) − e^ε α`
    /// (`f = sup_ε (1 − δ(ε) − e^ε α)`, DRS22 Prop 2.12) over `points` values of ε in
    /// `[−top, top]` ([`crate::tradeoff::tangent_epsilons`]: half evenly in the angle of
    /// the line, half evenly in ε), with vertices rounded down
    /// ([`PiecewiseLinear::from_lines`]).
    ///
    /// # Errors
    /// [`Error::Parameter`] if `points < 2`.
    pub fn curve(&self, points: usize) -> Result<PiecewiseLinear> {
        if points < 2 {
            return Err(Error::param("points", points, "need at least 2"));
        }
        let emax = self.info.first().map_or(1.0, |g| g.top).max(1.0);
        PiecewiseLinear::from_privacy_profile(
            crate::tradeoff::tangent_epsilons(emax, points)
                .into_iter()
                .map(|eps| (eps, self.order_bounds(0, eps).1)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precision::{Enclosure, Precision};
    use crate::tradeoff::{Gaussian, SubsampledGaussian, Tradeoff, check_tradeoff_laws};

    /// A symmetric composition (one order, C_p) and a Poisson one (two orders).
    fn one_and_two_orders() -> (Composition, Composition) {
        let sym = Composition::new()
            .with(Component::subsampled(0.05, 1.0).unwrap(), 300)
            .unwrap();
        let asym = Composition::new()
            .with(Component::poisson(0.02, 0.8).unwrap(), 500)
            .unwrap()
            .with(Component::poisson(0.05, 0.5).unwrap(), 40)
            .unwrap();
        (sym, asym)
    }

    /// The planner's reuse of the windows (`compose_planned` with `windows`) is the
    /// plan `compose` computes itself: the same grids, tilts and certified answers, bit
    /// for bit, for a symmetric and an asymmetric (two-order) composition, ε and δ
    /// targets, at two grids.
    #[test]
    fn reused_windows_are_the_plan_compose_computes() {
        let (sym, asym) = one_and_two_orders();
        for c in [&sym, &asym] {
            for target in [Target::Delta(1e-6), Target::Epsilon(1.5)] {
                let w = c.windows(target);
                assert_eq!(w.len(), if c.is_symmetric() { 1 } else { 2 });
                for e in [9, 11] {
                    let a = c.compose(target, Some(e)).unwrap();
                    let b = c.compose_planned(target, Step::Exp(e), Some(&w)).unwrap();
                    assert_eq!(a.info.len(), b.info.len());
                    for (x, y) in a.info.iter().zip(&b.info) {
                        assert_eq!((x.bottom, x.top, x.points), (y.bottom, y.top, y.points));
                        assert_eq!(x.lambda.to_bits(), y.lambda.to_bits());
                    }
                    let (ia, ib) = match target {
                        Target::Delta(d) => (a.epsilon(d).unwrap(), b.epsilon(d).unwrap()),
                        Target::Epsilon(x) => (a.delta(x).unwrap(), b.delta(x).unwrap()),
                    };
                    assert_eq!(ia.lower.to_bits(), ib.lower.to_bits());
                    assert_eq!(ia.upper.to_bits(), ib.upper.to_bits());
                }
            }
        }
        // windows of the wrong count are not used (computed afresh)
        let w = sym.windows(Target::Delta(1e-6));
        let a = asym.compose(Target::Delta(1e-6), Some(9)).unwrap();
        let b = asym
            .compose_planned(Target::Delta(1e-6), Step::Exp(9), Some(&w))
            .unwrap();
        assert_eq!(
            a.epsilon(1e-6).unwrap().upper.to_bits(),
            b.epsilon(1e-6).unwrap().upper.to_bits()
        );
    }

    /// The width the staged single steps predict (`Staged::predicted_width`) is
    /// proportional to the width the composition then certifies, with a factor that
    /// does not move with the grid (what the planner relies on to choose the length)
    /// and lies within `[1/5, 2]` (0.99–1.04 at 10⁵ and 10⁶ steps; down to 0.26 for
    /// δ queries of a few hundred steps, which the planner's measured refinement then
    /// corrects). ε and δ queries, one and two orders, grids of 2¹⁰ to 2¹⁶ points.
    #[test]
    fn staged_single_steps_predict_the_certified_width() {
        let (sym, asym) = one_and_two_orders();
        for c in [&sym, &asym] {
            for target in [Target::Delta(1e-6), Target::Epsilon(1.5)] {
                let w = c.windows(target);
                let ratios: Vec<f64> = [1usize << 10, 1 << 12, 1 << 14, 1 << 16]
                    .into_iter()
                    .map(|m| {
                        let staged = c.stage(target, Step::Points(m), Some(&w)).unwrap();
                        let predicted = staged.predicted_width(target).unwrap();
                        let r = staged.compose();
                        let width = match target {
                            Target::Delta(d) => r.epsilon(d).unwrap().width(),
                            Target::Epsilon(x) => {
                                let iv = r.delta(x).unwrap();
                                iv.width() / iv.upper
                            }
                        };
                        predicted / width
                    })
                    .collect();
                let (lo, hi) = ratios
                    .iter()
                    .fold((f64::INFINITY, 0f64), |(a, b), &r| (a.min(r), b.max(r)));
                assert!(
                    lo >= 0.2 && hi <= 2.0 && hi / lo <= 1.8,
                    "{target:?}: predicted/certified {ratios:?}"
                );
            }
        }
    }

    /// The enclosure of δ(ε) of μ-GDP at 128 bits, as `(lower, upper)`.
    pub(super) fn gdp_delta(mu: f64, eps: f64) -> (f64, f64) {
        let c = Gaussian::delta(
            &Enclosure::from_f64(128, mu),
            &Enclosure::from_f64(128, eps),
            Precision::Bits(128),
        )
        .unwrap();
        (c.enclosure.lower_f64(), c.enclosure.upper_f64())
    }

    #[test]
    fn gaussian_k_fold_encloses_closed_form() {
        let c = Composition::new()
            .with(Component::gaussian(0.3).unwrap(), 25)
            .unwrap();
        let r = c.compose(Target::Epsilon(2.0), Some(10)).unwrap();
        for eps in [0.5, 1.0, 2.0, 3.0, 5.0] {
            let iv = r.delta(eps).unwrap();
            let (tl, tu) = gdp_delta(1.5, eps);
            assert!(
                iv.lower <= tu && tl <= iv.upper,
                "eps={eps}: {iv:?} vs {tl}"
            );
            assert!(iv.width() < 1e-3 * tu.max(1e-6) + 1e-9, "eps={eps}: {iv:?}");
        }
    }

    /// A step of the planner's ladder that is not a power of two (h = 37·2⁻¹⁵) encloses
    /// the closed form of G(0.3)^{⊗25} = G(1.5), and the Poisson pair's ε(δ) on it
    /// overlaps the one at the power-of-two grid.
    #[test]
    fn ladder_step_encloses_closed_form() {
        let h = Grid::step_at_least(37.0 * 2f64.powi(-15));
        assert_eq!(h.to_bits(), (37.0 * 2f64.powi(-15)).to_bits());
        let c = Composition::new()
            .with(Component::gaussian(0.3).unwrap(), 25)
            .unwrap();
        let w = c.windows(Target::Epsilon(2.0));
        let r = c
            .compose_planned(Target::Epsilon(2.0), Step::At(h), Some(&w))
            .unwrap();
        assert_eq!(r.info[0].h.to_bits(), h.to_bits());
        for eps in [0.5, 1.0, 2.0, 3.0, 5.0] {
            let iv = r.delta(eps).unwrap();
            let (tl, tu) = gdp_delta(1.5, eps);
            assert!(
                iv.lower <= tu && tl <= iv.upper,
                "eps={eps}: {iv:?} vs {tl}"
            );
        }
        let p = Composition::new()
            .with(Component::poisson(0.05, 0.8).unwrap(), 300)
            .unwrap();
        let t = Target::Delta(1e-6);
        let w = p.windows(t);
        let a = p.compose_planned(t, Step::At(Grid::step_at_least(3e-3)), Some(&w));
        let b = p.compose_planned(t, Step::Exp(9), Some(&w));
        let (a, b) = (
            a.unwrap().epsilon(1e-6).unwrap(),
            b.unwrap().epsilon(1e-6).unwrap(),
        );
        assert!(a.lower <= b.upper && b.lower <= a.upper, "{a:?} vs {b:?}");
        // and the planner's fitted step uses the transform's length
        let f = p
            .compose_planned(t, Step::Points(1 << 12), Some(&w))
            .unwrap();
        assert!(f.info.iter().all(|g| g.points <= 1 << 12));
        let e = f.epsilon(1e-6).unwrap();
        assert!(e.lower <= b.upper && b.lower <= e.upper, "{e:?} vs {b:?}");
    }

    /// A kept PLD answers only its own composition at its own tolerance: another
    /// composition gets its own answer (equal to a fresh one), and a kept answer at a
    /// new target encloses the fresh one's truth (they overlap).
    #[test]
    fn reuse_answers_only_its_own_composition() {
        let a = Composition::new()
            .with(Component::poisson(0.05, 0.8).unwrap(), 200)
            .unwrap();
        let b = Composition::new()
            .with(Component::poisson(0.05, 0.8).unwrap(), 201)
            .unwrap();
        let mut reuse = Reuse::default();
        a.answer_reusing(Target::Delta(1e-6), 1e-3, &mut reuse)
            .unwrap();
        assert!(!reuse.is_empty());
        let kept = a
            .answer_reusing(Target::Delta(2e-6), 1e-3, &mut reuse)
            .unwrap();
        let fresh = a.answer(Target::Delta(2e-6), 1e-3, None).unwrap();
        assert!(kept.width <= 1e-3);
        assert!(
            kept.interval.lower <= fresh.interval.upper
                && fresh.interval.lower <= kept.interval.upper
        );
        let other = b
            .answer_reusing(Target::Delta(2e-6), 1e-3, &mut reuse)
            .unwrap();
        let other_fresh = b.answer(Target::Delta(2e-6), 1e-3, None).unwrap();
        assert_eq!(
            (
                other.interval.lower.to_bits(),
                other.interval.upper.to_bits()
            ),
            (
                other_fresh.interval.lower.to_bits(),
                other_fresh.interval.upper.to_bits()
            )
        );
    }

    #[test]
    fn one_subsampled_step_matches_closed_form() {
        let (p, mu) = (0.2, 1.5);
        let c = Composition::new()
            .with(Component::subsampled(p, mu).unwrap(), 1)
            .unwrap();
        let r = c.compose(Target::Epsilon(0.5), Some(12)).unwrap();
        let sg = SubsampledGaussian::new(p, mu).unwrap();
        for eps in [0.0, 0.1, 0.3, 0.6, 1.0] {
            let iv = r.delta(eps).unwrap();
            let d = sg.delta(eps, 128).unwrap().enclosure;
            assert!(
                iv.lower <= d.upper_f64() && d.lower_f64() <= iv.upper,
                "eps={eps}: {iv:?} vs {d:?}"
            );
            assert!(iv.width() < 1e-4, "eps={eps}: {iv:?}");
        }
    }

    #[test]
    fn curve_lies_below_truth() {
        let c = Composition::new()
            .with(Component::gaussian(0.5).unwrap(), 4)
            .unwrap();
        let r = c.compose(Target::Epsilon(1.0), Some(10)).unwrap();
        let f = r.curve(200).unwrap();
        check_tradeoff_laws(&f, 200).unwrap();
        let g = Gaussian::new(1.0).unwrap();
        for i in 1..100 {
            let a = i as f64 / 100.0;
            assert!(f.eval(a) <= g.eval(a) + 1e-12, "a={a}");
            assert!(
                f.eval(a) >= g.eval(a) - 2e-2,
                "a={a}: {} vs {}",
                f.eval(a),
                g.eval(a)
            );
        }
    }

    #[test]
    fn rejects_bad_input() {
        assert!(Component::subsampled(1.5, 1.0).is_err());
        assert!(Component::gaussian(-1.0).is_err());
        assert!(
            Composition::new()
                .with(Component::gaussian(1.0).unwrap(), 0)
                .is_err()
        );
        assert!(
            Composition::new()
                .compose(Target::Delta(1e-5), None)
                .is_err()
        );
        let c = Composition::new()
            .with(Component::gaussian(1.0).unwrap(), 1)
            .unwrap();
        assert!(matches!(
            c.compose_for_delta(1e-120, None),
            Err(Error::NotCertified { .. })
        ));
        assert!(c.compose(Target::Delta(f64::NAN), None).is_err());
    }
}
