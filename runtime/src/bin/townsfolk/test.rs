//! `townsfolk test`: the pack's content tests, checked on every seed.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use townsfolk_runtime::tools::content_tests as ct;
use townsfolk_runtime::tools::coverage::parse_seeds;

/// Check the pack's content tests (its `tests` section) on every seed; each failure names
/// the seed, the tick and the NPC, with a `townsfolk debug` command that stops there.
/// Exits 1 when a test fails.
#[derive(clap::Args)]
#[command(after_help = r#"Examples:
  sed 's/^  "trees": \[/  "tests": [{"id": "rested", "rule": "always", "npc": "guard_1", "expr": "fatigue <= 1"}], "trees": [/' samples/guards.json > tested.json
  townsfolk test tested.json --seeds 1..20 --ticks 3000
  townsfolk test tested.json --seeds 1..5 --json"#)]
pub(super) struct TestArgs {
    /// The pack file (`.json`) whose `tests` section to check; a pack with errors is refused.
    pack: PathBuf,
    /// Seeds: `A..B` (both included) or one seed.
    #[arg(long, default_value = "1..100")]
    seeds: String,
    /// Ticks played per seed (default: one in-game day, longer if a test needs it).
    #[arg(long)]
    ticks: Option<u64>,
    /// Worker threads (default: the number of cores); results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Failing seeds shown per test in the text report.
    #[arg(long, default_value_t = 3)]
    show: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub(super) fn test(a: TestArgs) -> anyhow::Result<ExitCode> {
    let seeds = match parse_seeds(&a.seeds) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: --seeds: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let (_, program) = match load_program(&a.pack, "test") {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    if program.tests.is_empty() {
        errln!("{}: the pack has no `tests`", a.pack.display());
        return Ok(ExitCode::SUCCESS);
    }
    let ticks = a.ticks.unwrap_or_else(|| ct::default_ticks(&program));
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let started = std::time::Instant::now();
    let step = (seeds.len() / 10).max(1);
    let progress = |done: usize, total: usize| {
        if done.is_multiple_of(step) || done == total {
            errln!(
                "test: {done}/{total} seeds ({:.1} s)",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let results = ct::run_tests(&program, &seeds, ticks, threads, &progress);
    let shown = a.pack.display().to_string();
    if a.json {
        let v: Vec<serde_json::Value> = results.iter().map(|r| r.to_json(&shown)).collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"ticks": ticks, "tests": v}))?
        );
    } else {
        out!("{}", ct::to_text(&results, &shown, a.show));
    }
    Ok(if results.iter().all(ct::TestResult::passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
