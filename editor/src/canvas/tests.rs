//! Interaction tests through egui_kittest: real pointer and key events into `canvas_ui`.

use egui::{Color32, Event, Key, Modifiers, PointerButton, Pos2, Rect, Vec2, pos2, vec2};
use egui_kittest::Harness;

use super::*;

const SIZE: Vec2 = Vec2::new(800.0, 600.0);

struct T {
    canvas: CanvasState,
    scene: Scene<String>,
    selection: Vec<String>,
    actions: Vec<CanvasAction<String>>,
    stats: CanvasStats,
    hovered: Option<String>,
}

fn node(key: &str, x: f32, y: f32) -> NodeView<String> {
    let mut n = NodeView::new(
        key.to_owned(),
        Rect::from_min_size(pos2(x, y), vec2(120.0, 60.0)),
        key,
    );
    n.inputs = vec![Port::new(Color32::LIGHT_GRAY)];
    n.outputs = vec![Port::new(Color32::LIGHT_GRAY)];
    n
}

/// A, B side by side, C under A; edge A → C.
fn small_scene() -> Scene<String> {
    Scene {
        revision: 1,
        nodes: vec![
            node("A", 100.0, 100.0),
            node("B", 300.0, 100.0),
            node("C", 100.0, 300.0),
        ],
        edges: vec![EdgeView::new("A".to_owned(), "C".to_owned())],
    }
}

/// A harness where canvas units equal screen points (zoom 1, no fit).
fn harness(scene: Scene<String>) -> Harness<'static, T> {
    let mut canvas = CanvasState::new();
    canvas.set_view(SIZE.to_pos2() * 0.5, 1.0);
    let t = T {
        canvas,
        scene,
        selection: Vec::new(),
        actions: Vec::new(),
        stats: CanvasStats::default(),
        hovered: None,
    };
    let mut h = Harness::builder()
        .with_size(SIZE)
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(
            |ui, t: &mut T| {
                let r = canvas_ui(ui, &mut t.canvas, &t.scene, &t.selection);
                t.actions.extend(r.actions);
                t.stats = r.stats;
                t.hovered = r.hovered;
            },
            t,
        );
    h.run();
    h.state_mut().actions.clear();
    h
}

fn press(h: &mut Harness<'_, T>, pos: Pos2, pressed: bool, modifiers: Modifiers) {
    h.event(Event::PointerMoved(pos));
    h.event(Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers,
    });
    h.run();
}

fn click(h: &mut Harness<'_, T>, pos: Pos2, modifiers: Modifiers) {
    h.event(Event::ModifiersChanged(modifiers));
    press(h, pos, true, modifiers);
    press(h, pos, false, modifiers);
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run();
}

/// Press at `from`, move in steps to `to`, release there.
fn drag(h: &mut Harness<'_, T>, from: Pos2, to: Pos2) {
    press(h, from, true, Modifiers::NONE);
    for k in 1..=5 {
        h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 5.0)));
        h.run();
    }
    press(h, to, false, Modifiers::NONE);
}

fn sel(keys: &[&str], mode: SelectMode) -> CanvasAction<String> {
    CanvasAction::Select {
        keys: keys.iter().map(|k| k.to_string()).collect(),
        mode,
    }
}

#[test]
fn click_selects_and_click_on_empty_clears() {
    let mut h = harness(small_scene());
    click(&mut h, pos2(150.0, 130.0), Modifiers::NONE);
    assert_eq!(h.state().actions, vec![sel(&["A"], SelectMode::Replace)]);
    h.state_mut().actions.clear();
    click(&mut h, pos2(250.0, 250.0), Modifiers::NONE);
    assert_eq!(h.state().actions, vec![sel(&[], SelectMode::Replace)]);
}

#[test]
fn ctrl_click_toggles_and_shift_click_adds() {
    let mut h = harness(small_scene());
    h.state_mut().selection = vec!["A".to_owned()];
    click(&mut h, pos2(350.0, 130.0), Modifiers::COMMAND);
    assert_eq!(h.state().actions, vec![sel(&["B"], SelectMode::Toggle)]);
    h.state_mut().actions.clear();
    click(&mut h, pos2(150.0, 330.0), Modifiers::SHIFT);
    assert_eq!(h.state().actions, vec![sel(&["C"], SelectMode::Add)]);
}

