//! Tests of mod layers, deltas and folder packs.

use std::path::{Path, PathBuf};

use super::*;
use crate::pack::to_canonical_string;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples")
}

/// A fresh, empty temporary folder for one test.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("townsfolk-mods-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("dir");
    }
    std::fs::write(&p, text).expect("write");
    p
}

fn errors(r: &Resolved) -> Vec<String> {
    r.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(FileDiagnostic::render)
        .collect()
}

const BASE: &str = r#"{"format": "townsfolk-pack", "version": 1, "name": "base",
  "world": {"npcs": [{"id": "ann", "pos": [1, 1], "tree": "idle"}]},
  "trees": [{"id": "idle", "root": {"id": "w", "type": "wait", "seconds": 1}}],
  "areas": [{"id": "town", "shape": {"rect": {"min": [0, 0], "max": [50, 50]}},
             "templates": [{"name": "rest", "tree": "idle"}, {"name": "eat", "tree": "idle"}]}],
  "events": [{"id": "fair", "not_before": 1, "not_after": 5}],
  "triggers": [{"id": "world", "triggers": [
      {"id": "dawn", "when": {"type": "flag", "flag": "day"}, "responses": [{"do": "set_flag", "flag": "up", "value": true}]}]}]
}"#;

#[test]
fn a_mod_adds_patches_and_removes_assets() {
    let m = r#"{"format": "townsfolk-pack", "version": 1,
      "areas": [
        {"id": "town", "patch": true, "templates": [{"name": "play", "tree": "idle"}, {"name": "eat", "remove": true}]},
        {"id": "park", "parent": "town", "shape": {"rect": {"min": [1, 1], "max": [5, 5]}}}],
      "events": [{"id": "fair", "patch": true, "not_before": 2, "not_after": null}],
      "triggers": [{"id": "world", "patch": true, "triggers": [{"id": "dawn", "enabled": false}]}],
      "world": {"npcs": [{"id": "bob", "pos": [2, 2], "tree": "idle"}], "flags": {"day": true}}
    }"#;
    let r = resolve_texts(&[("base.json", BASE), ("mod.json", m)]);
    assert_eq!(errors(&r), Vec::<String>::new());
    let p = r.pack.as_ref().expect("merged pack");
    let town = &p.areas[0];
    let names: Vec<&str> = town.templates.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["rest", "play"]);
    assert_eq!(p.areas[1].parent.as_deref(), Some("town"));
    assert_eq!(
        (p.events[0].not_before, p.events[0].not_after),
        (Some(2), None)
    );
    assert!(!p.triggers[0].triggers[0].enabled);
    assert_eq!(p.world.npcs.len(), 2);
    assert_eq!(p.world.flags.get("day"), Some(&true));
    assert_eq!(r.status(AssetKind::Area, "town"), Some(Status::Changed));
    assert_eq!(r.status(AssetKind::Area, "park"), Some(Status::Added));
    assert_eq!(r.status(AssetKind::Tree, "idle"), Some(Status::Base));
    assert_eq!(r.status(AssetKind::Npc, "bob"), Some(Status::Added));
    assert_eq!(r.layer_name(AssetKind::Event, "fair"), Some("mod.json"));
    assert_eq!(r.layer_name(AssetKind::Tree, "idle"), Some("base.json"));
    // The base is the pack without the mod.
    let base = r.base.as_ref().expect("base");
    assert_eq!(base.areas.len(), 1);
    assert_eq!(base.areas[0].templates.len(), 2);
}

#[test]
fn patching_or_removing_what_no_base_has_is_an_error_in_the_mod() {
    let m = "{\"format\": \"townsfolk-pack\", \"version\": 1,\n  \"trees\": [{\"id\": \"nope\", \"patch\": true}]}";
    let r = resolve_texts(&[("base.json", BASE), ("mod.json", m)]);
    assert_eq!(
        errors(&r),
        ["mod.json:2:13: error: trees[0] (nope): patches tree `nope`, which no base has"]
    );
}

