//! Every NPC's blackboard and the working state of its own tree, in per-world arrays: the
//! trees phase walks NPC after NPC through memory that lies in one piece (a few contiguous
//! vectors) instead of several small heap blocks per NPC. A clone is a complete copy, like
//! the rest of the world.
//!
//! Architecture Invariant: NPC `i`'s blackboard is `bb[i * stride..][..stride]` (every NPC
//! has the program's blackboard, `Program::blackboard`), and its node state and statuses are
//! the `nodes` entries of its [`Span`] in `state` and `status`, laid out in NPC order; what its
//! tree returned last is in the span itself (while lent, [`Minds::last_status`] reads `Idle`:
//! nothing reads it during the trees phase). The
//! behaviors an NPC adopts (its tags) keep their own [`crate::bt::Instance`]: they come and go.

use crate::bt::Status;
use crate::value::Value;

/// Where one NPC's tree state lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The compiled tree (`u32::MAX`: none).
    pub tree: u32,
    /// First entry in `state` / `status`.
    start: u32,
    /// Node count of the tree.
    nodes: u32,
    /// What its tree returned on the last tick it ran (beside the span: the trees phase
    /// writes it without touching the NPC's other state).
    last: Status,
}

/// The NPCs' blackboards and tree states (see the module's invariant).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Minds {
    stride: usize,
    bb: Vec<Value>,
    spans: Vec<Span>,
    state: Vec<u64>,
    status: Vec<Status>,
}

/// One NPC's tree state, borrowed from the world's arrays.
#[derive(Debug)]
pub struct Mind<'a> {
    pub tree: u32,
    pub state: &'a [u64],
    pub status: &'a [Status],
}

impl Minds {
    /// The bytes a clone allocates (`World::heap_bytes`).
    pub(crate) fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.bb.as_slice())
            + std::mem::size_of_val(self.spans.as_slice())
            + std::mem::size_of_val(self.state.as_slice())
            + std::mem::size_of_val(self.status.as_slice())
    }

    /// No NPCs; every blackboard will have `stride` slots.
    pub fn new(stride: usize) -> Minds {
        Minds {
            stride,
            ..Minds::default()
        }
    }

    /// Adds the next NPC: its blackboard (cut or padded with `false` to the stride) and a
    /// fresh (idle) state for `tree` of `nodes` nodes.
    pub fn push(&mut self, bb: &[Value], tree: u32, nodes: usize) {
        let pad = std::iter::repeat(Value::Bool(false));
        self.bb
            .extend(bb.iter().copied().chain(pad).take(self.stride));
        self.spans.push(Span {
            tree,
            start: self.state.len() as u32,
            nodes: nodes as u32,
            last: Status::Idle,
        });
        self.state.extend(std::iter::repeat_n(0, nodes));
        self.status.extend(std::iter::repeat_n(Status::Idle, nodes));
    }

    /// NPCs held.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Slots per blackboard.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Every NPC's blackboard, one after the other: NPC `npc`'s starts at `npc * stride`.
    #[inline(always)]
    pub fn slots(&self) -> &[Value] {
        &self.bb
    }

    /// NPC `npc`'s blackboard (empty for an unknown NPC).
    #[inline(always)]
    pub fn bb(&self, npc: usize) -> &[Value] {
        let at = npc * self.stride;
        self.bb.get(at..at + self.stride).unwrap_or(&[])
    }

    /// NPC `npc`'s blackboard, to write (empty for an unknown NPC).
    #[inline]
    pub fn bb_mut(&mut self, npc: usize) -> &mut [Value] {
        let at = npc * self.stride;
        self.bb.get_mut(at..at + self.stride).unwrap_or(&mut [])
    }

    /// One blackboard slot of NPC `npc`.
    #[inline]
    pub fn var(&self, npc: usize, slot: usize) -> Option<Value> {
        self.bb(npc).get(slot).copied()
    }

    /// Sets one blackboard slot of NPC `npc` (nothing for an unknown NPC or slot).
    #[inline]
    pub fn set(&mut self, npc: usize, slot: usize, v: Value) {
        if let Some(cell) = self.bb_mut(npc).get_mut(slot) {
            *cell = v;
        }
    }

    /// The compiled tree NPC `npc` runs (`u32::MAX`: none or unknown NPC).
    #[inline]
    pub fn tree(&self, npc: usize) -> u32 {
        self.spans.get(npc).map_or(u32::MAX, |s| s.tree)
    }

    /// What NPC `npc`'s tree returned on the last tick it ran (`Idle`: never, or an unknown
    /// NPC).
    #[inline]
    pub fn last_status(&self, npc: usize) -> Status {
        self.spans.get(npc).map_or(Status::Idle, |s| s.last)
    }

    /// NPC `npc`'s tree state (no nodes for an unknown NPC).
    pub fn mind(&self, npc: usize) -> Mind<'_> {
        match self.spans.get(npc) {
            Some(s) => {
                let r = s.start as usize..(s.start + s.nodes) as usize;
                Mind {
                    tree: s.tree,
                    state: self.state.get(r.clone()).unwrap_or(&[]),
                    status: self.status.get(r).unwrap_or(&[]),
                }
            }
            None => Mind {
                tree: u32::MAX,
                state: &[],
                status: &[],
            },
        }
    }

    /// Lends every NPC's tree state out ([`Nodes`]) while the trees phase ticks them, so
    /// that the world stays free to borrow; [`Minds::put_back`] returns it.
    pub(crate) fn lend(&mut self) -> Nodes {
        Nodes {
            spans: std::mem::take(&mut self.spans),
            state: std::mem::take(&mut self.state),
            status: std::mem::take(&mut self.status),
        }
    }

    /// Takes back what [`Minds::lend`] lent (NPCs added meanwhile come after those lent).
    pub(crate) fn put_back(&mut self, mut nodes: Nodes) {
        let shift = nodes.state.len() as u32;
        for s in &mut self.spans {
            s.start += shift;
        }
        nodes.spans.append(&mut self.spans);
        nodes.state.append(&mut self.state);
        nodes.status.append(&mut self.status);
        self.spans = nodes.spans;
        self.state = nodes.state;
        self.status = nodes.status;
    }
}

