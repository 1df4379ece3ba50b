//! Tests of trigger systems: operators, laziness, latches, firing rules, every response,
//! the dungeon sample step by step, diagnostics and static checks.

use serde_json::{Value as J, json};

use crate::debug::explain::{Blocked, explain};
use crate::pack::Diagnostic;
use crate::program::load_str;
use crate::session::Session;
use crate::tools::triggers::{find_npc, state_line, step_line};

/// A pack with a hero (in a 100×100 world with areas A and C), the given extra world parts
/// and one world-owned system holding `triggers`.
fn pack_text(triggers: J, extra_objects: J) -> String {
    json!({
        "format": "townsfolk-pack", "version": 1, "name": "t",
        "world": {
            "flags": {"a": false, "b": false, "c": false},
            "objects": extra_objects,
            "npcs": [
                {"id": "hero", "pos": [50.0, 50.0], "tree": "idle", "items": ["torch"]},
                {"id": "ogre", "pos": [90.0, 90.0], "tree": "idle"},
                {"id": "rat", "pos": [10.0, 90.0], "tree": "idle", "health": 10.0, "prototype": true}
            ]
        },
        "trees": [{"id": "idle", "root": {"id": "w", "type": "wait", "seconds": 1000000.0}}],
        "areas": [
            {"id": "A", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}}},
            {"id": "C", "shape": {"rect": {"min": [20.0, 0.0], "max": [30.0, 10.0]}}}
        ],
        "triggers": [{"id": "s", "triggers": triggers}]
    })
    .to_string()
}

fn session_of(text: &str, seed: u64) -> Session {
    let l = load_str(text);
    let errors: Vec<&Diagnostic> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let mut s = Session::from_pack(&l.pack.expect("pack"), seed).expect("session");
    s.run_triggers();
    s
}

fn session(triggers: J) -> Session {
    session_of(&pack_text(triggers, json!([])), 1)
}

/// Applies a line; returns the ids of the triggers it fired.
fn run(s: &mut Session, line: J) -> Vec<String> {
    let v = step_line(s, &line.to_string()).unwrap_or_else(|e| panic!("{line}: {e}"));
    v["fired"]
        .as_array()
        .expect("fired")
        .iter()
        .map(|x| x.as_str().unwrap_or("").to_string())
        .collect()
}

fn value(s: &Session, id: &str) -> bool {
    let t = s.program().triggers.find(id).expect("trigger");
    explain(s.program(), s.world(), t).expect("explain").value
}

fn flag(name: &str) -> J {
    json!({"type": "flag", "flag": name})
}

fn trig(id: &str, when: J) -> J {
    json!({"id": id, "when": when, "responses": [{"do": "log", "text": id}]})
}

fn set(s: &mut Session, f: &str, v: bool) -> Vec<String> {
    run(s, json!({"set_flag": f, "value": v}))
}

#[test]
fn and_or_not_xor_over_flags() {
    let triggers = json!([
        trig("and", json!({"type": "and", "of": [flag("a"), flag("b")]})),
        trig("or", json!({"type": "or", "of": [flag("a"), flag("b")]})),
        trig("not", json!({"type": "not", "of": [flag("a")]})),
        trig(
            "xor3",
            json!({"type": "xor", "of": [flag("a"), flag("b"), flag("c")]})
        ),
    ]);
    let mut s = session(triggers.clone());
    // (a, b, c) -> and, or, not, xor3 (exactly one of three)
    let cases = [
        ((false, false, false), [false, false, true, false]),
        ((true, false, false), [false, true, false, true]),
        ((true, true, false), [true, true, false, false]),
        ((true, true, true), [true, true, false, false]),
        ((false, false, true), [false, false, true, true]),
        ((false, true, true), [false, true, true, false]),
    ];
    let ids = ["s/and", "s/or", "s/not", "s/xor3"];
    for ((a, b, c), want) in cases {
        set(&mut s, "a", a);
        set(&mut s, "b", b);
        set(&mut s, "c", c);
        let got = ids.map(|id| value(&s, id));
        assert_eq!(got, want, "a={a} b={b} c={c}");
    }
    // The firing path (not `explain`'s evaluator): from all false (where only `not` holds,
    // and has fired), the three flags change at once and one pass runs; exactly the
    // triggers that became true fire.
    for ((a, b, c), want) in cases {
        let mut s = session(triggers.clone());
        let slot = |s: &Session, f: &str| s.program().flags.get(f).expect("flag") as usize;
        for (f, v) in [("a", a), ("b", b), ("c", c)] {
            let i = slot(&s, f);
            s.world_mut().flags[i] = v;
        }
        s.set_tracing(true);
        s.clear_trace();
        s.run_triggers();
        let fired: Vec<String> = state_line(&s)["fired"]
            .as_array()
            .expect("fired")
            .iter()
            .map(|x| x.as_str().unwrap_or("").to_string())
            .collect();
        let became_true: Vec<&str> = ids
            .iter()
            .zip(want)
            .filter(|&(id, w)| w && *id != "s/not")
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(fired, became_true, "a={a} b={b} c={c}");
    }
}

