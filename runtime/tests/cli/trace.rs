//! `townsfolk trace FILE`: a recorded trace filtered by kind, NPC and ticks, shown one line
//! per event (tick, time of day, NPC, what happened) or as the kept JSON lines.

use crate::common::*;

/// Records 3000 ticks of the guards sample; returns the file and its events.
fn recorded() -> (TempFile, Vec<serde_json::Value>) {
    let t = TempFile::empty("trace-view.jsonl");
    expect_exit(
        &["run", p(&sample()), "--ticks", "3000", "--trace", t.s()],
        0,
    );
    let text = std::fs::read_to_string(&t.0).expect("trace");
    let events = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("trace line is JSON"))
        .collect();
    (t, events)
}

fn names_npc(e: &serde_json::Value, npc: &str) -> bool {
    ["npc", "from", "to", "with", "addressee", "at", "by"]
        .iter()
        .any(|k| e[*k] == npc)
}

#[test]
fn one_readable_line_per_event_with_the_time_of_day() {
    let (t, events) = recorded();
    let r = expect_exit(&["trace", t.s()], 0);
    assert_eq!(r.stdout.lines().count(), events.len());
    let last = r.stdout.lines().last().unwrap();
    assert!(last.contains("end of the trace, world hash"), "{last}");
    // With the pack: the time of day, from the pack's clock.
    let pack: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sample()).unwrap()).unwrap();
    let clock = &pack["world"]["clock"];
    let r = expect_exit(&["trace", t.s(), "--pack", p(&sample())], 0);
    let first = r.stdout.lines().next().unwrap();
    let dt = pack["world"]["dt"].as_f64().unwrap_or(0.1);
    let tick = events[0]["tick"].as_u64().unwrap() as f64;
    let secs = clock["start_hour"].as_f64().unwrap_or(0.0) * 3600.0
        + tick * dt * clock["time_scale"].as_f64().unwrap_or(1.0);
    let s = secs.floor() as u64;
    let want = format!(
        "day {} {:02}:{:02}:{:02}",
        clock["start_day"].as_i64().unwrap_or(0) + (s / 86_400) as i64,
        (s % 86_400) / 3600,
        (s / 60) % 60,
        s % 60
    );
    assert!(first.contains(&want), "{first} lacks {want}");
    let status = events.iter().position(|e| e["kind"] == "status").unwrap();
    let e = &events[status];
    let line = r.stdout.lines().nth(status).unwrap();
    let what = format!(
        "{}/{}: {} -> {}",
        e["tree"].as_str().unwrap(),
        e["node"].as_str().unwrap(),
        e["from"].as_str().unwrap(),
        e["to"].as_str().unwrap()
    );
    assert!(
        line.contains(e["npc"].as_str().unwrap()) && line.ends_with(&what),
        "{line} vs {e}"
    );
}

#[test]
fn filters_combine_and_json_keeps_the_lines() {
    let (t, events) = recorded();
    let want = events
        .iter()
        .filter(|e| (e["kind"] == "enter" || e["kind"] == "exit") && names_npc(e, "guard_1"))
        .count();
    assert!(want > 0, "no enter/exit of guard_1 in 3000 ticks");
    let r = expect_exit(
        &[
            "trace",
            t.s(),
            "--kind",
            "enter",
            "--kind",
            "exit",
            "--npc",
            "guard_1",
        ],
        0,
    );
    assert_eq!(r.stdout.lines().count(), want, "{}", r.stdout);
    for l in r.stdout.lines() {
        assert!(l.contains("guard_1") && (l.contains("enters") || l.contains("leaves")));
    }
    // JSON: the kept lines, unchanged, within the ticks.
    let r = expect_exit(
        &[
            "trace",
            t.s(),
            "--kind",
            "message",
            "--from",
            "100",
            "--to",
            "2000",
            "--format",
            "json",
        ],
        0,
    );
    let want: Vec<String> = events
        .iter()
        .filter(|e| e["kind"] == "message" && (100..=2000).contains(&e["tick"].as_u64().unwrap()))
        .map(|e| e.to_string())
        .collect();
    assert!(!want.is_empty());
    let got: Vec<String> = r
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn typos_and_bad_files_are_named() {
    let (t, _) = recorded();
    let r = expect_exit(&["trace", t.s(), "--kind", "adpot"], 1);
    assert!(r.stderr.contains("did you mean `adopt`?"), "{}", r.stderr);
    let r = expect_exit(&["trace", t.s(), "--npc", "gaurd_1"], 0);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("did you mean `guard_1`?"), "{}", r.stderr);
    let r = expect_exit(&["trace", t.s(), "--from", "07:30"], 1);
    assert!(r.stderr.contains("--pack"), "{}", r.stderr);
    let bad = TempFile::new(
        "trace-bad.jsonl",
        b"{\"tick\":0,\"kind\":\"say\",\"npc\":\"a\",\"text\":\"hi\"}\n{\"tick\":1,\n",
    );
    let r = expect_exit(&["trace", bad.s()], 1);
    assert!(r.stdout.contains("says \"hi\""), "{}", r.stdout);
    assert!(
        r.stderr
            .contains(&format!("{}:2: error: not a JSON object", bad.s())),
        "{}",
        r.stderr
    );
    expect_exit(&["trace", "no/such/trace.jsonl"], 1);
}
