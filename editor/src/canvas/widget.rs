//! `canvas_ui`: one `click_and_drag` response for the whole canvas, gestures turned into
//! [`CanvasAction`]s, then painting of what is visible.

use std::collections::HashSet;
use std::hash::Hash;

use egui::{EventFilter, Key, PointerButton, Pos2, Rect, Response, Sense, Ui, Vec2, vec2};

use super::geometry::{PORT_RADIUS, Transform, edge_controls, edge_hull, port_pos};
use super::hit::{PortHit, node_at, port_at};
use super::index::{SpatialIndex, key_hash};
use super::minimap::{self, MinimapLayout};
use super::paint::{self, ERROR_RED, LOD_ZOOM, LodMesh, NodeLook, Palette};
use super::scene::Scene;
use super::state::{CanvasState, Interaction};
use crate::shortcuts::{self, Command};

/// How a selection action combines with the current selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SelectMode {
    /// The keys become the selection (empty: clear it).
    Replace,
    /// The keys are added (Shift).
    Add,
    /// Each key flips in or out (Ctrl/Cmd).
    Toggle,
}

/// What the user did on the canvas this frame; the view turns these into edits or selection
/// changes. Positions are in canvas units.
#[derive(Clone, Debug, PartialEq)]
pub enum CanvasAction<K> {
    /// Click, Ctrl-click, Shift-click, box select. An empty `Replace` clears the selection.
    Select {
        keys: Vec<K>,
        mode: SelectMode,
    },
    /// Emitted once when a drag of nodes ends: each node's new top-left corner.
    MoveNodes {
        moved: Vec<(K, Pos2)>,
    },
    /// An edge dragged from an output port onto an input port (or onto a node: its first
    /// input), or from an input onto an output (or a node: its first output). Always
    /// normalised: `from` is the output side, `to` the input side.
    Connect {
        from: (K, usize),
        to: (K, usize),
    },
    /// An edge dragged from an output port and dropped on empty canvas at `at`. (An edge dragged
    /// from an input and dropped on nothing is dropped silently.)
    ConnectToEmpty {
        from: (K, usize),
        at: Pos2,
    },
    /// Delete or Backspace while the canvas is focused, with the selection passed in.
    Delete {
        keys: Vec<K>,
    },
    DoubleClick {
        key: K,
    },
    /// A right click (on a node or on empty canvas). Show the menu with
    /// `CanvasResponse::response.context_menu`.
    ContextMenu {
        key: Option<K>,
        at: Pos2,
    },
}

/// What was drawn this frame (the debug counter the culling test and the benchmark read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CanvasStats {
    /// Nodes laid out and painted this frame.
    pub nodes_painted: usize,
    /// Edges painted this frame.
    pub edges_painted: usize,
    /// Full cards (`true`) or the zoomed-out boxes (`false`).
    pub detailed: bool,
    /// The spatial index was rebuilt this frame (the scene changed).
    pub index_rebuilt: bool,
    /// Edges naming a node that is not in the scene (not drawn).
    pub dangling_edges: usize,
}

/// The result of [`canvas_ui`].
pub struct CanvasResponse<K> {
    pub actions: Vec<CanvasAction<K>>,
    /// The whole canvas (for `context_menu`, drag-and-drop payloads, focus).
    pub response: Response,
    /// The node under the pointer.
    pub hovered: Option<K>,
    /// The pointer in canvas units, when it is over the canvas.
    pub pointer_pos: Option<Pos2>,
    /// Canvas-scope shortcuts apply: the canvas has keyboard focus, or the pointer is over it
    /// and nothing else has keyboard focus.
    pub focused: bool,
    pub stats: CanvasStats,
}

/// Per-frame scratch buffers for index queries.
#[derive(Default)]
struct Scratch {
    nodes: Vec<u32>,
    edges: Vec<u32>,
    hit: Vec<u32>,
}

