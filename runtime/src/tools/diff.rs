//! What changed between two packs (`townsfolk diff`): asset by asset (added, removed,
//! changed, keyed by id), each changed asset's fields by JSON path, and for trees node by
//! node (added, removed, moved, parameters changed, keyed by node id). Compares the
//! documents as read, so formatting and key order never count as changes.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use crate::pack::diag::{push_index, push_key};
use crate::pack::{Node, Pack, TreeDef};

/// Every change from pack `a` to pack `b`, in a fixed order (the pack's settings, the world,
/// NPCs, objects, trees, areas, events, scenarios, casts, trigger systems, content tests,
/// editor data;
/// within a kind, `a`'s order, then what `b` added).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PackDiff {
    pub changes: Vec<AssetChange>,
}

/// What happened to one asset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Added,
    Removed,
    Changed,
}

/// One asset that differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AssetChange {
    /// `pack`, `world`, `npc`, `object`, `tree`, `area`, `event`, `scenario`, `cast`,
    /// `trigger_system`, `test` (a content test) or `editor`.
    pub kind: &'static str,
    pub id: String,
    pub change: Change,
    /// For a changed asset: its fields that differ (for a tree, all but its nodes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldChange>,
    /// For a changed tree: its nodes that differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<NodeChange>,
}

/// One value that differs, by its JSON path inside the asset (or the node).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldChange {
    pub path: String,
    /// `None`: the field was added.
    pub old: Option<Value>,
    /// `None`: the field was removed.
    pub new: Option<Value>,
}

/// What happened to one node of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeEdit {
    Added,
    Removed,
    /// Under another parent, or in another place among the same siblings.
    Moved,
    /// Its type or parameters (anything but its children).
    Changed,
}

/// One node that differs (a node both moved and changed has two entries).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeChange {
    pub node: String,
    pub change: NodeEdit,
    /// The parent before (`None` for a root or an added node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_parent: Option<String>,
    /// The parent after (`None` for a root or a removed node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_parent: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldChange>,
}

impl PackDiff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

/// Compares two packs.
pub fn diff(a: &Pack, b: &Pack) -> PackDiff {
    let mut out = Vec::new();
    let (ja, jb) = (json(a), json(b));
    // The pack's own settings: every top-level field that is not a list of assets.
    let settings = |j: &Value| {
        let mut m = j.as_object().cloned().unwrap_or_default();
        for k in [
            "world",
            "trees",
            "areas",
            "events",
            "scenarios",
            "casts",
            "triggers",
            "tests",
            "editor",
        ] {
            m.remove(k);
        }
        Value::Object(m)
    };
    single(&mut out, "pack", &settings(&ja), &settings(&jb));
    let world = |j: &Value| {
        let mut m = j["world"].as_object().cloned().unwrap_or_default();
        m.remove("npcs");
        m.remove("objects");
        Value::Object(m)
    };
    single(&mut out, "world", &world(&ja), &world(&jb));
    let list = |j: &Value, k1: &str, k2: Option<&str>| -> Vec<Value> {
        let v = match k2 {
            Some(k2) => &j[k1][k2],
            None => &j[k1],
        };
        v.as_array().cloned().unwrap_or_default()
    };
    keyed(
        &mut out,
        "npc",
        &list(&ja, "world", Some("npcs")),
        &list(&jb, "world", Some("npcs")),
    );
    keyed(
        &mut out,
        "object",
        &list(&ja, "world", Some("objects")),
        &list(&jb, "world", Some("objects")),
    );
    trees(&mut out, a, b);
    for (kind, k) in [
        ("area", "areas"),
        ("event", "events"),
        ("scenario", "scenarios"),
        ("cast", "casts"),
        ("trigger_system", "triggers"),
        ("test", "tests"),
    ] {
        keyed(&mut out, kind, &list(&ja, k, None), &list(&jb, k, None));
    }
    let editor = |j: &Value| j.get("editor").cloned().unwrap_or(Value::Null);
    single(&mut out, "editor", &editor(&ja), &editor(&jb));
    PackDiff { changes: out }
}

fn json<T: Serialize>(x: &T) -> Value {
    // Serializing the pack model cannot fail: it holds only strings, numbers, bools,
    // vectors and string-keyed maps.
    serde_json::to_value(x).unwrap_or(Value::Null)
}

