//! Semantics of every node kind, run through a real session (one NPC, one tree).

use super::{NodeCount, Status};
use crate::program::load_str;
use crate::session::Session;
use crate::value::Value;

/// A session of one NPC `npc` running tree `t` with the given root node and blackboard.
fn session_seeded(root: &str, blackboard: &str, extra_trees: &str, seed: u64) -> Session {
    let text = format!(
        r#"{{"format": "townsfolk-pack", "version": 1, "name": "test",
        "world": {{"dt": 0.1, "clock": {{"start_hour": 12}},
          "bounds": {{"min": [-10, -10], "max": [100, 100]}},
          "objects": [{{"id": "rock", "pos": [5, 0], "radius": 0}}],
          "npcs": [{{"id": "npc", "pos": [0, 0], "speed": 10, "tree": "t", "tags": ["hero"]}},
                   {{"id": "other", "pos": [50, 50], "speed": 0, "tree": "idle"}}]}},
        "areas": [{{"id": "zone", "shape": {{"rect": {{"min": [-1, -1], "max": [1, 1]}}}}}},
                  {{"id": "yard", "shape": {{"rect": {{"min": [20, -4], "max": [30, 4]}}}}}}],
        "trees": [{{"id": "t", "blackboard": {{{blackboard}}}, "root": {root}}},
                  {{"id": "idle", "root": {{"id": "i", "type": "wait", "seconds": 1000}}}}
                  {extra_trees}]}}"#
    );
    let loaded = load_str(&text);
    let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}\n{text}");
    let pack = loaded.pack.expect("pack");
    Session::from_pack(&pack, seed).expect("session")
}

/// [`session`] with a visit budget of `budget` per tick instead of the default.
pub(super) fn session_with_budget(root: &str, blackboard: &str, budget: u32) -> Session {
    let s = session(root, blackboard);
    let mut program = (**s.program()).clone();
    program.visit_budget = budget;
    Session::new(std::sync::Arc::new(program), 1)
}

fn session(root: &str, blackboard: &str) -> Session {
    session_seeded(root, blackboard, "", 1)
}

pub(super) fn status(s: &Session, id: &str) -> Status {
    let p = s.program();
    let tree = &p.trees[0];
    let sym = p.find_sym(id).expect("node id");
    let k = tree.find(0, sym).expect("node");
    s.world().minds.mind(0).status[k]
}

pub(super) fn var(s: &Session, name: &str) -> Value {
    let slot = s.program().blackboard.get(name).expect("var") as usize;
    s.world().minds.bb(0)[slot]
}

pub(super) fn set(s: &mut Session, name: &str, v: Value) {
    let slot = s.program().blackboard.get(name).expect("var") as usize;
    s.set_var(0, slot, v);
}

fn counter(s: &Session, name: &str) -> i64 {
    let slot = s.program().counters.get(name).expect("counter") as usize;
    s.world().counters[slot]
}

/// Whether a tree was cut off for spending its visit budget.
pub(super) fn cut_off(s: &Session) -> bool {
    s.problems().iter().any(|p| p.contains("cut off"))
}

fn root_status(s: &Session) -> Status {
    s.world().last_status(0)
}

pub(super) const AB: &str =
    r#""a": {"type": "bool", "default": true}, "b": {"type": "bool"}, "x": {"type": "int"}"#;

#[test]
fn memory_sequence_resumes_without_rechecking() {
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "children": [
            {"id": "c", "type": "condition", "expr": "a"},
            {"id": "w", "type": "wait", "seconds": 0.3},
            {"id": "done", "type": "set", "var": "x", "value": "x + 1"}]}"#,
        AB,
    );
    s.step();
    assert_eq!(status(&s, "w"), Status::Running);
    set(&mut s, "a", Value::Bool(false));
    s.run(3);
    // `a` turned false, but a memory sequence does not re-check finished children.
    assert_eq!(var(&s, "x"), Value::Int(1));
    assert_eq!(status(&s, "seq"), Status::Success);
    s.step();
    assert_eq!(
        status(&s, "seq"),
        Status::Failure,
        "restarts from the first child"
    );
}

#[test]
fn reactive_sequence_halts_running_child_when_condition_fails() {
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
            {"id": "c", "type": "condition", "expr": "a"},
            {"id": "w", "type": "wait", "seconds": 100}]}"#,
        AB,
    );
    s.run(5);
    assert_eq!(status(&s, "w"), Status::Running);
    set(&mut s, "a", Value::Bool(false));
    s.step();
    assert_eq!(status(&s, "c"), Status::Failure);
    assert_eq!(status(&s, "w"), Status::Idle, "halted and reset");
    assert_eq!(s.world().minds.mind(0).state[2], 0, "wait timer cleared");
    set(&mut s, "a", Value::Bool(true));
    s.step();
    assert_eq!(status(&s, "w"), Status::Running, "starts over");
}

#[test]
fn reactive_sequence_halts_a_later_child_when_an_earlier_one_runs_again() {
    // `first` succeeds while `b` holds, else runs its wait: once it runs again, the wait
    // after it that was running is halted.
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
            {"id": "first", "type": "selector", "reactive": true, "children": [
                {"id": "c", "type": "condition", "expr": "b"},
                {"id": "w1", "type": "wait", "seconds": 100}]},
            {"id": "w2", "type": "wait", "seconds": 100}]}"#,
        AB,
    );
    set(&mut s, "b", Value::Bool(true));
    s.run(3);
    assert_eq!(status(&s, "w2"), Status::Running);
    set(&mut s, "b", Value::Bool(false));
    s.step();
    assert_eq!(status(&s, "w1"), Status::Running);
    assert_eq!(status(&s, "w2"), Status::Idle, "halted and reset");
    assert_eq!(root_status(&s), Status::Running);
}

#[test]
fn reactive_selector_preempts_lower_priority_branch() {
    let mut s = session(
        r#"{"id": "sel", "type": "selector", "reactive": true, "children": [
            {"id": "urgent", "type": "sequence", "children": [
                {"id": "b_set", "type": "condition", "expr": "b"},
                {"id": "react", "type": "wait", "seconds": 100}]},
            {"id": "walk", "type": "move_to", "target": {"point": [40, 0]}}]}"#,
        AB,
    );
    s.run(3);
    assert_eq!(status(&s, "walk"), Status::Running);
    assert!(s.world().target(0).is_some());
    set(&mut s, "b", Value::Bool(true));
    s.step();
    assert_eq!(status(&s, "react"), Status::Running);
    assert_eq!(status(&s, "walk"), Status::Idle);
    assert!(
        s.world().target(0).is_none(),
        "halting move_to stops walking"
    );
}

