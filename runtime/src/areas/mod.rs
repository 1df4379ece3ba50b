//! Smart areas (SPEC §2): places that hand behaviors to the NPCs that ask.
//!
//! Compiled area rules live in the [`Program`] ([`AreaRules`], one per pack area, plus a
//! spatial [`Grid`] of the static areas); per-run state lives in the [`World`]
//! ([`AreaState`] per area, dynamic areas apart, behavior [`Tag`]s on the NPCs). The world
//! loop calls [`tick_areas`] (brains and handler queues) before the NPC trees and
//! [`update_membership`] after movement; a request node calls [`request`].

mod rules;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

pub use rules::{AreaRules, CRequest, CTemplate, Grid};

use crate::bt::{Instance, Status};
use crate::pack::{ChildChoice, Keep};
use crate::value::{Sym, Value, Vec2};
use crate::world::lifecycle::happened;
use crate::world::probe::Out;
use crate::world::{Message, Program, TraceEvent, World, WorldEnv};

/// Dynamic area ids have this bit set: `DYN | proto << 16 | serial`.
pub const DYN: u32 = 1 << 31;

pub fn is_dynamic(id: u32) -> bool {
    id & DYN != 0
}

/// The pack area whose rules an area uses (itself, or a dynamic area's prototype).
pub fn proto_of(id: u32) -> u32 {
    if is_dynamic(id) {
        (id & !DYN) >> 16
    } else {
        id
    }
}

