//! Find (over ids, names, comments and parameter values of every asset) and find usages
//! (of a tree, a blackboard variable, a flag, a counter, an inbox, … — any
//! `pack::refs::Target`).

use serde_json::Value;
use townsfolk_runtime::pack::Pack;
use townsfolk_runtime::pack::refs::{self, Place, Ref, Role, Seg, Target};

use super::asset::{AssetKind, AssetRef};

/// One search result.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The asset it is in.
    pub asset: AssetRef,
    /// The node (of a tree) it is in, if any.
    pub item: Option<String>,
    /// JSON path from the pack's root.
    pub path: String,
    /// The text found (the whole value, for context).
    pub text: String,
}

/// Case-insensitive search over every string (and number) of every asset, and over object
/// keys (blackboard names, …). Results in pack order. An empty query finds nothing.
pub fn find(pack: &Pack, query: &str) -> Vec<Hit> {
    let q = query.trim().to_lowercase();
    if q.is_empty() {
        return Vec::new();
    }
    let mut hits = Vec::new();
    for kind in AssetKind::ALL {
        for id in kind.ids(pack) {
            let Some(value) = kind.get(pack, id) else {
                continue;
            };
            let index = kind.position(pack, id).unwrap_or(0);
            let mut path = format!("{}[{index}]", kind.json_path());
            let asset = AssetRef::new(kind, id);
            let mut node = None;
            walk(
                &value.to_json(),
                &q,
                &mut path,
                &asset,
                kind,
                &mut node,
                &mut hits,
            );
        }
    }
    hits
}

fn walk(
    v: &Value,
    q: &str,
    path: &mut String,
    asset: &AssetRef,
    kind: AssetKind,
    node: &mut Option<String>,
    hits: &mut Vec<Hit>,
) {
    let hit = |hits: &mut Vec<Hit>, text: String, path: &str, node: &Option<String>| {
        hits.push(Hit {
            asset: asset.clone(),
            item: node.clone(),
            path: path.to_string(),
            text,
        });
    };
    match v {
        Value::String(s) => {
            if s.to_lowercase().contains(q) {
                hit(hits, s.clone(), path, node);
            }
        }
        Value::Number(n) => {
            let s = n.to_string();
            if s == q {
                hit(hits, s, path, node);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let len = path.len();
                townsfolk_runtime::pack::diag::push_index(path, i);
                walk(x, q, path, asset, kind, node, hits);
                path.truncate(len);
            }
        }
        Value::Object(m) => {
            // A tree node: an object with an `id` and a `type` under the tree's `root`.
            let outer = node.clone();
            if kind == AssetKind::Tree
                && path.contains("root")
                && let (Some(Value::String(id)), Some(_)) = (m.get("id"), m.get("type"))
            {
                *node = Some(id.clone());
            }
            for (k, x) in m {
                let len = path.len();
                townsfolk_runtime::pack::diag::push_key(path, k);
                if k.to_lowercase().contains(q) && !matches!(x, Value::String(_)) {
                    hit(hits, k.clone(), path, node);
                }
                walk(x, q, path, asset, kind, node, hits);
                path.truncate(len);
            }
            *node = outer;
        }
        Value::Bool(_) | Value::Null => {}
    }
}

