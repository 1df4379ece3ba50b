//! Insight benchmark (issue 15): coverage of the daily-life sample over 200 seeds × one
//! in-game day, and the cost of recording coverage in a running world against a plain run.
//!
//! ```text
//! cargo run --release -p townsfolk-runtime --example insight_bench
//! ```
//!
//! Rows:
//! - `coverage 200 seeds x 1 day`: `tools::coverage::run_seeds` on `samples/daily_life.json`,
//!   seeds 1..=200, one in-game day each (1,440 ticks), on 1 thread and on 2 threads (one
//!   run each; the two reports must be equal).
//! - `plain run` / `recording run` per pack: the same seeds played with `Session::step`, and
//!   with `tools::coverage::run_seed` (a counting session: node visits counted by the tick
//!   engine, the counted trace events, occupancy, the end-of-run trigger explanations); best
//!   of 7, on one thread, the three kinds of run alternating so that a change of load hits
//!   all of them. The overhead is recording / plain - 1; the target is at most 10 %. A third
//!   figure plays them with `Session::step_probed` and a probe that does nothing: the cost of
//!   the debugger's probe path (every node enter/result and trace event handed to a
//!   `dyn Probe`), which coverage no longer uses.
//!
//! Times are the thread's CPU time (`/proc/thread-self/schedstat`, nanoseconds; wall time
//! where that cannot be read), so that time spent waiting for the CPU on a shared machine
//! does not count. A running thread's figure there may move only at the scheduler's ticks
//! (4 ms steps on the machines measured so far), so every timed run lasts at least 0.3 s
//! (one step is then at most 1.3 %: with 5 seeds, guards' and plaza's runs lasted 28 ms, and
//! one step read as +14 %).

use std::sync::Arc;
use std::time::{Duration, Instant};

use townsfolk_runtime::expr::Env;
use townsfolk_runtime::program::{self, Program};
use townsfolk_runtime::tools::coverage::{Tally, run_seed, run_seeds};
use townsfolk_runtime::trace::{DebugEvent, Probe};
use townsfolk_runtime::{Session, pack::Pack};

fn load(name: &str) -> (Pack, Arc<Program>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../samples")
        .join(name);
    let loaded = program::load_file(&path);
    let pack = loaded
        .pack
        .unwrap_or_else(|| panic!("{name} does not load: {:?}", loaded.diagnostics));
    let (p, diags) = program::build(&pack);
    assert!(
        !diags.iter().any(|d| d.is_error()),
        "{name} has errors: {diags:?}"
    );
    (pack, Arc::new(p))
}

fn one_day(p: &Program) -> u64 {
    (86_400.0 / (p.dt * p.time_scale)).ceil() as u64
}

/// This thread's CPU time so far, when the kernel tells it.
fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// How long `f` takes: CPU time of this thread, or wall time.
fn timed(f: &mut impl FnMut()) -> Duration {
    let (c, t) = (cpu_time(), Instant::now());
    f();
    match (c, cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => t.elapsed(),
    }
}

/// Watches and does nothing.
struct Noop;

impl Probe for Noop {
    fn event(&mut self, _ev: &DebugEvent<'_>, _env: Option<&dyn Env>) -> bool {
        false
    }
}

fn main() {
    let (_, daily) = load("daily_life.json");
    let day = one_day(&daily);
    let seeds: Vec<u64> = (1..=200).collect();
    println!("| measure | value | target |");
    println!("|---|---|---|");

    let quiet = |_: usize, _: usize| {};
    let t = Instant::now();
    let one: Tally = run_seeds(&daily, &seeds, day, 1, &quiet);
    let t1 = t.elapsed();
    let t = Instant::now();
    let two: Tally = run_seeds(&daily, &seeds, day, 2, &quiet);
    let t2 = t.elapsed();
    assert_eq!(one, two, "the report depends on the thread count");
    println!(
        "| coverage, daily_life, 200 seeds x 1 day ({day} ticks), 1 thread | {:.2} s ({:.1} ms per seed) | |",
        t1.as_secs_f64(),
        t1.as_secs_f64() * 1000.0 / 200.0
    );
    println!(
        "| coverage, same, 2 threads (shared machine) | {:.2} s | same report: yes |",
        t2.as_secs_f64()
    );

    for (name, n_seeds, ticks) in [
        ("daily_life.json", 20u64, day),
        ("guards.json", 60, 20_000),
        ("plaza.json", 60, 6_000),
    ] {
        let (_, p) = if name == "daily_life.json" {
            (Pack::new(""), daily.clone())
        } else {
            load(name)
        };
        let mut sink = 0u64;
        let mut plain_run = || {
            for seed in 1..=n_seeds {
                let mut s = Session::new(p.clone(), seed);
                s.run(ticks);
                sink ^= s.hash();
            }
        };
        let mut sink2 = 0u64;
        let mut recording_run = || {
            for seed in 1..=n_seeds {
                let t = run_seed(&p, seed, ticks);
                sink2 ^= t.ticks;
            }
        };
        let mut sink3 = 0u64;
        let mut probed_run = || {
            for seed in 1..=n_seeds {
                let mut s = Session::new(p.clone(), seed);
                for _ in 0..ticks {
                    s.step_probed(&mut Noop);
                }
                sink3 ^= s.hash();
            }
        };
        let (mut plain, mut recording, mut probed) = (Duration::MAX, Duration::MAX, Duration::MAX);
        for _ in 0..7 {
            plain = plain.min(timed(&mut plain_run));
            recording = recording.min(timed(&mut recording_run));
            probed = probed.min(timed(&mut probed_run));
        }
        std::hint::black_box((sink, sink2, sink3));
        let pct = |d: Duration| (d.as_secs_f64() / plain.as_secs_f64() - 1.0) * 100.0;
        let overhead = pct(recording);
        println!(
            "| {name}, {n_seeds} seeds x {ticks} ticks: plain / recording coverage / no-op probe | {:.1} / {:.1} / {:.1} ms: recording {:+.1} %, probe path alone {:+.1} % | ≤ 10 %: {} |",
            plain.as_secs_f64() * 1000.0,
            recording.as_secs_f64() * 1000.0,
            probed.as_secs_f64() * 1000.0,
            overhead,
            pct(probed),
            if overhead <= 10.0 {
                "met"
            } else {
                "**not met**"
            }
        );
    }
}
