//! Painting: node cards in full detail, plain boxes through one mesh when zoomed out, edges,
//! the edge being dragged, the rubber band and the background grid. Only what the caller found
//! visible is passed in.

use egui::epaint::{CornerRadius, CubicBezierShape};
use egui::text::{LayoutJob, TextWrapping};
use egui::{
    Align2, Color32, FontId, Mesh, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, Vec2, pos2, vec2,
};

use super::geometry::{PORT_RADIUS, Transform, bezier_at, edge_controls, port_pos};
use super::scene::{Flow, NodeView};

/// Below this zoom nodes are plain boxes without text or ports.
pub(crate) const LOD_ZOOM: f32 = 0.4;
/// Below this zoom (and above `LOD_ZOOM`) cards show their header only: body lines and port
/// labels would be too small to read.
const TEXT_ZOOM: f32 = 0.6;

/// Header strip height, in canvas units.
const HEADER: f32 = 22.0;
const PAD: f32 = 6.0;
const LINE: f32 = 15.0;
const TITLE_SIZE: f32 = 13.0;
const BODY_SIZE: f32 = 11.5;
const SMALL_SIZE: f32 = 10.5;

/// The red of problems (outline, LOD box rim).
pub(crate) const ERROR_RED: Color32 = Color32::from_rgb(230, 60, 60);
const BREAKPOINT_RED: Color32 = Color32::from_rgb(210, 40, 40);
const COMMENT_YELLOW: Color32 = Color32::from_rgb(235, 200, 80);

/// How one node is drawn this frame beyond its own data.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NodeLook {
    pub selected: bool,
    pub hovered: bool,
    /// The port under the pointer: (input?, index).
    pub hovered_port: Option<(bool, usize)>,
}

/// Colours derived from the theme once per frame.
pub(crate) struct Palette {
    pub background: Color32,
    pub grid: Color32,
    pub node_fill: Color32,
    pub node_stroke: Color32,
    pub text: Color32,
    pub weak_text: Color32,
    pub selection: Color32,
    pub selection_fill: Color32,
}

impl Palette {
    pub fn new(v: &egui::Visuals) -> Self {
        Palette {
            background: v.extreme_bg_color,
            grid: v.widgets.noninteractive.bg_stroke.color.gamma_multiply(0.5),
            node_fill: v.widgets.inactive.bg_fill,
            node_stroke: v.widgets.noninteractive.bg_stroke.color,
            text: v.text_color(),
            weak_text: v.weak_text_color(),
            selection: v.selection.stroke.color,
            selection_fill: v.selection.bg_fill,
        }
    }
}

/// Black or white, whichever reads better on `bg`.
fn text_on(bg: Color32) -> Color32 {
    let [r, g, b, _] = bg.to_array();
    let luma = 0.299 * r as f32 + 0.587 * g as f32 + 0.114 * b as f32;
    if luma > 150.0 {
        Color32::BLACK
    } else {
        Color32::WHITE
    }
}

fn fade(c: Color32, disabled: bool) -> Color32 {
    if disabled { c.gamma_multiply(0.45) } else { c }
}

/// One line of text cut with "…" to `width` screen points.
fn line_galley(
    painter: &Painter,
    text: &str,
    size: f32,
    color: Color32,
    width: f32,
) -> std::sync::Arc<egui::Galley> {
    let mut job = LayoutJob::simple_singleline(text.to_owned(), FontId::proportional(size), color);
    job.wrap = TextWrapping::truncate_at_width(width.max(1.0));
    painter.layout_job(job)
}

/// The background and, when zoomed in enough, grid lines every 100 canvas units.
pub(crate) fn paint_background(painter: &Painter, t: &Transform, pal: &Palette) {
    painter.rect_filled(t.rect, 0.0, pal.background);
    let step = 100.0;
    if t.zoom * step < 24.0 {
        return;
    }
    let vis = t.visible();
    let stroke = Stroke::new(1.0, pal.grid);
    let mut x = (vis.min.x / step).ceil() * step;
    while x <= vis.max.x {
        let sx = t.to_screen(pos2(x, 0.0)).x;
        painter.vline(sx, t.rect.y_range(), stroke);
        x += step;
    }
    let mut y = (vis.min.y / step).ceil() * step;
    while y <= vis.max.y {
        let sy = t.to_screen(pos2(0.0, y)).y;
        painter.hline(t.rect.x_range(), sy, stroke);
        y += step;
    }
}

