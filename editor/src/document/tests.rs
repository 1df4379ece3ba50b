//! Unit tests of the document: edits and their inverses, history, gestures, dirty flag,
//! operations, rename, find, background checks.

use std::time::Duration;

use townsfolk_runtime::pack::{
    self, BreakOn, BreakpointDef, Literal, Node, NodeKind, NodeLayout, NodeWhen, Pack, Point,
    VarDecl,
};

use super::ops::{self, DeleteMode};
use super::*;

pub(crate) const SAMPLES: [&str; 5] = ["chronicle", "daily_life", "dungeon", "guards", "plaza"];

pub(crate) fn sample_text(name: &str) -> String {
    let path = format!("{}/../samples/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap()
}

pub(crate) fn sample(name: &str) -> Pack {
    pack::load_str(&sample_text(name)).pack.unwrap()
}

pub(crate) fn canon(p: &Pack) -> String {
    pack::to_canonical_string(p)
}

/// A deterministic generator (xorshift), so failures replay.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn all_nodes(n: &Node, out: &mut Vec<String>) {
    out.push(n.id.clone());
    for c in &n.children {
        all_nodes(c, out);
    }
}

fn random_edit(p: &Pack, rng: &mut Rng, serial: usize) -> Edit {
    let t = &p.trees[rng.below(p.trees.len())];
    let mut ids = Vec::new();
    all_nodes(&t.root, &mut ids);
    let node = ids[rng.below(ids.len())].clone();
    let other = ids[rng.below(ids.len())].clone();
    let tree = t.id.clone();
    let tedit = |op| Edit::Tree {
        tree: tree.clone(),
        op,
    };
    match rng.below(14) {
        0 => {
            let n = tree::find(&t.root, &node).unwrap();
            let mut props = NodeProps::of(n);
            props.disabled = !props.disabled;
            props.name = Some(format!("renamed {serial}"));
            tedit(TreeOp::SetProps { node, props })
        }
        1 => tedit(TreeOp::Insert {
            parent: node,
            index: rng.below(4),
            node: ops::new_node(&format!("new_{serial}"), NodeKind::Wait { seconds: 1.5 }),
        }),
        2 => tedit(TreeOp::Remove { node }),
        3 => tedit(TreeOp::Move {
            node,
            parent: other,
            index: rng.below(3),
        }),
        4 => tedit(TreeOp::SetBlackboard {
            var: format!("v{}", rng.below(3)),
            decl: (rng.below(2) == 0).then_some(VarDecl {
                ty: townsfolk_runtime::value::Type::Int,
                default: Some(Literal::Int(serial as i64)),
                comment: None,
            }),
        }),
        5 => tedit(TreeOp::SetInfo {
            name: Some(format!("tree {serial}")),
            comment: None,
        }),
        6 => Edit::Layout {
            tree,
            node,
            layout: (rng.below(3) > 0).then(|| NodeLayout {
                pos: Point {
                    x: serial as f64,
                    y: 2.0,
                },
                collapsed: rng.below(2) == 0,
                color: None,
            }),
        },
        7 => {
            let kind = AssetKind::ALL[rng.below(8)];
            let ids = kind.ids(p);
            match ids.get(rng.below(ids.len().max(1))) {
                Some(id) => Edit::Asset {
                    kind,
                    id: id.to_string(),
                    value: None,
                },
                None => Edit::Flag {
                    name: "f".into(),
                    value: Some(true),
                },
            }
        }
        8 => {
            let mut copy = t.clone();
            copy.id = format!("copy_{serial}");
            Edit::Asset {
                kind: AssetKind::Tree,
                id: copy.id.clone(),
                value: Some(AssetValue::Tree(copy)),
            }
        }
        9 => Edit::Flag {
            name: format!("flag{}", rng.below(3)),
            value: (rng.below(2) == 0).then_some(true),
        },
        10 => Edit::Counter {
            name: format!("counter{}", rng.below(3)),
            value: (rng.below(2) == 0).then_some(serial as i64),
        },
        11 => Edit::Batch(vec![
            tedit(TreeOp::SetId {
                node: node.clone(),
                id: format!("id_{serial}"),
            }),
            Edit::PackInfo {
                name: format!("pack {serial}"),
                comment: Some("c".into()),
            },
        ]),
        12 => Edit::TreeLayout { tree, layout: None },
        _ => Edit::Breakpoints(vec![BreakpointDef {
            id: serial as u32,
            enabled: true,
            on: BreakOn::Node {
                tree,
                node,
                when: NodeWhen::Enter,
            },
            npc: None,
            condition: None,
        }]),
    }
}

