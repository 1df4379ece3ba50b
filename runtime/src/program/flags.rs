//! Flags and counters, read against written: one read that the world does not declare and
//! nothing in the pack sets (it stays false / 0 for ever, unless a host sets it: a warning,
//! with a "did you mean" among the set ones), and one set under a near miss of a name that
//! is read and never set (a likely typo). Part of the name checks ([`super::names`]).
//!
//! A write is a declaration in `world.flags`/`world.counters`, a `set` node's `var`, or a
//! response that sets, toggles, adds to or copies into one; a read is a name in an expression
//! (conditions, guards, `set` values, `converse`'s `until`, template constraints, trigger
//! `var` conditions, content tests), a `flag`/`counter` trigger condition or a copy's `from`.
//! Event preconditions are the story pass's; the editor section (breakpoints) is not looked
//! at.
//!
//! Cost: the pack is walked once without paths to find which names are read and which are
//! written; only when a name needs a diagnostic is it walked again, writing out the paths of
//! that name's uses.

use std::collections::{BTreeMap, BTreeSet};

use super::names::hint;
use super::trail::Trail;
use crate::expr::{Mention, mentions};
use crate::pack::{Cond, NodeKind, Pack, Response};

/// A flag (`false`) or a counter (`true`) and its name.
type Name<'n> = (bool, &'n str);

/// Whether a name is read and whether it is written.
#[derive(Clone, Copy, Default)]
struct Usage {
    read: bool,
    written: bool,
}

/// Every flag and counter diagnostic of the pack.
pub(super) fn check(pack: &Pack) -> Vec<crate::pack::Diagnostic> {
    // Flags, then counters: name → usage.
    let mut usage: [BTreeMap<String, Usage>; 2] = Default::default();
    visit(pack, &mut |(counter, name), write, _| {
        let map = &mut usage[usize::from(counter)];
        let u = match map.get_mut(name) {
            Some(u) => u,
            None => map.entry(name.to_string()).or_default(),
        };
        if write {
            u.written = true;
        } else {
            u.read = true;
        }
    });
    // What is reported: (counter, name, the writes (else the reads)) → its message.
    let mut wanted: BTreeMap<(bool, String, bool), String> = BTreeMap::new();
    for (c, map) in usage.iter().enumerate() {
        let counter = c == 1;
        let what = if counter { "counter" } else { "flag" };
        let always = if counter { "0" } else { "false" };
        let set: BTreeSet<&str> = map
            .iter()
            .filter(|(_, u)| u.written)
            .map(|(n, _)| n.as_str())
            .collect();
        let unset: BTreeSet<&str> = map
            .iter()
            .filter(|(_, u)| u.read && !u.written)
            .map(|(n, _)| n.as_str())
            .collect();
        for &name in &unset {
            let h = hint(name, &set);
            wanted.insert(
                (counter, name.to_string(), false),
                format!(
                    "reads {what} `{name}`, which the world does not declare and nothing in the \
                     pack sets: it stays {always}{h}"
                ),
            );
        }
        for (name, u) in map {
            if u.read {
                continue;
            }
            // Only a near miss of a name that is read and never set: a likely typo.
            let h = hint(name, &unset);
            if !h.is_empty() {
                wanted.insert(
                    (counter, name.clone(), true),
                    format!("declares or sets {what} `{name}`, which nothing in the pack reads{h}"),
                );
            }
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    // The paths of the reported uses, in document order.
    let mut paths: BTreeMap<(bool, String, bool), Vec<String>> = BTreeMap::new();
    visit(pack, &mut |(counter, name), write, t| {
        let k = (counter, name.to_string(), write);
        if wanted.contains_key(&k) {
            paths.entry(k).or_default().push(t.path());
        }
    });
    // Reads nothing sets first, flags before counters, by name; then the unread writes.
    let mut out = Vec::new();
    for write in [false, true] {
        for ((counter, name, w), msg) in &wanted {
            if *w != write {
                continue;
            }
            let k = (*counter, name.clone(), *w);
            for p in paths.get(&k).into_iter().flatten() {
                out.push(crate::pack::Diagnostic::warning(p.clone(), msg.clone()));
            }
        }
    }
    out
}

/// Calls `f` with every flag and counter use of the pack (is it a write), in document order,
/// where it is (the path of the field holding the name, or of the map entry declaring it).
fn visit<'a>(pack: &'a Pack, f: &mut dyn FnMut(Name<'_>, bool, &Trail<'a>)) {
    let mut t = Trail::new();
    let w = &pack.world;
    let flags = w.flags.keys().map(|n| (false, n));
    for (counter, name) in flags.chain(w.counters.keys().map(|n| (true, n))) {
        let field = if counter { "counters" } else { "flags" };
        t.key("world").key(field).key(name);
        f((counter, name), true, &t);
        t.truncate(0);
    }
    for (i, tree) in pack.trees.iter().enumerate() {
        t.key("trees").index(i).key("root");
        node(&tree.root, &mut t, f);
        t.truncate(0);
    }
    for (i, a) in pack.areas.iter().enumerate() {
        for (j, tm) in a.templates.iter().enumerate() {
            if let Some(c) = &tm.constraint {
                t.key("areas")
                    .index(i)
                    .key("templates")
                    .index(j)
                    .key("constraint");
                expr(c, &t, f);
                t.truncate(0);
            }
        }
    }
    for (i, e) in pack.events.iter().enumerate() {
        t.key("events").index(i);
        responses(&e.on_success, "on_success", &mut t, f);
        responses(&e.on_failure, "on_failure", &mut t, f);
        t.truncate(0);
    }
    for (i, s) in pack.triggers.iter().enumerate() {
        for (j, tr) in s.triggers.iter().enumerate() {
            t.key("triggers")
                .index(i)
                .key("triggers")
                .index(j)
                .key("when");
            cond(&tr.when, &mut t, f);
            t.truncate(4);
            responses(&tr.responses, "responses", &mut t, f);
            t.truncate(0);
        }
    }
    for (i, ct) in pack.tests.iter().enumerate() {
        t.key("tests").index(i).key("expr");
        expr(&ct.expr, &t, f);
        t.truncate(0);
    }
}

/// The flags and counters an expression reads, where `t` is.
fn expr<'a>(src: &str, t: &Trail<'a>, f: &mut dyn FnMut(Name<'_>, bool, &Trail<'a>)) {
    mentions(src, false, true, &mut |m| match m {
        Mention::Flag(n) => f((false, n), false, t),
        Mention::Counter(n) => f((true, n), false, t),
        Mention::Call { .. } => {}
    });
}

