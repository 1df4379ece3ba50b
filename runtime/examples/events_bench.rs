//! Event-graph benchmark: per-operation cost of the tracker's `advance` and `ended` on random
//! DAGs of 1k to 1M events, and `replay` throughput on the chronicle sample.
//!
//! ```text
//! cargo run --release -p townsfolk-runtime --example events_bench
//! ```
//!
//! Arguments (for profiling one case; the default is every table):
//! `--layouts date,random,compiled` (any of them), `--sizes 1000,1000000`, `--runs N`
//! (the median of at least N runs, default 3; graphs under 1M events are run more, about a
//! million events per size), `--no-replay`, and `--graph timeline`: another family of DAGs,
//! whose windows follow the generation order (event g starts around day g/4, so its
//! dependencies are events of the weeks before it, as in a story written along its
//! timeline); its "random" layout is a seeded shuffle of the ids. `--help` lists the options.
//!
//! Each DAG has n events; event g (in generation order) depends on 0-3 random events among
//! the 64 generated before it (random outcome labels); windows start uniformly over n/4 days
//! and last 5-60 days, so about four events come due per day whatever n is; each event's
//! outcome is drawn with it. The same DAG is then laid out twice: event ids in generation
//! order (at random with respect to dates) and renumbered in date order; the two are the same
//! graph (same dependency structure, same outcomes), so the calls counted must be equal (the
//! bench asserts it). The loop plays the graph: `advance(1)` every day, then launches and ends
//! every open event, for n/4 + 70 days (the last windows close). Only the steady days are
//! timed, days 60 to n/4 (fewer for graphs under 2,000 events): the first weeks, while the
//! first windows have not started closing, and the last ones, while the last windows close
//! and nothing opens any more, do less work per day, and they are 40 % of a 1k graph's days
//! but 0.01 % of a 1M graph's, so timing them too made the small graphs look cheaper per
//! call than the same kind of day is. The timers hold only the calls they name (the outcomes are
//! looked up before the `ended` timer starts, days with nothing to end are not timed; the
//! timer's own cost is printed first, it is inside every figure).
//! Reported: mean ns per `advance(1)` and per `ended` call (median over the runs), and
//! their ratio to the 1k graph; then the whole play again without a timer inside (the
//! first run's days recorded and replayed on a new tracker: `advance(1)`, the day's
//! launches and `ended` calls, one timer around it all), ns per day, and its ratio. At 1k a
//! call costs about as much as the timer pair each per-call figure holds, which flattens
//! the per-call ratios; the whole play's ratio is the calls' own. log2(n)/log2(1k) is the
//! bound every ratio must stay under.
//! Last, the play's **memory floor** (`floor_day_ns`): ns per day of only the reads any
//! tracker must make on those days (a bit per event reached, the list of dependents of each
//! event that ended, died or expired, the caller's id of each ended event translated),
//! in the most compact data and with every read free to overlap the others, and the **least
//! ratio**: that of a tracker that did this one's work at 1k (its whole play less the
//! floor there) plus only the floor's reads at n. Over the bound, no tracker as fast as this
//! one at 1k can be within it at n; at the bound, only one whose misses all overlap.
//! Three tables: each layout given to the tracker as it is, and the random layout numbered
//! the way scenarios are compiled (`program::story::date_order`, what a pack's events get
//! whatever order it lists them in).

use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, ValueEnum};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use townsfolk_runtime::program::story::date_order;
use townsfolk_runtime::program::tracker::{Change, Graph, Tracker};

/// A DAG over event ids `0..n`: windows, edges (source, target, needs success) and each
/// event's outcome when it ends.
#[derive(Clone)]
struct Dag {
    windows: Vec<(i64, i64)>,
    edges: Vec<(u32, u32, bool)>,
    outcome: Vec<bool>,
}

/// Which family of DAGs.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Family {
    /// Windows at random over the n/4 days, whatever the dependencies (the default).
    Uniform,
    /// Windows along the generation order (`--graph timeline`).
    Timeline,
}

