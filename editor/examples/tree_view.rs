//! One tree of a pack in a window, with its inspector: a way to look at the tree editor on
//! its own. `cargo run -p townsfolk-editor --example tree_view -- samples/guards.json patrol`
//! (no arguments: the bundled pack's first tree). Ctrl+Z / Ctrl+Shift+Z undo and redo;
//! nothing is saved.

use std::path::PathBuf;

use townsfolk_editor::document::Document;
use townsfolk_editor::shortcuts::{self, Command};
use townsfolk_editor::views::tree::{TreeTab, tree_inspector_ui, tree_tab_ui};
use townsfolk_editor::views::{ViewCtx, ViewRequest};

struct App {
    doc: Document,
    tab: TreeTab,
    status: String,
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.doc.poll();
        let ctx = ui.ctx().clone();
        if shortcuts::consume(&ctx, Command::Redo) || shortcuts::consume(&ctx, Command::RedoAlt) {
            self.doc.redo();
        }
        if shortcuts::consume(&ctx, Command::Undo) {
            self.doc.undo();
        }
        let mut requests = Vec::new();
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.label(&self.status);
        });
        {
            let mut cx = ViewCtx {
                doc: &mut self.doc,
                requests: &mut requests,
            };
            egui::Panel::right("inspector")
                .default_size(380.0)
                .show(ui, |ui| tree_inspector_ui(ui, &mut self.tab, &mut cx));
            egui::CentralPanel::default().show(ui, |ui| tree_tab_ui(ui, &mut self.tab, &mut cx));
        }
        for r in requests {
            match r {
                ViewRequest::Status(s) => self.status = s,
                ViewRequest::OpenTree(t) => self.tab = TreeTab::new(&t),
                other => self.status = format!("{other:?}"),
            }
        }
        if self.doc.checking() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }
}

fn main() -> eframe::Result {
    let mut args = std::env::args_os().skip(1);
    let doc = match args.next().map(PathBuf::from) {
        Some(path) => townsfolk_editor::io::open(&path),
        None => Document::from_loaded(
            townsfolk_runtime::program::load_str(townsfolk_editor::DEFAULT_PACK),
            None,
        ),
    };
    let tree = args
        .next()
        .and_then(|s| s.into_string().ok())
        .or_else(|| doc.pack().trees.first().map(|t| t.id.clone()))
        .unwrap_or_default();
    let app = App {
        tab: TreeTab::new(&tree),
        doc,
        status: String::new(),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(format!("Townsfolk tree view: {tree}"))
            .with_inner_size([1400.0, 900.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Townsfolk tree view",
        options,
        Box::new(move |_cc| Ok(Box::new(app))),
    )
}
