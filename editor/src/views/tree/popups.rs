//! The small windows of a tree tab: type-to-insert, rename (F2), delete a composite (ask how),
//! extract to a new subtree.

use egui::{Key, RichText, TextEdit, Ui};

use super::catalogue;
use super::commands;
use super::tab::{Renaming, TreeTab};
use crate::document::DeleteMode;
use crate::views::ViewCtx;
use crate::widgets::ERROR_COLOR;

fn window(title: &str) -> egui::Window<'static> {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
}

/// The type-to-insert popup: a search field, the matching kinds, Enter inserts the highlighted
/// one under the selection, Escape closes.
pub(crate) fn insert_popup_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    let Some(mut p) = tab.insert.take() else {
        return;
    };
    let mut open = true;
    let mut close = false;
    let mut chosen: Option<&'static str> = None;
    window("Insert node").open(&mut open).show(ui.ctx(), |ui| {
        let r = ui.add(
            TextEdit::singleline(&mut p.query)
                .hint_text("type a node kind, e.g. seq")
                .desired_width(260.0),
        );
        if !p.focus_requested {
            r.request_focus();
            p.focus_requested = true;
        }
        if r.changed() {
            p.row = 0;
        }
        let hits = catalogue::search(&p.query);
        let (down, up, enter, escape) = ui.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::NONE, Key::ArrowDown),
                i.consume_key(egui::Modifiers::NONE, Key::ArrowUp),
                i.key_pressed(Key::Enter),
                i.key_pressed(Key::Escape),
            )
        });
        if down && p.row + 1 < hits.len() {
            p.row += 1;
        }
        if up {
            p.row = p.row.saturating_sub(1);
        }
        egui::ScrollArea::vertical()
            .max_height(260.0)
            .show(ui, |ui| {
                if hits.is_empty() {
                    ui.weak("no node kind matches");
                }
                for (i, k) in hits.iter().enumerate() {
                    let text = RichText::new(format!("{} {}", k.icon, k.label)).color(k.color());
                    let row = ui.selectable_label(i == p.row, text).on_hover_text(k.help);
                    if i == p.row {
                        row.scroll_to_me(None);
                    }
                    if row.clicked() {
                        chosen = Some(k.type_name);
                    }
                }
            });
        if enter && let Some(k) = hits.get(p.row) {
            chosen = Some(k.type_name);
        }
        if escape {
            close = true;
        }
    });
    open &= !close;
    match chosen {
        Some(kind) => commands::insert_kind(tab, cx, kind, p.parent.clone(), p.at),
        None if open => tab.insert = Some(p),
        None => {}
    }
}

/// The rename popup: the new id, Enter renames (references follow), Escape cancels.
pub(crate) fn rename_popup_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    let Some(mut p) = tab.rename.take() else {
        return;
    };
    let mut open = true;
    let mut close = false;
    let mut go = false;
    let title = match p.what {
        Renaming::Node => "Rename node",
        Renaming::Tree => "Rename tree",
        Renaming::Var => "Rename variable",
    };
    window(title).open(&mut open).show(ui.ctx(), |ui| {
        ui.label(match p.what {
            Renaming::Node => format!("New id for `{}` (references follow):", p.node),
            Renaming::Tree => format!(
                "New id for the tree `{}` (subtree nodes, NPCs and layouts follow):",
                p.node
            ),
            Renaming::Var => format!(
                "New name for the variable `{}` (every use in the tree follows):",
                p.node
            ),
        });
        let r = ui.add(TextEdit::singleline(&mut p.text).desired_width(240.0));
        if !p.focus_requested {
            r.request_focus();
            p.focus_requested = true;
        }
        if let Some(e) = &p.error {
            ui.label(RichText::new(e).color(ERROR_COLOR));
        }
        go |= r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        ui.horizontal(|ui| {
            go |= ui.button("Rename").clicked();
            if ui.button("Cancel").clicked() {
                close = true;
            }
        });
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            close = true;
        }
    });
    open &= !close;
    if go && open {
        let new = p.text.trim().to_string();
        if new == p.node {
            return;
        }
        let old = p.node.clone();
        let done = match p.what {
            Renaming::Node => commands::rename(tab, cx, &old, &new),
            Renaming::Tree => commands::rename_tree(tab, cx, &new),
            Renaming::Var => commands::rename_var(tab, cx, &old, &new),
        };
        match done {
            Ok(()) => return,
            Err(e) => {
                p.error = Some(e);
                p.focus_requested = false;
            }
        }
    }
    if open {
        tab.rename = Some(p);
    }
}

/// Deleting a composite with children: the whole subtree, or its children lifted into its
/// place.
pub(crate) fn delete_popup_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    let Some(ask) = tab.delete_ask.take() else {
        return;
    };
    let mut open = true;
    let mut close = false;
    let mut mode = None;
    window("Delete nodes").open(&mut open).show(ui.ctx(), |ui| {
        ui.label(format!(
            "`{}` has children. Delete:",
            ask.nodes.join("`, `")
        ));
        if ui.button("The whole subtree").clicked() {
            mode = Some(DeleteMode::Subtree);
        }
        if ui
            .button("Only the node; lift its children into its place")
            .clicked()
        {
            mode = Some(DeleteMode::LiftChildren);
        }
        if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(Key::Escape)) {
            close = true;
        }
    });
    open &= !close;
    match mode {
        Some(m) => commands::delete(tab, cx, ask.nodes, Some(m)),
        None if open => tab.delete_ask = Some(ask),
        None => {}
    }
}

/// Extract the selection to a new subtree: asks for the new tree's id.
pub(crate) fn extract_popup_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    let Some(mut p) = tab.extract.take() else {
        return;
    };
    let mut open = true;
    let mut close = false;
    let mut go = false;
    window("Extract to a new subtree")
        .open(&mut open)
        .show(ui.ctx(), |ui| {
            ui.label(format!(
                "Move `{}` into a new tree with id:",
                p.nodes.join("`, `")
            ));
            let r = ui.add(TextEdit::singleline(&mut p.tree_id).desired_width(240.0));
            go |= r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if let Some(e) = &p.error {
                ui.label(RichText::new(e).color(ERROR_COLOR));
            }
            ui.horizontal(|ui| {
                go |= ui.button("Extract").clicked();
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    open &= !close;
    if go && open {
        let id = p.tree_id.trim().to_string();
        match commands::extract(tab, cx, &p.nodes.clone(), &id) {
            Ok(()) => return,
            Err(e) => p.error = Some(e),
        }
    }
    if open {
        tab.extract = Some(p);
    }
}
