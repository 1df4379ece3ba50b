//! The fuzz targets' shared code: [`checks`] runs one input of each target (also replayed
//! without the fuzzer by `runtime/tests/fuzz_regressions.rs`).

pub mod checks;
