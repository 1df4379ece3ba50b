//! Issue 13 items 1–3: importing BehaviorTree.CPP v4 XML and behavior3 JSON, exporting
//! BehaviorTree.CPP XML, against the real files of `tests/interop/` (copied unchanged from
//! `../shared/interop/`, see its README), and against hostile input.

#[allow(dead_code)] // the helpers are shared with the cli tests; these use a few
mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{expect_exit, temp_path};
use townsfolk_runtime::Session;
use townsfolk_runtime::interop::{self, ImportError};
use townsfolk_runtime::pack::{self, Node, NodeKind, Pack};
use townsfolk_runtime::value::Value;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/interop")
        .join(rel)
}

/// A node as `type(detail)[children]`, to compare trees node by node.
fn shape(n: &Node) -> String {
    let detail = match &n.kind {
        NodeKind::Sequence { reactive: true } => "reactive".to_string(),
        NodeKind::Selector { reactive: true } => "reactive".to_string(),
        NodeKind::Condition { expr } => expr.clone(),
        NodeKind::Subtree { tree } => tree.clone(),
        NodeKind::Wait { seconds } => seconds.to_string(),
        NodeKind::Set { var, value } => format!("{var}:={value}"),
        NodeKind::Retry { times } => times.to_string(),
        NodeKind::Repeat { times } => format!("{times:?}"),
        NodeKind::Timeout { seconds } => seconds.to_string(),
        NodeKind::Guard { condition } => condition.clone(),
        _ => String::new(),
    };
    let mut s = n.kind.type_name().to_string();
    if !detail.is_empty() {
        s += &format!("({detail})");
    }
    if let Some(name) = &n.name {
        s += &format!("\"{name}\"");
    }
    if !n.children.is_empty() {
        let kids: Vec<String> = n.children.iter().map(shape).collect();
        s += &format!("[{}]", kids.join(", "));
    }
    s
}

fn tree_shapes(p: &Pack) -> Vec<(String, String)> {
    p.trees
        .iter()
        .map(|t| (t.id.clone(), shape(&t.root)))
        .collect()
}

fn import(rel: &str) -> interop::Imported {
    match interop::import_btcpp_file(&data(rel)) {
        Ok(i) => i,
        Err(e) => panic!("{rel}: {e}"),
    }
}

#[test]
fn subtree_test_imports_with_includes_node_by_node() {
    let i = import("btcpp/test_files/subtree_test.xml");
    assert_eq!(
        tree_shapes(&i.pack),
        vec![
            (
                "BehaviorTree".into(),
                "sequence[subtree(CheckStatus), condition(stub_OpenGripper), condition(stub_CloseGripper), subtree(SayStuff)]".into()
            ),
            (
                "CheckStatus".into(),
                "sequence[condition(stub_CheckBattery), condition(stub_CheckTemperature)]".into()
            ),
            (
                "SayStuff".into(),
                "sequence[condition(stub_SaySomething), condition(stub_SayHello)]".into()
            ),
        ]
    );
    let placeholders: Vec<(&str, &str, &str)> = i
        .report
        .placeholders
        .iter()
        .map(|p| (p.file.as_str(), p.source_type.as_str(), p.category.as_str()))
        .collect();
    assert_eq!(
        placeholders,
        vec![
            ("subtree_test.xml", "OpenGripper", "Action"),
            ("subtree_test.xml", "CloseGripper", "Action"),
            ("Check.xml", "CheckBattery", "Action"),
            ("Check.xml", "CheckTemperature", "Action"),
            ("subtrees/Talk.xml", "SaySomething", "Action"),
            ("subtrees/Talk.xml", "SayHello", "Action"),
        ]
    );
    // Check.xml has no BTCPP_format: a warning naming the file and line.
    let w = i
        .report
        .warnings
        .iter()
        .find(|w| w.construct == "<root>")
        .expect("missing-format warning");
    assert_eq!((w.file.as_str(), w.line), ("Check.xml", 1));
    // The placeholder keeps its ports for the user (and for export).
    let talk = i.pack.tree("SayStuff").unwrap();
    assert_eq!(
        talk.root.children[0].comment.as_deref(),
        Some("btcpp placeholder: <Action ID=\"SaySomething\" message=\"Hello World\"/>")
    );
    // The pack is valid: it loads back and compiles.
    let text = pack::to_canonical_string(&i.pack);
    let loaded = townsfolk_runtime::program::load_str(&text);
    assert!(!loaded.has_errors(), "{:?}\n{text}", loaded.diagnostics);
}

