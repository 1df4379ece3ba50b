//! The line protocol of `townsfolk debug`: one JSON command per line in, one JSON reply per
//! line out. Malformed commands get `{"ok": false, "error": ...}` and the session goes on.

use serde_json::{Map, Value, json};

use crate::debug::{Debugger, Located, StepKind, Stop};
use crate::pack::BreakpointDef;
use crate::tools::LineError;

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
        "inspect" => &["cmd", "npc"],
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

fn u64_arg(obj: &Map<String, Value>, key: &'static str, default: u64) -> Result<u64, LineError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| LineError::found(key, "a non-negative integer", v)),
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
            let def: BreakpointDef = serde_json::from_value(Value::Object(def))
                .map_err(|e| format!("bad breakpoint: {e}"))?;
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
            let ticks = u64_arg(obj, "ticks", 10_000)?;
            let stop = d.continue_for(ticks);
            Ok(position(d, &stop))
        }
        "run" => {
            let ticks = u64_arg(obj, "ticks", 1)?;
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
                        o
                    })
                    .collect();
                let bb: Map<String, Value> = v
                    .blackboard
                    .into_iter()
                    .map(|(k, val)| (k, json!(val)))
                    .collect();
                let inboxes: Map<String, Value> =
                    v.inboxes.into_iter().map(|(k, q)| (k, json!(q))).collect();
                Ok(
                    json!({"ok": true, "npc": v.id, "tree": v.tree, "pos": [v.pos.x, v.pos.y],
                          "area": v.area, "status": v.status.name(), "nodes": nodes,
                          "blackboard": bb, "inboxes": inboxes}),
                )
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
                if let Some(at) = b.at {
                    located(d, at, &mut v);
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
                .map(|e| crate::trace::trace_value_in(d.program(), Some(d.session().world()), e))
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

fn located(d: &Debugger, at: Located, v: &mut Value) {
    let p = d.program();
    let (tree, node) = p.node_origin(at.tree, at.node as usize);
    v["npc"] = json!(p.entity_name(crate::value::EntityId::Npc(at.npc)));
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
    if d.event().is_some()
        && let Some(at) = d.current()
    {
        located(d, at, &mut v);
    }
    v
}
