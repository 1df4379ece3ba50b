//! [`Document`]: the open pack (the single source of truth), its undo history, dirty flag,
//! the diagnostics of the last check, read-only state and file path.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use townsfolk_runtime::pack::{Diagnostic, Loaded, Pack};

use super::asset::{AssetKind, Selection};
use super::checker::{Checker, FromWorker, run_checks};
use super::edit::{self, Edit, EditError};
use super::history::History;
use super::tree;

/// The open pack and everything that changes with it. Only [`Document::apply`], `undo` and
/// `redo` change the pack.
pub struct Document {
    pack: Pack,
    history: History,
    path: Option<PathBuf>,
    read_only: bool,
    unknown_fields: Vec<String>,
    diagnostics: Vec<Diagnostic>,
    /// The revision `diagnostics` describe.
    checked: u64,
    revision: u64,
    checker: Checker,
    /// Every asset id change since the document opened (kind, old, new), in order: renames,
    /// and their undos and redos. Views read it from their own cursor.
    renames: Vec<(AssetKind, String, String)>,
    /// What is selected (view state: not an undo step, never makes the document dirty).
    pub selection: Selection,
}

impl std::fmt::Debug for Document {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Document")
            .field("name", &self.pack.name)
            .field("path", &self.path)
            .field("revision", &self.revision)
            .field("dirty", &self.is_dirty())
            .field("read_only", &self.read_only)
            .finish_non_exhaustive()
    }
}

impl Document {
    /// A new, untitled document on `pack` (clean; its checks run in the background).
    pub fn new(pack: Pack) -> Document {
        let doc = Document::build(pack, None, false, Vec::new(), Vec::new(), u64::MAX);
        doc.checker.send_edits(Vec::new(), doc.revision);
        doc
    }

    /// A document on a loaded pack. A pack with errors still opens; a lossy load (some item
    /// could not be read) opens read-only, so that saving can never drop the lost items. When
    /// nothing could be read the document holds an empty pack, read-only, with the load's
    /// diagnostics.
    pub fn from_loaded(loaded: Loaded, path: Option<PathBuf>) -> Document {
        let Loaded {
            pack,
            diagnostics,
            lossy,
            unknown_fields,
        } = loaded;
        let (pack, read_only) = match pack {
            Some(p) => (p, lossy),
            None => (Pack::new("unreadable pack"), true),
        };
        // The loader already ran the checks: the diagnostics describe revision 0.
        Document::build(pack, path, read_only, unknown_fields, diagnostics, 0)
    }

    fn build(
        pack: Pack,
        path: Option<PathBuf>,
        read_only: bool,
        unknown_fields: Vec<String>,
        diagnostics: Vec<Diagnostic>,
        checked: u64,
    ) -> Document {
        let checker = Checker::start(pack.clone(), 0);
        Document {
            pack,
            history: History::default(),
            path,
            read_only,
            unknown_fields,
            diagnostics,
            checked,
            revision: 0,
            checker,
            renames: Vec::new(),
            selection: Selection::default(),
        }
    }

    /// The pack (read only: change it with [`Document::apply`]).
    pub fn pack(&self) -> &Pack {
        &self.pack
    }

    /// Applies an edit as one undo step, or as part of the open gesture. Refused when the
    /// document is read-only; the pack is unchanged when refused.
    pub fn apply(&mut self, edit: Edit) -> Result<(), EditError> {
        if self.read_only {
            return Err(EditError::ReadOnly);
        }
        let label = edit.label();
        let forward = edit.clone();
        let inverse = edit::apply(&mut self.pack, edit)?;
        self.history.record(label, inverse);
        self.changed(vec![forward]);
        Ok(())
    }

    fn changed(&mut self, applied: Vec<Edit>) {
        let before = self.renames.len();
        for e in &applied {
            collect_renames(e, &mut self.renames);
        }
        // The selection follows its asset to its new id.
        for (kind, old, new) in &self.renames[before..] {
            if let Some(a) = &mut self.selection.asset
                && a.kind == *kind
                && a.id == *old
            {
                a.id = new.clone();
            }
        }
        self.revision += 1;
        if !self.checker.send_edits(applied, self.revision) {
            // No worker (it could not start or it ended): check inline.
            self.diagnostics = run_checks(&self.pack);
            self.checked = self.revision;
        }
        self.prune_selection();
    }

    /// Every asset id change since the document opened, oldest first: (kind, old id, new id)
    /// for a rename, or the undo or redo of one. A view keeps how many it has seen and
    /// follows the rest (`&log[seen..]`) to keep showing its asset. It only grows (by one
    /// entry per renamed asset per step).
    pub fn rename_log(&self) -> &[(AssetKind, String, String)] {
        &self.renames
    }

