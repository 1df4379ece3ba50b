//! From a tree of the pack to what the canvas draws: card positions (the pack's `editor`
//! layout, the tidy layout for cards without one), cards with their kind, key parameter and
//! problems, and numbered edges from each parent to its children in order.

use std::collections::BTreeMap;

use egui::{Color32, Pos2, Rect};
use townsfolk_runtime::pack::{Arity, Diagnostic, GraphLayout, Node, Pack, TreeDef};

use super::catalogue;
use super::layout::{NODE_SIZE, tidy, to_view};
use super::params::local_problems;
use crate::canvas::{EdgeView, NodeView, Port, Scene};

/// A card's place in its tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// Parent id and index among its children; `None` for the root.
    pub parent: Option<(String, usize)>,
    /// Depth below the root.
    pub depth: usize,
}

/// Everything a tree tab derives from the document, rebuilt when its revision changes.
pub struct Built {
    pub revision: u64,
    pub scene: Scene<String>,
    /// Top-left corner of every drawn card, where it is drawn (see `layout::to_view`).
    pub pos: BTreeMap<String, Pos2>,
    /// Every node of the tree (drawn or hidden under a collapsed one).
    pub place: BTreeMap<String, Place>,
}

/// Whether a node is collapsed in the layout.
pub fn is_collapsed(layout: Option<&GraphLayout>, id: &str) -> bool {
    layout
        .and_then(|l| l.nodes.get(id))
        .is_some_and(|n| n.collapsed)
}

/// Card positions: a saved position where the layout has one; otherwise the card keeps its
/// tidy offset from its parent's card (so a new child appears under its parent).
pub fn positions(tree: &TreeDef, layout: Option<&GraphLayout>) -> BTreeMap<String, Pos2> {
    let tidy_pos = tidy(&tree.root, Pos2::ZERO, &|id| is_collapsed(layout, id));
    let saved = |id: &str| {
        layout
            .and_then(|l| l.nodes.get(id))
            .map(|n| Pos2::new(n.pos.x as f32, n.pos.y as f32))
    };
    let mut out = BTreeMap::new();
    let root_pos = saved(&tree.root.id).unwrap_or(Pos2::ZERO);
    out.insert(tree.root.id.clone(), root_pos);
    let mut stack: Vec<&Node> = vec![&tree.root];
    while let Some(n) = stack.pop() {
        if is_collapsed(layout, &n.id) {
            continue;
        }
        let (Some(&p_tidy), Some(&p_pos)) = (tidy_pos.get(&n.id), out.get(&n.id)) else {
            continue;
        };
        for c in &n.children {
            let pos = match saved(&c.id) {
                Some(p) => p,
                None => p_pos + (tidy_pos.get(&c.id).copied().unwrap_or(p_tidy) - p_tidy),
            };
            out.insert(c.id.clone(), pos);
            stack.push(c);
        }
    }
    out
}

/// Every node's parent, index and depth.
pub fn places(root: &Node) -> BTreeMap<String, Place> {
    let mut out = BTreeMap::new();
    out.insert(
        root.id.clone(),
        Place {
            parent: None,
            depth: 0,
        },
    );
    let mut stack: Vec<(&Node, usize)> = vec![(root, 0)];
    while let Some((n, d)) = stack.pop() {
        for (i, c) in n.children.iter().enumerate() {
            out.insert(
                c.id.clone(),
                Place {
                    parent: Some((n.id.clone(), i)),
                    depth: d + 1,
                },
            );
            stack.push((c, d + 1));
        }
    }
    out
}

/// The number of nodes below a node.
pub fn descendants(n: &Node) -> usize {
    crate::document::tree::count(n) - 1
}

/// The node a diagnostic's JSON path points into, for a path below `trees[i].root`
/// (`trees[2].root.children[1].expr` → that child). `None` for paths elsewhere.
pub fn node_of_path<'a>(root: &'a Node, tree_prefix: &str, path: &str) -> Option<&'a Node> {
    let mut rest = path.strip_prefix(tree_prefix)?.strip_prefix(".root")?;
    if !(rest.is_empty() || rest.starts_with('.') || rest.starts_with('[')) {
        return None;
    }
    let mut node = root;
    while let Some(r) = rest.strip_prefix(".children[") {
        let Some(end) = r.find(']') else { break };
        let Ok(i) = r[..end].parse::<usize>() else {
            break;
        };
        let Some(c) = node.children.get(i) else { break };
        node = c;
        rest = &r[end + 1..];
    }
    Some(node)
}

