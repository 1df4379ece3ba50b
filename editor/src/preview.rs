//! The live 2D preview: a running session of the open pack, stepped at the pack's fixed rate,
//! and its drawing (world bounds, areas, walls and doors, objects and NPCs) with egui's painter.
//!
//! World coordinates have y pointing down, like the screen. The world is fitted to the tab
//! keeping its aspect ratio; the mouse wheel zooms around the pointer, dragging pans, and a
//! double click fits the world again. NPC names are placed where they do not cover another
//! name; the rest show on hover.

use egui::{
    Align2, Color32, FontId, Pos2, Rect, RichText, Sense, Shape, Stroke, StrokeKind, pos2, vec2,
};
use std::collections::BTreeMap;
use std::sync::Arc;

use townsfolk_runtime::pack::{Pack, Shape as AreaShape};
use townsfolk_runtime::program::walls::NO_DOOR;
use townsfolk_runtime::value::Vec2;
use townsfolk_runtime::world::NPC_RADIUS;
use townsfolk_runtime::{Program, Session};

use crate::document::AssetKind;
use crate::shell::style;

mod labels;

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

/// Where NPCs were before the last tick and how far the frame is towards the next one, so
/// the preview can move them smoothly between fixed-step ticks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Motion {
    pub prev: Vec<Vec2>,
    /// 0 = at `prev`, 1 = at the current positions.
    pub alpha: f64,
}

/// Pan and zoom of the preview, and where NPCs were last drawn (for hit-testing).
#[derive(Clone, Debug)]
pub(crate) struct View {
    pub zoom: f32,
    pub pan: egui::Vec2,
    pub last_npcs: Vec<(String, Pos2)>,
}

impl Default for View {
    fn default() -> Self {
        View {
            zoom: 1.0,
            pan: egui::Vec2::ZERO,
            last_npcs: Vec::new(),
        }
    }
}

/// NPC ids of the running session as the document has them now: an NPC renamed since the
/// session started keeps running, and is labelled, selected and inspected by its new id
/// (the document's rename log is followed, undo and redo included).
#[derive(Clone, Debug, Default)]
pub(crate) struct NpcAliases {
    /// Session id → document id, for the renamed NPCs only.
    to_doc: BTreeMap<String, String>,
    /// Entries of the document's rename log already followed.
    seen: usize,
}

impl NpcAliases {
    /// How the session's NPC `id` is named in the document.
    pub fn shown<'a>(&'a self, id: &'a str) -> &'a str {
        self.to_doc.get(id).map_or(id, String::as_str)
    }

    /// A session name as shown: an NPC id, or a spawned copy's `id#3`.
    pub fn shown_name(&self, name: &str) -> String {
        match name.split_once('#') {
            Some((base, serial)) => format!("{}#{serial}", self.shown(base)),
            None => self.shown(name).to_string(),
        }
    }

    /// The session id of the NPC the document calls `id` (`None`: no NPC of the session
    /// has that name now, e.g. it was renamed away).
    pub fn session_id<'a>(&'a self, id: &'a str) -> Option<&'a str> {
        match self.to_doc.iter().find(|(_, d)| d.as_str() == id) {
            Some((s, _)) => Some(s),
            None => (!self.to_doc.contains_key(id)).then_some(id),
        }
    }

    /// Follows the rename log entries not seen yet; `in_session` says whether an id is an
    /// NPC of the session. Returns the NPC renames followed, as (old, new).
    fn follow(
        &mut self,
        log: &[(AssetKind, String, String)],
        in_session: impl Fn(&str) -> bool,
    ) -> Vec<(String, String)> {
        let seen = self.seen.min(log.len());
        let mut renamed = Vec::new();
        for (kind, old, new) in &log[seen..] {
            if *kind != AssetKind::Npc {
                continue;
            }
            if let Some(s) = self.session_id(old).filter(|s| in_session(s)) {
                let s = s.to_string();
                if s == *new {
                    self.to_doc.remove(&s);
                } else {
                    self.to_doc.insert(s, new.clone());
                }
            }
            renamed.push((old.clone(), new.clone()));
        }
        self.seen = log.len();
        renamed
    }
}

