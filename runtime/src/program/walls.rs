//! The world's walls compiled (SPEC §6): every wall as blocking segments (doors cut out as
//! their own segments, blocking while their door object is closed), the solids' insides, the
//! navigation grid the movement phase plans on, and a bucket index of the segments so a query
//! looks only at the walls near it. Also the geometry both the checks here and the movement
//! phase use, and the compile pass with its checks.
//!
//! **Why a grid (not a visibility graph)**: walls come as lines, rectangles and polygons with
//! doors cut into them, and doors open and close at run time. On a grid, a door is a fixed set
//! of cells that are passable or not, so a door change costs nothing to apply and a plan is
//! one A* call on an implicit graph (no graph to rebuild, no polygon offsetting); the planned
//! cell path is then smoothed by line of sight, so NPCs walk straight lines, not staircases.

use std::collections::BTreeMap;

use super::ctx::{At, Ctx};
use crate::pack::WallShape;
use crate::pack::diag::{index, key};
use crate::value::{EntityId, Vec2};

/// Radius of an NPC's body (also `world::NPC_RADIUS`): how close it comes to a wall.
pub const BODY_RADIUS: f64 = 0.3;
/// The segment of a wall (not a door).
pub const NO_DOOR: u32 = u32::MAX;
/// Most cells of the navigation grid; larger worlds get larger cells.
pub const MAX_NAV_CELLS: f64 = (1u32 << 20) as f64;
/// Smallest navigation cell, in world units.
pub const MIN_NAV_CELL: f64 = 0.5;
/// How far from its wall a door object may stand.
pub const DOOR_ON_WALL: f64 = 1.0;
/// Side of a bucket of the segment index, in world units (at most 256 buckets per axis).
const BUCKET: f64 = 4.0;

/// One straight piece of a wall, or a door's opening.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seg {
    pub a: Vec2,
    pub b: Vec2,
    /// [`NO_DOOR`] for a wall piece (always blocks); else the door (index into
    /// [`Walls::doors`]) whose opening this is (blocks while the door is closed).
    pub door: u32,
}

/// A door compiled: its object and its opening.
#[derive(Clone, Debug, PartialEq)]
pub struct DoorInfo {
    /// The door object (index into `Program::objects`): open = passable.
    pub object: u32,
    /// The wall it is cut into (index into [`Walls::walls`]).
    pub wall: u32,
    pub a: Vec2,
    pub b: Vec2,
}

/// A wall as the pack gives it, for the preview: its corners in order.
#[derive(Clone, Debug, PartialEq)]
pub struct WallInfo {
    pub id: String,
    pub points: Vec<Vec2>,
    /// The last point joins the first (a rectangle or polygon).
    pub closed: bool,
    pub solid: bool,
}

/// The navigation grid: cells whose centres are within `clearance` of a wall piece (or
/// inside a solid) are blocked for good; those near a door's opening are blocked while that
/// door is closed. `clearance` is more than half a cell, so two free neighbouring cells
/// (diagonal moves only between free orthogonal ones) never have a wall between them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NavGrid {
    pub min: Vec2,
    pub cell: f64,
    pub cols: u32,
    pub rows: u32,
    pub clearance: f64,
    blocked: Vec<bool>,
    /// Cell → the doors whose openings cover it, sorted.
    door_cells: BTreeMap<u32, Vec<u32>>,
}

impl NavGrid {
    /// The cell holding a point (clamped to the grid).
    pub fn cell_of(&self, p: Vec2) -> (u32, u32) {
        let c = ((p.x - self.min.x) / self.cell).floor();
        let r = ((p.y - self.min.y) / self.cell).floor();
        // `as u32` saturates: negative and NaN become 0.
        (
            (c.max(0.0) as u32).min(self.cols.saturating_sub(1)),
            (r.max(0.0) as u32).min(self.rows.saturating_sub(1)),
        )
    }
    pub fn id(&self, (c, r): (u32, u32)) -> u32 {
        r * self.cols + c
    }
    pub fn coords(&self, id: u32) -> (u32, u32) {
        (id % self.cols.max(1), id / self.cols.max(1))
    }
    pub fn centre(&self, (c, r): (u32, u32)) -> Vec2 {
        Vec2::new(
            self.min.x + (c as f64 + 0.5) * self.cell,
            self.min.y + (r as f64 + 0.5) * self.cell,
        )
    }
    /// Blocked whatever the doors do.
    pub fn walled(&self, id: u32) -> bool {
        self.blocked.get(id as usize).copied().unwrap_or(true)
    }
    /// The cells door `d`'s opening covers (passable only while it is open), sorted.
    pub fn cells_of_door(&self, d: u32) -> Vec<u32> {
        self.door_cells
            .iter()
            .filter(|(_, ds)| ds.contains(&d))
            .map(|(&c, _)| c)
            .collect()
    }
    /// Passable with the doors as `door_open` says (by door index).
    pub fn free(&self, id: u32, door_open: &[bool]) -> bool {
        !self.walled(id)
            && self.door_cells.get(&id).is_none_or(|ds| {
                ds.iter()
                    .all(|&d| door_open.get(d as usize).copied().unwrap_or(false))
            })
    }
}

