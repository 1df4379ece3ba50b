//! Smart areas (SPEC §2), the phases: brains and handler queues ([`tick_areas`], before the
//! NPC trees) and membership ([`membership`], after movement: enter/exit, OnEnter/OnExit,
//! leave policies).

use crate::program::Program;
use crate::systems::effects::areas::remove_area;
use crate::systems::effects::lifecycle;
use crate::systems::host::run_area;
use crate::trace::{Counting, Out};
use crate::world::World;
use crate::world::areas::{DynArea, state};

#[cfg(test)]
mod tests;

/// The membership phase, after movement: areas entered and left by the NPCs that moved
/// (every NPC when dynamic areas came or went).
pub fn membership(p: &Program, w: &mut World, out: &mut Out) {
    let moved = std::mem::take(&mut w.moved);
    let all = std::mem::replace(&mut w.areas_changed, false);
    for (i, &m) in moved.iter().enumerate() {
        if all || m {
            lifecycle::update_membership(p, w, i as u32, out);
            if out.stop {
                break;
            }
        }
    }
    w.moved = moved;
}

/// Tick 0, where everyone starts: every NPC enters the areas it stands in (through the one
/// membership path: `enter` traced, triggers told, OnEnter queued) and the handlers queued
/// run at once, at tick 0 (brains first tick in tick 1). Areas in id order.
pub fn start(p: &Program, w: &mut World, out: &mut Out) {
    for i in 0..w.npcs.len() as u32 {
        lifecycle::update_membership(p, w, i, out);
    }
    for k in 0..p.active_areas.len() {
        let id = p.active_areas[k];
        if state(w, id).is_some_and(|s| s.alive) {
            run_area(
                p,
                w,
                id,
                false,
                out.trace.as_deref_mut(),
                out.probe.as_deref_mut(),
                out.counts.as_mut().map(Counting::reborrow),
            );
        }
    }
}

/// The brains-and-handlers phase of a tick: expire dynamic areas, run each area's handler
/// queue (one run at a time, to completion, never interrupted by the brain) and tick brains
/// that are due. Areas in id order.
pub fn tick_areas(p: &Program, w: &mut World, out: &mut Out) {
    let tick = w.tick;
    let due = |d: &DynArea| d.state.alive && d.expires.is_some_and(|e| e <= tick);
    if w.dyn_areas.iter().any(due) {
        let expired: Vec<u32> = w
            .dyn_areas
            .iter()
            .filter(|d| due(d))
            .map(|d| d.id)
            .collect();
        for id in expired {
            remove_area(p, w, id, out);
            if out.stop {
                return;
            }
        }
    }
    // Active static areas in index order, then dynamic ones in id order (no allocation; the
    // cost does not grow with areas that have nothing to run). Areas created meanwhile run
    // in this tick too.
    let mut k = 0;
    while k < p.active_areas.len() + w.dyn_areas.len() {
        let id = match p.active_areas.get(k) {
            Some(&a) => a,
            None => w.dyn_areas[k - p.active_areas.len()].id,
        };
        k += 1;
        if !state(w, id).is_some_and(|s| s.alive) {
            continue;
        }
        if !run_area(
            p,
            w,
            id,
            true,
            out.trace.as_deref_mut(),
            out.probe.as_deref_mut(),
            out.counts.as_mut().map(Counting::reborrow),
        ) {
            out.stop = true;
            return;
        }
    }
    // Dead dynamic areas with nothing left running are forgotten.
    w.dyn_areas
        .retain(|d| d.state.alive || d.state.running.is_some());
}
