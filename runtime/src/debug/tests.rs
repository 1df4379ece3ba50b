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
    s.world().npcs[i].blackboard[slot]
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
    let mut d = Debugger::new(
        sample_session(7),
        SnapshotConfig {
            interval: 64,
            max_bytes: 1 << 30,
        },
    );
    let mut hashes = vec![d.hash()];
    for _ in 0..2000 {
        d.step_tick();
        hashes.push(d.hash());
    }
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
            Some(Err("unknown field `npcs` (known: `cmd`, `npc`)")),
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
            Some(Err("non-negative integer, found -1")),
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
