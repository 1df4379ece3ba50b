//! Resolving a pack's layers: reading each file (or folder pack), following `extends`
//! (relative to the declaring pack, inside its folder tree unless the base was given on the
//! command line; cycles named; at most [`MAX_LAYERS`] layers), merging them in order, then
//! reading and checking the merged pack, every diagnostic sent back to its own file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::limits::MAX_LAYERS;
use super::locate::{LayerInfo, Locator, Texts};
use super::merge::{LayerDoc, Merger};
use super::{FileDiagnostic, Layer, Resolved};
use crate::pack::{self, Diagnostic, FORMAT, VERSION, diag};
use crate::program::{self, Program};

/// One layer as read, before merging.
pub(super) struct Source {
    pub name: String,
    pub path: PathBuf,
    pub doc: Map<String, Value>,
    pub extends: Vec<String>,
    pub texts: Texts,
    /// Warnings about the layer's files, already located.
    pub notes: Vec<FileDiagnostic>,
}

/// Resolves the pack given by `paths`: the first is the base of the others (each with its
/// own `extends` resolved first), the last is the top layer (the mod). One path: that pack
/// and whatever it extends. The merged pack is read and checked; every diagnostic is sent to
/// the file of the asset it is about.
pub fn resolve_files(paths: &[PathBuf]) -> Resolved {
    resolve_paths(paths, true).0
}

/// [`resolve_files`], and the program its checks compiled when there is no error (fit to
/// run: `Session::new(Arc::new(program), seed)`).
pub fn resolve_files_built(paths: &[PathBuf]) -> (Resolved, Option<Program>) {
    resolve_paths(paths, true)
}

/// Resolves in-memory layers `(name, text)`, in order (their `extends` are not followed:
/// the list is the layers). The first is the base of the others; the texts are checked
/// semantically too. For the editor, the fuzzer and tests.
pub fn resolve_texts(layers: &[(&str, &str)]) -> Resolved {
    let mut sources = Vec::new();
    let mut located = Vec::new();
    for (name, text) in layers {
        match parse_text(text) {
            Ok((doc, extends)) => sources.push(Source {
                name: name.to_string(),
                path: PathBuf::from(name),
                doc,
                extends,
                texts: Texts::File(text.to_string()),
                notes: Vec::new(),
            }),
            Err(d) => located.push(FileDiagnostic {
                file: name.to_string(),
                diagnostic: d,
            }),
        }
    }
    if !located.is_empty() {
        return Resolved {
            diagnostics: located,
            lossy: true,
            ..Resolved::default()
        };
    }
    let n = sources.len();
    let ancestors = (0..n)
        .map(|i| if i == 0 { BTreeSet::new() } else { [0].into() })
        .collect();
    let extends = vec![Vec::new(); n];
    merge_sources(sources, extends, ancestors, Vec::new(), true).0
}

