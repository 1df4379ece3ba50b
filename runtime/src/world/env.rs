//! The one reader of the world's values: variables, positions, tags, health, areas entered,
//! behavior holders ([`WorldEnv`]). Expressions outside a ticking tree read the world through
//! it, and the ticking host (`systems::host`) delegates every world read to it, keeping only
//! what is local to the tree being ticked (an NPC's own blackboard, moved out for its tick).

use crate::expr::{Env, Scope};
use crate::program::Program;
use crate::value::{EntityId, Sym, Value, Vec2};

use super::World;
use super::areas;

/// A read-only view of a world for one NPC (between ticks, or the NPC a ticking tree is
/// about), or for no NPC (`npc: u32::MAX`: story preconditions), which reads only world-level
/// values.
pub struct WorldEnv<'a> {
    pub program: &'a Program,
    pub world: &'a World,
    pub npc: u32,
}

impl<'a> WorldEnv<'a> {
    /// The world as no NPC in particular sees it.
    pub fn world(program: &'a Program, world: &'a World) -> WorldEnv<'a> {
        WorldEnv {
            program,
            world,
            npc: u32::MAX,
        }
    }

    /// A world-level variable (`area.NAME` of `area`, `flags.NAME`, `counters.NAME`); an
    /// area variable of no area (or of an area that is gone) is its default. Blackboards are
    /// not world-level: `Scope::Blackboard` reads false here.
    #[inline]
    pub fn world_var(&self, area: Option<u32>, scope: Scope, slot: u32) -> Value {
        let (p, w) = (self.program, self.world);
        let s = slot as usize;
        match scope {
            Scope::Blackboard => None,
            Scope::Flag => w.flags.get(s).map(|&b| Value::Bool(b)),
            Scope::Counter => w.counters.get(s).map(|&c| Value::Int(c)),
            Scope::Area => area
                .and_then(|a| areas::vars(w, a))
                .and_then(|v| v.get(s).copied())
                .or_else(|| p.area_vars.types.get(s).map(|&t| Value::default_of(t))),
        }
        .unwrap_or(Value::Bool(false))
    }

    /// A blackboard variable of an NPC as the world holds it: its declared default when the
    /// NPC is none (an area brain) or does not exist.
    pub fn blackboard_of(&self, npc: Option<u32>, slot: u32) -> Value {
        npc.and_then(|n| self.world.minds.var(n as usize, slot as usize))
            .or_else(|| self.program.blackboard.defaults.get(slot as usize).copied())
            .unwrap_or(Value::Bool(false))
    }

    /// The innermost area an NPC stands in (what `area.NAME` means for it).
    pub fn area_of(&self, npc: u32) -> Option<u32> {
        self.world.npcs.get(npc as usize).and_then(|n| n.area)
    }

    /// Whether an NPC stands inside an area, by the one position reader (a removed NPC is
    /// nowhere, so inside nothing).
    pub fn in_area(&self, npc: u32, area: u32) -> bool {
        self.position(EntityId::Npc(npc))
            .is_some_and(|at| areas::contains(self.program, self.world, area, at))
    }

    /// How many NPCs hold behavior `template` of `area` (`holders("x")`).
    pub fn holders_in(&self, area: u32, template: Sym) -> i64 {
        let rules = &self.program.area_rules[areas::proto_of(area) as usize];
        match (rules.template(template), areas::state(self.world, area)) {
            (Some(t), Some(s)) => s.holders.get(t).copied().unwrap_or(0) as i64,
            _ => 0,
        }
    }
}

impl Env for WorldEnv<'_> {
    fn var(&self, scope: Scope, slot: u32) -> Value {
        let w = self.world;
        let n = w.npcs.get(self.npc as usize);
        match scope {
            Scope::Blackboard => w
                .minds
                .var(self.npc as usize, slot as usize)
                .unwrap_or(Value::Bool(false)),
            _ => self.world_var(n.and_then(|n| n.area), scope, slot),
        }
    }
    fn self_entity(&self) -> EntityId {
        if (self.npc as usize) < self.world.npcs.len() {
            EntityId::Npc(self.npc)
        } else {
            EntityId::None
        }
    }
    /// An entity's health: an NPC's health points (0 for a removed NPC); 0 for anything else.
    fn health(&self, e: EntityId) -> f64 {
        match e {
            EntityId::Npc(i) => self
                .world
                .npcs
                .get(i as usize)
                .filter(|n| !n.removed)
                .map_or(0.0, |n| n.health),
            _ => 0.0,
        }
    }
    /// Whether an entity is a living NPC (in the world, not dead).
    fn alive(&self, e: EntityId) -> bool {
        match e {
            EntityId::Npc(i) => self
                .world
                .npcs
                .get(i as usize)
                .is_some_and(super::Npc::alive),
            _ => false,
        }
    }
    /// Where an entity is: the one position reader (trees, expressions, triggers, responses).
    /// A removed NPC is nowhere (a dead one lies where it died); an object is where the pack
    /// puts it; an area is the centre of its bounding box, dynamic areas included.
    fn position(&self, e: EntityId) -> Option<Vec2> {
        let (p, w) = (self.program, self.world);
        match e {
            EntityId::None => None,
            EntityId::Npc(i) => w
                .npcs
                .get(i as usize)
                .filter(|n| !n.removed)
                .and_then(|_| w.pos.get(i as usize).copied()),
            EntityId::Object(i) => p.objects.get(i as usize).map(|o| o.pos),
            EntityId::Area(a) => areas::center(p, w, a),
        }
    }
    fn hour(&self) -> f64 {
        self.world.hour
    }
    fn day(&self) -> i64 {
        self.world.day
    }
    /// Whether an entity carries a tag: NPC tags (a spawned copy has its prototype's), object
    /// kinds, area kinds (a dynamic area has its prototype's).
    fn has_tag(&self, e: EntityId, tag: Sym) -> bool {
        let (p, w) = (self.program, self.world);
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
                .get(areas::proto_of(a) as usize)
                .is_some_and(|a| a.kinds.contains(&tag)),
        }
    }
}
