//! The one path of every change to who is in the world and where they stand: an NPC spawned,
//! removed or killed, an NPC's area membership recomputed (it moved, it appeared, an area came
//! or went). Each change reaches every layer at once — smart-area membership (enter/exit,
//! OnEnter/OnExit, leave policies), behaviors (dropped with OnDrop, their slots freed),
//! conversations (left), radius/rectangle sensors, the trigger index and the trace and the
//! debugger — so that a layer added later hears all of them by listening here.
//!
//! Every one of them reports through [`happened`], the one event stream: the trigger index
//! hears what it waits for (areas entered and left, deaths, messages received) from the same [`TraceEvent`] that
//! goes to the trace and the debugger's probe.

use super::areas::{drop_tag, queue_handler};
use crate::pack::Keep;
use crate::program::Program;
use crate::trace::{Out, TraceEvent};
use crate::value::{EntityId, Vec2};
use crate::world::areas::{HandlerKind, areas_at, innermost, proto_of};
use crate::world::triggers::{self, WorldEvent};
use crate::world::{Npc, World};

/// Reports a world change: the trigger index hears it (areas entered and left, deaths,
/// messages NPCs received), then
/// the trace and the debugger (which may ask to pause; the change is made all the same).
pub fn happened(p: &Program, w: &mut World, npc: Option<u32>, ev: TraceEvent, out: &mut Out) {
    let heard = match ev {
        TraceEvent::Enter { npc, area, .. } => Some(WorldEvent::Enter { npc, area }),
        TraceEvent::Exit { npc, area, .. } => Some(WorldEvent::Exit { npc, area }),
        TraceEvent::Died { npc, by, .. } => Some(WorldEvent::Died { npc, by }),
        TraceEvent::Received {
            to: EntityId::Npc(npc),
            message,
            ..
        } => Some(WorldEvent::Received { npc, message }),
        _ => None,
    };
    if let Some(e) = heard {
        triggers::report(p, w, e);
    }
    out.emit(p, w, npc, ev);
}

