//! Fuzz target `btcpp_import`: see `townsfolk_fuzz::checks::btcpp_import` and FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| townsfolk_fuzz::checks::btcpp_import(data));
