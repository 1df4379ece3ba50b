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

/// End of a bucket's list in [`Scratch::next`].
const END: u32 = u32::MAX;

/// Buckets every character in the layer (`TalkState::layer`, in NPC order) by position: one list per bucket of the hashed grid,
/// in NPC order, linked through `next`. A bucket's head counts only when its stamp is this
/// build's, so a build touches the buckets of the characters in the layer, never the whole
/// table (which is sized by the number of NPCs, so that which cells share a bucket, and with
/// it the order in which [`for_near`] visits characters, does not depend on how many talk).
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
    s.stamp = s.stamp.wrapping_add(1);
    if s.heads.len() != size || s.stamp == 0 {
        s.heads.clear();
        s.heads.resize(size, Head::default());
        s.stamp = 1;
    }
    s.mask = size - 1;
    s.items.clear();
    // Each character's bucket first (a pass in order over positions), then the lists, with
    // the heads a few characters ahead fetched while one is linked (they lie anywhere in a
    // table sized by the number of NPCs).
    s.buckets.clear();
    for &i in &t.layer {
        s.buckets
            .push(bucket(s, cell_of(s, w.pos[i as usize])) as u32);
    }
    for (k, &i) in t.layer.iter().enumerate() {
        if let Some(&a) = s.buckets.get(k + super::AHEAD) {
            super::prefetch(&s.heads[a as usize]);
        }
        let b = s.buckets[k] as usize;
        let k = s.items.len() as u32;
        s.items.push(Link { npc: i, next: END });
        let h = &mut s.heads[b];
        if h.stamp == s.stamp {
            s.items[h.last as usize].next = k;
            h.last = k;
        } else {
            *h = Head {
                stamp: s.stamp,
                first: k,
                last: k,
            };
        }
    }
}

/// Calls `f` for every character in the layer whose grid cell may lie within `r` of `at`
/// (callers check the distance), each once, in a fixed order. `r` is at most the cell size
/// (the grid's cell is the largest radius of any cast), so the 3×3 cells around `at` cover it.
pub(super) fn for_near(s: &Scratch, at: Vec2, r: f64, mut f: impl FnMut(u32)) {
    if s.heads.is_empty() || r <= 0.0 {
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
            let h = s.heads[b];
            if h.stamp != s.stamp {
                continue;
            }
            let mut k = h.first;
            while k != END {
                let e = s.items[k as usize];
                f(e.npc);
                k = e.next;
            }
        }
    }
}