fn node<'a>(
    n: &'a crate::pack::Node,
    t: &mut Trail<'a>,
    f: &mut dyn FnMut(Name<'_>, bool, &Trail<'a>),
) {
    let len = t.len();
    let field = |t: &mut Trail<'a>,
                 k: &'a str,
                 src: &str,
                 f: &mut dyn FnMut(Name<'_>, bool, &Trail<'a>)| {
        t.key(k);
        expr(src, t, f);
        t.truncate(len);
    };
    match &n.kind {
        NodeKind::Guard { condition } => field(t, "condition", condition, f),
        NodeKind::Condition { expr } => field(t, "expr", expr, f),
        NodeKind::Set { var, value } => {
            // `flags.X` / `counters.X` (blackboard and area variables are not flags).
            if let Some((scope, name)) = var.split_once('.') {
                let counter = match scope.trim() {
                    "flags" | "flag" => Some(false),
                    "counters" | "counter" => Some(true),
                    _ => None,
                };
                if let Some(c) = counter {
                    t.key("var");
                    f((c, name.trim_start()), true, t);
                    t.truncate(len);
                }
            }
            field(t, "value", value, f);
        }
        NodeKind::Converse {
            until: Some(until), ..
        } => field(t, "until", until, f),
        _ => {}
    }
    if !n.children.is_empty() {
        t.key("children");
        for (i, c) in n.children.iter().enumerate() {
            t.index(i);
            node(c, t, f);
            t.truncate(len + 1);
        }
        t.truncate(len);
    }
}

/// A trigger condition, then its operands.
fn cond<'a>(c: &'a Cond, t: &mut Trail<'a>, f: &mut dyn FnMut(Name<'_>, bool, &Trail<'a>)) {
    let len = t.len();
    let text = |k: &str| c.params.get(k).and_then(|v| v.as_str());
    for (kind, counter) in [("flag", false), ("counter", true)] {
        if c.kind == kind
            && let Some(name) = text(kind)
        {
            t.key(kind);
            f((counter, name), false, t);
            t.truncate(len);
        }
    }
    if c.kind == "var"
        && let Some(src) = text("expr")
    {
        t.key("expr");
        expr(src, t, f);
        t.truncate(len);
    }
    for (i, o) in c.of.iter().enumerate() {
        t.key("of").index(i);
        cond(o, t, f);
        t.truncate(len);
    }
}

/// A response list at field `k` of where `t` is: everything it names is set, but a copy's
/// `from`, which is read.
fn responses<'a>(
    list: &'a [Response],
    k: &'a str,
    t: &mut Trail<'a>,
    f: &mut dyn FnMut(Name<'_>, bool, &Trail<'a>),
) {
    let len = t.len();
    for (i, r) in list.iter().enumerate() {
        t.key(k).index(i);
        let here = t.len();
        let mut one = |t: &mut Trail<'a>, field: &'a str, name: Name<'_>, write: bool| {
            t.key(field);
            f(name, write, t);
            t.truncate(here);
        };
        match r {
            Response::SetFlag { flag, .. } | Response::ToggleFlag { flag } => {
                one(t, "flag", (false, flag), true)
            }
            Response::SetCounter { counter, .. } | Response::AddCounter { counter, .. } => {
                one(t, "counter", (true, counter), true)
            }
            Response::CopyCounter { from, to } => {
                one(t, "from", (true, from), false);
                one(t, "to", (true, to), true);
            }
            _ => {}
        }
        t.truncate(len);
    }
}
