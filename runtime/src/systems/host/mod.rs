//! The world as seen by a tree while it ticks: an NPC's own tree and the behaviors it adopted,
//! or an area's brain and handler trees.

use rand::RngExt;

pub mod request;

use crate::bt::{self, AreaAction, ExprId, Host, Instance, Recipient, Status, Target, VarRef};
use crate::expr::{Env, Scope};
use crate::pack::ChildChoice;
use crate::program::Program;
use crate::systems::effects::{self, areas as area_fx};
use crate::trace::{self, Actor, Counting, DebugEvent, Out, Probe, TraceEvent};
use crate::value::{EntityId, Sym, Value, Vec2};
use crate::world::areas;
use crate::world::{Message, Npc, World, WorldEnv};

/// An emitter (trace + probe + counters) for world-level code called from a host, borrowing
/// only those fields so the world stays free to borrow.
macro_rules! out {
    ($h:ident) => {
        Out {
            trace: $h.trace.as_deref_mut(),
            probe: $h.probe.as_deref_mut(),
            counts: $h.counts.as_mut().map(Counting::reborrow),
            stop: false,
        }
    };
}

/// Adopted behaviors may themselves request behaviors, this deep at most.
pub(crate) const MAX_NESTING: usize = 8;

/// Who runs the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    Npc(u32),
    /// An area's brain (`subject: None`) or handler (the NPC the event is about).
    Area {
        id: u32,
        subject: Option<u32>,
    },
}

pub(crate) struct ActorHost<'a, 'p> {
    pub p: &'a Program,
    pub w: &'a mut World,
    pub who: Who,
    /// An NPC's own blackboard in the world's arrays: its first slot and slot count
    /// (`Minds::slots`); no slots for an area's host.
    pub bb_at: usize,
    pub bb_len: usize,
    /// The compiled tree being ticked (the NPC's, an adopted behavior's, a brain's, …).
    pub tree: u32,
    /// While an adopted behavior ticks: the area that granted it.
    pub granting: Option<u32>,
    /// The (area, template) of the adopted behaviors being ticked, outermost first: a request
    /// inside a behavior never adopts one of these again (no endless grafting).
    pub running: [(u32, u32); MAX_NESTING],
    pub nesting: usize,
    /// Depth of the root of the tree being ticked in what the actor runs: 0, or for an
    /// adopted behavior one more than the depth of the request node it is grafted under.
    pub base: u16,
    pub trace: Option<&'a mut Vec<TraceEvent>>,
    /// A debugger watching this tick, and whether it asked to pause.
    pub probe: Option<&'a mut (dyn Probe + 'p)>,
    pub stop: bool,
    /// Coverage counters, when counting: the engine counts node visits into them
    /// ([`Self::tick`]), the counted events are kept in them.
    pub counts: Option<Counting<'a>>,
}

impl ActorHost<'_, '_> {
    /// Ticks compiled tree `index` (`tree`) once through this host, counting its node visits
    /// when counting.
    #[inline]
    pub(crate) fn tick(
        &mut self,
        index: u32,
        tree: &bt::Tree,
        inst: &mut Instance,
    ) -> bt::TickOutcome {
        self.tick_nodes(index, tree, &mut inst.state, &mut inst.status)
    }

