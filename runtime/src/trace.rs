//! Trace events: what happened, tick by tick; their JSON Lines form (`townsfolk run
//! --trace`); and where world code reports them ([`Out`]): the trace when recording, the
//! debugger's [`Probe`] when watching (which may pause the tick).

use serde_json::json;

use crate::bt::{NodeCount, Status};
use crate::expr::Env;
use crate::pack::DoorAction;
use crate::program::Program;
use crate::program::areas::area_name;
use crate::value::{EntityId, Sym, Value};
use crate::world::areas::RequestOutcome;
use crate::world::{World, WorldEnv};

/// One thing that happened in the world.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceEvent {
    /// A behavior-tree node changed status (`npc`: the NPC the tree is about, `u32::MAX` for
    /// an area's brain; `brain`: that area, `u32::MAX` otherwise).
    Status {
        tick: u64,
        npc: u32,
        brain: u32,
        tree: u32,
        node: u32,
        from: Status,
        to: Status,
    },
    /// A message was sent (NPC or area to NPC or area).
    Message {
        tick: u64,
        from: EntityId,
        to: EntityId,
        inbox: Sym,
        message: Sym,
    },
    /// A message reached its recipient's inbox (message delivery, at the end of the tick it
    /// was sent in; or a scripted message).
    Received {
        tick: u64,
        from: EntityId,
        to: EntityId,
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
    /// A request node asked for a behavior: what was asked, chosen and refused (and why).
    Request {
        tick: u64,
        npc: u32,
        outcome: Box<RequestOutcome>,
    },
    /// An NPC adopted a behavior from an area.
    Adopt {
        tick: u64,
        npc: u32,
        area: u32,
        template: Sym,
    },
    /// An NPC dropped a behavior.
    Drop {
        tick: u64,
        npc: u32,
        area: u32,
        template: Sym,
        reason: &'static str,
    },
    /// A walking NPC has no way to its target (walls, closed doors): it stands until a door
    /// changes or its target does (a `timeout` above its `move_to` ends the wait).
    Blocked {
        tick: u64,
        npc: u32,
        reason: &'static str,
    },
    /// An area's handler started or ended.
    Handler {
        tick: u64,
        area: u32,
        npc: u32,
        handler: u8,
        start: bool,
    },
    AreaCreated {
        tick: u64,
        area: u32,
    },
    AreaRemoved {
        tick: u64,
        area: u32,
    },
    /// A story event opened (`event`: library index; `day`: story day).
    EventOpen {
        tick: u64,
        event: u32,
        day: i64,
    },
    /// A story event was launched.
    EventLaunch {
        tick: u64,
        event: u32,
        day: i64,
    },
    /// A story event ended.
    EventEnd {
        tick: u64,
        event: u32,
        day: i64,
        success: bool,
    },
    /// An open story event's window closed before it was launched.
    EventExpired {
        tick: u64,
        event: u32,
        day: i64,
    },
    /// A story event can never open.
    EventDead {
        tick: u64,
        event: u32,
        day: i64,
    },
    /// Conversations (`talk`): a character starts speaking (`addressee` u32::MAX: nobody in
    /// particular); `continued` after its own unclaimed TRP; `interrupt` while another
    /// member of its group was speaking.
    SpeakStart {
        tick: u64,
        npc: u32,
        addressee: u32,
        continued: bool,
        interrupt: bool,
    },
    SpeakEnd {
        tick: u64,
        npc: u32,
    },
    /// A speaker signals that a transition-relevance point is near.
    PreTrp {
        tick: u64,
        npc: u32,
    },
    /// A speaker reaches a transition-relevance point (end of a segment).
    Trp {
        tick: u64,
        npc: u32,
    },
    /// A listener gives positive or negative feedback to the speaker `to`.
    Feedback {
        tick: u64,
        npc: u32,
        to: u32,
        positive: bool,
    },
    /// A character looks at `at` (u32::MAX: away).
    Gaze {
        tick: u64,
        npc: u32,
        at: u32,
    },
    /// A nod, gesture or posture shift.
    Gesture {
        tick: u64,
        npc: u32,
        what: crate::world::talk::Nonverbal,
    },
    /// A character enters a conversation with `with`.
    GroupJoin {
        tick: u64,
        npc: u32,
        with: u32,
    },
    /// A character is no longer in any conversation.
    GroupLeave {
        tick: u64,
        npc: u32,
    },
    /// Conversation group `group` split into `parts` groups; `npc` is one of its members.
    GroupSplit {
        tick: u64,
        npc: u32,
        group: u32,
        parts: u32,
    },
    /// `parts` groups merged into group `group`; `npc` is one of its members.
    GroupMerge {
        tick: u64,
        npc: u32,
        group: u32,
        parts: u32,
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
            | TraceEvent::Received { tick, .. }
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
            | TraceEvent::Request { tick, .. }
            | TraceEvent::Adopt { tick, .. }
            | TraceEvent::Drop { tick, .. }
            | TraceEvent::Blocked { tick, .. }
            | TraceEvent::Handler { tick, .. }
            | TraceEvent::AreaCreated { tick, .. }
            | TraceEvent::AreaRemoved { tick, .. }
            | TraceEvent::EventOpen { tick, .. }
            | TraceEvent::EventLaunch { tick, .. }
            | TraceEvent::EventEnd { tick, .. }
            | TraceEvent::EventExpired { tick, .. }
            | TraceEvent::EventDead { tick, .. }
            | TraceEvent::SpeakStart { tick, .. }
            | TraceEvent::SpeakEnd { tick, .. }
            | TraceEvent::PreTrp { tick, .. }
            | TraceEvent::Trp { tick, .. }
            | TraceEvent::Feedback { tick, .. }
            | TraceEvent::Gaze { tick, .. }
            | TraceEvent::Gesture { tick, .. }
            | TraceEvent::GroupJoin { tick, .. }
            | TraceEvent::GroupLeave { tick, .. }
            | TraceEvent::GroupSplit { tick, .. }
            | TraceEvent::GroupMerge { tick, .. }
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

fn entity(p: &Program, e: EntityId) -> String {
    match e {
        EntityId::Area(a) => area_name(p, a),
        e => p.entity_name(e).to_string(),
    }
}

fn story(p: &Program, i: u32) -> &str {
    p.events
        .events
        .get(i as usize)
        .map_or("", |e| e.id.as_str())
}

fn opt_npc(p: &Program, i: u32) -> Option<&str> {
    p.npcs.get(i as usize).map(|n| n.id.as_str())
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
            Some(w) => w.npc_name(p, i),
            None => npc(p, i).to_string(),
        }
    };
    match *ev {
        TraceEvent::Status {
            tick,
            npc: n,
            brain,
            tree,
            node,
            from,
            to,
        } => {
            let (t, id) = p.node_origin(tree, node as usize);
            if brain != u32::MAX {
                json!({"tick": tick, "kind": "status", "area": area_name(p, brain), "tree": t,
                       "node": id, "from": from.name(), "to": to.name()})
            } else {
                json!({"tick": tick, "kind": "status", "npc": npc(p, n), "tree": t, "node": id,
                       "from": from.name(), "to": to.name()})
            }
        }
        TraceEvent::Message {
            tick,
            from,
            to,
            inbox,
            message,
        } => json!({"tick": tick, "kind": "message", "from": entity(p, from), "to": entity(p, to),
                    "inbox": p.sym(inbox), "message": p.sym(message)}),
        TraceEvent::Received {
            tick,
            from,
            to,
            inbox,
            message,
        } => {
            let name = |e: EntityId| match e {
                EntityId::Npc(i) => npc(p, i),
                e => entity(p, e),
            };
            json!({"tick": tick, "kind": "received", "from": name(from), "to": name(to),
                   "inbox": p.sym(inbox), "message": p.sym(message)})
        }
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
            "npc": npc(p, n), "area": area_name(p, area)}),
        TraceEvent::Exit { tick, npc: n, area } => json!({"tick": tick, "kind": "exit",
            "npc": npc(p, n), "area": area_name(p, area)}),
        TraceEvent::ShowText { tick, text } => {
            json!({"tick": tick, "kind": "show_text", "text": p.sym(text)})
        }
        TraceEvent::Sound { tick, cue } => {
            json!({"tick": tick, "kind": "sound", "cue": p.sym(cue)})
        }
        TraceEvent::Request {
            tick,
            npc: n,
            ref outcome,
        } => {
            let refused: Vec<serde_json::Value> = outcome
                .refused
                .iter()
                .map(|r| {
                    json!({"area": area_name(p, r.area), "template": p.sym(r.template),
                                "reason": r.reason})
                })
                .collect();
            let chosen = outcome.chosen.map(|(a, t)| {
                let name = p.area_rules[crate::program::areas::proto_of(a) as usize].templates
                    [t as usize]
                    .name;
                json!({"area": area_name(p, a), "template": p.sym(name)})
            });
            let result = if chosen.is_some() {
                "adopted"
            } else if outcome.kept {
                "kept"
            } else if outcome.asked.is_none() {
                "no area"
            } else {
                "refused"
            };
            json!({"tick": tick, "kind": "request", "npc": npc(p, n), "result": result,
                   "asked": outcome.asked.map(|a| area_name(p, a)),
                   "chosen": chosen, "refused": refused})
        }
        TraceEvent::Adopt {
            tick,
            npc: n,
            area,
            template,
        } => json!({"tick": tick, "kind": "adopt", "npc": npc(p, n),
                    "area": area_name(p, area), "template": p.sym(template)}),
        TraceEvent::Drop {
            tick,
            npc: n,
            area,
            template,
            reason,
        } => json!({"tick": tick, "kind": "drop", "npc": npc(p, n),
                    "area": area_name(p, area), "template": p.sym(template),
                    "reason": reason}),
        TraceEvent::Blocked {
            tick,
            npc: n,
            reason,
        } => json!({"tick": tick, "kind": "blocked", "npc": npc(p, n), "reason": reason}),
        TraceEvent::Handler {
            tick,
            area,
            npc: n,
            handler,
            start,
        } => json!({"tick": tick, "kind": "handler", "area": area_name(p, area),
                    "handler": crate::world::areas::handler_kind(handler).name(), "npc": npc(p, n),
                    "phase": if start { "start" } else { "end" }}),
        TraceEvent::AreaCreated { tick, area } => {
            json!({"tick": tick, "kind": "area_created", "area": area_name(p, area)})
        }
        TraceEvent::AreaRemoved { tick, area } => {
            json!({"tick": tick, "kind": "area_removed", "area": area_name(p, area)})
        }
        TraceEvent::EventOpen { tick, event, day } => {
            json!({"tick": tick, "kind": "event_open", "event": story(p, event), "day": day})
        }
        TraceEvent::EventLaunch { tick, event, day } => {
            json!({"tick": tick, "kind": "event_launch", "event": story(p, event), "day": day})
        }
        TraceEvent::EventEnd {
            tick,
            event,
            day,
            success,
        } => json!({"tick": tick, "kind": "event_end", "event": story(p, event), "day": day,
                    "outcome": if success { "success" } else { "failure" }}),
        TraceEvent::EventExpired { tick, event, day } => {
            json!({"tick": tick, "kind": "event_expired", "event": story(p, event), "day": day})
        }
        TraceEvent::EventDead { tick, event, day } => {
            json!({"tick": tick, "kind": "event_dead", "event": story(p, event), "day": day})
        }
        TraceEvent::SpeakStart {
            tick,
            npc: n,
            addressee,
            continued,
            interrupt,
        } => json!({"tick": tick, "kind": "speak_start", "npc": npc(p, n),
                    "addressee": opt_npc(p, addressee), "continued": continued,
                    "interrupt": interrupt}),
        TraceEvent::SpeakEnd { tick, npc: n } => {
            json!({"tick": tick, "kind": "speak_end", "npc": npc(p, n)})
        }
        TraceEvent::PreTrp { tick, npc: n } => {
            json!({"tick": tick, "kind": "pre_trp", "npc": npc(p, n)})
        }
        TraceEvent::Trp { tick, npc: n } => json!({"tick": tick, "kind": "trp", "npc": npc(p, n)}),
        TraceEvent::Feedback {
            tick,
            npc: n,
            to,
            positive,
        } => json!({"tick": tick, "kind": "feedback", "npc": npc(p, n), "to": npc(p, to),
                    "positive": positive}),
        TraceEvent::Gaze { tick, npc: n, at } => {
            json!({"tick": tick, "kind": "gaze", "npc": npc(p, n), "at": opt_npc(p, at)})
        }
        TraceEvent::Gesture { tick, npc: n, what } => {
            json!({"tick": tick, "kind": "gesture", "npc": npc(p, n), "what": what.name()})
        }
        TraceEvent::GroupJoin { tick, npc: n, with } => {
            json!({"tick": tick, "kind": "group_join", "npc": npc(p, n), "with": npc(p, with)})
        }
        TraceEvent::GroupLeave { tick, npc: n } => {
            json!({"tick": tick, "kind": "group_leave", "npc": npc(p, n)})
        }
        TraceEvent::GroupSplit {
            tick,
            npc: n,
            group,
            parts,
        } => json!({"tick": tick, "kind": "group_split", "npc": npc(p, n), "group": group,
                    "parts": parts}),
        TraceEvent::GroupMerge {
            tick,
            npc: n,
            group,
            parts,
        } => json!({"tick": tick, "kind": "group_merge", "npc": npc(p, n), "group": group,
                    "parts": parts}),
        TraceEvent::Trigger {
            tick,
            trigger,
            picked,
        } => trigger_json(p, tick, trigger, picked),
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

