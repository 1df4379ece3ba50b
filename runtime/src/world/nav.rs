//! Walking state of the movement phase (SPEC §6, walls and doors): each NPC's planned path,
//! the queue of NPCs waiting for a plan, the door states the plans were made with, the doors
//! the door response changed since movement last looked, and the hierarchical planner's
//! caches ([`NavGraph`]). Part of the world so a snapshot holds it (the caches' big parts are
//! behind `Arc`s, so a snapshot shares them); the planning itself is the movement phase's
//! (`systems::movement`).
//!
//! **In the world hash** (`world::hash`): the paths, the queue, the door states and the
//! pending door changes: they decide where NPCs walk next. **Not hashed**: [`NavGraph`] and
//! the statistics ([`NavState::plans`], [`NavState::searches`]). The graph is a cache that never changes a result: every part of it is
//! a function of the grid and the door states (computed the same whenever it is computed,
//! and dropped when a door it depends on changes), so a world with an empty graph plans the
//! same paths as one with a full graph.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use crate::value::Vec2;

/// One NPC's path to its target.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NpcPath {
    /// The target the path was planned for.
    pub goal: Option<Vec2>,
    /// Way points, the last one the goal.
    pub points: Vec<Vec2>,
    /// The way point it walks to now.
    pub next: usize,
    /// No way to the goal with the doors as they were: it stands until a door changes or
    /// its target does.
    pub no_path: bool,
    /// Plan again (pushed off its path, or a door changed in a cluster its path crosses).
    pub stale: bool,
    /// The planner's clusters the path's legs pass through or near, sorted: a door change in
    /// one of them makes the NPC plan again.
    pub clusters: Vec<u32>,
}

/// The walking state of every NPC.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NavState {
    /// Whether each door (by index into `Program::walls.doors`) is open, as the plans see
    /// it (brought up to date from [`NavState::door_changes`] at the start of movement).
    pub door_open: Vec<bool>,
    /// Doors (by index) whose object the door response opened or closed since movement last
    /// looked, in the order it happened (`systems::effects::npcs::door` records them).
    pub door_changes: Vec<u32>,
    /// By NPC index (grown as NPCs walk).
    pub paths: Vec<NpcPath>,
    /// NPCs waiting for a plan, first come first served (a fixed number a tick); each
    /// stands until served.
    pub queue: VecDeque<u32>,
    /// By NPC index: in [`NavState::queue`].
    pub queued: Vec<bool>,
    /// The hierarchical planner's caches (not hashed: see the module comment).
    pub graph: NavGraph,
    /// Plans made since the world began, how many of them searched the planner (a target
    /// out of sight), and how many were for the same target again (a stale path: pushed off
    /// it, or a door changed); statistics, not hashed.
    pub plans: u64,
    pub searches: u64,
    pub replans: u64,
    /// Reused buffer of segment ids.
    pub(crate) scratch: Vec<u32>,
}

/// The clusters of the navigation grid and what the planner knows of them, for the door
/// states in [`NavState::door_open`]: each cluster's free cells split into regions
/// (connected inside the cluster), the regions' components over the whole grid (so "no path"
/// is known without a search), and, computed when first needed, the cluster's entrances and
/// the costs between them, and cell paths between entrances.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NavGraph {
    /// Built for a grid of this many cells (0: not built yet).
    pub cells: u32,
    /// Clusters per row and per column.
    pub ccols: u32,
    pub crows: u32,
    /// By cluster: the region of each of its cells (row-major inside the cluster, side ×
    /// side; 0 = blocked, else 1 + the region's number in the cluster).
    pub labels: Vec<Arc<[u16]>>,
    /// By cluster: its number of regions.
    pub regions: Vec<u16>,
    /// By cluster: the index of its first region in [`NavGraph::component`].
    pub region_base: Vec<u32>,
    /// By region (over all clusters): its component (the smallest region index in it).
    pub component: Vec<u32>,
    /// By cluster: its entrances and their costs (`None` until first needed).
    pub entrances: Vec<Option<Arc<Entrances>>>,
    /// (from cell, to cell) in one cluster → the cells of the shortest path inside the
    /// cluster after `from` (shared by every NPC going that way; emptied when full, and the
    /// entries of a cluster when a door in it changes).
    pub refined: BTreeMap<(u32, u32), Arc<[u32]>>,
}

/// One cluster's entrances: free cells on its border facing a free cell of the next cluster.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entrances {
    /// The entrance cells, sorted.
    pub nodes: Vec<u32>,
    /// (entrance, the facing cell in the next cluster), sorted.
    pub partners: Vec<(u32, u32)>,
    /// By entrance (parallel to `nodes`): (other entrance, cost of the shortest path to it
    /// inside the cluster), in the order the search reached them.
    pub edges: Vec<Vec<(u32, u32)>>,
}
