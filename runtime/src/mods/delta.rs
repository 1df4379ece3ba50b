//! The inverse of resolving: given a mod's base and the pack as edited on top of it, the
//! mod's own content (what the editor saves). Changed assets become patches (only the fields
//! that differ; merged lists item by item) when the patch gives back the edited asset
//! exactly, and replacements otherwise; new assets are added, missing ones removed.
//! Resolving `base` + `delta(base, edited)` gives `edited`, except for the order of assets:
//! a mod's new assets come after the base's.

use serde_json::{Map, Value};

use super::merge::{TOP_SECTIONS, WORLD_SECTIONS, item_key, patch_value};
use crate::pack::{FORMAT, Pack, VERSION};

fn to_doc(p: &Pack) -> Map<String, Value> {
    match serde_json::to_value(p) {
        Ok(Value::Object(m)) => m,
        // A pack is a struct of plain data: it always serializes to an object.
        _ => Map::new(),
    }
}

/// The mod's own content as a JSON document: `format`, `version`, then only what differs
/// from `base` (`name`, `comment`, `world` as a patch, each section's added, patched,
/// replaced and removed assets, `editor` as a patch). No `extends`: see [`mod_document`].
pub fn delta(base: &Pack, edited: &Pack) -> Value {
    Value::Object(delta_doc(&to_doc(base), &to_doc(edited), &[]))
}

/// The canonical text of the mod file: [`delta`] with `extends` (paths of its bases,
/// relative to the mod file) after `version`.
pub fn mod_document(base: &Pack, edited: &Pack, extends: &[String]) -> String {
    crate::pack::value_to_canonical_string(&Value::Object(delta_doc(
        &to_doc(base),
        &to_doc(edited),
        extends,
    )))
}

fn delta_doc(
    b: &Map<String, Value>,
    e: &Map<String, Value>,
    extends: &[String],
) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("format".into(), FORMAT.into());
    out.insert("version".into(), VERSION.into());
    for k in ["name", "comment"] {
        if b.get(k) != e.get(k) {
            out.insert(k.into(), e.get(k).cloned().unwrap_or(Value::Null));
        }
    }
    if !extends.is_empty() {
        out.insert(
            "extends".into(),
            Value::Array(extends.iter().map(|s| Value::String(s.clone())).collect()),
        );
    }
    let empty = Map::new();
    let as_obj = |v: Option<&Value>| match v {
        Some(Value::Object(m)) => m.clone(),
        _ => empty.clone(),
    };
    let (bw, ew) = (as_obj(b.get("world")), as_obj(e.get("world")));
    let mut world = Map::new();
    for (k, ev) in &ew {
        if WORLD_SECTIONS.iter().any(|(s, _)| s == k) {
            continue;
        }
        match bw.get(k) {
            None => {
                world.insert(k.clone(), ev.clone());
            }
            Some(bv) => {
                if let Some(d) = diff(bv, ev) {
                    world.insert(k.clone(), d);
                }
            }
        }
    }
    for k in bw.keys() {
        if !ew.contains_key(k) && !WORLD_SECTIONS.iter().any(|(s, _)| s == k) {
            world.insert(k.clone(), Value::Null);
        }
    }
    for (s, _) in WORLD_SECTIONS {
        if let Some(d) = section_delta(bw.get(s), ew.get(s)) {
            world.insert(s.into(), d);
        }
    }
    if !world.is_empty() {
        out.insert("world".into(), Value::Object(world));
    }
    for (s, _) in TOP_SECTIONS {
        if let Some(d) = section_delta(b.get(s), e.get(s)) {
            out.insert(s.into(), d);
        }
    }
    let (be, ee) = (
        b.get("editor")
            .cloned()
            .unwrap_or(Value::Object(Map::new())),
        e.get("editor")
            .cloned()
            .unwrap_or(Value::Object(Map::new())),
    );
    if let Some(d) = diff(&be, &ee) {
        out.insert("editor".into(), d);
    }
    out
}

fn id_of(v: &Value) -> Option<&str> {
    v.get("id").and_then(Value::as_str)
}

