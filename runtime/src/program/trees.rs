//! Compiling a tree definition into a flat [`Tree`], checking it on the way.

use std::collections::{HashMap, HashSet};

use super::MAX_COMPILED_NODES;
use super::ctx::{At, Ctx};
use crate::bt::{AreaAction, CNode, Op, Recipient, Target, Tree, VarRef};
use crate::expr::{BoardTest, Expr, Scope};
use crate::pack::diag::{index, key};
use crate::pack::{Arity, MoveTarget, Node, NodeKind, Pack};
use crate::value::{EntityId, Type};

/// Largest number of children of a parallel or random selector (their state is a bit mask).
pub const MAX_MASK_CHILDREN: usize = 32;

struct Cx<'p> {
    pack: &'p Pack,
    tree: Tree,
    /// Trees being inlined, outermost first (for cycle detection).
    stack: Vec<usize>,
    too_big: bool,
}

/// Compiles tree `ti` of the pack, inlining subtree references. Problems are reported
/// through the compiler with JSON paths; parts with errors become nodes that fail.
pub(crate) fn compile_tree(c: &mut Ctx<'_>, pack: &Pack, ti: usize) -> Tree {
    let def = &pack.trees[ti];
    let mut cx = Cx {
        pack,
        tree: Tree {
            id: def.id.clone(),
            nodes: Vec::new(),
            children: Vec::new(),
            leaves: Vec::new(),
        },
        stack: vec![ti],
        too_big: false,
    };
    let tpath = index("trees", ti);
    // Node ids must be unique within their tree. A quick pass without paths first: the
    // reporting pass (which names where each id was first used) runs only on a problem.
    let mut seen: HashSet<&str> = HashSet::new();
    if !ids_unique(&def.root, &mut seen) {
        let mut ids: HashMap<&str, String> = HashMap::new();
        check_ids(c, &def.root, &key(&tpath, "root"), &mut ids);
    }
    if def.root.disabled {
        c.warning(
            key(&tpath, "root"),
            format!(
                "the root of tree `{}` is disabled: the tree always fails",
                def.id
            ),
        );
    }
    emit(c, &mut cx, ti, &def.root, &key(&tpath, "root"), 0, true);
    if cx.too_big {
        c.error(
            key(&tpath, "root"),
            format!(
                "tree `{}` has more than {MAX_COMPILED_NODES} nodes once its subtrees are expanded (subtrees are copied into every tree that uses them)",
                def.id
            ),
        );
    }
    cx.tree.mark_leaves();
    cx.tree
}

/// True when every node id of the subtree is non-empty and seen once.
fn ids_unique<'a>(n: &'a Node, seen: &mut HashSet<&'a str>) -> bool {
    !n.id.is_empty() && seen.insert(&n.id) && n.children.iter().all(|c| ids_unique(c, seen))
}

fn check_ids<'a>(c: &mut Ctx<'_>, n: &'a Node, path: &str, ids: &mut HashMap<&'a str, String>) {
    if n.id.is_empty() {
        c.error(key(path, "id"), "node id must not be empty".into());
    } else if let Some(first) = ids.get(n.id.as_str()) {
        c.error(
            key(path, "id"),
            format!("duplicate node id `{}` (first used at {first})", n.id),
        );
    } else {
        ids.insert(&n.id, path.to_string());
    }
    for (k, ch) in n.children.iter().enumerate() {
        check_ids(c, ch, &index(&key(path, "children"), k), ids);
    }
}

