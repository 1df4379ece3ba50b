//! The name checks (issue 12): every silent typo of the issue's walk-through, made in a copy
//! of a sample by a one-place text patch, gives a diagnostic at the JSON path of the typo with
//! a "did you mean"; and the samples themselves stay free of errors.

use std::path::Path;

use townsfolk_runtime::pack::{Diagnostic, Severity};
use townsfolk_runtime::program;

fn sample(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../samples")
        .join(format!("{name}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A sample with one typo, checked: its text, where the typo is, and the diagnostics.
struct Patched {
    text: String,
    /// 1-based line of the patched text.
    line: usize,
    diags: Vec<Diagnostic>,
}

/// The sample with the first occurrence of `from` replaced by `to`, checked.
fn patched(name: &str, from: &str, to: &str) -> Patched {
    let original = sample(name);
    let at = original
        .find(from)
        .unwrap_or_else(|| panic!("{name}: `{from}` is not in the sample"));
    let text = original.replacen(from, to, 1);
    // The line of the patch's last line (where the changed value sits).
    let line = text[..at + to.len()].lines().count();
    let loaded = program::load_str(&text);
    assert!(loaded.pack.is_some(), "{:#?}", loaded.diagnostics);
    Patched {
        text,
        line,
        diags: loaded.diagnostics,
    }
}

/// Asserts a diagnostic of `severity` at `path` whose message contains every one of `words`,
/// located in the text on the line of the typo.
fn has(p: &Patched, severity: Severity, path: &str, words: &[&str]) {
    let diags = &p.diags;
    let found = diags.iter().find(|d| {
        d.severity == severity && d.path == path && words.iter().all(|w| d.message.contains(w))
    });
    if let Some(d) = found.filter(|_| p.line > 0) {
        let line = d.line.unwrap_or(0) as usize;
        assert_eq!(
            line,
            p.line,
            "{path} is located on line {line}, the typo is on line {}: {:?}",
            p.line,
            p.text.lines().nth(p.line - 1)
        );
    }
    let found = found.is_some();
    let listing: Vec<String> = diags
        .iter()
        .map(|d| format!("{}: {}: {}", d.severity, d.path, d.message))
        .collect();
    assert!(
        found,
        "no {severity} at {path} containing {words:?}; got:\n{}",
        listing.join("\n")
    );
}

const ERROR: Severity = Severity::Error;
const WARNING: Severity = Severity::Warning;

#[test]
fn samples_have_no_errors() {
    for s in ["chronicle", "daily_life", "dungeon", "guards", "plaza"] {
        let loaded = program::load_str(&sample(s));
        let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{s}: {errors:#?}");
    }
}

#[test]
fn npc_variable_typo() {
    let p = patched(
        "daily_life",
        r#""workplace": "smithy""#,
        r#""wrkplace": "smithy""#,
    );
    has(
        &p,
        ERROR,
        "world.npcs[0].vars.wrkplace",
        &["`wrkplace`", "tree `cycle4`", "did you mean `workplace`"],
    );
}

#[test]
fn preferred_template_typo() {
    let p = patched(
        "daily_life",
        r#""template": "sleep","#,
        r#""template": "slep","#,
    );
    has(
        &p,
        WARNING,
        "trees[0].root.children[1].children[1].prefer[0].template",
        &["`slep`", "did you mean `sleep`"],
    );
}

#[test]
fn a_request_only_for_a_misspelt_behavior_is_never_served() {
    let mut p = patched(
        "daily_life",
        r#""template": "sleep","#,
        r#""template": "slep","#,
    );
    // The warning is at the request node, the one holding the misspelt entry.
    has(
        &p,
        WARNING,
        "trees[0].root.children[1].children[1].prefer[0].template",
        &["`slep`"],
    );
    p.line = 0;
    has(
        &p,
        WARNING,
        "trees[0].root.children[1].children[1]",
        &["offers `slep`", "never served"],
    );
    // The sample as it is: every request can be served.
    let loaded = program::load_str(&sample("daily_life"));
    assert!(
        !loaded
            .diagnostics
            .iter()
            .any(|d| d.message.contains("never served")),
        "{:#?}",
        loaded.diagnostics
    );
}

#[test]
fn go_to_child_kind_typo() {
    let p = patched("daily_life", r#""kind": "pub","#, r#""kind": "pubb","#);
    has(
        &p,
        ERROR,
        "trees[5].root.children[0].kind",
        &["area kind", "`pubb`", "did you mean `pub`"],
    );
}

#[test]
fn enable_template_typo() {
    let p = patched(
        "daily_life",
        r#""type": "enable_template",
                    "template": "drink""#,
        r#""type": "enable_template",
                    "template": "drnk""#,
    );
    has(
        &p,
        ERROR,
        "trees[17].root.children[0].children[0].children[1].template",
        &["`drnk`", "did you mean `drink`"],
    );
}

#[test]
fn holders_typo() {
    let p = patched(
        "daily_life",
        r#"holders(\"tend_bar\")"#,
        r#"holders(\"tend_bra\")"#,
    );
    has(
        &p,
        ERROR,
        "trees[17].root.children[0].children[0].children[0].expr",
        &["`tend_bra`", "did you mean `tend_bar`"],
    );
    // The column is the name's, inside the expression (escaped quotes counted as written).
    let d = p
        .diags
        .iter()
        .find(|d| d.message.contains("`tend_bra`"))
        .expect("the diagnostic");
    let line = p.text.lines().nth(p.line - 1).expect("the line");
    let col = d.column.expect("a column") as usize;
    let from: String = line.chars().skip(col - 1).collect();
    assert!(from.starts_with("tend_bra"), "column {col} of {line:?}");
}

#[test]
fn has_tag_typo() {
    let p = patched(
        "daily_life",
        r#"has_tag(\"innkeeper\")"#,
        r#"has_tag(\"inkeeper\")"#,
    );
    has(
        &p,
        WARNING,
        "areas[10].templates[3].constraint",
        &["tag `inkeeper`", "always false", "did you mean `innkeeper`"],
    );
}

#[test]
fn area_kind_typo() {
    let p = patched(
        "daily_life",
        r#""area_kind": "danger""#,
        r#""area_kind": "dangr""#,
    );
    has(
        &p,
        ERROR,
        "trees[0].root.children[0].area_kind",
        &["`dangr`", "did you mean `danger`"],
    );
}

#[test]
fn inbox_typo() {
    let p = patched("daily_life", r#""inbox": "table","#, r#""inbox": "tabel","#);
    has(
        &p,
        WARNING,
        "trees[14].root.children[1].children[0].inbox",
        &[
            "inbox `tabel`",
            "never finds a message",
            "did you mean `table`",
        ],
    );
}

#[test]
fn message_typo() {
    let p = patched(
        "daily_life",
        r#""message": "want_cards""#,
        r#""message": "want_card""#,
    );
    has(
        &p,
        WARNING,
        "trees[14].root.children[0].message",
        &["`want_card`", "did you mean `want_cards`"],
    );
}

#[test]
fn max_instances_zero() {
    let p = patched(
        "daily_life",
        r#""max_instances": 3"#,
        r#""max_instances": 0"#,
    );
    has(
        &p,
        WARNING,
        "areas[9].templates[0].max_instances",
        &["max_instances: 0", "no NPC can ever adopt"],
    );
}

#[test]
fn empty_npc_id() {
    let p = patched("daily_life", r#""id": "ada""#, r#""id": """#);
    has(&p, ERROR, "world.npcs[0].id", &["NPC needs a non-empty id"]);
}

#[test]
fn no_scenario_runs_no_story() {
    let mut p = patched(
        "chronicle",
        r#"    ],
    "scenario": "early_reign""#,
        "    ]",
    );
    // Nothing is misspelt: the warning is at the `world` object, which lacks the scenario.
    p.line = 1 + p
        .text
        .lines()
        .position(|l| l.trim_start().starts_with(r#""world""#))
        .expect("a world");
    has(&p, WARNING, "world", &["runs no scenario", "`early_reign`"]);
}

#[test]
fn flag_read_typo() {
    // The herald's condition reads a flag nothing sets: it stays false.
    let p = patched(
        "chronicle",
        r#""expr": "flags.emperor""#,
        r#""expr": "flags.emperr""#,
    );
    has(
        &p,
        WARNING,
        "trees[0].root.children[0].children[0].expr",
        &[
            "flag `emperr`",
            "nothing in the pack sets",
            "did you mean `emperor`",
        ],
    );
}
