//! Townsfolk runtime: loads JSON packs (with diagnostics), compiles them, and simulates a 2D
//! world of NPCs driven by behavior trees, deterministically from a seed. No GUI dependency:
//! the editor and the `townsfolk` CLI both drive a [`world::Session`].

pub mod bt;
pub mod expr;
pub mod pack;
pub mod value;
pub mod world;
