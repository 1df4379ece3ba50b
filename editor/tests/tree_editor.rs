//! The behavior-tree editor driven through its UI (egui_kittest, headless): the palette, the
//! canvas, type-to-insert, the inspector, the canvas shortcuts. Fields are found by the labels
//! a user sees; cards by where the tab drew them.

mod common;

use common::tree_app::{App, TWO_TREES, card, click_card, harness, ids, shape, tree};
use common::{click_at, drag, press, press_and_copied, type_text};

use egui::{Event, Key, Modifiers, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use townsfolk_editor::views::ViewRequest;
use townsfolk_runtime::pack::{self, NodeKind, Pack};

const ONE_TREE: &str = r#"{
  "format": "townsfolk-pack", "version": 1, "name": "Small", "world": {},
  "trees": [{"id": "main", "root": {"id": "root", "type": "sequence"}}]
}"#;

/// The canonical bytes of the small tree built below (what `townsfolk fmt` writes).
const BUILT: &str = r#"{
  "format": "townsfolk-pack",
  "version": 1,
  "name": "Small",
  "world": {
    "bounds": {
      "min": [0.0, 0.0],
      "max": [100.0, 100.0]
    },
    "dt": 0.1,
    "clock": {
      "start_day": 0,
      "start_hour": 8.0,
      "time_scale": 60.0
    }
  },
  "trees": [
    {
      "id": "main",
      "root": {
        "id": "root",
        "type": "sequence",
        "reactive": false,
        "children": [
          {
            "id": "sequence",
            "type": "sequence",
            "reactive": false,
            "children": [
              {
                "id": "wait",
                "type": "wait",
                "seconds": 2.5
              },
              {
                "id": "condition",
                "type": "condition",
                "expr": "flags.ready"
              }
            ]
          }
        ]
      }
    }
  ]
}
"#;

