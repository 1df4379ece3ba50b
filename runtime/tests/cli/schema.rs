//! `townsfolk schema`.

use crate::common::*;

#[test]
fn schema_is_json() {
    let r = expect_exit(&["schema"], 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("schema is JSON");
    let title = v["title"].as_str().unwrap_or("");
    assert!(
        title.to_lowercase().contains("townsfolk") || title.contains("Pack"),
        "title {title:?}"
    );
    assert!(v["properties"].is_object());
    for k in ["format", "version", "world", "trees"] {
        assert!(v["properties"].get(k).is_some(), "schema lacks `{k}`");
    }
}
