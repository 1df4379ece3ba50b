//! Townsfolk editor: opens a pack, shows its assets and diagnostics, and plays it in a live
//! 2D preview with an inspector for the selected NPC.
//!
//! The binary (`main.rs`) is a thin shell around [`EditorApp`]; tests build the same app in
//! an `egui_kittest` harness.

mod app;
mod panels;
mod preview;

pub use app::{EditorApp, Speed};

/// The bundled default pack, so the editor opens something useful from any folder.
pub const DEFAULT_PACK: &str = include_str!("../../samples/guards.json");

/// The label the default pack is shown with (it has no file on disk).
pub const DEFAULT_PACK_LABEL: &str = "samples/guards.json (built in)";
