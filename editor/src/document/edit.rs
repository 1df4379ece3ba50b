//! Edits: every change to a pack is an [`Edit`] value, applied by the one function [`apply`],
//! which returns the edit that undoes it. An inverse holds only the piece it replaced (a
//! node's properties, a removed subtree, one asset), never a copy of the pack.

use std::collections::BTreeMap;

use thiserror::Error;
use townsfolk_runtime::pack::{
    BreakpointDef, ClockDef, GraphLayout, Node, NodeKind, NodeLayout, Pack, Rect, TreeDirection,
    VarDecl, WallDef,
};

use super::asset::{AssetKind, AssetValue};
use super::tree;

/// One change to a pack. Data only: views build them, the document applies them.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// A change inside one behavior tree.
    Tree { tree: String, op: TreeOp },
    /// Sets (Some) or removes (None) the editor layout of one node of a tree (the pack's
    /// `editor.trees.TREE.nodes.NODE`). An empty tree layout is removed with its last node.
    Layout {
        tree: String,
        node: String,
        layout: Option<NodeLayout>,
    },
    /// Replaces (Some) or removes (None) the whole editor layout of a tree.
    TreeLayout {
        tree: String,
        layout: Option<GraphLayout>,
    },
    /// Puts, replaces or removes one whole asset. With `Some`, an asset of that kind with id
    /// `id` is replaced in place (the new value may carry a different id: a rename), or else
    /// the value is appended. With `None` the asset `id` is removed.
    Asset {
        kind: AssetKind,
        id: String,
        value: Option<AssetValue>,
    },
    /// Inserts a whole asset at a position of its list (clamped to the list's length); the
    /// inverse of removing one, so that undo puts it back where it was.
    InsertAsset { index: usize, value: AssetValue },
    /// The pack's name and comment.
    PackInfo {
        name: String,
        comment: Option<String>,
    },
    /// World settings other than its assets, flags and counters.
    World(WorldSettings),
    /// Sets (Some) or removes (None) a world flag's initial value.
    Flag { name: String, value: Option<bool> },
    /// Sets (Some) or removes (None) a world counter's initial value.
    Counter { name: String, value: Option<i64> },
    /// Replaces the debugger breakpoints saved in the pack.
    Breakpoints(Vec<BreakpointDef>),
    /// The direction the editor draws trees in (the pack's `editor.tree_direction`).
    TreeDirection(TreeDirection),
    /// Several edits as one; applied in order, all or none. The inverse is the reversed
    /// inverses.
    Batch(Vec<Edit>),
}

/// A change inside one tree. Nodes are named by id (unique within their tree).
#[derive(Clone, Debug, PartialEq)]
pub enum TreeOp {
    /// Inserts a subtree as child `index` of `parent` (clamped to its child count). Every id
    /// in the subtree must be new to the tree.
    Insert {
        parent: String,
        index: usize,
        node: Node,
    },
    /// Removes a node and its subtree (not the root).
    Remove { node: String },
    /// Moves a node (with its subtree) to child `index` of `parent`, the index counted after
    /// taking the node out. A node cannot move into its own subtree.
    Move {
        node: String,
        parent: String,
        index: usize,
    },
    /// Sets everything of a node but its id and children.
    SetProps { node: String, props: NodeProps },
    /// Changes a node's id (references to it are the caller's: see `ops::rename`).
    SetId { node: String, id: String },
    /// Declares (Some) or removes (None) a blackboard variable.
    SetBlackboard { var: String, decl: Option<VarDecl> },
    /// The tree's display name and comment.
    SetInfo {
        name: Option<String>,
        comment: Option<String>,
    },
    /// Replaces the whole root subtree.
    ReplaceRoot { node: Node },
}

/// The properties of a node: everything but its id and its children.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeProps {
    pub name: Option<String>,
    pub comment: Option<String>,
    pub disabled: bool,
    pub kind: NodeKind,
}

impl NodeProps {
    pub fn of(node: &Node) -> NodeProps {
        NodeProps {
            name: node.name.clone(),
            comment: node.comment.clone(),
            disabled: node.disabled,
            kind: node.kind.clone(),
        }
    }
}