/// A one-of asset (the pack's settings, the world, the editor data).
fn single(out: &mut Vec<AssetChange>, kind: &'static str, a: &Value, b: &Value) {
    let mut fields = Vec::new();
    values(&mut fields, String::new(), a, b);
    if !fields.is_empty() {
        out.push(AssetChange {
            kind,
            id: kind.to_string(),
            change: Change::Changed,
            fields,
            nodes: Vec::new(),
        });
    }
}

/// The id of a list entry: `id`, or `name` (templates), or none.
fn entry_id(v: &Value) -> Option<&str> {
    v.get("id")
        .or_else(|| v.get("name"))
        .and_then(Value::as_str)
}

/// Keys list entries by id; a repeated id gets `#2`, `#3`, … (a pack with duplicate ids
/// has errors, but can still be compared).
fn by_id(list: &[Value]) -> Vec<(String, &Value)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            let id = entry_id(v).map_or_else(|| format!("[{i}]"), str::to_string);
            let n = seen.entry(id.clone()).or_insert(0);
            *n += 1;
            let key = if *n == 1 { id } else { format!("{id}#{n}") };
            (key, v)
        })
        .collect()
}

/// A list of assets keyed by id.
fn keyed(out: &mut Vec<AssetChange>, kind: &'static str, a: &[Value], b: &[Value]) {
    let (ka, kb) = (by_id(a), by_id(b));
    let in_b: BTreeMap<&str, &Value> = kb.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let in_a: BTreeSet<&str> = ka.iter().map(|(k, _)| k.as_str()).collect();
    for (id, va) in &ka {
        let change = match in_b.get(id.as_str()) {
            None => Some((Change::Removed, Vec::new())),
            Some(vb) => {
                let mut fields = Vec::new();
                values(&mut fields, String::new(), va, vb);
                (!fields.is_empty()).then_some((Change::Changed, fields))
            }
        };
        if let Some((change, fields)) = change {
            out.push(AssetChange {
                kind,
                id: id.clone(),
                change,
                fields,
                nodes: Vec::new(),
            });
        }
    }
    for (id, _) in &kb {
        if !in_a.contains(id.as_str()) {
            out.push(AssetChange {
                kind,
                id: id.clone(),
                change: Change::Added,
                fields: Vec::new(),
                nodes: Vec::new(),
            });
        }
    }
}

/// The field changes from `a` to `b` below `path`. Objects go key by key; lists of entries
/// with ids go entry by entry (`templates[drink].max_instances`), other lists of the same
/// length element by element; anything else that differs is one change.
fn values(out: &mut Vec<FieldChange>, path: String, a: &Value, b: &Value) {
    if a == b {
        return;
    }
    let at = |k: &str| {
        let mut p = path.clone();
        push_key(&mut p, k);
        p
    };
    match (a, b) {
        (Value::Object(ma), Value::Object(mb)) => {
            for (k, va) in ma {
                match mb.get(k) {
                    Some(vb) => values(out, at(k), va, vb),
                    None => out.push(FieldChange {
                        path: at(k),
                        old: Some(va.clone()),
                        new: None,
                    }),
                }
            }
            for (k, vb) in mb {
                if !ma.contains_key(k) {
                    out.push(FieldChange {
                        path: at(k),
                        old: None,
                        new: Some(vb.clone()),
                    });
                }
            }
        }
        (Value::Array(la), Value::Array(lb))
            if !la.is_empty()
                && !lb.is_empty()
                && la.iter().chain(lb).all(|v| entry_id(v).is_some()) =>
        {
            let (ka, kb) = (by_id(la), by_id(lb));
            let entry = |id: &str| format!("{path}[{id}]");
            let mb: BTreeMap<&str, &Value> = kb.iter().map(|(k, v)| (k.as_str(), *v)).collect();
            let sa: BTreeSet<&str> = ka.iter().map(|(k, _)| k.as_str()).collect();
            for (id, va) in &ka {
                match mb.get(id.as_str()) {
                    Some(vb) => values(out, entry(id), va, vb),
                    None => out.push(FieldChange {
                        path: entry(id),
                        old: Some((*va).clone()),
                        new: None,
                    }),
                }
            }
            for (id, vb) in &kb {
                if !sa.contains(id.as_str()) {
                    out.push(FieldChange {
                        path: entry(id),
                        old: None,
                        new: Some((*vb).clone()),
                    });
                }
            }
            let order = |k: &[(String, &Value)], other: &dyn Fn(&str) -> bool| -> Vec<Value> {
                k.iter()
                    .filter(|(id, _)| other(id))
                    .map(|(id, _)| Value::String(id.clone()))
                    .collect()
            };
            let (oa, ob) = (
                order(&ka, &|id| mb.contains_key(id)),
                order(&kb, &|id| sa.contains(id)),
            );
            if oa != ob {
                out.push(FieldChange {
                    path: format!("{path} (order)"),
                    old: Some(Value::Array(oa)),
                    new: Some(Value::Array(ob)),
                });
            }
        }
        (Value::Array(la), Value::Array(lb)) if la.len() == lb.len() => {
            for (i, (va, vb)) in la.iter().zip(lb).enumerate() {
                let mut p = path.clone();
                push_index(&mut p, i);
                values(out, p, va, vb);
            }
        }
        _ => out.push(FieldChange {
            path,
            old: Some(a.clone()),
            new: Some(b.clone()),
        }),
    }
}

