//! Compiled area rules: templates, brains, handlers, hierarchy, and the spatial grid.

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

/// A uniform grid over the world bounds listing, per cell, the static areas whose bounding
/// box overlaps it: finding the areas at a point costs the same however many areas exist.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Grid {
    min: Vec2,
    cell: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
}

impl Grid {
    /// Builds the grid for areas given by (index, bounding box); `bounds` is the world.
    pub fn build(bounds: Rect, areas: &[(u32, Rect)]) -> Grid {
        let w = (bounds.max.x - bounds.min.x).max(1e-9);
        let h = (bounds.max.y - bounds.min.y).max(1e-9);
        // About one cell per area, at most 256 × 256.
        let n = ((areas.len() as f64).sqrt().ceil() as usize).clamp(1, 256);
        let cell = (w.max(h) / n as f64).max(1e-6);
        let cols = ((w / cell).ceil() as usize).clamp(1, 256);
        let rows = ((h / cell).ceil() as usize).clamp(1, 256);
        let mut g = Grid {
            min: Vec2::new(bounds.min.x, bounds.min.y),
            cell,
            cols,
            rows,
            cells: vec![Vec::new(); cols * rows],
        };
        for &(a, b) in areas {
            let (c0, r0) = g.cell_of(Vec2::new(b.min.x, b.min.y));
            let (c1, r1) = g.cell_of(Vec2::new(b.max.x, b.max.y));
            for r in r0..=r1 {
                for c in c0..=c1 {
                    g.cells[r * cols + c].push(a);
                }
            }
        }
        g
    }

    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let c = ((p.x - self.min.x) / self.cell).floor();
        let r = ((p.y - self.min.y) / self.cell).floor();
        // `as usize` saturates (negative and NaN become 0).
        (
            (c.max(0.0) as usize).min(self.cols - 1),
            (r.max(0.0) as usize).min(self.rows - 1),
        )
    }

    /// Areas whose bounding box may contain `p`.
    pub fn candidates(&self, p: Vec2) -> &[u32] {
        if self.cells.is_empty() {
            return &[];
        }
        let (c, r) = self.cell_of(p);
        &self.cells[r * self.cols + c]
    }
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
