//! Compiling the event library and scenarios, with the static checks of SPEC §3: cycles
//! (named), dangling edges, date windows that can never open given their ancestors,
//! events unreachable from a scenario's start, mandatory events that some outcome path makes
//! impossible, and preconditions that read flags or counters nothing declares or sets.

use std::collections::{BTreeSet, HashMap};

use super::ctx::Ctx;
use super::responses::{self as respond, CResponse};
use super::tracker::Graph;
use crate::expr::{Expr, Resolver, Scope};
use crate::pack::diag::{index, key};
use crate::pack::{Diagnostic, Pack};
use crate::pack::{EndedBy, EventDef};
use crate::value::{EntityId, Sym, Type};

/// Longest window bound accepted (days either side of day 0).
pub const MAX_DAY: i64 = 1_000_000_000;
/// Largest nested-outcome set tracked per event by the reachability checks; bigger graphs
/// skip the outcome-consistency part (the window and dependency parts always run).
const MAX_REQUIRED: usize = 4096;

/// One library event, compiled.
#[derive(Clone, Debug)]
pub struct CEvent {
    pub id: String,
    pub title: String,
    pub kind: String,
    pub not_before: i64,
    pub not_after: i64,
    /// Dependencies: (library index, needs success).
    pub after: Vec<(u32, bool)>,
    pub precondition: Option<Expr>,
    pub mandatory: bool,
    pub on_success: Vec<CResponse>,
    pub on_failure: Vec<CResponse>,
    pub ended_by: EndedBy,
    pub success_probability: f64,
    pub duration: [u32; 2],
}

/// A scenario, compiled: its events as local nodes `0..n` of a tracker graph.
#[derive(Clone, Debug)]
pub struct CScenario {
    pub id: String,
    /// Library index of each local node.
    pub nodes: Vec<u32>,
    /// Local node of each library event (`u32::MAX`: not in the scenario).
    pub local: Vec<u32>,
    /// Position of each local node in the scenario's list (the library's order when it
    /// lists none). Local nodes are numbered in date order ([`date_order`]); choices
    /// among nodes (which available event to launch, which ends first) go by this rank.
    pub rank: Vec<u32>,
    pub graph: Graph,
    pub start_day: i64,
    pub end_day: i64,
    pub ticks_per_day: Option<u64>,
    pub launch_probability: f64,
    pub max_active: u32,
    pub min_wait: u32,
    pub max_wait: Option<u32>,
}

/// The compiled event library and scenarios of a program.
#[derive(Clone, Debug, Default)]
pub struct Library {
    pub events: Vec<CEvent>,
    pub index: HashMap<String, u32>,
    pub scenarios: Vec<CScenario>,
    pub scenario_index: HashMap<String, u32>,
    /// The scenario the world runs (`world.scenario`).
    pub world_scenario: Option<u32>,
}

impl Library {
    pub fn event(&self, id: &str) -> Option<u32> {
        self.index.get(id).copied()
    }
    pub fn scenario(&self, id: &str) -> Option<u32> {
        self.scenario_index.get(id).copied()
    }
}

/// Indexes event ids (first occurrence wins; duplicates are errors).
pub fn index_ids(pack: &Pack, diags: &mut Vec<Diagnostic>) -> HashMap<String, u32> {
    let mut idx = HashMap::new();
    for (i, e) in pack.events.iter().enumerate() {
        let path = index("events", i);
        if e.id.is_empty() {
            diags.push(Diagnostic::error(
                key(&path, "id"),
                "an event needs a non-empty `id`",
            ));
        } else if let Some(&first) = idx.get(&e.id) {
            diags.push(Diagnostic::error(
                key(&path, "id"),
                format!(
                    "duplicate event id `{}` (first used at events[{first}])",
                    e.id
                ),
            ));
        } else {
            idx.insert(e.id.clone(), i as u32);
        }
    }
    idx
}

/// Only flags and counters: story preconditions have no NPC.
struct StoryResolver<'a, B: Resolver> {
    inner: &'a mut B,
}

