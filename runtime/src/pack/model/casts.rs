//! Conversation casts (SPEC §5): personalities and cast settings.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

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
