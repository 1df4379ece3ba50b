//! `townsfolk trace`: a recorded trace, filtered and shown one readable line per event.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use std::io::BufRead;

use townsfolk_runtime::tools::trace_view::{self as view, Clock, Filter};

/// Filter a recorded trace and print it readably.
///
/// Reads the JSON Lines that `townsfolk run --trace FILE` writes and prints one line per
/// event: tick, time of day (with --pack), the NPC, what happened. Filters combine: an
/// event is printed when its kind is one of the --kind values, it names one of the --npc
/// NPCs (as actor, sender, recipient, addressee, …; `rat` also matches spawned copies
/// `rat#3`) and its tick is within --from..=--to. `--format json` prints the kept lines
/// unchanged (a smaller trace).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk run samples/guards.json --ticks 3000 --trace guards.jsonl
  townsfolk trace guards.jsonl --pack samples/guards.json --npc guard_1 --kind enter --kind exit
  townsfolk trace guards.jsonl --kind message --from 100 --to 2000 --format json")]
pub(super) struct Args {
    /// The trace file (JSON Lines written by `townsfolk run --trace`).
    file: PathBuf,
    /// Keep only events of this kind (`status`, `message`, `enter`, `say`, …). Repeatable.
    #[arg(long, value_name = "KIND")]
    kind: Vec<String>,
    /// Keep only events that name this NPC. Repeatable.
    #[arg(long, value_name = "NPC")]
    npc: Vec<String>,
    /// First tick to keep: a tick (`630`) or, with --pack, a time of day (`07:30`,
    /// `07:30:15`, or `2/07:30` on day 2).
    #[arg(long, value_name = "T")]
    from: Option<String>,
    /// Last tick to keep (inclusive), written like --from.
    #[arg(long, value_name = "T")]
    to: Option<String>,
    /// The pack the trace was recorded from: shows the time of day of each event and
    /// reads times of day in --from/--to.
    #[arg(long, value_name = "PACK")]
    pack: Option<PathBuf>,
    /// The seconds per tick the trace was recorded with, if `run` was given --dt.
    #[arg(long, requires = "pack")]
    dt: Option<f64>,
    /// `text`: one readable line per event; `json`: the kept trace lines unchanged.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let clock = match &a.pack {
        Some(path) => match load_valid(path, "read the clock of") {
            Ok(p) => {
                let mut c = Clock::of(&p);
                if let Some(dt) = a.dt {
                    c.dt = dt;
                }
                Some(c)
            }
            Err(code) => return Ok(code),
        },
        None => None,
    };
    for k in &a.kind {
        if !view::KINDS.contains(&k.as_str()) {
            match pack::suggest(k, view::KINDS) {
                Some(s) => errln!("error: --kind `{k}` is not an event kind; did you mean `{s}`?"),
                None => errln!(
                    "error: --kind `{k}` is not an event kind; kinds: {}",
                    view::KINDS.join(", ")
                ),
            }
            return Ok(ExitCode::from(1));
        }
    }
    let time = |s: &Option<String>, first_after: bool, flag: &str| -> Result<Option<u64>, String> {
        s.as_deref()
            .map(|s| view::parse_time(s, clock.as_ref(), first_after))
            .transpose()
            .map_err(|e| format!("{flag} {e}"))
    };
    let (from, to) = match (time(&a.from, true, "--from"), time(&a.to, false, "--to")) {
        (Ok(f), Ok(t)) => (f, t),
        (Err(e), _) | (_, Err(e)) => {
            errln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let filter = Filter {
        kinds: a.kind.clone(),
        npcs: a.npc.clone(),
        from,
        to,
    };
    let file = std::fs::File::open(&a.file)
        .with_context(|| format!("cannot read {}", a.file.display()))?;
    let input = std::io::BufReader::new(file);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // Names seen, to say when a --npc or --kind never matched anything.
    let mut seen_npcs = std::collections::BTreeSet::new();
    let mut seen_kinds = std::collections::BTreeSet::new();
    let mut kept = 0usize;
    for (n, line) in input.split(b'\n').enumerate() {
        let line = line.with_context(|| format!("cannot read {}", a.file.display()))?;
        let line = String::from_utf8_lossy(&line);
        let ev = match view::read_line(&line) {
            Ok(Some(ev)) => ev,
            Ok(None) => continue,
            Err(e) => {
                out.flush()?;
                errln!("{}:{}: error: {e}", a.file.display(), n + 1);
                return Ok(ExitCode::from(1));
            }
        };
        for name in view::npcs(&ev) {
            if !seen_npcs.contains(name) {
                seen_npcs.insert(name.to_string());
            }
        }
        if !seen_kinds.contains(&ev.kind) {
            seen_kinds.insert(ev.kind.clone());
        }
        if !filter.keeps(&ev) {
            continue;
        }
        kept += 1;
        match a.format {
            Format::Text => writeln!(out, "{}", view::text_line(&ev, clock.as_ref()))?,
            Format::Json => writeln!(out, "{}", line.trim())?,
        }
    }
    out.flush()?;
    for k in &a.kind {
        if !seen_kinds.contains(k) {
            errln!("note: the trace has no `{k}` event");
        }
    }
    let names: Vec<&str> = seen_npcs.iter().map(String::as_str).collect();
    for npc in &a.npc {
        let prefix = format!("{npc}#");
        if !names.iter().any(|n| *n == npc || n.starts_with(&prefix)) {
            match pack::suggest(npc, &names) {
                Some(s) => errln!("note: no event names NPC `{npc}`; did you mean `{s}`?"),
                None => errln!("note: no event names NPC `{npc}`"),
            }
        }
    }
    if kept == 0 {
        errln!("note: no event of the trace matches");
    }
    Ok(ExitCode::SUCCESS)
}
