//! Smart areas (SPEC §2), the phases: brains and handler queues ([`tick_areas`], before the
//! NPC trees) and membership ([`membership`], after movement: enter/exit, OnEnter/OnExit,
//! leave policies).

use crate::pack::Keep;
use crate::program::Program;
use crate::systems::effects::areas::{drop_tag, queue_handler, remove_area};
use crate::systems::effects::report_area;
use crate::systems::host::run_area;
use crate::trace::{Out, TraceEvent};
use crate::world::World;
use crate::world::areas::{DynArea, HandlerKind, areas_at, innermost, proto_of, state};

#[cfg(test)]
mod tests;

/// The membership phase, after movement: areas entered and left by the NPCs that moved
/// (every NPC when dynamic areas came or went).
pub fn membership(p: &Program, w: &mut World, out: &mut Out) {
    let moved = std::mem::take(&mut w.moved);
    let all = std::mem::replace(&mut w.areas_changed, false);
    for (i, &m) in moved.iter().enumerate() {
        if all || m {
            update_membership(p, w, i as u32, out);
            if out.stop {
                break;
            }
        }
    }
    w.moved = moved;
}

/// Recomputes which areas an NPC stands in; reports enters and exits, queues OnEnter/OnExit
/// handlers and applies the leave policy of the behaviors of areas left.
pub fn update_membership(p: &Program, w: &mut World, npc: u32, out: &mut Out) {
    let i = npc as usize;
    let at = w.pos[i];
    let mut now = std::mem::take(&mut w.scratch);
    areas_at(p, w, at, &mut now);
    let was = std::mem::take(&mut w.npcs[i].areas);
    // (Not `was != now`: that calls `memcmp`, whose vector code reads the dangling pointer
    // of an empty `Vec` under an all-off mask, which some CPUs handle with a slow
    // microcode assist: it was a third of a crowd's tick.)
    if was.len() != now.len() || was.iter().zip(&now).any(|(a, b)| a != b) {
        let tick = w.tick;
        // Exits first (by id), then enters.
        for &a in was.iter().filter(|a| now.binary_search(a).is_err()) {
            leave_policy(p, w, npc, a, out);
            queue_handler(p, w, a, HandlerKind::Exit, npc);
            let ev = TraceEvent::Exit { tick, npc, area: a };
            report_area(p, &mut w.triggers, &ev);
            out.emit(p, w, Some(npc), ev);
        }
        for &a in now.iter().filter(|a| was.binary_search(a).is_err()) {
            queue_handler(p, w, a, HandlerKind::Enter, npc);
            let ev = TraceEvent::Enter { tick, npc, area: a };
            report_area(p, &mut w.triggers, &ev);
            out.emit(p, w, Some(npc), ev);
        }
    }
    w.npcs[i].area = innermost(p, &now);
    w.npcs[i].areas = now;
    // The two buffers trade places: no allocation once they are large enough.
    let mut was = was;
    was.clear();
    w.scratch = was;
}

fn leave_policy(p: &Program, w: &mut World, npc: u32, area: u32, out: &mut Out) {
    let mut k = 0;
    while k < w.npcs[npc as usize].tags.len() {
        let tag = &w.npcs[npc as usize].tags[k];
        if tag.area != area {
            k += 1;
            continue;
        }
        let rule = p.area_rules[proto_of(area) as usize].templates[tag.template as usize].drop;
        match rule.on_leave {
            Keep::Keep => k += 1,
            Keep::Overridable => {
                w.npcs[npc as usize].tags[k].overridable = true;
                k += 1;
            }
            Keep::Drop => drop_tag(p, w, npc, k, "left the area", out),
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
        if !run_area(p, w, id, out.trace.as_deref_mut(), out.probe.as_deref_mut()) {
            out.stop = true;
            return;
        }
    }
    // Dead dynamic areas with nothing left running are forgotten.
    w.dyn_areas
        .retain(|d| d.state.alive || d.state.running.is_some());
}
