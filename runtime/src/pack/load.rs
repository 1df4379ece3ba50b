//! Loading packs from untrusted text: `(value, diagnostics)`, never a panic.
//!
//! A clean pack is read by the fast path (`fast.rs`: typed serde from the text); whenever it
//! gives up, the careful reader here reads the text: it is parsed once into a JSON value (bounded nesting: serde_json's recursion limit),
//! then each item (tree, NPC, object, area) is read on its own, so that one bad item is
//! reported and skipped while the rest of the pack still opens. Unknown fields are reported
//! as warnings with their path. Loading only reads: semantic checks (ids, references,
//! expressions) belong to the program layer, which compiles the pack.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::diag::{self, Diagnostic};
use super::model::*;
use super::read_skips::{Skip, Skips};

/// Packs larger than this are refused before parsing (bounded memory).
pub const MAX_PACK_BYTES: usize = 32 * 1024 * 1024;
/// Deepest behavior tree accepted (nodes from root to leaf).
pub const MAX_TREE_DEPTH: usize = 48;

/// The result of loading: the pack, if the text could be read as one, and every diagnostic.
#[derive(Debug, Default)]
pub struct Loaded {
    pub pack: Option<Pack>,
    pub diagnostics: Vec<Diagnostic>,
    /// True when some item could not be read and was left out of `pack`: saving `pack` over
    /// the file would lose it.
    pub lossy: bool,
    /// JSON paths of unknown fields: read past (with a warning), and not kept in `pack`.
    pub unknown_fields: Vec<String>,
}

impl Loaded {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Nothing could be read: one diagnostic (at 1:1 when it has no position), no pack.
    pub fn refused(d: Diagnostic) -> Loaded {
        fatal(d)
    }
}

/// Loads a pack from raw bytes (checks size and UTF-8 first).
pub fn load_bytes(bytes: &[u8]) -> Loaded {
    if bytes.len() > MAX_PACK_BYTES {
        return fatal(Diagnostic::error(
            "",
            format!(
                "file is {:.1} MiB; packs are limited to {} MiB",
                bytes.len() as f64 / (1024.0 * 1024.0),
                MAX_PACK_BYTES / (1024 * 1024)
            ),
        ));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => load_str(text.strip_prefix('\u{feff}').unwrap_or(text)),
        Err(e) => {
            let ok = &bytes[..e.valid_up_to()];
            let line = ok.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let line_start = ok.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let col = String::from_utf8_lossy(&ok[line_start..]).chars().count() as u32 + 1;
            fatal(
                Diagnostic::error(
                    "",
                    format!(
                        "not UTF-8 text: invalid byte 0x{:02x} at offset {}",
                        bytes[e.valid_up_to()],
                        e.valid_up_to()
                    ),
                )
                .at(line, col),
            )
        }
    }
}

fn fatal(mut d: Diagnostic) -> Loaded {
    if d.line.is_none() {
        d = d.at(1, 1);
    }
    Loaded {
        pack: None,
        diagnostics: vec![d],
        lossy: true,
        unknown_fields: Vec::new(),
    }
}

/// Reads a pack from text: structure and unknown fields. Semantic checks (ids, references,
/// expressions) are the program layer's (`program::load_str` does both).
pub fn load_str(text: &str) -> Loaded {
    load_str_skips(text).0
}

/// [`load_str`], also telling which items were left out of the pack (the program's loader
/// moves its checks' paths back to the text and holds back their follow-ons).
pub(crate) fn load_str_skips(text: &str) -> (Loaded, Skips) {
    // A byte order mark, as some editors write, is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() > MAX_PACK_BYTES {
        return (load_bytes(text.as_bytes()), Skips::default());
    }
    // Typed straight from the text when the pack is clean (nothing to report); anything
    // else is read again by the careful reader below, with its diagnostics (as is text that
    // may hold a string over the cap, which only the careful reader measures).
    let may_hold_long_strings =
        super::strings::longest_raw_string(text) > super::strings::MAX_PACK_STRING_CHARS;
    if !may_hold_long_strings && let Some(pack) = super::fast::read(text) {
        let loaded = Loaded {
            pack: Some(pack),
            diagnostics: Vec::new(),
            lossy: false,
            unknown_fields: Vec::new(),
        };
        return (loaded, Skips::default());
    }
    careful_skips(text)
}

