//! Tests of event dependency graphs: the tracker against a from-scratch reference model
//! (proptest), each static check, each executor parameter, the world integration and replay.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Value as Json, json};

use crate::pack::Diagnostic;
use crate::program::tracker::{Change, Graph, NodeState, Tracker};
use crate::program::{Program, load_str};
use crate::session::Session;
use crate::systems::effects::story as exec;
use crate::trace::{Out, TraceEvent};
use crate::world::World;
use crate::world::story::Story;

// ---------------------------------------------------------------------------------------------
// Tracker vs reference model
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Case {
    windows: Vec<(i64, i64)>,
    /// (source, target, needs success), source < target.
    edges: Vec<(u32, u32, bool)>,
    /// Flag read by each node's precondition, if any.
    pre: Vec<Option<usize>>,
    ops: Vec<Op>,
}

#[derive(Clone, Debug)]
enum Op {
    Advance(i64),
    /// Launch the k-th open node (mod the number open).
    Launch(usize),
    /// End the k-th active node (mod the number active) with an outcome.
    End(usize, bool),
    SetFlag(usize, bool),
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..14).prop_flat_map(|n| {
        let window = (
            prop::option::weighted(0.7, 0i64..25),
            prop::option::weighted(0.7, 0i64..15),
        )
            .prop_map(|(nb, len)| {
                let lo = nb.unwrap_or(i64::MIN);
                let hi = match (nb, len) {
                    (_, None) => i64::MAX,
                    (Some(b), Some(l)) => b + l,
                    (None, Some(l)) => l + 5,
                };
                (lo, hi)
            });
        let pairs: Vec<(u32, u32)> = (0..n as u32)
            .flat_map(|t| (0..t).map(move |s| (s, t)))
            .collect();
        let m = pairs.len();
        // Each possible edge kept with probability 1/3 (sparse enough that things open),
        // whatever its source: every node, node 0 included, can be a dependency.
        let edges = prop::collection::vec((prop::bool::weighted(1.0 / 3.0), any::<bool>()), m)
            .prop_map(move |bits| {
                pairs
                    .iter()
                    .zip(bits)
                    .filter(|(_, (keep, _))| *keep)
                    .map(|(&(s, t), (_, ok))| (s, t, ok))
                    .collect::<Vec<_>>()
            });
        let op = prop_oneof![
            (0i64..6).prop_map(Op::Advance),
            (0usize..20).prop_map(Op::Launch),
            (0usize..20, any::<bool>()).prop_map(|(k, o)| Op::End(k, o)),
            (0usize..3, any::<bool>()).prop_map(|(f, v)| Op::SetFlag(f, v)),
        ];
        (
            prop::collection::vec(window, n),
            edges,
            prop::collection::vec(prop::option::weighted(0.3, 0usize..3), n),
            prop::collection::vec(op, 1..40),
        )
            .prop_map(|(windows, edges, pre, ops)| Case {
                windows,
                edges,
                pre,
                ops,
            })
    })
}

/// The obvious model: recompute every node's state from the date, what was launched and
/// how things ended. Expired and dead are one state here ("can never open").
fn reference(c: &Case, date: i64, launched: &[bool], ended: &[Option<bool>]) -> Vec<NodeState> {
    let n = c.windows.len();
    let mut out = vec![NodeState::Blocked; n];
    for v in 0..n {
        if launched[v] {
            out[v] = match ended[v] {
                Some(ok) => NodeState::Done(ok),
                None => NodeState::Active,
            };
            continue;
        }
        let ins = c.edges.iter().filter(|e| e.1 as usize == v);
        let mut impossible = false;
        let mut pending = false;
        for &(s, _, ok) in ins {
            let s = s as usize;
            match ended[s] {
                Some(o) if o == ok => {}
                Some(_) => impossible = true,
                None if out[s] == NodeState::Dead => impossible = true,
                None => pending = true,
            }
        }
        let (nb, na) = c.windows[v];
        out[v] = if impossible || na < date {
            NodeState::Dead
        } else if pending {
            NodeState::Blocked
        } else if nb > date {
            NodeState::Queued
        } else {
            NodeState::Open
        };
    }
    out
}

fn sorted(v: impl IntoIterator<Item = u32>) -> Vec<u32> {
    let mut v: Vec<u32> = v.into_iter().collect();
    v.sort_unstable();
    v
}