fn resolve_paths(paths: &[PathBuf], built: bool) -> (Resolved, Option<Program>) {
    let mut st = Reading::default();
    for p in paths {
        match std::fs::canonicalize(p) {
            Ok(c) => st.cmdline.push(c),
            Err(e) => st.located.push(FileDiagnostic {
                file: p.display().to_string(),
                diagnostic: Diagnostic::error("", format!("cannot read: {e}")).at(1, 1),
            }),
        }
    }
    if st.located.is_empty() {
        let given: Vec<PathBuf> = st.cmdline.clone();
        let mut first = None;
        for (c, p) in given.iter().zip(paths) {
            if let Some(s) = st.visit(c, p.display().to_string(), None) {
                if let Some(f) = first {
                    // Each later command-line pack builds on the first (siblings among
                    // themselves: touching the same part is a conflict).
                    if f != s {
                        st.extra_base.push((s, f));
                    }
                } else {
                    first = Some(s);
                }
            }
        }
    }
    // A base that could not be read (or named) leaves nothing sound to merge: only the
    // reading problems are reported, not what the missing base would have defined.
    if !st.located.is_empty()
        || st.sources.is_empty()
        || st.pending.iter().any(|(_, d)| d.is_error())
    {
        let mut diags = st.located;
        let mut loc = Locator::new(
            st.sources
                .iter()
                .map(|s| LayerInfo::new(s.name.clone(), s.texts.clone(), &s.doc))
                .collect(),
        );
        for (s, d) in st.pending {
            loc.in_layer(s, d);
        }
        diags.extend(loc.finish());
        return (
            Resolved {
                diagnostics: diags,
                lossy: true,
                ..Resolved::default()
            },
            None,
        );
    }
    // Layers in the order they apply: every pack after the packs it extends.
    let order = st.order.clone();
    let pos: BTreeMap<usize, usize> = order.iter().enumerate().map(|(l, &s)| (s, l)).collect();
    let mut ancestors: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); st.sources.len()];
    for &s in &order {
        let mut a = BTreeSet::new();
        let direct: Vec<usize> = st.edges[s]
            .iter()
            .copied()
            .chain(
                st.extra_base
                    .iter()
                    .filter(|(x, _)| *x == s)
                    .map(|(_, b)| *b),
            )
            .collect();
        for b in direct {
            a.insert(b);
            a.extend(ancestors[b].iter().copied());
        }
        ancestors[s] = a;
    }
    let mut sources: Vec<Option<Source>> = st.sources.into_iter().map(Some).collect();
    let mut ordered = Vec::new();
    let mut extends = Vec::new();
    let mut anc = Vec::new();
    for &s in &order {
        if let Some(src) = sources[s].take() {
            ordered.push(src);
            extends.push(
                st.edges[s]
                    .iter()
                    .filter_map(|b| pos.get(b).copied())
                    .collect(),
            );
            anc.push(
                ancestors[s]
                    .iter()
                    .filter_map(|b| pos.get(b).copied())
                    .collect(),
            );
        }
    }
    let pending = st
        .pending
        .into_iter()
        .filter_map(|(s, d)| Some((*pos.get(&s)?, d)))
        .collect();
    merge_sources(ordered, extends, anc, pending, built)
}

/// Reading every layer, depth first.
#[derive(Default)]
struct Reading {
    /// Canonical paths given on the command line: a pack may extend these wherever they are.
    cmdline: Vec<PathBuf>,
    sources: Vec<Source>,
    by_path: BTreeMap<PathBuf, usize>,
    /// Bases each source extends (source indices).
    edges: Vec<Vec<usize>>,
    /// Sources in the order they apply.
    order: Vec<usize>,
    /// The chain being read, for cycles.
    stack: Vec<(PathBuf, String)>,
    /// `(source, base)`: later command-line packs build on the first.
    extra_base: Vec<(usize, usize)>,
    /// Diagnostics with a path in a source's document.
    pending: Vec<(usize, Diagnostic)>,
    /// Diagnostics already located.
    located: Vec<FileDiagnostic>,
}

impl Reading {
    /// Reads the pack at canonical path `path` and everything it extends; its source index.
    /// `from`: the source and `extends` entry that named it.
    fn visit(&mut self, path: &Path, name: String, from: Option<(usize, usize)>) -> Option<usize> {
        let fail = |this: &mut Self, msg: String| {
            match from {
                Some((s, j)) => this
                    .pending
                    .push((s, Diagnostic::error(diag::index("extends", j), msg))),
                None => this.located.push(FileDiagnostic {
                    file: name.clone(),
                    diagnostic: Diagnostic::error("", msg).at(1, 1),
                }),
            }
            None
        };
        if let Some(at) = self.stack.iter().position(|(p, _)| p == path) {
            let mut chain: Vec<String> = self.stack[at..].iter().map(|(_, n)| n.clone()).collect();
            chain.push(name.clone());
            return fail(
                self,
                format!(
                    "extends cycle: {} (a pack cannot extend itself)",
                    chain.join(" → ")
                ),
            );
        }
        if let Some(&s) = self.by_path.get(path) {
            return Some(s);
        }
        if self.sources.len() >= MAX_LAYERS {
            return fail(
                self,
                format!("too many layers: a pack and its bases are limited to {MAX_LAYERS}"),
            );
        }
        let source = match read_source(path, &name) {
            Ok(s) => s,
            Err(ds) => {
                self.located.extend(ds);
                return None;
            }
        };
        let s = self.sources.len();
        let extends = source.extends.clone();
        self.sources.push(source);
        self.edges.push(Vec::new());
        self.by_path.insert(path.to_path_buf(), s);
        self.stack.push((path.to_path_buf(), name.clone()));
        // A file's bases are relative to its folder; a folder pack's, to the folder holding it.
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for (j, e) in extends.iter().enumerate() {
            match self.base_path(&dir, e) {
                Ok(b) => {
                    let shown = shown_name(&name, e);
                    if let Some(bs) = self.visit(&b, shown, Some((s, j))) {
                        self.edges[s].push(bs);
                    }
                }
                Err(msg) => self
                    .pending
                    .push((s, Diagnostic::error(diag::index("extends", j), msg))),
            }
        }
        self.stack.pop();
        self.order.push(s);
        Some(s)
    }