/// World settings edited as one value.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldSettings {
    pub bounds: Rect,
    pub dt: f64,
    pub clock: ClockDef,
    pub scenario: Option<String>,
    /// Walls and their doors (a door names its object: renaming the object rewrites it).
    pub walls: Vec<WallDef>,
}

impl WorldSettings {
    pub fn of(pack: &Pack) -> WorldSettings {
        WorldSettings {
            bounds: pack.world.bounds,
            dt: pack.world.dt,
            clock: pack.world.clock.clone(),
            scenario: pack.world.scenario.clone(),
            walls: pack.world.walls.clone(),
        }
    }
}

/// Why an edit was refused. The pack is unchanged when an edit is refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum EditError {
    #[error("the document is read-only (it could not be read completely)")]
    ReadOnly,
    #[error("no tree `{0}`")]
    NoTree(String),
    #[error("no node `{node}` in tree `{tree}`")]
    NoNode { tree: String, node: String },
    #[error("tree `{tree}` already has a node `{node}`")]
    DuplicateNode { tree: String, node: String },
    #[error("the root of tree `{0}` cannot be removed or moved")]
    Root(String),
    #[error("node `{node}` cannot move into its own subtree (under `{parent}`)")]
    IntoItself { node: String, parent: String },
    #[error("no {} `{id}`", kind.label())]
    NoAsset { kind: AssetKind, id: String },
    #[error("there is already a {} `{id}`", kind.label())]
    DuplicateAsset { kind: AssetKind, id: String },
    #[error("an asset of kind {} cannot be stored as a {}", value.label(), kind.label())]
    KindMismatch { kind: AssetKind, value: AssetKind },
    #[error("{0}")]
    Invalid(String),
}

impl Edit {
    /// A short label for the undo menu ("Undo Set properties").
    pub fn label(&self) -> String {
        match self {
            Edit::Tree { op, .. } => match op {
                TreeOp::Insert { .. } => "Insert node",
                TreeOp::Remove { .. } => "Delete node",
                TreeOp::Move { .. } => "Move node",
                TreeOp::SetProps { .. } => "Edit node",
                TreeOp::SetId { .. } => "Rename node",
                TreeOp::SetBlackboard { .. } => "Edit blackboard",
                TreeOp::SetInfo { .. } => "Edit tree",
                TreeOp::ReplaceRoot { .. } => "Replace root",
            }
            .into(),
            Edit::Layout { .. } | Edit::TreeLayout { .. } => "Move nodes".into(),
            Edit::Asset { kind, value, .. } => match value {
                Some(_) => format!("Edit {}", kind.label()),
                None => format!("Delete {}", kind.label()),
            },
            Edit::InsertAsset { value, .. } => format!("Add {}", value.kind().label()),
            Edit::PackInfo { .. } => "Edit pack".into(),
            Edit::World(_) => "Edit world".into(),
            Edit::Flag { .. } => "Edit flag".into(),
            Edit::Counter { .. } => "Edit counter".into(),
            Edit::Breakpoints(_) => "Edit breakpoints".into(),
            Edit::TreeDirection(_) => "Change tree direction".into(),
            Edit::Batch(v) => match v.as_slice() {
                [one] => one.label(),
                _ => "Edit".into(),
            },
        }
    }

    /// Rough heap size of the edit's data in bytes (for the history's memory figure).
    pub fn approx_bytes(&self) -> usize {
        // A debug rendering is a fair, cheap upper estimate of the data an edit carries.
        std::mem::size_of::<Edit>() + format!("{self:?}").len()
    }
}

