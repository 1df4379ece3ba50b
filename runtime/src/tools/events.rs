//! Scripted tracker sessions (`townsfolk events PACK --scenario ID --script FILE`): one JSON
//! op per line in, one JSON state line out. Nothing is launched or ended unless the script
//! says so (no executor); ending an event applies its effects, so flags its successors'
//! preconditions read change as they would in the world.

use std::sync::Arc;

use serde_json::{Value as Json, json};

use crate::program::Program;
use crate::program::tracker::NodeState;
use crate::session::Session;
use crate::systems::effects::story as exec;
use crate::tools::LineError;
use crate::trace::Out;
use crate::world::World;
use crate::world::story::{Story, available};

impl crate::tools::LineTool for ScriptSession {
    const NOT_JSON: &'static str = "invalid JSON";
    const EXPECTED: &'static str =
        "a script line is a JSON object such as {\"op\":\"advance\",\"days\":1}";
    /// The state before the first op.
    fn start(&mut self) -> Option<Json> {
        Some(self.state())
    }
    fn reply(&mut self, obj: &serde_json::Map<String, Json>) -> Result<Json, LineError> {
        self.op(obj)?;
        Ok(self.state())
    }
}

/// A scripted session over one scenario.
pub struct ScriptSession {
    program: Arc<Program>,
    world: World,
}

