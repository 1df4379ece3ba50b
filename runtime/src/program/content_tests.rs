//! Content tests compiled (the pack's `tests` section): each test's expression parsed and
//! type-checked against the program like any other, with the test's own names (`tick`,
//! `seconds`, `in_AREA`, `count_AREA`, `launched_EVENT`) resolved to measures; every
//! problem a diagnostic with its JSON path.

use std::collections::HashMap;

use super::ctx::Ctx;
use super::short;
use crate::expr::{Expr, Resolver, Scope};
use crate::pack::TestRule;
use crate::pack::diag::{index, key};
use crate::value::{EntityId, Sym, Type};

/// Blackboard slots at and above this one are a test's measures (index = slot - base).
pub const MEASURE_SLOT: u32 = 1 << 30;

/// A world quantity a test expression reads by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// `tick`: ticks since the start.
    Tick,
    /// `seconds`: seconds since the start.
    Seconds,
    /// `in_AREA`: the tested NPC stands in the area (or a dynamic copy of it).
    InArea(u32),
    /// `count_AREA`: living NPCs standing in the area (or its dynamic copies).
    Count(u32),
    /// `launched_EVENT`: times the story event launched so far.
    Launched(u32),
}

/// Whom a test is evaluated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestScope {
    /// World-level values only.
    World,
    Npc(u32),
    /// Every NPC carrying the tag.
    Tag(Sym),
}

/// A compiled content test.
#[derive(Clone, Debug)]
pub struct CTest {
    pub id: String,
    /// JSON path of the test in the pack.
    pub path: String,
    pub rule: TestRule,
    pub expr: Expr,
    pub scope: TestScope,
    /// `eventually`: the last tick by which it must have held (None: the end of the run).
    pub within: Option<u64>,
    /// `at`: the tick at which it must hold.
    pub at: Option<u64>,
    /// Statistical: the percentage of seeds (0..=100) in which it must hold.
    pub min_percent: Option<f64>,
    /// The measures its expression reads, by `slot - MEASURE_SLOT`.
    pub measures: Vec<Measure>,
}

impl CTest {
    /// Whether evaluating it needs story-event launches counted.
    pub fn counts_launches(&self) -> bool {
        self.measures
            .iter()
            .any(|m| matches!(m, Measure::Launched(_)))
    }
    /// The last tick it needs to see (None: the whole run).
    pub fn horizon(&self) -> Option<u64> {
        match self.rule {
            TestRule::At => self.at,
            TestRule::Eventually => self.within,
            TestRule::Always | TestRule::Never => None,
        }
    }
}

struct TestResolver<'b, 'a> {
    b: &'b mut Ctx<'a>,
    npc_scoped: bool,
    measures: Vec<Measure>,
}

impl TestResolver<'_, '_> {
    fn measure(&mut self, name: &str) -> Option<(u32, Type)> {
        let p = &self.b.p;
        let area = |id: &str| p.areas.iter().position(|a| a.id == id).map(|i| i as u32);
        let (m, ty) = match name {
            "tick" => (Measure::Tick, Type::Int),
            "seconds" => (Measure::Seconds, Type::Float),
            _ => {
                if let Some(a) = name.strip_prefix("in_").and_then(area) {
                    if !self.npc_scoped {
                        return None;
                    }
                    (Measure::InArea(a), Type::Bool)
                } else if let Some(a) = name.strip_prefix("count_").and_then(area) {
                    (Measure::Count(a), Type::Int)
                } else if let Some(e) = name
                    .strip_prefix("launched_")
                    .and_then(|id| p.events.event(id))
                {
                    (Measure::Launched(e), Type::Int)
                } else {
                    return None;
                }
            }
        };
        let i = match self.measures.iter().position(|x| *x == m) {
            Some(i) => i,
            None => {
                self.measures.push(m);
                self.measures.len() - 1
            }
        };
        Some((MEASURE_SLOT + i as u32, ty))
    }
}

