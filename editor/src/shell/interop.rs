//! File ▸ Import (BehaviorTree.CPP XML, behavior3 JSON) and File ▸ Export ▸ BehaviorTree.CPP
//! XML in the UI: the file dialogs, the import as one undo step, the import report (a window,
//! and a section of the problems tab until dismissed), and the export window that refuses,
//! listing the problems, while errors remain. The work itself is `crate::io::interop`'s.

use std::path::Path;

use egui::{RichText, ScrollArea};
use townsfolk_runtime::interop::ImportReport;

use crate::EditorApp;
use crate::document::AssetRef;
use crate::io::{self, ImportFormat};
use crate::shell::Action;
use crate::shell::dialogs::Purpose;
use crate::shell::problems::Located;
use crate::shell::style::{WARNING_COLOR, count};

/// The last import into the open pack and its report (view state: dropped with the pack).
#[derive(Clone, Debug)]
pub(crate) struct ImportShown {
    /// The imported file, as shown.
    pub file: String,
    pub format: ImportFormat,
    /// The trees added, by their ids in the pack.
    pub trees: Vec<String>,
    /// (id in the file, id given) for trees whose id the pack already had.
    pub renamed: Vec<(String, String)>,
    pub report: ImportReport,
    /// The report window is open (the problems tab keeps the report after it is closed).
    pub window: bool,
}

impl ImportShown {
    fn summary(&self) -> String {
        format!(
            "Imported {} from {} ({}): {}, {} to map",
            count(self.trees.len(), "tree"),
            self.file,
            self.format.label(),
            count(self.report.warnings.len(), "warning"),
            count(self.report.placeholders.len(), "placeholder"),
        )
    }
}

/// The BehaviorTree.CPP export window's state.
#[derive(Debug, Default)]
pub(crate) struct BtcppExportWindow {
    /// Why the last export was refused (the problems, one a line).
    pub problems: Vec<String>,
    pub done: Option<String>,
}

impl EditorApp {
    /// Imports the trees of `path` (in `format`) into the open pack as one undo step, as
    /// File ▸ Import does after its file dialog: ids the pack already has get a `_2`, `_3`, …
    /// suffix, the report opens in a window and stays in the problems tab, and the first
    /// imported tree opens. A file that cannot be imported changes nothing and says why.
    pub fn import_trees_from(&mut self, path: &Path, format: ImportFormat) -> bool {
        if self.doc.is_read_only() {
            self.files.error = Some(
                "This pack is read-only (it was not read completely): trees cannot be imported into it."
                    .to_string(),
            );
            return false;
        }
        let imported = match io::import_trees(self.doc.pack(), path, format) {
            Ok(i) => i,
            Err(e) => {
                self.files.error = Some(format!("Could not import {}: {e}", path.display()));
                return false;
            }
        };
        let file = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        self.doc.begin_gesture(&format!(
            "Import {} from {file}",
            count(imported.trees.len(), "tree")
        ));
        let applied = self.doc.apply(imported.edit);
        self.doc.end_gesture();
        if let Err(e) = applied {
            self.files.error = Some(format!("Could not import {}: {e}", path.display()));
            return false;
        }
        let shown = ImportShown {
            file,
            format,
            trees: imported.trees,
            renamed: imported.renamed,
            report: imported.report,
            window: true,
        };
        self.status = Some(shown.summary());
        if let Some(first) = shown.trees.first() {
            let first = AssetRef::tree(first);
            self.views.open(&self.doc, &first);
            crate::shell::dock::show_tab(&mut self.dock, crate::shell::Tab::Asset(first.clone()));
            self.inspected = Some(crate::shell::Tab::Asset(first));
        }
        self.views.import = Some(shown);
        true
    }

    /// The report of the last import into the open pack, if any: (warnings, placeholders).
    pub fn import_report(&self) -> Option<&ImportReport> {
        self.views.import.as_ref().map(|s| &s.report)
    }
}

