//! The behavior-tree editor: a tree drawn top-down on the canvas (children in order, the order
//! numbered on the edges), the palette, type-to-insert, the inspector, and the commands that
//! turn what the user does into document edits. It never mutates the pack itself.

pub mod catalogue;
pub mod layout;
pub mod params;

pub use params::local_problems;