/// The careful reader: the text as one JSON value, then each item on its own, every problem
/// a diagnostic. `text` has no byte order mark and is within [`MAX_PACK_BYTES`].
#[cfg(test)]
pub(super) fn careful(text: &str) -> Loaded {
    careful_skips(text).0
}

/// [`careful`], with the items it left out.
fn careful_skips(text: &str) -> (Loaded, Skips) {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let mut msg = e.to_string();
            // serde_json appends " at line L column C"; we print position separately.
            if let Some(cut) = msg.rfind(" at line ") {
                msg.truncate(cut);
            }
            if msg.contains("recursion limit") {
                msg.push_str(" (nesting deeper than 128 levels is refused)");
            }
            let d = Diagnostic::error("", format!("invalid JSON: {msg}"))
                .at(e.line() as u32, e.column().max(1) as u32);
            return (fatal(d), Skips::default());
        }
    };
    let mut r = Reader::default();
    super::strings::check_lengths(&value, &mut r.diags);
    let pack = r.pack(value);
    let mut diagnostics = r.diags;
    diag::locate_all(text, &mut diagnostics);
    diag::sort(&mut diagnostics);
    let loaded = Loaded {
        pack,
        diagnostics,
        lossy: r.lossy,
        unknown_fields: r.unknown,
    };
    (loaded, Skips(r.skipped))
}

#[derive(Default)]
struct Reader {
    diags: Vec<Diagnostic>,
    lossy: bool,
    unknown: Vec<String>,
    /// Items left out of the pack, in reading order.
    skipped: Vec<Skip>,
}

impl Reader {
    /// Deserializes one item, reporting unknown fields as warnings and errors with their path.
    ///
    /// The happy path deserializes without tracking paths; only when that fails is the item
    /// read again with `serde_path_to_error`, whose error (path and message) is reported.
    fn item<T: DeserializeOwned>(&mut self, v: &Value, path: &str) -> Option<T> {
        let mut unknown = Vec::new();
        let mut on_unknown = |p: serde_ignored::Path| unknown.push(ignored_path(&p));
        let fast: Result<T, _> =
            T::deserialize(serde_ignored::Deserializer::new(v, &mut on_unknown));
        let r = match fast {
            Ok(t) => Ok(t),
            Err(_) => {
                unknown.clear();
                let mut on_unknown = |p: serde_ignored::Path| unknown.push(ignored_path(&p));
                let de = serde_ignored::Deserializer::new(v, &mut on_unknown);
                serde_path_to_error::deserialize::<_, T>(de)
            }
        };
        for u in unknown {
            let (full, field) = join(path, &u);
            self.unknown.push(full.clone());
            self.diags.push(
                Diagnostic::warning(
                    full,
                    format!("unknown field `{field}` (ignored; check its spelling)"),
                )
                .on_key(),
            );
        }
        match r {
            Ok(t) => Some(t),
            Err(e) => {
                let inner = e.path().to_string();
                let full = if inner == "." {
                    path.to_string()
                } else {
                    join(path, &inner).0
                };
                self.diags
                    .push(Diagnostic::error(full, clean_msg(&e.inner().to_string())));
                self.lossy = true;
                None
            }
        }
    }

