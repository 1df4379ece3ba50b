//! What the tree editor's commands do to the document: each builds `Edit`s (through the
//! document's operations where one exists) and applies them as one undo step. Nothing here
//! touches the pack directly.

use std::collections::BTreeMap;

use egui::Pos2;
use townsfolk_runtime::pack::{Arity, Node, NodeLayout, Pack, Point, TreeDef};

use super::catalogue;
use super::layout::{NODE_SIZE, from_view, tidy};
use super::scene::is_collapsed;
use super::tab::{DeleteAsk, ExtractPopup, RenamePopup, Renaming, TreeTab};
use crate::document::tree::{find, parent_of};
use crate::document::{
    AssetKind, ClipboardPayload, DeleteMode, Edit, NodeProps, Target, TreeOp, find_usages, ops,
};
use crate::views::{ViewCtx, ViewRequest};

/// Applies one edit as one undo step, reporting a refusal on the status line.
pub(crate) fn apply(cx: &mut ViewCtx, what: &str, edit: Edit) -> bool {
    match cx.doc.apply(edit) {
        Ok(()) => true,
        Err(e) => {
            cx.status(format!("{what}: {e}"));
            false
        }
    }
}

fn tree<'a>(pack: &'a Pack, tab: &TreeTab) -> Option<&'a TreeDef> {
    pack.tree(&tab.tree_id)
}

fn layout_of(pack: &Pack, tree: &str, node: &str) -> Option<NodeLayout> {
    pack.editor
        .trees
        .get(tree)
        .and_then(|l| l.nodes.get(node))
        .cloned()
}

fn point(p: Pos2) -> Point {
    Point {
        x: p.x as f64,
        y: p.y as f64,
    }
}

fn layout_edit(tree: &str, node: &str, layout: Option<NodeLayout>) -> Edit {
    Edit::Layout {
        tree: tree.to_string(),
        node: node.to_string(),
        layout,
    }
}

/// Whether `node` accepts one more child.
fn accepts_child(node: &Node) -> bool {
    match node.kind.arity() {
        Arity::Many => true,
        Arity::One => node.children.is_empty(),
        Arity::Leaf => false,
    }
}

/// Where a new node goes for "insert under the selection": as the last child of the target
/// if it takes one more, else right after the target in its parent. `None` when neither works.
pub(crate) fn insert_target(tree: &TreeDef, target: &str) -> Option<(String, usize)> {
    let node = find(&tree.root, target)?;
    if accepts_child(node) {
        return Some((node.id.clone(), node.children.len()));
    }
    let (parent, index) = parent_of(&tree.root, target)?;
    let p = find(&tree.root, &parent)?;
    (p.kind.arity() == Arity::Many).then_some((parent, index + 1))
}

/// Inserts a node of a kind under the target (the given parent, else the single selected
/// node, else the root), selects it and frames it. `at` places its card there.
pub(crate) fn insert_kind(
    tab: &mut TreeTab,
    cx: &mut ViewCtx,
    type_name: &str,
    parent: Option<String>,
    at: Option<Pos2>,
) {
    let Some(info) = catalogue::info(type_name) else {
        cx.status(format!("unknown node kind `{type_name}`"));
        return;
    };
    let pack = cx.doc.pack();
    let Some(t) = tree(pack, tab) else { return };
    let sel = tab.selected(cx.doc);
    let target = parent
        .or_else(|| (sel.len() == 1).then(|| sel[0].clone()))
        .unwrap_or_else(|| t.root.id.clone());
    let Some((parent, index)) = insert_target(t, &target) else {
        cx.status(format!(
            "`{target}` takes no more children, and neither does its parent"
        ));
        return;
    };
    let dir = pack.editor.tree_direction;
    let pos = at.map(|at| point(from_view(at - NODE_SIZE / 2.0, dir)));
    let (edit, id) =
        match ops::add_node(pack, &tab.tree_id, &parent, index, info.default_kind(), pos) {
            Ok(r) => r,
            Err(e) => {
                cx.status(format!("Insert: {e}"));
                return;
            }
        };
    let mut edits = vec![edit];
    // A collapsed parent opens so the new card shows.
    if let Some(mut l) = layout_of(pack, &tab.tree_id, &parent)
        && l.collapsed
    {
        l.collapsed = false;
        edits.push(layout_edit(&tab.tree_id, &parent, Some(l)));
    }
    let edit = if edits.len() == 1 {
        edits.remove(0)
    } else {
        Edit::Batch(edits)
    };
    if apply(cx, "Insert", edit) {
        tab.select(cx.doc, vec![id.clone()]);
        tab.frame_pending = Some(id.clone());
        cx.status(format!("Inserted {} `{id}` under `{parent}`", info.label));
    }
}

