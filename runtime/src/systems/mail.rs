//! Message delivery, the last phase of a tick: the messages sent during the tick reach their
//! inboxes, each through the one event stream (trace, debugger, and the triggers waiting for
//! what NPCs received).

use crate::program::Program;
use crate::systems::effects;
use crate::trace::Out;
use crate::world::World;

/// Delivers this tick's messages, in the order they were sent (all of them, even when the
/// debugger's probe asked to pause: `out.stop` is then set).
pub fn deliver(p: &Program, w: &mut World, out: &mut Out) {
    let mut outbox = std::mem::take(&mut w.outbox);
    for (to, inbox, m) in outbox.drain(..) {
        effects::deliver(p, w, to, inbox, m, out);
    }
    w.outbox = outbox;
}
