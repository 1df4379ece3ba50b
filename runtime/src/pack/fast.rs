//! The fast path of reading a pack: typed serde straight from the text, no JSON value of the
//! whole pack. It accepts only packs the careful reader (`load.rs`) reads without a single
//! diagnostic, and gives then the same pack; on anything else — an unknown field, a missing
//! `name` or `world`, a wrong type, a duplicate key, a tree too deep — it gives up (`None`)
//! and the careful reader reads the text again, item by item, with its diagnostics.
//!
//! What it mirrors of the careful reader: the pack's head (`format`, `version`), the sections,
//! each tree's head, and each node (its own fields, then `type` and its parameters read as a
//! `NodeKind` from their JSON value, and the parameters that would not come back when the
//! kind is written again: the careful reader's "unknown field for a node" warning). Every
//! other item is read with the model's own `Deserialize`, as the careful reader does, but
//! from the text instead of a value. Unknown fields anywhere are found with `serde_ignored`,
//! as the careful reader finds them.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::load::MAX_TREE_DEPTH;
use super::model::*;

/// The pack read the fast way, or `None` when the careful reader must read it (it would
/// report something, or the fast path cannot tell).
pub(super) fn read(text: &str) -> Option<Pack> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut ignored = false;
    let Obj(head): Obj<Head> = serde_ignored::deserialize(&mut de, |_| ignored = true).ok()?;
    de.end().ok()?;
    if ignored || head.format != FORMAT || head.version != u64::from(VERSION) {
        return None;
    }
    Some(Pack {
        format: FORMAT.into(),
        version: VERSION,
        name: head.name,
        comment: head.comment,
        world: head.world,
        trees: head.trees.into_iter().map(|t| t.0.into_tree()).collect(),
        areas: head.areas,
        events: head.events,
        scenarios: head.scenarios,
        casts: head.casts,
        triggers: head.triggers,
        tests: head.tests,
        editor: head.editor,
    })
}

/// The pack's sections as the careful reader knows them; `name` and `world` are required
/// here (the careful reader warns when they are missing).
#[derive(Deserialize)]
struct Head {
    format: String,
    version: u64,
    name: String,
    #[serde(default)]
    comment: Option<String>,
    #[serde(deserialize_with = "object")]
    world: WorldDef,
    #[serde(default)]
    trees: Vec<Obj<FastTree>>,
    #[serde(default)]
    areas: Vec<AreaDef>,
    #[serde(default)]
    events: Vec<EventDef>,
    #[serde(default)]
    scenarios: Vec<ScenarioDef>,
    #[serde(default)]
    casts: Vec<CastDef>,
    #[serde(default)]
    triggers: Vec<TriggerSystemDef>,
    #[serde(default)]
    tests: Vec<ContentTestDef>,
    #[serde(default)]
    editor: EditorDef,
}

/// A tree: the careful reader's tree head, and the root read as a [`FastNode`].
#[derive(Deserialize)]
struct FastTree {
    id: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    comment: Option<String>,
    #[serde(default)]
    blackboard: BTreeMap<String, VarDecl>,
    #[serde(deserialize_with = "root")]
    root: Node,
}

impl FastTree {
    fn into_tree(self) -> TreeDef {
        TreeDef {
            id: self.id,
            name: self.name,
            comment: self.comment,
            blackboard: self.blackboard,
            root: self.root,
        }
    }
}

/// A struct read only from a JSON object: serde also reads structs from arrays, where the
/// careful reader wants an object (the pack, the world, a tree).
struct Obj<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Obj<T>, D::Error> {
        object(d).map(Obj)
    }
}

fn object<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    struct Only<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for Only<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(Only(std::marker::PhantomData))
}

fn root<'de, D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
    NodeSeed { depth: 1 }.deserialize(d)
}

/// One node at `depth` (the root is 1).
struct NodeSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for NodeSeed {
    type Value = Node;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_map(self)
    }
}

fn give_up<E: de::Error>(why: &str) -> E {
    E::custom(format!("fast path: {why}"))
}

impl<'de> Visitor<'de> for NodeSeed {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a node")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        if self.depth > MAX_TREE_DEPTH {
            return Err(give_up("too deep"));
        }
        let mut id: Option<String> = None;
        let mut name: Option<Option<String>> = None;
        let mut comment: Option<Option<String>> = None;
        let mut disabled: Option<Option<bool>> = None;
        let mut children: Option<Vec<Node>> = None;
        let mut params = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let fresh = match key.as_str() {
                "id" => id.replace(map.next_value()?).is_none(),
                "name" => name.replace(map.next_value()?).is_none(),
                "comment" => comment.replace(map.next_value()?).is_none(),
                "disabled" => disabled.replace(map.next_value()?).is_none(),
                "children" => children
                    .replace(map.next_value_seed(ChildrenSeed {
                        depth: self.depth + 1,
                    })?)
                    .is_none(),
                _ => {
                    let v: Value = map.next_value()?;
                    params.insert(key, v).is_none()
                }
            };
            if !fresh {
                return Err(give_up("duplicate key"));
            }
        }
        let id = id.ok_or_else(|| give_up("no id"))?;
        match params.get("type") {
            Some(Value::String(t)) if NodeKind::TYPE_NAMES.contains(&t.as_str()) => {}
            _ => return Err(give_up("no known type")),
        }
        let params = Value::Object(params);
        let kind = NodeKind::deserialize(&params).map_err(|_| give_up("bad parameters"))?;
        // The careful reader warns about parameters that do not come back when the kind is
        // written again (null ones aside).
        let back = serde_json::to_value(&kind).map_err(|_| give_up("kind not writable"))?;
        if let Value::Object(given) = &params
            && given
                .iter()
                .any(|(k, v)| !v.is_null() && back.get(k).is_none())
        {
            return Err(give_up("unknown parameter"));
        }
        Ok(Node {
            id,
            name: name.flatten(),
            comment: comment.flatten(),
            disabled: disabled.flatten().unwrap_or(false),
            kind,
            children: children.unwrap_or_default(),
        })
    }
}

/// A node's `children`: an array of nodes, or null (none).
struct ChildrenSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for ChildrenSeed {
    type Value = Vec<Node>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Node>, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for ChildrenSeed {
    type Value = Vec<Node>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of nodes")
    }

    fn visit_none<E: de::Error>(self) -> Result<Vec<Node>, E> {
        Ok(Vec::new())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Vec<Node>, E> {
        Ok(Vec::new())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Node>, D::Error> {
        d.deserialize_seq(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Node>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(n) = seq.next_element_seed(NodeSeed { depth: self.depth })? {
            out.push(n);
        }
        Ok(out)
    }
}
