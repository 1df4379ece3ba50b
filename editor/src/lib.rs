//! Townsfolk editor: author behavior trees (and, next, the other asset kinds) on a graph canvas
//! with undo, safe files and a live 2D preview of the running pack.
//!
//! Layers (see ARCHITECTURE.md): `document` (no egui) ← `io`, `canvas`, `widgets` ← one view
//! folder per asset kind (`views`) ← the shell and `app`. The binary (`main.rs`) is a thin
//! shell around [`EditorApp`]; tests build the same app in an `egui_kittest` harness.

mod app;
pub mod canvas;
pub mod document;
pub mod io;
mod preview;
mod shell;
pub mod shortcuts;
pub mod views;
pub mod widgets;

pub use app::{EditorApp, Speed};

/// The bundled default pack, so the editor opens something useful from any folder.
pub const DEFAULT_PACK: &str = include_str!("../../samples/guards.json");

/// The label the default pack is shown with (it has no file on disk).
pub const DEFAULT_PACK_LABEL: &str = "samples/guards.json (built in)";
