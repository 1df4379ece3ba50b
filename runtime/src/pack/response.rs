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
        outcome: crate::events::Outcome,
    },
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
        }
    }
}
