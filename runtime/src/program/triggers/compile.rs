//! Compiling trigger systems: ids resolved, condition trees flattened and checked (every
//! problem with its JSON path), responses compiled, the event index and sensor grid built.
//! The static checks over the whole pack are in [`super::checks`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value as J;

use super::{
    CNode, CTrigger, Cmp, DoorIs, Key, Leaf, LeafKind, Op, Sensor, SystemInfo, TriggerProgram, Who,
};
use crate::expr::{Expr, Resolver};
use crate::pack::Diagnostic;
use crate::pack::diag::{index, key};
use crate::pack::{Cond, Owner, Pick};
use crate::program::MAX_COORD;
use crate::program::ctx::{At, Ctx, Here};
use crate::program::responses::{self as respond, CResponse};
use crate::value::{EntityId, Sym, Vec2};

use super::checks::static_checks;

/// Deepest condition tree accepted.
pub const MAX_COND_DEPTH: u32 = 32;

/// Every condition kind, in documentation order.
pub const CONDITION_KINDS: &[&str] = &[
    "in_area",
    "in_radius",
    "in_rect",
    "received",
    "died",
    "killed",
    "flag",
    "counter",
    "health",
    "has_item",
    "equipped",
    "door",
    "object_state",
    "near",
    "var",
];
/// The operators.
pub const OPERATORS: &[&str] = &["and", "or", "not", "xor"];

