//! Serde types of pack format v1 (SPEC §7), one file per asset kind. These are the document
//! model: the editor edits them, the loader reads them and the program compiles them.

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
    pub events: Vec<EventDef>,
    /// Scenarios: subsets of the event library with a start date and executor parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scenarios: Vec<ScenarioDef>,
    /// Conversation casts: personalities and settings of background conversations (SPEC §5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub casts: Vec<CastDef>,
    /// Trigger systems (SPEC §4), each owned by the world, an NPC, an object (or every object
    /// of a kind), an area or a scenario event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<TriggerSystemDef>,
    /// Content tests: designers' rules checked on every seed by `townsfolk test`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<ContentTestDef>,
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
            tests: Vec::new(),
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

fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}

mod areas;
mod casts;
mod editor;
mod responses;
mod story;
mod tests;
mod trees;
mod triggers;
mod world;

pub use areas::*;
pub use casts::*;
pub use editor::*;
pub use responses::*;
pub use story::*;
pub use tests::*;
pub use trees::*;
pub use triggers::*;
pub use world::*;
