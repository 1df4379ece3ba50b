//! Where two playthroughs part (`townsfolk diverge`): two sessions — two versions of a pack,
//! or one pack with two seeds — run side by side, their world hashes compared after every
//! tick (and at the start); at the first tick where they differ, what differs is named:
//! NPCs (position, area, behavior-tree node statuses, blackboard variables, health),
//! flags, counters, trigger fires and the trace events of that tick (messages, story
//! events, adoptions, …) that only one side had. Everything is compared by id, so the two
//! programs may number their contents differently.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::debug::live_nodes;
use crate::program::{Program, show_value};
use crate::session::Session;
use crate::world::World;

/// One thing that differs between the two worlds.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// `npc`, `node`, `variable`, `flag`, `counter`, `trigger` or `world`.
    pub kind: &'static str,
    /// The NPC, flag, counter or trigger id; for nodes `npc`; empty for `world`.
    pub id: String,
    /// What of it differs (`position`, `area`, a variable name, `tree/node`, …).
    pub what: String,
    /// Its value in A and in B (`absent` when one side has none).
    pub a: String,
    pub b: String,
}

/// Where the two runs part.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// The first tick at which something named differs (state or that tick's events).
    pub tick: u64,
    /// The first tick at which the world hashes differ (earlier than `tick` when only
    /// internal state such as the random generator differed first, as with two seeds).
    pub hash_tick: u64,
    /// The in-game time there (`day D HH:MM`, from A).
    pub time: String,
    pub hash_a: u64,
    pub hash_b: u64,
    pub differences: Vec<Difference>,
    /// Trace events of that tick that only A (only B) had, as JSON objects.
    pub only_a: Vec<Value>,
    pub only_b: Vec<Value>,
}

/// The result of a comparison run.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Identical world hashes for every tick played.
    Same {
        ticks: u64,
    },
    Diverged(Box<Divergence>),
}

fn absent() -> String {
    "absent".to_string()
}

fn push(out: &mut Vec<Difference>, kind: &'static str, id: &str, what: &str, a: String, b: String) {
    if a != b {
        out.push(Difference {
            kind,
            id: id.to_string(),
            what: what.to_string(),
            a,
            b,
        });
    }
}

/// Per NPC id: its index in the world.
fn npcs_by_id(p: &Program, w: &World) -> BTreeMap<String, u32> {
    (0..w.npcs.len() as u32)
        .map(|i| (w.npc_name(p, i), i))
        .collect()
}

