//! The tracker of SPEC §3 (the paper's algorithm, figures 1 and 2): which events are open.
//!
//! Costs: `advance` visits only the nodes whose date has come, and `ended` touches only the
//! node's out-edges; both are O(k + 1) for k nodes that change state, never a scan of the
//! graph. Removing an open node (launch) is O(1).
//!
//! Memory layout (issue 14 item 5: the costs stay flat on graphs of a million events whatever
//! order the caller numbers them in): the graph numbers its nodes internally by deadline
//! (`not_after`, then the caller's id), and every per-node array is in that order, so nodes
//! due together lie together. The two calendars of the paper are cursors over fixed orders
//! computed once with the graph: deadlines walk the internal order itself, window starts walk
//! `by_start` (the nodes by `not_before`, then id, each with its date); a node waiting for its
//! window is simply `Queued` until the start cursor reaches it. No call allocates. The nodes
//! below the deadline cursor have all been settled (none is blocked or queued any more), so an
//! edge into one is skipped without touching its target. The edges a dependency's target is
//! reached by carry what a death needs of it (its caller id, its own edges), and the states
//! are one byte per node, so a chain of deaths through unrelated dates reads, per node, its
//! state byte and its edges, nothing else. The out-edge lists are not in internal order but
//! in the order a chain of deaths reads them (`walk_order`): most deaths come in large
//! cascades through the graph (a death kills every blocked node that waits on it, and those
//! kill theirs), and the lists of a cascade then lie mostly one after another instead of one
//! line anywhere in the graph per node. Callers see only their own ids: every method takes
//! and returns them, and the changes, the open list, the states and the hash are the same
//! whatever the internal order.

use std::sync::Arc;

/// A node's fixed data, in internal order.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Out-edges: `edges[out_start..out_end]` (the lists are laid out in walk order, see
    /// `walk_order`, not in internal order).
    out_start: u32,
    out_end: u32,
    /// The caller's id.
    ext: u32,
}

/// A window start, in the start calendar.
#[derive(Clone, Copy, Debug)]
struct Start {
    not_before: i64,
    /// The internal id.
    node: u32,
}

/// An out-edge: the target's internal id (low 31 bits) and whether it needs success (top
/// bit), with what killing the target needs (its caller id and its own out-edges), so that a
/// chain of deaths reads one line of edges per node and nothing else of the graph.
#[derive(Clone, Copy, Debug, Default)]
struct Edge {
    to: u32,
    ext: u32,
    out_start: u32,
    out_end: u32,
}

const NEEDS_SUCCESS: u32 = 1 << 31;

impl Edge {
    fn target(self) -> u32 {
        self.to & !NEEDS_SUCCESS
    }
    fn needs_success(self) -> bool {
        self.to & NEEDS_SUCCESS != 0
    }
}

/// The two numberings of a graph's nodes, shared by the graph and its trackers.
#[derive(Debug, Default)]
struct Ids {
    /// Internal id of each caller id.
    internal: Vec<u32>,
    /// Caller id of each internal id.
    external: Vec<u32>,
}

/// A dependency graph over nodes `0..n` (the caller's ids), compiled once and shared.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Internal order (by `not_after`, then caller id).
    nodes: Vec<Node>,
    /// `not_before` of each internal node.
    not_before: Vec<i64>,
    /// `not_after` of each internal node (nondecreasing).
    not_after: Vec<i64>,
    /// Number of in-edges of each internal node.
    indeg: Vec<u32>,
    edges: Vec<Edge>,
    /// Internal nodes by `not_before`, then caller id (the start calendar).
    by_start: Vec<Start>,
    ids: Arc<Ids>,
    /// Nodes (caller ids) with a dependency that can never be met (on an event outside the
    /// scenario): dead from the start.
    pub doomed: Vec<u32>,
}

