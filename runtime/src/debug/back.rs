//! Stepping back: to the end of an earlier tick, or to an NPC's previous node visit.

use super::*;

impl Debugger {
    /// Goes to the end of tick `t` (≤ the current position).
    pub fn back_to_tick(&mut self, t: u64) -> Result<Stop, BackError> {
        if t > self.done_tick() {
            return Err(BackError::Ahead {
                tick: t,
                done: self.done_tick(),
            });
        }
        if t < self.first_tick() {
            return Err(BackError::BeforeStart {
                tick: t,
                first: self.first_tick(),
            });
        }
        self.goto_end_of(t);
        Ok(Stop::TickEnd)
    }

    /// Makes the live session the world at the end of tick `t` (≤ the current tick). The
    /// live session is dropped before anything is cloned: the snapshot becomes the live
    /// session and its clone the snapshot, so a step back holds the snapshots and one
    /// session, never two, and the clone reuses the memory the live session gave back
    /// rather than pages new to the process (on a VM that returns freed memory to its host,
    /// each new page is faulted in again there: BENCHMARKS.md, thirteenth session).
    fn goto_end_of(&mut self, t: u64) {
        let key = self.snapshot_for(t);
        let snap = self
            .snapshots
            .remove(&key)
            .expect("snapshot_for returns a key of the snapshots");
        drop(std::mem::replace(&mut self.session, snap));
        self.snapshots.insert(key, self.session.clone());
        resimulate(&mut self.session, t);
        self.at_end_of(t);
    }

    /// Makes `s`, the world at the end of a tick at or before the current one, the live
    /// session.
    fn land_at_end_of(&mut self, s: Session) {
        let t = s.tick();
        self.session = s;
        self.at_end_of(t);
    }

    /// After the live session was set to the end of tick `t`: no position inside a tick,
    /// and what was recorded after that tick forgotten.
    fn at_end_of(&mut self, t: u64) {
        self.paused_at = None;
        self.tick_start = None;
        self.cur = None;
        self.ring.retain(|e| e.tick() <= t);
        self.reset_edges();
    }

    /// Steps back one tick: to the end of the previous tick (from inside a tick: to its start).
    pub fn back_tick(&mut self) -> Stop {
        let target = if self.paused_at.is_some() {
            self.done_tick()
        } else {
            self.done_tick().saturating_sub(1)
        };
        self.goto_end_of(target);
        Stop::TickEnd
    }

    /// Steps back to the previous node visit of `npc` (default: the NPC of the current
    /// position; any NPC when there is none). When there is none, the position does not
    /// change ([`Stop::NotFound`]).
    ///
    /// Inside a tick, the earlier events of that tick are looked at first. Then the ticks
    /// before, newest first: the last one alone (an NPC that runs its tree runs it every
    /// tick), then one stretch between two snapshots at a time, each run once from its
    /// snapshot, so that a visit `n` ticks back costs about `n` ticks, not a re-simulation
    /// from a snapshot for every tick searched. The search runs on copies: the live session
    /// changes only when a visit is found.
    pub fn back_node(&mut self, npc: Option<u32>) -> Stop {
        let npc = npc.or(self.cur.map(|c| c.npc));
        // The last tick that ended before the position.
        let t = if let Some(at) = self.paused_at {
            let (_, log) = self.run_tick(Rule::At(at));
            let wanted = |e: &&Entered| npc.is_none_or(|n| e.npc == n);
            if let Some(k) = log.iter().rev().filter(|e| e.event < at).find(wanted) {
                self.run_tick(Rule::At(k.event));
                return Stop::Step;
            }
            self.session.tick() - 1
        } else {
            self.session.tick()
        };
        let first = self.first_tick();
        if t <= first {
            return Stop::NotFound;
        }
        let start = self.state_at_end_of(t - 1);
        if let Some((_, k)) = last_visit(start.clone(), t, npc) {
            self.pause_in(start, k);
            return Stop::Step;
        }
        let mut hi = t - 1;
        while hi > first {
            let lo = self.snapshot_for(hi - 1);
            let from = self
                .snapshots
                .get(&lo)
                .expect("snapshot_for returns a key of the snapshots")
                .clone();
            if let Some((u, k)) = last_visit(from, hi, npc) {
                let start = self.state_at_end_of(u - 1);
                self.pause_in(start, k);
                return Stop::Step;
            }
            hi = lo;
        }
        Stop::NotFound
    }

    /// Makes `start`, the world at the start of a tick, the live session and runs that tick
    /// up to its event `k`.
    fn pause_in(&mut self, start: Session, k: u64) {
        self.land_at_end_of(start);
        self.tick_start = Some(self.session.clone());
        self.run_tick(Rule::At(k));
    }

    fn first_tick(&self) -> u64 {
        self.snapshots.keys().next().copied().unwrap_or(0)
    }
}

/// Runs `s` (untraced) to the end of tick `until`: the last node visit of `npc` (any NPC
/// when `None`) in those ticks, as (tick, event number in the tick), if there was one.
fn last_visit(mut s: Session, until: u64, npc: Option<u32>) -> Option<(u64, u64)> {
    s.set_tracing(false);
    let mut found = None;
    while s.tick() < until {
        let mut finder = VisitFinder {
            npc,
            count: 0,
            last: None,
        };
        s.step_probed(&mut finder);
        if let Some(k) = finder.last {
            found = Some((s.tick(), k));
        }
    }
    found
}

/// Watches a tick for node visits: numbers every event as [`DebugProbe`] does (so that
/// `Rule::At` pauses at the events it names) and keeps the last visit of `npc` (any NPC
/// when `None`).
struct VisitFinder {
    npc: Option<u32>,
    count: u64,
    last: Option<u64>,
}

impl Probe for VisitFinder {
    fn event(&mut self, ev: &DebugEvent<'_>, _env: Option<&dyn Env>) -> bool {
        self.count += 1;
        if let DebugEvent::Enter { npc, .. } = *ev
            && self.npc.is_none_or(|n| n == npc)
        {
            self.last = Some(self.count);
        }
        false
    }
}
