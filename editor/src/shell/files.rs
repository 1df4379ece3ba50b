//! Files in the UI: New, Open, Open Recent, Save, Save As, Revert, Export; the unsaved-changes
//! prompt (Save / Discard / Cancel) before anything would drop changes; autosave of a dirty
//! document every 30 s and the offer to recover at start; noticing the file changed on disk;
//! persistence of prefs, layout and recent files. The file work itself is `crate::io`'s.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use egui::RichText;
use townsfolk_runtime::Program;
use townsfolk_runtime::pack::Pack;

use crate::EditorApp;
use crate::document::Document;
use crate::io;
use crate::shell::dialogs::{Dialogs, NativeDialogs, Purpose};
use crate::shell::dock::{self, Tab};
use crate::shell::prefs::{self, Prefs};
use crate::shell::style::{ERROR_COLOR, WARNING_COLOR};
use crate::shell::{Action, Views};

/// Something that would drop unsaved changes, waiting for Save / Discard / Cancel.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Pending {
    New,
    OpenDialog,
    /// File ▸ Open Folder Pack…
    OpenFolderDialog,
    /// File ▸ Open Mod over Base…: the base, then the mod.
    OpenModDialog,
    Open(PathBuf),
    Revert,
    Quit,
}

impl Pending {
    fn verb(&self) -> &'static str {
        match self {
            Pending::New => "starting a new pack",
            Pending::OpenDialog
            | Pending::OpenFolderDialog
            | Pending::OpenModDialog
            | Pending::Open(_) => "opening another pack",
            Pending::Revert => "reverting to the file on disk",
            Pending::Quit => "closing the editor",
        }
    }
}

/// The export window's state.
#[derive(Debug, Default)]
pub(crate) struct ExportWindow {
    pub keep_editor: bool,
    /// Write a folder pack (one file per asset) instead of one file.
    pub as_folder: bool,
    /// Why the last export was refused (the problems, one a line).
    pub problems: Vec<String>,
    pub done: Option<String>,
}

/// File state of the app.
pub(crate) struct Files {
    pub dialogs: Dialogs,
    pub recent: io::Recent,
    /// The unsaved-changes prompt, while it shows.
    pub prompt: Option<Pending>,
    /// A recovery file newer than the pack, offered at start.
    pub recovery: Option<io::Recovery>,
    pub watcher: Option<io::Watcher>,
    /// The file changed on disk since we read or saved it.
    pub changed_on_disk: bool,
    pub export: Option<ExportWindow>,
    /// File ▸ Export ▸ BehaviorTree.CPP XML's window, while open.
    pub btcpp_export: Option<crate::shell::interop::BtcppExportWindow>,
    /// A file error to show (save failed, cannot open…).
    pub error: Option<String>,
    /// Writes the recovery file of a dirty document every 30 s.
    pub autosave: io::Autosave,
    /// The time autosave goes by.
    pub clock: Clock,
    /// Close the window on the next frame (quitting was confirmed).
    quit_now: bool,
}

impl Files {
    pub fn new() -> Files {
        Files {
            dialogs: Dialogs::Native(NativeDialogs),
            recent: io::Recent::default(),
            prompt: None,
            recovery: None,
            watcher: None,
            changed_on_disk: false,
            export: None,
            btcpp_export: None,
            error: None,
            autosave: io::Autosave::new(io::AUTOSAVE_INTERVAL),
            clock: Clock::default(),
            quit_now: false,
        }
    }

    /// A window that takes the keyboard is open (global shortcuts wait).
    pub fn modal_open(&self) -> bool {
        self.prompt.is_some() || self.recovery.is_some() || self.error.is_some()
    }

    pub fn recent_paths(&self) -> Vec<PathBuf> {
        self.recent.paths().to_vec()
    }

    pub fn open_export(&mut self) {
        self.export.get_or_insert_with(ExportWindow::default).done = None;
    }
}

/// The time autosave goes by: the system's, or one a test moves.
#[derive(Default)]
pub(crate) struct Clock(Option<Box<dyn Fn() -> Instant>>);

impl Clock {
    pub fn new(now: impl Fn() -> Instant + 'static) -> Clock {
        Clock(Some(Box::new(now)))
    }

