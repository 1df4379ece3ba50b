//! Compiling the world section: clock, bounds, flags and counters, the entities' one id
//! namespace (objects, areas, NPCs), area geometry and hierarchy, variables (blackboard and
//! area) with their literals, and the NPCs' starting state.

use std::collections::HashMap;

use super::ctx::{At, Ctx};
use super::{AreaInfo, NpcInfo, ObjectInfo};
use crate::expr::Scope;
use crate::pack::diag::{index, key};
use crate::pack::{Literal, Rect, Shape, VarDecl};
use crate::value::{EntityId, Sym, Type, Value};

impl Ctx<'_> {
    pub(crate) fn world(&mut self) {
        let w = &self.pack.world;
        self.p.dt = self.number("world.dt", w.dt, 0.001, 10.0, "`dt` (seconds per tick)");
        let min = self.point("world.bounds.min", w.bounds.min);
        let max = self.point("world.bounds.max", w.bounds.max);
        if !(min.x < max.x && min.y < max.y) {
            self.err("world.bounds", "bounds need min < max on both axes");
        }
        self.p.bounds = w.bounds;
        self.p.start_day = w.clock.start_day.clamp(-1_000_000, 1_000_000);
        self.p.start_hour = self.number(
            "world.clock.start_hour",
            w.clock.start_hour,
            0.0,
            24.0,
            "`start_hour`",
        );
        self.p.time_scale = self.number(
            "world.clock.time_scale",
            w.clock.time_scale,
            0.0,
            1.0e6,
            "`time_scale`",
        );
        for (name, v) in &w.flags {
            self.p.flags.add(name, Type::Bool, Value::Bool(*v));
        }
        for (name, v) in &w.counters {
            self.p.counters.add(name, Type::Int, Value::Int(*v));
        }
        // Entities share one id namespace so that `entity("id")` is unambiguous.
        let mut seen: HashMap<String, String> = HashMap::new();
        for (i, o) in w.objects.iter().enumerate() {
            let path = index("world.objects", i);
            if let Some(first) = seen.get(&o.id) {
                self.err(
                    key(&path, "id"),
                    format!("duplicate id `{}` (first used at {first})", o.id),
                );
                continue;
            }
            seen.insert(o.id.clone(), path.clone());
            let pos = self.point(At::Key(&path, "pos"), o.pos);
            let radius = self.number(At::Key(&path, "radius"), o.radius, 0.0, 1.0e5, "`radius`");
            let kind = self.intern(&o.kind);
            let state = self.intern(o.state.as_deref().unwrap_or(""));
            let idx = self.p.objects.len() as u32;
            self.p
                .entity_index
                .insert(o.id.clone(), EntityId::Object(idx));
            self.p.objects.push(ObjectInfo {
                id: o.id.clone(),
                kind,
                pos,
                radius,
                open: o.open,
                locked: o.locked,
                state,
            });
        }
        for (i, a) in self.pack.areas.iter().enumerate() {
            let path = index("areas", i);
            if let Some(first) = seen.get(&a.id) {
                self.err(
                    key(&path, "id"),
                    format!("duplicate id `{}` (first used at {first})", a.id),
                );
                continue;
            }
            seen.insert(a.id.clone(), path.clone());
            let bbox = match &a.shape {
                Shape::Rect(r) => {
                    let mn = self.point(At::Key(&path, "shape"), r.min);
                    let mx = self.point(At::Key(&path, "shape"), r.max);
                    if !(mn.x <= mx.x && mn.y <= mx.y) {
                        self.err(key(&path, "shape"), "rectangle needs min <= max");
                    }
                    *r
                }
                Shape::Polygon(pts) => {
                    if pts.len() < 3 {
                        self.err(key(&path, "shape"), "a polygon needs at least 3 points");
                    }
                    let mut r = Rect {
                        min: crate::pack::Point {
                            x: f64::MAX,
                            y: f64::MAX,
                        },
                        max: crate::pack::Point {
                            x: f64::MIN,
                            y: f64::MIN,
                        },
                    };
                    for p in pts {
                        let v = self.point(At::Key(&path, "shape"), *p);
                        r.min.x = r.min.x.min(v.x);
                        r.min.y = r.min.y.min(v.y);
                        r.max.x = r.max.x.max(v.x);
                        r.max.y = r.max.y.max(v.y);
                    }
                    r
                }
            };
            let shape = match &a.shape {
                Shape::Polygon(p) if p.len() < 3 => Shape::Rect(bbox),
                s => s.clone(),
            };
            let kinds = a.kinds.iter().map(|k| self.intern(k)).collect();
            let idx = self.p.areas.len() as u32;
            self.p
                .entity_index
                .insert(a.id.clone(), EntityId::Area(idx));
            self.p.areas.push(AreaInfo {
                id: a.id.clone(),
                shape,
                bbox,
                parent: None,
                kinds,
                vars: Vec::new(),
            });
        }
        let mut npc_count = 0u32;
        for (i, n) in w.npcs.iter().enumerate() {
            let path = index("world.npcs", i);
            if let Some(first) = seen.get(&n.id) {
                self.err(
                    key(&path, "id"),
                    format!("duplicate id `{}` (first used at {first})", n.id),
                );
                continue;
            }
            seen.insert(n.id.clone(), path.clone());
            // Filled in by `npcs()`; the index is fixed now so expressions can name NPCs.
            self.p
                .entity_index
                .insert(n.id.clone(), EntityId::Npc(npc_count));
            npc_count += 1;
        }
        // Area parents (after all areas are known).
        let mut ai = 0usize;
        for (i, a) in self.pack.areas.iter().enumerate() {
            if self.p.entity(&a.id) != Some(EntityId::Area(ai as u32)) {
                continue;
            }
            if let Some(parent) = &a.parent {
                match self.p.entity(parent) {
                    Some(EntityId::Area(pi)) if pi as usize != ai => {
                        self.p.areas[ai].parent = Some(pi)
                    }
                    Some(EntityId::Area(_)) => self.err(
                        key(&index("areas", i), "parent"),
                        format!("area `{parent}` names itself as its parent"),
                    ),
                    _ => self.err(
                        key(&index("areas", i), "parent"),
                        format!("unknown parent area `{parent}`"),
                    ),
                }
            }
            ai += 1;
        }
        // Parent cycles.
        for start in 0..self.p.areas.len() {
            let mut cur = self.p.areas[start].parent;
            let mut steps = 0;
            while let Some(c) = cur {
                steps += 1;
                if c as usize == start || steps > self.p.areas.len() {
                    let id = self.p.areas[start].id.clone();
                    self.err(
                        key(&index("areas", start), "parent"),
                        format!("area `{id}` is its own ancestor (parent cycle)"),
                    );
                    self.p.areas[start].parent = None;
                    break;
                }
                cur = self.p.areas[c as usize].parent;
            }
        }
    }

    /// Declares blackboard and area variables from trees, NPCs and areas.
    pub(crate) fn declare(&mut self) {
        for (ti, t) in self.pack.trees.iter().enumerate() {
            for (name, decl) in &t.blackboard {
                let path = key(&key(&index("trees", ti), "blackboard"), name);
                self.declare_var(Scope::Blackboard, name, decl, &path);
            }
        }
        for (ni, n) in self.pack.world.npcs.iter().enumerate() {
            for (name, lit) in &n.vars {
                if self.p.blackboard.get(name).is_none() {
                    let ty = match lit {
                        Literal::Bool(_) => Type::Bool,
                        Literal::Int(_) => Type::Int,
                        Literal::Float(_) => Type::Float,
                        Literal::Str(_) => Type::Str,
                        Literal::Vec2(_) => Type::Vec2,
                    };
                    let path = key(&key(&index("world.npcs", ni), "vars"), name);
                    let decl = VarDecl {
                        ty,
                        default: None,
                        comment: None,
                    };
                    self.declare_var(Scope::Blackboard, name, &decl, &path);
                }
            }
        }
        for (ai, a) in self.pack.areas.iter().enumerate() {
            for (name, decl) in &a.vars {
                let path = key(&key(&index("areas", ai), "vars"), name);
                self.declare_var(Scope::Area, name, decl, &path);
            }
        }
        // Per-area values.
        let defaults = self.p.area_vars.defaults.clone();
        let mut ai = 0usize;
        for (i, a) in self.pack.areas.iter().enumerate() {
            if self.p.entity(&a.id) != Some(EntityId::Area(ai as u32)) {
                continue;
            }
            let mut vals = defaults.clone();
            for (name, decl) in &a.vars {
                if let (Some(slot), Some(lit)) = (self.p.area_vars.get(name), &decl.default) {
                    let ty = self.p.area_vars.types[slot as usize];
                    let path = key(&key(&key(&index("areas", i), "vars"), name), "default");
                    if let Some(v) = self.literal(lit, ty, &path) {
                        vals[slot as usize] = v;
                    }
                }
            }
            self.p.areas[ai].vars = vals;
            ai += 1;
        }
    }

    pub(crate) fn declare_var(&mut self, scope: Scope, name: &str, decl: &VarDecl, path: &str) {
        let valid = !name.is_empty()
            && name
                .chars()
                .enumerate()
                .all(|(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()));
        if !valid {
            self.err(
                path,
                format!("`{name}` is not a valid variable name (letters, digits, _)"),
            );
            return;
        }
        let slots = if scope == Scope::Area {
            &self.p.area_vars
        } else {
            &self.p.blackboard
        };
        if let Some(i) = slots.get(name) {
            let prev = slots.types[i as usize];
            if prev != decl.ty {
                self.err(
                    path,
                    format!(
                        "`{name}` is declared as {} here but as {prev} elsewhere",
                        decl.ty
                    ),
                );
            }
            return;
        }
        let default = match &decl.default {
            Some(l) => self
                .literal(l, decl.ty, &key(path, "default"))
                .unwrap_or(Value::default_of(decl.ty)),
            None => Value::default_of(decl.ty),
        };
        let slots = if scope == Scope::Area {
            &mut self.p.area_vars
        } else {
            &mut self.p.blackboard
        };
        slots.add(name, decl.ty, default);
    }

    /// Converts a JSON literal to a value of the declared type.
    pub(crate) fn literal(&mut self, l: &Literal, ty: Type, path: &str) -> Option<Value> {
        let v = match (ty, l) {
            (Type::Bool, Literal::Bool(b)) => Value::Bool(*b),
            (Type::Int, Literal::Int(i)) => Value::Int(*i),
            (Type::Float, Literal::Int(i)) => Value::Float(*i as f64),
            (Type::Float, Literal::Float(f)) if f.is_finite() => Value::Float(*f),
            (Type::Str, Literal::Str(s)) => Value::Str(self.intern(s)),
            (Type::Vec2, Literal::Vec2([x, y])) => {
                Value::Vec2(self.point(path.to_string(), crate::pack::Point { x: *x, y: *y }))
            }
            (Type::Entity, Literal::Str(s)) => match self.p.entity(s) {
                Some(e) => Value::Entity(e),
                None => {
                    self.err(path, format!("unknown entity `{s}`"));
                    return None;
                }
            },
            _ => {
                self.err(
                    path,
                    format!("expected {} value, found {}", ty.name(), l.describe()),
                );
                return None;
            }
        };
        Some(v)
    }

    pub(crate) fn npcs(&mut self) {
        for (i, n) in self.pack.world.npcs.iter().enumerate() {
            let path = index("world.npcs", i);
            if self.p.entity(&n.id) != Some(EntityId::Npc(self.p.npcs.len() as u32)) {
                continue; // a duplicate id, already reported
            }
            let pos = self.point(At::Key(&path, "pos"), n.pos);
            let b = self.p.bounds;
            if !n.prototype
                && (pos.x < b.min.x || pos.y < b.min.y || pos.x > b.max.x || pos.y > b.max.y)
            {
                self.warn(
                    key(&path, "pos"),
                    format!(
                        "NPC `{}` starts outside the world bounds ({}, {} to {}, {})",
                        n.id, b.min.x, b.min.y, b.max.x, b.max.y
                    ),
                );
            }
            let speed = self.number(At::Key(&path, "speed"), n.speed, 0.0, 1.0e4, "`speed`");
            let tree = match self.p.tree_index(&n.tree) {
                Some(t) => t,
                None => {
                    let known: Vec<&str> = self.pack.trees.iter().map(|t| t.id.as_str()).collect();
                    let hint = crate::pack::suggest(&n.tree, &known)
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default();
                    self.err(
                        key(&path, "tree"),
                        format!("unknown tree `{}`{hint}", n.tree),
                    );
                    u32::MAX
                }
            };
            let mut blackboard = self.p.blackboard.defaults.clone();
            for (name, lit) in &n.vars {
                if let Some(slot) = self.p.blackboard.get(name) {
                    let ty = self.p.blackboard.types[slot as usize];
                    if let Some(v) = self.literal(lit, ty, &key(&key(&path, "vars"), name)) {
                        blackboard[slot as usize] = v;
                    }
                }
            }
            let tags = n.tags.iter().map(|t| self.intern(t)).collect();
            let mut inboxes = vec![self.intern("default")];
            for ib in &n.inboxes {
                let s = self.intern(ib);
                if !inboxes.contains(&s) {
                    inboxes.push(s);
                }
            }
            let health = self.number(At::Key(&path, "health"), n.health, 0.0, 1.0e9, "`health`");
            let mut items: Vec<Sym> = n.items.iter().map(|t| self.intern(t)).collect();
            let mut equipped: Vec<Sym> = n.equipped.iter().map(|t| self.intern(t)).collect();
            equipped.sort_unstable();
            equipped.dedup();
            items.extend_from_slice(&equipped);
            items.sort_unstable();
            items.dedup();
            self.p.npcs.push(NpcInfo {
                health,
                items,
                equipped,
                prototype: n.prototype,
                id: n.id.clone(),
                name: n.name.clone().unwrap_or_else(|| n.id.clone()),
                pos,
                speed,
                tags,
                tree,
                blackboard,
                inboxes,
            });
        }
    }
}
