//! The tracker of SPEC §3 (the paper's algorithm, figures 1 and 2): which events are open.
//!
//! Costs: `advance` visits only the nodes whose date has come, and `ended` touches only the
//! node's out-edges; both are O(k + 1) for k nodes that change state, never a scan of the
//! graph. Removing an open node (launch) is O(1).
//!
//! Memory layout (issue 14 item 5: the costs stay flat on graphs of a million events whatever
//! order the caller numbers them in): the graph numbers its nodes internally by window start
//! (`not_before`, then the caller's id), and every per-node array is in that order, so the
//! nodes a day opens lie together, and so do the nodes a day's deadlines reach (their windows
//! started in the few weeks before). The two calendars of the paper are cursors over fixed
//! orders computed once with the graph: window starts walk the internal order itself,
//! deadlines walk `by_deadline` (the internal ids by `not_after`, then caller id). Their
//! dates are apart, in one list of the dates on which some window starts or closes, each
//! with the ends of both runs of nodes (a day's nodes are read without their dates: four
//! bytes a deadline; and the two cursors read the same lines of dates, a day apart). A node
//! waiting for its window is simply `Queued` until the start cursor reaches it. No call
//! allocates.
//!
//! A node's state is one byte, and one bit while it is blocked (waiting for dependencies):
//! the byte then holds its count of dependencies not met, and a death only clears the bit.
//! Every dependent a call reaches is tested on its bit (128 KiB for a million nodes: they stay
//! in a core's cache); its byte is read only when one of its dependencies is met. The
//! calendars' cursors answer what the windows would (a blocked node's window has not closed,
//! and it has started if the start cursor has passed it), so a met dependency reads nothing
//! else of its target.
//!
//! Each out-edge list is laid out twice, for the two ways lists are read. `edges`, in
//! internal order, serves the node's own calendar and calls: `ended` of the nodes a day
//! opened, and the deaths and expiries at a deadline, read lists one after another.
//! `walk_edges` serves the chains of deaths (`propagate_death`): most deaths come in large
//! cascades through the graph (a death kills every blocked node that waits on it, and those
//! kill theirs), and the lists there are in the order such a walk reads them (`walk_order`),
//! so a cascade reads them mostly one after another instead of one line anywhere in the graph
//! per node. The edges carry what a death or an opening needs of their target (its caller
//! id, its list in `walk_edges`), so a chain of deaths reads, per node, its bit and its
//! edges, nothing else. Callers see only their own ids: every method takes and returns them,
//! and the changes (and their order), the open list, the states and the hash are the same
//! whatever the internal order.

use std::sync::Arc;

/// A date on which some window starts or closes, and where the two calendars' runs of
/// nodes end: the windows of internal nodes `..starts` start by `date` (those from the
/// previous day's `starts` on it), and those of `by_deadline[..closes]` close by `date`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Day {
    date: i64,
    starts: u32,
    closes: u32,
}

/// The [`Day`]s of windows starting on `starts` and closing on `closes` (both sorted): each
/// date of either once, in order.
fn days(starts: &[i64], closes: &[i64]) -> Vec<Day> {
    let mut days = Vec::new();
    let (mut a, mut b) = (0, 0);
    while let Some(date) = match (starts.get(a), closes.get(b)) {
        (Some(&s), Some(&c)) => Some(s.min(c)),
        (s, c) => s.or(c).copied(),
    } {
        while starts.get(a).is_some_and(|&s| s <= date) {
            a += 1;
        }
        while closes.get(b).is_some_and(|&c| c <= date) {
            b += 1;
        }
        days.push(Day {
            date,
            starts: a as u32,
            closes: b as u32,
        });
    }
    days
}

