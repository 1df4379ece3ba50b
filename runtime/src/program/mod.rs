//! The program: a pack compiled, read-only and shared (`Arc<Program>`): ids resolved to
//! indices, expressions parsed and type-checked, trees flattened; every semantic problem
//! reported with its JSON path ([`build`]). One file per asset kind compiles that kind.
//! Also the full load (reading + semantic checks, located in the text): [`load_str`].

pub mod areas;
pub mod breakpoints;
pub mod casts;
pub mod content_tests;
mod ctx;
mod dead;
mod flags;
pub mod grid;
mod names;
pub mod responses;
pub mod story;
#[cfg(test)]
mod tests;
pub mod tracker;
mod trail;
pub mod trees;
pub mod triggers;
pub mod walls;
#[cfg(test)]
mod walls_tests;
mod world;

use std::collections::HashMap;

use ctx::Ctx;
pub use ctx::{MAX_SECONDS, ticks_for};

use crate::bt::Tree;
use crate::expr::Expr;
use crate::pack::{Diagnostic, Pack, Rect, Shape};
use crate::pack::{Loaded, diag};
use crate::value::{EntityId, Sym, Type, Value, Vec2};

/// Largest coordinate accepted anywhere in a pack.
pub const MAX_COORD: f64 = 1.0e7;
/// Largest number of compiled nodes in one tree (after inlining subtrees).
pub const MAX_COMPILED_NODES: usize = 200_000;

/// Compiles a pack: the program and every semantic diagnostic (JSON paths, no positions).
/// A program built from a pack with errors is not meant to run.
pub fn build(pack: &Pack) -> (Program, Vec<Diagnostic>) {
    Program::build(pack)
}

/// Checks an in-memory pack (as the editor holds it): semantic diagnostics, no positions,
/// with their named paths (`trees[2] (cycle4).root`). Ordered errors first, then warnings,
/// then notes, each in the order the checks run (see [`Program::build`]).
pub fn check(pack: &Pack) -> Vec<Diagnostic> {
    let mut diags = build(pack).1;
    name_paths(pack, &mut diags);
    diags.sort_by_key(|d| d.severity);
    diags
}

/// Fills in the named paths of diagnostics about an in-memory pack, from the ids in it (the
/// text-less form of what `diag::locate_all` does from a pack's text).
pub fn name_paths(pack: &Pack, diags: &mut [Diagnostic]) {
    // The items the paths go through, each as a JSON value made when a path first enters
    // it: one tree or NPC, not its whole section (the editor's checker names the
    // diagnostics of every edit).
    let mut items: std::collections::BTreeMap<String, Option<serde_json::Value>> =
        std::collections::BTreeMap::new();
    for d in diags {
        d.named_path = diag::named(&d.path, |element| {
            // `trees[12].root.children[2]` → the item `trees[12]`, then `.root.children[2]`.
            let (item, rest) = match element.find(']') {
                Some(end) if item_at(&element[..=end]).is_some() => element.split_at(end + 1),
                _ => {
                    let cut = element.find(['.', '[']).unwrap_or(element.len());
                    element.split_at(cut)
                }
            };
            let v = items
                .entry(item.to_string())
                .or_insert_with(|| item_value(pack, item).or_else(|| section_value(pack, item)));
            diag::element_name(v.as_ref()?, rest)
        });
    }
}

/// The lists whose items `name_paths` makes values of one by one.
const ITEM_LISTS: [&str; 10] = [
    "trees",
    "areas",
    "events",
    "scenarios",
    "casts",
    "triggers",
    "tests",
    "world.npcs",
    "world.objects",
    "world.walls",
];

/// `trees[3]` → (`trees`, 3), for the lists of [`ITEM_LISTS`].
fn item_at(item: &str) -> Option<(&str, usize)> {
    let (list, i) = item.strip_suffix(']')?.split_once('[')?;
    ITEM_LISTS
        .contains(&list)
        .then_some((list, i.parse().ok()?))
}

