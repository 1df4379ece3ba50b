//! One or more tests per rule of SPEC §2, run through real sessions.

use crate::program::load_str;
use crate::session::Session;

/// A town: a city (0..100) with two pubs and a market. `npcs` and `extra_trees` are JSON
/// fragments; `pub_a` is the JSON object of pub A's extra fields.
fn town(npcs: &str, extra_trees: &str, pub_a: &str, seed: u64) -> Session {
    let text = format!(
        r#"{{"format": "townsfolk-pack", "version": 1, "name": "town",
        "world": {{"bounds": {{"min": [0, 0], "max": [100, 100]}}, "dt": 0.1,
                   "npcs": [{npcs}]}},
        "trees": [
          {{"id": "drink_tree", "root": {{"id": "sip", "type": "wait", "seconds": 0.2}}}},
          {{"id": "eat_tree", "root": {{"id": "chew", "type": "wait", "seconds": 0.2}}}},
          {{"id": "long_tree", "root": {{"id": "stay", "type": "wait", "seconds": 1000}}}},
          {{"id": "fail_tree", "root": {{"id": "nope", "type": "condition", "expr": "false"}}}},
          {{"id": "go_pub", "root": {{"id": "go", "type": "sequence", "children": [
             {{"id": "walk", "type": "go_to_child", "kind": "pub"}},
             {{"id": "ask_pub", "type": "request", "area_kind": "pub"}}]}}}},
          {{"id": "asker", "blackboard": {{"rich": {{"type": "bool"}}}},
            "root": {{"id": "ask", "type": "request"}}}}
          {extra_trees}],
        "areas": [
          {{"id": "city", "shape": {{"rect": {{"min": [0, 0], "max": [100, 100]}}}},
            "kinds": ["city"], "templates": [{{"name": "fun", "tree": "go_pub"}}]}},
          {{"id": "pub_a", "shape": {{"rect": {{"min": [10, 10], "max": [20, 20]}}}},
            "parent": "city", "kinds": ["pub"],
            "vars": {{"count": {{"type": "int"}}, "brain_ticks": {{"type": "int"}}}} {pub_a}}},
          {{"id": "pub_b", "shape": {{"rect": {{"min": [60, 10], "max": [70, 20]}}}},
            "parent": "city", "kinds": ["pub"],
            "templates": [{{"name": "drink", "tree": "drink_tree"}}]}},
          {{"id": "crime", "dynamic": true, "shape": {{"rect": {{"min": [0, 0], "max": [10, 10]}}}},
            "templates": [{{"name": "flee", "tree": "long_tree"}}]}}
        ]}}"#
    );
    let l = load_str(&text);
    let errors: Vec<_> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let mut s = Session::from_pack(&l.pack.expect("pack"), seed).expect("session");
    s.set_tracing(true);
    s
}

const PUB_A: &str = r#", "templates": [
    {"name": "drink", "tree": "drink_tree", "max_instances": 1},
    {"name": "eat", "tree": "eat_tree", "constraint": "rich && has_tag(\"guest\")"},
    {"name": "cards", "tree": "drink_tree", "enabled": false}]"#;

fn npc(id: &str, x: f64, y: f64, tree: &str, extra: &str) -> String {
    format!(
        r#"{{"id": "{id}", "pos": [{x}, {y}], "speed": 5, "tree": "{tree}", "tags": ["guest"] {extra}}}"#
    )
}

/// Trace lines (JSON) recorded so far, cleared.
fn events(s: &mut Session) -> Vec<serde_json::Value> {
    let v = s
        .trace()
        .iter()
        .map(|e| crate::trace::trace_value(s.program(), e))
        .collect();
    s.clear_trace();
    v
}

fn of_kind<'a>(ev: &'a [serde_json::Value], kind: &str) -> Vec<&'a serde_json::Value> {
    ev.iter().filter(|e| e["kind"] == kind).collect()
}

#[test]
fn filtering_refuses_with_reasons_and_adopts_what_survives() {
    let mut s = town(&npc("a", 15.0, 15.0, "asker", ""), "", PUB_A, 1);
    s.step();
    let ev = events(&mut s);
    let req = of_kind(&ev, "request");
    assert_eq!(req[0]["result"], "adopted");
    assert_eq!(req[0]["asked"], "pub_a");
    assert_eq!(req[0]["chosen"]["template"], "drink");
    let reasons: Vec<String> = req[0]["refused"]
        .as_array()
        .expect("refusals")
        .iter()
        .map(|r| format!("{}: {}", r["template"], r["reason"]))
        .collect();
    assert_eq!(
        reasons,
        [
            "\"eat\": \"constraint `rich && has_tag(\\\"guest\\\")` is false (`rich`)\"",
            "\"cards\": \"disabled\""
        ]
    );
    let adopt = of_kind(&ev, "adopt");
    assert_eq!(adopt[0]["template"], "drink");
    // The grafted subtree runs under the request node.
    assert!(
        ev.iter()
            .any(|e| e["kind"] == "status" && e["node"] == "sip" && e["to"] == "running")
    );
}

