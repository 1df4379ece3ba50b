//! Message delivery, the last phase of a tick: the messages sent during the tick reach their
//! inboxes (bounded: the oldest go first), and triggers hear what NPCs received.

use std::collections::VecDeque;

use crate::program::Program;
use crate::value::EntityId;
use crate::world::areas::state_mut;
use crate::world::triggers::{WorldEvent, report};
use crate::world::{MAX_INBOX, World};

/// Delivers this tick's messages.
pub fn deliver(p: &Program, w: &mut World) {
    let mut outbox = std::mem::take(&mut w.outbox);
    for (to, inbox, m) in outbox.drain(..) {
        if let EntityId::Npc(n) = to {
            report(
                p,
                &mut w.triggers,
                WorldEvent::Received {
                    npc: n,
                    message: m.message,
                },
            );
        }
        let boxes = match to {
            EntityId::Npc(n) => w.npcs.get_mut(n as usize).map(|n| &mut n.inboxes),
            EntityId::Area(a) => state_mut(w, a).map(|s| &mut s.inboxes),
            _ => None,
        };
        if let Some(boxes) = boxes {
            let slot = match boxes.iter().position(|(s, _)| *s == inbox) {
                Some(k) => k,
                None => {
                    boxes.push((inbox, VecDeque::new()));
                    boxes.len() - 1
                }
            };
            let q = &mut boxes[slot].1;
            if q.len() >= MAX_INBOX {
                q.pop_front();
            }
            q.push_back(m);
            if let (EntityId::Npc(n), true) = (to, inbox == p.talk.inbox) {
                w.talk.note_mail(n);
            }
        }
    }
    w.outbox = outbox;
}