    fn pack(&mut self, v: Value) -> Option<Pack> {
        let obj = match v {
            Value::Object(m) => m,
            other => {
                self.diags.push(Diagnostic::error(
                    "",
                    format!("a pack is a JSON object, found {}", kind_of(&other)),
                ));
                return None;
            }
        };
        match obj.get("format") {
            Some(Value::String(s)) if s == FORMAT => {}
            Some(other) => {
                self.diags.push(Diagnostic::error(
                    "format",
                    format!("expected \"{FORMAT}\", found {other}"),
                ));
                return None;
            }
            None => {
                self.diags.push(Diagnostic::error(
                    "",
                    format!("missing `\"format\": \"{FORMAT}\"`: is this a Townsfolk pack?"),
                ));
                return None;
            }
        }
        let version = match obj.get("version").and_then(Value::as_u64) {
            Some(v) => v,
            None => {
                self.diags.push(Diagnostic::error(
                    "version",
                    "missing or invalid `version` (a positive integer)",
                ));
                return None;
            }
        };
        if version != VERSION as u64 {
            self.diags.push(Diagnostic::error(
                "version",
                format!(
                    "pack format version {version} is not supported (this Townsfolk reads version {VERSION})"
                ),
            ));
            return None;
        }
        let (has_name, has_world) = (obj.contains_key("name"), obj.contains_key("world"));
        let mut pack = Pack::new("");
        for (k, val) in obj {
            match k.as_str() {
                "format" | "version" => {}
                "name" => match val.as_str() {
                    Some(s) => pack.name = s.to_string(),
                    None => self.diags.push(Diagnostic::error(
                        "name",
                        format!("expected a string, found {}", kind_of(&val)),
                    )),
                },
                "comment" => pack.comment = self.item(&val, "comment"),
                "world" => {
                    if let Some(w) = self.world(val) {
                        pack.world = w;
                    }
                }
                "trees" => {
                    pack.trees = self.list(val, "trees", |r, v, p| r.tree(v, p));
                }
                "areas" => pack.areas = self.list(val, "areas", |r, v, p| r.item(&v, p)),
                "events" => pack.events = self.list(val, "events", |r, v, p| r.item(&v, p)),
                "scenarios" => {
                    pack.scenarios = self.list(val, "scenarios", |r, v, p| r.item(&v, p))
                }
                "casts" => pack.casts = self.list(val, "casts", |r, v, p| r.item(&v, p)),
                "triggers" => pack.triggers = self.list(val, "triggers", |r, v, p| r.item(&v, p)),
                "tests" => pack.tests = self.list(val, "tests", |r, v, p| r.item(&v, p)),
                "editor" => {
                    if let Some(e) = self.item(&val, "editor") {
                        pack.editor = e;
                    }
                }
                other => {
                    self.unknown.push(diag::key("", other));
                    self.diags.push(
                        Diagnostic::warning(
                            diag::key("", other),
                            format!("unknown section `{other}` (ignored)"),
                        )
                        .on_key(),
                    )
                }
            }
        }
        if !has_name {
            self.diags
                .push(Diagnostic::warning("", "missing `name` of the pack"));
        }
        if !has_world {
            self.diags
                .push(Diagnostic::warning("", "missing `world`; using defaults"));
        }
        Some(pack)
    }

    fn list<T>(
        &mut self,
        v: Value,
        path: &'static str,
        mut f: impl FnMut(&mut Self, Value, &str) -> Option<T>,
    ) -> Vec<T> {
        let items = match v {
            Value::Array(items) => items,
            other => {
                self.diags.push(Diagnostic::error(
                    path,
                    format!("expected an array, found {}", kind_of(&other)),
                ));
                self.lossy = true;
                self.skipped.push(Skip {
                    list: path,
                    index: None,
                });
                return Vec::new();
            }
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, it) in items.into_iter().enumerate() {
            match f(self, it, &diag::index(path, i)) {
                Some(t) => out.push(t),
                None => self.skipped.push(Skip {
                    list: path,
                    index: Some(i),
                }),
            }
        }
        out
    }

    fn world(&mut self, v: Value) -> Option<WorldDef> {
        let mut head = match v {
            Value::Object(m) => m,
            other => {
                self.diags.push(Diagnostic::error(
                    "world",
                    format!("expected an object, found {}", kind_of(&other)),
                ));
                self.lossy = true;
                self.skipped.push(Skip {
                    list: "world",
                    index: None,
                });
                return None;
            }
        };
        // Read the scalar part as a whole, the lists item by item.
        let objects = head.remove("objects");
        let npcs = head.remove("npcs");
        let walls = head.remove("walls");
        let Some(mut w) = self.item::<WorldDef>(&Value::Object(head), "world") else {
            self.skipped.push(Skip {
                list: "world",
                index: None,
            });
            return None;
        };
        if let Some(o) = objects {
            w.objects = self.list(o, "world.objects", |r, v, p| r.item(&v, p));
        }
        if let Some(n) = npcs {
            w.npcs = self.list(n, "world.npcs", |r, v, p| r.item(&v, p));
        }
        if let Some(l) = walls {
            w.walls = self.list(l, "world.walls", |r, v, p| r.item(&v, p));
        }
        Some(w)
    }

