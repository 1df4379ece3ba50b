//! The minimap: the whole scene in a corner as plain boxes (one cached mesh, rebuilt only when
//! the scene or the corner changes), the visible part outlined; click or drag it to move there.

use std::sync::Arc;

use egui::{Color32, Mesh, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, Vec2, pos2, vec2};

use super::geometry::{Transform, fit_rect};
use super::index::SpatialIndex;
use super::scene::NodeView;

const SIZE: Vec2 = Vec2::new(200.0, 140.0);
const MARGIN: f32 = 8.0;
const INNER: f32 = 4.0;

/// The cached node mesh of the minimap and what it was built for.
#[derive(Clone, Default)]
pub(crate) struct MinimapCache {
    key: Option<(u64, usize, [u32; 4])>,
    mesh: Option<Arc<Mesh>>,
}

/// Where the minimap sits inside the canvas widget and how it maps canvas units.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MinimapLayout {
    pub rect: Rect,
    /// Canvas → minimap transform (the minimap's own centre and zoom).
    pub map: Transform,
}

impl MinimapLayout {
    /// `None` when the widget is too small for a minimap or the scene is empty.
    pub fn new(widget: Rect, bounds: Rect) -> Option<Self> {
        if !bounds.is_finite() || bounds.min.x > bounds.max.x {
            return None;
        }
        let size = SIZE.min(widget.size() / 3.0);
        if size.x < 60.0 || size.y < 40.0 {
            return None;
        }
        let rect = Rect::from_min_size(widget.max - size - Vec2::splat(MARGIN), size);
        let (center, zoom) = fit_rect(bounds, size, INNER, f32::INFINITY);
        Some(MinimapLayout {
            rect,
            map: Transform { rect, center, zoom },
        })
    }
}

fn rect_key(r: Rect) -> [u32; 4] {
    [
        r.min.x.to_bits(),
        r.min.y.to_bits(),
        r.max.x.to_bits(),
        r.max.y.to_bits(),
    ]
}

/// Paints the minimap: background, nodes, the outline of `visible` (canvas units).
#[allow(clippy::too_many_arguments)]
pub(crate) fn paint<K>(
    painter: &Painter,
    cache: &mut MinimapCache,
    layout: &MinimapLayout,
    index: &SpatialIndex,
    revision: u64,
    nodes: &[NodeView<K>],
    visible: Rect,
    visuals: &egui::Visuals,
) {
    let bg = visuals.extreme_bg_color.gamma_multiply(0.92);
    painter.rect(
        layout.rect,
        4.0,
        bg,
        Stroke::new(1.0, visuals.widgets.noninteractive.bg_stroke.color),
        StrokeKind::Inside,
    );
    let key = (revision, index.rects.len(), rect_key(layout.rect));
    if cache.key != Some(key) || cache.mesh.is_none() {
        cache.mesh = Some(Arc::new(node_mesh(layout, index, nodes)));
        cache.key = Some(key);
    }
    if let Some(mesh) = &cache.mesh {
        painter.add(Shape::Mesh(mesh.clone()));
    }
    let view = layout.map.rect_to_screen(visible).intersect(layout.rect);
    if view.is_positive() {
        painter.rect_stroke(
            view,
            1.0,
            Stroke::new(1.5, visuals.selection.stroke.color),
            StrokeKind::Inside,
        );
    }
}

/// Nodes as boxes of at least one pixel; boxes that small are merged per pixel so the mesh stays
/// bounded by the minimap's area, not the node count.
fn node_mesh<K>(layout: &MinimapLayout, index: &SpatialIndex, nodes: &[NodeView<K>]) -> Mesh {
    let color_of = |i: usize| nodes.get(i).map_or(Color32::GRAY, |n| n.color);
    let mut mesh = Mesh::default();
    let r = layout.rect;
    let (w, h) = (
        r.width().ceil() as usize + 1,
        r.height().ceil() as usize + 1,
    );
    let mut pixels: Vec<u32> = vec![0; w * h];
    for (i, nr) in index.rects.iter().enumerate() {
        let s = layout.map.rect_to_screen(*nr);
        let color = color_of(i);
        if s.width() >= 2.0 || s.height() >= 2.0 {
            mesh.add_colored_rect(s.intersect(r), color);
        } else {
            let c = s.center() - r.min;
            let (x, y) = (c.x.max(0.0) as usize, c.y.max(0.0) as usize);
            if x < w && y < h && pixels[y * w + x] == 0 {
                pixels[y * w + x] = i as u32 + 1;
            }
        }
    }
    for (p, &v) in pixels.iter().enumerate() {
        if v != 0 {
            let color = color_of(v as usize - 1);
            let at = r.min + vec2((p % w) as f32, (p / w) as f32);
            mesh.add_colored_rect(
                Rect::from_min_size(pos2(at.x, at.y), Vec2::splat(1.5)),
                color,
            );
        }
    }
    mesh
}

/// The canvas point under a screen position inside the minimap.
pub(crate) fn to_canvas(layout: &MinimapLayout, screen: Pos2) -> Pos2 {
    layout.map.to_canvas(screen)
}
