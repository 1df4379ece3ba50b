//! Trigger-system scaling benchmark (see BENCHMARKS.md). Run with
//! `cargo run --release -p townsfolk-runtime --example triggers_bench`.
//!
//! 1. Cost per delivered event with 1k / 10k / 100k unrelated triggers in the world: one
//!    trigger listens for the hero entering area A; the others each wait for their own
//!    message. Each iteration reports an enter (or exit) event and runs a trigger pass.
//! 2. Cost per tick of 10k proximity triggers with 10k walking NPCs among 10k posts:
//!    event-driven radius conditions (`in_radius`, matched through the sensor grid) and
//!    polled ones (`near`, evaluated every tick), each against the same world without
//!    triggers (and one row where the posts are obstacles the NPCs steer around). Each asserts
//!    that its triggers fired.

use std::time::Instant;

use serde_json::{Value, json};
use townsfolk_runtime::Session;
use townsfolk_runtime::pack::Pack;
use townsfolk_runtime::world::triggers::{self, WorldEvent};

fn pack(npcs: Vec<Value>, objects: Vec<Value>, triggers: Vec<Value>) -> Pack {
    let v = json!({
        "format": "townsfolk-pack", "version": 1, "name": "bench",
        "world": {"bounds": {"min": [0.0, 0.0], "max": [1000.0, 1000.0]}, "objects": objects, "npcs": npcs},
        "trees": [
            {"id": "idle", "root": {"id": "w", "type": "wait", "seconds": 1000000.0}},
            {"id": "walk", "root": {"id": "r", "type": "repeat", "children": [{"id": "s", "type": "sequence", "children": [
                {"id": "a", "type": "move_to", "target": {"point": [990.0, 990.0]}},
                {"id": "b", "type": "move_to", "target": {"point": [10.0, 10.0]}}]}]}}
        ],
        "areas": [{"id": "A", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}}}],
        "triggers": [{"id": "s", "triggers": triggers}]
    });
    let pack: Pack = serde_json::from_value(v).expect("pack");
    pack
}

/// Nanoseconds this thread has spent on a CPU (Linux `schedstat`; 0 elsewhere): on a machine
/// shared with others, wall time also counts the time the thread waited for a core.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(0)
}

fn session(p: &Pack) -> Session {
    match Session::from_pack(p, 1) {
        Ok(s) => s,
        Err(d) => panic!("{d:#?}"),
    }
}

fn per_event(unrelated: usize) -> f64 {
    let mut ts: Vec<Value> = (0..unrelated)
        .map(|i| json!({"id": format!("m{i}"), "when": {"type": "received", "who": "hero", "message": format!("msg{i}"), "consume": true},
                        "responses": [{"do": "add_counter", "counter": "m", "by": 1}]}))
        .collect();
    ts.push(
        json!({"id": "area", "when": {"type": "in_area", "who": "hero", "area": "A"},
                   "responses": [{"do": "add_counter", "counter": "entered", "by": 1}]}),
    );
    let p = pack(
        vec![json!({"id": "hero", "pos": [500.0, 500.0], "tree": "idle"})],
        vec![],
        ts,
    );
    let mut s = session(&p);
    s.run_triggers();
    let prog = s.program().clone();
    let area = match prog.entity("A") {
        Some(townsfolk_runtime::value::EntityId::Area(a)) => a,
        _ => panic!("area"),
    };
    let iters = 200_000u32;
    let t0 = Instant::now();
    for k in 0..iters {
        let ev = if k % 2 == 0 {
            WorldEvent::Enter { npc: 0, area }
        } else {
            WorldEvent::Exit { npc: 0, area }
        };
        triggers::report(&prog, s.world_mut(), ev);
        s.run_triggers();
    }
    let ns = t0.elapsed().as_nanos() as f64 / iters as f64;
    let c = prog.counters.get("entered").expect("counter") as usize;
    assert_eq!(s.world().counters[c], iters as i64 / 2, "every enter fired");
    ns
}