/// An out-edge: the target's internal id (low 31 bits) and whether it needs success (top
/// bit), with what killing or opening the target needs (its caller id and its own out-edges
/// in `walk_edges`), so that a chain of deaths reads one line of edges per node and the
/// targets' bits, nothing else of the graph. Sixteen bytes: four to a cache line.
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
    /// `not_before` of each internal node (nondecreasing: internal order is by `not_before`,
    /// then caller id).
    not_before: Vec<i64>,
    /// `not_after` of each internal node.
    not_after: Vec<i64>,
    /// Number of in-edges of each internal node.
    indeg: Vec<u32>,
    /// Out-edges in internal order: internal node `i`'s are `edges[offsets[i]..offsets[i +
    /// 1]]`, in the order given.
    offsets: Vec<u32>,
    edges: Vec<Edge>,
    /// The same lists again, laid out in walk order (see `walk_order`): what the edges'
    /// `out_start..out_end` point into.
    walk_edges: Vec<Edge>,
    /// The deadline calendar: internal nodes by `not_after`, then caller id.
    by_deadline: Vec<u32>,
    /// The dates of both calendars (the start calendar is the internal order), each with
    /// the ends of its runs of nodes.
    days: Vec<Day>,
    /// Whether some window closes before it starts (`not_after < not_before`): only then
    /// can a node whose start day is the date have closed already.
    inverted: bool,
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
            (0..n as u32).map(|e| (windows[e as usize].0, e)).collect();
        keyed.sort_unstable();
        let ext: Vec<u32> = keyed.iter().map(|&(_, e)| e).collect();
        let mut internal = vec![0u32; n];
        for (i, &e) in ext.iter().enumerate() {
            internal[e as usize] = i as u32;
        }
        let mut indeg = vec![0u32; n];
        let mut offsets = vec![0u32; n + 1];
        for &(s, t, _) in edges {
            offsets[internal[s as usize] as usize + 1] += 1;
            indeg[internal[t as usize] as usize] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        // Each source's edges in the order given (the order `ended` visits them), by source
        // in internal order: (target, needs success).
        let mut fill = offsets.clone();
        let mut by_source = vec![(0u32, false); edges.len()];
        for &(s, t, ok) in edges {
            let s = internal[s as usize] as usize;
            by_source[fill[s] as usize] = (internal[t as usize], ok);
            fill[s] += 1;
        }
        let of = |i: usize| &by_source[offsets[i] as usize..offsets[i + 1] as usize];
        // Each node's list in `walk_edges`.
        let order = walk_order((0..n).filter(|&i| indeg[i] == 0), n, of);
        let mut walk_range = vec![(0u32, 0u32); n];
        let mut at = 0u32;
        for &i in &order {
            let len = of(i as usize).len() as u32;
            walk_range[i as usize] = (at, at + len);
            at += len;
        }
        let not_after: Vec<i64> = ext.iter().map(|&e| windows[e as usize].1).collect();
        let mut keyed: Vec<(i64, u32, u32)> =
            (0..n).map(|i| (not_after[i], ext[i], i as u32)).collect();
        keyed.sort_unstable();
        let edge = |&(t, ok): &(u32, bool)| {
            let (out_start, out_end) = walk_range[t as usize];
            Edge {
                to: t | if ok { NEEDS_SUCCESS } else { 0 },
                ext: ext[t as usize],
                out_start,
                out_end,
            }
        };
        let mut walk_edges = Vec::with_capacity(edges.len());
        for &i in &order {
            walk_edges.extend(of(i as usize).iter().map(edge));
        }
        let not_before: Vec<i64> = ext.iter().map(|&e| windows[e as usize].0).collect();
        Graph {
            inverted: not_before.iter().zip(&not_after).any(|(nb, na)| na < nb),
            days: days(
                &not_before,
                &keyed.iter().map(|&(na, _, _)| na).collect::<Vec<_>>(),
            ),
            not_before,
            not_after,
            indeg,
            edges: by_source.iter().map(edge).collect(),
            offsets,
            walk_edges,
            by_deadline: keyed.iter().map(|&(_, _, i)| i).collect(),
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
            .map(|e| (e.ext, e.needs_success()))
    }
    /// Internal node `i`'s out-edges, from `edges`.
    fn edges_of(&self, i: u32) -> &[Edge] {
        &self.edges[self.offsets[i as usize] as usize..self.offsets[i as usize + 1] as usize]
    }
    /// A list of `walk_edges` (`[out_start, out_end]`: what an edge carries of its target).
    fn walk_list(&self, [start, end]: [u32; 2]) -> &[Edge] {
        &self.walk_edges[start as usize..end as usize]
    }
    fn ext(&self, i: u32) -> u32 {
        self.ids.external[i as usize]
    }
}

