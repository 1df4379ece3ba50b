//! The 2D world (SPEC §6) and its fixed-step, deterministic simulation loop.
//!
//! A [`Session`] owns one [`World`] (all mutable state, `Clone` for snapshots) and shares a
//! read-only [`Program`] compiled from the pack. `Session::step()` runs one tick in a fixed
//! order: clock, story events ([`crate::events`]), smart-area brains and handlers
//! ([`crate::areas`]), NPC trees (in pack order, with the behaviors they adopted),
//! conversations ([`crate::talk`]), movement and area membership, message delivery.

pub(crate) mod hash;
pub(crate) mod host;
pub mod lifecycle;
pub mod probe;
pub mod program;
pub mod respond;
mod trace;

use std::collections::VecDeque;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::bt::{self, Instance, Status};
use crate::pack::{Diagnostic, Pack};
use crate::value::{EntityId, Sym, Value, Vec2};
pub use probe::{DebugEvent, Probe, WorldEnv};
pub use program::Program;
pub use trace::{TraceEvent, trace_value, trace_value_in};

/// Radius of an NPC's body, used to keep it out of obstacles.
pub const NPC_RADIUS: f64 = 0.3;
/// Messages kept per inbox; older ones are dropped first.
pub const MAX_INBOX: usize = 1024;

/// A message in an inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Message {
    pub from: EntityId,
    pub message: Sym,
    /// Tick it was sent.
    pub sent: u64,
}

/// One NPC's mutable state.
#[derive(Clone, Debug)]
pub struct Npc {
    pub blackboard: Vec<Value>,
    pub instance: Instance,
    /// Where it is walking to, if anywhere.
    pub target: Option<Vec2>,
    /// What the preview shows over its head: (is speech, text/animation).
    pub show: Option<(bool, Sym)>,
    pub inboxes: Vec<(Sym, VecDeque<Message>)>,
    /// Innermost area it stands in.
    pub area: Option<u32>,
    /// Every area it stands in, by id, sorted.
    pub areas: Vec<u32>,
    /// Behaviors adopted from smart areas, each grafted under a request node.
    pub tags: Vec<crate::areas::Tag>,
    /// Status its tree returned on the last tick.
    pub last_status: Status,
    /// The declared NPC it is (itself) or a run-time copy of (spawned), by index.
    pub proto: u32,
    /// 0 for a declared NPC; k for the k-th copy spawned of its prototype (`rat#3`).
    pub serial: u32,
    /// Removed from the world (or a prototype never placed): no tree, no movement.
    pub removed: bool,
    /// Its health reached 0: its tree is halted, it does not move, it holds no behavior, it
    /// stands in no area and takes part in no conversation; it stays dead.
    pub dead: bool,
    pub health: f64,
    /// Items carried, sorted.
    pub items: Vec<Sym>,
    /// Items worn or wielded, sorted.
    pub equipped: Vec<Sym>,
}

impl Npc {
    /// In the world and not dead: its tree runs, it moves, it stands in areas.
    pub fn alive(&self) -> bool {
        !self.removed && !self.dead
    }

    /// A fresh NPC as the pack declares NPC `proto` (also used for spawned copies).
    pub fn new(p: &Program, proto: u32) -> Npc {
        let info = &p.npcs[proto as usize];
        let (tree, len) = match p.trees.get(info.tree as usize) {
            Some(t) => (info.tree, t),
            None => (u32::MAX, &EMPTY_TREE),
        };
        Npc {
            blackboard: info.blackboard.clone(),
            instance: Instance::new(tree, len),
            target: None,
            show: None,
            inboxes: info.inboxes.iter().map(|&s| (s, VecDeque::new())).collect(),
            area: None,
            areas: Vec::new(),
            tags: Vec::new(),
            last_status: Status::Idle,
            proto,
            serial: 0,
            removed: info.prototype,
            dead: false,
            health: info.health,
            items: info.items.clone(),
            equipped: info.equipped.clone(),
        }
    }
}

/// Run-time state of a world object (doors and the like).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectState {
    pub open: bool,
    pub locked: bool,
    /// Free-form state set by `set_object_state`.
    pub state: Sym,
}

