//! `townsfolk triggers`: scripted world events fed to the triggers.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Feed scripted world events to a pack's triggers and print what fired.
///
/// One JSON object per line (e.g.
/// `{"event":"enter","npc":"hero","area":"A"}`, `{"equip":"hero","item":"ice_sword"}`,
/// `{"set_flag":FLAG,"value":true}`, `{"advance":2.5}`); after each, print
/// `{"time":T,"fired":[...],"flags":{...},"counters":{...}}`.
#[derive(clap::Args)]
#[command(after_help = r#"Examples:
  echo '{"advance":2.5}' > events.jsonl
  townsfolk triggers samples/dungeon.json --events events.jsonl --explain visited/clue"#)]
pub(super) struct Args {
    /// The pack file (`.json`) whose triggers to drive; a pack with errors is refused.
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
    /// Output: `json` (one JSON object per reply) or `text` (one readable line per reply).
    #[arg(long, value_enum, default_value = "json")]
    format: Format,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (path, events, seed, explain) =
        (a.pack.as_path(), a.events.as_path(), a.seed, &a.explain[..]);
    use townsfolk_runtime::tools::triggers as script;
    let (_, session) = match open_session(path, seed, None, "run") {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let mut wanted = Vec::new();
    for id in explain {
        match session.program().triggers.find(id) {
            Some(t) => wanted.push(t),
            None => {
                errln!("error: unknown trigger `{id}` for --explain");
                return Ok(ExitCode::from(1));
            }
        }
    }
    let mut tool = script::Script::new(session, wanted);
    let code = run_tool(Some(events), &mut tool, a.format)?;
    let session = tool.session;
    for problem in session.problems() {
        errln!("warning: {problem}");
    }
    Ok(code)
}
