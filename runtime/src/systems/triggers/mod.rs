//! The trigger pass: deliver world events through the index, match moved NPCs against
//! sensors, re-check triggers whose flags/counters changed and polled triggers, fire, run
//! responses (which may dirty more triggers), until nothing is left to check.

use std::cmp::Reverse;

use rand::RngExt;

use crate::expr::Env as _;
use crate::program::Program;
use crate::program::triggers::{DoorIs, Key, LeafKind, Op, Pick};
use crate::systems::effects;
use crate::trace::{Actor, Out, TraceEvent};
use crate::value::EntityId;
use crate::world::triggers::{
    TriggerState, WorldEvent, dirty, recount, reloading, reset_event_conditions,
};
use crate::world::{Npc, World, WorldEnv};

#[cfg(test)]
mod tests;

/// Rounds of one pass (each round re-checks what the previous one's responses changed).
pub const MAX_ROUNDS: u32 = 10_000;

/// Runs one trigger pass over the world. `problems` gets one line per runtime problem.
pub fn pass(p: &Program, w: &mut World, out: &mut Out, problems: &mut Vec<String>) {
    let tp = &p.triggers;
    if tp.is_empty() {
        return;
    }
    let mut st = std::mem::take(&mut w.triggers);
    st.pass += 1;
    let tick = w.tick;
    if !st.started {
        st.started = true;
        st.flags_seen = w.flags.clone();
        st.counters_seen = w.counters.clone();
        // (The areas everyone starts in were reported by the membership path at tick 0.)
        for i in 0..w.npcs.len() {
            if w.npcs[i].alive() {
                st.moved.push(i as u32);
            }
        }
        for t in 0..tp.triggers.len() as u32 {
            dirty(&mut st, t);
        }
    }
    changed_slots(p, w, &mut st);
    sensors(p, w, &mut st);
    let feed = std::mem::take(&mut st.feed);
    for ev in &feed {
        deliver(p, w, &mut st, *ev);
    }
    while let Some(&Reverse((at, t))) = st.reloads.peek() {
        if at > tick {
            break;
        }
        st.reloads.pop();
        // (A trigger re-armed and fired again meanwhile has a later reload: not this one.)
        if !reloading(&st, t, tick) {
            recount(p, w, &mut st, t, tick);
        }
        dirty(&mut st, t);
    }
    for &t in &tp.polled {
        dirty(&mut st, t);
    }
    let mut rounds = 0;
    loop {
        if !st.feed.is_empty() {
            let feed = std::mem::take(&mut st.feed);
            for ev in &feed {
                deliver(p, w, &mut st, *ev);
            }
        }
        if st.dirty.is_empty() {
            break;
        }
        rounds += 1;
        if rounds > MAX_ROUNDS {
            problems.push(format!(
                "tick {tick}: triggers kept changing each other for {MAX_ROUNDS} rounds; the rest of the pass was skipped"
            ));
            st.dirty
                .iter()
                .for_each(|&t| st.is_dirty[t as usize] = false);
            st.dirty.clear();
            break;
        }
        let mut batch = std::mem::take(&mut st.dirty);
        batch.sort_unstable();
        for &t in &batch {
            st.is_dirty[t as usize] = false;
        }
        for &t in &batch {
            if !evaluate(p, w, &mut st, t, out, problems) {
                continue;
            }
            // Fire: responses run against the world with the state in place.
            fire(p, w, st, t, out);
            st = std::mem::take(&mut w.triggers);
            if out.stop {
                w.triggers = st;
                return;
            }
            changed_slots(p, w, &mut st);
            sensors(p, w, &mut st);
        }
        batch.clear();
        if st.dirty.capacity() == 0 {
            st.dirty = batch;
        }
    }
    w.triggers = st;
}

/// Flags and counters that changed since last seen (by trees, scripts or responses): their
/// readers are re-checked.
fn changed_slots(p: &Program, w: &World, st: &mut TriggerState) {
    let tp = &p.triggers;
    for k in 0..w.flags.len() {
        let now = w.flags[k];
        if st.flags_seen.get(k) != Some(&now) {
            if k >= st.flags_seen.len() {
                st.flags_seen.resize(k + 1, false);
            }
            st.flags_seen[k] = now;
            for &l in tp.listeners(Key::Flag(k as u32)) {
                let t = tp.leaves[l as usize].trigger;
                dirty(st, t);
            }
        }
    }
    for k in 0..w.counters.len() {
        let now = w.counters[k];
        if st.counters_seen.get(k) != Some(&now) {
            if k >= st.counters_seen.len() {
                st.counters_seen.resize(k + 1, 0);
            }
            st.counters_seen[k] = now;
            for &l in tp.listeners(Key::Counter(k as u32)) {
                let t = tp.leaves[l as usize].trigger;
                dirty(st, t);
            }
        }
    }
}

