//! Content coverage over many seeds (`townsfolk coverage`): every seed is played for a number
//! of ticks by a counting session ([`Session::set_counting`], [`crate::trace::Counters`])
//! that counts what ran — behavior-tree nodes (own trees, subtrees, adopted behaviors,
//! brains, handlers: every node visit, counted by the host with no probe), templates
//! (requests, adoptions, refusals by reason), triggers (fires; what blocks them at the end of
//! a run), story events (launched, outcomes, expired, dead) and areas (visits, occupancy) —
//! and what was never reached is listed with its JSON path.
//!
//! Seeds are split into contiguous chunks, one per thread (`std::thread::scope`); the
//! chunks' counts are merged in seed order. Every count is an integer sum or maximum, so
//! the report is the same whatever the thread count.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value, json};

use crate::bt::Status;
use crate::debug::explain::{Blocked, explain};
use crate::pack::diag::{index, key};
use crate::pack::{Node, Pack};
use crate::program::Program;
use crate::program::areas::proto_of;
use crate::session::Session;
use crate::trace::TraceEvent;
use crate::value::Sym;

/// Runs and outcomes of one behavior-tree node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeTally {
    /// Times the node was ticked (entered).
    pub runs: u64,
    pub success: u64,
    pub failure: u64,
    pub running: u64,
    /// Seeds in which it ran at least once.
    pub seeds: u64,
}

/// What happened to one behavior template of an area.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TemplateTally {
    /// Times a request considered it (chosen or refused).
    pub requested: u64,
    pub adoptions: u64,
    /// Refusals, by the reason the request gave.
    pub refusals: BTreeMap<String, u64>,
    /// Seeds in which it was adopted at least once.
    pub seeds: u64,
}

/// Fires of one trigger and what blocked it when runs ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TriggerTally {
    pub fires: u64,
    /// Seeds in which it fired at least once.
    pub seeds: u64,
    /// At the end of each run: how many runs ended with the trigger blocked by each reason
    /// (`condition_false`, `single_shot_spent`, `reloading`, `still_true`, `disabled`,
    /// `owner_gone`).
    pub blocked_at_end: BTreeMap<&'static str, u64>,
}

/// What happened to one story event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventTally {
    pub launched: u64,
    pub success: u64,
    pub failure: u64,
    pub expired: u64,
    pub dead: u64,
    /// Seeds in which it launched at least once.
    pub seeds: u64,
}

/// Visits and occupancy of one area (dynamic copies count for their prototype).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AreaTally {
    /// NPCs walking in (those standing in it at the start count as one visit each).
    pub visits: u64,
    /// Sum over ticks of the NPCs inside (mean occupancy = this / ticks played).
    pub occupant_ticks: u64,
    /// Most NPCs inside at once.
    pub peak: u64,
    /// Seeds in which anyone was inside.
    pub seeds: u64,
}

/// Counts of a set of seeds, indexed by the program's compiled indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// `[compiled tree][node]`.
    pub nodes: Vec<Vec<NodeTally>>,
    /// `[area][template]` (the area's rules' template order).
    pub templates: Vec<Vec<TemplateTally>>,
    pub triggers: Vec<TriggerTally>,
    pub events: Vec<EventTally>,
    pub areas: Vec<AreaTally>,
    /// Per node as written (tree index in the pack, node id): seeds in which it ran in any
    /// of the places it is compiled into (a subtree inlined twice counts once per seed).
    pub origin_seeds: BTreeMap<(u32, Sym), u64>,
    pub seeds: u64,
    /// Ticks played, over every seed.
    pub ticks: u64,
}

impl Tally {
    pub fn new(p: &Program) -> Tally {
        Tally {
            nodes: p
                .trees
                .iter()
                .map(|t| vec![NodeTally::default(); t.nodes.len()])
                .collect(),
            templates: p
                .area_rules
                .iter()
                .map(|r| vec![TemplateTally::default(); r.templates.len()])
                .collect(),
            triggers: vec![TriggerTally::default(); p.triggers.triggers.len()],
            events: vec![EventTally::default(); p.events.events.len()],
            areas: vec![AreaTally::default(); p.areas.len()],
            origin_seeds: BTreeMap::new(),
            seeds: 0,
            ticks: 0,
        }
    }

