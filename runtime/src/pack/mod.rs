//! Packs (SPEC §7): the JSON document model, loading with diagnostics, canonical saving and
//! the JSON Schema.

pub mod diag;
mod load;
pub mod model;
pub mod refs;
pub mod response;

pub use diag::{Diagnostic, Severity};
pub use load::{
    Loaded, MAX_PACK_BYTES, MAX_TREE_DEPTH, check, load_bytes, load_str, schema_string, suggest,
    to_canonical_string,
};
pub use model::*;
pub use response::{DoorAction, Response};

/// Loads a pack file from disk. I/O errors become a diagnostic, like every other problem.
pub fn load_file(path: &std::path::Path) -> Loaded {
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_PACK_BYTES as u64 => {
            return Loaded {
                pack: None,
                diagnostics: vec![
                    Diagnostic::error(
                        "",
                        format!(
                            "file is {:.1} MiB; packs are limited to {} MiB",
                            m.len() as f64 / (1024.0 * 1024.0),
                            MAX_PACK_BYTES / (1024 * 1024)
                        ),
                    )
                    .at(1, 1),
                ],
                lossy: true,
                unknown_fields: Vec::new(),
            };
        }
        _ => {}
    }
    match std::fs::read(path) {
        Ok(bytes) => load_bytes(&bytes),
        Err(e) => Loaded {
            pack: None,
            diagnostics: vec![Diagnostic::error("", format!("cannot read file: {e}")).at(1, 1)],
            lossy: true,
            unknown_fields: Vec::new(),
        },
    }
}
