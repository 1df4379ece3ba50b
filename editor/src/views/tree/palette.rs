//! The palette side strip: every node kind, grouped, searchable; drag an entry onto the canvas
//! (an egui drag-and-drop payload) or click it to insert under the selection.

use egui::{CollapsingHeader, RichText, ScrollArea, TextEdit, Ui};

use super::catalogue::{self, Group, KindInfo};

/// The drag-and-drop payload of a palette entry: the node type name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaletteItem(pub &'static str);

/// What the user did in the palette this frame.
pub enum PaletteAction {
    /// Clicked an entry: insert that kind under the selection.
    Insert(&'static str),
}

fn entry_ui(ui: &mut Ui, k: &'static KindInfo) -> Option<PaletteAction> {
    let text = RichText::new(format!("{} {}", k.icon, k.label)).color(k.color());
    let resp = ui.add(
        egui::Button::new(text)
            .frame(false)
            .sense(egui::Sense::click_and_drag()),
    );
    if resp.drag_started() {
        resp.dnd_set_drag_payload(PaletteItem(k.type_name));
    }
    let resp = resp.on_hover_text(format!(
        "{} (`{}`): drag onto the canvas, or click to insert under the selection",
        k.help, k.type_name
    ));
    resp.clicked().then_some(PaletteAction::Insert(k.type_name))
}

/// The palette: a search field and the groups (all open while searching).
pub fn palette_ui(ui: &mut Ui, search: &mut String) -> Option<PaletteAction> {
    let mut action = None;
    let l = ui.label("Search nodes");
    ui.add(
        TextEdit::singleline(search)
            .hint_text("seq, wait, …")
            .desired_width(f32::INFINITY),
    )
    .labelled_by(l.id);
    ScrollArea::vertical()
        .id_salt("palette_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let hits = catalogue::search(search);
            if hits.is_empty() {
                ui.weak("no node kind matches");
            }
            for g in Group::ALL {
                let in_group: Vec<&&'static KindInfo> =
                    hits.iter().filter(|k| k.group == g).collect();
                if in_group.is_empty() {
                    continue;
                }
                let mut header = CollapsingHeader::new(RichText::new(g.label()).color(g.color()))
                    .id_salt(("palette_group", g.label()))
                    .default_open(true);
                if !search.is_empty() {
                    header = header.open(Some(true));
                }
                header.show(ui, |ui| {
                    for k in in_group {
                        if let Some(a) = entry_ui(ui, k) {
                            action = Some(a);
                        }
                    }
                });
            }
        });
    action
}
