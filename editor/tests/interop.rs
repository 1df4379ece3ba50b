//! UI tests of File ▸ Import (BehaviorTree.CPP XML, behavior3 JSON) and File ▸ Export ▸
//! BehaviorTree.CPP XML, on the real files in runtime/tests/interop/. The file dialogs are
//! answered in advance (`answer_next_dialog`), so the menu path itself runs.

mod common;

use std::path::{Path, PathBuf};

use common::{copy_sample, harness, has, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use townsfolk_editor::EditorApp;
use townsfolk_editor::io::ImportFormat;
use townsfolk_runtime::interop;
use townsfolk_runtime::pack::{self, Node, NodeKind};

fn interop_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime/tests/interop")
        .join(rel)
}

/// Clicks File, then the submenu `sub`, then its item `item`.
fn submenu(h: &mut Harness<'_, EditorApp>, sub: &str, item: &str) {
    h.get_by_label("File").click();
    h.run_steps(2);
    // A submenu's button shows an arrow after its name.
    h.get_by_label(&format!("{sub} ⏵")).click();
    h.run_steps(2);
    h.get_by_label(item).click();
    h.run_steps(3);
}

fn tree_ids(app: &EditorApp) -> Vec<String> {
    app.pack().trees.iter().map(|t| t.id.clone()).collect()
}

fn subtree_refs(n: &Node, out: &mut Vec<String>) {
    if let NodeKind::Subtree { tree, .. } = &n.kind {
        out.push(tree.clone());
    }
    for c in &n.children {
        subtree_refs(c, out);
    }
}

#[test]
fn importing_btcpp_through_the_menu_adds_the_trees_as_one_undo_step() {
    let dir = temp_dir("interop", "menu");
    let file = copy_sample(&dir, "guards");
    let before = tree_ids(&EditorApp::from_file(&file));
    let mut app = EditorApp::from_file(&file);
    let xml = interop_file("btcpp/test_files/subtree_test.xml");
    app.answer_next_dialog(Some(&xml));
    let mut h = harness(app);
    h.run_steps(2);
    submenu(&mut h, "Import", "BehaviorTree.CPP XML…");

    // The trees are in the pack, after its own, node by node as the CLI imports them.
    let expected = interop::import_btcpp_file(&xml).expect("the file imports");
    let ids = tree_ids(h.state());
    assert_eq!(ids[..before.len()], before[..]);
    assert_eq!(
        ids[before.len()..],
        ["BehaviorTree", "CheckStatus", "SayStuff"]
    );
    for t in &expected.pack.trees {
        assert_eq!(h.state().pack().tree(&t.id), Some(t), "tree `{}`", t.id);
    }
    assert!(h.state().document().is_dirty());

    // The report: a window, and the section at the top of the problems tab.
    assert!(has(&h, "Import report"));
    assert!(has(
        &h,
        "Imported 3 trees from subtree_test.xml (BehaviorTree.CPP XML): 3 warnings, 6 placeholders to map"
    ));
    assert!(has(
        &h,
        "Import of subtree_test.xml: 3 warnings, 6 placeholders to map"
    ));
    assert!(has(
        &h,
        "Action `OpenGripper` is tree `BehaviorTree` node `n2`"
    ));
    assert!(has(&h, "subtrees/Talk.xml:4"));
    assert_eq!(h.state().import_report(), Some(&expected.report));
    // The first imported tree opened.
    assert!(
        h.state()
            .open_tabs()
            .contains(&"Tree BehaviorTree".to_string()),
        "{:?}",
        h.state().open_tabs()
    );

    // One undo removes every imported tree; redo puts them back.
    common::menu(&mut h, "Edit", "Undo Import 3 trees from subtree_test.xml");
    h.run_steps(1);
    assert_eq!(tree_ids(h.state()), before);
    assert!(!h.state().document().is_dirty());
    assert!(h.state_mut().document_mut().redo());
    h.run_steps(2);
    assert_eq!(tree_ids(h.state()).len(), before.len() + 3);
}

