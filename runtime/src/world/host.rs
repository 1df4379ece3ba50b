//! The world as seen by one NPC's tree while it ticks.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::probe::{self, DebugEvent, Probe};
use super::{MAX_INBOX, Message, Npc, Program, TraceEvent};
use crate::bt::{ExprId, Host, Recipient, Status, Target, VarRef};
use crate::expr::{Env, Scope};
use crate::value::{EntityId, Sym, Value, Vec2};

pub(super) struct NpcHost<'a, 'p> {
    pub p: &'a Program,
    pub me: u32,
    pub npc: &'a mut Npc,
    pub pos: &'a [Vec2],
    pub flags: &'a mut Vec<bool>,
    pub counters: &'a mut Vec<i64>,
    pub area_vars: &'a [Vec<Value>],
    pub rng: &'a mut ChaCha8Rng,
    pub outbox: &'a mut Vec<(u32, Sym, Message)>,
    pub tick: u64,
    pub hour: f64,
    pub day: i64,
    pub trace: Option<&'a mut Vec<super::TraceEvent>>,
    pub tree: u32,
    /// A debugger watching this tick, and whether it asked to pause.
    pub probe: Option<&'a mut (dyn Probe + 'p)>,
    pub stop: bool,
    /// The conversation layer, for `converse` nodes.
    pub talk: &'a mut crate::talk::TalkState,
}

impl NpcHost<'_, '_> {
    fn position_of(&self, e: EntityId) -> Option<Vec2> {
        probe::position_of(self.p, self.pos, e)
    }
    pub(super) fn emit(&mut self, ev: TraceEvent) {
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(ev);
        }
        self.probe_event(&DebugEvent::Trace(&ev));
    }
    /// Shows an event to the debugger, if one watches; it may ask to pause.
    fn probe_event(&mut self, ev: &DebugEvent<'_>) {
        if let Some(probe) = self.probe.take() {
            if probe.event(ev, Some(&*self)) {
                self.stop = true;
            }
            self.probe = Some(probe);
        }
    }
}

impl Env for NpcHost<'_, '_> {
    #[inline]
    fn var(&self, scope: Scope, slot: u32) -> Value {
        probe::read_var(
            self.p,
            (self.flags, self.counters, self.area_vars),
            &self.npc.blackboard,
            self.npc.area,
            scope,
            slot,
        )
    }
    fn self_entity(&self) -> EntityId {
        EntityId::Npc(self.me)
    }
    fn position(&self, e: EntityId) -> Option<Vec2> {
        self.position_of(e)
    }
    fn hour(&self) -> f64 {
        self.hour
    }
    fn day(&self) -> i64 {
        self.day
    }
    fn has_tag(&self, e: EntityId, tag: Sym) -> bool {
        probe::has_tag(self.p, e, tag)
    }
}