impl Graph {
    /// Builds a graph from windows (`not_before`, `not_after`) and edges (source, target,
    /// needs success), in the caller's ids `0..windows.len()`.
    pub fn new(windows: Vec<(i64, i64)>, edges: &[(u32, u32, bool)]) -> Graph {
        let n = windows.len();
        assert!(
            n < NEEDS_SUCCESS as usize,
            "a tracker graph holds fewer than 2^31 events (a pack of that many cannot be loaded)"
        );
        // Sorting (key, id) pairs: no lookups while sorting (ids are unique: a total order).
        let mut keyed: Vec<(i64, u32)> =
            (0..n as u32).map(|e| (windows[e as usize].1, e)).collect();
        keyed.sort_unstable();
        let ext: Vec<u32> = keyed.iter().map(|&(_, e)| e).collect();
        let mut internal = vec![0u32; n];
        for (i, &e) in ext.iter().enumerate() {
            internal[e as usize] = i as u32;
        }
        let mut indeg = vec![0u32; n];
        let mut count = vec![0u32; n + 1];
        for &(s, t, _) in edges {
            count[internal[s as usize] as usize + 1] += 1;
            indeg[internal[t as usize] as usize] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        // Each source's edges in the order given (the order `ended` visits them), by source
        // in internal order: (target, needs success).
        let mut fill = count.clone();
        let mut by_source = vec![(0u32, false); edges.len()];
        for &(s, t, ok) in edges {
            let s = internal[s as usize] as usize;
            by_source[fill[s] as usize] = (internal[t as usize], ok);
            fill[s] += 1;
        }
        let of = |i: usize| &by_source[count[i] as usize..count[i + 1] as usize];
        // The lists laid out in walk order.
        let mut nodes: Vec<Node> = ext
            .iter()
            .map(|&e| Node {
                out_start: 0,
                out_end: 0,
                ext: e,
            })
            .collect();
        let order = walk_order(&indeg, of);
        let mut at = 0u32;
        for &i in &order {
            let node = &mut nodes[i as usize];
            node.out_start = at;
            at += of(i as usize).len() as u32;
            node.out_end = at;
        }
        let mut out = Vec::with_capacity(edges.len());
        for &i in &order {
            out.extend(of(i as usize).iter().map(|&(t, ok)| {
                let target = nodes[t as usize];
                Edge {
                    to: t | if ok { NEEDS_SUCCESS } else { 0 },
                    ext: target.ext,
                    out_start: target.out_start,
                    out_end: target.out_end,
                }
            }));
        }
        let not_before: Vec<i64> = ext.iter().map(|&e| windows[e as usize].0).collect();
        let mut keyed: Vec<(i64, u32, u32)> =
            (0..n).map(|i| (not_before[i], ext[i], i as u32)).collect();
        keyed.sort_unstable();
        let by_start = keyed
            .iter()
            .map(|&(not_before, _, node)| Start { not_before, node })
            .collect();
        Graph {
            not_after: ext.iter().map(|&e| windows[e as usize].1).collect(),
            not_before,
            nodes,
            indeg,
            edges: out,
            by_start,
            ids: Arc::new(Ids {
                internal,
                external: ext,
            }),
            doomed: Vec::new(),
        }
    }
    pub fn len(&self) -> usize {
        self.ids.internal.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ids.internal.is_empty()
    }
    pub fn not_before(&self, n: u32) -> i64 {
        self.not_before[self.ids.internal[n as usize] as usize]
    }
    pub fn not_after(&self, n: u32) -> i64 {
        self.not_after[self.ids.internal[n as usize] as usize]
    }
    /// Out-edges of node `n`: (target, needs success), in the order given.
    pub fn out_edges(&self, n: u32) -> impl Iterator<Item = (u32, bool)> + '_ {
        self.edges_of(self.ids.internal[n as usize])
            .iter()
            .map(|e| (self.nodes[e.target() as usize].ext, e.needs_success()))
    }
    fn edges_of(&self, i: u32) -> &[Edge] {
        let node = self.nodes[i as usize];
        &self.edges[node.out_start as usize..node.out_end as usize]
    }
    fn ext(&self, i: u32) -> u32 {
        self.nodes[i as usize].ext
    }
    /// An edge into internal node `i` (what `kill` needs of it), with any outcome.
    fn target(&self, i: u32) -> Edge {
        let node = self.nodes[i as usize];
        Edge {
            to: i,
            ext: node.ext,
            out_start: node.out_start,
            out_end: node.out_end,
        }
    }
}

/// The order the out-edge lists are laid out in: the order a death's walk reads them
/// (`Tracker::propagate_death`: a node's targets found in edge order, the last found read
/// first), from each node without dependencies in internal order, then from any node not
/// reached yet. A cascade of deaths then reads the lists mostly one after another instead
/// of one line anywhere in the graph per node. Every internal node once: a permutation of
/// `0..indeg.len()`.
fn walk_order<'a>(indeg: &[u32], of: impl Fn(usize) -> &'a [(u32, bool)]) -> Vec<u32> {
    let n = indeg.len();
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack = Vec::new();
    let roots = (0..n).filter(|&i| indeg[i] == 0);
    for r in roots.chain(0..n) {
        if seen[r] {
            continue;
        }
        seen[r] = true;
        stack.push(r as u32);
        while let Some(x) = stack.pop() {
            order.push(x);
            for &(t, _) in of(x as usize) {
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    stack.push(t);
                }
            }
        }
    }
    order
}

