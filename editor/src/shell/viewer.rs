//! What each dock tab shows: the `egui_dock::TabViewer` of the shell, and the per-tab view
//! state it draws with.

use std::collections::BTreeMap;

use egui::{RichText, WidgetText};
use egui_dock::TabViewer;

use crate::document::{AssetKind, AssetRef, Document, Selection};
use crate::preview::{self, Preview};
use crate::shell::Action;
use crate::shell::assets::{AssetBrowser, asset_browser_ui};
use crate::shell::dock::Tab;
use crate::shell::find::{FindState, find_ui};
use crate::shell::json_view::{JsonCache, json_tab_ui};
use crate::shell::live::{Authored, NodeIndex, live_inspector_ui};
use crate::shell::problems::{Located, problems_ui};
use crate::views::tree::{TreeTab, tree_inspector_ui, tree_tab_ui};
use crate::views::{ViewCtx, ViewRequest};

/// View state of every tab (not undoable, never saved into the pack).
#[derive(Default)]
pub(crate) struct Views {
    /// Open tree tabs' state (the tree editor's), by tree id.
    pub trees: BTreeMap<String, TreeTab>,
    pub json: JsonCache,
    pub browser: AssetBrowser,
    pub find: FindState,
    pub live: NodeIndex,
    /// How many entries of the document's rename log the dock tabs have followed.
    pub renames_seen: usize,
    /// The last import into the open pack and its report (File ▸ Import).
    pub import: Option<crate::shell::interop::ImportShown>,
    /// The open document is a mod over its bases, or a folder pack: how to save it.
    pub layered: Option<crate::io::Layered>,
    /// What the mod adds or changes, for the document revision it was computed at.
    pub mod_marks: Option<(u64, crate::shell::assets::Marks)>,
}

impl Views {
    /// Makes sure an asset's tab has its view state.
    pub fn open(&mut self, _doc: &Document, asset: &AssetRef) {
        if asset.kind == AssetKind::Tree {
            self.trees
                .entry(asset.id.clone())
                .or_insert_with(|| TreeTab::new(&asset.id));
        }
    }

    /// Opens the asset and selects (and frames) the item.
    pub fn reveal(&mut self, doc: &mut Document, at: &Located) {
        self.open(doc, &at.asset);
        doc.selection = Selection {
            asset: Some(at.asset.clone()),
            items: at.item.iter().cloned().collect(),
        };
        if at.asset.kind == AssetKind::Tree
            && let Some(tab) = self.trees.get_mut(&at.asset.id)
            && let Some(node) = &at.item
        {
            tab.select_and_frame(doc, node);
        }
    }

    /// Asset tabs (and their view state) follow the renames made since the last call: a
    /// renamed tree's tab stays open under its new id, and so does the inspector.
    pub fn follow_renames(
        &mut self,
        doc: &Document,
        dock: &mut egui_dock::DockState<Tab>,
        inspected: &mut Option<Tab>,
    ) {
        let log = doc.rename_log();
        let seen = self.renames_seen.min(log.len());
        for (kind, old, new) in &log[seen..] {
            let was = AssetRef::new(*kind, old.clone());
            let now = AssetRef::new(*kind, new.clone());
            for (_, t) in dock.iter_all_tabs_mut() {
                if *t == Tab::Asset(was.clone()) {
                    *t = Tab::Asset(now.clone());
                }
            }
            if *inspected == Some(Tab::Asset(was.clone())) {
                *inspected = Some(Tab::Asset(now.clone()));
            }
            if *kind == AssetKind::Tree
                && let Some(mut tab) = self.trees.remove(old)
            {
                tab.follow_renames(doc);
                self.trees.insert(new.clone(), tab);
            }
        }
        self.renames_seen = log.len();
    }

    /// Drops the state of tabs that were closed.
    pub fn retain_open(&mut self, open: &[AssetRef]) {
        self.trees.retain(|id, _| {
            open.iter()
                .any(|a| a.kind == AssetKind::Tree && &a.id == id)
        });
        self.json.retain(|a| open.contains(a));
    }
}

/// The smallest canvas, in points, that shows the minimap: in a narrower or lower one (a
/// small window, a large UI scale) the minimap would cover the cards, so it is hidden.
pub(crate) const MINIMAP_MIN_CANVAS: egui::Vec2 = egui::vec2(640.0, 420.0);

