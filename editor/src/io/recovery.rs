//! Autosave and crash recovery.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use townsfolk_runtime::pack::{self, Pack};

use super::files::{IoError, write_atomic};
use crate::document::Document;

/// How often a dirty document is autosaved.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(30);

/// The user's data folder for Townsfolk (untitled recovery files).
fn data_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        env("APPDATA")
    } else if cfg!(target_os = "macos") {
        env("HOME").map(|h| h.join("Library/Application Support"))
    } else {
        env("XDG_DATA_HOME").or_else(|| env("HOME").map(|h| h.join(".local/share")))
    };
    base.unwrap_or_else(std::env::temp_dir).join("townsfolk")
}

/// Where the recovery file of a pack lives: `.NAME.recovery` beside it, or
/// `untitled.recovery` in the user's data folder for an untitled pack.
pub fn recovery_path(pack_path: Option<&Path>) -> PathBuf {
    match pack_path {
        Some(p) => {
            let name = p
                .file_name()
                .map_or_else(|| "pack".into(), |n| n.to_string_lossy().into_owned());
            p.with_file_name(format!(".{name}.recovery"))
        }
        None => data_dir().join("untitled.recovery"),
    }
}

/// Writes the recovery file of a pack (atomically, canonical text). Returns its path.
pub fn write_recovery(pack_path: Option<&Path>, pack: &Pack) -> Result<PathBuf, IoError> {
    let path = recovery_path(pack_path);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| IoError::at(dir, e))?;
    }
    write_atomic(&path, &pack::to_canonical_string(pack))?;
    Ok(path)
}

/// A recovery file newer than its pack (or whose pack is gone).
#[derive(Clone, Debug, PartialEq)]
pub struct Recovery {
    /// The recovery file.
    pub path: PathBuf,
    /// The pack it recovers (None: an untitled pack).
    pub pack_path: Option<PathBuf>,
    /// When the recovery file was written.
    pub modified: SystemTime,
}

impl Recovery {
    /// The recovered document: the recovery file's contents, to be saved to `pack_path`;
    /// dirty (it is not on disk as the pack yet).
    pub fn load(&self) -> Document {
        let loaded = townsfolk_runtime::program::load_file(&self.path);
        let mut doc = Document::from_loaded(loaded, self.pack_path.clone());
        doc.mark_unsaved();
        doc
    }
}

fn modified(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// The recovery to offer at start: a recovery file that is newer than the pack.
pub fn find_recovery(pack_path: Option<&Path>) -> Option<Recovery> {
    let path = recovery_path(pack_path);
    let rec_time = modified(&path)?;
    if let Some(p) = pack_path
        && let Some(pack_time) = modified(p)
        && rec_time <= pack_time
    {
        return None;
    }
    Some(Recovery {
        path,
        pack_path: pack_path.map(Path::to_path_buf),
        modified: rec_time,
    })
}

/// Removes the recovery file of a pack (after a save, or when the user discards it).
pub fn discard_recovery(pack_path: Option<&Path>) -> Result<(), IoError> {
    let path = recovery_path(pack_path);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(IoError::at(&path, e)),
    }
}

/// Decides when to autosave: a dirty document whose revision changed since the last
/// autosave, at most once per interval.
#[derive(Debug)]
pub struct Autosave {
    interval: Duration,
    last: Instant,
    saved_revision: Option<u64>,
}

impl Autosave {
    /// Counts the first interval from now.
    pub fn new(interval: Duration) -> Autosave {
        Autosave::starting_at(interval, Instant::now())
    }

    /// Counts the first interval from `start` (a clock of the caller's: tests move it).
    pub fn starting_at(interval: Duration, start: Instant) -> Autosave {
        Autosave {
            interval,
            last: start,
            saved_revision: None,
        }
    }

    /// Call every frame: writes the recovery file when due. None when nothing was due.
    pub fn tick(&mut self, doc: &Document, now: Instant) -> Option<Result<PathBuf, IoError>> {
        if !doc.is_dirty()
            || doc.is_read_only()
            || self.saved_revision == Some(doc.revision())
            || now.duration_since(self.last) < self.interval
        {
            return None;
        }
        self.last = now;
        self.saved_revision = Some(doc.revision());
        Some(write_recovery(doc.path(), doc.pack()))
    }
}
