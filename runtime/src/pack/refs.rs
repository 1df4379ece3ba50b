//! Who references an id: every place in a pack that names a tree, node, area, template
//! (behavior name), NPC, object, inbox, cast, flag, counter, blackboard or area variable,
//! story event, scenario or trigger, with its JSON path. Plain data; the editor's rename and
//! find-usages are built on it.
//!
//! Expressions (conditions, guards, `set` values, constraints, preconditions, breakpoint
//! conditions, `var` trigger conditions) are scanned for names with a careful identifier scan
//! that follows the expression lexer's rules (string literals skipped, `flags.`/`flag.`,
//! `counters.`/`counter.` and `area.` scopes, function names, the string arguments of
//! `entity("id")` and `holders("behavior")`); the runtime's lexer is private to
//! [`crate::expr`]. The scan never fails: text that would not compile yields what it can.
//!
//! Entity ids written as plain strings (a `send_message` recipient, a trigger condition's
//! `area`, a response's `object`, …) are classified by what the pack defines under that id
//! (NPC first, then object, then area); ids the pack does not define are not reported.

use std::collections::BTreeMap;

use super::diag::{push_index, push_key};
use super::model::*;

/// What a reference names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    Tree(String),
    Node {
        tree: String,
        node: String,
    },
    Area(String),
    /// A behavior name: what areas' templates offer and request nodes ask for.
    Template(String),
    Npc(String),
    Object(String),
    /// An inbox name (inboxes are named per NPC or area; a name means the same inbox
    /// everywhere it is used).
    Inbox(String),
    Cast(String),
    Flag(String),
    Counter(String),
    /// A blackboard variable of a tree. `tree: None` when the tree is not known statically
    /// (a template's constraint reads the requesting NPC's blackboard, a data breakpoint with
    /// no NPC filter watches every NPC).
    Var {
        tree: Option<String>,
        var: String,
    },
    /// A smart-area variable (`area.NAME`). `area: None` inside a tree or constraint, where
    /// the area is whichever the NPC stands in.
    AreaVar {
        area: Option<String>,
        var: String,
    },
    Event(String),
    Scenario(String),
    /// A trigger, by id (`reset_trigger`).
    Trigger(String),
}

impl Target {
    /// The referenced name itself.
    pub fn name(&self) -> &str {
        match self {
            Target::Tree(s)
            | Target::Area(s)
            | Target::Template(s)
            | Target::Npc(s)
            | Target::Object(s)
            | Target::Inbox(s)
            | Target::Cast(s)
            | Target::Flag(s)
            | Target::Counter(s)
            | Target::Event(s)
            | Target::Scenario(s)
            | Target::Trigger(s) => s,
            Target::Node { node, .. } => node,
            Target::Var { var, .. } | Target::AreaVar { var, .. } => var,
        }
    }
}

/// Whether a place defines the name or uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// The id of the thing itself (a tree's `id`, a flag's key in `world.flags`, a
    /// blackboard declaration, an NPC's inbox list entry).
    Definition,
    Use,
}

/// One segment of a JSON path.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// Where in the value at the path the name sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// The whole string at the path is the name.
    Value,
    /// The name is the key of the map entry the path ends at.
    Key,
    /// The name is the bytes `start..end` of the string at the path (inside an expression,
    /// or after `flags.` in a `set` node's variable).
    Within { start: usize, end: usize },
}

/// One reference.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ref {
    pub target: Target,
    pub role: Role,
    /// The JSON path, as diagnostics print it (`trees[0].root.children[2].tree`).
    pub path: String,
    /// The same path, segment by segment.
    pub segs: Vec<Seg>,
    pub place: Place,
}

/// Every reference in the pack, definitions included, in document order.
pub fn all(pack: &Pack) -> Vec<Ref> {
    let mut w = Walker::new(pack);
    w.pack();
    w.out
}

/// The references to one target (definitions included).
pub fn to(pack: &Pack, target: &Target) -> Vec<Ref> {
    all(pack)
        .into_iter()
        .filter(|r| &r.target == target)
        .collect()
}

/// Renders segments as a path string.
pub fn path_string(segs: &[Seg]) -> String {
    let mut p = String::new();
    for s in segs {
        match s {
            Seg::Key(k) => push_key(&mut p, k),
            Seg::Index(i) => push_index(&mut p, *i),
        }
    }
    p
}

/// A name found in an expression: its scope and byte range in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprName {
    /// A bare identifier: a blackboard variable.
    Var(String),
    Flag(String),
    Counter(String),
    AreaVar(String),
    /// `entity("id")`.
    Entity(String),
    /// `holders("behavior")`.
    Template(String),
}

