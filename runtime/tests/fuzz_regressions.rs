//! Every input the fuzzers found a problem with (`tests/fuzz_regressions/TARGET/NAME`),
//! replayed through the same checks as the fuzz target TARGET (`fuzz/src/checks.rs`,
//! included here by path), without the fuzzer. See FUZZING.md.

#[path = "../../fuzz/src/checks.rs"]
mod checks;

use std::path::Path;

type Check = fn(&[u8]);

const TARGETS: &[(&str, Check)] = &[
    ("pack_load", checks::pack_load),
    ("expr_parse", checks::expr_parse),
    ("btcpp_import", checks::btcpp_import),
    ("behavior3_import", checks::behavior3_import),
    ("debug_lines", checks::debug_lines),
    ("mod_resolve", checks::mod_resolve),
];

/// Replays every file of `tests/fuzz_regressions/TARGET/`; returns how many, and the names
/// of those that failed (with the panic's message).
fn replay(target: &str, check: Check) -> (usize, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_regressions")
        .join(target);
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(_) => return (0, Vec::new()),
    };
    files.sort();
    let mut failed = Vec::new();
    for f in &files {
        let data = std::fs::read(f).unwrap();
        if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("{}: {msg}", f.display()));
        }
    }
    (files.len(), failed)
}

#[test]
fn every_saved_fuzz_input_passes_its_target_checks() {
    let mut failed = Vec::new();
    for (target, check) in TARGETS {
        let (n, f) = replay(target, *check);
        eprintln!("{target}: {n} inputs replayed");
        failed.extend(f);
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// The importer targets' folder form: the included file is written where the include finds
/// it (so fuzzing reaches the include code), and paths that would leave the folder are
/// renamed into it.
#[test]
fn importer_inputs_become_folders_with_their_includes() {
    let main = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <include path="child/c.xml"/>
  <BehaviorTree ID="Main"><SubTree ID="Child"/></BehaviorTree>
</root>"#;
    let child =
        r#"<root BTCPP_format="4"><BehaviorTree ID="Child"><AlwaysSuccess/></BehaviorTree></root>"#;
    let mut data = format!("main.xml\n{main}").into_bytes();
    data.push(checks::FILE_SEPARATOR);
    data.extend(format!("child/c.xml\n{child}").bytes());
    data.push(checks::FILE_SEPARATOR);
    data.extend(b"../escape.xml\nx");
    let files = checks::split_files(&data, ".xml");
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["main.xml", "child/c.xml", "file2.xml"]);
    let folder = checks::Folder::new(&files).unwrap();
    let i = townsfolk_runtime::interop::import_btcpp_file(&folder.root.join("main.xml")).unwrap();
    let ids: Vec<&str> = i.pack.trees.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["Main", "Child"]);
    assert!(folder.root.join("file2.xml").is_file());
    assert!(!folder.root.join("../escape.xml").exists());
    checks::btcpp_import(&data);
}
