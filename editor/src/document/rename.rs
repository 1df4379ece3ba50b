//! Rename an id with every reference following: the references come from
//! `townsfolk_runtime::pack::refs`; each asset they sit in is rewritten through its JSON at
//! the references' paths and replaced whole (an undo step costs the assets touched, not the
//! pack).

use std::collections::BTreeMap;

use serde_json::Value;
use townsfolk_runtime::pack::Pack;
use townsfolk_runtime::pack::refs::{self, Place, Ref, Seg, Target};

use super::asset::{AssetKind, AssetValue};
use super::edit::{Edit, EditError, WorldSettings};

/// The same target under another name.
pub fn renamed(target: &Target, new: &str) -> Target {
    let n = new.to_string();
    match target {
        Target::Tree(_) => Target::Tree(n),
        Target::Node { tree, .. } => Target::Node {
            tree: tree.clone(),
            node: n,
        },
        Target::Area(_) => Target::Area(n),
        Target::Template(_) => Target::Template(n),
        Target::Npc(_) => Target::Npc(n),
        Target::Object(_) => Target::Object(n),
        Target::Inbox(_) => Target::Inbox(n),
        Target::Cast(_) => Target::Cast(n),
        Target::Flag(_) => Target::Flag(n),
        Target::Counter(_) => Target::Counter(n),
        Target::Var { tree, .. } => Target::Var {
            tree: tree.clone(),
            var: n,
        },
        Target::AreaVar { area, .. } => Target::AreaVar {
            area: area.clone(),
            var: n,
        },
        Target::Event(_) => Target::Event(n),
        Target::Scenario(_) => Target::Scenario(n),
        Target::Trigger(_) => Target::Trigger(n),
    }
}

/// What renaming the asset `id` of `kind` renames.
pub fn asset_target(kind: AssetKind, id: &str) -> Target {
    let id = id.to_string();
    match kind {
        AssetKind::Tree => Target::Tree(id),
        AssetKind::Area => Target::Area(id),
        AssetKind::Event => Target::Event(id),
        AssetKind::Scenario => Target::Scenario(id),
        AssetKind::Cast => Target::Cast(id),
        AssetKind::Trigger => Target::Trigger(id),
        AssetKind::Npc => Target::Npc(id),
        AssetKind::Object => Target::Object(id),
    }
}

/// The edit renaming an asset (a tree, an area, an NPC, …) with every reference following.
/// Refused with a message naming the problem when the new id is empty, has spaces around it
/// or is already taken by an asset of that kind (or, for NPCs, objects and areas, by any
/// entity).
pub fn rename_asset(pack: &Pack, kind: AssetKind, old: &str, new: &str) -> Result<Edit, EditError> {
    if kind.position(pack, old).is_none() {
        return Err(EditError::NoAsset {
            kind,
            id: old.to_string(),
        });
    }
    if new.trim().is_empty() {
        return Err(EditError::Invalid(format!(
            "the new id of {} `{old}` is empty",
            kind.label().to_lowercase()
        )));
    }
    if new != old && kind.position(pack, new).is_some() {
        return Err(EditError::DuplicateAsset {
            kind,
            id: new.to_string(),
        });
    }
    rename(pack, &asset_target(kind, old), new)
}

/// Which piece of the pack a reference sits in.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Asset(AssetKind, usize),
    EditorTree(String),
    Breakpoints,
    Flags,
    Counters,
    WorldScenario,
    /// `world.walls` (doors name their objects).
    Walls,
}

/// The unit of a reference and the number of path segments that lead to it.
fn unit_of(r: &Ref) -> Option<(Unit, usize)> {
    use Seg::{Index, Key};
    let s = &r.segs;
    let k = |i: usize| match s.get(i) {
        Some(Key(k)) => Some(k.as_str()),
        _ => None,
    };
    let ix = |i: usize| match s.get(i) {
        Some(Index(n)) => Some(*n),
        _ => None,
    };
    let top = |kind| Some((Unit::Asset(kind, ix(1)?), 2));
    match k(0)? {
        "trees" => top(AssetKind::Tree),
        "areas" => top(AssetKind::Area),
        "events" => top(AssetKind::Event),
        "scenarios" => top(AssetKind::Scenario),
        "casts" => top(AssetKind::Cast),
        "triggers" => top(AssetKind::Trigger),
        "world" => match k(1)? {
            "npcs" => Some((Unit::Asset(AssetKind::Npc, ix(2)?), 3)),
            "objects" => Some((Unit::Asset(AssetKind::Object, ix(2)?), 3)),
            "flags" => Some((Unit::Flags, 2)),
            "counters" => Some((Unit::Counters, 2)),
            "scenario" => Some((Unit::WorldScenario, 2)),
            "walls" => Some((Unit::Walls, 2)),
            _ => None,
        },
        "editor" => match k(1)? {
            "trees" => Some((Unit::EditorTree(k(2)?.to_string()), 3)),
            "breakpoints" => Some((Unit::Breakpoints, 2)),
            _ => None,
        },
        _ => None,
    }
}

