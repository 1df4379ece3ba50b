//! `townsfolk events` scripts, and the story commands on bad packs.

use crate::common::*;

/// The initial state first, then one state line per op; a bad line gets a located error
/// reply and the session goes on; the exit code is 1 because some lines were bad.
#[test]
fn events_script_prints_one_state_line_per_op_and_survives_bad_lines() {
    let script = TempFile::new(
        "story.script",
        concat!(
            "# tutorials first\n",
            "{\"op\":\"launch\",\"event\":\"tut_court\"}\n",
            "{\"op\":\"end\",\"event\":\"tut_court\",\"outcome\":\"success\"}\n",
            "{\"op\":\"launch\",\"event\":\"tut_treasury\"}\n",
            "{\"op\":\"end\",\"event\":\"tut_treasury\",\"outcome\":\"failure\"}\n",
            "not json\n",
            "{\"op\":\"fly\"}\n",
            "{\"op\":\"launch\",\"event\":\"arrival_spain\"}\n",
            "{\"op\":\"end\",\"event\":\"tut_court\",\"outcome\":\"maybe\"}\n",
            "{\"op\":\"advance\",\"days\":-3}\n",
            "{\"op\":\"set\",\"flag\":\"emperor\",\"value\":true}\n",
            "{\"op\":\"set\",\"counter\":\"gold\",\"value\":500}\n",
            "{\"op\":\"set\",\"flag\":\"nobody_uses_this\",\"value\":true}\n",
            "{\"op\":\"advance\",\"days\":1240}\n",
        )
        .as_bytes(),
    );
    let c = chronicle();
    let r = expect_exit(
        &[
            "events",
            &c,
            "--scenario",
            "early_reign",
            "--script",
            script.s(),
        ],
        1,
    );
    let all: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(all.len(), 14, "{}", r.stdout);
    // Before the first op: the initial state (the tutorials open, nothing active).
    assert_eq!(all[0]["active"], serde_json::json!([]), "{}", all[0]);
    assert!(
        all[0]["available"]
            .as_array()
            .expect("available")
            .contains(&serde_json::json!("tut_court")),
        "{}",
        all[0]
    );
    let lines = &all[1..];
    assert_eq!(lines[0]["active"], serde_json::json!(["tut_court"]));
    assert_eq!(lines[1]["available"], serde_json::json!(["tut_treasury"]));
    assert_eq!(
        lines[3]["done"],
        serde_json::json!({"tut_court": "success", "tut_treasury": "failure"})
    );
    // Failing the second tutorial closes the whole Spanish branch.
    let dead = lines[3]["dead"].as_array().expect("dead");
    assert!(
        dead.contains(&serde_json::json!("arrival_spain")),
        "{}",
        lines[3]
    );
    for (i, what) in [
        (4, "invalid JSON"),
        (5, "unknown op"),
        (6, "cannot launch"),
        (7, "outcome"),
        (8, "days"),
        (11, "unknown flag"),
    ] {
        let e = lines[i]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("line {i}: {}", lines[i]));
        assert!(e.contains(what), "line {i}: {e}");
        assert_eq!(lines[i]["ok"], false, "{}", lines[i]);
        // Script line numbers count the comment on line 1.
        assert_eq!(lines[i]["line"], i + 2, "{}", lines[i]);
    }
    // `not json`: where the parser stopped (reading `n` as the start of `null`).
    assert_eq!(lines[4]["column"], 2, "{}", lines[4]);
    // Day 1240: the meeting with Henry VIII is open; with `flags.emperor` set it is available.
    assert_eq!(lines[12]["date"], 1240);
    assert!(
        lines[12]["open"]
            .as_array()
            .expect("open")
            .contains(&serde_json::json!("henry_meeting"))
    );
    assert!(
        lines[12]["available"]
            .as_array()
            .expect("available")
            .contains(&serde_json::json!("henry_meeting"))
    );
    for k in [
        "date",
        "open",
        "queued",
        "available",
        "active",
        "done",
        "dead",
    ] {
        assert!(lines[12].get(k).is_some(), "missing {k}");
    }
}

#[test]
fn story_commands_refuse_bad_packs_without_panicking() {
    let bad = corpus("event_cycle.json");
    expect_exit(&["events", p(&bad), "--scenario", "s"], 1);
    expect_exit(&["replay", p(&bad), "--scenario", "s", "--runs", "3"], 1);
    let trunc = corpus("truncated.json");
    expect_exit(&["replay", p(&trunc), "--runs", "3"], 1);
    let c = chronicle();
    expect_exit(
        &["replay", &c, "--scenario", "early_reign", "--runs", "0"],
        1,
    );
    expect_exit(
        &[
            "events",
            &c,
            "--scenario",
            "early_reign",
            "--script",
            "/nonexistent/x",
        ],
        1,
    );
}

/// `--format text`: one readable line per reply (the initial state too), refusals as
/// `line L, column C: …`; `--format json` (the default) prints the JSON lines unchanged.
#[test]
fn events_format_text_prints_one_readable_line_per_reply() {
    let script = TempFile::new(
        "story_text.script",
        b"{\"op\":\"launch\",\"event\":\"tut_court\"}\n{\"op\":\"launch\",\"event\":\"nope\"}\n",
    );
    let c = chronicle();
    let base = [
        "events",
        &c,
        "--scenario",
        "early_reign",
        "--script",
        script.s(),
    ];
    let text = expect_exit(&[&base[..], &["--format", "text"]].concat(), 1).stdout;
    let json = expect_exit(&[&base[..], &["--format", "json"]].concat(), 1).stdout;
    assert_eq!(json, expect_exit(&base, 1).stdout, "json is the default");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("date: 0  open: "), "{text}");
    assert!(lines[1].contains("active: tut_court"), "{text}");
    assert!(
        lines[2].starts_with("line 2, column ") && lines[2].contains("unknown event `nope`"),
        "{text}"
    );
    assert!(text.lines().all(|l| !l.starts_with('{')), "{text}");
}
