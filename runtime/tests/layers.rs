//! The runtime's layers point one way (ARCHITECTURE.md): every module imports only the layers
//! below it, and the phases of `systems/` never import each other (the services they share,
//! `effects` and `host`, sit below them). This test reads every `crate::` path of the sources
//! (`use crate::…` lines and paths written inline), skipping comments and test code, and fails
//! on the first upward one, naming the file and line.

use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may import its own layer and the ones before it.
const LAYERS: &[&str] = &[
    "value", "expr", "pack", "bt", "program", "interop", "mods", "world", "trace", "systems",
    "session", "debug", "tools",
];

/// Inside `systems/`: the shared services, lowest first (a service imports only the ones
/// before it), then the phases, which import services but never another phase.
const SERVICES: &[&str] = &["effects", "host"];
const PHASES: &[&str] = &[
    "areas", "clock", "mail", "movement", "story", "talk", "trees", "triggers",
];

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A source file's place: its layer and, inside `systems/`, its part (service or phase).
struct Place {
    layer: usize,
    part: Option<String>,
}

fn place(rel: &[String]) -> Option<Place> {
    let first = rel.first()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    let layer = LAYERS.iter().position(|l| *l == name)?;
    let part = if name == "systems" && rel.len() > 1 {
        let p = &rel[1];
        Some(p.strip_suffix(".rs").unwrap_or(p).to_string())
    } else {
        None
    };
    Some(Place { layer, part })
}

/// The code lines of a file, without comments and without inline `#[cfg(test)]` modules.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut skip_depth: Option<i64> = None;
    let mut depth: i64 = 0;
    let mut test_attr = false;
    for (i, raw) in text.lines().enumerate() {
        let line = match raw.find("//") {
            Some(k) => &raw[..k],
            None => raw,
        };
        let trimmed = line.trim();
        if skip_depth.is_none() {
            if trimmed == "#[cfg(test)]" {
                test_attr = true;
            } else if test_attr && trimmed.starts_with("mod ") && trimmed.ends_with('{') {
                skip_depth = Some(depth);
            } else if !trimmed.is_empty() {
                test_attr = false;
            }
        }
        let opens = line.matches('{').count() as i64;
        let closes = line.matches('}').count() as i64;
        if skip_depth.is_none() {
            out.push((i + 1, line.to_string()));
        }
        depth += opens - closes;
        if let Some(d) = skip_depth
            && depth <= d
            && closes > 0
        {
            skip_depth = None;
            test_attr = false;
        }
    }
    out
}

/// The module names following each `crate::` (and, inside `systems/`, `super::`) in a line.
fn targets<'a>(line: &'a str, prefix: &str) -> Vec<&'a str> {
    let mut v = Vec::new();
    let mut rest = line;
    while let Some(k) = rest.find(prefix) {
        let before = rest[..k].chars().last();
        let after = &rest[k + prefix.len()..];
        rest = after;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if end > 0 {
            v.push(&after[..end]);
        }
    }
    v
}

/// The files of test modules: those a `#[cfg(test)] mod name;` declares (`name.rs` or
/// `name/mod.rs` beside a `mod.rs` or `lib.rs`, under a folder named after any other file;
/// with `#[path = "file"]`, that file beside the declaring one).
fn test_files(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let (Some(parent), Some(stem)) = (f.parent(), f.file_stem()) else {
            continue;
        };
        let dir = if stem == "mod" || stem == "lib" {
            parent.to_path_buf()
        } else {
            parent.join(stem)
        };
        let mut test_attr = false;
        let mut path: Option<&str> = None;
        for line in text.lines() {
            let t = line.trim();
            if t == "#[cfg(test)]" {
                test_attr = true;
                continue;
            }
            if test_attr
                && let Some(p) = t
                    .strip_prefix("#[path = \"")
                    .and_then(|r| r.strip_suffix("\"]"))
            {
                path = Some(p);
                continue;
            }
            if test_attr
                && let Some(name) = t.strip_prefix("mod ").and_then(|r| r.strip_suffix(';'))
            {
                match path {
                    Some(p) => out.push(parent.join(p)),
                    None => {
                        out.push(dir.join(format!("{name}.rs")));
                        out.push(dir.join(name).join("mod.rs"));
                    }
                }
            }
            test_attr = false;
            path = None;
        }
    }
    out
}