/// Toggles `disabled` on the selected nodes (all become disabled unless all already are).
pub(crate) fn toggle_disabled(tab: &mut TreeTab, cx: &mut ViewCtx) {
    let sel = tab.selected(cx.doc);
    let Some(t) = tree(cx.doc.pack(), tab) else {
        return;
    };
    let nodes: Vec<&Node> = sel.iter().filter_map(|id| find(&t.root, id)).collect();
    if nodes.is_empty() {
        return;
    }
    let disable = !nodes.iter().all(|n| n.disabled);
    let edits: Vec<Edit> = nodes
        .iter()
        .map(|n| Edit::Tree {
            tree: tab.tree_id.clone(),
            op: TreeOp::SetProps {
                node: n.id.clone(),
                props: NodeProps {
                    disabled: disable,
                    ..NodeProps::of(n)
                },
            },
        })
        .collect();
    apply(
        cx,
        if disable { "Disable" } else { "Enable" },
        Edit::Batch(edits),
    );
}

/// Collapses (or expands) the selected nodes that have children.
pub(crate) fn toggle_collapsed(tab: &mut TreeTab, cx: &mut ViewCtx) {
    let sel = tab.selected(cx.doc);
    let pack = cx.doc.pack();
    let Some(t) = tree(pack, tab) else { return };
    let layout = pack.editor.trees.get(&tab.tree_id);
    let pos = super::scene::positions(t, layout);
    let with_children: Vec<&Node> = sel
        .iter()
        .filter_map(|id| find(&t.root, id))
        .filter(|n| !n.children.is_empty())
        .collect();
    if with_children.is_empty() {
        cx.status("Nothing to collapse: select a node with children");
        return;
    }
    let collapse = !with_children.iter().all(|n| is_collapsed(layout, &n.id));
    let edits: Vec<Edit> = with_children
        .iter()
        .map(|n| {
            let mut l = layout_of(pack, &tab.tree_id, &n.id).unwrap_or(NodeLayout {
                pos: point(pos.get(&n.id).copied().unwrap_or(Pos2::ZERO)),
                collapsed: false,
                color: None,
            });
            l.collapsed = collapse;
            layout_edit(&tab.tree_id, &n.id, Some(l))
        })
        .collect();
    apply(
        cx,
        if collapse { "Collapse" } else { "Expand" },
        Edit::Batch(edits),
    );
}

/// Moves the selected child one place earlier (`-1`) or later (`+1`) among its siblings.
pub(crate) fn move_child(tab: &mut TreeTab, cx: &mut ViewCtx, delta: isize) {
    let sel = tab.selected(cx.doc);
    let [one] = sel.as_slice() else {
        cx.status("Select one node to reorder it");
        return;
    };
    let Some(edit) = ops::reorder(cx.doc.pack(), &tab.tree_id, one, delta) else {
        return;
    };
    apply(cx, "Reorder", edit);
}

/// The layout edits that save every card's current position (keeping collapsed and colour),
/// so that after a first move the tree's layout is explicit. `pos` are drawn positions.
fn materialize(
    pack: &Pack,
    tab: &TreeTab,
    pos: &BTreeMap<String, Pos2>,
    skip: &[String],
) -> Vec<Edit> {
    let dir = pack.editor.tree_direction;
    pos.iter()
        .filter(|(id, _)| !skip.contains(id))
        .filter(|(id, _)| layout_of(pack, &tab.tree_id, id).is_none())
        .map(|(id, p)| {
            layout_edit(
                &tab.tree_id,
                id,
                Some(NodeLayout {
                    pos: point(from_view(*p, dir)),
                    collapsed: false,
                    color: None,
                }),
            )
        })
        .collect()
}

