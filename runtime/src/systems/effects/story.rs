//! Story changes (SPEC §3): the executor's daily check, launching and ending events and
//! applying their effects; also the `start_event` / `end_event` responses.
//!
//! Once per story day it: advances the tracker to the day; ends the active events whose
//! simulated duration is over (success with the event's `success_probability`); launches
//! every available mandatory event; then, if fewer than `max_active` events are active and
//! at least `min_wait` days passed since the last launch (if any), launches one available event
//! chosen uniformly with probability `launch_probability` (or surely, once `max_wait` days
//! passed without a launch). Random draws come from the world's seeded RNG.
//!
//! Story days: with the scenario's `ticks_per_day`, day = `start_day + tick / ticks_per_day`;
//! without it, story days are the world clock's days (`start_day + (day() - clock start
//! day)`), so `day()` in expressions and the story agree.

use rand::RngExt;

use crate::pack::EndedBy;
use crate::program::Program;
use crate::program::tracker::{Change, NodeState};
use crate::trace::{Out, TraceEvent};
use crate::value::EntityId;
use crate::world::World;
use crate::world::story::{available, local_of, precondition_holds};

/// Deepest chain of effects that end or start other events from inside an effect.
const MAX_EFFECT_DEPTH: u32 = 32;

/// One daily check of the executor on `day` (see the module documentation).
pub fn check(p: &Program, w: &mut World, day: i64, out: &mut Out) {
    let Some(sc) = w.story.as_ref().map(|s| s.scenario) else {
        return;
    };
    let Some(s) = p.events.scenarios.get(sc as usize) else {
        return;
    };
    advance_to(p, w, day, out);
    // End the events whose simulated time is over, in (day, scenario order) order.
    let mut due: Vec<(i64, u32)> = w
        .story
        .as_ref()
        .map(|st| {
            st.active
                .iter()
                .filter(|a| a.1 <= day)
                .map(|&(n, d)| (d, n))
                .collect()
        })
        .unwrap_or_default();
    due.sort_unstable_by_key(|&(d, n)| (d, s.rank[n as usize]));
    for (_, n) in due {
        let li = s.nodes[n as usize];
        let pr = p.events.events[li as usize].success_probability;
        let success = w.rng.random::<f64>() < pr;
        end_local(p, w, n, success, out);
    }
    // Mandatory events, whatever the parameters.
    for n in available(p, w) {
        if p.events.events[s.nodes[n as usize] as usize].mandatory {
            launch_local(p, w, n, true, out);
        }
    }
    // At most one regular launch per check.
    let Some(st) = w.story.as_ref() else {
        return;
    };
    // Before the first launch there is nothing to wait after; `max_wait` counts from the start.
    let since = day - st.last_launch.unwrap_or(s.start_day);
    let waited = st.last_launch.is_none() || since >= s.min_wait as i64;
    if st.active.len() < s.max_active as usize && waited {
        let cands: Vec<u32> = available(p, w)
            .into_iter()
            .filter(|&n| !p.events.events[s.nodes[n as usize] as usize].mandatory)
            .collect();
        if !cands.is_empty() {
            let forced = s.max_wait.is_some_and(|m| since >= m as i64);
            let roll = w.rng.random::<f64>();
            if forced || roll < s.launch_probability {
                let k = w.rng.random_range(0..cands.len());
                launch_local(p, w, cands[k], true, out);
            }
        }
    }
    if let Some(st) = w.story.as_mut() {
        st.checked = day;
    }
}

/// Moves the tracker to `day` (never backwards) and reports what opened, expired or died.
pub fn advance_to(p: &Program, w: &mut World, day: i64, out: &mut Out) {
    let Some(st) = w.story.as_mut() else {
        return;
    };
    let Some(s) = p.events.scenarios.get(st.scenario as usize) else {
        return;
    };
    let days = day - st.tracker.date();
    st.tracker.advance(&s.graph, days.max(0));
    emit_changes(p, w, out);
}