/// Every upward import of the sources, as `file:line: …` sentences.
fn violations() -> Vec<String> {
    let root = src_dir();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let tests = test_files(&files);
    let mut bad = Vec::new();
    for f in &files {
        if tests.contains(f) {
            continue; // Test code may look at anything.
        }
        let rel: Vec<String> = f
            .strip_prefix(&root)
            .expect("under src")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let Some(me) = place(&rel) else {
            continue; // lib.rs (the module list) and bin/ (the CLI, on top of everything).
        };
        let text = std::fs::read_to_string(f).expect("source text");
        let shown = rel.join("/");
        for (n, line) in code_lines(&text) {
            for t in targets(&line, "crate::") {
                let Some(there) = LAYERS.iter().position(|l| *l == t) else {
                    continue;
                };
                if there > me.layer {
                    bad.push(format!(
                        "src/{shown}:{n}: layer `{}` imports `{t}`, a layer above it: {}",
                        LAYERS[me.layer],
                        line.trim()
                    ));
                }
            }
            let Some(part) = &me.part else {
                continue;
            };
            let mut parts: Vec<&str> = Vec::new();
            parts.extend(targets(&line, "crate::systems::"));
            // `super::x` from a file directly in a `systems/<part>/` folder names a sibling.
            if rel.len() == 3 && rel[2] == "mod.rs" {
                parts.extend(targets(&line, "super::"));
            }
            for other in parts {
                if other == part.as_str() || other.is_empty() {
                    continue;
                }
                let mine_s = SERVICES.iter().position(|s| *s == part.as_str());
                let other_s = SERVICES.iter().position(|s| *s == other);
                let other_is_phase = PHASES.contains(&other);
                let wrong = match (mine_s, other_s) {
                    // A service importing a phase, or a service above it.
                    (Some(_), None) => other_is_phase,
                    (Some(a), Some(b)) => b > a,
                    // A phase importing another phase.
                    (None, None) => other_is_phase,
                    (None, Some(_)) => false,
                };
                if wrong {
                    bad.push(format!(
                        "src/{shown}:{n}: `systems::{part}` imports `systems::{other}` ({}): {}",
                        if other_is_phase {
                            "phases never import each other, and services never import phases"
                        } else {
                            "a service imports only the services below it"
                        },
                        line.trim()
                    ));
                }
            }
        }
    }
    bad
}

#[test]
fn layers_import_only_downward() {
    let bad = violations();
    assert!(
        bad.is_empty(),
        "{} upward import(s):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_layer_and_part_exists() {
    // The lists above must match the tree, or the test would silently check nothing.
    let root = src_dir();
    for l in LAYERS {
        assert!(
            root.join(format!("{l}.rs")).is_file() || root.join(l).join("mod.rs").is_file(),
            "layer `{l}` has no module"
        );
    }
    for p in SERVICES.iter().chain(PHASES) {
        let s = root.join("systems");
        assert!(
            s.join(format!("{p}.rs")).is_file() || s.join(p).join("mod.rs").is_file(),
            "systems part `{p}` has no module"
        );
    }
}

#[test]
fn test_modules_are_found_by_their_declaration() {
    // A file is test code when its module is declared under `#[cfg(test)]`, whatever its
    // name: `tests.rs`, `*_tests.rs`; `program/content_tests.rs` (the packs' content tests,
    // shipped code) is not.
    let root = src_dir();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let tests = test_files(&files);
    for f in [
        "bt/tests.rs",
        "systems/talk/params_tests.rs",
        "program/tracker_tests.rs",
    ] {
        assert!(tests.contains(&root.join(f)), "{f} is test code");
    }
    for f in [
        "program/content_tests.rs",
        "tools/content_tests.rs",
        "bt/tick.rs",
    ] {
        assert!(!tests.contains(&root.join(f)), "{f} is not test code");
    }
}

#[test]
fn the_checker_sees_upward_imports() {
    // The reader finds paths in `use` lines and inline, and skips comments.
    assert_eq!(targets("use crate::world::World;", "crate::"), ["world"]);
    assert_eq!(
        targets("let x = crate::session::Session::new(p, 0);", "crate::"),
        ["session"]
    );
    let lines = code_lines(
        "// crate::tools\nuse crate::value::Vec2;\n#[cfg(test)]\nmod tests {\n    use crate::tools::x;\n}\nuse crate::expr::Env;\n",
    );
    let kept: Vec<&str> = lines.iter().map(|(_, l)| l.trim()).collect();
    assert_eq!(
        kept,
        [
            "",
            "use crate::value::Vec2;",
            "#[cfg(test)]",
            "use crate::expr::Env;"
        ]
    );
}
