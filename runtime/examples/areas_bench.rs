//! Smart-area cost (SPEC §2): a generated city of ~2,000 areas with 10,000 NPCs on a daily
//! cycle (tick time, mean and p99), and the cost of a request in worlds of 200, 2,000 and
//! 20,000 areas. Run in release:
//!
//! ```sh
//! cargo run --release -p townsfolk-runtime --example areas_bench
//! ```
//!
//! The city: one `city` area over the whole world, a grid of districts (kind `district`,
//! 60 units on a side; 11 × 11 = 121 of them in the 10,000-NPC city, 2,058 areas), each
//! holding 16 buildings (8 `home`, 4 `work`, 2 `pub`, 2 `market`), so 17
//! areas per district. NPC trees are reactive selectors of `time_window` branches, each a
//! `request` preferring one behavior (`sleep`, `work`, `fun`, `shop`) and forbidding the
//! other three; 4-step and 6-step days, with start times staggered by a quarter hour. The
//! innermost area answers if it offers the behavior (a home offers `sleep`, a workplace
//! `work`, a pub `fun`, a market `shop`); otherwise the request goes up to the district,
//! whose template of that name is `go_to_child` (the building kind) then a `request` inside
//! it. The city offers the same four templates (`go_to_child` district, nearest) as the last
//! resort. One game day lasts 2,400 ticks (dt 0.1 s, time scale 360).

use std::time::Instant;

#[path = "common/city.rs"]
mod city;

use city::*;
use serde_json::{Value as J, json};
use townsfolk_runtime::Session;
use townsfolk_runtime::program;
use townsfolk_runtime::systems::host::request as areas;
use townsfolk_runtime::trace::TraceEvent;