/// The NPCs' tree states while lent out of the world ([`Minds::lend`]).
#[derive(Debug)]
pub(crate) struct Nodes {
    spans: Vec<Span>,
    state: Vec<u64>,
    status: Vec<Status>,
}

impl Nodes {
    /// NPCs lent.
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// NPC `npc`'s tree and its state and statuses, to tick, and where the tick's result
    /// goes ([`Minds::last_status`]).
    #[inline]
    pub(crate) fn get_mut(&mut self, npc: usize) -> Option<Lent<'_>> {
        let s = self.spans.get_mut(npc)?;
        let r = s.start as usize..(s.start + s.nodes) as usize;
        let state = self.state.get_mut(r.clone())?;
        let status = self.status.get_mut(r)?;
        Some(Lent {
            tree: s.tree,
            state,
            status,
            last: &mut s.last,
        })
    }
}

/// One NPC's tree state while lent ([`Nodes::get_mut`]).
pub(crate) struct Lent<'a> {
    pub tree: u32,
    pub state: &'a mut [u64],
    pub status: &'a mut [Status],
    pub last: &'a mut Status,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npcs_lie_one_after_the_other_and_survive_a_loan() {
        let mut m = Minds::new(2);
        m.push(&[Value::Int(1), Value::Int(2), Value::Int(9)], 0, 3);
        m.push(&[Value::Int(3)], 1, 2);
        assert_eq!(m.bb(0), &[Value::Int(1), Value::Int(2)]);
        assert_eq!(m.bb(1), &[Value::Int(3), Value::Bool(false)]);
        assert_eq!(m.var(1, 0), Some(Value::Int(3)));
        assert_eq!(
            m.var(0, 2),
            None,
            "a slot past the stride is not the next NPC's"
        );
        assert_eq!(m.bb(2), &[] as &[Value]);
        m.set(0, 2, Value::Int(7));
        assert_eq!(
            m.bb(1)[0],
            Value::Int(3),
            "a slot past the stride writes nothing"
        );
        m.set(0, 1, Value::Int(5));
        assert_eq!(m.bb(0), &[Value::Int(1), Value::Int(5)]);
        let mut lent = m.lend();
        assert_eq!(m.mind(0).status, &[] as &[Status], "lent out");
        let one = lent.get_mut(1).expect("npc 1");
        assert_eq!((one.tree, one.state.len(), one.status.len()), (1, 2, 2));
        one.state[1] = 7;
        one.status[0] = Status::Running;
        *one.last = Status::Success;
        // An NPC spawned while the states are lent goes after them.
        m.push(&[], 2, 4);
        m.put_back(lent);
        assert_eq!(m.len(), 3);
        assert_eq!(m.mind(1).state, &[0, 7]);
        assert_eq!(m.mind(1).status[0], Status::Running);
        assert_eq!(m.last_status(1), Status::Success);
        assert_eq!(m.last_status(0), Status::Idle);
        assert_eq!(m.mind(0).state.len(), 3);
        let spawned = m.mind(2);
        assert_eq!((spawned.tree, spawned.state.len()), (2, 4));
        assert_eq!(m.mind(3).tree, u32::MAX);
    }
}
