//! The program: a pack compiled, read-only and shared (`Arc<Program>`): ids resolved to
//! indices, expressions parsed and type-checked, trees flattened; every semantic problem
//! reported with its JSON path ([`build`]). One file per asset kind compiles that kind.
//! Also the full load (reading + semantic checks, located in the text): [`load_str`].

pub mod areas;
pub mod breakpoints;
pub mod casts;
pub mod grid;
pub mod responses;
pub mod story;
#[cfg(test)]
mod tests;
pub mod tracker;
pub mod trees;
pub mod triggers;

use std::collections::{HashMap, HashSet};

use crate::bt::Tree;
use crate::expr::{Expr, Resolver, Scope};
use crate::pack::diag::{index, key};
use crate::pack::{Diagnostic, Literal, Pack, Rect, Shape, VarDecl};
use crate::pack::{Loaded, diag};
use crate::value::{EntityId, Sym, Type, Value, Vec2};

/// Largest coordinate accepted anywhere in a pack.
pub const MAX_COORD: f64 = 1.0e7;
/// Largest number of compiled nodes in one tree (after inlining subtrees).
pub const MAX_COMPILED_NODES: usize = 200_000;

/// Compiles a pack: the program and every semantic diagnostic (JSON paths, no positions).
/// A program built from a pack with errors is not meant to run.
pub fn build(pack: &Pack) -> (Program, Vec<Diagnostic>) {
    Program::build(pack)
}

/// Checks an in-memory pack (as the editor holds it): semantic diagnostics, no positions.
pub fn check(pack: &Pack) -> Vec<Diagnostic> {
    build(pack).1
}

/// Loads a pack from text: reading (structure, unknown fields) then the semantic checks,
/// every diagnostic located in the text and sorted by position.
pub fn load_str(text: &str) -> Loaded {
    let mut loaded = crate::pack::load_str(text);
    if let Some(p) = &loaded.pack {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut semantic = check(p);
        diag::locate_all(text, &mut semantic);
        loaded.diagnostics.extend(semantic);
        loaded.diagnostics.sort_by_key(|d| (d.line, d.column));
    }
    loaded
}

/// [`load_str`] from raw bytes (size and UTF-8 checked first, as `pack::load_bytes` does).
pub fn load_bytes(bytes: &[u8]) -> Loaded {
    match std::str::from_utf8(bytes) {
        Ok(text) if bytes.len() <= crate::pack::MAX_PACK_BYTES => load_str(text),
        _ => crate::pack::load_bytes(bytes),
    }
}

/// [`load_str`] from a file; I/O errors become a diagnostic, like every other problem.
pub fn load_file(path: &std::path::Path) -> Loaded {
    match crate::pack::read_file(path) {
        Ok(bytes) => load_bytes(&bytes),
        Err(d) => Loaded::refused(d),
    }
}

/// A value as people read it, the one formatter of the debugger, the tools and the editor:
/// floats in their shortest form that reads back to the same number (`0.1`, `2.5`, `1e-7`
/// as `0.0000001`), strings quoted, entities by id.
pub fn show_value(p: &Program, v: Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f}"),
        Value::Str(s) => format!("{:?}", p.sym(s)),
        Value::Vec2(v) => format!("({}, {})", v.x, v.y),
        Value::Entity(EntityId::None) => "none".into(),
        Value::Entity(e) => p.entity_name(e).to_string(),
    }
}

/// A named, typed table of variable slots.
#[derive(Clone, Debug, Default)]
pub struct Slots {
    pub names: Vec<String>,
    pub types: Vec<Type>,
    pub defaults: Vec<Value>,
    index: HashMap<String, u32>,
}

impl Slots {
    pub fn get(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    fn add(&mut self, name: &str, ty: Type, default: Value) -> u32 {
        if let Some(i) = self.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.to_string());
        self.types.push(ty);
        self.defaults.push(default);
        self.index.insert(name.to_string(), i);
        i
    }
}

