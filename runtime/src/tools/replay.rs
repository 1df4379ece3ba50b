//! Monte Carlo playthroughs of a scenario with the real executor (`townsfolk replay`), and
//! the replayability figures they give.
//!
//! Run `i` of a replay with seed `S` uses its own generator seeded from `(S, i)`, so every
//! run is the same whichever thread runs it and however many threads there are; results
//! are gathered in run order. Each run starts from the world's initial flags and counters
//! and checks the executor once per day from the scenario's `start_day` to its `end_day`;
//! events the world would end (`ended_by: world`) are simulated like the others.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use serde_json::{Value as Json, json};

use crate::program::Program;
use crate::session::Session;
use crate::systems::effects::story as exec;
use crate::trace::{Out, TraceEvent};
use crate::world::World;
use crate::world::story::Story;

/// What one playthrough did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunResult {
    /// Launches in order: (local node, day).
    pub launches: Vec<(u32, i64)>,
    /// Ends: (local node, success).
    pub ends: Vec<(u32, bool)>,
    /// Nodes whose window expired while open and unlaunched.
    pub expired: Vec<u32>,
}

/// The seed of run `i` of a replay seeded `seed` (SplitMix64 of both).
pub fn run_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed
        ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(0x6a09_e667_f3bc_c909);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One playthrough from `template` (a world at its start, without story).
pub fn run_one(p: &Program, template: &World, scenario: u32, seed: u64, end_day: i64) -> RunResult {
    let mut w = template.clone();
    w.rng = ChaCha8Rng::seed_from_u64(seed);
    w.story = Story::new(p, scenario);
    let Some(s) = p.events.scenarios.get(scenario as usize) else {
        return RunResult::default();
    };
    let mut r = RunResult::default();
    let mut trace = Vec::new();
    for day in s.start_day..=end_day {
        w.day = p.start_day.saturating_add(day - s.start_day);
        let mut out = Out {
            trace: Some(&mut trace),
            probe: None,
            counts: None,
            stop: false,
        };
        exec::check(p, &mut w, day, &mut out);
        for ev in trace.drain(..) {
            let local = |e: u32| s.local[e as usize];
            match ev {
                TraceEvent::EventLaunch { event, day, .. } => r.launches.push((local(event), day)),
                TraceEvent::EventEnd { event, success, .. } => r.ends.push((local(event), success)),
                TraceEvent::EventExpired { event, .. } => r.expired.push(local(event)),
                _ => {}
            }
        }
        // Nothing can happen any more: every event ended or can never open.
        if w.story.as_ref().is_some_and(|st| {
            st.active.is_empty()
                && st.tracker.open().is_empty()
                && st.tracker.queued().next().is_none()
                && !st.tracker.any_blocked()
        }) {
            break;
        }
    }
    r
}

/// Per-event figures of a replay.
#[derive(Clone, Debug, PartialEq)]
pub struct EventStats {
    pub id: String,
    pub mandatory: bool,
    pub launched: u32,
    pub success: u32,
    pub failure: u32,
    /// Launched but still active on the last day.
    pub unfinished: u32,
    pub expired: u32,
    /// Never opened (and never will in that run).
    pub never_opened: u32,
    pub mean_launch_day: Option<f64>,
    /// 10th, 50th and 90th percentile of the launch day (nearest rank).
    pub launch_day_percentiles: Option<[i64; 3]>,
}

/// The result of a replay.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub scenario: String,
    pub runs: u32,
    pub seed: u64,
    pub start_day: i64,
    pub end_day: i64,
    pub events: Vec<EventStats>,
    pub distinct_orders: usize,
    pub distinct_sets: usize,
    /// Shannon entropy of the launch-order distribution, in bits.
    pub entropy_bits: f64,
    /// Most common launch orders (ids) with their number of runs, most common first.
    pub top_orders: Vec<(Vec<String>, u32)>,
}

