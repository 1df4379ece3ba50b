//! The layout of the conversation state: the compact mirrors of `TalkState` agree with the
//! chars they mirror, tick after tick, over runs with joins, leaves, splits, merges and
//! characters taken back.

use super::tests::each_tick;

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
