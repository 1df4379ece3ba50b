//! Regression tests for the lifecycle of NPCs and their smart-area behaviors (issue 10, items
//! 1–6 and deliver 2): every world change — spawn, remove, kill — must reach every layer
//! (smart-area membership and handlers, behavior slots, conversations, trigger ownership,
//! the trace), and the request trace must say what the request did.
//!
//! Each test builds a small pack in JSON (modelled on `samples/daily_life.json`), runs it with
//! the trace on and asserts on the JSON form of the trace (what `townsfolk run --trace` prints).

use serde_json::{Value as J, json};
use townsfolk_runtime::Session;
use townsfolk_runtime::pack::load_str;

/// 10 ticks per second; one game second per real second; 8:00 on day 0.
fn pack(npcs: J, trees: J, areas: J, triggers: J, casts: J) -> J {
    json!({
        "format": "townsfolk-pack",
        "version": 1,
        "name": "lifecycle test",
        "world": {
            "bounds": {"min": [0.0, 0.0], "max": [40.0, 40.0]},
            "dt": 0.1,
            "clock": {"start_day": 0, "start_hour": 8.0, "time_scale": 1.0},
            "npcs": npcs
        },
        "trees": trees,
        "areas": areas,
        "triggers": triggers,
        "casts": casts
    })
}

/// Loads and compiles a pack; panics with the diagnostics when it has errors.
fn try_session(pack: &J) -> Result<Session, String> {
    let text = serde_json::to_string_pretty(pack).expect("json");
    let loaded = load_str(&text);
    let errors: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{d:?}"))
        .collect();
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let pack = loaded.pack.ok_or("no pack")?;
    Session::from_pack(&pack, 7).map_err(|d| format!("{d:?}"))
}

fn session(pack: &J) -> Session {
    try_session(pack).unwrap_or_else(|e| panic!("pack does not compile:\n{e}"))
}

/// Runs `ticks` ticks with the trace on; returns the whole trace as JSON values.
fn run(s: &mut Session, ticks: u64) -> Vec<J> {
    s.set_tracing(true);
    for _ in 0..ticks {
        s.step();
    }
    s.trace()
        .iter()
        .map(|e| serde_json::from_str(&s.trace_json(e)).expect("trace json"))
        .collect()
}

fn kind<'a>(trace: &'a [J], k: &str) -> impl Iterator<Item = &'a J> + 'a {
    let k = k.to_string();
    trace.iter().filter(move |e| e["kind"] == k.as_str())
}

fn about<'a>(trace: &'a [J], k: &str, npc: &str) -> Vec<&'a J> {
    kind(trace, k).filter(|e| e["npc"] == npc).collect()
}

fn tick(e: &J) -> u64 {
    e["tick"].as_u64().expect("tick")
}

/// A tree that waits (practically) forever.
fn idle(id: &str) -> J {
    json!({"id": id, "root": {"id": format!("{id}_wait"), "type": "wait", "seconds": 100000.0}})
}

/// A tree that logs a line (handlers).
fn say(id: &str, text: &str) -> J {
    json!({"id": id, "root": {"id": format!("{id}_log"), "type": "log", "text": text}})
}

/// The clock NPC's tree: sets flag `go` after `go` seconds and flag `late` after `late`.
fn clock_tree(go: f64, late: f64) -> J {
    json!({"id": "clock", "root": {"id": "clock_seq", "type": "sequence", "children": [
        {"id": "clock_w1", "type": "wait", "seconds": go},
        {"id": "clock_go", "type": "set", "var": "flags.go", "value": "true"},
        {"id": "clock_w2", "type": "wait", "seconds": late - go},
        {"id": "clock_late", "type": "set", "var": "flags.late", "value": "true"},
        {"id": "clock_w3", "type": "wait", "seconds": 100000.0}
    ]}})
}

fn clock_npc() -> J {
    json!({"id": "clock", "pos": [35.0, 35.0], "tree": "clock"})
}

/// A world trigger system: when flag `go` is set, run `responses`.
fn on_go(responses: J) -> J {
    json!([{"id": "s", "owner": "world", "triggers": [
        {"id": "go", "when": {"type": "flag", "flag": "go"}, "responses": responses}
    ]}])
}

/// A bar (0..10 × 0..10) offering `drink` to one NPC at a time, with OnExit/OnDrop handlers.
fn bar() -> J {
    json!([{"id": "bar", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
            "templates": [{"name": "drink", "tree": "drink", "max_instances": 1}],
            "handlers": {"on_exit": "bye", "on_drop": "dropped", "on_enter": "hello"}}])
}

fn bar_trees() -> Vec<J> {
    vec![
        json!({"id": "ask", "root": {"id": "ask_req", "type": "request"}}),
        idle("drink"),
        say("bye", "bye"),
        say("dropped", "dropped"),
        say("hello", "hello"),
        clock_tree(1.0, 2.0),
    ]
}

