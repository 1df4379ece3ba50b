//! The live NPC inspector (shown in the Inspector tab while the preview is the active tab):
//! the selected NPC's facts, its running tree with adopted behaviors under their request
//! nodes, blackboard and inboxes, then the world's flags and counters.

use std::collections::BTreeMap;

use egui::{CollapsingHeader, Color32, RichText, ScrollArea};
use townsfolk_runtime::bt::Status;
use townsfolk_runtime::pack::{Node, Pack};
use townsfolk_runtime::program::show_value;
use townsfolk_runtime::value::Value;
use townsfolk_runtime::{Program, Session};

use crate::preview;
use crate::shell::style::{OK_COLOR, status_color};

/// What the inspector shows about one authored node.
#[derive(Clone, Debug)]
struct NodeMeta {
    type_name: &'static str,
    name: Option<String>,
    comment: Option<String>,
}

/// Authored node facts by tree id and node id, filled per tree on first use and dropped when
/// the document changes (so a big pack is never indexed whole every frame).
#[derive(Default)]
pub(crate) struct NodeIndex {
    revision: Option<u64>,
    trees: BTreeMap<String, BTreeMap<String, NodeMeta>>,
}

impl NodeIndex {
    fn get(&mut self, pack: &Pack, revision: u64, tree: &str, id: &str) -> Option<&NodeMeta> {
        if self.revision != Some(revision) {
            self.trees.clear();
            self.revision = Some(revision);
        }
        if !self.trees.contains_key(tree) {
            let mut nodes = BTreeMap::new();
            if let Some(def) = pack.tree(tree) {
                index_nodes(&def.root, &mut nodes);
            }
            self.trees.insert(tree.to_string(), nodes);
        }
        self.trees.get(tree).and_then(|t| t.get(id))
    }
}

fn index_nodes(node: &Node, out: &mut BTreeMap<String, NodeMeta>) {
    out.insert(
        node.id.clone(),
        NodeMeta {
            type_name: node.kind.type_name(),
            name: node.name.clone(),
            comment: node.comment.clone(),
        },
    );
    for child in &node.children {
        index_nodes(child, out);
    }
}

/// The authored pack the live nodes are looked up in.
pub(crate) struct Authored<'a> {
    pub pack: &'a Pack,
    pub revision: u64,
    pub index: &'a mut NodeIndex,
}

/// The NPC to inspect: its id in the session and in the document (they differ when it was
/// renamed since the preview started).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LiveNpc<'a> {
    pub session_id: &'a str,
    pub id: &'a str,
}

/// Live state of the selected NPC, then world flags and counters.
pub(crate) fn live_inspector_ui(
    ui: &mut egui::Ui,
    authored: Authored<'_>,
    session: Option<&Session>,
    selected: Option<LiveNpc<'_>>,
) {
    let mut authored = authored;
    let Some(session) = session else {
        ui.label(RichText::new("The preview is not running, so there is no live state.").weak());
        return;
    };
    let p: &Program = session.program();
    ScrollArea::vertical()
        .id_salt("inspector_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            match selected.and_then(|n| Some((p.npc_index(n.session_id)?, n.id))) {
                Some((i, id)) => npc_ui(ui, &mut authored, session, i as usize, id),
                None => {
                    ui.label(RichText::new("Click an NPC in the preview to inspect it.").weak());
                }
            }
            ui.add_space(6.0);
            world_ui(ui, session);
        });
}

