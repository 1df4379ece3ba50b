//! `townsfolk triggers`: scripted world events fed to the triggers.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

pub(super) fn triggers(
    path: &Path,
    events: &Path,
    seed: u64,
    explain: &[String],
) -> anyhow::Result<ExitCode> {
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
                eprintln!("error: unknown trigger `{id}` for --explain");
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
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match script::step_line(&mut session, line) {
            Ok(v) => writeln!(out, "{v}")?,
            Err(e) => {
                out.flush()?;
                eprintln!("{}:{}: error: {e}", events.display(), n + 1);
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
        eprintln!("warning: {problem}");
    }
    Ok(ExitCode::SUCCESS)
}
