//! Paths around walls and through open doors: on the program's navigation grid, one flat A*
//! for a small grid ([`FLAT_CELLS`]), the hierarchical planner ([`hpa`]) for a larger one;
//! smoothed by line of sight into way points. Door changes come
//! from the door response's record ([`NavState::door_changes`]) and make only the NPCs whose
//! path passes a cluster the door is in (or who had no path) plan again. Planning is spread
//! over ticks: at most [`PLAN_BUDGET`] plans a tick, NPCs served first come first served
//! (a FIFO in the world), one not yet served standing where it is.
//!
//! Deterministic: the grid is a `Vec`, the neighbours come in one fixed order (by
//! coordinates: west, east, south, north, then the diagonals), the costs are integers (10 a
//! side, 14 a diagonal) with the octile heuristic, and the `pathfinding` crate's searches keep
//! their open sets in insertion-ordered maps with a fixed hasher and binary heaps, so the
//! same grid, doors and endpoints give the same path on every run and machine.

use pathfinding::directed::astar::astar;

use crate::program::Program;
use crate::program::walls::NavGrid;
use crate::trace::{Out, TraceEvent};
use crate::value::Vec2;
use crate::world::NPC_RADIUS;
use crate::world::World;
use crate::world::nav::{NavGraph, NavState, NpcPath};

use super::hpa;

/// Trace reason of an NPC that has no way to its target.
pub const NO_PATH: &str = "no_path";
/// Furthest a smoothed leg looks ahead along the cell path, in cells.
const LOOK_AHEAD: usize = 64;
/// Most plans made in one tick; the NPCs after wait (standing) for the next ticks.
pub const PLAN_BUDGET: usize = 48;

/// Brings the doors' states up to date: on the first walled tick (or a new grid) from the
/// world objects, building the planner's regions; after that from the doors the door
/// response recorded as changed. A door that changed drops what the planner knew of its
/// clusters ([`hpa::door_changed`]) and makes plan again the NPCs whose path passes one of
/// those clusters and those that had no path.
pub fn sync_doors(p: &Program, w: &mut World) {
    let doors = &p.walls.doors;
    let g = &p.walls.grid;
    let nav = &mut w.nav;
    if nav.door_open.len() != doors.len() || nav.graph.cells != g.cols * g.rows {
        nav.door_open = doors
            .iter()
            .map(|d| w.objects.get(d.object as usize).is_some_and(|o| o.open))
            .collect();
        nav.door_changes.clear();
        // A grid planned flat needs only the clusters (labelling every cluster's regions
        // costs a fifth of a whole day of daily_life).
        if hierarchical(g) {
            hpa::build(&mut nav.graph, g, &nav.door_open);
        } else {
            hpa::frame(&mut nav.graph, g);
        }
        for path in &mut nav.paths {
            path.stale = true;
        }
        return;
    }
    if nav.door_changes.is_empty() {
        return;
    }
    let mut cells = Vec::new();
    for d in std::mem::take(&mut nav.door_changes) {
        let Some(door) = doors.get(d as usize) else {
            continue;
        };
        let open = w.objects.get(door.object as usize).is_some_and(|o| o.open);
        if nav.door_open[d as usize] != open {
            nav.door_open[d as usize] = open;
            cells.extend(g.cells_of_door(d));
        }
    }
    if cells.is_empty() {
        return;
    }
    let ks = if hierarchical(g) {
        hpa::door_changed(&mut nav.graph, g, &nav.door_open, &cells)
    } else {
        hpa::clusters_of(&nav.graph, g, &cells)
    };
    for path in &mut nav.paths {
        if path.no_path || path.clusters.iter().any(|k| ks.binary_search(k).is_ok()) {
            path.stale = true;
        }
    }
}

