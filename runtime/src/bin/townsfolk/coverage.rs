//! `townsfolk coverage`: what content many seeds reach, and what none does.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use townsfolk_runtime::tools::coverage as cov;

/// Play many seeds and report, per behavior-tree node, template, trigger, story event and
/// area, how often it ran; then the content no seed reached, with its JSON path.
///
/// A trigger's blocked-by reasons (`blocked_at_end`) are read once per seed, when its run
/// ends, not at every tick.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk coverage samples/guards.json --seeds 1..20 --ticks 3000
  townsfolk coverage samples/daily_life.json --seeds 1..4 --ticks 600 --json")]
pub(super) struct CoverageArgs {
    /// The pack file (`.json`) to play; a pack with errors is refused.
    pack: PathBuf,
    /// Seeds: `A..B` (both included) or one seed.
    #[arg(long, default_value = "1..200")]
    seeds: String,
    /// Ticks played per seed.
    #[arg(long)]
    ticks: u64,
    /// Worker threads (default: the number of cores); the report does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Print JSON (keyed by asset id and node id) instead of tables.
    #[arg(long)]
    json: bool,
}

pub(super) fn coverage(a: CoverageArgs) -> anyhow::Result<ExitCode> {
    let seeds = match cov::parse_seeds(&a.seeds) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: --seeds: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let (pack, program) = match load_program(&a.pack, "cover") {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let started = std::time::Instant::now();
    let step = (seeds.len() / 10).max(1);
    let progress = |done: usize, total: usize| {
        if done.is_multiple_of(step) || done == total {
            errln!(
                "coverage: {done}/{total} seeds ({:.1} s)",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let tally = cov::run_seeds(&program, &seeds, a.ticks, threads, &progress);
    let report = cov::Report::new(&pack, &program, &seeds, a.ticks, &tally);
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        out!("{}", report.to_text());
    }
    Ok(ExitCode::SUCCESS)
}
