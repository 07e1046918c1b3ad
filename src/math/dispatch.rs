//! The step's hot kernels compiled twice, for baseline x86-64 (SSE2) and for AVX2, and picked at run time.
//!
//! A release build targets baseline x86-64 so that the library, the C ABI and the Python wheel run on any
//! x86-64 CPU. Most CPUs a game runs on have AVX2, whose three-operand (VEX) encodings and 256-bit lanes save
//! many of the register copies and shuffles of the 3×3 and 6×6 block arithmetic. [`with_avx2!`] compiles a
//! kernel (a function body that inlines its work) a second time with AVX2 enabled and calls that copy when the
//! CPU has it. FMA stays off: AVX2 performs the same IEEE operations in the same order (Rust never contracts
//! `a * b + c` and LLVM does not reassociate floating point), so both copies give the same results bit for bit
//! (`tests/avx2_dispatch.rs`) and a state hash does not depend on the CPU. See docs/performance.md, "AVX2 copies".

use std::sync::atomic::{AtomicBool, Ordering};

static OFF: AtomicBool = AtomicBool::new(false);

/// Whether the AVX2 copies run: the CPU has AVX2 and [`set_avx2`] has not switched them off.
#[inline(always)]
pub fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // `is_x86_feature_detected!` reads a cached word after its first call.
        !OFF.load(Ordering::Relaxed) && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Switches the AVX2 copies on (the default, where the CPU has AVX2) or off for the whole process. The results
/// are the same either way; this is for measuring the copies and for the tests that compare them.
pub fn set_avx2(on: bool) {
    OFF.store(!on, Ordering::Relaxed);
}

/// `with_avx2!((name: Type = value, …) -> Ret { body })` evaluates `body` over the named arguments, through a copy
/// compiled with AVX2 when [`avx2`] holds. The body should call `#[inline(always)]` functions: a call that is not
/// inlined runs that function's baseline code.
macro_rules! with_avx2 {
    (($($arg:ident: $ty:ty = $val:expr),* $(,)?) -> $ret:ty $body:block) => {{
        #[inline(always)]
        fn baseline($($arg: $ty),*) -> $ret $body
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn avx2_copy($($arg: $ty),*) -> $ret {
            baseline($($arg),*)
        }
        #[cfg(target_arch = "x86_64")]
        let out = if $crate::math::dispatch::avx2() {
            // SAFETY: `avx2()` has checked that this CPU has AVX2.
            unsafe { avx2_copy($($val),*) }
        } else {
            baseline($($val),*)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let out = baseline($($val),*);
        out
    }};
}
pub(crate) use with_avx2;
