//! Helpers shared by the command-line tests: running the real `townsfolk` binary, temporary
//! files, parsing `FILE:LINE:COL: SEVERITY: PATH: message` diagnostics, and the checks every
//! bad pack must pass.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

const BIN: &str = env!("CARGO_BIN_EXE_townsfolk");

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("runtime/ has a parent")
        .to_path_buf()
}

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

pub fn corpus(name: &str) -> PathBuf {
    corpus_dir().join(name)
}

pub fn sample() -> PathBuf {
    repo_root().join("samples/guards.json")
}

/// What one run of the binary did.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
    pub fn describe(&self, args: &[&str]) -> String {
        format!(
            "townsfolk {}\nexit code: {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            args.join(" "),
            self.code,
            truncate(&self.stdout),
            truncate(&self.stderr)
        )
    }
}

pub fn truncate(s: &str) -> &str {
    match s.char_indices().nth(4000) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

pub fn townsfolk(args: &[&str]) -> Run {
    let out: Output = Command::new(BIN)
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("cannot start the townsfolk binary");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the binary and checks the exit code and that nothing panicked.
pub fn expect_exit(args: &[&str], code: i32) -> Run {
    let r = townsfolk(args);
    assert!(
        !r.all().contains("panicked"),
        "the tool panicked\n{}",
        r.describe(args)
    );
    assert_eq!(
        r.code,
        Some(code),
        "wrong exit code (expected {code})\n{}",
        r.describe(args)
    );
    r
}

/// A fresh path in the temp directory, unique per process and call.
pub fn temp_path(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "townsfolk-cli-test-{}-{}-{}",
        std::process::id(),
        n,
        tag
    ))
}

