//! The samplers' certified intervals over a grid of runs (σ, epochs, batches per epoch,
//! δ): for each run the best lower bound, the upper bound, the Poisson ε and whether it
//! lies below the lower bound. `cargo run --release --example sampler_grid [relation]`
//! prints one markdown row per run and a summary per sampler.
use shiftdp::samplers::{Relation, Run, Sampler, account};

fn main() -> shiftdp::Result<()> {
    let relation = Relation::parse(&std::env::args().nth(1).unwrap_or("zero-out".into()))?;
    let samplers = [
        Sampler::Shuffle,
        Sampler::ShuffleOnce,
        Sampler::FixedSize,
        Sampler::BallsInBins,
        Sampler::BallsInBinsPersistent,
    ];
    println!("| sampler | σ | T | E | δ | lower | upper | Poisson ε | Poisson below lower |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut summary: Vec<(Sampler, usize, usize, f64)> = vec![];
    for sampler in samplers {
        let (mut runs, mut flagged, mut worst_ratio) = (0, 0, 1.0f64);
        for sigma in [0.5, 0.8, 1.0, 2.0] {
            for t in [10u64, 100, 1000] {
                for epochs in [1u64, 2, 5, 10] {
                    for delta in [1e-5, 1e-10] {
                        let run =
                            match Run::new(sampler, 10 * t, 10, epochs, sigma, relation, false) {
                                Ok(r) => r,
                                Err(e) => {
                                    println!("| {sampler} | refused: {e} |");
                                    continue;
                                }
                            };
                        let r = account(&run, delta, 1e-3)?;
                        let iv = r.interval();
                        assert!(
                            iv.lower <= iv.upper,
                            "lower above upper: {sampler} {sigma} {t} {epochs} {delta}"
                        );
                        let flag = r.poisson_below_lower();
                        runs += 1;
                        flagged += flag as usize;
                        if iv.lower > 0.0 {
                            worst_ratio = worst_ratio.max(iv.upper / iv.lower);
                        }
                        println!(
                            "| {sampler} | {sigma} | {t} | {epochs} | {delta:e} | {:.4} | {:.4} | {:.4} | {} |",
                            iv.lower,
                            iv.upper,
                            r.poisson.epsilon.upper,
                            if flag { "**yes**" } else { "no" }
                        );
                    }
                }
            }
        }
        summary.push((sampler, runs, flagged, worst_ratio));
    }
    println!(
        "\n| sampler | runs | Poisson ε below the certified lower bound | largest upper/lower |"
    );
    println!("|---|---|---|---|");
    for (s, runs, flagged, ratio) in summary {
        println!("| {s} | {runs} | {flagged} | {ratio:.2} |");
    }
    Ok(())
}
