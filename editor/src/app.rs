//! The editor application: the open document, the running preview session and the frame
//! loop (keyboard shortcuts, fixed-rate stepping, panel layout).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use egui::{Key, Modifiers, RichText};
use townsfolk_runtime::Session;
use townsfolk_runtime::pack::{Diagnostic, Loaded, Node, Pack};
use townsfolk_runtime::program;
use townsfolk_runtime::value::Vec2;

use crate::{DEFAULT_PACK, DEFAULT_PACK_LABEL, panels, preview};

/// Ticks run in one frame at most, so a slow frame never snowballs ("spiral of death").
const MAX_TICKS_PER_FRAME: u32 = 64;
/// Longest real time one frame may account for, in seconds.
const MAX_FRAME_DT: f64 = 0.1;
/// Seed used when the editor starts.
pub const DEFAULT_SEED: u64 = 1;

/// Preview speed: a multiple of real time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    X1,
    X2,
    X4,
    X8,
}

impl Speed {
    pub const ALL: [Speed; 4] = [Speed::X1, Speed::X2, Speed::X4, Speed::X8];
    pub fn factor(self) -> u32 {
        match self {
            Speed::X1 => 1,
            Speed::X2 => 2,
            Speed::X4 => 4,
            Speed::X8 => 8,
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Speed::X1 => "×1",
            Speed::X2 => "×2",
            Speed::X4 => "×4",
            Speed::X8 => "×8",
        }
    }
}

/// What the editor shows about one authored node (looked up by tree id and node id).
#[derive(Clone, Debug)]
pub(crate) struct NodeMeta {
    pub type_name: &'static str,
    pub name: Option<String>,
    pub comment: Option<String>,
}

/// The open pack and everything known about it.
pub(crate) struct Document {
    pub pack: Option<Pack>,
    pub diagnostics: Vec<Diagnostic>,
    /// Some item could not be read and is missing from `pack`.
    pub lossy: bool,
    /// The file it came from; `None` for the built-in sample.
    pub path: Option<PathBuf>,
    /// How the source is shown in the top bar.
    pub source_label: String,
    pub errors: usize,
    pub warnings: usize,
    /// Authored nodes by (tree id, node id).
    pub nodes: HashMap<(String, String), NodeMeta>,
}

impl Document {
    fn new(loaded: Loaded, path: Option<PathBuf>, source_label: String) -> Document {
        let errors = loaded.diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = loaded.diagnostics.len() - errors;
        let mut nodes = HashMap::new();
        if let Some(pack) = &loaded.pack {
            for tree in &pack.trees {
                index_nodes(&tree.id, &tree.root, &mut nodes);
            }
        }
        Document {
            pack: loaded.pack,
            diagnostics: loaded.diagnostics,
            lossy: loaded.lossy,
            path,
            source_label,
            errors,
            warnings,
            nodes,
        }
    }

    pub fn pack_name(&self) -> &str {
        self.pack.as_ref().map_or("(no pack)", |p| p.name.as_str())
    }

    pub fn node(&self, tree: &str, id: &str) -> Option<&NodeMeta> {
        // Allocation-free lookup would need a borrowed key type; trees are small and this
        // runs only for the inspected NPC.
        self.nodes.get(&(tree.to_string(), id.to_string()))
    }
}

fn index_nodes(tree: &str, node: &Node, out: &mut HashMap<(String, String), NodeMeta>) {
    out.insert(
        (tree.to_string(), node.id.clone()),
        NodeMeta {
            type_name: node.kind.type_name(),
            name: node.name.clone(),
            comment: node.comment.clone(),
        },
    );
    for child in &node.children {
        index_nodes(tree, child, out);
    }
}

/// Where NPCs were before the last tick and how far the frame is towards the next one, so
/// the preview can move them smoothly between fixed-step ticks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Motion {
    pub prev: Vec<Vec2>,
    /// 0 = at `prev`, 1 = at the current positions.
    pub alpha: f64,
}

