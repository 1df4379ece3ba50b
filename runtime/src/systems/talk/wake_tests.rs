//! Flat costs: who has a turn when (the wake calendar) and who is in the layer.

use super::tests::{as_refs, converse_for, pack, ring};
use super::*;
use crate::session::Session;

/// Flat costs (issue 14 item 5): a character has a turn only when mail comes or a clock
/// is due (`TalkState::wake`); no clock may come due without one, and between events an
/// idle character is not visited (its cycle clock is not even looked at outside a
/// conversation).
#[test]
fn characters_are_woken_exactly_when_a_clock_is_due() {
    let chars = ring(8, |i| [0.3 + 0.08 * i as f64, 0.6, 0.5, 0.5, 0.5]);
    for aware in [true, false] {
        let p = pack(&as_refs(&chars), aware);
        let mut s = Session::from_pack(&p, 5).expect("valid pack");
        let (mut idle_skipped, mut turns) = (0u64, 0u64);
        for _ in 0..4000 {
            s.step();
            let now = s.tick();
            let t = &s.world().talk;
            for (i, c) in t.chars.iter().enumerate() {
                let wake = t.wake[i];
                if c.cast == NONE {
                    assert_eq!(wake, u64::MAX);
                    continue;
                }
                let ctx = format!("tick {now}, character {i}: {c:?}");
                assert!(c.next_plan > now, "planner missed: {ctx}");
                let mut due = c.next_plan;
                if c.in_conversation() {
                    assert!(c.next_cycle > now, "cycle missed: {ctx}");
                    due = due.min(c.next_cycle);
                }
                if c.speaking {
                    assert!(c.segment_end > now, "segment end missed: {ctx}");
                    due = due.min(c.segment_end);
                    if c.pre_trp_at > now {
                        due = due.min(c.pre_trp_at);
                    }
                } else if c.trp_wait != 0 {
                    assert!(c.trp_wait > now, "TRP wait missed: {ctx}");
                    due = due.min(c.trp_wait);
                } else if c.pending_start != 0 {
                    assert!(c.pending_start > now, "planned start missed: {ctx}");
                    due = due.min(c.pending_start);
                }
                assert_eq!(wake, due, "{ctx}");
                if c.last_turn == now {
                    turns += 1;
                } else if !c.in_conversation() {
                    idle_skipped += 1;
                }
            }
        }
        assert!(
            turns > 0 && idle_skipped > turns / 10,
            "{turns} {idle_skipped}"
        );
    }
}

/// The layer list is who is in a cast (in NPC order); a character taken back loses its group
/// label at the next observation of groups, as everyone outside the layer has none.
#[test]
fn the_layer_lists_who_is_in_a_cast_and_leavers_lose_their_group() {
    let chars = ring(6, |i| [0.6 + 0.05 * i as f64, 0.6, 0.5, 0.5, 0.5]);
    let mut p = pack(&as_refs(&chars), true);
    converse_for(&mut p, 10.0);
    let mut s = Session::from_pack(&p, 3).expect("valid");
    let every = s.program().talk.ticks(GROUP_EVERY);
    let mut grouped_then_left = false;
    for _ in 0..300 {
        let was = s.world().talk.chars[0].group;
        s.step();
        let (now, t) = (s.tick(), &s.world().talk);
        let want: Vec<u32> = (0..t.chars.len() as u32)
            .filter(|&i| t.chars[i as usize].cast != NONE)
            .collect();
        assert_eq!(t.layer, want, "tick {now}");
        if now.is_multiple_of(every) {
            for (i, c) in t.chars.iter().enumerate() {
                if c.cast == NONE {
                    assert_eq!(c.group, NONE, "tick {now}: {i} is outside the layer");
                }
            }
            grouped_then_left |= was != NONE && t.chars[0].cast == NONE;
        }
    }
    assert!(
        grouped_then_left,
        "n0 was in a group when it was taken back"
    );
}
