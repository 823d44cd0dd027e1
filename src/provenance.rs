//! Provenance: the results of the five papers as one typed list.
//!
//! Every bound, check and proof file names its result by a [`ResultId`]: the paper
//! ([`Paper`]), the result's number as printed (`Thm 4.5`, `(B.2)`, `Cor 5.2 (π)`), and
//! the `proofs/` file that states it, its hypotheses (H1…Hn), rounding and obligations.
//! The display string of an id (`BSA24 Thm 4.5`) is the one every output uses; it is
//! written here once and nowhere else.
//!
//! # Example
//! ```
//! use shiftdp::{Paper, ResultId};
//! let id = ResultId::Bsa24Thm4_5;
//! assert_eq!(id.as_str(), "BSA24 Thm 4.5");
//! assert_eq!(id.paper(), Paper::Bsa24);
//! assert_eq!(id.proof_file(), Some("proofs/bsa24-thm-4-5.md"));
//! assert_eq!(ResultId::parse("BSA24 Thm 4.5"), Some(id));
//! ```
use std::fmt;

/// The papers whose results the toolkit implements (plus the classical baselines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Paper {
    /// J. Bok, W. Su, J. Altschuler, *Shifted interpolation for differential privacy*
    /// (2024): f-DP / GDP bounds for NoisyGD, NoisyCGD, NoisySGD and Langevin.
    Bsa24,
    /// R. Chourasia, J. Ye, R. Shokri, *Differential privacy dynamics of Langevin
    /// diffusion and noisy gradient descent*, NeurIPS 2021.
    Cys21,
    /// J. Ye, R. Shokri, *Differentially private learning needs hidden state (or much
    /// faster convergence)*, NeurIPS 2022.
    Ys22,
    /// J. Altschuler, K. Talwar, *Privacy of noisy stochastic gradient descent: more
    /// iterations without more privacy loss*, NeurIPS 2022.
    At22,
    /// Classical results used as baselines (McSherry–Talwar 2007, Mironov 2017 RDP
    /// composition, MTZ19 sampled Gaussian).
    Baseline,
}

