//! The tick engine: walks a compiled tree for one NPC through a [`Host`].

use std::cell::Cell;

use super::{AreaAction, ExprId, Instance, Leaf, Op, Recipient, Status, Target, Tree, VarRef};
use crate::expr::BoardTest;
use crate::value::{Sym, Value};

/// Visit counters of one compiled node, kept by a counting tick ([`tick_tree_counted`]): how
/// often it was ticked and what it returned. Cells, so that the counters of one tree can be
/// lent to every tick of it at once (an adopted behavior ticks nested inside the tick of the
/// tree that requested it, and may be the same compiled tree).
///
/// A visit is counted once, when it ends: by the status it returned, or, cut short (a pause,
/// the visit budget running out below it), as one without an outcome; the runs are the sum.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeCount {
    /// Visits by the status returned, indexed by `Status as usize`; slot 0 (`Idle`): the
    /// visits that returned no outcome.
    ends: [Cell<u64>; 4],
}

impl NodeCount {
    /// Times the node was ticked (entered).
    pub fn runs(&self) -> u64 {
        self.ends.iter().map(Cell::get).sum()
    }
    /// Times the node returned `s` (`Running`, `Success` or `Failure`; for `Idle`, the visits
    /// that returned nothing).
    pub fn results(&self, s: Status) -> u64 {
        self.ends[s as usize].get()
    }
    #[inline]
    fn end(&self, s: Status) {
        let c = &self.ends[s as usize];
        c.set(c.get() + 1);
    }
}

/// What a tree needs from the world it runs in. The world implements it for one NPC at a
/// time; tests and benchmarks implement small hosts of their own.
pub trait Host {
    /// Current tick number.
    fn now(&self) -> u64;
    fn eval_bool(&mut self, expr: ExprId) -> bool;
    /// The running NPC's own blackboard: slot `s` holds what `Env::var(Scope::Blackboard, s)`
    /// reads while `s` is below its length. The engine evaluates conditions that are
    /// blackboard tests ([`BoardTest`]) from it; empty (the default): every condition goes to
    /// [`Host::eval_bool`].
    fn board(&self) -> &[Value] {
        &[]
    }
    /// Slot `slot` of [`Host::board`] (`None` past its end): for a lone test, without
    /// building the whole slice.
    #[inline(always)]
    fn board_var(&self, slot: usize) -> Option<&Value> {
        self.board().get(slot)
    }
    /// A uniform number in [0, 1) from the world's seeded generator.
    fn random(&mut self) -> f64;
    fn in_area(&self, area: u32) -> bool;
    /// Time of day in hours.
    fn hour(&self) -> f64;
    fn has_message(&self, inbox: Sym, message: Option<Sym>) -> bool;
    /// One step of walking: Success when arrived, Running while walking, Failure when the
    /// target does not exist.
    fn move_to(&mut self, target: Target, tolerance: f64) -> Status;
    fn stop_moving(&mut self);
    fn set(&mut self, var: VarRef, value: ExprId);
    /// Sends a message; false when the recipient does not exist.
    fn send(&mut self, to: Recipient, inbox: Sym, message: Sym) -> bool;
    /// Takes (or, `take == false`, peeks at) a message; false when there is none.
    fn receive(
        &mut self,
        inbox: Sym,
        message: Option<Sym>,
        sender_slot: Option<u32>,
        take: bool,
    ) -> bool;
    /// Starts showing an animation (`say == false`) or a line of speech in the preview.
    fn show(&mut self, say: bool, what: Sym);
    fn clear_show(&mut self);
    fn log(&mut self, text: Sym);
    /// A request node asks its smart area for a behavior (and ticks the one it holds).
    fn request(&mut self, node: usize, req: u32) -> Status;
    /// A running request node is halted: its behavior is interrupted.
    fn halt_request(&mut self, node: usize);
    /// One step of walking into a child area of the area that granted the running behavior;
    /// `chosen` is the node's memory of the child picked (0: none yet).
    fn go_to_child(
        &mut self,
        kind: Sym,
        choose: crate::pack::ChildChoice,
        chosen: &mut u64,
    ) -> Status;
    /// Area actions: enable/disable a template, message holders, create/remove an area.
    fn area_action(&mut self, action: &AreaAction) -> Status;
    /// Whether node visits are reported through `on_enter`/`on_result` (tracing or
    /// debugging). When false the engine makes no such calls.
    fn observing(&self) -> bool;
    /// A node is about to be ticked; `was`: its status before this visit.
    fn on_enter(&mut self, node: usize, was: Status);
    /// A node returned `to` (its previous status was `from`; they may be equal).
    fn on_result(&mut self, node: usize, from: Status, to: Status);
    /// Whether a debugger asked to pause right here. The engine then stops at once and
    /// unwinds without touching any more state (the tick is left half done; a debugger
    /// re-simulates it from its start to go on).
    fn stop_requested(&self) -> bool;
    /// A `converse` node hands the NPC to the conversation layer of `cast` (`on`), or takes
    /// it back (`!on`). False when the host has no conversation layer: the node then fails.
    fn converse(&mut self, cast: u32, on: bool) -> bool {
        let _ = (cast, on);
        false
    }
}

