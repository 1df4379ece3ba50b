//! behavior3 JSON to a pack, both dialects:
//!
//! - the desktop editor's (behavior3editor): one tree per file, `root` with nested
//!   `children`, `args`, `input`/`output`, a node with `path` is a subtree (the path relative
//!   to the workspace folder, the one holding the `.b3-workspace` file), node definitions in
//!   the workspace's `.b3-setting` file. Import a `.b3-workspace` to import every tree it
//!   lists, or one tree file (its subtrees come along).
//! - the original editor's (behavior3js): a tree `{"root": ID, "nodes": {ID: {…}}}` with
//!   `children`/`child` by id, or a project `{"trees": […], "custom_nodes": […]}` (also under
//!   `data`); a node whose name is another tree's id is a subtree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value as J;

use crate::pack::{Node, NodeKind, Pack, TreeDef, VarDecl};

use super::files::{Root, read_text};
use super::limits::{MAX_FILES, MAX_INCLUDE_DEPTH, MAX_TREE_DEPTH, MAX_TREE_NODES};
use super::report::{ImportError, ImportReport, Placeholder, declare_stub};
use super::{Imported, finish, script};

/// Comment prefix of a behavior3 placeholder; the source node's JSON follows.
const PLACEHOLDER_PREFIX: &str = "behavior3 placeholder: ";

/// Imports a behavior3 file: a desktop `.b3-workspace` (every tree it lists), a desktop tree
/// file, or an original-editor tree or project.
pub fn import_behavior3_file(path: &Path) -> Result<Imported, ImportError> {
    let (file_root, main) = Root::for_main(path)?;
    let shown = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let name = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into());
    let text = read_text(&main, &shown)?;
    let doc = parse_json(&text, &shown)?;
    let mut report = ImportReport::default();
    let mut pack = Pack::new(&name);
    if doc.get("nodes").is_some()
        || doc.get("trees").is_some()
        || doc.pointer("/data/trees").is_some()
    {
        flat::import(&doc, &shown, &mut pack, &mut report)?;
        return Ok(finish(pack, report));
    }
    let is_workspace = path.extension().is_some_and(|e| e == "b3-workspace");
    let root = if is_workspace {
        file_root
    } else {
        workspace_root(&main).unwrap_or(file_root)
    };
    let mut d = Desktop {
        root: &root,
        defs: BTreeMap::new(),
        report: &mut report,
        trees: Vec::new(),
        loaded: BTreeSet::new(),
        chain: Vec::new(),
    };
    d.load_defs()?;
    if is_workspace {
        let files = doc
            .get("files")
            .and_then(J::as_array)
            .ok_or_else(|| ImportError::Invalid {
                file: shown.clone(),
                line: 0,
                message: "a .b3-workspace needs a `files` list".into(),
            })?;
        for f in files {
            let Some(p) = f.get("path").and_then(J::as_str) else {
                continue;
            };
            let target = root
                .resolve(&main, p)
                .map_err(|why| ImportError::IncludeRefused {
                    file: shown.clone(),
                    line: 0,
                    path: p.to_string(),
                    why,
                })?;
            d.tree_file(&target)?;
        }
    } else {
        d.tree_file(&main)?;
    }
    pack.trees = d.trees;
    Ok(finish(pack, report))
}

fn parse_json(text: &str, shown: &str) -> Result<J, ImportError> {
    // serde_json stops at 128 levels of nesting itself.
    serde_json::from_str(text).map_err(|e| ImportError::Json {
        file: shown.to_string(),
        message: format!(
            "{} at line {} column {}",
            crate::pack::user_words(&e.to_string()),
            e.line(),
            e.column()
        ),
    })
}

/// The nearest folder (the file's own or up to 4 above) holding a `.b3-workspace` file.
fn workspace_root(file: &Path) -> Option<Root> {
    let mut dir = file.parent();
    for _ in 0..5 {
        let d = dir?;
        let mut found: Vec<PathBuf> = std::fs::read_dir(d)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "b3-workspace"))
            .collect();
        found.sort();
        if let Some(ws) = found.first() {
            return Root::for_main(ws).ok().map(|(r, _)| r);
        }
        dir = d.parent();
    }
    None
}

/// A tree id from a file path relative to the workspace: `workdir/sub/subtree1.json` →
/// `workdir/sub/subtree1`.
fn tree_id(root: &Root, file: &Path) -> String {
    let shown = root.shown(file).replace('\\', "/");
    shown.strip_suffix(".json").unwrap_or(&shown).to_string()
}

