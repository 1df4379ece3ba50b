//! The NPC trees phase: every NPC's tree ticks once, in pack order, with the behaviors it
//! adopted ticked nested under their request nodes; runaway trees are cut off and reported.

use crate::bt::{self, Status};
use crate::program::Program;
use crate::systems::host::{ActorHost, MAX_NESTING, Who};
use crate::trace::{Actor, Counting, DebugEvent, Out, TraceEvent};
use crate::world::minds::{Lent, Nodes};
use crate::world::{World, WorldEnv};

/// Ticks every NPC's tree. `runaway_reported` remembers the NPCs already reported as
/// runaway (once each, in `problems`). Sets `out.stop` when the probe paused the tick.
pub fn tick_npcs(
    p: &Program,
    w: &mut World,
    out: &mut Out,
    runaway_reported: &mut Vec<bool>,
    problems: &mut Vec<String>,
) {
    // The NPCs' tree states are lent out of the world for the phase (the world stays free
    // to borrow while one of them ticks) and always given back, also when the probe pauses.
    let mut nodes = w.minds.lend();
    tick_lent(p, w, &mut nodes, out, runaway_reported, problems);
    w.minds.put_back(nodes);
}

fn tick_lent(
    p: &Program,
    w: &mut World,
    nodes: &mut Nodes,
    out: &mut Out,
    runaway_reported: &mut Vec<bool>,
    problems: &mut Vec<String>,
) {
    for i in 0..nodes.len() {
        out.scope(Some(Actor::Npc(i as u32)));
        if let Some(pr) = out.probe.as_deref_mut() {
            let env = WorldEnv {
                program: p,
                world: w,
                npc: i as u32,
            };
            if pr.event(&DebugEvent::NpcStart { npc: i as u32 }, Some(&env)) {
                out.stop = true;
                return;
            }
        }
        let Some(Lent {
            tree: ti,
            state,
            status,
            last,
        }) = nodes.get_mut(i)
        else {
            continue;
        };
        // A removed or dead NPC's tree does not tick; once, it is halted (halting resets).
        let alive = w.is_alive(i);
        if !alive && status.first().is_none_or(|s| *s == Status::Idle) {
            continue;
        }
        let Some(tree) = p.trees.get(ti as usize) else {
            continue;
        };
        let stride = w.minds.stride();
        let mut h = ActorHost {
            p,
            w,
            who: Who::Npc(i as u32),
            bb_at: i * stride,
            bb_len: stride,
            tree: ti,
            granting: None,
            running: [(0, 0); MAX_NESTING],
            nesting: 0,
            base: 0,
            trace: out.trace.as_deref_mut(),
            probe: out.probe.as_deref_mut(),
            stop: false,
            counts: out.counts.as_mut().map(Counting::reborrow),
        };
        if !alive {
            bt::halt_nodes(tree, state, status, &mut h, 0);
            if h.stop {
                out.stop = true;
                return;
            }
            continue;
        }
        let outcome = h.tick_nodes(ti, tree, state, status);
        if let Some(node) = outcome.runaway {
            let (tid, nid) = p.node_origin(ti, node);
            let (tid, nid) = (tid.to_string(), nid.to_string());
            let tick = h.w.tick;
            h.emit(TraceEvent::Runaway {
                tick,
                npc: i as u32,
                tree: ti,
                node: node as u32,
            });
            if runaway_reported.len() <= i {
                runaway_reported.resize(i + 1, false);
            }
            if !runaway_reported[i] {
                runaway_reported[i] = true;
                let name = h.w.npc_name(p, i as u32);
                problems.push(format!(
                    "tick {tick}: tree of NPC `{name}` made more than {} node visits in one tick and was cut off at node `{nid}` of tree `{tid}` (a loop that never waits?)",
                    p.visit_budget
                ));
            }
        }
        if outcome.paused || h.stop {
            out.stop = true;
            return;
        }
        *last = outcome.status;
    }
}
