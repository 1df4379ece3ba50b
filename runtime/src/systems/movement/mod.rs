//! Movement (SPEC §6): every walking NPC takes one step: toward its target, or around walls
//! and through open doors along a planned path ([`paths`]); steering around the static
//! obstacles near it (the program's obstacle grid, so it looks only at what is near); never
//! through a wall or a closed door; staying in bounds. Who moved is left in `World::moved`
//! for the membership phase.

pub mod hpa;
pub mod paths;
#[cfg(test)]
mod tests;

use crate::program::Program;
use crate::trace::Out;
use crate::value::Vec2;
use crate::world::triggers::moved as moved_to;
use crate::world::{NPC_RADIUS, World};

/// How far short of a wall a step that would cross it stops.
const WALL_MARGIN: f64 = 0.05;

/// Moves every walking NPC one step: seek the target (or the next way point of its path
/// around walls), steer around static obstacles, stop at walls and closed doors, stay in
/// bounds. Only `+ - * / sqrt`, so results are identical on every IEEE-754 machine.
///
/// Only the NPCs in `World::walkers` are looked at: exactly those with a target
/// (`World::set_target`), in NPC order, so who moves and in which order is the same as when
/// every NPC was looked at.
pub fn movement(p: &Program, w: &mut World, out: &mut Out) {
    let b = p.bounds;
    let walled = !p.walls.is_empty();
    if walled {
        paths::sync_doors(p, w);
        paths::serve(p, w, out);
    }
    let mut moved = std::mem::take(&mut w.moved);
    moved.clear();
    moved.resize(w.npcs.len(), false);
    let mut near: Vec<u32> = Vec::new();
    let mut next = w.next_walker(0);
    while let Some(i) = next {
        // Movement sets no target: the NPCs after `i` that walk are known now.
        next = w.next_walker(i + 1);
        // A walker's target and speed from its compact entry, whether it is alive from the
        // live bits: the NPC's own struct is not read.
        let Some(walk) = w.walk(i) else {
            continue;
        };
        if !w.is_alive(i) {
            continue;
        }
        let (target, speed) = (walk.target, walk.speed);
        let pos = w.pos[i];
        if pos.distance(target) < 1e-9 || speed <= 0.0 {
            continue;
        }
        let seek = if walled {
            match paths::waypoint(w, i, pos, target) {
                Some(s) => s,
                None => continue,
            }
        } else {
            target
        };
        let to = seek - pos;
        let d = to.length();
        if d < 1e-9 {
            continue;
        }
        let mut dir = to * (1.0 / d);
        if p.obstacles.any {
            each_obstacle_near(p, pos, &mut near, |o| {
                let o = &p.objects[o as usize];
                let off = pos - o.pos;
                let dist = off.length();
                let clear = o.radius + NPC_RADIUS;
                let ahead = (o.pos.x - pos.x) * dir.x + (o.pos.y - pos.y) * dir.y;
                // Obstacles behind, beyond the target, or that are the target are not avoided.
                let is_goal = target.distance(o.pos) <= clear + 0.5;
                if dist > 1e-9 && dist < clear + 1.0 && ahead > 0.0 && ahead < d && !is_goal {
                    let weight = (clear + 1.0 - dist) * 1.5;
                    // Sidestep: perpendicular to the way to the obstacle, on the target's side.
                    let side = Vec2::new(-off.y, off.x) * (1.0 / dist);
                    let s = if side.x * to.x + side.y * to.y >= 0.0 {
                        1.0
                    } else {
                        -1.0
                    };
                    dir = dir + (off * (1.0 / dist) + side * s) * weight;
                }
            });
        }
        let len = dir.length();
        if len < 1e-9 {
            continue;
        }
        let step = (speed * p.dt).min(d);
        let mut np = pos + dir * (step / len);
        if p.obstacles.any {
            each_obstacle_near(p, np, &mut near, |o| {
                let o = &p.objects[o as usize];
                let off = np - o.pos;
                let dist = off.length();
                let clear = o.radius + NPC_RADIUS;
                if dist < clear && dist > 1e-9 {
                    np = o.pos + off * (clear / dist);
                }
            });
        }
        np.x = np.x.clamp(b.min.x, b.max.x);
        np.y = np.y.clamp(b.min.y, b.max.y);
        if walled {
            np = stop_at_walls(p, w, i, pos, np, seek, step);
            if np == pos {
                continue;
            }
        }
        w.set_pos(i, np);
        moved_to(p, &mut w.triggers, i as u32);
        moved[i] = true;
    }
    w.moved = moved;
}

/// Calls `f` with each obstacle whose avoidance range may hold `at`, in object order (so the
/// steering sums add up in the same order as ever): straight from the grid's cell when it
/// lists them in that order, else gathered in `buf` and sorted first.
fn each_obstacle_near(p: &Program, at: Vec2, buf: &mut Vec<u32>, mut f: impl FnMut(u32)) {
    if p.obstacles.in_order {
        p.obstacles.grid.near(at).for_each(f);
        return;
    }
    buf.clear();
    buf.extend(p.obstacles.grid.near(at));
    buf.sort_unstable();
    buf.dedup();
    for &o in buf.iter() {
        f(o);
    }
}

/// The step `pos` → `np`, cut short where it would cross a wall or a closed door. When the
/// steered step is blocked, the straight step toward `seek` is tried; when that is blocked
/// too, the NPC plans again on its next step.
fn stop_at_walls(
    p: &Program,
    w: &mut World,
    i: usize,
    pos: Vec2,
    np: Vec2,
    seek: Vec2,
    step: f64,
) -> Vec2 {
    let nav = &mut w.nav;
    let Some(t) = p.walls.first_hit(pos, np, &nav.door_open, &mut nav.scratch) else {
        return np;
    };
    let to = seek - pos;
    let d = to.length();
    if d > 1e-9 {
        let straight = pos + to * (step.min(d) / d);
        if p.walls
            .first_hit(pos, straight, &nav.door_open, &mut nav.scratch)
            .is_none()
        {
            return straight;
        }
    }
    let len = pos.distance(np);
    let keep = (t - WALL_MARGIN / len.max(1e-9)).max(0.0);
    if keep <= 0.0 {
        if let Some(path) = nav.paths.get_mut(i) {
            path.stale = true;
        }
        return pos;
    }
    pos + (np - pos) * keep
}
