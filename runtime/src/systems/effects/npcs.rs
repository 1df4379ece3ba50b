//! NPC and object changes made by responses (and scripts): doors, items, health, removal,
//! spawning, re-arming a trigger.

use rand::RngExt;

use crate::pack::DoorAction;
use crate::program::Program;
use crate::program::responses::SpawnAt;
use crate::program::triggers::Op;
use crate::trace::{Out, TraceEvent};
use crate::value::{EntityId, Sym, Vec2};
use crate::world::areas::{areas_at, innermost};
use crate::world::triggers::{WorldEvent, dirty, moved, position, report};
use crate::world::{Npc, World};

/// Most NPCs a world holds (declared + spawned).
pub const MAX_NPCS: usize = 1 << 20;

/// Opens, closes, locks or unlocks an object; reports a `door` trace event when it changed.
pub fn door(p: &Program, w: &mut World, object: u32, action: DoorAction, out: &mut Out) {
    let Some(o) = w.objects.get_mut(object as usize) else {
        return;
    };
    let before = *o;
    match action {
        DoorAction::Open if !o.locked => o.open = true,
        DoorAction::Open => {}
        DoorAction::Close => o.open = false,
        DoorAction::Lock => {
            o.locked = true;
            o.open = false;
        }
        DoorAction::Unlock => o.locked = false,
    }
    if *o != before {
        let tick = w.tick;
        out.emit(
            p,
            w,
            None,
            TraceEvent::Door {
                tick,
                object,
                action,
            },
        );
    }
}

/// Puts an item in an NPC's inventory.
pub fn give(p: &Program, w: &mut World, npc: u32, item: Sym, out: &mut Out) {
    let Some(n) = w.npcs.get_mut(npc as usize) else {
        return;
    };
    if let Err(at) = n.items.binary_search(&item) {
        n.items.insert(at, item);
        let tick = w.tick;
        out.emit(p, w, Some(npc), TraceEvent::Item { tick, npc, item });
    }
}

/// Sets an NPC's health (clamped to [0, its starting health]); reaching 0 kills it.
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
    if n.removed {
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
    out.emit(
        p,
        w,
        Some(npc),
        TraceEvent::Health {
            tick,
            npc,
            health: h,
        },
    );
    if was > 0.0 && h <= 0.0 {
        let by = match from {
            EntityId::Npc(k) => k,
            _ => u32::MAX,
        };
        report(p, &mut w.triggers, WorldEvent::Died { npc, by });
        out.emit(p, w, Some(npc), TraceEvent::Died { tick, npc, by });
    }
}

/// Takes an NPC out of the world: it leaves its areas and sensors, its tree stops.
pub fn remove(p: &Program, w: &mut World, npc: u32, out: &mut Out) {
    let Some(n) = w.npcs.get_mut(npc as usize) else {
        return;
    };
    if n.removed {
        return;
    }
    n.removed = true;
    n.target = None;
    n.area = None;
    let areas = std::mem::take(&mut n.areas);
    for area in areas {
        report(p, &mut w.triggers, WorldEvent::Exit { npc, area });
    }
    moved(p, &mut w.triggers, npc);
    let tick = w.tick;
    out.emit(p, w, Some(npc), TraceEvent::Remove { tick, npc });
}

/// Spawns `count` copies of declared NPC `proto`.
pub fn spawn(
    p: &Program,
    w: &mut World,
    proto: u32,
    count: u32,
    at: SpawnAt,
    spread: f64,
    out: &mut Out,
) {
    let Some(info) = p.npcs.get(proto as usize) else {
        return;
    };
    let centre = match at {
        SpawnAt::Point(v) => v,
        SpawnAt::Entity(e) => position(p, w, e).unwrap_or(info.pos),
        SpawnAt::Home => info.pos,
    };
    let b = p.bounds;
    for _ in 0..count {
        if w.npcs.len() >= MAX_NPCS {
            return;
        }
        // Seeded scatter: uniform in a square of side 2*spread, clamped to the bounds.
        let dx = (w.rng.random::<f64>() * 2.0 - 1.0) * spread;
        let dy = (w.rng.random::<f64>() * 2.0 - 1.0) * spread;
        let pos = Vec2::new(
            (centre.x + dx).clamp(b.min.x, b.max.x),
            (centre.y + dy).clamp(b.min.y, b.max.y),
        );
        let idx = w.npcs.len() as u32;
        let mut n = Npc::new(p, proto);
        n.removed = false;
        let mut here = Vec::new();
        areas_at(p, w, pos, &mut here);
        n.area = innermost(p, &here);
        n.areas = here;
        let copies = &mut w.triggers.copies;
        if copies.len() <= proto as usize {
            copies.resize(proto as usize + 1, Vec::new());
        }
        n.serial = copies[proto as usize].len() as u32 + 1;
        copies[proto as usize].push(idx);
        let areas = n.areas.clone();
        w.npcs.push(n);
        w.pos.push(pos);
        for area in areas {
            report(p, &mut w.triggers, WorldEvent::Enter { npc: idx, area });
        }
        moved(p, &mut w.triggers, idx);
        let tick = w.tick;
        out.emit(p, w, Some(idx), TraceEvent::Spawn { tick, npc: idx });
        if out.stop {
            return;
        }
    }
}

/// Re-arms a trigger: clears its one-off latches, spent single shot, reload and "still true"
/// memory, and re-checks it in this pass.
pub fn reset(p: &Program, w: &mut World, t: u32) {
    let Some(trig) = p.triggers.triggers.get(t as usize) else {
        return;
    };
    let st = &mut w.triggers;
    let ti = t as usize;
    if ti >= st.spent.len() {
        return;
    }
    let tick = w.tick;
    for n in &trig.nodes {
        if let Op::Leaf(l) = n.op
            && p.triggers.leaves[l as usize].kind.is_one_off()
            && st.latch[l as usize]
        {
            st.latch[l as usize] = false;
            st.changed[l as usize] = tick;
        }
    }
    st.spent[ti] = false;
    st.reload_until[ti] = 0;
    st.holding[ti] = false;
    st.reset_pass[ti] = st.pass;
    dirty(st, t);
}