/// One node card in full detail. `rect` is the node's canvas rect (offset while dragged).
pub(crate) fn paint_node<K>(
    painter: &Painter,
    t: &Transform,
    node: &NodeView<K>,
    rect: Rect,
    flow: Flow,
    look: NodeLook,
    pal: &Palette,
) {
    let z = t.zoom;
    let r = t.rect_to_screen(rect);
    let dis = node.disabled;
    let radius = CornerRadius::same((6.0 * z).clamp(0.0, 255.0) as u8);

    if let Some(status) = node.status {
        painter.rect_stroke(
            r.expand(4.0 * z),
            radius,
            Stroke::new(3.0 * z, status),
            StrokeKind::Outside,
        );
    }
    painter.rect_filled(r, radius, fade(pal.node_fill, dis));
    let header = Rect::from_min_max(r.min, pos2(r.max.x, (r.min.y + HEADER * z).min(r.max.y)));
    let hr = radius.nw;
    painter.rect_filled(
        header,
        CornerRadius {
            nw: hr,
            ne: hr,
            sw: 0,
            se: 0,
        },
        fade(node.color, dis),
    );

    // Outline: error red, else selection, else the plain stroke.
    let outline = if node.error.is_some() {
        Stroke::new(2.5 * z.max(0.6), ERROR_RED)
    } else if look.selected {
        Stroke::new(2.5 * z.max(0.6), pal.selection)
    } else if look.hovered {
        Stroke::new(1.5, pal.text.gamma_multiply(0.7))
    } else {
        Stroke::new(1.0, pal.node_stroke)
    };
    if dis {
        let pts = vec![
            r.left_top(),
            r.right_top(),
            r.right_bottom(),
            r.left_bottom(),
            r.left_top(),
        ];
        painter.extend(Shape::dashed_line(&pts, outline, 6.0 * z, 4.0 * z));
    } else {
        painter.rect_stroke(r, radius, outline, StrokeKind::Inside);
    }
    if look.selected && node.error.is_some() {
        painter.rect_stroke(
            r.expand(2.0),
            radius,
            Stroke::new(2.0, pal.selection),
            StrokeKind::Outside,
        );
    }

    // Header: icon, title, badge.
    let header_text = fade(text_on(node.color), dis);
    let mut title_right = r.max.x - PAD * z;
    if let Some(badge) = &node.badge {
        let g = line_galley(
            painter,
            badge,
            SMALL_SIZE * z,
            Color32::WHITE,
            r.width() * 0.5,
        );
        let size = g.size() + vec2(8.0 * z, 2.0 * z);
        let b = Rect::from_min_size(
            pos2(
                r.max.x - PAD * z * 0.5 - size.x,
                header.center().y - size.y * 0.5,
            ),
            size,
        );
        painter.rect_filled(b, size.y * 0.5, Color32::from_black_alpha(170));
        painter.galley(b.center() - g.size() * 0.5, g, Color32::WHITE);
        title_right = b.min.x - 3.0 * z;
    }
    let title = if node.icon.is_empty() {
        node.title.clone()
    } else {
        format!("{} {}", node.icon, node.title)
    };
    let x0 = r.min.x + PAD * z;
    let g = line_galley(
        painter,
        &title,
        TITLE_SIZE * z,
        header_text,
        title_right - x0,
    );
    painter.galley(
        pos2(x0, header.center().y - g.size().y * 0.5),
        g,
        header_text,
    );

    // Port labels take room on the sides (left-right) or at the bottom (top-down).
    let mut left = x0;
    let mut right = r.max.x - PAD * z;
    let mut bottom = r.max.y - 3.0 * z;
    let small_text = z >= TEXT_ZOOM;
    for (input, ports) in [(true, &node.inputs), (false, &node.outputs)] {
        for (i, port) in ports.iter().enumerate() {
            let Some(label) = port.label.as_ref().filter(|_| small_text) else {
                continue;
            };
            let p = t.to_screen(port_pos(rect, flow, input, i, ports.len()));
            let color = fade(pal.weak_text, dis);
            let g = line_galley(painter, label, SMALL_SIZE * z, color, r.width() * 0.4);
            let gs = g.size();
            let at = match (flow, input) {
                (Flow::LeftRight, true) => {
                    left = left.max(p.x + (PORT_RADIUS + 3.0) * z + gs.x + 4.0 * z);
                    pos2(p.x + (PORT_RADIUS + 3.0) * z, p.y - gs.y * 0.5)
                }
                (Flow::LeftRight, false) => {
                    right = right.min(p.x - (PORT_RADIUS + 3.0) * z - gs.x - 4.0 * z);
                    pos2(p.x - (PORT_RADIUS + 3.0) * z - gs.x, p.y - gs.y * 0.5)
                }
                (Flow::TopDown, true) => pos2(p.x + (PORT_RADIUS + 2.0) * z, p.y + 1.0 * z),
                (Flow::TopDown, false) => {
                    bottom = bottom.min(p.y - gs.y - 2.0 * z);
                    pos2(p.x - gs.x * 0.5, p.y - gs.y - (PORT_RADIUS - 2.0) * z)
                }
            };
            painter.galley(at, g, color);
        }
    }

    // Body: subtitle then the body lines, as many as fit.
    let mut y = header.max.y + 3.0 * z;
    let width = right - left;
    let lines = node
        .subtitle
        .iter()
        .map(|s| (s, true))
        .chain(node.body.iter().map(|s| (s, false)));
    for (text, strong) in lines {
        if !small_text || y + LINE * z > bottom + 1.0 || width <= 4.0 {
            break;
        }
        let color = fade(if strong { pal.text } else { pal.weak_text }, dis);
        let g = line_galley(painter, text, BODY_SIZE * z, color, width);
        painter.galley(pos2(left, y), g, color);
        y += LINE * z;
    }

    // Ports.
    for (input, ports) in [(true, &node.inputs), (false, &node.outputs)] {
        for (i, port) in ports.iter().enumerate() {
            let p = t.to_screen(port_pos(rect, flow, input, i, ports.len()));
            let hot = look.hovered_port == Some((input, i));
            let rad = PORT_RADIUS * z * if hot { 1.4 } else { 1.0 };
            painter.circle(
                p,
                rad,
                fade(port.color, dis),
                Stroke::new(1.0 * z.min(1.5), pal.background),
            );
        }
    }

    if node.comment {
        let s = 10.0 * z;
        let c = r.right_bottom();
        painter.add(Shape::convex_polygon(
            vec![pos2(c.x - s, c.y), pos2(c.x, c.y - s), c],
            fade(COMMENT_YELLOW, dis),
            Stroke::NONE,
        ));
    }
    if node.breakpoint {
        painter.circle(
            r.left_top(),
            6.0 * z,
            BREAKPOINT_RED,
            Stroke::new(1.5 * z, Color32::WHITE),
        );
    }
}

