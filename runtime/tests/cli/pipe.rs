//! A reader that goes away (`townsfolk schema | head -1`) ends a command quietly with exit
//! code 0, for every subcommand that prints; an unread standard error never panics either.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use crate::common::*;

const BIN: &str = env!("CARGO_BIN_EXE_townsfolk");

/// Every printing subcommand, with what it reads on standard input.
fn commands(triggers_file: &str, trace_file: &str) -> Vec<(Vec<String>, &'static str)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let guards = p(&sample()).to_string();
    let plaza = p(&repo_root().join("samples/plaza.json")).to_string();
    let dungeon = p(&repo_root().join("samples/dungeon.json")).to_string();
    let chronicle = chronicle();
    vec![
        (s(&["schema"]), ""),
        (s(&["validate", &guards]), ""),
        (s(&["validate", "--format", "json", &guards]), ""),
        (s(&["run", &guards, "--ticks", "20"]), ""),
        (s(&["talk", &plaza, "--seconds", "20", "--json"]), ""),
        (s(&["talk", &plaza, "--seconds", "20"]), ""),
        (
            s(&["replay", &chronicle, "--runs", "20", "--threads", "1"]),
            "",
        ),
        (
            s(&["events", &chronicle]),
            "{\"op\":\"advance\",\"days\":3}\n",
        ),
        (
            s(&["debug", &guards]),
            "{\"cmd\":\"help\"}\n{\"cmd\":\"tick\"}\n",
        ),
        (s(&["triggers", &dungeon, "--events", triggers_file]), ""),
        (s(&["help", "run"]), ""),
        (s(&["info", &guards]), ""),
        (s(&["info", &guards, "--json"]), ""),
        (s(&["diff", &guards, &guards, "--json"]), ""),
        (s(&["completions", "bash"]), ""),
        (s(&["trace", trace_file]), ""),
        (
            s(&["coverage", &guards, "--seeds", "1..2", "--ticks", "50"]),
            "",
        ),
        (
            s(&[
                "diverge", &guards, "--seed", "1", "--seed2", "2", "--ticks", "50",
            ]),
            "",
        ),
    ]
}

/// Runs the binary with `stdin` as its input and a reader on standard output that reads
/// `lines` lines (0: closes before the command wrote anything) and then goes away.
fn run_closing_early(args: &[String], stdin: &str, lines: usize) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(repo_root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start the townsfolk binary");
    let out = child.stdout.take().expect("piped stdout");
    let mut input = child.stdin.take().expect("piped stdin");
    // Input is written after the reader is gone when it goes away at once (so that the
    // command's first write fails), before reading otherwise (so that a command waiting for
    // its input does not wait for us). The command may be gone already; its input is then
    // not needed.
    if lines == 0 {
        drop(out);
        let _ = input.write_all(stdin.as_bytes());
        drop(input);
    } else {
        let _ = input.write_all(stdin.as_bytes());
        drop(input);
        let mut r = BufReader::new(out);
        for _ in 0..lines {
            let mut l = String::new();
            r.read_line(&mut l).expect("read a line");
        }
        drop(r);
    }
    let done = child.wait_with_output().expect("wait for townsfolk");
    (
        done.status.code(),
        String::from_utf8_lossy(&done.stderr).into_owned(),
    )
}

#[test]
fn every_subcommand_ends_quietly_when_its_reader_goes_away() {
    let events = TempFile::new(
        "pipe-triggers.jsonl",
        b"{\"advance\": 1}\n{\"advance\": 1}\n{\"advance\": 1}\n",
    );
    let trace = TempFile::empty("pipe-trace.jsonl");
    expect_exit(
        &["run", p(&sample()), "--ticks", "200", "--trace", trace.s()],
        0,
    );
    for (args, stdin) in commands(events.s(), trace.s()) {
        for lines in [0, 1] {
            let (code, stderr) = run_closing_early(&args, stdin, lines);
            assert!(
                !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
                "townsfolk {} (reader closed after {lines} lines): {stderr}",
                args.join(" ")
            );
            assert_eq!(
                code,
                Some(0),
                "townsfolk {} (reader closed after {lines} lines): exit code\n{stderr}",
                args.join(" ")
            );
        }
    }
}

/// Nobody reads standard error (`townsfolk validate bad.json 2>&-`-like): its messages are
/// dropped, the output and the exit code are still the command's own (1: the pack has
/// errors), not a panic's 101.
#[test]
fn an_unread_standard_error_is_not_a_panic() {
    let bad = corpus("dangling_tree_ref.json");
    let mut child = Command::new(BIN)
        .args(["validate", p(&bad)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start the townsfolk binary");
    drop(child.stderr.take());
    let done = child.wait_with_output().expect("wait for townsfolk");
    assert_eq!(done.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(stdout.contains(": error: "), "{stdout}");
}