/// Segment ids by bucket of a uniform grid over the walls' extent.
#[derive(Clone, Debug, Default, PartialEq)]
struct SegIndex {
    min: Vec2,
    cell: f64,
    cols: usize,
    rows: usize,
    buckets: Vec<Vec<u32>>,
}

impl SegIndex {
    fn build(segs: &[Seg]) -> SegIndex {
        let Some(first) = segs.first() else {
            return SegIndex::default();
        };
        let (mut lo, mut hi) = (first.a, first.a);
        for s in segs {
            for p in [s.a, s.b] {
                lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
                hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
            }
        }
        let cell = BUCKET.max((hi.x - lo.x) / 256.0).max((hi.y - lo.y) / 256.0);
        let cols = (((hi.x - lo.x) / cell).floor() as usize + 1).min(256);
        let rows = (((hi.y - lo.y) / cell).floor() as usize + 1).min(256);
        let mut ix = SegIndex {
            min: lo,
            cell,
            cols,
            rows,
            buckets: vec![Vec::new(); cols * rows],
        };
        for (i, s) in segs.iter().enumerate() {
            let (c0, r0) = ix.bucket(Vec2::new(s.a.x.min(s.b.x), s.a.y.min(s.b.y)));
            let (c1, r1) = ix.bucket(Vec2::new(s.a.x.max(s.b.x), s.a.y.max(s.b.y)));
            for r in r0..=r1 {
                for c in c0..=c1 {
                    ix.buckets[r * cols + c].push(i as u32);
                }
            }
        }
        ix
    }
    fn bucket(&self, p: Vec2) -> (usize, usize) {
        let c = ((p.x - self.min.x) / self.cell).floor().max(0.0) as usize;
        let r = ((p.y - self.min.y) / self.cell).floor().max(0.0) as usize;
        (c.min(self.cols - 1), r.min(self.rows - 1))
    }
    /// Segments whose bucket meets the box `lo..hi`, sorted, each once.
    fn query(&self, lo: Vec2, hi: Vec2, out: &mut Vec<u32>) {
        out.clear();
        if self.buckets.is_empty() {
            return;
        }
        let (c0, r0) = self.bucket(lo);
        let (c1, r1) = self.bucket(hi);
        for r in r0..=r1 {
            for c in c0..=c1 {
                out.extend_from_slice(&self.buckets[r * self.cols + c]);
            }
        }
        if r1 > r0 || c1 > c0 {
            out.sort_unstable();
            out.dedup();
        }
    }
}

/// The walls of a world, compiled.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Walls {
    pub walls: Vec<WallInfo>,
    /// Every blocking piece: wall pieces and door openings.
    pub segs: Vec<Seg>,
    pub doors: Vec<DoorInfo>,
    /// The solids' outlines (closed polygons).
    solids: Vec<Vec<Vec2>>,
    pub grid: NavGrid,
    index: SegIndex,
}

impl Walls {
    /// No walls: movement goes straight, as without this module.
    pub fn is_empty(&self) -> bool {
        self.segs.is_empty() && self.solids.is_empty()
    }

    /// The door whose object is `object`, if that object is a wall's door.
    pub fn door_of_object(&self, object: u32) -> Option<u32> {
        self.doors
            .iter()
            .position(|d| d.object == object)
            .map(|d| d as u32)
    }

