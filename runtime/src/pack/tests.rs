//! Loading, saving and the schema, checked on the samples and on broken texts.

use super::*;
use crate::pack::Severity;
use crate::program::load_str;
use serde_json::Value;

const SAMPLE: &str = include_str!("../../../samples/guards.json");

fn find<'a>(l: &'a Loaded, path: &str) -> &'a Diagnostic {
    l.diagnostics
        .iter()
        .find(|d| d.path == path)
        .unwrap_or_else(|| panic!("no diagnostic at {path}: {:#?}", l.diagnostics))
}

#[test]
fn sample_round_trips_byte_for_byte() {
    let l = load_str(SAMPLE);
    // The sample has no errors (its warnings, a request for a behavior no area offers, are
    // findings of the name checks).
    assert!(
        l.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        l.diagnostics
    );
    let pack = l.pack.expect("pack");
    assert_eq!(to_canonical_string(&pack), SAMPLE);
}

#[test]
fn unknown_fields_are_warnings_with_position() {
    let text = "{\"format\": \"townsfolk-pack\", \"version\": 1, \"name\": \"x\",\n\"world\": {\"npcs\": [{\"id\": \"a\", \"pos\": [0, 0], \"sped\": 3, \"tree\": \"t\"}]},\n\"trees\": [{\"id\": \"t\", \"root\": {\"id\": \"r\", \"type\": \"wait\", \"seconds\": 1, \"secs\": 2}}]}";
    let l = load_str(text);
    let d = find(&l, "world.npcs[0].sped");
    assert_eq!(d.severity, Severity::Warning);
    // At the key `"sped":` (its value is at column 55).
    assert_eq!((d.line, d.column), (Some(2), Some(47)));
    let d = find(&l, "trees[0].root.secs");
    assert!(d.message.contains("unknown field `secs`"), "{}", d.message);
    // A node's unknown parameter too (its value `2` is at column 81).
    assert_eq!((d.line, d.column), (Some(3), Some(73)));
    assert!(!l.has_errors());
    assert!(!l.lossy);
    assert_eq!(
        l.unknown_fields,
        ["world.npcs[0].sped", "trees[0].root.secs"]
    );
}

#[test]
fn expression_errors_point_inside_the_string() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "x",
"world": {"npcs": [{"id": "a", "pos": [0, 0], "tree": "t"}]},
"trees": [{"id": "t", "blackboard": {"hunger": {"type": "float"}},
  "root": {"id": "r", "type": "condition", "expr": "hunger > 0.7 && !at_wrk"}}]}"#;
    let l = load_str(text);
    let d = find(&l, "trees[0].root.expr");
    assert!(d.message.contains("at_wrk"), "{}", d.message);
    // The string starts at column 52; `at_wrk` is 17 characters after its quote.
    assert_eq!((d.line, d.column), (Some(4), Some(52 + 1 + 17)));
}

#[test]
fn unknown_node_type_suggests_and_keeps_the_rest() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "x",
"world": {"npcs": [{"id": "a", "pos": [0, 0], "tree": "good"}]},
"trees": [{"id": "bad", "root": {"id": "r", "type": "sequense"}},
      {"id": "good", "root": {"id": "w", "type": "wait", "seconds": 1}}]}"#;
    let l = load_str(text);
    let d = find(&l, "trees[0].root.type");
    assert!(
        d.message.contains("did you mean `sequence`"),
        "{}",
        d.message
    );
    assert_eq!(d.line, Some(3));
    let pack = l.pack.as_ref().expect("the pack still opens");
    assert_eq!(pack.trees.len(), 1);
    assert!(l.lossy, "saving would lose the bad tree");
}

#[test]
fn references_and_duplicates_are_checked() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "x",
"world": {"npcs": [{"id": "a", "pos": [0, 0], "tree": "missing"},
               {"id": "a", "pos": [1, 0], "tree": "t"}]},
"trees": [{"id": "t", "root": {"id": "r", "type": "sequence", "children": [
   {"id": "r", "type": "subtree", "tree": "t"},
   {"id": "m", "type": "move_to", "target": {"object": "nowhere"}}]}}]}"#;
    let l = load_str(text);
    assert!(
        find(&l, "world.npcs[0].tree")
            .message
            .contains("unknown tree")
    );
    assert!(
        find(&l, "world.npcs[1].id")
            .message
            .contains("duplicate id")
    );
    assert!(
        find(&l, "trees[0].root.children[0].id")
            .message
            .contains("duplicate node id")
    );
    assert!(
        find(&l, "trees[0].root.children[0].tree")
            .message
            .contains("subtree cycle")
    );
    assert!(
        find(&l, "trees[0].root.children[1].target.object")
            .message
            .contains("unknown object")
    );
}

#[test]
fn syntax_errors_and_limits_name_the_position() {
    let l = load_str("{\"format\": \"townsfolk-pack\",\n  \"version\": 1,\n  \"name\": ");
    assert!(l.pack.is_none());
    let d = &l.diagnostics[0];
    assert_eq!(d.line, Some(3));
    assert!(d.message.starts_with("invalid JSON"), "{}", d.message);

    let deep = "[".repeat(100_000);
    let l = load_str(&deep);
    assert!(
        l.diagnostics[0].message.contains("nesting"),
        "{:?}",
        l.diagnostics
    );

    let l = load_bytes(b"{\"name\": \"caf\xff\"}");
    assert!(l.diagnostics[0].message.contains("UTF-8"));
    assert_eq!(l.diagnostics[0].column, Some(14));

    let l = load_str(r#"{"format": "townsfolk-pack", "version": 2}"#);
    assert!(find(&l, "version").message.contains("not supported"));
}

#[test]
fn schema_describes_the_pack() {
    let s: Value = serde_json::from_str(&schema_string()).expect("json");
    assert_eq!(s["title"], "Townsfolk pack");
    assert!(s["properties"]["trees"].is_object());
}