    /// Marks what this one seed reached (`seeds` = 1 where anything was counted).
    fn finish_seed(&mut self, p: &Program) {
        self.seeds = 1;
        for (tree, counts) in p.trees.iter().zip(&mut self.nodes) {
            for (node, n) in tree.nodes.iter().zip(counts.iter_mut()) {
                n.seeds = u64::from(n.runs > 0);
                if n.runs > 0 {
                    self.origin_seeds
                        .insert((node.origin_tree, node.origin_id), 1);
                }
            }
        }
        for t in self.templates.iter_mut().flatten() {
            t.seeds = u64::from(t.adoptions > 0);
        }
        for t in &mut self.triggers {
            t.seeds = u64::from(t.fires > 0);
        }
        for e in &mut self.events {
            e.seeds = u64::from(e.launched > 0);
        }
        for a in &mut self.areas {
            a.seeds = u64::from(a.peak > 0);
        }
    }

    /// Adds another tally of the same program.
    pub fn merge(&mut self, o: &Tally) {
        for (a, b) in self.nodes.iter_mut().zip(&o.nodes) {
            for (x, y) in a.iter_mut().zip(b) {
                x.runs += y.runs;
                x.success += y.success;
                x.failure += y.failure;
                x.running += y.running;
                x.seeds += y.seeds;
            }
        }
        for (a, b) in self.templates.iter_mut().zip(&o.templates) {
            for (x, y) in a.iter_mut().zip(b) {
                x.requested += y.requested;
                x.adoptions += y.adoptions;
                x.seeds += y.seeds;
                for (r, n) in &y.refusals {
                    *x.refusals.entry(r.clone()).or_default() += n;
                }
            }
        }
        for (x, y) in self.triggers.iter_mut().zip(&o.triggers) {
            x.fires += y.fires;
            x.seeds += y.seeds;
            for (r, n) in &y.blocked_at_end {
                *x.blocked_at_end.entry(r).or_default() += n;
            }
        }
        for (x, y) in self.events.iter_mut().zip(&o.events) {
            x.launched += y.launched;
            x.success += y.success;
            x.failure += y.failure;
            x.expired += y.expired;
            x.dead += y.dead;
            x.seeds += y.seeds;
        }
        for (x, y) in self.areas.iter_mut().zip(&o.areas) {
            x.visits += y.visits;
            x.occupant_ticks += y.occupant_ticks;
            x.peak = x.peak.max(y.peak);
            x.seeds += y.seeds;
        }
        for (k, n) in &o.origin_seeds {
            *self.origin_seeds.entry(*k).or_default() += n;
        }
        self.seeds += o.seeds;
        self.ticks += o.ticks;
    }

    fn template_mut(&mut self, area: u32, template: u32) -> Option<&mut TemplateTally> {
        self.templates
            .get_mut(proto_of(area) as usize)
            .and_then(|v| v.get_mut(template as usize))
    }

    fn template_by_name(
        &mut self,
        p: &Program,
        area: u32,
        name: Sym,
    ) -> Option<&mut TemplateTally> {
        let t = p.area_rules.get(proto_of(area) as usize)?.template(name)?;
        self.template_mut(area, t as u32)
    }
}

fn blocked_name(b: &Blocked) -> &'static str {
    match b {
        Blocked::Disabled => "disabled",
        Blocked::SingleShotSpent { .. } => "single_shot_spent",
        Blocked::Reloading { .. } => "reloading",
        Blocked::StillTrue { .. } => "still_true",
        Blocked::ConditionFalse => "condition_false",
        Blocked::OwnerGone => "owner_gone",
    }
}

/// Counts the trace events of a run (the kinds [`crate::trace::Counters`] keeps, and tick 0's
/// trace).
struct Recorder<'a> {
    program: &'a Program,
    tally: &'a mut Tally,
}

