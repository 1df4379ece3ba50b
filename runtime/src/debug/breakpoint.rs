//! Breakpoints matched against debug events (compiled by `program::breakpoints`).

use crate::bt::Status;
use crate::expr::Env;
use crate::pack::{BreakOn, NodeWhen};
use crate::program::Program;
use crate::program::breakpoints::Watch;
pub use crate::program::breakpoints::{Breakpoint, BreakpointError};
pub use crate::program::show_value as show;
use crate::trace::{Actor, DebugEvent, TraceEvent};
use crate::value::EntityId;

impl Breakpoint {
    /// Whether the extra condition (if any) holds for the event's NPC.
    fn cond_ok(&self, env: Option<&dyn Env>) -> bool {
        match (&self.cond, env) {
            (None, _) => true,
            (Some(c), Some(env)) => c.eval_bool(env),
            (Some(_), None) => false,
        }
    }

    fn npc_ok(&self, npc: Option<u32>) -> bool {
        match self.npc {
            None => true,
            Some(n) => npc == Some(n),
        }
    }

    /// Re-reads the watched condition's value for an NPC (after jumping in time).
    pub(crate) fn reset_edge(&mut self, npc: usize, env: &dyn Env) {
        if let (Watch::Condition, Some(c)) = (&self.watch, &self.cond)
            && let Some(l) = self.last.get_mut(npc)
        {
            *l = c.eval_bool(env);
        }
    }

    /// Whether this event hits the breakpoint; if so, a sentence saying why. Also keeps the
    /// edge state of condition breakpoints up to date (call it for every event, hit or not).
    pub(crate) fn check(
        &mut self,
        p: &Program,
        ev: &DebugEvent<'_>,
        env: Option<&dyn Env>,
        actor: Option<Actor>,
    ) -> Option<String> {
        let npc = event_npc(ev);
        match &self.watch {
            Watch::Condition => {
                // Checked before an NPC's tree ticks and after each node it runs.
                let (DebugEvent::NpcStart { npc } | DebugEvent::Result { npc, .. }) = *ev else {
                    return None;
                };
                let (Some(c), Some(env)) = (&self.cond, env) else {
                    return None;
                };
                let now = c.eval_bool(env);
                let slot = self.last.get_mut(npc as usize)?;
                let was = std::mem::replace(slot, now);
                if !now || was || !self.npc_ok(Some(npc)) || !self.def.enabled {
                    return None;
                }
                let at = match *ev {
                    DebugEvent::Result { tree, node, .. } => {
                        format!(" after node `{}`", p.node_origin(tree, node as usize).1)
                    }
                    _ => " before its tree ticked".into(),
                };
                Some(format!(
                    "`{}` became true for {}{at}",
                    c.source(),
                    p.entity_name(EntityId::Npc(npc))
                ))
            }
            _ if !self.def.enabled || !self.npc_ok(npc) => None,
            Watch::Node { tree, node, when } => {
                let (etree, enode, what) = match *ev {
                    // `enter`: the node starts (it was not running: idle, or finished).
                    DebugEvent::Enter {
                        tree, node, was, ..
                    } if *when == NodeWhen::Enter && was != Status::Running => {
                        (tree, node, "entered".to_string())
                    }
                    DebugEvent::Enter { tree, node, .. } if *when == NodeWhen::Tick => {
                        (tree, node, "ticked".to_string())
                    }
                    DebugEvent::Result {
                        tree,
                        node,
                        from,
                        to,
                        ..
                    } => {
                        let hit = match when {
                            NodeWhen::Enter | NodeWhen::Tick => false,
                            NodeWhen::Success => to == Status::Success,
                            NodeWhen::Failure => to == Status::Failure,
                            NodeWhen::Running => to == Status::Running,
                            NodeWhen::Change => from != to,
                        };
                        if !hit {
                            return None;
                        }
                        (
                            tree,
                            node,
                            format!("returned {} (was {})", to.name(), from.name()),
                        )
                    }
                    _ => return None,
                };
                let n = p.trees.get(etree as usize)?.nodes.get(enode as usize)?;
                if n.origin_tree != *tree || n.origin_id != *node || !self.cond_ok(env) {
                    return None;
                }
                let (t, id) = p.node_origin(etree, enode as usize);
                let who = match actor {
                    Some(a) => actor_name(p, a),
                    None => p
                        .entity_name(EntityId::Npc(npc.unwrap_or(u32::MAX)))
                        .to_string(),
                };
                Some(format!("node `{id}` of tree `{t}` {what} for {who}"))
            }
            Watch::Blackboard(slot) => match *ev {
                DebugEvent::VarChanged {
                    npc,
                    slot: s,
                    old,
                    new,
                    ..
                } if s == *slot && self.cond_ok(env) => Some(format!(
                    "`{}` of {} changed {} → {}",
                    p.blackboard.names[s as usize],
                    p.entity_name(EntityId::Npc(npc)),
                    show(p, old),
                    show(p, new)
                )),
                _ => None,
            },
            Watch::Flag(slot) => match *ev {
                DebugEvent::Trace(TraceEvent::Flag { name, value, .. })
                    if name == slot && self.cond_ok(env) =>
                {
                    Some(format!(
                        "flags.{} changed {} → {}",
                        p.flags.names[*name as usize], !value, value
                    ))
                }
                _ => None,
            },
            Watch::Counter(slot) => match *ev {
                DebugEvent::Trace(TraceEvent::Counter { name, value, .. })
                    if name == slot && self.cond_ok(env) =>
                {
                    Some(format!(
                        "counters.{} changed to {}",
                        p.counters.names[*name as usize], value
                    ))
                }
                _ => None,
            },
            Watch::Event => {
                let DebugEvent::Trace(t) = ev else {
                    return None;
                };
                let BreakOn::Event { kind, filter } = &self.def.on else {
                    return None;
                };
                let v = crate::trace::trace_value(p, t);
                if v.get("kind").and_then(|k| k.as_str()) != Some(kind.as_str()) {
                    return None;
                }
                for (field, want) in filter {
                    let got = match v.get(field) {
                        Some(serde_json::Value::String(s)) => s.clone(),
                        Some(other) => other.to_string(),
                        None => return None,
                    };
                    if &got != want {
                        return None;
                    }
                }
                if !self.cond_ok(env) {
                    return None;
                }
                Some(format!("event {v}"))
            }
        }
    }
}

