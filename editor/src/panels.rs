//! Side panels: the asset lists, the diagnostics list and the NPC inspector.

use egui::{CollapsingHeader, Color32, RichText, ScrollArea};
use townsfolk_runtime::bt::Status;
use townsfolk_runtime::pack::{Diagnostic, Node, Pack, Shape};
use townsfolk_runtime::value::{EntityId, Value};
use townsfolk_runtime::{Program, Session};

use crate::app::Document;
use crate::preview;

pub(crate) const ERROR_COLOR: Color32 = Color32::from_rgb(235, 87, 87);
pub(crate) const WARNING_COLOR: Color32 = Color32::from_rgb(240, 180, 50);
const OK_COLOR: Color32 = Color32::from_rgb(90, 200, 120);

/// Colour of a node status in the inspector.
pub(crate) fn status_color(s: Status) -> Color32 {
    match s {
        Status::Running => Color32::from_rgb(255, 191, 0),
        Status::Success => Color32::from_rgb(90, 200, 120),
        Status::Failure => Color32::from_rgb(235, 87, 87),
        Status::Idle => Color32::from_gray(130),
    }
}

/// Colour of a node type, by category (composite, decorator, condition, action, reference).
fn type_color(type_name: &str) -> Color32 {
    match type_name {
        "sequence" | "selector" | "parallel" | "random_selector" => {
            Color32::from_rgb(110, 160, 255)
        }
        "inverter" | "force_success" | "force_failure" | "repeat" | "retry" | "cooldown"
        | "timeout" | "guard" => Color32::from_rgb(190, 140, 255),
        "condition" | "in_area" | "time_window" | "has_message" | "chance" => {
            Color32::from_rgb(80, 200, 200)
        }
        "subtree" | "request" => Color32::from_rgb(255, 130, 190),
        _ => Color32::from_rgb(235, 160, 90),
    }
}

/// "1 error", "2 warnings".
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("{n} {what}")
    } else {
        format!("{n} {what}s")
    }
}

// ---------------------------------------------------------------------------------------
// Assets

/// The left panel: trees (with their node hierarchy), NPCs, objects and areas.
pub fn assets_ui(ui: &mut egui::Ui, doc: &crate::app::Document, selected: &mut Option<String>) {
    ui.add_space(4.0);
    ui.heading("Assets");
    ui.separator();
    let Some(pack) = &doc.pack else {
        ui.label(RichText::new("No pack is open.").weak());
        return;
    };
    ScrollArea::vertical()
        .id_salt("assets_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if let Some(c) = &pack.comment {
                ui.label(RichText::new(c).weak().small());
                ui.add_space(4.0);
            }
            trees_ui(ui, pack);
            npcs_ui(ui, pack, selected);
            objects_ui(ui, pack);
            areas_ui(ui, pack);
        });
}

fn trees_ui(ui: &mut egui::Ui, pack: &Pack) {
    CollapsingHeader::new(format!("Trees ({})", pack.trees.len()))
        .id_salt("assets_trees")
        .default_open(true)
        .show(ui, |ui| {
            if pack.trees.is_empty() {
                ui.label(RichText::new("No trees.").weak());
            }
            for (i, tree) in pack.trees.iter().enumerate() {
                let title = match &tree.name {
                    Some(name) => format!("{} — {}", tree.id, name),
                    None => tree.id.clone(),
                };
                let r = CollapsingHeader::new(title)
                    .id_salt(("assets_tree", i))
                    .default_open(i == 0)
                    .show(ui, |ui| {
                        ui.spacing_mut().item_spacing.y = 1.0;
                        node_rows_ui(ui, &tree.root, 0, false);
                    });
                if let Some(c) = &tree.comment {
                    r.header_response.on_hover_text(c);
                }
            }
        });
}

