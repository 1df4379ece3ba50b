//! Export for modders and games: full validation first, then the pack without the
//! editor-only section (unless asked to keep it), as one file or as a folder pack.

use std::path::Path;

use thiserror::Error;
use townsfolk_runtime::pack::{self, Diagnostic, EditorDef, Pack};

use super::files::{IoError, write_atomic};

/// The shape of an exported pack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExportForm {
    /// One JSON file, as `townsfolk fmt` writes it.
    #[default]
    SingleFile,
    /// A folder pack: `pack.json` and one file per asset (`trees/ID.json`, …), each in
    /// canonical bytes and written atomically (`townsfolk unpack` writes the same).
    Folder,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// Keep the `editor` section (layouts, breakpoints).
    pub keep_editor: bool,
    pub form: ExportForm,
}

#[derive(Debug, Error)]
pub enum ExportError {
    /// The pack has errors; nothing was written.
    #[error("the pack has {} error(s); fix them before exporting:\n{}", problems.len(), list(problems))]
    Invalid { problems: Vec<Diagnostic> },
    #[error(transparent)]
    Io(#[from] IoError),
}

fn list(problems: &[Diagnostic]) -> String {
    problems
        .iter()
        .map(|d| format!("  {}: {}", d.display_path(), d.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Validates the pack as it would be written (the loader's full pass over the exported
/// text: structure and semantics), and writes it only when no errors remain.
pub fn export(pack: &Pack, dest: &Path, options: ExportOptions) -> Result<(), ExportError> {
    let stripped;
    let pack = if options.keep_editor {
        pack
    } else {
        let mut p = pack.clone();
        p.editor = EditorDef::default();
        stripped = p;
        &stripped
    };
    let text = pack::to_canonical_string(pack);
    let problems: Vec<Diagnostic> = townsfolk_runtime::program::load_str(&text)
        .diagnostics
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    if !problems.is_empty() {
        return Err(ExportError::Invalid { problems });
    }
    match options.form {
        ExportForm::SingleFile => write_atomic(dest, &text)?,
        ExportForm::Folder => {
            townsfolk_runtime::mods::folder::write_pack(pack, dest).map_err(|message| {
                IoError::Folder {
                    path: dest.to_path_buf(),
                    message,
                }
            })?
        }
    }
    Ok(())
}