#[test]
fn preferences_weigh_the_choice_and_forbidden_templates_are_refused() {
    let pref = r#", {"id": "picky", "blackboard": {"rich": {"type": "bool"}}, "root":
        {"id": "ask_p", "type": "request", "prefer": [{"template": "drink", "weight": 3},
                                                      {"template": "eat", "weight": 1}]}},
        {"id": "no_drink", "blackboard": {"rich": {"type": "bool"}}, "root":
        {"id": "ask_f", "type": "request", "forbid": ["drink"]}}"#;
    let pub_a = r#", "templates": [{"name": "drink", "tree": "drink_tree"},
                                   {"name": "eat", "tree": "eat_tree"}]"#;
    let mut drinks = 0;
    let mut eats = 0;
    for seed in 0..300 {
        let mut s = town(&npc("a", 15.0, 15.0, "picky", ""), pref, pub_a, seed);
        s.step();
        for e in of_kind(&events(&mut s), "adopt") {
            match e["template"].as_str() {
                Some("drink") => drinks += 1,
                Some("eat") => eats += 1,
                _ => {}
            }
        }
    }
    assert_eq!(drinks + eats, 300);
    let share = drinks as f64 / 300.0;
    assert!((share - 0.75).abs() < 0.08, "weight 3 of 4: {share}");

    let mut s = town(&npc("a", 15.0, 15.0, "no_drink", ""), pref, pub_a, 1);
    s.step();
    let ev = events(&mut s);
    let req = of_kind(&ev, "request");
    assert_eq!(req[0]["chosen"]["template"], "eat");
    assert_eq!(req[0]["refused"][0]["reason"], "forbidden by the request");
}

#[test]
fn instance_limits_fill_up_and_the_parent_takes_over() {
    let npcs = format!(
        "{}, {}",
        npc("a", 15.0, 15.0, "asker", ""),
        npc("b", 16.0, 15.0, "asker", "")
    );
    let mut s = town(&npcs, "", PUB_A, 1);
    s.step();
    let ev = events(&mut s);
    let req = of_kind(&ev, "request");
    assert_eq!(req[0]["chosen"]["template"], "drink");
    // B finds drink full (1/1) and nothing else in the pub: the city serves it.
    assert_eq!(req[1]["chosen"]["area"], "city");
    assert_eq!(req[1]["chosen"]["template"], "fun");
    let full = req[1]["refused"]
        .as_array()
        .expect("refusals")
        .iter()
        .any(|r| r["template"] == "drink" && r["reason"] == "full (1/1 instances)");
    assert!(full, "{}", req[1]);
    assert_eq!(s.world().areas[1].holders[0], 1);
}

#[test]
fn drop_policies_success_failure_leave_and_overridable() {
    // Default policy: overridable on success. With nothing else to offer, the overridable
    // behavior is kept (run again), not failed.
    let only_long = r#", "templates": [{"name": "drink", "tree": "drink_tree"}]"#;
    let mut s = town(&npc("a", 15.0, 15.0, "asker", ""), "", only_long, 1);
    s.run(3);
    let ev = events(&mut s);
    assert_eq!(of_kind(&ev, "adopt").len(), 1);
    assert!(
        s.world().npcs[0].tags[0].overridable,
        "overridable after success"
    );
    // Replaced when the area offers a new one: disable nothing, ask again.
    s.run(3);
    let ev = events(&mut s);
    let drops = of_kind(&ev, "drop");
    assert_eq!(drops[0]["reason"], "overridden by a new behavior");
    assert_eq!(of_kind(&ev, "adopt").len(), 1);

    // Failure: dropped.
    let failing = r#", "templates": [{"name": "oops", "tree": "fail_tree"}]"#;
    let mut s = town(&npc("a", 15.0, 15.0, "asker", ""), "", failing, 1);
    s.step();
    let ev = events(&mut s);
    assert_eq!(of_kind(&ev, "drop")[0]["reason"], "behavior failed");
    assert!(s.world().npcs[0].tags.is_empty());
    assert_eq!(s.world().areas[1].holders[0], 0);

    // Keep on failure: kept as if nothing happened.
    let keep = r#", "templates": [{"name": "oops", "tree": "fail_tree",
        "drop": {"on_failure": "keep"}}]"#;
    let mut s = town(&npc("a", 15.0, 15.0, "asker", ""), "", keep, 1);
    s.run(2);
    let ev = events(&mut s);
    assert!(of_kind(&ev, "drop").is_empty());
    assert_eq!(of_kind(&ev, "adopt").len(), 1, "kept: not adopted again");

    // Leaving the area drops it (default); the NPC walks away inside the behavior.
    let walker = r#", {"id": "walk_out", "root": {"id": "out", "type": "move_to",
        "target": {"point": [50, 50]}}}"#;
    let leave = r#", "templates": [{"name": "go", "tree": "walk_out"}]"#;
    let mut s = town(&npc("a", 19.0, 15.0, "asker", ""), walker, leave, 1);
    let mut dropped = None;
    for _ in 0..40 {
        s.step();
        for e in events(&mut s) {
            if e["kind"] == "drop" {
                dropped = Some(e["reason"].clone());
            }
        }
    }
    assert_eq!(dropped, Some(serde_json::json!("left the area")));
}

