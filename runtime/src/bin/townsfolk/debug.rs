//! `townsfolk debug`: the line protocol of the debugger.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Debug a pack from a script of JSON commands, one per line.
///
/// One JSON command per line in, one JSON reply per line out (commands: break, delete,
/// enable, disable, breakpoints, continue, step, back, run, inspect, hash, tick, why, trace,
/// snapshots, help). Reads standard input without --script.
#[derive(clap::Args)]
#[command(after_help = r#"Examples:
  echo '{"cmd":"run","ticks":100}' > session.txt
  echo '{"cmd":"inspect","npc":"cat"}' >> session.txt
  townsfolk debug samples/guards.json --seed 3 --script session.txt
  echo '{"cmd":"help"}' | townsfolk debug samples/guards.json"#)]
pub(super) struct Args {
    /// The pack file (`.json`) to debug; its saved `editor.breakpoints` are loaded.
    pack: PathBuf,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// File of commands (one JSON object per line; blank lines and `#` comments skipped).
    #[arg(long)]
    script: Option<PathBuf>,
    /// Ticks between step-back snapshots.
    #[arg(long, default_value_t = SnapshotConfig::default().interval)]
    snapshot_interval: u64,
    /// Memory cap for step-back snapshots, in MiB (each counted as what cloning the world
    /// allocates).
    #[arg(long, default_value_t = SnapshotConfig::default().max_bytes / (1024 * 1024))]
    snapshot_mib: usize,
    /// A base pack to layer the pack on (repeatable, lowest first): lets a mod extend a base
    /// outside its folder tree.
    #[arg(long = "with", value_name = "BASE")]
    with: Vec<PathBuf>,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (path, seed, script) = (a.pack.as_path(), a.seed, a.script.as_deref());
    let config = SnapshotConfig {
        interval: a.snapshot_interval.max(1),
        max_bytes: a.snapshot_mib.saturating_mul(1024 * 1024),
    };
    let (p, session, layers) = match open_session_layered(path, &a.with, seed, None, "debug") {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let mut dbg = Debugger::new(session, config);
    dbg.set_layers(layers);
    dbg.declare(&p);
    for (id, e) in dbg.load_breakpoints(&p.editor.breakpoints) {
        errln!("warning: saved breakpoint {id} ignored: {e}");
    }
    run_tool(script, &mut dbg, Format::Json)
}
