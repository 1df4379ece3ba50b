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