#[test]
fn handlers_are_queued_and_run_one_at_a_time_without_the_brain() {
    let trees = r#", {"id": "greet", "root": {"id": "greet_seq", "type": "sequence", "children": [
            {"id": "pause", "type": "wait", "seconds": 0.3},
            {"id": "count", "type": "set", "var": "area.count", "value": "area.count + 1"}]}},
        {"id": "brain", "root": {"id": "tick_brain", "type": "set", "var": "area.brain_ticks",
            "value": "area.brain_ticks + 1"}},
        {"id": "walk_in", "root": {"id": "in", "type": "move_to", "target": {"point": [15, 15]}}}"#;
    let pub_a = r#", "handlers": {"on_enter": "greet"},
        "brain": {"tree": "brain", "every_seconds": 0.1}"#;
    let npcs = format!(
        "{}, {}",
        npc("a", 9.0, 15.0, "walk_in", ""),
        npc("b", 9.0, 16.0, "walk_in", "")
    );
    let mut s = town(&npcs, trees, pub_a, 1);
    let var = |s: &Session, n: &str| {
        s.world().area_vars[1][s.program().area_vars.get(n).expect("var") as usize].as_i64()
    };
    // Per tick: the handler events ("a start", …) and the brain's counter after the tick.
    let mut ticks: Vec<(Vec<String>, i64)> = Vec::new();
    for _ in 0..20 {
        s.step();
        let handler: Vec<String> = events(&mut s)
            .iter()
            .filter(|e| e["kind"] == "handler")
            .map(|e| {
                format!(
                    "{} {}",
                    e["npc"].as_str().unwrap_or("?"),
                    e["phase"].as_str().unwrap_or("?")
                )
            })
            .collect();
        ticks.push((handler, var(&s, "brain_ticks")));
    }
    let handler_lines: Vec<&String> = ticks.iter().flat_map(|t| &t.0).collect();
    // Both enter on the same tick; the second handler starts only when the first ended.
    assert_eq!(
        handler_lines,
        ["a start", "a end", "b start", "b end"],
        "{ticks:?}"
    );
    // The brain does not tick while handlers are pending: in every tick that ends with a
    // handler started and not ended, the brain's counter stays put; in every other tick it
    // counts one.
    let mut pending = 0i32;
    let mut last = 0;
    for (t, (handler, brain)) in ticks.iter().enumerate() {
        for h in handler {
            pending += if h.ends_with("start") { 1 } else { -1 };
        }
        let want = if pending > 0 { 0 } else { 1 };
        assert_eq!(brain - last, want, "tick {}: {ticks:?}", t + 1);
        last = *brain;
    }
    assert_eq!(var(&s, "count"), 2, "both greeted");
    // A's run spans 4 ticks (3 waiting, 1 ending), B's starts in the tick A's ends and
    // spans 4 more: the brain is skipped for the 6 ticks in which a handler is left pending.
    assert_eq!(
        var(&s, "brain_ticks"),
        20 - 6,
        "the brain skipped the ticks with handlers"
    );
}