/// NPC `i` walks (it has a target it is not at, is alive and has a speed) and has no plan
/// for that target (or its plan is stale).
fn needs_plan(p: &Program, w: &World, i: usize) -> bool {
    let n = &w.npcs[i];
    let Some(target) = w.target(i) else {
        return false;
    };
    // The cheap test first: most walking NPCs have their plan.
    let planned = w
        .nav
        .paths
        .get(i)
        .is_some_and(|path| path.goal == Some(target) && !path.stale);
    !planned
        && n.alive()
        && p.npcs[n.proto as usize].speed > 0.0
        && w.pos[i].distance(target) >= 1e-9
}

/// Queues the NPCs that need a plan (in NPC order, behind those already waiting) and plans
/// for the first [`PLAN_BUDGET`] of the queue; an NPC that has no way to its target is
/// reported (`blocked`, reason `no_path`) once per plan.
/// Only the NPCs with a target (`World::walkers`) can need one.
pub fn serve(p: &Program, w: &mut World, out: &mut Out) {
    let n = w.npcs.len();
    if w.nav.paths.len() < n {
        w.nav.paths.resize(n, NpcPath::default());
    }
    if w.nav.queued.len() < n {
        w.nav.queued.resize(n, false);
    }
    let mut next = w.next_walker(0);
    while let Some(i) = next {
        next = w.next_walker(i + 1);
        if w.nav.queued[i] || !needs_plan(p, w, i) {
            continue;
        }
        // A target in sight needs no search: walked to straight at once, outside the budget;
        // so does (on a big grid) a target that moved a little, in sight of the path's last
        // way point.
        let (pos, target) = (w.pos[i], w.target(i));
        if let Some(target) = target {
            if direct(p, &mut w.nav, pos, target) {
                set_path(p, w, i, pos, target, Some(vec![target]), out);
                continue;
            }
            if hierarchical(&p.walls.grid) && retarget(p, &mut w.nav, i, pos, target) {
                continue;
            }
        }
        w.nav.queued[i] = true;
        w.nav.queue.push_back(i as u32);
    }
    let mut budget = PLAN_BUDGET;
    while budget > 0 {
        let Some(i) = w.nav.queue.pop_front() else {
            break;
        };
        let i = i as usize;
        w.nav.queued[i] = false;
        if !needs_plan(p, w, i) {
            continue;
        }
        let Some(target) = w.target(i) else {
            continue;
        };
        let pos = w.pos[i];
        let points = if direct(p, &mut w.nav, pos, target) {
            Some(vec![target])
        } else {
            budget -= 1;
            w.nav.searches += 1;
            search(p, &mut w.nav, pos, target)
        };
        set_path(p, w, i, pos, target, points, out);
    }
}

/// Most a target may move (in cells) for a path to it to be kept with a new last leg.
const RETARGET_CELLS: f64 = 2.0;

/// NPC `i`'s target moved a little (at most [`RETARGET_CELLS`] from its path's goal) and is
/// in sight of the way point before the last (or of the NPC, on its last leg): the path
/// keeps its way and ends at the new target. False (nothing changed) otherwise.
fn retarget(p: &Program, nav: &mut NavState, i: usize, pos: Vec2, target: Vec2) -> bool {
    let g = &p.walls.grid;
    let Some(path) = nav.paths.get(i) else {
        return false;
    };
    let (Some(goal), Some(&last)) = (path.goal, path.points.last()) else {
        return false;
    };
    if path.stale || path.no_path || last != goal || goal.distance(target) > RETARGET_CELLS * g.cell
    {
        return false;
    }
    let n = path.points.len();
    let prev = if path.next + 1 < n {
        path.points[n - 2]
    } else {
        pos
    };
    if !direct(p, nav, prev, target) {
        return false;
    }
    let more = leg_clusters(&nav.graph, g, prev, &[target]);
    let path = &mut nav.paths[i];
    path.goal = Some(target);
    path.points[n - 1] = target;
    path.clusters.extend(more);
    path.clusters.sort_unstable();
    path.clusters.dedup();
    true
}

/// The straight walk from `pos` to `target` is clear of walls and closed doors.
fn direct(p: &Program, nav: &mut NavState, pos: Vec2, target: Vec2) -> bool {
    p.walls
        .clear(pos, target, NPC_RADIUS, &nav.door_open, &mut nav.scratch)
}

