//! The hierarchical planner (HPA*) over the navigation grid: the grid cut into clusters of
//! [`SIDE`] × [`SIDE`] cells; an entrance where free cells meet across a cluster border (one
//! in the middle of each run of facing free cells, or one at each end of a long run); an
//! abstract graph of the entrances whose edges inside a cluster are the costs of the shortest
//! paths there (Dijkstra limited to the cluster, computed when the cluster is first searched
//! through and cached in [`NavGraph`]); a query connects start and goal to their clusters'
//! entrances, runs A* over the abstract graph, and refines each abstract edge into cells (A*
//! limited to its cluster, cached per edge, so NPCs going the same way share the work).
//! Connectivity — each cluster's regions and their components over the grid with the doors
//! as they are — answers "no path" without a search.
//!
//! Every search is the `pathfinding` crate's (`astar`, `dijkstra_reach`, `bfs_reach`).
//! Deterministic: cells are visited in one fixed order, the costs are integers (10 a side,
//! 14 a diagonal, as the flat grid search), and the crate's searches break ties by insertion
//! order; the caches only hold what a search would find again.
//!
//! A door change is local ([`door_changed`]): the clusters holding its cells get their
//! regions again and lose their entrances and cached refinements, their neighbours lose
//! their entrances (the border between them changed), and the components are joined again
//! (a pass over the cluster borders, no search).

use std::sync::Arc;

use pathfinding::directed::astar::astar;
use pathfinding::directed::bfs::bfs_reach;
use pathfinding::directed::dijkstra::dijkstra_reach;

use crate::program::walls::NavGrid;
use crate::world::nav::{Entrances, NavGraph};

/// Side of a cluster, in cells.
pub const SIDE: u32 = 16;
/// Runs of facing free cells at least this long get an entrance at each end (else one in
/// the middle).
const LONG_RUN: u32 = 6;
/// Most cached refinements; the cache is emptied when full.
pub const MAX_REFINED: usize = 1 << 15;

/// A cluster's cells: columns `x0..x1`, rows `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

/// The cluster holding cell `id`.
pub fn cluster_of(gr: &NavGraph, g: &NavGrid, id: u32) -> u32 {
    let (x, y) = g.coords(id);
    (y / SIDE) * gr.ccols + x / SIDE
}

fn rect(gr: &NavGraph, g: &NavGrid, k: u32) -> Rect {
    let (cx, cy) = (k % gr.ccols.max(1), k / gr.ccols.max(1));
    Rect {
        x0: cx * SIDE,
        y0: cy * SIDE,
        x1: ((cx + 1) * SIDE).min(g.cols),
        y1: ((cy + 1) * SIDE).min(g.rows),
    }
}

/// The free neighbours of cell `c` inside `r` with their costs: the four sides, then the
/// diagonals between two free sides (no corner cutting), as the flat grid search.
fn neighbours(
    g: &NavGrid,
    doors: &[bool],
    c: u32,
    r: Rect,
) -> impl Iterator<Item = (u32, u32)> + use<> {
    let (x, y) = g.coords(c);
    let (x, y) = (x as i64, y as i64);
    let free = |cx: i64, cy: i64| -> Option<u32> {
        if cx < r.x0 as i64 || cy < r.y0 as i64 || cx >= r.x1 as i64 || cy >= r.y1 as i64 {
            return None;
        }
        let id = g.id((cx as u32, cy as u32));
        g.free(id, doors).then_some(id)
    };
    let w_ = free(x - 1, y);
    let e_ = free(x + 1, y);
    let s_ = free(x, y - 1);
    let n_ = free(x, y + 1);
    let diag = |a: Option<u32>, b: Option<u32>, dx: i64, dy: i64| {
        if a.is_some() && b.is_some() {
            free(x + dx, y + dy).map(|n| (n, 14))
        } else {
            None
        }
    };
    [
        w_.map(|n| (n, 10)),
        e_.map(|n| (n, 10)),
        s_.map(|n| (n, 10)),
        n_.map(|n| (n, 10)),
        diag(w_, s_, -1, -1),
        diag(e_, s_, 1, -1),
        diag(w_, n_, -1, 1),
        diag(e_, n_, 1, 1),
    ]
    .into_iter()
    .flatten()
}

