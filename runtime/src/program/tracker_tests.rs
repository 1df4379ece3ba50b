//! Tests of the tracker's layout (the numberings, the two layouts of the edge lists) and of
//! its behaviour against a naive tracker in the caller's ids.

use super::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Windows, and edges (source, target, needs success).
type Parts = (Vec<(i64, i64)>, Vec<(u32, u32, bool)>);

/// Random windows and edges over `n` nodes (cycles, self loops, repeated edges and windows
/// that close before they start included: `Graph::new` takes what it is given).
fn random_parts(rng: &mut ChaCha8Rng, n: u32) -> Parts {
    let windows = (0..n)
        .map(|_| {
            let nb = rng.random_range(0..50);
            (nb, nb + rng.random_range(-2..20))
        })
        .collect();
    let edges = (0..rng.random_range(0..3 * n + 1))
        .map(|_| {
            (
                rng.random_range(0..n),
                rng.random_range(0..n),
                rng.random::<bool>(),
            )
        })
        .collect();
    (windows, edges)
}

/// A random graph over `n` nodes.
fn random_graph(rng: &mut ChaCha8Rng, n: u32) -> Graph {
    let (windows, edges) = random_parts(rng, n);
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

/// The two numberings are inverse permutations; internal order is by window start, then
/// caller id; the deadline calendar holds every node once, by deadline then caller id; the
/// calendars' days are the distinct dates of either, each with the ends of both runs.
#[test]
fn the_numberings_are_inverse_permutations_in_date_order() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for n in [0u32, 1, 2, 7, 60, 500] {
        let (windows, edges) = random_parts(&mut rng, n);
        let g = Graph::new(windows.clone(), &edges);
        let ids = &g.ids;
        let mut sorted = ids.external.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..n).collect::<Vec<_>>());
        for (e, &i) in ids.internal.iter().enumerate() {
            assert_eq!(ids.external[i as usize], e as u32);
        }
        let keys: Vec<(i64, u32)> = ids
            .external
            .iter()
            .map(|&e| (windows[e as usize].0, e))
            .collect();
        assert!(keys.is_sorted(), "internal order");
        for e in 0..n {
            assert_eq!(
                (g.not_before(e), g.not_after(e)),
                windows[e as usize],
                "node {e}"
            );
        }
        let keys: Vec<(i64, u32)> = g
            .by_deadline
            .iter()
            .map(|&i| (g.not_after[i as usize], ids.external[i as usize]))
            .collect();
        assert!(keys.is_sorted(), "deadline order");
        let mut nodes = g.by_deadline.clone();
        nodes.sort_unstable();
        assert_eq!(nodes, (0..n).collect::<Vec<_>>());
        // The calendars' days are the distinct dates of either, in order, each ending the
        // runs of both.
        let closes: Vec<i64> = g
            .by_deadline
            .iter()
            .map(|&i| g.not_after[i as usize])
            .collect();
        let mut dates: Vec<i64> = g.not_before.iter().chain(&closes).copied().collect();
        dates.sort_unstable();
        dates.dedup();
        let expected: Vec<Day> = dates
            .iter()
            .map(|&date| Day {
                date,
                starts: g.not_before.iter().filter(|&&d| d <= date).count() as u32,
                closes: closes.iter().filter(|&&d| d <= date).count() as u32,
            })
            .collect();
        assert_eq!(g.days, expected);
    }
}

/// Each list is laid out once in each layout: `edges` by internal node, `walk_edges` one
/// after another in walk order; both hold the same edges in the same order (the order
/// given: `random_graph` checks it), and each edge carries its target's caller id and range
/// in `walk_edges`.
#[test]
fn each_list_is_laid_out_once_in_each_layout() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for n in [1usize, 2, 5, 40, 300] {
        let g = random_graph(&mut rng, n as u32);
        assert_eq!(g.offsets.len(), n + 1);
        assert_eq!(g.offsets[0], 0);
        assert!(g.offsets.is_sorted());
        assert_eq!(g.offsets[n] as usize, g.edges.len());
        let lists: Vec<Vec<(u32, bool)>> = (0..n)
            .map(|i| {
                g.edges_of(i as u32)
                    .iter()
                    .map(|e| (e.target(), e.needs_success()))
                    .collect()
            })
            .collect();
        let order = walk_order((0..n).filter(|&i| g.indeg[i] == 0), n, |i| &lists[i]);
        let mut range = vec![(0, 0); n];
        let mut at = 0;
        for &i in &order {
            let list = g.edges_of(i);
            range[i as usize] = (at as u32, (at + list.len()) as u32);
            assert!(same(&g.walk_edges[at..at + list.len()], list), "node {i}");
            at += list.len();
        }
        assert_eq!(at, g.walk_edges.len());
        for e in g.edges.iter().chain(&g.walk_edges) {
            let t = e.target() as usize;
            assert_eq!((e.out_start, e.out_end), range[t]);
            assert_eq!(e.ext, g.ids.external[t]);
        }
    }
}