impl<B: Resolver> Resolver for StoryResolver<'_, B> {
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        match scope {
            Scope::Flag | Scope::Counter => self.inner.var(scope, name),
            Scope::Blackboard | Scope::Area => None,
        }
    }
    fn intern(&mut self, s: &str) -> Sym {
        self.inner.intern(s)
    }
    fn entity(&mut self, id: &str) -> Option<EntityId> {
        self.inner.entity(id)
    }
}

fn hint(word: &str, known: &[&str]) -> String {
    crate::pack::suggest(word, known)
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

/// Compiles the library and scenarios. `idx` comes from [`index_ids`].
pub(crate) fn build(b: &mut Ctx<'_>, pack: &Pack, idx: HashMap<String, u32>) -> Library {
    let mut lib = Library {
        index: idx,
        ..Library::default()
    };
    let known_ids: Vec<&str> = pack.events.iter().map(|e| e.id.as_str()).collect();
    // Only the events' preconditions need it.
    let written = if pack.events.is_empty() {
        Default::default()
    } else {
        written_names(pack)
    };
    for (i, e) in pack.events.iter().enumerate() {
        let ev = compile_event(b, &lib, e, i, &known_ids, &written);
        lib.events.push(ev);
    }
    let acyclic = cycles(b, pack, &lib);
    if acyclic {
        windows(b, &lib);
    }
    let scen_ids: Vec<&str> = pack.scenarios.iter().map(|s| s.id.as_str()).collect();
    for (si, s) in pack.scenarios.iter().enumerate() {
        let path = index("scenarios", si);
        if let Some(&first) = lib.scenario_index.get(&s.id) {
            b.push(Diagnostic::error(
                key(&path, "id"),
                format!(
                    "duplicate scenario id `{}` (first used at scenarios[{first}])",
                    s.id
                ),
            ));
            continue;
        }
        let c = compile_scenario(b, &lib, pack, si, acyclic);
        lib.scenario_index
            .insert(s.id.clone(), lib.scenarios.len() as u32);
        lib.scenarios.push(c);
    }
    if let Some(ws) = &pack.world.scenario {
        match lib.scenario(ws) {
            Some(i) => lib.world_scenario = Some(i),
            None => b.push(Diagnostic::error(
                "world.scenario",
                format!("unknown scenario `{ws}`{}", hint(ws, &scen_ids)),
            )),
        }
    }
    lib
}

fn compile_event(
    b: &mut Ctx<'_>,
    lib: &Library,
    e: &EventDef,
    i: usize,
    known_ids: &[&str],
    written: &(BTreeSet<String>, BTreeSet<String>),
) -> CEvent {
    let path = index("events", i);
    let day = |b: &mut Ctx<'_>, v: Option<i64>, field: &str, dflt: i64| match v {
        None => dflt,
        Some(d) if (-MAX_DAY..=MAX_DAY).contains(&d) => d,
        Some(d) => {
            b.push(Diagnostic::error(
                key(&path, field),
                format!("a day must be between -{MAX_DAY} and {MAX_DAY}, found {d}"),
            ));
            d.clamp(-MAX_DAY, MAX_DAY)
        }
    };
    let not_before = day(b, e.not_before, "not_before", i64::MIN);
    let not_after = day(b, e.not_after, "not_after", i64::MAX);
    if not_before > not_after {
        b.push(Diagnostic::error(
            key(&path, "not_after"),
            format!(
                "window ends (day {not_after}) before it starts (`not_before`: day {not_before}): the event can never open"
            ),
        ));
    }
    let mut after = Vec::new();
    for (j, d) in e.after.iter().enumerate() {
        let dp = index(&key(&path, "after"), j);
        match lib.event(&d.event) {
            Some(s) => after.push((s, d.outcome.is_success())),
            None => b.push(Diagnostic::error(
                key(&dp, "event"),
                format!(
                    "dangling edge: unknown event `{}`{}",
                    d.event,
                    hint(&d.event, known_ids)
                ),
            )),
        }
    }
    let precondition = e.precondition.as_ref().and_then(|src| {
        let ppath = key(&path, "precondition");
        let mut r = StoryResolver { inner: &mut *b };
        match Expr::compile_typed(src, Type::Bool, &mut r) {
            Ok(x) => {
                for (scope, name) in x.references() {
                    let (set, what) = match scope {
                        Scope::Flag => (&written.0, "flag"),
                        Scope::Counter => (&written.1, "counter"),
                        _ => continue,
                    };
                    if !set.contains(name) {
                        let known: Vec<&str> = set.iter().map(String::as_str).collect();
                        b.push(Diagnostic::warning(
                            ppath.clone(),
                            format!(
                                "precondition reads {what} `{name}`, which the world does not declare and nothing sets{}",
                                hint(name, &known)
                            ),
                        ));
                    }
                }
                Some(x)
            }
            Err(err) => {
                let msg = if err.message.contains("unknown variable") {
                    format!(
                        "{} (a precondition reads only `flags.NAME` and `counters.NAME`)",
                        err.message
                    )
                } else {
                    err.message
                };
                b.push(Diagnostic::error(ppath, msg).inside(err.offset));
                None
            }
        }
    });
    let responses = |b: &mut Ctx<'_>, list: &[crate::pack::Response], field: &str| {
        list.iter()
            .enumerate()
            .filter_map(|(k, r)| respond::compile(b, r, &index(&key(&path, field), k)))
            .collect::<Vec<_>>()
    };
    let on_success = responses(b, &e.on_success, "on_success");
    let on_failure = responses(b, &e.on_failure, "on_failure");
    let p = e.success_probability;
    if !(p.is_finite() && (0.0..=1.0).contains(&p)) {
        b.push(Diagnostic::error(
            key(&path, "success_probability"),
            format!("a probability must be between 0 and 1, found {p}"),
        ));
    }
    let [lo, hi] = e.duration_days;
    if lo < 1 || lo > hi || hi > 1_000_000 {
        b.push(Diagnostic::error(
            key(&path, "duration_days"),
            format!(
                "`duration_days` is [min, max] with 1 <= min <= max <= 1000000, found [{lo}, {hi}]"
            ),
        ));
    }
    CEvent {
        id: e.id.clone(),
        title: e.title.clone(),
        kind: e.kind.clone(),
        not_before,
        not_after,
        after,
        precondition,
        mandatory: e.mandatory,
        on_success,
        on_failure,
        ended_by: e.ended_by,
        success_probability: if p.is_finite() {
            p.clamp(0.0, 1.0)
        } else {
            0.5
        },
        duration: [lo.max(1), hi.max(lo.max(1))],
    }
}

