//! UI tests of the file commands that involve the window, the disk or time: the window's
//! close button with unsaved changes, the changed-on-disk reload banner, the 30 s autosave
//! timer (on a clock the test moves), and Open Recent. Driven through egui_kittest by the
//! labels a user sees.

mod common;

use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use common::{MemStorage, copy_sample, harness, has, menu, temp_dir};
use egui::{ViewportCommand, ViewportEvent, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use townsfolk_editor::document::Edit;
use townsfolk_editor::{EditorApp, io};
use townsfolk_runtime::pack;

/// Renames the pack: an undoable edit that makes the document dirty.
fn rename_pack(h: &mut Harness<'_, EditorApp>, name: &str) {
    let comment = h.state().pack().comment.clone();
    h.state_mut()
        .document_mut()
        .apply(Edit::PackInfo {
            name: name.to_string(),
            comment,
        })
        .expect("renaming the pack is a valid edit");
    h.run_steps(2);
    assert!(h.state().document().is_dirty());
}

/// The window manager's close button: a close request for the root viewport.
fn press_close_button(h: &mut Harness<'_, EditorApp>) {
    h.input_mut()
        .viewports
        .entry(ViewportId::ROOT)
        .or_default()
        .events
        .push(ViewportEvent::Close);
}

/// What the app told the window in the last frame.
fn window_commands(h: &Harness<'_, EditorApp>) -> Vec<ViewportCommand> {
    h.output()
        .viewport_output
        .get(&ViewportId::ROOT)
        .map(|v| v.commands.clone())
        .unwrap_or_default()
}

/// Runs `n` frames; whether any of them closed the window.
fn closes_within(h: &mut Harness<'_, EditorApp>, n: usize) -> bool {
    let mut closed = false;
    for _ in 0..n {
        h.step();
        closed |= window_commands(h).contains(&ViewportCommand::Close);
    }
    closed
}

#[test]
fn the_close_button_with_unsaved_changes_asks_save_discard_or_cancel() {
    let dir = temp_dir("files", "close");
    let file = copy_sample(&dir, "guards");
    let original = std::fs::read_to_string(&file).expect("read");

    // Cancel: the window stays, the changes too.
    let mut h = harness(EditorApp::from_file(&file));
    h.run_steps(2);
    rename_pack(&mut h, "Edited guards");
    press_close_button(&mut h);
    h.step();
    assert!(
        window_commands(&h).contains(&ViewportCommand::CancelClose),
        "the close is held back"
    );
    h.run_steps(2);
    assert!(has(&h, "Unsaved changes"));
    assert!(has(&h, "closing the editor"));
    h.get_by_label("Cancel").click();
    assert!(!closes_within(&mut h, 4));
    assert!(!has(&h, "Unsaved changes"));
    assert!(h.state().document().is_dirty());

    // Discard: the window closes, the file is untouched.
    press_close_button(&mut h);
    h.run_steps(3);
    h.get_by_label("Discard").click();
    assert!(closes_within(&mut h, 4), "Discard closes the window");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), original);

    // Save: the changes are written (canonical bytes), then the window closes.
    let mut h = harness(EditorApp::from_file(&file));
    h.run_steps(2);
    rename_pack(&mut h, "Saved on close");
    press_close_button(&mut h);
    h.run_steps(3);
    h.get_by_label("Save").click();
    assert!(closes_within(&mut h, 4), "Save closes the window");
    let text = std::fs::read_to_string(&file).expect("read");
    let saved = pack::load_str(&text).pack.expect("reads");
    assert_eq!(saved.name, "Saved on close");
    assert_eq!(text, pack::to_canonical_string(&saved));

    // Nothing unsaved: the close goes through without asking.
    let mut h = harness(EditorApp::from_file(&file));
    h.run_steps(2);
    press_close_button(&mut h);
    h.step();
    assert!(!window_commands(&h).contains(&ViewportCommand::CancelClose));
    h.run_steps(2);
    assert!(!has(&h, "Unsaved changes"));
}

