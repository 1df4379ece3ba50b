//! Request nodes (SPEC §2): choosing a behavior among the areas an NPC stands in, adopting
//! it, what happens when it ends, and `go_to_child`'s choice of a child area.

use std::collections::VecDeque;

use crate::bt::{Instance, Status};
use crate::pack::{ChildChoice, Keep};
use crate::program::Program;
use crate::program::areas::CRequest;
use crate::systems::effects::areas::{drop_tag, queue_handler};
use crate::trace::{Out, TraceEvent};
use crate::value::{Sym, Vec2};
use crate::world::areas::{
    AreaState, HandlerKind, Refusal, RequestOutcome, Tag, bbox_size, parent, proto_of, state,
    state_mut,
};
use crate::world::{World, WorldEnv};

/// Chooses a behavior for an NPC's request node: the innermost area it stands in (of
/// `area_kind`, if given) filters its templates (enabled, free slots, constraint, not
/// forbidden); if the node names preferred behaviors only those are asked for, chosen by
/// weight, else any survivor, uniformly; when nothing applies, the parent area is asked, and
/// so on up (an NPC in a pub that wants to work is served by the city).
pub fn choose(
    p: &Program,
    w: &mut World,
    npc: u32,
    req: &CRequest,
    explain: bool,
    running: &[(u32, u32)],
) -> RequestOutcome {
    let n = &w.npcs[npc as usize];
    let start = match req.area_kind {
        None => n.area,
        Some(kind) => {
            let mut best: Option<(f64, u32)> = None;
            for &a in &n.areas {
                if p.areas[proto_of(a) as usize].kinds.contains(&kind) {
                    let size = bbox_size(p, a);
                    if best.is_none_or(|(s, b)| size < s || (size == s && a < b)) {
                        best = Some((size, a));
                    }
                }
            }
            best.map(|(_, a)| a)
        }
    };
    let mut outcome = RequestOutcome {
        asked: start,
        chosen: None,
        refused: Vec::new(),
        kept: false,
    };
    let mut area = start;
    let mut guard = 0;
    while let Some(a) = area {
        guard += 1;
        if guard > 64 {
            break;
        }
        let rules = &p.area_rules[proto_of(a) as usize];
        let Some(st) = state(w, a) else { break };
        let mut total = 0.0;
        // Survivors with their weights (no allocation when nothing is refused).
        let mut survivors: [(u32, f64); 32] = [(0, 0.0); 32];
        let mut count = 0usize;
        for (ti, t) in rules.templates.iter().enumerate() {
            let refuse = |reason: String, outcome: &mut RequestOutcome| {
                if explain {
                    outcome.refused.push(Refusal {
                        area: a,
                        template: t.name,
                        reason,
                    });
                }
            };
            if req.forbid.contains(&t.name) {
                refuse("forbidden by the request".into(), &mut outcome);
                continue;
            }
            if running.contains(&(a, ti as u32)) {
                refuse(
                    "already running: this request is inside it".into(),
                    &mut outcome,
                );
                continue;
            }
            if !st.enabled.get(ti).copied().unwrap_or(false) {
                refuse("disabled".into(), &mut outcome);
                continue;
            }
            // The requester's own overridable tag of this template is about to be replaced.
            let own = w.npcs[npc as usize]
                .tags
                .iter()
                .filter(|g| g.area == a && g.template == ti as u32 && g.overridable)
                .count() as u32;
            let held = st.holders.get(ti).copied().unwrap_or(0).saturating_sub(own);
            if let Some(max) = t.max_instances
                && held >= max
            {
                refuse(format!("full ({held}/{max} instances)"), &mut outcome);
                continue;
            }
            if let Some(c) = t.constraint {
                let env = WorldEnv {
                    program: p,
                    world: w,
                    npc,
                };
                let e = &p.exprs[c as usize];
                if !e.eval_bool(&env) {
                    let part = e
                        .failing_part(&env)
                        .unwrap_or_else(|| e.source().to_string());
                    refuse(
                        format!("constraint `{}` is false (`{part}`)", e.source()),
                        &mut outcome,
                    );
                    continue;
                }
            }
            let pref = req
                .prefer
                .iter()
                .find(|(name, _)| *name == t.name)
                .map(|&(_, w)| w.max(0.0));
            // A request that names behaviors asks for those only; the rest is not refused
            // for a fault of its own, so it is not listed either.
            if !req.prefer.is_empty() && pref.is_none() {
                continue;
            }
            if count < survivors.len() {
                survivors[count] = (ti as u32, pref.unwrap_or(1.0));
                count += 1;
                total += pref.unwrap_or(1.0);
            }
        }
        if count > 0 && total > 0.0 {
            let mut r = w.rng_f64() * total;
            let mut pick = None;
            for &(ti, wt) in &survivors[..count] {
                if wt <= 0.0 {
                    continue;
                }
                pick = Some(ti);
                if r < wt {
                    break;
                }
                r -= wt;
            }
            if let Some(ti) = pick {
                outcome.chosen = Some((a, ti));
                return outcome;
            }
        }
        area = parent(p, a);
    }
    outcome
}

