//! The JSON Schema of the pack format.

use super::model::Pack;

/// The JSON Schema of the pack format, pretty-printed.
pub fn schema_string() -> String {
    let schema = schemars::schema_for!(Pack);
    let mut s = serde_json::to_string_pretty(&schema).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}
