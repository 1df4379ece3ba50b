//! The world's mutable state (SPEC §6): [`World`] (a clone is a complete snapshot), NPCs,
//! objects, and the per-kind state of smart areas, triggers, the story and conversations;
//! the one reader of world values for expressions ([`WorldEnv`]); the hash. Nothing here
//! advances time: the phases of `systems` do, in the order `session` lists.

pub mod areas;
pub(crate) mod bits;
pub mod env;
pub(crate) mod hash;
pub(crate) mod mem;
pub mod minds;
pub mod nav;
mod size;
pub mod story;
pub mod talk;
pub mod triggers;

use std::collections::VecDeque;

use rand_chacha::ChaCha8Rng;

use crate::bt::Status;
use crate::program::Program;
use crate::value::{EntityId, Sym, Value, Vec2};
pub use env::WorldEnv;

/// Radius of an NPC's body, used to keep it out of obstacles.
pub const NPC_RADIUS: f64 = crate::program::walls::BODY_RADIUS;
/// Messages kept per inbox; older ones are dropped first.
pub const MAX_INBOX: usize = 1024;

/// A message in an inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Message {
    pub from: EntityId,
    pub message: Sym,
    /// Tick it was sent.
    pub sent: u64,
}

/// One NPC's mutable state.
///
/// Where it walks to is not here but in [`World::walkers`] (read it with [`World::target`]).
///
/// Layout (`repr(C)`, cache-line aligned; the offsets are checked by a test): what the
/// effects' `update_membership` reads and writes of a walking NPC in some area (the areas
/// it stands in, whether it is alive) lies in its first cache line, so that it touches one
/// line of its struct, not three.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Npc {
    // ---- line 0
    /// Every area it stands in, by id, sorted. Written by the effects' `update_membership`
    /// (and the triggers tool), which keep [`World::in_areas`] (read it with
    /// [`Npc::areas`]).
    pub(crate) areas: Vec<u32>,
    /// Innermost area it stands in (read it with [`Npc::area`]).
    pub(crate) area: Option<u32>,
    /// Removed from the world (or a prototype never placed): no tree, no movement. Set
    /// through [`World::set_removed`] (read it with [`Npc::removed`]).
    pub(crate) removed: bool,
    /// Its health reached 0: its tree is halted, it does not move, it holds no behavior, it
    /// stands in no area and takes part in no conversation; it stays dead. Set through
    /// [`World::set_dead`] (read it with [`Npc::dead`]).
    pub(crate) dead: bool,
    // ---- line 1 on
    pub inboxes: Vec<(Sym, VecDeque<Message>)>,
    /// Behaviors adopted from smart areas, each grafted under a request node.
    pub tags: Vec<areas::Tag>,
    pub health: f64,
    /// What the preview shows over its head: (is speech, text/animation).
    pub show: Option<(bool, Sym)>,
    /// Items carried, sorted.
    pub items: Vec<Sym>,
    /// Items worn or wielded, sorted.
    pub equipped: Vec<Sym>,
    /// The declared NPC it is (itself) or a run-time copy of (spawned), by index.
    pub proto: u32,
    /// 0 for a declared NPC; k for the k-th copy spawned of its prototype (`rat#3`).
    pub serial: u32,
}

impl Npc {
    /// Every area it stands in, by id, sorted.
    pub fn areas(&self) -> &[u32] {
        &self.areas
    }

    /// The innermost area it stands in.
    pub fn area(&self) -> Option<u32> {
        self.area
    }

    /// Removed from the world (or a prototype never placed).
    pub fn removed(&self) -> bool {
        self.removed
    }

    /// Its health reached 0.
    pub fn dead(&self) -> bool {
        self.dead
    }

    /// In the world and not dead: its tree runs, it moves, it stands in areas.
    pub fn alive(&self) -> bool {
        !self.removed && !self.dead
    }

    /// A fresh NPC as the pack declares NPC `proto` (also used for spawned copies).
    pub fn new(p: &Program, proto: u32) -> Npc {
        let info = &p.npcs[proto as usize];
        Npc {
            show: None,
            inboxes: info.inboxes.iter().map(|&s| (s, VecDeque::new())).collect(),
            area: None,
            areas: Vec::new(),
            tags: Vec::new(),
            proto,
            serial: 0,
            removed: info.prototype,
            dead: false,
            health: info.health,
            items: info.items.clone(),
            equipped: info.equipped.clone(),
        }
    }
}

