//! `townsfolk replay`: Monte Carlo playthroughs of a scenario.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Monte Carlo playthroughs of a story scenario.
///
/// Plays the scenario many times with the real executor and prints per-event launch
/// probability, outcomes, launch days and expiries; distinct orders and entropy.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk replay samples/chronicle.json --scenario early_reign --runs 200 --seed 1
  townsfolk replay samples/chronicle.json --runs 100 --json --threads 1")]
pub(super) struct Args {
    /// The pack file (`.json`) whose scenario to play.
    pack: PathBuf,
    /// Scenario id (default: the only scenario, or `world.scenario`).
    #[arg(long)]
    scenario: Option<String>,
    /// Number of playthroughs (1 to 10000000).
    #[arg(long, default_value_t = 1000)]
    runs: u32,
    /// Random seed: the same seed gives the same report.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: the number of cores); results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Print JSON instead of a table (the same as `--format json`).
    #[arg(long)]
    json: bool,
    /// Output: `text` (a table) or `json`.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (path, scenario, runs, seed, threads, json) = (
        a.pack.as_path(),
        a.scenario.as_deref(),
        a.runs,
        a.seed,
        a.threads,
        a.json || a.format == Format::Json,
    );
    if runs == 0 || runs > 10_000_000 {
        errln!("error: --runs must be between 1 and 10000000, found {runs}");
        return Ok(ExitCode::from(1));
    }
    let (program, s) = match story_program(path, scenario) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let step = (runs / 10).max(1);
    let started = std::time::Instant::now();
    let progress = |done: u32, total: u32| {
        if total >= 10_000 && done.is_multiple_of(step) {
            errln!(
                "replay: {done}/{total} runs ({:.1} s)",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let Some(report) =
        townsfolk_runtime::tools::replay::replay(&program, s, runs, seed, threads, &progress)
    else {
        return Ok(ExitCode::from(1));
    };
    if json {
        outln!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        out!("{}", report.to_text());
    }
    Ok(ExitCode::SUCCESS)
}