fn set_count(st: &mut TriggerState, leaf: u32, trigger: u32, tick: u64, up: bool) {
    let c = &mut st.count[leaf as usize];
    let was = *c > 0;
    *c = if up {
        c.saturating_add(1)
    } else {
        c.saturating_sub(1)
    };
    if was != (*c > 0) {
        st.changed[leaf as usize] = tick;
        dirty(st, trigger);
    }
}

fn set_latch(st: &mut TriggerState, leaf: u32, trigger: u32, tick: u64, on: bool) {
    if st.latch[leaf as usize] != on {
        st.latch[leaf as usize] = on;
        st.changed[leaf as usize] = tick;
        dirty(st, trigger);
    }
}

/// Delivers one world event to the conditions listening for it (index lookup).
fn deliver(p: &Program, w: &World, st: &mut TriggerState, ev: WorldEvent) {
    let tp = &p.triggers;
    let tick = w.tick;
    // A trigger in its reload time receives no events (seed 003): its event-driven
    // conditions were reset when it fired and stay so until the reload ends.
    let reloading = |st: &TriggerState, t: u32| reloading(st, t, tick);
    match ev {
        WorldEvent::Enter { npc, area } | WorldEvent::Exit { npc, area } => {
            let up = matches!(ev, WorldEvent::Enter { .. });
            for &l in tp.listeners(Key::Area(area)) {
                let leaf = &tp.leaves[l as usize];
                if let LeafKind::InArea { who, .. } = leaf.kind
                    && who.matches(w, npc)
                    && !reloading(st, leaf.trigger)
                {
                    set_count(st, l, leaf.trigger, tick, up);
                }
            }
        }
        WorldEvent::Received { npc, message } => {
            for &l in tp.listeners(Key::Message(message)) {
                let leaf = &tp.leaves[l as usize];
                if let LeafKind::Received {
                    who,
                    message: m,
                    until,
                } = leaf.kind
                    && who.matches(w, npc)
                    && !reloading(st, leaf.trigger)
                {
                    if m == message {
                        set_latch(st, l, leaf.trigger, tick, true);
                    } else if until == Some(message) {
                        set_latch(st, l, leaf.trigger, tick, false);
                    }
                }
            }
        }
        WorldEvent::Died { npc, by } => {
            let proto = w.npcs.get(npc as usize).map_or(u32::MAX, |n| n.proto);
            let keys = [Key::DeathOf(proto), Key::DeathAny];
            for k in keys {
                for &l in tp.listeners(k) {
                    let leaf = &tp.leaves[l as usize];
                    let hit = match leaf.kind {
                        LeafKind::Died { who } => who.matches(w, npc),
                        LeafKind::Killed { by: b, victim } => {
                            victim.matches(w, npc) && by != u32::MAX && b.matches(w, by)
                        }
                        _ => false,
                    };
                    if hit && !reloading(st, leaf.trigger) {
                        set_latch(st, l, leaf.trigger, tick, true);
                    }
                }
            }
        }
    }
}

