//! A town of 10,000 (issue 14): every part of the runtime at once, on one core. Run in release:
//!
//! ```sh
//! taskset -c 1 cargo run --release -p townsfolk-runtime --example town_bench
//! ```
//!
//! The generated pack (`town_json`): a city of 11 × 11 districts of 16 buildings each (homes,
//! workplaces, pubs, markets: 2,058 areas in a city → district → building hierarchy); every
//! building a walled room with a door on its south side; 8,000 NPCs on 4- and 6-step days
//! (sleep, work, fun, shop) asking their areas for behaviors (requests going up to the district
//! and the city, which send them into a building of the kind); pubs with a brain (closes the
//! drinking template when the pub is full) and enter/exit handlers; 2,000 NPCs talking in the
//! streets (one position-aware conversation cast); 1,000 triggers (242 copies of one trigger
//! owned by every pub door and 258 `in_area` triggers on homes, all event-driven, plus 500
//! polled counter triggers); a 400-event story scenario. One game day is 2,400 ticks.
//!
//! Printed: mean, p99 and worst ms per tick over the measured ticks, the time per phase
//! (`Session::step_timed`), memory per NPC (a counting allocator), and the time to step back
//! one tick with the debugger in that world; each against its target. Then, without a
//! target, the time to step back one node, and to search the whole run for an earlier visit
//! of an NPC that has none.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Instant;

#[path = "common/city.rs"]
mod city;

use city::*;
use serde_json::{Value as J, json};
use townsfolk_runtime::Session;
use townsfolk_runtime::debug::{Debugger, SnapshotConfig, Stop};
use townsfolk_runtime::program;
use townsfolk_runtime::session::{Phase, PhaseTimes};
use townsfolk_runtime::world::talk::NONE;

/// Bytes allocated and not yet freed, over the whole program.
static LIVE: AtomicIsize = AtomicIsize::new(0);

struct Counting;

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        // SAFETY: `p` was allocated by `System` with this layout.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const DISTRICTS: usize = 11;
const DAILY: usize = 8_000;
const TALKERS: usize = 2_000;
const EVENTS: usize = 400;
/// `n` ≥ 1: a number in `0..n` from the generator.
fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next() % n as u64) as usize
}

/// The city's trees, the pubs' brain and handlers, and the talkers' tree.
fn trees() -> Vec<J> {
    let mut trees = city_trees();
    // The pub's brain: the drinking template closes while the pub is full.
    trees.push(
        json!({"id": "pub_brain", "root": {"id": "pb", "type": "selector", "children": [
        {"id": "pb_full", "type": "sequence", "children": [
            {"id": "pb_many", "type": "condition", "expr": "holders(\"fun\") >= 10"},
            {"id": "pb_close", "type": "enable_template", "template": "fun", "enabled": false}]},
        {"id": "pb_open", "type": "enable_template", "template": "fun", "enabled": true}]}}),
    );
    trees.push(json!({"id": "pub_enter", "root":
        {"id": "pe", "type": "log", "text": "a guest comes in"}}));
    trees.push(json!({"id": "pub_exit", "root":
        {"id": "px", "type": "log", "text": "a guest leaves"}}));
    trees.push(json!({"id": "chat", "root": {"id": "talk", "type": "converse", "cast": "street"}}));
    trees
}

