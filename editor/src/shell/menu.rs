//! The menu bar (File, Edit, View, Debug, Help; every item with a shortcut shows it from the
//! one table in `shortcuts`) and the Help windows.

use egui::{Button, RichText};
use townsfolk_runtime::pack::TreeDirection;

use crate::EditorApp;
use crate::io::ImportFormat;
use crate::shell::Action;
use crate::shell::dock::Tab;
use crate::shell::prefs::{Prefs, SCALES, Theme};
use crate::shortcuts::{self, Command, SHORTCUTS, Scope};

/// A menu item with its shortcut text; pushes `action` when clicked.
fn item_ui(
    ui: &mut egui::Ui,
    label: &str,
    command: Option<Command>,
    enabled: bool,
    action: Action,
    actions: &mut Vec<Action>,
) {
    let mut b = Button::new(label);
    if let Some(c) = command {
        b = b.shortcut_text(shortcuts::text(ui.ctx(), c));
    }
    if ui.add_enabled(enabled, b).clicked() {
        actions.push(action);
        ui.close();
    }
}

pub(crate) fn menu_bar_ui(ui: &mut egui::Ui, app: &EditorApp, actions: &mut Vec<Action>) {
    let doc = &app.doc;
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            item_ui(ui, "New", Some(Command::New), true, Action::New, actions);
            item_ui(
                ui,
                "Open…",
                Some(Command::Open),
                true,
                Action::OpenDialog,
                actions,
            );
            item_ui(
                ui,
                "Open Folder Pack…",
                None,
                true,
                Action::OpenFolderDialog,
                actions,
            );
            item_ui(
                ui,
                "Open Mod over Base…",
                None,
                true,
                Action::OpenModDialog,
                actions,
            );
            ui.menu_button("Open Recent", |ui| {
                let recent = app.files.recent_paths();
                if recent.is_empty() {
                    ui.label(RichText::new("No recent files").weak());
                }
                for path in recent {
                    let label = path.display().to_string();
                    if ui.button(label).clicked() {
                        actions.push(Action::OpenRecent(path));
                        ui.close();
                    }
                }
            });
            ui.separator();
            item_ui(
                ui,
                "Save",
                Some(Command::Save),
                !doc.is_read_only(),
                Action::Save,
                actions,
            );
            item_ui(
                ui,
                "Save As…",
                Some(Command::SaveAs),
                true,
                Action::SaveAs,
                actions,
            );
            item_ui(
                ui,
                "Revert",
                None,
                doc.path().is_some() && doc.is_dirty(),
                Action::Revert,
                actions,
            );
            ui.separator();
            ui.menu_button("Import", |ui| {
                for format in [ImportFormat::Btcpp, ImportFormat::Behavior3] {
                    item_ui(
                        ui,
                        &format!("{}…", format.label()),
                        None,
                        !doc.is_read_only(),
                        Action::Import(format),
                        actions,
                    );
                }
            });
            item_ui(ui, "Export pack…", None, true, Action::Export, actions);
            ui.menu_button("Export", |ui| {
                item_ui(
                    ui,
                    "BehaviorTree.CPP XML…",
                    None,
                    true,
                    Action::ExportBtcpp,
                    actions,
                );
            });
            ui.separator();
            item_ui(ui, "Quit", None, true, Action::Quit, actions);
        });
        ui.menu_button("Edit", |ui| {
            let undo = match doc.undo_label() {
                Some(l) => format!("Undo {l}"),
                None => "Undo".to_string(),
            };
            let redo = match doc.redo_label() {
                Some(l) => format!("Redo {l}"),
                None => "Redo".to_string(),
            };
            item_ui(
                ui,
                &undo,
                Some(Command::Undo),
                doc.can_undo(),
                Action::Undo,
                actions,
            );
            item_ui(
                ui,
                &redo,
                Some(Command::Redo),
                doc.can_redo(),
                Action::Redo,
                actions,
            );
            ui.separator();
            item_ui(
                ui,
                "Find…",
                Some(Command::Find),
                true,
                Action::Find,
                actions,
            );
            item_ui(
                ui,
                "Close tab",
                Some(Command::CloseTab),
                true,
                Action::CloseTab,
                actions,
            );
        });
        ui.menu_button("View", |ui| {
            for tab in Tab::TOOLS {
                let open = app.dock.find_tab(&tab).is_some();
                let label = format!("{} {}", if open { "✔" } else { "  " }, tab.tool_label());
                item_ui(ui, &label, None, true, Action::ShowTab(tab), actions);
            }
            item_ui(ui, "Reset layout", None, true, Action::ResetLayout, actions);
            ui.separator();
            ui.label(RichText::new("Theme").weak());
            for theme in [Theme::Dark, Theme::Light] {
                if ui.radio(app.prefs.theme == theme, theme.label()).clicked() {
                    actions.push(Action::SetTheme(theme));
                    ui.close();
                }
            }
            ui.separator();
            ui.label(RichText::new("Tree direction").weak());
            for (dir, label) in [
                (TreeDirection::TopDown, "Top-down"),
                (TreeDirection::LeftToRight, "Left to right"),
            ] {
                // A radio button: egui's default fonts have no ● (it drew as a box).
                let on = app.doc.pack().editor.tree_direction == dir;
                let r = ui.add_enabled(!app.doc.is_read_only(), egui::RadioButton::new(on, label));
                if r.clicked() {
                    actions.push(Action::SetTreeDirection(dir));
                    ui.close();
                }
            }
            ui.separator();
            ui.label(RichText::new("UI scale").weak());
            for scale in SCALES {
                let on = (app.prefs.scale - scale).abs() < 1e-3;
                if ui.radio(on, Prefs::scale_label(scale)).clicked() {
                    actions.push(Action::SetScale(scale));
                    ui.close();
                }
            }
        });
        ui.menu_button("Debug", |ui| {
            let running = app.preview.session.is_some();
            let play = if app.preview.playing {
                "Pause preview"
            } else {
                "Play preview"
            };
            item_ui(
                ui,
                play,
                Some(Command::PlayPause),
                running,
                Action::PlayPause,
                actions,
            );
            item_ui(
                ui,
                "Step one tick",
                Some(Command::StepTick),
                running,
                Action::Step,
                actions,
            );
            item_ui(
                ui,
                "Restart preview",
                Some(Command::Restart),
                true,
                Action::Restart,
                actions,
            );
        });
        ui.menu_button("Help", |ui| {
            item_ui(
                ui,
                "Keyboard shortcuts",
                None,
                true,
                Action::ShowShortcuts,
                actions,
            );
            item_ui(
                ui,
                "About Townsfolk",
                None,
                true,
                Action::ShowAbout,
                actions,
            );
        });
    });
}

