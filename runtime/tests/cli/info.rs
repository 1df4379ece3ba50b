//! `townsfolk info`: assets by kind with counts and ids, who uses what, `--uses ID`, JSON.

use crate::common::*;

fn sample_json(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(repo_root().join("samples").join(name)).expect("sample");
    serde_json::from_str(&text).expect("sample is JSON")
}

fn ids(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn lists_every_kind_with_its_count_and_ids() {
    let path = repo_root().join("samples/daily_life.json");
    let r = expect_exit(&["info", p(&path)], 0);
    let pack = sample_json("daily_life.json");
    for (kind, list) in [
        ("trees", &pack["trees"]),
        ("areas", &pack["areas"]),
        ("npcs", &pack["world"]["npcs"]),
    ] {
        let want = ids(list);
        let line = format!("{kind} ({}): {}", want.len(), want.join(", "));
        assert!(
            r.stdout.lines().any(|l| l == line),
            "no line `{line}`\n{}",
            r.stdout
        );
    }
    assert!(r.stdout.contains("who uses what:"), "{}", r.stdout);
}

#[test]
fn json_has_the_same_assets_and_the_users_of_each_tree() {
    let path = repo_root().join("samples/guards.json");
    let r = expect_exit(&["info", p(&path), "--json"], 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("info --json is JSON");
    let pack = sample_json("guards.json");
    let trees = v["assets"]
        .as_array()
        .expect("assets")
        .iter()
        .find(|k| k["kind"] == "trees")
        .expect("a trees entry");
    let want = ids(&pack["trees"]);
    assert_eq!(trees["count"], want.len());
    assert_eq!(trees["ids"], serde_json::json!(want));
    // Every NPC's tree names that NPC among its users.
    let refs = v["references"].as_array().expect("references");
    for (i, npc) in pack["world"]["npcs"].as_array().unwrap().iter().enumerate() {
        let tree = npc["tree"].as_str().unwrap();
        let entry = refs
            .iter()
            .find(|u| u["kind"] == "tree" && u["id"] == tree)
            .unwrap_or_else(|| panic!("no references entry for tree {tree}"));
        let users = entry["used_by"].as_array().unwrap();
        assert!(
            users.iter().any(|u| u["asset"]["kind"] == "npc"
                && u["asset"]["id"] == npc["id"]
                && u["path"] == format!("world.npcs[{i}].tree")),
            "tree {tree}: {entry}"
        );
    }
}

#[test]
fn uses_prints_only_the_users_of_one_id() {
    let path = repo_root().join("samples/guards.json");
    // `patrol` is a subtree of `guard` only.
    let r = expect_exit(&["info", p(&path), "--uses", "patrol"], 0);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "tree `patrol`: 1 use", "{}", r.stdout);
    assert!(lines[1].contains("defined at") && lines[1].ends_with("trees[0].id"));
    assert!(
        lines[2].starts_with("  tree guard (node ") && lines[2].ends_with(".tree"),
        "{}",
        r.stdout
    );
    assert_eq!(lines.len(), 3, "{}", r.stdout);
    assert!(!r.stdout.contains("who uses what"));
}

#[test]
fn unknown_ids_and_unreadable_packs_are_errors() {
    let path = repo_root().join("samples/guards.json");
    let r = expect_exit(&["info", p(&path), "--uses", "patroll"], 1);
    assert!(
        r.stderr
            .contains("nothing in the pack is called `patroll`; did you mean `patrol`?"),
        "{}",
        r.stderr
    );
    let bad = corpus("truncated.json");
    let r = expect_exit(&["info", p(&bad)], 1);
    assert!(r.stderr.contains("cannot describe"), "{}", r.stderr);
    // Semantic errors do not stop it: the document is still described.
    let dangling = corpus("dangling_tree_ref.json");
    let r = expect_exit(&["info", p(&dangling)], 0);
    assert!(
        r.stdout.contains("(not defined in this pack)"),
        "{}",
        r.stdout
    );
}
