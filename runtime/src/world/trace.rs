//! Trace events: what happened, tick by tick, written as JSON Lines by `townsfolk run --trace`.

use serde_json::json;

use super::{Program, World};
use crate::bt::Status;
use crate::pack::DoorAction;
use crate::value::Sym;

/// One thing that happened in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TraceEvent {
    /// A behavior-tree node changed status.
    Status {
        tick: u64,
        npc: u32,
        tree: u32,
        node: u32,
        from: Status,
        to: Status,
    },
    /// An NPC sent a message.
    Message {
        tick: u64,
        from: u32,
        to: u32,
        inbox: Sym,
        message: Sym,
    },
    Flag {
        tick: u64,
        name: u32,
        value: bool,
    },
    Counter {
        tick: u64,
        name: u32,
        value: i64,
    },
    Say {
        tick: u64,
        npc: u32,
        text: Sym,
    },
    Animate {
        tick: u64,
        npc: u32,
        animation: Sym,
    },
    Log {
        tick: u64,
        npc: u32,
        text: Sym,
    },
    /// A tree exceeded its visit budget within one tick and was cut off.
    Runaway {
        tick: u64,
        npc: u32,
        tree: u32,
        node: u32,
    },
    /// An NPC walked into an area.
    Enter {
        tick: u64,
        npc: u32,
        area: u32,
    },
    /// An NPC walked out of an area.
    Exit {
        tick: u64,
        npc: u32,
        area: u32,
    },
    /// A response showed a line of text in the preview.
    ShowText {
        tick: u64,
        text: Sym,
    },
    /// A response played a sound cue.
    Sound {
        tick: u64,
        cue: Sym,
    },
    /// A trigger fired (`picked`: the response it picked at random, or `u32::MAX` = all).
    Trigger {
        tick: u64,
        trigger: u32,
        picked: u32,
    },
    /// A trigger was reset and became true again in the tick it already fired in: the
    /// reset loop was cut off.
    TriggerLoop {
        tick: u64,
        trigger: u32,
    },
    /// A door (world object) was opened, closed, locked or unlocked.
    Door {
        tick: u64,
        object: u32,
        action: DoorAction,
    },
    /// A world object's free-form state changed.
    ObjectState {
        tick: u64,
        object: u32,
        state: Sym,
    },
    /// An NPC was spawned (a copy of a prototype).
    Spawn {
        tick: u64,
        npc: u32,
    },
    /// An NPC was removed from the world.
    Remove {
        tick: u64,
        npc: u32,
    },
    /// An NPC's health changed.
    Health {
        tick: u64,
        npc: u32,
        health: f64,
    },
    /// An NPC died (`by`: the NPC that killed it, `u32::MAX` = nobody).
    Died {
        tick: u64,
        npc: u32,
        by: u32,
    },
    /// An NPC was given an item.
    Item {
        tick: u64,
        npc: u32,
        item: Sym,
    },
    /// A response completed the level.
    LevelComplete {
        tick: u64,
    },
}

impl TraceEvent {
    pub fn tick(&self) -> u64 {
        match *self {
            TraceEvent::Status { tick, .. }
            | TraceEvent::Message { tick, .. }
            | TraceEvent::Flag { tick, .. }
            | TraceEvent::Counter { tick, .. }
            | TraceEvent::Say { tick, .. }
            | TraceEvent::Animate { tick, .. }
            | TraceEvent::Log { tick, .. }
            | TraceEvent::Runaway { tick, .. }
            | TraceEvent::Enter { tick, .. }
            | TraceEvent::Exit { tick, .. }
            | TraceEvent::ShowText { tick, .. }
            | TraceEvent::Sound { tick, .. }
            | TraceEvent::Trigger { tick, .. }
            | TraceEvent::TriggerLoop { tick, .. }
            | TraceEvent::Door { tick, .. }
            | TraceEvent::ObjectState { tick, .. }
            | TraceEvent::Spawn { tick, .. }
            | TraceEvent::Remove { tick, .. }
            | TraceEvent::Health { tick, .. }
            | TraceEvent::Died { tick, .. }
            | TraceEvent::Item { tick, .. }
            | TraceEvent::LevelComplete { tick } => tick,
        }
    }
}

fn npc(p: &Program, i: u32) -> &str {
    p.npcs.get(i as usize).map_or("", |n| n.id.as_str())
}

/// One trace event as a JSON object. NPCs spawned at run time are named only by
/// [`trace_value_in`], which knows the world.
pub fn trace_value(p: &Program, ev: &TraceEvent) -> serde_json::Value {
    trace_value_in(p, None, ev)
}

