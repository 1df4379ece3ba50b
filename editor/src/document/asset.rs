//! What the editor can point at: asset kinds, asset references, whole asset values, and the
//! selection (which is view state, never an undo step).

use serde::{Deserialize, Serialize};
use townsfolk_runtime::pack::{
    self as events, self as triggers, AreaDef, CastDef, NpcDef, ObjectDef, Pack, TreeDef,
};

/// The kinds of asset a pack holds, each a list of items with a unique `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AssetKind {
    Tree,
    Area,
    Event,
    Scenario,
    Cast,
    Trigger,
    Npc,
    Object,
}

impl AssetKind {
    /// Every kind, in the order the asset browser lists them.
    pub const ALL: [AssetKind; 8] = [
        AssetKind::Tree,
        AssetKind::Area,
        AssetKind::Event,
        AssetKind::Scenario,
        AssetKind::Cast,
        AssetKind::Trigger,
        AssetKind::Npc,
        AssetKind::Object,
    ];

    /// Singular label for people ("Tree", "Trigger system", …).
    pub fn label(self) -> &'static str {
        match self {
            AssetKind::Tree => "Tree",
            AssetKind::Area => "Area",
            AssetKind::Event => "Event",
            AssetKind::Scenario => "Scenario",
            AssetKind::Cast => "Cast",
            AssetKind::Trigger => "Trigger system",
            AssetKind::Npc => "NPC",
            AssetKind::Object => "Object",
        }
    }

    /// Plural label, for lists and counts.
    pub fn plural(self) -> &'static str {
        match self {
            AssetKind::Tree => "Trees",
            AssetKind::Area => "Areas",
            AssetKind::Event => "Events",
            AssetKind::Scenario => "Scenarios",
            AssetKind::Cast => "Casts",
            AssetKind::Trigger => "Trigger systems",
            AssetKind::Npc => "NPCs",
            AssetKind::Object => "Objects",
        }
    }

    /// The JSON path of this kind's list in a pack (`trees`, `world.npcs`, …).
    pub fn json_path(self) -> &'static str {
        match self {
            AssetKind::Tree => "trees",
            AssetKind::Area => "areas",
            AssetKind::Event => "events",
            AssetKind::Scenario => "scenarios",
            AssetKind::Cast => "casts",
            AssetKind::Trigger => "triggers",
            AssetKind::Npc => "world.npcs",
            AssetKind::Object => "world.objects",
        }
    }

    /// The ids of this kind's assets, in pack order.
    pub fn ids(self, pack: &Pack) -> Vec<&str> {
        fn ids<T>(v: &[T], id: impl Fn(&T) -> &str) -> Vec<&str> {
            v.iter().map(id).collect()
        }
        match self {
            AssetKind::Tree => ids(&pack.trees, |a| &a.id),
            AssetKind::Area => ids(&pack.areas, |a| &a.id),
            AssetKind::Event => ids(&pack.events, |a| &a.id),
            AssetKind::Scenario => ids(&pack.scenarios, |a| &a.id),
            AssetKind::Cast => ids(&pack.casts, |a| &a.id),
            AssetKind::Trigger => ids(&pack.triggers, |a| &a.id),
            AssetKind::Npc => ids(&pack.world.npcs, |a| &a.id),
            AssetKind::Object => ids(&pack.world.objects, |a| &a.id),
        }
    }

    /// How many assets of this kind the pack holds.
    pub fn count(self, pack: &Pack) -> usize {
        match self {
            AssetKind::Tree => pack.trees.len(),
            AssetKind::Area => pack.areas.len(),
            AssetKind::Event => pack.events.len(),
            AssetKind::Scenario => pack.scenarios.len(),
            AssetKind::Cast => pack.casts.len(),
            AssetKind::Trigger => pack.triggers.len(),
            AssetKind::Npc => pack.world.npcs.len(),
            AssetKind::Object => pack.world.objects.len(),
        }
    }

    /// Index of the asset with this id in its list.
    pub fn position(self, pack: &Pack, id: &str) -> Option<usize> {
        fn pos<T>(v: &[T], id: &str, get: impl Fn(&T) -> &str) -> Option<usize> {
            v.iter().position(|a| get(a) == id)
        }
        match self {
            AssetKind::Tree => pos(&pack.trees, id, |a| &a.id),
            AssetKind::Area => pos(&pack.areas, id, |a| &a.id),
            AssetKind::Event => pos(&pack.events, id, |a| &a.id),
            AssetKind::Scenario => pos(&pack.scenarios, id, |a| &a.id),
            AssetKind::Cast => pos(&pack.casts, id, |a| &a.id),
            AssetKind::Trigger => pos(&pack.triggers, id, |a| &a.id),
            AssetKind::Npc => pos(&pack.world.npcs, id, |a| &a.id),
            AssetKind::Object => pos(&pack.world.objects, id, |a| &a.id),
        }
    }

    /// A copy of the asset with this id, if there is one.
    pub fn get(self, pack: &Pack, id: &str) -> Option<AssetValue> {
        let i = self.position(pack, id)?;
        Some(match self {
            AssetKind::Tree => AssetValue::Tree(pack.trees[i].clone()),
            AssetKind::Area => AssetValue::Area(pack.areas[i].clone()),
            AssetKind::Event => AssetValue::Event(pack.events[i].clone()),
            AssetKind::Scenario => AssetValue::Scenario(pack.scenarios[i].clone()),
            AssetKind::Cast => AssetValue::Cast(pack.casts[i].clone()),
            AssetKind::Trigger => AssetValue::Trigger(pack.triggers[i].clone()),
            AssetKind::Npc => AssetValue::Npc(pack.world.npcs[i].clone()),
            AssetKind::Object => AssetValue::Object(pack.world.objects[i].clone()),
        })
    }
}

