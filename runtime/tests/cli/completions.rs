//! `townsfolk completions SHELL`: a completion script for every shell clap_complete knows,
//! naming the subcommands and their options.

use crate::common::*;

#[test]
fn every_shell_gets_a_script_with_the_subcommands_and_options() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let r = expect_exit(&["completions", shell], 0);
        for word in [
            "validate",
            "info",
            "diff",
            "trace",
            "completions",
            "ticks",
            "uses",
        ] {
            assert!(
                r.stdout.contains(word),
                "{shell}: the script does not mention `{word}`"
            );
        }
    }
    expect_exit(&["completions", "tcsh"], 2);
}

#[test]
fn the_bash_script_parses() {
    let r = expect_exit(&["completions", "bash"], 0);
    let f = TempFile::new("completions.bash", r.stdout.as_bytes());
    let Ok(out) = std::process::Command::new("bash")
        .args(["-n", f.s()])
        .output()
    else {
        return; // No bash on this machine: nothing to parse it with.
    };
    assert!(
        out.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