/// Flags and counters the world declares or something in the pack writes: walks the whole
/// pack for responses (`set_flag`, …, wherever they sit, so trigger responses count too) and
/// behavior-tree `set` nodes.
///
/// Every section but the trees and their layouts is walked as JSON (any object with a `do`
/// or a `"type": "set"`, wherever it sits). Trees are walked as they are typed: in a tree
/// only a `set` node can match (no node has a `do` field, no other node or blackboard entry
/// has the type `set`), and layouts hold positions only, so serializing the bulk of a big
/// pack is skipped without changing the result.
fn written_names(pack: &Pack) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut flags: BTreeSet<String> = pack.world.flags.keys().cloned().collect();
    let mut counters: BTreeSet<String> = pack.world.counters.keys().cloned().collect();
    let declared = (flags.clone(), counters.clone());
    fn set_var(var: &str, flags: &mut BTreeSet<String>, counters: &mut BTreeSet<String>) {
        if let Some(f) = var.strip_prefix("flags.").or(var.strip_prefix("flag.")) {
            flags.insert(f.to_string());
        }
        if let Some(c) = var
            .strip_prefix("counters.")
            .or(var.strip_prefix("counter."))
        {
            counters.insert(c.to_string());
        }
    }
    let sections = [
        serde_json::to_value(&pack.world),
        serde_json::to_value(&pack.areas),
        serde_json::to_value(&pack.events),
        serde_json::to_value(&pack.scenarios),
        serde_json::to_value(&pack.casts),
        serde_json::to_value(&pack.triggers),
        serde_json::to_value(&pack.editor.breakpoints),
    ];
    for v in &sections {
        let Ok(v) = v else {
            return declared;
        };
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::Object(m) => {
                    let s = |k: &str| m.get(k).and_then(|x| x.as_str()).map(str::to_string);
                    match m.get("do").and_then(|x| x.as_str()) {
                        Some("set_flag" | "toggle_flag") => flags.extend(s("flag")),
                        Some("set_counter" | "add_counter") => counters.extend(s("counter")),
                        Some("copy_counter") => counters.extend(s("to")),
                        _ => {}
                    }
                    if m.get("type").and_then(|x| x.as_str()) == Some("set")
                        && let Some(var) = m.get("var").and_then(|x| x.as_str())
                    {
                        set_var(var, &mut flags, &mut counters);
                    }
                    stack.extend(m.values());
                }
                serde_json::Value::Array(a) => stack.extend(a.iter()),
                _ => {}
            }
        }
    }
    for t in &pack.trees {
        let mut stack = vec![&t.root];
        while let Some(n) = stack.pop() {
            if let crate::pack::NodeKind::Set { var, .. } = &n.kind {
                set_var(var, &mut flags, &mut counters);
            }
            stack.extend(n.children.iter());
        }
    }
    (flags, counters)
}