/// The case as a pack: events `e0`, `e1`, … with the case's windows, edges and
/// preconditions (`flags.f0` … `flags.f2`), in one scenario starting on day 0.
fn case_program(c: &Case) -> Arc<Program> {
    let events: Vec<Json> = (0..c.windows.len())
        .map(|v| {
            let (lo, hi) = c.windows[v];
            let mut e = json!({"id": format!("e{v}"), "ended_by": "world"});
            if lo != i64::MIN {
                e["not_before"] = json!(lo);
            }
            if hi != i64::MAX {
                e["not_after"] = json!(hi);
            }
            let after: Vec<Json> = c
                .edges
                .iter()
                .filter(|edge| edge.1 as usize == v)
                .map(|&(src, _, ok)| {
                    json!({"event": format!("e{src}"), "outcome": if ok { "success" } else { "failure" }})
                })
                .collect();
            if !after.is_empty() {
                e["after"] = Json::Array(after);
            }
            if let Some(f) = c.pre[v] {
                e["precondition"] = json!(format!("flags.f{f}"));
            }
            e
        })
        .collect();
    let world = json!({"flags": {"f0": false, "f1": false, "f2": false}});
    let text = pack_text(
        Json::Array(events),
        json!([{"id": "s", "start_day": 0}]),
        world,
    );
    let l = load_str(&text);
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    Arc::new(Program::build(&l.pack.expect("pack")).0)
}

