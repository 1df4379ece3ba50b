//! One BehaviorTree.CPP node to Townsfolk nodes: built-in controls and decorators, scripts,
//! preconditions, subtrees, Townsfolk's own `tf_*` nodes and placeholders for the rest.

use std::collections::{BTreeMap, BTreeSet};

use crate::pack::{Node, NodeKind, VarDecl};

use super::btcpp_read::line_of;
use super::limits::{MAX_STRING_CHARS, MAX_TREE_DEPTH, MAX_TREE_NODES};
use super::report::{ImportError, ImportReport, Placeholder, declare_stub};
use super::script;

/// Comment prefix of a placeholder: the source element follows, so export restores it.
pub const PLACEHOLDER_PREFIX: &str = "btcpp placeholder: ";
/// Element-name prefix of Townsfolk-only nodes in exported XML (`tf_move_to`, …).
pub const TF_PREFIX: &str = "tf_";

/// Converting one `<BehaviorTree>`.
pub(super) struct TreeCtx<'a> {
    file: &'a str,
    tree: &'a str,
    tree_ids: &'a BTreeSet<String>,
    models: &'a BTreeMap<String, String>,
    report: &'a mut ImportReport,
    next_id: usize,
    count: usize,
    pub blackboard: BTreeMap<String, VarDecl>,
}

/// The attributes of an element, split by role.
#[derive(Default)]
struct Attrs {
    id: Option<String>,
    name: Option<String>,
    comment: Option<String>,
    disabled: bool,
    pre: Vec<(String, String)>,
    ports: Vec<(String, String)>,
}

