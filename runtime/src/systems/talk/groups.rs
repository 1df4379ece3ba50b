//! Groups as an observer sees them (mutual membership): stable labels, splits and merges,
//! group-size statistics.
//!
//! Incremental: a group none of whose members' views (or casts) changed since the last
//! observation is the same group with the same label, so an observation looks only at the
//! characters whose view changed (`TalkState::dirtied`), the groups they were in (kept as
//! rings, `TalkState::ring`) and the groups they are in now; the others cost nothing. The
//! result is the observation of the whole layer's (`groups_full`, the tests' oracle, which
//! every observation in the tests is checked against).

use super::*;

pub(super) fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// Groups as an observer sees them: characters connected by mutual membership (each in the
/// other's view). Keeps group labels stable, counts splits and merges, samples sizes.
pub(super) fn observe_groups(cx: &mut Cx<'_, '_, '_>) {
    let now = cx.now;
    #[cfg(test)]
    let oracle = (cx.w.talk.chars.len() <= ORACLE_UP_TO).then(|| {
        let mut t = cx.w.talk.clone();
        let events = super::groups_full::observe_full(&mut t, now);
        (t, events)
    });
    let events = observe(&mut cx.w.talk, now);
    #[cfg(test)]
    if let Some((want, want_events)) = oracle {
        let t = &cx.w.talk;
        assert_eq!(events, want_events, "tick {now}: events");
        assert_eq!(t.stats, want.stats, "tick {now}: statistics");
        assert_eq!(t.next_label, want.next_label, "tick {now}: next label");
        assert_eq!(t.labels, want.labels, "tick {now}: label mirror");
        assert!(t.chars == want.chars, "tick {now}: chars");
        assert!(t.left.is_empty());
    }
    for ev in events {
        let npc = match ev {
            TraceEvent::GroupSplit { npc, .. } | TraceEvent::GroupMerge { npc, .. } => npc,
            _ => continue,
        };
        cx.emit(npc, ev);
    }
}

/// Up to this many NPCs, every observation in the tests is checked against the oracle.
#[cfg(test)]
const ORACLE_UP_TO: usize = 300;

/// The affected characters are listed in NPC order by a scan of all flags when they are
/// more than one in this many NPCs ([`observe`]).
const SCAN_FROM: usize = 16;

/// Adds the group `x` was in at the last observation (its ring) to the affected characters,
/// taking it out of the running group totals.
fn add_old_group(t: &mut TalkState, s: &mut Scratch, x: u32) {
    if s.in_aff[x as usize] {
        return;
    }
    let mut size = 0u64;
    let mut y = x;
    loop {
        s.in_aff[y as usize] = true;
        s.aff.push(y);
        size += 1;
        y = t.ring[y as usize];
        if y == x {
            break;
        }
    }
    if size >= 2 {
        t.groups_now -= 1;
        t.sizes_now -= size;
    }
}

/// Whether `x` (in the layer, in cast `cast`) and `y` are in each other's view.
fn mutual(t: &TalkState, cast: u32, x: u32, y: u32) -> bool {
    t.vis[y as usize].cast == cast && t.chars[y as usize].has(x)
}