/// Applies `edit` to `pack` and returns the edit that undoes it. On error the pack is
/// unchanged (a failing batch rolls back the part it applied).
pub fn apply(pack: &mut Pack, edit: Edit) -> Result<Edit, EditError> {
    match edit {
        Edit::Tree { tree, op } => {
            let t = pack
                .trees
                .iter_mut()
                .find(|t| t.id == tree)
                .ok_or_else(|| EditError::NoTree(tree.clone()))?;
            let inv = tree::apply_op(t, op)?;
            Ok(Edit::Tree { tree, op: inv })
        }
        Edit::Layout { tree, node, layout } => {
            let trees = &mut pack.editor.trees;
            let existed = trees.contains_key(&tree);
            let was_empty = trees.get(&tree).is_some_and(|g| g.nodes.is_empty());
            let old = match layout {
                Some(l) => trees
                    .entry(tree.clone())
                    .or_default()
                    .nodes
                    .insert(node.clone(), l),
                None => {
                    let old = trees.get_mut(&tree).and_then(|g| g.nodes.remove(&node));
                    if old.is_some() && trees.get(&tree).is_some_and(|g| g.nodes.is_empty()) {
                        // The last node went: give back the whole (empty) layout on undo.
                        let g = trees.remove(&tree);
                        return Ok(Edit::Batch(vec![
                            Edit::TreeLayout {
                                tree: tree.clone(),
                                layout: g,
                            },
                            Edit::Layout {
                                tree,
                                node,
                                layout: old,
                            },
                        ]));
                    }
                    old
                }
            };
            if !existed && trees.contains_key(&tree) {
                // A new tree layout was created for this node: undo removes it whole.
                return Ok(Edit::TreeLayout { tree, layout: None });
            }
            if was_empty && trees.get(&tree).is_some_and(|g| !g.nodes.is_empty()) {
                // An empty layout got its first node: undo gives back the empty layout.
                return Ok(Edit::TreeLayout {
                    tree,
                    layout: Some(GraphLayout::default()),
                });
            }
            Ok(Edit::Layout {
                tree,
                node,
                layout: old,
            })
        }
        Edit::TreeLayout { tree, layout } => {
            let old = match layout {
                Some(l) => pack.editor.trees.insert(tree.clone(), l),
                None => pack.editor.trees.remove(&tree),
            };
            Ok(Edit::TreeLayout { tree, layout: old })
        }
        Edit::Asset { kind, id, value } => apply_asset(pack, kind, id, value),
        Edit::InsertAsset { index, value } => {
            let kind = value.kind();
            let id = value.id().to_string();
            if kind.position(pack, &id).is_some() {
                return Err(EditError::DuplicateAsset { kind, id });
            }
            insert_asset(pack, index, value);
            Ok(Edit::Asset {
                kind,
                id,
                value: None,
            })
        }
        Edit::PackInfo { name, comment } => {
            let old_name = std::mem::replace(&mut pack.name, name);
            let old_comment = std::mem::replace(&mut pack.comment, comment);
            Ok(Edit::PackInfo {
                name: old_name,
                comment: old_comment,
            })
        }
        Edit::World(s) => {
            let old = WorldSettings::of(pack);
            pack.world.bounds = s.bounds;
            pack.world.dt = s.dt;
            pack.world.clock = s.clock;
            pack.world.scenario = s.scenario;
            pack.world.walls = s.walls;
            Ok(Edit::World(old))
        }
        Edit::Flag { name, value } => {
            let old = set_map(&mut pack.world.flags, &name, value);
            Ok(Edit::Flag { name, value: old })
        }
        Edit::Counter { name, value } => {
            let old = set_map(&mut pack.world.counters, &name, value);
            Ok(Edit::Counter { name, value: old })
        }
        Edit::Breakpoints(list) => {
            let old = std::mem::replace(&mut pack.editor.breakpoints, list);
            Ok(Edit::Breakpoints(old))
        }
        Edit::TreeDirection(d) => {
            let old = std::mem::replace(&mut pack.editor.tree_direction, d);
            Ok(Edit::TreeDirection(old))
        }
        Edit::Batch(edits) => {
            let mut inverses = Vec::with_capacity(edits.len());
            for e in edits {
                match apply(pack, e) {
                    Ok(inv) => inverses.push(inv),
                    Err(err) => {
                        // Roll back what this batch applied; inverses of applied edits
                        // apply to the state they produced.
                        for inv in inverses.into_iter().rev() {
                            let _ = apply(pack, inv);
                        }
                        return Err(err);
                    }
                }
            }
            inverses.reverse();
            Ok(Edit::Batch(inverses))
        }
    }
}

fn set_map<V>(map: &mut BTreeMap<String, V>, name: &str, value: Option<V>) -> Option<V> {
    match value {
        Some(v) => map.insert(name.to_string(), v),
        None => map.remove(name),
    }
}

