//! Operations: pure functions over `&Pack` that return the [`Edit`] to apply (add, delete,
//! move, reorder, duplicate, copy/paste, extract to a subtree). Renames are in
//! [`super::rename`], find in [`super::find`].

use std::collections::{BTreeMap, BTreeSet};

use townsfolk_runtime::pack::refs::{self, Target};
use townsfolk_runtime::pack::{
    Arity, GraphLayout, Node, NodeKind, NodeLayout, Pack, Point, TreeDef, VarDecl,
};

use super::asset::{AssetKind, AssetValue};
use super::clipboard::ClipboardPayload;
use super::edit::{Edit, EditError, TreeOp};
use super::tree;

/// What deleting a node with children does with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteMode {
    /// The node and everything under it.
    Subtree,
    /// Only the node: its children take its place in its parent, in order.
    LiftChildren,
}

fn tree_of<'a>(pack: &'a Pack, tree: &str) -> Result<&'a TreeDef, EditError> {
    pack.tree(tree)
        .ok_or_else(|| EditError::NoTree(tree.to_string()))
}

fn node_of<'a>(t: &'a TreeDef, id: &str) -> Result<&'a Node, EditError> {
    tree::find(&t.root, id).ok_or_else(|| EditError::NoNode {
        tree: t.id.clone(),
        node: id.to_string(),
    })
}

/// `base` if no node of the tree has that id, else `base_2`, `base_3`, …
pub fn unique_node_id(tree: &TreeDef, base: &str) -> String {
    let ids = tree::ids(&tree.root);
    unique_in(&ids, base)
}

fn unique_in(taken: &BTreeSet<String>, base: &str) -> String {
    let base = if base.trim().is_empty() { "node" } else { base };
    if !taken.contains(base) {
        return base.to_string();
    }
    // Strip a numeric suffix so copies of `wait_2` become `wait_3`, not `wait_2_2`.
    let stem = match base.rsplit_once('_') {
        Some((s, n)) if !s.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => s,
        _ => base,
    };
    (2..)
        .map(|i| format!("{stem}_{i}"))
        .find(|c| !taken.contains(c))
        .unwrap_or_else(|| format!("{stem}_copy"))
}

/// An id no asset of `kind` has yet, from `base`.
pub fn unique_asset_id(pack: &Pack, kind: AssetKind, base: &str) -> String {
    let taken: BTreeSet<String> = kind.ids(pack).into_iter().map(str::to_string).collect();
    unique_in(&taken, base)
}

/// A fresh node of a kind, with no children.
pub fn new_node(id: &str, kind: NodeKind) -> Node {
    Node {
        id: id.to_string(),
        name: None,
        comment: None,
        disabled: false,
        kind,
        children: Vec::new(),
    }
}

pub use super::defaults::default_kind;
pub use super::retype::change_type;

fn check_can_take(parent: &Node, adding: usize) -> Result<(), EditError> {
    match parent.kind.arity() {
        Arity::Leaf => Err(EditError::Invalid(format!(
            "`{}` is a {} node and takes no children",
            parent.id,
            parent.kind.type_name()
        ))),
        Arity::One if parent.children.len() + adding > 1 => Err(EditError::Invalid(format!(
            "`{}` is a decorator ({}) and takes exactly one child",
            parent.id,
            parent.kind.type_name()
        ))),
        _ => Ok(()),
    }
}

/// Adds a new node of `kind` as child `index` of `parent`, optionally placed at `pos` on the
/// canvas. Returns the edit and the new node's id.
pub fn add_node(
    pack: &Pack,
    tree: &str,
    parent: &str,
    index: usize,
    kind: NodeKind,
    pos: Option<Point>,
) -> Result<(Edit, String), EditError> {
    let t = tree_of(pack, tree)?;
    check_can_take(node_of(t, parent)?, 1)?;
    let id = unique_node_id(t, kind.type_name());
    let mut edits = vec![Edit::Tree {
        tree: tree.to_string(),
        op: TreeOp::Insert {
            parent: parent.to_string(),
            index,
            node: new_node(&id, kind),
        },
    }];
    if let Some(pos) = pos {
        edits.push(Edit::Layout {
            tree: tree.to_string(),
            node: id.clone(),
            layout: Some(NodeLayout {
                pos,
                collapsed: false,
                color: None,
            }),
        });
    }
    Ok((Edit::Batch(edits), id))
}