/// The running preview: its session, clock, speed, seed and selected NPC.
pub(crate) struct Preview {
    pub session: Option<Session>,
    pub playing: bool,
    pub speed: Speed,
    pub seed: u64,
    seed_text: String,
    /// Real time (scaled by speed) not yet turned into ticks.
    accumulator: f64,
    pub motion: Motion,
    /// Selected NPC, by id (survives restarts).
    pub selected: Option<String>,
    pub view: View,
    /// The document revision the session was built from (`None`: none built yet).
    pub built_from: Option<u64>,
    /// Why the session could not start (the pack has errors), shown in the tab.
    pub not_running: Option<String>,
    /// A program already compiled from the pack the next restart runs (the load's checks
    /// built it): taken by [`Preview::restart`] instead of compiling the pack again.
    prebuilt: Option<Arc<Program>>,
    /// The session's NPC ids as the document names them now.
    pub aliases: NpcAliases,
    /// The world hash the toolbar shows and the tick it is of: hashing a town of 10,000
    /// NPCs takes milliseconds, and a tick lasts several frames. Only a tick changes the
    /// world here (`restart` drops it with the session).
    shown_hash: Option<(u64, u64)>,
}

impl Preview {
    pub fn new() -> Preview {
        Preview {
            session: None,
            playing: true,
            speed: Speed::X1,
            seed: DEFAULT_SEED,
            seed_text: DEFAULT_SEED.to_string(),
            accumulator: 0.0,
            motion: Motion::default(),
            selected: None,
            view: View::default(),
            built_from: None,
            not_running: None,
            prebuilt: None,
            aliases: NpcAliases::default(),
            shown_hash: None,
        }
    }

    /// The session's world hash (see `shown_hash`).
    fn world_hash(&mut self) -> Option<u64> {
        let s = self.session.as_ref()?;
        let tick = s.world().tick;
        match self.shown_hash {
            Some((t, h)) if t == tick => Some(h),
            _ => {
                let h = s.hash();
                self.shown_hash = Some((tick, h));
                Some(h)
            }
        }
    }

    /// Follows the NPC renames of the document's rename log since the last call (or the
    /// last restart): the running session keeps going, showing the new ids, and the
    /// selection follows its NPC.
    pub fn follow_renames(&mut self, log: &[(AssetKind, String, String)]) {
        let session = self.session.as_ref();
        let in_session = |id: &str| session.is_some_and(|s| s.program().npc_index(id).is_some());
        for (old, new) in self.aliases.follow(log, in_session) {
            if self.selected.as_deref() == Some(old.as_str()) {
                self.selected = Some(new);
            }
        }
    }

    /// The session was just built from the document with `renames` entries in its rename
    /// log: its ids are the document's, and only later renames are followed.
    pub fn renames_followed_up_to(&mut self, renames: usize) {
        self.aliases = NpcAliases {
            to_doc: BTreeMap::new(),
            seen: renames,
        };
    }

    /// Makes the next [`Preview::restart`] run `program`, which must be `pack` compiled
    /// without errors (`program::load_file_built` gives it), instead of compiling the pack.
    pub fn offer_program(&mut self, program: Option<Arc<Program>>) {
        self.prebuilt = program;
    }

    /// Restarts at tick 0 with the current seed on `pack` (no session while it has errors).
    /// Keeps the selected NPC if it still exists, else selects the first.
    pub fn restart(&mut self, pack: &Pack, revision: u64) {
        self.accumulator = 0.0;
        self.built_from = Some(revision);
        self.not_running = None;
        self.shown_hash = None;
        let started = match self.prebuilt.take() {
            Some(program) => Ok(Session::new(program, self.seed)),
            None => Session::from_pack(pack, self.seed),
        };
        self.session = match started {
            Ok(s) => Some(s),
            Err(diags) => {
                let errors = diags.iter().filter(|d| d.is_error()).count();
                let s = if errors == 1 { "" } else { "s" };
                self.not_running = Some(format!(
                    "The pack has {errors} error{s}; fix them to run the preview."
                ));
                None
            }
        };
        self.motion = Motion {
            prev: self
                .session
                .as_ref()
                .map(|s| s.world().positions().to_vec())
                .unwrap_or_default(),
            alpha: 1.0,
        };
        let still_there = self
            .selected
            .as_ref()
            .is_some_and(|id| pack.world.npcs.iter().any(|n| &n.id == id));
        if !still_there {
            self.selected = pack.world.npcs.first().map(|n| n.id.clone());
        }
    }