/// What differs between two worlds, NPC by NPC (in A's order, then B's extra NPCs), then
/// flags, counters and triggers.
pub fn differences(pa: &Program, wa: &World, pb: &Program, wb: &World) -> Vec<Difference> {
    let mut out = Vec::new();
    let ids_b = npcs_by_id(pb, wb);
    let ids_a = npcs_by_id(pa, wa);
    for ia in 0..wa.npcs.len() as u32 {
        let id = wa.npc_name(pa, ia);
        let Some(&ib) = ids_b.get(&id) else {
            push(&mut out, "npc", &id, "presence", "present".into(), absent());
            continue;
        };
        let (na, nb) = (&wa.npcs[ia as usize], &wb.npcs[ib as usize]);
        let (xa, xb) = (wa.pos[ia as usize], wb.pos[ib as usize]);
        push(
            &mut out,
            "npc",
            &id,
            "position",
            format!("({}, {})", xa.x, xa.y),
            format!("({}, {})", xb.x, xb.y),
        );
        let area = |p: &Program, a: Option<u32>| {
            a.map_or("none".to_string(), |a| {
                crate::program::areas::area_name(p, a)
            })
        };
        push(
            &mut out,
            "npc",
            &id,
            "area",
            area(pa, na.area),
            area(pb, nb.area),
        );
        push(
            &mut out,
            "npc",
            &id,
            "health",
            na.health.to_string(),
            nb.health.to_string(),
        );
        let state = |n: &crate::world::Npc| {
            if n.removed {
                "removed"
            } else if n.dead {
                "dead"
            } else {
                "alive"
            }
        };
        push(
            &mut out,
            "npc",
            &id,
            "state",
            state(na).into(),
            state(nb).into(),
        );
        // Behavior-tree nodes, by (tree, node) id, in A's display order then B's extras.
        let nodes = |p: &Program, w: &World, i: u32| -> Vec<(String, String)> {
            live_nodes(p, w, i, None)
                .into_iter()
                .map(|v| (format!("{}/{}", v.tree, v.id), v.status.name().to_string()))
                .collect()
        };
        let (la, lb) = (nodes(pa, wa, ia), nodes(pb, wb, ib));
        let mb: BTreeMap<&str, &str> = lb.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let ma: BTreeMap<&str, &str> = la.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        for (k, s) in &la {
            let other = mb.get(k.as_str()).map_or_else(absent, |s| s.to_string());
            push(&mut out, "node", &id, k, s.clone(), other);
        }
        for (k, s) in &lb {
            if !ma.contains_key(k.as_str()) {
                push(&mut out, "node", &id, k, absent(), s.clone());
            }
        }
        // Blackboard variables, by name.
        let vars = |p: &Program, w: &World, i: u32| -> BTreeMap<String, String> {
            p.blackboard
                .names
                .iter()
                .zip(w.minds.bb(i as usize))
                .map(|(k, v)| (k.clone(), show_value(p, *v)))
                .collect()
        };
        let (va, vb) = (vars(pa, wa, ia), vars(pb, wb, ib));
        for (k, v) in &va {
            push(
                &mut out,
                "variable",
                &id,
                k,
                v.clone(),
                vb.get(k).cloned().unwrap_or_else(absent),
            );
        }
        for (k, v) in &vb {
            if !va.contains_key(k) {
                push(&mut out, "variable", &id, k, absent(), v.clone());
            }
        }
    }
    for id in ids_b.keys() {
        if !ids_a.contains_key(id) {
            push(&mut out, "npc", id, "presence", absent(), "present".into());
        }
    }
    // Flags and counters, by name.
    let flags = |p: &Program, w: &World| -> BTreeMap<String, String> {
        p.flags
            .names
            .iter()
            .zip(&w.flags)
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect()
    };
    let counters = |p: &Program, w: &World| -> BTreeMap<String, String> {
        p.counters
            .names
            .iter()
            .zip(&w.counters)
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect()
    };
    let triggers = |p: &Program, w: &World| -> BTreeMap<String, String> {
        p.triggers
            .triggers
            .iter()
            .zip(&w.triggers.fires)
            .map(|(t, f)| (t.id.clone(), format!("fired {f}")))
            .collect()
    };
    for (kind, a, b) in [
        ("flag", flags(pa, wa), flags(pb, wb)),
        ("counter", counters(pa, wa), counters(pb, wb)),
        ("trigger", triggers(pa, wa), triggers(pb, wb)),
    ] {
        for (k, v) in &a {
            let w = if kind == "trigger" { "fires" } else { "value" };
            push(
                &mut out,
                kind,
                k,
                w,
                v.clone(),
                b.get(k).cloned().unwrap_or_else(absent),
            );
        }
        for (k, v) in &b {
            if !a.contains_key(k) {
                let w = if kind == "trigger" { "fires" } else { "value" };
                push(&mut out, kind, k, w, absent(), v.clone());
            }
        }
    }
    let clock = |w: &World| format!("day {} hour {}", w.day, w.hour);
    push(&mut out, "world", "", "clock", clock(wa), clock(wb));
    out
}

/// Events of the last tick as JSON, without the tick.
fn events(s: &Session) -> Vec<Value> {
    s.trace()
        .iter()
        .map(|e| {
            let mut v = crate::trace::trace_value_in(s.program(), Some(s.world()), e);
            if let Some(o) = v.as_object_mut() {
                o.remove("tick");
            }
            v
        })
        .collect()
}