/// File ▸ Import ▸ …: asks for the file, then imports it.
pub(crate) fn import_dialog(app: &mut EditorApp, format: ImportFormat) {
    let dir = app.doc.path().and_then(Path::parent).map(Path::to_path_buf);
    if let Some(path) = app
        .files
        .dialogs
        .pick(Purpose::Import(format), dir.as_deref(), "")
    {
        app.import_trees_from(&path, format);
    }
}

/// Opens the BehaviorTree.CPP export window.
pub(crate) fn open_btcpp_export(app: &mut EditorApp) {
    app.files
        .btcpp_export
        .get_or_insert_with(BtcppExportWindow::default)
        .done = None;
}

/// The import report window and the BehaviorTree.CPP export window.
pub(crate) fn windows_ui(app: &mut EditorApp, ctx: &egui::Context) {
    let mut actions = Vec::new();
    if let Some(shown) = &mut app.views.import
        && shown.window
    {
        let mut open = true;
        // Centred: at its default place (top left) it would cover the menu bar.
        egui::Window::new("Import report")
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .open(&mut open)
            .resizable(true)
            .default_width(620.0)
            .default_height(420.0)
            .show(ctx, |ui| {
                report_ui(ui, shown, app.doc.pack(), &mut actions);
            });
        shown.window = open;
    }
    btcpp_export_ui(app, ctx);
    for a in actions {
        app.perform(ctx, a);
    }
}

/// The import report at the top of the problems tab, with a button to dismiss it.
pub(crate) fn problems_section_ui(
    ui: &mut egui::Ui,
    shown: &mut Option<ImportShown>,
    pack: &townsfolk_runtime::pack::Pack,
    actions: &mut Vec<Action>,
) {
    let Some(s) = shown else {
        return;
    };
    let mut dismiss = false;
    let title = format!(
        "Import of {}: {}, {} to map",
        s.file,
        count(s.report.warnings.len(), "warning"),
        count(s.report.placeholders.len(), "placeholder"),
    );
    ui.horizontal(|ui| {
        egui::CollapsingHeader::new(RichText::new(title).color(WARNING_COLOR))
            .id_salt("import_report_section")
            .default_open(false)
            .show(ui, |ui| {
                ScrollArea::vertical()
                    .id_salt("import_report_problems")
                    .max_height(220.0)
                    .show(ui, |ui| rows_ui(ui, s, pack, "problems", actions));
            });
        if ui.small_button("Dismiss").clicked() {
            dismiss = true;
        }
    });
    ui.separator();
    if dismiss {
        *shown = None;
    }
}

/// The whole report: what was added, renames, placeholders, warnings.
fn report_ui(
    ui: &mut egui::Ui,
    s: &ImportShown,
    pack: &townsfolk_runtime::pack::Pack,
    actions: &mut Vec<Action>,
) {
    ui.label(RichText::new(s.summary()).strong());
    ui.horizontal_wrapped(|ui| {
        ui.label("Trees added:");
        for t in &s.trees {
            let exists = pack.tree(t).is_some();
            if ui
                .add_enabled(exists, egui::Link::new(t))
                .on_hover_text(format!("Open tree `{t}`"))
                .clicked()
            {
                actions.push(Action::Open(AssetRef::tree(t)));
            }
        }
    });
    for (old, new) in &s.renamed {
        ui.label(format!(
            "Tree `{old}` was imported as `{new}`: the pack already had a tree `{old}`."
        ));
    }
    let undo = crate::shortcuts::text(ui.ctx(), crate::shortcuts::Command::Undo);
    ui.label(
        RichText::new(format!(
            "One undo step ({undo}) removes the imported trees. A placeholder is a condition over a blackboard bool standing for a node Townsfolk does not know: replace it with a real node."
        ))
        .weak(),
    );
    ui.separator();
    ScrollArea::vertical()
        .id_salt("import_report_window")
        .auto_shrink([false, false])
        .show(ui, |ui| rows_ui(ui, s, pack, "window", actions));
}

