//! `townsfolk talk`: background-conversation reports.

use std::path::PathBuf;

use crate::common::*;

fn plaza() -> PathBuf {
    repo_root().join("samples/plaza.json")
}

#[test]
fn talk_is_deterministic_per_seed() {
    let file = plaza();
    let args = ["talk", p(&file), "--seed", "1"];
    let a = expect_exit(&args, 0);
    let b = expect_exit(&args, 0);
    assert_eq!(a.stdout, b.stdout, "same seed, same output");
    for word in ["anna", "overlap rate", "gaps", "mean size", "splits/min"] {
        assert!(a.stdout.contains(word), "{word}\n{}", a.stdout);
    }
    let c = expect_exit(&["talk", p(&plaza()), "--seed", "2"], 0);
    assert_ne!(a.stdout, c.stdout, "the seed matters");
}

#[test]
fn talk_json_and_sweep() {
    let r = expect_exit(
        &[
            "talk",
            p(&plaza()),
            "--seed",
            "1",
            "--seconds",
            "120",
            "--json",
        ],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    assert_eq!(v["characters"].as_array().map(Vec::len), Some(10));
    assert_eq!(v["run"]["seconds"], 120.0);
    let r = expect_exit(
        &[
            "talk",
            p(&plaza()),
            "--seconds",
            "60",
            "--sweep",
            "talkativeness=0.1:0.9:0.4",
        ],
        0,
    );
    let rows: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("0."))
        .collect();
    assert_eq!(rows.len(), 3, "{}", r.stdout);
    let r = expect_exit(
        &["talk", p(&plaza()), "--sweep", "anna.chattiness=0:1:0.5"],
        1,
    );
    assert!(
        r.stderr.contains("unknown parameter `chattiness`"),
        "{}",
        r.stderr
    );
    let r = expect_exit(
        &["talk", p(&plaza()), "--sweep", "nobody.verbosity=0:1:0.5"],
        1,
    );
    assert!(r.stderr.contains("unknown NPC `nobody`"), "{}", r.stderr);
    let r = expect_exit(&["talk", p(&plaza()), "--seconds=-3"], 1);
    assert!(r.stderr.contains("--seconds"), "{}", r.stderr);
}

#[test]
fn talk_refuses_invalid_parameters_with_their_position() {
    let text = std::fs::read_to_string(plaza())
        .expect("plaza sample")
        .replacen("\"talkativeness\": 0.9", "\"talkativeness\": 1.9", 1);
    let f = TempFile::new("bad_talk.json", text.as_bytes());
    let r = expect_exit(&["talk", f.s(), "--seconds", "10"], 1);
    assert!(
        r.stderr
            .contains("casts[0] (plaza).members[0].talkativeness")
            && r.stderr.contains("between 0 and 1, found 1.9"),
        "{}",
        r.stderr
    );
    let r = expect_exit(&["validate", f.s()], 1);
    assert!(
        r.stdout
            .contains(":error: casts[0] (plaza).members[0].talkativeness")
            || r.stdout
                .contains("error: casts[0] (plaza).members[0].talkativeness"),
        "{}",
        r.stdout
    );
    let r = expect_exit(&["talk", p(&sample()), "--seconds", "10"], 1);
    assert!(r.stderr.contains("no `casts`"), "{}", r.stderr);
}