#[test]
fn memory_selector_tries_children_in_order() {
    let mut s = session(
        r#"{"id": "sel", "type": "selector", "children": [
            {"id": "no", "type": "condition", "expr": "b"},
            {"id": "w", "type": "wait", "seconds": 0.2},
            {"id": "never", "type": "set", "var": "x", "value": "99"}]}"#,
        AB,
    );
    s.step();
    assert_eq!(status(&s, "no"), Status::Failure);
    assert_eq!(status(&s, "w"), Status::Running);
    s.run(2);
    assert_eq!(status(&s, "sel"), Status::Success);
    assert_eq!(var(&s, "x"), Value::Int(0));
}

#[test]
fn parallel_thresholds() {
    let mut s = session(
        r#"{"id": "par", "type": "parallel", "success_threshold": 1, "children": [
            {"id": "short", "type": "wait", "seconds": 0.2},
            {"id": "long", "type": "wait", "seconds": 100}]}"#,
        AB,
    );
    s.step();
    assert_eq!(status(&s, "par"), Status::Running);
    s.run(2);
    assert_eq!(status(&s, "par"), Status::Success);
    assert_eq!(
        status(&s, "long"),
        Status::Idle,
        "the other child is halted"
    );

    let mut s = session(
        r#"{"id": "par", "type": "parallel", "children": [
            {"id": "ok", "type": "wait", "seconds": 0.1},
            {"id": "bad", "type": "condition", "expr": "b"}]}"#,
        AB,
    );
    s.step();
    assert_eq!(
        status(&s, "par"),
        Status::Failure,
        "default failure threshold is 1"
    );
}

#[test]
fn random_selector_follows_weights_and_seed() {
    let tree = r#"{"id": "rs", "type": "random_selector", "weights": [3, 1, 0], "children": [
        {"id": "a1", "type": "set", "var": "counters.a", "value": "counters.a + 1"},
        {"id": "b1", "type": "set", "var": "counters.b", "value": "counters.b + 1"},
        {"id": "z1", "type": "set", "var": "counters.z", "value": "1"}]}"#;
    let run = |seed| {
        let mut s = session_seeded(tree, "", "", seed);
        s.run(4000);
        (counter(&s, "a"), counter(&s, "b"), counter(&s, "z"))
    };
    let (a, b, z) = run(11);
    assert_eq!(a + b, 4000);
    assert_eq!(z, 0, "zero weight is never picked");
    let share = a as f64 / 4000.0;
    assert!(
        (share - 0.75).abs() < 0.03,
        "share of weight 3 of 4: {share}"
    );
    assert_eq!(run(11), (a, b, z), "same seed, same choices");
    assert_ne!(run(12), (a, b, z), "another seed, other choices");
}

#[test]
fn random_selector_falls_back_to_remaining_children() {
    let mut s = session(
        r#"{"id": "rs", "type": "random_selector", "weights": [1, 1], "children": [
            {"id": "f", "type": "condition", "expr": "b"},
            {"id": "ok", "type": "set", "var": "counters.ok", "value": "counters.ok + 1"}]}"#,
        AB,
    );
    s.run(100);
    assert_eq!(
        counter(&s, "ok"),
        100,
        "when the first pick fails it tries the other"
    );
    set(&mut s, "b", Value::Bool(false));
    let mut s = session(
        r#"{"id": "rs", "type": "random_selector", "children": [
            {"id": "f1", "type": "condition", "expr": "b"},
            {"id": "f2", "type": "condition", "expr": "!a"}]}"#,
        AB,
    );
    s.step();
    assert_eq!(root_status(&s), Status::Failure, "fails when all failed");
}

#[test]
fn decorators_invert_and_force() {
    for (kind, cond, want) in [
        ("inverter", "a", Status::Failure),
        ("inverter", "b", Status::Success),
        ("force_success", "b", Status::Success),
        ("force_failure", "a", Status::Failure),
    ] {
        let mut s = session(
            &format!(
                r#"{{"id": "d", "type": "{kind}", "children": [{{"id": "c", "type": "condition", "expr": "{cond}"}}]}}"#
            ),
            AB,
        );
        s.step();
        assert_eq!(root_status(&s), want, "{kind} over {cond}");
    }
    let mut s = session(
        r#"{"id": "d", "type": "inverter", "children": [{"id": "w", "type": "wait", "seconds": 1}]}"#,
        AB,
    );
    s.step();
    assert_eq!(root_status(&s), Status::Running, "running passes through");
}

#[test]
fn repeat_counts_within_a_tick_and_across_running_children() {
    let mut s = session(
        r#"{"id": "r", "type": "repeat", "times": 3, "children": [
            {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]}"#,
        AB,
    );
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(3));
    assert_eq!(root_status(&s), Status::Success);

    let mut s = session(
        r#"{"id": "r", "type": "repeat", "times": 2, "children": [
            {"id": "seq", "type": "sequence", "children": [
                {"id": "w", "type": "wait", "seconds": 0.2},
                {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]}]}"#,
        AB,
    );
    s.run(2);
    assert_eq!(var(&s, "x"), Value::Int(0));
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(1));
    assert_eq!(root_status(&s), Status::Running);
    s.run(2);
    assert_eq!(var(&s, "x"), Value::Int(2));
    assert_eq!(root_status(&s), Status::Success);
}

#[test]
fn retry_reruns_failing_child() {
    let mut s = session(
        r#"{"id": "r", "type": "retry", "times": 3, "children": [
            {"id": "seq", "type": "sequence", "children": [
                {"id": "inc", "type": "set", "var": "x", "value": "x + 1"},
                {"id": "ok", "type": "condition", "expr": "x >= 2"}]}]}"#,
        AB,
    );
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(2), "second attempt succeeds");
    assert_eq!(root_status(&s), Status::Success);

    let mut s = session(
        r#"{"id": "r", "type": "retry", "times": 3, "children": [
            {"id": "seq", "type": "sequence", "children": [
                {"id": "inc", "type": "set", "var": "x", "value": "x + 1"},
                {"id": "never", "type": "condition", "expr": "b"}]}]}"#,
        AB,
    );
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(3), "three attempts in all");
    assert_eq!(root_status(&s), Status::Failure);
}