/// The Townsfolk editor.
pub struct EditorApp {
    pub(crate) doc: Document,
    pub(crate) session: Option<Session>,
    playing: bool,
    speed: Speed,
    seed: u64,
    seed_text: String,
    /// Real time (scaled by speed) not yet turned into ticks.
    accumulator: f64,
    pub(crate) motion: Motion,
    /// Selected NPC, by id (survives reloads and resets).
    pub(crate) selected: Option<String>,
    pub(crate) view: preview::View,
    /// Title last sent to the window.
    title: String,
}

impl EditorApp {
    /// Opens the bundled sample pack.
    pub fn with_default_pack() -> EditorApp {
        EditorApp::from_text(DEFAULT_PACK, DEFAULT_PACK_LABEL)
    }

    /// Opens a pack given as text; `label` says where it came from.
    pub fn from_text(text: &str, label: &str) -> EditorApp {
        EditorApp::new(Document::new(
            program::load_str(text),
            None,
            label.to_string(),
        ))
    }

    /// Opens a pack file. Problems reading it become diagnostics; this never fails.
    pub fn from_file(path: &Path) -> EditorApp {
        EditorApp::new(load_document(path))
    }

    fn new(doc: Document) -> EditorApp {
        let mut app = EditorApp {
            doc,
            session: None,
            playing: true,
            speed: Speed::X1,
            seed: DEFAULT_SEED,
            seed_text: DEFAULT_SEED.to_string(),
            accumulator: 0.0,
            motion: Motion::default(),
            selected: None,
            view: preview::View::default(),
            title: String::new(),
        };
        app.title = app.window_title();
        app.reset();
        app.selected = app
            .doc
            .pack
            .as_ref()
            .and_then(|p| p.world.npcs.first())
            .map(|n| n.id.clone());
        app
    }

    /// Replaces the open pack with a file's.
    pub fn open(&mut self, path: &Path) {
        self.doc = load_document(path);
        self.view = preview::View::default();
        self.reset();
        let still_there = self.selected.as_ref().is_some_and(|id| {
            self.doc
                .pack
                .as_ref()
                .is_some_and(|p| p.world.npcs.iter().any(|n| &n.id == id))
        });
        if !still_there {
            self.selected = self
                .doc
                .pack
                .as_ref()
                .and_then(|p| p.world.npcs.first())
                .map(|n| n.id.clone());
        }
    }

    /// "Townsfolk — <pack name>".
    pub fn window_title(&self) -> String {
        format!("Townsfolk — {}", self.doc.pack_name())
    }

    /// Restarts the preview at tick 0 with the current seed (no session if the pack has
    /// errors).
    pub fn reset(&mut self) {
        self.accumulator = 0.0;
        self.session = match &self.doc.pack {
            Some(pack) if self.doc.errors == 0 => Session::from_pack(pack, self.seed).ok(),
            _ => None,
        };
        self.motion = Motion {
            prev: self
                .session
                .as_ref()
                .map(|s| s.world().pos.clone())
                .unwrap_or_default(),
            alpha: 1.0,
        };
    }

    /// Pauses and runs exactly one tick.
    pub fn step_once(&mut self) {
        self.playing = false;
        self.accumulator = 0.0;
        if let Some(s) = &mut self.session {
            s.step();
            self.motion = Motion {
                prev: s.world().pos.clone(),
                alpha: 1.0,
            };
        }
    }

