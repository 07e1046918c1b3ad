#![no_main]
//! libFuzzer target `ffi_character_config`: see fuzz/targets/mod.rs.

libfuzzer_sys::fuzz_target!(|data: &[u8]| flinch_fuzz::targets::ffi_character_config(data));