/// Where a node is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeState {
    /// Some dependency is not met yet.
    Blocked,
    /// Dependencies met, window not started.
    Queued,
    /// Dependencies met and date inside the window.
    Open,
    /// Launched, not ended.
    Active,
    /// Ended with this outcome (true = success).
    Done(bool),
    /// Was open, and its window closed before it was launched.
    Expired,
    /// Can never open: a dependency ended the other way or can never end, or its window
    /// closed before its dependencies were met.
    Dead,
}

/// A state change, in the order it happened (for trace events), in the caller's ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Open(u32),
    Expired(u32),
    Dead(u32),
}

// One byte per node: the states of a million nodes fit in a core's L2 cache.
const _: () = assert!(std::mem::size_of::<NodeState>() == 1);

/// The tracker's state for one playthrough.
#[derive(Clone, Debug)]
pub struct Tracker {
    pub date: i64,
    ids: Arc<Ids>,
    /// Each internal node's state, and its dependencies not met yet (apart: the states are
    /// read on every edge, the counts only when a dependency is met).
    state: Vec<NodeState>,
    unmet: Vec<u32>,
    /// Open nodes (caller ids, unordered), their internal ids at the same positions, and
    /// each open internal node's position in them.
    open: Vec<u32>,
    open_internal: Vec<u32>,
    open_pos: Vec<u32>,
    /// Start calendar: the windows of `by_start[..starts]` have started.
    starts: usize,
    /// Deadline calendar: the windows of internal nodes `..settled` have closed, and none
    /// of them is blocked or queued.
    settled: usize,
    /// Changes since the caller last took them.
    pub changes: Vec<Change>,
    /// Scratch space of `propagate_death` (empty between calls).
    stack: Vec<Edge>,
}

impl Tracker {
    /// A tracker at `date`. Nodes without dependencies are queued; the first
    /// [`Tracker::advance`] (of 0 days, or more) opens the due ones.
    pub fn new(g: &Graph, date: i64) -> Tracker {
        let state = g
            .indeg
            .iter()
            .map(|&unmet| {
                if unmet == 0 {
                    NodeState::Queued
                } else {
                    NodeState::Blocked
                }
            })
            .collect();
        let mut t = Tracker {
            date,
            ids: g.ids.clone(),
            state,
            unmet: g.indeg.clone(),
            open: Vec::new(),
            open_internal: Vec::new(),
            open_pos: vec![u32::MAX; g.len()],
            starts: 0,
            settled: 0,
            changes: Vec::new(),
            stack: Vec::new(),
        };
        for &d in &g.doomed {
            let i = g.ids.internal[d as usize];
            if matches!(t.state[i as usize], NodeState::Blocked | NodeState::Queued) {
                t.kill(g, g.target(i));
            }
        }
        t
    }