#[test]
fn brain_enables_and_disables_templates() {
    let trees = r#", {"id": "closer", "root": {"id": "rule", "type": "selector", "children": [
            {"id": "closed", "type": "sequence", "children": [
                {"id": "is_closed", "type": "condition", "expr": "flags.closed"},
                {"id": "off", "type": "enable_template", "template": "drink", "enabled": false}]},
            {"id": "on", "type": "enable_template", "template": "drink", "enabled": true}]}}"#;
    let pub_a = r#", "templates": [{"name": "drink", "tree": "long_tree"}],
        "brain": {"tree": "closer", "every_seconds": 0.1}"#;
    let mut s = town(&npc("a", 15.0, 15.0, "asker", ""), trees, pub_a, 1);
    let flag = s.program().flags.get("closed").expect("flag") as usize;
    s.step();
    assert_eq!(of_kind(&events(&mut s), "adopt").len(), 1);
    // Close: the brain disables drink; a newcomer is refused (and served by the city).
    let mut s2 = town(
        &format!(
            "{}, {}",
            npc("a", 15.0, 15.0, "long_tree", ""),
            npc("b", 15.0, 16.0, "asker", "")
        ),
        trees,
        pub_a,
        1,
    );
    s2.set_flag_for_test(flag, true);
    s2.step();
    let ev = events(&mut s2);
    let req = of_kind(&ev, "request");
    assert_eq!(req[0]["refused"][0]["reason"], "disabled");
    assert_eq!(req[0]["chosen"]["area"], "city");
}

#[test]
fn dynamic_areas_are_created_entered_and_removed() {
    let trees = r#", {"id": "murderer", "root": {"id": "once", "type": "sequence", "children": [
            {"id": "crime_now", "type": "condition", "expr": "!flags.done"},
            {"id": "mark", "type": "set", "var": "flags.done", "value": "true"},
            {"id": "scene", "type": "create_area", "prototype": "crime", "seconds": 1}]}}"#;
    let mut s = town(&npc("killer", 50.0, 50.0, "murderer", ""), trees, "", 1);
    s.step();
    let ev = events(&mut s);
    assert_eq!(of_kind(&ev, "area_created")[0]["area"], "crime#1");
    assert!(
        of_kind(&ev, "enter").iter().any(|e| e["area"] == "crime#1"),
        "the NPC stands inside"
    );
    s.run(10);
    let ev = events(&mut s);
    assert_eq!(of_kind(&ev, "area_removed")[0]["area"], "crime#1");
    assert_eq!(of_kind(&ev, "exit")[0]["area"], "crime#1");
    assert!(
        !s.world().npcs[0]
            .areas
            .iter()
            .any(|&a| crate::world::areas::is_dynamic(a))
    );
}

#[test]
fn areas_and_holders_exchange_messages() {
    // The NPC adopts `table`, whose tree tells the area it sits, then waits for the deal.
    // The brain answers every `sit` by messaging all holders.
    let trees = r#", {"id": "sit_tree", "root": {"id": "sit_seq", "type": "sequence", "children": [
            {"id": "tell", "type": "send_message", "to": "area", "message": "sit"},
            {"id": "deal", "type": "wait_message", "inbox": "cards", "message": "deal"}]}},
        {"id": "dealer", "root": {"id": "deal_seq", "type": "sequence", "children": [
            {"id": "got_sit", "type": "receive", "message": "sit"},
            {"id": "two", "type": "condition", "expr": "holders(\"table\") >= 1"},
            {"id": "send_deal", "type": "message_holders", "template": "table", "inbox": "cards",
             "message": "deal"}]}}"#;
    let pub_a = r#", "templates": [{"name": "table", "tree": "sit_tree", "inboxes": ["cards"]}],
        "brain": {"tree": "dealer", "every_seconds": 0.1}"#;
    let mut s = town(&npc("a", 15.0, 15.0, "asker", ""), trees, pub_a, 1);
    let mut deal_done = None;
    for _ in 0..10 {
        s.step();
        for e in events(&mut s) {
            if std::env::var_os("SHOW").is_some() {
                eprintln!("{e}");
            }
            if e["kind"] == "status" && e["node"] == "deal" && e["to"] == "success" {
                deal_done = deal_done.or(e["tick"].as_u64());
            }
        }
    }
    // Tick 1: adopt, send `sit`; tick 2: the brain reads it and deals; tick 3: received.
    assert_eq!(deal_done, Some(3));
    assert!(
        s.world().npcs[0]
            .inboxes
            .iter()
            .any(|(name, _)| s.program().sym(*name) == "cards"),
        "the template added its inbox"
    );
}

