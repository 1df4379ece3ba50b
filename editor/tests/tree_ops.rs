//! Later tree-editor operations driven through the UI (egui_kittest, headless), by the labels a
//! user sees: renaming a tree (its tab follows), changing a node's type, paste and extract
//! carrying blackboard declarations, the blackboard table.
//!
//! The tree editor's harness and the gestures are the shared ones of `tests/common/`.

mod common;

use common::tree_app::{App, card, click_card, harness, shape, tree};
use common::{click_at, drag, press, type_text};
use egui::{Event, Key, Modifiers, Pos2, pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use townsfolk_editor::views::ViewRequest;
use townsfolk_runtime::pack;

/// What the views put on the status line.
fn statuses(app: &App) -> Vec<&str> {
    app.requests
        .iter()
        .filter_map(|r| match r {
            ViewRequest::Status(s) => Some(s.as_str()),
            _ => None,
        })
        .collect()
}

/// Clicks the empty canvas above the root card (selects nothing, gives the canvas the
/// keyboard).
fn click_background(h: &mut Harness<'static, App>, root: &str) {
    let empty = card(h, root).center() + vec2(0.0, -150.0);
    click_at(h, empty);
    assert!(h.state().doc.selection.items.is_empty());
}

/// Replaces the text of the focused field.
fn retype(h: &mut Harness<'static, App>, text: &str) {
    press(h, Modifiers::COMMAND, Key::A);
    type_text(h, text);
}

const TWO_TREES: &str = r#"{
  "format": "townsfolk-pack", "version": 1, "name": "Two", "world": {
    "npcs": [{"id": "bob", "pos": [1, 1], "tree": "main"}]
  },
  "trees": [
    {"id": "main", "blackboard": {"target": {"type": "entity"}, "speed": {"type": "float", "default": 2.0}},
     "root": {"id": "root", "type": "selector", "children": [
      {"id": "busy", "type": "sequence", "comment": "keeps busy", "children": [
        {"id": "look", "type": "wait", "seconds": 1},
        {"id": "walk", "type": "move_to", "target": {"var": "target"}}
      ]},
      {"id": "idle", "type": "wait", "seconds": 5},
      {"id": "helper_call", "type": "subtree", "tree": "other"}
    ]}},
    {"id": "other", "root": {"id": "top", "type": "sequence", "children": [
      {"id": "look", "type": "wait", "seconds": 2}
    ]}},
    {"id": "third", "blackboard": {"target": {"type": "float"}},
     "root": {"id": "base", "type": "sequence"}}
  ],
  "editor": {
    "trees": {"main": {"nodes": {
      "root": {"pos": [0, 0]}, "busy": {"pos": [-200, 120]}, "look": {"pos": [-300, 240]},
      "walk": {"pos": [-100, 240]}, "idle": {"pos": [0, 120]}, "helper_call": {"pos": [200, 120]}
    }}},
    "breakpoints": [{"id": 1, "on": "node", "tree": "other", "node": "look"}]
  }
}"#;

#[test]
fn f2_on_the_canvas_renames_the_tree_and_the_tab_follows() {
    let mut h = harness(TWO_TREES, &["other"]);
    // Renaming `other` from its own tab: F2 with nothing selected.
    click_background(&mut h, "top");
    press(&mut h, Modifiers::NONE, Key::F2);
    h.get_by_label("Rename tree");
    retype(&mut h, "helper");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert!(
        h.query_by_label("Rename tree").is_none(),
        "the popup closed"
    );
    let p = h.state().doc.pack();
    assert!(p.tree("other").is_none());
    assert_eq!(shape(tree(&h, "helper"))[0].0, "top");
    // The subtree node of `main` and the breakpoint follow.
    let call = townsfolk_editor::document::tree::find(&p.tree("main").unwrap().root, "helper_call")
        .unwrap();
    assert_eq!(
        call.kind,
        pack::NodeKind::Subtree {
            tree: "helper".into()
        }
    );
    assert!(matches!(&p.editor.breakpoints[0].on,
        pack::BreakOn::Node { tree, .. } if tree == "helper"));
    // The tab follows, and still draws the tree.
    assert_eq!(h.state().tab().tree_id(), "helper");
    card(&h, "top");
    // One undo step; the tab follows back.
    assert!(h.state_mut().doc.undo());
    h.run_steps(2);
    assert!(!h.state().doc.can_undo());
    assert_eq!(h.state().tab().tree_id(), "other");
    card(&h, "top");
}