/// The selected nodes that are not inside another selected node, in tree order.
pub fn top_level(t: &TreeDef, nodes: &[String]) -> Vec<String> {
    let chosen: BTreeSet<&str> = nodes.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    fn walk(n: &Node, chosen: &BTreeSet<&str>, out: &mut Vec<String>) {
        if chosen.contains(n.id.as_str()) {
            out.push(n.id.clone());
            return;
        }
        for c in &n.children {
            walk(c, chosen, out);
        }
    }
    walk(&t.root, &chosen, &mut out);
    out
}

/// Edits removing the layouts and node breakpoints of these node ids (gone from the tree).
fn forget_nodes(pack: &Pack, tree: &str, ids: &BTreeSet<String>) -> Vec<Edit> {
    let mut edits = Vec::new();
    if let Some(g) = pack.editor.trees.get(tree) {
        let gone: Vec<&String> = g.nodes.keys().filter(|k| ids.contains(*k)).collect();
        if !gone.is_empty() {
            let mut kept = g.clone();
            kept.nodes.retain(|k, _| !ids.contains(k));
            edits.push(Edit::TreeLayout {
                tree: tree.to_string(),
                layout: (!kept.nodes.is_empty()).then_some(kept),
            });
        }
    }
    let bps = &pack.editor.breakpoints;
    let hits = |b: &townsfolk_runtime::pack::BreakpointDef| {
        matches!(&b.on, townsfolk_runtime::pack::BreakOn::Node { tree: t, node, .. }
            if t == tree && ids.contains(node))
    };
    if bps.iter().any(hits) {
        edits.push(Edit::Breakpoints(
            bps.iter().filter(|b| !hits(b)).cloned().collect(),
        ));
    }
    edits
}

/// Deletes nodes. With [`DeleteMode::LiftChildren`] each deleted node's children take its
/// place in its parent. The root cannot be deleted. Layouts and breakpoints of removed nodes
/// go with them.
pub fn delete_nodes(
    pack: &Pack,
    tree: &str,
    nodes: &[String],
    mode: DeleteMode,
) -> Result<Edit, EditError> {
    let t = tree_of(pack, tree)?;
    for n in nodes {
        node_of(t, n)?;
        if *n == t.root.id {
            return Err(EditError::Root(tree.to_string()));
        }
    }
    let top = top_level(t, nodes);
    let mut edits = Vec::new();
    let mut gone = BTreeSet::new();
    match mode {
        DeleteMode::Subtree => {
            for n in &top {
                let node = node_of(t, n)?;
                gone.extend(tree::ids(node));
                edits.push(Edit::Tree {
                    tree: tree.to_string(),
                    op: TreeOp::Remove { node: n.clone() },
                });
            }
        }
        DeleteMode::LiftChildren => {
            // Deepest first, so that a lifted child which is itself deleted is handled
            // before its parent moves it.
            let mut order: Vec<(usize, &String)> = nodes
                .iter()
                .map(|n| (tree::path_of(&t.root, n).map_or(0, |p| p.len()), n))
                .collect();
            order.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
            order.dedup_by(|a, b| a.1 == b.1);
            // Work on a scratch copy of the tree to compute each step's positions.
            let mut scratch = t.clone();
            for (_, n) in order {
                let Some((parent, index)) = tree::parent_of(&scratch.root, n) else {
                    return Err(EditError::Root(tree.to_string()));
                };
                let node = node_of(&scratch, n)?.clone();
                let parent_node = node_of(&scratch, &parent)?;
                if parent_node.kind.arity() == Arity::One && node.children.len() != 1 {
                    return Err(EditError::Invalid(format!(
                        "`{n}` has {} children; its parent `{parent}` is a decorator and takes \
                         exactly one: delete the whole subtree instead",
                        node.children.len()
                    )));
                }
                let mut step = Vec::new();
                for (k, c) in node.children.iter().enumerate() {
                    step.push(Edit::Tree {
                        tree: tree.to_string(),
                        op: TreeOp::Move {
                            node: c.id.clone(),
                            parent: parent.clone(),
                            index: index + 1 + k,
                        },
                    });
                }
                step.push(Edit::Tree {
                    tree: tree.to_string(),
                    op: TreeOp::Remove { node: n.clone() },
                });
                for e in &step {
                    if let Edit::Tree { op, .. } = e {
                        tree::apply_op(&mut scratch, op.clone())?;
                    }
                }
                gone.insert(n.clone());
                edits.extend(step);
            }
        }
    }
    edits.extend(forget_nodes(pack, tree, &gone));
    Ok(Edit::Batch(edits))
}