/// Matches NPCs that moved (appeared, disappeared) against radius/rectangle conditions.
fn sensors(p: &Program, w: &World, st: &mut TriggerState) {
    let tp = &p.triggers;
    if st.moved.is_empty() {
        return;
    }
    let mut moved = std::mem::take(&mut st.moved);
    moved.sort_unstable();
    moved.dedup();
    let tick = w.tick;
    for &i in &moved {
        let iu = i as usize;
        let Some(npc) = w.npcs.get(iu) else { continue };
        if st.inside.len() <= iu {
            st.inside.resize(iu + 1, Vec::new());
        }
        let pos = w.pos[iu];
        let gone = !npc.alive();
        let mut now = std::mem::take(&mut st.inside[iu]);
        let mut k = 0;
        while k < now.len() {
            let s = &tp.sensors[now[k] as usize];
            if gone || !s.contains(pos) {
                let leaf = s.leaf;
                if let Some(c) = st.sensor_occupants.get_mut(now[k] as usize) {
                    *c = c.saturating_sub(1);
                }
                now.remove(k);
                let t = tp.leaves[leaf as usize].trigger;
                if !reloading(st, t, tick) {
                    set_count(st, leaf, t, tick, false);
                }
            } else {
                k += 1;
            }
        }
        if !gone {
            for si in tp.grid.near(pos) {
                let s = &tp.sensors[si as usize];
                if !s.who.matches(w, i) || !s.contains(pos) {
                    continue;
                }
                if let Err(at) = now.binary_search(&si) {
                    now.insert(at, si);
                    if let Some(c) = st.sensor_occupants.get_mut(si as usize) {
                        *c += 1;
                    }
                    let t = tp.leaves[s.leaf as usize].trigger;
                    if !reloading(st, t, tick) {
                        set_count(st, s.leaf, t, tick, true);
                    }
                }
            }
        }
        st.inside[iu] = now;
    }
    moved.clear();
    if st.moved.is_empty() {
        st.moved = moved;
    }
}

fn any_copy(w: &World, npc: u32, mut f: impl FnMut(usize, &Npc) -> bool) -> bool {
    let me = w
        .npcs
        .get(npc as usize)
        .is_some_and(|n| !n.removed && f(npc as usize, n));
    me || w.triggers.copies.get(npc as usize).is_some_and(|c| {
        c.iter().any(|&i| {
            let n = &w.npcs[i as usize];
            !n.removed && f(i as usize, n)
        })
    })
}

/// The current value of a condition (polled ones read the world now).
pub(crate) fn leaf_value(p: &Program, w: &World, st: &TriggerState, l: u32) -> bool {
    let leaf = &p.triggers.leaves[l as usize];
    let li = l as usize;
    match leaf.kind {
        LeafKind::InArea { .. } | LeafKind::InSensor { .. } => st.count[li] > 0,
        LeafKind::Received { .. } | LeafKind::Died { .. } | LeafKind::Killed { .. } => st.latch[li],
        LeafKind::Flag { flag, value } => {
            w.flags.get(flag as usize).copied().unwrap_or(false) == value
        }
        LeafKind::Counter {
            counter,
            cmp,
            value,
        } => cmp.int(
            w.counters.get(counter as usize).copied().unwrap_or(0),
            value,
        ),
        LeafKind::Health { who, cmp, percent } => any_copy(w, who, |_, n| {
            let max = p.npcs.get(n.proto as usize).map_or(0.0, |i| i.health);
            let pct = if max > 0.0 {
                n.health * 100.0 / max
            } else {
                0.0
            };
            cmp.float(pct, percent)
        }),
        LeafKind::HasItem { who, item } => {
            any_copy(w, who, |_, n| n.items.binary_search(&item).is_ok())
        }
        LeafKind::Equipped { who, item } => {
            any_copy(w, who, |_, n| n.equipped.binary_search(&item).is_ok())
        }
        LeafKind::Door { object, is } => w.objects.get(object as usize).is_some_and(|o| match is {
            DoorIs::Open => o.open,
            DoorIs::Closed => !o.open,
            DoorIs::Locked => o.locked,
            DoorIs::Unlocked => !o.locked,
        }),
        LeafKind::ObjectState { object, state } => w
            .objects
            .get(object as usize)
            .is_some_and(|o| o.state == state),
        LeafKind::Near { a, b, distance } => {
            let Some(bp) = WorldEnv::world(p, w).position(b) else {
                return false;
            };
            any_copy(w, a, |i, _| w.pos[i].distance(bp) <= distance)
        }
        LeafKind::Var { who, expr } => {
            let Some(e) = p.exprs.get(expr as usize) else {
                return false;
            };
            any_copy(w, who, |i, _| {
                e.eval_bool(&WorldEnv {
                    program: p,
                    world: w,
                    npc: i as u32,
                })
            })
        }
    }
}