/// One asset of a pack, by kind and id.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AssetRef {
    pub kind: AssetKind,
    pub id: String,
}

impl AssetRef {
    pub fn new(kind: AssetKind, id: impl Into<String>) -> AssetRef {
        AssetRef {
            kind,
            id: id.into(),
        }
    }
    pub fn tree(id: impl Into<String>) -> AssetRef {
        AssetRef::new(AssetKind::Tree, id)
    }
}

/// A whole asset of any kind (what `Edit::Asset` puts into a pack).
#[derive(Clone, Debug, PartialEq)]
pub enum AssetValue {
    Tree(TreeDef),
    Area(AreaDef),
    Event(events::EventDef),
    Scenario(events::ScenarioDef),
    Cast(CastDef),
    Trigger(triggers::TriggerSystemDef),
    Npc(NpcDef),
    Object(ObjectDef),
}

impl AssetValue {
    pub fn kind(&self) -> AssetKind {
        match self {
            AssetValue::Tree(_) => AssetKind::Tree,
            AssetValue::Area(_) => AssetKind::Area,
            AssetValue::Event(_) => AssetKind::Event,
            AssetValue::Scenario(_) => AssetKind::Scenario,
            AssetValue::Cast(_) => AssetKind::Cast,
            AssetValue::Trigger(_) => AssetKind::Trigger,
            AssetValue::Npc(_) => AssetKind::Npc,
            AssetValue::Object(_) => AssetKind::Object,
        }
    }

    pub fn id(&self) -> &str {
        match self {
            AssetValue::Tree(a) => &a.id,
            AssetValue::Area(a) => &a.id,
            AssetValue::Event(a) => &a.id,
            AssetValue::Scenario(a) => &a.id,
            AssetValue::Cast(a) => &a.id,
            AssetValue::Trigger(a) => &a.id,
            AssetValue::Npc(a) => &a.id,
            AssetValue::Object(a) => &a.id,
        }
    }

    /// The asset as JSON (for find, the clipboard and renames).
    pub fn to_json(&self) -> serde_json::Value {
        let r = match self {
            AssetValue::Tree(a) => serde_json::to_value(a),
            AssetValue::Area(a) => serde_json::to_value(a),
            AssetValue::Event(a) => serde_json::to_value(a),
            AssetValue::Scenario(a) => serde_json::to_value(a),
            AssetValue::Cast(a) => serde_json::to_value(a),
            AssetValue::Trigger(a) => serde_json::to_value(a),
            AssetValue::Npc(a) => serde_json::to_value(a),
            AssetValue::Object(a) => serde_json::to_value(a),
        };
        // Plain data with string keys always serializes.
        r.unwrap_or(serde_json::Value::Null)
    }

    /// Reads an asset of `kind` back from JSON.
    pub fn from_json(kind: AssetKind, v: serde_json::Value) -> Result<AssetValue, String> {
        let e = |e: serde_json::Error| e.to_string();
        Ok(match kind {
            AssetKind::Tree => AssetValue::Tree(serde_json::from_value(v).map_err(e)?),
            AssetKind::Area => AssetValue::Area(serde_json::from_value(v).map_err(e)?),
            AssetKind::Event => AssetValue::Event(serde_json::from_value(v).map_err(e)?),
            AssetKind::Scenario => AssetValue::Scenario(serde_json::from_value(v).map_err(e)?),
            AssetKind::Cast => AssetValue::Cast(serde_json::from_value(v).map_err(e)?),
            AssetKind::Trigger => AssetValue::Trigger(serde_json::from_value(v).map_err(e)?),
            AssetKind::Npc => AssetValue::Npc(serde_json::from_value(v).map_err(e)?),
            AssetKind::Object => AssetValue::Object(serde_json::from_value(v).map_err(e)?),
        })
    }
}

/// What is selected: an asset and items within it (node ids of a tree). View state: changing
/// it is not an undo step and does not make the document dirty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    pub asset: Option<AssetRef>,
    /// Node ids within the asset (empty: the asset itself).
    pub items: Vec<String>,
}

impl Selection {
    pub fn clear(&mut self) {
        self.asset = None;
        self.items.clear();
    }
    /// Selects one node of a tree.
    pub fn node(tree: &str, node: &str) -> Selection {
        Selection {
            asset: Some(AssetRef::tree(tree)),
            items: vec![node.to_string()],
        }
    }
    pub fn is_empty(&self) -> bool {
        self.asset.is_none() && self.items.is_empty()
    }
}