    /// Drops selected items that no longer exist (after an undo, a delete, …).
    fn prune_selection(&mut self) {
        let Some(asset) = &self.selection.asset else {
            return;
        };
        if asset.kind.position(&self.pack, &asset.id).is_none() {
            self.selection.clear();
            return;
        }
        if asset.kind == AssetKind::Tree
            && !self.selection.items.is_empty()
            && let Some(t) = self.pack.tree(&asset.id)
        {
            let root = &t.root;
            self.selection
                .items
                .retain(|id| tree::find(root, id).is_some());
        }
    }

    /// Starts a gesture: every edit until [`Document::end_gesture`] is one undo step. Nested
    /// or repeated begins are harmless (the outermost label is kept).
    pub fn begin_gesture(&mut self, label: &str) {
        self.history.begin_gesture(label);
    }

    /// Ends the gesture (an empty gesture records no step).
    pub fn end_gesture(&mut self) {
        self.history.end_gesture();
    }

    pub fn in_gesture(&self) -> bool {
        self.history.in_gesture()
    }

    /// Undoes one step. False when there is nothing to undo (or the step no longer applies,
    /// which the history's invariants rule out; the pack is then unchanged).
    pub fn undo(&mut self) -> bool {
        match self.history.undo(&mut self.pack) {
            Ok(Some(applied)) => {
                self.changed(applied);
                true
            }
            _ => false,
        }
    }

    /// Redoes one step; false when there is nothing to redo.
    pub fn redo(&mut self) -> bool {
        match self.history.redo(&mut self.pack) {
            Ok(Some(applied)) => {
                self.changed(applied);
                true
            }
            _ => false,
        }
    }

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }
    pub fn undo_label(&self) -> Option<&str> {
        self.history.undo_label()
    }
    pub fn redo_label(&self) -> Option<&str> {
        self.history.redo_label()
    }

    /// Unsaved changes exist. Clean again when undo/redo return to the saved state.
    pub fn is_dirty(&self) -> bool {
        self.history.is_dirty()
    }

    /// The current state is what is on disk (after a save).
    pub fn mark_saved(&mut self) {
        self.history.mark_saved();
    }

    /// The current state is not saved anywhere (a recovered document).
    pub fn mark_unsaved(&mut self) {
        self.history.mark_unsaved();
    }

    /// Changes on every apply, undo and redo.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Picks up the results of background checks; call once per frame.
    pub fn poll(&mut self) {
        while let Some(msg) = self.checker.try_recv() {
            self.receive(msg);
        }
    }

    fn receive(&mut self, msg: FromWorker) {
        match msg {
            FromWorker::Checked {
                revision,
                diagnostics,
            } => {
                // Results for an older revision are stale: newer ones are on their way.
                if revision == self.revision {
                    self.diagnostics = diagnostics;
                    self.checked = revision;
                }
            }
            FromWorker::Diverged => {
                self.checker.reset(self.pack.clone(), self.revision);
            }
        }
    }

    /// Waits (up to `timeout`) until the diagnostics describe the current revision. For
    /// tests, benchmarks and the command line; the UI calls [`Document::poll`].
    pub fn wait_for_checks(&mut self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        while self.checking() {
            let now = Instant::now();
            if now >= end {
                return false;
            }
            match self.checker.recv_timeout(end - now) {
                Some(msg) => self.receive(msg),
                None => return !self.checking(),
            }
        }
        true
    }

    /// The diagnostics of the last finished check.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Checks are running for the current revision (the diagnostics are older).
    pub fn checking(&self) -> bool {
        self.checked != self.revision
    }

    /// The revision the diagnostics describe.
    pub fn checked_revision(&self) -> u64 {
        self.checked
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// A lossy load: edits and saves are refused.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// JSON paths of unknown fields the loader read past (they are not kept in the pack).
    pub fn unknown_fields(&self) -> &[String] {
        &self.unknown_fields
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Sets the file the document saves to (Save As).
    pub fn set_path(&mut self, path: Option<PathBuf>) {
        self.path = path;
    }

    /// Number of undo and redo steps.
    pub fn history_len(&self) -> (usize, usize) {
        self.history.len()
    }

    /// Forgets the undo history (dirty stays as it was).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Approximate bytes the undo history holds (its edits' data).
    pub fn history_bytes(&self) -> usize {
        self.history.approx_bytes()
    }
}

/// The asset id changes an applied edit made: an `Edit::Asset` whose value carries another
/// id than the one it replaced.
fn collect_renames(edit: &Edit, out: &mut Vec<(AssetKind, String, String)>) {
    match edit {
        Edit::Asset {
            kind,
            id,
            value: Some(v),
        } if v.id() != id => out.push((*kind, id.clone(), v.id().to_string())),
        Edit::Batch(list) => {
            for e in list {
                collect_renames(e, out);
            }
        }
        _ => {}
    }
}
