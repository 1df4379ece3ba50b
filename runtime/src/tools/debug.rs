//! The line protocol of `townsfolk debug`: one JSON command per line in, one JSON reply per
//! line out. Malformed commands get `{"ok": false, "error": ...}` and the session goes on.

use serde_json::{Map, Value, json};

use crate::debug::{Debugger, Located, StepKind, Stop};
use crate::mods::AssetKind;
use crate::pack::BreakpointDef;
use crate::tools::LineError;
use crate::trace::Actor;

/// Every command, for `help` and error messages.
pub const COMMANDS: &[&str] = &[
    "break",
    "delete",
    "enable",
    "disable",
    "breakpoints",
    "continue",
    "step",
    "back",
    "run",
    "inspect",
    "hash",
    "tick",
    "why",
    "trace",
    "snapshots",
    "help",
];

/// The fields each command takes (besides `cmd`; `break` takes a breakpoint's).
fn fields_of(cmd: &str) -> &'static [&'static str] {
    match cmd {
        "delete" | "enable" | "disable" => &["cmd", "id"],
        "continue" | "run" => &["cmd", "ticks"],
        "step" => &["cmd", "kind", "npc"],
        "back" => &["cmd", "kind", "npc", "tick"],
        "inspect" => &["cmd", "npc", "area", "trigger"],
        "trace" => &["cmd", "last"],
        _ => &["cmd"],
    }
}

impl crate::tools::LineTool for Debugger {
    const NOT_JSON: &'static str = "not a JSON command";
    const EXPECTED: &'static str = "a command is a JSON object such as {\"cmd\": \"tick\"}";
    fn reply(&mut self, obj: &Map<String, Value>) -> Result<Value, LineError> {
        let commands = || COMMANDS.join(", ");
        let name = match obj.get("cmd") {
            None => {
                return Err(LineError::missing(
                    "cmd",
                    format!("a command: {}", commands()),
                ));
            }
            Some(Value::String(s)) => s.as_str(),
            Some(_) => {
                return Err(LineError::field(
                    "cmd",
                    format!("a string naming a command: {}", commands()),
                ));
            }
        };
        if name != "break" && COMMANDS.contains(&name) {
            crate::tools::only_fields(obj, fields_of(name))?;
        }
        handle(self, name, obj)
    }
}

/// Handles one line (as line 1 of a script); returns the reply (None for blank lines and `#`
/// comments): the command's, or the located refusal `{"ok": false, "error", "line",
/// "column", "expected"}`.
pub fn handle_line(d: &mut Debugger, line: &str) -> Option<Value> {
    crate::tools::handle(d, 1, line).map(|r| r.unwrap_or_else(|fault| fault))
}

/// Most ticks one `run` or `continue` command may ask for (about 400 game days at the
/// samples' clock): a larger count is refused at its field, so a typo cannot leave the
/// debugger busy for hours with no way to answer the next line.
pub const MAX_TICKS_PER_COMMAND: u64 = 1_000_000;

fn u64_arg(obj: &Map<String, Value>, key: &'static str, default: u64) -> Result<u64, LineError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| LineError::found(key, "a non-negative integer", v)),
    }
}

fn ticks_arg(obj: &Map<String, Value>, default: u64) -> Result<u64, LineError> {
    let expected = || format!("a whole number of ticks in [0, {MAX_TICKS_PER_COMMAND}]");
    match obj.get("ticks") {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|&n| n <= MAX_TICKS_PER_COMMAND)
            .ok_or_else(|| LineError::found("ticks", expected(), v)),
    }
}

fn npc_arg(d: &Debugger, obj: &Map<String, Value>) -> Result<Option<u32>, LineError> {
    match obj.get("npc") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) => d
            .npc_index(id)
            .map(Some)
            .ok_or_else(|| LineError::unknown("NPC", id)),
        Some(v) => Err(LineError::found("npc", "an NPC id", v)),
    }
}