/// The whole pack as JSON text.
fn town_json() -> String {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let side = DISTRICTS as f64 * D;
    let mut areas = vec![json!({"id": "city", "shape": rect(0.0, 0.0, side, side),
        "kinds": ["city"], "templates": BEHAVIORS.iter().map(|&(b, _)|
            json!({"name": b, "tree": format!("city_{b}")})).collect::<Vec<_>>()})];
    let district_templates: Vec<J> = BEHAVIORS
        .iter()
        .map(|&(b, _)| json!({"name": b, "tree": format!("go_{b}")}))
        .collect();
    let mut objects = Vec::new();
    let mut walls = Vec::new();
    let mut homes = Vec::new();
    let mut home_ids = Vec::new();
    let mut streets = Vec::new();
    for j in 0..DISTRICTS {
        for i in 0..DISTRICTS {
            let (x, y) = (i as f64 * D, j as f64 * D);
            let did = format!("d{i}_{j}");
            areas.push(
                json!({"id": did, "shape": rect(x, y, x + D, y + D), "parent": "city",
                "kinds": ["district"], "templates": district_templates}),
            );
            for (s, kind) in SLOTS.iter().enumerate() {
                let bx = x + 2.0 + 15.0 * (s % 4) as f64;
                let by = y + 2.0 + 15.0 * (s / 4) as f64;
                let (b, _) = BEHAVIORS
                    .iter()
                    .find(|(_, k)| k == kind)
                    .expect("every kind");
                let id = format!("{did}_{s}");
                let mut area = json!({"id": id, "shape": rect(bx, by, bx + 11.0, by + 11.0),
                    "parent": did, "kinds": [kind],
                    "templates": [{"name": b, "tree": format!("do_{b}")}]});
                let door_kind = if *kind == "pub" { "pub_door" } else { "door" };
                let door = format!("{id}_door");
                objects.push(json!({"id": door, "kind": door_kind, "pos": [bx + 5.5, by],
                                    "radius": 0.5}));
                walls.push(json!({"id": format!("{id}_walls"),
                    "shape": rect(bx, by, bx + 11.0, by + 11.0), "doors": [{"object": door}]}));
                if *kind == "pub" {
                    area["templates"][0]["max_instances"] = json!(12);
                    area["brain"] = json!({"tree": "pub_brain", "every_seconds": 1.0});
                    area["handlers"] = json!({"on_enter": "pub_enter", "on_exit": "pub_exit"});
                }
                if *kind == "home" {
                    homes.push((bx, by));
                    home_ids.push((id.clone(), did.clone()));
                }
                areas.push(area);
            }
            // The streets between the building columns, where people stand and talk.
            for c in 0..3 {
                streets.push((x + 13.5 + 15.0 * c as f64, y + 2.0));
            }
        }
    }

    let mut npcs: Vec<J> = (0..DAILY)
        .map(|n| {
            let (hx, hy) = homes[below(&mut rng, homes.len())];
            json!({"id": format!("n{n}"), "pos": [hx + 1.5 + 8.0 * rng.unit(),
                                                   hy + 1.5 + 8.0 * rng.unit()],
                   "speed": 8, "tree": format!("day{}", n % VARIANTS)})
        })
        .collect();
    let mut members = Vec::new();
    for t in 0..TALKERS {
        let (sx, sy) = streets[t % streets.len()];
        let k = t / streets.len();
        let id = format!("t{t}");
        npcs.push(
            json!({"id": id, "pos": [sx + 1.5 * (k % 2) as f64, sy + 2.5 * (k / 2) as f64],
                         "speed": 1.4, "tree": "chat"}),
        );
        members.push(
            json!({"npc": id, "talkativeness": rng.unit(), "transparency": rng.unit(),
            "confidence": rng.unit(), "interactivity": rng.unit(), "verbosity": rng.unit()}),
        );
    }

    // 1,000 trigger instances: one trigger on every pub door (242), 258 home-entry triggers
    // (event-driven), 500 polled counter triggers.
    let mut counters = serde_json::Map::new();
    for d in 0..DISTRICTS * DISTRICTS {
        counters.insert(format!("visits_{d}"), json!(0));
    }
    counters.insert("pub_visits".into(), json!(0));
    counters.insert("story_done".into(), json!(0));
    let pub_doors = objects.iter().filter(|o| o["kind"] == "pub_door").count();
    let mut world_triggers = Vec::new();
    for (k, (home, district)) in home_ids.iter().take(1000 / 2 - pub_doors).enumerate() {
        let d = district_index(district);
        world_triggers.push(json!({"id": format!("enter_{k}"), "reload_time": 5.0,
            "when": {"type": "in_area", "area": home, "who": "any"},
            "responses": [{"do": "add_counter", "counter": format!("visits_{d}"), "by": 1}]}));
    }
    for k in 0..500 {
        let d = k % (DISTRICTS * DISTRICTS);
        world_triggers.push(json!({"id": format!("busy_{k}"),
            "when": {"type": "counter", "counter": format!("visits_{d}"), "cmp": "ge",
                     "value": 20 + k / (DISTRICTS * DISTRICTS)},
            "responses": [{"do": "set_counter", "counter": format!("visits_{d}"), "value": 0}]}));
    }
    let triggers = json!([
        {"id": "pubs", "owner": {"object_kind": "pub_door"}, "triggers": [
            {"id": "greet", "reload_time": 2.0,
             "when": {"type": "in_radius", "around": "self", "radius": 2.0, "who": "any"},
             "responses": [{"do": "add_counter", "counter": "pub_visits", "by": 1}]}]},
        {"id": "town", "owner": "world", "triggers": world_triggers}]);

    // A 400-event story: each event waits for up to three earlier ones.
    let mut events = Vec::new();
    let mut ids = Vec::new();
    for e in 0..EVENTS {
        let nb = below(&mut rng, EVENTS / 4);
        let mut ev = json!({"id": format!("ev{e}"), "title": format!("Event {e}"),
            "not_before": nb, "not_after": nb + 5 + below(&mut rng, 55),
            "success_probability": 0.7,
            "on_success": [{"do": "add_counter", "counter": "story_done", "by": 1}]});
        if e > 0 {
            let after: Vec<J> = (0..below(&mut rng, 4))
                .map(|_| {
                    let back = 1 + below(&mut rng, e.min(16));
                    let outcome = if below(&mut rng, 2) == 0 {
                        "success"
                    } else {
                        "failure"
                    };
                    json!({"event": format!("ev{}", e - back), "outcome": outcome})
                })
                .collect();
            if !after.is_empty() {
                ev["after"] = J::Array(after);
            }
        }
        ids.push(format!("ev{e}"));
        events.push(ev);
    }
    let scenarios = json!([{"id": "town_story", "events": ids, "start_day": 0,
        "end_day": EVENTS, "ticks_per_day": 20, "launch_probability": 0.5, "max_active": 8,
        "min_wait": 1, "max_wait": 5}]);

    let doc = json!({"format": "townsfolk-pack", "version": 1, "name": "town_bench",
        "world": {"bounds": {"min": [0, 0], "max": [side, side]}, "dt": 0.1,
                  "clock": {"start_hour": 5.5, "time_scale": 360},
                  "counters": counters, "objects": objects, "walls": walls, "npcs": npcs,
                  "scenario": "town_story"},
        "trees": trees(), "areas": areas, "triggers": triggers,
        "casts": [{"id": "street", "position_aware": true, "join_radius": 4.0,
                   "hearing_radius": 6.0, "members": members}],
        "events": events, "scenarios": scenarios});
    doc.to_string()
}

