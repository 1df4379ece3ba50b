//! Packs made of several files: mod layers (a pack that `extends` base packs and adds,
//! replaces, patches or removes their assets by id, SPEC §9) and folder packs (one file per
//! asset, SPEC §7). Resolving gives the merged pack, where every asset came from
//! ([`Origin`]) and every diagnostic with the file it belongs to; [`delta`] is the inverse
//! (the mod's own content, given its base and the edited pack).
//!
//! Layer: above `interop` (its caps are gathered in [`limits`]) and `program` (resolving
//! runs the semantic checks on the merged pack), below `world`.

mod delta;
pub mod folder;
pub mod limits;
mod locate;
mod merge;
mod resolve;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::pack::{Diagnostic, Pack};

pub use delta::{delta, mod_document};
pub use resolve::{resolve_files, resolve_files_built, resolve_texts};

/// The kinds of assets a layer adds, replaces, patches or removes by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AssetKind {
    Tree,
    Area,
    Event,
    Scenario,
    Cast,
    /// A trigger system (section `triggers`).
    TriggerSystem,
    /// A content test (section `tests`).
    Test,
    /// A static object of the world (`world.objects`).
    Object,
    /// An NPC of the world (`world.npcs`).
    Npc,
}

impl AssetKind {
    /// Every kind, in the order of the pack's sections.
    pub const ALL: [AssetKind; 9] = [
        AssetKind::Tree,
        AssetKind::Area,
        AssetKind::Event,
        AssetKind::Scenario,
        AssetKind::Cast,
        AssetKind::TriggerSystem,
        AssetKind::Test,
        AssetKind::Object,
        AssetKind::Npc,
    ];
    /// The section (JSON path of the list) holding this kind: `trees`, …, `world.npcs`.
    pub fn section(self) -> &'static str {
        match self {
            AssetKind::Tree => "trees",
            AssetKind::Area => "areas",
            AssetKind::Event => "events",
            AssetKind::Scenario => "scenarios",
            AssetKind::Cast => "casts",
            AssetKind::TriggerSystem => "triggers",
            AssetKind::Test => "tests",
            AssetKind::Object => "world.objects",
            AssetKind::Npc => "world.npcs",
        }
    }
    /// The kind whose section is `section` (`trees`, …, `world.npcs`).
    pub fn from_section(section: &str) -> Option<AssetKind> {
        AssetKind::ALL.into_iter().find(|k| k.section() == section)
    }
    /// Singular noun for messages: `tree`, `area`, …
    pub fn noun(self) -> &'static str {
        match self {
            AssetKind::Tree => "tree",
            AssetKind::Area => "area",
            AssetKind::Event => "event",
            AssetKind::Scenario => "scenario",
            AssetKind::Cast => "cast",
            AssetKind::TriggerSystem => "trigger system",
            AssetKind::Test => "content test",
            AssetKind::Object => "object",
            AssetKind::Npc => "NPC",
        }
    }
}

/// One asset: its kind and id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AssetKey {
    pub kind: AssetKind,
    pub id: String,
}

impl AssetKey {
    pub fn new(kind: AssetKind, id: &str) -> AssetKey {
        AssetKey {
            kind,
            id: id.to_string(),
        }
    }
}

/// Where an asset of the merged pack came from: the layer that added it and the last layer
/// that replaced or patched it (indices into [`Resolved::layers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    pub added_by: usize,
    pub changed_by: Option<usize>,
}

impl Origin {
    /// The layer the asset is as it is because of: the last one that changed it, or the one
    /// that added it.
    pub fn layer(&self) -> usize {
        self.changed_by.unwrap_or(self.added_by)
    }
}

/// An asset as the top layer (the mod being edited) sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// As the bases have it: the top layer does not touch it.
    Base,
    /// The top layer adds it (no base has it).
    Added,
    /// The top layer replaces or patches an asset of a base.
    Changed,
}

/// One file (or folder) of a resolved pack, in the order the layers apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// As shown in messages: the path as given or as written in `extends`.
    pub name: String,
    /// The file (or folder) read.
    pub path: PathBuf,
    /// The layers this one extends (indices of earlier layers).
    pub extends: Vec<usize>,
}

/// A diagnostic and the file it is located in (for a folder pack, the asset's own file).
#[derive(Clone, Debug, PartialEq)]
pub struct FileDiagnostic {
    pub file: String,
    pub diagnostic: Diagnostic,
}

impl FileDiagnostic {
    /// `file:line:col: severity: json.path: message`.
    pub fn render(&self) -> String {
        self.diagnostic.render(&self.file)
    }
    pub fn is_error(&self) -> bool {
        self.diagnostic.is_error()
    }
}

