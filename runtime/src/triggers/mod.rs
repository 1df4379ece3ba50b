//! Trigger systems (SPEC §4, seed 003): condition trees over parameterised conditions,
//! responses, flags and counters, and "why didn't it fire".
//!
//! - [`model`]: the pack types (`triggers` section). A condition tree is data (operators
//!   `and`/`or`/`not`/`xor` over conditions), authorable in a GUI with no syntax to get wrong.
//! - [`compile`]: pack → [`TriggerProgram`] with JSON-path diagnostics and static checks.
//! - [`run`]: the trigger pass of a tick ([`pass`]): world events are delivered through an
//!   index (event kind + key → listening conditions), moving NPCs are matched against radius
//!   and rectangle conditions through a grid, flags and counters re-check only the triggers
//!   that read them, and only "polled" triggers are evaluated every tick.
//! - [`explain`]: the value of every node of a trigger's tree and why it is blocked.
//! - [`script`]: scripted world changes, one JSON line each (`townsfolk triggers`).
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
//!   its conditions and receives events again") its one-off latches (`received`, `died`,
//!   `killed`) are reset and ignore events until the reload ends; area, radius and rectangle
//!   counts go on following who is inside (re-initializing them gives the same). When the
//!   reload ends it fires again only if the tree went false at some point since it fired and
//!   is true now. Triggers owned by a removed or dead NPC do not fire. A trigger fires at most once per
//!   trigger pass; a trigger reset in the pass it already fired in is cut off (`trigger_loop`
//!   trace, one runtime problem).
//! - **Flags and counters** are the world's (created on first reference, shared by every
//!   trigger system and every tree).

pub mod compile;
pub mod explain;
pub mod model;
pub mod run;
pub mod script;
#[cfg(test)]
mod tests;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use serde_json::json;

pub use explain::{Blocked, Explain, NodeExplain, explain};
pub use model::{Cond, Owner, Pick, TriggerDef, TriggerSystemDef};
pub use run::{door, give, live_copies, pass, reset, spawn};

use crate::pack::Response;
use crate::value::{EntityId, Sym, Vec2};
use crate::world::respond::CResponse;
use crate::world::{Program, World};

/// Comparison of a counter, health percentage, ….
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Even,
    Odd,
}

impl Cmp {
    pub const NAMES: &'static [&'static str] = &["eq", "ne", "lt", "le", "gt", "ge", "even", "odd"];
    pub fn parse(s: &str) -> Option<Cmp> {
        Some(match s {
            "eq" | "==" => Cmp::Eq,
            "ne" | "!=" => Cmp::Ne,
            "lt" | "<" => Cmp::Lt,
            "le" | "<=" => Cmp::Le,
            "gt" | ">" => Cmp::Gt,
            "ge" | ">=" => Cmp::Ge,
            "even" => Cmp::Even,
            "odd" => Cmp::Odd,
            _ => return None,
        })
    }
    pub fn int(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Even => a % 2 == 0,
            Cmp::Odd => a % 2 != 0,
        }
    }
    pub fn float(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Even | Cmp::Odd => false,
        }
    }
}

/// Which NPCs a condition is about: any, or one declared NPC and its spawned copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Any,
    Npc(u32),
}