/// Reports every cycle (one per strongly connected group, named `a → b → a`). Returns true
/// if the library is acyclic. Iterative, so huge libraries cannot overflow the stack.
fn cycles(b: &mut Ctx<'_>, pack: &Pack, lib: &Library) -> bool {
    let n = lib.events.len();
    // Edges source -> target.
    let mut outs: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (t, e) in lib.events.iter().enumerate() {
        for &(s, _) in &e.after {
            outs[s as usize].push(t as u32);
        }
    }
    // 0 = new, 1 = on the DFS stack, 2 = done.
    let mut color = vec![0u8; n];
    let mut acyclic = true;
    let mut reported = 0;
    for root in 0..n {
        if color[root] != 0 {
            continue;
        }
        let mut stack: Vec<(u32, usize)> = vec![(root as u32, 0)];
        color[root] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&t) = outs[v as usize].get(*next) {
                *next += 1;
                match color[t as usize] {
                    0 => {
                        color[t as usize] = 1;
                        stack.push((t, 0));
                    }
                    1 => {
                        acyclic = false;
                        if reported < 20 {
                            reported += 1;
                            let from = stack.iter().position(|&(x, _)| x == t).unwrap_or(0);
                            let mut names: Vec<&str> = stack[from..]
                                .iter()
                                .map(|&(x, _)| lib.events[x as usize].id.as_str())
                                .collect();
                            names.push(&lib.events[t as usize].id);
                            // Report at the edge that closes the cycle: t's dependency on v.
                            let j = pack.events[t as usize]
                                .after
                                .iter()
                                .position(|d| lib.event(&d.event) == Some(v))
                                .unwrap_or(0);
                            b.push(Diagnostic::error(
                                key(
                                    &index(&key(&index("events", t as usize), "after"), j),
                                    "event",
                                ),
                                format!(
                                    "dependency cycle: {} (an event cannot wait for itself)",
                                    names.join(" → ")
                                ),
                            ));
                        }
                    }
                    _ => {}
                }
            } else {
                color[v as usize] = 2;
                stack.pop();
            }
        }
    }
    acyclic
}

/// Library events in topological order (dependencies first). Only for acyclic libraries.
fn topo(lib: &Library) -> Vec<u32> {
    let n = lib.events.len();
    let mut indeg = vec![0u32; n];
    let mut outs: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (t, e) in lib.events.iter().enumerate() {
        for &(s, _) in &e.after {
            indeg[t] += 1;
            outs[s as usize].push(t as u32);
        }
    }
    let mut order: Vec<u32> = (0..n as u32).filter(|&i| indeg[i as usize] == 0).collect();
    let mut k = 0;
    while k < order.len() {
        let v = order[k] as usize;
        k += 1;
        for &t in &outs[v] {
            indeg[t as usize] -= 1;
            if indeg[t as usize] == 0 {
                order.push(t);
            }
        }
    }
    order
}