/// Two NPCs in the bar asking for its one drink: `a` gets it, `b` is refused (full); then a
/// response takes `a` away (`remove` or `kill`). `b` must get the drink once `a` is gone, and
/// `a` must drop it and leave the bar (OnDrop, OnExit).
fn slot_freed_by(response: &str) {
    let p = pack(
        json!([
            {"id": "a", "pos": [4.0, 5.0], "tree": "ask"},
            {"id": "b", "pos": [6.0, 5.0], "tree": "ask"},
            clock_npc()
        ]),
        J::Array(bar_trees()),
        bar(),
        on_go(json!([{"do": response, "npc": "a"}])),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 40);
    let gone = kind(&trace, if response == "kill" { "died" } else { "remove" })
        .find(|e| e["npc"] == "a")
        .map(tick)
        .unwrap_or_else(|| panic!("`{response}` never ran"));
    let adopted_a = about(&trace, "adopt", "a");
    assert_eq!(
        adopted_a.len(),
        1,
        "a adopts the drink first: {adopted_a:?}"
    );
    let refused_b = about(&trace, "request", "b")
        .into_iter()
        .any(|e| e["refused"].to_string().contains("full (1/1 instances)"));
    assert!(refused_b, "b is refused while a holds the only drink");

    let drops = about(&trace, "drop", "a");
    assert_eq!(
        drops.len(),
        1,
        "an NPC taken away by `{response}` drops its behavior (at tick {gone}); drops: {drops:?}"
    );
    assert_eq!(tick(drops[0]), gone);
    let exits: Vec<_> = about(&trace, "exit", "a");
    assert!(
        exits.iter().any(|e| e["area"] == "bar" && tick(e) == gone),
        "an NPC taken away by `{response}` leaves its areas (exit at tick {gone}); exits: {exits:?}"
    );
    let handlers: Vec<String> = about(&trace, "handler", "a")
        .iter()
        .filter(|e| e["phase"] == "start")
        .map(|e| e["handler"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(
        handlers.iter().any(|h| h == "on_drop") && handlers.iter().any(|h| h == "on_exit"),
        "OnDrop and OnExit run for an NPC taken away by `{response}`; handlers run for it: {handlers:?}"
    );
    let adopted_b: Vec<u64> = about(&trace, "adopt", "b").into_iter().map(tick).collect();
    assert!(
        adopted_b.iter().any(|&t| t >= gone && t <= gone + 1),
        "the slot a held is free again for b right after tick {gone}: b adopted at {adopted_b:?}"
    );
}

/// Item 1: `remove` frees the behavior slot and runs OnDrop/OnExit.
#[test]
fn removed_npc_drops_its_behavior_and_leaves_its_areas() {
    slot_freed_by("remove");
}

/// Item 3 (part): `kill` drops the dead NPC's behaviors the same way.
#[test]
fn killed_npc_drops_its_behavior_and_leaves_its_areas() {
    slot_freed_by("kill");
}

/// Item 2: an NPC spawned inside an area enters it (trace `enter`, OnEnter runs), as the
/// triggers already see it.
#[test]
fn spawned_npc_enters_the_area_it_appears_in() {
    let p = pack(
        json!([
            {"id": "rat", "pos": [30.0, 30.0], "tree": "idle", "prototype": true},
            clock_npc()
        ]),
        json!([idle("idle"), say("hello", "hello"), clock_tree(1.0, 2.0)]),
        json!([{"id": "nest", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
                "handlers": {"on_enter": "hello"}}]),
        json!([
            {"id": "s", "owner": "world", "triggers": [
                {"id": "go", "when": {"type": "flag", "flag": "go"},
                 "responses": [{"do": "spawn", "npc": "rat", "at": [5.0, 5.0]}]},
                {"id": "inside", "when": {"type": "in_area", "who": "any", "area": "nest"},
                 "responses": [{"do": "log", "text": "someone in the nest"}]}
            ]}
        ]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 30);
    let spawned = about(&trace, "spawn", "rat#1");
    assert_eq!(spawned.len(), 1, "the trigger spawns one rat");
    let at = tick(spawned[0]);
    let fired = kind(&trace, "trigger").any(|e| e["trigger"] == "s/inside");
    assert!(fired, "triggers see the spawned rat inside the nest");
    let enters = about(&trace, "enter", "rat#1");
    assert!(
        enters.iter().any(|e| e["area"] == "nest" && tick(e) == at),
        "a rat spawned inside the nest at tick {at} enters it then; enters: {enters:?}"
    );
    let on_enter = about(&trace, "handler", "rat#1")
        .into_iter()
        .any(|e| e["handler"] == "on_enter" && e["phase"] == "start");
    assert!(on_enter, "OnEnter runs for the spawned rat");
}

/// Item 2: NPCs placed inside an area get OnEnter at tick 0, with an `enter` trace line at
/// tick 0, like the triggers that count them inside from the start (the handler used to run
/// in tick 1, and no `enter` was traced).
#[test]
fn npcs_inside_an_area_at_start_get_on_enter() {
    let p = pack(
        json!([
            {"id": "ada", "pos": [5.0, 5.0], "tree": "idle"},
            {"id": "cy", "pos": [30.0, 30.0], "tree": "idle"}
        ]),
        json!([idle("idle"), say("hello", "hello")]),
        json!([{"id": "nest", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
                "handlers": {"on_enter": "hello"}}]),
        json!([]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 3);
    let ada: Vec<_> = about(&trace, "handler", "ada")
        .into_iter()
        .filter(|e| e["handler"] == "on_enter" && e["phase"] == "start")
        .collect();
    assert_eq!(
        ada.len(),
        1,
        "ada starts inside the nest: its OnEnter runs once, at tick 0; trace: {trace:?}"
    );
    assert_eq!(tick(ada[0]), 0);
    let hello: Vec<u64> = about(&trace, "log", "ada")
        .into_iter()
        .filter(|e| e["text"] == "hello")
        .map(tick)
        .collect();
    assert_eq!(hello, [0], "the OnEnter handler ran at tick 0");
    let entered: Vec<(u64, &J)> = about(&trace, "enter", "ada")
        .into_iter()
        .map(|e| (tick(e), &e["area"]))
        .collect();
    assert_eq!(entered, [(0, &json!("nest"))], "an `enter` line at tick 0");
    let first = trace.first().map(tick);
    assert_eq!(first, Some(0), "the trace starts with tick 0");
    assert!(
        about(&trace, "handler", "cy").is_empty(),
        "cy starts outside: no handler"
    );
}

/// Item 3: a killed NPC's tree is halted (no more actions, no movement) and stays halted.
#[test]
fn killed_npc_stops_its_tree_and_its_walk() {
    let p = pack(
        json!([
            {"id": "victim", "pos": [20.0, 20.0], "speed": 1.0, "tree": "busy"},
            clock_npc()
        ]),
        json!([
            {"id": "busy", "root": {"id": "busy_par", "type": "parallel", "children": [
                {"id": "busy_walk", "type": "move_to", "target": {"point": [20.0, 1.0]}},
                {"id": "busy_loop", "type": "repeat", "children": [
                    {"id": "busy_seq", "type": "sequence", "children": [
                        {"id": "busy_log", "type": "log", "text": "alive"},
                        {"id": "busy_wait", "type": "wait", "seconds": 0.3}
                    ]}
                ]}
            ]}},
            clock_tree(1.0, 2.0)
        ]),
        json!([]),
        on_go(json!([{"do": "kill", "npc": "victim"}])),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 20);
    let died = kind(&trace, "died")
        .find(|e| e["npc"] == "victim")
        .map(tick)
        .expect("the victim dies");
    let before = s.world().positions()[0];
    let trace = run(&mut s, 30);
    let after = s.world().positions()[0];
    let logs: Vec<u64> = about(&trace, "log", "victim")
        .into_iter()
        .map(tick)
        .filter(|&t| t > died)
        .collect();
    assert!(
        logs.is_empty(),
        "a dead NPC's tree runs no more (died at {died}); logs after: {logs:?}"
    );
    assert_eq!(
        (before.x, before.y),
        (after.x, after.y),
        "a dead NPC does not walk"
    );
    let statuses: Vec<&J> = about(&trace, "status", "victim")
        .into_iter()
        .filter(|e| tick(e) > died && e["to"] != "idle")
        .collect();
    assert!(
        statuses.is_empty(),
        "a dead NPC's nodes only go back to idle: {statuses:?}"
    );
}

/// Item 3: a dead NPC's trigger systems do not fire any more.
#[test]
fn dead_npc_owns_no_firing_triggers() {
    let p = pack(
        json!([
            {"id": "victim", "pos": [20.0, 20.0], "tree": "idle"},
            clock_npc()
        ]),
        json!([idle("idle"), clock_tree(1.0, 2.0)]),
        json!([]),
        json!([
            {"id": "s", "owner": "world", "triggers": [
                {"id": "go", "when": {"type": "flag", "flag": "go"},
                 "responses": [{"do": "kill", "npc": "victim"}]}
            ]},
            {"id": "mine", "owner": {"npc": "victim"}, "triggers": [
                {"id": "late", "when": {"type": "flag", "flag": "late"},
                 "responses": [{"do": "log", "text": "the dead speak"}]}
            ]}
        ]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 40);
    assert!(
        kind(&trace, "died").any(|e| e["npc"] == "victim"),
        "the victim dies"
    );
    let fired: Vec<&J> = kind(&trace, "trigger")
        .filter(|e| e["trigger"] == "mine/late")
        .collect();
    assert!(
        fired.is_empty(),
        "a trigger owned by a dead NPC does not fire: {fired:?}"
    );
    let t = s.program().triggers.find("mine/late").expect("trigger");
    let why =
        townsfolk_runtime::debug::explain::explain(s.program(), s.world(), t).expect("explain");
    let reasons = serde_json::to_value(&why.blocked).expect("json");
    assert_eq!(
        reasons,
        json!([{"reason": "owner_gone"}]),
        "explain says why it does not fire"
    );
}

/// Item 3: trees read `health` (the NPC's own) and `alive(entity)`.
#[test]
fn expressions_read_health_and_alive() {
    let watch = |id: &str, expr: &str, text: &str| {
        json!({"id": id, "root": {"id": format!("{id}_sel"), "type": "selector", "reactive": true,
        "children": [
            {"id": format!("{id}_seq"), "type": "sequence", "children": [
                {"id": format!("{id}_cond"), "type": "condition", "expr": expr},
                {"id": format!("{id}_log"), "type": "log", "text": text},
                {"id": format!("{id}_hold"), "type": "wait", "seconds": 100000.0}
            ]},
            {"id": format!("{id}_idle"), "type": "wait", "seconds": 100000.0}
        ]}})
    };
    let p = pack(
        json!([
            {"id": "victim", "pos": [20.0, 20.0], "tree": "hurt", "health": 100.0},
            {"id": "watcher", "pos": [22.0, 20.0], "tree": "mourn"},
            clock_npc()
        ]),
        json!([
            watch("hurt", "health < 50.0", "hurt"),
            watch("mourn", "!alive(entity(\"victim\"))", "mourn"),
            clock_tree(1.0, 2.0)
        ]),
        json!([]),
        json!([{"id": "s", "owner": "world", "triggers": [
            {"id": "go", "when": {"type": "flag", "flag": "go"},
             "responses": [{"do": "damage", "npc": "victim", "amount": 60.0}]},
            {"id": "late", "when": {"type": "flag", "flag": "late"},
             "responses": [{"do": "kill", "npc": "victim"}]}
        ]}]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 40);
    let hurt = kind(&trace, "health")
        .find(|e| e["npc"] == "victim")
        .map(tick)
        .expect("damaged");
    let died = kind(&trace, "died").map(tick).next().expect("killed");
    let logs =
        |npc: &str| -> Vec<u64> { about(&trace, "log", npc).into_iter().map(tick).collect() };
    assert_eq!(
        logs("victim"),
        [hurt],
        "`health < 50.0` turns true in the tick of the damage (triggers run before the trees)"
    );
    assert_eq!(
        logs("watcher"),
        [died],
        "`!alive(victim)` turns true in the tick of the kill"
    );
    // Types are checked.
    for (bad, says) in [
        ("alive(3)", "alive"),
        ("health && true", "health"),
        ("alive()", "alive"),
    ] {
        let p = pack(
            json!([{"id": "x", "pos": [1.0, 1.0], "tree": "t"}]),
            json!([watch("t", bad, "x")]),
            json!([]),
            json!([]),
            json!([]),
        );
        let err = try_session(&p).err().unwrap_or_default();
        assert!(
            err.contains(says),
            "`{bad}` is refused with a message about `{says}`: {err}"
        );
    }
}

/// A cast where everyone talks a lot (not position aware: no gathering walk).
fn chatty_cast(members: &[&str]) -> J {
    let m: Vec<J> = members
        .iter()
        .map(|n| {
            json!({"npc": n, "talkativeness": 1.0, "transparency": 1.0,
                        "confidence": 1.0, "interactivity": 1.0, "verbosity": 0.5})
        })
        .collect();
    json!([{"id": "c", "position_aware": false, "members": m}])
}

fn talk_after<'a>(trace: &'a [J], npc: &str, after: u64) -> Vec<&'a J> {
    trace
        .iter()
        .filter(|e| e["npc"] == npc && tick(e) > after)
        .filter(|e| {
            matches!(
                e["kind"].as_str(),
                Some("speak_start" | "pre_trp" | "trp" | "feedback" | "group_join")
            )
        })
        .collect()
}

/// Item 3: a killed NPC leaves its conversation. Killed at several moments, so that some
/// kills hit it while it is in a group.
#[test]
fn killed_npc_leaves_its_conversation() {
    let converse = json!({"id": "chat", "root": {"id": "chat_c", "type": "converse", "cast": "c"}});
    let mut in_group_at_death = 0;
    for k in 0..16 {
        let at = 15.0 + 0.7 * k as f64;
        let p = pack(
            json!([
                {"id": "p", "pos": [10.0, 10.0], "tree": "chat"},
                {"id": "q", "pos": [11.0, 10.0], "tree": "chat"},
                {"id": "r", "pos": [10.0, 11.0], "tree": "chat"},
                clock_npc()
            ]),
            json!([converse, clock_tree(at, at + 1.0)]),
            json!([]),
            on_go(json!([{"do": "kill", "npc": "p"}])),
            chatty_cast(&["p", "q", "r"]),
        );
        let mut s = session(&p);
        let trace = run(&mut s, 500);
        let died = kind(&trace, "died").map(tick).next().expect("p dies");
        assert!(
            about(&trace, "speak_start", "p")
                .iter()
                .any(|e| tick(e) < died),
            "p talks before it dies"
        );
        let after = talk_after(&trace, "p", died);
        assert!(
            after.is_empty(),
            "a dead NPC takes no part in conversations after tick {died}: {:?}",
            &after[..after.len().min(5)]
        );
        let last = trace
            .iter()
            .rev()
            .filter(|e| e["npc"] == "p" && tick(e) < died)
            .find(|e| e["kind"] == "group_join" || e["kind"] == "group_leave")
            .map(|e| e["kind"].clone());
        if last.as_ref().is_some_and(|k| k == "group_join") {
            in_group_at_death += 1;
            assert!(
                about(&trace, "group_leave", "p")
                    .iter()
                    .any(|e| tick(e) == died),
                "p was in a group when it died at {died}: it leaves it then"
            );
        }
    }
    assert!(in_group_at_death > 0, "no kill hit p inside a group");
}

/// Item 6: a `converse` inside an adopted behavior ends when the behavior is dropped.
#[test]
fn converse_in_a_dropped_behavior_is_released() {
    let p = pack(
        json!([
            {"id": "m", "pos": [8.0, 5.0], "speed": 0.3, "tree": "ask"},
            {"id": "n", "pos": [8.5, 5.0], "tree": "chat"},
            {"id": "o", "pos": [8.0, 5.5], "tree": "chat"}
        ]),
        json!([
            {"id": "ask", "root": {"id": "ask_req", "type": "request"}},
            {"id": "chat", "root": {"id": "chat_c", "type": "converse", "cast": "c"}},
            {"id": "chat_walk", "root": {"id": "cw_par", "type": "parallel", "children": [
                {"id": "cw_talk", "type": "converse", "cast": "c"},
                {"id": "cw_walk", "type": "move_to", "target": {"point": [30.0, 5.0]}}
            ]}}
        ]),
        json!([{"id": "square", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
                "templates": [{"name": "chat", "tree": "chat_walk"}]}]),
        json!([]),
        chatty_cast(&["m", "n", "o"]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 800);
    let dropped = about(&trace, "drop", "m");
    assert_eq!(
        dropped.len(),
        1,
        "m drops the behavior on leaving the square"
    );
    let at = tick(dropped[0]);
    assert!(
        about(&trace, "speak_start", "m")
            .iter()
            .any(|e| tick(e) <= at),
        "m talks while it walks out of the square"
    );
    let after = talk_after(&trace, "m", at);
    assert!(
        after.is_empty(),
        "m's conversation ended with its behavior at tick {at}: {} talk events after, first {:?}",
        after.len(),
        after.first()
    );
}

/// Item 4: a request that names behaviors lists as refused only templates it asked for.
#[test]
fn request_trace_lists_only_templates_asked_for() {
    let p = pack(
        json!([{"id": "a", "pos": [5.0, 5.0], "tree": "ask"}]),
        json!([
            {"id": "ask", "root": {"id": "ask_req", "type": "request",
                                   "prefer": [{"template": "b", "weight": 1.0},
                                              {"template": "c", "weight": 1.0}]}},
            idle("t")
        ]),
        json!([{"id": "bar", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
        "templates": [
            {"name": "a", "tree": "t", "enabled": false},
            {"name": "x", "tree": "t", "constraint": "false"},
            {"name": "b", "tree": "t", "enabled": false},
            {"name": "c", "tree": "t", "constraint": "false"}
        ]}]),
        json!([]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 1);
    let req = about(&trace, "request", "a");
    assert_eq!(req.len(), 1);
    let refused: Vec<String> = req[0]["refused"]
        .as_array()
        .expect("refused")
        .iter()
        .map(|r| r["template"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        refused,
        ["b", "c"],
        "only the preferred templates are listed as refused; request: {}",
        req[0]
    );
}

/// Item 5: an overridable behavior kept because the area offers nothing new is traced as
/// kept, not refused.
#[test]
fn kept_overridable_behavior_is_traced_as_kept() {
    let p = pack(
        json!([{"id": "a", "pos": [5.0, 5.0], "tree": "ask", "vars": {"done": false}}]),
        json!([
            {"id": "ask", "blackboard": {"done": {"type": "bool", "default": false}},
             "root": {"id": "ask_req", "type": "request"}},
            {"id": "once", "blackboard": {"done": {"type": "bool", "default": false}},
             "root": {"id": "once_seq", "type": "sequence", "children": [
                {"id": "once_set", "type": "set", "var": "done", "value": "true"},
                {"id": "once_wait", "type": "wait", "seconds": 0.2}
            ]}}
        ]),
        json!([{"id": "bar", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
                "templates": [{"name": "once", "tree": "once", "constraint": "!done",
                               "drop": {"on_success": "overridable"}}]}]),
        json!([]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 12);
    let results: Vec<String> = about(&trace, "request", "a")
        .iter()
        .map(|e| e["result"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        results.first().map(String::as_str),
        Some("adopted"),
        "{results:?}"
    );
    assert!(
        results.len() > 2,
        "the request asks again once the behavior succeeded: {results:?}"
    );
    assert!(
        results[1..].iter().all(|r| r == "kept"),
        "the kept overridable behavior is traced as kept: {results:?}"
    );
    assert!(
        about(&trace, "drop", "a").is_empty(),
        "nothing new applied: the behavior is kept, not dropped"
    );
}

/// Deliver 4: one position reader. A removed NPC is nowhere for every reader: a tree's
/// `distance` to it and a trigger's `near` condition agree (the tree's reader used to give its
/// last position, the trigger's none).
#[test]
fn removed_npc_is_nowhere_for_every_reader() {
    let p = pack(
        json!([
            {"id": "ghost", "pos": [20.0, 20.0], "tree": "idle"},
            {"id": "watcher", "pos": [22.0, 20.0], "tree": "watch"},
            clock_npc()
        ]),
        json!([
            idle("idle"),
            {"id": "watch", "root": {"id": "w_sel", "type": "selector", "reactive": true,
                "children": [
                    {"id": "w_seq", "type": "sequence", "reactive": true, "children": [
                        {"id": "w_cond", "type": "condition",
                         "expr": "distance(self, entity(\"ghost\")) < 100.0"},
                        {"id": "w_log", "type": "log", "text": "I see the ghost"},
                        {"id": "w_hold", "type": "wait", "seconds": 100000.0}
                    ]},
                    {"id": "w_lost", "type": "log", "text": "gone"}
                ]}},
            clock_tree(1.0, 2.0)
        ]),
        json!([]),
        json!([{"id": "s", "owner": "world", "triggers": [
            {"id": "go", "when": {"type": "flag", "flag": "go"},
             "responses": [{"do": "remove", "npc": "ghost"}]},
            {"id": "near", "when": {"type": "near", "a": "watcher", "b": "ghost", "distance": 100.0},
             "responses": [{"do": "add_counter", "counter": "near", "by": 1}]},
            {"id": "far", "when": {"type": "not", "of": [
                {"type": "near", "a": "watcher", "b": "ghost", "distance": 100.0}]},
             "responses": [{"do": "log", "text": "the trigger lost it"}]}
        ]}]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 30);
    let gone = kind(&trace, "remove").map(tick).next().expect("removed");
    let tree_lost: Vec<u64> = about(&trace, "log", "watcher")
        .into_iter()
        .filter(|e| e["text"] == "gone")
        .map(tick)
        .collect();
    let trigger_lost: Vec<u64> = kind(&trace, "trigger")
        .filter(|e| e["trigger"] == "s/far")
        .map(tick)
        .collect();
    assert_eq!(
        trigger_lost,
        [gone],
        "the trigger loses the ghost in the pass that removes it"
    );
    assert_eq!(
        tree_lost.first(),
        Some(&gone),
        "the tree loses it too, in the same tick (removed at {gone}); its `gone` logs: {tree_lost:?}"
    );
}

/// Deliver 2 (teleport): a scripted move (`townsfolk triggers`' `move` line) enters and leaves
/// areas like walking does: OnEnter/OnExit run, triggers see it (it used to tell only the
/// triggers, so the smart areas never knew).
#[test]
fn scripted_move_enters_and_leaves_areas_like_walking() {
    let p = pack(
        json!([{"id": "ada", "pos": [30.0, 30.0], "tree": "idle"}]),
        json!([idle("idle"), say("hello", "hello"), say("bye", "bye")]),
        json!([{"id": "nest", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
                "handlers": {"on_enter": "hello", "on_exit": "bye"}}]),
        json!([{"id": "s", "owner": "world", "triggers": [
            {"id": "inside", "when": {"type": "in_area", "who": "ada", "area": "nest"},
             "responses": [{"do": "log", "text": "in"}]}
        ]}]),
        json!([]),
    );
    let mut s = session(&p);
    let moved = |s: &mut Session, to: [f64; 2]| {
        let line = json!({"move": "ada", "to": to}).to_string();
        townsfolk_runtime::tools::triggers::step_line(s, &line).expect("script line")
    };
    let state = moved(&mut s, [5.0, 5.0]);
    assert!(
        state.to_string().contains("s/inside"),
        "the triggers see ada inside at once: {state}"
    );
    let trace = run(&mut s, 2);
    let handlers: Vec<String> = about(&trace, "handler", "ada")
        .iter()
        .map(|e| format!("{} {}", e["handler"].as_str().unwrap_or(""), e["phase"]))
        .collect();
    assert_eq!(handlers, ["on_enter \"start\"", "on_enter \"end\""]);
    moved(&mut s, [30.0, 30.0]);
    let trace = run(&mut s, 2);
    let handlers: Vec<String> = about(&trace, "handler", "ada")
        .iter()
        .map(|e| format!("{} {}", e["handler"].as_str().unwrap_or(""), e["phase"]))
        .collect();
    assert_eq!(handlers, ["on_exit \"start\"", "on_exit \"end\""]);
}

/// A removed or dead NPC stands in no area, also when a dynamic area appears where it lies
/// (every NPC's membership is rechecked then; a removed one used to enter it).
#[test]
fn dynamic_area_appearing_over_the_dead_and_the_removed_is_entered_by_the_living_only() {
    let p = pack(
        json!([
            {"id": "ghost", "pos": [20.0, 20.0], "tree": "idle"},
            {"id": "body", "pos": [20.5, 20.0], "tree": "idle"},
            {"id": "witness", "pos": [21.0, 20.0], "tree": "idle"},
            clock_npc()
        ]),
        json!([idle("idle"), clock_tree(1.0, 2.0)]),
        json!([{"id": "scene", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
                "dynamic": true}]),
        json!([{"id": "s", "owner": "world", "triggers": [
            {"id": "go", "when": {"type": "flag", "flag": "go"},
             "responses": [{"do": "remove", "npc": "ghost"}, {"do": "kill", "npc": "body"}]},
            {"id": "late", "when": {"type": "flag", "flag": "late"},
             "responses": [{"do": "create_area", "prototype": "scene", "at": [20.0, 20.0]}]}
        ]}]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 40);
    assert!(
        kind(&trace, "area_created").count() == 1,
        "the scene is placed"
    );
    let entered: Vec<&str> = kind(&trace, "enter")
        .filter_map(|e| e["npc"].as_str())
        .collect();
    assert_eq!(entered, ["witness"], "only the living enter the new area");
}

/// Deliver 4: one reader of the world for every tree. An area's handler about a removed NPC
/// sees it nowhere: its `in_area` node agrees with `distance`/`pos` (the ticking host used to
/// read the raw position itself, so a removed NPC was still "inside" the area it left).
#[test]
fn handler_sees_a_removed_npc_in_no_area() {
    let p = pack(
        json!([{"id": "a", "pos": [4.0, 5.0], "tree": "idle"}, clock_npc()]),
        json!([
            idle("idle"),
            clock_tree(1.0, 2.0),
            {"id": "bye", "root": {"id": "bye_sel", "type": "selector", "children": [
                {"id": "bye_seq", "type": "sequence", "children": [
                    {"id": "bye_in", "type": "in_area", "area": "bar"},
                    {"id": "bye_still", "type": "log", "text": "still inside"}
                ]},
                {"id": "bye_left", "type": "log", "text": "left"}
            ]}}
        ]),
        json!([{"id": "bar", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}},
                "handlers": {"on_exit": "bye"}}]),
        on_go(json!([{"do": "remove", "npc": "a"}])),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 30);
    let logs: Vec<&str> = about(&trace, "log", "a")
        .into_iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(
        logs,
        ["left"],
        "the OnExit handler of a removed NPC finds it in no area"
    );
}

/// A probe that keeps the `kind` of every trace event it is shown.
struct Kinds(Vec<String>, std::sync::Arc<townsfolk_runtime::Program>);

impl townsfolk_runtime::trace::Probe for Kinds {
    fn event(
        &mut self,
        ev: &townsfolk_runtime::trace::DebugEvent<'_>,
        _env: Option<&dyn townsfolk_runtime::expr::Env>,
    ) -> bool {
        if let townsfolk_runtime::trace::DebugEvent::Trace(t) = ev {
            let v = townsfolk_runtime::trace::trace_value(&self.1, t);
            self.0.push(v["kind"].as_str().unwrap_or("").to_string());
        }
        false
    }
}

/// Deliver 2 (one event stream): a message delivered at the end of the tick goes through the
/// same stream as every other world change, so the trace, the debugger's probe and the
/// trigger index all hear it (delivery used to tell only the trigger index).
#[test]
fn delivered_message_reaches_trace_probe_and_triggers() {
    let p = pack(
        json!([
            {"id": "porter", "pos": [5.0, 5.0], "tree": "idle"},
            {"id": "knocker", "pos": [6.0, 5.0], "tree": "knock"}
        ]),
        json!([
            idle("idle"),
            {"id": "knock", "root": {"id": "k_seq", "type": "sequence", "children": [
                {"id": "k_w", "type": "wait", "seconds": 0.5},
                {"id": "k_send", "type": "send_message", "to": "porter", "inbox": "door",
                 "message": "knock"},
                {"id": "k_rest", "type": "wait", "seconds": 100000.0}
            ]}}
        ]),
        json!([]),
        json!([{"id": "s", "owner": "world", "triggers": [
            {"id": "bell", "when": {"type": "received", "who": "porter", "message": "knock"},
             "responses": [{"do": "log", "text": "ring"}]}
        ]}]),
        json!([]),
    );
    let mut s = session(&p);
    let trace = run(&mut s, 20);
    let sent = kind(&trace, "message").map(tick).next().expect("sent");
    let got: Vec<&J> = kind(&trace, "received").collect();
    assert_eq!(got.len(), 1, "one delivery traced: {trace:?}");
    assert_eq!(
        tick(got[0]),
        sent,
        "delivered at the end of the tick it was sent in"
    );
    assert_eq!(
        (
            &got[0]["to"],
            &got[0]["from"],
            &got[0]["message"],
            &got[0]["inbox"]
        ),
        (
            &json!("porter"),
            &json!("knocker"),
            &json!("knock"),
            &json!("door")
        )
    );
    let rang: Vec<u64> = kind(&trace, "trigger").map(tick).collect();
    assert_eq!(rang, [sent + 1], "the trigger hears it in the next pass");

    let mut s = session(&p);
    let mut probe = Kinds(Vec::new(), s.program().clone());
    for _ in 0..20 {
        assert!(s.step_probed(&mut probe));
    }
    assert_eq!(
        probe.0.iter().filter(|k| *k == "received").count(),
        1,
        "the probe is shown the delivery: {:?}",
        probe.0
    );
}

/// Deliver 2 (one event stream): the scripted `event` lines of `townsfolk triggers` go
/// through the stream too: the trace hears the areas entered and left and the messages, as
/// the trigger index does (they used to be told to the trigger index only).
#[test]
fn scripted_events_reach_the_trace_and_the_triggers() {
    use townsfolk_runtime::tools::triggers::apply_line;
    let p = pack(
        json!([{"id": "ada", "pos": [30.0, 30.0], "tree": "idle"}]),
        json!([idle("idle")]),
        json!([{"id": "nest", "shape": {"rect": {"min": [0.0, 0.0], "max": [10.0, 10.0]}}}]),
        json!([{"id": "s", "owner": "world", "triggers": [
            {"id": "in", "when": {"type": "in_area", "who": "ada", "area": "nest"},
             "responses": [{"do": "log", "text": "in"}]},
            {"id": "hi", "when": {"type": "received", "who": "ada", "message": "hi"},
             "responses": [{"do": "log", "text": "hi"}]}
        ]}]),
        json!([]),
    );
    let mut s = session(&p);
    let lines = [
        (
            r#"{"event": "enter", "npc": "ada", "area": "nest"}"#,
            "enter",
            "s/in",
        ),
        (
            r#"{"event": "message", "to": "ada", "message": "hi"}"#,
            "received",
            "s/hi",
        ),
        (
            r#"{"event": "exit", "npc": "ada", "area": "nest"}"#,
            "exit",
            "",
        ),
    ];
    s.set_tracing(true);
    for (line, heard, fired) in lines {
        s.clear_trace();
        apply_line(&mut s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let trace: Vec<J> = s
            .trace()
            .iter()
            .map(|e| serde_json::from_str(&s.trace_json(e)).expect("json"))
            .collect();
        let heard_it = kind(&trace, heard).any(|e| e["npc"] == "ada" || e["to"] == "ada");
        assert!(heard_it, "{line}: the trace hears `{heard}`: {trace:?}");
        let fired_now: Vec<&J> = kind(&trace, "trigger").collect();
        if fired.is_empty() {
            assert!(fired_now.is_empty(), "{line}: {fired_now:?}");
        } else {
            assert_eq!(fired_now.len(), 1, "{line}: {trace:?}");
            assert_eq!(fired_now[0]["trigger"], fired, "{line}");
        }
    }
}