#[test]
fn renaming_a_tree_to_a_taken_or_empty_id_is_refused_in_the_popup() {
    let mut h = harness(TWO_TREES, &["main"]);
    // The inspector of the tree (nothing selected) has the button.
    h.get_by_label("Rename tree…").click();
    h.run_steps(3);
    h.get_by_label("Rename tree");
    retype(&mut h, "other");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert!(h.query_by_label("Rename tree").is_some(), "still open");
    assert!(
        h.query_by_label_contains("there is already a Tree `other`")
            .is_some()
    );
    // The field has the keyboard again.
    press(&mut h, Modifiers::COMMAND, Key::A);
    press(&mut h, Modifiers::NONE, Key::Backspace);
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert!(h.query_by_label_contains("is empty").is_some());
    assert!(h.state().doc.pack().tree("main").is_some());
    assert!(!h.state().doc.can_undo());
    assert!(statuses(h.state()).is_empty());
}

#[test]
fn in_the_shell_a_renamed_trees_tab_stays_open_under_its_new_id() {
    use townsfolk_editor::EditorApp;
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .with_step_dt(1.0 / 60.0)
        .build_eframe(|_cc| EditorApp::from_text(TWO_TREES, "test"));
    h.run_steps(3);
    h.get_by_label("other").click();
    h.run_steps(4);
    assert!(h.state().open_tabs().contains(&"Tree other".to_string()));
    h.get_by_label("Rename tree…").click();
    h.run_steps(3);
    retype_app(&mut h, "helper");
    h.key_press(Key::Enter);
    h.run_steps(4);
    assert!(h.state().pack().tree("helper").is_some());
    let tabs = h.state().open_tabs();
    assert!(tabs.contains(&"Tree helper".to_string()), "{tabs:?}");
    assert!(!tabs.contains(&"Tree other".to_string()), "{tabs:?}");
    assert!(h.state().tree_card_screen_rect("helper", "top").is_some());
    // Undo (Ctrl+Z): the tab follows back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(4);
    assert!(h.state().pack().tree("other").is_some());
    assert!(h.state().open_tabs().contains(&"Tree other".to_string()));
    assert!(h.state().tree_card_screen_rect("other", "top").is_some());
}

fn app_harness() -> Harness<'static, townsfolk_editor::EditorApp> {
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .with_step_dt(1.0 / 60.0)
        .build_eframe(|_cc| townsfolk_editor::EditorApp::from_text(TWO_TREES, "test"));
    h.run_steps(3);
    h
}

#[test]
fn f2_in_the_asset_browser_renames_any_asset_and_refuses_a_clash() {
    let mut h = app_harness();
    // A tree: F2 over its row.
    h.get_by_label("other").hover();
    h.run_steps(1);
    h.key_press(Key::F2);
    h.run_steps(3);
    h.get_by_label("Rename tree");
    retype_app(&mut h, "main");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("there is already a Tree `main`")
            .is_some(),
        "the clash is shown"
    );
    retype_app(&mut h, "helper");
    h.key_press(Key::Enter);
    h.run_steps(4);
    assert!(h.query_by_label("Rename tree").is_none(), "closed");
    let p = h.state().pack();
    assert!(p.tree("helper").is_some() && p.tree("other").is_none());
    // An NPC, by the row's context menu: the world follows.
    h.get_by_label_contains("bob").click_secondary();
    h.run_steps(3);
    h.get_by_label("Rename…").click();
    h.run_steps(3);
    h.get_by_label("Rename npc");
    retype_app(&mut h, "robert");
    h.key_press(Key::Enter);
    h.run_steps(4);
    assert_eq!(h.state().pack().world.npcs[0].id, "robert");
    // Each rename is one undo step.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(3);
    assert_eq!(h.state().pack().world.npcs[0].id, "bob");
    assert!(h.state().pack().tree("helper").is_some());
}

