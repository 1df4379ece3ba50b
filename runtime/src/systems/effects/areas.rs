//! Smart-area changes: handler runs queued, behaviors dropped, dynamic areas placed and
//! removed.

use crate::bt::Status;
use crate::program::Program;
use crate::trace::{Out, TraceEvent};
use crate::value::Vec2;
use crate::world::World;

use super::lifecycle::happened;
use crate::world::areas::{AreaState, DYN, DynArea, HandlerKind, Job, proto_of, state_mut};

/// Queues a handler run on an area, if it has a handler for that event.
pub fn queue_handler(p: &Program, w: &mut World, area: u32, kind: HandlerKind, npc: u32) {
    let has = p.area_rules[proto_of(area) as usize].handlers[kind as usize].is_some();
    if has && let Some(s) = state_mut(w, area) {
        s.queue.push_back(Job { kind, npc });
    }
}

/// Drops tag `k` of an NPC: the behavior ends (what its running nodes started stops: walking,
/// speech, animations, conversations), its area counts one holder less and runs its OnDrop
/// handler.
pub fn drop_tag(
    p: &Program,
    w: &mut World,
    npc: u32,
    k: usize,
    reason: &'static str,
    out: &mut Out,
) {
    let tag = w.npcs[npc as usize].tags.remove(k);
    // Its tree stops: walking, speech and animations it started end with it.
    if let Some(tree) = p.trees.get(tag.tree as usize) {
        for (j, node) in tree.nodes.iter().enumerate() {
            if tag.instance.status.get(j) == Some(&Status::Running) {
                match node.op {
                    crate::bt::Op::MoveTo { .. } | crate::bt::Op::GoToChild { .. } => {
                        w.set_target(npc, None)
                    }
                    crate::bt::Op::Animate { .. } | crate::bt::Op::Say { .. } => {
                        w.npcs[npc as usize].show = None
                    }
                    crate::bt::Op::Converse { cast, .. } => w.talk.hand_over(npc, cast, false),
                    _ => {}
                }
            }
        }
    }
    // Behaviors adopted by request nodes inside it go too.
    while let Some(inner) = w.npcs[npc as usize]
        .tags
        .iter()
        .position(|t| t.node >> 32 == u64::from(tag.tree))
    {
        drop_tag(p, w, npc, inner, "the behavior it was part of ended", out);
    }
    if let Some(s) = state_mut(w, tag.area)
        && let Some(h) = s.holders.get_mut(tag.template as usize)
    {
        *h = h.saturating_sub(1);
    }
    queue_handler(p, w, tag.area, HandlerKind::Drop, npc);
    let tick = w.tick;
    happened(
        p,
        w,
        Some(npc),
        TraceEvent::Drop {
            tick,
            npc,
            area: tag.area,
            template: p.area_rules[proto_of(tag.area) as usize].templates[tag.template as usize]
                .name,
            reason,
        },
        out,
    );
}

/// Places a copy of dynamic prototype `proto` centred at `at`; returns its id.
pub fn create_area(
    p: &Program,
    w: &mut World,
    proto: u32,
    at: Vec2,
    ticks: Option<u64>,
    out: &mut Out,
) -> Option<u32> {
    let rules = p.area_rules.get(proto as usize)?;
    if !rules.dynamic || w.dyn_areas.len() >= 4096 {
        return None;
    }
    w.dyn_serial = w.dyn_serial.wrapping_add(1) & 0xffff;
    if w.dyn_serial == 0 {
        w.dyn_serial = 1;
    }
    let id = DYN | (proto << 16) | w.dyn_serial;
    if w.dyn_areas.iter().any(|d| d.id == id) {
        return None;
    }
    let offset = at - p.areas[proto as usize].center();
    let mut state = AreaState::new(p, proto);
    state.alive = true;
    let tick = w.tick;
    let d = DynArea {
        id,
        offset,
        expires: ticks.map(|t| tick.saturating_add(t)),
        vars: p.areas[proto as usize].vars.clone(),
        state,
    };
    let at_index = w.dyn_areas.partition_point(|x| x.id < id);
    w.dyn_areas.insert(at_index, d);
    w.areas_changed = true;
    happened(p, w, None, TraceEvent::AreaCreated { tick, area: id }, out);
    Some(id)
}

/// Removes a dynamic area; NPCs inside leave it (at the membership update of this tick).
pub fn remove_area(p: &Program, w: &mut World, id: u32, out: &mut Out) {
    if let Some(d) = w.dyn_areas.iter_mut().find(|d| d.id == id && d.state.alive) {
        d.state.alive = false;
        w.areas_changed = true;
        let tick = w.tick;
        happened(p, w, None, TraceEvent::AreaRemoved { tick, area: id }, out);
    }
}
