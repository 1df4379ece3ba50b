//! Object and NPC changes made by responses (and scripts): doors, object states, items,
//! spawning (where the copies appear; [`lifecycle::spawn`] places each), re-arming a trigger.

use rand::RngExt;

use crate::expr::Env as _;
use crate::pack::DoorAction;
use crate::program::Program;
use crate::program::responses::SpawnAt;
use crate::program::triggers::Op;
use crate::trace::{Out, TraceEvent};
use crate::value::{Sym, Vec2};
use crate::world::World;
use crate::world::WorldEnv;
use crate::world::triggers::{dirty, recount, reloading};

use super::lifecycle::{self, happened};

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
        // Movement plans with the doors as this record says (the world's one write path).
        if o.open != before.open
            && let Some(d) = p.walls.door_of_object(object)
        {
            w.nav.door_changes.push(d);
        }
        let tick = w.tick;
        let ev = TraceEvent::Door {
            tick,
            object,
            action,
        };
        happened(p, w, None, ev, out);
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
        happened(p, w, Some(npc), TraceEvent::Item { tick, npc, item }, out);
    }
}

/// Sets a world object's free-form state; reports `object_state` when it changed.
pub fn set_object_state(p: &Program, w: &mut World, object: u32, state: Sym, out: &mut Out) {
    if let Some(o) = w.objects.get_mut(object as usize)
        && o.state != state
    {
        o.state = state;
        let tick = w.tick;
        let ev = TraceEvent::ObjectState {
            tick,
            object,
            state,
        };
        happened(p, w, None, ev, out);
    }
}

/// Spawns `count` copies of declared NPC `proto`, scattered (seeded) around where `at` says.
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
        SpawnAt::Entity(e) => WorldEnv::world(p, w).position(e).unwrap_or(info.pos),
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
        lifecycle::spawn(p, w, proto, pos, out);
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
    let was_reloading = reloading(st, t, tick);
    st.spent[ti] = false;
    st.reload_until[ti] = 0;
    st.holding[ti] = false;
    st.reset_pass[ti] = st.pass;
    dirty(st, t);
    // Re-armed during its reload: its area, radius and rectangle conditions (reset when it
    // fired) start fresh now.
    if was_reloading {
        let mut st = std::mem::take(&mut w.triggers);
        recount(p, w, &mut st, t, tick);
        w.triggers = st;
    }
}
