//! The debugger engine: breakpoints, stepping by tick or by node visit, step-back.
//!
//! A position is a tick, plus, when paused inside a tick, how many debug events of that tick
//! have happened (see [`crate::trace::DebugEvent`]). The world is deterministic, so every
//! position is reproduced by re-simulating: stepping back restores the nearest periodic
//! snapshot and runs forward; pausing inside a tick leaves a half-done world to look at, and
//! going on re-runs that tick from its start, pausing at the next event wanted. The state
//! after stepping back and forward again is therefore the same, bit for bit, as the first time.

mod back;
mod breakpoint;
pub mod explain;
pub mod talk;

use std::collections::{BTreeMap, VecDeque};

pub use breakpoint::{Breakpoint, BreakpointError, show};

use crate::bt::Status;
use crate::expr::Env;
use crate::pack::BreakpointDef;
use crate::program::Program;
use crate::session::Session;
use crate::trace::{Actor, DebugEvent, Probe, TraceEvent};
use crate::value::Vec2;
use crate::world::WorldEnv;

/// Why the debugger cannot go back to a tick.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BackError {
    #[error("tick {tick} is ahead of the last completed tick {done}; use run or continue")]
    Ahead { tick: u64, done: u64 },
    #[error("tick {tick} is before tick {first}, where this debugging session started")]
    BeforeStart { tick: u64, first: u64 },
}

/// Step-back snapshots: how often and how much memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnapshotConfig {
    /// A snapshot of the whole world every `interval` ticks.
    pub interval: u64,
    /// Memory cap for all snapshots, each counted as what cloning the session allocates
    /// ([`Session::heap_bytes`]); when reached, every other snapshot is dropped and the
    /// interval doubles.
    pub max_bytes: usize,
}

impl Default for SnapshotConfig {
    fn default() -> Self {
        SnapshotConfig {
            // 25: stepping back one tick re-simulates at most 24 ticks (about 37 ms for a
            // 10,000-NPC world, BENCHMARKS.md).
            interval: 25,
            // 1 GiB: about 75 snapshots of the 10,000-NPC town of `town_bench` (13 MiB
            // each), 1,900 ticks before the first thinning.
            max_bytes: 1024 * 1024 * 1024,
        }
    }
}

/// What the snapshots cost, for the user to see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnapshotStats {
    /// Current interval (grows when the memory cap thins snapshots out).
    pub interval: u64,
    pub count: usize,
    /// What one snapshot takes now ([`Session::heap_bytes`]).
    pub bytes_per_snapshot: usize,
    pub total_bytes: usize,
    pub max_bytes: usize,
}

/// How a node step moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// To the next node the NPC enters.
    Into,
    /// To the next node the NPC enters that is not inside the current node.
    Over,
    /// To the next node the NPC enters outside the current node's parent.
    Out,
}

/// A node event the debugger stands at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// The NPC the tree is about (`u32::MAX` for an area's brain).
    pub npc: u32,
    /// Whose tree it is: the NPC's own (with its adopted behaviors), a handler, a brain.
    pub actor: Actor,
    /// Depth in what the actor runs (an adopted behavior is inside its request node).
    pub depth: u16,
    /// The NPC's compiled tree and the node's index in it.
    pub tree: u32,
    pub node: u32,
    /// True at the node's enter event, false at its result.
    pub entered: bool,
    /// The status it returned, at a result event.
    pub status: Option<Status>,
}

/// Why the simulation stopped at a breakpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakInfo {
    pub breakpoint: u32,
    pub tick: u64,
    /// Events into the tick.
    pub event: u64,
    pub npc: Option<u32>,
    /// Whose code ran the event (an NPC's tree, a handler, a brain, a world trigger).
    pub actor: Option<Actor>,
    pub at: Option<Located>,
    /// A sentence: which breakpoint, what happened, to whom.
    pub reason: String,
}

/// How a run or step ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// A breakpoint hit.
    Breakpoint(BreakInfo),
    /// A node step arrived.
    Step,
    /// The tick (or ticks) ran to the end.
    TickEnd,
    /// The tick limit was reached without a breakpoint.
    Limit,
    /// No node visit of that NPC was found within the search limit.
    NotFound,
}

