//! Tidy-tree auto-layout: a pure function from a tree to card positions. Children are placed
//! left to right in their order, each subtree pushed right only as far as its contour needs
//! (no two cards of one level overlap), and every parent is centred over its first and last
//! child. Iterative (no recursion), O(nodes × depth).

use std::collections::BTreeMap;

use egui::{Pos2, Vec2, pos2, vec2};
use townsfolk_runtime::pack::{Node, TreeDirection};

/// The size of a card on the canvas, in canvas units.
pub const NODE_SIZE: Vec2 = vec2(190.0, 58.0);
/// Horizontal gap between two cards of one level.
pub const H_GAP: f32 = 26.0;
/// Vertical gap between a parent and its children.
pub const V_GAP: f32 = 54.0;

/// Level and sibling steps of the tidy (top-down) layout, and of the left-to-right drawing.
const TD_LEVEL: f32 = NODE_SIZE.y + V_GAP;
const TD_SIBLING: f32 = NODE_SIZE.x + H_GAP;
const LR_LEVEL: f32 = NODE_SIZE.x + 60.0;
const LR_SIBLING: f32 = NODE_SIZE.y + 18.0;

/// Where a card saved at `p` is drawn. Positions are saved top-down (x along the siblings, y
/// down the levels) whatever the direction; left to right swaps the axes and rescales them
/// to the cards' shape, so no two cards overlap that did not before.
pub fn to_view(p: Pos2, dir: TreeDirection) -> Pos2 {
    match dir {
        TreeDirection::TopDown => p,
        TreeDirection::LeftToRight => {
            pos2(p.y * LR_LEVEL / TD_LEVEL, p.x * LR_SIBLING / TD_SIBLING)
        }
    }
}

/// The saved position of a card drawn at `q` (the inverse of [`to_view`]).
pub fn from_view(q: Pos2, dir: TreeDirection) -> Pos2 {
    match dir {
        TreeDirection::TopDown => q,
        TreeDirection::LeftToRight => {
            pos2(q.y * TD_SIBLING / LR_SIBLING, q.x * TD_LEVEL / LR_LEVEL)
        }
    }
}

struct Item<'a> {
    node: &'a Node,
    children: Vec<usize>,
}