impl Who {
    pub fn matches(self, w: &World, npc: u32) -> bool {
        match self {
            Who::Any => true,
            Who::Npc(x) => w.npcs.get(npc as usize).is_some_and(|n| n.proto == x),
        }
    }
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

/// Uniform grid over sensors' bounding boxes: a moving NPC looks only at its cell.
#[derive(Clone, Debug, Default)]
pub struct SensorGrid {
    pub cell: f64,
    cells: HashMap<(i64, i64), Vec<u32>>,
    /// Sensors too large for the grid, checked always.
    big: Vec<u32>,
}

/// Cells one sensor may cover before it is kept in the always-checked list.
const MAX_SENSOR_CELLS: i64 = 1024;

impl SensorGrid {
    fn key(&self, x: f64, y: f64) -> (i64, i64) {
        (
            (x / self.cell).floor() as i64,
            (y / self.cell).floor() as i64,
        )
    }
    pub(crate) fn build(sensors: &[Sensor]) -> SensorGrid {
        // Cell size: twice the median sensor extent, at least 1 world unit.
        let mut sizes: Vec<f64> = sensors
            .iter()
            .map(|s| (s.max.x - s.min.x).max(s.max.y - s.min.y))
            .collect();
        sizes.sort_by(f64::total_cmp);
        let median = sizes.get(sizes.len() / 2).copied().unwrap_or(1.0);
        let mut g = SensorGrid {
            cell: (median * 2.0).max(1.0),
            ..SensorGrid::default()
        };
        for (i, s) in sensors.iter().enumerate() {
            let (x0, y0) = g.key(s.min.x, s.min.y);
            let (x1, y1) = g.key(s.max.x, s.max.y);
            if (x1 - x0 + 1).saturating_mul(y1 - y0 + 1) > MAX_SENSOR_CELLS {
                g.big.push(i as u32);
                continue;
            }
            for x in x0..=x1 {
                for y in y0..=y1 {
                    g.cells.entry((x, y)).or_default().push(i as u32);
                }
            }
        }
        g
    }
    /// Sensors whose box may contain the point.
    pub fn near(&self, at: Vec2) -> impl Iterator<Item = u32> + '_ {
        let cell = self.cells.get(&self.key(at.x, at.y));
        cell.into_iter()
            .flat_map(|v| v.iter().copied())
            .chain(self.big.iter().copied())
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
    pub grid: SensorGrid,
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
    fn listeners(&self, k: Key) -> &[u32] {
        self.listeners.get(&k).map_or(&[], Vec::as_slice)
    }
}

/// Something that happened in the world that conditions may wait for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WorldEvent {
    Enter {
        npc: u32,
        area: u32,
    },
    Exit {
        npc: u32,
        area: u32,
    },
    Received {
        npc: u32,
        message: Sym,
    },
    /// `by`: killer NPC, `u32::MAX` = none.
    Died {
        npc: u32,
        by: u32,
    },
}

/// Run-time state of every trigger: part of the world (a clone is a snapshot; hashed).
#[derive(Clone, Debug, Default)]
pub struct TriggerState {
    // ---- per trigger ----
    pub value: Vec<bool>,
    /// True since it last fired (it fires again only after going false).
    pub holding: Vec<bool>,
    pub spent: Vec<bool>,
    pub reload_until: Vec<u64>,
    pub fires: Vec<u32>,
    /// Tick it last fired, `u64::MAX` = never.
    pub last_fired: Vec<u64>,
    fired_pass: Vec<u64>,
    reset_pass: Vec<u64>,
    loop_reported: Vec<bool>,
    is_dirty: Vec<bool>,
    dirty: Vec<u32>,
    // ---- per leaf ----
    /// One-off latches, and the last value seen of polled conditions.
    pub latch: Vec<bool>,
    /// NPCs inside, for area/radius/rectangle conditions.
    pub count: Vec<u32>,
    /// Tick the value last changed / was last evaluated, `u64::MAX` = never.
    pub changed: Vec<u64>,
    pub evaluated: Vec<u64>,
    // ---- world side ----
    reloads: BinaryHeap<Reverse<(u64, u32)>>,
    /// Events waiting for the next pass.
    pub(crate) feed: Vec<WorldEvent>,
    /// NPCs that moved (or appeared/disappeared) since the last pass.
    pub(crate) moved: Vec<u32>,
    /// Per NPC: sensors it is inside, sorted.
    inside: Vec<Vec<u32>>,
    flags_seen: Vec<bool>,
    counters_seen: Vec<i64>,
    /// Per declared NPC: its spawned copies.
    pub copies: Vec<Vec<u32>>,
    pass: u64,
    started: bool,
    pub level_complete: bool,
}

impl TriggerState {
    pub fn new(p: &Program) -> TriggerState {
        let tp = &p.triggers;
        let (t, l) = (tp.triggers.len(), tp.leaves.len());
        TriggerState {
            value: vec![false; t],
            holding: vec![false; t],
            spent: vec![false; t],
            reload_until: vec![0; t],
            fires: vec![0; t],
            last_fired: vec![u64::MAX; t],
            fired_pass: vec![0; t],
            reset_pass: vec![0; t],
            loop_reported: vec![false; t],
            is_dirty: vec![false; t],
            latch: vec![false; l],
            count: vec![0; l],
            changed: vec![u64::MAX; l],
            evaluated: vec![u64::MAX; l],
            copies: vec![Vec::new(); p.npcs.len()],
            ..TriggerState::default()
        }
    }

