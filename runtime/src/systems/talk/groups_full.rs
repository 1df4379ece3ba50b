//! The test oracle of the observation of groups: the whole layer observed from scratch.

use super::groups::find;
use super::*;

/// The observation of groups over the whole layer, as it was before it became incremental:
/// the oracle that [`super::groups::observe_groups`] is checked against in tests (reads the
/// old labels from the chars, writes both the chars' labels and their mirror).
pub(super) fn observe_full(t: &mut TalkState, now: u64) -> Vec<TraceEvent> {
    let n = t.chars.len();
    let mut s = std::mem::take(&mut t.scratch);
    let (mut sort_tmp, mut hist) = (Vec::new(), Vec::new());
    let layer = std::mem::take(&mut t.layer);
    // Only characters in the layer can be in a group (members are in the viewer's cast):
    // everyone else is alone, and their labels were cleared when they left.
    s.parent.resize(n, 0);
    for &i in &layer {
        s.parent[i as usize] = i;
    }
    for &i in &layer {
        let i = i as usize;
        let cast = t.vis[i].cast;
        for m in &t.chars[i].members {
            let j = m.npc as usize;
            if j > i && t.vis[j].cast == cast && t.chars[j].has(i as u32) {
                let (a, b) = (find(&mut s.parent, i as u32), find(&mut s.parent, j as u32));
                if a != b {
                    // The smaller index is the root: roots are each group's first member.
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    s.parent[hi as usize] = lo;
                }
            }
        }
    }
    // (old label, root, member) for every member of a group of two or more.
    s.triples.clear();
    s.root_label.clear();
    s.root_label.resize(n, 0); // used first as sizes
    for &i in &layer {
        s.root_label[i as usize] = 0;
    }
    for &i in &layer {
        let r = find(&mut s.parent, i);
        s.parent[i as usize] = r;
        s.root_label[r as usize] += 1;
    }
    let mut groups = 0u64;
    let mut size_sum = 0u64;
    for &i in &layer {
        let i = i as usize;
        let r = s.parent[i];
        if s.root_label[r as usize] >= 2 {
            s.triples.push((t.chars[i].group, r, i as u32));
            if r == i as u32 {
                groups += 1;
                size_sum += s.root_label[i] as u64;
            }
        }
    }
    t.stats.group_samples += 1;
    t.stats.groups_seen += groups;
    t.stats.group_size_sum += size_sum;
    // Sorted by (old, root, member) in linear time: pushed by member, then stable counting
    // sorts by root and by the old label's bytes (members are distinct: one order only).
    let mut triples = std::mem::take(&mut s.triples);
    counting_sort(&mut triples, &mut sort_tmp, &mut hist, n, |t| t.1 as usize);
    for shift in [0, 8, 16, 24] {
        counting_sort(&mut triples, &mut sort_tmp, &mut hist, 256, |t| {
            (t.0 >> shift) as usize & 0xFF
        });
    }
    s.triples = triples;
    // Splits: an old group with two or more members in each of two or more new groups.
    // `counts` collects (root, old, members) for merges and labels.
    s.counts.clear();
    let mut events: Vec<TraceEvent> = Vec::new();
    let mut k = 0;
    while k < s.triples.len() {
        let old = s.triples[k].0;
        let mut parts = 0u32;
        let mut first = u32::MAX;
        let mut e = k;
        while e < s.triples.len() && s.triples[e].0 == old {
            let root = s.triples[e].1;
            let mut f = e;
            while f < s.triples.len() && s.triples[f].0 == old && s.triples[f].1 == root {
                first = first.min(s.triples[f].2);
                f += 1;
            }
            s.counts.push((root, old, (f - e) as u32));
            if old != NONE && f - e >= 2 {
                parts += 1;
            }
            e = f;
        }
        if old != NONE && parts >= 2 {
            t.stats.splits += 1;
            events.push(TraceEvent::GroupSplit {
                tick: now,
                npc: first,
                group: old,
                parts,
            });
        }
        k = e;
    }
    // Labels: each new group keeps the label most of its members had (if still free);
    // merges: a new group with two or more members from each of two or more old groups.
    // Pushed by (old, root): a stable sort by root gives (root, old), each pair once.
    let mut counts = std::mem::take(&mut s.counts);
    counting_sort(&mut counts, &mut sort_tmp, &mut hist, n, |t| t.0 as usize);
    s.counts = counts;
    // Only membership is asked of `taken`: its order never matters.
    s.taken.clear();
    for &i in &layer {
        s.root_label[i as usize] = NONE;
    }
    let counts = &s.counts;
    let mut k = 0;
    while k < counts.len() {
        let root = counts[k].0;
        let mut e = k;
        let mut best = (0u32, NONE);
        let mut big_parts = 0u32;
        while e < counts.len() && counts[e].0 == root {
            let (_, old, c) = counts[e];
            if old != NONE {
                if c >= 2 {
                    big_parts += 1;
                }
                if c > best.0 || (c == best.0 && old < best.1) {
                    best = (c, old);
                }
            }
            e += 1;
        }
        let label = if best.1 != NONE && s.taken.insert(best.1) {
            best.1
        } else {
            let l = t.next_label;
            t.next_label = t.next_label.wrapping_add(1) % NONE;
            s.taken.insert(l);
            l
        };
        s.root_label[root as usize] = label;
        if big_parts >= 2 {
            t.stats.merges += 1;
            events.push(TraceEvent::GroupMerge {
                tick: now,
                npc: root,
                group: label,
                parts: big_parts,
            });
        }
        k = e;
    }
    for &i in &layer {
        let i = i as usize;
        let label = s.root_label[s.parent[i] as usize];
        t.labels[i] = label;
        t.chars[i].group = label;
    }
    for &i in &t.left {
        let i = i as usize;
        if t.vis[i].cast == NONE {
            t.labels[i] = NONE;
            t.chars[i].group = NONE;
        }
    }
    t.left.clear();
    t.layer = layer;
    t.scratch = s;
    events
}