/// One section's changes: changed and added assets in the edited order, then removals.
fn section_delta(b: Option<&Value>, e: Option<&Value>) -> Option<Value> {
    let none = Vec::new();
    let bl = b.and_then(Value::as_array).unwrap_or(&none);
    let el = e.and_then(Value::as_array).unwrap_or(&none);
    let mut out = Vec::new();
    for ea in el {
        let Some(id) = id_of(ea) else { continue };
        match bl.iter().find(|x| id_of(x) == Some(id)) {
            None => out.push(ea.clone()),
            Some(ba) if ba == ea => {}
            Some(ba) => out.push(asset_change(ba, ea, id)),
        }
    }
    for ba in bl {
        if let Some(id) = id_of(ba)
            && !el.iter().any(|x| id_of(x) == Some(id))
        {
            let mut m = Map::new();
            m.insert("id".into(), id.into());
            m.insert("remove".into(), true.into());
            out.push(Value::Object(m));
        }
    }
    (!out.is_empty()).then_some(Value::Array(out))
}

/// A patch of `b` giving `e` (`"patch": true` and the differing fields), or `e` itself (a
/// replacement) when no patch gives it exactly.
fn asset_change(b: &Value, e: &Value, id: &str) -> Value {
    if let Some(Value::Object(d)) = diff(b, e) {
        let mut check = b.clone();
        let mut errs = Vec::new();
        let mut fields = d.clone();
        fields.remove("id");
        patch_value(&mut check, &Value::Object(fields.clone()), "", &mut errs);
        if errs.is_empty() && &check == e {
            let mut m = Map::new();
            m.insert("id".into(), id.into());
            m.insert("patch".into(), true.into());
            m.extend(fields);
            return Value::Object(m);
        }
    }
    e.clone()
}

/// What patches `b` into `e` under the patch rules (`None`: they are equal). Lists merged by
/// key whose edited order a merge cannot give are replaced by the whole edited value, which
/// the caller's check then refuses (the asset is replaced instead).
fn diff(b: &Value, e: &Value) -> Option<Value> {
    if b == e {
        return None;
    }
    match (b, e) {
        (Value::Object(bo), Value::Object(eo)) => {
            let mut out = Map::new();
            for (k, ev) in eo {
                match bo.get(k) {
                    None => {
                        out.insert(k.clone(), ev.clone());
                    }
                    Some(bv) => {
                        if let Some(d) = diff(bv, ev) {
                            out.insert(k.clone(), d);
                        }
                    }
                }
            }
            for k in bo.keys() {
                if !eo.contains_key(k) {
                    out.insert(k.clone(), Value::Null);
                }
            }
            Some(Value::Object(out))
        }
        (Value::Array(ba), Value::Array(ea)) => match item_key(ba, ea) {
            Some(k) => Some(list_diff(ba, ea, k).unwrap_or_else(|| e.clone())),
            None => Some(e.clone()),
        },
        _ => Some(e.clone()),
    }
}

/// A merged list's patch: changed items (key and differing fields) and new items in the
/// edited order, then removals; `None` when merging cannot give the edited order (kept items
/// reordered, or a new item before a kept one).
fn list_diff(ba: &[Value], ea: &[Value], k: &str) -> Option<Value> {
    let key = |v: &Value| v.get(k).cloned();
    let in_b = |v: &Value| ba.iter().any(|x| key(x) == key(v));
    let in_e = |v: &Value| ea.iter().any(|x| key(x) == key(v));
    let kept_e: Vec<Option<Value>> = ea.iter().filter(|v| in_b(v)).map(key).collect();
    let kept_b: Vec<Option<Value>> = ba.iter().filter(|v| in_e(v)).map(key).collect();
    if kept_e != kept_b {
        return None;
    }
    if let Some(first_new) = ea.iter().position(|v| !in_b(v))
        && ea[first_new..].iter().any(in_b)
    {
        return None;
    }
    let mut out = Vec::new();
    for ev in ea {
        match ba.iter().find(|x| key(x) == key(ev)) {
            None => out.push(ev.clone()),
            Some(bv) => {
                if let Some(Value::Object(d)) = diff(bv, ev) {
                    let mut m = Map::new();
                    if let Some(kv) = key(ev) {
                        m.insert(k.to_string(), kv);
                    }
                    m.extend(d.into_iter().filter(|(f, _)| f != k));
                    out.push(Value::Object(m));
                } else if bv != ev {
                    return None;
                }
            }
        }
    }
    for bv in ba {
        if !in_e(bv) {
            let mut m = Map::new();
            if let Some(kv) = key(bv) {
                m.insert(k.to_string(), kv);
            }
            m.insert("remove".into(), true.into());
            out.push(Value::Object(m));
        }
    }
    Some(Value::Array(out))
}