impl Recorder<'_> {
    /// One event of tick 0's trace: status changes stand for node runs.
    fn start_event(&mut self, ev: &TraceEvent) {
        if let TraceEvent::Status { tree, node, to, .. } = *ev {
            if let Some(n) = self
                .tally
                .nodes
                .get_mut(tree as usize)
                .and_then(|v| v.get_mut(node as usize))
            {
                n.runs += 1;
                match to {
                    Status::Success => n.success += 1,
                    Status::Failure => n.failure += 1,
                    Status::Running => n.running += 1,
                    Status::Idle => {}
                }
            }
        } else {
            self.trace(ev);
        }
    }

    fn trace(&mut self, ev: &TraceEvent) {
        let p = self.program;
        let t = &mut *self.tally;
        match ev {
            TraceEvent::Request { outcome, .. } => {
                if let Some((area, tpl)) = outcome.chosen
                    && let Some(x) = t.template_mut(area, tpl)
                {
                    x.requested += 1;
                }
                for r in &outcome.refused {
                    if let Some(x) = t.template_by_name(p, r.area, r.template) {
                        x.requested += 1;
                        *x.refusals.entry(r.reason.clone()).or_default() += 1;
                    }
                }
            }
            TraceEvent::Adopt { area, template, .. } => {
                if let Some(x) = t.template_by_name(p, *area, *template) {
                    x.adoptions += 1;
                }
            }
            TraceEvent::Trigger { trigger, .. } => {
                if let Some(x) = t.triggers.get_mut(*trigger as usize) {
                    x.fires += 1;
                }
            }
            TraceEvent::EventLaunch { event, .. } => {
                if let Some(x) = t.events.get_mut(*event as usize) {
                    x.launched += 1;
                }
            }
            TraceEvent::EventEnd { event, success, .. } => {
                if let Some(x) = t.events.get_mut(*event as usize) {
                    if *success {
                        x.success += 1;
                    } else {
                        x.failure += 1;
                    }
                }
            }
            TraceEvent::EventExpired { event, .. } => {
                if let Some(x) = t.events.get_mut(*event as usize) {
                    x.expired += 1;
                }
            }
            TraceEvent::EventDead { event, .. } => {
                if let Some(x) = t.events.get_mut(*event as usize) {
                    x.dead += 1;
                }
            }
            TraceEvent::Enter { area, .. } => {
                if let Some(x) = t.areas.get_mut(proto_of(*area) as usize) {
                    x.visits += 1;
                }
            }
            _ => {}
        }
    }
}

/// Occupancy of the areas, summed over the ticks played: who stands where changes only with
/// an `enter` or `exit` (membership changes only through `update_membership`, which reports
/// both, and an NPC that dies or is removed leaves its areas there), so the NPCs inside are
/// counted again only after a tick that reported one, and the ticks in between are added at
/// once.
struct Occupancy {
    /// NPCs inside each area (by prototype) after the last recount.
    now: Vec<u64>,
    /// Ticks played since the last recount, not yet added to `occupant_ticks`.
    pending: u64,
    /// Whether membership may have changed since the last recount.
    stale: bool,
}

impl Occupancy {
    fn new(p: &Program) -> Occupancy {
        Occupancy {
            now: vec![0; p.areas.len()],
            pending: 0,
            stale: true,
        }
    }
    /// Adds the ticks counted so far at the current occupancy.
    fn flush(&mut self, tally: &mut Tally) {
        for (a, &c) in tally.areas.iter_mut().zip(&self.now) {
            a.occupant_ticks += c * self.pending;
        }
        self.pending = 0;
    }
    /// One tick played: adds it at the NPCs standing in each area now.
    fn tick(&mut self, s: &Session, tally: &mut Tally) {
        if self.stale {
            self.flush(tally);
            self.now.iter_mut().for_each(|c| *c = 0);
            for n in s.world().npcs.iter().filter(|n| n.alive()) {
                for &a in &n.areas {
                    if let Some(c) = self.now.get_mut(proto_of(a) as usize) {
                        *c += 1;
                    }
                }
            }
            for (a, &c) in tally.areas.iter_mut().zip(&self.now) {
                a.peak = a.peak.max(c);
            }
            self.stale = false;
        }
        self.pending += 1;
    }
}

/// Plays one seed for `ticks` ticks and counts what ran.
pub fn run_seed(program: &Arc<Program>, seed: u64, ticks: u64) -> Tally {
    let p: &Program = program;
    let mut tally = Tally::new(p);
    let mut s = Session::new(program.clone(), seed);
    let mut occupancy = Occupancy::new(p);
    // Tick 0 (NPCs entering the areas they start in, their OnEnter handlers) ran before the
    // session could count; the session keeps its trace, read here. Its node runs are known
    // from status changes only: a node run several times within tick 0 counts once.
    {
        let mut rec = Recorder {
            program: p,
            tally: &mut tally,
        };
        for ev in s.trace() {
            rec.start_event(ev);
        }
    }
    s.set_counting(true);
    for _ in 0..ticks {
        s.step();
        if let Some(c) = s.counters_mut() {
            let mut rec = Recorder {
                program: p,
                tally: &mut tally,
            };
            for ev in c.events.drain(..) {
                occupancy.stale |= matches!(ev, TraceEvent::Enter { .. } | TraceEvent::Exit { .. });
                rec.trace(&ev);
            }
        }
        occupancy.tick(&s, &mut tally);
    }
    occupancy.flush(&mut tally);
    if let Some(c) = s.counters() {
        for (ti, nodes) in tally.nodes.iter_mut().enumerate() {
            for (n, c) in nodes.iter_mut().zip(c.tree(ti as u32)) {
                n.runs += c.runs();
                n.success += c.results(Status::Success);
                n.failure += c.results(Status::Failure);
                n.running += c.results(Status::Running);
            }
        }
    }
    for (i, x) in tally.triggers.iter_mut().enumerate() {
        if let Some(e) = explain(p, s.world(), i as u32) {
            for b in &e.blocked {
                *x.blocked_at_end.entry(blocked_name(b)).or_default() += 1;
            }
        }
    }
    tally.ticks = ticks;
    tally.finish_seed(p);
    tally
}