/// Moves a node under `parent` at `index` (re-parent or reorder; the index is counted
/// without the moved node).
pub fn move_node(
    pack: &Pack,
    tree: &str,
    node: &str,
    parent: &str,
    index: usize,
) -> Result<Edit, EditError> {
    let t = tree_of(pack, tree)?;
    node_of(t, node)?;
    let p = node_of(t, parent)?;
    let already_child = p.children.iter().any(|c| c.id == node);
    check_can_take(p, usize::from(!already_child))?;
    if tree::find(node_of(t, node)?, parent).is_some() {
        return Err(EditError::IntoItself {
            node: node.to_string(),
            parent: parent.to_string(),
        });
    }
    Ok(Edit::Tree {
        tree: tree.to_string(),
        op: TreeOp::Move {
            node: node.to_string(),
            parent: parent.to_string(),
            index,
        },
    })
}

/// Moves a node `delta` places among its siblings (Alt+←/→). None when it cannot move.
pub fn reorder(pack: &Pack, tree: &str, node: &str, delta: isize) -> Option<Edit> {
    let t = pack.tree(tree)?;
    let (parent, index) = tree::parent_of(&t.root, node)?;
    let siblings = tree::find(&t.root, &parent)?.children.len();
    let to = index as isize + delta;
    if to < 0 || to as usize >= siblings || delta == 0 {
        return None;
    }
    Some(Edit::Tree {
        tree: tree.to_string(),
        op: TreeOp::Move {
            node: node.to_string(),
            parent,
            index: to as usize,
        },
    })
}

/// The clipboard payload of the selected nodes (top-level ones, with their subtrees and the
/// layouts of every node in them).
pub fn copy(pack: &Pack, tree: &str, nodes: &[String]) -> Result<ClipboardPayload, EditError> {
    let t = tree_of(pack, tree)?;
    let top = top_level(t, nodes);
    if top.is_empty() {
        return Err(EditError::Invalid("nothing selected to copy".into()));
    }
    let mut copied = Vec::new();
    let mut layouts = BTreeMap::new();
    let layout = pack.editor.trees.get(tree);
    for n in &top {
        let node = node_of(t, n)?;
        if let Some(g) = layout {
            tree::visit(node, &mut |x| {
                if let Some(l) = g.nodes.get(&x.id) {
                    layouts.insert(x.id.clone(), l.clone());
                }
            });
        }
        copied.push(node.clone());
    }
    let mut payload = ClipboardPayload::new(tree, copied, layouts);
    payload.blackboard = used_declarations(t, &payload.nodes);
    Ok(payload)
}