    pub fn now(&self) -> Instant {
        self.0.as_ref().map_or_else(Instant::now, |f| f())
    }
}

/// A document as read: `true` when nothing could be read, the program its checks built,
/// and how it is layered (a mod over its bases, a folder pack).
type Read = (Document, bool, Option<Arc<Program>>, Option<io::Layered>);

/// Reads a pack file (or folder pack) into a document; a pack with `extends` opens over its
/// bases.
fn load(path: &Path) -> Read {
    // A file is read once: the same bytes answer "is it a mod?" and are loaded.
    let bytes = if path.is_dir() {
        None
    } else {
        townsfolk_runtime::pack::read_file(path).ok()
    };
    let layered = match &bytes {
        Some(b) => std::str::from_utf8(b).is_ok_and(io::is_layered_text),
        None => io::is_layered(path),
    };
    if layered {
        return load_layers(&[path.to_path_buf()]);
    }
    let (doc, program) = match &bytes {
        Some(b) => io::open_built_bytes(path, b),
        None => io::open_built(path),
    };
    let unreadable = is_unreadable(&doc);
    (doc, unreadable, program, None)
}

/// Reads a mod over its bases (the bases first, the mod last) or a folder pack.
fn load_layers(paths: &[PathBuf]) -> Read {
    let (doc, layered, program) = io::open_layered(paths);
    let unreadable = is_unreadable(&doc);
    (doc, unreadable, program, Some(layered))
}

/// Nothing could be read: the document holds an empty, read-only pack, and an error about the
/// whole document (not one of its items) says why.
fn is_unreadable(doc: &Document) -> bool {
    doc.is_read_only()
        && doc
            .diagnostics()
            .iter()
            .any(|d| d.is_error() && d.path.is_empty())
}

impl EditorApp {
    /// Opens a file in place of the current document (no prompt: callers ask first).
    pub(crate) fn load_file(&mut self, path: &Path) {
        self.open_read(load(path), path);
    }

    /// Opens a mod over a base pack given apart (the mod need not declare `extends`): the
    /// document is the merged pack, the asset browser marks what the mod adds (+) or
    /// changes (~), and saving writes only the mod's delta to the mod file (the base file is
    /// never written). No prompt: callers ask first.
    pub fn open_mod_over_base(&mut self, base: &Path, mod_file: &Path) {
        self.open_read(
            load_layers(&[base.to_path_buf(), mod_file.to_path_buf()]),
            mod_file,
        );
    }

    /// Puts a document just read in place; `path` is its file.
    fn open_read(&mut self, (doc, unreadable, program, layered): Read, path: &Path) {
        // The preview runs the program the load's checks built (no second compile).
        self.preview.offer_program(program);
        self.replace_document(doc, unreadable, None);
        if let Some(l) = &layered
            && l.base.is_some()
        {
            self.status = Some(format!(
                "Opened the mod {} over {}: saving writes only the mod's changes",
                path.display(),
                l.layers[..l.layers.len().saturating_sub(1)].join(", ")
            ));
        }
        self.views.layered = layered;
        if !unreadable {
            self.files.recent.push(path);
        }
        self.files.recovery = io::find_recovery(Some(path));
    }

    /// Puts a new document in place: closes its tabs, restarts the preview, watches its file.
    fn replace_document(&mut self, doc: Document, unreadable: bool, label: Option<String>) {
        self.doc = doc;
        self.unreadable = unreadable;
        self.source_label = label;
        self.views = Views::default();
        self.dock.retain_tabs(|t| !matches!(t, Tab::Asset(_)));
        if !dock::is_usable(&self.dock) {
            self.dock = dock::default_layout();
        }
        self.inspected = Some(Tab::Preview);
        self.files.changed_on_disk = false;
        self.files.autosave =
            io::Autosave::starting_at(io::AUTOSAVE_INTERVAL, self.files.clock.now());
        self.files.watcher = self.doc.path().and_then(|p| io::watch_pack(p).ok());
        self.restart_preview();
    }

