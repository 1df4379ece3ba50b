//! `townsfolk`: validate, format, describe and run Townsfolk packs without the editor.

mod common;
mod coverage;
mod debug;
mod diverge;
mod events;
mod export;
mod fmt;
mod import;
mod replay;
mod run;
mod talk;
mod test;
mod triggers;
mod validate;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use townsfolk_runtime::Session;
use townsfolk_runtime::debug::{Debugger, SnapshotConfig};
use townsfolk_runtime::pack::{self, Diagnostic};
use townsfolk_runtime::program::{self, Program};

#[derive(Parser)]
#[command(
    name = "townsfolk",
    version,
    about = "Validate, format and run Townsfolk packs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Check packs and print every problem as `file:line:col: severity: json.path: message`.
    /// Exits 1 when any pack has an error.
    Validate {
        /// Pack files.
        #[arg(required = true)]
        packs: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Rewrite a pack in canonical form (stable key order, 2-space indent, final newline).
    Fmt {
        pack: PathBuf,
        /// Write here instead of rewriting the pack in place.
        #[arg(short, long, conflicts_with = "check")]
        output: Option<PathBuf>,
        /// Change nothing; exit 1 if the pack is not canonical.
        #[arg(long)]
        check: bool,
        /// Rewrite even if the pack has unknown fields (they are dropped).
        #[arg(long)]
        drop_unknown: bool,
    },
    /// Print the JSON Schema of the pack format.
    Schema,
    /// Simulate a pack headlessly. The last line printed is `hash <hex>` of the final world.
    Run {
        pack: PathBuf,
        /// Random seed: one seed and one pack give one playthrough.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of ticks to simulate.
        #[arg(long)]
        ticks: u64,
        /// Override the pack's seconds per tick.
        #[arg(long)]
        dt: Option<f64>,
        /// Write every event as JSON Lines to this file.
        #[arg(long)]
        trace: Option<PathBuf>,
    },
    /// Simulate a pack's background conversations and print their metrics: per character
    /// (talk share, turns, interruptions, feedback, overlaps) and per run (overlap rate,
    /// gaps, group size, churn).
    Talk {
        pack: PathBuf,
        /// Simulated seconds.
        #[arg(long, default_value_t = 600.0)]
        seconds: f64,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print JSON instead of tables.
        #[arg(long)]
        json: bool,
        /// Run once per value of a parameter and show how the metrics move:
        /// `[NPC.]PARAM=FROM:TO:STEP`, e.g. `talkativeness=0.1:0.9:0.2` (every character) or
        /// `anna.confidence=0:1:0.25` (one character).
        #[arg(long)]
        sweep: Option<String>,
    },
    /// Debug a pack from a script: one JSON command per line in, one JSON reply per line out
    /// (commands: break, delete, enable, disable, breakpoints, continue, step, back, run,
    /// inspect, hash, tick, why, trace, snapshots, help). Reads standard input without --script.
    Debug {
        pack: PathBuf,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// File of commands (one JSON object per line; blank lines and `#` comments skipped).
        #[arg(long)]
        script: Option<PathBuf>,
        /// Ticks between step-back snapshots.
        #[arg(long, default_value_t = 25)]
        snapshot_interval: u64,
        /// Memory cap for step-back snapshots, in MiB.
        #[arg(long, default_value_t = 256)]
        snapshot_mib: usize,
    },
    /// A scripted story-event tracker session: one JSON op per line in (advance, launch, end,
    /// set), one JSON state line out. Reads standard input without --script.
    Events {
        pack: PathBuf,
        /// Scenario id (default: the only scenario, or `world.scenario`).
        #[arg(long)]
        scenario: Option<String>,
        /// File of ops (one JSON object per line; blank lines and `#` comments skipped).
        #[arg(long)]
        script: Option<PathBuf>,
    },
    /// Monte Carlo playthroughs of a scenario with the real executor: per-event launch
    /// probability, outcomes, launch days, expiries; distinct orders and entropy.
    Replay {
        pack: PathBuf,
        /// Scenario id (default: the only scenario, or `world.scenario`).
        #[arg(long)]
        scenario: Option<String>,
        /// Number of playthroughs.
        #[arg(long, default_value_t = 1000)]
        runs: u32,
        /// Random seed: the same seed gives the same report.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: the number of cores); results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Feed scripted world events to a pack's triggers, one JSON object per line (e.g.
    /// `{"event":"enter","npc":"hero","area":"A"}`, `{"equip":"hero","item":"ice_sword"}`,
    /// `{"set_flag":"f","value":true}`, `{"advance":2.5}`); after each, print
    /// `{"time":T,"fired":[...],"flags":{...},"counters":{...}}`.
    Triggers {
        pack: PathBuf,
        /// File of events (blank lines and `#` comments skipped).
        #[arg(long)]
        events: PathBuf,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// After the last line, explain these triggers (why they did or did not fire), one
        /// JSON line each. Repeatable.
        #[arg(long)]
        explain: Vec<String>,
    },
    Coverage(coverage::CoverageArgs),
    Test(test::TestArgs),
    Diverge(diverge::DivergeArgs),
    Import(import::ImportArgs),
    Export(export::ExportArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Validate { packs, format } => validate::validate(&packs, format),
        Command::Fmt {
            pack,
            output,
            check,
            drop_unknown,
        } => fmt::fmt(&pack, output.as_deref(), check, drop_unknown),
        Command::Schema => {
            print!("{}", pack::schema_string());
            Ok(ExitCode::SUCCESS)
        }
        Command::Run {
            pack,
            seed,
            ticks,
            dt,
            trace,
        } => run::simulate(&pack, seed, ticks, dt, trace.as_deref()),
        Command::Triggers {
            pack,
            events,
            seed,
            explain,
        } => triggers::triggers(&pack, &events, seed, &explain),
        Command::Talk {
            pack,
            seconds,
            seed,
            json,
            sweep,
        } => talk::talk(&pack, seconds, seed, json, sweep.as_deref()),
        Command::Debug {
            pack,
            seed,
            script,
            snapshot_interval,
            snapshot_mib,
        } => debug::debug(
            &pack,
            seed,
            script.as_deref(),
            SnapshotConfig {
                interval: snapshot_interval.max(1),
                max_bytes: snapshot_mib.saturating_mul(1024 * 1024),
            },
        ),
        Command::Events {
            pack,
            scenario,
            script,
        } => events::events(&pack, scenario.as_deref(), script.as_deref()),
        Command::Replay {
            pack,
            scenario,
            runs,
            seed,
            threads,
            json,
        } => replay::replay(&pack, scenario.as_deref(), runs, seed, threads, json),
        Command::Coverage(a) => coverage::coverage(a),
        Command::Test(a) => test::test(a),
        Command::Diverge(a) => diverge::diverge_cmd(a),
        Command::Import(a) => import::import(a),
        Command::Export(a) => export::export(a),
    }
}