fn npc_ui(ui: &mut egui::Ui, authored: &mut Authored<'_>, session: &Session, i: usize, id: &str) {
    let p = session.program();
    let w = session.world();
    let (Some(info), Some(npc), Some(&pos)) = (p.npcs.get(i), w.npcs.get(i), w.positions().get(i))
    else {
        return;
    };
    ui.horizontal(|ui| {
        let (dot, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
        ui.painter()
            .circle_filled(dot.center(), 6.0, preview::npc_color(i));
        ui.label(RichText::new(id).heading().strong());
        if !info.name.is_empty() && info.name != id {
            ui.label(RichText::new(&info.name).weak());
        }
    });
    let tree = p.trees.get(w.minds.tree(i) as usize);
    egui::Grid::new("npc_facts")
        .num_columns(2)
        .spacing([12.0, 3.0])
        .show(ui, |ui| {
            ui.label(RichText::new("position").weak());
            ui.label(RichText::new(format!("{:.2}, {:.2}", pos.x, pos.y)).monospace());
            ui.end_row();
            ui.label(RichText::new("area").weak());
            ui.label(npc.area().map_or("—", |a| {
                p.areas.get(a as usize).map_or("?", |a| a.id.as_str())
            }));
            ui.end_row();
            ui.label(RichText::new("tree").weak());
            ui.label(tree.map_or("—", |t| t.id.as_str()));
            ui.end_row();
            ui.label(RichText::new("status").weak());
            let status = w.last_status(i);
            ui.label(
                RichText::new(status.name())
                    .color(status_color(status))
                    .strong(),
            );
            ui.end_row();
            ui.label(RichText::new("walking to").weak());
            ui.label(match w.target(i) {
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
                    let meta = authored
                        .index
                        .get(authored.pack, authored.revision, &node.tree, &node.id)
                        .cloned();
                    let type_name = meta.as_ref().map_or("?", |m| m.type_name);
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
                    if let Some(name) = meta.as_ref().and_then(|m| m.name.as_deref()) {
                        tip.push_str(&format!("\n“{name}”"));
                    }
                    if let Some(c) = meta.as_ref().and_then(|m| m.comment.as_deref()) {
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
                        match w.minds.bb(i).get(slot) {
                            Some(v) => {
                                let exact = show_value(p, *v);
                                let shown = brief_value(*v).unwrap_or_else(|| exact.clone());
                                let r = ui.label(RichText::new(&shown).monospace());
                                if shown != exact {
                                    r.on_hover_text(exact)
                                } else {
                                    r
                                }
                            }
                            None => ui.label(RichText::new("—").weak()),
                        };
                        ui.end_row();
                    }
                });
        });

    // (Its `talk` inbox lives with the conversation layer: `inboxes_of` reads it there.)
    let inboxes = w.inboxes_of(p.talk.inbox, i as u32);
    let total: usize = inboxes.iter().map(|(_, q)| q.len()).sum();
    CollapsingHeader::new(format!("Inboxes ({total} messages)"))
        .id_salt("inspector_inboxes")
        .default_open(true)
        .show(ui, |ui| {
            for (name, queue) in &inboxes {
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

/// A float (or a vector's) as the inspector shows it: about six significant digits, trailing
/// zeros dropped, so that `0.1 + 0.6` reads `0.7` and not `0.7000000000000001` (the exact
/// value, [`show_value`]'s, is the label's hover text; numbers under 1e-9 are shown exactly).
/// `None`: not a float, show it exactly.
fn brief_value(v: Value) -> Option<String> {
    match v {
        Value::Float(f) => Some(brief_float(f)),
        Value::Vec2(v) => Some(format!("({}, {})", brief_float(v.x), brief_float(v.y))),
        _ => None,
    }
}

fn brief_float(f: f64) -> String {
    let magnitude = f.abs().log10().floor() as i32;
    if !f.is_finite() || f == 0.0 || magnitude < -9 {
        // (Tiny numbers as they are, rather than a rounded zero.)
        return format!("{f}");
    }
    let decimals = (5 - magnitude).max(0) as usize;
    let s = format!("{f:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" { "0".into() } else { s.into() }
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

#[cfg(test)]
mod tests {
    use super::brief_float;

    #[test]
    fn floats_show_about_six_significant_digits() {
        assert_eq!(brief_float(0.1 + 0.6), "0.7");
        assert_eq!(brief_float(0.7000000000000004), "0.7");
        assert_eq!(brief_float(2.5), "2.5");
        assert_eq!(brief_float(-3.0), "-3");
        assert_eq!(brief_float(55.123456789), "55.1235");
        assert_eq!(brief_float(1e-7), "0.0000001");
        assert_eq!(brief_float(1234567.891), "1234568");
        assert_eq!(brief_float(-0.0000000000000001), "-0.0000000000000001");
        assert_eq!(brief_float(0.0), "0");
        assert_eq!(brief_float(f64::INFINITY), "inf");
    }
}