    /// [`Self::tick`] on a tree state held elsewhere (an NPC's, in the world's arrays).
    #[inline]
    pub(crate) fn tick_nodes(
        &mut self,
        index: u32,
        tree: &bt::Tree,
        state: &mut [u64],
        status: &mut [Status],
    ) -> bt::TickOutcome {
        let budget = self.p.visit_budget;
        let counts = self.counts.as_ref().map(|c| c.nodes.tree(index));
        bt::tick_nodes(tree, state, status, self, budget, counts)
    }
    fn me(&self) -> Option<u32> {
        match self.who {
            Who::Npc(n) => Some(n),
            Who::Area { .. } => None,
        }
    }
    /// The NPC the tree is about: the NPC itself, or a handler's subject.
    fn npc_about(&self) -> u32 {
        match self.who {
            Who::Npc(n) => n,
            Who::Area { subject, .. } => subject.unwrap_or(u32::MAX),
        }
    }
    fn npc_mut(&mut self) -> Option<&mut Npc> {
        let n = self.me()?;
        self.w.npcs.get_mut(n as usize)
    }
    /// The world as this tree reads it: every world read (positions, tags, health,
    /// variables, areas, holders) goes through the one reader, [`WorldEnv`], for the NPC the
    /// tree is about.
    #[inline]
    fn world(&self) -> WorldEnv<'_> {
        WorldEnv {
            program: self.p,
            world: &*self.w,
            npc: self.npc_about(),
        }
    }
    fn position_of(&self, e: EntityId) -> Option<Vec2> {
        self.world().position(e)
    }
    /// Variables other than an NPC's own blackboard (the hot read, [`Env::var`]): a
    /// handler's subject's blackboard (an area brain has none: defaults), area variables,
    /// flags, counters.
    #[inline(never)]
    fn var_slow(&self, scope: Scope, slot: u32) -> Value {
        match (scope, self.who) {
            (Scope::Blackboard, Who::Npc(n)) => self.world().blackboard_of(Some(n), slot),
            (Scope::Blackboard, Who::Area { subject, .. }) => {
                self.world().blackboard_of(subject, slot)
            }
            (scope, _) => self.world().world_var(self.current_area(), scope, slot),
        }
    }
    /// The area `area.NAME` refers to, and that `area` messages go to.
    fn current_area(&self) -> Option<u32> {
        match self.who {
            Who::Npc(n) => self.world().area_of(n),
            Who::Area { id, .. } => Some(id),
        }
    }
    /// The area area actions act on: the one that granted the running behavior, the area
    /// itself, or the NPC's innermost area.
    fn acting_area(&self) -> Option<u32> {
        match self.who {
            Who::Area { id, .. } => Some(id),
            Who::Npc(_) => self.granting.or(self.current_area()),
        }
    }
    pub(super) fn emit(&mut self, ev: TraceEvent) {
        if self.stop {
            return;
        }
        self.probe_event(&DebugEvent::Trace(&ev));
        trace::keep(self.trace.as_deref_mut(), self.counts.as_mut(), ev);
    }
    /// Shows an event to the debugger, if one watches; it may ask to pause.
    /// A node's depth in what the actor runs: its depth in the tree being ticked plus the
    /// depth of the request node an adopted behavior is grafted under (see `base`).
    fn depth_of(&self, node: usize) -> u16 {
        let d = self
            .p
            .trees
            .get(self.tree as usize)
            .and_then(|t| t.nodes.get(node))
            .map_or(0, |n| n.depth);
        self.base.saturating_add(d)
    }
    /// Tells the probe whose code runs now.
    fn scope(&mut self, actor: Option<Actor>) {
        if let Some(probe) = self.probe.as_deref_mut() {
            probe.scope(actor);
        }
    }
    fn probe_event(&mut self, ev: &DebugEvent<'_>) {
        if self.stop {
            return;
        }
        if let Some(probe) = self.probe.take() {
            if probe.event(ev, Some(&*self)) {
                self.stop = true;
            }
            self.probe = Some(probe);
        }
    }
    fn inbox_mut(&mut self) -> Option<&mut Vec<(Sym, std::collections::VecDeque<Message>)>> {
        match self.who {
            Who::Npc(n) => self.w.npcs.get_mut(n as usize).map(|x| &mut x.inboxes),
            Who::Area { id, .. } => areas::state_mut(self.w, id).map(|s| &mut s.inboxes),
        }
    }
    /// The NPC whose `talk` inbox `inbox` is, when the conversation layer keeps it (see
    /// `effects::deliver`).
    fn talk_inbox(&self, inbox: Sym) -> Option<u32> {
        match self.who {
            Who::Npc(n) => self
                .w
                .talk
                .kept_inbox(self.p.talk.inbox, EntityId::Npc(n), inbox),
            Who::Area { .. } => None,
        }
    }
    fn inboxes(&self) -> Option<&Vec<(Sym, std::collections::VecDeque<Message>)>> {
        match self.who {
            Who::Npc(n) => self.w.npcs.get(n as usize).map(|x| &x.inboxes),
            Who::Area { id, .. } => areas::state(self.w, id).map(|s| &s.inboxes),
        }
    }
    fn self_id(&self) -> EntityId {
        match self.who {
            Who::Npc(n) => EntityId::Npc(n),
            Who::Area { id, .. } => EntityId::Area(id),
        }
    }
    fn write_bb(&mut self, slot: u32, v: Value) {
        self.assign_bb(slot, |_| v);
    }
    /// Writes `to(old)` into blackboard slot `slot` of the NPC this host acts for (nothing
    /// when there is none or no such slot), reporting a change to the probe.
    #[inline(always)]
    fn assign_bb(&mut self, slot: u32, to: impl FnOnce(Value) -> Value) {
        let npc = match self.who {
            Who::Npc(n) => n,
            Who::Area {
                subject: Some(s), ..
            } => s,
            Who::Area { subject: None, .. } => return,
        };
        let Some(cell) = self.w.minds.bb_mut(npc as usize).get_mut(slot as usize) else {
            return;
        };
        let old = *cell;
        let new = to(old);
        *cell = new;
        if self.probe.is_some() && old != new {
            self.probe_event(&DebugEvent::VarChanged {
                npc,
                slot,
                old,
                new,
            });
        }
    }

    /// Ticks the behavior tag `k` of this NPC (its grafted subtree); applies the drop policy
    /// when it ends.
    fn tick_tag(&mut self, npc: u32, k: usize) -> Status {
        let p = self.p;
        let (tree_idx, area, template, key) = {
            let t = &self.w.npcs[npc as usize].tags[k];
            (t.tree, t.area, t.template, t.node)
        };
        let Some(tree) = p.trees.get(tree_idx as usize) else {
            return Status::Failure;
        };
        if self.nesting >= MAX_NESTING {
            return Status::Failure;
        }
        let mut inst = std::mem::replace(
            &mut self.w.npcs[npc as usize].tags[k].instance,
            Instance::empty(),
        );
        let (outer_tree, outer_granting, outer_base) = (self.tree, self.granting, self.base);
        // The tag's key holds the request node's index (low half) in the outer tree.
        let request_depth = p
            .trees
            .get(outer_tree as usize)
            .and_then(|t| t.nodes.get((key & 0xffff_ffff) as usize))
            .map_or(0, |n| n.depth);
        self.base = outer_base.saturating_add(request_depth).saturating_add(1);
        self.tree = tree_idx;
        self.granting = Some(area);
        self.running[self.nesting] = (area, template);
        self.nesting += 1;
        let out = self.tick(tree_idx, tree, &mut inst);
        self.nesting -= 1;
        self.tree = outer_tree;
        self.granting = outer_granting;
        self.base = outer_base;
        // Nested requests may have added or dropped other tags: find this one again.
        let Some(k) = self.w.npcs[npc as usize]
            .tags
            .iter()
            .position(|t| t.node == key)
        else {
            return Status::Failure;
        };
        self.w.npcs[npc as usize].tags[k].instance = inst;
        if out.paused || self.stop {
            return Status::Running;
        }
        if out.status != Status::Running {
            let mut o = out!(self);
            request::after_end(p, self.w, npc, k, out.status, &mut o);
            self.stop |= o.stop;
        }
        out.status
    }
}

