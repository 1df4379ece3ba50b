//! `townsfolk events`: a scripted story-tracker session.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

pub(super) fn events(
    path: &Path,
    scenario: Option<&str>,
    script: Option<&Path>,
    text: bool,
) -> anyhow::Result<ExitCode> {
    let (program, s) = match story_program(path, scenario) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let Some(mut session) = townsfolk_runtime::tools::events::ScriptSession::new(program, s) else {
        return Ok(ExitCode::from(1));
    };
    run_tool(script, &mut session, text)
}
