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

pub(super) fn world_hash(w: &World) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    h.u64(w.tick);
    h.bytes(&w.rng.get_seed());
    h.bytes(&w.rng.get_word_pos().to_le_bytes());
    h.u64(w.flags.len() as u64);
    for &f in &w.flags {
        h.u64(f as u64);
    }
    h.u64(w.counters.len() as u64);
    for &c in &w.counters {
        h.u64(c as u64);
    }
    for vars in &w.area_vars {
        for &v in vars {
            h.value(v);
        }
    }
    h.u64(w.npcs.len() as u64);
    for (i, n) in w.npcs.iter().enumerate() {
        h.vec2(w.pos[i]);
        match n.target {
            Some(t) => {
                h.u64(1);
                h.vec2(t)
            }
            None => h.u64(0),
        }
        for &v in &n.blackboard {
            h.value(v);
        }
        h.u64(n.instance.tree as u64);
        for &s in &n.instance.state {
            h.u64(s);
        }
        for &s in &n.instance.status {
            h.u64(s as u64);
        }
        match n.show {
            Some((say, s)) => {
                h.u64(1 + say as u64);
                h.u64(s.0 as u64)
            }
            None => h.u64(0),
        }
        for (name, q) in &n.inboxes {
            h.u64(name.0 as u64);
            h.u64(q.len() as u64);
            for m in q {
                h.entity(m.from);
                h.u64(m.message.0 as u64);
                h.u64(m.sent);
            }
        }
        h.u64(n.area.map_or(u64::MAX, |a| a as u64));
        h.u64(n.last_status as u64);
        h.u64(n.proto as u64);
        h.u64(n.serial as u64);
        h.u64(n.removed as u64);
        h.f64(n.health);
        h.u64(n.items.len() as u64);
        for s in n.items.iter().chain(&n.equipped) {
            h.u64(s.0 as u64);
        }
        h.u64(n.equipped.len() as u64);
    }
    for o in &w.objects {
        h.u64(o.open as u64 | (o.locked as u64) << 1);
        h.u64(o.state.0 as u64);
    }
    w.triggers.hash_words(&mut |x| h.u64(x));
    h.0
}
