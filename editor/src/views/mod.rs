//! One view folder per asset kind. Views turn canvas actions and inspector changes into
//! document edits; no asset view imports another.
//!
//! Pending `git merge ed-doc`: the parts that need the document API (`ViewCtx`, the tree tab,
//! the inspector, the commands) are compiled only once `document` has `Document`, `Edit`, `ops`
//! (they were checked against ed-doc's work in progress); remove the `cfg(any())` lines then.

#[cfg(any())]
mod ctx;
pub mod tree;

#[cfg(any())]
pub use ctx::{ViewCtx, ViewRequest};