fn show_day(d: i64) -> String {
    if d == i64::MIN {
        "the start".into()
    } else {
        format!("day {d}")
    }
}

/// Windows that can never open given their ancestors: an event opens at the earliest when
/// its window starts and every dependency could have ended (a dependency ends at the
/// earliest on the day it opens). Reported for the event whose own window is too early,
/// naming the ancestor that holds it back.
fn windows(b: &mut Ctx<'_>, lib: &Library) {
    let n = lib.events.len();
    let mut earliest = vec![i64::MIN; n];
    // Which dependency sets `earliest` (None: the event's own `not_before`).
    let mut because: Vec<Option<u32>> = vec![None; n];
    let mut never = vec![false; n];
    for v in topo(lib) {
        let e = &lib.events[v as usize];
        let mut at = e.not_before;
        let mut by = None;
        let mut blocked = false;
        for &(s, _) in &e.after {
            blocked |= never[s as usize];
            if earliest[s as usize] > at {
                at = earliest[s as usize];
                by = Some(s);
            }
        }
        earliest[v as usize] = at;
        because[v as usize] = by;
        if blocked {
            never[v as usize] = true;
        } else if at > e.not_after && e.not_before <= e.not_after {
            never[v as usize] = true;
            let s = by.map_or("", |s| lib.events[s as usize].id.as_str());
            b.push(Diagnostic::warning(
                key(&index("events", v as usize), "not_after"),
                format!(
                    "window of `{}` (until day {}) can never open: it depends on `{s}`, which cannot open before {}",
                    e.id,
                    e.not_after,
                    show_day(at)
                ),
            ));
        }
    }
}

