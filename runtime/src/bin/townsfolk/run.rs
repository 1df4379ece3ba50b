//! `townsfolk run`: a headless simulation, with its trace and final hash.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Simulate a pack headlessly; the last line is the final world's hash.
///
/// Prints a summary (clock, NPCs, flags, counters) and, as its last line, `hash <hex>` of the
/// final world state. The same pack and seed give the same trace and hash on every machine.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk run samples/guards.json --seed 7 --ticks 3000
  townsfolk run samples/daily_life.json --ticks 600 --dt 0.2 --trace daily.jsonl
  townsfolk run samples/mods/third_pub.json --with samples/daily_life.json --ticks 600")]
pub(super) struct Args {
    /// The pack file (`.json`) to simulate; a pack with errors is refused.
    pack: PathBuf,
    /// Random seed: one seed and one pack give one playthrough.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of ticks to simulate.
    #[arg(long)]
    ticks: u64,
    /// Override the pack's seconds per tick (0.001 to 10).
    #[arg(long)]
    dt: Option<f64>,
    /// Write every event as JSON Lines to this file (read it with `townsfolk trace`).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// A base pack to layer the pack on (repeatable, lowest first): lets a mod extend a base
    /// outside its folder tree.
    #[arg(long = "with", value_name = "BASE")]
    with: Vec<PathBuf>,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (path, seed, ticks, dt, trace) =
        (a.pack.as_path(), a.seed, a.ticks, a.dt, a.trace.as_deref());
    if let Some(dt) = dt
        && !(dt.is_finite() && (0.001..=10.0).contains(&dt))
    {
        errln!("error: --dt must be between 0.001 and 10 seconds per tick, found {dt}");
        return Ok(ExitCode::from(1));
    }
    let (_, mut session, layers) = match open_session_layered(path, &a.with, seed, dt, "run") {
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
                if layers.is_empty() {
                    writeln!(w, "{}", session.trace_json(ev))?;
                } else {
                    // A mod's assets are named with their layer.
                    let mut v: serde_json::Value = serde_json::from_str(&session.trace_json(ev))?;
                    mods::annotate_event(&mut v, &layers);
                    writeln!(w, "{v}")?;
                }
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
    outln!(
        "pack `{}`: {} NPCs, seed {}, {} ticks of {} s",
        prog.name,
        prog.npcs.len(),
        seed,
        session.tick(),
        prog.dt
    );
    let minutes = (world.hour * 60.0).floor() as i64;
    outln!(
        "clock: day {}, {:02}:{:02}",
        world.day,
        minutes / 60,
        minutes % 60
    );
    for (i, n) in prog.npcs.iter().enumerate() {
        let pos = world.positions()[i];
        outln!(
            "  {:<16} at ({:8.2}, {:8.2})  tree `{}` {}",
            n.id,
            pos.x,
            pos.y,
            prog.trees
                .get(n.tree as usize)
                .map_or("", |t| t.id.as_str()),
            world.last_status(i).name()
        );
    }
    for (name, v) in prog.flags.names.iter().zip(&world.flags) {
        outln!("  flag {name} = {v}");
    }
    for (name, v) in prog.counters.names.iter().zip(&world.counters) {
        outln!("  counter {name} = {v}");
    }
    for problem in session.problems() {
        outln!("warning: {problem}");
    }
    outln!("hash {hash}");
    Ok(ExitCode::SUCCESS)
}