/// Plays the case through the story executor of a real world (compiled graph, tracker,
/// launches and ends, flags read by preconditions) and checks every step against the
/// reference: node states, the open list and queue, and `world::story::available`.
fn check_against_reference(c: &Case) -> Result<(), TestCaseError> {
    let p = case_program(c);
    let mut w = story_world(&p, 1);
    let n = c.windows.len();
    let flag_slot: Vec<usize> = (0..3)
        .map(|f| p.flags.get(&format!("f{f}")).expect("flag") as usize)
        .collect();
    // Local nodes are numbered in date order: case event `v` is local node `local[v]`.
    let sc = &p.events.scenarios[0];
    let local: Vec<u32> = (0..n)
        .map(|v| sc.local[p.events.event(&format!("e{v}")).expect("event") as usize])
        .collect();
    let mut case_of = vec![0u32; n];
    for (v, &l) in local.iter().enumerate() {
        case_of[l as usize] = v as u32;
    }
    let mut launched = vec![false; n];
    let mut ended = vec![None; n];
    let mut trace = Vec::new();
    for (step, op) in std::iter::once(Op::Advance(0))
        .chain(c.ops.iter().cloned())
        .enumerate()
    {
        let mut out = Out {
            trace: Some(&mut trace),
            probe: None,
            counts: None,
            stop: false,
        };
        let tracker = |w: &World| w.story.as_ref().expect("story").tracker.clone();
        match op {
            Op::Advance(d) => {
                let day = tracker(&w).date() + d;
                exec::advance_to(&p, &mut w, day, &mut out);
            }
            Op::Launch(k) => {
                let open = sorted(tracker(&w).open().iter().map(|&l| case_of[l as usize]));
                if !open.is_empty() {
                    let v = open[k % open.len()];
                    let l = local[v as usize];
                    prop_assert!(exec::launch_local(&p, &mut w, l, false, &mut out));
                    launched[v as usize] = true;
                }
            }
            Op::End(k, ok) => {
                let t = tracker(&w);
                let active: Vec<u32> = (0..n as u32)
                    .filter(|&v| t.state(local[v as usize]) == NodeState::Active)
                    .collect();
                if !active.is_empty() {
                    let v = active[k % active.len()];
                    let l = local[v as usize];
                    prop_assert!(exec::end_local(&p, &mut w, l, ok, &mut out));
                    ended[v as usize] = Some(ok);
                }
            }
            Op::SetFlag(f, v) => w.flags[flag_slot[f]] = v,
        }
        let t = tracker(&w);
        let want = reference(c, t.date(), &launched, &ended);
        let got: Vec<NodeState> = local
            .iter()
            .map(|&l| match t.state(l) {
                NodeState::Expired => NodeState::Dead,
                s => s,
            })
            .collect();
        prop_assert_eq!(
            &got,
            &want,
            "after op {} ({:?}) on date {}",
            step,
            op,
            t.date()
        );
        // The open list and the queue hold exactly the open and queued nodes.
        let open: Vec<u32> = sorted((0..n as u32).filter(|&v| want[v as usize] == NodeState::Open));
        let to_case = |l: u32| case_of[l as usize];
        prop_assert_eq!(sorted(t.open().iter().copied().map(to_case)), open.clone());
        let queued = sorted((0..n as u32).filter(|&v| want[v as usize] == NodeState::Queued));
        prop_assert_eq!(sorted(t.queued().map(to_case)), queued);
        // Available = open and precondition true over the world's flags now.
        let flags: Vec<bool> = flag_slot.iter().map(|&s| w.flags[s]).collect();
        let avail: Vec<u32> = open
            .iter()
            .copied()
            .filter(|&v| c.pre[v as usize].is_none_or(|f| flags[f]))
            .collect();
        // In the scenario's order (here the library's: the case's).
        let got_avail: Vec<u32> = crate::world::story::available(&p, &w)
            .into_iter()
            .map(to_case)
            .collect();
        prop_assert_eq!(got_avail, avail, "after op {} ({:?})", step, op);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn tracker_agrees_with_the_reference_model(c in case()) {
        check_against_reference(&c)?;
    }
}

#[test]
fn expired_and_dead_are_told_apart() {
    // 0 -> 1 (success), 0 -> 2 (failure); 3 has a window that closes.
    let g = Graph::new(
        vec![(0, 100), (0, 100), (0, 100), (0, 2)],
        &[(0, 1, true), (0, 2, false)],
    );
    let mut t = Tracker::new(&g, 0);
    t.advance(&g, 0);
    assert!(t.launch(0));
    assert!(t.ended(&g, 0, true));
    assert_eq!(t.state(1), NodeState::Open);
    assert_eq!(t.state(2), NodeState::Dead);
    t.advance(&g, 3);
    assert_eq!(t.state(3), NodeState::Expired);
}

/// Issue 14 item 5: the tracker numbers its nodes internally by date; callers never see
/// it. A graph and the same graph under another numbering (reversed, and interleaved) give
/// the same changes, states and queues each day, mapped through the renumbering (the order
/// of one day's changes follows the caller's ids, as SPEC §3's tracker always did).
#[test]
fn the_internal_order_is_invisible_to_callers() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    let n = 400u32;
    let windows: Vec<(i64, i64)> = (0..n)
        .map(|_| {
            let nb = rng.random_range(0..100);
            (nb, nb + rng.random_range(0..30))
        })
        .collect();
    let mut edges = Vec::new();
    for t in 1..n {
        for _ in 0..rng.random_range(0..4) {
            edges.push((t - rng.random_range(1..=t.min(40)), t, rng.random::<bool>()));
        }
    }
    let outcome: Vec<bool> = (0..n).map(|_| rng.random::<bool>()).collect();
    // Every play's record, in the original ids: per day, the changes and each state.
    let play = |id: &dyn Fn(u32) -> u32| {
        let mut back = vec![0u32; n as usize];
        for v in 0..n {
            back[id(v) as usize] = v;
        }
        let mut w = vec![(0, 0); n as usize];
        for v in 0..n {
            w[id(v) as usize] = windows[v as usize];
        }
        let e: Vec<(u32, u32, bool)> = edges.iter().map(|&(s, t, ok)| (id(s), id(t), ok)).collect();
        let g = Graph::new(w, &e);
        let mut t = Tracker::new(&g, 0);
        let mut log = Vec::new();
        for day in 0..140 {
            t.advance(&g, if day == 0 { 0 } else { 1 });
            // Every fifth event is never launched: it expires.
            let mut open: Vec<u32> = t
                .open()
                .iter()
                .copied()
                .filter(|&o| !back[o as usize].is_multiple_of(5))
                .collect();
            open.sort_unstable_by_key(|&o| back[o as usize]);
            for &o in &open {
                assert!(t.launch(o));
            }
            for &o in &open {
                assert!(t.ended(&g, o, outcome[back[o as usize] as usize]));
            }
            let mut changes: Vec<(u8, u32)> = t
                .changes
                .drain(..)
                .map(|c| match c {
                    Change::Open(x) => (0, back[x as usize]),
                    Change::Expired(x) => (1, back[x as usize]),
                    Change::Dead(x) => (2, back[x as usize]),
                })
                .collect();
            changes.sort_unstable();
            let states: Vec<NodeState> = (0..n).map(|v| t.state(id(v))).collect();
            let mut queued: Vec<u32> = t.queued().map(|q| back[q as usize]).collect();
            queued.sort_unstable();
            log.push((changes, states, queued));
        }
        log
    };
    let given = play(&|v| v);
    for kind in 0..3 {
        assert!(
            given.iter().any(|(c, _, _)| c.iter().any(|c| c.0 == kind)),
            "{kind}"
        );
    }
    assert_eq!(given, play(&|v| n - 1 - v));
    assert_eq!(given, play(&|v| (v % 2) * (n / 2) + v / 2));
}

