//! `--help`, `help SUBCOMMAND`, `--version` and usage errors; every subcommand's help
//! describes each of its arguments and shows examples (run by `help_examples.rs`).

use crate::common::*;

/// The subcommands `townsfolk --help` lists (without `help`).
pub fn subcommands() -> Vec<String> {
    let r = expect_exit(&["--help"], 0);
    let mut out = Vec::new();
    let mut inside = false;
    for l in r.stdout.lines() {
        if l == "Commands:" {
            inside = true;
            continue;
        }
        if inside {
            let Some(rest) = l.strip_prefix("  ") else {
                break;
            };
            let name = rest.split_whitespace().next().unwrap_or("");
            if !name.is_empty() && name != "help" {
                out.push(name.to_string());
            }
        }
    }
    assert!(out.len() >= 9, "too few subcommands in --help: {out:?}");
    out
}

/// The example lines of a help text: the indented lines after `Examples:`.
pub fn examples(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Examples:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

/// The argument and option entries of a help text that have no description.
fn undescribed(help: &str) -> Vec<String> {
    let lines: Vec<&str> = help.lines().collect();
    let mut bad = Vec::new();
    let mut section = false;
    for (i, l) in lines.iter().enumerate() {
        if *l == "Arguments:" || *l == "Options:" {
            section = true;
            continue;
        }
        if l.is_empty() {
            continue; // long help puts blank lines between entries
        }
        if !l.starts_with(' ') {
            section = false; // `Examples:` and the like
            continue;
        }
        if !section {
            continue;
        }
        let body = l.trim_start();
        let indent = l.len() - body.len();
        // Entries: `  <PACK>`, `  -o, --output <OUTPUT>`, `      --json`; deeper lines
        // are descriptions.
        if indent > 6 || !(body.starts_with('<') || body.starts_with('[') || body.starts_with('-'))
        {
            continue;
        }
        // `<PACK>  The pack…` on one line, or the description indented on the next.
        let inline = body
            .split_once("  ")
            .is_some_and(|(_, d)| !d.trim().is_empty());
        let next = lines.get(i + 1).is_some_and(|n| {
            let t = n.trim_start();
            !t.is_empty() && n.len() - t.len() > 2
        });
        if !inline && !next {
            bad.push(body.to_string());
        }
    }
    bad
}

#[test]
fn help_works_for_every_subcommand() {
    let subs = subcommands();
    for want in [
        "validate",
        "fmt",
        "schema",
        "info",
        "diff",
        "run",
        "trace",
        "talk",
        "debug",
        "events",
        "replay",
        "triggers",
        "completions",
        "coverage",
        "test",
        "diverge",
    ] {
        assert!(
            subs.iter().any(|s| s == want),
            "--help does not list `{want}`"
        );
    }
    for sub in &subs {
        for flag in ["--help", "-h"] {
            let r = expect_exit(&[sub, flag], 0);
            assert!(r.stdout.contains("Usage:"), "{sub} {flag}: {}", r.stdout);
            let bad = undescribed(&r.stdout);
            assert!(
                bad.is_empty(),
                "{sub} {flag}: arguments without a description: {bad:?}\n{}",
                r.stdout
            );
            let ex = examples(&r.stdout);
            assert!(
                ex.iter()
                    .any(|e| e.starts_with(&format!("townsfolk {sub} "))
                        || e.contains(&format!("| townsfolk {sub} "))),
                "{sub} {flag}: no example running `townsfolk {sub}`\n{}",
                r.stdout
            );
        }
        expect_exit(&["help", sub], 0);
    }
    let r = expect_exit(&["--version"], 0);
    assert!(r.stdout.starts_with("townsfolk "), "{}", r.stdout);
}

#[test]
fn the_description_check_sees_a_missing_description() {
    let help = "Usage: x\n\nArguments:\n  <PACK>\n\nOptions:\n  -h, --help  Print help\n";
    assert_eq!(undescribed(help), vec!["<PACK>".to_string()]);
    let help = "Arguments:\n  <SHELL>\n          The shell\n\nOptions:\n      --json  JSON\n";
    assert!(undescribed(help).is_empty());
    let help = "Options:\n      --json\n  -h, --help  Print help\n";
    assert_eq!(undescribed(help), vec!["--json".to_string()]);
}

#[test]
fn usage_errors_exit_2() {
    // clap's convention for bad command lines; never a panic.
    expect_exit(&[], 2);
    expect_exit(&["frobnicate"], 2);
    expect_exit(&["validate"], 2);
    expect_exit(&["run", p(&sample())], 2); // --ticks is required
    expect_exit(&["run", p(&sample()), "--ticks", "many"], 2);
    expect_exit(&["fmt", "--check", "-o", "x.json", p(&sample())], 2);
    expect_exit(&["diff", p(&sample())], 2); // two packs
    expect_exit(&["trace"], 2);
}
