//! Breakpoints compiled against a program: names resolved, conditions type-checked. The
//! program checks the pack's saved breakpoints with this; the debugger matches them.

use std::collections::HashSet;

use crate::expr::{Expr, Resolver, Scope};
use crate::pack::Diagnostic;
use crate::pack::diag::{index, key};
use crate::pack::{BreakOn, BreakpointDef, NodeWhen};
use crate::value::{EntityId, Sym, Type};

use super::Program;

/// A breakpoint definition that could not be compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakpointError {
    /// The field at fault (`tree`, `node`, `var`, `condition`, `npc`, …).
    pub field: &'static str,
    /// Character offset inside an expression, for `condition`.
    pub offset: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for BreakpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.offset {
            Some(o) => write!(f, "{} (column {}): {}", self.field, o + 1, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

/// What a compiled breakpoint watches, with ids resolved.
#[derive(Clone, Debug)]
pub(crate) enum Watch {
    Node {
        tree: u32,
        node: Sym,
        when: NodeWhen,
    },
    Condition,
    Blackboard(u32),
    Flag(u32),
    Counter(u32),
    Event,
}

/// A breakpoint ready to match events.
#[derive(Clone, Debug)]
pub struct Breakpoint {
    pub def: BreakpointDef,
    /// Times it has stopped the simulation.
    pub hits: u64,
    pub(crate) watch: Watch,
    pub(crate) npc: Option<u32>,
    pub(crate) cond: Option<Expr>,
    /// For `on: condition`: the condition's value at its last check, per NPC.
    pub(crate) last: Vec<bool>,
    /// `last` as it was at the start of the current tick (to re-run the tick).
    pub(crate) start: Vec<bool>,
}

/// Resolves names against a built program without adding to it.
struct ReadOnly<'a>(&'a Program);

impl Resolver for ReadOnly<'_> {
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        let s = match scope {
            Scope::Blackboard => &self.0.blackboard,
            Scope::Area => &self.0.area_vars,
            Scope::Flag => &self.0.flags,
            Scope::Counter => &self.0.counters,
        };
        s.get(name).map(|i| (i, s.types[i as usize]))
    }
    fn intern(&mut self, s: &str) -> Sym {
        // A string no variable can hold compares unequal to everything.
        self.0.find_sym(s).unwrap_or(Sym(u32::MAX))
    }
    fn entity(&mut self, id: &str) -> Option<EntityId> {
        self.0.entity(id)
    }
}

impl Breakpoint {
    /// Compiles a definition against a program.
    pub fn compile(p: &Program, def: &BreakpointDef) -> Result<Breakpoint, BreakpointError> {
        let err = |field, message: String| BreakpointError {
            field,
            offset: None,
            message,
        };
        let npc = match &def.npc {
            Some(id) => Some(
                p.npc_index(id)
                    .ok_or_else(|| err("npc", format!("unknown NPC `{id}`")))?,
            ),
            None => None,
        };
        let cond = match &def.condition {
            Some(src) => Some(
                Expr::compile_typed(src, Type::Bool, &mut ReadOnly(p)).map_err(|e| {
                    BreakpointError {
                        field: "condition",
                        offset: Some(e.offset),
                        message: format!("in `{src}`: {}", e.message),
                    }
                })?,
            ),
            None => None,
        };
        let watch = match &def.on {
            BreakOn::Node { tree, node, when } => {
                let ti = p
                    .tree_index(tree)
                    .ok_or_else(|| err("tree", format!("unknown tree `{tree}`")))?;
                let sym = p.find_sym(node).filter(|&s| {
                    p.trees.iter().any(|t| {
                        t.nodes
                            .iter()
                            .any(|n| n.origin_tree == ti && n.origin_id == s)
                    })
                });
                let Some(sym) = sym else {
                    return Err(err(
                        "node",
                        format!("tree `{tree}` has no (enabled) node `{node}`"),
                    ));
                };
                Watch::Node {
                    tree: ti,
                    node: sym,
                    when: *when,
                }
            }
            BreakOn::Condition => {
                if cond.is_none() {
                    return Err(err(
                        "condition",
                        "a condition breakpoint needs a `condition` expression".into(),
                    ));
                }
                Watch::Condition
            }
            BreakOn::Data { var } => {
                if let Some(name) = var.strip_prefix("flags.").or(var.strip_prefix("flag.")) {
                    Watch::Flag(
                        p.flags
                            .get(name)
                            .ok_or_else(|| err("var", format!("unknown flag `{name}`")))?,
                    )
                } else if let Some(name) = var
                    .strip_prefix("counters.")
                    .or(var.strip_prefix("counter."))
                {
                    Watch::Counter(
                        p.counters
                            .get(name)
                            .ok_or_else(|| err("var", format!("unknown counter `{name}`")))?,
                    )
                } else {
                    Watch::Blackboard(p.blackboard.get(var).ok_or_else(|| {
                        err(
                            "var",
                            format!("unknown variable `{var}` (use flags.NAME or counters.NAME for world values)"),
                        )
                    })?)
                }
            }
            BreakOn::Event { kind, .. } => {
                if kind.is_empty() {
                    return Err(err(
                        "kind",
                        "an event breakpoint needs a trace `kind`".into(),
                    ));
                }
                Watch::Event
            }
        };
        Ok(Breakpoint {
            def: def.clone(),
            hits: 0,
            watch,
            npc,
            cond,
            last: vec![false; p.npcs.len()],
            start: vec![false; p.npcs.len()],
        })
    }

    pub fn id(&self) -> u32 {
        self.def.id
    }
}

impl super::ctx::Ctx<'_> {
    /// The editor section: saved breakpoints (compiled to check them) and layouts of trees
    /// and nodes that exist.
    pub(crate) fn editor(&mut self) {
        let mut ids = HashSet::new();
        for (i, def) in self.pack.editor.breakpoints.iter().enumerate() {
            let path = index("editor.breakpoints", i);
            if !ids.insert(def.id) {
                self.warn(
                    key(&path, "id"),
                    format!("duplicate breakpoint id {}", def.id),
                );
            }
            if let Err(e) = Breakpoint::compile(&self.p, def) {
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