/// For many random edits on every sample: applying the inverse gives back the state before,
/// and applying the inverse's inverse gives back the state after.
#[test]
fn apply_then_inverse_is_identity_on_every_sample() {
    for (k, s) in SAMPLES.iter().enumerate() {
        let mut p = sample(s);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (k as u64 + 1));
        let mut applied = 0;
        for i in 0..400 {
            let e = random_edit(&p, &mut rng, i);
            let before = p.clone();
            let inv = match apply(&mut p, e.clone()) {
                Ok(inv) => inv,
                Err(_) => {
                    assert_eq!(p, before, "{s}: refused edit changed the pack: {e:?}");
                    continue;
                }
            };
            applied += 1;
            let after = p.clone();
            let redo = apply(&mut p, inv).unwrap();
            assert_eq!(canon(&p), canon(&before), "{s}: undo of {e:?}");
            apply(&mut p, redo).unwrap();
            assert_eq!(canon(&p), canon(&after), "{s}: redo of {e:?}");
        }
        assert!(applied > 200, "{s}: only {applied} edits applied");
    }
}

#[test]
fn every_sample_round_trips_through_the_document() {
    for s in SAMPLES {
        let text = sample_text(s);
        let loaded = pack::load_str(&text);
        let doc = Document::from_loaded(loaded, None);
        assert!(!doc.is_read_only(), "{s}");
        assert_eq!(canon(doc.pack()), text, "{s}: not the same bytes");
    }
}

fn guards_doc() -> Document {
    Document::from_loaded(pack::load_str(&sample_text("guards")), None)
}

fn first_composite(p: &Pack) -> (String, String) {
    for t in &p.trees {
        let mut found = None;
        tree::visit(&t.root, &mut |n| {
            if found.is_none() && n.kind.arity() == townsfolk_runtime::pack::Arity::Many {
                found = Some(n.id.clone());
            }
        });
        if let Some(n) = found {
            return (t.id.clone(), n);
        }
    }
    panic!("no composite");
}

#[test]
fn undo_and_redo_step_by_step_for_every_edit_kind() {
    let mut doc = guards_doc();
    let (t, parent) = first_composite(doc.pack());
    let states = |d: &Document| canon(d.pack());
    let mut seen = vec![states(&doc)];
    let edits = vec![
        ops::add_node(
            doc.pack(),
            &t,
            &parent,
            0,
            NodeKind::Wait { seconds: 2.0 },
            None,
        )
        .unwrap()
        .0,
        Edit::Tree {
            tree: t.clone(),
            op: TreeOp::SetBlackboard {
                var: "extra".into(),
                decl: Some(VarDecl {
                    ty: townsfolk_runtime::value::Type::Bool,
                    default: None,
                    comment: None,
                }),
            },
        },
        Edit::Tree {
            tree: t.clone(),
            op: TreeOp::SetInfo {
                name: Some("Named".into()),
                comment: Some("c".into()),
            },
        },
        ops::set_position(doc.pack(), &t, &parent, Point { x: 5.0, y: 6.0 }),
        Edit::Flag {
            name: "new_flag".into(),
            value: Some(true),
        },
        Edit::Counter {
            name: "new_counter".into(),
            value: Some(3),
        },
        Edit::PackInfo {
            name: "Renamed pack".into(),
            comment: None,
        },
        Edit::Asset {
            kind: AssetKind::Npc,
            id: doc.pack().world.npcs[0].id.clone(),
            value: None,
        },
        Edit::Breakpoints(Vec::new()),
    ];
    for e in edits {
        doc.apply(e).unwrap();
        seen.push(states(&doc));
    }
    let n = seen.len();
    for i in (0..n - 1).rev() {
        assert!(doc.undo());
        assert_eq!(states(&doc), seen[i], "undo to state {i}");
    }
    assert!(!doc.undo());
    assert!(!doc.can_undo());
    for (i, s) in seen.iter().enumerate().skip(1) {
        assert!(doc.redo());
        assert_eq!(&states(&doc), s, "redo to state {i}");
    }
    assert!(!doc.redo());
}

