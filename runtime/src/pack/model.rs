//! Serde types of pack format v1 (SPEC §7). These are the document model: the editor edits
//! them, the loader checks them and the world compiles them into a runnable program.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::value::Type;

/// The value of the `format` field of every pack.
pub const FORMAT: &str = "townsfolk-pack";
/// The pack format version this build reads and writes.
pub const VERSION: u32 = 1;

fn is_false(b: &bool) -> bool {
    !*b
}

/// A 2D point or vector, written `[x, y]`.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(from = "[f64; 2]", into = "[f64; 2]")]
#[schemars(with = "[f64; 2]")]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl From<[f64; 2]> for Point {
    fn from(a: [f64; 2]) -> Self {
        Point { x: a[0], y: a[1] }
    }
}
impl From<Point> for [f64; 2] {
    fn from(p: Point) -> Self {
        [p.x, p.y]
    }
}
impl From<Point> for crate::value::Vec2 {
    fn from(p: Point) -> Self {
        crate::value::Vec2::new(p.x, p.y)
    }
}

/// A whole pack: one JSON document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(
    title = "Townsfolk pack",
    description = "A Townsfolk content pack (format v1)."
)]
pub struct Pack {
    /// Always `"townsfolk-pack"`.
    pub format: String,
    /// Format version; this build reads version 1.
    pub version: u32,
    /// Display name of the pack.
    pub name: String,
    /// What the pack is for; shown in the editor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The world layout: bounds, clock, objects, NPCs, flags and counters.
    pub world: WorldDef,
    /// Behavior tree definitions, shared by every NPC that runs them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trees: Vec<TreeDef>,
    /// Smart areas (regions of the world).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<AreaDef>,
    /// The story event library (event dependency graphs, SPEC §3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<crate::events::EventDef>,
    /// Scenarios: subsets of the event library with a start date and executor parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scenarios: Vec<crate::events::ScenarioDef>,
    /// Conversation casts: personalities and settings of background conversations (SPEC §5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub casts: Vec<CastDef>,
    /// Trigger systems (SPEC §4), each owned by the world, an NPC, an object (or every object
    /// of a kind), an area or a scenario event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<crate::triggers::TriggerSystemDef>,
    /// Editor-only data (layout, colours, collapsed state), kept apart from semantics.
    #[serde(default, skip_serializing_if = "EditorDef::is_empty")]
    pub editor: EditorDef,
}

impl Pack {
    /// An empty, valid pack.
    pub fn new(name: &str) -> Pack {
        Pack {
            format: FORMAT.into(),
            version: VERSION,
            name: name.into(),
            comment: None,
            world: WorldDef::default(),
            trees: Vec::new(),
            areas: Vec::new(),
            events: Vec::new(),
            scenarios: Vec::new(),
            casts: Vec::new(),
            triggers: Vec::new(),
            editor: EditorDef::default(),
        }
    }
    pub fn tree(&self, id: &str) -> Option<&TreeDef> {
        self.trees.iter().find(|t| t.id == id)
    }
}

/// Axis-aligned rectangle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Rect {
    pub min: Point,
    pub max: Point,
}

impl Rect {
    pub fn contains(&self, p: crate::value::Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }
}

fn default_bounds() -> Rect {
    Rect {
        min: Point { x: 0.0, y: 0.0 },
        max: Point { x: 100.0, y: 100.0 },
    }
}
fn default_dt() -> f64 {
    0.1
}

/// The world layout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WorldDef {
    /// World bounds; NPCs never leave them.
    #[serde(default = "default_bounds")]
    pub bounds: Rect,
    /// Simulated seconds per tick (fixed step).
    #[serde(default = "default_dt")]
    pub dt: f64,
    /// The in-game clock.
    #[serde(default)]
    pub clock: ClockDef,
    /// Initial world flags (flags referenced elsewhere are created false).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub flags: BTreeMap<String, bool>,
    /// Initial world counters (counters referenced elsewhere are created at 0).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, i64>,
    /// Static objects: doors, items, points of interest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<ObjectDef>,
    /// The NPCs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub npcs: Vec<NpcDef>,
    /// The scenario whose story events the world runs (by id), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
}

impl Default for WorldDef {
    fn default() -> Self {
        WorldDef {
            bounds: default_bounds(),
            dt: default_dt(),
            clock: ClockDef::default(),
            flags: BTreeMap::new(),
            counters: BTreeMap::new(),
            objects: Vec::new(),
            npcs: Vec::new(),
            scenario: None,
        }
    }
}

fn default_start_hour() -> f64 {
    8.0
}
fn default_time_scale() -> f64 {
    60.0
}

/// In-game clock: time of day and day counter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClockDef {
    /// Day number at tick 0.
    #[serde(default)]
    pub start_day: i64,
    /// Hour of day at tick 0, in [0, 24).
    #[serde(default = "default_start_hour")]
    pub start_hour: f64,
    /// In-game seconds per simulated second (60 = one game minute per second).
    #[serde(default = "default_time_scale")]
    pub time_scale: f64,
}

