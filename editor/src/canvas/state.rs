//! The view state of one canvas (per tab): pan, zoom, flow, pending requests, the interaction in
//! progress and the cached spatial index. Not undoable; the serialised part is pan, zoom, flow
//! and the minimap switch.

use egui::{Pos2, Rect, Vec2};

use super::geometry::{Transform, fit_rect};
use super::index::SpatialIndex;
use super::minimap::MinimapCache;
use super::scene::Flow;

/// Zoom limits (1.0 = 100%). The lower one lets a 10,000-node tree fit a window.
pub const MIN_ZOOM: f32 = 1e-4;
pub const MAX_ZOOM: f32 = 4.0;
/// Screen margin around fitted content.
const FIT_MARGIN: f32 = 24.0;

/// A gesture in progress. Nodes are named by key hash so the gesture survives a scene rebuild.
#[derive(Clone, Debug, Default)]
pub(crate) enum Interaction {
    #[default]
    Idle,
    /// Dragging these nodes by `delta` canvas units (drawn offset; `MoveNodes` at release);
    /// `start` is the canvas point where the press began.
    DragNodes {
        nodes: Vec<u64>,
        start: Pos2,
        delta: Vec2,
    },
    /// Rubber band from `start` to `end` (canvas units).
    BoxSelect {
        start: Pos2,
        end: Pos2,
        mode: super::SelectMode,
    },
    /// Dragging a new edge out of a port (`input`: dragging from an input port).
    Connect {
        node: u64,
        port: usize,
        input: bool,
        end: Pos2,
    },
    /// Dragging the view (middle or right button).
    Pan,
    /// Dragging inside the minimap.
    Minimap,
}

/// View state of one canvas. `Default` (= [`CanvasState::new`]) fits the scene on its first
/// frame; a deserialised state keeps its pan and zoom.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct CanvasState {
    /// The canvas point at the centre of the widget.
    pub(crate) center: Pos2,
    pub(crate) zoom: f32,
    pub(crate) flow: Flow,
    pub(crate) minimap: bool,
    #[serde(skip)]
    pub(crate) request: Option<ViewRequest>,
    #[serde(skip)]
    pub(crate) interaction: Interaction,
    #[serde(skip)]
    pub(crate) index: SpatialIndex,
    #[serde(skip)]
    pub(crate) minimap_cache: MinimapCache,
    /// The widget rect of the last frame (screen points).
    #[serde(skip)]
    pub(crate) last_rect: Option<Rect>,
}

/// What the next frame should do to the view (it needs the widget's size).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ViewRequest {
    Fit,
    Frame(Rect),
}

impl Default for CanvasState {
    fn default() -> Self {
        CanvasState::new()
    }
}

impl std::fmt::Debug for CanvasState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CanvasState")
            .field("center", &self.center)
            .field("zoom", &self.zoom)
            .field("flow", &self.flow)
            .field("minimap", &self.minimap)
            .field("request", &self.request)
            .field("interaction", &self.interaction)
            .finish_non_exhaustive()
    }
}

impl CanvasState {
    /// 100% zoom, top-down flow, minimap on, and a fit on the first frame.
    pub fn new() -> Self {
        CanvasState {
            center: Pos2::ZERO,
            zoom: 1.0,
            flow: Flow::TopDown,
            minimap: true,
            request: Some(ViewRequest::Fit),
            interaction: Interaction::Idle,
            index: SpatialIndex::default(),
            minimap_cache: MinimapCache::default(),
            last_rect: None,
        }
    }

    /// Fit the whole scene in view on the next frame (what F does).
    pub fn fit(&mut self) {
        self.request = Some(ViewRequest::Fit);
    }

    /// Centre on `rect` (canvas units) on the next frame, zoomed so it fits, at most 100%
    /// (find results "frame the hit").
    pub fn frame(&mut self, rect: Rect) {
        self.request = Some(ViewRequest::Frame(rect));
    }

    /// Where inputs and outputs sit. Changing it rebuilds the index on the next frame.
    pub fn set_flow(&mut self, flow: Flow) {
        self.flow = flow;
    }

    pub fn flow(&self) -> Flow {
        self.flow
    }

    /// Current zoom (1.0 = 100%).
    pub fn zoom(&self) -> f32 {
        self.zoom
    }

    /// The canvas point shown at the centre of the widget.
    pub fn center(&self) -> Pos2 {
        self.center
    }

    /// Sets the view directly (zoom clamped to [`MIN_ZOOM`], [`MAX_ZOOM`]); cancels a pending
    /// fit or frame request.
    pub fn set_view(&mut self, center: Pos2, zoom: f32) {
        self.center = center;
        self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        self.request = None;
    }

    /// Shows or hides the minimap.
    pub fn set_minimap(&mut self, on: bool) {
        self.minimap = on;
    }

    pub fn minimap(&self) -> bool {
        self.minimap
    }

    /// The canvas rect visible in the last frame (`None` before the first frame).
    pub fn visible_rect(&self) -> Option<Rect> {
        self.last_rect.map(|r| self.transform(r).visible())
    }

    /// Whether a drag, box selection, edge drag or pan is in progress.
    pub fn is_interacting(&self) -> bool {
        !matches!(self.interaction, Interaction::Idle)
    }

    pub(crate) fn transform(&self, rect: Rect) -> Transform {
        Transform {
            rect,
            center: self.center,
            zoom: self.zoom,
        }
    }

    /// Applies a pending fit/frame request for a widget of this size.
    pub(crate) fn apply_request(&mut self, rect: Rect, bounds: Rect) {
        let Some(req) = self.request.take() else {
            return;
        };
        let target = match req {
            ViewRequest::Fit => bounds,
            ViewRequest::Frame(r) => r,
        };
        if !target.is_finite() || target.min.x > target.max.x || target.min.y > target.max.y {
            // Nothing to fit (an empty scene): the origin at 100%.
            self.center = Pos2::ZERO;
            self.zoom = 1.0;
            return;
        }
        let (center, zoom) = fit_rect(target, rect.size(), FIT_MARGIN, 1.0);
        self.center = center;
        self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
    }

    /// Zooms by `factor` keeping the canvas point under `screen_pos` fixed.
    pub(crate) fn zoom_at(&mut self, rect: Rect, screen_pos: Pos2, factor: f32) {
        let t = self.transform(rect);
        let anchor = t.to_canvas(screen_pos);
        let zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        self.zoom = zoom;
        self.center = anchor - (screen_pos - rect.center()) / zoom;
    }

    /// Moves the view by a screen-space delta (content follows the pointer).
    pub(crate) fn pan_by(&mut self, screen_delta: Vec2) {
        self.center -= screen_delta / self.zoom;
    }
}
