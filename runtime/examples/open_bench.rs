//! Time to open a 10 MB pack, stage by stage (see BENCHMARKS.md, editor section). Run with
//! `taskset -c 1 cargo run --release -p townsfolk-runtime --example open_bench`.
//!
//! The pack is the one `editor/examples/doc_bench.rs` generates (same generator, written
//! here against the runtime's types only): 1,450 routines of ~60 nodes (conditions, waits,
//! speech, moves, `set`, subtree calls), 50 leaf trees, 700 NPCs, a layout for every node.
//! Each stage is timed on its own, best of 5, then the whole `program::load_file` and
//! `Session::from_pack` (the editor's preview compiles the pack once more when it opens).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use townsfolk_runtime::Session;
use townsfolk_runtime::pack::{
    self, GraphLayout, MoveTarget, Node, NodeKind, NodeLayout, NpcDef, Pack, Point, TreeDef,
    VarDecl,
};
use townsfolk_runtime::program;

fn node(id: String, kind: NodeKind, children: Vec<Node>) -> Node {
    Node {
        id,
        name: None,
        comment: None,
        disabled: false,
        kind,
        children,
    }
}

/// A routine of about `n` nodes (as in `doc_bench`).
fn routine(t: usize, n: usize) -> TreeDef {
    let mut k = 0;
    let mut next = |p: &str| {
        k += 1;
        format!("{p}_{k}")
    };
    let mut branches = Vec::new();
    let mut count = 1;
    let mut b = 0;
    while count < n {
        let mut kids = vec![
            node(
                next("check"),
                NodeKind::Condition {
                    expr: format!("hunger > 0.{} && !flags.alarm_{}", b % 9 + 1, t % 7),
                },
                vec![],
            ),
            node(
                next("wait"),
                NodeKind::Wait {
                    seconds: 1.0 + (b % 5) as f64,
                },
                vec![],
            ),
            node(
                next("say"),
                NodeKind::Say {
                    text: format!("Routine {t}, step {b}: off I go to the market square."),
                    seconds: 2.0,
                },
                vec![],
            ),
            node(
                next("move"),
                NodeKind::MoveTo {
                    target: MoveTarget::Point(Point {
                        x: (b * 3 % 90) as f64,
                        y: (t * 7 % 90) as f64,
                    }),
                    tolerance: None,
                },
                vec![],
            ),
            node(
                next("set"),
                NodeKind::Set {
                    var: "hunger".into(),
                    value: "hunger - 0.1".into(),
                },
                vec![],
            ),
        ];
        if b % 4 == 3 {
            kids.push(node(
                next("sub"),
                NodeKind::Subtree {
                    tree: format!("leaf_{}", t % 50),
                },
                vec![],
            ));
        }
        count += kids.len() + 1;
        branches.push(node(
            next("seq"),
            NodeKind::Sequence { reactive: false },
            kids,
        ));
        b += 1;
    }
    let mut bb = BTreeMap::new();
    bb.insert(
        "hunger".to_string(),
        VarDecl {
            ty: townsfolk_runtime::value::Type::Float,
            default: Some(pack::Literal::Float(0.5)),
            comment: None,
        },
    );
    TreeDef {
        id: format!("routine_{t}"),
        name: Some(format!("Routine {t}")),
        comment: Some("Generated for the document benchmark.".into()),
        blackboard: bb,
        root: node(
            "root".into(),
            NodeKind::Selector { reactive: true },
            branches,
        ),
    }
}

fn visit(n: &Node, f: &mut dyn FnMut(&Node)) {
    f(n);
    for c in &n.children {
        visit(c, f);
    }
}

fn layout(t: &TreeDef) -> GraphLayout {
    let mut g = GraphLayout::default();
    let mut i = 0;
    visit(&t.root, &mut |n| {
        g.nodes.insert(
            n.id.clone(),
            NodeLayout {
                pos: Point {
                    x: (i % 40) as f64 * 180.0,
                    y: (i / 40) as f64 * 90.0,
                },
                collapsed: false,
                color: None,
            },
        );
        i += 1;
    });
    g
}

/// A deterministic pack of about `target` bytes of canonical text (as in `doc_bench`).
fn big_pack(target: usize) -> Pack {
    let mut p = Pack::new("Benchmark town");
    for f in 0..7 {
        p.world.flags.insert(format!("alarm_{f}"), false);
    }
    p.world.bounds.max = Point {
        x: 1000.0,
        y: 1000.0,
    };
    for l in 0..50 {
        p.trees.push(TreeDef {
            id: format!("leaf_{l}"),
            name: None,
            comment: None,
            blackboard: Default::default(),
            root: node(
                "root".into(),
                NodeKind::Sequence { reactive: false },
                vec![node("w".into(), NodeKind::Wait { seconds: 1.0 }, vec![])],
            ),
        });
    }
    let mut t = 0;
    let mut size = 0;
    while size < target {
        let tree = routine(t, 60);
        p.editor.trees.insert(tree.id.clone(), layout(&tree));
        p.world.npcs.push(NpcDef {
            id: format!("npc_{t}"),
            name: Some(format!("Villager {t}")),
            pos: Point {
                x: (t % 100) as f64 * 10.0,
                y: (t / 100) as f64 * 10.0,
            },
            speed: 1.5,
            tags: vec![],
            tree: tree.id.clone(),
            vars: Default::default(),
            inboxes: vec![],
            health: 100.0,
            items: vec![],
            equipped: vec![],
            prototype: false,
            comment: None,
        });
        p.trees.push(tree);
        t += 1;
        if t % 50 == 0 {
            size = pack::to_canonical_string(&p).len();
        }
    }
    p
}

