//! Rényi differential privacy: curves ε(α), conversions to (ε, δ)-DP, the sampled
//! Gaussian mechanism, and the Rényi-DP analyses of Chourasia–Ye–Shokri (2021) and
//! Ye–Shokri (2022).
//!
//! * [`curve`]: a Rényi curve α ↦ ε(α) (closed form ρα, tabulated, or computed);
//! * [`conversion`]: the four RDP → (ε, δ) conversions of docs/conventions.md §3, optimized
//!   over α in f64 and certified as an [`Enclosure`](crate::precision::Enclosure) upper
//!   bound;
//! * [`events`]: certified curves of zCDP, tree aggregation, repeat-and-select and
//!   the Laplace mechanism, and composition of curves;
//! * [`sampled_gaussian`]: D_α(N(0,σ²) ‖ (1−q)N(0,σ²) + qN(1,σ²)) and its reverse at
//!   any real α > 1, by certified quadrature, plus the binomial sum for integer α;
//! * [`table1`]: the RDP column of BSA24 Table 1 (docs/conventions.md §7);
//! * [`cys21`]: Chourasia–Ye–Shokri 2021 (Thm 1, Thm 2, Cor 1, Thm 3, Cor 2, baseline);
//! * [`ys22`]: Ye–Shokri 2022 (Thms 2.1, 3.3, 4.2, 4.3, Cor 5.3, baseline).
//!
//! # Parameter model
//! CYS21 and YS22 write θ ← θ − η g + √(2η) σ′ N(0, I). The toolkit's model
//! (docs/conventions.md §2) has per-step noise standard deviation ησ, so σ = σ′ √(2/η);
//! their S_g plays the role of the gradient sensitivity L. Each paper module keeps the
//! paper's own parameter struct and offers an explicit translation (`to_toolkit`).
//!
//! # References
//! * I. Mironov, *Rényi differential privacy*, CSF 2017.
//! * B. Balle, G. Barthe, M. Gaboardi, J. Hsu, T. Sato, *Hypothesis testing
//!   interpretations and Rényi differential privacy*, AISTATS 2020.
//! * M. Bun, T. Steinke, *Concentrated differential privacy*, TCC 2016.
//! * S. Asoodeh, J. Liao, F. Calmon, O. Kosut, L. Sankar, *Three variants of
//!   differential privacy: lossless conversion and applications*, JSAIT 2021.
//! * I. Mironov, K. Talwar, L. Zhang, *Rényi differential privacy of the sampled
//!   Gaussian mechanism*, arXiv:1908.10530 (2019).
pub mod at22;
pub mod at22_lemma_2_12;
pub mod at22_pabi;
pub mod at22_params;
pub mod at22_recipes;
pub mod at22_theorems;
pub mod conversion;
pub use crate::tradeoff::renyi_curve as curve;
pub mod cys21;
pub mod events;
pub mod sampled_gaussian;
pub mod table1;
pub mod ys22;

pub use conversion::{BestConversion, Conversion, DpFromRdp, best_conversion, convert};
pub use curve::{RdpBound, RenyiCurve};
pub use table1::table1_rdp_epsilon;
