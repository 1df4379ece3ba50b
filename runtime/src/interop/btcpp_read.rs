//! BehaviorTree.CPP v4 XML to a pack: files and includes, then one tree at a time
//! (node mapping in `btcpp_nodes`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::pack::{Pack, TreeDef, VarDecl};

use super::btcpp_nodes::TreeCtx;
use super::files::{Root, read_text};
use super::limits::{MAX_FILES, MAX_INCLUDE_DEPTH, MAX_XML_NODES};
use super::report::{ImportError, ImportReport};
use super::{Imported, finish};

/// One source file of an import.
pub(super) struct Source {
    /// As shown in messages (relative to the import's folder).
    pub shown: String,
    pub text: String,
}

/// Parses XML with the importers' limits: no DTD (so no entity expansion), a node cap.
pub(super) fn parse_xml<'a>(
    text: &'a str,
    shown: &str,
) -> Result<roxmltree::Document<'a>, ImportError> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_XML_NODES,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(text, opts).map_err(|e| ImportError::Xml {
        file: shown.to_string(),
        message: e.to_string(),
    })
}

pub(super) fn line_of(n: roxmltree::Node) -> u32 {
    n.document().text_pos_at(n.range().start).row
}

/// Imports a BehaviorTree.CPP v4 file and the files it includes (inside its folder tree).
pub fn import_btcpp_file(path: &Path) -> Result<Imported, ImportError> {
    let (root, main) = Root::for_main(path)?;
    let mut sources = Vec::new();
    let mut seen = BTreeSet::new();
    let mut chain = Vec::new();
    let shown = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    load(&root, &main, shown, &mut chain, &mut seen, &mut sources)?;
    let name = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into());
    import_sources(&name, &sources)
}

/// Imports one BehaviorTree.CPP document given as text (`shown` names it in messages). An
/// `<include>` in it is an error: there is no folder to resolve it in.
pub fn import_btcpp_str(text: &str, shown: &str) -> Result<Imported, ImportError> {
    let doc = parse_xml(text, shown)?;
    if let Some(inc) = root_children(&doc).find(|n| n.has_tag_name("include")) {
        return Err(ImportError::IncludeRefused {
            file: shown.to_string(),
            line: line_of(inc),
            path: inc.attribute("path").unwrap_or_default().to_string(),
            why: "includes need the document to be read from a file".into(),
        });
    }
    let sources = [Source {
        shown: shown.to_string(),
        text: text.to_string(),
    }];
    let name = shown.trim_end_matches(".xml").to_string();
    import_sources(&name, &sources)
}

fn root_children<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    doc.root_element().children().filter(|n| n.is_element())
}

/// Reads `file` and, depth first, every file it includes, each once, in include order.
fn load(
    root: &Root,
    file: &Path,
    shown: String,
    chain: &mut Vec<(PathBuf, String)>,
    seen: &mut BTreeSet<PathBuf>,
    sources: &mut Vec<Source>,
) -> Result<(), ImportError> {
    if chain.len() >= MAX_INCLUDE_DEPTH {
        return Err(ImportError::Limit {
            file: shown,
            what: "nested includes",
            limit: MAX_INCLUDE_DEPTH,
        });
    }
    if seen.len() >= MAX_FILES {
        return Err(ImportError::Limit {
            file: shown,
            what: "files in one import",
            limit: MAX_FILES,
        });
    }
    seen.insert(file.to_path_buf());
    let text = read_text(file, &shown)?;
    chain.push((file.to_path_buf(), shown.clone()));
    let mut includes = Vec::new();
    {
        let doc = parse_xml(&text, &shown)?;
        for inc in root_children(&doc).filter(|n| n.has_tag_name("include")) {
            let line = line_of(inc);
            let refused = |path: &str, why: String| ImportError::IncludeRefused {
                file: shown.clone(),
                line,
                path: path.to_string(),
                why,
            };
            if inc.attribute("ros_pkg").is_some() {
                return Err(refused(
                    inc.attribute("path").unwrap_or_default(),
                    "ROS package includes (`ros_pkg`) are not supported".into(),
                ));
            }
            let Some(p) = inc.attribute("path") else {
                return Err(refused("", "the `path` attribute is missing".into()));
            };
            let target = root.resolve(file, p).map_err(|why| refused(p, why))?;
            includes.push(target);
        }
    }
    sources.push(Source { shown, text });
    for target in includes {
        if let Some(pos) = chain.iter().position(|(f, _)| *f == target) {
            let mut names: Vec<String> = chain[pos..].iter().map(|(_, s)| s.clone()).collect();
            names.push(chain[pos].1.clone());
            return Err(ImportError::IncludeCycle { chain: names });
        }
        if seen.contains(&target) {
            continue;
        }
        let shown = root.shown(&target);
        load(root, &target, shown, chain, seen, sources)?;
    }
    chain.pop();
    Ok(())
}

