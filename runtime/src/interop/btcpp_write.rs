//! A pack's trees as BehaviorTree.CPP v4 XML. Every node kind whose BT.CPP built-in reads
//! back to the same Townsfolk node is written as that built-in; every other one as a custom
//! node `tf_TYPE` declared in `TreeNodesModel`. Attribute order is fixed: `name`, the ports
//! (sorted for custom nodes), then `_tf_id`, `_tf_comment`, `_tf_disabled`. Placeholders from
//! an import are written back as the element they came from.

use std::collections::{BTreeMap, BTreeSet};

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, Event};

use crate::pack::{Arity, Node, NodeKind, Pack, TreeDef};

use super::btcpp_nodes::{PLACEHOLDER_PREFIX, TF_PREFIX, is_placeholder};
use super::{params, script};

/// Why an export failed (only writing into memory can, so this is a broken invariant).
#[derive(Debug, thiserror::Error)]
#[error("writing XML failed: {0}")]
pub struct ExportError(String);

type Models = BTreeMap<String, (&'static str, BTreeSet<String>)>;

/// The pack's trees as one BehaviorTree.CPP v4 document (the first tree is the main one).
pub fn export_btcpp(pack: &Pack) -> Result<String, ExportError> {
    let err = |e: std::io::Error| ExportError(e.to_string());
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
        .map_err(err)?;
    let mut root = BytesStart::new("root");
    root.push_attribute(("BTCPP_format", "4"));
    if let Some(first) = pack.trees.first() {
        root.push_attribute(("main_tree_to_execute", first.id.as_str()));
    }
    w.write_event(Event::Start(root)).map_err(err)?;
    let mut models = Models::new();
    for t in &pack.trees {
        tree(&mut w, t, &mut models).map_err(err)?;
    }
    if !models.is_empty() {
        w.write_event(Event::Start(BytesStart::new("TreeNodesModel")))
            .map_err(err)?;
        for (id, (category, ports)) in &models {
            let mut e = BytesStart::new(*category);
            e.push_attribute(("ID", id.as_str()));
            if ports.is_empty() {
                w.write_event(Event::Empty(e)).map_err(err)?;
                continue;
            }
            w.write_event(Event::Start(e)).map_err(err)?;
            for p in ports {
                let mut pe = BytesStart::new("input_port");
                pe.push_attribute(("name", p.as_str()));
                w.write_event(Event::Empty(pe)).map_err(err)?;
            }
            w.write_event(Event::End(BytesEnd::new(*category)))
                .map_err(err)?;
        }
        w.write_event(Event::End(BytesEnd::new("TreeNodesModel")))
            .map_err(err)?;
    }
    w.write_event(Event::End(BytesEnd::new("root")))
        .map_err(err)?;
    let mut text = String::from_utf8(w.into_inner()).map_err(|e| ExportError(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

fn tree(w: &mut Writer<Vec<u8>>, t: &TreeDef, models: &mut Models) -> std::io::Result<()> {
    let mut e = BytesStart::new("BehaviorTree");
    e.push_attribute(("ID", t.id.as_str()));
    if let Some(n) = &t.name {
        e.push_attribute(("_tf_name", n.as_str()));
    }
    if let Some(c) = &t.comment {
        e.push_attribute(("_tf_comment", c.as_str()));
    }
    if !t.blackboard.is_empty() {
        let bb = serde_json::to_string(&t.blackboard).map_err(std::io::Error::other)?;
        e.push_attribute(("_tf_blackboard", bb.as_str()));
    }
    w.write_event(Event::Start(e))?;
    node(w, &t.root, models)?;
    w.write_event(Event::End(BytesEnd::new("BehaviorTree")))
}

/// Milliseconds for BT.CPP when `seconds` reads back exactly.
fn msec(seconds: f64) -> Option<String> {
    let ms = seconds * 1000.0;
    (ms >= 0.0 && ms.fract() == 0.0 && ms < 1e15 && ms / 1000.0 == seconds)
        .then(|| format!("{}", ms as u64))
}

/// The built-in element and ports for `kind`, when importing them gives `kind` back.
fn builtin(kind: &NodeKind) -> Option<(&'static str, Vec<(&'static str, String)>)> {
    use NodeKind as K;
    Some(match kind {
        K::Sequence { reactive: false } => ("Sequence", vec![]),
        K::Sequence { reactive: true } => ("ReactiveSequence", vec![]),
        K::Selector { reactive: false } => ("Fallback", vec![]),
        K::Selector { reactive: true } => ("ReactiveFallback", vec![]),
        K::Parallel {
            success_threshold,
            failure_threshold,
        } => {
            let mut p = vec![];
            if let Some(s) = success_threshold {
                p.push(("success_count", s.to_string()));
            }
            if let Some(f) = failure_threshold {
                p.push(("failure_count", f.to_string()));
            }
            ("Parallel", p)
        }
        K::Inverter => ("Inverter", vec![]),
        K::ForceSuccess => ("ForceSuccess", vec![]),
        K::ForceFailure => ("ForceFailure", vec![]),
        K::Repeat { times } => (
            "Repeat",
            vec![("num_cycles", times.map_or("-1".into(), |t| t.to_string()))],
        ),
        K::Retry { times } if *times != u32::MAX => (
            "RetryUntilSuccessful",
            vec![("num_attempts", times.to_string())],
        ),
        K::Timeout { seconds } => ("Timeout", vec![("msec", msec(*seconds)?)]),
        K::Wait { seconds } => ("Sleep", vec![("msec", msec(*seconds)?)]),
        K::Condition { expr } if btcpp_script(expr) => {
            ("ScriptCondition", vec![("code", expr.clone())])
        }
        K::Set { var, value } if btcpp_script(value) && !var.contains('.') => {
            let code = format!("{var} := {value}");
            let back = script::assignments(&code).ok()?;
            if back != [(var.clone(), value.clone())] {
                return None;
            }
            ("Script", vec![("code", code)])
        }
        K::Subtree { tree } => ("SubTree", vec![("ID", tree.clone())]),
        _ => return None,
    })
}

/// Whether BT.CPP's script language reads `expr` as we do: our syntax where the two agree,
/// and no function calls (`hour()`, `holders(…)`) or `flags.`/`counters.` names, which are
/// Townsfolk's own (such nodes are exported as `tf_condition` / `tf_set`).
fn btcpp_script(expr: &str) -> bool {
    let mut prev = ' ';
    for c in expr.chars() {
        if (c == '(' && (prev.is_alphanumeric() || prev == '_')) || c == '.' && prev.is_alphabetic()
        {
            return false;
        }
        if !c.is_whitespace() {
            prev = c;
        }
    }
    script::expression(expr).ok().as_deref() == Some(expr)
}

fn category(kind: &NodeKind) -> &'static str {
    use NodeKind as K;
    match kind.arity() {
        Arity::Many => "Control",
        Arity::One => "Decorator",
        Arity::Leaf => match kind {
            K::Condition { .. }
            | K::InArea { .. }
            | K::TimeWindow { .. }
            | K::HasMessage { .. }
            | K::Chance { .. } => "Condition",
            _ => "Action",
        },
    }
}

fn node(w: &mut Writer<Vec<u8>>, n: &Node, models: &mut Models) -> std::io::Result<()> {
    let mut attrs: Vec<(String, String)> = Vec::new();
    let tag: String;
    let restored = if is_placeholder(n) {
        n.comment
            .as_deref()
            .and_then(|c| c.strip_prefix(PLACEHOLDER_PREFIX))
            .and_then(snippet_parts)
    } else {
        None
    };
    let mut write_comment = true;
    if let Some((t, a)) = restored {
        tag = t;
        attrs.extend(a);
        write_comment = false;
    } else if let Some((t, ports)) = builtin(&n.kind) {
        tag = t.to_string();
        attrs.extend(ports.into_iter().map(|(k, v)| (k.to_string(), v)));
    } else {
        tag = format!("{TF_PREFIX}{}", n.kind.type_name());
        let ports = params::encode(&n.kind);
        let entry = models
            .entry(tag.clone())
            .or_insert_with(|| (category(&n.kind), BTreeSet::new()));
        entry.1.extend(ports.iter().map(|(k, _)| k.clone()));
        attrs.extend(ports);
    }
    // `name` goes first, after an explicit `ID`.
    let at = usize::from(attrs.first().is_some_and(|(k, _)| k == "ID"));
    if let Some(name) = &n.name {
        attrs.insert(at, ("name".into(), name.clone()));
    }
    attrs.push(("_tf_id".into(), n.id.clone()));
    if let Some(c) = n.comment.as_ref().filter(|_| write_comment) {
        attrs.push(("_tf_comment".into(), c.clone()));
    }
    if n.disabled {
        attrs.push(("_tf_disabled".into(), "true".into()));
    }
    let mut e = BytesStart::new(tag.as_str());
    for (k, v) in &attrs {
        e.push_attribute((k.as_str(), v.as_str()));
    }
    if n.children.is_empty() {
        return w.write_event(Event::Empty(e));
    }
    w.write_event(Event::Start(e))?;
    for c in &n.children {
        node(w, c, models)?;
    }
    w.write_event(Event::End(BytesEnd::new(tag.as_str())))
}

/// A placeholder's source element in explicit syntax, kept in its comment:
/// `<CATEGORY ID="TYPE" ports…/>`; never `name`, preconditions or `_tf_*` (those live on the
/// Townsfolk nodes).
pub(super) fn element_snippet(n: roxmltree::Node, category: &str, ty: &str) -> String {
    let mut e = BytesStart::new(category);
    e.push_attribute(("ID", ty));
    for a in n.attributes() {
        if a.name() != "name" && a.name() != "ID" && !a.name().starts_with('_') {
            e.push_attribute((a.name(), a.value()));
        }
    }
    let mut w = Writer::new(Vec::new());
    match w.write_event(Event::Empty(e)) {
        Ok(()) => String::from_utf8(w.into_inner()).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// The tag and attributes of a snippet written by [`element_snippet`].
fn snippet_parts(snippet: &str) -> Option<(String, Vec<(String, String)>)> {
    let doc = roxmltree::Document::parse(snippet).ok()?;
    let r = doc.root_element();
    let attrs = r
        .attributes()
        .map(|a| (a.name().to_string(), a.value().to_string()))
        .collect();
    Some((r.tag_name().name().to_string(), attrs))
}