    pub fn pack(&self) -> Option<&Pack> {
        self.doc.pack.as_ref()
    }
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.doc.diagnostics
    }
    pub fn error_count(&self) -> usize {
        self.doc.errors
    }
    /// The running preview, if the pack could start one.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }
    /// The preview's tick, if it runs.
    pub fn tick(&self) -> Option<u64> {
        self.session.as_ref().map(Session::tick)
    }
    pub fn is_playing(&self) -> bool {
        self.playing
    }
    pub fn set_playing(&mut self, playing: bool) {
        self.playing = playing;
    }
    pub fn speed(&self) -> Speed {
        self.speed
    }
    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Changes the seed and restarts the preview.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.seed_text = seed.to_string();
        self.reset();
    }
    /// The selected NPC's id.
    pub fn selected_npc(&self) -> Option<&str> {
        self.selected.as_deref()
    }
    pub fn select_npc(&mut self, id: Option<&str>) {
        self.selected = id.map(str::to_string);
    }
    /// Where the preview last drew an NPC, in screen points (for tests and tools).
    pub fn npc_screen_pos(&self, id: &str) -> Option<egui::Pos2> {
        self.view
            .last_npcs
            .iter()
            .find(|(n, _)| n == id)
            .map(|&(_, p)| p)
    }

    fn handle_keys(&mut self, ctx: &egui::Context) -> bool {
        let open = ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::O));
        if ctx.egui_wants_keyboard_input() {
            return open;
        }
        let (toggle, step, reset) = ctx.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::Space),
                i.consume_key(Modifiers::NONE, Key::Period)
                    | i.consume_key(Modifiers::NONE, Key::ArrowRight),
                i.consume_key(Modifiers::NONE, Key::R),
            )
        });
        if toggle {
            self.playing = !self.playing;
        }
        if step {
            self.step_once();
        }
        if reset {
            self.reset();
        }
        open
    }

    /// Runs the ticks due for this frame, at the pack's fixed rate times the speed.
    fn advance(&mut self, ctx: &egui::Context) {
        let Some(session) = &mut self.session else {
            return;
        };
        if !self.playing {
            self.accumulator = 0.0;
            self.motion.alpha = 1.0;
            return;
        }
        let frame_dt = f64::from(ctx.input(|i| i.stable_dt)).clamp(0.0, MAX_FRAME_DT);
        let tick_dt = session.program().dt.max(1e-4);
        self.accumulator += frame_dt * f64::from(self.speed.factor());
        let due = (self.accumulator / tick_dt).floor();
        let n = if due >= f64::from(MAX_TICKS_PER_FRAME) {
            self.accumulator = 0.0;
            MAX_TICKS_PER_FRAME
        } else {
            self.accumulator -= due * tick_dt;
            due as u32
        };
        if n > 0 {
            self.motion.prev.clone_from(&session.world().pos);
            for _ in 0..n {
                session.step();
            }
            if n > 1 {
                // Several ticks in one frame: interpolating only the last would jitter.
                self.motion.prev.clone_from(&session.world().pos);
            }
        }
        self.motion.alpha = (self.accumulator / tick_dt).clamp(0.0, 1.0);
        ctx.request_repaint();
    }

    fn open_dialog(&mut self) {
        let mut dialog = rfd::FileDialog::new()
            .set_title("Open a Townsfolk pack")
            .add_filter("Townsfolk pack", &["json"]);
        if let Some(dir) = self.doc.path.as_deref().and_then(Path::parent) {
            dialog = dialog.set_directory(dir);
        }
        if let Some(path) = dialog.pick_file() {
            self.open(&path);
        }
    }

    fn top_bar_ui(&mut self, ui: &mut egui::Ui) -> bool {
        let mut open = false;
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            ui.label(RichText::new("Townsfolk").strong().size(16.0));
            ui.separator();
            ui.label(RichText::new(self.doc.pack_name()).strong().size(16.0));
            let source = match &self.doc.path {
                Some(p) => p.display().to_string(),
                None => self.doc.source_label.clone(),
            };
            ui.label(RichText::new(source).weak().monospace());
            if self.doc.lossy {
                ui.label(RichText::new("⚠ partly read").color(panels::WARNING_COLOR))
                    .on_hover_text(
                        "Some items could not be read and are left out; see Diagnostics.",
                    );
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .button("📂 Open…")
                    .on_hover_text("Open a pack file (Ctrl+O)")
                    .clicked()
                {
                    open = true;
                }
            });
        });
        ui.add_space(2.0);
        ui.horizontal(|ui| {
            let running = self.session.is_some();
            ui.add_enabled_ui(running, |ui| {
                let (icon, tip) = if self.playing {
                    ("⏸ Pause", "Pause the preview (Space)")
                } else {
                    ("▶ Play", "Play the preview (Space)")
                };
                if ui.button(icon).on_hover_text(tip).clicked() {
                    self.playing = !self.playing;
                }
                if ui
                    .button("⏭ Step")
                    .on_hover_text("Pause and run one tick (. or →)")
                    .clicked()
                {
                    self.step_once();
                }
                if ui
                    .button("⟲ Reset")
                    .on_hover_text("Restart at tick 0 with this seed (R)")
                    .clicked()
                {
                    self.reset();
                }
                ui.separator();
                ui.label("Speed");
                for s in Speed::ALL {
                    ui.selectable_value(&mut self.speed, s, s.label())
                        .on_hover_text(format!("{} × real time", s.factor()));
                }
            });
            ui.separator();
            ui.label("Seed");
            let seed_ok = self.seed_text.trim().parse::<u64>().is_ok();
            let edit = egui::TextEdit::singleline(&mut self.seed_text)
                .desired_width(80.0)
                .text_color_opt((!seed_ok).then_some(panels::ERROR_COLOR));
            let r = ui
                .add(edit)
                .on_hover_text("Random seed of the preview (a whole number); changing it restarts");
            if r.changed()
                && let Ok(seed) = self.seed_text.trim().parse::<u64>()
                && seed != self.seed
            {
                self.seed = seed;
                self.reset();
            }
            ui.separator();
            match &self.session {
                Some(s) => {
                    let w = s.world();
                    let minutes = (w.hour * 60.0).floor() as i64;
                    ui.label(RichText::new(format!("tick {}", w.tick)).monospace())
                        .on_hover_text("Simulation ticks since the start");
                    ui.separator();
                    ui.label(
                        RichText::new(format!(
                            "day {}  {:02}:{:02}",
                            w.day,
                            minutes / 60,
                            minutes % 60
                        ))
                        .monospace(),
                    )
                    .on_hover_text("In-game clock");
                    ui.separator();
                    ui.label(RichText::new(format!("hash {:016x}", s.hash())).monospace())
                        .on_hover_text(
                            "Hash of the whole world state: the same pack, seed and tick always give the same hash",
                        );
                }
                None => {
                    ui.label(RichText::new("preview stopped").weak());
                }
            }
        });
        ui.add_space(2.0);
        open
    }
}

