//! Behavior trees: tree definitions and node kinds.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

/// A behavior tree definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TreeDef {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Typed blackboard variables this tree reads and writes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub blackboard: BTreeMap<String, VarDecl>,
    pub root: Node,
}

/// One behavior tree node. `type` selects the kind; its parameters sit beside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Node {
    /// Stable id, unique within the tree.
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// A disabled node is skipped by its parent as if it were absent.
    #[serde(default, skip_serializing_if = "is_false")]
    pub disabled: bool,
    #[serde(flatten)]
    pub kind: NodeKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

/// Where a `move_to` goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoveTarget {
    /// A fixed point.
    Point(Point),
    /// A static object, by id.
    Object(String),
    /// The centre of an area, by id.
    Area(String),
    /// Another NPC, by id (followed while it moves).
    Npc(String),
    /// A blackboard variable holding a vec2 or an entity.
    Var(String),
}

/// A weighted template preference of a request node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Preference {
    pub template: String,
    pub weight: f64,
}

fn default_weight_list() -> Vec<f64> {
    Vec::new()
}

/// The kind of a node and its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum NodeKind {
    // ---- composites ----
    /// Runs children in order until one fails. `reactive` re-checks earlier children every
    /// tick, so a failing earlier condition halts a running later child.
    Sequence {
        #[serde(default)]
        reactive: bool,
    },
    /// Runs children in order until one succeeds. `reactive` re-checks higher-priority
    /// children every tick and preempts a running lower one.
    Selector {
        #[serde(default)]
        reactive: bool,
    },
    /// Ticks all children; succeeds when `success_threshold` children succeeded (default: all),
    /// fails when `failure_threshold` failed (default: 1).
    Parallel {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        success_threshold: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        failure_threshold: Option<u32>,
    },
    /// Picks a child at random by weight (seeded); on failure tries another of the remaining
    /// ones; fails when all failed. Empty `weights` means equal weights.
    RandomSelector {
        #[serde(default = "default_weight_list")]
        weights: Vec<f64>,
    },
    // ---- decorators (exactly one child) ----
    Inverter,
    ForceSuccess,
    ForceFailure,
    /// Repeats its child while it succeeds, `times` times (absent: forever).
    Repeat {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        times: Option<u32>,
    },
    /// Re-runs a failing child up to `times` attempts in all.
    Retry {
        times: u32,
    },
    /// After its child finishes, fails without ticking it for `seconds`.
    Cooldown {
        seconds: f64,
    },
    /// Fails (halting the child) if the child runs longer than `seconds`.
    Timeout {
        seconds: f64,
    },
    /// Ticks its child only while `condition` holds; otherwise halts it and fails.
    Guard {
        condition: String,
    },
    // ---- conditions ----
    /// A boolean expression over blackboard, area, flags and counters.
    Condition {
        expr: String,
    },
    /// Succeeds while the NPC stands inside the area.
    InArea {
        area: String,
    },
    /// Succeeds while the time of day is in [from_hour, to_hour) (wraps past midnight).
    TimeWindow {
        from_hour: f64,
        to_hour: f64,
    },
    /// Succeeds when the inbox holds a message (of `message` kind, if given).
    HasMessage {
        inbox: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// Succeeds with the given probability (seeded).
    Chance {
        probability: f64,
    },
    // ---- actions ----
    /// Walks to the target; Running until arrived within `tolerance`.
    MoveTo {
        target: MoveTarget,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tolerance: Option<f64>,
    },
    /// Running for `seconds`, then Success.
    Wait {
        seconds: f64,
    },
    /// Assigns an expression's value to a blackboard variable, `flags.X` or `counters.X`.
    Set {
        var: String,
        value: String,
    },
    /// Sends a message to an NPC (`to`: its id, `self`, or a blackboard entity variable).
    SendMessage {
        to: String,
        #[serde(default = "default_inbox")]
        inbox: String,
        message: String,
    },
    /// Takes the oldest message (of `message` kind, if given) from an inbox; fails if none.
    /// Stores the sender in the entity variable `sender_var`, if given.
    Receive {
        #[serde(default = "default_inbox")]
        inbox: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sender_var: Option<String>,
    },
    /// Plays an animation in the preview for `seconds`.
    Animate {
        animation: String,
        seconds: f64,
    },
    /// Says a line (speech bubble in the preview) for `seconds`.
    Say {
        text: String,
        seconds: f64,
    },
    /// Writes a line to the trace; succeeds at once.
    Log {
        text: String,
    },
    // ---- references ----
    /// Runs another tree by id, with this NPC's blackboard.
    Subtree {
        tree: String,
    },
    /// Asks the smart area the NPC stands in for a behavior (smart areas: SPEC §2).
    Request {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        prefer: Vec<Preference>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        forbid: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        area_kind: Option<String>,
    },
    /// In a behavior granted by an area: walk into one of that area's child areas of `kind`
    /// (picked by weight or nearest, once per run); Success when inside it.
    GoToChild {
        kind: String,
        #[serde(default)]
        choose: ChildChoice,
    },
    /// Like `receive`, but leaves the message in the inbox.
    Peek {
        #[serde(default = "default_inbox")]
        inbox: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sender_var: Option<String>,
    },
    /// Running until a message (of `message` kind, if given) is in the inbox; then takes it.
    WaitMessage {
        #[serde(default = "default_inbox")]
        inbox: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sender_var: Option<String>,
    },
    /// In an area's brain or handler: enables or disables one of its templates.
    EnableTemplate {
        template: String,
        enabled: bool,
    },
    /// In an area's brain or handler: sends a message to every NPC holding one of its
    /// behaviors (of `template`, if given).
    MessageHolders {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        template: Option<String>,
        #[serde(default = "default_inbox")]
        inbox: String,
        message: String,
    },
    /// Creates a dynamic area from a prototype (an area with `"dynamic": true`) centred where
    /// this NPC (or area) is, for `seconds` (absent: until removed).
    CreateArea {
        prototype: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds: Option<f64>,
    },
    /// Removes the dynamic area this tree runs in (brain or handler), or the innermost
    /// dynamic area the NPC stands in.
    RemoveArea,
    // ---- conversations ----
    /// Hands the NPC to the conversation layer of cast `cast` (SPEC §5): it joins, starts
    /// and leaves background conversations there. Running until `until` holds or `seconds`
    /// have passed (then Success); halting it takes the NPC out of its conversation.
    Converse {
        cast: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        until: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds: Option<f64>,
    },
}