/// Problems of each node: the document's diagnostics under the node, then the local checks.
pub fn problems(
    pack: &Pack,
    tree_index: usize,
    diagnostics: &[Diagnostic],
) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let Some(tree) = pack.trees.get(tree_index) else {
        return out;
    };
    let prefix = format!("trees[{tree_index}]");
    for d in diagnostics.iter().filter(|d| d.is_error()) {
        if let Some(n) = node_of_path(&tree.root, &prefix, &d.path) {
            out.entry(n.id.clone()).or_default().push(d.message.clone());
        }
    }
    let mut stack = vec![&tree.root];
    while let Some(n) = stack.pop() {
        for p in local_problems(pack, n) {
            let list = out.entry(n.id.clone()).or_default();
            if !list
                .iter()
                .any(|m| m.contains(&p) || p.contains(m.as_str()))
            {
                list.push(p);
            }
        }
        stack.extend(n.children.iter());
    }
    out
}

const PORT_COLOR: Color32 = Color32::from_gray(170);

/// Builds the canvas scene of a tree; `None` when the pack has no such tree.
pub fn build(
    pack: &Pack,
    tree_id: &str,
    diagnostics: &[Diagnostic],
    revision: u64,
) -> Option<Built> {
    let ti = pack.trees.iter().position(|t| t.id == tree_id)?;
    let tree = &pack.trees[ti];
    let layout = pack.editor.trees.get(tree_id);
    let dir = pack.editor.tree_direction;
    let pos: BTreeMap<String, Pos2> = positions(tree, layout)
        .into_iter()
        .map(|(k, p)| (k, to_view(p, dir)))
        .collect();
    let place = places(&tree.root);
    let problems = problems(pack, ti, diagnostics);
    let breakpoints: Vec<&str> = pack
        .editor
        .breakpoints
        .iter()
        .filter_map(|b| match &b.on {
            townsfolk_runtime::pack::BreakOn::Node { tree, node, .. } if tree == tree_id => {
                Some(node.as_str())
            }
            _ => None,
        })
        .collect();
    let mut nodes = Vec::with_capacity(pos.len());
    let mut edges = Vec::with_capacity(pos.len());
    let mut stack = vec![&tree.root];
    while let Some(n) = stack.pop() {
        let Some(&p) = pos.get(&n.id) else { continue };
        let info = catalogue::info_of(&n.kind);
        let collapsed = is_collapsed(layout, &n.id) && !n.children.is_empty();
        let accepts = n.kind.arity() != Arity::Leaf;
        let mut card = NodeView::new(
            n.id.clone(),
            Rect::from_min_size(p, NODE_SIZE),
            n.name.clone().unwrap_or_else(|| n.id.clone()),
        );
        card.subtitle = catalogue::key_parameter(&n.kind).or_else(|| Some(info.label.to_string()));
        card.icon = info.icon;
        card.color = info.color();
        card.badge = collapsed.then(|| format!("+{}", descendants(n)));
        card.comment = n.comment.is_some();
        card.disabled = n.disabled;
        card.error = problems.get(&n.id).map(|m| m.join("\n"));
        card.breakpoint = breakpoints.contains(&n.id.as_str());
        if n.id != tree.root.id {
            card.inputs.push(Port::new(PORT_COLOR));
        }
        if accepts {
            card.outputs.push(Port::new(PORT_COLOR));
        }
        nodes.push(card);
        if collapsed {
            continue;
        }
        let numbered = n.children.len() > 1;
        for (i, c) in n.children.iter().enumerate() {
            let mut edge = EdgeView::new(n.id.clone(), c.id.clone());
            edge.label = numbered.then(|| (i + 1).to_string());
            edge.color = if c.disabled {
                Color32::from_gray(90)
            } else {
                Color32::from_gray(150)
            };
            edges.push(edge);
        }
        stack.extend(n.children.iter().rev());
    }
    Some(Built {
        revision,
        scene: Scene {
            revision,
            nodes,
            edges,
        },
        pos,
        place,
    })
}
