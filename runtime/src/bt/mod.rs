//! Behavior trees (SPEC §1): compiled, shared tree definitions and compact per-NPC state.
//!
//! A [`Tree`] is compiled once from the pack (by `program::trees`): nodes in pre-order in one flat array, disabled
//! nodes left out, subtree references inlined (with their origin kept for the debugger).
//! An [`Instance`] is one NPC's state: one `u64` and one status byte per node, allocated
//! once. Ticking walks the flat array through a [`Host`] (the world), never allocates, and
//! never clones a definition.

mod tick;

pub use tick::{
    Host, NodeCount, TickOutcome, halt, halt_nodes, tick_nodes, tick_tree, tick_tree_counted,
};

use crate::expr::BoardTest;
use crate::value::Sym;

/// A node's status. `Idle` = not run since its last reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Status {
    #[default]
    Idle = 0,
    Running = 1,
    Success = 2,
    Failure = 3,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Running => "running",
            Status::Success => "success",
            Status::Failure => "failure",
        }
    }
}

/// Index of a compiled expression in the program's expression table.
pub type ExprId = u32;

/// Where a compiled `move_to` goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    Point(crate::value::Vec2),
    Object(u32),
    Area(u32),
    Npc(u32),
    /// A blackboard slot holding a vec2 or an entity.
    Var(u32),
}

/// Where a variable write goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarRef {
    Blackboard(u32),
    Flag(u32),
    Counter(u32),
    /// `area.NAME`: a variable of the area the tree runs in (an NPC's innermost area).
    Area(u32),
}

/// Who receives a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recipient {
    /// The NPC (or area) running the tree.
    SelfNpc,
    Npc(u32),
    /// A blackboard slot holding an entity.
    Var(u32),
    /// An area's inbox, by area index.
    Area(u32),
    /// `area`: the innermost area the NPC stands in (in an area's tree: itself).
    CurrentArea,
    /// `subject`: in an area's handler, the NPC the event is about.
    Subject,
}

/// What an area-related action node does.
#[derive(Clone, Debug, PartialEq)]
pub enum AreaAction {
    EnableTemplate {
        template: Sym,
        enabled: bool,
    },
    MessageHolders {
        template: Option<Sym>,
        inbox: Sym,
        message: Sym,
    },
    CreateArea {
        proto: u32,
        ticks: Option<u64>,
    },
    RemoveArea,
}

/// A compiled node: what it does.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Sequence {
        reactive: bool,
    },
    Selector {
        reactive: bool,
    },
    Parallel {
        success: u32,
        failure: u32,
    },
    /// Weights of the children, in order.
    RandomSelector {
        weights: Box<[f64]>,
    },
    Inverter,
    ForceSuccess,
    ForceFailure,
    /// `times == 0`: forever.
    Repeat {
        times: u32,
    },
    Retry {
        times: u32,
    },
    Cooldown {
        ticks: u64,
    },
    Timeout {
        ticks: u64,
    },
    Guard {
        cond: ExprId,
    },
    Condition {
        expr: ExprId,
        /// What `expr` is when it tests one variable of the blackboard: the engine then reads
        /// the value from [`Host::board`] (same result as evaluating `expr`).
        test: Option<BoardTest>,
    },
    InArea {
        area: u32,
    },
    TimeWindow {
        from: f64,
        to: f64,
    },
    HasMessage {
        inbox: Sym,
        message: Option<Sym>,
    },
    Chance {
        p: f64,
    },
    MoveTo {
        target: Target,
        tolerance: f64,
    },
    Wait {
        ticks: u64,
    },
    Set {
        var: VarRef,
        value: ExprId,
    },
    Send {
        to: Recipient,
        inbox: Sym,
        message: Sym,
    },
    /// `take == false`: peek.
    Receive {
        inbox: Sym,
        message: Option<Sym>,
        sender: Option<u32>,
        take: bool,
    },
    /// Running until a message arrives, then takes it.
    WaitMessage {
        inbox: Sym,
        message: Option<Sym>,
        sender: Option<u32>,
    },
    Animate {
        animation: Sym,
        ticks: u64,
    },
    Say {
        text: Sym,
        ticks: u64,
    },
    Log {
        text: Sym,
    },
    /// Pass-through to the inlined root of another tree (the only child).
    Subtree {
        tree: u32,
    },
    /// Asks the smart area for a behavior (parameters in `Program::requests`).
    Request {
        req: u32,
    },
    /// Walk into a child area of the granting area.
    GoToChild {
        kind: Sym,
        choose: crate::pack::ChildChoice,
    },
    Area(AreaAction),
    /// Always fails: stands in for a node with errors (a program with errors never runs).
    Fail,
    /// Hands the NPC to the conversation layer of cast `cast` until `until` holds or `ticks`
    /// have passed (`u64::MAX`: no timeout).
    Converse {
        cast: u32,
        until: Option<ExprId>,
        ticks: u64,
    },
}

