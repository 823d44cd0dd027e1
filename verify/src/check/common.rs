//! The validator's shared vocabulary: the deterministic sampler ([`SplitMix64`],
//! [`salted`]), labelled exact instances, Rényi cases and the grids every check uses.
use shiftdp::exact::Instance;

/// A tiny deterministic PRNG (splitmix64, S. Vigna): reproducible samples without a
/// dependency.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` (53 random bits).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform integer in `lo..=hi` (`lo ≤ hi`).
    pub fn int(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// A decimal string with three decimals, uniform in `[lo, hi]` (at least `lo`
    /// after rounding, so positive ranges stay positive).
    pub fn dec(&mut self, lo: f64, hi: f64) -> String {
        let x = lo + (hi - lo) * self.unit();
        let s = format!("{x:.3}");
        if s.parse::<f64>().map_or(true, |v| v < lo) {
            format!("{lo}")
        } else {
            s
        }
    }
}

/// The seed of one labelled stream: `seed` mixed with the label's FNV-1a hash, so each
/// bound (or check) draws the same points whether it runs alone or with others.
pub fn salted(seed: u64, label: &str) -> u64 {
    seed ^ label.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A boxed instance with its label.
pub type LabelledInstance = (String, Box<dyn Instance>);

/// The ε grid of the δ-form checks.
pub const EPS_GRID: [f64; 7] = [0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0];
/// Rényi orders of the GDP checks.
pub const ORDERS: [f64; 2] = [2.0, 8.0];
/// Rényi orders of the Rényi-DP entries (CYS21, YS22, AT22).
pub const RENYI_ORDERS: [f64; 4] = [2.0, 4.0, 8.0, 16.0];

/// One case of a Rényi entry: an exact instance and the bound's Rényi curve for it.
pub struct RenyiCase {
    /// Description of the instance.
    pub label: String,
    /// The instance.
    pub instance: Box<dyn Instance>,
    /// Points `(λ, ε(λ))` of the bound: upper ends for an upper bound, lower ends for a
    /// lower bound.
    pub curve: Vec<(f64, f64)>,
    /// Whether the curve is a *lower* bound (the instance must reach it) rather than an
    /// upper bound (it must dominate the instance).
    pub lower: bool,
}

impl std::fmt::Debug for RenyiCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenyiCase")
            .field("label", &self.label)
            .field("curve", &self.curve)
            .field("lower", &self.lower)
            .finish()
    }
}
