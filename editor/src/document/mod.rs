//! The document (no egui here): the open pack, the edits that change it (each applied by one
//! function that returns its inverse), the undo history, the dirty flag and the selection.
