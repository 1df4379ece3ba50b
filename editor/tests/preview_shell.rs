//! UI tests of the preview and the shell around it: an NPC renamed while the preview runs
//! keeps running under its new id (labels, picking, inspector, undo), and the tree canvas
//! hides its minimap where it would cover the cards (a narrow canvas at 150 %).

mod common;

use common::{has, menu};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use townsfolk_editor::EditorApp;
use townsfolk_editor::document::{AssetKind, rename_asset};

fn rename_npc(h: &mut Harness<'_, EditorApp>, old: &str, new: &str) {
    let edit = rename_asset(h.state().pack(), AssetKind::Npc, old, new).expect("a valid rename");
    h.state_mut()
        .document_mut()
        .apply(edit)
        .expect("the rename applies");
    h.run_steps(3);
}

#[test]
fn an_npc_renamed_while_the_preview_runs_keeps_running_under_its_new_id() {
    let mut h = common::harness(EditorApp::with_default_pack());
    h.run_steps(30);
    h.state_mut().select_npc(Some("guard_1"));
    h.run_steps(2);
    let before = h.state().tick().expect("the preview runs");
    assert!(before > 0);
    rename_npc(&mut h, "guard_1", "warden");

    // Not restarted: the same session goes on.
    assert!(h.state().tick().expect("runs") >= before);
    // Drawn, picked and inspected by its new id; the selection followed it.
    assert!(h.state().npc_screen_pos("warden").is_some());
    assert!(h.state().npc_screen_pos("guard_1").is_none());
    assert_eq!(h.state().selected_npc(), Some("warden"));
    // The inspector's heading (the asset browser's row reads "warden  ·  guard").
    assert!(has(&h, "warden"));
    h.get_by_label("warden");
    // The other NPCs keep their names.
    assert!(h.state().npc_screen_pos("guard_2").is_some());

    // Undo renames it back in the running preview too.
    assert!(h.state_mut().document_mut().undo());
    h.run_steps(3);
    assert!(h.state().npc_screen_pos("guard_1").is_some());
    assert!(h.state().npc_screen_pos("warden").is_none());
    assert_eq!(h.state().selected_npc(), Some("guard_1"));

    // Two NPCs swapping names (through a third id) are followed step by step.
    rename_npc(&mut h, "guard_1", "tmp");
    rename_npc(&mut h, "guard_2", "guard_1");
    rename_npc(&mut h, "tmp", "guard_2");
    let p1 = h.state().npc_screen_pos("guard_1").expect("drawn");
    let p2 = h.state().npc_screen_pos("guard_2").expect("drawn");
    assert_ne!(p1, p2);
    // A restart runs the pack as it is now: same names, same NPCs.
    h.state_mut().reset();
    h.run_steps(2);
    assert_eq!(h.state().tick(), Some(0));
    assert!(h.state().npc_screen_pos("guard_1").is_some());
    assert!(h.state().npc_screen_pos("guard_2").is_some());
    assert!(h.state().npc_screen_pos("tmp").is_none());
}

fn open_patrol(h: &mut Harness<'_, EditorApp>) {
    h.get_by_label("patrol — Patrol").click();
    h.run_steps(4);
    assert!(
        h.state().tree_minimap_shown("patrol").is_some(),
        "patrol opened"
    );
}

#[test]
fn the_minimap_is_hidden_where_it_would_cover_the_cards() {
    // A roomy canvas at 100 %: the minimap shows.
    let mut h = Harness::builder()
        .with_size([1800.0, 1100.0])
        .with_step_dt(1.0 / 60.0)
        .build_eframe(|_cc| EditorApp::with_default_pack());
    h.run_steps(3);
    open_patrol(&mut h);
    assert_eq!(h.state().tree_minimap_shown("patrol"), Some(true));

    // The same window at 150 %: the canvas is narrow in points, the minimap goes.
    menu(&mut h, "View", "150%");
    h.run_steps(4);
    let canvas = h.state().tree_canvas_screen_rect("patrol").expect("drawn");
    assert!(
        canvas.width() < 640.0 || canvas.height() < 420.0,
        "{canvas:?}"
    );
    assert_eq!(h.state().tree_minimap_shown("patrol"), Some(false));
    // Back to 100 %: it returns.
    menu(&mut h, "View", "100%");
    h.run_steps(4);
    assert_eq!(h.state().tree_minimap_shown("patrol"), Some(true));
}
