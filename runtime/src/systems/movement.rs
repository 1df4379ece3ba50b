//! Movement (SPEC §6): every walking NPC takes one step: seek the target, steer around
//! static obstacles, stay in bounds. Who moved is left in `World::moved` for the membership
//! phase.

use crate::program::Program;
use crate::value::Vec2;
use crate::world::triggers::moved as moved_to;
use crate::world::{NPC_RADIUS, World};

/// Moves every walking NPC one step: seek the target, steer around static obstacles, stay
/// in bounds. Only `+ - * / sqrt`, so results are identical on every IEEE-754 machine.
pub fn movement(p: &Program, w: &mut World) {
    let b = p.bounds;
    let mut moved = std::mem::take(&mut w.moved);
    moved.clear();
    moved.resize(w.npcs.len(), false);
    #[allow(clippy::needless_range_loop)] // `i` indexes several parallel arrays.
    for i in 0..w.npcs.len() {
        let Some(target) = w.npcs[i].target else {
            continue;
        };
        if w.npcs[i].removed {
            continue;
        }
        let pos = w.pos[i];
        let to = target - pos;
        let d = to.length();
        let speed = p.npcs[w.npcs[i].proto as usize].speed;
        if d < 1e-9 || speed <= 0.0 {
            continue;
        }
        let mut dir = to * (1.0 / d);
        for o in &p.objects {
            if o.radius <= 0.0 {
                continue;
            }
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
        }
        let len = dir.length();
        if len < 1e-9 {
            continue;
        }
        let step = (speed * p.dt).min(d);
        let mut np = pos + dir * (step / len);
        for o in &p.objects {
            if o.radius <= 0.0 {
                continue;
            }
            let off = np - o.pos;
            let dist = off.length();
            let clear = o.radius + NPC_RADIUS;
            if dist < clear && dist > 1e-9 {
                np = o.pos + off * (clear / dist);
            }
        }
        np.x = np.x.clamp(b.min.x, b.max.x);
        np.y = np.y.clamp(b.min.y, b.max.y);
        w.pos[i] = np;
        moved_to(p, &mut w.triggers, i as u32);
        moved[i] = true;
    }
    w.moved = moved;
}
