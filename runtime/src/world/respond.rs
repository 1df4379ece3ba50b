//! Running responses (triggers' and story events' effects) against the world.

use super::probe::Out;
use super::{MAX_INBOX, Message, Program, TraceEvent, World};
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
            if (to as usize) < w.npcs.len() && w.outbox.len() < MAX_INBOX * 16 {
                w.outbox.push((
                    to,
                    inbox,
                    Message {
                        from,
                        message,
                        sent: tick,
                    },
                ));
                let sender = match from {
                    EntityId::Npc(n) => n,
                    _ => u32::MAX,
                };
                out.emit(
                    p,
                    w,
                    Some(to),
                    TraceEvent::Message {
                        tick,
                        from: sender,
                        to,
                        inbox,
                        message,
                    },
                );
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
