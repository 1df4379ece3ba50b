//! The state of one open tree tab: which tree, the canvas view state, the cached scene and the
//! popups in progress. None of it is an undo step.

use egui::Pos2;

use super::scene::{self, Built};
use crate::canvas::CanvasState;
use crate::document::{AssetKind, AssetRef, Document};

/// The glyph of a tree (tab titles, subtree cards): a hierarchy, from egui's default fonts
/// (a test checks they have it; the tree emoji they lack drew as a box).
pub const TREE_ICON: &str = "🖧";

/// The type-to-insert popup.
#[derive(Clone, Debug, Default)]
pub(crate) struct InsertPopup {
    pub query: String,
    /// Insert under this node (else under the selection).
    pub parent: Option<String>,
    /// Put the new card here (canvas units), else where the layout puts it.
    pub at: Option<Pos2>,
    /// Highlighted row of the results.
    pub row: usize,
    pub focus_requested: bool,
}

/// What the rename popup renames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Renaming {
    Node,
    /// The tab's tree itself.
    Tree,
    /// A blackboard variable of the tab's tree.
    Var,
}

/// The rename (F2) popup: of a node, of the tab's tree or of one of its variables.
#[derive(Clone, Debug)]
pub(crate) struct RenamePopup {
    pub what: Renaming,
    /// The current name (node id, tree id or variable name).
    pub node: String,
    pub text: String,
    pub error: Option<String>,
    pub focus_requested: bool,
}

/// A delete that asks first (a composite with children: the whole subtree, or lift the
/// children into its place).
#[derive(Clone, Debug)]
pub(crate) struct DeleteAsk {
    pub nodes: Vec<String>,
}

/// The extract-to-subtree popup: the new tree's id.
#[derive(Clone, Debug)]
pub(crate) struct ExtractPopup {
    pub nodes: Vec<String>,
    pub tree_id: String,
    pub error: Option<String>,
}

/// One open tree tab.
pub struct TreeTab {
    pub(crate) tree_id: String,
    pub(crate) canvas: CanvasState,
    pub(crate) built: Option<Built>,
    /// Scene revision handed to the canvas: bumped on every rebuild (document edits and new
    /// diagnostics both change what is drawn).
    pub(crate) scene_rev: u64,
    /// The checked revision and checking state the scene's problems come from.
    pub(crate) diag_sig: (u64, bool),
    /// The canvas widget's rect in the last frame (screen points).
    pub(crate) canvas_rect: Option<egui::Rect>,
    pub(crate) palette_search: String,
    pub(crate) insert: Option<InsertPopup>,
    pub(crate) rename: Option<RenamePopup>,
    pub(crate) delete_ask: Option<DeleteAsk>,
    pub(crate) extract: Option<ExtractPopup>,
    /// Node the open context menu is about (`None`: the canvas background).
    pub(crate) context_node: Option<String>,
    pub(crate) context_at: Option<Pos2>,
    /// A paste was asked for from the menu: take the next `Event::Paste` even without focus.
    pub(crate) paste_requested: bool,
    /// Frame this node once the scene has it (after an insert, paste or find).
    pub(crate) frame_pending: Option<String>,
    /// Whether the inspector opened an undo gesture (a text field focused, a value dragged).
    pub(crate) gesture_open: bool,
    /// The widget that had the keyboard focus when the gesture began.
    pub(crate) gesture_focus: Option<egui::Id>,
    /// Blackboard table: the name of a variable being added.
    pub(crate) new_var: String,
    pub(crate) new_var_type: townsfolk_runtime::value::Type,
    /// How many entries of the document's rename log this tab has followed (`None`: not
    /// looked yet; a new tab starts at the end of the log).
    pub(crate) renames_seen: Option<usize>,
}

impl TreeTab {
    pub fn new(tree_id: &str) -> TreeTab {
        TreeTab {
            tree_id: tree_id.to_string(),
            canvas: CanvasState::default(),
            built: None,
            scene_rev: 0,
            diag_sig: (0, false),
            canvas_rect: None,
            palette_search: String::new(),
            insert: None,
            rename: None,
            delete_ask: None,
            extract: None,
            context_node: None,
            context_at: None,
            paste_requested: false,
            frame_pending: None,
            gesture_open: false,
            gesture_focus: None,
            new_var: String::new(),
            new_var_type: townsfolk_runtime::value::Type::Float,
            renames_seen: None,
        }
    }

    pub fn tree_id(&self) -> &str {
        &self.tree_id
    }

    /// The tab's title: the tree's name, or its id.
    pub fn title(&self, doc: &Document) -> String {
        match doc.pack().tree(&self.tree_id) {
            Some(t) => match &t.name {
                Some(n) if !n.is_empty() => format!("{TREE_ICON} {n}"),
                _ => format!("{TREE_ICON} {}", t.id),
            },
            None => format!("{TREE_ICON} {} (removed)", self.tree_id),
        }
    }

