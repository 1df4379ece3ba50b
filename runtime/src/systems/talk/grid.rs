//! The spatial grid: characters bucketed by position (lists in a grid folded onto a table,
//! kept from tick to tick), so gathering and noise look only at the characters nearby.

use super::*;
use crate::pack::Rect;

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

/// The bucket of cell `c`: the grid folded onto the table, rows of `W` entries
/// (`Scratch::row_bits`, see [`table_shape`]): cell `(x, y)` goes to entry
/// `x mod W + W · (y mod H)`. Cells side by side are entries side by side, so the 3×3 cells
/// around a listener ([`for_near`]) are three runs of three entries, three cache lines of the
/// table where a hash spreads them over nine. Cells `W` columns or `H` rows apart share a
/// bucket (only in worlds too large for the table); [`for_near`]'s callers check distances.
pub(super) fn bucket(s: &Scratch, c: (i64, i64)) -> usize {
    let x = c.0 as u64 & ((1 << s.row_bits) - 1);
    (x | (c.1 as u64) << s.row_bits) as usize & s.mask
}

/// The table's rows and size for cells of `cell` in a world of `bounds` with `n` NPCs: `W × H`
/// entries, each a power of two at or above the world's cells across and down (and two more,
/// as the bounds need not start on a cell's edge), so that no two cells of the world share a
/// bucket; at most `16 n` entries (then the longer side is halved until they fit) and at
/// least 16. As `(log2 W, W · H)`. A program's constants only: which cells share a bucket, and
/// with it the order [`for_near`] visits characters in, does not depend on how many talk.
pub(super) fn table_shape(bounds: Rect, cell: f64, n: usize) -> (u32, usize) {
    let most = n
        .saturating_mul(16)
        .min(1 << 32)
        .next_power_of_two()
        .max(16);
    let across = |lo: f64, hi: f64| {
        let cells = ((hi - lo) / cell).ceil() + 2.0;
        if cells >= 1.0 && cells < most as f64 {
            (cells as usize).next_power_of_two()
        } else {
            most // NaN, infinities, worlds wider than the table
        }
    };
    let (mut w, mut h) = (
        across(bounds.min.x, bounds.max.x),
        across(bounds.min.y, bounds.max.y),
    );
    while w.saturating_mul(h) > most {
        if w >= h {
            w /= 2;
        } else {
            h /= 2;
        }
    }
    while w * h < 16 {
        if w <= h {
            w *= 2;
        } else {
            h *= 2;
        }
    }
    (w.trailing_zeros(), w * h)
}

/// End of a bucket's list ([`Scratch::heads`], [`Scratch::next`]); "not listed" in
/// [`Scratch::at`].
const END: u32 = u32::MAX;

