//! The `shiftdp` command: see `shiftdp --help` and README.md.
// No `unwrap`/`expect`/`panic!` reachable from input in non-test code: every
// failure is an `Error` naming what is wrong. Tests may unwrap.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
use clap::{Parser, Subcommand};
use shiftdp_cli::{self as cli, Output};
use std::process::ExitCode;

/// mimalloc keeps freed pages for reuse: the composition engine's buffers (tens of MB
/// per query) are then not page-faulted in afresh by every query, which was a fifth of
/// a 10⁵-step composition's time under glibc malloc (README, "Design decisions").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Compute and verify privacy bounds for noisy gradient methods (f-DP, GDP, (ε,δ), RDP).
#[derive(Debug, Parser)]
#[command(name = "shiftdp", version, about, long_about = None)]
struct Cli {
    /// Memory limit of any computation whose size follows from the input (e.g. 8G,
    /// 512M); above it the command refuses with a message instead of running out of
    /// memory. Default: $SHIFTDP_MEMORY_LIMIT, else 8G.
    #[arg(long = "memory-limit", global = true, value_name = "SIZE")]
    memory_limit: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Certified ε(δ) of μ-GDP (upper bound).
    Epsilon(cli::conversion::EpsilonArgs),
    /// Certified δ(ε) of μ-GDP (upper bound).
    Delta(cli::conversion::DeltaArgs),
    /// Every applicable bound for one run, side by side, tightest marked.
    Bound(cli::bound::BoundArgs),
    /// Validate bounds against exact instances sampled from each result's region.
    Check(cli::check::CheckArgs),
    /// Every applicable bound of all four papers (f-DP and Rényi) for one run, best marked.
    Compare(cli::compare::CompareArgs),
    /// The smallest noise σ whose certified ε(δ) meets a target (DP-SGD or a run's bounds).
    #[command(subcommand)]
    Calibrate(cli::calibrate::CalibrateCommand),
    /// Certified numerical composition of tradeoff functions (ε or δ interval).
    Compose(cli::compose::ComposeArgs),
    /// Exact privacy loss of a concrete instance (Gaussian, mixture or clamped walk).
    Exact(cli::exact::ExactArgs),
    /// Figures (SVG + PNG) in the style of BSA24 Figure 1.
    #[command(subcommand)]
    Plot(cli::plot::PlotCommand),
    /// The published results the toolkit implements, and how each is tested.
    Results(cli::results::ResultsArgs),
    /// Reproduce the papers' tables from the toolkit's own bounds.
    #[command(subcommand)]
    Reproduce(cli::reproduce::ReproduceCommand),
    /// Certified ε(δ) of a DP-SGD run for the batch sampler used (shuffle, fixed-size,
    /// balls-in-bins, Poisson): upper and lower bounds beside the Poisson ε.
    Sampler(cli::sampler::SamplerArgs),
    /// Optimal shift schedules (KKT and argmin) and the closed forms they check.
    Schedule(cli::schedule::ScheduleArgs),
    /// Verify every result of proofs/ (and ERRATA.md), or a claim of your own.
    Verify(cli::verify::VerifyArgs),
    /// Tradeoff-curve values.
    #[command(subcommand)]
    Curve(cli::curve::CurveCommand),
}

/// Prints the result. A closed pipe (`shiftdp … --json | head`) is not an error of the
/// computation: the rest of the output is dropped quietly instead of panicking.
fn emit(out: &Output, json: bool) {
    use std::io::Write;
    let text = if json {
        // a serde_json::Value always serializes
        serde_json::to_string_pretty(&out.json).unwrap_or_default() + "\n"
    } else {
        out.human.clone()
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        // any other write failure (a full disk) must not pass for success
        eprintln!("error: writing the output: {e}");
        std::process::exit(2);
    }
}

fn main() -> ExitCode {
    let args = match Cli::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let limit = match (&args.memory_limit, std::env::var("SHIFTDP_MEMORY_LIMIT")) {
        (Some(s), _) => Some(("--memory-limit", s.clone())),
        (None, Ok(s)) => Some(("SHIFTDP_MEMORY_LIMIT", s)),
        (None, Err(_)) => None,
    };
    let parsed = limit.map(|(source, s)| {
        (
            source,
            shiftdp::memory::parse_size(&s).and_then(shiftdp::memory::set_limit_bytes),
        )
    });
    if let Some((source, Err(e))) = parsed {
        eprintln!("error: {source}: {e}");
        return ExitCode::from(2);
    }
    let result = match &args.command {
        Command::Epsilon(a) => cli::conversion::run_epsilon(a).map(|o| emit(&o, a.json)),
        Command::Delta(a) => cli::conversion::run_delta(a).map(|o| emit(&o, a.json)),
        Command::Bound(a) => cli::bound::run(a).map(|o| emit(&o, a.json)),
        Command::Check(a) => {
            return match cli::check::run(a) {
                Ok(o) => {
                    emit(&o, a.json);
                    // a violated bound fails the command (CI pipelines rely on this)
                    if o.json["violations"].as_u64().unwrap_or(0) > 0 {
                        ExitCode::from(1)
                    } else {
                        ExitCode::SUCCESS
                    }
                }
                Err(e) => {
                    eprintln!("error: {}", cli::with_flags(&e.to_string()));
                    ExitCode::from(2)
                }
            };
        }
        Command::Verify(a) => {
            return match cli::verify::run(a) {
                Ok(o) => {
                    emit(&o, a.json);
                    // a failed or unrunnable obligation fails the command
                    if o.json["status"] == "pass" {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(1)
                    }
                }
                Err(e) => {
                    eprintln!("error: {}", cli::with_flags(&e.to_string()));
                    ExitCode::from(2)
                }
            };
        }
        Command::Compare(a) => cli::compare::run(a).map(|o| emit(&o, a.json)),
        Command::Calibrate(c) => cli::calibrate::run(c).map(|o| emit(&o, c.json())),
        Command::Compose(a) => cli::compose::run(a).map(|o| emit(&o, a.json)),
        Command::Sampler(a) => cli::sampler::run(a).map(|o| emit(&o, a.json)),
        Command::Exact(a) => cli::exact::run(a).map(|o| emit(&o, a.json)),
        Command::Plot(c) => cli::plot::run(c).map(|o| emit(&o, false)),
        Command::Reproduce(cli::reproduce::ReproduceCommand::Table1(a)) => {
            cli::reproduce::run_table1(a).map(|o| emit(&o, a.json))
        }
        Command::Reproduce(cli::reproduce::ReproduceCommand::Renyi(a)) => {
            cli::renyi::run(a).map(|o| emit(&o, a.json))
        }
        Command::Schedule(a) => cli::schedule::run(a).map(|o| emit(&o, a.json)),
        Command::Results(a) => {
            emit(&cli::results::run(a), a.json);
            Ok(())
        }
        Command::Curve(c) => {
            cli::curve::run(c).map(|(o, f)| emit(&o, f == cli::curve::Format::Json))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", cli::with_flags(&e.to_string()));
            ExitCode::from(2)
        }
    }
}