/// The complete mutable state of a simulation. Cloning it is a full snapshot.
#[derive(Clone, Debug)]
pub struct World {
    pub tick: u64,
    /// Hour of day, [0, 24).
    pub hour: f64,
    pub day: i64,
    /// NPC positions, by NPC index (kept apart so trees can read every position while one
    /// NPC's state is borrowed mutably).
    pub pos: Vec<Vec2>,
    pub npcs: Vec<Npc>,
    pub flags: Vec<bool>,
    pub counters: Vec<i64>,
    /// Variables of the static areas, by area index.
    pub area_vars: Vec<Vec<Value>>,
    /// Smart-area state of the static areas, by area index.
    pub areas: Vec<crate::areas::AreaState>,
    /// Dynamic areas (placed at run time), sorted by id.
    pub dyn_areas: Vec<crate::areas::DynArea>,
    pub(crate) dyn_serial: u32,
    /// Dynamic areas appeared or went this tick: every NPC's membership is rechecked.
    pub(crate) areas_changed: bool,
    /// Reused buffers (membership updates, who moved this tick).
    pub(crate) scratch: Vec<u32>,
    pub(crate) moved: Vec<bool>,
    pub rng: ChaCha8Rng,
    /// Messages sent this tick, delivered at its end: (recipient, inbox, message).
    pub(crate) outbox: Vec<(EntityId, Sym, Message)>,
    /// Lines of text shown in the preview by responses, until a tick.
    pub texts: Vec<(Sym, u64)>,
    /// The running scenario's story state (`world.scenario`), if any.
    pub story: Option<crate::events::Story>,
    /// Background conversations (`talk`): per-character state, views and counters.
    pub talk: crate::talk::TalkState,
    /// World objects' state, by object index.
    pub objects: Vec<ObjectState>,
    /// Trigger systems' run-time state (latches, firing, the events they wait for).
    pub triggers: crate::triggers::TriggerState,
}

impl World {
    /// An NPC's id as shown in traces and tools: spawned copies are `proto#k`.
    pub fn npc_name(&self, p: &Program, i: u32) -> String {
        crate::triggers::npc_name(p, self, i)
    }

    /// A uniform number in [0, 1) from the world's seeded generator.
    pub(crate) fn rng_f64(&mut self) -> f64 {
        use rand::RngExt;
        self.rng.random::<f64>()
    }
}

/// A running simulation of one pack.
#[derive(Clone, Debug)]
pub struct Session {
    program: Arc<Program>,
    world: World,
    seed: u64,
    tracing: bool,
    trace: Vec<TraceEvent>,
    /// NPCs whose tree already ran away once (reported once each).
    runaway_reported: Vec<bool>,
    problems: Vec<String>,
}

impl Session {
    /// Compiles a pack and starts a session; refuses packs with errors.
    pub fn from_pack(pack: &Pack, seed: u64) -> Result<Session, Vec<Diagnostic>> {
        let (program, diags) = Program::build(pack);
        if diags.iter().any(Diagnostic::is_error) {
            return Err(diags);
        }
        Ok(Session::new(Arc::new(program), seed))
    }

