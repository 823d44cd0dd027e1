//! Every bound for the BSA24 Table 1 run (n = 60000, b = 1500, E = 50, c = 0.9999,
//! L/(bσ) = 2/3) at δ = 1e-5, with the library alone: `cargo run --example table1_run`.
//! Every printed ε is the certified upper end rounded up.
use shiftdp::decimal::{fixed_up, fmt_up};
use shiftdp::{Algorithm, Precision, Query, ResultId, Setting, analyze};

fn main() -> shiftdp::Result<()> {
    let run = Setting::from_pairs(
        Algorithm::Cgd,
        &[
            ("n", "60000"),
            ("batch", "1500"),
            ("epochs", "50"),
            ("eta", "1"),
            ("noise", "1"),
            ("sensitivity", "1000"),
            ("contraction", "0.9999"),
        ],
    )?;
    let a = analyze(&run, &Query::epsilon_at("1e-5")?, Precision::F64)?;
    for e in a.entries() {
        let mark = if a.best().is_some_and(|b| b.id == e.id) {
            "*"
        } else {
            " "
        };
        match (e.upper(), e.reason()) {
            (Some(u), _) => println!("{mark} {:<30} ε ≤ {}", e.id, fmt_up(u, 53)),
            (None, Some(why)) => println!("{mark} {:<30} n/a: {why}", e.id),
            (None, None) => println!("{mark} {:<30} (no value)", e.id),
        }
    }
    if let (Some(best), Some(rdp)) = (a.best(), a.entry(ResultId::Bsa24Table1Rdp)) {
        let up4 = |x: Option<f64>| x.map(|v| fixed_up(v, 4)).unwrap_or_default();
        println!(
            "best: {} at ε ≤ {}; RDP column: {}",
            best.id,
            up4(best.upper_f64()),
            up4(rdp.upper_f64())
        );
    }
    Ok(())
}