/// The DAG in generation order.
fn generate(n: usize, family: Family) -> Dag {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let days = (n / 4).max(1) as i64;
    let windows: Vec<(i64, i64)> = (0..n)
        .map(|g| {
            let nb = match family {
                Family::Uniform => rng.random_range(0..days),
                Family::Timeline => g as i64 / 4 + rng.random_range(0..30),
            };
            (nb, nb + rng.random_range(5..60))
        })
        .collect();
    let mut edges = Vec::new();
    for t in 1..n as u32 {
        for _ in 0..rng.random_range(0..4u32) {
            // Mostly recent events, so that chains can actually open.
            let back = rng.random_range(1..=t.min(64));
            edges.push((t - back, t, rng.random::<bool>()));
        }
    }
    let outcome = (0..n).map(|_| rng.random::<bool>()).collect();
    Dag {
        windows,
        edges,
        outcome,
    }
}

/// The new id of each event when event `order[k]` is renamed `k`.
fn inverse(order: &[u32]) -> Vec<u32> {
    let mut id = vec![0u32; order.len()];
    for (k, &g) in order.iter().enumerate() {
        id[g as usize] = k as u32;
    }
    id
}

/// The same DAG with event `order[k]` renamed `k`.
fn renumber(d: &Dag, order: &[u32]) -> Dag {
    let id = inverse(order);
    Dag {
        windows: order.iter().map(|&g| d.windows[g as usize]).collect(),
        edges: d
            .edges
            .iter()
            .map(|&(s, t, ok)| (id[s as usize], id[t as usize], ok))
            .collect(),
        outcome: order.iter().map(|&g| d.outcome[g as usize]).collect(),
    }
}

struct Row {
    n: usize,
    /// Calls on the timed days.
    advance_ns: f64,
    ended_ns: f64,
    /// The whole play without a timer inside (`replay_script`), ns per day.
    day_ns: f64,
    /// Its memory floor (`floor_day_ns`), ns per day.
    floor_ns: f64,
    advances: u64,
    ends: u64,
}

/// What a play did, day by day: the events ended each day with their outcomes (the day's
/// launches are the same events), and how many changes the tracker reported in all.
struct Script {
    days: Vec<Vec<(u32, bool)>>,
    /// The events each day killed or expired (from the tracker's changes): those whose
    /// dependents the day had to find (`floor_day_ns`).
    lost: Vec<Vec<u32>>,
    changes: usize,
}

/// The days timed (see the module doc), counted from 1: the steady days, from when the first
/// windows (5-60 days long) have begun to close to the last window's start.
fn steady(n: usize) -> std::ops::Range<usize> {
    let last = (n / 4).max(2);
    60.min(last / 2)..last
}

/// What one `Instant::now()` + `elapsed()` pair costs on this machine (median of 101 samples
/// of 1,000 pairs). Printed, not taken off: each `advance(1)` (and nearly each day's `ended`
/// batch, about one call) is one timed span, so every figure holds one pair; subtracting it
/// left figures dominated by the timer's own noise (3-25 ns at 1k from run to run).
fn timer_ns() -> f64 {
    median((0..101).map(|_| {
        let a = Instant::now();
        for _ in 0..1000 {
            std::hint::black_box(Instant::now().elapsed());
        }
        a.elapsed().as_nanos() as f64 / 1000.0
    }))
}