/// Octile distance between two cells, in the search's cost units.
pub fn octile(g: &NavGrid, a: u32, b: u32) -> u32 {
    let (ax, ay) = g.coords(a);
    let (bx, by) = g.coords(b);
    let dx = ax.abs_diff(bx);
    let dy = ay.abs_diff(by);
    10 * dx.max(dy) + 4 * dx.min(dy)
}

/// Builds the clusters' regions and components for grid `g` and the doors `doors` (nothing
/// else: entrances come when first needed).
pub fn build(gr: &mut NavGraph, g: &NavGrid, doors: &[bool]) {
    frame(gr, g);
    let n = (gr.ccols * gr.crows) as usize;
    for k in 0..n as u32 {
        let (labels, count) = label(gr, g, doors, k);
        gr.labels.push(labels);
        gr.regions.push(count);
    }
    join(gr, g);
}

/// The clusters of grid `g` and nothing in them: what a grid planned flat needs (which
/// clusters a path passes, for local re-planning when a door changes); no regions, no
/// entrances.
pub fn frame(gr: &mut NavGraph, g: &NavGrid) {
    let ccols = g.cols.div_ceil(SIDE).max(1);
    let crows = g.rows.div_ceil(SIDE).max(1);
    let n = (ccols * crows) as usize;
    *gr = NavGraph {
        cells: g.cols * g.rows,
        ccols,
        crows,
        labels: Vec::with_capacity(n),
        regions: Vec::with_capacity(n),
        region_base: Vec::new(),
        component: Vec::new(),
        entrances: vec![None; n],
        refined: Default::default(),
    };
}

/// The clusters cells `cells` lie in, sorted.
pub fn clusters_of(gr: &NavGraph, g: &NavGrid, cells: &[u32]) -> Vec<u32> {
    let mut ks: Vec<u32> = cells.iter().map(|&c| cluster_of(gr, g, c)).collect();
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// The regions of cluster `k`: each free cell's region (1-based; 0 blocked) and how many.
fn label(gr: &NavGraph, g: &NavGrid, doors: &[bool], k: u32) -> (Arc<[u16]>, u16) {
    let r = rect(gr, g, k);
    let mut labels = vec![0u16; (SIDE * SIDE) as usize];
    let local = |c: u32| {
        let (x, y) = g.coords(c);
        ((y - r.y0) * SIDE + (x - r.x0)) as usize
    };
    let mut count = 0u16;
    for y in r.y0..r.y1 {
        for x in r.x0..r.x1 {
            let c = g.id((x, y));
            if labels[local(c)] != 0 || !g.free(c, doors) {
                continue;
            }
            count += 1;
            // Orthogonal connectivity is the grid's: a diagonal step needs both sides free.
            let sides = |&c: &u32| {
                neighbours(g, doors, c, r)
                    .filter(|&(_, cost)| cost == 10)
                    .map(|(n, _)| n)
            };
            for cell in bfs_reach(c, sides) {
                labels[local(cell)] = count;
            }
        }
    }
    (labels.into(), count)
}

/// The region (index into `component`) of cell `c`, `None` when it is blocked.
fn region(gr: &NavGraph, g: &NavGrid, c: u32) -> Option<u32> {
    let k = cluster_of(gr, g, c);
    let (x, y) = g.coords(c);
    let (kx, ky) = (x % SIDE, y % SIDE);
    let l = *gr.labels.get(k as usize)?.get((ky * SIDE + kx) as usize)?;
    (l != 0).then(|| gr.region_base[k as usize] + l as u32 - 1)
}

/// The component of cell `c` (cells of one component reach each other), `None` if blocked.
pub fn component(gr: &NavGraph, g: &NavGrid, c: u32) -> Option<u32> {
    region(gr, g, c).map(|r| gr.component[r as usize])
}

/// Joins the regions into components over every cluster border (union–find; no search).
fn join(gr: &mut NavGraph, g: &NavGrid) {
    let mut base = Vec::with_capacity(gr.regions.len());
    let mut total = 0u32;
    for &n in &gr.regions {
        base.push(total);
        total += n as u32;
    }
    gr.region_base = base;
    let mut parent: Vec<u32> = (0..total).collect();
    fn find(parent: &mut [u32], mut a: u32) -> u32 {
        while parent[a as usize] != a {
            let up = parent[parent[a as usize] as usize];
            parent[a as usize] = up;
            a = up;
        }
        a
    }
    let mut unite = |a: Option<u32>, b: Option<u32>| {
        if let (Some(a), Some(b)) = (a, b) {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            // The smaller index becomes the root: components are named by their first region.
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            parent[hi as usize] = lo;
        }
    };
    for k in 0..gr.regions.len() as u32 {
        let r = rect(gr, g, k);
        if r.x1 < g.cols {
            for y in r.y0..r.y1 {
                let a = region(gr, g, g.id((r.x1 - 1, y)));
                let b = region(gr, g, g.id((r.x1, y)));
                unite(a, b);
            }
        }
        if r.y1 < g.rows {
            for x in r.x0..r.x1 {
                let a = region(gr, g, g.id((x, r.y1 - 1)));
                let b = region(gr, g, g.id((x, r.y1)));
                unite(a, b);
            }
        }
    }
    gr.component = (0..total).map(|a| find(&mut parent, a)).collect();
}

/// Door cells `cells` changed (a door opened or closed): the clusters holding them get their
/// regions again and lose their refinements; they and their neighbours lose their entrances;
/// the components are joined again. Returns the clusters whose cells changed, sorted.
pub fn door_changed(gr: &mut NavGraph, g: &NavGrid, doors: &[bool], cells: &[u32]) -> Vec<u32> {
    let ks = clusters_of(gr, g, cells);
    for &k in &ks {
        let (labels, count) = label(gr, g, doors, k);
        gr.labels[k as usize] = labels;
        gr.regions[k as usize] = count;
        let (cx, cy) = (k % gr.ccols, k / gr.ccols);
        gr.entrances[k as usize] = None;
        for (dx, dy) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (nx, ny) = (cx as i64 + dx, cy as i64 + dy);
            if nx >= 0 && ny >= 0 && nx < gr.ccols as i64 && ny < gr.crows as i64 {
                gr.entrances[(ny as u32 * gr.ccols + nx as u32) as usize] = None;
            }
        }
    }
    let ccols = gr.ccols;
    let cols = g.cols;
    gr.refined.retain(|&(a, _), _| {
        let (x, y) = (a % cols, a / cols);
        ks.binary_search(&((y / SIDE) * ccols + x / SIDE)).is_err()
    });
    join(gr, g);
    ks
}

