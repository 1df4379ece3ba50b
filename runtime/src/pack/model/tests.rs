//! Content tests: a designer's own rules over world state (`tests`), checked on every seed
//! by `townsfolk test` (SPEC §10). Not Rust tests: the pack's `tests` section.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// When a content test's expression must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TestRule {
    /// True after every tick (and at the start).
    Always,
    /// False after every tick (and at the start).
    Never,
    /// True at least once by `within` seconds (absent: by the end of the run).
    Eventually,
    /// True at `time` seconds from the start.
    At,
}

impl TestRule {
    pub fn name(self) -> &'static str {
        match self {
            TestRule::Always => "always",
            TestRule::Never => "never",
            TestRule::Eventually => "eventually",
            TestRule::At => "at",
        }
    }
}

/// One content test. The expression is the expression language of trees and triggers,
/// with these names besides flags, counters, `area.NAME`, `hour()`, `day()`: the tested
/// NPC's blackboard variables (with `npc` or `tag`), `tick`, `seconds` (since the start),
/// `in_AREA` (the tested NPC stands in area `AREA`), `count_AREA` (living NPCs in area
/// `AREA`) and `launched_EVENT` (times story event `EVENT` launched so far).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ContentTestDef {
    /// Stable id, unique among the tests.
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    pub rule: TestRule,
    /// A boolean expression over world state, e.g. `hour() < 10 || in_pub`.
    pub expr: String,
    /// Test it for this NPC (its blackboard, `self`, `in_AREA`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub npc: Option<String>,
    /// Test it for every NPC carrying this tag (spawned copies too); a failure names the NPC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// `eventually`: seconds from the start by which it must have held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<f64>,
    /// `at`: seconds from the start at which it must hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
    /// A statistical test: it passes when the rule holds in at least this percentage of the
    /// seeds played (absent: in every seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_percent: Option<f64>,
}