    /// Pauses and runs exactly one tick.
    pub fn step_once(&mut self) {
        self.playing = false;
        self.accumulator = 0.0;
        if let Some(s) = &mut self.session {
            s.step();
            self.motion = Motion {
                prev: s.world().positions().to_vec(),
                alpha: 1.0,
            };
        }
    }

    /// Changes the seed (the caller restarts).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.seed_text = seed.to_string();
    }

    /// Runs the ticks due for `frame_dt` seconds of real time, at the pack's fixed rate times
    /// the speed. Returns whether the preview is running (and so wants another frame).
    pub fn advance(&mut self, frame_dt: f64) -> bool {
        let Some(session) = &mut self.session else {
            return false;
        };
        if !self.playing {
            self.accumulator = 0.0;
            self.motion.alpha = 1.0;
            return false;
        }
        let frame_dt = frame_dt.clamp(0.0, MAX_FRAME_DT);
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
            self.motion.prev.clear();
            self.motion
                .prev
                .extend_from_slice(session.world().positions());
            for _ in 0..n {
                session.step();
            }
            if n > 1 {
                // Several ticks in one frame: interpolating only the last would jitter.
                self.motion.prev.clear();
                self.motion
                    .prev
                    .extend_from_slice(session.world().positions());
            }
        }
        self.motion.alpha = (self.accumulator / tick_dt).clamp(0.0, 1.0);
        true
    }
}

/// What the preview tab asks of the app after a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PreviewOutput {
    /// Restart on the document's current pack (the Restart button, or a new seed).
    pub restart: bool,
}

/// The preview tab: its toolbar (play, step, restart, speed, seed, clock, hash) and the world.
/// `stale` says the document changed since the session was built.
pub(crate) fn preview_tab_ui(
    ui: &mut egui::Ui,
    preview: &mut Preview,
    stale: bool,
) -> PreviewOutput {
    let mut out = PreviewOutput::default();
    toolbar_ui(ui, preview, stale, &mut out);
    ui.separator();
    world_ui(ui, preview);
    out
}