/// `d{i}_{j}` → its index in the districts' row-major order.
fn district_index(id: &str) -> usize {
    let (i, j) = id[1..].split_once('_').expect("district ids are d{i}_{j}");
    let (i, j): (usize, usize) = (i.parse().expect("i"), j.parse().expect("j"));
    j * DISTRICTS + i
}

fn session() -> Session {
    let text = town_json();
    let l = program::load_str(&text);
    let errors: Vec<_> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    Session::from_pack(&l.pack.expect("the pack loads"), 1).expect("a valid pack")
}

fn p99(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    s[((s.len() as f64 * 0.99).ceil() as usize).clamp(1, s.len()) - 1]
}

fn main() {
    let warm: u64 = 300;
    let ticks: u64 = 2_000;
    let verdict = |ok: bool| if ok { "met" } else { "**NOT met**" };

    let before = LIVE.load(Ordering::Relaxed);
    let mut s = session();
    let npcs = s.program().npcs.len();
    s.run(warm);
    let live = (LIVE.load(Ordering::Relaxed) - before) as f64;

    let nav = &s.world().nav;
    let plans_before = (nav.plans, nav.searches, nav.replans);
    let mut phases = PhaseTimes::default();
    let mut times = Vec::with_capacity(ticks as usize);
    let mut moves = Vec::with_capacity(ticks as usize);
    for _ in 0..ticks {
        let t = Instant::now();
        let m = phases.of(Phase::Movement);
        s.step_timed(&mut phases);
        times.push(t.elapsed().as_secs_f64());
        moves.push((phases.of(Phase::Movement) - m).as_secs_f64());
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let worst = times.iter().copied().fold(0.0, f64::max);
    let w = s.world();
    let in_talk = w.talk.chars.iter().filter(|c| c.cast != NONE).count();
    let speaking = w.talk.chars.iter().filter(|c| c.speaking).count();
    let story_done = s
        .program()
        .counters
        .get("story_done")
        .map(|c| w.counters[c as usize]);
    let adopted = w.npcs.iter().filter(|n| !n.tags.is_empty()).count();

    println!(
        "## Town: {npcs} NPCs, {} areas, {} trigger instances, {EVENTS} story events; {ticks} ticks after {warm} warm-up ticks (one run)\n",
        s.program().areas.len(),
        s.program().triggers.triggers.len(),
    );
    println!("| measure | value | target |");
    println!("|---|---|---|");
    println!(
        "| mean ms per tick | {:.3} | ≤ 3 ms: {} |",
        mean * 1e3,
        verdict(mean <= 3e-3)
    );
    println!("| p99 ms per tick | {:.3} | |", p99(&times) * 1e3);
    println!("| worst ms per tick | {:.3} | |", worst * 1e3);
    println!(
        "| memory per NPC (live heap after warm-up / NPCs, program included) | {:.1} KiB | |",
        live / npcs as f64 / 1024.0
    );
    println!(
        "| at the end: NPCs in a conversation / speaking / holding a behavior; story events succeeded | {in_talk} / {speaking} / {adopted}; {} | |",
        story_done.unwrap_or(0)
    );
    println!(
        "| movement phase: p99 / worst ms per tick | {:.3} / {:.3} | |",
        p99(&moves) * 1e3,
        moves.iter().copied().fold(0.0, f64::max) * 1e3
    );
    // What a step-back snapshot takes: as the debugger's memory cap counts it, and what
    // cloning the session allocates.
    let before = LIVE.load(Ordering::Relaxed);
    let copy = s.clone();
    let cloned = (LIVE.load(Ordering::Relaxed) - before) as f64;
    drop(copy);
    let mib = |b: f64| b / (1024.0 * 1024.0);
    println!(
        "| a step-back snapshot: counted (`Session::heap_bytes`) / what cloning the session allocates | {:.1} / {:.1} MiB | |",
        mib(s.heap_bytes() as f64),
        mib(cloned + std::mem::size_of::<Session>() as f64)
    );
    let plans = w.nav.plans - plans_before.0;
    let searches = w.nav.searches - plans_before.1;
    let replans = w.nav.replans - plans_before.2;
    println!(
        "| paths planned / per tick; of them searched (target out of sight) / per tick; planned again for the same target; refinements cached at the end | {plans} / {:.1}; {searches} / {:.1}; {replans}; {} | |",
        plans as f64 / ticks as f64,
        searches as f64 / ticks as f64,
        w.nav.graph.refined.len()
    );
    println!("\n| phase | mean ms per tick | share |");
    println!("|---|---|---|");
    let total: f64 = Phase::ALL.iter().map(|&p| phases.of(p).as_secs_f64()).sum();
    for p in Phase::ALL {
        let t = phases.of(p).as_secs_f64();
        println!(
            "| {} | {:.3} | {:.0} % |",
            p.name(),
            t / ticks as f64 * 1e3,
            t / total * 100.0
        );
    }

    // Step back one tick in this world: the debugger restores the last snapshot and replays
    // up to the tick before (at most `interval - 1` ticks).
    let interval = 10;
    let mut d = Debugger::new(
        session(),
        SnapshotConfig {
            interval,
            max_bytes: 1 << 30,
        },
    );
    d.run_ticks(warm + 200);
    let mut back = Vec::new();
    for _ in 0..10 {
        let t = Instant::now();
        d.back_tick();
        back.push(t.elapsed().as_secs_f64());
    }
    let back_mean = back.iter().sum::<f64>() / back.len() as f64;
    let back_worst = back.iter().copied().fold(0.0, f64::max);
    let stats = d.snapshot_stats();
    println!(
        "\n| step back one tick, snapshots every {interval} ticks of {:.1} MiB each (mean of 10 / worst) | {:.1} / {:.1} ms | ≤ 50 ms: {} |",
        stats.bytes_per_snapshot as f64 / (1024.0 * 1024.0),
        back_mean * 1e3,
        back_worst * 1e3,
        verdict(back_worst <= 0.05)
    );
    // Step back one node of an NPC from the end of a tick: its last visit in that tick (the
    // tick's start re-simulated, then run to the visit). No target: the debugger's other
    // step back, timed beside the first.
    let mut node = Vec::new();
    for _ in 0..10 {
        d.back_tick();
        let t = Instant::now();
        let stop = d.back_node(Some(0));
        node.push(t.elapsed().as_secs_f64());
        assert_eq!(stop, Stop::Step, "NPC 0 runs its tree every tick");
    }
    println!(
        "| step back one node (NPC 0, from the end of a tick: mean of 10 / worst) | {:.1} / {:.1} ms | |",
        node.iter().sum::<f64>() / node.len() as f64 * 1e3,
        node.iter().copied().fold(0.0, f64::max) * 1e3
    );
    // Step back one node of an NPC with no earlier visit: every tick of the run searched (each
    // stretch between two snapshots run once), and the position kept.
    let (tick, hash) = (d.tick(), d.hash());
    let t = Instant::now();
    let stop = d.back_node(Some(u32::MAX - 1));
    let none = t.elapsed().as_secs_f64();
    assert_eq!(stop, Stop::NotFound, "no such NPC, no visit");
    assert_eq!((d.tick(), d.hash()), (tick, hash), "the position is kept");
    println!(
        "| step back one node, none earlier (the {tick} ticks of the run searched) | {:.0} ms ({:.2} ms per tick) | |",
        none * 1e3,
        none * 1e3 / tick as f64
    );
}