/// Who walks and where to ([`World::walkers`]): one bit per NPC with a target, and by NPC
/// index its target and what else movement reads of it, so that a step reads one compact
/// entry, in NPC order, instead of the NPC's struct and its declaration (at 10,000
/// conversing NPCs, three scattered cache lines a walker), and setting a target writes no
/// NPC's struct.
#[derive(Clone, Debug, Default)]
pub(crate) struct Walkers {
    pub(crate) bits: bits::Bits,
    pub(crate) walk: Vec<Walk>,
}

/// What movement reads of an NPC: its target (meaningful only while its bit in
/// [`Walkers::bits`] is set) and its speed (its declaration's, which never changes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Walk {
    pub(crate) target: Vec2,
    pub(crate) speed: f64,
}

/// Run-time state of a world object (doors and the like).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectState {
    pub open: bool,
    pub locked: bool,
    /// Free-form state set by `set_object_state`.
    pub state: Sym,
}

/// The complete mutable state of a simulation. Cloning it is a full snapshot.
#[derive(Clone, Debug)]
pub struct World {
    pub tick: u64,
    /// Hour of day, [0, 24).
    pub hour: f64,
    pub day: i64,
    /// NPC positions, by NPC index (kept apart so trees can read every position while one
    /// NPC's state is borrowed mutably). Changed only through [`World::set_pos`] once the NPC
    /// is added ([`World::push_npc`]), which keep [`World::shifted`] (read them with
    /// [`World::positions`] outside the crate).
    pub(crate) pos: Vec<Vec2>,
    pub npcs: Vec<Npc>,
    /// Every NPC's blackboard and own tree state, by NPC index (kept apart, in per-world
    /// arrays, so the trees phase walks contiguous memory).
    pub minds: minds::Minds,
    pub flags: Vec<bool>,
    pub counters: Vec<i64>,
    /// Variables of the static areas, by area index.
    pub area_vars: Vec<Vec<Value>>,
    /// Smart-area state of the static areas, by area index.
    pub areas: Vec<areas::AreaState>,
    /// Dynamic areas (placed at run time), sorted by id.
    pub dyn_areas: Vec<areas::DynArea>,
    pub(crate) dyn_serial: u32,
    /// Dynamic areas appeared or went this tick: every NPC's membership is rechecked.
    pub(crate) areas_changed: bool,
    /// Reused buffers (membership updates, who moved this tick).
    pub(crate) scratch: Vec<u32>,
    pub(crate) moved: Vec<bool>,
    pub rng: ChaCha8Rng,
    /// Messages sent this tick, delivered at its end: (recipient, inbox, message).
    pub(crate) outbox: Vec<(EntityId, Sym, Message)>,
    /// Lines of text shown in the preview by responses, until a tick.
    pub texts: Vec<(Sym, u64)>,
    /// The running scenario's story state (`world.scenario`), if any.
    pub story: Option<story::Story>,
    /// Background conversations (`talk`): per-character state, views and counters.
    pub talk: talk::TalkState,
    /// World objects' state, by object index.
    pub objects: Vec<ObjectState>,
    /// Trigger systems' run-time state (latches, firing, the events they wait for).
    pub triggers: triggers::TriggerState,
    /// Paths around walls and through doors (movement's state).
    pub nav: nav::NavState,
    /// Where NPCs walk to: the NPCs that have a target, one bit per NPC index
    /// ([`bits::Bits`]), and by NPC its target and speed ([`Walk`]), kept by
    /// [`World::push_npc`] and [`World::set_target`] (read a target with
    /// [`World::target`]); movement visits the walkers in NPC order with
    /// [`World::next_walker`] and reads their [`World::walk`]. The targets are state (hashed
    /// through [`World::target`]); the speeds are their declarations'.
    pub(crate) walkers: Walkers,
    /// The NPCs that are alive ([`Npc::alive`]), one bit per NPC index, kept by
    /// [`World::push_npc`], [`World::set_removed`] and [`World::set_dead`]: the trees phase
    /// reads it instead of each NPC's struct. Derived, so left out of the hash.
    pub(crate) live: bits::Bits,
    /// The NPCs whose position may have changed since the conversation layer's spatial grid
    /// was last brought up to date, one bit per NPC index: set by [`World::set_pos`] and
    /// [`World::push_npc`], emptied by the grid (`systems::talk`), which looks at the
    /// positions of those only instead of comparing every character's. Derived (a position
    /// not changed though its bit is set costs a compare), so left out of the hash.
    pub(crate) shifted: bits::Bits,
    /// The NPCs that stand in some area or have an innermost one ([`Npc::areas`] not empty
    /// or [`Npc::area`] set), one bit per NPC index, kept by [`World::sync_in_areas`] after
    /// each change of either (membership updates, scripted enters and exits, a new NPC):
    /// membership passes over an NPC out of every area that stands at a point in none
    /// without reading its struct. Derived, so left out of the hash.
    pub(crate) in_areas: bits::Bits,
}