    /// The canonical path of base `reference` written in a pack in `dir`, or why not.
    fn base_path(&self, dir: &Path, reference: &str) -> Result<PathBuf, String> {
        if reference.is_empty() {
            return Err("the path of a base pack is empty".into());
        }
        let joined = dir.join(reference);
        let canon = std::fs::canonicalize(&joined)
            .map_err(|e| format!("cannot read base pack `{reference}`: {e}"))?;
        if self.cmdline.contains(&canon) {
            return Ok(canon);
        }
        if Path::new(reference).is_absolute() {
            return Err(format!(
                "base pack `{reference}` is an absolute path; give a path relative to this pack, or give the base on the command line (`--with`)"
            ));
        }
        if !canon.starts_with(dir) {
            return Err(format!(
                "base pack `{reference}` resolves to {}, outside this pack's folder {}; a mod reads only inside its folder tree (give the base on the command line with `--with` to allow it)",
                canon.display(),
                dir.display()
            ));
        }
        Ok(canon)
    }
}

/// A base's name as shown: the path as written, joined to the folder of the pack naming it.
fn shown_name(from: &str, reference: &str) -> String {
    match Path::new(from).parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(reference).display().to_string(),
        _ => reference.to_string(),
    }
}

/// Reads one layer: a pack file or a folder pack.
fn read_source(path: &Path, name: &str) -> Result<Source, Vec<FileDiagnostic>> {
    if path.is_dir() {
        let f = super::folder::read_doc(path, name)?;
        return Ok(Source {
            name: name.to_string(),
            path: path.to_path_buf(),
            doc: f.doc,
            extends: f.extends,
            texts: f.texts,
            notes: f.warnings,
        });
    }
    let one = |d: Diagnostic| {
        vec![FileDiagnostic {
            file: name.to_string(),
            diagnostic: d,
        }]
    };
    let bytes = pack::read_file(path).map_err(one)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let loaded = pack::load_bytes(e.as_bytes());
        let d = loaded
            .diagnostics
            .into_iter()
            .next()
            .unwrap_or_else(|| Diagnostic::error("", "not UTF-8 text").at(1, 1));
        one(d)
    })?;
    let (doc, extends) = parse_text(&text).map_err(one)?;
    Ok(Source {
        name: name.to_string(),
        path: path.to_path_buf(),
        doc,
        extends,
        texts: Texts::File(text),
        notes: Vec::new(),
    })
}

