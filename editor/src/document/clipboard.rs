//! The clipboard payload: nodes (with their subtrees) and their editor layouts as JSON text,
//! so that copy and paste work between trees and between two editor windows.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use townsfolk_runtime::pack::{Node, NodeLayout, VarDecl};

/// Marks clipboard text as ours.
pub const CLIPBOARD_FORMAT: &str = "townsfolk-nodes";

/// What Copy puts on the clipboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClipboardPayload {
    /// Always [`CLIPBOARD_FORMAT`].
    pub format: String,
    pub version: u32,
    /// The tree the nodes were copied from (informative).
    #[serde(default)]
    pub source_tree: String,
    /// The copied subtrees, in their order in the source tree.
    pub nodes: Vec<Node>,
    /// Layouts of the copied nodes (of any depth), by node id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub layouts: BTreeMap<String, NodeLayout>,
    /// The source tree's declarations of the blackboard variables the copied nodes use, so
    /// that pasting into a tree that lacks them declares them there.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub blackboard: BTreeMap<String, VarDecl>,
}

/// Clipboard text that is not a node payload.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("the clipboard does not hold Townsfolk nodes: {0}")]
pub struct NotNodes(pub String);

impl ClipboardPayload {
    pub fn new(source_tree: &str, nodes: Vec<Node>, layouts: BTreeMap<String, NodeLayout>) -> Self {
        ClipboardPayload {
            format: CLIPBOARD_FORMAT.into(),
            version: 1,
            source_tree: source_tree.into(),
            nodes,
            layouts,
            blackboard: BTreeMap::new(),
        }
    }

    /// The JSON text to put on the system clipboard.
    pub fn to_text(&self) -> String {
        // Plain data with string keys always serializes.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads clipboard text. Also accepts one bare node or an array of nodes as JSON (what a
    /// person would copy out of a pack file).
    pub fn from_text(text: &str) -> Result<ClipboardPayload, NotNodes> {
        let text = text.trim();
        if let Ok(p) = serde_json::from_str::<ClipboardPayload>(text) {
            if p.format != CLIPBOARD_FORMAT {
                return Err(NotNodes(format!("unknown format `{}`", p.format)));
            }
            if p.nodes.is_empty() {
                return Err(NotNodes("no nodes".into()));
            }
            return Ok(p);
        }
        if let Ok(n) = serde_json::from_str::<Node>(text) {
            return Ok(ClipboardPayload::new("", vec![n], BTreeMap::new()));
        }
        match serde_json::from_str::<Vec<Node>>(text) {
            Ok(v) if !v.is_empty() => Ok(ClipboardPayload::new("", v, BTreeMap::new())),
            Ok(_) => Err(NotNodes("no nodes".into())),
            Err(e) => Err(NotNodes(e.to_string())),
        }
    }
}
