//! Breakpoints: compiled from their saved definitions, matched against debug events.

use crate::bt::Status;
use crate::expr::{Env, Expr, Resolver, Scope};
use crate::pack::{BreakOn, BreakpointDef, NodeWhen};
use crate::value::{EntityId, Sym, Type};
use crate::world::{DebugEvent, Program, TraceEvent};

/// A breakpoint definition that could not be compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakpointError {
    /// The field at fault (`tree`, `node`, `var`, `condition`, `npc`, …).
    pub field: &'static str,
    /// Character offset inside an expression, for `condition`.
    pub offset: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for BreakpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.offset {
            Some(o) => write!(f, "{} (column {}): {}", self.field, o + 1, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

/// What a compiled breakpoint watches, with ids resolved.
#[derive(Clone, Debug)]
pub(crate) enum Watch {
    Node {
        tree: u32,
        node: Sym,
        when: NodeWhen,
    },
    Condition,
    Blackboard(u32),
    Flag(u32),
    Counter(u32),
    Event,
}

/// A breakpoint ready to match events.
#[derive(Clone, Debug)]
pub struct Breakpoint {
    pub def: BreakpointDef,
    /// Times it has stopped the simulation.
    pub hits: u64,
    pub(crate) watch: Watch,
    pub(crate) npc: Option<u32>,
    pub(crate) cond: Option<Expr>,
    /// For `on: condition`: the condition's value at its last check, per NPC.
    pub(crate) last: Vec<bool>,
    /// `last` as it was at the start of the current tick (to re-run the tick).
    pub(crate) start: Vec<bool>,
}

/// Resolves names against a built program without adding to it.
struct ReadOnly<'a>(&'a Program);

impl Resolver for ReadOnly<'_> {
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        let s = match scope {
            Scope::Blackboard => &self.0.blackboard,
            Scope::Area => &self.0.area_vars,
            Scope::Flag => &self.0.flags,
            Scope::Counter => &self.0.counters,
        };
        s.get(name).map(|i| (i, s.types[i as usize]))
    }
    fn intern(&mut self, s: &str) -> Sym {
        // A string no variable can hold compares unequal to everything.
        self.0.find_sym(s).unwrap_or(Sym(u32::MAX))
    }
    fn entity(&mut self, id: &str) -> Option<EntityId> {
        self.0.entity(id)
    }
}

impl Breakpoint {
    /// Compiles a definition against a program.
    pub fn compile(p: &Program, def: &BreakpointDef) -> Result<Breakpoint, BreakpointError> {
        let err = |field, message: String| BreakpointError {
            field,
            offset: None,
            message,
        };
        let npc = match &def.npc {
            Some(id) => Some(
                p.npc_index(id)
                    .ok_or_else(|| err("npc", format!("unknown NPC `{id}`")))?,
            ),
            None => None,
        };
        let cond = match &def.condition {
            Some(src) => Some(
                Expr::compile_typed(src, Type::Bool, &mut ReadOnly(p)).map_err(|e| {
                    BreakpointError {
                        field: "condition",
                        offset: Some(e.offset),
                        message: format!("in `{src}`: {}", e.message),
                    }
                })?,
            ),
            None => None,
        };
        let watch = match &def.on {
            BreakOn::Node { tree, node, when } => {
                let ti = p
                    .tree_index(tree)
                    .ok_or_else(|| err("tree", format!("unknown tree `{tree}`")))?;
                let sym = p.find_sym(node).filter(|&s| {
                    p.trees.iter().any(|t| {
                        t.nodes
                            .iter()
                            .any(|n| n.origin_tree == ti && n.origin_id == s)
                    })
                });
                let Some(sym) = sym else {
                    return Err(err(
                        "node",
                        format!("tree `{tree}` has no (enabled) node `{node}`"),
                    ));
                };
                Watch::Node {
                    tree: ti,
                    node: sym,
                    when: *when,
                }
            }
            BreakOn::Condition => {
                if cond.is_none() {
                    return Err(err(
                        "condition",
                        "a condition breakpoint needs a `condition` expression".into(),
                    ));
                }
                Watch::Condition
            }
            BreakOn::Data { var } => {
                if let Some(name) = var.strip_prefix("flags.").or(var.strip_prefix("flag.")) {
                    Watch::Flag(
                        p.flags
                            .get(name)
                            .ok_or_else(|| err("var", format!("unknown flag `{name}`")))?,
                    )
                } else if let Some(name) = var
                    .strip_prefix("counters.")
                    .or(var.strip_prefix("counter."))
                {
                    Watch::Counter(
                        p.counters
                            .get(name)
                            .ok_or_else(|| err("var", format!("unknown counter `{name}`")))?,
                    )
                } else {
                    Watch::Blackboard(p.blackboard.get(var).ok_or_else(|| {
                        err(
                            "var",
                            format!("unknown variable `{var}` (use flags.NAME or counters.NAME for world values)"),
                        )
                    })?)
                }
            }
            BreakOn::Event { kind, .. } => {
                if kind.is_empty() {
                    return Err(err(
                        "kind",
                        "an event breakpoint needs a trace `kind`".into(),
                    ));
                }
                Watch::Event
            }
        };
        Ok(Breakpoint {
            def: def.clone(),
            hits: 0,
            watch,
            npc,
            cond,
            last: vec![false; p.npcs.len()],
            start: vec![false; p.npcs.len()],
        })
    }

    pub fn id(&self) -> u32 {
        self.def.id
    }

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
                    DebugEvent::Enter { tree, node, .. } if *when == NodeWhen::Enter => {
                        (tree, node, "entered".to_string())
                    }
                    DebugEvent::Result {
                        tree,
                        node,
                        from,
                        to,
                        ..
                    } => {
                        let hit = match when {
                            NodeWhen::Enter => false,
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
                Some(format!(
                    "node `{id}` of tree `{t}` {what} for {}",
                    p.entity_name(EntityId::Npc(npc.unwrap_or(u32::MAX)))
                ))
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
                let v = crate::world::trace_value(p, t);
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
            TraceEvent::Message { from, to, .. } => match (from, to) {
                (EntityId::Npc(n), _) | (_, EntityId::Npc(n)) => Some(n),
                _ => None,
            },
            TraceEvent::Request { npc, .. }
            | TraceEvent::Adopt { npc, .. }
            | TraceEvent::Drop { npc, .. }
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

/// A value as people read it, strings and entities by name.
pub fn show(p: &Program, v: crate::value::Value) -> String {
    use crate::value::Value;
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f}"),
        Value::Str(s) => format!("{:?}", p.sym(s)),
        Value::Vec2(v) => format!("({}, {})", v.x, v.y),
        Value::Entity(EntityId::None) => "none".into(),
        Value::Entity(e) => p.entity_name(e).to_string(),
    }
}
