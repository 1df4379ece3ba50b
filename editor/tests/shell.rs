//! UI tests of the shell (menus, files, prompts, problems, persistence), driven through
//! egui_kittest by the labels a user sees. File dialogs are answered with
//! `EditorApp::answer_next_dialog`, so no native window ever opens.
//!
//! The preview keeps requesting repaints while it plays, so these tests use `run_steps(n)`,
//! never `run()`.

mod common;

use common::{MemStorage, assert_framed, harness, has, menu, temp_dir};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use townsfolk_editor::document::Edit;
use townsfolk_editor::{DEFAULT_PACK, EditorApp, io};
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

#[test]
fn recovery_is_offered_after_a_crash_and_recovers_the_changes() {
    let dir = temp_dir("shell", "recovery");
    let file = dir.join("guards.json");
    std::fs::write(&file, DEFAULT_PACK).expect("write the pack");
    // The editor autosaved changes, then died before saving.
    let mut changed = pack::load_str(DEFAULT_PACK).pack.expect("sample reads");
    changed.name = "Guards (autosaved)".to_string();
    std::thread::sleep(std::time::Duration::from_millis(20));
    io::write_recovery(Some(&file), &changed).expect("write recovery");

    let mut h = harness(EditorApp::from_file(&file));
    h.run_steps(3);
    assert!(has(&h, "Recover unsaved changes?"));
    h.get_by_label("Recover").click();
    h.run_steps(3);
    assert_eq!(h.state().pack().name, "Guards (autosaved)");
    assert!(
        h.state().document().is_dirty(),
        "recovered changes are not saved yet"
    );
    assert_eq!(h.state().document().path(), Some(file.as_path()));
    // The file itself is untouched until Save.
    assert_eq!(std::fs::read_to_string(&file).expect("read"), DEFAULT_PACK);

    // Without a newer recovery file nothing is offered.
    io::discard_recovery(Some(&file)).expect("discard");
    let mut h = harness(EditorApp::from_file(&file));
    h.run_steps(3);
    assert!(!has(&h, "Recover unsaved changes?"));
}

#[test]
fn export_is_refused_listing_the_problems_while_errors_remain() {
    let broken = DEFAULT_PACK.replacen("\"tree\": \"cat\"", "\"tree\": \"no_such_tree\"", 1);
    let dir = temp_dir("shell", "export");
    let dest = dir.join("out.json");
    let mut app = EditorApp::from_text(&broken, "broken.json");
    app.answer_next_dialog(Some(&dest));
    let mut h = harness(app);
    h.run_steps(3);
    menu(&mut h, "File", "Export pack");
    h.get_by_label("Export…").click();
    h.run_steps(3);
    assert!(has(&h, "Export refused"));
    assert!(has(&h, "no_such_tree"));
    assert!(!dest.exists(), "nothing is written while errors remain");

    // A valid pack exports, without the editor section unless asked.
    let mut app = EditorApp::with_default_pack();
    app.answer_next_dialog(Some(&dest));
    let mut h = harness(app);
    h.run_steps(3);
    menu(&mut h, "File", "Export pack");
    h.get_by_label("Export…").click();
    h.run_steps(3);
    assert!(has(&h, "Exported to"));
    let text = std::fs::read_to_string(&dest).expect("exported");
    let exported = pack::load_str(&text);
    assert!(!exported.has_errors());
    assert!(exported.pack.expect("reads").editor.is_empty());
}

#[test]
fn new_with_unsaved_changes_asks_and_cancel_keeps_them() {
    let mut h = harness(EditorApp::with_default_pack());
    h.run_steps(2);
    rename_pack(&mut h, "Edited guards");

    menu(&mut h, "File", "New");
    assert!(has(&h, "Unsaved changes"));
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert_eq!(h.state().pack().name, "Edited guards");
    assert!(h.state().document().is_dirty());

    menu(&mut h, "File", "New");
    h.get_by_label("Discard").click();
    h.run_steps(2);
    assert_eq!(h.state().pack().name, "Untitled");
    assert!(!h.state().document().is_dirty());
}

