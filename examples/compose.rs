//! Temporary runner for `shiftdp compose` until it is wired into `src/main.rs`:
//! `cargo run --release --example compose -- --subsampled-gaussian 0.025 0.6666666666666666 x8000 --delta 1e-5 --json`
use clap::Parser;
use shiftdp::cli::compose::{ComposeArgs, run};

#[derive(Debug, Parser)]
#[command(name = "compose")]
struct Cli {
    #[command(flatten)]
    args: ComposeArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match run(&cli.args) {
        Ok(out) => {
            if cli.args.json {
                println!("{}", serde_json::to_string_pretty(&out.json).expect("json"));
            } else {
                print!("{}", out.human);
            }
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