    fn tree(&mut self, v: Value, path: &str) -> Option<TreeDef> {
        let mut head = match v {
            Value::Object(m) => m,
            other => {
                self.diags.push(Diagnostic::error(
                    path,
                    format!("a tree is an object, found {}", kind_of(&other)),
                ));
                self.lossy = true;
                return None;
            }
        };
        let root = head.remove("root");
        #[derive(serde::Deserialize)]
        struct Head {
            id: String,
            #[serde(default)]
            name: Option<String>,
            #[serde(default)]
            comment: Option<String>,
            #[serde(default)]
            blackboard: std::collections::BTreeMap<String, VarDecl>,
        }
        let h: Head = self.item(&Value::Object(head), path)?;
        let Some(root) = root else {
            self.diags.push(Diagnostic::error(
                path,
                format!("tree `{}` has no `root` node", h.id),
            ));
            self.lossy = true;
            return None;
        };
        let root = self.node(root, &diag::key(path, "root"), 1)?;
        Some(TreeDef {
            id: h.id,
            name: h.name,
            comment: h.comment,
            blackboard: h.blackboard,
            root,
        })
    }

    /// Reads one node and its children. Every problem in the subtree is reported; the node
    /// is returned only if the whole subtree could be read.
    fn node(&mut self, v: Value, path: &str, depth: usize) -> Option<Node> {
        let mut rest = match v {
            Value::Object(m) => m,
            other => {
                self.diags.push(Diagnostic::error(
                    path,
                    format!("a node is an object, found {}", kind_of(&other)),
                ));
                self.lossy = true;
                return None;
            }
        };
        if depth > MAX_TREE_DEPTH {
            self.diags.push(Diagnostic::error(
                path,
                format!("tree is deeper than {MAX_TREE_DEPTH} levels; use subtrees"),
            ));
            self.lossy = true;
            return None;
        }
        let mut ok = true;
        let id = match rest.remove("id") {
            Some(Value::String(s)) => s,
            other => {
                self.diags.push(Diagnostic::error(
                    if other.is_some() {
                        diag::key(path, "id")
                    } else {
                        path.to_string()
                    },
                    "every node needs a string `id`, unique in its tree",
                ));
                ok = false;
                String::new()
            }
        };
        let text = |rest: &mut Map<String, Value>, k: &str, this: &mut Self| match rest.remove(k) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(o) => {
                this.diags.push(Diagnostic::error(
                    diag::key(path, k),
                    format!("expected a string, found {}", kind_of(&o)),
                ));
                None
            }
        };
        let name = text(&mut rest, "name", self);
        let comment = text(&mut rest, "comment", self);
        let disabled = match rest.remove("disabled") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => b,
            Some(o) => {
                self.diags.push(Diagnostic::error(
                    diag::key(path, "disabled"),
                    format!("expected true or false, found {}", kind_of(&o)),
                ));
                false
            }
        };
        let children_v = rest.remove("children");
        let kind = match rest.get("type") {
            Some(Value::String(t)) if !NodeKind::TYPE_NAMES.contains(&t.as_str()) => {
                self.diags.push(Diagnostic::error(
                    diag::key(path, "type"),
                    format!(
                        "unknown node type `{t}`{}; known types: {}",
                        suggest(t, NodeKind::TYPE_NAMES)
                            .map(|s| format!(" (did you mean `{s}`?)"))
                            .unwrap_or_default(),
                        NodeKind::TYPE_NAMES.join(", ")
                    ),
                ));
                None
            }
            Some(Value::String(_)) => {
                // Without path tracking first; with it only to report an error.
                let params = Value::Object(std::mem::take(&mut rest));
                let r = match NodeKind::deserialize(&params) {
                    Ok(k) => Ok(k),
                    Err(_) => serde_path_to_error::deserialize::<_, NodeKind>(&params),
                };
                if let Value::Object(m) = params {
                    rest = m;
                }
                match r {
                    Ok(k) => {
                        // Unknown parameters: keys that do not come back when re-serialized.
                        let back = serde_json::to_value(&k).unwrap_or(Value::Null);
                        for (key, val) in &rest {
                            if !val.is_null() && back.get(key).is_none() {
                                self.unknown.push(diag::key(path, key));
                                self.diags.push(
                                    Diagnostic::warning(
                                        diag::key(path, key),
                                        format!(
                                            "unknown field `{key}` for a `{}` node (ignored)",
                                            k.type_name()
                                        ),
                                    )
                                    .on_key(),
                                );
                            }
                        }
                        Some(k)
                    }
                    Err(e) => {
                        let msg = e.inner().to_string();
                        let p = match e.path().to_string().as_str() {
                            "." => culprit(&rest, &msg)
                                .map_or_else(|| path.to_string(), |k| diag::key(path, &k)),
                            inner => join(path, inner).0,
                        };
                        self.diags.push(Diagnostic::error(p, clean_msg(&msg)));
                        None
                    }
                }
            }
            Some(o) => {
                self.diags.push(Diagnostic::error(
                    diag::key(path, "type"),
                    format!("expected a node type name, found {}", kind_of(o)),
                ));
                None
            }
            None => {
                self.diags.push(Diagnostic::error(
                    path,
                    format!("node `{id}` has no `type`"),
                ));
                None
            }
        };
        let mut children = Vec::new();
        match children_v {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                let cpath = diag::key(path, "children");
                for (i, c) in items.into_iter().enumerate() {
                    match self.node(c, &diag::index(&cpath, i), depth + 1) {
                        Some(n) => children.push(n),
                        None => ok = false,
                    }
                }
            }
            Some(o) => {
                self.diags.push(Diagnostic::error(
                    diag::key(path, "children"),
                    format!("expected an array of nodes, found {}", kind_of(&o)),
                ));
                ok = false;
            }
        }
        match kind {
            Some(kind) if ok => Some(Node {
                id,
                name,
                comment,
                disabled,
                kind,
                children,
            }),
            _ => {
                self.lossy = true;
                None
            }
        }
    }
}