    /// Feeds every field to a hasher, in a fixed order.
    pub fn hash_words(&self, h: &mut dyn FnMut(u64)) {
        let bools = |h: &mut dyn FnMut(u64), v: &[bool]| {
            h(v.len() as u64);
            for &b in v {
                h(b as u64);
            }
        };
        let words = |h: &mut dyn FnMut(u64), v: &[u64]| {
            h(v.len() as u64);
            for &x in v {
                h(x);
            }
        };
        bools(h, &self.value);
        bools(h, &self.holding);
        bools(h, &self.spent);
        words(h, &self.reload_until);
        for &f in &self.fires {
            h(f as u64);
        }
        words(h, &self.last_fired);
        words(h, &self.fired_pass);
        words(h, &self.reset_pass);
        bools(h, &self.loop_reported);
        bools(h, &self.latch);
        for &c in &self.count {
            h(c as u64);
        }
        words(h, &self.changed);
        words(h, &self.evaluated);
        let mut reloads: Vec<(u64, u32)> = self.reloads.iter().map(|r| r.0).collect();
        reloads.sort_unstable();
        h(reloads.len() as u64);
        for (at, t) in reloads {
            h(at);
            h(t as u64);
        }
        h(self.feed.len() as u64);
        for e in &self.feed {
            match *e {
                WorldEvent::Enter { npc, area } => [1, npc as u64, area as u64],
                WorldEvent::Exit { npc, area } => [2, npc as u64, area as u64],
                WorldEvent::Received { npc, message } => [3, npc as u64, message.0 as u64],
                WorldEvent::Died { npc, by } => [4, npc as u64, by as u64],
            }
            .into_iter()
            .for_each(&mut *h);
        }
        h(self.moved.len() as u64);
        for &m in &self.moved {
            h(m as u64);
        }
        h(self.inside.len() as u64);
        for v in &self.inside {
            h(v.len() as u64);
            for &s in v {
                h(s as u64);
            }
        }
        bools(h, &self.flags_seen);
        h(self.counters_seen.len() as u64);
        for &c in &self.counters_seen {
            h(c as u64);
        }
        for v in &self.copies {
            h(v.len() as u64);
            for &c in v {
                h(c as u64);
            }
        }
        h(self.pass);
        h(self.started as u64);
        h(self.level_complete as u64);
    }
}

/// Queues a world event for the triggers that listen to its kind (nothing when none does).
pub fn report(p: &Program, st: &mut TriggerState, ev: WorldEvent) {
    let tp = &p.triggers;
    let wanted = match ev {
        WorldEvent::Enter { area, .. } | WorldEvent::Exit { area, .. } => {
            tp.listeners.contains_key(&Key::Area(area))
        }
        WorldEvent::Received { .. } => tp.wants_messages,
        WorldEvent::Died { .. } => tp.wants_deaths,
    };
    if wanted && st.feed.len() < run::MAX_FEED {
        st.feed.push(ev);
    }
}

/// Notes that an NPC moved (radius and rectangle conditions look at it in the next pass).
pub fn moved(p: &Program, st: &mut TriggerState, npc: u32) {
    if !p.triggers.sensors.is_empty() && st.moved.len() < run::MAX_FEED {
        st.moved.push(npc);
    }
}

/// An NPC's id as shown in traces: spawned copies are `proto#k`.
pub fn npc_name(p: &Program, w: &World, i: u32) -> String {
    match w.npcs.get(i as usize) {
        Some(n) => {
            let base = p.npcs.get(n.proto as usize).map_or("", |x| x.id.as_str());
            if n.serial == 0 {
                base.to_string()
            } else {
                format!("{base}#{}", n.serial)
            }
        }
        None => p
            .npcs
            .get(i as usize)
            .map_or(String::new(), |n| n.id.clone()),
    }
}

/// The JSON of a `trigger` trace event: the trigger and the responses it ran.
pub fn trace_json(p: &Program, tick: u64, trigger: u32, picked: u32) -> serde_json::Value {
    let t = p.triggers.triggers.get(trigger as usize);
    let responses: Vec<&str> = match t {
        Some(t) if picked == u32::MAX => t.response_names.clone(),
        Some(t) => t
            .response_names
            .get(picked as usize)
            .copied()
            .into_iter()
            .collect(),
        None => Vec::new(),
    };
    json!({"tick": tick, "kind": "trigger", "trigger": p.triggers.trigger_id(trigger),
           "responses": responses})
}

/// The `do` names of responses (for traces).
pub(crate) fn response_names(rs: &[Response]) -> Vec<&'static str> {
    rs.iter().map(Response::name).collect()
}