/// A node of an NPC's tree as the inspector shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView {
    pub index: u32,
    /// The tree the node was written in (differs inside inlined subtrees) and its id there.
    pub tree: String,
    pub id: String,
    pub depth: u16,
    pub status: Status,
    /// The node the debugger stands at.
    pub current: bool,
    /// On the root of a grafted behavior or a running handler tree: what it is
    /// (`adopted drink from pub_red`, `on_enter handler of pub_red`).
    pub graft: Option<String>,
}

/// An NPC as the inspector shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct NpcView {
    pub id: String,
    pub tree: String,
    pub pos: Vec2,
    pub area: Option<String>,
    pub status: Status,
    pub nodes: Vec<NodeView>,
    /// The NPC's own variables, grouped by the tree that declares them: its tree (with its
    /// subtrees and the NPC's `vars`) first, then each behavior it holds, in the order it
    /// adopted them. Empty groups are left out. Needs [`Debugger::declare`].
    pub blackboard: Vec<(String, Vec<(String, crate::value::Value)>)>,
    /// (inbox, messages as `kind from sender`).
    pub inboxes: Vec<(String, Vec<String>)>,
}

/// World-wide state as the inspector shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldView {
    pub tick: u64,
    pub day: i64,
    pub hour: f64,
    pub flags: Vec<(String, bool)>,
    pub counters: Vec<(String, i64)>,
}

/// Node steps look this many ticks ahead before giving up (a step to an NPC that can never
/// run a node again gives up at once).
pub const MAX_STEP_TICKS: u64 = 100_000;
/// Trace events kept for the inspector.
pub const TRACE_RING: usize = 4096;

/// A debugging session over one pack and seed.
pub struct Debugger {
    session: Session,
    /// Events into the current tick when paused inside it.
    paused_at: Option<u64>,
    /// The state at the start of the current tick, once computed (while paused inside it).
    tick_start: Option<Session>,
    cur: Option<Located>,
    bps: Vec<Breakpoint>,
    snapshots: BTreeMap<u64, Session>,
    config: SnapshotConfig,
    interval: u64,
    ring: VecDeque<TraceEvent>,
    last_break: Option<BreakInfo>,
    /// Ids are never reused within a session, so replies stay unambiguous.
    next_id: u32,
    /// Blackboard slots each pack tree declares, by tree index (see [`Debugger::declare`]).
    tree_vars: Vec<Vec<u32>>,
    /// Blackboard slots each pack NPC sets in its `vars`, by NPC index.
    npc_vars: Vec<Vec<u32>>,
    /// The layer each mod-made asset came from (see [`Debugger::set_layers`]).
    layers: BTreeMap<crate::mods::AssetKey, String>,
}

enum Rule {
    /// Never pause (run the tick to its end).
    Never,
    /// Pause at event number `k` of the tick.
    At(u64),
    /// Pause at the first breakpoint hit after event `after`.
    Breakpoints { after: u64 },
    /// Pause at the first node entered that meets `goal`, after event `after`.
    Step { after: u64, goal: Goal },
}

/// Where a node step may stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// Any node run for this NPC: its tree, its adopted behaviors, handlers about it.
    AnyOf(u32),
    /// Any node of this area's brain.
    Brain(u32),
    /// A node of `actor` no deeper than `max` (`None`: none of its nodes); when the actor
    /// is a handler, also any node of its NPC's own tree (the handler is left).
    Within { actor: Actor, max: Option<u16> },
}

impl Goal {
    fn hit(self, actor: Actor, depth: u16) -> bool {
        match self {
            Goal::AnyOf(n) => {
                matches!(actor, Actor::Npc(m) | Actor::Handler { npc: m, .. } if m == n)
            }
            Goal::Brain(a) => actor == Actor::Brain { area: a },
            Goal::Within { actor: at, max } => {
                (actor == at && max.is_some_and(|m| depth <= m))
                    || matches!(at, Actor::Handler { npc, .. } if actor == Actor::Npc(npc))
            }
        }
    }
}

/// An enter event seen while re-running a tick.
#[derive(Clone, Copy)]
struct Entered {
    event: u64,
    npc: u32,
}

