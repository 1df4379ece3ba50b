//! The status bar: the file, the dirty marker, read-only state, the selection, the checking
//! indicator, problem counts and the last message.

use egui::RichText;

use crate::EditorApp;
use crate::shell::style::{ERROR_COLOR, OK_COLOR, WARNING_COLOR, count, dot_label_ui};

pub(crate) fn status_bar_ui(ui: &mut egui::Ui, app: &EditorApp) {
    let doc = &app.doc;
    ui.horizontal(|ui| {
        let file = match (doc.path(), &app.source_label) {
            (Some(p), _) => p.display().to_string(),
            (None, Some(label)) => label.clone(),
            (None, None) => "Untitled (not saved yet)".to_string(),
        };
        ui.label(RichText::new(file).monospace());
        if doc.is_dirty() {
            dot_label_ui(ui, RichText::new("modified"), WARNING_COLOR)
                .on_hover_text("Unsaved changes (autosaved to a recovery file every 30 s)");
        } else {
            ui.label(RichText::new("saved").weak());
        }
        if doc.is_read_only() {
            ui.label(RichText::new("🔒 read-only").color(ERROR_COLOR))
                .on_hover_text(
                    "Part of the file could not be read; saving over it would lose that part.",
                );
        }
        ui.separator();
        let sel = &doc.selection;
        let selection = match (&sel.asset, sel.items.len()) {
            (None, _) => "nothing selected".to_string(),
            (Some(a), 0) => format!("{} {}", a.kind.label().to_lowercase(), a.id),
            (Some(a), 1) => format!(
                "{} {} · node {}",
                a.kind.label().to_lowercase(),
                a.id,
                sel.items[0]
            ),
            (Some(a), n) => format!("{} {} · {n} nodes", a.kind.label().to_lowercase(), a.id),
        };
        ui.label(RichText::new(selection).weak());
        ui.separator();
        let errors = doc.diagnostics().iter().filter(|d| d.is_error()).count();
        let warnings = doc.diagnostics().len() - errors;
        if doc.checking() {
            ui.spinner();
            ui.label(RichText::new("checking…").weak());
        } else {
            let color = if errors > 0 {
                ERROR_COLOR
            } else if warnings > 0 {
                WARNING_COLOR
            } else {
                OK_COLOR
            };
            ui.label(
                RichText::new(format!(
                    "{}, {}",
                    count(errors, "error"),
                    count(warnings, "warning")
                ))
                .color(color),
            );
        }
        if let Some(msg) = &app.status {
            ui.separator();
            ui.label(msg);
        }
    });
}