// ---------------------------------------------------------------------------------------------
// Helpers for packs
// ---------------------------------------------------------------------------------------------

fn pack_text(events: Json, scenarios: Json, world: Json) -> String {
    json!({"format": "townsfolk-pack", "version": 1, "name": "t", "world": world,
           "events": events, "scenarios": scenarios})
    .to_string()
}

fn diags(events: Json, scenarios: Json) -> Vec<Diagnostic> {
    load_str(&pack_text(events, scenarios, json!({}))).diagnostics
}

fn has(d: &[Diagnostic], path: &str, text: &str) -> bool {
    d.iter().any(|x| x.path == path && x.message.contains(text))
}

fn program(events: Json, scenario: Json) -> Arc<Program> {
    let l = load_str(&pack_text(events, json!([scenario]), json!({})));
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    let pack = l.pack.expect("pack");
    Arc::new(Program::build(&pack).0)
}

fn story_world(p: &Arc<Program>, seed: u64) -> World {
    let mut w = Session::new(p.clone(), seed).world().clone();
    w.story = Story::new(p, 0);
    w
}

/// Runs daily checks over `days` (from the scenario start); returns (day, event id) of
/// every launch.
fn launches(p: &Arc<Program>, w: &mut World, days: std::ops::Range<i64>) -> Vec<(i64, String)> {
    let mut trace = Vec::new();
    for d in days {
        let mut out = Out {
            trace: Some(&mut trace),
            probe: None,
            counts: None,
            stop: false,
        };
        exec::check(p, w, d, &mut out);
    }
    trace
        .iter()
        .filter_map(|e| match *e {
            TraceEvent::EventLaunch { event, day, .. } => {
                Some((day, p.events.events[event as usize].id.clone()))
            }
            _ => None,
        })
        .collect()
}