struct DebugProbe<'a> {
    p: &'a Program,
    bps: &'a mut [Breakpoint],
    rule: Rule,
    count: u64,
    last: Option<Located>,
    log: Vec<Entered>,
    hit: Option<(u32, String, Option<Actor>)>,
    /// Whose code runs now (see [`Probe::scope`]).
    actor: Option<Actor>,
    /// Set once the probe asked to pause: the code unwinding after it changes nothing.
    paused: bool,
}

impl Probe for DebugProbe<'_> {
    fn scope(&mut self, actor: Option<Actor>) {
        if self.paused {
            return;
        }
        self.actor = actor;
        // A position is always within the code running now.
        self.last = None;
    }

    fn event(&mut self, ev: &DebugEvent<'_>, env: Option<&dyn Env>) -> bool {
        let pause = self.see(ev, env);
        self.paused |= pause;
        pause
    }
}

impl DebugProbe<'_> {
    fn see(&mut self, ev: &DebugEvent<'_>, env: Option<&dyn Env>) -> bool {
        self.count += 1;
        let actor = match *ev {
            DebugEvent::NpcStart { npc } => Some(Actor::Npc(npc)),
            DebugEvent::Enter { npc, .. } | DebugEvent::Result { npc, .. } => {
                self.actor.or(Some(Actor::Npc(npc)))
            }
            _ => self
                .actor
                .or_else(|| breakpoint::event_npc(ev).map(Actor::Npc)),
        };
        match *ev {
            DebugEvent::Enter {
                npc,
                tree,
                node,
                depth,
                ..
            } => {
                self.last = Some(Located {
                    npc,
                    actor: actor.unwrap_or(Actor::Npc(npc)),
                    depth,
                    tree,
                    node,
                    entered: true,
                    status: None,
                });
                self.log.push(Entered {
                    event: self.count,
                    npc,
                });
            }
            DebugEvent::Result {
                npc,
                tree,
                node,
                to,
                depth,
                ..
            } => {
                self.last = Some(Located {
                    npc,
                    actor: actor.unwrap_or(Actor::Npc(npc)),
                    depth,
                    tree,
                    node,
                    entered: false,
                    status: Some(to),
                })
            }
            _ => {}
        }
        let counting = match self.rule {
            Rule::Breakpoints { after } => self.count > after,
            _ => false,
        };
        // Every breakpoint sees every event, so condition breakpoints stay current.
        for bp in self.bps.iter_mut() {
            if let Some(reason) = bp.check(self.p, ev, env, actor)
                && counting
                && self.hit.is_none()
            {
                bp.hits += 1;
                self.hit = Some((bp.id(), reason, actor));
            }
        }
        match self.rule {
            Rule::Never => false,
            Rule::At(k) => self.count == k,
            Rule::Breakpoints { .. } => self.hit.is_some(),
            Rule::Step { after, goal } => match *ev {
                DebugEvent::Enter { npc, depth, .. } if self.count > after => {
                    goal.hit(actor.unwrap_or(Actor::Npc(npc)), depth)
                }
                _ => false,
            },
        }
    }
}

impl Debugger {
    /// Starts debugging a session at its current state, with the pack's saved breakpoints.
    pub fn new(session: Session, config: SnapshotConfig) -> Debugger {
        let mut session = session;
        session.set_tracing(true);
        session.clear_trace();
        let mut snapshots = BTreeMap::new();
        snapshots.insert(session.tick(), session.clone());
        Debugger {
            session,
            paused_at: None,
            tick_start: None,
            cur: None,
            bps: Vec::new(),
            snapshots,
            config,
            interval: config.interval.max(1),
            ring: VecDeque::new(),
            last_break: None,
            next_id: 1,
            tree_vars: Vec::new(),
            npc_vars: Vec::new(),
            layers: BTreeMap::new(),
        }
    }

    /// Names the layer each mod-made asset came from (`mods::layer_names` of the resolved
    /// pack), so that `inspect` and the trace can say it. Plain packs have none.
    pub fn set_layers(&mut self, layers: BTreeMap<crate::mods::AssetKey, String>) {
        self.layers = layers;
    }

    /// The mod layer an asset came from, when a mod made it.
    pub fn layer_of(&self, kind: crate::mods::AssetKind, id: &str) -> Option<&str> {
        self.layers
            .get(&crate::mods::AssetKey::new(kind, id))
            .map(String::as_str)
    }

