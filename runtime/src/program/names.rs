//! Name checks: the names in a pack that are not asset ids — behavior (template) names, area
//! kinds, tags, inboxes and message kinds, NPC variables, items and object states — each
//! matched against everything in the pack that could supply it, so that a typo is reported at
//! the JSON path of its use, with a "did you mean", instead of misbehaving silently at run
//! time. Flags and counters are [`super::flags`]'s; the numbers that make an asset dead and
//! empty ids are [`super::dead`]'s.
//!
//! A pack is one document (nothing adds names to it at run time but what it says itself:
//! spawned NPCs copy its prototypes, dynamic areas its prototype areas), so a name nothing in
//! the pack can supply is an error. Where something outside the pack may still supply it, or
//! the use still does something, it is a warning: a message kind or inbox only one side
//! names (the host and the debugger can send messages; inboxes appear when a message
//! arrives), a tag nobody carries (`has_tag` is then false), a `prefer`/`forbid` entry no
//! template matches (the request still chooses among the others), an item or object state
//! that is a near miss of a known one (a host gives items and sets states).
//!
//! Cost: one walk over every node of every tree serves every check here and [`super::dead`]'s
//! (the walk keeps its JSON path as a [`Trail`], written out only for a diagnostic); names are
//! borrowed from the pack, and expressions are read through the expression lexer's tokens
//! ([`crate::expr::mentions`]), only when their text can hold a call with a string argument.

use std::collections::{BTreeMap, BTreeSet};

use super::trail::{Saved, Trail, render};
use crate::expr::{Mention, mentions};
use crate::pack::diag::{index, key};
use crate::pack::{AreaDef, Cond, Diagnostic, Node, NodeKind, Pack, Response, Severity};

/// Every name diagnostic of the pack (and those of [`super::flags`] and [`super::dead`]),
/// check by check.
pub(crate) fn check(pack: &Pack) -> Vec<Diagnostic> {
    let mut n = Names::collect(pack);
    let mut dead = super::dead::Dead::default();
    n.trees(pack, &mut dead);
    n.uses(pack);
    n.inboxes();
    n.npc_vars(pack);
    n.messages();
    let mut out = n.out;
    out.append(&mut n.unserved);
    out.extend(super::flags::check(pack));
    out.extend(dead.finish(pack));
    out
}

/// `(did you mean `x`?)`, or nothing.
pub(super) fn hint(word: &str, known: &BTreeSet<&str>) -> String {
    let known: Vec<&str> = known.iter().copied().collect();
    crate::pack::suggest(word, &known)
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

/// A message kind used somewhere: the inbox it goes to (None: any) and where.
struct MessageUse<'a> {
    message: &'a str,
    inbox: Option<&'a str>,
    at: Saved<'a>,
}

#[derive(Default)]
struct Names<'a> {
    templates: BTreeSet<&'a str>,
    kinds: BTreeSet<&'a str>,
    tags: BTreeSet<&'a str>,
    inboxes: BTreeSet<&'a str>,
    items: BTreeSet<&'a str>,
    states: BTreeSet<&'a str>,
    sent: Vec<MessageUse<'a>>,
    /// Message kinds read by name.
    read: Vec<MessageUse<'a>>,
    /// Inboxes some reader takes every message from (no `message` filter).
    read_all: BTreeSet<&'a str>,
    /// Inbox names as used: (where, name, by a reader).
    inbox_uses: Vec<(Saved<'a>, &'a str, bool)>,
    /// By tree index: the trees its `subtree` nodes name.
    subtrees: Vec<Vec<&'a str>>,
    /// The behaviors the areas of a kind (None: any area) and their ancestors offer.
    offered: BTreeMap<Option<&'a str>, BTreeSet<&'a str>>,
    out: Vec<Diagnostic>,
    /// Request nodes no area can serve (reported after the other checks).
    unserved: Vec<Diagnostic>,
}

/// Calls `f` with every response list of the pack and where it is.
pub(super) fn response_lists<'a>(pack: &'a Pack, mut f: impl FnMut(&Trail<'a>, &'a [Response])) {
    let mut t = Trail::new();
    for (i, e) in pack.events.iter().enumerate() {
        t.key("events").index(i).key("on_success");
        f(&t, &e.on_success);
        t.truncate(2);
        t.key("on_failure");
        f(&t, &e.on_failure);
        t.truncate(0);
    }
    for (i, s) in pack.triggers.iter().enumerate() {
        for (j, tr) in s.triggers.iter().enumerate() {
            t.key("triggers")
                .index(i)
                .key("triggers")
                .index(j)
                .key("responses");
            f(&t, &tr.responses);
            t.truncate(0);
        }
    }
}

