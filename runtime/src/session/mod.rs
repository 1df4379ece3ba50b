//! A running simulation of one pack: [`Session`] owns the [`World`] (all mutable state,
//! `Clone` for snapshots), shares the read-only [`Program`], records the trace, and runs a
//! tick as one visible list of phase calls (`step_with`): clock, triggers, story events,
//! smart-area brains and handlers, NPC trees (with the behaviors they adopted),
//! conversations, movement, area membership, message delivery.

#[cfg(test)]
mod tests;

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::pack::{Diagnostic, Pack};
use crate::program::Program;
use crate::systems::{areas, clock, mail, movement, story, talk, trees, triggers};
use crate::trace::{Counters, Out, Probe, TraceEvent};
use crate::value::Value;
use crate::world::minds::Minds;
use crate::world::story::Story;
use crate::world::talk::TalkState;
use crate::world::triggers::TriggerState;
use crate::world::{Npc, ObjectState, World};

/// A running simulation of one pack.
#[derive(Clone, Debug)]
pub struct Session {
    program: Arc<Program>,
    world: World,
    seed: u64,
    tracing: bool,
    trace: Vec<TraceEvent>,
    /// Coverage counters, while counting (see [`Session::set_counting`]).
    counters: Option<Counters>,
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
        let mut world = World {
            tick: 0,
            hour: 0.0,
            day: 0,
            pos: Vec::with_capacity(p.npcs.len()),
            npcs: Vec::with_capacity(p.npcs.len()),
            minds: Minds::new(p.blackboard.defaults.len()),
            flags: p.flags.defaults.iter().map(|v| v.as_bool()).collect(),
            counters: p.counters.defaults.iter().map(|v| v.as_i64()).collect(),
            area_vars: p.areas.iter().map(|a| a.vars.clone()).collect(),
            areas: crate::world::areas::initial_states(p),
            dyn_areas: Vec::new(),
            dyn_serial: 0,
            areas_changed: false,
            scratch: Vec::new(),
            moved: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            outbox: Vec::new(),
            texts: Vec::new(),
            story: p.events.world_scenario.and_then(|s| Story::new(p, s)),
            talk: TalkState::new(p.npcs.len()),
            objects: p
                .objects
                .iter()
                .map(|o| ObjectState {
                    open: o.open,
                    locked: o.locked,
                    state: o.state,
                })
                .collect(),
            triggers: TriggerState::new(p),
            nav: Default::default(),
            walkers: Default::default(),
            live: Default::default(),
            shifted: Default::default(),
            in_areas: Default::default(),
        };
        for (i, info) in p.npcs.iter().enumerate() {
            world.push_npc(p, Npc::new(p, i as u32), info.pos);
        }
        let n = world.npcs.len();
        clock::clock(p, &mut world);
        // Tick 0, where everyone starts: NPCs inside an area enter it (`enter` traced, the
        // triggers hear it in the first pass) and their OnEnter handlers run, at tick 0. What
        // it reports is kept for a trace turned on before the first step.
        let mut start = Vec::new();
        let mut out = Out {
            trace: Some(&mut start),
            probe: None,
            counts: None,
            stop: false,
        };
        areas::start(p, &mut world, &mut out);
        Session {
            program,
            world,
            seed,
            tracing: false,
            trace: start,
            counters: None,
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
    /// Records trace events from now on (or stops). Turned on before the first step, the
    /// trace also has what happened at tick 0 (NPCs entering the areas they start in, their
    /// OnEnter handlers); the first step without tracing forgets it.
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
    /// Counts coverage from now on, from zero (or stops and forgets the counts): every
    /// behavior-tree node's runs and outcomes, and the trace events coverage counts, without
    /// recording a trace or calling a probe (see [`Counters`]). What tick 0 did is in the
    /// trace kept from the start, not in the counters.
    pub fn set_counting(&mut self, on: bool) {
        self.counters = on.then(|| Counters::new(&self.program));
    }
    /// The coverage counters, while counting.
    pub fn counters(&self) -> Option<&Counters> {
        self.counters.as_ref()
    }
    /// The coverage counters, while counting (to take the counted events).
    pub fn counters_mut(&mut self) -> Option<&mut Counters> {
        self.counters.as_mut()
    }
    /// One trace event as a JSON line (without newline).
    pub fn trace_json(&self, ev: &TraceEvent) -> String {
        crate::trace::to_json(&self.program, &self.world, ev)
    }
    /// Sets an NPC's blackboard slot (tools and benchmarks). Ignores out-of-range indices.
    #[inline]
    pub fn set_var(&mut self, npc: usize, slot: usize, v: Value) {
        self.world.minds.set(npc, slot, v);
    }

    /// Sets a world flag (tests).
    #[cfg(test)]
    pub(crate) fn set_flag_for_test(&mut self, flag: usize, v: bool) {
        self.world.flags[flag] = v;
    }

    /// Runs one fixed-step tick.
    pub fn step(&mut self) {
        self.step_with(None, None);
    }

    /// Runs one tick while a probe watches every event; returns false if the probe paused
    /// it. A paused tick is left half done (the world is then only for looking at): a
    /// debugger re-runs the tick from a snapshot of its start to go on.
    pub fn step_probed(&mut self, probe: &mut dyn Probe) -> bool {
        self.step_with(Some(probe), None)
    }

    /// The bytes a clone of this session takes: itself, its world's heap
    /// ([`World::heap_bytes`]), the trace and problems not taken yet (the program is shared;
    /// coverage counters, which a debugged session does not keep, are not counted).
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of::<Session>()
            + self.world.heap_bytes()
            + std::mem::size_of_val(self.trace.as_slice())
            + std::mem::size_of_val(self.runaway_reported.as_slice())
            + std::mem::size_of_val(self.problems.as_slice())
            + self.problems.iter().map(String::len).sum::<usize>()
    }

