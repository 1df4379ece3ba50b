//! Smart areas: shapes, templates, drop policies, brains, handlers.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

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
