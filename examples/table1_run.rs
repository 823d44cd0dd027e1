//! Every bound for the BSA24 Table 1 run (n = 60000, b = 1500, E = 50, c = 0.9999,
//! L/(bσ) = 2/3) at δ = 1e-5, with the library alone: `cargo run --example table1_run`.
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
        let value = e.upper_f64().map_or_else(
            || format!("n/a: {}", e.reason().unwrap()),
            |v| format!("ε ≤ {v}"),
        );
        println!(
            "{} {:<30} {value}",
            if a.best().is_some_and(|b| b.id == e.id) {
                "*"
            } else {
                " "
            },
            e.id
        );
    }
    let (best, rdp) = (
        a.best().unwrap(),
        a.entry(ResultId::Bsa24Table1Rdp).unwrap(),
    );
    assert_eq!(best.id, ResultId::Bsa24Thm4_5);
    println!(
        "best: {} at ε ≤ {:.4}; RDP column: {:.4}",
        best.id,
        best.upper_f64().unwrap(),
        rdp.upper_f64().unwrap()
    );
    Ok(())
}
