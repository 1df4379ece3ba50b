//! What each fuzz target does with one input, and the properties it asserts (a panic is a
//! finding). Shared by the cargo-fuzz targets (`fuzz_targets/`) and by the regression test
//! `runtime/tests/fuzz_regressions.rs`, which includes this file by path and replays every
//! saved crasher through the same functions without the fuzzer. Needs only the runtime crate
//! and serde_json.

use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;
use townsfolk_runtime::expr::{Env, Expr, Resolver, Scope};
use townsfolk_runtime::value::{EntityId, Sym, Type, Value as V, Vec2};
use townsfolk_runtime::{interop, pack, program};

/// `pack_load`: bytes → the full load (reader, semantic checks, build); a pack that was read
/// must write canonically to text that loads again to the same pack and writes the same
/// bytes.
pub fn pack_load(data: &[u8]) {
    let (loaded, _program) = program::load_bytes_built(data);
    if let Some(p) = loaded.pack {
        canonical_round_trip(&p, "the loaded pack");
    }
}

/// The canonical writer's output of `p` loads again to `p` and writes the same bytes.
fn canonical_round_trip(p: &pack::Pack, what: &str) {
    let text = pack::to_canonical_string(p);
    let again = pack::load_str(&text);
    let Some(q) = again.pack else {
        panic!(
            "{what}: its canonical text does not load: {:?}\n{text}",
            again.diagnostics
        );
    };
    assert!(
        *p == q,
        "{what}: its canonical text loads to another pack ({:?}):\n{text}",
        again.diagnostics
    );
    assert_eq!(
        text,
        pack::to_canonical_string(&q),
        "{what}: the canonical writer is not idempotent"
    );
}

/// `expr_parse`: text → `Expr::compile` and `compile_typed` for every type, with a resolver
/// that knows most names; every expression that compiles is evaluated (general and bool
/// paths, the failing part), which must not panic and must give a value of its type.
pub fn expr_parse(data: &[u8]) {
    let src = String::from_utf8_lossy(data);
    let mut r = FuzzResolver::default();
    let wants = [
        None,
        Some(Type::Bool),
        Some(Type::Int),
        Some(Type::Float),
        Some(Type::Str),
        Some(Type::Vec2),
        Some(Type::Entity),
    ];
    for want in wants {
        let compiled = match want {
            None => Expr::compile(&src, &mut r),
            Some(t) => Expr::compile_typed(&src, t, &mut r),
        };
        let e = match compiled {
            Ok(e) => e,
            Err(err) => {
                // Errors are located inside the source (or one past its end).
                let n = src.chars().count();
                assert!(
                    err.offset <= n,
                    "error offset {} past the end ({n} chars): {err}",
                    err.offset
                );
                assert!(!err.message.is_empty());
                continue;
            }
        };
        if let Some(t) = want {
            assert_eq!(e.ty(), t, "compile_typed({t:?}) gave {:?}", e.ty());
        }
        let env = FuzzEnv { vars: &r.vars };
        let v = e.eval(&env);
        assert_eq!(
            type_of(v),
            e.ty(),
            "`{src}` is {:?} but evaluated to {v:?}",
            e.ty()
        );
        let b = e.eval_bool(&env);
        if e.ty() == Type::Bool {
            assert_eq!(V::Bool(b), v, "eval_bool and eval disagree on `{src}`");
            if let Some(part) = e.failing_part(&env) {
                assert!(!b, "a failing part `{part}` of `{src}`, which is true");
            }
        }
        for (scope, name) in e.references() {
            assert!(
                r.vars.iter().any(|(s, n, _)| s == scope && n == name),
                "`{src}` references {scope:?} {name} that was never resolved"
            );
        }
    }
}

fn type_of(v: V) -> Type {
    match v {
        V::Bool(_) => Type::Bool,
        V::Int(_) => Type::Int,
        V::Float(_) => Type::Float,
        V::Str(_) => Type::Str,
        V::Vec2(_) => Type::Vec2,
        V::Entity(_) => Type::Entity,
    }
}