#[test]
fn timeout_fails_and_halts_slow_child() {
    let mut s = session(
        r#"{"id": "t", "type": "timeout", "seconds": 0.5, "children": [
            {"id": "walk", "type": "move_to", "target": {"point": [1000, 0]}}]}"#,
        AB,
    );
    s.run(5);
    assert_eq!(root_status(&s), Status::Running);
    s.step();
    assert_eq!(root_status(&s), Status::Failure);
    assert_eq!(status(&s, "walk"), Status::Idle);
    assert!(s.world().target(0).is_none());
}

#[test]
fn cooldown_blocks_reruns_for_its_duration() {
    let mut s = session(
        r#"{"id": "cd", "type": "cooldown", "seconds": 1, "children": [
            {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]}"#,
        AB,
    );
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(1));
    s.run(9);
    assert_eq!(var(&s, "x"), Value::Int(1), "blocked for 10 ticks");
    assert_eq!(root_status(&s), Status::Failure);
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(2));
    s.run(25);
    assert_eq!(var(&s, "x"), Value::Int(4), "once every 10 ticks");
}

#[test]
fn guard_halts_child_when_condition_turns_false() {
    let mut s = session(
        r#"{"id": "g", "type": "guard", "condition": "a && x < 5", "children": [
            {"id": "w", "type": "wait", "seconds": 100}]}"#,
        AB,
    );
    s.run(3);
    assert_eq!(status(&s, "w"), Status::Running);
    set(&mut s, "x", Value::Int(7));
    s.step();
    assert_eq!(root_status(&s), Status::Failure);
    assert_eq!(status(&s, "w"), Status::Idle);
}

#[test]
fn leaf_conditions() {
    // start_hour 12: the window 11-13 holds, 22-6 (wrapping) does not.
    let mut s = session(
        r#"{"id": "all", "type": "sequence", "children": [
            {"id": "noon", "type": "time_window", "from_hour": 11, "to_hour": 13},
            {"id": "night", "type": "inverter", "children": [
                {"id": "n", "type": "time_window", "from_hour": 22, "to_hour": 6}]},
            {"id": "inside", "type": "in_area", "area": "zone"},
            {"id": "expr", "type": "condition", "expr": "hour() >= 12 && distance(self, entity(\"rock\")) == 5.0"},
            {"id": "tagged", "type": "condition", "expr": "has_tag(\"hero\") && !has_tag(\"villain\")"},
            {"id": "never", "type": "chance", "probability": 0},
            {"id": "after", "type": "set", "var": "x", "value": "1"}]}"#,
        AB,
    );
    s.step();
    assert_eq!(status(&s, "noon"), Status::Success);
    assert_eq!(status(&s, "night"), Status::Success);
    assert_eq!(status(&s, "inside"), Status::Success);
    assert_eq!(status(&s, "expr"), Status::Success);
    assert_eq!(status(&s, "tagged"), Status::Success);
    assert_eq!(status(&s, "never"), Status::Failure);
    assert_eq!(var(&s, "x"), Value::Int(0));
}

#[test]
fn conditions_in_a_row_give_each_its_own_result() {
    // Runs of conditions (visited in their parent's loop), blackboard tests and other
    // expressions mixed, lone ones, and one under an inverter: every status is what its
    // expression says, for every combination of the variables.
    let mut seq = session(
        r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
            {"id": "s_a", "type": "condition", "expr": "a"},
            {"id": "s_nb", "type": "condition", "expr": "!b"},
            {"id": "s_x", "type": "condition", "expr": "x > 2"},
            {"id": "s_sum", "type": "condition", "expr": "x + 1 > 4"},
            {"id": "s_lt", "type": "condition", "expr": "x < 9"},
            {"id": "s_w", "type": "wait", "seconds": 100}]}"#,
        AB,
    );
    let mut sel = session(
        r#"{"id": "sel", "type": "selector", "reactive": true, "children": [
            {"id": "l_b", "type": "condition", "expr": "b"},
            {"id": "l_x", "type": "condition", "expr": "x >= 5.5"},
            {"id": "l_inv", "type": "inverter", "children": [
                {"id": "l_a", "type": "condition", "expr": "a"}]},
            {"id": "l_c", "type": "condition", "expr": "x == 0"},
            {"id": "l_w", "type": "wait", "seconds": 100}]}"#,
        AB,
    );
    let of = |b: bool| if b { Status::Success } else { Status::Failure };
    for step in 0..24 {
        let (a, b, x) = (step % 2 == 0, step % 3 == 0, (step % 12) as i64 - 1);
        for s in [&mut seq, &mut sel] {
            set(s, "a", Value::Bool(a));
            set(s, "b", Value::Bool(b));
            set(s, "x", Value::Int(x));
            s.step();
        }
        let at = format!("at a={a} b={b} x={x}");
        let conditions = [
            ("s_a", a),
            ("s_nb", !b),
            ("s_x", x > 2),
            ("s_sum", x + 1 > 4),
        ];
        let mut passed = true;
        for (id, holds) in conditions.into_iter().chain([("s_lt", x < 9)]) {
            if passed {
                assert_eq!(status(&seq, id), of(holds), "{id} {at}");
            }
            passed &= holds;
        }
        let want = if passed {
            Status::Running
        } else {
            Status::Failure
        };
        assert_eq!(status(&seq, "seq"), want, "seq {at}");
        let conditions = [
            ("l_b", b),
            ("l_x", x as f64 >= 5.5),
            ("l_inv", !a),
            ("l_c", x == 0),
        ];
        let mut failed = true;
        for (id, holds) in conditions {
            if failed {
                assert_eq!(status(&sel, id), of(holds), "{id} {at}");
            }
            failed &= !holds;
        }
        let want = if failed {
            Status::Running
        } else {
            Status::Success
        };
        assert_eq!(status(&sel, "sel"), want, "sel {at}");
        if !b && x < 6 {
            assert_eq!(status(&sel, "l_a"), of(a), "l_a {at}");
        }
    }
}

/// Ticks `root` (blackboard [`AB`], `setup` first) once with a visit budget of `needed` and
/// once with each of `short`: only the ticks with a budget of `short` are cut off; `check`
/// sees the session of the tick with `needed`.
fn needs_visits(
    root: &str,
    needed: u32,
    short: &[u32],
    setup: impl Fn(&mut Session),
    check: impl Fn(&Session),
) {
    for &budget in std::iter::once(&needed).chain(short) {
        let mut s = session_with_budget(root, AB, budget);
        setup(&mut s);
        s.step();
        let cut = budget != needed;
        assert_eq!(cut_off(&s), cut, "budget {budget}: {:?}", s.problems());
        if !cut {
            check(&s);
        }
    }
}