/// Plays the graph with a timer around each `advance(1)` and each day's `ended` calls, and
/// records what it did into `script` when given one.
fn play(d: &Dag, mut script: Option<&mut Script>) -> Row {
    let n = d.windows.len();
    let g = Graph::new(d.windows.clone(), &d.edges);
    let mut t = Tracker::new(&g, 0);
    t.advance(&g, 0);
    let horizon = (n / 4) as i64 + 70;
    let (mut adv_time, mut end_time) = (0u128, 0u128);
    let (mut advances, mut ends) = (0u64, 0u64);
    if let Some(s) = script.as_deref_mut() {
        s.changes = t.changes.len();
    }
    t.changes.clear();
    let mut batch: Vec<(u32, bool)> = Vec::new();
    let timed = steady(n);
    for day in 1..=horizon as usize {
        let timing = timed.contains(&day);
        let a = Instant::now();
        t.advance(&g, 1);
        if timing {
            adv_time += a.elapsed().as_nanos();
            advances += 1;
        }
        // The outcomes are the bench's own data (a caller knows how its event went): looked
        // up before the timer starts, so the timer holds only the `ended` calls.
        batch.clear();
        batch.extend(t.open().iter().map(|&v| (v, d.outcome[v as usize])));
        for &(v, _) in &batch {
            t.launch(v);
        }
        // Days with nothing to end are not timed (they would add the timer's own cost).
        let e = Instant::now();
        for &(v, ok) in &batch {
            t.ended(&g, v, ok);
        }
        if timing && !batch.is_empty() {
            end_time += e.elapsed().as_nanos();
            ends += batch.len() as u64;
        }
        if let Some(s) = script.as_deref_mut() {
            s.changes += t.changes.len();
            s.days.push(batch.clone());
            s.lost.push(
                t.changes
                    .iter()
                    .filter_map(|c| match *c {
                        Change::Dead(e) | Change::Expired(e) => Some(e),
                        Change::Open(_) => None,
                    })
                    .collect(),
            );
        }
        t.changes.clear();
    }
    Row {
        n,
        advance_ns: adv_time as f64 / advances as f64,
        ended_ns: end_time as f64 / ends.max(1) as f64,
        day_ns: f64::NAN,
        floor_ns: f64::NAN,
        advances,
        ends,
    }
}

/// Plays the recorded script again on a new tracker (each day `advance(1)`, then the day's
/// launches and `ended` calls, as `play` did) with one timer around the steady days: ns per
/// day. The timer's cost is spread over all those days, so the small graphs' figures are the
/// calls' own cost (each per-call figure of `play` holds one timer pair, about as long as a
/// 1k call itself). Asserts that the replay made the same changes as the play.
fn replay_script(d: &Dag, script: &Script) -> f64 {
    let g = Graph::new(d.windows.clone(), &d.edges);
    let mut t = Tracker::new(&g, 0);
    t.advance(&g, 0);
    let mut changes = t.changes.len();
    t.changes.clear();
    let timed = steady(d.windows.len());
    let (mut start, mut ns) = (Instant::now(), 0u128);
    for (k, day) in script.days.iter().enumerate() {
        if k + 1 == timed.start {
            start = Instant::now();
        }
        t.advance(&g, 1);
        for &(v, _) in day {
            t.launch(v);
        }
        for &(v, ok) in day {
            t.ended(&g, v, ok);
        }
        changes += t.changes.len();
        t.changes.clear();
        if k + 1 == timed.end - 1 {
            ns = start.elapsed().as_nanos();
        }
    }
    assert_eq!(
        changes, script.changes,
        "the replay of the script did not make the play's changes"
    );
    ns as f64 / timed.len() as f64
}

