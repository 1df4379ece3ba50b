//! Trigger state (SPEC §4): latches, firing memory, reloads and the events triggers wait
//! for; part of the world (a clone is a snapshot; hashed). Also the readers the pass and
//! the responses share (spawned copies, positions as conditions see them).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::program::Program;
use crate::program::triggers::{Key, LeafKind, Op, Who};
use crate::value::Sym;

use super::World;

/// Most queued events / moved NPCs kept between passes (bounded memory).
pub const MAX_FEED: usize = 1 << 20;

impl Who {
    pub fn matches(self, w: &World, npc: u32) -> bool {
        match self {
            Who::Any => true,
            Who::Npc(x) => w.npcs.get(npc as usize).is_some_and(|n| n.proto == x),
        }
    }
}

/// Something that happened in the world that conditions may wait for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WorldEvent {
    Enter {
        npc: u32,
        area: u32,
    },
    Exit {
        npc: u32,
        area: u32,
    },
    Received {
        npc: u32,
        message: Sym,
    },
    /// `by`: killer NPC, `u32::MAX` = none.
    Died {
        npc: u32,
        by: u32,
    },
}

/// Run-time state of every trigger: part of the world (a clone is a snapshot; hashed).
#[derive(Clone, Debug, Default)]
pub struct TriggerState {
    // ---- per trigger ----
    pub value: Vec<bool>,
    /// True since it last fired (it fires again only after going false).
    pub holding: Vec<bool>,
    pub spent: Vec<bool>,
    pub reload_until: Vec<u64>,
    pub fires: Vec<u32>,
    /// Tick it last fired, `u64::MAX` = never.
    pub last_fired: Vec<u64>,
    pub(crate) fired_pass: Vec<u64>,
    pub(crate) reset_pass: Vec<u64>,
    pub(crate) loop_reported: Vec<bool>,
    pub(crate) is_dirty: Vec<bool>,
    pub(crate) dirty: Vec<u32>,
    // ---- per leaf ----
    /// One-off latches, and the last value seen of polled conditions.
    pub latch: Vec<bool>,
    /// NPCs inside, for area/radius/rectangle conditions.
    pub count: Vec<u32>,
    /// Tick the value last changed / was last evaluated, `u64::MAX` = never.
    pub changed: Vec<u64>,
    pub evaluated: Vec<u64>,
    // ---- world side ----
    pub(crate) reloads: BinaryHeap<Reverse<(u64, u32)>>,
    /// Events waiting for the next pass.
    pub(crate) feed: Vec<WorldEvent>,
    /// NPCs that moved (or appeared/disappeared) since the last pass.
    pub(crate) moved: Vec<u32>,
    /// Per NPC: sensors it is inside, sorted.
    pub(crate) inside: Vec<Vec<u32>>,
    /// Who is inside, kept up to date whatever the triggers do (reloading or not), so that
    /// [`recount`] needs no scan of every NPC: per leaf, for `in_area` conditions, the NPCs
    /// it matches with the area in their `areas` (counted when the change is reported, see
    /// [`report`]); per sensor, the NPCs whose `inside` list holds it. Derived from the
    /// NPCs' areas and `inside` (not hashed).
    pub(crate) area_occupants: Vec<u32>,
    pub(crate) sensor_occupants: Vec<u32>,
    pub(crate) flags_seen: Vec<bool>,
    pub(crate) counters_seen: Vec<i64>,
    /// Per declared NPC: its spawned copies.
    pub copies: Vec<Vec<u32>>,
    pub(crate) pass: u64,
    pub(crate) started: bool,
    pub level_complete: bool,
}

impl TriggerState {
    pub fn new(p: &Program) -> TriggerState {
        let tp = &p.triggers;
        let (t, l) = (tp.triggers.len(), tp.leaves.len());
        TriggerState {
            value: vec![false; t],
            holding: vec![false; t],
            spent: vec![false; t],
            reload_until: vec![0; t],
            fires: vec![0; t],
            last_fired: vec![u64::MAX; t],
            fired_pass: vec![0; t],
            reset_pass: vec![0; t],
            loop_reported: vec![false; t],
            is_dirty: vec![false; t],
            latch: vec![false; l],
            count: vec![0; l],
            changed: vec![u64::MAX; l],
            evaluated: vec![u64::MAX; l],
            area_occupants: vec![0; l],
            sensor_occupants: vec![0; tp.sensors.len()],
            copies: vec![Vec::new(); p.npcs.len()],
            ..TriggerState::default()
        }
    }