struct Desktop<'a> {
    root: &'a Root,
    /// Node definitions of the `.b3-setting` file: name → type (`Action`, `Composite`, …).
    defs: BTreeMap<String, String>,
    report: &'a mut ImportReport,
    trees: Vec<TreeDef>,
    loaded: BTreeSet<PathBuf>,
    chain: Vec<PathBuf>,
}

impl Desktop<'_> {
    fn load_defs(&mut self) -> Result<(), ImportError> {
        let dir = self.root.dir().to_path_buf();
        let mut settings: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| ImportError::Io {
                file: dir.display().to_string(),
                message: e.to_string(),
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "b3-setting"))
            .collect();
        settings.sort();
        let Some(s) = settings.first() else {
            return Ok(());
        };
        let shown = self.root.shown(s);
        let s = self
            .root
            .resolve_from_root(&shown)
            .map_err(|why| ImportError::IncludeRefused {
                file: shown.clone(),
                line: 0,
                path: shown.clone(),
                why,
            })?;
        let text = read_text(&s, &shown)?;
        let doc = parse_json(&text, &shown)?;
        let list = doc
            .as_array()
            .or_else(|| doc.get("nodes").and_then(J::as_array));
        for d in list.into_iter().flatten() {
            if let (Some(n), Some(t)) = (
                d.get("name").and_then(J::as_str),
                d.get("type").and_then(J::as_str),
            ) {
                self.defs.insert(n.to_string(), t.to_string());
            }
        }
        Ok(())
    }

    /// Imports one tree file (once) and the subtree files it names; returns its tree id.
    fn tree_file(&mut self, file: &Path) -> Result<String, ImportError> {
        let id = tree_id(self.root, file);
        let shown = self.root.shown(file);
        if let Some(pos) = self.chain.iter().position(|f| f == file) {
            let mut names: Vec<String> = self.chain[pos..]
                .iter()
                .map(|f| self.root.shown(f))
                .collect();
            names.push(shown);
            return Err(ImportError::IncludeCycle { chain: names });
        }
        if !self.loaded.insert(file.to_path_buf()) {
            return Ok(id);
        }
        if self.loaded.len() > MAX_FILES {
            return Err(ImportError::Limit {
                file: shown,
                what: "files in one import",
                limit: MAX_FILES,
            });
        }
        if self.chain.len() >= MAX_INCLUDE_DEPTH {
            return Err(ImportError::Limit {
                file: shown,
                what: "nested subtree files",
                limit: MAX_INCLUDE_DEPTH,
            });
        }
        let text = read_text(file, &shown)?;
        let doc = parse_json(&text, &shown)?;
        let Some(root) = doc.get("root").filter(|r| r.is_object()) else {
            return Err(ImportError::Invalid {
                file: shown,
                line: 0,
                message: "a behavior3 tree needs a `root` node object".into(),
            });
        };
        self.chain.push(file.to_path_buf());
        let mut ctx = NodeCtx {
            file: shown.clone(),
            tree: id.clone(),
            count: 0,
            blackboard: BTreeMap::new(),
        };
        let root_node = self.node(&mut ctx, file, root, 1)?;
        self.chain.pop();
        let vars: Vec<String> = doc
            .get("vars")
            .and_then(J::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| {
                let n = v.get("name")?.as_str()?;
                let d = v.get("desc").and_then(J::as_str).unwrap_or("");
                Some(if d.is_empty() {
                    n.to_string()
                } else {
                    format!("{n} ({d})")
                })
            })
            .collect();
        let mut comment = doc
            .get("desc")
            .and_then(J::as_str)
            .filter(|d| !d.is_empty())
            .map(str::to_string);
        if !vars.is_empty() {
            let line = format!("behavior3 variables: {}", vars.join(", "));
            comment = Some(match comment {
                Some(c) => format!("{c}\n{line}"),
                None => line,
            });
        }
        let name = doc.get("name").and_then(J::as_str).map(str::to_string);
        self.trees.push(TreeDef {
            id: id.clone(),
            name,
            comment,
            blackboard: ctx.blackboard,
            root: root_node,
        });
        Ok(id)
    }

    fn node(
        &mut self,
        ctx: &mut NodeCtx,
        file: &Path,
        n: &J,
        depth: usize,
    ) -> Result<Node, ImportError> {
        ctx.enter(depth)?;
        let ty = n.get("name").and_then(J::as_str).unwrap_or("");
        let id = match n.get("id") {
            Some(J::String(s)) => s.clone(),
            Some(J::Number(x)) => x.to_string(),
            _ => String::new(),
        };
        let comment = n
            .get("desc")
            .and_then(J::as_str)
            .filter(|d| !d.is_empty())
            .map(str::to_string);
        let disabled = n.get("disabled").and_then(J::as_bool).unwrap_or(false);
        let mut node = if let Some(p) = n.get("path").and_then(J::as_str) {
            // Paths are relative to the workspace; one relative to the file is accepted too.
            let target = self
                .root
                .resolve_from_root(p)
                .or_else(|_| self.root.resolve(file, p));
            let target = target.map_err(|why| ImportError::IncludeRefused {
                file: ctx.file.clone(),
                line: 0,
                path: p.to_string(),
                why,
            })?;
            let tree = self.tree_file(&target)?;
            ctx_node(NodeKind::Subtree { tree }, Vec::new())
        } else {
            let kids: Vec<&J> = n
                .get("children")
                .and_then(J::as_array)
                .into_iter()
                .flatten()
                .collect();
            let mut children = Vec::with_capacity(kids.len());
            for k in kids {
                children.push(self.node(ctx, file, k, depth + 1)?);
            }
            let category = self
                .defs
                .get(ty)
                .cloned()
                .unwrap_or_else(|| "Action".into());
            map_node(ctx, self.report, ty, &category, n, children, "desktop")?
        };
        node.id = if id.is_empty() { node.id } else { id };
        if node.comment.is_none() {
            node.comment = comment;
        }
        node.disabled = disabled;
        Ok(node)
    }
}

