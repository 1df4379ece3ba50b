//! The tree tab: the palette strip, the canvas, and the canvas actions, shortcuts, drops and
//! context menu turned into document edits.

use egui::{Event, Pos2, Rect, Ui};
use townsfolk_runtime::pack::{Arity, NodeKind, TreeDirection};

use super::commands;
use super::layout::NODE_SIZE;
use super::palette::{PaletteAction, PaletteItem, palette_ui};
use super::popups;
use super::tab::{InsertPopup, TreeTab};
use crate::canvas::{CanvasAction, SelectMode, canvas_ui};
use crate::document::tree::find;
use crate::shortcuts::{self, Command};
use crate::views::{ViewCtx, ViewRequest};

/// The node a drop at `at` goes under: the card under the pointer, else the nearest card
/// before the drop point along the flow (above it, or left of it) that takes children, else
/// the root.
fn drop_parent(tab: &TreeTab, cx: &ViewCtx, hovered: Option<&String>, at: Pos2) -> Option<String> {
    if let Some(h) = hovered {
        return Some(h.clone());
    }
    let built = tab.built.as_ref()?;
    let tree = cx.doc.pack().tree(&tab.tree_id)?;
    let mut best: Option<(f32, &String)> = None;
    let left_to_right = cx.doc.pack().editor.tree_direction == TreeDirection::LeftToRight;
    for (id, p) in &built.pos {
        let Some(n) = find(&tree.root, id) else {
            continue;
        };
        // Only cards before the drop point along the flow (above it, or left of it).
        let after = if left_to_right {
            p.x + NODE_SIZE.x > at.x
        } else {
            p.y + NODE_SIZE.y > at.y
        };
        if n.kind.arity() == Arity::Leaf || after {
            continue;
        }
        let centre = *p + NODE_SIZE / 2.0;
        let d = centre.distance_sq(at);
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, id));
        }
    }
    Some(best.map_or_else(|| tree.root.id.clone(), |(_, id)| id.clone()))
}

fn set_selection(tab: &TreeTab, cx: &mut ViewCtx, keys: Vec<String>, mode: SelectMode) {
    let mut sel = tab.selected(cx.doc);
    match mode {
        SelectMode::Replace => sel = keys,
        SelectMode::Add => {
            for k in keys {
                if !sel.contains(&k) {
                    sel.push(k);
                }
            }
        }
        SelectMode::Toggle => {
            for k in keys {
                match sel.iter().position(|s| *s == k) {
                    Some(i) => {
                        sel.remove(i);
                    }
                    None => sel.push(k),
                }
            }
        }
    }
    tab.select(cx.doc, sel);
}

/// The tab of one tree: the palette strip, the canvas, type-to-insert, context menus and the
/// canvas-scope shortcuts.
pub fn tree_tab_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    tab.refresh(cx.doc);
    if tab.built.is_none() {
        ui.centered_and_justified(|ui| {
            ui.weak(format!("The pack has no tree `{}`", tab.tree_id));
        });
        return;
    }
    let mut palette_action = None;
    egui::Panel::left(ui.id().with(("palette", &tab.tree_id)))
        .resizable(true)
        .default_size(170.0)
        .show(ui, |ui| {
            palette_action = palette_ui(ui, &mut tab.palette_search);
        });
    if let Some(PaletteAction::Insert(kind)) = palette_action {
        commands::insert_kind(tab, cx, kind, None, None);
        tab.refresh(cx.doc);
    }
    if let (Some(id), Some(built)) = (tab.frame_pending.clone(), &tab.built)
        && let Some(p) = built.pos.get(&id)
    {
        tab.canvas
            .frame(Rect::from_min_size(*p, NODE_SIZE).expand(NODE_SIZE.y * 2.0));
        tab.frame_pending = None;
    }
    let selection = tab.selected(cx.doc);
    let Some(built) = &tab.built else { return };
    let resp = canvas_ui(ui, &mut tab.canvas, &built.scene, &selection);
    tab.canvas_rect = Some(resp.response.rect);

    for action in resp.actions.clone() {
        match action {
            CanvasAction::Select { keys, mode } => set_selection(tab, cx, keys, mode),
            CanvasAction::MoveNodes { moved } => commands::moved(tab, cx, &moved),
            CanvasAction::Connect { from, to } => commands::connect(tab, cx, &from.0, &to.0),
            CanvasAction::ConnectToEmpty { from, at } => {
                tab.insert = Some(InsertPopup {
                    parent: Some(from.0),
                    at: Some(at),
                    ..InsertPopup::default()
                });
            }
            CanvasAction::Delete { keys } => commands::delete(tab, cx, keys, None),
            CanvasAction::DoubleClick { key } => {
                let tree = cx.doc.pack().tree(&tab.tree_id);
                if let Some(NodeKind::Subtree { tree: sub }) =
                    tree.and_then(|t| find(&t.root, &key)).map(|n| &n.kind)
                {
                    cx.requests.push(ViewRequest::OpenTree(sub.clone()));
                }
            }
            CanvasAction::ContextMenu { key, at } => {
                if let Some(k) = &key
                    && !tab.selected(cx.doc).contains(k)
                {
                    tab.select(cx.doc, vec![k.clone()]);
                }
                tab.context_node = key;
                tab.context_at = Some(at);
            }
        }
    }

    // A node kind dragged from the palette and dropped on the canvas.
    if let Some(item) = resp.response.dnd_release_payload::<PaletteItem>() {
        let at = resp.pointer_pos.unwrap_or(Pos2::ZERO);
        let parent = drop_parent(tab, cx, resp.hovered.as_ref(), at);
        commands::insert_kind(tab, cx, item.0, parent, Some(at));
    }

    let popup_open = tab.insert.is_some()
        || tab.rename.is_some()
        || tab.delete_ask.is_some()
        || tab.extract.is_some();
    // Clipboard first: Ctrl+C must not be taken for C (collapse).
    if tab.paste_requested || (resp.focused && !popup_open) {
        clipboard_events(ui, tab, cx);
    }
    if resp.focused && !popup_open {
        shortcuts_ui(ui, tab, cx);
    }

    resp.response
        .context_menu(|ui| context_menu_ui(ui, tab, cx));

    popups::insert_popup_ui(ui, tab, cx);
    popups::rename_popup_ui(ui, tab, cx);
    popups::delete_popup_ui(ui, tab, cx);
    popups::extract_popup_ui(ui, tab, cx);
}

