//! Merging layer documents (JSON values) in order: assets added, replaced, patched or
//! removed by id; the world and the editor section patched; every change recorded as the
//! parts ("units") of assets it touches, so that two mods touching the same part are a
//! conflict naming both.
//!
//! The patch form (README "Mods"): an asset with `"patch": true` is a patch of the asset with
//! its id: each field present replaces the asset's (`null` resets it to its default), objects
//! (maps such as `vars` or `handlers`) are patched field by field, and lists whose items all
//! carry an `id` (or a template's `name`, a cast member's `npc`) are merged item by item: an
//! item with a known key is patched, a new one appended, one with `"remove": true` removed.
//! Other lists (points, responses, condition operands) are replaced whole. An asset without
//! `"patch"` replaces the asset with its id, or is added; `"remove": true` removes it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{AssetKey, AssetKind, Origin};
use crate::pack::{Diagnostic, diag};

/// Sections of the pack that hold assets, in order, and the kind each holds.
pub(super) const TOP_SECTIONS: [(&str, AssetKind); 7] = [
    ("trees", AssetKind::Tree),
    ("areas", AssetKind::Area),
    ("events", AssetKind::Event),
    ("scenarios", AssetKind::Scenario),
    ("casts", AssetKind::Cast),
    ("triggers", AssetKind::TriggerSystem),
    ("tests", AssetKind::Test),
];
/// Lists of the world that hold assets.
pub(super) const WORLD_SECTIONS: [(&str, AssetKind); 2] =
    [("objects", AssetKind::Object), ("npcs", AssetKind::Npc)];

/// Keys that identify the items of a list merged item by item, in order of preference.
const ITEM_KEYS: [&str; 3] = ["id", "name", "npc"];

/// One layer's document, ready to merge.
pub(super) struct LayerDoc {
    /// The document without `extends`.
    pub doc: Map<String, Value>,
    /// Layers this one builds on (directly or not): touching what they touched is an
    /// override, not a conflict.
    pub ancestors: BTreeSet<usize>,
}

/// A part of the merged pack one layer changed: the asset (`["trees", "id"]`), one of its
/// fields (`[…, "templates"]`) or one item of a merged list (`[…, "templates", "[drink]"]`);
/// world fields are `["world", "bounds"]`.
type Unit = Vec<String>;

/// The merge in progress.
#[derive(Default)]
pub(super) struct Merger {
    pub doc: Map<String, Value>,
    pub origins: BTreeMap<AssetKey, Origin>,
    /// Problems, each with the layer whose document its path is in.
    pub diags: Vec<(usize, Diagnostic)>,
    pub lossy: bool,
    /// Which layers touched which unit.
    touched: BTreeMap<Unit, Vec<usize>>,
    /// Where each asset sits in the merged section lists.
    index: BTreeMap<AssetKey, usize>,
    /// Layer names, for conflict messages.
    pub names: Vec<String>,
    ancestors: Vec<BTreeSet<usize>>,
}

impl Merger {
    pub fn new(names: Vec<String>) -> Merger {
        Merger {
            names,
            ..Merger::default()
        }
    }

    /// Applies layer `l` on top of what is merged so far.
    pub fn apply(&mut self, l: usize, layer: LayerDoc) {
        while self.ancestors.len() <= l {
            self.ancestors.push(BTreeSet::new());
        }
        self.ancestors[l] = layer.ancestors;
        for (k, v) in layer.doc {
            match k.as_str() {
                "format" | "version" => {
                    self.doc.entry(k).or_insert(v);
                }
                "world" => self.world(l, v),
                "editor" => {
                    let mut errs = Vec::new();
                    let target = self
                        .doc
                        .entry("editor")
                        .or_insert_with(|| Value::Object(Map::new()));
                    patch_value(target, &v, "editor", &mut errs);
                    self.errors(l, errs);
                }
                section => match TOP_SECTIONS.iter().find(|(s, _)| *s == section) {
                    Some(&(s, kind)) => self.section(l, v, s, s, kind),
                    None => {
                        // `name`, `comment` and unknown sections: the last layer's value
                        // (a mod's own name is not a conflict with another mod's).
                        if v.is_null() {
                            self.doc.remove(&k);
                        } else {
                            self.doc.insert(k, v);
                        }
                    }
                },
            }
        }
    }

