//! The line tools behind the CLI's scripted subcommands: one JSON object per line in, one
//! per line out (or a report), over a session or a story.
//!
//! - [`debug`]: the `townsfolk debug` protocol over a [`crate::debug::Debugger`];
//! - [`events`]: scripted story-tracker sessions (`townsfolk events`);
//! - [`replay`]: Monte Carlo playthroughs of a scenario (`townsfolk replay`);
//! - [`triggers`]: scripted world changes fed to the triggers (`townsfolk triggers`);
//! - [`talk`]: the conversation metrics report and `--sweep` (`townsfolk talk`);
//! - [`info`]: a pack's assets and who uses what (`townsfolk info`);
//! - [`diff`]: what changed between two packs, asset by asset and node by node
//!   (`townsfolk diff`);
//! - [`trace_view`]: a recorded trace filtered and shown readably (`townsfolk trace`).

use serde_json::{Map, Value};

pub mod debug;
pub mod diff;
pub mod events;
pub mod info;
pub mod replay;
pub mod talk;
pub mod trace_view;
pub mod triggers;

/// Why one line of a line tool was refused; its text is the `error` of the reply.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineError {
    /// The line is not JSON (`prefix`: how the tool words it).
    #[error("{prefix}: {detail}")]
    NotJson {
        prefix: &'static str,
        detail: String,
    },
    /// The line is JSON but not an object (`expected`: what the tool wants, as a sentence).
    #[error("{0}")]
    NotAnObject(&'static str),
    /// A name the pack does not have (`what`: NPC, area, object, trigger, event, …).
    #[error("unknown {what} `{id}`")]
    Unknown { what: &'static str, id: String },
    /// The debugger cannot go back there.
    #[error(transparent)]
    Back(#[from] crate::debug::BackError),
    /// A malformed or refused line, as a sentence saying what is wrong.
    #[error("{0}")]
    Invalid(String),
}

impl From<String> for LineError {
    fn from(s: String) -> Self {
        LineError::Invalid(s)
    }
}

impl From<&str> for LineError {
    fn from(s: &str) -> Self {
        LineError::Invalid(s.to_string())
    }
}

impl LineError {
    pub fn unknown(what: &'static str, id: &str) -> LineError {
        LineError::Unknown {
            what,
            id: id.to_string(),
        }
    }
}

/// The reading half every line tool shares: the content of a script line, or None for a
/// blank line or a `#` comment.
pub fn content(line: &str) -> Option<&str> {
    let t = line.trim();
    (!t.is_empty() && !t.starts_with('#')).then_some(t)
}

/// Parses a line's content as one JSON object. `not_json` prefixes the parser's message;
/// `expected` is the whole refusal when the JSON is not an object.
pub fn parse_object(
    line: &str,
    not_json: &'static str,
    expected: &'static str,
) -> Result<Map<String, Value>, LineError> {
    match serde_json::from_str(line) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(LineError::NotAnObject(expected)),
        Err(e) => Err(LineError::NotJson {
            prefix: not_json,
            detail: e.to_string(),
        }),
    }
}