fn same(a: &[Edge], b: &[Edge]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            (x.to, x.ext, x.out_start, x.out_end) == (y.to, y.ext, y.out_start, y.out_end)
        })
}

/// The walk order is a permutation of the nodes, even on graphs with cycles or nodes no
/// root reaches.
#[test]
fn the_walk_order_is_a_permutation() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for n in [0usize, 1, 3, 50, 400] {
        let indeg: Vec<u32> = (0..n).map(|_| rng.random_range(0..3)).collect();
        let lists: Vec<Vec<(u32, bool)>> = (0..n)
            .map(|_| {
                (0..rng.random_range(0..4))
                    .map(|_| (rng.random_range(0..n as u32), true))
                    .collect()
            })
            .collect();
        let roots = (0..n).filter(|&i| indeg[i] == 0);
        let mut order = walk_order(roots, n, |i| &lists[i]);
        order.sort_unstable();
        assert_eq!(order, (0..n as u32).collect::<Vec<_>>());
    }
}

/// A chain of dependencies whose windows start in reverse order (so internal order runs
/// against the chain) has its lists in `walk_edges` laid out along the chain: a cascade down
/// it reads them one after another.
#[test]
fn a_chain_of_dependencies_is_laid_out_along_the_chain() {
    let n = 50u32;
    let windows = (0..n).map(|v| (100 - v as i64, 200)).collect();
    let edges: Vec<(u32, u32, bool)> = (1..n).map(|v| (v - 1, v, true)).collect();
    let g = Graph::new(windows, &edges);
    // The edge into v carries v's range.
    let starts: Vec<u32> = (1..n)
        .map(|v| g.edges_of(g.ids.internal[v as usize - 1])[0].out_start)
        .collect();
    assert_eq!(starts, (1..n).collect::<Vec<_>>());
}

/// The tracker as SPEC §3 states it, in the caller's ids and nothing else: one state per
/// node, the calendars as sorted lists of ids, each node's out-edges as given.
struct Naive {
    date: i64,
    windows: Vec<(i64, i64)>,
    out: Vec<Vec<(u32, bool)>>,
    by_start: Vec<u32>,
    by_deadline: Vec<u32>,
    starts: usize,
    settled: usize,
    state: Vec<NodeState>,
    unmet: Vec<u32>,
    open: Vec<u32>,
    changes: Vec<Change>,
}

impl Naive {
    fn new(windows: &[(i64, i64)], edges: &[(u32, u32, bool)], doomed: &[u32]) -> Naive {
        let n = windows.len();
        let mut out = vec![Vec::new(); n];
        let mut unmet = vec![0u32; n];
        for &(s, t, ok) in edges {
            out[s as usize].push((t, ok));
            unmet[t as usize] += 1;
        }
        let mut by_start: Vec<u32> = (0..n as u32).collect();
        by_start.sort_by_key(|&v| (windows[v as usize].0, v));
        let mut by_deadline: Vec<u32> = (0..n as u32).collect();
        by_deadline.sort_by_key(|&v| (windows[v as usize].1, v));
        let state = unmet
            .iter()
            .map(|&u| {
                if u == 0 {
                    NodeState::Queued
                } else {
                    NodeState::Blocked
                }
            })
            .collect();
        let mut t = Naive {
            date: 0,
            windows: windows.to_vec(),
            out,
            by_start,
            by_deadline,
            starts: 0,
            settled: 0,
            state,
            unmet,
            open: Vec::new(),
            changes: Vec::new(),
        };
        for &d in doomed {
            if matches!(t.state[d as usize], NodeState::Blocked | NodeState::Queued) {
                t.kill(d);
            }
        }
        t
    }