fn emit(
    c: &mut Ctx<'_>,
    cx: &mut Cx<'_>,
    def_tree: usize,
    node: &Node,
    path: &str,
    depth: u16,
    report: bool,
) -> Option<u32> {
    if node.disabled {
        return None;
    }
    if cx.tree.nodes.len() >= MAX_COMPILED_NODES {
        cx.too_big = true;
        return None;
    }
    let idx = cx.tree.nodes.len();
    let origin_id = c.intern(&node.id);
    cx.tree.nodes.push(CNode {
        op: Op::Fail,
        child_start: 0,
        child_count: 0,
        end: 0,
        origin_tree: def_tree as u32,
        origin_id,
        depth,
    });
    let before = c.diag_count();
    let op = compile_op(c, cx.pack, &node.kind, path);
    let mut kids = Vec::new();
    if let Op::Subtree { tree } = op
        && tree != u32::MAX
    {
        let t = tree as usize;
        if cx.stack.contains(&t) {
            // A cycle: reported once by `subtree_cycles`; never expanded.
        } else {
            cx.stack.push(t);
            let sub = &cx.pack.trees[t].root;
            let spath = key(&index("trees", t), "root");
            if let Some(k) = emit(c, cx, t, sub, &spath, depth + 1, false) {
                kids.push(k);
            }
            cx.stack.pop();
        }
    }
    let arity = node.kind.arity();
    let an = |t: &str| {
        if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        }
    };
    let ty = node.kind.type_name();
    match arity {
        Arity::Leaf if !node.children.is_empty() => c.error(
            key(path, "children"),
            format!("{} `{ty}` node takes no children", an(ty)),
        ),
        Arity::One if node.children.len() != 1 => c.error(
            path.to_string(),
            format!(
                "{} `{ty}` decorator takes exactly one child, found {}",
                an(ty),
                node.children.len()
            ),
        ),
        Arity::Many if node.children.is_empty() => c.warning(
            path.to_string(),
            format!("this `{}` has no children", node.kind.type_name()),
        ),
        Arity::Many
            if node.children.len() > MAX_MASK_CHILDREN
                && matches!(
                    node.kind,
                    NodeKind::Parallel { .. } | NodeKind::RandomSelector { .. }
                ) =>
        {
            c.error(
                path.to_string(),
                format!(
                    "{} `{ty}` takes at most {MAX_MASK_CHILDREN} children",
                    an(ty)
                ),
            )
        }
        _ => {}
    }
    if arity != Arity::Leaf {
        let mut enabled_weights = Vec::new();
        for (k, ch) in node.children.iter().enumerate() {
            let cpath = index(&key(path, "children"), k);
            if let Some(ci) = emit(c, cx, def_tree, ch, &cpath, depth + 1, report) {
                kids.push(ci);
                if let NodeKind::RandomSelector { weights } = &node.kind {
                    enabled_weights.push(weights.get(k).copied().unwrap_or(1.0));
                }
            }
        }
        if arity == Arity::One && kids.is_empty() && node.children.len() == 1 {
            c.warning(
                path.to_string(),
                "its only child is disabled: this decorator always fails".into(),
            );
        }
        if let NodeKind::RandomSelector { weights } = &node.kind {
            if !weights.is_empty() && weights.len() != node.children.len() {
                c.error(
                    key(path, "weights"),
                    format!(
                        "{} weights for {} children",
                        weights.len(),
                        node.children.len()
                    ),
                );
            }
            for (k, w) in weights.iter().enumerate() {
                if !(w.is_finite() && *w >= 0.0 && *w <= 1.0e9) {
                    c.error(
                        index(&key(path, "weights"), k),
                        format!("a weight must be a finite number >= 0, found {w}"),
                    );
                }
            }
        }
        // Fix up ops that depend on the enabled children.
        let n = kids.len() as u32;
        if let NodeKind::Parallel {
            success_threshold,
            failure_threshold,
        } = &node.kind
        {
            let children = |n: u32| if n == 1 { "child" } else { "children" };
            if let Some(t) = *success_threshold
                && t > n
                && n > 0
            {
                c.warning(
                    key(path, "success_threshold"),
                    format!(
                        "`success_threshold` is {t} but this parallel has {n} enabled {}: it succeeds when all {n} succeed",
                        children(n)
                    ),
                );
            }
            if let Some(t) = *failure_threshold
                && t > n
                && n > 0
            {
                c.warning(
                    key(path, "failure_threshold"),
                    format!(
                        "`failure_threshold` is {t} but this parallel has {n} enabled {}: it is never reached",
                        children(n)
                    ),
                );
            }
        }
        let op = match op {
            Op::Parallel { success, failure } => Op::Parallel {
                success: if success == 0 {
                    n
                } else {
                    success.min(n.max(1))
                },
                failure: if failure == 0 { 1 } else { failure },
            },
            Op::RandomSelector { .. } => Op::RandomSelector {
                weights: enabled_weights.into_boxed_slice(),
            },
            op => op,
        };
        cx.tree.nodes[idx].op = op;
    } else {
        cx.tree.nodes[idx].op = op;
    }
    if !report {
        c.truncate_diags(before);
    }
    let (start, end) = (cx.tree.children.len() as u32, cx.tree.nodes.len() as u32);
    let node_ref = &mut cx.tree.nodes[idx];
    node_ref.child_start = start;
    node_ref.child_count = kids.len() as u32;
    node_ref.end = end;
    cx.tree.children.extend(kids);
    Some(idx as u32)
}

