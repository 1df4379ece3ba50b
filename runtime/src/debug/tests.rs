//! Debugger tests: breakpoints hit where the plain simulation says, stepping order,
//! step-back determinism, and the line protocol.

use super::*;
use crate::pack::{BreakOn, BreakpointDef, NodeWhen};
use crate::program::load_str;
use crate::tools::debug as protocol;
use crate::value::Value;

fn sample_session(seed: u64) -> Session {
    let l = load_str(include_str!("../../../samples/guards.json"));
    Session::from_pack(&l.pack.expect("sample"), seed).expect("session")
}

fn debugger(seed: u64) -> Debugger {
    Debugger::new(sample_session(seed), SnapshotConfig::default())
}

/// Runs `ticks` ticks: the world's hash before them and after each.
fn step_ticks(d: &mut Debugger, ticks: usize) -> Vec<u64> {
    let mut hashes = vec![d.hash()];
    for _ in 0..ticks {
        d.step_tick();
        hashes.push(d.hash());
    }
    hashes
}

/// A debugger on the guards sample with a snapshot every `interval` ticks and room for all.
fn debugger_every(seed: u64, interval: u64) -> Debugger {
    debugger_of(sample_session(seed), interval)
}

/// A debugger on `session` with a snapshot every `interval` ticks and room for all.
fn debugger_of(session: Session, interval: u64) -> Debugger {
    Debugger::new(
        session,
        SnapshotConfig {
            interval,
            max_bytes: 1 << 30,
        },
    )
}

fn def(on: BreakOn) -> BreakpointDef {
    BreakpointDef {
        id: 0,
        enabled: true,
        on,
        npc: None,
        condition: None,
    }
}

fn bb(s: &Session, npc: &str, var: &str) -> Value {
    let p = s.program();
    let i = p.npc_index(npc).expect("npc") as usize;
    let slot = p.blackboard.get(var).expect("var") as usize;
    s.world().minds.bb(i)[slot]
}

