//! Trees from and to other behavior-tree tools (no egui): import a BehaviorTree.CPP XML or
//! behavior3 JSON file into the open pack as one edit, and export the pack's trees as
//! BehaviorTree.CPP XML after a full validation. The importers and the exporter are the
//! runtime's (`townsfolk_runtime::interop`, the same as `townsfolk import` / `export`).

use std::collections::BTreeSet;
use std::path::Path;

use thiserror::Error;
use townsfolk_runtime::interop::{self, ImportError, ImportReport};
use townsfolk_runtime::pack::{Diagnostic, Pack};

use super::files::{IoError, write_atomic};
use crate::document::{AssetKind, AssetValue, Edit, EditError};

/// A format trees can be imported from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportFormat {
    /// BehaviorTree.CPP v4 XML (with its includes).
    Btcpp,
    /// behavior3 JSON: a desktop-editor workspace or tree, or an original-editor tree or
    /// project.
    Behavior3,
}

impl ImportFormat {
    /// The format's name for people.
    pub fn label(self) -> &'static str {
        match self {
            ImportFormat::Btcpp => "BehaviorTree.CPP XML",
            ImportFormat::Behavior3 => "behavior3 JSON",
        }
    }
}

/// Trees read from another tool's file, ready to add to a pack.
#[derive(Clone, Debug)]
pub struct TreeImport {
    /// The edit adding every imported tree after the pack's own (one undo step).
    pub edit: Edit,
    /// The ids of the added trees, in order (after renames).
    pub trees: Vec<String>,
    /// Imported trees whose id the pack already had: (id in the file, id given).
    pub renamed: Vec<(String, String)>,
    /// The importer's report; placeholders name the trees by their ids in the pack.
    pub report: ImportReport,
}

/// Why an import added nothing.
#[derive(Debug, Error)]
pub enum TreeImportError {
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error("{file}: no behavior tree in it")]
    Empty { file: String },
    #[error("renaming an imported tree failed: {0}")]
    Rename(EditError),
}

/// Imports `path` in `format` into trees to add to `pack`: ids the pack already uses are
/// given a free `_2`, `_3`, … suffix, and subtree references between the imported trees
/// follow the renames. The pack itself is not changed: apply [`TreeImport::edit`].
pub fn import_trees(
    pack: &Pack,
    path: &Path,
    format: ImportFormat,
) -> Result<TreeImport, TreeImportError> {
    let imported = match format {
        ImportFormat::Btcpp => interop::import_btcpp_file(path)?,
        ImportFormat::Behavior3 => interop::import_behavior3_file(path)?,
    };
    if imported.pack.trees.is_empty() {
        return Err(TreeImportError::Empty {
            file: path.display().to_string(),
        });
    }
    add_trees(pack, imported.pack, imported.report)
}

/// The edit adding the trees of `source` to `pack` (see [`import_trees`]).
fn add_trees(
    pack: &Pack,
    mut source: Pack,
    mut report: ImportReport,
) -> Result<TreeImport, TreeImportError> {
    let mut taken: BTreeSet<String> = pack.trees.iter().map(|t| t.id.clone()).collect();
    taken.extend(source.trees.iter().map(|t| t.id.clone()));
    let clashing: Vec<String> = source
        .trees
        .iter()
        .map(|t| t.id.clone())
        .filter(|id| pack.tree(id).is_some())
        .collect();
    let mut renamed = Vec::new();
    for old in clashing {
        let new = free_id(&old, &taken);
        taken.insert(new.clone());
        // The document's own rename: subtree references in the imported trees follow.
        let edit = crate::document::rename_asset(&source, AssetKind::Tree, &old, &new)
            .map_err(TreeImportError::Rename)?;
        crate::document::apply(&mut source, edit).map_err(TreeImportError::Rename)?;
        for p in &mut report.placeholders {
            if p.tree == old {
                p.tree = new.clone();
            }
        }
        renamed.push((old, new));
    }
    let start = pack.trees.len();
    let trees: Vec<String> = source.trees.iter().map(|t| t.id.clone()).collect();
    let edits = source
        .trees
        .into_iter()
        .enumerate()
        .map(|(i, t)| Edit::InsertAsset {
            index: start + i,
            value: AssetValue::Tree(t),
        })
        .collect();
    Ok(TreeImport {
        edit: Edit::Batch(edits),
        trees,
        renamed,
        report,
    })
}

/// `id_2`, `id_3`, … : the first not in `taken`.
fn free_id(id: &str, taken: &BTreeSet<String>) -> String {
    (2..)
        .map(|k| format!("{id}_{k}"))
        .find(|c| !taken.contains(c))
        .unwrap_or_else(|| format!("{id}_imported"))
}

/// Why the BehaviorTree.CPP export wrote nothing.
#[derive(Debug, Error)]
pub enum BtcppExportError {
    /// The pack has errors.
    #[error("the pack has {} error(s); fix them before exporting", problems.len())]
    Invalid { problems: Vec<Diagnostic> },
    #[error("the pack has no behavior tree to export")]
    NoTrees,
    #[error(transparent)]
    Write(#[from] interop::ExportError),
    #[error(transparent)]
    Io(#[from] IoError),
}

/// Writes the pack's trees to `dest` as BehaviorTree.CPP v4 XML (what `townsfolk export
/// btcpp` writes), atomically; refused, writing nothing, while the pack has errors.
pub fn export_btcpp(pack: &Pack, dest: &Path) -> Result<usize, BtcppExportError> {
    let problems: Vec<Diagnostic> = crate::document::run_checks(pack)
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    if !problems.is_empty() {
        return Err(BtcppExportError::Invalid { problems });
    }
    if pack.trees.is_empty() {
        return Err(BtcppExportError::NoTrees);
    }
    let xml = interop::export_btcpp(pack)?;
    write_atomic(dest, &xml)?;
    Ok(pack.trees.len())
}
