//! `townsfolk-editor [PACK.json]`: opens the given pack, or the bundled sample.

use std::path::PathBuf;

use townsfolk_editor::EditorApp;

fn main() -> eframe::Result {
    let app = match std::env::args_os().nth(1).map(PathBuf::from) {
        Some(path) => EditorApp::from_file(&path),
        None => EditorApp::with_default_pack(),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(app.window_title())
            .with_inner_size([1400.0, 900.0])
            .with_min_inner_size([800.0, 500.0]),
        ..Default::default()
    };
    eframe::run_native("Townsfolk", options, Box::new(move |_cc| Ok(Box::new(app))))
}
