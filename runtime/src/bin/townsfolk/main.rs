//! `townsfolk`: validate, format, describe and run Townsfolk packs without the editor.
//!
//! This file is the list of subcommands and nothing else: each subcommand's arguments
//! (`Args`, with its help text and example) and its `main` live in its own file. Adding one
//! is a `mod` line, a `Command` variant and a dispatch line.

#[macro_use]
mod common;
mod completions;
mod coverage;
mod debug;
mod diff;
mod diverge;
mod events;
mod export;
mod fmt;
mod import;
mod info;
mod merge;
// `pack` is the runtime's module of that name here.
#[path = "pack.rs"]
mod pack_cmd;
mod replay;
mod run;
mod schema;
mod talk;
mod test;
mod trace;
mod triggers;
mod unpack;
mod validate;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use townsfolk_runtime::Session;
use townsfolk_runtime::debug::{Debugger, SnapshotConfig};
use townsfolk_runtime::mods::{self, FileDiagnostic};
use townsfolk_runtime::pack::{self, Diagnostic};
use townsfolk_runtime::program::{self, Program};

#[derive(Parser)]
#[command(
    name = "townsfolk",
    version,
    about = "Validate, format, describe and run Townsfolk packs",
    after_help = "Run `townsfolk help COMMAND` for a command's arguments and an example."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Validate(validate::Args),
    Fmt(fmt::Args),
    Schema(schema::Args),
    Info(info::Args),
    Diff(diff::Args),
    Run(run::Args),
    Trace(trace::Args),
    Talk(talk::Args),
    Debug(debug::Args),
    Events(events::Args),
    Replay(replay::Args),
    Triggers(triggers::Args),
    Completions(completions::Args),
    Coverage(coverage::CoverageArgs),
    Test(test::TestArgs),
    Diverge(diverge::DivergeArgs),
    Import(import::ImportArgs),
    Export(export::ExportArgs),
    Merge(merge::Args),
    Pack(pack_cmd::Args),
    Unpack(unpack::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader of standard output went away (`townsfolk schema | head -1`).
        Err(e) if common::ends_quietly(&e) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Validate(a) => validate::main(a),
        Command::Fmt(a) => fmt::main(a),
        Command::Schema(a) => schema::main(a),
        Command::Info(a) => info::main(a),
        Command::Diff(a) => diff::main(a),
        Command::Run(a) => run::main(a),
        Command::Trace(a) => trace::main(a),
        Command::Talk(a) => talk::main(a),
        Command::Debug(a) => debug::main(a),
        Command::Events(a) => events::main(a),
        Command::Replay(a) => replay::main(a),
        Command::Triggers(a) => triggers::main(a),
        Command::Completions(a) => completions::main(a),
        Command::Coverage(a) => coverage::coverage(a),
        Command::Test(a) => test::test(a),
        Command::Diverge(a) => diverge::diverge_cmd(a),
        Command::Import(a) => import::import(a),
        Command::Export(a) => export::export(a),
        Command::Merge(a) => merge::main(a),
        Command::Pack(a) => pack_cmd::main(a),
        Command::Unpack(a) => unpack::main(a),
    }
}
