//! What a view works with for one frame, and what it asks of the shell.

use crate::document::{AssetRef, Document, Hit};

/// What a view asks of the shell.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewRequest {
    /// Open (or focus) the tab of a tree.
    OpenTree(String),
    /// Open (or focus) the tab of any asset.
    OpenAsset(AssetRef),
    /// Show a list of hits (find usages) in the results panel.
    ShowHits { title: String, hits: Vec<Hit> },
    /// A line for the status bar (what just happened, or why something was refused).
    Status(String),
}

/// What a view works with for one frame: the document (edits go through its history) and the
/// requests it makes of the shell.
pub struct ViewCtx<'a> {
    pub doc: &'a mut Document,
    pub requests: &'a mut Vec<ViewRequest>,
}

impl ViewCtx<'_> {
    /// Asks the shell to show a status line.
    pub fn status(&mut self, text: impl Into<String>) {
        self.requests.push(ViewRequest::Status(text.into()));
    }
}