    /// Runs one tick and adds the wall time of each phase to `times` (benchmarks: where a
    /// tick's time goes). The tick is the same as [`Session::step`]'s.
    pub fn step_timed(&mut self, times: &mut PhaseTimes) {
        self.step_with(None, Some(times));
    }

    fn step_with(
        &mut self,
        probe: Option<&mut (dyn Probe + '_)>,
        times: Option<&mut PhaseTimes>,
    ) -> bool {
        if self.world.tick == 0 && !self.tracing {
            self.trace.clear();
        }
        let p: &Program = &self.program;
        let w = &mut self.world;
        let mut out = Out {
            trace: self.tracing.then_some(&mut self.trace),
            probe,
            counts: self.counters.as_mut().map(Counters::counting),
            stop: false,
        };
        let mut lap = Lap::new(times);
        // The tick order (SPEC §6), one phase after the other; a phase that the probe paused
        // leaves the tick half done.
        w.tick += 1;
        clock::clock(p, w);
        lap.end(Phase::Clock);
        if !p.triggers.is_empty() {
            triggers::pass(p, w, &mut out, &mut self.problems);
            out.scope(None);
            if out.stop {
                return false;
            }
        }
        lap.end(Phase::Triggers);
        story::tick(p, w, &mut out);
        out.scope(None);
        if out.stop {
            return false;
        }
        lap.end(Phase::Story);
        areas::tick_areas(p, w, &mut out);
        out.scope(None);
        if out.stop {
            return false;
        }
        lap.end(Phase::Areas);
        trees::tick_npcs(
            p,
            w,
            &mut out,
            &mut self.runaway_reported,
            &mut self.problems,
        );
        out.scope(None);
        if out.stop {
            return false;
        }
        lap.end(Phase::Trees);
        talk::step(p, w, &mut out);
        out.scope(None);
        if out.stop {
            return false;
        }
        lap.end(Phase::Talk);
        movement::movement(p, w, &mut out);
        areas::membership(p, w, &mut out);
        out.scope(None);
        if out.stop {
            return false;
        }
        lap.end(Phase::Movement);
        let tick = w.tick;
        w.texts.retain(|&(_, until)| until > tick);
        mail::deliver(p, w, &mut out);
        lap.end(Phase::Mail);
        !out.stop
    }

    /// Runs a trigger pass now, without advancing time: what scripted changes (tools, the
    /// `townsfolk triggers` command) use so that triggers react to them at once.
    pub fn run_triggers(&mut self) {
        let mut out = Out {
            trace: self.tracing.then_some(&mut self.trace),
            probe: None,
            counts: self.counters.as_mut().map(Counters::counting),
            stop: false,
        };
        triggers::pass(&self.program, &mut self.world, &mut out, &mut self.problems);
    }

    /// Makes a scripted change (tools) through the world's one event stream: `f` gets the
    /// program, the world and an [`Out`] that records into this session's trace when it is
    /// tracing, so that what the change reports reaches the trace as well as the triggers.
    pub fn change<R>(&mut self, f: impl FnOnce(&Program, &mut World, &mut Out) -> R) -> R {
        let mut out = Out {
            trace: self.tracing.then_some(&mut self.trace),
            probe: None,
            counts: self.counters.as_mut().map(Counters::counting),
            stop: false,
        };
        f(&self.program, &mut self.world, &mut out)
    }

    /// The world, for scripted changes (tools and tests). Changes that triggers should see
    /// go through `tools::triggers` (and [`Session::change`]).
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
        crate::world::hash::world_hash(&self.world)
    }
}

/// The phases of a tick, in their order (see `Session::step_with`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Clock,
    Triggers,
    Story,
    Areas,
    Trees,
    Talk,
    /// Movement and area membership.
    Movement,
    /// Message delivery (and the end of shown texts).
    Mail,
}

impl Phase {
    pub const ALL: [Phase; 8] = [
        Phase::Clock,
        Phase::Triggers,
        Phase::Story,
        Phase::Areas,
        Phase::Trees,
        Phase::Talk,
        Phase::Movement,
        Phase::Mail,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Clock => "clock",
            Phase::Triggers => "triggers",
            Phase::Story => "story",
            Phase::Areas => "areas",
            Phase::Trees => "trees",
            Phase::Talk => "talk",
            Phase::Movement => "movement",
            Phase::Mail => "mail",
        }
    }
}

/// Wall time spent in each phase over the ticks run by [`Session::step_timed`].
#[derive(Clone, Debug, Default)]
pub struct PhaseTimes {
    pub total: [std::time::Duration; 8],
}

impl PhaseTimes {
    pub fn of(&self, phase: Phase) -> std::time::Duration {
        self.total[phase as usize]
    }
}

/// Times the phases of one tick when asked to (no clock read otherwise).
struct Lap<'a> {
    times: Option<(&'a mut PhaseTimes, std::time::Instant)>,
}

impl<'a> Lap<'a> {
    fn new(times: Option<&'a mut PhaseTimes>) -> Self {
        Lap {
            times: times.map(|t| (t, std::time::Instant::now())),
        }
    }

    fn end(&mut self, phase: Phase) {
        if let Some((t, since)) = &mut self.times {
            let now = std::time::Instant::now();
            t.total[phase as usize] += now - *since;
            *since = now;
        }
    }
}
