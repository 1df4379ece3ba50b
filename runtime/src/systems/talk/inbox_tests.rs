//! The `talk` inboxes the layer keeps apart (`TalkState::post`): bounded like any inbox,
//! read at each character's turn, and left in place for the characters after the one a
//! debugger paused at.

use super::tests::{as_refs, pack, ring};
use super::*;
use crate::debug::{Debugger, SnapshotConfig, Stop};
use crate::pack::{BreakOn, BreakpointDef};
use crate::session::Session;
use crate::value::Sym;

fn msg(k: u32) -> Message {
    Message {
        from: EntityId::Npc(0),
        message: Sym(k),
        sent: 0,
    }
}

/// An NPC's `talk` inbox holds its newest `MAX_INBOX` messages, oldest first, whatever the
/// others get in between; a tree finds the oldest (of a kind) and takes that one out.
#[test]
fn a_talk_inbox_holds_its_newest_messages_in_order() {
    let mut t = TalkState::new(3);
    let n = MAX_INBOX as u32 + 5;
    for k in 0..n {
        t.deliver(1, msg(k));
        if k % 100 == 0 {
            t.deliver(2, msg(k));
            t.deliver(0, msg(k));
        }
    }
    let want: Vec<u32> = (5..n).collect();
    let of = |t: &TalkState, npc| -> Vec<u32> { t.talk_inbox(npc).map(|m| m.message.0).collect() };
    assert_eq!(of(&t, 1), want);
    let others: Vec<u32> = (0..n).step_by(100).collect();
    assert_eq!(of(&t, 2), others);
    assert_eq!(of(&t, 0), others);
    assert_eq!(
        t.mail,
        vec![others.len() as u16, MAX_INBOX as u16, others.len() as u16]
    );
    let take = |t: &mut TalkState, npc, kind: Option<u32>| {
        let at = t.find_in_inbox(npc, kind.map(Sym))?;
        Some(t.take_from_inbox(at).message.0)
    };
    assert_eq!(take(&mut t, 1, Some(7)), Some(7));
    assert_eq!(take(&mut t, 1, None), Some(5));
    assert_eq!(take(&mut t, 1, Some(3)), None, "dropped past the bound");
    assert_eq!(&of(&t, 1)[..3], &[6, 8, 9]);
    assert_eq!(t.mail[1], MAX_INBOX as u16 - 2);
    assert_eq!(t.post.len(), MAX_INBOX - 2 + 2 * others.len());
}

/// The phase reads the mail grouped by recipient in NPC order, each character's in the order
/// delivered, and leaves out the mail of those outside the layer (their counts zeroed).
#[test]
fn the_mail_is_grouped_by_recipient_in_delivery_order() {
    let mut t = TalkState::new(6);
    for (to, k) in [(4, 0), (1, 1), (4, 2), (3, 3), (1, 4), (5, 5), (4, 6)] {
        t.deliver(to, msg(k));
    }
    t.mail[3] = 0; // NPC 3 left the layer: its mail is dropped
    let due = [0, 1, 2, 4, 5];
    let got: Vec<(u32, u32)> = group_post(&mut t, &due)
        .iter()
        .map(|(to, m)| (*to, m.message.0))
        .collect();
    assert_eq!(got, vec![(1, 1), (1, 4), (4, 0), (4, 2), (4, 6), (5, 5)]);
    assert!(t.post.is_empty(), "taken out");
}

/// A message waiting in a `talk` inbox is part of the world (its hash, a clone of it).
#[test]
fn a_waiting_talk_message_is_part_of_the_world() {
    let chars = ring(4, |_| [0.5; 5]);
    let p = pack(&as_refs(&chars), true);
    let mut s = Session::from_pack(&p, 1).expect("valid");
    s.run(50);
    let before = s.hash();
    s.world_mut().talk.deliver(2, msg(0));
    assert_ne!(s.hash(), before);
    let copy = s.clone();
    assert!(
        copy.world()
            .talk
            .talk_inbox(2)
            .eq(s.world().talk.talk_inbox(2))
    );
    assert_eq!(s.world().talk.talk_inbox(2).count(), 1);
    assert_eq!(copy.hash(), s.hash());
}

/// Paused at a character's gaze within the phase: the characters before it have read their
/// mail (or, outside the layer, lost it), those after it still have theirs, counted and
/// shown by the inspector; and the run goes on as it would have without the pause.
#[test]
fn a_pause_within_the_phase_leaves_the_later_characters_their_mail() {
    let chars = ring(8, |i| [0.5 + 0.05 * i as f64, 0.7, 0.5, 0.5, 0.5]);
    let p = pack(&as_refs(&chars), true);
    let mut d = Debugger::new(
        Session::from_pack(&p, 3).expect("valid"),
        SnapshotConfig::default(),
    );
    d.add_breakpoint(&BreakpointDef {
        id: 1,
        enabled: true,
        on: BreakOn::Event {
            kind: "gaze".into(),
            filter: Default::default(),
        },
        npc: Some("n3".into()),
        condition: None,
    })
    .expect("a breakpoint");
    let mut later_with_mail = 0;
    for _ in 0..40 {
        if !matches!(d.continue_for(2000), Stop::Breakpoint(_)) {
            break;
        }
        let t = &d.session().world().talk;
        let mut counted = 0;
        for (i, &c) in t.mail.iter().enumerate() {
            counted += usize::from(c);
            assert_eq!(
                t.talk_inbox(i as u32).count(),
                usize::from(c),
                "character {i}"
            );
            if c > 0 {
                assert!(i > 3, "character {i} keeps mail past n3's turn");
                later_with_mail += 1;
                let view = d.npc_view(i as u32).expect("an NPC");
                let shown = view.inboxes.iter().find(|(name, _)| name == "talk");
                assert_eq!(shown.map(|(_, m)| m.len()), Some(usize::from(c)));
            }
        }
        assert_eq!(counted, t.post.len(), "every entry counted");
    }
    assert!(
        later_with_mail > 10,
        "only {later_with_mail} later characters with mail"
    );
    let paused_at = d.tick();
    d.step_tick();
    let mut plain = Session::from_pack(&p, 3).expect("valid");
    plain.run(paused_at);
    assert_eq!(d.hash(), plain.hash(), "the pauses change nothing");
}