/// Brings the grid up to date with the layer (`TalkState::layer`, in NPC order) and the
/// positions: one list per bucket of the folded grid ([`bucket`]), in NPC order, linked through
/// [`Scratch::next`]. The lists are kept from one tick to the next: only characters that
/// entered or left the layer, and those whose position changed (and then only if their
/// bucket did), are taken out of or put into a list; while nobody enters or leaves, only
/// the characters whose position may have changed ([`World::shifted`]) are looked at, so an
/// idle character costs nothing. The table's shape is the program's ([`table_shape`]).
pub(super) fn build_grid(p: &Program, w: &mut World) {
    let t = &mut w.talk;
    let s = &mut t.scratch;
    let mut cell: f64 = 1.0;
    for k in &p.talk.casts {
        cell = cell.max(k.join_radius).max(k.hearing_radius);
    }
    let n = t.chars.len();
    let (row_bits, size) = table_shape(p.bounds, cell, n);
    let reset =
        s.heads.len() != size || s.cell != cell || s.row_bits != row_bits || s.next.len() != n;
    if reset {
        s.heads.clear();
        s.heads.resize(size, END);
        s.next.clear();
        s.next.resize(n, END);
        s.at.clear();
        s.at.resize(n, END);
        s.seen.clear();
        s.seen.resize(n, Vec2::ZERO);
        s.listed.clear();
    }
    s.cell = cell;
    s.mask = size - 1;
    s.row_bits = row_bits;
    // The characters listed at the last update and the layer now, both in NPC order,
    // walked side by side.
    let listed = std::mem::take(&mut s.listed);
    if !reset && !s.relist {
        // Nobody entered or left the layer (most ticks): only the characters whose position
        // may have changed since ([`World::shifted`]) are looked at.
        debug_assert!(listed == t.layer, "the layer changed unflagged");
        debug_assert!(
            t.layer.iter().all(|&y| {
                let (a, b) = (s.seen[y as usize], w.pos[y as usize]);
                w.shifted.contains(y as usize)
                    || (a.x.to_bits(), a.y.to_bits()) == (b.x.to_bits(), b.y.to_bits())
            }),
            "a position changed unflagged"
        );
        let mut next = w.shifted.next_from(0);
        while let Some(y) = next {
            next = w.shifted.next_from(y + 1);
            if s.at.get(y).is_some_and(|&b| b != END) {
                moved(s, y as u32, w.pos[y]);
            }
        }
        w.shifted.clear();
        s.listed = listed;
        return;
    }
    let (mut a, mut b) = (0, 0);
    loop {
        match (listed.get(a).copied(), t.layer.get(b).copied()) {
            (None, None) => break,
            (Some(x), None) => {
                unlist(s, x);
                a += 1;
            }
            (None, Some(y)) => {
                list(s, y, w.pos[y as usize]);
                b += 1;
            }
            (Some(x), Some(y)) if x < y => {
                unlist(s, x);
                a += 1;
            }
            (Some(x), Some(y)) if y < x => {
                list(s, y, w.pos[y as usize]);
                b += 1;
            }
            (Some(_), Some(y)) => {
                moved(s, y, w.pos[y as usize]);
                a += 1;
                b += 1;
            }
        }
    }
    let mut listed = listed;
    listed.clear();
    listed.extend_from_slice(&t.layer);
    s.listed = listed;
    s.relist = false;
    w.shifted.clear();
}

/// Character `i`, listed, is at `at` now: if it moved, it is moved to another bucket's list
/// when it moved to a cell of another bucket.
#[inline(always)]
fn moved(s: &mut Scratch, i: u32, at: Vec2) {
    let was = s.seen[i as usize];
    if at.x.to_bits() != was.x.to_bits() || at.y.to_bits() != was.y.to_bits() {
        rebucket(s, i, at);
    }
}

fn rebucket(s: &mut Scratch, i: u32, at: Vec2) {
    s.seen[i as usize] = at;
    if bucket(s, cell_of(s, at)) as u32 != s.at[i as usize] {
        unlist(s, i);
        list(s, i, at);
    }
}

/// Puts character `i`, at `at`, into its bucket's list, in NPC order.
fn list(s: &mut Scratch, i: u32, at: Vec2) {
    let b = bucket(s, cell_of(s, at));
    s.at[i as usize] = b as u32;
    s.seen[i as usize] = at;
    let head = s.heads[b];
    if head == END || head > i {
        s.next[i as usize] = head;
        s.heads[b] = i;
        return;
    }
    let mut k = head;
    while s.next[k as usize] != END && s.next[k as usize] < i {
        k = s.next[k as usize];
    }
    s.next[i as usize] = s.next[k as usize];
    s.next[k as usize] = i;
}

/// Takes character `i` out of its bucket's list (nothing if it is in none).
fn unlist(s: &mut Scratch, i: u32) {
    let b = s.at[i as usize];
    if b == END {
        return;
    }
    let after = s.next[i as usize];
    let b = b as usize;
    if s.heads[b] == i {
        s.heads[b] = after;
    } else {
        let mut k = s.heads[b];
        while k != END && s.next[k as usize] != i {
            k = s.next[k as usize];
        }
        if k != END {
            s.next[k as usize] = after;
        }
    }
    s.at[i as usize] = END;
    s.next[i as usize] = END;
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
            // Two cells may share a bucket: visit each bucket once.
            if seen[..nseen].contains(&b) {
                continue;
            }
            seen[nseen] = b;
            nseen += 1;
            let mut k = s.heads[b];
            while k != END {
                f(k);
                k = s.next[k as usize];
            }
        }
    }
}
