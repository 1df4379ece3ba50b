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

/// A tree whose nodes use some of its variables: `alert` in an expression, `who` as a
/// receive's sender variable, `spot` as a `{"var": …}` move target; `unused` by nobody.
fn vars_pack() -> Pack {
    let text = r#"{
      "format": "townsfolk-pack", "version": 1, "name": "vars", "world": {},
      "trees": [
        { "id": "src", "blackboard": {
            "alert": { "type": "bool" }, "who": { "type": "entity" },
            "spot": { "type": "vec2" }, "unused": { "type": "int" } },
          "root": { "id": "root", "type": "selector", "children": [
            { "id": "watch", "type": "sequence", "children": [
              { "id": "check", "type": "condition", "expr": "alert" },
              { "id": "shout", "type": "receive", "sender_var": "who" }
            ] },
            { "id": "go", "type": "move_to", "target": { "var": "spot" } }
          ] } },
        { "id": "dst", "blackboard": { "alert": { "type": "int" } },
          "root": { "id": "top", "type": "sequence" } },
        { "id": "empty", "root": { "id": "top", "type": "sequence" } }
      ]
    }"#;
    let loaded = townsfolk_runtime::pack::load_str(text);
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics);
    loaded.pack.unwrap()
}

#[test]
fn copy_carries_the_declarations_the_nodes_use_and_paste_adds_the_missing_ones() {
    let p0 = vars_pack();
    let payload = ops::copy(&p0, "src", &["watch".into()]).unwrap();
    assert_eq!(
        payload.blackboard.keys().collect::<Vec<_>>(),
        ["alert", "who"],
        "only what the copied nodes use"
    );
    // Through the clipboard text, as between two windows.
    let payload = ClipboardPayload::from_text(&payload.to_text()).unwrap();
    let mut doc = Document::new(p0.clone());
    let pasted = ops::paste(doc.pack(), "empty", "top", 0, &payload, None).unwrap();
    assert!(pasted.warnings.is_empty());
    doc.apply(pasted.edit).unwrap();
    let bb = &doc.pack().tree("empty").unwrap().blackboard;
    assert_eq!(bb.keys().collect::<Vec<_>>(), ["alert", "who"]);
    assert_eq!(bb["who"], p0.tree("src").unwrap().blackboard["who"]);
    // One undo step takes nodes and declarations away.
    assert!(doc.undo());
    assert_eq!(canon(doc.pack()), canon(&p0));

    // Same name, another type: the target's declaration stays, with a warning.
    let pasted = ops::paste(doc.pack(), "dst", "top", 0, &payload, None).unwrap();
    assert_eq!(pasted.warnings.len(), 1, "{:?}", pasted.warnings);
    assert!(
        pasted.warnings[0].contains("`alert`"),
        "{:?}",
        pasted.warnings
    );
    doc.apply(pasted.edit).unwrap();
    let bb = &doc.pack().tree("dst").unwrap().blackboard;
    assert_eq!(bb["alert"].ty, townsfolk_runtime::value::Type::Int);
    assert!(bb.contains_key("who"));
}

#[test]
fn extract_declares_only_the_variables_the_extracted_nodes_use() {
    let mut p = vars_pack();
    let (e, id) = ops::extract_subtree(&p, "src", &["go".into()], Some("walk")).unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(id, "walk");
    let bb = &p.tree("walk").unwrap().blackboard;
    assert_eq!(bb.keys().collect::<Vec<_>>(), ["spot"]);
    let (e, _) = ops::extract_subtree(&p, "src", &["watch".into()], Some("w")).unwrap();
    apply(&mut p, e).unwrap();
    let bb = &p.tree("w").unwrap().blackboard;
    assert_eq!(bb.keys().collect::<Vec<_>>(), ["alert", "who"]);
}

#[test]
fn the_tree_direction_is_saved_in_the_editor_section_and_undoes() {
    use townsfolk_runtime::pack::TreeDirection;
    let p0 = small_pack();
    let mut doc = Document::new(p0.clone());
    doc.apply(Edit::TreeDirection(TreeDirection::LeftToRight))
        .unwrap();
    let text = canon(doc.pack());
    assert!(
        text.contains("\"tree_direction\": \"left_to_right\""),
        "{text}"
    );
    let back = townsfolk_runtime::pack::load_str(&text).pack.unwrap();
    assert_eq!(back.editor.tree_direction, TreeDirection::LeftToRight);
    assert!(doc.is_dirty());
    assert!(doc.undo());
    assert!(!doc.is_dirty());
    // Top-down is the default and is not written.
    assert!(!canon(doc.pack()).contains("tree_direction"));
    assert_eq!(canon(doc.pack()), canon(&p0));
}
