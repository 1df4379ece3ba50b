//! Townsfolk runtime: loads JSON packs (with diagnostics), compiles them, and simulates a 2D
//! world of NPCs driven by behavior trees, deterministically from a seed. No GUI dependency:
//! the editor and the `townsfolk` CLI both drive a [`Session`], and debug it through a
//! [`debug::Debugger`] (breakpoints, stepping by tick or node, step-back).
//!
//! The modules are layers, each importing only the ones above it in this list (see
//! ARCHITECTURE.md): `value` → `expr` → `pack` → `bt` → `program` → `interop` → `mods` → `world` → `trace` →
//! `systems` → `session` → `debug` → `tools`.

pub mod value;

pub mod expr;

pub mod pack;

pub mod bt;

pub mod program;

pub mod interop;

pub mod mods;

pub mod world;

pub mod trace;

pub mod systems;

pub mod session;

pub mod debug;

pub mod tools;

pub use program::Program;
pub use session::Session;