    fn advance(&mut self, days: i64) {
        self.date = self.date.saturating_add(days.max(0));
        while let Some(&v) = self.by_start.get(self.starts)
            && self.windows[v as usize].0 <= self.date
        {
            self.starts += 1;
            if self.state[v as usize] == NodeState::Queued {
                if self.windows[v as usize].1 < self.date {
                    self.kill(v);
                } else {
                    self.open(v);
                }
            }
        }
        while let Some(&v) = self.by_deadline.get(self.settled)
            && self.windows[v as usize].1 < self.date
        {
            self.settled += 1;
            match self.state[v as usize] {
                NodeState::Open => {
                    self.close(v);
                    self.state[v as usize] = NodeState::Expired;
                    self.changes.push(Change::Expired(v));
                    self.propagate_death(v);
                }
                NodeState::Blocked | NodeState::Queued => self.kill(v),
                _ => {}
            }
        }
    }

    fn launch(&mut self, v: u32) -> bool {
        if self.state.get(v as usize) != Some(&NodeState::Open) {
            return false;
        }
        self.close(v);
        self.state[v as usize] = NodeState::Active;
        true
    }

    fn ended(&mut self, v: u32, success: bool) -> bool {
        if self.state.get(v as usize) != Some(&NodeState::Active) {
            return false;
        }
        self.state[v as usize] = NodeState::Done(success);
        for (t, needs) in self.out[v as usize].clone() {
            if self.state[t as usize] != NodeState::Blocked {
                continue;
            }
            if needs == success {
                self.unmet[t as usize] -= 1;
                if self.unmet[t as usize] == 0 {
                    let (nb, na) = self.windows[t as usize];
                    if na < self.date {
                        self.kill(t);
                    } else if nb > self.date {
                        self.state[t as usize] = NodeState::Queued;
                    } else {
                        self.open(t);
                    }
                }
            } else {
                self.kill(t);
            }
        }
        self.advance(0);
        true
    }

    fn open(&mut self, v: u32) {
        self.state[v as usize] = NodeState::Open;
        self.open.push(v);
        self.changes.push(Change::Open(v));
    }

    fn close(&mut self, v: u32) {
        let at = self.open.iter().position(|&o| o == v).unwrap();
        self.open.swap_remove(at);
    }

    fn kill(&mut self, v: u32) {
        self.state[v as usize] = NodeState::Dead;
        self.changes.push(Change::Dead(v));
        self.propagate_death(v);
    }

    /// Each dead node's blocked targets die, in edge order, and then theirs, the last one
    /// killed first.
    fn propagate_death(&mut self, v: u32) {
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            for (t, _) in self.out[x as usize].clone() {
                if self.state[t as usize] == NodeState::Blocked {
                    self.state[t as usize] = NodeState::Dead;
                    self.changes.push(Change::Dead(t));
                    stack.push(t);
                }
            }
        }
    }

    fn hash(&self) -> Vec<u64> {
        let mut h = vec![self.date as u64];
        h.extend(self.state.iter().map(|s| match s {
            NodeState::Blocked => 0,
            NodeState::Queued => 1,
            NodeState::Open => 2,
            NodeState::Active => 3,
            NodeState::Done(false) => 4,
            NodeState::Done(true) => 5,
            NodeState::Expired => 6,
            NodeState::Dead => 7,
        }));
        h.extend(self.unmet.iter().map(|&u| u as u64));
        h.extend(self.open.iter().map(|&o| o as u64));
        h
    }
}

/// The tracker and the naive one agree after a call: the same changes in the same order
/// (counted by kind in `seen`), the same states, open list (in order) and queue, and the
/// same hash (which holds each node's count of dependencies not met).
fn check(t: &mut Tracker, naive: &mut Naive, what: &str, seen: &mut [usize; 3]) {
    assert_eq!(t.changes, naive.changes, "{what}");
    for c in t.changes.drain(..) {
        seen[match c {
            Change::Open(_) => 0,
            Change::Expired(_) => 1,
            Change::Dead(_) => 2,
        }] += 1;
    }
    naive.changes.clear();
    assert_eq!(t.states().collect::<Vec<_>>(), naive.state, "{what}");
    assert_eq!(t.open(), naive.open, "{what}");
    let mut queued: Vec<u32> = t.queued().collect();
    queued.sort_unstable();
    let expected: Vec<u32> = (0..naive.state.len() as u32)
        .filter(|&v| naive.state[v as usize] == NodeState::Queued)
        .collect();
    assert_eq!(queued, expected, "{what}");
    assert_eq!(
        t.any_blocked(),
        naive.state.contains(&NodeState::Blocked),
        "{what}"
    );
    let mut h = Vec::new();
    t.hash_into(&mut |x| h.push(x));
    assert_eq!(h, naive.hash(), "{what}");
}