#[test]
fn an_import_whose_ids_clash_renames_them_and_the_subtree_references_follow() {
    let mut app = EditorApp::with_default_pack();
    let xml = interop_file("btcpp/test_files/subtree_test.xml");
    assert!(app.import_trees_from(&xml, ImportFormat::Btcpp));
    let n = app.pack().trees.len();
    assert!(app.import_trees_from(&xml, ImportFormat::Btcpp));
    let ids = tree_ids(&app);
    assert_eq!(ids.len(), n + 3);
    assert_eq!(ids[n..], ["BehaviorTree_2", "CheckStatus_2", "SayStuff_2"]);
    let mut refs = Vec::new();
    let main = app.pack().tree("BehaviorTree_2").expect("imported again");
    subtree_refs(&main.root, &mut refs);
    assert_eq!(refs, ["CheckStatus_2", "SayStuff_2"]);
    // The report names the placeholders' trees by their ids in the pack.
    let report = app.import_report().expect("a report");
    assert!(
        report
            .placeholders
            .iter()
            .any(|p| p.tree == "SayStuff_2" && p.source_type == "SayHello"),
        "{:?}",
        report.placeholders
    );
    assert!(report.placeholders.iter().all(|p| p.tree.ends_with("_2")));
    // Each import is its own undo step.
    assert!(app.document_mut().undo());
    assert_eq!(tree_ids(&app).len(), n);
}

#[test]
fn a_behavior3_workspace_imports_whole_and_a_bad_file_changes_nothing() {
    let mut app = EditorApp::with_default_pack();
    let before = tree_ids(&app);
    let ws = interop_file("behavior3/workspace.b3-workspace");
    let expected = interop::import_behavior3_file(&ws).expect("the workspace imports");
    assert!(app.import_trees_from(&ws, ImportFormat::Behavior3));
    assert_eq!(
        app.pack().trees.len(),
        before.len() + expected.pack.trees.len()
    );
    for t in &expected.pack.trees {
        assert_eq!(app.pack().tree(&t.id), Some(t), "tree `{}`", t.id);
    }

    // An include leaving the file's folder is refused, named; the pack is unchanged.
    let revision = app.document().revision();
    let outside = interop_file("btcpp/include_tests/child/child_include_parent.xml");
    let mut h = harness(app);
    h.state_mut().answer_next_dialog(Some(&outside));
    h.run_steps(2);
    submenu(&mut h, "Import", "BehaviorTree.CPP XML…");
    assert!(has(&h, "Could not import"));
    assert!(has(&h, "include `../parent_no_include.xml` refused"));
    assert_eq!(h.state().document().revision(), revision);
}

#[test]
fn export_btcpp_is_refused_while_errors_remain_and_writes_the_cli_bytes() {
    let dir = temp_dir("interop", "export");
    let file = copy_sample(&dir, "guards");
    let dest = dir.join("guards.xml");

    // A pack with an error: refused, with the problem listed, nothing asked or written.
    let text = std::fs::read_to_string(&file).expect("read").replacen(
        "\"tree\": \"",
        "\"tree\": \"missing_",
        1,
    );
    let bad = dir.join("bad.json");
    std::fs::write(&bad, text).expect("write");
    let mut app = EditorApp::from_file(&bad);
    app.answer_next_dialog(Some(&dest));
    let mut h = harness(app);
    h.run_steps(2);
    submenu(&mut h, "Export", "BehaviorTree.CPP XML…");
    h.get_by_label("Export XML…").click();
    h.run_steps(3);
    assert!(has(&h, "Export refused"));
    assert!(has(&h, "missing_"));
    assert!(!dest.exists());

    // A valid pack: the dialog's file gets exactly what `townsfolk export btcpp` writes.
    let mut app = EditorApp::from_file(&file);
    app.answer_next_dialog(Some(&dest));
    let mut h = harness(app);
    h.run_steps(2);
    submenu(&mut h, "Export", "BehaviorTree.CPP XML…");
    h.get_by_label("Export XML…").click();
    h.run_steps(3);
    assert!(has(&h, "Exported"), "no success message");
    let written = std::fs::read_to_string(&dest).expect("the XML is written");
    let p = pack::load_file(&file).pack.expect("reads");
    assert_eq!(written, interop::export_btcpp(&p).expect("exports"));
    assert!(!has(&h, "Export refused"));
}
