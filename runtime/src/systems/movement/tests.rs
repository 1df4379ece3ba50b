//! Walls, doors and paths: a closed door blocks, an opened one lets the NPC through, a path
//! goes around a wall, an enclosed target gives `no_path` (and the `move_to` fails at its
//! timeout), a door closing mid-walk makes the NPC plan again; obstacles still steer. The
//! hierarchical planner against the flat A* (path cost within a few %), door changes that
//! re-plan only the NPCs whose path they touch, the per-tick planning budget serving NPCs in
//! order, and determinism with many NPCs and doors.

use serde_json::{Value as J, json};

use super::hpa;
use super::paths::{self, PLAN_BUDGET};
use crate::pack::{Diagnostic, DoorAction};
use crate::program::load_str;
use crate::program::walls::NavGrid;
use crate::session::Session;
use crate::systems::effects::lifecycle;
use crate::systems::effects::npcs::door;
use crate::value::{EntityId, Vec2};
use crate::world::nav::NavGraph;

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
    assert_eq!(s.world().last_status(0), crate::bt::Status::Success);
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
fn an_npc_pressed_against_a_wall_starts_its_path_on_its_own_side() {
    // The wall runs through cell centres (x = 20.25), so the hero at x = 20.05 stands in a
    // blocked cell whose east neighbour lies across the wall. Its path must start west of
    // the wall and go round an end, not through it (which would leave it pushing against
    // the wall and planning again every tick).
    let wall = json!([{"id": "w", "shape": {"line": [[20.25, 4.0], [20.25, 16.0]]}}]);
    let mut s = world([20.05, 10.0], go_to(35.0, 10.0), wall, json!([]));
    let (a, b) = (Vec2::new(20.25, 4.0), Vec2::new(20.25, 16.0));
    run_not_crossing(&mut s, 400, a, b);
    assert!(
        hero(&s).distance(Vec2::new(35.0, 10.0)) < 0.25,
        "{:?}",
        hero(&s)
    );
    let plans = s.world().nav.plans;
    assert!(plans <= 3, "planned {plans} times");
}

