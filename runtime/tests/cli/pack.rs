//! `townsfolk pack` / `unpack` / `fmt` / `validate` of folder packs.

use crate::common::*;

#[test]
fn every_sample_unpacks_and_packs_back_byte_for_byte() {
    for sample in samples() {
        let dir = temp_path("unpacked");
        let back = TempFile::empty("packed.json");
        expect_exit(&["unpack", p(&sample), "-o", p(&dir)], 0);
        assert!(dir.join("pack.json").is_file());
        expect_exit(&["validate", p(&dir)], 0);
        expect_exit(&["fmt", "--check", p(&dir)], 0);
        expect_exit(&["pack", p(&dir), "-o", back.s()], 0);
        assert!(
            std::fs::read(&back.0).unwrap() == std::fs::read(&sample).unwrap(),
            "{} changed through a folder",
            sample.display()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn folder_pack_problems_name_the_asset_file_and_fmt_repairs_layout() {
    let dir = temp_path("folder");
    expect_exit(&["unpack", p(&sample()), "-o", p(&dir)], 0);
    let first = std::fs::read_dir(dir.join("trees"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .min()
        .unwrap();
    let text = std::fs::read_to_string(&first).unwrap();
    // Minified: still valid, but not canonical.
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    std::fs::write(&first, serde_json::to_string(&v).unwrap()).unwrap();
    expect_exit(&["validate", p(&dir)], 0);
    let r = expect_exit(&["fmt", "--check", p(&dir)], 1);
    assert!(r.stderr.contains("not canonical"), "{}", r.all());
    expect_exit(&["fmt", p(&dir)], 0);
    assert_eq!(std::fs::read_to_string(&first).unwrap(), text);
    // A broken asset file: the error names that file, with its own line and column.
    std::fs::write(
        &first,
        text.replacen("\"root\": {", "\"root\": {\n    \"bogus\": 1,", 1),
    )
    .unwrap();
    let r = expect_exit(&["validate", p(&dir)], 0);
    let shown = p(&first).to_string();
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with(&format!("{shown}:")) && l.contains("bogus")),
        "{}",
        r.all()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unpack_refuses_a_folder_that_is_not_a_folder_pack() {
    let dir = temp_path("occupied");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let r = expect_exit(&["unpack", p(&sample()), "-o", p(&dir)], 1);
    assert!(r.stderr.contains("not a folder pack"), "{}", r.all());
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
