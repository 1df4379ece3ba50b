//! Observing a tick from outside, event by event, and pausing it: the hook the debugger uses.

use super::{Program, TraceEvent, World};
use crate::bt::Status;
use crate::expr::{Env, Scope};
use crate::value::{EntityId, Sym, Value, Vec2};

/// Something that happened inside a tick, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DebugEvent<'a> {
    /// An NPC's tree is about to tick.
    NpcStart { npc: u32 },
    /// A node is about to be ticked (`tree`: the NPC's compiled tree, `node`: its index).
    Enter { npc: u32, tree: u32, node: u32 },
    /// A node returned (`from` = its previous status; may equal `to`).
    Result {
        npc: u32,
        tree: u32,
        node: u32,
        from: Status,
        to: Status,
    },
    /// A blackboard variable of an NPC changed value.
    VarChanged {
        npc: u32,
        slot: u32,
        old: Value,
        new: Value,
    },
    /// Anything that also goes to the trace (messages, flags, counters, areas entered, …).
    Trace(&'a TraceEvent),
}

/// Watches a tick. Returning true pauses the simulation right after the event.
pub trait Probe {
    /// `env` evaluates expressions for the NPC the event concerns, when there is one.
    fn event(&mut self, ev: &DebugEvent<'_>, env: Option<&dyn Env>) -> bool;
}

/// Reads a world-level variable (`area.NAME` of `area`, `flags.NAME`, `counters.NAME`);
/// blackboards are read by the caller. Shared by the ticking host and [`WorldEnv`].
#[inline]
pub(crate) fn world_var(
    p: &Program,
    w: &World,
    area: Option<u32>,
    scope: Scope,
    slot: u32,
) -> Value {
    let s = slot as usize;
    match scope {
        Scope::Blackboard => None,
        Scope::Flag => w.flags.get(s).map(|&b| Value::Bool(b)),
        Scope::Counter => w.counters.get(s).map(|&c| Value::Int(c)),
        Scope::Area => area
            .and_then(|a| crate::areas::vars(w, a))
            .and_then(|v| v.get(s).copied())
            .or_else(|| p.area_vars.types.get(s).map(|&t| Value::default_of(t))),
    }
    .unwrap_or(Value::Bool(false))
}

/// Where an entity is: the one position reader (trees, expressions, triggers, responses). A
/// removed NPC is nowhere (a dead one lies where it died); an area is the centre of its
/// bounding box, dynamic areas included.
pub(crate) fn position_of(p: &Program, w: &World, e: EntityId) -> Option<Vec2> {
    match e {
        EntityId::None => None,
        EntityId::Npc(i) => w
            .npcs
            .get(i as usize)
            .filter(|n| !n.removed)
            .and_then(|_| w.pos.get(i as usize).copied()),
        EntityId::Object(i) => p.objects.get(i as usize).map(|o| o.pos),
        EntityId::Area(a) => crate::areas::center(p, w, a),
    }
}

/// Whether an entity carries a tag: NPC tags (a spawned copy has its prototype's), object
/// kinds, area kinds (a dynamic area has its prototype's).
pub(crate) fn has_tag(p: &Program, w: &World, e: EntityId, tag: Sym) -> bool {
    match e {
        EntityId::None => false,
        EntityId::Npc(i) => w
            .npcs
            .get(i as usize)
            .and_then(|n| p.npcs.get(n.proto as usize))
            .is_some_and(|n| n.tags.contains(&tag)),
        EntityId::Object(i) => p.objects.get(i as usize).is_some_and(|o| o.kind == tag),
        EntityId::Area(a) => p
            .areas
            .get(crate::areas::proto_of(a) as usize)
            .is_some_and(|a| a.kinds.contains(&tag)),
    }
}

/// An entity's health: an NPC's health points (0 for a removed NPC); 0 for anything else.
pub(crate) fn health_of(w: &World, e: EntityId) -> f64 {
    match e {
        EntityId::Npc(i) => w
            .npcs
            .get(i as usize)
            .filter(|n| !n.removed)
            .map_or(0.0, |n| n.health),
        _ => 0.0,
    }
}

/// Whether an entity is a living NPC (in the world, not dead).
pub(crate) fn alive(w: &World, e: EntityId) -> bool {
    match e {
        EntityId::Npc(i) => w.npcs.get(i as usize).is_some_and(super::Npc::alive),
        _ => false,
    }
}

/// A read-only expression environment for one NPC of a world (between ticks), or for no NPC
/// (`npc: u32::MAX`: story preconditions), which reads only world-level values.
pub struct WorldEnv<'a> {
    pub program: &'a Program,
    pub world: &'a World,
    pub npc: u32,
}

impl Env for WorldEnv<'_> {
    fn var(&self, scope: Scope, slot: u32) -> Value {
        let w = self.world;
        let n = w.npcs.get(self.npc as usize);
        match scope {
            Scope::Blackboard => n
                .and_then(|n| n.blackboard.get(slot as usize).copied())
                .unwrap_or(Value::Bool(false)),
            _ => world_var(self.program, w, n.and_then(|n| n.area), scope, slot),
        }
    }
    fn self_entity(&self) -> EntityId {
        if (self.npc as usize) < self.world.npcs.len() {
            EntityId::Npc(self.npc)
        } else {
            EntityId::None
        }
    }
    fn health(&self, e: EntityId) -> f64 {
        health_of(self.world, e)
    }
    fn alive(&self, e: EntityId) -> bool {
        alive(self.world, e)
    }
    fn position(&self, e: EntityId) -> Option<Vec2> {
        position_of(self.program, self.world, e)
    }
    fn hour(&self) -> f64 {
        self.world.hour
    }
    fn day(&self) -> i64 {
        self.world.day
    }
    fn has_tag(&self, e: EntityId, tag: Sym) -> bool {
        has_tag(self.program, self.world, e, tag)
    }
}

/// Where world-level code (movement, responses, later runtimes) reports what happens: the
/// trace, when recording, and the debugger's probe, when watching (which may ask to pause).
pub struct Out<'a, 'p> {
    pub trace: Option<&'a mut Vec<TraceEvent>>,
    pub probe: Option<&'a mut (dyn Probe + 'p)>,
    /// Set when the probe asked to pause.
    pub stop: bool,
}

impl Out<'_, '_> {
    /// Reports an event; `npc` is the NPC it concerns (for breakpoint conditions).
    pub fn emit(&mut self, p: &Program, w: &World, npc: Option<u32>, ev: TraceEvent) {
        if self.stop {
            return;
        }
        if let Some(probe) = self.probe.as_deref_mut() {
            let env = npc.map(|npc| WorldEnv {
                program: p,
                world: w,
                npc,
            });
            if probe.event(&DebugEvent::Trace(&ev), env.as_ref().map(|e| e as &dyn Env)) {
                self.stop = true;
            }
        }
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(ev);
        }
    }
}
