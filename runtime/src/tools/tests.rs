//! The shared line-tool shape (issue 12 item 4): located refusals, the session going on, the
//! count of bad lines, `events`' initial state, unknown fields named.

use std::sync::Arc;

use serde_json::{Value, json};

use super::events::ScriptSession;
use super::triggers::Script;
use super::{LineError, LineFault, fault_reply, run};
use crate::Session;
use crate::program::Program;

fn program(text: &str) -> Arc<Program> {
    let loaded = crate::pack::load_str(text);
    let pack = loaded.pack.expect("pack");
    let (p, diags) = Program::build(&pack);
    assert!(!diags.iter().any(|d| d.is_error()), "{diags:?}");
    Arc::new(p)
}

fn dungeon() -> Arc<Program> {
    program(include_str!("../../../samples/dungeon.json"))
}

/// Runs `script` through `tool`; the reply lines and how many were refused.
fn replies<T: super::LineTool>(tool: &mut T, script: &str) -> (Vec<Value>, usize) {
    let mut out = Vec::new();
    let bad = run(tool, &mut script.as_bytes(), &mut out).expect("run");
    let text = String::from_utf8(out).expect("utf-8");
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    (lines, bad)
}

#[test]
fn a_refusal_is_located_at_the_key_the_id_or_where_the_parser_stopped() {
    let raw = "  {\"cmd\": \"inspect\", \"npcs\": 1}";
    let e = super::only_fields(
        &serde_json::from_str(raw.trim()).expect("json"),
        &["cmd", "npc"],
    )
    .expect_err("npcs is not a field");
    let f = LineFault::locate(7, raw, e);
    assert_eq!((f.line, f.column), (7, 22), "at the key `\"npcs\"`");
    let v = fault_reply(&f);
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"], "unknown field `npcs` (known: `cmd`, `npc`)");
    assert_eq!(v["expected"], "one of the fields cmd, npc");
    assert_eq!(
        (v["line"].clone(), v["column"].clone()),
        (json!(7), json!(22))
    );
    // Not JSON: the parser's column, counted from the start of the raw line.
    let e = super::parse_object("{\"a\" 1}", "bad", "an object").expect_err("not json");
    let f = LineFault::locate(1, "   {\"a\" 1}", e);
    assert_eq!(f.column, 3 + 6, "{f:?}");
    // An unknown id: at the id.
    let f = LineFault::locate(2, "{\"npc\": \"zed\"}", LineError::unknown("NPC", "zed"));
    assert_eq!(f.column, 9);
}

#[test]
fn events_prints_its_initial_state_first_and_goes_on_after_bad_lines() {
    let p = program(include_str!("../../../samples/chronicle.json"));
    let s = p.events.scenario("early_reign").expect("scenario");
    let mut tool = ScriptSession::new(p, s).expect("session");
    let initial = tool.state();
    let (lines, bad) = replies(
        &mut tool,
        "# comment\n{\"op\": 5}\n{\"op\": \"advance\", \"dayz\": 1}\n\n{\"op\": \"advance\", \"days\": 1}\n",
    );
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], initial, "the state before the first op");
    assert_eq!(bad, 2);
    assert_eq!(
        lines[1]["error"],
        "`op` must be a string: advance, launch, end or set"
    );
    assert_eq!(
        (lines[1]["line"].clone(), lines[1]["column"].clone()),
        (json!(2), json!(2))
    );
    assert!(
        lines[2]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("unknown field `dayz`")),
        "{}",
        lines[2]
    );
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(
        lines[3]["date"],
        initial["date"].as_i64().expect("date") + 1
    );
}

#[test]
fn triggers_script_names_unknown_fields_and_goes_on() {
    let mut tool = Script::new(Session::new(dungeon(), 0), Vec::new());
    let (lines, bad) = replies(
        &mut tool,
        "{\"advance\": 1, \"event\": \"enter\"}\n{\"event\": \"enter\", \"npc\": \"hero\", \"area\": \"A\", \"aera\": 1}\n{\"advance\": 0.5}\n",
    );
    assert_eq!(bad, 2, "{lines:?}");
    assert_eq!(
        lines[0]["error"], "unknown field `event` (known: `advance`)",
        "two verbs on one line"
    );
    assert_eq!(
        lines[1]["error"],
        "unknown field `aera` (known: `event`, `npc`, `area`)"
    );
    assert_eq!(
        lines[2]["time"], 0.5,
        "nothing changed on refused lines: {}",
        lines[2]
    );
}

#[test]
fn text_line_reads_replies_and_refusals() {
    use serde_json::json;
    let v = json!({"date": 3, "open": ["a", "b"], "active": [], "done": {"x": "success"},
                   "flags": {}});
    assert_eq!(
        super::text_line(&v),
        "date: 3  open: a, b  active: -  done: x=success  flags: -"
    );
    let f = json!({"ok": false, "error": "unknown event `nope`", "line": 2, "column": 24,
                   "expected": "an event id"});
    assert_eq!(
        super::text_line(&f),
        "line 2, column 24: unknown event `nope` (expected: an event id)"
    );
}
