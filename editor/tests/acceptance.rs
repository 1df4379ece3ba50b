//! The acceptance flow of the tree editor inside the whole app (issue 11), driven through
//! egui_kittest by the labels a user sees: open a copy of `samples/guards.json`, open the
//! `patrol` tree from the asset browser, select a sequence, type-to-insert a `wait`, set its
//! seconds in the inspector, undo, redo, save with Ctrl+S, and read the file back.
//!
//! The preview keeps requesting repaints while it plays, so this uses `run_steps(n)`, never
//! `run()`.

mod common;

use common::{
    assert_framed, by_label_on_row, by_label_starting, click_at, guards_app, harness, has, menu,
    open_tree_from_assets, press, right_click_at, type_text,
};

use egui::{Key, Modifiers, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use townsfolk_editor::EditorApp;
use townsfolk_editor::document::tree::find;
use townsfolk_editor::document::{AssetKind, Target, find_usages};
use townsfolk_runtime::pack::{self, NodeKind, Pack};

/// The kind of node `node` of tree `patrol` in the open document.
fn patrol_node(h: &Harness<'static, EditorApp>, node: &str) -> Option<NodeKind> {
    let tree = h.state().pack().tree("patrol")?;
    find(&tree.root, node).map(|n| n.kind.clone())
}

/// The children ids of `patrol_seq`.
fn seq_children(h: &Harness<'static, EditorApp>) -> Vec<String> {
    let tree = h.state().pack().tree("patrol").expect("patrol exists");
    find(&tree.root, "patrol_seq")
        .expect("patrol_seq exists")
        .children
        .iter()
        .map(|c| c.id.clone())
        .collect()
}

#[test]
fn insert_a_wait_set_it_undo_redo_save_and_read_it_back() {
    let dir = std::env::temp_dir().join(format!("townsfolk-acceptance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("guards.json");
    std::fs::write(&file, include_str!("../../samples/guards.json")).expect("copy the sample");

    let mut h = harness(EditorApp::from_file(&file));
    h.state_mut().set_playing(false);
    h.run_steps(3);

    // Open the tree from the asset browser: a tree tab with the tree editor.
    let row = by_label_starting(&h, "patrol").expect("the asset browser lists the patrol tree");
    row.click();
    h.run_steps(4);
    assert!(h.state().open_tabs().contains(&"Tree patrol".to_string()));
    let before = seq_children(&h);

    // Select the sequence by clicking its card.
    let card = h
        .state()
        .tree_card_screen_rect("patrol", "patrol_seq")
        .expect("the tree tab draws the sequence's card");
    click_at(&mut h, card.center() + vec2(0.0, 6.0));
    assert_eq!(h.state().document().selection.items, ["patrol_seq"]);

    // Type-to-insert: Tab over the canvas, "wait", Enter — inserted under the sequence.
    press(&mut h, Modifiers::NONE, Key::Tab);
    h.get_by_label("Insert node");
    type_text(&mut h, "wait");
    press(&mut h, Modifiers::NONE, Key::Enter);
    let after = seq_children(&h);
    assert_eq!(after.len(), before.len() + 1, "one child more: {after:?}");
    let wait = after
        .iter()
        .find(|c| !before.contains(c))
        .expect("the new child")
        .clone();
    assert!(matches!(
        patrol_node(&h, &wait),
        Some(NodeKind::Wait { .. })
    ));
    assert_eq!(
        h.state().document().selection.items,
        std::slice::from_ref(&wait)
    );

    // Its seconds in the inspector dock tab.
    h.get_by_label("seconds").click();
    h.run_steps(2);
    press(&mut h, Modifiers::COMMAND, Key::A);
    type_text(&mut h, "2.5");
    press(&mut h, Modifiers::NONE, Key::Enter);
    h.run_steps(2);
    assert_eq!(
        patrol_node(&h, &wait),
        Some(NodeKind::Wait { seconds: 2.5 })
    );
    assert!(h.state().document().is_dirty());

    // Undo the seconds (one step) and redo it from the Edit menu (the seconds field still
    // has the keyboard, and a focused text field keeps Ctrl+Z for itself).
    menu(&mut h, "Edit", "Undo");
    assert!(
        matches!(patrol_node(&h, &wait), Some(NodeKind::Wait { seconds }) if seconds != 2.5),
        "undo restored the default seconds"
    );
    menu(&mut h, "Edit", "Redo");
    assert_eq!(
        patrol_node(&h, &wait),
        Some(NodeKind::Wait { seconds: 2.5 })
    );
    menu(&mut h, "Edit", "Undo");
    menu(&mut h, "Edit", "Undo");
    assert_eq!(seq_children(&h), before, "the second undo removed the wait");
    menu(&mut h, "Edit", "Redo");
    menu(&mut h, "Edit", "Redo");
    assert_eq!(
        patrol_node(&h, &wait),
        Some(NodeKind::Wait { seconds: 2.5 })
    );

    // Save with Ctrl+S, then read the file again.
    press(&mut h, Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert!(!h.state().document().is_dirty(), "saved");
    let bytes = std::fs::read_to_string(&file).expect("the saved file");
    let loaded = townsfolk_runtime::program::load_str(&bytes);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let reread: Pack = loaded.pack.expect("the saved pack reads");
    let tree = reread.tree("patrol").expect("patrol saved");
    assert_eq!(
        find(&tree.root, &wait).map(|n| n.kind.clone()),
        Some(NodeKind::Wait { seconds: 2.5 })
    );
    assert_eq!(bytes, pack::to_canonical_string(&reread));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_find_hit_opens_its_tree_and_selects_and_frames_the_node() {
    let mut h = harness(EditorApp::from_text(
        include_str!("../../samples/guards.json"),
        "guards",
    ));
    h.state_mut().set_playing(false);
    h.run_steps(3);
    press(&mut h, Modifiers::COMMAND, Key::F);
    type_text(&mut h, "to_market");
    press(&mut h, Modifiers::NONE, Key::Enter);
    let hit = by_label_starting(&h, "to_market:").expect("a hit on the to_market node");
    hit.click();
    h.run_steps(4);
    assert!(h.state().open_tabs().contains(&"Tree patrol".to_string()));
    assert_eq!(h.state().document().selection.items, ["to_market"]);
    assert_framed(&h, "patrol", "to_market");
    // The inspector dock tab shows the node (its id with the Rename button).
    assert!(
        h.query_all_by_label_contains("Rename").next().is_some(),
        "the inspector shows the selected node"
    );
}

#[test]
fn find_usages_of_a_tree_lists_the_hits_and_a_hit_opens_and_frames_its_node() {
    let mut h = guards_app();
    open_tree_from_assets(&mut h, "patrol — Patrol", "patrol");

    // The context menu of the empty canvas: find usages of this tree.
    let expected = find_usages(h.state().pack(), &Target::Tree("patrol".into()));
    let in_trees: Vec<_> = expected
        .iter()
        .filter(|hit| hit.asset.kind == AssetKind::Tree && hit.item.is_some())
        .collect();
    assert!(
        !in_trees.is_empty(),
        "a subtree node runs patrol: {expected:?}"
    );
    let canvas = h
        .state()
        .tree_canvas_screen_rect("patrol")
        .expect("the patrol tab draws its canvas");
    right_click_at(&mut h, canvas.left_top() + vec2(30.0, 30.0));
    h.get_by_label("Find usages of this tree").click();
    h.run_steps(3);
    let n = expected.len();
    let s = if n == 1 { "" } else { "s" };
    assert!(
        has(&h, &format!("Usages of tree `patrol` — {n} hit{s}")),
        "the find results list the hits"
    );

    // A hit opens the tree it is in, selects its node and frames it.
    let hit = in_trees[0];
    let node = hit.item.clone().expect("in a node");
    by_label_starting(&h, &format!("{node}: "))
        .expect("the hit's row")
        .click();
    h.run_steps(4);
    let tab = format!("Tree {}", hit.asset.id);
    assert!(
        h.state().open_tabs().contains(&tab),
        "{:?}",
        h.state().open_tabs()
    );
    assert_eq!(
        h.state().document().selection.items,
        std::slice::from_ref(&node)
    );
    assert_framed(&h, &hit.asset.id, &node);
}

#[test]
fn the_blackboard_uses_count_is_reachable_in_the_inspector_dock_tab() {
    let mut h = guards_app();
    open_tree_from_assets(&mut h, "guard — Guard", "guard");
    let target = Target::Var {
        tree: Some("guard".into()),
        var: "fatigue".into(),
    };
    let n = find_usages(h.state().pack(), &target).len();
    let count = n.to_string();
    // The uses count on fatigue's row: scrolled to, then clicked (it finds the usages).
    by_label_on_row(&h, "fatigue", &count)
        .expect("the uses count on fatigue's row")
        .scroll_to_me();
    h.run_steps(3);
    by_label_on_row(&h, "fatigue", &count)
        .expect("the uses count on fatigue's row")
        .click();
    h.run_steps(3);
    assert!(
        has(&h, &format!("Usages of variable `fatigue` — {n} hits")),
        "the uses count was reachable"
    );
}
