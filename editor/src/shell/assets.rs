//! The asset browser: every kind of asset with its count, filtered by a text box; clicking an
//! asset opens it in a document tab.

use std::collections::BTreeMap;

use egui::{CollapsingHeader, RichText, ScrollArea};
use townsfolk_runtime::pack::Pack;

use crate::document::{AssetKind, AssetRef};
use crate::io::Mark;
use crate::preview;
use crate::shell::Action;
use crate::shell::style::{OK_COLOR, WARNING_COLOR};

/// Rows listed per kind at most; the filter narrows the rest.
const MAX_ROWS: usize = 300;

#[derive(Default)]
pub(crate) struct AssetBrowser {
    pub filter: String,
    /// The rename popup in progress (F2 or "Rename…" on a row).
    pub renaming: Option<Renaming>,
}

/// Renaming one asset: its new id as typed, and why the last try was refused.
pub(crate) struct Renaming {
    pub asset: AssetRef,
    pub text: String,
    pub error: Option<String>,
    pub focus_requested: bool,
}

/// What a mod adds or changes, by asset.
pub(crate) type Marks = BTreeMap<(AssetKind, String), Mark>;

/// The open document is a mod: its layers (the last is the mod) and what it adds or changes.
pub(crate) struct ModLayers<'a> {
    pub layers: &'a [String],
    pub marks: &'a Marks,
}

/// A row's mark: `+` added by the mod, `~` changed by it, and what that means.
fn mark_text(mark: Mark) -> (&'static str, egui::Color32, &'static str) {
    match mark {
        Mark::Added => ("+", OK_COLOR, "added by the mod"),
        Mark::Changed => (
            "~",
            WARNING_COLOR,
            "changed by the mod (the base has another version)",
        ),
    }
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
    layers: Option<ModLayers<'_>>,
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
            if let Some(m) = &layers {
                mod_header_ui(ui, m);
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
                                let mark = layers
                                    .as_ref()
                                    .and_then(|m| m.marks.get(&(kind, id.to_string())))
                                    .map(|&m| mark_text(m));
                                let mut tip =
                                    format!("Open {} `{id}`", kind.label().to_lowercase());
                                if let Some((sign, color, what)) = mark {
                                    ui.label(RichText::new(sign).color(color).strong().monospace())
                                        .on_hover_text(what);
                                    tip = format!("{tip} ({what})");
                                }
                                let is_open = open.is_some_and(|a| a.kind == kind && a.id == id);
                                let r = ui.selectable_label(is_open, text).on_hover_text(tip);
                                let f2 = r.hovered() && ui.input(|i| i.key_pressed(egui::Key::F2));
                                let mut ask = f2;
                                r.context_menu(|ui| {
                                    if ui.button("Rename…").clicked() {
                                        ask = true;
                                        ui.close();
                                    }
                                });
                                if ask {
                                    browser.renaming = Some(Renaming {
                                        asset: AssetRef::new(kind, id),
                                        text: id.to_string(),
                                        error: None,
                                        focus_requested: false,
                                    });
                                }
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
    rename_popup_ui(ui, browser, pack, actions);
}

/// The line under the pack's name of a mod: its bases, and what the marks mean.
fn mod_header_ui(ui: &mut egui::Ui, m: &ModLayers<'_>) {
    let short = |name: &String| {
        std::path::Path::new(name)
            .file_name()
            .map_or_else(|| name.clone(), |n| n.to_string_lossy().into_owned())
    };
    let (own, bases) = m
        .layers
        .split_last()
        .map_or((String::new(), Vec::new()), |(o, b)| {
            (short(o), b.iter().map(short).collect())
        });
    let added = m.marks.values().filter(|&&k| k == Mark::Added).count();
    let changed = m.marks.len() - added;
    ui.label(
        RichText::new(format!("Mod {own} over {}", bases.join(", ")))
            .color(WARNING_COLOR)
            .small(),
    )
    .on_hover_text(
        "Saving writes only what the mod adds or changes; the base files are never written.",
    );
    ui.horizontal(|ui| {
        ui.label(RichText::new("+").color(OK_COLOR).strong().monospace());
        ui.label(RichText::new(format!("{added} added")).small());
        ui.label(RichText::new("~").color(WARNING_COLOR).strong().monospace());
        ui.label(RichText::new(format!("{changed} changed")).small());
    });
}

/// The rename popup of the browser: Enter renames (every reference follows), Escape cancels;
/// a clash or an empty id is shown in the popup.
fn rename_popup_ui(
    ui: &mut egui::Ui,
    browser: &mut AssetBrowser,
    pack: &Pack,
    actions: &mut Vec<Action>,
) {
    let Some(mut p) = browser.renaming.take() else {
        return;
    };
    let mut open = true;
    let mut go = false;
    let title = format!("Rename {}", p.asset.kind.label().to_lowercase());
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
        .open(&mut open)
        .show(ui.ctx(), |ui| {
            ui.label(format!("New id for `{}` (references follow):", p.asset.id));
            let r = ui.add(egui::TextEdit::singleline(&mut p.text).desired_width(240.0));
            if !p.focus_requested {
                r.request_focus();
                p.focus_requested = true;
            }
            if let Some(e) = &p.error {
                ui.label(RichText::new(e).color(crate::widgets::ERROR_COLOR));
            }
            go |= r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            go |= ui.button("Rename").clicked();
        });
    if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        open = false;
    }
    if go && open {
        let new = p.text.trim().to_string();
        match crate::document::rename_asset(pack, p.asset.kind, &p.asset.id, &new) {
            Ok(_) => {
                actions.push(Action::RenameAsset {
                    asset: p.asset.clone(),
                    new,
                });
                return;
            }
            Err(e) => {
                p.error = Some(e.to_string());
                p.focus_requested = false;
            }
        }
    }
    if open {
        browser.renaming = Some(p);
    }
}
