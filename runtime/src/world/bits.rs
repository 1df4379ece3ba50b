//! A set of NPC indices, one bit each: the world's derived per-NPC flags
//! ([`super::World::walkers`], [`super::World::live`], [`super::World::shifted`]) that a phase scans or tests without
//! touching each NPC's struct.

/// Bit `i % 64` of word `i / 64` is NPC `i`; words past the last set bit may be missing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    /// The bytes a clone allocates (`World::heap_bytes`).
    pub(crate) fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.0.as_slice())
    }

    /// Puts `i` in the set (`on`) or takes it out.
    pub fn set(&mut self, i: usize, on: bool) {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if on {
            if self.0.len() <= word {
                self.0.resize(word + 1, 0);
            }
            self.0[word] |= bit;
        } else if let Some(w) = self.0.get_mut(word) {
            *w &= !bit;
        }
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Whether `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// The least member at `from` or after.
    pub fn next_from(&self, from: usize) -> Option<usize> {
        let mut word = from / 64;
        let mut bits = *self.0.get(word)? & (!0u64 << (from % 64));
        while bits == 0 {
            word += 1;
            bits = *self.0.get(word)?;
        }
        Some(word * 64 + bits.trailing_zeros() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::Bits;

    #[test]
    fn members_are_found_in_order_across_words() {
        let mut b = Bits::default();
        for i in [0, 35, 63, 64, 130, 200] {
            b.set(i, true);
        }
        b.set(130, false);
        b.set(1000, false);
        let mut found = Vec::new();
        let mut next = b.next_from(0);
        while let Some(i) = next {
            found.push(i);
            next = b.next_from(i + 1);
        }
        assert_eq!(found, [0, 35, 63, 64, 200]);
        assert_eq!(b.next_from(36), Some(63));
        for i in 0..1100 {
            assert_eq!(b.contains(i), found.contains(&i), "{i}");
        }
        assert_eq!(b.next_from(65), Some(200));
        assert_eq!(b.next_from(201), None);
    }
}