/// The memory floor of the recorded play: ns per steady day (timed as `replay_script` times
/// the tracker) of what any tracker must reach to make each day's changes, in the most
/// compact data it could keep, laid out in date order (as the tracker lays out its nodes,
/// whatever the caller's ids). Each event whose window starts or closes that day is tested;
/// each event that ended has its caller id translated and its dependents found; each that
/// died or expired has its dependents found (where its list lies costs nothing: the
/// tracker's edges carry their targets' lists); each dependent is tested. A test is a bit
/// per event (128 KiB at 1M, what the tracker tests a dependent on), a list four bytes per
/// dependent. Nothing else: no counts of dependencies, no calendars, no change list, and no
/// read waits for another (the lists of a cascade of deaths are known ahead), so all of a
/// day's reads may be in flight at once. A tracker does at least this on the same days, so
/// at 1M it costs at least the floor plus what its work costs at 1k.
fn floor_day_ns(d: &Dag, script: &Script) -> f64 {
    let n = d.windows.len();
    let order = date_order(&d.windows);
    let internal = inverse(&order);
    // Dependents, one list per event, in internal ids.
    let mut at = vec![0u32; n + 1];
    for &(s, _, _) in &d.edges {
        at[internal[s as usize] as usize + 1] += 1;
    }
    for i in 0..n {
        at[i + 1] += at[i];
    }
    let mut fill = at.clone();
    let mut deps = vec![0u32; d.edges.len()];
    for &(s, t, _) in &d.edges {
        let s = internal[s as usize] as usize;
        deps[fill[s] as usize] = internal[t as usize];
        fill[s] += 1;
    }
    // Each day's reach (day k + 1 of the script): the events tested for their window (it
    // starts on the day, or it closed the day before: `advance` sees a deadline once the
    // date is past it), the events ended (caller ids), and the lists of those lost.
    let days = script.days.len();
    let mut tests: Vec<Vec<u32>> = vec![Vec::new(); days];
    for (i, &e) in order.iter().enumerate() {
        let (nb, na) = d.windows[e as usize];
        for date in [nb, na + 1] {
            if (1..=days as i64).contains(&date) {
                tests[date as usize - 1].push(i as u32);
            }
        }
    }
    let tests = Days::new(tests.into_iter().map(Vec::into_iter));
    let ended = Days::new(script.days.iter().map(|day| day.iter().map(|&(e, _)| e)));
    let lost = Days::new(script.lost.iter().map(|day| {
        day.iter()
            .map(|&e| internal[e as usize] as usize)
            .map(|i| [at[i], at[i + 1]])
            .filter(|[a, b]| a < b)
    }));
    let mut bits = vec![0u64; n.div_ceil(64)];
    let mut test = |t: u32| bits[t as usize / 64] ^= 1 << (t % 64);
    let timed = steady(n);
    let (mut start, mut ns) = (Instant::now(), 0u128);
    for k in 0..days {
        if k + 1 == timed.start {
            start = Instant::now();
        }
        for &i in tests.day(k) {
            test(i);
        }
        for &e in ended.day(k) {
            let i = internal[e as usize] as usize;
            test(i as u32);
            deps[at[i] as usize..at[i + 1] as usize]
                .iter()
                .for_each(|&t| test(t));
        }
        for &[a, b] in lost.day(k) {
            deps[a as usize..b as usize].iter().for_each(|&t| test(t));
        }
        if k + 1 == timed.end - 1 {
            ns = start.elapsed().as_nanos();
        }
    }
    std::hint::black_box(&bits);
    ns as f64 / timed.len() as f64
}

/// Lists by day in one vector (day k's are `items[ends[k - 1]..ends[k]]`): walking the days
/// reads two arrays in order, not a heap block per day.
struct Days<T> {
    items: Vec<T>,
    ends: Vec<usize>,
}

impl<T> Days<T> {
    fn new<I: Iterator<Item = T>>(days: impl Iterator<Item = I>) -> Days<T> {
        let (mut items, mut ends) = (Vec::new(), Vec::new());
        for day in days {
            items.extend(day);
            ends.push(items.len());
        }
        Days { items, ends }
    }

    fn day(&self, k: usize) -> &[T] {
        let from = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.items[from..self.ends[k]]
    }
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Layout {
    #[value(name = "date")]
    DateOrder,
    Random,
    #[value(name = "compiled")]
    RandomCompiled,
}

/// Times the story tracker's calls on generated graphs of up to a million events (see the
/// module doc).
#[derive(Parser)]
struct Args {
    /// The graph family.
    #[arg(long = "graph", value_enum, default_value = "uniform")]
    family: Family,
    /// The id layouts to time.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "date,random,compiled"
    )]
    layouts: Vec<Layout>,
    /// The numbers of events.
    #[arg(long, value_delimiter = ',', default_value = "1000,10000,100000,1000000",
          value_parser = clap::value_parser!(u64).range(1..))]
    sizes: Vec<u64>,
    /// Timed runs per size (at least; more for small graphs).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// Skip the Monte Carlo replay timing.
    #[arg(long)]
    no_replay: bool,
}