/// Compiles `pack.triggers` into `b.p.triggers`.
pub(crate) fn build(b: &mut Ctx<'_>) {
    let pack = b.pack;
    let mut tp = TriggerProgram::default();
    // 1. Systems, owners and trigger ids (one instance per owner).
    struct Pending {
        sys: usize,
        def: usize,
        owner: EntityId,
        suffix: String,
        id: String,
    }
    let mut pending = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (si, sys) in pack.triggers.iter().enumerate() {
        let spath = index("triggers", si);
        if let Some(first) = seen.get(sys.id.as_str()) {
            b.diags.push(Diagnostic::error(
                key(&spath, "id"),
                format!(
                    "duplicate trigger system id `{}` (first used at triggers[{first}])",
                    sys.id
                ),
            ));
            continue;
        }
        seen.insert(&sys.id, si);
        let owners: Vec<(EntityId, String)> = match &sys.owner {
            Owner::World | Owner::Event(_) => vec![(EntityId::None, String::new())],
            Owner::Npc(id) => match b.p.entity(id) {
                Some(e @ EntityId::Npc(_)) => vec![(e, String::new())],
                _ => {
                    b.diags.push(Diagnostic::error(
                        key(&key(&spath, "owner"), "npc"),
                        format!("unknown NPC `{id}`"),
                    ));
                    continue;
                }
            },
            Owner::Object(id) => match b.p.entity(id) {
                Some(e @ EntityId::Object(_)) => vec![(e, String::new())],
                _ => {
                    b.diags.push(Diagnostic::error(
                        key(&key(&spath, "owner"), "object"),
                        format!("unknown object `{id}`"),
                    ));
                    continue;
                }
            },
            Owner::Area(id) => match b.p.entity(id) {
                Some(e @ EntityId::Area(_)) => vec![(e, String::new())],
                _ => {
                    b.diags.push(Diagnostic::error(
                        key(&key(&spath, "owner"), "area"),
                        format!("unknown area `{id}`"),
                    ));
                    continue;
                }
            },
            Owner::ObjectKind(kind) => {
                let found: Vec<(EntityId, String)> =
                    b.p.objects
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| b.p.sym(o.kind) == kind)
                        .map(|(i, o)| (EntityId::Object(i as u32), format!("@{}", o.id)))
                        .collect();
                if found.is_empty() {
                    b.diags.push(Diagnostic::warning(
                        key(&key(&spath, "owner"), "object_kind"),
                        format!("no object of kind `{kind}`: this trigger system never runs"),
                    ));
                }
                found
            }
        };
        let mut ids: HashMap<&str, usize> = HashMap::new();
        for (ti, t) in sys.triggers.iter().enumerate() {
            let tpath = index(&key(&spath, "triggers"), ti);
            if let Some(first) = ids.get(t.id.as_str()) {
                b.diags.push(Diagnostic::error(
                    key(&tpath, "id"),
                    format!(
                        "duplicate trigger id `{}` (first used at triggers[{first}])",
                        t.id
                    ),
                ));
                continue;
            }
            if t.id.is_empty() || t.id.contains(['/', '@']) {
                b.diags.push(Diagnostic::error(
                    key(&tpath, "id"),
                    "a trigger id must be non-empty, without `/` or `@`",
                ));
                continue;
            }
            ids.insert(&t.id, ti);
        }
        let mut info = SystemInfo {
            id: sys.id.clone(),
            owner: sys.owner.clone(),
            triggers: Vec::new(),
        };
        for (owner, suffix) in owners {
            for (ti, t) in sys.triggers.iter().enumerate() {
                if ids.get(t.id.as_str()) != Some(&ti) {
                    continue;
                }
                let id = format!("{}/{}{suffix}", sys.id, t.id);
                let g = pending.len() as u32;
                tp.index.insert(id.clone(), g);
                info.triggers.push(g);
                pending.push(Pending {
                    sys: si,
                    def: ti,
                    owner,
                    suffix: suffix.clone(),
                    id,
                });
            }
        }
        tp.systems.push(info);
    }
    // 2. Conditions and responses.
    let mut sys_index = vec![u32::MAX; pack.triggers.len()];
    for (k, s) in tp.systems.iter().enumerate() {
        if let Some(&si) = seen.get(s.id.as_str()) {
            sys_index[si] = k as u32;
        }
    }
    let mut first_seen = BTreeSet::new();
    // Responses look trigger ids up through the context while the systems compile.
    b.trigger_ids = std::mem::take(&mut tp.index);
    for (g, pd) in pending.iter().enumerate() {
        let sys = &pack.triggers[pd.sys];
        let def = &sys.triggers[pd.def];
        let tpath = index(&key(&index("triggers", pd.sys), "triggers"), pd.def);
        let first_instance = first_seen.insert((pd.sys, pd.def));
        // Diagnostics of per-object instances would repeat once per object: keep the first.
        let mark = b.diags.len();
        let reload = if def.reload_time != 0.0 {
            b.ticks(At::Key(&tpath, "reload_time"), def.reload_time)
        } else {
            0
        };
        if def.single_shot && def.reload_time != 0.0 {
            b.diags.push(Diagnostic::warning(
                key(&tpath, "reload_time"),
                "a single-shot trigger never reloads; `reload_time` has no effect",
            ));
        }
        let mut nodes = Vec::new();
        let leaf_start = tp.leaves.len();
        let mut cx = CondCx {
            b: &mut *b,
            tp: &mut tp,
            trigger: g as u32,
            owner: pd.owner,
            nodes: &mut nodes,
        };
        cx.cond(&def.when, &key(&tpath, "when"), 0);
        // Responses.
        if def.responses.is_empty() {
            b.diags.push(Diagnostic::warning(
                key(&tpath, "responses"),
                "a trigger without responses does nothing",
            ));
        }
        b.here = Here {
            owner: pd.owner,
            system: Some((sys.id.clone(), pd.suffix.clone())),
        };
        let responses: Vec<CResponse> = def
            .responses
            .iter()
            .enumerate()
            .filter_map(|(i, r)| respond::compile(b, r, &index(&key(&tpath, "responses"), i)))
            .collect();
        b.here = Here::default();
        let mut weights = Vec::new();
        if def.pick == Pick::RandomOne {
            weights = def.weights.clone();
            if weights.is_empty() {
                weights = vec![1.0; def.responses.len()];
            }
            if weights.len() != def.responses.len() {
                b.diags.push(Diagnostic::error(
                    key(&tpath, "weights"),
                    format!(
                        "{} weights for {} responses (give one per response, or none)",
                        weights.len(),
                        def.responses.len()
                    ),
                ));
            } else if weights.iter().any(|w| !w.is_finite() || *w < 0.0)
                || weights.iter().sum::<f64>() <= 0.0
            {
                b.diags.push(Diagnostic::error(
                    key(&tpath, "weights"),
                    "weights must be finite, not negative, and not all zero",
                ));
            }
        } else if !def.weights.is_empty() {
            b.diags.push(Diagnostic::warning(
                key(&tpath, "weights"),
                "`weights` are used only with `\"pick\": \"random_one\"`",
            ));
        }
        if !first_instance {
            b.diags.truncate(mark);
        }
        if tp.leaves[leaf_start..].iter().any(|l| l.kind.every_tick()) {
            tp.polled.push(g as u32);
        }
        tp.triggers.push(CTrigger {
            id: pd.id.clone(),
            system: sys_index[pd.sys],
            owner: pd.owner,
            comment: def.comment.clone(),
            enabled: def.enabled,
            single_shot: def.single_shot,
            reload_ticks: reload,
            nodes,
            pick: def.pick,
            weights,
            responses,
            response_names: super::response_names(&def.responses),
        });
    }
    tp.index = std::mem::take(&mut b.trigger_ids);
    // 3. Event index.
    for (li, l) in tp.leaves.iter().enumerate() {
        let li = li as u32;
        let mut add = |k: Key| tp.listeners.entry(k).or_default().push(li);
        match l.kind {
            LeafKind::InArea { area, .. } => add(Key::Area(area)),
            LeafKind::Received { message, until, .. } => {
                add(Key::Message(message));
                if let Some(u) = until
                    && u != message
                {
                    add(Key::Message(u));
                }
            }
            LeafKind::Died { who } | LeafKind::Killed { victim: who, .. } => match who {
                Who::Any => add(Key::DeathAny),
                Who::Npc(x) => add(Key::DeathOf(x)),
            },
            LeafKind::Flag { flag, .. } => add(Key::Flag(flag)),
            LeafKind::Counter { counter, .. } => add(Key::Counter(counter)),
            _ => {}
        }
    }
    tp.wants_messages = tp
        .leaves
        .iter()
        .any(|l| matches!(l.kind, LeafKind::Received { .. }));
    tp.wants_deaths = tp
        .leaves
        .iter()
        .any(|l| matches!(l.kind, LeafKind::Died { .. } | LeafKind::Killed { .. }));
    tp.grid = super::sensor_grid(b.p.bounds, &tp.sensors);
    let mut diags = static_checks(
        b,
        &tp,
        &pending.iter().map(|p| (p.sys, p.def)).collect::<Vec<_>>(),
    );
    b.diags.append(&mut diags);
    b.p.triggers = tp;
}