#[test]
fn a_gesture_is_one_step_and_nested_begins_are_harmless() {
    let mut doc = guards_doc();
    let (t, node) = first_composite(doc.pack());
    let before = canon(doc.pack());
    let r0 = doc.revision();
    doc.begin_gesture("Drag");
    doc.begin_gesture("Drag again");
    for i in 0..10 {
        doc.apply(ops::set_position(
            doc.pack(),
            &t,
            &node,
            Point {
                x: i as f64,
                y: 0.0,
            },
        ))
        .unwrap();
    }
    doc.end_gesture();
    doc.end_gesture();
    doc.end_gesture(); // an extra end is harmless too
    assert!(doc.revision() >= r0 + 10);
    assert_eq!(doc.history_len(), (1, 0));
    assert_eq!(doc.undo_label(), Some("Drag"));
    assert!(doc.undo());
    assert_eq!(canon(doc.pack()), before);
    assert_eq!(doc.redo_label(), Some("Drag"));
    // An empty gesture records nothing.
    doc.begin_gesture("Nothing");
    doc.end_gesture();
    assert_eq!(doc.history_len(), (0, 1));
}

#[test]
fn dirty_flag_follows_the_saved_state() {
    let mut doc = guards_doc();
    assert!(!doc.is_dirty());
    let e = |n: &str| Edit::Flag {
        name: n.into(),
        value: Some(true),
    };
    doc.apply(e("a")).unwrap();
    assert!(doc.is_dirty());
    assert!(doc.undo());
    assert!(!doc.is_dirty(), "undo back to the opened state is clean");
    assert!(doc.redo());
    doc.mark_saved();
    assert!(!doc.is_dirty());
    doc.apply(e("b")).unwrap();
    assert!(doc.is_dirty());
    assert!(doc.undo());
    assert!(!doc.is_dirty(), "undo back to the saved state is clean");
    assert!(doc.undo());
    assert!(doc.is_dirty(), "before the save is dirty");
    // A new edit after undoing past the save makes the saved state unreachable.
    doc.apply(e("c")).unwrap();
    assert!(doc.is_dirty());
    assert!(doc.undo());
    assert!(doc.is_dirty());
}

#[test]
fn selection_changes_are_not_undo_steps() {
    let mut doc = guards_doc();
    let (t, n) = first_composite(doc.pack());
    doc.selection = Selection::node(&t, &n);
    assert!(!doc.is_dirty());
    assert!(!doc.can_undo());
}

#[test]
fn read_only_documents_refuse_edits() {
    let text = sample_text("guards").replacen("\"npcs\": [", "\"npcs\": [ 42,", 1);
    let loaded = pack::load_str(&text);
    assert!(loaded.lossy, "the test needs a lossy load");
    let mut doc = Document::from_loaded(loaded, None);
    assert!(doc.is_read_only());
    let before = canon(doc.pack());
    assert_eq!(
        doc.apply(Edit::Flag {
            name: "x".into(),
            value: Some(true)
        }),
        Err(EditError::ReadOnly)
    );
    assert_eq!(canon(doc.pack()), before);
}

#[test]
fn a_failing_batch_changes_nothing() {
    let mut p = sample("guards");
    let before = canon(&p);
    let r = apply(
        &mut p,
        Edit::Batch(vec![
            Edit::Flag {
                name: "x".into(),
                value: Some(true),
            },
            Edit::Tree {
                tree: "no such tree".into(),
                op: TreeOp::Remove { node: "n".into() },
            },
        ]),
    );
    assert!(matches!(r, Err(EditError::NoTree(_))));
    assert_eq!(canon(&p), before);
}

