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
    text: bool,
) -> anyhow::Result<ExitCode> {
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
                eprintln!("error: unknown trigger `{id}` for --explain");
                return Ok(ExitCode::from(1));
            }
        }
    }
    let mut tool = script::Script::new(session, wanted);
    let code = run_tool(Some(events), &mut tool, text)?;
    let session = tool.session;
    for problem in session.problems() {
        eprintln!("warning: {problem}");
    }
    Ok(code)
}