impl Paper {
    /// The short name used in outputs (`BSA24`, `CYS21`, `YS22`, `AT22`, `baseline`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Paper::Bsa24 => "BSA24",
            Paper::Cys21 => "CYS21",
            Paper::Ys22 => "YS22",
            Paper::At22 => "AT22",
            Paper::Baseline => "baseline",
        }
    }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! result_ids {
    ($( $(#[$doc:meta])* $var:ident => $text:literal, $paper:ident, $proof:expr; )*) => {
        /// One result of the five papers (or a classical baseline), by its printed number.
        ///
        /// `as_str` gives the id every output prints; `proof_file` the `proofs/` file
        /// that states the result, its hypotheses and its obligations.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ResultId {
            $( $(#[$doc])* $var, )*
        }

        impl ResultId {
            /// Every result id, in the order of this list (paper by paper).
            pub const ALL: &'static [ResultId] = &[ $( ResultId::$var, )* ];

            /// The id as printed in every output, e.g. `BSA24 Thm 4.5`.
            pub const fn as_str(self) -> &'static str {
                match self { $( ResultId::$var => $text, )* }
            }

            /// The paper the result comes from.
            pub const fn paper(self) -> Paper {
                match self { $( ResultId::$var => Paper::$paper, )* }
            }

            /// The `proofs/` file (relative to the repository root) that states the
            /// result, if it has one of its own.
            pub const fn proof_file(self) -> Option<&'static str> {
                match self { $( ResultId::$var => $proof, )* }
            }
        }
    };
}

result_ids! {
    /// BSA24 Thm 4.1: NoisyGD by composition, G(√t·L/(bσ)).
    Bsa24Thm4_1 => "BSA24 Thm 4.1", Bsa24, Some("proofs/bsa24-thm-4-1.md");
    /// BSA24 Thm 4.2: NoisyGD, strongly convex.
    Bsa24Thm4_2 => "BSA24 Thm 4.2", Bsa24, Some("proofs/bsa24-thm-4-2.md");
    /// BSA24 Thm 4.3: NoisyGD, constrained convex.
    Bsa24Thm4_3 => "BSA24 Thm 4.3", Bsa24, Some("proofs/bsa24-thm-4-3.md");
    /// BSA24 Thm 4.4: NoisyCGD by composition.
    Bsa24Thm4_4 => "BSA24 Thm 4.4", Bsa24, Some("proofs/bsa24-thm-4-4.md");
    /// BSA24 Thm 4.5: NoisyCGD, strongly convex.
    Bsa24Thm4_5 => "BSA24 Thm 4.5", Bsa24, Some("proofs/bsa24-thm-4-5.md");
    /// BSA24 Thm 4.6: NoisyCGD, constrained convex.
    Bsa24Thm4_6 => "BSA24 Thm 4.6", Bsa24, Some("proofs/bsa24-thm-4-6.md");
    /// BSA24 Thm 4.8: NoisySGD by composition.
    Bsa24Thm4_8 => "BSA24 Thm 4.8", Bsa24, Some("proofs/bsa24-thm-4-8.md");
    /// BSA24 Thm 4.9: NoisySGD, strongly convex.
    Bsa24Thm4_9 => "BSA24 Thm 4.9", Bsa24, Some("proofs/bsa24-thm-4-9.md");
    /// BSA24 Thm 4.10: NoisySGD, constrained convex.
    Bsa24Thm4_10 => "BSA24 Thm 4.10", Bsa24, Some("proofs/bsa24-thm-4-10.md");
    /// BSA24 Prop 5.1: Langevin Monte Carlo, strongly log-concave.
    Bsa24Prop5_1 => "BSA24 Prop 5.1", Bsa24, Some("proofs/bsa24-prop-5-1.md");
    /// BSA24 Cor 5.2, the stationary law π(η) of LMC.
    Bsa24Cor5_2Eta => "BSA24 Cor 5.2 (π(η))", Bsa24, Some("proofs/bsa24-cor-5-2.md");
    /// BSA24 Cor 5.2, the exponential mechanism π (η → 0).
    Bsa24Cor5_2Exp => "BSA24 Cor 5.2 (π)", Bsa24, Some("proofs/bsa24-cor-5-2.md");
    /// BSA24 Cor 5.4, the stationary law π(η) on a convex body.
    Bsa24Cor5_4Eta => "BSA24 Cor 5.4 (π(η))", Bsa24, Some("proofs/bsa24-cor-5-4.md");
    /// BSA24 Cor 5.4, the exponential mechanism on a convex body.
    Bsa24Cor5_4Exp => "BSA24 Cor 5.4 (π)", Bsa24, Some("proofs/bsa24-cor-5-4.md");
    /// BSA24 Lemma 3.2: one step of shifted interpolation.
    Bsa24Lemma3_2 => "BSA24 Lemma 3.2", Bsa24, Some("proofs/bsa24-lemma-3-2.md");
    /// BSA24 Thm 3.3: the meta-theorem for any shift schedule.
    Bsa24Thm3_3 => "BSA24 Thm 3.3", Bsa24, Some("proofs/bsa24-thm-3-3.md");
    /// BSA24 Table 1, the RDP column (curve of docs/conventions.md §7).
    Bsa24Table1Rdp => "BSA24 Table 1 RDP", Bsa24, Some("proofs/bsa24-table-1.md");
    /// The pure ε-DP of the exponential mechanism (McSherry–Talwar 2007), as compared
    /// in BSA24 §5.2 (documented with Cor 5.4).
    Mt07Exp => "MT07 exponential mechanism (BSA24 §5.2)", Baseline, Some("proofs/bsa24-cor-5-4.md");
    /// RDP composition of the Gaussian steps that touch the record (Mironov 2017).
    RdpComposition => "RDP composition", Baseline, None;
    /// CYS21 Thm 1: Rényi DP of noisy GD by the coupled tracing diffusion.
    Cys21Thm1 => "CYS21 Thm 1", Cys21, Some("proofs/cys21-thm-1.md");
    /// CYS21 Thm 2 (eq. 16): noisy GD under a c-LSI.
    Cys21Thm2 => "CYS21 Thm 2 (eq. 16)", Cys21, Some("proofs/cys21-thm-2.md");
    /// CYS21 Thm 3 (eq. 17): lower bound on the squared loss.
    Cys21Thm3 => "CYS21 Thm 3 (eq. 17)", Cys21, Some("proofs/cys21-thm-3.md");
    /// CYS21 Cor 1: noisy GD, strongly convex smooth losses.
    Cys21Cor1 => "CYS21 Cor 1", Cys21, Some("proofs/cys21-cor-1.md");
    /// CYS21 Cor 2 (eq. 18): upper bound on the squared loss.
    Cys21Cor2 => "CYS21 Cor 2 (eq. 18)", Cys21, Some("proofs/cys21-cor-2.md");
    /// CYS21's K-fold Gaussian RDP composition baseline (their Fig. 1).
    Cys21Baseline => "CYS21 composition baseline (Fig. 1)", Cys21, Some("proofs/cys21-composition-baseline.md");
    /// YS22 Thm 2.1: the naive extension of CYS21 to mini-batches.
    Ys22Thm2_1 => "YS22 Thm 2.1", Ys22, Some("proofs/ys22-thm-2-1.md");
    /// YS22 Thm 3.3: fixed-order mini-batches, position-dependent.
    Ys22Thm3_3 => "YS22 Thm 3.3", Ys22, Some("proofs/ys22-thm-3-3.md");
    /// YS22 Thm 4.2: shuffle and partition.
    Ys22Thm4_2 => "YS22 Thm 4.2", Ys22, Some("proofs/ys22-thm-4-2.md");
    /// YS22 Thm 4.3: sampling without replacement (recursion).
    Ys22Thm4_3 => "YS22 Thm 4.3", Ys22, Some("proofs/ys22-thm-4-3.md");
    /// YS22 Cor 5.3: DP-SGD on regularized logistic regression.
    Ys22Cor5_3 => "YS22 Cor 5.3", Ys22, Some("proofs/ys22-cor-5-3.md");
    /// YS22's baseline: RDP composition of the sampled Gaussian mechanism (MTZ19).
    Ys22Baseline => "YS22 composition baseline", Baseline, Some("proofs/ys22-composition-baseline.md");
    /// AT22 Def 2.10: Rényi divergence of the sampled Gaussian mechanism, both orders.
    At22Def2_10 => "AT22 Def 2.10", At22, Some("proofs/at22-def-2-10.md");
    /// AT22 Lemma 2.12: S_α ≤ 2αq²/σ² below α*.
    At22Lemma2_12 => "AT22 Lemma 2.12", At22, Some("proofs/at22-lemma-2-12.md");
    /// AT22 Prop 2.17: the original PABI bound.
    At22Prop2_17 => "AT22 Prop 2.17", At22, Some("proofs/at22-prop-2-17.md");
    /// AT22 Prop 3.2: PABI from a bounded gap at time τ.
    At22Prop3_2 => "AT22 Prop 3.2", At22, Some("proofs/at22-prop-3-2.md");
    /// AT22 Prop 5.6: PABI with c-contractions.
    At22Prop5_6 => "AT22 Prop 5.6", At22, Some("proofs/at22-prop-5-6.md");
    /// AT22 Props 2.17/5.6 applied to cyclic batches (the validator's entry).
    At22Cyclic => "AT22 Prop 2.17/5.6 (cyclic)", At22, None;
    /// AT22 (3.6): the Noisy-SGD recipe at a fixed noise split.
    At22Eq3_6 => "AT22 (3.6)", At22, Some("proofs/at22-3-6.md");
    /// AT22 (5.3): the strongly convex recipe with a single final shift.
    At22Eq5_3 => "AT22 (5.3)", At22, Some("proofs/at22-5-3.md");
    /// AT22 (5.7): non-uniform step sizes.
    At22Eq5_7 => "AT22 (5.7)", At22, Some("proofs/at22-5-7.md");
    /// AT22 (B.1): the full-batch recipe.
    At22EqB1 => "AT22 (B.1)", At22, Some("proofs/at22-b-1.md");
    /// AT22 (B.2): the Noisy-SGD recipe with an optimized noise split.
    At22EqB2 => "AT22 (B.2)", At22, Some("proofs/at22-b-2.md");
    /// AT22 (B.3): the strongly convex Noisy-SGD recipe.
    At22EqB3 => "AT22 (B.3)", At22, Some("proofs/at22-b-3.md");
    /// AT22 Thm 3.1: Noisy-SGD upper bound (convex), explicit constants.
    At22Thm3_1 => "AT22 Thm 3.1", At22, Some("proofs/at22-thm-3-1.md");
    /// AT22 Thm 4.1: the Noisy-SGD lower bound (clamped-walk construction).
    At22Thm4_1 => "AT22 Thm 4.1", At22, Some("proofs/at22-thm-4-1.md");
    /// AT22 Thm 5.1: Noisy-SGD upper bound (strongly convex), explicit constants.
    At22Thm5_1 => "AT22 Thm 5.1", At22, Some("proofs/at22-thm-5-1.md");
    /// AT22 Thm 5.8: Noisy-CGD upper bound (convex), explicit constants.
    At22Thm5_8 => "AT22 Thm 5.8", At22, Some("proofs/at22-thm-5-8.md");
}

impl ResultId {
    /// The id whose [`ResultId::as_str`] is `text` (exactly), if any.
    pub fn parse(text: &str) -> Option<ResultId> {
        ResultId::ALL.iter().copied().find(|r| r.as_str() == text)
    }
}

impl fmt::Display for ResultId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for ResultId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ResultId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl AsRef<str> for ResultId {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    #[test]
    fn ids_are_unique_and_parse_back() {
        let texts: BTreeSet<&str> = ResultId::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(texts.len(), ResultId::ALL.len());
        for r in ResultId::ALL {
            assert_eq!(ResultId::parse(r.as_str()), Some(*r));
            assert!(r.as_str().starts_with(r.paper().as_str()) || r.paper() == Paper::Baseline);
        }
        assert_eq!(ResultId::parse("BSA24 Thm 9.9"), None);
    }

    /// Every proofs/ file is the proof file of some result id, and every id's proof
    /// file exists: the two lists match one to one (up to the ids that share a file).
    #[test]
    fn proof_files_match_result_ids_one_to_one() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let named: BTreeSet<&str> = ResultId::ALL
            .iter()
            .filter_map(|r| r.proof_file())
            .collect();
        for f in &named {
            assert!(root.join(f).is_file(), "{f} is named by an id but missing");
        }
        let on_disk: BTreeSet<String> = std::fs::read_dir(root.join("proofs"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".md") && n != "README.md")
            .map(|n| format!("proofs/{n}"))
            .collect();
        let named: BTreeSet<String> = named.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            on_disk, named,
            "proofs/ files without an id, or ids without a file"
        );
    }

    /// Each proof file's title line names the result (the first id that uses it).
    #[test]
    fn proof_file_titles_name_their_result() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for r in ResultId::ALL {
            let Some(f) = r.proof_file() else { continue };
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            let title = text.lines().next().unwrap_or("");
            let base = r.as_str().split(" (").next().unwrap_or(r.as_str());
            let base = base.trim_end_matches(" RDP");
            let ok = title.contains(base) || r.paper() == Paper::Baseline;
            assert!(ok, "{f}: title {title:?} does not name {}", r.as_str());
        }
    }
}