/// The item at `trees[3]`, `world.npcs[5]`, … as a JSON value (`None`: not such a path).
fn item_value(pack: &Pack, item: &str) -> Option<serde_json::Value> {
    let (list, i) = item_at(item)?;
    fn one<T: serde::Serialize>(items: &[T], i: usize) -> Option<serde_json::Value> {
        serde_json::to_value(items.get(i)?).ok()
    }
    match list {
        "trees" => one(&pack.trees, i),
        "areas" => one(&pack.areas, i),
        "events" => one(&pack.events, i),
        "scenarios" => one(&pack.scenarios, i),
        "casts" => one(&pack.casts, i),
        "triggers" => one(&pack.triggers, i),
        "tests" => one(&pack.tests, i),
        "world.npcs" => one(&pack.world.npcs, i),
        "world.objects" => one(&pack.world.objects, i),
        "world.walls" => one(&pack.world.walls, i),
        _ => None,
    }
}

fn section_value(pack: &Pack, top: &str) -> Option<serde_json::Value> {
    let v = match top {
        "world" => serde_json::to_value(&pack.world),
        "trees" => serde_json::to_value(&pack.trees),
        "areas" => serde_json::to_value(&pack.areas),
        "events" => serde_json::to_value(&pack.events),
        "scenarios" => serde_json::to_value(&pack.scenarios),
        "casts" => serde_json::to_value(&pack.casts),
        "triggers" => serde_json::to_value(&pack.triggers),
        "tests" => serde_json::to_value(&pack.tests),
        "editor" => serde_json::to_value(&pack.editor),
        _ => return None,
    };
    v.ok()
}

/// Loads a pack from text: reading (structure, unknown fields) then the semantic checks,
/// every diagnostic located in the text, named (`trees[0] (cycle4).root`) and in the one
/// order of `diag::sort`: by position, errors before warnings before notes at one position.
/// When an item could not be read, the checks of the pack without it get the text's paths,
/// and those about names the item declares or uses (an NPC's unknown tree, when that tree
/// failed to read) are held back: one note on the item lists them.
pub fn load_str(text: &str) -> Loaded {
    load_str_built(text).0
}

/// [`load_str`], also giving the program the checks compiled when it has no semantic errors
/// (fit to run: `Session::new(Arc::new(program), seed)`), so that a caller running the pack
/// does not compile it a second time. `None` when the pack could not be read or has errors.
pub fn load_str_built(text: &str) -> (Loaded, Option<Program>) {
    let (mut loaded, skips) = crate::pack::load_str_skips(text);
    let mut program = None;
    if let Some(p) = &loaded.pack {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let (built, mut semantic) = build(p);
        if !semantic.iter().any(Diagnostic::is_error) {
            program = Some(built);
        }
        if !skips.is_empty() {
            for d in &mut semantic {
                d.path = skips.to_text_path(&d.path);
                d.message = skips.to_text_path(&d.message);
            }
            semantic = skips.hold_back(text, &loaded.diagnostics, semantic);
        }
        diag::locate_all(text, &mut semantic);
        loaded.diagnostics.extend(semantic);
        diag::sort(&mut loaded.diagnostics);
    }
    (loaded, program)
}

/// [`load_str`] from raw bytes (size and UTF-8 checked first, as `pack::load_bytes` does).
pub fn load_bytes(bytes: &[u8]) -> Loaded {
    load_bytes_built(bytes).0
}

/// [`load_bytes`] with the program, as [`load_str_built`].
pub fn load_bytes_built(bytes: &[u8]) -> (Loaded, Option<Program>) {
    match std::str::from_utf8(bytes) {
        Ok(text) if bytes.len() <= crate::pack::MAX_PACK_BYTES => load_str_built(text),
        _ => (crate::pack::load_bytes(bytes), None),
    }
}

/// [`load_str`] from a file; I/O errors become a diagnostic, like every other problem.
pub fn load_file(path: &std::path::Path) -> Loaded {
    load_file_built(path).0
}

/// [`load_file`] with the program, as [`load_str_built`].
pub fn load_file_built(path: &std::path::Path) -> (Loaded, Option<Program>) {
    match crate::pack::read_file(path) {
        Ok(bytes) => load_bytes_built(&bytes),
        Err(d) => (Loaded::refused(d), None),
    }
}