    /// Selects a node of this tree and frames it (find results, problems).
    pub fn select_and_frame(&mut self, doc: &mut Document, node_id: &str) {
        doc.selection.asset = Some(self.asset());
        doc.selection.items = vec![node_id.to_string()];
        self.frame_pending = Some(node_id.to_string());
    }

    /// Opens the popup renaming this tab's tree (from the tab's title: its context menu, F2).
    pub fn ask_rename_tree(&mut self) {
        super::commands::ask_rename_tree(self);
    }

    /// Another part of the editor renamed an id: follow it if it was this tab's tree.
    pub fn on_renamed(&mut self, old: &str, new: &str) {
        if self.tree_id == old {
            self.tree_id = new.to_string();
            self.built = None;
            self.rename = None;
            self.extract = None;
            self.delete_ask = None;
        }
    }

    /// Where a node's card was drawn in the last frame, in screen points (`None` when it is
    /// not drawn: hidden under a collapsed node, or not in the tree). For UI tests and for
    /// anchoring popups.
    pub fn card_screen_rect(&self, node_id: &str) -> Option<egui::Rect> {
        let rect = self.canvas_rect?;
        let p = *self.built.as_ref()?.pos.get(node_id)?;
        let (c, z) = (self.canvas.center(), self.canvas.zoom());
        let to_screen = |q: Pos2| rect.center() + (q - c) * z;
        Some(egui::Rect::from_min_max(
            to_screen(p),
            to_screen(p + super::layout::NODE_SIZE),
        ))
    }

    /// The canvas view state (pan, zoom, flow).
    pub fn canvas(&self) -> &CanvasState {
        &self.canvas
    }

    pub(crate) fn asset(&self) -> AssetRef {
        AssetRef {
            kind: AssetKind::Tree,
            id: self.tree_id.clone(),
        }
    }

    /// The selected nodes of this tree (empty when the selection is elsewhere).
    pub(crate) fn selected(&self, doc: &Document) -> Vec<String> {
        match &doc.selection.asset {
            Some(a) if a.kind == AssetKind::Tree && a.id == self.tree_id => {
                doc.selection.items.clone()
            }
            _ => Vec::new(),
        }
    }

    pub(crate) fn select(&self, doc: &mut Document, items: Vec<String>) {
        doc.selection.asset = Some(self.asset());
        doc.selection.items = items;
    }

    /// Follows renames of trees made since the tab last looked (a rename of this tab's tree,
    /// its undo, its redo), so the tab keeps showing its tree.
    pub fn follow_renames(&mut self, doc: &Document) {
        let log = doc.rename_log();
        let seen = self.renames_seen.unwrap_or(log.len()).min(log.len());
        for (kind, old, new) in &log[seen..] {
            if *kind == AssetKind::Tree {
                self.on_renamed(old, new);
            }
        }
        self.renames_seen = Some(log.len());
    }

    /// The cached scene, rebuilt when the document or its diagnostics changed.
    pub(crate) fn refresh(&mut self, doc: &Document) {
        self.follow_renames(doc);
        // Diagnostics of an older revision may point at nodes by stale child indices: only
        // current ones are shown on cards (the local checks cover the meantime).
        let diags = if doc.checked_revision() == doc.revision() {
            doc.diagnostics()
        } else {
            &[]
        };
        let sig = (doc.checked_revision(), doc.checking());
        let stale = match &self.built {
            Some(b) => b.revision != doc.revision() || self.diag_sig != sig,
            None => true,
        };
        if stale {
            self.canvas
                .set_flow(match doc.pack().editor.tree_direction {
                    townsfolk_runtime::pack::TreeDirection::TopDown => crate::canvas::Flow::TopDown,
                    townsfolk_runtime::pack::TreeDirection::LeftToRight => {
                        crate::canvas::Flow::LeftRight
                    }
                });
            self.scene_rev += 1;
            self.built =
                scene::build(doc.pack(), &self.tree_id, diags, doc.revision()).map(|mut b| {
                    b.scene.revision = self.scene_rev;
                    b
                });
            self.diag_sig = sig;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_glyph_is_in_eguis_default_fonts() {
        let ctx = egui::Context::default();
        let mut out = ctx.run_ui(egui::RawInput::default(), |_| {});
        out.textures_delta.clear();
        let font = egui::FontId::proportional(14.0);
        // `has_glyph` is true only when a font other than the replacement glyph's has it.
        assert!(ctx.fonts_mut(|f| f.has_glyphs(&font, TREE_ICON)));
        let subtree = super::super::catalogue::info("subtree").map(|k| k.icon);
        assert_eq!(subtree, Some(TREE_ICON));
    }
}