#[test]
fn open_with_unsaved_changes_can_save_them_first() {
    let dir = temp_dir("shell", "open");
    let saved = dir.join("edited.json");
    let other = dir.join("other.json");
    std::fs::write(&other, include_str!("../../samples/plaza.json")).expect("write");
    let mut app = EditorApp::with_default_pack();
    app.answer_next_dialog(Some(&saved)); // Save as (the built-in pack has no file)
    app.answer_next_dialog(Some(&other)); // then Open
    let mut h = harness(app);
    h.run_steps(2);
    rename_pack(&mut h, "Edited guards");

    menu(&mut h, "File", "Open…");
    assert!(has(&h, "Unsaved changes"));
    h.get_by_label("Save").click();
    h.run_steps(3);
    // Saved with the canonical bytes, then the other pack opened.
    let text = std::fs::read_to_string(&saved).expect("saved");
    let reread = pack::load_str(&text).pack.expect("reads");
    assert_eq!(reread.name, "Edited guards");
    assert_eq!(text, pack::to_canonical_string(&reread));
    assert_eq!(h.state().document().path(), Some(other.as_path()));
    assert!(!h.state().document().is_dirty());
}

#[test]
fn quitting_with_unsaved_changes_asks_first() {
    let mut h = harness(EditorApp::with_default_pack());
    h.run_steps(2);
    rename_pack(&mut h, "Edited guards");
    menu(&mut h, "File", "Quit");
    assert!(has(&h, "Unsaved changes"));
    assert!(has(&h, "closing the editor"));
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!has(&h, "Unsaved changes"));
    assert!(h.state().document().is_dirty());
}

#[test]
fn undo_and_redo_through_the_edit_menu() {
    let mut h = harness(EditorApp::with_default_pack());
    h.run_steps(2);
    let before = h.state().pack().name.clone();
    rename_pack(&mut h, "Edited guards");

    menu(&mut h, "Edit", "Undo");
    assert_eq!(h.state().pack().name, before);
    assert!(!h.state().document().is_dirty(), "back at the saved state");

    menu(&mut h, "Edit", "Redo");
    assert_eq!(h.state().pack().name, "Edited guards");
    assert!(h.state().document().is_dirty());
    assert!(has(&h, "modified"));
}

#[test]
fn clicking_a_problem_opens_its_asset_and_selects_and_frames_the_item() {
    // A tree node with a bad expression, and an NPC with a missing tree.
    let broken = DEFAULT_PACK.replacen("\"tree\": \"cat\"", "\"tree\": \"no_such_tree\"", 1);
    let mut h = harness(EditorApp::from_text(&broken, "broken.json"));
    h.run_steps(3);
    let msg = h
        .state()
        .diagnostics()
        .iter()
        .find(|d| d.message.contains("no_such_tree"))
        .expect("a diagnostic names the missing tree")
        .message
        .clone();
    h.get_by_label(&msg).click();
    h.run_steps(3);
    assert_eq!(h.state().open_tabs(), vec!["NPC cat".to_string()]);

    let pack = pack::load_str(DEFAULT_PACK).pack.expect("reads");
    let tree = &pack.trees[0];
    // The last leaf: away from the middle of the fitted tree, so framing it moves the view.
    let mut child = &tree.root;
    while let Some(last) = child.children.last() {
        child = last;
    }
    let bad = DEFAULT_PACK.replacen(
        &format!("\"id\": \"{}\"", child.id),
        &format!("\"id\": \"{}\", \"bogus_field\": 1", child.id),
        1,
    );
    assert_ne!(bad, DEFAULT_PACK);
    let mut h = harness(EditorApp::from_text(&bad, "bad.json"));
    h.run_steps(3);
    let d = h
        .state()
        .diagnostics()
        .iter()
        .find(|d| d.path.contains("bogus_field"))
        .expect("the unknown field is reported")
        .clone();
    h.get_by_label(&d.message).click();
    h.run_steps(3);
    assert_eq!(h.state().open_tabs(), vec![format!("Tree {}", tree.id)]);
    let sel = &h.state().document().selection;
    assert_eq!(sel.items, vec![child.id.clone()]);
    assert_framed(&h, &tree.id, &child.id);
}

