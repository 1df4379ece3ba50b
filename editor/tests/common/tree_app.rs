//! The tree editor alone (a tree tab and its inspector, no shell) in a headless harness, and
//! helpers to read its trees and find its cards.

use egui::{Rect, vec2};
use egui_kittest::Harness;
use townsfolk_editor::document::Document;
use townsfolk_editor::views::tree::{TreeTab, tree_inspector_ui, tree_tab_ui};
use townsfolk_editor::views::{ViewCtx, ViewRequest};
use townsfolk_runtime::pack::{self, TreeDef};

use super::click_at;

/// The tree editor's state: the document, one tab per tree, the active tab, and what the
/// views asked of the shell.
pub struct App {
    pub doc: Document,
    pub tabs: Vec<TreeTab>,
    pub active: usize,
    pub requests: Vec<ViewRequest>,
}

impl App {
    pub fn tab(&self) -> &TreeTab {
        &self.tabs[self.active]
    }
}

pub fn harness(pack_json: &str, trees: &[&str]) -> Harness<'static, App> {
    let loaded = pack::load_str(pack_json);
    assert!(loaded.pack.is_some(), "{:?}", loaded.diagnostics);
    let app = App {
        doc: Document::from_loaded(loaded, None),
        tabs: trees.iter().map(|t| TreeTab::new(t)).collect(),
        active: 0,
        requests: Vec::new(),
    };
    let mut h = Harness::builder()
        .with_size(vec2(1400.0, 900.0))
        .with_step_dt(0.05)
        .build_ui_state(
            |ui, app: &mut App| {
                app.doc.poll();
                let App {
                    doc,
                    tabs,
                    active,
                    requests,
                } = app;
                let tab = &mut tabs[*active];
                let mut cx = ViewCtx { doc, requests };
                egui::Panel::right("inspector")
                    .exact_size(420.0)
                    .show(ui, |ui| tree_inspector_ui(ui, tab, &mut cx));
                egui::CentralPanel::default().show(ui, |ui| tree_tab_ui(ui, tab, &mut cx));
            },
            app,
        );
    h.run_steps(3);
    h
}

pub fn tree<'a>(h: &'a Harness<'static, App>, id: &str) -> &'a TreeDef {
    h.state().doc.pack().tree(id).expect("the tree exists")
}

/// `(id, type, child ids)` of every node, depth first: a compact picture of a tree.
pub fn shape(t: &TreeDef) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    let mut stack = vec![&t.root];
    while let Some(n) = stack.pop() {
        out.push((
            n.id.clone(),
            n.kind.type_name().to_string(),
            n.children.iter().map(|c| c.id.clone()).collect(),
        ));
        stack.extend(n.children.iter().rev());
    }
    out
}

pub fn ids(t: &TreeDef) -> Vec<String> {
    shape(t).into_iter().map(|(id, _, _)| id).collect()
}

pub fn card(h: &Harness<'static, App>, node: &str) -> Rect {
    h.state()
        .tab()
        .card_screen_rect(node)
        .unwrap_or_else(|| panic!("card `{node}` is drawn"))
}

/// Clicks a card (selects it and gives the canvas the keyboard).
pub fn click_card(h: &mut Harness<'static, App>, node: &str) {
    let at = card(h, node).center() + vec2(0.0, 6.0);
    click_at(h, at);
    assert_eq!(h.state().doc.selection.items, vec![node.to_string()]);
}

/// Two trees, an NPC, a layout and a breakpoint.
pub const TWO_TREES: &str = r#"{
  "format": "townsfolk-pack", "version": 1, "name": "Two", "world": {
    "npcs": [{"id": "bob", "pos": [1, 1], "tree": "main"}]
  },
  "trees": [
    {"id": "main", "root": {"id": "root", "type": "selector", "children": [
      {"id": "busy", "type": "sequence", "children": [
        {"id": "look", "type": "wait", "seconds": 1},
        {"id": "walk", "type": "move_to", "target": {"point": [3, 4]}}
      ]},
      {"id": "idle", "type": "wait", "seconds": 5},
      {"id": "helper_call", "type": "subtree", "tree": "other"}
    ]}},
    {"id": "other", "root": {"id": "top", "type": "sequence", "children": [
      {"id": "look", "type": "wait", "seconds": 2}
    ]}}
  ],
  "editor": {
    "trees": {"main": {"nodes": {
      "root": {"pos": [0, 0]}, "busy": {"pos": [-200, 120]}, "look": {"pos": [-300, 240]},
      "walk": {"pos": [-100, 240]}, "idle": {"pos": [0, 120]}, "helper_call": {"pos": [200, 120]}
    }}},
    "breakpoints": [{"id": 1, "on": "node", "tree": "main", "node": "idle"}]
  }
}"#;
