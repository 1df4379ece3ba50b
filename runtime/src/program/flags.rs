//! Flags and counters, read against written: one read that the world does not declare and
//! nothing in the pack sets (it stays false / 0 for ever, unless a host sets it: a warning,
//! with a "did you mean" among the set ones), and one declared or set that nothing in the pack
//! reads when it is a near miss of a name that is read (a likely typo, a warning with the "did
//! you mean": among the names read and never set first, else among all read ones). A set name
//! nothing reads and no read name is near is an outcome for the host or the story's record
//! (the chronicle sample sets fifteen), not reported.
//!
//! A write is a declaration in `world.flags`/`world.counters`, a `set` node's `var`, or a
//! response that sets, toggles, adds to or copies into one; a read is a name in an expression
//! (conditions, guards, `set` values, `converse`'s `until`, template constraints, trigger
//! `var` conditions, content tests), a `flag`/`counter` trigger condition or a copy's `from`.
//! Event preconditions (whose unknown names the story pass reports) and the editor's
//! breakpoints (a condition, a watched `flags.X`) only *watch*: they keep a set name from
//! being reported as unread, and are never reported themselves.
//!
//! Cost: the pack is walked once without paths to find which names are read and which are
//! written; only when a name needs a diagnostic is it walked again, writing out the paths of
//! that name's uses.

use std::collections::{BTreeMap, BTreeSet};

use super::names::hint;
use super::trail::Trail;
use crate::expr::{Mention, mentions};
use crate::pack::{BreakOn, Cond, NodeKind, Pack, Response};

/// A flag (`false`) or a counter (`true`) and its name.
type Name<'n> = (bool, &'n str);

/// What a place does with a flag or counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Use {
    Read,
    Write,
    /// Read by an event precondition or a breakpoint (see the module documentation).
    Watch,
}

/// Whether a name is read, written, watched.
#[derive(Clone, Copy, Default)]
struct Usage {
    read: bool,
    written: bool,
    watched: bool,
}

/// Every flag and counter diagnostic of the pack.
pub(super) fn check(pack: &Pack) -> Vec<crate::pack::Diagnostic> {
    // Flags, then counters: name → usage.
    let mut usage: [BTreeMap<String, Usage>; 2] = Default::default();
    visit(pack, &mut |(counter, name), how, _| {
        let map = &mut usage[usize::from(counter)];
        let u = match map.get_mut(name) {
            Some(u) => u,
            None => map.entry(name.to_string()).or_default(),
        };
        match how {
            Use::Read => u.read = true,
            Use::Write => u.written = true,
            Use::Watch => u.watched = true,
        }
    });
    // What is reported: (counter, name, the writes (else the reads)) → its message.
    let mut wanted: BTreeMap<(bool, String, Use), String> = BTreeMap::new();
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
                (counter, name.to_string(), Use::Read),
                format!(
                    "reads {what} `{name}`, which the world does not declare and nothing in the \
                     pack sets: it stays {always}{h}"
                ),
            );
        }
        let read: BTreeSet<&str> = map
            .iter()
            .filter(|(_, u)| u.read || u.watched)
            .map(|(n, _)| n.as_str())
            .collect();
        for (name, u) in map {
            if !u.written || u.read || u.watched {
                continue;
            }
            // A near miss of a name read and never set is the likeliest typo.
            let mut h = hint(name, &unset);
            if h.is_empty() {
                h = hint(name, &read);
            }
            if h.is_empty() {
                continue; // an outcome for the host or the story's record, not a typo
            }
            wanted.insert(
                (counter, name.clone(), Use::Write),
                format!("declares or sets {what} `{name}`, which nothing in the pack reads{h}"),
            );
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    // The paths of the reported uses, in document order.
    let mut paths: BTreeMap<(bool, String, Use), Vec<String>> = BTreeMap::new();
    visit(pack, &mut |(counter, name), how, t| {
        let k = (counter, name.to_string(), how);
        if wanted.contains_key(&k) {
            paths.entry(k).or_default().push(t.path());
        }
    });
    // Reads nothing sets first, flags before counters, by name; then the unread writes.
    let mut out = Vec::new();
    for how in [Use::Read, Use::Write] {
        for ((counter, name, w), msg) in &wanted {
            if *w != how {
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

/// Calls `f` with every flag and counter use of the pack, in document order, where it is (the
/// path of the field holding the name, or of the map entry declaring it).
fn visit<'a>(pack: &'a Pack, f: &mut dyn FnMut(Name<'_>, Use, &Trail<'a>)) {
    let mut t = Trail::new();
    let w = &pack.world;
    let flags = w.flags.keys().map(|n| (false, n));
    for (counter, name) in flags.chain(w.counters.keys().map(|n| (true, n))) {
        let field = if counter { "counters" } else { "flags" };
        t.key("world").key(field).key(name);
        f((counter, name), Use::Write, &t);
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
                expr(c, Use::Read, &t, f);
                t.truncate(0);
            }
        }
    }
    for (i, e) in pack.events.iter().enumerate() {
        t.key("events").index(i);
        if let Some(p) = &e.precondition {
            t.key("precondition");
            expr(p, Use::Watch, &t, f);
            t.truncate(2);
        }
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
        expr(&ct.expr, Use::Read, &t, f);
        t.truncate(0);
    }
    for (i, b) in pack.editor.breakpoints.iter().enumerate() {
        t.key("editor").key("breakpoints").index(i);
        if let BreakOn::Data { var } = &b.on
            && let Some(name) = scoped(var)
        {
            t.key("var");
            f(name, Use::Watch, &t);
            t.truncate(3);
        }
        if let Some(c) = &b.condition {
            t.key("condition");
            expr(c, Use::Watch, &t, f);
        }
        t.truncate(0);
    }
}

/// `flags.X` / `counters.X` as a `set` node or a data breakpoint writes it (blackboard and
/// area variables are not flags).
fn scoped(var: &str) -> Option<Name<'_>> {
    let (scope, name) = var.split_once('.')?;
    match scope.trim() {
        "flags" | "flag" => Some((false, name.trim_start())),
        "counters" | "counter" => Some((true, name.trim_start())),
        _ => None,
    }
}