/// Gives NPC `i` (at `pos`) the path `points` to `target` (`None`: there is no way,
/// reported as `blocked`, reason `no_path`).
fn set_path(
    p: &Program,
    w: &mut World,
    i: usize,
    pos: Vec2,
    target: Vec2,
    points: Option<Vec<Vec2>>,
    out: &mut Out,
) {
    w.nav.plans += 1;
    if w.nav.paths[i].goal == Some(target) {
        w.nav.replans += 1;
    }
    let no_path = points.is_none();
    let points = points.unwrap_or_default();
    let clusters = leg_clusters(&w.nav.graph, &p.walls.grid, pos, &points);
    w.nav.paths[i] = NpcPath {
        goal: Some(target),
        points,
        next: 0,
        no_path,
        stale: false,
        clusters,
    };
    if no_path {
        let tick = w.tick;
        let ev = TraceEvent::Blocked {
            tick,
            npc: i as u32,
            reason: NO_PATH,
        };
        out.emit(p, w, Some(i as u32), ev);
    }
}

/// Where NPC `i` at `pos` walks next on its way to `target`: the next way point of its
/// path; `None` while it has no plan for this target yet (it waits in the queue) or there is
/// no way.
pub fn waypoint(w: &mut World, i: usize, pos: Vec2, target: Vec2) -> Option<Vec2> {
    let path = w.nav.paths.get_mut(i)?;
    if path.goal != Some(target) || path.stale || path.no_path {
        return None;
    }
    while path.next + 1 < path.points.len() && pos.distance(path.points[path.next]) < 1e-6 {
        path.next += 1;
    }
    path.points.get(path.next).copied()
}