/// Draws `scene` and handles the user's gestures on it. `selection` is the view's current
/// selection (the canvas never changes it; it reports `Select` actions).
pub fn canvas_ui<K: Clone + Eq + Hash>(
    ui: &mut Ui,
    state: &mut CanvasState,
    scene: &Scene<K>,
    selection: &[K],
) -> CanvasResponse<K> {
    let size = ui.available_size().max(vec2(64.0, 64.0));
    let rect = Rect::from_min_size(ui.cursor().min, size);
    let id = ui.make_persistent_id("townsfolk-canvas");
    ui.advance_cursor_after_rect(rect);
    let mut response = ui.interact(rect, id, Sense::click_and_drag());

    let flow = state.flow;
    let mut stats = CanvasStats::default();
    if !state.index.is_current(scene, flow) {
        state.index = SpatialIndex::build(scene, flow);
        stats.index_rebuilt = true;
    }
    stats.dangling_edges = state.index.dangling_edges;
    state.apply_request(rect, state.index.bounds);
    state.last_rect = Some(rect);

    let mut sc = Scratch::default();
    let mut actions = Vec::new();
    let sel_hashes: HashSet<u64> = selection.iter().map(key_hash).collect();
    let minimap = if state.minimap {
        MinimapLayout::new(rect, state.index.bounds)
    } else {
        None
    };

    // Focus: any press on the canvas takes the keyboard; arrows and Tab stay here while focused.
    if response.clicked() || response.drag_started() || response.secondary_clicked() {
        response.request_focus();
    }
    if response.has_focus() {
        ui.memory_mut(|m| {
            m.set_focus_lock_filter(
                id,
                EventFilter {
                    tab: true,
                    horizontal_arrows: true,
                    vertical_arrows: true,
                    escape: false,
                },
            )
        });
    }
    let nothing_else_focused = ui.memory(|m| m.focused().is_none_or(|f| f == id));
    let focused = response.has_focus() || (response.contains_pointer() && nothing_else_focused);

    // Scroll pans, Ctrl+scroll or pinch zooms at the pointer.
    let latest = ui.input(|i| i.pointer.latest_pos());
    if response.contains_pointer()
        && let Some(mouse) = latest
    {
        let (zoom_delta, scroll) = ui.input(|i| (i.zoom_delta(), i.smooth_scroll_delta));
        if zoom_delta != 1.0 {
            state.zoom_at(rect, mouse, zoom_delta);
        }
        if scroll != Vec2::ZERO {
            state.pan_by(scroll);
            ui.input_mut(|i| i.smooth_scroll_delta = Vec2::ZERO);
        }
    }

    let mods = ui.input(|i| i.modifiers);
    let click_mode = if mods.command {
        SelectMode::Toggle
    } else if mods.shift {
        SelectMode::Add
    } else {
        SelectMode::Replace
    };

    // Panning with the middle or right button.
    if response.dragged_by(PointerButton::Middle) || response.dragged_by(PointerButton::Secondary) {
        state.pan_by(response.drag_delta());
        state.interaction = Interaction::Pan;
    }

    let t = state.transform(rect);

    // Start of a primary drag: minimap, port, node or empty canvas.
    if response.drag_started_by(PointerButton::Primary) {
        let origin = ui
            .input(|i| i.pointer.press_origin())
            .or(latest)
            .unwrap_or(rect.center());
        state.interaction = if minimap.is_some_and(|m| m.rect.contains(origin)) {
            Interaction::Minimap
        } else if let Some(p) = port_at(&mut state.index, scene, &t, flow, origin, &mut sc.hit) {
            Interaction::Connect {
                node: state.index.hashes[p.node],
                port: p.port,
                input: p.input,
                end: t.to_canvas(origin),
            }
        } else if let Some(n) = node_at(&mut state.index, &t, origin, &mut sc.hit) {
            let h = state.index.hashes[n];
            let nodes = if sel_hashes.contains(&h) && click_mode != SelectMode::Toggle {
                selected_in_scene(&state.index, &sel_hashes)
            } else if click_mode == SelectMode::Replace {
                actions.push(CanvasAction::Select {
                    keys: vec![scene.nodes[n].key.clone()],
                    mode: SelectMode::Replace,
                });
                vec![h]
            } else {
                actions.push(CanvasAction::Select {
                    keys: vec![scene.nodes[n].key.clone()],
                    mode: SelectMode::Add,
                });
                let mut v = selected_in_scene(&state.index, &sel_hashes);
                v.push(h);
                v
            };
            Interaction::DragNodes {
                nodes,
                start: t.to_canvas(origin),
                delta: Vec2::ZERO,
            }
        } else {
            let p = t.to_canvas(origin);
            Interaction::BoxSelect {
                start: p,
                end: p,
                mode: click_mode,
            }
        };
    }

    // Drag in progress.
    let pointer_canvas = latest.map(|p| t.to_canvas(p));
    if response.dragged_by(PointerButton::Primary) {
        match &mut state.interaction {
            Interaction::DragNodes { start, delta, .. } => {
                if let Some(p) = pointer_canvas {
                    *delta = p - *start;
                }
            }
            Interaction::BoxSelect { end, .. } | Interaction::Connect { end, .. } => {
                if let Some(p) = pointer_canvas {
                    *end = p;
                }
            }
            Interaction::Minimap => {
                if let (Some(m), Some(p)) = (minimap, latest) {
                    state.center = minimap::to_canvas(&m, p);
                }
            }
            Interaction::Idle | Interaction::Pan => {}
        }
    }
    if ui.input(|i| i.key_pressed(Key::Escape)) && state.is_interacting() {
        state.interaction = Interaction::Idle;
    }

    // End of a drag (or a gesture whose drag egui no longer reports).
    if state.is_interacting() && (response.drag_stopped() || !response.dragged()) {
        let done = std::mem::take(&mut state.interaction);
        finish_gesture(
            done,
            state,
            scene,
            &t,
            pointer_canvas,
            &mut sc,
            &mut actions,
        );
    }

    // Clicks.
    let t = state.transform(rect);
    if response.clicked() {
        let at = response
            .interact_pointer_pos()
            .or(latest)
            .unwrap_or(rect.center());
        if let Some(m) = minimap.filter(|m| m.rect.contains(at)) {
            state.center = minimap::to_canvas(&m, at);
        } else if let Some(n) = node_at(&mut state.index, &t, at, &mut sc.hit) {
            actions.push(CanvasAction::Select {
                keys: vec![scene.nodes[n].key.clone()],
                mode: click_mode,
            });
        } else if click_mode == SelectMode::Replace {
            actions.push(CanvasAction::Select {
                keys: Vec::new(),
                mode: SelectMode::Replace,
            });
        }
    }
    if response.double_clicked()
        && let Some(at) = response.interact_pointer_pos().or(latest)
        && !minimap.is_some_and(|m| m.rect.contains(at))
        && let Some(n) = node_at(&mut state.index, &t, at, &mut sc.hit)
    {
        actions.push(CanvasAction::DoubleClick {
            key: scene.nodes[n].key.clone(),
        });
    }
    if response.secondary_clicked() {
        let at = response
            .interact_pointer_pos()
            .or(latest)
            .unwrap_or(rect.center());
        let key =
            node_at(&mut state.index, &t, at, &mut sc.hit).map(|n| scene.nodes[n].key.clone());
        if let Some(k) = &key
            && !sel_hashes.contains(&key_hash(k))
        {
            actions.push(CanvasAction::Select {
                keys: vec![k.clone()],
                mode: SelectMode::Replace,
            });
        }
        actions.push(CanvasAction::ContextMenu {
            key,
            at: t.to_canvas(at),
        });
    }

    // Keyboard (canvas scope).
    if focused {
        if shortcuts::consume(ui.ctx(), Command::FitView) {
            state.fit();
        }
        let delete = shortcuts::consume(ui.ctx(), Command::Delete)
            || ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Backspace));
        if delete && !selection.is_empty() {
            actions.push(CanvasAction::Delete {
                keys: selection.to_vec(),
            });
        }
    }
    // A fit asked for this frame (F) shows this frame.
    state.apply_request(rect, state.index.bounds);
    let t = state.transform(rect);

    // Hover.
    let hover_pos = latest.filter(|p| rect.contains(*p) && response.contains_pointer());
    let over_minimap = hover_pos.is_some_and(|p| minimap.is_some_and(|m| m.rect.contains(p)));
    let hovered_node = hover_pos
        .filter(|_| !over_minimap)
        .and_then(|p| node_at(&mut state.index, &t, p, &mut sc.hit));
    let hovered_port = hover_pos
        .filter(|_| !over_minimap)
        .and_then(|p| port_at(&mut state.index, scene, &t, flow, p, &mut sc.hit));

    // Paint.
    let painter = ui.painter_at(rect);
    let pal = Palette::new(ui.visuals());
    paint::paint_background(&painter, &t, &pal);
    paint_scene(
        &painter,
        state,
        scene,
        &t,
        &sel_hashes,
        hovered_node,
        hovered_port,
        &pal,
        &mut sc,
        &mut stats,
    );
    match &state.interaction {
        Interaction::BoxSelect { start, end, .. } => {
            paint::paint_box(
                &painter,
                Rect::from_two_pos(t.to_screen(*start), t.to_screen(*end)),
                &pal,
            );
        }
        Interaction::Connect {
            node,
            port,
            input,
            end,
        } => {
            if let Some(n) = state.index.node_of_hash(*node) {
                let count = if *input {
                    scene.nodes[n].inputs.len()
                } else {
                    scene.nodes[n].outputs.len()
                };
                let from = port_pos(state.index.rects[n], flow, *input, *port, count);
                paint::paint_pending_edge(&painter, &t, from, *end, *input, flow, &pal);
            }
        }
        _ => {}
    }
    if let Some(m) = &minimap {
        minimap::paint(
            &painter,
            &mut state.minimap_cache,
            m,
            &state.index,
            scene.revision,
            &scene.nodes,
            t.visible(),
            ui.visuals(),
        );
    }
    if scene.nodes.is_empty() {
        paint::paint_note(&painter, rect, "Empty graph", &pal);
    }

    if let Some(n) = hovered_node
        && let Some(err) = &scene.nodes[n].error
        && !state.is_interacting()
    {
        response = response.on_hover_text_at_pointer(err.as_str());
    }

    CanvasResponse {
        actions,
        response,
        hovered: hovered_node.map(|n| scene.nodes[n].key.clone()),
        pointer_pos: hover_pos.map(|p| t.to_canvas(p)),
        focused,
        stats,
    }
}