#[test]
fn evaluation_is_lazy_left_to_right() {
    let mut s = session(json!([trig(
        "t",
        json!({"type": "and", "of": [flag("a"), {"type": "health", "who": "hero", "cmp": "gt", "percent": 0.0}]})
    )]));
    run(&mut s, json!({"advance": 1.0}));
    let t = s.program().triggers.find("s/t").expect("t");
    let e = explain(s.program(), s.world(), t).expect("explain");
    assert_eq!(
        e.nodes[1].evaluated_tick,
        Some(10),
        "left leaf evaluated every tick"
    );
    assert_eq!(
        e.nodes[2].evaluated_tick, None,
        "right leaf never evaluated"
    );
    assert!(e.nodes[2].value, "explain still shows its value");
    // OR stops at the first true operand.
    let mut s = session(json!([trig(
        "t",
        json!({"type": "or", "of": [flag("a"), {"type": "health", "who": "hero", "cmp": "gt", "percent": 0.0}]})
    )]));
    set(&mut s, "a", true);
    run(&mut s, json!({"advance": 1.0}));
    let t = s.program().triggers.find("s/t").expect("t");
    let e = explain(s.program(), s.world(), t).expect("explain");
    assert_eq!(e.nodes[1].evaluated_tick, Some(10));
    assert_eq!(
        e.nodes[2].evaluated_tick,
        Some(0),
        "only before `a` became true"
    );
}

#[test]
fn received_latches_until_its_reset_message_and_area_latch_resets_on_exit() {
    let mut s = session(json!([
        trig(
            "msg",
            json!({"type": "and", "of": [
            {"type": "received", "who": "hero", "message": "alarm", "until": "all_clear"}, flag("a")]})
        ),
        trig(
            "area",
            json!({"type": "in_area", "who": "hero", "area": "A"})
        ),
    ]));
    assert!(
        run(
            &mut s,
            json!({"event": "message", "to": "hero", "message": "alarm"})
        )
        .is_empty()
    );
    run(&mut s, json!({"advance": 2.0}));
    // Still latched two seconds later: setting a fires.
    assert_eq!(set(&mut s, "a", true), ["s/msg"]);
    set(&mut s, "a", false);
    run(
        &mut s,
        json!({"event": "message", "to": "hero", "message": "all_clear"}),
    );
    assert!(set(&mut s, "a", true).is_empty(), "reset by all_clear");
    assert_eq!(
        run(
            &mut s,
            json!({"event": "message", "to": "hero", "message": "alarm"})
        ),
        ["s/msg"]
    );
    // Area: latched while inside, reset on exit; fires again on re-entry.
    assert_eq!(
        run(&mut s, json!({"move": "hero", "to": [5.0, 5.0]})),
        ["s/area"]
    );
    run(&mut s, json!({"advance": 1.0}));
    assert!(value(&s, "s/area"));
    run(&mut s, json!({"move": "hero", "to": [50.0, 50.0]}));
    assert!(!value(&s, "s/area"));
    assert_eq!(
        run(&mut s, json!({"move": "hero", "to": [5.0, 5.0]})),
        ["s/area"]
    );
}

