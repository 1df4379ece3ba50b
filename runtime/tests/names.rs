//! The name checks (issue 12): every silent typo of the issue's walk-through, made in a copy
//! of a sample by a one-place text patch, gives a diagnostic at the JSON path of the typo with
//! a "did you mean" (one table, [`TYPOS`]); and the samples themselves stay free of errors.

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

/// One typo: in `sample`, the first `from` becomes `to`; expected: a diagnostic of `severity`
/// at `path` whose message has every one of `words`, on the line of the typo.
struct Typo {
    name: &'static str,
    sample: &'static str,
    from: &'static str,
    to: &'static str,
    severity: Severity,
    path: &'static str,
    words: &'static [&'static str],
}

const TYPOS: &[Typo] = &[
    Typo {
        name: "NPC variable",
        sample: "daily_life",
        from: r#""workplace": "smithy""#,
        to: r#""wrkplace": "smithy""#,
        severity: ERROR,
        path: "world.npcs[0].vars.wrkplace",
        words: &["`wrkplace`", "tree `cycle4`", "did you mean `workplace`"],
    },
    Typo {
        name: "preferred template",
        sample: "daily_life",
        from: r#""template": "sleep","#,
        to: r#""template": "slep","#,
        severity: WARNING,
        path: "trees[0].root.children[1].children[1].prefer[0].template",
        words: &["`slep`", "did you mean `sleep`"],
    },
    Typo {
        name: "go_to_child kind",
        sample: "daily_life",
        from: r#""kind": "pub","#,
        to: r#""kind": "pubb","#,
        severity: ERROR,
        path: "trees[5].root.children[0].kind",
        words: &["area kind", "`pubb`", "did you mean `pub`"],
    },
    Typo {
        name: "enable_template",
        sample: "daily_life",
        from: r#""type": "enable_template",
                    "template": "drink""#,
        to: r#""type": "enable_template",
                    "template": "drnk""#,
        severity: ERROR,
        path: "trees[17].root.children[0].children[0].children[1].template",
        words: &["`drnk`", "did you mean `drink`"],
    },
    Typo {
        name: "holders",
        sample: "daily_life",
        from: r#"holders(\"tend_bar\")"#,
        to: r#"holders(\"tend_bra\")"#,
        severity: ERROR,
        path: "trees[17].root.children[0].children[0].children[0].expr",
        words: &["`tend_bra`", "did you mean `tend_bar`"],
    },
    Typo {
        name: "has_tag",
        sample: "daily_life",
        from: r#"has_tag(\"innkeeper\")"#,
        to: r#"has_tag(\"inkeeper\")"#,
        severity: WARNING,
        path: "areas[10].templates[3].constraint",
        words: &["tag `inkeeper`", "always false", "did you mean `innkeeper`"],
    },
    Typo {
        name: "request area_kind",
        sample: "daily_life",
        from: r#""area_kind": "danger""#,
        to: r#""area_kind": "dangr""#,
        severity: ERROR,
        path: "trees[0].root.children[0].area_kind",
        words: &["`dangr`", "did you mean `danger`"],
    },
    Typo {
        name: "inbox",
        sample: "daily_life",
        from: r#""inbox": "table","#,
        to: r#""inbox": "tabel","#,
        severity: WARNING,
        path: "trees[14].root.children[1].children[0].inbox",
        words: &[
            "inbox `tabel`",
            "never finds a message",
            "did you mean `table`",
        ],
    },
    Typo {
        name: "message",
        sample: "daily_life",
        from: r#""message": "want_cards""#,
        to: r#""message": "want_card""#,
        severity: WARNING,
        path: "trees[14].root.children[0].message",
        words: &["`want_card`", "did you mean `want_cards`"],
    },
    Typo {
        name: "max_instances 0",
        sample: "daily_life",
        from: r#""max_instances": 3"#,
        to: r#""max_instances": 0"#,
        severity: WARNING,
        path: "areas[9].templates[0].max_instances",
        words: &["max_instances: 0", "no NPC can ever adopt"],
    },
    Typo {
        name: "empty NPC id",
        sample: "daily_life",
        from: r#""id": "ada""#,
        to: r#""id": """#,
        severity: ERROR,
        path: "world.npcs[0].id",
        words: &["NPC needs a non-empty id"],
    },
    // The herald's condition reads a flag nothing sets: it stays false.
    Typo {
        name: "flag read",
        sample: "chronicle",
        from: r#""expr": "flags.emperor""#,
        to: r#""expr": "flags.emperr""#,
        severity: WARNING,
        path: "trees[0].root.children[0].children[0].expr",
        words: &[
            "flag `emperr`",
            "nothing in the pack sets",
            "did you mean `emperor`",
        ],
    },
    // The election's effect sets a misspelt flag; `emperor` is still declared (so set), and
    // read by the herald: the set one nothing reads is the near miss of a read one.
    Typo {
        name: "flag set",
        sample: "chronicle",
        from: r#""flag": "emperor","#,
        to: r#""flag": "emperer","#,
        severity: WARNING,
        path: "events[16].on_success[0].flag",
        words: &[
            "flag `emperer`",
            "nothing in the pack reads",
            "did you mean `emperor`",
        ],
    },
    // A counter only event preconditions read (they still count as reading it).
    Typo {
        name: "counter set",
        sample: "chronicle",
        from: r#""counter": "loyalty","#,
        to: r#""counter": "loyalti","#,
        severity: WARNING,
        path: "events[2].on_success[1].counter",
        words: &[
            "counter `loyalti`",
            "nothing in the pack reads",
            "did you mean `loyalty`",
        ],
    },
];

