//! The unobserved engine (conditions, actions and failing guards visited in their parents'
//! loops, runs of conditions in one loop) against the observed one (every node visited in
//! full) on random trees.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Leaf;
use super::tests::{AB, cut_off, session_with_budget, set, status, var};
use crate::value::Value;

/// A random tree as pack JSON, its node ids, and its depth.
struct Gen {
    rng: ChaCha8Rng,
    ids: Vec<String>,
    depth: u32,
}

const CONDITIONS: [&str; 7] = ["a", "b", "!a", "x > 3", "x < 6", "x % 2 == 0", "x > 100"];

impl Gen {
    fn node(&mut self, depth: u32, max: u32) -> String {
        let id = format!("n{}", self.ids.len());
        self.ids.push(id.clone());
        self.depth = self.depth.max(depth);
        let leaf = depth == max || self.ids.len() > 70 || self.rng.random_bool(0.2);
        if leaf {
            return match self.rng.random_range(0..5) {
                0..=2 => {
                    let c = CONDITIONS[self.rng.random_range(0..CONDITIONS.len())];
                    format!(r#"{{"id": "{id}", "type": "condition", "expr": "{c}"}}"#)
                }
                3 => {
                    let k = self.rng.random_range(0..9);
                    format!(
                        r#"{{"id": "{id}", "type": "set", "var": "y", "value": "y * 3 + {k}"}}"#
                    )
                }
                _ => {
                    let s = self.rng.random_range(1..5) as f64 / 10.0;
                    format!(r#"{{"id": "{id}", "type": "wait", "seconds": {s}}}"#)
                }
            };
        }
        let (head, kids) = match self.rng.random_range(0..12) {
            k @ 0..=7 => {
                let ty = if k % 2 == 0 { "sequence" } else { "selector" };
                let reactive = k % 4 < 2;
                (
                    format!(r#""type": "{ty}", "reactive": {reactive}"#),
                    self.rng.random_range(1..=4),
                )
            }
            8 => (r#""type": "inverter""#.to_string(), 1),
            9 => {
                let ty = ["force_success", "force_failure"][self.rng.random_range(0..2)];
                (format!(r#""type": "{ty}""#), 1)
            }
            10 => {
                let ty = ["repeat", "retry"][self.rng.random_range(0..2)];
                (format!(r#""type": "{ty}", "times": 2"#), 1)
            }
            _ => (
                r#""type": "parallel", "success_threshold": 1"#.to_string(),
                2,
            ),
        };
        let kids: Vec<String> = (0..kids).map(|_| self.node(depth + 1, max)).collect();
        format!(
            r#"{{"id": "{id}", {head}, "children": [{}]}}"#,
            kids.join(", ")
        )
    }
}

#[test]
fn random_trees_play_the_same_unobserved_and_traced() {
    // Deep trees, small budgets (runaways cut in the middle of a run of conditions or of
    // a guarded sequence), every composite and decorator: the statuses of every node, the
    // blackboard, the world and the runaway reports agree tick for tick.
    let mut deepest = 0;
    let mut cuts = 0;
    let mut guarded_any = 0;
    for seed in 0..150u64 {
        let mut g = Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
            ids: Vec::new(),
            depth: 0,
        };
        let max = g.rng.random_range(2..14);
        let root = g.node(0, max);
        deepest = deepest.max(g.depth);
        let budget = if seed % 3 == 0 {
            g.rng.random_range(3..20)
        } else {
            10_000
        };
        let board = format!(r#"{AB}, "y": {{"type": "int"}}"#);
        let mut fast = session_with_budget(&root, &board, budget);
        let leaves = &fast.program().trees[0].leaves;
        guarded_any += usize::from(leaves.iter().any(|l| matches!(l, Leaf::GuardedAny { .. })));
        let mut full = session_with_budget(&root, &board, budget);
        full.set_tracing(true);
        for step in 0..40 {
            let (a, b, x) = (
                g.rng.random_bool(0.6),
                g.rng.random_bool(0.3),
                g.rng.random_range(0..9),
            );
            for s in [&mut fast, &mut full] {
                set(s, "a", Value::Bool(a));
                set(s, "b", Value::Bool(b));
                set(s, "x", Value::Int(x));
                s.step();
            }
            for id in &g.ids {
                assert_eq!(
                    status(&fast, id),
                    status(&full, id),
                    "tree {seed}: {id} at step {step}\n{root}"
                );
            }
            assert_eq!(
                var(&fast, "y"),
                var(&full, "y"),
                "tree {seed}: y at step {step}"
            );
            assert_eq!(
                fast.hash(),
                full.hash(),
                "tree {seed}: world at step {step}"
            );
        }
        assert_eq!(
            cut_off(&fast),
            cut_off(&full),
            "tree {seed}: runaway\n{root}"
        );
        cuts += usize::from(cut_off(&fast));
    }
    assert!(deepest > 10, "some trees are deep ({deepest})");
    assert!(cuts > 5, "some trees ran out of budget ({cuts})");
    assert!(
        guarded_any > 3,
        "some trees have a sequence guarded by a selector of conditions ({guarded_any})"
    );
}