/// Resolves every name except those starting with `z` (unknown, to reach those errors):
/// flags are bool, counters int, other names get a type picked from their bytes.
#[derive(Default)]
struct FuzzResolver {
    vars: Vec<(Scope, String, Type)>,
    strings: Vec<String>,
}

const TYPES: [Type; 6] = [
    Type::Bool,
    Type::Int,
    Type::Float,
    Type::Str,
    Type::Vec2,
    Type::Entity,
];

impl Resolver for FuzzResolver {
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        if name.starts_with('z') {
            return None;
        }
        if let Some(i) = self
            .vars
            .iter()
            .position(|(s, n, _)| *s == scope && n == name)
        {
            return Some((i as u32, self.vars[i].2));
        }
        let ty = match scope {
            Scope::Flag => Type::Bool,
            Scope::Counter => Type::Int,
            _ => {
                let h = name.bytes().fold(0usize, |a, b| a.wrapping_add(b as usize));
                TYPES[h % TYPES.len()]
            }
        };
        self.vars.push((scope, name.to_string(), ty));
        Some((self.vars.len() as u32 - 1, ty))
    }
    fn intern(&mut self, s: &str) -> Sym {
        if let Some(i) = self.strings.iter().position(|x| x == s) {
            return Sym(i as u32);
        }
        self.strings.push(s.to_string());
        Sym(self.strings.len() as u32 - 1)
    }
    fn entity(&mut self, id: &str) -> Option<EntityId> {
        match id.len() % 4 {
            0 => None,
            1 => Some(EntityId::Npc(id.len() as u32)),
            2 => Some(EntityId::Object(0)),
            _ => Some(EntityId::Area(1)),
        }
    }
}

/// Values of the resolved variables' types (varied by slot), a few positions.
struct FuzzEnv<'a> {
    vars: &'a [(Scope, String, Type)],
}

impl Env for FuzzEnv<'_> {
    fn var(&self, _scope: Scope, slot: u32) -> V {
        let odd = slot % 2 == 1;
        match self.vars.get(slot as usize).map(|v| v.2) {
            Some(Type::Bool) => V::Bool(odd),
            Some(Type::Int) => V::Int(if odd { -7 } else { i64::MAX }),
            Some(Type::Float) => V::Float(if odd { 0.5 } else { -1.0e300 }),
            Some(Type::Str) => V::Str(Sym(slot)),
            Some(Type::Vec2) => V::Vec2(Vec2::new(slot as f64, -2.0)),
            Some(Type::Entity) => V::Entity(if odd {
                EntityId::Npc(1)
            } else {
                EntityId::None
            }),
            None => panic!("slot {slot} was never handed out by the resolver"),
        }
    }
    fn self_entity(&self) -> EntityId {
        EntityId::Npc(1)
    }
    fn position(&self, e: EntityId) -> Option<Vec2> {
        match e {
            EntityId::Npc(n) => Some(Vec2::new(n as f64, 1.0)),
            EntityId::Object(_) => Some(Vec2::new(-3.0, 4.0)),
            _ => None,
        }
    }
    fn hour(&self) -> f64 {
        13.25
    }
    fn day(&self) -> i64 {
        i64::MAX
    }
    fn has_tag(&self, e: EntityId, tag: Sym) -> bool {
        e == EntityId::Npc(1) && tag.0 == 0
    }
    fn subject(&self) -> EntityId {
        EntityId::Npc(2)
    }
    fn holders(&self, template: Sym) -> i64 {
        template.0 as i64
    }
    fn health(&self, e: EntityId) -> f64 {
        if e == EntityId::None { 0.0 } else { 7.5 }
    }
    fn alive(&self, e: EntityId) -> bool {
        matches!(e, EntityId::Npc(_))
    }
}

// ---- the importers: a folder of files from one input ----

/// Separates the files of one importer input.
pub const FILE_SEPARATOR: u8 = 0;
/// Most files written for one input.
const MAX_INPUT_FILES: usize = 12;

