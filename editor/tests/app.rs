//! UI tests of the editor on the bundled sample pack, driven through egui_kittest.
//!
//! The preview keeps requesting repaints while it plays, so these tests use
//! `run_steps(n)`, never `run()`.

mod common;

use common::{harness, has};

use egui::Key;
use egui_kittest::kittest::Queryable;
use townsfolk_editor::{DEFAULT_PACK, EditorApp};

#[test]
fn sample_opens_clean_and_lists_its_assets() {
    let mut h = harness(EditorApp::with_default_pack());
    h.run_steps(3);
    assert_eq!(h.state().error_count(), 0, "{:#?}", h.state().diagnostics());
    assert!(has(&h, "0 errors"));
    assert!(
        h.state().session().is_some(),
        "the sample should start a preview"
    );

    let pack = h.state().pack().clone();
    assert!(!pack.trees.is_empty());
    h.get_by_label(&format!("Trees ({})", pack.trees.len()));
    h.get_by_label(&format!("NPCs ({})", pack.world.npcs.len()));
    for tree in &pack.trees {
        let row = match &tree.name {
            Some(name) => format!("{} — {}", tree.id, name),
            None => tree.id.clone(),
        };
        assert!(
            h.query_all_by_label(&row).next().is_some(),
            "tree `{}` missing from the Assets tab",
            tree.id
        );
    }
    for npc in &pack.world.npcs {
        h.get_by_label(&format!("{}  ·  {}", npc.id, npc.tree));
    }
}

#[test]
fn the_asset_filter_narrows_every_kind() {
    let mut h = harness(EditorApp::with_default_pack());
    h.run_steps(3);
    let pack = h.state().pack().clone();
    let npc = &pack.world.npcs[0];
    use egui::accesskit::Role;
    h.get_by_role_and_label(Role::TextInput, "Filter").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::TextInput, "Filter")
        .type_text(&npc.id);
    h.run_steps(3);
    assert!(has(&h, &format!("{}  ·  {}", npc.id, npc.tree)));
    // A tree that does not match is gone from the list.
    let other = pack
        .trees
        .iter()
        .find(|t| !t.id.contains(&npc.id) && t.name.as_ref().is_none_or(|n| !n.contains(&npc.id)))
        .expect("some tree does not match");
    let row = match &other.name {
        Some(name) => format!("{} — {}", other.id, name),
        None => other.id.clone(),
    };
    assert!(h.query_all_by_label(&row).next().is_none());
}

#[test]
fn preview_runs_on_start_and_space_pauses() {
    let mut h = harness(EditorApp::with_default_pack());
    h.run_steps(10);
    assert!(h.state().is_playing());
    let t0 = h.state().tick().expect("running");
    assert!(t0 > 0, "the preview should be running on start");
    h.get_by_label("⏸ Pause");

    h.key_press(Key::Space);
    h.run_steps(1);
    assert!(!h.state().is_playing());
    let paused_at = h.state().tick().expect("running");
    h.run_steps(20);
    assert_eq!(
        h.state().tick(),
        Some(paused_at),
        "paused preview must not advance"
    );
    h.get_by_label("▶ Play");
    h.get_by_label_contains(&format!("tick {paused_at}"));

    h.key_press(Key::Space);
    h.run_steps(10);
    assert!(h.state().is_playing());
    assert!(h.state().tick().expect("running") > paused_at);
}

#[test]
fn step_advances_exactly_one_tick_and_reset_goes_back_to_zero() {
    let mut h = harness(EditorApp::with_default_pack());
    h.run_steps(5);
    h.key_press(Key::Space);
    h.run_steps(1);
    let t = h.state().tick().expect("running");

    h.key_press(Key::Period);
    h.run_steps(3);
    assert_eq!(h.state().tick(), Some(t + 1));

    h.get_by_label("⏭ Step").click();
    h.run_steps(3);
    assert_eq!(h.state().tick(), Some(t + 2));
    assert!(!h.state().is_playing(), "stepping pauses");

    h.key_press(Key::R);
    h.run_steps(2);
    assert_eq!(h.state().tick(), Some(0));
    h.get_by_label_contains("tick 0");
}

#[test]
fn top_bar_shows_the_world_hash_and_it_is_deterministic() {
    let mut a = harness(EditorApp::with_default_pack());
    let mut b = EditorApp::with_default_pack();
    a.key_press(Key::Space);
    a.run_steps(2);
    a.state_mut().reset();
    for _ in 0..50 {
        a.state_mut().step_once();
        b.step_once();
    }
    a.run_steps(2);
    let hash = a.state().session().expect("running").hash();
    assert_eq!(hash, b.session().expect("running").hash());
    a.get_by_label(&format!("hash {hash:016x}"));
    a.get_by_label("tick 50");
}

/// The toolbar keeps the hash of the tick it shows; a restart at the same tick (a new seed)
/// shows the new world's.
#[test]
fn a_new_seed_at_tick_zero_shows_its_own_hash() {
    let mut h = harness(EditorApp::with_default_pack());
    h.state_mut().set_playing(false);
    h.state_mut().reset();
    h.run_steps(2);
    let first = h.state().session().expect("running").hash();
    h.get_by_label(&format!("hash {first:016x}"));
    let seed = h.state().seed() + 1;
    h.state_mut().set_seed(seed);
    h.state_mut().set_playing(false);
    h.run_steps(2);
    assert_eq!(h.state().tick(), Some(0));
    let second = h.state().session().expect("running").hash();
    assert_ne!(first, second, "two seeds, one world at tick 0");
    h.get_by_label(&format!("hash {second:016x}"));
}

