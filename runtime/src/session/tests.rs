//! Determinism and clock of the world loop, on the bundled sample.

use super::Session;
use crate::program::load_str;

fn sample(seed: u64) -> Session {
    let l = load_str(include_str!("../../../samples/guards.json"));
    Session::from_pack(&l.pack.expect("sample"), seed).expect("session")
}

#[test]
fn same_seed_same_world_different_seed_different_world() {
    let mut a = sample(3);
    let mut b = sample(3);
    for _ in 0..1500 {
        a.step();
        b.step();
        assert_eq!(a.hash(), b.hash(), "diverged at tick {}", a.tick());
    }
    let hashes: std::collections::HashSet<u64> = (0..4)
        .map(|seed| {
            let mut s = sample(seed);
            s.run(1500);
            s.hash()
        })
        .collect();
    assert!(
        hashes.len() > 1,
        "random selectors and chance nodes depend on the seed"
    );
}

#[test]
fn a_cloned_world_is_a_complete_snapshot() {
    let mut s = sample(9);
    s.run(300);
    let snapshot = s.clone();
    s.run(500);
    let mut replay = snapshot;
    replay.run(500);
    assert_eq!(replay.hash(), s.hash());
    assert_ne!(replay.hash(), sample(9).hash());
}

#[test]
fn clock_advances_with_time_scale() {
    let mut s = sample(0);
    // Starts day 1 at 21:30; 0.1 s ticks at 60x: 600 ticks = 1 game hour.
    assert_eq!(s.world().day, 1);
    assert!((s.world().hour - 21.5).abs() < 1e-9);
    s.run(1800);
    assert_eq!(s.world().day, 2);
    assert!((s.world().hour - 0.5).abs() < 1e-6, "{}", s.world().hour);
}

#[test]
fn tracing_does_not_change_the_simulation() {
    let mut a = sample(5);
    let mut b = sample(5);
    b.set_tracing(true);
    a.run(800);
    b.run(800);
    assert_eq!(a.hash(), b.hash());
    assert!(!b.trace().is_empty());
}

#[test]
fn responses_change_flags_counters_and_send_messages() {
    use crate::pack::Response;
    use crate::systems::effects::apply;
    use crate::trace::Out;
    let pack = load_str(include_str!("../../../samples/guards.json"))
        .pack
        .expect("sample");
    let responses = [
        Response::SetFlag {
            flag: "door_open".into(),
            value: true,
        },
        Response::ToggleFlag {
            flag: "alarm".into(),
        },
        Response::SetCounter {
            counter: "keys".into(),
            value: 3,
        },
        Response::AddCounter {
            counter: "keys".into(),
            by: -1,
        },
        Response::CopyCounter {
            from: "keys".into(),
            to: "thefts".into(),
        },
        Response::SendMessage {
            to: "guard_1".into(),
            inbox: "orders".into(),
            message: "thief".into(),
        },
        Response::ShowText {
            text: "The door opens".into(),
            seconds: 1.0,
        },
        Response::PlaySound {
            cue: "creak".into(),
        },
        Response::Log {
            text: "done".into(),
        },
        Response::SendMessage {
            to: "nobody".into(),
            inbox: "default".into(),
            message: "x".into(),
        },
    ];
    let (program, compiled, diags) = crate::program::build_with_responses(&pack, &responses);
    // The responses' own diagnostics (the sample itself carries warnings of its own).
    let diags: Vec<_> = diags
        .into_iter()
        .filter(|d| d.path.starts_with("responses"))
        .collect();
    assert_eq!(compiled.len(), responses.len() - 1);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].path, "responses[9].to");
    let program = std::sync::Arc::new(program);
    let mut s = Session::new(program.clone(), 1);
    let mut trace = Vec::new();
    let w = &mut s.world;
    let mut out = Out {
        trace: Some(&mut trace),
        probe: None,
        counts: None,
        stop: false,
    };
    for r in &compiled {
        apply(&program, w, crate::value::EntityId::None, r, &mut out);
    }
    let flag = |n: &str| w.flags[program.flags.get(n).expect("flag") as usize];
    let counter = |n: &str| w.counters[program.counters.get(n).expect("counter") as usize];
    assert!(flag("door_open"));
    assert!(flag("alarm"), "toggled from false");
    assert_eq!(counter("keys"), 2);
    assert_eq!(counter("thefts"), 2);
    assert_eq!(w.outbox.len(), 1);
    assert_eq!(w.texts.len(), 1);
    let kinds: Vec<String> = trace
        .iter()
        .map(|e| crate::trace::trace_value(&program, e)["kind"].to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "\"flag\"",
            "\"flag\"",
            "\"counter\"",
            "\"counter\"",
            "\"counter\"",
            "\"message\"",
            "\"show_text\"",
            "\"sound\"",
            "\"log\""
        ]
    );
    s.step();
    assert_eq!(
        s.world().npcs[0]
            .inboxes
            .iter()
            .map(|(_, q)| q.len())
            .sum::<usize>(),
        1
    );
}