/// Adopts template `ti` of `area` for an NPC's request node: the tag is created (and the
/// area counts a holder), inboxes are added, OnAdopt is queued.
pub fn adopt(p: &Program, w: &mut World, npc: u32, node: u64, area: u32, ti: u32, out: &mut Out) {
    let t = &p.area_rules[proto_of(area) as usize].templates[ti as usize];
    let Some(tree) = p.trees.get(t.tree as usize) else {
        return;
    };
    let tick = w.tick;
    let n = &mut w.npcs[npc as usize];
    for &ib in &t.inboxes {
        if !n.inboxes.iter().any(|(s, _)| *s == ib) {
            n.inboxes.push((ib, VecDeque::new()));
        }
    }
    n.tags.push(Tag {
        node,
        area,
        template: ti,
        tree: t.tree,
        instance: Instance::new(t.tree, tree),
        overridable: false,
        adopted: tick,
    });
    if let Some(s) = state_mut(w, area)
        && let Some(h) = s.holders.get_mut(ti as usize)
    {
        *h += 1;
    }
    queue_handler(p, w, area, HandlerKind::Adopt, npc);
    out.emit(
        p,
        w,
        Some(npc),
        TraceEvent::Adopt {
            tick,
            npc,
            area,
            template: t.name,
        },
    );
}

/// What happens to a tag when its tree ends: keep, mark overridable, or drop.
pub fn after_end(p: &Program, w: &mut World, npc: u32, k: usize, status: Status, out: &mut Out) {
    let tag = &w.npcs[npc as usize].tags[k];
    let policy = p.area_rules[proto_of(tag.area) as usize].templates[tag.template as usize].drop;
    let (rule, reason) = match status {
        Status::Success => (policy.on_success, "behavior succeeded"),
        _ => (policy.on_failure, "behavior failed"),
    };
    match rule {
        Keep::Keep => {}
        Keep::Overridable => w.npcs[npc as usize].tags[k].overridable = true,
        Keep::Drop => drop_tag(p, w, npc, k, reason, out),
    }
}

/// Picks a child area of `parent` with kind `kind`: by weight (seeded) or the nearest.
pub fn pick_child(
    p: &Program,
    w: &mut World,
    parent: u32,
    kind: Sym,
    choose: ChildChoice,
    from: Vec2,
) -> Option<u32> {
    let children = &p.area_rules[proto_of(parent) as usize].children;
    let alive: &[AreaState] = &w.areas;
    let fits = |c: &u32| {
        p.areas[*c as usize].kinds.contains(&kind)
            && alive.get(*c as usize).is_some_and(|s| s.alive)
    };
    match choose {
        ChildChoice::Nearest => children
            .iter()
            .filter(|c| fits(c))
            .map(|&c| (p.areas[c as usize].center().distance(from), c))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|(_, c)| c),
        ChildChoice::Weight => {
            let total: f64 = children
                .iter()
                .filter(|c| fits(c))
                .map(|&c| p.area_rules[c as usize].weight)
                .sum();
            if total <= 0.0 {
                return None;
            }
            let fitting: Vec<u32> = children.iter().copied().filter(|c| fits(c)).collect();
            let mut r = w.rng_f64() * total;
            let mut last = None;
            for &c in &fitting {
                let wt = p.area_rules[c as usize].weight;
                if wt <= 0.0 {
                    continue;
                }
                last = Some(c);
                if r < wt {
                    return Some(c);
                }
                r -= wt;
            }
            last
        }
    }
}