#[test]
fn a_tree_tabs_title_menu_renames_the_tree() {
    let mut h = app_harness();
    h.get_by_label("other").click();
    h.run_steps(4);
    // Tab titles are painted, not in the accessibility tree: right-click along the tab bar
    // (just above the tree tab's palette) until the menu with "Rename tree…" opens.
    let palette = h.get_by_label("Search nodes").rect();
    let mut found = None;
    for k in 0..80 {
        let y = palette.top() - [22.0, 28.0][k % 2];
        let at = Pos2::new(palette.left() + 8.0 * (k / 2) as f32, y);
        h.hover_at(at);
        h.run_steps(1);
        h.event(Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Secondary,
            pressed: true,
            modifiers: Modifiers::NONE,
        });
        h.event(Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Secondary,
            pressed: false,
            modifiers: Modifiers::NONE,
        });
        h.run_steps(2);
        // The inspector has a "Rename tree…" button too: the menu adds a second one.
        if h.query_all_by_label("Rename tree…").count() == 2 {
            found = Some(at);
            break;
        }
        h.key_press(Key::Escape);
        h.run_steps(2);
    }
    let title = found.expect("the tree tab's title menu has \"Rename tree…\"");
    // F2 over the title opens the popup too.
    h.key_press(Key::Escape);
    h.run_steps(2);
    h.hover_at(title);
    h.run_steps(1);
    h.key_press(Key::F2);
    h.run_steps(3);
    h.get_by_label("Rename tree");
    h.key_press(Key::Escape);
    h.run_steps(3);
    assert!(h.query_by_label("Rename tree").is_none());
    // Back to the menu.
    h.event(Event::PointerButton {
        pos: title,
        button: egui::PointerButton::Secondary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.event(Event::PointerButton {
        pos: title,
        button: egui::PointerButton::Secondary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(2);
    // The menu's button is the one on the left (the inspector's is in the right panel).
    let menu_button = h
        .query_all_by_label("Rename tree…")
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("the menu's button");
    menu_button.click();
    h.run_steps(3);
    h.get_by_label("Rename tree");
    retype_app(&mut h, "helper");
    h.key_press(Key::Enter);
    h.run_steps(4);
    assert!(h.state().pack().tree("helper").is_some());
    assert!(h.state().open_tabs().contains(&"Tree helper".to_string()));
}

#[test]
fn the_view_menu_sets_the_tree_direction_as_one_undo_step() {
    let mut h = app_harness();
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Left to right").click();
    h.run_steps(3);
    let dir =
        |h: &Harness<'static, townsfolk_editor::EditorApp>| h.state().pack().editor.tree_direction;
    assert_eq!(dir(&h), pack::TreeDirection::LeftToRight);
    assert!(h.state().document().is_dirty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(3);
    assert_eq!(dir(&h), pack::TreeDirection::TopDown);
}

fn retype_app(h: &mut Harness<'static, townsfolk_editor::EditorApp>, text: &str) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.event(Event::Text(text.to_string()));
    h.run_steps(2);
}

/// Empties the palette (a search nothing matches), so that kind names are only found in the
/// menu or combo under test.
fn hide_palette(h: &mut Harness<'static, App>) {
    h.get_by_label("Search nodes").click();
    h.run_steps(1);
    type_text(h, "zzz");
}

fn node<'a>(h: &'a Harness<'static, App>, tree_id: &str, id: &str) -> &'a pack::Node {
    townsfolk_editor::document::tree::find(&tree(h, tree_id).root, id)
        .unwrap_or_else(|| panic!("node `{id}`"))
}

#[test]
fn the_inspectors_type_combo_changes_a_nodes_type_keeping_its_children() {
    let mut h = harness(TWO_TREES, &["main"]);
    hide_palette(&mut h);
    click_card(&mut h, "busy");
    let before = h.state().doc.history_len().0;
    h.get_by_label("type").click();
    h.run_steps(2);
    h.get_by_label_contains(" Selector").click();
    h.run_steps(3);
    let busy = node(&h, "main", "busy");
    assert_eq!(busy.kind, pack::NodeKind::Selector { reactive: false });
    assert_eq!(busy.children.len(), 2);
    assert_eq!(busy.comment.as_deref(), Some("keeps busy"));
    assert_eq!(
        h.state().doc.pack().editor.trees["main"].nodes["busy"]
            .pos
            .x,
        -200.0
    );
    assert_eq!(h.state().doc.history_len().0, before + 1, "one undo step");
    assert_eq!(h.state().doc.selection.items, ["busy"]);

    // A decorator takes one child: refused, with the reason on the status line.
    h.get_by_label("type").click();
    h.run_steps(2);
    h.get_by_label_contains(" Inverter").click();
    h.run_steps(3);
    assert_eq!(
        node(&h, "main", "busy").kind,
        pack::NodeKind::Selector { reactive: false }
    );
    assert!(
        statuses(h.state())
            .iter()
            .any(|s| s.contains("takes exactly one")),
        "{:?}",
        statuses(h.state())
    );
    assert!(h.state_mut().doc.undo());
    assert_eq!(
        node(&h, "main", "busy").kind,
        pack::NodeKind::Sequence { reactive: false }
    );
}

#[test]
fn the_context_menu_changes_a_leafs_type_and_carries_its_seconds() {
    let mut h = harness(TWO_TREES, &["main"]);
    hide_palette(&mut h);
    click_card(&mut h, "idle");
    let at = card(&h, "idle").center();
    h.hover_at(at);
    h.run_steps(1);
    h.event(Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Secondary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.event(Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Secondary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("Duplicate").is_some(),
        "the context menu is open"
    );
    h.get_by_label_contains("Change type").hover();
    h.run_steps(2);
    h.get_by_label_contains("Decorators").hover();
    h.run_steps(2);
    h.get_by_label_contains(" Cooldown").click();
    h.run_steps(3);
    assert_eq!(
        node(&h, "main", "idle").kind,
        pack::NodeKind::Cooldown { seconds: 5.0 }
    );
}

/// Ctrl+C on the canvas: the text the frame put on the clipboard.
fn copy_selection(h: &mut Harness<'static, App>) -> String {
    // The harness runs one frame per queued event: the copy is in that frame's output.
    h.event(Event::Key {
        key: Key::C,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: Modifiers::COMMAND,
    });
    h.step();
    h.output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .expect("Ctrl+C put text on the clipboard")
}

#[test]
fn paste_into_another_tree_brings_the_declarations_the_nodes_use() {
    let mut h = harness(TWO_TREES, &["main", "other", "third"]);
    click_card(&mut h, "busy");
    let copied = copy_selection(&mut h);

    // Into a tree without the variable: it is declared there, as one undo step.
    h.state_mut().active = 1;
    h.run_steps(3);
    click_card(&mut h, "top");
    let steps = h.state().doc.history_len().0;
    h.event(Event::Paste(copied.clone()));
    h.run_steps(3);
    let bb = &tree(&h, "other").blackboard;
    assert_eq!(
        bb.keys().collect::<Vec<_>>(),
        ["target"],
        "only what `busy` uses"
    );
    assert_eq!(bb["target"].ty, townsfolk_runtime::value::Type::Entity);
    assert_eq!(h.state().doc.history_len().0, steps + 1);
    assert!(h.state_mut().doc.undo());
    assert!(tree(&h, "other").blackboard.is_empty());

    // Into a tree that declares it with another type: kept, and a warning says so.
    h.state_mut().active = 2;
    h.run_steps(3);
    click_card(&mut h, "base");
    h.event(Event::Paste(copied));
    h.run_steps(3);
    assert!(node(&h, "third", "busy").children.len() == 2, "pasted");
    assert_eq!(
        tree(&h, "third").blackboard["target"].ty,
        townsfolk_runtime::value::Type::Float
    );
    let last = statuses(h.state()).last().map(|s| s.to_string());
    let last = last.unwrap_or_default();
    assert!(
        last.contains("warning") && last.contains("`target`"),
        "{last}"
    );
}

/// The widget with this label on the blackboard row of `var` (same height as its name).
fn on_row<'a>(h: &'a Harness<'static, App>, var: &str, label: &'a str) -> egui_kittest::Node<'a> {
    let y = h.get_by_label(var).rect().center().y;
    h.query_all_by_label(label)
        .find(|n| (n.rect().center().y - y).abs() < 8.0)
        .unwrap_or_else(|| panic!("`{label}` on the row of `{var}`"))
}

/// The widget with this label on the line under the blackboard row of `var`.
fn under_row<'a>(
    h: &'a Harness<'static, App>,
    var: &str,
    label: &'a str,
) -> egui_kittest::Node<'a> {
    let y = h.get_by_label(var).rect().bottom();
    h.query_all_by_label(label)
        .find(|n| n.rect().top() > y && n.rect().top() < y + 20.0)
        .unwrap_or_else(|| panic!("`{label}` under the row of `{var}`"))
}

fn decl(h: &Harness<'static, App>, var: &str) -> Option<pack::VarDecl> {
    tree(h, "main").blackboard.get(var).cloned()
}

#[test]
fn the_blackboard_table_renames_comments_and_guards_removal_by_uses() {
    let mut h = harness(TWO_TREES, &["main"]);
    h.get_by_label("Blackboard");

    // Rename `target`: its use in `walk` follows, one undo step.
    under_row(&h, "target", "Rename…").click();
    h.run_steps(3);
    h.get_by_label("Rename variable");
    retype(&mut h, "goal");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert!(h.query_by_label("Rename variable").is_none(), "closed");
    assert!(decl(&h, "target").is_none());
    assert_eq!(
        decl(&h, "goal").map(|d| d.ty),
        Some(townsfolk_runtime::value::Type::Entity)
    );
    assert_eq!(
        node(&h, "main", "walk").kind,
        pack::NodeKind::MoveTo {
            target: pack::MoveTarget::Var("goal".into()),
            tolerance: None
        }
    );
    assert!(h.state_mut().doc.undo());
    h.run_steps(2);
    assert!(decl(&h, "goal").is_none() && decl(&h, "target").is_some());

    // A name the tree already declares is refused in the popup.
    under_row(&h, "target", "Rename…").click();
    h.run_steps(3);
    retype(&mut h, "speed");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert!(h.query_by_label_contains("already declares").is_some());
    press(&mut h, Modifiers::NONE, Key::Escape);
    h.run_steps(2);

    // The comment of `speed`, typed: one undo step.
    let steps = h.state().doc.history_len().0;
    let y = h.get_by_label("speed").rect().bottom();
    h.query_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.rect().top() > y && n.rect().top() < y + 20.0)
        .expect("the comment field under `speed`")
        .click();
    h.run_steps(2);
    type_text(&mut h, "metres a second");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(
        decl(&h, "speed").and_then(|d| d.comment).as_deref(),
        Some("metres a second")
    );
    assert_eq!(h.state().doc.history_len().0, steps + 1);

    // `target` is used once: its ✖ is disabled. `speed` is not used: it goes.
    assert!(on_row(&h, "target", "✖").accesskit_node().is_disabled());
    on_row(&h, "target", "✖").click();
    h.run_steps(3);
    assert!(decl(&h, "target").is_some(), "a used variable stays");
    on_row(&h, "speed", "✖").click();
    h.run_steps(3);
    assert!(decl(&h, "speed").is_none(), "an unused one is removed");
}