/// Placeholders (click: open the tree at the node), then warnings with file and line.
fn rows_ui(
    ui: &mut egui::Ui,
    s: &ImportShown,
    pack: &townsfolk_runtime::pack::Pack,
    salt: &str,
    actions: &mut Vec<Action>,
) {
    if s.report.placeholders.is_empty() && s.report.warnings.is_empty() {
        ui.label("Nothing to map and no warnings: every node has a Townsfolk equivalent.");
        return;
    }
    egui::Grid::new(("import_rows", salt))
        .striped(true)
        .num_columns(3)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            for p in &s.report.placeholders {
                ui.label(RichText::new("placeholder").color(WARNING_COLOR));
                ui.label(RichText::new(format!("{}:{}", p.file, p.line)).monospace());
                let text = format!(
                    "{} `{}` is tree `{}` node `{}` (blackboard bool `{}`)",
                    p.category, p.source_type, p.tree, p.node, p.var
                );
                let there = pack
                    .tree(&p.tree)
                    .is_some_and(|t| crate::document::tree::find(&t.root, &p.node).is_some());
                if there {
                    let r = ui
                        .link(text)
                        .on_hover_text(format!("Open tree `{}` at node `{}`", p.tree, p.node));
                    if r.clicked() {
                        actions.push(Action::Reveal(Located {
                            asset: AssetRef::tree(&p.tree),
                            item: Some(p.node.clone()),
                        }));
                    }
                } else {
                    ui.label(text);
                }
                ui.end_row();
            }
            for w in &s.report.warnings {
                ui.label(RichText::new("warning").color(WARNING_COLOR));
                ui.label(RichText::new(format!("{}:{}", w.file, w.line)).monospace());
                ui.label(format!("{}: {}", w.construct, w.message));
                ui.end_row();
            }
        });
}

fn btcpp_export_ui(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(mut win) = app.files.btcpp_export.take() else {
        return;
    };
    let mut open = true;
    let mut run = false;
    egui::Window::new("Export BehaviorTree.CPP XML")
        .open(&mut open)
        .resizable(true)
        .default_width(480.0)
        .show(ctx, |ui| {
            ui.label("Writes the pack's trees as one BehaviorTree.CPP v4 XML file (what `townsfolk export btcpp` writes): nodes with a BT.CPP equivalent as it, the others as `tf_*` custom nodes declared in TreeNodesModel. It is refused while the pack has errors.");
            if ui.button("Export XML…").clicked() {
                run = true;
            }
            if let Some(done) = &win.done {
                ui.label(RichText::new(done).strong());
            }
            crate::shell::files::export_refused_ui(ui, &win.problems);
        });
    if run {
        run_btcpp_export(app, &mut win);
    }
    if open {
        app.files.btcpp_export = Some(win);
    }
}

fn run_btcpp_export(app: &mut EditorApp, win: &mut BtcppExportWindow) {
    win.done = None;
    win.problems.clear();
    // Validation first: nothing is asked or written while errors remain.
    let problems = crate::shell::files::export_problems(app.doc.pack());
    if !problems.is_empty() {
        win.problems = problems;
        return;
    }
    let dir = app.doc.path().and_then(Path::parent).map(Path::to_path_buf);
    let name = format!(
        "{}.xml",
        crate::shell::files::file_stem(&app.doc.pack().name)
    );
    let Some(dest) = app
        .files
        .dialogs
        .pick(Purpose::ExportBtcpp, dir.as_deref(), &name)
    else {
        return;
    };
    match io::export_btcpp(app.doc.pack(), &dest) {
        Ok(n) => {
            win.done = Some(format!(
                "Exported {} to {}",
                count(n, "tree"),
                dest.display()
            ))
        }
        Err(io::BtcppExportError::Invalid { problems }) => {
            win.problems = problems
                .iter()
                .map(|d| format!("{}: {}", d.display_path(), d.message))
                .collect();
        }
        Err(e) => win.problems = vec![e.to_string()],
    }
}