#[test]
fn semantic_errors_are_located_in_the_layer_that_made_the_asset() {
    let m = "{\"format\": \"townsfolk-pack\", \"version\": 1,\n  \"areas\": [\n    {\"id\": \"town\", \"patch\": true,\n     \"templates\": [{\"name\": \"rest\", \"tree\": \"missing\"}]}]}";
    let r = resolve_texts(&[("base.json", BASE), ("mod.json", m)]);
    let e = errors(&r);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("mod.json:4:"), "{e:?}");
    assert!(
        e[0].contains("areas[0] (town).templates[0] (rest).tree"),
        "{e:?}"
    );
}

#[test]
fn two_mods_changing_the_same_template_conflict_naming_both() {
    let s = samples();
    let r = resolve_files(&[
        s.join("daily_life.json"),
        s.join("mods/cheap_ale.json"),
        s.join("mods/closed_bar.json"),
    ]);
    let e = errors(&r);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("cheap_ale.json") && e[0].contains("closed_bar.json"),
        "{e:?}"
    );
    assert!(
        e[0].contains("area `pub_red` (its templates[drink])"),
        "{e:?}"
    );
}

#[test]
fn mods_changing_different_parts_do_not_conflict() {
    let a = r#"{"format": "townsfolk-pack", "version": 1, "areas": [{"id": "town", "patch": true, "templates": [{"name": "rest", "tree": "idle"}]}]}"#;
    let b = r#"{"format": "townsfolk-pack", "version": 1, "areas": [{"id": "town", "patch": true, "templates": [{"name": "eat", "max_instances": 2}]}]}"#;
    let r = resolve_texts(&[("base.json", BASE), ("a.json", a), ("b.json", b)]);
    assert_eq!(errors(&r), Vec::<String>::new());
    let r = resolve_texts(&[("base.json", BASE), ("a.json", a), ("a2.json", a)]);
    assert_eq!(errors(&r).len(), 1);
}

#[test]
fn a_mod_extending_another_overrides_it_without_conflict() {
    let d = temp("chain");
    write(&d, "base.json", BASE);
    write(
        &d,
        "a.json",
        r#"{"format": "townsfolk-pack", "version": 1, "extends": ["base.json"], "events": [{"id": "fair", "patch": true, "not_before": 3}]}"#,
    );
    let b = write(
        &d,
        "b.json",
        r#"{"format": "townsfolk-pack", "version": 1, "extends": ["a.json"], "events": [{"id": "fair", "patch": true, "not_before": 4}]}"#,
    );
    let r = resolve_files(&[b]);
    assert_eq!(errors(&r), Vec::<String>::new());
    assert_eq!(r.layers.len(), 3);
    assert_eq!(
        r.pack.as_ref().map(|p| p.events[0].not_before),
        Some(Some(4))
    );
    assert_eq!(
        r.origin(AssetKind::Event, "fair").map(|o| o.layer()),
        Some(2)
    );
    let names: Vec<&str> = r.layers.iter().map(|l| l.name.as_str()).collect();
    assert!(
        names[2].ends_with("b.json") && names[0].ends_with("base.json"),
        "{names:?}"
    );
}

#[test]
fn extends_cycles_are_named() {
    let d = temp("cycle");
    write(
        &d,
        "a.json",
        r#"{"format": "townsfolk-pack", "version": 1, "extends": ["b.json"]}"#,
    );
    write(
        &d,
        "b.json",
        r#"{"format": "townsfolk-pack", "version": 1, "extends": ["a.json"]}"#,
    );
    let r = resolve_files(&[d.join("a.json")]);
    let e = errors(&r);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("extends cycle:") && e[0].contains("a.json → "),
        "{e:?}"
    );
    assert!(
        e[0].contains("b.json → ") && e[0].ends_with("a.json (a pack cannot extend itself)"),
        "{e:?}"
    );
}

#[test]
fn bases_outside_the_folder_tree_need_the_command_line() {
    let s = samples();
    let r = resolve_files(&[s.join("mods/third_pub.json")]);
    let e = errors(&r);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("outside this pack's folder"), "{e:?}");
    assert!(e[0].contains("--with"), "{e:?}");
    let r = resolve_files(&[s.join("daily_life.json"), s.join("mods/third_pub.json")]);
    assert_eq!(errors(&r), Vec::<String>::new());
    assert_eq!(r.layers.len(), 2, "the base named twice is one layer");
    // Absolute paths are refused too.
    let d = temp("abs");
    let abs = s.join("daily_life.json").canonicalize().expect("sample");
    let m = write(
        &d,
        "m.json",
        &format!(
            "{{\"format\": \"townsfolk-pack\", \"version\": 1, \"extends\": [{}]}}",
            serde_json::to_string(&abs.display().to_string()).expect("json")
        ),
    );
    let e = errors(&resolve_files(&[m]));
    assert!(e.len() == 1 && e[0].contains("absolute path"), "{e:?}");
}