/// Cluster `k`'s entrances (computed and cached when first asked for).
fn entrances(gr: &mut NavGraph, g: &NavGrid, doors: &[bool], k: u32) -> Arc<Entrances> {
    if let Some(e) = &gr.entrances[k as usize] {
        return e.clone();
    }
    let r = rect(gr, g, k);
    let mut partners: Vec<(u32, u32)> = Vec::new();
    // Each side: (the cluster's border cells, the facing cells), along the side.
    let mut sides: Vec<Vec<(u32, u32)>> = Vec::new();
    if r.x0 > 0 {
        sides.push(
            (r.y0..r.y1)
                .map(|y| (g.id((r.x0, y)), g.id((r.x0 - 1, y))))
                .collect(),
        );
    }
    if r.x1 < g.cols {
        sides.push(
            (r.y0..r.y1)
                .map(|y| (g.id((r.x1 - 1, y)), g.id((r.x1, y))))
                .collect(),
        );
    }
    if r.y0 > 0 {
        sides.push(
            (r.x0..r.x1)
                .map(|x| (g.id((x, r.y0)), g.id((x, r.y0 - 1))))
                .collect(),
        );
    }
    if r.y1 < g.rows {
        sides.push(
            (r.x0..r.x1)
                .map(|x| (g.id((x, r.y1 - 1)), g.id((x, r.y1))))
                .collect(),
        );
    }
    for side in &sides {
        let open = |i: usize| g.free(side[i].0, doors) && g.free(side[i].1, doors);
        let mut i = 0;
        while i < side.len() {
            if !open(i) {
                i += 1;
                continue;
            }
            let start = i;
            while i < side.len() && open(i) {
                i += 1;
            }
            let len = (i - start) as u32;
            // The same positions from both sides of the border: the runs are the same.
            if len >= LONG_RUN {
                partners.push(side[start]);
                partners.push(side[i - 1]);
            } else {
                partners.push(side[start + (len as usize - 1) / 2]);
            }
        }
    }
    partners.sort_unstable();
    partners.dedup();
    let mut nodes: Vec<u32> = partners.iter().map(|p| p.0).collect();
    nodes.dedup();
    let edges = nodes
        .iter()
        .map(|&n| {
            let mut found = Vec::new();
            let succ = |&c: &u32| neighbours(g, doors, c, r);
            for item in dijkstra_reach(&n, succ) {
                if item.node != n && nodes.binary_search(&item.node).is_ok() {
                    found.push((item.node, item.total_cost));
                    if found.len() + 1 == nodes.len() {
                        break;
                    }
                }
            }
            found
        })
        .collect();
    let e = Arc::new(Entrances {
        nodes,
        partners,
        edges,
    });
    gr.entrances[k as usize] = Some(e.clone());
    e
}