/// A value as people read it, the one formatter of the debugger, the tools and the editor:
/// floats in their shortest form that reads back to the same number (`0.1`, `2.5`, `1e-7`
/// as `0.0000001`), strings quoted, entities by id.
pub fn show_value(p: &Program, v: Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f}"),
        Value::Str(s) => format!("{:?}", p.sym(s)),
        Value::Vec2(v) => format!("({}, {})", v.x, v.y),
        Value::Entity(EntityId::None) => "none".into(),
        Value::Entity(e) => p.entity_name(e).to_string(),
    }
}

/// A named, typed table of variable slots.
#[derive(Clone, Debug, Default)]
pub struct Slots {
    pub names: Vec<String>,
    pub types: Vec<Type>,
    pub defaults: Vec<Value>,
    index: HashMap<String, u32>,
}

impl Slots {
    pub fn get(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    fn add(&mut self, name: &str, ty: Type, default: Value) -> u32 {
        if let Some(i) = self.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.to_string());
        self.types.push(ty);
        self.defaults.push(default);
        self.index.insert(name.to_string(), i);
        i
    }
}

/// An area, compiled.
#[derive(Clone, Debug)]
pub struct AreaInfo {
    pub id: String,
    pub shape: Shape,
    pub bbox: Rect,
    pub parent: Option<u32>,
    pub kinds: Vec<Sym>,
    pub vars: Vec<Value>,
}

impl AreaInfo {
    pub fn contains(&self, p: Vec2) -> bool {
        if !self.bbox.contains(p) {
            return false;
        }
        match &self.shape {
            Shape::Rect(_) => true,
            Shape::Polygon(pts) => {
                // Even-odd rule.
                let mut inside = false;
                let mut j = pts.len() - 1;
                for i in 0..pts.len() {
                    let (a, b) = (pts[i], pts[j]);
                    if (a.y > p.y) != (b.y > p.y)
                        && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x
                    {
                        inside = !inside;
                    }
                    j = i;
                }
                inside
            }
        }
    }
    pub fn center(&self) -> Vec2 {
        Vec2::new(
            (self.bbox.min.x + self.bbox.max.x) * 0.5,
            (self.bbox.min.y + self.bbox.max.y) * 0.5,
        )
    }
}

/// A static object, compiled.
#[derive(Clone, Debug)]
pub struct ObjectInfo {
    pub id: String,
    pub kind: Sym,
    pub pos: Vec2,
    pub radius: f64,
    pub open: bool,
    pub locked: bool,
    pub state: Sym,
}

/// An NPC's initial state, compiled.
#[derive(Clone, Debug)]
pub struct NpcInfo {
    pub id: String,
    pub name: String,
    pub pos: Vec2,
    pub speed: f64,
    pub tags: Vec<Sym>,
    pub tree: u32,
    pub blackboard: Vec<Value>,
    pub inboxes: Vec<Sym>,
    /// Starting and maximum health.
    pub health: f64,
    /// Sorted.
    pub items: Vec<Sym>,
    /// Sorted.
    pub equipped: Vec<Sym>,
    /// Not placed in the world; copied by `spawn`.
    pub prototype: bool,
}

/// A compiled pack, shared (read-only) by every session that runs it.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub name: String,
    pub strings: Vec<String>,
    string_index: HashMap<String, Sym>,
    pub blackboard: Slots,
    pub flags: Slots,
    pub counters: Slots,
    pub area_vars: Slots,
    pub exprs: Vec<Expr>,
    pub trees: Vec<Tree>,
    tree_index: HashMap<String, u32>,
    pub npcs: Vec<NpcInfo>,
    pub objects: Vec<ObjectInfo>,
    pub areas: Vec<AreaInfo>,
    /// Smart-area rules, by area index.
    pub area_rules: Vec<areas::AreaRules>,
    /// Spatial index of the static areas.
    pub grid: grid::BoxGrid,
    /// The walls and doors (`world.walls`) and the navigation grid.
    pub walls: walls::Walls,
    /// The objects NPCs steer around, by where they are.
    pub obstacles: walls::Obstacles,
    /// Parameters of every request node.
    pub requests: Vec<areas::CRequest>,
    /// Static areas with a brain or handlers (the only ones the areas phase visits).
    pub active_areas: Vec<u32>,
    entity_index: HashMap<String, EntityId>,
    pub bounds: Rect,
    pub dt: f64,
    pub start_day: i64,
    pub start_hour: f64,
    pub time_scale: f64,
    /// Node visits one NPC may make in one tick before its tree is cut off as runaway.
    pub visit_budget: u32,
    /// Story events and scenarios.
    pub events: story::Library,
    /// Conversation casts (background conversations).
    pub talk: casts::TalkProgram,
    /// Compiled trigger systems.
    pub triggers: triggers::TriggerProgram,
    /// Content tests (`townsfolk test`).
    pub tests: Vec<content_tests::CTest>,
}

