//! Name checks: the names in a pack that are not asset ids — behavior (template) names, area
//! kinds, tags, inboxes and message kinds, NPC variables, items and object states — each
//! matched against everything in the pack that could supply it, so that a typo is reported at
//! the JSON path of its use, with a "did you mean", instead of misbehaving silently at run
//! time. The numbers that make an asset dead and empty ids are [`super::dead`]'s.
//!
//! A pack is one document (nothing adds names to it at run time but what it says itself:
//! spawned NPCs copy its prototypes, dynamic areas its prototype areas), so a name nothing in
//! the pack can supply is an error. Where something outside the pack may still supply it, or
//! the use still does something, it is a warning: a message kind or inbox only one side
//! names (the host and the debugger can send messages; inboxes appear when a message
//! arrives), a tag nobody carries (`has_tag` is then false), a `prefer`/`forbid` entry no
//! template matches (the request still chooses among the others), an item or object state
//! that is a near miss of a known one (a host gives items and sets states).

use std::collections::{BTreeMap, BTreeSet};

use crate::pack::diag::{index, key};
use crate::pack::{Cond, Diagnostic, Node, NodeKind, Pack, Response, TriggerSystemDef};

/// Every name diagnostic of the pack (and those of [`super::dead`]), check by check.
pub(crate) fn check(pack: &Pack) -> Vec<Diagnostic> {
    let mut n = Names::collect(pack);
    n.uses(pack);
    n.inboxes();
    n.npc_vars(pack);
    n.messages();
    n.requests(pack);
    n.flags_and_counters(pack);
    n.out.extend(super::dead::check(pack));
    n.out
}

/// `(did you mean `x`?)`, or nothing.
fn hint(word: &str, known: &BTreeSet<String>) -> String {
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    crate::pack::suggest(word, &known)
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

/// The string arguments of calls to `func` in an expression (`has_tag("x")` gives `x`), each
/// with the character offset of the name in the expression.
fn string_args(src: &str, func: &str) -> Vec<(String, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let string_end = |mut j: usize| {
        j += 1;
        while j < b.len() && b[j] != b'"' {
            if b[j] == b'\\' {
                j += 1;
            }
            j += 1;
        }
        (j + 1).min(b.len())
    };
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            i = string_end(i);
            continue;
        }
        if !(c.is_ascii_alphabetic() || c == b'_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if &src[start..i] != func {
            continue;
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j >= b.len() || b[j] != b'(' {
            continue;
        }
        j += 1;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < b.len() && b[j] == b'"' {
            let end = string_end(j);
            if let Some(raw) = src.get(j + 1..end.saturating_sub(1))
                && !raw.contains('\\')
            {
                out.push((raw.to_string(), src[..j + 1].chars().count()));
            }
            i = end;
        }
    }
    out
}

/// A message kind used somewhere: the inbox it goes to (None: any) and where.
struct MessageUse {
    message: String,
    inbox: Option<String>,
    path: String,
}

#[derive(Default)]
struct Names {
    templates: BTreeSet<String>,
    kinds: BTreeSet<String>,
    tags: BTreeSet<String>,
    inboxes: BTreeSet<String>,
    items: BTreeSet<String>,
    states: BTreeSet<String>,
    sent: Vec<MessageUse>,
    /// Message kinds read by name.
    read: Vec<MessageUse>,
    /// Inboxes some reader takes every message from (no `message` filter).
    read_all: BTreeSet<String>,
    /// Inbox names as used: (path, name, by a reader).
    inbox_uses: Vec<(String, String, bool)>,
    out: Vec<Diagnostic>,
}

/// Visits every node of a tree with its JSON path.
pub(super) fn walk<'a>(node: &'a Node, path: String, f: &mut impl FnMut(&'a Node, &str)) {
    f(node, &path);
    for (i, c) in node.children.iter().enumerate() {
        walk(c, index(&key(&path, "children"), i), f);
    }
}

/// Every response list of the pack, with its path.
pub(super) fn response_lists(pack: &Pack) -> Vec<(String, &[Response])> {
    let mut out = Vec::new();
    for (i, e) in pack.events.iter().enumerate() {
        let p = index("events", i);
        out.push((key(&p, "on_success"), e.on_success.as_slice()));
        out.push((key(&p, "on_failure"), e.on_failure.as_slice()));
    }
    for (i, s) in pack.triggers.iter().enumerate() {
        for (j, t) in s.triggers.iter().enumerate() {
            let p = index(&key(&index("triggers", i), "triggers"), j);
            out.push((key(&p, "responses"), t.responses.as_slice()));
        }
    }
    out
}