impl Default for ClockDef {
    fn default() -> Self {
        ClockDef {
            start_day: 0,
            start_hour: default_start_hour(),
            time_scale: default_time_scale(),
        }
    }
}

fn default_radius() -> f64 {
    0.5
}

/// A static object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ObjectDef {
    pub id: String,
    /// What it is, for the preview and for conditions (`door`, `item`, `poi`, …).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub pos: Point,
    /// Radius of the obstacle NPCs steer around; 0 = not an obstacle.
    #[serde(default = "default_radius")]
    pub radius: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Initial state of a door: open.
    #[serde(default, skip_serializing_if = "is_false")]
    pub open: bool,
    /// Initial state of a door: locked.
    #[serde(default, skip_serializing_if = "is_false")]
    pub locked: bool,
    /// Initial free-form state (`standing`, `lit`, …), changed by `set_object_state`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

fn default_speed() -> f64 {
    1.5
}
fn default_health() -> f64 {
    100.0
}
fn is_default_health(h: &f64) -> bool {
    *h == 100.0
}

/// An NPC placed in the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NpcDef {
    pub id: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub pos: Point,
    /// Walking speed in world units per simulated second.
    #[serde(default = "default_speed")]
    pub speed: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The behavior tree it runs.
    pub tree: String,
    /// Initial blackboard values, overriding the tree's declared defaults.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub vars: BTreeMap<String, Literal>,
    /// Named message inboxes (`default` always exists).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inboxes: Vec<String>,
    /// Starting (and maximum) health points.
    #[serde(default = "default_health", skip_serializing_if = "is_default_health")]
    pub health: f64,
    /// Items carried at the start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
    /// Items worn or wielded at the start (also carried).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equipped: Vec<String>,
    /// A prototype is not placed in the world: it is what `spawn` responses copy.
    #[serde(default, skip_serializing_if = "is_false")]
    pub prototype: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A literal value in JSON: `true`, `3`, `0.5`, `"text"` or `[x, y]`. Entity variables take
/// the entity's id as a string.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Literal {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Vec2([f64; 2]),
}

impl Literal {
    pub fn describe(&self) -> &'static str {
        match self {
            Literal::Bool(_) => "a bool",
            Literal::Int(_) => "an int",
            Literal::Float(_) => "a float",
            Literal::Str(_) => "a string",
            Literal::Vec2(_) => "a vec2",
        }
    }
}

/// A blackboard variable declaration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VarDecl {
    #[serde(rename = "type")]
    pub ty: Type,
    /// Initial value; the type's zero value when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Literal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

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

/// Shape of an area.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    Rect(Rect),
    /// A simple polygon, at least three points.
    Polygon(Vec<Point>),
}

fn one() -> f64 {
    1.0
}

/// A smart area (SPEC §2): a region that holds everything NPCs need to behave there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AreaDef {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub shape: Shape,
    /// Parent area id (the city is the parent of its pubs). Requests an area cannot serve go
    /// to its parent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Kind tags (`pub`, `home`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<String>,
    /// Weight when a parent's `go_to_child` picks among its children by weight.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub weight: f64,
    /// Area variables, readable as `area.NAME` by NPCs standing inside and by the area's own
    /// trees.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub vars: BTreeMap<String, VarDecl>,
    /// Message inboxes of the area (`default` always exists).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inboxes: Vec<String>,
    /// The behaviors the area offers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub templates: Vec<TemplateDef>,
    /// The area's active brain: a tree ticked at a fixed rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brain: Option<BrainDef>,
    /// Event handler trees, each run to completion once per event, one at a time.
    #[serde(default, skip_serializing_if = "Handlers::is_empty")]
    pub handlers: Handlers,
    /// A dynamic-situation prototype: not in the world at start; `create_area` places copies.
    #[serde(default, skip_serializing_if = "is_false")]
    pub dynamic: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

fn is_one(x: &f64) -> bool {
    *x == 1.0
}

/// A behavior an area offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TemplateDef {
    /// The behavior it provides (`relax`, `drink`, …): NPCs ask for behaviors, not places, so
    /// a beach and a pub can both offer `relax`. Unique within its area.
    pub name: String,
    /// The tree grafted under the request node.
    pub tree: String,
    /// An expression over the requesting NPC (its blackboard, `has_tag`, …) that must hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<String>,
    /// Most NPCs holding this behavior at once (absent: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_instances: Option<u32>,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub enabled: bool,
    /// Inboxes added to the NPC that adopts it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inboxes: Vec<String>,
    /// What happens to the behavior when the NPC leaves the area, or its tree ends.
    #[serde(default, skip_serializing_if = "DropPolicy::is_default")]
    pub drop: DropPolicy,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// What a behavior tag does on an event: keep it, keep it but let a new request replace it,
