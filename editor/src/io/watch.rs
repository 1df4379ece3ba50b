//! Noticing that the open pack changed on disk (another program saved it, or removed it).
//! The pack's folder is watched (editors often save by renaming a temporary file over the
//! pack, which a watch on the file itself would lose). A change whose contents are what we
//! last wrote or read at that path is ours and is not reported.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use super::files::IoError;

/// What happened to the watched pack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangedOnDisk {
    /// Its contents changed (offer to reload).
    Modified(PathBuf),
    /// It is gone (offer to save it again).
    Removed(PathBuf),
}

fn digest(text: &[u8]) -> u64 {
    // A fixed-key hash: same bytes, same digest, in every run.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

fn own_writes() -> &'static Mutex<BTreeMap<PathBuf, u64>> {
    static OWN: OnceLock<Mutex<BTreeMap<PathBuf, u64>>> = OnceLock::new();
    OWN.get_or_init(|| Mutex::new(BTreeMap::new()))
}

fn key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Remembers the contents we wrote to (or read from) a path.
pub(crate) fn note_own_write(path: &Path, text: &str) {
    if let Ok(mut m) = own_writes().lock() {
        m.insert(key(path), digest(text.as_bytes()));
    }
}

fn is_own(path: &Path, bytes: &[u8]) -> bool {
    own_writes()
        .lock()
        .ok()
        .and_then(|m| m.get(&key(path)).copied())
        == Some(digest(bytes))
}

/// Watches one pack file through its folder.
pub struct Watcher {
    path: PathBuf,
    rx: Receiver<DebounceEventResult>,
    _debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    /// What was last reported, so a burst of events gives one report.
    last: Option<ChangedOnDisk>,
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Debounce time of file events.
const DEBOUNCE: Duration = Duration::from_millis(300);

impl Watcher {
    /// Starts watching the pack at `path` (its folder must exist).
    pub fn new(path: &Path) -> Result<Watcher, IoError> {
        let path = key(path);
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let (tx, rx) = mpsc::channel();
        let notify_err = |e: notify::Error| IoError::at(&dir, std::io::Error::other(e.to_string()));
        let mut debouncer = new_debouncer(DEBOUNCE, None, tx).map_err(notify_err)?;
        debouncer
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(notify_err)?;
        if let Ok(bytes) = std::fs::read(&path)
            && let Ok(mut m) = own_writes().lock()
        {
            m.entry(path.clone()).or_insert_with(|| digest(&bytes));
        }
        Ok(Watcher {
            path,
            rx,
            _debouncer: debouncer,
            last: None,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A change made by another program since the last call, if any; call once per frame.
    pub fn poll(&mut self) -> Option<ChangedOnDisk> {
        let mut touched = false;
        while let Ok(res) = self.rx.try_recv() {
            if let Ok(events) = res {
                touched |= events.iter().any(|e| {
                    e.paths
                        .iter()
                        .any(|p| key(p) == self.path || p == &self.path)
                });
            }
        }
        if !touched {
            return None;
        }
        let change = match std::fs::read(&self.path) {
            Ok(bytes) if is_own(&self.path, &bytes) => None,
            Ok(bytes) => {
                // Report once per new contents.
                note_seen(&self.path, &bytes);
                Some(ChangedOnDisk::Modified(self.path.clone()))
            }
            Err(_) if self.path.exists() => None,
            Err(_) => Some(ChangedOnDisk::Removed(self.path.clone())),
        };
        if change.is_some()
            && change == self.last
            && matches!(change, Some(ChangedOnDisk::Removed(_)))
        {
            return None;
        }
        self.last = change.clone();
        change
    }
}

/// Contents reported once are not reported again until they change.
fn note_seen(path: &Path, bytes: &[u8]) {
    if let Ok(mut m) = own_writes().lock() {
        m.insert(key(path), digest(bytes));
    }
}