/// The top-left position of every laid-out card, by node id, with the root's card at
/// `origin`. The children of nodes for which `collapsed` answers true are left out (they are
/// not drawn).
pub fn tidy(root: &Node, origin: Pos2, collapsed: &dyn Fn(&str) -> bool) -> BTreeMap<String, Pos2> {
    // Flatten in preorder; every child's index is larger than its parent's.
    let mut items: Vec<Item> = vec![Item {
        node: root,
        children: Vec::new(),
    }];
    let mut depth_of: Vec<usize> = vec![0];
    let mut i = 0;
    while i < items.len() {
        let node = items[i].node;
        if !collapsed(&node.id) {
            for ch in &node.children {
                let k = items.len();
                items.push(Item {
                    node: ch,
                    children: Vec::new(),
                });
                depth_of.push(depth_of[i] + 1);
                items[i].children.push(k);
            }
        }
        i += 1;
    }
    let n = items.len();
    // Post-order pass (reverse preorder index order visits children before parents):
    // contours (left, right extent per level, relative to the node's centre) and each
    // child's x offset from its parent's centre.
    let half = NODE_SIZE.x / 2.0;
    let mut contours: Vec<Vec<(f32, f32)>> = (0..n).map(|_| Vec::new()).collect();
    let mut offset = vec![0.0f32; n];
    for p in (0..n).rev() {
        let kids = std::mem::take(&mut items[p].children);
        let mut acc: Vec<(f32, f32)> = Vec::new();
        let mut shifts: Vec<f32> = Vec::with_capacity(kids.len());
        for &c in &kids {
            let cont = std::mem::take(&mut contours[c]);
            let mut s = 0.0f32;
            if !acc.is_empty() {
                s = f32::MIN;
                for (d, &(l, _)) in cont.iter().enumerate() {
                    if let Some(&(_, r)) = acc.get(d) {
                        s = s.max(r - l + H_GAP);
                    }
                }
            }
            for (d, &(l, r)) in cont.iter().enumerate() {
                match acc.get_mut(d) {
                    Some(a) => {
                        a.0 = a.0.min(s + l);
                        a.1 = a.1.max(s + r);
                    }
                    None => acc.push((s + l, s + r)),
                }
            }
            shifts.push(s);
        }
        let centre = match (shifts.first(), shifts.last()) {
            (Some(a), Some(b)) => (a + b) / 2.0,
            _ => 0.0,
        };
        for (&c, s) in kids.iter().zip(&shifts) {
            offset[c] = s - centre;
        }
        let mut own = Vec::with_capacity(acc.len() + 1);
        own.push((-half, half));
        own.extend(acc.iter().map(|&(l, r)| (l - centre, r - centre)));
        contours[p] = own;
        items[p].children = kids;
    }
    // Pre-order pass: absolute centres.
    let mut centre_x = vec![0.0f32; n];
    let mut out = BTreeMap::new();
    for p in 0..n {
        let x = centre_x[p];
        for &c in &items[p].children {
            centre_x[c] = x + offset[c];
        }
        let y = depth_of[p] as f32 * (NODE_SIZE.y + V_GAP);
        out.insert(items[p].node.id.clone(), pos2(origin.x + x, origin.y + y));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use townsfolk_runtime::pack::NodeKind;

    fn node(id: &str, children: Vec<Node>) -> Node {
        Node {
            id: id.into(),
            name: None,
            comment: None,
            disabled: false,
            kind: if children.is_empty() {
                NodeKind::Wait { seconds: 1.0 }
            } else {
                NodeKind::Sequence { reactive: false }
            },
            children,
        }
    }

    fn sample() -> Node {
        node(
            "root",
            vec![
                node(
                    "a",
                    vec![node("a1", vec![]), node("a2", vec![]), node("a3", vec![])],
                ),
                node("b", vec![]),
                node(
                    "c",
                    vec![node("c1", vec![node("c11", vec![]), node("c12", vec![])])],
                ),
            ],
        )
    }

    fn each(n: &Node, f: &mut dyn FnMut(&Node)) {
        f(n);
        for c in &n.children {
            each(c, f);
        }
    }

    #[test]
    fn no_two_cards_overlap() {
        let pos = tidy(&sample(), Pos2::ZERO, &|_| false);
        assert_eq!(pos.len(), 10);
        let rects: Vec<egui::Rect> = pos
            .values()
            .map(|p| egui::Rect::from_min_size(*p, NODE_SIZE))
            .collect();
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn left_to_right_maps_back_exactly_and_keeps_cards_apart() {
        let pos = tidy(&sample(), Pos2::ZERO, &|_| false);
        let lr = TreeDirection::LeftToRight;
        let rects: Vec<egui::Rect> = pos
            .values()
            .map(|p| egui::Rect::from_min_size(to_view(*p, lr), NODE_SIZE))
            .collect();
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} overlaps {b:?}");
            }
        }
        for p in pos.values() {
            let back = from_view(to_view(*p, lr), lr);
            assert!((back - *p).length() < 1e-3, "{p:?} came back as {back:?}");
            assert_eq!(to_view(*p, TreeDirection::TopDown), *p);
        }
        // The root is left of its children, and siblings go down in their order.
        let root = to_view(pos["root"], lr);
        let (a, b) = (to_view(pos["a"], lr), to_view(pos["b"], lr));
        assert!(a.x > root.x + NODE_SIZE.x && b.x > root.x + NODE_SIZE.x);
        assert!(a.y < b.y);
    }

    #[test]
    fn parents_are_centred_over_their_children_and_children_keep_their_order() {
        let root = sample();
        let pos = tidy(&root, pos2(100.0, 50.0), &|_| false);
        assert_eq!(pos["root"], pos2(100.0, 50.0));
        each(&root, &mut |n| {
            if n.children.is_empty() {
                return;
            }
            let first = pos[&n.children[0].id].x;
            let last = pos[&n.children[n.children.len() - 1].id].x;
            assert!(
                (pos[&n.id].x - (first + last) / 2.0).abs() < 1e-3,
                "{}",
                n.id
            );
            for w in n.children.windows(2) {
                assert!(pos[&w[0].id].x + NODE_SIZE.x + H_GAP <= pos[&w[1].id].x + 1e-3);
            }
            for c in &n.children {
                assert_eq!(pos[&c.id].y, pos[&n.id].y + NODE_SIZE.y + V_GAP);
            }
        });
    }

    #[test]
    fn subtrees_pack_under_their_contours() {
        // `b` is a leaf between two wide subtrees: it sits one card and one gap from `a`, not
        // past the extent of `a`'s children (a level `b` does not have).
        let pos = tidy(&sample(), Pos2::ZERO, &|_| false);
        let gap = pos["b"].x - pos["a"].x;
        assert!((gap - (NODE_SIZE.x + H_GAP)).abs() < 1e-3, "{gap}");
        // `c1` (same level as `a3`) sits exactly one gap right of `a3`.
        assert!((pos["a3"].x + NODE_SIZE.x + H_GAP - pos["c1"].x).abs() < 1e-3);
    }

    #[test]
    fn collapsed_subtrees_are_left_out() {
        let pos = tidy(&sample(), Pos2::ZERO, &|id| id == "a");
        assert!(!pos.contains_key("a1"));
        assert!(pos.contains_key("a"));
        assert_eq!(pos.len(), 7);
    }
}
