//! Walls, doors and paths: a closed door blocks, an opened one lets the NPC through, a path
//! goes around a wall, an enclosed target gives `no_path` (and the `move_to` fails at its
//! timeout), a door closing mid-walk makes the NPC plan again; obstacles still steer.

use serde_json::{Value as J, json};

use crate::pack::{Diagnostic, DoorAction};
use crate::program::load_str;
use crate::session::Session;
use crate::systems::effects::npcs::door;
use crate::value::{EntityId, Vec2};

/// A 40×20 world; `hero` at `from` runs `root`; `walls` and `objects` as given.
fn world(from: [f64; 2], root: J, walls: J, objects: J) -> Session {
    let text = json!({
        "format": "townsfolk-pack", "version": 1, "name": "t",
        "world": {
            "bounds": {"min": [0.0, 0.0], "max": [40.0, 20.0]},
            "objects": objects,
            "walls": walls,
            "npcs": [{"id": "hero", "pos": from, "tree": "go", "speed": 2.0}]
        },
        "trees": [{"id": "go", "root": root}]
    })
    .to_string();
    let l = load_str(&text);
    let errors: Vec<&Diagnostic> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let mut s = Session::from_pack(&l.pack.expect("pack"), 1).expect("session");
    s.set_tracing(true);
    s
}

fn go_to(x: f64, y: f64) -> J {
    json!({"id": "m", "type": "move_to", "target": {"point": [x, y]}})
}

/// A wall across the world at x = 20 with door `d` (closed unless `open`) at (20, 10).
fn split_world(open: bool) -> Session {
    world(
        [5.0, 10.0],
        go_to(35.0, 10.0),
        json!([{"id": "split", "shape": {"line": [[20.0, 0.0], [20.0, 20.0]]},
                "doors": [{"object": "d"}]}]),
        json!([{"id": "d", "kind": "door", "pos": [20.0, 10.0], "open": open}]),
    )
}

fn hero(s: &Session) -> Vec2 {
    s.world().pos[0]
}

fn object(s: &Session, id: &str) -> u32 {
    match s.program().entity(id) {
        Some(EntityId::Object(o)) => o,
        other => panic!("{id}: {other:?}"),
    }
}

fn set_door(s: &mut Session, id: &str, action: DoorAction) {
    let o = object(s, id);
    s.change(|p, w, out| door(p, w, o, action, out));
}

fn kinds(s: &Session, kind: &str) -> Vec<J> {
    s.trace()
        .iter()
        .map(|e| crate::trace::trace_value(s.program(), e))
        .filter(|e| e["kind"] == kind)
        .collect()
}

/// Steps `n` ticks, failing if any step of the hero crosses the segment `a`–`b`.
fn run_not_crossing(s: &mut Session, n: u64, a: Vec2, b: Vec2) {
    for _ in 0..n {
        let before = hero(s);
        s.step();
        let after = hero(s);
        let side = |p: Vec2| (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
        let crossed = side(before) * side(after) < 0.0
            && crate::program::walls::seg_seg_dist(before, after, a, b) == 0.0;
        assert!(
            !crossed,
            "tick {}: {before:?} → {after:?} crossed {a:?}–{b:?}",
            s.tick()
        );
    }
}

#[test]
fn a_closed_door_blocks_and_opening_it_lets_the_npc_through() {
    let mut s = split_world(false);
    let (a, b) = (Vec2::new(20.0, 0.0), Vec2::new(20.0, 20.0));
    run_not_crossing(&mut s, 200, a, b);
    assert!(
        hero(&s).x < 20.0,
        "walked through a closed door: {:?}",
        hero(&s)
    );
    let blocked = kinds(&s, "blocked");
    assert_eq!(blocked.len(), 1, "reported once: {blocked:?}");
    assert_eq!(blocked[0]["reason"], "no_path");
    assert_eq!(blocked[0]["npc"], "hero");
    set_door(&mut s, "d", DoorAction::Open);
    s.run(200);
    assert!(
        hero(&s).distance(Vec2::new(35.0, 10.0)) < 0.25,
        "{:?}",
        hero(&s)
    );
    // A locked door blocks too, and `open` does not open it.
    let mut s = split_world(false);
    set_door(&mut s, "d", DoorAction::Lock);
    set_door(&mut s, "d", DoorAction::Open);
    run_not_crossing(&mut s, 200, a, b);
    assert!(hero(&s).x < 20.0);
}

#[test]
fn an_open_door_is_walked_through_and_the_same_run_is_the_same() {
    let mut s = split_world(true);
    s.run(200);
    assert!(hero(&s).distance(Vec2::new(35.0, 10.0)) < 0.25);
    assert!(kinds(&s, "blocked").is_empty());
    let mut t = split_world(true);
    t.run(200);
    assert_eq!(s.hash(), t.hash());
}

#[test]
fn a_path_goes_around_a_wall() {
    let wall = json!([{"id": "w", "shape": {"line": [[20.0, 4.0], [20.0, 16.0]]}}]);
    let mut s = world([5.0, 10.0], go_to(35.0, 10.0), wall, json!([]));
    let (a, b) = (Vec2::new(20.0, 4.0), Vec2::new(20.0, 16.0));
    let mut furthest = 0.0f64;
    for _ in 0..400 {
        run_not_crossing(&mut s, 1, a, b);
        furthest = furthest.max((hero(&s).y - 10.0).abs());
    }
    assert!(
        hero(&s).distance(Vec2::new(35.0, 10.0)) < 0.25,
        "{:?}",
        hero(&s)
    );
    assert!(furthest > 6.0, "went round an end of the wall: {furthest}");
    assert_eq!(s.world().npcs[0].last_status, crate::bt::Status::Success);
    // The smoothed path has few way points, not one per cell.
    let mut t = world(
        [5.0, 10.0],
        go_to(35.0, 10.0),
        json!([{"id": "w", "shape": {"line": [[20.0, 4.0], [20.0, 16.0]]}}]),
        json!([]),
    );
    t.step();
    let path = &t.world().nav.paths[0];
    assert!((2..=4).contains(&path.points.len()), "{:?}", path.points);
}

#[test]
fn an_enclosed_target_has_no_path_and_move_to_fails_at_its_timeout() {
    let root =
        json!({"id": "t", "type": "timeout", "seconds": 2.0, "children": [go_to(32.0, 10.0)]});
    let walls =
        json!([{"id": "box", "shape": {"rect": {"min": [30.0, 8.0], "max": [34.0, 12.0]}}}]);
    let mut s = world([5.0, 10.0], root, walls, json!([]));
    s.run(10);
    assert_eq!(s.world().npcs[0].last_status, crate::bt::Status::Running);
    let start = hero(&s);
    assert!(
        start.distance(Vec2::new(5.0, 10.0)) < 1e-9,
        "stands: {start:?}"
    );
    s.run(15);
    let failed: Vec<J> = kinds(&s, "status")
        .into_iter()
        .filter(|e| e["node"] == "t" && e["to"] == "failure")
        .collect();
    // Failed by its timeout (2 s = 20 ticks after it started at tick 1), not at once.
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["tick"], 21, "{failed:?}");
    let blocked = kinds(&s, "blocked");
    assert_eq!(blocked[0]["reason"], "no_path", "{blocked:?}");
    assert_eq!(blocked[0]["tick"], 1, "{blocked:?}");
    assert!(hero(&s).distance(start) < 1e-9);
}

