#![no_main]
//! libFuzzer target `view_message`: see fuzz/targets/mod.rs.

libfuzzer_sys::fuzz_target!(|data: &[u8]| flinch_fuzz::targets::view_message(data));
