//! `townsfolk debug`: committed golden transcripts and garbage on stdin.

use std::path::Path;
use std::process::Command;

/// The scripted debugging sessions in `tests/golden/` must reproduce their transcripts line
/// for line. After an intended behavior change, regenerate them with
/// `TOWNSFOLK_BLESS=1 cargo test -p townsfolk-runtime --test cli debug_golden` and review the diff.
/// `code`: the exit code (1 when the script has lines the debugger refuses: issue 12 item 4).
fn golden(name: &str, pack: &str, seed: &str, code: i32) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let script = dir.join(format!("{name}.script"));
    let golden = dir.join(format!("{name}.golden"));
    let out = Command::new(env!("CARGO_BIN_EXE_townsfolk"))
        .args(["debug", "--seed", seed, "--script"])
        .arg(&script)
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../samples")
                .join(pack),
        )
        .output()
        .expect("run townsfolk debug");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = String::from_utf8(out.stdout).expect("utf-8");
    if std::env::var_os("TOWNSFOLK_BLESS").is_some() {
        std::fs::write(&golden, &got).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(&golden).expect("golden transcript");
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "{name}: line {} of the transcript differs", i + 1);
    }
    assert_eq!(
        got.lines().count(),
        want.lines().count(),
        "{name}: transcript length"
    );
}

#[test]
fn debug_golden_transcript() {
    // Three of its lines are refused (a bad step kind, a line that is not JSON, a bad
    // condition): the session goes on, and the exit code says so.
    golden("guards_debug", "guards.json", "3", 1);
}

/// Breakpoints inside a grafted behavior and inside an OnEnter handler tree. Seed 4: one where
/// Ed drinks in an open pub on the first evening (walls and doors changed who picks which pub
/// under seed 1).
#[test]
fn debug_golden_transcript_smart_areas() {
    golden("daily_life_debug", "daily_life.json", "4", 0);
}

#[test]
fn debug_survives_garbage_on_stdin() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_townsfolk"))
        .args(["debug", "--seed", "1"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/guards.json"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut input = b"\xff\xfe garbage\n{\"cmd\":\n[]\n{\"cmd\":\"step\",\"kind\":\"node\"}\n{\"cmd\":\"back\",\"kind\":\"node\"}\n\0\0\0\n{\"cmd\":\"tick\"}\n"
        .to_vec();
    input.extend(std::iter::repeat_n(b'{', 10_000));
    input.push(b'\n');
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&input)
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    // Bad lines were answered and the session went on; the exit code says some were bad.
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<&str> = stdout.lines().collect();
    assert_eq!(replies.len(), 8, "{stdout}");
    assert!(replies[0].contains(r#""ok":false"#));
    assert!(replies[3].contains(r#""stopped":"step""#), "{}", replies[3]);
    assert!(
        replies[4].contains(r#""stopped":"not_found""#),
        "{}",
        replies[4]
    );
    // Nothing to go back to from the first visit: the position did not change.
    assert!(
        replies[6].contains(r#""tick":1,"event":2"#),
        "{}",
        replies[6]
    );
    assert!(replies[7].contains(r#""ok":false"#));
    // Each refusal is located: its line of the input and a column.
    let first: serde_json::Value = serde_json::from_str(replies[0]).expect("json");
    assert_eq!(first["line"], 1, "{first}");
    assert!(first["column"].as_u64().is_some(), "{first}");
    let last: serde_json::Value = serde_json::from_str(replies[7]).expect("json");
    assert_eq!(last["line"], 8, "{last}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// A tick count over the cap is refused at its field, and the session goes on.
#[test]
fn a_huge_tick_count_is_refused_at_its_field() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_townsfolk"))
        .args(["debug", "--seed", "1"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/guards.json"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"{\"cmd\":\"run\",\"ticks\":18446744073709551615}\n{\"cmd\":\"continue\",\"ticks\":1000001}\n{\"cmd\":\"run\",\"ticks\":2}\n")
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(replies.len(), 3, "{stdout}");
    for r in &replies[..2] {
        assert_eq!(r["ok"], false, "{r}");
        assert!(
            r["error"].as_str().is_some_and(|e| e.contains("ticks")),
            "{r}"
        );
        assert!(
            r["expected"]
                .as_str()
                .is_some_and(|e| e.contains("1000000")),
            "{r}"
        );
    }
    assert_eq!(replies[2]["tick"], 2, "{}", replies[2]);
}

/// The README's condition-breakpoint example runs on the sample it names and stops there.
#[test]
fn readme_condition_breakpoint_example_hits() {
    use std::io::Write;
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README");
    let example = readme
        .lines()
        .filter_map(|l| l.split('`').nth(1))
        .find(|s| s.starts_with(r#"{"cmd":"break","on":"condition""#))
        .expect("a condition breakpoint example in the README");
    let mut child = Command::new(env!("CARGO_BIN_EXE_townsfolk"))
        .args(["debug", "--seed", "3"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/guards.json"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let script = format!("{example}\n{{\"cmd\":\"continue\",\"ticks\":10000}}\n");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let replies: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON reply"))
        .collect();
    assert_eq!(replies[0]["ok"], true, "{text}");
    assert_eq!(replies[1]["stopped"], "breakpoint", "{text}");
    assert_eq!(replies[1]["tick"], 108, "the tick the README names: {text}");
}
