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
        each_world(&p, seed, 600, |prog, live| {
            // The update the next tick's talk phase makes, on the positions movement left, to
            // the grid the world keeps (which a clone does not carry).
            let mut w = live.clone();
            w.talk.scratch = live.talk.scratch.grid_copy();
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

/// Sixty characters scattered over `w` × `h` units from (20, 20), of one personality.
fn crowd(w: f64, h: f64, params: [f64; 5]) -> Vec<(String, [f64; 2], [f64; 5])> {
    (0..60)
        .map(|i| {
            let a = i as f64;
            (
                format!("n{i}"),
                [20.0 + (a * 7.3) % w, 20.0 + (a * 3.1) % h],
                params,
            )
        })
        .collect()
}

/// The grid's buckets list characters as a full scan in NPC order would (the order noise is
/// summed in), and a rebuild after characters left shows none of them.
#[test]
fn the_grid_visits_like_a_scan_in_npc_order() {
    let chars = crowd(60.0, 45.0, [0.5; 5]);
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

/// A clone of a world carries no grid (it is derived: `Scratch`'s `Clone`) and builds it
/// afresh at its first tick; it then plays on exactly as the world it was cloned from, which
/// kept its grid and updated it tick by tick: a crowd whose groups hear each other's noise
/// (summed in the order the grid lists characters), cloned at several ticks.
#[test]
fn a_clone_builds_the_grid_afresh_and_plays_on_alike() {
    let chars = crowd(50.0, 35.0, [0.9, 0.6, 0.5, 0.5, 0.5]);
    let p = pack(&as_refs(&chars), true);
    let mut s = Session::from_pack(&p, 5).expect("valid");
    let mut noisy = 0;
    for _ in 0..4 {
        s.run(97);
        let mut twin = s.clone();
        assert!(
            !s.world().talk.scratch.heads.is_empty(),
            "the world keeps a grid"
        );
        assert!(
            twin.world().talk.scratch.heads.is_empty(),
            "its clone has none"
        );
        for t in 0..150 {
            s.step();
            twin.step();
            assert_eq!(s.hash(), twin.hash(), "tick {t} after the clone");
            noisy += s
                .world()
                .talk
                .chars
                .iter()
                .filter(|c| c.noise > 0.0)
                .count();
        }
    }
    assert!(noisy > 1_000, "groups heard each other only {noisy} times");
}

/// The 3×3 cells around any cell are nine buckets in three runs of three entries side by side
/// (`for_near` reads three lines of the table, not nine), for tables of every size and shape
/// with rows and columns of four or more, for cells far from the origin and on both sides of
/// it too.
#[test]
fn the_cells_around_a_cell_are_three_runs_of_three_buckets() {
    for (bits, row_bits) in (4..=20u32).flat_map(|b| [(b, 2), (b, b / 2), (b, b - 2)]) {
        let s = Scratch {
            mask: (1 << bits) - 1,
            row_bits,
            ..Scratch::default()
        };
        for (cx, cy) in [
            (0, 0),
            (-1, -1),
            (5, -7),
            (-300, 1_000),
            (1 << 40, -(1 << 35)),
        ] {
            let w = 1usize << row_bits;
            let mut all = Vec::new();
            for dy in -1..=1 {
                let run: Vec<usize> = (-1..=1).map(|dx| bucket(&s, (cx + dx, cy + dy))).collect();
                // Side by side in one row of the table (wrapping at the row's end).
                let row = run[0] / w * w;
                for (k, &b) in run.iter().enumerate() {
                    assert_eq!(
                        b,
                        row + (run[0] - row + k) % w,
                        "table of 2^{bits}, cell ({cx}, {cy}), row {dy}: {run:?}"
                    );
                }
                all.extend(run);
            }
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), 9, "table of 2^{bits}, cell ({cx}, {cy})");
        }
    }
}

/// The table covers the world's cells when it may (no two cells of the world share a bucket),
/// stays within 16 entries per NPC and at least 16, with rows and columns of four or more
/// (the 3×3 cells around a cell are nine buckets), whatever the bounds.
#[test]
fn the_table_covers_the_world_within_its_size() {
    use crate::pack::{Point, Rect};
    let rect = |x0: f64, y0: f64, x1: f64, y1: f64| Rect {
        min: Point { x: x0, y: y0 },
        max: Point { x: x1, y: y1 },
    };
    // (bounds, cell, NPCs, whether the table covers the world)
    let cases = [
        (rect(0.0, 0.0, 100.0, 100.0), 8.0, 10_000, true),
        (rect(-35.0, 3.0, 900.0, 400.0), 8.0, 1_000, true),
        (rect(0.0, 0.0, 2_310.0, 2_310.0), 8.0, 10_000, true),
        (rect(0.0, 0.0, 1e6, 10.0), 8.0, 100, false),
        (rect(0.0, 0.0, 1e6, 1e6), 8.0, 100, false),
        (rect(0.0, 0.0, 0.0, 0.0), 8.0, 0, true),
        (rect(0.0, 0.0, f64::INFINITY, f64::NAN), 8.0, 50, false),
    ];
    for (b, cell, n, covers) in cases {
        let (row_bits, size) = table_shape(b, cell, n);
        let (w, h) = (1usize << row_bits, size >> row_bits);
        assert_eq!(w * h, size);
        assert!(size.is_power_of_two() && size >= 16, "{b:?}: {size}");
        assert!(
            size <= (16 * n).next_power_of_two().max(16),
            "{b:?}: {size}"
        );
        assert!(w >= 4 && h >= 4, "{b:?}: {w} × {h}");
        let across = ((b.max.x - b.min.x) / cell).ceil() + 1.0;
        let down = ((b.max.y - b.min.y) / cell).ceil() + 1.0;
        assert_eq!(
            across <= w as f64 && down <= h as f64,
            covers,
            "{b:?} with {n} NPCs: {w} × {h} for {across} × {down} cells"
        );
    }
}