#[test]
fn tree_ops_refuse_bad_moves() {
    let mut p = sample("guards");
    let (t, n) = first_composite(&p);
    let root = p.tree(&t).unwrap().root.id.clone();
    let child = p
        .tree(&t)
        .unwrap()
        .root
        .children
        .first()
        .map(|c| c.id.clone());
    assert!(matches!(
        apply(
            &mut p,
            Edit::Tree {
                tree: t.clone(),
                op: TreeOp::Remove { node: root.clone() }
            }
        ),
        Err(EditError::Root(_))
    ));
    if let Some(c) = child {
        assert!(matches!(
            apply(
                &mut p,
                Edit::Tree {
                    tree: t.clone(),
                    op: TreeOp::Move {
                        node: root,
                        parent: c,
                        index: 0
                    }
                }
            ),
            Err(EditError::Root(_))
        ));
    }
    let dup = ops::new_node(&n, NodeKind::Wait { seconds: 1.0 });
    assert!(matches!(
        apply(
            &mut p,
            Edit::Tree {
                tree: t.clone(),
                op: TreeOp::Insert {
                    parent: n,
                    index: 0,
                    node: dup
                }
            }
        ),
        Err(EditError::DuplicateNode { .. })
    ));
}

pub(crate) fn small_pack() -> Pack {
    let text = r#"{
      "format": "townsfolk-pack", "version": 1, "name": "small",
      "world": { "npcs": [ { "id": "bob", "pos": [1, 1], "tree": "patrol" } ] },
      "trees": [
        { "id": "patrol", "blackboard": { "alert": { "type": "bool" } },
          "root": { "id": "root", "type": "selector", "children": [
            { "id": "watch", "type": "sequence", "children": [
              { "id": "check", "type": "condition", "expr": "alert" },
              { "id": "shout", "type": "say", "text": "Hey!", "seconds": 1 }
            ] },
            { "id": "idle", "type": "subtree", "tree": "idle" }
          ] } },
        { "id": "idle", "root": { "id": "root", "type": "sequence", "children": [
            { "id": "wait", "type": "wait", "seconds": 2 } ] } }
      ],
      "editor": {
        "trees": { "patrol": { "nodes": {
          "watch": { "pos": [10, 20] }, "check": { "pos": [0, 40] }, "shout": { "pos": [20, 40] } } } },
        "breakpoints": [ { "id": 1, "on": "node", "tree": "idle", "node": "wait" },
                         { "id": 2, "on": "node", "tree": "patrol", "node": "shout" } ]
      }
    }"#;
    let loaded = pack::load_str(text);
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics);
    loaded.pack.unwrap()
}

fn children(p: &Pack, tree: &str, node: &str) -> Vec<String> {
    tree::find(&p.tree(tree).unwrap().root, node)
        .unwrap()
        .children
        .iter()
        .map(|c| c.id.clone())
        .collect()
}

#[test]
fn delete_a_composite_both_ways() {
    let p0 = small_pack();
    // The whole subtree: its layouts and breakpoints go too.
    let mut p = p0.clone();
    let e = ops::delete_nodes(&p, "patrol", &["watch".into()], DeleteMode::Subtree).unwrap();
    let inv = apply(&mut p, e).unwrap();
    assert_eq!(children(&p, "patrol", "root"), ["idle"]);
    assert!(!p.editor.trees.contains_key("patrol"));
    assert_eq!(p.editor.breakpoints.len(), 1);
    apply(&mut p, inv).unwrap();
    assert_eq!(canon(&p), canon(&p0));
    // Lift the children: they take its place, in order.
    let e = ops::delete_nodes(&p, "patrol", &["watch".into()], DeleteMode::LiftChildren).unwrap();
    let inv = apply(&mut p, e).unwrap();
    assert_eq!(children(&p, "patrol", "root"), ["check", "shout", "idle"]);
    let layout = &p.editor.trees["patrol"].nodes;
    assert!(!layout.contains_key("watch") && layout.contains_key("check"));
    assert_eq!(p.editor.breakpoints.len(), 2);
    apply(&mut p, inv).unwrap();
    assert_eq!(canon(&p), canon(&p0));
    // The root is never deleted.
    assert!(ops::delete_nodes(&p, "patrol", &["root".into()], DeleteMode::Subtree).is_err());
}

