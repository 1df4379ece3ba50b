//! `townsfolk diff A B`: asset-level and node-level changes; exit 0 same, 1 differ, 2 error.

use crate::common::*;

fn guards_json() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(sample()).expect("sample")).expect("JSON")
}

fn write(tag: &str, v: &serde_json::Value) -> TempFile {
    TempFile::new(tag, serde_json::to_string(v).expect("JSON").as_bytes())
}

#[test]
fn same_pack_in_another_layout_is_no_difference() {
    // Compact JSON with other whitespace: the same document.
    let copy = write("diff-compact.json", &guards_json());
    let r = expect_exit(&["diff", p(&sample()), copy.s()], 0);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    let r = expect_exit(&["diff", p(&sample()), copy.s(), "--json"], 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v["same"], true);
    assert_eq!(v["changes"], serde_json::json!([]));
}

#[test]
fn assets_and_nodes_that_changed_are_named() {
    let mut v = guards_json();
    let npc0 = v["world"]["npcs"][0]["id"].as_str().unwrap().to_string();
    v["world"]["npcs"][0]["speed"] = serde_json::json!(9.5);
    let obj0 = v["world"]["objects"][0]["id"].as_str().unwrap().to_string();
    v["world"]["objects"].as_array_mut().unwrap().remove(0);
    // In the second tree: remove the root's last child, add one, change a parameter.
    let tree = v["trees"][1]["id"].as_str().unwrap().to_string();
    let kids = v["trees"][1]["root"]["children"].as_array_mut().unwrap();
    let gone = kids.pop().unwrap()["id"].as_str().unwrap().to_string();
    kids.push(serde_json::json!({"id": "hello", "type": "log", "text": "hello"}));
    let first = kids[0]["id"].as_str().unwrap().to_string();
    assert!(kids[0].get("disabled").is_none());
    kids[0]["disabled"] = serde_json::json!(true);
    let b = write("diff-edited.json", &v);
    let r = expect_exit(&["diff", p(&sample()), b.s()], 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let has = |l: &str| {
        assert!(lines.contains(&l), "no line {l:?} in\n{}", r.stdout);
    };
    has(&format!("npc {npc0}: changed"));
    has("  speed: 2.0 -> 9.5");
    has(&format!("object {obj0}: removed"));
    has(&format!("tree {tree}: changed"));
    has(&format!("  node {gone}: removed (was under {})", {
        v["trees"][1]["root"]["id"].as_str().unwrap()
    }));
    has(&format!(
        "  node hello: added under {}",
        v["trees"][1]["root"]["id"].as_str().unwrap()
    ));
    has(&format!("  node {first}: disabled: added true"));
    // The same as JSON.
    let r = expect_exit(&["diff", p(&sample()), b.s(), "--json"], 1);
    let j: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(j["same"], false);
    let changes = j["changes"].as_array().unwrap();
    let t = changes
        .iter()
        .find(|c| c["kind"] == "tree" && c["id"] == tree.as_str())
        .expect("the tree change");
    let nodes = t["nodes"].as_array().unwrap();
    assert!(
        nodes
            .iter()
            .any(|n| n["node"] == "hello" && n["change"] == "added")
    );
    assert!(
        nodes
            .iter()
            .any(|n| n["node"] == gone.as_str() && n["change"] == "removed")
    );
}

#[test]
fn a_moved_node_is_moved() {
    let mut v = guards_json();
    let kids = v["trees"][1]["root"]["children"].as_array_mut().unwrap();
    let last = kids.pop().unwrap();
    let id = last["id"].as_str().unwrap().to_string();
    kids.insert(0, last);
    let b = write("diff-moved.json", &v);
    let r = expect_exit(&["diff", p(&sample()), b.s()], 1);
    let moved: Vec<&str> = r.stdout.lines().filter(|l| l.contains("moved")).collect();
    assert_eq!(
        moved,
        vec![format!(
            "  node {id}: moved among the children of {}",
            v["trees"][1]["root"]["id"].as_str().unwrap()
        )],
        "{}",
        r.stdout
    );
}

#[test]
fn an_unreadable_pack_is_exit_2() {
    let r = expect_exit(&["diff", p(&sample()), p(&corpus("truncated.json"))], 2);
    assert!(r.stderr.contains("cannot compare"), "{}", r.stderr);
    expect_exit(&["diff", "no/such.json", p(&sample())], 2);
}