fn observe(t: &mut TalkState, now: u64) -> Vec<TraceEvent> {
    let n = t.chars.len();
    let mut s = std::mem::take(&mut t.scratch);
    s.in_aff.resize(n, false);
    s.parent.resize(n, 0);
    s.root_label.resize(n, 0);
    s.tail.resize(n, 0);
    s.aff.clear();
    // The affected characters: the old groups of those whose view or cast changed, and the
    // old groups of everyone they are now mutual members with (until no more join). Every
    // other group is as it was: no view in it changed, and no view outside it names one of
    // its members mutually (that view would have changed, or the group would be affected).
    let mut dirtied = std::mem::take(&mut t.dirtied);
    for &d in &dirtied {
        t.dirty[d as usize] = false;
        add_old_group(t, &mut s, d);
    }
    dirtied.clear();
    t.dirtied = dirtied;
    let mut k = 0;
    while k < s.aff.len() {
        let x = s.aff[k];
        k += 1;
        let cast = t.vis[x as usize].cast;
        if cast == NONE {
            continue;
        }
        for m in 0..t.chars[x as usize].members.len() {
            let y = t.chars[x as usize].members[m].npc;
            if !s.in_aff[y as usize] && mutual(t, cast, x, y) {
                add_old_group(t, &mut s, y);
            }
        }
    }
    // In NPC order: a scan of the flags when they are many (linear, where a sort grows with
    // the log of their number), a sort when they are few.
    if s.aff.len() * SCAN_FROM > n {
        s.aff.clear();
        s.aff
            .extend((0..n as u32).filter(|&x| s.in_aff[x as usize]));
    } else {
        s.aff.sort_unstable();
    }
    // Their groups now (union-find; the smaller index is the root: roots are each group's
    // first member). Only characters in the layer can be in a group.
    let aff = std::mem::take(&mut s.aff);
    let in_layer = |t: &TalkState, x: u32| t.vis[x as usize].cast != NONE;
    for &x in &aff {
        s.parent[x as usize] = x;
    }
    for &x in &aff {
        let cast = t.vis[x as usize].cast;
        if cast == NONE {
            continue;
        }
        for m in &t.chars[x as usize].members {
            let y = m.npc;
            if y > x && mutual(t, cast, x, y) {
                debug_assert!(s.in_aff[y as usize], "{y}, mutual with {x}, is affected");
                let (a, b) = (find(&mut s.parent, x), find(&mut s.parent, y));
                if a != b {
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    s.parent[hi as usize] = lo;
                }
            }
        }
    }
    // (old label, root, member) for every member of a group of two or more.
    for &x in &aff {
        s.root_label[x as usize] = 0; // used first as sizes
    }
    for &x in &aff {
        if in_layer(t, x) {
            let r = find(&mut s.parent, x);
            s.parent[x as usize] = r;
            s.root_label[r as usize] += 1;
        }
    }
    s.triples.clear();
    for &x in &aff {
        if !in_layer(t, x) {
            continue;
        }
        let r = s.parent[x as usize];
        let size = s.root_label[r as usize];
        if size >= 2 {
            s.triples.push((t.labels[x as usize], r, x));
            if r == x {
                t.groups_now += 1;
                t.sizes_now += size as u64;
            }
        }
    }
    t.stats.group_samples += 1;
    t.stats.groups_seen += t.groups_now;
    t.stats.group_size_sum += t.sizes_now;
    // Sorted by (old, root, member) (members are distinct: one order only).
    s.triples.sort_unstable();
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
    // By (root, old), each pair once. A group not affected keeps its label, and no affected
    // group wants it (its members' old labels are those of the affected old groups).
    s.counts.sort_unstable();
    // Only membership is asked of `taken`: its order never matters.
    s.taken.clear();
    for &x in &aff {
        s.root_label[x as usize] = NONE;
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
    // New labels (a char's is written only when it changed) and rings (in NPC order, the
    // root first); a character out of the layer is alone and in no group.
    for &x in &aff {
        let xu = x as usize;
        s.in_aff[xu] = false;
        let (label, r) = if in_layer(t, x) {
            let r = s.parent[xu];
            (s.root_label[r as usize], r)
        } else {
            (NONE, x)
        };
        if t.labels[xu] != label {
            t.labels[xu] = label;
            t.chars[xu].group = label;
        }
        if r == x {
            t.ring[xu] = x;
        } else {
            t.ring[xu] = r;
            t.ring[s.tail[r as usize] as usize] = x;
        }
        s.tail[r as usize] = x;
    }
    for &i in &t.left {
        let i = i as usize;
        if t.vis[i].cast == NONE && t.labels[i] != NONE {
            t.labels[i] = NONE;
            t.chars[i].group = NONE;
        }
    }
    t.left.clear();
    s.aff = aff;
    t.scratch = s;
    events
}