impl Env for ActorHost<'_, '_> {
    #[inline(always)]
    fn var(&self, scope: Scope, slot: u32) -> Value {
        // The hot path: an NPC reading its own blackboard (an area's host has none: its
        // reads go to `var_slow`).
        if scope == Scope::Blackboard
            && let Some(&v) = Host::board(self).get(slot as usize)
        {
            return v;
        }
        self.var_slow(scope, slot)
    }
    fn self_entity(&self) -> EntityId {
        self.self_id()
    }
    fn position(&self, e: EntityId) -> Option<Vec2> {
        self.position_of(e)
    }
    fn hour(&self) -> f64 {
        self.world().hour()
    }
    fn day(&self) -> i64 {
        self.world().day()
    }
    fn has_tag(&self, e: EntityId, tag: Sym) -> bool {
        self.world().has_tag(e, tag)
    }
    fn health(&self, e: EntityId) -> f64 {
        self.world().health(e)
    }
    fn alive(&self, e: EntityId) -> bool {
        self.world().alive(e)
    }
    fn subject(&self) -> EntityId {
        match self.who {
            Who::Area {
                subject: Some(s), ..
            } => EntityId::Npc(s),
            _ => EntityId::None,
        }
    }
    fn holders(&self, template: Sym) -> i64 {
        match self.acting_area() {
            Some(a) => self.world().holders_in(a, template),
            None => 0,
        }
    }
}