/// The four runtimes cooperate through one response vocabulary: a trigger starts a story
/// event and places a dynamic smart area; the event's effect sets a flag an NPC tree reads.
#[test]
fn a_trigger_starts_a_story_event_and_creates_a_dynamic_area() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "together",
      "world": {"dt": 0.1, "scenario": "s",
        "npcs": [{"id": "hero", "pos": [50, 50], "tree": "idle"}]},
      "trees": [{"id": "idle", "root": {"id": "w", "type": "wait", "seconds": 1000}}],
      "areas": [{"id": "scene", "dynamic": true,
                 "shape": {"rect": {"min": [0, 0], "max": [10, 10]}}}],
      "events": [{"id": "murder", "title": "A murder", "not_before": 0, "not_after": 100,
                  "ended_by": "world",
                  "on_success": [{"do": "set_flag", "flag": "solved", "value": true}]}],
      "scenarios": [{"id": "s", "events": ["murder"], "launch_probability": 0,
                     "ticks_per_day": 10}],
      "triggers": [{"id": "story", "owner": "world", "triggers": [
        {"id": "crime", "single_shot": true,
         "when": {"type": "flag", "flag": "crime"},
         "responses": [
           {"do": "start_event", "event": "murder"},
           {"do": "create_area", "prototype": "scene", "at": [50, 50]}]},
        {"id": "clean", "single_shot": true,
         "when": {"type": "flag", "flag": "cleanup"},
         "responses": [{"do": "remove_area", "prototype": "scene"}]},
        {"id": "solve", "single_shot": true,
         "when": {"type": "flag", "flag": "caught"},
         "responses": [{"do": "end_event", "event": "murder", "outcome": "success"}]}]}]}"#;
    let l = load_str(text);
    let errors: Vec<_> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let mut s = Session::from_pack(&l.pack.expect("pack"), 1).expect("session");
    s.set_tracing(true);
    s.run(3);
    let kinds = |s: &Session| -> Vec<String> {
        s.trace()
            .iter()
            .map(|e| s.trace_json(e))
            .filter(|j| !j.contains(r#""kind":"status""#))
            .collect()
    };
    assert!(
        kinds(&s).iter().all(|j| !j.contains("event_launch")),
        "launch probability 0"
    );
    let crime = s.program().flags.get("crime").expect("flag") as usize;
    s.world_mut().flags[crime] = true;
    s.clear_trace();
    s.step();
    let k = kinds(&s);
    let pos = |needle: &str| {
        k.iter()
            .position(|j| j.contains(needle))
            .unwrap_or_else(|| panic!("no {needle} in {k:#?}"))
    };
    assert!(pos(r#""kind":"trigger""#) < pos(r#""kind":"event_launch""#));
    assert!(pos(r#""kind":"event_launch""#) < pos(r#""kind":"area_created""#));
    pos(r#""kind":"enter""#);
    let caught = s.program().flags.get("caught").expect("flag") as usize;
    s.world_mut().flags[caught] = true;
    s.clear_trace();
    s.step();
    let k = kinds(&s);
    assert!(
        k.iter()
            .any(|j| j.contains(r#""kind":"event_end""#) && j.contains("success"))
    );
    let solved = s.program().flags.get("solved").expect("flag") as usize;
    assert!(s.world().flags[solved], "the event's success effect ran");
    s.run(10);
    assert_eq!(s.world().dyn_areas.len(), 1, "no lifetime: the scene stays");
    let cleanup = s.program().flags.get("cleanup").expect("flag") as usize;
    s.world_mut().flags[cleanup] = true;
    s.clear_trace();
    s.step();
    let k = kinds(&s);
    assert!(
        k.iter().any(|j| j.contains(r#""kind":"area_removed""#)),
        "{k:#?}"
    );
    assert!(
        k.iter().any(|j| j.contains(r#""kind":"exit""#)),
        "the hero leaves it"
    );
    assert!(s.world().dyn_areas.is_empty());
}

/// SPEC §6: one tick runs clock, triggers, story, area brains, NPC trees, conversations,
/// movement, in that order. A flag a tree sets at tick t is seen by triggers at t + 1; what
/// a trigger's response sets at tick t is seen by the trees at t; an area entered by walking
/// at tick t (movement) fires its trigger at t + 1; an area brain's variable set at tick t is
/// read by the trees at t.
#[test]
fn tick_phases_run_in_the_spec_order() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "phases",
      "world": {"dt": 0.1, "bounds": {"min": [-10, -10], "max": [100, 100]},
        "flags": {"tree_set": false, "trigger_set": false, "tree_saw": false, "inside": false},
        "npcs": [{"id": "n", "pos": [0, 0], "speed": 10, "tree": "t"},
                 {"id": "walker", "pos": [0, 20], "speed": 10, "tree": "walk"}]},
      "trees": [
        {"id": "t", "root": {"id": "root", "type": "selector", "reactive": true, "children": [
          {"id": "saw", "type": "sequence", "children": [
            {"id": "c", "type": "condition", "expr": "flags.trigger_set"},
            {"id": "s1", "type": "set", "var": "flags.tree_saw", "value": "true"},
            {"id": "w", "type": "wait", "seconds": 1000}]},
          {"id": "s0", "type": "set", "var": "flags.tree_set", "value": "true"}]}},
        {"id": "walk", "root": {"id": "m", "type": "move_to", "target": {"point": [20, 20]}}},
        {"id": "brain", "root": {"id": "b", "type": "set", "var": "area.beat", "value": "area.beat + 1"}},
        {"id": "reader", "blackboard": {"beat": {"type": "int"}},
         "root": {"id": "r", "type": "set", "var": "beat", "value": "area.beat"}}],
      "areas": [
        {"id": "A", "shape": {"rect": {"min": [5, 15], "max": [10, 25]}}},
        {"id": "B", "shape": {"rect": {"min": [-5, -5], "max": [5, 5]}},
         "vars": {"beat": {"type": "int"}}, "brain": {"tree": "brain", "every_seconds": 0.1}}],
      "triggers": [{"id": "s", "triggers": [
        {"id": "on_tree", "when": {"type": "flag", "flag": "tree_set"},
         "responses": [{"do": "set_flag", "flag": "trigger_set", "value": true}]},
        {"id": "on_enter", "when": {"type": "in_area", "who": "walker", "area": "A"},
         "responses": [{"do": "set_flag", "flag": "inside", "value": true}]}]}]}"#;
    let l = load_str(text);
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    let mut pack = l.pack.expect("pack");
    // A third NPC, standing in B, reads the brain's variable into its blackboard.
    let mut reader = pack.world.npcs[0].clone();
    reader.id = "reader".into();
    reader.tree = "reader".into();
    pack.world.npcs.push(reader);
    let mut s = Session::from_pack(&pack, 1).expect("session");
    s.set_tracing(true);
    let mut seen = Vec::new();
    let mut beats = Vec::new();
    for _ in 0..8 {
        s.step();
        for e in s.trace() {
            let v = crate::trace::trace_value(s.program(), e);
            match v["kind"].as_str() {
                Some("flag") => seen.push(format!("{} flag {}", v["tick"], v["name"])),
                Some("trigger") => seen.push(format!("{} trigger {}", v["tick"], v["trigger"])),
                Some("enter") if v["npc"] == "walker" => {
                    seen.push(format!("{} enter {}", v["tick"], v["area"]))
                }
                _ => {}
            }
        }
        s.clear_trace();
        let slot = s.program().blackboard.get("beat").expect("beat") as usize;
        let area_slot = s.program().area_vars.get("beat").expect("beat") as usize;
        beats.push((
            s.world().minds.bb(2)[slot].as_i64(),
            s.world().area_vars[1][area_slot].as_i64(),
        ));
    }
    let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
    assert_eq!(
        seen,
        [
            "1 flag \"tree_set\"",
            "2 trigger \"s/on_tree\"",
            "2 flag \"trigger_set\"",
            "2 flag \"tree_saw\"",
            "5 enter \"A\"",
            "6 trigger \"s/on_enter\"",
            "6 flag \"inside\"",
        ]
    );
    // The brain runs before the trees: the reader sees this tick's beat.
    assert!(beats.iter().all(|&(read, beat)| read == beat), "{beats:?}");
    assert_eq!(beats[7].1, 8, "{beats:?}");
}

#[test]
fn a_timed_tick_is_the_same_tick_and_times_every_phase_that_works() {
    let mut plain = sample(5);
    let mut timed = sample(5);
    let mut times = super::PhaseTimes::default();
    for _ in 0..300 {
        plain.step();
        timed.step_timed(&mut times);
        assert_eq!(
            plain.hash(),
            timed.hash(),
            "diverged at tick {}",
            plain.tick()
        );
    }
    // guards has NPC trees and moving NPCs: those phases took time.
    for phase in [super::Phase::Trees, super::Phase::Movement] {
        assert!(
            times.of(phase) > std::time::Duration::ZERO,
            "{} not timed",
            phase.name()
        );
    }
}