/// One row per node, indented by depth: type and id; comment on hover; disabled greyed.
fn node_rows_ui(ui: &mut egui::Ui, node: &Node, depth: usize, parent_disabled: bool) {
    let disabled = parent_disabled || node.disabled;
    let type_name = node.kind.type_name();
    let r = ui.horizontal(|ui| {
        ui.add_space(depth as f32 * 14.0);
        let mut ty = RichText::new(type_name).monospace().small();
        let mut id = RichText::new(&node.id);
        if disabled {
            ty = ty.color(Color32::from_gray(90)).strikethrough();
            id = id.color(Color32::from_gray(100)).strikethrough();
        } else {
            ty = ty.color(type_color(type_name));
        }
        ui.label(ty);
        ui.label(id);
        if let Some(name) = &node.name {
            ui.label(RichText::new(format!("“{name}”")).weak().italics());
        }
        if node.comment.is_some() {
            ui.label(RichText::new("💬").weak().small());
        }
    });
    let mut hover = String::new();
    if let Some(c) = &node.comment {
        hover.push_str(c);
    }
    if node.disabled {
        if !hover.is_empty() {
            hover.push_str("\n\n");
        }
        hover.push_str("Disabled: skipped by its parent as if absent.");
    }
    if !hover.is_empty() {
        r.response.on_hover_text(hover);
    }
    for child in &node.children {
        node_rows_ui(ui, child, depth + 1, disabled);
    }
}

fn npcs_ui(ui: &mut egui::Ui, pack: &Pack, selected: &mut Option<String>) {
    CollapsingHeader::new(format!("NPCs ({})", pack.world.npcs.len()))
        .id_salt("assets_npcs")
        .default_open(true)
        .show(ui, |ui| {
            if pack.world.npcs.is_empty() {
                ui.label(RichText::new("No NPCs.").weak());
            }
            for (i, npc) in pack.world.npcs.iter().enumerate() {
                let is_sel = selected.as_deref() == Some(npc.id.as_str());
                ui.horizontal(|ui| {
                    let (dot, _) =
                        ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                    ui.painter()
                        .circle_filled(dot.center(), 4.5, preview::npc_color(i));
                    let r = ui.selectable_label(is_sel, format!("{}  ·  {}", npc.id, npc.tree));
                    let mut tip = String::new();
                    if let Some(name) = &npc.name {
                        tip.push_str(name);
                    }
                    if let Some(c) = &npc.comment {
                        if !tip.is_empty() {
                            tip.push_str(": ");
                        }
                        tip.push_str(c);
                    }
                    let r = if tip.is_empty() {
                        r
                    } else {
                        r.on_hover_text(tip)
                    };
                    if r.clicked() {
                        *selected = Some(npc.id.clone());
                    }
                });
            }
        });
}

fn objects_ui(ui: &mut egui::Ui, pack: &Pack) {
    CollapsingHeader::new(format!("Objects ({})", pack.world.objects.len()))
        .id_salt("assets_objects")
        .default_open(true)
        .show(ui, |ui| {
            if pack.world.objects.is_empty() {
                ui.label(RichText::new("No objects.").weak());
            }
            for o in &pack.world.objects {
                let kind = if o.kind.is_empty() { "object" } else { &o.kind };
                let r = ui.label(format!(
                    "{}  ({kind})  at {:.1}, {:.1}",
                    o.id, o.pos.x, o.pos.y
                ));
                if let Some(c) = &o.comment {
                    r.on_hover_text(c);
                }
            }
        });
}

