//! Content tests run over many seeds (`townsfolk test`): each seed is played and every test
//! of the pack's `tests` section is checked after every tick (and at the start); a failure
//! names the seed, the tick and the NPC, and comes with a `townsfolk debug` script that
//! stops the debugger at that tick. Statistical tests (`min_percent`) pass when the rule
//! holds in enough of the seeds.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::expr::{Env, Scope};
use crate::pack::TestRule;
use crate::program::Program;
use crate::program::areas::proto_of;
use crate::program::content_tests::{CTest, MEASURE_SLOT, Measure, TestScope};
use crate::session::Session;
use crate::trace::{DebugEvent, Probe, TraceEvent};
use crate::value::{EntityId, Sym, Value as V, Vec2};
use crate::world::{World, WorldEnv};

/// Where one test failed in one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub seed: u64,
    /// The tick after which the rule was broken (0: at the start).
    pub tick: u64,
    /// The NPC it was broken for (tests with `npc` or `tag`).
    pub npc: Option<String>,
    /// What was wrong, as a sentence.
    pub detail: String,
}

impl Failure {
    /// The `townsfolk debug` script that stops at the failing tick and shows the state.
    pub fn debug_script(&self) -> Vec<String> {
        let mut lines = vec![json!({"cmd": "run", "ticks": self.tick}).to_string()];
        if let Some(n) = &self.npc {
            lines.push(json!({"cmd": "inspect", "npc": n}).to_string());
        }
        lines.push(json!({"cmd": "inspect"}).to_string());
        lines
    }
}

/// One test over every seed played.
#[derive(Clone, Debug, PartialEq)]
pub struct TestResult {
    pub id: String,
    /// JSON path of the test in the pack.
    pub path: String,
    pub rule: TestRule,
    pub seeds: u64,
    /// Seeds in which the rule held.
    pub held: u64,
    /// Statistical tests: the percentage of seeds required.
    pub min_percent: Option<f64>,
    /// Every failing seed, in seed order.
    pub failures: Vec<Failure>,
}

impl TestResult {
    pub fn passed(&self) -> bool {
        match self.min_percent {
            Some(pct) => self.held as f64 * 100.0 >= pct * self.seeds as f64,
            None => self.failures.is_empty(),
        }
    }
}

/// The world as a test expression reads it: the program's names through [`WorldEnv`], the
/// test's measures by slot.
struct TestEnv<'a> {
    base: WorldEnv<'a>,
    measures: &'a [Measure],
    launched: &'a [u64],
}

fn in_area(w: &World, npc: u32, area: u32) -> bool {
    w.npcs
        .get(npc as usize)
        .is_some_and(|n| !n.removed && n.areas.iter().any(|&a| proto_of(a) == area))
}

impl Env for TestEnv<'_> {
    fn var(&self, scope: Scope, slot: u32) -> V {
        if scope == Scope::Blackboard && slot >= MEASURE_SLOT {
            let w = self.base.world;
            return match self.measures.get((slot - MEASURE_SLOT) as usize) {
                Some(Measure::Tick) => V::Int(w.tick as i64),
                Some(Measure::Seconds) => V::Float(w.tick as f64 * self.base.program.dt),
                Some(&Measure::InArea(a)) => V::Bool(in_area(w, self.base.npc, a)),
                Some(&Measure::Count(a)) => V::Int(
                    w.npcs
                        .iter()
                        .filter(|n| n.alive() && n.areas.iter().any(|&x| proto_of(x) == a))
                        .count() as i64,
                ),
                Some(&Measure::Launched(e)) => {
                    V::Int(self.launched.get(e as usize).copied().unwrap_or(0) as i64)
                }
                None => V::Bool(false),
            };
        }
        self.base.var(scope, slot)
    }
    fn self_entity(&self) -> EntityId {
        self.base.self_entity()
    }
    fn position(&self, e: EntityId) -> Option<Vec2> {
        self.base.position(e)
    }
    fn hour(&self) -> f64 {
        self.base.hour()
    }
    fn day(&self) -> i64 {
        self.base.day()
    }
    fn has_tag(&self, e: EntityId, tag: Sym) -> bool {
        self.base.has_tag(e, tag)
    }
    fn health(&self, e: EntityId) -> f64 {
        self.base.health(e)
    }
    fn alive(&self, e: EntityId) -> bool {
        self.base.alive(e)
    }
}

/// Counts story-event launches (what `launched_EVENT` reads); never pauses.
struct Launches<'a>(&'a mut Vec<u64>);

impl Probe for Launches<'_> {
    fn event(&mut self, ev: &DebugEvent<'_>, _env: Option<&dyn Env>) -> bool {
        if let DebugEvent::Trace(TraceEvent::EventLaunch { event, .. }) = ev
            && let Some(c) = self.0.get_mut(*event as usize)
        {
            *c += 1;
        }
        false
    }
}