/// One input as files: sections separated by NUL bytes, each `relative/path\ncontent`; the
/// first section is the file imported. A path that is not a plain relative path (empty
/// parts, `.`, `..`, characters outside `[A-Za-z0-9._-]`, over 8 parts) is replaced by
/// `fileN` + `ext`, so nothing is ever written outside the input's folder.
pub fn split_files(data: &[u8], ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for (i, section) in data
        .split(|&b| b == FILE_SEPARATOR)
        .take(MAX_INPUT_FILES)
        .enumerate()
    {
        let (head, body) = match section.iter().position(|&b| b == b'\n') {
            Some(nl) => (&section[..nl], &section[nl + 1..]),
            None => (&section[..0], section),
        };
        let path = std::str::from_utf8(head)
            .ok()
            .filter(|p| plain_relative(p))
            .map(str::to_string)
            .unwrap_or_else(|| format!("file{i}{ext}"));
        files.push((path, body.to_vec()));
    }
    files
}

fn plain_relative(p: &str) -> bool {
    let parts: Vec<&str> = p.split('/').collect();
    parts.len() <= 8
        && parts.iter().all(|s| {
            !s.is_empty()
                && *s != "."
                && *s != ".."
                && s.len() <= 64
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        })
        && Path::new(p)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// A fresh folder for one input, removed on drop. The files go in `root`, four empty folders
/// below the input's own, so that no search upwards (behavior3's workspace lookup goes up to
/// four folders) leaves it.
pub struct Folder {
    top: PathBuf,
    pub root: PathBuf,
}

impl Folder {
    /// The folder with `files` written in it; `None` when the folder itself cannot be made
    /// (a full disk): the input is then skipped, as it says nothing about the importer.
    pub fn new(files: &[(String, Vec<u8>)]) -> Option<Folder> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let top = std::env::temp_dir().join(format!(
            "townsfolk-fuzz-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let root = top.join("a/b/c/d/root");
        let _ = std::fs::remove_dir_all(&top);
        let folder = Folder { top, root };
        if let Err(e) = std::fs::create_dir_all(&folder.root) {
            eprintln!("skipped: cannot create {}: {e}", folder.root.display());
            return None;
        }
        let root = &folder.root;
        for (path, body) in files {
            let file = root.join(path);
            // A path that collides with another file's folder is skipped: the harness
            // writes what it can, the importer reads what is there.
            if let Some(dir) = file.parent()
                && std::fs::create_dir_all(dir).is_ok()
            {
                let _ = std::fs::write(&file, body);
            }
        }
        Some(folder)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.top);
    }
}

/// What every import must give: a pack whose canonical text loads back to it.
fn imported_pack_loads(i: &interop::Imported, what: &str) {
    canonical_round_trip(&i.pack, what);
}

/// `btcpp_import`: the first file as text (`import_btcpp_str`, includes refused) and from a
/// folder (`import_btcpp_file`, with the input's other files there to include). Every
/// import's pack loads back, and import ∘ export ∘ import is a fixed point.
pub fn btcpp_import(data: &[u8]) {
    let files = split_files(data, ".xml");
    let Some((main, body)) = files.first() else {
        return;
    };
    let text = String::from_utf8_lossy(body);
    if let Ok(i) = interop::import_btcpp_str(&text, main) {
        btcpp_fixed_point(&i, "import_btcpp_str");
    }
    let Some(folder) = Folder::new(&files) else {
        return;
    };
    if let Ok(i) = interop::import_btcpp_file(&folder.root.join(main)) {
        btcpp_fixed_point(&i, "import_btcpp_file");
    }
}

fn btcpp_fixed_point(first: &interop::Imported, how: &str) {
    imported_pack_loads(first, how);
    let xml = match interop::export_btcpp(&first.pack) {
        Ok(x) => x,
        Err(e) => panic!("{how}: the imported pack does not export: {e}"),
    };
    let second = match interop::import_btcpp_str(&xml, "exported.xml") {
        Ok(s) => s,
        Err(e) => panic!("{how}: the export does not import again: {e}\n{xml}"),
    };
    assert!(
        second.pack.trees == first.pack.trees,
        "{how}: import ∘ export ∘ import changed the trees:\n{xml}"
    );
    match interop::export_btcpp(&second.pack) {
        Ok(again) => assert_eq!(again, xml, "{how}: the second export differs"),
        Err(e) => panic!("{how}: the re-imported pack does not export: {e}"),
    }
}

/// `behavior3_import`: the first file imported from a folder holding the input's files (a
/// `.b3-workspace`, a `.b3-setting`, trees and subtrees, as their paths say); the pack of
/// every import loads back.
pub fn behavior3_import(data: &[u8]) {
    let files = split_files(data, ".json");
    let Some((main, _)) = files.first() else {
        return;
    };
    let Some(folder) = Folder::new(&files) else {
        return;
    };
    if let Ok(i) = interop::import_behavior3_file(&folder.root.join(main)) {
        imported_pack_loads(&i, "import_behavior3_file");
    }
}

// ---- the debug line protocol ----

/// Ticks one `debug_lines` input may ask for in all (`run`, `continue` with its default of
/// 10,000): commands over the budget are not sent, so that an input is fast; the protocol
/// itself has no cap (see FUZZING.md).
pub const TICK_BUDGET: u64 = 2_000;

/// `debug_lines`: a debugger on `samples/guards.json` (seed from the first byte), then each
/// line of the input through the protocol's line handler: every line that is not blank or a
/// comment gets a JSON object reply, `ok` true or a located refusal; never a panic.
pub fn debug_lines(data: &[u8]) {
    use townsfolk_runtime::debug::{Debugger, SnapshotConfig};
    use townsfolk_runtime::session::Session;
    let Some((&seed, rest)) = data.split_first() else {
        return;
    };
    let program = guards_program();
    let session = Session::new(program, seed as u64);
    let mut d = Debugger::new(
        session,
        SnapshotConfig {
            interval: 10,
            max_bytes: 8 * 1024 * 1024,
        },
    );
    let text = String::from_utf8_lossy(rest);
    let mut budget = TICK_BUDGET;
    for (n, raw) in text.split('\n').enumerate() {
        let cost = tick_cost(raw);
        if cost > budget {
            continue;
        }
        budget -= cost;
        let content = townsfolk_runtime::tools::content(raw);
        let reply = townsfolk_runtime::tools::handle(&mut d, n + 1, raw);
        match (content, reply) {
            (None, None) => {}
            (None, Some(r)) => panic!("line {raw:?} is blank or a comment but got {r:?}"),
            (Some(_), None) => panic!("line {raw:?} got no reply"),
            (Some(_), Some(Ok(v))) => {
                assert_eq!(
                    v.get("ok"),
                    Some(&Value::Bool(true)),
                    "reply {v} to {raw:?}"
                )
            }
            (Some(_), Some(Err(v))) => {
                assert_eq!(v.get("ok"), Some(&Value::Bool(false)), "fault {v}");
                assert_eq!(v.get("line").and_then(Value::as_u64), Some(n as u64 + 1));
                let col = v.get("column").and_then(Value::as_u64).unwrap_or(0);
                assert!(
                    col >= 1 && col as usize <= raw.chars().count() + 1,
                    "column {col} outside {raw:?}: {v}"
                );
                assert!(v.get("error").and_then(Value::as_str).is_some(), "{v}");
            }
        }
    }
}

/// The ticks a line asks to simulate: `run`/`continue`'s `ticks` (or their defaults); a
/// `step` counts 1 (it ends at the next node visit, in the next tick on this sample); 0 for
/// everything else.
fn tick_cost(raw: &str) -> u64 {
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(raw.trim()) else {
        return 0;
    };
    let ticks = |default: u64| match o.get("ticks") {
        None | Some(Value::Null) => default,
        Some(v) => v.as_u64().unwrap_or(0),
    };
    match o.get("cmd").and_then(Value::as_str) {
        Some("run") => ticks(1),
        Some("continue") => ticks(10_000),
        Some("step") => 1,
        _ => 0,
    }
}

fn guards_program() -> std::sync::Arc<townsfolk_runtime::Program> {
    static PROGRAM: std::sync::OnceLock<std::sync::Arc<townsfolk_runtime::Program>> =
        std::sync::OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let (loaded, program) =
                program::load_str_built(include_str!("../../samples/guards.json"));
            match program {
                Some(p) => std::sync::Arc::new(p),
                None => panic!(
                    "samples/guards.json does not build: {:?}",
                    loaded.diagnostics
                ),
            }
        })
        .clone()
}

