//! Compiling packs: diagnostics that the per-kind compile files add.

use super::load_str;
use crate::pack::Severity;
use crate::session::Session;

/// A pack whose tree `t` is a parallel over `children` `wait` nodes (one disabled) with the
/// given threshold fields.
fn parallel_pack(thresholds: &str, children: usize) -> String {
    let mut kids: Vec<String> = (0..children)
        .map(|k| format!(r#"{{"id": "w{k}", "type": "wait", "seconds": 0.1}}"#))
        .collect();
    kids.push(r#"{"id": "off", "type": "wait", "seconds": 0.1, "disabled": true}"#.into());
    format!(
        r#"{{"format": "townsfolk-pack", "version": 1, "name": "p",
        "world": {{"npcs": [{{"id": "n", "pos": [0, 0], "tree": "t"}}]}},
        "trees": [{{"id": "t", "root": {{"id": "par", "type": "parallel"{thresholds},
          "children": [{}]}}}}]}}"#,
        kids.join(", ")
    )
}

fn warnings_at(text: &str, path: &str) -> Vec<String> {
    let l = load_str(text);
    assert!(l.pack.is_some(), "{:#?}", l.diagnostics);
    l.diagnostics
        .iter()
        .filter(|d| d.path == path)
        .inspect(|d| assert_eq!(d.severity, Severity::Warning, "{d:?}"))
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn parallel_thresholds_above_the_enabled_children_are_warned_about() {
    // Two enabled children (the third is disabled): 3 is more than it can reach.
    let text = parallel_pack(r#", "success_threshold": 3, "failure_threshold": 5"#, 2);
    assert_eq!(
        warnings_at(&text, "trees[0].root.success_threshold"),
        [
            "`success_threshold` is 3 but this parallel has 2 enabled children: it succeeds when all 2 succeed"
        ]
    );
    assert_eq!(
        warnings_at(&text, "trees[0].root.failure_threshold"),
        ["`failure_threshold` is 5 but this parallel has 2 enabled children: it is never reached"]
    );
    // The run is what the warning says: success once both children succeeded.
    let pack = load_str(&text).pack.expect("pack");
    let mut s = Session::from_pack(&pack, 0).expect("only warnings");
    let mut seen = Vec::new();
    for _ in 0..5 {
        s.step();
        seen.push(s.world().last_status(0));
    }
    assert!(seen.contains(&crate::bt::Status::Success), "{seen:?}");
    assert!(!seen.contains(&crate::bt::Status::Failure), "{seen:?}");
}

#[test]
fn parallel_thresholds_within_the_children_are_quiet() {
    let text = parallel_pack(r#", "success_threshold": 2, "failure_threshold": 2"#, 2);
    assert!(warnings_at(&text, "trees[0].root.success_threshold").is_empty());
    assert!(warnings_at(&text, "trees[0].root.failure_threshold").is_empty());
    let one = parallel_pack(r#", "success_threshold": 2"#, 1);
    assert_eq!(
        warnings_at(&one, "trees[0].root.success_threshold"),
        [
            "`success_threshold` is 2 but this parallel has 1 enabled child: it succeeds when all 1 succeed"
        ]
    );
}

#[test]
fn values_are_shown_shortest_and_read_back_exactly() {
    use crate::value::{EntityId, Value, Vec2};
    let pack = load_str(&parallel_pack("", 1)).pack.expect("pack");
    let (p, _) = super::build(&pack);
    let show = |v| super::show_value(&p, v);
    assert_eq!(show(Value::Float(0.1)), "0.1");
    assert_eq!(show(Value::Float(2.5)), "2.5");
    assert_eq!(show(Value::Float(1e-7)), "0.0000001");
    for x in [1.0 / 3.0, 0.1 + 0.2, 123456.789e3, -2.0f64.sqrt()] {
        let text = show(Value::Float(x));
        assert_eq!(text.parse::<f64>().ok(), Some(x), "{text}");
    }
    assert_eq!(show(Value::Int(-3)), "-3");
    assert_eq!(show(Value::Bool(true)), "true");
    assert_eq!(show(Value::Vec2(Vec2::new(0.5, -1.0))), "(0.5, -1)");
    assert_eq!(show(Value::Entity(EntityId::Npc(0))), "n");
    assert_eq!(show(Value::Entity(EntityId::None)), "none");
}

#[test]
fn the_grid_of_static_boxes_finds_every_box_holding_a_point() {
    use super::grid::BoxGrid;
    use crate::pack::{Point, Rect};
    use crate::value::Vec2;
    let bounds = Rect {
        min: Point { x: 0.0, y: 0.0 },
        max: Point { x: 100.0, y: 100.0 },
    };
    let v = Vec2::new;
    // Box 2 reaches outside the bounds; box 9 is checked for every point.
    let boxes = [
        (0, v(0.0, 0.0), v(10.0, 10.0)),
        (1, v(5.0, 5.0), v(60.0, 8.0)),
        (2, v(90.0, -20.0), v(140.0, 30.0)),
    ];
    let g = BoxGrid::build(bounds, 7.0, &boxes, vec![9]);
    let near = |x, y| g.near(v(x, y)).collect::<Vec<u32>>();
    let holds = |x: f64, y: f64| -> Vec<u32> {
        let mut h: Vec<u32> = boxes
            .iter()
            .filter(|(_, lo, hi)| x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y)
            .map(|b| b.0)
            .collect();
        h.push(9);
        h
    };
    for (x, y) in [
        (6.0, 6.0),
        (59.0, 7.5),
        (95.0, 0.0),
        (99.9, 29.0),
        (50.0, 50.0),
        (0.0, 0.0),
    ] {
        let found = near(x, y);
        for id in holds(x, y) {
            assert!(found.contains(&id), "({x}, {y}): {found:?} lacks {id}");
        }
        assert_eq!(found.last(), Some(&9), "`always` boxes come last");
    }
    // Points outside the bounds use the edge cells.
    assert!(near(120.0, 10.0).contains(&2));
    // No boxes: only the `always` ones, and no cells allocated.
    let empty = BoxGrid::build(bounds, 1.0, &[], vec![3]);
    assert_eq!(empty.near(v(1.0, 1.0)).collect::<Vec<_>>(), [3]);
}

/// A precondition's flags and counters count as written when a tree's `set` node, a
/// trigger's response or a story event's response writes them; only the others are warned
/// about (the tree walk and the JSON walk of the other sections must both be seen).
#[test]
fn preconditions_warn_only_about_names_nothing_writes() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "p",
      "world": {"npcs": [{"id": "n", "pos": [0, 0], "tree": "t"}], "flags": {"declared": false}},
      "trees": [{"id": "t", "root": {"id": "s", "type": "sequence", "children": [
        {"id": "a", "type": "set", "var": "flags.by_tree", "value": "true"},
        {"id": "b", "type": "set", "var": "counters.by_tree_c", "value": "1", "disabled": true}]}}],
      "triggers": [{"id": "sys", "owner": "world", "triggers": [{"id": "k",
        "when": {"type": "flag", "flag": "declared"},
        "responses": [{"do": "set_flag", "flag": "by_trigger", "value": true}]}]}],
      "events": [
        {"id": "e1", "title": "one", "precondition": "flags.declared && flags.by_tree && flags.by_trigger && flags.by_event && counters.by_tree_c > 0 && flags.nobody && counters.nobody_c > 0"},
        {"id": "e2", "title": "two", "on_success": [{"do": "set_flag", "flag": "by_event", "value": true}]}]}"#;
    let got = warnings_at(text, "events[0].precondition");
    assert_eq!(got.len(), 2, "{got:#?}");
    assert!(got[0].contains("flag `nobody`"), "{got:#?}");
    assert!(got[1].contains("counter `nobody_c`"), "{got:#?}");
}

/// `check` (the editor's: no text) names the ids on each path from the pack itself, and puts
/// errors before warnings: the disabled root's warning is found before the NPC's unknown
/// tree, but comes after it.
#[test]
fn check_names_paths_and_orders_errors_first() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "p",
      "world": {"npcs": [{"id": "ada", "pos": [0, 0], "tree": "nowhere"}]},
      "areas": [{"id": "plaza", "shape": {"rect": {"min": [0, 0], "max": [5, 5]}},
                 "templates": [{"name": "sleep", "tree": "gone"}]}],
      "trees": [{"id": "t", "root": {"id": "r", "type": "wait", "seconds": 1, "disabled": true}}]}"#;
    let pack = crate::pack::load_str(text).pack.expect("reads");
    let d = super::check(&pack);
    let got: Vec<(Severity, &str, &str)> = d
        .iter()
        .map(|d| (d.severity, d.path.as_str(), d.display_path()))
        .collect();
    assert_eq!(
        got,
        [
            (
                Severity::Error,
                "areas[0].templates[0].tree",
                "areas[0] (plaza).templates[0] (sleep).tree"
            ),
            (
                Severity::Error,
                "world.npcs[0].tree",
                "world.npcs[0] (ada).tree"
            ),
            (Severity::Warning, "trees[0].root", "trees[0] (t).root"),
        ],
        "{d:#?}"
    );
}

#[test]
fn check_names_the_items_its_paths_go_through() {
    let mut pack = load_str(include_str!("../../../samples/guards.json"))
        .pack
        .expect("sample");
    let npc = pack.world.npcs.len() - 1;
    pack.world.npcs[npc].tree = "no_such_tree".into();
    let id = pack.world.npcs[npc].id.clone();
    let diags = super::check(&pack);
    let d = diags
        .iter()
        .find(|d| d.path == format!("world.npcs[{npc}].tree"))
        .expect("the unknown tree is reported");
    assert_eq!(
        d.named_path.as_deref(),
        Some(format!("world.npcs[{npc}] ({id}).tree").as_str())
    );
}

#[test]
fn an_npc_starting_outside_the_world_bounds_is_warned_about() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "p",
        "world": {"bounds": {"min": [0, 0], "max": [40, 20]}, "npcs": [
            {"id": "in", "pos": [40, 20], "tree": "t"},
            {"id": "far", "pos": [10, 1000000], "tree": "t"},
            {"id": "proto", "pos": [-5, 5], "tree": "t", "prototype": true}]},
        "trees": [{"id": "t", "root": {"id": "w", "type": "wait", "seconds": 1}}]}"#;
    assert_eq!(warnings_at(text, "world.npcs[0].pos"), Vec::<String>::new());
    assert_eq!(
        warnings_at(text, "world.npcs[1].pos"),
        ["NPC `far` starts outside the world bounds (0, 0 to 40, 20)"]
    );
    assert_eq!(warnings_at(text, "world.npcs[2].pos"), Vec::<String>::new());
}