fn emit_changes(p: &Program, w: &mut World, out: &mut Out) {
    let Some(st) = w.story.as_mut() else {
        return;
    };
    if st.tracker.changes.is_empty() {
        return;
    }
    let mut changes = std::mem::take(&mut st.tracker.changes);
    let (sc, day) = (st.scenario, st.tracker.date());
    let nodes = &p.events.scenarios[sc as usize].nodes;
    let tick = w.tick;
    for c in &changes {
        let ev = match *c {
            Change::Open(n) => TraceEvent::EventOpen {
                tick,
                event: nodes[n as usize],
                day,
            },
            Change::Expired(n) => TraceEvent::EventExpired {
                tick,
                event: nodes[n as usize],
                day,
            },
            Change::Dead(n) => TraceEvent::EventDead {
                tick,
                event: nodes[n as usize],
                day,
            },
        };
        out.emit(p, w, None, ev);
    }
    changes.clear();
    if let Some(st) = w.story.as_mut()
        && st.tracker.changes.is_empty()
    {
        // Keep the allocation.
        st.tracker.changes = changes;
    }
}

/// Launches an open local node. `simulate`: the executor schedules its end (if the event is
/// ended by simulation); otherwise only the world or a script ends it. False if not open.
pub fn launch_local(p: &Program, w: &mut World, n: u32, simulate: bool, out: &mut Out) -> bool {
    let Some(st) = w.story.as_ref() else {
        return false;
    };
    let s = &p.events.scenarios[st.scenario as usize];
    let li = s.nodes[n as usize];
    let e = &p.events.events[li as usize];
    let day = st.tracker.date();
    if st.tracker.state(n) != NodeState::Open {
        return false;
    }
    let end = if simulate && e.ended_by == EndedBy::Simulation {
        let [lo, hi] = e.duration;
        day.saturating_add(w.rng.random_range(lo..=hi) as i64)
    } else {
        i64::MAX
    };
    let Some(st) = w.story.as_mut() else {
        return false;
    };
    st.tracker.launch(n);
    st.active.push((n, end));
    st.last_launch = Some(day);
    let tick = w.tick;
    out.emit(
        p,
        w,
        None,
        TraceEvent::EventLaunch {
            tick,
            event: li,
            day,
        },
    );
    true
}

/// Ends an active local node with an outcome: updates the tracker, reports, then applies
/// the event's effects. False if the node is not active.
pub fn end_local(p: &Program, w: &mut World, n: u32, success: bool, out: &mut Out) -> bool {
    let Some(st) = w.story.as_mut() else {
        return false;
    };
    let Some(at) = st.active.iter().position(|a| a.0 == n) else {
        return false;
    };
    let s = &p.events.scenarios[st.scenario as usize];
    st.active.remove(at);
    st.tracker.ended(&s.graph, n, success);
    let (li, day) = (s.nodes[n as usize], st.tracker.date());
    let depth = st.depth;
    let tick = w.tick;
    out.emit(
        p,
        w,
        None,
        TraceEvent::EventEnd {
            tick,
            event: li,
            day,
            success,
        },
    );
    emit_changes(p, w, out);
    if depth >= MAX_EFFECT_DEPTH {
        return true;
    }
    if let Some(st) = w.story.as_mut() {
        st.depth += 1;
    }
    let e = &p.events.events[li as usize];
    let effects = if success {
        &e.on_success
    } else {
        &e.on_failure
    };
    for r in effects {
        super::apply(p, w, EntityId::None, r, out);
    }
    if let Some(st) = w.story.as_mut() {
        st.depth -= 1;
    }
    true
}

/// The `start_event` response: launches the event now if it is available in the running
/// scenario (open and its precondition holds); otherwise does nothing.
pub fn start_event(p: &Program, w: &mut World, event: u32, out: &mut Out) {
    let Some(n) = local_of(p, w, event) else {
        return;
    };
    if precondition_holds(p, w, event) {
        launch_local(p, w, n, true, out);
    }
}

/// The `end_event` response: ends the event with the outcome if it is active.
pub fn end_event(p: &Program, w: &mut World, event: u32, success: bool, out: &mut Out) {
    if let Some(n) = local_of(p, w, event) {
        end_local(p, w, n, success, out);
    }
}