impl Host for ActorHost<'_, '_> {
    #[inline]
    fn now(&self) -> u64 {
        self.w.tick
    }
    #[inline(always)]
    fn eval_bool(&mut self, expr: ExprId) -> bool {
        let p = self.p;
        match p.exprs.get(expr as usize) {
            Some(e) => e.eval_bool(self),
            None => false,
        }
    }
    #[inline(always)]
    fn board(&self) -> &[Value] {
        // The running NPC's blackboard, where `Env::var` reads it (empty for an area's host).
        let at = self.bb_at;
        self.w
            .minds
            .slots()
            .get(at..at + self.bb_len)
            .unwrap_or(&[])
    }
    #[inline(always)]
    fn board_var(&self, slot: usize) -> Option<&Value> {
        // One bound against the stride, one against the array (as `board().get(slot)`).
        if slot < self.bb_len {
            self.w.minds.slots().get(self.bb_at + slot)
        } else {
            None
        }
    }
    fn random(&mut self) -> f64 {
        self.w.rng.random::<f64>()
    }
    fn in_area(&self, area: u32) -> bool {
        self.world().in_area(self.npc_about(), area)
    }
    fn hour(&self) -> f64 {
        self.world().hour()
    }
    fn has_message(&self, inbox: Sym, message: Option<Sym>) -> bool {
        if let Some(n) = self.talk_inbox(inbox) {
            return self.w.talk.find_in_inbox(n, message).is_some();
        }
        self.inboxes()
            .and_then(|ib| ib.iter().find(|(s, _)| *s == inbox))
            .is_some_and(|(_, q)| match message {
                None => !q.is_empty(),
                Some(m) => q.iter().any(|x| x.message == m),
            })
    }
    fn move_to(&mut self, target: Target, tolerance: f64) -> Status {
        let Some(me) = self.me() else {
            return Status::Failure;
        };
        let (goal, extra) = match target {
            Target::Point(p) => (Some(p), 0.0),
            Target::Object(o) => (
                self.position_of(EntityId::Object(o)),
                self.p
                    .objects
                    .get(o as usize)
                    .map_or(0.0, |ob| ob.radius + crate::world::NPC_RADIUS),
            ),
            Target::Area(a) => (self.position_of(EntityId::Area(a)), 0.0),
            Target::Npc(n) => (
                self.position_of(EntityId::Npc(n)),
                2.0 * crate::world::NPC_RADIUS,
            ),
            Target::Var(slot) => match self.w.minds.var(me as usize, slot as usize) {
                Some(Value::Vec2(v)) => (Some(v), 0.0),
                Some(Value::Entity(e)) => (self.position_of(e), 2.0 * crate::world::NPC_RADIUS),
                _ => (None, 0.0),
            },
        };
        let Some(goal) = goal else {
            return Status::Failure;
        };
        walk(self.p, self.w, me, goal, tolerance + extra)
    }
    fn stop_moving(&mut self) {
        if let Some(n) = self.me() {
            self.w.set_target(n, None);
        }
    }
    fn set(&mut self, var: VarRef, value: ExprId) {
        let p = self.p;
        let Some(e) = p.exprs.get(value as usize) else {
            return;
        };
        let v = e.eval(self);
        match var {
            // Ints assigned to float variables are widened.
            VarRef::Blackboard(s) => self.assign_bb(s, |cur| match (cur, v) {
                (Value::Float(_), Value::Int(i)) => Value::Float(i as f64),
                _ => v,
            }),
            VarRef::Flag(s) => {
                if let Some(ev) = effects::write_flag(self.w, s, v.as_bool()) {
                    self.emit(ev);
                }
            }
            VarRef::Counter(s) => {
                if let Some(ev) = effects::write_counter(self.w, s, v.as_i64()) {
                    self.emit(ev);
                }
            }
            VarRef::Area(s) => {
                let Some(a) = self.current_area() else {
                    return;
                };
                let cell = if areas::is_dynamic(a) {
                    self.w
                        .dyn_areas
                        .iter_mut()
                        .find(|d| d.id == a)
                        .and_then(|d| d.vars.get_mut(s as usize))
                } else {
                    self.w
                        .area_vars
                        .get_mut(a as usize)
                        .and_then(|v| v.get_mut(s as usize))
                };
                if let Some(cell) = cell {
                    *cell = match (*cell, v) {
                        (Value::Float(_), Value::Int(i)) => Value::Float(i as f64),
                        _ => v,
                    };
                }
            }
        }
    }
    fn send(&mut self, to: Recipient, inbox: Sym, message: Sym) -> bool {
        let from = self.self_id();
        let to = match to {
            Recipient::SelfNpc => from,
            Recipient::Npc(n) => EntityId::Npc(n),
            Recipient::Var(slot) => match self.var(Scope::Blackboard, slot) {
                Value::Entity(e) => e,
                _ => EntityId::None,
            },
            Recipient::Area(a) => EntityId::Area(a),
            Recipient::CurrentArea => self.current_area().map_or(EntityId::None, EntityId::Area),
            Recipient::Subject => self.subject(),
        };
        match effects::send_message(self.w, from, to, inbox, message) {
            Some(ev) => {
                self.emit(ev);
                true
            }
            None => false,
        }
    }
    fn receive(
        &mut self,
        inbox: Sym,
        message: Option<Sym>,
        sender_slot: Option<u32>,
        take: bool,
    ) -> bool {
        if let Some(n) = self.talk_inbox(inbox) {
            let Some(at) = self.w.talk.find_in_inbox(n, message) else {
                return false;
            };
            let m = if take {
                self.w.talk.take_from_inbox(at)
            } else {
                self.w.talk.post[at].1
            };
            if let Some(slot) = sender_slot {
                self.write_bb(slot, Value::Entity(m.from));
            }
            return true;
        }
        let Some(ib) = self.inbox_mut() else {
            return false;
        };
        let Some((_, q)) = ib.iter_mut().find(|(s, _)| *s == inbox) else {
            return false;
        };
        let k = match message {
            None => (!q.is_empty()).then_some(0),
            Some(m) => q.iter().position(|x| x.message == m),
        };
        let Some(k) = k else {
            return false;
        };
        let m = if take { q.remove(k) } else { q.get(k).copied() };
        if let (Some(m), Some(slot)) = (m, sender_slot) {
            self.write_bb(slot, Value::Entity(m.from));
        }
        m.is_some()
    }
    fn show(&mut self, say: bool, what: Sym) {
        let Some(npc) = self.me() else {
            return;
        };
        if let Some(n) = self.npc_mut() {
            n.show = Some((say, what));
        }
        let tick = self.w.tick;
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
        if let Some(n) = self.npc_mut() {
            n.show = None;
        }
    }
    fn log(&mut self, text: Sym) {
        let (tick, npc) = (self.w.tick, self.npc_about());
        self.emit(TraceEvent::Log { tick, npc, text });
    }
    fn request(&mut self, node: usize, req: u32) -> Status {
        let Some(npc) = self.me() else {
            return Status::Failure;
        };
        let p = self.p;
        // Request nodes inside an adopted behavior are told apart by their tree.
        let key = node as u64 | (u64::from(self.tree) << 32);
        let held = self.w.npcs[npc as usize]
            .tags
            .iter()
            .position(|t| t.node == key);
        if let Some(k) = held
            && !self.w.npcs[npc as usize].tags[k].overridable
        {
            return self.tick_tag(npc, k);
        }
        let Some(r) = p.requests.get(req as usize) else {
            return Status::Failure;
        };
        let explain = self.trace.is_some() || self.probe.is_some() || self.counts.is_some();
        let mut outcome =
            request::choose(p, self.w, npc, r, explain, &self.running[..self.nesting]);
        // Nothing new applies and this node holds an overridable behavior: it is kept.
        outcome.kept = outcome.chosen.is_none() && held.is_some();
        // Not standing in an area of the asked kind is not worth a trace line every tick.
        if explain && (outcome.asked.is_some() || r.area_kind.is_none()) {
            let tick = self.w.tick;
            self.emit(TraceEvent::Request {
                tick,
                npc,
                outcome: Box::new(outcome.clone()),
            });
        }
        match (outcome.chosen, held) {
            (Some((area, ti)), held) => {
                let mut o = out!(self);
                if let Some(k) = held {
                    area_fx::drop_tag(p, self.w, npc, k, "overridden by a new behavior", &mut o);
                }
                request::adopt(p, self.w, npc, key, area, ti, &mut o);
                self.stop |= o.stop;
                let k = self.w.npcs[npc as usize].tags.len() - 1;
                self.tick_tag(npc, k)
            }
            // An overridable behavior is kept (not failed) when nothing new applies.
            (None, Some(k)) => self.tick_tag(npc, k),
            (None, None) => Status::Failure,
        }
    }
    fn halt_request(&mut self, node: usize) {
        let Some(npc) = self.me() else {
            return;
        };
        let key = node as u64 | (u64::from(self.tree) << 32);
        if let Some(k) = self.w.npcs[npc as usize]
            .tags
            .iter()
            .position(|t| t.node == key)
        {
            let p = self.p;
            let mut o = out!(self);
            area_fx::drop_tag(p, self.w, npc, k, "interrupted", &mut o);
            self.stop |= o.stop;
            self.stop_moving();
        }
    }
    fn go_to_child(&mut self, kind: Sym, choose: ChildChoice, chosen: &mut u64) -> Status {
        let (Some(npc), Some(parent)) = (self.me(), self.acting_area()) else {
            return Status::Failure;
        };
        let p = self.p;
        let Some(at) = self.position_of(EntityId::Npc(npc)) else {
            return Status::Failure;
        };
        if *chosen == 0 {
            match request::pick_child(p, self.w, parent, kind, choose, at) {
                Some(c) => *chosen = c as u64 + 1,
                None => return Status::Failure,
            }
        }
        let child = (*chosen - 1) as u32;
        if self.w.npcs[npc as usize]
            .areas
            .binary_search(&child)
            .is_ok()
        {
            return Status::Success;
        }
        match areas::center(p, self.w, child) {
            Some(goal) => match walk(p, self.w, npc, goal, 0.0) {
                // At the centre but not inside (an odd polygon): give up rather than spin.
                Status::Success => Status::Failure,
                s => s,
            },
            None => Status::Failure,
        }
    }
    fn area_action(&mut self, action: &AreaAction) -> Status {
        let p = self.p;
        let Some(area) = self.acting_area() else {
            return Status::Failure;
        };
        let rules = &p.area_rules[areas::proto_of(area) as usize];
        match *action {
            AreaAction::EnableTemplate { template, enabled } => {
                match (rules.template(template), areas::state_mut(self.w, area)) {
                    (Some(t), Some(s)) => {
                        s.enabled[t] = enabled;
                        Status::Success
                    }
                    _ => Status::Failure,
                }
            }
            AreaAction::MessageHolders {
                template,
                inbox,
                message,
            } => {
                let t = match template {
                    Some(name) => match rules.template(name) {
                        Some(t) => Some(t as u32),
                        None => return Status::Failure,
                    },
                    None => None,
                };
                let from = EntityId::Area(area);
                for n in 0..self.w.npcs.len() {
                    let holds = self.w.npcs[n]
                        .tags
                        .iter()
                        .any(|g| g.area == area && t.is_none_or(|t| g.template == t));
                    if holds
                        && let Some(ev) = effects::send_message(
                            self.w,
                            from,
                            EntityId::Npc(n as u32),
                            inbox,
                            message,
                        )
                    {
                        self.emit(ev);
                    }
                }
                Status::Success
            }
            AreaAction::CreateArea { proto, ticks } => {
                let at = match self.who {
                    Who::Npc(n) => self.position_of(EntityId::Npc(n)),
                    Who::Area { id, .. } => self.position_of(EntityId::Area(id)),
                }
                .unwrap_or(Vec2::ZERO);
                let mut o = out!(self);
                let made = area_fx::create_area(p, self.w, proto, at, ticks, &mut o);
                self.stop |= o.stop;
                if made.is_some() {
                    Status::Success
                } else {
                    Status::Failure
                }
            }
            AreaAction::RemoveArea => {
                let target = match self.who {
                    Who::Area { id, .. } if areas::is_dynamic(id) => Some(id),
                    Who::Area { .. } => None,
                    Who::Npc(n) => self.w.npcs[n as usize]
                        .areas
                        .iter()
                        .rev()
                        .copied()
                        .find(|&a| areas::is_dynamic(a)),
                };
                match target {
                    Some(id) => {
                        let mut o = out!(self);
                        area_fx::remove_area(p, self.w, id, &mut o);
                        self.stop |= o.stop;
                        Status::Success
                    }
                    None => Status::Failure,
                }
            }
        }
    }
    #[inline]
    fn observing(&self) -> bool {
        self.trace.is_some() || self.probe.is_some()
    }
    fn on_enter(&mut self, node: usize, was: Status) {
        if self.probe.is_some() {
            let (npc, tree, depth) = (self.npc_about(), self.tree, self.depth_of(node));
            self.probe_event(&DebugEvent::Enter {
                npc,
                tree,
                node: node as u32,
                was,
                depth,
            });
        }
    }
    fn on_result(&mut self, node: usize, from: Status, to: Status) {
        let (tick, npc, tree) = (self.w.tick, self.npc_about(), self.tree);
        let brain = match self.who {
            Who::Area { id, subject: None } => id,
            _ => u32::MAX,
        };
        if from != to
            && let Some(t) = self.trace.as_deref_mut()
        {
            t.push(TraceEvent::Status {
                tick,
                npc,
                brain,
                tree,
                node: node as u32,
                from,
                to,
            });
        }
        if self.probe.is_some() {
            let depth = self.depth_of(node);
            self.probe_event(&DebugEvent::Result {
                npc,
                tree,
                node: node as u32,
                from,
                to,
                depth,
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
        let Some(me) = self.me() else {
            return false;
        };
        self.w.talk.hand_over(me, cast, on);
        true
    }
}

/// One step of walking: Success when within `reach` of `goal`, else sets the target.
fn walk(p: &Program, w: &mut World, npc: u32, mut goal: Vec2, reach: f64) -> Status {
    let b = p.bounds;
    goal.x = goal.x.clamp(b.min.x, b.max.x);
    goal.y = goal.y.clamp(b.min.y, b.max.y);
    if w.pos[npc as usize].distance(goal) <= reach {
        Status::Success
    } else {
        w.set_target(npc, Some(goal));
        Status::Running
    }
}

/// Runs one area's handler queue (one run at a time, each to completion, never interrupted
/// by the brain) and, when `brain` is set, no handler is pending and it is due, its brain.
pub(crate) fn run_area(
    p: &Program,
    w: &mut World,
    area: u32,
    brain: bool,
    trace: Option<&mut Vec<TraceEvent>>,
    probe: Option<&mut (dyn Probe + '_)>,
    counts: Option<Counting<'_>>,
) -> bool {
    let rules = &p.area_rules[areas::proto_of(area) as usize];
    let mut h = ActorHost {
        p,
        w,
        who: Who::Area {
            id: area,
            subject: None,
        },
        bb_at: 0,
        bb_len: 0,
        tree: u32::MAX,
        granting: None,
        running: [(0, 0); MAX_NESTING],
        nesting: 0,
        base: 0,
        trace,
        probe,
        stop: false,
        counts,
    };
    // Handlers: start queued runs while the previous one finished; at most a few per tick.
    for _ in 0..16 {
        let Some(st) = areas::state_mut(h.w, area) else {
            return true;
        };
        let (job, mut inst) = match st.running.take() {
            Some(r) => r,
            None => {
                let Some(job) = st.queue.pop_front() else {
                    break;
                };
                let Some(t) = rules.handlers[job.kind as usize] else {
                    continue;
                };
                let Some(tree) = p.trees.get(t as usize) else {
                    continue;
                };
                let tick = h.w.tick;
                h.scope(Some(Actor::Handler { area, npc: job.npc }));
                h.emit(TraceEvent::Handler {
                    tick,
                    area,
                    npc: job.npc,
                    handler: job.kind as u8,
                    start: true,
                });
                (job, Instance::new(t, tree))
            }
        };
        let Some(tree) = p.trees.get(inst.tree as usize) else {
            continue;
        };
        h.who = Who::Area {
            id: area,
            subject: Some(job.npc),
        };
        h.tree = inst.tree;
        h.scope(Some(Actor::Handler { area, npc: job.npc }));
        let out = h.tick(inst.tree, tree, &mut inst);
        if out.paused || h.stop {
            if let Some(st) = areas::state_mut(h.w, area) {
                st.running = Some((job, inst));
            }
            return false;
        }
        if out.status == Status::Running {
            if let Some(st) = areas::state_mut(h.w, area) {
                st.running = Some((job, inst));
            }
            h.scope(None);
            return true;
        }
        let tick = h.w.tick;
        h.emit(TraceEvent::Handler {
            tick,
            area,
            npc: job.npc,
            handler: job.kind as u8,
            start: false,
        });
        h.scope(None);
        if h.stop {
            return false;
        }
    }
    if !brain {
        return true;
    }
    // The brain, when no handler is pending and it is due.
    let idle = areas::state(h.w, area).is_some_and(|s| s.running.is_none() && s.queue.is_empty());
    if let (true, Some((t, every))) = (idle, rules.brain)
        && h.w.tick.is_multiple_of(every.max(1))
        && let Some(tree) = p.trees.get(t as usize)
    {
        let Some(mut inst) = areas::state_mut(h.w, area).and_then(|s| s.brain.take()) else {
            return true;
        };
        h.who = Who::Area {
            id: area,
            subject: None,
        };
        h.tree = t;
        h.scope(Some(Actor::Brain { area }));
        let out = h.tick(t, tree, &mut inst);
        h.scope(None);
        if let Some(st) = areas::state_mut(h.w, area) {
            st.brain = Some(inst);
        }
        if out.paused || h.stop {
            return false;
        }
    }
    true
}