/// Plays every seed (on `threads` threads, contiguous chunks, merged in seed order) and
/// returns the merged counts. `progress(done, total)` is called after each seed, from the
/// worker threads.
pub fn run_seeds(
    program: &Arc<Program>,
    seeds: &[u64],
    ticks: u64,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Tally {
    let mut total = Tally::new(program);
    if seeds.is_empty() {
        return total;
    }
    let threads = threads.clamp(1, seeds.len());
    let chunk = seeds.len().div_ceil(threads);
    let done = AtomicUsize::new(0);
    let n = seeds.len();
    let parts: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .chunks(chunk)
            .map(|c| {
                let done = &done;
                scope.spawn(move || {
                    let mut part = Tally::new(program);
                    for &seed in c {
                        part.merge(&run_seed(program, seed, ticks));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, n);
                    }
                    part
                })
            })
            .collect();
        // A worker panicking is a bug in the simulation: re-raise it here.
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    for part in &parts {
        total.merge(part);
    }
    total
}

/// One piece of content that no seed reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreached {
    /// `node`, `template`, `trigger`, `event` or `area`.
    pub kind: &'static str,
    /// The asset: tree id, area id, trigger id (`system/trigger`), event id.
    pub asset: String,
    /// The node id (nodes) or template name (templates); empty otherwise.
    pub item: String,
    /// JSON path in the pack.
    pub path: String,
}

/// One node of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeRow {
    pub id: String,
    pub path: String,
    pub tally: NodeTally,
}

/// One tree of the report, its nodes in pre-order (disabled nodes left out).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeRow {
    pub id: String,
    pub path: String,
    pub nodes: Vec<NodeRow>,
}

/// The coverage report: counts by asset id and node id, in pack order, with JSON paths.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub seeds: Vec<u64>,
    pub ticks_per_seed: u64,
    pub trees: Vec<TreeRow>,
    /// (area id, template name, path, counts).
    pub templates: Vec<(String, String, String, TemplateTally)>,
    /// (trigger id, path, counts).
    pub triggers: Vec<(String, String, TriggerTally)>,
    /// (event id, path, counts).
    pub events: Vec<(String, String, EventTally)>,
    /// (area id, path, counts).
    pub areas: Vec<(String, String, AreaTally)>,
    pub total_ticks: u64,
    pub never: Vec<Unreached>,
}

fn walk<'a>(n: &'a Node, path: String, out: &mut Vec<(&'a str, String)>) {
    if n.disabled {
        return;
    }
    out.push((n.id.as_str(), path.clone()));
    let kids = key(&path, "children");
    for (k, c) in n.children.iter().enumerate() {
        walk(c, index(&kids, k), out);
    }
}

/// JSON path of a compiled trigger: `triggers[s].triggers[t]` found by its system and id.
fn trigger_path(pack: &Pack, p: &Program, t: u32) -> String {
    let Some(ct) = p.triggers.triggers.get(t as usize) else {
        return String::new();
    };
    let Some(sys) = p.triggers.systems.get(ct.system as usize) else {
        return String::new();
    };
    let Some(si) = pack.triggers.iter().position(|s| s.id == sys.id) else {
        return String::new();
    };
    let rest = ct
        .id
        .strip_prefix(&format!("{}/", sys.id))
        .unwrap_or(&ct.id);
    let tid = rest.split('@').next().unwrap_or(rest);
    let sp = index("triggers", si);
    match pack.triggers[si].triggers.iter().position(|x| x.id == tid) {
        Some(ti) => index(&key(&sp, "triggers"), ti),
        None => sp,
    }
}

