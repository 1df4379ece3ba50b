//! Message delivery, the last phase of a tick: the messages sent during the tick reach their
//! inboxes, each through the one event stream (trace, debugger, and the triggers waiting for
//! what NPCs received).

use crate::program::Program;
use crate::systems::effects;
use crate::trace::Out;
use crate::value::EntityId;
use crate::value::Sym;
use crate::world::mem::prefetch;
use crate::world::{Message, Npc, World};

/// How many messages ahead the recipients' inboxes are fetched.
const AHEAD: usize = 8;

/// Delivers this tick's messages, in the order they were sent (all of them, even when the
/// debugger's probe asked to pause: `out.stop` is then set).
pub fn deliver(p: &Program, w: &mut World, out: &mut Out) {
    let mut outbox = std::mem::take(&mut w.outbox);
    for k in 0..outbox.len() {
        // The recipients a few messages ahead: their list of inboxes, fetched while this
        // one is delivered (a miss each otherwise, with thousands of recipients).
        if let Some(npc) = to_npc(p, w, outbox.get(k + AHEAD)) {
            prefetch(&npc.inboxes);
        }
        if let Some(npc) = to_npc(p, w, outbox.get(k + AHEAD / 2)) {
            prefetch(npc.inboxes.as_ptr());
        }
        let (to, inbox, m) = outbox[k];
        effects::deliver(p, w, to, inbox, m, out);
    }
    outbox.clear();
    w.outbox = outbox;
}

/// The NPC a message goes to, unless the conversation layer keeps that inbox.
fn to_npc<'w>(p: &Program, w: &'w World, m: Option<&(EntityId, Sym, Message)>) -> Option<&'w Npc> {
    match m {
        Some(&(to @ EntityId::Npc(n), inbox, _))
            if w.talk.kept_inbox(p.talk.inbox, to, inbox).is_none() =>
        {
            w.npcs.get(n as usize)
        }
        _ => None,
    }
}
