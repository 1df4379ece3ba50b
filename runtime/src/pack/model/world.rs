//! The world section: bounds, clock, objects, NPCs, flags and counters.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

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
    /// Walls and solid shapes NPCs cannot walk through, with their doors (openings that are
    /// passable while their door object is open).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<WallDef>,
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
            walls: Vec::new(),
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

/// A wall: a line (a segment or a chain of segments), or the outline of a rectangle or a
/// polygon; `solid` also fills a rectangle or polygon. NPCs never cross a wall's lines and
/// never enter a solid; they walk around, or through its doors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WallDef {
    pub id: String,
    pub shape: WallShape,
    /// The inside of a `rect` or `polygon` is blocked too (a pillar, a rock, a block of
    /// houses); a `line` has no inside.
    #[serde(default, skip_serializing_if = "is_false")]
    pub solid: bool,
    /// Openings in the wall, each closed by a door object.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<DoorDef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// The geometry of a wall: `{"line": [[x, y], ...]}` (at least 2 points, open),
/// `{"rect": {"min": [x, y], "max": [x, y]}}` or `{"polygon": [[x, y], ...]}` (closed; at
/// least 2 points, 3 for an inside).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WallShape {
    Line(Vec<Point>),
    Rect(Rect),
    Polygon(Vec<Point>),
}

fn default_door_width() -> f64 {
    1.6
}
fn is_default_door_width(w: &f64) -> bool {
    *w == default_door_width()
}

/// A door: an opening of `width` in its wall, centred where the door object stands (the
/// object must stand on the wall). Open, the opening lets NPCs through; closed or locked, it
/// blocks like the wall. The object's state is the door's (`open` / `locked`, changed by the
/// `door` response).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DoorDef {
    /// The door object (`world.objects`) whose state opens and closes the opening.
    pub object: String,
    /// Width of the opening along the wall, in world units.
    #[serde(
        default = "default_door_width",
        skip_serializing_if = "is_default_door_width"
    )]
    pub width: f64,
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