/// Runs frames (with real time passing, for the file watcher) until `text` shows, for at
/// most `secs` seconds.
fn wait_for_label(h: &mut Harness<'_, EditorApp>, text: &str, secs: f32) -> bool {
    let end = Instant::now() + Duration::from_secs_f32(secs);
    while Instant::now() < end {
        h.run_steps(1);
        if has(h, text) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Another program rewrites the pack with another name.
fn rewrite_elsewhere(file: &Path, name: &str) {
    let text = std::fs::read_to_string(file).expect("read");
    let mut p = pack::load_str(&text).pack.expect("reads");
    p.name = name.to_string();
    std::fs::write(file, pack::to_canonical_string(&p)).expect("write");
}

#[test]
fn a_pack_changed_on_disk_shows_a_banner_that_reloads_or_keeps_mine() {
    let dir = temp_dir("files", "changed");
    let file = copy_sample(&dir, "guards");
    let mut h = harness(EditorApp::from_file(&file));
    h.run_steps(3);
    assert!(!has(&h, "The file changed on disk."));

    // No changes of ours: Reload takes the file's version.
    rewrite_elsewhere(&file, "Changed elsewhere");
    assert!(
        wait_for_label(&mut h, "The file changed on disk.", 8.0),
        "the banner shows"
    );
    h.get_by_label("Reload").click();
    h.run_steps(3);
    assert_eq!(h.state().pack().name, "Changed elsewhere");
    assert!(!has(&h, "The file changed on disk."));
    assert!(!h.state().document().is_dirty());

    // With changes of ours: the banner says reloading discards them; Keep mine keeps them.
    rename_pack(&mut h, "Mine");
    rewrite_elsewhere(&file, "Changed again");
    assert!(wait_for_label(&mut h, "Reload (discard my changes)…", 8.0));
    h.get_by_label("Keep mine").click();
    h.run_steps(3);
    assert!(!has(&h, "The file changed on disk."));
    assert_eq!(h.state().pack().name, "Mine");
    assert!(h.state().document().is_dirty());

    // Our own save does not raise the banner.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    assert!(!h.state().document().is_dirty());
    // (The watcher debounces for 300 ms.)
    assert!(!wait_for_label(&mut h, "The file changed on disk.", 1.5));
}

#[test]
fn a_dirty_document_is_autosaved_every_30_seconds_of_the_clock() {
    let dir = temp_dir("files", "autosave");
    let file = copy_sample(&dir, "guards");
    let recovery = io::recovery_path(Some(&file));
    let now = Rc::new(Cell::new(Instant::now()));
    let mut app = EditorApp::from_file(&file);
    let clock = now.clone();
    app.set_clock(move || clock.get());
    let mut h = harness(app);
    h.run_steps(2);
    let advance = |h: &mut Harness<'_, EditorApp>, secs: u64| {
        now.set(now.get() + Duration::from_secs(secs));
        h.run_steps(2);
    };

    // Clean: nothing is written, however long.
    advance(&mut h, 45);
    assert!(!recovery.exists(), "a clean document is not autosaved");

    rename_pack(&mut h, "Autosaved guards");
    // 45 s have passed since the start: the first dirty frame autosaves.
    assert!(recovery.exists(), "due at once");
    let read_recovery = || {
        let text = std::fs::read_to_string(&recovery).expect("the recovery file");
        pack::load_str(&text).pack.expect("it reads").name
    };
    assert_eq!(read_recovery(), "Autosaved guards");
    assert!(has(&h, "Autosaved to"));

    // The next change waits for the next 30 s.
    rename_pack(&mut h, "Later change");
    advance(&mut h, 29);
    assert_eq!(read_recovery(), "Autosaved guards", "not due before 30 s");
    advance(&mut h, 2);
    assert_eq!(read_recovery(), "Later change", "due after 30 s");
    // The pack file itself is untouched by autosave.
    let on_disk = pack::load_str(&std::fs::read_to_string(&file).expect("read"))
        .pack
        .expect("reads");
    assert_ne!(on_disk.name, "Later change");

    // Saving removes the recovery file.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    assert!(!recovery.exists(), "a save discards the recovery file");
}

/// Opens `file` in an app, then another, and returns the storage the app saved on exit.
fn storage_after_opening(files: &[&Path]) -> MemStorage {
    let mut storage = MemStorage::default();
    for f in files {
        let mut app = EditorApp::from_file(f);
        app.restore(&storage);
        eframe::App::save(&mut app, &mut storage);
    }
    storage
}

#[test]
fn open_recent_lists_the_last_files_and_opens_one() {
    let dir = temp_dir("files", "recent");
    let guards = copy_sample(&dir, "guards");
    let plaza = copy_sample(&dir, "plaza");
    let storage = storage_after_opening(&[&guards, &plaza]);

    let mut app = EditorApp::with_default_pack();
    app.restore(&storage);
    assert_eq!(app.recent_files(), [plaza.clone(), guards.clone()]);
    let mut h = harness(app);
    h.run_steps(2);
    menu(&mut h, "File", "Open Recent");
    let item = guards.display().to_string();
    h.get_by_label(&item).click();
    h.run_steps(3);
    assert_eq!(h.state().document().path(), Some(guards.as_path()));
    assert_eq!(h.state().recent_files().first(), Some(&guards));

    // With unsaved changes it asks first; Cancel stays on the open pack.
    rename_pack(&mut h, "Edited");
    menu(&mut h, "File", "Open Recent");
    h.get_by_label(&plaza.display().to_string()).click();
    h.run_steps(3);
    assert!(has(&h, "Unsaved changes"));
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert_eq!(h.state().document().path(), Some(guards.as_path()));
    assert_eq!(h.state().pack().name, "Edited");
}
