//! The one reader of world-level values for expressions outside a ticking tree: variables,
//! positions and tags ([`WorldEnv`]); the ticking host shares the same helpers.

use crate::expr::{Env, Scope};
use crate::program::Program;
use crate::value::{EntityId, Sym, Value, Vec2};

use super::World;

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
            .and_then(|a| super::areas::vars(w, a))
            .and_then(|v| v.get(s).copied())
            .or_else(|| p.area_vars.types.get(s).map(|&t| Value::default_of(t))),
    }
    .unwrap_or(Value::Bool(false))
}

/// Where an entity is (an area: the centre of its bounding box, dynamic areas included).
pub(crate) fn position_of(p: &Program, w: &World, e: EntityId) -> Option<Vec2> {
    match e {
        EntityId::None => None,
        EntityId::Npc(i) => w.pos.get(i as usize).copied(),
        EntityId::Object(i) => p.objects.get(i as usize).map(|o| o.pos),
        EntityId::Area(a) => super::areas::center(p, w, a),
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
            .get(super::areas::proto_of(a) as usize)
            .is_some_and(|a| a.kinds.contains(&tag)),
    }
}

/// A read-only expression environment for one NPC of a world (between ticks).
pub struct WorldEnv<'a> {
    pub program: &'a Program,
    pub world: &'a World,
    pub npc: u32,
}

impl Env for WorldEnv<'_> {
    fn var(&self, scope: Scope, slot: u32) -> Value {
        let w = self.world;
        let Some(n) = w.npcs.get(self.npc as usize) else {
            return Value::Bool(false);
        };
        match scope {
            Scope::Blackboard => n
                .blackboard
                .get(slot as usize)
                .copied()
                .unwrap_or(Value::Bool(false)),
            _ => world_var(self.program, w, n.area, scope, slot),
        }
    }
    fn self_entity(&self) -> EntityId {
        EntityId::Npc(self.npc)
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