/// The shortest path inside cluster `k` from `a` to `b` (the cells after `a`), cached.
fn refine(gr: &mut NavGraph, g: &NavGrid, doors: &[bool], k: u32, a: u32, b: u32) -> Arc<[u32]> {
    if let Some(c) = gr.refined.get(&(a, b)) {
        return c.clone();
    }
    let r = rect(gr, g, k);
    let cells: Arc<[u32]> = astar(
        &a,
        |&c| neighbours(g, doors, c, r),
        |&c| octile(g, c, b),
        |&c| c == b,
    )
    .map(|(cells, _)| cells.into_iter().skip(1).collect())
    .unwrap_or_default();
    if gr.refined.len() >= MAX_REFINED {
        gr.refined.clear();
    }
    gr.refined.insert((a, b), cells.clone());
    cells
}

/// Costs from `from` to the entrances of its cluster `k` (and to `goal` if it is in `k`),
/// inside the cluster, in the order the search reached them.
fn local_costs(
    gr: &mut NavGraph,
    g: &NavGrid,
    doors: &[bool],
    k: u32,
    from: u32,
    goal: Option<u32>,
) -> Vec<(u32, u32)> {
    let e = entrances(gr, g, doors, k);
    let r = rect(gr, g, k);
    let want = e.nodes.len() + goal.is_some() as usize;
    let mut found = Vec::new();
    for item in dijkstra_reach(&from, |&c: &u32| neighbours(g, doors, c, r)) {
        if item.node != from
            && (goal == Some(item.node) || e.nodes.binary_search(&item.node).is_ok())
        {
            found.push((item.node, item.total_cost));
            if found.len() == want {
                break;
            }
        }
    }
    found
}

/// The cells from free cell `from` to free cell `to` (after `from`, ending with `to`), or
/// `None` when they are in different components.
pub fn cell_path(
    gr: &mut NavGraph,
    g: &NavGrid,
    doors: &[bool],
    from: u32,
    to: u32,
) -> Option<Vec<u32>> {
    if from == to {
        return Some(Vec::new());
    }
    let (cf, ct) = (component(gr, g, from)?, component(gr, g, to)?);
    if cf != ct {
        return None;
    }
    let ks = cluster_of(gr, g, from);
    let kg = cluster_of(gr, g, to);
    let start = local_costs(gr, g, doors, ks, from, (ks == kg).then_some(to));
    let mut to_goal = local_costs(gr, g, doors, kg, to, None);
    to_goal.sort_unstable();
    let succ = |&n: &u32| -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = Vec::new();
        let k = cluster_of(gr, g, n);
        let e = entrances(gr, g, doors, k);
        if n == from {
            v.extend_from_slice(&start);
        } else if let Ok(i) = e.nodes.binary_search(&n) {
            v.extend_from_slice(&e.edges[i]);
        }
        let at = e.partners.partition_point(|p| p.0 < n);
        v.extend(
            e.partners[at..]
                .iter()
                .take_while(|p| p.0 == n)
                .map(|p| (p.1, 10)),
        );
        if k == kg && n != from {
            // Symmetric costs: the grid's moves are the same both ways.
            if let Ok(i) = to_goal.binary_search_by_key(&n, |x| x.0) {
                v.push((to, to_goal[i].1));
            }
        }
        v
    };
    let (abstract_path, _) = astar(&from, succ, |&n| octile(g, n, to), |&n| n == to)?;
    let mut cells = Vec::new();
    for pair in abstract_path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (ka, kb) = (cluster_of(gr, g, a), cluster_of(gr, g, b));
        if ka != kb {
            cells.push(b);
        } else {
            cells.extend_from_slice(&refine(gr, g, doors, ka, a, b));
        }
    }
    Some(cells)
}