#[test]
fn the_number_of_layers_is_capped() {
    let d = temp("many");
    write(&d, "l0.json", BASE);
    for i in 1..=limits::MAX_LAYERS {
        write(
            &d,
            &format!("l{i}.json"),
            &format!(
                "{{\"format\": \"townsfolk-pack\", \"version\": 1, \"extends\": [\"l{}.json\"]}}",
                i - 1
            ),
        );
    }
    let r = resolve_files(&[d.join(format!("l{}.json", limits::MAX_LAYERS))]);
    let e = errors(&r);
    assert!(e.iter().any(|m| m.contains("too many layers")), "{e:?}");
    let r = resolve_files(&[d.join(format!("l{}.json", limits::MAX_LAYERS - 1))]);
    assert_eq!(errors(&r), Vec::<String>::new());
}

#[test]
fn the_third_pub_is_added_without_changing_the_base() {
    let s = samples();
    let before = std::fs::read(s.join("daily_life.json")).expect("sample");
    let r = resolve_files(&[s.join("daily_life.json"), s.join("mods/third_pub.json")]);
    let p = r.pack.as_ref().expect("pack");
    assert!(p.areas.iter().any(|a| a.id == "pub_green"));
    assert_eq!(r.status(AssetKind::Area, "pub_green"), Some(Status::Added));
    assert_eq!(
        before,
        std::fs::read(s.join("daily_life.json")).expect("sample")
    );
}

/// `delta(base, resolve(base + mod)) == mod` for mods in canonical form.
#[test]
fn the_delta_of_a_resolved_canonical_mod_is_the_mod() {
    let s = samples();
    for m in ["third_pub.json", "cheap_ale.json", "closed_bar.json"] {
        let path = s.join("mods").join(m);
        let text = std::fs::read_to_string(&path).expect("mod");
        let r = resolve_files(&[s.join("daily_life.json"), path]);
        let (base, merged) = (
            r.base.as_ref().expect("base"),
            r.pack.as_ref().expect("pack"),
        );
        assert_eq!(mod_document(base, merged, &r.extends), text, "{m}");
    }
}

/// Resolving a base and the delta of an edit gives the edited pack back.
#[test]
fn resolving_a_delta_gives_the_edit_back() {
    let base = crate::pack::load_str(BASE).pack.expect("base");
    type Edit = Box<dyn Fn(&mut Pack)>;
    let edits: Vec<(&str, Edit)> = vec![
        ("rename", Box::new(|p| p.name = "modded".into())),
        (
            "template",
            Box::new(|p| p.areas[0].templates[1].max_instances = Some(3)),
        ),
        (
            "remove template",
            Box::new(|p| {
                p.areas[0].templates.remove(0);
            }),
        ),
        (
            "reorder templates",
            Box::new(|p| p.areas[0].templates.reverse()),
        ),
        (
            "remove event",
            Box::new(|p| {
                p.events.clear();
            }),
        ),
        ("npc", Box::new(|p| p.world.npcs[0].speed = 3.0)),
        ("world", Box::new(|p| p.world.dt = 0.2)),
        ("event", Box::new(|p| p.events[0].not_after = None)),
        (
            "trigger",
            Box::new(|p| p.triggers[0].triggers[0].enabled = false),
        ),
        (
            "node",
            Box::new(|p| p.trees[0].root.name = Some("w".into())),
        ),
    ];
    for (what, edit) in edits {
        let mut edited = base.clone();
        edit(&mut edited);
        let doc = mod_document(&base, &edited, &[]);
        let r = resolve_texts(&[("base.json", BASE), ("mod.json", &doc)]);
        assert_eq!(errors(&r).len(), 0, "{what}: {:?} from\n{doc}", errors(&r));
        assert_eq!(r.pack.as_ref(), Some(&edited), "{what}: from\n{doc}");
    }
    // No change, no content.
    assert_eq!(
        mod_document(&base, &base, &["base.json".into()]),
        "{\n  \"format\": \"townsfolk-pack\",\n  \"version\": 1,\n  \"extends\": [\"base.json\"]\n}\n"
    );
}

