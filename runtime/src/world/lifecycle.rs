//! The one path of every change to who is in the world and where they stand: an NPC spawned,
//! removed or killed, an NPC's area membership recomputed (it moved, it appeared, an area came
//! or went). Each change reaches every layer at once — smart-area membership (enter/exit,
//! OnEnter/OnExit, leave policies), behaviors (dropped with OnDrop, their slots freed),
//! conversations (left), radius/rectangle sensors, the trigger index and the trace and the
//! debugger — so that a layer added later hears all of them by listening here.
//!
//! [`happened`] is the one event stream: the trigger index hears what it waits for (areas
//! entered and left, deaths) from the same [`TraceEvent`] that goes to the trace and the
//! debugger's probe.

use super::probe::Out;
use super::{Npc, Program, TraceEvent, World};
use crate::areas;
use crate::triggers::{self, WorldEvent};
use crate::value::{EntityId, Vec2};

/// Reports a world change: the trigger index hears it (areas entered and left, deaths), then
/// the trace and the debugger (which may ask to pause; the change is made all the same).
pub fn happened(p: &Program, w: &mut World, npc: Option<u32>, ev: TraceEvent, out: &mut Out) {
    let heard = match ev {
        TraceEvent::Enter { npc, area, .. } => Some(WorldEvent::Enter { npc, area }),
        TraceEvent::Exit { npc, area, .. } => Some(WorldEvent::Exit { npc, area }),
        TraceEvent::Died { npc, by, .. } => Some(WorldEvent::Died { npc, by }),
        _ => None,
    };
    if let Some(e) = heard {
        triggers::report(p, &mut w.triggers, e);
    }
    out.emit(p, w, npc, ev);
}

/// Places a new copy of declared NPC `proto` at `at`; it enters the areas it stands in at
/// once (trace `enter`, OnEnter queued). Returns its index.
pub fn spawn(p: &Program, w: &mut World, proto: u32, at: Vec2, out: &mut Out) -> u32 {
    let idx = w.npcs.len() as u32;
    let mut n = Npc::new(p, proto);
    n.removed = false;
    let copies = &mut w.triggers.copies;
    if copies.len() <= proto as usize {
        copies.resize(proto as usize + 1, Vec::new());
    }
    n.serial = copies[proto as usize].len() as u32 + 1;
    copies[proto as usize].push(idx);
    w.npcs.push(n);
    w.pos.push(at);
    let tick = w.tick;
    happened(p, w, Some(idx), TraceEvent::Spawn { tick, npc: idx }, out);
    areas::update_membership(p, w, idx, out);
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
    w.pos[i] = Vec2::new(to.x.clamp(b.min.x, b.max.x), to.y.clamp(b.min.y, b.max.y));
    w.npcs[i].target = None;
    areas::update_membership(p, w, npc, out);
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
    n.removed = true;
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
    n.dead = true;
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
        areas::drop_tag(p, w, npc, 0, reason, out);
    }
    // Not alive: it stands in no area any more.
    areas::update_membership(p, w, npc, out);
    w.talk.release(npc);
    let n = &mut w.npcs[i];
    n.target = None;
    n.show = None;
    triggers::moved(p, &mut w.triggers, npc);
}
