//! Status codes, the thread-local last-error message and the panic guard every exported function runs in.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The result of every fallible `flinch_*` function. `FLINCH_STATUS_OK` is 0; on any other value
/// `flinch_last_error()` describes what was wrong and where, and no output parameter was written.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlinchStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// A handle is zero, destroyed, removed, stale (its slot was reused) or of a destroyed world.
    InvalidHandle = 2,
    /// An argument is out of range: bad UTF-8, a non-finite number, a non-positive time step, an unknown format,
    /// an index past the end.
    InvalidArgument = 3,
    /// The caller's buffer is too small; the required size was written to the size output where there is one.
    BufferTooSmall = 4,
    /// A file could not be read or written (`flinch_bake_file`: also a missing output folder).
    Io = 5,
    /// The clip's bytes could not be parsed (the message names the place in the file).
    Parse = 6,
    /// A JSON argument is invalid: the character configuration, or the hits of `flinch_bake_file`.
    Config = 7,
    /// No skeleton joint has the given bone name.
    UnknownBone = 8,
    /// The character could not be built from the clip, a clip without feet was asked to stand on a free root, or
    /// the simulation step failed.
    Simulation = 9,
    /// A panic was caught inside flinch (a bug; the object it happened in may be unusable).
    Panic = 10,
    /// Not an error: `flinch_world_step` completed, but the simulation guard reset at least one character to its
    /// clip (a non-finite state, joints apart or absurd speeds); `flinch_world_fault` reads what happened.
    Recovered = 11,
}

/// An error on its way out through the ABI: a status and the message for `flinch_last_error`.
#[derive(Debug, Clone, PartialEq)]
pub struct FfiError {
    /// The status returned to the caller.
    pub status: FlinchStatus,
    /// What was wrong and where.
    pub message: String,
}

impl FfiError {
    /// An error with `status` and `message`.
    pub fn new(status: FlinchStatus, message: impl Into<String>) -> FfiError {
        FfiError {
            status,
            message: message.into(),
        }
    }

    /// A NULL pointer passed as argument `what` of `function`.
    pub fn null(function: &str, what: &str) -> FfiError {
        FfiError::new(
            FlinchStatus::NullPointer,
            format!("{function}: `{what}` is NULL"),
        )
    }

    /// An invalid argument of `function`.
    pub fn argument(function: &str, message: impl std::fmt::Display) -> FfiError {
        FfiError::new(
            FlinchStatus::InvalidArgument,
            format!("{function}: {message}"),
        )
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Stores `message` as this thread's last error (interior NULs are replaced so the message is never lost).
fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

/// The last error message of the calling thread as a NUL-terminated UTF-8 string: empty after a successful call.
/// The pointer stays valid until the next `flinch_*` call on the same thread; never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Runs the body of an exported function: clears the last error, catches panics, turns an error into its status
/// and message.
pub fn guard(function: &str, body: impl FnOnce() -> Result<(), FfiError>) -> FlinchStatus {
    set_last_error("");
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => FlinchStatus::Ok,
        Ok(Err(e)) => {
            set_last_error(&e.message);
            e.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown payload".into());
            set_last_error(&format!("{function}: internal panic: {what}"));
            FlinchStatus::Panic
        }
    }
}