/// A tree's nodes by id: parent, place among the siblings, and parameters (the node's
/// JSON without its children). `None` when an id repeats (then the tree is compared field
/// by field).
type Flat<'t> = Vec<(&'t str, Option<&'t str>, Value)>;

fn flatten(t: &TreeDef) -> Option<Flat<'_>> {
    fn walk<'t>(n: &'t Node, parent: Option<&'t str>, out: &mut Flat<'t>) {
        let mut params = json(n);
        if let Some(m) = params.as_object_mut() {
            m.remove("children");
            m.remove("id");
        }
        out.push((n.id.as_str(), parent, params));
        for c in &n.children {
            walk(c, Some(n.id.as_str()), out);
        }
    }
    let mut out = Vec::new();
    walk(&t.root, None, &mut out);
    let mut ids = BTreeSet::new();
    out.iter().all(|(id, _, _)| ids.insert(*id)).then_some(out)
}

/// The children ids of every node, in order.
fn children_of(t: &TreeDef) -> BTreeMap<&str, Vec<&str>> {
    fn walk<'t>(n: &'t Node, out: &mut BTreeMap<&'t str, Vec<&'t str>>) {
        out.entry(n.id.as_str())
            .or_insert_with(|| n.children.iter().map(|c| c.id.as_str()).collect());
        for c in &n.children {
            walk(c, out);
        }
    }
    let mut out = BTreeMap::new();
    walk(&t.root, &mut out);
    out
}