#[test]
fn an_enclosed_target_has_no_path_and_move_to_fails_at_its_timeout() {
    let root =
        json!({"id": "t", "type": "timeout", "seconds": 2.0, "children": [go_to(32.0, 10.0)]});
    let walls =
        json!([{"id": "box", "shape": {"rect": {"min": [30.0, 8.0], "max": [34.0, 12.0]}}}]);
    let mut s = world([5.0, 10.0], root, walls, json!([]));
    s.run(10);
    assert_eq!(s.world().last_status(0), crate::bt::Status::Running);
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

// ---- the hierarchical planner, door changes, the budget ----------------------------

fn session(bounds: [f64; 2], npcs: J, walls: J, objects: J, trees: J) -> Session {
    let text = json!({
        "format": "townsfolk-pack", "version": 1, "name": "t",
        "world": {
            "bounds": {"min": [0.0, 0.0], "max": bounds},
            "objects": objects, "walls": walls, "npcs": npcs
        },
        "trees": trees
    })
    .to_string();
    let l = load_str(&text);
    let errors: Vec<&Diagnostic> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    Session::from_pack(&l.pack.expect("pack"), 7).expect("session")
}

fn go_tree(id: &str, x: f64, y: f64) -> J {
    json!({"id": id, "root": {"id": "m", "type": "move_to", "target": {"point": [x, y]}}})
}

/// Cost of a cell walk (10 a side, 14 a diagonal) from `from`.
fn cost(g: &NavGrid, from: u32, cells: &[u32]) -> u32 {
    let mut at = from;
    let mut c = 0;
    for &n in cells {
        let (a, b) = (g.coords(at), g.coords(n));
        assert!(
            a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1,
            "{a:?} → {b:?}"
        );
        assert!(g.free(n, &[]), "walks through a wall at {b:?}");
        c += if a.0 != b.0 && a.1 != b.1 { 14 } else { 10 };
        at = n;
    }
    c
}

#[test]
fn a_long_path_across_many_clusters_is_within_a_few_percent_of_the_flat_search() {
    // 200 × 200 units, 0.5-unit cells: 400 × 400 cells, 25 × 25 clusters; staggered walls.
    let mut walls = Vec::new();
    for k in 0..9 {
        let x = 20.0 + 20.0 * k as f64;
        let (y0, y1) = if k % 2 == 0 {
            (0.0, 170.0)
        } else {
            (30.0, 200.0)
        };
        walls.push(json!({"id": format!("w{k}"), "shape": {"line": [[x, y0], [x, y1]]}}));
    }
    walls.push(
        json!({"id": "box", "shape": {"rect": {"min": [103.0, 60.0], "max": [117.0, 90.0]}}}),
    );
    let s = session(
        [200.0, 200.0],
        json!([{"id": "a", "pos": [1.0, 1.0], "tree": "go"}]),
        json!(walls),
        json!([]),
        json!([go_tree("go", 1.0, 1.0)]),
    );
    let g = &s.program().walls.grid;
    assert_eq!((g.cols, g.rows), (400, 400));
    let mut gr = NavGraph::default();
    hpa::build(&mut gr, g, &[]);
    let pairs = [
        ((2.0, 2.0), (198.0, 198.0)),
        ((5.0, 190.0), (190.0, 5.0)),
        ((50.0, 100.0), (150.0, 100.0)),
        ((110.0, 95.0), (110.0, 55.0)),
    ];
    for ((x0, y0), (x1, y1)) in pairs {
        let from = g.id(g.cell_of(Vec2::new(x0, y0)));
        let to = g.id(g.cell_of(Vec2::new(x1, y1)));
        let flat = paths::cell_path(g, from, to, &[]).expect("flat path");
        let hier = hpa::cell_path(&mut gr, g, &[], from, to).expect("hierarchical path");
        assert_eq!(hier.last(), Some(&to));
        let (cf, ch) = (cost(g, from, &flat), cost(g, from, &hier));
        assert!(ch >= cf, "shorter than the optimum? {ch} < {cf}");
        assert!(
            ch as f64 <= cf as f64 * 1.05,
            "({x0}, {y0}) → ({x1}, {y1}): {ch} vs flat {cf}"
        );
    }
    // Enclosed: the box's inside is its own component, answered without a search.
    let inside = g.id(g.cell_of(Vec2::new(110.0, 75.0)));
    let outside = g.id(g.cell_of(Vec2::new(2.0, 2.0)));
    assert_ne!(
        hpa::component(&gr, g, inside),
        hpa::component(&gr, g, outside)
    );
    let searched = gr.entrances.iter().filter(|e| e.is_some()).count();
    assert!(hpa::cell_path(&mut gr, g, &[], outside, inside).is_none());
    assert_eq!(
        gr.entrances.iter().filter(|e| e.is_some()).count(),
        searched,
        "no cluster was searched for the enclosed target"
    );
}

/// 80 × 20: a wall at x = 20 with door `d1` (20, 10); a wall at x = 60 with door `d2`
/// (60, 10); a short wall at x = 40 (y 14..20) with door `d3` (40, 17.5) that no path uses.
/// `a` walks from (5, 3) to (35, 3) through d1; `b` from (45, 3) to (75, 3) through d2.
fn three_doors() -> Session {
    session(
        [80.0, 20.0],
        json!([
            {"id": "a", "pos": [5.0, 3.0], "tree": "ga", "speed": 1.0},
            {"id": "b", "pos": [45.0, 3.0], "tree": "gb", "speed": 1.0}
        ]),
        json!([
            {"id": "w1", "shape": {"line": [[20.0, 0.0], [20.0, 20.0]]}, "doors": [{"object": "d1"}]},
            {"id": "w2", "shape": {"line": [[60.0, 0.0], [60.0, 20.0]]}, "doors": [{"object": "d2"}]},
            {"id": "w3", "shape": {"line": [[40.0, 14.0], [40.0, 20.0]]}, "doors": [{"object": "d3"}]}
        ]),
        json!([
            {"id": "d1", "kind": "door", "pos": [20.0, 10.0], "open": true},
            {"id": "d2", "kind": "door", "pos": [60.0, 10.0], "open": true},
            {"id": "d3", "kind": "door", "pos": [40.0, 17.5], "open": true}
        ]),
        json!([go_tree("ga", 35.0, 3.0), go_tree("gb", 75.0, 3.0)]),
    )
}

#[test]
fn a_door_change_re_plans_only_the_npcs_whose_path_it_touches() {
    let mut s = three_doors();
    s.run(3);
    let nav = &s.world().nav;
    assert_eq!(nav.searches, 2, "both searched once");
    assert_eq!(nav.replans, 0);
    let before = nav.paths.clone();
    // The door response records the change; movement reads the record.
    set_door(&mut s, "d3", DoorAction::Close);
    assert_eq!(s.world().nav.door_changes.len(), 1);
    s.step();
    let nav = &s.world().nav;
    assert!(nav.door_changes.is_empty(), "read by movement");
    assert!(!nav.door_open[2], "d3 closed for the planner");
    assert_eq!(nav.replans, 0, "d3 is on nobody's way");
    assert_eq!(nav.paths[0].points, before[0].points);
    assert_eq!(nav.paths[1].points, before[1].points);
    // d1 is on a's way only.
    set_door(&mut s, "d1", DoorAction::Close);
    s.step();
    let nav = &s.world().nav;
    assert_eq!(nav.replans, 1, "only a planned again");
    assert!(nav.paths[0].no_path, "a has no way now");
    assert_eq!(nav.paths[1].points, before[1].points, "b kept its path");
    // Opening it again re-plans a (it had no path), and it walks on.
    set_door(&mut s, "d1", DoorAction::Open);
    s.step();
    let nav = &s.world().nav;
    assert_eq!(nav.replans, 2);
    assert!(!nav.paths[0].no_path);
    s.run(800);
    assert!(s.world().pos[0].distance(Vec2::new(35.0, 3.0)) < 0.25);
    assert!(s.world().pos[1].distance(Vec2::new(75.0, 3.0)) < 0.25);
}

#[test]
fn the_budget_serves_everyone_in_order_within_ceil_n_over_budget_ticks() {
    // 250 NPCs behind a wall from their target: every one needs a search at tick 1.
    let n = 250usize;
    let npcs: Vec<J> = (0..n)
        .map(|k| {
            json!({"id": format!("n{k}"), "pos": [2.0 + (k % 10) as f64, 1.0 + (k / 10) as f64 * 0.7],
                   "tree": "go", "speed": 1.0})
        })
        .collect();
    let mut s = session(
        [40.0, 20.0],
        json!(npcs),
        json!([{"id": "w", "shape": {"line": [[20.0, 0.0], [20.0, 19.0]]}}]),
        json!([]),
        json!([go_tree("go", 35.0, 2.0)]),
    );
    let ticks = n.div_ceil(PLAN_BUDGET);
    for t in 1..=ticks {
        s.step();
        let w = s.world();
        let planned: Vec<bool> = (0..n).map(|i| w.nav.paths[i].goal.is_some()).collect();
        let served = (t * PLAN_BUDGET).min(n);
        assert_eq!(w.nav.searches as usize, served, "tick {t}");
        // In NPC order: the first `served` have a path, the others wait, standing.
        assert!(planned[..served].iter().all(|&p| p), "tick {t}");
        assert!(planned[served..].iter().all(|&p| !p), "tick {t}");
        for i in served..n {
            assert_eq!(
                w.pos[i],
                s.program().npcs[i].pos,
                "n{i} stands while waiting"
            );
        }
        assert_eq!(w.nav.queue.len(), n - served);
    }
    assert!(s.world().nav.queue.is_empty());
}

#[test]
fn the_same_seed_gives_the_same_walk_with_doors_changing() {
    let run = || {
        let mut s = three_doors();
        for t in 0..300 {
            if t == 20 {
                set_door(&mut s, "d1", DoorAction::Close);
            }
            if t == 60 {
                set_door(&mut s, "d1", DoorAction::Open);
            }
            if t == 90 {
                set_door(&mut s, "d2", DoorAction::Close);
            }
            s.step();
        }
        (s.hash(), s.world().pos.clone(), s.world().nav.clone())
    };
    let (h1, p1, n1) = run();
    let (h2, p2, n2) = run();
    assert_eq!(h1, h2);
    assert_eq!(p1, p2);
    assert_eq!(n1, n2);
    // b is stuck behind d2 (closed at tick 90 before it got through).
    assert!(n1.paths[1].no_path || p1[1].x > 60.0);
}

/// A 24×24 world of 80 conversing walkers (more than one word of `World::walkers`): `roam`
/// walks between two points and talks on the way (position-aware, so the talk layer sets and
/// clears targets too), `chat` only talks, `ghost` is a prototype that roams when spawned.
fn walkers_world() -> Session {
    let mut npcs = Vec::new();
    let mut members = Vec::new();
    for k in 0..80 {
        let (x, y) = (1.0 + (k % 10) as f64 * 2.4, 1.0 + (k / 10) as f64 * 3.0);
        let tree = if k % 3 == 0 { "chat" } else { "roam" };
        npcs.push(json!({"id": format!("n{k}"), "pos": [x, y], "tree": tree, "speed": 1.5}));
        let t = (k % 5) as f64 / 5.0 + 0.1;
        members.push(json!({"npc": format!("n{k}"), "talkativeness": t}));
    }
    npcs.push(
        json!({"id": "ghost", "pos": [12.0, 12.0], "tree": "roam", "speed": 2.0,
                     "prototype": true}),
    );
    let text = json!({
        "format": "townsfolk-pack", "version": 1, "name": "t",
        "world": {"bounds": {"min": [0.0, 0.0], "max": [24.0, 24.0]}, "npcs": npcs},
        "trees": [
            {"id": "chat", "root": {"id": "c", "type": "converse", "cast": "town"}},
            {"id": "roam", "root": {"id": "s", "type": "sequence", "children": [
                {"id": "a", "type": "move_to", "target": {"point": [3.0, 20.0]}},
                {"id": "c", "type": "converse", "cast": "town", "seconds": 2.0},
                {"id": "b", "type": "move_to", "target": {"point": [21.0, 4.0]}},
                {"id": "w", "type": "wait", "seconds": 0.5}
            ]}}
        ],
        "casts": [{"id": "town", "position_aware": true, "join_radius": 6.0,
                   "hearing_radius": 8.0, "planner_seconds": 1.0, "cycle_seconds": 0.5,
                   "inactive_seconds": 5.0, "members": members}]
    })
    .to_string();
    let l = load_str(&text);
    let errors: Vec<&Diagnostic> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    Session::from_pack(&l.pack.expect("pack"), 5).expect("session")
}

/// `World::walkers` lists exactly the NPCs with a target, and `next_walker` finds them in
/// NPC order.
fn assert_walkers_are_the_npcs_with_a_target(s: &Session, when: &str) {
    let w = s.world();
    let with: Vec<usize> = (0..w.npcs.len())
        .filter(|&i| w.target(i).is_some())
        .collect();
    let mut listed = Vec::new();
    let mut next = w.next_walker(0);
    while let Some(i) = next {
        assert!(
            listed.last().is_none_or(|&l| i > l),
            "{when}: {i} after {listed:?}"
        );
        listed.push(i);
        next = w.next_walker(i + 1);
    }
    assert_eq!(
        listed, with,
        "{when}: the walkers are the NPCs with a target"
    );
    // What movement reads of each walker is its target and its declaration's speed.
    let p = s.program();
    for (i, n) in w.npcs.iter().enumerate() {
        let walk = w.walk(i).expect("an entry for every NPC");
        assert_eq!(
            walk.speed, p.npcs[n.proto as usize].speed,
            "{when}: {i}'s speed"
        );
        if let Some(t) = w.target(i) {
            assert_eq!(walk.target, t, "{when}: {i}'s target");
        }
    }
    assert!(
        w.walk(w.npcs.len()).is_none(),
        "{when}: no entry past the last"
    );
    // The live bits (read by the trees phase) follow removals, deaths and spawns too.
    for (i, n) in w.npcs.iter().enumerate() {
        assert_eq!(w.is_alive(i), n.alive(), "{when}: NPC {i}'s live bit");
    }
    assert!(!w.is_alive(w.npcs.len()), "{when}: no NPC past the last");
}

#[test]
fn movement_moves_exactly_the_npcs_with_a_target_after_walks_stops_and_despawns() {
    let mut s = walkers_world();
    let ghost = (s.world().npcs.len() - 1) as u32;
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut r = move |k: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % k
    };
    let (mut walked, mut stopped) = (0, 0);
    for t in 0..600 {
        // Scripted changes through the effects and the one target setter.
        let n = s.world().npcs.len() as u64;
        let (who, what) = (r(n) as u32, r(40));
        let at = Vec2::new(r(240) as f64 / 10.0, r(240) as f64 / 10.0);
        s.change(|p, w, out| match what {
            0..=9 => w.set_target(who, Some(at)),
            10..=14 => w.set_target(who, None),
            15 => lifecycle::teleport(p, w, who, at, out),
            16 if t % 3 == 0 => lifecycle::remove(p, w, who, out),
            17 if t % 3 == 0 => lifecycle::set_health(p, w, who, 0.0, EntityId::Npc(0), out),
            18..=21 => {
                lifecycle::spawn(p, w, ghost, at, out);
            }
            _ => {}
        });
        assert_walkers_are_the_npcs_with_a_target(&s, &format!("tick {t}, change {what}"));
        // Who walks, by looking at every NPC, as movement did before the list.
        let before = s.world().clone();
        let expect: Vec<bool> = (0..before.npcs.len())
            .map(|i| {
                let n = &before.npcs[i];
                let speed = s.program().npcs[n.proto as usize].speed;
                before
                    .target(i)
                    .is_some_and(|g| before.pos[i].distance(g) >= 1e-9)
                    && n.alive()
                    && speed > 0.0
            })
            .collect();
        s.change(crate::systems::movement::movement);
        let w = s.world();
        assert_eq!(w.moved, expect, "tick {t}: who moved");
        for (i, &walks) in expect.iter().enumerate() {
            if !walks {
                assert_eq!(w.pos[i], before.pos[i], "tick {t}: NPC {i} stood still");
            }
        }
        assert_walkers_are_the_npcs_with_a_target(&s, &format!("tick {t}, after movement"));
        walked += expect.iter().filter(|&&m| m).count();
        stopped += expect.len() - expect.iter().filter(|&&m| m).count();
        // A whole tick: trees walk and stop, conversations gather and break up.
        s.step();
        assert_walkers_are_the_npcs_with_a_target(&s, &format!("tick {t}, after the tick"));
    }
    assert!(
        walked > 1000 && stopped > 1000,
        "{walked} steps, {stopped} standing"
    );
    assert!(s.world().npcs.len() > 130, "spawned copies walk too");
}

