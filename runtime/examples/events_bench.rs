//! Event-graph benchmark: per-operation cost of the tracker's `advance` and `ended` on random
//! DAGs of 1k to 1M events, and `replay` throughput on the chronicle sample.
//!
//! ```text
//! cargo run --release -p townsfolk-runtime --example events_bench
//! ```
//!
//! Each DAG has n events; event i depends on 0-3 random earlier events (random outcome
//! labels); windows start uniformly over n/4 days and last 5-60 days, so about four events
//! come due per day whatever n is. The timed loop plays the graph: `advance(1)` every day,
//! then launches and ends (random outcome) every open event. Reported: mean ns per
//! `advance(1)` call and per `ended` call, and their ratio to the 1k graph; log2(n)/log2(1k)
//! is the bound the ratios must stay under (plus cache effects).

use std::sync::Arc;
use std::time::Instant;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use townsfolk_runtime::program::tracker::{Graph, Tracker};

fn graph(n: usize, chronological: bool, rng: &mut ChaCha8Rng) -> Graph {
    let days = (n / 4).max(1) as i64;
    let mut windows: Vec<(i64, i64)> = (0..n)
        .map(|_| {
            let nb = rng.random_range(0..days);
            (nb, nb + rng.random_range(5..60))
        })
        .collect();
    if chronological {
        windows.sort_unstable();
    }
    let mut edges = Vec::new();
    for t in 1..n as u32 {
        for _ in 0..rng.random_range(0..4u32) {
            // Mostly recent events, so that chains can actually open.
            let back = rng.random_range(1..=t.min(64));
            edges.push((t - back, t, rng.random::<bool>()));
        }
    }
    Graph::new(windows, &edges)
}

struct Row {
    n: usize,
    advance_ns: f64,
    ended_ns: f64,
    advances: u64,
    ends: u64,
}

fn play(n: usize, chronological: bool) -> Row {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let g = graph(n, chronological, &mut rng);
    let mut t = Tracker::new(&g, 0);
    t.advance(&g, 0);
    let horizon = (n / 4) as i64 + 70;
    let (mut adv_time, mut end_time) = (0u128, 0u128);
    let (mut advances, mut ends) = (0u64, 0u64);
    let mut batch = Vec::new();
    for _ in 0..horizon {
        let a = Instant::now();
        t.advance(&g, 1);
        adv_time += a.elapsed().as_nanos();
        advances += 1;
        batch.clear();
        batch.extend_from_slice(t.open());
        for &v in &batch {
            t.launch(v);
        }
        let outcomes: Vec<bool> = batch.iter().map(|_| rng.random::<bool>()).collect();
        let e = Instant::now();
        for (&v, &ok) in batch.iter().zip(&outcomes) {
            t.ended(&g, v, ok);
        }
        end_time += e.elapsed().as_nanos();
        ends += batch.len() as u64;
        t.changes.clear();
    }
    Row {
        n,
        advance_ns: adv_time as f64 / advances as f64,
        ended_ns: end_time as f64 / ends.max(1) as f64,
        advances,
        ends,
    }
}

fn main() {
    for chronological in [true, false] {
        table(chronological);
    }
    replay();
}

fn table(chronological: bool) {
    println!(
        "\nevent ids laid out {}",
        if chronological {
            "in date order (a library written along its timeline)"
        } else {
            "at random (worst case for memory locality)"
        }
    );
    println!(
        "| events n | advance(1) calls | ns per advance | ratio to 1k | ended calls | ns per ended | ratio to 1k | log2(n)/log2(1k) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut base: Option<(f64, f64)> = None;
    for n in [1_000, 10_000, 100_000, 1_000_000] {
        // Best of 3 (the machine is shared).
        let r = (0..3)
            .map(|_| play(n, chronological))
            .min_by(|a, b| (a.advance_ns + a.ended_ns).total_cmp(&(b.advance_ns + b.ended_ns)))
            .expect("three runs");
        let (ba, be) = *base.get_or_insert((r.advance_ns, r.ended_ns));
        println!(
            "| {} | {} | {:.0} | {:.2} | {} | {:.0} | {:.2} | {:.2} |",
            r.n,
            r.advances,
            r.advance_ns,
            r.advance_ns / ba,
            r.ends,
            r.ended_ns,
            r.ended_ns / be,
            (r.n as f64).log2() / 1000f64.log2()
        );
    }
}

fn replay() {
    // Replay throughput on the sample.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/chronicle.json");
    let text = std::fs::read_to_string(path).expect("samples/chronicle.json");
    let pack = townsfolk_runtime::program::load_str(&text)
        .pack
        .expect("pack");
    let p = Arc::new(townsfolk_runtime::program::build(&pack).0);
    let s = p.events.scenario("early_reign").expect("scenario");
    println!();
    println!(
        "| replay of samples/chronicle.json, scenario early_reign (1,461 days, 32 events) | runs | seconds | playthroughs per second |"
    );
    println!("|---|---|---|---|");
    for threads in [1, 2] {
        let runs = 20_000;
        let a = Instant::now();
        let r = townsfolk_runtime::tools::replay::replay(&p, s, runs, 1, threads, &|_, _| {})
            .expect("report");
        let secs = a.elapsed().as_secs_f64();
        assert_eq!(r.runs, runs);
        println!(
            "| {threads} thread{} | {runs} | {secs:.2} | {:.0} |",
            if threads == 1 { "" } else { "s" },
            runs as f64 / secs
        );
    }
}
