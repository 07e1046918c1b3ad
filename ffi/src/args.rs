//! Checked conversions of C arguments: NULL pointers, UTF-8, finite vectors and caller buffers become
//! [`FfiError`]s naming the function and the argument.

use std::ffi::{CStr, c_char};

use nalgebra::Vector3;

use crate::error::{FfiError, FlinchStatus};

/// The UTF-8 string at `p` (argument `what` of `function`).
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
pub unsafe fn string<'a>(
    function: &str,
    what: &str,
    p: *const c_char,
) -> Result<&'a str, FfiError> {
    if p.is_null() {
        return Err(FfiError::null(function, what));
    }
    // SAFETY: non-NULL and NUL-terminated per the caller's contract.
    let bytes = unsafe { CStr::from_ptr(p) };
    bytes.to_str().map_err(|e| {
        FfiError::argument(
            function,
            format!("`{what}` is not valid UTF-8 (at byte {})", e.valid_up_to()),
        )
    })
}

/// Like [`string`], `None` for NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
pub unsafe fn optional_string<'a>(
    function: &str,
    what: &str,
    p: *const c_char,
) -> Result<Option<&'a str>, FfiError> {
    if p.is_null() {
        Ok(None)
    } else {
        // SAFETY: forwarded contract.
        unsafe { string(function, what, p) }.map(Some)
    }
}

/// The finite 3-vector at `p`.
///
/// # Safety
/// `p` is NULL or points to 3 readable doubles.
pub unsafe fn vector(function: &str, what: &str, p: *const f64) -> Result<Vector3<f64>, FfiError> {
    if p.is_null() {
        return Err(FfiError::null(function, what));
    }
    // SAFETY: 3 readable doubles per the caller's contract.
    let v = unsafe { Vector3::new(*p, *p.add(1), *p.add(2)) };
    if v.iter().all(|c| c.is_finite()) {
        Ok(v)
    } else {
        Err(FfiError::argument(
            function,
            format!("`{what}` must be finite, got ({}, {}, {})", v.x, v.y, v.z),
        ))
    }
}

/// The output location `p`.
///
/// # Safety
/// `p` is NULL or valid for writes of one `T`.
pub unsafe fn out<'a, T>(function: &str, what: &str, p: *mut T) -> Result<&'a mut T, FfiError> {
    // SAFETY: valid when non-NULL per the caller's contract.
    unsafe { p.as_mut() }.ok_or_else(|| FfiError::null(function, what))
}

/// The caller's buffer `p` of `capacity` elements, which must hold `needed`.
///
/// # Safety
/// `p` is NULL or valid for writes of `capacity` elements.
pub unsafe fn buffer<'a, T>(
    function: &str,
    what: &str,
    p: *mut T,
    capacity: usize,
    needed: usize,
) -> Result<&'a mut [T], FfiError> {
    if p.is_null() {
        return Err(FfiError::null(function, what));
    }
    if capacity < needed {
        return Err(FfiError::new(
            FlinchStatus::BufferTooSmall,
            format!("{function}: `{what}` holds {capacity} elements, {needed} needed"),
        ));
    }
    // SAFETY: non-NULL and valid for `capacity` ≥ `needed` elements per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, needed) })
}

/// A positive finite number.
pub fn positive(function: &str, what: &str, x: f64) -> Result<f64, FfiError> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(FfiError::argument(
            function,
            format!("`{what}` must be positive and finite, got {x}"),
        ))
    }
}

/// The caller's array `p` of `count` elements (argument `what` of `function`); NULL is allowed for `count` 0.
///
/// # Safety
/// `p` is NULL or valid for reads of `count` elements.
pub unsafe fn slice<'a, T>(
    function: &str,
    what: &str,
    p: *const T,
    count: usize,
) -> Result<&'a [T], FfiError> {
    if count == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(FfiError::null(function, what));
    }
    if count
        .checked_mul(std::mem::size_of::<T>())
        .is_none_or(|n| n > isize::MAX as usize)
    {
        return Err(FfiError::argument(
            function,
            format!("`{what}` count {count} is too large"),
        ));
    }
    // SAFETY: non-NULL, valid for `count` reads per the caller's contract, and the size fits an isize.
    Ok(unsafe { std::slice::from_raw_parts(p, count) })
}

/// Item `index` of `items` (a list the caller reads one by one after asking its count), or an argument error of
/// `function` naming `what` ("root event", "fault") and the valid range.
pub fn item<'a, T>(
    function: &str,
    what: &str,
    items: &'a [T],
    index: usize,
) -> Result<&'a T, FfiError> {
    items.get(index).ok_or_else(|| {
        FfiError::argument(
            function,
            format!("{what} index {index} out of range (0..{})", items.len()),
        )
    })
}
