#![no_main]
//! libFuzzer target `ffi_clip_memory`: see fuzz/targets/mod.rs.

libfuzzer_sys::fuzz_target!(|data: &[u8]| flinch_fuzz::targets::ffi_clip_memory(data));