fn load_document(path: &Path) -> Document {
    Document::new(
        program::load_file(path),
        Some(path.to_path_buf()),
        path.display().to_string(),
    )
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let mut open = self.handle_keys(&ctx);
        self.advance(&ctx);

        egui::Panel::top("top_bar").show(ui, |ui| {
            open |= self.top_bar_ui(ui);
        });
        egui::Panel::bottom("diagnostics")
            .resizable(true)
            .default_size(120.0)
            .size_range(60.0..=600.0)
            .show(ui, |ui| {
                panels::diagnostics_ui(ui, &self.doc, self.session.as_ref());
            });
        egui::Panel::left("assets")
            .resizable(true)
            .default_size(270.0)
            .size_range(160.0..=600.0)
            .show(ui, |ui| {
                panels::assets_ui(ui, &self.doc, &mut self.selected);
            });
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(330.0)
            .size_range(200.0..=700.0)
            .show(ui, |ui| {
                panels::inspector_ui(
                    ui,
                    &self.doc,
                    self.session.as_ref(),
                    self.selected.as_deref(),
                );
            });
        egui::CentralPanel::default().show(ui, |ui| {
            preview::preview_ui(
                ui,
                &self.doc,
                self.session.as_ref(),
                &self.motion,
                self.playing,
                &mut self.selected,
                &mut self.view,
            );
        });

        if open {
            self.open_dialog();
        }
        let title = self.window_title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }
}
