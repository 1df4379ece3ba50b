//! Reading source files inside one folder tree: size-capped, and every referenced path
//! resolved (symlinks included) and refused when it points outside the allowed root.

use std::path::{Component, Path, PathBuf};

use super::limits::MAX_FILE_BYTES;
use super::report::ImportError;

/// The folder tree an import may read: the main file's folder.
#[derive(Clone, Debug)]
pub struct Root {
    dir: PathBuf,
}

impl Root {
    /// The root for a main file, and the file's canonical path.
    pub fn for_main(path: &Path) -> Result<(Root, PathBuf), ImportError> {
        let canon = std::fs::canonicalize(path).map_err(|e| ImportError::Io {
            file: path.display().to_string(),
            message: e.to_string(),
        })?;
        let dir = canon
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| canon.clone());
        Ok((Root { dir }, canon))
    }

    /// The root folder itself.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Resolves `reference` relative to the root folder itself.
    pub fn resolve_from_root(&self, reference: &str) -> Result<PathBuf, String> {
        self.resolve(&self.dir.join("-"), reference)
    }

    /// The path of `file` relative to the root, for messages.
    pub fn shown(&self, file: &Path) -> String {
        file.strip_prefix(&self.dir)
            .unwrap_or(file)
            .display()
            .to_string()
    }

    /// Resolves `reference` (as written in `from`, a canonical file inside the root) to a
    /// canonical path inside the root, or says why not.
    pub fn resolve(&self, from: &Path, reference: &str) -> Result<PathBuf, String> {
        if reference.is_empty() {
            return Err("the path is empty".into());
        }
        let rel = Path::new(reference);
        if rel.is_absolute() || rel.components().any(|c| matches!(c, Component::Prefix(_))) {
            return Err(
                "absolute paths are not allowed; give a path relative to the including file".into(),
            );
        }
        let base = from.parent().unwrap_or(&self.dir);
        let joined = base.join(rel);
        let canon =
            std::fs::canonicalize(&joined).map_err(|e| format!("{}: {e}", joined.display()))?;
        if !canon.starts_with(&self.dir) {
            return Err(format!(
                "it resolves to {}, outside the folder {} of the imported file",
                canon.display(),
                self.dir.display()
            ));
        }
        Ok(canon)
    }
}

/// Reads a file as UTF-8 text, refusing files over [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path, shown: &str) -> Result<String, ImportError> {
    let io = |e: std::io::Error| ImportError::Io {
        file: shown.to_string(),
        message: e.to_string(),
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(ImportError::Io {
            file: shown.to_string(),
            message: "not a regular file".into(),
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ImportError::TooLarge {
            file: shown.to_string(),
            bytes: meta.len(),
            limit: MAX_FILE_BYTES,
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ImportError::TooLarge {
            file: shown.to_string(),
            bytes: bytes.len() as u64,
            limit: MAX_FILE_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|e| ImportError::Io {
        file: shown.to_string(),
        message: format!("not UTF-8: {e}"),
    })
}