    fn errors(&mut self, l: usize, errs: Vec<(String, String)>) {
        if !errs.is_empty() {
            self.lossy = true;
        }
        for (p, m) in errs {
            self.diags.push((l, Diagnostic::error(p, m)));
        }
    }

    fn world(&mut self, l: usize, v: Value) {
        let Value::Object(fields) = v else {
            self.diags.push((
                l,
                Diagnostic::error("world", "expected an object (the world, or a patch of it)"),
            ));
            self.lossy = true;
            return;
        };
        if !matches!(self.doc.get("world"), Some(Value::Object(_))) {
            self.doc.insert("world".into(), Value::Object(Map::new()));
        }
        for (k, fv) in fields {
            if let Some(&(s, kind)) = WORLD_SECTIONS.iter().find(|(s, _)| *s == k) {
                let path = diag::key("world", s);
                self.section(l, fv, s, &path, kind);
                continue;
            }
            self.touch(l, vec!["world".into(), k.clone()], &diag::key("world", &k));
            let mut errs = Vec::new();
            if let Some(Value::Object(w)) = self.doc.get_mut("world") {
                if fv.is_null() {
                    w.remove(&k);
                } else if let Some(t) = w.get_mut(&k) {
                    patch_value(t, &fv, &diag::key("world", &k), &mut errs);
                } else {
                    w.insert(k, strip_markers(fv));
                }
            }
            self.errors(l, errs);
        }
    }

