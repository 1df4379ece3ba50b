//! The editor application: the open document, the running preview, the dock of tabs, and the
//! frame loop (global shortcuts, the preview's fixed-rate stepping, autosave, the panels).
//! File commands live in `shell::files`, the menu bar in `shell::menu`, the tabs in
//! `shell::viewer`.

use std::path::Path;

use egui_dock::{DockArea, DockState};
use townsfolk_runtime::Session;
use townsfolk_runtime::pack::{Diagnostic, Pack};

use crate::document::Document;
use crate::preview::Preview;
use crate::shell::{self, Action, Tab};
use crate::shortcuts::{self, Command};
use crate::{DEFAULT_PACK, DEFAULT_PACK_LABEL};

pub use crate::preview::Speed;

/// The Townsfolk editor.
pub struct EditorApp {
    pub(crate) doc: Document,
    /// Where the document came from when it has no file (the built-in sample, a test's text).
    pub(crate) source_label: Option<String>,
    /// Nothing could be read: the document holds an empty, read-only pack.
    pub(crate) unreadable: bool,
    pub(crate) preview: Preview,
    pub(crate) dock: DockState<Tab>,
    /// The document tab the inspector follows (the last focused asset tab, or the preview).
    pub(crate) inspected: Option<Tab>,
    pub(crate) views: shell::Views,
    pub(crate) files: shell::files::Files,
    pub(crate) prefs: shell::prefs::Prefs,
    /// Prefs last applied to the context (`None`: not yet).
    applied: Option<shell::prefs::Prefs>,
    /// Help windows.
    pub(crate) show_shortcuts: bool,
    pub(crate) show_about: bool,
    /// The last message for the status bar (a save, a refused edit, a view's note).
    pub(crate) status: Option<String>,
    /// Title last sent to the window.
    title: String,
    /// The window was made to use the screen (first frames only).
    window_fitted: bool,
    /// Closing was confirmed (after Save or Discard): let the next close request through.
    pub(crate) allow_close: bool,
}

impl EditorApp {
    /// Opens the bundled sample pack.
    pub fn with_default_pack() -> EditorApp {
        EditorApp::from_text(DEFAULT_PACK, DEFAULT_PACK_LABEL)
    }

    /// Opens a pack given as text; `label` says where it came from (it has no file, so Save
    /// asks where to write it).
    pub fn from_text(text: &str, label: &str) -> EditorApp {
        let loaded = townsfolk_runtime::program::load_str(text);
        let unreadable = loaded.pack.is_none();
        let mut app = EditorApp::new(Document::from_loaded(loaded, None));
        app.source_label = Some(label.to_string());
        app.unreadable = unreadable;
        app
    }

    /// Opens a pack file. Problems reading it become diagnostics; this never fails. When a
    /// recovery file newer than the pack exists, the editor offers to recover it.
    pub fn from_file(path: &Path) -> EditorApp {
        let mut app = EditorApp::new(Document::new(Pack::new("Untitled")));
        app.load_file(path);
        app
    }

    fn new(doc: Document) -> EditorApp {
        let mut app = EditorApp {
            doc,
            source_label: None,
            unreadable: false,
            preview: Preview::new(),
            dock: shell::dock::default_layout(),
            inspected: Some(Tab::Preview),
            views: shell::Views::default(),
            files: shell::files::Files::new(),
            prefs: shell::prefs::Prefs::default(),
            applied: None,
            show_shortcuts: false,
            show_about: false,
            status: None,
            title: String::new(),
            window_fitted: false,
            allow_close: false,
        };
        app.restart_preview();
        app.title = app.window_title();
        app
    }

    /// Restores theme, UI scale, dock layout and recent files saved by a previous run.
    pub fn restore(&mut self, storage: &dyn eframe::Storage) {
        shell::files::restore(self, storage);
    }

    /// Answers the next file dialog with `path` (`None`: cancelled) instead of showing one.
    /// Once called, the app never opens a native dialog (tests).
    pub fn answer_next_dialog(&mut self, path: Option<&Path>) {
        self.files.dialogs.queue(path.map(Path::to_path_buf));
    }

    /// Makes autosave go by `now` instead of the system clock, counting its first 30 s from
    /// `now()` (tests move this clock instead of sleeping).
    pub fn set_clock(&mut self, now: impl Fn() -> std::time::Instant + 'static) {
        self.files.clock = shell::files::Clock::new(now);
        self.files.autosave =
            crate::io::Autosave::starting_at(crate::io::AUTOSAVE_INTERVAL, self.files.clock.now());
    }