#[test]
fn go_to_child_splits_between_pubs_by_weight() {
    // An NPC in the city (not in a pub) asks for fun: walk to a pub, then ask there.
    let mut in_a = 0;
    for seed in 0..200 {
        let mut s = town(
            &npc("a", 40.0, 50.0, "asker", ""),
            "",
            r#", "templates": [
            {"name": "drink", "tree": "drink_tree"}]"#,
            seed,
        );
        let mut adopted_in = None;
        for _ in 0..200 {
            s.step();
            for e in events(&mut s) {
                if e["kind"] == "adopt" && e["area"] != "city" {
                    adopted_in = e["area"].as_str().map(str::to_string);
                }
            }
            if adopted_in.is_some() {
                break;
            }
        }
        match adopted_in.as_deref() {
            Some("pub_a") => in_a += 1,
            Some("pub_b") => {}
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    assert!(
        (80..=120).contains(&in_a),
        "pub A chosen {in_a} times of 200"
    );
}

#[test]
fn validation_catches_area_mistakes() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "bad",
      "world": {"bounds": {"min": [0, 0], "max": [50, 50]}},
      "trees": [{"id": "t", "root": {"id": "w", "type": "wait", "seconds": 1}}],
      "areas": [
        {"id": "a", "parent": "b", "shape": {"rect": {"min": [0, 0], "max": [10, 10]}},
         "templates": [{"name": "x", "tree": "missing"},
                       {"name": "y", "tree": "t", "constraint": "rich &&"}]},
        {"id": "b", "parent": "a", "shape": {"rect": {"min": [40, 40], "max": [60, 60]}}}]}"#;
    let l = load_str(text);
    let find = |path: &str| {
        l.diagnostics
            .iter()
            .find(|d| d.path == path)
            .unwrap_or_else(|| panic!("{path}: {:#?}", l.diagnostics))
            .message
            .clone()
    };
    assert!(find("areas[0].templates[0].tree").contains("unknown tree `missing`"));
    assert!(find("areas[0].templates[1].constraint").contains("rich &&"));
    assert!(find("areas[0].parent").contains("parent cycle"));
    assert!(find("areas[1].shape").contains("outside the world"));
}

fn daily_life(seed: u64) -> Session {
    let l = load_str(include_str!("../../../../samples/daily_life.json"));
    let mut s = Session::from_pack(&l.pack.expect("sample"), seed).expect("session");
    s.set_tracing(true);
    s
}

#[test]
fn daily_life_picks_either_pub_about_half_the_time() {
    // The city's `fun` behavior walks each townsperson into a pub picked by weight; count the
    // pub each one walks into first once the fun hours start.
    let (mut red, mut blue) = (0, 0);
    for seed in 0..200 {
        let mut s = daily_life(seed);
        s.run(629);
        let mut seen = std::collections::HashSet::new();
        for _ in 629..800 {
            s.step();
            for e in events(&mut s) {
                let npc = e["npc"].as_str().unwrap_or("").to_string();
                if e["kind"] != "enter" || npc.ends_with("keeper") || seen.contains(&npc) {
                    continue;
                }
                match e["area"].as_str() {
                    Some("pub_red") => red += 1,
                    Some("pub_blue") => blue += 1,
                    _ => continue,
                }
                seen.insert(npc);
            }
        }
    }
    assert_eq!(red + blue, 200 * 5, "five townsfolk go to a pub every day");
    let share = f64::from(red) / f64::from(red + blue);
    assert!((0.4..=0.6).contains(&share), "red pub share {share}");
}

#[test]
fn daily_life_follows_each_cycle_in_order_at_the_right_places() {
    // Seed 4: one where Cy's pub is open at 17:00 (the blue one opens at 18:00); walls and
    // doors changed who picks which pub under seed 1.
    let mut s = daily_life(4);
    let mut adopted: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for _ in 0..1440 {
        s.step();
        for e in events(&mut s) {
            let (Some(npc), Some(area), Some(t)) = (
                e["npc"].as_str(),
                e["area"].as_str(),
                e["template"].as_str(),
            ) else {
                continue;
            };
            // Places only (the city just walks the NPC there) and no fleeing.
            if e["kind"] == "adopt" && area != "city" && t != "flee" {
                let list = adopted.entry(npc.to_string()).or_default();
                let step = format!("{t}@{area}");
                if list.last() != Some(&step) {
                    list.push(step);
                }
            }
        }
    }
    let day = |npc: &str| adopted[npc].join(" ");
    // Ada: 4-step day (sleep, work, fun, eat, sleep), rich.
    let ada = day("ada");
    assert!(
        ada.starts_with("sleep@home_ada work@smithy ")
            && ada.ends_with(" eat@home_ada sleep@home_ada"),
        "{ada}"
    );
    let fun = ada.split(' ').nth(2).unwrap_or("");
    assert!(
        fun.ends_with("@pub_red") || fun.ends_with("@pub_blue"),
        "{ada}"
    );
    // Cy: 6-step day (sleep, eat, work, shop, work, fun, sleep).
    let cy = day("cy");
    let steps: Vec<&str> = cy
        .split(' ')
        .map(|x| x.split('@').next().unwrap_or(""))
        .collect();
    let mut order = steps.clone();
    order.dedup();
    assert_eq!(order.len(), 7, "{cy}");
    assert_eq!(order[..5], ["sleep", "eat", "work", "shop", "work"], "{cy}");
    assert_eq!(order[6], "sleep", "{cy}");
    // Fun: whatever the pub hands out (drink, a round, cards), at one of the pubs.
    assert!(
        ["drink", "round", "cards"].contains(&order[5])
            && (cy.contains(&format!("{}@pub_red", order[5]))
                || cy.contains(&format!("{}@pub_blue", order[5]))),
        "{cy}"
    );
    assert!(cy.contains("shop@market") && cy.contains("work@smithy") && cy.contains("@home_cy"));
    // The innkeepers tend their own bars.
    assert!(day("red_keeper").contains("tend_bar@pub_red"));
    assert!(day("blue_keeper").contains("tend_bar@pub_blue"));
}

