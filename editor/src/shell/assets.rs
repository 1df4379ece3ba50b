//! The asset browser: every kind of asset with its count, filtered by a text box; clicking an
//! asset opens it in a document tab.

use egui::{CollapsingHeader, RichText, ScrollArea};
use townsfolk_runtime::pack::Pack;

use crate::document::{AssetKind, AssetRef};
use crate::preview;
use crate::shell::Action;

/// Rows listed per kind at most; the filter narrows the rest.
const MAX_ROWS: usize = 300;

#[derive(Default)]
pub(crate) struct AssetBrowser {
    pub filter: String,
}

/// What a row shows after the id (a tree's name, an NPC's tree, …).
fn detail(pack: &Pack, kind: AssetKind, i: usize) -> Option<String> {
    match kind {
        AssetKind::Tree => pack.trees.get(i).and_then(|t| t.name.clone()),
        AssetKind::Area => pack.areas.get(i).and_then(|a| a.name.clone()),
        AssetKind::Npc => pack.world.npcs.get(i).map(|n| n.tree.clone()),
        AssetKind::Object => pack
            .world
            .objects
            .get(i)
            .and_then(|o| (!o.kind.is_empty()).then(|| o.kind.clone())),
        _ => None,
    }
}

/// The browser tab. `open` is the asset of the active document tab (highlighted).
pub(crate) fn asset_browser_ui(
    ui: &mut egui::Ui,
    browser: &mut AssetBrowser,
    pack: &Pack,
    open: Option<&AssetRef>,
    actions: &mut Vec<Action>,
) {
    ui.horizontal(|ui| {
        let label = ui.label("Filter");
        ui.add(
            egui::TextEdit::singleline(&mut browser.filter)
                .hint_text("id or name")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
    });
    let filter = browser.filter.trim().to_lowercase();
    ui.separator();
    ScrollArea::vertical()
        .id_salt("assets_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.label(RichText::new(&pack.name).strong());
            if let Some(c) = &pack.comment {
                ui.label(RichText::new(c).weak().small());
            }
            ui.add_space(4.0);
            for kind in AssetKind::ALL {
                let ids = kind.ids(pack);
                let rows: Vec<(usize, &str, Option<String>)> = ids
                    .iter()
                    .enumerate()
                    .map(|(i, id)| (i, *id, detail(pack, kind, i)))
                    .filter(|(_, id, d)| {
                        filter.is_empty()
                            || id.to_lowercase().contains(&filter)
                            || d.as_ref()
                                .is_some_and(|d| d.to_lowercase().contains(&filter))
                    })
                    .collect();
                let title = if filter.is_empty() {
                    format!("{} ({})", kind.plural(), ids.len())
                } else {
                    format!("{} ({} of {})", kind.plural(), rows.len(), ids.len())
                };
                CollapsingHeader::new(title)
                    .id_salt(("assets_kind", kind))
                    .default_open(!ids.is_empty() && ids.len() <= 40)
                    .open((!filter.is_empty()).then_some(!rows.is_empty()))
                    .show(ui, |ui| {
                        if ids.is_empty() {
                            ui.label(
                                RichText::new(format!("No {}.", kind.plural().to_lowercase()))
                                    .weak(),
                            );
                        }
                        for &(i, id, ref d) in rows.iter().take(MAX_ROWS) {
                            ui.horizontal(|ui| {
                                if kind == AssetKind::Npc {
                                    let (dot, _) = ui.allocate_exact_size(
                                        egui::vec2(10.0, 10.0),
                                        egui::Sense::hover(),
                                    );
                                    ui.painter().circle_filled(
                                        dot.center(),
                                        4.5,
                                        preview::npc_color(i),
                                    );
                                }
                                let text = match d {
                                    Some(d) if kind == AssetKind::Npc => format!("{id}  ·  {d}"),
                                    Some(d) => format!("{id} — {d}"),
                                    None => id.to_string(),
                                };
                                let is_open = open.is_some_and(|a| a.kind == kind && a.id == id);
                                let r = ui.selectable_label(is_open, text).on_hover_text(format!(
                                    "Open {} `{id}`",
                                    kind.label().to_lowercase()
                                ));
                                if r.clicked() {
                                    if kind == AssetKind::Npc {
                                        actions.push(Action::SelectNpc(id.to_string()));
                                    }
                                    actions.push(Action::Open(AssetRef::new(kind, id)));
                                }
                            });
                        }
                        if rows.len() > MAX_ROWS {
                            ui.label(
                                RichText::new(format!(
                                    "… {} more; filter to find them",
                                    rows.len() - MAX_ROWS
                                ))
                                .weak(),
                            );
                        }
                    });
            }
        });
}
