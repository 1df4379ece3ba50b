//! What a view hands the canvas to draw: nodes, edges and their decorations, in canvas units.

use egui::{Color32, Rect};

/// Which way a graph flows: where inputs and outputs sit on a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Flow {
    /// Inputs on the top edge, outputs on the bottom edge (behavior trees by default).
    #[default]
    TopDown,
    /// Inputs on the left edge, outputs on the right edge.
    LeftRight,
}

/// One connection point of a node. Behavior trees use one input and one output per node; event
/// graphs use two outputs (success, failure) with their own colours.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    /// Shown beside the port (e.g. "ok", "fail"); `None` for a bare dot.
    pub label: Option<String>,
    pub color: Color32,
}

impl Port {
    /// A port without a label.
    pub fn new(color: Color32) -> Self {
        Port { label: None, color }
    }

    /// A port with a label drawn beside it.
    pub fn labeled(label: impl Into<String>, color: Color32) -> Self {
        Port {
            label: Some(label.into()),
            color,
        }
    }
}

/// One node card. `rect` is in canvas units (1 unit = 1 point at 100% zoom).
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView<K> {
    pub key: K,
    pub rect: Rect,
    pub title: String,
    /// The key parameter (the condition's expression, the wait's seconds…), one line.
    pub subtitle: Option<String>,
    /// Further one-line body labels under the subtitle (e.g. live values in the debugger).
    pub body: Vec<String>,
    /// A short icon glyph drawn before the title (any text the default fonts can draw).
    pub icon: &'static str,
    /// The kind colour: the header strip, and the boxes when zoomed out.
    pub color: Color32,
    /// A small badge at the top-right corner, e.g. "+12" on a collapsed subtree.
    pub badge: Option<String>,
    /// The node has a comment (a marker is drawn).
    pub comment: bool,
    /// Drawn faded and hatched.
    pub disabled: bool,
    /// A problem with the node: red outline, the text shown when hovering it.
    pub error: Option<String>,
    /// Live status colour (debugger): a ring around the node.
    pub status: Option<Color32>,
    /// A breakpoint dot at the top-left corner.
    pub breakpoint: bool,
    pub inputs: Vec<Port>,
    pub outputs: Vec<Port>,
}

impl<K> NodeView<K> {
    /// A node with a title and nothing else: no ports, no decorations, grey kind colour. Set
    /// the other fields after (this keeps callers compiling when fields are added).
    pub fn new(key: K, rect: Rect, title: impl Into<String>) -> Self {
        NodeView {
            key,
            rect,
            title: title.into(),
            subtitle: None,
            body: Vec::new(),
            icon: "",
            color: Color32::from_gray(110),
            badge: None,
            comment: false,
            disabled: false,
            error: None,
            status: None,
            breakpoint: false,
            inputs: Vec::new(),
            outputs: Vec::new(),
        }
    }
}

/// One edge from an output port of `from` to an input port of `to`.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeView<K> {
    pub from: K,
    pub from_port: usize,
    pub to: K,
    pub to_port: usize,
    /// Drawn near the target end (e.g. the child order number "1", "2").
    pub label: Option<String>,
    pub color: Color32,
}

impl<K> EdgeView<K> {
    /// An edge from output 0 of `from` to input 0 of `to`, grey, without a label.
    pub fn new(from: K, to: K) -> Self {
        EdgeView {
            from,
            from_port: 0,
            to,
            to_port: 0,
            label: None,
            color: Color32::GRAY,
        }
    }
}

/// Everything the canvas draws in one tab. Built by the view and cached by it (typically by the
/// document revision). The canvas rebuilds its spatial index only when `revision` changes (or
/// the number of nodes or edges does), so bump it whenever anything in the scene changes.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene<K> {
    pub revision: u64,
    pub nodes: Vec<NodeView<K>>,
    pub edges: Vec<EdgeView<K>>,
}

impl<K> Default for Scene<K> {
    fn default() -> Self {
        Scene {
            revision: 0,
            nodes: Vec::new(),
            edges: Vec::new(),
        }
    }
}

impl<K> Scene<K> {
    /// The union of every node's rect (`Rect::NOTHING` when there are no nodes).
    pub fn bounds(&self) -> Rect {
        self.nodes
            .iter()
            .fold(Rect::NOTHING, |acc, n| acc.union(n.rect))
    }
}
