//! The graph canvas shared by every graph view. Generic: it knows nothing of packs. It draws
//! what the view hands it ([`Scene`]) and reports interactions as [`CanvasAction`]s that the
//! view turns into edits.
//!
//! A canvas of our own over egui's painter (see BENCHMARKS.md "Canvas frame time" for the
//! measurement behind the choice): one `click_and_drag` response for the whole canvas, hit
//! testing through a uniform-grid spatial index rebuilt only when the scene changes, only the
//! visible nodes and edges laid out and painted, and plain boxes through one mesh when zoomed
//! out.
//!
//! Use from a view:
//!
//! ```ignore
//! // Rebuild the scene only when the document (or anything drawn) changed.
//! let scene: &Scene<String> = tab.scene_for(doc.revision());
//! let r = canvas_ui(ui, &mut tab.canvas, scene, &doc.selection.items);
//! for action in r.actions {
//!     match action {
//!         CanvasAction::Select { keys, mode } => { /* update doc.selection */ }
//!         CanvasAction::MoveNodes { moved } => { /* one gesture: Edit::Layout per node */ }
//!         CanvasAction::Connect { from, to } => { /* re-parent `to` under `from` */ }
//!         _ => {}
//!     }
//! }
//! r.response.context_menu(|ui| { /* the view's menu */ });
//! ```
//!
//! The canvas keeps its spatial index in the [`CanvasState`] and rebuilds it when
//! `Scene::revision` (or the node or edge count, or the flow) changes: bump the revision whenever
//! anything in the scene changes, positions included. Node keys should be unique in a scene.

mod geometry;
mod hit;
mod index;
mod minimap;
mod paint;
mod scene;
mod state;
mod widget;

#[cfg(test)]
mod tests;

pub use scene::{EdgeView, Flow, NodeView, Port, Scene};
pub use state::{CanvasState, MAX_ZOOM, MIN_ZOOM};
pub use widget::{CanvasAction, CanvasResponse, CanvasStats, SelectMode, canvas_ui};