#[test]
fn box_select_picks_the_nodes_it_touches() {
    let mut h = harness(small_scene());
    drag(&mut h, pos2(50.0, 50.0), pos2(450.0, 200.0));
    assert_eq!(
        h.state().actions,
        vec![sel(&["A", "B"], SelectMode::Replace)]
    );
}

#[test]
fn dragging_a_node_gives_one_move_with_the_delta() {
    let mut h = harness(small_scene());
    drag(&mut h, pos2(150.0, 130.0), pos2(200.0, 160.0));
    let moves: Vec<_> = h
        .state()
        .actions
        .iter()
        .filter(|a| matches!(a, CanvasAction::MoveNodes { .. }))
        .collect();
    assert_eq!(moves.len(), 1, "{:?}", h.state().actions);
    assert_eq!(
        moves[0],
        &CanvasAction::MoveNodes {
            moved: vec![("A".to_owned(), pos2(150.0, 130.0))]
        }
    );
    // The unselected node it grabbed became the selection first.
    assert_eq!(h.state().actions[0], sel(&["A"], SelectMode::Replace));
}

#[test]
fn dragging_a_selected_node_moves_the_whole_selection() {
    let mut h = harness(small_scene());
    h.state_mut().selection = vec!["B".to_owned(), "A".to_owned()];
    drag(&mut h, pos2(350.0, 130.0), pos2(340.0, 150.0));
    assert_eq!(
        h.state().actions,
        vec![CanvasAction::MoveNodes {
            moved: vec![
                ("A".to_owned(), pos2(90.0, 120.0)),
                ("B".to_owned(), pos2(290.0, 120.0))
            ]
        }]
    );
}

#[test]
fn dragging_from_a_port_connects_or_asks_for_a_new_node() {
    let mut h = harness(small_scene());
    // B's output (bottom centre) onto C's input (top centre).
    drag(&mut h, pos2(360.0, 160.0), pos2(160.0, 301.0));
    assert_eq!(
        h.state().actions,
        vec![CanvasAction::Connect {
            from: ("B".to_owned(), 0),
            to: ("C".to_owned(), 0)
        }]
    );
    h.state_mut().actions.clear();
    // C's input dragged onto B's body: B becomes the parent (normalised output → input).
    drag(&mut h, pos2(160.0, 300.0), pos2(350.0, 120.0));
    assert_eq!(
        h.state().actions,
        vec![CanvasAction::Connect {
            from: ("B".to_owned(), 0),
            to: ("C".to_owned(), 0)
        }]
    );
    h.state_mut().actions.clear();
    // A's output onto empty canvas.
    drag(&mut h, pos2(160.0, 160.0), pos2(400.0, 420.0));
    assert_eq!(
        h.state().actions,
        vec![CanvasAction::ConnectToEmpty {
            from: ("A".to_owned(), 0),
            at: pos2(400.0, 420.0)
        }]
    );
}

#[test]
fn delete_key_deletes_the_selection_when_focused() {
    let mut h = harness(small_scene());
    h.state_mut().selection = vec!["A".to_owned()];
    click(&mut h, pos2(150.0, 130.0), Modifiers::NONE);
    h.state_mut().actions.clear();
    h.key_press(Key::Delete);
    h.run();
    assert_eq!(
        h.state().actions,
        vec![CanvasAction::Delete {
            keys: vec!["A".to_owned()]
        }]
    );
}