#[test]
fn fires_once_while_true_single_shot_and_reload_time() {
    let mut s = session(json!([
        trig("plain", flag("a")),
        {"id": "once", "single_shot": true, "when": flag("a"), "responses": [{"do": "log", "text": "x"}]},
        {"id": "reload", "reload_time": 1.0, "when": flag("b"), "responses": [{"do": "log", "text": "x"}]},
    ]));
    assert_eq!(set(&mut s, "a", true), ["s/plain", "s/once"]);
    assert!(
        run(&mut s, json!({"advance": 1.0})).is_empty(),
        "not again while true"
    );
    set(&mut s, "a", false);
    assert_eq!(set(&mut s, "a", true), ["s/plain"], "single shot spent");
    let t = s.program().triggers.find("s/once").expect("once");
    let e = explain(s.program(), s.world(), t).expect("x");
    assert!(
        matches!(e.blocked[0], Blocked::SingleShotSpent { .. }),
        "{:?}",
        e.blocked
    );
    // Reload: 1 s = 10 ticks at dt 0.1.
    let t0 = s.tick();
    assert_eq!(set(&mut s, "b", true), ["s/reload"]);
    set(&mut s, "b", false);
    assert!(set(&mut s, "b", true).is_empty(), "reloading");
    let t = s.program().triggers.find("s/reload").expect("reload");
    let e = explain(s.program(), s.world(), t).expect("x");
    assert_eq!(
        e.blocked,
        [Blocked::Reloading {
            ticks_left: 10,
            seconds_left: 1.0
        }]
    );
    // Fires at the exact tick the reload ends (went false, is true again).
    let mut fired_at = None;
    for _ in 0..12 {
        if !run(&mut s, json!({"advance": 0.1})).is_empty() {
            fired_at = Some(s.tick());
            break;
        }
    }
    assert_eq!(fired_at, Some(t0 + 10));
    // Stayed true through the reload: does not fire again.
    assert!(run(&mut s, json!({"advance": 2.0})).is_empty());
}

#[test]
fn random_one_response_is_seeded_and_weighted() {
    let picks = |seed: u64| -> Vec<[i64; 3]> {
        let text = pack_text(
            json!([{"id": "r", "pick": "random_one", "weights": [1.0, 0.0, 3.0], "when": flag("a"),
                    "responses": [{"do": "add_counter", "counter": "one", "by": 1},
                                  {"do": "add_counter", "counter": "never", "by": 1},
                                  {"do": "add_counter", "counter": "three", "by": 1}]}]),
            json!([]),
        );
        let mut s = session_of(&text, seed);
        let mut out = Vec::new();
        for _ in 0..60 {
            set(&mut s, "a", true);
            set(&mut s, "a", false);
            let c = |n: &str| s.world().counters[s.program().counters.get(n).expect("c") as usize];
            out.push([c("one"), c("never"), c("three")]);
        }
        out
    };
    let a = picks(7);
    assert_eq!(a, picks(7), "same seed, same picks");
    assert_ne!(a, picks(8), "another seed, other picks");
    let [one, never, three] = a[59];
    assert_eq!(one + never + three, 60, "exactly one response per firing");
    assert_eq!(never, 0, "weight 0 is never picked");
    assert!(three > 2 * one, "3:1 weights: {one} vs {three}");
}

#[test]
fn flags_and_counters_are_created_on_first_reference() {
    let s = session(json!([{"id": "t", "when": flag("brand_new"),
        "responses": [{"do": "set_flag", "flag": "also_new", "value": true},
                      {"do": "add_counter", "counter": "fresh", "by": 2}]}]));
    let p = s.program();
    for f in ["brand_new", "also_new"] {
        let slot = p.flags.get(f).expect("created") as usize;
        assert!(!s.world().flags[slot]);
    }
    assert_eq!(
        s.world().counters[p.counters.get("fresh").expect("c") as usize],
        0
    );
}

