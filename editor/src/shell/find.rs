//! The find results panel: Ctrl+F searches ids, names, comments and parameter values of every
//! asset through the document's `find`; views fill it too ("find usages"). Clicking a hit opens
//! its asset and frames the item.

use egui::{RichText, ScrollArea};
use townsfolk_runtime::pack::Pack;

use crate::document::{self, Hit};
use crate::shell::Action;
use crate::shell::problems::Located;

/// Results list shown by the tab, and the query box.
#[derive(Default)]
pub(crate) struct FindState {
    pub query: String,
    /// What the list shows ("Find “guard”", "Usages of tree `patrol`").
    pub title: String,
    pub hits: Vec<Hit>,
    /// Move the keyboard focus to the query box on the next frame.
    pub focus_query: bool,
    /// The query the hits are for (`None`: the list came from a view).
    searched: Option<String>,
}

/// Hits drawn at most (a query matching everything must not make every frame slow).
const MAX_SHOWN: usize = 500;

impl FindState {
    /// Shows hits a view found (find usages) instead of a query's.
    pub fn show(&mut self, title: String, hits: Vec<Hit>) {
        self.title = title;
        self.hits = hits;
        self.searched = None;
    }

    /// Runs the query over the whole pack.
    pub fn run(&mut self, pack: &Pack) {
        let q = self.query.trim().to_string();
        self.hits = if q.is_empty() {
            Vec::new()
        } else {
            document::find(pack, &q)
        };
        self.title = format!("Find “{q}”");
        self.searched = Some(q);
    }
}

/// The find tab: the query box, then one row per hit.
pub(crate) fn find_ui(
    ui: &mut egui::Ui,
    find: &mut FindState,
    pack: &Pack,
    actions: &mut Vec<Action>,
) {
    ui.horizontal(|ui| {
        let edit = ui.add(
            egui::TextEdit::singleline(&mut find.query)
                .hint_text("Find in every asset: ids, names, comments, parameters")
                .desired_width(f32::INFINITY.min(ui.available_width() - 70.0)),
        );
        if find.focus_query {
            edit.request_focus();
            find.focus_query = false;
        }
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Find").clicked() || enter {
            find.run(pack);
        }
    });
    if !find.title.is_empty() {
        let n = find.hits.len();
        let s = if n == 1 { "" } else { "s" };
        ui.label(RichText::new(format!("{} — {n} hit{s}", find.title)).strong());
    }
    ui.separator();
    ScrollArea::vertical()
        .id_salt("find_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if find.hits.is_empty() && find.searched.is_some() {
                ui.label(RichText::new("Nothing found.").weak());
            }
            for (i, hit) in find.hits.iter().take(MAX_SHOWN).enumerate() {
                ui.horizontal(|ui| {
                    ui.label(
                        RichText::new(format!("{} {}", hit.asset.kind.label(), hit.asset.id))
                            .monospace()
                            .weak(),
                    );
                    let text = match &hit.item {
                        Some(item) => format!("{item}: {}", hit.text),
                        None => hit.text.clone(),
                    };
                    let r = ui
                        .push_id(("hit", i), |ui| ui.link(text))
                        .inner
                        .on_hover_text(&hit.path);
                    if r.clicked() {
                        actions.push(Action::Reveal(Located {
                            asset: hit.asset.clone(),
                            item: hit.item.clone(),
                        }));
                    }
                });
            }
            if find.hits.len() > MAX_SHOWN {
                ui.label(
                    RichText::new(format!(
                        "… {} more; refine the query",
                        find.hits.len() - MAX_SHOWN
                    ))
                    .weak(),
                );
            }
        });
}
