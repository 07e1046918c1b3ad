//! The fuzz targets (`targets/mod.rs`, shared with the stable smoke) for the libFuzzer binaries.

// Links the C ABI symbols the `ffi_*` targets declare.
use flinch_ffi as _;

#[path = "targets/mod.rs"]
pub mod targets;