fn default_inbox() -> String {
    "default".into()
}

/// How many children a node kind takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    Leaf,
    One,
    Many,
}

impl NodeKind {
    /// The JSON `type` name.
    pub fn type_name(&self) -> &'static str {
        match self {
            NodeKind::Sequence { .. } => "sequence",
            NodeKind::Selector { .. } => "selector",
            NodeKind::Parallel { .. } => "parallel",
            NodeKind::RandomSelector { .. } => "random_selector",
            NodeKind::Inverter => "inverter",
            NodeKind::ForceSuccess => "force_success",
            NodeKind::ForceFailure => "force_failure",
            NodeKind::Repeat { .. } => "repeat",
            NodeKind::Retry { .. } => "retry",
            NodeKind::Cooldown { .. } => "cooldown",
            NodeKind::Timeout { .. } => "timeout",
            NodeKind::Guard { .. } => "guard",
            NodeKind::Condition { .. } => "condition",
            NodeKind::InArea { .. } => "in_area",
            NodeKind::TimeWindow { .. } => "time_window",
            NodeKind::HasMessage { .. } => "has_message",
            NodeKind::Chance { .. } => "chance",
            NodeKind::MoveTo { .. } => "move_to",
            NodeKind::Wait { .. } => "wait",
            NodeKind::Set { .. } => "set",
            NodeKind::SendMessage { .. } => "send_message",
            NodeKind::Receive { .. } => "receive",
            NodeKind::Animate { .. } => "animate",
            NodeKind::Say { .. } => "say",
            NodeKind::Log { .. } => "log",
            NodeKind::Subtree { .. } => "subtree",
            NodeKind::Request { .. } => "request",
            NodeKind::GoToChild { .. } => "go_to_child",
            NodeKind::Peek { .. } => "peek",
            NodeKind::WaitMessage { .. } => "wait_message",
            NodeKind::EnableTemplate { .. } => "enable_template",
            NodeKind::MessageHolders { .. } => "message_holders",
            NodeKind::CreateArea { .. } => "create_area",
            NodeKind::RemoveArea => "remove_area",
            NodeKind::Converse { .. } => "converse",
        }
    }

    pub fn arity(&self) -> Arity {
        match self {
            NodeKind::Sequence { .. }
            | NodeKind::Selector { .. }
            | NodeKind::Parallel { .. }
            | NodeKind::RandomSelector { .. } => Arity::Many,
            NodeKind::Inverter
            | NodeKind::ForceSuccess
            | NodeKind::ForceFailure
            | NodeKind::Repeat { .. }
            | NodeKind::Retry { .. }
            | NodeKind::Cooldown { .. }
            | NodeKind::Timeout { .. }
            | NodeKind::Guard { .. } => Arity::One,
            _ => Arity::Leaf,
        }
    }

    /// Every node type name, in documentation order.
    pub const TYPE_NAMES: &'static [&'static str] = &[
        "sequence",
        "selector",
        "parallel",
        "random_selector",
        "inverter",
        "force_success",
        "force_failure",
        "repeat",
        "retry",
        "cooldown",
        "timeout",
        "guard",
        "condition",
        "in_area",
        "time_window",
        "has_message",
        "chance",
        "move_to",
        "wait",
        "set",
        "send_message",
        "receive",
        "animate",
        "say",
        "log",
        "subtree",
        "request",
        "go_to_child",
        "peek",
        "wait_message",
        "enable_template",
        "message_holders",
        "create_area",
        "remove_area",
        "converse",
    ];
}
