//! What a pack holds and what references what (`townsfolk info`): its assets by kind with
//! their ids, and for every named thing (tree, area, behavior, NPC, …) where it is defined
//! and who uses it, built on [`crate::pack::refs`]. Reads the document only: a pack with
//! semantic errors can still be described.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::pack::refs::{self, Role, Seg, Target};
use crate::pack::{Node, Pack};

/// A pack described: its assets by kind, then who uses what.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Info {
    /// The pack's display name.
    pub name: String,
    /// Every asset kind, in a fixed order (empty kinds included, with no ids).
    pub assets: Vec<AssetKind>,
    /// Every named thing of the kinds in [`LISTED`], by kind in that order, then in the order
    /// it first appears in the document, with its definitions and its users.
    pub references: Vec<Uses>,
}

/// The ids of one kind of asset, in document order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AssetKind {
    /// `trees`, `areas`, `templates`, `npcs`, …
    pub kind: &'static str,
    pub count: usize,
    pub ids: Vec<String>,
}

/// One named thing: where it is defined and where it is used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Uses {
    /// `tree`, `node`, `area`, `template` (a behavior name), `npc`, `object`, `inbox`,
    /// `cast`, `flag`, `counter`, `var` (a blackboard variable), `area_var`, `event`,
    /// `scenario` or `trigger`.
    pub kind: &'static str,
    pub id: String,
    /// For a node or a blackboard variable: its tree (`None`: not known statically); for an
    /// area variable: its area.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The JSON paths that define it (none: nothing in the pack defines it).
    pub defined_at: Vec<String>,
    pub used_by: Vec<User>,
}

/// One use: the asset it sits in and its JSON path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct User {
    /// The asset holding the reference.
    pub asset: Owner,
    pub path: String,
}

/// The asset a JSON path lies in, and the part of it (a tree's node, an area's template,
/// a trigger system's trigger) when the path goes that deep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Owner {
    /// `tree`, `area`, `npc`, `object`, `world`, `event`, `scenario`, `cast`,
    /// `trigger_system`, `test` or `editor`.
    pub kind: &'static str,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
}

/// The kinds of names that [`Info::references`] lists (blackboard and area variables and
/// node ids are left to [`uses_of`], which finds every kind).
pub const LISTED: &[&str] = &[
    "tree", "area", "template", "npc", "object", "inbox", "cast", "flag", "counter", "event",
    "scenario", "trigger",
];

/// Describes a pack: assets by kind, and who uses each tree, area, behavior, NPC, object,
/// inbox, cast, flag, counter, story event, scenario and trigger. Layout entries of the
/// `editor` section (node positions) are not uses; saved breakpoints are.
pub fn info(pack: &Pack) -> Info {
    let mut references: Vec<Uses> = grouped(pack)
        .into_iter()
        .filter(|u| LISTED.contains(&u.kind))
        .collect();
    // By kind, then in order of first appearance (the sort is stable).
    references.sort_by_key(|u| LISTED.iter().position(|k| *k == u.kind));
    Info {
        name: pack.name.clone(),
        assets: assets(pack),
        references,
    }
}

/// Every named thing called `id`, of any kind (variables and nodes included), with its
/// definitions and users. Empty when the pack neither defines nor uses the name.
pub fn uses_of(pack: &Pack, id: &str) -> Vec<Uses> {
    grouped(pack).into_iter().filter(|u| u.id == id).collect()
}

/// Every name the pack defines or uses, sorted and without repeats: what `uses_of` can
/// find (for "did you mean").
pub fn all_names(pack: &Pack) -> Vec<String> {
    let mut v: Vec<String> = grouped(pack).into_iter().map(|u| u.id).collect();
    v.sort();
    v.dedup();
    v
}

fn kind_of(t: &Target) -> (&'static str, Option<String>) {
    match t {
        Target::Tree(_) => ("tree", None),
        Target::Node { tree, .. } => ("node", Some(tree.clone())),
        Target::Area(_) => ("area", None),
        Target::Template(_) => ("template", None),
        Target::Npc(_) => ("npc", None),
        Target::Object(_) => ("object", None),
        Target::Inbox(_) => ("inbox", None),
        Target::Cast(_) => ("cast", None),
        Target::Flag(_) => ("flag", None),
        Target::Counter(_) => ("counter", None),
        Target::Var { tree, .. } => ("var", tree.clone()),
        Target::AreaVar { area, .. } => ("area_var", area.clone()),
        Target::Event(_) => ("event", None),
        Target::Scenario(_) => ("scenario", None),
        Target::Trigger(_) => ("trigger", None),
    }
}