#[test]
fn log_test_maps_builtins_and_names() {
    let i = import("btcpp/test_files/log_test.xml");
    assert_eq!(
        tree_shapes(&i.pack),
        vec![
            (
                "Main".into(),
                "sequence[subtree(Subtree)\"FirstSubtree\", subtree(Subtree)\"SecondSubtree\"]"
                    .into()
            ),
            (
                "Subtree".into(),
                "sequence\"SleepSequence\"[wait(0.3), condition(true)]".into()
            ),
        ]
    );
    assert!(i.report.placeholders.is_empty());
}

#[test]
fn include_chains_import_and_escapes_are_refused() {
    let i = import("btcpp/include_tests/parent_include_child_include_parent.xml");
    let ids: Vec<&str> = i.pack.trees.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "ParentIncludeChildIncludeParent",
            "ChildIncludeParent",
            "ParentNoInclude"
        ]
    );
    let i = import("btcpp/include_tests/parent_include_child_include_child.xml");
    assert_eq!(
        tree_shapes(&i.pack)[1],
        (
            "ChildIncludeChild".into(),
            "sequence[subtree(ChildChildNoInclude), condition(true)]".into()
        )
    );
    for f in [
        "parent_include_child.xml",
        "parent_include_child_include_sibling.xml",
        "parent_no_include.xml",
        "child/child_include_child.xml",
        "child/child_include_sibling.xml",
        "child/child_no_include.xml",
        "child/child/child_child_no_include.xml",
    ] {
        import(&format!("btcpp/include_tests/{f}"));
    }
    for f in ["Check.xml", "subtrees/Talk.xml"] {
        import(&format!("btcpp/test_files/{f}"));
    }
    // Imported alone, the child's `../` include leaves its folder: refused, named.
    let e = interop::import_btcpp_file(&data("btcpp/include_tests/child/child_include_parent.xml"))
        .unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, ImportError::IncludeRefused { .. }), "{msg}");
    assert!(
        msg.starts_with("child_include_parent.xml:2: include `../parent_no_include.xml` refused"),
        "{msg}"
    );
}