/// CPU time this thread has run, from `/proc/thread-self/schedstat` (Linux; nanoseconds), so
/// that a busy shared machine inflates the figures less than wall time does.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Best of `runs` timings of `f` (wall ms, CPU ms when known), and its last result.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> ((f64, f64), T) {
    let mut best = Duration::MAX;
    let mut best_cpu = u64::MAX;
    let mut last = None;
    for _ in 0..runs {
        let c = cpu_ns();
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        if let (Some(a), Some(b)) = (c, cpu_ns()) {
            best_cpu = best_cpu.min(b.saturating_sub(a));
        }
        last = Some(r);
    }
    let cpu = if best_cpu == u64::MAX {
        f64::NAN
    } else {
        best_cpu as f64 / 1e6
    };
    match last {
        Some(r) => ((best.as_secs_f64() * 1e3, cpu), r),
        None => panic!("best() needs at least one run"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs = args.first().and_then(|s| s.parse().ok()).unwrap_or(5usize);
    // `open_bench N read|check|load`: only that stage, N times (for a profiler).
    let only = args.get(1).cloned();
    let pack0 = big_pack(10 * 1024 * 1024);
    let text = pack::to_canonical_string(&pack0);
    let dir = std::env::temp_dir().join(format!("townsfolk-open-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        panic!("cannot create {}: {e}", dir.display());
    }
    let path = dir.join("big.json");
    if let Err(e) = std::fs::write(&path, &text) {
        panic!("cannot write {}: {e}", path.display());
    }
    let nodes: usize = pack0
        .trees
        .iter()
        .map(|t| {
            let mut n = 0;
            visit(&t.root, &mut |_| n += 1);
            n
        })
        .sum();
    println!(
        "pack: {:.1} MB, {} trees, {} nodes, {} NPCs; best of {runs}",
        text.len() as f64 / 1e6,
        pack0.trees.len(),
        nodes,
        pack0.world.npcs.len()
    );

    if let Some(stage) = only {
        let loaded = pack::load_str(&text);
        let Some(p) = loaded.pack else {
            panic!("the generated pack could not be read");
        };
        let (ms, n) = match stage.as_str() {
            "read" => best(runs, || pack::load_str(&text).diagnostics.len()),
            "check" => best(runs, || program::check(&p).len()),
            "load" => {
                let path = dir.join("big.json");
                best(runs, || program::load_file(&path).diagnostics.len())
            }
            other => panic!("unknown stage `{other}` (read, check or load)"),
        };
        println!(
            "{stage}: best {:.1} ms wall, {:.1} ms CPU ({n} diagnostics)",
            ms.0, ms.1
        );
        return;
    }
    let (read, bytes) = best(runs, || pack::read_file(&path));
    let bytes = match bytes {
        Ok(b) => b,
        Err(d) => panic!("{}", d.render("big.json")),
    };
    let (utf8, _) = best(runs, || std::str::from_utf8(&bytes).map(str::len));
    let (value, _) = best(runs, || {
        serde_json::from_str::<serde_json::Value>(&text).map(|v| v.is_object())
    });
    let (typed, _) = best(runs, || {
        serde_json::from_str::<Pack>(&text).map(|p| p.trees.len())
    });
    let (read_pack, loaded) = best(runs, || pack::load_str(&text));
    let Some(pack1) = loaded.pack else {
        panic!("the generated pack could not be read");
    };
    if !loaded.diagnostics.is_empty() {
        for d in loaded.diagnostics.iter().take(5) {
            eprintln!("{}", d.render("big.json"));
        }
        panic!("reading the generated pack gave diagnostics");
    }
    let (check, diags) = best(runs, || program::check(&pack1));
    if !diags.is_empty() {
        for d in diags.iter().take(5) {
            eprintln!("{}", d.render("big.json"));
        }
        panic!("the generated pack has diagnostics");
    }
    let (clone, _) = best(runs, || pack1.clone());
    let (load, _) = best(runs, || program::load_file(&path));
    let (session, _) = best(runs, || Session::from_pack(&pack1, 1).map(|s| s.tick()));
    let _ = std::fs::remove_dir_all(&dir);

    let row = |name: &str, (w, c): (f64, f64)| println!("| {name} | {w:.1} | {c:.1} |");
    println!();
    println!("| stage | best wall ms | best CPU ms |");
    println!("|---|---|---|");
    row("read the file (`pack::read_file`)", read);
    row("UTF-8 check", utf8);
    row("JSON text → `serde_json::Value`", value);
    row("(for scale: JSON text → `Pack` by plain serde)", typed);
    row(
        "`pack::load_str` (parse + item reading + unknown fields)",
        read_pack,
    );
    row("`program::check` (one full `build`)", check);
    row("clone of the pack (the editor checker's copy)", clone);
    row("**`program::load_file` (read + parse + check)**", load);
    row(
        "`Session::from_pack` (the preview's build + world)",
        session,
    );
    row(
        "sum: load + session + clone (the editor's open, first frame aside)",
        (load.0 + session.0 + clone.0, load.1 + session.1 + clone.1),
    );
}