/// Handler trees that count their runs (`counters.on_adopt`, …), and the waiting asker `b`.
const COUNTING_HANDLERS: &str = r#",
    {"id": "h_adopt", "root": {"id": "ha", "type": "set", "var": "counters.on_adopt", "value": "counters.on_adopt + 1"}},
    {"id": "h_drop", "root": {"id": "hd", "type": "set", "var": "counters.on_drop", "value": "counters.on_drop + 1"}},
    {"id": "drink_only", "root": {"id": "ask_drink", "type": "request", "forbid": ["fun"]}}"#;

fn counter(s: &Session, name: &str) -> i64 {
    s.program()
        .counters
        .get(name)
        .map_or(0, |c| s.world().counters[c as usize])
}

/// A request node halted while it holds a behavior (reactive preemption, a timeout, a guard):
/// the behavior is dropped as "interrupted", its slot is freed (another NPC gets it), and
/// OnDrop runs after OnAdopt.
#[test]
fn halting_a_request_node_interrupts_its_behavior() {
    let variants = [
        // Reactive preemption: `rich` turns true at tick 3.
        (
            "reactive",
            r#"{"id": "sel", "type": "selector", "reactive": true, "children": [
                {"id": "busy", "type": "sequence", "children": [
                    {"id": "is_rich", "type": "condition", "expr": "rich"},
                    {"id": "hold", "type": "wait", "seconds": 1000}]},
                {"id": "ask", "type": "request"}]}"#,
            Some(3),
            4,
        ),
        // A timeout of 0.5 s (5 ticks): halted at tick 6, then the selector waits.
        (
            "timeout",
            r#"{"id": "sel", "type": "selector", "children": [
                {"id": "to", "type": "timeout", "seconds": 0.5, "children": [
                    {"id": "ask", "type": "request"}]},
                {"id": "hold", "type": "wait", "seconds": 1000}]}"#,
            None,
            6,
        ),
        // A guard on `!rich`: `rich` turns true at tick 3.
        (
            "guard",
            r#"{"id": "g", "type": "guard", "condition": "!rich", "children": [
                {"id": "ask", "type": "request"}]}"#,
            Some(3),
            4,
        ),
    ];
    let pub_a = r#", "templates": [{"name": "drink", "tree": "long_tree", "max_instances": 1}],
        "handlers": {"on_adopt": "h_adopt", "on_drop": "h_drop"}"#;
    for (name, root, rich_at, drop_tick) in variants {
        let trees = format!(
            r#"{COUNTING_HANDLERS}, {{"id": "halts", "blackboard": {{"rich": {{"type": "bool"}}}},
                "root": {root}}}"#
        );
        let npcs = format!(
            "{}, {}",
            npc("a", 15.0, 15.0, "halts", ""),
            npc("b", 16.0, 15.0, "drink_only", "")
        );
        let mut s = town(&npcs, &trees, pub_a, 1);
        let rich = s.program().blackboard.get("rich").expect("rich") as usize;
        let mut log = Vec::new();
        for _ in 0..10 {
            if rich_at == Some(s.tick()) {
                s.set_var(0, rich, crate::value::Value::Bool(true));
            }
            s.step();
            for e in events(&mut s) {
                match e["kind"].as_str() {
                    Some("adopt") => log.push(format!("{} adopt {}", e["tick"], e["npc"])),
                    Some("drop") => {
                        log.push(format!("{} drop {} {}", e["tick"], e["npc"], e["reason"]))
                    }
                    Some("handler") => log.push(format!(
                        "{} {} {} {}",
                        e["tick"], e["handler"], e["npc"], e["phase"]
                    )),
                    _ => {}
                }
            }
            if s.tick() == drop_tick - 1 {
                assert_eq!(s.world().areas[1].holders[0], 1, "{name}: a holds drink");
            }
        }
        let log: Vec<&str> = log.iter().map(String::as_str).collect();
        // A adopts at tick 1 (B finds drink full and is refused by the city); A's behavior is
        // interrupted at the drop tick, and B, whose tree ticks after A's, adopts the freed
        // slot in the same tick. Handlers run in the next tick's area phase, one at a time, in
        // the order of their events.
        let t = drop_tick;
        let want = [
            "1 adopt \"a\"".to_string(),
            "2 \"on_adopt\" \"a\" \"start\"".to_string(),
            "2 \"on_adopt\" \"a\" \"end\"".to_string(),
            format!("{t} drop \"a\" \"interrupted\""),
            format!("{t} adopt \"b\""),
            format!("{} \"on_drop\" \"a\" \"start\"", t + 1),
            format!("{} \"on_drop\" \"a\" \"end\"", t + 1),
            format!("{} \"on_adopt\" \"b\" \"start\"", t + 1),
            format!("{} \"on_adopt\" \"b\" \"end\"", t + 1),
        ];
        assert_eq!(log, want, "{name}");
        assert!(s.world().npcs[0].tags.is_empty(), "{name}");
        assert_eq!(s.world().npcs[1].tags.len(), 1, "{name}");
        assert_eq!(s.world().areas[1].holders[0], 1, "{name}: b's slot");
        assert_eq!(counter(&s, "on_adopt"), 2, "{name}");
        assert_eq!(counter(&s, "on_drop"), 1, "{name}");
    }
}

