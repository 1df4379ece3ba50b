//! Gestures of the behavior-tree editor driven through its UI (egui_kittest, headless): a
//! palette entry dragged onto the canvas, a child dragged sideways past a sibling, extract to
//! a subtree, cut and paste, duplicate, the canvas context menu, and the blackboard table.
//! Widgets are found by the labels a user sees; cards by where the tab drew them.

mod common;

use common::tree_app::{App, TWO_TREES, card, click_card, harness, ids, shape, tree};
use common::{
    by_label_on_row, by_label_starting, by_role_on_row, click_at, drag, press, press_and_copied,
    right_click_at, type_text,
};

use egui::accesskit::Role;
use egui::{Event, Key, Modifiers, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use townsfolk_editor::document::tree::find;
use townsfolk_editor::views::ViewRequest;
use townsfolk_runtime::pack::{Literal, NodeKind};
use townsfolk_runtime::value::Type;

fn root_children(h: &Harness<'static, App>) -> Vec<String> {
    shape(tree(h, "main"))[0].2.clone()
}

fn kind(h: &Harness<'static, App>, tree_id: &str, node: &str) -> Option<NodeKind> {
    find(&tree(h, tree_id).root, node).map(|n| n.kind.clone())
}

#[test]
fn a_palette_entry_dragged_onto_a_card_goes_under_it() {
    let mut h = harness(TWO_TREES, &["main"]);
    let entry = h.get_by_label("⏳ Wait").rect().center();
    let onto = card(&h, "busy").center();
    drag(&mut h, entry, onto);
    let busy = &shape(tree(&h, "main"))[1];
    assert_eq!(busy.0, "busy");
    assert_eq!(busy.2.len(), 3, "a third child under busy: {busy:?}");
    let new = busy.2[2].clone();
    assert_eq!(
        kind(&h, "main", &new),
        Some(NodeKind::Wait { seconds: 1.0 })
    );
    assert_eq!(h.state().doc.selection.items, std::slice::from_ref(&new));
    // Its card is where it was dropped: on busy's card (the view then frames the new card).
    let (at, busy_at) = (card(&h, &new).center(), card(&h, "busy").center());
    assert!(
        at.distance(busy_at) < 2.0,
        "dropped on busy at {busy_at:?}, drawn at {at:?}"
    );
    // One undo step.
    assert!(h.state_mut().doc.undo());
    assert_eq!(shape(tree(&h, "main"))[1].2, ["look", "walk"]);
}

#[test]
fn dragging_a_child_sideways_past_a_sibling_reorders_it() {
    let mut h = harness(TWO_TREES, &["main"]);
    assert_eq!(root_children(&h), ["busy", "idle", "helper_call"]);
    let idle = card(&h, "idle");
    let busy = card(&h, "busy");
    let from = idle.center() + vec2(0.0, 6.0);
    let to = from + vec2(busy.center().x - idle.center().x - idle.width() * 0.6, 0.0);
    drag(&mut h, from, to);
    assert_eq!(root_children(&h), ["idle", "busy", "helper_call"]);
    // The move and the reorder are one undo step.
    assert!(h.state_mut().doc.undo());
    assert_eq!(root_children(&h), ["busy", "idle", "helper_call"]);
    assert!(!h.state().doc.is_dirty());

    // A small nudge that passes no sibling keeps the order.
    h.run_steps(2);
    let from = card(&h, "idle").center() + vec2(0.0, 6.0);
    drag(&mut h, from, from + vec2(10.0, 20.0));
    assert_eq!(root_children(&h), ["busy", "idle", "helper_call"]);
    assert!(h.state().doc.is_dirty(), "the card moved");
}

#[test]
fn extract_the_selection_to_a_new_subtree() {
    let mut h = harness(TWO_TREES, &["main"]);
    click_card(&mut h, "busy");
    let at = card(&h, "busy").center() + vec2(0.0, 6.0);
    right_click_at(&mut h, at);
    h.get_by_label("Extract to a new subtree…").click();
    h.run_steps(3);
    assert!(h.query_by_label("Extract to a new subtree").is_some());
    h.get_by_label("Extract").click();
    h.run_steps(3);
    let pack = h.state().doc.pack();
    let part = pack.tree("main_part").expect("the new tree");
    assert_eq!(part.root.id, "busy");
    assert_eq!(
        ids(part),
        ["busy", "look", "walk"],
        "the extracted nodes moved"
    );
    // A subtree node that runs the new tree stands where `busy` was.
    let main = root_children(&h);
    assert_eq!(main[1..], ["idle", "helper_call"]);
    assert_eq!(
        kind(&h, "main", &main[0]),
        Some(NodeKind::Subtree {
            tree: "main_part".into()
        })
    );
    assert!(
        h.query_by_label("Extract to a new subtree").is_none(),
        "the popup closed"
    );
    // One undo step brings it all back.
    assert!(h.state_mut().doc.undo());
    assert!(h.state().doc.pack().tree("main_part").is_none());
    assert_eq!(ids(tree(&h, "main")).len(), 6);
}

#[test]
fn cut_with_ctrl_x_then_paste_elsewhere() {
    let mut h = harness(TWO_TREES, &["main"]);
    click_card(&mut h, "busy");
    let copied = press_and_copied(&mut h, Modifiers::COMMAND, Key::X)
        .expect("Ctrl+X put the nodes on the clipboard");
    assert!(copied.contains("\"walk\""), "{copied}");
    assert_eq!(
        root_children(&h),
        ["idle", "helper_call"],
        "cut removed busy"
    );
    assert!(find(&tree(&h, "main").root, "look").is_none());

    click_card(&mut h, "helper_call");
    h.event(Event::Paste(copied));
    h.run_steps(3);
    assert_eq!(root_children(&h), ["idle", "helper_call", "busy"]);
    assert_eq!(shape(tree(&h, "main"))[3].2, ["look", "walk"]);
    assert_eq!(h.state().doc.selection.items, ["busy"]);
    // Cut and paste are one step each.
    assert!(h.state_mut().doc.undo());
    assert_eq!(root_children(&h), ["idle", "helper_call"]);
    assert!(h.state_mut().doc.undo());
    assert_eq!(root_children(&h), ["busy", "idle", "helper_call"]);
}

#[test]
fn ctrl_d_duplicates_the_selection_next_to_itself() {
    let mut h = harness(TWO_TREES, &["main"]);
    click_card(&mut h, "busy");
    press(&mut h, Modifiers::COMMAND, Key::D);
    let root = root_children(&h);
    assert_eq!(root.len(), 4, "{root:?}");
    assert_eq!(root[0], "busy");
    let copy = root[1].clone();
    assert_ne!(copy, "busy");
    assert_eq!(h.state().doc.selection.items, std::slice::from_ref(&copy));
    // The copy has its own children, with fresh ids, and the same kinds.
    let copy_node = find(&tree(&h, "main").root, &copy)
        .expect("the copy")
        .clone();
    let kids: Vec<_> = copy_node.children.iter().map(|c| c.id.clone()).collect();
    assert_eq!(kids.len(), 2);
    assert!(!kids.contains(&"look".to_string()) && !kids.contains(&"walk".to_string()));
    assert_eq!(
        copy_node.children[0].kind,
        NodeKind::Wait { seconds: 1.0 },
        "the copy of `look`"
    );
    // D alone (no Ctrl) disables instead; Ctrl+D must not.
    assert!(!copy_node.disabled);
    assert!(h.state_mut().doc.undo());
    assert_eq!(root_children(&h), ["busy", "idle", "helper_call"]);
}

#[test]
fn the_canvas_context_menu_acts_on_the_node_or_the_tree() {
    let mut h = harness(TWO_TREES, &["main"]);
    // On a card: it becomes the selection, and the menu's items act on it.
    let at = card(&h, "idle").center() + vec2(0.0, 6.0);
    right_click_at(&mut h, at);
    assert_eq!(h.state().doc.selection.items, ["idle"]);
    for item in [
        "Insert node…",
        "Copy",
        "Cut",
        "Duplicate",
        "Delete",
        "Rename…",
    ] {
        assert!(
            by_label_starting(&h, item).is_some(),
            "`{item}` in the node's menu"
        );
    }
    by_label_starting(&h, "Disable").expect("Disable").click();
    h.run_steps(3);
    assert!(find(&tree(&h, "main").root, "idle").expect("idle").disabled);
    let at = card(&h, "idle").center() + vec2(0.0, 6.0);
    right_click_at(&mut h, at);
    by_label_starting(&h, "Enable").expect("Enable").click();
    h.run_steps(3);
    assert!(!find(&tree(&h, "main").root, "idle").expect("idle").disabled);

    // On a subtree node: open the tree it runs.
    let at = card(&h, "helper_call").center() + vec2(0.0, 6.0);
    right_click_at(&mut h, at);
    // The inspector has an "Open `other`" button too: the menu's is the one by the pointer.
    h.query_all_by_label("Open `other`")
        .min_by(|a, b| {
            let (da, db) = (
                a.rect().center().distance(at),
                b.rect().center().distance(at),
            );
            da.total_cmp(&db)
        })
        .expect("the menu's Open item")
        .click();
    h.run_steps(2);
    assert!(
        h.state()
            .requests
            .contains(&ViewRequest::OpenTree("other".into()))
    );

    // On empty canvas: the tree's items, none of a node's.
    let empty = card(&h, "root").center() + vec2(0.0, -150.0);
    click_at(&mut h, empty);
    right_click_at(&mut h, empty);
    assert!(
        by_label_starting(&h, "Delete").is_none(),
        "no node, no Delete"
    );
    assert!(by_label_starting(&h, "Paste").is_some());
    h.get_by_label("Find usages of this tree").click();
    h.run_steps(2);
    let shown = h.state().requests.iter().find_map(|r| match r {
        ViewRequest::ShowHits { title, hits } => Some((title.clone(), hits.len())),
        _ => None,
    });
    let (title, n) = shown.expect("find usages shows hits");
    assert!(title.contains("main"), "{title}");
    assert!(n >= 1, "the NPC bob runs main");
}

/// A tree with two blackboard variables, each used once.
const BLACKBOARD: &str = r#"{
  "format": "townsfolk-pack", "version": 1, "name": "Board", "world": {},
  "trees": [{"id": "main",
    "blackboard": {"alert": {"type": "bool"}, "count": {"type": "int", "default": 2}},
    "root": {"id": "root", "type": "sequence", "children": [
      {"id": "is_alert", "type": "condition", "expr": "alert"},
      {"id": "enough", "type": "condition", "expr": "count > 1"}
    ]}}]
}"#;

