//! The systems: what advances the world. One function per phase of a tick, called in the
//! order `session` lists, over `(&Program, &mut World, &mut Out)`; **phases never import
//! each other**. The services they share sit below them:
//!
//! - [`effects`]: every change a response (or a tree, or a tool) makes to the world;
//! - [`host`]: the actor host, the world as a ticking tree sees it (`bt::Host` +
//!   `expr::Env`), with request nodes (choosing and adopting behaviors).
//!
//! Phases, in tick order: [`clock`], [`triggers`], [`story`], [`areas`] (brains and
//! handlers; membership after movement), [`trees`], [`talk`], [`movement`], [`mail`].

pub mod effects;
pub mod host;

pub mod areas;
pub mod clock;
pub mod mail;
pub mod movement;
pub mod story;
pub mod talk;
pub mod trees;
pub mod triggers;
