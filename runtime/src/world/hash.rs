//! A stable hash of the whole world: FNV-1a over a fixed byte encoding of every field (floats
//! by their bits), so it is identical across runs, platforms and Rust versions.

use super::World;
use crate::value::{EntityId, Value, Vec2};

struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    /// A list: its length, then each word.
    fn list<T: Into<u64>>(&mut self, items: impl ExactSizeIterator<Item = T>) {
        self.u64(items.len() as u64);
        for x in items {
            self.u64(x.into());
        }
    }
    fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    fn vec2(&mut self, v: Vec2) {
        self.f64(v.x);
        self.f64(v.y);
    }
    fn entity(&mut self, e: EntityId) {
        let (tag, i) = match e {
            EntityId::None => (0, 0),
            EntityId::Npc(i) => (1, i),
            EntityId::Object(i) => (2, i),
            EntityId::Area(i) => (3, i),
        };
        self.u64(tag);
        self.u64(i as u64);
    }
    fn value(&mut self, v: Value) {
        match v {
            Value::Bool(b) => {
                self.u64(1);
                self.u64(b as u64)
            }
            Value::Int(i) => {
                self.u64(2);
                self.u64(i as u64)
            }
            Value::Float(f) => {
                self.u64(3);
                self.f64(f)
            }
            Value::Str(s) => {
                self.u64(4);
                self.u64(s.0 as u64)
            }
            Value::Vec2(p) => {
                self.u64(5);
                self.vec2(p)
            }
            Value::Entity(e) => {
                self.u64(6);
                self.entity(e)
            }
        }
    }
}

fn instance(h: &mut Fnv, i: &crate::bt::Instance) {
    nodes(h, i.tree, &i.state, &i.status);
}

fn nodes(h: &mut Fnv, tree: u32, state: &[u64], status: &[crate::bt::Status]) {
    h.u64(tree as u64);
    for &s in state {
        h.u64(s);
    }
    for &s in status {
        h.u64(s as u64);
    }
}

fn inboxes(
    h: &mut Fnv,
    boxes: &[(
        crate::value::Sym,
        std::collections::VecDeque<super::Message>,
    )],
) {
    for (name, q) in boxes {
        h.u64(name.0 as u64);
        h.u64(q.len() as u64);
        for m in q {
            h.entity(m.from);
            h.u64(m.message.0 as u64);
            h.u64(m.sent);
        }
    }
}

fn area_state(h: &mut Fnv, a: &super::areas::AreaState) {
    h.u64(a.alive as u64);
    for &e in &a.enabled {
        h.u64(e as u64);
    }
    for &n in &a.holders {
        h.u64(n as u64);
    }
    inboxes(h, &a.inboxes);
    match &a.brain {
        Some(b) => instance(h, b),
        None => h.u64(u64::MAX),
    }
    h.u64(a.queue.len() as u64);
    for j in &a.queue {
        h.u64(j.kind as u64);
        h.u64(j.npc as u64);
    }
    match &a.running {
        Some((j, i)) => {
            h.u64(j.kind as u64);
            h.u64(j.npc as u64);
            instance(h, i);
        }
        None => h.u64(u64::MAX),
    }
}

pub(crate) fn world_hash(w: &World) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    h.u64(w.tick);
    h.bytes(&w.rng.get_seed());
    h.bytes(&w.rng.get_word_pos().to_le_bytes());
    h.list(w.flags.iter().copied());
    h.u64(w.counters.len() as u64);
    for &c in &w.counters {
        h.u64(c as u64);
    }
    for vars in &w.area_vars {
        for &v in vars {
            h.value(v);
        }
    }
    for a in &w.areas {
        area_state(&mut h, a);
    }
    h.u64(w.dyn_areas.len() as u64);
    for d in &w.dyn_areas {
        h.u64(d.id as u64);
        h.vec2(d.offset);
        h.u64(d.expires.map_or(u64::MAX, |e| e));
        for &v in &d.vars {
            h.value(v);
        }
        area_state(&mut h, &d.state);
    }
    h.u64(w.dyn_serial as u64);
    for (to, inbox, m) in &w.outbox {
        h.entity(*to);
        h.u64(inbox.0 as u64);
        h.entity(m.from);
        h.u64(m.message.0 as u64);
    }
    h.u64(w.npcs.len() as u64);
    for (i, n) in w.npcs.iter().enumerate() {
        h.vec2(w.pos[i]);
        match w.target(i) {
            Some(t) => {
                h.u64(1);
                h.vec2(t)
            }
            None => h.u64(0),
        }
        for &v in w.minds.bb(i) {
            h.value(v);
        }
        let mind = w.minds.mind(i);
        nodes(&mut h, mind.tree, mind.state, mind.status);
        match n.show {
            Some((say, s)) => {
                h.u64(1 + say as u64);
                h.u64(s.0 as u64)
            }
            None => h.u64(0),
        }
        inboxes(&mut h, &n.inboxes);
        h.u64(n.area.map_or(u64::MAX, |a| a as u64));
        h.u64(n.areas.len() as u64);
        for &a in &n.areas {
            h.u64(a as u64);
        }
        h.u64(n.tags.len() as u64);
        for t in &n.tags {
            h.u64(t.node);
            h.u64(t.area as u64);
            h.u64(t.template as u64);
            h.u64(t.overridable as u64);
            h.u64(t.adopted);
            instance(&mut h, &t.instance);
        }
        h.u64(w.last_status(i) as u64);
        h.u64(n.proto as u64);
        h.u64(n.serial as u64);
        // (`dead` shares the word: the hash of a world where nobody died is unchanged.)
        h.u64(n.removed as u64 | (n.dead as u64) << 1);
        h.f64(n.health);
        h.u64(n.items.len() as u64);
        for s in n.items.iter().chain(&n.equipped) {
            h.u64(s.0 as u64);
        }
        h.u64(n.equipped.len() as u64);
    }
    if let Some(s) = &w.story {
        s.hash_into(&mut |x| h.u64(x));
    }
    talk(&mut h, &w.talk);
    for o in &w.objects {
        h.u64(o.open as u64 | (o.locked as u64) << 1);
        h.u64(o.state.0 as u64);
    }
    w.triggers.hash_words(&mut |x| h.u64(x));
    nav(&mut h, &w.nav);
    h.0
}

