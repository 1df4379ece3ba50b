//! Fuzz target `mod_resolve`: see `townsfolk_fuzz::checks::mod_resolve` and FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| townsfolk_fuzz::checks::mod_resolve(data));