#[test]
fn a_door_closing_mid_walk_makes_the_npc_plan_again() {
    let walls = json!([{"id": "split", "shape": {"line": [[20.0, 0.0], [20.0, 20.0]]},
                        "doors": [{"object": "low"}, {"object": "high"}]}]);
    let objects = json!([
        {"id": "low", "kind": "door", "pos": [20.0, 4.0], "open": true},
        {"id": "high", "kind": "door", "pos": [20.0, 16.0], "open": true}
    ]);
    let mut s = world([5.0, 4.0], go_to(35.0, 4.0), walls, objects);
    while hero(&s).x < 14.0 {
        s.step();
        assert!(s.tick() < 200);
    }
    assert!((hero(&s).y - 4.0).abs() < 1.0, "heading for the low door");
    set_door(&mut s, "low", DoorAction::Close);
    // It turns at once for the high door (planned again), not when it bumps into the low one.
    s.run(10);
    assert!(hero(&s).y > 5.0 && hero(&s).x < 16.0, "{:?}", hero(&s));
    // Everything but the high door's opening (20, 15.2..16.8) is shut now.
    let mut highest = 0.0f64;
    for _ in 0..600 {
        run_not_crossing(&mut s, 1, Vec2::new(20.0, 0.0), Vec2::new(20.0, 15.1));
        highest = highest.max(hero(&s).y);
    }
    assert!(highest > 14.0, "went by the high door: {highest}");
    assert!(
        hero(&s).distance(Vec2::new(35.0, 4.0)) < 0.25,
        "{:?}",
        hero(&s)
    );
}

#[test]
fn the_dungeon_vault_door_blocks_the_hero_until_the_puzzle_opens_it() {
    use crate::tools::triggers::step_line;
    let l = load_str(include_str!("../../../../samples/dungeon.json"));
    let mut s = Session::from_pack(&l.pack.expect("pack"), 1).expect("session");
    s.set_tracing(true);
    s.run(300);
    assert!(
        hero(&s).distance(Vec2::new(30.0, 20.0)) < 1e-9,
        "{:?}",
        hero(&s)
    );
    assert_eq!(kinds(&s, "blocked").len(), 1);
    // The ice set alone opens the ice door, not the vault: still no way.
    for item in ["ice_sword", "ice_shield", "ice_armour"] {
        let line = json!({"equip": "hero", "item": item}).to_string();
        step_line(&mut s, &line).expect("equip");
    }
    s.run(100);
    assert!(
        hero(&s).distance(Vec2::new(30.0, 20.0)) < 1e-9,
        "{:?}",
        hero(&s)
    );
    step_line(
        &mut s,
        &json!({"give": "hero", "item": "silver_key"}).to_string(),
    )
    .expect("give");
    s.run(300);
    let at = hero(&s);
    assert!(
        at.x > 35.0 && at.x < 45.0 && at.y > 35.0,
        "in the vault: {at:?}"
    );
}