fn main() {
    let args = Args::parse();
    let mut calls: Vec<(usize, u64, u64)> = Vec::new();
    let timer = timer_ns();
    println!(
        "timer: {timer:.1} ns per Instant::now + elapsed pair (inside every figure below, not taken off)"
    );
    for &layout in &args.layouts {
        println!(
            "\nevent ids {}",
            match layout {
                Layout::DateOrder =>
                    "in date order, as given (a library written along its timeline)",
                Layout::Random => "at random, as given (worst case for memory locality)",
                Layout::RandomCompiled =>
                    "at random, numbered in date order as scenarios are compiled (program::story::date_order)",
            }
        );
        println!(
            "| events n | advance(1) calls | ns per advance | ratio to 1k | ended calls | ns per ended | ratio to 1k | whole play, ns per day | ratio to 1k | log2(n)/log2(1k) | status | memory floor, ns per day | least ratio |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        let mut base: Option<(f64, f64, f64, f64)> = None;
        for n in args.sizes.iter().map(|&n| n as usize) {
            let generated = generate(n, args.family);
            // Ids at random with respect to dates: as generated, or (timeline graphs, whose
            // generation order is nearly date order) shuffled.
            let random = match args.family {
                Family::Uniform => generated,
                Family::Timeline => {
                    let mut order: Vec<u32> = (0..n as u32).collect();
                    let mut rng = ChaCha8Rng::seed_from_u64(!(n as u64));
                    for k in (1..n).rev() {
                        order.swap(k, rng.random_range(0..=k));
                    }
                    renumber(&generated, &order)
                }
            };
            let d = match layout {
                Layout::Random => random,
                Layout::DateOrder | Layout::RandomCompiled => {
                    renumber(&random, &date_order(&random.windows))
                }
            };
            // The median of several runs, per figure: at least `--runs`, and enough runs of
            // the small graphs that each size plays about a million events (1,000 runs of
            // the 1k graph), so the 1k row every ratio divides by is not one noisy sample.
            let reps = (args.runs as usize).max(1_000_000 / n);
            let mut script = Script {
                days: Vec::new(),
                lost: Vec::new(),
                changes: 0,
            };
            let mut rows = vec![play(&d, Some(&mut script))];
            rows.extend((1..reps).map(|_| play(&d, None)));
            let days: Vec<f64> = (0..reps).map(|_| replay_script(&d, &script)).collect();
            let floors: Vec<f64> = (0..reps).map(|_| floor_day_ns(&d, &script)).collect();
            let r = Row {
                n,
                advance_ns: median(rows.iter().map(|r| r.advance_ns)),
                ended_ns: median(rows.iter().map(|r| r.ended_ns)),
                day_ns: median(days.into_iter()),
                floor_ns: median(floors.into_iter()),
                advances: rows[0].advances,
                ends: rows[0].ends,
            };
            // The floor is a floor: the reads it makes are some of the tracker's.
            assert!(
                r.floor_ns < r.day_ns,
                "{n} events: the memory floor ({:.1} ns per day) is not under the whole play ({:.1})",
                r.floor_ns,
                r.day_ns
            );
            // Every layout is the same graph: the same calls.
            match calls.iter().find(|c| c.0 == n) {
                Some(&(_, a, e)) => assert_eq!(
                    (a, e),
                    (r.advances, r.ends),
                    "{n} events: the layouts are not the same graph"
                ),
                None => calls.push((n, r.advances, r.ends)),
            }
            let (ba, be, bd, bf) =
                *base.get_or_insert((r.advance_ns, r.ended_ns, r.day_ns, r.floor_ns));
            let bound = (r.n as f64).log2() / 1000f64.log2();
            let (ra, re, rd) = (r.advance_ns / ba, r.ended_ns / be, r.day_ns / bd);
            println!(
                "| {} | {} | {:.1} | {:.2} | {} | {:.1} | {:.2} | {:.1} | {:.2} | {:.2} | {} | {:.1} | {:.2} |",
                r.n,
                r.advances,
                r.advance_ns,
                ra,
                r.ends,
                r.ended_ns,
                re,
                r.day_ns,
                rd,
                bound,
                if ra <= bound && re <= bound && rd <= bound {
                    "within"
                } else {
                    "over"
                },
                r.floor_ns,
                // A tracker doing this one's work at 1k and only the floor's reads at n.
                (r.floor_ns + bd - bf) / bd,
            );
        }
    }
    if !args.no_replay {
        replay();
    }
}

/// The median of some figures (the upper middle one for an even count).
fn median(xs: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = xs.collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
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
