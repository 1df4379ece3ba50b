//! Responses (SPEC §4), compiled: triggers' and story events' effects with their names
//! resolved. Running them is `systems::effects`.

use super::ctx::{At, Ctx};
use crate::pack::Diagnostic;
use crate::pack::diag::key;
use crate::pack::{DoorAction, Response};
use crate::value::{EntityId, Sym, Vec2};

/// Why a response's `prototype` names no dynamic area prototype.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DynamicAreaError {
    #[error("area `{0}` is not a dynamic prototype (set `\"dynamic\": true` on it)")]
    NotDynamic(String),
    #[error("unknown area `{0}`")]
    Unknown(String),
}

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
    Door {
        object: u32,
        action: DoorAction,
    },
    ObjectState {
        object: u32,
        state: Sym,
    },
    /// `npc`: the prototype (a declared NPC) copied.
    Spawn {
        npc: u32,
        count: u32,
        at: SpawnAt,
        spread: f64,
    },
    /// NPC index: the NPC and every spawned copy of it.
    Remove {
        npc: u32,
    },
    Kill {
        npc: u32,
    },
    Damage {
        npc: u32,
        amount: f64,
    },
    Heal {
        npc: u32,
        amount: f64,
    },
    GiveItem {
        npc: u32,
        item: Sym,
    },
    /// Global trigger index.
    ResetTrigger {
        trigger: u32,
    },
    CompleteLevel,
}

/// Where spawned NPCs appear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpawnAt {
    Point(Vec2),
    Entity(EntityId),
    /// The prototype's declared position.
    Home,
}

/// Most NPCs one `spawn` response makes.
pub const MAX_SPAWN: u32 = 1000;

/// An NPC named in a response: its id, or `self` when the owner is an NPC.
fn npc_ref(c: &mut Ctx<'_>, id: &str, path: &str) -> Option<u32> {
    let found = match (id, c.owner()) {
        ("self", EntityId::Npc(n)) => Some(n),
        _ => c.npc(id),
    };
    if found.is_none() {
        c.push(Diagnostic::error(path, format!("unknown NPC `{id}`")));
    }
    found
}

/// A world object named in a response: its id, or `self` when the owner is an object.
fn object_ref(c: &mut Ctx<'_>, id: &str, path: &str) -> Option<u32> {
    let found = match (id, c.owner()) {
        ("self", EntityId::Object(o)) => Some(o),
        _ => match c.lookup(id) {
            Some(EntityId::Object(o)) => Some(o),
            _ => None,
        },
    };
    if found.is_none() {
        c.push(Diagnostic::error(path, format!("unknown object `{id}`")));
    }
    found
}

fn amount(c: &mut Ctx<'_>, x: f64, path: &str) -> Option<f64> {
    if x.is_finite() && (0.0..=1.0e9).contains(&x) {
        Some(x)
    } else {
        c.push(Diagnostic::error(
            path,
            format!("an amount must be between 0 and 1e9, found {x}"),
        ));
        None
    }
}

/// Compiles one response found at `path`; reports problems and returns None for bad ones.
pub(crate) fn compile(c: &mut Ctx<'_>, r: &Response, path: &str) -> Option<CResponse> {
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
            ticks: c.ticks(At::Key(path, "seconds"), *seconds),
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
                ticks: seconds.map(|s| c.ticks(At::Key(path, "seconds"), s)),
            },
            Err(e) => {
                c.push(Diagnostic::error(key(path, "prototype"), e.to_string()));
                return None;
            }
        },
        Response::RemoveArea { prototype } => match c.dynamic_area(prototype) {
            Ok(proto) => CResponse::RemoveArea { proto },
            Err(e) => {
                c.push(Diagnostic::error(key(path, "prototype"), e.to_string()));
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
        Response::Door { object, action } => CResponse::Door {
            object: object_ref(c, object, &key(path, "object"))?,
            action: *action,
        },
        Response::SetObjectState { object, state } => CResponse::ObjectState {
            object: object_ref(c, object, &key(path, "object"))?,
            state: c.intern(state),
        },
        Response::Spawn {
            npc,
            count,
            at,
            near,
            spread,
        } => {
            let proto = npc_ref(c, npc, &key(path, "npc"));
            if *count == 0 || *count > MAX_SPAWN {
                c.push(Diagnostic::error(
                    key(path, "count"),
                    format!("`count` must be between 1 and {MAX_SPAWN}, found {count}"),
                ));
                return None;
            }
            let spread = amount(c, *spread, &key(path, "spread"))?;
            let at = match (at, near) {
                (Some(_), Some(_)) => {
                    c.push(Diagnostic::error(path, "give `at` or `near`, not both"));
                    return None;
                }
                (Some(p), None) => {
                    let ok = [p.x, p.y]
                        .iter()
                        .all(|v| v.is_finite() && v.abs() <= super::MAX_COORD);
                    if !ok {
                        c.push(Diagnostic::error(
                            key(path, "at"),
                            "coordinate out of range",
                        ));
                        return None;
                    }
                    SpawnAt::Point(Vec2::new(p.x, p.y))
                }
                (None, Some(id)) => {
                    let e = if id == "self" {
                        Some(c.owner()).filter(|e| *e != EntityId::None)
                    } else {
                        c.lookup(id)
                    };
                    match e {
                        Some(e) => SpawnAt::Entity(e),
                        None => {
                            c.push(Diagnostic::error(
                                key(path, "near"),
                                format!("unknown entity `{id}`"),
                            ));
                            return None;
                        }
                    }
                }
                (None, None) => SpawnAt::Home,
            };
            CResponse::Spawn {
                npc: proto?,
                count: *count,
                at,
                spread,
            }
        }
        Response::Remove { npc } => CResponse::Remove {
            npc: npc_ref(c, npc, &key(path, "npc"))?,
        },
        Response::Kill { npc } => CResponse::Kill {
            npc: npc_ref(c, npc, &key(path, "npc"))?,
        },
        Response::Damage { npc, amount: a } => {
            let n = npc_ref(c, npc, &key(path, "npc"));
            let a = amount(c, *a, &key(path, "amount"))?;
            CResponse::Damage { npc: n?, amount: a }
        }
        Response::Heal { npc, amount: a } => {
            let n = npc_ref(c, npc, &key(path, "npc"));
            let a = amount(c, *a, &key(path, "amount"))?;
            CResponse::Heal { npc: n?, amount: a }
        }
        Response::GiveItem { npc, item } => CResponse::GiveItem {
            npc: npc_ref(c, npc, &key(path, "npc"))?,
            item: c.intern(item),
        },
        Response::ResetTrigger { trigger } => match c.trigger(trigger) {
            Some(t) => CResponse::ResetTrigger { trigger: t },
            None => {
                c.push(Diagnostic::error(
                    key(path, "trigger"),
                    format!("unknown trigger `{trigger}`"),
                ));
                return None;
            }
        },
        Response::CompleteLevel => CResponse::CompleteLevel,
    })
}