/// Every trigger condition leaf of a system, with its path.
fn conds<'a>(s: &'a TriggerSystemDef, path: &str, out: &mut Vec<(String, &'a Cond)>) {
    fn rec<'a>(c: &'a Cond, path: String, out: &mut Vec<(String, &'a Cond)>) {
        for (i, o) in c.of.iter().enumerate() {
            rec(o, index(&key(&path, "of"), i), out);
        }
        out.push((path, c));
    }
    for (j, t) in s.triggers.iter().enumerate() {
        rec(&t.when, key(&index(&key(path, "triggers"), j), "when"), out);
    }
}

impl Names {
    /// What the pack defines.
    fn collect(pack: &Pack) -> Names {
        let mut n = Names::default();
        n.inboxes.insert("default".to_string());
        for a in &pack.areas {
            n.kinds.extend(a.kinds.iter().cloned());
            n.inboxes.extend(a.inboxes.iter().cloned());
            for t in &a.templates {
                n.templates.insert(t.name.clone());
                n.inboxes.extend(t.inboxes.iter().cloned());
            }
        }
        for npc in &pack.world.npcs {
            n.tags.extend(npc.tags.iter().cloned());
            n.inboxes.extend(npc.inboxes.iter().cloned());
            n.items.extend(npc.items.iter().cloned());
            n.items.extend(npc.equipped.iter().cloned());
        }
        for o in &pack.world.objects {
            n.tags.extend(o.tags.iter().cloned());
            n.states.extend(o.state.iter().cloned());
        }
        for (_, list) in response_lists(pack) {
            for r in list {
                match r {
                    Response::GiveItem { item, .. } => {
                        n.items.insert(item.clone());
                    }
                    Response::SetObjectState { state, .. } => {
                        n.states.insert(state.clone());
                    }
                    _ => {}
                }
            }
        }
        n
    }

    fn unknown(&mut self, path: String, what: &str, name: &str, known: &BTreeSet<String>) {
        let h = hint(name, known);
        self.out.push(Diagnostic::error(
            path,
            format!("no {what} is called `{name}` anywhere in the pack{h}"),
        ));
    }