struct NodeCtx {
    file: String,
    tree: String,
    count: usize,
    blackboard: BTreeMap<String, VarDecl>,
}

impl NodeCtx {
    fn enter(&mut self, depth: usize) -> Result<(), ImportError> {
        if depth > MAX_TREE_DEPTH {
            return Err(ImportError::Limit {
                file: self.file.clone(),
                what: "levels of tree nesting",
                limit: MAX_TREE_DEPTH,
            });
        }
        self.count += 1;
        if self.count > MAX_TREE_NODES {
            return Err(ImportError::Limit {
                file: self.file.clone(),
                what: "nodes in one tree",
                limit: MAX_TREE_NODES,
            });
        }
        Ok(())
    }
}

fn ctx_node(kind: NodeKind, children: Vec<Node>) -> Node {
    Node {
        id: String::new(),
        name: None,
        comment: None,
        disabled: false,
        kind,
        children,
    }
}

fn num(args: Option<&J>, key: &str) -> Option<f64> {
    args?.get(key)?.as_f64().filter(|x| x.is_finite())
}

/// One behavior3 node (either dialect: `args` desktop, `properties` original) with its
/// converted children.
fn map_node(
    ctx: &mut NodeCtx,
    report: &mut ImportReport,
    ty: &str,
    category: &str,
    n: &J,
    mut children: Vec<Node>,
    dialect: &str,
) -> Result<Node, ImportError> {
    use NodeKind as K;
    let args = n.get("args").or_else(|| n.get("properties"));
    let construct = format!(
        "{ty} (node {})",
        n.get("id").map(J::to_string).unwrap_or_default()
    );
    let one = |children: &mut Vec<Node>, report: &mut ImportReport| {
        if children.len() > 1 {
            report.warn(
                &ctx.file,
                0,
                &construct,
                "a decorator with several children: only the first is kept",
            );
            children.truncate(1);
        }
    };
    let kind = match ty {
        "Sequence" | "MemSequence" => Some(K::Sequence { reactive: false }),
        "Selector" | "Priority" | "MemPriority" => Some(K::Selector { reactive: false }),
        "Parallel" => Some(K::Parallel {
            success_threshold: None,
            failure_threshold: None,
        }),
        "Inverter" => Some(K::Inverter),
        "AlwaysSuccess" | "Succeeder" if !children.is_empty() => Some(K::ForceSuccess),
        "AlwaysFail" | "AlwaysFailure" | "Failer" if !children.is_empty() => Some(K::ForceFailure),
        "AlwaysSuccess" | "Succeeder" => Some(K::Condition {
            expr: "true".into(),
        }),
        "AlwaysFail" | "AlwaysFailure" | "Failer" => Some(K::Condition {
            expr: "false".into(),
        }),
        "Timeout" => num(args, "time").map(|s| K::Timeout { seconds: s }),
        "MaxTime" => num(args, "maxTime").map(|ms| K::Timeout {
            seconds: ms / 1000.0,
        }),
        "Wait" if dialect == "desktop" => num(args, "time").map(|s| K::Wait { seconds: s }),
        "Wait" => num(args, "milliseconds").map(|ms| K::Wait {
            seconds: ms / 1000.0,
        }),
        "Log" => args
            .and_then(|a| a.get("message"))
            .and_then(J::as_str)
            .map(|m| K::Log {
                text: m.to_string(),
            }),
        "RepeatUntilFailure" | "Repeater" => Some(K::Repeat {
            times: num(args, "maxLoop").filter(|x| *x >= 0.0).map(|x| x as u32),
        }),
        "RepeatUntilSuccess" => Some(K::Retry {
            times: num(args, "maxLoop")
                .filter(|x| *x >= 0.0)
                .map_or(u32::MAX, |x| x as u32),
        }),
        "Check" => args
            .and_then(|a| a.get("value"))
            .and_then(J::as_str)
            .and_then(|code| match script::expression(code) {
                Ok(e) => Some(K::Condition {
                    expr: e.trim().to_string(),
                }),
                Err(why) => {
                    report.warn(
                        &ctx.file,
                        0,
                        &construct,
                        format!("expression `{code}` is not a Townsfolk expression ({why})"),
                    );
                    None
                }
            }),
        _ => None,
    };
    if let Some(kind) = kind {
        match kind.arity() {
            crate::pack::Arity::One => one(&mut children, report),
            crate::pack::Arity::Leaf if !children.is_empty() => {
                report.warn(
                    &ctx.file,
                    0,
                    &construct,
                    "a leaf with children: imported as a sequence of the leaf and its children",
                );
                let leaf = ctx_node(kind, Vec::new());
                children.insert(0, leaf);
                return Ok(ctx_node(K::Sequence { reactive: false }, children));
            }
            _ => {}
        }
        if matches!(
            ty,
            "MemSequence" | "MemPriority" | "Parallel" | "RepeatUntilFailure"
        ) {
            report.warn(
                &ctx.file,
                0,
                &construct,
                format!(
                    "imported as {}: behavior3's memory and loop rules differ in detail",
                    kind.type_name()
                ),
            );
        }
        return Ok(ctx_node(kind, children));
    }
    if !children.is_empty() {
        report.warn(
            &ctx.file,
            0,
            &construct,
            format!("unknown {category} with children: imported as a sequence of them"),
        );
        return Ok(ctx_node(K::Sequence { reactive: false }, children));
    }
    // A placeholder: a condition over a declared blackboard bool; the source node (args,
    // input, output) stays in the comment.
    let var = declare_stub(&mut ctx.blackboard, "behavior3", category, ty);
    let mut source = serde_json::Map::new();
    for k in ["name", "args", "properties", "input", "output"] {
        if let Some(v) = n.get(k) {
            source.insert(k.to_string(), v.clone());
        }
    }
    let mut node = ctx_node(K::Condition { expr: var.clone() }, Vec::new());
    node.comment = Some(format!("{PLACEHOLDER_PREFIX}{}", J::Object(source)));
    report.placeholders.push(Placeholder {
        file: ctx.file.clone(),
        line: 0,
        tree: ctx.tree.clone(),
        node: n
            .get("id")
            .map(|i| i.as_str().map_or(i.to_string(), str::to_string))
            .unwrap_or_default(),
        category: category.to_string(),
        source_type: ty.to_string(),
        var,
    });
    Ok(node)
}