fn toolbar_ui(ui: &mut egui::Ui, preview: &mut Preview, stale: bool, out: &mut PreviewOutput) {
    use crate::shortcuts::{Command, text};
    let ctx = ui.ctx().clone();
    ui.horizontal_wrapped(|ui| {
        let running = preview.session.is_some();
        ui.add_enabled_ui(running, |ui| {
            let (icon, tip) = if preview.playing {
                ("⏸ Pause", "Pause the preview")
            } else {
                ("▶ Play", "Play the preview")
            };
            let tip = format!("{tip} ({})", text(&ctx, Command::PlayPause));
            if ui.button(icon).on_hover_text(tip).clicked() {
                preview.playing = !preview.playing;
            }
            if ui
                .button("⏭ Step")
                .on_hover_text(format!(
                    "Pause and run one tick ({})",
                    text(&ctx, Command::StepTick)
                ))
                .clicked()
            {
                preview.step_once();
            }
        });
        let restart_label = if stale { "⟲ Restart with edits" } else { "⟲ Restart" };
        if ui
            .button(restart_label)
            .on_hover_text(format!(
                "Restart at tick 0 with this seed on the pack as it is now ({})",
                text(&ctx, Command::Restart)
            ))
            .clicked()
        {
            out.restart = true;
        }
        ui.separator();
        ui.add_enabled_ui(running, |ui| {
            ui.label("Speed");
            for s in Speed::ALL {
                ui.selectable_value(&mut preview.speed, s, s.label())
                    .on_hover_text(format!("{} × real time", s.factor()));
            }
        });
        ui.separator();
        ui.label("Seed");
        let seed_ok = preview.seed_text.trim().parse::<u64>().is_ok();
        let edit = egui::TextEdit::singleline(&mut preview.seed_text)
            .desired_width(80.0)
            .text_color_opt((!seed_ok).then_some(style::ERROR_COLOR));
        let r = ui
            .add(edit)
            .on_hover_text("Random seed of the preview (a whole number); changing it restarts");
        if r.changed()
            && let Ok(seed) = preview.seed_text.trim().parse::<u64>()
            && seed != preview.seed
        {
            preview.seed = seed;
            out.restart = true;
        }
        ui.separator();
        let hash = preview.world_hash();
        match (&preview.session, hash) {
            (Some(s), Some(hash)) => {
                let w = s.world();
                let minutes = (w.hour * 60.0).floor() as i64;
                // Each on one line: at a large UI scale the toolbar wraps between them.
                let one_line = |text: String| {
                    egui::Label::new(RichText::new(text).monospace()).extend()
                };
                ui.add(one_line(format!("tick {}", w.tick)))
                    .on_hover_text("Simulation ticks since the start");
                ui.add(one_line(format!(
                    "day {}  {:02}:{:02}",
                    w.day,
                    minutes / 60,
                    minutes % 60
                )))
                .on_hover_text("In-game clock");
                ui.add(one_line(format!("hash {hash:016x}")))
                    .on_hover_text(
                        "Hash of the whole world state: the same pack, seed and tick always give the same hash",
                    );
            }
            _ => {
                ui.label(RichText::new("preview stopped").weak());
            }
        }
        if stale && running {
            ui.horizontal(|ui| {
                style::dot_label_ui(
                    ui,
                    RichText::new("pack edited since start").small(),
                    style::WARNING_COLOR,
                )
            })
            .inner
            .on_hover_text("The preview runs the pack as it was when it started; Restart to run the edits.");
        }
    });
}

const NPC_PALETTE: [Color32; 8] = [
    Color32::from_rgb(80, 160, 255),
    Color32::from_rgb(255, 120, 80),
    Color32::from_rgb(120, 220, 110),
    Color32::from_rgb(230, 110, 220),
    Color32::from_rgb(255, 210, 70),
    Color32::from_rgb(90, 220, 220),
    Color32::from_rgb(250, 150, 170),
    Color32::from_rgb(180, 150, 255),
];

const AREA_PALETTE: [Color32; 6] = [
    Color32::from_rgb(90, 140, 220),
    Color32::from_rgb(200, 150, 80),
    Color32::from_rgb(110, 190, 120),
    Color32::from_rgb(190, 110, 190),
    Color32::from_rgb(90, 190, 190),
    Color32::from_rgb(200, 100, 100),
];

/// The colour of the NPC with this index (the same in the preview, lists and inspector).
pub(crate) fn npc_color(i: usize) -> Color32 {
    NPC_PALETTE[i % NPC_PALETTE.len()]
}

/// World → screen mapping.
#[derive(Clone, Copy)]
struct Xform {
    center_world: Vec2,
    center_screen: Pos2,
    scale: f32,
}

impl Xform {
    fn to_screen(self, p: Vec2) -> Pos2 {
        pos2(
            self.center_screen.x + (p.x - self.center_world.x) as f32 * self.scale,
            self.center_screen.y + (p.y - self.center_world.y) as f32 * self.scale,
        )
    }
}