fn many(n: usize, extra: Json) -> Json {
    Json::Array(
        (0..n)
            .map(|i| {
                let mut e = json!({"id": format!("e{i}")});
                if let (Some(o), Some(x)) = (e.as_object_mut(), extra.as_object()) {
                    o.extend(x.clone());
                }
                e
            })
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------------
// Static checks
// ---------------------------------------------------------------------------------------------

#[test]
fn cycles_are_named() {
    let d = diags(
        json!([
            {"id": "a", "after": [{"event": "c", "outcome": "success"}]},
            {"id": "b", "after": [{"event": "a", "outcome": "success"}]},
            {"id": "c", "after": [{"event": "b", "outcome": "failure"}]},
            {"id": "d", "after": [{"event": "d", "outcome": "success"}]}
        ]),
        json!([]),
    );
    let cyc: Vec<&Diagnostic> = d
        .iter()
        .filter(|x| x.message.contains("dependency cycle"))
        .collect();
    assert_eq!(cyc.len(), 2, "{d:#?}");
    assert!(cyc.iter().all(|x| x.is_error()));
    assert!(
        cyc.iter().any(|x| x.message.contains("a → b → c → a")),
        "{cyc:#?}"
    );
    assert!(cyc.iter().any(|x| x.message.contains("d → d")), "{cyc:#?}");
}

#[test]
fn dangling_edges_are_errors_with_a_suggestion() {
    let d = diags(
        json!([{"id": "blessing"}, {"id": "oath", "after": [{"event": "blesing", "outcome": "success"}]}]),
        json!([]),
    );
    assert!(
        has(&d, "events[1].after[0].event", "did you mean `blessing`"),
        "{d:#?}"
    );
}

#[test]
fn windows_that_can_never_open_given_ancestors() {
    let d = diags(
        json!([
            {"id": "a", "not_before": 50, "not_after": 60},
            {"id": "b", "not_after": 70, "after": [{"event": "a", "outcome": "success"}]},
            {"id": "c", "not_before": 0, "not_after": 40, "after": [{"event": "b", "outcome": "success"}]}
        ]),
        json!([]),
    );
    assert!(
        has(&d, "events[2].not_after", "cannot open before day 50"),
        "{d:#?}"
    );
    assert!(!d.iter().any(|x| x.path.starts_with("events[1]")), "{d:#?}");
    // Inverted window: an error.
    let d = diags(
        json!([{"id": "x", "not_before": 5, "not_after": 1}]),
        json!([]),
    );
    assert!(
        d.iter()
            .any(|x| x.is_error() && x.path == "events[0].not_after")
    );
}

#[test]
fn unreachable_events_in_a_scenario() {
    let d = diags(
        json!([
            {"id": "a", "not_after": 10},
            {"id": "b", "after": [{"event": "a", "outcome": "success"}]},
            {"id": "x"},
            {"id": "y", "after": [{"event": "x", "outcome": "success"}]},
            {"id": "z", "after": [{"event": "x", "outcome": "success"}, {"event": "y", "outcome": "success"}]},
            {"id": "w", "after": [{"event": "x", "outcome": "success"}, {"event": "y2", "outcome": "success"}]},
            {"id": "y2", "after": [{"event": "x", "outcome": "failure"}]},
            {"id": "q", "after": [{"event": "out", "outcome": "success"}]},
            {"id": "out"}
        ]),
        json!([{"id": "s", "start_day": 20, "events": ["a", "b", "x", "y", "z", "w", "y2", "q"]}]),
    );
    let un = |id: &str| {
        d.iter()
            .any(|x| x.message.contains(&format!("event `{id}` is unreachable")))
    };
    assert!(un("a") && un("b"), "{d:#?}");
    assert!(un("w"), "needs x both ways: {d:#?}");
    assert!(un("q"), "depends on an event outside the scenario: {d:#?}");
    assert!(!un("x") && !un("y") && !un("z") && !un("y2"), "{d:#?}");
}

#[test]
fn mandatory_events_that_an_outcome_makes_impossible() {
    let d = diags(
        json!([
            {"id": "t1", "mandatory": true, "success_probability": 1.0},
            {"id": "t2", "mandatory": true, "after": [{"event": "t1", "outcome": "success"}]},
            {"id": "opt"},
            {"id": "m", "mandatory": true, "after": [{"event": "opt", "outcome": "success"}]},
            {"id": "m2", "mandatory": true},
            {"id": "m3", "mandatory": true, "after": [{"event": "m2", "outcome": "success"}]}
        ]),
        json!([{"id": "s"}]),
    );
    assert!(!d.iter().any(|x| x.path == "events[1].mandatory"), "{d:#?}");
    assert!(
        has(&d, "events[3].mandatory", "`opt`, which is not mandatory"),
        "{d:#?}"
    );
    assert!(
        has(&d, "events[5].mandatory", "if `m2` ends in failure"),
        "{d:#?}"
    );
}

#[test]
fn preconditions_reading_unknown_flags_warn() {
    let l = load_str(&pack_text(
        json!([
            {"id": "a", "on_success": [{"do": "set_flag", "flag": "blessed", "value": true}]},
            {"id": "b", "precondition": "flags.blesed && counters.gold > 1"},
            {"id": "c", "precondition": "flags.blessed && flags.known"},
            {"id": "d", "precondition": "hunger > 1"}
        ]),
        json!([]),
        json!({"flags": {"known": true}, "counters": {"gold": 0}}),
    ));
    let d = &l.diagnostics;
    assert!(has(d, "events[1].precondition", "flag `blesed`"), "{d:#?}");
    assert!(
        has(d, "events[1].precondition", "did you mean `blessed`"),
        "{d:#?}"
    );
    assert!(
        !d.iter().any(|x| x.path == "events[2].precondition"),
        "{d:#?}"
    );
    assert!(
        d.iter().any(|x| x.is_error()
            && x.path == "events[3].precondition"
            && x.message.contains("only `flags.NAME`")),
        "{d:#?}"
    );
}

#[test]
fn bad_parameters_and_references_are_errors() {
    let d = diags(
        json!([{"id": "a", "success_probability": 2.0, "duration_days": [3, 1],
                "on_success": [{"do": "end_event", "event": "nope", "outcome": "success"}]},
               {"id": "a"}]),
        json!([{"id": "s", "events": ["a", "zz"], "launch_probability": -1, "max_active": 0,
                "min_wait": 5, "max_wait": 2}]),
    );
    for path in [
        "events[0].success_probability",
        "events[0].duration_days",
        "events[0].on_success[0].event",
        "events[1].id",
        "scenarios[0].events[1]",
        "scenarios[0].launch_probability",
        "scenarios[0].max_active",
        "scenarios[0].max_wait",
    ] {
        assert!(
            d.iter().any(|x| x.is_error() && x.path == path),
            "{path}: {d:#?}"
        );
    }
    // A bad item is reported with its path and the rest still loads.
    let l = load_str(&pack_text(
        json!([{"id": "a"}, {"id": 3}, {"id": "c", "after": "a"}]),
        json!([{"id": "s", "max_active": "two"}]),
        json!({}),
    ));
    assert!(l.diagnostics.iter().any(|x| x.path == "events[1].id"));
    assert!(l.diagnostics.iter().any(|x| x.path == "events[2].after"));
    assert!(
        l.diagnostics
            .iter()
            .any(|x| x.path == "scenarios[0].max_active")
    );
    assert_eq!(l.pack.expect("pack").events.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Executor parameters
// ---------------------------------------------------------------------------------------------

#[test]
fn launch_probability() {
    let ev = many(400, json!({"duration_days": [1, 1]}));
    let p0 = program(
        ev.clone(),
        json!({"id": "s", "launch_probability": 0.0, "max_active": 1000}),
    );
    assert!(launches(&p0, &mut story_world(&p0, 1), 0..100).is_empty());
    let p1 = program(
        ev.clone(),
        json!({"id": "s", "launch_probability": 1.0, "max_active": 1000}),
    );
    let l = launches(&p1, &mut story_world(&p1, 1), 0..100);
    assert_eq!(l.len(), 100, "one launch per daily check");
    assert!(l.iter().enumerate().all(|(i, (d, _))| *d == i as i64));
    let ph = program(
        ev,
        json!({"id": "s", "launch_probability": 0.5, "max_active": 1000}),
    );
    let n = launches(&ph, &mut story_world(&ph, 7), 0..400).len();
    assert!((160..=240).contains(&n), "about half of 400 checks: {n}");
}

#[test]
fn max_active() {
    let p = program(
        many(10, json!({"duration_days": [10, 10]})),
        json!({"id": "s", "launch_probability": 1.0, "max_active": 2}),
    );
    let l = launches(&p, &mut story_world(&p, 3), 0..25);
    let days: Vec<i64> = l.iter().map(|x| x.0).collect();
    assert_eq!(days, [0, 1, 10, 11, 20, 21]);
}

#[test]
fn min_and_max_wait() {
    let p = program(
        many(10, json!({"duration_days": [1, 1]})),
        json!({"id": "s", "launch_probability": 1.0, "max_active": 5, "min_wait": 4}),
    );
    let days: Vec<i64> = launches(&p, &mut story_world(&p, 3), 0..13)
        .iter()
        .map(|x| x.0)
        .collect();
    assert_eq!(days, [0, 4, 8, 12]);
    let p = program(
        many(10, json!({"duration_days": [1, 1]})),
        json!({"id": "s", "launch_probability": 0.0, "max_active": 5, "max_wait": 7, "start_day": 100}),
    );
    let days: Vec<i64> = launches(&p, &mut story_world(&p, 3), 100..122)
        .iter()
        .map(|x| x.0)
        .collect();
    assert_eq!(days, [107, 114, 121], "forced after 7 quiet days");
}

#[test]
fn mandatory_events_bypass_the_parameters() {
    let p = program(
        json!([
            {"id": "long", "duration_days": [50, 50]},
            {"id": "tutorial", "mandatory": true, "not_before": 3, "not_after": 9},
            {"id": "gated", "mandatory": true, "precondition": "flags.ready"},
            {"id": "setter", "not_before": 5, "on_success": [{"do": "set_flag", "flag": "ready", "value": true}], "success_probability": 1.0}
        ]),
        json!({"id": "s", "launch_probability": 1.0, "max_active": 1, "min_wait": 100}),
    );
    let mut w = story_world(&p, 1);
    let l = launches(&p, &mut w, 0..10);
    assert_eq!(
        l,
        [(0, "long".to_string()), (3, "tutorial".to_string())],
        "the tutorial launches past max_active and min_wait; `gated` waits for its flag"
    );
    // Once the flag is set, the mandatory event launches at the next check.
    let slot = p.flags.get("ready").expect("flag");
    w.flags[slot as usize] = true;
    let l = launches(&p, &mut w, 10..11);
    assert_eq!(l, [(10, "gated".to_string())]);
}

#[test]
fn outcomes_follow_success_probability_and_close_branches() {
    let p = program(
        json!([
            {"id": "a", "success_probability": 0.0, "duration_days": [2, 2]},
            {"id": "yes", "after": [{"event": "a", "outcome": "success"}]},
            {"id": "no", "after": [{"event": "a", "outcome": "failure"}]}
        ]),
        json!({"id": "s", "launch_probability": 1.0}),
    );
    let mut w = story_world(&p, 1);
    let l = launches(&p, &mut w, 0..5);
    assert_eq!(l, [(0, "a".to_string()), (2, "no".to_string())]);
    let st = w.story.as_ref().expect("story");
    assert_eq!(st.tracker.state(0), NodeState::Done(false));
    assert_eq!(st.tracker.state(1), NodeState::Dead);
}

// ---------------------------------------------------------------------------------------------
// The world loop
// ---------------------------------------------------------------------------------------------

const WORLD_STORY: &str = r#"{"format": "townsfolk-pack", "version": 1, "name": "w",
 "world": {"scenario": "s"},
 "events": [
  {"id": "a", "mandatory": true, "success_probability": 1.0,
   "on_success": [{"do": "start_event", "event": "b"}, {"do": "set_flag", "flag": "a_done", "value": true}]},
  {"id": "b", "after": [{"event": "a", "outcome": "success"}], "ended_by": "world",
   "on_failure": [{"do": "set_counter", "counter": "x", "value": 7}]},
  {"id": "c", "mandatory": true, "not_before": 3, "success_probability": 1.0,
   "on_success": [{"do": "end_event", "event": "b", "outcome": "failure"}]}
 ],
 "scenarios": [{"id": "s", "ticks_per_day": 2, "launch_probability": 0.0}]}"#;

#[test]
fn the_world_runs_the_story_and_responses_start_and_end_events() {
    let l = load_str(WORLD_STORY);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let pack = l.pack.expect("pack");
    let mut s = Session::from_pack(&pack, 5).expect("session");
    s.set_tracing(true);
    s.run(12);
    let lines: Vec<String> = s
        .trace()
        .iter()
        .filter(|e| !matches!(e, TraceEvent::Flag { .. } | TraceEvent::Counter { .. }))
        .map(|e| {
            let v = crate::trace::trace_value(s.program(), e);
            format!(
                "{} {} {} {}",
                v["day"],
                v["kind"].as_str().unwrap_or(""),
                v["event"].as_str().unwrap_or(""),
                v["outcome"].as_str().unwrap_or("")
            )
            .trim()
            .to_string()
        })
        .collect();
    assert_eq!(
        lines,
        [
            "0 event_open a",
            "0 event_launch a",
            "1 event_end a success",
            "1 event_open b",
            "1 event_launch b",
            "3 event_open c",
            "3 event_launch c",
            "4 event_end c success",
            "4 event_end b failure",
        ]
    );
    let p = s.program().clone();
    let w = s.world();
    assert!(w.flags[p.flags.get("a_done").expect("flag") as usize]);
    assert_eq!(
        w.counters[p.counters.get("x").expect("counter") as usize],
        7
    );
    // Day = tick / 2: day 0 is checked on tick 1, day 1 on tick 2, day 4 on tick 8.
    assert!(
        s.trace()
            .iter()
            .any(|e| matches!(e, TraceEvent::EventEnd { tick: 2, .. }))
    );
    // Deterministic, and the story is part of the hash.
    let mut s2 = Session::from_pack(&pack, 5).expect("session");
    s2.run(12);
    assert_eq!(s.hash(), s2.hash());
    let mut s3 = Session::from_pack(&pack, 5).expect("session");
    s3.run(11);
    let before = s3.hash();
    let mut w3 = s3.world().clone();
    w3.story.as_mut().expect("story").last_launch = Some(99);
    assert_ne!(before, crate::world::hash::world_hash(&w3));
}

#[test]
fn event_breakpoints_see_story_events() {
    let l = load_str(WORLD_STORY);
    let pack = l.pack.expect("pack");
    let session = Session::from_pack(&pack, 5).expect("session");
    let mut dbg = crate::debug::Debugger::new(session, crate::debug::SnapshotConfig::default());
    let r = crate::tools::debug::handle_line(
        &mut dbg,
        r#"{"cmd":"break","on":"event","kind":"event_end","filter":{"outcome":"failure"}}"#,
    )
    .expect("reply");
    assert_eq!(r["ok"], true, "{r}");
    let r = crate::tools::debug::handle_line(&mut dbg, r#"{"cmd":"continue","ticks":100}"#)
        .expect("reply");
    assert_eq!(r["tick"], 8, "{r}");
}

// ---------------------------------------------------------------------------------------------
// Replay
// ---------------------------------------------------------------------------------------------

#[test]
fn replay_is_deterministic_whatever_the_threads() {
    let text = include_str!("../../../../samples/chronicle.json");
    let pack = load_str(text).pack.expect("pack");
    let p = Arc::new(Program::build(&pack).0);
    let s = p.events.scenario("early_reign").expect("scenario");
    let none = |_: u32, _: u32| {};
    let a = crate::tools::replay::replay(&p, s, 200, 9, 1, &none).expect("report");
    let b = crate::tools::replay::replay(&p, s, 200, 9, 3, &none).expect("report");
    assert_eq!(a, b);
    assert!(a.distinct_orders > 1, "{}", a.to_text());
    let c = crate::tools::replay::replay(&p, s, 200, 10, 2, &none).expect("report");
    assert_ne!(a.top_orders, c.top_orders);
    // The mandatory tutorials run in every playthrough.
    for id in ["tut_court", "tut_treasury"] {
        let e = a.events.iter().find(|e| e.id == id).expect("event");
        assert_eq!(e.launched, 200, "{id}");
    }
}

/// Issue 14 item 5: the compiled scenario numbers its events in date order (the tracker's
/// nodes due together lie together in memory), whatever order the pack lists them in;
/// choices among events still go by the scenario's order.
#[test]
fn scenario_events_are_numbered_in_date_order() {
    let events = json!([
        {"id": "late", "ended_by": "world", "not_before": 30, "not_after": 40},
        {"id": "early", "ended_by": "world", "not_before": 0, "not_after": 20},
        {"id": "mid_b", "ended_by": "world", "not_before": 0, "not_after": 25},
        {"id": "mid_a", "ended_by": "world", "not_before": 0, "not_after": 25},
        {"id": "after_late", "ended_by": "world", "not_before": 1,
         "after": [{"event": "late", "outcome": "success"}]}
    ]);
    let text = pack_text(
        events,
        json!([{"id": "s", "start_day": 0, "events": ["mid_b", "late", "early", "after_late", "mid_a"]}]),
        json!({}),
    );
    let l = load_str(&text);
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    let p = Arc::new(Program::build(&l.pack.expect("pack")).0);
    let s = &p.events.scenarios[0];
    let ids: Vec<&str> = s
        .nodes
        .iter()
        .map(|&i| p.events.events[i as usize].id.as_str())
        .collect();
    assert_eq!(ids, ["early", "mid_b", "mid_a", "after_late", "late"]);
    let starts: Vec<i64> = (0..ids.len() as u32)
        .map(|k| s.graph.not_before(k))
        .collect();
    assert!(starts.is_sorted(), "{starts:?}");
    // The rank is the scenario's order, and the edge follows the renumbering.
    let name = |k: u32| ids[k as usize];
    let by_rank: Vec<&str> = {
        let mut k: Vec<u32> = (0..ids.len() as u32).collect();
        k.sort_by_key(|&k| s.rank[k as usize]);
        k.into_iter().map(name).collect()
    };
    assert_eq!(by_rank, ["mid_b", "late", "early", "after_late", "mid_a"]);
    let late = s.local[p.events.event("late").expect("late") as usize];
    let edges: Vec<(&str, bool)> = s
        .graph
        .out_edges(late)
        .map(|(t, ok)| (name(t), ok))
        .collect();
    assert_eq!(edges, [("after_late", true)]);
    // Available events come in the scenario's order.
    let mut w = story_world(&p, 1);
    let mut trace = Vec::new();
    let mut out = Out {
        trace: Some(&mut trace),
        probe: None,
        counts: None,
        stop: false,
    };
    exec::advance_to(&p, &mut w, 0, &mut out);
    let avail: Vec<&str> = crate::world::story::available(&p, &w)
        .into_iter()
        .map(name)
        .collect();
    assert_eq!(avail, ["mid_b", "early", "mid_a"]);
}