    /// Saves to the document's file, or asks where when it has none. `false` when nothing
    /// was written (refused, cancelled or failed: the message says why).
    pub(crate) fn save_document(&mut self) -> bool {
        if self.doc.is_read_only() {
            self.files.error = Some(
                "This pack was not read completely, so it is read-only: saving over the file would lose what could not be read. Use Save As to write what was read to another file."
                    .to_string(),
            );
            return false;
        }
        match self.doc.path().map(Path::to_path_buf) {
            Some(path) => self.save_to(&path),
            None => self.save_document_as(),
        }
    }

    /// Asks where, then saves there (and the document's file becomes that one).
    pub(crate) fn save_document_as(&mut self) -> bool {
        let dir = self
            .doc
            .path()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        let name = match self.doc.path().and_then(Path::file_name) {
            Some(n) => n.to_string_lossy().into_owned(),
            None => format!("{}.json", file_stem(&self.doc.pack().name)),
        };
        let Some(path) = self
            .files
            .dialogs
            .pick(Purpose::SaveAs, dir.as_deref(), &name)
        else {
            return false;
        };
        if self.doc.is_read_only() && self.doc.path() == Some(path.as_path()) {
            self.files.error = Some(
                "This pack is read-only (it was not read completely): choose another file to save to."
                    .to_string(),
            );
            return false;
        }
        self.save_to(&path)
    }

    fn save_to(&mut self, path: &Path) -> bool {
        let old_path = self.doc.path().map(Path::to_path_buf);
        let same_file = old_path.as_deref() == Some(path);
        let written = match &mut self.views.layered {
            Some(l) => {
                // Save As picks a file: a folder pack saved elsewhere becomes one file.
                if !same_file {
                    l.folder = false;
                }
                io::save_layered(l, self.doc.pack(), path)
            }
            None => io::save(path, self.doc.pack()),
        };
        let moved_mod = !same_file
            && self
                .views
                .layered
                .as_ref()
                .is_some_and(|l| !l.extends.is_empty())
            && old_path.as_deref().and_then(Path::parent) != path.parent();
        match written {
            Ok(()) => {
                discard_recovery(self, old_path.as_deref());
                if old_path.as_deref() != Some(path) {
                    self.doc.set_path(Some(path.to_path_buf()));
                    self.files.watcher = io::watch_pack(path).ok();
                }
                self.doc.mark_saved();
                discard_recovery(self, Some(path));
                self.files.recent.push(path);
                self.files.changed_on_disk = false;
                self.source_label = None;
                self.status = Some(if moved_mod {
                    format!(
                        "Saved {}; its `extends` are relative to its folder: copy the base packs beside it",
                        path.display()
                    )
                } else {
                    format!("Saved {}", path.display())
                });
                true
            }
            Err(e) => {
                self.files.error = Some(format!("Could not save {}: {e}", path.display()));
                false
            }
        }
    }
}

/// A file name from a pack name ("My town" → "my_town").
pub(crate) fn file_stem(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if s.trim_matches('_').is_empty() {
        "pack".to_string()
    } else {
        s
    }
}

/// Does `what`, first asking Save / Discard / Cancel when it would drop unsaved changes.
pub(crate) fn request(app: &mut EditorApp, what: Pending) {
    if app.doc.is_dirty() {
        app.files.prompt = Some(what);
    } else {
        proceed(app, what);
    }
}

/// Does `what` now (changes were saved or discarded).
fn proceed(app: &mut EditorApp, what: Pending) {
    match what {
        Pending::New => {
            let path = app.doc.path().map(Path::to_path_buf);
            discard_recovery(app, path.as_deref());
            app.replace_document(Document::new(Pack::new("Untitled")), false, None);
            app.status = Some("New pack".to_string());
        }
        Pending::OpenDialog => {
            let dir = app.doc.path().and_then(Path::parent).map(Path::to_path_buf);
            if let Some(path) = app.files.dialogs.pick(Purpose::Open, dir.as_deref(), "") {
                app.load_file(&path);
            }
        }
        Pending::OpenFolderDialog => {
            let dir = app.doc.path().and_then(Path::parent).map(Path::to_path_buf);
            if let Some(path) = app
                .files
                .dialogs
                .pick(Purpose::OpenFolder, dir.as_deref(), "")
            {
                app.load_file(&path);
            }
        }
        Pending::OpenModDialog => {
            let dir = app.doc.path().and_then(Path::parent).map(Path::to_path_buf);
            if let Some(base) = app
                .files
                .dialogs
                .pick(Purpose::OpenBase, dir.as_deref(), "")
                && let Some(m) = app.files.dialogs.pick(Purpose::OpenMod, base.parent(), "")
            {
                app.open_mod_over_base(&base, &m);
            }
        }
        Pending::Open(path) => app.load_file(&path),
        Pending::Revert => {
            if let Some(path) = app.doc.path().map(Path::to_path_buf) {
                discard_recovery(app, Some(&path));
                let (doc, unreadable, program, layered) = load(&path);
                app.preview.offer_program(program);
                app.replace_document(doc, unreadable, None);
                app.views.layered = layered;
                app.status = Some(format!("Reverted to {}", path.display()));
            }
        }
        Pending::Quit => {
            app.allow_close = true;
            app.files.quit_now = true;
        }
    }
}