    /// Starts a session of a compiled program. The program must have compiled without errors.
    pub fn new(program: Arc<Program>, seed: u64) -> Session {
        let p = &program;
        let npcs = (0..p.npcs.len() as u32).map(|i| Npc::new(p, i)).collect();
        let mut world = World {
            tick: 0,
            hour: 0.0,
            day: 0,
            pos: p.npcs.iter().map(|n| n.pos).collect(),
            npcs,
            flags: p.flags.defaults.iter().map(|v| v.as_bool()).collect(),
            counters: p.counters.defaults.iter().map(|v| v.as_i64()).collect(),
            area_vars: p.areas.iter().map(|a| a.vars.clone()).collect(),
            areas: crate::areas::initial_states(p),
            dyn_areas: Vec::new(),
            dyn_serial: 0,
            areas_changed: false,
            scratch: Vec::new(),
            moved: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            outbox: Vec::new(),
            texts: Vec::new(),
            story: p
                .events
                .world_scenario
                .and_then(|s| crate::events::Story::new(p, s)),
            talk: crate::talk::TalkState::new(p.npcs.len()),
            objects: p
                .objects
                .iter()
                .map(|o| ObjectState {
                    open: o.open,
                    locked: o.locked,
                    state: o.state,
                })
                .collect(),
            triggers: crate::triggers::TriggerState::new(p),
        };
        let n = world.npcs.len();
        clock(p, &mut world);
        // Where everyone starts, through the one membership path: NPCs inside an area enter
        // it at tick 0 (OnEnter queued, run in the first tick; the triggers hear it). Nothing
        // is traced yet.
        let mut quiet = probe::Out {
            trace: None,
            probe: None,
            stop: false,
        };
        for i in 0..n as u32 {
            crate::areas::update_membership(p, &mut world, i, &mut quiet);
        }
        Session {
            program,
            world,
            seed,
            tracing: false,
            trace: Vec::new(),
            runaway_reported: vec![false; n],
            problems: Vec::new(),
        }
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }
    pub fn world(&self) -> &World {
        &self.world
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn tick(&self) -> u64 {
        self.world.tick
    }
    /// Runtime problems seen so far (runaway trees), one line each.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
    /// Records trace events from now on (or stops).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }
    /// Trace events recorded since the last [`Session::clear_trace`].
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }
    pub fn clear_trace(&mut self) {
        self.trace.clear();
    }
    /// One trace event as a JSON line (without newline).
    pub fn trace_json(&self, ev: &TraceEvent) -> String {
        trace::to_json(&self.program, &self.world, ev)
    }
    /// Sets an NPC's blackboard slot (tools and benchmarks). Ignores out-of-range indices.
    pub fn set_var(&mut self, npc: usize, slot: usize, v: Value) {
        if let Some(cell) = self
            .world
            .npcs
            .get_mut(npc)
            .and_then(|n| n.blackboard.get_mut(slot))
        {
            *cell = v;
        }
    }

    /// Sets a world flag (tests).
    #[cfg(test)]
    pub(crate) fn set_flag_for_test(&mut self, flag: usize, v: bool) {
        self.world.flags[flag] = v;
    }

    /// Runs one fixed-step tick.
    pub fn step(&mut self) {
        self.step_with(None);
    }

    /// Runs one tick while a probe watches every event; returns false if the probe paused
    /// it. A paused tick is left half done (the world is then only for looking at): a
    /// debugger re-runs the tick from a snapshot of its start to go on.
    pub fn step_probed(&mut self, probe: &mut dyn Probe) -> bool {
        self.step_with(Some(probe))
    }