// ---- the mod resolver ----

/// `mod_resolve`: the input's files (the folder form of the importers) resolved two ways:
/// in memory, every file a layer in order (`mods::resolve_texts`), and from the folder
/// (`mods::resolve_files`, `extends` followed), the command line being every file named
/// `cmd*`, then the last file (a `…/pack.json` stands for its folder: a folder pack); the
/// in-memory layers are in input order, the first the base. When a resolution has no
/// error: its pack writes canonically and loads back, and the top layer's delta
/// (`mods::mod_document`) over its base gives the same pack again (up to asset order).
pub fn mod_resolve(data: &[u8]) {
    use townsfolk_runtime::mods;
    let files = split_files(data, ".json");
    if files.is_empty() {
        return;
    }
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|(p, b)| (p.clone(), String::from_utf8_lossy(b).into_owned()))
        .collect();
    let layers: Vec<(&str, &str)> = texts
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    resolved_is_sound(&mods::resolve_texts(&layers), "resolve_texts");
    let Some(folder) = Folder::new(&files) else {
        return;
    };
    let last = files.len() - 1;
    let cmdline: Vec<PathBuf> = files
        .iter()
        .enumerate()
        .filter(|(i, (p, _))| {
            *i == last || p.rsplit('/').next().is_some_and(|n| n.starts_with("cmd"))
        })
        .map(|(_, (p, _))| match p.strip_suffix("/pack.json") {
            Some(dir) => folder.root.join(dir),
            None => folder.root.join(p),
        })
        .collect();
    resolved_is_sound(&mods::resolve_files(&cmdline), "resolve_files");
}

