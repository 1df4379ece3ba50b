//! `townsfolk schema`: the JSON Schema of the pack format.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Print the JSON Schema of the pack format (for editors that complete and check JSON).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk schema > townsfolk-pack.schema.json")]
pub(super) struct Args {}

pub(super) fn main(_: Args) -> anyhow::Result<ExitCode> {
    out!("{}", pack::schema_string());
    Ok(ExitCode::SUCCESS)
}
