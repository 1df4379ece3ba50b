//! The generated city shared by the smart-area and town benchmarks (`#[path]`-included by
//! `areas_bench.rs` and `town_bench.rs`): districts of 16 buildings, four behaviors, and the
//! NPC days that ask for them.

use serde_json::{Value as J, json};

/// District side, world units.
pub const D: f64 = 60.0;
/// Building kinds of the 16 slots of a district (4 × 4).
pub const SLOTS: [&str; 16] = [
    "home", "work", "home", "pub", "home", "market", "home", "work", "work", "home", "pub", "home",
    "market", "home", "work", "home",
];
/// (behavior, building kind, tree the building grants).
pub const BEHAVIORS: [(&str, &str); 4] = [
    ("sleep", "home"),
    ("work", "work"),
    ("fun", "pub"),
    ("shop", "market"),
];

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> J {
    json!({"rect": {"min": [x0, y0], "max": [x1, y1]}})
}

/// A `request` node asking for `behavior`, forbidding the other three.
pub fn request(id: &str, behavior: &str) -> J {
    let forbid: Vec<&str> = BEHAVIORS
        .iter()
        .map(|b| b.0)
        .filter(|b| *b != behavior)
        .collect();
    json!({"id": id, "type": "request",
           "prefer": [{"template": behavior, "weight": 1}], "forbid": forbid})
}

/// An NPC tree: a reactive selector of time windows, shifted by `offset` hours.
pub fn day_tree(id: &str, schedule: &[(f64, f64, &str)], offset: f64) -> J {
    let wrap = |h: f64| (h + offset).rem_euclid(24.0);
    let mut branches: Vec<J> = schedule
        .iter()
        .enumerate()
        .map(|(k, &(from, to, b))| {
            json!({"id": format!("step{k}"), "type": "sequence", "children": [
                {"id": format!("when{k}"), "type": "time_window",
                 "from_hour": wrap(from), "to_hour": wrap(to)},
                request(&format!("ask{k}"), b)]})
        })
        .collect();
    branches.push(json!({"id": "idle", "type": "wait", "seconds": 1}));
    json!({"id": id, "root": {"id": "day", "type": "selector", "reactive": true,
                              "children": branches}})
}

pub const FOUR_STEP: [(f64, f64, &str); 4] = [
    (22.0, 6.0, "sleep"),
    (6.0, 14.0, "work"),
    (14.0, 18.0, "fun"),
    (18.0, 22.0, "shop"),
];
pub const SIX_STEP: [(f64, f64, &str); 6] = [
    (23.0, 6.0, "sleep"),
    (6.0, 8.0, "shop"),
    (8.0, 12.0, "work"),
    (12.0, 13.0, "fun"),
    (13.0, 18.0, "work"),
    (18.0, 23.0, "fun"),
];
pub const VARIANTS: usize = 8;

/// The trees of the city: the NPC days (`day0` … `day7`), what a district grants (`go_B`:
/// walk into a building of the kind, ask there), what the city grants (`city_B`: walk into
/// the nearest district, ask there), and what a building grants (`do_B`).
pub fn city_trees() -> Vec<J> {
    let mut trees = Vec::new();
    for v in 0..VARIANTS {
        let offset = (v / 2) as f64 * 0.25;
        let schedule: &[(f64, f64, &str)] = if v % 2 == 0 { &FOUR_STEP } else { &SIX_STEP };
        trees.push(day_tree(&format!("day{v}"), schedule, offset));
    }
    for &(b, kind) in &BEHAVIORS {
        // Granted by a district: walk into a building of the kind, ask there.
        trees.push(
            json!({"id": format!("go_{b}"), "root": {"id": "go", "type": "sequence",
            "children": [{"id": "walk", "type": "go_to_child", "kind": kind},
                         request("inside", b)]}}),
        );
        // Granted by the city (last resort): walk into the nearest district, ask there.
        trees.push(
            json!({"id": format!("city_{b}"), "root": {"id": "go", "type": "sequence",
            "children": [{"id": "walk", "type": "go_to_child", "kind": "district",
                          "choose": "nearest"},
                         request("inside", b)]}}),
        );
    }
    trees.push(json!({"id": "do_sleep", "root": {"id": "zz", "type": "wait", "seconds": 10}}));
    trees.push(json!({"id": "do_work", "root":
        {"id": "toil", "type": "animate", "animation": "work", "seconds": 8}}));
    trees.push(json!({"id": "do_fun", "root":
        {"id": "drink", "type": "animate", "animation": "drink", "seconds": 5}}));
    trees.push(json!({"id": "do_shop", "root":
        {"id": "buy", "type": "animate", "animation": "shop", "seconds": 3}}));

    trees
}
