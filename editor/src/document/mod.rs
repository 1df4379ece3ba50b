//! The document (no egui here): the open pack, the edits that change it (each applied by one
//! function that returns its inverse), the undo history, the dirty flag and the selection.
//!
//! - [`asset`]: asset kinds and references, whole asset values, the selection.
//! - [`edit`]: [`Edit`] and [`edit::apply`], which returns the inverse.
//! - [`Document`]: pack + history (with gestures) + dirty flag + background checks.
//! - [`ops`]: node defaults ([`ops::default_kind`]) and operations returning edits (add, delete, move, copy/paste, extract, …).
//! - [`rename`]: rename an id with every reference following.
//! - [`find`]: find and find usages.
//! - [`tree`]: node lookups inside one tree.

pub mod asset;
mod checker;
pub mod clipboard;
mod defaults;
mod doc;
pub mod edit;
pub mod find;
mod history;
pub mod ops;
pub mod rename;
mod retype;
pub mod tree;

pub use asset::{AssetKind, AssetRef, AssetValue, Selection};
pub use checker::{DEBOUNCE, run_checks};
pub use clipboard::ClipboardPayload;
pub use doc::Document;
pub use edit::{Edit, EditError, NodeProps, TreeOp, WorldSettings, apply};
pub use find::{Hit, find, find_usages};
pub use ops::{DeleteMode, unique_node_id};
pub use rename::{asset_target, rename, rename_asset};
pub use townsfolk_runtime::pack::refs::Target;

#[cfg(test)]
mod ops_tests;
#[cfg(test)]
pub(crate) mod tests;