/// Cards dragged to new places: saves their positions, and a child dragged sideways past a
/// sibling takes its place in the order. One undo step.
pub(crate) fn moved(tab: &mut TreeTab, cx: &mut ViewCtx, moved: &[(String, Pos2)]) {
    let pack = cx.doc.pack();
    let Some(t) = tree(pack, tab) else { return };
    let Some(built) = &tab.built else { return };
    // Drawn positions to saved ones: the sibling order is along the saved x either way.
    let dir = pack.editor.tree_direction;
    let moved: Vec<(String, Pos2)> = moved
        .iter()
        .map(|(k, p)| (k.clone(), from_view(*p, dir)))
        .collect();
    let mut edits = Vec::new();
    let moved_ids: Vec<String> = moved.iter().map(|(k, _)| k.clone()).collect();
    edits.extend(materialize(pack, tab, &built.pos, &moved_ids));
    for (id, p) in &moved {
        let mut l = layout_of(pack, &tab.tree_id, id).unwrap_or(NodeLayout {
            pos: point(*p),
            collapsed: false,
            color: None,
        });
        l.pos = point(*p);
        edits.push(layout_edit(&tab.tree_id, id, Some(l)));
    }
    // Reorder: one moved child among its siblings, by the centres' x.
    if let [(id, p)] = moved.as_slice()
        && let Some((parent, index)) = built.place.get(id).and_then(|pl| pl.parent.clone())
        && let Some(par) = find(&t.root, &parent)
    {
        let mut xs: Vec<(f32, &str)> = par
            .children
            .iter()
            .map(|c| {
                let x = if c.id == *id {
                    p.x
                } else {
                    built.pos.get(&c.id).map_or(0.0, |q| from_view(*q, dir).x)
                };
                (x, c.id.as_str())
            })
            .collect();
        xs.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some(new) = xs.iter().position(|(_, c)| c == id)
            && new != index
        {
            edits.push(Edit::Tree {
                tree: tab.tree_id.clone(),
                op: TreeOp::Move {
                    node: id.clone(),
                    parent,
                    index: new,
                },
            });
        }
    }
    apply(cx, "Move", Edit::Batch(edits));
}

/// Re-parents `child` as the last child of `parent` (a connection drawn on the canvas).
pub(crate) fn connect(tab: &mut TreeTab, cx: &mut ViewCtx, parent: &str, child: &str) {
    let Some(t) = tree(cx.doc.pack(), tab) else {
        return;
    };
    let (Some(p), Some(c)) = (find(&t.root, parent), find(&t.root, child)) else {
        return;
    };
    if c.id == t.root.id {
        cx.status("The root has no parent; connect from it to a child instead");
        return;
    }
    if find(c, parent).is_some() {
        cx.status(format!(
            "`{parent}` is inside `{child}`: a node cannot be its own ancestor"
        ));
        return;
    }
    if p.children.iter().any(|x| x.id == child) {
        return;
    }
    let edit = match ops::move_node(cx.doc.pack(), &tab.tree_id, child, parent, p.children.len()) {
        Ok(e) => e,
        Err(e) => {
            cx.status(format!("Connect: {e}"));
            return;
        }
    };
    if apply(cx, "Connect", edit) {
        cx.status(format!("`{child}` is now under `{parent}`"));
    }
}

