//! `townsfolk events`: a scripted story-tracker session.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Drive the story-event tracker from a script of JSON ops, one per line.
///
/// One JSON op per line in (advance, launch, end, set), one JSON state line out. Reads
/// standard input without --script.
#[derive(clap::Args)]
#[command(after_help = r#"Examples:
  echo '{"op":"advance","days":30}' > ops.jsonl
  townsfolk events samples/chronicle.json --scenario early_reign --script ops.jsonl
  echo '{"op":"set","counter":"gold","value":3}' | townsfolk events samples/chronicle.json"#)]
pub(super) struct Args {
    /// The pack file (`.json`) whose story events and scenarios to track.
    pack: PathBuf,
    /// Scenario id (default: the only scenario, or `world.scenario`).
    #[arg(long)]
    scenario: Option<String>,
    /// File of ops (one JSON object per line; blank lines and `#` comments skipped).
    #[arg(long)]
    script: Option<PathBuf>,
    /// Output: `json` (one JSON object per reply) or `text` (one readable line per reply).
    #[arg(long, value_enum, default_value = "json")]
    format: Format,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (path, scenario, script) = (a.pack.as_path(), a.scenario.as_deref(), a.script.as_deref());
    let (program, s) = match story_program(path, scenario) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let Some(mut session) = townsfolk_runtime::tools::events::ScriptSession::new(program, s) else {
        return Ok(ExitCode::from(1));
    };
    run_tool(script, &mut session, a.format)
}