impl<'a> Names<'a> {
    /// What the pack defines.
    fn collect(pack: &'a Pack) -> Names<'a> {
        let mut n = Names::default();
        n.inboxes.insert("default");
        for a in &pack.areas {
            n.kinds.extend(a.kinds.iter().map(String::as_str));
            n.inboxes.extend(a.inboxes.iter().map(String::as_str));
            for t in &a.templates {
                n.templates.insert(&t.name);
                n.inboxes.extend(t.inboxes.iter().map(String::as_str));
            }
        }
        for npc in &pack.world.npcs {
            n.tags.extend(npc.tags.iter().map(String::as_str));
            n.inboxes.extend(npc.inboxes.iter().map(String::as_str));
            n.items.extend(npc.items.iter().map(String::as_str));
            n.items.extend(npc.equipped.iter().map(String::as_str));
        }
        for o in &pack.world.objects {
            n.tags.extend(o.tags.iter().map(String::as_str));
            n.states.extend(o.state.as_deref());
        }
        let (mut items, mut states) = (Vec::new(), Vec::new());
        response_lists(pack, |_, list| {
            for r in list {
                match r {
                    Response::GiveItem { item, .. } => items.push(item.as_str()),
                    Response::SetObjectState { state, .. } => states.push(state.as_str()),
                    _ => {}
                }
            }
        });
        n.items.extend(items);
        n.states.extend(states);
        n
    }

    fn template(&mut self, path: String, name: &str) -> Option<Diagnostic> {
        if self.templates.contains(name) {
            return None;
        }
        let h = hint(name, &self.templates);
        Some(Diagnostic::error(
            path,
            format!("no area template (behavior) is called `{name}` anywhere in the pack{h}"),
        ))
    }
    /// A `holders`, `enable_template` or `message_holders` behavior name.
    fn template_at(&mut self, t: &Trail<'_>, k: &str, name: &str) {
        if !self.templates.contains(name)
            && let Some(d) = self.template(t.path_key(k), name)
        {
            self.out.push(d);
        }
    }
    /// A request's `prefer`/`forbid` entry: the request still works with the other
    /// behaviors, so an unknown name is a warning.
    fn preference(&mut self, path: impl FnOnce() -> String, name: &str) {
        if !self.templates.contains(name) {
            let h = hint(name, &self.templates);
            self.out.push(Diagnostic::warning(
                path(),
                format!(
                    "no area template (behavior) is called `{name}` anywhere in the pack, so \
                     this entry never matches{h}"
                ),
            ));
        }
    }
    /// An item or object state the pack never supplies: the host may (a game gives items
    /// and sets states), so only a near miss of a known name is reported, as a warning.
    fn near_miss(&mut self, path: String, what: &str, name: &str, states: bool) {
        let known = if states { &self.states } else { &self.items };
        if known.contains(name) {
            return;
        }
        let h = hint(name, known);
        if !h.is_empty() {
            self.out.push(Diagnostic::warning(
                path,
                format!("nothing in the pack supplies {what} `{name}`{h}"),
            ));
        }
    }
    fn kind(&mut self, t: &Trail<'_>, k: &str, name: &str) {
        if !self.kinds.contains(name) {
            let h = hint(name, &self.kinds);
            self.out.push(Diagnostic::error(
                t.path_key(k),
                format!("no area kind is called `{name}` anywhere in the pack{h}"),
            ));
        }
    }
    /// A tag no NPC or object carries: the call is always false, which a negated test may
    /// mean, so a warning.
    fn tag(&mut self, path: impl FnOnce() -> String, name: &str) -> Option<Diagnostic> {
        if self.tags.contains(name) {
            return None;
        }
        let h = hint(name, &self.tags);
        Some(Diagnostic::warning(
            path(),
            format!(
                "no NPC or object has tag `{name}` anywhere in the pack, so this is always \
                 false{h}"
            ),
        ))
    }
    /// An inbox used at field `inbox` of where `t` is, by a reader (`read`) or a sender;
    /// checked by [`Self::inboxes`].
    fn inbox(&mut self, t: &Trail<'a>, name: &'a str, read: bool) {
        self.inbox_uses.push((t.save(Some("inbox")), name, read));
    }

    /// Inboxes come into being when a message arrives, so an inbox name is good when it is
    /// declared or the other side uses it too; one that only readers (or only senders) name
    /// is a warning (a host or the debugger may still send to it).
    fn inboxes(&mut self) {
        let side = |read: bool| -> BTreeSet<&'a str> {
            self.inbox_uses
                .iter()
                .filter(|u| u.2 == read)
                .map(|u| u.1)
                .collect()
        };
        let (readers, senders) = (side(true), side(false));
        let mut out = Vec::new();
        for (at, name, read) in &self.inbox_uses {
            let other = if *read { &senders } else { &readers };
            if self.inboxes.contains(name) || other.contains(name) {
                continue;
            }
            let known: BTreeSet<&str> = self.inboxes.union(other).copied().collect();
            let msg = if *read {
                format!(
                    "no NPC or area declares inbox `{name}` and nothing in the pack sends to it, \
                     so this never finds a message{}",
                    hint(name, &known)
                )
            } else {
                format!(
                    "no NPC or area declares inbox `{name}` and nothing in the pack reads it{}",
                    hint(name, &known)
                )
            };
            out.push(Diagnostic::warning(render(at), msg));
        }
        self.out.extend(out);
    }