#[test]
fn selecting_an_npc_in_the_list_fills_the_inspector() {
    let mut h = harness(EditorApp::with_default_pack());
    h.run_steps(3);
    h.get_by_label("merchant  ·  merchant").click();
    h.run_steps(3);
    assert_eq!(h.state().selected_npc(), Some("merchant"));
    assert!(has(&h, "Tree merchant (live)"));
    assert!(has(&h, "Blackboard"));
    assert!(has(&h, "Inboxes"));
    assert!(has(&h, "flags.alarm"));
}

/// The conversation layer keeps its characters' `talk` inboxes apart from their other
/// inboxes: the inspector still shows a message waiting there.
#[test]
fn the_inspector_shows_a_message_waiting_in_a_talk_inbox() {
    let plaza = include_str!("../../samples/plaza.json");
    let mut app = EditorApp::from_text(plaza, "plaza.json");
    app.set_playing(false);
    // Play until some character has a message in its `talk` inbox at the end of a tick.
    let mut waiting = None;
    for _ in 0..3_000 {
        app.step_once();
        let s = app.session().expect("plaza runs");
        let w = s.world();
        waiting = (0..w.npcs.len() as u32)
            .find_map(|i| w.talk.talk_inbox(i).next().map(|m| (i, m.message, m.from)));
        if waiting.is_some() {
            break;
        }
    }
    let (i, message, from) = waiting.expect("someone gets a `talk` message in plaza");
    let (id, tree, message, from) = {
        let p = app.session().expect("plaza runs").program();
        let npc = &app.pack().world.npcs[i as usize];
        (
            npc.id.clone(),
            npc.tree.clone(),
            p.sym(message).to_string(),
            p.entity_name(from).to_string(),
        )
    };
    let mut h = harness(app);
    h.run_steps(3);
    h.get_by_label(&format!("{id}  ·  {tree}")).click();
    h.run_steps(3);
    assert_eq!(h.state().selected_npc(), Some(id.as_str()));
    assert!(!h.state().is_playing());
    assert!(has(&h, "talk  (1)"), "no `talk` inbox shown for {id}");
    assert!(
        has(&h, &format!("{message}  from {from}")),
        "the message `{message}` from {from} is not shown"
    );
}

#[test]
fn clicking_an_npc_in_the_preview_selects_it() {
    let mut h = harness(EditorApp::with_default_pack());
    h.key_press(Key::Space);
    h.run_steps(3);
    assert_ne!(h.state().selected_npc(), Some("cat"));
    let at = h.state().npc_screen_pos("cat").expect("cat is drawn");
    h.hover_at(at);
    h.drag_at(at);
    h.drop_at(at);
    h.run_steps(3);
    assert_eq!(h.state().selected_npc(), Some("cat"));
    assert!(has(&h, "Tree cat (live)"));
}

#[test]
fn a_pack_with_errors_opens_but_does_not_run() {
    let broken = DEFAULT_PACK.replacen("\"tree\": \"cat\"", "\"tree\": \"no_such_tree\"", 1);
    assert_ne!(
        broken, DEFAULT_PACK,
        "the sample should give the cat a tree"
    );
    let mut h = harness(EditorApp::from_text(&broken, "broken.json"));
    h.run_steps(3);
    assert!(h.state().error_count() >= 1);
    assert!(h.state().session().is_none());
    assert!(h.state().tick().is_none());
    assert!(has(&h, "fix them to run the preview"));
    assert!(has(&h, "no_such_tree"));
    // The assets still show.
    assert!(has(&h, "cat  ·  no_such_tree"));
}

#[test]
fn unreadable_input_shows_diagnostics_and_never_panics() {
    let mut h = harness(EditorApp::from_text("{ \"format\": ", "garbage.json"));
    h.run_steps(3);
    assert!(h.state().document().is_read_only());
    assert!(has(&h, "1 error"));
    assert!(has(&h, "invalid JSON"));
    assert!(has(&h, "could not be opened as a pack"));
    // Shortcuts on an empty editor are harmless.
    h.key_press(Key::Space);
    h.key_press(Key::Period);
    h.key_press(Key::R);
    h.run_steps(3);

    let missing = std::path::Path::new("/nonexistent/townsfolk/pack.json");
    let mut h = harness(EditorApp::from_file(missing));
    h.run_steps(2);
    assert!(has(&h, "cannot read file"));
}

/// The inspector shows the behaviors an NPC adopted from smart areas under the request nodes
/// that hold them (SPEC §2: "tools must show adopted subtrees live under their request node").
#[test]
fn the_inspector_shows_adopted_behaviors_under_their_request_node() {
    let text = include_str!("../../samples/daily_life.json");
    let mut h = harness(EditorApp::from_text(text, "daily_life.json"));
    h.key_press(Key::Space); // pause, then step deterministically
    h.run_steps(2);
    for _ in 0..120 {
        h.key_press(Key::Period);
        h.run_steps(1);
    }
    h.get_by_label("ada  ·  cycle4").click();
    h.run_steps(3);
    assert_eq!(h.state().selected_npc(), Some("ada"));
    assert!(has(&h, "adopted `work` from city"));
    assert!(has(&h, "adopted `work` from smithy"));
    assert!(has(&h, "hammer"));
}