impl Report {
    /// Names the counts of `tally` after the pack's assets.
    pub fn new(pack: &Pack, p: &Program, seeds: &[u64], ticks: u64, tally: &Tally) -> Report {
        let mut never = Vec::new();
        // Nodes: compiled nodes merged by where they were written (a subtree's nodes count
        // wherever it is inlined; an adopted behavior's wherever it is grafted).
        let mut by_origin: BTreeMap<(u32, &str), NodeTally> = BTreeMap::new();
        for (ti, tree) in p.trees.iter().enumerate() {
            for (ni, node) in tree.nodes.iter().enumerate() {
                let x = tally
                    .nodes
                    .get(ti)
                    .and_then(|v| v.get(ni))
                    .copied()
                    .unwrap_or_default();
                let e = by_origin
                    .entry((node.origin_tree, p.sym(node.origin_id)))
                    .or_default();
                e.runs += x.runs;
                e.success += x.success;
                e.failure += x.failure;
                e.running += x.running;
                e.seeds = tally
                    .origin_seeds
                    .get(&(node.origin_tree, node.origin_id))
                    .copied()
                    .unwrap_or(0);
            }
        }
        let trees: Vec<TreeRow> = pack
            .trees
            .iter()
            .enumerate()
            .map(|(ti, t)| {
                let tpath = index("trees", ti);
                let mut nodes = Vec::new();
                walk(&t.root, key(&tpath, "root"), &mut nodes);
                let nodes: Vec<NodeRow> = nodes
                    .into_iter()
                    .map(|(id, path)| {
                        let tally = by_origin.get(&(ti as u32, id)).copied().unwrap_or_default();
                        if tally.runs == 0 {
                            never.push(Unreached {
                                kind: "node",
                                asset: t.id.clone(),
                                item: id.to_string(),
                                path: path.clone(),
                            });
                        }
                        NodeRow {
                            id: id.to_string(),
                            path,
                            tally,
                        }
                    })
                    .collect();
                TreeRow {
                    id: t.id.clone(),
                    path: tpath,
                    nodes,
                }
            })
            .collect();
        let mut templates = Vec::new();
        for (ai, rules) in p.area_rules.iter().enumerate() {
            let Some(a) = pack.areas.get(ai) else {
                continue;
            };
            for (k, ct) in rules.templates.iter().enumerate() {
                let name = p.sym(ct.name).to_string();
                let apath = index("areas", ai);
                let path = match a.templates.iter().position(|t| t.name == name) {
                    Some(j) => index(&key(&apath, "templates"), j),
                    None => apath,
                };
                let x = tally
                    .templates
                    .get(ai)
                    .and_then(|v| v.get(k))
                    .cloned()
                    .unwrap_or_default();
                if x.adoptions == 0 {
                    never.push(Unreached {
                        kind: "template",
                        asset: a.id.clone(),
                        item: name.clone(),
                        path: path.clone(),
                    });
                }
                templates.push((a.id.clone(), name, path, x));
            }
        }
        let mut triggers = Vec::new();
        for (i, ct) in p.triggers.triggers.iter().enumerate() {
            let path = trigger_path(pack, p, i as u32);
            let x = tally.triggers.get(i).cloned().unwrap_or_default();
            if x.fires == 0 {
                never.push(Unreached {
                    kind: "trigger",
                    asset: ct.id.clone(),
                    item: String::new(),
                    path: path.clone(),
                });
            }
            triggers.push((ct.id.clone(), path, x));
        }
        let mut events = Vec::new();
        for (i, e) in p.events.events.iter().enumerate() {
            let path = pack
                .events
                .iter()
                .position(|d| d.id == e.id)
                .map(|k| index("events", k))
                .unwrap_or_default();
            let x = tally.events.get(i).copied().unwrap_or_default();
            if x.launched == 0 {
                never.push(Unreached {
                    kind: "event",
                    asset: e.id.clone(),
                    item: String::new(),
                    path: path.clone(),
                });
            }
            events.push((e.id.clone(), path, x));
        }
        let mut areas = Vec::new();
        for (i, a) in p.areas.iter().enumerate() {
            let path = index("areas", i);
            let x = tally.areas.get(i).copied().unwrap_or_default();
            if x.visits == 0 && x.peak == 0 {
                never.push(Unreached {
                    kind: "area",
                    asset: a.id.clone(),
                    item: String::new(),
                    path: path.clone(),
                });
            }
            areas.push((a.id.clone(), path, x));
        }
        Report {
            seeds: seeds.to_vec(),
            ticks_per_seed: ticks,
            trees,
            templates,
            triggers,
            events,
            areas,
            total_ticks: tally.ticks,
            never,
        }
    }