#[test]
fn the_canvas_menu_draws_the_tree_left_to_right_and_saves_it_in_the_pack() {
    use pack::TreeDirection;
    let mut h = harness(TWO_TREES, &["main"]);
    hide_palette(&mut h);
    let root = card(&h, "root");
    let busy = card(&h, "busy");
    assert!(busy.top() > root.bottom(), "top-down at first");
    // The canvas background's context menu.
    let at = root.center() + vec2(0.0, -150.0);
    h.hover_at(at);
    h.run_steps(1);
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run_steps(2);
    h.get_by_label_contains("Tree direction").hover();
    h.run_steps(2);
    h.get_by_label("Left to right").click();
    h.run_steps(4);
    let p = h.state().doc.pack();
    assert_eq!(p.editor.tree_direction, TreeDirection::LeftToRight);
    let canon = pack::to_canonical_string(p);
    assert!(canon.contains("\"tree_direction\": \"left_to_right\""));
    // Children right of their parent, siblings top to bottom in their order.
    let (root, busy, idle) = (card(&h, "root"), card(&h, "busy"), card(&h, "idle"));
    assert!(busy.left() > root.right() && idle.left() > root.right());
    assert!(busy.bottom() < idle.top());
    // Saved positions did not move: switching back draws the same top-down tree.
    assert_eq!(
        h.state().doc.pack().editor.trees["main"].nodes["busy"]
            .pos
            .x,
        -200.0
    );
    assert!(h.state_mut().doc.undo());
    h.run_steps(3);
    assert_eq!(
        h.state().doc.pack().editor.tree_direction,
        TreeDirection::TopDown
    );
    assert!(card(&h, "busy").top() > card(&h, "root").bottom());
}

/// Drags from one screen point to another in small steps.
#[test]
fn left_to_right_a_child_dragged_above_its_sibling_takes_its_place() {
    let mut h = harness(TWO_TREES, &["main"]);
    h.state_mut()
        .doc
        .apply(townsfolk_editor::document::Edit::TreeDirection(
            pack::TreeDirection::LeftToRight,
        ))
        .unwrap();
    h.run_steps(3);
    let (busy, idle) = (card(&h, "busy"), card(&h, "idle"));
    assert!(busy.bottom() < idle.top());
    let from = idle.center();
    let to = pos2(from.x, busy.top() - 10.0);
    drag(&mut h, from, to);
    assert_eq!(
        shape(tree(&h, "main"))[0].2,
        ["idle", "busy", "helper_call"],
        "reordered along the flow"
    );
    // The card stays where it was dropped (saved positions map back to the drawing).
    let now = card(&h, "idle");
    assert!((now.center() - to).length() < 4.0, "{now:?} vs {to:?}");
}
