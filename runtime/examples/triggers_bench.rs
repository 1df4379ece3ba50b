//! Trigger-system scaling benchmark (see BENCHMARKS.md). Run with
//! `cargo run --release -p townsfolk-runtime --example triggers_bench`.
//!
//! 1. Cost per delivered event with 1k / 10k / 100k unrelated triggers in the world: one
//!    trigger listens for the hero entering area A; the others each wait for their own
//!    message. Each iteration reports an enter (or exit) event and runs a trigger pass.
//! 2. Cost per tick of 10k proximity triggers with 10k walking NPCs: event-driven radius
//!    conditions (`in_radius`, matched through the sensor grid) and polled ones (`near`,
//!    evaluated every tick), each against the same world without triggers.

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
        triggers::report(&prog, &mut s.world_mut().triggers, ev);
        s.run_triggers();
    }
    let ns = t0.elapsed().as_nanos() as f64 / iters as f64;
    let c = prog.counters.get("entered").expect("counter") as usize;
    assert_eq!(s.world().counters[c], iters as i64 / 2, "every enter fired");
    ns
}

fn per_tick(n: usize, kind: Option<&str>) -> f64 {
    let npcs: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("n{i}"), "pos": [(i % 100) as f64 * 10.0, (i / 100 % 100) as f64 * 10.0], "tree": "walk", "speed": 1.0}))
        .collect();
    let objects: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("o{i}"), "kind": "post", "radius": 0.0, "pos": [(i % 100) as f64 * 10.0 + 5.0, (i / 100 % 100) as f64 * 10.0 + 5.0]}))
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
    let t0 = Instant::now();
    s.run(ticks);
    t0.elapsed().as_nanos() as f64 / ticks as f64
}

fn main() {
    println!("| unrelated triggers | ns per delivered event |");
    println!("|---:|---:|");
    let mut base = 0.0;
    let mut last = 0.0;
    for n in [1_000, 10_000, 100_000] {
        let ns = per_event(n);
        if n == 1_000 {
            base = ns;
        }
        last = ns;
        println!("| {n} | {ns:.0} |");
    }
    println!("\nratio 100k/1k: {:.2}\n", last / base);
    let plain = per_tick(10_000, None);
    let radius = per_tick(10_000, Some("in_radius"));
    let near = per_tick(10_000, Some("near"));
    println!("| 10k walking NPCs, one tick | µs per tick | triggers' share (µs) |");
    println!("|---|---:|---:|");
    println!("| no triggers | {:.0} | - |", plain / 1e3);
    println!(
        "| + 10k `in_radius` (event-driven, sensor grid) | {:.0} | {:.0} |",
        radius / 1e3,
        (radius - plain) / 1e3
    );
    println!(
        "| + 10k `near` (polled every tick) | {:.0} | {:.0} |",
        near / 1e3,
        (near - plain) / 1e3
    );
}