/// Lazy evaluation of node `n` of trigger `t`; marks each evaluated condition.
fn eval_node(p: &Program, w: &World, st: &mut TriggerState, t: u32, n: u32) -> bool {
    let node = &p.triggers.triggers[t as usize].nodes[n as usize];
    match node.op {
        Op::Leaf(l) => {
            let v = leaf_value(p, w, st, l);
            let li = l as usize;
            st.evaluated[li] = w.tick;
            let kind = &p.triggers.leaves[li].kind;
            if !kind.is_event() && st.latch[li] != v {
                st.latch[li] = v;
                st.changed[li] = w.tick;
            }
            v
        }
        Op::And => node.children.iter().all(|&c| eval_node(p, w, st, t, c)),
        Op::Or => node.children.iter().any(|&c| eval_node(p, w, st, t, c)),
        Op::Not => !node
            .children
            .first()
            .is_some_and(|&c| eval_node(p, w, st, t, c)),
        Op::Xor => {
            let mut trues = 0;
            for &c in &node.children {
                if eval_node(p, w, st, t, c) {
                    trues += 1;
                    if trues > 1 {
                        return false;
                    }
                }
            }
            trues == 1
        }
    }
}

/// Evaluates a trigger; true when it must fire now.
fn evaluate(
    p: &Program,
    w: &mut World,
    st: &mut TriggerState,
    t: u32,
    out: &mut Out,
    problems: &mut Vec<String>,
) -> bool {
    let trig = &p.triggers.triggers[t as usize];
    let ti = t as usize;
    let v = eval_node(p, w, st, t, 0);
    st.value[ti] = v;
    if !v {
        st.holding[ti] = false;
        return false;
    }
    if st.holding[ti] || !trig.enabled || st.spent[ti] || w.tick < st.reload_until[ti] {
        return false;
    }
    // A removed or dead NPC's triggers do not fire.
    if let EntityId::Npc(n) = trig.owner
        && !w.npcs.get(n as usize).is_some_and(Npc::alive)
    {
        return false;
    }
    if st.fired_pass[ti] == st.pass {
        // Reset in the pass it already fired in: a reset loop.
        st.holding[ti] = true;
        if !st.loop_reported[ti] {
            st.loop_reported[ti] = true;
            problems.push(format!(
                "tick {}: trigger `{}` was reset and became true again in the tick it already fired in (a reset loop); cut off until the next tick",
                w.tick, trig.id
            ));
        }
        let tick = w.tick;
        out.emit(p, w, None, TraceEvent::TriggerLoop { tick, trigger: t });
        return false;
    }
    true
}

fn fire(p: &Program, w: &mut World, mut st: TriggerState, t: u32, out: &mut Out) {
    let trig = &p.triggers.triggers[t as usize];
    let ti = t as usize;
    let tick = w.tick;
    st.holding[ti] = true;
    st.fired_pass[ti] = st.pass;
    st.fires[ti] = st.fires[ti].saturating_add(1);
    st.last_fired[ti] = tick;
    if trig.single_shot {
        st.spent[ti] = true;
    } else if trig.reload_ticks > 0 {
        st.reload_until[ti] = tick.saturating_add(trig.reload_ticks);
        st.reloads.push(Reverse((st.reload_until[ti], t)));
        // Seed 003: it waits its reload time "until it re-initializes its conditions and
        // receives events again": all its event-driven conditions are reset now and ignore
        // events until the reload ends (see `deliver` and `sensors`); then they start fresh
        // (`recount` at the end of the reload).
        reset_event_conditions(p, &mut st, t, tick);
    }
    // Consumed latches.
    for n in &trig.nodes {
        if let Op::Leaf(l) = n.op
            && p.triggers.leaves[l as usize].consume
            && st.latch[l as usize]
        {
            st.latch[l as usize] = false;
            st.changed[l as usize] = tick;
            dirty(&mut st, t);
        }
    }
    let picked = match trig.pick {
        Pick::All => u32::MAX,
        Pick::RandomOne => {
            let total: f64 = trig.weights.iter().sum();
            let mut x = w.rng.random::<f64>() * total;
            let mut k = trig.weights.len().saturating_sub(1);
            for (i, wt) in trig.weights.iter().enumerate() {
                if x < *wt {
                    k = i;
                    break;
                }
                x -= wt;
            }
            k as u32
        }
    };
    w.triggers = st;
    out.scope(Some(Actor::Trigger { trigger: t }));
    out.emit(
        p,
        w,
        None,
        TraceEvent::Trigger {
            tick,
            trigger: t,
            picked,
        },
    );
    if out.stop {
        return;
    }
    let from = trig.owner;
    let run: &[_] = if picked == u32::MAX {
        &trig.responses
    } else {
        trig.responses
            .get(picked as usize)
            .map_or(&[], std::slice::from_ref)
    };
    for r in run {
        effects::apply(p, w, from, r, out);
        if out.stop {
            return;
        }
    }
    out.scope(None);
}
