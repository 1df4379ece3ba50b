//! Trigger systems (SPEC §4, seed 003): condition trees over parameterised conditions,
//! responses, flags and counters, and "why didn't it fire".
//!
//! - `pack::model::triggers`: the pack types (`triggers` section). A condition tree is data (operators
//!   `and`/`or`/`not`/`xor` over conditions), authorable in a GUI with no syntax to get wrong.
//! - [`compile`]: pack → [`TriggerProgram`] with JSON-path diagnostics and static checks.
//! - the trigger pass is `systems::triggers`, trigger state `world::triggers`, the
//!   responses' world changes `systems::effects`, "why" `debug::explain`, the scripted
//!   changes of `townsfolk triggers` `tools::triggers`.
//!
//! # Semantics
//!
//! - **Operators.** `and` (all true), `or` (any true), `not` (exactly one operand, negated),
//!   `xor` (**exactly one** operand true, for any number of operands ≥ 2: "one of these, but
//!   only one", which is what designers mean; it is not chained parity). Evaluation is lazy:
//!   `and` stops at the first false operand, `or` at the first true one, `xor` at the second
//!   true one; operands are evaluated left to right.
//! - **Event-driven conditions** (`in_area`, `in_radius`, `in_rect`, `received`, `died`,
//!   `killed`) are latched: the world's events set them, and they stay true until their reset
//!   event (leaving the area/radius/rectangle; the `until` message for `received`; the
//!   trigger firing when `consume` is set) or a `reset_trigger` response. Events are always
//!   delivered to the latches that listen for them (laziness never loses an event).
//! - **Polled conditions** (`flag`, `counter`, `health`, `has_item`, `equipped`, `door`,
//!   `object_state`, `near`, `var`) read the world when the tree is evaluated. `flag` and
//!   `counter` are re-checked when their flag/counter changes; the others every tick.
//! - **Firing.** A trigger fires when its tree *becomes* true and is not blocked (disabled,
//!   single shot spent, reloading). It does not fire again while the tree stays true. After
//!   firing it is blocked for `reload_time`, and (seed 003: it waits "until it re-initializes
//!   its conditions and receives events again") all its event-driven conditions are reset
//!   (latches cleared, area/radius/rectangle counts at zero) and ignore events until the
//!   reload ends; then they start fresh, as at tick 0 (counts are who is inside then). It
//!   fires again when its tree is true after the reload. Triggers owned by a removed or dead NPC do not fire. A trigger fires at
//!   most once per trigger pass; a trigger reset in the pass it already fired in is cut off
//!   (`trigger_loop` trace, one runtime problem).
//! - **Flags and counters** are the world's (created on first reference, shared by every
//!   trigger system and every tree).

mod checks;
pub mod compile;

use std::collections::HashMap;

use crate::pack::Response;
pub use crate::pack::{Cond, Owner, Pick, TriggerDef, TriggerSystemDef};
use crate::program::grid::BoxGrid;
use crate::program::responses::CResponse;
pub use crate::value::Cmp;
use crate::value::{EntityId, Sym, Vec2};

/// Which NPCs a condition is about: any, or one declared NPC and its spawned copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Any,
    Npc(u32),
}

/// What a `door` condition asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoorIs {
    Open,
    Closed,
    Locked,
    Unlocked,
}

/// A compiled condition.
#[derive(Clone, Debug, PartialEq)]
pub enum LeafKind {
    // ---- event-driven, latched ----
    InArea {
        who: Who,
        area: u32,
    },
    /// Inside a sensor (a circle or rectangle), by sensor index.
    InSensor {
        who: Who,
        sensor: u32,
    },
    Received {
        who: Who,
        message: Sym,
        until: Option<Sym>,
    },
    Died {
        who: Who,
    },
    Killed {
        by: Who,
        victim: Who,
    },
    // ---- polled ----
    Flag {
        flag: u32,
        value: bool,
    },
    Counter {
        counter: u32,
        cmp: Cmp,
        value: i64,
    },
    Health {
        who: u32,
        cmp: Cmp,
        percent: f64,
    },
    HasItem {
        who: u32,
        item: Sym,
    },
    Equipped {
        who: u32,
        item: Sym,
    },
    Door {
        object: u32,
        is: DoorIs,
    },
    ObjectState {
        object: u32,
        state: Sym,
    },
    Near {
        a: u32,
        b: EntityId,
        distance: f64,
    },
    Var {
        who: u32,
        expr: u32,
    },
}

impl LeafKind {
    /// Event-driven (latched) rather than polled.
    pub fn is_event(&self) -> bool {
        matches!(
            self,
            LeafKind::InArea { .. }
                | LeafKind::InSensor { .. }
                | LeafKind::Received { .. }
                | LeafKind::Died { .. }
                | LeafKind::Killed { .. }
        )
    }
    /// A latch that only its reset event, `consume` or `reset_trigger` clears.
    pub fn is_one_off(&self) -> bool {
        matches!(
            self,
            LeafKind::Received { .. } | LeafKind::Died { .. } | LeafKind::Killed { .. }
        )
    }
    /// Polled on every trigger pass (not only on a flag/counter change).
    pub fn every_tick(&self) -> bool {
        !self.is_event() && !matches!(self, LeafKind::Flag { .. } | LeafKind::Counter { .. })
    }
}

/// A condition of a trigger.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub trigger: u32,
    pub kind: LeafKind,
    /// Cleared when its trigger fires.
    pub consume: bool,
}