    /// Feeds every field to a hasher, in a fixed order.
    pub fn hash_words(&self, h: &mut dyn FnMut(u64)) {
        let bools = |h: &mut dyn FnMut(u64), v: &[bool]| {
            h(v.len() as u64);
            for &b in v {
                h(b as u64);
            }
        };
        let words = |h: &mut dyn FnMut(u64), v: &[u64]| {
            h(v.len() as u64);
            for &x in v {
                h(x);
            }
        };
        bools(h, &self.value);
        bools(h, &self.holding);
        bools(h, &self.spent);
        words(h, &self.reload_until);
        for &f in &self.fires {
            h(f as u64);
        }
        words(h, &self.last_fired);
        words(h, &self.fired_pass);
        words(h, &self.reset_pass);
        bools(h, &self.loop_reported);
        bools(h, &self.latch);
        for &c in &self.count {
            h(c as u64);
        }
        words(h, &self.changed);
        words(h, &self.evaluated);
        let mut reloads: Vec<(u64, u32)> = self.reloads.iter().map(|r| r.0).collect();
        reloads.sort_unstable();
        h(reloads.len() as u64);
        for (at, t) in reloads {
            h(at);
            h(t as u64);
        }
        h(self.feed.len() as u64);
        for e in &self.feed {
            match *e {
                WorldEvent::Enter { npc, area } => [1, npc as u64, area as u64],
                WorldEvent::Exit { npc, area } => [2, npc as u64, area as u64],
                WorldEvent::Received { npc, message } => [3, npc as u64, message.0 as u64],
                WorldEvent::Died { npc, by } => [4, npc as u64, by as u64],
            }
            .into_iter()
            .for_each(&mut *h);
        }
        h(self.moved.len() as u64);
        for &m in &self.moved {
            h(m as u64);
        }
        h(self.inside.len() as u64);
        for v in &self.inside {
            h(v.len() as u64);
            for &s in v {
                h(s as u64);
            }
        }
        bools(h, &self.flags_seen);
        h(self.counters_seen.len() as u64);
        for &c in &self.counters_seen {
            h(c as u64);
        }
        for v in &self.copies {
            h(v.len() as u64);
            for &c in v {
                h(c as u64);
            }
        }
        h(self.pass);
        h(self.started as u64);
        h(self.level_complete as u64);
    }
}

/// Queues a world event for the triggers that listen to its kind (nothing when none does).
/// Called when the change is made (the NPC's `areas` already or about to be updated: the
/// event is the change), so that the `in_area` conditions' occupant counts follow every entry
/// and exit, whether or not the feed has room and whether or not the trigger is reloading.
pub fn report(p: &Program, w: &mut World, ev: WorldEvent) {
    let tp = &p.triggers;
    let wanted = match ev {
        WorldEvent::Enter { npc, area } | WorldEvent::Exit { npc, area } => {
            let up = matches!(ev, WorldEvent::Enter { .. });
            let listening = tp.listeners(Key::Area(area));
            for &l in listening {
                if let LeafKind::InArea { who, .. } = tp.leaves[l as usize].kind
                    && who.matches(w, npc)
                    && let Some(c) = w.triggers.area_occupants.get_mut(l as usize)
                {
                    *c = if up {
                        c.saturating_add(1)
                    } else {
                        c.saturating_sub(1)
                    };
                }
            }
            !listening.is_empty()
        }
        WorldEvent::Received { .. } => tp.wants_messages,
        WorldEvent::Died { .. } => tp.wants_deaths,
    };
    let st = &mut w.triggers;
    if wanted && st.feed.len() < MAX_FEED {
        st.feed.push(ev);
    }
}

/// Notes that an NPC moved (radius and rectangle conditions look at it in the next pass).
pub fn moved(p: &Program, st: &mut TriggerState, npc: u32) {
    if !p.triggers.sensors.is_empty() && st.moved.len() < MAX_FEED {
        st.moved.push(npc);
    }
}

