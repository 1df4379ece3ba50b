//! The JSON path of where a walk over the pack is, kept as segments (no allocation per step)
//! and written out only when a diagnostic is made: the name checks visit every node and
//! every name of a pack and report almost nothing. Written out, a trail is exactly the path
//! `pack::diag::{key, index}` build step by step.

use crate::pack::diag::{push_index, push_key};

/// One step of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// A path being walked.
#[derive(Clone, Debug, Default)]
pub(super) struct Trail<'a> {
    segs: Vec<Seg<'a>>,
}

/// A trail kept for later (a use checked once the whole pack has been seen).
pub(super) type Saved<'a> = Box<[Seg<'a>]>;

impl<'a> Trail<'a> {
    pub(super) fn new() -> Trail<'a> {
        Trail { segs: Vec::new() }
    }
    pub(super) fn key(&mut self, k: &'a str) -> &mut Self {
        self.segs.push(Seg::Key(k));
        self
    }
    pub(super) fn index(&mut self, i: usize) -> &mut Self {
        self.segs.push(Seg::Index(i));
        self
    }
    pub(super) fn len(&self) -> usize {
        self.segs.len()
    }
    /// Back to a length taken with [`Self::len`].
    pub(super) fn truncate(&mut self, n: usize) {
        self.segs.truncate(n);
    }
    /// The path, written out.
    pub(super) fn path(&self) -> String {
        render(&self.segs)
    }
    /// The path of field `k` of where the trail is.
    pub(super) fn path_key(&self, k: &str) -> String {
        let mut p = self.path();
        push_key(&mut p, k);
        p
    }
    /// The trail as it is now, with field `k` (if any) added.
    pub(super) fn save(&self, k: Option<&'a str>) -> Saved<'a> {
        let mut v = Vec::with_capacity(self.segs.len() + 1);
        v.extend_from_slice(&self.segs);
        v.extend(k.map(Seg::Key));
        v.into_boxed_slice()
    }
}

/// Segments written out as a path.
pub(super) fn render(segs: &[Seg<'_>]) -> String {
    let mut p = String::new();
    for s in segs {
        match *s {
            Seg::Key(k) => push_key(&mut p, k),
            Seg::Index(i) => push_index(&mut p, i),
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::diag::{index, key};

    #[test]
    fn a_trail_writes_out_as_the_path_built_step_by_step() {
        let mut t = Trail::new();
        t.key("world")
            .key("npcs")
            .index(3)
            .key("vars")
            .key("odd key");
        let built = key(&key(&index("world.npcs", 3), "vars"), "odd key");
        assert_eq!(t.path(), built);
        assert_eq!(render(&t.save(Some("x"))), key(&built, "x"));
        let n = t.len();
        t.key("more").index(1);
        t.truncate(n);
        assert_eq!(t.path_key("k"), key(&built, "k"));
    }
}
