//! `townsfolk triggers`.

use crate::common::*;

/// One JSON line out per scripted line in, exact firing steps, and a clear error
/// (file:line) for a bad line.
#[test]
fn triggers_command_drives_the_dungeon() {
    let events = TempFile::new(
        "dungeon.jsonl",
        b"# the ice door needs all three pieces\n{\"equip\":\"hero\",\"item\":\"ice_sword\"}\n{\"equip\":\"hero\",\"item\":\"ice_shield\"}\n{\"equip\":\"hero\",\"item\":\"ice_armour\"}\n\n{\"event\":\"enter\",\"npc\":\"hero\",\"area\":\"A\"}\n{\"advance\":0.5}\n",
    );
    let r = expect_exit(
        &[
            "triggers",
            "samples/dungeon.json",
            "--events",
            events.s(),
            "--explain",
            "visited/clue",
        ],
        0,
    );
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 6, "{}", r.stdout);
    assert_eq!(lines[0]["fired"], serde_json::json!([]));
    assert_eq!(lines[2]["fired"], serde_json::json!(["doors/ice_door"]));
    assert_eq!(lines[3]["fired"], serde_json::json!(["visited/visit_a"]));
    assert_eq!(lines[3]["counters"]["Visited"], 1);
    assert_eq!(lines[4]["time"], 0.5);
    assert_eq!(
        lines[5]["explain"]["blocked"][0]["reason"],
        "condition_false"
    );
    // Bad lines get a located error reply and the script goes on; the exit code is 1.
    let bad = TempFile::new(
        "bad.jsonl",
        b"{\"advance\":1}\n{\"equip\":\"nobody\",\"item\":\"x\"}\n{\"set_flag\":\"f\", \"valeu\":true}\n{\"advance\":0.5}\n",
    );
    let r = expect_exit(
        &["triggers", "samples/dungeon.json", "--events", bad.s()],
        1,
    );
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 4, "{}", r.stdout);
    assert_eq!(lines[1]["ok"], false, "{}", lines[1]);
    assert_eq!(lines[1]["error"], "unknown NPC `nobody`");
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["column"], 10, "at the id: {}", lines[1]);
    assert_eq!(lines[2]["line"], 3);
    assert!(
        lines[2]["error"]
            .as_str()
            .is_some_and(|e| e.contains("unknown field `valeu`")),
        "{}",
        lines[2]
    );
    assert_eq!(lines[2]["column"], 18, "at the key: {}", lines[2]);
    assert_eq!(lines[2]["expected"], "one of the fields set_flag, value");
    assert_eq!(lines[3]["time"], 1.5, "the script went on: {}", lines[3]);
    assert!(
        r.stderr.contains("1 line was refused") || r.stderr.contains("2 lines were refused"),
        "{}",
        r.stderr
    );
}

/// `--format text`: one readable line per reply; the default stays JSON.
#[test]
fn triggers_format_text_prints_one_readable_line_per_reply() {
    let events = TempFile::new(
        "dungeon_text.jsonl",
        b"{\"event\":\"enter\",\"npc\":\"hero\",\"area\":\"A\"}\n{\"advance\":0.5}\n",
    );
    let base = ["triggers", "samples/dungeon.json", "--events", events.s()];
    let text = expect_exit(&[&base[..], &["--format", "text"]].concat(), 0).stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("time: 0"), "{text}");
    assert!(lines[0].contains("fired: visited/visit_a"), "{text}");
    assert!(lines[1].contains("fired: -"), "{text}");
    let json = expect_exit(&base, 0).stdout;
    let first: serde_json::Value =
        serde_json::from_str(json.lines().next().expect("a line")).expect("JSON by default");
    assert_eq!(first["fired"], serde_json::json!(["visited/visit_a"]));
}