/// A temporary folder removed on drop.
struct Dir(PathBuf);
impl Dir {
    fn new(tag: &str) -> Dir {
        let p = temp_path(tag);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
}
impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn including(path: &str, tree: &str) -> String {
    format!(
        "<root BTCPP_format=\"4\">\n  <include path=\"{path}\"/>\n  <BehaviorTree ID=\"{tree}\"><AlwaysSuccess/></BehaviorTree>\n</root>\n"
    )
}

#[test]
fn include_cycles_are_named_not_followed() {
    let d = Dir::new("cycle");
    let a = d.write("a.xml", &including("sub/b.xml", "A"));
    d.write("sub/b.xml", &including("../a.xml", "B"));
    let e = interop::import_btcpp_file(&a).unwrap_err();
    assert_eq!(e.to_string(), "include cycle: a.xml -> sub/b.xml -> a.xml");
    let selfish = d.write("self.xml", &including("self.xml", "S"));
    let e = interop::import_btcpp_file(&selfish).unwrap_err();
    assert_eq!(e.to_string(), "include cycle: self.xml -> self.xml");
}

#[test]
fn include_depth_is_capped() {
    let d = Dir::new("depth");
    for k in 0..40 {
        d.write(
            &format!("f{k}.xml"),
            &including(&format!("f{}.xml", k + 1), &format!("T{k}")),
        );
    }
    d.write(
        "f40.xml",
        "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T40\"><AlwaysSuccess/></BehaviorTree></root>",
    );
    let e = interop::import_btcpp_file(&d.0.join("f0.xml")).unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::Limit {
                what: "nested includes",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn absolute_and_escaping_includes_are_refused() {
    let d = Dir::new("escape");
    let outside = Dir::new("outside");
    let secret = outside.write(
        "secret.xml",
        "<root><BehaviorTree ID=\"X\"><AlwaysSuccess/></BehaviorTree></root>",
    );
    let abs = d.write("abs.xml", &including(&secret.display().to_string(), "A"));
    let e = interop::import_btcpp_file(&abs).unwrap_err().to_string();
    assert!(e.contains("absolute paths are not allowed"), "{e}");
    let up = d.write("up.xml", &including("../x/../../etc/passwd", "A"));
    let e = interop::import_btcpp_file(&up).unwrap_err().to_string();
    assert!(e.starts_with("up.xml:2: include"), "{e}");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, d.0.join("link.xml")).unwrap();
        let via = d.write("via.xml", &including("link.xml", "A"));
        let e = interop::import_btcpp_file(&via).unwrap_err().to_string();
        assert!(e.contains("outside the folder"), "{e}");
    }
    // Text input cannot include at all.
    let e = interop::import_btcpp_str(&including("a.xml", "A"), "mem.xml").unwrap_err();
    assert!(e.to_string().contains("includes need the document"), "{e}");
}

#[test]
fn hostile_documents_are_errors_not_panics() {
    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<root><BehaviorTree ID="T"><Log text="&lol9;"/></BehaviorTree></root>"#;
    let e = interop::import_btcpp_str(laughs, "laughs.xml").unwrap_err();
    assert!(matches!(e, ImportError::Xml { .. }), "{e}");

    // A nesting bomb: far past the node cap.
    let deep = format!(
        "<root><BehaviorTree ID=\"T\">{}<AlwaysSuccess/>{}</BehaviorTree></root>",
        "<Inverter>".repeat(300_000),
        "</Inverter>".repeat(300_000)
    );
    let e = interop::import_btcpp_str(&deep, "deep.xml").unwrap_err();
    assert!(matches!(e, ImportError::Xml { .. }), "{e}");
    // Within the node cap, past the depth cap.
    let deep = format!(
        "<root><BehaviorTree ID=\"T\">{}<AlwaysSuccess/>{}</BehaviorTree></root>",
        "<Inverter>".repeat(1000),
        "</Inverter>".repeat(1000)
    );
    let e = interop::import_btcpp_str(&deep, "deep.xml").unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::Limit {
                what: "levels of tree nesting",
                ..
            }
        ),
        "{e}"
    );
    for bad in [
        "",
        "<root>",
        "<notroot/>",
        "<root><BehaviorTree/></root>",
        "<root><BehaviorTree ID=\"T\"/></root>",
        "<root><BehaviorTree ID=\"T\"><Inverter/></BehaviorTree></root>",
        "<root><BehaviorTree ID=\"T\"><SubTree ID=\"Nope\"/></BehaviorTree></root>",
        "<root><BehaviorTree ID=\"T\"><Action/></BehaviorTree></root>",
        "<root><BehaviorTree ID=\"T\"><tf_wait seconds=\"soon\"/></BehaviorTree></root>",
        "<root><BehaviorTree ID=\"T\"><IfThenElse><Sleep msec=\"1\"/><Sleep msec=\"1\"/></IfThenElse></BehaviorTree></root>",
        "<root><BehaviorTree ID=\"T\"><AlwaysSuccess/></BehaviorTree><BehaviorTree ID=\"T\"><AlwaysSuccess/></BehaviorTree></root>",
    ] {
        let e = interop::import_btcpp_str(bad, "bad.xml").unwrap_err();
        assert!(e.to_string().starts_with("bad.xml"), "{bad}: {e}");
    }
}

const SCRIPTED: &str = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <ReactiveFallback>
      <Sequence name="flee">
        <IsScared/>
        <Script code="mood := 'afraid'; fled += 1"/>
      </Sequence>
      <Sequence _skipIf="fled &gt; 2">
        <Timeout msec="2000">
          <Sleep msec="500"/>
        </Timeout>
        <SetBlackboard output_key="mood" value="calm"/>
      </Sequence>
    </ReactiveFallback>
  </BehaviorTree>
  <TreeNodesModel>
    <Condition ID="IsScared"/>
  </TreeNodesModel>
</root>
"#;