pub(crate) fn dirty(st: &mut TriggerState, t: u32) {
    if let Some(d) = st.is_dirty.get_mut(t as usize)
        && !*d
    {
        *d = true;
        st.dirty.push(t);
    }
}

/// Live NPCs a declared NPC id designates: itself and its spawned copies.
pub fn live_copies(p: &Program, w: &World, npc: u32) -> Vec<u32> {
    let _ = p;
    let mut v = Vec::new();
    if w.npcs.get(npc as usize).is_some_and(|n| !n.removed) {
        v.push(npc);
    }
    if let Some(c) = w.triggers.copies.get(npc as usize) {
        v.extend(c.iter().copied().filter(|&i| !w.npcs[i as usize].removed));
    }
    v
}

/// Whether trigger `t` is in its reload time at `tick` (it then ignores every event).
pub(crate) fn reloading(st: &TriggerState, t: u32, tick: u64) -> bool {
    st.reload_until
        .get(t as usize)
        .is_some_and(|&until| tick < until)
}

/// A trigger starts its reload (seed 003: it waits "until it re-initializes its conditions and
/// receives events again"): every event-driven condition of it is reset — one-off latches
/// (`received`, `died`, `killed`) cleared, area/radius/rectangle counts at zero — and, until
/// the reload ends, the events they wait for are ignored ([`reloading`]).
pub(crate) fn reset_event_conditions(p: &Program, st: &mut TriggerState, t: u32, tick: u64) {
    let tp = &p.triggers;
    let Some(trig) = tp.triggers.get(t as usize) else {
        return;
    };
    for n in &trig.nodes {
        let Op::Leaf(l) = n.op else { continue };
        let li = l as usize;
        if !tp.leaves[li].kind.is_event() {
            continue;
        }
        if st.latch[li] || st.count[li] > 0 {
            st.latch[li] = false;
            st.count[li] = 0;
            st.changed[li] = tick;
            dirty(st, t);
        }
    }
}

/// A trigger's reload ended (or it was re-armed): its area, radius and rectangle conditions
/// start fresh, as at tick 0 — they count who is inside now (the NPCs that start inside an
/// area enter it at tick 0, so a trigger that starts counts them too). One-off latches stay
/// clear until their next event.
pub(crate) fn recount(p: &Program, w: &World, st: &mut TriggerState, t: u32, tick: u64) {
    let tp = &p.triggers;
    let Some(trig) = tp.triggers.get(t as usize) else {
        return;
    };
    for n in &trig.nodes {
        let Op::Leaf(l) = n.op else { continue };
        let li = l as usize;
        let now = match tp.leaves[li].kind {
            LeafKind::InArea { who, area } => {
                let inside = st.area_occupants.get(li).copied().unwrap_or(0) as i64;
                debug_assert_eq!(
                    inside as usize,
                    (0..w.npcs.len() as u32)
                        .filter(|&i| who.matches(w, i)
                            && w.npcs[i as usize].areas.binary_search(&area).is_ok())
                        .count(),
                    "the occupant count of leaf {l} is who is in area {area}"
                );
                // Entries and exits still in the feed are counted when they are delivered.
                let pending: i64 = st
                    .feed
                    .iter()
                    .map(|e| match *e {
                        WorldEvent::Enter { npc, area: a } if a == area && who.matches(w, npc) => 1,
                        WorldEvent::Exit { npc, area: a } if a == area && who.matches(w, npc) => -1,
                        _ => 0,
                    })
                    .sum();
                (inside - pending).max(0) as usize
            }
            // (Sensors: `inside` is what was counted so far; NPCs that moved since are
            // matched in the next `sensors` step.)
            LeafKind::InSensor { sensor, .. } => {
                let inside = st
                    .sensor_occupants
                    .get(sensor as usize)
                    .copied()
                    .unwrap_or(0);
                debug_assert_eq!(
                    inside as usize,
                    st.inside
                        .iter()
                        .filter(|s| s.binary_search(&sensor).is_ok())
                        .count(),
                    "the occupant count of sensor {sensor} is who is inside it"
                );
                inside as usize
            }
            _ => continue,
        } as u32;
        if (st.count[li] > 0) != (now > 0) {
            st.changed[li] = tick;
            dirty(st, t);
        }
        st.count[li] = now;
    }
}