/// The NPCs a test is evaluated for now (`u32::MAX`: none, world-level values only).
fn targets(p: &Program, w: &World, scope: TestScope, out: &mut Vec<u32>) {
    out.clear();
    match scope {
        TestScope::World => out.push(u32::MAX),
        TestScope::Npc(i) => out.push(i),
        TestScope::Tag(tag) => {
            let env = WorldEnv::world(p, w);
            out.extend(
                (0..w.npcs.len() as u32)
                    .filter(|&i| !w.npcs[i as usize].removed)
                    .filter(|&i| env.has_tag(EntityId::Npc(i), tag)),
            )
        }
    }
}

/// One test's progress in one seed.
#[derive(Clone, Debug)]
enum State {
    Open,
    /// `eventually` with a tag: which NPCs have satisfied it.
    Waiting(Vec<bool>),
    Held,
    Failed(Failure),
}

/// Ticks a run needs by default: one in-game day, and at least every test's horizon.
pub fn default_ticks(p: &Program) -> u64 {
    let game_secs_per_tick = (p.dt * p.time_scale).max(1e-9);
    let day = (86_400.0 / game_secs_per_tick).ceil().min(1.0e9) as u64;
    p.tests
        .iter()
        .filter_map(CTest::horizon)
        .fold(day.max(1), u64::max)
}

/// Plays one seed for up to `ticks` ticks (stopping early once every test is decided) and
/// returns, per test, None (held) or where it failed.
pub fn run_seed(program: &Arc<Program>, seed: u64, ticks: u64) -> Vec<Option<Failure>> {
    let p: &Program = program;
    let mut s = Session::new(program.clone(), seed);
    let counting = p.tests.iter().any(CTest::counts_launches);
    let mut launched = vec![0u64; p.events.events.len()];
    let mut state: Vec<State> = p.tests.iter().map(|_| State::Open).collect();
    let mut who = Vec::new();
    let name = |w: &World, n: u32| (n != u32::MAX).then(|| w.npc_name(p, n));
    for tick in 0..=ticks {
        if tick > 0 {
            if counting {
                s.step_probed(&mut Launches(&mut launched));
            } else {
                s.step();
            }
        }
        let w = s.world();
        let mut open = false;
        for (t, st) in p.tests.iter().zip(state.iter_mut()) {
            if matches!(st, State::Held | State::Failed(_)) {
                continue;
            }
            targets(p, w, t.scope, &mut who);
            let env = |npc: u32| TestEnv {
                base: WorldEnv {
                    program: p,
                    world: w,
                    npc,
                },
                measures: &t.measures,
                launched: &launched,
            };
            let fail = |npc: u32, detail: String| {
                State::Failed(Failure {
                    seed,
                    tick,
                    npc: name(w, npc),
                    detail,
                })
            };
            match t.rule {
                TestRule::Always => {
                    for &n in &who {
                        let e = env(n);
                        if !t.expr.eval_bool(&e) {
                            let part = t
                                .expr
                                .failing_part(&e)
                                .unwrap_or_else(|| t.expr.source().to_string());
                            *st = fail(n, format!("`{part}` is false"));
                            break;
                        }
                    }
                }
                TestRule::Never => {
                    for &n in &who {
                        if t.expr.eval_bool(&env(n)) {
                            *st = fail(n, format!("`{}` is true", t.expr.source()));
                            break;
                        }
                    }
                }
                TestRule::At => {
                    if Some(tick) == t.at {
                        *st = State::Held;
                        for &n in &who {
                            let e = env(n);
                            if !t.expr.eval_bool(&e) {
                                let part = t
                                    .expr
                                    .failing_part(&e)
                                    .unwrap_or_else(|| t.expr.source().to_string());
                                *st = fail(n, format!("`{part}` is false at tick {tick}"));
                                break;
                            }
                        }
                    }
                }
                TestRule::Eventually => {
                    let mut done = match st {
                        State::Waiting(d) => std::mem::take(d),
                        _ => Vec::new(),
                    };
                    if done.len() < w.npcs.len() + 1 {
                        done.resize(w.npcs.len() + 1, false);
                    }
                    // Index 0 is the world-level target; NPC i is at i + 1.
                    let slot = |n: u32| if n == u32::MAX { 0 } else { n as usize + 1 };
                    for &n in &who {
                        if !done[slot(n)] && t.expr.eval_bool(&env(n)) {
                            done[slot(n)] = true;
                        }
                    }
                    let all = who.iter().all(|&n| done[slot(n)]);
                    let deadline = t.within.unwrap_or(ticks).min(ticks);
                    *st = if all && !who.is_empty() {
                        State::Held
                    } else if tick >= deadline {
                        match who.iter().find(|&&n| !done[slot(n)]) {
                            Some(&n) => fail(
                                n,
                                format!("`{}` never held by tick {tick}", t.expr.source()),
                            ),
                            None => fail(
                                u32::MAX,
                                format!(
                                    "no NPC to test by tick {tick}: `{}` never held",
                                    t.expr.source()
                                ),
                            ),
                        }
                    } else {
                        State::Waiting(done)
                    };
                }
            }
            open |= !matches!(st, State::Held | State::Failed(_));
        }
        if !open {
            break;
        }
    }
    // Open at the end: `always`/`never` held throughout; an `at` beyond the run is a
    // failure at the last tick.
    let end = s.tick();
    p.tests
        .iter()
        .zip(state)
        .map(|(t, st)| match st {
            State::Failed(f) => Some(f),
            State::Held => None,
            State::Open | State::Waiting(_) => match t.rule {
                TestRule::Always | TestRule::Never => None,
                TestRule::At | TestRule::Eventually => Some(Failure {
                    seed,
                    tick: end,
                    npc: None,
                    detail: format!("the run ended at tick {end} before the test was decided"),
                }),
            },
        })
        .collect()
}