#[test]
fn every_response_kind_changes_the_world() {
    let objects = json!([{"id": "gate", "kind": "door", "pos": [60.0, 60.0], "locked": true},
                         {"id": "idol", "kind": "poi", "pos": [70.0, 70.0], "state": "whole"}]);
    let responses = json!([
        {"do": "set_flag", "flag": "f1", "value": true},
        {"do": "toggle_flag", "flag": "f2"},
        {"do": "set_counter", "counter": "n", "value": 5},
        {"do": "add_counter", "counter": "n", "by": -2},
        {"do": "copy_counter", "from": "n", "to": "m"},
        {"do": "send_message", "to": "ogre", "message": "hello"},
        {"do": "show_text", "text": "hi"},
        {"do": "play_sound", "cue": "boom"},
        {"do": "door", "object": "gate", "action": "open"},
        {"do": "door", "object": "gate", "action": "unlock"},
        {"do": "door", "object": "gate", "action": "open"},
        {"do": "set_object_state", "object": "idol", "state": "broken"},
        {"do": "spawn", "npc": "rat", "count": 3, "at": [40.0, 40.0], "spread": 1.0},
        {"do": "damage", "npc": "hero", "amount": 30.0},
        {"do": "heal", "npc": "hero", "amount": 10.0},
        {"do": "give_item", "npc": "hero", "item": "gem"},
        {"do": "kill", "npc": "ogre"},
        {"do": "remove", "npc": "rat"},
        {"do": "reset_trigger", "trigger": "other"},
        {"do": "complete_level"}
    ]);
    let text = pack_text(
        json!([
            {"id": "all", "single_shot": true, "when": flag("a"), "responses": responses},
            {"id": "other", "single_shot": true, "when": flag("b"), "responses": [{"do": "log", "text": "o"}]},
            {"id": "killed", "when": {"type": "killed", "victim": "ogre", "by": "any"}, "responses": [{"do": "log", "text": "k"}]},
            {"id": "died", "when": {"type": "died", "who": "ogre"}, "responses": [{"do": "log", "text": "d"}]},
            {"id": "msg", "when": {"type": "received", "who": "ogre", "message": "hello", "consume": true},
             "responses": [{"do": "log", "text": "m"}]}
        ]),
        objects,
    );
    let mut s = session_of(&text, 3);
    assert_eq!(set(&mut s, "b", true), ["s/other"]);
    // Directly (not through a script line, which clears the trace), to read the trace.
    let slot = s.program().flags.get("a").expect("a") as usize;
    s.world_mut().flags[slot] = true;
    s.set_tracing(true);
    s.clear_trace();
    s.run_triggers();
    let fired = crate::tools::triggers::state_line(&s)["fired"].clone();
    assert_eq!(
        fired,
        json!(["s/all", "s/other", "s/died"]),
        "reset re-armed `other`"
    );
    let p = s.program().clone();
    let w = s.world();
    let flag = |n: &str| w.flags[p.flags.get(n).expect("f") as usize];
    let counter = |n: &str| w.counters[p.counters.get(n).expect("c") as usize];
    assert!(flag("f1") && flag("f2"));
    assert_eq!((counter("n"), counter("m")), (3, 3));
    assert!(w.objects[0].open && !w.objects[0].locked);
    assert_eq!(p.sym(w.objects[1].state), "broken");
    let hero = find_npc(&p, w, "hero").expect("hero") as usize;
    assert_eq!(w.npcs[hero].health, 80.0);
    assert!(
        w.npcs[hero]
            .items
            .contains(&p.find_sym("gem").expect("gem"))
    );
    let ogre = find_npc(&p, w, "ogre").expect("ogre") as usize;
    assert_eq!(w.npcs[ogre].health, 0.0);
    assert_eq!(w.npcs.len(), 6, "three rats spawned");
    for k in 1..=3 {
        let r = find_npc(&p, w, &format!("rat#{k}")).expect("rat") as usize;
        assert!(w.npcs[r].removed, "rat#{k} removed");
        assert_eq!(w.npc_name(&p, r as u32), format!("rat#{k}"));
    }
    assert!(w.triggers.level_complete);
    let kinds: Vec<String> = s
        .trace()
        .iter()
        .map(|e| {
            crate::trace::trace_value_in(&p, Some(s.world()), e)["kind"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    for k in [
        "trigger",
        "flag",
        "counter",
        "door",
        "object_state",
        "spawn",
        "health",
        "died",
        "item",
        "remove",
        "level_complete",
        "show_text",
        "sound",
        "message",
    ] {
        assert!(kinds.iter().any(|x| x == k), "no {k} trace in {kinds:?}");
    }
    let spawn = s
        .trace()
        .iter()
        .find(|e| matches!(e, crate::trace::TraceEvent::Spawn { .. }))
        .expect("spawn");
    assert_eq!(
        crate::trace::trace_value_in(&p, Some(s.world()), spawn)["npc"],
        "rat#1"
    );
    // Messages are delivered at the end of a tick; triggers see them in the next tick's pass.
    assert!(run(&mut s, json!({"advance": 0.1})).is_empty());
    assert_eq!(run(&mut s, json!({"advance": 0.1})), ["s/msg"]);
    // `killed` needs a killer NPC (the world-owned trigger was nobody).
    assert!(!value(&s, "s/killed"));
    let mut s2 = session_of(&text, 3);
    assert_eq!(
        run(
            &mut s2,
            json!({"event": "died", "npc": "ogre", "by": "hero"})
        ),
        ["s/killed", "s/died"]
    );
}

#[test]
fn reset_loops_are_cut_at_run_time_and_warned_statically() {
    let text = pack_text(
        json!([
            {"id": "x", "when": flag("a"), "responses": [{"do": "reset_trigger", "trigger": "y"}]},
            {"id": "y", "when": flag("a"), "responses": [{"do": "reset_trigger", "trigger": "x"}]}
        ]),
        json!([]),
    );
    let l = load_str(&text);
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.message.contains("reset each other in a loop")),
        "{:#?}",
        l.diagnostics
    );
    let mut s = session_of(&text, 0);
    assert_eq!(set(&mut s, "a", true), ["s/x", "s/y"]);
    assert_eq!(s.problems().len(), 1, "{:?}", s.problems());
    assert!(s.problems()[0].contains("reset loop"));
}

#[test]
fn static_checks_find_contradictions_unwritten_flags_and_unreset_latches() {
    let text = pack_text(
        json!([
            trig(
                "never",
                json!({"type": "and", "of": [flag("a"), {"type": "not", "of": [flag("a")]}]})
            ),
            trig("ghost", flag("nobody_sets_this")),
            trig(
                "latch",
                json!({"type": "received", "who": "hero", "message": "m"})
            ),
        ]),
        json!([]),
    );
    let l = load_str(&text);
    let find = |path: &str, words: &str| {
        l.diagnostics
            .iter()
            .any(|d| d.path == path && d.message.contains(words) && !d.is_error())
    };
    assert!(
        find("triggers[0].triggers[0].when", "can never be true"),
        "{:#?}",
        l.diagnostics
    );
    assert!(find(
        "triggers[0].triggers[1].when.flag",
        "nothing in the pack sets it"
    ));
    assert!(find("triggers[0].triggers[2].when", "never reset"));
    assert!(!l.has_errors());
}

#[test]
fn malformed_trees_are_errors_with_paths() {
    let text = pack_text(
        json!([
            trig("empty", json!({"type": "and", "of": []})),
            trig(
                "unknown",
                json!({"type": "or", "of": [flag("a"), {"type": "in_aera", "who": "hero", "area": "A"}]})
            ),
            trig(
                "missing",
                json!({"type": "in_radius", "who": "hero", "at": [1.0, 1.0]})
            ),
            trig("not2", json!({"type": "not", "of": [flag("a"), flag("b")]})),
            trig(
                "wrong",
                json!({"type": "counter", "counter": "x", "cmp": "eq", "value": "three"})
            ),
            trig(
                "who",
                json!({"type": "in_area", "who": "nobody", "area": "A"})
            ),
        ]),
        json!([]),
    );
    let l = load_str(&text);
    let err = |path: &str, words: &str| {
        assert!(
            l.diagnostics.iter().any(|d| d.is_error()
                && d.path == path
                && d.message.contains(words)
                && d.line.is_some()),
            "no error at {path} with `{words}`: {:#?}",
            l.diagnostics
        )
    };
    err("triggers[0].triggers[0].when.of", "empty AND");
    err(
        "triggers[0].triggers[1].when.of[1].type",
        "did you mean `in_area`",
    );
    err("triggers[0].triggers[2].when", "missing parameter `radius`");
    err(
        "triggers[0].triggers[3].when.of",
        "NOT needs exactly one operand",
    );
    err("triggers[0].triggers[4].when.value", "an integer");
    err("triggers[0].triggers[5].when.who", "unknown NPC `nobody`");
}

#[test]
fn odd_inputs_never_panic() {
    // Each `when` is wrong: an error at the trigger's `when` (or under it), never a panic.
    // The responses are real, so no other diagnostic can stand in for the expected error.
    let odd = [
        json!(null),
        json!(1),
        json!("x"),
        json!([]),
        json!({}),
        json!({"type": 3}),
        json!({"type": "and", "of": "x"}),
        json!({"type": "and", "of": [null]}),
        json!({"type": "in_radius", "who": "any", "at": [1e300, 0], "radius": -1}),
        json!({"type": "var", "who": "hero", "expr": "((("}),
        json!({"type": "counter", "counter": "c", "cmp": "gt", "value": 1e40}),
        json!({"type": "counter", "counter": "c", "cmp": "sometimes", "value": 1}),
    ];
    let when_path = "triggers[0].triggers[0].when";
    for (i, when) in odd.iter().enumerate() {
        let text = pack_text(json!([trig("t", when.clone())]), json!([]));
        let l = load_str(&text);
        assert!(
            l.diagnostics
                .iter()
                .any(|d| d.is_error() && d.path.starts_with(when_path)),
            "case {i}: {when}: no error under `{when_path}`: {:#?}",
            l.diagnostics
        );
    }
    // `odd` takes no value: a value given anyway is ignored, with a warning naming it.
    let text = pack_text(
        json!([trig(
            "t",
            json!({"type": "counter", "counter": "c", "cmp": "odd", "value": 1e40})
        )]),
        json!([]),
    );
    let l = load_str(&text);
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    assert!(
        l.diagnostics.iter().any(|d| !d.is_error()
            && d.path.starts_with(when_path)
            && d.message.contains("`value`")),
        "{:#?}",
        l.diagnostics
    );
    // Bad script lines are refused with a reason, and change nothing.
    let mut s = session(json!([trig("t", flag("a"))]));
    let before = s.hash();
    for (line, words) in [
        ("", "invalid JSON"),
        ("[]", "a JSON object"),
        ("{}", "nothing to do"),
        ("{\"advance\": -1}", "`advance` must be a number of seconds"),
        ("{\"event\": \"enter\"}", "missing `npc` (a string)"),
        (
            "{\"event\": \"enter\", \"npc\": \"hero\", \"area\": \"A\", \"x\": 1}",
            "unknown field `x`",
        ),
        ("{\"move\": \"hero\", \"to\": [1]}", "`to` must be [x, y]"),
        ("{\"set_flag\": \"zzz\"}", "unknown flag `zzz`"),
        (
            "{\"give\": \"hero\", \"item\": \"unheard_of\"}",
            "item `unheard_of` is not mentioned",
        ),
        ("{\"reset\": \"nope\"}", "unknown trigger `nope`"),
    ] {
        match step_line(&mut s, line) {
            Err(e) => assert!(e.to_string().contains(words), "{line}: {e}"),
            Ok(v) => panic!("{line} accepted: {v}"),
        }
    }
    assert_eq!(s.hash(), before, "refused lines changed the world");
    // Extreme but well-formed lines are applied and leave the world in range.
    let hero = find_npc(s.program(), s.world(), "hero").expect("hero") as usize;
    step_line(&mut s, "{\"damage\": \"hero\", \"amount\": 1e308}").expect("damage");
    let health = s.world().npcs[hero].health;
    assert_eq!(health, 0.0, "health floors at 0");
    step_line(&mut s, "{\"move\": \"hero\", \"to\": [1e308, -1e308]}").expect("move");
    // Clamped into the 100 × 100 world.
    let at = s.world().pos[hero];
    assert_eq!((at.x, at.y), (100.0, 0.0));
}

// ---- the dungeon sample, step by step ----

fn dungeon(seed: u64) -> Session {
    session_of(include_str!("../../../../samples/dungeon.json"), seed)
}

#[test]
fn dungeon_doors_and_or_and_both() {
    let mut s = dungeon(0);
    assert!(run(&mut s, json!({"equip": "hero", "item": "ice_sword"})).is_empty());
    assert!(run(&mut s, json!({"equip": "hero", "item": "ice_shield"})).is_empty());
    assert_eq!(
        run(&mut s, json!({"equip": "hero", "item": "ice_armour"})),
        ["doors/ice_door"]
    );
    assert_eq!(
        run(&mut s, json!({"give": "hero", "item": "silver_key"})),
        ["doors/key_door", "doors/vault_door"]
    );
    let p = s.program().clone();
    for d in ["ice_door", "key_door", "vault_door"] {
        let Some(crate::value::EntityId::Object(o)) = p.entity(d) else {
            panic!("{d}")
        };
        assert!(s.world().objects[o as usize].open, "{d} open");
    }
    // The key door alone, with the skull key; the vault stays shut without the ice set.
    let mut s = dungeon(0);
    assert_eq!(
        run(&mut s, json!({"give": "hero", "item": "skull_key"})),
        ["doors/key_door"]
    );
    assert!(run(&mut s, json!({"equip": "hero", "item": "ice_sword"})).is_empty());
}

#[test]
fn dungeon_pillars_collapse_one_by_one() {
    let mut s = dungeon(0);
    let p = s.program().clone();
    let state = |s: &Session, id: &str| {
        let Some(crate::value::EntityId::Object(o)) = p.entity(id) else {
            panic!("{id}")
        };
        p.sym(s.world().objects[o as usize].state).to_string()
    };
    assert!(
        run(&mut s, json!({"move": "hero", "to": [48.8, 25.0]})).is_empty(),
        "1.2 m away"
    );
    assert_eq!(
        run(&mut s, json!({"move": "hero", "to": [49.2, 25.0]})),
        ["pillars/collapse@pillar_1"]
    );
    assert_eq!(state(&s, "pillar_1"), "collapsed");
    assert_eq!(state(&s, "pillar_3"), "standing");
    // The goblin walks to pillar 2 in the world (10 m at 1 m/s).
    let mut fired = Vec::new();
    for _ in 0..15 {
        fired.extend(run(&mut s, json!({"advance": 1.0})));
    }
    assert_eq!(fired, ["pillars/collapse@pillar_2"]);
    assert_eq!(state(&s, "pillar_3"), "standing");
}

#[test]
fn dungeon_rats_need_the_hero_near_and_healthy() {
    let mut s = dungeon(5);
    assert!(run(&mut s, json!({"health": "hero", "value": 40.0})).is_empty());
    assert!(
        run(&mut s, json!({"move": "hero", "to": [61.0, 10.0]})).is_empty(),
        "9 m, but hurt"
    );
    assert!(run(&mut s, json!({"advance": 1.0})).is_empty());
    assert_eq!(
        run(&mut s, json!({"health": "hero", "value": 60.0})),
        ["rats/swarm"]
    );
    let w = s.world();
    let p = s.program();
    let rats: Vec<String> = (0..w.npcs.len() as u32)
        .filter(|&i| w.npcs[i as usize].serial > 0 && !w.npcs[i as usize].removed)
        .map(|i| w.npc_name(p, i))
        .collect();
    assert_eq!(rats.len(), 10);
    assert_eq!(rats[9], "rat#10");
    // Rats run their tree (chase the hero) from the next tick; determinism holds.
    let mut a = s.clone();
    let mut b = s.clone();
    a.run(100);
    b.run(100);
    assert_eq!(a.hash(), b.hash());
    let rat = find_npc(a.program(), a.world(), "rat#1").expect("rat") as usize;
    let hero = find_npc(a.program(), a.world(), "hero").expect("hero") as usize;
    assert!(
        a.world().pos[rat].distance(a.world().pos[hero]) < 2.0,
        "rats chase the hero"
    );
    assert_ne!(dungeon(5).hash(), a.hash());
    // Far away (11 m) and healthy: nothing.
    let mut s = dungeon(5);
    assert!(run(&mut s, json!({"move": "hero", "to": [59.0, 10.0]})).is_empty());
}

#[test]
fn dungeon_clue_drops_on_the_eighth_alternation() {
    let mut s = dungeon(0);
    let enter =
        |s: &mut Session, a: &str| run(s, json!({"event": "enter", "npc": "hero", "area": a}));
    let exit =
        |s: &mut Session, a: &str| run(s, json!({"event": "exit", "npc": "hero", "area": a}));
    // Same area twice in a row counts once.
    assert_eq!(enter(&mut s, "A"), ["visited/visit_a"]);
    exit(&mut s, "A");
    assert!(enter(&mut s, "A").is_empty(), "A twice in a row");
    exit(&mut s, "A");
    let visited =
        |s: &Session| s.world().counters[s.program().counters.get("Visited").expect("v") as usize];
    assert_eq!(visited(&s), 1);
    let mut visits = 1;
    for (k, area) in ["C", "A", "C", "A", "C", "A", "C"].iter().enumerate() {
        let fired = enter(&mut s, area);
        visits += 1;
        let visit = format!("visited/visit_{}", area.to_lowercase());
        if visits < 8 {
            assert_eq!(fired, std::slice::from_ref(&visit), "visit {visits}");
        } else {
            assert_eq!(
                fired,
                [visit.clone(), "visited/clue".to_string()],
                "eighth visit"
            );
        }
        // Revisiting the same area before going to the other one changes nothing.
        exit(&mut s, area);
        if k % 3 == 0 {
            assert!(enter(&mut s, area).is_empty());
            exit(&mut s, area);
        }
    }
    assert_eq!(visited(&s), 8);
    let f = s.program().flags.get("clue_dropped").expect("flag") as usize;
    assert!(s.world().flags[f]);
    // With door D unlocked, no clue.
    let mut s = dungeon(0);
    run(&mut s, json!({"door": "door_d", "action": "unlock"}));
    for area in ["A", "C", "A", "C", "A", "C", "A", "C"] {
        assert!(!enter(&mut s, area).contains(&"visited/clue".to_string()));
        exit(&mut s, area);
    }
}

#[test]
fn events_reach_only_listening_triggers() {
    // 200 unrelated message triggers: an area event evaluates only the area trigger.
    let mut ts: Vec<J> = (0..200)
        .map(|i| trig(&format!("m{i}"), json!({"type": "received", "who": "hero", "message": format!("msg{i}"), "consume": true})))
        .collect();
    ts.push(trig(
        "area",
        json!({"type": "in_area", "who": "hero", "area": "A"}),
    ));
    let mut s = session(J::Array(ts));
    let before: Vec<Option<u64>> = (0..200)
        .map(|i| {
            let t = s.program().triggers.find(&format!("s/m{i}")).expect("t");
            explain(s.program(), s.world(), t).expect("x").nodes[0].evaluated_tick
        })
        .collect();
    run(&mut s, json!({"advance": 0.5}));
    assert_eq!(
        run(&mut s, json!({"move": "hero", "to": [5.0, 5.0]})),
        ["s/area"]
    );
    for (i, was) in before.iter().enumerate() {
        let t = s.program().triggers.find(&format!("s/m{i}")).expect("t");
        let e = explain(s.program(), s.world(), t).expect("x");
        assert_eq!(e.nodes[0].evaluated_tick, *was, "m{i} was evaluated");
    }
    assert_eq!(
        run(
            &mut s,
            json!({"event": "message", "to": "hero", "message": "msg7"})
        ),
        ["s/m7"]
    );
}

/// The occupant counts that let a reload's end start the area and radius conditions fresh
/// without a scan of every NPC (`world::triggers::recount`) are who is inside: NPCs entering
/// and leaving, during a reload and not, spawned copies (`who` a prototype), removals.
#[test]
fn occupant_counts_follow_every_entry_and_exit_through_reloads() {
    use crate::program::triggers::LeafKind;
    let mut s = session(json!([
        {"id": "any_a", "reload_time": 0.5, "when": {"type": "in_area", "who": "any", "area": "A"},
         "responses": [{"do": "spawn", "npc": "rat", "count": 2, "at": [5.0, 5.0], "spread": 1.0}]},
        {"id": "rats_a", "reload_time": 0.3, "when": {"type": "in_area", "who": "rat", "area": "A"},
         "responses": [{"do": "log", "text": "rats"}]},
        {"id": "near", "reload_time": 0.4,
         "when": {"type": "in_radius", "who": "any", "at": [25.0, 5.0], "radius": 3.0},
         "responses": [{"do": "remove", "npc": "rat"}]},
    ]));
    let check = |s: &Session, at: &str| {
        let (p, w) = (s.program(), s.world());
        let st = &w.triggers;
        for (l, leaf) in p.triggers.leaves.iter().enumerate() {
            match leaf.kind {
                LeafKind::InArea { who, area } => {
                    let scan = (0..w.npcs.len() as u32)
                        .filter(|&i| {
                            who.matches(w, i)
                                && w.npcs[i as usize].areas.binary_search(&area).is_ok()
                        })
                        .count();
                    assert_eq!(st.area_occupants[l] as usize, scan, "{at}: leaf {l}");
                }
                LeafKind::InSensor { sensor, .. } => {
                    let scan = st
                        .inside
                        .iter()
                        .filter(|v| v.binary_search(&sensor).is_ok())
                        .count();
                    assert_eq!(st.sensor_occupants[sensor as usize] as usize, scan, "{at}");
                }
                _ => {}
            }
        }
    };
    let mut fired = Vec::new();
    let spots = [
        [5.0, 5.0],
        [50.0, 50.0],
        [25.0, 5.0],
        [6.0, 4.0],
        [24.0, 6.0],
    ];
    for k in 0..40 {
        let who = if k % 3 == 0 { "ogre" } else { "hero" };
        let to = spots[(k * 7 + k / 3) % spots.len()];
        fired.extend(run(&mut s, json!({"move": who, "to": to})));
        check(&s, &format!("move {k}"));
        fired.extend(run(&mut s, json!({"advance": 0.1 * (k % 4) as f64})));
        check(&s, &format!("advance {k}"));
    }
    // The walk went through reloads of all three and spawned and removed rats.
    for id in ["s/any_a", "s/rats_a", "s/near"] {
        assert!(
            fired.iter().filter(|f| *f == id).count() >= 2,
            "{id}: {fired:?}"
        );
    }
    assert!(s.world().npcs.len() > 3, "rats were spawned");
}
