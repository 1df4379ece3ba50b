//! Every documented cap on what Townsfolk reads (issue 13 item 6), in one place: the ones
//! of the pack reader, the compiler and the importers, re-exported from where they are
//! enforced, and the ones of mod layers and folder packs, enforced here. README "Limits"
//! lists them with the error each gives.

pub use crate::interop::limits::{
    MAX_FILE_BYTES as MAX_IMPORT_FILE_BYTES, MAX_FILES as MAX_IMPORT_FILES, MAX_INCLUDE_DEPTH,
    MAX_STRING_CHARS as MAX_IMPORT_STRING_CHARS, MAX_TREE_NODES as MAX_IMPORT_TREE_NODES,
    MAX_XML_NODES,
};
pub use crate::pack::{MAX_PACK_BYTES, MAX_PACK_STRING_CHARS, MAX_TREE_DEPTH};
pub use crate::program::{MAX_COMPILED_NODES, MAX_COORD};

/// Deepest JSON nesting a pack file may have (serde_json's recursion limit, which the pack
/// reader relies on: "nesting deeper than 128 levels is refused").
pub const MAX_JSON_NESTING: usize = 128;
/// Most layers one resolved pack may have (the pack, every pack it extends, directly or
/// not, and the mods given on the command line).
pub const MAX_LAYERS: usize = 16;
/// Most files a folder pack may hold (every asset file, `pack.json` included).
pub const MAX_FOLDER_FILES: usize = 10_000;
/// Longest asset id a folder pack writes as a file name (characters).
pub const MAX_ID_FILE_CHARS: usize = 120;