/// Rewrites one reference inside a JSON value: `segs` lead from `root` to the place.
/// Rewrites every reference of `list` (each with the depth its unit starts at) in `json`.
fn rewrite_all(json: &mut Value, list: &[(&Ref, usize)], new: &str) -> Result<(), EditError> {
    for (r, depth) in list {
        rewrite(json, &r.segs[*depth..], r.place, new).map_err(EditError::Invalid)?;
    }
    Ok(())
}

/// `value` with every reference of `list` rewritten, through its JSON form.
fn rewritten<T: serde::Serialize + serde::de::DeserializeOwned>(
    value: &T,
    list: &[(&Ref, usize)],
    new: &str,
) -> Result<T, EditError> {
    let invalid = |e: serde_json::Error| EditError::Invalid(e.to_string());
    let mut json = serde_json::to_value(value).map_err(invalid)?;
    rewrite_all(&mut json, list, new)?;
    serde_json::from_value(json).map_err(invalid)
}

fn rewrite(root: &mut Value, segs: &[Seg], place: Place, new: &str) -> Result<(), String> {
    let bad = || format!("reference path not found at {}", refs::path_string(segs));
    let Some((last, up)) = segs.split_last() else {
        return Err(bad());
    };
    let mut v = root;
    for s in up {
        v = match s {
            Seg::Key(k) => v.get_mut(k.as_str()),
            Seg::Index(i) => v.get_mut(*i),
        }
        .ok_or_else(bad)?;
    }
    match (place, last) {
        (Place::Key, Seg::Key(old)) => {
            let m = v.as_object_mut().ok_or_else(bad)?;
            let x = m.remove(old.as_str()).ok_or_else(bad)?;
            m.insert(new.to_string(), x);
        }
        (Place::Value, _) => {
            let x = match last {
                Seg::Key(k) => v.get_mut(k.as_str()),
                Seg::Index(i) => v.get_mut(*i),
            }
            .ok_or_else(bad)?;
            *x = Value::String(new.to_string());
        }
        (Place::Within { start, end }, Seg::Key(k)) => {
            let x = v.get_mut(k.as_str()).ok_or_else(bad)?;
            let s = x.as_str().ok_or_else(bad)?;
            let (Some(a), Some(b)) = (s.get(..start), s.get(end..)) else {
                return Err(bad());
            };
            *x = Value::String(format!("{a}{new}{b}"));
        }
        _ => return Err(bad()),
    }
    Ok(())
}

fn is_valid_name(s: &str) -> bool {
    !s.trim().is_empty() && s.trim() == s
}