/// The JSON of a `trigger` trace event: the trigger and the responses it ran.
fn trigger_json(p: &Program, tick: u64, trigger: u32, picked: u32) -> serde_json::Value {
    let t = p.triggers.triggers.get(trigger as usize);
    let responses: Vec<&str> = match t {
        Some(t) if picked == u32::MAX => t.response_names.clone(),
        Some(t) => t
            .response_names
            .get(picked as usize)
            .copied()
            .into_iter()
            .collect(),
        None => Vec::new(),
    };
    json!({"tick": tick, "kind": "trigger", "trigger": p.triggers.trigger_id(trigger),
           "responses": responses})
}

/// Something that happened inside a tick, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DebugEvent<'a> {
    /// An NPC's tree is about to tick.
    NpcStart { npc: u32 },
    /// A node is about to be ticked (`tree`: the compiled tree being ticked, `node`: its
    /// index; `npc`: the NPC the tree is about, `u32::MAX` for an area's brain). `was`: its
    /// status before this visit (Running: it goes on; anything else: it starts). `depth`:
    /// its depth in what the actor runs — a behavior adopted under a request node at depth
    /// `d` has its root at `d + 1`, so it is inside that node.
    Enter {
        npc: u32,
        tree: u32,
        node: u32,
        was: Status,
        depth: u16,
    },
    /// A node returned (`from` = its previous status; may equal `to`).
    Result {
        npc: u32,
        tree: u32,
        node: u32,
        from: Status,
        to: Status,
        depth: u16,
    },
    /// A blackboard variable of an NPC changed value.
    VarChanged {
        npc: u32,
        slot: u32,
        old: Value,
        new: Value,
    },
    /// Anything that also goes to the trace (messages, flags, counters, areas entered, …).
    Trace(&'a TraceEvent),
}

