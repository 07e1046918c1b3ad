#![no_main]
//! libFuzzer target `gltf`: see fuzz/targets/mod.rs.

libfuzzer_sys::fuzz_target!(|data: &[u8]| flinch_fuzz::targets::gltf(data));