/// A resolved pack: the layers merged, where each asset came from, and every diagnostic of
/// every file (reading, patching, conflicts, and the semantic checks of the merged pack).
#[derive(Clone, Debug, Default)]
pub struct Resolved {
    /// The merged pack (`None` when it could not be read at all).
    pub pack: Option<Pack>,
    /// Every layer but the last, merged: what the top layer is a mod of (`None` when there
    /// is a single layer, or the bases could not be read).
    pub base: Option<Pack>,
    /// The layers in the order they apply; the last is the top one.
    pub layers: Vec<Layer>,
    /// Where each asset of `pack` came from.
    pub origins: BTreeMap<AssetKey, Origin>,
    /// Every problem, sorted by file, then position.
    pub diagnostics: Vec<FileDiagnostic>,
    /// True when some item could not be read or applied and is missing from `pack`.
    pub lossy: bool,
    /// The top layer's `extends`, as written (empty for a plain pack).
    pub extends: Vec<String>,
    /// JSON paths (in the merged pack) of unknown fields: read past with a warning and not
    /// kept in `pack`, so saving `pack` would drop them.
    pub unknown_fields: Vec<String>,
}

impl Resolved {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(FileDiagnostic::is_error)
    }
    /// Where an asset came from.
    pub fn origin(&self, kind: AssetKind, id: &str) -> Option<Origin> {
        self.origins.get(&AssetKey::new(kind, id)).copied()
    }
    /// The name of the layer an asset is as it is because of ([`Origin::layer`]).
    pub fn layer_name(&self, kind: AssetKind, id: &str) -> Option<&str> {
        let o = self.origin(kind, id)?;
        self.layers.get(o.layer()).map(|l| l.name.as_str())
    }
    /// An asset as the top layer sees it; `None` when the merged pack has no such asset.
    pub fn status(&self, kind: AssetKind, id: &str) -> Option<Status> {
        let o = self.origin(kind, id)?;
        let top = self.layers.len().checked_sub(1)?;
        Some(if self.layers.len() == 1 || o.layer() != top {
            Status::Base
        } else if o.added_by == top {
            Status::Added
        } else {
            Status::Changed
        })
    }
}

/// The layer name of every asset a mod made (added or last changed by any layer but the
/// first), as `(kind, id) → name`, for the trace and the debugger to name where an asset came
/// from. Assets as the first (base) pack has them are not listed; empty for a plain pack.
pub fn layer_names(r: &Resolved) -> BTreeMap<AssetKey, String> {
    r.origins
        .iter()
        .filter(|(_, o)| o.layer() > 0)
        .filter_map(|(k, o)| Some((k.clone(), r.layers.get(o.layer())?.name.clone())))
        .collect()
}

/// Adds `"layers": {FIELD: LAYER}` to a trace event (as JSON) for each asset it names
/// (`npc`, `tree`, `area`, `object`, `asked`, `chosen.area`) that a mod made (see
/// [`layer_names`]). Events naming only base assets are left as they are.
pub fn annotate_event(ev: &mut serde_json::Value, layers: &BTreeMap<AssetKey, String>) {
    use serde_json::Value;
    if layers.is_empty() {
        return;
    }
    let Value::Object(m) = ev else { return };
    let mut found = serde_json::Map::new();
    let fields = [
        ("npc", AssetKind::Npc),
        ("tree", AssetKind::Tree),
        ("area", AssetKind::Area),
        ("object", AssetKind::Object),
        ("asked", AssetKind::Area),
    ];
    for (field, kind) in fields {
        if let Some(Value::String(id)) = m.get(field)
            && let Some(name) = layers.get(&AssetKey::new(kind, id))
        {
            found.insert(field.into(), name.clone().into());
        }
    }
    if let Some(Value::String(id)) = m.get("chosen").and_then(|c| c.get("area"))
        && let Some(name) = layers.get(&AssetKey::new(AssetKind::Area, id))
    {
        found.insert("chosen.area".into(), name.clone().into());
    }
    if !found.is_empty() {
        m.insert("layers".into(), Value::Object(found));
    }
}

/// The `extends` entry a mod saved at `mod_file` writes to name `base`: the base's path
/// relative to the mod's folder, with `/` separators (`../daily_life.json`). `None` when
/// either cannot be found (the mod's folder must exist) or they share no root.
pub fn extends_entry(mod_file: &std::path::Path, base: &std::path::Path) -> Option<String> {
    use std::path::Component;
    let dir = match mod_file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let from = std::fs::canonicalize(dir).ok()?;
    let to = std::fs::canonicalize(base).ok()?;
    let (f, t): (Vec<Component>, Vec<Component>) =
        (from.components().collect(), to.components().collect());
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut parts: Vec<String> = vec!["..".to_string(); f.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Some(parts.join("/"))
}
