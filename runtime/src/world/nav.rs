//! Walking state of the movement phase (SPEC §6, walls and doors): each NPC's planned path
//! and the door states the plans were made with. Part of the world so a snapshot holds it;
//! the planning itself is the movement phase's (`systems::movement`).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::value::Vec2;

/// Most cached cell paths; the cache is emptied when full (it never changes a result: a
/// cached path is the one planning would find again).
pub const MAX_CACHED_PATHS: usize = 4096;

/// One NPC's path to its target.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NpcPath {
    /// The target the path was planned for.
    pub goal: Option<Vec2>,
    /// [`NavState::epoch`] when planned: a door changed since, so plan again.
    pub epoch: u64,
    /// Way points, the last one the goal.
    pub points: Vec<Vec2>,
    /// The way point it walks to now.
    pub next: usize,
    /// No way to the goal with the doors as they were ([`NpcPath::epoch`]): it stands.
    pub no_path: bool,
    /// Blocked while walking (pushed off its path): plan again next tick.
    pub stale: bool,
}

/// The walking state of every NPC.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NavState {
    /// Whether each door (by index into `Program::walls.doors`) was open when the current
    /// plans were made.
    pub door_open: Vec<bool>,
    /// Bumped whenever a door opens or closes: every plan made before is made again.
    pub epoch: u64,
    /// By NPC index (grown as NPCs walk).
    pub paths: Vec<NpcPath>,
    /// (from cell, goal cell) → the cells of the path planned between them (`None`: no
    /// path), for the doors as they are now (emptied when one changes).
    pub cache: BTreeMap<(u32, u32), Option<Arc<[u32]>>>,
    /// Reused buffer of segment ids.
    pub(crate) scratch: Vec<u32>,
}
