//! Change a node's type: the node keeps its id, name, comment, disabled state, position and —
//! where the new kind takes them — its children; parameters the two kinds share (a wait's and
//! a cooldown's `seconds`, a sequence's `reactive`, an inbox) carry over, the rest start at
//! the new kind's defaults.

use serde_json::Value;
use townsfolk_runtime::pack::{Arity, NodeKind, Pack};

use super::defaults::default_kind;
use super::edit::{Edit, EditError, NodeProps, TreeOp};
use super::tree;

/// The new kind: the defaults of `type_name` with the old kind's parameters of the same name
/// that the new kind accepts.
fn carried_kind(old: &NodeKind, type_name: &str) -> Option<NodeKind> {
    let fresh = default_kind(type_name)?;
    let (Ok(Value::Object(old)), Ok(Value::Object(mut merged))) =
        (serde_json::to_value(old), serde_json::to_value(&fresh))
    else {
        return Some(fresh);
    };
    for (k, v) in old {
        if k == "type" {
            continue;
        }
        let mut trial = merged.clone();
        trial.insert(k, v);
        if serde_json::from_value::<NodeKind>(Value::Object(trial.clone())).is_ok() {
            merged = trial;
        }
    }
    serde_json::from_value(Value::Object(merged))
        .ok()
        .or(Some(fresh))
}

/// The edit changing node `node` of tree `tree` to the kind named `type_name` (one undo step).
/// Refused with a message saying why when the new kind cannot keep the node's children: a
/// decorator takes one child, an action or condition none.
pub fn change_type(
    pack: &Pack,
    tree_id: &str,
    node: &str,
    type_name: &str,
) -> Result<Edit, EditError> {
    let t = pack
        .tree(tree_id)
        .ok_or_else(|| EditError::NoTree(tree_id.to_string()))?;
    let n = tree::find(&t.root, node).ok_or_else(|| EditError::NoNode {
        tree: tree_id.to_string(),
        node: node.to_string(),
    })?;
    let kind = carried_kind(&n.kind, type_name)
        .ok_or_else(|| EditError::Invalid(format!("`{type_name}` is not a node type")))?;
    let children = n.children.len();
    match kind.arity() {
        Arity::One if children > 1 => {
            return Err(EditError::Invalid(format!(
                "`{node}` has {children} children, and a {type_name} is a decorator that \
                 takes exactly one: move or delete the others first"
            )));
        }
        Arity::Leaf if children > 0 => {
            let plural = if children == 1 { "" } else { "ren" };
            return Err(EditError::Invalid(format!(
                "`{node}` has {children} child{plural}, and a {type_name} takes none: move or \
                 delete them first"
            )));
        }
        _ => {}
    }
    Ok(Edit::Tree {
        tree: tree_id.to_string(),
        op: TreeOp::SetProps {
            node: node.to_string(),
            props: NodeProps {
                kind,
                ..NodeProps::of(n)
            },
        },
    })
}