/// The edit renaming `target` to `new` everywhere it is referenced (definitions included).
/// Refused when the new name is empty or already names something of that kind.
///
/// `Var { tree: Some(t) }` renames that tree's variable (its declaration, its nodes'
/// expressions and fields, the NPCs running it, breakpoints on those NPCs); places that read
/// "whatever NPC" blackboard (`tree: None`, such as template constraints) are listed by
/// find-usages but not renamed.
pub fn rename(pack: &Pack, target: &Target, new: &str) -> Result<Edit, EditError> {
    if !is_valid_name(new) {
        return Err(EditError::Invalid(format!(
            "`{new}` is not a valid name (empty or with spaces around it)"
        )));
    }
    if target.name() == new {
        return Ok(Edit::Batch(Vec::new()));
    }
    let all = refs::all(pack);
    let wanted = renamed(target, new);
    if all.iter().any(|r| r.target == wanted) {
        return Err(EditError::Invalid(format!("`{new}` is already used")));
    }
    // An entity id is one namespace (NPCs, objects, areas).
    if matches!(target, Target::Npc(_) | Target::Object(_) | Target::Area(_)) {
        let w = &pack.world;
        if w.npcs.iter().any(|n| n.id == new)
            || w.objects.iter().any(|o| o.id == new)
            || pack.areas.iter().any(|a| a.id == new)
        {
            return Err(EditError::Invalid(format!(
                "`{new}` is already the id of an NPC, object or area"
            )));
        }
    }
    let mine: Vec<&Ref> = all.iter().filter(|r| &r.target == target).collect();
    if mine.is_empty() {
        return Err(EditError::Invalid(format!(
            "nothing in the pack refers to `{}`",
            target.name()
        )));
    }
    let mut by_unit: BTreeMap<Unit, Vec<(&Ref, usize)>> = BTreeMap::new();
    for r in mine {
        let (u, depth) = unit_of(r).ok_or_else(|| {
            EditError::Invalid(format!("cannot rename the reference at {}", r.path))
        })?;
        by_unit.entry(u).or_default().push((r, depth));
    }
    let mut edits = Vec::new();
    for (unit, mut list) in by_unit {
        // Within one string, rewrite later ranges first so earlier offsets stay valid.
        list.sort_by(|a, b| {
            let start = |r: &Ref| match r.place {
                Place::Within { start, .. } => start,
                _ => 0,
            };
            a.0.segs.cmp(&b.0.segs).then(start(b.0).cmp(&start(a.0)))
        });
        match unit {
            Unit::Asset(kind, index) => {
                let id = kind
                    .ids(pack)
                    .get(index)
                    .map(|s| s.to_string())
                    .ok_or_else(|| EditError::Invalid("asset index out of range".into()))?;
                let value = kind.get(pack, &id).ok_or_else(|| EditError::NoAsset {
                    kind,
                    id: id.clone(),
                })?;
                let mut json = value.to_json();
                rewrite_all(&mut json, &list, new)?;
                let value = AssetValue::from_json(kind, json).map_err(EditError::Invalid)?;
                edits.push(Edit::Asset {
                    kind,
                    id,
                    value: Some(value),
                });
            }
            Unit::EditorTree(tree) => {
                let Some(g) = pack.editor.trees.get(&tree) else {
                    continue;
                };
                let mut json =
                    serde_json::to_value(g).map_err(|e| EditError::Invalid(e.to_string()))?;
                let mut new_key = tree.clone();
                for (r, depth) in &list {
                    if r.segs.len() == *depth {
                        // The layout's own key: the tree was renamed.
                        new_key = new.to_string();
                    } else {
                        rewrite(&mut json, &r.segs[*depth..], r.place, new)
                            .map_err(EditError::Invalid)?;
                    }
                }
                let g =
                    serde_json::from_value(json).map_err(|e| EditError::Invalid(e.to_string()))?;
                if new_key != tree {
                    edits.push(Edit::TreeLayout {
                        tree: tree.clone(),
                        layout: None,
                    });
                }
                edits.push(Edit::TreeLayout {
                    tree: new_key,
                    layout: Some(g),
                });
            }
            Unit::Breakpoints => {
                let bps = rewritten(&pack.editor.breakpoints, &list, new)?;
                edits.push(Edit::Breakpoints(bps));
            }
            Unit::Flags => {
                let old = target.name();
                if let Some(v) = pack.world.flags.get(old) {
                    edits.push(Edit::Flag {
                        name: old.to_string(),
                        value: None,
                    });
                    edits.push(Edit::Flag {
                        name: new.to_string(),
                        value: Some(*v),
                    });
                }
            }
            Unit::Counters => {
                let old = target.name();
                if let Some(v) = pack.world.counters.get(old) {
                    edits.push(Edit::Counter {
                        name: old.to_string(),
                        value: None,
                    });
                    edits.push(Edit::Counter {
                        name: new.to_string(),
                        value: Some(*v),
                    });
                }
            }
            Unit::WorldScenario => {
                let mut s = WorldSettings::of(pack);
                s.scenario = Some(new.to_string());
                edits.push(Edit::World(s));
            }
            Unit::Walls => {
                let mut s = WorldSettings::of(pack);
                s.walls = rewritten(&pack.world.walls, &list, new)?;
                edits.push(Edit::World(s));
            }
        }
    }
    Ok(Edit::Batch(edits))
}
