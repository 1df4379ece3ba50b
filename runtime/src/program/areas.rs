//! Compiled area rules: templates, brains, handlers, hierarchy, and the spatial grid.

use super::grid::{BoxGrid, MAX_CELLS_PER_AXIS};
use crate::pack::{DropPolicy, Rect};
use crate::value::{Sym, Vec2};

/// A behavior template, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct CTemplate {
    /// The behavior it provides.
    pub name: Sym,
    pub tree: u32,
    /// Expression over the requester that must hold.
    pub constraint: Option<u32>,
    pub max_instances: Option<u32>,
    pub enabled: bool,
    pub inboxes: Vec<Sym>,
    pub drop: DropPolicy,
}

/// A request node's parameters, compiled.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CRequest {
    /// Preferred templates with weights.
    pub prefer: Vec<(Sym, f64)>,
    pub forbid: Vec<Sym>,
    /// Ask the innermost area of this kind (instead of the innermost area).
    pub area_kind: Option<Sym>,
}

/// The rules of one pack area.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AreaRules {
    pub templates: Vec<CTemplate>,
    /// Brain tree and ticks between its ticks.
    pub brain: Option<(u32, u64)>,
    /// Handler trees by `world::areas::HandlerKind`.
    pub handlers: [Option<u32>; 4],
    pub inboxes: Vec<Sym>,
    /// Static child areas, by index.
    pub children: Vec<u32>,
    pub weight: f64,
    pub dynamic: bool,
}

impl AreaRules {
    /// Whether the area has anything to run (a brain or handlers).
    pub fn active(&self) -> bool {
        self.brain.is_some() || self.handlers.iter().any(Option::is_some)
    }
    pub fn template(&self, name: Sym) -> Option<usize> {
        self.templates.iter().position(|t| t.name == name)
    }
}

/// The spatial index of the static areas: their bounding boxes in the one grid of static
/// boxes, about one cell per area.
pub fn static_grid(bounds: Rect, areas: &[(u32, Rect)]) -> BoxGrid {
    let w = (bounds.max.x - bounds.min.x).max(1e-9);
    let h = (bounds.max.y - bounds.min.y).max(1e-9);
    let n = ((areas.len() as f64).sqrt().ceil() as usize).clamp(1, MAX_CELLS_PER_AXIS);
    let boxes: Vec<(u32, Vec2, Vec2)> = areas
        .iter()
        .map(|&(a, b)| (a, Vec2::new(b.min.x, b.min.y), Vec2::new(b.max.x, b.max.y)))
        .collect();
    BoxGrid::build(bounds, w.max(h) / n as f64, &boxes, Vec::new())
}

/// Dynamic area ids have this bit set: `DYN | proto << 16 | serial`.
pub const DYN: u32 = 1 << 31;

pub fn is_dynamic(id: u32) -> bool {
    id & DYN != 0
}

/// The pack area whose rules an area uses (itself, or a dynamic area's prototype).
pub fn proto_of(id: u32) -> u32 {
    if is_dynamic(id) {
        (id & !DYN) >> 16
    } else {
        id
    }
}

/// An area's display id: its pack id, or `prototype#serial` for a dynamic one.
pub fn area_name(p: &super::Program, id: u32) -> String {
    let base = p
        .areas
        .get(proto_of(id) as usize)
        .map_or("?", |a| a.id.as_str());
    if is_dynamic(id) {
        format!("{base}#{}", id & 0xffff)
    } else {
        base.to_string()
    }
}
