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

/// The kernel variant [`with_avx2!`] runs now: `avx2` (the AVX2 copies), `sse2` (the baseline x86-64 code: no
/// AVX2, or switched off by [`set_avx2`]) or `portable` (not x86-64).
pub fn kernel_variant() -> &'static str {
    if cfg!(target_arch = "x86_64") {
        if avx2() { "avx2" } else { "sse2" }
    } else {
        "portable"
    }
}

/// The CPU's model name (Linux: the first `model name` of `/proc/cpuinfo`), `unknown` where it cannot be read.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .filter_map(|l| l.split_once(':'))
                .find(|(key, _)| key.trim() == "model name")
                .map(|(_, value)| value.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// One line for the head of a benchmark's output, so that its figures say where they were measured:
/// `cpu <model name> kernel <variant> avx512f <yes|no> fma <yes|no>` ([`cpu_model`], [`kernel_variant`] at the
/// time of the call: after `set_avx2(false)` it reads `sse2`). AVX-512 is reported though flinch does not use it:
/// figures from CPUs with it have differed (issue 42). FMA is reported because the NNLS of the ground reaction
/// sums with it where `matrixmultiply` does (`math::nnls`). Every bench and speed example prints it first.
pub fn cpu_report() -> String {
    #[cfg(target_arch = "x86_64")]
    let (avx512, fma) = (
        std::arch::is_x86_feature_detected!("avx512f"),
        std::arch::is_x86_feature_detected!("fma"),
    );
    #[cfg(not(target_arch = "x86_64"))]
    let (avx512, fma) = (false, cfg!(target_arch = "aarch64"));
    let yes = |b: bool| if b { "yes" } else { "no" };
    format!(
        "cpu {} kernel {} avx512f {} fma {}",
        cpu_model(),
        kernel_variant(),
        yes(avx512),
        yes(fma)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_report_names_the_model_and_the_variant() {
        let line = cpu_report();
        assert!(line.starts_with("cpu "), "{line}");
        assert!(
            line.contains(&format!(" kernel {} ", kernel_variant())),
            "{line}"
        );
        assert!(
            line.contains(" avx512f yes") || line.contains(" avx512f no"),
            "{line}"
        );
        assert!(!cpu_model().is_empty());
    }
}