/// Tidy layout of the whole tree, or of the selected node's subtree (that card stays put).
pub(crate) fn auto_layout(tab: &mut TreeTab, cx: &mut ViewCtx) {
    let pack = cx.doc.pack();
    let Some(t) = tree(pack, tab) else { return };
    let layout = pack.editor.trees.get(&tab.tree_id);
    let sel = tab.selected(cx.doc);
    let current = super::scene::positions(t, layout);
    let (root, origin) = match sel.as_slice() {
        [one] => match find(&t.root, one) {
            Some(n) => (n, current.get(one).copied().unwrap_or(Pos2::ZERO)),
            None => (&t.root, Pos2::ZERO),
        },
        _ => (
            &t.root,
            current.get(&t.root.id).copied().unwrap_or(Pos2::ZERO),
        ),
    };
    let pos = tidy(root, origin, &|id| is_collapsed(layout, id));
    let edits: Vec<Edit> = pos
        .iter()
        .map(|(id, p)| {
            let mut l = layout_of(pack, &tab.tree_id, id).unwrap_or(NodeLayout {
                pos: point(*p),
                collapsed: false,
                color: None,
            });
            l.pos = point(*p);
            layout_edit(&tab.tree_id, id, Some(l))
        })
        .collect();
    let n = edits.len();
    if apply(cx, "Auto-layout", Edit::Batch(edits)) {
        cx.status(format!("Laid out {n} cards"));
    }
}

/// Deletes nodes; a composite with children asks first unless `mode` is given.
pub(crate) fn delete(
    tab: &mut TreeTab,
    cx: &mut ViewCtx,
    nodes: Vec<String>,
    mode: Option<DeleteMode>,
) {
    let Some(t) = tree(cx.doc.pack(), tab) else {
        return;
    };
    let nodes: Vec<String> = nodes
        .into_iter()
        .filter(|n| find(&t.root, n).is_some())
        .collect();
    if nodes.is_empty() {
        return;
    }
    if nodes.contains(&t.root.id) {
        cx.status("The root cannot be deleted (replace it or delete its children)");
        return;
    }
    let has_children = nodes
        .iter()
        .any(|n| find(&t.root, n).is_some_and(|x| !x.children.is_empty()));
    let mode = match mode {
        Some(m) => m,
        None if has_children => {
            tab.delete_ask = Some(DeleteAsk { nodes });
            return;
        }
        None => DeleteMode::Subtree,
    };
    match ops::delete_nodes(cx.doc.pack(), &tab.tree_id, &nodes, mode) {
        Ok(edit) => {
            if apply(cx, "Delete", edit) {
                tab.select(cx.doc, Vec::new());
                cx.status(format!("Deleted {}", nodes.join(", ")));
            }
        }
        Err(e) => cx.status(format!("Delete: {e}")),
    }
}

/// The JSON text of the selected nodes (with their layouts), for the clipboard.
pub(crate) fn copy_text(tab: &TreeTab, cx: &mut ViewCtx) -> Option<String> {
    let sel = tab.selected(cx.doc);
    if sel.is_empty() {
        return None;
    }
    match ops::copy(cx.doc.pack(), &tab.tree_id, &sel) {
        Ok(payload) => Some(payload.to_text()),
        Err(e) => {
            cx.status(format!("Copy: {e}"));
            None
        }
    }
}

/// Pastes clipboard JSON under the selected node (or the root); pasted ids are made unique;
/// the pasted nodes become the selection.
pub(crate) fn paste(tab: &mut TreeTab, cx: &mut ViewCtx, text: &str) {
    let payload = match ClipboardPayload::from_text(text) {
        Ok(p) => p,
        Err(e) => {
            cx.status(format!("Paste: {e}"));
            return;
        }
    };
    let Some(t) = tree(cx.doc.pack(), tab) else {
        return;
    };
    let sel = tab.selected(cx.doc);
    let target = if sel.len() == 1 {
        sel[0].clone()
    } else {
        t.root.id.clone()
    };
    let Some((parent, index)) = insert_target(t, &target) else {
        cx.status(format!(
            "`{target}` takes no more children, and neither does its parent"
        ));
        return;
    };
    match ops::paste(cx.doc.pack(), &tab.tree_id, &parent, index, &payload, None) {
        Ok(ops::Pasted {
            edit,
            ids,
            warnings,
        }) => {
            if apply(cx, "Paste", edit) {
                if let Some(first) = ids.first() {
                    tab.frame_pending = Some(first.clone());
                }
                let mut line = format!("Pasted {} under `{parent}`", ids.join(", "));
                for w in &warnings {
                    line.push_str(&format!(" — warning: {w}"));
                }
                cx.status(line);
                tab.select(cx.doc, ids);
            }
        }
        Err(e) => cx.status(format!("Paste: {e}")),
    }
}