/// An area, compiled.
#[derive(Clone, Debug)]
pub struct AreaInfo {
    pub id: String,
    pub shape: Shape,
    pub bbox: Rect,
    pub parent: Option<u32>,
    pub kinds: Vec<Sym>,
    pub vars: Vec<Value>,
}

impl AreaInfo {
    pub fn contains(&self, p: Vec2) -> bool {
        if !self.bbox.contains(p) {
            return false;
        }
        match &self.shape {
            Shape::Rect(_) => true,
            Shape::Polygon(pts) => {
                // Even-odd rule.
                let mut inside = false;
                let mut j = pts.len() - 1;
                for i in 0..pts.len() {
                    let (a, b) = (pts[i], pts[j]);
                    if (a.y > p.y) != (b.y > p.y)
                        && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x
                    {
                        inside = !inside;
                    }
                    j = i;
                }
                inside
            }
        }
    }
    pub fn center(&self) -> Vec2 {
        Vec2::new(
            (self.bbox.min.x + self.bbox.max.x) * 0.5,
            (self.bbox.min.y + self.bbox.max.y) * 0.5,
        )
    }
}

/// A static object, compiled.
#[derive(Clone, Debug)]
pub struct ObjectInfo {
    pub id: String,
    pub kind: Sym,
    pub pos: Vec2,
    pub radius: f64,
    pub open: bool,
    pub locked: bool,
    pub state: Sym,
}

/// An NPC's initial state, compiled.
#[derive(Clone, Debug)]
pub struct NpcInfo {
    pub id: String,
    pub name: String,
    pub pos: Vec2,
    pub speed: f64,
    pub tags: Vec<Sym>,
    pub tree: u32,
    pub blackboard: Vec<Value>,
    pub inboxes: Vec<Sym>,
    /// Starting and maximum health.
    pub health: f64,
    /// Sorted.
    pub items: Vec<Sym>,
    /// Sorted.
    pub equipped: Vec<Sym>,
    /// Not placed in the world; copied by `spawn`.
    pub prototype: bool,
}

/// A compiled pack, shared (read-only) by every session that runs it.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub name: String,
    pub strings: Vec<String>,
    string_index: HashMap<String, Sym>,
    pub blackboard: Slots,
    pub flags: Slots,
    pub counters: Slots,
    pub area_vars: Slots,
    pub exprs: Vec<Expr>,
    pub trees: Vec<Tree>,
    tree_index: HashMap<String, u32>,
    pub npcs: Vec<NpcInfo>,
    pub objects: Vec<ObjectInfo>,
    pub areas: Vec<AreaInfo>,
    /// Smart-area rules, by area index.
    pub area_rules: Vec<areas::AreaRules>,
    /// Spatial index of the static areas.
    pub grid: grid::BoxGrid,
    /// Parameters of every request node.
    pub requests: Vec<areas::CRequest>,
    /// Static areas with a brain or handlers (the only ones the areas phase visits).
    pub active_areas: Vec<u32>,
    entity_index: HashMap<String, EntityId>,
    pub bounds: Rect,
    pub dt: f64,
    pub start_day: i64,
    pub start_hour: f64,
    pub time_scale: f64,
    /// Node visits one NPC may make in one tick before its tree is cut off as runaway.
    pub visit_budget: u32,
    /// Story events and scenarios.
    pub events: story::Library,
    /// Conversation casts (background conversations).
    pub talk: casts::TalkProgram,
    /// Compiled trigger systems.
    pub triggers: triggers::TriggerProgram,
}