/// Node hashes of the selection that are in the scene, in scene order.
fn selected_in_scene(index: &SpatialIndex, sel: &HashSet<u64>) -> Vec<u64> {
    index
        .hashes
        .iter()
        .filter(|h| sel.contains(h))
        .copied()
        .collect()
}

/// Turns a finished gesture into its action.
fn finish_gesture<K: Clone + Eq + Hash>(
    done: Interaction,
    state: &mut CanvasState,
    scene: &Scene<K>,
    t: &Transform,
    pointer: Option<Pos2>,
    sc: &mut Scratch,
    actions: &mut Vec<CanvasAction<K>>,
) {
    let index = &mut state.index;
    match done {
        Interaction::DragNodes {
            nodes,
            start,
            delta,
        } => {
            let delta = pointer.map_or(delta, |p| p - start);
            if delta == Vec2::ZERO {
                return;
            }
            let moved: Vec<(K, Pos2)> = nodes
                .iter()
                .filter_map(|h| index.node_of_hash(*h))
                .map(|i| (scene.nodes[i].key.clone(), index.rects[i].min + delta))
                .collect();
            if !moved.is_empty() {
                actions.push(CanvasAction::MoveNodes { moved });
            }
        }
        Interaction::BoxSelect { start, end, mode } => {
            let r = Rect::from_two_pos(start, end);
            index.nodes_in(r, &mut sc.nodes);
            let keys = sc
                .nodes
                .iter()
                .map(|&i| scene.nodes[i as usize].key.clone())
                .collect();
            actions.push(CanvasAction::Select { keys, mode });
        }
        Interaction::Connect {
            node,
            port,
            input,
            end,
        } => {
            let Some(origin) = index.node_of_hash(node) else {
                return;
            };
            let end = pointer.unwrap_or(end);
            let screen = t.to_screen(end);
            let target: Option<(usize, usize)> =
                match port_at(index, scene, t, state.flow, screen, &mut sc.hit) {
                    Some(PortHit {
                        node: n,
                        input: i,
                        port: p,
                    }) if i != input && n != origin => Some((n, p)),
                    _ => node_at(index, t, screen, &mut sc.hit)
                        .filter(|&n| n != origin)
                        .and_then(|n| {
                            let count = if input {
                                scene.nodes[n].outputs.len()
                            } else {
                                scene.nodes[n].inputs.len()
                            };
                            (count > 0).then_some((n, 0))
                        }),
                };
            let key = |i: usize| scene.nodes[i].key.clone();
            match target {
                Some((n, p)) if input => actions.push(CanvasAction::Connect {
                    from: (key(n), p),
                    to: (key(origin), port),
                }),
                Some((n, p)) => actions.push(CanvasAction::Connect {
                    from: (key(origin), port),
                    to: (key(n), p),
                }),
                None if !input && node_at(index, t, screen, &mut sc.hit).is_none() => {
                    actions.push(CanvasAction::ConnectToEmpty {
                        from: (key(origin), port),
                        at: end,
                    })
                }
                None => {}
            }
        }
        Interaction::Idle | Interaction::Pan | Interaction::Minimap => {}
    }
}