/// Duplicates the selected nodes next to themselves.
pub(crate) fn duplicate(tab: &mut TreeTab, cx: &mut ViewCtx) {
    let sel = tab.selected(cx.doc);
    if sel.is_empty() {
        return;
    }
    let offset = Point {
        x: (NODE_SIZE.x * 0.25) as f64,
        y: (NODE_SIZE.y * 0.5) as f64,
    };
    match ops::duplicate(cx.doc.pack(), &tab.tree_id, &sel, offset) {
        Ok((edit, ids)) => {
            if apply(cx, "Duplicate", edit) {
                tab.select(cx.doc, ids);
            }
        }
        Err(e) => cx.status(format!("Duplicate: {e}")),
    }
}

/// Changes a node's type (one undo step), keeping its id, comment, position and — where the
/// new kind allows — its children; a refusal says why on the status line.
pub(crate) fn change_type(tab: &mut TreeTab, cx: &mut ViewCtx, node: &str, type_name: &str) {
    match ops::change_type(cx.doc.pack(), &tab.tree_id, node, type_name) {
        Ok(edit) => {
            if apply(cx, "Change type", edit) {
                let label = catalogue::info(type_name).map_or(type_name, |k| k.label);
                cx.status(format!("`{node}` is now a {label}"));
            }
        }
        Err(e) => cx.status(format!("Change type: {e}")),
    }
}

/// Draws the pack's trees top-down or left to right (saved in the pack's editor section; one
/// undo step).
pub(crate) fn set_direction(cx: &mut ViewCtx, dir: townsfolk_runtime::pack::TreeDirection) {
    if cx.doc.pack().editor.tree_direction != dir {
        apply(cx, "Tree direction", Edit::TreeDirection(dir));
    }
}

/// Opens the rename popup for a node.
pub(crate) fn ask_rename(tab: &mut TreeTab, node: &Node) {
    tab.rename = Some(RenamePopup {
        what: Renaming::Node,
        node: node.id.clone(),
        text: node.id.clone(),
        error: None,
        focus_requested: false,
    });
}

/// Renames a node id with every reference following; `Err` says why not.
pub(crate) fn rename(
    tab: &mut TreeTab,
    cx: &mut ViewCtx,
    old: &str,
    new: &str,
) -> Result<(), String> {
    let target = Target::Node {
        tree: tab.tree_id.clone(),
        node: old.to_string(),
    };
    let edit = crate::document::rename(cx.doc.pack(), &target, new).map_err(|e| e.to_string())?;
    let before = tab.selected(cx.doc);
    cx.doc.apply(edit).map_err(|e| e.to_string())?;
    let sel = before
        .into_iter()
        .map(|s| if s == old { new.to_string() } else { s })
        .collect();
    tab.select(cx.doc, sel);
    cx.status(format!("Renamed `{old}` to `{new}`"));
    Ok(())
}

/// Opens the rename popup for the tab's tree.
pub(crate) fn ask_rename_tree(tab: &mut TreeTab) {
    tab.rename = Some(RenamePopup {
        what: Renaming::Tree,
        node: tab.tree_id.clone(),
        text: tab.tree_id.clone(),
        error: None,
        focus_requested: false,
    });
}

/// Renames the tab's tree with every reference following (subtree nodes, NPCs, layouts,
/// breakpoints, …) as one undo step; the tab follows. `Err` says why not.
pub(crate) fn rename_tree(tab: &mut TreeTab, cx: &mut ViewCtx, new: &str) -> Result<(), String> {
    let old = tab.tree_id.clone();
    let edit = crate::document::rename_asset(cx.doc.pack(), AssetKind::Tree, &old, new)
        .map_err(|e| e.to_string())?;
    cx.doc.apply(edit).map_err(|e| e.to_string())?;
    tab.follow_renames(cx.doc);
    cx.status(format!("Renamed tree `{old}` to `{new}`"));
    Ok(())
}

