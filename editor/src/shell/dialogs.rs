//! File dialogs behind a small trait, so the app asks "which file?" the same way whether a
//! person answers with the native dialog (`rfd`) or a test answers from a queue.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use crate::io::ImportFormat;

/// What a file dialog is for (its title and whether it picks an existing file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    Open,
    SaveAs,
    Export,
    /// A file of another tool to import trees from.
    Import(ImportFormat),
    /// Where to write the trees as BehaviorTree.CPP XML.
    ExportBtcpp,
    /// A folder pack to open.
    OpenFolder,
    /// The base pack a mod is opened over (a file or a folder pack's `pack.json`).
    OpenBase,
    /// The mod opened over the base.
    OpenMod,
    /// The folder to export the pack into (one file per asset).
    ExportFolder,
}

impl Purpose {
    fn title(self) -> &'static str {
        match self {
            Purpose::Open => "Open a Townsfolk pack",
            Purpose::SaveAs => "Save the pack as",
            Purpose::Export => "Export the pack to",
            Purpose::Import(ImportFormat::Btcpp) => "Import trees from BehaviorTree.CPP XML",
            Purpose::Import(ImportFormat::Behavior3) => "Import trees from behavior3 JSON",
            Purpose::ExportBtcpp => "Export the trees as BehaviorTree.CPP XML to",
            Purpose::OpenFolder => "Open a folder pack",
            Purpose::OpenBase => "Open a mod over its base: first the base pack",
            Purpose::OpenMod => "Open a mod over its base: now the mod",
            Purpose::ExportFolder => "Export the pack as a folder into",
        }
    }

    /// The file filter: its name and extensions.
    fn filter(self) -> (&'static str, &'static [&'static str]) {
        match self {
            Purpose::Open
            | Purpose::SaveAs
            | Purpose::Export
            | Purpose::OpenBase
            | Purpose::OpenMod
            | Purpose::OpenFolder
            | Purpose::ExportFolder => ("Townsfolk pack", &["json"]),
            Purpose::Import(ImportFormat::Btcpp) | Purpose::ExportBtcpp => {
                ("BehaviorTree.CPP XML", &["xml"])
            }
            Purpose::Import(ImportFormat::Behavior3) => {
                ("behavior3 JSON or workspace", &["json", "b3-workspace"])
            }
        }
    }
}

/// Answers "which file?". `None`: the person cancelled.
pub(crate) trait FileDialogs {
    fn pick(&mut self, purpose: Purpose, dir: Option<&Path>, file_name: &str) -> Option<PathBuf>;
}

/// The platform's own dialogs (they block the frame while open, as native dialogs do).
pub(crate) struct NativeDialogs;

impl FileDialogs for NativeDialogs {
    fn pick(&mut self, purpose: Purpose, dir: Option<&Path>, file_name: &str) -> Option<PathBuf> {
        let (filter, extensions) = purpose.filter();
        let mut d = rfd::FileDialog::new()
            .set_title(purpose.title())
            .add_filter(filter, extensions);
        if let Some(dir) = dir {
            d = d.set_directory(dir);
        }
        match purpose {
            Purpose::Open | Purpose::OpenBase | Purpose::OpenMod | Purpose::Import(_) => {
                d.pick_file()
            }
            Purpose::OpenFolder | Purpose::ExportFolder => d.pick_folder(),
            Purpose::SaveAs | Purpose::Export | Purpose::ExportBtcpp => {
                d.set_file_name(file_name).save_file()
            }
        }
    }
}

/// Answers from a queue given in advance (tests): never opens a window; an empty queue
/// answers "cancelled".
#[derive(Default)]
pub(crate) struct ScriptedDialogs {
    pub answers: VecDeque<Option<PathBuf>>,
}

impl FileDialogs for ScriptedDialogs {
    fn pick(
        &mut self,
        _purpose: Purpose,
        _dir: Option<&Path>,
        _file_name: &str,
    ) -> Option<PathBuf> {
        self.answers.pop_front().flatten()
    }
}

/// The app's dialogs: native unless a test scripted them.
pub(crate) enum Dialogs {
    Native(NativeDialogs),
    Scripted(ScriptedDialogs),
}

impl Dialogs {
    pub fn pick(
        &mut self,
        purpose: Purpose,
        dir: Option<&Path>,
        file_name: &str,
    ) -> Option<PathBuf> {
        match self {
            Dialogs::Native(d) => d.pick(purpose, dir, file_name),
            Dialogs::Scripted(d) => d.pick(purpose, dir, file_name),
        }
    }

    /// Switches to scripted answers (keeps any queued ones) and queues one more.
    pub fn queue(&mut self, answer: Option<PathBuf>) {
        if let Dialogs::Native(_) = self {
            *self = Dialogs::Scripted(ScriptedDialogs::default());
        }
        if let Dialogs::Scripted(d) = self {
            d.answers.push_back(answer);
        }
    }
}
