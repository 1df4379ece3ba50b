//! Where a diagnostic belongs: the layer file (or, in a folder pack, the asset's own file)
//! and its line and column there. A diagnostic of the merged pack (`trees[12].root…`) goes to
//! the layer the asset is as it is because of, at the asset's index in that layer.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::merge::{TOP_SECTIONS, WORLD_SECTIONS};
use super::{AssetKey, AssetKind, FileDiagnostic, Origin};
use crate::pack::{Diagnostic, diag};

/// The texts a layer was read from.
#[derive(Clone, Debug)]
pub(super) enum Texts {
    /// One file: its text.
    File(String),
    /// A folder pack: `pack.json`'s text and each asset's file (name as shown, text).
    Folder {
        pack_json: String,
        assets: BTreeMap<AssetKey, (String, String)>,
    },
}

/// What the locator knows of one layer.
pub(super) struct LayerInfo {
    pub name: String,
    pub texts: Texts,
    /// Index of each asset in the layer's own section lists, and the reverse.
    assets: BTreeMap<AssetKey, usize>,
    ids: BTreeMap<(AssetKind, usize), String>,
    /// Top-level keys (`name`, `world.bounds`, …) the layer sets.
    keys: BTreeSet<String>,
}

impl LayerInfo {
    pub fn new(name: String, texts: Texts, doc: &Map<String, Value>) -> LayerInfo {
        let mut assets = BTreeMap::new();
        let mut ids = BTreeMap::new();
        let mut keys = BTreeSet::new();
        let mut add = |kind: AssetKind, list: Option<&Value>| {
            if let Some(Value::Array(items)) = list {
                for (i, it) in items.iter().enumerate() {
                    if let Some(id) = it.get("id").and_then(Value::as_str) {
                        assets.entry(AssetKey::new(kind, id)).or_insert(i);
                        ids.insert((kind, i), id.to_string());
                    }
                }
            }
        };
        for (s, kind) in TOP_SECTIONS {
            add(kind, doc.get(s));
        }
        if let Some(Value::Object(w)) = doc.get("world") {
            for (s, kind) in WORLD_SECTIONS {
                add(kind, w.get(s));
            }
            keys.extend(w.keys().map(|k| diag::key("world", k)));
        }
        keys.extend(doc.keys().cloned());
        LayerInfo {
            name,
            texts,
            assets,
            ids,
            keys,
        }
    }
}

/// A merged-pack path split at its asset: kind, index in the section, the rest of the path
/// (starting with `.` or `[`, or empty).
pub(super) fn split_asset(path: &str) -> Option<(AssetKind, usize, &str)> {
    let (section, after) = if let Some(rest) = path.strip_prefix("world.") {
        let cut = rest.find('[')?;
        (format!("world.{}", &rest[..cut]), &rest[cut..])
    } else {
        let cut = path.find('[')?;
        (path[..cut].to_string(), &path[cut..])
    };
    let kind = AssetKind::from_section(&section)?;
    let inner = after.strip_prefix('[')?;
    let close = inner.find(']')?;
    let idx: usize = inner[..close].parse().ok()?;
    Some((kind, idx, &inner[close + 1..]))
}

/// Collects diagnostics per file, then locates each file's in one pass over its text.
pub(super) struct Locator {
    pub layers: Vec<LayerInfo>,
    /// Per (layer, asset file or `None` for the layer's main text): the diagnostics.
    buckets: BTreeMap<(usize, Option<AssetKey>), Vec<Diagnostic>>,
    /// Diagnostics already located (reading errors), with their file.
    done: Vec<FileDiagnostic>,
}

impl Locator {
    pub fn new(layers: Vec<LayerInfo>) -> Locator {
        Locator {
            layers,
            buckets: BTreeMap::new(),
            done: Vec::new(),
        }
    }

    /// A diagnostic already located in its file.
    pub fn located(&mut self, d: FileDiagnostic) {
        self.done.push(d);
    }

    /// A diagnostic whose path is in layer `l`'s document.
    pub fn in_layer(&mut self, l: usize, mut d: Diagnostic) {
        let Some(info) = self.layers.get(l) else {
            return;
        };
        let mut file = None;
        if let Texts::Folder { assets, .. } = &info.texts
            && let Some((kind, i, rest)) = split_asset(&d.path)
            && let Some(id) = info.ids.get(&(kind, i))
        {
            let key = AssetKey::new(kind, id);
            if assets.contains_key(&key) {
                d.path = rest.strip_prefix('.').unwrap_or(rest).to_string();
                file = Some(key);
            }
        }
        self.buckets.entry((l, file)).or_default().push(d);
    }

    /// A diagnostic of the merged pack (`merged` is its document), sent to the layer the
    /// asset (or the top-level field) it is about comes from.
    pub fn in_merged(
        &mut self,
        mut d: Diagnostic,
        merged: &Map<String, Value>,
        origins: &BTreeMap<AssetKey, Origin>,
    ) {
        d.line = None;
        d.column = None;
        if let Some((kind, i, rest)) = split_asset(&d.path) {
            let list = match kind {
                AssetKind::Object | AssetKind::Npc => merged
                    .get("world")
                    .and_then(|w| w.get(&kind.section()["world.".len()..])),
                _ => merged.get(kind.section()),
            };
            let id = list
                .and_then(|l| l.get(i))
                .and_then(|a| a.get("id"))
                .and_then(Value::as_str);
            if let Some(id) = id {
                let key = AssetKey::new(kind, id);
                if let Some(o) = origins.get(&key)
                    && let Some(&k) = self.layers.get(o.layer()).and_then(|l| l.assets.get(&key))
                {
                    let l = o.layer();
                    let rest = rest.to_string();
                    d.path = format!("{}[{k}]{rest}", kind.section());
                    self.in_layer(l, d);
                    return;
                }
            }
        }
        // Not inside an asset: the last layer that sets the top-level key.
        let top = d.path.split(['.', '[']).next().unwrap_or("").to_string();
        let world_key = if top == "world" {
            d.path
                .strip_prefix("world.")
                .and_then(|r| r.split(['.', '[']).next())
                .map(|k| diag::key("world", k))
        } else {
            None
        };
        let l = (0..self.layers.len())
            .rev()
            .find(|&l| {
                let keys = &self.layers[l].keys;
                world_key.as_ref().is_some_and(|k| keys.contains(k)) || keys.contains(&top)
            })
            .unwrap_or(0);
        self.in_layer(l, d);
    }

    /// Every diagnostic with its file and position, sorted by file, then position.
    pub fn finish(self) -> Vec<FileDiagnostic> {
        let Locator {
            layers,
            buckets,
            mut done,
        } = self;
        for ((l, file), mut ds) in buckets {
            let Some(info) = layers.get(l) else { continue };
            let (name, text) = match (&info.texts, &file) {
                (Texts::File(t), _) => (info.name.clone(), t.as_str()),
                (Texts::Folder { assets, .. }, Some(k)) => match assets.get(k) {
                    Some((n, t)) => (n.clone(), t.as_str()),
                    None => continue,
                },
                (Texts::Folder { pack_json, .. }, None) => (
                    super::folder::pack_json_name(&info.name),
                    pack_json.as_str(),
                ),
            };
            diag::locate_all(text, &mut ds);
            done.extend(ds.into_iter().map(|diagnostic| FileDiagnostic {
                file: name.clone(),
                diagnostic,
            }));
        }
        done.sort_by(|a, b| {
            (&a.file, a.diagnostic.line, a.diagnostic.column).cmp(&(
                &b.file,
                b.diagnostic.line,
                b.diagnostic.column,
            ))
        });
        done
    }
}