impl Resolver for TestResolver<'_, '_> {
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        let p = &self.b.p;
        match scope {
            Scope::Blackboard => {
                if let Some(m) = self.measure(name) {
                    return Some(m);
                }
                let slots = &self.b.p.blackboard;
                let i = slots.get(name).filter(|_| self.npc_scoped)?;
                Some((i, slots.types[i as usize]))
            }
            // Only what the pack declares: a test never declares a flag or counter.
            Scope::Flag => p.flags.get(name).map(|i| (i, Type::Bool)),
            Scope::Counter => p.counters.get(name).map(|i| (i, Type::Int)),
            Scope::Area => {
                let i = p.area_vars.get(name).filter(|_| self.npc_scoped)?;
                Some((i, p.area_vars.types[i as usize]))
            }
        }
    }
    fn intern(&mut self, s: &str) -> Sym {
        Resolver::intern(&mut *self.b, s)
    }
    fn entity(&mut self, id: &str) -> Option<EntityId> {
        self.b.p.entity(id)
    }
}

/// Compiles the pack's `tests` into `b.p.tests`.
pub(super) fn build(b: &mut Ctx) {
    let pack = b.pack;
    let mut seen: HashMap<&str, String> = HashMap::new();
    for (i, t) in pack.tests.iter().enumerate() {
        let path = index("tests", i);
        if t.id.is_empty() {
            b.err(key(&path, "id"), "test id must not be empty");
        } else if let Some(first) = seen.get(t.id.as_str()) {
            b.err(
                key(&path, "id"),
                format!("duplicate test id `{}` (first used at {first})", t.id),
            );
        } else {
            seen.insert(&t.id, path.clone());
        }
        let scope = match (&t.npc, &t.tag) {
            (Some(_), Some(_)) => {
                b.err(
                    key(&path, "tag"),
                    "a test names either one `npc` or a `tag`, not both",
                );
                continue;
            }
            (Some(n), None) => match b.p.npc_index(n) {
                Some(i) => TestScope::Npc(i),
                None => {
                    b.err(key(&path, "npc"), format!("unknown NPC `{n}`"));
                    continue;
                }
            },
            (None, Some(tag)) => {
                let tag = Resolver::intern(&mut *b, tag);
                TestScope::Tag(tag)
            }
            (None, None) => TestScope::World,
        };
        let within = match (t.rule, t.within) {
            (TestRule::Eventually, Some(s)) => Some(b.ticks(key(&path, "within"), s)),
            (_, Some(_)) => {
                b.warn(
                    key(&path, "within"),
                    format!(
                        "`within` is for `eventually` tests; this `{}` test ignores it",
                        t.rule.name()
                    ),
                );
                None
            }
            (_, None) => None,
        };
        let at = match (t.rule, t.time) {
            (TestRule::At, Some(s)) => Some(b.ticks(key(&path, "time"), s)),
            (TestRule::At, None) => {
                b.err(
                    path.clone(),
                    "an `at` test needs `time` (seconds from the start)",
                );
                continue;
            }
            (_, Some(_)) => {
                b.warn(
                    key(&path, "time"),
                    format!(
                        "`time` is for `at` tests; this `{}` test ignores it",
                        t.rule.name()
                    ),
                );
                None
            }
            (_, None) => None,
        };
        let min_percent = match t.min_percent {
            Some(x) if x.is_finite() && (0.0..=100.0).contains(&x) => Some(x),
            Some(x) => {
                b.err(
                    key(&path, "min_percent"),
                    format!(
                        "`min_percent` must be between 0 and 100, found {}",
                        short(x)
                    ),
                );
                continue;
            }
            None => None,
        };
        let epath = key(&path, "expr");
        let mut r = TestResolver {
            b: &mut *b,
            npc_scoped: scope != TestScope::World,
            measures: Vec::new(),
        };
        let compiled = Expr::compile_typed(&t.expr, Type::Bool, &mut r);
        let measures = r.measures;
        match compiled {
            Ok(expr) => b.p.tests.push(CTest {
                id: t.id.clone(),
                path,
                rule: t.rule,
                expr,
                scope,
                within,
                at,
                min_percent,
                measures,
            }),
            Err(e) => {
                let hint = if scope == TestScope::World && e.message.starts_with("unknown variable")
                {
                    " (a test without `npc` or `tag` reads world-level names only: flags, \
                     counters, tick, seconds, count_AREA, launched_EVENT)"
                } else {
                    ""
                };
                b.diags.push(
                    crate::pack::Diagnostic::error(
                        epath,
                        format!("in `{}`: {}{hint}", t.expr, e.message),
                    )
                    .inside(e.offset),
                );
            }
        }
    }
}