fn compile_scenario(
    b: &mut Ctx<'_>,
    lib: &Library,
    pack: &Pack,
    si: usize,
    acyclic: bool,
) -> CScenario {
    let s = &pack.scenarios[si];
    let path = index("scenarios", si);
    let known_ids: Vec<&str> = pack.events.iter().map(|e| e.id.as_str()).collect();
    let mut nodes: Vec<u32> = Vec::new();
    let mut local = vec![u32::MAX; lib.events.len()];
    if s.events.is_empty() {
        nodes = (0..lib.events.len() as u32)
            .filter(|&i| lib.event(&lib.events[i as usize].id) == Some(i))
            .collect();
    } else {
        for (j, id) in s.events.iter().enumerate() {
            let p = index(&key(&path, "events"), j);
            match lib.event(id) {
                Some(i) if local[i as usize] != u32::MAX => {
                    b.push(Diagnostic::warning(p, format!("`{id}` is listed twice")));
                }
                Some(i) => {
                    local[i as usize] = nodes.len() as u32;
                    nodes.push(i);
                }
                None => b.push(Diagnostic::error(
                    p,
                    format!("unknown event `{id}`{}", hint(id, &known_ids)),
                )),
            }
        }
    }
    // Local nodes in date order, so that the tracker's nodes due together lie together
    // in memory whatever the order the pack lists its events in.
    let windows: Vec<(i64, i64)> = nodes
        .iter()
        .map(|&i| {
            let e = &lib.events[i as usize];
            (e.not_before, e.not_after)
        })
        .collect();
    let order = date_order(&windows);
    let rank = order.clone();
    let nodes: Vec<u32> = order.iter().map(|&k| nodes[k as usize]).collect();
    for (k, &i) in nodes.iter().enumerate() {
        local[i as usize] = k as u32;
    }
    let prob = s.launch_probability;
    if !(prob.is_finite() && (0.0..=1.0).contains(&prob)) {
        b.push(Diagnostic::error(
            key(&path, "launch_probability"),
            format!("a probability must be between 0 and 1, found {prob}"),
        ));
    }
    if s.max_active == 0 {
        b.push(Diagnostic::error(
            key(&path, "max_active"),
            "`max_active` must be at least 1",
        ));
    }
    if let Some(mw) = s.max_wait
        && mw < s.min_wait
    {
        b.push(Diagnostic::error(
            key(&path, "max_wait"),
            format!("`max_wait` ({mw}) is less than `min_wait` ({})", s.min_wait),
        ));
    }
    if s.ticks_per_day == Some(0) {
        b.push(Diagnostic::error(
            key(&path, "ticks_per_day"),
            "`ticks_per_day` must be at least 1",
        ));
    }
    if !(-MAX_DAY..=MAX_DAY).contains(&s.start_day) {
        b.push(Diagnostic::error(
            key(&path, "start_day"),
            format!("a day must be between -{MAX_DAY} and {MAX_DAY}"),
        ));
    }
    let start_day = s.start_day.clamp(-MAX_DAY, MAX_DAY);
    let end_day = match s.end_day {
        Some(d) if d < start_day || d > start_day.saturating_add(1_000_000) => {
            b.push(Diagnostic::error(
                key(&path, "end_day"),
                format!("`end_day` must be between `start_day` ({start_day}) and a million days after it, found {d}"),
            ));
            start_day
        }
        Some(d) => d,
        None => nodes
            .iter()
            .map(|&i| lib.events[i as usize].not_after)
            .filter(|&d| d < i64::MAX)
            .max()
            .unwrap_or(start_day + 365)
            .clamp(start_day, start_day + 1_000_000),
    };
    // The tracker graph over local nodes.
    let mut edges = Vec::new();
    let mut doomed = Vec::new();
    let mut windows = Vec::with_capacity(nodes.len());
    for (k, &i) in nodes.iter().enumerate() {
        let e = &lib.events[i as usize];
        windows.push((e.not_before, e.not_after));
        let mut outside = false;
        for &(src, ok) in &e.after {
            match local[src as usize] {
                u32::MAX => outside = true,
                ls => edges.push((ls, k as u32, ok)),
            }
        }
        if outside {
            doomed.push(k as u32);
        }
    }
    let mut graph = Graph::new(windows, &edges);
    graph.doomed = doomed;
    let c = CScenario {
        id: s.id.clone(),
        nodes,
        local,
        rank,
        graph,
        start_day,
        end_day,
        ticks_per_day: s.ticks_per_day.filter(|&t| t > 0),
        launch_probability: if prob.is_finite() {
            prob.clamp(0.0, 1.0)
        } else {
            0.0
        },
        max_active: s.max_active.max(1),
        min_wait: s.min_wait,
        max_wait: s.max_wait.map(|m| m.max(s.min_wait)),
    };
    if acyclic {
        reachability(b, lib, &c, si);
    }
    c
}

/// The compile-time numbering of a scenario's events: their positions (indices into
/// `windows`) sorted by window start, then end, then position. The tracker's calendars pop
/// the nodes of a day together and their state arrays are indexed by node, so numbering
/// nodes in date order keeps the nodes due together close in memory (issue 14: at 1M
/// events listed at random, `advance` and `ended` cost 5.3× and 5.0× their 1k figure).
pub fn date_order(windows: &[(i64, i64)]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..windows.len() as u32).collect();
    order.sort_unstable_by_key(|&k| (windows[k as usize], k));
    order
}

/// Can the outcome `success` of this event happen at all?
fn possible(e: &CEvent, success: bool) -> bool {
    match e.ended_by {
        EndedBy::World => true,
        EndedBy::Simulation if success => e.success_probability > 0.0,
        EndedBy::Simulation => e.success_probability < 1.0,
    }
}