#[test]
fn paste_into_another_tree_makes_ids_unique_and_carries_layouts() {
    let mut p = small_pack();
    let payload = ops::copy(&p, "patrol", &["watch".into(), "check".into()]).unwrap();
    assert_eq!(
        payload.nodes.len(),
        1,
        "a node inside a copied one is not copied twice"
    );
    // Through the clipboard's text, as between two windows.
    let payload = ClipboardPayload::from_text(&payload.to_text()).unwrap();
    let ops::Pasted {
        edit: e,
        ids: roots,
        ..
    } = ops::paste(&p, "idle", "root", 1, &payload, None).unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(roots, ["watch"]);
    assert_eq!(children(&p, "idle", "root"), ["wait", "watch"]);
    assert_eq!(
        p.editor.trees["idle"].nodes["check"].pos,
        Point { x: 0.0, y: 40.0 }
    );
    // Pasting again into the same tree renames every pasted id.
    let ops::Pasted {
        edit: e,
        ids: roots,
        ..
    } = ops::paste(
        &p,
        "idle",
        "root",
        0,
        &payload,
        Some(Point { x: 5.0, y: 5.0 }),
    )
    .unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(roots, ["watch_2"]);
    assert_eq!(children(&p, "idle", "watch_2"), ["check_2", "shout_2"]);
    assert_eq!(
        p.editor.trees["idle"].nodes["check_2"].pos,
        Point { x: 5.0, y: 45.0 }
    );
    let ids = tree::ids(&p.tree("idle").unwrap().root);
    assert_eq!(ids.len(), tree::count(&p.tree("idle").unwrap().root));
    assert_no_errors(&p);
    // Not under a leaf.
    assert!(ops::paste(&p, "idle", "wait", 0, &payload, None).is_err());
}

#[test]
fn duplicate_and_reorder() {
    let mut p = small_pack();
    let (e, ids) =
        ops::duplicate(&p, "patrol", &["shout".into()], Point { x: 10.0, y: 0.0 }).unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(ids, ["shout_2"]);
    assert_eq!(
        children(&p, "patrol", "watch"),
        ["check", "shout", "shout_2"]
    );
    assert_eq!(p.editor.trees["patrol"].nodes["shout_2"].pos.x, 30.0);
    let e = ops::reorder(&p, "patrol", "shout_2", -2).unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(
        children(&p, "patrol", "watch"),
        ["shout_2", "check", "shout"]
    );
    assert!(ops::reorder(&p, "patrol", "shout_2", -1).is_none());
    let e = ops::move_node(&p, "patrol", "shout_2", "root", 0).unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(children(&p, "patrol", "root"), ["shout_2", "watch", "idle"]);
    assert!(
        ops::move_node(&p, "patrol", "watch", "check", 0).is_err(),
        "under a leaf"
    );
}

#[test]
fn extract_selection_to_a_new_subtree() {
    let mut p = small_pack();
    let p0 = p.clone();
    let (e, id) = ops::extract_subtree(&p, "patrol", &["watch".into()], None).unwrap();
    let inv = apply(&mut p, e).unwrap();
    assert_eq!(id, "patrol_watch");
    let t = p.tree("patrol_watch").unwrap();
    assert_eq!(t.root.id, "watch");
    let kids = children(&p, "patrol", "root");
    assert_eq!(kids.len(), 2);
    let sub = tree::find(&p.tree("patrol").unwrap().root, &kids[0]).unwrap();
    assert_eq!(sub.kind, NodeKind::Subtree { tree: id.clone() });
    assert_eq!(p.editor.trees["patrol_watch"].nodes["check"].pos.y, 40.0);
    assert_eq!(p.editor.trees["patrol"].nodes[&kids[0]].pos.x, 10.0);
    assert_no_errors(&p);
    apply(&mut p, inv).unwrap();
    assert_eq!(canon(&p), canon(&p0));
    // Two siblings become a sequence.
    let (e, _) = ops::extract_subtree(
        &p,
        "patrol",
        &["check".into(), "shout".into()],
        Some("pair"),
    )
    .unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(children(&p, "pair", "sequence"), ["check", "shout"]);
    assert_eq!(children(&p, "patrol", "watch").len(), 1);
}