/// One edge in full detail: a curve from output `a` to input `b` (canvas units).
#[allow(clippy::too_many_arguments)]
pub(crate) fn paint_edge(
    painter: &Painter,
    t: &Transform,
    a: Pos2,
    b: Pos2,
    flow: Flow,
    color: Color32,
    label: Option<&str>,
    pal: &Palette,
) {
    let c = edge_controls(a, b, flow).map(|p| t.to_screen(p));
    let width = (2.0 * t.zoom).clamp(1.0, 4.0);
    painter.add(CubicBezierShape::from_points_stroke(
        c,
        false,
        Color32::TRANSPARENT,
        Stroke::new(width, color),
    ));
    if let Some(label) = label {
        let at = bezier_at(&c, 0.78);
        let g = line_galley(
            painter,
            label,
            SMALL_SIZE * t.zoom,
            pal.text,
            200.0 * t.zoom,
        );
        let rad = g.size().max_elem() * 0.5 + 3.0 * t.zoom;
        painter.circle(at, rad, pal.background, Stroke::new(1.0, color));
        painter.galley(at - g.size() * 0.5, g, pal.text);
    }
}

/// The edge being dragged out of a port, to the pointer.
pub(crate) fn paint_pending_edge(
    painter: &Painter,
    t: &Transform,
    from: Pos2,
    to: Pos2,
    from_input: bool,
    flow: Flow,
    pal: &Palette,
) {
    let (a, b) = if from_input { (to, from) } else { (from, to) };
    let c = edge_controls(a, b, flow).map(|p| t.to_screen(p));
    painter.add(CubicBezierShape::from_points_stroke(
        c,
        false,
        Color32::TRANSPARENT,
        Stroke::new(2.0, pal.selection),
    ));
}