/// Copy, cut and paste: egui delivers them as events (`Event::Copy`, `Event::Cut`,
/// `Event::Paste`) from the platform; a bare key press (as in tests) also copies and cuts.
fn clipboard_events(ui: &Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    let events = ui.input(|i| i.events.clone());
    let mut copy = shortcuts::consume(ui.ctx(), Command::Copy);
    let mut cut = shortcuts::consume(ui.ctx(), Command::Cut);
    let mut pasted = None;
    for e in events {
        match e {
            Event::Copy => copy = true,
            Event::Cut => cut = true,
            Event::Paste(text) => pasted = Some(text),
            _ => {}
        }
    }
    if (copy || cut)
        && let Some(text) = commands::copy_text(tab, cx)
    {
        ui.ctx().copy_text(text);
        if cut {
            let sel = tab.selected(cx.doc);
            commands::delete(tab, cx, sel, Some(crate::document::DeleteMode::Subtree));
        }
    }
    if let Some(text) = pasted {
        tab.paste_requested = false;
        commands::paste(tab, cx, &text);
    }
}

/// The canvas-scope shortcuts of `shortcuts.rs` (only while the canvas has the focus and no
/// text field does).
fn shortcuts_ui(ui: &Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    let ctx = ui.ctx();
    if shortcuts::consume(ctx, Command::Duplicate) {
        commands::duplicate(tab, cx);
    }
    if shortcuts::consume(ctx, Command::SelectAll) {
        let all = tab
            .built
            .as_ref()
            .map(|b| b.pos.keys().cloned().collect())
            .unwrap_or_default();
        tab.select(cx.doc, all);
    }
    if shortcuts::consume(ctx, Command::MoveChildLeft) {
        commands::move_child(tab, cx, -1);
    }
    if shortcuts::consume(ctx, Command::MoveChildRight) {
        commands::move_child(tab, cx, 1);
    }
    if shortcuts::consume(ctx, Command::Rename) {
        let sel = tab.selected(cx.doc);
        let node = cx
            .doc
            .pack()
            .tree(&tab.tree_id)
            .and_then(|t| match sel.as_slice() {
                [one] => find(&t.root, one).cloned(),
                _ => None,
            });
        match node {
            Some(n) => commands::ask_rename(tab, &n),
            // Nothing selected: F2 renames the tree itself.
            None if sel.is_empty() => commands::ask_rename_tree(tab),
            None => cx.status("Select one node to rename it"),
        }
    }
    if shortcuts::consume(ctx, Command::AutoLayout) {
        commands::auto_layout(tab, cx);
    }
    if shortcuts::consume(ctx, Command::ToggleDisabled) {
        commands::toggle_disabled(tab, cx);
    }
    if shortcuts::consume(ctx, Command::ToggleCollapsed) {
        commands::toggle_collapsed(tab, cx);
    }
    if shortcuts::consume(ctx, Command::InsertNode) {
        tab.insert = Some(InsertPopup::default());
    }
}