fn apply_asset(
    pack: &mut Pack,
    kind: AssetKind,
    id: String,
    value: Option<AssetValue>,
) -> Result<Edit, EditError> {
    let pos = kind.position(pack, &id);
    match (value, pos) {
        (None, None) => Err(EditError::NoAsset { kind, id }),
        (None, Some(i)) => {
            let old = remove_asset(pack, kind, i);
            Ok(Edit::InsertAsset {
                index: i,
                value: old,
            })
        }
        (Some(v), pos) => {
            if v.kind() != kind {
                return Err(EditError::KindMismatch {
                    kind,
                    value: v.kind(),
                });
            }
            let new_id = v.id().to_string();
            if new_id != id && kind.position(pack, &new_id).is_some() {
                return Err(EditError::DuplicateAsset { kind, id: new_id });
            }
            match pos {
                Some(i) => {
                    let old = replace_asset(pack, i, v);
                    Ok(Edit::Asset {
                        kind,
                        id: new_id,
                        value: Some(old),
                    })
                }
                None => {
                    if new_id != id {
                        return Err(EditError::NoAsset { kind, id });
                    }
                    let n = kind.count(pack);
                    insert_asset(pack, n, v);
                    Ok(Edit::Asset {
                        kind,
                        id: new_id,
                        value: None,
                    })
                }
            }
        }
    }
}

fn remove_asset(pack: &mut Pack, kind: AssetKind, i: usize) -> AssetValue {
    match kind {
        AssetKind::Tree => AssetValue::Tree(pack.trees.remove(i)),
        AssetKind::Area => AssetValue::Area(pack.areas.remove(i)),
        AssetKind::Event => AssetValue::Event(pack.events.remove(i)),
        AssetKind::Scenario => AssetValue::Scenario(pack.scenarios.remove(i)),
        AssetKind::Cast => AssetValue::Cast(pack.casts.remove(i)),
        AssetKind::Trigger => AssetValue::Trigger(pack.triggers.remove(i)),
        AssetKind::Npc => AssetValue::Npc(pack.world.npcs.remove(i)),
        AssetKind::Object => AssetValue::Object(pack.world.objects.remove(i)),
    }
}

fn insert_asset(pack: &mut Pack, index: usize, value: AssetValue) {
    fn ins<T>(v: &mut Vec<T>, i: usize, x: T) {
        let i = i.min(v.len());
        v.insert(i, x);
    }
    match value {
        AssetValue::Tree(a) => ins(&mut pack.trees, index, a),
        AssetValue::Area(a) => ins(&mut pack.areas, index, a),
        AssetValue::Event(a) => ins(&mut pack.events, index, a),
        AssetValue::Scenario(a) => ins(&mut pack.scenarios, index, a),
        AssetValue::Cast(a) => ins(&mut pack.casts, index, a),
        AssetValue::Trigger(a) => ins(&mut pack.triggers, index, a),
        AssetValue::Npc(a) => ins(&mut pack.world.npcs, index, a),
        AssetValue::Object(a) => ins(&mut pack.world.objects, index, a),
    }
}

/// Replaces the asset at `i` of the value's kind; returns the old one. The caller checked
/// that `i` is in range for that kind.
fn replace_asset(pack: &mut Pack, i: usize, value: AssetValue) -> AssetValue {
    use std::mem::replace;
    match value {
        AssetValue::Tree(a) => AssetValue::Tree(replace(&mut pack.trees[i], a)),
        AssetValue::Area(a) => AssetValue::Area(replace(&mut pack.areas[i], a)),
        AssetValue::Event(a) => AssetValue::Event(replace(&mut pack.events[i], a)),
        AssetValue::Scenario(a) => AssetValue::Scenario(replace(&mut pack.scenarios[i], a)),
        AssetValue::Cast(a) => AssetValue::Cast(replace(&mut pack.casts[i], a)),
        AssetValue::Trigger(a) => AssetValue::Trigger(replace(&mut pack.triggers[i], a)),
        AssetValue::Npc(a) => AssetValue::Npc(replace(&mut pack.world.npcs[i], a)),
        AssetValue::Object(a) => AssetValue::Object(replace(&mut pack.world.objects[i], a)),
    }
}