impl World {
    /// Adds NPC `n`, a fresh copy of declared NPC `n.proto` (its blackboard and an idle tree
    /// as the pack declares them), at `at`; returns its index.
    pub(crate) fn push_npc(&mut self, p: &Program, n: Npc, at: Vec2) -> u32 {
        let idx = self.npcs.len() as u32;
        let info = &p.npcs[n.proto as usize];
        let tree = match p.trees.get(info.tree as usize) {
            Some(t) => (info.tree, t.nodes.len()),
            None => (u32::MAX, 0),
        };
        self.minds.push(&info.blackboard, tree.0, tree.1);
        // A new NPC stands still.
        self.walkers.walk.push(Walk {
            target: Vec2::ZERO,
            speed: info.speed,
        });
        self.walkers.bits.set(idx as usize, false);
        self.npcs.push(n);
        self.pos.push(at);
        self.shifted.set(idx as usize, true);
        self.sync_live(idx);
        self.sync_in_areas(idx);
        idx
    }

    /// Marks NPC `npc` removed from the world or back in it (the one way `Npc::removed`
    /// changes).
    pub(crate) fn set_removed(&mut self, npc: u32, removed: bool) {
        if let Some(n) = self.npcs.get_mut(npc as usize) {
            n.removed = removed;
            self.sync_live(npc);
        }
    }

    /// Marks NPC `npc` dead (the one way `Npc::dead` changes).
    pub(crate) fn set_dead(&mut self, npc: u32) {
        if let Some(n) = self.npcs.get_mut(npc as usize) {
            n.dead = true;
            self.sync_live(npc);
        }
    }

    /// [`World::in_areas`]' bit for NPC `npc`, from its areas: called wherever they change.
    pub(crate) fn sync_in_areas(&mut self, npc: u32) {
        let on = self
            .npcs
            .get(npc as usize)
            .is_some_and(|n| !n.areas.is_empty() || n.area.is_some());
        self.in_areas.set(npc as usize, on);
    }

    /// [`World::live`]'s bit for NPC `npc`, from its flags.
    fn sync_live(&mut self, npc: u32) {
        let alive = self.npcs.get(npc as usize).is_some_and(Npc::alive);
        self.live.set(npc as usize, alive);
    }

    /// Whether NPC `i` is alive ([`Npc::alive`]; false for an unknown NPC), from
    /// [`World::live`].
    #[inline]
    pub fn is_alive(&self, i: usize) -> bool {
        self.live.contains(i)
    }

    /// What NPC `i`'s tree returned on the last tick it ran (`Idle`: never).
    #[inline]
    pub fn last_status(&self, i: usize) -> Status {
        self.minds.last_status(i)
    }

