//! Fuzz target `pack_load`: see `townsfolk_fuzz::checks::pack_load` and FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| townsfolk_fuzz::checks::pack_load(data));