/// or drop it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    Keep,
    Overridable,
    Drop,
}

/// Drop policy of a template. Defaults as in the paper: overridable on success, dropped on
/// leave or failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DropPolicy {
    #[serde(default = "keep_drop")]
    pub on_leave: Keep,
    #[serde(default = "keep_overridable")]
    pub on_success: Keep,
    #[serde(default = "keep_drop")]
    pub on_failure: Keep,
}

fn keep_drop() -> Keep {
    Keep::Drop
}
fn keep_overridable() -> Keep {
    Keep::Overridable
}

impl Default for DropPolicy {
    fn default() -> Self {
        DropPolicy {
            on_leave: Keep::Drop,
            on_success: Keep::Overridable,
            on_failure: Keep::Drop,
        }
    }
}

impl DropPolicy {
    pub fn is_default(&self) -> bool {
        *self == DropPolicy::default()
    }
}

fn default_brain_seconds() -> f64 {
    1.0
}

/// An area's active brain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BrainDef {
    pub tree: String,
    /// Seconds between two ticks of the brain.
    #[serde(default = "default_brain_seconds")]
    pub every_seconds: f64,
}

/// Event handler trees of an area (tree ids).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Handlers {
    /// An NPC adopted one of the area's behaviors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_adopt: Option<String>,
    /// An NPC dropped one of the area's behaviors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_drop: Option<String>,
    /// An NPC entered the area (whether or not it asks for anything).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_enter: Option<String>,
    /// An NPC left the area.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_exit: Option<String>,
}

impl Handlers {
    pub fn is_empty(&self) -> bool {
        self.on_adopt.is_none()
            && self.on_drop.is_none()
            && self.on_enter.is_none()
            && self.on_exit.is_none()
    }
}

/// How `go_to_child` picks a child area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChildChoice {
    /// At random, by the children's `weight` (seeded).
    #[default]
    Weight,
    /// The nearest one.
    Nearest,
}

fn half() -> f64 {
    0.5
}
fn default_join_radius() -> f64 {
    6.0
}
fn default_hearing_radius() -> f64 {
    10.0
}
fn default_planner_seconds() -> f64 {
    5.0
}
fn default_inactive_seconds() -> f64 {
    20.0
}

/// The five conversational parameters of the background-conversation model (seed 002), each
/// in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Personality {
    /// Likelihood of wanting to talk.
    #[serde(default = "half")]
    pub talkativeness: f64,
    /// Likelihood of explicit feedback (nods) and turn-claiming signals.
    #[serde(default = "half")]
    pub transparency: f64,
    /// Likelihood of interrupting and of going on speaking during simultaneous talk.
    #[serde(default = "half")]
    pub confidence: f64,
    /// Shortness of turn segments between transition points (1 = short, interactive turns).
    #[serde(default = "half")]
    pub interactivity: f64,
    /// Likelihood of going on speaking after a transition point nobody claimed.
    #[serde(default = "half")]
    pub verbosity: f64,
}

impl Default for Personality {
    fn default() -> Self {
        Personality {
            talkativeness: 0.5,
            transparency: 0.5,
            confidence: 0.5,
            interactivity: 0.5,
            verbosity: 0.5,
        }
    }
}

/// One NPC's personality in a cast; absent parameters come from the cast's `default`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CastMember {
    /// NPC id.
    pub npc: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub talkativeness: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transparency: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interactivity: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verbosity: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A conversation cast: where NPCs handed over by `converse` nodes talk with each other.
/// Groups never span casts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CastDef {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Position-aware groups: join nearby groups only, gather facing each other, and react
    /// to noise from nearby speakers of other groups.
    #[serde(default = "yes")]
    pub position_aware: bool,
    /// How far (world units) a character looks for a group to join or someone to talk to
    /// (position-aware mode).
    #[serde(default = "default_join_radius")]
    pub join_radius: f64,
    /// How far speakers of other groups are heard as noise (position-aware mode).
    #[serde(default = "default_hearing_radius")]
    pub hearing_radius: f64,
    /// Seconds between two runs of a character's high-level planner (leave / join / start).
    #[serde(default = "default_planner_seconds")]
    pub planner_seconds: f64,
    /// Seconds between two runs of a character's conversation cycle.
    #[serde(default = "half")]
    pub cycle_seconds: f64,
    /// Seconds without any sign of activity after which a member drops out of another's
    /// view of the group.
    #[serde(default = "default_inactive_seconds")]
    pub inactive_seconds: f64,
    /// Personality of NPCs that are not listed in `members`.
    #[serde(default)]
    pub default: Personality,
    /// Personalities, by NPC.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<CastMember>,
}

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
}

impl EditorDef {
    pub fn is_empty(&self) -> bool {
        self.trees.is_empty() && self.breakpoints.is_empty()
    }
}

fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
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
    /// When the node is about to be ticked.
    #[default]
    Enter,
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