fn resolved_is_sound(r: &townsfolk_runtime::mods::Resolved, how: &str) {
    use townsfolk_runtime::mods;
    if r.has_errors() || r.lossy {
        return;
    }
    let Some(p) = &r.pack else {
        return;
    };
    canonical_round_trip(p, how);
    let Some(base) = &r.base else {
        return;
    };
    let doc = mods::mod_document(base, p, &r.extends);
    let base_text = pack::to_canonical_string(base);
    let again = mods::resolve_texts(&[("base.json", &base_text), ("mod.json", &doc)]);
    let errors: Vec<String> = again
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.render())
        .collect();
    assert!(
        errors.is_empty(),
        "{how}: the top layer's delta over its base has errors: {errors:?}\n{doc}"
    );
    let Some(q) = &again.pack else {
        panic!("{how}: the top layer's delta over its base gives no pack\n{doc}");
    };
    assert!(
        by_id(p) == by_id(q),
        "{how}: the top layer's delta over its base gives another pack\n{doc}"
    );
}

/// A pack as JSON with every asset list sorted by id (a mod's new assets come after the
/// base's, whatever their order in the layers).
fn by_id(p: &pack::Pack) -> Value {
    let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
    for kind in townsfolk_runtime::mods::AssetKind::ALL {
        let mut at = Some(&mut v);
        for part in kind.section().split('.') {
            at = at.and_then(|x| x.get_mut(part));
        }
        if let Some(Value::Array(items)) = at {
            items.sort_by_key(|i| (i.get("id").map(Value::to_string), i.to_string()));
        }
    }
    v
}
