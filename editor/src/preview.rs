//! The live 2D preview: world bounds, areas, objects and NPCs drawn with egui's painter.
//!
//! World coordinates have y pointing down, like the screen. The world is fitted to the panel
//! keeping its aspect ratio; the mouse wheel zooms around the pointer, dragging pans, and a
//! double click fits the world again.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, pos2, vec2};
use townsfolk_runtime::Session;
use townsfolk_runtime::pack::Shape as AreaShape;
use townsfolk_runtime::value::Vec2;
use townsfolk_runtime::world::NPC_RADIUS;

use crate::app::{Document, Motion};
use crate::panels;

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

/// The central panel: the world, or why it cannot run.
pub fn preview_ui(
    ui: &mut egui::Ui,
    doc: &Document,
    session: Option<&Session>,
    motion: &Motion,
    playing: bool,
    selected: &mut Option<String>,
    view: &mut View,
) {
    let Some(session) = session else {
        view.last_npcs.clear();
        let text = if doc.pack.is_none() {
            "This file could not be opened as a pack; see Diagnostics below.".to_string()
        } else if doc.errors > 0 {
            let s = if doc.errors == 1 { "" } else { "s" };
            format!(
                "The pack has {} error{s}; fix them to run the preview.",
                doc.errors
            )
        } else {
            "The preview could not start.".to_string()
        };
        ui.centered_and_justified(|ui| {
            ui.label(
                egui::RichText::new(format!("⊗  {text}"))
                    .size(18.0)
                    .color(panels::ERROR_COLOR),
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
                    let proto = townsfolk_runtime::world::areas::proto_of(d.id) as usize;
                    p.areas.get(proto).map(|a| {
                        (
                            proto,
                            a,
                            d.offset,
                            townsfolk_runtime::world::areas::area_name(p, d.id),
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

    // Static objects.
    for o in &p.objects {
        let c = x.to_screen(o.pos);
        let r = (o.radius as f32 * x.scale).max(3.0);
        let kind = p.sym(o.kind);
        let fill = match kind {
            "door" => Color32::from_rgb(150, 105, 60),
            "item" => Color32::from_rgb(220, 190, 80),
            _ => Color32::from_rgb(95, 105, 125),
        };
        painter.circle(c, r, fill, Stroke::new(1.0, Color32::from_gray(180)));
        painter.text(
            c + vec2(0.0, r + 2.0),
            Align2::CENTER_TOP,
            &o.id,
            small.clone(),
            Color32::from_gray(175),
        );
    }

    // NPCs: interpolated positions, target lines, bodies, labels, speech.
    let alpha = if playing { motion.alpha } else { 1.0 };
    let npc_r = (NPC_RADIUS as f32 * x.scale).max(6.0);
    view.last_npcs.clear();
    let mut drawn = Vec::with_capacity(w.pos.len());
    for (i, &cur) in w.pos.iter().enumerate() {
        let prev = motion.prev.get(i).copied().unwrap_or(cur);
        let at = prev + (cur - prev) * alpha;
        drawn.push(x.to_screen(at));
    }
    for (i, npc) in w.npcs.iter().enumerate() {
        let (Some(&s), Some(target), false) = (drawn.get(i), npc.target, npc.removed) else {
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
    let selected_idx = selected.as_deref().and_then(|id| p.npc_index(id));
    // Every NPC in the world, spawned copies (`rat#3`) included; removed ones are gone.
    for (i, npc) in w.npcs.iter().enumerate() {
        let Some(&s) = drawn.get(i) else { continue };
        if npc.removed {
            continue;
        }
        let name = w.npc_name(p, i as u32);
        let color = npc_color(i);
        if selected_idx == Some(i as u32) {
            painter.circle_filled(s, npc_r + 7.0, Color32::from_white_alpha(30));
            painter.circle_stroke(s, npc_r + 5.0, Stroke::new(2.0, Color32::WHITE));
        }
        painter.circle(s, npc_r, color, Stroke::new(1.5, Color32::from_gray(20)));
        painter.text(
            s + vec2(npc_r + 4.0, -npc_r - 2.0),
            Align2::LEFT_BOTTOM,
            &name,
            FontId::proportional(13.0),
            Color32::from_gray(235),
        );
        match npc.show {
            Some((true, text)) => speech_bubble(&painter, s, npc_r, p.sym(text)),
            Some((false, anim)) => {
                painter.text(
                    s + vec2(0.0, npc_r + 3.0),
                    Align2::CENTER_TOP,
                    format!("*{}*", p.sym(anim)),
                    FontId::proportional(12.0),
                    color,
                );
            }
            None => {}
        }
        view.last_npcs.push((name, s));
    }

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
        && nearest(at).is_some()
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
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