fn id_arg(obj: &Map<String, Value>) -> Result<u32, LineError> {
    obj.get("id")
        .and_then(Value::as_u64)
        .and_then(|i| u32::try_from(i).ok())
        .ok_or_else(|| LineError::field("id", "a breakpoint id (a whole number ≥ 0)"))
}

fn handle(d: &mut Debugger, name: &str, obj: &Map<String, Value>) -> Result<Value, LineError> {
    match name {
        "break" => {
            let mut def = obj.clone();
            def.remove("cmd");
            def.entry("id").or_insert(json!(0));
            let def: BreakpointDef = serde_json::from_value(Value::Object(def)).map_err(|e| {
                format!(
                    "bad breakpoint: {}",
                    crate::pack::user_words(&e.to_string())
                )
            })?;
            // Fields a breakpoint does not have were ignored by the reader: refuse them.
            let read = serde_json::to_value(&def).unwrap_or(Value::Null);
            let mut known = vec!["cmd", "id", "enabled", "npc", "condition"];
            for k in read.as_object().into_iter().flat_map(|o| o.keys()) {
                if !known.contains(&k.as_str()) {
                    known.push(k);
                }
            }
            crate::tools::only_fields(obj, &known)?;
            let id = d.add_breakpoint(&def).map_err(|e| e.to_string())?;
            Ok(json!({"ok": true, "id": id}))
        }
        "delete" => {
            let id = id_arg(obj)?;
            if d.delete_breakpoint(id) {
                Ok(json!({"ok": true}))
            } else {
                Err(format!("no breakpoint {id}").into())
            }
        }
        "enable" | "disable" => {
            let id = id_arg(obj)?;
            if d.enable_breakpoint(id, name == "enable") {
                Ok(json!({"ok": true}))
            } else {
                Err(format!("no breakpoint {id}").into())
            }
        }
        "breakpoints" => {
            let list: Vec<Value> = d
                .breakpoints()
                .iter()
                .map(|b| {
                    let mut v = serde_json::to_value(&b.def).unwrap_or(Value::Null);
                    if let Some(o) = v.as_object_mut() {
                        o.insert("enabled".into(), json!(b.def.enabled));
                        o.insert("hits".into(), json!(b.hits));
                    }
                    v
                })
                .collect();
            Ok(json!({"ok": true, "breakpoints": list}))
        }
        "continue" => {
            let ticks = ticks_arg(obj, 10_000)?;
            let stop = d.continue_for(ticks);
            Ok(position(d, &stop))
        }
        "run" => {
            let ticks = ticks_arg(obj, 1)?;
            let stop = d.run_ticks(ticks);
            Ok(position(d, &stop))
        }
        "step" => {
            let npc = npc_arg(d, obj)?;
            let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("tick");
            let stop = match kind {
                "tick" => d.step_tick(),
                "node" | "into" => d.step_node(StepKind::Into, npc),
                "over" => d.step_node(StepKind::Over, npc),
                "out" => d.step_node(StepKind::Out, npc),
                other => {
                    return Err(LineError::found(
                        "kind",
                        "a step kind: tick, node, into, over or out",
                        format!("`{other}`"),
                    ));
                }
            };
            Ok(position(d, &stop))
        }
        "back" => {
            let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("tick");
            let stop = match kind {
                "tick" => d.back_tick(),
                "node" => {
                    let npc = npc_arg(d, obj)?;
                    d.back_node(npc)
                }
                "to_tick" => {
                    let Some(t) = obj.get("tick").and_then(Value::as_u64) else {
                        return Err(LineError::missing(
                            "tick",
                            "the tick to go back to, a whole number ≥ 0",
                        ));
                    };
                    d.back_to_tick(t)?
                }
                other => {
                    return Err(LineError::found(
                        "kind",
                        "a back kind: tick, node or to_tick",
                        format!("`{other}`"),
                    ));
                }
            };
            Ok(position(d, &stop))
        }
        "inspect" if obj.len() > 2 => Err(LineError::field(
            "area",
            "one of `npc`, `area`, `trigger` (or none: the world)",
        )),
        "inspect" if obj.contains_key("area") => inspect_area(d, obj),
        "inspect" if obj.contains_key("trigger") => inspect_trigger(d, obj),
        "inspect" => match npc_arg(d, obj)? {
            Some(npc) => {
                let Some(v) = d.npc_view(npc) else {
                    return Err("no such NPC".into());
                };
                let nodes: Vec<Value> = v
                    .nodes
                    .iter()
                    .map(|n| {
                        let mut o = json!({"tree": n.tree, "node": n.id, "depth": n.depth,
                                           "status": n.status.name()});
                        if n.current {
                            o["current"] = json!(true);
                        }
                        if let Some(g) = &n.graft {
                            o["graft"] = json!(g);
                        }
                        if let Some(l) = d.layer_of(AssetKind::Tree, &n.tree) {
                            o["layer"] = json!(l);
                        }
                        o
                    })
                    .collect();
                let bb: Map<String, Value> = v
                    .blackboard
                    .into_iter()
                    .map(|(tree, vars)| {
                        let vars: Map<String, Value> = vars
                            .into_iter()
                            .map(|(k, val)| (k, value_json(d, val)))
                            .collect();
                        (tree, Value::Object(vars))
                    })
                    .collect();
                let inboxes: Map<String, Value> =
                    v.inboxes.into_iter().map(|(k, q)| (k, json!(q))).collect();
                let mut reply = json!({"ok": true, "npc": v.id, "tree": v.tree, "pos": [v.pos.x, v.pos.y],
                          "area": v.area, "status": v.status.name(), "nodes": nodes,
                          "blackboard": bb, "inboxes": inboxes});
                crate::mods::annotate_event(&mut reply, d.layers());
                Ok(reply)
            }
            None => {
                let w = d.world_view();
                let minutes = (w.hour * 60.0).floor() as i64;
                let flags: Map<String, Value> =
                    w.flags.into_iter().map(|(k, v)| (k, json!(v))).collect();
                let counters: Map<String, Value> =
                    w.counters.into_iter().map(|(k, v)| (k, json!(v))).collect();
                Ok(json!({"ok": true, "tick": w.tick, "day": w.day,
                          "time": format!("{:02}:{:02}", minutes / 60, minutes % 60),
                          "flags": flags, "counters": counters}))
            }
        },
        "hash" => Ok(json!({"ok": true, "tick": d.tick(), "event": d.event(),
                            "hash": format!("{:016x}", d.hash())})),
        "tick" => Ok(json!({"ok": true, "tick": d.tick(), "event": d.event()})),
        "why" => Ok(match d.why() {
            Some(b) => {
                let mut v = json!({"ok": true, "breakpoint": b.breakpoint, "tick": b.tick,
                                   "event": b.event, "reason": b.reason});
                match (b.at, b.actor) {
                    (Some(at), _) => located(d, at, &mut v),
                    (None, Some(a)) => actor_fields(d, a, &mut v),
                    _ => {}
                }
                v
            }
            None => json!({"ok": true, "reason": null}),
        }),
        "trace" => {
            let n = u64_arg(obj, "last", 20)? as usize;
            let events: Vec<Value> = d
                .recent_trace(n)
                .into_iter()
                .map(|e| {
                    let mut v =
                        crate::trace::trace_value_in(d.program(), Some(d.session().world()), e);
                    crate::mods::annotate_event(&mut v, d.layers());
                    v
                })
                .collect();
            Ok(json!({"ok": true, "events": events}))
        }
        "snapshots" => {
            let s = d.snapshot_stats();
            Ok(json!({"ok": true, "interval": s.interval, "count": s.count,
                      "bytes_per_snapshot": s.bytes_per_snapshot, "total_bytes": s.total_bytes,
                      "max_bytes": s.max_bytes}))
        }
        "help" => Ok(json!({"ok": true, "commands": COMMANDS})),
        other => Err(format!(
            "unknown command `{other}`; commands: {}",
            COMMANDS.join(", ")
        )
        .into()),
    }
}

