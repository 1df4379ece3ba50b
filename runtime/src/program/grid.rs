//! The one grid of static boxes: a uniform grid over the world's bounds in which each box
//! (a static area's bounding box, a trigger sensor's) is listed in every cell it covers. A
//! point looks only at its cell: the boxes there, in the order they were given, then the
//! boxes listed as `always` (too large to list cell by cell). Candidates are a superset of
//! the boxes that contain the point; callers check containment.

use crate::pack::Rect;
use crate::value::Vec2;

/// Most cells along each axis.
pub const MAX_CELLS_PER_AXIS: usize = 256;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoxGrid {
    min: Vec2,
    cell: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
    always: Vec<u32>,
}

impl BoxGrid {
    /// A grid over `bounds` with cells of about `cell` (larger if the bounds would need more
    /// than [`MAX_CELLS_PER_AXIS`] cells along an axis); `boxes` are (id, min, max), listed in
    /// each cell they cover, in this order; `always` are returned for every point.
    pub fn build(
        bounds: Rect,
        cell: f64,
        boxes: &[(u32, Vec2, Vec2)],
        always: Vec<u32>,
    ) -> BoxGrid {
        let w = (bounds.max.x - bounds.min.x).max(1e-9);
        let h = (bounds.max.y - bounds.min.y).max(1e-9);
        let cell = cell.max(1e-6);
        let cols = ((w / cell).ceil() as usize).clamp(1, MAX_CELLS_PER_AXIS);
        let rows = ((h / cell).ceil() as usize).clamp(1, MAX_CELLS_PER_AXIS);
        let mut g = BoxGrid {
            min: Vec2::new(bounds.min.x, bounds.min.y),
            cell,
            cols,
            rows,
            // No boxes, no cells: only `always` is ever returned.
            cells: if boxes.is_empty() {
                Vec::new()
            } else {
                vec![Vec::new(); cols * rows]
            },
            always,
        };
        for &(id, lo, hi) in boxes {
            let (c0, r0) = g.cell_of(lo);
            let (c1, r1) = g.cell_of(hi);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    g.cells[r * cols + c].push(id);
                }
            }
        }
        g
    }

    /// The cell of a point, clamped to the grid (points outside the bounds use the edge).
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let c = ((p.x - self.min.x) / self.cell).floor();
        let r = ((p.y - self.min.y) / self.cell).floor();
        // `as usize` saturates (negative and NaN become 0).
        (
            (c.max(0.0) as usize).min(self.cols - 1),
            (r.max(0.0) as usize).min(self.rows - 1),
        )
    }

    /// The boxes of the point's cell, then the `always` ones.
    pub fn near(&self, p: Vec2) -> impl Iterator<Item = u32> + '_ {
        let cell: &[u32] = if self.cells.is_empty() {
            &[]
        } else {
            let (c, r) = self.cell_of(p);
            &self.cells[r * self.cols + c]
        };
        cell.iter().chain(&self.always).copied()
    }
}
