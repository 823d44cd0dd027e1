//! Sampling settings from a validator entry's region, for obligations, builtins and
//! claims (deterministic: one salted stream per entry).
use super::proofs::RegionOverride;
use crate::check::{self, Entry, SplitMix64, salted};
use shiftdp::error::Result;
use shiftdp::settings::Setting;

/// Parameters as (name, value) strings.
pub type Params = Vec<(String, String)>;

/// The sampled parameters as owned (name, value) pairs.
pub fn fmt_params(p: &[(&'static str, String)]) -> Params {
    p.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

/// Draws `n` admissible settings from the region of `entry` (with overrides), keeping
/// the parameters; gives up after `20 n` draws.
pub fn sample_settings(
    entry: &Entry,
    region: &[RegionOverride],
    n: usize,
    seed: u64,
) -> Vec<(Params, Result<Setting>)> {
    let mut rng = SplitMix64::new(salted(seed, entry.id.as_str()));
    let mut out = vec![];
    for _ in 0..n {
        let mut p = (entry.sample)(&mut rng);
        crate::check::region::apply(region, &mut rng, &mut p);
        let raw = check::catalogue::raw_of(&p);
        out.push((fmt_params(&p), Setting::new(entry.algorithm, &raw)));
    }
    out
}