impl Program {
    pub fn sym(&self, s: Sym) -> &str {
        self.strings.get(s.0 as usize).map_or("", String::as_str)
    }
    pub fn find_sym(&self, s: &str) -> Option<Sym> {
        self.string_index.get(s).copied()
    }
    pub fn tree_index(&self, id: &str) -> Option<u32> {
        self.tree_index.get(id).copied()
    }
    pub fn entity(&self, id: &str) -> Option<EntityId> {
        self.entity_index.get(id).copied()
    }
    pub fn npc_index(&self, id: &str) -> Option<u32> {
        match self.entity(id) {
            Some(EntityId::Npc(i)) => Some(i),
            _ => None,
        }
    }
    pub fn entity_name(&self, e: EntityId) -> &str {
        match e {
            EntityId::None => "",
            EntityId::Npc(i) => self.npcs.get(i as usize).map_or("", |n| &n.id),
            EntityId::Object(i) => self.objects.get(i as usize).map_or("", |n| &n.id),
            EntityId::Area(i) => self.areas.get(i as usize).map_or("", |n| &n.id),
        }
    }
    /// The id of the tree a compiled node was written in, and the node's id there.
    pub fn node_origin(&self, tree: u32, node: usize) -> (&str, &str) {
        match self
            .trees
            .get(tree as usize)
            .and_then(|t| t.nodes.get(node))
        {
            Some(n) => (
                self.trees
                    .get(n.origin_tree as usize)
                    .map_or("", |t| t.id.as_str()),
                self.sym(n.origin_id),
            ),
            None => ("", ""),
        }
    }

    /// `seconds` as ticks of this program, by the runtime's one rule: the fewest whole ticks
    /// that last at least that long, a quotient within 10⁻⁹ of a whole number counting as it
    /// (0.5 s at dt 0.1 is 5 ticks, 0.25 s is 3). Tools that advance a session by seconds use
    /// this, so that they count as the pack's own durations do.
    pub fn ticks(&self, seconds: f64) -> u64 {
        ctx::ticks_for(seconds, self.dt)
    }

    /// Compiles a pack. Always returns a program (parts with errors are left out or made
    /// inert) together with every diagnostic; run it only when there are no errors.
    pub fn build(pack: &Pack) -> (Program, Vec<Diagnostic>) {
        let mut b = Ctx::new(
            pack,
            Program {
                name: pack.name.clone(),
                visit_budget: 100_000,
                ..Program::default()
            },
        );
        b.intern("");
        b.world();
        b.declare();
        b.trees();
        b.area_rules();
        b.npcs();
        b.walls();
        b.events();
        b.talk();
        triggers::compile::build(&mut b);
        content_tests::build(&mut b);
        b.editor();
        let names = names::check(pack);
        b.diags.extend(names);
        (b.p, b.diags)
    }
}

/// A number as people read it: `1e300`, not three hundred digits.
pub(crate) fn short(x: f64) -> String {
    if x != 0.0 && (x.abs() >= 1e9 || x.abs() < 1e-4) && x.is_finite() {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// Builds a pack and compiles a list of responses against it (tests of responses).
#[cfg(test)]
pub(crate) fn build_with_responses(
    pack: &Pack,
    responses: &[crate::pack::Response],
) -> (Program, Vec<responses::CResponse>, Vec<Diagnostic>) {
    let (program, mut diags) = Program::build(pack);
    let mut b = Ctx::new(pack, program);
    let compiled = responses
        .iter()
        .enumerate()
        .filter_map(|(i, r)| responses::compile(&mut b, r, &diag::index("responses", i)))
        .collect();
    diags.extend(b.diags);
    (b.p, compiled, diags)
}
