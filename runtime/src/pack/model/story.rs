//! Pack types of event dependency graphs (SPEC §3): the event library and scenarios.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::pack::Response;

fn is_false(b: &bool) -> bool {
    !*b
}
fn half() -> f64 {
    0.5
}
fn is_half(x: &f64) -> bool {
    *x == 0.5
}
fn one_day() -> [u32; 2] {
    [1, 1]
}
fn is_one_day(d: &[u32; 2]) -> bool {
    *d == [1, 1]
}

/// How a launched event ended.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Success,
    Failure,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Failure => "failure",
        }
    }
    pub fn is_success(self) -> bool {
        self == Outcome::Success
    }
    pub fn from_success(s: bool) -> Outcome {
        if s {
            Outcome::Success
        } else {
            Outcome::Failure
        }
    }
}

/// An edge into an event: it depends on `event` ending with `outcome`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Dependency {
    /// Id of the event this one waits for.
    pub event: String,
    /// The outcome it needs. If the event ends the other way this one can never open.
    pub outcome: Outcome,
}

/// Who ends a launched event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndedBy {
    /// The executor ends it after `duration_days`, succeeding with `success_probability`.
    #[default]
    Simulation,
    /// The world ends it (an `end_event` response of a trigger or story event). `replay`
    /// still simulates it with `success_probability` and `duration_days`.
    World,
}

fn is_simulation(e: &EndedBy) -> bool {
    *e == EndedBy::Simulation
}

/// One story event of the library.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EventDef {
    /// Stable id, unique in the library.
    pub id: String,
    /// Title shown to the player.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Description shown to the player.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Kind, for the UI (`war`, `diplomacy`, `tutorial`, …).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// First in-game day it may open (absent: no lower bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_before: Option<i64>,
    /// Last in-game day it may stay open (absent: no upper bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_after: Option<i64>,
    /// The edges into this event: every one must be met before it opens.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<Dependency>,
    /// Expression over world flags and counters that must hold for it to be launched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precondition: Option<String>,
    /// Launched as soon as it is available, whatever the executor's parameters.
    #[serde(default, skip_serializing_if = "is_false")]
    pub mandatory: bool,
    /// Responses run when it ends in success.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_success: Vec<Response>,
    /// Responses run when it ends in failure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_failure: Vec<Response>,
    /// Who ends it once launched.
    #[serde(default, skip_serializing_if = "is_simulation")]
    pub ended_by: EndedBy,
    /// Simulation: probability that it ends in success.
    #[serde(default = "half", skip_serializing_if = "is_half")]
    pub success_probability: f64,
    /// Simulation: how many days it lasts, `[min, max]` (uniform).
    #[serde(default = "one_day", skip_serializing_if = "is_one_day")]
    pub duration_days: [u32; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

fn default_probability() -> f64 {
    0.3
}
fn default_max_active() -> u32 {
    1
}

/// A scenario: a subset of the library, a start date and the executor's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScenarioDef {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Ids of the library events it uses (empty: the whole library).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// In-game day the scenario starts on.
    #[serde(default)]
    pub start_day: i64,
    /// Last day simulated by `townsfolk replay` (absent: the latest `not_after` of its
    /// events, or a year after the start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_day: Option<i64>,
    /// Ticks per story day in the world (absent: story days follow the world clock's days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ticks_per_day: Option<u64>,
    /// Probability of launching one available event at each daily check.
    #[serde(default = "default_probability")]
    pub launch_probability: f64,
    /// Most events active at once (mandatory events are launched even past it).
    #[serde(default = "default_max_active")]
    pub max_active: u32,
    /// Days to wait after a launch before the next one may be launched.
    #[serde(default)]
    pub min_wait: u32,
    /// After this many days without a launch, an available event is launched whatever the
    /// probability (absent: never forced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_wait: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}