struct CondCx<'x, 'y> {
    b: &'x mut Ctx<'y>,
    tp: &'x mut TriggerProgram,
    trigger: u32,
    owner: EntityId,
    nodes: &'x mut Vec<CNode>,
}

/// The parameters of one condition, consumed one by one; leftovers are unknown fields.
struct Params<'a> {
    map: BTreeMap<&'a str, &'a J>,
    path: &'a str,
    errors: Vec<Diagnostic>,
}

impl<'a> Params<'a> {
    fn new(c: &'a Cond, path: &'a str) -> Params<'a> {
        Params {
            map: c.params.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            path,
            errors: Vec::new(),
        }
    }
    fn take(&mut self, name: &str) -> Option<&'a J> {
        self.map.remove(name).filter(|v| !v.is_null())
    }
    fn missing(&mut self, name: &str, what: &str) {
        self.errors.push(Diagnostic::error(
            self.path,
            format!("missing parameter `{name}` ({what})"),
        ));
    }
    fn wrong(&mut self, name: &str, what: &str) {
        self.errors.push(Diagnostic::error(
            key(self.path, name),
            format!("`{name}` must be {what}"),
        ));
    }
    fn opt_str(&mut self, name: &str) -> Option<&'a str> {
        match self.take(name) {
            None => None,
            Some(J::String(s)) => Some(s),
            Some(_) => {
                self.wrong(name, "a string");
                None
            }
        }
    }
    fn str(&mut self, name: &str, what: &str) -> Option<&'a str> {
        if !self.map.contains_key(name) {
            self.missing(name, what);
            return None;
        }
        self.opt_str(name)
    }
    fn opt_bool(&mut self, name: &str) -> Option<bool> {
        match self.take(name) {
            None => None,
            Some(J::Bool(b)) => Some(*b),
            Some(_) => {
                self.wrong(name, "true or false");
                None
            }
        }
    }
    fn num(&mut self, name: &str, what: &str, lo: f64, hi: f64) -> Option<f64> {
        match self.take(name) {
            None => {
                self.missing(name, what);
                None
            }
            Some(J::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() && x >= lo && x <= hi => Some(x),
                _ => {
                    self.wrong(name, &format!("a number between {lo} and {hi}"));
                    None
                }
            },
            Some(_) => {
                self.wrong(name, "a number");
                None
            }
        }
    }
    fn int(&mut self, name: &str, what: &str) -> Option<i64> {
        match self.take(name) {
            None => {
                self.missing(name, what);
                None
            }
            Some(J::Number(n)) => match n.as_i64() {
                Some(x) => Some(x),
                None => {
                    self.wrong(name, "an integer");
                    None
                }
            },
            Some(_) => {
                self.wrong(name, "an integer");
                None
            }
        }
    }
    fn point(&mut self, name: &str, what: &str) -> Option<Vec2> {
        match self.take(name) {
            None => {
                self.missing(name, what);
                None
            }
            Some(J::Array(a)) if a.len() == 2 => {
                let x = a[0].as_f64().filter(|v| v.abs() <= MAX_COORD);
                let y = a[1].as_f64().filter(|v| v.abs() <= MAX_COORD);
                match (x, y) {
                    (Some(x), Some(y)) => Some(Vec2::new(x, y)),
                    _ => {
                        self.wrong(name, "[x, y] with coordinates within ±1e7");
                        None
                    }
                }
            }
            Some(_) => {
                self.wrong(name, "a point [x, y]");
                None
            }
        }
    }
}

