//! Node-level helpers over one behavior tree: finding nodes by id, their parents, every id,
//! and applying one [`TreeOp`].

use std::collections::BTreeSet;

use townsfolk_runtime::pack::{Node, TreeDef};

use super::edit::{EditError, NodeProps, TreeOp};

/// The child indices leading from the root to the node with this id.
pub fn path_of(root: &Node, id: &str) -> Option<Vec<usize>> {
    fn walk(n: &Node, id: &str, path: &mut Vec<usize>) -> bool {
        if n.id == id {
            return true;
        }
        for (i, c) in n.children.iter().enumerate() {
            path.push(i);
            if walk(c, id, path) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = Vec::new();
    walk(root, id, &mut path).then_some(path)
}

/// The node at a path of child indices.
pub fn at<'a>(root: &'a Node, path: &[usize]) -> Option<&'a Node> {
    let mut n = root;
    for &i in path {
        n = n.children.get(i)?;
    }
    Some(n)
}

fn at_mut<'a>(root: &'a mut Node, path: &[usize]) -> Option<&'a mut Node> {
    let mut n = root;
    for &i in path {
        n = n.children.get_mut(i)?;
    }
    Some(n)
}

/// The node with this id.
pub fn find<'a>(root: &'a Node, id: &str) -> Option<&'a Node> {
    if root.id == id {
        return Some(root);
    }
    root.children.iter().find_map(|c| find(c, id))
}

/// The parent's id and the node's index among its children (None for the root or an
/// unknown id).
pub fn parent_of(root: &Node, id: &str) -> Option<(String, usize)> {
    let path = path_of(root, id)?;
    let (&last, up) = path.split_last()?;
    Some((at(root, up)?.id.clone(), last))
}

/// Every node id of a subtree, sorted.
pub fn ids(root: &Node) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    visit(root, &mut |n| {
        out.insert(n.id.clone());
    });
    out
}

/// Calls `f` on every node of a subtree, depth first, parents before children.
pub fn visit(root: &Node, f: &mut dyn FnMut(&Node)) {
    f(root);
    for c in &root.children {
        visit(c, f);
    }
}

/// Number of nodes in a subtree.
pub fn count(root: &Node) -> usize {
    1 + root.children.iter().map(count).sum::<usize>()
}

fn no_node(tree: &str, node: &str) -> EditError {
    EditError::NoNode {
        tree: tree.to_string(),
        node: node.to_string(),
    }
}

/// Applies one op to a tree; returns its inverse. The tree is unchanged on error.
pub fn apply_op(tree: &mut TreeDef, op: TreeOp) -> Result<TreeOp, EditError> {
    let tid = tree.id.clone();
    match op {
        TreeOp::Insert {
            parent,
            index,
            node,
        } => {
            let existing = ids(&tree.root);
            let mut dup = None;
            visit(&node, &mut |n| {
                if dup.is_none() && existing.contains(&n.id) {
                    dup = Some(n.id.clone());
                }
            });
            // Ids must also be unique inside the inserted subtree itself.
            if dup.is_none() {
                let mut seen = BTreeSet::new();
                visit(&node, &mut |n| {
                    if dup.is_none() && !seen.insert(n.id.clone()) {
                        dup = Some(n.id.clone());
                    }
                });
            }
            if let Some(d) = dup {
                return Err(EditError::DuplicateNode {
                    tree: tree.id.clone(),
                    node: d,
                });
            }
            let path = path_of(&tree.root, &parent).ok_or_else(|| no_node(&tid, &parent))?;
            let p = at_mut(&mut tree.root, &path).ok_or_else(|| no_node(&tid, &parent))?;
            let index = index.min(p.children.len());
            let id = node.id.clone();
            p.children.insert(index, node);
            Ok(TreeOp::Remove { node: id })
        }
        TreeOp::Remove { node } => {
            let path = path_of(&tree.root, &node).ok_or_else(|| no_node(&tid, &node))?;
            let Some((&last, up)) = path.split_last() else {
                return Err(EditError::Root(tree.id.clone()));
            };
            let p = at_mut(&mut tree.root, up).ok_or_else(|| no_node(&tid, &node))?;
            let removed = p.children.remove(last);
            Ok(TreeOp::Insert {
                parent: p.id.clone(),
                index: last,
                node: removed,
            })
        }
        TreeOp::Move {
            node,
            parent,
            index,
        } => {
            let from = path_of(&tree.root, &node).ok_or_else(|| no_node(&tid, &node))?;
            let Some((&old_index, old_up)) = from.split_last() else {
                return Err(EditError::Root(tree.id.clone()));
            };
            let moving = at(&tree.root, &from).ok_or_else(|| no_node(&tid, &node))?;
            if find(moving, &parent).is_some() {
                return Err(EditError::IntoItself { node, parent });
            }
            if path_of(&tree.root, &parent).is_none() {
                return Err(no_node(&tid, &parent));
            }
            let old_parent = at_mut(&mut tree.root, old_up).ok_or_else(|| no_node(&tid, &node))?;
            let old_parent_id = old_parent.id.clone();
            let taken = old_parent.children.remove(old_index);
            // The parent's path may have shifted by the removal: look it up again.
            let to = path_of(&tree.root, &parent).ok_or_else(|| no_node(&tid, &parent))?;
            let p = at_mut(&mut tree.root, &to).ok_or_else(|| no_node(&tid, &parent))?;
            let index = index.min(p.children.len());
            p.children.insert(index, taken);
            Ok(TreeOp::Move {
                node,
                parent: old_parent_id,
                index: old_index,
            })
        }
        TreeOp::SetProps { node, props } => {
            let path = path_of(&tree.root, &node).ok_or_else(|| no_node(&tid, &node))?;
            let n = at_mut(&mut tree.root, &path).ok_or_else(|| no_node(&tid, &node))?;
            let old = NodeProps::of(n);
            n.name = props.name;
            n.comment = props.comment;
            n.disabled = props.disabled;
            n.kind = props.kind;
            Ok(TreeOp::SetProps { node, props: old })
        }
        TreeOp::SetId { node, id } => {
            if id != node && find(&tree.root, &id).is_some() {
                return Err(EditError::DuplicateNode {
                    tree: tree.id.clone(),
                    node: id,
                });
            }
            if id.trim().is_empty() {
                return Err(EditError::Invalid("a node id cannot be empty".into()));
            }
            let path = path_of(&tree.root, &node).ok_or_else(|| no_node(&tid, &node))?;
            let n = at_mut(&mut tree.root, &path).ok_or_else(|| no_node(&tid, &node))?;
            n.id = id.clone();
            Ok(TreeOp::SetId { node: id, id: node })
        }
        TreeOp::SetBlackboard { var, decl } => {
            let old = match decl {
                Some(d) => tree.blackboard.insert(var.clone(), d),
                None => tree.blackboard.remove(&var),
            };
            Ok(TreeOp::SetBlackboard { var, decl: old })
        }
        TreeOp::SetInfo { name, comment } => {
            let old_name = std::mem::replace(&mut tree.name, name);
            let old_comment = std::mem::replace(&mut tree.comment, comment);
            Ok(TreeOp::SetInfo {
                name: old_name,
                comment: old_comment,
            })
        }
        TreeOp::ReplaceRoot { node } => {
            let old = std::mem::replace(&mut tree.root, node);
            Ok(TreeOp::ReplaceRoot { node: old })
        }
    }
}