/// The order the lists of `walk_edges` are laid out in: the order a death's walk reads them
/// (`Tracker::propagate_death`: a node's targets found in edge order, the last found read
/// first), from each of `roots` in turn (the nodes without dependencies), then from any node
/// not reached yet. A cascade of deaths then reads the lists mostly one after another
/// instead of one line anywhere in the graph per node. Every node once: a permutation of
/// `0..n`.
fn walk_order<'a>(
    roots: impl Iterator<Item = usize>,
    n: usize,
    of: impl Fn(usize) -> &'a [(u32, bool)],
) -> Vec<u32> {
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack = Vec::new();
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

// A node's state is one byte and, while it waits for its dependencies, one bit (see
// `Tracker::state`). The byte's values:
const QUEUED: u8 = 0;
const OPEN: u8 = 1;
const ACTIVE: u8 = 2;
const FAILED: u8 = 3;
const SUCCEEDED: u8 = 4;
const EXPIRED: u8 = 5;
/// Dead with every dependency met (its window closed while it was queued).
const DEAD: u8 = 6;
/// `COUNTED + k` (up to `BIG - 1`): k dependencies not met; blocked if the node's bit is
/// set, dead (killed while blocked) if not.
const COUNTED: u8 = 8;
/// As `COUNTED + k`, k in `Tracker::big` (a node waiting for more than `BIG - COUNTED - 1`).
const BIG: u8 = 255;

/// The tracker's state for one playthrough.
#[derive(Clone, Debug)]
pub struct Tracker {
    /// The date ([`Tracker::date`]; moved only by [`Tracker::advance`]: the calendars'
    /// cursors follow it).
    date: i64,
    ids: Arc<Ids>,
    /// Each internal node's byte (`QUEUED` … `BIG`: its state, or its count of dependencies
    /// not met while it waits and after it died waiting), and one bit per internal node, set
    /// while it is blocked. A dependent is tested on its bit alone: the 128 KiB of bits of a
    /// million nodes stay in a core's cache, and a death only clears a bit; the bytes (1 MB)
    /// are read when a dependency is met or the node's own calendar reaches it.
    state: Vec<u8>,
    blocked: Vec<u64>,
    /// The counts of the nodes whose byte is `BIG` (empty if there are none).
    big: Vec<u32>,
    /// Open nodes (caller ids, unordered), their internal ids at the same positions, and
    /// each open internal node's position in them.
    open: Vec<u32>,
    open_internal: Vec<u32>,
    open_pos: Vec<u32>,
    /// Start calendar: the windows of internal nodes `..starts` have started (internal
    /// order is by window start: `i >= starts` is "window not started"), those of the days
    /// `days[..start_day]`.
    starts: usize,
    start_day: usize,
    /// Deadline calendar: the windows of `by_deadline[..settled]` have closed, and none of
    /// them is blocked or queued (so a blocked node's window has not closed), those of the
    /// days `days[..deadline_day]`.
    settled: usize,
    deadline_day: usize,
    /// Changes since the caller last took them.
    pub changes: Vec<Change>,
    /// Scratch space of `propagate_death`: lists of `walk_edges`, as `out_start..out_end`
    /// (empty between calls).
    stack: Vec<[u32; 2]>,
}

impl Tracker {
    /// The bytes a clone allocates (`World::heap_bytes`; the ids are shared).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(self.state.as_slice())
            + size_of_val(self.blocked.as_slice())
            + size_of_val(self.big.as_slice())
            + size_of_val(self.open.as_slice())
            + size_of_val(self.open_internal.as_slice())
            + size_of_val(self.open_pos.as_slice())
            + size_of_val(self.changes.as_slice())
            + size_of_val(self.stack.as_slice())
    }

    /// A tracker at `date`. Nodes without dependencies are queued; the first
    /// [`Tracker::advance`] (of 0 days, or more) opens the due ones.
    pub fn new(g: &Graph, date: i64) -> Tracker {
        let n = g.len();
        let mut blocked = vec![0u64; n.div_ceil(64)];
        let mut big = Vec::new();
        let mut state = Vec::with_capacity(n);
        for (i, &unmet) in g.indeg.iter().enumerate() {
            if unmet > 0 {
                blocked[i / 64] |= 1 << (i % 64);
            }
            state.push(if unmet == 0 {
                QUEUED
            } else if unmet < u32::from(BIG - COUNTED) {
                COUNTED + unmet as u8
            } else {
                if big.is_empty() {
                    big = vec![0; n];
                }
                big[i] = unmet;
                BIG
            });
        }
        let mut t = Tracker {
            date,
            ids: g.ids.clone(),
            state,
            blocked,
            big,
            open: Vec::new(),
            open_internal: Vec::new(),
            open_pos: vec![u32::MAX; n],
            starts: 0,
            start_day: 0,
            settled: 0,
            deadline_day: 0,
            changes: Vec::new(),
            stack: Vec::new(),
        };
        for &d in &g.doomed {
            let i = g.ids.internal[d as usize];
            if t.is_blocked(i) || t.state[i as usize] == QUEUED {
                t.kill_node(g, i);
            }
        }
        t
    }

    /// Internal node `i`'s state: its bit, then its byte.
    fn state_of(&self, i: u32) -> NodeState {
        if self.is_blocked(i) {
            return NodeState::Blocked;
        }
        match self.state[i as usize] {
            QUEUED => NodeState::Queued,
            OPEN => NodeState::Open,
            ACTIVE => NodeState::Active,
            FAILED => NodeState::Done(false),
            SUCCEEDED => NodeState::Done(true),
            EXPIRED => NodeState::Expired,
            _ => NodeState::Dead,
        }
    }
    /// Internal node `i`'s dependencies not met (kept when it dies waiting).
    fn unmet(&self, i: u32) -> u32 {
        match self.state[i as usize] {
            BIG => self.big[i as usize],
            v if v >= COUNTED => u32::from(v - COUNTED),
            _ => 0,
        }
    }
    fn is_blocked(&self, i: u32) -> bool {
        self.blocked[i as usize / 64] & (1 << (i % 64)) != 0
    }
    /// Clears a blocked node's bit: its byte, `COUNTED` or more, now reads dead.
    fn unblock(&mut self, i: u32) {
        self.blocked[i as usize / 64] &= !(1 << (i % 64));
    }

    pub fn state(&self, n: u32) -> NodeState {
        self.state_of(self.ids.internal[n as usize])
    }
    /// Each node's state, by caller id.
    pub fn states(&self) -> impl Iterator<Item = NodeState> + '_ {
        self.ids.internal.iter().map(|&i| self.state_of(i))
    }
    /// Whether some node still waits for its dependencies.
    pub fn any_blocked(&self) -> bool {
        self.blocked.iter().any(|&w| w != 0)
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
            .filter(|&(&s, _)| s == QUEUED)
            .map(|(_, &e)| e)
    }

    /// The date, in days (as the windows are given; [`Tracker::new`] sets where it starts).
    pub fn date(&self) -> i64 {
        self.date
    }

    /// Moves the date on by `days` (≥ 0): opens queued nodes whose window started, expires
    /// open nodes whose window closed, and kills waiting nodes whose window closed.
    pub fn advance(&mut self, g: &Graph, days: i64) {
        self.date = self.date.saturating_add(days.max(0));
        let date = self.date;
        // Windows started by `date`, by start then id (internal order): the queued ones open
        // (or die, if their window closed too).
        while let Some(&Day {
            date: start,
            starts: end,
            ..
        }) = g.days.get(self.start_day)
            && start <= date
        {
            self.start_day += 1;
            // A window that starts today closes today at the earliest (unless some window
            // closes before it starts): the deadlines are read only for the days passed.
            let may_have_closed = start < date || g.inverted;
            while self.starts < end as usize {
                let i = self.starts as u32;
                self.starts += 1;
                if self.state[i as usize] == QUEUED {
                    if may_have_closed && g.not_after[i as usize] < date {
                        self.kill_node(g, i);
                    } else {
                        self.open_node(i, g.ext(i));
                    }
                }
            }
        }
        // Windows closed, by deadline then id.
        while let Some(&Day {
            date: deadline,
            closes: end,
            ..
        }) = g.days.get(self.deadline_day)
            && deadline < date
        {
            self.deadline_day += 1;
            while self.settled < end as usize {
                let i = g.by_deadline[self.settled];
                self.settled += 1;
                if self.is_blocked(i) {
                    self.kill_node(g, i);
                    continue;
                }
                match self.state[i as usize] {
                    OPEN => {
                        self.remove_open(i);
                        self.state[i as usize] = EXPIRED;
                        self.changes.push(Change::Expired(g.ext(i)));
                        self.propagate_death(g, g.edges_of(i));
                    }
                    QUEUED => self.kill_node(g, i),
                    _ => {}
                }
            }
        }
    }

    /// Launches an open node: it leaves the open list and becomes active. False (and no
    /// change) if the node is not open.
    pub fn launch(&mut self, n: u32) -> bool {
        let Some(&i) = self.ids.internal.get(n as usize) else {
            return false;
        };
        if self.state[i as usize] != OPEN {
            return false;
        }
        self.remove_open(i);
        self.state[i as usize] = ACTIVE;
        true
    }

    /// An active node ended: targets of matching edges get one dependency fewer (and open
    /// or queue at zero), targets of the other edges can never open.
    /// False (and no change) if the node is not active.
    pub fn ended(&mut self, g: &Graph, n: u32, success: bool) -> bool {
        let Some(&i) = self.ids.internal.get(n as usize) else {
            return false;
        };
        if self.state[i as usize] != ACTIVE {
            return false;
        }
        self.state[i as usize] = if success { SUCCEEDED } else { FAILED };
        for &e in g.edges_of(i) {
            let t = e.target();
            if !self.is_blocked(t) {
                continue;
            }
            if e.needs_success() == success {
                // A blocked node's byte is `COUNTED + k` or `BIG`.
                let v = &mut self.state[t as usize];
                let left = if *v != BIG {
                    *v -= 1;
                    u32::from(*v - COUNTED)
                } else {
                    self.big[t as usize] -= 1;
                    self.big[t as usize]
                };
                if left == 0 {
                    self.ready(e);
                }
            } else {
                self.kill(g, e);
            }
        }
        // The paper's `advance(0)` after an end has nothing to do here: the node was opened
        // by an advance, which left no day due, and nothing since moves the date or a cursor.
        debug_assert!(!self.due(g), "a day came due without an advance");
        true
    }

    /// Whether a calendar has a day at or before the date it has not processed (never
    /// after an advance).
    fn due(&self, g: &Graph) -> bool {
        g.days
            .get(self.start_day)
            .is_some_and(|d| d.date <= self.date)
            || g.days
                .get(self.deadline_day)
                .is_some_and(|d| d.date < self.date)
    }

    /// The last dependency of `t` (the target of an edge) is met. Its window has not
    /// closed (it was blocked: the deadline cursor has not reached it), and it has started
    /// if the start cursor has passed it.
    fn ready(&mut self, t: Edge) {
        let i = t.target();
        self.unblock(i);
        if i as usize >= self.starts {
            self.state[i as usize] = QUEUED;
        } else {
            self.open_node(i, t.ext);
        }
    }

    /// Opens internal node `i` (caller id `e`).
    fn open_node(&mut self, i: u32, e: u32) {
        self.state[i as usize] = OPEN;
        self.open_pos[i as usize] = self.open.len() as u32;
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

    /// Marks a blocked node (the target of `t`) dead and everything that waits on it.
    fn kill(&mut self, g: &Graph, t: Edge) {
        self.unblock(t.target());
        self.changes.push(Change::Dead(t.ext));
        self.propagate_death(g, g.walk_list([t.out_start, t.out_end]));
    }

    /// Marks blocked or queued internal node `i`, reached by its own calendar, dead and
    /// everything that waits on it.
    fn kill_node(&mut self, g: &Graph, i: u32) {
        if self.is_blocked(i) {
            self.unblock(i);
        } else {
            self.state[i as usize] = DEAD;
        }
        self.changes.push(Change::Dead(g.ext(i)));
        self.propagate_death(g, g.edges_of(i));
    }

    /// A node whose out-edges are `first` will never end: its blocked dependents can never
    /// open (each node's targets in edge order, then the last one killed first, its edges
    /// read from `walk_edges`). Reads only the bits and the edges, and writes only the bits.
    fn propagate_death(&mut self, g: &Graph, first: &[Edge]) {
        let mut stack = std::mem::take(&mut self.stack);
        let mut list = first;
        loop {
            for &e in list {
                let t = e.target();
                if self.is_blocked(t) {
                    self.unblock(t);
                    self.changes.push(Change::Dead(e.ext));
                    if e.out_start < e.out_end {
                        stack.push([e.out_start, e.out_end]);
                    }
                }
            }
            match stack.pop() {
                Some(range) => list = g.walk_list(range),
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
            h(u64::from(self.unmet(i)));
        }
        // The open list's order decides nothing (the executor sorts), but it is state.
        for &o in &self.open {
            h(o as u64);
        }
    }
}

#[cfg(test)]
#[path = "tracker_tests.rs"]
mod tests;
