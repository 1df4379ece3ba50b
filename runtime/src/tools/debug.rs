//! The line protocol of `townsfolk debug`: one JSON command per line in, one JSON reply per
//! line out. Malformed commands get `{"ok": false, "error": ...}` and the session goes on.

use serde_json::{Map, Value, json};

use crate::debug::{Debugger, Located, StepKind, Stop};
use crate::pack::BreakpointDef;

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

fn err(msg: impl Into<String>) -> Value {
    json!({"ok": false, "error": msg.into()})
}

/// Handles one line; returns the reply (None for blank lines and `#` comments).
pub fn handle_line(d: &mut Debugger, line: &str) -> Option<Value> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let cmd: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return Some(err(format!("not a JSON command: {e}"))),
    };
    let Some(obj) = cmd.as_object() else {
        return Some(err(
            "a command is a JSON object such as {\"cmd\": \"tick\"}",
        ));
    };
    let Some(name) = obj.get("cmd").and_then(Value::as_str) else {
        return Some(err(format!(
            "missing \"cmd\"; commands: {}",
            COMMANDS.join(", ")
        )));
    };
    Some(match handle(d, name, obj) {
        Ok(v) => v,
        Err(e) => err(e),
    })
}

fn u64_arg(obj: &Map<String, Value>, key: &str, default: u64) -> Result<u64, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| format!("`{key}` must be a non-negative integer, found {v}")),
    }
}

fn npc_arg(d: &Debugger, obj: &Map<String, Value>) -> Result<Option<u32>, String> {
    match obj.get("npc") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) => d
            .npc_index(id)
            .map(Some)
            .ok_or_else(|| format!("unknown NPC `{id}`")),
        Some(v) => Err(format!("`npc` must be an NPC id, found {v}")),
    }
}

fn id_arg(obj: &Map<String, Value>) -> Result<u32, String> {
    obj.get("id")
        .and_then(Value::as_u64)
        .and_then(|i| u32::try_from(i).ok())
        .ok_or_else(|| "`id` must be a breakpoint id".to_string())
}

fn handle(d: &mut Debugger, name: &str, obj: &Map<String, Value>) -> Result<Value, String> {
    match name {
        "break" => {
            let mut def = obj.clone();
            def.remove("cmd");
            def.entry("id").or_insert(json!(0));
            let def: BreakpointDef = serde_json::from_value(Value::Object(def))
                .map_err(|e| format!("bad breakpoint: {e}"))?;
            let id = d.add_breakpoint(&def).map_err(|e| e.to_string())?;
            Ok(json!({"ok": true, "id": id}))
        }
        "delete" => {
            let id = id_arg(obj)?;
            if d.delete_breakpoint(id) {
                Ok(json!({"ok": true}))
            } else {
                Err(format!("no breakpoint {id}"))
            }
        }
        "enable" | "disable" => {
            let id = id_arg(obj)?;
            if d.enable_breakpoint(id, name == "enable") {
                Ok(json!({"ok": true}))
            } else {
                Err(format!("no breakpoint {id}"))
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
                    return Err(format!(
                        "unknown step kind `{other}`: tick, node, into, over or out"
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
                        return Err("`back` to_tick needs `tick`".into());
                    };
                    d.back_to_tick(t)?
                }
                other => {
                    return Err(format!(
                        "unknown back kind `{other}`: tick, node or to_tick"
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
        )),
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