impl ScriptSession {
    /// A session at the scenario's start date (nodes due on it are open).
    pub fn new(program: Arc<Program>, scenario: u32) -> Option<ScriptSession> {
        let mut world = Session::new(program.clone(), 0).world().clone();
        world.story = Some(Story::new(&program, scenario)?);
        let mut s = ScriptSession { program, world };
        s.advance(0);
        Some(s)
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    fn advance(&mut self, days: i64) {
        let p = &*self.program;
        let Some(day) = self.world.story.as_ref().map(|s| s.tracker.date() + days) else {
            return;
        };
        let mut out = Out {
            trace: None,
            probe: None,
            counts: None,
            stop: false,
        };
        exec::advance_to(p, &mut self.world, day, &mut out);
    }

    /// Runs one script line (as line 1 of a script). Blank lines and `#` comments give None;
    /// everything else gives the state line, or the located refusal `{"ok": false, "error",
    /// "line", "column", "expected"}` (and changes nothing).
    pub fn line(&mut self, line: &str) -> Option<String> {
        crate::tools::handle(self, 1, line).map(|r| r.unwrap_or_else(|fault| fault).to_string())
    }

    fn op(&mut self, o: &serde_json::Map<String, Json>) -> Result<(), LineError> {
        const OPS: &str = "advance, launch, end or set";
        let op = match o.get("op") {
            None => return Err(LineError::missing("op", OPS)),
            Some(Json::String(s)) => s.as_str(),
            Some(_) => return Err(LineError::field("op", format!("a string: {OPS}"))),
        };
        let fields: &[&str] = match op {
            "advance" => &["op", "days"],
            "launch" => &["op", "event"],
            "end" => &["op", "event", "outcome"],
            "set" => &["op", "flag", "counter", "value"],
            _ => &[],
        };
        if !fields.is_empty() {
            crate::tools::only_fields(o, fields)?;
        }
        let p = self.program.clone();
        let event = |o: &serde_json::Map<String, Json>| -> Result<u32, LineError> {
            let id = o
                .get("event")
                .and_then(Json::as_str)
                .ok_or_else(|| LineError::missing("event", "an event id"))?;
            let li = p
                .events
                .event(id)
                .ok_or_else(|| LineError::unknown("event", id))?;
            let st = self.world.story.as_ref().ok_or("no story")?;
            match p.events.scenarios[st.scenario as usize].local[li as usize] {
                u32::MAX => Err(format!("event `{id}` is not in this scenario").into()),
                n => Ok(n),
            }
        };
        let mut out = Out {
            trace: None,
            probe: None,
            counts: None,
            stop: false,
        };
        match op {
            "advance" => {
                let days = o
                    .get("days")
                    .and_then(Json::as_i64)
                    .filter(|d| (0..=1_000_000).contains(d))
                    .ok_or_else(|| LineError::field("days", "an integer from 0 to 1000000"))?;
                self.advance(days);
            }
            "launch" => {
                let n = event(o)?;
                let state = self.node_state(n);
                if state != NodeState::Open {
                    return Err(LineError::from(format!(
                        "cannot launch `{}`: it is {}",
                        self.id(n),
                        describe(state)
                    )));
                }
                if !available(&p, &self.world).contains(&n) {
                    return Err(LineError::from(format!(
                        "cannot launch `{}`: its precondition is false",
                        self.id(n)
                    )));
                }
                exec::launch_local(&p, &mut self.world, n, false, &mut out);
            }
            "end" => {
                let n = event(o)?;
                let success = match o.get("outcome").and_then(Json::as_str) {
                    Some("success") => true,
                    Some("failure") => false,
                    _ => return Err(LineError::field("outcome", "\"success\" or \"failure\"")),
                };
                let state = self.node_state(n);
                if state != NodeState::Active {
                    return Err(LineError::from(format!(
                        "cannot end `{}`: it is {}, not active",
                        self.id(n),
                        describe(state)
                    )));
                }
                exec::end_local(&p, &mut self.world, n, success, &mut out);
            }
            "set" => match (o.get("flag"), o.get("counter")) {
                (Some(f), None) => {
                    let name = f
                        .as_str()
                        .ok_or_else(|| LineError::field("flag", "a flag name"))?;
                    let value = o.get("value").and_then(Json::as_bool).ok_or_else(|| {
                        LineError::field("value", "true or false (a flag's value)")
                    })?;
                    let slot = p.flags.get(name).ok_or_else(|| {
                        format!("unknown flag `{name}` (this pack never uses it)")
                    })?;
                    self.world.flags[slot as usize] = value;
                }
                (None, Some(c)) => {
                    let name = c
                        .as_str()
                        .ok_or_else(|| LineError::field("counter", "a counter name"))?;
                    let value = o.get("value").and_then(Json::as_i64).ok_or_else(|| {
                        LineError::field("value", "an integer (a counter's value)")
                    })?;
                    let slot = p.counters.get(name).ok_or_else(|| {
                        format!("unknown counter `{name}` (this pack never uses it)")
                    })?;
                    self.world.counters[slot as usize] = value;
                }
                _ => return Err("`set` needs either `flag` or `counter`, and `value`".into()),
            },
            other => {
                return Err(LineError::from(format!(
                    "unknown op `{other}` (known: advance, launch, end, set)"
                )));
            }
        }
        Ok(())
    }

    fn node_state(&self, n: u32) -> NodeState {
        self.world
            .story
            .as_ref()
            .map_or(NodeState::Dead, |s| s.tracker.state(n))
    }

    fn id(&self, n: u32) -> &str {
        let p = &self.program;
        let Some(st) = self.world.story.as_ref() else {
            return "";
        };
        let li = p.events.scenarios[st.scenario as usize].nodes[n as usize];
        &p.events.events[li as usize].id
    }

    /// The state line: date, and the ids (sorted) in each set.
    pub fn state(&self) -> Json {
        let p = &self.program;
        let Some(st) = self.world.story.as_ref() else {
            return json!({});
        };
        let ids = |f: &dyn Fn(NodeState) -> bool| {
            let mut v: Vec<&str> = st
                .tracker
                .states()
                .enumerate()
                .filter(|&(_, s)| f(s))
                .map(|(n, _)| self.id(n as u32))
                .collect();
            v.sort_unstable();
            v
        };
        let mut available: Vec<&str> = available(p, &self.world)
            .into_iter()
            .map(|n| self.id(n))
            .collect();
        available.sort_unstable();
        let mut done: Vec<(&str, &str)> = st
            .tracker
            .states()
            .enumerate()
            .filter_map(|(n, s)| match s {
                NodeState::Done(ok) => {
                    Some((self.id(n as u32), if ok { "success" } else { "failure" }))
                }
                _ => None,
            })
            .collect();
        done.sort_unstable();
        let done: serde_json::Map<String, Json> = done
            .into_iter()
            .map(|(k, v)| (k.to_string(), Json::from(v)))
            .collect();
        json!({
            "date": st.tracker.date(),
            "open": ids(&|s| s == NodeState::Open),
            "queued": ids(&|s| s == NodeState::Queued),
            "available": available,
            "active": ids(&|s| s == NodeState::Active),
            "done": done,
            "dead": ids(&|s| matches!(s, NodeState::Dead | NodeState::Expired)),
            "expired": ids(&|s| s == NodeState::Expired),
        })
    }
}

fn describe(s: NodeState) -> &'static str {
    match s {
        NodeState::Blocked => "waiting for its dependencies",
        NodeState::Queued => "waiting for its window to start",
        NodeState::Open => "open",
        NodeState::Active => "active",
        NodeState::Done(_) => "already ended",
        NodeState::Expired => "expired (its window closed unlaunched)",
        NodeState::Dead => "dead (it can never open)",
    }
}
