//! UI tests of mods and folder packs in the editor: a pack with `extends` opens over its
//! base, the asset browser marks what the mod adds (+) or changes (~), saving writes only the
//! mod's delta (canonical bytes) and never the base; File ▸ Open Mod over Base… for a mod
//! without `extends`; Export pack as a folder, and opening and saving a folder pack.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{by_label_on_row, copy_sample, harness, has, menu, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use townsfolk_editor::EditorApp;
use townsfolk_editor::document::{Edit, TreeOp};
use townsfolk_runtime::mods;
use townsfolk_runtime::pack::{self, Pack};

/// `samples/mods/third_pub.json` beside a copy of daily_life, its `extends` pointing there
/// (or removed). Returns (base, mod).
fn third_pub(dir: &Path, extends: bool) -> (PathBuf, PathBuf) {
    let base = copy_sample(dir, "daily_life");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/mods/third_pub.json"),
    )
    .expect("the sample mod");
    let text = if extends {
        text.replace("\"../daily_life.json\"", "\"daily_life.json\"")
    } else {
        text.replace("  \"extends\": [\"../daily_life.json\"],\n", "")
    };
    assert_eq!(text.contains("extends"), extends);
    let m = dir.join("third_pub.json");
    std::fs::write(&m, text).expect("write the mod");
    (base, m)
}

fn rename_tree_display(h: &mut Harness<'_, EditorApp>, tree: &str, name: &str) {
    h.state_mut()
        .document_mut()
        .apply(Edit::Tree {
            tree: tree.into(),
            op: TreeOp::SetInfo {
                name: Some(name.into()),
                comment: None,
            },
        })
        .expect("a valid edit");
    h.run_steps(3);
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).expect("read")
}

#[test]
fn a_mod_with_extends_opens_over_its_base_and_saves_only_its_delta() {
    let dir = temp_dir("mods", "extends");
    let (base, m) = third_pub(&dir, true);
    let base_text = read(&base);
    let mod_text = read(&m);
    let mut h = harness(EditorApp::from_file(&m));
    h.run_steps(3);
    h.state_mut()
        .document_mut()
        .wait_for_checks(std::time::Duration::from_secs(20));
    h.run_steps(2);

    // The merged pack: the base's areas and the mod's pub.
    let p = h.state().pack();
    assert!(p.areas.iter().any(|a| a.id == "pub_green"));
    assert!(p.areas.iter().any(|a| a.id == "pub_red"));
    assert!(!h.state().document().is_read_only());
    assert_eq!(h.state().error_count(), 0, "{:?}", h.state().diagnostics());
    assert!(
        h.state().session().is_some(),
        "the preview runs the merged pack"
    );
    // The browser says so and marks the mod's asset.
    assert!(has(&h, "Mod third_pub.json over daily_life.json"));
    assert!(by_label_on_row(&h, "pub_green — The Green Man", "+").is_some());
    assert!(by_label_on_row(&h, "pub_red", "+").is_none());
    assert!(by_label_on_row(&h, "pub_red", "~").is_none());

    // An edit of a base asset marks it changed.
    rename_tree_display(&mut h, "drink_ale", "Ale, cheaper");
    assert!(by_label_on_row(&h, "drink_ale — Ale, cheaper", "~").is_some());

    // Save: the mod file gets the delta, in canonical bytes; the base is untouched.
    menu(&mut h, "File", "Save");
    assert!(!h.state().document().is_dirty());
    assert_eq!(read(&base), base_text, "the base file is never written");
    let saved = read(&m);
    assert_ne!(saved, mod_text);
    let base_pack: Pack = pack::load_str(&base_text).pack.expect("the base reads");
    let extends = ["daily_life.json".to_string()];
    assert_eq!(
        saved,
        mods::mod_document(&base_pack, h.state().pack(), &extends)
    );
    assert!(saved.contains("\"pub_green\"") && saved.contains("Ale, cheaper"));
    assert!(
        !saved.contains("\"pub_red\""),
        "unchanged base assets are not saved"
    );
    assert!(saved.len() < base_text.len() / 2, "only the delta");

    // Reopened, the mod gives the edited pack back.
    let again = EditorApp::from_file(&m);
    assert_eq!(
        again
            .pack()
            .tree("drink_ale")
            .and_then(|t| t.name.as_deref()),
        Some("Ale, cheaper")
    );
    assert_eq!(again.pack().areas.len(), h.state().pack().areas.len());
}