/// Once a frame, before the UI: the window's close button, autosave, changes on disk.
pub(crate) fn on_frame(app: &mut EditorApp, ctx: &egui::Context) {
    if app.files.quit_now {
        app.files.quit_now = false;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
    if ctx.input(|i| i.viewport().close_requested()) && !app.allow_close && app.doc.is_dirty() {
        ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        app.files.prompt = Some(Pending::Quit);
    }

    match app.files.autosave.tick(&app.doc, app.files.clock.now()) {
        Some(Ok(path)) => app.status = Some(format!("Autosaved to {}", path.display())),
        Some(Err(e)) => app.status = Some(format!("Autosave failed: {e}")),
        None => {}
    }
    if app.doc.is_dirty() {
        // Autosave comes due even when no input arrives.
        ctx.request_repaint_after(std::time::Duration::from_secs(1));
    }

    if let Some(w) = &mut app.files.watcher
        && w.poll().is_some()
    {
        app.files.changed_on_disk = true;
    }
}

/// A bar under the menu: read-only, unreadable, or changed on disk.
pub(crate) enum Banner {
    Unreadable,
    ReadOnly,
    ChangedOnDisk { dirty: bool },
}

pub(crate) fn banner(app: &EditorApp) -> Option<Banner> {
    if app.files.changed_on_disk {
        Some(Banner::ChangedOnDisk {
            dirty: app.doc.is_dirty(),
        })
    } else if app.unreadable {
        Some(Banner::Unreadable)
    } else if app.doc.is_read_only() {
        Some(Banner::ReadOnly)
    } else {
        None
    }
}

pub(crate) fn banner_ui(ui: &mut egui::Ui, banner: &Banner, actions: &mut Vec<Action>) {
    ui.horizontal_wrapped(|ui| match banner {
        Banner::Unreadable => {
            ui.label(
                RichText::new("⊗ This file could not be opened as a pack; see Problems.")
                    .color(ERROR_COLOR)
                    .strong(),
            );
        }
        Banner::ReadOnly => {
            ui.label(
                RichText::new(
                    "🔒 Read-only: part of this pack could not be read (see Problems). Saving over the file would lose that part; Save As writes what was read elsewhere.",
                )
                .color(WARNING_COLOR),
            );
        }
        Banner::ChangedOnDisk { dirty } => {
            ui.label(RichText::new("The file changed on disk.").color(WARNING_COLOR).strong());
            let label = if *dirty {
                "Reload (discard my changes)…"
            } else {
                "Reload"
            };
            if ui.button(label).clicked() {
                actions.push(Action::Revert);
            }
            if ui.button("Keep mine").clicked() {
                actions.push(Action::Status("Kept the open version; saving will overwrite the file".to_string()));
                actions.push(Action::DismissChangedOnDisk);
            }
        }
    });
}

/// The windows of the file commands: unsaved changes, recovery, export, errors.
pub(crate) fn modals_ui(app: &mut EditorApp, ctx: &egui::Context) {
    unsaved_prompt_ui(app, ctx);
    recovery_ui(app, ctx);
    export_ui(app, ctx);
    crate::shell::interop::windows_ui(app, ctx);
    if let Some(msg) = app.files.error.clone() {
        let r = egui::Modal::new(egui::Id::new("file_error")).show(ctx, |ui| {
            ui.set_max_width(480.0);
            ui.label(RichText::new("File problem").strong());
            ui.label(msg);
            ui.button("OK").clicked()
        });
        if r.inner || r.should_close() {
            app.files.error = None;
        }
    }
}

fn unsaved_prompt_ui(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(pending) = app.files.prompt.clone() else {
        return;
    };
    let name = app.doc.pack().name.clone();
    let mut choice = None;
    let r = egui::Modal::new(egui::Id::new("unsaved_prompt")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        ui.label(RichText::new("Unsaved changes").strong().size(16.0));
        ui.label(format!(
            "The pack “{name}” has unsaved changes. Save them before {}?",
            pending.verb()
        ));
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if pending != Pending::Revert && ui.button("Save").clicked() {
                choice = Some("save");
            }
            if ui.button("Discard").clicked() {
                choice = Some("discard");
            }
            if ui.button("Cancel").clicked() {
                choice = Some("cancel");
            }
        });
    });
    if r.should_close() && choice.is_none() {
        choice = Some("cancel");
    }
    match choice {
        Some("save") => {
            app.files.prompt = None;
            if app.save_document() {
                proceed(app, pending);
            }
        }
        Some("discard") => {
            app.files.prompt = None;
            // The changes are dropped on purpose: their recovery file goes too.
            let path = app.doc.path().map(Path::to_path_buf);
            discard_recovery(app, path.as_deref());
            proceed(app, pending);
        }
        Some(_) => app.files.prompt = None,
        None => {}
    }
}

