//! Every example in every subcommand's `--help` runs: the lines after `Examples:` are run
//! in order with `sh`, in a fresh directory holding the workspace's `samples/` (so files
//! the examples write land there), with this build's `townsfolk` first on the PATH. Each
//! must exit 0, or the code its `# exit N` comment names.

use std::path::Path;
use std::process::Command;

use crate::common::*;
use crate::help::{examples, subcommands};

/// The exit code a line says it ends with (`… # exit 1 …`), else 0.
fn expected_code(line: &str) -> i32 {
    line.split_once('#')
        .and_then(|(_, c)| c.trim().strip_prefix("exit "))
        .and_then(|c| c.split(|ch: char| !ch.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[cfg(unix)]
#[test]
fn every_help_example_runs() {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_townsfolk"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for sub in subcommands() {
        let help = expect_exit(&[&sub, "--help"], 0).stdout;
        let lines = examples(&help);
        assert!(!lines.is_empty(), "{sub} --help has no examples");
        let dir = temp_path(&format!("examples-{sub}"));
        std::fs::create_dir_all(&dir).expect("example folder");
        std::os::unix::fs::symlink(repo_root().join("samples"), dir.join("samples"))
            .expect("link samples/");
        for line in &lines {
            let out = Command::new("sh")
                .args(["-c", line])
                .current_dir(&dir)
                .env("PATH", &path)
                .output()
                .expect("run sh");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                !stderr.contains("panicked"),
                "{sub} --help example `{line}` panicked: {stderr}"
            );
            assert_eq!(
                out.status.code(),
                Some(expected_code(line)),
                "{sub} --help example `{line}`\n--- stdout ---\n{}\n--- stderr ---\n{stderr}",
                truncate(&String::from_utf8_lossy(&out.stdout))
            );
            ran += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(ran >= 13, "only {ran} examples");
}

#[test]
fn exit_comments_are_read() {
    assert_eq!(
        expected_code("townsfolk diff a b   # exit 1: they differ"),
        1
    );
    assert_eq!(expected_code("townsfolk diff a b --json   # exit 1"), 1);
    assert_eq!(expected_code("townsfolk run x --ticks 3"), 0);
}

/// The shell lines of the README's CLI section (its ```sh blocks) that can run as they are:
/// not the build line, none with a placeholder (`PACK`, `ID`, `[--json]`, `bash|zsh`) and
/// none writing into the home folder (`~/…`).
fn readme_cli_lines() -> Vec<String> {
    let text = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    let section: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("## The `townsfolk` CLI"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    let mut out = Vec::new();
    let mut in_sh = false;
    for l in section {
        if l.starts_with("```") {
            in_sh = !in_sh && l.trim() == "```sh";
            continue;
        }
        if !in_sh || l.trim().is_empty() {
            continue;
        }
        let command = l.split(" #").next().unwrap_or(l);
        let placeholder = command.split_whitespace().any(|w| {
            let w = w.trim_matches(|c: char| c == '\'' || c == '"');
            w.starts_with('[')
                || (w.contains('|') && w.len() > 1)
                || (w
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c == '.')
                    && w.chars().any(|c| c.is_ascii_uppercase()))
        });
        if l.starts_with("cargo ") || placeholder || command.contains('~') {
            continue;
        }
        out.push(l.to_string());
    }
    out
}

#[cfg(unix)]
#[test]
fn every_runnable_readme_cli_example_runs() {
    let lines = readme_cli_lines();
    for want in [
        "townsfolk schema",
        "townsfolk info samples/guards.json",
        "townsfolk trace guards.jsonl",
        "townsfolk debug samples/guards.json",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(want)),
            "no runnable README line starts with `{want}`: {lines:#?}"
        );
    }
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_townsfolk"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = temp_path("readme-examples");
    std::fs::create_dir_all(&dir).expect("example folder");
    std::os::unix::fs::symlink(repo_root().join("samples"), dir.join("samples"))
        .expect("link samples/");
    for line in &lines {
        let out = Command::new("sh")
            .args(["-c", line])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .expect("run sh");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(expected_code(line)),
            "README example `{line}`\n--- stdout ---\n{}\n--- stderr ---\n{stderr}",
            truncate(&String::from_utf8_lossy(&out.stdout))
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn readme_placeholders_are_skipped() {
    // The filter itself: a line with a placeholder is not run, a concrete one is.
    let lines = readme_cli_lines();
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("PACK") || l.contains("[--"))
    );
    assert!(!lines.iter().any(|l| l.starts_with("cargo ")));
}