/// `{"cmd": "inspect", "area": ID}`: an area's variables, inboxes, brain and handlers.
fn inspect_area(d: &Debugger, obj: &Map<String, Value>) -> Result<Value, LineError> {
    use crate::world::areas::{area_name, state, vars};
    let p = d.program();
    let w = d.session().world();
    let id = match obj.get("area") {
        Some(Value::String(s)) => s.as_str(),
        Some(v) => return Err(LineError::found("area", "an area id", v)),
        None => return Err(LineError::missing("area", "an area id")),
    };
    let area = match p.entity(id) {
        Some(crate::value::EntityId::Area(a)) => Some(a),
        _ => w
            .dyn_areas
            .iter()
            .map(|a| a.id)
            .find(|&a| area_name(p, a) == id),
    }
    .ok_or_else(|| LineError::unknown("area", id))?;
    let mut v = json!({"ok": true, "area": area_name(p, area)});
    crate::mods::annotate_event(&mut v, d.layers());
    let vs: Map<String, Value> = vars(w, area)
        .into_iter()
        .flatten()
        .zip(&p.area_vars.names)
        .map(|(val, name)| (name.clone(), value_json(d, *val)))
        .collect();
    v["vars"] = Value::Object(vs);
    if let Some(st) = state(w, area) {
        let inboxes: Map<String, Value> = st
            .inboxes
            .iter()
            .map(|(name, q)| {
                let msgs: Vec<String> = q
                    .iter()
                    .map(|m| format!("{} from {}", p.sym(m.message), p.entity_name(m.from)))
                    .collect();
                (p.sym(*name).to_string(), json!(msgs))
            })
            .collect();
        v["inboxes"] = Value::Object(inboxes);
        if let Some(inst) = &st.brain {
            v["brain"] = json!(instance_nodes(d, inst));
        }
        if let Some((job, inst)) = &st.running {
            v["handler"] = json!({"kind": job.kind.name(),
                                  "npc": w.npc_name(p, job.npc),
                                  "nodes": instance_nodes(d, inst)});
        }
        v["queued"] = json!(st.queue.len());
    }
    Ok(v)
}

