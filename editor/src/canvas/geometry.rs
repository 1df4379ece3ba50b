//! Geometry shared by painting and hit testing: the canvas ↔ screen transform, port positions,
//! edge curves.

use egui::{Pos2, Rect, Vec2, pos2, vec2};

use super::scene::Flow;

/// Port dot radius, in canvas units.
pub(crate) const PORT_RADIUS: f32 = 5.0;

/// Where the canvas is shown on screen: `screen = rect.center() + (canvas - center) * zoom`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Transform {
    pub rect: Rect,
    pub center: Pos2,
    pub zoom: f32,
}

impl Transform {
    pub fn to_screen(self, p: Pos2) -> Pos2 {
        self.rect.center() + (p - self.center) * self.zoom
    }

    pub fn to_canvas(self, s: Pos2) -> Pos2 {
        self.center + (s - self.rect.center()) / self.zoom
    }

    pub fn rect_to_screen(self, r: Rect) -> Rect {
        Rect::from_min_max(self.to_screen(r.min), self.to_screen(r.max))
    }

    /// The part of the canvas that is on screen.
    pub fn visible(self) -> Rect {
        Rect::from_min_max(self.to_canvas(self.rect.min), self.to_canvas(self.rect.max))
    }
}

/// The position (canvas units) of port `i` of `n` on one side of a node.
pub(crate) fn port_pos(rect: Rect, flow: Flow, input: bool, i: usize, n: usize) -> Pos2 {
    let n = n.max(1);
    let t = (i.min(n - 1) as f32 + 0.5) / n as f32;
    match (flow, input) {
        (Flow::TopDown, true) => pos2(rect.left() + t * rect.width(), rect.top()),
        (Flow::TopDown, false) => pos2(rect.left() + t * rect.width(), rect.bottom()),
        (Flow::LeftRight, true) => pos2(rect.left(), rect.top() + t * rect.height()),
        (Flow::LeftRight, false) => pos2(rect.right(), rect.top() + t * rect.height()),
    }
}

/// The four control points of the cubic curve of an edge from output `a` to input `b`.
pub(crate) fn edge_controls(a: Pos2, b: Pos2, flow: Flow) -> [Pos2; 4] {
    let dir = match flow {
        Flow::TopDown => vec2(0.0, 1.0),
        Flow::LeftRight => vec2(1.0, 0.0),
    };
    let along = (b - a).dot(dir);
    // Forward edges bend by half their length; backward ones loop out further.
    let d = if along > 0.0 {
        (along * 0.5).max(20.0)
    } else {
        40.0 + along.abs() * 0.25
    };
    [a, a + dir * d, b - dir * d, b]
}

/// A rect containing the whole curve (the hull of its control points, plus the port dots).
pub(crate) fn edge_hull(a: Pos2, b: Pos2, flow: Flow) -> Rect {
    let c = edge_controls(a, b, flow);
    Rect::from_points(&c).expand(PORT_RADIUS)
}

/// A point of the cubic Bézier at `t`.
pub(crate) fn bezier_at(c: &[Pos2; 4], t: f32) -> Pos2 {
    let u = 1.0 - t;
    let v = c[0].to_vec2() * (u * u * u)
        + c[1].to_vec2() * (3.0 * u * u * t)
        + c[2].to_vec2() * (3.0 * u * t * t)
        + c[3].to_vec2() * (t * t * t);
    v.to_pos2()
}

/// Fits `bounds` into a `viewport` of this size with a margin (screen points): the centre and
/// zoom, the zoom at most `max_zoom`.
pub(crate) fn fit_rect(bounds: Rect, viewport: Vec2, margin: f32, max_zoom: f32) -> (Pos2, f32) {
    let avail = (viewport - Vec2::splat(2.0 * margin)).max(Vec2::splat(10.0));
    let size = bounds.size().max(Vec2::splat(1.0));
    let zoom = (avail.x / size.x).min(avail.y / size.y).min(max_zoom);
    (bounds.center(), zoom)
}