/// The events of `a` not matched by one of `b` (a multiset difference, order kept).
fn only_in(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut left: BTreeMap<String, usize> = BTreeMap::new();
    for v in b {
        *left.entry(v.to_string()).or_default() += 1;
    }
    a.iter()
        .filter(|v| match left.get_mut(&v.to_string()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .cloned()
        .collect()
}

fn time_of(w: &World) -> String {
    let minutes = (w.hour * 60.0).floor() as i64;
    format!("day {} {:02}:{:02}", w.day, minutes / 60, minutes % 60)
}

/// Runs A (`program_a`, `seed_a`) and B side by side for up to `ticks` ticks and returns the
/// first tick at which their world hashes differ and the first at which something named
/// differs (the same tick unless only internal state parted first), with what differs.
pub fn diverge(
    program_a: &Arc<Program>,
    seed_a: u64,
    program_b: &Arc<Program>,
    seed_b: u64,
    ticks: u64,
) -> Outcome {
    let mut a = Session::new(program_a.clone(), seed_a);
    let mut b = Session::new(program_b.clone(), seed_b);
    a.set_tracing(true);
    b.set_tracing(true);
    // The first tick whose hashes differ: the tick, its time of day and the two hashes.
    let mut first_hash: Option<(u64, String, u64, u64)> = None;
    for tick in 0..=ticks {
        if tick > 0 {
            a.clear_trace();
            b.clear_trace();
            a.step();
            b.step();
        }
        let (ha, hb) = (a.hash(), b.hash());
        if ha == hb {
            continue;
        }
        let hash_tick = first_hash
            .get_or_insert_with(|| (tick, time_of(a.world()), ha, hb))
            .0;
        let (ea, eb) = (events(&a), events(&b));
        let d = Divergence {
            tick,
            hash_tick,
            time: time_of(a.world()),
            hash_a: ha,
            hash_b: hb,
            differences: differences(program_a, a.world(), program_b, b.world()),
            only_a: only_in(&ea, &eb),
            only_b: only_in(&eb, &ea),
        };
        if d.visible() {
            return Outcome::Diverged(Box::new(d));
        }
    }
    match first_hash {
        // The hashes parted but nothing named ever differed (random state only, say).
        Some((tick, time, ha, hb)) => Outcome::Diverged(Box::new(Divergence {
            tick,
            hash_tick: tick,
            time,
            hash_a: ha,
            hash_b: hb,
            differences: Vec::new(),
            only_a: Vec::new(),
            only_b: Vec::new(),
        })),
        None => Outcome::Same { ticks },
    }
}

impl Divergence {
    /// Whether anything named differs (not only internal state).
    pub fn visible(&self) -> bool {
        !(self.differences.is_empty() && self.only_a.is_empty() && self.only_b.is_empty())
    }

    /// The NPCs named by the differences, first-seen order.
    pub fn npcs(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for d in &self.differences {
            if matches!(d.kind, "npc" | "node" | "variable") && !out.contains(&d.id.as_str()) {
                out.push(&d.id);
            }
        }
        out
    }

    pub fn to_json(&self) -> Value {
        let diffs: Vec<Value> = self
            .differences
            .iter()
            .map(|d| json!({"kind": d.kind, "id": d.id, "what": d.what, "a": d.a, "b": d.b}))
            .collect();
        json!({"diverged": true, "tick": self.tick, "hash_tick": self.hash_tick,
               "time": self.time,
               "hash_a": format!("{:016x}", self.hash_a),
               "hash_b": format!("{:016x}", self.hash_b),
               "npcs": self.npcs(), "differences": diffs,
               "events_only_in_a": self.only_a, "events_only_in_b": self.only_b})
    }

    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "first difference at tick {} ({}): hash {:016x} vs {:016x}",
            self.tick, self.time, self.hash_a, self.hash_b
        );
        if self.hash_tick != self.tick {
            let _ = writeln!(
                s,
                "(the world hashes already differ from tick {}: internal state only until tick {})",
                self.hash_tick, self.tick
            );
        }
        let npcs = self.npcs();
        if !npcs.is_empty() {
            let _ = writeln!(s, "NPCs that differ: {}", npcs.join(", "));
        }
        if self.differences.is_empty() {
            let _ = writeln!(
                s,
                "  no named state differs in the ticks compared (only internal state: random generator, queues, timers)"
            );
        }
        for d in &self.differences {
            let who = match d.kind {
                "npc" => format!("npc {}", d.id),
                "node" => format!("npc {}: node", d.id),
                "variable" => format!("npc {}: variable", d.id),
                "world" => "world".to_string(),
                k => format!("{k} {}", d.id),
            };
            let _ = writeln!(s, "  {who} {}: {} vs {}", d.what, d.a, d.b);
        }
        for (side, evs) in [("A", &self.only_a), ("B", &self.only_b)] {
            if !evs.is_empty() {
                let _ = writeln!(s, "events of tick {} only in {side}:", self.tick);
                for e in evs.iter().take(20) {
                    let _ = writeln!(s, "  {e}");
                }
                if evs.len() > 20 {
                    let _ = writeln!(s, "  … and {} more", evs.len() - 20);
                }
            }
        }
        s
    }
}