impl Program {
    pub fn sym(&self, s: Sym) -> &str {
        self.strings.get(s.0 as usize).map_or("", String::as_str)
    }
    pub fn find_sym(&self, s: &str) -> Option<Sym> {
        self.string_index.get(s).copied()
    }
    pub fn tree_index(&self, id: &str) -> Option<u32> {
        self.tree_index.get(id).copied()
    }
    pub fn entity(&self, id: &str) -> Option<EntityId> {
        self.entity_index.get(id).copied()
    }
    pub fn npc_index(&self, id: &str) -> Option<u32> {
        match self.entity(id) {
            Some(EntityId::Npc(i)) => Some(i),
            _ => None,
        }
    }
    pub fn entity_name(&self, e: EntityId) -> &str {
        match e {
            EntityId::None => "",
            EntityId::Npc(i) => self.npcs.get(i as usize).map_or("", |n| &n.id),
            EntityId::Object(i) => self.objects.get(i as usize).map_or("", |n| &n.id),
            EntityId::Area(i) => self.areas.get(i as usize).map_or("", |n| &n.id),
        }
    }
    /// The id of the tree a compiled node was written in, and the node's id there.
    pub fn node_origin(&self, tree: u32, node: usize) -> (&str, &str) {
        match self
            .trees
            .get(tree as usize)
            .and_then(|t| t.nodes.get(node))
        {
            Some(n) => (
                self.trees
                    .get(n.origin_tree as usize)
                    .map_or("", |t| t.id.as_str()),
                self.sym(n.origin_id),
            ),
            None => ("", ""),
        }
    }

    /// Compiles a pack. Always returns a program (parts with errors are left out or made
    /// inert) together with every diagnostic; run it only when there are no errors.
    pub fn build(pack: &Pack) -> (Program, Vec<Diagnostic>) {
        let mut b = Builder {
            p: Program {
                name: pack.name.clone(),
                visit_budget: 100_000,
                ..Program::default()
            },
            diags: Vec::new(),
            pack,
        };
        b.intern("");
        b.world();
        b.declare();
        b.trees();
        b.area_rules();
        b.npcs();
        b.events();
        b.talk();
        triggers::compile::build(&mut b);
        b.editor();
        (b.p, b.diags)
    }
}

pub(crate) struct Builder<'a> {
    pub(crate) p: Program,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) pack: &'a Pack,
}

impl Resolver for Builder<'_> {
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        let slots = match scope {
            Scope::Blackboard => &mut self.p.blackboard,
            Scope::Area => &mut self.p.area_vars,
            Scope::Flag => {
                let i = self.p.flags.add(name, Type::Bool, Value::Bool(false));
                return Some((i, Type::Bool));
            }
            Scope::Counter => {
                let i = self.p.counters.add(name, Type::Int, Value::Int(0));
                return Some((i, Type::Int));
            }
        };
        let i = slots.get(name)?;
        Some((i, slots.types[i as usize]))
    }
    fn intern(&mut self, s: &str) -> Sym {
        if let Some(&i) = self.p.string_index.get(s) {
            return i;
        }
        let i = Sym(self.p.strings.len() as u32);
        self.p.strings.push(s.to_string());
        self.p.string_index.insert(s.to_string(), i);
        i
    }
    fn entity(&mut self, id: &str) -> Option<EntityId> {
        self.p.entity(id)
    }
}

fn rules_is_dynamic(areas: &[crate::pack::AreaDef], id: &str) -> bool {
    areas.iter().any(|a| a.id == id && a.dynamic)
}