/// The `on_leave` policies other than drop: `keep` keeps the behavior running outside the
/// area (its slot still taken); `overridable` keeps it, marked overridable, so the next
/// request (here the city's, at once) replaces it. OnExit runs either way.
#[test]
fn leaving_with_keep_or_overridable_keeps_the_behavior() {
    let trees = r#", {"id": "walk_out", "root": {"id": "out", "type": "move_to",
            "target": {"point": [50, 50]}}},
        {"id": "h_exit", "root": {"id": "hx", "type": "set", "var": "counters.on_exit", "value": "counters.on_exit + 1"}}"#;
    for policy in ["keep", "overridable"] {
        let pub_a = format!(
            r#", "templates": [{{"name": "go", "tree": "walk_out", "drop": {{"on_leave": "{policy}"}}}}],
            "handlers": {{"on_exit": "h_exit"}}"#
        );
        let mut s = town(&npc("a", 19.0, 15.0, "asker", ""), trees, &pub_a, 1);
        let mut exit_tick = None;
        let mut after_exit = Vec::new();
        for _ in 0..20 {
            s.step();
            for e in events(&mut s) {
                if e["kind"] == "exit" && e["area"] == "pub_a" {
                    exit_tick = e["tick"].as_u64();
                    // Kept through the exit itself, with the policy's mark.
                    let a = &s.world().npcs[0];
                    assert_eq!(a.tags.len(), 1, "{policy}: kept on leaving");
                    assert_eq!(a.tags[0].overridable, policy == "overridable", "{policy}");
                    assert_eq!(s.world().areas[1].holders[0], 1, "{policy}");
                } else if exit_tick.is_some()
                    && ["drop", "adopt"].contains(&e["kind"].as_str().unwrap_or(""))
                {
                    after_exit.push(format!(
                        "{} {} {}",
                        e["kind"].as_str().unwrap_or("?"),
                        e["area"].as_str().unwrap_or("?"),
                        e["reason"].as_str().unwrap_or("")
                    ));
                }
            }
        }
        let exit_tick = exit_tick.unwrap_or_else(|| panic!("{policy}: never left"));
        assert!(exit_tick < 10, "{policy}: left at tick {exit_tick}");
        assert!(s.world().pos[0].x > 20.0, "{policy}: outside the pub");
        assert_eq!(counter(&s, "on_exit"), 1, "{policy}: OnExit ran once");
        let a = &s.world().npcs[0];
        if policy == "keep" {
            assert!(after_exit.is_empty(), "{after_exit:?}");
            assert_eq!(a.tags.len(), 1, "still holds the behavior");
            assert_eq!(s.world().areas[1].holders[0], 1, "slot still taken");
            assert!(s.world().target(0).is_some(), "still walking");
        } else {
            assert_eq!(
                after_exit,
                ["drop pub_a overridden by a new behavior", "adopt city "],
                "replaced at the next request"
            );
            assert_eq!(s.world().areas[1].holders[0], 0, "slot freed");
        }
    }
}