/// Opens the rename popup for a blackboard variable of the tab's tree.
pub(crate) fn ask_rename_var(tab: &mut TreeTab, var: &str) {
    tab.rename = Some(RenamePopup {
        what: Renaming::Var,
        node: var.to_string(),
        text: var.to_string(),
        error: None,
        focus_requested: false,
    });
}

/// Whether `name` can name a blackboard variable (an identifier: letters, digits after the
/// first character, underscores).
pub(crate) fn is_var_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .enumerate()
            .all(|(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()))
}

/// Renames a blackboard variable of the tab's tree: its declaration and every use in the tree
/// (expressions, variable fields), the NPCs running it and their breakpoints, as one undo
/// step. `Err` says why not.
pub(crate) fn rename_var(
    tab: &mut TreeTab,
    cx: &mut ViewCtx,
    old: &str,
    new: &str,
) -> Result<(), String> {
    if !is_var_name(new) {
        return Err(format!(
            "`{new}` is not a variable name (letters, digits and _, not starting with a digit)"
        ));
    }
    let declared = cx
        .doc
        .pack()
        .tree(&tab.tree_id)
        .is_some_and(|t| t.blackboard.contains_key(new));
    if declared {
        return Err(format!("the tree already declares a variable `{new}`"));
    }
    let edit = crate::document::rename(cx.doc.pack(), &var_target(&tab.tree_id, old), new)
        .map_err(|e| e.to_string())?;
    cx.doc.apply(edit).map_err(|e| e.to_string())?;
    cx.status(format!("Renamed variable `{old}` to `{new}`"));
    Ok(())
}

/// Opens the extract popup for the selection.
pub(crate) fn ask_extract(tab: &mut TreeTab, cx: &mut ViewCtx) {
    let sel = tab.selected(cx.doc);
    if sel.is_empty() {
        cx.status("Select the nodes to extract first");
        return;
    }
    let id = ops::unique_asset_id(
        cx.doc.pack(),
        AssetKind::Tree,
        &format!("{}_part", tab.tree_id),
    );
    tab.extract = Some(ExtractPopup {
        nodes: sel,
        tree_id: id,
        error: None,
    });
}

/// Extracts nodes into a new tree with a `subtree` node in their place.
pub(crate) fn extract(
    tab: &mut TreeTab,
    cx: &mut ViewCtx,
    nodes: &[String],
    new_tree: &str,
) -> Result<(), String> {
    let (edit, _) = ops::extract_subtree(cx.doc.pack(), &tab.tree_id, nodes, Some(new_tree))
        .map_err(|e| e.to_string())?;
    cx.doc.apply(edit).map_err(|e| e.to_string())?;
    cx.status(format!("Extracted into the new tree `{new_tree}`"));
    Ok(())
}

/// Number of uses of each blackboard variable of the tree, from find-usages.
pub(crate) fn variable_uses(pack: &Pack, tree_id: &str) -> BTreeMap<String, usize> {
    let Some(t) = pack.tree(tree_id) else {
        return BTreeMap::new();
    };
    t.blackboard
        .keys()
        .map(|v| (v.clone(), find_usages(pack, &var_target(tree_id, v)).len()))
        .collect()
}

fn var_target(tree: &str, var: &str) -> Target {
    Target::Var {
        tree: Some(tree.to_string()),
        var: var.to_string(),
    }
}

pub(crate) fn find_variable_usages(tab: &TreeTab, cx: &mut ViewCtx, var: &str) {
    let hits = find_usages(cx.doc.pack(), &var_target(&tab.tree_id, var));
    cx.requests.push(ViewRequest::ShowHits {
        title: format!("Usages of variable `{var}`"),
        hits,
    });
}

pub(crate) fn find_tree_usages(cx: &mut ViewCtx, tree: &str) {
    let hits = find_usages(cx.doc.pack(), &Target::Tree(tree.to_string()));
    cx.requests.push(ViewRequest::ShowHits {
        title: format!("Usages of tree `{tree}`"),
        hits,
    });
}