/// The node models of `<TreeNodesModel>`: type id → category (`Action`, `Condition`, …).
type Models = BTreeMap<String, String>;

fn import_sources(name: &str, sources: &[Source]) -> Result<Imported, ImportError> {
    let mut report = ImportReport::default();
    let docs: Vec<roxmltree::Document> = sources
        .iter()
        .map(|s| parse_xml(&s.text, &s.shown))
        .collect::<Result<_, _>>()?;
    // First pass: the format, every tree id and every node model.
    let mut tree_ids = BTreeSet::new();
    let mut models = Models::new();
    let mut main_tree = None;
    for (i, (doc, src)) in docs.iter().zip(sources).enumerate() {
        let r = doc.root_element();
        if !r.has_tag_name("root") {
            return Err(ImportError::Invalid {
                file: src.shown.clone(),
                line: line_of(r),
                message: format!(
                    "the document element is <{}>, not <root>",
                    r.tag_name().name()
                ),
            });
        }
        match r.attribute("BTCPP_format") {
            None => report.warn(
                &src.shown,
                line_of(r),
                "<root>",
                "no BTCPP_format attribute; read as BehaviorTree.CPP format 4",
            ),
            Some("4") => {}
            Some(v) => report.warn(
                &src.shown,
                line_of(r),
                "BTCPP_format",
                format!("format {v} is not 4; read as format 4"),
            ),
        }
        if i == 0 {
            main_tree = r.attribute("main_tree_to_execute").map(str::to_string);
        }
        for n in root_children(doc) {
            match n.tag_name().name() {
                "BehaviorTree" => {
                    let Some(id) = n.attribute("ID") else {
                        return Err(ImportError::Invalid {
                            file: src.shown.clone(),
                            line: line_of(n),
                            message: "<BehaviorTree> without an ID".into(),
                        });
                    };
                    if !tree_ids.insert(id.to_string()) {
                        return Err(ImportError::Invalid {
                            file: src.shown.clone(),
                            line: line_of(n),
                            message: format!("a second <BehaviorTree ID=\"{id}\">"),
                        });
                    }
                }
                "TreeNodesModel" => {
                    for m in n.children().filter(|c| c.is_element()) {
                        if let Some(id) = m.attribute("ID") {
                            models.insert(id.to_string(), m.tag_name().name().to_string());
                        }
                    }
                }
                "include" => {}
                other => report.warn(
                    &src.shown,
                    line_of(n),
                    &format!("<{other}>"),
                    "not a BehaviorTree.CPP top-level element; ignored",
                ),
            }
        }
    }
    // Second pass: the trees, in file order.
    let mut pack = Pack::new(name);
    for (doc, src) in docs.iter().zip(sources) {
        for n in root_children(doc).filter(|n| n.has_tag_name("BehaviorTree")) {
            let id = n.attribute("ID").unwrap_or_default().to_string();
            let body: Vec<_> = n.children().filter(|c| c.is_element()).collect();
            let [body] = body[..] else {
                return Err(ImportError::Invalid {
                    file: src.shown.clone(),
                    line: line_of(n),
                    message: format!(
                        "<BehaviorTree ID=\"{id}\"> has {} child elements; it needs exactly one",
                        body.len()
                    ),
                });
            };
            let mut blackboard = BTreeMap::new();
            if let Some(bb) = n.attribute("_tf_blackboard") {
                blackboard =
                    serde_json::from_str::<BTreeMap<String, VarDecl>>(bb).map_err(|e| {
                        ImportError::Invalid {
                            file: src.shown.clone(),
                            line: line_of(n),
                            message: format!(
                                "_tf_blackboard is not a blackboard: {}",
                                crate::pack::user_words(&e.to_string())
                            ),
                        }
                    })?;
            }
            let mut ctx = TreeCtx::new(&src.shown, &id, &tree_ids, &models, &mut report);
            ctx.blackboard = blackboard;
            let root = ctx.node(body, 1)?;
            let blackboard = std::mem::take(&mut ctx.blackboard);
            pack.trees.push(TreeDef {
                id,
                name: n.attribute("_tf_name").map(str::to_string),
                comment: n.attribute("_tf_comment").map(str::to_string),
                blackboard,
                root,
            });
        }
    }
    if let Some(main) = main_tree {
        match pack.trees.iter().position(|t| t.id == main) {
            Some(pos) => {
                let t = pack.trees.remove(pos);
                pack.trees.insert(0, t);
            }
            None => report.warn(
                &sources[0].shown,
                docs.first().map_or(0, |d| line_of(d.root_element())),
                "main_tree_to_execute",
                format!("no tree `{main}`"),
            ),
        }
    }
    Ok(finish(pack, report))
}
