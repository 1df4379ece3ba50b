//! Shared service of the systems: every change a response (or a tree, or a tool) makes to
//! the world, reported to the trace and to the layers that listen. Phases call it; it calls
//! no phase.
//!
//! - this file: running one compiled response ([`apply`]), flags, counters, messages;
//! - [`areas`]: handler runs queued, behaviors dropped, dynamic areas placed and removed;
//! - [`lifecycle`]: the one path of spawning, removal, death, teleports and area
//!   membership, and [`lifecycle::happened`], the one event stream (triggers + trace);
//! - [`npcs`]: doors, objects, items, spawning (where copies appear), re-arming a trigger;
//! - [`story`]: the executor's check, launching and ending story events.

pub mod areas;
pub mod lifecycle;
pub mod npcs;
pub mod story;

use crate::program::Program;
use crate::program::responses::CResponse;
use crate::trace::{Out, TraceEvent};
use crate::value::{EntityId, Sym};
use crate::world::triggers::live_copies;
use crate::world::{MAX_INBOX, Message, World};

/// Runs one response. `from` is who runs it (a trigger's owner, the world, …); it is the
/// sender of messages.
pub fn apply(p: &Program, w: &mut World, from: EntityId, r: &CResponse, out: &mut Out) {
    let tick = w.tick;
    match *r {
        CResponse::SetFlag { flag, value } => set_flag(p, w, flag, value, out),
        CResponse::ToggleFlag { flag } => {
            let now = w.flags.get(flag as usize).copied().unwrap_or(false);
            set_flag(p, w, flag, !now, out);
        }
        CResponse::SetCounter { counter, value } => set_counter(p, w, counter, value, out),
        CResponse::AddCounter { counter, by } => {
            let now = w.counters.get(counter as usize).copied().unwrap_or(0);
            set_counter(p, w, counter, now.wrapping_add(by), out);
        }
        CResponse::CopyCounter { from: src, to } => {
            let v = w.counters.get(src as usize).copied().unwrap_or(0);
            set_counter(p, w, to, v, out);
        }
        CResponse::SendMessage { to, inbox, message } => {
            if let Some(ev) = send_message(w, from, EntityId::Npc(to), inbox, message) {
                out.emit(p, w, Some(to), ev);
            }
        }
        CResponse::ShowText { text, ticks } => {
            w.texts.push((text, tick.saturating_add(ticks)));
            out.emit(p, w, None, TraceEvent::ShowText { tick, text });
        }
        CResponse::PlaySound { cue } => out.emit(p, w, None, TraceEvent::Sound { tick, cue }),
        CResponse::Log { text } => {
            let npc = match from {
                EntityId::Npc(n) => n,
                _ => u32::MAX,
            };
            out.emit(p, w, None, TraceEvent::Log { tick, npc, text });
        }
        CResponse::CreateArea { proto, at, ticks } => {
            areas::create_area(p, w, proto, at, ticks, out);
        }
        CResponse::RemoveArea { proto } => {
            let ids: Vec<u32> = w
                .dyn_areas
                .iter()
                .filter(|d| d.state.alive && crate::world::areas::proto_of(d.id) == proto)
                .map(|d| d.id)
                .collect();
            for id in ids {
                areas::remove_area(p, w, id, out);
            }
        }
        CResponse::StartEvent { event } => story::start_event(p, w, event, out),
        CResponse::EndEvent { event, success } => story::end_event(p, w, event, success, out),
        CResponse::Door { object, action } => npcs::door(p, w, object, action, out),
        CResponse::ObjectState { object, state } => {
            npcs::set_object_state(p, w, object, state, out)
        }
        CResponse::Spawn {
            npc,
            count,
            at,
            spread,
        } => npcs::spawn(p, w, npc, count, at, spread, out),
        CResponse::Remove { npc } => {
            for i in live_copies(p, w, npc) {
                lifecycle::remove(p, w, i, out);
            }
        }
        CResponse::Kill { npc } => {
            for i in live_copies(p, w, npc) {
                lifecycle::set_health(p, w, i, 0.0, from, out);
            }
        }
        CResponse::Damage { npc, amount } => {
            for i in live_copies(p, w, npc) {
                let h = w.npcs[i as usize].health - amount;
                lifecycle::set_health(p, w, i, h, from, out);
            }
        }
        CResponse::Heal { npc, amount } => {
            for i in live_copies(p, w, npc) {
                let h = w.npcs[i as usize].health + amount;
                lifecycle::set_health(p, w, i, h, from, out);
            }
        }
        CResponse::GiveItem { npc, item } => {
            for i in live_copies(p, w, npc) {
                npcs::give(p, w, i, item, out);
            }
        }
        CResponse::ResetTrigger { trigger } => npcs::reset(p, w, trigger),
        CResponse::CompleteLevel => {
            if !w.triggers.level_complete {
                w.triggers.level_complete = true;
                out.emit(p, w, None, TraceEvent::LevelComplete { tick });
            }
        }
    }
}

