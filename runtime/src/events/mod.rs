//! Event dependency graphs (SPEC §3, seed 001): the story events of a scenario as a DAG
//! whose edges need a `success` or `failure` outcome, with date windows, preconditions and
//! mandatory events.
//!
//! - [`model`]: pack types (event library, scenarios).
//! - [`compile`]: compiled library and scenarios, and the static checks.
//! - [`tracker`]: the paper's tracker (open list, priority queue by `not_before`,
//!   dependency counters), O(log n) per node that changes state.
//! - [`exec`]: the executor and its daily check in the world loop; the `start_event` /
//!   `end_event` responses.
//! - [`script`]: scripted tracker sessions (`townsfolk events`).
//! - [`replay`]: Monte Carlo playthroughs and replayability figures (`townsfolk replay`).

pub mod compile;
pub mod exec;
pub mod model;
pub mod replay;
pub mod script;
pub mod tracker;

pub use compile::{CEvent, CScenario, Library};
pub use exec::Story;
pub use model::{Dependency, EndedBy, EventDef, Outcome, ScenarioDef};
pub use tracker::{Graph, NodeState, Tracker};

#[cfg(test)]
mod tests;
