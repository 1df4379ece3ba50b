//! `townsfolk diverge`.

use crate::common::*;

fn run_hash(pack: &str, seed: &str, ticks: u64) -> String {
    let t = ticks.to_string();
    hash_line(&expect_exit(&["run", pack, "--seed", seed, "--ticks", &t], 0).stdout)
}

#[test]
fn a_one_number_edit_of_a_sample_names_the_first_differing_tick_and_npc() {
    let a = sample();
    let text = std::fs::read_to_string(&a).expect("guards sample");
    // The merchant walks a little faster: one number.
    let edited = text.replacen("\"speed\": 1.2,", "\"speed\": 1.3,", 1);
    assert_ne!(edited, text);
    let b = TempFile::new("guards_faster.json", edited.as_bytes());
    let r = expect_exit(&["diverge", p(&a), b.s(), "--seed", "3", "--json"], 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    assert_eq!(v["diverged"], true);
    let tick = v["tick"].as_u64().expect("tick");
    assert_eq!(v["hash_tick"], tick);
    assert_eq!(v["npcs"], serde_json::json!(["merchant"]), "{v:#}");
    let diffs = v["differences"].as_array().expect("differences");
    assert!(
        diffs
            .iter()
            .any(|d| d["kind"] == "npc" && d["id"] == "merchant" && d["what"] == "position"),
        "{diffs:#?}"
    );
    // `townsfolk run` agrees: the same hash one tick before, different hashes at that tick.
    assert!(tick >= 1);
    assert_eq!(
        run_hash(p(&a), "3", tick - 1),
        run_hash(b.s(), "3", tick - 1)
    );
    assert_ne!(run_hash(p(&a), "3", tick), run_hash(b.s(), "3", tick));
    // Text form.
    let r = expect_exit(&["diverge", p(&a), b.s(), "--seed", "3"], 0);
    assert!(
        r.stdout
            .starts_with(&format!("first difference at tick {tick} ")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("NPCs that differ: merchant"),
        "{}",
        r.stdout
    );
}

#[test]
fn two_seeds_part_at_a_named_node_and_identical_runs_do_not() {
    let a = sample();
    let r = expect_exit(
        &["diverge", p(&a), "--seed", "3", "--seed2", "4", "--json"],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    // The random generators differ from the start; the first visible difference is later.
    assert_eq!(v["hash_tick"], 0);
    assert!(v["tick"].as_u64().expect("tick") >= 1);
    let diffs = v["differences"].as_array().expect("differences");
    assert!(diffs.iter().any(|d| d["kind"] == "node"), "{diffs:#?}");
    let r = expect_exit(
        &["diverge", p(&a), p(&a), "--seed", "3", "--ticks", "200"],
        0,
    );
    assert_eq!(r.stdout.trim(), "no difference in 200 ticks");
    let r = expect_exit(&["diverge", p(&a), "--seed", "3"], 1);
    assert!(r.stderr.contains("--seed2"), "{}", r.all());
}

#[test]
fn seeds_that_differ_only_inside_say_when_they_parted_and_that_nothing_named_did() {
    // The dungeon draws nothing at random: two seeds differ only in the generator's state.
    let dungeon = repo_root().join("samples/dungeon.json");
    let r = expect_exit(
        &[
            "diverge",
            p(&dungeon),
            "--seed",
            "3",
            "--seed2",
            "4",
            "--ticks",
            "50",
        ],
        0,
    );
    let first = r.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("first difference at tick 0 (day 0 08:00): hash "),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("no named state differs in the ticks compared"),
        "{}",
        r.stdout
    );
}
