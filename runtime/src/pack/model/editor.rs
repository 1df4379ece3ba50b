//! The editor-only section: layout, colours, collapsed state, breakpoints.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

/// Editor-only section: node positions, colours, collapsed state, breakpoints. Never affects
/// simulation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EditorDef {
    /// Graph layout of each tree, by tree id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub trees: BTreeMap<String, GraphLayout>,
    /// Debugger breakpoints, saved so they survive reopening the pack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub breakpoints: Vec<BreakpointDef>,
    /// How the editor draws behavior trees (top-down unless set).
    #[serde(default, skip_serializing_if = "TreeDirection::is_top_down")]
    pub tree_direction: TreeDirection,
}

impl EditorDef {
    pub fn is_empty(&self) -> bool {
        self.trees.is_empty() && self.breakpoints.is_empty() && self.tree_direction.is_top_down()
    }
}

/// The direction the editor draws behavior trees in. Saved positions are the same either way
/// (the editor maps them), so switching never moves a card in the tree's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TreeDirection {
    /// The root at the top, children below it, in order from left to right.
    #[default]
    TopDown,
    /// The root on the left, children to its right, in order from top to bottom.
    LeftToRight,
}

impl TreeDirection {
    pub fn is_top_down(&self) -> bool {
        *self == TreeDirection::TopDown
    }
}

/// A debugger breakpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BreakpointDef {
    /// Stable id, unique among the pack's breakpoints.
    pub id: u32,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub enabled: bool,
    /// What it watches.
    #[serde(flatten)]
    pub on: BreakOn,
    /// Only for this NPC (by id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub npc: Option<String>,
    /// An expression over the NPC's blackboard, flags and counters. For `"on": "condition"`
    /// it is what is watched (the breakpoint hits when it becomes true); for the other kinds
    /// it filters hits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
}

/// What a breakpoint watches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "on", rename_all = "snake_case")]
pub enum BreakOn {
    /// A behavior-tree node (also inside subtrees that inline it).
    Node {
        tree: String,
        node: String,
        #[serde(default)]
        when: NodeWhen,
    },
    /// `condition` becoming true for an NPC.
    Condition,
    /// A blackboard variable (`name`), flag (`flags.name`) or counter (`counters.name`)
    /// changing value.
    Data { var: String },
    /// A runtime event of a trace kind (`message`, `enter`, `exit`, `flag`, `say`, …, and
    /// the kinds later runtimes add), optionally only when some of its fields have the given
    /// values (compared as text).
    Event {
        kind: String,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        filter: BTreeMap<String, String>,
    },
}

/// When a node breakpoint hits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NodeWhen {
    /// When the node starts: it is ticked while not running (from idle, or after it
    /// finished).
    #[default]
    Enter,
    /// Every time the node is ticked (also each tick it goes on running).
    Tick,
    /// When it returns success.
    Success,
    /// When it returns failure.
    Failure,
    /// When it returns running.
    Running,
    /// When it returns a status different from its previous one.
    Change,
}

/// Layout of one graph: per node id.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GraphLayout {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub nodes: BTreeMap<String, NodeLayout>,
}

/// Layout of one graph node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NodeLayout {
    pub pos: Point,
    #[serde(default, skip_serializing_if = "is_false")]
    pub collapsed: bool,
    /// `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}