/// The world, or why it cannot run.
fn world_ui(ui: &mut egui::Ui, preview: &mut Preview) {
    let Preview {
        session,
        motion,
        playing,
        selected,
        view,
        not_running,
        aliases,
        ..
    } = preview;
    let playing = *playing;
    let Some(session) = session.as_ref() else {
        view.last_npcs.clear();
        let text = not_running
            .clone()
            .unwrap_or_else(|| "The preview is not running.".to_string());
        ui.centered_and_justified(|ui| {
            ui.label(
                RichText::new(format!("⊗  {text}"))
                    .size(18.0)
                    .color(style::ERROR_COLOR),
            );
        });
        return;
    };
    let p = session.program();
    let w = session.world();

    let (resp, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    let rect = resp.rect;
    painter.rect_filled(rect, 0.0, Color32::from_rgb(24, 26, 30));

    // Navigation.
    if resp.hovered() {
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = (scroll * 0.002).exp() * pinch;
        if (factor - 1.0).abs() > 1e-4 {
            let new_zoom = (view.zoom * factor).clamp(0.2, 40.0);
            let f = new_zoom / view.zoom;
            if let Some(ptr) = resp.hover_pos() {
                let rel = ptr - rect.center();
                view.pan = rel - (rel - view.pan) * f;
            }
            view.zoom = new_zoom;
        }
    }
    if resp.dragged() {
        view.pan += resp.drag_delta();
    }
    if resp.double_clicked() {
        view.zoom = 1.0;
        view.pan = egui::Vec2::ZERO;
    }

    let b = p.bounds;
    let ww = (b.max.x - b.min.x).max(1e-6) as f32;
    let wh = (b.max.y - b.min.y).max(1e-6) as f32;
    let avail = rect.shrink(28.0);
    let fit = (avail.width() / ww).min(avail.height() / wh).max(1e-3);
    let x = Xform {
        center_world: Vec2::new((b.min.x + b.max.x) * 0.5, (b.min.y + b.max.y) * 0.5),
        center_screen: rect.center() + view.pan,
        scale: fit * view.zoom,
    };
    let painter = painter.with_clip_rect(rect);

    // Bounds and grid.
    let world_rect = Rect::from_two_pos(
        x.to_screen(Vec2::new(b.min.x, b.min.y)),
        x.to_screen(Vec2::new(b.max.x, b.max.y)),
    );
    painter.rect_filled(world_rect, 2.0, Color32::from_rgb(38, 42, 48));
    grid_ui(&painter, x, b, world_rect);
    painter.rect_stroke(
        world_rect,
        2.0,
        Stroke::new(1.5, Color32::from_gray(110)),
        StrokeKind::Outside,
    );

    let small = FontId::proportional(12.0);

    // Areas: the static ones that exist (not dynamic prototypes), then the dynamic copies
    // placed at run time (a crime scene, …), drawn where they were placed.
    let placed = p
        .areas
        .iter()
        .enumerate()
        .filter(|(i, _)| w.areas.get(*i).is_some_and(|s| s.alive))
        .map(|(i, a)| (i, a, Vec2::ZERO, a.id.clone()))
        .chain(
            w.dyn_areas
                .iter()
                .filter(|d| d.state.alive)
                .filter_map(|d| {
                    let proto = townsfolk_runtime::program::areas::proto_of(d.id) as usize;
                    p.areas.get(proto).map(|a| {
                        (
                            proto,
                            a,
                            d.offset,
                            townsfolk_runtime::program::areas::area_name(p, d.id),
                        )
                    })
                }),
        );
    for (i, a, offset, label) in placed {
        let base = AREA_PALETTE[i % AREA_PALETTE.len()];
        let fill = base.gamma_multiply(0.18);
        let stroke = Stroke::new(1.5, base.gamma_multiply(0.8));
        match &a.shape {
            AreaShape::Rect(r) => {
                let min = Vec2::from(r.min) + offset;
                let max = Vec2::from(r.max) + offset;
                let sr = Rect::from_two_pos(x.to_screen(min), x.to_screen(max));
                painter.rect_filled(sr, 3.0, fill);
                painter.rect_stroke(sr, 3.0, stroke, StrokeKind::Inside);
            }
            AreaShape::Polygon(pts) => {
                let sp: Vec<Pos2> = pts
                    .iter()
                    .map(|&q| x.to_screen(Vec2::from(q) + offset))
                    .collect();
                // egui fills convex polygons; a concave one is still outlined correctly.
                painter.add(Shape::convex_polygon(sp.clone(), fill, Stroke::NONE));
                painter.add(Shape::closed_line(sp, stroke));
            }
        }
        let corner = x.to_screen(Vec2::new(a.bbox.min.x, a.bbox.min.y) + offset);
        painter.text(
            corner + vec2(5.0, 4.0),
            Align2::LEFT_TOP,
            label,
            FontId::proportional(13.0),
            base.gamma_multiply(1.2),
        );
    }

    walls_ui(&painter, x, p, w);

    // Static objects. Their labels, and the NPCs' animation texts, are kept clear of the
    // NPCs' names.
    let mut obstacles = Vec::with_capacity(p.objects.len());
    for (oi, o) in p.objects.iter().enumerate() {
        // A wall's door is drawn by `walls_ui`, by its state.
        if p.walls.door_of_object(oi as u32).is_some() {
            continue;
        }
        let c = x.to_screen(o.pos);
        let r = (o.radius as f32 * x.scale).max(3.0);
        let kind = p.sym(o.kind);
        let fill = match kind {
            "door" => Color32::from_rgb(150, 105, 60),
            "item" => Color32::from_rgb(220, 190, 80),
            _ => Color32::from_rgb(95, 105, 125),
        };
        painter.circle(c, r, fill, Stroke::new(1.0, Color32::from_gray(180)));
        obstacles.push(painter.text(
            c + vec2(0.0, r + 2.0),
            Align2::CENTER_TOP,
            &o.id,
            small.clone(),
            Color32::from_gray(175),
        ));
    }

    // NPCs: interpolated positions, target lines, bodies, labels, speech.
    let alpha = if playing { motion.alpha } else { 1.0 };
    let npc_r = (NPC_RADIUS as f32 * x.scale).max(6.0);
    view.last_npcs.clear();
    let mut drawn = Vec::with_capacity(w.positions().len());
    for (i, &cur) in w.positions().iter().enumerate() {
        let prev = motion.prev.get(i).copied().unwrap_or(cur);
        let at = prev + (cur - prev) * alpha;
        drawn.push(x.to_screen(at));
    }
    for (i, npc) in w.npcs.iter().enumerate() {
        let (Some(&s), Some(target), false) = (drawn.get(i), w.target(i), npc.removed()) else {
            continue;
        };
        let t = x.to_screen(target);
        let color = npc_color(i).gamma_multiply(0.6);
        painter.extend(Shape::dashed_line(
            &[s, t],
            Stroke::new(1.2, color),
            6.0,
            4.0,
        ));
        let d = 4.0;
        painter.line_segment([t + vec2(-d, -d), t + vec2(d, d)], Stroke::new(1.5, color));
        painter.line_segment([t + vec2(-d, d), t + vec2(d, -d)], Stroke::new(1.5, color));
    }
    let selected_idx = selected
        .as_deref()
        .and_then(|id| aliases.session_id(id))
        .and_then(|id| p.npc_index(id));
    // Every NPC in the world, spawned copies (`rat#3`) included; removed ones are gone. Names
    // are shown as the document has them (an NPC renamed since the start keeps running).
    let mut marks = Vec::with_capacity(w.npcs.len());
    for (i, npc) in w.npcs.iter().enumerate() {
        let Some(&s) = drawn.get(i) else { continue };
        if npc.removed() {
            continue;
        }
        let name = aliases.shown_name(&w.npc_name(p, i as u32));
        let color = npc_color(i);
        let is_selected = selected_idx == Some(i as u32);
        if is_selected {
            painter.circle_filled(s, npc_r + 7.0, Color32::from_white_alpha(30));
            painter.circle_stroke(s, npc_r + 5.0, Stroke::new(2.0, Color32::WHITE));
        }
        painter.circle(s, npc_r, color, Stroke::new(1.5, Color32::from_gray(20)));
        let mut anim = None;
        match npc.show {
            Some((true, text)) => speech_bubble(&painter, s, npc_r, p.sym(text)),
            Some((false, a)) => anim = Some(format!("*{}*", p.sym(a))),
            None => {}
        }
        view.last_npcs.push((name.clone(), s));
        marks.push(labels::NpcMark {
            at: s,
            name,
            color,
            anim,
            selected: is_selected,
        });
    }
    let label_font = FontId::proportional(13.0);
    let hidden = labels::draw(&painter, &marks, npc_r, &obstacles, &label_font).hidden(&marks);

    // Picking.
    let nearest = |at: Pos2| {
        view.last_npcs
            .iter()
            .map(|(id, s)| (id, s.distance(at)))
            .filter(|&(_, d)| d <= npc_r + 8.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id.clone())
    };
    if resp.clicked()
        && let Some(at) = resp.interact_pointer_pos()
    {
        *selected = nearest(at);
    }
    if let Some(at) = resp.hover_pos()
        && let Some(id) = nearest(at)
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
        if hidden.contains(&id) {
            // Its name had no room: show it by the pointer.
            painter.text(
                at + vec2(12.0, -12.0),
                Align2::LEFT_BOTTOM,
                &id,
                label_font.clone(),
                Color32::WHITE,
            );
        }
    }

    // Overlays.
    let hint = "wheel: zoom · drag: pan · double-click: fit · click an NPC to inspect it";
    painter.text(
        rect.left_bottom() + vec2(8.0, -6.0),
        Align2::LEFT_BOTTOM,
        hint,
        small,
        Color32::from_gray(120),
    );
    if !playing {
        painter.text(
            rect.left_top() + vec2(10.0, 8.0),
            Align2::LEFT_TOP,
            "⏸ paused",
            FontId::proportional(15.0),
            Color32::from_rgb(255, 191, 0),
        );
    }
}