/// The names an expression mentions, each with the byte range of the name alone (for
/// `flags.x`, the `x`; for `entity("id")`, the `id` inside the quotes when it has no escapes).
pub fn scan_expr(src: &str) -> Vec<(ExprName, usize, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let ident_start = |c: u8| c.is_ascii_alphabetic() || c == b'_';
    let ident_char = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let skip_ws = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    // Reads a string literal starting at the quote at `i`: (content, content range, next).
    let string_at = |i: usize| -> (String, usize, usize, usize, bool) {
        let mut j = i + 1;
        let mut s = String::new();
        let mut plain = true;
        while j < b.len() && b[j] != b'"' {
            if b[j] == b'\\' && j + 1 < b.len() {
                plain = false;
                j += 1;
            }
            j += 1;
        }
        let end = j.min(b.len());
        if let Some(raw) = src.get(i + 1..end) {
            s = if plain {
                raw.to_string()
            } else {
                raw.replace("\\\"", "\"").replace("\\\\", "\\")
            };
        }
        (s, i + 1, end, (j + 1).min(b.len()), plain)
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            i = string_at(i).3;
            continue;
        }
        if c.is_ascii_digit() {
            // A number, including exponents and a fractional part: not a name.
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                i += 1;
            }
            continue;
        }
        if !ident_start(c) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && ident_char(b[i]) {
            i += 1;
        }
        let word = &src[start..i];
        let next = skip_ws(i);
        if next < b.len() && b[next] == b'.' {
            let scope = match word {
                "flags" | "flag" => Some(0),
                "counters" | "counter" => Some(1),
                "area" => Some(2),
                _ => None,
            };
            let ns = skip_ws(next + 1);
            let mut ne = ns;
            while ne < b.len() && ident_char(b[ne]) {
                ne += 1;
            }
            if let (Some(scope), true) = (scope, ne > ns && ident_start(b[ns])) {
                let name = src[ns..ne].to_string();
                let n = match scope {
                    0 => ExprName::Flag(name),
                    1 => ExprName::Counter(name),
                    _ => ExprName::AreaVar(name),
                };
                out.push((n, ns, ne));
                i = ne;
            }
            continue;
        }
        if next < b.len() && b[next] == b'(' {
            if matches!(word, "entity" | "holders") {
                let a = skip_ws(next + 1);
                if a < b.len() && b[a] == b'"' {
                    let (s, cs, ce, after, plain) = string_at(a);
                    if plain {
                        let n = if word == "entity" {
                            ExprName::Entity(s)
                        } else {
                            ExprName::Template(s)
                        };
                        out.push((n, cs, ce));
                    }
                    i = after;
                }
            }
            continue;
        }
        if !matches!(word, "true" | "false" | "self" | "subject") {
            out.push((ExprName::Var(word.to_string()), start, i));
        }
    }
    out
}

/// Context of the expressions being walked: which tree's blackboard bare names are, which
/// area `area.` names.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    tree: Option<&'a str>,
    area: Option<&'a str>,
}

struct Walker<'a> {
    pack: &'a Pack,
    out: Vec<Ref>,
    segs: Vec<Seg>,
    npc_trees: BTreeMap<&'a str, &'a str>,
}

