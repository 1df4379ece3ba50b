//! "Why didn't it fire?": the value of every node of a trigger's tree, per condition when it
//! last changed and whether it is latched, and what blocks the trigger. Read-only: explaining
//! never changes the world.

use serde::Serialize;

use crate::program::Program;
use crate::program::triggers::Op;
use crate::systems::triggers::leaf_value;
use crate::world::World;

/// One node of a trigger's condition tree, as it stands now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeExplain {
    /// JSON path of the node in the pack.
    pub path: String,
    /// `and`, `or`, `not`, `xor` or the condition kind.
    pub kind: String,
    pub depth: u32,
    /// Its value now (every node is evaluated here, without short-circuit).
    pub value: bool,
    /// For conditions: `event` (latched) or `polled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    /// For event-driven conditions: whether the latch is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latched: Option<bool>,
    /// Tick its value last changed (as the trigger system saw it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed_tick: Option<u64>,
    /// Tick it was last evaluated by the trigger system (lazy evaluation skips some).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evaluated_tick: Option<u64>,
}

/// Why a trigger does not fire now.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Blocked {
    /// The trigger is disabled in the pack.
    Disabled,
    /// A single-shot trigger that already fired.
    SingleShotSpent { fired_tick: u64 },
    /// Fired recently; can fire again after the reload time.
    Reloading { ticks_left: u64, seconds_left: f64 },
    /// Its tree has stayed true since it last fired: it fires again only after the tree
    /// goes false and then true.
    StillTrue { fired_tick: u64 },
    /// Its condition tree is false (see the nodes).
    ConditionFalse,
}

/// A trigger's whole story at this moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explain {
    pub trigger: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The tree's value now.
    pub value: bool,
    pub fires: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_fired_tick: Option<u64>,
    /// Empty: nothing blocks it (it fires at the next pass if the tree is true).
    pub blocked: Vec<Blocked>,
    /// Pre-order, root first.
    pub nodes: Vec<NodeExplain>,
}

/// Explains trigger `t` (a global index; see `TriggerProgram::find`).
pub fn explain(p: &Program, w: &World, t: u32) -> Option<Explain> {
    let trig = p.triggers.triggers.get(t as usize)?;
    let st = &w.triggers;
    let ti = t as usize;
    let mut values = vec![false; trig.nodes.len()];
    // Children come after their parent in pre-order: fill bottom-up.
    for n in (0..trig.nodes.len()).rev() {
        let node = &trig.nodes[n];
        let kid = |c: &u32| values[*c as usize];
        values[n] = match node.op {
            Op::Leaf(l) => leaf_value(p, w, st, l),
            Op::And => node.children.iter().all(kid),
            Op::Or => node.children.iter().any(kid),
            Op::Not => !node.children.first().is_some_and(kid),
            Op::Xor => node.children.iter().filter(|c| kid(c)).count() == 1,
        };
    }
    let tick_opt = |x: u64| (x != u64::MAX).then_some(x);
    let nodes = trig
        .nodes
        .iter()
        .enumerate()
        .map(|(n, node)| {
            let leaf = match node.op {
                Op::Leaf(l) => Some((l as usize, &p.triggers.leaves[l as usize])),
                _ => None,
            };
            NodeExplain {
                path: node.path.clone(),
                kind: node.kind.clone(),
                depth: node.depth,
                value: values[n],
                mode: leaf.map(|(_, l)| if l.kind.is_event() { "event" } else { "polled" }),
                latched: leaf.filter(|(_, l)| l.kind.is_event()).map(|(li, l)| {
                    if l.kind.is_one_off() {
                        st.latch[li]
                    } else {
                        st.count[li] > 0
                    }
                }),
                changed_tick: leaf
                    .and_then(|(li, _)| st.changed.get(li).copied().and_then(tick_opt)),
                evaluated_tick: leaf
                    .and_then(|(li, _)| st.evaluated.get(li).copied().and_then(tick_opt)),
            }
        })
        .collect();
    let value = values.first().copied().unwrap_or(false);
    let last = st.last_fired.get(ti).copied().and_then(tick_opt);
    let mut blocked = Vec::new();
    if !trig.enabled {
        blocked.push(Blocked::Disabled);
    }
    if st.spent.get(ti) == Some(&true) {
        blocked.push(Blocked::SingleShotSpent {
            fired_tick: last.unwrap_or(0),
        });
    }
    let until = st.reload_until.get(ti).copied().unwrap_or(0);
    if until > w.tick {
        let left = until - w.tick;
        blocked.push(Blocked::Reloading {
            ticks_left: left,
            seconds_left: left as f64 * p.dt,
        });
    }
    if value && st.holding.get(ti) == Some(&true) && st.spent.get(ti) != Some(&true) {
        blocked.push(Blocked::StillTrue {
            fired_tick: last.unwrap_or(0),
        });
    }
    if !value {
        blocked.push(Blocked::ConditionFalse);
    }
    Some(Explain {
        trigger: trig.id.clone(),
        comment: trig.comment.clone(),
        value,
        fires: st.fires.get(ti).copied().unwrap_or(0),
        last_fired_tick: last,
        blocked,
        nodes,
    })
}