/// An area's display id: its pack id, or `prototype#serial` for a dynamic one.
pub fn area_name(p: &Program, id: u32) -> String {
    let base = p
        .areas
        .get(proto_of(id) as usize)
        .map_or("?", |a| a.id.as_str());
    if is_dynamic(id) {
        format!("{base}#{}", id & 0xffff)
    } else {
        base.to_string()
    }
}

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
    fn new(p: &Program, proto: u32) -> AreaState {
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

fn bbox_size(p: &Program, id: u32) -> f64 {
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

/// Queues a handler run on an area, if it has a handler for that event.
pub fn queue_handler(p: &Program, w: &mut World, area: u32, kind: HandlerKind, npc: u32) {
    let has = p.area_rules[proto_of(area) as usize].handlers[kind as usize].is_some();
    if has && let Some(s) = state_mut(w, area) {
        s.queue.push_back(Job { kind, npc });
    }
}

/// Recomputes which areas an NPC stands in (none when it is not alive); reports enters and
/// exits (to the triggers and the trace, through [`crate::world::lifecycle::happened`]),
/// queues OnEnter/OnExit handlers and applies the leave policy of the behaviors of areas left.
pub fn update_membership(p: &Program, w: &mut World, npc: u32, out: &mut Out) {
    let i = npc as usize;
    let at = w.pos[i];
    let mut now = std::mem::take(&mut w.scratch);
    if w.npcs[i].alive() {
        areas_at(p, w, at, &mut now);
    } else {
        now.clear();
    }
    let was = std::mem::take(&mut w.npcs[i].areas);
    // (Not `was != now`: that calls `memcmp`, whose vector code reads the dangling pointer
    // of an empty `Vec` under an all-off mask, which some CPUs handle with a slow
    // microcode assist: it was a third of a crowd's tick.)
    if was.len() != now.len() || was.iter().zip(&now).any(|(a, b)| a != b) {
        let tick = w.tick;
        // Exits first (by id), then enters.
        for &a in was.iter().filter(|a| now.binary_search(a).is_err()) {
            leave_policy(p, w, npc, a, out);
            queue_handler(p, w, a, HandlerKind::Exit, npc);
            happened(
                p,
                w,
                Some(npc),
                TraceEvent::Exit { tick, npc, area: a },
                out,
            );
        }
        for &a in now.iter().filter(|a| was.binary_search(a).is_err()) {
            queue_handler(p, w, a, HandlerKind::Enter, npc);
            happened(
                p,
                w,
                Some(npc),
                TraceEvent::Enter { tick, npc, area: a },
                out,
            );
        }
    }
    w.npcs[i].area = innermost(p, &now);
    w.npcs[i].areas = now;
    // The two buffers trade places: no allocation once they are large enough.
    let mut was = was;
    was.clear();
    w.scratch = was;
}

fn leave_policy(p: &Program, w: &mut World, npc: u32, area: u32, out: &mut Out) {
    let mut k = 0;
    while k < w.npcs[npc as usize].tags.len() {
        let tag = &w.npcs[npc as usize].tags[k];
        if tag.area != area {
            k += 1;
            continue;
        }
        let rule = p.area_rules[proto_of(area) as usize].templates[tag.template as usize].drop;
        match rule.on_leave {
            Keep::Keep => k += 1,
            Keep::Overridable => {
                w.npcs[npc as usize].tags[k].overridable = true;
                k += 1;
            }
            Keep::Drop => drop_tag(p, w, npc, k, "left the area", out),
        }
    }
}

/// Drops tag `k` of an NPC: the behavior ends (what its running nodes started stops: walking,
/// speech, animations, conversations), its area counts one holder less and runs its OnDrop
/// handler.
pub fn drop_tag(
    p: &Program,
    w: &mut World,
    npc: u32,
    k: usize,
    reason: &'static str,
    out: &mut Out,
) {
    let tag = w.npcs[npc as usize].tags.remove(k);
    // Its tree stops: walking, speech and animations it started end with it.
    if let Some(tree) = p.trees.get(tag.tree as usize) {
        for (j, node) in tree.nodes.iter().enumerate() {
            if tag.instance.status.get(j) == Some(&Status::Running) {
                let n = &mut w.npcs[npc as usize];
                match node.op {
                    crate::bt::Op::MoveTo { .. } | crate::bt::Op::GoToChild { .. } => {
                        n.target = None
                    }
                    crate::bt::Op::Animate { .. } | crate::bt::Op::Say { .. } => n.show = None,
                    crate::bt::Op::Converse { cast, .. } => w.talk.hand_over(npc, cast, false),
                    _ => {}
                }
            }
        }
    }
    // Behaviors adopted by request nodes inside it go too.
    while let Some(inner) = w.npcs[npc as usize]
        .tags
        .iter()
        .position(|t| t.node >> 32 == u64::from(tag.tree))
    {
        drop_tag(p, w, npc, inner, "the behavior it was part of ended", out);
    }
    if let Some(s) = state_mut(w, tag.area)
        && let Some(h) = s.holders.get_mut(tag.template as usize)
    {
        *h = h.saturating_sub(1);
    }
    queue_handler(p, w, tag.area, HandlerKind::Drop, npc);
    let tick = w.tick;
    happened(
        p,
        w,
        Some(npc),
        TraceEvent::Drop {
            tick,
            npc,
            area: tag.area,
            template: p.area_rules[proto_of(tag.area) as usize].templates[tag.template as usize]
                .name,
            reason,
        },
        out,
    );
}

/// Chooses a behavior for an NPC's request node: the innermost area it stands in (of
/// `area_kind`, if given) filters its templates (enabled, free slots, constraint, not
/// forbidden); if the node names preferred behaviors only those are asked for, chosen by
/// weight, else any survivor, uniformly; when nothing applies, the parent area is asked, and
/// so on up (an NPC in a pub that wants to work is served by the city).
pub fn choose(
    p: &Program,
    w: &mut World,
    npc: u32,
    req: &CRequest,
    explain: bool,
    running: &[(u32, u32)],
) -> RequestOutcome {
    let n = &w.npcs[npc as usize];
    let start = match req.area_kind {
        None => n.area,
        Some(kind) => {
            let mut best: Option<(f64, u32)> = None;
            for &a in &n.areas {
                if p.areas[proto_of(a) as usize].kinds.contains(&kind) {
                    let size = bbox_size(p, a);
                    if best.is_none_or(|(s, b)| size < s || (size == s && a < b)) {
                        best = Some((size, a));
                    }
                }
            }
            best.map(|(_, a)| a)
        }
    };
    let mut outcome = RequestOutcome {
        asked: start,
        chosen: None,
        refused: Vec::new(),
        kept: false,
    };
    let mut area = start;
    let mut guard = 0;
    while let Some(a) = area {
        guard += 1;
        if guard > 64 {
            break;
        }
        let rules = &p.area_rules[proto_of(a) as usize];
        let Some(st) = state(w, a) else { break };
        let mut total = 0.0;
        // Survivors with their weights (no allocation when nothing is refused).
        let mut survivors: [(u32, f64); 32] = [(0, 0.0); 32];
        let mut count = 0usize;
        for (ti, t) in rules.templates.iter().enumerate() {
            let refuse = |reason: String, outcome: &mut RequestOutcome| {
                if explain {
                    outcome.refused.push(Refusal {
                        area: a,
                        template: t.name,
                        reason,
                    });
                }
            };
            let pref = req
                .prefer
                .iter()
                .find(|(name, _)| *name == t.name)
                .map(|&(_, w)| w.max(0.0));
            // A request that names behaviors asks for those only; the rest is not refused
            // for a fault of its own, so it is not listed either.
            if !req.prefer.is_empty() && pref.is_none() {
                continue;
            }
            if req.forbid.contains(&t.name) {
                refuse("forbidden by the request".into(), &mut outcome);
                continue;
            }
            if running.contains(&(a, ti as u32)) {
                refuse(
                    "already running: this request is inside it".into(),
                    &mut outcome,
                );
                continue;
            }
            if !st.enabled.get(ti).copied().unwrap_or(false) {
                refuse("disabled".into(), &mut outcome);
                continue;
            }
            // The requester's own overridable tag of this template is about to be replaced.
            let own = w.npcs[npc as usize]
                .tags
                .iter()
                .filter(|g| g.area == a && g.template == ti as u32 && g.overridable)
                .count() as u32;
            let held = st.holders.get(ti).copied().unwrap_or(0).saturating_sub(own);
            if let Some(max) = t.max_instances
                && held >= max
            {
                refuse(format!("full ({held}/{max} instances)"), &mut outcome);
                continue;
            }
            if let Some(c) = t.constraint {
                let env = WorldEnv {
                    program: p,
                    world: w,
                    npc,
                };
                let e = &p.exprs[c as usize];
                if !e.eval_bool(&env) {
                    let part = e
                        .failing_part(&env)
                        .unwrap_or_else(|| e.source().to_string());
                    refuse(
                        format!("constraint `{}` is false (`{part}`)", e.source()),
                        &mut outcome,
                    );
                    continue;
                }
            }
            if count < survivors.len() {
                survivors[count] = (ti as u32, pref.unwrap_or(1.0));
                count += 1;
                total += pref.unwrap_or(1.0);
            }
        }
        if count > 0 && total > 0.0 {
            let mut r = w.rng_f64() * total;
            let mut pick = None;
            for &(ti, wt) in &survivors[..count] {
                if wt <= 0.0 {
                    continue;
                }
                pick = Some(ti);
                if r < wt {
                    break;
                }
                r -= wt;
            }
            if let Some(ti) = pick {
                outcome.chosen = Some((a, ti));
                return outcome;
            }
        }
        area = parent(p, a);
    }
    outcome
}

/// Adopts template `ti` of `area` for an NPC's request node: the tag is created (and the
/// area counts a holder), inboxes are added, OnAdopt is queued.
pub fn adopt(p: &Program, w: &mut World, npc: u32, node: u64, area: u32, ti: u32, out: &mut Out) {
    let t = &p.area_rules[proto_of(area) as usize].templates[ti as usize];
    let Some(tree) = p.trees.get(t.tree as usize) else {
        return;
    };
    let tick = w.tick;
    let n = &mut w.npcs[npc as usize];
    for &ib in &t.inboxes {
        if !n.inboxes.iter().any(|(s, _)| *s == ib) {
            n.inboxes.push((ib, VecDeque::new()));
        }
    }
    n.tags.push(Tag {
        node,
        area,
        template: ti,
        tree: t.tree,
        instance: Instance::new(t.tree, tree),
        overridable: false,
        adopted: tick,
    });
    if let Some(s) = state_mut(w, area)
        && let Some(h) = s.holders.get_mut(ti as usize)
    {
        *h += 1;
    }
    queue_handler(p, w, area, HandlerKind::Adopt, npc);
    happened(
        p,
        w,
        Some(npc),
        TraceEvent::Adopt {
            tick,
            npc,
            area,
            template: t.name,
        },
        out,
    );
}

/// What happens to a tag when its tree ends: keep, mark overridable, or drop.
pub fn after_end(p: &Program, w: &mut World, npc: u32, k: usize, status: Status, out: &mut Out) {
    let tag = &w.npcs[npc as usize].tags[k];
    let policy = p.area_rules[proto_of(tag.area) as usize].templates[tag.template as usize].drop;
    let (rule, reason) = match status {
        Status::Success => (policy.on_success, "behavior succeeded"),
        _ => (policy.on_failure, "behavior failed"),
    };
    match rule {
        Keep::Keep => {}
        Keep::Overridable => w.npcs[npc as usize].tags[k].overridable = true,
        Keep::Drop => drop_tag(p, w, npc, k, reason, out),
    }
}

/// Picks a child area of `parent` with kind `kind`: by weight (seeded) or the nearest.
pub fn pick_child(
    p: &Program,
    w: &mut World,
    parent: u32,
    kind: Sym,
    choose: ChildChoice,
    from: Vec2,
) -> Option<u32> {
    let children = &p.area_rules[proto_of(parent) as usize].children;
    let alive: &[AreaState] = &w.areas;
    let fits = |c: &u32| {
        p.areas[*c as usize].kinds.contains(&kind)
            && alive.get(*c as usize).is_some_and(|s| s.alive)
    };
    match choose {
        ChildChoice::Nearest => children
            .iter()
            .filter(|c| fits(c))
            .map(|&c| (p.areas[c as usize].center().distance(from), c))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|(_, c)| c),
        ChildChoice::Weight => {
            let total: f64 = children
                .iter()
                .filter(|c| fits(c))
                .map(|&c| p.area_rules[c as usize].weight)
                .sum();
            if total <= 0.0 {
                return None;
            }
            let fitting: Vec<u32> = children.iter().copied().filter(|c| fits(c)).collect();
            let mut r = w.rng_f64() * total;
            let mut last = None;
            for &c in &fitting {
                let wt = p.area_rules[c as usize].weight;
                if wt <= 0.0 {
                    continue;
                }
                last = Some(c);
                if r < wt {
                    return Some(c);
                }
                r -= wt;
            }
            last
        }
    }
}

/// Places a copy of dynamic prototype `proto` centred at `at`; returns its id.
pub fn create_area(
    p: &Program,
    w: &mut World,
    proto: u32,
    at: Vec2,
    ticks: Option<u64>,
    out: &mut Out,
) -> Option<u32> {
    let rules = p.area_rules.get(proto as usize)?;
    if !rules.dynamic || w.dyn_areas.len() >= 4096 {
        return None;
    }
    w.dyn_serial = w.dyn_serial.wrapping_add(1) & 0xffff;
    if w.dyn_serial == 0 {
        w.dyn_serial = 1;
    }
    let id = DYN | (proto << 16) | w.dyn_serial;
    if w.dyn_areas.iter().any(|d| d.id == id) {
        return None;
    }
    let offset = at - p.areas[proto as usize].center();
    let mut state = AreaState::new(p, proto);
    state.alive = true;
    let tick = w.tick;
    let d = DynArea {
        id,
        offset,
        expires: ticks.map(|t| tick.saturating_add(t)),
        vars: p.areas[proto as usize].vars.clone(),
        state,
    };
    let at_index = w.dyn_areas.partition_point(|x| x.id < id);
    w.dyn_areas.insert(at_index, d);
    w.areas_changed = true;
    happened(p, w, None, TraceEvent::AreaCreated { tick, area: id }, out);
    Some(id)
}

/// Removes a dynamic area; NPCs inside leave it (at the membership update of this tick).
pub fn remove_area(p: &Program, w: &mut World, id: u32, out: &mut Out) {
    if let Some(d) = w.dyn_areas.iter_mut().find(|d| d.id == id && d.state.alive) {
        d.state.alive = false;
        w.areas_changed = true;
        let tick = w.tick;
        happened(p, w, None, TraceEvent::AreaRemoved { tick, area: id }, out);
    }
}

/// The brains-and-handlers phase of a tick: expire dynamic areas, run each area's handler
/// queue (one run at a time, to completion, never interrupted by the brain) and tick brains
/// that are due. Areas in id order.
pub fn tick_areas(p: &Program, w: &mut World, out: &mut Out) {
    let tick = w.tick;
    let due = |d: &DynArea| d.state.alive && d.expires.is_some_and(|e| e <= tick);
    if w.dyn_areas.iter().any(due) {
        let expired: Vec<u32> = w
            .dyn_areas
            .iter()
            .filter(|d| due(d))
            .map(|d| d.id)
            .collect();
        for id in expired {
            remove_area(p, w, id, out);
            if out.stop {
                return;
            }
        }
    }
    // Active static areas in index order, then dynamic ones in id order (no allocation; the
    // cost does not grow with areas that have nothing to run). Areas created meanwhile run
    // in this tick too.
    let mut k = 0;
    while k < p.active_areas.len() + w.dyn_areas.len() {
        let id = match p.active_areas.get(k) {
            Some(&a) => a,
            None => w.dyn_areas[k - p.active_areas.len()].id,
        };
        k += 1;
        if !state(w, id).is_some_and(|s| s.alive) {
            continue;
        }
        if !crate::world::host::run_area(
            p,
            w,
            id,
            out.trace.as_deref_mut(),
            out.probe.as_deref_mut(),
        ) {
            out.stop = true;
            return;
        }
    }
    // Dead dynamic areas with nothing left running are forgotten.
    w.dyn_areas
        .retain(|d| d.state.alive || d.state.running.is_some());
}
