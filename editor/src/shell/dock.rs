//! The dock: which tabs exist, the default layout, and where new document tabs go. The layout
//! (`DockState<Tab>`) is plain data and is persisted with eframe storage; document tabs are
//! dropped from the saved layout because they belong to the pack that was open.

use egui_dock::{DockState, NodeIndex, SurfaceIndex};
use serde::{Deserialize, Serialize};

use crate::document::AssetRef;

/// One dock tab.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum Tab {
    /// Every asset of the pack, by kind, with a filter.
    Assets,
    /// The selection in the active document tab (or the live NPC for the preview).
    Inspector,
    /// Diagnostics of the last check and the preview's runtime problems.
    Problems,
    /// Find results (Ctrl+F) and find usages.
    Find,
    /// The live preview of the running pack.
    Preview,
    /// One asset open in its editor (trees) or read-only (the other kinds, for now).
    Asset(AssetRef),
}

impl Tab {
    /// The tool tabs, in the order the View menu lists them.
    pub const TOOLS: [Tab; 5] = [
        Tab::Assets,
        Tab::Inspector,
        Tab::Problems,
        Tab::Find,
        Tab::Preview,
    ];

    /// A document tab: an asset, or the preview (what the inspector follows).
    pub fn is_document(&self) -> bool {
        matches!(self, Tab::Asset(_) | Tab::Preview)
    }

    pub fn tool_label(&self) -> &'static str {
        match self {
            Tab::Assets => "Assets",
            Tab::Inspector => "Inspector",
            Tab::Problems => "Problems",
            Tab::Find => "Find results",
            Tab::Preview => "Preview",
            Tab::Asset(_) => "Asset",
        }
    }
}

/// Assets on the left, the preview (and documents) in the middle, the inspector on the right,
/// problems and find results below the middle.
pub(crate) fn default_layout() -> DockState<Tab> {
    let mut dock = DockState::new(vec![Tab::Preview]);
    let tree = dock.main_surface_mut();
    let [docs, _assets] = tree.split_left(NodeIndex::root(), 0.17, vec![Tab::Assets]);
    let [docs, _inspector] = tree.split_right(docs, 0.74, vec![Tab::Inspector]);
    let [_docs, _below] = tree.split_below(docs, 0.74, vec![Tab::Problems, Tab::Find]);
    dock
}

/// The layout as saved: without document tabs (they belong to the pack that was open).
pub(crate) fn layout_to_save(dock: &DockState<Tab>) -> DockState<Tab> {
    dock.filter_tabs(|t| !matches!(t, Tab::Asset(_)))
}

/// Shows `tab`: focuses it if open, else adds it beside the other document tabs (or the
/// preview), or in the focused leaf when there is neither.
pub(crate) fn show_tab(dock: &mut DockState<Tab>, tab: Tab) {
    if let Some(path) = dock.find_tab(&tab) {
        // The path was just found, so it is valid.
        let _ = dock.set_active_tab(path);
        dock.set_focused_node_and_surface(path.node_path());
        return;
    }
    let beside = if tab.is_document() {
        dock.find_tab_from(|t| matches!(t, Tab::Asset(_)))
            .or_else(|| dock.find_tab(&Tab::Preview))
    } else {
        None
    };
    match beside {
        Some(path) => {
            if let Ok(leaf) = dock.leaf_mut(path.node_path()) {
                leaf.append_tab(tab.clone());
            }
        }
        None => dock.push_to_focused_leaf(tab.clone()),
    }
    if let Some(path) = dock.find_tab(&tab) {
        let _ = dock.set_active_tab(path);
        dock.set_focused_node_and_surface(path.node_path());
    }
}

/// Closes a tab if it is open.
pub(crate) fn close_tab(dock: &mut DockState<Tab>, tab: &Tab) {
    if let Some(path) = dock.find_tab(tab) {
        dock.remove_tab(path);
    }
}

/// Every open asset tab.
pub(crate) fn open_assets(dock: &DockState<Tab>) -> Vec<AssetRef> {
    dock.iter_all_tabs()
        .filter_map(|(_, t)| match t {
            Tab::Asset(a) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

/// The active tab of the focused leaf.
pub(crate) fn focused_tab(dock: &mut DockState<Tab>) -> Option<Tab> {
    dock.find_active_focused().map(|(_, t)| t.clone())
}

/// Whether the dock has any tab on the main surface (a layout restored from storage could be
/// empty).
pub(crate) fn is_usable(dock: &DockState<Tab>) -> bool {
    dock.get_surface(SurfaceIndex::main())
        .and_then(|s| s.node_tree())
        .is_some_and(|t| t.num_tabs() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::AssetKind;

    #[test]
    fn document_tabs_open_beside_the_preview_and_are_not_saved() {
        let mut dock = default_layout();
        let a = Tab::Asset(AssetRef::tree("patrol"));
        let b = Tab::Asset(AssetRef::new(AssetKind::Area, "market"));
        show_tab(&mut dock, a.clone());
        show_tab(&mut dock, b.clone());
        show_tab(&mut dock, a.clone()); // already open: focused, not duplicated
        let preview = dock.find_tab(&Tab::Preview).expect("preview");
        let pa = dock.find_tab(&a).expect("a");
        let pb = dock.find_tab(&b).expect("b");
        assert_eq!(pa.node_path(), preview.node_path());
        assert_eq!(pb.node_path(), preview.node_path());
        assert_eq!(open_assets(&dock).len(), 2);
        assert_eq!(focused_tab(&mut dock), Some(a.clone()));

        let saved = layout_to_save(&dock);
        assert!(open_assets(&saved).is_empty());
        assert!(saved.find_tab(&Tab::Inspector).is_some());
        close_tab(&mut dock, &a);
        assert_eq!(
            open_assets(&dock),
            vec![AssetRef::new(AssetKind::Area, "market")]
        );
    }

    #[test]
    fn a_closed_tool_tab_comes_back() {
        let mut dock = default_layout();
        close_tab(&mut dock, &Tab::Problems);
        assert!(dock.find_tab(&Tab::Problems).is_none());
        show_tab(&mut dock, Tab::Problems);
        assert!(dock.find_tab(&Tab::Problems).is_some());
        assert!(is_usable(&dock));
    }
}