/// A number as people read it: `1e300`, not three hundred digits.
pub(crate) fn short(x: f64) -> String {
    if x != 0.0 && (x.abs() >= 1e9 || x.abs() < 1e-4) && x.is_finite() {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

fn finite_in(x: f64, lo: f64, hi: f64) -> bool {
    x.is_finite() && x >= lo && x <= hi
}

impl Builder<'_> {
    fn err(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(path, msg));
    }
    fn warn(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(path, msg));
    }
    fn number(&mut self, path: String, x: f64, lo: f64, hi: f64, what: &str) -> f64 {
        if finite_in(x, lo, hi) {
            x
        } else {
            self.err(
                path,
                format!(
                    "{what} must be between {} and {}, found {}",
                    short(lo),
                    short(hi),
                    short(x)
                ),
            );
            if x.is_finite() { x.clamp(lo, hi) } else { lo }
        }
    }
    fn point(&mut self, path: String, p: crate::pack::Point) -> Vec2 {
        let x = self.number(path.clone(), p.x, -MAX_COORD, MAX_COORD, "a coordinate");
        let y = self.number(path, p.y, -MAX_COORD, MAX_COORD, "a coordinate");
        Vec2::new(x, y)
    }
    fn ticks(&mut self, path: String, seconds: f64) -> u64 {
        let s = self.number(path, seconds, 0.0, 1.0e7, "a duration in seconds");
        (s / self.p.dt).ceil() as u64
    }

    fn world(&mut self) {
        let w = &self.pack.world;
        self.p.dt = self.number(
            "world.dt".into(),
            w.dt,
            0.001,
            10.0,
            "`dt` (seconds per tick)",
        );
        let min = self.point("world.bounds.min".into(), w.bounds.min);
        let max = self.point("world.bounds.max".into(), w.bounds.max);
        if !(min.x < max.x && min.y < max.y) {
            self.err("world.bounds", "bounds need min < max on both axes");
        }
        self.p.bounds = w.bounds;
        self.p.start_day = w.clock.start_day.clamp(-1_000_000, 1_000_000);
        self.p.start_hour = self.number(
            "world.clock.start_hour".into(),
            w.clock.start_hour,
            0.0,
            24.0,
            "`start_hour`",
        );
        self.p.time_scale = self.number(
            "world.clock.time_scale".into(),
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
            let pos = self.point(key(&path, "pos"), o.pos);
            let radius = self.number(key(&path, "radius"), o.radius, 0.0, 1.0e5, "`radius`");
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
                    let mn = self.point(key(&path, "shape"), r.min);
                    let mx = self.point(key(&path, "shape"), r.max);
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
                        let v = self.point(key(&path, "shape"), *p);
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
    fn declare(&mut self) {
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

    fn declare_var(&mut self, scope: Scope, name: &str, decl: &VarDecl, path: &str) {
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
    fn literal(&mut self, l: &Literal, ty: Type, path: &str) -> Option<Value> {
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

    fn trees(&mut self) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (ti, t) in self.pack.trees.iter().enumerate() {
            if let Some(first) = seen.get(t.id.as_str()) {
                self.err(
                    key(&index("trees", ti), "id"),
                    format!(
                        "duplicate tree id `{}` (first used at trees[{first}])",
                        t.id
                    ),
                );
            } else {
                seen.insert(&t.id, ti);
                self.p.tree_index.insert(t.id.clone(), ti as u32);
            }
        }
        let pack = self.pack;
        trees::subtree_cycles(self, pack);
        for ti in 0..self.pack.trees.len() {
            let tree = trees::compile_tree(self, pack, ti);
            self.p.trees.push(tree);
        }
    }

    /// Templates, brains, handlers, hierarchy and the spatial grid of the areas.
    fn area_rules(&mut self) {
        use areas::{AreaRules, CTemplate};
        let pack = self.pack;
        let mut rules: Vec<AreaRules> = Vec::new();
        let mut ai = 0usize;
        for (i, a) in pack.areas.iter().enumerate() {
            if self.p.entity(&a.id) != Some(EntityId::Area(ai as u32)) {
                continue;
            }
            let path = index("areas", i);
            let b = self.p.areas[ai].bbox;
            let wb = self.p.bounds;
            if !a.dynamic
                && (b.min.x < wb.min.x
                    || b.min.y < wb.min.y
                    || b.max.x > wb.max.x
                    || b.max.y > wb.max.y)
            {
                self.err(
                    key(&path, "shape"),
                    format!("area `{}` reaches outside the world bounds", a.id),
                );
            }
            let weight = self.number(key(&path, "weight"), a.weight, 0.0, 1.0e9, "`weight`");
            let mut r = AreaRules {
                weight,
                dynamic: a.dynamic,
                ..AreaRules::default()
            };
            let mut inboxes = vec![self.intern("default")];
            for ib in &a.inboxes {
                let s = self.intern(ib);
                if !inboxes.contains(&s) {
                    inboxes.push(s);
                }
            }
            r.inboxes = inboxes;
            let mut names = HashSet::new();
            for (k, t) in a.templates.iter().enumerate() {
                let tpath = index(&key(&path, "templates"), k);
                if !names.insert(t.name.as_str()) {
                    self.err(
                        key(&tpath, "name"),
                        format!("area `{}` offers `{}` twice", a.id, t.name),
                    );
                }
                let tree = match self.p.tree_index(&t.tree) {
                    Some(x) => x,
                    None => {
                        self.err(key(&tpath, "tree"), format!("unknown tree `{}`", t.tree));
                        u32::MAX
                    }
                };
                let constraint = match &t.constraint {
                    Some(src) => match Expr::compile_typed(src, Type::Bool, self) {
                        Ok(e) => {
                            self.p.exprs.push(e);
                            Some(self.p.exprs.len() as u32 - 1)
                        }
                        Err(e) => {
                            self.diags.push(
                                Diagnostic::error(
                                    key(&tpath, "constraint"),
                                    format!("in `{src}`: {}", e.message),
                                )
                                .inside(e.offset),
                            );
                            None
                        }
                    },
                    None => None,
                };
                let tinboxes = t.inboxes.iter().map(|x| self.intern(x)).collect();
                let name = self.intern(&t.name);
                r.templates.push(CTemplate {
                    name,
                    tree,
                    constraint,
                    max_instances: t.max_instances,
                    enabled: t.enabled,
                    inboxes: tinboxes,
                    drop: t.drop,
                });
            }
            if let Some(bd) = &a.brain {
                let bpath = key(&path, "brain");
                match self.p.tree_index(&bd.tree) {
                    Some(t) => {
                        let every = self
                            .ticks(key(&bpath, "every_seconds"), bd.every_seconds)
                            .max(1);
                        r.brain = Some((t, every));
                    }
                    None => self.err(key(&bpath, "tree"), format!("unknown tree `{}`", bd.tree)),
                }
            }
            let hs = [
                ("on_adopt", &a.handlers.on_adopt),
                ("on_drop", &a.handlers.on_drop),
                ("on_enter", &a.handlers.on_enter),
                ("on_exit", &a.handlers.on_exit),
            ];
            for (k, (name, h)) in hs.into_iter().enumerate() {
                if let Some(t) = h {
                    match self.p.tree_index(t) {
                        Some(x) => r.handlers[k] = Some(x),
                        None => self.err(
                            key(&key(&path, "handlers"), name),
                            format!("unknown tree `{t}`"),
                        ),
                    }
                }
            }
            rules.push(r);
            ai += 1;
        }
        // Templates that no area can ever offer are harmless, but templates whose tree is
        // missing never run: keep them, the error above says why the pack cannot run.
        for (ci, info) in self.p.areas.iter().enumerate() {
            let dynamic = rules.get(ci).is_some_and(|r| r.dynamic);
            if let Some(pa) = info.parent
                && !dynamic
                && let Some(r) = rules.get_mut(pa as usize)
            {
                r.children.push(ci as u32);
            }
        }
        self.p.active_areas = rules
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.dynamic && r.active())
            .map(|(i, _)| i as u32)
            .collect();
        let statics: Vec<(u32, Rect)> = self
            .p
            .areas
            .iter()
            .enumerate()
            .filter(|(i, _)| !rules.get(*i).is_some_and(|r| r.dynamic))
            .map(|(i, a)| (i as u32, a.bbox))
            .collect();
        self.p.grid = areas::static_grid(self.p.bounds, &statics);
        self.p.area_rules = rules;
    }

    fn npcs(&mut self) {
        for (i, n) in self.pack.world.npcs.iter().enumerate() {
            let path = index("world.npcs", i);
            if self.p.entity(&n.id) != Some(EntityId::Npc(self.p.npcs.len() as u32)) {
                continue; // a duplicate id, already reported
            }
            let pos = self.point(key(&path, "pos"), n.pos);
            let speed = self.number(key(&path, "speed"), n.speed, 0.0, 1.0e4, "`speed`");
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
            let health = self.number(key(&path, "health"), n.health, 0.0, 1.0e9, "`health`");
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

    fn events(&mut self) {
        let pack = self.pack;
        let idx = story::index_ids(pack, &mut self.diags);
        self.p.events.index = idx.clone();
        self.p.events = story::build(self, pack, idx);
    }

    fn talk(&mut self) {
        let names = casts::MSG_NAMES;
        let syms = names.map(|n| Resolver::intern(self, n));
        let inbox = Resolver::intern(self, casts::INBOX);
        let p = &self.p;
        let talk = casts::compile(
            self.pack,
            p.dt,
            &|id| p.npc_index(id),
            syms,
            inbox,
            &mut self.diags,
        );
        self.p.talk = talk;
    }

    fn editor(&mut self) {
        let mut ids = HashSet::new();
        for (i, def) in self.pack.editor.breakpoints.iter().enumerate() {
            let path = index("editor.breakpoints", i);
            if !ids.insert(def.id) {
                self.warn(
                    key(&path, "id"),
                    format!("duplicate breakpoint id {}", def.id),
                );
            }
            if let Err(e) = breakpoints::Breakpoint::compile(&self.p, def) {
                let d = Diagnostic::warning(
                    key(&path, e.field),
                    format!("breakpoint {} is ignored: {}", def.id, e.message),
                );
                self.diags.push(match e.offset {
                    Some(o) => d.inside(o),
                    None => d,
                });
            }
        }
        for (tid, layout) in &self.pack.editor.trees {
            let path = key("editor.trees", tid);
            let Some(t) = self.pack.tree(tid) else {
                self.warn(path, format!("layout for unknown tree `{tid}`"));
                continue;
            };
            let mut ids = Vec::new();
            collect_ids(&t.root, &mut ids);
            ids.sort_unstable();
            for nid in layout.nodes.keys() {
                if ids.binary_search(&nid.as_str()).is_err() {
                    self.warn(
                        key(&key(&path, "nodes"), nid),
                        format!("layout for unknown node `{nid}` of tree `{tid}`"),
                    );
                }
            }
        }
    }
}

fn collect_ids<'a>(n: &'a crate::pack::Node, out: &mut Vec<&'a str>) {
    out.push(&n.id);
    for c in &n.children {
        collect_ids(c, out);
    }
}

/// What tree compilation (`trees`) needs from the program builder.
pub(crate) trait TreeCompiler: Resolver {
    fn diag_count(&self) -> usize;
    fn truncate_diags(&mut self, n: usize);
    fn add_request(&mut self, r: areas::CRequest) -> u32;
    fn error(&mut self, path: String, msg: String);
    fn error_in_string(&mut self, path: String, chars: usize, msg: String);
    fn warning(&mut self, path: String, msg: String);
    fn add_expr(&mut self, e: Expr) -> u32;
    fn slot(&self, scope: Scope, name: &str) -> Option<(u32, Type)>;
    fn tree_index(&self, id: &str) -> Option<u32>;
    fn number(&mut self, path: String, x: f64, lo: f64, hi: f64, what: &str) -> f64;
    fn ticks(&mut self, path: String, seconds: f64) -> u64;
    fn point(&mut self, path: String, p: crate::pack::Point) -> Vec2;
    fn flag_slot(&mut self, name: &str) -> u32;
    fn counter_slot(&mut self, name: &str) -> u32;
}

impl TreeCompiler for Builder<'_> {
    fn diag_count(&self) -> usize {
        self.diags.len()
    }
    fn truncate_diags(&mut self, n: usize) {
        self.diags.truncate(n);
    }
    fn add_request(&mut self, r: areas::CRequest) -> u32 {
        self.p.requests.push(r);
        self.p.requests.len() as u32 - 1
    }
    fn error(&mut self, path: String, msg: String) {
        self.err(path, msg);
    }
    fn error_in_string(&mut self, path: String, chars: usize, msg: String) {
        self.diags.push(Diagnostic::error(path, msg).inside(chars));
    }
    fn warning(&mut self, path: String, msg: String) {
        self.warn(path, msg);
    }
    fn add_expr(&mut self, e: Expr) -> u32 {
        self.p.exprs.push(e);
        self.p.exprs.len() as u32 - 1
    }
    fn slot(&self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        let s = match scope {
            Scope::Blackboard => &self.p.blackboard,
            Scope::Area => &self.p.area_vars,
            Scope::Flag => &self.p.flags,
            Scope::Counter => &self.p.counters,
        };
        s.get(name).map(|i| (i, s.types[i as usize]))
    }
    fn tree_index(&self, id: &str) -> Option<u32> {
        self.p.tree_index(id)
    }
    fn number(&mut self, path: String, x: f64, lo: f64, hi: f64, what: &str) -> f64 {
        Builder::number(self, path, x, lo, hi, what)
    }
    fn ticks(&mut self, path: String, seconds: f64) -> u64 {
        Builder::ticks(self, path, seconds)
    }
    fn point(&mut self, path: String, p: crate::pack::Point) -> Vec2 {
        Builder::point(self, path, p)
    }
    fn flag_slot(&mut self, name: &str) -> u32 {
        self.p.flags.add(name, Type::Bool, Value::Bool(false))
    }
    fn counter_slot(&mut self, name: &str) -> u32 {
        self.p.counters.add(name, Type::Int, Value::Int(0))
    }
}

impl responses::ResponseCompiler for Builder<'_> {
    fn flag_slot(&mut self, name: &str) -> u32 {
        self.p.flags.add(name, Type::Bool, Value::Bool(false))
    }
    fn counter_slot(&mut self, name: &str) -> u32 {
        self.p.counters.add(name, Type::Int, Value::Int(0))
    }
    fn intern(&mut self, s: &str) -> Sym {
        Resolver::intern(self, s)
    }
    fn npc(&self, id: &str) -> Option<u32> {
        self.p.npc_index(id)
    }
    fn dynamic_area(&self, id: &str) -> Result<u32, responses::DynamicAreaError> {
        match self.p.entity(id) {
            Some(EntityId::Area(a)) if rules_is_dynamic(&self.pack.areas, id) => Ok(a),
            Some(EntityId::Area(_)) => Err(responses::DynamicAreaError::NotDynamic(id.into())),
            _ => Err(responses::DynamicAreaError::Unknown(id.into())),
        }
    }
    fn ticks(&mut self, path: String, seconds: f64) -> u64 {
        Builder::ticks(self, path, seconds)
    }
    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }
    fn event(&self, id: &str) -> Option<u32> {
        self.p.events.event(id)
    }
    fn lookup(&self, id: &str) -> Option<EntityId> {
        self.p.entity(id)
    }
}

/// Builds a pack and compiles a list of responses against it (tests of responses).
#[cfg(test)]
pub(crate) fn build_with_responses(
    pack: &Pack,
    responses: &[crate::pack::Response],
) -> (Program, Vec<responses::CResponse>, Vec<Diagnostic>) {
    let (program, mut diags) = Program::build(pack);
    let mut b = Builder {
        p: program,
        diags: Vec::new(),
        pack,
    };
    let compiled = responses
        .iter()
        .enumerate()
        .filter_map(|(i, r)| responses::compile(&mut b, r, &index("responses", i)))
        .collect();
    diags.extend(b.diags);
    (b.p, compiled, diags)
}
