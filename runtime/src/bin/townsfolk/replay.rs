//! `townsfolk replay`: Monte Carlo playthroughs of a scenario.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

pub(super) fn replay(
    path: &Path,
    scenario: Option<&str>,
    runs: u32,
    seed: u64,
    threads: Option<usize>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    if runs == 0 || runs > 10_000_000 {
        eprintln!("error: --runs must be between 1 and 10000000, found {runs}");
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
            eprintln!(
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
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(ExitCode::SUCCESS)
}