/// A node of a compiled condition tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    And,
    Or,
    Xor,
    Not,
    /// A condition, by global leaf index.
    Leaf(u32),
}

#[derive(Clone, Debug)]
pub struct CNode {
    pub op: Op,
    pub children: Vec<u32>,
    /// JSON path in the pack.
    pub path: String,
    /// `and`, `in_area`, ….
    pub kind: String,
    pub depth: u32,
}

/// A compiled trigger (one per trigger and owner instance).
#[derive(Clone, Debug)]
pub struct CTrigger {
    /// `system/trigger`, or `system/trigger@object` for systems owned by an object kind.
    pub id: String,
    pub system: u32,
    /// What `self` means.
    pub owner: EntityId,
    pub comment: Option<String>,
    pub enabled: bool,
    pub single_shot: bool,
    pub reload_ticks: u64,
    /// Pre-order; node 0 is the root.
    pub nodes: Vec<CNode>,
    pub pick: Pick,
    pub weights: Vec<f64>,
    pub responses: Vec<CResponse>,
    pub response_names: Vec<&'static str>,
}

/// A radius or rectangle that moving NPCs are matched against.
#[derive(Clone, Debug)]
pub struct Sensor {
    pub leaf: u32,
    pub who: Who,
    /// Centre and radius, or a rectangle.
    pub circle: Option<(Vec2, f64)>,
    pub min: Vec2,
    pub max: Vec2,
}

impl Sensor {
    pub fn contains(&self, at: Vec2) -> bool {
        match self.circle {
            Some((c, r)) => {
                let d = at - c;
                d.x * d.x + d.y * d.y <= r * r
            }
            None => {
                at.x >= self.min.x && at.x <= self.max.x && at.y >= self.min.y && at.y <= self.max.y
            }
        }
    }
}

/// What an event is keyed by in the listener index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Area(u32),
    Message(Sym),
    DeathOf(u32),
    DeathAny,
    Flag(u32),
    Counter(u32),
}

/// A trigger system, compiled.
#[derive(Clone, Debug)]
pub struct SystemInfo {
    pub id: String,
    pub owner: Owner,
    /// Its triggers (all instances), by global index.
    pub triggers: Vec<u32>,
}

/// Every trigger system of a pack, compiled: shared, read-only.
#[derive(Clone, Debug, Default)]
pub struct TriggerProgram {
    pub systems: Vec<SystemInfo>,
    pub triggers: Vec<CTrigger>,
    pub leaves: Vec<Leaf>,
    pub sensors: Vec<Sensor>,
    /// The sensors' bounding boxes in the grid of static boxes.
    pub grid: BoxGrid,
    /// Event key → listening leaves, in leaf order.
    pub(crate) listeners: HashMap<Key, Vec<u32>>,
    /// Triggers with a condition polled every tick.
    pub polled: Vec<u32>,
    index: HashMap<String, u32>,
    /// Some condition listens for messages / deaths.
    pub(crate) wants_messages: bool,
    pub(crate) wants_deaths: bool,
}

impl TriggerProgram {
    pub fn is_empty(&self) -> bool {
        self.triggers.is_empty()
    }
    /// A trigger's index by its full id (`system/trigger`, `system/trigger@object`).
    pub fn find(&self, id: &str) -> Option<u32> {
        self.index.get(id).copied()
    }
    pub fn trigger_id(&self, t: u32) -> &str {
        self.triggers.get(t as usize).map_or("", |t| t.id.as_str())
    }
    pub(crate) fn listeners(&self, k: Key) -> &[u32] {
        self.listeners.get(&k).map_or(&[], Vec::as_slice)
    }
}

/// The `do` names of responses (for traces).
pub(crate) fn response_names(rs: &[Response]) -> Vec<&'static str> {
    rs.iter().map(Response::name).collect()
}

/// Cells one sensor may cover (at the sensors' own cell size) before it is checked for every
/// point instead of listed cell by cell.
const MAX_SENSOR_CELLS: i64 = 1024;

/// The sensors in the grid of static boxes: cells of twice the median sensor extent (at least
/// 1 world unit); sensors covering more than [`MAX_SENSOR_CELLS`] such cells are checked
/// always (after the listed ones, as before the grids were one).
pub(crate) fn sensor_grid(bounds: crate::pack::Rect, sensors: &[Sensor]) -> BoxGrid {
    let mut sizes: Vec<f64> = sensors
        .iter()
        .map(|s| (s.max.x - s.min.x).max(s.max.y - s.min.y))
        .collect();
    sizes.sort_by(f64::total_cmp);
    let median = sizes.get(sizes.len() / 2).copied().unwrap_or(1.0);
    let cell = (median * 2.0).max(1.0);
    let key = |x: f64, y: f64| ((x / cell).floor() as i64, (y / cell).floor() as i64);
    let mut boxes = Vec::new();
    let mut always = Vec::new();
    for (i, s) in sensors.iter().enumerate() {
        let (x0, y0) = key(s.min.x, s.min.y);
        let (x1, y1) = key(s.max.x, s.max.y);
        if (x1 - x0 + 1).saturating_mul(y1 - y0 + 1) > MAX_SENSOR_CELLS {
            always.push(i as u32);
        } else {
            boxes.push((i as u32, s.min, s.max));
        }
    }
    BoxGrid::build(bounds, cell, &boxes, always)
}