    /// An expression's behavior names (`holders`) and tags (`has_tag`, `subject_has`), at
    /// field `k` of where `t` is; a diagnostic points at the name inside the expression.
    fn expr(&mut self, t: &Trail<'_>, k: &str, src: &str) {
        let mut calls: Vec<(u8, String, usize)> = Vec::new();
        mentions(src, true, false, &mut |m| {
            if let Mention::Call { func, arg, at } = m {
                let order = match func {
                    "holders" => 0,
                    "has_tag" => 1,
                    "subject_has" => 2,
                    _ => return,
                };
                calls.push((order, arg.to_string(), at));
            }
        });
        if calls.is_empty() {
            return;
        }
        // Behavior names first, then `has_tag`, then `subject_has` tags, each in source order.
        calls.sort_by_key(|c| c.0);
        for (order, name, at) in calls {
            let d = if order == 0 {
                self.template(t.path_key(k), &name)
            } else {
                self.tag(|| t.path_key(k), &name)
            };
            self.out.extend(d.map(|d| d.inside(at)));
        }
    }

    fn read(&mut self, t: &Trail<'a>, inbox: &'a str, message: &'a Option<String>) {
        match message {
            Some(m) => self.read.push(MessageUse {
                message: m,
                inbox: Some(inbox),
                at: t.save(Some("message")),
            }),
            None => {
                self.read_all.insert(inbox);
            }
        }
    }

    fn sent(&mut self, t: &Trail<'a>, inbox: &'a str, message: &'a str) {
        self.sent.push(MessageUse {
            message,
            inbox: Some(inbox),
            at: t.save(Some("message")),
        });
    }

    /// Every node of every tree, once, for every check (and [`super::dead`]'s).
    fn trees(&mut self, pack: &'a Pack, dead: &mut super::dead::Dead) {
        let mut t = Trail::new();
        self.subtrees = vec![Vec::new(); pack.trees.len()];
        for (i, tree) in pack.trees.iter().enumerate() {
            t.key("trees").index(i).key("root");
            self.walk(pack, i, &tree.root, &mut t, dead);
            t.truncate(0);
        }
    }

    fn walk(
        &mut self,
        pack: &'a Pack,
        tree: usize,
        n: &'a Node,
        t: &mut Trail<'a>,
        dead: &mut super::dead::Dead,
    ) {
        self.node(pack, tree, n, t);
        dead.node(n, t);
        if n.children.is_empty() {
            return;
        }
        let len = t.len();
        t.key("children");
        for (i, c) in n.children.iter().enumerate() {
            t.index(i);
            self.walk(pack, tree, c, t, dead);
            t.truncate(len + 1);
        }
        t.truncate(len);
    }

