//! Unit tests of the document's later operations: renaming assets (with open views
//! following), changing a node's type, paste and extract carrying blackboard declarations,
//! blackboard renames.

use super::tests::{canon, small_pack};
use super::*;
use townsfolk_runtime::pack::{Node, NodeKind, Pack};

#[test]
fn renaming_a_tree_follows_every_reference_in_one_undo_step() {
    let p0 = small_pack();
    let mut doc = Document::new(p0.clone());
    doc.selection = Selection::node("patrol", "watch");
    let e = rename_asset(doc.pack(), AssetKind::Tree, "patrol", "round").unwrap();
    doc.apply(e).unwrap();
    let p = doc.pack();
    assert!(p.tree("patrol").is_none());
    assert!(p.tree("round").is_some());
    assert_eq!(p.world.npcs[0].tree, "round");
    assert!(p.editor.trees.contains_key("round") && !p.editor.trees.contains_key("patrol"));
    assert!(matches!(&p.editor.breakpoints[1].on,
        townsfolk_runtime::pack::BreakOn::Node { tree, .. } if tree == "round"));
    // The selection follows its tree; views learn of the rename.
    assert_eq!(doc.selection, Selection::node("round", "watch"));
    assert_eq!(
        doc.rename_log(),
        [(AssetKind::Tree, "patrol".to_string(), "round".to_string())]
    );
    // One undo step gives everything back, and the views learn of that too.
    assert!(doc.undo());
    assert_eq!(canon(doc.pack()), canon(&p0));
    assert!(!doc.can_undo());
    assert_eq!(
        doc.rename_log()[1..],
        [(AssetKind::Tree, "round".to_string(), "patrol".to_string())]
    );
    assert_eq!(doc.selection, Selection::node("patrol", "watch"));
    assert!(doc.redo());
    assert_eq!(doc.rename_log().len(), 3);
    assert_eq!(doc.rename_log()[2].2, "round");
}

#[test]
fn renaming_an_asset_to_a_taken_or_empty_id_is_refused_clearly() {
    let p = small_pack();
    let taken = rename_asset(&p, AssetKind::Tree, "patrol", "idle").unwrap_err();
    assert_eq!(taken.to_string(), "there is already a Tree `idle`");
    let empty = rename_asset(&p, AssetKind::Tree, "patrol", "  ").unwrap_err();
    assert!(empty.to_string().contains("empty"), "{empty}");
    assert!(rename_asset(&p, AssetKind::Tree, "nope", "x").is_err());
    // Any kind: an NPC.
    let mut q = p.clone();
    let e = rename_asset(&q, AssetKind::Npc, "bob", "robert").unwrap();
    apply(&mut q, e).unwrap();
    assert_eq!(q.world.npcs[0].id, "robert");
}

fn node<'a>(p: &'a Pack, tree: &str, id: &str) -> &'a Node {
    tree::find(&p.tree(tree).unwrap().root, id).unwrap()
}

#[test]
fn changing_a_nodes_type_keeps_children_id_comment_and_position() {
    let p0 = small_pack();
    let mut p = p0.clone();
    // A composite to another composite keeps its children.
    let e = ops::change_type(&p, "patrol", "watch", "selector").unwrap();
    let inv = apply(&mut p, e).unwrap();
    let w = node(&p, "patrol", "watch");
    assert_eq!(w.kind, NodeKind::Selector { reactive: false });
    assert_eq!(w.children.len(), 2);
    assert_eq!(p.editor.trees["patrol"].nodes["watch"].pos.x, 10.0);
    apply(&mut p, inv).unwrap();
    assert_eq!(canon(&p), canon(&p0));
    // Shared parameters carry over: a say's seconds into a wait.
    let e = ops::change_type(&p, "patrol", "shout", "wait").unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(
        node(&p, "patrol", "shout").kind,
        NodeKind::Wait { seconds: 1.0 }
    );
    // A decorator needs one child: a composite with two is refused, clearly.
    let err = ops::change_type(&p, "patrol", "watch", "inverter").unwrap_err();
    assert!(err.to_string().contains("takes exactly one"), "{err}");
    let err = ops::change_type(&p, "patrol", "watch", "wait").unwrap_err();
    assert!(err.to_string().contains("takes none"), "{err}");
    assert!(ops::change_type(&p, "patrol", "watch", "nope").is_err());
}