/// The elements of `a` that are not in a longest common subsequence of `a` and `b`: the
/// ones that changed place.
fn out_of_order<'s>(a: &[&'s str], b: &[&'s str]) -> BTreeSet<&'s str> {
    let (n, m) = (a.len(), b.len());
    let mut l = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            l[i][j] = if a[i] == b[j] {
                l[i + 1][j + 1] + 1
            } else {
                l[i + 1][j].max(l[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut kept = BTreeSet::new();
    while i < n && j < m {
        if a[i] == b[j] {
            kept.insert(a[i]);
            i += 1;
            j += 1;
        } else if l[i + 1][j] >= l[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    a.iter().copied().filter(|x| !kept.contains(x)).collect()
}

fn trees(out: &mut Vec<AssetChange>, a: &Pack, b: &Pack) {
    let ta: Vec<Value> = a.trees.iter().map(json).collect();
    let tb: Vec<Value> = b.trees.iter().map(json).collect();
    let mut plain = Vec::new();
    keyed(&mut plain, "tree", &ta, &tb);
    for mut c in plain {
        if c.change == Change::Changed
            && let (Some(x), Some(y)) = (a.tree(&c.id), b.tree(&c.id))
            && let (Some(fa), Some(fb)) = (flatten(x), flatten(y))
        {
            // The tree's own fields, then its nodes by id.
            let strip = |t: &TreeDef| {
                let mut v = json(t);
                if let Some(m) = v.as_object_mut() {
                    m.remove("root");
                }
                v
            };
            c.fields.clear();
            values(&mut c.fields, String::new(), &strip(x), &strip(y));
            c.nodes = nodes(x, y, &fa, &fb);
        }
        out.push(c);
    }
}

/// Node id → (parent id, parameters).
type Parents<'t> = BTreeMap<&'t str, (Option<&'t str>, &'t Value)>;

fn nodes(x: &TreeDef, y: &TreeDef, fa: &Flat<'_>, fb: &Flat<'_>) -> Vec<NodeChange> {
    let ma: Parents<'_> = fa.iter().map(|(id, p, v)| (*id, (*p, v))).collect();
    let mb: Parents<'_> = fb.iter().map(|(id, p, v)| (*id, (*p, v))).collect();
    let (ca, cb) = (children_of(x), children_of(y));
    // Nodes that kept their parent but changed place among the siblings both trees share.
    let mut reordered = BTreeSet::new();
    for (parent, kids_a) in &ca {
        let Some(kids_b) = cb.get(parent) else {
            continue;
        };
        fn stayed<'s>(kids: &[&'s str], other: &Parents<'_>, parent: &str) -> Vec<&'s str> {
            kids.iter()
                .copied()
                .filter(|k| other.get(k).is_some_and(|(p, _)| *p == Some(parent)))
                .collect()
        }
        let sa = stayed(kids_a, &mb, parent);
        let sb = stayed(kids_b, &ma, parent);
        reordered.extend(out_of_order(&sa, &sb));
    }
    let mut out = Vec::new();
    let node = |id: &str, change, old_parent: Option<&str>, new_parent: Option<&str>| NodeChange {
        node: id.to_string(),
        change,
        old_parent: old_parent.map(str::to_string),
        new_parent: new_parent.map(str::to_string),
        fields: Vec::new(),
    };
    for (id, parent, _) in fa {
        if !mb.contains_key(id) {
            out.push(node(id, NodeEdit::Removed, *parent, None));
        }
    }
    for (id, parent, params) in fb {
        let Some((old_parent, old_params)) = ma.get(id) else {
            out.push(node(id, NodeEdit::Added, None, *parent));
            continue;
        };
        if old_parent != parent || reordered.contains(id) {
            out.push(node(id, NodeEdit::Moved, *old_parent, *parent));
        }
        let mut fields = Vec::new();
        values(&mut fields, String::new(), old_params, params);
        if !fields.is_empty() {
            let mut c = node(id, NodeEdit::Changed, None, None);
            c.fields = fields;
            out.push(c);
        }
    }
    out
}

fn show(v: &Option<Value>) -> String {
    match v {
        None => "(none)".to_string(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 80 {
                let cut: String = s.chars().take(77).collect();
                format!("{cut}...")
            } else {
                s
            }
        }
    }
}

impl FieldChange {
    /// `speed: 1.4 -> 2`, `tags: added ["x"]`, `comment: removed`.
    pub fn to_text(&self) -> String {
        let path = if self.path.is_empty() {
            "(value)"
        } else {
            &self.path
        };
        match (&self.old, &self.new) {
            (None, n) => format!("{path}: added {}", show(n)),
            (o, None) => format!("{path}: removed (was {})", show(o)),
            (o, n) => format!("{path}: {} -> {}", show(o), show(n)),
        }
    }
}

impl NodeChange {
    pub fn to_text(&self) -> String {
        let p = |x: &Option<String>| x.as_deref().unwrap_or("(root)").to_string();
        match self.change {
            NodeEdit::Added => format!("node {}: added under {}", self.node, p(&self.new_parent)),
            NodeEdit::Removed => {
                format!(
                    "node {}: removed (was under {})",
                    self.node,
                    p(&self.old_parent)
                )
            }
            NodeEdit::Moved if self.old_parent == self.new_parent => format!(
                "node {}: moved among the children of {}",
                self.node,
                p(&self.new_parent)
            ),
            NodeEdit::Moved => format!(
                "node {}: moved from {} to {}",
                self.node,
                p(&self.old_parent),
                p(&self.new_parent)
            ),
            NodeEdit::Changed => {
                let f: Vec<String> = self.fields.iter().map(FieldChange::to_text).collect();
                format!("node {}: {}", self.node, f.join("; "))
            }
        }
    }
}

impl PackDiff {
    /// One line per asset (`tree patrol: changed`), then its fields and nodes indented.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for c in &self.changes {
            let what = match c.change {
                Change::Added => "added",
                Change::Removed => "removed",
                Change::Changed => "changed",
            };
            let kind = c.kind.replace('_', " ");
            if c.kind == c.id {
                s.push_str(&format!("{kind}: {what}\n"));
            } else {
                s.push_str(&format!("{kind} {}: {what}\n", c.id));
            }
            for f in &c.fields {
                s.push_str(&format!("  {}\n", f.to_text()));
            }
            for n in &c.nodes {
                s.push_str(&format!("  {}\n", n.to_text()));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guards() -> Pack {
        let path = format!("{}/../samples/guards.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        crate::pack::load_str(&text).pack.unwrap()
    }

    #[test]
    fn a_pack_equals_itself() {
        let a = guards();
        assert!(diff(&a, &a.clone()).is_empty());
    }

    #[test]
    fn assets_added_removed_changed() {
        let a = guards();
        let mut b = a.clone();
        b.world.npcs[0].speed += 1.0;
        let gone = b.world.objects.remove(0).id;
        let mut t = b.trees[0].clone();
        t.id = "patrol_copy".into();
        b.trees.push(t);
        let d = diff(&a, &b);
        let find = |kind: &str, id: &str| {
            d.changes
                .iter()
                .find(|c| c.kind == kind && c.id == id)
                .unwrap_or_else(|| panic!("no {kind} {id}: {d:#?}"))
        };
        let npc = find("npc", &a.world.npcs[0].id);
        assert_eq!(npc.change, Change::Changed);
        assert_eq!(npc.fields.len(), 1);
        assert_eq!(npc.fields[0].path, "speed");
        assert_eq!(find("object", &gone).change, Change::Removed);
        assert_eq!(find("tree", "patrol_copy").change, Change::Added);
        assert_eq!(d.changes.len(), 3, "{d:#?}");
    }

    #[test]
    fn tree_nodes_added_removed_moved_changed() {
        let a = guards();
        let mut b = a.clone();
        // In the guard tree: swap the first two children of the root (one moves), remove
        // the last child, change a wait somewhere, add a node.
        let root = &mut b.trees[1].root;
        root.children.swap(0, 1);
        let removed = root.children.pop().unwrap().id;
        root.children.push(Node {
            id: "new_log".into(),
            name: None,
            comment: None,
            disabled: false,
            kind: crate::pack::NodeKind::Log { text: "hi".into() },
            children: Vec::new(),
        });
        root.children[0].disabled = true;
        let changed = root.children[0].id.clone();
        let d = diff(&a, &b);
        assert_eq!(d.changes.len(), 1, "{d:#?}");
        let t = &d.changes[0];
        assert_eq!((t.kind, t.id.as_str()), ("tree", a.trees[1].id.as_str()));
        let has = |id: &str, e: NodeEdit| t.nodes.iter().any(|n| n.node == id && n.change == e);
        assert!(has(&removed, NodeEdit::Removed), "{t:#?}");
        assert!(has("new_log", NodeEdit::Added), "{t:#?}");
        assert!(has(&changed, NodeEdit::Changed), "{t:#?}");
        let moved: Vec<&NodeChange> = t
            .nodes
            .iter()
            .filter(|n| n.change == NodeEdit::Moved)
            .collect();
        assert_eq!(moved.len(), 1, "one of the swapped pair moved: {t:#?}");
        let c = t
            .nodes
            .iter()
            .find(|n| n.change == NodeEdit::Changed)
            .unwrap();
        assert_eq!(c.fields[0].path, "disabled");
        assert!(t.fields.is_empty());
    }

    #[test]
    fn content_tests_are_assets_of_their_own() {
        let a = guards();
        let mut v = serde_json::to_value(&a).unwrap();
        v["tests"] = serde_json::json!([
            {"id": "rested", "rule": "always", "npc": "guard_1", "expr": "fatigue <= 1"}
        ]);
        let b = crate::pack::load_str(&v.to_string()).pack.unwrap();
        let d = diff(&a, &b);
        assert_eq!(d.changes.len(), 1, "{d:#?}");
        assert_eq!(
            (
                d.changes[0].kind,
                d.changes[0].id.as_str(),
                d.changes[0].change
            ),
            ("test", "rested", Change::Added)
        );
    }

    #[test]
    fn lists_with_ids_are_compared_by_id() {
        let mut out = Vec::new();
        let a = serde_json::json!({"templates": [{"name": "a", "x": 1}, {"name": "b", "x": 2}]});
        let b = serde_json::json!({"templates": [{"name": "b", "x": 3}, {"name": "a", "x": 1}]});
        values(&mut out, String::new(), &a, &b);
        let paths: Vec<&str> = out.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, vec!["templates[b].x", "templates (order)"]);
    }
}
