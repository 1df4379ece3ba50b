//! `townsfolk fmt`: round trip to the canonical form, `--check`, and lossy packs left alone.

use crate::common::*;

#[test]
fn fmt_round_trip_of_minified_sample() {
    let canonical = std::fs::read(sample()).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&canonical).unwrap();
    let minified = serde_json::to_string(&v).unwrap();
    assert_ne!(minified.as_bytes(), canonical.as_slice());
    let src = TempFile::new("min.json", minified.as_bytes());
    let out = TempFile::empty("out.json");

    expect_exit(&["validate", src.s()], 0);
    let r = expect_exit(&["fmt", "--check", src.s()], 1);
    assert!(r.stderr.contains("not canonical"), "{}", r.stderr);
    assert_eq!(
        std::fs::read(&src.0).unwrap(),
        minified.as_bytes(),
        "--check changed the file"
    );

    expect_exit(&["fmt", src.s(), "-o", out.s()], 0);
    let formatted = std::fs::read(&out.0).unwrap();
    assert!(
        formatted == canonical,
        "fmt -o output differs from the canonical sample:\n{}",
        String::from_utf8_lossy(&formatted)
    );
    assert_eq!(
        std::fs::read(&src.0).unwrap(),
        minified.as_bytes(),
        "-o changed the input"
    );
    expect_exit(&["fmt", "--check", out.s()], 0);

    // In place.
    expect_exit(&["fmt", src.s()], 0);
    assert!(std::fs::read(&src.0).unwrap() == canonical);
    expect_exit(&["fmt", "--check", src.s()], 0);
}

#[test]
fn fmt_refuses_lossy_packs_and_leaves_them_alone() {
    let bytes = std::fs::read(corpus("unknown_node_type.json")).unwrap();
    let f = TempFile::new("lossy.json", &bytes);
    let r = expect_exit(&["fmt", f.s()], 1);
    assert!(r.stderr.contains("not formatted"), "{}", r.stderr);
    assert_eq!(
        std::fs::read(&f.0).unwrap(),
        bytes,
        "fmt rewrote a lossy pack"
    );
}