/// The original editor's flat dialect.
mod flat {
    use super::*;

    pub(super) fn import(
        doc: &J,
        shown: &str,
        pack: &mut Pack,
        report: &mut ImportReport,
    ) -> Result<(), ImportError> {
        let trees: Vec<&J> = if doc.get("nodes").is_some() {
            vec![doc]
        } else {
            doc.get("trees")
                .or_else(|| doc.pointer("/data/trees"))
                .and_then(J::as_array)
                .into_iter()
                .flatten()
                .collect()
        };
        let customs = doc
            .get("custom_nodes")
            .or_else(|| doc.pointer("/data/custom_nodes"));
        let mut categories = BTreeMap::new();
        for c in customs.and_then(J::as_array).into_iter().flatten() {
            if let (Some(n), Some(cat)) = (
                c.get("name").and_then(J::as_str),
                c.get("category").and_then(J::as_str),
            ) {
                categories.insert(n.to_string(), cat.to_string());
            }
        }
        let ids: BTreeSet<String> = trees
            .iter()
            .filter_map(|t| t.get("id").and_then(J::as_str).map(str::to_string))
            .collect();
        for (i, t) in trees.iter().enumerate() {
            let id = t
                .get("id")
                .and_then(J::as_str)
                .map_or_else(|| format!("tree{}", i + 1), str::to_string);
            let invalid = |message: String| ImportError::Invalid {
                file: shown.to_string(),
                line: 0,
                message: format!("tree `{id}`: {message}"),
            };
            let nodes = t
                .get("nodes")
                .and_then(J::as_object)
                .ok_or_else(|| invalid("no `nodes` object".into()))?;
            let root = t
                .get("root")
                .and_then(J::as_str)
                .ok_or_else(|| invalid("no `root` node id".into()))?;
            let mut ctx = NodeCtx {
                file: shown.to_string(),
                tree: id.clone(),
                count: 0,
                blackboard: BTreeMap::new(),
            };
            let mut path = Vec::new();
            let r = node(
                &mut ctx,
                report,
                nodes,
                &categories,
                &ids,
                root,
                1,
                &mut path,
            )
            .map_err(|e| match e {
                Err(m) => invalid(m),
                Ok(e) => e,
            })?;
            pack.trees.push(TreeDef {
                id,
                name: t.get("title").and_then(J::as_str).map(str::to_string),
                comment: t
                    .get("description")
                    .and_then(J::as_str)
                    .filter(|d| !d.is_empty())
                    .map(str::to_string),
                blackboard: ctx.blackboard,
                root: r,
            });
        }
        Ok(())
    }