#[test]
fn double_click_and_right_click() {
    let mut h = harness(small_scene());
    click(&mut h, pos2(150.0, 330.0), Modifiers::NONE);
    click(&mut h, pos2(150.0, 330.0), Modifiers::NONE);
    assert!(
        h.state().actions.contains(&CanvasAction::DoubleClick {
            key: "C".to_owned()
        }),
        "{:?}",
        h.state().actions
    );
    h.state_mut().actions.clear();
    let at = pos2(350.0, 130.0);
    h.event(Event::PointerMoved(at));
    h.event(Event::PointerButton {
        pos: at,
        button: PointerButton::Secondary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.event(Event::PointerButton {
        pos: at,
        button: PointerButton::Secondary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    assert_eq!(
        h.state().actions,
        vec![
            sel(&["B"], SelectMode::Replace),
            CanvasAction::ContextMenu {
                key: Some("B".to_owned()),
                at
            }
        ]
    );
}

#[test]
fn fit_frames_every_node() {
    let mut scene = small_scene();
    scene.nodes.push(node("far", 3000.0, 2000.0));
    let mut h = harness(scene);
    h.state_mut().canvas.fit();
    h.run();
    let bounds = h.state().scene.bounds();
    let vis = h.state().canvas.visible_rect().unwrap_or(Rect::NOTHING);
    assert!(
        vis.contains_rect(bounds),
        "{vis:?} should contain {bounds:?}"
    );
    // Tight: the bounds fill the view in one direction (up to the margin).
    let fill = (bounds.width() / vis.width()).max(bounds.height() / vis.height());
    assert!(fill > 0.85, "fill {fill}");

    // F does the same after the view was moved away.
    h.state_mut().canvas.set_view(pos2(-5000.0, 0.0), 2.0);
    click(&mut h, pos2(20.0, 20.0), Modifiers::NONE);
    h.key_press(Key::F);
    h.run();
    let vis = h.state().canvas.visible_rect().unwrap_or(Rect::NOTHING);
    assert!(
        vis.contains_rect(bounds),
        "after F: {vis:?} should contain {bounds:?}"
    );
}

#[test]
fn only_visible_nodes_are_painted_in_a_big_scene() {
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    for i in 0..10_000usize {
        let (x, y) = ((i % 100) as f32 * 200.0, (i / 100) as f32 * 120.0);
        nodes.push(node(&format!("n{i}"), x, y));
        if i >= 100 {
            edges.push(EdgeView::new(format!("n{}", i - 100), format!("n{i}")));
        }
    }
    let scene = Scene {
        revision: 7,
        nodes,
        edges,
    };
    let mut h = harness(scene);
    h.run();
    let vis = h.state().canvas.visible_rect().unwrap_or(Rect::NOTHING);
    let expected = h
        .state()
        .scene
        .nodes
        .iter()
        .filter(|n| n.rect.intersects(vis.expand(13.0)))
        .count();
    let stats = h.state().stats;
    assert!(stats.detailed);
    assert_eq!(stats.nodes_painted, expected);
    assert!(stats.nodes_painted < 60, "{stats:?}");
    assert!(stats.edges_painted < 80, "{stats:?}");
    assert!(
        !stats.index_rebuilt,
        "the index is built once, not every frame"
    );
    let shapes = h.output().shapes.len();
    assert!(
        shapes < 1_500,
        "{shapes} shapes for {} visible nodes",
        stats.nodes_painted
    );

    // Zoomed out to the whole scene: every node, as boxes in one mesh.
    h.state_mut().canvas.fit();
    h.run();
    let stats = h.state().stats;
    assert!(!stats.detailed);
    assert_eq!(stats.nodes_painted, 10_000);
    let shapes = h.output().shapes.len();
    assert!(shapes < 100, "{shapes} shapes when zoomed out");
}

#[test]
fn scroll_pans_and_ctrl_scroll_zooms_at_the_pointer() {
    let mut h = harness(small_scene());
    let at = pos2(160.0, 130.0);
    h.event(Event::PointerMoved(at));
    h.run();
    let before = h.state().canvas.center();
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: vec2(0.0, -50.0),
        phase: egui::TouchPhase::Move,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(60);
    assert!(
        h.state().canvas.center().y > before.y,
        "scrolling down moves the view down"
    );
    let center = h.state().canvas.center();
    let anchor = center + (at - SIZE.to_pos2() * 0.5) / h.state().canvas.zoom();
    h.event(Event::Zoom(1.5));
    h.step();
    let c = &h.state().canvas;
    let z = c.zoom();
    assert!((z - 1.5).abs() < 1e-3, "zoom {z}");
    let anchor_after = c.center() + (at - SIZE.to_pos2() * 0.5) / z;
    assert!(
        (anchor_after - anchor).length() < 0.5,
        "{anchor:?} stays under the pointer: {anchor_after:?}"
    );
}