#[test]
fn rename_a_tree_and_every_reference_follows() {
    let mut p = small_pack();
    let p0 = p.clone();
    let e = rename(&p, &Target::Tree("idle".into()), "rest").unwrap();
    let inv = apply(&mut p, e).unwrap();
    assert!(p.tree("idle").is_none() && p.tree("rest").is_some());
    let idle = tree::find(&p.tree("patrol").unwrap().root, "idle").unwrap();
    assert_eq!(
        idle.kind,
        NodeKind::Subtree {
            tree: "rest".into()
        }
    );
    match &p.editor.breakpoints[0].on {
        BreakOn::Node { tree, .. } => assert_eq!(tree, "rest"),
        other => panic!("{other:?}"),
    }
    assert_no_errors(&p);
    apply(&mut p, inv).unwrap();
    assert_eq!(canon(&p), canon(&p0));
    // The NPC's tree, the layout key.
    let e = rename(&p, &Target::Tree("patrol".into()), "guard").unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(p.world.npcs[0].tree, "guard");
    assert!(p.editor.trees.contains_key("guard") && !p.editor.trees.contains_key("patrol"));
    // Refused: a name already taken, an empty name.
    assert!(rename(&p, &Target::Tree("guard".into()), "rest").is_ok());
    assert!(rename(&p, &Target::Tree("guard".into()), "idle").is_err());
    assert!(rename(&p, &Target::Tree("guard".into()), " ").is_err());
}

#[test]
fn rename_a_door_object_and_its_wall_follows() {
    let mut p = sample("dungeon");
    let p0 = p.clone();
    let door = p
        .world
        .walls
        .iter()
        .flat_map(|w| &w.doors)
        .map(|d| d.object.clone())
        .next()
        .expect("the dungeon sample has a door in a wall");
    let e = rename_asset(&p, AssetKind::Object, &door, "vault_gate").unwrap();
    let inv = apply(&mut p, e).unwrap();
    let objects: Vec<&str> = p
        .world
        .walls
        .iter()
        .flat_map(|w| &w.doors)
        .map(|d| d.object.as_str())
        .collect();
    assert!(objects.contains(&"vault_gate"), "{objects:?}");
    assert!(!objects.contains(&door.as_str()), "{objects:?}");
    assert_no_errors(&p);
    apply(&mut p, inv).unwrap();
    assert_eq!(canon(&p), canon(&p0));
}

#[test]
fn rename_a_node_moves_its_layout_and_breakpoints() {
    let mut p = small_pack();
    let target = Target::Node {
        tree: "patrol".into(),
        node: "shout".into(),
    };
    let e = rename(&p, &target, "yell").unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(children(&p, "patrol", "watch"), ["check", "yell"]);
    assert!(p.editor.trees["patrol"].nodes.contains_key("yell"));
    assert!(!p.editor.trees["patrol"].nodes.contains_key("shout"));
    assert!(matches!(&p.editor.breakpoints[1].on, BreakOn::Node { node, .. } if node == "yell"));
    // Another tree's node of the same id is not touched.
    let p2 = p.clone();
    let e = rename(
        &p,
        &Target::Node {
            tree: "idle".into(),
            node: "root".into(),
        },
        "top",
    )
    .unwrap();
    apply(&mut p, e).unwrap();
    assert_eq!(p.tree("idle").unwrap().root.id, "top");
    assert_eq!(
        p.tree("patrol").unwrap().root.id,
        p2.tree("patrol").unwrap().root.id
    );
}

#[test]
fn rename_a_variable_in_expressions_and_npcs() {
    let mut p = small_pack();
    let target = Target::Var {
        tree: Some("patrol".into()),
        var: "alert".into(),
    };
    let e = rename(&p, &target, "alarmed").unwrap();
    apply(&mut p, e).unwrap();
    let t = p.tree("patrol").unwrap();
    assert!(t.blackboard.contains_key("alarmed") && !t.blackboard.contains_key("alert"));
    let check = tree::find(&t.root, "check").unwrap();
    assert_eq!(
        check.kind,
        NodeKind::Condition {
            expr: "alarmed".into()
        }
    );
    assert_no_errors(&p);
}