    fn step_with(&mut self, mut probe: Option<&mut (dyn Probe + '_)>) -> bool {
        let p: &Program = &self.program;
        let w = &mut self.world;
        w.tick += 1;
        clock(p, w);
        // Triggers, story events (the tracker and executor, SPEC §3), then smart-area
        // brains and handler queues.
        {
            let mut out = probe::Out {
                trace: self.tracing.then_some(&mut self.trace),
                probe: probe.as_deref_mut(),
                stop: false,
            };
            if !p.triggers.is_empty() {
                crate::triggers::pass(p, w, &mut out, &mut self.problems);
                if out.stop {
                    return false;
                }
            }
            crate::events::exec::tick(p, w, &mut out);
            if out.stop {
                return false;
            }
            crate::areas::tick_areas(p, w, &mut out);
            if out.stop {
                return false;
            }
        }
        // NPC trees, in pack order.
        for i in 0..w.npcs.len() {
            if let Some(pr) = probe.as_deref_mut() {
                let env = WorldEnv {
                    program: p,
                    world: w,
                    npc: i as u32,
                };
                if pr.event(&DebugEvent::NpcStart { npc: i as u32 }, Some(&env)) {
                    return false;
                }
            }
            let npc = &mut w.npcs[i];
            // A removed or dead NPC's tree does not tick; once, it is halted (halting resets).
            let alive = npc.alive();
            if !alive
                && npc
                    .instance
                    .status
                    .first()
                    .is_none_or(|s| *s == Status::Idle)
            {
                continue;
            }
            let Some(tree) = p.trees.get(npc.instance.tree as usize) else {
                continue;
            };
            let mut inst = std::mem::replace(&mut npc.instance, Instance::empty());
            let bb = std::mem::take(&mut npc.blackboard);
            let mut h = host::ActorHost {
                p,
                w,
                who: host::Who::Npc(i as u32),
                bb,
                tree: inst.tree,
                granting: None,
                running: [(0, 0); host::MAX_NESTING],
                nesting: 0,
                trace: self.tracing.then_some(&mut self.trace),
                probe: probe.as_deref_mut(),
                stop: false,
            };
            if !alive {
                bt::halt(tree, &mut inst, &mut h, 0);
                let stopped = h.stop;
                let bb = std::mem::take(&mut h.bb);
                let npc = &mut w.npcs[i];
                npc.instance = inst;
                npc.blackboard = bb;
                if stopped {
                    return false;
                }
                continue;
            }
            let out = bt::tick_tree(tree, &mut inst, &mut h, p.visit_budget);
            if let Some(node) = out.runaway {
                let (tid, nid) = p.node_origin(inst.tree, node);
                let (tid, nid) = (tid.to_string(), nid.to_string());
                let tick = h.w.tick;
                h.emit(TraceEvent::Runaway {
                    tick,
                    npc: i as u32,
                    tree: inst.tree,
                    node: node as u32,
                });
                if self.runaway_reported.len() <= i {
                    self.runaway_reported.resize(i + 1, false);
                }
                if !self.runaway_reported[i] {
                    self.runaway_reported[i] = true;
                    let name = h.w.npc_name(p, i as u32);
                    self.problems.push(format!(
                        "tick {tick}: tree of NPC `{name}` made more than {} node visits in one tick and was cut off at node `{nid}` of tree `{tid}` (a loop that never waits?)",
                        p.visit_budget
                    ));
                }
            }
            let stopped = h.stop;
            let bb = std::mem::take(&mut h.bb);
            let npc = &mut w.npcs[i];
            npc.instance = inst;
            npc.blackboard = bb;
            if out.paused || stopped {
                return false;
            }
            npc.last_status = out.status;
        }
        let mut out = probe::Out {
            trace: self.tracing.then_some(&mut self.trace),
            probe,
            stop: false,
        };
        crate::talk::step(p, w, &mut out);
        if out.stop {
            return false;
        }
        movement(p, w, &mut out);
        if out.stop {
            return false;
        }
        let tick = w.tick;
        w.texts.retain(|&(_, until)| until > tick);
        // Deliver this tick's messages.
        let mut outbox = std::mem::take(&mut w.outbox);
        for (to, inbox, m) in outbox.drain(..) {
            if let EntityId::Npc(n) = to {
                crate::triggers::report(
                    p,
                    &mut w.triggers,
                    crate::triggers::WorldEvent::Received {
                        npc: n,
                        message: m.message,
                    },
                );
            }
            let boxes = match to {
                EntityId::Npc(n) => w.npcs.get_mut(n as usize).map(|n| &mut n.inboxes),
                EntityId::Area(a) => crate::areas::state_mut(w, a).map(|s| &mut s.inboxes),
                _ => None,
            };
            if let Some(boxes) = boxes {
                let slot = match boxes.iter().position(|(s, _)| *s == inbox) {
                    Some(k) => k,
                    None => {
                        boxes.push((inbox, VecDeque::new()));
                        boxes.len() - 1
                    }
                };
                let q = &mut boxes[slot].1;
                if q.len() >= MAX_INBOX {
                    q.pop_front();
                }
                q.push_back(m);
                if let (EntityId::Npc(n), true) = (to, inbox == p.talk.inbox) {
                    w.talk.note_mail(n);
                }
            }
        }
        w.outbox = outbox;
        true
    }

    /// Runs a trigger pass now, without advancing time: what scripted changes (tools, the
    /// `townsfolk triggers` command) use so that triggers react to them at once.
    pub fn run_triggers(&mut self) {
        let mut out = probe::Out {
            trace: self.tracing.then_some(&mut self.trace),
            probe: None,
            stop: false,
        };
        crate::triggers::pass(&self.program, &mut self.world, &mut out, &mut self.problems);
    }

    /// The world, for scripted changes (tools and tests). Changes that triggers should see
    /// go through `crate::triggers::script`.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Runs `n` ticks.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }

    /// A hash of the complete world state: the same on every run and machine for the same
    /// pack, seed and tick.
    pub fn hash(&self) -> u64 {
        hash::world_hash(&self.world)
    }
}

static EMPTY_TREE: bt::Tree = bt::Tree {
    id: String::new(),
    nodes: Vec::new(),
    children: Vec::new(),
};

fn clock(p: &Program, w: &mut World) {
    let secs = p.start_hour * 3600.0 + w.tick as f64 * p.dt * p.time_scale;
    let days = (secs / 86_400.0).floor();
    w.day = p.start_day.saturating_add(days as i64);
    w.hour = (secs - days * 86_400.0) / 3600.0;
}

/// Moves every walking NPC one step: seek the target, steer around static obstacles, stay
/// in bounds. Only `+ - * / sqrt`, so results are identical on every IEEE-754 machine.
fn movement(p: &Program, w: &mut World, out: &mut probe::Out) {
    let b = p.bounds;
    let mut moved = std::mem::take(&mut w.moved);
    moved.clear();
    moved.resize(w.npcs.len(), false);
    #[allow(clippy::needless_range_loop)] // `i` indexes several parallel arrays.
    for i in 0..w.npcs.len() {
        let Some(target) = w.npcs[i].target else {
            continue;
        };
        if !w.npcs[i].alive() {
            continue;
        }
        let pos = w.pos[i];
        let to = target - pos;
        let d = to.length();
        let speed = p.npcs[w.npcs[i].proto as usize].speed;
        if d < 1e-9 || speed <= 0.0 {
            continue;
        }
        let mut dir = to * (1.0 / d);
        for o in &p.objects {
            if o.radius <= 0.0 {
                continue;
            }
            let off = pos - o.pos;
            let dist = off.length();
            let clear = o.radius + NPC_RADIUS;
            let ahead = (o.pos.x - pos.x) * dir.x + (o.pos.y - pos.y) * dir.y;
            // Obstacles behind, beyond the target, or that are the target are not avoided.
            let is_goal = target.distance(o.pos) <= clear + 0.5;
            if dist > 1e-9 && dist < clear + 1.0 && ahead > 0.0 && ahead < d && !is_goal {
                let weight = (clear + 1.0 - dist) * 1.5;
                // Sidestep: perpendicular to the way to the obstacle, on the target's side.
                let side = Vec2::new(-off.y, off.x) * (1.0 / dist);
                let s = if side.x * to.x + side.y * to.y >= 0.0 {
                    1.0
                } else {
                    -1.0
                };
                dir = dir + (off * (1.0 / dist) + side * s) * weight;
            }
        }
        let len = dir.length();
        if len < 1e-9 {
            continue;
        }
        let step = (speed * p.dt).min(d);
        let mut np = pos + dir * (step / len);
        for o in &p.objects {
            if o.radius <= 0.0 {
                continue;
            }
            let off = np - o.pos;
            let dist = off.length();
            let clear = o.radius + NPC_RADIUS;
            if dist < clear && dist > 1e-9 {
                np = o.pos + off * (clear / dist);
            }
        }
        np.x = np.x.clamp(b.min.x, b.max.x);
        np.y = np.y.clamp(b.min.y, b.max.y);
        w.pos[i] = np;
        crate::triggers::moved(p, &mut w.triggers, i as u32);
        moved[i] = true;
    }
    // Areas entered and left (every NPC when dynamic areas came or went).
    let all = std::mem::replace(&mut w.areas_changed, false);
    for (i, &m) in moved.iter().enumerate() {
        if all || m {
            crate::areas::update_membership(p, w, i as u32, out);
            if out.stop {
                break;
            }
        }
    }
    w.moved = moved;
}

#[cfg(test)]
mod tests;
