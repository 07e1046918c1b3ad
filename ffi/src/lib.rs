//! # flinch-ffi
//!
//! The C ABI of flinch (`include/flinch.h`, artifacts `libflinch.so` / `libflinch.a`) and its C++ bridge
//! (`include/flinch/flinch.hpp`). A thin skin over the Rust API; see `docs/ffi.md`.
//!
//! ABI rules:
//! - Every fallible function returns a [`FlinchStatus`]; on an error `flinch_last_error()` (thread-local) says what
//!   and where, and outputs are not written (except the size outputs on `FLINCH_STATUS_BUFFER_TOO_SMALL`).
//! - Objects are addressed by generational handles (`{ uint64_t id; }`), never pointers: destroyed, removed or
//!   stale handles are reported, never dereferenced. Zero is never a valid handle.
//! - No panic crosses the ABI: each body runs under `catch_unwind` (`FLINCH_STATUS_PANIC`).
//! - Threads: any function may be called from any thread. Worlds are independent; calls on one world are
//!   serialized by its lock (use one thread per world at a time for throughput).

mod args;
mod bake;
mod bridge;
mod clip;
mod error;
mod fall;
mod handles;
mod level;
mod prepared;
mod query;
mod reliability;
mod retarget;
mod root;
mod stream;
mod world;

#[cfg(test)]
#[path = "../../fuzz/smoke/mod.rs"]
mod fuzz_smoke;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_bake;
#[cfg(test)]
mod tests_level;
#[cfg(test)]
mod tests_on_level;
#[cfg(test)]
mod tests_reliability;
#[cfg(test)]
mod tests_root;
#[cfg(test)]
mod tests_stream;

use std::ffi::c_char;

pub use bake::{FLINCH_BAKE_DEFAULT_RATE_HZ, FLINCH_JOINT_NAME_CAPACITY, FlinchBakeSummary};
pub use clip::{FlinchCharacter, FlinchClip, FlinchFormat};
pub use error::FlinchStatus;
pub use fall::{FlinchFallEvent, FlinchFallPhase};
pub use level::{
    FlinchCollider, FlinchColliderDesc, FlinchColliderShape, FlinchRayHit, FlinchRayHitKind,
};
pub use prepared::FlinchPreparedClip;
pub use query::{FlinchHitEvent, FlinchTransform};
pub use reliability::{FlinchFault, FlinchFaultKind};
pub use root::{FlinchRootEvent, FlinchRootPolicy, FlinchRootState};
pub use stream::FlinchJointVelocity;
pub use world::{FlinchBall, FlinchCharacterKey, FlinchWorld};

/// The library version, `MAJOR.MINOR.PATCH` (NUL-terminated, static). Compare with the header's
/// `FLINCH_VERSION_MAJOR`, `FLINCH_VERSION_MINOR`, `FLINCH_VERSION_PATCH`.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
