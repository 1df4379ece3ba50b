//! Compiled area rules: templates, brains, handlers, hierarchy, and the spatial grid.

use std::collections::HashSet;

use super::ctx::At;
use super::grid::{BoxGrid, MAX_CELLS_PER_AXIS};
use crate::expr::Expr;
use crate::pack::diag::{index, key};
use crate::pack::{Diagnostic, DropPolicy, Rect};
use crate::value::{EntityId, Sym, Type, Vec2};

/// A behavior template, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct CTemplate {
    /// The behavior it provides.
    pub name: Sym,
    pub tree: u32,
    /// Expression over the requester that must hold.
    pub constraint: Option<u32>,
    pub max_instances: Option<u32>,
    pub enabled: bool,
    pub inboxes: Vec<Sym>,
    pub drop: DropPolicy,
}

/// A request node's parameters, compiled.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CRequest {
    /// Preferred templates with weights.
    pub prefer: Vec<(Sym, f64)>,
    pub forbid: Vec<Sym>,
    /// Ask the innermost area of this kind (instead of the innermost area).
    pub area_kind: Option<Sym>,
}

/// The rules of one pack area.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AreaRules {
    pub templates: Vec<CTemplate>,
    /// Brain tree and ticks between its ticks.
    pub brain: Option<(u32, u64)>,
    /// Handler trees by `world::areas::HandlerKind`.
    pub handlers: [Option<u32>; 4],
    pub inboxes: Vec<Sym>,
    /// Static child areas, by index.
    pub children: Vec<u32>,
    pub weight: f64,
    pub dynamic: bool,
}

impl AreaRules {
    /// Whether the area has anything to run (a brain or handlers).
    pub fn active(&self) -> bool {
        self.brain.is_some() || self.handlers.iter().any(Option::is_some)
    }
    pub fn template(&self, name: Sym) -> Option<usize> {
        self.templates.iter().position(|t| t.name == name)
    }
}

/// The spatial index of the static areas: their bounding boxes in the one grid of static
/// boxes, about one cell per area.
pub fn static_grid(bounds: Rect, areas: &[(u32, Rect)]) -> BoxGrid {
    let w = (bounds.max.x - bounds.min.x).max(1e-9);
    let h = (bounds.max.y - bounds.min.y).max(1e-9);
    let n = ((areas.len() as f64).sqrt().ceil() as usize).clamp(1, MAX_CELLS_PER_AXIS);
    let boxes: Vec<(u32, Vec2, Vec2)> = areas
        .iter()
        .map(|&(a, b)| (a, Vec2::new(b.min.x, b.min.y), Vec2::new(b.max.x, b.max.y)))
        .collect();
    BoxGrid::build(bounds, w.max(h) / n as f64, &boxes, Vec::new())
}

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
pub fn area_name(p: &super::Program, id: u32) -> String {
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

impl super::ctx::Ctx<'_> {
    /// Templates, brains, handlers, hierarchy and the spatial grid of the areas.
    pub(crate) fn area_rules(&mut self) {
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
            let weight = self.number(At::Key(&path, "weight"), a.weight, 0.0, 1.0e9, "`weight`");
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
                            .ticks(At::Key(&bpath, "every_seconds"), bd.every_seconds)
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
        self.p.grid = static_grid(self.p.bounds, &statics);
        self.p.area_rules = rules;
    }
}
