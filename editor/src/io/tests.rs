//! Tests of files: atomic save, interrupted save, recovery, export, watcher, recent list.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use townsfolk_runtime::pack;

use super::*;
use crate::document::Edit;

fn sample_text(name: &str) -> String {
    let path = format!("{}/../samples/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("townsfolk-io-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

fn flag(name: &str) -> Edit {
    Edit::Flag {
        name: name.into(),
        value: Some(true),
    }
}

#[test]
fn save_writes_the_canonical_bytes_and_marks_saved() {
    let dir = scratch("save");
    let path = dir.join("guards.json");
    write(&path, &sample_text("guards"));
    let mut doc = open(&path);
    doc.apply(flag("saved_flag")).unwrap();
    assert!(doc.is_dirty());
    save_document(&mut doc).unwrap();
    assert!(!doc.is_dirty());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, pack::to_canonical_string(doc.pack()));
    assert!(text.contains("\"saved_flag\": true"));
    // No temporary file left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn an_interrupted_save_leaves_the_old_file_intact() {
    let dir = scratch("interrupted");
    let path = dir.join("guards.json");
    let original = sample_text("guards");
    write(&path, &original);
    let mut doc = open(&path);
    doc.apply(flag("lost")).unwrap();
    test_hooks::fail_before_rename(true);
    let r = save_document(&mut doc);
    test_hooks::fail_before_rename(false);
    assert!(r.is_err());
    assert!(doc.is_dirty(), "a failed save is not a save");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "temporary file left: {names:?}");
    // The next save works.
    save_document(&mut doc).unwrap();
    assert!(std::fs::read_to_string(&path).unwrap().contains("\"lost\""));
}

#[test]
fn a_read_only_document_is_never_saved() {
    let dir = scratch("readonly");
    let path = dir.join("broken.json");
    let text = sample_text("guards").replacen("\"npcs\": [", "\"npcs\": [ 42,", 1);
    write(&path, &text);
    let mut doc = open(&path);
    assert!(doc.is_read_only());
    assert!(matches!(save_document(&mut doc), Err(IoError::ReadOnly)));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_recovery_file_newer_than_the_pack_is_found() {
    let dir = scratch("recovery");
    let path = dir.join("guards.json");
    write(&path, &sample_text("guards"));
    assert_eq!(find_recovery(Some(&path)), None);
    let mut doc = open(&path);
    doc.apply(flag("recovered")).unwrap();
    // Make sure the recovery's time is later than the pack's on coarse clocks.
    std::thread::sleep(Duration::from_millis(20));
    let mut auto = Autosave::new(Duration::ZERO);
    let written = auto.tick(&doc, Instant::now()).unwrap().unwrap();
    assert_eq!(written, dir.join(".guards.json.recovery"));
    assert!(
        auto.tick(&doc, Instant::now()).is_none(),
        "same revision: not again"
    );
    let rec = find_recovery(Some(&path)).expect("recovery offered");
    let back = rec.load();
    assert!(back.is_dirty());
    assert_eq!(back.path(), Some(path.as_path()));
    assert_eq!(
        pack::to_canonical_string(back.pack()),
        pack::to_canonical_string(doc.pack())
    );
    // Saving the pack afterwards makes the recovery older: not offered.
    std::thread::sleep(Duration::from_millis(20));
    save_document(&mut doc).unwrap();
    let pack_time = std::fs::metadata(&path).unwrap().modified().unwrap();
    let rec_time = std::fs::metadata(&written).unwrap().modified().unwrap();
    if pack_time > rec_time {
        assert_eq!(find_recovery(Some(&path)), None);
    }
    discard_recovery(Some(&path)).unwrap();
    assert!(!written.exists());
    discard_recovery(Some(&path)).unwrap();
}

#[test]
fn untitled_recovery_lives_in_the_data_folder() {
    let p = recovery_path(None);
    assert!(p.ends_with("townsfolk/untitled.recovery"), "{p:?}");
}

#[test]
fn export_is_refused_while_errors_remain() {
    let dir = scratch("export");
    let dest = dir.join("out.json");
    let text = sample_text("guards");
    let mut p = pack::load_str(&text).pack.unwrap();
    p.world.npcs[0].tree = "no_such_tree".into();
    let err = export(&p, &dest, ExportOptions::default()).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, ExportError::Invalid { .. }));
    assert!(msg.contains("no_such_tree"), "{msg}");
    assert!(msg.contains("world.npcs[0] (guard_1).tree"), "{msg}");
    assert!(!dest.exists());
}

#[test]
fn export_drops_the_editor_section_unless_kept() {
    let dir = scratch("export-ok");
    let text = sample_text("guards");
    let mut p = pack::load_str(&text).pack.unwrap();
    p.editor.trees.insert(
        p.trees[0].id.clone(),
        townsfolk_runtime::pack::GraphLayout::default(),
    );
    assert!(!p.editor.is_empty());
    let a = dir.join("plain.json");
    export(&p, &a, ExportOptions::default()).unwrap();
    let plain = std::fs::read_to_string(&a).unwrap();
    assert!(!plain.contains("\"editor\""));
    assert!(!pack::load_str(&plain).has_errors());
    let b = dir.join("kept.json");
    export(
        &p,
        &b,
        ExportOptions {
            keep_editor: true,
            form: ExportForm::SingleFile,
        },
    )
    .unwrap();
    assert!(std::fs::read_to_string(&b).unwrap().contains("\"editor\""));
}

#[test]
fn recent_list_is_ordered_and_bounded() {
    let mut r = Recent::default();
    for i in 0..15 {
        r.push(Path::new(&format!("/p/{i}.json")));
    }
    r.push(Path::new("/p/3.json"));
    assert_eq!(r.paths().len(), Recent::MAX);
    assert_eq!(r.paths()[0], Path::new("/p/3.json"));
    assert_eq!(r.paths()[1], Path::new("/p/14.json"));
    assert_eq!(
        r.paths().iter().filter(|p| p.ends_with("3.json")).count(),
        1
    );
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(serde_json::from_str::<Recent>(&json).unwrap(), r);
}

fn poll_for(w: &mut Watcher, wait: Duration) -> Option<ChangedOnDisk> {
    let end = Instant::now() + wait;
    while Instant::now() < end {
        if let Some(c) = w.poll() {
            return Some(c);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

#[test]
fn the_watcher_reports_other_programs_but_not_our_saves() {
    let dir = scratch("watch");
    let path = dir.join("guards.json");
    write(&path, &sample_text("guards"));
    let mut doc = open(&path);
    let mut w = Watcher::new(&path).unwrap();
    doc.apply(flag("ours")).unwrap();
    save_document(&mut doc).unwrap();
    assert_eq!(
        poll_for(&mut w, Duration::from_millis(1500)),
        None,
        "our own save"
    );
    // Another program writes the file.
    write(
        &path,
        &sample_text("guards").replace("\"name\": \"", "\"name\": \"Edited "),
    );
    let change = poll_for(&mut w, Duration::from_secs(5));
    assert!(
        matches!(change, Some(ChangedOnDisk::Modified(_))),
        "{change:?}"
    );
    std::fs::remove_file(&path).unwrap();
    let change = poll_for(&mut w, Duration::from_secs(5));
    assert!(
        matches!(change, Some(ChangedOnDisk::Removed(_))),
        "{change:?}"
    );
}