/// Walls (solid insides shaded) and their doors by state: open (a thin green line, the
/// opening's ends marked), closed (a thick brown bar), locked (a thick red bar); a door's id
/// beside it once zoomed in far enough to read it without covering the buildings' names.
fn walls_ui(painter: &egui::Painter, x: Xform, p: &Program, w: &townsfolk_runtime::world::World) {
    let walls = &p.walls;
    let wall = Stroke::new((0.25 * x.scale).max(2.5), Color32::from_rgb(200, 196, 186));
    for info in &walls.walls {
        if info.solid {
            let sp: Vec<Pos2> = info.points.iter().map(|&q| x.to_screen(q)).collect();
            painter.add(Shape::convex_polygon(
                sp,
                Color32::from_rgb(120, 116, 108),
                Stroke::NONE,
            ));
        }
    }
    for s in walls.segs.iter().filter(|s| s.door == NO_DOOR) {
        painter.line_segment([x.to_screen(s.a), x.to_screen(s.b)], wall);
    }
    for d in &walls.doors {
        let (a, b) = (x.to_screen(d.a), x.to_screen(d.b));
        let state = w.objects.get(d.object as usize);
        let thick = (0.3 * x.scale).max(3.5);
        match state {
            Some(o) if o.open => {
                painter.line_segment([a, b], Stroke::new(1.5, Color32::from_rgb(110, 200, 120)));
                for end in [a, b] {
                    painter.circle_filled(end, 2.5, Color32::from_rgb(110, 200, 120));
                }
            }
            Some(o) if o.locked => {
                painter.line_segment([a, b], Stroke::new(thick, Color32::from_rgb(215, 70, 60)));
            }
            _ => {
                painter.line_segment([a, b], Stroke::new(thick, Color32::from_rgb(165, 110, 55)));
            }
        }
        if x.scale > 14.0
            && let Some(o) = p.objects.get(d.object as usize)
        {
            painter.text(
                x.to_screen(o.pos) + vec2(0.0, thick),
                Align2::CENTER_TOP,
                &o.id,
                FontId::proportional(11.0),
                Color32::from_gray(160),
            );
        }
    }
}