    pub fn state(&self, n: u32) -> NodeState {
        self.state[self.ids.internal[n as usize] as usize]
    }
    /// Each node's state, by caller id.
    pub fn states(&self) -> impl Iterator<Item = NodeState> + '_ {
        self.ids.internal.iter().map(|&i| self.state[i as usize])
    }
    /// Whether some node still waits for its dependencies.
    pub fn any_blocked(&self) -> bool {
        self.state.contains(&NodeState::Blocked)
    }
    /// Open nodes, in no particular order.
    pub fn open(&self) -> &[u32] {
        &self.open
    }
    /// Nodes waiting for their window, in no particular order.
    pub fn queued(&self) -> impl Iterator<Item = u32> + '_ {
        self.state
            .iter()
            .zip(&self.ids.external)
            .filter(|&(&s, _)| s == NodeState::Queued)
            .map(|(_, &e)| e)
    }

    /// Moves the date on by `days` (≥ 0): opens queued nodes whose window started, expires
    /// open nodes whose window closed, and kills waiting nodes whose window closed.
    pub fn advance(&mut self, g: &Graph, days: i64) {
        self.date = self.date.saturating_add(days.max(0));
        let date = self.date;
        // Windows closed by `date`: internal nodes `..closed` (internal order is by deadline).
        let mut closed = self.settled;
        while g.not_after.get(closed).is_some_and(|&na| na < date) {
            closed += 1;
        }
        // Windows started by `date`, by start then id: the queued ones open (or die, if their
        // window closed too).
        while let Some(&Start {
            not_before,
            node: i,
        }) = g.by_start.get(self.starts)
            && not_before <= date
        {
            self.starts += 1;
            if self.state[i as usize] == NodeState::Queued {
                if (i as usize) < closed {
                    self.kill(g, g.target(i));
                } else {
                    self.open_node(g, i);
                }
            }
        }
        // Windows closed, by deadline then id.
        while self.settled < closed {
            let i = self.settled as u32;
            self.settled += 1;
            match self.state[i as usize] {
                NodeState::Open => {
                    self.remove_open(i);
                    self.state[i as usize] = NodeState::Expired;
                    self.changes.push(Change::Expired(g.ext(i)));
                    self.propagate_death(g, g.target(i));
                }
                NodeState::Blocked | NodeState::Queued => self.kill(g, g.target(i)),
                _ => {}
            }
        }
    }

    /// Launches an open node: it leaves the open list and becomes active. False (and no
    /// change) if the node is not open.
    pub fn launch(&mut self, n: u32) -> bool {
        let Some(&i) = self.ids.internal.get(n as usize) else {
            return false;
        };
        if self.state[i as usize] != NodeState::Open {
            return false;
        }
        self.remove_open(i);
        self.state[i as usize] = NodeState::Active;
        true
    }

    /// An active node ended: targets of matching edges get one dependency fewer (and open
    /// or queue at zero), targets of the other edges can never open. Then `advance(0)`.
    /// False (and no change) if the node is not active.
    pub fn ended(&mut self, g: &Graph, n: u32, success: bool) -> bool {
        let Some(&i) = self.ids.internal.get(n as usize) else {
            return false;
        };
        if self.state[i as usize] != NodeState::Active {
            return false;
        }
        self.state[i as usize] = NodeState::Done(success);
        for &e in g.edges_of(i) {
            let t = e.target();
            // Settled nodes are never blocked: skip them without touching them.
            if (t as usize) < self.settled || self.state[t as usize] != NodeState::Blocked {
                continue;
            }
            if e.needs_success() == success {
                let unmet = &mut self.unmet[t as usize];
                *unmet -= 1;
                if *unmet == 0 {
                    self.ready(g, e);
                }
            } else {
                self.kill(g, e);
            }
        }
        self.advance(g, 0);
        true
    }

    /// The last dependency of `t` (the target of an edge) is met.
    fn ready(&mut self, g: &Graph, t: Edge) {
        let i = t.target() as usize;
        if g.not_after[i] < self.date {
            self.kill(g, t);
        } else if g.not_before[i] > self.date {
            self.state[i] = NodeState::Queued;
        } else {
            self.open_node(g, t.target());
        }
    }

    fn open_node(&mut self, g: &Graph, i: u32) {
        self.state[i as usize] = NodeState::Open;
        self.open_pos[i as usize] = self.open.len() as u32;
        let e = g.ext(i);
        self.open.push(e);
        self.open_internal.push(i);
        self.changes.push(Change::Open(e));
    }

    fn remove_open(&mut self, i: u32) {
        let at = self.open_pos[i as usize] as usize;
        self.open.swap_remove(at);
        self.open_internal.swap_remove(at);
        if let Some(&moved) = self.open_internal.get(at) {
            self.open_pos[moved as usize] = at as u32;
        }
        self.open_pos[i as usize] = u32::MAX;
    }

    /// Marks a waiting node (the target of `t`) dead and everything that waits on it.
    fn kill(&mut self, g: &Graph, t: Edge) {
        self.state[t.target() as usize] = NodeState::Dead;
        self.changes.push(Change::Dead(t.ext));
        self.propagate_death(g, t);
    }

    /// The target of `t` will never end: its blocked dependents can never open (each
    /// node's targets in edge order, then the last one killed first). Reads only the state
    /// bytes and the edges.
    fn propagate_death(&mut self, g: &Graph, t: Edge) {
        let mut stack = std::mem::take(&mut self.stack);
        let mut x = t;
        loop {
            for &e in &g.edges[x.out_start as usize..x.out_end as usize] {
                let t = e.target();
                if (t as usize) >= self.settled && self.state[t as usize] == NodeState::Blocked {
                    self.state[t as usize] = NodeState::Dead;
                    self.changes.push(Change::Dead(e.ext));
                    if e.out_start < e.out_end {
                        stack.push(e);
                    }
                }
            }
            match stack.pop() {
                Some(e) => x = e,
                None => break,
            }
        }
        self.stack = stack;
    }

    /// Feeds a fixed encoding of the state to a hasher (in caller ids: the same whatever
    /// the internal order).
    pub fn hash_into(&self, h: &mut dyn FnMut(u64)) {
        h(self.date as u64);
        for s in self.states() {
            h(match s {
                NodeState::Blocked => 0,
                NodeState::Queued => 1,
                NodeState::Open => 2,
                NodeState::Active => 3,
                NodeState::Done(false) => 4,
                NodeState::Done(true) => 5,
                NodeState::Expired => 6,
                NodeState::Dead => 7,
            });
        }
        for &i in &self.ids.internal {
            h(self.unmet[i as usize] as u64);
        }
        // The open list's order decides nothing (the executor sorts), but it is state.
        for &o in &self.open {
            h(o as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// A random graph over `n` nodes: windows, and edges between any nodes (cycles, self
    /// loops and repeated edges included: `Graph::new` takes what it is given).
    fn random_graph(rng: &mut rand_chacha::ChaCha8Rng, n: u32) -> Graph {
        let windows = (0..n)
            .map(|_| {
                let nb = rng.random_range(0..50);
                (nb, nb + rng.random_range(0..20))
            })
            .collect();
        let edges: Vec<(u32, u32, bool)> = (0..rng.random_range(0..3 * n + 1))
            .map(|_| {
                (
                    rng.random_range(0..n),
                    rng.random_range(0..n),
                    rng.random::<bool>(),
                )
            })
            .collect();
        let g = Graph::new(windows, &edges);
        // Each node's out-edges are the ones given, in the order given, whatever the layout.
        for s in 0..n {
            let given: Vec<(u32, bool)> = edges
                .iter()
                .filter(|e| e.0 == s)
                .map(|&(_, t, ok)| (t, ok))
                .collect();
            assert_eq!(g.out_edges(s).collect::<Vec<_>>(), given, "node {s}");
        }
        g
    }

    /// The out-edge lists are laid out once each: every node's range is its own, the ranges
    /// tile the edge array, and each edge carries its target's range and caller id.
    #[test]
    fn the_edge_lists_tile_the_edges_once() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for n in [1, 2, 5, 40, 300] {
            let g = random_graph(&mut rng, n);
            let mut ranges: Vec<(u32, u32)> =
                g.nodes.iter().map(|v| (v.out_start, v.out_end)).collect();
            ranges.sort_unstable();
            let mut at = 0;
            for (a, b) in ranges {
                assert_eq!(a, at);
                at = b;
            }
            assert_eq!(at as usize, g.edges.len());
            for e in &g.edges {
                let t = g.nodes[e.target() as usize];
                assert_eq!(
                    (e.out_start, e.out_end, e.ext),
                    (t.out_start, t.out_end, t.ext)
                );
            }
        }
    }

    /// The walk order is a permutation of the nodes, even on graphs with cycles or nodes no
    /// root reaches.
    #[test]
    fn the_walk_order_is_a_permutation() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
        for n in [0usize, 1, 3, 50, 400] {
            let indeg: Vec<u32> = (0..n).map(|_| rng.random_range(0..3)).collect();
            let lists: Vec<Vec<(u32, bool)>> = (0..n)
                .map(|_| {
                    (0..rng.random_range(0..4))
                        .map(|_| (rng.random_range(0..n as u32), true))
                        .collect()
                })
                .collect();
            let mut order = walk_order(&indeg, |i| &lists[i]);
            order.sort_unstable();
            assert_eq!(order, (0..n as u32).collect::<Vec<_>>());
        }
    }

    /// A chain of dependencies whose deadlines run backwards (so internal order runs against
    /// the chain) has its edge lists laid out along the chain: a cascade down it reads them
    /// one after another.
    #[test]
    fn a_chain_of_dependencies_is_laid_out_along_the_chain() {
        let n = 50u32;
        let windows = (0..n).map(|v| (0, 100 - v as i64)).collect();
        let edges: Vec<(u32, u32, bool)> = (1..n).map(|v| (v - 1, v, true)).collect();
        let g = Graph::new(windows, &edges);
        let starts: Vec<u32> = (0..n - 1)
            .map(|v| g.nodes[g.ids.internal[v as usize] as usize].out_start)
            .collect();
        assert_eq!(starts, (0..n - 1).collect::<Vec<_>>());
    }
}