fn expr(c: &mut Ctx<'_>, path: String, src: &str, want: Option<Type>) -> Option<u32> {
    compiled(c, path, src, want).map(|e| c.add_expr(e))
}

/// A condition's expression (bool), added to the program, and the blackboard test it is, if
/// it is one (the engine then reads the NPC's blackboard directly).
fn condition(c: &mut Ctx<'_>, path: String, src: &str) -> Option<(u32, Option<BoardTest>)> {
    let e = compiled(c, path, src, Some(Type::Bool))?;
    let test = e.board_test();
    Some((c.add_expr(e), test))
}

/// An expression compiled (not yet added to the program), or its error reported.
fn compiled(c: &mut Ctx<'_>, path: String, src: &str, want: Option<Type>) -> Option<Expr> {
    let r = match want {
        Some(t) => Expr::compile_typed(src, t, c),
        None => Expr::compile(src, c),
    };
    match r {
        Ok(e) => Some(e),
        Err(e) => {
            c.error_in_string(path, e.offset, format!("in `{src}`: {}", e.message));
            None
        }
    }
}

/// A blackboard variable of one of the given types, or an error.
fn bb_var(c: &mut Ctx<'_>, path: String, name: &str, types: &[Type]) -> Option<u32> {
    match c.slot(Scope::Blackboard, name) {
        Some((slot, t)) if types.contains(&t) => Some(slot),
        Some((_, t)) => {
            let want: Vec<&str> = types.iter().map(|t| t.name()).collect();
            c.error(
                path,
                format!("`{name}` is {t}; expected {}", want.join(" or ")),
            );
            None
        }
        None => {
            c.error(
                path,
                format!("unknown variable `{name}` (declare it in the tree's `blackboard`)"),
            );
            None
        }
    }
}

