//! Pack types of trigger systems (SPEC §4): who owns them, their triggers, condition trees.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::pack::Response;

fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// Who owns a trigger system. The owner is what `"self"` means inside its triggers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    /// The world (level-wide triggers).
    #[default]
    World,
    /// One NPC, by id.
    Npc(String),
    /// One static object, by id.
    Object(String),
    /// Every static object of this `kind`: the system is instantiated once per object, so a
    /// trigger defined once works on every pillar placed in the level.
    ObjectKind(String),
    /// One area, by id.
    Area(String),
    /// A scenario (story) event, by id. Runs like a world-owned system.
    Event(String),
}

/// A trigger system: the triggers one owner carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TriggerSystemDef {
    /// Stable id, unique among trigger systems.
    pub id: String,
    #[serde(default)]
    pub owner: Owner,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    pub triggers: Vec<TriggerDef>,
}

/// How a trigger runs its responses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// Every response, in order.
    #[default]
    All,
    /// One response, chosen at random by `weights` (seeded).
    RandomOne,
}

fn is_all(p: &Pick) -> bool {
    *p == Pick::All
}

/// One trigger: a condition tree and the responses it runs when the tree becomes true.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TriggerDef {
    /// Stable id, unique within its system.
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// A disabled trigger never fires.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub enabled: bool,
    /// Fires at most once, ever.
    #[serde(default, skip_serializing_if = "is_false")]
    pub single_shot: bool,
    /// Seconds after firing before it can fire again (not single-shot).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reload_time: f64,
    /// The condition tree.
    pub when: Cond,
    /// Run all responses, or one at random.
    #[serde(default, skip_serializing_if = "is_all")]
    pub pick: Pick,
    /// Weights for `pick: random_one`, one per response; empty = equal weights.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<f64>,
    pub responses: Vec<Response>,
}

/// A node of a condition tree: an operator (`and`, `or`, `not`, `xor`, with operands in
/// `of`) or a condition (`type` = its kind, parameters beside it). Kinds and parameters are
/// checked when the pack is compiled, with the JSON path of each problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Cond {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Operands of an operator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub of: Vec<Cond>,
    /// Parameters of a condition.
    #[serde(flatten)]
    pub params: BTreeMap<String, serde_json::Value>,
}