impl Op {
    /// Whether the op is an action: it never has children, so its visit never recurses
    /// (everything but the composites, the decorators, `Subtree` and `Condition`). The
    /// engine visits them in their parent's loop (`Leaf::Action`) and runs them out of its
    /// recursive visit (`Engine::act`).
    pub fn is_action(&self) -> bool {
        match self {
            Op::Sequence { .. }
            | Op::Selector { .. }
            | Op::Parallel { .. }
            | Op::RandomSelector { .. }
            | Op::Inverter
            | Op::ForceSuccess
            | Op::ForceFailure
            | Op::Repeat { .. }
            | Op::Retry { .. }
            | Op::Cooldown { .. }
            | Op::Timeout { .. }
            | Op::Guard { .. }
            | Op::Subtree { .. }
            | Op::Condition { .. } => false,
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
            | Op::Converse { .. } => true,
        }
    }
}

/// A compiled node.
#[derive(Clone, Debug, PartialEq)]
pub struct CNode {
    pub op: Op,
    /// Range of this node's children in [`Tree::children`].
    pub child_start: u32,
    pub child_count: u32,
    /// One past the last node of this node's subtree (pre-order), so the subtree is
    /// `index..end`.
    pub end: u32,
    /// The tree this node was written in (differs from the compiled tree inside inlined
    /// subtrees) and its id there.
    pub origin_tree: u32,
    pub origin_id: Sym,
    /// Depth below the compiled root (0 = root).
    pub depth: u16,
}

impl CNode {
    /// Where this node's children lie in [`Tree::children`] (and [`Tree::leaves`]).
    #[inline(always)]
    fn kid_range(&self) -> std::ops::Range<usize> {
        let start = self.child_start as usize;
        start..start + self.child_count as usize
    }
}

/// A compiled, shared tree definition.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    pub id: String,
    /// Nodes in pre-order; empty if every node is disabled.
    pub nodes: Vec<CNode>,
    /// Child indices, referenced by [`CNode::child_start`]/[`CNode::child_count`].
    pub children: Vec<u32>,
    /// Beside `children`: each child, and what the engine knows of it without visiting its
    /// node (whether it is a condition, and its test). Filled by [`Tree::mark_leaves`]
    /// (compiling does it): the engine walks a node's children here, and does not run a
    /// tree whose leaves are not marked.
    pub leaves: Vec<Leaf>,
}

/// A child as its parent's loop sees it ([`Tree::leaves`]): a condition is visited right
/// there while nothing observes, from this copy of what it tests (contiguous with its
/// siblings', so a run of conditions reads one array); so are an action (a node without
/// children) and a guarded sequence whose guard fails.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    /// Any other node (`node`, the child's entry in [`Tree::children`]): visited in full.
    Node { node: u32 },
    /// A condition node (as its `Op::Condition`), and its index (the child's entry in
    /// [`Tree::children`], here so that a run of conditions reads one array).
    Condition {
        node: u32,
        expr: ExprId,
        test: Option<BoardTest>,
    },
    /// An action: a node whose op has no children ([`Op::is_action`]), visited in its parent's
    /// loop without a recursive call.
    Action { node: u32 },
    /// A sequence (reactive or not) whose first child is a condition, node `node + 1` (as its
    /// `Op::Condition`): while the sequence runs nothing, a failing guard decides its visit
    /// (`Failure`, both statuses `Failure`, two visits) without entering it.
    Guarded {
        node: u32,
        expr: ExprId,
        test: Option<BoardTest>,
    },
    /// A sequence (reactive or not) whose first child, node `node + 1`, is a selector
    /// (reactive or not) of conditions only (nodes `node + 2..`): while the sequence runs
    /// nothing, a guard none of whose conditions holds decides the sequence's visit
    /// (`Failure`, every status of the three levels `Failure`, one visit each) without
    /// entering it.
    GuardedAny { node: u32 },
}