/// The rubber band of a box selection (screen rect).
pub(crate) fn paint_box(painter: &Painter, r: Rect, pal: &Palette) {
    painter.rect(
        r,
        0.0,
        pal.selection_fill.gamma_multiply(0.25),
        Stroke::new(1.0, pal.selection),
        StrokeKind::Inside,
    );
}

/// The zoomed-out look: every visible node a plain box, every visible edge a thin line, all in
/// one mesh (no text, no per-node shapes).
pub(crate) struct LodMesh {
    mesh: Mesh,
}

impl LodMesh {
    pub fn new(nodes: usize, edges: usize) -> Self {
        let mut mesh = Mesh::default();
        mesh.reserve_vertices((nodes + edges) * 4);
        mesh.reserve_triangles((nodes + edges) * 2);
        LodMesh { mesh }
    }

    /// A node box (screen rect, at least one point wide), with a rim for selection, error or
    /// live status.
    pub fn node(&mut self, r: Rect, fill: Color32, rim: Option<Color32>) {
        let r = min_size(r, 1.0);
        if let Some(rim) = rim {
            self.mesh.add_colored_rect(
                r.expand((r.width().min(r.height()) * 0.15).clamp(1.0, 3.0)),
                rim,
            );
        }
        self.mesh.add_colored_rect(r, fill);
    }

    /// A straight line of `width` screen points.
    pub fn line(&mut self, a: Pos2, b: Pos2, width: f32, color: Color32) {
        let d = b - a;
        let len = d.length();
        if len < 0.25 {
            return;
        }
        let n = vec2(-d.y, d.x) / len * (width * 0.5);
        let i = self.mesh.vertices.len() as u32;
        for p in [a + n, b + n, b - n, a - n] {
            self.mesh.colored_vertex(p, color);
        }
        self.mesh.add_triangle(i, i + 1, i + 2);
        self.mesh.add_triangle(i, i + 2, i + 3);
    }

    /// An edge as a polyline through its curve (a single segment when it is short on screen).
    pub fn edge(&mut self, c: [Pos2; 4], color: Color32) {
        let len = (c[3] - c[0]).length();
        let steps = if len < 40.0 { 1 } else { 6 };
        let mut prev = c[0];
        for k in 1..=steps {
            let p = bezier_at(&c, k as f32 / steps as f32);
            self.line(prev, p, 1.0, color);
            prev = p;
        }
    }

    pub fn finish(self, painter: &Painter) {
        if !self.mesh.is_empty() {
            painter.add(Shape::mesh(self.mesh));
        }
    }
}

fn min_size(r: Rect, s: f32) -> Rect {
    let size = r.size().max(Vec2::splat(s));
    Rect::from_center_size(r.center(), size)
}

/// A small text box at the top-left of the canvas (e.g. "read only", or an empty scene).
pub(crate) fn paint_note(painter: &Painter, rect: Rect, text: &str, pal: &Palette) {
    painter.text(
        rect.left_top() + vec2(8.0, 8.0),
        Align2::LEFT_TOP,
        text,
        FontId::proportional(13.0),
        pal.weak_text,
    );
}
