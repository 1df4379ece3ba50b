//! Fuzz target `debug_lines`: see `townsfolk_fuzz::checks::debug_lines` and FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| townsfolk_fuzz::checks::debug_lines(data));