/// The city pack as JSON text: `dx × dy` districts, `npcs` NPCs spread over the homes of
/// the districts of the `bx × by` block at the origin (or of all districts).
fn city_json(dx: usize, dy: usize, npcs: usize, block: Option<(usize, usize)>) -> (String, usize) {
    let trees = city_trees();
    let (w, h) = (dx as f64 * D, dy as f64 * D);
    let mut areas = vec![
        json!({"id": "city", "shape": rect(0.0, 0.0, w, h), "kinds": ["city"],
        "templates": BEHAVIORS.iter().map(|&(b, _)|
            json!({"name": b, "tree": format!("city_{b}")})).collect::<Vec<_>>()}),
    ];
    let district_templates: Vec<J> = BEHAVIORS
        .iter()
        .map(|&(b, _)| json!({"name": b, "tree": format!("go_{b}")}))
        .collect();
    // Homes of each district, for placing NPCs: (x0, y0) corners.
    let mut homes: Vec<Vec<(f64, f64)>> = Vec::new();
    for j in 0..dy {
        for i in 0..dx {
            let (x, y) = (i as f64 * D, j as f64 * D);
            let did = format!("d{i}_{j}");
            areas.push(
                json!({"id": did, "shape": rect(x, y, x + D, y + D), "parent": "city",
                "kinds": ["district"], "templates": district_templates}),
            );
            let mut hs = Vec::new();
            for (s, kind) in SLOTS.iter().enumerate() {
                let bx = x + 2.0 + 15.0 * (s % 4) as f64;
                let by = y + 2.0 + 15.0 * (s / 4) as f64;
                let (b, _) = BEHAVIORS.iter().find(|(_, k)| k == kind).expect("kind");
                areas.push(json!({"id": format!("{did}_{s}"),
                    "shape": rect(bx, by, bx + 11.0, by + 11.0), "parent": did,
                    "kinds": [kind], "templates": [{"name": b, "tree": format!("do_{b}")}]}));
                if *kind == "home" {
                    hs.push((bx, by));
                }
            }
            if block.is_none_or(|(bx, by)| i < bx && j < by) {
                homes.push(hs);
            }
        }
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let npc_defs: Vec<J> = (0..npcs)
        .map(|n| {
            let hs = &homes[n % homes.len()];
            let (hx, hy) = hs[(rng.next() % hs.len() as u64) as usize];
            json!({"id": format!("n{n}"), "pos": [hx + 1.0 + 9.0 * rng.unit(),
                                                   hy + 1.0 + 9.0 * rng.unit()],
                   "speed": 8, "tree": format!("day{}", n % VARIANTS)})
        })
        .collect();
    let n_areas = areas.len();
    let doc = json!({"format": "townsfolk-pack", "version": 1, "name": "areas_bench",
        "world": {"bounds": {"min": [0, 0], "max": [w, h]}, "dt": 0.1,
                  "clock": {"start_hour": 5.5, "time_scale": 360},
                  "npcs": npc_defs},
        "trees": trees, "areas": areas});
    (doc.to_string(), n_areas)
}

fn session(dx: usize, dy: usize, npcs: usize, block: Option<(usize, usize)>) -> (Session, usize) {
    let (text, n_areas) = city_json(dx, dy, npcs, block);
    let l = program::load_str(&text);
    let errors: Vec<_> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let t = Instant::now();
    let s = Session::from_pack(&l.pack.expect("pack"), 1).expect("valid pack");
    if std::env::var("AREAS_DEBUG").is_ok() {
        eprintln!(
            "{n_areas} areas: compiled in {:.0} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    (s, n_areas)
}

struct Run {
    /// Wall time of each measured tick in the first repetition, seconds.
    first: Vec<f64>,
    /// p99 of the raw tick times of each repetition, seconds.
    raw_p99: Vec<f64>,
    /// Per measured tick, the least wall time over the repetitions, seconds.
    times: Vec<f64>,
    /// Requests made in each measured tick (from the traced twin run).
    requests: Vec<usize>,
    /// Mean time of one `areas::choose` call on the world after the run, seconds.
    choose: f64,
    /// Tags held at the end, and the sum of all areas' holder counts.
    tags: usize,
    max_tags: usize,
    holders: u64,
}

/// Runs `warm` ticks, then times `ticks` ticks, `reps` times over (the run is
/// deterministic: the same ticks each time); a twin session with tracing on counts the
/// requests of each tick (the same seed gives the same run: checked by the world hash).
fn run(
    dx: usize,
    dy: usize,
    npcs: usize,
    block: Option<(usize, usize)>,
    reps: usize,
    warm: u64,
    ticks: u64,
) -> (Run, usize) {
    let mut all: Vec<Vec<f64>> = Vec::new();
    let mut last = None;
    for _ in 0..reps {
        let (mut s, n_areas) = session(dx, dy, npcs, block);
        s.run(warm);
        let mut times = Vec::with_capacity(ticks as usize);
        for _ in 0..ticks {
            let t = Instant::now();
            s.step();
            times.push(t.elapsed().as_secs_f64());
        }
        all.push(times);
        last = Some((s, n_areas));
    }
    let (s, n_areas) = last.expect("reps > 0");
    let first = all[0].clone();
    let raw_p99: Vec<f64> = all.iter().map(|t| p99(t)).collect();
    // Per tick, the fastest of the repetitions: the tick's own cost without the pauses this
    // shared machine adds at random.
    let times: Vec<f64> = (0..ticks as usize)
        .map(|k| all.iter().map(|t| t[k]).fold(f64::INFINITY, f64::min))
        .collect();
    let (mut traced, _) = session(dx, dy, npcs, block);
    traced.set_tracing(true);
    let mut requests = Vec::with_capacity(ticks as usize);
    for k in 0..warm + ticks {
        traced.step();
        if k >= warm {
            let n = traced
                .trace()
                .iter()
                .filter(|e| matches!(e, TraceEvent::Request { .. }))
                .count();
            requests.push(n);
        }
        traced.clear_trace();
    }
    assert_eq!(s.hash(), traced.hash(), "tracing changed the run");

    // The area side of a request alone: every request node of the pack, asked by every NPC
    // from where it stands now (no explain, as in an untraced run).
    let p = s.program().clone();
    let mut w = s.world().clone();
    let reps = (200_000 / (npcs * p.requests.len())).max(1);
    let t = Instant::now();
    let mut calls = 0usize;
    let mut chosen = 0usize;
    for _ in 0..reps {
        for n in 0..npcs as u32 {
            for r in &p.requests {
                let o = areas::choose(&p, &mut w, n, r, false, &[]);
                chosen += usize::from(o.chosen.is_some());
                calls += 1;
            }
        }
    }
    let choose = t.elapsed().as_secs_f64() / calls as f64;
    assert!(chosen > 0);

    let world = s.world();
    let tags = world.npcs.iter().map(|n| n.tags.len()).sum();
    let max_tags = world.npcs.iter().map(|n| n.tags.len()).max().unwrap_or(0);
    let holders = world
        .areas
        .iter()
        .flat_map(|a| a.holders.iter())
        .map(|&h| u64::from(h))
        .sum();
    let r = Run {
        first,
        raw_p99,
        times,
        requests,
        choose,
        tags,
        max_tags,
        holders,
    };
    (r, n_areas)
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn p99(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    s[((s.len() as f64 * 0.99).ceil() as usize).min(s.len()) - 1]
}

/// Least-squares fit of tick time on requests per tick: (intercept, slope) in seconds.
fn fit(r: &Run) -> (f64, f64) {
    let x: Vec<f64> = r.requests.iter().map(|&n| n as f64).collect();
    let (mx, my) = (mean(&x), mean(&r.times));
    let sxy: f64 = x
        .iter()
        .zip(&r.times)
        .map(|(a, b)| (a - mx) * (b - my))
        .sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (my - slope * mx, slope)
}

fn main() {
    let warm = 300;
    let ticks = 2000;
    let reps = 3;

    println!("## City: 10,000 NPCs, {ticks} ticks after {warm} warm-up ticks, {reps} runs\n");
    println!(
        "| areas | NPCs | mean tick (fastest of {reps}) | p99 tick (fastest of {reps}) | worst tick (fastest of {reps}) | mean / p99 (first run, raw) | raw p99 of each run | requests per tick (mean / max) | tags held at end (max per NPC) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let (r, n_areas) = run(11, 11, 10_000, None, reps, warm, ticks);
    let reqs = r.requests.iter().sum::<usize>() as f64 / r.requests.len() as f64;
    println!(
        "| {n_areas} | 10,000 | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} / {:.3} ms | {} ms | {:.1} / {} | {} ({}) |",
        mean(&r.times) * 1e3,
        p99(&r.times) * 1e3,
        r.times.iter().cloned().fold(0.0, f64::max) * 1e3,
        mean(&r.first) * 1e3,
        p99(&r.first) * 1e3,
        r.raw_p99
            .iter()
            .map(|p| format!("{:.3}", p * 1e3))
            .collect::<Vec<_>>()
            .join(" / "),
        reqs,
        r.requests.iter().max().unwrap_or(&0),
        r.tags,
        r.max_tags,
    );
    if std::env::var("AREAS_DEBUG").is_ok() {
        let mut idx: Vec<usize> = (0..r.times.len()).collect();
        idx.sort_by(|&a, &b| r.times[b].total_cmp(&r.times[a]));
        for &i in idx.iter().take(25) {
            eprintln!(
                "tick {} {:.3} ms {} requests",
                i as u64 + warm + 1,
                r.times[i] * 1e3,
                r.requests[i]
            );
        }
        eprintln!("holders counted {} / tags {}", r.holders, r.tags);
    }
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    let worst_raw = r.raw_p99.iter().cloned().fold(0.0, f64::max);
    println!(
        "\nTarget ≤ 3 ms per tick: mean {}, p99 (fastest of {reps}) {}, raw p99 (slowest run, {:.3} ms) {}\n",
        verdict(mean(&r.times) <= 3e-3),
        verdict(p99(&r.times) <= 3e-3),
        worst_raw * 1e3,
        verdict(worst_raw <= 3e-3)
    );

    for (title, block) in [
        ("NPCs in the same 12 districts in every world", Some((3, 4))),
        ("NPCs spread over all districts", None),
    ] {
        println!(
            "## Request cost, 1,000 NPCs ({title}), {ticks} ticks after {warm} warm-up ticks, 5 runs\n"
        );
        println!(
            "| areas | districts | mean tick | requests per tick | cost per request (regression of tick time on requests) | `areas::choose` per call |"
        );
        println!("|---|---|---|---|---|---|");
        let mut per = Vec::new();
        for (dx, dy) in [(3, 4), (11, 11), (34, 35)] {
            let (r, n_areas) = run(dx, dy, 1000, block, 5, warm, ticks);
            let (_, slope) = fit(&r);
            let reqs = r.requests.iter().sum::<usize>() as f64 / r.requests.len() as f64;
            println!(
                "| {n_areas} | {} | {:.3} ms | {reqs:.1} | {:.2} µs | {:.0} ns |",
                dx * dy,
                mean(&r.times) * 1e3,
                slope * 1e6,
                r.choose * 1e9
            );
            per.push((slope, r.choose, mean(&r.times)));
        }
        let (a, b) = (per[0], per[2]);
        println!(
            "\nRatio 20,231 / 205 areas: cost per request (regression) {:.2}, `choose` per call {:.2}, mean tick {:.2}\n",
            b.0 / a.0,
            b.1 / a.1,
            b.2 / a.2
        );
    }
}
