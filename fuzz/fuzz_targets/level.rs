#![no_main]
//! libFuzzer target `level`: see fuzz/targets/mod.rs.

libfuzzer_sys::fuzz_target!(|data: &[u8]| flinch_fuzz::targets::level(data));