/// Light grid lines every 1, 2, 5, 10, … world units, at least ~40 px apart.
fn grid_ui(painter: &egui::Painter, x: Xform, b: townsfolk_runtime::pack::Rect, world: Rect) {
    let mut step = 1.0_f64;
    for s in [
        1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 1e4, 1e5, 1e6,
    ] {
        step = s;
        if s as f32 * x.scale >= 40.0 {
            break;
        }
    }
    let stroke = Stroke::new(1.0, Color32::from_rgb(48, 53, 60));
    let mut gx = (b.min.x / step).ceil() * step;
    let mut lines = 0;
    while gx <= b.max.x && lines < 2000 {
        let sx = x.to_screen(Vec2::new(gx, b.min.y)).x;
        painter.vline(sx, world.y_range(), stroke);
        gx += step;
        lines += 1;
    }
    let mut gy = (b.min.y / step).ceil() * step;
    while gy <= b.max.y && lines < 4000 {
        let sy = x.to_screen(Vec2::new(b.min.x, gy)).y;
        painter.hline(world.x_range(), sy, stroke);
        gy += step;
        lines += 1;
    }
}

/// A rounded bubble with the line above the NPC's head.
fn speech_bubble(painter: &egui::Painter, at: Pos2, npc_r: f32, text: &str) {
    let galley = painter.layout(
        text.to_string(),
        FontId::proportional(13.0),
        Color32::from_gray(20),
        180.0,
    );
    let pad = vec2(7.0, 4.0);
    let size = galley.size() + pad * 2.0;
    let bottom = at + vec2(0.0, -npc_r - 12.0);
    let rect = Rect::from_min_size(pos2(bottom.x - size.x * 0.5, bottom.y - size.y), size);
    let fill = Color32::from_rgb(250, 248, 235);
    painter.add(Shape::convex_polygon(
        vec![
            pos2(bottom.x - 5.0, bottom.y - 1.0),
            pos2(bottom.x + 5.0, bottom.y - 1.0),
            pos2(bottom.x, bottom.y + 7.0),
        ],
        fill,
        Stroke::NONE,
    ));
    painter.rect_filled(rect, 6.0, fill);
    painter.rect_stroke(
        rect,
        6.0,
        Stroke::new(1.0, Color32::from_gray(90)),
        StrokeKind::Inside,
    );
    painter.galley(rect.min + pad, galley, Color32::from_gray(20));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(p: &mut Preview, ticks: u32) -> u64 {
        for _ in 0..ticks {
            p.step_once();
        }
        p.session.as_ref().map_or(0, Session::hash)
    }

    /// A restart on the program the load built runs exactly as one that compiles the pack,
    /// and the offered program is used once (the next restart compiles again).
    #[test]
    fn offered_program_runs_like_a_compiled_one() {
        let (loaded, program) = townsfolk_runtime::program::load_str_built(crate::DEFAULT_PACK);
        let pack = loaded.pack.expect("the bundled pack reads");
        let program = Arc::new(program.expect("the bundled pack has no errors"));

        let mut compiled = Preview::new();
        compiled.restart(&pack, 0);
        let expected = run(&mut compiled, 200);

        let mut offered = Preview::new();
        offered.offer_program(Some(program.clone()));
        offered.restart(&pack, 0);
        let session = offered.session.as_ref().expect("runs");
        assert!(Arc::ptr_eq(session.program(), &program));
        assert_eq!(run(&mut offered, 200), expected);

        offered.restart(&pack, 1);
        let session = offered.session.as_ref().expect("runs");
        assert!(!Arc::ptr_eq(session.program(), &program));
        assert_eq!(run(&mut offered, 200), expected);
    }

    /// A pack with errors gives no program to offer, and the preview says why it stopped.
    #[test]
    fn no_program_for_a_pack_with_errors() {
        let text = crate::DEFAULT_PACK.replacen("\"tree\": \"", "\"tree\": \"missing_", 1);
        let (loaded, program) = townsfolk_runtime::program::load_str_built(&text);
        assert!(loaded.has_errors());
        assert!(program.is_none());
        let mut p = Preview::new();
        p.offer_program(program.map(Arc::new));
        p.restart(&loaded.pack.expect("reads"), 0);
        assert!(p.session.is_none());
        assert!(p.not_running.is_some());
    }
}