/// Runs `runs` playthroughs on `threads` threads. `progress(done, total)` is called after
/// each run (from any thread).
pub fn replay(
    program: &Arc<Program>,
    scenario: u32,
    runs: u32,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u32, u32) + Sync),
) -> Option<Report> {
    let p: &Program = program;
    let s = p.events.scenarios.get(scenario as usize)?;
    let template = Session::new(program.clone(), seed).world().clone();
    let end_day = s.end_day;
    let threads = threads.clamp(1, 64).min(runs.max(1) as usize);
    let done = AtomicU32::new(0);
    let chunk = (runs as usize).div_ceil(threads);
    let results: Vec<RunResult> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (template, done) = (&template, &done);
                let lo = (t * chunk).min(runs as usize);
                let hi = ((t + 1) * chunk).min(runs as usize);
                sc.spawn(move || {
                    (lo..hi)
                        .map(|i| {
                            let r =
                                run_one(p, template, scenario, run_seed(seed, i as u64), end_day);
                            progress(done.fetch_add(1, Ordering::Relaxed) + 1, runs);
                            r
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        // A worker can only panic on a bug; its runs are then missing from the report.
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    Some(summarize(p, scenario, seed, &results))
}

/// Figures over a set of runs (in run order).
pub fn summarize(p: &Program, scenario: u32, seed: u64, results: &[RunResult]) -> Report {
    let s = &p.events.scenarios[scenario as usize];
    let n = s.nodes.len();
    let mut launched = vec![0u32; n];
    let mut success = vec![0u32; n];
    let mut failure = vec![0u32; n];
    let mut expired = vec![0u32; n];
    let mut days: Vec<Vec<i64>> = vec![Vec::new(); n];
    let mut orders: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut sets: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut never = vec![0u32; n];
    for r in results {
        let mut opened = vec![false; n];
        for &(node, day) in &r.launches {
            launched[node as usize] += 1;
            days[node as usize].push(day);
            opened[node as usize] = true;
        }
        for &(node, ok) in &r.ends {
            if ok {
                success[node as usize] += 1;
            } else {
                failure[node as usize] += 1;
            }
        }
        for &node in &r.expired {
            expired[node as usize] += 1;
            opened[node as usize] = true;
        }
        for (k, o) in opened.iter().enumerate() {
            if !o {
                never[k] += 1;
            }
        }
        let order: Vec<u32> = r.launches.iter().map(|l| l.0).collect();
        let mut set = order.clone();
        set.sort_unstable();
        *sets.entry(set).or_default() += 1;
        *orders.entry(order).or_default() += 1;
    }
    let ids = |v: &[u32]| -> Vec<String> {
        v.iter()
            .map(|&k| p.events.events[s.nodes[k as usize] as usize].id.clone())
            .collect()
    };
    let total = results.len().max(1) as f64;
    // Sorted so that the sum (and so the printed figure) does not depend on map order.
    let mut counts: Vec<u32> = orders.values().copied().collect();
    counts.sort_unstable();
    let entropy_bits = counts
        .iter()
        .map(|&c| {
            let q = c as f64 / total;
            -q * q.log2()
        })
        .sum::<f64>()
        .max(0.0);
    let mut top: Vec<(Vec<String>, u32)> = orders.iter().map(|(o, &c)| (ids(o), c)).collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    top.truncate(5);
    // Listed in the scenario's order (local nodes are numbered by date).
    let mut listed: Vec<usize> = (0..n).collect();
    listed.sort_unstable_by_key(|&k| s.rank[k]);
    let events = listed
        .into_iter()
        .map(|k| {
            let e = &p.events.events[s.nodes[k] as usize];
            let d = &mut days[k];
            d.sort_unstable();
            let pct = |q: usize| {
                d[((d.len() * q).div_ceil(100))
                    .saturating_sub(1)
                    .min(d.len() - 1)]
            };
            EventStats {
                id: e.id.clone(),
                mandatory: e.mandatory,
                launched: launched[k],
                success: success[k],
                failure: failure[k],
                unfinished: launched[k] - success[k] - failure[k],
                expired: expired[k],
                never_opened: never[k],
                mean_launch_day: (!d.is_empty())
                    .then(|| d.iter().map(|&x| x as f64).sum::<f64>() / d.len() as f64),
                launch_day_percentiles: (!d.is_empty()).then(|| [pct(10), pct(50), pct(90)]),
            }
        })
        .collect();
    Report {
        scenario: s.id.clone(),
        runs: results.len() as u32,
        seed,
        start_day: s.start_day,
        end_day: s.end_day,
        events,
        distinct_orders: orders.len(),
        distinct_sets: sets.len(),
        entropy_bits,
        top_orders: top,
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

impl Report {
    pub fn to_json(&self) -> Json {
        let runs = self.runs.max(1) as f64;
        json!({
            "scenario": self.scenario,
            "runs": self.runs,
            "seed": self.seed,
            "days": [self.start_day, self.end_day],
            "events": self.events.iter().map(|e| json!({
                "id": e.id,
                "mandatory": e.mandatory,
                "launch_probability": round3(e.launched as f64 / runs),
                "launched": e.launched,
                "success": e.success,
                "failure": e.failure,
                "unfinished": e.unfinished,
                "expired": e.expired,
                "never_opened": e.never_opened,
                "mandatory_never_ran": if e.mandatory { json!(self.runs - e.launched) } else { Json::Null },
                "mean_launch_day": e.mean_launch_day.map(round3),
                "launch_day_p10_p50_p90": e.launch_day_percentiles,
            })).collect::<Vec<_>>(),
            "distinct_orders": self.distinct_orders,
            "distinct_sets": self.distinct_sets,
            "entropy_bits": round3(self.entropy_bits),
            "top_orders": self.top_orders.iter().map(|(o, c)| json!({
                "runs": c, "share": round3(*c as f64 / runs), "order": o,
            })).collect::<Vec<_>>(),
        })
    }

    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let runs = self.runs.max(1) as f64;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "scenario `{}`: {} runs, seed {}, days {}..={}",
            self.scenario, self.runs, self.seed, self.start_day, self.end_day
        );
        let _ = writeln!(
            s,
            "{:<28} {:>7} {:>7} {:>7} {:>9} {:>16} {:>8} {:>8}",
            "event",
            "launch",
            "success",
            "failure",
            "mean day",
            "day p10/p50/p90",
            "expired",
            "never"
        );
        for e in &self.events {
            let pct = e
                .launch_day_percentiles
                .map_or("-".to_string(), |[a, b, c]| format!("{a}/{b}/{c}"));
            let _ = writeln!(
                s,
                "{:<28} {:>6.1}% {:>7} {:>7} {:>9} {:>16} {:>8} {:>8}{}",
                format!("{}{}", e.id, if e.mandatory { " (M)" } else { "" }),
                100.0 * e.launched as f64 / runs,
                e.success,
                e.failure,
                e.mean_launch_day.map_or("-".into(), |m| format!("{m:.1}")),
                pct,
                e.expired,
                e.never_opened,
                if e.mandatory && e.launched < self.runs {
                    format!("  mandatory, never ran in {} runs", self.runs - e.launched)
                } else {
                    String::new()
                }
            );
        }
        let _ = writeln!(
            s,
            "distinct launch orders: {}, distinct launched sets: {}, entropy {:.3} bits (max {:.3})",
            self.distinct_orders,
            self.distinct_sets,
            self.entropy_bits,
            runs.log2()
        );
        let _ = writeln!(s, "most common launch orders:");
        for (o, c) in &self.top_orders {
            let _ = writeln!(
                s,
                "  {:>5.1}% ({c} runs): {}",
                100.0 * *c as f64 / runs,
                if o.is_empty() {
                    "(nothing launched)".to_string()
                } else {
                    o.join(" > ")
                }
            );
        }
        s
    }
}