fn scope_label(scope: Scope) -> &'static str {
    match scope {
        Scope::Global => "anywhere",
        Scope::Canvas => "graph canvas",
        Scope::Preview => "preview",
    }
}

/// The Help windows: the shortcut table and About.
pub(crate) fn help_windows_ui(app: &mut EditorApp, ctx: &egui::Context) {
    let mut open = app.show_shortcuts;
    egui::Window::new("Keyboard shortcuts")
        .open(&mut open)
        .resizable(true)
        .default_width(460.0)
        .show(ctx, |ui| {
            egui::Grid::new("shortcut_table")
                .striped(true)
                .num_columns(3)
                .show(ui, |ui| {
                    for s in SHORTCUTS {
                        ui.label(RichText::new(ctx.format_shortcut(&s.keys)).monospace());
                        ui.label(s.label);
                        ui.label(RichText::new(scope_label(s.scope)).weak());
                        ui.end_row();
                    }
                });
        });
    app.show_shortcuts = open;
    let mut open = app.show_about;
    egui::Window::new("About Townsfolk")
        .open(&mut open)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(RichText::new(format!("Townsfolk editor {}", env!("CARGO_PKG_VERSION"))).strong());
            ui.label("Author behavior trees, smart areas, event graphs and triggers for NPCs, and watch them run live.");
        });
    app.show_about = open;
}