#[test]
fn every_sample_round_trips_through_a_folder_byte_for_byte() {
    let mut n = 0;
    for e in std::fs::read_dir(samples()).expect("samples") {
        let path = e.expect("entry").path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        n += 1;
        let text = std::fs::read_to_string(&path).expect("sample");
        let pack = crate::pack::load_str(&text).pack.expect("sample loads");
        let d = temp(&format!("folder-{n}"));
        folder::write_pack(&pack, &d).expect("written");
        assert!(d.join("pack.json").is_file());
        let r = resolve_files(std::slice::from_ref(&d));
        assert_eq!(errors(&r), Vec::<String>::new(), "{}", path.display());
        let back = to_canonical_string(r.pack.as_ref().expect("read back"));
        assert!(back == text, "{} changed through a folder", path.display());
        // Writing again over the folder changes nothing.
        folder::write_pack(&pack, &d).expect("rewritten");
    }
    assert!(n >= 5);
}

#[test]
fn folder_diagnostics_name_the_asset_file() {
    let base = crate::pack::load_str(BASE).pack.expect("base");
    let d = temp("folder-diag");
    folder::write_pack(&base, &d).expect("written");
    let tree = d.join("areas/town.json");
    let text = std::fs::read_to_string(&tree).expect("file");
    std::fs::write(
        &tree,
        text.replace("\"tree\": \"idle\"", "\"tree\": \"idel\""),
    )
    .expect("w");
    let r = resolve_files(std::slice::from_ref(&d));
    let e = errors(&r);
    assert!(!e.is_empty(), "{e:?}");
    let shown = d.join("areas/town.json").display().to_string();
    assert!(e[0].starts_with(&format!("{shown}:")), "{e:?}");
    assert!(e[0].contains(": templates[0] (rest).tree:"), "{e:?}");
}

#[test]
fn unsafe_ids_cannot_be_file_names() {
    for bad in ["a/b", "..", "../x", "CON", "nul.txt", ".hidden", "a\\b", ""] {
        assert!(folder::file_name_problem(bad).is_some(), "{bad}");
    }
    for good in ["cycle4", "pub_red", "a.b-c", "console"] {
        assert_eq!(folder::file_name_problem(good), None, "{good}");
    }
    let mut p = crate::pack::load_str(BASE).pack.expect("base");
    p.trees[0].id = "../escape".into();
    let d = temp("unsafe");
    let err = folder::write_pack(&p, &d).expect_err("refused");
    assert!(err.contains("`../escape` cannot be a file name"), "{err}");
}

#[test]
fn an_id_twice_in_one_layer_is_an_error_there() {
    let m = "{\"format\": \"townsfolk-pack\", \"version\": 1,\n  \"events\": [{\"id\": \"x\"}, {\"id\": \"x\"}]}";
    let r = resolve_texts(&[("base.json", BASE), ("mod.json", m)]);
    let e = errors(&r);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("mod.json:2:34: error: events[1] (x).id: event `x` appears twice"),
        "{e:?}"
    );
    let r = resolve_texts(&[("base.json", m)]);
    assert_eq!(errors(&r).len(), 1, "{:?}", errors(&r));
}