fn compile_op(c: &mut Ctx<'_>, pack: &Pack, kind: &NodeKind, path: &str) -> Op {
    // Placeholder for parts with errors: the program is not run while it has errors.
    let bad = Op::Fail;
    match kind {
        NodeKind::Sequence { reactive } => Op::Sequence {
            reactive: *reactive,
        },
        NodeKind::Selector { reactive } => Op::Selector {
            reactive: *reactive,
        },
        NodeKind::Parallel {
            success_threshold,
            failure_threshold,
        } => {
            for (name, t) in [
                ("success_threshold", success_threshold),
                ("failure_threshold", failure_threshold),
            ] {
                if *t == Some(0) {
                    c.error(key(path, name), format!("`{name}` must be at least 1"));
                }
            }
            Op::Parallel {
                success: success_threshold.unwrap_or(0),
                failure: failure_threshold.unwrap_or(0),
            }
        }
        NodeKind::RandomSelector { .. } => Op::RandomSelector {
            weights: Box::new([]),
        },
        NodeKind::Inverter => Op::Inverter,
        NodeKind::ForceSuccess => Op::ForceSuccess,
        NodeKind::ForceFailure => Op::ForceFailure,
        NodeKind::Repeat { times } => {
            if *times == Some(0) {
                c.error(
                    key(path, "times"),
                    "`times` must be at least 1 (omit it to repeat forever)".into(),
                );
            }
            Op::Repeat {
                times: times.unwrap_or(0),
            }
        }
        NodeKind::Retry { times } => {
            if *times == 0 {
                c.error(key(path, "times"), "`times` must be at least 1".into());
            }
            Op::Retry { times: *times }
        }
        NodeKind::Cooldown { seconds } => Op::Cooldown {
            ticks: c.ticks(At::Key(path, "seconds"), *seconds),
        },
        NodeKind::Timeout { seconds } => Op::Timeout {
            ticks: c.ticks(At::Key(path, "seconds"), *seconds),
        },
        NodeKind::Guard { condition } => {
            match expr(c, key(path, "condition"), condition, Some(Type::Bool)) {
                Some(e) => Op::Guard { cond: e },
                None => bad,
            }
        }
        NodeKind::Condition { expr: src } => match condition(c, key(path, "expr"), src) {
            Some((expr, test)) => Op::Condition { expr, test },
            None => bad,
        },
        NodeKind::InArea { area } => match c.entity(area) {
            Some(EntityId::Area(a)) => Op::InArea { area: a },
            _ => {
                c.error(key(path, "area"), format!("unknown area `{area}`"));
                bad
            }
        },
        NodeKind::TimeWindow { from_hour, to_hour } => Op::TimeWindow {
            from: c.number(At::Key(path, "from_hour"), *from_hour, 0.0, 24.0, "an hour"),
            to: c.number(At::Key(path, "to_hour"), *to_hour, 0.0, 24.0, "an hour"),
        },
        NodeKind::HasMessage { inbox, message } => Op::HasMessage {
            inbox: c.intern(inbox),
            message: message.as_deref().map(|m| c.intern(m)),
        },
        NodeKind::Chance { probability } => Op::Chance {
            p: c.number(
                At::Key(path, "probability"),
                *probability,
                0.0,
                1.0,
                "a probability",
            ),
        },
        NodeKind::MoveTo { target, tolerance } => {
            let tolerance = c.number(
                At::Key(path, "tolerance"),
                tolerance.unwrap_or(0.25),
                0.0,
                1.0e6,
                "`tolerance`",
            );
            let tpath = key(path, "target");
            let target = match target {
                MoveTarget::Point(p) => Some(Target::Point(c.point(At::Key(&tpath, "point"), *p))),
                MoveTarget::Object(id) => match c.entity(id) {
                    Some(EntityId::Object(o)) => Some(Target::Object(o)),
                    _ => {
                        c.error(key(&tpath, "object"), format!("unknown object `{id}`"));
                        None
                    }
                },
                MoveTarget::Area(id) => match c.entity(id) {
                    Some(EntityId::Area(a)) => Some(Target::Area(a)),
                    _ => {
                        c.error(key(&tpath, "area"), format!("unknown area `{id}`"));
                        None
                    }
                },
                MoveTarget::Npc(id) => match c.entity(id) {
                    Some(EntityId::Npc(n)) => Some(Target::Npc(n)),
                    _ => {
                        c.error(key(&tpath, "npc"), format!("unknown NPC `{id}`"));
                        None
                    }
                },
                MoveTarget::Var(v) => {
                    bb_var(c, key(&tpath, "var"), v, &[Type::Vec2, Type::Entity]).map(Target::Var)
                }
            };
            match target {
                Some(target) => Op::MoveTo { target, tolerance },
                None => bad,
            }
        }
        NodeKind::Wait { seconds } => Op::Wait {
            ticks: c.ticks(At::Key(path, "seconds"), *seconds),
        },
        NodeKind::Set { var, value } => {
            let vpath = key(path, "var");
            let (target, ty) = if let Some(name) = var
                .strip_prefix("flags.")
                .or_else(|| var.strip_prefix("flag."))
            {
                (Some(VarRef::Flag(c.flag_slot(name))), Type::Bool)
            } else if let Some(name) = var
                .strip_prefix("counters.")
                .or_else(|| var.strip_prefix("counter."))
            {
                (Some(VarRef::Counter(c.counter_slot(name))), Type::Int)
            } else if let Some(name) = var.strip_prefix("area.") {
                match c.slot(Scope::Area, name) {
                    Some((slot, t)) => (Some(VarRef::Area(slot)), t),
                    None => {
                        c.error(
                            vpath,
                            format!(
                                "unknown area variable `{name}` (declare it in an area's `vars`)"
                            ),
                        );
                        (None, Type::Bool)
                    }
                }
            } else {
                match c.slot(Scope::Blackboard, var) {
                    Some((slot, t)) => (Some(VarRef::Blackboard(slot)), t),
                    None => {
                        c.error(
                            vpath,
                            format!("unknown variable `{var}` (declare it in the tree's `blackboard`, or write `flags.{var}` / `counters.{var}`)"),
                        );
                        (None, Type::Bool)
                    }
                }
            };
            let e = expr(c, key(path, "value"), value, Some(ty));
            match (target, e) {
                (Some(var), Some(value)) => Op::Set { var, value },
                _ => bad,
            }
        }
        NodeKind::SendMessage { to, inbox, message } => {
            let recipient = if to == "self" {
                Some(Recipient::SelfNpc)
            } else if to == "area" {
                Some(Recipient::CurrentArea)
            } else if to == "subject" {
                Some(Recipient::Subject)
            } else if let Some(EntityId::Npc(n)) = c.entity(to) {
                Some(Recipient::Npc(n))
            } else if let Some(EntityId::Area(a)) = c.entity(to) {
                Some(Recipient::Area(a))
            } else if c.slot(Scope::Blackboard, to).is_some() {
                bb_var(c, key(path, "to"), to, &[Type::Entity]).map(Recipient::Var)
            } else {
                c.error(
                    key(path, "to"),
                    format!(
                        "`{to}` is neither an NPC or area id, `self`, `area`, `subject`, nor an entity variable"
                    ),
                );
                None
            };
            match recipient {
                Some(to) => Op::Send {
                    to,
                    inbox: c.intern(inbox),
                    message: c.intern(message),
                },
                None => bad,
            }
        }
        NodeKind::Receive {
            inbox,
            message,
            sender_var,
        }
        | NodeKind::Peek {
            inbox,
            message,
            sender_var,
        }
        | NodeKind::WaitMessage {
            inbox,
            message,
            sender_var,
        } => {
            let sender = match sender_var {
                Some(v) => match bb_var(c, key(path, "sender_var"), v, &[Type::Entity]) {
                    Some(s) => Some(s),
                    None => return bad,
                },
                None => None,
            };
            let (inbox, message) = (c.intern(inbox), message.as_deref().map(|m| c.intern(m)));
            match kind {
                NodeKind::WaitMessage { .. } => Op::WaitMessage {
                    inbox,
                    message,
                    sender,
                },
                _ => Op::Receive {
                    inbox,
                    message,
                    sender,
                    take: !matches!(kind, NodeKind::Peek { .. }),
                },
            }
        }
        NodeKind::Animate { animation, seconds } => Op::Animate {
            animation: c.intern(animation),
            ticks: c.ticks(At::Key(path, "seconds"), *seconds),
        },
        NodeKind::Say { text, seconds } => Op::Say {
            text: c.intern(text),
            ticks: c.ticks(At::Key(path, "seconds"), *seconds),
        },
        NodeKind::Log { text } => Op::Log {
            text: c.intern(text),
        },
        NodeKind::Subtree { tree } => match c.tree_index(tree) {
            Some(t) => Op::Subtree { tree: t },
            None => {
                let known: Vec<&str> = pack.trees.iter().map(|t| t.id.as_str()).collect();
                let hint = crate::pack::suggest(tree, &known)
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                c.error(key(path, "tree"), format!("unknown tree `{tree}`{hint}"));
                Op::Subtree { tree: u32::MAX }
            }
        },
        NodeKind::Request {
            prefer,
            forbid,
            area_kind,
        } => {
            let mut req = super::areas::CRequest::default();
            for (k, p) in prefer.iter().enumerate() {
                if !(p.weight.is_finite() && p.weight >= 0.0 && p.weight <= 1.0e9) {
                    c.error(
                        key(&index(&key(path, "prefer"), k), "weight"),
                        format!("a weight must be a finite number >= 0, found {}", p.weight),
                    );
                }
                let name = c.intern(&p.template);
                req.prefer.push((name, p.weight));
            }
            req.forbid = forbid.iter().map(|f| c.intern(f)).collect();
            req.area_kind = area_kind.as_deref().map(|k| c.intern(k));
            Op::Request {
                req: c.add_request(req),
            }
        }
        NodeKind::GoToChild { kind, choose } => Op::GoToChild {
            kind: c.intern(kind),
            choose: *choose,
        },
        NodeKind::EnableTemplate { template, enabled } => Op::Area(AreaAction::EnableTemplate {
            template: c.intern(template),
            enabled: *enabled,
        }),
        NodeKind::MessageHolders {
            template,
            inbox,
            message,
        } => Op::Area(AreaAction::MessageHolders {
            template: template.as_deref().map(|t| c.intern(t)),
            inbox: c.intern(inbox),
            message: c.intern(message),
        }),
        NodeKind::CreateArea { prototype, seconds } => {
            let dynamic = pack.areas.iter().any(|a| a.id == *prototype && a.dynamic);
            match c.entity(prototype) {
                Some(EntityId::Area(a)) if dynamic => Op::Area(AreaAction::CreateArea {
                    proto: a,
                    ticks: seconds.map(|s| c.ticks(At::Key(path, "seconds"), s)),
                }),
                Some(EntityId::Area(_)) => {
                    c.error(
                        key(path, "prototype"),
                        format!("area `{prototype}` is not a dynamic prototype (set `\"dynamic\": true` on it)"),
                    );
                    bad
                }
                _ => {
                    c.error(
                        key(path, "prototype"),
                        format!("unknown area `{prototype}`"),
                    );
                    bad
                }
            }
        }
        NodeKind::Converse {
            cast,
            until,
            seconds,
        } => {
            let ticks = match seconds {
                Some(s) => c.ticks(At::Key(path, "seconds"), *s),
                None => u64::MAX,
            };
            let until = match until {
                Some(src) => match expr(c, key(path, "until"), src, Some(Type::Bool)) {
                    Some(e) => Some(e),
                    None => return bad,
                },
                None => None,
            };
            match pack.casts.iter().position(|k| k.id == *cast) {
                Some(k) => Op::Converse {
                    cast: k as u32,
                    until,
                    ticks,
                },
                None => {
                    let known: Vec<&str> = pack.casts.iter().map(|k| k.id.as_str()).collect();
                    let hint = crate::pack::suggest(cast, &known)
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default();
                    c.error(key(path, "cast"), format!("unknown cast `{cast}`{hint}"));
                    bad
                }
            }
        }
        NodeKind::RemoveArea => Op::Area(AreaAction::RemoveArea),
    }
}