impl Attrs {
    fn port(&self, name: &str) -> Option<&str> {
        self.ports
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `{key}` → `key`.
pub(super) fn bb_ref(v: &str) -> Option<&str> {
    let k = v.strip_prefix('{')?.strip_suffix('}')?;
    (!k.is_empty()).then_some(k)
}

impl<'a> TreeCtx<'a> {
    pub fn new(
        file: &'a str,
        tree: &'a str,
        tree_ids: &'a BTreeSet<String>,
        models: &'a BTreeMap<String, String>,
        report: &'a mut ImportReport,
    ) -> TreeCtx<'a> {
        TreeCtx {
            file,
            tree,
            tree_ids,
            models,
            report,
            next_id: 0,
            count: 0,
            blackboard: BTreeMap::new(),
        }
    }

    fn fresh_id(&mut self) -> String {
        self.next_id += 1;
        format!("n{}", self.next_id)
    }

    fn plain(&mut self, kind: NodeKind, children: Vec<Node>) -> Node {
        Node {
            id: self.fresh_id(),
            name: None,
            comment: None,
            disabled: false,
            kind,
            children,
        }
    }

    fn warn(&mut self, line: u32, construct: &str, message: impl Into<String>) {
        self.report.warn(self.file, line, construct, message);
    }

    fn invalid(&self, line: u32, message: impl Into<String>) -> ImportError {
        ImportError::Invalid {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }

    /// Converts element `n` at nesting `depth` (the tree's root is 1).
    pub fn node(&mut self, n: roxmltree::Node, depth: usize) -> Result<Node, ImportError> {
        let line = line_of(n);
        if depth > MAX_TREE_DEPTH {
            return Err(ImportError::Limit {
                file: format!("{}:{line}", self.file),
                what: "levels of tree nesting",
                limit: MAX_TREE_DEPTH,
            });
        }
        self.count += 1;
        if self.count > MAX_TREE_NODES {
            return Err(ImportError::Limit {
                file: format!("{}:{line}", self.file),
                what: "nodes in one tree",
                limit: MAX_TREE_NODES,
            });
        }
        let tag = n.tag_name().name();
        let explicit = matches!(tag, "Action" | "Condition" | "Control" | "Decorator");
        let ty = if explicit {
            n.attribute("ID")
                .ok_or_else(|| self.invalid(line, format!("<{tag}> without an ID")))?
        } else {
            tag
        };
        let mut a = Attrs::default();
        for at in n.attributes() {
            let (k, v) = (at.name(), at.value());
            if v.chars().count() > MAX_STRING_CHARS {
                return Err(ImportError::Limit {
                    file: format!("{}:{line}", self.file),
                    what: "characters in an attribute",
                    limit: MAX_STRING_CHARS,
                });
            }
            match k {
                "ID" if explicit || tag == "SubTree" => {}
                "name" => a.name = Some(v.to_string()),
                "_tf_id" => a.id = Some(v.to_string()),
                "_tf_comment" => a.comment = Some(v.to_string()),
                "_description" if a.comment.is_none() => a.comment = Some(v.to_string()),
                "_tf_disabled" => a.disabled = v == "true",
                "_skipIf" | "_successIf" | "_failureIf" | "_while" => {
                    a.pre.push((k.to_string(), v.to_string()))
                }
                "_onSuccess" | "_onFailure" | "_post" | "_onHalted" => self.warn(
                    line,
                    k,
                    format!("post-condition script `{v}` has no Townsfolk equivalent; dropped"),
                ),
                "_autoremap" if tag == "SubTree" => a.ports.push((k.to_string(), v.to_string())),
                _ if k.starts_with('_') => {
                    self.warn(line, k, "attribute unknown to Townsfolk; dropped")
                }
                _ => a.ports.push((k.to_string(), v.to_string())),
            }
        }
        let kids: Vec<roxmltree::Node> = n.children().filter(|c| c.is_element()).collect();
        let mut node = self.kind(n, line, tag, ty, &a, &kids, depth)?;
        if let Some(id) = a.id.clone() {
            node.id = id;
        }
        if a.name.is_some() {
            node.name = a.name.clone();
        }
        if a.comment.is_some() && !is_placeholder(&node) {
            node.comment = a.comment.clone();
        }
        node.disabled = a.disabled;
        self.preconditions(line, node, &a.pre)
    }

    fn children(
        &mut self,
        kids: &[roxmltree::Node],
        depth: usize,
    ) -> Result<Vec<Node>, ImportError> {
        kids.iter().map(|k| self.node(*k, depth + 1)).collect()
    }

    fn one_child(
        &mut self,
        line: u32,
        ty: &str,
        kids: &[roxmltree::Node],
        depth: usize,
    ) -> Result<Node, ImportError> {
        let [k] = kids else {
            return Err(self.invalid(
                line,
                format!("<{ty}> has {} children; a decorator takes one", kids.len()),
            ));
        };
        self.node(*k, depth + 1)
    }

    /// A numeric port: absent → `default`; `{key}` or text → warning and `default`.
    fn number(&mut self, line: u32, ty: &str, a: &Attrs, port: &str, default: f64) -> f64 {
        match a.port(port) {
            None => default,
            Some(v) => match v.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => x,
                _ => {
                    self.warn(
                        line,
                        &format!("<{ty} {port}=\"{v}\">"),
                        format!(
                            "Townsfolk parameters are constants; `{v}` is not a number, {default} used"
                        ),
                    );
                    default
                }
            },
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn kind(
        &mut self,
        n: roxmltree::Node,
        line: u32,
        tag: &str,
        ty: &str,
        a: &Attrs,
        kids: &[roxmltree::Node],
        depth: usize,
    ) -> Result<Node, ImportError> {
        use NodeKind as K;
        let explicit = tag != ty;
        let leaf = |ctx: &mut Self, kind| -> Result<Node, ImportError> {
            if !kids.is_empty() {
                return Err(ctx.invalid(line, format!("<{ty}> is a leaf but has children")));
            }
            Ok(ctx.plain(kind, Vec::new()))
        };
        let many = |ctx: &mut Self, kind| -> Result<Node, ImportError> {
            let c = ctx.children(kids, depth)?;
            Ok(ctx.plain(kind, c))
        };
        let one = |ctx: &mut Self, kind| -> Result<Node, ImportError> {
            let c = ctx.one_child(line, ty, kids, depth)?;
            Ok(ctx.plain(kind, vec![c]))
        };
        match ty {
            "Sequence" => many(self, K::Sequence { reactive: false }),
            "SequenceWithMemory" | "SequenceStar" => {
                self.warn(
                    line,
                    &format!("<{ty}>"),
                    "imported as a sequence: after a failure it restarts from its first child",
                );
                many(self, K::Sequence { reactive: false })
            }
            "ReactiveSequence" => many(self, K::Sequence { reactive: true }),
            "Fallback" => many(self, K::Selector { reactive: false }),
            "ReactiveFallback" => many(self, K::Selector { reactive: true }),
            "Parallel" => {
                let count = |ctx: &mut Self, port: &str| -> Option<u32> {
                    let v = ctx.number(line, ty, a, port, -1.0);
                    if v < 0.0 {
                        if v != -1.0 {
                            ctx.warn(
                                line,
                                &format!("<Parallel {port}>"),
                                "negative counts other than -1 have no equivalent; all children used",
                            );
                        }
                        None
                    } else {
                        Some(v as u32)
                    }
                };
                let success_threshold = count(self, "success_count");
                let failure_threshold = count(self, "failure_count");
                many(
                    self,
                    K::Parallel {
                        success_threshold,
                        failure_threshold,
                    },
                )
            }
            "IfThenElse" | "WhileDoElse" => self.if_then_else(line, ty, kids, depth),
            "Inverter" => one(self, K::Inverter),
            "ForceSuccess" => one(self, K::ForceSuccess),
            "ForceFailure" => one(self, K::ForceFailure),
            "Repeat" => {
                let v = self.number(line, ty, a, "num_cycles", -1.0);
                let times = (v >= 0.0).then_some(v as u32);
                one(self, K::Repeat { times })
            }
            "KeepRunningUntilFailure" => one(self, K::Repeat { times: None }),
            "RetryUntilSuccessful" | "RetryUntilSuccesful" => {
                let v = self.number(line, ty, a, "num_attempts", -1.0);
                let times = if v < 0.0 {
                    self.warn(
                        line,
                        &format!("<{ty} num_attempts=\"{v}\">"),
                        "endless retry: imported as 4294967295 attempts",
                    );
                    u32::MAX
                } else {
                    v as u32
                };
                one(self, K::Retry { times })
            }
            "Timeout" => {
                let ms = self.number(line, ty, a, "msec", 0.0);
                one(
                    self,
                    K::Timeout {
                        seconds: ms / 1000.0,
                    },
                )
            }
            "Delay" => {
                let ms = self.number(line, ty, a, "delay_msec", 0.0);
                let child = self.one_child(line, ty, kids, depth)?;
                let wait = self.plain(
                    K::Wait {
                        seconds: ms / 1000.0,
                    },
                    Vec::new(),
                );
                Ok(self.plain(K::Sequence { reactive: false }, vec![wait, child]))
            }
            "RunOnce" => {
                self.warn(
                    line,
                    "<RunOnce>",
                    "no Townsfolk equivalent: its child is imported undecorated and runs every time",
                );
                self.one_child(line, ty, kids, depth)
            }
            "Precondition" => {
                let cond = a.port("if").unwrap_or("true");
                let condition = self.expr(line, "<Precondition if>", cond);
                if a.port("else").is_some_and(|e| e != "FAILURE") {
                    self.warn(
                        line,
                        "<Precondition else>",
                        "only else=\"FAILURE\" has an equivalent; imported as a guard that fails",
                    );
                }
                one(self, K::Guard { condition })
            }
            "Sleep" => {
                let ms = self.number(line, ty, a, "msec", 0.0);
                leaf(
                    self,
                    K::Wait {
                        seconds: ms / 1000.0,
                    },
                )
            }
            "AlwaysSuccess" => leaf(
                self,
                K::Condition {
                    expr: "true".into(),
                },
            ),
            "AlwaysFailure" => leaf(
                self,
                K::Condition {
                    expr: "false".into(),
                },
            ),
            "ScriptCondition" => {
                let expr = self.expr(line, "<ScriptCondition code>", a.port("code").unwrap_or(""));
                leaf(self, K::Condition { expr })
            }
            "Script" => {
                let code = a.port("code").unwrap_or("");
                match script::assignments(code) {
                    Ok(sets) if !sets.is_empty() => {
                        let mut nodes: Vec<Node> = sets
                            .into_iter()
                            .map(|(var, value)| self.plain(K::Set { var, value }, Vec::new()))
                            .collect();
                        if nodes.len() == 1 {
                            Ok(nodes.remove(0))
                        } else {
                            Ok(self.plain(K::Sequence { reactive: false }, nodes))
                        }
                    }
                    Ok(_) | Err(_) => {
                        let why = match script::assignments(code) {
                            Err(e) => e,
                            Ok(_) => "it is empty".to_string(),
                        };
                        self.warn(
                            line,
                            &format!("<Script code=\"{code}\">"),
                            format!("not expressible as Townsfolk assignments ({why}); imported as a placeholder"),
                        );
                        self.placeholder(n, line, "Action", ty)
                    }
                }
            }
            "SetBlackboard" => {
                let (Some(key), Some(value)) = (a.port("output_key"), a.port("value")) else {
                    return Err(self.invalid(line, "<SetBlackboard> needs output_key and value"));
                };
                let var = bb_ref(key).unwrap_or(key).to_string();
                let value = match bb_ref(value) {
                    Some(k) => k.to_string(),
                    None if value.trim().parse::<f64>().is_ok()
                        || value == "true"
                        || value == "false" =>
                    {
                        value.trim().to_string()
                    }
                    None => serde_json::Value::String(value.to_string()).to_string(),
                };
                leaf(self, K::Set { var, value })
            }
            "SubTree" => self.subtree(n, line, a, kids),
            _ if tag != "SubTree" && ty.starts_with(TF_PREFIX) => {
                self.townsfolk(line, &ty[TF_PREFIX.len()..], a, kids, depth)
            }
            _ if !explicit && self.tree_ids.contains(ty) => {
                if !kids.is_empty() {
                    return Err(self.invalid(line, format!("subtree <{ty}> has children")));
                }
                Ok(self.plain(
                    K::Subtree {
                        tree: ty.to_string(),
                    },
                    Vec::new(),
                ))
            }
            _ => {
                let category = if explicit {
                    tag.to_string()
                } else {
                    self.models
                        .get(ty)
                        .cloned()
                        .unwrap_or_else(|| "Action".into())
                };
                if kids.is_empty() {
                    self.placeholder(n, line, &category, ty)
                } else {
                    self.warn(
                        line,
                        &format!("<{ty}>"),
                        format!("unknown {category} with children; imported as a sequence of them"),
                    );
                    many(self, K::Sequence { reactive: false })
                }
            }
        }
    }

    /// A BT.CPP script expression in Townsfolk syntax; a warning when it is not one.
    fn expr(&mut self, line: u32, construct: &str, code: &str) -> String {
        match script::expression(code) {
            Ok(e) => e,
            Err(why) => {
                self.warn(
                    line,
                    construct,
                    format!(
                        "script `{code}` is not a Townsfolk expression ({why}); imported as `false`"
                    ),
                );
                "false".into()
            }
        }
    }

    fn if_then_else(
        &mut self,
        line: u32,
        ty: &str,
        kids: &[roxmltree::Node],
        depth: usize,
    ) -> Result<Node, ImportError> {
        use NodeKind as K;
        if !(2..=3).contains(&kids.len()) {
            return Err(self.invalid(
                line,
                format!("<{ty}> takes 2 or 3 children, not {}", kids.len()),
            ));
        }
        let mut c = self.children(kids, depth)?;
        let reactive = ty == "WhileDoElse";
        let els = (c.len() == 3).then(|| c.remove(2));
        let then = c.remove(1);
        let cond = c.remove(0);
        let K::Condition { expr } = &cond.kind else {
            return Err(self.invalid(
                line,
                format!("<{ty}>: only a condition (ScriptCondition, AlwaysSuccess, a placeholder) as first child has a Townsfolk equivalent"),
            ));
        };
        let negated = format!("!({expr})");
        let mut branches = vec![self.plain(K::Sequence { reactive }, vec![cond, then])];
        if let Some(e) = els {
            let not = self.plain(K::Condition { expr: negated }, Vec::new());
            branches.push(self.plain(K::Sequence { reactive }, vec![not, e]));
        }
        Ok(self.plain(K::Selector { reactive }, branches))
    }

    fn subtree(
        &mut self,
        n: roxmltree::Node,
        line: u32,
        a: &Attrs,
        kids: &[roxmltree::Node],
    ) -> Result<Node, ImportError> {
        use NodeKind as K;
        let Some(id) = n.attribute("ID") else {
            return Err(self.invalid(line, "<SubTree> without an ID"));
        };
        if !kids.is_empty() {
            return Err(self.invalid(line, "<SubTree> has children"));
        }
        if !self.tree_ids.contains(id) {
            return Err(self.invalid(
                line,
                format!("<SubTree ID=\"{id}\">: no such BehaviorTree in this file or its includes"),
            ));
        }
        let sub = self.plain(
            K::Subtree {
                tree: id.to_string(),
            },
            Vec::new(),
        );
        // Townsfolk subtrees share the caller's blackboard: `_autoremap` and `x="{x}"` are
        // what they do anyway. Other remappings copy in before the call.
        let mut sets = Vec::new();
        for (port, value) in &a.ports {
            if port == "_autoremap" {
                continue;
            }
            match bb_ref(value) {
                Some(k) if k == port => {}
                Some(k) => sets.push((port.clone(), k.to_string())),
                None => sets.push((
                    port.clone(),
                    if value.parse::<f64>().is_ok() || value == "true" || value == "false" {
                        value.clone()
                    } else {
                        serde_json::Value::String(value.clone()).to_string()
                    },
                )),
            }
        }
        if sets.is_empty() {
            return Ok(sub);
        }
        let names: Vec<String> = sets.iter().map(|(p, v)| format!("{p} := {v}")).collect();
        self.warn(
            line,
            &format!("<SubTree ID=\"{id}\"> port remapping"),
            format!(
                "subtrees share the blackboard: remapped ports are copied in before the call ({}); nothing is copied back out",
                names.join(", ")
            ),
        );
        let mut children: Vec<Node> = sets
            .into_iter()
            .map(|(var, value)| self.plain(K::Set { var, value }, Vec::new()))
            .collect();
        children.push(sub);
        Ok(self.plain(K::Sequence { reactive: false }, children))
    }

    /// A Townsfolk-only node written by our exporter: `<tf_TYPE param=…>`.
    fn townsfolk(
        &mut self,
        line: u32,
        type_name: &str,
        a: &Attrs,
        kids: &[roxmltree::Node],
        depth: usize,
    ) -> Result<Node, ImportError> {
        let kind = super::params::decode(type_name, &a.ports)
            .map_err(|e| self.invalid(line, format!("<{TF_PREFIX}{type_name}>: {e}")))?;
        let children = self.children(kids, depth)?;
        Ok(self.plain(kind, children))
    }

    /// An unknown action or condition: a condition over a declared blackboard bool.
    fn placeholder(
        &mut self,
        n: roxmltree::Node,
        line: u32,
        category: &str,
        ty: &str,
    ) -> Result<Node, ImportError> {
        let var = declare_stub(&mut self.blackboard, "BehaviorTree.CPP", category, ty);
        let mut node = self.plain(NodeKind::Condition { expr: var.clone() }, Vec::new());
        node.comment = Some(format!(
            "{PLACEHOLDER_PREFIX}{}",
            super::btcpp_write::element_snippet(n, category, ty)
        ));
        self.report.placeholders.push(Placeholder {
            file: self.file.to_string(),
            line,
            tree: self.tree.to_string(),
            node: node.id.clone(),
            category: category.to_string(),
            source_type: ty.to_string(),
            var,
        });
        Ok(node)
    }

    /// Wraps `node` in the Townsfolk form of its preconditions.
    fn preconditions(
        &mut self,
        line: u32,
        mut node: Node,
        pre: &[(String, String)],
    ) -> Result<Node, ImportError> {
        use NodeKind as K;
        // BT.CPP checks _failureIf, _successIf, _skipIf, then _while; the first listed
        // wraps outermost.
        for key in ["_while", "_skipIf", "_successIf", "_failureIf"] {
            let Some((_, code)) = pre.iter().find(|(k, _)| k == key) else {
                continue;
            };
            let expr = self.expr(line, key, code);
            node = match key {
                "_while" => self.plain(K::Guard { condition: expr }, vec![node]),
                "_failureIf" => {
                    let c = self.plain(
                        K::Condition {
                            expr: format!("!({expr})"),
                        },
                        Vec::new(),
                    );
                    self.plain(K::Sequence { reactive: false }, vec![c, node])
                }
                _ => {
                    if key == "_skipIf" {
                        self.warn(
                            line,
                            "_skipIf",
                            "Townsfolk has no skipped status: a skipped node succeeds",
                        );
                    }
                    let c = self.plain(K::Condition { expr }, Vec::new());
                    self.plain(K::Selector { reactive: false }, vec![c, node])
                }
            };
        }
        Ok(node)
    }
}

pub(super) fn is_placeholder(n: &Node) -> bool {
    matches!(n.kind, NodeKind::Condition { .. })
        && n.comment
            .as_deref()
            .is_some_and(|c| c.starts_with(PLACEHOLDER_PREFIX))
}