/// Hostile layers: every prefix of a mod, and mods whose markers and lists have the wrong
/// shapes, give diagnostics, never a panic.
#[test]
fn broken_layers_never_panic() {
    let m = r#"{"format": "townsfolk-pack", "version": 1, "extends": ["x"], "name": null,
      "world": {"npcs": [{"id": "ann", "patch": true, "pos": null}, {"id": "ann", "remove": true}], "bounds": 3},
      "areas": [{"id": "town", "patch": true, "templates": [{"name": "eat", "remove": true}, {"name": "eat", "remove": true}], "shape": [1]},
                {"id": "town", "patch": "yes"}, {"id": 3}, 7, {"id": "gone", "remove": true}],
      "trees": {"not": "a list"}, "events": [{"id": "fair", "patch": true, "after": [{"id": "a"}]}],
      "editor": [1, 2], "extra": {"deep": [[[[1]]]]}}"#;
    let r = resolve_texts(&[("base.json", BASE), ("mod.json", m)]);
    assert!(r.has_errors());
    for cut in 0..m.len() {
        if let Some(prefix) = m.get(..cut) {
            let _ = resolve_texts(&[("base.json", BASE), ("mod.json", prefix)]);
        }
    }
    for cut in (0..BASE.len()).step_by(7) {
        if let Some(prefix) = BASE.get(..cut) {
            let _ = resolve_texts(&[("base.json", prefix), ("mod.json", m)]);
        }
    }
    let world_not_object = r#"{"format": "townsfolk-pack", "version": 1, "world": 5}"#;
    let r = resolve_texts(&[("base.json", world_not_object), ("mod.json", m)]);
    assert!(r.has_errors());
}

#[test]
fn a_folder_pack_can_be_a_mod_and_a_delta_can_be_saved_as_one() {
    let d = temp("folder-mod");
    write(&d, "base.json", BASE);
    let base = crate::pack::load_str(BASE).pack.expect("base");
    let mut edited = base.clone();
    edited.events[0].not_before = Some(3);
    edited.areas.push(crate::pack::AreaDef {
        id: "park".into(),
        parent: Some("town".into()),
        ..base.areas[0].clone()
    });
    let doc = delta(&base, &edited);
    let mut doc = match doc {
        serde_json::Value::Object(m) => m,
        other => panic!("not an object: {other}"),
    };
    doc.insert("extends".into(), serde_json::json!(["base.json"]));
    folder::write_doc(&doc, &d.join("modf")).expect("written");
    assert!(d.join("modf/areas/park.json").is_file());
    assert!(d.join("modf/events/fair.json").is_file());
    let r = resolve_files(&[d.join("modf")]);
    assert_eq!(errors(&r), Vec::<String>::new());
    assert_eq!(r.pack.as_ref(), Some(&edited));
    assert_eq!(r.status(AssetKind::Area, "park"), Some(Status::Added));
    assert_eq!(r.status(AssetKind::Event, "fair"), Some(Status::Changed));
    assert_eq!(r.status(AssetKind::Area, "town"), Some(Status::Base));
}

#[test]
fn extends_entries_are_relative_to_the_mod() {
    let s = samples();
    assert_eq!(
        extends_entry(&s.join("mods/new_mod.json"), &s.join("daily_life.json")).as_deref(),
        Some("../daily_life.json")
    );
    assert_eq!(
        extends_entry(&s.join("new_mod.json"), &s.join("mods/third_pub.json")).as_deref(),
        Some("mods/third_pub.json")
    );
    assert_eq!(
        extends_entry(&s.join("missing/m.json"), &s.join("daily_life.json")),
        None
    );
}

#[test]
fn a_folder_pack_reports_missing_and_stray_files() {
    let base = crate::pack::load_str(BASE).pack.expect("base");
    let d = temp("folder-files");
    folder::write_pack(&base, &d).expect("written");
    std::fs::write(d.join("trees/._idle.json"), "junk").expect("stray");
    let extra =
        serde_json::json!({"id": "extra", "root": {"id": "w", "type": "wait", "seconds": 1}});
    std::fs::write(d.join("trees/extra.json"), extra.to_string()).expect("unlisted");
    let r = resolve_files(std::slice::from_ref(&d));
    assert_eq!(errors(&r), Vec::<String>::new());
    let warnings: Vec<String> = r.diagnostics.iter().map(FileDiagnostic::render).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("trees/._idle.json ignored")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("trees/extra.json is not listed")),
        "{warnings:?}"
    );
    let p = r.pack.as_ref().expect("pack");
    assert_eq!(
        p.trees.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
        ["idle", "extra"]
    );
    // A listed file that is missing is an error in pack.json.
    std::fs::remove_file(d.join("areas/town.json")).expect("rm");
    let e = errors(&resolve_files(std::slice::from_ref(&d)));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("pack.json:")
            && e[0].contains("lists `town`, but areas/town.json is missing"),
        "{e:?}"
    );
}
