//! The behavior-tree editor: a tree drawn top-down on the canvas (children in order, the order
//! numbered on the edges), the palette, type-to-insert, the inspector, and the commands that
//! turn what the user does into document edits. It never mutates the pack itself.

pub mod catalogue;
mod commands;
mod inspector;
pub mod layout;
mod palette;
pub mod params;
mod popups;
mod scene;
mod tab;
mod view;

pub use inspector::tree_inspector_ui;
pub use palette::PaletteItem;
pub use params::local_problems;
pub use tab::{TREE_ICON, TreeTab};
pub use view::tree_tab_ui;
