//! `townsfolk run`: determinism (same seed, same trace and hash), seeds matter, traces, and
//! clean failures.

use std::collections::BTreeSet;

use crate::common::*;

#[test]
fn run_trace_to_unwritable_path_fails_cleanly() {
    let trace = std::env::temp_dir()
        .join(format!("townsfolk-no-such-dir-{}", std::process::id()))
        .join("t.jsonl");
    let r = expect_exit(
        &["run", p(&sample()), "--ticks", "5", "--trace", p(&trace)],
        1,
    );
    assert!(r.stderr.contains("cannot create"), "{}", r.stderr);
}

#[test]
fn run_with_out_of_range_dt_fails_cleanly() {
    for dt in ["0", "NaN", "inf", "1e-9", "20", "-1"] {
        let flag = format!("--dt={dt}");
        let r = expect_exit(&["run", p(&sample()), "--ticks", "5", &flag], 1);
        assert!(r.all().contains("dt"), "{}", r.all());
    }
}

#[test]
fn run_with_out_of_range_dt_names_the_flag() {
    let r = expect_exit(&["run", p(&sample()), "--ticks", "5", "--dt", "0"], 1);
    assert!(
        r.stderr.contains("--dt"),
        "the message should name the `--dt` option, not a position in the file\n{}",
        r.stderr
    );
}

#[test]
fn run_is_deterministic_and_traces_every_event() {
    let a = TempFile::empty("a.jsonl");
    let b = TempFile::empty("b.jsonl");
    let s = sample();
    let run = |t: &TempFile| {
        expect_exit(
            &[
                "run",
                p(&s),
                "--seed",
                "7",
                "--ticks",
                "2000",
                "--trace",
                t.s(),
            ],
            0,
        )
    };
    let ra = run(&a);
    let rb = run(&b);
    assert_eq!(ra.stdout, rb.stdout, "same seed, different stdout");
    let ta = std::fs::read(&a.0).unwrap();
    let tb = std::fs::read(&b.0).unwrap();
    assert!(ta == tb, "same seed, different trace files");
    let hash = hash_line(&ra.stdout);

    let text = String::from_utf8(ta).expect("trace is UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 100, "trace too short: {} lines", lines.len());
    let mut kinds = BTreeSet::new();
    let mut last_tick = 0;
    for (i, l) in lines.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(l)
            .unwrap_or_else(|e| panic!("trace line {} is not JSON ({e}): {l}", i + 1));
        let tick = v["tick"]
            .as_u64()
            .unwrap_or_else(|| panic!("trace line {} has no integer `tick`: {l}", i + 1));
        assert!(tick >= last_tick, "ticks go backwards at line {}", i + 1);
        last_tick = tick;
        let kind = v["kind"]
            .as_str()
            .unwrap_or_else(|| panic!("trace line {} has no string `kind`: {l}", i + 1));
        kinds.insert(kind.to_string());
    }
    let end: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(
        end["kind"],
        "end",
        "last trace line: {}",
        lines.last().unwrap()
    );
    assert_eq!(end["tick"], 2000);
    assert_eq!(end["hash"], hash.as_str());
    assert!(
        lines.last().unwrap().starts_with(r#"{"kind":"end","#)
            || lines
                .last()
                .unwrap()
                .starts_with(r#"{"tick":2000,"kind":"end""#),
        "{}",
        lines.last().unwrap()
    );
    for k in ["status", "message", "counter"] {
        assert!(kinds.contains(k), "no `{k}` event in the trace: {kinds:?}");
    }

    // Without --trace the world is the same.
    let r = expect_exit(&["run", p(&s), "--seed", "7", "--ticks", "2000"], 0);
    assert_eq!(hash_line(&r.stdout), hash);
    assert_eq!(r.stdout, ra.stdout);
}

#[test]
fn seeds_change_the_playthrough() {
    let s = sample();
    let hashes: BTreeSet<String> = (1..=5)
        .map(|seed| {
            let seed = seed.to_string();
            let r = expect_exit(&["run", p(&s), "--seed", &seed, "--ticks", "600"], 0);
            hash_line(&r.stdout)
        })
        .collect();
    assert!(
        hashes.len() >= 2,
        "seeds 1..=5 all gave the same hash: {hashes:?}"
    );
}

#[test]
fn run_zero_ticks() {
    let r = expect_exit(&["run", p(&sample()), "--ticks", "0"], 0);
    hash_line(&r.stdout);
}

#[test]
fn run_traces_story_events() {
    let t = TempFile::empty("story.jsonl");
    let c = chronicle();
    // 20 ticks per story day: 300 days.
    expect_exit(
        &[
            "run",
            &c,
            "--seed",
            "2",
            "--ticks",
            "6000",
            "--trace",
            t.s(),
        ],
        0,
    );
    let text = std::fs::read_to_string(&t.0).expect("trace");
    for kind in ["event_open", "event_launch", "event_end", "event_dead"] {
        assert!(
            text.contains(&format!("\"kind\":\"{kind}\"")),
            "no {kind} in the trace"
        );
    }
}