#[test]
fn conditions_in_a_row_spend_one_visit_each() {
    // The root, six conditions in a row (blackboard tests and one other expression,
    // visited in the parent's loop), the wait: 8 visits a tick. A budget of 8 lets the
    // tick through; 7 cuts it off at the wait, 6 at the last condition.
    let root = r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
        {"id": "c1", "type": "condition", "expr": "a"},
        {"id": "c2", "type": "condition", "expr": "!b"},
        {"id": "c3", "type": "condition", "expr": "x + 1 > 0"},
        {"id": "c4", "type": "condition", "expr": "x >= 0"},
        {"id": "c5", "type": "condition", "expr": "a"},
        {"id": "c6", "type": "condition", "expr": "!b"},
        {"id": "w", "type": "wait", "seconds": 100}]}"#;
    let a = |s: &mut Session| set(s, "a", Value::Bool(true));
    needs_visits(root, 8, &[7, 6, 2], a, |s| {
        assert_eq!(root_status(s), Status::Running);
        assert_eq!(status(s, "c6"), Status::Success);
    });
}

#[test]
fn a_guarded_sequence_spends_two_visits_when_its_guard_fails() {
    // The root, the sequence and its failing guard (decided in the root's loop), the wait:
    // 4 visits a tick. A budget of 4 lets the tick through, 3 cuts it off.
    let root = r#"{"id": "sel", "type": "selector", "reactive": true, "children": [
        {"id": "g", "type": "sequence", "reactive": true, "children": [
            {"id": "guard", "type": "condition", "expr": "b"},
            {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]},
        {"id": "w", "type": "wait", "seconds": 100}]}"#;
    needs_visits(
        root,
        4,
        &[3, 2],
        |_| {},
        |s| {
            assert_eq!(status(s, "guard"), Status::Failure);
            assert_eq!(status(s, "g"), Status::Failure);
            assert_eq!(root_status(s), Status::Running);
        },
    );
}

#[test]
fn a_sequence_guarded_by_a_selector_of_conditions_spends_a_visit_for_each_when_none_holds() {
    // The root, the sequence, its guard (a selector of three conditions, none holding:
    // decided in the root's loop) and the wait: 7 visits a tick. A budget of 7 lets the
    // tick through, 6 and less cut it off (the sequence is then left to a full visit).
    // With one condition holding, the sequence runs: its guard's statuses are the full
    // visit's.
    let root = r#"{"id": "sel", "type": "selector", "reactive": true, "children": [
        {"id": "g", "type": "sequence", "children": [
            {"id": "any", "type": "selector", "reactive": true, "children": [
                {"id": "c1", "type": "condition", "expr": "b"},
                {"id": "c2", "type": "condition", "expr": "x > 2"},
                {"id": "c3", "type": "condition", "expr": "!a"}]},
            {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]},
        {"id": "w", "type": "wait", "seconds": 100}]}"#;
    needs_visits(
        root,
        7,
        &[6, 5, 2],
        |_| {},
        |s| {
            for id in ["c1", "c2", "c3", "any", "g"] {
                assert_eq!(status(s, id), Status::Failure, "{id}");
            }
            assert_eq!(root_status(s), Status::Running);
            assert_eq!(var(s, "x"), Value::Int(0));
        },
    );
    let mut s = session_with_budget(root, AB, 100);
    set(&mut s, "x", Value::Int(3));
    s.step();
    assert_eq!(status(&s, "c1"), Status::Failure);
    assert_eq!(status(&s, "c2"), Status::Success);
    assert_eq!(status(&s, "c3"), Status::Idle, "not reached");
    assert_eq!(status(&s, "any"), Status::Success);
    assert_eq!(status(&s, "g"), Status::Success);
    assert_eq!(var(&s, "x"), Value::Int(4));
}

#[test]
fn a_running_sequence_guarded_by_a_selector_of_conditions_is_visited_in_full() {
    // Once the guarded sequence runs its wait, its guard failing decides nothing early: a
    // memory sequence goes on with the wait without checking the guard again, a reactive
    // one checks it and halts the wait.
    for (reactive, running) in [(false, Status::Running), (true, Status::Idle)] {
        let root = format!(
            r#"{{"id": "sel", "type": "selector", "reactive": true, "children": [
                {{"id": "g", "type": "sequence", "reactive": {reactive}, "children": [
                    {{"id": "any", "type": "selector", "children": [
                        {{"id": "c1", "type": "condition", "expr": "b"}},
                        {{"id": "c2", "type": "condition", "expr": "x > 2"}}]}},
                    {{"id": "w", "type": "wait", "seconds": 100}}]}},
                {{"id": "idle", "type": "wait", "seconds": 100}}]}}"#
        );
        let mut s = session(&root, AB);
        set(&mut s, "b", Value::Bool(true));
        s.run(2);
        assert_eq!(status(&s, "w"), Status::Running, "reactive {reactive}");
        set(&mut s, "b", Value::Bool(false));
        s.step();
        assert_eq!(status(&s, "w"), running, "reactive {reactive}");
        let g = if reactive {
            Status::Failure
        } else {
            Status::Running
        };
        assert_eq!(status(&s, "g"), g, "reactive {reactive}");
    }
}

#[test]
fn guarded_sequences_in_a_row_spend_two_visits_each() {
    // The root, two sequences and their failing guards (each decided in the root's loop),
    // the wait: 6 visits a tick. A budget of 6 lets the tick through, 5 cuts it off at the
    // wait, 4 at the second guard (that sequence is left to a full visit).
    let root = r#"{"id": "sel", "type": "selector", "reactive": true, "children": [
        {"id": "g1", "type": "sequence", "reactive": true, "children": [
            {"id": "guard1", "type": "condition", "expr": "b"},
            {"id": "inc1", "type": "set", "var": "x", "value": "x + 1"}]},
        {"id": "g2", "type": "sequence", "children": [
            {"id": "guard2", "type": "condition", "expr": "b"},
            {"id": "inc2", "type": "set", "var": "x", "value": "x + 1"}]},
        {"id": "w", "type": "wait", "seconds": 100}]}"#;
    needs_visits(
        root,
        6,
        &[5, 4, 3],
        |_| {},
        |s| {
            for id in ["guard1", "g1", "guard2", "g2"] {
                assert_eq!(status(s, id), Status::Failure, "{id}");
            }
            assert_eq!(root_status(s), Status::Running);
        },
    );
}

