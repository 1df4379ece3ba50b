//! The docked shell: menu bar, asset browser, document tabs, inspector, problems, find
//! results, status bar, and the file commands behind the File menu.

pub(crate) mod assets;
pub(crate) mod dialogs;
pub(crate) mod dock;
pub(crate) mod files;
pub(crate) mod find;
pub(crate) mod interop;
pub(crate) mod json_view;
pub(crate) mod live;
pub(crate) mod menu;
pub(crate) mod prefs;
pub(crate) mod problems;
pub(crate) mod status;
pub(crate) mod style;
pub(crate) mod viewer;

use std::path::PathBuf;

pub(crate) use dock::Tab;
pub(crate) use viewer::Views;

use crate::document::AssetRef;
use problems::Located;

/// What a menu item, a shortcut, a panel or a view asks the app to do (done after the frame's
/// UI, in `EditorApp::perform`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Action {
    New,
    OpenDialog,
    /// File ▸ Open Folder Pack…
    OpenFolderDialog,
    /// File ▸ Open Mod over Base… (the base, then the mod).
    OpenModDialog,
    OpenRecent(PathBuf),
    Save,
    SaveAs,
    Revert,
    Export,
    /// File ▸ Import ▸ …: ask for a file, import its trees into the open pack.
    Import(crate::io::ImportFormat),
    /// File ▸ Export ▸ BehaviorTree.CPP XML….
    ExportBtcpp,
    Quit,
    Undo,
    Redo,
    Find,
    CloseTab,
    /// Rename an asset, every reference following (one undo step).
    RenameAsset {
        asset: AssetRef,
        new: String,
    },
    /// Open an asset's tab (or focus it).
    Open(AssetRef),
    /// Open an asset and select (and frame) an item in it.
    Reveal(Located),
    /// Show a list of hits (a view's find usages) in the find results panel.
    ShowHits {
        title: String,
        hits: Vec<crate::document::Hit>,
    },
    /// Select an NPC in the preview.
    SelectNpc(String),
    ShowTab(Tab),
    ResetLayout,
    SetTheme(prefs::Theme),
    SetScale(f32),
    /// Draw trees top-down or left to right (saved in the pack's editor section).
    SetTreeDirection(townsfolk_runtime::pack::TreeDirection),
    PlayPause,
    Step,
    Restart,
    ShowShortcuts,
    ShowAbout,
    Status(String),
    /// Keep the open version although the file changed on disk.
    DismissChangedOnDisk,
}