impl CondCx<'_, '_> {
    fn push_node(&mut self, op: Op, path: &str, kind: &str, depth: u32) -> u32 {
        self.nodes.push(CNode {
            op,
            children: Vec::new(),
            path: path.to_string(),
            kind: kind.to_string(),
            depth,
        });
        self.nodes.len() as u32 - 1
    }

    /// Compiles one node; returns its index. A node with errors becomes an inert leaf-less
    /// `or` (always false); the errors stop the pack from running anyway.
    fn cond(&mut self, c: &Cond, path: &str, depth: u32) -> u32 {
        if depth >= MAX_COND_DEPTH {
            self.b.diags.push(Diagnostic::error(
                path,
                format!("condition tree deeper than {MAX_COND_DEPTH} levels"),
            ));
            return self.push_node(Op::Or, path, "or", depth);
        }
        let op = match c.kind.as_str() {
            "and" => Some(Op::And),
            "or" => Some(Op::Or),
            "xor" => Some(Op::Xor),
            "not" => Some(Op::Not),
            _ => None,
        };
        if let Some(op) = op {
            let (min, max, what) = match op {
                Op::Not => (1, 1, "exactly one operand"),
                Op::Xor => (2, usize::MAX, "at least two operands"),
                _ => (1, usize::MAX, "at least one operand"),
            };
            if c.of.len() < min || c.of.len() > max {
                let name = c.kind.to_uppercase();
                self.b.diags.push(Diagnostic::error(
                    key(path, "of"),
                    format!(
                        "{}{name} needs {what} in `of`, found {}",
                        if c.of.is_empty() { "empty " } else { "" },
                        c.of.len()
                    ),
                ));
            }
            for k in c.params.keys() {
                self.b.diags.push(Diagnostic::warning(
                    key(path, k),
                    format!("unknown field `{k}` for a `{}` operator (ignored)", c.kind),
                ));
            }
            let me = self.push_node(op, path, &c.kind, depth);
            let of = key(path, "of");
            for (i, child) in c.of.iter().enumerate() {
                let ci = self.cond(child, &index(&of, i), depth + 1);
                self.nodes[me as usize].children.push(ci);
            }
            return me;
        }
        if !CONDITION_KINDS.contains(&c.kind.as_str()) {
            let mut known: Vec<&str> = OPERATORS.to_vec();
            known.extend_from_slice(CONDITION_KINDS);
            self.b.diags.push(Diagnostic::error(
                key(path, "type"),
                format!(
                    "unknown condition kind `{}`{}; known: {}",
                    c.kind,
                    crate::pack::suggest(&c.kind, &known)
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default(),
                    known.join(", ")
                ),
            ));
            return self.push_node(Op::Or, path, "or", depth);
        }
        if !c.of.is_empty() {
            self.b.diags.push(Diagnostic::error(
                key(path, "of"),
                format!(
                    "a `{}` condition takes no operands (`of` is for and/or/not/xor)",
                    c.kind
                ),
            ));
        }
        let mut ps = Params::new(c, path);
        let kind = self.leaf(&c.kind, &mut ps, path);
        let consume = if kind.as_ref().is_some_and(LeafKind::is_one_off) {
            ps.opt_bool("consume").unwrap_or(false)
        } else {
            false
        };
        let mut errors = std::mem::take(&mut ps.errors);
        self.b.diags.append(&mut errors);
        for k in ps.map.keys() {
            self.b.diags.push(Diagnostic::warning(
                key(path, k),
                format!("unknown field `{k}` for a `{}` condition (ignored)", c.kind),
            ));
        }
        match kind {
            Some(kind) => {
                let li = self.tp.leaves.len() as u32;
                if let LeafKind::InSensor { sensor, .. } = kind
                    && let Some(s) = self.tp.sensors.get_mut(sensor as usize)
                {
                    s.leaf = li;
                }
                self.tp.leaves.push(Leaf {
                    trigger: self.trigger,
                    kind,
                    consume,
                });
                self.push_node(Op::Leaf(li), path, &c.kind, depth)
            }
            None => self.push_node(Op::Or, path, &c.kind, depth),
        }
    }

