//! The tracker of SPEC §3 (the paper's algorithm, figures 1 and 2): which events are open.
//!
//! Costs: `advance` pops only the nodes whose date has come (two ordered calendars keyed
//! by day: `not_before` for nodes waiting for their window, `not_after` for deadlines), and
//! `ended` touches only the node's out-edges; both are O((k + 1) log n) for k nodes that
//! change state, never a scan of the graph. Removing an open node (launch) is O(1). The
//! calendars are B-trees of per-day buckets (the paper's priority queue): the nodes of one
//! day sit together in memory, which keeps the cost flat on large graphs.

use std::collections::BTreeMap;

/// A dependency graph over nodes `0..n`, compiled once and shared.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub not_before: Vec<i64>,
    pub not_after: Vec<i64>,
    /// Number of in-edges of each node.
    pub indeg: Vec<u32>,
    /// Out-edges of node `i`: `out[out_start[i]..out_start[i + 1]]`, (target, needs success).
    pub out_start: Vec<u32>,
    pub out: Vec<(u32, bool)>,
    /// Nodes with a dependency that can never be met (on an event outside the scenario):
    /// dead from the start.
    pub doomed: Vec<u32>,
}

impl Graph {
    /// Builds a graph from windows and edges (source, target, needs success).
    pub fn new(windows: Vec<(i64, i64)>, edges: &[(u32, u32, bool)]) -> Graph {
        let n = windows.len();
        let mut indeg = vec![0u32; n];
        let mut count = vec![0u32; n + 1];
        for &(s, t, _) in edges {
            count[s as usize + 1] += 1;
            indeg[t as usize] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let out_start = count.clone();
        let mut fill = count;
        let mut out = vec![(0u32, false); edges.len()];
        for &(s, t, ok) in edges {
            out[fill[s as usize] as usize] = (t, ok);
            fill[s as usize] += 1;
        }
        Graph {
            not_before: windows.iter().map(|w| w.0).collect(),
            not_after: windows.iter().map(|w| w.1).collect(),
            indeg,
            out_start,
            out,
            doomed: Vec::new(),
        }
    }
    pub fn len(&self) -> usize {
        self.not_before.len()
    }
    pub fn is_empty(&self) -> bool {
        self.not_before.is_empty()
    }
    pub fn out_edges(&self, n: u32) -> &[(u32, bool)] {
        let a = self.out_start[n as usize] as usize;
        let b = self.out_start[n as usize + 1] as usize;
        &self.out[a..b]
    }
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

/// A state change, in the order it happened (for trace events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Open(u32),
    Expired(u32),
    Dead(u32),
}

/// The tracker's state for one playthrough.
#[derive(Clone, Debug)]
pub struct Tracker {
    pub date: i64,
    state: Vec<NodeState>,
    unmet: Vec<u32>,
    /// Open nodes (unordered) and each open node's position in it.
    open: Vec<u32>,
    open_pos: Vec<u32>,
    /// Nodes whose dependencies are met but whose window has not started, by `not_before`.
    queue: BTreeMap<i64, Vec<u32>>,
    /// Every node that may still open, by `not_after` (stale entries are skipped).
    deadlines: BTreeMap<i64, Vec<u32>>,
    /// Changes since the caller last took them.
    pub changes: Vec<Change>,
}

impl Tracker {
    /// A tracker at `date`. Nodes without dependencies are queued; the first
    /// [`Tracker::advance`] (of 0 days, or more) opens the due ones.
    pub fn new(g: &Graph, date: i64) -> Tracker {
        let n = g.len();
        let mut state = vec![NodeState::Blocked; n];
        let mut queue: BTreeMap<i64, Vec<u32>> = BTreeMap::new();
        for (i, s) in state.iter_mut().enumerate() {
            if g.indeg[i] == 0 {
                *s = NodeState::Queued;
                queue.entry(g.not_before[i]).or_default().push(i as u32);
            }
        }
        let mut deadlines: BTreeMap<i64, Vec<u32>> = BTreeMap::new();
        for i in (0..n).filter(|&i| g.not_after[i] < i64::MAX) {
            deadlines.entry(g.not_after[i]).or_default().push(i as u32);
        }
        let mut t = Tracker {
            date,
            state,
            unmet: g.indeg.clone(),
            open: Vec::new(),
            open_pos: vec![u32::MAX; n],
            queue,
            deadlines,
            changes: Vec::new(),
        };
        for &d in &g.doomed {
            if matches!(t.state[d as usize], NodeState::Blocked | NodeState::Queued) {
                t.kill(g, d);
            }
        }
        t
    }