    /// NPC `npc`'s inboxes as a reader sees them (an inspector): the ones in its list, in
    /// their order, with its `talk` inbox (`talk`: the program's `talk.inbox`) read where
    /// the conversation layer keeps it for the NPCs that can converse
    /// ([`talk::TalkState::talk_inbox`]), listed after the others when the NPC's list does not
    /// name it and it holds messages. Each inbox's messages oldest first; empty for an NPC
    /// that does not exist.
    pub fn inboxes_of(&self, talk: Sym, npc: u32) -> Vec<(Sym, Vec<&Message>)> {
        let Some(n) = self.npcs.get(npc as usize) else {
            return Vec::new();
        };
        let kept = |name: Sym| {
            self.talk
                .kept_inbox(talk, EntityId::Npc(npc), name)
                .is_some()
        };
        let mut view: Vec<(Sym, Vec<&Message>)> = n
            .inboxes
            .iter()
            .map(|(name, q)| {
                if kept(*name) {
                    (*name, self.talk.talk_inbox(npc).collect())
                } else {
                    (*name, q.iter().collect())
                }
            })
            .collect();
        if kept(talk) && !n.inboxes.iter().any(|(name, _)| *name == talk) {
            let msgs: Vec<&Message> = self.talk.talk_inbox(npc).collect();
            if !msgs.is_empty() {
                view.push((talk, msgs));
            }
        }
        view
    }

    /// The one way an NPC's walking target is set or cleared (it is kept in
    /// [`World::walkers`]), so movement, which looks only at the NPCs with one, finds
    /// exactly those and where they go.
    pub(crate) fn set_target(&mut self, npc: u32, to: Option<Vec2>) {
        if npc as usize >= self.npcs.len() {
            return;
        }
        self.walkers.bits.set(npc as usize, to.is_some());
        if let (Some(w), Some(t)) = (self.walkers.walk.get_mut(npc as usize), to) {
            w.target = t;
        }
    }

    /// Where NPC `i` is walking to, if anywhere (set with [`World::set_target`]).
    #[inline]
    pub fn target(&self, i: usize) -> Option<Vec2> {
        if self.walkers.bits.contains(i) {
            self.walkers.walk.get(i).map(|w| w.target)
        } else {
            None
        }
    }

    /// NPC positions, by NPC index.
    pub fn positions(&self) -> &[Vec2] {
        &self.pos
    }

    /// The one way an NPC's position changes once it is added (movement's steps, teleports):
    /// [`World::shifted`] follows.
    #[inline]
    pub(crate) fn set_pos(&mut self, npc: usize, at: Vec2) {
        if let Some(p) = self.pos.get_mut(npc) {
            *p = at;
            self.shifted.set(npc, true);
        }
    }

    /// The first NPC at index `from` or after that has a target (see [`World::walkers`]).
    pub(crate) fn next_walker(&self, from: usize) -> Option<usize> {
        self.walkers.bits.next_from(from)
    }

    /// What movement reads of NPC `i` ([`Walk`]; its target only if it has one).
    #[inline]
    pub(crate) fn walk(&self, i: usize) -> Option<Walk> {
        self.walkers.walk.get(i).copied()
    }

    /// An NPC's id as shown in traces and tools: spawned copies are `proto#k`.
    pub fn npc_name(&self, p: &Program, i: u32) -> String {
        let w = self;
        match w.npcs.get(i as usize) {
            Some(n) => {
                let base = p.npcs.get(n.proto as usize).map_or("", |x| x.id.as_str());
                if n.serial == 0 {
                    base.to_string()
                } else {
                    format!("{base}#{}", n.serial)
                }
            }
            None => p
                .npcs
                .get(i as usize)
                .map_or(String::new(), |n| n.id.clone()),
        }
    }

    /// A uniform number in [0, 1) from the world's seeded generator.
    pub(crate) fn rng_f64(&mut self) -> f64 {
        use rand::RngExt;
        self.rng.random::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a walker's tick reads and writes of its struct lies in its first cache line
    /// (see [`Npc`]).
    #[test]
    fn a_walker_touches_the_first_line_of_an_npc() {
        use std::mem::{align_of, offset_of, size_of};
        assert_eq!(align_of::<Npc>(), 64);
        for (o, len) in [
            (offset_of!(Npc, areas), size_of::<Vec<u32>>()),
            (offset_of!(Npc, area), size_of::<Option<u32>>()),
            (offset_of!(Npc, removed), 1),
            (offset_of!(Npc, dead), 1),
        ] {
            assert_eq!((o + len - 1) / 64, 0, "offset {o}");
        }
    }
}
