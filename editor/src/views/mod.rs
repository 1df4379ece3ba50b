//! One view folder per asset kind. Views turn canvas actions and inspector changes into
//! document edits; no asset view imports another.

mod ctx;
pub mod tree;

pub use ctx::{ViewCtx, ViewRequest};
