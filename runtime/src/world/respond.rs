//! Running responses (triggers' and story events' effects) against the world.

use super::probe::Out;
use super::{Program, TraceEvent, World};
use crate::pack::Diagnostic;
use crate::pack::Response;
use crate::pack::diag::key;
use crate::value::{EntityId, Sym};

/// A response with its names resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum CResponse {
    SetFlag {
        flag: u32,
        value: bool,
    },
    ToggleFlag {
        flag: u32,
    },
    SetCounter {
        counter: u32,
        value: i64,
    },
    AddCounter {
        counter: u32,
        by: i64,
    },
    CopyCounter {
        from: u32,
        to: u32,
    },
    SendMessage {
        to: u32,
        inbox: Sym,
        message: Sym,
    },
    ShowText {
        text: Sym,
        ticks: u64,
    },
    PlaySound {
        cue: Sym,
    },
    Log {
        text: Sym,
    },
    CreateArea {
        proto: u32,
        at: crate::value::Vec2,
        ticks: Option<u64>,
    },
    RemoveArea {
        proto: u32,
    },
    /// Library index of a story event.
    StartEvent {
        event: u32,
    },
    EndEvent {
        event: u32,
        success: bool,
    },
}

/// What compiling a response needs from the program being built.
pub trait ResponseCompiler {
    fn flag_slot(&mut self, name: &str) -> u32;
    fn counter_slot(&mut self, name: &str) -> u32;
    fn intern(&mut self, s: &str) -> Sym;
    fn npc(&self, id: &str) -> Option<u32>;
    /// A dynamic area prototype by id: Ok(index), or Err(message).
    fn dynamic_area(&self, id: &str) -> Result<u32, String>;
    fn ticks(&mut self, path: String, seconds: f64) -> u64;
    fn push(&mut self, d: Diagnostic);
    /// Library index of a story event.
    fn event(&self, id: &str) -> Option<u32>;
}

/// Compiles one response found at `path`; reports problems and returns None for bad ones.
pub fn compile(c: &mut dyn ResponseCompiler, r: &Response, path: &str) -> Option<CResponse> {
    Some(match r {
        Response::SetFlag { flag, value } => CResponse::SetFlag {
            flag: c.flag_slot(flag),
            value: *value,
        },
        Response::ToggleFlag { flag } => CResponse::ToggleFlag {
            flag: c.flag_slot(flag),
        },
        Response::SetCounter { counter, value } => CResponse::SetCounter {
            counter: c.counter_slot(counter),
            value: *value,
        },
        Response::AddCounter { counter, by } => CResponse::AddCounter {
            counter: c.counter_slot(counter),
            by: *by,
        },
        Response::CopyCounter { from, to } => CResponse::CopyCounter {
            from: c.counter_slot(from),
            to: c.counter_slot(to),
        },
        Response::SendMessage { to, inbox, message } => match c.npc(to) {
            Some(n) => CResponse::SendMessage {
                to: n,
                inbox: c.intern(inbox),
                message: c.intern(message),
            },
            None => {
                c.push(Diagnostic::error(
                    key(path, "to"),
                    format!("unknown NPC `{to}`"),
                ));
                return None;
            }
        },
        Response::ShowText { text, seconds } => CResponse::ShowText {
            text: c.intern(text),
            ticks: c.ticks(key(path, "seconds"), *seconds),
        },
        Response::PlaySound { cue } => CResponse::PlaySound { cue: c.intern(cue) },
        Response::Log { text } => CResponse::Log {
            text: c.intern(text),
        },
        Response::CreateArea {
            prototype,
            at,
            seconds,
        } => match c.dynamic_area(prototype) {
            Ok(proto) => CResponse::CreateArea {
                proto,
                at: (*at).into(),
                ticks: seconds.map(|s| c.ticks(key(path, "seconds"), s)),
            },
            Err(msg) => {
                c.push(Diagnostic::error(key(path, "prototype"), msg));
                return None;
            }
        },
        Response::RemoveArea { prototype } => match c.dynamic_area(prototype) {
            Ok(proto) => CResponse::RemoveArea { proto },
            Err(msg) => {
                c.push(Diagnostic::error(key(path, "prototype"), msg));
                return None;
            }
        },
        Response::StartEvent { event } | Response::EndEvent { event, .. } => {
            let Some(i) = c.event(event) else {
                c.push(Diagnostic::error(
                    key(path, "event"),
                    format!("unknown event `{event}`"),
                ));
                return None;
            };
            match r {
                Response::EndEvent { outcome, .. } => CResponse::EndEvent {
                    event: i,
                    success: outcome.is_success(),
                },
                _ => CResponse::StartEvent { event: i },
            }
        }
    })
}

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
            if let Some(ev) = super::host::send_message(w, from, EntityId::Npc(to), inbox, message)
            {
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
            crate::areas::create_area(p, w, proto, at, ticks, out);
        }
        CResponse::RemoveArea { proto } => {
            let ids: Vec<u32> = w
                .dyn_areas
                .iter()
                .filter(|d| d.state.alive && crate::areas::proto_of(d.id) == proto)
                .map(|d| d.id)
                .collect();
            for id in ids {
                crate::areas::remove_area(p, w, id, out);
            }
        }
        CResponse::StartEvent { event } => crate::events::exec::start_event(p, w, event, out),
        CResponse::EndEvent { event, success } => {
            crate::events::exec::end_event(p, w, event, success, out)
        }
    }
}

fn set_flag(p: &Program, w: &mut World, flag: u32, value: bool, out: &mut Out) {
    if let Some(cell) = w.flags.get_mut(flag as usize)
        && *cell != value
    {
        *cell = value;
        let tick = w.tick;
        out.emit(
            p,
            w,
            None,
            TraceEvent::Flag {
                tick,
                name: flag,
                value,
            },
        );
    }
}

fn set_counter(p: &Program, w: &mut World, counter: u32, value: i64, out: &mut Out) {
    if let Some(cell) = w.counters.get_mut(counter as usize)
        && *cell != value
    {
        *cell = value;
        let tick = w.tick;
        out.emit(
            p,
            w,
            None,
            TraceEvent::Counter {
                tick,
                name: counter,
                value,
            },
        );
    }
}