    /// The layer names given with [`Debugger::set_layers`].
    pub fn layers(&self) -> &BTreeMap<crate::mods::AssetKey, String> {
        &self.layers
    }

    /// Learns which tree declares which blackboard variable (and which NPC sets which in its
    /// `vars`) from the pack the session was compiled from, for [`Debugger::npc_view`]: the
    /// compiled program keeps one table of every tree's variables.
    pub fn declare(&mut self, pack: &crate::pack::Pack) {
        let p = self.session.program();
        let slots = |names: &mut dyn Iterator<Item = &String>| -> Vec<u32> {
            let mut v: Vec<u32> = names.filter_map(|n| p.blackboard.get(n)).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        self.tree_vars = pack
            .trees
            .iter()
            .map(|t| slots(&mut t.blackboard.keys()))
            .collect();
        self.npc_vars = p
            .npcs
            .iter()
            .map(|n| {
                pack.world
                    .npcs
                    .iter()
                    .find(|m| m.id == n.id)
                    .map_or_else(Vec::new, |m| slots(&mut m.vars.keys()))
            })
            .collect();
    }

    /// The blackboard slots of a compiled tree: those its own tree and every subtree
    /// inlined in it declare.
    fn vars_of_tree(&self, tree: u32) -> Vec<u32> {
        let p = self.session.program();
        let mut origins: Vec<u32> = p
            .trees
            .get(tree as usize)
            .map(|t| t.nodes.iter().map(|n| n.origin_tree).collect())
            .unwrap_or_default();
        origins.push(tree);
        origins.sort_unstable();
        origins.dedup();
        let mut v: Vec<u32> = origins
            .iter()
            .filter_map(|o| self.tree_vars.get(*o as usize))
            .flatten()
            .copied()
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The session at the current position (half a tick done when paused inside one).
    pub fn session(&self) -> &Session {
        &self.session
    }
    pub fn program(&self) -> &Program {
        self.session.program()
    }
    /// The tick being run (when paused inside it) or last completed.
    pub fn tick(&self) -> u64 {
        self.session.tick()
    }
    /// Events into the current tick when paused inside it.
    pub fn event(&self) -> Option<u64> {
        self.paused_at
    }
    /// The node event the debugger stands at, when paused at one.
    pub fn current(&self) -> Option<Located> {
        self.cur
    }
    /// Hash of the world at the current position.
    pub fn hash(&self) -> u64 {
        self.session.hash()
    }
    /// The last breakpoint hit: why the simulation stopped.
    pub fn why(&self) -> Option<&BreakInfo> {
        self.last_break.as_ref()
    }

    /// The last completed tick.
    fn done_tick(&self) -> u64 {
        if self.paused_at.is_some() {
            self.session.tick().saturating_sub(1)
        } else {
            self.session.tick()
        }
    }

    // ---- breakpoints ----

    pub fn breakpoints(&self) -> &[Breakpoint] {
        &self.bps
    }

    /// Adds a breakpoint (its `id` is replaced by a fresh one if 0 or taken); returns its id.
    pub fn add_breakpoint(&mut self, def: &BreakpointDef) -> Result<u32, BreakpointError> {
        let mut def = def.clone();
        if def.id == 0 || def.id < self.next_id || self.bps.iter().any(|b| b.id() == def.id) {
            def.id = self.next_id;
        }
        let mut bp = Breakpoint::compile(self.session.program(), &def)?;
        self.reset_edges_of(&mut bp);
        self.next_id = def.id.saturating_add(1);
        self.bps.push(bp);
        Ok(def.id)
    }

    /// Adds saved breakpoints (a pack's `editor.breakpoints`), keeping their ids; returns
    /// the ones that could not be compiled (the loader reports those as warnings).
    pub fn load_breakpoints(&mut self, defs: &[BreakpointDef]) -> Vec<(u32, BreakpointError)> {
        let mut bad = Vec::new();
        for def in defs {
            if let Err(e) = self.add_breakpoint(def) {
                bad.push((def.id, e));
            }
        }
        bad
    }

    /// Removes a breakpoint; false if there is none with this id.
    pub fn delete_breakpoint(&mut self, id: u32) -> bool {
        let before = self.bps.len();
        self.bps.retain(|b| b.id() != id);
        self.bps.len() != before
    }

    /// Enables or disables a breakpoint; false if there is none with this id.
    pub fn enable_breakpoint(&mut self, id: u32, on: bool) -> bool {
        match self.bps.iter_mut().find(|b| b.id() == id) {
            Some(b) => {
                b.def.enabled = on;
                true
            }
            None => false,
        }
    }

    /// The breakpoint definitions, to save in the pack's `editor` section.
    pub fn breakpoint_defs(&self) -> Vec<BreakpointDef> {
        self.bps.iter().map(|b| b.def.clone()).collect()
    }

    /// Condition breakpoints compare with the value at their previous check; after a jump in
    /// time that is the value at the new position.
    fn reset_edges_of(&self, bp: &mut Breakpoint) {
        let p = self.session.program();
        for npc in 0..p.npcs.len() {
            let env = WorldEnv {
                program: p,
                world: self.session.world(),
                npc: npc as u32,
            };
            bp.reset_edge(npc, &env);
        }
        bp.start = bp.last.clone();
    }

    fn reset_edges(&mut self) {
        let mut bps = std::mem::take(&mut self.bps);
        for bp in &mut bps {
            self.reset_edges_of(bp);
        }
        self.bps = bps;
    }

    // ---- running ----

    /// Runs (or re-runs, when paused inside it) one tick under a rule. True if it completed.
    fn run_tick(&mut self, rule: Rule) -> (bool, Vec<Entered>) {
        if self.paused_at.is_some() {
            let start = self.tick_start_state();
            let t = start.tick();
            self.session = start;
            self.ring.retain(|e| e.tick() <= t);
            for bp in &mut self.bps {
                bp.last.clone_from(&bp.start);
            }
        } else {
            for bp in &mut self.bps {
                bp.start.clone_from(&bp.last);
            }
        }
        let program = self.session.program().clone();
        let mut probe = DebugProbe {
            p: &program,
            bps: &mut self.bps,
            rule,
            count: 0,
            last: None,
            log: Vec::new(),
            hit: None,
            actor: None,
            paused: false,
        };
        let completed = self.session.step_probed(&mut probe);
        let (count, last, hit, log) = (probe.count, probe.last, probe.hit, probe.log);
        for ev in self.session.trace().iter().cloned() {
            if self.ring.len() >= TRACE_RING {
                self.ring.pop_front();
            }
            self.ring.push_back(ev);
        }
        self.session.clear_trace();
        if completed {
            self.paused_at = None;
            self.tick_start = None;
            self.cur = None;
            self.snapshot_if_due();
        } else {
            self.paused_at = Some(count);
            self.cur = last;
            if let Some((id, reason, actor)) = hit {
                self.last_break = Some(BreakInfo {
                    breakpoint: id,
                    tick: self.session.tick(),
                    event: count,
                    npc: match actor {
                        Some(Actor::Npc(n) | Actor::Handler { npc: n, .. }) => Some(n),
                        _ => None,
                    },
                    actor,
                    at: last,
                    reason: format!("breakpoint {id}: {reason}"),
                });
            }
        }
        (completed, log)
    }

    /// The state at the start of the tick the debugger is paused in.
    fn tick_start_state(&mut self) -> Session {
        if let Some(s) = &self.tick_start {
            return s.clone();
        }
        let t = self.session.tick().saturating_sub(1);
        let s = self.state_at_end_of(t);
        self.tick_start = Some(s.clone());
        s
    }

    /// The tick of the snapshot that re-simulation to the end of tick `t` starts from: the
    /// nearest at or before `t`.
    fn snapshot_for(&self, t: u64) -> u64 {
        let (&k, _) = self
            .snapshots
            .range(..=t)
            .next_back()
            .or_else(|| self.snapshots.iter().next())
            // Invariant: the snapshot of the starting tick is never removed.
            .expect("the first snapshot is always kept");
        k
    }

    /// The world at the end of tick `t` (≤ the current tick), by re-simulation from the
    /// nearest snapshot.
    fn state_at_end_of(&self, t: u64) -> Session {
        let mut s = self
            .snapshots
            .get(&self.snapshot_for(t))
            .expect("snapshot_for returns a key of the snapshots")
            .clone();
        resimulate(&mut s, t);
        s
    }

    fn snapshot_if_due(&mut self) {
        let t = self.session.tick();
        if !t.is_multiple_of(self.interval) || self.snapshots.contains_key(&t) {
            return;
        }
        self.snapshots.insert(t, self.session.clone());
        let per = self.session.heap_bytes();
        while self.snapshots.len() > 2 && self.snapshots.len() * per > self.config.max_bytes {
            // Thin out: keep the first, drop every other one, double the interval.
            let keys: Vec<u64> = self.snapshots.keys().copied().collect();
            for (i, k) in keys.iter().enumerate().skip(1) {
                if i % 2 == 1 {
                    self.snapshots.remove(k);
                }
            }
            self.interval = self.interval.saturating_mul(2);
        }
    }

    /// What the step-back snapshots cost now.
    pub fn snapshot_stats(&self) -> SnapshotStats {
        let per = self.session.heap_bytes();
        SnapshotStats {
            interval: self.interval,
            count: self.snapshots.len(),
            bytes_per_snapshot: per,
            total_bytes: per * self.snapshots.len(),
            max_bytes: self.config.max_bytes,
        }
    }

    /// Runs until a breakpoint hits or `max_ticks` more ticks have completed.
    pub fn continue_for(&mut self, max_ticks: u64) -> Stop {
        let end = self.done_tick().saturating_add(max_ticks);
        while self.done_tick() < end {
            let after = self.paused_at.unwrap_or(0);
            let (done, _) = self.run_tick(Rule::Breakpoints { after });
            if !done {
                if let Some(b) = &self.last_break
                    && b.tick == self.session.tick()
                    && Some(b.event) == self.paused_at
                {
                    return Stop::Breakpoint(b.clone());
                }
                return Stop::Step;
            }
        }
        Stop::Limit
    }

    /// Runs `n` ticks ignoring breakpoints (finishing the current tick first if paused).
    pub fn run_ticks(&mut self, n: u64) -> Stop {
        let end = self.done_tick().saturating_add(n);
        while self.done_tick() < end {
            self.run_tick(Rule::Never);
        }
        Stop::TickEnd
    }

    /// Completes the current tick, or runs the next one.
    pub fn step_tick(&mut self) -> Stop {
        self.run_tick(Rule::Never);
        Stop::TickEnd
    }

    /// Steps to the next node visit of `npc` (default: the NPC of the current position,
    /// else the first NPC).
    ///
    /// Over and out count an adopted behavior as inside the request node that holds it,
    /// and a handler run about the NPC as inside whatever the NPC was doing: stepping over
    /// a node never stops in either; stepping out of a handler's root leaves the handler.
    pub fn step_node(&mut self, kind: StepKind, npc: Option<u32>) -> Stop {
        let here = self
            .cur
            .filter(|c| npc.is_none_or(|n| n == c.npc && c.npc != u32::MAX));
        let goal = match (kind, here) {
            (_, None) => Goal::AnyOf(npc.or(self.cur.map(|c| c.npc)).unwrap_or(0)),
            (StepKind::Into, Some(c)) => match c.actor {
                Actor::Brain { area } => Goal::Brain(area),
                _ => Goal::AnyOf(c.npc),
            },
            (StepKind::Over, Some(c)) => Goal::Within {
                actor: c.actor,
                max: Some(c.depth),
            },
            (StepKind::Out, Some(c)) => Goal::Within {
                actor: c.actor,
                max: match c.actor {
                    Actor::Handler { .. } => c.depth.checked_sub(1),
                    _ => Some(c.depth.saturating_sub(1)),
                },
            },
        };
        for _ in 0..MAX_STEP_TICKS {
            // Between ticks, an NPC that can never run a node again ends the search there,
            // not `MAX_STEP_TICKS` ticks later.
            if let (None, Goal::AnyOf(n)) = (self.paused_at, goal)
                && self.never_runs_again(n)
            {
                return Stop::NotFound;
            }
            let after = self.paused_at.unwrap_or(0);
            let (done, _) = self.run_tick(Rule::Step { after, goal });
            if !done {
                return Stop::Step;
            }
        }
        Stop::NotFound
    }

    /// Whether, at the end of a tick, NPC `n` will never enter a node again: it is dead or
    /// removed (for good), its tree has been halted, and no handler run about it waits in or
    /// runs in any area. (An index past the NPCs may be a copy spawned later: not known.)
    fn never_runs_again(&self, n: u32) -> bool {
        let w = self.session.world();
        let i = n as usize;
        if i >= w.npcs.len() || w.is_alive(i) {
            return false;
        }
        if w.minds.mind(i).status.iter().any(|s| *s != Status::Idle) {
            return false;
        }
        let about = |a: &crate::world::areas::AreaState| {
            a.queue.iter().any(|j| j.npc == n)
                || a.running.as_ref().is_some_and(|(j, _)| j.npc == n)
        };
        !(w.areas.iter().any(about) || w.dyn_areas.iter().any(|d| about(&d.state)))
    }

    // ---- inspection ----

    /// Index of an NPC by id.
    pub fn npc_index(&self, id: &str) -> Option<u32> {
        self.session.program().npc_index(id)
    }

    pub fn npc_view(&self, npc: u32) -> Option<NpcView> {
        let p = self.session.program();
        let w = self.session.world();
        let n = w.npcs.get(npc as usize)?;
        p.npcs.get(n.proto as usize)?;
        let tree = p.trees.get(w.minds.tree(npc as usize) as usize);
        let nodes = live_nodes(p, w, npc, self.cur);
        Some(NpcView {
            id: w.npc_name(p, npc),
            tree: tree.map(|t| t.id.clone()).unwrap_or_default(),
            pos: w.pos[npc as usize],
            area: n
                .area
                .and_then(|a| p.areas.get(a as usize))
                .map(|a| a.id.clone()),
            status: w.last_status(npc as usize),
            nodes,
            blackboard: self.own_vars(npc),
            inboxes: inboxes_view(p, w, npc),
        })
    }

    /// An NPC's own variables, grouped by tree (see [`NpcView::blackboard`]).
    fn own_vars(&self, npc: u32) -> Vec<(String, Vec<(String, crate::value::Value)>)> {
        let p = self.session.program();
        let w = self.session.world();
        let Some(n) = w.npcs.get(npc as usize) else {
            return Vec::new();
        };
        let mut shown: Vec<u32> = Vec::new();
        let mut groups = Vec::new();
        let mut group = |tree: u32, slots: Vec<u32>, shown: &mut Vec<u32>| {
            let mut vars: Vec<(String, crate::value::Value)> = Vec::new();
            for s in slots {
                if shown.contains(&s) {
                    continue;
                }
                if let (Some(v), Some(name)) = (
                    w.minds.bb(npc as usize).get(s as usize),
                    p.blackboard.names.get(s as usize),
                ) {
                    shown.push(s);
                    vars.push((name.clone(), *v));
                }
            }
            if !vars.is_empty() {
                let id = p.trees.get(tree as usize).map_or("?", |t| t.id.as_str());
                groups.push((id.to_string(), vars));
            }
        };
        let own_tree = w.minds.tree(npc as usize);
        let mut own = self.vars_of_tree(own_tree);
        own.extend(self.npc_vars.get(n.proto as usize).into_iter().flatten());
        own.sort_unstable();
        own.dedup();
        group(own_tree, own, &mut shown);
        for tag in &n.tags {
            group(tag.tree, self.vars_of_tree(tag.tree), &mut shown);
        }
        groups
    }

    pub fn world_view(&self) -> WorldView {
        let p = self.session.program();
        let w = self.session.world();
        WorldView {
            tick: w.tick,
            day: w.day,
            hour: w.hour,
            flags: p
                .flags
                .names
                .iter()
                .cloned()
                .zip(w.flags.iter().copied())
                .collect(),
            counters: p
                .counters
                .names
                .iter()
                .cloned()
                .zip(w.counters.iter().copied())
                .collect(),
        }
    }

    /// The last `n` trace events, oldest first.
    pub fn recent_trace(&self, n: usize) -> Vec<&TraceEvent> {
        let skip = self.ring.len().saturating_sub(n);
        self.ring.iter().skip(skip).collect()
    }
}

/// Every node an NPC is running, in display order: its own tree, each behavior it adopted
/// right under the request node that holds it (nested adoptions too), then the area
/// handler trees running for it. `cur` marks the node a debugger stands at.
pub fn live_nodes(
    p: &Program,
    w: &crate::world::World,
    npc: u32,
    cur: Option<Located>,
) -> Vec<NodeView> {
    let Some(n) = w.npcs.get(npc as usize) else {
        return Vec::new();
    };
    struct Walker<'a> {
        p: &'a Program,
        n: &'a crate::world::Npc,
        npc: u32,
        cur: Option<Located>,
        out: Vec<NodeView>,
    }
    impl Walker<'_> {
        /// The nodes of compiled tree `ti` with `status`, and what they adopted.
        fn walk(
            &mut self,
            ti: u32,
            status: &[crate::bt::Status],
            base: u16,
            graft: Option<String>,
            guard: u32,
        ) {
            let p = self.p;
            let Some(tree) = p.trees.get(ti as usize) else {
                return;
            };
            let mut graft = graft;
            for (k, node) in tree.nodes.iter().enumerate() {
                let (tid, id) = p.node_origin(ti, k);
                let (npc, cur) = (self.npc, self.cur);
                self.out.push(NodeView {
                    index: k as u32,
                    tree: tid.to_string(),
                    id: id.to_string(),
                    depth: base + node.depth,
                    status: status.get(k).copied().unwrap_or_default(),
                    current: cur
                        .is_some_and(|c| c.npc == npc && c.tree == ti && c.node as usize == k),
                    graft: graft.take(),
                });
                if matches!(node.op, crate::bt::Op::Request { .. }) && guard < 8 {
                    let key = k as u64 | (u64::from(ti) << 32);
                    if let Some(tag) = self.n.tags.iter().find(|t| t.node == key) {
                        let rules = &p.area_rules[crate::world::areas::proto_of(tag.area) as usize];
                        let what = rules
                            .templates
                            .get(tag.template as usize)
                            .map_or("?", |t| p.sym(t.name));
                        let label = format!(
                            "adopted `{what}` from {}{}",
                            crate::world::areas::area_name(p, tag.area),
                            if tag.overridable {
                                " (overridable)"
                            } else {
                                ""
                            }
                        );
                        let (t, st) = (tag.instance.tree, &tag.instance.status);
                        self.walk(t, st, base + node.depth + 1, Some(label), guard + 1);
                    }
                }
            }
        }
    }
    let mut wk = Walker {
        p,
        n,
        npc,
        cur,
        out: Vec::new(),
    };
    let mind = w.minds.mind(npc as usize);
    wk.walk(mind.tree, mind.status, 0, None, 0);
    let running = w
        .areas
        .iter()
        .enumerate()
        .map(|(i, s)| (i as u32, s))
        .chain(w.dyn_areas.iter().map(|d| (d.id, &d.state)));
    for (area, st) in running {
        if let Some((job, inst)) = &st.running
            && job.npc == npc
        {
            let label = format!(
                "{} handler of {}",
                job.kind.name(),
                crate::world::areas::area_name(p, area)
            );
            wk.walk(inst.tree, &inst.status, 0, Some(label), 0);
        }
    }
    wk.out
}

/// Steps `s` untraced to the end of tick `t`, then leaves it tracing with an empty trace.
fn resimulate(s: &mut Session, t: u64) {
    s.set_tracing(false);
    while s.tick() < t {
        s.step();
    }
    s.set_tracing(true);
    s.clear_trace();
}

#[cfg(test)]
mod tests;

/// NPC `npc`'s inboxes as the inspector shows them ([`crate::world::World::inboxes_of`]).
fn inboxes_view(p: &Program, w: &crate::world::World, npc: u32) -> Vec<(String, Vec<String>)> {
    w.inboxes_of(p.talk.inbox, npc)
        .into_iter()
        .map(|(name, msgs)| {
            let msgs = msgs
                .into_iter()
                .map(|m| format!("{} from {}", p.sym(m.message), p.entity_name(m.from)))
                .collect();
            (p.sym(name).to_string(), msgs)
        })
        .collect()
}
