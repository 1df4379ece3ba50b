//! Files (no egui here; the dialogs are the shell's): open, save (atomic, canonical bytes),
//! recent files, autosave and crash recovery, export, and noticing changes on disk.
//!
//! - [`save`](save()) writes exactly the bytes of `townsfolk fmt` through `atomic-write-file`
//!   (temp file in the same folder, fsync, rename, fsync of the folder): a crash mid-save
//!   leaves the old file whole. Read-only (lossy) documents are never saved.
//! - Recovery files: a dirty document is autosaved to `.NAME.recovery` beside its pack
//!   (`.guards.json.recovery`), or, for an untitled pack, to `untitled.recovery` in the user's
//!   data folder (`$XDG_DATA_HOME/townsfolk`, `~/.local/share/townsfolk`, `%APPDATA%\townsfolk`,
//!   `~/Library/Application Support/townsfolk`). At start the shell asks
//!   [`find_recovery`] and offers the recovery when it is newer than the pack.
//! - [`import_trees`] reads a BehaviorTree.CPP or behavior3 file into the edit adding its
//!   trees to the open pack; [`export_btcpp`] writes the trees as BT.CPP XML once the pack
//!   validates.
//! - Mods and folder packs: [`is_layered`] / [`open_layered`] open a pack with `extends`
//!   over its bases (or a folder pack); [`save_layered`] writes only the mod's delta (or the
//!   folder); [`asset_marks`] says which assets the mod adds or changes.
//! - [`Watcher`] watches the pack's folder and reports changes made by other programs; our
//!   own saves are recognised by their contents and not reported.

mod export;
mod files;
mod interop;
mod layers;
mod recent;
mod recovery;
mod watch;

pub use export::{ExportError, ExportForm, ExportOptions, export};
pub use files::{
    IoError, open, open_built, open_built_bytes, save, save_document, save_document_as, test_hooks,
};
pub use interop::{
    BtcppExportError, ImportFormat, TreeImport, TreeImportError, export_btcpp, import_trees,
};
pub use layers::{
    Layered, Mark, asset_marks, is_layered, is_layered_text, open_layered, save_layered, watch_pack,
};
pub use recent::Recent;
pub use recovery::{
    AUTOSAVE_INTERVAL, Autosave, Recovery, discard_recovery, find_recovery, recovery_path,
    write_recovery,
};
pub use watch::{ChangedOnDisk, Watcher};

#[cfg(test)]
mod tests;
