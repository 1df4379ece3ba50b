//! What a world holds on the heap, as a clone of it allocates it: the debugger's snapshots
//! are clones, and their memory cap counts this ([`World::heap_bytes`]). A clone allocates
//! each container's length, not its capacity; what an `Arc` holds is shared, not copied; the
//! conversation phase's buffers are not copied at all (a clone starts them empty). The
//! allocator's own overhead is not counted. `runtime/tests/alloc.rs` checks the count
//! against what cloning really allocates.

use std::collections::{BTreeMap, VecDeque};
use std::mem::size_of;

use super::areas::AreaState;
use super::nav::NavState;
use super::talk::TalkState;
use super::triggers::TriggerState;
use super::{Message, Npc, World};
use crate::bt::Instance;
use crate::value::Sym;

/// What a clone of `v` allocates for its elements (not what they own).
pub(crate) fn slice<T>(v: &[T]) -> usize {
    std::mem::size_of_val(v)
}

fn deque<T>(v: &VecDeque<T>) -> usize {
    v.len() * size_of::<T>()
}

/// A B-tree's nodes: its entries, in nodes about two-thirds full (leaves of eleven).
fn btree<K, V>(m: &BTreeMap<K, V>) -> usize {
    m.len() * (size_of::<K>() + size_of::<V>()) * 3 / 2
}

fn inboxes(b: &[(Sym, VecDeque<Message>)]) -> usize {
    slice(b) + b.iter().map(|(_, q)| deque(q)).sum::<usize>()
}

fn instance(i: &Instance) -> usize {
    slice(&i.state) + slice(&i.status)
}

impl World {
    /// The bytes a clone of this world allocates (see the module doc).
    pub fn heap_bytes(&self) -> usize {
        let w = self;
        slice(&w.pos)
            + slice(&w.npcs)
            + w.npcs.iter().map(Npc::heap_bytes).sum::<usize>()
            + w.minds.heap_bytes()
            + slice(&w.flags)
            + slice(&w.counters)
            + slice(&w.area_vars)
            + w.area_vars.iter().map(|v| slice(v)).sum::<usize>()
            + slice(&w.areas)
            + w.areas.iter().map(AreaState::heap_bytes).sum::<usize>()
            + slice(&w.dyn_areas)
            + w.dyn_areas
                .iter()
                .map(|d| slice(&d.vars) + d.state.heap_bytes())
                .sum::<usize>()
            + slice(&w.scratch)
            + slice(&w.moved)
            + slice(&w.outbox)
            + slice(&w.texts)
            + w.story
                .as_ref()
                .map_or(0, |s| s.tracker.heap_bytes() + slice(&s.active))
            + w.talk.heap_bytes()
            + slice(&w.objects)
            + w.triggers.heap_bytes()
            + w.nav.heap_bytes()
            + w.walkers.bits.heap_bytes()
            + slice(&w.walkers.walk)
            + w.live.heap_bytes()
            + w.shifted.heap_bytes()
            + w.in_areas.heap_bytes()
    }
}

impl Npc {
    fn heap_bytes(&self) -> usize {
        slice(&self.areas)
            + inboxes(&self.inboxes)
            + slice(&self.tags)
            + self
                .tags
                .iter()
                .map(|t| instance(&t.instance))
                .sum::<usize>()
            + slice(&self.items)
            + slice(&self.equipped)
    }
}

impl AreaState {
    fn heap_bytes(&self) -> usize {
        slice(&self.enabled)
            + slice(&self.holders)
            + inboxes(&self.inboxes)
            + self.brain.as_ref().map_or(0, instance)
            + deque(&self.queue)
            + self.running.as_ref().map_or(0, |(_, i)| instance(i))
    }
}

impl TalkState {
    fn heap_bytes(&self) -> usize {
        // (Its `scratch`: a clone starts it empty.)
        slice(&self.chars)
            + self
                .chars
                .iter()
                .map(|c| {
                    slice(&c.members)
                        + if c.speakers.spilled() {
                            slice(&c.speakers)
                        } else {
                            0
                        }
                })
                .sum::<usize>()
            + slice(&self.vis)
            + slice(&self.speaking)
            + slice(&self.view_sig)
            + slice(&self.mail)
            + slice(&self.wake)
            + slice(&self.handovers)
            + slice(&self.layer)
            + slice(&self.left)
            + slice(&self.mailed)
            + slice(&self.post)
            + slice(&self.labels)
            + slice(&self.dirty)
            + slice(&self.dirtied)
            + slice(&self.ring)
    }
}

impl TriggerState {
    fn heap_bytes(&self) -> usize {
        slice(&self.value)
            + slice(&self.holding)
            + slice(&self.spent)
            + slice(&self.reload_until)
            + slice(&self.fires)
            + slice(&self.last_fired)
            + slice(&self.fired_pass)
            + slice(&self.reset_pass)
            + slice(&self.loop_reported)
            + slice(&self.is_dirty)
            + slice(&self.dirty)
            + slice(&self.latch)
            + slice(&self.count)
            + slice(&self.changed)
            + slice(&self.evaluated)
            + slice(self.reloads.as_slice())
            + slice(&self.feed)
            + slice(&self.moved)
            + slice(&self.inside)
            + self.inside.iter().map(|v| slice(v)).sum::<usize>()
            + slice(&self.area_occupants)
            + slice(&self.sensor_occupants)
            + slice(&self.flags_seen)
            + slice(&self.counters_seen)
            + slice(&self.copies)
            + self.copies.iter().map(|v| slice(v)).sum::<usize>()
    }
}

impl NavState {
    fn heap_bytes(&self) -> usize {
        let g = &self.graph;
        slice(&self.door_open)
            + slice(&self.door_changes)
            + slice(&self.paths)
            + self
                .paths
                .iter()
                .map(|p| slice(&p.points) + slice(&p.clusters))
                .sum::<usize>()
            + deque(&self.queue)
            + slice(&self.queued)
            + slice(&self.scratch)
            // The clusters' labels, entrances and refinements are shared (`Arc`): only the
            // lists of them are copied.
            + slice(&g.labels)
            + slice(&g.regions)
            + slice(&g.region_base)
            + slice(&g.component)
            + slice(&g.entrances)
            + btree(&g.refined)
    }
}