/// Every reference of the pack grouped by what it names, in order of first appearance.
fn grouped(pack: &Pack) -> Vec<Uses> {
    let mut order: BTreeMap<Target, usize> = BTreeMap::new();
    let mut out: Vec<Uses> = Vec::new();
    for r in refs::all(pack) {
        let layout = matches!(r.segs.first(), Some(Seg::Key(k)) if k == "editor")
            && matches!(r.segs.get(1), Some(Seg::Key(k)) if k == "trees");
        if layout {
            continue;
        }
        let i = *order.entry(r.target.clone()).or_insert_with(|| {
            let (kind, scope) = kind_of(&r.target);
            out.push(Uses {
                kind,
                id: r.target.name().to_string(),
                scope,
                defined_at: Vec::new(),
                used_by: Vec::new(),
            });
            out.len() - 1
        });
        match r.role {
            Role::Definition => out[i].defined_at.push(r.path),
            Role::Use => out[i].used_by.push(User {
                asset: owner(pack, &r.segs),
                path: r.path,
            }),
        }
    }
    out
}

fn key_at(segs: &[Seg], i: usize) -> Option<&str> {
    match segs.get(i) {
        Some(Seg::Key(k)) => Some(k),
        _ => None,
    }
}

fn index_at(segs: &[Seg], i: usize) -> Option<usize> {
    match segs.get(i) {
        Some(Seg::Index(n)) => Some(*n),
        _ => None,
    }
}

/// The asset (and part of it) that a reference's JSON path lies in.
pub fn owner(pack: &Pack, segs: &[Seg]) -> Owner {
    let make = |kind: &'static str, id: &str, part: Option<String>| Owner {
        kind,
        id: id.to_string(),
        part,
    };
    let world = || make("world", "world", None);
    let Some(section) = key_at(segs, 0) else {
        return world();
    };
    let i = index_at(segs, 1);
    match (section, i) {
        ("world", _) => {
            let j = index_at(segs, 2);
            match (key_at(segs, 1), j) {
                (Some("npcs"), Some(j)) => pack
                    .world
                    .npcs
                    .get(j)
                    .map_or_else(world, |n| make("npc", &n.id, None)),
                (Some("objects"), Some(j)) => pack
                    .world
                    .objects
                    .get(j)
                    .map_or_else(world, |o| make("object", &o.id, None)),
                _ => world(),
            }
        }
        ("trees", Some(i)) => match pack.trees.get(i) {
            Some(t) => make(
                "tree",
                &t.id,
                node_at(&t.root, &segs[2..]).map(|n| n.id.clone()),
            ),
            None => world(),
        },
        ("areas", Some(i)) => match pack.areas.get(i) {
            Some(a) => {
                let part = match (key_at(segs, 2), index_at(segs, 3)) {
                    (Some("templates"), Some(j)) => a.templates.get(j).map(|t| t.name.clone()),
                    (Some("brain"), _) => Some("brain".to_string()),
                    (Some("handlers"), _) => key_at(segs, 3).map(str::to_string),
                    _ => None,
                };
                make("area", &a.id, part)
            }
            None => world(),
        },
        ("events", Some(i)) => pack
            .events
            .get(i)
            .map_or_else(world, |e| make("event", &e.id, None)),
        ("scenarios", Some(i)) => pack
            .scenarios
            .get(i)
            .map_or_else(world, |s| make("scenario", &s.id, None)),
        ("casts", Some(i)) => pack
            .casts
            .get(i)
            .map_or_else(world, |c| make("cast", &c.id, None)),
        ("triggers", Some(i)) => match pack.triggers.get(i) {
            Some(s) => {
                let part = match (key_at(segs, 2), index_at(segs, 3)) {
                    (Some("triggers"), Some(j)) => s.triggers.get(j).map(|t| t.id.clone()),
                    _ => None,
                };
                make("trigger_system", &s.id, part)
            }
            None => world(),
        },
        ("tests", Some(i)) => pack
            .tests
            .get(i)
            .map_or_else(world, |t| make("test", &t.id, None)),
        ("editor", _) => make("editor", key_at(segs, 1).unwrap_or("editor"), None),
        _ => world(),
    }
}

