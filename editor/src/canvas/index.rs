//! The spatial index of a scene: a uniform grid over canvas units holding node and edge indices,
//! rebuilt only when the scene changes. Answers "what is in this rectangle" (culling) and "what
//! is under the pointer" (hit testing) without looking at every node.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use egui::{Pos2, Rect, Vec2, pos2};

use super::geometry::{edge_hull, port_pos};
use super::scene::{Flow, Scene};

/// Most cells along one axis; keeps the grid small for huge, sparse scenes.
const MAX_CELLS_PER_AXIS: f32 = 1024.0;

/// The hash the canvas keeps for a node key across frames (drags, hovered node). `DefaultHasher`
/// with its fixed keys: the same key hashes the same in every run.
pub(crate) fn key_hash<K: Hash>(key: &K) -> u64 {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

/// Lists of `u32` per grid cell, stored flat (offsets into one array).
#[derive(Clone, Default)]
struct CellLists {
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl CellLists {
    /// Builds from `(cell, item)` pairs.
    fn build(cells: usize, pairs: &[(u32, u32)]) -> Self {
        let mut counts = vec![0u32; cells + 1];
        for &(c, _) in pairs {
            counts[c as usize + 1] += 1;
        }
        for i in 0..cells {
            counts[i + 1] += counts[i];
        }
        let mut fill = counts.clone();
        let mut items = vec![0u32; pairs.len()];
        for &(c, it) in pairs {
            let slot = &mut fill[c as usize];
            items[*slot as usize] = it;
            *slot += 1;
        }
        CellLists {
            starts: counts,
            items,
        }
    }

    fn get(&self, cell: usize) -> &[u32] {
        let a = self.starts[cell] as usize;
        let b = self.starts[cell + 1] as usize;
        &self.items[a..b]
    }
}

/// One resolved edge: indices of its end nodes and of the edge in `Scene::edges`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeEnds {
    pub edge: u32,
    pub from: u32,
    pub from_port: u32,
    pub to: u32,
    pub to_port: u32,
}

/// The grid and what was derived from the scene when it was built.
#[derive(Clone)]
pub(crate) struct SpatialIndex {
    revision: u64,
    node_count: usize,
    edge_count: usize,
    flow: Flow,
    origin: Pos2,
    cell: f32,
    cols: usize,
    rows: usize,
    node_cells: CellLists,
    edge_cells: CellLists,
    /// Node rects as they were at build time.
    pub rects: Vec<Rect>,
    /// Edges whose both ends exist, in scene order.
    pub edges: Vec<EdgeEnds>,
    /// Per node: the indices into `edges` of the edges touching it.
    node_edges: CellLists,
    pub hashes: Vec<u64>,
    by_hash: HashMap<u64, u32>,
    pub bounds: Rect,
    /// Edges naming a node that is not in the scene (not drawn).
    pub dangling_edges: usize,
    /// Per-query de-duplication stamps.
    node_mark: Vec<u32>,
    edge_mark: Vec<u32>,
    stamp: u32,
}

impl Default for SpatialIndex {
    /// An index of nothing that is never current (the first frame builds the real one).
    fn default() -> Self {
        SpatialIndex {
            revision: 0,
            node_count: 0,
            edge_count: 0,
            flow: Flow::TopDown,
            origin: Pos2::ZERO,
            cell: 256.0,
            cols: 1,
            rows: 1,
            node_cells: CellLists::default(),
            edge_cells: CellLists::default(),
            rects: Vec::new(),
            edges: Vec::new(),
            node_edges: CellLists::default(),
            hashes: Vec::new(),
            by_hash: HashMap::new(),
            bounds: Rect::NOTHING,
            dangling_edges: 0,
            node_mark: Vec::new(),
            edge_mark: Vec::new(),
            stamp: 0,
        }
    }
}

impl SpatialIndex {
    /// Whether this index was built from `scene` (same revision, same sizes, same flow).
    pub fn is_current<K>(&self, scene: &Scene<K>, flow: Flow) -> bool {
        self.revision == scene.revision
            && self.node_count == scene.nodes.len()
            && self.edge_count == scene.edges.len()
            && self.flow == flow
            && !self.starts_empty()
    }

    fn starts_empty(&self) -> bool {
        self.node_cells.starts.is_empty()
    }

    pub fn build<K: Hash + Eq>(scene: &Scene<K>, flow: Flow) -> Self {
        let rects: Vec<Rect> = scene.nodes.iter().map(|n| n.rect).collect();
        let hashes: Vec<u64> = scene.nodes.iter().map(|n| key_hash(&n.key)).collect();
        let mut by_hash = HashMap::with_capacity(hashes.len());
        for (i, h) in hashes.iter().enumerate() {
            // The first node with a key wins (a view should not repeat keys).
            by_hash.entry(*h).or_insert(i as u32);
        }
        let mut edges = Vec::with_capacity(scene.edges.len());
        let mut dangling = 0;
        for (ei, e) in scene.edges.iter().enumerate() {
            let from = by_hash.get(&key_hash(&e.from)).copied();
            let to = by_hash.get(&key_hash(&e.to)).copied();
            match (from, to) {
                (Some(from), Some(to)) => edges.push(EdgeEnds {
                    edge: ei as u32,
                    from,
                    from_port: e.from_port as u32,
                    to,
                    to_port: e.to_port as u32,
                }),
                _ => dangling += 1,
            }
        }
        let bounds = rects.iter().fold(Rect::NOTHING, |a, r| a.union(*r));
        let (origin, cell, cols, rows) = if rects.is_empty() {
            (Pos2::ZERO, 256.0, 1, 1)
        } else {
            let avg =
                rects.iter().map(|r| r.width().max(r.height())).sum::<f32>() / rects.len() as f32;
            let extent = bounds.width().max(bounds.height());
            let cell = (avg * 2.0).max(extent / MAX_CELLS_PER_AXIS).max(16.0);
            let cols = ((bounds.width() / cell).floor() as usize + 1).max(1);
            let rows = ((bounds.height() / cell).floor() as usize + 1).max(1);
            (bounds.min, cell, cols, rows)
        };
        let mut idx = SpatialIndex {
            revision: scene.revision,
            node_count: scene.nodes.len(),
            edge_count: scene.edges.len(),
            flow,
            origin,
            cell,
            cols,
            rows,
            bounds,
            dangling_edges: dangling,
            node_mark: vec![0; rects.len()],
            edge_mark: vec![0; edges.len()],
            ..Default::default()
        };
        let mut pairs = Vec::with_capacity(rects.len());
        for (i, r) in rects.iter().enumerate() {
            idx.for_cells(*r, |c| pairs.push((c as u32, i as u32)));
        }
        idx.node_cells = CellLists::build(cols * rows, &pairs);
        pairs.clear();
        for (k, e) in edges.iter().enumerate() {
            let hull = edge_hull_of(&rects, scene, e, flow, Vec2::ZERO, Vec2::ZERO);
            idx.for_cells(hull, |c| pairs.push((c as u32, k as u32)));
        }
        idx.edge_cells = CellLists::build(cols * rows, &pairs);
        pairs.clear();
        for (k, e) in edges.iter().enumerate() {
            pairs.push((e.from, k as u32));
            if e.to != e.from {
                pairs.push((e.to, k as u32));
            }
        }
        idx.node_edges = CellLists::build(rects.len(), &pairs);
        idx.rects = rects;
        idx.edges = edges;
        idx.hashes = hashes;
        idx.by_hash = by_hash;
        idx
    }

    /// Calls `f` with every cell index that `r` overlaps (clamped to the grid).
    fn for_cells(&self, r: Rect, mut f: impl FnMut(usize)) {
        let (c0, r0, c1, r1) = self.cell_range(r);
        for row in r0..=r1 {
            for col in c0..=c1 {
                f(row * self.cols + col);
            }
        }
    }

    fn cell_range(&self, r: Rect) -> (usize, usize, usize, usize) {
        let to_cell = |v: f32, o: f32, n: usize| -> usize {
            (((v - o) / self.cell).floor().max(0.0) as usize).min(n - 1)
        };
        (
            to_cell(r.min.x, self.origin.x, self.cols),
            to_cell(r.min.y, self.origin.y, self.rows),
            to_cell(r.max.x, self.origin.x, self.cols),
            to_cell(r.max.y, self.origin.y, self.rows),
        )
    }

    /// The node with this key hash, if any.
    pub fn node_of_hash(&self, h: u64) -> Option<usize> {
        self.by_hash.get(&h).map(|&i| i as usize)
    }

    /// Indices of the edges touching node `i`.
    pub fn edges_of(&self, i: usize) -> &[u32] {
        self.node_edges.get(i)
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.node_mark.iter_mut().for_each(|m| *m = 0);
            self.edge_mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Indices (ascending: scene order, the paint order) of the nodes whose rect intersects
    /// `view`, appended to `out`.
    pub fn nodes_in(&mut self, view: Rect, out: &mut Vec<u32>) {
        out.clear();
        if self.rects.is_empty() || !view.intersects(self.bounds) {
            return;
        }
        if covers_most(view, self.bounds) {
            out.extend(
                self.rects
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.intersects(view))
                    .map(|(i, _)| i as u32),
            );
            return;
        }
        let stamp = self.next_stamp();
        let (c0, r0, c1, r1) = self.cell_range(view);
        for row in r0..=r1 {
            for col in c0..=c1 {
                for &i in self.node_cells.get(row * self.cols + col) {
                    let m = &mut self.node_mark[i as usize];
                    if *m != stamp {
                        *m = stamp;
                        if self.rects[i as usize].intersects(view) {
                            out.push(i);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
    }

    /// Indices into `self.edges` (ascending) of the edges whose hull may intersect `view`.
    pub fn edges_in(&mut self, view: Rect, out: &mut Vec<u32>) {
        out.clear();
        if self.edges.is_empty() {
            return;
        }
        if covers_most(view, self.bounds) {
            out.extend(0..self.edges.len() as u32);
            return;
        }
        let stamp = self.next_stamp();
        let (c0, r0, c1, r1) = self.cell_range(view);
        for row in r0..=r1 {
            for col in c0..=c1 {
                for &k in self.edge_cells.get(row * self.cols + col) {
                    let m = &mut self.edge_mark[k as usize];
                    if *m != stamp {
                        *m = stamp;
                        out.push(k);
                    }
                }
            }
        }
        out.sort_unstable();
    }
}

/// Whether `view` covers most of `bounds` (then a straight scan beats the grid).
fn covers_most(view: Rect, bounds: Rect) -> bool {
    let inter = view.intersect(bounds);
    if inter.width() <= 0.0 || inter.height() <= 0.0 {
        return false;
    }
    inter.area() >= 0.5 * bounds.area().max(f32::MIN_POSITIVE)
}

/// The hull (a rect containing the curve) of one edge, with each end node offset (dragging).
pub(crate) fn edge_hull_of<K>(
    rects: &[Rect],
    scene: &Scene<K>,
    e: &EdgeEnds,
    flow: Flow,
    from_offset: Vec2,
    to_offset: Vec2,
) -> Rect {
    let from = &scene.nodes[e.from as usize];
    let to = &scene.nodes[e.to as usize];
    let a = port_pos(
        rects[e.from as usize].translate(from_offset),
        flow,
        false,
        e.from_port as usize,
        from.outputs.len(),
    );
    let b = port_pos(
        rects[e.to as usize].translate(to_offset),
        flow,
        true,
        e.to_port as usize,
        to.inputs.len(),
    );
    edge_hull(a, b, flow)
}

/// A rect around a point, `r` canvas units each side.
pub(crate) fn around(p: Pos2, r: f32) -> Rect {
    Rect::from_min_max(pos2(p.x - r, p.y - r), pos2(p.x + r, p.y + r))
}