/// The nodes of an area's tree instance (brain or handler), with their status.
fn instance_nodes(d: &Debugger, inst: &crate::bt::Instance) -> Vec<Value> {
    let p = d.program();
    let Some(tree) = p.trees.get(inst.tree as usize) else {
        return Vec::new();
    };
    tree.nodes
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let (t, id) = p.node_origin(inst.tree, k);
            let status = inst.status.get(k).copied().unwrap_or_default();
            json!({"tree": t, "node": id, "depth": n.depth, "status": status.name()})
        })
        .collect()
}

/// `{"cmd": "inspect", "trigger": ID}`: a world trigger's owner and firing record.
fn inspect_trigger(d: &Debugger, obj: &Map<String, Value>) -> Result<Value, LineError> {
    let p = d.program();
    let st = &d.session().world().triggers;
    let id = match obj.get("trigger") {
        Some(Value::String(s)) => s.as_str(),
        Some(v) => return Err(LineError::found("trigger", "a trigger id", v)),
        None => return Err(LineError::missing("trigger", "a trigger id")),
    };
    let (t, trig) = p
        .triggers
        .triggers
        .iter()
        .enumerate()
        .find(|(_, t)| t.id == id)
        .ok_or_else(|| LineError::unknown("trigger", id))?;
    let owner = match trig.owner {
        crate::value::EntityId::None => Value::Null,
        o => json!(p.entity_name(o)),
    };
    let fires = st.fires.get(t).copied().unwrap_or(0);
    Ok(json!({"ok": true, "trigger": trig.id, "owner": owner,
              "fires": fires,
              "last_fired": (fires > 0).then(|| st.last_fired.get(t).copied()).flatten(),
              "holding": st.holding.get(t).copied().unwrap_or(false),
              "spent": st.spent.get(t).copied().unwrap_or(false)}))
}