impl Host for NpcHost<'_, '_> {
    #[inline]
    fn now(&self) -> u64 {
        self.tick
    }
    #[inline]
    fn eval_bool(&mut self, expr: ExprId) -> bool {
        let p = self.p;
        match p.exprs.get(expr as usize) {
            Some(e) => e.eval_bool(self),
            None => false,
        }
    }
    fn random(&mut self) -> f64 {
        self.rng.random::<f64>()
    }
    fn in_area(&self, area: u32) -> bool {
        match self.p.areas.get(area as usize) {
            Some(a) => a.contains(self.pos[self.me as usize]),
            None => false,
        }
    }
    fn hour(&self) -> f64 {
        self.hour
    }
    fn has_message(&self, inbox: Sym, message: Option<Sym>) -> bool {
        self.npc
            .inboxes
            .iter()
            .find(|(s, _)| *s == inbox)
            .is_some_and(|(_, q)| match message {
                None => !q.is_empty(),
                Some(m) => q.iter().any(|x| x.message == m),
            })
    }
    fn move_to(&mut self, target: Target, tolerance: f64) -> Status {
        let (goal, extra) = match target {
            Target::Point(p) => (Some(p), 0.0),
            Target::Object(o) => match self.p.objects.get(o as usize) {
                Some(ob) => (Some(ob.pos), ob.radius + super::NPC_RADIUS),
                None => (None, 0.0),
            },
            Target::Area(a) => (self.position_of(EntityId::Area(a)), 0.0),
            Target::Npc(n) => (self.position_of(EntityId::Npc(n)), 2.0 * super::NPC_RADIUS),
            Target::Var(slot) => match self.npc.blackboard.get(slot as usize) {
                Some(Value::Vec2(v)) => (Some(*v), 0.0),
                Some(Value::Entity(e)) => (self.position_of(*e), 2.0 * super::NPC_RADIUS),
                _ => (None, 0.0),
            },
        };
        let Some(mut goal) = goal else {
            return Status::Failure;
        };
        let b = self.p.bounds;
        goal.x = goal.x.clamp(b.min.x, b.max.x);
        goal.y = goal.y.clamp(b.min.y, b.max.y);
        if self.pos[self.me as usize].distance(goal) <= tolerance + extra {
            Status::Success
        } else {
            self.npc.target = Some(goal);
            Status::Running
        }
    }
    fn stop_moving(&mut self) {
        self.npc.target = None;
    }
    fn set(&mut self, var: VarRef, value: ExprId) {
        let p = self.p;
        let Some(e) = p.exprs.get(value as usize) else {
            return;
        };
        let v = e.eval(self);
        match var {
            VarRef::Blackboard(s) => {
                if let Some(cell) = self.npc.blackboard.get_mut(s as usize) {
                    let old = *cell;
                    // Ints assigned to float variables are widened.
                    *cell = match (old, v) {
                        (Value::Float(_), Value::Int(i)) => Value::Float(i as f64),
                        _ => v,
                    };
                    let new = *cell;
                    if self.probe.is_some() && old != new {
                        let npc = self.me;
                        self.probe_event(&DebugEvent::VarChanged {
                            npc,
                            slot: s,
                            old,
                            new,
                        });
                    }
                }
            }
            VarRef::Flag(s) => {
                let b = v.as_bool();
                if let Some(cell) = self.flags.get_mut(s as usize)
                    && *cell != b
                {
                    *cell = b;
                    let tick = self.tick;
                    self.emit(TraceEvent::Flag {
                        tick,
                        name: s,
                        value: b,
                    });
                }
            }
            VarRef::Counter(s) => {
                let c = v.as_i64();
                if let Some(cell) = self.counters.get_mut(s as usize)
                    && *cell != c
                {
                    *cell = c;
                    let tick = self.tick;
                    self.emit(TraceEvent::Counter {
                        tick,
                        name: s,
                        value: c,
                    });
                }
            }
        }
    }
    fn send(&mut self, to: Recipient, inbox: Sym, message: Sym) -> bool {
        let to = match to {
            Recipient::SelfNpc => Some(self.me),
            Recipient::Npc(n) => Some(n),
            Recipient::Var(slot) => match self.npc.blackboard.get(slot as usize) {
                Some(Value::Entity(EntityId::Npc(n))) => Some(*n),
                _ => None,
            },
        };
        let Some(to) = to.filter(|&t| (t as usize) < self.pos.len()) else {
            return false;
        };
        if self.outbox.len() >= MAX_INBOX * 16 {
            return false;
        }
        let m = Message {
            from: EntityId::Npc(self.me),
            message,
            sent: self.tick,
        };
        self.outbox.push((to, inbox, m));
        let tick = self.tick;
        let from = self.me;
        self.emit(TraceEvent::Message {
            tick,
            from,
            to,
            inbox,
            message,
        });
        true
    }
    fn receive(&mut self, inbox: Sym, message: Option<Sym>, sender_slot: Option<u32>) -> bool {
        let Some((_, q)) = self.npc.inboxes.iter_mut().find(|(s, _)| *s == inbox) else {
            return false;
        };
        let k = match message {
            None => (!q.is_empty()).then_some(0),
            Some(m) => q.iter().position(|x| x.message == m),
        };
        let Some(m) = k.and_then(|k| q.remove(k)) else {
            return false;
        };
        if let Some(slot) = sender_slot
            && let Some(cell) = self.npc.blackboard.get_mut(slot as usize)
        {
            let old = *cell;
            *cell = Value::Entity(m.from);
            if self.probe.is_some() && old != *cell {
                let (npc, new) = (self.me, *cell);
                self.probe_event(&DebugEvent::VarChanged {
                    npc,
                    slot,
                    old,
                    new,
                });
            }
        }
        true
    }
    fn show(&mut self, say: bool, what: Sym) {
        self.npc.show = Some((say, what));
        let (tick, npc) = (self.tick, self.me);
        self.emit(if say {
            TraceEvent::Say {
                tick,
                npc,
                text: what,
            }
        } else {
            TraceEvent::Animate {
                tick,
                npc,
                animation: what,
            }
        });
    }
    fn clear_show(&mut self) {
        self.npc.show = None;
    }
    fn log(&mut self, text: Sym) {
        let (tick, npc) = (self.tick, self.me);
        self.emit(TraceEvent::Log { tick, npc, text });
    }
    fn request(&mut self, _node: usize) -> Status {
        // Smart areas give request nodes their behavior in a later version of the runtime.
        Status::Failure
    }
    #[inline]
    fn observing(&self) -> bool {
        self.trace.is_some() || self.probe.is_some()
    }
    fn on_enter(&mut self, node: usize) {
        if self.probe.is_some() {
            let (npc, tree) = (self.me, self.tree);
            self.probe_event(&DebugEvent::Enter {
                npc,
                tree,
                node: node as u32,
            });
        }
    }
    fn on_result(&mut self, node: usize, from: Status, to: Status) {
        let (tick, npc, tree) = (self.tick, self.me, self.tree);
        if from != to
            && let Some(t) = self.trace.as_deref_mut()
        {
            t.push(TraceEvent::Status {
                tick,
                npc,
                tree,
                node: node as u32,
                from,
                to,
            });
        }
        if self.probe.is_some() {
            self.probe_event(&DebugEvent::Result {
                npc,
                tree,
                node: node as u32,
                from,
                to,
            });
        }
    }
    #[inline]
    fn stop_requested(&self) -> bool {
        self.stop
    }
    fn converse(&mut self, cast: u32, on: bool) -> bool {
        if (cast as usize) >= self.p.talk.casts.len() {
            return false;
        }
        self.talk.hand_over(self.me, cast, on);
        true
    }
}
