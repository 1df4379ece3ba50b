//! `townsfolk merge`, `validate --with` and `run` of a mod: layered packs from the command
//! line (issue 13 item 4's acceptance).

use crate::common::*;

fn s(rel: &str) -> String {
    p(&repo_root().join("samples").join(rel)).to_string()
}

#[test]
fn a_mod_adding_a_third_pub_sends_npcs_there_without_changing_the_base() {
    let base = s("daily_life.json");
    let before = std::fs::read(&base).unwrap();
    let m = s("mods/third_pub.json");
    expect_exit(&["validate", "--with", &base, &m], 0);
    let trace = TempFile::empty("third_pub.jsonl");
    let r = expect_exit(
        &[
            "run",
            &m,
            "--with",
            &base,
            "--seed",
            "1",
            "--ticks",
            "3000",
            "--trace",
            trace.s(),
        ],
        0,
    );
    assert!(r.stdout.contains("hash "), "{}", r.stdout);
    let text = std::fs::read_to_string(&trace.0).unwrap();
    let adopted = text.lines().any(|l| {
        l.contains("\"kind\":\"adopt\"")
            && l.contains("\"area\":\"pub_green\"")
            && l.contains("\"npc\":")
    });
    assert!(adopted, "no NPC adopted a behavior at pub_green");
    // The trace names the layer the new pub came from; base assets carry no layer.
    let named = format!("\"layers\":{{\"area\":{}}}", serde_json::json!(m));
    assert!(
        text.lines()
            .any(|l| l.contains("\"kind\":\"adopt\"") && l.contains(&named)),
        "no adopt line names {named}"
    );
    assert!(
        text.lines()
            .filter(|l| l.contains("\"area\":\"pub_red\""))
            .all(|l| !l.contains("\"layers\"")),
        "a base area was given a layer"
    );
    assert_eq!(std::fs::read(&base).unwrap(), before, "the base changed");

    // Merged into one pack, it runs the same playthrough.
    let out = TempFile::empty("merged.json");
    expect_exit(&["merge", &base, &m, "-o", out.s()], 0);
    expect_exit(&["fmt", "--check", out.s()], 0);
    let merged = expect_exit(&["run", out.s(), "--seed", "1", "--ticks", "3000"], 0);
    assert_eq!(hash_line(&merged.stdout), hash_line(&r.stdout));
}

#[test]
fn a_mod_whose_base_is_outside_its_folder_needs_with() {
    let r = expect_exit(&["validate", &s("mods/third_pub.json")], 1);
    assert!(
        r.stdout
            .contains("third_pub.json:6:15: error: extends[0]: base pack `../daily_life.json`")
            && r.stdout.contains("--with"),
        "{}",
        r.all()
    );
    let r = expect_exit(&["run", &s("mods/third_pub.json"), "--ticks", "10"], 1);
    assert!(
        r.stderr.contains("outside this pack's folder"),
        "{}",
        r.all()
    );
}

#[test]
fn two_mods_changing_the_same_template_conflict_naming_both_files() {
    let (a, b) = (s("mods/cheap_ale.json"), s("mods/closed_bar.json"));
    let out = TempFile::empty("conflict.json");
    let r = expect_exit(&["merge", &s("daily_life.json"), &a, &b, "-o", out.s()], 1);
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains("conflict"))
        .unwrap_or_else(|| panic!("no conflict reported:\n{}", r.all()));
    assert!(line.contains(&a) && line.contains(&b), "{line}");
    assert!(line.starts_with(&format!("{b}:8:5: error: ")), "{line}");
    assert!(!out.0.exists(), "a merge with errors wrote its output");
    // Either mod alone is fine, and patches the template.
    let r = expect_exit(&["merge", &s("daily_life.json"), &a], 0);
    assert!(r.stdout.contains("\"max_instances\": 10"), "{}", r.stdout);
}

#[test]
fn validate_json_names_the_file_of_each_problem() {
    let m = TempFile::new(
        "bad_mod.json",
        br#"{"format": "townsfolk-pack", "version": 1,
  "areas": [{"id": "pub_red", "patch": true, "templates": [{"name": "drink", "tree": "no_such_tree"}]}]}"#,
    );
    let r = expect_exit(
        &[
            "validate",
            "--format",
            "json",
            "--with",
            &s("daily_life.json"),
            m.s(),
        ],
        1,
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let errs: Vec<&serde_json::Value> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert_eq!(errs.len(), 1, "{}", r.stdout);
    assert_eq!(errs[0]["file"], m.s());
    assert_eq!(errs[0]["path"], "areas[0].templates[0].tree");
    assert_eq!(
        (errs[0]["line"].as_u64(), errs[0]["column"].as_u64()),
        (Some(2), Some(86))
    );
}

#[test]
fn the_debugger_names_the_layer_of_a_mod_asset() {
    let script = TempFile::new(
        "layers.txt",
        b"{\"cmd\": \"inspect\", \"area\": \"pub_green\"}\n{\"cmd\": \"inspect\", \"area\": \"pub_red\"}\n",
    );
    let m = s("mods/third_pub.json");
    let r = expect_exit(
        &[
            "debug",
            &m,
            "--with",
            &s("daily_life.json"),
            "--script",
            script.s(),
        ],
        0,
    );
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["layers"]["area"], m.as_str(), "{}", r.stdout);
    assert!(lines[1].get("layers").is_none(), "{}", r.stdout);
}

#[test]
fn validate_run_and_debug_follow_extends_inside_the_mods_folder() {
    let dir = temp_path("mod-folder");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        repo_root().join("samples/daily_life.json"),
        dir.join("base.json"),
    )
    .unwrap();
    let m = std::fs::read_to_string(repo_root().join("samples/mods/third_pub.json"))
        .unwrap()
        .replace("../daily_life.json", "base.json");
    std::fs::write(dir.join("mod.json"), m).unwrap();
    let mp = dir.join("mod.json");
    expect_exit(&["validate", p(&mp)], 0);
    let r = expect_exit(&["run", p(&mp), "--ticks", "5"], 0);
    assert!(
        r.stdout.contains("pack `Daily life with a third pub`"),
        "{}",
        r.stdout
    );
    let script = TempFile::new(
        "inspect.txt",
        b"{\"cmd\": \"inspect\", \"area\": \"pub_green\"}\n",
    );
    let r = expect_exit(&["debug", p(&mp), "--script", script.s()], 0);
    assert!(r.stdout.contains("\"ok\":true"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_refuses_a_mod_rather_than_drop_its_extends() {
    let m = std::fs::read(repo_root().join("samples/mods/third_pub.json")).unwrap();
    let f = TempFile::new("fmt_mod.json", &m);
    let r = expect_exit(&["fmt", "--drop-unknown", f.s()], 1);
    assert!(r.stderr.contains("it is a mod"), "{}", r.all());
    assert_eq!(std::fs::read(&f.0).unwrap(), m, "the mod was rewritten");
}