/// A variable's value as typed JSON: booleans as booleans, numbers as numbers, strings as
/// strings, vectors as `[x, y]`, entities by id (`null` for none). Floats are printed in
/// the shortest form that reads back as the same value at 15 significant digits (all an
/// `f64` holds reliably), so sums such as 0.1 + 0.2 show as 0.3, not 0.30000000000000004.
fn value_json(d: &Debugger, v: crate::value::Value) -> Value {
    use crate::value::{EntityId, Value as V};
    let p = d.program();
    match v {
        V::Bool(b) => json!(b),
        V::Int(i) => json!(i),
        V::Float(f) => json!(tidy(f)),
        V::Str(s) => json!(p.sym(s)),
        V::Vec2(v) => json!([tidy(v.x), tidy(v.y)]),
        V::Entity(EntityId::None) => Value::Null,
        V::Entity(EntityId::Npc(n)) => json!(d.session().world().npc_name(p, n)),
        V::Entity(EntityId::Area(a)) => json!(crate::world::areas::area_name(p, a)),
        V::Entity(e) => json!(p.entity_name(e)),
    }
}

/// `f` rounded to 15 significant digits (see [`value_json`]).
pub fn tidy(f: f64) -> f64 {
    if !f.is_finite() {
        return f;
    }
    format!("{f:.14e}").parse().unwrap_or(f)
}

/// Names whose code it is: `npc` (an NPC's tree or a handler about it), `area` (a handler's
/// or brain's area), `trigger` and its `owner` (a world trigger's responses).
fn actor_fields(d: &Debugger, actor: Actor, v: &mut Value) {
    use crate::value::EntityId;
    use crate::world::areas::area_name;
    let p = d.program();
    match actor {
        Actor::Npc(n) => v["npc"] = json!(d.session().world().npc_name(p, n)),
        Actor::Handler { area, npc } => {
            v["npc"] = json!(d.session().world().npc_name(p, npc));
            v["area"] = json!(area_name(p, area));
        }
        Actor::Brain { area } => v["area"] = json!(area_name(p, area)),
        Actor::Trigger { trigger } => {
            v["trigger"] = json!(p.triggers.trigger_id(trigger));
            let owner = p.triggers.triggers.get(trigger as usize).map(|t| t.owner);
            if let Some(o) = owner.filter(|o| *o != EntityId::None) {
                v["owner"] = json!(p.entity_name(o));
            }
        }
    }
}

fn located(d: &Debugger, at: Located, v: &mut Value) {
    let p = d.program();
    let (tree, node) = p.node_origin(at.tree, at.node as usize);
    actor_fields(d, at.actor, v);
    v["tree"] = json!(tree);
    v["node"] = json!(node);
    v["at"] = json!(if at.entered { "enter" } else { "result" });
    if let Some(s) = at.status {
        v["status"] = json!(s.name());
    }
}

/// The reply after a run or step: how it stopped and where the debugger stands.
fn position(d: &Debugger, stop: &Stop) -> Value {
    let stopped = match stop {
        Stop::Breakpoint(_) => "breakpoint",
        Stop::Step => "step",
        Stop::TickEnd => "tick_end",
        Stop::Limit => "limit",
        Stop::NotFound => "not_found",
    };
    let mut v = json!({"ok": true, "stopped": stopped, "tick": d.tick(), "event": d.event()});
    if let Stop::Breakpoint(b) = stop {
        v["breakpoint"] = json!(b.breakpoint);
        v["reason"] = json!(b.reason);
    }
    if d.event().is_some() {
        match (d.current(), stop) {
            (Some(at), _) => located(d, at, &mut v),
            (None, Stop::Breakpoint(b)) => {
                if let Some(a) = b.actor {
                    actor_fields(d, a, &mut v);
                }
            }
            _ => {}
        }
    }
    v
}