    fn node(&mut self, pack: &'a Pack, tree: usize, n: &'a Node, t: &mut Trail<'a>) {
        match &n.kind {
            NodeKind::Guard { condition } => self.expr(t, "condition", condition),
            NodeKind::Condition { expr } => self.expr(t, "expr", expr),
            NodeKind::Set { value, .. } => self.expr(t, "value", value),
            NodeKind::HasMessage { inbox, message }
            | NodeKind::Receive { inbox, message, .. }
            | NodeKind::Peek { inbox, message, .. }
            | NodeKind::WaitMessage { inbox, message, .. } => {
                self.inbox(t, inbox, true);
                self.read(t, inbox, message);
            }
            NodeKind::SendMessage { inbox, message, .. } => {
                self.inbox(t, inbox, false);
                self.sent(t, inbox, message);
            }
            NodeKind::MessageHolders {
                template,
                inbox,
                message,
            } => {
                if let Some(name) = template {
                    self.template_at(t, "template", name);
                }
                self.inbox(t, inbox, false);
                self.sent(t, inbox, message);
            }
            NodeKind::Request {
                prefer,
                forbid,
                area_kind,
            } => {
                for (i, p) in prefer.iter().enumerate() {
                    let at = || key(&index(&t.path_key("prefer"), i), "template");
                    self.preference(at, &p.template);
                }
                for (i, f) in forbid.iter().enumerate() {
                    self.preference(|| index(&t.path_key("forbid"), i), f);
                }
                if let Some(k) = area_kind {
                    self.kind(t, "area_kind", k);
                }
                self.request(pack, t, prefer, forbid, area_kind.as_deref());
            }
            NodeKind::GoToChild { kind, .. } => self.kind(t, "kind", kind),
            NodeKind::EnableTemplate { template, .. } => self.template_at(t, "template", template),
            NodeKind::Subtree { tree: sub } => self.subtrees[tree].push(sub),
            _ => {}
        }
    }

    /// The uses outside trees: template constraints, event preconditions, content tests,
    /// responses, trigger conditions and the editor's breakpoint conditions.
    fn uses(&mut self, pack: &'a Pack) {
        let mut t = Trail::new();
        for (i, a) in pack.areas.iter().enumerate() {
            for (j, tm) in a.templates.iter().enumerate() {
                if let Some(c) = &tm.constraint {
                    t.key("areas").index(i).key("templates").index(j);
                    self.expr(&t, "constraint", c);
                    t.truncate(0);
                }
            }
        }
        for (i, e) in pack.events.iter().enumerate() {
            if let Some(c) = &e.precondition {
                t.key("events").index(i);
                self.expr(&t, "precondition", c);
                t.truncate(0);
            }
        }
        for (i, ct) in pack.tests.iter().enumerate() {
            t.key("tests").index(i);
            self.expr(&t, "expr", &ct.expr);
            if let Some(tag) = &ct.tag {
                let d = self.tag(|| t.path_key("tag"), tag);
                self.out.extend(d);
            }
            t.truncate(0);
        }
        let mut sends = Vec::new();
        response_lists(pack, |t, list| {
            for (k, r) in list.iter().enumerate() {
                if let Response::SendMessage { inbox, message, .. } = r {
                    let mut p = t.clone();
                    p.index(k);
                    sends.push((p, inbox.as_str(), message.as_str()));
                }
            }
        });
        for (p, inbox, message) in sends {
            self.inbox(&p, inbox, false);
            self.sent(&p, inbox, message);
        }
        for (i, s) in pack.triggers.iter().enumerate() {
            for (j, tr) in s.triggers.iter().enumerate() {
                t.key("triggers")
                    .index(i)
                    .key("triggers")
                    .index(j)
                    .key("when");
                self.cond(&tr.when, &mut t);
                t.truncate(0);
            }
        }
        // Breakpoint conditions: the editor section never changes what the pack does, so a
        // name there that can never match is a warning, whatever it would be in a tree.
        for (i, b) in pack.editor.breakpoints.iter().enumerate() {
            if let Some(c) = &b.condition {
                t.key("editor").key("breakpoints").index(i);
                let before = self.out.len();
                self.expr(&t, "condition", c);
                for d in &mut self.out[before..] {
                    d.severity = Severity::Warning;
                    d.message = format!("breakpoint {}: {}", b.id, d.message);
                }
                t.truncate(0);
            }
        }
    }

