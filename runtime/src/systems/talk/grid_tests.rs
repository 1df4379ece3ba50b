//! The spatial grid is kept from tick to tick (`grid::build_grid`): after every update its
//! lists are what a scan of the layer in NPC order makes of the positions now, while
//! characters walk across cells, enter and leave the layer.

use super::tests::{as_refs, converse_for, each_world, pack};
use super::*;
use crate::session::Session;

/// Every bucket's list, read through the grid's links, and as the definition has it: the
/// characters in the layer whose position lies in a cell of that bucket, in NPC order.
fn lists(w: &World) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let s = &w.talk.scratch;
    let mut got = vec![Vec::new(); s.heads.len()];
    for (b, list) in got.iter_mut().enumerate() {
        let mut k = s.heads[b];
        while k != u32::MAX {
            list.push(k);
            k = s.next[k as usize];
        }
    }
    let mut want = vec![Vec::new(); s.heads.len()];
    for &i in &w.talk.layer {
        want[bucket(s, cell_of(s, w.pos[i as usize]))].push(i);
    }
    (got, want)
}

#[test]
fn the_kept_grid_lists_the_layer_by_position_now() {
    // Characters on the cell boundaries (the grid's cell is 8, the hearing radius), so that
    // gathering walks them from one cell to the next; NPC 0 leaves after 20 s.
    let chars: Vec<(String, [f64; 2], [f64; 5])> = (0..40)
        .map(|i| {
            let a = i as f64;
            let off = if i % 2 == 0 { 0.4 } else { -0.4 };
            (
                format!("n{i}"),
                [
                    16.0 + 8.0 * (i % 5) as f64 + off,
                    16.0 + 2.1 * (a / 5.0).floor() + off,
                ],
                [0.8, 0.6, 0.5, 0.5, 0.5],
            )
        })
        .collect();
    let mut p = pack(&as_refs(&chars), true);
    converse_for(&mut p, 20.0);
    let (mut moved_across, mut left) = (0u64, false);
    for seed in 0..3 {
        let mut last: Vec<u32> = Vec::new();
        each_world(&p, seed, 600, |prog, w| {
            // The update the next tick's talk phase makes, on the positions movement left.
            let mut w = w.clone();
            build_grid(prog, &mut w);
            let (got, want) = lists(&w);
            assert_eq!(got, want, "seed {seed}, tick {}", w.tick);
            let at = w.talk.scratch.at.clone();
            moved_across += at
                .iter()
                .zip(&last)
                .filter(|(a, b)| a != b && **a != u32::MAX && **b != u32::MAX)
                .count() as u64;
            left |= last.first().is_some_and(|&b| b != u32::MAX) && at[0] == u32::MAX;
            last = at;
        });
    }
    assert!(
        moved_across > 20,
        "only {moved_across} moves to another bucket"
    );
    assert!(left, "n0 never left the grid");
}

/// The grid's buckets list characters as a full scan in NPC order would (the order noise is
/// summed in), and a rebuild after characters left shows none of them.
#[test]
fn the_grid_visits_like_a_scan_in_npc_order() {
    let chars: Vec<(String, [f64; 2], [f64; 5])> = (0..60)
        .map(|i| {
            let a = i as f64;
            (
                format!("n{i}"),
                [20.0 + (a * 7.3) % 60.0, 20.0 + (a * 3.1) % 45.0],
                [0.5; 5],
            )
        })
        .collect();
    let p = pack(&as_refs(&chars), true);
    let mut s = Session::from_pack(&p, 1).expect("valid");
    s.run(30);
    let prog = s.program().clone();
    let mut w = s.world().clone();
    for round in 0..2 {
        if round == 1 {
            // Every third character leaves the layer: the next build must not list them.
            // (As the hand-over pass does, the change of the layer is flagged.)
            w.talk.layer.retain(|&i| i % 3 != 0);
            w.talk.scratch.relist = true;
        }
        build_grid(&prog, &mut w);
        let sc = &w.talk.scratch;
        for k in 0..40 {
            let at = Vec2::new(10.0 + 2.1 * k as f64, 15.0 + 1.3 * k as f64);
            let mut got = Vec::new();
            for_near(sc, at, 6.0, |j| got.push(j));
            let (cx, cy) = cell_of(sc, at);
            let mut want = Vec::new();
            let mut seen = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let b = bucket(sc, (cx + dx, cy + dy));
                    if seen.contains(&b) {
                        continue;
                    }
                    seen.push(b);
                    want.extend(
                        w.talk
                            .layer
                            .iter()
                            .copied()
                            .filter(|&i| bucket(sc, cell_of(sc, w.pos[i as usize])) == b),
                    );
                }
            }
            assert_eq!(got, want, "round {round}, point {k}");
            assert!(round == 0 || got.iter().all(|j| j % 3 != 0));
        }
    }
}