/// Paints the visible edges and nodes (and the dragged ones at their offset).
#[allow(clippy::too_many_arguments)]
fn paint_scene<K>(
    painter: &egui::Painter,
    state: &mut CanvasState,
    scene: &Scene<K>,
    t: &Transform,
    sel: &HashSet<u64>,
    hovered: Option<usize>,
    hovered_port: Option<PortHit>,
    pal: &Palette,
    sc: &mut Scratch,
    stats: &mut CanvasStats,
) {
    let flow = state.flow;
    let index = &mut state.index;
    let visible = t.visible();
    let margin = (PORT_RADIUS + 8.0).max(4.0 / t.zoom);
    let query = visible.expand(margin);

    // The dragged nodes (sorted indices) and their offset.
    let (mut moving, offset): (Vec<u32>, Vec2) = match &state.interaction {
        Interaction::DragNodes { nodes, delta, .. } => (
            nodes
                .iter()
                .filter_map(|h| index.node_of_hash(*h))
                .map(|i| i as u32)
                .collect(),
            *delta,
        ),
        _ => (Vec::new(), Vec2::ZERO),
    };
    moving.sort_unstable();
    moving.dedup();
    let is_moving = |i: u32| !moving.is_empty() && moving.binary_search(&i).is_ok();
    let off = |i: u32| if is_moving(i) { offset } else { Vec2::ZERO };

    index.nodes_in(query, &mut sc.nodes);
    index.edges_in(query, &mut sc.edges);
    if !moving.is_empty() {
        for &m in &moving {
            sc.edges.extend_from_slice(index.edges_of(m as usize));
        }
        sc.edges.sort_unstable();
        sc.edges.dedup();
        sc.nodes.retain(|&i| !is_moving(i));
        sc.nodes.extend(
            moving
                .iter()
                .copied()
                .filter(|&i| index.rects[i as usize].translate(offset).intersects(query)),
        );
    }

    let detailed = t.zoom >= LOD_ZOOM;
    stats.detailed = detailed;
    let mut lod = (!detailed).then(|| LodMesh::new(sc.nodes.len(), sc.edges.len()));

    for &k in &sc.edges {
        let e = index.edges[k as usize];
        let from = &scene.nodes[e.from as usize];
        let to = &scene.nodes[e.to as usize];
        let a = port_pos(
            index.rects[e.from as usize].translate(off(e.from)),
            flow,
            false,
            e.from_port as usize,
            from.outputs.len(),
        );
        let b = port_pos(
            index.rects[e.to as usize].translate(off(e.to)),
            flow,
            true,
            e.to_port as usize,
            to.inputs.len(),
        );
        if !edge_hull(a, b, flow).intersects(query) {
            continue;
        }
        stats.edges_painted += 1;
        let ev = &scene.edges[e.edge as usize];
        match &mut lod {
            Some(mesh) => mesh.edge(
                edge_controls(a, b, flow).map(|p| t.to_screen(p)),
                ev.color.gamma_multiply(0.8),
            ),
            None => paint::paint_edge(painter, t, a, b, flow, ev.color, ev.label.as_deref(), pal),
        }
    }

    for &i in &sc.nodes {
        let node = &scene.nodes[i as usize];
        let rect = index.rects[i as usize].translate(off(i));
        let selected = sel.contains(&index.hashes[i as usize]);
        stats.nodes_painted += 1;
        match &mut lod {
            Some(mesh) => {
                let rim = if node.error.is_some() {
                    Some(ERROR_RED)
                } else if selected {
                    Some(pal.selection)
                } else {
                    node.status
                };
                let fill = if node.disabled {
                    node.color.gamma_multiply(0.4)
                } else {
                    node.color
                };
                mesh.node(t.rect_to_screen(rect), fill, rim);
            }
            None => {
                let look = NodeLook {
                    selected,
                    hovered: hovered == Some(i as usize),
                    hovered_port: hovered_port
                        .filter(|p| p.node == i as usize)
                        .map(|p| (p.input, p.port)),
                };
                paint::paint_node(painter, t, node, rect, flow, look, pal);
            }
        }
    }
    if let Some(mesh) = lod {
        mesh.finish(painter);
    }
}
