//! The behavior-tree editor: a tree drawn top-down on the canvas (children in order, the order
//! numbered on the edges), the palette, type-to-insert, the inspector, and the commands that
//! turn what the user does into document edits. It never mutates the pack itself.
//!
//! Pending `git merge ed-doc` (see `views/mod.rs`): the modules under `cfg(any())` need the
//! document API.

pub mod catalogue;
#[cfg(any())]
mod commands;
#[cfg(any())]
mod inspector;
pub mod layout;
#[cfg(any())]
mod palette;
pub mod params;
#[cfg(any())]
mod popups;
#[cfg(any())]
mod scene;
#[cfg(any())]
mod tab;
#[cfg(any())]
mod view;

#[cfg(any())]
pub use inspector::tree_inspector_ui;
#[cfg(any())]
pub use palette::PaletteItem;
pub use params::local_problems;
#[cfg(any())]
pub use tab::TreeTab;
#[cfg(any())]
pub use view::tree_tab_ui;
