//! Responses (SPEC §4): what triggers and story events do. One vocabulary, fixed in the
//! runtime, so a pack can never run arbitrary code.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn default_inbox() -> String {
    "default".into()
}
fn default_seconds() -> f64 {
    3.0
}
fn one() -> u32 {
    1
}
fn default_spread() -> f64 {
    1.0
}

/// What a `door` response does to a world object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DoorAction {
    Open,
    Close,
    Lock,
    Unlock,
}

impl DoorAction {
    pub fn name(self) -> &'static str {
        match self {
            DoorAction::Open => "open",
            DoorAction::Close => "close",
            DoorAction::Lock => "lock",
            DoorAction::Unlock => "unlock",
        }
    }
}

/// One response of a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Response {
    /// Sets a world flag (created on first reference).
    SetFlag { flag: String, value: bool },
    /// Flips a world flag.
    ToggleFlag { flag: String },
    /// Sets a world counter.
    SetCounter { counter: String, value: i64 },
    /// Adds to a world counter (negative `by` decrements).
    AddCounter { counter: String, by: i64 },
    /// Copies one counter's value into another.
    CopyCounter { from: String, to: String },
    /// Sends a message to an NPC's inbox.
    SendMessage {
        to: String,
        #[serde(default = "default_inbox")]
        inbox: String,
        message: String,
    },
    /// Shows a line of text in the preview for `seconds`.
    ShowText {
        text: String,
        #[serde(default = "default_seconds")]
        seconds: f64,
    },
    /// Plays a sound cue in the preview (a trace event; no audio in the runtime).
    PlaySound { cue: String },
    /// Writes a line to the trace.
    Log { text: String },
    /// Creates a dynamic area from a prototype (an area with `"dynamic": true`) centred at a
    /// point, for `seconds` (absent: until removed).
    CreateArea {
        prototype: String,
        at: crate::pack::Point,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds: Option<f64>,
    },
    /// Removes every live copy of a dynamic area prototype.
    RemoveArea { prototype: String },
    /// Launches a story event of the running scenario now, if it is available.
    StartEvent { event: String },
    /// Ends an active story event with an outcome.
    EndEvent {
        event: String,
        outcome: crate::pack::Outcome,
    },
    /// Opens, closes, locks or unlocks a world object (a door). Opening a locked door does
    /// nothing (unlock it first); locking closes it.
    Door { object: String, action: DoorAction },
    /// Sets the free-form state of a world object (`collapsed`, `lit`, …).
    SetObjectState { object: String, state: String },
    /// Spawns `count` run-time copies of a prototype NPC (its tree, speed, variables), at
    /// `at`, or near the entity `near` (`self` = the trigger's owner), or at the prototype's
    /// own position; scattered at random (seeded) within `spread` world units.
    Spawn {
        npc: String,
        #[serde(default = "one")]
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<super::Point>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        near: Option<String>,
        #[serde(default = "default_spread")]
        spread: f64,
    },
    /// Removes an NPC from the world (an NPC id also names its spawned copies).
    Remove { npc: String },
    /// Kills an NPC: its health drops to 0 and it dies.
    Kill { npc: String },
    /// Takes `amount` health points from an NPC; at 0 it dies.
    Damage { npc: String, amount: f64 },
    /// Gives back up to `amount` health points (not above its starting health).
    Heal { npc: String, amount: f64 },
    /// Puts an item in an NPC's inventory.
    GiveItem { npc: String, item: String },
    /// Re-arms another trigger (by id): clears its latches, its spent single shot and its
    /// reload time.
    ResetTrigger { trigger: String },
    /// Marks the level as completed.
    CompleteLevel,
}

impl Response {
    /// The JSON `do` name.
    pub fn name(&self) -> &'static str {
        match self {
            Response::SetFlag { .. } => "set_flag",
            Response::ToggleFlag { .. } => "toggle_flag",
            Response::SetCounter { .. } => "set_counter",
            Response::AddCounter { .. } => "add_counter",
            Response::CopyCounter { .. } => "copy_counter",
            Response::SendMessage { .. } => "send_message",
            Response::ShowText { .. } => "show_text",
            Response::PlaySound { .. } => "play_sound",
            Response::Log { .. } => "log",
            Response::CreateArea { .. } => "create_area",
            Response::RemoveArea { .. } => "remove_area",
            Response::StartEvent { .. } => "start_event",
            Response::EndEvent { .. } => "end_event",
            Response::Door { .. } => "door",
            Response::SetObjectState { .. } => "set_object_state",
            Response::Spawn { .. } => "spawn",
            Response::Remove { .. } => "remove",
            Response::Kill { .. } => "kill",
            Response::Damage { .. } => "damage",
            Response::Heal { .. } => "heal",
            Response::GiveItem { .. } => "give_item",
            Response::ResetTrigger { .. } => "reset_trigger",
            Response::CompleteLevel => "complete_level",
        }
    }
}