    /// The JSON form: every item keyed by its asset id (and node id / template name), each
    /// with its JSON `path`; `never_reached` lists what no seed reached.
    pub fn to_json(&self) -> Value {
        let mut trees = Map::new();
        for t in &self.trees {
            let mut nodes = Map::new();
            for n in &t.nodes {
                let x = n.tally;
                nodes.insert(
                    n.id.clone(),
                    json!({"path": n.path, "runs": x.runs, "success": x.success,
                           "failure": x.failure, "running": x.running, "seeds": x.seeds}),
                );
            }
            trees.insert(t.id.clone(), json!({"path": t.path, "nodes": nodes}));
        }
        let mut templates = Map::new();
        for (area, name, path, x) in &self.templates {
            let entry = templates
                .entry(area.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = entry {
                m.insert(
                    name.clone(),
                    json!({"path": path, "requested": x.requested, "adoptions": x.adoptions,
                           "refusals": x.refusals, "seeds": x.seeds}),
                );
            }
        }
        let mut triggers = Map::new();
        for (id, path, x) in &self.triggers {
            triggers.insert(
                id.clone(),
                json!({"path": path, "fires": x.fires, "seeds": x.seeds,
                       "blocked_at_end": x.blocked_at_end}),
            );
        }
        let mut events = Map::new();
        for (id, path, x) in &self.events {
            events.insert(
                id.clone(),
                json!({"path": path, "launched": x.launched, "success": x.success,
                       "failure": x.failure, "expired": x.expired, "dead": x.dead,
                       "seeds": x.seeds}),
            );
        }
        let ticks = self.total_ticks.max(1) as f64;
        let mut areas = Map::new();
        for (id, path, x) in &self.areas {
            areas.insert(
                id.clone(),
                json!({"path": path, "visits": x.visits, "peak": x.peak,
                       "mean_occupancy": x.occupant_ticks as f64 / ticks, "seeds": x.seeds}),
            );
        }
        let never: Vec<Value> = self
            .never
            .iter()
            .map(|u| {
                let mut v = json!({"kind": u.kind, "asset": u.asset, "path": u.path});
                match u.kind {
                    "node" => v["node"] = json!(u.item),
                    "template" => v["template"] = json!(u.item),
                    _ => {}
                }
                v
            })
            .collect();
        let (first, last) = (self.seeds.first(), self.seeds.last());
        json!({"seeds": {"from": first, "to": last, "count": self.seeds.len()},
               "ticks": self.ticks_per_seed, "trees": trees, "templates": templates,
               "triggers": triggers, "events": events, "areas": areas,
               "never_reached": never})
    }

    /// The text form: one table per kind, then what was never reached.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let n = self.seeds.len();
        let range = match (self.seeds.first(), self.seeds.last()) {
            (Some(a), Some(b)) => format!("{a}..{b}"),
            _ => "none".into(),
        };
        let _ = writeln!(
            s,
            "coverage: {n} seeds ({range}) x {} ticks",
            self.ticks_per_seed
        );
        let _ = writeln!(s, "\nnodes (tree/node: runs success failure running seeds)");
        for t in &self.trees {
            for x in &t.nodes {
                let c = x.tally;
                let _ = writeln!(
                    s,
                    "  {}/{}: {} {} {} {} {}/{n}",
                    t.id, x.id, c.runs, c.success, c.failure, c.running, c.seeds
                );
            }
        }
        if !self.templates.is_empty() {
            let _ = writeln!(
                s,
                "\ntemplates (area/template: requested adoptions seeds; refusals)"
            );
            for (a, name, _, x) in &self.templates {
                let refusals: Vec<String> = x
                    .refusals
                    .iter()
                    .map(|(r, k)| format!("{k}x {r}"))
                    .collect();
                let _ = writeln!(
                    s,
                    "  {a}/{name}: {} {} {}/{n}{}",
                    x.requested,
                    x.adoptions,
                    x.seeds,
                    if refusals.is_empty() {
                        String::new()
                    } else {
                        format!("; {}", refusals.join(", "))
                    }
                );
            }
        }
        if !self.triggers.is_empty() {
            let _ = writeln!(s, "\ntriggers (fires seeds; blocked at the end of runs)");
            for (id, _, x) in &self.triggers {
                let blocked: Vec<String> = x
                    .blocked_at_end
                    .iter()
                    .map(|(r, k)| format!("{r} {k}"))
                    .collect();
                let _ = writeln!(
                    s,
                    "  {id}: {} {}/{n}; {}",
                    x.fires,
                    x.seeds,
                    if blocked.is_empty() {
                        "not blocked".to_string()
                    } else {
                        blocked.join(", ")
                    }
                );
            }
        }
        if !self.events.is_empty() {
            let _ = writeln!(
                s,
                "\nstory events (launched success failure expired dead seeds)"
            );
            for (id, _, x) in &self.events {
                let _ = writeln!(
                    s,
                    "  {id}: {} {} {} {} {} {}/{n}",
                    x.launched, x.success, x.failure, x.expired, x.dead, x.seeds
                );
            }
        }
        if !self.areas.is_empty() {
            let ticks = self.total_ticks.max(1) as f64;
            let _ = writeln!(s, "\nareas (visits peak mean-occupancy seeds)");
            for (id, _, x) in &self.areas {
                let _ = writeln!(
                    s,
                    "  {id}: {} {} {:.2} {}/{n}",
                    x.visits,
                    x.peak,
                    x.occupant_ticks as f64 / ticks,
                    x.seeds
                );
            }
        }
        let _ = writeln!(s, "\nnever reached: {}", self.never.len());
        for u in &self.never {
            let what = if u.item.is_empty() {
                format!("{} `{}`", u.kind, u.asset)
            } else {
                format!("{} `{}` of `{}`", u.kind, u.item, u.asset)
            };
            let _ = writeln!(s, "  {}: {what}", u.path);
        }
        s
    }
}