/// The walking state that decides where NPCs go next (`world::nav`: the planner's caches
/// are left out, they never change a result). Left out while nobody has planned, so that
/// worlds without walls hash as they always did.
fn nav(h: &mut Fnv, n: &super::nav::NavState) {
    if n.paths.is_empty() && n.queue.is_empty() && n.door_changes.is_empty() {
        return;
    }
    h.list(n.door_open.iter().copied());
    h.list(n.door_changes.iter().copied());
    h.list(n.queue.iter().copied());
    h.u64(n.paths.len() as u64);
    for p in &n.paths {
        match p.goal {
            Some(g) => {
                h.u64(1);
                h.vec2(g)
            }
            None => h.u64(0),
        }
        h.u64(p.points.len() as u64);
        for &q in &p.points {
            h.vec2(q);
        }
        h.u64(p.next as u64 | (p.no_path as u64) << 32 | (p.stale as u64) << 33);
        h.list(p.clusters.iter().copied());
    }
}

fn talk(h: &mut Fnv, t: &super::talk::TalkState) {
    // The `talk` inboxes the layer keeps (in the order delivered).
    if !t.post.is_empty() {
        h.u64(t.post.len() as u64);
        for (to, m) in &t.post {
            h.u64(*to as u64);
            h.entity(m.from);
            h.u64(m.message.0 as u64);
            h.u64(m.sent);
        }
    }
    // A layer that never ran is in its initial state (a function of the NPC count): leave
    // it out, so that worlds without conversations hash as they always did.
    if t.stats.ticks == 0 && t.chars.iter().all(|c| c.want == super::talk::NONE) {
        return;
    }
    h.u64(t.chars.len() as u64);
    for c in &t.chars {
        for x in [c.want, c.cast, c.addressee, c.gaze, c.group] {
            h.u64(x as u64);
        }
        let p = c.personality;
        for x in [
            p.talkativeness,
            p.transparency,
            p.confidence,
            p.interactivity,
            p.verbosity,
            c.noise,
        ] {
            h.f64(x);
        }
        h.vec2(c.away);
        for b in [c.speaking, c.started_at_trp, c.want_turn, c.overlapping] {
            h.u64(b as u64);
        }
        match c.nonverbal {
            Some((what, at)) => {
                h.u64(1 + what as u64);
                h.u64(at)
            }
            None => h.u64(0),
        }
        h.u64(c.members.len() as u64);
        for m in &c.members {
            h.u64(m.npc as u64);
            h.u64(m.last_active);
        }
        h.u64(c.speakers.len() as u64);
        for &s in &c.speakers {
            h.u64(s as u64);
        }
        for x in [
            c.silent_since,
            c.multi_since,
            c.speak_since,
            c.spoke_until,
            c.entered_at,
            c.talk_since,
            c.conv_since,
            c.overlap_since,
            c.pre_trp_at,
            c.segment_end,
            c.trp_wait,
            c.pending_start,
            c.pending_addressee as u64,
            c.next_cycle,
            c.next_plan,
        ] {
            h.u64(x);
        }
        let k = c.counters;
        for x in [
            k.talk_ticks,
            k.conv_ticks,
            k.overlap_ticks,
            k.turns,
            k.segments,
            k.unclaimed_trps,
            k.continued,
            k.interruptions_made,
            k.interruptions_suffered,
            k.feedback_given,
            k.feedback_negative,
            k.feedback_received,
            k.claims,
            k.overlaps,
            k.overlaps_won,
            k.joins,
            k.leaves,
        ] {
            h.u64(x);
        }
    }
    let s = &t.stats;
    for x in [
        s.ticks,
        s.gap_ticks,
        s.gap_count,
        s.group_samples,
        s.groups_seen,
        s.group_size_sum,
        s.splits,
        s.merges,
        t.next_label as u64,
    ] {
        h.u64(x);
    }
    for &g in &s.gaps {
        h.u64(g);
    }
    for &w in &t.wake {
        h.u64(w);
    }
}
