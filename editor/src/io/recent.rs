//! The recent files list (kept in eframe storage by the shell).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Most recently opened first, no duplicates, at most [`Recent::MAX`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recent {
    paths: Vec<PathBuf>,
}

impl Recent {
    pub const MAX: usize = 10;

    /// Puts a path first (moving it if already listed).
    pub fn push(&mut self, path: &Path) {
        self.paths.retain(|p| p != path);
        self.paths.insert(0, path.to_path_buf());
        self.paths.truncate(Self::MAX);
    }

    pub fn remove(&mut self, path: &Path) {
        self.paths.retain(|p| p != path);
    }

    /// Drops files (and folder packs) that no longer exist.
    pub fn retain_existing(&mut self) {
        self.paths.retain(|p| p.exists());
    }

    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    pub fn clear(&mut self) {
        self.paths.clear();
    }
}