    /// "Townsfolk — <pack name>", with a dot while there are unsaved changes.
    pub fn window_title(&self) -> String {
        let dirty = if self.doc.is_dirty() { " ●" } else { "" };
        format!("Townsfolk — {}{dirty}", self.doc.pack().name)
    }

    /// Restarts the preview at tick 0 on the pack as it is now.
    pub fn reset(&mut self) {
        self.restart_preview();
    }

    pub(crate) fn restart_preview(&mut self) {
        self.preview.restart(self.doc.pack(), self.doc.revision());
        self.preview
            .renames_followed_up_to(self.doc.rename_log().len());
    }

    /// Pauses and runs exactly one tick.
    pub fn step_once(&mut self) {
        self.preview.step_once();
    }

    /// The open document.
    pub fn document(&self) -> &Document {
        &self.doc
    }
    pub fn document_mut(&mut self) -> &mut Document {
        &mut self.doc
    }
    pub fn pack(&self) -> &Pack {
        self.doc.pack()
    }
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.doc.diagnostics()
    }
    pub fn error_count(&self) -> usize {
        self.doc
            .diagnostics()
            .iter()
            .filter(|d| d.is_error())
            .count()
    }
    /// The running preview, if the pack could start one.
    pub fn session(&self) -> Option<&Session> {
        self.preview.session.as_ref()
    }
    /// The preview's tick, if it runs.
    pub fn tick(&self) -> Option<u64> {
        self.preview.session.as_ref().map(Session::tick)
    }
    pub fn is_playing(&self) -> bool {
        self.preview.playing
    }
    pub fn set_playing(&mut self, playing: bool) {
        self.preview.playing = playing;
    }
    pub fn speed(&self) -> Speed {
        self.preview.speed
    }
    pub fn set_speed(&mut self, speed: Speed) {
        self.preview.speed = speed;
    }
    pub fn seed(&self) -> u64 {
        self.preview.seed
    }
    /// Changes the seed and restarts the preview.
    pub fn set_seed(&mut self, seed: u64) {
        self.preview.set_seed(seed);
        self.restart_preview();
    }
    /// The selected NPC's id (in the preview).
    pub fn selected_npc(&self) -> Option<&str> {
        self.preview.selected.as_deref()
    }
    pub fn select_npc(&mut self, id: Option<&str>) {
        self.preview.selected = id.map(str::to_string);
    }
    /// Where the preview last drew an NPC, in screen points (for tests and tools).
    pub fn npc_screen_pos(&self, id: &str) -> Option<egui::Pos2> {
        self.preview
            .view
            .last_npcs
            .iter()
            .find(|(n, _)| n == id)
            .map(|&(_, p)| p)
    }
    /// Where an open tree tab drew a node's card in the last frame, in screen points (`None`:
    /// the tree's tab is not open, or the node is not drawn). For tests and tools.
    pub fn tree_card_screen_rect(&self, tree: &str, node: &str) -> Option<egui::Rect> {
        self.views.trees.get(tree)?.card_screen_rect(node)
    }
    /// Where an open tree tab drew its canvas in the last frame, in screen points.
    pub fn tree_canvas_screen_rect(&self, tree: &str) -> Option<egui::Rect> {
        self.views.trees.get(tree)?.canvas_rect
    }
    /// Whether the theme is dark.
    pub fn is_dark(&self) -> bool {
        self.prefs.theme == shell::prefs::Theme::Dark
    }
    /// The UI scale (1.0 = 100%).
    pub fn ui_scale(&self) -> f32 {
        self.prefs.scale
    }
    /// The recent files (Open Recent), most recent first.
    pub fn recent_files(&self) -> Vec<std::path::PathBuf> {
        self.files.recent_paths()
    }
    /// The ids of the open document tabs' assets, as `Kind id`.
    pub fn open_tabs(&self) -> Vec<String> {
        shell::dock::open_assets(&self.dock)
            .iter()
            .map(|a| format!("{} {}", a.kind.label(), a.id))
            .collect()
    }

    /// The global shortcuts (and the preview's, when no text field has the keyboard).
    fn handle_keys(&mut self, ctx: &egui::Context) {
        if self.files.modal_open() {
            return;
        }
        let commands = [
            (Command::New, Action::New),
            (Command::Open, Action::OpenDialog),
            (Command::SaveAs, Action::SaveAs),
            (Command::Save, Action::Save),
            (Command::Find, Action::Find),
            (Command::CloseTab, Action::CloseTab),
        ];
        let mut actions = Vec::new();
        for (command, action) in commands {
            if shortcuts::consume(ctx, command) {
                actions.push(action);
            }
        }
        // A focused text field keeps its own undo (Ctrl+Z) and typed keys.
        if !ctx.egui_wants_keyboard_input() {
            // Redo first: Ctrl+Shift+Z also matches Ctrl+Z logically.
            if shortcuts::consume(ctx, Command::Redo) || shortcuts::consume(ctx, Command::RedoAlt) {
                actions.push(Action::Redo);
            }
            if shortcuts::consume(ctx, Command::Undo) {
                actions.push(Action::Undo);
            }
            if shortcuts::consume(ctx, Command::PlayPause) {
                actions.push(Action::PlayPause);
            }
            if shortcuts::consume(ctx, Command::StepTick) {
                actions.push(Action::Step);
            }
            if shortcuts::consume(ctx, Command::Restart) {
                actions.push(Action::Restart);
            }
        }
        for a in actions {
            self.perform(ctx, a);
        }
    }

    /// Makes the window use the screen on the first frames: maximized where the window
    /// manager supports it, else the monitor's size.
    fn fit_window(&mut self, ctx: &egui::Context) {
        if self.window_fitted {
            return;
        }
        let (monitor, inner, maximized) = ctx.input(|i| {
            let v = i.viewport();
            (v.monitor_size, v.inner_rect, v.maximized)
        });
        let Some(monitor) = monitor else {
            return; // not known yet (or never, under a test harness)
        };
        self.window_fitted = true;
        if maximized == Some(true) {
            return;
        }
        let small =
            inner.is_none_or(|r| r.width() < monitor.x * 0.9 || r.height() < monitor.y * 0.9);
        if small && monitor.x > 0.0 && monitor.y > 0.0 {
            ctx.send_viewport_cmd(egui::ViewportCommand::OuterPosition(egui::Pos2::ZERO));
            ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(monitor));
        }
    }

    /// Does what a menu item, a shortcut, a panel or a view asked.
    pub(crate) fn perform(&mut self, ctx: &egui::Context, action: Action) {
        match action {
            Action::New => self.files_request(shell::files::Pending::New),
            Action::OpenDialog => self.files_request(shell::files::Pending::OpenDialog),
            Action::OpenFolderDialog => self.files_request(shell::files::Pending::OpenFolderDialog),
            Action::OpenModDialog => self.files_request(shell::files::Pending::OpenModDialog),
            Action::OpenRecent(path) => self.files_request(shell::files::Pending::Open(path)),
            Action::Revert => self.files_request(shell::files::Pending::Revert),
            Action::Quit => {
                if self.doc.is_dirty() {
                    self.files.prompt = Some(shell::files::Pending::Quit);
                } else {
                    self.allow_close = true;
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
            Action::Save => {
                self.save_document();
            }
            Action::SaveAs => {
                self.save_document_as();
            }
            Action::Export => self.files.open_export(),
            Action::Import(format) => shell::interop::import_dialog(self, format),
            Action::ExportBtcpp => shell::interop::open_btcpp_export(self),
            Action::Undo => {
                let label = self.doc.undo_label().map(str::to_string);
                if self.doc.undo() {
                    self.status = label.map(|l| format!("Undid {l}"));
                }
            }
            Action::Redo => {
                let label = self.doc.redo_label().map(str::to_string);
                if self.doc.redo() {
                    self.status = label.map(|l| format!("Redid {l}"));
                }
            }
            Action::Find => {
                shell::dock::show_tab(&mut self.dock, Tab::Find);
                self.views.find.focus_query = true;
            }
            Action::CloseTab => {
                if let Some(tab @ Tab::Asset(_)) = shell::dock::focused_tab(&mut self.dock) {
                    shell::dock::close_tab(&mut self.dock, &tab);
                }
            }
            Action::Open(asset) => {
                self.views.open(&self.doc, &asset);
                let tab = Tab::Asset(asset);
                shell::dock::show_tab(&mut self.dock, tab.clone());
                self.inspected = Some(tab);
            }
            Action::RenameAsset { asset, new } => {
                let done =
                    crate::document::rename_asset(self.doc.pack(), asset.kind, &asset.id, &new)
                        .and_then(|e| self.doc.apply(e));
                self.status = Some(match done {
                    Ok(()) => format!(
                        "Renamed {} `{}` to `{new}`",
                        asset.kind.label().to_lowercase(),
                        asset.id
                    ),
                    Err(e) => format!("Rename: {e}"),
                });
            }
            Action::Reveal(at) => {
                self.views.reveal(&mut self.doc, &at);
                let tab = Tab::Asset(at.asset);
                shell::dock::show_tab(&mut self.dock, tab.clone());
                self.inspected = Some(tab);
            }
            Action::ShowHits { title, hits } => {
                self.views.find.show(title, hits);
                shell::dock::show_tab(&mut self.dock, Tab::Find);
            }
            Action::SelectNpc(id) => self.preview.selected = Some(id),
            Action::ShowTab(tab) => shell::dock::show_tab(&mut self.dock, tab),
            Action::ResetLayout => self.dock = shell::dock::default_layout(),
            Action::SetTheme(theme) => self.prefs.theme = theme,
            Action::SetScale(scale) => self.prefs.scale = scale,
            Action::SetTreeDirection(dir) => {
                if self.doc.pack().editor.tree_direction != dir
                    && let Err(e) = self.doc.apply(crate::document::Edit::TreeDirection(dir))
                {
                    self.status = Some(format!("Tree direction: {e}"));
                }
            }
            Action::PlayPause => {
                if self.preview.session.is_some() {
                    self.preview.playing = !self.preview.playing;
                }
            }
            Action::Step => self.preview.step_once(),
            Action::Restart => self.restart_preview(),
            Action::ShowShortcuts => self.show_shortcuts = true,
            Action::ShowAbout => self.show_about = true,
            Action::Status(text) => self.status = Some(text),
            Action::DismissChangedOnDisk => self.files.changed_on_disk = false,
        }
    }

    fn files_request(&mut self, what: shell::files::Pending) {
        shell::files::request(self, what);
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let prefs = self.prefs.sanitized();
        if self.applied != Some(prefs) {
            prefs.apply(&ctx);
            self.applied = Some(prefs);
        } else if (ctx.zoom_factor() - self.prefs.scale).abs() > 1e-4 {
            // Ctrl +/- zoomed: remember it like a menu choice.
            self.prefs.scale = ctx.zoom_factor();
            self.applied = Some(self.prefs);
        }
        self.fit_window(&ctx);
        self.doc.poll();
        shell::files::on_frame(self, &ctx);
        self.handle_keys(&ctx);
        self.views
            .follow_renames(&self.doc, &mut self.dock, &mut self.inspected);
        self.preview.follow_renames(self.doc.rename_log());

        if self.dock.find_tab(&Tab::Preview).is_some() {
            let dt = f64::from(ctx.input(|i| i.stable_dt));
            if self.preview.advance(dt) {
                ctx.request_repaint();
            }
        }

        let mut actions = Vec::new();
        egui::Panel::top("menu_bar").show(ui, |ui| {
            shell::menu::menu_bar_ui(ui, self, &mut actions);
        });
        egui::Panel::bottom("status_bar").show(ui, |ui| {
            shell::status::status_bar_ui(ui, self);
        });
        if let Some(banner) = shell::files::banner(self) {
            egui::Panel::top("banner").show(ui, |ui| {
                shell::files::banner_ui(ui, &banner, &mut actions);
            });
        }
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| {
                let focused = shell::dock::focused_tab(&mut self.dock);
                if let Some(tab) = focused.filter(Tab::is_document) {
                    self.inspected = Some(tab);
                }
                let style = egui_dock::Style::from_egui(ui.style().as_ref());
                let mut viewer = shell::viewer::Viewer {
                    doc: &mut self.doc,
                    preview: &mut self.preview,
                    views: &mut self.views,
                    inspected: self.inspected.clone(),
                    actions: &mut actions,
                };
                DockArea::new(&mut self.dock)
                    .style(style)
                    .show_leaf_collapse_buttons(false)
                    .show_inside(ui, &mut viewer);
            });
        for a in actions {
            self.perform(&ctx, a);
        }
        self.views
            .follow_renames(&self.doc, &mut self.dock, &mut self.inspected);
        self.preview.follow_renames(self.doc.rename_log());
        self.views
            .retain_open(&shell::dock::open_assets(&self.dock));

        shell::files::modals_ui(self, &ctx);
        shell::menu::help_windows_ui(self, &ctx);

        let title = self.window_title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        shell::files::persist(self, storage);
    }

    fn auto_save_interval(&self) -> std::time::Duration {
        std::time::Duration::from_secs(30)
    }
}