/// A temporary file removed on drop.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(tag: &str, contents: &[u8]) -> TempFile {
        let p = temp_path(tag);
        std::fs::write(&p, contents).expect("cannot write temp file");
        TempFile(p)
    }
    pub fn empty(tag: &str) -> TempFile {
        TempFile(temp_path(tag))
    }
    pub fn s(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

pub fn p(path: &Path) -> &str {
    path.to_str().expect("path is UTF-8")
}

/// One parsed `FILE:LINE:COL: SEVERITY: PATH: message` line.
#[derive(Debug, Clone)]
pub struct Diag {
    pub line: u32,
    pub col: u32,
    pub severity: String,
    /// The machine path (the printed one without its ` (id)` names).
    pub path: String,
    /// The path as printed: `trees[0] (t).root`.
    pub shown: String,
    pub message: String,
}

/// The machine path of a printed path: every ` (name)` after a `]` removed.
pub fn machine_path(shown: &str) -> String {
    let mut out = String::new();
    let mut rest = shown;
    while let Some(at) = rest.find("] (") {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 3..];
        // The name ends at the `)` followed by the end, `.` or `[`.
        let end = rest
            .match_indices(')')
            .map(|(i, _)| i)
            .find(|&i| rest[i + 1..].is_empty() || rest[i + 1..].starts_with(['.', '[']))
            .unwrap_or(rest.len());
        rest = rest.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Parses the diagnostic lines about `file` in `text` (lines of other shapes are skipped).
pub fn diags(file: &str, text: &str) -> Vec<Diag> {
    let prefix = format!("{file}:");
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(&prefix)?;
            let (line, rest) = rest.split_once(':')?;
            let (col, rest) = rest.split_once(':')?;
            let rest = rest.strip_prefix(' ')?;
            let (severity, rest) = rest.split_once(": ")?;
            let (path, message) = rest.split_once(": ")?;
            Some(Diag {
                line: line.parse().ok()?,
                col: col.parse().ok()?,
                severity: severity.to_string(),
                path: if path == "(document)" {
                    String::new()
                } else {
                    machine_path(path)
                },
                shown: path.to_string(),
                message: message.to_string(),
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Bad packs
// ---------------------------------------------------------------------------------------------

/// What `validate` must say about a bad pack (beyond exit code 1 and no panic): an error
/// diagnostic with these fields (unset ones are not checked).
#[derive(Default, Clone, Copy)]
pub struct Expect<'a> {
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub path: Option<&'a str>,
    /// Substrings the message must contain.
    pub msg: &'a [&'a str],
}

/// The checks every bad pack must pass: `validate` (text and JSON), `run` and `fmt --check`
/// exit 1 without panicking, and `validate` names an error with its position.
pub fn check_bad_file(file: &str, e: Expect) -> Diag {
    let args = ["validate", file];
    let r = expect_exit(&args, 1);
    let ds = diags(file, &r.all());
    let errors: Vec<&Diag> = ds.iter().filter(|d| d.severity == "error").collect();
    assert!(
        !errors.is_empty(),
        "no `FILE:LINE:COL: error: PATH: message` line\n{}",
        r.describe(&args)
    );
    for d in &ds {
        assert!(d.line >= 1 && d.col >= 1, "bad position {d:?}");
        assert!(!d.message.is_empty(), "empty message {d:?}");
    }
    // The summary line on stderr.
    assert!(
        r.stderr.contains(&format!("{file}: ")) && r.stderr.contains(" error"),
        "no summary line\n{}",
        r.describe(&args)
    );
    let found = errors
        .iter()
        .find(|d| {
            e.path.is_none_or(|p| d.path == p)
                && e.line.is_none_or(|l| d.line == l)
                && e.col.is_none_or(|c| d.col == c)
                && e.msg.iter().all(|m| d.message.contains(m))
        })
        .map(|d| (*d).clone());
    let Some(found) = found else {
        panic!(
            "no error with path {:?} at {:?}:{:?} whose message contains {:?}\n{}",
            e.path,
            e.line,
            e.col,
            e.msg,
            r.describe(&args)
        );
    };

    // The same diagnostics as JSON.
    let args = ["validate", "--format", "json", file];
    let r = expect_exit(&args, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|err| panic!("not JSON ({err})\n{}", r.describe(&args)));
    let arr = v
        .as_array()
        .expect("validate --format json prints an array");
    assert!(!arr.is_empty(), "no diagnostics\n{}", r.describe(&args));
    for o in arr {
        for k in ["file", "severity", "path", "line", "column", "message"] {
            assert!(o.get(k).is_some(), "diagnostic without `{k}`: {o}");
        }
        assert_eq!(o["file"], file);
    }
    assert!(
        arr.iter().any(|o| o["severity"] == "error"
            && o["path"] == found.path.as_str()
            && o["line"] == found.line
            && o["column"] == found.col),
        "the JSON output lacks the text output's error {found:?}\n{}",
        r.describe(&args)
    );

    // Neither run nor fmt accept it.
    let r = expect_exit(&["run", file, "--seed", "1", "--ticks", "10"], 1);
    assert!(
        !r.stdout.lines().any(|l| l.starts_with("hash ")),
        "`run` of a bad pack printed a hash\n{}",
        r.describe(&["run", file])
    );
    expect_exit(&["fmt", "--check", file], 1);
    found
}

pub fn check_bad(name: &str, e: Expect) -> Diag {
    let path = corpus(name);
    check_bad_file(p(&path), e)
}

pub fn samples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo_root().join("samples"))
        .expect("samples/ exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no samples/*.json");
    v
}

pub fn hash_line(stdout: &str) -> String {
    let last = stdout.lines().last().unwrap_or("");
    let hex = last
        .strip_prefix("hash ")
        .unwrap_or_else(|| panic!("last line is not `hash <hex>`: {last:?}"));
    assert!(
        hex.len() == 16
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "last line does not match ^hash [0-9a-f]{{16}}$: {last:?}"
    );
    hex.to_string()
}

pub fn chronicle() -> String {
    p(&repo_root().join("samples/chronicle.json")).to_string()
}
