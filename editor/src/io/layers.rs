//! Mods opened over their bases, and folder packs (no egui). A pack whose file declares
//! `"extends"` (or a mod given with its base) opens as the merged pack of its layers
//! (`townsfolk_runtime::mods`), and saving writes only the mod's own content — its delta
//! from the base, in canonical bytes — to the mod file; the base files are never written. A
//! folder pack (`pack.json` + one file per asset) opens and saves as a folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use townsfolk_runtime::mods::{self, Resolved, folder};
use townsfolk_runtime::pack::{Diagnostic, Loaded, Pack};
use townsfolk_runtime::program::{self, Program};

use super::files::{IoError, write_atomic};
use crate::document::{AssetKind, Document};

/// How a layered document (a mod over its bases, or a folder pack) was read, and so how it
/// is saved.
#[derive(Clone, Debug, PartialEq)]
pub struct Layered {
    /// Every layer but the document's own, merged: what the document is saved as a delta
    /// of. `None`: one layer (a folder pack that extends nothing).
    pub base: Option<Pack>,
    /// The document's own `extends`, as written (saved back unchanged).
    pub extends: Vec<String>,
    /// The layers' names in the order they apply; the last is the document's own file.
    pub layers: Vec<String>,
    /// The document is a folder pack (saved as one file per asset).
    pub folder: bool,
}

/// What the document's own layer does to an asset of the base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The base has no such asset: the mod adds it.
    Added,
    /// The base has another version of it: the mod changes it.
    Changed,
}

/// Whether `path` must be opened through its layers: a folder pack, or a file whose top
/// level declares `extends`. (A plain file is scanned for the word before it is parsed, so
/// opening a large plain pack costs no second parse.)
pub fn is_layered(path: &Path) -> bool {
    if path.is_dir() {
        return folder::is_folder_pack(path);
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    is_layered_text(&text)
}

/// [`is_layered`] of a pack file's text already read: a top-level `extends`.
pub fn is_layered_text(text: &str) -> bool {
    /// Only the top-level key asked about; everything else is skipped, not built.
    #[derive(serde::Deserialize)]
    struct Top {
        extends: Option<serde::de::IgnoredAny>,
    }
    text.contains("\"extends\"")
        && serde_json::from_str::<Top>(text).is_ok_and(|t| t.extends.is_some())
}

/// Opens a mod over its bases (`paths`: the bases first, the mod last; or the mod alone,
/// its `extends` followed) or a folder pack: the merged pack as the document (its file is
/// the last path), how to save it, and the program the checks built when it can run.
/// Always gives a document: problems are its diagnostics; an unreadable or partly merged
/// pack opens read-only.
pub fn open_layered(paths: &[PathBuf]) -> (Document, Layered, Option<Arc<Program>>) {
    let (r, program) = mods::resolve_files_built(paths);
    let own = paths.last().cloned().unwrap_or_default();
    let layered = Layered {
        base: r.base.clone(),
        extends: r.extends.clone(),
        layers: r.layers.iter().map(|l| l.name.clone()).collect(),
        folder: own.is_dir(),
    };
    let diagnostics = document_diagnostics(&r);
    let loaded = Loaded {
        pack: r.pack,
        diagnostics,
        lossy: r.lossy,
        unknown_fields: Vec::new(),
    };
    (
        Document::from_loaded(loaded, Some(own)),
        layered,
        program.map(Arc::new),
    )
}

/// The document's diagnostics: the checks of the merged pack (their paths are the merged
/// pack's, so the problems panel finds their assets), then each problem of the layers the
/// checks do not repeat (reading, merging, conflicts), named by its file: its path is a path
/// in that file.
fn document_diagnostics(r: &Resolved) -> Vec<Diagnostic> {
    let mut out = r.pack.as_ref().map(program::check).unwrap_or_default();
    for fd in &r.diagnostics {
        let d = &fd.diagnostic;
        if out.iter().any(|o| o.message == d.message) {
            continue;
        }
        let mut d = d.clone();
        let at = if d.path.is_empty() {
            fd.file.clone()
        } else {
            format!("{}: {}", fd.file, d.path)
        };
        if r.pack.is_some() {
            d.path = at;
        } else {
            // Nothing could be merged: a problem of the whole document (named in the text).
            d.message = format!("{at}: {}", d.message);
            d.path = String::new();
        }
        out.push(d);
    }
    out
}

/// Saves a layered document to `dest`: a mod writes only its delta from the base (with its
/// `extends`), in canonical bytes; a folder pack writes one file per asset. The base files
/// are never written.
pub fn save_layered(layered: &Layered, pack: &Pack, dest: &Path) -> Result<(), IoError> {
    let folder_error = |message: String| IoError::Folder {
        path: dest.to_path_buf(),
        message,
    };
    match (&layered.base, layered.folder) {
        (Some(base), false) => {
            write_atomic(dest, &mods::mod_document(base, pack, &layered.extends))
        }
        (Some(base), true) => {
            let text = mods::mod_document(base, pack, &layered.extends);
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(doc)) => folder::write_doc(&doc, dest).map_err(folder_error),
                // The canonical writer writes a JSON object.
                _ => Err(folder_error("the mod could not be written as JSON".into())),
            }
        }
        (None, true) => folder::write_pack(pack, dest).map_err(folder_error),
        (None, false) => return super::save(dest, pack),
    }?;
    if layered.folder {
        // Our own write: the watcher of the folder's pack.json must not report it.
        let head = dest.join(folder::PACK_JSON);
        if let Ok(text) = std::fs::read_to_string(&head) {
            super::watch::note_own_write(&head, &text);
        }
    }
    Ok(())
}

/// Watches a pack for changes made by other programs: a file, or a folder pack's
/// `pack.json` (its envelope and world; the asset files are not watched).
pub fn watch_pack(path: &Path) -> Result<super::Watcher, IoError> {
    if path.is_dir() {
        super::Watcher::new(&path.join(folder::PACK_JSON))
    } else {
        super::Watcher::new(path)
    }
}

/// Which assets of `pack` the document's own layer adds or changes, compared with `base`
/// (assets equal to the base's are not listed).
pub fn asset_marks(base: &Pack, pack: &Pack) -> BTreeMap<(AssetKind, String), Mark> {
    let mut out = BTreeMap::new();
    for kind in AssetKind::ALL {
        for id in kind.ids(pack) {
            let mark = match kind.get(base, id) {
                None => Mark::Added,
                Some(b) if Some(&b) != kind.get(pack, id).as_ref() => Mark::Changed,
                Some(_) => continue,
            };
            out.insert((kind, id.to_string()), mark);
        }
    }
    out
}
