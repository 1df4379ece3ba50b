//! `townsfolk replay`.

use crate::common::*;

#[test]
fn replay_is_deterministic_and_seeds_change_launch_orders() {
    let c = chronicle();
    let args = |seed: &str| {
        vec![
            "replay".to_string(),
            c.clone(),
            "--scenario".into(),
            "early_reign".into(),
            "--runs".into(),
            "1000".into(),
            "--seed".into(),
            seed.into(),
            "--json".into(),
        ]
    };
    let run = |seed: &str| {
        let a = args(seed);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        expect_exit(&a, 0).stdout
    };
    let a = run("7");
    assert_eq!(a, run("7"), "same seed, same report");
    let v: serde_json::Value = serde_json::from_str(&a).expect("JSON report");
    assert!(v["distinct_orders"].as_u64().expect("distinct_orders") > 1);
    assert_eq!(v["runs"], 1000);
    let b: serde_json::Value = serde_json::from_str(&run("8")).expect("JSON report");
    assert_ne!(
        v["top_orders"], b["top_orders"],
        "different seeds, different orders"
    );
    // The text table names every event and the replayability figures.
    // Without --scenario: the one the world runs (`world.scenario`).
    let r = expect_exit(&["replay", &c, "--runs", "50", "--seed", "1"], 0);
    assert!(
        r.stdout.starts_with("scenario `early_reign`"),
        "{}",
        r.stdout
    );
    let r = expect_exit(
        &[
            "replay",
            &c,
            "--scenario",
            "imperial_election",
            "--runs",
            "50",
            "--seed",
            "1",
            "--threads",
            "1",
        ],
        0,
    );
    assert!(
        r.stdout.contains("imperial_election") && r.stdout.contains("entropy"),
        "{}",
        r.stdout
    );
    let r = expect_exit(&["replay", &c, "--scenario", "nope", "--runs", "5"], 1);
    assert!(r.stderr.contains("unknown scenario `nope`"), "{}", r.all());
}

/// `--format json` is the JSON report (`--json`); `--format text` (the default) the table.
#[test]
fn replay_format_picks_json_or_text() {
    let c = chronicle();
    let base = ["replay", &c, "--scenario", "early_reign", "--runs", "50"];
    let json = expect_exit(&[&base[..], &["--format", "json"]].concat(), 0).stdout;
    assert_eq!(
        json,
        expect_exit(&[&base[..], &["--json"]].concat(), 0).stdout
    );
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON report");
    assert_eq!(v["runs"], 50);
    let text = expect_exit(&[&base[..], &["--format", "text"]].concat(), 0).stdout;
    assert_eq!(text, expect_exit(&base, 0).stdout);
    assert!(
        serde_json::from_str::<serde_json::Value>(&text).is_err(),
        "{text}"
    );
}