/// Writes a world flag; returns the trace event to report when its value changed.
pub(crate) fn write_flag(w: &mut World, flag: u32, value: bool) -> Option<TraceEvent> {
    let cell = w.flags.get_mut(flag as usize)?;
    (*cell != value).then(|| {
        *cell = value;
        TraceEvent::Flag {
            tick: w.tick,
            name: flag,
            value,
        }
    })
}

/// Writes a world counter; returns the trace event to report when its value changed.
pub(crate) fn write_counter(w: &mut World, counter: u32, value: i64) -> Option<TraceEvent> {
    let cell = w.counters.get_mut(counter as usize)?;
    (*cell != value).then(|| {
        *cell = value;
        TraceEvent::Counter {
            tick: w.tick,
            name: counter,
            value,
        }
    })
}

fn set_flag(p: &Program, w: &mut World, flag: u32, value: bool, out: &mut Out) {
    if let Some(ev) = write_flag(w, flag, value) {
        out.emit(p, w, None, ev);
    }
}

fn set_counter(p: &Program, w: &mut World, counter: u32, value: i64, out: &mut Out) {
    if let Some(ev) = write_counter(w, counter, value) {
        out.emit(p, w, None, ev);
    }
}

/// Queues a message for delivery at the end of the tick (to an NPC's or an area's inbox);
/// returns the trace event to report, or None when the recipient does not exist.
pub(crate) fn send_message(
    w: &mut World,
    from: EntityId,
    to: EntityId,
    inbox: Sym,
    message: Sym,
) -> Option<TraceEvent> {
    let exists = match to {
        EntityId::Npc(n) => (n as usize) < w.npcs.len(),
        EntityId::Area(a) => crate::world::areas::state(w, a).is_some_and(|s| s.alive),
        _ => false,
    };
    if !exists || w.outbox.len() >= MAX_INBOX * 16 {
        return None;
    }
    let tick = w.tick;
    w.outbox.push((
        to,
        inbox,
        Message {
            from,
            message,
            sent: tick,
        },
    ));
    Some(TraceEvent::Message {
        tick,
        from,
        to,
        inbox,
        message,
    })
}

/// A message reaches its recipient's inbox (bounded: the oldest goes first) and is reported
/// through the one event stream ([`lifecycle::happened`]): the trace and the debugger hear
/// it, and so do triggers waiting for what an NPC `received`. Message delivery (the last
/// phase of a tick) and scripted messages (`townsfolk triggers`) both come here. Nothing
/// happens when the recipient does not exist. The `talk` inbox of an NPC that can converse
/// is kept by the conversation layer ([`TalkState`](crate::world::talk::TalkState)'s
/// `post`), every other inbox in its NPC's or area's list.
pub fn deliver(p: &Program, w: &mut World, to: EntityId, inbox: Sym, m: Message, out: &mut Out) {
    if let Some(n) = w.talk.kept_inbox(p.talk.inbox, to, inbox) {
        w.talk.deliver(n, m);
        received(p, w, to, inbox, m, out);
        return;
    }
    let boxes = match to {
        EntityId::Npc(n) => w.npcs.get_mut(n as usize).map(|n| &mut n.inboxes),
        EntityId::Area(a) => crate::world::areas::state_mut(w, a).map(|s| &mut s.inboxes),
        _ => None,
    };
    let Some(boxes) = boxes else {
        return;
    };
    // Inbox names are unique in a list; an inbox made by a delivery is the last one, so
    // the search starts from the end: it reads that entry only, not the entries before it.
    debug_assert!(
        boxes.iter().filter(|(s, _)| *s == inbox).count() <= 1,
        "an inbox name twice in one list"
    );
    let slot = match boxes.iter().rposition(|(s, _)| *s == inbox) {
        Some(k) => k,
        None => {
            boxes.push((inbox, std::collections::VecDeque::new()));
            boxes.len() - 1
        }
    };
    let q = &mut boxes[slot].1;
    if q.len() >= MAX_INBOX {
        q.pop_front();
    }
    q.push_back(m);
    received(p, w, to, inbox, m, out);
}

/// The event of a delivery, through the one event stream.
fn received(p: &Program, w: &mut World, to: EntityId, inbox: Sym, m: Message, out: &mut Out) {
    let npc = match to {
        EntityId::Npc(n) => Some(n),
        _ => None,
    };
    let ev = TraceEvent::Received {
        tick: w.tick,
        from: m.from,
        to,
        inbox,
        message: m.message,
    };
    lifecycle::happened(p, w, npc, ev, out);
}