#[test]
fn rename_on_every_sample_keeps_the_pack_valid() {
    // Rename every tree of every sample; the checks find no new errors.
    for s in SAMPLES {
        let mut p = sample(s);
        let errors = |p: &Pack| {
            townsfolk_runtime::program::check(p)
                .iter()
                .filter(|d| d.is_error())
                .count()
        };
        let before = errors(&p);
        let ids: Vec<String> = p.trees.iter().map(|t| t.id.clone()).collect();
        for id in ids {
            let e = rename(&p, &Target::Tree(id.clone()), &format!("{id}_renamed")).unwrap();
            apply(&mut p, e).unwrap();
        }
        assert_eq!(
            errors(&p),
            before,
            "{s}: {:#?}",
            townsfolk_runtime::program::check(&p)
        );
        assert!(p.trees.iter().all(|t| t.id.ends_with("_renamed")));
    }
}

#[test]
fn find_and_find_usages() {
    let p = small_pack();
    let hits = find(&p, "HEY");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].asset, AssetRef::tree("patrol"));
    assert_eq!(hits[0].item.as_deref(), Some("shout"));
    assert_eq!(hits[0].path, "trees[0].root.children[0].children[1].text");
    assert!(find(&p, "").is_empty());
    let usages = find_usages(&p, &Target::Tree("idle".into()));
    let paths: Vec<&str> = usages.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "trees[0].root.children[1].tree",
            "editor.breakpoints[0].tree"
        ]
    );
    assert_eq!(usages[0].item.as_deref(), Some("idle"));
    let var = find_usages(
        &p,
        &Target::Var {
            tree: Some("patrol".into()),
            var: "alert".into(),
        },
    );
    assert_eq!(var.len(), 1);
    assert_eq!(var[0].text, "alert");
    assert_eq!(var[0].item.as_deref(), Some("check"));
}

#[test]
fn unique_node_ids() {
    let p = small_pack();
    let t = p.tree("patrol").unwrap();
    assert_eq!(unique_node_id(t, "wait"), "wait");
    assert_eq!(unique_node_id(t, "watch"), "watch_2");
    assert_eq!(ops::unique_asset_id(&p, AssetKind::Tree, "idle"), "idle_2");
}

#[test]
fn every_palette_kind_has_defaults() {
    for name in NodeKind::TYPE_NAMES {
        let k = ops::default_kind(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(k.type_name(), *name);
    }
    assert_eq!(ops::default_kind("no_such_kind"), None);
    // Parameters that name something start empty (unfilled, shown red), not with a value
    // that silently passes.
    assert_eq!(
        ops::default_kind("condition"),
        Some(NodeKind::Condition {
            expr: String::new()
        })
    );
    assert_eq!(
        ops::default_kind("guard"),
        Some(NodeKind::Guard {
            condition: String::new()
        })
    );
}

#[test]
fn background_checks_follow_edits_and_drop_stale_results() {
    let mut doc = Document::new(small_pack());
    assert!(doc.wait_for_checks(Duration::from_secs(10)));
    assert!(!doc.has_errors(), "{:#?}", doc.diagnostics());
    // A broken expression: the worker finds it.
    let props = NodeProps {
        name: None,
        comment: None,
        disabled: false,
        kind: NodeKind::Condition {
            expr: "alert &&".into(),
        },
    };
    for _ in 0..3 {
        doc.apply(Edit::Tree {
            tree: "patrol".into(),
            op: TreeOp::SetProps {
                node: "check".into(),
                props: props.clone(),
            },
        })
        .unwrap();
    }
    assert!(doc.checking());
    assert!(doc.wait_for_checks(Duration::from_secs(10)));
    assert_eq!(doc.checked_revision(), doc.revision());
    let e = doc.diagnostics().iter().find(|d| d.is_error()).unwrap();
    assert!(e.path.contains("expr"), "{e:?}");
    // Undo: clean again.
    while doc.undo() {}
    assert!(doc.wait_for_checks(Duration::from_secs(10)));
    assert!(!doc.has_errors());
}

/// Fails, listing them, if the pack's checks find errors.
fn assert_no_errors(p: &Pack) {
    let errors: Vec<_> = townsfolk_runtime::program::check(p)
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}