/// Parses one layer's text: the document (without `extends`) and its `extends`; the error
/// is located.
pub(super) fn parse_text(text: &str) -> Result<(Map<String, Value>, Vec<String>), Diagnostic> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() > pack::MAX_PACK_BYTES {
        let loaded = pack::load_str(text);
        return Err(loaded
            .diagnostics
            .into_iter()
            .next()
            .unwrap_or_else(|| Diagnostic::error("", "file too large").at(1, 1)));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let mut msg = e.to_string();
        if let Some(cut) = msg.rfind(" at line ") {
            msg.truncate(cut);
        }
        if msg.contains("recursion limit") {
            msg.push_str(" (nesting deeper than 128 levels is refused)");
        }
        Diagnostic::error("", format!("invalid JSON: {msg}"))
            .at(e.line() as u32, e.column().max(1) as u32)
    })?;
    let located = |d: Diagnostic| {
        let mut ds = [d];
        diag::locate_all(text, &mut ds);
        let [d] = ds;
        d
    };
    let Value::Object(mut doc) = value else {
        return Err(Diagnostic::error("", "a pack is a JSON object").at(1, 1));
    };
    match doc.get("format") {
        Some(Value::String(s)) if s == FORMAT => {}
        Some(other) => {
            return Err(located(Diagnostic::error(
                "format",
                format!("expected \"{FORMAT}\", found {other}"),
            )));
        }
        None => {
            return Err(located(Diagnostic::error(
                "",
                format!("missing `\"format\": \"{FORMAT}\"`: is this a Townsfolk pack?"),
            )));
        }
    }
    if doc.get("version").and_then(Value::as_u64) != Some(u64::from(VERSION)) {
        return Err(located(Diagnostic::error(
            "version",
            format!("missing or unsupported `version` (this Townsfolk reads version {VERSION})"),
        )));
    }
    let extends = match doc.remove("extends") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => items
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        Some(_) => {
            return Err(located(Diagnostic::error(
                "extends",
                "expected an array of paths of base packs, e.g. [\"base.json\"]",
            )));
        }
    };
    if extends.len() > MAX_LAYERS {
        return Err(located(Diagnostic::error(
            "extends",
            format!("too many layers: a pack and its bases are limited to {MAX_LAYERS}"),
        )));
    }
    Ok((doc, extends))
}

/// Merges read sources (in the order they apply) into the resolved pack.
fn merge_sources(
    sources: Vec<Source>,
    extends: Vec<Vec<usize>>,
    ancestors: Vec<BTreeSet<usize>>,
    pending: Vec<(usize, Diagnostic)>,
    built: bool,
) -> (Resolved, Option<Program>) {
    let names: Vec<String> = sources.iter().map(|s| s.name.clone()).collect();
    let top_extends = sources
        .last()
        .map(|s| s.extends.clone())
        .unwrap_or_default();
    let layers: Vec<Layer> = sources
        .iter()
        .zip(&extends)
        .map(|(s, e)| Layer {
            name: s.name.clone(),
            path: s.path.clone(),
            extends: e.clone(),
        })
        .collect();
    let mut infos = Vec::new();
    let mut merger = Merger::new(names);
    let n = sources.len();
    let mut base_doc = None;
    let mut notes = Vec::new();
    for (l, (s, anc)) in sources.into_iter().zip(ancestors).enumerate() {
        notes.extend(s.notes);
        infos.push(LayerInfo::new(s.name.clone(), s.texts, &s.doc));
        if l + 1 == n && n > 1 {
            base_doc = Some(merger.doc.clone());
        }
        merger.apply(
            l,
            LayerDoc {
                doc: s.doc,
                ancestors: anc,
            },
        );
    }
    let mut loc = Locator::new(infos);
    for d in notes {
        loc.located(d);
    }
    for (l, d) in pending {
        loc.in_layer(l, d);
    }
    for (l, d) in std::mem::take(&mut merger.diags) {
        loc.in_layer(l, d);
    }
    let merged = std::mem::take(&mut merger.doc);
    let text = serde_json::to_string(&Value::Object(merged.clone())).unwrap_or_default();
    let loaded = pack::load_str(&text);
    let unknown_fields = loaded.unknown_fields;
    for d in loaded.diagnostics {
        loc.in_merged(d, &merged, &merger.origins);
    }
    let mut program = None;
    if let Some(p) = &loaded.pack
        && built
    {
        let (prog, semantic) = program::build(p);
        if !semantic.iter().any(Diagnostic::is_error) {
            program = Some(prog);
        }
        for d in semantic {
            loc.in_merged(d, &merged, &merger.origins);
        }
    }
    let base = base_doc.and_then(|b| {
        let t = serde_json::to_string(&Value::Object(b)).ok()?;
        pack::load_str(&t).pack
    });
    let diagnostics = loc.finish();
    let has_errors = diagnostics.iter().any(FileDiagnostic::is_error);
    (
        Resolved {
            pack: loaded.pack,
            base,
            layers,
            origins: merger.origins,
            diagnostics,
            lossy: merger.lossy || loaded.lossy,
            extends: top_extends,
            unknown_fields,
        },
        program.filter(|_| !has_errors),
    )
}