    fn blocks(&self, s: &Seg, door_open: &[bool]) -> bool {
        s.door == NO_DOOR || !door_open.get(s.door as usize).copied().unwrap_or(false)
    }

    /// Where a step from `p0` to `p1` first meets a blocking piece: the fraction of the step
    /// (0..=1), if it does. A step that leaves a line it stands on is not stopped by it.
    pub fn first_hit(
        &self,
        p0: Vec2,
        p1: Vec2,
        door_open: &[bool],
        scratch: &mut Vec<u32>,
    ) -> Option<f64> {
        let lo = Vec2::new(p0.x.min(p1.x), p0.y.min(p1.y));
        let hi = Vec2::new(p0.x.max(p1.x), p0.y.max(p1.y));
        self.index.query(lo, hi, scratch);
        let mut best: Option<f64> = None;
        for &i in scratch.iter() {
            let s = &self.segs[i as usize];
            if !self.blocks(s, door_open) {
                continue;
            }
            if let Some(t) = step_hit(p0, p1, s.a, s.b)
                && best.is_none_or(|b| t < b)
            {
                best = Some(t);
            }
        }
        best
    }

    /// The straight walk from `p0` to `p1` stays at least `radius` from every blocking piece.
    pub fn clear(
        &self,
        p0: Vec2,
        p1: Vec2,
        radius: f64,
        door_open: &[bool],
        scratch: &mut Vec<u32>,
    ) -> bool {
        // A long walk is looked at piece by piece (each piece's box, a bucket or so long),
        // not by its whole box: a piece's box holds every wall piece within `radius` of that
        // piece, so the answer is the same, and the first blocking piece ends the look.
        let len = p0.distance(p1);
        let pieces = if self.index.buckets.is_empty() {
            1
        } else {
            ((len / self.index.cell).ceil() as usize).clamp(1, 1 << 16)
        };
        for k in 0..pieces {
            let a = p0 + (p1 - p0) * (k as f64 / pieces as f64);
            let b = if k + 1 == pieces {
                p1
            } else {
                p0 + (p1 - p0) * ((k + 1) as f64 / pieces as f64)
            };
            let lo = Vec2::new(a.x.min(b.x) - radius, a.y.min(b.y) - radius);
            let hi = Vec2::new(a.x.max(b.x) + radius, a.y.max(b.y) + radius);
            self.index.query(lo, hi, scratch);
            let blocked = scratch.iter().any(|&i| {
                let s = &self.segs[i as usize];
                self.blocks(s, door_open) && seg_seg_dist(p0, p1, s.a, s.b) < radius
            });
            if blocked {
                return false;
            }
        }
        !self.solids.iter().any(|poly| in_polygon(poly, p1))
    }

    /// A point an NPC cannot stand on: within `radius` of a wall piece or inside a solid
    /// (doors aside: they open).
    pub fn inside(&self, p: Vec2, radius: f64) -> bool {
        let mut ids = Vec::new();
        let r = Vec2::new(radius, radius);
        self.index.query(p - r, p + r, &mut ids);
        ids.iter().any(|&i| {
            let s = &self.segs[i as usize];
            s.door == NO_DOOR && point_seg_dist(p, s.a, s.b) < radius
        }) || self.solids.iter().any(|poly| in_polygon(poly, p))
    }
}

