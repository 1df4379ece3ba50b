//! Integration tests of the `townsfolk` command-line tool: they run the real binary. One
//! module per subcommand, in one test binary (one link instead of ten); helpers in
//! `tests/common/mod.rs`.

#[path = "../common/mod.rs"]
mod common;

mod completions;
mod coverage;
mod debug;
mod diff;
mod diverge;
mod events;
mod fmt;
mod help;
mod help_examples;
mod info;
mod merge;
mod pack;
mod pipe;
mod replay;
mod run;
mod schema;
mod talk;
mod test;
mod trace;
mod triggers;
mod validate;