/// The result of one tick of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickOutcome {
    pub status: Status,
    /// Nodes visited.
    pub visits: u32,
    /// Set when the visit budget ran out: the node where the tick was cut off. The tree has
    /// then been halted (reset).
    pub runaway: Option<usize>,
    /// True when the host asked to pause: the tick stopped mid-way.
    pub paused: bool,
}

/// Ticks a tree once from its root. `budget` caps node visits in this tick: a tree that would
/// loop forever within one tick is cut off and reset instead of hanging.
pub fn tick_tree<H: Host>(
    tree: &Tree,
    inst: &mut Instance,
    host: &mut H,
    budget: u32,
) -> TickOutcome {
    tick_tree_counted(tree, inst, host, budget, None)
}

/// [`tick_tree`], counting every node visit and result in `counts` (one per node of `tree`,
/// in node order) when given: counted by the engine itself, with no call to the host.
pub fn tick_tree_counted<H: Host>(
    tree: &Tree,
    inst: &mut Instance,
    host: &mut H,
    budget: u32,
    counts: Option<&[NodeCount]>,
) -> TickOutcome {
    tick_nodes(
        tree,
        &mut inst.state,
        &mut inst.status,
        host,
        budget,
        counts,
    )
}

/// [`tick_tree_counted`] on a tree state held elsewhere (the world keeps every NPC's in one
/// array): `state` and `status` have one entry per node of `tree`.
pub fn tick_nodes<H: Host>(
    tree: &Tree,
    state: &mut [u64],
    status: &mut [Status],
    host: &mut H,
    budget: u32,
    counts: Option<&[NodeCount]>,
) -> TickOutcome {
    if tree.nodes.is_empty() || !fits(tree, state, status) {
        return TickOutcome {
            status: Status::Failure,
            visits: 0,
            runaway: None,
            paused: false,
        };
    }
    let counts = counts.unwrap_or(&[]);
    let host_observing = host.observing();
    if host_observing || !counts.is_empty() {
        Engine::<H, true>::new(tree, state, status, host, budget, counts, host_observing).tick()
    } else {
        Engine::<H, false>::new(tree, state, status, host, budget, counts, false).tick()
    }
}

/// Whether `state` and `status` have an entry for every node of `tree`, and its leaves are
/// marked ([`Tree::mark_leaves`]: the engine walks children there).
fn fits(tree: &Tree, state: &[u64], status: &[Status]) -> bool {
    state.len() >= tree.nodes.len()
        && status.len() >= tree.nodes.len()
        && tree.leaves.len() == tree.children.len()
}

/// Halts the subtree at `node` (resetting its state, stopping its actions).
pub fn halt<H: Host>(tree: &Tree, inst: &mut Instance, host: &mut H, node: usize) {
    halt_nodes(tree, &mut inst.state, &mut inst.status, host, node);
}

/// [`halt`] on a tree state held elsewhere (see [`tick_nodes`]).
pub fn halt_nodes<H: Host>(
    tree: &Tree,
    state: &mut [u64],
    status: &mut [Status],
    host: &mut H,
    node: usize,
) {
    if node >= tree.nodes.len() || !fits(tree, state, status) {
        return;
    }
    if host.observing() {
        Engine::<H, true>::new(tree, state, status, host, 0, &[], true).halt(node);
    } else {
        Engine::<H, false>::new(tree, state, status, host, 0, &[], false).halt(node);
    }
}

/// The engine of one tick (or halt). `OBS`: whether a visit reports or counts anything
/// (`host.observing()` or counting), fixed for the whole tick, so that the engine is
/// compiled twice: the unobserved one carries none of the observing code. A counting tick
/// whose host hears nothing (coverage) takes the unobserved one's shortcuts (visits in the
/// parents' loops), each counting what it visits.
struct Engine<'a, H, const OBS: bool> {
    tree: &'a Tree,
    state: &'a mut [u64],
    status: &'a mut [Status],
    host: &'a mut H,
    budget: u32,
    runaway: Option<usize>,
    /// The tick is being cut short (runaway or pause): unwind without touching state.
    cut: bool,
    /// `host.observing()`, read once per tick (false unless `OBS`).
    host_observing: bool,
    /// Visit counters of `tree`'s nodes, when counting (else empty; empty unless `OBS`).
    counts: &'a [NodeCount],
}

impl<'a, H: Host, const OBS: bool> Engine<'a, H, OBS> {
    /// The caller checks `fits` and that `OBS` is `host_observing || !counts.is_empty()`
    /// (a halt: `host_observing`).
    fn new(
        tree: &'a Tree,
        state: &'a mut [u64],
        status: &'a mut [Status],
        host: &'a mut H,
        budget: u32,
        counts: &'a [NodeCount],
        host_observing: bool,
    ) -> Self {
        Engine {
            tree,
            state,
            status,
            host,
            budget,
            runaway: None,
            cut: false,
            host_observing: OBS && host_observing,
            counts: if OBS { counts } else { &[] },
        }
    }