/// The clusters the walk from `from` along `points` passes through or near (within the
/// grid's clearance and a body of every point of it), sorted.
fn leg_clusters(gr: &NavGraph, g: &NavGrid, from: Vec2, points: &[Vec2]) -> Vec<u32> {
    let r = g.clearance + NPC_RADIUS;
    let mut out = Vec::new();
    let mut a = from;
    for &b in points {
        each_leg_sample(g, a, b, |at| {
            for (dx, dy) in [(-r, -r), (r, -r), (-r, r), (r, r)] {
                let c = g.id(g.cell_of(Vec2::new(at.x + dx, at.y + dy)));
                out.push(hpa::cluster_of(gr, g, c));
            }
        });
        a = b;
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Calls `f` with points along the leg `a` → `b` at most half a cell apart, both ends
/// included. A leg that leaves the grid is walked as its image on the grid (each point
/// clamped to the grid's box, as [`NavGrid::cell_of`] clamps it): the same cells, in at most
/// a few grid widths of samples, where a leg from an NPC or to a target far outside the
/// bounds (a chaser after one, every tick) would take millions.
pub(super) fn each_leg_sample(g: &NavGrid, a: Vec2, b: Vec2, mut f: impl FnMut(Vec2)) {
    let step = g.cell * 0.5;
    let mut piece = |a: Vec2, b: Vec2, first: bool| {
        let n = ((a.distance(b) / step).ceil() as usize).max(1);
        for s in usize::from(!first)..=n {
            f(a + (b - a) * (s as f64 / n as f64));
        }
    };
    let (lo, hi) = (
        g.min,
        g.min + Vec2::new(g.cols as f64 * g.cell, g.rows as f64 * g.cell),
    );
    let inside = |p: Vec2| p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
    if inside(a) && inside(b) {
        piece(a, b, true);
        return;
    }
    // Where the leg crosses the box's sides, in order; between two of them the clamped leg is
    // a straight piece.
    let mut ts = vec![0.0, 1.0];
    for (p, q, edges) in [(a.x, b.x, [lo.x, hi.x]), (a.y, b.y, [lo.y, hi.y])] {
        for e in edges {
            let t = (e - p) / (q - p);
            if t > 0.0 && t < 1.0 {
                ts.push(t);
            }
        }
    }
    ts.sort_by(f64::total_cmp);
    let clamp = |t: f64| {
        let p = a + (b - a) * t;
        Vec2::new(p.x.clamp(lo.x, hi.x), p.y.clamp(lo.y, hi.y))
    };
    for (k, w) in ts.windows(2).enumerate() {
        piece(clamp(w[0]), clamp(w[1]), k == 0);
    }
}

/// The free cell a walk from `pos` (in cell `c`) starts at: `c`, or out of a blocked cell
/// (an NPC standing close to a wall) the nearest free cell within two cells whose centre it
/// reaches without crossing a wall or a closed door (so never one behind the wall).
fn start_cell(p: &Program, nav: &mut NavState, pos: Vec2, c: u32) -> Option<u32> {
    let g = &p.walls.grid;
    if g.free(c, &nav.door_open) {
        return Some(c);
    }
    let mut v: Vec<(u64, u32)> = free_near(g, &nav.door_open, c)
        .map(|n| (pos.distance(g.centre(g.coords(n))).to_bits(), n))
        .collect();
    v.sort_unstable();
    v.into_iter().map(|(_, n)| n).find(|&n| {
        let to = g.centre(g.coords(n));
        p.walls
            .first_hit(pos, to, &nav.door_open, &mut nav.scratch)
            .is_none()
    })
}

/// The free cells within two cells of cell `c` (itself included), row by row.
fn free_near<'a>(g: &'a NavGrid, doors: &'a [bool], c: u32) -> impl Iterator<Item = u32> + 'a {
    let (x, y) = g.coords(c);
    let (x, y) = (x as i64, y as i64);
    (-2..=2)
        .flat_map(move |dy| (-2..=2).filter_map(move |dx| cell_at(g, x + dx, y + dy)))
        .filter(move |&n| g.free(n, doors))
}

fn cell_at(g: &NavGrid, x: i64, y: i64) -> Option<u32> {
    (x >= 0 && y >= 0 && x < g.cols as i64 && y < g.rows as i64).then(|| g.id((x as u32, y as u32)))
}

/// The free cells a walk to cell `c` may end at: `c`, or (a target in a wall or a closed
/// doorway) the free cells within two cells of it, nearest first.
fn goal_cells(g: &NavGrid, doors: &[bool], c: u32) -> Vec<u32> {
    if g.free(c, doors) {
        return vec![c];
    }
    let mut v: Vec<(u32, u32)> = free_near(g, doors, c)
        .map(|n| (hpa::octile(g, c, n), n))
        .collect();
    v.sort_unstable();
    v.into_iter().map(|(_, n)| n).collect()
}

/// The way points from `pos` to `target` (the last one `target`), or `None` when walls and
/// closed doors leave no way.
pub fn plan(p: &Program, nav: &mut NavState, pos: Vec2, target: Vec2) -> Option<Vec<Vec2>> {
    if direct(p, nav, pos, target) {
        return Some(vec![target]);
    }
    search(p, nav, pos, target)
}

/// [`plan`] for a target not in sight: the planner's cells, smoothed.
fn search(p: &Program, nav: &mut NavState, pos: Vec2, target: Vec2) -> Option<Vec<Vec2>> {
    let walls = &p.walls;
    let g = &walls.grid;
    let from = g.id(g.cell_of(pos));
    let cells = if hierarchical(g) {
        let start = start_cell(p, nav, pos, from)?;
        let doors = &nav.door_open;
        let comp = hpa::component(&nav.graph, g, start)?;
        let goal = goal_cells(g, doors, g.id(g.cell_of(target)))
            .into_iter()
            .find(|&c| hpa::component(&nav.graph, g, c) == Some(comp))?;
        let mut cells = hpa::cell_path(&mut nav.graph, g, doors, start, goal)?;
        if start != from {
            cells.insert(0, start);
        }
        cells
    } else {
        // Out of a blocked cell toward a free one on this side of the wall; with none in
        // reach, A* leaves the blocked cell diagonally.
        let start = start_cell(p, nav, pos, from).unwrap_or(from);
        let mut cells = cell_path(g, start, g.id(g.cell_of(target)), &nav.door_open)?;
        if start != from {
            cells.insert(0, start);
        }
        cells
    };
    // Smooth: from each way point, walk straight to the furthest node in sight.
    let mut nodes: Vec<Vec2> = Vec::with_capacity(cells.len() + 2);
    nodes.push(pos);
    nodes.extend(cells.iter().map(|&c| g.centre(g.coords(c))));
    nodes.push(target);
    let mut points = Vec::new();
    let mut at = 0usize;
    while at + 1 < nodes.len() {
        let mut best = at + 1;
        let last = (at + LOOK_AHEAD).min(nodes.len() - 1);
        for j in at + 2..=last {
            if walls.clear(
                nodes[at],
                nodes[j],
                NPC_RADIUS,
                &nav.door_open,
                &mut nav.scratch,
            ) {
                best = j;
            } else {
                break;
            }
        }
        points.push(nodes[best]);
        at = best;
    }
    Some(points)
}

/// Grids of at most this many cells (a 128 × 128-unit world at the finest cell) are searched
/// flat, in one A* over the whole grid: exact, and cheap at that size.
pub const FLAT_CELLS: u32 = 1 << 16;

/// Grid `g` is planned on by the hierarchical planner (it is larger than [`FLAT_CELLS`]).
pub fn hierarchical(g: &NavGrid) -> bool {
    g.cols * g.rows > FLAT_CELLS
}

/// The flat A* over the whole grid (small grids, and the test oracle of [`hpa`]): from cell `from` to cell `to`: the cells after `from`, up to one that
/// is `to` or (when `to` itself is blocked: a target in a wall or a closed doorway) a free
/// cell within two cells of it. A blocked start cell (an NPC standing close to a wall) is
/// left diagonally too; the walk itself never crosses a wall (movement stops steps there).
pub fn cell_path(g: &NavGrid, from: u32, to: u32, door_open: &[bool]) -> Option<Vec<u32>> {
    let goal = g.coords(to);
    let goal_free = g.free(to, door_open);
    let start_free = g.free(from, door_open);
    let succ = |&c: &u32| -> Vec<(u32, u32)> {
        let (x, y) = g.coords(c);
        let (x, y) = (x as i64, y as i64);
        let free = |cx: i64, cy: i64| -> Option<u32> {
            if cx < 0 || cy < 0 || cx >= g.cols as i64 || cy >= g.rows as i64 {
                return None;
            }
            let id = g.id((cx as u32, cy as u32));
            g.free(id, door_open).then_some(id)
        };
        let mut v = Vec::with_capacity(8);
        let w_ = free(x - 1, y);
        let e_ = free(x + 1, y);
        let s_ = free(x, y - 1);
        let n_ = free(x, y + 1);
        for n in [w_, e_, s_, n_].into_iter().flatten() {
            v.push((n, 10));
        }
        // Diagonals only between free sides (no corner cutting), or out of a blocked start.
        let side_ok = |a: Option<u32>, b: Option<u32>| {
            (a.is_some() && b.is_some()) || (c == from && !start_free)
        };
        for (dx, dy, a, b) in [
            (-1, -1, w_, s_),
            (1, -1, e_, s_),
            (-1, 1, w_, n_),
            (1, 1, e_, n_),
        ] {
            if side_ok(a, b)
                && let Some(n) = free(x + dx, y + dy)
            {
                v.push((n, 14));
            }
        }
        v
    };
    let heuristic = |&c: &u32| -> u32 {
        let (x, y) = g.coords(c);
        let dx = x.abs_diff(goal.0);
        let dy = y.abs_diff(goal.1);
        10 * dx.max(dy) + 4 * dx.min(dy)
    };
    let success = |&c: &u32| -> bool {
        if c == to {
            return true;
        }
        if goal_free {
            return false;
        }
        let (x, y) = g.coords(c);
        x.abs_diff(goal.0) <= 2 && y.abs_diff(goal.1) <= 2 && g.free(c, door_open)
    };
    let (cells, _) = astar(&from, succ, heuristic, success)?;
    Some(cells.into_iter().skip(1).collect())
}