/// Whose code runs while a probe sees events (see [`Probe::scope`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// An NPC's own tree and the behaviors it adopted (grafted under its request nodes).
    Npc(u32),
    /// An area's handler tree, run about an NPC.
    Handler { area: u32, npc: u32 },
    /// An area's brain tree.
    Brain { area: u32 },
    /// A world trigger firing (its responses).
    Trigger { trigger: u32 },
}

/// Watches a tick. Returning true pauses the simulation right after the event.
pub trait Probe {
    /// `env` evaluates expressions for the NPC the event concerns, when there is one.
    fn event(&mut self, ev: &DebugEvent<'_>, env: Option<&dyn Env>) -> bool;
    /// The code of `actor` starts running (`Some`) or the running one ends (`None`): the
    /// events in between are its. Scopes do not nest.
    fn scope(&mut self, actor: Option<Actor>) {
        let _ = actor;
    }
}

/// Where world-level code (movement, responses, later runtimes) reports what happens: the
/// trace, when recording, and the debugger's probe, when watching (which may ask to pause).
pub struct Out<'a, 'p> {
    pub trace: Option<&'a mut Vec<TraceEvent>>,
    pub probe: Option<&'a mut (dyn Probe + 'p)>,
    /// Coverage counters, when the session counts (see [`Counters`]).
    pub counts: Option<Counting<'a>>,
    /// Set when the probe asked to pause.
    pub stop: bool,
}

