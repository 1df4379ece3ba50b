//! Townsfolk runtime: loads JSON packs (with diagnostics), compiles them, and simulates a 2D
//! world of NPCs driven by behavior trees, deterministically from a seed. No GUI dependency:
//! the editor and the `townsfolk` CLI both drive a [`world::Session`], and debug it through a
//! [`debug::Debugger`] (breakpoints, stepping by tick or node, step-back). Background
//! conversations between NPCs live in [`talk`].

pub mod areas;
pub mod bt;
pub mod debug;
pub mod events;
pub mod expr;
pub mod pack;
pub mod talk;
pub mod triggers;
pub mod value;
pub mod world;