/// The node a path below a tree (`root.children[2].…`) lies in, if it starts at the root.
fn node_at<'n>(root: &'n Node, segs: &[Seg]) -> Option<&'n Node> {
    if key_at(segs, 0) != Some("root") {
        return None;
    }
    let mut node = root;
    let mut k = 1;
    while key_at(segs, k) == Some("children") {
        match index_at(segs, k + 1).and_then(|i| node.children.get(i)) {
            Some(c) => node = c,
            None => break,
        }
        k += 2;
    }
    Some(node)
}

fn assets(pack: &Pack) -> Vec<AssetKind> {
    fn kind(kind: &'static str, ids: Vec<String>) -> AssetKind {
        AssetKind {
            kind,
            count: ids.len(),
            ids,
        }
    }
    fn unique(names: impl Iterator<Item = String>) -> Vec<String> {
        let mut seen = std::collections::BTreeSet::new();
        names.filter(|n| seen.insert(n.clone())).collect()
    }
    let w = &pack.world;
    vec![
        kind("trees", pack.trees.iter().map(|t| t.id.clone()).collect()),
        kind("areas", pack.areas.iter().map(|a| a.id.clone()).collect()),
        kind(
            "templates",
            unique(
                pack.areas
                    .iter()
                    .flat_map(|a| a.templates.iter().map(|t| t.name.clone())),
            ),
        ),
        kind("npcs", w.npcs.iter().map(|n| n.id.clone()).collect()),
        kind("objects", w.objects.iter().map(|o| o.id.clone()).collect()),
        kind("events", pack.events.iter().map(|e| e.id.clone()).collect()),
        kind(
            "scenarios",
            pack.scenarios.iter().map(|s| s.id.clone()).collect(),
        ),
        kind("casts", pack.casts.iter().map(|c| c.id.clone()).collect()),
        kind(
            "trigger_systems",
            pack.triggers.iter().map(|s| s.id.clone()).collect(),
        ),
        kind(
            "triggers",
            pack.triggers
                .iter()
                .flat_map(|s| s.triggers.iter().map(move |t| format!("{}/{}", s.id, t.id)))
                .collect(),
        ),
        kind("tests", pack.tests.iter().map(|t| t.id.clone()).collect()),
        kind("flags", w.flags.keys().cloned().collect()),
        kind("counters", w.counters.keys().cloned().collect()),
        kind(
            "inboxes",
            unique(
                w.npcs
                    .iter()
                    .flat_map(|n| n.inboxes.iter().cloned())
                    .chain(pack.areas.iter().flat_map(|a| a.inboxes.iter().cloned())),
            ),
        ),
    ]
}

impl Owner {
    /// `npc guard_a`, `tree patrol (node walk)`, `area pub (template drink)`.
    pub fn label(&self) -> String {
        let kind = self.kind.replace('_', " ");
        match &self.part {
            Some(p) => {
                let what = match self.kind {
                    "tree" => "node",
                    "area" => "",
                    "trigger_system" => "trigger",
                    _ => "",
                };
                if what.is_empty() {
                    format!("{kind} {} ({p})", self.id)
                } else {
                    format!("{kind} {} ({what} {p})", self.id)
                }
            }
            None if self.kind == "world" => "world".to_string(),
            None => format!("{kind} {}", self.id),
        }
    }
}

impl Uses {
    /// `tree `patrol``, `var `hunger` of tree `ada``.
    pub fn label(&self) -> String {
        let kind = match self.kind {
            "template" => "behavior",
            "area_var" => "area variable",
            "var" => "variable",
            k => k,
        };
        match (&self.scope, self.kind) {
            (Some(s), "area_var") => format!("{kind} `{}` of area `{s}`", self.id),
            (Some(s), _) => format!("{kind} `{}` of tree `{s}`", self.id),
            (None, _) => format!("{kind} `{}`", self.id),
        }
    }

