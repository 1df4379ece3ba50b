//! Packs (SPEC §7): the JSON document only — the model (one file per asset kind), reading
//! with diagnostics, the canonical writer, the JSON Schema, and who references an id.
//! Reading never compiles: the semantic checks live with the program.

pub mod diag;
mod fast;
#[cfg(test)]
mod fast_tests;
mod load;
pub mod model;
mod read_skips;
mod read_words;
pub mod refs;
mod save;
mod schema;
mod strings;
#[cfg(test)]
mod tests;

pub use diag::{Diagnostic, Severity};
pub(crate) use load::load_str_skips;
pub use load::{Loaded, MAX_PACK_BYTES, MAX_TREE_DEPTH, load_bytes, load_str, suggest};
pub use model::*;
pub use read_words::user_words;
pub use save::{to_canonical_string, value_to_canonical_string};
pub use schema::schema_string;
pub use strings::MAX_PACK_STRING_CHARS;

/// Reads a pack file's bytes; a file too large or unreadable is a diagnostic at 1:1 (turn
/// it into the [`Loaded`] to return with [`Loaded::refused`]).
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, Diagnostic> {
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_PACK_BYTES as u64 => {
            return Err(Diagnostic::error(
                "",
                format!(
                    "file is {:.1} MiB; packs are limited to {} MiB",
                    m.len() as f64 / (1024.0 * 1024.0),
                    MAX_PACK_BYTES / (1024 * 1024)
                ),
            )
            .at(1, 1));
        }
        _ => {}
    }
    std::fs::read(path)
        .map_err(|e| Diagnostic::error("", format!("cannot read file: {e}")).at(1, 1))
}

/// Reads a pack file from disk (no semantic checks). I/O errors become a diagnostic, like
/// every other problem.
pub fn load_file(path: &std::path::Path) -> Loaded {
    match read_file(path) {
        Ok(bytes) => load_bytes(&bytes),
        Err(d) => Loaded::refused(d),
    }
}