    /// One tick from the root ([`tick_nodes`]).
    fn tick(mut self) -> TickOutcome {
        let budget = self.budget;
        let status = self.run(0);
        let visits = budget - self.budget;
        let runaway = self.runaway;
        let paused = self.cut && runaway.is_none();
        if runaway.is_some() {
            self.cut = false;
            self.halt(0);
        }
        TickOutcome {
            status: if self.cut || runaway.is_some() {
                Status::Failure
            } else {
                status
            },
            visits,
            runaway,
            paused,
        }
    }

    /// Whether a visit reports or counts anything.
    #[inline(always)]
    fn observing(&self) -> bool {
        OBS
    }

    /// Whether the host hears visits (`host.observing()`).
    #[inline(always)]
    fn hears(&self) -> bool {
        OBS && self.host_observing
    }
}

/// Runs a child; if the tick is being cut short, returns from the calling `exec` at once.
macro_rules! child {
    ($e:ident, $node:expr) => {{
        let s = $e.run($node);
        if $e.cut {
            return Status::Failure;
        }
        s
    }};
}

/// Visits child `k` of node `i` ([`Engine::visit_kid`]); if the tick is being cut short,
/// returns from the calling `exec` at once.
macro_rules! kid {
    ($e:ident, $i:expr, $k:expr) => {{
        let s = $e.visit_kid($i, $k);
        if $e.cut {
            return Status::Failure;
        }
        s
    }};
}

/// Visits child `leaves[k]` of a composite that goes on while its children return `pass`
/// (a sequence: Success; a selector: Failure). While the host hears nothing (counting or
/// not: these visits count themselves), a condition child ([`Leaf::Condition`]) is visited
/// right here: a run of them in one tight loop ([`pass_conditions`]) up to the child they
/// stopped at, a lone one by [`Engine::condition`]; either way as [`Engine::run`] would
/// visit it, without the call into the recursive visit; so are an action
/// ([`Engine::action`]) and a guarded sequence whose guard fails ([`Engine::guard_fails`],
/// [`Engine::guard_any_fails`]). Moves `k` to the child visited last and gives its status;
/// `None` at the end of `leaves`. If the tick is being cut short, returns from the calling
/// `exec` at once (as `child!`).
macro_rules! next_child {
    ($e:ident, $leaves:expr, $k:ident, $pass:expr) => {{
        let leaves: &[Leaf] = $leaves;
        let hit = match leaves.get($k) {
            _ if $e.hears() => None,
            Some(&Leaf::Condition { node, expr, test }) => {
                if let Some(Leaf::Condition { .. }) = leaves.get($k + 1) {
                    if OBS {
                        pass_conditions(
                            &mut *$e.host,
                            leaves,
                            &mut *$e.status,
                            Counted($e.counts),
                            &mut $k,
                            &mut $e.budget,
                            $pass,
                        )
                    } else {
                        pass_conditions(
                            &mut *$e.host,
                            leaves,
                            &mut *$e.status,
                            Uncounted,
                            &mut $k,
                            &mut $e.budget,
                            $pass,
                        )
                    }
                } else {
                    $e.condition(node as usize, expr, test)
                }
            }
            // The rest of `Engine::in_loop`'s dispatch, in this one match: a second match on
            // the same tag (`leaf => $e.in_loop(leaf)`) cost S4 1 % and S3 1.5 % of their
            // instructions.
            Some(&Leaf::Action { node }) => $e.action(node as usize),
            Some(&Leaf::Guarded { node, expr, test }) => $e.guard_fails(node as usize, expr, test),
            Some(&Leaf::GuardedAny { node }) => $e.guard_any_fails(node as usize),
            Some(Leaf::Node { .. }) | None => None,
        };
        match hit {
            Some(s) => Some(s),
            None => match leaves.get($k) {
                Some(c) => Some(child!($e, c.node() as usize)),
                None => None,
            },
        }
    }};
}