    /// The merged list of a section (`trees`, or `npcs` inside the world).
    fn list(&mut self, key: &str, world: bool) -> &mut Vec<Value> {
        let holder = if world {
            match self
                .doc
                .entry("world")
                .or_insert_with(|| Value::Object(Map::new()))
            {
                Value::Object(w) => w,
                // `world` was set to an object by `world()` before any of its lists.
                other => {
                    *other = Value::Object(Map::new());
                    match other {
                        Value::Object(w) => w,
                        _ => unreachable!("just set to an object"),
                    }
                }
            }
        } else {
            &mut self.doc
        };
        let slot = holder
            .entry(key.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if !slot.is_array() {
            *slot = Value::Array(Vec::new());
        }
        match slot {
            Value::Array(a) => a,
            _ => unreachable!("just made an array"),
        }
    }

    /// Applies one section of a layer: each item added, replaced, patched or removed.
    fn section(&mut self, l: usize, v: Value, key: &str, path: &str, kind: AssetKind) {
        let items = match v {
            Value::Array(items) => items,
            Value::Null => return,
            _ => {
                self.diags.push((
                    l,
                    Diagnostic::error(path, "expected an array of assets, each with its `id`"),
                ));
                self.lossy = true;
                return;
            }
        };
        let world = path.starts_with("world");
        // Make sure the merged list exists even when the layer's is empty.
        self.list(key, world);
        let mut seen = BTreeSet::new();
        for (i, item) in items.into_iter().enumerate() {
            let ipath = diag::index(path, i);
            self.item(l, item, key, &ipath, kind, world, &mut seen);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn item(
        &mut self,
        l: usize,
        item: Value,
        key: &str,
        ipath: &str,
        kind: AssetKind,
        world: bool,
        seen: &mut BTreeSet<String>,
    ) {
        let Value::Object(mut obj) = item else {
            self.diags.push((
                l,
                Diagnostic::error(ipath, format!("a {} is an object", kind.noun())),
            ));
            self.lossy = true;
            return;
        };
        let Some(id) = obj.get("id").and_then(Value::as_str).map(str::to_string) else {
            self.diags.push((
                l,
                Diagnostic::error(ipath, format!("every {} needs a string `id`", kind.noun())),
            ));
            self.lossy = true;
            return;
        };
        if !seen.insert(id.clone()) {
            self.diags.push((
                l,
                Diagnostic::error(
                    diag::key(ipath, "id"),
                    format!(
                        "{} `{id}` appears twice in this layer; give it once",
                        kind.noun()
                    ),
                ),
            ));
            self.lossy = true;
            return;
        }
        let flag = |obj: &mut Map<String, Value>, name: &str, this: &mut Self| -> bool {
            match obj.remove(name) {
                None | Some(Value::Null) | Some(Value::Bool(false)) => false,
                Some(Value::Bool(true)) => true,
                Some(_) => {
                    this.diags.push((
                        l,
                        Diagnostic::error(diag::key(ipath, name), "expected true or false"),
                    ));
                    false
                }
            }
        };
        let patch = flag(&mut obj, "patch", self);
        let remove = flag(&mut obj, "remove", self);
        let akey = AssetKey::new(kind, &id);
        let unit: Unit = vec![kind.section().to_string(), id.clone()];
        let existing = self.index.get(&akey).copied();
        if remove {
            let Some(at) = existing else {
                self.unknown(l, ipath, kind, &id, "removes");
                return;
            };
            self.touch(l, unit, ipath);
            self.list(key, world).remove(at);
            self.origins.remove(&akey);
            self.reindex(key, world, kind);
            return;
        }
        if patch {
            let Some(at) = existing else {
                self.unknown(l, ipath, kind, &id, "patches");
                return;
            };
            // Each field of the patch (each item of a merged list) is a unit of its own.
            let mut units = Vec::new();
            let mut errs = Vec::new();
            {
                let target = &mut self.list(key, world)[at];
                for (f, pv) in &obj {
                    if f == "id" {
                        continue;
                    }
                    let fpath = diag::key(ipath, f);
                    match (target.get(f), pv) {
                        (Some(Value::Array(t)), Value::Array(p)) if item_key(t, p).is_some() => {
                            let k = item_key(t, p).unwrap_or("id");
                            for it in p {
                                let name = it.get(k).map(key_text).unwrap_or_default();
                                let mut u = unit.clone();
                                u.push(f.clone());
                                u.push(format!("[{name}]"));
                                units.push(u);
                            }
                        }
                        _ => {
                            let mut u = unit.clone();
                            u.push(f.clone());
                            units.push(u);
                        }
                    }
                    match target {
                        Value::Object(t) if pv.is_null() => {
                            t.remove(f);
                        }
                        Value::Object(t) => match t.get_mut(f) {
                            Some(tv) => patch_value(tv, pv, &fpath, &mut errs),
                            None => {
                                t.insert(f.clone(), strip_markers(pv.clone()));
                            }
                        },
                        _ => {}
                    }
                }
            }
            for u in units {
                self.touch(l, u, ipath);
            }
            self.errors(l, errs);
            if let Some(o) = self.origins.get_mut(&akey) {
                o.changed_by = Some(l);
            }
            return;
        }
        self.touch(l, unit, ipath);
        let value = strip_markers(Value::Object(obj));
        match existing {
            Some(at) => {
                self.list(key, world)[at] = value;
                if let Some(o) = self.origins.get_mut(&akey) {
                    o.changed_by = Some(l);
                }
            }
            None => {
                let list = self.list(key, world);
                list.push(value);
                let at = list.len() - 1;
                self.index.insert(akey.clone(), at);
                self.origins.insert(
                    akey,
                    Origin {
                        added_by: l,
                        changed_by: None,
                    },
                );
            }
        }
    }

    fn unknown(&mut self, l: usize, ipath: &str, kind: AssetKind, id: &str, verb: &str) {
        self.diags.push((
            l,
            Diagnostic::error(
                ipath,
                format!(
                    "{verb} {} `{id}`, which no base has{}",
                    kind.noun(),
                    if l == 0 {
                        " (this is the first layer: it has no base; did you mean to extend one?)"
                    } else {
                        ""
                    }
                ),
            ),
        ));
        self.lossy = true;
    }

    fn reindex(&mut self, key: &str, world: bool, kind: AssetKind) {
        let ids: Vec<Option<String>> = self
            .list(key, world)
            .iter()
            .map(|v| v.get("id").and_then(Value::as_str).map(str::to_string))
            .collect();
        self.index.retain(|k, _| k.kind != kind);
        for (i, id) in ids.into_iter().enumerate() {
            if let Some(id) = id {
                self.index.insert(AssetKey { kind, id }, i);
            }
        }
    }

    /// Records that layer `l` touched `unit` (at `path` of its document), reporting a
    /// conflict with every unrelated layer that touched the same unit, a part of it or a
    /// whole it is part of.
    fn touch(&mut self, l: usize, unit: Unit, path: &str) {
        let mut others: BTreeSet<usize> = BTreeSet::new();
        for n in 1..=unit.len() {
            if let Some(ls) = self.touched.get(&unit[..n]) {
                others.extend(ls.iter().copied());
            }
        }
        for (u, ls) in self.touched.range(unit.clone()..) {
            if !u.starts_with(&unit) {
                break;
            }
            others.extend(ls.iter().copied());
        }
        let mine = self.ancestors.get(l).cloned().unwrap_or_default();
        for o in others {
            let related = o == l
                || mine.contains(&o)
                || self.ancestors.get(o).is_some_and(|a| a.contains(&l));
            if related {
                continue;
            }
            let what = describe(&unit);
            let (a, b) = (
                self.names.get(o).cloned().unwrap_or_default(),
                self.names.get(l).cloned().unwrap_or_default(),
            );
            self.diags.push((
                l,
                Diagnostic::error(
                    path,
                    format!(
                        "conflict: {what} is changed by both {a} and {b}; the later one ({b}) wins. Make one mod extend the other to say which wins, or change different parts"
                    ),
                ),
            ));
        }
        let e = self.touched.entry(unit).or_default();
        if !e.contains(&l) {
            e.push(l);
        }
    }
}

/// A unit as people read it: ``area `pub_red` (its templates[drink])``.
fn describe(unit: &Unit) -> String {
    let Some(section) = unit.first() else {
        return "the pack".into();
    };
    let Some(id) = unit.get(1) else {
        return format!("`{section}`");
    };
    if section == "world" && AssetKind::from_section(&format!("world.{id}")).is_none() {
        return format!("`world.{id}`");
    }
    let noun = AssetKind::from_section(section).map_or("asset", AssetKind::noun);
    let head = format!("{noun} `{id}`");
    if unit.len() > 2 {
        format!("{head} (its {})", unit[2..].concat())
    } else {
        head
    }
}

fn key_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The key field of a list merged item by item: one of [`ITEM_KEYS`] that every item of
/// both lists has as a string. `None`: the list is replaced whole.
pub(super) fn item_key(target: &[Value], patch: &[Value]) -> Option<&'static str> {
    if target.is_empty() || patch.is_empty() {
        return None;
    }
    ITEM_KEYS.into_iter().find(|k| {
        target
            .iter()
            .chain(patch)
            .all(|v| v.get(*k).is_some_and(Value::is_string))
    })
}

/// Removes the `patch`/`remove` markers from a value that is added as it is.
fn strip_markers(mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        m.remove("patch");
        if m.get("remove") == Some(&Value::Bool(true)) {
            m.remove("remove");
        }
    }
    v
}

/// Patches `target` with `patch` (the rules in this module's documentation); problems are
/// `(path, message)`.
pub(super) fn patch_value(
    target: &mut Value,
    patch: &Value,
    path: &str,
    errs: &mut Vec<(String, String)>,
) {
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => {
            for (k, pv) in p {
                if pv.is_null() {
                    t.remove(k);
                } else if let Some(tv) = t.get_mut(k) {
                    patch_value(tv, pv, &diag::key(path, k), errs);
                } else {
                    t.insert(k.clone(), pv.clone());
                }
            }
        }
        (Value::Array(t), Value::Array(p)) if item_key(t, p).is_some() => {
            let k = item_key(t, p).unwrap_or("id");
            for (i, item) in p.iter().enumerate() {
                let ipath = diag::index(path, i);
                let name = item.get(k).cloned().unwrap_or(Value::Null);
                let at = t.iter().position(|x| x.get(k) == Some(&name));
                let remove = item.get("remove") == Some(&Value::Bool(true));
                match (at, remove) {
                    (Some(at), true) => {
                        t.remove(at);
                    }
                    (None, true) => errs.push((
                        ipath,
                        format!("removes `{}`, which is not there", key_text(&name)),
                    )),
                    (Some(at), false) => patch_value(&mut t[at], item, &ipath, errs),
                    (None, false) => t.push(item.clone()),
                }
            }
        }
        (t, p) => *t = p.clone(),
    }
}