fn areas_ui(ui: &mut egui::Ui, pack: &Pack) {
    CollapsingHeader::new(format!("Areas ({})", pack.areas.len()))
        .id_salt("assets_areas")
        .default_open(true)
        .show(ui, |ui| {
            if pack.areas.is_empty() {
                ui.label(RichText::new("No areas.").weak());
            }
            for a in &pack.areas {
                let shape = match &a.shape {
                    Shape::Rect(_) => "rect".to_string(),
                    Shape::Polygon(pts) => format!("polygon of {}", pts.len()),
                };
                let mut text = format!("{}  ({shape})", a.id);
                if !a.kinds.is_empty() {
                    text.push_str(&format!("  [{}]", a.kinds.join(", ")));
                }
                if let Some(parent) = &a.parent {
                    text.push_str(&format!("  in {parent}"));
                }
                let r = ui.label(text);
                let tip = match (&a.name, &a.comment) {
                    (Some(n), Some(c)) => Some(format!("{n}: {c}")),
                    (Some(n), None) => Some(n.clone()),
                    (None, Some(c)) => Some(c.clone()),
                    (None, None) => None,
                };
                if let Some(t) = tip {
                    r.on_hover_text(t);
                }
            }
        });
}

// ---------------------------------------------------------------------------------------
// Diagnostics

/// The bottom panel: every diagnostic of the pack, and runtime problems of the preview.
pub fn diagnostics_ui(ui: &mut egui::Ui, doc: &Document, session: Option<&Session>) {
    let problems = session.map_or(&[][..], Session::problems);
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.heading("Diagnostics");
        let summary = format!(
            "{}, {}",
            count(doc.errors, "error"),
            count(doc.warnings, "warning")
        );
        let color = if doc.errors > 0 {
            ERROR_COLOR
        } else if doc.warnings > 0 {
            WARNING_COLOR
        } else {
            OK_COLOR
        };
        ui.label(RichText::new(summary).color(color).strong());
        if !problems.is_empty() {
            ui.label(
                RichText::new(format!("· {}", count(problems.len(), "runtime problem")))
                    .color(WARNING_COLOR),
            );
        }
    });
    ui.separator();
    ScrollArea::vertical()
        .id_salt("diagnostics_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if doc.diagnostics.is_empty() && problems.is_empty() {
                ui.label(RichText::new("✔ No problems found: the pack is valid.").color(OK_COLOR));
                return;
            }
            egui::Grid::new("diagnostics_grid")
                .striped(true)
                .num_columns(4)
                .spacing([14.0, 4.0])
                .show(ui, |ui| {
                    for d in &doc.diagnostics {
                        diagnostic_row_ui(ui, d);
                    }
                    for p in problems {
                        ui.label(RichText::new("⚠").color(WARNING_COLOR))
                            .on_hover_text("runtime problem");
                        ui.label(RichText::new("runtime").monospace().weak());
                        ui.label("");
                        ui.label(p);
                        ui.end_row();
                    }
                });
        });
}

fn diagnostic_row_ui(ui: &mut egui::Ui, d: &Diagnostic) {
    let (icon, color) = if d.is_error() {
        ("⊗", ERROR_COLOR)
    } else {
        ("⚠", WARNING_COLOR)
    };
    ui.label(RichText::new(icon).color(color).strong())
        .on_hover_text(d.severity.to_string());
    let pos = match (d.line, d.column) {
        (Some(l), Some(c)) => format!("{l}:{c}"),
        (Some(l), None) => format!("{l}"),
        _ => "—".to_string(),
    };
    ui.label(RichText::new(pos).monospace());
    ui.label(RichText::new(d.display_path()).monospace().weak());
    ui.label(RichText::new(&d.message).color(if d.is_error() {
        ui.visuals().strong_text_color()
    } else {
        ui.visuals().text_color()
    }));
    ui.end_row();
}

// ---------------------------------------------------------------------------------------
// Inspector

/// The right panel: live state of the selected NPC, then world flags and counters.
pub fn inspector_ui(
    ui: &mut egui::Ui,
    doc: &Document,
    session: Option<&Session>,
    selected: Option<&str>,
) {
    ui.add_space(4.0);
    ui.heading("Inspector");
    ui.separator();
    let Some(session) = session else {
        ui.label(RichText::new("The preview is not running, so there is no live state.").weak());
        return;
    };
    let p: &Program = session.program();
    ScrollArea::vertical()
        .id_salt("inspector_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            match selected.and_then(|id| p.npc_index(id)) {
                Some(i) => npc_ui(ui, doc, session, i as usize),
                None => {
                    ui.label(
                        RichText::new(
                            "Click an NPC in the preview or in the Assets list to inspect it.",
                        )
                        .weak(),
                    );
                }
            }
            ui.add_space(6.0);
            world_ui(ui, session);
        });
}

