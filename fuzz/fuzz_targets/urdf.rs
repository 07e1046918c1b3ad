#![no_main]
//! libFuzzer target `urdf`: see fuzz/targets/mod.rs.

libfuzzer_sys::fuzz_target!(|data: &[u8]| flinch_fuzz::targets::urdf(data));
