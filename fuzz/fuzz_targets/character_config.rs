#![no_main]
//! libFuzzer target `character_config`: see fuzz/targets/mod.rs.

libfuzzer_sys::fuzz_target!(|data: &[u8]| flinch_fuzz::targets::character_config(data));