#[test]
fn actions_in_the_parents_loop_spend_one_visit_each() {
    // The root, two sets and a decorator's set (visited in their parents' loops), the
    // decorator, the wait: 6 visits a tick. A budget of 6 lets the tick through and counts
    // to 2; 5 cuts it off at the wait (after both sets), 3 at the decorator.
    let root = r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
        {"id": "s1", "type": "set", "var": "x", "value": "x + 1"},
        {"id": "s2", "type": "set", "var": "x", "value": "x + 1"},
        {"id": "fs", "type": "force_success", "children": [
            {"id": "s3", "type": "set", "var": "y", "value": "y + 1"}]},
        {"id": "w", "type": "wait", "seconds": 100}]}"#;
    let board = format!(r#"{AB}, "y": {{"type": "int"}}"#);
    for (budget, cut, x, y) in [(6, false, 2, 1), (5, true, 2, 1), (3, true, 2, 0)] {
        let mut s = session_with_budget(root, &board, budget);
        s.step();
        assert_eq!(cut_off(&s), cut, "budget {budget}: {:?}", s.problems());
        assert_eq!(var(&s, "x"), Value::Int(x), "budget {budget}");
        assert_eq!(var(&s, "y"), Value::Int(y), "budget {budget}");
        if !cut {
            assert_eq!(root_status(&s), Status::Running, "budget {budget}");
            assert_eq!(status(&s, "s3"), Status::Success, "budget {budget}");
        }
    }
}

/// A tree whose children are visited in their parents' loops while the host hears nothing:
/// guarded sequences in a row with board and host guards, a memory sequence among them, a
/// condition then a guarded sequence in a sequence, a run of conditions, a sequence guarded
/// by a selector of conditions; an action and a guarded sequence under a decorator. Its node
/// ids are [`LOOP_IDS`]; [`loop_step`] drives it.
const LOOP_TREE: &str = r#"{"id": "root", "type": "selector", "reactive": true, "children": [
        {"id": "note", "type": "force_failure", "children": [
            {"id": "n_seq", "type": "sequence", "children": [
                {"id": "n_g", "type": "condition", "expr": "b"},
                {"id": "n_set", "type": "set", "var": "y", "value": "5"}]}]},
        {"id": "flee", "type": "sequence", "reactive": true, "children": [
            {"id": "f_g", "type": "condition", "expr": "x > 8"},
            {"id": "f_set", "type": "set", "var": "y", "value": "1"},
            {"id": "f_w", "type": "wait", "seconds": 0.3}]},
        {"id": "eat", "type": "sequence", "children": [
            {"id": "e_g", "type": "condition", "expr": "a"},
            {"id": "e_g2", "type": "condition", "expr": "!b"},
            {"id": "e_set", "type": "set", "var": "y", "value": "2"},
            {"id": "e_w", "type": "wait", "seconds": 0.2}]},
        {"id": "work", "type": "sequence", "reactive": true, "children": [
            {"id": "w_g", "type": "condition", "expr": "x + 1 > 3"},
            {"id": "w_inv", "type": "inverter", "children": [
                {"id": "w_c", "type": "condition", "expr": "b"}]},
            {"id": "w_set", "type": "set", "var": "y", "value": "3"},
            {"id": "w_w", "type": "wait", "seconds": 0.5}]},
        {"id": "pair", "type": "sequence", "reactive": true, "children": [
            {"id": "p_c", "type": "condition", "expr": "a"},
            {"id": "p_seq", "type": "sequence", "reactive": true, "children": [
                {"id": "p_g", "type": "condition", "expr": "x < 6"},
                {"id": "p_set", "type": "set", "var": "y", "value": "6"},
                {"id": "p_w", "type": "wait", "seconds": 0.1}]}]},
        {"id": "night", "type": "sequence", "reactive": true, "children": [
            {"id": "q_any", "type": "selector", "children": [
                {"id": "q_1", "type": "condition", "expr": "x >= 9"},
                {"id": "q_2", "type": "condition", "expr": "b && x < 3"}]},
            {"id": "q_set", "type": "set", "var": "y", "value": "7"},
            {"id": "q_w", "type": "wait", "seconds": 0.2}]},
        {"id": "idle", "type": "sequence", "reactive": true, "children": [
            {"id": "i_fs", "type": "force_success", "children": [
                {"id": "i_set", "type": "set", "var": "y", "value": "4"}]},
            {"id": "i_w", "type": "wait", "seconds": 100}]}]}"#;

const LOOP_IDS: [&str; 36] = [
    "root", "note", "n_seq", "n_g", "n_set", "flee", "f_g", "f_set", "f_w", "eat", "e_g", "e_g2",
    "e_set", "e_w", "work", "w_g", "w_inv", "w_c", "w_set", "w_w", "pair", "p_c", "p_seq", "p_g",
    "p_set", "p_w", "night", "q_any", "q_1", "q_2", "q_set", "q_w", "idle", "i_fs", "i_set", "i_w",
];