    pub fn state(&self, n: u32) -> NodeState {
        self.state[n as usize]
    }
    pub fn states(&self) -> &[NodeState] {
        &self.state
    }
    /// Open nodes, in no particular order.
    pub fn open(&self) -> &[u32] {
        &self.open
    }
    /// Nodes waiting for their window, in no particular order.
    pub fn queued(&self) -> impl Iterator<Item = u32> + '_ {
        self.queue
            .values()
            .flatten()
            .copied()
            .filter(|&n| self.state[n as usize] == NodeState::Queued)
    }

    /// Moves the date on by `days` (≥ 0): opens queued nodes whose window started, expires
    /// open nodes whose window closed, and kills waiting nodes whose window closed.
    pub fn advance(&mut self, g: &Graph, days: i64) {
        self.date = self.date.saturating_add(days.max(0));
        let date = self.date;
        while self
            .queue
            .first_key_value()
            .is_some_and(|(&nb, _)| nb <= date)
        {
            let Some((_, mut due)) = self.queue.pop_first() else {
                break;
            };
            due.sort_unstable();
            for n in due {
                if self.state[n as usize] != NodeState::Queued {
                    continue;
                }
                if g.not_after[n as usize] < date {
                    self.kill(g, n);
                } else {
                    self.open_node(n);
                }
            }
        }
        while self
            .deadlines
            .first_key_value()
            .is_some_and(|(&na, _)| na < date)
        {
            let Some((_, mut due)) = self.deadlines.pop_first() else {
                break;
            };
            due.sort_unstable();
            for n in due {
                match self.state[n as usize] {
                    NodeState::Open => {
                        self.remove_open(n);
                        self.state[n as usize] = NodeState::Expired;
                        self.changes.push(Change::Expired(n));
                        self.propagate_death(g, n);
                    }
                    NodeState::Blocked | NodeState::Queued => self.kill(g, n),
                    _ => {}
                }
            }
        }
    }

    /// Launches an open node: it leaves the open list and becomes active. False (and no
    /// change) if the node is not open.
    pub fn launch(&mut self, n: u32) -> bool {
        if self.state.get(n as usize) != Some(&NodeState::Open) {
            return false;
        }
        self.remove_open(n);
        self.state[n as usize] = NodeState::Active;
        true
    }

    /// An active node ended: targets of matching edges get one dependency fewer (and open
    /// or queue at zero), targets of the other edges can never open. Then `advance(0)`.
    /// False (and no change) if the node is not active.
    pub fn ended(&mut self, g: &Graph, n: u32, success: bool) -> bool {
        if self.state.get(n as usize) != Some(&NodeState::Active) {
            return false;
        }
        self.state[n as usize] = NodeState::Done(success);
        for &(t, needs) in g.out_edges(n) {
            if self.state[t as usize] != NodeState::Blocked {
                continue;
            }
            if needs == success {
                self.unmet[t as usize] -= 1;
                if self.unmet[t as usize] == 0 {
                    self.ready(g, t);
                }
            } else {
                self.kill(g, t);
            }
        }
        self.advance(g, 0);
        true
    }

    fn ready(&mut self, g: &Graph, t: u32) {
        let i = t as usize;
        if g.not_after[i] < self.date {
            self.kill(g, t);
        } else if g.not_before[i] > self.date {
            self.state[i] = NodeState::Queued;
            self.queue.entry(g.not_before[i]).or_default().push(t);
        } else {
            self.open_node(t);
        }
    }

    fn open_node(&mut self, n: u32) {
        self.state[n as usize] = NodeState::Open;
        self.open_pos[n as usize] = self.open.len() as u32;
        self.open.push(n);
        self.changes.push(Change::Open(n));
    }

    fn remove_open(&mut self, n: u32) {
        let at = self.open_pos[n as usize] as usize;
        self.open.swap_remove(at);
        if let Some(&moved) = self.open.get(at) {
            self.open_pos[moved as usize] = at as u32;
        }
        self.open_pos[n as usize] = u32::MAX;
    }

    /// Marks a waiting node dead and everything that waits on it.
    fn kill(&mut self, g: &Graph, n: u32) {
        self.state[n as usize] = NodeState::Dead;
        self.changes.push(Change::Dead(n));
        self.propagate_death(g, n);
    }

    /// `n` will never end: its blocked dependents can never open.
    fn propagate_death(&mut self, g: &Graph, n: u32) {
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            for &(t, _) in g.out_edges(x) {
                if self.state[t as usize] == NodeState::Blocked {
                    self.state[t as usize] = NodeState::Dead;
                    self.changes.push(Change::Dead(t));
                    stack.push(t);
                }
            }
        }
    }

    /// Feeds a fixed encoding of the state to a hasher.
    pub fn hash_into(&self, h: &mut dyn FnMut(u64)) {
        h(self.date as u64);
        for s in &self.state {
            h(match *s {
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
        for &u in &self.unmet {
            h(u as u64);
        }
        // The open list's order decides nothing (the executor sorts), but it is state.
        for &o in &self.open {
            h(o as u64);
        }
    }
}