impl Leaf {
    /// The child's entry in [`Tree::children`] (its node).
    #[inline(always)]
    pub fn node(&self) -> u32 {
        match *self {
            Leaf::Node { node }
            | Leaf::Condition { node, .. }
            | Leaf::Action { node }
            | Leaf::Guarded { node, .. }
            | Leaf::GuardedAny { node } => node,
        }
    }
}

impl Tree {
    /// Fills [`Tree::leaves`] from the nodes and children (once, after compiling).
    pub fn mark_leaves(&mut self) {
        let nodes = &self.nodes;
        let children = &self.children;
        let condition = |c: usize| match nodes.get(c).map(|n| &n.op) {
            Some(&Op::Condition { expr, test }) => Some((expr, test)),
            _ => None,
        };
        // A selector of conditions only (nodes `g + 1..`, as they are in pre-order).
        let any_of_conditions = |g: usize| {
            nodes.get(g).is_some_and(|n| {
                matches!(n.op, Op::Selector { .. })
                    && n.child_count > 0
                    && children.get(n.kid_range()).is_some_and(|k| {
                        k.iter()
                            .zip(g + 1..)
                            .all(|(&c, at)| c as usize == at && condition(c as usize).is_some())
                    })
            })
        };
        self.leaves = children
            .iter()
            .map(|&c| {
                if let Some((expr, test)) = condition(c as usize) {
                    return Leaf::Condition {
                        node: c,
                        expr,
                        test,
                    };
                }
                let Some(n) = nodes.get(c as usize) else {
                    return Leaf::Node { node: c };
                };
                if n.op.is_action() {
                    return Leaf::Action { node: c };
                }
                let first = children.get(n.kid_range()).and_then(|k| k.first());
                match (&n.op, first) {
                    (Op::Sequence { .. }, Some(&g)) if g == c + 1 => match condition(g as usize) {
                        Some((expr, test)) => Leaf::Guarded {
                            node: c,
                            expr,
                            test,
                        },
                        None if any_of_conditions(g as usize) => Leaf::GuardedAny { node: c },
                        None => Leaf::Node { node: c },
                    },
                    _ => Leaf::Node { node: c },
                }
            })
            .collect();
    }

    /// The children of `node` as leaves, in order (empty when not marked).
    #[inline(always)]
    pub fn kid_leaves(&self, node: usize) -> &[Leaf] {
        let range = CNode::kid_range(&self.nodes[node]);
        self.leaves.get(range).unwrap_or(&[])
    }

    #[inline]
    pub fn child(&self, node: usize, k: usize) -> usize {
        self.children[self.nodes[node].child_start as usize + k] as usize
    }
    #[inline]
    pub fn child_count(&self, node: usize) -> usize {
        self.nodes[node].child_count as usize
    }
    /// The compiled index of the node with this origin (tree, id), first in pre-order.
    pub fn find(&self, origin_tree: u32, origin_id: Sym) -> Option<usize> {
        self.nodes
            .iter()
            .position(|n| n.origin_tree == origin_tree && n.origin_id == origin_id)
    }
}

/// One NPC's state for one tree: allocated once, reset in place.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instance {
    pub tree: u32,
    /// Per-node working state (child index, counters, start tick, …).
    pub state: Vec<u64>,
    /// Per-node last status.
    pub status: Vec<Status>,
}

impl Instance {
    pub fn new(tree_index: u32, tree: &Tree) -> Instance {
        Instance {
            tree: tree_index,
            state: vec![0; tree.nodes.len()],
            status: vec![Status::Idle; tree.nodes.len()],
        }
    }
}

impl Instance {
    /// An instance with no nodes (a placeholder while the real one is borrowed out).
    pub fn empty() -> Instance {
        Instance {
            tree: u32::MAX,
            state: Vec::new(),
            status: Vec::new(),
        }
    }
}

#[cfg(test)]
mod random_tests;
#[cfg(test)]
mod tests;