/// The seeds of `--seeds`: `A..B` (both included, so `1..200` is 200 seeds) or one seed `N`.
/// At most 10 000 000 seeds.
pub fn parse_seeds(s: &str) -> Result<Vec<u64>, String> {
    let num = |x: &str| {
        x.trim()
            .parse::<u64>()
            .map_err(|_| format!("`{x}` is not a seed (a non-negative integer)"))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let n = num(s)?;
            (n, n)
        }
    };
    if b < a {
        return Err(format!("empty seed range `{s}`: {b} is below {a}"));
    }
    if b - a >= 10_000_000 {
        return Err(format!("seed range `{s}` holds more than 10000000 seeds"));
    }
    Ok((a..=b).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two trees inline one subtree; both run in every seed.
    const SHARED: &str = r#"{"format": "townsfolk-pack", "version": 1, "name": "shared",
      "world": {"dt": 0.1, "npcs": [{"id": "x", "pos": [1, 1], "tree": "a"},
                                    {"id": "y", "pos": [2, 2], "tree": "b"}]},
      "trees": [
        {"id": "a", "root": {"id": "ra", "type": "subtree", "tree": "shared"}},
        {"id": "b", "root": {"id": "rb", "type": "subtree", "tree": "shared"}},
        {"id": "shared", "root": {"id": "w", "type": "wait", "seconds": 100}}]}"#;

    #[test]
    fn a_subtree_inlined_twice_counts_runs_everywhere_and_each_seed_once() {
        let pack = crate::program::load_str(SHARED).pack.expect("pack");
        let (p, diags) = Program::build(&pack);
        assert!(!diags.iter().any(|d| d.is_error()), "{diags:?}");
        let p = Arc::new(p);
        let seeds = [1, 2, 3];
        let quiet = |_: usize, _: usize| {};
        let one = run_seeds(&p, &seeds, 10, 1, &quiet);
        assert_eq!(one, run_seeds(&p, &seeds, 10, 3, &quiet), "thread count");
        let r = Report::new(&pack, &p, &seeds, 10, &one);
        let shared = r.trees.iter().find(|t| t.id == "shared").expect("tree");
        let w = shared.nodes[0].tally;
        assert_eq!(w.runs, 2 * 10 * 3, "two NPCs, ten ticks, three seeds");
        assert_eq!(w.running, w.runs);
        assert_eq!(w.seeds, 3, "each seed once, though it ran in two places");
        assert!(r.never.is_empty(), "{:?}", r.never);
    }

    #[test]
    fn tick_0_on_enter_handlers_and_visits_are_counted() {
        let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "start",
          "world": {"dt": 0.1, "npcs": [{"id": "ada", "pos": [5, 5], "tree": "idle"}]},
          "trees": [
            {"id": "idle", "root": {"id": "w", "type": "wait", "seconds": 100}},
            {"id": "hello", "root": {"id": "hi", "type": "log", "text": "hello"}}],
          "areas": [{"id": "nest", "shape": {"rect": {"min": [0, 0], "max": [10, 10]}},
                     "handlers": {"on_enter": "hello"}}]}"#;
        let pack = crate::program::load_str(text).pack.expect("pack");
        let (p, diags) = Program::build(&pack);
        assert!(!diags.iter().any(|d| d.is_error()), "{diags:?}");
        let p = Arc::new(p);
        let t = run_seeds(&p, &[1, 2], 5, 1, &|_, _| {});
        let r = Report::new(&pack, &p, &[1, 2], 5, &t);
        let hello = r.trees.iter().find(|t| t.id == "hello").expect("tree");
        assert_eq!(hello.nodes[0].tally.runs, 2, "ran at tick 0 of each seed");
        assert_eq!(hello.nodes[0].tally.success, 2);
        assert_eq!(hello.nodes[0].tally.seeds, 2);
        let nest = &r.areas[0].2;
        assert_eq!(nest.visits, 2, "entered at tick 0 of each seed");
        assert_eq!(nest.peak, 1);
        assert!(r.never.is_empty(), "{:?}", r.never);
    }

    /// Counts node visits and outcomes from the debugger's probe (what coverage did before
    /// the session counted), and occupancy after every tick.
    struct ProbeCount(Tally);

    impl crate::trace::Probe for ProbeCount {
        fn event(
            &mut self,
            ev: &crate::trace::DebugEvent<'_>,
            _env: Option<&dyn crate::expr::Env>,
        ) -> bool {
            use crate::trace::DebugEvent;
            let nodes = &mut self.0.nodes;
            match *ev {
                DebugEvent::Enter { tree, node, .. } => {
                    nodes[tree as usize][node as usize].runs += 1;
                }
                DebugEvent::Result { tree, node, to, .. } => {
                    let n = &mut nodes[tree as usize][node as usize];
                    match to {
                        Status::Success => n.success += 1,
                        Status::Failure => n.failure += 1,
                        Status::Running => n.running += 1,
                        Status::Idle => {}
                    }
                }
                _ => {}
            }
            false
        }
    }

    #[test]
    fn counting_session_counts_what_the_probe_sees() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
        for name in ["daily_life.json", "guards.json", "plaza.json"] {
            let loaded = crate::program::load_file(&path.join(name));
            let pack = loaded.pack.expect("sample loads");
            let (p, diags) = Program::build(&pack);
            assert!(!diags.iter().any(|d| d.is_error()), "{name}: {diags:?}");
            let p = Arc::new(p);
            let ticks = 400;
            let counted = run_seed(&p, 7, ticks);
            let mut watched = ProbeCount(Tally::new(&p));
            let mut occupant_ticks = vec![0u64; p.areas.len()];
            let mut s = Session::new(p.clone(), 7);
            for ev in s.trace() {
                Recorder {
                    program: &p,
                    tally: &mut watched.0,
                }
                .start_event(ev);
            }
            for _ in 0..ticks {
                s.step_probed(&mut watched);
                for n in s.world().npcs.iter().filter(|n| n.alive()) {
                    for &a in &n.areas {
                        occupant_ticks[proto_of(a) as usize] += 1;
                    }
                }
            }
            let runs: u64 = counted.nodes.iter().flatten().map(|n| n.runs).sum();
            assert!(runs > ticks, "{name}: trees ran ({runs} visits)");
            for (ti, (a, b)) in counted.nodes.iter().zip(&watched.0.nodes).enumerate() {
                for (ni, (x, y)) in a.iter().zip(b).enumerate() {
                    let (x, y) = (
                        (x.runs, x.success, x.failure, x.running),
                        (y.runs, y.success, y.failure, y.running),
                    );
                    assert_eq!(x, y, "{name}: tree {ti} node {ni}");
                }
            }
            let occ: Vec<u64> = counted.areas.iter().map(|a| a.occupant_ticks).collect();
            assert_eq!(occ, occupant_ticks, "{name}: occupancy");
        }
    }

    #[test]
    fn seed_ranges_include_both_ends() {
        assert_eq!(parse_seeds("1..3"), Ok(vec![1, 2, 3]));
        assert_eq!(parse_seeds("4..=5"), Ok(vec![4, 5]));
        assert_eq!(parse_seeds("7"), Ok(vec![7]));
        assert!(parse_seeds("3..1").is_err());
        assert!(parse_seeds("a..b").is_err());
        assert!(parse_seeds("0..99999999").is_err());
    }
}