impl<'a> Walker<'a> {
    fn new(pack: &'a Pack) -> Walker<'a> {
        let npc_trees = pack
            .world
            .npcs
            .iter()
            .map(|n| (n.id.as_str(), n.tree.as_str()))
            .collect();
        Walker {
            pack,
            out: Vec::new(),
            segs: Vec::new(),
            npc_trees,
        }
    }

    fn key(&mut self, k: &str) {
        self.segs.push(Seg::Key(k.to_string()));
    }
    fn idx(&mut self, i: usize) {
        self.segs.push(Seg::Index(i));
    }
    fn pop(&mut self) {
        self.segs.pop();
    }

    fn emit(&mut self, target: Target, role: Role, place: Place) {
        self.out.push(Ref {
            target,
            role,
            path: path_string(&self.segs),
            segs: self.segs.clone(),
            place,
        });
    }

    /// A reference whose value is at field `field` of the current path.
    fn field(&mut self, field: &str, target: Target, role: Role) {
        self.key(field);
        self.emit(target, role, Place::Value);
        self.pop();
    }

    /// A list of names at field `field`.
    fn list(&mut self, field: &str, names: &[String], role: Role, make: impl Fn(&str) -> Target) {
        if names.is_empty() {
            return;
        }
        self.key(field);
        for (i, n) in names.iter().enumerate() {
            self.idx(i);
            self.emit(make(n), role, Place::Value);
            self.pop();
        }
        self.pop();
    }

    /// The keys of a map at field `field`.
    fn keys<V>(
        &mut self,
        field: &str,
        map: &BTreeMap<String, V>,
        role: Role,
        make: impl Fn(&str) -> Target,
    ) {
        if map.is_empty() {
            return;
        }
        self.key(field);
        for k in map.keys() {
            self.key(k);
            self.emit(make(k), role, Place::Key);
            self.pop();
        }
        self.pop();
    }

    /// An entity id: NPC, object or area, by what the pack defines.
    fn entity_target(&self, id: &str) -> Option<Target> {
        let w = &self.pack.world;
        if w.npcs.iter().any(|n| n.id == id) {
            Some(Target::Npc(id.to_string()))
        } else if w.objects.iter().any(|o| o.id == id) {
            Some(Target::Object(id.to_string()))
        } else if self.pack.areas.iter().any(|a| a.id == id) {
            Some(Target::Area(id.to_string()))
        } else {
            None
        }
    }

    fn entity_field(&mut self, field: &str, id: &str) {
        if let Some(t) = self.entity_target(id) {
            self.field(field, t, Role::Use);
        }
    }

    fn expr_field(&mut self, field: &str, src: &str, cx: Ctx<'_>) {
        self.key(field);
        self.expr(src, cx);
        self.pop();
    }

    fn expr(&mut self, src: &str, cx: Ctx<'_>) {
        for (name, start, end) in scan_expr(src) {
            let target = match name {
                ExprName::Var(v) => Some(Target::Var {
                    tree: cx.tree.map(str::to_string),
                    var: v,
                }),
                ExprName::Flag(f) => Some(Target::Flag(f)),
                ExprName::Counter(c) => Some(Target::Counter(c)),
                ExprName::AreaVar(v) => Some(Target::AreaVar {
                    area: cx.area.map(str::to_string),
                    var: v,
                }),
                ExprName::Entity(id) => self.entity_target(&id),
                ExprName::Template(t) => Some(Target::Template(t)),
            };
            if let Some(t) = target {
                self.emit(t, Role::Use, Place::Within { start, end });
            }
        }
    }

    /// A variable name as a `set` node or data breakpoint writes it: `flags.X`, `counters.X`,
    /// `area.X` or a blackboard variable.
    fn var_field(&mut self, field: &str, var: &str, tree: Option<&str>) {
        self.key(field);
        let scoped = var.split_once('.').map(|(s, n)| (s.trim(), n.trim_start()));
        match scoped {
            Some((scope, name)) => {
                let start = var.len() - name.len();
                let place = Place::Within {
                    start,
                    end: var.len(),
                };
                let t = match scope {
                    "flags" | "flag" => Some(Target::Flag(name.to_string())),
                    "counters" | "counter" => Some(Target::Counter(name.to_string())),
                    "area" => Some(Target::AreaVar {
                        area: None,
                        var: name.to_string(),
                    }),
                    _ => None,
                };
                if let Some(t) = t {
                    self.emit(t, Role::Use, place);
                }
            }
            None => self.emit(
                Target::Var {
                    tree: tree.map(str::to_string),
                    var: var.to_string(),
                },
                Role::Use,
                Place::Value,
            ),
        }
        self.pop();
    }

    fn pack(&mut self) {
        let pack = self.pack;
        self.key("world");
        self.world();
        self.pop();
        self.key("trees");
        for (i, t) in pack.trees.iter().enumerate() {
            self.idx(i);
            self.tree(t);
            self.pop();
        }
        self.pop();
        self.key("areas");
        for (i, a) in pack.areas.iter().enumerate() {
            self.idx(i);
            self.area(a);
            self.pop();
        }
        self.pop();
        self.key("events");
        for (i, e) in pack.events.iter().enumerate() {
            self.idx(i);
            self.event(e);
            self.pop();
        }
        self.pop();
        self.key("scenarios");
        for (i, s) in pack.scenarios.iter().enumerate() {
            self.idx(i);
            self.field("id", Target::Scenario(s.id.clone()), Role::Definition);
            self.list("events", &s.events, Role::Use, |e| {
                Target::Event(e.to_string())
            });
            self.pop();
        }
        self.pop();
        self.key("casts");
        for (i, c) in pack.casts.iter().enumerate() {
            self.idx(i);
            self.field("id", Target::Cast(c.id.clone()), Role::Definition);
            if !c.members.is_empty() {
                self.key("members");
                for (j, m) in c.members.iter().enumerate() {
                    self.idx(j);
                    self.field("npc", Target::Npc(m.npc.clone()), Role::Use);
                    self.pop();
                }
                self.pop();
            }
            self.pop();
        }
        self.pop();
        self.key("triggers");
        for (i, s) in pack.triggers.iter().enumerate() {
            self.idx(i);
            self.trigger_system(s);
            self.pop();
        }
        self.pop();
        self.key("tests");
        for (i, t) in pack.tests.iter().enumerate() {
            self.idx(i);
            self.content_test(t);
            self.pop();
        }
        self.pop();
        self.key("editor");
        self.editor();
        self.pop();
    }

    /// A content test: its NPC, and the names of its expression. Besides flags, counters and
    /// the tested NPC's variables, a test reads `in_AREA`, `count_AREA` and `launched_EVENT`;
    /// the id after the prefix is a reference when the pack defines that area or event (the
    /// runtime resolves them in the same way, before blackboard variables).
    fn content_test(&mut self, t: &ContentTestDef) {
        if let Some(n) = &t.npc {
            self.field("npc", Target::Npc(n.clone()), Role::Use);
        }
        let tree = t
            .npc
            .as_deref()
            .and_then(|n| self.npc_trees.get(n).copied());
        self.key("expr");
        for (name, start, end) in scan_expr(&t.expr) {
            let target = match name {
                ExprName::Var(v) => match self.test_measure(&v) {
                    Some((t, skip)) => {
                        self.emit(
                            t,
                            Role::Use,
                            Place::Within {
                                start: start + skip,
                                end,
                            },
                        );
                        continue;
                    }
                    None => Some(Target::Var {
                        tree: tree.map(str::to_string),
                        var: v,
                    }),
                },
                ExprName::Flag(f) => Some(Target::Flag(f)),
                ExprName::Counter(c) => Some(Target::Counter(c)),
                ExprName::AreaVar(v) => Some(Target::AreaVar { area: None, var: v }),
                ExprName::Entity(id) => self.entity_target(&id),
                ExprName::Template(t) => Some(Target::Template(t)),
            };
            if let Some(t) = target {
                self.emit(t, Role::Use, Place::Within { start, end });
            }
        }
        self.pop();
    }

    /// A test measure's target and the length of its prefix: `in_AREA`/`count_AREA` name an
    /// area, `launched_EVENT` an event, when the pack defines it.
    fn test_measure(&self, name: &str) -> Option<(Target, usize)> {
        let pack = self.pack;
        for prefix in ["in_", "count_"] {
            if let Some(id) = name.strip_prefix(prefix)
                && pack.areas.iter().any(|a| a.id == id)
            {
                return Some((Target::Area(id.to_string()), prefix.len()));
            }
        }
        let id = name.strip_prefix("launched_")?;
        pack.events
            .iter()
            .any(|e| e.id == id)
            .then(|| (Target::Event(id.to_string()), "launched_".len()))
    }

    fn world(&mut self) {
        let pack = self.pack;
        let w = &pack.world;
        self.keys("flags", &w.flags, Role::Definition, |f| {
            Target::Flag(f.to_string())
        });
        self.keys("counters", &w.counters, Role::Definition, |c| {
            Target::Counter(c.to_string())
        });
        self.key("objects");
        for (i, o) in w.objects.iter().enumerate() {
            self.idx(i);
            self.field("id", Target::Object(o.id.clone()), Role::Definition);
            self.pop();
        }
        self.pop();
        self.key("npcs");
        for (i, n) in w.npcs.iter().enumerate() {
            self.idx(i);
            self.field("id", Target::Npc(n.id.clone()), Role::Definition);
            self.field("tree", Target::Tree(n.tree.clone()), Role::Use);
            let tree = n.tree.clone();
            self.keys("vars", &n.vars, Role::Use, |v| Target::Var {
                tree: Some(tree.clone()),
                var: v.to_string(),
            });
            self.list("inboxes", &n.inboxes, Role::Definition, |b| {
                Target::Inbox(b.to_string())
            });
            self.pop();
        }
        self.pop();
        self.key("walls");
        for (i, wall) in w.walls.iter().enumerate() {
            self.idx(i);
            self.key("doors");
            for (j, d) in wall.doors.iter().enumerate() {
                self.idx(j);
                self.field("object", Target::Object(d.object.clone()), Role::Use);
                self.pop();
            }
            self.pop();
            self.pop();
        }
        self.pop();
        if let Some(s) = &w.scenario {
            self.field("scenario", Target::Scenario(s.clone()), Role::Use);
        }
    }

    fn tree(&mut self, t: &TreeDef) {
        self.field("id", Target::Tree(t.id.clone()), Role::Definition);
        let id = t.id.clone();
        self.keys("blackboard", &t.blackboard, Role::Definition, |v| {
            Target::Var {
                tree: Some(id.clone()),
                var: v.to_string(),
            }
        });
        self.key("root");
        let cx = Ctx {
            tree: Some(&t.id),
            area: None,
        };
        self.node(&t.id, &t.root, cx);
        self.pop();
    }

    fn node(&mut self, tree: &str, n: &Node, cx: Ctx<'_>) {
        self.field(
            "id",
            Target::Node {
                tree: tree.to_string(),
                node: n.id.clone(),
            },
            Role::Definition,
        );
        let inbox = |w: &mut Self, inbox: &str| {
            w.field("inbox", Target::Inbox(inbox.to_string()), Role::Use);
        };
        let var = |w: &mut Self, field: &str, v: &Option<String>| {
            if let Some(v) = v {
                w.field(
                    field,
                    Target::Var {
                        tree: cx.tree.map(str::to_string),
                        var: v.clone(),
                    },
                    Role::Use,
                );
            }
        };
        match &n.kind {
            NodeKind::Guard { condition } => self.expr_field("condition", condition, cx),
            NodeKind::Condition { expr } => self.expr_field("expr", expr, cx),
            NodeKind::InArea { area } => self.field("area", Target::Area(area.clone()), Role::Use),
            NodeKind::HasMessage { inbox: b, .. } => inbox(self, b),
            NodeKind::MoveTo { target, .. } => {
                self.key("target");
                match target {
                    MoveTarget::Point(_) => {}
                    MoveTarget::Object(o) => {
                        self.field("object", Target::Object(o.clone()), Role::Use)
                    }
                    MoveTarget::Area(a) => self.field("area", Target::Area(a.clone()), Role::Use),
                    MoveTarget::Npc(p) => self.field("npc", Target::Npc(p.clone()), Role::Use),
                    MoveTarget::Var(v) => var(self, "var", &Some(v.clone())),
                }
                self.pop();
            }
            NodeKind::Set { var: v, value } => {
                self.var_field("var", v, cx.tree);
                self.expr_field("value", value, cx);
            }
            NodeKind::SendMessage { to, inbox: b, .. } => {
                self.recipient("to", to, cx);
                inbox(self, b);
            }
            NodeKind::Receive {
                inbox: b,
                sender_var,
                ..
            }
            | NodeKind::Peek {
                inbox: b,
                sender_var,
                ..
            }
            | NodeKind::WaitMessage {
                inbox: b,
                sender_var,
                ..
            } => {
                inbox(self, b);
                var(self, "sender_var", sender_var);
            }
            NodeKind::Subtree { tree: t } => self.field("tree", Target::Tree(t.clone()), Role::Use),
            NodeKind::Request { prefer, forbid, .. } => {
                if !prefer.is_empty() {
                    self.key("prefer");
                    for (i, p) in prefer.iter().enumerate() {
                        self.idx(i);
                        self.field("template", Target::Template(p.template.clone()), Role::Use);
                        self.pop();
                    }
                    self.pop();
                }
                self.list("forbid", forbid, Role::Use, |t| {
                    Target::Template(t.to_string())
                });
            }
            NodeKind::EnableTemplate { template, .. } => {
                self.field("template", Target::Template(template.clone()), Role::Use)
            }
            NodeKind::MessageHolders {
                template, inbox: b, ..
            } => {
                if let Some(t) = template {
                    self.field("template", Target::Template(t.clone()), Role::Use);
                }
                inbox(self, b);
            }
            NodeKind::CreateArea { prototype, .. } => {
                self.field("prototype", Target::Area(prototype.clone()), Role::Use)
            }
            NodeKind::Converse { cast, until, .. } => {
                self.field("cast", Target::Cast(cast.clone()), Role::Use);
                if let Some(u) = until {
                    self.expr_field("until", u, cx);
                }
            }
            _ => {}
        }
        if !n.children.is_empty() {
            self.key("children");
            for (i, c) in n.children.iter().enumerate() {
                self.idx(i);
                self.node(tree, c, cx);
                self.pop();
            }
            self.pop();
        }
    }

    /// A message recipient in a tree: `self`, a blackboard entity variable, or an NPC id.
    fn recipient(&mut self, field: &str, to: &str, cx: Ctx<'_>) {
        if to == "self" {
            return;
        }
        let declared = cx
            .tree
            .and_then(|t| self.pack.tree(t))
            .is_some_and(|t| t.blackboard.contains_key(to));
        if declared {
            self.field(
                field,
                Target::Var {
                    tree: cx.tree.map(str::to_string),
                    var: to.to_string(),
                },
                Role::Use,
            );
        } else {
            self.entity_field(field, to);
        }
    }

    fn area(&mut self, a: &AreaDef) {
        self.field("id", Target::Area(a.id.clone()), Role::Definition);
        if let Some(p) = &a.parent {
            self.field("parent", Target::Area(p.clone()), Role::Use);
        }
        let id = a.id.clone();
        self.keys("vars", &a.vars, Role::Definition, |v| Target::AreaVar {
            area: Some(id.clone()),
            var: v.to_string(),
        });
        self.list("inboxes", &a.inboxes, Role::Definition, |b| {
            Target::Inbox(b.to_string())
        });
        if !a.templates.is_empty() {
            self.key("templates");
            for (i, t) in a.templates.iter().enumerate() {
                self.idx(i);
                self.field("name", Target::Template(t.name.clone()), Role::Definition);
                self.field("tree", Target::Tree(t.tree.clone()), Role::Use);
                if let Some(c) = &t.constraint {
                    let cx = Ctx {
                        tree: None,
                        area: Some(&a.id),
                    };
                    self.expr_field("constraint", c, cx);
                }
                self.list("inboxes", &t.inboxes, Role::Definition, |b| {
                    Target::Inbox(b.to_string())
                });
                self.pop();
            }
            self.pop();
        }
        if let Some(b) = &a.brain {
            self.key("brain");
            self.field("tree", Target::Tree(b.tree.clone()), Role::Use);
            self.pop();
        }
        let h = &a.handlers;
        let handlers = [
            ("on_adopt", &h.on_adopt),
            ("on_drop", &h.on_drop),
            ("on_enter", &h.on_enter),
            ("on_exit", &h.on_exit),
        ];
        if handlers.iter().any(|(_, t)| t.is_some()) {
            self.key("handlers");
            for (k, t) in handlers {
                if let Some(t) = t {
                    self.field(k, Target::Tree(t.clone()), Role::Use);
                }
            }
            self.pop();
        }
    }

    fn event(&mut self, e: &EventDef) {
        self.field("id", Target::Event(e.id.clone()), Role::Definition);
        if !e.after.is_empty() {
            self.key("after");
            for (i, d) in e.after.iter().enumerate() {
                self.idx(i);
                self.field("event", Target::Event(d.event.clone()), Role::Use);
                self.pop();
            }
            self.pop();
        }
        if let Some(p) = &e.precondition {
            self.expr_field(
                "precondition",
                p,
                Ctx {
                    tree: None,
                    area: None,
                },
            );
        }
        self.responses("on_success", &e.on_success);
        self.responses("on_failure", &e.on_failure);
    }

    fn responses(&mut self, field: &str, list: &[Response]) {
        if list.is_empty() {
            return;
        }
        self.key(field);
        for (i, r) in list.iter().enumerate() {
            self.idx(i);
            self.response(r);
            self.pop();
        }
        self.pop();
    }

    fn response(&mut self, r: &Response) {
        let use_ = Role::Use;
        match r {
            Response::SetFlag { flag, .. } | Response::ToggleFlag { flag } => {
                self.field("flag", Target::Flag(flag.clone()), use_)
            }
            Response::SetCounter { counter, .. } | Response::AddCounter { counter, .. } => {
                self.field("counter", Target::Counter(counter.clone()), use_)
            }
            Response::CopyCounter { from, to } => {
                self.field("from", Target::Counter(from.clone()), use_);
                self.field("to", Target::Counter(to.clone()), use_);
            }
            Response::SendMessage { to, inbox, .. } => {
                if to != "self" {
                    self.entity_field("to", to);
                }
                self.field("inbox", Target::Inbox(inbox.clone()), use_);
            }
            Response::CreateArea { prototype, .. } | Response::RemoveArea { prototype } => {
                self.field("prototype", Target::Area(prototype.clone()), use_)
            }
            Response::StartEvent { event } | Response::EndEvent { event, .. } => {
                self.field("event", Target::Event(event.clone()), use_)
            }
            Response::Door { object, .. } | Response::SetObjectState { object, .. } => {
                self.field("object", Target::Object(object.clone()), use_)
            }
            Response::Spawn { npc, near, .. } => {
                self.field("npc", Target::Npc(npc.clone()), use_);
                if let Some(n) = near.as_deref().filter(|n| *n != "self") {
                    self.entity_field("near", n);
                }
            }
            Response::Remove { npc }
            | Response::Kill { npc }
            | Response::Damage { npc, .. }
            | Response::Heal { npc, .. }
            | Response::GiveItem { npc, .. } => self.field("npc", Target::Npc(npc.clone()), use_),
            Response::ResetTrigger { trigger } => {
                self.field("trigger", Target::Trigger(trigger.clone()), use_)
            }
            Response::ShowText { .. }
            | Response::PlaySound { .. }
            | Response::Log { .. }
            | Response::CompleteLevel => {}
        }
    }

    fn trigger_system(&mut self, s: &TriggerSystemDef) {
        use super::Owner;
        self.key("owner");
        match &s.owner {
            Owner::World | Owner::ObjectKind(_) => {}
            Owner::Npc(n) => self.field("npc", Target::Npc(n.clone()), Role::Use),
            Owner::Object(o) => self.field("object", Target::Object(o.clone()), Role::Use),
            Owner::Area(a) => self.field("area", Target::Area(a.clone()), Role::Use),
            Owner::Event(e) => self.field("event", Target::Event(e.clone()), Role::Use),
        }
        self.pop();
        let owner_npc = match &s.owner {
            Owner::Npc(n) => Some(n.as_str()),
            _ => None,
        };
        self.key("triggers");
        for (i, t) in s.triggers.iter().enumerate() {
            self.idx(i);
            self.field("id", Target::Trigger(t.id.clone()), Role::Definition);
            self.key("when");
            self.cond(&t.when, owner_npc);
            self.pop();
            self.responses("responses", &t.responses);
            self.pop();
        }
        self.pop();
    }

    fn cond(&mut self, c: &Cond, owner_npc: Option<&str>) {
        let text = |k: &str| c.params.get(k).and_then(|v| v.as_str());
        for k in ["who", "by", "victim", "a"] {
            if let Some(id) = text(k).filter(|id| !matches!(*id, "any" | "self")) {
                self.field(k, Target::Npc(id.to_string()), Role::Use);
            }
        }
        for k in ["area", "around", "b", "object"] {
            if let Some(id) = text(k).filter(|id| *id != "self") {
                self.entity_field(k, id);
            }
        }
        if c.kind == "flag"
            && let Some(f) = text("flag")
        {
            self.field("flag", Target::Flag(f.to_string()), Role::Use);
        }
        if c.kind == "counter"
            && let Some(n) = text("counter")
        {
            self.field("counter", Target::Counter(n.to_string()), Role::Use);
        }
        if c.kind == "var"
            && let Some(src) = text("expr")
        {
            let who = match text("who") {
                Some("self") => owner_npc,
                other => other,
            };
            let tree = who.and_then(|w| self.npc_trees.get(w).copied());
            self.expr_field("expr", src, Ctx { tree, area: None });
        }
        if !c.of.is_empty() {
            self.key("of");
            for (i, o) in c.of.iter().enumerate() {
                self.idx(i);
                self.cond(o, owner_npc);
                self.pop();
            }
            self.pop();
        }
    }

    fn editor(&mut self) {
        let pack = self.pack;
        let ed = &pack.editor;
        if !ed.trees.is_empty() {
            self.key("trees");
            for (t, g) in &ed.trees {
                self.key(t);
                self.emit(Target::Tree(t.clone()), Role::Use, Place::Key);
                let tree = t.clone();
                self.keys("nodes", &g.nodes, Role::Use, |n| Target::Node {
                    tree: tree.clone(),
                    node: n.to_string(),
                });
                self.pop();
            }
            self.pop();
        }
        if !ed.breakpoints.is_empty() {
            self.key("breakpoints");
            for (i, b) in ed.breakpoints.iter().enumerate() {
                self.idx(i);
                let npc_tree = b
                    .npc
                    .as_deref()
                    .and_then(|n| self.npc_trees.get(n).copied());
                if let Some(n) = &b.npc {
                    self.field("npc", Target::Npc(n.clone()), Role::Use);
                }
                match &b.on {
                    BreakOn::Node { tree, node, .. } => {
                        self.field("tree", Target::Tree(tree.clone()), Role::Use);
                        self.field(
                            "node",
                            Target::Node {
                                tree: tree.clone(),
                                node: node.clone(),
                            },
                            Role::Use,
                        );
                    }
                    BreakOn::Data { var } => self.var_field("var", var, npc_tree),
                    BreakOn::Condition | BreakOn::Event { .. } => {}
                }
                if let Some(c) = &b.condition {
                    let tree = match &b.on {
                        BreakOn::Node { tree, .. } => Some(tree.as_str()),
                        _ => npc_tree,
                    };
                    self.expr_field("condition", c, Ctx { tree, area: None });
                }
                self.pop();
            }
            self.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> Pack {
        let path = format!("{}/../samples/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        crate::pack::load_str(&text).pack.unwrap()
    }

    const SAMPLES: [&str; 5] = ["chronicle", "daily_life", "dungeon", "guards", "plaza"];

    /// Every reported path leads to a value in the pack's JSON, and the name is there.
    #[test]
    fn every_ref_points_at_its_name_in_every_sample() {
        for s in SAMPLES {
            let pack = sample(s);
            let json = serde_json::to_value(&pack).unwrap();
            let refs = all(&pack);
            assert!(refs.len() > 10, "{s}: only {} refs", refs.len());
            for r in &refs {
                let (last, up) = r.segs.split_last().unwrap();
                let mut v = &json;
                for seg in up {
                    v = match seg {
                        Seg::Key(k) => &v[k.as_str()],
                        Seg::Index(i) => &v[*i],
                    };
                }
                let name = r.target.name();
                match r.place {
                    Place::Key => {
                        let Seg::Key(k) = last else {
                            panic!("{s}: {r:?}")
                        };
                        assert_eq!(k, name, "{s}: {}", r.path);
                        assert!(v.get(k).is_some(), "{s}: no key at {}", r.path);
                    }
                    Place::Value => {
                        let x = match last {
                            Seg::Key(k) => &v[k.as_str()],
                            Seg::Index(i) => &v[*i],
                        };
                        assert_eq!(x.as_str(), Some(name), "{s}: {}", r.path);
                    }
                    Place::Within { start, end } => {
                        let Seg::Key(k) = last else {
                            panic!("{s}: {r:?}")
                        };
                        let text = v[k.as_str()].as_str().unwrap();
                        assert_eq!(&text[start..end], name, "{s}: {}", r.path);
                    }
                }
                assert_eq!(path_string(&r.segs), r.path);
            }
        }
    }

    #[test]
    fn tree_references_in_guards() {
        let pack = sample("guards");
        let t = &pack.world.npcs[0].tree;
        let refs = to(&pack, &Target::Tree(t.clone()));
        assert!(refs.iter().any(|r| r.role == Role::Definition));
        assert!(
            refs.iter().any(|r| r.path == "world.npcs[0].tree"),
            "{refs:#?}"
        );
    }

    #[test]
    fn finds_every_kind_of_place() {
        let text = r#"{
          "format": "townsfolk-pack", "version": 1, "name": "refs",
          "world": { "flags": { "alarm": false }, "counters": { "coins": 0 },
            "objects": [ { "id": "door", "kind": "door", "pos": [1, 1] } ],
            "walls": [ { "id": "w", "shape": { "line": [[0, 1], [3, 1]] },
                         "doors": [ { "object": "door" } ] } ],
            "npcs": [ { "id": "bob", "pos": [0, 0], "tree": "main", "vars": { "hunger": 0.5 },
                        "inboxes": ["orders"] } ] },
          "trees": [
            { "id": "main", "blackboard": { "hunger": { "type": "float" } },
              "root": { "id": "root", "type": "sequence", "children": [
                { "id": "c", "type": "condition", "expr": "hunger > 0.2 && !flags.alarm && counters.coins >= 1" },
                { "id": "s", "type": "set", "var": "flags.alarm", "value": "true" },
                { "id": "m", "type": "move_to", "target": { "object": "door" } },
                { "id": "sub", "type": "subtree", "tree": "helper" },
                { "id": "w", "type": "wait_message", "inbox": "orders" }
              ] } },
            { "id": "helper", "root": { "id": "h", "type": "log", "text": "hunger and flags.alarm" } }
          ],
          "editor": { "trees": { "main": { "nodes": { "c": { "pos": [0, 0] } } } },
            "breakpoints": [ { "id": 1, "on": "node", "tree": "main", "node": "c" } ] }
        }"#;
        let loaded = crate::pack::load_str(text);
        let pack = loaded
            .pack
            .unwrap_or_else(|| panic!("{:#?}", loaded.diagnostics));
        let refs = all(&pack);
        let has = |t: Target, path: &str| {
            assert!(
                refs.iter().any(|r| r.target == t && r.path == path),
                "missing {t:?} at {path}
{refs:#?}"
            )
        };
        let var = |v: &str| Target::Var {
            tree: Some("main".into()),
            var: v.into(),
        };
        has(var("hunger"), "trees[0].blackboard.hunger");
        has(var("hunger"), "world.npcs[0].vars.hunger");
        has(var("hunger"), "trees[0].root.children[0].expr");
        has(
            Target::Flag("alarm".into()),
            "trees[0].root.children[0].expr",
        );
        has(
            Target::Flag("alarm".into()),
            "trees[0].root.children[1].var",
        );
        has(Target::Flag("alarm".into()), "world.flags.alarm");
        has(
            Target::Counter("coins".into()),
            "trees[0].root.children[0].expr",
        );
        has(
            Target::Object("door".into()),
            "trees[0].root.children[2].target.object",
        );
        has(
            Target::Object("door".into()),
            "world.walls[0].doors[0].object",
        );
        has(
            Target::Tree("helper".into()),
            "trees[0].root.children[3].tree",
        );
        has(
            Target::Inbox("orders".into()),
            "trees[0].root.children[4].inbox",
        );
        has(Target::Inbox("orders".into()), "world.npcs[0].inboxes[0]");
        has(Target::Tree("main".into()), "editor.trees.main");
        let node_c = Target::Node {
            tree: "main".into(),
            node: "c".into(),
        };
        has(node_c.clone(), "editor.trees.main.nodes.c");
        has(node_c.clone(), "editor.breakpoints[0].node");
        has(node_c, "trees[0].root.children[0].id");
        // A log text is not an expression.
        assert!(
            !refs
                .iter()
                .any(|r| r.path.starts_with("trees[1].root.text"))
        );
        // The flag's name in `set` is the part after `flags.`.
        let set = refs
            .iter()
            .find(|r| r.path == "trees[0].root.children[1].var")
            .unwrap();
        assert_eq!(set.place, Place::Within { start: 6, end: 11 });
    }

    #[test]
    fn content_tests_reference_npcs_areas_and_events() {
        let text = r#"{
          "format": "townsfolk-pack", "version": 1, "name": "refs",
          "world": { "flags": { "alarm": false },
            "npcs": [ { "id": "bob", "pos": [0, 0], "tree": "main" } ] },
          "trees": [ { "id": "main", "blackboard": { "hunger": { "type": "float" } },
                       "root": { "id": "w", "type": "wait", "seconds": 1 } } ],
          "areas": [ { "id": "pub", "shape": { "rect": { "min": [0, 0], "max": [5, 5] } } } ],
          "events": [ { "id": "fair", "title": "Fair" } ],
          "tests": [
            { "id": "t1", "rule": "always", "npc": "bob",
              "expr": "in_pub || hunger < 0.9 || flags.alarm" },
            { "id": "t2", "rule": "eventually", "expr": "count_pub > 0 && launched_fair >= 1 && in_nowhere" }
          ]
        }"#;
        let loaded = crate::pack::load_str(text);
        let pack = loaded
            .pack
            .unwrap_or_else(|| panic!("{:#?}", loaded.diagnostics));
        let refs = all(&pack);
        let at = |t: Target, path: &str| -> Vec<Place> {
            refs.iter()
                .filter(|r| r.target == t && r.path == path)
                .map(|r| r.place)
                .collect()
        };
        assert_eq!(
            at(Target::Npc("bob".into()), "tests[0].npc"),
            [Place::Value]
        );
        // `in_pub`: the area's id is the part after `in_`.
        assert_eq!(
            at(Target::Area("pub".into()), "tests[0].expr"),
            [Place::Within { start: 3, end: 6 }]
        );
        let hunger = Target::Var {
            tree: Some("main".into()),
            var: "hunger".into(),
        };
        assert_eq!(at(hunger, "tests[0].expr").len(), 1);
        assert_eq!(at(Target::Flag("alarm".into()), "tests[0].expr").len(), 1);
        assert_eq!(
            at(Target::Area("pub".into()), "tests[1].expr"),
            [Place::Within { start: 6, end: 9 }]
        );
        assert_eq!(
            at(Target::Event("fair".into()), "tests[1].expr"),
            [Place::Within { start: 26, end: 30 }]
        );
        // An id the pack does not define is no reference to an area.
        assert!(
            !refs
                .iter()
                .any(|r| r.target == Target::Area("nowhere".into()))
        );
    }

    #[test]
    fn expression_scan_follows_the_lexer() {
        let names: Vec<_> = scan_expr(
            r#"a + flags . b - counter.c * area.d > 1.5e3 && entity("x") == self && holders("relax") > 0 && "lit" != name && min(q, 2) > 0"#,
        )
        .into_iter()
        .map(|(n, _, _)| n)
        .collect();
        assert_eq!(
            names,
            vec![
                ExprName::Var("a".into()),
                ExprName::Flag("b".into()),
                ExprName::Counter("c".into()),
                ExprName::AreaVar("d".into()),
                ExprName::Entity("x".into()),
                ExprName::Template("relax".into()),
                ExprName::Var("name".into()),
                ExprName::Var("q".into()),
            ]
        );
    }
}
