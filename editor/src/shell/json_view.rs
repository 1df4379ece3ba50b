//! The read-only tab of an asset kind that has no editor yet: its JSON as the pack saves it,
//! saying so plainly (the editors of areas, events, triggers, casts, NPCs and objects come in
//! the next issues).

use std::collections::BTreeMap;

use egui::{RichText, ScrollArea};
use townsfolk_runtime::pack::Pack;

use crate::document::AssetRef;

/// Pretty JSON per open asset, rebuilt when the document changes.
#[derive(Default)]
pub(crate) struct JsonCache {
    texts: BTreeMap<AssetRef, (u64, Option<String>)>,
}

impl JsonCache {
    fn text(&mut self, pack: &Pack, revision: u64, asset: &AssetRef) -> Option<&str> {
        let fresh = self
            .texts
            .get(asset)
            .is_some_and(|(rev, _)| *rev == revision);
        if !fresh {
            let text = asset.kind.get(pack, &asset.id).map(|v| {
                // Plain data always serializes.
                serde_json::to_string_pretty(&v.to_json()).unwrap_or_default()
            });
            self.texts.insert(asset.clone(), (revision, text));
        }
        self.texts.get(asset).and_then(|(_, t)| t.as_deref())
    }

    /// Forgets the tabs that were closed.
    pub fn retain(&mut self, open: impl Fn(&AssetRef) -> bool) {
        self.texts.retain(|a, _| open(a));
    }
}

/// The tab: a note that it is read-only, then the JSON.
pub(crate) fn json_tab_ui(
    ui: &mut egui::Ui,
    cache: &mut JsonCache,
    pack: &Pack,
    revision: u64,
    asset: &AssetRef,
) {
    ui.label(
        RichText::new(format!(
            "{} `{}` — read-only: there is no {} editor yet (it comes in a later version). This is its JSON as the pack saves it.",
            asset.kind.label(),
            asset.id,
            asset.kind.label().to_lowercase()
        ))
        .weak(),
    );
    ui.separator();
    match cache.text(pack, revision, asset) {
        Some(text) => {
            let mut shown: &str = text;
            ScrollArea::both()
                .id_salt(("json_scroll", asset))
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    ui.add(
                        egui::TextEdit::multiline(&mut shown)
                            .code_editor()
                            .desired_width(f32::INFINITY),
                    );
                });
        }
        None => {
            ui.label(
                RichText::new(format!(
                    "The pack has no {} `{}` any more.",
                    asset.kind.label().to_lowercase(),
                    asset.id
                ))
                .weak(),
            );
        }
    }
}