    /// `who`: an NPC id, `any` (when allowed) or `self` (an NPC owner).
    fn who(
        &mut self,
        ps: &mut Params<'_>,
        name: &str,
        any_ok: bool,
        default_any: bool,
    ) -> Option<Who> {
        let id = if default_any && !ps.map.contains_key(name) {
            "any"
        } else {
            ps.str(name, "an NPC id")?
        };
        match id {
            "any" if any_ok => Some(Who::Any),
            "any" => {
                ps.errors.push(Diagnostic::error(
                    key(ps.path, name),
                    "this condition needs one NPC, not `any`",
                ));
                None
            }
            "self" => match self.owner {
                EntityId::Npc(n) => Some(Who::Npc(n)),
                _ => {
                    ps.errors.push(Diagnostic::error(
                        key(ps.path, name),
                        "`self` is an NPC only in a trigger system owned by an NPC",
                    ));
                    None
                }
            },
            id => match self.b.p.npc_index(id) {
                Some(n) => Some(Who::Npc(n)),
                None => {
                    ps.errors.push(Diagnostic::error(
                        key(ps.path, name),
                        format!("unknown NPC `{id}`"),
                    ));
                    None
                }
            },
        }
    }

    fn one_npc(&mut self, ps: &mut Params<'_>, name: &str) -> Option<u32> {
        match self.who(ps, name, false, false)? {
            Who::Npc(n) => Some(n),
            Who::Any => None,
        }
    }

    fn entity(&mut self, ps: &mut Params<'_>, name: &str) -> Option<EntityId> {
        let id = ps.str(name, "an entity id")?;
        let e = if id == "self" {
            Some(self.owner).filter(|e| *e != EntityId::None)
        } else {
            self.b.p.entity(id)
        };
        if e.is_none() {
            ps.errors.push(Diagnostic::error(
                key(ps.path, name),
                format!("unknown entity `{id}`"),
            ));
        }
        e
    }

    fn object(&mut self, ps: &mut Params<'_>, name: &str) -> Option<u32> {
        match self.entity(ps, name)? {
            EntityId::Object(o) => Some(o),
            _ => {
                ps.errors.push(Diagnostic::error(
                    key(ps.path, name),
                    "expected a world object",
                ));
                None
            }
        }
    }

    fn sym(&mut self, s: &str) -> Sym {
        Resolver::intern(&mut *self.b, s)
    }

    fn cmp(&mut self, ps: &mut Params<'_>) -> Option<Cmp> {
        let s = ps.str("cmp", "eq, ne, lt, le, gt, ge, even or odd")?;
        let c = Cmp::parse(s);
        if c.is_none() {
            ps.wrong("cmp", &format!("one of {}", Cmp::NAMES.join(", ")));
        }
        c
    }