#[test]
fn theme_scale_and_recent_files_persist_between_runs() {
    let dir = temp_dir("shell", "persist");
    let file = dir.join("guards.json");
    std::fs::write(&file, DEFAULT_PACK).expect("write");
    let mut h = harness(EditorApp::from_file(&file));
    h.run_steps(2);
    assert!(h.state().is_dark());
    menu(&mut h, "View", "Light");
    menu(&mut h, "View", "150%");
    h.run_steps(2);
    assert!(!h.state().is_dark());
    assert_eq!(h.state().ui_scale(), 1.5);
    assert_eq!(h.ctx.zoom_factor(), 1.5);

    // A document tab is open; it belongs to this pack and is not saved with the layout.
    let npc = h.state().pack().world.npcs[0].clone();
    h.get_by_label(&format!("{}  ·  {}", npc.id, npc.tree))
        .click();
    h.run_steps(2);
    assert_eq!(h.state().open_tabs(), vec![format!("NPC {}", npc.id)]);
    let mut storage = MemStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    assert!(!storage.0.is_empty());
    assert!(
        storage.0.values().all(|v| !v.contains("Asset(")),
        "document tabs are not saved: {:?}",
        storage.0
    );

    let mut app = EditorApp::with_default_pack();
    app.restore(&storage);
    assert!(!app.is_dark());
    assert_eq!(app.ui_scale(), 1.5);
    let mut h = harness(app);
    h.run_steps(3);
    assert_eq!(h.ctx.zoom_factor(), 1.5);
    assert_eq!(
        h.state().recent_files().first(),
        Some(&file),
        "the file is in Open Recent"
    );
}

#[test]
fn save_writes_canonical_bytes_and_a_read_only_pack_is_never_overwritten() {
    let dir = temp_dir("shell", "save");
    let file = dir.join("guards.json");
    std::fs::write(&file, DEFAULT_PACK).expect("write");
    let mut h = harness(EditorApp::from_file(&file));
    h.run_steps(2);
    rename_pack(&mut h, "Saved guards");
    menu(&mut h, "File", "Save");
    assert!(!h.state().document().is_dirty());
    let text = std::fs::read_to_string(&file).expect("read");
    let reread = pack::load_str(&text).pack.expect("reads");
    assert_eq!(reread.name, "Saved guards");
    assert_eq!(text, pack::to_canonical_string(&reread));
    assert!(has(&h, "Saved "));

    // A pack that could not be read completely opens read-only with a banner.
    let lossy = dir.join("lossy.json");
    let text = DEFAULT_PACK.replacen("\"type\": \"", "\"type\": \"no_such_kind_", 1);
    std::fs::write(&lossy, &text).expect("write");
    let loaded = pack::load_file(&lossy);
    assert!(loaded.lossy, "an unknown node type drops the tree");
    let mut h = harness(EditorApp::from_file(&lossy));
    h.run_steps(3);
    assert!(h.state().document().is_read_only());
    assert!(has(&h, "Read-only"));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    assert!(has(&h, "saving over the file would lose"));
    assert_eq!(std::fs::read_to_string(&lossy).expect("read"), text);
}

#[test]
fn the_readme_lists_every_shortcut() {
    let readme = include_str!("../../README.md");
    let ctx = egui::Context::default();
    for s in townsfolk_editor::shortcuts::SHORTCUTS {
        let keys = ctx.format_shortcut(&s.keys);
        let row = format!("| {keys} | {} |", s.label);
        assert!(
            readme.contains(&row),
            "README is missing the shortcut row `{row}`"
        );
    }
}