fn decl(h: &Harness<'static, App>, var: &str) -> Option<(Type, Option<Literal>)> {
    tree(h, "main")
        .blackboard
        .get(var)
        .map(|d| (d.ty, d.default.clone()))
}

#[test]
fn the_blackboard_table_adds_retypes_and_removes_variables() {
    let mut h = harness(BLACKBOARD, &["main"]);
    // Nothing selected: the inspector shows the tree and its blackboard table.
    h.get_by_label("Blackboard");
    assert_eq!(decl(&h, "count"), Some((Type::Int, Some(Literal::Int(2)))));

    // The type of `count`, by its combo box.
    h.get_by_role_and_label(Role::ComboBox, "count").click();
    h.run_steps(2);
    h.query_all_by_label("float")
        .find(|n| n.accesskit_node().role() != Role::ComboBox)
        .expect("the float option")
        .click();
    h.run_steps(3);
    assert_eq!(decl(&h, "count").map(|d| d.0), Some(Type::Float));
    assert!(h.state_mut().doc.undo(), "retyping is one undo step");
    assert_eq!(decl(&h, "count"), Some((Type::Int, Some(Literal::Int(2)))));
    h.run_steps(2);

    // The default of `alert`: its checkbox on the row.
    by_role_on_row(&h, "alert", Role::CheckBox)
        .expect("alert's default checkbox")
        .click();
    h.run_steps(3);
    assert_eq!(
        decl(&h, "alert"),
        Some((Type::Bool, Some(Literal::Bool(true))))
    );

    // The uses column counts each variable's uses.
    let uses = |h: &Harness<'static, App>, var: &str| {
        ["0", "1", "2"]
            .into_iter()
            .find(|count| by_label_on_row(h, var, count).is_some())
    };
    assert_eq!(uses(&h, "alert"), Some("1"));

    // A new variable: its name in the field beside "Add variable".
    let add = h.get_by_label("Add variable").rect();
    let field = h
        .query_all_by_role(Role::TextInput)
        .filter(|n| (n.rect().center().y - add.center().y).abs() < 8.0)
        .find(|n| n.rect().center().x < add.left())
        .expect("the new variable's name field");
    field.click();
    h.run_steps(2);
    type_text(&mut h, "target_x");
    h.get_by_label("Add variable").click();
    h.run_steps(3);
    assert!(decl(&h, "target_x").is_some(), "added");
    assert!(has_row(&h, "target_x"));

    // Removing a declaration: the ✖ on its row.
    by_label_on_row(&h, "target_x", "✖")
        .expect("the row's remove button")
        .click();
    h.run_steps(3);
    assert!(decl(&h, "target_x").is_none(), "removed");
    assert!(decl(&h, "alert").is_some() && decl(&h, "count").is_some());
}

fn has_row(h: &Harness<'static, App>, var: &str) -> bool {
    by_label_starting(h, var).is_some()
}