/// Two sessions of [`LOOP_TREE`], counting or not: one whose host hears nothing (its
/// children visited in their parents' loops), one traced (every node visited in full).
fn loop_sessions(counting: bool) -> [Session; 2] {
    let board = format!(r#"{AB}, "y": {{"type": "int"}}"#);
    let [mut fast, mut full] = [0; 2].map(|_| session(LOOP_TREE, &board));
    full.set_tracing(true);
    for s in [&mut fast, &mut full] {
        s.set_counting(counting);
    }
    [fast, full]
}

/// Ticks both sessions with the inputs of [`LOOP_TREE`] at `step` (every combination over
/// time), which it returns: `a`, `b`, `x`.
fn loop_step(sessions: &mut [Session; 2], step: u32) -> (bool, bool, i64) {
    let (a, b, x) = (step % 5 < 3, step.is_multiple_of(7), (step * 7 % 11) as i64);
    for s in sessions {
        set(s, "a", Value::Bool(a));
        set(s, "b", Value::Bool(b));
        set(s, "x", Value::Int(x));
        s.step();
        s.clear_trace();
    }
    (a, b, x)
}

#[test]
fn visits_in_the_parents_loop_change_nothing_a_full_visit_would_not() {
    // While nothing observes, the conditions, actions and guarded sequences of `LOOP_TREE`
    // are visited in their parents' loops; a traced session visits every node in full. Both
    // play the same ticks: same statuses, same world, for every combination of the inputs
    // over time.
    let mut sessions = loop_sessions(false);
    for step in 0..120 {
        let (a, b, x) = loop_step(&mut sessions, step);
        let [fast, full] = &sessions;
        for id in LOOP_IDS {
            assert_eq!(
                status(fast, id),
                status(full, id),
                "{id} at step {step} (a={a} b={b} x={x})"
            );
        }
        assert_eq!(var(fast, "y"), var(full, "y"), "y at step {step}");
        assert_eq!(fast.hash(), full.hash(), "world at step {step}");
    }
}

#[test]
fn visits_in_the_parents_loop_are_counted_as_full_visits_are() {
    // Counting coverage, the host hears nothing: conditions, actions and guarded sequences
    // are visited (and counted) in their parents' loops; counting and tracing, every node is
    // visited in full. Every node's visits, by result, are the same.
    let mut sessions = loop_sessions(true);
    for step in 0..120 {
        loop_step(&mut sessions, step);
    }
    let [fast, full] = &sessions;
    let (Some(a), Some(b)) = (fast.counters(), full.counters()) else {
        panic!("both sessions count");
    };
    let p = fast.program();
    let mut visits = 0;
    for t in 0..p.trees.len() as u32 {
        for (n, (x, y)) in a.tree(t).iter().zip(b.tree(t)).enumerate() {
            let by = |c: &NodeCount| {
                [
                    Status::Idle,
                    Status::Running,
                    Status::Success,
                    Status::Failure,
                ]
                .map(|s| c.results(s))
            };
            assert_eq!(by(x), by(y), "tree {t} node {n}");
            visits += x.runs();
        }
    }
    assert!(visits > 120 * 10, "the tree ran ({visits} visits)");
}

#[test]
fn a_condition_failing_in_a_run_halts_the_running_child_after_it() {
    // Two conditions in a row guard a wait: once the wait runs, the second condition
    // failing (the run stops at it) must halt the wait, as a lone condition would.
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
            {"id": "c1", "type": "condition", "expr": "a"},
            {"id": "c2", "type": "condition", "expr": "!b"},
            {"id": "w", "type": "wait", "seconds": 100}]}"#,
        AB,
    );
    s.step();
    assert_eq!(status(&s, "w"), Status::Running);
    set(&mut s, "b", Value::Bool(true));
    s.step();
    assert_eq!(status(&s, "c2"), Status::Failure);
    assert_eq!(status(&s, "w"), Status::Idle, "the wait is halted");
    assert_eq!(root_status(&s), Status::Failure);
}

#[test]
fn chance_matches_its_probability() {
    let mut s = session(
        r#"{"id": "sel", "type": "sequence", "children": [
            {"id": "c", "type": "chance", "probability": 0.25},
            {"id": "inc", "type": "set", "var": "counters.hits", "value": "counters.hits + 1"}]}"#,
        "",
    );
    s.run(4000);
    let share = counter(&s, "hits") as f64 / 4000.0;
    assert!((share - 0.25).abs() < 0.03, "{share}");
}

#[test]
fn move_to_walks_and_arrives() {
    let mut s = session(
        r#"{"id": "m", "type": "move_to", "target": {"point": [3, 4]}, "tolerance": 0.1}"#,
        "",
    );
    s.step();
    assert_eq!(root_status(&s), Status::Running);
    let p = s.world().pos[0];
    assert!(
        (p.length() - 1.0).abs() < 1e-9,
        "speed 10 * dt 0.1 = 1 unit: {p:?}"
    );
    s.run(5);
    assert_eq!(root_status(&s), Status::Success);
    assert!(s.world().pos[0].distance(crate::value::Vec2::new(3.0, 4.0)) < 0.1);
}

#[test]
fn wait_counts_ticks() {
    let mut s = session(r#"{"id": "w", "type": "wait", "seconds": 0.5}"#, "");
    s.run(5);
    assert_eq!(root_status(&s), Status::Running);
    s.step();
    assert_eq!(root_status(&s), Status::Success);
}

/// The same for the `talk` inbox, which the conversation layer keeps apart
/// (`TalkState::post`): to a tree it is an inbox like any other.
#[test]
fn messages_are_delivered_next_tick_and_received_once() {
    for inbox in ["mail", "talk"] {
        let mut s = session(
            &r#"{"id": "seq", "type": "sequence", "children": [
            {"id": "send", "type": "send_message", "to": "self", "inbox": "INBOX", "message": "hello"},
            {"id": "has", "type": "has_message", "inbox": "INBOX", "message": "hello"},
            {"id": "take", "type": "receive", "inbox": "INBOX", "sender_var": "from"},
            {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]}"#
                .replace("INBOX", inbox),
            r#""x": {"type": "int"}, "from": {"type": "entity"}"#,
        );
        s.step();
        assert_eq!(
            status(&s, "has"),
            Status::Failure,
            "{inbox}: not delivered within the tick"
        );
        s.step();
        assert_eq!(var(&s, "x"), Value::Int(1), "{inbox}");
        assert_eq!(
            var(&s, "from"),
            Value::Entity(crate::value::EntityId::Npc(0)),
            "{inbox}"
        );
        let w = s.world();
        let kept = w.talk.talk_inbox(0).count();
        assert_eq!(
            w.npcs[0]
                .inboxes
                .iter()
                .map(|(_, q)| q.len())
                .sum::<usize>()
                + kept,
            1,
            "{inbox}: one taken, one new"
        );
        assert_eq!(
            kept,
            usize::from(inbox == "talk"),
            "{inbox}: where it is kept"
        );
        s.step();
        assert_eq!(var(&s, "x"), Value::Int(2), "{inbox}: taken once each");
    }
}

