//! The spatial grid: characters bucketed by position (counting sort into a hashed grid), so
//! gathering and noise look only at the characters nearby.

use super::*;

pub(super) fn cell_of(s: &Scratch, p: Vec2) -> (i64, i64) {
    (floor_i64(p.x / s.cell), floor_i64(p.y / s.cell))
}

/// `x.floor() as i64` (for every `x`, NaN and infinities included) without the call to
/// libm's `floor` that the default x86-64 target makes.
pub(super) fn floor_i64(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

pub(super) fn bucket(s: &Scratch, c: (i64, i64)) -> usize {
    let h = (c.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (c.1 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 17) as usize & s.mask
}

/// Buckets every character in the layer by position (counting sort into a hashed grid).
pub(super) fn build_grid(p: &Program, w: &mut World) {
    let t = &mut w.talk;
    let s = &mut t.scratch;
    let mut cell: f64 = 1.0;
    for k in &p.talk.casts {
        cell = cell.max(k.join_radius).max(k.hearing_radius);
    }
    s.cell = cell;
    let n = t.chars.len();
    let size = (2 * n).next_power_of_two().max(16);
    s.mask = size - 1;
    s.starts.clear();
    s.starts.resize(size + 1, 0);
    for (i, c) in t.vis.iter().enumerate() {
        if c.cast != NONE {
            let b = bucket(s, cell_of(s, w.pos[i]));
            s.starts[b + 1] += 1;
        }
    }
    for b in 0..size {
        s.starts[b + 1] += s.starts[b];
    }
    let total = s.starts[size] as usize;
    s.items.clear();
    s.items.resize(total, 0);
    s.fill.clear();
    s.fill.extend_from_slice(&s.starts);
    for (i, c) in t.vis.iter().enumerate() {
        if c.cast != NONE {
            let b = bucket(s, cell_of(s, w.pos[i]));
            s.items[s.fill[b] as usize] = i as u32;
            s.fill[b] += 1;
        }
    }
}

/// Calls `f` for every character in the layer whose grid cell may lie within `r` of `at`
/// (callers check the distance), each once, in a fixed order. `r` is at most the cell size
/// (the grid's cell is the largest radius of any cast), so the 3×3 cells around `at` cover it.
pub(super) fn for_near(s: &Scratch, at: Vec2, r: f64, mut f: impl FnMut(u32)) {
    if s.starts.is_empty() || r <= 0.0 {
        return;
    }
    let (cx, cy) = cell_of(s, at);
    let mut seen: [usize; 9] = [usize::MAX; 9];
    let mut nseen = 0;
    for dx in -1..=1 {
        for dy in -1..=1 {
            let b = bucket(s, (cx + dx, cy + dy));
            // Two cells may hash to one bucket: visit each bucket once.
            if seen[..nseen].contains(&b) {
                continue;
            }
            seen[nseen] = b;
            nseen += 1;
            for &j in &s.items[s.starts[b] as usize..s.starts[b + 1] as usize] {
                f(j);
            }
        }
    }
}