fn dot(a: Vec2, b: Vec2) -> f64 {
    a.x * b.x + a.y * b.y
}
fn cross(a: Vec2, b: Vec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Distance from `p` to the segment `a`–`b`.
pub fn point_seg_dist(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    let ab = b - a;
    let l2 = dot(ab, ab);
    let t = if l2 <= 0.0 {
        0.0
    } else {
        (dot(p - a, ab) / l2).clamp(0.0, 1.0)
    };
    (a + ab * t).distance(p)
}

/// Where `p0`–`p1` meets `a`–`b`: (t along p0→p1, u along a→b), both in 0..=1.
fn meet(p0: Vec2, p1: Vec2, a: Vec2, b: Vec2) -> Option<(f64, f64)> {
    let r = p1 - p0;
    let s = b - a;
    let den = cross(r, s);
    if den.abs() < 1e-12 {
        return None;
    }
    let q = a - p0;
    let t = cross(q, s) / den;
    let u = cross(q, r) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some((t, u))
}

/// A step from `p0` to `p1` is stopped by `a`–`b` when it goes over to the other side of it,
/// or onto it: the fraction of the step where it meets it.
fn step_hit(p0: Vec2, p1: Vec2, a: Vec2, b: Vec2) -> Option<f64> {
    let ab = b - a;
    let s0 = cross(ab, p0 - a);
    let s1 = cross(ab, p1 - a);
    let crosses = (s0 > 0.0 && s1 <= 0.0) || (s0 < 0.0 && s1 >= 0.0);
    if !crosses {
        return None;
    }
    meet(p0, p1, a, b).map(|(t, _)| t)
}

/// Distance between the segments `p0`–`p1` and `a`–`b`.
pub fn seg_seg_dist(p0: Vec2, p1: Vec2, a: Vec2, b: Vec2) -> f64 {
    if meet(p0, p1, a, b).is_some() {
        return 0.0;
    }
    point_seg_dist(p0, a, b)
        .min(point_seg_dist(p1, a, b))
        .min(point_seg_dist(a, p0, p1))
        .min(point_seg_dist(b, p0, p1))
}

/// Even-odd rule.
pub fn in_polygon(pts: &[Vec2], p: Vec2) -> bool {
    if pts.len() < 3 {
        return false;
    }
    let mut inside = false;
    let mut j = pts.len() - 1;
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[j]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// The grid for `walls` over `bounds`.
fn nav_grid(bounds: crate::pack::Rect, segs: &[Seg], solids: &[Vec<Vec2>]) -> NavGrid {
    let w = (bounds.max.x - bounds.min.x).max(1e-6);
    let h = (bounds.max.y - bounds.min.y).max(1e-6);
    let cell = MIN_NAV_CELL.max((w * h / MAX_NAV_CELLS).sqrt());
    let cols = ((w / cell).ceil() as u32).max(1);
    let rows = ((h / cell).ceil() as u32).max(1);
    let clearance = BODY_RADIUS.max(0.55 * cell);
    let mut g = NavGrid {
        min: Vec2::new(bounds.min.x, bounds.min.y),
        cell,
        cols,
        rows,
        clearance,
        blocked: vec![false; cols as usize * rows as usize],
        door_cells: BTreeMap::new(),
    };
    for s in segs {
        let r = Vec2::new(clearance, clearance);
        let lo = Vec2::new(s.a.x.min(s.b.x), s.a.y.min(s.b.y)) - r;
        let hi = Vec2::new(s.a.x.max(s.b.x), s.a.y.max(s.b.y)) + r;
        let (c0, r0) = g.cell_of(lo);
        let (c1, r1) = g.cell_of(hi);
        for row in r0..=r1 {
            for col in c0..=c1 {
                if point_seg_dist(g.centre((col, row)), s.a, s.b) < clearance {
                    let id = g.id((col, row));
                    if s.door == NO_DOOR {
                        g.blocked[id as usize] = true;
                    } else {
                        let ds = g.door_cells.entry(id).or_default();
                        if !ds.contains(&s.door) {
                            ds.push(s.door);
                        }
                    }
                }
            }
        }
    }
    for poly in solids {
        let mut lo = poly[0];
        let mut hi = poly[0];
        for p in poly {
            lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        let (c0, r0) = g.cell_of(lo);
        let (c1, r1) = g.cell_of(hi);
        for row in r0..=r1 {
            for col in c0..=c1 {
                if in_polygon(poly, g.centre((col, row))) {
                    let id = g.id((col, row));
                    g.blocked[id as usize] = true;
                }
            }
        }
    }
    for ds in g.door_cells.values_mut() {
        ds.sort_unstable();
    }
    g
}

impl Ctx<'_> {
    /// Compiles `world.walls` (after the objects, areas and NPCs: it checks where they stand)
    /// and the object obstacles' grid.
    pub(crate) fn walls(&mut self) {
        let pack = self.pack;
        let mut walls = Walls::default();
        let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
        let mut door_paths: BTreeMap<u32, String> = BTreeMap::new();
        for (wi, wd) in pack.world.walls.iter().enumerate() {
            let path = index("world.walls", wi);
            if let Some(first) = ids.get(wd.id.as_str()) {
                self.err(
                    key(&path, "id"),
                    format!(
                        "duplicate wall id `{}` (first used at world.walls[{first}])",
                        wd.id
                    ),
                );
                continue;
            }
            ids.insert(&wd.id, wi);
            let shape = key(&path, "shape");
            let (pts, closed) = match &wd.shape {
                WallShape::Line(pts) => (pts.clone(), false),
                WallShape::Polygon(pts) => (pts.clone(), true),
                WallShape::Rect(r) => {
                    if !(r.min.x <= r.max.x && r.min.y <= r.max.y) {
                        self.err(&shape, "rectangle needs min <= max");
                        continue;
                    }
                    let p = |x, y| crate::pack::Point { x, y };
                    (
                        vec![
                            p(r.min.x, r.min.y),
                            p(r.max.x, r.min.y),
                            p(r.max.x, r.max.y),
                            p(r.min.x, r.max.y),
                        ],
                        true,
                    )
                }
            };
            if pts.len() < 2 {
                self.err(
                    &shape,
                    format!(
                        "wall `{}` has {} point(s); a wall needs at least 2",
                        wd.id,
                        pts.len()
                    ),
                );
                continue;
            }
            let pts: Vec<Vec2> = pts
                .iter()
                .map(|p| self.point(At::Path(&shape), *p))
                .collect();
            let solid = match (&wd.shape, wd.solid) {
                (WallShape::Line(_), true) => {
                    self.warn(
                        key(&path, "solid"),
                        "a line has no inside: `solid` is ignored",
                    );
                    false
                }
                (_, true) if pts.len() < 3 => {
                    self.warn(
                        key(&path, "solid"),
                        "a polygon of 2 points has no inside: `solid` is ignored",
                    );
                    false
                }
                (_, s) => s,
            };
            let mut edges: Vec<(Vec2, Vec2)> = pts.windows(2).map(|p| (p[0], p[1])).collect();
            if closed && pts.len() > 2 {
                edges.push((pts[pts.len() - 1], pts[0]));
            }
            // Door openings: (edge, from, to) as fractions along the edge.
            let mut cuts: Vec<(usize, f64, f64, u32)> = Vec::new();
            for (di, d) in wd.doors.iter().enumerate() {
                let dpath = index(&key(&path, "doors"), di);
                let object = match self.p.entity(&d.object) {
                    Some(EntityId::Object(o)) => o,
                    _ => {
                        self.err(
                            key(&dpath, "object"),
                            format!("door names no object: unknown object `{}`", d.object),
                        );
                        continue;
                    }
                };
                if let Some(first) = door_paths.get(&object) {
                    self.err(
                        key(&dpath, "object"),
                        format!(
                            "object `{}` is already the door at {first}; one object closes one opening",
                            d.object
                        ),
                    );
                    continue;
                }
                let width = self.number(At::Key(&dpath, "width"), d.width, 0.01, 1.0e4, "`width`");
                let need = 2.0 * BODY_RADIUS.max(0.55 * MIN_NAV_CELL) + MIN_NAV_CELL;
                if width < need {
                    self.warn(
                        key(&dpath, "width"),
                        format!("a door narrower than {need} lets no NPC through"),
                    );
                }
                let at = self.p.objects[object as usize].pos;
                let mut best = (f64::MAX, 0usize);
                for (ei, &(a, b)) in edges.iter().enumerate() {
                    let dist = point_seg_dist(at, a, b);
                    if dist < best.0 {
                        best = (dist, ei);
                    }
                }
                if best.0 > DOOR_ON_WALL {
                    self.err(
                        key(&dpath, "object"),
                        format!(
                            "door object `{}` stands {:.2} from wall `{}`; a door's object stands on its wall (within {DOOR_ON_WALL})",
                            d.object, best.0, wd.id
                        ),
                    );
                    continue;
                }
                let (a, b) = edges[best.1];
                let len = a.distance(b);
                if len <= 0.0 {
                    continue;
                }
                let t = (dot(at - a, b - a) / (len * len)).clamp(0.0, 1.0);
                let half = width * 0.5 / len;
                let door = walls.doors.len() as u32;
                let t0 = (t - half).max(0.0);
                let t1 = (t + half).min(1.0);
                walls.doors.push(DoorInfo {
                    object,
                    wall: walls.walls.len() as u32,
                    a: a + (b - a) * t0,
                    b: a + (b - a) * t1,
                });
                door_paths.insert(object, dpath);
                cuts.push((best.1, t0, t1, door));
            }
            cuts.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)));
            for (ei, &(a, b)) in edges.iter().enumerate() {
                let at = |t: f64| a + (b - a) * t;
                let mut from = 0.0;
                for &(_, t0, t1, door) in cuts.iter().filter(|c| c.0 == ei) {
                    let t0 = t0.max(from);
                    if t0 > from {
                        walls.segs.push(Seg {
                            a: at(from),
                            b: at(t0),
                            door: NO_DOOR,
                        });
                    }
                    if t1 > t0 {
                        walls.segs.push(Seg {
                            a: at(t0),
                            b: at(t1),
                            door,
                        });
                    }
                    from = from.max(t1);
                }
                if from < 1.0 {
                    walls.segs.push(Seg {
                        a: at(from),
                        b,
                        door: NO_DOOR,
                    });
                }
            }
            if solid {
                walls.solids.push(pts.clone());
            }
            walls.walls.push(WallInfo {
                id: wd.id.clone(),
                points: pts,
                closed,
                solid,
            });
        }
        if !walls.is_empty() {
            walls.index = SegIndex::build(&walls.segs);
            walls.grid = nav_grid(self.p.bounds, &walls.segs, &walls.solids);
            self.stand_checks(&walls);
        }
        self.p.walls = walls;
        self.obstacles();
    }

    /// Warnings: NPCs that start, and areas whose centre is, inside a wall.
    fn stand_checks(&mut self, walls: &Walls) {
        for (i, n) in self.pack.world.npcs.iter().enumerate() {
            let Some(EntityId::Npc(k)) = self.p.entity(&n.id) else {
                continue;
            };
            let Some(info) = self.p.npcs.get(k as usize).filter(|x| x.id == n.id) else {
                continue;
            };
            if !info.prototype && walls.inside(info.pos, BODY_RADIUS) {
                self.warn(
                    key(&index("world.npcs", i), "pos"),
                    format!(
                        "NPC `{}` starts inside a wall (within {BODY_RADIUS} of one, or in a solid)",
                        n.id
                    ),
                );
            }
        }
        for (i, a) in self.pack.areas.iter().enumerate() {
            let Some(EntityId::Area(k)) = self.p.entity(&a.id) else {
                continue;
            };
            let Some(info) = self.p.areas.get(k as usize).filter(|x| x.id == a.id) else {
                continue;
            };
            let c = info.center();
            if walls.inside(c, BODY_RADIUS) {
                self.warn(
                    key(&index("areas", i), "shape"),
                    format!(
                        "the centre of area `{}` ({}, {}) is inside a wall: NPCs sent to the area cannot reach it",
                        a.id, c.x, c.y
                    ),
                );
            }
        }
    }

    /// The grid of the objects NPCs steer around (radius > 0, doors of walls aside: their
    /// wall's opening is their obstacle), so that a walking NPC looks only at those near it.
    fn obstacles(&mut self) {
        let reach = BODY_RADIUS + 1.0;
        let mut boxes = Vec::new();
        let mut always = Vec::new();
        for (i, o) in self.p.objects.iter().enumerate() {
            if o.radius <= 0.0 || self.p.walls.door_of_object(i as u32).is_some() {
                continue;
            }
            let r = o.radius + reach;
            if r > OBSTACLE_CELL * 8.0 {
                always.push(i as u32);
            } else {
                let d = Vec2::new(r, r);
                boxes.push((i as u32, o.pos - d, o.pos + d));
            }
        }
        self.p.obstacles = Obstacles {
            any: !boxes.is_empty() || !always.is_empty(),
            in_order: always.is_empty(),
            grid: super::grid::BoxGrid::build(self.p.bounds, OBSTACLE_CELL, &boxes, always),
        };
    }
}

/// The objects NPCs steer around, on a grid of their avoidance ranges.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Obstacles {
    pub grid: super::grid::BoxGrid,
    /// There is at least one.
    pub any: bool,
    /// `grid.near` gives them in object order (none is too large for the grid's cells).
    pub in_order: bool,
}

/// Cell of the obstacle grid (world units; coarser when the bounds need it).
pub const OBSTACLE_CELL: f64 = 4.0;
