//! Helpers shared by the editor's UI tests: the whole-app harness, menus, keys, pointer
//! gestures, scratch folders and an in-memory eframe storage. Each test file uses a part of
//! them, so the unused rest is allowed.
//!
//! The preview keeps requesting repaints while it plays, so the helpers use `run_steps(n)`,
//! never `run()`.

#![allow(dead_code)]

pub mod tree_app;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use egui::{Event, Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use townsfolk_editor::EditorApp;

/// The whole app in a 1400×900 headless window, 60 frames a second.
pub fn harness(app: EditorApp) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size([1400.0, 900.0])
        .with_step_dt(1.0 / 60.0)
        .build_eframe(|_cc| app)
}

/// Some widget's label contains `text`.
pub fn has<S>(h: &Harness<'_, S>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// The widget whose label starts with `prefix` (the first one, in tree order).
pub fn by_label_starting<'h, S>(
    h: &'h Harness<'_, S>,
    prefix: &'h str,
) -> Option<egui_kittest::Node<'h>> {
    h.query_all_by_label_contains(prefix).find(|n| {
        n.accesskit_node()
            .label()
            .is_some_and(|l| l.starts_with(prefix))
    })
}

/// Clicks a menu of the menu bar, then the item whose label starts with `item_starting`.
pub fn menu<S>(h: &mut Harness<'_, S>, menu: &str, item_starting: &str) {
    h.get_by_label(menu).click();
    h.run_steps(2);
    by_label_starting(h, item_starting)
        .unwrap_or_else(|| panic!("no `{item_starting}` item in the {menu} menu"))
        .click();
    h.run_steps(2);
}

/// A press and release at one point (a click that the canvas sees as one).
pub fn click_at<S>(h: &mut Harness<'_, S>, pos: Pos2) {
    h.hover_at(pos);
    h.run_steps(1);
    h.drag_at(pos);
    h.run_steps(1);
    h.drop_at(pos);
    h.run_steps(2);
}

/// A secondary (right) click at one point.
pub fn right_click_at<S>(h: &mut Harness<'_, S>, pos: Pos2) {
    h.hover_at(pos);
    h.run_steps(1);
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.run_steps(1);
    }
    h.run_steps(2);
}

/// Drags from one screen point to another in small steps.
pub fn drag<S>(h: &mut Harness<'_, S>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(1);
    for k in 1..=8 {
        h.hover_at(from + (to - from) * (k as f32 / 8.0));
        h.run_steps(1);
    }
    h.drop_at(to);
    h.run_steps(3);
}

pub fn press<S>(h: &mut Harness<'_, S>, modifiers: Modifiers, key: Key) {
    h.key_press_modifiers(modifiers, key);
    h.run_steps(2);
}

pub fn type_text<S>(h: &mut Harness<'_, S>, text: &str) {
    h.event(Event::Text(text.to_string()));
    h.run_steps(2);
}

/// A key press in one frame (the harness runs one frame per queued event), returning the
/// text that frame put on the clipboard, if any.
pub fn press_and_copied<S>(
    h: &mut Harness<'_, S>,
    modifiers: Modifiers,
    key: Key,
) -> Option<String> {
    h.event(Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers,
    });
    h.step();
    let copied = h
        .output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        });
    h.run_steps(2);
    copied
}

/// A fresh, empty folder for one test's files (`group` and `name` keep tests apart).
pub fn temp_dir(group: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("townsfolk-{group}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Copies `samples/NAME.json` into `dir`; returns the copy's path.
pub fn copy_sample(dir: &Path, name: &str) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../samples")
        .join(format!("{name}.json"));
    let to = dir.join(format!("{name}.json"));
    std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
    to
}

/// eframe storage in memory.
#[derive(Default)]
pub struct MemStorage(pub BTreeMap<String, String>);

impl eframe::Storage for MemStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// The tree tab of `tree` draws `node`'s card at the middle of its canvas (the view framed it).
pub fn assert_framed(h: &Harness<'_, EditorApp>, tree: &str, node: &str) {
    let card = h
        .state()
        .tree_card_screen_rect(tree, node)
        .unwrap_or_else(|| panic!("the tab of `{tree}` draws `{node}`"));
    let canvas = h
        .state()
        .tree_canvas_screen_rect(tree)
        .unwrap_or_else(|| panic!("the tab of `{tree}` draws its canvas"));
    assert!(
        card.center().distance(canvas.center()) < 4.0,
        "`{node}` is framed: card at {:?}, canvas centre {:?}",
        card.center(),
        canvas.center()
    );
}

/// Whether `node` sits on the same row as the widget labelled `row` (a table's row).
fn on_row<S>(h: &Harness<'_, S>, row: &str, node: &egui_kittest::Node<'_>) -> bool {
    let y = h.get_by_label(row).rect().center().y;
    (node.rect().center().y - y).abs() < 8.0
}

/// The widget labelled `label` on the row of the widget labelled `row`.
pub fn by_label_on_row<'h, S>(
    h: &'h Harness<'_, S>,
    row: &str,
    label: &'h str,
) -> Option<egui_kittest::Node<'h>> {
    h.query_all_by_label(label).find(|n| on_row(h, row, n))
}

/// The widget of `role` on the row of the widget labelled `row`.
pub fn by_role_on_row<'h, S>(
    h: &'h Harness<'_, S>,
    row: &str,
    role: egui::accesskit::Role,
) -> Option<egui_kittest::Node<'h>> {
    h.query_all_by_role(role).find(|n| on_row(h, row, n))
}

/// Opens a tree's tab from the asset browser (its row reads `id — name`).
pub fn open_tree_from_assets(h: &mut Harness<'_, EditorApp>, row: &str, tree: &str) {
    by_label_starting(h, row)
        .unwrap_or_else(|| panic!("the asset browser lists `{row}`"))
        .click();
    h.run_steps(4);
    assert!(
        h.state().open_tabs().contains(&format!("Tree {tree}")),
        "{:?}",
        h.state().open_tabs()
    );
}

/// The bundled guards sample in the app, the preview paused.
pub fn guards_app() -> Harness<'static, EditorApp> {
    let text = include_str!("../../../samples/guards.json");
    let mut h = harness(EditorApp::from_text(text, "guards"));
    h.state_mut().set_playing(false);
    h.run_steps(3);
    h
}