impl Out<'_, '_> {
    /// Tells the probe whose code runs now (see [`Probe::scope`]).
    pub fn scope(&mut self, actor: Option<Actor>) {
        if let Some(probe) = self.probe.as_deref_mut() {
            probe.scope(actor);
        }
    }
    /// Reports an event; `npc` is the NPC it concerns (for breakpoint conditions).
    pub fn emit(&mut self, p: &Program, w: &World, npc: Option<u32>, ev: TraceEvent) {
        if self.stop {
            return;
        }
        if let Some(probe) = self.probe.as_deref_mut() {
            let env = npc.map(|npc| WorldEnv {
                program: p,
                world: w,
                npc,
            });
            if probe.event(&DebugEvent::Trace(&ev), env.as_ref().map(|e| e as &dyn Env)) {
                self.stop = true;
            }
        }
        keep(self.trace.as_deref_mut(), self.counts.as_mut(), ev);
    }
}

/// Hands a reported event to the trace (when recording) and to the counters (when counting
/// and coverage counts its kind), moving it into whichever needs it last.
pub(crate) fn keep(
    trace: Option<&mut Vec<TraceEvent>>,
    counts: Option<&mut Counting<'_>>,
    ev: TraceEvent,
) {
    match (trace, counts) {
        (None, None) => {}
        (Some(t), None) => t.push(ev),
        (None, Some(c)) => c.event(ev),
        (Some(t), Some(c)) => {
            if Counters::counts(&ev) {
                c.events.push(ev.clone());
            }
            t.push(ev);
        }
    }
}

