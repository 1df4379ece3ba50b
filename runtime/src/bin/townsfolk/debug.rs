//! `townsfolk debug`: the line protocol of the debugger.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

pub(super) fn debug(
    path: &Path,
    seed: u64,
    script: Option<&Path>,
    config: SnapshotConfig,
) -> anyhow::Result<ExitCode> {
    let (p, session) = match open_session(path, seed, None, "debug") {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let mut dbg = Debugger::new(session, config);
    dbg.declare(&p);
    for (id, e) in dbg.load_breakpoints(&p.editor.breakpoints) {
        eprintln!("warning: saved breakpoint {id} ignored: {e}");
    }
    run_tool(script, &mut dbg, false)
}