#[test]
fn build_a_small_tree_through_the_ui_undo_redo_and_save_it() {
    let mut h = harness(ONE_TREE, &["main"]);
    let mut states = vec![shape(tree(&h, "main"))];

    // Palette search and insert: nothing is selected, so it goes under the root.
    h.get_by_label("Search nodes").click();
    h.run_steps(1);
    type_text(&mut h, "seq");
    h.get_by_label_contains("Sequence").click();
    h.run_steps(3);
    assert_eq!(ids(tree(&h, "main")), ["root", "sequence"]);
    assert_eq!(h.state().doc.selection.items, ["sequence"]);
    states.push(shape(tree(&h, "main")));

    // Type-to-insert under the selected sequence: Tab over the canvas, "wait", Enter.
    click_card(&mut h, "sequence");
    press(&mut h, Modifiers::NONE, Key::Tab);
    h.get_by_label("Insert node");
    type_text(&mut h, "wait");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(ids(tree(&h, "main")), ["root", "sequence", "wait"]);
    assert_eq!(h.state().doc.selection.items, ["wait"]);
    assert!(
        h.query_by_label("Insert node").is_none(),
        "the popup closed"
    );
    states.push(shape(tree(&h, "main")));

    // A parameter in the inspector: the wait's seconds, typed.
    h.get_by_label("seconds").click();
    h.run_steps(2);
    type_text(&mut h, "2.5");
    press(&mut h, Modifiers::NONE, Key::Enter);
    let wait = |h: &Harness<'static, App>| {
        townsfolk_editor::document::tree::find(&tree(h, "main").root, "wait")
            .map(|n| n.kind.clone())
    };
    assert_eq!(wait(&h), Some(NodeKind::Wait { seconds: 2.5 }));

    // A condition under the root (root selected, palette click), then connected under the
    // sequence by dragging from the sequence's output port onto it.
    click_card(&mut h, "root");
    h.get_by_label("Search nodes").click();
    h.run_steps(1);
    h.event(Event::Key {
        key: Key::A,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: Modifiers::COMMAND,
    });
    type_text(&mut h, "condition");
    h.get_by_label("❓ Condition").click();
    h.run_steps(3);
    assert_eq!(
        shape(tree(&h, "main"))[0].2,
        ["sequence", "condition"],
        "the condition went under the root"
    );
    let seq = card(&h, "sequence");
    let port = seq.center_bottom();
    let target = card(&h, "condition").center();
    drag(&mut h, port, target);
    assert_eq!(
        shape(tree(&h, "main"))[1].2,
        ["wait", "condition"],
        "connected under the sequence"
    );

    // The condition's expression: red while empty, typed one undo step.
    click_card(&mut h, "condition");
    assert!(h.state().tab().card_screen_rect("condition").is_some());
    h.get_by_label("expression").click();
    h.run_steps(2);
    type_text(&mut h, "flags.ready");
    press(&mut h, Modifiers::NONE, Key::Enter);
    let expr = |h: &Harness<'static, App>| {
        townsfolk_editor::document::tree::find(&tree(h, "main").root, "condition")
            .map(|n| n.kind.clone())
    };
    assert_eq!(
        expr(&h),
        Some(NodeKind::Condition {
            expr: "flags.ready".into()
        })
    );
    let done = tree(&h, "main").clone();

    // Undo step by step: the expression (one step for the whole typing), the connection, the
    // condition, the seconds (one step), the wait, the sequence.
    let doc = &mut h.state_mut().doc;
    assert!(doc.undo());
    let after_expr_undo = doc.pack().tree("main").cloned();
    assert_eq!(
        townsfolk_editor::document::tree::find(
            &after_expr_undo.as_ref().unwrap().root,
            "condition"
        )
        .map(|n| n.kind.clone()),
        Some(NodeKind::Condition {
            expr: String::new()
        }),
        "typing the expression was one step"
    );
    assert!(doc.undo());
    assert_eq!(
        shape(doc.pack().tree("main").unwrap())[0].2,
        ["sequence", "condition"]
    );
    assert!(doc.undo());
    assert!(doc.undo());
    assert_eq!(
        townsfolk_editor::document::tree::find(&doc.pack().tree("main").unwrap().root, "wait")
            .map(|n| n.kind.clone()),
        Some(NodeKind::Wait { seconds: 1.0 }),
        "typing the seconds was one step"
    );
    assert_eq!(shape(doc.pack().tree("main").unwrap()), states[2]);
    assert!(doc.undo());
    assert_eq!(shape(doc.pack().tree("main").unwrap()), states[1]);
    assert!(doc.undo());
    assert_eq!(shape(doc.pack().tree("main").unwrap()), states[0]);
    assert!(!doc.can_undo());
    assert!(!doc.is_dirty(), "back at the opened state");
    for _ in 0..6 {
        assert!(doc.redo());
    }
    assert!(!doc.can_redo());
    assert_eq!(doc.pack().tree("main"), Some(&done));

    // Saved: exactly the canonical bytes.
    let dir = std::env::temp_dir().join(format!("townsfolk-tree-editor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("small.json");
    townsfolk_editor::io::save(&path, doc.pack()).unwrap();
    let bytes = std::fs::read_to_string(&path).unwrap();
    assert_eq!(bytes, BUILT);
    let reloaded: Pack = pack::load_str(&bytes).pack.unwrap();
    assert_eq!(pack::to_canonical_string(&reloaded), bytes);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn renaming_a_node_with_f2_moves_its_layout_and_breakpoints() {
    let mut h = harness(TWO_TREES, &["main"]);
    click_card(&mut h, "idle");
    press(&mut h, Modifiers::NONE, Key::F2);
    h.get_by_label("Rename node");
    press(&mut h, Modifiers::COMMAND, Key::A);
    type_text(&mut h, "rest");
    press(&mut h, Modifiers::NONE, Key::Enter);
    let p = h.state().doc.pack();
    let main = p.tree("main").unwrap();
    assert_eq!(shape(main)[0].2, ["busy", "rest", "helper_call"]);
    let layout = &p.editor.trees["main"].nodes;
    assert!(layout.contains_key("rest") && !layout.contains_key("idle"));
    match &p.editor.breakpoints[0].on {
        pack::BreakOn::Node { node, .. } => assert_eq!(node, "rest"),
        other => panic!("{other:?}"),
    }
    assert_eq!(h.state().doc.selection.items, ["rest"]);
    // A name that is taken is refused, with the popup still open.
    click_card(&mut h, "rest");
    press(&mut h, Modifiers::NONE, Key::F2);
    press(&mut h, Modifiers::COMMAND, Key::A);
    type_text(&mut h, "busy");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert!(h.query_by_label("Rename node").is_some());
    assert!(
        tree(&h, "main")
            .root
            .children
            .iter()
            .any(|c| c.id == "rest")
    );
}

#[test]
fn copy_in_one_tree_and_paste_into_another_makes_ids_unique() {
    let mut h = harness(TWO_TREES, &["main", "other"]);
    click_card(&mut h, "busy");
    let copied = press_and_copied(&mut h, Modifiers::COMMAND, Key::C);
    let copied = copied.expect("Ctrl+C put text on the clipboard");
    assert!(copied.contains("\"busy\""));

    h.state_mut().active = 1;
    h.run_steps(3);
    click_card(&mut h, "top");
    h.event(Event::Paste(copied));
    h.run_steps(3);
    let other = tree(&h, "other");
    // `look` exists in `other` already: the pasted one is renamed.
    assert_eq!(
        shape(other),
        [
            (
                "top".to_string(),
                "sequence".to_string(),
                vec!["look".to_string(), "busy".to_string()]
            ),
            ("look".into(), "wait".into(), vec![]),
            (
                "busy".into(),
                "sequence".into(),
                vec!["look_2".into(), "walk".into()]
            ),
            ("look_2".into(), "wait".into(), vec![]),
            ("walk".into(), "move_to".into(), vec![]),
        ]
    );
    assert_eq!(h.state().doc.selection.items, ["busy"]);
    // The source tree is unchanged, and the paste is one undo step.
    assert_eq!(ids(tree(&h, "main")).len(), 6);
    assert!(h.state_mut().doc.undo());
    assert_eq!(ids(tree(&h, "other")), ["top", "look"]);
}

#[test]
fn deleting_a_composite_asks_subtree_or_lift_children() {
    let mut h = harness(TWO_TREES, &["main"]);
    click_card(&mut h, "busy");
    press(&mut h, Modifiers::NONE, Key::Delete);
    h.get_by_label("The whole subtree").click();
    h.run_steps(3);
    assert_eq!(ids(tree(&h, "main")), ["root", "idle", "helper_call"]);
    assert!(
        !h.state().doc.pack().editor.trees["main"]
            .nodes
            .contains_key("look")
    );

    assert!(h.state_mut().doc.undo());
    h.run_steps(3);
    assert_eq!(ids(tree(&h, "main")).len(), 6);
    click_card(&mut h, "busy");
    press(&mut h, Modifiers::NONE, Key::Delete);
    h.get_by_label_contains("lift its children").click();
    h.run_steps(3);
    assert_eq!(
        shape(tree(&h, "main"))[0].2,
        ["look", "walk", "idle", "helper_call"]
    );

    // A leaf goes without asking.
    click_card(&mut h, "idle");
    press(&mut h, Modifiers::NONE, Key::Delete);
    assert_eq!(
        shape(tree(&h, "main"))[0].2,
        ["look", "walk", "helper_call"]
    );
}

#[test]
fn canvas_shortcuts_disable_collapse_reorder_and_lay_out() {
    let mut h = harness(TWO_TREES, &["main"]);
    click_card(&mut h, "idle");
    press(&mut h, Modifiers::NONE, Key::D);
    assert!(
        townsfolk_editor::document::tree::find(&tree(&h, "main").root, "idle")
            .unwrap()
            .disabled
    );
    press(&mut h, Modifiers::ALT, Key::ArrowLeft);
    assert_eq!(
        shape(tree(&h, "main"))[0].2,
        ["idle", "busy", "helper_call"]
    );
    press(&mut h, Modifiers::ALT, Key::ArrowRight);
    assert_eq!(
        shape(tree(&h, "main"))[0].2,
        ["busy", "idle", "helper_call"]
    );

    click_card(&mut h, "busy");
    press(&mut h, Modifiers::NONE, Key::C);
    assert!(h.state().doc.pack().editor.trees["main"].nodes["busy"].collapsed);
    assert!(
        h.state().tab().card_screen_rect("look").is_none(),
        "children hidden"
    );
    press(&mut h, Modifiers::NONE, Key::C);
    assert!(h.state().tab().card_screen_rect("look").is_some());

    // L lays out the whole tree with nothing selected: parents centred over children.
    let empty = card(&h, "root").center() + vec2(0.0, -150.0);
    click_at(&mut h, empty);
    assert!(h.state().doc.selection.items.is_empty());
    press(&mut h, Modifiers::NONE, Key::L);
    let l = &h.state().doc.pack().editor.trees["main"].nodes;
    let x = |id: &str| l[id].pos.x;
    assert!((x("busy") - (x("look") + x("walk")) / 2.0).abs() < 1e-3);
    assert!((x("root") - (x("busy") + x("helper_call")) / 2.0).abs() < 1e-3);
    assert!(x("busy") < x("idle") && x("idle") < x("helper_call"));
}

#[test]
fn double_clicking_a_subtree_node_asks_to_open_its_tree() {
    let mut h = harness(TWO_TREES, &["main"]);
    let at = card(&h, "helper_call").center();
    h.hover_at(at);
    h.run_steps(1);
    // Two clicks 50 ms apart (one frame per event), without the pointer leaving.
    for pressed in [true, false, true, false] {
        h.event(Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run_steps(2);
    assert!(
        h.state()
            .requests
            .contains(&ViewRequest::OpenTree("other".into()))
    );
}