    /// A trigger condition: its operands first, then itself.
    fn cond(&mut self, c: &'a Cond, t: &mut Trail<'a>) {
        let len = t.len();
        for (i, o) in c.of.iter().enumerate() {
            t.key("of").index(i);
            self.cond(o, t);
            t.truncate(len);
        }
        let text = |k: &str| c.params.get(k).and_then(|v| v.as_str());
        match c.kind.as_str() {
            "received" => {
                if let Some(m) = text("message") {
                    self.read.push(MessageUse {
                        message: m,
                        inbox: None,
                        at: t.save(Some("message")),
                    });
                }
            }
            "has_item" | "equipped" => {
                if let Some(item) = text("item") {
                    self.near_miss(t.path_key("item"), "item", item, false);
                }
            }
            "object_state" => {
                if let Some(st) = text("state") {
                    self.near_miss(t.path_key("state"), "object state", st, true);
                }
            }
            "var" => {
                if let Some(src) = text("expr") {
                    self.expr(t, "expr", src);
                }
            }
            _ => {}
        }
    }

    /// Message kinds sent that nothing reads, and read that nothing sends.
    fn messages(&mut self) {
        let sent: BTreeSet<&str> = self.sent.iter().map(|m| m.message).collect();
        let read: BTreeSet<&str> = self.read.iter().map(|m| m.message).collect();
        let others = |set: &BTreeSet<&'a str>, m: &str| -> BTreeSet<&'a str> {
            set.iter().filter(|s| **s != m).copied().collect()
        };
        let mut out = Vec::new();
        for r in &self.read {
            if !sent.contains(r.message) {
                out.push(Diagnostic::warning(
                    render(&r.at),
                    format!(
                        "nothing in the pack sends a `{}` message, so this waits in vain{}",
                        r.message,
                        hint(r.message, &others(&sent, r.message))
                    ),
                ));
            }
        }
        for s in &self.sent {
            let drained = s.inbox.is_some_and(|b| self.read_all.contains(b));
            let named = self
                .read
                .iter()
                .any(|r| r.message == s.message && (r.inbox.is_none() || r.inbox == s.inbox));
            if !drained && !named {
                let inbox = s.inbox.unwrap_or("default");
                out.push(Diagnostic::warning(
                    render(&s.at),
                    format!(
                        "nothing in the pack reads a `{}` message from inbox `{inbox}`{}",
                        s.message,
                        hint(s.message, &others(&read, s.message))
                    ),
                ));
            }
        }
        self.out.extend(out);
    }

