//! Smart-area state (SPEC §2): per-run state of every area, dynamic areas, the behavior
//! tags NPCs adopted, and the readers over them (which areas hold a point, the innermost,
//! an area's variables). Compiled rules are the program's ([`crate::program::areas`]).

use std::collections::VecDeque;

use crate::bt::Instance;
use crate::program::Program;
pub use crate::program::areas::{DYN, area_name, is_dynamic, proto_of};
use crate::value::{Sym, Value, Vec2};

use super::{Message, World};

/// The kind of an area event handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandlerKind {
    Adopt = 0,
    Drop = 1,
    Enter = 2,
    Exit = 3,
}

impl HandlerKind {
    pub fn name(self) -> &'static str {
        match self {
            HandlerKind::Adopt => "on_adopt",
            HandlerKind::Drop => "on_drop",
            HandlerKind::Enter => "on_enter",
            HandlerKind::Exit => "on_exit",
        }
    }
}

/// One handler run waiting (or running) in an area's queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Job {
    pub kind: HandlerKind,
    /// The NPC the event is about (`subject` in the handler tree).
    pub npc: u32,
}

/// Per-run state of one area.
#[derive(Clone, Debug, PartialEq)]
pub struct AreaState {
    pub alive: bool,
    /// Per template: may new instances be requested (the brain can change it).
    pub enabled: Vec<bool>,
    /// Per template: live behavior tags.
    pub holders: Vec<u32>,
    pub inboxes: Vec<(Sym, VecDeque<Message>)>,
    pub brain: Option<Instance>,
    /// Handler runs waiting, oldest first.
    pub queue: VecDeque<Job>,
    /// The handler run in progress, with its tree's state.
    pub running: Option<(Job, Instance)>,
}

/// A dynamic area: a placed copy of a prototype.
#[derive(Clone, Debug, PartialEq)]
pub struct DynArea {
    pub id: u32,
    /// Offset of the copy from the prototype's shape.
    pub offset: Vec2,
    pub expires: Option<u64>,
    pub vars: Vec<Value>,
    pub state: AreaState,
}

/// A behavior an NPC adopted from an area: metadata and the live subtree instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    /// The request node it is grafted under: compiled tree index << 32 | node index.
    pub node: u64,
    pub area: u32,
    pub template: u32,
    pub tree: u32,
    pub instance: Instance,
    pub overridable: bool,
    pub adopted: u64,
}

/// Why a template was not chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub area: u32,
    pub template: Sym,
    pub reason: String,
}

/// The outcome of a request, for the trace and the explain API.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestOutcome {
    /// The area asked first (None: the NPC stands in no area that fits).
    pub asked: Option<u32>,
    /// The chosen (area, template), if any.
    pub chosen: Option<(u32, u32)>,
    /// Per refused template, why.
    pub refused: Vec<Refusal>,
    /// A kept overridable behavior (nothing new applied).
    pub kept: bool,
}

impl AreaState {
    pub(crate) fn new(p: &Program, proto: u32) -> AreaState {
        let r = &p.area_rules[proto as usize];
        AreaState {
            alive: !r.dynamic,
            enabled: r.templates.iter().map(|t| t.enabled).collect(),
            holders: vec![0; r.templates.len()],
            inboxes: r.inboxes.iter().map(|&s| (s, VecDeque::new())).collect(),
            brain: r
                .brain
                .and_then(|(t, _)| p.trees.get(t as usize).map(|tree| Instance::new(t, tree))),
            queue: VecDeque::new(),
            running: None,
        }
    }
}

/// The initial state of every static area.
pub fn initial_states(p: &Program) -> Vec<AreaState> {
    (0..p.areas.len() as u32)
        .map(|a| AreaState::new(p, a))
        .collect()
}

/// The state of an area (static or dynamic).
pub fn state(w: &World, id: u32) -> Option<&AreaState> {
    if is_dynamic(id) {
        w.dyn_areas.iter().find(|d| d.id == id).map(|d| &d.state)
    } else {
        w.areas.get(id as usize)
    }
}

pub fn state_mut(w: &mut World, id: u32) -> Option<&mut AreaState> {
    if is_dynamic(id) {
        w.dyn_areas
            .iter_mut()
            .find(|d| d.id == id)
            .map(|d| &mut d.state)
    } else {
        w.areas.get_mut(id as usize)
    }
}

/// Whether a point is inside an alive area.
pub fn contains(p: &Program, w: &World, id: u32, at: Vec2) -> bool {
    if is_dynamic(id) {
        match w.dyn_areas.iter().find(|d| d.id == id) {
            Some(d) => d.state.alive && p.areas[proto_of(id) as usize].contains(at - d.offset),
            None => false,
        }
    } else {
        p.areas.get(id as usize).is_some_and(|a| a.contains(at))
            && w.areas.get(id as usize).is_some_and(|s| s.alive)
    }
}

/// Centre of an area's bounding box.
pub fn center(p: &Program, w: &World, id: u32) -> Option<Vec2> {
    let base = p.areas.get(proto_of(id) as usize)?.center();
    if is_dynamic(id) {
        w.dyn_areas
            .iter()
            .find(|d| d.id == id)
            .map(|d| base + d.offset)
    } else {
        Some(base)
    }
}

pub(crate) fn bbox_size(p: &Program, id: u32) -> f64 {
    let b = &p.areas[proto_of(id) as usize].bbox;
    (b.max.x - b.min.x) * (b.max.y - b.min.y)
}

/// The parent of an area (a dynamic area has none).
pub fn parent(p: &Program, id: u32) -> Option<u32> {
    if is_dynamic(id) {
        None
    } else {
        p.areas.get(id as usize).and_then(|a| a.parent)
    }
}

/// Area variables of an area (static or dynamic).
pub fn vars(w: &World, id: u32) -> Option<&[Value]> {
    if is_dynamic(id) {
        w.dyn_areas
            .iter()
            .find(|d| d.id == id)
            .map(|d| d.vars.as_slice())
    } else {
        w.area_vars.get(id as usize).map(Vec::as_slice)
    }
}

/// Every alive area containing `at`, sorted by id, written into `out` (reused: no
/// allocation in steady state). Static areas come from the grid, so the cost does not grow
/// with the number of areas in the world.
pub fn areas_at(p: &Program, w: &World, at: Vec2, out: &mut Vec<u32>) {
    out.clear();
    for &a in p.grid.candidates(at) {
        if contains(p, w, a, at) {
            out.push(a);
        }
    }
    for d in &w.dyn_areas {
        if d.state.alive && p.areas[proto_of(d.id) as usize].contains(at - d.offset) {
            out.push(d.id);
        }
    }
    out.sort_unstable();
}

/// The innermost (smallest) of the given areas.
pub fn innermost(p: &Program, areas: &[u32]) -> Option<u32> {
    let mut best: Option<(f64, u32)> = None;
    for &a in areas {
        let size = bbox_size(p, a);
        if best.is_none_or(|(s, b)| size < s || (size == s && a < b)) {
            best = Some((size, a));
        }
    }
    best.map(|(_, a)| a)
}

/// A handler kind from its number (for trace rendering).
pub fn handler_kind(k: u8) -> HandlerKind {
    match k {
        0 => HandlerKind::Adopt,
        1 => HandlerKind::Drop,
        2 => HandlerKind::Enter,
        _ => HandlerKind::Exit,
    }
}
