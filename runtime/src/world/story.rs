//! Story state (SPEC §3): the running scenario's tracker, active events and executor clock,
//! and the readers over it (story day, available events).

use crate::program::Program;
use crate::program::tracker::Tracker;

use super::World;

/// The story state of one playthrough (part of [`World`]; a clone is a snapshot).
#[derive(Clone, Debug)]
pub struct Story {
    pub scenario: u32,
    pub tracker: Tracker,
    /// Active events: (local node, day the executor ends it; `i64::MAX`: the world does).
    pub active: Vec<(u32, i64)>,
    /// Day of the last launch.
    pub last_launch: Option<i64>,
    /// Last day the executor checked.
    pub checked: i64,
    /// Nesting of effects being applied (0 between operations).
    pub(crate) depth: u32,
}

impl Story {
    /// A story of a scenario; nothing opens until the first check.
    pub fn new(p: &Program, scenario: u32) -> Option<Story> {
        let s = p.events.scenarios.get(scenario as usize)?;
        Some(Story {
            scenario,
            tracker: Tracker::new(&s.graph, s.start_day),
            active: Vec::new(),
            last_launch: None,
            checked: s.start_day - 1,
            depth: 0,
        })
    }

    pub fn hash_into(&self, h: &mut dyn FnMut(u64)) {
        h(self.scenario as u64);
        self.tracker.hash_into(h);
        h(self.active.len() as u64);
        for &(n, end) in &self.active {
            h(n as u64);
            h(end as u64);
        }
        h(self.last_launch.map_or(u64::MAX, |d| d as u64));
        h(self.checked as u64);
    }
}

/// The story day of the world's current tick.
pub fn world_day(p: &Program, w: &World, scenario: u32) -> Option<i64> {
    let s = p.events.scenarios.get(scenario as usize)?;
    Some(match s.ticks_per_day {
        Some(t) => s
            .start_day
            .saturating_add((w.tick / t.max(1)).min(i64::MAX as u64 / 2) as i64),
        None => s.start_day.saturating_add(w.day - p.start_day),
    })
}

/// Whether an open node's precondition holds now.
pub(crate) fn precondition_holds(p: &Program, w: &World, lib_index: u32) -> bool {
    match p
        .events
        .events
        .get(lib_index as usize)
        .and_then(|e| e.precondition.as_ref())
    {
        // The world as every expression outside a tree reads it, for no NPC in particular.
        Some(x) => x.eval_bool(&super::WorldEnv {
            program: p,
            world: w,
            npc: u32::MAX,
        }),
        None => true,
    }
}

/// Available nodes (open, precondition true), in the scenario's order (its `rank`).
pub fn available(p: &Program, w: &World) -> Vec<u32> {
    let Some(story) = &w.story else {
        return Vec::new();
    };
    let Some(s) = p.events.scenarios.get(story.scenario as usize) else {
        return Vec::new();
    };
    let mut v: Vec<u32> = story
        .tracker
        .open()
        .iter()
        .copied()
        .filter(|&n| precondition_holds(p, w, s.nodes[n as usize]))
        .collect();
    v.sort_unstable_by_key(|&n| s.rank[n as usize]);
    v
}

/// The local node of a library event in the running scenario.
pub(crate) fn local_of(p: &Program, w: &World, event: u32) -> Option<u32> {
    let st = w.story.as_ref()?;
    let s = p.events.scenarios.get(st.scenario as usize)?;
    match s.local.get(event as usize).copied()? {
        u32::MAX => None,
        n => Some(n),
    }
}