#[test]
fn node_breakpoint_hits_at_the_first_enter_for_that_npc() {
    // The plain simulation: the first tick in which guard_2's `sleep` node runs.
    let mut s = sample_session(1);
    s.set_tracing(true);
    let mut first = None;
    while first.is_none() && s.tick() < 5000 {
        s.step();
        first = s
            .trace()
            .iter()
            .map(|e| s.trace_json(e))
            .find(|j| {
                j.contains(r#""npc":"guard_2""#) && j.contains(r#""node":"sleep","from":"idle""#)
            })
            .map(|_| s.tick());
        s.clear_trace();
    }
    let first = first.expect("guard_2 sleeps within 5000 ticks");

    let mut d = debugger(1);
    let mut bp = def(BreakOn::Node {
        tree: "guard".into(),
        node: "sleep".into(),
        when: NodeWhen::Enter,
    });
    bp.npc = Some("guard_2".into());
    let id = d.add_breakpoint(&bp).expect("valid");
    let Stop::Breakpoint(b) = d.continue_for(10_000) else {
        panic!("no hit");
    };
    assert_eq!(b.breakpoint, id);
    assert_eq!(b.tick, first);
    let at = b.at.expect("at a node");
    assert_eq!(d.program().npcs[at.npc as usize].id, "guard_2");
    assert_eq!(
        d.program().node_origin(at.tree, at.node as usize),
        ("guard", "sleep")
    );
    assert!(at.entered);
    assert!(
        b.reason.contains("sleep") && b.reason.contains("guard_2"),
        "{}",
        b.reason
    );
    assert_eq!(d.breakpoints()[0].hits, 1);
    // The node is being entered: it has not returned yet in this tick.
    let view = d.npc_view(at.npc).expect("npc");
    assert!(view.nodes.iter().any(|n| n.current && n.id == "sleep"));
}

#[test]
fn condition_breakpoint_hits_when_it_first_holds() {
    let mut s = sample_session(4);
    let mut first = None;
    while first.is_none() && s.tick() < 5000 {
        s.step();
        if bb(&s, "guard_2", "fatigue").as_f64() < 0.05 {
            first = Some(s.tick());
        }
    }
    let first = first.expect("guard_2 rests");
    // The next tick at which it becomes true again, after being false in between.
    let mut was_false = false;
    let mut again_at = None;
    while again_at.is_none() && s.tick() < first + 20_000 {
        s.step();
        let holds = bb(&s, "guard_2", "fatigue").as_f64() < 0.05;
        if !holds {
            was_false = true;
        } else if was_false {
            again_at = Some(s.tick());
        }
    }
    let again_at = again_at.expect("guard_2 rests a second time within 20,000 ticks");
    let mut d = debugger(4);
    let mut bp = def(BreakOn::Condition);
    bp.condition = Some("fatigue < 0.05".into());
    bp.npc = Some("guard_2".into());
    d.add_breakpoint(&bp).expect("valid");
    let Stop::Breakpoint(b) = d.continue_for(10_000) else {
        panic!("no hit");
    };
    assert_eq!(b.tick, first);
    assert!(bb(d.session(), "guard_2", "fatigue").as_f64() < 0.05);
    assert!(b.reason.contains("became true"), "{}", b.reason);
    // It hits again only after it was false in between: at the first such tick.
    let Stop::Breakpoint(again) = d.continue_for(20_000) else {
        panic!("no second hit (expected at tick {again_at})");
    };
    assert_eq!(again.tick, again_at);
    assert_eq!(d.breakpoints()[0].hits, 2);
}

#[test]
fn data_breakpoints_hit_when_the_value_changes() {
    // Counter: the first tick in which the thefts counter changes.
    let mut s = sample_session(2);
    let slot = s.program().counters.get("thefts").expect("counter") as usize;
    let mut first = None;
    while first.is_none() && s.tick() < 20_000 {
        s.step();
        if s.world().counters[slot] != 0 {
            first = Some(s.tick());
        }
    }
    let first = first.expect("a theft");
    let mut d = debugger(2);
    d.add_breakpoint(&def(BreakOn::Data {
        var: "counters.thefts".into(),
    }))
    .expect("valid");
    let Stop::Breakpoint(b) = d.continue_for(30_000) else {
        panic!("no hit");
    };
    assert_eq!(b.tick, first);
    assert!(
        b.reason.contains("counters.thefts changed to 1"),
        "{}",
        b.reason
    );

    // Blackboard variable of one NPC.
    let mut d = debugger(2);
    let mut bp = def(BreakOn::Data {
        var: "fatigue".into(),
    });
    bp.npc = Some("guard_2".into());
    d.add_breakpoint(&bp).expect("valid");
    let before = bb(d.session(), "guard_2", "fatigue");
    let Stop::Breakpoint(b) = d.continue_for(10_000) else {
        panic!("no hit");
    };
    assert_eq!(b.npc, d.npc_index("guard_2"));
    assert_ne!(bb(d.session(), "guard_2", "fatigue"), before);
}

#[test]
fn event_breakpoints_match_trace_kinds_and_fields() {
    let mut d = debugger(1);
    let mut filter = std::collections::BTreeMap::new();
    filter.insert("area".to_string(), "barracks".to_string());
    filter.insert("npc".to_string(), "guard_1".to_string());
    d.add_breakpoint(&def(BreakOn::Event {
        kind: "enter".into(),
        filter,
    }))
    .expect("valid");
    let Stop::Breakpoint(b) = d.continue_for(10_000) else {
        panic!("no hit");
    };
    assert!(b.reason.contains(r#""kind":"enter""#), "{}", b.reason);
    let view = d
        .npc_view(d.npc_index("guard_1").expect("npc"))
        .expect("view");
    assert_eq!(view.area.as_deref(), Some("barracks"));
}

#[test]
fn bad_breakpoints_are_refused_with_the_field_and_position() {
    let mut d = debugger(1);
    let e = d
        .add_breakpoint(&def(BreakOn::Node {
            tree: "guard".into(),
            node: "no_such".into(),
            when: NodeWhen::Enter,
        }))
        .expect_err("unknown node");
    assert_eq!(e.field, "node");
    let mut bp = def(BreakOn::Condition);
    bp.condition = Some("fatigue > && 1".into());
    let e = d.add_breakpoint(&bp).expect_err("parse error");
    assert_eq!((e.field, e.offset), ("condition", Some(10)));
    assert!(d.breakpoints().is_empty());
}

/// A one-NPC world whose tree shape makes stepping order easy to read.
fn stepping_debugger() -> Debugger {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "steps",
      "world": {"npcs": [{"id": "a", "pos": [0, 0], "tree": "t"}]},
      "trees": [
        {"id": "t", "root": {"id": "root", "type": "sequence", "children": [
          {"id": "first", "type": "subtree", "tree": "sub"},
          {"id": "second", "type": "log", "text": "2"},
          {"id": "third", "type": "wait", "seconds": 1}]}},
        {"id": "sub", "root": {"id": "sub_seq", "type": "sequence", "children": [
          {"id": "s1", "type": "log", "text": "s1"},
          {"id": "s2", "type": "log", "text": "s2"}]}}]}"#;
    let pack = load_str(text).pack.expect("pack");
    Debugger::new(
        Session::from_pack(&pack, 0).expect("session"),
        SnapshotConfig::default(),
    )
}

fn at(d: &Debugger) -> String {
    let c = d.current().expect("at a node");
    let (_, id) = d.program().node_origin(c.tree, c.node as usize);
    format!("{}{}", if c.entered { "" } else { "/" }, id)
}

#[test]
fn step_into_over_and_out_visit_nodes_in_order() {
    let mut d = stepping_debugger();
    let mut into = Vec::new();
    for _ in 0..8 {
        assert_eq!(d.step_node(StepKind::Into, None), Stop::Step);
        into.push(at(&d));
    }
    // Pre-order enters, subtree included; then the next tick starts at the root again and
    // resumes the running `third`.
    assert_eq!(
        into,
        [
            "root", "first", "sub_seq", "s1", "s2", "second", "third", "root"
        ]
    );

    let mut d = stepping_debugger();
    d.step_node(StepKind::Into, None); // root
    d.step_node(StepKind::Into, None); // first (the subtree reference)
    assert_eq!(d.step_node(StepKind::Over, None), Stop::Step);
    assert_eq!(at(&d), "second", "over skips the subtree's inside");
    assert_eq!(d.step_node(StepKind::Over, None), Stop::Step);
    assert_eq!(at(&d), "third");

    let mut d = stepping_debugger();
    for _ in 0..4 {
        d.step_node(StepKind::Into, None); // root, first, sub_seq, s1
    }
    assert_eq!(at(&d), "s1");
    assert_eq!(d.step_node(StepKind::Out, None), Stop::Step);
    assert_eq!(
        at(&d),
        "second",
        "out of sub_seq (and the subtree) to the next sibling above"
    );

    // And back, node by node, through the same places.
    assert_eq!(d.back_node(None), Stop::Step);
    assert_eq!(at(&d), "s2");
    assert_eq!(d.back_node(None), Stop::Step);
    assert_eq!(at(&d), "s1");
}

#[test]
fn back_then_forward_gives_the_same_hash_at_every_tick() {
    let mut d = debugger_every(7, 64);
    let hashes = step_ticks(&mut d, 2000);
    // Back one tick at a time, checking every tick…
    for t in (0..2000).rev() {
        d.back_tick();
        assert_eq!(d.tick(), t as u64);
        assert_eq!(d.hash(), hashes[t], "back to tick {t}");
    }
    // …then forward again.
    for (t, want) in hashes.iter().enumerate().skip(1) {
        d.step_tick();
        assert_eq!(d.hash(), *want, "forward to tick {t}");
    }
    // Jumps land on the same states too, and a paused mid-tick position resumes exactly.
    d.back_to_tick(777).expect("back");
    assert_eq!(d.hash(), hashes[777]);
    d.step_node(StepKind::Into, Some(2));
    assert!(d.event().is_some());
    d.step_tick();
    assert_eq!(d.hash(), hashes[778]);
    assert!(
        d.back_to_tick(5000).is_err(),
        "cannot go back to the future"
    );
}

#[test]
fn back_node_across_ticks_resumes_exactly_and_stays_put_when_there_is_none() {
    let mut d = debugger_every(3, 10);
    let hashes = step_ticks(&mut d, 25);
    // From the end of tick 25: the NPC's last visit in tick 25, whose start is re-simulated
    // from the snapshot of tick 20.
    let npc = 1;
    assert_eq!(d.back_node(Some(npc)), Stop::Step);
    assert!(d.event().is_some(), "paused inside the tick");
    assert_eq!(d.current().map(|at| at.npc), Some(npc));
    // Completing the tick from there gives tick 25's world again.
    d.step_tick();
    assert_eq!(d.tick(), 25);
    assert_eq!(d.hash(), hashes[25]);
    // An NPC that runs no node: no earlier visit, and the position does not change, at the
    // end of a tick or inside one.
    let nobody = Some(u32::MAX - 1);
    assert_eq!(d.back_node(nobody), Stop::NotFound);
    assert_eq!((d.tick(), d.event(), d.hash()), (25, None, hashes[25]));
    assert_eq!(d.back_node(Some(npc)), Stop::Step);
    let here = (d.tick(), d.event(), d.current());
    assert_eq!(d.back_node(nobody), Stop::NotFound);
    assert_eq!((d.tick(), d.event(), d.current()), here);
    d.step_tick();
    assert_eq!(d.hash(), hashes[25]);
}

/// A walker, and a victim that a trigger kills when the walker comes near (10, 5): the
/// victim's tree runs every tick until then, never after.
const KILLED: &str = r#"{
    "format": "townsfolk-pack", "version": 1, "name": "killed",
    "world": {"dt": 0.1, "npcs": [
        {"id": "walker", "pos": [0.0, 5.0], "tree": "walk", "speed": 5.0},
        {"id": "victim", "pos": [0.0, 20.0], "tree": "idle"}]},
    "trees": [
        {"id": "walk", "root": {"id": "m", "type": "move_to", "target": {"point": [50.0, 5.0]}}},
        {"id": "idle", "root": {"id": "w", "type": "wait", "seconds": 1000000.0}}],
    "triggers": [{"id": "s", "triggers": [{"id": "end", "single_shot": true,
        "when": {"type": "in_radius", "who": "walker", "at": [10.0, 5.0], "radius": 1.0},
        "responses": [{"do": "kill", "npc": "victim"}]}]}]
}"#;

/// Every node visit of one NPC in a plain traced run, as (tick, event number in the tick),
/// numbering every event the probe sees.
struct Visits {
    npc: u32,
    tick: u64,
    count: u64,
    seen: Vec<(u64, u64)>,
}

impl Probe for Visits {
    fn event(&mut self, ev: &DebugEvent<'_>, _env: Option<&dyn Env>) -> bool {
        self.count += 1;
        if matches!(*ev, DebugEvent::Enter { npc, .. } if npc == self.npc) {
            self.seen.push((self.tick, self.count));
        }
        false
    }
}

#[test]
fn back_node_finds_a_visit_many_ticks_and_snapshots_back() {
    let pack = pack_of(KILLED);
    let session = || Session::from_pack(&pack, 1).expect("session");
    let victim = session().program().npc_index("victim").expect("victim");
    // The plain run's last visit of the victim.
    let mut s = session();
    s.set_tracing(true);
    let mut visits = Visits {
        npc: victim,
        tick: 0,
        count: 0,
        seen: Vec::new(),
    };
    let mut hashes = vec![s.hash()];
    for t in 1..=60 {
        (visits.tick, visits.count) = (t, 0);
        s.step_probed(&mut visits);
        s.clear_trace();
        hashes.push(s.hash());
    }
    let &(u, k) = visits.seen.last().expect("the victim ran its tree");
    assert!(
        (10..40).contains(&u) && visits.seen.len() as u64 >= u,
        "killed after some snapshots, visited every tick until then: {:?}",
        visits.seen
    );
    // From tick 60, snapshots every 3 ticks: the search goes back over several stretches
    // and pauses at that visit.
    let mut d = debugger_of(session(), 3);
    d.run_ticks(60);
    assert_eq!(d.back_node(Some(victim)), Stop::Step);
    assert_eq!((d.tick(), d.event()), (u, Some(k)));
    assert_eq!(d.current().map(|at| at.npc), Some(victim));
    // The visit before it, in the tick before; that tick ends as the plain run's.
    assert_eq!(d.back_node(Some(victim)), Stop::Step);
    let &(u2, k2) = visits.seen.iter().rev().nth(1).expect("two visits");
    assert_eq!((d.tick(), d.event()), (u2, Some(k2)));
    d.step_tick();
    assert_eq!(d.hash(), hashes[u2 as usize]);
    // Forward to the last visit's tick: its end is the plain run's too.
    d.step_tick();
    assert_eq!(d.hash(), hashes[u as usize]);
}

#[test]
fn snapshots_respect_the_memory_cap() {
    let mut d = Debugger::new(
        sample_session(1),
        SnapshotConfig {
            interval: 10,
            max_bytes: 20_000,
        },
    );
    d.run_ticks(1000);
    let s = d.snapshot_stats();
    assert!(s.total_bytes <= s.max_bytes, "{s:?}");
    assert!(s.interval > 10, "thinned out: {s:?}");
    let h = d.hash();
    d.back_to_tick(3).expect("back");
    d.run_ticks(997);
    assert_eq!(d.hash(), h);
}

#[test]
fn protocol_survives_garbage_and_answers_every_line() {
    let mut d = debugger(1);
    // Each line, and what its reply must hold: `Err(words)` is `"ok": false` with an error
    // containing the words; `Ok((stopped, tick))` is `"ok": true` stopped there; `None` is no
    // reply at all.
    type Want = Option<Result<(&'static str, u64), &'static str>>;
    let lines: [(&str, Want); 31] = [
        ("", None),
        ("# a comment", None),
        ("garbage", Some(Err("not a JSON command"))),
        ("[1, 2]", Some(Err("a command is a JSON object"))),
        ("{}", Some(Err("missing `cmd`"))),
        // Issue 12 item 4: `cmd` of the wrong kind is named as such, not "missing".
        (
            "{\"cmd\": 5}",
            Some(Err("`cmd` must be a string naming a command")),
        ),
        // Unknown fields are an error naming them (they used to be ignored).
        (
            "{\"cmd\": \"inspect\", \"npcs\": \"ada\"}",
            Some(Err(
                "unknown field `npcs` (known: `cmd`, `npc`, `area`, `trigger`)",
            )),
        ),
        (
            "{\"cmd\": \"break\", \"on\": \"node\", \"tree\": \"patrol\", \"node\": \"x\", \"npcs\": 1}",
            Some(Err("unknown field `npcs`")),
        ),
        (
            "{\"cmd\": \"tick\", \"ticks\": 3}",
            Some(Err("unknown field `ticks`")),
        ),
        ("{\"cmd\": \"nope\"}", Some(Err("unknown command `nope`"))),
        ("{\"cmd\": \"break\"}", Some(Err("missing field `on`"))),
        (
            "{\"cmd\": \"break\", \"on\": \"node\", \"tree\": 3}",
            Some(Err("expected a string")),
        ),
        (
            "{\"cmd\": \"delete\", \"id\": \"x\"}",
            Some(Err("must be a breakpoint id")),
        ),
        (
            "{\"cmd\": \"delete\", \"id\": 99}",
            Some(Err("no breakpoint 99")),
        ),
        (
            "{\"cmd\": \"continue\", \"ticks\": -1}",
            Some(Err("whole number of ticks in [0, 1000000], found -1")),
        ),
        (
            "{\"cmd\": \"step\", \"kind\": \"sideways\"}",
            Some(Err(
                "`kind` must be a step kind: tick, node, into, over or out, found `sideways`",
            )),
        ),
        (
            "{\"cmd\": \"step\", \"npc\": \"nobody\"}",
            Some(Err("unknown NPC `nobody`")),
        ),
        (
            "{\"cmd\": \"back\", \"kind\": \"to_tick\"}",
            Some(Err("missing `tick`")),
        ),
        (
            "{\"cmd\": \"back\", \"kind\": \"to_tick\", \"tick\": 99999}",
            Some(Err("ahead of the last completed tick 0")),
        ),
        (
            "{\"cmd\": \"inspect\", \"npc\": 12}",
            Some(Err("must be an NPC id, found 12")),
        ),
        (
            "{\"cmd\": \"trace\", \"last\": \"many\"}",
            Some(Err("non-negative integer")),
        ),
        ("\u{0}\u{1}\u{ffff}", Some(Err("not a JSON command"))),
        (
            "{\"cmd\": \"run\", \"ticks\": 3}",
            Some(Ok(("tick_end", 3))),
        ),
        // One node back from the end of tick 3: the last node entered in tick 3.
        (
            "{\"cmd\": \"back\", \"kind\": \"node\"}",
            Some(Ok(("step", 3))),
        ),
        (
            "{\"cmd\": \"back\", \"kind\": \"tick\"}",
            Some(Ok(("tick_end", 2))),
        ),
        (
            "{\"cmd\": \"back\", \"kind\": \"tick\"}",
            Some(Ok(("tick_end", 1))),
        ),
        (
            "{\"cmd\": \"back\", \"kind\": \"tick\"}",
            Some(Ok(("tick_end", 0))),
        ),
        // Nothing before tick 0: it stays there.
        (
            "{\"cmd\": \"back\", \"kind\": \"tick\"}",
            Some(Ok(("tick_end", 0))),
        ),
        (
            "{\"cmd\": \"back\", \"kind\": \"node\"}",
            Some(Ok(("not_found", 0))),
        ),
        ("{\"cmd\": \"tick\"}", Some(Ok(("", 0)))),
        ("{\"cmd\": \"tick\"", Some(Err("not a JSON command"))),
    ];
    for (line, want) in lines {
        let r = protocol::handle_line(&mut d, line);
        match (want, r) {
            (None, None) => {}
            (Some(Err(words)), Some(r)) => {
                assert_eq!(r["ok"], false, "{line} -> {r}");
                let e = r["error"].as_str().unwrap_or("");
                assert!(e.contains(words), "{line} -> {r}: no `{words}`");
            }
            (Some(Ok((stopped, tick))), Some(r)) => {
                assert_eq!(r["ok"], true, "{line} -> {r}");
                if !stopped.is_empty() {
                    assert_eq!(r["stopped"], stopped, "{line} -> {r}");
                }
                assert_eq!(r["tick"], tick, "{line} -> {r}");
            }
            (want, r) => panic!("{line}: expected {want:?}, got {r:?}"),
        }
    }
    assert_eq!(d.tick(), 0);
}

#[test]
fn inspection_shows_adopted_behaviors_under_their_request_nodes() {
    let l = load_str(include_str!("../../../samples/daily_life.json"));
    let mut s = Session::from_pack(&l.pack.expect("sample"), 1).expect("session");
    // 07:10: Ada walked from home to work; the city's `work` behavior holds, inside it,
    // the smithy's.
    s.run(120);
    let ada = s.program().npc_index("ada").expect("ada");
    let nodes = live_nodes(s.program(), s.world(), ada, None);
    let grafts: Vec<(&str, u16, &str)> = nodes
        .iter()
        .filter_map(|n| n.graft.as_deref().map(|g| (g, n.depth, n.id.as_str())))
        .collect();
    assert_eq!(
        grafts,
        [
            ("adopted `work` from city", 3, "cw_seq"),
            ("adopted `work` from smithy", 5, "hammer"),
        ],
        "{nodes:#?}"
    );
    let ask = nodes
        .iter()
        .position(|n| n.id == "cycle4_work_7_ask")
        .expect("request");
    assert_eq!(
        nodes[ask + 1].id,
        "cw_seq",
        "the behavior sits right under its request node"
    );
    assert!(
        nodes
            .iter()
            .any(|n| n.id == "hammer" && n.status == Status::Running)
    );
}

// ---- issue 12 item 3: adopted behaviors, handlers, brains, triggers, `enter` vs `tick` ----

fn pack_of(text: &str) -> crate::pack::Pack {
    load_str(text).pack.expect("sample")
}

fn daily_life() -> Debugger {
    let pack = pack_of(include_str!("../../../samples/daily_life.json"));
    // Seed 4: one where Ed drinks in an open pub on the first evening (walls and doors
    // changed who picks which pub under seed 1).
    let mut d = Debugger::new(
        Session::from_pack(&pack, 4).expect("session"),
        SnapshotConfig::default(),
    );
    d.declare(&pack);
    d
}

fn node_bp(tree: &str, node: &str, when: NodeWhen, npc: Option<&str>) -> BreakpointDef {
    let mut bp = def(BreakOn::Node {
        tree: tree.into(),
        node: node.into(),
        when,
    });
    bp.npc = npc.map(Into::into);
    bp
}

fn here(d: &Debugger) -> (String, String, Actor, u16) {
    let c = d.current().expect("at a node");
    let (t, id) = d.program().node_origin(c.tree, c.node as usize);
    (t.to_string(), id.to_string(), c.actor, c.depth)
}

#[test]
fn step_over_a_request_node_does_not_stop_inside_its_adopted_behavior() {
    let mut d = daily_life();
    let ed = d.npc_index("ed").expect("ed");
    // Stand at ed's root while it holds `fun` from the city (and `drink` inside it).
    let ale = d
        .add_breakpoint(&node_bp("drink_ale", "ale", NodeWhen::Enter, Some("ed")))
        .expect("bp");
    assert!(matches!(d.continue_for(2000), Stop::Breakpoint(_)));
    d.delete_breakpoint(ale);
    d.add_breakpoint(&node_bp(
        "cycle4",
        "cycle4_root",
        NodeWhen::Tick,
        Some("ed"),
    ))
    .expect("bp");
    assert!(matches!(d.continue_for(10), Stop::Breakpoint(_)));
    let t = d.tick();
    assert_eq!(here(&d).1, "cycle4_root");
    assert_eq!(d.step_node(StepKind::Over, None), Stop::Step);
    let (tree, node, actor, depth) = here(&d);
    assert_eq!((tree.as_str(), node.as_str()), ("cycle4", "cycle4_root"));
    assert_eq!((actor, depth, d.tick()), (Actor::Npc(ed), 0, t + 1));
    // Over from the request node that holds `fun`: the next node at its depth or above,
    // never `city_fun/cf_seq` (depth 3 there) or the `ale` grafted inside it.
    d.step_node(StepKind::Into, None); // cycle4_flee
    let mut seen = Vec::new();
    for _ in 0..6 {
        d.step_node(StepKind::Over, None);
        seen.push(here(&d));
    }
    assert!(
        seen.iter()
            .all(|(t, _, a, dep)| t == "cycle4" && *a == Actor::Npc(ed) && *dep <= 1),
        "{seen:?}"
    );
}

#[test]
fn step_out_of_an_adopted_behavior_leaves_it() {
    let mut d = daily_life();
    let ed = d.npc_index("ed").expect("ed");
    d.add_breakpoint(&node_bp("drink_ale", "ale", NodeWhen::Enter, Some("ed")))
        .expect("bp");
    assert!(matches!(d.continue_for(2000), Stop::Breakpoint(_)));
    let (_, _, _, ale_depth) = here(&d);
    assert_eq!(
        ale_depth, 5,
        "grafted under cf_ask (4) under the request node (2)"
    );
    let mut depth = ale_depth;
    for _ in 0..3 {
        assert_eq!(d.step_node(StepKind::Out, None), Stop::Step);
        let (tree, node, actor, dep) = here(&d);
        assert_eq!(actor, Actor::Npc(ed));
        assert!(
            dep < depth || dep == 0,
            "out went from {depth} to {dep} ({tree}/{node})"
        );
        assert_ne!(tree, "drink_ale");
        depth = dep;
    }
}

#[test]
fn step_over_does_not_stop_in_a_handler_run_and_out_leaves_it() {
    let mut d = daily_life();
    let bo = d.npc_index("bo").expect("bo");
    let bp = d
        .add_breakpoint(&node_bp(
            "pub_enter",
            "pe_tell",
            NodeWhen::Enter,
            Some("bo"),
        ))
        .expect("bp");
    let Stop::Breakpoint(b) = d.continue_for(2000) else {
        panic!("no handler run for bo");
    };
    let t = b.tick;
    assert!(matches!(b.actor, Some(Actor::Handler { npc, .. }) if npc == bo));
    assert!(b.reason.contains("handler of pub_"), "{}", b.reason);
    // Out of the handler: bo's own tree, the same tick (trees run after the areas phase).
    assert_eq!(d.step_node(StepKind::Out, None), Stop::Step);
    let (tree, _, actor, _) = here(&d);
    assert_eq!(
        (tree.as_str(), actor, d.tick()),
        ("cycle4", Actor::Npc(bo), t)
    );
    // Over bo's root from the tick before: the handler run of tick t is inside.
    d.delete_breakpoint(bp);
    d.back_to_tick(t - 2).expect("back");
    d.step_node(StepKind::Into, Some(bo));
    assert_eq!(d.tick(), t - 1);
    assert_eq!(here(&d).2, Actor::Npc(bo), "no handler at t - 1");
    assert_eq!(d.step_node(StepKind::Over, None), Stop::Step);
    let (tree, node, actor, _) = here(&d);
    assert_eq!(
        (tree.as_str(), node.as_str(), actor, d.tick()),
        ("cycle4", "cycle4_root", Actor::Npc(bo), t)
    );
}

#[test]
fn enter_breakpoints_hit_when_the_node_starts_and_tick_ones_every_tick() {
    let mut d = debugger(1);
    d.add_breakpoint(&node_bp("guard", "sleep", NodeWhen::Enter, Some("guard_2")))
        .expect("bp");
    let Stop::Breakpoint(first) = d.continue_for(5000) else {
        panic!("no sleep");
    };
    // `sleep` goes on running for a while: the next start is much later.
    let Stop::Breakpoint(second) = d.continue_for(5000) else {
        panic!("no second sleep");
    };
    assert!(
        second.tick > first.tick + 1,
        "{} then {}",
        first.tick,
        second.tick
    );
    let mut d = debugger(1);
    d.add_breakpoint(&node_bp("guard", "sleep", NodeWhen::Tick, Some("guard_2")))
        .expect("bp");
    let Stop::Breakpoint(a) = d.continue_for(5000) else {
        panic!("no sleep");
    };
    let Stop::Breakpoint(b) = d.continue_for(5000) else {
        panic!("no sleep");
    };
    assert_eq!((a.tick, b.tick), (first.tick, first.tick + 1));
    assert!(b.reason.contains("ticked"), "{}", b.reason);
}

#[test]
fn brain_breakpoints_and_trace_events_name_their_area() {
    let mut d = daily_life();
    d.add_breakpoint(&node_bp("pub_brain", "pb_off", NodeWhen::Enter, None))
        .expect("bp");
    let Stop::Breakpoint(b) = d.continue_for(100) else {
        panic!("no brain tick");
    };
    let Some(Actor::Brain { area }) = b.actor else {
        panic!("{:?}", b.actor);
    };
    let name = crate::world::areas::area_name(d.program(), area);
    assert!(
        b.reason.ends_with(&format!("for area {name}")),
        "{}",
        b.reason
    );
    let r = protocol::handle_line(&mut d, r#"{"cmd": "why"}"#).expect("reply");
    assert_eq!(
        (r["area"].as_str(), r.get("npc")),
        (Some(name.as_str()), None)
    );
    // A step from a brain node stays in that brain.
    d.step_node(StepKind::Into, None);
    assert_eq!(here(&d).2, Actor::Brain { area });
    // The plain trace names the brain's area, not `"npc": ""`.
    d.run_ticks(5);
    let brain: Vec<String> = d
        .recent_trace(TRACE_RING)
        .into_iter()
        .map(|e| d.session().trace_json(e))
        .filter(|j| j.contains("pub_brain"))
        .collect();
    assert!(!brain.is_empty());
    for j in &brain {
        assert!(
            j.contains(r#""area":"pub_"#) && !j.contains(r#""npc":"#),
            "{j}"
        );
    }
}

#[test]
fn trigger_breakpoints_name_the_trigger_and_inspect_takes_areas_and_triggers() {
    let pack = pack_of(include_str!("../../../samples/dungeon.json"));
    let mut d = Debugger::new(
        Session::from_pack(&pack, 1).expect("session"),
        SnapshotConfig::default(),
    );
    d.add_breakpoint(&def(BreakOn::Event {
        kind: "trigger".into(),
        filter: Default::default(),
    }))
    .expect("bp");
    let Stop::Breakpoint(b) = d.continue_for(5000) else {
        panic!("no trigger fired");
    };
    let Some(Actor::Trigger { trigger }) = b.actor else {
        panic!("{:?}", b.actor);
    };
    let id = d.program().triggers.trigger_id(trigger).to_string();
    let r = protocol::handle_line(&mut d, r#"{"cmd": "why"}"#).expect("reply");
    assert_eq!(r["trigger"].as_str(), Some(id.as_str()), "{r}");
    assert_eq!(r.get("npc"), None, "{r}");
    let line = format!(r#"{{"cmd": "inspect", "trigger": "{id}"}}"#);
    let r = protocol::handle_line(&mut d, &line).expect("reply");
    assert_eq!(
        (r["ok"].as_bool(), r["trigger"].as_str()),
        (Some(true), Some(id.as_str()))
    );
    let r =
        protocol::handle_line(&mut d, r#"{"cmd": "inspect", "trigger": "nope"}"#).expect("reply");
    assert_eq!(r["ok"], false, "{r}");

    let mut d = daily_life();
    let r =
        protocol::handle_line(&mut d, r#"{"cmd": "inspect", "area": "pub_red"}"#).expect("reply");
    assert_eq!(
        (r["ok"].as_bool(), r["area"].as_str()),
        (Some(true), Some("pub_red")),
        "{r}"
    );
    assert!(r["brain"].is_array(), "{r}");
    let r =
        protocol::handle_line(&mut d, r#"{"cmd": "inspect", "area": "pub_rde"}"#).expect("reply");
    assert_eq!(
        r["ok"], false,
        "an unknown area is an error, not the world: {r}"
    );
    assert!(
        r["error"].as_str().is_some_and(|e| e.contains("pub_rde")),
        "{r}"
    );
}

#[test]
fn inspect_shows_the_npcs_own_variables_typed_and_grouped_by_tree() {
    let pack = pack_of(include_str!("../../../samples/guards.json"));
    let mut d = Debugger::new(
        Session::from_pack(&pack, 3).expect("session"),
        SnapshotConfig::default(),
    );
    d.declare(&pack);
    // fatigue grows by 0.1 steps: 0.1 + 0.2 is 0.30000000000000004 in an f64.
    let mut seen = false;
    for _ in 0..60 {
        d.run_ticks(50);
        let r = protocol::handle_line(&mut d, r#"{"cmd": "inspect", "npc": "guard_1"}"#)
            .expect("reply");
        let bb = r["blackboard"].as_object().expect("groups");
        assert_eq!(bb.keys().collect::<Vec<_>>(), ["guard"], "{r}");
        let vars = bb["guard"].as_object().expect("vars");
        assert_eq!(vars.keys().collect::<Vec<_>>(), ["boss", "fatigue"], "{r}");
        assert!(vars["boss"].is_string() || vars["boss"].is_null(), "{r}");
        let f = vars["fatigue"].as_f64().expect("a number, not a string");
        let shown = vars["fatigue"].to_string();
        assert!(shown.len() <= 4, "{shown}");
        seen |= (f - 0.3).abs() < 1e-9;
    }
    assert!(seen, "fatigue never reached 0.3");
    let mut d = daily_life();
    let r = protocol::handle_line(&mut d, r#"{"cmd": "inspect", "npc": "ada"}"#).expect("reply");
    assert!(r["blackboard"]["cycle4"]["rich"].is_boolean(), "{r}");
}

/// A step to the next visit of an NPC that died ends at the first tick's end after which it
/// can never run a node again, with the position kept there, not `MAX_STEP_TICKS` ticks later;
/// before that, steps find its visits as usual.
#[test]
fn stepping_into_a_dead_npc_ends_once_it_can_never_run_again() {
    let pack = pack_of(KILLED);
    let mut d = debugger_of(Session::from_pack(&pack, 1).expect("session"), 3);
    let victim = d.npc_index("victim").expect("victim");
    d.run_ticks(10);
    assert_eq!(d.step_node(StepKind::Into, Some(victim)), Stop::Step);
    assert_eq!((d.tick(), d.current().map(|at| at.npc)), (11, Some(victim)));
    // Stepping on: every visit up to its death, then the end.
    let mut steps = 0;
    while d.step_node(StepKind::Into, Some(victim)) == Stop::Step {
        steps += 1;
        assert!(steps < 100, "still stepping at tick {}", d.tick());
    }
    let end = d.tick();
    assert!((18..=20).contains(&end), "gave up at tick {end}");
    assert_eq!(d.event(), None, "between ticks");
    // And at once from there, without running a tick.
    assert_eq!(d.step_node(StepKind::Into, Some(victim)), Stop::NotFound);
    assert_eq!(d.tick(), end);
}