#[test]
fn every_typo_is_reported_at_its_path() {
    let failed: Vec<&str> = TYPOS
        .iter()
        .filter(|t| {
            let p = patched(t.sample, t.from, t.to);
            std::panic::catch_unwind(|| has(&p, t.severity, t.path, t.words)).is_err()
        })
        .map(|t| t.name)
        .collect();
    assert!(failed.is_empty(), "failed cases (see above): {failed:?}");
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

/// The holders typo of [`TYPOS`]: its column is the name's, inside the expression.
#[test]
fn holders_typo_column() {
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

/// Breakpoint conditions in the editor section: a tag or behavior name that can never match is
/// a warning (the editor section never changes what the pack does), naming the breakpoint.
#[test]
fn breakpoint_condition_names() {
    let editor = r#"{ "editor": { "breakpoints": [ { "id": 7, "on": "condition", "condition": "has_tag(\"inkeeper\")" }, { "id": 8, "on": "condition", "condition": "holders(\"tend_bra\") > 0" } ] },"#;
    let p = patched("daily_life", "{", editor);
    has(
        &p,
        WARNING,
        "editor.breakpoints[0].condition",
        &[
            "breakpoint 7:",
            "tag `inkeeper`",
            "did you mean `innkeeper`",
        ],
    );
    has(
        &p,
        WARNING,
        "editor.breakpoints[1].condition",
        &["breakpoint 8:", "`tend_bra`", "did you mean `tend_bar`"],
    );
    assert!(
        !p.diags
            .iter()
            .any(|d| d.is_error() && d.path.starts_with("editor")),
        "{:#?}",
        p.diags
    );
}

/// A flag or counter set that nothing reads is reported only as a near miss of a read one:
/// the samples' story outcomes (chronicle sets fifteen flags for the record) are not typos.
#[test]
fn set_names_nothing_reads_are_reported_only_near_a_read_one() {
    for s in ["chronicle", "daily_life", "dungeon", "guards", "plaza"] {
        let loaded = program::load_str(&sample(s));
        let unread: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("nothing in the pack reads"))
            .collect();
        assert!(unread.is_empty(), "{s}: {unread:#?}");
    }
}