/// Visits the conditions `leaves[*k..]` one after the other while each returns `pass`, as
/// [`Engine::run`] visits a condition when the host hears nothing (the caller checks
/// that): one visit of the budget each, the condition's status recorded (and counted in
/// `counts`). Stops at the first child that is not a condition (or once the budget is
/// spent: the full visit reports the runaway), leaving `*k` at it and returning `None`, or
/// at a condition that returned something else, leaving `*k` at it and returning that
/// status. A function of its own so that the loop keeps the tables in registers; the
/// budget is turned into the index the run must stop at, so a visit checks one bound, and a
/// blackboard test is one dispatch on its tag (`Leaf::Node`, a condition without a test and
/// each test shape share it).
#[inline(never)]
fn pass_conditions<H: Host, C: Visits>(
    host: &mut H,
    leaves: &[Leaf],
    status: &mut [Status],
    counts: C,
    k: &mut usize,
    budget: &mut u32,
    pass: Status,
) -> Option<Status> {
    let start = *k;
    // Conditions `start..end` may be visited: the budget allows `*budget` visits.
    let end = leaves.len().min(start.saturating_add(*budget as usize));
    let mut j = start;
    // Records condition `node`'s visit; false when the run stops at it.
    let mut visit = |node: u32, s: Status| {
        if let Some(st) = status.get_mut(node as usize) {
            *st = s;
        }
        counts.end(node, s);
        s == pass
    };
    let hit = 'run: loop {
        // Blackboard tests read the board, held for the loop; another condition is
        // evaluated by the host, and the loop goes on after it.
        let board = host.board();
        let (node, expr) = loop {
            let Some(leaf) = leaves.get(j).filter(|_| j < end) else {
                break 'run None;
            };
            let (node, b) = match *leaf {
                Leaf::Condition {
                    node,
                    test: Some(t),
                    expr,
                } => match board.get(t.slot()) {
                    Some(v) => (node, t.eval(v)),
                    None => break (node, expr),
                },
                Leaf::Condition {
                    node,
                    test: None,
                    expr,
                } => break (node, expr),
                Leaf::Node { .. }
                | Leaf::Action { .. }
                | Leaf::Guarded { .. }
                | Leaf::GuardedAny { .. } => break 'run None,
            };
            let s = status_of(b);
            if !visit(node, s) {
                j += 1;
                break 'run Some(s);
            }
            j += 1;
        };
        let s = status_of(host.eval_bool(expr));
        j += 1;
        if !visit(node, s) {
            break 'run Some(s);
        }
    };
    // `j` is one past the last condition visited; a hit stays at the condition it hit.
    *budget -= (j - start) as u32;
    *k = if hit.is_some() { j - 1 } else { j };
    hit
}

/// Where [`pass_conditions`] counts the visits it makes: nowhere (a zero-sized type: the
/// unobserved engine's loop carries nothing for it), or in a counting tick's counters.
trait Visits: Copy {
    fn end(self, node: u32, s: Status);
}

#[derive(Clone, Copy)]
struct Uncounted;

impl Visits for Uncounted {
    #[inline(always)]
    fn end(self, _: u32, _: Status) {}
}

#[derive(Clone, Copy)]
struct Counted<'a>(&'a [NodeCount]);

impl Visits for Counted<'_> {
    #[inline(always)]
    fn end(self, node: u32, s: Status) {
        if let Some(c) = self.0.get(node as usize) {
            c.end(s);
        }
    }
}

/// Whether a condition holds: a blackboard test read from the host's board when the slot is
/// there, else the expression evaluated by the host (the same result either way).
#[inline(always)]
fn holds<H: Host>(host: &mut H, expr: ExprId, test: Option<BoardTest>) -> bool {
    test.and_then(|t| host.board_var(t.slot()).map(|v| t.eval(v)))
        .unwrap_or_else(|| host.eval_bool(expr))
}