/// The asset (and tree node) a reference sits in, for showing it in a results list.
pub fn hit_of(pack: &Pack, r: &Ref) -> Option<Hit> {
    let s = &r.segs;
    let key = |i: usize| match s.get(i) {
        Some(Seg::Key(k)) => Some(k.as_str()),
        _ => None,
    };
    let index = |i: usize| match s.get(i) {
        Some(Seg::Index(n)) => Some(*n),
        _ => None,
    };
    let by_index = |kind: AssetKind, i: usize| -> Option<AssetRef> {
        kind.ids(pack).get(i).map(|id| AssetRef::new(kind, *id))
    };
    let (asset, item) = match key(0)? {
        "trees" => {
            let i = index(1)?;
            let t = pack.trees.get(i)?;
            // Follow `root` then `children[k]` to the innermost node on the path.
            let mut node = None;
            if key(2) == Some("root") {
                let mut n = &t.root;
                node = Some(n.id.clone());
                let mut j = 3;
                while key(j) == Some("children") {
                    let Some(c) = index(j + 1).and_then(|k| n.children.get(k)) else {
                        break;
                    };
                    n = c;
                    node = Some(n.id.clone());
                    j += 2;
                }
            }
            (AssetRef::tree(&t.id), node)
        }
        "areas" => (by_index(AssetKind::Area, index(1)?)?, None),
        "events" => (by_index(AssetKind::Event, index(1)?)?, None),
        "scenarios" => (by_index(AssetKind::Scenario, index(1)?)?, None),
        "casts" => (by_index(AssetKind::Cast, index(1)?)?, None),
        "triggers" => (by_index(AssetKind::Trigger, index(1)?)?, None),
        "world" => match key(1)? {
            "npcs" => (by_index(AssetKind::Npc, index(2)?)?, None),
            "objects" => (by_index(AssetKind::Object, index(2)?)?, None),
            _ => return None,
        },
        "editor" => match key(1)? {
            "trees" => {
                let t = key(2)?;
                (AssetRef::tree(t), key(4).map(str::to_string))
            }
            "breakpoints" => {
                let b = pack.editor.breakpoints.get(index(2)?)?;
                match &b.on {
                    townsfolk_runtime::pack::BreakOn::Node { tree, node, .. } => {
                        (AssetRef::tree(tree), Some(node.clone()))
                    }
                    _ => return None,
                }
            }
            _ => return None,
        },
        _ => return None,
    };
    let text = match r.place {
        Place::Key => r.target.name().to_string(),
        Place::Value | Place::Within { .. } => text_at(pack, &r.segs).unwrap_or_default(),
    };
    Some(Hit {
        asset,
        item,
        path: r.path.clone(),
        text,
    })
}

fn text_at(pack: &Pack, segs: &[Seg]) -> Option<String> {
    let (kind, skip) = match segs.first()? {
        Seg::Key(k) if k == "world" => match segs.get(1)? {
            Seg::Key(k) if k == "npcs" => (AssetKind::Npc, 3),
            Seg::Key(k) if k == "objects" => (AssetKind::Object, 3),
            _ => return None,
        },
        Seg::Key(k) => (
            match k.as_str() {
                "trees" => AssetKind::Tree,
                "areas" => AssetKind::Area,
                "events" => AssetKind::Event,
                "scenarios" => AssetKind::Scenario,
                "casts" => AssetKind::Cast,
                "triggers" => AssetKind::Trigger,
                _ => return None,
            },
            2,
        ),
        Seg::Index(_) => return None,
    };
    let i = match segs.get(skip - 1)? {
        Seg::Index(i) => *i,
        Seg::Key(_) => return None,
    };
    let id = kind.ids(pack).get(i)?.to_string();
    let mut v = kind.get(pack, &id)?.to_json();
    for s in &segs[skip..] {
        v = match s {
            Seg::Key(k) => v.get(k.as_str())?.clone(),
            Seg::Index(i) => v.get(*i)?.clone(),
        };
    }
    v.as_str().map(str::to_string)
}

/// Every use of a target (definitions left out), as hits. For a tree's blackboard variable
/// the places that read any NPC's blackboard under that name (template constraints, data
/// breakpoints without an NPC) are included too: they may mean it.
pub fn find_usages(pack: &Pack, target: &Target) -> Vec<Hit> {
    let loose = match target {
        Target::Var { tree: Some(_), var } => Some(Target::Var {
            tree: None,
            var: var.clone(),
        }),
        Target::AreaVar { area: Some(_), var } => Some(Target::AreaVar {
            area: None,
            var: var.clone(),
        }),
        _ => None,
    };
    refs::all(pack)
        .iter()
        .filter(|r| r.role == Role::Use)
        .filter(|r| &r.target == target || Some(&r.target) == loose.as_ref())
        .filter_map(|r| hit_of(pack, r))
        .collect()
}