/// Whether a canvas drawn in `rect` last frame has room for the minimap (`None`: not drawn
/// yet; it shows from the next frame if it fits).
fn minimap_fits(rect: Option<egui::Rect>) -> bool {
    rect.is_some_and(|r| r.width() >= MINIMAP_MIN_CANVAS.x && r.height() >= MINIMAP_MIN_CANVAS.y)
}

impl crate::EditorApp {
    /// Whether the open tab of `tree` shows its minimap (`None`: no tab of that tree).
    pub fn tree_minimap_shown(&self, tree: &str) -> Option<bool> {
        self.views.trees.get(tree).map(|t| t.canvas.minimap())
    }
}

/// Computes what the mod adds or changes again when the document changed (nothing for a
/// document that is not a mod).
fn refresh_mod_marks(views: &mut Views, doc: &Document) {
    let Some(base) = views.layered.as_ref().and_then(|l| l.base.as_ref()) else {
        views.mod_marks = None;
        return;
    };
    let revision = doc.revision();
    if views.mod_marks.as_ref().is_none_or(|(r, _)| *r != revision) {
        views.mod_marks = Some((revision, crate::io::asset_marks(base, doc.pack())));
    }
}

/// The shell's tab viewer for one frame.
pub(crate) struct Viewer<'a> {
    pub doc: &'a mut Document,
    pub preview: &'a mut Preview,
    pub views: &'a mut Views,
    /// The document tab the inspector follows.
    pub inspected: Option<Tab>,
    pub actions: &'a mut Vec<Action>,
}

impl TabViewer for Viewer<'_> {
    type Tab = Tab;

    fn id(&mut self, tab: &mut Tab) -> egui::Id {
        egui::Id::new(("dock_tab", &*tab))
    }

    fn title(&mut self, tab: &mut Tab) -> WidgetText {
        match tab {
            Tab::Problems => {
                let errors = self
                    .doc
                    .diagnostics()
                    .iter()
                    .filter(|d| d.is_error())
                    .count();
                if errors > 0 {
                    format!("Problems ({errors})").into()
                } else {
                    "Problems".into()
                }
            }
            Tab::Asset(a) if a.kind == AssetKind::Tree => match self.views.trees.get(&a.id) {
                Some(t) => t.title(self.doc).into(),
                None => format!("{} {}", crate::views::tree::TREE_ICON, a.id).into(),
            },
            Tab::Asset(a) => format!("{} {} (read-only)", a.kind.label(), a.id).into(),
            other => other.tool_label().into(),
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, tab: &mut Tab) {
        match tab {
            Tab::Assets => {
                let open = match &self.inspected {
                    Some(Tab::Asset(a)) => Some(a.clone()),
                    _ => None,
                };
                refresh_mod_marks(self.views, self.doc);
                let layers = match (&self.views.layered, &self.views.mod_marks) {
                    (Some(l), Some((_, marks))) if l.base.is_some() => {
                        Some(crate::shell::assets::ModLayers {
                            layers: &l.layers,
                            marks,
                        })
                    }
                    _ => None,
                };
                asset_browser_ui(
                    ui,
                    &mut self.views.browser,
                    self.doc.pack(),
                    open.as_ref(),
                    layers,
                    self.actions,
                );
            }
            Tab::Inspector => self.inspector_ui(ui),
            Tab::Problems => {
                let runtime = self
                    .preview
                    .session
                    .as_ref()
                    .map_or(&[][..], |s| s.problems());
                crate::shell::interop::problems_section_ui(
                    ui,
                    &mut self.views.import,
                    self.doc.pack(),
                    self.actions,
                );
                problems_ui(
                    ui,
                    self.doc.pack(),
                    self.doc.diagnostics(),
                    self.doc.checking(),
                    runtime,
                    self.actions,
                );
            }
            Tab::Find => find_ui(ui, &mut self.views.find, self.doc.pack(), self.actions),
            Tab::Preview => {
                let stale = self.preview.built_from != Some(self.doc.revision());
                let out = preview::preview_tab_ui(ui, self.preview, stale);
                if out.restart {
                    self.actions.push(Action::Restart);
                }
            }
            Tab::Asset(asset) if asset.kind == AssetKind::Tree => {
                let tab = self
                    .views
                    .trees
                    .entry(asset.id.clone())
                    .or_insert_with(|| TreeTab::new(&asset.id));
                tab.canvas.set_minimap(minimap_fits(tab.canvas_rect));
                let mut requests = Vec::new();
                let mut cx = ViewCtx {
                    doc: self.doc,
                    requests: &mut requests,
                };
                tree_tab_ui(ui, tab, &mut cx);
                self.take_requests(requests);
            }
            Tab::Asset(asset) => {
                json_tab_ui(
                    ui,
                    &mut self.views.json,
                    self.doc.pack(),
                    self.doc.revision(),
                    asset,
                );
            }
        }
    }

    fn context_menu(&mut self, ui: &mut egui::Ui, tab: &mut Tab, _path: egui_dock::NodePath) {
        if let Tab::Asset(a) = tab
            && a.kind == AssetKind::Tree
            && let Some(t) = self.views.trees.get_mut(&a.id)
            && ui.button("Rename tree…").clicked()
        {
            t.ask_rename_tree();
            ui.close();
        }
    }

    fn on_tab_button(&mut self, tab: &mut Tab, response: &egui::Response) {
        // F2 over a tree tab's title renames the tree.
        if let Tab::Asset(a) = tab
            && a.kind == AssetKind::Tree
            && response.hovered()
            && response.ctx.input(|i| i.key_pressed(egui::Key::F2))
            && let Some(t) = self.views.trees.get_mut(&a.id)
        {
            t.ask_rename_tree();
        }
    }

    fn scroll_bars(&self, _tab: &Tab) -> [bool; 2] {
        // Every tab scrolls inside itself (the preview and the canvas never scroll).
        [false, false]
    }
}