    fn template(&mut self, path: String, name: &str) {
        if !self.templates.contains(name) {
            let known = std::mem::take(&mut self.templates);
            self.unknown(path, "area template (behavior)", name, &known);
            self.templates = known;
        }
    }
    /// A request's `prefer`/`forbid` entry: the request still works with the other
    /// behaviors, so an unknown name is a warning.
    fn preference(&mut self, path: String, name: &str) {
        if !self.templates.contains(name) {
            let h = hint(name, &self.templates);
            self.out.push(Diagnostic::warning(
                path,
                format!(
                    "no area template (behavior) is called `{name}` anywhere in the pack, so \
                     this entry never matches{h}"
                ),
            ));
        }
    }
    /// An item or object state the pack never supplies: the host may (a game gives items
    /// and sets states), so only a near miss of a known name is reported, as a warning.
    fn near_miss(&mut self, path: String, what: &str, name: &str, known: &BTreeSet<String>) {
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
    fn kind(&mut self, path: String, name: &str) {
        if !self.kinds.contains(name) {
            let known = std::mem::take(&mut self.kinds);
            self.unknown(path, "area kind", name, &known);
            self.kinds = known;
        }
    }
    /// A tag no NPC or object carries: the call is always false, which a negated test may
    /// mean, so a warning.
    fn tag(&mut self, path: String, name: &str) {
        if !self.tags.contains(name) {
            let h = hint(name, &self.tags);
            self.out.push(Diagnostic::warning(
                path,
                format!(
                    "no NPC or object has tag `{name}` anywhere in the pack, so this is always \
                     false{h}"
                ),
            ));
        }
    }
    /// An inbox used at `path`, by a reader (`read`) or a sender; checked by [`Self::inboxes`].
    fn inbox(&mut self, path: String, name: &str, read: bool) {
        self.inbox_uses.push((path, name.to_string(), read));
    }

    /// Inboxes come into being when a message arrives, so an inbox name is good when it is
    /// declared or the other side uses it too; one that only readers (or only senders) name
    /// is a warning (a host or the debugger may still send to it).
    fn inboxes(&mut self) {
        let side = |read: bool| -> BTreeSet<String> {
            self.inbox_uses
                .iter()
                .filter(|u| u.2 == read)
                .map(|u| u.1.clone())
                .collect()
        };
        let (readers, senders) = (side(true), side(false));
        let mut out = Vec::new();
        for (path, name, read) in &self.inbox_uses {
            let other = if *read { &senders } else { &readers };
            if self.inboxes.contains(name) || other.contains(name) {
                continue;
            }
            let known: BTreeSet<String> = self.inboxes.union(other).cloned().collect();
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
            out.push(Diagnostic::warning(path.clone(), msg));
        }
        self.out.extend(out);
    }

    /// An expression's behavior names and tags.
    /// An expression's behavior names and tags; a diagnostic points at the name inside it.
    fn expr(&mut self, path: String, src: &str) {
        for (t, at) in string_args(src, "holders") {
            let before = self.out.len();
            self.template(path.clone(), &t);
            self.point_inside(before, at);
        }
        for f in ["has_tag", "subject_has"] {
            for (t, at) in string_args(src, f) {
                let before = self.out.len();
                self.tag(path.clone(), &t);
                self.point_inside(before, at);
            }
        }
    }

    /// Points the diagnostics pushed since `before` at character `at` of their string.
    fn point_inside(&mut self, before: usize, at: usize) {
        for d in &mut self.out[before..] {
            *d = d.clone().inside(at);
        }
    }

    fn read(&mut self, path: &str, inbox: &str, message: &Option<String>) {
        match message {
            Some(m) => self.read.push(MessageUse {
                message: m.clone(),
                inbox: Some(inbox.to_string()),
                path: key(path, "message"),
            }),
            None => {
                self.read_all.insert(inbox.to_string());
            }
        }
    }

    fn sent(&mut self, path: &str, inbox: &str, message: &str) {
        self.sent.push(MessageUse {
            message: message.to_string(),
            inbox: Some(inbox.to_string()),
            path: key(path, "message"),
        });
    }

    fn node(&mut self, n: &Node, path: &str) {
        match &n.kind {
            NodeKind::Guard { condition } => self.expr(key(path, "condition"), condition),
            NodeKind::Condition { expr } => self.expr(key(path, "expr"), expr),
            NodeKind::Set { value, .. } => self.expr(key(path, "value"), value),
            NodeKind::HasMessage { inbox, message } => {
                self.inbox(key(path, "inbox"), inbox, true);
                self.read(path, inbox, message);
            }
            NodeKind::Receive { inbox, message, .. }
            | NodeKind::Peek { inbox, message, .. }
            | NodeKind::WaitMessage { inbox, message, .. } => {
                self.inbox(key(path, "inbox"), inbox, true);
                self.read(path, inbox, message);
            }
            NodeKind::SendMessage { inbox, message, .. } => {
                self.inbox(key(path, "inbox"), inbox, false);
                self.sent(path, inbox, message);
            }
            NodeKind::MessageHolders {
                template,
                inbox,
                message,
            } => {
                if let Some(t) = template {
                    self.template(key(path, "template"), t);
                }
                self.inbox(key(path, "inbox"), inbox, false);
                self.sent(path, inbox, message);
            }
            NodeKind::Request {
                prefer,
                forbid,
                area_kind,
            } => {
                for (i, p) in prefer.iter().enumerate() {
                    let at = key(&index(&key(path, "prefer"), i), "template");
                    self.preference(at, &p.template);
                }
                for (i, f) in forbid.iter().enumerate() {
                    self.preference(index(&key(path, "forbid"), i), f);
                }
                if let Some(k) = area_kind {
                    self.kind(key(path, "area_kind"), k);
                }
            }
            NodeKind::GoToChild { kind, .. } => self.kind(key(path, "kind"), kind),
            NodeKind::EnableTemplate { template, .. } => {
                self.template(key(path, "template"), template)
            }
            _ => {}
        }
    }

    /// Every use of a name.
    fn uses(&mut self, pack: &Pack) {
        for (i, t) in pack.trees.iter().enumerate() {
            walk(&t.root, key(&index("trees", i), "root"), &mut |n, p| {
                self.node(n, p)
            });
        }
        for (i, a) in pack.areas.iter().enumerate() {
            for (j, t) in a.templates.iter().enumerate() {
                if let Some(c) = &t.constraint {
                    let p = index(&key(&index("areas", i), "templates"), j);
                    self.expr(key(&p, "constraint"), c);
                }
            }
        }
        for (i, e) in pack.events.iter().enumerate() {
            if let Some(c) = &e.precondition {
                self.expr(key(&index("events", i), "precondition"), c);
            }
        }
        for (i, t) in pack.tests.iter().enumerate() {
            self.expr(key(&index("tests", i), "expr"), &t.expr);
            if let Some(tag) = &t.tag {
                self.tag(key(&index("tests", i), "tag"), tag);
            }
        }
        for (path, list) in response_lists(pack) {
            for (k, r) in list.iter().enumerate() {
                if let Response::SendMessage { inbox, message, .. } = r {
                    let p = index(&path, k);
                    self.inbox(key(&p, "inbox"), inbox, false);
                    self.sent(&p, inbox, message);
                }
            }
        }
        let mut leaves = Vec::new();
        for (i, s) in pack.triggers.iter().enumerate() {
            conds(s, &index("triggers", i), &mut leaves);
        }
        for (path, c) in leaves {
            let text = |k: &str| c.params.get(k).and_then(|v| v.as_str());
            match c.kind.as_str() {
                "received" => {
                    if let Some(m) = text("message") {
                        self.read.push(MessageUse {
                            message: m.to_string(),
                            inbox: None,
                            path: key(&path, "message"),
                        });
                    }
                }
                "has_item" | "equipped" => {
                    if let Some(item) = text("item") {
                        let known = std::mem::take(&mut self.items);
                        self.near_miss(key(&path, "item"), "item", item, &known);
                        self.items = known;
                    }
                }
                "object_state" => {
                    if let Some(st) = text("state") {
                        let known = std::mem::take(&mut self.states);
                        self.near_miss(key(&path, "state"), "object state", st, &known);
                        self.states = known;
                    }
                }
                "var" => {
                    if let Some(src) = text("expr") {
                        self.expr(key(&path, "expr"), src);
                    }
                }
                _ => {}
            }
        }
    }

    /// Message kinds sent that nothing reads, and read that nothing sends.
    fn messages(&mut self) {
        let sent: BTreeSet<String> = self.sent.iter().map(|m| m.message.clone()).collect();
        let read: BTreeSet<String> = self.read.iter().map(|m| m.message.clone()).collect();
        let others = |set: &BTreeSet<String>, m: &str| -> BTreeSet<String> {
            set.iter().filter(|s| s.as_str() != m).cloned().collect()
        };
        let mut out = Vec::new();
        for r in &self.read {
            if !sent.contains(&r.message) {
                out.push(Diagnostic::warning(
                    r.path.clone(),
                    format!(
                        "nothing in the pack sends a `{}` message, so this waits in vain{}",
                        r.message,
                        hint(&r.message, &others(&sent, &r.message))
                    ),
                ));
            }
        }
        for s in &self.sent {
            let drained = s.inbox.as_ref().is_some_and(|b| self.read_all.contains(b));
            let named = self
                .read
                .iter()
                .any(|r| r.message == s.message && (r.inbox.is_none() || r.inbox == s.inbox));
            if !drained && !named {
                let inbox = s.inbox.as_deref().unwrap_or("default");
                out.push(Diagnostic::warning(
                    s.path.clone(),
                    format!(
                        "nothing in the pack reads a `{}` message from inbox `{inbox}`{}",
                        s.message,
                        hint(&s.message, &others(&read, &s.message))
                    ),
                ));
            }
        }
        self.out.extend(out);
    }

    /// An NPC's `vars` against its tree's blackboard (the tree and the subtrees it runs).
    fn npc_vars(&mut self, pack: &Pack) {
        let trees: BTreeMap<&str, usize> = pack
            .trees
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.as_str(), i))
            .collect();
        for (i, npc) in pack.world.npcs.iter().enumerate() {
            let Some(&root) = trees.get(npc.tree.as_str()) else {
                continue; // an unknown tree, already reported
            };
            // The tree and every subtree it reaches share the NPC's blackboard.
            let mut seen = BTreeSet::from([root]);
            let mut todo = vec![root];
            let mut vars = BTreeSet::new();
            while let Some(t) = todo.pop() {
                let def = &pack.trees[t];
                vars.extend(def.blackboard.keys().cloned());
                walk(&def.root, String::new(), &mut |n, _| {
                    if let NodeKind::Subtree { tree } = &n.kind
                        && let Some(&s) = trees.get(tree.as_str())
                        && seen.insert(s)
                    {
                        todo.push(s);
                    }
                });
            }
            for name in npc.vars.keys() {
                if vars.contains(name) {
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

    /// Request nodes no area can ever serve: the behaviors it may be given are those of the
    /// areas it can start asking in (of its `area_kind`, if given; else any) and of their
    /// ancestors, narrowed to its `prefer` names when it has some, less its `forbid` names.
    fn requests(&mut self, pack: &Pack) {
        let by_id: BTreeMap<&str, &crate::pack::AreaDef> =
            pack.areas.iter().map(|a| (a.id.as_str(), a)).collect();
        let mut found = Vec::new();
        for (i, t) in pack.trees.iter().enumerate() {
            walk(&t.root, key(&index("trees", i), "root"), &mut |n, p| {
                if let NodeKind::Request {
                    prefer,
                    forbid,
                    area_kind,
                } = &n.kind
                {
                    found.push((p.to_string(), prefer, forbid, area_kind));
                }
            });
        }
        for (path, prefer, forbid, area_kind) in found {
            let mut offered = BTreeSet::new();
            for a in &pack.areas {
                if area_kind.as_ref().is_some_and(|k| !a.kinds.contains(k)) {
                    continue;
                }
                // The area and its ancestors (a parent cycle is reported elsewhere).
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
            let servable = offered.iter().any(|t| {
                (prefer.is_empty() || prefer.iter().any(|p| p.template == *t))
                    && !forbid.iter().any(|f| f == t)
            });
            if servable {
                continue;
            }
            let where_ = match area_kind {
                Some(k) => format!("no area of kind `{k}` (or above one)"),
                None => "no area".to_string(),
            };
            let what = if prefer.is_empty() {
                "any behavior".to_string()
            } else {
                let names: Vec<String> =
                    prefer.iter().map(|p| format!("`{}`", p.template)).collect();
                names.join(", ")
            };
            self.out.push(Diagnostic::warning(
                path,
                format!("{where_} offers {what}, so this request is never served"),
            ));
        }
    }

    /// Flags and counters read that the world does not declare and nothing in the pack
    /// sets (they read as false / 0 for ever, unless a host sets them: a warning), and ones
    /// set under a near miss of a name that is read. Event preconditions are checked by the
    /// story's own pass.
    fn flags_and_counters(&mut self, pack: &Pack) {
        use crate::pack::refs::{self, Role, Seg, Target};
        // (is a counter, name) -> paths
        let mut written: BTreeMap<(bool, String), Vec<String>> = BTreeMap::new();
        let mut read: BTreeMap<(bool, String), Vec<String>> = BTreeMap::new();
        for r in refs::all(pack) {
            let (counter, name) = match &r.target {
                Target::Flag(f) => (false, f.clone()),
                Target::Counter(c) => (true, c.clone()),
                _ => continue,
            };
            let seg = |s: &Seg, k: &str| matches!(s, Seg::Key(x) if x == k);
            if r.segs.first().is_some_and(|s| seg(s, "editor"))
                || r.segs.iter().any(|s| seg(s, "precondition"))
            {
                continue;
            }
            let in_responses = r
                .segs
                .iter()
                .any(|s| seg(s, "responses") || seg(s, "on_success") || seg(s, "on_failure"));
            let last = r.segs.last();
            let writes = r.role == Role::Definition
                || (!in_responses && last.is_some_and(|s| seg(s, "var")))
                || (in_responses && !last.is_some_and(|s| seg(s, "from")));
            let map = if writes { &mut written } else { &mut read };
            map.entry((counter, name)).or_default().push(r.path);
        }
        let what = |counter: bool| if counter { "counter" } else { "flag" };
        for ((counter, name), paths) in &read {
            if written.contains_key(&(*counter, name.clone())) {
                continue;
            }
            let known: BTreeSet<String> = written
                .keys()
                .filter(|(c, _)| c == counter)
                .map(|(_, n)| n.clone())
                .collect();
            let h = hint(name, &known);
            let always = if *counter { "0" } else { "false" };
            for path in paths {
                self.out.push(Diagnostic::warning(
                    path.clone(),
                    format!(
                        "reads {} `{name}`, which the world does not declare and nothing in the \
                         pack sets: it stays {always}{h}",
                        what(*counter)
                    ),
                ));
            }
        }
        for ((counter, name), paths) in &written {
            if read.contains_key(&(*counter, name.clone())) {
                continue;
            }
            // Only a near miss of a name that is read and never set: a likely typo.
            let unset: BTreeSet<String> = read
                .keys()
                .filter(|k| k.0 == *counter && !written.contains_key(*k))
                .map(|(_, n)| n.clone())
                .collect();
            let h = hint(name, &unset);
            if h.is_empty() {
                continue;
            }
            for path in paths {
                self.out.push(Diagnostic::warning(
                    path.clone(),
                    format!(
                        "declares or sets {} `{name}`, which nothing in the pack reads{h}",
                        what(*counter)
                    ),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_args_skips_literals_and_other_calls() {
        assert_eq!(
            string_args(
                r#"has_tag("a") && "has_tag(\"b\")" != x && has_tags("c") || has_tag ( "d" )"#,
                "has_tag"
            ),
            vec![("a".to_string(), 9), ("d".to_string(), 69)]
        );
    }
}
