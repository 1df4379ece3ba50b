//! `townsfolk run`: a headless simulation, with its trace and final hash.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

pub(super) fn simulate(
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