impl Viewer<'_> {
    /// The inspector: the live NPC for the preview, else the selection of the followed tab.
    fn inspector_ui(&mut self, ui: &mut egui::Ui) {
        match self.inspected.clone() {
            Some(Tab::Preview) | None => {
                ui.label(RichText::new("Live NPC (preview)").strong());
                ui.separator();
                let selected = self.preview.selected.clone();
                self.live_ui(ui, selected.as_deref());
            }
            Some(Tab::Asset(asset)) if asset.kind == AssetKind::Npc => {
                // An NPC's tab: its live state in the preview.
                ui.label(RichText::new(format!("NPC {} (live)", asset.id)).strong());
                ui.separator();
                self.live_ui(ui, Some(&asset.id));
            }
            Some(Tab::Asset(asset)) if asset.kind == AssetKind::Tree => {
                let Some(tab) = self.views.trees.get_mut(&asset.id) else {
                    return;
                };
                let mut requests = Vec::new();
                let mut cx = ViewCtx {
                    doc: self.doc,
                    requests: &mut requests,
                };
                tree_inspector_ui(ui, tab, &mut cx);
                self.take_requests(requests);
            }
            Some(Tab::Asset(asset)) => {
                ui.label(RichText::new(format!("{} {}", asset.kind.label(), asset.id)).strong());
                ui.separator();
                ui.label(
                    RichText::new(format!(
                        "The {} has no inspector yet; its tab shows it read-only.",
                        asset.kind.label().to_lowercase()
                    ))
                    .weak(),
                );
            }
            Some(_) => {}
        }
    }

    /// Turns what a view asked into shell actions (done after the frame's UI).
    fn take_requests(&mut self, requests: Vec<ViewRequest>) {
        for r in requests {
            self.actions.push(match r {
                ViewRequest::OpenTree(id) => Action::Open(AssetRef::tree(&id)),
                ViewRequest::OpenAsset(asset) => Action::Open(asset),
                ViewRequest::ShowHits { title, hits } => Action::ShowHits { title, hits },
                ViewRequest::Status(text) => Action::Status(text),
            });
        }
    }

    /// The live state of the NPC the document calls `npc` (renamed since the preview
    /// started: looked up under its id in the session).
    fn live_ui(&mut self, ui: &mut egui::Ui, npc: Option<&str>) {
        let revision = self.doc.revision();
        let npc = npc.and_then(|id| {
            let session_id = self.preview.aliases.session_id(id)?;
            Some(crate::shell::live::LiveNpc { session_id, id })
        });
        live_inspector_ui(
            ui,
            Authored {
                pack: self.doc.pack(),
                revision,
                index: &mut self.views.live,
            },
            self.preview.session.as_ref(),
            npc,
        );
    }
}