/// Which parameter of a node made its deserialization fail: serde reports errors inside an
/// internally tagged enum without a path, so try again without each parameter and see which
/// one changes the error. Only runs on errors.
fn culprit(params: &Map<String, Value>, msg: &str) -> Option<String> {
    params.keys().filter(|k| *k != "type").find_map(|k| {
        let mut without = params.clone();
        without.remove(k);
        match serde_json::from_value::<NodeKind>(Value::Object(without)) {
            Err(e) if e.to_string() == msg => None,
            _ => Some(k.clone()),
        }
    })
}

/// Joins an item path with a path inside it as printed by serde_path_to_error/serde_ignored
/// (`a.b[0].c` / `a.b.0.c`); returns the full path and the last key.
fn join(base: &str, inner: &str) -> (String, String) {
    let mut p = base.to_string();
    let mut last = String::new();
    for seg in inner.split('.').filter(|s| !s.is_empty() && *s != "?") {
        // serde_path_to_error prints sequences as `name[3]`.
        let (name, idx) = match seg.find('[') {
            Some(b) => (&seg[..b], Some(&seg[b..])),
            None => (seg, None),
        };
        if !name.is_empty() {
            if let Ok(i) = name.parse::<usize>() {
                diag::push_index(&mut p, i);
            } else {
                diag::push_key(&mut p, name);
                last = name.to_string();
            }
        }
        if let Some(ix) = idx {
            p.push_str(ix);
        }
    }
    (p, last)
}

fn ignored_path(p: &serde_ignored::Path) -> String {
    use serde_ignored::Path;
    match p {
        Path::Root => String::new(),
        Path::Seq { parent, index } => format!("{}.{}", ignored_path(parent), index),
        Path::Map { parent, key } => format!("{}.{}", ignored_path(parent), key),
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => ignored_path(parent),
    }
}

fn clean_msg(m: &str) -> String {
    super::read_words::user_words(m)
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(true) => "true",
        Value::Bool(false) => "false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The closest known name (edit distance ≤ 2), for "did you mean" hints.
pub fn suggest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    fn dist(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                let sub = prev[j] + usize::from(ca != *cb);
                cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
            }
            prev = cur;
        }
        prev[b.len()]
    }
    if word.chars().count() > 64 {
        return None;
    }
    known
        .iter()
        .map(|k| (dist(word, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
}
