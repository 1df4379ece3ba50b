//! Static checks of trigger systems (with JSON paths): contradictory conditions, flags and
//! counters read but never written, latches never reset, reset loops.

use std::collections::BTreeSet;

use serde_json::Value as J;

use super::*;
use crate::pack::diag::{index, key};
use crate::pack::{Cond, Diagnostic, Node, NodeKind, Response};
use crate::program::ctx::Ctx;

fn collect_tree_sets(n: &Node, flags: &mut BTreeSet<String>, counters: &mut BTreeSet<String>) {
    if let NodeKind::Set { var, .. } = &n.kind {
        if let Some(f) = var.strip_prefix("flags.") {
            flags.insert(f.to_string());
        }
        if let Some(c) = var.strip_prefix("counters.") {
            counters.insert(c.to_string());
        }
    }
    for c in &n.children {
        collect_tree_sets(c, flags, counters);
    }
}

/// X AND NOT X over the same condition, directly under one `and`.
fn contradictions(c: &Cond, path: &str, out: &mut Vec<Diagnostic>) {
    if c.kind == "and" {
        for (i, a) in c.of.iter().enumerate() {
            for (j, n) in c.of.iter().enumerate() {
                if n.kind == "not"
                    && n.of.len() == 1
                    && n.of[0].kind == a.kind
                    && n.of[0].params == a.params
                    && n.of[0].of == a.of
                {
                    out.push(Diagnostic::warning(
                        path,
                        format!(
                            "this AND can never be true: operand {i} (`{}`) and operand {j} (NOT of the same condition) contradict each other",
                            a.kind
                        ),
                    ));
                }
            }
        }
    }
    let of = key(path, "of");
    for (i, ch) in c.of.iter().enumerate() {
        contradictions(ch, &index(&of, i), out);
    }
}

pub(super) fn static_checks(
    b: &Ctx<'_>,
    tp: &TriggerProgram,
    instances: &[(usize, usize)],
) -> Vec<Diagnostic> {
    let pack = b.pack;
    let mut out = Vec::new();
    // Flags and counters written anywhere.
    let mut wflags: BTreeSet<String> = pack.world.flags.keys().cloned().collect();
    let mut wcounters: BTreeSet<String> = pack.world.counters.keys().cloned().collect();
    for t in &pack.trees {
        collect_tree_sets(&t.root, &mut wflags, &mut wcounters);
    }
    let mut reset_targets = BTreeSet::new();
    for t in &tp.triggers {
        for r in &t.responses {
            if let CResponse::ResetTrigger { trigger } = r {
                reset_targets.insert(*trigger);
            }
        }
    }
    for sys in &pack.triggers {
        for t in &sys.triggers {
            for r in &t.responses {
                match r {
                    Response::SetFlag { flag, .. } | Response::ToggleFlag { flag } => {
                        wflags.insert(flag.clone());
                    }
                    Response::SetCounter { counter, .. } | Response::AddCounter { counter, .. } => {
                        wcounters.insert(counter.clone());
                    }
                    Response::CopyCounter { to, .. } => {
                        wcounters.insert(to.clone());
                    }
                    _ => {}
                }
            }
        }
    }
    for (si, sys) in pack.triggers.iter().enumerate() {
        for (ti, t) in sys.triggers.iter().enumerate() {
            let tpath = index(&key(&index("triggers", si), "triggers"), ti);
            contradictions(&t.when, &key(&tpath, "when"), &mut out);
            read_checks(&t.when, &key(&tpath, "when"), &wflags, &wcounters, &mut out);
        }
    }
    // Latches never reset (first instance of each trigger only).
    let mut done = BTreeSet::new();
    for (g, t) in tp.triggers.iter().enumerate() {
        let Some(&(si, ti)) = instances.get(g) else {
            continue;
        };
        if !done.insert((si, ti)) || t.single_shot || reset_targets.contains(&(g as u32)) {
            continue;
        }
        for n in &t.nodes {
            let Op::Leaf(l) = n.op else { continue };
            let leaf = &tp.leaves[l as usize];
            let has_until = matches!(leaf.kind, LeafKind::Received { until: Some(_), .. });
            if leaf.kind.is_one_off() && !leaf.consume && !has_until {
                out.push(Diagnostic::warning(
                    n.path.clone(),
                    format!(
                        "this `{}` latch is never reset: once set, trigger `{}` stays true and fires only once; add `\"consume\": true`{}, a `reset_trigger` response, or make the trigger single_shot",
                        n.kind,
                        t.id,
                        if n.kind == "received" { ", an `until` message" } else { "" }
                    ),
                ));
            }
        }
    }
    // Reset loops: cycles in the reset_trigger graph.
    let edges: Vec<Vec<u32>> = tp
        .triggers
        .iter()
        .map(|t| {
            t.responses
                .iter()
                .filter_map(|r| match r {
                    CResponse::ResetTrigger { trigger } => Some(*trigger),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let mut color = vec![0u8; edges.len()];
    let mut stack: Vec<u32> = Vec::new();
    fn dfs(
        v: u32,
        edges: &[Vec<u32>],
        color: &mut [u8],
        stack: &mut Vec<u32>,
        cycles: &mut Vec<Vec<u32>>,
    ) {
        color[v as usize] = 1;
        stack.push(v);
        for &u in &edges[v as usize] {
            match color.get(u as usize) {
                Some(0) => dfs(u, edges, color, stack, cycles),
                Some(1) => {
                    if let Some(at) = stack.iter().position(|&s| s == u) {
                        cycles.push(stack[at..].to_vec());
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        color[v as usize] = 2;
    }
    let mut cycles = Vec::new();
    for v in 0..edges.len() as u32 {
        if color[v as usize] == 0 {
            dfs(v, &edges, &mut color, &mut stack, &mut cycles);
        }
    }
    for c in cycles {
        let names: Vec<&str> = c.iter().map(|&t| tp.trigger_id(t)).collect();
        let first = c[0] as usize;
        let path = instances
            .get(first)
            .map(|&(si, ti)| {
                key(
                    &index(&key(&index("triggers", si), "triggers"), ti),
                    "responses",
                )
            })
            .unwrap_or_default();
        out.push(Diagnostic::warning(
            path,
            format!(
                "triggers reset each other in a loop: {} → {}; at run time the loop is cut off after each has fired once in a tick",
                names.join(" → "),
                names[0]
            ),
        ));
    }
    out
}

fn read_checks(
    c: &Cond,
    path: &str,
    wflags: &BTreeSet<String>,
    wcounters: &BTreeSet<String>,
    out: &mut Vec<Diagnostic>,
) {
    match c.kind.as_str() {
        "flag" => {
            if let Some(J::String(f)) = c.params.get("flag")
                && !wflags.contains(f)
            {
                out.push(Diagnostic::warning(
                    key(path, "flag"),
                    format!("flag `{f}` is read here but nothing in the pack sets it (no world.flags entry, no set_flag/toggle_flag response, no `set` node): it stays false"),
                ));
            }
        }
        "counter" => {
            if let Some(J::String(f)) = c.params.get("counter")
                && !wcounters.contains(f)
            {
                out.push(Diagnostic::warning(
                    key(path, "counter"),
                    format!(
                        "counter `{f}` is read here but nothing in the pack changes it: it stays 0"
                    ),
                ));
            }
        }
        _ => {}
    }
    let of = key(path, "of");
    for (i, ch) in c.of.iter().enumerate() {
        read_checks(ch, &index(&of, i), wflags, wcounters, out);
    }
}
