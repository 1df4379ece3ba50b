//! The layout of the conversation state: the compact mirrors of [`TalkState`] (group labels,
//! who speaks, view signatures, open spans) agree with the chars they mirror, tick after
//! tick, over runs with joins, leaves, splits, merges and characters taken back; a char's
//! fields lie in the cache lines its layout promises.

use super::tests::{each_tick, each_tick_of};
use super::*;

#[test]
fn group_labels_are_mirrored_exactly() {
    let (mut changes, mut last) = (0u64, Vec::new());
    each_tick(|now, t| {
        let labels: Vec<u32> = t.chars.iter().map(|c| c.group).collect();
        assert_eq!(t.labels, labels, "tick {now}");
        if labels != last {
            changes += 1;
            last = labels;
        }
    });
    assert!(changes > 20, "labels changed only {changes} times");
}

#[test]
fn who_speaks_is_mirrored_exactly() {
    let mut flips = 0u64;
    let mut last = Vec::new();
    each_tick(|now, t| {
        let speaking: Vec<bool> = t.chars.iter().map(|c| c.speaking).collect();
        let shown: Vec<bool> = t.vis.iter().map(|v| v.speaking).collect();
        assert_eq!(t.speaking, speaking, "tick {now}");
        assert_eq!(t.speaking, shown, "tick {now}");
        flips += speaking.iter().zip(&last).filter(|(a, b)| a != b).count() as u64;
        last = speaking;
    });
    assert!(flips > 100, "speech started or stopped only {flips} times");
}

/// Kept while some cast is position-aware (noise reads it), and only then.
#[test]
fn view_signatures_are_mirrored_exactly() {
    let mut changes = 0u64;
    let mut last = Vec::new();
    each_tick_of(|aware, now, t| {
        if !aware {
            assert!(t.view_sig.iter().all(|&s| s == 0), "tick {now}");
            return;
        }
        let sigs: Vec<u64> = t.chars.iter().map(Char::view_sig).collect();
        assert_eq!(t.view_sig, sigs, "tick {now}");
        for (j, c) in t.chars.iter().enumerate() {
            for i in 0..t.chars.len() as u32 {
                assert!(
                    !c.has(i) || t.may_have(j as u32, i),
                    "tick {now}: {j} has {i}"
                );
            }
        }
        changes += sigs.iter().zip(&last).filter(|(a, b)| a != b).count() as u64;
        last = sigs;
    });
    assert!(changes > 100, "views changed only {changes} times");
}

#[test]
fn open_spans_are_flagged_exactly() {
    let mut flips = 0u64;
    let mut last = Vec::new();
    each_tick(|now, t| {
        let spans: Vec<u8> = t.chars.iter().map(|c| c.spans).collect();
        let want: Vec<u8> = t.chars.iter().map(Char::spans_of_since).collect();
        assert_eq!(spans, want, "tick {now}");
        flips += spans.iter().zip(&last).filter(|(a, b)| a != b).count() as u64;
        last = spans;
    });
    assert!(flips > 100, "spans opened or closed only {flips} times");
}

/// The fields every turn reads lie in the first two cache lines, what message handling and
/// the main cycle read in the third, the lazy spans in the fourth (see [`Char`]).
#[test]
fn a_turn_reads_the_first_lines_of_a_char() {
    use std::mem::{align_of, offset_of, size_of};
    let line = |o: usize| o / 64;
    assert_eq!(align_of::<Char>(), 64);
    for o in [
        offset_of!(Char, want),
        offset_of!(Char, cast),
        offset_of!(Char, speaking),
        offset_of!(Char, overlapping),
        offset_of!(Char, spans),
        offset_of!(Char, last_turn),
        offset_of!(Char, next_cycle),
        offset_of!(Char, next_plan),
        offset_of!(Char, pre_trp_at),
        offset_of!(Char, segment_end) + 7,
    ] {
        assert_eq!(line(o), 0, "offset {o}");
    }
    for o in [
        offset_of!(Char, trp_wait),
        offset_of!(Char, pending_start),
        offset_of!(Char, members),
        offset_of!(Char, speakers) + size_of::<Speakers>() - 1,
    ] {
        assert_eq!(line(o), 1, "offset {o}");
    }
    for o in [
        offset_of!(Char, personality),
        offset_of!(Char, personality) + size_of::<crate::pack::Personality>() - 1,
        offset_of!(Char, silent_since),
        offset_of!(Char, multi_since),
        offset_of!(Char, noise) + 7,
    ] {
        assert_eq!(line(o), 2, "offset {o}");
    }
    for o in [
        offset_of!(Char, talk_since),
        offset_of!(Char, overlap_since) + 7,
        offset_of!(Char, away) + size_of::<crate::value::Vec2>() - 1,
    ] {
        assert_eq!(line(o), 3, "offset {o}");
    }
}