#[test]
fn set_writes_flags_and_counters_with_trace() {
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "children": [
            {"id": "f", "type": "set", "var": "flags.open", "value": "true"},
            {"id": "c", "type": "set", "var": "counters.n", "value": "counters.n + 2"},
            {"id": "l", "type": "log", "text": "hi"},
            {"id": "s", "type": "say", "text": "Hello", "seconds": 0.1}]}"#,
        "",
    );
    s.set_tracing(true);
    s.step();
    // (What tick 1 did: the areas entered at tick 0 aside.)
    let kinds: Vec<String> = s
        .trace()
        .iter()
        .filter(|e| e.tick() == 1)
        .map(|e| s.trace_json(e))
        .filter(|j| !j.contains("\"status\""))
        .collect();
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    assert!(kinds[0].contains(r#""kind":"flag""#) && kinds[0].contains(r#""value":true"#));
    assert!(kinds[1].contains(r#""kind":"counter""#) && kinds[1].contains(r#""value":2"#));
    assert!(kinds[2].contains(r#""kind":"log""#));
    assert!(kinds[3].contains(r#""kind":"say""#));
    assert_eq!(s.world().npcs[0].show.map(|(say, _)| say), Some(true));
    s.step();
    assert_eq!(s.world().npcs[0].show, None, "speech ends");
}

#[test]
fn subtree_runs_shared_definition_and_reports_origin() {
    let mut s = session_seeded(
        r#"{"id": "root", "type": "subtree", "tree": "helper"}"#,
        AB,
        r#", {"id": "helper", "root": {"id": "inner", "type": "set", "var": "x", "value": "x + 5"}}"#,
        1,
    );
    s.set_tracing(true);
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(5));
    let lines: Vec<String> = s.trace().iter().map(|e| s.trace_json(e)).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains(r#""tree":"helper","node":"inner""#)),
        "{lines:?}"
    );
}

#[test]
fn request_outside_any_area_fails() {
    let mut s = session(r#"{"id": "r", "type": "request"}"#, "");
    s.step();
    assert_eq!(root_status(&s), Status::Failure);
}

#[test]
fn disabled_nodes_are_skipped() {
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "children": [
            {"id": "off", "type": "condition", "expr": "b", "disabled": true},
            {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]}"#,
        AB,
    );
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(1));
    let p = s.program();
    assert!(
        p.find_sym("off").is_none()
            || p.trees[0]
                .find(0, p.find_sym("off").unwrap_or_default())
                .is_none()
    );
}

#[test]
fn runaway_tree_is_cut_off_not_hung() {
    let mut s = session(
        r#"{"id": "forever", "type": "repeat", "children": [
            {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]}"#,
        AB,
    );
    s.set_tracing(true);
    s.run(2);
    assert_eq!(root_status(&s), Status::Failure);
    assert_eq!(s.problems().len(), 1, "reported once");
    assert!(s.problems()[0].contains("cut off"), "{}", s.problems()[0]);
    assert!(
        s.trace()
            .iter()
            .any(|e| s.trace_json(e).contains("runaway"))
    );
    assert_eq!(status(&s, "forever"), Status::Idle, "the tree is reset");
}

#[test]
fn halted_memory_sequence_restarts_from_first_child() {
    let mut s = session(
        r#"{"id": "sel", "type": "selector", "reactive": true, "children": [
            {"id": "stop", "type": "condition", "expr": "b"},
            {"id": "seq", "type": "sequence", "children": [
                {"id": "one", "type": "set", "var": "x", "value": "x + 1"},
                {"id": "w", "type": "wait", "seconds": 100}]}]}"#,
        AB,
    );
    s.run(3);
    assert_eq!(var(&s, "x"), Value::Int(1));
    set(&mut s, "b", Value::Bool(true));
    s.step();
    set(&mut s, "b", Value::Bool(false));
    s.step();
    assert_eq!(
        var(&s, "x"),
        Value::Int(2),
        "reset by the halt: runs `one` again"
    );
}

#[test]
fn cooldown_keeps_its_clock_across_halts() {
    // The cooldown finishes its child at tick 1; the memory sequence holding it is halted by
    // the reactive one at tick 3 (halting resets everything under it but cooldowns). Let in
    // again at tick 5, the sequence starts over and the cooldown still blocks it until 10
    // ticks after tick 1.
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
            {"id": "c", "type": "condition", "expr": "a"},
            {"id": "inner", "type": "sequence", "children": [
                {"id": "cd", "type": "cooldown", "seconds": 1, "children": [
                    {"id": "inc", "type": "set", "var": "x", "value": "x + 1"}]},
                {"id": "w", "type": "wait", "seconds": 100}]}]}"#,
        AB,
    );
    s.step();
    assert_eq!(var(&s, "x"), Value::Int(1));
    assert_eq!(status(&s, "w"), Status::Running);
    s.step();
    set(&mut s, "a", Value::Bool(false));
    s.run(2);
    assert_eq!(status(&s, "inner"), Status::Idle, "halted");
    assert_eq!(status(&s, "cd"), Status::Idle, "halted");
    set(&mut s, "a", Value::Bool(true));
    s.step();
    assert_eq!(
        status(&s, "cd"),
        Status::Failure,
        "still cooling down after the halt"
    );
    s.run(5);
    assert_eq!(s.tick(), 10);
    assert_eq!(var(&s, "x"), Value::Int(1));
    s.step();
    assert_eq!(
        var(&s, "x"),
        Value::Int(2),
        "free again 10 ticks after tick 1"
    );
    assert_eq!(status(&s, "w"), Status::Running);
}

#[test]
fn parallel_halted_mid_run_resets_and_starts_over() {
    // `inc` succeeds at once and is not re-run while the parallel waits for `w` (needs both);
    // the walk runs beside them. Halted by the reactive sequence: every child stops, the
    // walk ends, and the parallel forgets which children had finished.
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
            {"id": "c", "type": "condition", "expr": "a"},
            {"id": "par", "type": "parallel", "success_threshold": 3, "children": [
                {"id": "inc", "type": "set", "var": "x", "value": "x + 1"},
                {"id": "w", "type": "wait", "seconds": 1},
                {"id": "walk", "type": "move_to", "target": {"point": [90, 0]}}]}]}"#,
        AB,
    );
    s.run(3);
    assert_eq!(
        var(&s, "x"),
        Value::Int(1),
        "a finished child is not re-run"
    );
    assert_eq!(status(&s, "par"), Status::Running);
    assert!(s.world().target(0).is_some());
    set(&mut s, "a", Value::Bool(false));
    s.step();
    for id in ["par", "inc", "w", "walk"] {
        assert_eq!(status(&s, id), Status::Idle, "{id} halted");
    }
    assert!(s.world().target(0).is_none(), "halting stops the walk");
    let stopped_at = s.world().pos[0];
    s.step();
    assert_eq!(s.world().pos[0], stopped_at, "it stays where it stopped");
    set(&mut s, "a", Value::Bool(true));
    s.step();
    assert_eq!(
        var(&s, "x"),
        Value::Int(2),
        "started over: `inc` runs again"
    );
    assert_eq!(status(&s, "w"), Status::Running);
    // The wait starts over too: 10 more ticks, not what was left of the first run.
    s.run(8);
    assert_eq!(status(&s, "w"), Status::Running);
    s.run(2);
    assert_eq!(status(&s, "w"), Status::Success);
    assert_eq!(var(&s, "x"), Value::Int(2));
}