fn context_menu_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    let node = tab.context_node.clone().and_then(|k| {
        cx.doc
            .pack()
            .tree(&tab.tree_id)
            .and_then(|t| find(&t.root, &k))
            .cloned()
    });
    let ctx = ui.ctx().clone();
    let key = |c| shortcuts::text(&ctx, c);
    if ui
        .add(egui::Button::new("Insert node…").shortcut_text(key(Command::InsertNode)))
        .clicked()
    {
        tab.insert = Some(InsertPopup {
            parent: node.as_ref().map(|n| n.id.clone()),
            at: None,
            ..InsertPopup::default()
        });
        ui.close();
    }
    if ui
        .add(egui::Button::new("Paste").shortcut_text(key(Command::Paste)))
        .clicked()
    {
        tab.paste_requested = true;
        ui.ctx()
            .send_viewport_cmd(egui::ViewportCommand::RequestPaste);
        ui.close();
    }
    if ui
        .add(egui::Button::new("Auto-layout").shortcut_text(key(Command::AutoLayout)))
        .clicked()
    {
        commands::auto_layout(tab, cx);
        ui.close();
    }
    let dir = cx.doc.pack().editor.tree_direction;
    ui.menu_button("Tree direction", |ui| {
        for (d, label) in [
            (TreeDirection::TopDown, "Top-down"),
            (TreeDirection::LeftToRight, "Left to right"),
        ] {
            if ui.radio(dir == d, label).clicked() {
                commands::set_direction(cx, d);
                ui.close();
            }
        }
    });
    let Some(node) = node else {
        if ui
            .add(egui::Button::new("Rename tree…").shortcut_text(key(Command::Rename)))
            .clicked()
        {
            commands::ask_rename_tree(tab);
            ui.close();
        }
        if ui.button("Find usages of this tree").clicked() {
            commands::find_tree_usages(cx, &tab.tree_id.clone());
            ui.close();
        }
        return;
    };
    ui.separator();
    if ui
        .add(egui::Button::new("Copy").shortcut_text(key(Command::Copy)))
        .clicked()
    {
        if let Some(text) = commands::copy_text(tab, cx) {
            ui.ctx().copy_text(text);
        }
        ui.close();
    }
    if ui
        .add(egui::Button::new("Cut").shortcut_text(key(Command::Cut)))
        .clicked()
    {
        if let Some(text) = commands::copy_text(tab, cx) {
            ui.ctx().copy_text(text);
            let sel = tab.selected(cx.doc);
            commands::delete(tab, cx, sel, Some(crate::document::DeleteMode::Subtree));
        }
        ui.close();
    }
    if ui
        .add(egui::Button::new("Duplicate").shortcut_text(key(Command::Duplicate)))
        .clicked()
    {
        commands::duplicate(tab, cx);
        ui.close();
    }
    if ui
        .add(egui::Button::new("Delete").shortcut_text(key(Command::Delete)))
        .clicked()
    {
        let sel = tab.selected(cx.doc);
        commands::delete(tab, cx, sel, None);
        ui.close();
    }
    ui.separator();
    let disabled_text = if node.disabled { "Enable" } else { "Disable" };
    if ui
        .add(egui::Button::new(disabled_text).shortcut_text(key(Command::ToggleDisabled)))
        .clicked()
    {
        commands::toggle_disabled(tab, cx);
        ui.close();
    }
    if !node.children.is_empty()
        && ui
            .add(
                egui::Button::new("Collapse / expand").shortcut_text(key(Command::ToggleCollapsed)),
            )
            .clicked()
    {
        commands::toggle_collapsed(tab, cx);
        ui.close();
    }
    if ui
        .add(egui::Button::new("Rename…").shortcut_text(key(Command::Rename)))
        .clicked()
    {
        commands::ask_rename(tab, &node);
        ui.close();
    }
    let mut retype = None;
    ui.menu_button("Change type", |ui| {
        retype = super::catalogue::kind_menu_ui(ui, node.kind.type_name());
    });
    if let Some(type_name) = retype {
        if type_name != node.kind.type_name() {
            commands::change_type(tab, cx, &node.id, type_name);
        }
        ui.close();
    }
    if ui.button("Extract to a new subtree…").clicked() {
        commands::ask_extract(tab, cx);
        ui.close();
    }
    if let NodeKind::Subtree { tree } = &node.kind {
        ui.separator();
        if ui.button(format!("Open `{tree}`")).clicked() {
            cx.requests.push(ViewRequest::OpenTree(tree.clone()));
            ui.close();
        }
        if ui.button(format!("Find usages of `{tree}`")).clicked() {
            commands::find_tree_usages(cx, tree);
            ui.close();
        }
    }
    if ui.button("Find usages of this tree").clicked() {
        commands::find_tree_usages(cx, &tab.tree_id.clone());
        ui.close();
    }
}