fn npc_ui(ui: &mut egui::Ui, doc: &Document, session: &Session, i: usize) {
    let p = session.program();
    let w = session.world();
    let (Some(info), Some(npc), Some(&pos)) = (p.npcs.get(i), w.npcs.get(i), w.pos.get(i)) else {
        return;
    };
    ui.horizontal(|ui| {
        let (dot, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
        ui.painter()
            .circle_filled(dot.center(), 6.0, preview::npc_color(i));
        ui.label(RichText::new(&info.id).heading().strong());
        if !info.name.is_empty() && info.name != info.id {
            ui.label(RichText::new(&info.name).weak());
        }
    });
    let tree = p.trees.get(npc.instance.tree as usize);
    egui::Grid::new("npc_facts")
        .num_columns(2)
        .spacing([12.0, 3.0])
        .show(ui, |ui| {
            ui.label(RichText::new("position").weak());
            ui.label(RichText::new(format!("{:.2}, {:.2}", pos.x, pos.y)).monospace());
            ui.end_row();
            ui.label(RichText::new("area").weak());
            ui.label(npc.area.map_or("—", |a| {
                p.areas.get(a as usize).map_or("?", |a| a.id.as_str())
            }));
            ui.end_row();
            ui.label(RichText::new("tree").weak());
            ui.label(tree.map_or("—", |t| t.id.as_str()));
            ui.end_row();
            ui.label(RichText::new("status").weak());
            ui.label(
                RichText::new(npc.last_status.name())
                    .color(status_color(npc.last_status))
                    .strong(),
            );
            ui.end_row();
            ui.label(RichText::new("walking to").weak());
            ui.label(match npc.target {
                Some(t) => RichText::new(format!("{:.2}, {:.2}", t.x, t.y)).monospace(),
                None => RichText::new("—"),
            });
            ui.end_row();
            ui.label(RichText::new("showing").weak());
            ui.label(match npc.show {
                Some((true, text)) => RichText::new(format!("says “{}”", p.sym(text))),
                Some((false, anim)) => RichText::new(format!("animates {}", p.sym(anim))).italics(),
                None => RichText::new("—"),
            });
            ui.end_row();
        });

    ui.add_space(4.0);
    if let Some(tree) = tree {
        CollapsingHeader::new(format!("Tree {} (live)", tree.id))
            .id_salt("inspector_tree")
            .default_open(true)
            .show(ui, |ui| {
                ui.spacing_mut().item_spacing.y = 1.0;
                if tree.nodes.is_empty() {
                    ui.label(RichText::new("Every node is disabled.").weak());
                }
                // The NPC's own tree, with each adopted behavior under the request node
                // that holds it, and the area handlers running for it.
                let nodes = townsfolk_runtime::debug::live_nodes(p, w, i as u32, None);
                for node in &nodes {
                    if let Some(g) = &node.graft {
                        ui.horizontal(|ui| {
                            ui.add_space(f32::from(node.depth) * 12.0);
                            ui.label(
                                RichText::new(format!("» {g}"))
                                    .small()
                                    .italics()
                                    .color(Color32::from_rgb(150, 190, 255)),
                            );
                        });
                    }
                    let status = node.status;
                    let meta = doc.node(&node.tree, &node.id);
                    let type_name = meta.map_or("?", |m| m.type_name);
                    let r = ui.horizontal(|ui| {
                        ui.add_space(f32::from(node.depth) * 12.0);
                        let marker = match status {
                            Status::Running => "▶",
                            Status::Success => "✔",
                            Status::Failure => "✖",
                            Status::Idle => "·",
                        };
                        ui.label(RichText::new(marker).color(status_color(status)));
                        ui.label(RichText::new(&node.id).color(status_color(status)));
                        ui.label(RichText::new(type_name).monospace().small().weak());
                        if node.tree != tree.id && node.graft.is_none() {
                            ui.label(RichText::new(format!("↪ {}", node.tree)).small().weak());
                        }
                    });
                    let mut tip = format!("{type_name} `{}`: {}", node.id, status.name());
                    if let Some(name) = meta.and_then(|m| m.name.as_deref()) {
                        tip.push_str(&format!("\n“{name}”"));
                    }
                    if let Some(c) = meta.and_then(|m| m.comment.as_deref()) {
                        tip.push_str("\n\n");
                        tip.push_str(c);
                    }
                    r.response.on_hover_text(tip);
                }
            });
    }

    CollapsingHeader::new(format!("Blackboard ({})", p.blackboard.names.len()))
        .id_salt("inspector_blackboard")
        .default_open(true)
        .show(ui, |ui| {
            if p.blackboard.names.is_empty() {
                ui.label(RichText::new("No variables.").weak());
                return;
            }
            egui::Grid::new("npc_blackboard")
                .num_columns(2)
                .striped(true)
                .spacing([12.0, 2.0])
                .show(ui, |ui| {
                    for (slot, name) in p.blackboard.names.iter().enumerate() {
                        ui.label(RichText::new(name).monospace());
                        match npc.blackboard.get(slot) {
                            Some(v) => ui.label(RichText::new(format_value(p, *v)).monospace()),
                            None => ui.label(RichText::new("—").weak()),
                        };
                        ui.end_row();
                    }
                });
        });

    let total: usize = npc.inboxes.iter().map(|(_, q)| q.len()).sum();
    CollapsingHeader::new(format!("Inboxes ({total} messages)"))
        .id_salt("inspector_inboxes")
        .default_open(true)
        .show(ui, |ui| {
            for (name, queue) in &npc.inboxes {
                ui.label(RichText::new(format!("{}  ({})", p.sym(*name), queue.len())).monospace());
                for m in queue.iter().take(20) {
                    ui.label(format!(
                        "    {}  from {}  (tick {})",
                        p.sym(m.message),
                        p.entity_name(m.from),
                        m.sent
                    ));
                }
                if queue.len() > 20 {
                    ui.label(RichText::new(format!("    … {} more", queue.len() - 20)).weak());
                }
            }
        });
}

fn world_ui(ui: &mut egui::Ui, session: &Session) {
    let p = session.program();
    let w = session.world();
    CollapsingHeader::new("World")
        .id_salt("inspector_world")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("world_state")
                .num_columns(2)
                .striped(true)
                .spacing([12.0, 2.0])
                .show(ui, |ui| {
                    for (name, v) in p.flags.names.iter().zip(&w.flags) {
                        ui.label(RichText::new(format!("flags.{name}")).monospace());
                        let color = if *v {
                            OK_COLOR
                        } else {
                            Color32::from_gray(140)
                        };
                        ui.label(RichText::new(v.to_string()).monospace().color(color));
                        ui.end_row();
                    }
                    for (name, v) in p.counters.names.iter().zip(&w.counters) {
                        ui.label(RichText::new(format!("counters.{name}")).monospace());
                        ui.label(RichText::new(v.to_string()).monospace());
                        ui.end_row();
                    }
                });
            if p.flags.is_empty() && p.counters.is_empty() {
                ui.label(RichText::new("No flags or counters.").weak());
            }
        });
}

/// A value as the inspector shows it.
fn format_value(p: &Program, v: Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:.3}"),
        Value::Str(s) => format!("\"{}\"", p.sym(s)),
        Value::Vec2(v) => format!("[{:.2}, {:.2}]", v.x, v.y),
        Value::Entity(EntityId::None) => "none".to_string(),
        Value::Entity(e) => p.entity_name(e).to_string(),
    }
}