    /// `Err(Ok(e))`: a limit; `Err(Err(message))`: a broken tree.
    #[allow(clippy::too_many_arguments)]
    fn node(
        ctx: &mut NodeCtx,
        report: &mut ImportReport,
        nodes: &serde_json::Map<String, J>,
        categories: &BTreeMap<String, String>,
        trees: &BTreeSet<String>,
        id: &str,
        depth: usize,
        path: &mut Vec<String>,
    ) -> Result<Node, Result<ImportError, String>> {
        ctx.enter(depth).map_err(Ok)?;
        if path.iter().any(|p| p == id) {
            return Err(Err(format!(
                "node `{id}` is its own ancestor ({} -> {id})",
                path.join(" -> ")
            )));
        }
        let n = nodes
            .get(id)
            .ok_or_else(|| Err(format!("no node `{id}`")))?;
        let ty = n.get("name").and_then(J::as_str).unwrap_or("");
        let mut kid_ids: Vec<String> = n
            .get("children")
            .and_then(J::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().map(str::to_string))
            .collect();
        if let Some(c) = n.get("child").and_then(J::as_str) {
            kid_ids.push(c.to_string());
        }
        path.push(id.to_string());
        let mut children = Vec::new();
        for k in &kid_ids {
            children.push(node(
                ctx,
                report,
                nodes,
                categories,
                trees,
                k,
                depth + 1,
                path,
            )?);
        }
        path.pop();
        let mut out = if trees.contains(ty) && children.is_empty() {
            ctx_node(
                NodeKind::Subtree {
                    tree: ty.to_string(),
                },
                Vec::new(),
            )
        } else {
            let category = categories
                .get(ty)
                .cloned()
                .or_else(|| n.get("category").and_then(J::as_str).map(str::to_string))
                .unwrap_or_else(|| "action".into());
            map_node(ctx, report, ty, &category, n, children, "original").map_err(Ok)?
        };
        out.id = id.to_string();
        out.name = n
            .get("title")
            .and_then(J::as_str)
            .filter(|t| *t != ty)
            .map(str::to_string);
        if out.comment.is_none() {
            out.comment = n
                .get("description")
                .and_then(J::as_str)
                .filter(|d| !d.is_empty())
                .map(str::to_string);
        }
        Ok(out)
    }
}