    /// An NPC's `vars` against its tree's blackboard (the tree and the subtrees it runs).
    fn npc_vars(&mut self, pack: &'a Pack) {
        if pack.world.npcs.iter().all(|n| n.vars.is_empty()) {
            return;
        }
        let trees: BTreeMap<&str, usize> = pack
            .trees
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.as_str(), i))
            .collect();
        for (i, npc) in pack.world.npcs.iter().enumerate() {
            if npc.vars.is_empty() {
                continue;
            }
            let Some(&root) = trees.get(npc.tree.as_str()) else {
                continue; // an unknown tree, already reported
            };
            // The tree and every subtree it reaches share the NPC's blackboard.
            let mut seen = BTreeSet::from([root]);
            let mut todo = vec![root];
            let mut vars: BTreeSet<&str> = BTreeSet::new();
            while let Some(t) = todo.pop() {
                vars.extend(pack.trees[t].blackboard.keys().map(String::as_str));
                for sub in &self.subtrees[t] {
                    if let Some(&s) = trees.get(sub)
                        && seen.insert(s)
                    {
                        todo.push(s);
                    }
                }
            }
            for name in npc.vars.keys() {
                if vars.contains(name.as_str()) {
                    continue;
                }
                let path = key(&key(&index("world.npcs", i), "vars"), name);
                let others: Vec<&str> = pack
                    .trees
                    .iter()
                    .filter(|t| t.blackboard.contains_key(name))
                    .map(|t| t.id.as_str())
                    .collect();
                let adoptable = pack.areas.iter().flat_map(|a| &a.templates).any(|t| {
                    pack.trees
                        .iter()
                        .any(|d| d.id == t.tree && d.blackboard.contains_key(name))
                });
                if adoptable {
                    continue; // a behavior the NPC may adopt from an area reads it
                }
                if others.is_empty() {
                    self.out.push(Diagnostic::error(
                        path,
                        format!(
                            "`{name}` is not a variable of tree `{}`: no tree declares it, so the \
                             value is never read{}",
                            npc.tree,
                            hint(name, &vars)
                        ),
                    ));
                } else {
                    self.out.push(Diagnostic::warning(
                        path,
                        format!(
                            "`{name}` is not a variable of tree `{}`, which never reads it (only \
                             {} declare{} it){}",
                            npc.tree,
                            others
                                .iter()
                                .map(|t| format!("`{t}`"))
                                .collect::<Vec<_>>()
                                .join(", "),
                            if others.len() == 1 { "s" } else { "" },
                            hint(name, &vars)
                        ),
                    ));
                }
            }
        }
    }

    /// A request node no area can ever serve: the behaviors it may be given are those of the
    /// areas it can start asking in (of its `area_kind`, if given; else any) and of their
    /// ancestors, narrowed to its `prefer` names when it has some, less its `forbid` names.
    fn request(
        &mut self,
        pack: &'a Pack,
        t: &Trail<'_>,
        prefer: &[crate::pack::Preference],
        forbid: &[String],
        area_kind: Option<&'a str>,
    ) {
        let offered = self
            .offered
            .entry(area_kind)
            .or_insert_with(|| offered(pack, area_kind));
        let servable = offered.iter().any(|t| {
            (prefer.is_empty() || prefer.iter().any(|p| p.template == *t))
                && !forbid.iter().any(|f| f == t)
        });
        if servable {
            return;
        }
        let where_ = match area_kind {
            Some(k) => format!("no area of kind `{k}` (or above one)"),
            None => "no area".to_string(),
        };
        let what = if prefer.is_empty() {
            "any behavior".to_string()
        } else {
            let names: Vec<String> = prefer.iter().map(|p| format!("`{}`", p.template)).collect();
            names.join(", ")
        };
        self.unserved.push(Diagnostic::warning(
            t.path(),
            format!("{where_} offers {what}, so this request is never served"),
        ));
    }
}

/// The behaviors offered to a request of `area_kind` (None: any area): the templates of the
/// areas of that kind and of their ancestors (a parent cycle is reported elsewhere).
fn offered<'a>(pack: &'a Pack, area_kind: Option<&str>) -> BTreeSet<&'a str> {
    let by_id: BTreeMap<&str, &AreaDef> = pack.areas.iter().map(|a| (a.id.as_str(), a)).collect();
    let mut offered = BTreeSet::new();
    for a in &pack.areas {
        if area_kind.is_some_and(|k| !a.kinds.iter().any(|x| x == k)) {
            continue;
        }
        let mut cur = Some(a);
        let mut seen = BTreeSet::new();
        while let Some(x) = cur {
            if !seen.insert(x.id.as_str()) {
                break;
            }
            offered.extend(x.templates.iter().map(|t| t.name.as_str()));
            cur = x.parent.as_deref().and_then(|p| by_id.get(p).copied());
        }
    }
    offered
}

#[cfg(test)]
mod tests {
    use crate::expr::{Mention, mentions};

    fn all(src: &str) -> Vec<String> {
        let mut out = Vec::new();
        mentions(src, true, true, &mut |m| {
            out.push(match m {
                Mention::Flag(n) => format!("flag {n}"),
                Mention::Counter(n) => format!("counter {n}"),
                Mention::Call { func, arg, at } => format!("{func}({arg}) at {at}"),
            })
        });
        out
    }

    #[test]
    fn mentions_come_from_the_tokens() {
        // String literals are no calls; a call's argument is located after its quote.
        assert_eq!(
            all(r#"has_tag("a") && "has_tag(\"b\")" != x && has_tags("c") || has_tag ( "d" )"#),
            ["has_tag(a) at 9", "has_tags(c) at 51", "has_tag(d) at 69"]
        );
        // Scopes with or without spaces; the name after `area.` is no scope of its own.
        assert_eq!(
            all("flags . b && counter.c > 1 && area.flags.x && !flag.d"),
            ["flag b", "counter c", "flag d"]
        );
        // Text that does not lex: the mentions before the first error.
        assert_eq!(all(r#"holders("x") > 0 & flags.y"#), ["holders(x) at 9"]);
        // Nothing to find: not lexed (an unlexable text gives nothing either way).
        assert!(all("hunger > 0.5 && ` && tired").is_empty());
    }
}
