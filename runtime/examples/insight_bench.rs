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
//!   with `tools::coverage::run_seed` (the counting probe, occupancy after every tick, the
//!   end-of-run trigger explanations); best of 5, on one thread. The overhead is
//!   recording / plain - 1; the target is at most 10 %. A third figure plays them with
//!   `Session::step_probed` and a probe that does nothing: the cost of the probe path
//!   itself (every node enter/result and trace event handed to a `dyn Probe`), which the
//!   recorder cannot go below.

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

fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
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
        ("guards.json", 5, 20_000),
        ("plaza.json", 5, 6_000),
    ] {
        let (_, p) = if name == "daily_life.json" {
            (Pack::new(""), daily.clone())
        } else {
            load(name)
        };
        let mut sink = 0u64;
        let plain = best_of(5, || {
            for seed in 1..=n_seeds {
                let mut s = Session::new(p.clone(), seed);
                s.run(ticks);
                sink ^= s.hash();
            }
        });
        let recording = best_of(5, || {
            for seed in 1..=n_seeds {
                let t = run_seed(&p, seed, ticks);
                sink ^= t.ticks;
            }
        });
        let probed = best_of(5, || {
            for seed in 1..=n_seeds {
                let mut s = Session::new(p.clone(), seed);
                for _ in 0..ticks {
                    s.step_probed(&mut Noop);
                }
                sink ^= s.hash();
            }
        });
        std::hint::black_box(sink);
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
