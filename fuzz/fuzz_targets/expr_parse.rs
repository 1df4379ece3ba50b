//! Fuzz target `expr_parse`: see `townsfolk_fuzz::checks::expr_parse` and FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| townsfolk_fuzz::checks::expr_parse(data));