/// Reports every cycle of subtree references between trees (`a → b → a`), once, at the
/// subtree node that closes it.
pub(crate) fn subtree_cycles(c: &mut Ctx<'_>, pack: &Pack) {
    let ids: HashMap<&str, usize> = pack
        .trees
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    // Edges: tree -> (where the subtree node is: child positions from the root, referenced
    // tree), in pre-order. The JSON path is written only for a cycle's report.
    fn walk(
        n: &Node,
        ids: &HashMap<&str, usize>,
        at: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, usize)>,
    ) {
        if n.disabled {
            return;
        }
        if let NodeKind::Subtree { tree } = &n.kind
            && let Some(&to) = ids.get(tree.as_str())
        {
            out.push((at.clone(), to));
        }
        for (k, ch) in n.children.iter().enumerate() {
            at.push(k);
            walk(ch, ids, at, out);
            at.pop();
        }
    }
    let mut edges: Vec<Vec<(Vec<usize>, usize)>> = vec![Vec::new(); pack.trees.len()];
    for (ti, t) in pack.trees.iter().enumerate() {
        walk(&t.root, &ids, &mut Vec::new(), &mut edges[ti]);
    }
    let node_path = |ti: usize, at: &[usize]| {
        let mut path = key(&index("trees", ti), "root");
        for &k in at {
            path = index(&key(&path, "children"), k);
        }
        path
    };
    // Iterative depth-first search; 0 = new, 1 = on the stack, 2 = done.
    let mut color = vec![0u8; pack.trees.len()];
    for start in 0..pack.trees.len() {
        if color[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        color[start] = 1;
        while let Some(top) = stack.last_mut() {
            let (t, next) = *top;
            if next < edges[t].len() {
                top.1 += 1;
                let to = edges[t][next].1;
                match color[to] {
                    0 => {
                        color[to] = 1;
                        stack.push((to, 0));
                    }
                    1 => {
                        let from = stack.iter().position(|&(x, _)| x == to).unwrap_or(0);
                        let mut chain: Vec<&str> = stack[from..]
                            .iter()
                            .map(|&(x, _)| pack.trees[x].id.as_str())
                            .collect();
                        chain.push(&pack.trees[to].id);
                        let path = node_path(t, &edges[t][next].0);
                        c.error(
                            key(&path, "tree"),
                            format!(
                                "subtree cycle: {} (a tree cannot contain itself)",
                                chain.join(" → ")
                            ),
                        );
                    }
                    _ => {}
                }
            } else {
                color[t] = 2;
                stack.pop();
            }
        }
    }
}

impl super::ctx::Ctx<'_> {
    pub(crate) fn trees(&mut self) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (ti, t) in self.pack.trees.iter().enumerate() {
            if let Some(first) = seen.get(t.id.as_str()) {
                self.err(
                    key(&index("trees", ti), "id"),
                    format!(
                        "duplicate tree id `{}` (first used at trees[{first}])",
                        t.id
                    ),
                );
            } else {
                seen.insert(&t.id, ti);
                self.p.tree_index.insert(t.id.clone(), ti as u32);
            }
        }
        let pack = self.pack;
        subtree_cycles(self, pack);
        for ti in 0..self.pack.trees.len() {
            let tree = compile_tree(self, pack, ti);
            self.p.trees.push(tree);
        }
    }
}
