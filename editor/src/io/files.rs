//! Open and save.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;
use townsfolk_runtime::pack::{self, Pack};
use townsfolk_runtime::program::Program;

use crate::document::Document;

/// A file operation that failed. The file on disk is unchanged when a save fails.
#[derive(Debug, Error)]
pub enum IoError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the document is read-only: it could not be read completely, and saving it would lose \
         what could not be read"
    )]
    ReadOnly,
    #[error("the document has no file yet: choose where to save it")]
    NoPath,
    /// Writing a folder pack failed (the message names the file).
    #[error("{}: {message}", path.display())]
    Folder { path: PathBuf, message: String },
}

impl IoError {
    pub(crate) fn at(path: &Path, source: std::io::Error) -> IoError {
        IoError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Failure injection for tests of interrupted saves (also usable from integration tests).
pub mod test_hooks {
    use std::cell::Cell;

    thread_local! {
        static FAIL_BEFORE_RENAME: Cell<bool> = const { Cell::new(false) };
    }

    /// Makes the next saves on this thread fail after the new contents were written to the
    /// temporary file and before it replaces the pack (as a crash at that point would).
    pub fn fail_before_rename(on: bool) {
        FAIL_BEFORE_RENAME.with(|c| c.set(on));
    }

    pub(crate) fn should_fail() -> bool {
        FAIL_BEFORE_RENAME.with(|c| c.get())
    }
}

/// Writes `text` to `path` atomically: a temporary file in the same folder, fsync, rename
/// over the old file, fsync of the folder.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), IoError> {
    let mut f = atomic_write_file::AtomicWriteFile::open(path).map_err(|e| IoError::at(path, e))?;
    f.write_all(text.as_bytes())
        .map_err(|e| IoError::at(path, e))?;
    if test_hooks::should_fail() {
        // Dropping the uncommitted file removes the temporary file; the old file stays.
        let _ = f.discard();
        return Err(IoError::at(
            path,
            std::io::Error::other("simulated failure between write and rename"),
        ));
    }
    f.commit().map_err(|e| IoError::at(path, e))?;
    super::watch::note_own_write(path, text);
    Ok(())
}

/// Saves a pack: exactly the bytes of `townsfolk fmt`, atomically.
pub fn save(path: &Path, pack: &Pack) -> Result<(), IoError> {
    write_atomic(path, &pack::to_canonical_string(pack))
}

/// Saves a document to its file and marks it saved. Refuses a read-only document.
pub fn save_document(doc: &mut Document) -> Result<PathBuf, IoError> {
    let path = doc.path().map(Path::to_path_buf).ok_or(IoError::NoPath)?;
    save_document_as(doc, &path)?;
    Ok(path)
}

/// Saves a document to `path` (Save As): it becomes the document's file.
pub fn save_document_as(doc: &mut Document, path: &Path) -> Result<(), IoError> {
    if doc.is_read_only() {
        return Err(IoError::ReadOnly);
    }
    save(path, doc.pack())?;
    doc.set_path(Some(path.to_path_buf()));
    doc.mark_saved();
    Ok(())
}

/// Opens a pack file. Always gives a document: problems are its diagnostics; an unreadable
/// or partly read file opens read-only.
pub fn open(path: &Path) -> Document {
    open_built(path).0
}

/// [`open`], also giving the program the load's checks compiled, when it can run (no
/// errors): the preview starts on it instead of compiling the pack again.
pub fn open_built(path: &Path) -> (Document, Option<Arc<Program>>) {
    match townsfolk_runtime::pack::read_file(path) {
        Ok(bytes) => open_built_bytes(path, &bytes),
        Err(d) => (
            Document::from_loaded(
                townsfolk_runtime::pack::Loaded::refused(d),
                Some(path.to_path_buf()),
            ),
            None,
        ),
    }
}

/// [`open_built`] of a file already read (`bytes`: all of `path`), so that opening reads a
/// 10 MB pack once, not once per question asked of it.
pub fn open_built_bytes(path: &Path, bytes: &[u8]) -> (Document, Option<Arc<Program>>) {
    let (loaded, program) = townsfolk_runtime::program::load_bytes_built(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        super::watch::note_own_write(path, text);
    }
    (
        Document::from_loaded(loaded, Some(path.to_path_buf())),
        program.map(Arc::new),
    )
}
