//! The memory guard: every computation whose size follows from user input estimates
//! its peak memory first and refuses above a limit with [`Error::MemoryLimit`], instead
//! of letting GMP or the allocator abort the process.
//!
//! # The limit
//! One process-wide limit in bytes, read in this order:
//! 1. [`set_limit_bytes`] (the CLI's global `--memory-limit SIZE` flag, Python's
//!    `shiftdp.set_memory_limit`);
//! 2. the environment variable `SHIFTDP_MEMORY_LIMIT` (read once, on first use);
//! 3. [`DEFAULT_LIMIT_BYTES`] = 8 GiB (a third of this machine's 23 GiB, and less than
//!    half of any machine the README targets);
//!
//! and never more than three quarters of the address-space limit (`ulimit -v`).
//!
//! `SIZE` is a byte count with an optional binary suffix: `512M`, `8G`, `1T`, `4096`.
//!
//! # Estimates
//! [`check`] takes an estimate in bytes that must be an *upper* bound on what the
//! computation allocates beyond its inputs (each caller documents its formula). The
//! guard is about crashes, not privacy: an estimate that is too large refuses a
//! computation that would have fitted; one that is too small lets the allocator abort,
//! which is what this module exists to prevent, so estimates round up.
//!
//! # Example
//! ```
//! use shiftdp::memory;
//! assert!(memory::check("a small table", 1 << 20).is_ok());
//! let e = memory::check("a huge table", u64::MAX).unwrap_err();
//! assert!(e.to_string().contains("memory limit"));
//! ```
use crate::error::{Error, Result};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The limit when neither the flag nor the environment sets one: 8 GiB.
pub const DEFAULT_LIMIT_BYTES: u64 = 8 << 30;

/// 0 = not set by [`set_limit_bytes`].
static OVERRIDE: AtomicU64 = AtomicU64::new(0);
static FROM_ENV: OnceLock<Option<u64>> = OnceLock::new();

/// Parses `SIZE`: a decimal byte count with an optional suffix `K`, `M`, `G`, `T`
/// (powers of 1024, an optional trailing `B` or `iB` accepted, case-insensitive).
///
/// # Errors
/// [`Error::Parse`] for anything else, 0, or a size that overflows u64.
///
/// # Example
/// ```
/// use shiftdp::memory::parse_size;
/// assert_eq!(parse_size("8G").unwrap(), 8 << 30);
/// assert_eq!(parse_size("512mib").unwrap(), 512 << 20);
/// assert_eq!(parse_size("4096").unwrap(), 4096);
/// assert!(parse_size("-1G").is_err() && parse_size("0").is_err());
/// ```
pub fn parse_size(s: &str) -> Result<u64> {
    let bad = || Error::Parse {
        input: s.to_string(),
        reason:
            "a memory size is a positive byte count with an optional K, M, G or T suffix (e.g. 8G)"
                .into(),
    };
    let t = s.trim().to_ascii_uppercase();
    let t = t
        .strip_suffix("IB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(&t);
    let (digits, shift) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let n: u64 = digits.trim().parse().map_err(|_| bad())?;
    if n == 0 || n.leading_zeros() < shift {
        return Err(bad());
    }
    Ok(n << shift)
}

/// Sets the process-wide limit (bytes, ≥ 1).
///
/// # Errors
/// [`Error::Parameter`] for 0.
pub fn set_limit_bytes(bytes: u64) -> Result<()> {
    if bytes == 0 {
        return Err(Error::param("memory-limit", 0, "must be at least 1 byte"));
    }
    OVERRIDE.store(bytes, Ordering::Relaxed);
    Ok(())
}

/// The limit in force (see the module doc for the order of the sources), never more
/// than three quarters of the process's address-space limit (`ulimit -v`, which also
/// holds the code, the thread stacks and the allocator's reserves). A malformed
/// `SHIFTDP_MEMORY_LIMIT` is ignored in favour of the default (the CLI checks it and
/// says so).
pub fn limit_bytes() -> u64 {
    let configured = configured_limit_bytes();
    match address_space_limit() {
        Some(a) => configured.min(a / 4 * 3),
        None => configured,
    }
}

static ADDRESS_SPACE: OnceLock<Option<u64>> = OnceLock::new();

/// The soft address-space limit of this process in bytes (`Max address space` of
/// `/proc/self/limits`), `None` when unlimited or unknown (not Linux). Read once.
fn address_space_limit() -> Option<u64> {
    *ADDRESS_SPACE.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/self/limits").ok()?;
        let line = text.lines().find(|l| l.starts_with("Max address space"))?;
        line["Max address space".len()..]
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    })
}

fn configured_limit_bytes() -> u64 {
    match OVERRIDE.load(Ordering::Relaxed) {
        0 => FROM_ENV
            .get_or_init(|| {
                std::env::var("SHIFTDP_MEMORY_LIMIT")
                    .ok()
                    .and_then(|v| parse_size(&v).ok())
            })
            .unwrap_or(DEFAULT_LIMIT_BYTES),
        b => b,
    }
}

/// A byte count for messages: `7.3 GiB`, `512.0 MiB`.
pub fn human(bytes: u64) -> String {
    let b = bytes as f64;
    for (unit, p) in [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        let u = (1u64 << p) as f64;
        if b >= u {
            return format!("{:.1} {unit}", b / u);
        }
    }
    format!("{bytes} B")
}

/// Refuses `what` if its estimated peak memory `needed` exceeds the limit.
///
/// # Errors
/// [`Error::MemoryLimit`] naming the estimate and the limit.
pub fn check(what: &str, needed: u64) -> Result<()> {
    let limit = limit_bytes();
    if needed > limit {
        return Err(Error::MemoryLimit {
            what: what.to_string(),
            needed: human(needed),
            limit: human(limit),
        });
    }
    Ok(())
}

/// `count × size` bytes, saturating (an estimate that overflows u64 is refused anyway).
pub fn bytes_of(count: u64, size: u64) -> u64 {
    count.saturating_mul(size)
}

/// Refuses `what` if `count` values of type `T` (its inline size, no heap) exceed the
/// limit: [`check`] of `count × size_of::<T>()`.
///
/// # Errors
/// [`Error::MemoryLimit`] as [`check`].
pub fn check_values<T>(what: &str, count: u64) -> Result<()> {
    check(what, bytes_of(count, std::mem::size_of::<T>() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_refuse_nonsense() {
        assert_eq!(parse_size("1K").unwrap(), 1024);
        assert_eq!(parse_size(" 3 GB").unwrap(), 3 << 30);
        assert_eq!(parse_size("2t").unwrap(), 2 << 40);
        for bad in ["", "G", "1.5G", "-3", "0M", "99999999999T", "8X", "NaN"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn check_names_the_limit_and_the_need() {
        let e = check("a test", u64::MAX).unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("a test") && m.contains("limit") && m.contains("TiB"),
            "{m}"
        );
        assert!(check("a test", 1).is_ok());
    }

    #[test]
    fn human_units() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(3 << 29), "1.5 GiB");
    }
}