/// Coverage counters, filled while a session counts (`Session::set_counting`; what
/// `tools::coverage` plays seeds with). Node visits and results are counted by the tick
/// engine itself (`bt::tick_tree_counted`) into one [`NodeCount`] per compiled node, with no
/// call to the host, no dynamic call and no trace event built; the few trace events coverage
/// counts (requests, adoptions, triggers fired, story events, areas entered and left) are kept aside
/// in [`Counters::events`], in the order they happened, for the counting tool to take.
/// Counting never changes the world.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counters {
    nodes: NodeCounters,
    /// The counted trace events not taken yet (see [`Counters::counts`]).
    pub events: Vec<TraceEvent>,
}

/// One [`NodeCount`] per node of every compiled tree of a program, by compiled tree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeCounters {
    trees: Vec<Vec<NodeCount>>,
}

impl NodeCounters {
    /// The counters of compiled tree `tree`'s nodes, in node order (empty for no such tree).
    #[inline]
    pub fn tree(&self, tree: u32) -> &[NodeCount] {
        self.trees.get(tree as usize).map_or(&[], |t| t.as_slice())
    }
}

/// A session's [`Counters`] as world code holds them while a tick runs (in [`Out`] and the
/// tree hosts): the node counters shared with the tick engine, the events to add to.
pub struct Counting<'a> {
    pub nodes: &'a NodeCounters,
    pub events: &'a mut Vec<TraceEvent>,
}

impl Counting<'_> {
    /// The same counters, for a shorter borrow (handed to nested world code).
    pub fn reborrow(&mut self) -> Counting<'_> {
        Counting {
            nodes: self.nodes,
            events: &mut *self.events,
        }
    }
    /// Keeps a reported event when coverage counts its kind.
    pub fn event(&mut self, ev: TraceEvent) {
        if Counters::counts(&ev) {
            self.events.push(ev);
        }
    }
}

impl Counters {
    /// Zeroed counters for every node of `p`'s compiled trees, and no events.
    pub fn new(p: &Program) -> Counters {
        Counters {
            nodes: NodeCounters {
                trees: p
                    .trees
                    .iter()
                    .map(|t| vec![NodeCount::default(); t.nodes.len()])
                    .collect(),
            },
            events: Vec::new(),
        }
    }
    /// The counters of compiled tree `tree`'s nodes, in node order (empty for no such tree).
    pub fn tree(&self, tree: u32) -> &[NodeCount] {
        self.nodes.tree(tree)
    }
    /// The counters as a tick holds them.
    pub fn counting(&mut self) -> Counting<'_> {
        Counting {
            nodes: &self.nodes,
            events: &mut self.events,
        }
    }
    /// Whether coverage counts events of this kind (the others are not kept): requests,
    /// adoptions, triggers fired, story events launched and ended, areas entered and left.
    pub fn counts(ev: &TraceEvent) -> bool {
        matches!(
            ev,
            TraceEvent::Request { .. }
                | TraceEvent::Adopt { .. }
                | TraceEvent::Trigger { .. }
                | TraceEvent::EventLaunch { .. }
                | TraceEvent::EventEnd { .. }
                | TraceEvent::EventExpired { .. }
                | TraceEvent::EventDead { .. }
                | TraceEvent::Enter { .. }
                | TraceEvent::Exit { .. }
        )
    }
}