/// Events of a scenario that can never open from its start, and mandatory events that some
/// outcome path (or an optional event left unlaunched) makes impossible.
fn reachability(b: &mut Ctx<'_>, lib: &Library, c: &CScenario, si: usize) {
    let spath = index("scenarios", si);
    let n = c.nodes.len();
    let order = {
        // Topological order of local nodes, from the library's order.
        let mut o: Vec<u32> = topo(lib)
            .into_iter()
            .filter_map(|i| match c.local[i as usize] {
                u32::MAX => None,
                l => Some(l),
            })
            .collect();
        o.dedup();
        o
    };
    let mut earliest = vec![i64::MIN; n];
    let mut reason: Vec<Option<String>> = vec![None; n];
    // Outcomes each event needs from its ancestors: sorted (local node, success).
    let mut required: Vec<Vec<(u32, bool)>> = vec![Vec::new(); n];
    let track = n <= MAX_REQUIRED;
    for &v in &order {
        let e = &lib.events[c.nodes[v as usize] as usize];
        let mut at = e.not_before.max(c.start_day);
        let mut why = None;
        let mut req: Vec<(u32, bool)> = Vec::new();
        for &(src, ok) in &e.after {
            let ls = c.local[src as usize];
            if ls == u32::MAX {
                why.get_or_insert(format!(
                    "it depends on `{}`, which is not in this scenario",
                    lib.events[src as usize].id
                ));
                continue;
            }
            let se = &lib.events[src as usize];
            if reason[ls as usize].is_some() {
                why.get_or_insert(format!("it depends on `{}`, which can never open", se.id));
            } else if !possible(se, ok) {
                why.get_or_insert(format!(
                    "it needs `{}` to end in {}, which its success probability rules out",
                    se.id,
                    if ok { "success" } else { "failure" }
                ));
            }
            at = at.max(earliest[ls as usize]);
            if track {
                req.push((ls, ok));
                req.extend_from_slice(&required[ls as usize]);
            }
        }
        if track {
            req.sort_unstable();
            req.dedup();
            if let Some(w) = req.windows(2).find(|w| w[0].0 == w[1].0) {
                why.get_or_insert(format!(
                    "it needs `{}` to end both in success and in failure",
                    lib.events[c.nodes[w[0].0 as usize] as usize].id
                ));
            }
        }
        if why.is_none() && at > e.not_after {
            why = Some(if at == e.not_before.max(c.start_day) {
                format!(
                    "its window closes on day {} and the scenario starts on day {}",
                    e.not_after, c.start_day
                )
            } else {
                format!(
                    "its window closes on day {} but its dependencies cannot all end before day {at}",
                    e.not_after
                )
            });
        }
        earliest[v as usize] = at;
        reason[v as usize] = why;
        required[v as usize] = req;
    }
    for v in 0..n {
        let li = c.nodes[v] as usize;
        let e = &lib.events[li];
        if let Some(why) = &reason[v] {
            b.push(Diagnostic::warning(
                key(&spath, "events"),
                format!(
                    "event `{}` is unreachable from the start of scenario `{}`: {why}",
                    e.id, c.id
                ),
            ));
            continue;
        }
        if !e.mandatory || !track {
            continue;
        }
        let mut problem = None;
        for &(a, ok) in &required[v] {
            let ae = &lib.events[c.nodes[a as usize] as usize];
            if !ae.mandatory {
                problem = Some(format!(
                    "it depends on `{}`, which is not mandatory: the executor may never launch it",
                    ae.id
                ));
                break;
            }
            if possible(ae, !ok) {
                problem = Some(format!(
                    "if `{}` ends in {} it can never open",
                    ae.id,
                    if ok { "failure" } else { "success" }
                ));
                break;
            }
        }
        if let Some(p) = problem {
            b.push(Diagnostic::warning(
                key(&index("events", li), "mandatory"),
                format!(
                    "mandatory event `{}` can become impossible in scenario `{}`: {p}",
                    e.id, c.id
                ),
            ));
        }
    }
}

impl super::ctx::Ctx<'_> {
    pub(crate) fn events(&mut self) {
        let pack = self.pack;
        let idx = index_ids(pack, &mut self.diags);
        self.p.events.index = idx.clone();
        self.p.events = build(self, pack, idx);
    }
}