/// Runs every seed (contiguous chunks on `threads` threads, results in seed order) and
/// returns one result per test, in pack order.
pub fn run_tests(
    program: &Arc<Program>,
    seeds: &[u64],
    ticks: u64,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<TestResult> {
    let p: &Program = program;
    let n = seeds.len();
    let threads = threads.clamp(1, n.max(1));
    let chunk = n.div_ceil(threads).max(1);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let per_seed: Vec<Vec<Option<Failure>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .chunks(chunk)
            .map(|c| {
                let done = &done;
                scope.spawn(move || {
                    c.iter()
                        .map(|&seed| {
                            let r = run_seed(program, seed, ticks);
                            let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            progress(k + 1, n);
                            r
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        // A worker panicking is a bug in the simulation: re-raise it here.
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    p.tests
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let failures: Vec<Failure> = per_seed
                .iter()
                .filter_map(|r| r.get(i).cloned().flatten())
                .collect();
            TestResult {
                id: t.id.clone(),
                path: t.path.clone(),
                rule: t.rule,
                seeds: n as u64,
                held: n as u64 - failures.len() as u64,
                min_percent: t.min_percent,
                failures,
            }
        })
        .collect()
}

impl TestResult {
    /// The JSON form; `pack` is the path the debug command names.
    pub fn to_json(&self, pack: &str) -> Value {
        let failures: Vec<Value> = self
            .failures
            .iter()
            .map(|f| {
                json!({"seed": f.seed, "tick": f.tick, "npc": f.npc, "detail": f.detail,
                       "debug": debug_command(pack, f), "debug_script": f.debug_script()})
            })
            .collect();
        json!({"id": self.id, "path": self.path, "rule": self.rule.name(),
               "passed": self.passed(), "seeds": self.seeds, "held": self.held,
               "min_percent": self.min_percent, "failures": failures})
    }
}

/// The shell command that replays a failure in the debugger: `townsfolk debug` reading its
/// script from standard input (a here-document), stopping at the failing tick.
pub fn debug_command(pack: &str, f: &Failure) -> String {
    let quoted = if pack
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
    {
        pack.to_string()
    } else {
        format!("'{}'", pack.replace('\'', r"'\''"))
    };
    format!(
        "townsfolk debug {quoted} --seed {} <<'EOF'\n{}\nEOF",
        f.seed,
        f.debug_script().join("\n")
    )
}

/// The text report: one line per test, then its failures (the first `show` of them with
/// their debug command).
pub fn to_text(results: &[TestResult], pack: &str, show: usize) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for r in results {
        let pct = if r.seeds == 0 {
            100.0
        } else {
            r.held as f64 * 100.0 / r.seeds as f64
        };
        let need = match r.min_percent {
            Some(pct) => format!(", needs {}%", crate::program::short(pct)),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "{} {} ({}, {}): held in {} of {} seeds ({}%{need})",
            if r.passed() { "ok  " } else { "FAIL" },
            r.id,
            r.rule.name(),
            r.path,
            r.held,
            r.seeds,
            crate::program::short((pct * 10.0).round() / 10.0),
        );
        if r.passed() && r.min_percent.is_some() {
            continue;
        }
        for f in r.failures.iter().take(show) {
            let who = f
                .npc
                .as_deref()
                .map_or(String::new(), |n| format!(", NPC {n}"));
            let _ = writeln!(s, "  seed {}, tick {}{who}: {}", f.seed, f.tick, f.detail);
            for line in debug_command(pack, f).lines() {
                let _ = writeln!(s, "    {line}");
            }
        }
        if r.failures.len() > show {
            let _ = writeln!(s, "  … and {} more failing seeds", r.failures.len() - show);
        }
    }
    let failed = results.iter().filter(|r| !r.passed()).count();
    let _ = writeln!(
        s,
        "{} tests, {} passed, {failed} failed",
        results.len(),
        results.len() - failed
    );
    s
}
