//! `townsfolk coverage`.

use crate::common::*;

/// A pack with a branch nobody reaches (`dead_branch`: its selector stops at `idle`), a
/// template nobody can satisfy (`nap` needs `tired`, which nothing sets) and a trigger that
/// can never fire (the flag `never` is never set).
const CORNERS: &str = r#"{"format": "townsfolk-pack", "version": 1, "name": "coverage corners",
 "world": {"dt": 0.1, "flags": {"never": false},
   "npcs": [{"id": "walker", "pos": [5, 5], "tree": "walk"}]},
 "trees": [
   {"id": "walk", "blackboard": {"tired": {"type": "bool", "default": false}},
    "root": {"id": "root", "type": "selector", "children": [
      {"id": "try_nap", "type": "sequence", "children": [
        {"id": "ask_nap", "type": "request", "prefer": [{"template": "nap", "weight": 1.0}]}]},
      {"id": "idle", "type": "wait", "seconds": 1.0},
      {"id": "dead_branch", "type": "say", "text": "never said", "seconds": 1.0}]}},
   {"id": "napping", "root": {"id": "nap_wait", "type": "wait", "seconds": 1.0}}],
 "areas": [{"id": "bed", "shape": {"rect": {"min": [0, 0], "max": [10, 10]}},
   "templates": [{"name": "nap", "tree": "napping", "constraint": "tired"}]}],
 "triggers": [{"id": "alarms", "owner": "world", "triggers": [
   {"id": "never_fires", "when": {"type": "flag", "flag": "never"},
    "responses": [{"do": "set_flag", "flag": "never", "value": false}]}]}]}"#;

#[test]
fn unreachable_branch_template_and_trigger_are_listed_with_paths() {
    let pack = TempFile::new("corners.json", CORNERS.as_bytes());
    let args = |threads: &str| {
        [
            "coverage",
            pack.s(),
            "--seeds",
            "1..6",
            "--ticks",
            "100",
            "--threads",
            threads,
            "--json",
        ]
        .map(String::from)
    };
    let run = |threads: &str| {
        let a = args(threads);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        expect_exit(&a, 0)
    };
    let one = run("1");
    assert_eq!(one.stdout, run("3").stdout, "same seeds, same report");
    assert!(one.stderr.contains("coverage: 6/6 seeds"), "{}", one.stderr);
    let v: serde_json::Value = serde_json::from_str(&one.stdout).expect("JSON report");
    let never = v["never_reached"].as_array().expect("never_reached");
    let has = |kind: &str, path: &str| never.iter().any(|u| u["kind"] == kind && u["path"] == path);
    assert!(has("node", "trees[0].root.children[2]"), "{never:#?}");
    assert!(has("template", "areas[0].templates[0]"), "{never:#?}");
    assert!(has("trigger", "triggers[0].triggers[0]"), "{never:#?}");
    // The template's own tree never ran either; what ran is not listed.
    assert!(has("node", "trees[1].root"), "{never:#?}");
    assert_eq!(never.len(), 4, "{never:#?}");
    // Counts, keyed by asset id and node id.
    let walk = &v["trees"]["walk"]["nodes"];
    assert_eq!(walk["dead_branch"]["runs"], 0);
    assert_eq!(walk["idle"]["runs"], 600, "ticked every tick of 6 seeds");
    assert_eq!(walk["ask_nap"]["failure"], walk["ask_nap"]["runs"]);
    assert_eq!(walk["idle"]["seeds"], 6);
    let nap = &v["templates"]["bed"]["nap"];
    assert_eq!(nap["adoptions"], 0);
    assert_eq!(nap["requested"], walk["ask_nap"]["runs"]);
    let refusals = nap["refusals"].as_object().expect("refusals");
    assert!(
        refusals.keys().any(|r| r.contains("tired")),
        "refused because of its constraint: {refusals:?}"
    );
    let t = &v["triggers"]["alarms/never_fires"];
    assert_eq!(t["fires"], 0);
    assert_eq!(t["blocked_at_end"]["condition_false"], 6);
    assert_eq!(v["areas"]["bed"]["peak"], 1);
    // The text form names the same three.
    let r = expect_exit(&["coverage", pack.s(), "--seeds", "3", "--ticks", "20"], 0);
    for needle in [
        "trees[0].root.children[2]: node `dead_branch` of `walk`",
        "areas[0].templates[0]: template `nap` of `bed`",
        "triggers[0].triggers[0]: trigger `alarms/never_fires`",
    ] {
        assert!(r.stdout.contains(needle), "{needle}\n{}", r.stdout);
    }
}

#[test]
fn coverage_of_a_sample_and_bad_arguments() {
    let d = repo_root().join("samples/daily_life.json");
    let r = expect_exit(
        &[
            "coverage",
            p(&d),
            "--seeds",
            "1..2",
            "--ticks",
            "300",
            "--json",
        ],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    assert_eq!(v["seeds"]["count"], 2);
    assert!(v["areas"].as_object().is_some_and(|a| a.len() == 13));
    let r = expect_exit(&["coverage", p(&d), "--seeds", "9..3", "--ticks", "1"], 1);
    assert!(r.stderr.contains("empty seed range"), "{}", r.all());
    let r = expect_exit(&["coverage", p(&d), "--seeds", "x", "--ticks", "1"], 1);
    assert!(r.stderr.contains("is not a seed"), "{}", r.all());
}