#[test]
fn scripts_preconditions_and_decorators_map() {
    let i = interop::import_btcpp_str(SCRIPTED, "scripted.xml").unwrap();
    assert_eq!(
        tree_shapes(&i.pack),
        vec![(
            "Main".into(),
            "selector(reactive)[sequence\"flee\"[condition(stub_IsScared), sequence[set(mood:=\"afraid\"), set(fled:=fled + (1))]], selector[condition(fled > 2), sequence[timeout(2)[wait(0.5)], set(mood:=\"calm\")]]]".into()
        )]
    );
    assert_eq!(i.report.placeholders[0].category, "Condition");
    let skip = i
        .report
        .warnings
        .iter()
        .find(|w| w.construct == "_skipIf")
        .expect("skipIf warning");
    assert_eq!((skip.file.as_str(), skip.line), ("scripted.xml", 8));
}

/// The imported tree runs: a blackboard scripted tick by tick drives its status.
#[test]
fn an_imported_tree_runs_with_a_scripted_blackboard() {
    let i = interop::import_btcpp_str(SCRIPTED, "scripted.xml").unwrap();
    let mut p = i.pack;
    let t = &mut p.trees[0];
    for (name, ty) in [("mood", "str"), ("fled", "int")] {
        t.blackboard.insert(
            name.into(),
            serde_json::from_value(serde_json::json!({ "type": ty })).unwrap(),
        );
    }
    let mut json = serde_json::to_value(&p).unwrap();
    json["world"]["npcs"] = serde_json::json!([{ "id": "bot", "pos": [0.0, 0.0], "tree": "Main", "vars": { "stub_IsScared": false } }]);
    json["world"]["dt"] = serde_json::json!(0.25);
    let loaded = townsfolk_runtime::program::load_str(&json.to_string());
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let mut s = Session::from_pack(&loaded.pack.unwrap(), 1).unwrap();
    let bb = s.program().blackboard.clone();
    let scared = bb.get("stub_IsScared").unwrap() as usize;
    let fled = bb.get("fled").unwrap() as usize;
    // Script: calm for 4 ticks (the 0.5 s sleep succeeds on the third tick it runs, then
    // starts over), scared for 3 (the
    // reactive fallback preempts, `fled` counts to 3), calm again: `_skipIf="fled > 2"` now
    // skips the sleep, and a skipped node succeeds at once.
    let script = [false, false, false, false, true, true, true, false, false];
    let mut got = Vec::new();
    for on in script {
        s.set_var(0, scared, Value::Bool(on));
        s.step();
        got.push(format!("{:?}", s.world().last_status(0)));
    }
    assert_eq!(
        got,
        [
            "Running", "Running", "Success", "Running", "Success", "Success", "Success", "Success",
            "Success"
        ]
    );
    assert_eq!(s.world().minds.bb(0)[fled], Value::Int(3));
}