/// One trace event as a JSON object, naming spawned NPCs (`rat#3`) from the world.
pub fn trace_value_in(p: &Program, w: Option<&World>, ev: &TraceEvent) -> serde_json::Value {
    // Shadows the plain helper so that every arm names spawned NPCs too.
    let npc = |p: &Program, i: u32| -> String {
        match w {
            Some(w) => crate::triggers::npc_name(p, w, i),
            None => npc(p, i).to_string(),
        }
    };
    match *ev {
        TraceEvent::Status {
            tick,
            npc: n,
            tree,
            node,
            from,
            to,
        } => {
            let (t, id) = p.node_origin(tree, node as usize);
            json!({"tick": tick, "kind": "status", "npc": npc(p, n), "tree": t, "node": id,
                   "from": from.name(), "to": to.name()})
        }
        TraceEvent::Message {
            tick,
            from,
            to,
            inbox,
            message,
        } => json!({"tick": tick, "kind": "message", "from": npc(p, from), "to": npc(p, to),
                    "inbox": p.sym(inbox), "message": p.sym(message)}),
        TraceEvent::Flag { tick, name, value } => json!({"tick": tick, "kind": "flag",
            "name": p.flags.names.get(name as usize), "value": value}),
        TraceEvent::Counter { tick, name, value } => json!({"tick": tick, "kind": "counter",
            "name": p.counters.names.get(name as usize), "value": value}),
        TraceEvent::Say { tick, npc: n, text } => {
            json!({"tick": tick, "kind": "say", "npc": npc(p, n), "text": p.sym(text)})
        }
        TraceEvent::Animate {
            tick,
            npc: n,
            animation,
        } => json!({"tick": tick, "kind": "animate", "npc": npc(p, n),
                    "animation": p.sym(animation)}),
        TraceEvent::Log { tick, npc: n, text } => {
            json!({"tick": tick, "kind": "log", "npc": npc(p, n), "text": p.sym(text)})
        }
        TraceEvent::Runaway {
            tick,
            npc: n,
            tree,
            node,
        } => {
            let (t, id) = p.node_origin(tree, node as usize);
            json!({"tick": tick, "kind": "runaway", "npc": npc(p, n), "tree": t, "node": id})
        }
        TraceEvent::Enter { tick, npc: n, area } => json!({"tick": tick, "kind": "enter",
            "npc": npc(p, n), "area": p.areas.get(area as usize).map(|a| a.id.as_str())}),
        TraceEvent::Exit { tick, npc: n, area } => json!({"tick": tick, "kind": "exit",
            "npc": npc(p, n), "area": p.areas.get(area as usize).map(|a| a.id.as_str())}),
        TraceEvent::ShowText { tick, text } => {
            json!({"tick": tick, "kind": "show_text", "text": p.sym(text)})
        }
        TraceEvent::Sound { tick, cue } => {
            json!({"tick": tick, "kind": "sound", "cue": p.sym(cue)})
        }
        TraceEvent::Trigger {
            tick,
            trigger,
            picked,
        } => crate::triggers::trace_json(p, tick, trigger, picked),
        TraceEvent::TriggerLoop { tick, trigger } => json!({"tick": tick, "kind": "trigger_loop",
            "trigger": p.triggers.trigger_id(trigger)}),
        TraceEvent::Door {
            tick,
            object,
            action,
        } => json!({"tick": tick, "kind": "door",
            "object": p.objects.get(object as usize).map(|o| o.id.as_str()),
            "action": action.name()}),
        TraceEvent::ObjectState {
            tick,
            object,
            state,
        } => json!({"tick": tick, "kind": "object_state",
            "object": p.objects.get(object as usize).map(|o| o.id.as_str()),
            "state": p.sym(state)}),
        TraceEvent::Spawn { tick, npc: n } => {
            json!({"tick": tick, "kind": "spawn", "npc": npc(p, n)})
        }
        TraceEvent::Remove { tick, npc: n } => {
            json!({"tick": tick, "kind": "remove", "npc": npc(p, n)})
        }
        TraceEvent::Health {
            tick,
            npc: n,
            health,
        } => json!({"tick": tick, "kind": "health", "npc": npc(p, n), "health": health}),
        TraceEvent::Died { tick, npc: n, by } => json!({"tick": tick, "kind": "died",
            "npc": npc(p, n), "by": (by != u32::MAX).then(|| npc(p, by))}),
        TraceEvent::Item { tick, npc: n, item } => {
            json!({"tick": tick, "kind": "item", "npc": npc(p, n), "item": p.sym(item)})
        }
        TraceEvent::LevelComplete { tick } => json!({"tick": tick, "kind": "level_complete"}),
    }
}

pub(super) fn to_json(p: &Program, w: &World, ev: &TraceEvent) -> String {
    trace_value_in(p, Some(w), ev).to_string()
}