/// Handler runs are queued and each runs to completion once per event (SPEC §2): leaving
/// while one's OnEnter is still queued behind another's, or still running, neither cancels
/// nor cuts it; the OnExit runs after it.
#[test]
fn leaving_while_a_handler_is_queued_or_running() {
    let trees = r#",
        {"id": "h_enter", "root": {"id": "he", "type": "sequence", "children": [
            {"id": "slow", "type": "wait", "seconds": 3},
            {"id": "he_count", "type": "set", "var": "counters.on_enter", "value": "counters.on_enter + 1"}]}},
        {"id": "h_exit", "root": {"id": "hx", "type": "set", "var": "counters.on_exit", "value": "counters.on_exit + 1"}},
        {"id": "cross", "root": {"id": "walk", "type": "move_to", "target": {"point": [30, 15]}}}"#;
    let pub_a = r#", "handlers": {"on_enter": "h_enter", "on_exit": "h_exit"}"#;
    // Both walk in at the same tick and out 10 units later (2 s at 5 units/s): a's OnEnter
    // (3 s) is running when they leave, b's is still queued behind it.
    let npcs = format!(
        "{}, {}",
        npc("a", 9.0, 15.0, "cross", ""),
        npc("b", 9.0, 16.0, "cross", "")
    );
    let mut s = town(&npcs, trees, pub_a, 1);
    let mut log = Vec::new();
    for _ in 0..120 {
        s.step();
        for e in events(&mut s) {
            match e["kind"].as_str() {
                Some("handler") => log.push(format!(
                    "{} {} {}",
                    e["handler"].as_str().unwrap_or("?"),
                    e["npc"].as_str().unwrap_or("?"),
                    e["phase"].as_str().unwrap_or("?")
                )),
                Some("exit") if e["area"] == "pub_a" => {
                    log.push(format!("exit {}", e["npc"].as_str().unwrap_or("?")))
                }
                _ => {}
            }
        }
    }
    assert_eq!(
        log,
        [
            "on_enter a start",
            "exit a",
            "exit b",
            "on_enter a end",
            "on_enter b start",
            "on_enter b end",
            "on_exit a start",
            "on_exit a end",
            "on_exit b start",
            "on_exit b end",
        ]
    );
    assert_eq!(counter(&s, "on_enter"), 2, "both OnEnter runs completed");
    assert_eq!(counter(&s, "on_exit"), 2);
}

/// `World::in_areas` says exactly which NPCs stand in some area or have an innermost one,
/// after each tick and each teleport, while NPCs are put into and taken out of a small area
/// and one dies inside it (membership passes over the others without reading them).
#[test]
fn who_stands_in_areas_is_mirrored_exactly() {
    use crate::systems::effects::lifecycle;
    use crate::value::Vec2;
    let npcs: Vec<String> = (0..6)
        .map(|k| {
            npc(
                &format!("n{k}"),
                40.0 + 5.0 * k as f64,
                80.0,
                "long_tree",
                "",
            )
        })
        .collect();
    let text = format!(
        r#"{{"format": "townsfolk-pack", "version": 1, "name": "spot",
        "world": {{"bounds": {{"min": [0, 0], "max": [100, 100]}}, "dt": 0.1,
                   "npcs": [{}]}},
        "trees": [{{"id": "long_tree", "root": {{"id": "stay", "type": "wait", "seconds": 1000}}}}],
        "areas": [{{"id": "spot", "shape": {{"rect": {{"min": [10, 10], "max": [20, 20]}}}}}}]}}"#,
        npcs.join(", ")
    );
    let l = load_str(&text);
    let mut s = Session::from_pack(&l.pack.expect("pack"), 1).expect("session");
    let check = |s: &Session, what: &str| {
        let w = s.world();
        let want: Vec<bool> = w
            .npcs
            .iter()
            .map(|n| !n.areas.is_empty() || n.area.is_some())
            .collect();
        let got: Vec<bool> = (0..w.npcs.len()).map(|i| w.in_areas.contains(i)).collect();
        assert_eq!(got, want, "{what}");
        got.iter().filter(|&&b| b).count()
    };
    let mut inside = 0;
    for t in 0..60u32 {
        let who = t % 6;
        let to = if t % 4 < 2 {
            Vec2::new(15.0, 15.0)
        } else {
            Vec2::new(50.0, 50.0)
        };
        s.change(|p, w, out| lifecycle::teleport(p, w, who, to, out));
        inside += check(&s, &format!("teleport {t}"));
        if t == 30 {
            s.change(|p, w, out| lifecycle::die(p, w, who, who, out));
            check(&s, "death");
        }
        s.step();
        check(&s, &format!("tick {t}"));
    }
    assert!(inside > 30, "NPCs stood in the area only {inside} times");
}