#[test]
fn import_cli_writes_a_pack_and_reports() {
    let out = temp_path("imported.json");
    let src = data("btcpp/test_files/subtree_test.xml");
    let r = expect_exit(
        &[
            "import",
            "btcpp",
            src.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        0,
    );
    assert!(
        r.stderr.contains("Check.xml:1: warning: <root>"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("placeholder: Action `OpenGripper`"),
        "{}",
        r.stderr
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(pack::load_str(&text).pack.is_some());
    let _ = std::fs::remove_file(&out);
    let cyc = data("btcpp/include_tests/child/child_include_parent.xml");
    let r = expect_exit(
        &[
            "import",
            "btcpp",
            cyc.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        1,
    );
    assert!(r.stderr.contains("refused"), "{}", r.stderr);
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

/// Every tree of every sample survives Townsfolk → BT.CPP XML → Townsfolk byte for byte
/// (after `fmt`), and the XML of the result is the same XML.
#[test]
fn sample_trees_round_trip_byte_for_byte() {
    let mut trees = 0;
    for f in samples() {
        let text = std::fs::read_to_string(&f).unwrap();
        let p = pack::load_str(&text).pack.unwrap();
        let xml = interop::export_btcpp(&p).unwrap();
        let back = interop::import_btcpp_str(&xml, "export.xml")
            .unwrap_or_else(|e| panic!("{}: {e}\n{xml}", f.display()));
        assert!(
            back.report.placeholders.is_empty(),
            "{}: {:?}",
            f.display(),
            back.report.placeholders
        );
        let mut q = p.clone();
        q.trees = back.pack.trees.clone();
        assert_eq!(
            pack::to_canonical_string(&q),
            pack::to_canonical_string(&p),
            "{}",
            f.display()
        );
        assert_eq!(interop::export_btcpp(&back.pack).unwrap(), xml);
        trees += p.trees.len();
    }
    assert!(trees >= 10, "only {trees} sample trees");
}

/// Import ∘ export ∘ import is a fixed point, placeholders and warnings included.
#[test]
fn import_export_import_is_a_fixed_point() {
    let firsts = [
        import("btcpp/test_files/subtree_test.xml"),
        import("btcpp/test_files/log_test.xml"),
        import("btcpp/include_tests/parent_include_child_include_parent.xml"),
        interop::import_btcpp_str(SCRIPTED, "scripted.xml").unwrap(),
    ];
    for first in firsts {
        let xml = interop::export_btcpp(&first.pack).unwrap();
        let second = interop::import_btcpp_str(&xml, "x.xml").unwrap();
        assert_eq!(second.pack.trees, first.pack.trees, "{xml}");
        let kinds = |i: &interop::Imported| -> Vec<(String, String, String)> {
            i.report
                .placeholders
                .iter()
                .map(|p| (p.node.clone(), p.category.clone(), p.source_type.clone()))
                .collect()
        };
        assert_eq!(kinds(&second), kinds(&first));
        assert_eq!(interop::export_btcpp(&second.pack).unwrap(), xml);
    }
}

#[test]
fn export_writes_builtins_custom_nodes_and_a_fixed_attribute_order() {
    let i = interop::import_btcpp_str(SCRIPTED, "scripted.xml").unwrap();
    let xml = interop::export_btcpp(&i.pack).unwrap();
    assert!(
        xml.contains(r#"<Condition ID="IsScared" _tf_id="n1"/>"#),
        "placeholder restored:\n{xml}"
    );
    assert!(
        xml.contains(r#"<Sequence name="flee" _tf_id="n5">"#),
        "name first, ids last:\n{xml}"
    );
    assert!(xml.contains(r#"<Sleep msec="500" _tf_id="n"#), "{xml}");
    let dl = pack::load_str(&std::fs::read_to_string(samples()[1].clone()).unwrap())
        .pack
        .unwrap();
    let xml = interop::export_btcpp(&dl).unwrap();
    let model = xml.split("<TreeNodesModel>").nth(1).expect("a node model");
    assert!(model.contains(r#"<Action ID="tf_move_to">"#), "{model}");
    assert!(model.contains(r#"<input_port name="target"/>"#), "{model}");
    assert!(xml.contains("<tf_move_to "), "{xml}");
}

#[test]
fn export_cli_writes_xml() {
    let out = temp_path("export.xml");
    let sample = samples()[0].clone();
    expect_exit(
        &[
            "export",
            "btcpp",
            sample.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        0,
    );
    let xml = std::fs::read_to_string(&out).unwrap();
    assert!(
        xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root BTCPP_format=\"4\"")
    );
    let _ = std::fs::remove_file(&out);
    expect_exit(
        &[
            "export",
            "btcpp",
            "no/such.json",
            "-o",
            out.to_str().unwrap(),
        ],
        1,
    );
}

fn b3(rel: &str) -> interop::Imported {
    interop::import_behavior3_file(&data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn behavior3_workspace_imports_whole_node_by_node() {
    let i = b3("behavior3/workspace.b3-workspace");
    let ids: Vec<&str> = i.pack.trees.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "vars/declare-core",
            "vars/declare-vars",
            "vars/test-subtree",
            "vars/test-vars",
            "workdir/hero",
            "workdir/subtree2",
            "workdir/subtree1",
            "workdir/monster",
            "workdir/sub/subtree1",
            "workdir/sub/subtree2",
        ]
    );
    let shapes: BTreeMap<String, String> = tree_shapes(&i.pack).into_iter().collect();
    assert_eq!(
        shapes["workdir/hero"],
        "selector[sequence[condition(stub_FindEnemy), condition(stub_Attack), wait(10)], sequence[condition(stub_FindEnemy), condition(stub_MoveToTarget)], sequence[condition(stub_GetHp), condition(stub_Cmp), condition(stub_MoveToPos)], condition(stub_Idle)]"
    );
    assert_eq!(
        shapes["workdir/monster"],
        "sequence[sequence[sequence[subtree(workdir/subtree2)], condition(stub_Cmp), condition(stub_TestB3), subtree(workdir/subtree1)], log]"
    );
    assert_eq!(shapes["workdir/subtree1"], "sequence[log, wait(1)]");
    assert_eq!(
        shapes["vars/test-vars"],
        "sequence[subtree(vars/test-subtree), condition(stub_FindEnemy), condition(stub_Attack), condition(stub_Check), condition(stub_MoveToTarget), condition(stub_Clear), condition(stub_TestB3), condition(stub_TestB3), condition(stub_Clear), condition(stub_Listen), condition(stub_TestOneof)]"
    );
    // Node ids, descriptions and placeholder sources survive.
    let hero = i.pack.tree("workdir/hero").unwrap();
    assert_eq!(hero.root.id, "1");
    assert_eq!(hero.root.children[0].comment.as_deref(), Some("攻击"));
    assert_eq!(
        hero.root.children[0].children[0].comment.as_deref(),
        Some(
            r#"behavior3 placeholder: {"name":"FindEnemy","args":{"x":0,"y":0,"w":100,"h":50},"output":["enemy"]}"#
        )
    );
    // Categories come from node-config.b3-setting.
    let find = i
        .report
        .placeholders
        .iter()
        .find(|p| p.source_type == "FindEnemy")
        .unwrap();
    assert_eq!(find.category, "Condition");
    // `target[0].x > 0` is not ours: a warning naming file and node.
    assert!(
        i.report
            .warnings
            .iter()
            .any(|w| w.file == "vars/test-vars.json" && w.construct == "Check (node \"6\")"),
        "{:?}",
        i.report.warnings
    );
    let text = pack::to_canonical_string(&i.pack);
    let loaded = townsfolk_runtime::program::load_str(&text);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
}

#[test]
fn every_behavior3_file_imports_alone() {
    for f in [
        "behavior3/workdir/hero.json",
        "behavior3/workdir/monster.json",
        "behavior3/workdir/subtree1.json",
        "behavior3/workdir/subtree2.json",
        "behavior3/workdir/sub/subtree1.json",
        "behavior3/workdir/sub/subtree2.json",
        "behavior3/vars/declare-core.json",
        "behavior3/vars/declare-vars.json",
        "behavior3/vars/test-subtree.json",
        "behavior3/vars/test-vars.json",
    ] {
        let i = b3(f);
        assert!(!i.pack.trees.is_empty(), "{f}");
    }
    // A tree brings its subtrees (paths relative to the workspace folder).
    let ids: Vec<String> = b3("behavior3/workdir/monster.json")
        .pack
        .trees
        .iter()
        .map(|t| t.id.clone())
        .collect();
    assert_eq!(
        ids,
        ["workdir/subtree2", "workdir/subtree1", "workdir/monster"]
    );
}

#[test]
fn behavior3_original_dialect_and_hostile_files() {
    let d = Dir::new("b3");
    let flat = d.write(
        "project.json",
        r#"{"data": {"trees": [
          {"id": "main", "title": "Guard", "root": "a", "nodes": {
            "a": {"id": "a", "name": "Priority", "title": "Priority", "children": ["b", "c"]},
            "b": {"id": "b", "name": "MaxTime", "properties": {"maxTime": 1500}, "child": "d"},
            "d": {"id": "d", "name": "Patrol", "title": "Patrol the wall"},
            "c": {"id": "c", "name": "sub"}}},
          {"id": "sub", "title": "Idle", "root": "w", "nodes": {
            "w": {"id": "w", "name": "Wait", "properties": {"milliseconds": 250}}}}],
          "custom_nodes": [{"name": "Patrol", "category": "action"}]}}"#,
    );
    let i = interop::import_behavior3_file(&flat).unwrap();
    assert_eq!(
        tree_shapes(&i.pack),
        vec![
            (
                "main".to_string(),
                "selector[timeout(1.5)[condition(stub_Patrol)\"Patrol the wall\"], subtree(sub)]"
                    .to_string()
            ),
            ("sub".to_string(), "wait(0.25)".to_string()),
        ]
    );
    assert_eq!(i.report.placeholders[0].category, "action");
    let looped = d.write(
        "loop.json",
        r#"{"root": "a", "nodes": {"a": {"id": "a", "name": "Sequence", "children": ["b"]}, "b": {"id": "b", "name": "Inverter", "child": "a"}}}"#,
    );
    let e = interop::import_behavior3_file(&looped)
        .unwrap_err()
        .to_string();
    assert!(e.contains("own ancestor"), "{e}");
    // Desktop subtrees: a cycle, a path out of the folder, an absolute path.
    d.write("ws.b3-workspace", r#"{"files": []}"#);
    let a = d.write("a.json", r#"{"root": {"id": 1, "name": "Sequence", "children": [{"id": 2, "name": "Sequence", "path": "b.json"}]}}"#);
    d.write("b.json", r#"{"root": {"id": 1, "name": "Sequence", "children": [{"id": 2, "name": "Sequence", "path": "a.json"}]}}"#);
    let e = interop::import_behavior3_file(&a).unwrap_err().to_string();
    assert_eq!(e, "include cycle: a.json -> b.json -> a.json");
    for p in ["../../etc/passwd", "/etc/passwd"] {
        let bad = d.write(
            "out.json",
            &format!(r#"{{"root": {{"id": 1, "name": "Sequence", "path": "{p}"}}}}"#),
        );
        let e = interop::import_behavior3_file(&bad).unwrap_err();
        assert!(matches!(e, ImportError::IncludeRefused { .. }), "{p}: {e}");
    }
    let deep = d.write(
        "deep.json",
        &format!(
            "{{\"root\": {}{{\"name\": \"Log\"}}{}}}",
            "{\"name\": \"Inverter\", \"children\": [".repeat(60),
            "]}".repeat(60)
        ),
    );
    let e = interop::import_behavior3_file(&deep).unwrap_err();
    assert!(matches!(e, ImportError::Limit { .. }), "{e}");
    let bomb = d.write("bomb.json", &"[".repeat(100_000));
    let e = interop::import_behavior3_file(&bomb).unwrap_err();
    assert!(matches!(e, ImportError::Json { .. }), "{e}");
}

#[test]
fn townsfolk_expressions_are_not_passed_off_as_btcpp_scripts() {
    let dl = pack::load_str(&std::fs::read_to_string(samples()[1].clone()).unwrap())
        .pack
        .unwrap();
    let xml = interop::export_btcpp(&dl).unwrap();
    // `hour() >= opens && hour() < 23.5` calls our functions: a Townsfolk-only node.
    assert!(
        xml.contains(r#"<tf_condition expr="hour() &gt;= opens &amp;&amp; hour() &lt; 23.5""#),
        "{xml}"
    );
    assert!(!xml.contains("ScriptCondition code=\"hour()"), "{xml}");
}

/// Damaged copies of every sample document (one character dropped, or replaced by a
/// character XML and our importers treat specially) import or fail with an error; none
/// panics.
#[test]
fn damaged_documents_never_panic() {
    let mut docs: Vec<(String, String)> = Vec::new();
    for f in [
        "btcpp/test_files/log_test.xml",
        "btcpp/test_files/Check.xml",
        "btcpp/include_tests/child/child_no_include.xml",
    ] {
        docs.push((f.into(), std::fs::read_to_string(data(f)).unwrap()));
    }
    docs.push(("scripted.xml".into(), SCRIPTED.into()));
    let mut tried = 0;
    for (name, text) in &docs {
        let chars: Vec<char> = text.chars().collect();
        for i in (0..chars.len()).step_by(3) {
            for repl in [None, Some('<'), Some('{'), Some('"'), Some('_'), Some('&')] {
                let mut c = chars.clone();
                match repl {
                    None => {
                        c.remove(i);
                    }
                    Some(r) => c[i] = r,
                }
                let s: String = c.into_iter().collect();
                let _ = interop::import_btcpp_str(&s, name);
                tried += 1;
            }
        }
    }
    let d = Dir::new("b3-damaged");
    let hero = std::fs::read_to_string(data("behavior3/workdir/hero.json")).unwrap();
    let chars: Vec<char> = hero.chars().collect();
    for i in (0..chars.len()).step_by(7) {
        let mut c = chars.clone();
        c[i] = '"';
        let f = d.write("t.json", &c.into_iter().collect::<String>());
        let _ = interop::import_behavior3_file(&f);
        tried += 1;
    }
    assert!(tried > 1000, "{tried}");
}