/// Who ran something, in words: `bo`, `bo (on_enter handler of pub_red)`, `area pub_red`,
/// `trigger alarm`.
pub fn actor_name(p: &Program, a: Actor) -> String {
    use crate::world::areas::area_name;
    match a {
        Actor::Npc(n) => p.entity_name(EntityId::Npc(n)).to_string(),
        Actor::Handler { area, npc } => format!(
            "{} (handler of {})",
            p.entity_name(EntityId::Npc(npc)),
            area_name(p, area)
        ),
        Actor::Brain { area } => format!("area {}", area_name(p, area)),
        Actor::Trigger { trigger } => format!("trigger {}", p.triggers.trigger_id(trigger)),
    }
}

/// The NPC an event concerns, if any.
pub(crate) fn event_npc(ev: &DebugEvent<'_>) -> Option<u32> {
    match *ev {
        DebugEvent::NpcStart { npc }
        | DebugEvent::Enter { npc, .. }
        | DebugEvent::Result { npc, .. }
        | DebugEvent::VarChanged { npc, .. } => Some(npc),
        DebugEvent::Trace(t) => match *t {
            TraceEvent::Status { npc, .. }
            | TraceEvent::Say { npc, .. }
            | TraceEvent::Animate { npc, .. }
            | TraceEvent::Log { npc, .. }
            | TraceEvent::Runaway { npc, .. }
            | TraceEvent::Enter { npc, .. }
            | TraceEvent::Exit { npc, .. } => Some(npc),
            TraceEvent::Spawn { npc, .. }
            | TraceEvent::Remove { npc, .. }
            | TraceEvent::Health { npc, .. }
            | TraceEvent::Died { npc, .. }
            | TraceEvent::Item { npc, .. } => Some(npc),
            TraceEvent::SpeakStart { npc, .. }
            | TraceEvent::SpeakEnd { npc, .. }
            | TraceEvent::PreTrp { npc, .. }
            | TraceEvent::Trp { npc, .. }
            | TraceEvent::Feedback { npc, .. }
            | TraceEvent::Gaze { npc, .. }
            | TraceEvent::Gesture { npc, .. }
            | TraceEvent::GroupJoin { npc, .. }
            | TraceEvent::GroupLeave { npc, .. }
            | TraceEvent::GroupSplit { npc, .. }
            | TraceEvent::GroupMerge { npc, .. } => Some(npc),
            TraceEvent::Received { from, to, .. } => match (to, from) {
                (EntityId::Npc(n), _) | (_, EntityId::Npc(n)) => Some(n),
                _ => None,
            },
            TraceEvent::Message { from, to, .. } => match (from, to) {
                (EntityId::Npc(n), _) | (_, EntityId::Npc(n)) => Some(n),
                _ => None,
            },
            TraceEvent::Request { npc, .. }
            | TraceEvent::Adopt { npc, .. }
            | TraceEvent::Drop { npc, .. }
            | TraceEvent::Blocked { npc, .. }
            | TraceEvent::Handler { npc, .. } => Some(npc),
            TraceEvent::AreaCreated { .. } | TraceEvent::AreaRemoved { .. } => None,
            TraceEvent::Flag { .. }
            | TraceEvent::Counter { .. }
            | TraceEvent::ShowText { .. }
            | TraceEvent::Sound { .. }
            | TraceEvent::EventOpen { .. }
            | TraceEvent::EventLaunch { .. }
            | TraceEvent::EventEnd { .. }
            | TraceEvent::EventExpired { .. }
            | TraceEvent::EventDead { .. }
            | TraceEvent::Trigger { .. }
            | TraceEvent::TriggerLoop { .. }
            | TraceEvent::Door { .. }
            | TraceEvent::ObjectState { .. }
            | TraceEvent::LevelComplete { .. } => None,
        },
    }
}