/// The names of the blackboard variables of `tree` that `nodes` (with their subtrees) use:
/// in expressions, `{var}` text parameters and variable fields, as the runtime's reference
/// walker finds them.
pub fn variables_used(t: &TreeDef, nodes: &[Node]) -> BTreeSet<String> {
    // A scratch pack holding only these nodes under the tree's blackboard: every variable
    // reference found in it comes from them.
    let mut root = new_node("__scratch_root", NodeKind::Sequence { reactive: false });
    root.children = nodes.to_vec();
    let mut scratch = Pack::new("scratch");
    scratch.trees.push(TreeDef {
        id: t.id.clone(),
        name: None,
        comment: None,
        blackboard: t.blackboard.clone(),
        root,
    });
    refs::all(&scratch)
        .into_iter()
        .filter(|r| r.role == refs::Role::Use)
        .filter_map(|r| match r.target {
            Target::Var { var, .. } => Some(var),
            _ => None,
        })
        .collect()
}

/// The tree's declarations of the variables `nodes` use.
fn used_declarations(t: &TreeDef, nodes: &[Node]) -> BTreeMap<String, VarDecl> {
    let used = variables_used(t, nodes);
    t.blackboard
        .iter()
        .filter(|(k, _)| used.contains(*k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// What pasting does: the edit, the pasted top-level ids, and warnings (a declaration that
/// clashed with the target tree's: the target's was kept).
#[derive(Clone, Debug, PartialEq)]
pub struct Pasted {
    pub edit: Edit,
    pub ids: Vec<String>,
    pub warnings: Vec<String>,
}

/// Pastes a payload as children of `parent` from `index` on: ids are made unique in the
/// target tree, layouts follow (moved by `offset` when given), and the blackboard
/// declarations the nodes use are added where the target tree lacks them (one it declares
/// with another type keeps the target's, with a warning).
pub fn paste(
    pack: &Pack,
    tree: &str,
    parent: &str,
    index: usize,
    payload: &ClipboardPayload,
    offset: Option<Point>,
) -> Result<Pasted, EditError> {
    let t = tree_of(pack, tree)?;
    check_can_take(node_of(t, parent)?, payload.nodes.len())?;
    let mut taken = tree::ids(&t.root);
    let mut edits = Vec::new();
    let mut roots = Vec::new();
    let mut new_layouts = Vec::new();
    for (k, n) in payload.nodes.iter().enumerate() {
        let mut node = n.clone();
        renumber(&mut node, &mut taken, &mut |old, new| {
            if let Some(l) = payload.layouts.get(old) {
                let mut l = l.clone();
                if let Some(o) = offset {
                    l.pos.x += o.x;
                    l.pos.y += o.y;
                }
                new_layouts.push((new.to_string(), l));
            }
        });
        roots.push(node.id.clone());
        edits.push(Edit::Tree {
            tree: tree.to_string(),
            op: TreeOp::Insert {
                parent: parent.to_string(),
                index: index + k,
                node,
            },
        });
    }
    if !new_layouts.is_empty() {
        let mut g = pack.editor.trees.get(tree).cloned().unwrap_or_default();
        g.nodes.extend(new_layouts);
        edits.push(Edit::TreeLayout {
            tree: tree.to_string(),
            layout: Some(g),
        });
    }
    let mut warnings = Vec::new();
    for (var, decl) in &payload.blackboard {
        match t.blackboard.get(var) {
            None => edits.push(Edit::Tree {
                tree: tree.to_string(),
                op: TreeOp::SetBlackboard {
                    var: var.clone(),
                    decl: Some(decl.clone()),
                },
            }),
            Some(have) if have.ty != decl.ty => warnings.push(format!(
                "variable `{var}` is a {} in `{tree}` but a {} where the nodes were copied \
                 from: `{tree}`'s declaration is kept",
                have.ty, decl.ty
            )),
            Some(_) => {}
        }
    }
    Ok(Pasted {
        edit: Edit::Batch(edits),
        ids: roots,
        warnings,
    })
}

/// Gives every node of a subtree an id not in `taken` (keeping ids that are free), adding
/// them to `taken`; calls `moved(old, new)` for each node.
fn renumber(node: &mut Node, taken: &mut BTreeSet<String>, moved: &mut dyn FnMut(&str, &str)) {
    let new = unique_in(taken, &node.id);
    taken.insert(new.clone());
    moved(&node.id, &new);
    node.id = new;
    for c in &mut node.children {
        renumber(c, taken, moved);
    }
}

/// Duplicates the selected nodes next to themselves (each top-level one right after itself,
/// layouts shifted by `offset`). Returns the edit and the copies' ids.
pub fn duplicate(
    pack: &Pack,
    tree: &str,
    nodes: &[String],
    offset: Point,
) -> Result<(Edit, Vec<String>), EditError> {
    let t = tree_of(pack, tree)?;
    let top = top_level(t, nodes);
    let mut scratch = pack
        .tree(tree)
        .cloned()
        .ok_or_else(|| EditError::NoTree(tree.into()))?;
    let mut edits = Vec::new();
    let mut ids = Vec::new();
    let mut layout = pack.editor.trees.get(tree).cloned().unwrap_or_default();
    let mut layout_changed = false;
    for n in &top {
        let Some((parent, index)) = tree::parent_of(&scratch.root, n) else {
            return Err(EditError::Root(tree.to_string()));
        };
        check_can_take(node_of(&scratch, &parent)?, 1)?;
        let mut copy = node_of(&scratch, n)?.clone();
        let mut taken = tree::ids(&scratch.root);
        let old_layout = layout.clone();
        renumber(&mut copy, &mut taken, &mut |old, new| {
            if let Some(l) = old_layout.nodes.get(old) {
                let mut l = l.clone();
                l.pos.x += offset.x;
                l.pos.y += offset.y;
                layout.nodes.insert(new.to_string(), l);
                layout_changed = true;
            }
        });
        ids.push(copy.id.clone());
        let op = TreeOp::Insert {
            parent,
            index: index + 1,
            node: copy,
        };
        tree::apply_op(&mut scratch, op.clone())?;
        edits.push(Edit::Tree {
            tree: tree.to_string(),
            op,
        });
    }
    if layout_changed {
        edits.push(Edit::TreeLayout {
            tree: tree.to_string(),
            layout: Some(layout),
        });
    }
    Ok((Edit::Batch(edits), ids))
}

/// Cut: the payload to put on the clipboard and the edit deleting the nodes.
pub fn cut(
    pack: &Pack,
    tree: &str,
    nodes: &[String],
) -> Result<(ClipboardPayload, Edit), EditError> {
    let payload = copy(pack, tree, nodes)?;
    let edit = delete_nodes(pack, tree, nodes, DeleteMode::Subtree)?;
    Ok((payload, edit))
}

/// Extracts the selection into a new tree and puts a `subtree` node referencing it in its
/// place. The selection is one node, or siblings of one parent (then the new tree's root is
/// a sequence of them, in order). The new tree declares the source tree's blackboard
/// variables the extracted nodes use (a subtree runs on the NPC's blackboard). Returns the
/// edit and the new tree's id.
pub fn extract_subtree(
    pack: &Pack,
    tree: &str,
    nodes: &[String],
    new_tree_id: Option<&str>,
) -> Result<(Edit, String), EditError> {
    let t = tree_of(pack, tree)?;
    let top = top_level(t, nodes);
    let Some(first) = top.first() else {
        return Err(EditError::Invalid("nothing selected to extract".into()));
    };
    let base = new_tree_id.map_or_else(|| format!("{tree}_{first}"), str::to_string);
    let new_id = match new_tree_id {
        Some(id) if pack.tree(id).is_some() => {
            return Err(EditError::DuplicateAsset {
                kind: AssetKind::Tree,
                id: id.to_string(),
            });
        }
        Some(id) => id.to_string(),
        None => unique_asset_id(pack, AssetKind::Tree, &base),
    };
    let extracted: Vec<Node> = top
        .iter()
        .map(|n| node_of(t, n).cloned())
        .collect::<Result<_, _>>()?;
    let parent = if top.len() > 1 {
        let parents: BTreeSet<Option<String>> = top
            .iter()
            .map(|n| tree::parent_of(&t.root, n).map(|p| p.0))
            .collect();
        if parents.len() != 1 || parents.contains(&None) {
            return Err(EditError::Invalid(
                "extract works on one node or on siblings of one parent".into(),
            ));
        }
        true
    } else {
        false
    };
    let root = if parent {
        let mut taken = BTreeSet::new();
        for n in &extracted {
            taken.extend(tree::ids(n));
        }
        let mut seq = new_node(
            &unique_in(&taken, "sequence"),
            NodeKind::Sequence { reactive: false },
        );
        seq.children = extracted.clone();
        seq
    } else {
        extracted[0].clone()
    };
    let mut moved_ids = BTreeSet::new();
    for n in &extracted {
        moved_ids.extend(tree::ids(n));
    }
    let new_tree = TreeDef {
        id: new_id.clone(),
        name: None,
        comment: Some(format!("Extracted from `{tree}`.")),
        blackboard: used_declarations(t, std::slice::from_ref(&root)),
        root,
    };
    let mut edits = vec![Edit::Asset {
        kind: AssetKind::Tree,
        id: new_id.clone(),
        value: Some(AssetValue::Tree(new_tree)),
    }];
    // The subtree node: it keeps the first extracted node's place (and position).
    let mut remaining = tree::ids(&t.root);
    for id in &moved_ids {
        remaining.remove(id);
    }
    let sub_id = unique_in(&remaining, &format!("{new_id}_ref"));
    let sub = new_node(
        &sub_id,
        NodeKind::Subtree {
            tree: new_id.clone(),
        },
    );
    if *first == t.root.id {
        edits.push(Edit::Tree {
            tree: tree.to_string(),
            op: TreeOp::ReplaceRoot { node: sub },
        });
    } else {
        let Some((p, index)) = tree::parent_of(&t.root, first) else {
            return Err(EditError::Root(tree.to_string()));
        };
        for n in &top {
            edits.push(Edit::Tree {
                tree: tree.to_string(),
                op: TreeOp::Remove { node: n.clone() },
            });
        }
        edits.push(Edit::Tree {
            tree: tree.to_string(),
            op: TreeOp::Insert {
                parent: p,
                index,
                node: sub,
            },
        });
    }
    // Layouts travel with the nodes; the subtree node takes the first node's position.
    if let Some(g) = pack.editor.trees.get(tree) {
        let mut kept = g.clone();
        let mut moved = GraphLayout::default();
        for id in &moved_ids {
            if let Some(l) = kept.nodes.remove(id) {
                moved.nodes.insert(id.clone(), l);
            }
        }
        if let Some(l) = g.nodes.get(first) {
            kept.nodes.insert(sub_id.clone(), l.clone());
        }
        if !moved.nodes.is_empty() {
            edits.push(Edit::TreeLayout {
                tree: new_id.clone(),
                layout: Some(moved),
            });
            edits.push(Edit::TreeLayout {
                tree: tree.to_string(),
                layout: (!kept.nodes.is_empty()).then_some(kept),
            });
        }
    }
    Ok((Edit::Batch(edits), new_id))
}

/// The edit setting one node's layout position (keeping its collapsed state and colour).
pub fn set_position(pack: &Pack, tree: &str, node: &str, pos: Point) -> Edit {
    let old = pack
        .editor
        .trees
        .get(tree)
        .and_then(|g| g.nodes.get(node))
        .cloned();
    let layout = match old {
        Some(mut l) => {
            l.pos = pos;
            l
        }
        None => NodeLayout {
            pos,
            collapsed: false,
            color: None,
        },
    };
    Edit::Layout {
        tree: tree.to_string(),
        node: node.to_string(),
        layout: Some(layout),
    }
}
