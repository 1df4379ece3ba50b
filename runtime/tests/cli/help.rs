//! `--help`, `help SUBCOMMAND`, `--version` and usage errors.

use crate::common::*;

#[test]
fn help_works_for_every_subcommand() {
    let r = expect_exit(&["--help"], 0);
    for sub in ["validate", "fmt", "schema", "run"] {
        assert!(r.stdout.contains(sub), "--help does not list `{sub}`");
        let r = expect_exit(&[sub, "--help"], 0);
        assert!(r.stdout.contains("Usage:"), "{sub} --help: {}", r.stdout);
        expect_exit(&["help", sub], 0);
    }
    let r = expect_exit(&["--version"], 0);
    assert!(r.stdout.starts_with("townsfolk "), "{}", r.stdout);
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
}
