//! Paths around walls and through open doors: A* (the `pathfinding` crate) on the program's
//! navigation grid, smoothed by line of sight into way points, cached per (from cell, goal
//! cell), planned again when a door opens or closes.
//!
//! Deterministic: the grid is a `Vec`, the neighbours come in one fixed order (by
//! coordinates: west, east, south, north, then the diagonals), the costs are integers (10 a
//! side, 14 a diagonal) with the octile heuristic, and `pathfinding::directed::astar` keeps
//! its open set in an insertion-ordered map with a fixed hasher and a binary heap, so the
//! same grid, doors and endpoints give the same path on every run and machine.

use std::sync::Arc;

use pathfinding::directed::astar::astar;

use crate::program::Program;
use crate::program::walls::NavGrid;
use crate::trace::{Out, TraceEvent};
use crate::value::Vec2;
use crate::world::NPC_RADIUS;
use crate::world::World;
use crate::world::nav::{MAX_CACHED_PATHS, NpcPath};

/// Trace reason of an NPC that has no way to its target.
pub const NO_PATH: &str = "no_path";
/// Furthest a smoothed leg looks ahead along the cell path, in cells.
const LOOK_AHEAD: usize = 64;

/// Reads the doors' states from the world objects (written only by the door response, the
/// world's one write path for them): when one opened or closed since the plans were made,
/// every plan is made again and the cache is emptied.
pub fn sync_doors(p: &Program, w: &mut World) {
    let nav = &mut w.nav;
    let doors = &p.walls.doors;
    if nav.door_open.len() != doors.len() {
        nav.door_open = vec![false; doors.len()];
        nav.epoch += 1;
        nav.cache.clear();
    }
    let mut changed = false;
    for (d, door) in doors.iter().enumerate() {
        let open = w.objects.get(door.object as usize).is_some_and(|o| o.open);
        if nav.door_open[d] != open {
            nav.door_open[d] = open;
            changed = true;
        }
    }
    if changed {
        nav.epoch += 1;
        nav.cache.clear();
    }
}

/// Where NPC `i` at `pos` walks next on its way to `target`: the next way point of its path
/// (planned now if it has none for this target and these doors); `None` when there is no
/// way (reported once per plan as `blocked` with reason `no_path`).
pub fn waypoint(
    p: &Program,
    w: &mut World,
    i: usize,
    pos: Vec2,
    target: Vec2,
    out: &mut Out,
) -> Option<Vec2> {
    if w.nav.paths.len() <= i {
        w.nav
            .paths
            .resize(w.npcs.len().max(i + 1), NpcPath::default());
    }
    let epoch = w.nav.epoch;
    let path = &w.nav.paths[i];
    if path.goal != Some(target) || path.epoch != epoch || path.stale {
        let points = plan(p, w, pos, target);
        let no_path = points.is_none();
        w.nav.paths[i] = NpcPath {
            goal: Some(target),
            epoch,
            points: points.unwrap_or_default(),
            next: 0,
            no_path,
            stale: false,
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
    let path = &mut w.nav.paths[i];
    if path.no_path {
        return None;
    }
    while path.next + 1 < path.points.len() && pos.distance(path.points[path.next]) < 1e-6 {
        path.next += 1;
    }
    path.points.get(path.next).copied()
}

/// The way points from `pos` to `target` (the last one `target`), or `None` when walls and
/// closed doors leave no way.
pub fn plan(p: &Program, w: &mut World, pos: Vec2, target: Vec2) -> Option<Vec<Vec2>> {
    let walls = &p.walls;
    let nav = &mut w.nav;
    if walls.clear(pos, target, NPC_RADIUS, &nav.door_open, &mut nav.scratch) {
        return Some(vec![target]);
    }
    let g = &walls.grid;
    let from = g.id(g.cell_of(pos));
    let to = g.id(g.cell_of(target));
    let cells = match nav.cache.get(&(from, to)) {
        Some(c) => c.clone(),
        None => {
            let c = cell_path(g, from, to, &nav.door_open).map(Arc::<[u32]>::from);
            if nav.cache.len() >= MAX_CACHED_PATHS {
                nav.cache.clear();
            }
            nav.cache.insert((from, to), c.clone());
            c
        }
    }?;
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

/// A* over the grid from cell `from` to cell `to`: the cells after `from`, up to one that
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
