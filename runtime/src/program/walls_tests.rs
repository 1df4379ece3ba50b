//! The walls' compile checks: a wall with fewer than 2 points, a door naming no object or
//! standing off its wall (errors); NPC starts and area centres inside walls (warnings); the
//! door cut out of its wall; the obstacle grid leaving doors out.

use serde_json::{Value as J, json};

use super::walls::NO_DOOR;
use crate::pack::Diagnostic;
use crate::program::load_str;
use crate::value::Vec2;

fn check(walls: J, npcs: J, areas: J) -> Vec<Diagnostic> {
    let text = json!({
        "format": "townsfolk-pack", "version": 1, "name": "t",
        "world": {
            "bounds": {"min": [0.0, 0.0], "max": [40.0, 20.0]},
            "objects": [{"id": "d", "kind": "door", "pos": [20.0, 10.0]},
                        {"id": "post", "pos": [5.0, 5.0]}],
            "walls": walls,
            "npcs": npcs
        },
        "trees": [{"id": "idle", "root": {"id": "w", "type": "wait", "seconds": 1.0}}],
        "areas": areas
    })
    .to_string();
    load_str(&text).diagnostics
}

fn msgs(d: &[Diagnostic]) -> Vec<(String, bool, String)> {
    d.iter()
        .map(|d| (d.path.clone(), d.is_error(), d.message.clone()))
        .collect()
}

#[test]
fn a_wall_needs_two_points_and_a_door_an_object_on_it() {
    let d = check(
        json!([
            {"id": "one", "shape": {"line": [[1.0, 1.0]]}},
            {"id": "w", "shape": {"line": [[20.0, 0.0], [20.0, 20.0]]},
             "doors": [{"object": "nope"}, {"object": "post"}, {"object": "d"}]}
        ]),
        json!([]),
        json!([]),
    );
    let m = msgs(&d);
    assert!(
        m.iter()
            .any(|(p, e, s)| p == "world.walls[0].shape" && *e && s.contains("at least 2")),
        "{m:#?}"
    );
    assert!(
        m.iter()
            .any(|(p, e, s)| p == "world.walls[1].doors[0].object"
                && *e
                && s.contains("unknown object `nope`")),
        "{m:#?}"
    );
    assert!(
        m.iter()
            .any(|(p, e, s)| p == "world.walls[1].doors[1].object"
                && *e
                && s.contains("stands on its wall")),
        "{m:#?}"
    );
    assert_eq!(m.iter().filter(|x| x.1).count(), 3, "{m:#?}");
}

#[test]
fn npc_starts_and_area_centres_inside_walls_are_warned_about() {
    let d = check(
        json!([
            {"id": "w", "shape": {"line": [[20.0, 0.0], [20.0, 20.0]]}, "doors": [{"object": "d"}]},
            {"id": "rock", "shape": {"rect": {"min": [30.0, 2.0], "max": [34.0, 6.0]}}, "solid": true}
        ]),
        json!([
            {"id": "on_wall", "pos": [20.1, 3.0], "tree": "idle"},
            {"id": "in_rock", "pos": [32.0, 4.0], "tree": "idle"},
            {"id": "in_door", "pos": [20.0, 10.0], "tree": "idle"},
            {"id": "fine", "pos": [10.0, 10.0], "tree": "idle"}
        ]),
        json!([
            {"id": "A", "shape": {"rect": {"min": [28.0, 0.0], "max": [36.0, 8.0]}}},
            {"id": "B", "shape": {"rect": {"min": [0.0, 0.0], "max": [8.0, 8.0]}}}
        ]),
    );
    let m = msgs(&d);
    let warned: Vec<&str> = m.iter().filter(|x| !x.1).map(|x| x.0.as_str()).collect();
    assert_eq!(
        warned,
        ["world.npcs[0].pos", "world.npcs[1].pos", "areas[0].shape"],
        "{m:#?}"
    );
    assert!(m.iter().all(|x| !x.1), "{m:#?}");
}

#[test]
fn a_door_is_cut_out_of_its_wall_and_is_no_round_obstacle() {
    let text = json!({
        "format": "townsfolk-pack", "version": 1, "name": "t",
        "world": {
            "objects": [{"id": "d", "kind": "door", "pos": [20.0, 10.2], "radius": 0.5},
                        {"id": "post", "pos": [5.0, 5.0], "radius": 0.5}],
            "walls": [{"id": "w", "shape": {"line": [[20.0, 0.0], [20.0, 20.0]]},
                       "doors": [{"object": "d", "width": 2.0}]}]
        }
    })
    .to_string();
    let (l, p) = crate::program::load_str_built(&text);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let p = p.expect("program");
    let r = |v: f64| (v * 1e6).round() / 1e6;
    let segs: Vec<([f64; 4], bool)> = p
        .walls
        .segs
        .iter()
        .map(|s| ([r(s.a.x), r(s.a.y), r(s.b.x), r(s.b.y)], s.door == NO_DOOR))
        .collect();
    assert_eq!(
        segs,
        [
            ([20.0, 0.0, 20.0, 9.2], true),
            ([20.0, 9.2, 20.0, 11.2], false),
            ([20.0, 11.2, 20.0, 20.0], true),
        ]
    );
    let near_door: Vec<u32> = p.obstacles.grid.near(Vec2::new(20.0, 10.0)).collect();
    assert!(near_door.is_empty(), "{near_door:?}");
    let near_post: Vec<u32> = p.obstacles.grid.near(Vec2::new(5.5, 5.0)).collect();
    assert_eq!(near_post, [1]);
}
