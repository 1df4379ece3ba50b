//! `townsfolk`: validate, format, describe and run Townsfolk packs without the editor.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use townsfolk_runtime::Session;
use townsfolk_runtime::debug::{Debugger, SnapshotConfig};
use townsfolk_runtime::pack::{self, Diagnostic};
use townsfolk_runtime::program::{self, Program};
use townsfolk_runtime::tools::debug as protocol;

#[derive(Parser)]
#[command(
    name = "townsfolk",
    version,
    about = "Validate, format and run Townsfolk packs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Check packs and print every problem as `file:line:col: severity: json.path: message`.
    /// Exits 1 when any pack has an error.
    Validate {
        /// Pack files.
        #[arg(required = true)]
        packs: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Rewrite a pack in canonical form (stable key order, 2-space indent, final newline).
    Fmt {
        pack: PathBuf,
        /// Write here instead of rewriting the pack in place.
        #[arg(short, long, conflicts_with = "check")]
        output: Option<PathBuf>,
        /// Change nothing; exit 1 if the pack is not canonical.
        #[arg(long)]
        check: bool,
        /// Rewrite even if the pack has unknown fields (they are dropped).
        #[arg(long)]
        drop_unknown: bool,
    },
    /// Print the JSON Schema of the pack format.
    Schema,
    /// Simulate a pack headlessly. The last line printed is `hash <hex>` of the final world.
    Run {
        pack: PathBuf,
        /// Random seed: one seed and one pack give one playthrough.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of ticks to simulate.
        #[arg(long)]
        ticks: u64,
        /// Override the pack's seconds per tick.
        #[arg(long)]
        dt: Option<f64>,
        /// Write every event as JSON Lines to this file.
        #[arg(long)]
        trace: Option<PathBuf>,
    },
    /// Simulate a pack's background conversations and print their metrics: per character
    /// (talk share, turns, interruptions, feedback, overlaps) and per run (overlap rate,
    /// gaps, group size, churn).
    Talk {
        pack: PathBuf,
        /// Simulated seconds.
        #[arg(long, default_value_t = 600.0)]
        seconds: f64,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print JSON instead of tables.
        #[arg(long)]
        json: bool,
        /// Run once per value of a parameter and show how the metrics move:
        /// `[NPC.]PARAM=FROM:TO:STEP`, e.g. `talkativeness=0.1:0.9:0.2` (every character) or
        /// `anna.confidence=0:1:0.25` (one character).
        #[arg(long)]
        sweep: Option<String>,
    },
    /// Debug a pack from a script: one JSON command per line in, one JSON reply per line out
    /// (commands: break, delete, enable, disable, breakpoints, continue, step, back, run,
    /// inspect, hash, tick, why, trace, snapshots, help). Reads standard input without --script.
    Debug {
        pack: PathBuf,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// File of commands (one JSON object per line; blank lines and `#` comments skipped).
        #[arg(long)]
        script: Option<PathBuf>,
        /// Ticks between step-back snapshots.
        #[arg(long, default_value_t = 25)]
        snapshot_interval: u64,
        /// Memory cap for step-back snapshots, in MiB.
        #[arg(long, default_value_t = 256)]
        snapshot_mib: usize,
    },
    /// A scripted story-event tracker session: one JSON op per line in (advance, launch, end,
    /// set), one JSON state line out. Reads standard input without --script.
    Events {
        pack: PathBuf,
        /// Scenario id (default: the only scenario, or `world.scenario`).
        #[arg(long)]
        scenario: Option<String>,
        /// File of ops (one JSON object per line; blank lines and `#` comments skipped).
        #[arg(long)]
        script: Option<PathBuf>,
    },
    /// Monte Carlo playthroughs of a scenario with the real executor: per-event launch
    /// probability, outcomes, launch days, expiries; distinct orders and entropy.
    Replay {
        pack: PathBuf,
        /// Scenario id (default: the only scenario, or `world.scenario`).
        #[arg(long)]
        scenario: Option<String>,
        /// Number of playthroughs.
        #[arg(long, default_value_t = 1000)]
        runs: u32,
        /// Random seed: the same seed gives the same report.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: the number of cores); results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Feed scripted world events to a pack's triggers, one JSON object per line (e.g.
    /// `{"event":"enter","npc":"hero","area":"A"}`, `{"equip":"hero","item":"ice_sword"}`,
    /// `{"set_flag":"f","value":true}`, `{"advance":2.5}`); after each, print
    /// `{"time":T,"fired":[...],"flags":{...},"counters":{...}}`.
    Triggers {
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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Validate { packs, format } => validate(&packs, format),
        Command::Fmt {
            pack,
            output,
            check,
            drop_unknown,
        } => fmt(&pack, output.as_deref(), check, drop_unknown),
        Command::Schema => {
            print!("{}", pack::schema_string());
            Ok(ExitCode::SUCCESS)
        }
        Command::Run {
            pack,
            seed,
            ticks,
            dt,
            trace,
        } => simulate(&pack, seed, ticks, dt, trace.as_deref()),
        Command::Triggers {
            pack,
            events,
            seed,
            explain,
        } => triggers(&pack, &events, seed, &explain),
        Command::Talk {
            pack,
            seconds,
            seed,
            json,
            sweep,
        } => talk(&pack, seconds, seed, json, sweep.as_deref()),
        Command::Debug {
            pack,
            seed,
            script,
            snapshot_interval,
            snapshot_mib,
        } => debug(
            &pack,
            seed,
            script.as_deref(),
            SnapshotConfig {
                interval: snapshot_interval.max(1),
                max_bytes: snapshot_mib.saturating_mul(1024 * 1024),
            },
        ),
        Command::Events {
            pack,
            scenario,
            script,
        } => events(&pack, scenario.as_deref(), script.as_deref()),
        Command::Replay {
            pack,
            scenario,
            runs,
            seed,
            threads,
            json,
        } => replay(&pack, scenario.as_deref(), runs, seed, threads, json),
    }
}

/// Loads a pack for the story commands and picks the scenario.
fn story_program(
    path: &Path,
    scenario: Option<&str>,
) -> Result<(std::sync::Arc<Program>, u32), ExitCode> {
    let p = load_valid(path, "use")?;
    let (program, diags) = program::build(&p);
    if diags.iter().any(Diagnostic::is_error) {
        print_diags(path, &diags);
        return Err(ExitCode::from(1));
    }
    let lib = &program.events;
    let known: Vec<&str> = lib.scenarios.iter().map(|s| s.id.as_str()).collect();
    let chosen = match scenario {
        Some(id) => lib.scenario(id),
        None if lib.scenarios.len() == 1 => Some(0),
        None => lib.world_scenario,
    };
    let Some(s) = chosen else {
        match scenario {
            Some(id) => eprintln!(
                "error: {}: unknown scenario `{id}`; scenarios: {}",
                path.display(),
                if known.is_empty() {
                    "(none)".to_string()
                } else {
                    known.join(", ")
                }
            ),
            None => eprintln!(
                "error: {}: say which scenario with --scenario ID; scenarios: {}",
                path.display(),
                if known.is_empty() {
                    "(none)".to_string()
                } else {
                    known.join(", ")
                }
            ),
        }
        return Err(ExitCode::from(1));
    };
    Ok((std::sync::Arc::new(program), s))
}

fn events(path: &Path, scenario: Option<&str>, script: Option<&Path>) -> anyhow::Result<ExitCode> {
    let (program, s) = match story_program(path, scenario) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let Some(mut session) = townsfolk_runtime::tools::events::ScriptSession::new(program, s) else {
        return Ok(ExitCode::from(1));
    };
    each_line(script, |line| session.line(line))?;
    Ok(ExitCode::SUCCESS)
}

fn replay(
    path: &Path,
    scenario: Option<&str>,
    runs: u32,
    seed: u64,
    threads: Option<usize>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    if runs == 0 || runs > 10_000_000 {
        eprintln!("error: --runs must be between 1 and 10000000, found {runs}");
        return Ok(ExitCode::from(1));
    }
    let (program, s) = match story_program(path, scenario) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let step = (runs / 10).max(1);
    let started = std::time::Instant::now();
    let progress = |done: u32, total: u32| {
        if total >= 10_000 && done.is_multiple_of(step) {
            eprintln!(
                "replay: {done}/{total} runs ({:.1} s)",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let Some(report) =
        townsfolk_runtime::tools::replay::replay(&program, s, runs, seed, threads, &progress)
    else {
        return Ok(ExitCode::from(1));
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(ExitCode::SUCCESS)
}

fn debug(
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
    for (id, e) in dbg.load_breakpoints(&p.editor.breakpoints) {
        eprintln!("warning: saved breakpoint {id} ignored: {e}");
    }
    each_line(script, |line| {
        protocol::handle_line(&mut dbg, line).map(|r| r.to_string())
    })?;
    Ok(ExitCode::SUCCESS)
}

fn talk(
    path: &Path,
    seconds: f64,
    seed: u64,
    json: bool,
    sweep: Option<&str>,
) -> anyhow::Result<ExitCode> {
    use townsfolk_runtime::tools::talk as metrics;
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 1.0e6) {
        eprintln!("error: --seconds must be between 0 and 1000000, found {seconds}");
        return Ok(ExitCode::from(1));
    }
    let p = match load_valid(path, "run") {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    if p.casts.is_empty() {
        eprintln!(
            "{}: the pack has no `casts`: nothing converses",
            path.display()
        );
        return Ok(ExitCode::from(1));
    }
    let simulate = |p: &pack::Pack| -> Result<metrics::Report, Vec<Diagnostic>> {
        let mut s = Session::from_pack(p, seed)?;
        let ticks = (seconds / s.program().dt).ceil() as u64;
        s.run(ticks);
        Ok(metrics::report(s.program(), s.world()))
    };
    let Some(spec) = sweep else {
        let r = match simulate(&p) {
            Ok(r) => r,
            Err(d) => {
                print_diags(path, &d);
                return Ok(ExitCode::from(1));
            }
        };
        if json {
            println!("{}", serde_json::to_string_pretty(&r)?);
        } else {
            println!(
                "pack `{}`: {} s of conversation, seed {seed}",
                p.name, r.run.seconds
            );
            print!("{}", metrics::render_text(&r));
        }
        return Ok(ExitCode::SUCCESS);
    };
    let sw = match metrics::Sweep::parse(spec) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --sweep {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let mut rows = Vec::new();
    for &v in &sw.values {
        let mut q = p.clone();
        if let Err(e) = sw.apply(&mut q, v) {
            eprintln!("error: --sweep: {e}");
            return Ok(ExitCode::from(1));
        }
        match simulate(&q) {
            Ok(r) => rows.push((v, r)),
            Err(d) => {
                print_diags(path, &d);
                return Ok(ExitCode::from(1));
            }
        }
    }
    let who = sw.npc.clone();
    if json {
        let v: Vec<_> = rows
            .iter()
            .map(|(v, r)| serde_json::json!({"value": v, "report": r}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "npc": who, "param": sw.param, "seed": seed, "runs": v
            }))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "sweep of {} for {} ({} s each, seed {seed})",
        sw.param,
        who.as_deref()
            .map_or("every character".to_string(), |n| format!("`{n}`")),
        seconds
    );
    println!(
        "{:>6} | {:>7} {:>6} {:>8} {:>8} {:>7} | {:>7} {:>8} {:>6} {:>9} {:>9}",
        "value",
        "share",
        "turns",
        "intr m/s",
        "feedback",
        "ovl won",
        "overlap",
        "mean gap",
        "group",
        "splits/m",
        "merges/m"
    );
    for (v, r) in &rows {
        // The swept character, or the mean over every character.
        let chars: Vec<&metrics::CharReport> = r
            .characters
            .iter()
            .filter(|c| who.as_deref().is_none_or(|n| c.npc == n))
            .collect();
        let n = chars.len().max(1) as f64;
        let share = chars.iter().map(|c| c.talk_share).sum::<f64>() / n;
        let turns = chars.iter().map(|c| c.turns as f64).sum::<f64>() / n;
        let made = chars
            .iter()
            .map(|c| c.interruptions_made as f64)
            .sum::<f64>()
            / n;
        let suffered = chars
            .iter()
            .map(|c| c.interruptions_suffered as f64)
            .sum::<f64>()
            / n;
        let fb = chars.iter().map(|c| c.feedback_given as f64).sum::<f64>() / n;
        let won: u64 = chars.iter().map(|c| c.overlaps_won).sum();
        let ovl: u64 = chars.iter().map(|c| c.overlaps).sum();
        println!(
            "{:>6.2} | {:>6.1}% {:>6.1} {:>8} {:>8.1} {:>6.0}% | {:>6.1}% {:>7.2}s {:>6.2} {:>9.2} {:>9.2}",
            v,
            share * 100.0,
            turns,
            format!("{made:.0}/{suffered:.0}"),
            fb,
            if ovl == 0 {
                0.0
            } else {
                won as f64 * 100.0 / ovl as f64
            },
            r.run.overlap_rate * 100.0,
            r.run.gap_mean_seconds,
            r.run.mean_group_size,
            r.run.splits_per_minute,
            r.run.merges_per_minute
        );
    }
    if who.is_none() {
        println!("(character columns are means over every character)");
    }
    Ok(ExitCode::SUCCESS)
}

fn triggers(path: &Path, events: &Path, seed: u64, explain: &[String]) -> anyhow::Result<ExitCode> {
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

/// Loads a pack; a pack with errors is refused (its diagnostics printed, the exit code to
/// return comes back). `what` completes "cannot … a pack with errors".
fn load_valid(path: &Path, what: &str) -> Result<pack::Pack, ExitCode> {
    let loaded = program::load_file(path);
    match loaded.pack {
        Some(p) if !loaded.diagnostics.iter().any(|d| d.is_error()) => Ok(p),
        _ => {
            print_diags(path, &loaded.diagnostics);
            eprintln!("{}: cannot {what} a pack with errors", path.display());
            Err(ExitCode::from(1))
        }
    }
}

/// Loads a pack and starts a session of it (with `dt` overriding its tick length). A pack
/// with errors is refused: its diagnostics are printed and the exit code to return comes back.
fn open_session(
    path: &Path,
    seed: u64,
    dt: Option<f64>,
    what: &str,
) -> Result<(pack::Pack, Session), ExitCode> {
    let mut p = load_valid(path, what)?;
    if let Some(dt) = dt {
        p.world.dt = dt;
    }
    match Session::from_pack(&p, seed) {
        Ok(s) => Ok((p, s)),
        Err(diags) => {
            print_diags(path, &diags);
            Err(ExitCode::from(1))
        }
    }
}

/// Reads commands line by line (from `script`, or standard input) and prints each reply on
/// its own line. Lines that are not UTF-8 are read lossily (they then fail to parse, with a
/// reply).
fn each_line(
    script: Option<&Path>,
    mut reply: impl FnMut(&str) -> Option<String>,
) -> anyhow::Result<()> {
    let mut input: Box<dyn std::io::BufRead> = match script {
        Some(f) => Box::new(std::io::BufReader::new(
            std::fs::File::open(f).with_context(|| format!("cannot read {}", f.display()))?,
        )),
        None => Box::new(std::io::BufReader::new(std::io::stdin())),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        if let Some(r) = reply(&String::from_utf8_lossy(&buf)) {
            writeln!(out, "{r}")?;
            out.flush()?;
        }
    }
    Ok(())
}

fn print_diags(file: &Path, diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("{}", d.render(&file.display().to_string()));
    }
}

fn validate(packs: &[PathBuf], format: Format) -> anyhow::Result<ExitCode> {
    let mut any_error = false;
    let mut all = Vec::new();
    for path in packs {
        let loaded = program::load_file(path);
        any_error |= loaded.has_errors();
        match format {
            Format::Text => {
                for d in &loaded.diagnostics {
                    println!("{}", d.render(&path.display().to_string()));
                }
                let errors = loaded.diagnostics.iter().filter(|d| d.is_error()).count();
                let warnings = loaded.diagnostics.len() - errors;
                eprintln!(
                    "{}: {} error{}, {} warning{}",
                    path.display(),
                    errors,
                    if errors == 1 { "" } else { "s" },
                    warnings,
                    if warnings == 1 { "" } else { "s" }
                );
            }
            Format::Json => {
                for d in loaded.diagnostics {
                    let mut v = serde_json::to_value(&d)?;
                    if let Some(o) = v.as_object_mut() {
                        o.insert("file".into(), path.display().to_string().into());
                    }
                    all.push(v);
                }
            }
        }
    }
    if format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    Ok(if any_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn fmt(
    path: &Path,
    output: Option<&Path>,
    check: bool,
    drop_unknown: bool,
) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let loaded = program::load_bytes(&bytes);
    let Some(p) = loaded.pack.as_ref().filter(|_| !loaded.lossy) else {
        print_diags(path, &loaded.diagnostics);
        eprintln!(
            "{}: not formatted: parts of the pack could not be read (fix the errors above first)",
            path.display()
        );
        return Ok(ExitCode::from(1));
    };
    if !loaded.unknown_fields.is_empty() && !check && !drop_unknown {
        print_diags(path, &loaded.diagnostics);
        eprintln!(
            "{}: not formatted: formatting would drop {} unknown field(s) listed above; fix their names or pass --drop-unknown",
            path.display(),
            loaded.unknown_fields.len()
        );
        return Ok(ExitCode::from(1));
    }
    let text = pack::to_canonical_string(p);
    if check {
        if text.as_bytes() == bytes.as_slice() {
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!(
            "{}: not canonical (run `townsfolk fmt {}`)",
            path.display(),
            path.display()
        );
        return Ok(ExitCode::from(1));
    }
    let out = output.unwrap_or(path);
    std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(ExitCode::SUCCESS)
}

fn simulate(
    path: &Path,
    seed: u64,
    ticks: u64,
    dt: Option<f64>,
    trace: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    if let Some(dt) = dt
        && !(dt.is_finite() && (0.001..=10.0).contains(&dt))
    {
        eprintln!("error: --dt must be between 0.001 and 10 seconds per tick, found {dt}");
        return Ok(ExitCode::from(1));
    }
    let (_, mut session) = match open_session(path, seed, dt, "run") {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let mut out = match trace {
        Some(t) => {
            session.set_tracing(true);
            let f = std::fs::File::create(t)
                .with_context(|| format!("cannot create {}", t.display()))?;
            Some(std::io::BufWriter::new(f))
        }
        None => None,
    };
    for _ in 0..ticks {
        session.step();
        if let Some(w) = out.as_mut() {
            for ev in session.trace() {
                writeln!(w, "{}", session.trace_json(ev))?;
            }
            session.clear_trace();
        }
    }
    let hash = format!("{:016x}", session.hash());
    if let Some(mut w) = out {
        writeln!(
            w,
            "{}",
            serde_json::json!({"tick": session.tick(), "kind": "end", "hash": hash})
        )?;
        w.flush()?;
    }
    let prog = session.program().clone();
    let world = session.world();
    println!(
        "pack `{}`: {} NPCs, seed {}, {} ticks of {} s",
        prog.name,
        prog.npcs.len(),
        seed,
        session.tick(),
        prog.dt
    );
    let minutes = (world.hour * 60.0).floor() as i64;
    println!(
        "clock: day {}, {:02}:{:02}",
        world.day,
        minutes / 60,
        minutes % 60
    );
    for (i, n) in prog.npcs.iter().enumerate() {
        let pos = world.pos[i];
        println!(
            "  {:<16} at ({:8.2}, {:8.2})  tree `{}` {}",
            n.id,
            pos.x,
            pos.y,
            prog.trees
                .get(n.tree as usize)
                .map_or("", |t| t.id.as_str()),
            world.npcs[i].last_status.name()
        );
    }
    for (name, v) in prog.flags.names.iter().zip(&world.flags) {
        println!("  flag {name} = {v}");
    }
    for (name, v) in prog.counters.names.iter().zip(&world.counters) {
        println!("  counter {name} = {v}");
    }
    for problem in session.problems() {
        println!("warning: {problem}");
    }
    println!("hash {hash}");
    Ok(ExitCode::SUCCESS)
}