impl<H: Host, const OBS: bool> Engine<'_, H, OBS> {
    /// A visit of condition node `i` (`expr`, `test`: its [`Leaf::Condition`]) if the budget
    /// allows it, as [`Self::run`] visits one while the host hears nothing (the caller
    /// checks that); `None` (and nothing done) otherwise.
    #[inline(always)]
    fn condition(&mut self, i: usize, expr: ExprId, test: Option<BoardTest>) -> Option<Status> {
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let s = status_of(holds(self.host, expr, test));
        if let Some(st) = self.status.get_mut(i) {
            *st = s;
        }
        self.count(i, s);
        Some(s)
    }

    /// A visit of a child in its parent's loop, from what the loop knows of it (`leaf`), as
    /// [`Self::run`] would visit it while the host hears nothing (the caller checks
    /// that): a condition ([`Self::condition`]), an action ([`Self::action`]), a guarded
    /// sequence whose guard fails ([`Self::guard_fails`], [`Self::guard_any_fails`]).
    /// `None` (and nothing done): the
    /// caller visits the child in full. (A guarded sequence that a run of conditions stopped
    /// at is visited in full: any other child pays one tag test for this.)
    #[inline(always)]
    fn in_loop(&mut self, leaf: Option<&Leaf>) -> Option<Status> {
        match *leaf? {
            Leaf::Condition { node, expr, test } => self.condition(node as usize, expr, test),
            Leaf::Action { node } => self.action(node as usize),
            Leaf::Guarded { node, expr, test } => self.guard_fails(node as usize, expr, test),
            Leaf::GuardedAny { node } => self.guard_any_fails(node as usize),
            Leaf::Node { .. } => None,
        }
    }

    /// A visit of action `i` ([`Leaf::Action`]) if the budget allows it, as [`Self::run`]
    /// visits one while the host hears nothing (the caller checks that; an action never
    /// cuts the tick short then: it visits no child and nothing asks to pause); `None` (and
    /// nothing done) otherwise.
    #[inline(always)]
    fn action(&mut self, i: usize) -> Option<Status> {
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let s = self.act(i);
        if let Some(st) = self.status.get_mut(i) {
            *st = s;
        }
        self.count(i, s);
        Some(s)
    }

    /// A visit of guarded sequence `i` ([`Leaf::Guarded`]: its guard is node `i + 1`, `expr`
    /// and `test`) decided here when its guard fails, as [`Self::run`] would visit it while
    /// the host hears nothing (the caller checks that): it runs nothing (state 0, so the
    /// guard is its next child and nothing needs halting), the budget allows both visits,
    /// and the guard does not hold; then the guard's and the sequence's statuses are
    /// `Failure`, two visits are spent and the sequence's state stays 0. `None` (and nothing
    /// done) otherwise: the caller visits it in full (evaluating the guard again).
    #[inline(always)]
    fn guard_fails(&mut self, i: usize, expr: ExprId, test: Option<BoardTest>) -> Option<Status> {
        if self.budget < 2 || self.state.get(i) != Some(&0) || holds(self.host, expr, test) {
            return None;
        }
        self.budget -= 2;
        if let Some(st) = self.status.get_mut(i..i + 2) {
            st.fill(Status::Failure);
        }
        self.count_failures(i..i + 2);
        Some(Status::Failure)
    }

    /// A visit of guarded sequence `i` ([`Leaf::GuardedAny`]: its guard is selector `i + 1`,
    /// whose children are conditions `i + 2..`) decided here when no condition of the guard
    /// holds, as [`Self::run`] would visit it while the host hears nothing (the caller
    /// checks that): the sequence runs nothing (state 0: the guard is its next child,
    /// nothing needs halting; a selector of conditions never runs anything, its state is
    /// always 0) and the budget allows every visit; then every condition, the selector and
    /// the sequence return `Failure`, one visit each, and the states stay 0. `None` (and
    /// nothing done) otherwise: the caller visits it in full (evaluating the conditions
    /// again up to the one that holds). Not inlined: the loop stays out of the recursive
    /// visit.
    #[inline(never)]
    fn guard_any_fails(&mut self, i: usize) -> Option<Status> {
        let g = i + 1;
        let conditions = self.tree.kid_leaves(g);
        let visits = conditions.len() + 2;
        if (self.budget as usize) < visits || self.state.get(i) != Some(&0) {
            return None;
        }
        for leaf in conditions {
            let Leaf::Condition { expr, test, .. } = *leaf else {
                return None;
            };
            if holds(self.host, expr, test) {
                return None;
            }
        }
        self.budget -= visits as u32;
        // The sequence, the selector and its conditions: nodes `i..i + visits`.
        if let Some(st) = self.status.get_mut(i..i + visits) {
            st.fill(Status::Failure);
        }
        self.count_failures(i..i + visits);
        Some(Status::Failure)
    }

    /// A visit of child `k` of node `i`: in the parent's loop while the host hears nothing
    /// ([`Self::in_loop`]), any other child in full ([`Self::run`]).
    #[inline(always)]
    fn visit_kid(&mut self, i: usize, k: usize) -> Status {
        if !self.hears()
            && let Some(s) = self.in_loop(self.tree.kid_leaves(i).get(k))
        {
            return s;
        }
        self.run(self.tree.child(i, k))
    }

    /// Sets a status outside a visit (halts), reporting changes.
    #[inline]
    fn set_status(&mut self, i: usize, s: Status) {
        let old = self.status[i];
        if old != s {
            self.status[i] = s;
            if self.hears() {
                self.host.on_result(i, old, s);
            }
        }
    }

    /// Counts the end of a visit of node `i`, when counting.
    #[inline(always)]
    fn count(&self, i: usize, s: Status) {
        if OBS && let Some(c) = self.counts.get(i) {
            c.end(s);
        }
    }

    /// Counts visits of nodes `nodes` that returned `Failure`, when counting.
    #[inline(always)]
    fn count_failures(&self, nodes: std::ops::Range<usize>) {
        if OBS && let Some(cs) = self.counts.get(nodes) {
            cs.iter().for_each(|c| c.end(Status::Failure));
        }
    }

    /// A visit of node `i`: budget, the probe's enter/result events and pause requests,
    /// counting, the node's own work ([`Self::exec`]) and its status. (Conditions under a
    /// sequence or selector, while the host hears nothing, are visited by
    /// [`pass_conditions`].)
    #[inline]
    fn run(&mut self, i: usize) -> Status {
        if self.budget == 0 {
            if self.runaway.is_none() {
                self.runaway = Some(i);
            }
            self.cut = true;
            return Status::Failure;
        }
        self.budget -= 1;
        if self.hears() {
            self.host.on_enter(i, self.status[i]);
            if self.host.stop_requested() {
                self.cut = true;
                self.count(i, Status::Idle);
                return Status::Failure;
            }
        }
        // Conditions are most visits in large trees: keep them off the big `exec` match.
        // (Unobserved, a condition is visited in its parent's loop: `exec` has it too.)
        let s = if let (true, Op::Condition { expr, test }) = (OBS, &self.tree.nodes[i].op) {
            let (expr, test) = (*expr, *test);
            status_of(holds(self.host, expr, test))
        } else {
            self.exec(i)
        };
        // A pause requested inside the node (a nested tree, a world event) cuts here too.
        if self.cut || (self.hears() && self.host.stop_requested()) {
            self.cut = true;
            self.count(i, Status::Idle);
            return Status::Failure;
        }
        let old = self.status[i];
        self.status[i] = s;
        if self.observing() {
            self.count(i, s);
            if self.hears() {
                self.host.on_result(i, old, s);
                if self.host.stop_requested() {
                    self.cut = true;
                }
            }
        }
        s
    }

    /// Resets the subtree `i..end`: running actions are stopped, state cleared (a cooldown
    /// keeps its clock), statuses back to idle.
    fn halt(&mut self, i: usize) {
        let end = self.tree.nodes[i].end as usize;
        for j in i..end {
            if self.status[j] == Status::Running {
                match self.tree.nodes[j].op {
                    Op::MoveTo { .. } | Op::GoToChild { .. } => self.host.stop_moving(),
                    Op::Animate { .. } | Op::Say { .. } => self.host.clear_show(),
                    Op::Request { .. } => self.host.halt_request(j),
                    Op::Converse { cast, .. } => {
                        self.host.converse(cast, false);
                    }
                    _ => {}
                }
            }
            if !matches!(self.tree.nodes[j].op, Op::Cooldown { .. }) {
                self.state[j] = 0;
            }
            self.set_status(j, Status::Idle);
        }
    }

    /// Halts child `k` of `i` if it is running.
    #[inline]
    fn halt_child(&mut self, i: usize, k: usize) {
        let c = self.tree.child(i, k);
        if self.status[c] == Status::Running {
            self.halt(c);
        }
    }

    // Inlined into `run`, its one caller: a composite's visit is then one call, not two.
    #[inline(always)]
    fn exec(&mut self, i: usize) -> Status {
        let tree = self.tree;
        let n = &tree.nodes[i];
        let count = n.child_count as usize;
        match &n.op {
            Op::Sequence { reactive: false } => {
                let leaves = tree.kid_leaves(i);
                let mut k = self.state[i] as usize;
                while k < count {
                    match next_child!(self, leaves, k, Status::Success) {
                        Some(Status::Success) => k += 1,
                        None => break,
                        Some(Status::Running) => {
                            self.state[i] = k as u64;
                            return Status::Running;
                        }
                        Some(_) => {
                            self.state[i] = 0;
                            return Status::Failure;
                        }
                    }
                }
                self.state[i] = 0;
                Status::Success
            }
            Op::Selector { reactive: false } => {
                let leaves = tree.kid_leaves(i);
                let mut k = self.state[i] as usize;
                while k < count {
                    match next_child!(self, leaves, k, Status::Failure) {
                        Some(Status::Failure | Status::Idle) => k += 1,
                        None => break,
                        Some(Status::Running) => {
                            self.state[i] = k as u64;
                            return Status::Running;
                        }
                        Some(Status::Success) => {
                            self.state[i] = 0;
                            return Status::Success;
                        }
                    }
                }
                self.state[i] = 0;
                Status::Failure
            }
            Op::Sequence { reactive: true } => {
                // state = index of the running child + 1 (0: none).
                let prev = self.state[i] as usize;
                let leaves = tree.kid_leaves(i);
                let mut k = 0;
                while let Some(s) = next_child!(self, leaves, k, Status::Success) {
                    match s {
                        Status::Success => k += 1,
                        Status::Running => {
                            if prev > k + 1 {
                                self.halt_child(i, prev - 1);
                            }
                            self.state[i] = k as u64 + 1;
                            return Status::Running;
                        }
                        _ => {
                            if prev > k + 1 {
                                self.halt_child(i, prev - 1);
                            }
                            self.state[i] = 0;
                            return Status::Failure;
                        }
                    }
                }
                self.state[i] = 0;
                Status::Success
            }
            Op::Selector { reactive: true } => {
                let prev = self.state[i] as usize;
                let leaves = tree.kid_leaves(i);
                let mut k = 0;
                while let Some(s) = next_child!(self, leaves, k, Status::Failure) {
                    match s {
                        Status::Failure | Status::Idle => k += 1,
                        Status::Running => {
                            if prev > k + 1 {
                                self.halt_child(i, prev - 1);
                            }
                            self.state[i] = k as u64 + 1;
                            return Status::Running;
                        }
                        Status::Success => {
                            if prev > k + 1 {
                                self.halt_child(i, prev - 1);
                            }
                            self.state[i] = 0;
                            return Status::Success;
                        }
                    }
                }
                self.state[i] = 0;
                Status::Failure
            }
            Op::Parallel { .. }
            | Op::RandomSelector { .. }
            | Op::Repeat { .. }
            | Op::Retry { .. }
            | Op::Cooldown { .. }
            | Op::Timeout { .. }
            | Op::Guard { .. } => self.exec_rare(i),
            Op::Inverter => match kid!(self, i, 0) {
                Status::Success => Status::Failure,
                Status::Failure => Status::Success,
                s => s,
            },
            Op::ForceSuccess => match kid!(self, i, 0) {
                Status::Running => Status::Running,
                _ => Status::Success,
            },
            Op::ForceFailure => match kid!(self, i, 0) {
                Status::Running => Status::Running,
                _ => Status::Failure,
            },
            Op::Subtree { .. } => {
                if count == 0 {
                    Status::Failure
                } else {
                    kid!(self, i, 0)
                }
            }
            &Op::Condition { expr, test } => status_of(holds(self.host, expr, test)),
            // The actions ([`Op::is_action`]), listed: a `_` arm here cost S3 1.5 % of its
            // instructions (the recursive visit compiled worse), and a new op must be placed.
            Op::InArea { .. }
            | Op::TimeWindow { .. }
            | Op::HasMessage { .. }
            | Op::Chance { .. }
            | Op::MoveTo { .. }
            | Op::Wait { .. }
            | Op::Set { .. }
            | Op::Send { .. }
            | Op::Receive { .. }
            | Op::WaitMessage { .. }
            | Op::Animate { .. }
            | Op::Say { .. }
            | Op::Log { .. }
            | Op::Request { .. }
            | Op::GoToChild { .. }
            | Op::Area(_)
            | Op::Fail
            | Op::Converse { .. } => self.act(i),
        }
    }

    /// The work of the composites and decorators but sequences, selectors, inverters,
    /// force-success/failure and subtrees ([`Self::exec`]). Not inlined: the recursive visit
    /// stays small.
    #[inline(never)]
    fn exec_rare(&mut self, i: usize) -> Status {
        let tree = self.tree;
        let n = &tree.nodes[i];
        let count = n.child_count as usize;
        match &n.op {
            &Op::Parallel { success, failure } => {
                // state: low 32 bits = finished children, high 32 bits = succeeded children.
                let st = self.state[i];
                let mut done = st as u32;
                let mut ok = (st >> 32) as u32;
                for k in 0..count {
                    if done & (1 << k) != 0 {
                        continue;
                    }
                    let s = kid!(self, i, k);
                    match s {
                        Status::Success => {
                            done |= 1 << k;
                            ok |= 1 << k;
                        }
                        Status::Failure | Status::Idle => done |= 1 << k,
                        Status::Running => {}
                    }
                }
                let succeeded = ok.count_ones();
                let failed = (done & !ok).count_ones();
                let result = if succeeded >= success {
                    Status::Success
                } else if failed >= failure || (count as u32 - failed) < success {
                    Status::Failure
                } else {
                    self.state[i] = ((ok as u64) << 32) | done as u64;
                    return Status::Running;
                };
                for k in 0..count {
                    self.halt_child(i, k);
                }
                self.state[i] = 0;
                result
            }
            Op::RandomSelector { weights } => {
                // state: low 32 bits = tried children, bits 32.. = running child + 1.
                loop {
                    let st = self.state[i];
                    let tried = st as u32;
                    let mut cur = (st >> 32) as usize;
                    if cur == 0 {
                        let total: f64 = (0..count)
                            .filter(|k| tried & (1 << k) == 0)
                            .map(|k| weights[k].max(0.0))
                            .sum();
                        if total <= 0.0 {
                            self.state[i] = 0;
                            return Status::Failure;
                        }
                        let mut r = self.host.random() * total;
                        let mut pick = None;
                        for (k, w) in weights.iter().enumerate().take(count) {
                            if tried & (1 << k) != 0 || *w <= 0.0 {
                                continue;
                            }
                            pick = Some(k);
                            if r < *w {
                                break;
                            }
                            r -= *w;
                        }
                        let Some(k) = pick else {
                            self.state[i] = 0;
                            return Status::Failure;
                        };
                        cur = k + 1;
                    }
                    let s = kid!(self, i, cur - 1);
                    match s {
                        Status::Running => {
                            self.state[i] = ((cur as u64) << 32) | tried as u64;
                            return Status::Running;
                        }
                        Status::Success => {
                            self.state[i] = 0;
                            return Status::Success;
                        }
                        _ => {
                            self.state[i] = (tried | (1 << (cur - 1))) as u64;
                        }
                    }
                }
            }
            &Op::Repeat { times } => loop {
                let s = kid!(self, i, 0);
                match s {
                    Status::Success => {
                        self.state[i] += 1;
                        if times != 0 && self.state[i] >= times as u64 {
                            self.state[i] = 0;
                            return Status::Success;
                        }
                    }
                    Status::Running => return Status::Running,
                    _ => {
                        self.state[i] = 0;
                        return Status::Failure;
                    }
                }
            },
            &Op::Retry { times } => loop {
                let s = kid!(self, i, 0);
                match s {
                    Status::Failure | Status::Idle => {
                        self.state[i] += 1;
                        if self.state[i] >= times as u64 {
                            self.state[i] = 0;
                            return Status::Failure;
                        }
                    }
                    Status::Running => return Status::Running,
                    Status::Success => {
                        self.state[i] = 0;
                        return Status::Success;
                    }
                }
            },
            &Op::Cooldown { ticks } => {
                // state = tick the child last finished + 1 (0: never); kept across halts.
                let now = self.host.now();
                let last = self.state[i];
                let child = tree.child(i, 0);
                if last != 0 && now < last - 1 + ticks && self.status[child] != Status::Running {
                    return Status::Failure;
                }
                let s = child!(self, child);
                if s != Status::Running {
                    self.state[i] = now + 1;
                }
                s
            }
            &Op::Timeout { ticks } => {
                let now = self.host.now();
                if self.state[i] == 0 {
                    self.state[i] = now + 1;
                }
                let started = self.state[i] - 1;
                if now - started >= ticks {
                    self.halt_child(i, 0);
                    self.state[i] = 0;
                    return Status::Failure;
                }
                let s = kid!(self, i, 0);
                if s != Status::Running {
                    self.state[i] = 0;
                }
                s
            }
            &Op::Guard { cond } => {
                if self.host.eval_bool(cond) {
                    kid!(self, i, 0)
                } else {
                    self.halt_child(i, 0);
                    Status::Failure
                }
            }
            // `exec` does the rest.
            op => {
                debug_assert!(
                    false,
                    "exec_rare is given only the ops it lists, not {op:?}"
                );
                Status::Failure
            }
        }
    }

    /// The work of action `i` ([`Op::is_action`]: no children, so no recursion), for
    /// [`Self::exec`] and for [`Self::action`]: the two most common (`wait`, `set`) right
    /// here, the others in [`Self::action_op`].
    #[inline(always)]
    fn act(&mut self, i: usize) -> Status {
        match self.tree.nodes[i].op {
            Op::Wait { ticks } => self.timed(i, ticks),
            Op::Set { var, value } => {
                self.host.set(var, value);
                Status::Success
            }
            _ => self.action_op(i),
        }
    }

    /// The work of the actions but `wait` and `set` ([`Self::act`]). Not inlined: the
    /// recursive visit stays small.
    #[inline(never)]
    fn action_op(&mut self, i: usize) -> Status {
        let n = &self.tree.nodes[i];
        match &n.op {
            &Op::InArea { area } => status_of(self.host.in_area(area)),
            &Op::TimeWindow { from, to } => {
                let h = self.host.hour();
                status_of(if from <= to {
                    h >= from && h < to
                } else {
                    h >= from || h < to
                })
            }
            &Op::HasMessage { inbox, message } => status_of(self.host.has_message(inbox, message)),
            &Op::Chance { p } => status_of(self.host.random() < p),
            &Op::MoveTo { target, tolerance } => {
                let s = self.host.move_to(target, tolerance);
                if s != Status::Running {
                    self.host.stop_moving();
                }
                s
            }
            &Op::Send { to, inbox, message } => status_of(self.host.send(to, inbox, message)),
            &Op::Receive {
                inbox,
                message,
                sender,
                take,
            } => status_of(self.host.receive(inbox, message, sender, take)),
            &Op::WaitMessage {
                inbox,
                message,
                sender,
            } => {
                if self.host.receive(inbox, message, sender, true) {
                    Status::Success
                } else {
                    Status::Running
                }
            }
            &Op::Animate { animation, ticks } => {
                if self.state[i] == 0 {
                    self.host.show(false, animation);
                }
                let s = self.timed(i, ticks);
                if s != Status::Running {
                    self.host.clear_show();
                }
                s
            }
            &Op::Say { text, ticks } => {
                if self.state[i] == 0 {
                    self.host.show(true, text);
                }
                let s = self.timed(i, ticks);
                if s != Status::Running {
                    self.host.clear_show();
                }
                s
            }
            &Op::Log { text } => {
                self.host.log(text);
                Status::Success
            }
            &Op::Request { req } => self.host.request(i, req),
            &Op::GoToChild { kind, choose } => {
                let s = self.host.go_to_child(kind, choose, &mut self.state[i]);
                if s != Status::Running {
                    self.state[i] = 0;
                    self.host.stop_moving();
                }
                s
            }
            Op::Area(action) => self.host.area_action(action),
            Op::Fail => Status::Failure,
            &Op::Converse { cast, until, ticks } => {
                let now = self.host.now();
                if self.state[i] == 0 {
                    if !self.host.converse(cast, true) {
                        return Status::Failure;
                    }
                    self.state[i] = now + 1;
                }
                let done = until.is_some_and(|e| self.host.eval_bool(e))
                    || now - (self.state[i] - 1) >= ticks;
                if done {
                    self.host.converse(cast, false);
                    self.state[i] = 0;
                    Status::Success
                } else {
                    Status::Running
                }
            }
            // `act` does `wait` and `set`; `exec` the ops that are not actions.
            op => {
                debug_assert!(
                    op.is_action() && !matches!(op, Op::Wait { .. } | Op::Set { .. }),
                    "action_op is given only the actions but wait and set"
                );
                Status::Failure
            }
        }
    }

    /// Running for `ticks` ticks from the first visit, then Success.
    #[inline(always)]
    fn timed(&mut self, i: usize, ticks: u64) -> Status {
        let now = self.host.now();
        if self.state[i] == 0 {
            self.state[i] = now + 1;
        }
        if now - (self.state[i] - 1) >= ticks {
            self.state[i] = 0;
            Status::Success
        } else {
            Status::Running
        }
    }
}

#[inline]
fn status_of(b: bool) -> Status {
    if b { Status::Success } else { Status::Failure }
}
