//! The line tools behind the CLI's scripted subcommands: one JSON object per line in, one
//! per line out (or a report), over a session or a story.
//!
//! - [`debug`]: the `townsfolk debug` protocol over a [`crate::debug::Debugger`];
//! - [`events`]: scripted story-tracker sessions (`townsfolk events`);
//! - [`replay`]: Monte Carlo playthroughs of a scenario (`townsfolk replay`);
//! - [`triggers`]: scripted world changes fed to the triggers (`townsfolk triggers`);
//! - [`talk`]: the conversation metrics report and `--sweep` (`townsfolk talk`).

pub mod debug;
pub mod events;
pub mod replay;
pub mod talk;
pub mod triggers;

/// Why one line of a line tool was refused; its text is the `error` of the reply.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineError {
    /// The line is not JSON.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
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
