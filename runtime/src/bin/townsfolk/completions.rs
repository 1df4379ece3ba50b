//! `townsfolk completions`: shell completion scripts (`clap_complete`).

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use clap::CommandFactory;
use clap_complete::Shell;

/// Print a shell completion script for townsfolk.
///
/// Completes subcommands, options and their values (file names for packs). Install it
/// where your shell reads completions, e.g. `townsfolk completions bash >
/// ~/.local/share/bash-completion/completions/townsfolk`, or `source <(townsfolk
/// completions zsh)` in `~/.zshrc`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk completions bash > townsfolk.bash
  townsfolk completions fish > townsfolk.fish")]
pub(super) struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    // Generated into memory first: clap_complete panics on a failed write, and a write to
    // standard output must be able to fail quietly (a closed pipe).
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut Cli::command(), "townsfolk", &mut script);
    std::io::stdout().lock().write_all(&script)?;
    Ok(ExitCode::SUCCESS)
}