fn recovery_ui(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(rec) = &app.files.recovery else {
        return;
    };
    let when = describe_age(rec.modified);
    let mut choice = None;
    egui::Modal::new(egui::Id::new("recovery_offer")).show(ctx, |ui| {
        ui.set_max_width(480.0);
        ui.label(RichText::new("Recover unsaved changes?").strong().size(16.0));
        ui.label(format!(
            "The editor found autosaved changes ({when}) newer than the pack file. They were not saved, probably because the editor stopped unexpectedly."
        ));
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                choice = Some(true);
            }
            if ui.button("Discard recovery").clicked() {
                choice = Some(false);
            }
        });
    });
    match choice {
        Some(true) => {
            if let Some(rec) = app.files.recovery.take() {
                recover(app, rec);
            }
        }
        Some(false) => {
            app.files.recovery = None;
            let path = app.doc.path().map(Path::to_path_buf);
            discard_recovery(app, path.as_deref());
        }
        None => {}
    }
}

/// Replaces the document with the recovered pack: dirty (not saved to the file yet), with the
/// same file, so Save writes the recovered changes there.
fn recover(app: &mut EditorApp, rec: io::Recovery) {
    let doc = rec.load();
    let unreadable = is_unreadable(&doc);
    // The recovered pack is the same document: a mod stays a mod over its bases.
    let layered = app.views.layered.take();
    app.replace_document(doc, unreadable, None);
    app.views.layered = layered;
    app.status = Some("Recovered the autosaved changes (not saved to the file yet)".to_string());
}

/// "2 minutes ago", for the recovery offer.
fn describe_age(when: std::time::SystemTime) -> String {
    match std::time::SystemTime::now().duration_since(when) {
        Ok(d) if d.as_secs() < 90 => "autosaved moments ago".to_string(),
        Ok(d) if d.as_secs() < 90 * 60 => format!("autosaved {} minutes ago", d.as_secs() / 60),
        Ok(d) if d.as_secs() < 48 * 3600 => format!("autosaved {} hours ago", d.as_secs() / 3600),
        Ok(d) => format!("autosaved {} days ago", d.as_secs() / 86400),
        Err(_) => "autosaved".to_string(),
    }
}

/// Removes a recovery file; a failure is shown, not fatal (the file is only a spare copy).
fn discard_recovery(app: &mut EditorApp, pack_path: Option<&Path>) {
    if let Err(e) = io::discard_recovery(pack_path) {
        app.status = Some(format!("Could not remove the recovery file: {e}"));
    }
}

