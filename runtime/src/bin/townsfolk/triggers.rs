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
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (path, events, seed, explain) =
        (a.pack.as_path(), a.events.as_path(), a.seed, &a.explain[..]);
    use townsfolk_runtime::debug::explain;
    use townsfolk_runtime::tools::triggers as script;
    let (_, mut session) = match open_session(path, seed, None, "run") {
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
    let bytes =
        std::fs::read(events).with_context(|| format!("cannot read {}", events.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    // Start: the triggers see the world as it begins.
    session.run_triggers();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (n, line) in text.lines().enumerate() {
        let Some(line) = townsfolk_runtime::tools::content(line) else {
            continue;
        };
        match script::step_line(&mut session, line) {
            Ok(v) => writeln!(out, "{v}")?,
            Err(e) => {
                out.flush()?;
                errln!("{}:{}: error: {e}", events.display(), n + 1);
                return Ok(ExitCode::from(1));
            }
        }
    }
    for t in wanted {
        if let Some(x) = explain::explain(session.program(), session.world(), t) {
            writeln!(out, "{}", serde_json::json!({ "explain": x }))?;
        }
    }
    for problem in session.problems() {
        errln!("warning: {problem}");
    }
    Ok(ExitCode::SUCCESS)
}
