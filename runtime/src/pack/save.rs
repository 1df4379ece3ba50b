//! The canonical writer: one byte form per pack, so saving is stable and diffs are small.

use serde_json::{Map, Value};

use super::model::Pack;

/// Canonical text of a pack: fields in a fixed order (maps sorted), 2-space indent, arrays
/// of plain values (such as `[x, y]` points) on one line, and a final newline.
pub fn to_canonical_string(pack: &Pack) -> String {
    // Serializing plain data with string keys cannot fail; fall back to "{}" defensively.
    let v = serde_json::to_value(pack).unwrap_or_else(|_| Value::Object(Map::new()));
    let mut out = String::new();
    write_canonical(&v, 0, &mut out);
    out.push('\n');
    out
}

fn write_canonical(v: &Value, indent: usize, out: &mut String) {
    let scalar = |v: &Value| !matches!(v, Value::Array(_) | Value::Object(_));
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                out.push_str(&"  ".repeat(indent + 1));
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                write_canonical(x, indent + 1, out);
                if i + 1 < m.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() && !a.iter().all(scalar) => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                out.push_str(&"  ".repeat(indent + 1));
                write_canonical(x, indent + 1, out);
                if i + 1 < a.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&"  ".repeat(indent));
            out.push(']');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&x.to_string());
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Canonical text of any JSON value, as [`to_canonical_string`] writes a pack (for mod
/// documents and the files of folder packs, which are not whole packs).
pub fn value_to_canonical_string(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(v, 0, &mut out);
    out.push('\n');
    out
}