#[test]
fn move_to_an_object_then_an_area() {
    // The rock stands at (5, 0); the yard's centre is (25, 0). Speed 10, dt 0.1: 1 unit a
    // tick.
    let mut s = session(
        r#"{"id": "seq", "type": "sequence", "children": [
            {"id": "to_rock", "type": "move_to", "target": {"object": "rock"}, "tolerance": 0.1},
            {"id": "to_yard", "type": "move_to", "target": {"area": "yard"}, "tolerance": 0.1}]}"#,
        "",
    );
    let at =
        |s: &Session, x: f64| s.world().pos[0].distance(crate::value::Vec2::new(x, 0.0)) < 1e-9;
    s.run(5);
    assert!(at(&s, 5.0), "at the rock: {:?}", s.world().pos[0]);
    assert_eq!(
        status(&s, "to_rock"),
        Status::Running,
        "arrival is seen next tick"
    );
    s.step();
    assert_eq!(status(&s, "to_rock"), Status::Success);
    assert_eq!(status(&s, "to_yard"), Status::Running);
    assert!(
        at(&s, 6.0),
        "on to the yard's centre: {:?}",
        s.world().pos[0]
    );
    s.run(19);
    assert!(at(&s, 25.0), "at the yard's centre: {:?}", s.world().pos[0]);
    assert_eq!(status(&s, "to_yard"), Status::Running);
    s.step();
    assert_eq!(root_status(&s), Status::Success);
}

#[test]
fn set_writes_an_int_expression_into_a_float_variable_and_reports_each_change_once() {
    // (The int is converted when the expression is compiled for a float variable.)
    use crate::expr::Env;
    use crate::trace::{DebugEvent, Probe};
    struct Changes(Vec<(u32, Value, Value)>);
    impl Probe for Changes {
        fn event(&mut self, ev: &DebugEvent<'_>, _: Option<&dyn Env>) -> bool {
            if let DebugEvent::VarChanged { slot, old, new, .. } = *ev {
                self.0.push((slot, old, new));
            }
            false
        }
    }
    let root = r#"{"id": "seq", "type": "sequence", "reactive": true, "children": [
        {"id": "s", "type": "set", "var": "f", "value": "x + 2"},
        {"id": "w", "type": "wait", "seconds": 100}]}"#;
    let board = format!(r#"{AB}, "f": {{"type": "float", "default": 0.5}}"#);
    let mut s = session(root, &board);
    let f = s.program().blackboard.get("f").expect("var");
    let mut probe = Changes(Vec::new());
    s.step_probed(&mut probe);
    assert_eq!(var(&s, "f"), Value::Float(2.0));
    // The same value again: no change to report.
    s.step_probed(&mut probe);
    set(&mut s, "x", Value::Int(3));
    s.step_probed(&mut probe);
    assert_eq!(var(&s, "f"), Value::Float(5.0));
    // Unprobed ticks write the same values.
    set(&mut s, "x", Value::Int(-1));
    s.step();
    assert_eq!(var(&s, "f"), Value::Float(1.0));
    assert_eq!(
        probe.0,
        [
            (f, Value::Float(0.5), Value::Float(2.0)),
            (f, Value::Float(2.0), Value::Float(5.0))
        ]
    );
}

#[test]
fn every_leaf_names_its_child() {
    // The engine walks a composite's children through its leaves (`Leaf::node`): each must
    // be the child at its place, whatever it is (a node, a condition, an action, a
    // sequence guarded by a condition or by a selector of conditions).
    let s = session(
        r#"{"id": "sel", "type": "selector", "reactive": true, "children": [
            {"id": "g", "type": "sequence", "children": [
                {"id": "guard", "type": "condition", "expr": "a"},
                {"id": "inv", "type": "inverter", "children": [
                    {"id": "c", "type": "condition", "expr": "b"}]}]},
            {"id": "c2", "type": "condition", "expr": "b"},
            {"id": "set", "type": "set", "var": "x", "value": "1"},
            {"id": "ga", "type": "sequence", "children": [
                {"id": "any", "type": "selector", "children": [
                    {"id": "c3", "type": "condition", "expr": "a"},
                    {"id": "c4", "type": "condition", "expr": "x > 1"}]},
                {"id": "w2", "type": "wait", "seconds": 1}]},
            {"id": "gs", "type": "sequence", "children": [
                {"id": "all", "type": "sequence", "children": [
                    {"id": "c5", "type": "condition", "expr": "a"},
                    {"id": "c6", "type": "condition", "expr": "b"}]},
                {"id": "w3", "type": "wait", "seconds": 1}]},
            {"id": "w", "type": "wait", "seconds": 1}]}"#,
        AB,
    );
    let tree = &s.program().trees[0];
    assert_eq!(tree.leaves.len(), tree.children.len());
    for (leaf, &child) in tree.leaves.iter().zip(&tree.children) {
        assert_eq!(leaf.node(), child, "{leaf:?}");
    }
    let kinds = |f: fn(&super::Leaf) -> bool| tree.leaves.iter().filter(|l| f(l)).count();
    // A sequence guarded by a sequence of conditions is a node (that sequence is guarded).
    let nodes = kinds(|l| matches!(l, super::Leaf::Node { .. }));
    assert_eq!(nodes, 3, "inv, any, gs");
    assert_eq!(kinds(|l| matches!(l, super::Leaf::Condition { .. })), 7);
    assert_eq!(kinds(|l| matches!(l, super::Leaf::Action { .. })), 4);
    assert_eq!(
        kinds(|l| matches!(l, super::Leaf::Guarded { .. })),
        2,
        "g, all"
    );
    assert_eq!(kinds(|l| matches!(l, super::Leaf::GuardedAny { .. })), 1);
}