/// The cells (as `NavGrid::cell_of` finds them) of the points `each_leg_sample` gives for a
/// leg, and how many points.
fn leg_cells(g: &NavGrid, a: Vec2, b: Vec2) -> (std::collections::BTreeSet<(u32, u32)>, usize) {
    let mut cells = std::collections::BTreeSet::new();
    let mut n = 0;
    super::paths::each_leg_sample(g, a, b, |at| {
        cells.insert(g.cell_of(at));
        n += 1;
    });
    (cells, n)
}

#[test]
fn a_leg_from_far_outside_the_bounds_is_walked_in_a_few_grid_widths_of_samples() {
    let wall = json!([{"id": "w", "shape": {"line": [[20.0, 0.0], [20.0, 15.0]]}}]);
    let s = session([40.0, 20.0], json!([]), wall, json!([]), json!([]));
    let g = &s.program().walls.grid;
    let step = g.cell * 0.5;
    // Inside the grid: every half cell from end to end, as ever.
    let (a, b) = (Vec2::new(2.0, 3.0), Vec2::new(30.0, 17.0));
    let mut got = Vec::new();
    super::paths::each_leg_sample(g, a, b, |at| got.push(at));
    let n = (a.distance(b) / step).ceil() as usize;
    let want: Vec<Vec2> = (0..=n)
        .map(|s| a + (b - a) * (s as f64 / n as f64))
        .collect();
    assert_eq!(got, want);
    // From a million units above the world straight down into it: the cells of the column
    // it comes down, from the top row, in a few dozen points (a million half cells before).
    let (far, to) = (Vec2::new(10.2, 1e6), Vec2::new(10.2, 4.0));
    let (cells, count) = leg_cells(g, far, to);
    let column = g.cell_of(to).0;
    let want: std::collections::BTreeSet<(u32, u32)> =
        (g.cell_of(to).1..g.rows).map(|r| (column, r)).collect();
    assert_eq!(cells, want);
    let bound = 2 * (g.cols + g.rows) as usize + 8;
    assert!(
        count <= bound,
        "{count} points for the leg (at most {bound})"
    );
    // Far outside on a slant, and both ends outside: still bounded, the ends' cells in.
    for (a, b) in [
        (Vec2::new(-3e5, 7e5), Vec2::new(30.0, 5.0)),
        (Vec2::new(-1e6, -1e6), Vec2::new(1e6, 2e6)),
    ] {
        let (cells, count) = leg_cells(g, a, b);
        assert!(count <= bound, "{count} points for {a:?} → {b:?}");
        assert!(cells.contains(&g.cell_of(a)) && cells.contains(&g.cell_of(b)));
    }
}
