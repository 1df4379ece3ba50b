//! `townsfolk-editor [PACK.json]`: opens the given pack, or the bundled sample.

use std::path::PathBuf;

use townsfolk_editor::EditorApp;

fn main() -> eframe::Result {
    let path = std::env::args_os().nth(1).map(PathBuf::from);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Townsfolk")
            // Use the screen: maximized where the window manager allows it; the app also sizes
            // the window to the monitor on its first frame when it was not maximized.
            .with_maximized(true)
            .with_inner_size([1600.0, 1000.0])
            .with_min_inner_size([800.0, 500.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Townsfolk",
        options,
        Box::new(move |cc| {
            let mut app = match &path {
                Some(path) => EditorApp::from_file(path),
                None => EditorApp::with_default_pack(),
            };
            if let Some(storage) = cc.storage {
                app.restore(storage);
            }
            Ok(Box::new(app))
        }),
    )
}