/// Recomputes which areas an NPC stands in (none when it is not alive): exits first (by id),
/// then enters, each reported through [`happened`] (triggers, trace, debugger), with its
/// OnExit/OnEnter queued and the leave policy of the behaviors of the areas left applied.
pub fn update_membership(p: &Program, w: &mut World, npc: u32, out: &mut Out) {
    let i = npc as usize;
    let at = w.pos[i];
    let mut now = std::mem::take(&mut w.scratch);
    if w.is_alive(i) {
        areas_at(p, w, at, &mut now);
    } else {
        now.clear();
    }
    if now.is_empty() && !w.in_areas.contains(i) {
        // In no area, and it stood in none: nothing changes (its struct is not read).
        w.scratch = now;
        return;
    }
    let was = std::mem::take(&mut w.npcs[i].areas);
    // (Not `was != now`: that calls `memcmp`, whose vector code reads the dangling pointer
    // of an empty `Vec` under an all-off mask, which some CPUs handle with a slow
    // microcode assist: it was a third of a crowd's tick.)
    if was.len() != now.len() || was.iter().zip(&now).any(|(a, b)| a != b) {
        let tick = w.tick;
        for &a in was.iter().filter(|a| now.binary_search(a).is_err()) {
            leave_policy(p, w, npc, a, out);
            queue_handler(p, w, a, HandlerKind::Exit, npc);
            happened(
                p,
                w,
                Some(npc),
                TraceEvent::Exit { tick, npc, area: a },
                out,
            );
        }
        for &a in now.iter().filter(|a| was.binary_search(a).is_err()) {
            queue_handler(p, w, a, HandlerKind::Enter, npc);
            happened(
                p,
                w,
                Some(npc),
                TraceEvent::Enter { tick, npc, area: a },
                out,
            );
        }
    }
    w.npcs[i].area = innermost(p, &now);
    w.npcs[i].areas = now;
    w.sync_in_areas(npc);
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

/// Places a new copy of declared NPC `proto` at `at`; it enters the areas it stands in at
/// once (trace `enter`, OnEnter queued). Returns its index.
pub fn spawn(p: &Program, w: &mut World, proto: u32, at: Vec2, out: &mut Out) -> u32 {
    let mut n = Npc::new(p, proto);
    n.removed = false;
    let copies = &mut w.triggers.copies;
    if copies.len() <= proto as usize {
        copies.resize(proto as usize + 1, Vec::new());
    }
    n.serial = copies[proto as usize].len() as u32 + 1;
    copies[proto as usize].push(w.npcs.len() as u32);
    let idx = w.push_npc(p, n, at);
    let tick = w.tick;
    happened(p, w, Some(idx), TraceEvent::Spawn { tick, npc: idx }, out);
    update_membership(p, w, idx, out);
    triggers::moved(p, &mut w.triggers, idx);
    idx
}

/// Puts an NPC somewhere else at once (tools): it stops walking and enters and leaves areas
/// as if it had walked there (trace, OnEnter/OnExit, leave policies, triggers).
pub fn teleport(p: &Program, w: &mut World, npc: u32, to: Vec2, out: &mut Out) {
    let i = npc as usize;
    if i >= w.npcs.len() {
        return;
    }
    let b = p.bounds;
    w.set_pos(
        i,
        Vec2::new(to.x.clamp(b.min.x, b.max.x), to.y.clamp(b.min.y, b.max.y)),
    );
    w.set_target(npc, None);
    update_membership(p, w, npc, out);
    triggers::moved(p, &mut w.triggers, npc);
}

/// Takes an NPC out of the world: its behaviors are dropped, it leaves its areas and its
/// conversation, it stops; its tree is halted at the next tree phase.
pub fn remove(p: &Program, w: &mut World, npc: u32, out: &mut Out) {
    let Some(n) = w.npcs.get_mut(npc as usize) else {
        return;
    };
    if n.removed {
        return;
    }
    w.set_removed(npc, true);
    let tick = w.tick;
    happened(p, w, Some(npc), TraceEvent::Remove { tick, npc }, out);
    leave_world(p, w, npc, "removed from the world", out);
}

/// Sets an NPC's health (clamped to [0, its starting health]); reaching 0 kills it (see
/// [`die`]). A dead or removed NPC's health does not change any more.
pub fn set_health(
    p: &Program,
    w: &mut World,
    npc: u32,
    health: f64,
    from: EntityId,
    out: &mut Out,
) {
    let Some(n) = w.npcs.get_mut(npc as usize) else {
        return;
    };
    if !n.alive() {
        return;
    }
    let max = p.npcs.get(n.proto as usize).map_or(0.0, |i| i.health);
    let h = if health.is_finite() {
        health.clamp(0.0, max)
    } else {
        0.0
    };
    let was = n.health;
    if h == was {
        return;
    }
    n.health = h;
    let tick = w.tick;
    let ev = TraceEvent::Health {
        tick,
        npc,
        health: h,
    };
    happened(p, w, Some(npc), ev, out);
    if was > 0.0 && h <= 0.0 {
        let by = match from {
            EntityId::Npc(k) => k,
            _ => u32::MAX,
        };
        die(p, w, npc, by, out);
    }
}

/// An NPC dies (`by`: its killer, `u32::MAX` = nobody): `died` is reported, its behaviors are
/// dropped (OnDrop), it leaves its areas (OnExit) and its conversation, it stops walking; its
/// tree is halted at the next tree phase and never ticks again; triggers it owns stop firing.
pub fn die(p: &Program, w: &mut World, npc: u32, by: u32, out: &mut Out) {
    let Some(n) = w.npcs.get_mut(npc as usize) else {
        return;
    };
    if !n.alive() {
        return;
    }
    w.set_dead(npc);
    let tick = w.tick;
    happened(p, w, Some(npc), TraceEvent::Died { tick, npc, by }, out);
    leave_world(p, w, npc, "died", out);
}

/// What every layer does when an NPC stops being alive (removed or dead).
fn leave_world(p: &Program, w: &mut World, npc: u32, reason: &'static str, out: &mut Out) {
    let i = npc as usize;
    // Behaviors first (their OnDrop), then the areas (OnExit): dropping one also drops the
    // behaviors nested in it.
    while !w.npcs[i].tags.is_empty() {
        drop_tag(p, w, npc, 0, reason, out);
    }
    // Not alive: it stands in no area any more.
    update_membership(p, w, npc, out);
    w.talk.release(npc);
    w.set_target(npc, None);
    w.npcs[i].show = None;
    triggers::moved(p, &mut w.triggers, npc);
}