    fn leaf(&mut self, kind: &str, ps: &mut Params<'_>, path: &str) -> Option<LeafKind> {
        Some(match kind {
            "in_area" => {
                let who = self.who(ps, "who", true, false);
                let area = match self.entity(ps, "area")? {
                    EntityId::Area(a) => a,
                    _ => {
                        ps.wrong("area", "an area id");
                        return None;
                    }
                };
                LeafKind::InArea { who: who?, area }
            }
            "in_radius" | "in_rect" => {
                let who = self.who(ps, "who", true, false);
                let (circle, min, max) = if kind == "in_radius" {
                    let r = ps.num("radius", "in world units", 0.0, 1.0e6);
                    let centre = if ps.map.contains_key("at") {
                        ps.point("at", "[x, y]")
                    } else {
                        match self.entity(ps, "around")? {
                            EntityId::Object(o) => self.b.p.objects.get(o as usize).map(|o| o.pos),
                            EntityId::Area(a) => self.b.p.areas.get(a as usize).map(|a| a.center()),
                            _ => {
                                ps.errors.push(Diagnostic::error(
                                    key(path, "around"),
                                    "a radius needs a fixed centre (`around` an object or area, or `at` a point); for two NPCs use `near`",
                                ));
                                None
                            }
                        }
                    };
                    let (c, r) = (centre?, r?);
                    (
                        Some((c, r)),
                        Vec2::new(c.x - r, c.y - r),
                        Vec2::new(c.x + r, c.y + r),
                    )
                } else {
                    let min = ps.point("min", "[x, y]");
                    let max = ps.point("max", "[x, y]");
                    let (min, max) = (min?, max?);
                    if min.x > max.x || min.y > max.y {
                        ps.errors
                            .push(Diagnostic::error(path, "a rectangle needs min <= max"));
                        return None;
                    }
                    (None, min, max)
                };
                let who = who?;
                let sensor = self.tp.sensors.len() as u32;
                self.tp.sensors.push(Sensor {
                    leaf: u32::MAX,
                    who,
                    circle,
                    min,
                    max,
                });
                LeafKind::InSensor { who, sensor }
            }
            "received" => {
                let who = self.who(ps, "who", true, false);
                let message = ps.str("message", "a message kind");
                let until = ps.opt_str("until");
                let message = self.sym(message?);
                let until = until.map(|u| self.sym(u));
                LeafKind::Received {
                    who: who?,
                    message,
                    until,
                }
            }
            "died" => LeafKind::Died {
                who: self.who(ps, "who", true, false)?,
            },
            "killed" => {
                let by = self.who(ps, "by", true, true);
                let victim = self.who(ps, "victim", true, true);
                LeafKind::Killed {
                    by: by?,
                    victim: victim?,
                }
            }
            "flag" => {
                let name = ps.str("flag", "a flag name")?;
                let value = ps.opt_bool("value").unwrap_or(true);
                LeafKind::Flag {
                    flag: self.b.flag_slot(name),
                    value,
                }
            }
            "counter" => {
                let name = ps.str("counter", "a counter name");
                let cmp = self.cmp(ps)?;
                let value = if matches!(cmp, Cmp::Even | Cmp::Odd) {
                    0
                } else {
                    ps.int("value", "an integer")?
                };
                LeafKind::Counter {
                    counter: self.b.counter_slot(name?),
                    cmp,
                    value,
                }
            }
            "health" => {
                let who = self.one_npc(ps, "who");
                let cmp = self.cmp(ps);
                let percent = ps.num("percent", "0 to 100", 0.0, 100.0);
                let cmp = cmp?;
                if matches!(cmp, Cmp::Even | Cmp::Odd) {
                    ps.wrong("cmp", "a comparison (eq, ne, lt, le, gt, ge)");
                    return None;
                }
                LeafKind::Health {
                    who: who?,
                    cmp,
                    percent: percent?,
                }
            }
            "has_item" | "equipped" => {
                let who = self.one_npc(ps, "who");
                let item = ps.str("item", "an item name");
                let item = self.sym(item?);
                let who = who?;
                if kind == "has_item" {
                    LeafKind::HasItem { who, item }
                } else {
                    LeafKind::Equipped { who, item }
                }
            }
            "door" => {
                let object = self.object(ps, "object");
                let is = ps.str("is", "open, closed, locked or unlocked");
                let is = match is? {
                    "open" => DoorIs::Open,
                    "closed" => DoorIs::Closed,
                    "locked" => DoorIs::Locked,
                    "unlocked" => DoorIs::Unlocked,
                    _ => {
                        ps.wrong("is", "one of open, closed, locked, unlocked");
                        return None;
                    }
                };
                LeafKind::Door {
                    object: object?,
                    is,
                }
            }
            "object_state" => {
                let object = self.object(ps, "object");
                let state = ps.str("state", "a state name");
                let state = self.sym(state?);
                LeafKind::ObjectState {
                    object: object?,
                    state,
                }
            }
            "near" => {
                let a = self.one_npc(ps, "a");
                let b = self.entity(ps, "b");
                let distance = ps.num("distance", "in world units", 0.0, 1.0e6);
                LeafKind::Near {
                    a: a?,
                    b: b?,
                    distance: distance?,
                }
            }
            "var" => {
                let who = self.one_npc(ps, "who");
                let src = ps.str("expr", "a boolean expression over the NPC's variables")?;
                let who = who?;
                match Expr::compile_typed(src, crate::value::Type::Bool, &mut *self.b) {
                    Ok(e) => LeafKind::Var {
                        who,
                        expr: self.b.add_expr(e),
                    },
                    Err(e) => {
                        self.b.diags.push(
                            Diagnostic::error(key(path, "expr"), e.message.clone())
                                .inside(e.offset),
                        );
                        return None;
                    }
                }
            }
            _ => return None,
        })
    }
}