fn export_ui(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(mut win) = app.files.export.take() else {
        return;
    };
    let mut open = true;
    let mut run = false;
    egui::Window::new("Export pack")
        .open(&mut open)
        .resizable(true)
        .default_width(460.0)
        .show(ctx, |ui| {
            ui.label("Writes the pack for games and modders, after a full validation. It is refused while the pack has errors.");
            ui.checkbox(&mut win.keep_editor, "Keep the editor section (layout, colours)");
            ui.checkbox(
                &mut win.as_folder,
                "As a folder (pack.json and one file per asset)",
            );
            if ui.button("Export…").clicked() {
                run = true;
            }
            if let Some(done) = &win.done {
                ui.label(RichText::new(done).strong());
            }
            export_refused_ui(ui, &win.problems);
        });
    if run {
        run_export(app, &mut win);
    }
    if open {
        app.files.export = Some(win);
    }
}

/// Why an export was refused (every export window shows it): the problems to fix first, or
/// nothing when there are none.
pub(crate) fn export_refused_ui(ui: &mut egui::Ui, problems: &[String]) {
    if problems.is_empty() {
        return;
    }
    ui.label(
        RichText::new(format!(
            "Export refused: the pack has {} to fix first:",
            crate::shell::style::count(problems.len(), "problem")
        ))
        .color(ERROR_COLOR)
        .strong(),
    );
    egui::ScrollArea::vertical()
        .max_height(240.0)
        .show(ui, |ui| {
            for p in problems {
                ui.label(RichText::new(p).monospace());
            }
        });
}

fn run_export(app: &mut EditorApp, win: &mut ExportWindow) {
    win.done = None;
    win.problems.clear();
    // Validation first: nothing is asked or written while errors remain.
    let problems = export_problems(app.doc.pack());
    if !problems.is_empty() {
        win.problems = problems;
        return;
    }
    let dir = app.doc.path().and_then(Path::parent).map(Path::to_path_buf);
    let (purpose, name, form) = if win.as_folder {
        (Purpose::ExportFolder, String::new(), io::ExportForm::Folder)
    } else {
        (
            Purpose::Export,
            format!("{}.export.json", file_stem(&app.doc.pack().name)),
            io::ExportForm::SingleFile,
        )
    };
    let Some(dest) = app.files.dialogs.pick(purpose, dir.as_deref(), &name) else {
        return;
    };
    let options = io::ExportOptions {
        keep_editor: win.keep_editor,
        form,
    };
    match io::export(app.doc.pack(), &dest, options) {
        Ok(()) => win.done = Some(format!("Exported to {}", dest.display())),
        Err(io::ExportError::Invalid { problems }) => {
            win.problems = problems
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{}: {}", d.display_path(), d.message))
                .collect();
        }
        Err(e) => win.problems = vec![e.to_string()],
    }
}

/// The errors that refuse an export, one a line (`path: message`).
pub(crate) fn export_problems(pack: &Pack) -> Vec<String> {
    crate::document::run_checks(pack)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.display_path(), d.message))
        .collect()
}

/// Restores what a previous run saved.
pub(crate) fn restore(app: &mut EditorApp, storage: &dyn eframe::Storage) {
    if let Some(p) = eframe::get_value::<Prefs>(storage, prefs::PREFS_KEY) {
        app.prefs = p.sanitized();
    }
    if let Some(d) = eframe::get_value::<egui_dock::DockState<Tab>>(storage, prefs::DOCK_KEY)
        && dock::is_usable(&d)
    {
        app.dock = d;
    }
    if let Some(r) = eframe::get_value::<io::Recent>(storage, prefs::RECENT_KEY) {
        app.files.recent = r;
        if let Some(path) = app.doc.path() {
            app.files.recent.push(path);
        }
    }
}

/// Saves prefs, layout (without document tabs) and recent files.
pub(crate) fn persist(app: &EditorApp, storage: &mut dyn eframe::Storage) {
    eframe::set_value(storage, prefs::PREFS_KEY, &app.prefs);
    eframe::set_value(storage, prefs::DOCK_KEY, &dock::layout_to_save(&app.dock));
    eframe::set_value(storage, prefs::RECENT_KEY, &app.files.recent);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems_are_plain() {
        assert_eq!(file_stem("My town"), "my_town");
        assert_eq!(file_stem("  "), "pack");
        assert_eq!(file_stem("guards"), "guards");
    }
}
