//! Step-back cost: memory per snapshot and the time to step back one tick, for the largest
//! sample and for a 10,000-NPC world. Run in release:
//!
//! ```sh
//! cargo run --release -p townsfolk-runtime --example stepback
//! ```

use std::time::Instant;

use townsfolk_runtime::Session;
use townsfolk_runtime::debug::{Debugger, SnapshotConfig};
use townsfolk_runtime::pack::{NpcDef, Pack, Point};
use townsfolk_runtime::program;

fn sample() -> Pack {
    let l = program::load_str(include_str!("../../samples/guards.json"));
    l.pack.expect("the sample loads")
}

/// The sample's town with `n` NPCs: its guards, merchant and cat cloned over a bigger square.
fn crowd(n: usize) -> Pack {
    let mut p = sample();
    let base = p.world.npcs.clone();
    p.world.npcs.clear();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in 0..n {
        // xorshift64 for placement: deterministic.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let b = &base[i % base.len()];
        p.world.npcs.push(NpcDef {
            id: format!("{}_{i}", b.id),
            pos: Point {
                x: (x % 6000) as f64 / 100.0,
                y: ((x >> 20) % 4000) as f64 / 100.0,
            },
            ..b.clone()
        });
    }
    // Guards take orders from the merchant clones: keep the original guard ids valid.
    for (k, b) in base.iter().enumerate() {
        p.world.npcs[k].id = b.id.clone();
    }
    p
}

fn measure(name: &str, p: &Pack, ticks: u64, interval: u64) {
    let session = Session::from_pack(p, 1).expect("valid pack");
    let npcs = session.program().npcs.len();
    let mut d = Debugger::new(
        session,
        SnapshotConfig {
            interval,
            max_bytes: 1 << 30,
        },
    );
    let t0 = Instant::now();
    d.run_ticks(ticks);
    let forward = t0.elapsed().as_secs_f64() / ticks as f64;
    let stats = d.snapshot_stats();
    // Step back one tick, many times, from the end of the run.
    let steps = 20.min(ticks as usize);
    let mut times = Vec::new();
    for _ in 0..steps {
        let t = Instant::now();
        d.back_tick();
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let max = times.last().copied().unwrap_or(0.0);
    println!(
        "| {name} | {npcs} | {interval} | {:.1} KiB | {:.3} ms | {:.2} ms | {:.2} ms |",
        stats.bytes_per_snapshot as f64 / 1024.0,
        forward * 1e3,
        mean * 1e3,
        max * 1e3
    );
}

fn main() {
    println!(
        "| world | NPCs | snapshot interval (ticks) | memory per snapshot | forward tick | step back one tick (mean of 20) | (worst) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (name, text) in [
        (
            "samples/guards.json",
            include_str!("../../samples/guards.json"),
        ),
        (
            "samples/daily_life.json",
            include_str!("../../samples/daily_life.json"),
        ),
        (
            "samples/dungeon.json",
            include_str!("../../samples/dungeon.json"),
        ),
        (
            "samples/chronicle.json",
            include_str!("../../samples/chronicle.json"),
        ),
        (
            "samples/plaza.json",
            include_str!("../../samples/plaza.json"),
        ),
    ] {
        let p = program::load_str(text).pack.expect("the samples load");
        measure(name, &p, 2000, 50);
    }
    let big = crowd(10_000);
    measure("guards town × 10,000 NPCs", &big, 400, 50);
    measure("guards town × 10,000 NPCs", &big, 400, 25);
    measure("guards town × 10,000 NPCs", &big, 400, 10);
}
