//! Dead assets and empty ids: numbers that make an asset do nothing (`max_instances: 0`, an
//! empty time window, a mandatory event that can only fail), ids that are empty strings, and
//! story events the world never runs. Part of the name checks ([`super::names`], whose one
//! walk over every node hands each node to [`Dead::node`]).

use std::collections::BTreeSet;

use super::names::response_lists;
use super::trail::Trail;
use crate::pack::diag::{index, key};
use crate::pack::{Diagnostic, Node, NodeKind, Pack, Response};

/// The dead-asset and empty-id checks: fed every node by the name checks' walk, then
/// [`Dead::finish`]ed.
#[derive(Default)]
pub(super) struct Dead {
    /// Empty time windows, in tree order.
    windows: Vec<Diagnostic>,
    out: Vec<Diagnostic>,
}

impl Dead {
    /// A node of a tree, where `t` is.
    pub(super) fn node(&mut self, n: &Node, t: &Trail<'_>) {
        if let NodeKind::TimeWindow { from_hour, to_hour } = &n.kind
            && from_hour == to_hour
        {
            self.windows.push(Diagnostic::warning(
                t.path(),
                format!(
                    "an empty time window (`from_hour` = `to_hour` = {from_hour}): it never succeeds"
                ),
            ));
        }
    }

    /// Every dead-asset and empty-id diagnostic of the pack, once every node was seen.
    pub(super) fn finish(mut self, pack: &Pack) -> Vec<Diagnostic> {
        self.dead_numbers(pack);
        self.empty_ids(pack);
        self.story(pack);
        self.out
    }

    /// Numbers that make an asset dead.
    fn dead_numbers(&mut self, pack: &Pack) {
        for (i, a) in pack.areas.iter().enumerate() {
            for (j, t) in a.templates.iter().enumerate() {
                if t.max_instances == Some(0) {
                    let p = index(&key(&index("areas", i), "templates"), j);
                    self.out.push(Diagnostic::warning(
                        key(&p, "max_instances"),
                        format!(
                            "`max_instances: 0`: no NPC can ever adopt `{}` (leave it out for no limit)",
                            t.name
                        ),
                    ));
                }
            }
        }
        self.out.append(&mut self.windows);
        for (i, e) in pack.events.iter().enumerate() {
            if e.mandatory && e.success_probability == 0.0 {
                self.out.push(Diagnostic::warning(
                    key(&index("events", i), "success_probability"),
                    format!(
                        "mandatory event `{}` has success probability 0: it always fails",
                        e.id
                    ),
                ));
            }
        }
    }

    /// Ids that are empty strings.
    fn empty_ids(&mut self, pack: &Pack) {
        let mut empty = |path: String, what: &str| {
            self.out.push(Diagnostic::error(
                path,
                format!("a {what} needs a non-empty id"),
            ));
        };
        let w = &pack.world;
        for (i, x) in w.npcs.iter().enumerate() {
            if x.id.is_empty() {
                empty(key(&index("world.npcs", i), "id"), "NPC");
            }
        }
        for (i, x) in w.objects.iter().enumerate() {
            if x.id.is_empty() {
                empty(key(&index("world.objects", i), "id"), "object");
            }
        }
        for (i, x) in pack.trees.iter().enumerate() {
            if x.id.is_empty() {
                empty(key(&index("trees", i), "id"), "tree");
            }
        }
        for (i, x) in pack.areas.iter().enumerate() {
            if x.id.is_empty() {
                empty(key(&index("areas", i), "id"), "area");
            }
            for (j, t) in x.templates.iter().enumerate() {
                if t.name.is_empty() {
                    let p = index(&key(&index("areas", i), "templates"), j);
                    empty(key(&p, "name"), "template");
                }
            }
        }
        let mut empty = |path: String, what: &str| {
            self.out.push(Diagnostic::error(
                path,
                format!("a {what} needs a non-empty id"),
            ));
        };
        for (i, x) in pack.events.iter().enumerate() {
            if x.id.is_empty() {
                empty(key(&index("events", i), "id"), "story event");
            }
        }
        for (i, x) in pack.scenarios.iter().enumerate() {
            if x.id.is_empty() {
                empty(key(&index("scenarios", i), "id"), "scenario");
            }
        }
        for (i, x) in pack.casts.iter().enumerate() {
            if x.id.is_empty() {
                empty(key(&index("casts", i), "id"), "cast");
            }
        }
        for (i, x) in pack.tests.iter().enumerate() {
            if x.id.is_empty() {
                empty(key(&index("tests", i), "id"), "content test");
            }
        }
    }

    /// Story events the world never runs.
    fn story(&mut self, pack: &Pack) {
        if pack.events.is_empty() {
            return;
        }
        let mut started = BTreeSet::new();
        response_lists(pack, |_, list| {
            for r in list {
                if let Response::StartEvent { event } = r {
                    started.insert(event.as_str());
                }
            }
        });
        let Some(sid) = &pack.world.scenario else {
            if started.is_empty() {
                let ids: Vec<String> = pack
                    .scenarios
                    .iter()
                    .map(|s| format!("`{}`", s.id))
                    .collect();
                let which = if ids.is_empty() {
                    "and no scenario lists them".to_string()
                } else {
                    format!("set `world.scenario` to one of {}", ids.join(", "))
                };
                self.out.push(Diagnostic::warning(
                    "world",
                    format!(
                        "the pack has {} story event(s) but the world runs no scenario, so no \
                         story runs ({which})",
                        pack.events.len()
                    ),
                ));
            }
            return;
        };
        for (i, e) in pack.events.iter().enumerate() {
            // A scenario with no `events` list uses the whole library.
            let listed = pack
                .scenarios
                .iter()
                .any(|s| s.events.is_empty() || s.events.contains(&e.id));
            if !listed && !started.contains(e.id.as_str()) {
                self.out.push(Diagnostic::warning(
                    key(&index("events", i), "id"),
                    format!(
                        "event `{}` is in no scenario and no response starts it: it never \
                         happens (the world runs scenario `{sid}`)",
                        e.id
                    ),
                ));
            }
        }
    }
}