    /// The text form: a head line, then one line per use (`ASSET  PATH`); with
    /// `definitions`, first one line per definition (`defined at  PATH`).
    pub fn to_text(&self, definitions: bool) -> String {
        let mut s = self.label();
        match (self.defined_at.is_empty(), self.used_by.is_empty()) {
            (_, false) => s.push_str(&format!(
                ": {} use{}",
                self.used_by.len(),
                if self.used_by.len() == 1 { "" } else { "s" }
            )),
            (false, true) => s.push_str(": defined, never used"),
            (true, true) => {}
        }
        if self.defined_at.is_empty() && self.kind != "template" {
            s.push_str(" (not defined in this pack)");
        }
        s.push('\n');
        let defined = "defined at";
        let labels: Vec<String> = self.used_by.iter().map(|u| u.asset.label()).collect();
        let width = labels
            .iter()
            .map(|l| l.chars().count())
            .chain(definitions.then_some(defined.len()))
            .max()
            .unwrap_or(0);
        if definitions {
            for d in &self.defined_at {
                s.push_str(&format!("  {defined:<width$}  {d}\n"));
            }
        }
        for (u, l) in self.used_by.iter().zip(&labels) {
            s.push_str(&format!("  {l:<width$}  {}\n", u.path));
        }
        s
    }
}

impl Info {
    /// The text form: one line per asset kind with its count and ids, then who uses what.
    pub fn to_text(&self) -> String {
        let mut s = format!("pack `{}`\n", self.name);
        for k in &self.assets {
            if k.ids.is_empty() {
                continue;
            }
            s.push_str(&format!(
                "{} ({}): {}\n",
                k.kind.replace('_', " "),
                k.count,
                k.ids.join(", ")
            ));
        }
        s.push_str("\nwho uses what:\n");
        for u in &self.references {
            s.push_str(&u.to_text(false));
        }
        s
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

    #[test]
    fn counts_match_the_pack_and_every_tree_is_listed() {
        let pack = sample("daily_life");
        let i = info(&pack);
        let trees = i.assets.iter().find(|k| k.kind == "trees").unwrap();
        assert_eq!(trees.count, pack.trees.len());
        assert_eq!(trees.ids[0], pack.trees[0].id);
        let npcs = i.assets.iter().find(|k| k.kind == "npcs").unwrap();
        assert_eq!(npcs.count, pack.world.npcs.len());
        for t in &pack.trees {
            assert!(
                i.references
                    .iter()
                    .any(|u| u.kind == "tree" && u.id == t.id),
                "tree {} not in the references",
                t.id
            );
        }
    }

    #[test]
    fn an_npcs_tree_is_used_by_that_npc() {
        let pack = sample("guards");
        let npc = &pack.world.npcs[0];
        let u = uses_of(&pack, &npc.tree);
        let tree = u.iter().find(|u| u.kind == "tree").unwrap();
        assert!(!tree.defined_at.is_empty());
        assert!(
            tree.used_by.iter().any(|x| x.asset
                == Owner {
                    kind: "npc",
                    id: npc.id.clone(),
                    part: None
                }
                && x.path == "world.npcs[0].tree"),
            "{tree:#?}"
        );
    }

    #[test]
    fn a_use_inside_a_tree_names_its_node() {
        let pack = sample("guards");
        let refs = refs::all(&pack);
        let r = refs
            .iter()
            .find(|r| r.role == Role::Use && r.path.starts_with("trees[0].root.children"))
            .unwrap();
        let o = owner(&pack, &r.segs);
        assert_eq!(o.kind, "tree");
        assert_eq!(o.id, pack.trees[0].id);
        let part = o.part.unwrap();
        // The node named is the one whose subtree the path ends in.
        let Seg::Index(c) = r.segs[4] else {
            panic!("{:?}", r.segs)
        };
        let first = &pack.trees[0].root.children[c];
        assert!(
            part == first.id || path_has_node(first, &part),
            "{part} not under {}",
            first.id
        );
    }

    fn path_has_node(n: &Node, id: &str) -> bool {
        n.id == id || n.children.iter().any(|c| path_has_node(c, id))
    }

    #[test]
    fn layout_is_not_a_use() {
        let pack = sample("guards");
        for u in grouped(&pack) {
            for x in &u.used_by {
                assert!(!x.path.starts_with("editor.trees"), "{x:?}");
            }
        }
    }
}