/// Per tick of `n` walking NPCs among `n` posts (obstacles of that radius; 0 = not
/// obstacles) with `kind` proximity triggers: wall ns, on-CPU ns, and how many times the
/// triggers fired.
fn per_tick(n: usize, kind: Option<&str>, radius: f64) -> (f64, f64, i64) {
    let npcs: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("n{i}"), "pos": [(i % 100) as f64 * 10.0, (i / 100 % 100) as f64 * 10.0], "tree": "walk", "speed": 1.0}))
        .collect();
    let objects: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("o{i}"), "kind": "post", "radius": radius, "pos": [(i % 100) as f64 * 10.0 + 5.0, (i / 100 % 100) as f64 * 10.0 + 5.0]}))
        .collect();
    let ts: Vec<Value> = match kind {
        None => Vec::new(),
        Some("in_radius") => (0..n)
            .map(|i| json!({"id": format!("t{i}"), "when": {"type": "in_radius", "who": "any", "around": format!("o{i}"), "radius": 2.0},
                            "responses": [{"do": "add_counter", "counter": "hits", "by": 1}]}))
            .collect(),
        Some(_) => (0..n)
            .map(|i| json!({"id": format!("t{i}"), "when": {"type": "near", "a": format!("n{i}"), "b": format!("o{i}"), "distance": 2.0},
                            "responses": [{"do": "add_counter", "counter": "hits", "by": 1}]}))
            .collect(),
    };
    let p = pack(npcs, objects, ts);
    let mut s = session(&p);
    s.run(5);
    let ticks = 100;
    let c0 = cpu_ns();
    let t0 = Instant::now();
    s.run(ticks);
    let ns = t0.elapsed().as_nanos() as f64 / ticks as f64;
    let cpu = cpu_ns().saturating_sub(c0) as f64 / ticks as f64;
    let hits = s
        .program()
        .counters
        .get("hits")
        .map_or(0, |c| s.world().counters[c as usize]);
    if kind.is_some() {
        assert!(hits > 0, "{kind:?}: no trigger fired");
    }
    (ns, cpu, hits)
}

fn main() {
    println!("| unrelated triggers | ns per delivered event |");
    println!("|---:|---:|");
    let mut base = 0.0;
    let mut last = 0.0;
    // Warm-up (caches, allocator, frequency) so the 1k row is not the cold one.
    per_event(1_000);
    for n in [1_000, 10_000, 100_000] {
        let ns = per_event(n);
        if n == 1_000 {
            base = ns;
        }
        last = ns;
        println!("| {n} | {ns:.0} |");
    }
    println!("\nratio 100k/1k: {:.2}\n", last / base);
    let (plain, plain_cpu, _) = per_tick(10_000, None, 0.0);
    let (radius, radius_cpu, radius_hits) = per_tick(10_000, Some("in_radius"), 0.0);
    let (near, near_cpu, near_hits) = per_tick(10_000, Some("near"), 0.0);
    let (obstacles, obstacles_cpu, _) = per_tick(10_000, None, 0.5);
    println!(
        "| 10k walking NPCs among 10k posts, one tick | µs per tick (wall) | µs on CPU | triggers' share (µs on CPU) | fired |"
    );
    println!("|---|---:|---:|---:|---:|");
    let us = |x: f64| x / 1e3;
    println!(
        "| no triggers | {:.0} | {:.0} | - | - |",
        us(plain),
        us(plain_cpu)
    );
    println!(
        "| + 10k `in_radius` (event-driven, sensor grid) | {:.0} | {:.0} | {:.0} | {radius_hits} |",
        us(radius),
        us(radius_cpu),
        us(radius_cpu - plain_cpu)
    );
    println!(
        "| + 10k `near` (polled every tick) | {:.0} | {:.0} | {:.0} | {near_hits} |",
        us(near),
        us(near_cpu),
        us(near_cpu - plain_cpu)
    );
    println!(
        "| no triggers, the posts obstacles (radius 0.5) | {:.0} | {:.0} | - | - |",
        us(obstacles),
        us(obstacles_cpu)
    );
    let target = 2_000.0;
    let met = |x: f64| if us(x) <= target { "met" } else { "NOT met" };
    println!(
        "\ntarget ≤ {target:.0} µs per tick, no triggers: {} (wall {:.0} µs), {} on CPU ({:.0} µs); posts as obstacles: {} (wall {:.0} µs), {} on CPU ({:.0} µs)",
        met(plain),
        us(plain),
        met(plain_cpu),
        us(plain_cpu),
        met(obstacles),
        us(obstacles),
        met(obstacles_cpu),
        us(obstacles_cpu)
    );
}
