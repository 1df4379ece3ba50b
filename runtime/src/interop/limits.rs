//! Documented caps of the importers (issue 13 item 6). Every one is enforced with an
//! [`ImportError`](super::ImportError) naming the file and the cap.

/// Largest file an importer reads, in bytes.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Most XML nodes roxmltree builds for one document (its `nodes_limit`).
pub const MAX_XML_NODES: u32 = 200_000;
/// Deepest tree nesting accepted: the pack loader's own cap, so an imported pack loads back.
pub const MAX_TREE_DEPTH: usize = crate::pack::MAX_TREE_DEPTH;
/// Most nodes in one imported tree.
pub const MAX_TREE_NODES: usize = 20_000;
/// Most files one import reads (the main file and every include or subtree file).
pub const MAX_FILES: usize = 256;
/// Deepest chain of includes (or behavior3 subtree files).
pub const MAX_INCLUDE_DEPTH: usize = 16;
/// Longest attribute or string value accepted.
pub const MAX_STRING_CHARS: usize = 64 * 1024;