/// Over random graphs and random calls (advances of 0 to a few days, launches and ends of
/// open, active and any nodes), the tracker agrees with the naive one after every call
/// (`check`).
#[test]
fn the_tracker_agrees_with_a_naive_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut seen = [0usize; 3];
    for case in 0..300 {
        let n = rng.random_range(1..[8, 40, 200][case % 3]);
        let (windows, mut edges) = random_parts(&mut rng, n);
        if case % 2 == 0 {
            // Mostly forward edges, as in a story: long chains that open.
            for e in &mut edges {
                if e.0 > e.1 {
                    *e = (e.1, e.0, e.2);
                }
            }
        }
        let doomed: Vec<u32> = (0..rng.random_range(0..3))
            .map(|_| rng.random_range(0..n))
            .collect();
        let mut g = Graph::new(windows.clone(), &edges);
        g.doomed = doomed.clone();
        let mut t = Tracker::new(&g, 0);
        let mut naive = Naive::new(&windows, &edges, &doomed);
        check(&mut t, &mut naive, &format!("case {case}: new"), &mut seen);
        for _ in 0..rng.random_range(0..120) {
            let what = match rng.random_range(0..10) {
                0..=2 => {
                    let days = rng.random_range(-1..4);
                    t.advance(&g, days);
                    naive.advance(days);
                    format!("advance({days})")
                }
                3..=5 => {
                    let v = match naive.open.len() {
                        0 => rng.random_range(0..n + 1),
                        k => naive.open[rng.random_range(0..k)],
                    };
                    assert_eq!(t.launch(v), naive.launch(v), "case {case}: launch({v})");
                    format!("launch({v})")
                }
                _ => {
                    let active: Vec<u32> = (0..n)
                        .filter(|&v| naive.state[v as usize] == NodeState::Active)
                        .collect();
                    let v = if active.is_empty() || rng.random_range(0..8) == 0 {
                        rng.random_range(0..n + 1)
                    } else {
                        active[rng.random_range(0..active.len())]
                    };
                    let ok = rng.random::<bool>();
                    assert_eq!(
                        t.ended(&g, v, ok),
                        naive.ended(v, ok),
                        "case {case}: ended({v}, {ok})"
                    );
                    format!("ended({v}, {ok})")
                }
            };
            check(
                &mut t,
                &mut naive,
                &format!("case {case}: {what}"),
                &mut seen,
            );
        }
    }
    // Every kind of change happened, many times.
    assert!(seen.iter().all(|&k| k > 100), "{seen:?}");
}

/// Nodes waiting on more dependencies than a byte counts (their count kept aside) agree
/// with the naive tracker too: one opens when its 300th dependency succeeds (queued first,
/// its window not started), one when its 250th does (its window started), and one dies
/// when a dependency succeeds that it needed to fail, keeping its count.
#[test]
fn nodes_with_hundreds_of_dependencies_agree_with_a_naive_one() {
    let sources = 300u32;
    let mut windows = vec![(0i64, 50i64); sources as usize];
    windows.extend([(5, 50), (0, 50), (0, 50)]);
    let (late, early, doomed) = (sources, sources + 1, sources + 2);
    let mut edges: Vec<(u32, u32, bool)> = (0..sources).map(|s| (s, late, true)).collect();
    edges.extend((0..250).map(|s| (s, early, true)));
    edges.extend((0..280).map(|s| (s, doomed, true)));
    edges.push((100, doomed, false));
    let g = Graph::new(windows.clone(), &edges);
    let mut t = Tracker::new(&g, 0);
    let mut naive = Naive::new(&windows, &edges, &[]);
    let mut seen = [0usize; 3];
    t.advance(&g, 0);
    naive.advance(0);
    check(&mut t, &mut naive, "advance(0)", &mut seen);
    for s in 0..sources {
        assert!(t.launch(s) && naive.launch(s));
        assert!(t.ended(&g, s, true) && naive.ended(s, true));
        check(&mut t, &mut naive, &format!("ended({s})"), &mut seen);
    }
    assert_eq!(t.state(early), NodeState::Open);
    assert_eq!(t.state(late), NodeState::Queued);
    assert_eq!(t.state(doomed), NodeState::Dead);
    t.advance(&g, 5);
    naive.advance(5);
    check(&mut t, &mut naive, "advance(5)", &mut seen);
    assert_eq!(t.state(late), NodeState::Open);
}