#[test]
fn open_mod_over_base_merges_a_mod_without_extends() {
    let dir = temp_dir("mods", "over");
    let (base, m) = third_pub(&dir, false);
    let base_text = read(&base);
    let mut app = EditorApp::with_default_pack();
    app.answer_next_dialog(Some(&base));
    app.answer_next_dialog(Some(&m));
    let mut h = harness(app);
    h.run_steps(2);
    menu(&mut h, "File", "Open Mod over Base…");
    h.run_steps(3);
    assert!(h.state().pack().areas.iter().any(|a| a.id == "pub_green"));
    assert!(h.state().pack().areas.iter().any(|a| a.id == "home_ada"));
    assert_eq!(h.state().document().path(), Some(m.as_path()));
    assert!(by_label_on_row(&h, "pub_green — The Green Man", "+").is_some());

    rename_tree_display(&mut h, "drink_ale", "Dark ale");
    menu(&mut h, "File", "Save");
    assert_eq!(read(&base), base_text);
    let saved = read(&m);
    assert!(!saved.contains("extends"), "the mod declared no base");
    assert!(!saved.contains("\"home_ada\""), "only the delta is saved");
    let r = mods::resolve_files(&[base.clone(), m.clone()]);
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    assert_eq!(r.pack.as_ref(), Some(h.state().pack()));
}

#[test]
fn export_as_a_folder_then_open_and_save_the_folder_pack() {
    let dir = temp_dir("mods", "folder");
    let file = copy_sample(&dir, "guards");
    let out = dir.join("guards_folder");
    let mut app = EditorApp::from_file(&file);
    app.answer_next_dialog(Some(&out));
    let mut h = harness(app);
    h.run_steps(2);
    menu(&mut h, "File", "Export pack");
    h.get_by_label("As a folder (pack.json and one file per asset)")
        .click();
    h.run_steps(2);
    h.get_by_label("Export…").click();
    h.run_steps(3);
    assert!(has(&h, "Exported to"));
    assert!(out.join("pack.json").is_file());
    let patrol = out.join("trees/patrol.json");
    assert!(patrol.is_file());
    let original = h.state().pack().clone();

    // Open the folder: the same pack; save an edit: only that tree's file changes.
    let guard_before = read(&out.join("trees/guard.json"));
    let patrol_before = read(&patrol);
    let mut app = EditorApp::with_default_pack();
    app.answer_next_dialog(Some(&out));
    let mut h = harness(app);
    h.run_steps(2);
    menu(&mut h, "File", "Open Folder Pack…");
    h.run_steps(3);
    assert_eq!(h.state().document().path(), Some(out.as_path()));
    let mut expected = original.clone();
    expected.editor = Default::default();
    assert_eq!(h.state().pack(), &expected);
    rename_tree_display(&mut h, "patrol", "Night patrol");
    // A change of pack.json too (the watched file).
    let comment = h.state().pack().comment.clone();
    h.state_mut()
        .document_mut()
        .apply(Edit::PackInfo {
            name: "Guards at night".into(),
            comment,
        })
        .expect("a valid edit");
    h.run_steps(2);
    menu(&mut h, "File", "Save");
    assert!(!h.state().document().is_dirty(), "saved");
    assert_ne!(read(&patrol), patrol_before);
    assert!(read(&patrol).contains("Night patrol"));
    assert_eq!(read(&out.join("trees/guard.json")), guard_before);
    assert!(!out.join("guards_folder.json").exists());
    let r = mods::resolve_files(std::slice::from_ref(&out));
    assert_eq!(r.pack.as_ref(), Some(h.state().pack()));

    // Our own save is not a change on disk; another program's edit of pack.json is.
    assert!(!wait_for_label(&mut h, "The file changed on disk.", 1.5));
    let head = out.join("pack.json");
    assert!(read(&head).contains("Guards at night"));
    let edited = read(&head).replacen("\"Guards at night\"", "\"Renamed outside\"", 1);
    assert_ne!(edited, read(&head));
    std::fs::write(&head, edited).expect("write");
    assert!(wait_for_label(&mut h, "The file changed on disk.", 10.0));
}

/// Runs frames (real time passing, for the file watcher) until `text` shows, for at most
/// `secs` seconds.
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