/// The flags and counters an expression reads, where `t` is.
fn expr<'a>(src: &str, how: Use, t: &Trail<'a>, f: &mut dyn FnMut(Name<'_>, Use, &Trail<'a>)) {
    mentions(src, false, true, &mut |m| match m {
        Mention::Flag(n) => f((false, n), how, t),
        Mention::Counter(n) => f((true, n), how, t),
        Mention::Call { .. } => {}
    });
}

fn node<'a>(
    n: &'a crate::pack::Node,
    t: &mut Trail<'a>,
    f: &mut dyn FnMut(Name<'_>, Use, &Trail<'a>),
) {
    let len = t.len();
    let field =
        |t: &mut Trail<'a>, k: &'a str, src: &str, f: &mut dyn FnMut(Name<'_>, Use, &Trail<'a>)| {
            t.key(k);
            expr(src, Use::Read, t, f);
            t.truncate(len);
        };
    match &n.kind {
        NodeKind::Guard { condition } => field(t, "condition", condition, f),
        NodeKind::Condition { expr } => field(t, "expr", expr, f),
        NodeKind::Set { var, value } => {
            if let Some(name) = scoped(var) {
                t.key("var");
                f(name, Use::Write, t);
                t.truncate(len);
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
fn cond<'a>(c: &'a Cond, t: &mut Trail<'a>, f: &mut dyn FnMut(Name<'_>, Use, &Trail<'a>)) {
    let len = t.len();
    let text = |k: &str| c.params.get(k).and_then(|v| v.as_str());
    for (kind, counter) in [("flag", false), ("counter", true)] {
        if c.kind == kind
            && let Some(name) = text(kind)
        {
            t.key(kind);
            f((counter, name), Use::Read, t);
            t.truncate(len);
        }
    }
    if c.kind == "var"
        && let Some(src) = text("expr")
    {
        t.key("expr");
        expr(src, Use::Read, t, f);
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
    f: &mut dyn FnMut(Name<'_>, Use, &Trail<'a>),
) {
    let len = t.len();
    for (i, r) in list.iter().enumerate() {
        t.key(k).index(i);
        let here = t.len();
        let mut one = |t: &mut Trail<'a>, field: &'a str, name: Name<'_>, how: Use| {
            t.key(field);
            f(name, how, t);
            t.truncate(here);
        };
        match r {
            Response::SetFlag { flag, .. } | Response::ToggleFlag { flag } => {
                one(t, "flag", (false, flag), Use::Write)
            }
            Response::SetCounter { counter, .. } | Response::AddCounter { counter, .. } => {
                one(t, "counter", (true, counter), Use::Write)
            }
            Response::CopyCounter { from, to } => {
                one(t, "from", (true, from), Use::Read);
                one(t, "to", (true, to), Use::Write);
            }
            _ => {}
        }
        t.truncate(len);
    }
}
